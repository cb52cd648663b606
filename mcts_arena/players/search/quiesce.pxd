# cython: language_level=3
from mcts_arena.games.state cimport GameState, Knowledge

cdef double quiesce(Knowledge k, GameState s, double alpha, double beta, int depth,
                    int evalfn) noexcept nogil
