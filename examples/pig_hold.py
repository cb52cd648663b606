"""Pig's rule of thumb as a player: `py(examples/pig_hold.py:HoldAt, k=20)` (see docs/engines.md).

Roll until the turn total reaches `k` (20 by default: with a six-sided die a roll gains 4 on
average and loses the turn total with probability 1/6, so at 20 the expected gain and loss of
one more roll are equal), or until the score would reach the target; then stop. Neller &
Presser measure the optimal player (`PigOptimal`) against it.
"""


class HoldAt:
    def __init__(self, k=20):
        if not isinstance(k, int) or k < 1:
            raise ValueError(f"k must be a positive integer, got {k!r}")
        self.k = k

    def choose(self, state, time=None, sims=None):
        scores, turn, me = state.scores(), state.turn_total(), state.to_move()
        stop = turn >= self.k or scores[me] + turn >= state.target
        return state.parse_move("stop" if stop else "roll"), {}
