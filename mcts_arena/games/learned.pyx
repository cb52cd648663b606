# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""A learned evaluation as knowledge: a linear function of a game's features, fitted to game
outcomes (mcts_arena/learn/), on top of the game's own knowledge for everything else.

    value(s) = tanh(x / 2),   x = sum_i w_i f_i(s)

where f = the game knowledge's `features(s)` (from the side to move's view, f_0 = 1) and w the
fitted weights: the model is P(the side to move wins) = 1 / (1 + e^-x), and tanh(x / 2) =
2 P - 1 is that expectation on the searches' [-1, 1] scale. A finished game is ±1 (0 a draw),
as every evaluation.

Move orders, priors, biases, playout policies, forced moves, threats and the selective search's
move lists are the base knowledge's (one more vtable call each: an `Overlay`, learned.pxd, the
knowledge a learned one extends); the fast paths that answer from an evaluation (`eval_after`,
`best_successor`, `leaf_after`) are Knowledge's defaults, which ask this evaluation, and
`evaluate_tanh_arg` gives x / 2.
"""
from libc.math cimport tanh

from mcts_arena.games.state cimport GameState, Knowledge, MAX_FEATURES, ONGOING
from mcts_arena.rng cimport Rng


cdef class Overlay(Knowledge):
    """The base knowledge, every method delegated to it (learned.pxd); a learned knowledge
    extends it and replaces what it learned (its evaluation, its priors)."""

    def __init__(self, Knowledge base):
        self.base = base

    @property
    def game(self):
        return self.base.game

    @property
    def feature_names(self):
        return self.base.feature_names

    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        return self.base.evaluate(s, evalfn)

    cdef bint evaluate_tanh_arg(self, GameState s, int evalfn, double* x) noexcept nogil:
        return self.base.evaluate_tanh_arg(s, evalfn, x)

    cdef int features(self, GameState s, double* out) noexcept nogil:
        return self.base.features(s, out)

    cdef int search_moves(self, GameState s, int* out) noexcept nogil:
        return self.base.search_moves(s, out)

    cdef int move_order(self, GameState s, int move) noexcept nogil:
        return self.base.move_order(s, move)

    cdef double move_prior(self, GameState s, int move) noexcept nogil:
        return self.base.move_prior(s, move)

    cdef double move_bias(self, GameState s, int move) noexcept nogil:
        return self.base.move_bias(s, move)

    cdef int playout_move(self, GameState s, int policy, int* moves, int n,
                          Rng* rng) noexcept nogil:
        return self.base.playout_move(s, policy, moves, n, rng)

    cdef int forced_move(self, GameState s, int* moves, int n, Rng* rng) noexcept nogil:
        return self.base.forced_move(s, moves, n, rng)

    cdef int threats(self, GameState s, int* out, int limit) noexcept nogil:
        return self.base.threats(s, out, limit)

    cdef int tactical_moves(self, GameState s, int* out) noexcept nogil:
        return self.base.tactical_moves(s, out)

    cdef bint do_null(self, GameState s) noexcept nogil:
        return self.base.do_null(s)

    cdef void undo_null(self, GameState s) noexcept nogil:
        self.base.undo_null(s)

    cdef int policy_playout(self, GameState s, int policy, Rng* rng) noexcept nogil:
        return self.base.policy_playout(s, policy, rng)

    cdef int select_best(self, GameState s, int* moves, int n, int width) noexcept nogil:
        return self.base.select_best(s, moves, n, width)

    cdef int is_among_best(self, GameState s, int move, int width) noexcept nogil:
        return self.base.is_among_best(s, move, width)

    cdef int ordered_moves(self, GameState s, int* out, int width) noexcept nogil:
        return self.base.ordered_moves(s, out, width)


cdef class LinearKnowledge(Overlay):
    """The base knowledge with its evaluation replaced by weights over its features."""

    cdef double w[MAX_FEATURES]
    cdef readonly int n

    def __init__(self, Knowledge base, weights):
        """weights: one per feature of `base` (its `feature_names`, in order)."""
        names = tuple(base.feature_names)
        if not names:
            raise ValueError(f"{type(base).__name__} has no features to weigh")
        if len(weights) != len(names):
            raise ValueError(f"{len(weights)} weights for the {len(names)} features of "
                             f"{base.game} ({', '.join(names)})")
        Overlay.__init__(self, base)
        self.n = len(names)
        for i, v in enumerate(weights):
            self.w[i] = float(v)

    @property
    def weights(self):
        return [self.w[i] for i in range(self.n)]

    cdef inline double _x(self, GameState s) noexcept nogil:
        cdef double f[MAX_FEATURES]
        cdef double x = 0.0
        cdef int i, n = self.base.features(s, f)
        for i in range(n):
            x += self.w[i] * f[i]
        return x

    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        cdef int r = s.result()
        if r != ONGOING:
            return finished(s, r)
        return tanh(0.5 * self._x(s))

    cdef bint evaluate_tanh_arg(self, GameState s, int evalfn, double* x) noexcept nogil:
        if s.result() != ONGOING:
            return False
        x[0] = 0.5 * self._x(s)
        return True
