"""Time management on a game clock: what a player is told before a move (`ClockLeft`) and the
rule that turns it into the move's seconds (`allot`).

The runner keeps the clock (runner/match.py); a player with the option `tm=N` (default 30)
spends the time left / N + the increment on a move, where N is the fewer of N and the moves
still to play in the period when the clock has periods (`40/60+0`), and never more than
SAFETY of the time left (so a move's own overhead does not run the clock out). `tm=0` turns
time management off: the move is searched to its simulation cap, whatever the clock says.
The MCTS option `stop=f` adds the STOP rule inside the search (players/search/mcts.pyx).
"""
from __future__ import annotations

from dataclasses import dataclass

TM_DEFAULT = 30
#: The most of its time left a move is given (the rest covers the move's overhead).
SAFETY = 0.9


@dataclass(frozen=True)
class ClockLeft:
    """One side's clock before its move: seconds left, the increment after the move, and the
    moves still to play in the current period (0: the clock has no periods)."""

    left: float
    inc: float
    to_go: int = 0


def allot(clock: ClockLeft, tm: int | None) -> float | None:
    """Seconds for this move under the rule `tm` (None: the default; 0: no time management,
    None returned)."""
    n = TM_DEFAULT if tm is None else int(tm)
    if n <= 0:
        return None
    if clock.to_go:
        n = min(n, clock.to_go)
    return max(0.0, min(clock.left / n + clock.inc, SAFETY * clock.left))
