# cython: language_level=3
"""Move ordering shared by the searches: sort a move list by keys, best first.

αβ (alphabeta.pyx) keys a move by TT move, the game's category, killers, history and a random
tie-break (integers); the prover (prover.pyx) by the game's category and bias (doubles). Both
sort with this one stable insertion sort, descending (move lists are short).
"""

ctypedef fused sort_key:
    long
    double


cdef inline void sort_moves(int* moves, sort_key* keys, int n) noexcept nogil:
    """Sort moves[0:n] (and keys[0:n] with them) by key, largest first; equal keys keep their
    order."""
    cdef int i, j, m
    cdef sort_key k
    for i in range(1, n):
        k = keys[i]
        m = moves[i]
        j = i - 1
        while j >= 0 and keys[j] < k:
            keys[j + 1] = keys[j]
            moves[j + 1] = moves[j]
            j -= 1
        keys[j + 1] = k
        moves[j + 1] = m
