# cython: language_level=3
"""What the n x n stone-grid games (Hex, Gomoku) share at the C level: a board is one byte per
cell (0 empty, 1 the first player, 2 the second), cell index `row * n + col`. Their text form
and cell notation are boardtext.py's."""
from libc.stdint cimport uint64_t


cdef inline uint64_t grid_hash(const unsigned char* cell, int nc, const uint64_t* zob_first,
                               const uint64_t* zob_second, uint64_t base) noexcept nogil:
    """The Zobrist hash of a grid computed from scratch: `base` (side to move, rule salt) xor
    the key of every stone."""
    cdef uint64_t h = base
    cdef int c
    for c in range(nc):
        if cell[c] == 1:
            h ^= zob_first[c]
        elif cell[c] == 2:
            h ^= zob_second[c]
    return h


cdef inline list grid_cells(const unsigned char* cell, int nc):
    """The board as a list of 0 (empty), 1 (first player), 2 (second), row by row."""
    return [cell[c] for c in range(nc)]
