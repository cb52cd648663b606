"""The ranges every budget must lie in: one place, checked by the config, the command line,
the player specs and (for the per-move budgets) by the searches themselves.

- `time`: seconds per move, from TIME_MIN (0.0001) to TIME_MAX (3600); NaN and infinities are
  refused like any value outside the range.
- `sims`: simulations per move (αβ: nodes), an integer from 1 to SIMS_MAX (100,000,000).
- games per pairing: from 1 to GAMES_MAX (100,000); one plan holds at most PLAN_MAX (200,000)
  games (a plan lists every game, so a larger one would not fit in memory).

The searches (mcts.pyx, alphabeta.pyx) refuse a budget outside these ranges with a ValueError
and stop after TIME_MAX seconds whatever the budget (a simulation or node count, a fixed αβ
depth), so a move always ends.
"""
from __future__ import annotations

import math

TIME_MIN = 1e-4
TIME_MAX = 3600.0
SIMS_MAX = 100_000_000
GAMES_MAX = 100_000
PLAN_MAX = 200_000

TIME_TEXT = f"a number of seconds from {TIME_MIN:g} to {TIME_MAX:g}"
SIMS_TEXT = f"an integer from 1 to {SIMS_MAX}"
GAMES_TEXT = f"an integer from 1 to {GAMES_MAX}"


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
