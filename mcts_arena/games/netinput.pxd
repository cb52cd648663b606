# cython: language_level=3
"""A game's input encoding for a value and policy network (games/network.pyx): the position as
numbers from the side to move's view, and each move as an index into a fixed action space.

A game that offers one builds a `NetInput` once (`net_input(...)` below, with its two C
functions) and hands it out from its knowledge's Python-level `net_input()`; the network's
knowledge then calls the two functions per position, with no Python objects.
"""
from mcts_arena.games.state cimport GameState

# Writes the position's n_inputs numbers into out (side to move's view); returns n_inputs.
ctypedef int (*encode_fn)(GameState s, double* out) noexcept nogil
# The action index of a legal move at s, in [0, n_actions).
ctypedef int (*action_fn)(GameState s, int move) noexcept nogil


cdef class NetInput:
    cdef readonly str game          # the game it encodes (its registry name)
    cdef readonly str name          # the encoding's name and version, as a file records it
    cdef readonly int n_inputs
    cdef readonly int n_actions
    cdef encode_fn encode
    cdef action_fn action


cdef NetInput net_input(str game, str name, int n_inputs, int n_actions, encode_fn encode,
                        action_fn action)
