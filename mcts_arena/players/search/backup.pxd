# cython: language_level=3
"""MCTS's backup policies at one node (players/search/mcts.pyx calls them on the way up):

- the mean: every simulation adds its reward to the nodes of its path (the core does this);
- implicit minimax (`im`, `pbim`): v_s = max_a v_{s,a}, sign by side to move; at a chance node
  the expectation of the outcomes' values (`update_node`, `update_chance`);
- the solver (always on): a node is won when a child is a proven win for the side to move,
  lost when every child is a proven loss; a chance node only when every outcome agrees;
- max (`mbT`): once a node has T visits, the best child's mean is passed up in place of the
  simulation's reward (`best_child_mean`);
- proofs on the way back up (`undo_with_proofs`): MCTS-MB (`mibD`) and the solver's sibling
  check (`sfx`).
"""
from mcts_arena.games.state cimport GameState
from mcts_arena.players.search.shallow cimport prove_shallow
from mcts_arena.players.search.tree cimport Node, Opts, CHANCE


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


cdef inline void prove_siblings(Node* nodes, Node* nd, GameState s) noexcept nogil:
    """sfx: each child of nd (s at nd) not expanded nor proven whose move leaves a win or a loss
    in one ply (the side to move after it wins or loses at once) is proven so."""
    cdef Node* c
    cdef int i, v
    for i in range(nd.first, nd.first + nd.nactive):
        c = &nodes[i]
        if c.first >= 0 or c.proven != 0:
            continue
        s.do_move(c.move)
        v = prove_shallow(s, 1)
        if s.player != c.mover:
            v = -v              # the mover's view
        s.undo_move()
        if v != 0:
            c.proven = <signed char>v


cdef inline void undo_with_proofs(Node* nodes, int* path, int depth, GameState s,
                                  Opts* o) noexcept nogil:
    """Undo a simulation's path (nodes path[0..depth], s at its end) back to the root; at each
    node on it (s at that node) whose child below is proven a loss for its mover while the node
    is not proven:

    - mib, as MCTS-MB (Baier & Winands 2013) does: the shallow win/loss minimax tries to prove
      the node at once, where the solver would wait for every other child (not at the root);
    - sfx, as the authors' engine's solver does (its `solverFix`): each sibling not yet expanded
      nor proven is proven where the side to move after it wins (or loses) in one ply, so the
      moves that leave a win in one are known lost at once, where the solver would wait for
      each to be expanded; a node whose children are then all lost is proven, and the proof
      passes up the path."""
    cdef Node* nd
    cdef Node* below
    cdef int d, v
    for d in range(depth, 0, -1):
        s.undo_move()
        nd = &nodes[path[d - 1]]
        below = &nodes[path[d]]
        if nd.proven != 0 or (nd.real & CHANCE) or s.max_outcomes > 0:
            continue
        if o.sfx and below.proven != 0:
            if below.proven == -1:
                prove_siblings(nodes, nd, s)
            # a proof found here, or one below that the backup has not seen yet
            update_node(nodes, path[d - 1], o.backup_v)
        if o.mib > 0 and d - 1 > 0 and nd.proven == 0 and below.proven == -1:
            v = prove_shallow(s, o.mib)
            if v != 0:
                nd.proven = v if nd.tomove == nd.mover else -v
