# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Whole-game tools on the game interface: the random-playout benchmark (and perft).

They live in Cython so that what they measure is the game core, not the Python loop around it.
"""
from libc.stdint cimport uint64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from mcts_arena.rng cimport Rng, rng_seed, rng_below
from mcts_arena.games.state cimport alloca, GameState, ONGOING


cdef double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


def perft(GameState state, int depth):
    """Number of move sequences of exactly `depth` plies from `state` (see GameState.perft)."""
    return state.perft(depth)


def playout_rate(GameState state, double seconds, unsigned long long seed=1):
    """Run random full-game playouts (the game's fast `random_playout`) for `seconds`.

    Returns (playouts, elapsed_seconds). The state is left unchanged.
    """
    cdef Rng rng
    cdef long count = 0
    cdef int k
    cdef double t0, t
    rng_seed(&rng, seed)
    with nogil:
        t0 = now()
        while True:
            for k in range(64):
                state.random_playout(&rng, 100000)
            count += 64
            t = now() - t0
            if t >= seconds:
                break
    return count, t


def average_plies(GameState state, int playouts, unsigned long long seed=1, int max_plies=100000):
    """Mean length in plies of uniformly random games from `state` (do/undo path)."""
    cdef Rng rng
    cdef int* moves = <int*>alloca(state.max_moves * sizeof(int))
    cdef int i, n, depth
    cdef long total = 0
    rng_seed(&rng, seed)
    with nogil:
        for i in range(playouts):
            depth = 0
            while state.result() == ONGOING and depth < max_plies:
                n = state.gen_moves(moves)
                if n == 0:
                    break
                state.do_move(moves[rng_below(&rng, n)])
                depth += 1
            total += depth
            while depth > 0:
                state.undo_move()
                depth -= 1
    return total / playouts if playouts > 0 else 0.0
