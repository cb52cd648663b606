"""α adapted online (`MCTS(bl,ima)`): implicit minimax whose weight α is chosen before each
move's search by a bandit over a few values, each rewarded by the outcome of the choice made
with it, as the paper's §5 sketches ("α could be changed based on the outcomes of each choice
made during the game").

The rule (docs/future-work.md argues it):

- the arms are the α values `ARMS`; before a move, UCB1 (Auer, Cesa-Bianchi & Fischer 2002)
  picks one: an arm not yet played first (in an order drawn from the player's seed), then the
  largest mean reward + C sqrt(ln N / n) (n: the arm's plays, N: all plays; ties to the arm
  first in that order);
- a move's reward is the temporal difference of the side's own root values: the search with α
  gives its move the value V (the move's mean reward, the mover's view, ±1 once proven); the
  side's next search gives V'; the choice made with α is rewarded (V' - V) / 2, in [-1, 1]:
  positive when the next search found the position better than the choice promised, negative
  when the opponent's reply refuted it. The sum of a game's rewards telescopes to its last
  value less its first, so the rewards share out the outcome of the game among its choices;
- a move searched with no simulation (one legal move, a forced action) plays no arm: α did not
  decide it, and it gives no value; the choice before it waits for the next measured value.

The state lives in the player object, which the runner builds for each game
(runner/match.py), so it is one game's and starts afresh with every game: nothing crosses from
game to game or from worker to worker, and `--jobs N` plays each game as `--jobs 1` does. The
bookkeeping is a few numbers per move, in Python; the searches themselves are im's, with the α
set (MCTSSearch.alpha).
"""
from __future__ import annotations

import math
import random

#: The α values the bandit chooses among: the paper's best range [0.1, 0.6] (Fig. 2) and the
#: larger values the tunes found best at small budgets (docs/tuning.md: 0.52-0.76 at 847
#: simulations a move, 0.85 at 100).
ARMS = (0.2, 0.4, 0.6, 0.8)
#: UCB1's exploration constant on rewards in [-1, 1].
C = 1.0


class AlphaBandit:
    """UCB1 over the α values `arms`, rewarded by the temporal difference of the root values
    (the module docstring). `order`: the order untried arms are played in and ties go (default:
    a shuffle drawn from `seed`)."""

    def __init__(self, seed: int, arms: tuple[float, ...] = ARMS, c: float = C,
                 order: list[int] | None = None):
        self.arms = tuple(arms)
        self.c = c
        if order is None:
            order = list(range(len(self.arms)))
            random.Random(seed).shuffle(order)
        if sorted(order) != list(range(len(self.arms))):
            raise ValueError(f"order must list each arm once, got {order}")
        self.order = list(order)
        self.plays = [0] * len(self.arms)        # moves searched with each arm
        self.rewarded = [0] * len(self.arms)     # of them, those whose reward came
        self.total = [0.0] * len(self.arms)      # the sum of those rewards
        self.pending: tuple[int, float] | None = None   # (arm, V) of the last measured move

    def mean(self, arm: int) -> float:
        """The arm's mean reward so far (0, the reward of a choice confirmed, before any)."""
        return self.total[arm] / self.rewarded[arm] if self.rewarded[arm] else 0.0

    def choose(self) -> int:
        """The arm for the next move's search (its index into `arms`)."""
        for arm in self.order:
            if self.plays[arm] == 0:
                return arm
        log_n = math.log(sum(self.plays))
        best, best_index = -1, -math.inf
        for arm in self.order:          # a strict > keeps the first in order on ties
            index = self.mean(arm) + self.c * math.sqrt(log_n / self.plays[arm])
            if index > best_index:
                best, best_index = arm, index
        return best

    def record(self, arm: int, value: float | None) -> None:
        """The move searched with `arm` gave its choice the root value `value` (None: no
        simulation ran, so no arm was played); the previous choice gets its reward."""
        if value is None:
            return
        self.plays[arm] += 1
        if self.pending is not None:
            before, v = self.pending
            self.rewarded[before] += 1
            self.total[before] += (value - v) / 2.0
        self.pending = (arm, value)
