"""Budgets: the one `Budget` type and its text, and the ranges every budget must lie in (one
place, checked by the config, the command line, the player specs and, for the per-move budgets,
by the searches themselves).

- `time`: seconds per move, from TIME_MIN (0.0001) to TIME_MAX (3600); NaN and infinities are
  refused like any value outside the range.
- `sims`: simulations per move (αβ: nodes), an integer from 1 to SIMS_MAX (100,000,000).
- games per pairing: from 1 to GAMES_MAX (100,000); one plan holds at most PLAN_MAX (200,000)
  games (a plan lists every game, so a larger one would not fit in memory).

- `clock`: a time control per game as cutechess-cli writes one: `BASE+INC` (BASE seconds for
  the game plus INC seconds a move, e.g. `60+0.5`), `MOVES/BASE+INC` (BASE seconds for every
  MOVES moves, e.g. `40/60+0`), the increment left out for none (`60`, `40/60`) and BASE in
  minutes as `M:SS` or `H:MM:SS` (`0:30+0.1`): `Clock`, parsed by `parse_clock`, whose one text
  form is `60+0`, `40/60+0`, `30+0.1`. BASE lies from TIME_MIN to CLOCK_MAX, INC from 0 to
  BASE. `inf` (no time limit) is no clock: the config reads it (`NO_CLOCK`).
- the time margin on a clock: a move may overrun its side's time by MARGIN_DEFAULT seconds (or
  a config's `timemargin`, cutechess-cli's option of that name, in milliseconds from 0 to
  MARGIN_MAX_MS) before the side loses on time.

The searches (mcts.pyx, alphabeta.pyx, expectimax.pyx) refuse a budget outside these ranges with
a ValueError and stop after TIME_MAX seconds whatever the budget (a simulation or node count, a
fixed αβ depth), so a move always ends. On a clock a search is also given a hard limit (its
side's time left plus the margin, at most HARD_MAX seconds), which replaces TIME_MAX: it stops
there whatever its time-management rule, so a move on a long clock may take more than TIME_MAX.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

TIME_MIN = 1e-4
TIME_MAX = 3600.0
#: What a simulation or node budget plays, said wherever a measured figure differs from it.
WORK_NOTE = ("a move's searched work is the mean of what it played: below its `sims` where the "
             "move was forced or the root proven (the search stops early); αβ reads a node "
             "budget every 1,024 nodes and the *-minimax searches every 256, so their `sims` "
             "is rounded up to that multiple (αβ: 200 → 1,024 nodes; Star2: 500 → 512)")
SIMS_MAX = 100_000_000
GAMES_MAX = 100_000
PLAN_MAX = 200_000

TIME_TEXT = f"a number of seconds from {TIME_MIN:g} to {TIME_MAX:g}"
SIMS_TEXT = f"an integer from 1 to {SIMS_MAX}"
CLOCK_MAX = 86_400.0
CLOCK_TEXT = ("a time control [MOVES/]BASE[+INC] in seconds (e.g. 60+0.5, 40/60, 0:30+0.1), "
              f"BASE from {TIME_MIN:g} to {CLOCK_MAX:g}, INC from 0 to BASE")
GAMES_TEXT = f"an integer from 1 to {GAMES_MAX}"
#: cutechess-cli's spelling of "no time limit" (`tc=inf`): no clock at all.
NO_CLOCK = "inf"
MARGIN_DEFAULT = 0.05
MARGIN_MAX_MS = 60_000
MARGIN_TEXT = f"a number of milliseconds from 0 to {MARGIN_MAX_MS}"
#: The longest hard limit a search is given on a clock (a clock can save up more than this).
HARD_MAX = 1e9


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def time_ok(v) -> bool:
    """A per-move time budget inside the range (a finite number, not a bool)."""
    return _is_number(v) and math.isfinite(v) and TIME_MIN <= v <= TIME_MAX


def sims_ok(v) -> bool:
    """A per-move simulation (node) budget inside the range (an int, not a bool)."""
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= SIMS_MAX


def games_ok(v) -> bool:
    """A number of games per pairing inside the range."""
    return isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= GAMES_MAX


_NUM = r"(?:\d+(?:\.\d*)?|\.\d+)"
# MOVES/ (optional), then BASE as seconds, M:SS or H:MM:SS, then +INC (optional); ASCII digits
# only (a `\d` of another script reads as a number too)
_CLOCK_RE = re.compile(rf"^(?:(\d+)/)?(?:(\d+):)??(?:(\d+):)?({_NUM})(?:\+({_NUM}))?$", re.ASCII)
CLOCK_MOVES_MAX = 10_000        # moves of a side per period (GTP's time_settings passes it on)


@dataclass(frozen=True)
class Clock:
    """A game's time control: `base` seconds (per period of `moves` moves of one side, or for
    the whole game when `moves` is 0) plus `inc` seconds after every move of that side."""

    base: float
    inc: float = 0.0
    moves: int = 0

    def text(self) -> str:
        """Its one text form, which `parse_clock` reads back: `60+0.5`, `40/60+0`."""
        head = f"{self.moves}/" if self.moves else ""
        return f"{head}{self.base:g}+{self.inc:g}"

    def pgn(self) -> str:
        """As a PGN `TimeControl` tag gives it (cutechess-cli's form): `60+0.5`, `60`, `40/60`,
        `40/60+0.5`."""
        head = f"{self.moves}/" if self.moves else ""
        return f"{head}{self.base:g}" + (f"+{self.inc:g}" if self.inc else "")

    def __str__(self) -> str:
        return self.text()


def parse_clock(text) -> Clock:
    """The Clock a text such as `60+0.5` or `40/60+0` stands for; ValueError (naming the
    problem) for a malformed one, a base out of range, or an increment above the base."""
    if not isinstance(text, str):
        raise ValueError(f"expected {CLOCK_TEXT}, got {text!r}")
    m = _CLOCK_RE.match(text.replace(" ", ""))
    if not m:
        raise ValueError(f"expected {CLOCK_TEXT}, got {text!r}")
    hours, minutes, seconds = m.group(2), m.group(3), m.group(4)
    if minutes is not None and float(seconds) >= 60 or hours is not None and int(minutes) >= 60:
        raise ValueError(f"a clock's minutes and seconds after ':' must be below 60, got "
                         f"{text!r}")
    moves = int(m.group(1) or 0)
    base = float(seconds) + 60 * int(minutes or 0) + 3600 * int(hours or 0)
    inc = float(m.group(5) or 0)
    if m.group(1) is not None and moves < 1:
        raise ValueError(f"a clock's moves per period must be at least 1, got {text!r}")
    if moves > CLOCK_MOVES_MAX:
        raise ValueError(f"a clock's moves per period must be at most {CLOCK_MOVES_MAX}, got "
                         f"{text!r}")
    if not TIME_MIN <= base <= CLOCK_MAX:
        raise ValueError(f"a clock's base time must be {TIME_MIN:g} to {CLOCK_MAX:g} s, "
                         f"got {base:g} in {text!r}")
    if inc > base:
        raise ValueError(f"a clock's increment ({inc:g} s) exceeds its time ({base:g} s) in "
                         f"{text!r}")
    return Clock(base, inc, moves)


@dataclass(frozen=True)
class Budget:
    """What one move may spend, the one type a budget has from the config to the store:
    wall-clock seconds (`time`), simulations/nodes (`sims`), or matched effort (`effort`: the
    paper engine's search effort in that many seconds, see runner/effort.py). A matched effort
    is resolved per player into `sims`, keeping `effort` (node priors scale with it), `rate_of`
    (the rate entry used) and `unit` (what `sims` counts: sims or nodes).

    Its one text form is `text()`: `1 s`, `30 sims`, `effort 0.5 s` (resolved: `effort 0.5 s =
    5000 sims`); `str()` says it per move (`1 s/move`). In JSON (the store, configs) it is
    `as_dict()`: {"time": 1.0}, {"sims": 30}, {"effort": 0.5, "sims": 5000, ...}.

    A game on a clock carries `clock` (its text, `60+0.5`; `Budget.clock_of()` the Clock): the
    runner keeps each side's time and the player's time-management rule decides each move's
    seconds; a `sims` beside it caps every move (`clock 60+0.5, 1000 sims`). `margin`: the
    seconds a move may overrun the side's time left before it loses on time, kept only when it
    is not MARGIN_DEFAULT (`clock 60+0.5, margin 0.2 s`; `margin_s()` the seconds either way).
    """

    time: float | None = None
    sims: int | None = None
    effort: float | None = None
    rate_of: str | None = None
    unit: str | None = None
    clock: str | None = None
    margin: float | None = None

    def margin_s(self) -> float:
        """The time margin on this budget's clock, in seconds."""
        return MARGIN_DEFAULT if self.margin is None else self.margin

    def clock_of(self) -> Clock | None:
        """The game's time control, or None (a budget per move only)."""
        return None if self.clock is None else parse_clock(self.clock)

    def as_dict(self) -> dict:
        if self.time is not None:
            return {"time": self.time}
        d: dict = {} if self.clock is None else {"clock": self.clock}
        if self.margin is not None:
            d["margin"] = self.margin
        if self.sims is not None:
            d["sims"] = self.sims
        if self.effort is not None:
            d["effort"] = self.effort
        if self.rate_of is not None:
            d["rate_of"] = self.rate_of
        if self.unit is not None:
            d["unit"] = self.unit
        return d

    @classmethod
    def from_dict(cls, d: dict | None) -> Budget | None:
        if not d:
            return None
        return cls(time=d.get("time"), sims=d.get("sims"), effort=d.get("effort"),
                   rate_of=d.get("rate_of"), unit=d.get("unit"), clock=d.get("clock"),
                   margin=d.get("margin"))

    @classmethod
    def of(cls, value) -> Budget | None:
        """A Budget from a Budget, its dict form (stored JSON), a tuple of (key, value) pairs
        (a player spec's own budget), or None."""
        if value is None or isinstance(value, Budget):
            return value
        return cls.from_dict(dict(value))

    def __eq__(self, other) -> bool:
        """A budget equals another with the same fields, and its own dict form (stored JSON)."""
        if isinstance(other, dict):
            return self.as_dict() == other
        if isinstance(other, Budget):
            return self._key() == other._key()
        return NotImplemented

    def _key(self) -> tuple:
        return (self.time, self.sims, self.effort, self.rate_of, self.unit, self.clock,
                self.margin)

    def __hash__(self) -> int:
        return hash(self._key())

    def text(self) -> str:
        """The budget's one text form (see the class docstring)."""
        if self.clock is not None:
            per_move = Budget(sims=self.sims, effort=self.effort, rate_of=self.rate_of,
                              unit=self.unit)
            cap = f", {per_move.text()}" if self.sims is not None else ""
            margin = f", margin {self.margin:g} s" if self.margin is not None else ""
            return f"clock {self.clock}{cap}{margin}"
        if self.time is not None:
            return f"{self.time:g} s"
        if self.effort is not None:
            return f"effort {self.effort:g} s" + (f" = {self.sims} {self.unit or 'sims'}"
                                                  if self.rate_of else "")
        return f"{self.sims} sims"

    def __str__(self) -> str:
        return self.text() if self.clock is not None else f"{self.text()}/move"


def text(budget) -> str:
    """The text form of a budget given as a Budget or its dict form; `?` for none."""
    b = Budget.of(budget)
    return "?" if b is None else b.text()
