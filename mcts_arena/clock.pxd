# cython: language_level=3
"""The one clock of the Cython code (searches, benchmark loops): monotonic seconds, read
without the GIL and without a Python call."""
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC


cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9
