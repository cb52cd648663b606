# cython: language_level=3
"""MCTS's backup policies at one node (players/search/mcts.pyx calls them on the way up):

- the mean: every simulation adds its reward to the nodes of its path (the core does this);
- implicit minimax (`im`, `pbim`): v_s = max_a v_{s,a}, sign by side to move; at a chance node
  the expectation of the outcomes' values (`update_node`, `update_chance`);
- the solver (always on): a node is won when a child is a proven win for the side to move,
  lost when every child is a proven loss; a chance node only when every outcome agrees;
- max (`mbT`): once a node has T visits, the best child's mean is passed up in place of the
  simulation's reward (`best_child_mean`).
"""
from mcts_arena.players.search.tree cimport Node, CHANCE


cdef inline void update_node(Node* nodes, int node, bint backup_v) noexcept nogil:
    """Implicit minimax backup (with backup_v) and solver proof of `node` from its active
    children."""
    cdef Node* nd = &nodes[node]
    cdef Node* c
    cdef int i
    cdef double best = -2.0
    cdef bint all_lost = nd.nactive == nd.nchild
    cdef bint won = False
    cdef double sign = 1.0 if nd.tomove == nd.mover else -1.0
    if nd.real & CHANCE:
        update_chance(nodes, nd, sign, backup_v)
        return
    for i in range(nd.first, nd.first + nd.nactive):
        c = &nodes[i]
        if c.v > best:
            best = c.v
        if c.proven == 1:
            won = True
        elif c.proven != -1:
            all_lost = False
    if backup_v:
        nd.v = <float>(sign * best)
    if nd.proven == 0:
        if won:
            nd.proven = 1 if nd.tomove == nd.mover else -1
        elif all_lost:
            nd.proven = -1 if nd.tomove == nd.mover else 1


cdef inline void update_chance(Node* nodes, Node* nd, double sign, bint backup_v) noexcept nogil:
    """A chance node's implicit value is the expectation of its outcomes' (Lanctot et al.'s
    implicit minimax, with the mean where the dice choose), and it is proven only when every
    outcome is proven the same way."""
    cdef Node* c
    cdef int i, wins = 0, losses = 0
    cdef double ev = 0.0
    for i in range(nd.first, nd.first + nd.nchild):
        c = &nodes[i]
        ev += c.bias * c.v
        if c.proven == 1:
            wins += 1
        elif c.proven == -1:
            losses += 1
    if backup_v:
        nd.v = <float>(sign * ev)
    if nd.proven == 0:
        if wins == nd.nchild:
            nd.proven = 1 if nd.tomove == nd.mover else -1
        elif losses == nd.nchild:
            nd.proven = -1 if nd.tomove == nd.mover else 1


cdef inline double best_child_mean(Node* nodes, Node* nd) noexcept nogil:
    """Max backup: the best mean among nd's visited active children (their movers' view, the
    side to move at nd), or -2 when none is visited."""
    cdef double best = -2.0, q
    cdef Node* c
    cdef int k
    for k in range(nd.first, nd.first + nd.nactive):
        c = &nodes[k]
        if c.visits > 0:
            q = c.wins / c.visits
            if q > best:
                best = q
    return best
