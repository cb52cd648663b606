"""Time management on a game clock: what a player is told before a move (`ClockLeft`) and the
rule that turns it into the move's seconds (`allot`).

The runner keeps the clock (runner/match.py); a player with the option `tm=N` (default 30)
spends the time left / N + the increment on a move, where N is the fewer of N and the moves
still to play in the period when the clock has periods (`40/60+0`), never more than SAFETY of
the time left, less the move's overhead: what the clock charged beyond the seconds the search
was given (starting the search, the game loop's call, a busy machine's scheduling), which the
player learns from its own clock (`Overhead`: the largest overrun of its recent moves). `tm=0` turns
time management off: the move is searched to its simulation cap, whatever the clock says.
The MCTS option `stop=f` adds the STOP rule inside the search (players/search/mcts.pyx).

Whatever the rule, a move on a clock has a hard limit (`hard_limit`): the time left plus the
clock's margin (cutechess-cli's `timemargin`), at which the searches stop; a move that takes
longer loses on time.
"""
from __future__ import annotations

from dataclasses import dataclass

from mcts_arena.budgets import HARD_MAX, TIME_MIN

TM_DEFAULT = 30
#: The most of its time left a move is given (the rest covers the move's overhead).
SAFETY = 0.9


@dataclass(frozen=True)
class ClockLeft:
    """One side's clock before its move: seconds left, the increment after the move, the
    moves still to play in the current period (0: the clock has no periods), and the margin:
    how far past its time left a move may run before the side loses on time."""

    left: float
    inc: float
    to_go: int = 0
    margin: float = 0.0


def hard_limit(clock: ClockLeft) -> float:
    """The seconds after which a move on `clock` loses on time: the searches stop there."""
    return min(HARD_MAX, max(TIME_MIN, clock.left + clock.margin))


def allot(clock: ClockLeft, tm: int | None, overhead: float = 0.0) -> float | None:
    """Seconds for this move under the rule `tm` (None: the default; 0: no time management,
    None returned), `overhead` seconds kept back for what the clock charges beyond them."""
    n = TM_DEFAULT if tm is None else int(tm)
    if n <= 0:
        return None
    if clock.to_go:
        n = min(n, clock.to_go)
    return max(0.0, min(clock.left / n + clock.inc, SAFETY * clock.left) - overhead)


class Overhead:
    """A player's overhead per move on a clock, learnt from the clock itself: before each move
    the time left tells what the previous move cost (the time left then, plus the increment,
    minus the time left now), and what it cost beyond the seconds the player gave its search
    is the overrun. The estimate is the largest overrun of the last WINDOW moves."""

    WINDOW = 8

    def __init__(self):
        self.recent: list[float] = []
        self.last: tuple[ClockLeft, float] | None = None     # the clock and seconds given

    def update(self, clock: ClockLeft) -> float:
        """The estimate before a move on `clock` (a new period's refill is not an overrun)."""
        if self.last is not None:
            before, given = self.last
            spent = before.left + before.inc - clock.left
            if spent > 0 and not (before.to_go == 1 and clock.to_go > 1):
                self.recent = (self.recent + [max(0.0, spent - given)])[-self.WINDOW:]
        return max(self.recent, default=0.0)

    def given(self, clock: ClockLeft, seconds: float) -> None:
        self.last = (clock, seconds)
