# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""A quiescence search on the evaluation's scale: the value of a position for its side to move
in [-1, 1] when the tactical moves (the knowledge's `tactical_moves`: captures and moves that
win at once, Breakthrough's and LOA's) are played out until the position is quiet, at most
`depth` plies. MCTS's `v0q=N` takes implicit minimax's initial values v0(s) from it instead of
the static evaluation (the paper's future work: "improving initial evaluations v0(s) using
quiescence search").

Negamax with stand-pat: the side to move may always take the static value (it need not
capture), so the value is at least the evaluation; a finished game is ±1 (0 a draw), as every
evaluation. Tactical moves are tried in the knowledge's static order (`select_best`), within an
αβ window.
"""
from mcts_arena.games.state cimport alloca, GameState, Knowledge, ONGOING, DRAW


cdef double quiesce(Knowledge k, GameState s, double alpha, double beta, int depth,
                    int evalfn) noexcept nogil:
    cdef int res = s.result()
    cdef int* moves
    cdef int n, i, me
    cdef double stand, v
    if res != ONGOING:
        if res == DRAW:
            return 0.0
        return 1.0 if res == s.player else -1.0
    stand = k.evaluate(s, evalfn)
    if depth <= 0 or stand >= beta:
        return stand
    if stand > alpha:
        alpha = stand
    moves = <int*>alloca(s.max_moves * sizeof(int) + sizeof(int))
    n = k.tactical_moves(s, moves)
    if n == 0:
        return stand
    n = k.select_best(s, moves, n, 0)
    me = s.player
    for i in range(n):
        s.do_move(moves[i])
        if s.player == me:
            v = quiesce(k, s, alpha, beta, depth - 1, evalfn)
        else:
            v = -quiesce(k, s, -beta, -alpha, depth - 1, evalfn)
        s.undo_move()
        if v > alpha:
            alpha = v
            if alpha >= beta:
                break
    return alpha


def quiesce_value(GameState state, int depth, evalfn="default", Knowledge knowledge=None):
    """quiesce(state) in a full window for its side to move (state unchanged): for tests and
    tools. `knowledge`: the game's own unless given."""
    cdef GameState s = state.clone()
    cdef Knowledge k = knowledge if knowledge is not None else state.knowledge()
    cdef int ef = state._eval_id(evalfn)
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    return quiesce(k, s, -2.0, 2.0, depth, ef)
