"""What a move will cost before anything is played, for the plans of `--dry-run`.

Under a time budget a move costs its seconds. Under a simulation or node budget (`sims`, or an
effort resolved into simulations or nodes per player) the cost is measured: the player searches
the game's start position once with at most `PROBE_SIMS` simulations (one CPU, process time),
and the seconds per simulation it took are scaled to its budget. The same search says how much
work a move really does: a fixed depth (`αβ(efMS,d4)`, `Star2(d2)`) searches as deep as it is
told whatever the node budget, so its cost is what the probe took and the plan says so.

The start position is not a middle game, so these are estimates (the plan says from what);
an external engine (GTP) cannot be measured before it plays and has no estimate.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from mcts_arena import games
from mcts_arena.budgets import Budget
from mcts_arena.players import kinds

#: The most simulations (or nodes) one probe searches; a bigger budget is scaled from it.
PROBE_SIMS = 2000
#: A probe that searched more than this many times its budget ignored the budget (a fixed depth).
OVERRIDE_FACTOR = 2


@dataclass(frozen=True)
class MoveCost:
    """One player's move under one budget: CPU `seconds` (None: unknown, an external engine),
    the `work` a move searches and its `unit` ("sims" or "nodes"; 0 and "" under a time
    budget), and whether the spec's fixed depth `overrides` the budget's count."""

    seconds: float | None
    work: int = 0
    unit: str = ""
    overrides: bool = False

    def text(self, budget: Budget) -> str:
        """How the plan states it: "2000 sims/move, about 0.021 s" (or the override)."""
        if budget.time is not None:
            return f"{budget.time:g} s/move"
        if self.seconds is None:
            return f"{budget.text()}/move, no estimate (an external engine)"
        head = f"{budget.text()}/move" if budget.effort is not None else \
            f"{self.work:,} {self.unit}/move"
        if self.overrides:
            head = (f"{budget.text()}/move, but its fixed depth searches about {self.work:,} "
                    f"{self.unit} a move whatever the budget")
        elif self.unit == "nodes" and budget.sims and self.work > budget.sims:
            head += (f" (sims {budget.sims:,} rounded up: αβ reads a node budget every 1,024 "
                     f"nodes, the *-minimax searches every 256)")
        return f"{head}, about {self.seconds:.3g} s at the start"


def _decision_position(game: str):
    """The game's start position, past any opening dice (a player is asked at decisions)."""
    state = games.new_state(game)
    while state.is_chance_node() and not state.is_terminal():
        state.play(state.moves()[0])
    return state


def move_cost(spec: str, game: str, budget: Budget, macros: dict | None = None) -> MoveCost:
    """The cost of one move of player `spec` under `budget` (see the module docstring)."""
    if budget.time is not None:
        return MoveCost(budget.time)
    from mcts_arena.players import make

    player = make(spec, game=str(game), seed=1, macros=macros)
    if not kinds.of(player.spec).probed:       # an outside engine: no probe move
        return MoveCost(None)
    try:
        sims = budget.sims
        probe = min(sims, PROBE_SIMS)
        state = _decision_position(str(game))
        start = time.process_time()
        _move, st = player.choose(state, sims=probe, effort=budget.effort)
        took = time.process_time() - start
    finally:
        player.close()
    unit = "sims" if st.get("sims") else "nodes"
    done = int(st.get("sims") or st.get("nodes") or probe)
    fixed = player.spec.get("depth") is not None if hasattr(player.spec, "get") else False
    if fixed and done > OVERRIDE_FACTOR * probe:    # the depth, not the budget, bounded it
        return MoveCost(took, done, unit, overrides=True)
    if probe == sims:       # the whole budget was searched: what it did is what a move does
        return MoveCost(took, done, unit)
    return MoveCost(took * sims / max(probe, 1), sims, unit)


class Costs:
    """Each (player, budget)'s move cost, measured once for a whole plan."""

    def __init__(self, game: str, macros: dict | None = None):
        self.game, self.macros = game, macros
        self._known: dict[tuple[str, Budget], MoveCost] = {}

    def of(self, spec: str, budget: Budget) -> MoveCost:
        key = (spec, budget)
        if key not in self._known:
            self._known[key] = move_cost(spec, self.game, budget, self.macros)
        return self._known[key]
