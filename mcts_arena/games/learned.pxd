# cython: language_level=3
from mcts_arena.games.state cimport Knowledge


# Knowledge on a game's own (`base`), every method delegated to it: a learned knowledge
# (LinearKnowledge here, NetKnowledge in network.pyx) extends it and replaces what it learned.
cdef class Overlay(Knowledge):
    cdef readonly Knowledge base
