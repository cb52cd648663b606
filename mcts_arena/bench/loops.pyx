# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The loops `arena bench` times: random full-game playouts per second and the mean game length.

They live in Cython so that what they measure is the game core, not the Python loop around it.
"""
from libc.stdint cimport uint64_t

from mcts_arena.clock cimport now
from mcts_arena.rng cimport Rng, rng_seed, rng_below
from mcts_arena.games.state cimport alloca, GameState, ONGOING


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
    """Mean length in plies of uniformly random games from `state` (do/undo path); the dice of
    a game with chance nodes come up by their probabilities (and count as plies)."""
    cdef Rng rng
    cdef int* moves = <int*>alloca(state.max_moves * sizeof(int))
    cdef int i, n, depth
    cdef long total = 0
    cdef bint chance = state.max_outcomes > 0
    rng_seed(&rng, seed)
    with nogil:
        for i in range(playouts):
            depth = 0
            while state.result() == ONGOING and depth < max_plies:
                if chance and state.is_chance():
                    state.do_move(state.sample_chance(&rng))
                    depth += 1
                    continue
                n = state.gen_moves(moves)
                if n == 0:
                    break
                state.do_move(moves[rng_below(&rng, n)])
                depth += 1
            total += depth
            while depth > 0:
                state.undo_move()
                depth -= 1
    # a C double division: with cdivision on, long / int is C's integer division (7.0
    # instead of tic-tac-toe's 7.60)
    return <double>total / playouts if playouts > 0 else 0.0
