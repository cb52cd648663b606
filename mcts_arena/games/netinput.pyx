# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""A game's input encoding for a value and policy network (see netinput.pxd)."""
from libc.stdlib cimport malloc, free

from mcts_arena.games.state cimport GameState


cdef class NetInput:
    """A game's network encoding: its name, sizes and the two C functions (netinput.pxd)."""

    def py_encode(self, GameState state):
        """The position's inputs as a list (for training and tests)."""
        cdef double* buf = <double*>malloc(self.n_inputs * sizeof(double))
        if buf == NULL:
            raise MemoryError()
        try:
            self.encode(state, buf)
            return [buf[i] for i in range(self.n_inputs)]
        finally:
            free(buf)

    def py_action(self, GameState state, int move):
        """The action index of move id `move` at the position (for training and tests)."""
        return self.action(state, move)

    def __repr__(self):
        return (f"NetInput({self.game}, {self.name}, {self.n_inputs} inputs, "
                f"{self.n_actions} actions)")


cdef NetInput net_input(str game, str name, int n_inputs, int n_actions, encode_fn encode,
                        action_fn action):
    cdef NetInput e = NetInput.__new__(NetInput)
    e.game = game
    e.name = name
    e.n_inputs = n_inputs
    e.n_actions = n_actions
    e.encode = encode
    e.action = action
    return e
