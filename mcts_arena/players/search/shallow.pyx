# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""A shallow win/loss minimax, the one the MCTS-minimax hybrids run inside MCTS (Baier &
Winands, *Monte-Carlo Tree Search and Minimax Hybrids*, CIG 2013): no evaluation, only the
rules' moves and results, `depth` plies deep. MCTS-MS (`ms=D`) runs it at a node of the tree
once the node has `msv` visits, and a win or loss it proves is the node's proof for the
solver.

The answer is from the side to move's view: 1 a win within `depth` plies whatever the
opponent does, -1 a loss whatever the side to move does, 0 neither proven (a draw counts as
not proven: the solver's proofs are wins and losses). A side that moves again (Kalah's extra
turns) is the same side one ply deeper.
"""
from mcts_arena.games.state cimport alloca, GameState, ONGOING, DRAW


cdef int prove_shallow(GameState s, int depth) noexcept nogil:
    cdef int res = s.result()
    cdef int* moves
    cdef int n, i, v, me, best = -1
    if res != ONGOING:
        if res == DRAW:
            return 0
        return 1 if res == s.player else -1
    if depth <= 0:
        return 0
    moves = <int*>alloca(s.max_moves * sizeof(int) + sizeof(int))
    n = s.gen_moves(moves)
    if n == 0:
        return 0
    me = s.player
    for i in range(n):
        s.do_move(moves[i])
        v = prove_shallow(s, depth - 1)
        if s.player != me:
            v = -v
        s.undo_move()
        if v == 1:
            return 1
        if v == 0:
            best = 0
    return best


def shallow_proof(GameState state, int depth):
    """prove_shallow(state, depth) (state unchanged): 1, -1 or 0; for tests and tools."""
    if depth < 0:
        raise ValueError(f"depth must be >= 0, got {depth}")
    if state.max_outcomes > 0:
        raise ValueError("a shallow proof searches games without chance nodes")
    return prove_shallow(state.clone(), depth)
