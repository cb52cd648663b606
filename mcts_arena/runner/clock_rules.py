"""A config's clocks (docs/clocks.md): the time control a config, a match entry, one side of
it or a player's own `clock=` gives, the time margin, each side's budget on its clock, and the
rungs of a ladder of clocks (docs/scaling.md). `ClockRules` is the part of runner.config's
Validator that reads them (the Validator gives `fail`, `known_keys`, `_parse`, `_game`,
`_macros` and `_margin`)."""
from __future__ import annotations

import math
from typing import Any

from mcts_arena import budgets
from mcts_arena.budgets import Budget
from mcts_arena.runner.values import _is_number, is_int, shown

#: A match entry's per-side clocks (time odds): `clock: {player: "10+0.1", opponent: "5+0.1"}`.
SIDE_CLOCK_FIELDS = ("player", "opponent")


def unmanaged(spec) -> bool:
    """A player without time management (`tm=0`) and without a fixed depth: on a clock it
    searches each move to its simulation cap, so it needs one."""
    get = getattr(spec, "get", None)
    return get is not None and get("tm") == 0 and not get("depth")


class ClockRules:
    """The config's clock rules, mixed into runner.config.Validator (see the module)."""

    def clock(self, v: Any, path: str) -> str:
        """A time control as cutechess-cli writes one (`60+0.5`, `40/60`, `0:30+0.1`) in its
        one text form (`60+0.5`, `40/60+0`, `30+0.1`), or `inf`: no clock."""
        if isinstance(v, str) and v.strip() == budgets.NO_CLOCK:
            return budgets.NO_CLOCK
        if _is_number(v) and math.isfinite(v):
            v = f"{v:g}"            # YAML reads `clock: 60` (cutechess's tc=60) as a number
        try:
            return budgets.parse_clock(v).text()
        except ValueError as e:
            self.fail(path, f"{e}" + (" (or inf: no time limit)" if str(e).startswith("expected")
                                      else ""))

    def timemargin(self, v: Any, path: str) -> float | None:
        """cutechess-cli's `timemargin` in milliseconds, as seconds; None for the default."""
        if not _is_number(v) or not math.isfinite(v) or not 0 <= v <= budgets.MARGIN_MAX_MS:
            self.fail(path, f"expected {budgets.MARGIN_TEXT}, got {shown(v)}")
        seconds = round(float(v) / 1000, 6)
        return None if seconds == budgets.MARGIN_DEFAULT else seconds

    def clocked(self, budget: Budget | None, clock: str, path: str) -> Budget:
        """`budget` on the clock `clock`: a simulation budget stays as a cap per move; a fixed
        time or effort per move contradicts the clock, which decides each move's time. On
        `inf` (no clock) the budget per move alone, which must then be there."""
        if clock == budgets.NO_CLOCK:
            per_move = budget if budget is None or budget.clock is None else \
                (Budget(sims=budget.sims) if budget.sims is not None else None)
            if per_move is None:
                self.fail(path, "clock inf sets no time limit, so each move needs a budget of "
                                "its own: give budget (sims, time or effort) or the player's "
                                "sims=")
            return per_move
        if budget is not None and (budget.time is not None or budget.effort is not None):
            self.fail(path, f"a clock ({clock}) decides each move's time, which the fixed "
                            f"budget {budget.text()} per move contradicts; give the clock "
                            f"alone, or with sims (a cap per move)")
        return Budget(sims=budget.sims if budget is not None else None, clock=clock,
                      margin=self._margin)

    def managed(self, canonical: str, budget: Budget | None, path: str) -> None:
        """A player on a clock without time management (`tm=0`) searches each move to its
        cap, so it needs one (a simulation cap, or an αβ depth)."""
        if budget is None or budget.clock is None or budget.sims is not None:
            return
        if unmanaged(self._parse(canonical, game=self._game, macros=self._macros)):
            self.fail(path, f"{canonical} has no time management (tm=0), so on a clock "
                            f"({budget.clock}) it searches each move to its cap: give it "
                            f"sims= or the budget sims (a cap per move)")

    def side_budget(self, canonical: str, own: Budget | None, clock: str | None, e: dict,
                    side: str, budget: Budget | None, path: str) -> Budget | None:
        """One side's budget in a match entry: the player's own clock (`clock=`) as it is, and
        refused beside a clock the entry gives that side (a clock given twice); else the
        entry's (or the experiment's) clock over the player's own budget, as `clocked` says."""
        given = "clock" in e and (not isinstance(e["clock"], dict) or side in e["clock"])
        if own is not None and own.clock is not None:
            if given:
                self.fail(path, f"{canonical} has a clock of its own ({own.clock}) and the "
                                f"entry gives its side the clock {clock}: give one of them")
            return own
        if clock is not None and (own is not None or "clock" in e):
            return self.clocked(own or budget, clock, path)
        return own

    def match_clocks(self, e: dict, ep: str, kind: str, budget: Budget | None
                     ) -> tuple[str | None, str | None]:
        """The clocks of a match entry's two sides: its own `clock` (one for both, or
        {player:, opponent:} for time odds), else the experiment's."""
        default = budget.clock if budget is not None else None
        if "clock" not in e:
            return default, default
        v = e["clock"]
        if not isinstance(v, dict):
            c = self.clock(v, f"{ep}.clock")
            return c, c
        if kind not in ("player", "gauntlet"):
            self.fail(f"{ep}.clock", f"clocks per side (time odds) are for a player and "
                                     f"opponent or a gauntlet; a {kind} entry takes one clock")
        self.known_keys(v, f"{ep}.clock", SIDE_CLOCK_FIELDS)
        return tuple(self.clock(v[k], f"{ep}.clock.{k}") if k in v else default
                     for k in SIDE_CLOCK_FIELDS)

    def clock_ladder(self, v: Any, path: str, most: int) -> tuple[str, ...]:
        """The rungs of a ladder of clocks (their one text form): a list of `most` rungs at
        most that grows, or {from: CLOCK, doublings: K}; the rungs scale one clock (base and
        increment by one factor, the same moves per period), so a doubling doubles the whole
        clock."""
        if isinstance(v, dict):
            self.known_keys(v, path, ("from", "doublings"))
            for req in ("from", "doublings"):
                if req not in v:
                    self.fail(f"{path}.{req}", "missing required field")
            first = self.rung(v["from"], f"{path}.from")
            n = v["doublings"]
            if not is_int(n) or not 1 <= n < most:
                self.fail(f"{path}.doublings", f"expected an integer from 1 to "
                                               f"{most - 1}, got {shown(n)}")
            top = first.base * 2 ** n
            if top > budgets.CLOCK_MAX:
                self.fail(f"{path}.doublings", f"the top rung's base time {top:g} s is out of "
                                               f"range: expected {budgets.CLOCK_TEXT}")
            return tuple(budgets.Clock(first.base * 2 ** k, first.inc * 2 ** k,
                                       first.moves).text() for k in range(n + 1))
        if not isinstance(v, list) or len(v) < 2:
            self.fail(path, f"expected a list of at least 2 clocks or {{from: CLOCK, "
                            f"doublings: K}}, got {shown(v)}")
        if len(v) > most:
            self.fail(path, f"expected at most {most} levels, got {len(v)}")
        rungs = [self.rung(c, f"{path}[{k}]") for k, c in enumerate(v)]
        first = rungs[0]
        for k, c in enumerate(rungs[1:], 1):
            if not c.base > rungs[k - 1].base:
                self.fail(f"{path}[{k}]", f"a ladder must grow: {c.text()} does not exceed "
                                          f"{rungs[k - 1].text()}")
            if c.moves != first.moves or not math.isclose(c.inc * first.base,
                                                          first.inc * c.base, rel_tol=1e-9):
                self.fail(f"{path}[{k}]", f"{c.text()} is not {first.text()} scaled: a clock "
                                          f"ladder's rungs keep one increment per second of "
                                          f"base time and one number of moves per period, so "
                                          f"each doubling doubles the whole clock")
        return tuple(c.text() for c in rungs)

    def rung(self, v: Any, path: str) -> budgets.Clock:
        """One rung of a clock ladder: a clock, not `inf` (a ladder of time limits)."""
        text = self.clock(v, path)
        if text == budgets.NO_CLOCK:
            self.fail(path, "a clock ladder's rungs are time limits; inf is none")
        return budgets.parse_clock(text)
