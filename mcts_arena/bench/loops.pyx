# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The loops `arena bench` times: random full-game playouts per second and the mean game length.

They live in Cython so that what they measure is the game core, not the Python loop around it.
"""

from mcts_arena.clock cimport now
from mcts_arena.rng cimport Rng, rng_seed, rng_below
from mcts_arena.games.state cimport alloca, GameState, ONGOING, PLAYOUT_PLIES_MAX


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
            for k in range(64):  # no-cython-lint: the count is the point
                state.random_playout(&rng, PLAYOUT_PLIES_MAX)
            count += 64
            t = now() - t0
            if t >= seconds:
                break
    return count, t


def average_plies(GameState state, int playouts, unsigned long long seed=1,
                  int max_plies=PLAYOUT_PLIES_MAX):
    """Mean length in plies of uniformly random games from `state` (do/undo path); the dice of
    a game with chance nodes come up by their probabilities (and count as plies)."""
    cdef Rng rng
    cdef int* moves = <int*>alloca(state.max_moves * sizeof(int))
    cdef int i, n, depth
    cdef long total = 0
    cdef bint chance = state.max_outcomes > 0
    rng_seed(&rng, seed)
    with nogil:
        for i in range(playouts):  # no-cython-lint: the count is the point
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
