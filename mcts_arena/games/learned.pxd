# cython: language_level=3
from mcts_arena.games.state cimport GameState, Knowledge, DRAW


# Knowledge on a game's own (`base`), every method delegated to it: a learned knowledge
# (LinearKnowledge here, NetKnowledge in network.pyx) extends it and replaces what it learned.
cdef class Overlay(Knowledge):
    cdef readonly Knowledge base


cdef inline double finished(GameState s, int r) noexcept nogil:
    """A finished game's value (r: its result) for the side to move at s: ±1, a draw 0."""
    if r == DRAW:
        return 0.0
    return 1.0 if r == s.player else -1.0
