# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Open-loop MCTS (`ol`, games of dice): the MCTS core (mcts.pyx) with a tree over the players'
moves only.

A node stands for a sequence of moves, and the dice between them are sampled afresh in every
simulation, so the node is a different position each time. At a decision the search lists the
legal moves of the position this simulation reached and selects among the node's children that
are legal there (played by the side to move there), adding a child for a legal move never seen
before (one per visit, a uniformly random one, before any seen move is revisited). A child's
exploration term counts the times it was available instead of its parent's visits (Cowling,
Powley & Whitehouse's availability counts): C sqrt(ln avail / n). Implicit minimax (`im`)
backs up, at each node, the running mean over its simulations of the best implicit value among
the children legal in that simulation (the open-loop estimate of closed loop's expectation
over the dice of the max); a leaf's value is the evaluation after its move where it was
created. A node is not one position, so MCTS-Solver proves nothing below the root (the root's
children, one fixed position away, are proven as in closed loop). Not with exp1, pu, rave, mb,
puct or tuned (spec.py refuses them).
"""
from libc.stdlib cimport malloc, free, calloc
from libc.string cimport memcpy
from libc.math cimport log, sqrt

from mcts_arena.rng cimport rng_below
from mcts_arena.games.state cimport GameState
from mcts_arena.players.search.tree cimport (Node, VISITED, init_node, proven_reward0,
                                             descent_ends)
from mcts_arena.players.search.selection cimport blend, better
from mcts_arena.players.search.mcts cimport MCTSSearch, MAX_PATH


cdef inline void _top_two(float v, int k, float* v1, float* v2, int* best_i) noexcept nogil:
    """Keep the best two implicit values of the available children (v1 >= v2), best_i the
    child with v1: the backup takes the best among those off the path."""
    if v > v1[0]:
        v2[0] = v1[0]
        v1[0] = v
        best_i[0] = k
    elif v > v2[0]:
        v2[0] = v


cdef class OpenLoopSearch(MCTSSearch):
    """Open-loop MCTS: MCTSSearch's options with `open_loop` set (the players' moves only)."""

    # the legal moves of the current position, an open-addressing set stamped per selection
    # (ol_gen), and for each its "has a child" mark; path levels' side to move and the best
    # implicit value of the available children off the path (for im)
    cdef int* ol_key
    cdef long* ol_stamp
    cdef char* ol_has
    cdef int ol_mask
    cdef long ol_gen
    cdef float path_v[MAX_PATH]
    cdef signed char path_p[MAX_PATH]

    def __cinit__(self):
        self.ol_key = NULL
        self.ol_stamp = NULL
        self.ol_has = NULL
        self.ol_mask = 0
        self.ol_gen = 0

    def __dealloc__(self):
        free(self.ol_key)
        free(self.ol_stamp)
        free(self.ol_has)

    def __init__(self, dict options, unsigned long long seed=1):
        MCTSSearch.__init__(self, {**options, "open_loop": True}, seed)

    cdef void _size_buffers(self, GameState s) except *:
        """The core's move buffers, and the legal-move set at most half full."""
        cdef int size = 16
        if s.max_moves <= self.mv_cap:
            return
        MCTSSearch._size_buffers(self, s)
        while size < 2 * s.max_moves:
            size *= 2
        free(self.ol_key)
        free(self.ol_stamp)
        free(self.ol_has)
        self.ol_key = <int*>malloc(size * sizeof(int))
        self.ol_stamp = <long*>calloc(size, sizeof(long))
        self.ol_has = <char*>malloc(size)
        if self.ol_key == NULL or self.ol_stamp == NULL or self.ol_has == NULL:
            self.mv_cap = 0
            raise MemoryError()
        self.ol_mask = size - 1
        self.ol_gen = 0

    cdef inline int _ol_slot(self, int move) noexcept nogil:
        """The slot of `move` in the legal-move set of this selection (ol_gen): where it is, or
        the empty slot where it would go (linear probing; the set is at most half full)."""
        cdef int i = <int>((<unsigned int>move * <unsigned int>2654435761) >> 7) & self.ol_mask
        while self.ol_stamp[i] == self.ol_gen and self.ol_key[i] != move:
            i = (i + 1) & self.ol_mask
        return i

    cdef int _select_open(self, GameState s, int node, int n, int level,
                          int np_visits) noexcept nogil:
        """The child of open-loop `node` to follow at s, whose legal moves are mv_expand[0:n]:
        a proven win (the root's children only), an untried child, a new child for a legal move
        never seen here (uniformly among them), else UCT over the children legal at s with
        availability counts. Counts each available child's availability (amaf_n); records the
        side to move and the best implicit value of the available children besides the chosen
        one (path_p, path_v) for the backup. -1 when a new child does not fit the pool."""
        cdef int* moves = self.mv_expand
        cdef Node* nd = &self.nodes[node]
        cdef Node* c
        cdef int i, k, slot, p = s.player, choice = -1, ties = 0, fallback = -1, untried = -1
        cdef int fresh, best_i = -1
        cdef double best = -1e300, val
        cdef float v1 = -2.0, v2 = -2.0
        self.ol_gen += 1
        for i in range(n):
            slot = self._ol_slot(moves[i])
            self.ol_stamp[slot] = self.ol_gen
            self.ol_key[slot] = moves[i]
            self.ol_has[slot] = 0
        for k in range(nd.first, nd.first + nd.nactive):
            c = &self.nodes[k]
            if c.mover != p:
                continue
            slot = self._ol_slot(c.move)
            if self.ol_stamp[slot] != self.ol_gen:
                continue                        # not legal in this simulation's position
            self.ol_has[slot] = 1
            c.amaf_n += 1                       # available once more
            _top_two(c.v, k, &v1, &v2, &best_i)
            if c.proven == 1:                   # proven at the root, whose position is fixed
                self.path_p[level] = p
                self.path_v[level] = -2.0
                return k
            if c.proven == -1:
                fallback = k
                continue
            if c.visits == 0:
                if untried < 0:
                    untried = k
                continue
            val = blend(&self.o, c, c.wins / c.visits) + self.o.C * sqrt(log(c.amaf_n) / c.visits)
            if self.o.pb > 0:
                val += self.o.pb * c.bias / (c.visits + 1.0)
            if better(&self.rng, val, &best, &ties):
                choice = k
        if untried >= 0:
            choice = untried
        else:
            fresh = self._fresh_move(n)
            if fresh >= 0:
                choice = self._add_child_open(s, node, fresh, np_visits)
                if choice < 0:
                    return -1
                c = &self.nodes[choice]
                c.amaf_n = 1
                _top_two(c.v, choice, &v1, &v2, &best_i)
            elif choice < 0:
                choice = fallback if fallback >= 0 else untried
        self.path_p[level] = p
        self.path_v[level] = v2 if choice == best_i else v1
        return choice

    cdef int _fresh_move(self, int n) noexcept nogil:
        """A uniformly random one of the legal moves mv_expand[0:n] without a child here (as
        marked in this selection's set), or -1 when every legal move has one."""
        cdef int* moves = self.mv_expand
        cdef int i, slot, fresh = -1, nfresh = 0
        for i in range(n):
            slot = self._ol_slot(moves[i])
            if not self.ol_has[slot]:
                self.ol_has[slot] = 1       # a move listed twice counts once
                nfresh += 1
                if rng_below(&self.rng, nfresh) == 0:
                    fresh = moves[i]
        return fresh

    cdef int _add_child_open(self, GameState s, int node, int move, int np_visits) noexcept nogil:
        """A child of open-loop `node` for `move` of the side to move at s, appended to the
        node's block (nactive children in use of nchild reserved; a full block moves to one
        twice its size at the end of the pool). No proof: the node is not one position."""
        cdef Node* nd = &self.nodes[node]
        cdef int first, cap, k
        if nd.first < 0 or nd.nactive == nd.nchild:
            cap = 4 if nd.nchild < 2 else 2 * nd.nchild
            first = self._alloc(cap)
            if first < 0:
                return -1
            nd = &self.nodes[node]              # the pool may have moved
            if nd.first >= 0:
                memcpy(&self.nodes[first], &self.nodes[nd.first], nd.nactive * sizeof(Node))
            for k in range(first + nd.nactive, first + cap):
                init_node(&self.nodes[k], -1, 0, 0)
            nd.first = first
            nd.nchild = cap
        k = nd.first + nd.nactive
        nd.nactive += 1
        self._make_child(s, &self.nodes[k], move, s.player, np_visits)
        self.nodes[k].proven = 0
        return k

    cdef void _simulate(self, GameState s, int np_visits) noexcept nogil:
        """One open-loop simulation: the dice sampled on the way down, a node per move."""
        cdef int node = 0, depth = 0, plies = 0, child, n, i
        cdef double r0 = 0.0
        cdef Node* nd
        cdef float x, bv
        self.path[0] = 0
        while True:
            nd = &self.nodes[node]
            if descent_ends(s, nd, node == 0, &r0):
                break
            if node != 0 and not (nd.real & VISITED):
                r0 = self._playout(s)
                break
            if s.is_chance():
                s.do_move(s.sample_chance(&self.rng))
                plies += 1
                continue
            n = self.k.search_moves(s, self.mv_expand)
            if n == 0 or depth >= MAX_PATH - 2:
                r0 = self._playout(s)
                break
            child = self._select_open(s, node, n, depth, np_visits)
            if child < 0:
                r0 = self._playout(s)
                break
            s.do_move(self.nodes[child].move)
            plies += 1
            depth += 1
            self.path[depth] = child
            if depth > self.max_depth:
                self.max_depth = depth
            node = child
        for i in range(depth, -1, -1):
            nd = &self.nodes[self.path[i]]
            nd.visits += 1
            nd.real |= VISITED
            nd.wins += r0 if nd.mover == 0 else -r0
            if self.o.backup_v and i < depth:
                # the best value among the moves this simulation's dice allowed, as a running
                # mean over the node's simulations (its creation's evaluation the first)
                bv = self.nodes[self.path[i + 1]].v
                if self.path_v[i] > bv:
                    bv = self.path_v[i]
                x = bv if self.path_p[i] == nd.mover else -bv
                nd.v += (x - nd.v) / nd.visits
            if nd.proven != 0 and i > 0:
                r0 = proven_reward0(nd)
        for i in range(plies):  # no-cython-lint: the count is the point
            s.undo_move()
