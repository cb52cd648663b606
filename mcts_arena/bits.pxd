# cython: language_level=3
"""Bit tricks on 64-bit boards (gcc/clang builtins), inline and nogil."""
from libc.stdint cimport uint64_t

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil


cdef inline int popcount(uint64_t b) noexcept nogil:
    return __builtin_popcountll(b)


cdef inline int lsb(uint64_t b) noexcept nogil:
    """Index of the lowest set bit; b must be non-zero."""
    return __builtin_ctzll(b)


cdef inline int msb(uint64_t b) noexcept nogil:
    """Index of the highest set bit; b must be non-zero."""
    return 63 - __builtin_clzll(b)


cdef inline int nth_bit(uint64_t b, int n) noexcept nogil:
    """Index of the n-th (0-based, from the low end) set bit of b; b has more than n bits."""
    while n > 0:
        b &= b - 1
        n -= 1
    return __builtin_ctzll(b)
