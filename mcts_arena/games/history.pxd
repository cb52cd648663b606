# cython: language_level=3
"""The undo history of a game core, kept once for every game that needs one: records of the
game's own `Undo` struct, grown by doubling (state.pxd's `grow_history`).

    cdef History hist                                   # a field of the game's class
    history_init(&self.hist, sizeof(Undo))              # __cinit__
    history_free(&self.hist)                            # __dealloc__
    history_reserve(&self.hist, self.ply + 1)           # do_move, then:
    u = &(<Undo*>self.hist.data)[self.ply]              #   the record of this ply (typed)
    history_copy(&c.hist, &self.hist, self.ply)         # clone

Records are addressed through the game's typed pointer, so the per-move cost is what it was
with a hand-written array; only allocation, growth and copying live here.
"""
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from mcts_arena.games.state cimport grow_history


cdef struct History:
    char* data          # cap records of elem bytes
    int cap
    size_t elem


cdef inline int history_init(History* h, size_t elem, int cap=256) except -1:
    h.elem = elem
    h.cap = cap
    h.data = <char*>malloc(<size_t>cap * elem)
    if h.data == NULL:
        raise MemoryError()
    return 0


cdef inline void history_free(History* h) noexcept nogil:
    free(h.data)
    h.data = NULL


cdef inline void history_reserve(History* h, int n) noexcept nogil:
    """Room for at least n records."""
    if n > h.cap:
        h.data = <char*>grow_history(h.data, &h.cap, n, h.elem)


cdef inline void history_copy(History* dst, History* src, int n) noexcept nogil:
    """The first n records of src into dst (a clone's history)."""
    history_reserve(dst, n)
    memcpy(dst.data, src.data, <size_t>n * src.elem)
