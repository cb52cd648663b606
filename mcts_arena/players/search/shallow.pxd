# cython: language_level=3
from mcts_arena.games.state cimport GameState

cdef int prove_shallow(GameState s, int depth) noexcept nogil
