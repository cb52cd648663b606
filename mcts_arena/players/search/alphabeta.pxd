# cython: language_level=3
from libc.stdint cimport uint64_t
from mcts_arena.rng cimport Rng
from mcts_arena.games.state cimport GameState, Knowledge

cdef struct TTEntry:
    uint64_t key
    double value
    int move
    short depth
    char flag        # 0 empty, 1 exact, 2 lower bound, 3 upper bound

cdef struct SearchCounters:
    long nodes
    long node_limit
    double deadline      # monotonic seconds; <= 0: none
    bint aborted

cdef double WIN_SCORE

cdef int order_moves(Knowledge kn, GameState s, int* moves, int n, int first_move, Rng* rng,
                     int* killers, int* history) noexcept nogil
cdef int ab_playout_move(Knowledge kn, GameState s, int* moves, int n, int depth, int width,
                         int evalfn, Rng* rng) noexcept nogil
