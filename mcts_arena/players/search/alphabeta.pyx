# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""αβ player: negamax with iterative deepening, transposition table, killers and history.

- Static move ordering from the game's `move_order` categories (decisive, anti-decisive,
  captures of undefended pieces, other captures, quiet), after the TT move and before the
  killer/history tie-break; root moves are shuffled by the seeded PRNG first, so equal moves are
  chosen at random and a fixed seed repeats a game exactly.
- Values: the evaluation in [-1, 1] from the side to move; a won position scores
  WIN_SCORE - ply (quickest win first), a lost one -(WIN_SCORE - ply) (slowest loss).
- Games where the same side may move twice (Kalah extra turns) are handled: the child value is
  negated only when the side to move changes, and the window is kept as it is otherwise.
- Budgets: seconds (iterative deepening, the last finished iteration's move is played; the
  clock is read every 1024 nodes), a fixed depth, or a node count.

`ab_playout_move` is a small fixed-depth αβ without TT used by MCTS for αβ playouts (`abpN`,
Winands & Björnsson 2011).
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset
from libc.math cimport tanh, NAN

from mcts_arena.clock cimport now
from mcts_arena.rng cimport Rng, rng_seed, rng_below
from mcts_arena.games.state cimport (alloca, GameState, Knowledge, knowledge_for, Leaf,
                                     MAX_FEATURES, ONGOING, DRAW)
from mcts_arena.players.search.ordering cimport sort_moves

cdef double WIN_SCORE = 1000.0
cdef double INF = 1e9
from mcts_arena import budgets as _budgets

cdef double TIME_CAP = _budgets.TIME_MAX        # no search runs longer, whatever its budget
cdef double HARD_CAP = _budgets.HARD_MAX        # ... unless a clock gives it a hard limit
cdef long NODES_CAP = _budgets.SIMS_MAX

cdef enum:
    MAX_PLY = 128
    HISTORY_SIZE = 65536
    NULL_R = 2                  # null-move depth reduction
    LMR_FULL = 4                # moves searched at full depth before late move reductions
cdef double NULL_WINDOW = 1e-7  # the width of a null window (values are doubles)


cdef int order_moves(Knowledge kn, GameState s, int* moves, int n, int first_move, Rng* rng,
                     int* killers, int* history) noexcept nogil:
    """Sort moves in place, best first: TT move, game category, killers, history. Returns n."""
    cdef long stack_keys[256]
    cdef long* keys = stack_keys
    cdef int i, m
    cdef long k
    if n > 256:                 # a game with more moves than the usual buffer
        keys = <long*>malloc(n * sizeof(long))
        if keys == NULL:
            return n            # out of memory: leave the generation order
    for i in range(n):
        m = moves[i]
        k = (<long>kn.move_order(s, m)) << 40
        if m == first_move:
            k += (<long>1) << 50
        if killers != NULL and (m == killers[0] or m == killers[1]):
            k += (<long>1) << 36
        if history != NULL:
            k += (<long>(history[m & (HISTORY_SIZE - 1)] & 0xFFFFFFF)) << 8
        if rng != NULL:
            k += <long>rng_below(rng, 256)
        keys[i] = k
    sort_moves(moves, keys, n)
    if keys != stack_keys:
        free(keys)
    return n


cdef inline double terminal_score(GameState s, int res, int ply) noexcept nogil:
    return terminal_score_for(res, s.player, ply)


cdef inline double terminal_score_for(int res, int player, int ply) noexcept nogil:
    """A finished game's value for `player` (to move there) at `ply`."""
    if res == DRAW:
        return 0.0
    return (WIN_SCORE - ply) if res == player else -(WIN_SCORE - ply)


cdef double _plain(Knowledge kn, GameState s, int depth, double alpha, double beta, int evalfn,
                   int ply, int width, int* killers, double xcut, double* xbest) noexcept nogil:
    """Fixed-depth αβ without tables, for playouts; with width > 0 it is selective: only the
    `width` best moves by the game's static ordering are searched at each node.

    killers[ply] is the move that last refuted a sibling at this ply (or its best move): it is
    searched first when it is among the node's moves. That changes only the order inside the
    same set of moves, never the set, so the value at the root is the same and every cut-off
    is sound: the playout's move is the one the search without it chose
    (tests/test_abp_identity.py).

    xcut and xbest are _frontier's, passed to it at depth 1 (deeper: NaN and NULL)."""
    cdef int* moves = <int*>alloca(s.max_moves * sizeof(int))
    cdef int n, i, me, best_move = -1, k
    cdef double v, best
    cdef int res = s.result()
    if xbest != NULL:
        xbest[0] = NAN
    if res != ONGOING:
        return terminal_score(s, res, ply)
    if depth <= 0:
        return kn.evaluate(s, evalfn)
    k = killers[ply]
    if depth == 1 and k >= 0 and kn.is_among_best(s, k, width) == 1:
        # the killer first, before the node's moves are listed: a cut there needs no list
        return _frontier(kn, s, moves, 0, k, width, alpha, beta, evalfn, ply, killers, xcut,
                         xbest)
    n = kn.ordered_moves(s, moves, width)
    if n == 0:
        return kn.evaluate(s, evalfn)
    if k >= 0 and moves[0] != k:
        for i in range(1, n):
            if moves[i] == k:
                while i > 0:
                    moves[i] = moves[i - 1]
                    i -= 1
                moves[0] = k
                break
    best = -INF
    me = s.player
    if depth == 1:
        return _frontier(kn, s, moves, n, -1, width, alpha, beta, evalfn, ply, killers, xcut,
                         xbest)
    for i in range(n):
        s.do_move(moves[i])
        if s.player == me:
            v = _plain(kn, s, depth - 1, alpha, beta, evalfn, ply + 1, width, killers, NAN,
                       NULL)
        else:
            v = -_plain(kn, s, depth - 1, -beta, -alpha, evalfn, ply + 1, width, killers, NAN,
                        NULL)
        s.undo_move()
        if v > best:
            best = v
            best_move = moves[i]
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    killers[ply] = best_move
    return best


cdef struct Frontier:
    double alpha, beta, best
    double xcut             # see _frontier; NaN: unknown
    double xmin             # the least leaf argument so far
    int best_move, xmove, ply, evalfn, me
    bint known              # xcut is known


cdef inline void frontier_init(Frontier* f, GameState s, double alpha, double beta, int evalfn,
                               int ply, double xcut) noexcept nogil:
    f.alpha = alpha
    f.beta = beta
    f.best = -INF
    f.xcut = xcut
    f.xmin = INF
    f.best_move = -1
    f.xmove = -1
    f.ply = ply
    f.evalfn = evalfn
    f.me = s.player
    f.known = xcut == xcut


cdef inline bint frontier_leaf(Frontier* f, Knowledge kn, GameState s, int move) noexcept nogil:
    """One leaf of _frontier's loop; True when the node is cut there (f.best is then
    the value to return)."""
    cdef double v
    cdef Leaf leaf = kn.leaf_after(s, move, f.evalfn)
    if leaf.res == ONGOING and leaf.is_arg:
        if leaf.x >= f.xmin:
            return False
        f.xmin = leaf.x
        f.xmove = move
        if f.known:
            if leaf.x <= f.xcut:
                f.best = f.beta
                f.best_move = move
                return True
            return False
        v = -tanh(leaf.x)           # is_arg: the side to move has changed
    elif leaf.res != ONGOING:
        v = terminal_score_for(leaf.res, leaf.player, f.ply + 1)
        if leaf.player != f.me:
            v = -v
    else:
        v = leaf.x if leaf.player == f.me else -leaf.x
    if v > f.best:
        f.best = v
        f.best_move = move
        if v > f.alpha:
            f.alpha = v
            if f.alpha >= f.beta:
                return True
    return False


cdef inline double frontier_end(Frontier* f, double* xbest) noexcept nogil:
    """The node's value after all its leaves (none cut it)."""
    cdef double v
    if f.known and f.xmove >= 0:
        v = -tanh(f.xmin)
        if v > f.best:
            f.best = v
            f.best_move = f.xmove
            if xbest != NULL:
                xbest[0] = f.xmin
    return f.best


cdef double _frontier(Knowledge kn, GameState s, int* moves, int n, int first, int width,
                      double alpha, double beta, int evalfn, int ply, int* killers, double xcut,
                      double* xbest) noexcept nogil:
    """_plain at depth 1 over moves[0:n], its leaves from the game's leaf_after (the position
    after a move, without keeping it: LOA answers without playing the move). With first >= 0
    (one of the node's `width` best moves, the game said so) that leaf comes first and the
    moves are listed only when it does not cut (most first-ply nodes of a 2-ply playout
    search are cut by their killer); n is then not used.

    Where the game's evaluation is tanh(x) (and the side to move changes), a leaf is valued by
    its x: tanh is non-decreasing, so a leaf whose x is not below the least x so far can
    neither raise this node's value nor cut, and is passed over (tanh was 9% of a
    playout's time). xcut, when known (not NaN), is an x with -tanh(xcut) == beta (the caller's best
    leaf argument; +-INF for a beta no leaf value can reach or every one does): a leaf with
    x <= xcut reaches beta, so the node is cut there without a tanh (returning beta, a valid
    bound), and the node's exact value, when it is not cut, is -tanh of the least x, one tanh
    in all. Unknown (NaN), every new least x is valued and compared with beta at once.
    Cut-offs found later or earlier than _plain would find them change only bounds the
    caller cannot take (a cut node's value is at most its caller's alpha from there), never
    a value it takes, and the same holds for the order of the leaves: the playout's move is
    _plain's (the identity digests check it).
    *xbest (when not NULL) := the least x when the value returned is -tanh of it, else NaN."""
    cdef Frontier f
    cdef int i
    if xbest != NULL:
        xbest[0] = NAN
    frontier_init(&f, s, alpha, beta, evalfn, ply, xcut)
    if first >= 0:
        if frontier_leaf(&f, kn, s, first):
            killers[ply] = f.best_move
            return f.best
        n = kn.ordered_moves(s, moves, width)
    for i in range(n):
        if moves[i] != first and frontier_leaf(&f, kn, s, moves[i]):
            killers[ply] = f.best_move
            return f.best
    frontier_end(&f, xbest)
    killers[ply] = f.best_move
    return f.best


cdef int ab_playout_move(Knowledge kn, GameState s, int* moves, int n, int depth, int width,
                         int evalfn, Rng* rng) noexcept nogil:
    """Best of moves[0:n] by a depth-`depth` αβ search (random among equals by shuffling).
    With width > 0 the search is selective (the `width` best-ordered moves per node), the
    cheap form of MC-LOA's "selective 2-ply αβ search" (Winands & Björnsson 2011)."""
    cdef int i, j, t, best_move = moves[0], me = s.player
    cdef double v, best = -INF, xb, xcut = -INF
    cdef int killers[MAX_PLY]
    for i in range(depth + 1):
        killers[i] = -1
    # shuffle, then order by category so ties stay random
    for i in range(n - 1, 0, -1):
        j = rng_below(rng, i + 1)
        t = moves[i]; moves[i] = moves[j]; moves[j] = t
    n = kn.select_best(s, moves, n, width)
    # best is the root's alpha (it has no beta); xcut: the x with tanh(x) == best, as the
    # first-ply nodes' frontier wants it (-INF: nothing yet, no leaf can reach their beta)
    for i in range(n):
        s.do_move(moves[i])
        xb = NAN
        if s.player == me:
            v = _plain(kn, s, depth - 1, best, INF, evalfn, 1, width, killers, NAN, NULL)
        else:
            v = -_plain(kn, s, depth - 1, -INF, -best, evalfn, 1, width, killers, xcut, &xb)
        s.undo_move()
        if v > best:
            best = v
            best_move = moves[i]
            if xb == xb:
                xcut = xb                   # v == tanh(xb)
            elif v > 1.0:
                xcut = INF                  # a win: every leaf value is below it
            elif v == 0.0:
                xcut = 0.0                  # tanh(0) == 0
            elif v < -1.0:
                xcut = -INF
            else:
                xcut = NAN
    return best_move


cdef class AlphaBeta:
    """Negamax αβ search object (one per player; keeps its TT and history across moves)."""

    cdef TTEntry* tt
    cdef uint64_t tt_mask
    cdef int* history
    cdef int killers[MAX_PLY][2]
    cdef Rng rng
    cdef int evalfn
    cdef SearchCounters c
    cdef int root_best
    cdef int max_depth_reached
    cdef bint use_tt, use_history
    cdef int* mvbuf             # per-ply move lists: MAX_PLY x the game's max_moves
    cdef int mv_stride
    cdef bint use_pvs, use_null, use_etc, use_lmr
    cdef int qs                 # quiescence plies at the horizon (0: none)
    # the knowledge given to the search (None: each position's game's own) and the one in use
    cdef public Knowledge knowledge
    cdef Knowledge k
    # TreeStrap's record (learn/bootstrap.py): each searched node's features, value and bound
    cdef double* rec_f          # rec_cap rows of MAX_FEATURES
    cdef double* rec_v
    cdef signed char* rec_b     # the TT's flags: 1 exact, 2 lower bound, 3 upper bound
    cdef int rec_n, rec_cap, rec_nf

    def __cinit__(self, int evalfn=0, unsigned long long seed=1, int tt_bits=20,
                  bint use_tt=True, bint use_history=True, bint pvs=False, int qs=0,
                  bint null=False, bint etc=False, bint lmr=False):
        """`use_tt=False, use_history=False` is the paper's αβ (iterative deepening, static
        ordering and killer moves only), for comparisons at the paper's node counts. pvs, qs
        (plies), null, etc and lmr are the MIA-like enhancements (each off by default)."""
        self.tt = <TTEntry*>calloc((<size_t>1) << tt_bits, sizeof(TTEntry))
        self.history = <int*>calloc(HISTORY_SIZE, sizeof(int))
        if self.tt == NULL or self.history == NULL:
            raise MemoryError()
        self.tt_mask = ((<uint64_t>1) << tt_bits) - 1
        self.evalfn = evalfn
        self.use_tt = use_tt
        self.use_history = use_history
        self.use_pvs = pvs
        self.qs = qs if qs > 0 else 0
        self.use_null = null
        self.use_etc = etc
        self.use_lmr = lmr
        self.mvbuf = NULL
        self.mv_stride = 0
        self.rec_f = self.rec_v = NULL
        self.rec_b = NULL
        self.rec_n = self.rec_cap = self.rec_nf = 0
        rng_seed(&self.rng, seed)

    def __dealloc__(self):
        free(self.mvbuf)
        free(self.tt)
        free(self.history)
        self._free_record()

    cdef void _free_record(self) noexcept:
        free(self.rec_f)
        free(self.rec_v)
        free(self.rec_b)
        self.rec_f = self.rec_v = NULL
        self.rec_b = NULL
        self.rec_n = self.rec_cap = 0

    def record(self, int capacity):
        """Record each searched node's knowledge features, value and bound (the first
        `capacity` nodes of each search; 0: stop recording), for TreeStrap
        (learn/bootstrap.py); `recorded()` hands them over."""
        self._free_record()
        if capacity <= 0:
            return
        self.rec_f = <double*>malloc(<size_t>capacity * MAX_FEATURES * sizeof(double))
        self.rec_v = <double*>malloc(<size_t>capacity * sizeof(double))
        self.rec_b = <signed char*>malloc(<size_t>capacity)
        if self.rec_f == NULL or self.rec_v == NULL or self.rec_b == NULL:
            self._free_record()
            raise MemoryError()
        self.rec_cap = capacity

    def recorded(self):
        """(features, values, bounds) of the nodes recorded since the last call, one row a
        node: the features from the side to move's view, the node's searched value for it (αβ's
        scale: a proven result is +-(1000 - ply)) and its bound (1 exact, 2 at least, 3 at
        most); the record is emptied."""
        cdef int i, j
        out = ([[self.rec_f[i * MAX_FEATURES + j] for j in range(self.rec_nf)]
                for i in range(self.rec_n)],
               [self.rec_v[i] for i in range(self.rec_n)],
               [self.rec_b[i] for i in range(self.rec_n)])
        self.rec_n = 0
        return out

    cdef inline void _record(self, GameState s, double v, int flag) noexcept nogil:
        cdef int n
        if self.rec_n >= self.rec_cap:
            return
        n = self.k.features(s, &self.rec_f[self.rec_n * MAX_FEATURES])
        if n == 0:
            return
        self.rec_nf = n
        self.rec_v[self.rec_n] = v
        self.rec_b[self.rec_n] = flag
        self.rec_n += 1

    cdef inline double _child(self, GameState s, int me, int depth, double alpha, double beta,
                              int ply, bint null_ok) noexcept nogil:
        """The value for `me` of the position after a move (s is after it), searched with the
        window (alpha, beta) from me's view: negated unless the same side moves again."""
        if s.player == me:
            return self._search(s, depth, alpha, beta, ply, null_ok)
        return -self._search(s, depth, -beta, -alpha, ply, null_ok)

    cdef inline bint _tick(self) noexcept nogil:
        """Count a node; True when the search must stop (time or node budget)."""
        self.c.nodes += 1
        if (self.c.nodes & 1023) == 0:
            if (self.c.deadline > 0 and now() >= self.c.deadline) or \
               (self.c.node_limit > 0 and self.c.nodes >= self.c.node_limit):
                self.c.aborted = True
        return self.c.aborted

    cdef double _quiesce(self, GameState s, double alpha, double beta, int ply,
                         int left) noexcept nogil:
        """Quiescence over the game's tactical moves (LOA: captures), at most `left` plies:
        the side to move may stand pat on the evaluation or play one of them (fail-soft)."""
        cdef int* moves = self.mvbuf + ply * self.mv_stride
        cdef int n, i, me
        cdef double v, best
        cdef int res = s.result()
        if self._tick():
            return 0.0
        if ply > self.max_depth_reached:
            self.max_depth_reached = ply
        if res != ONGOING:
            return terminal_score(s, res, ply)
        best = self.k.evaluate(s, self.evalfn)
        if left <= 0 or best >= beta or ply >= MAX_PLY - 1:
            return best
        if best > alpha:
            alpha = best
        n = self.k.tactical_moves(s, moves)
        if n == 0:
            return best
        n = self.k.select_best(s, moves, n, 0)
        me = s.player
        for i in range(n):
            s.do_move(moves[i])
            if s.player == me:
                v = self._quiesce(s, alpha, beta, ply + 1, left - 1)
            else:
                v = -self._quiesce(s, -beta, -alpha, ply + 1, left - 1)
            s.undo_move()
            if self.c.aborted:
                return 0.0
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    cdef double _search(self, GameState s, int depth, double alpha, double beta,
                        int ply, bint null_ok) noexcept nogil:
        """Negamax. With the MIA-like options (docs/loa.md): principal variation search (pvs),
        quiescence at the horizon (qs), null-move pruning where the game allows a pass (nm),
        enhanced transposition cutoffs (etc) and late move reductions (lmr); all off, this
        is the αβ the record's rows were played with, node for node."""
        cdef int* moves = self.mvbuf + ply * self.mv_stride
        cdef int n, i, m, me, best_move = -1, tt_move = -1
        cdef double v, best, alpha0 = alpha
        cdef int res = s.result()
        cdef bint pv = beta - alpha > 2 * NULL_WINDOW   # a null window, give or take rounding
        cdef TTEntry* e
        if self._tick():
            return 0.0
        if ply > self.max_depth_reached:
            self.max_depth_reached = ply
        if res != ONGOING:
            return terminal_score(s, res, ply)
        if depth <= 0 or ply >= MAX_PLY - 1:
            if self.qs > 0 and ply < MAX_PLY - 1:
                return self._quiesce(s, alpha, beta, ply, self.qs)
            return self.k.evaluate(s, self.evalfn)
        e = &self.tt[s.hash & self.tt_mask]
        if self.use_tt and e.flag != 0 and e.key == s.hash:
            tt_move = e.move
            if e.depth >= depth and ply > 0:
                if e.flag == 1:
                    return e.value
                if e.flag == 2 and e.value >= beta:
                    return e.value
                if e.flag == 3 and e.value <= alpha:
                    return e.value
        me = s.player
        if (self.use_null and null_ok and (not pv or not self.use_pvs) and ply > 0
                and depth >= NULL_R + 1 and beta < WIN_SCORE - MAX_PLY
                and self._null_cut(s, depth, beta, ply, &v)):
            return v
        n = self.k.search_moves(s, moves)
        if n == 0:
            return self.k.evaluate(s, self.evalfn)
        if self.use_tt and self.use_etc and ply > 0 and depth >= 2 and \
                self._etc_cut(s, moves, n, me, depth, beta, &v):
            return v
        order_moves(self.k, s, moves, n, tt_move, &self.rng if ply == 0 else NULL,
                    self.killers[ply], self.history if self.use_history else NULL)
        best = -INF
        for i in range(n):
            m = moves[i]
            s.do_move(m)
            if not self.use_pvs or i == 0:
                v = self._child(s, me, depth - 1, alpha, beta, ply + 1, True)
            else:
                v = self._pvs_child(s, me, m, i, depth, alpha, beta, ply, pv)
            s.undo_move()
            if self.c.aborted:
                return 0.0
            if v > best:
                best = v
                best_move = m
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        self._remember_cut(s, m, depth, ply)
                        break
        if ply == 0:
            self.root_best = best_move
        if self.use_tt:
            e.key = s.hash
            e.value = best
            e.move = best_move
            e.depth = depth
            e.flag = 3 if best <= alpha0 else (2 if best >= beta else 1)
        if self.rec_cap > 0:
            self._record(s, best, 3 if best <= alpha0 else (2 if best >= beta else 1))
        return best

    cdef inline double _pvs_child(self, GameState s, int me, int m, int i, int depth,
                                  double alpha, double beta, int ply, bint pv) noexcept nogil:
        """Principal variation search's value of the i-th move m (i > 0; s is after it): a
        null window at alpha first (one ply less for a late quiet move under lmr, searched
        again at full depth if it beats alpha), the full window only if it lands inside."""
        cdef int d = depth - 1
        cdef double v
        if (self.use_lmr and i >= LMR_FULL and depth >= 3 and not pv
                and m != self.killers[ply][0] and m != self.killers[ply][1]):
            d -= 1                  # a late quiet-ordered move: one ply less first
        v = self._child(s, me, d, alpha, alpha + NULL_WINDOW, ply + 1, True)
        if d < depth - 1 and v > alpha and not self.c.aborted:
            v = self._child(s, me, depth - 1, alpha, alpha + NULL_WINDOW, ply + 1, True)
        if v > alpha and v < beta and not self.c.aborted:
            v = self._child(s, me, depth - 1, alpha, beta, ply + 1, True)
        return v

    cdef inline void _remember_cut(self, GameState s, int m, int depth, int ply) noexcept nogil:
        """Move m cut off at `ply`: a killer move there if the game's order calls it quiet,
        and in the history table (depth squared)."""
        if self.k.move_order(s, m) == 0 and m != self.killers[ply][0]:
            self.killers[ply][1] = self.killers[ply][0]
            self.killers[ply][0] = m
        if self.use_history:
            self.history[m & (HISTORY_SIZE - 1)] += depth * depth

    cdef inline bint _null_cut(self, GameState s, int depth, double beta, int ply,
                               double* v) noexcept nogil:
        """Null move: a pass searched R plies shallower with a null window at beta; if even
        that fails high, so would a real move (no zugzwang: the game refuses the pass where it
        could be one). Not in PV nodes, not twice in a row, not from a losing standing. True
        when the node ends here with value v[0] (beta, or 0 once the search is aborted)."""
        cdef double w
        if self.k.evaluate(s, self.evalfn) < beta or not self.k.do_null(s):
            return False
        w = -self._search(s, depth - 1 - NULL_R, -beta, -beta + NULL_WINDOW, ply + 1, False)
        self.k.undo_null(s)
        if self.c.aborted:
            v[0] = 0.0
            return True
        if w >= beta:
            v[0] = beta
            return True
        return False

    cdef inline bint _etc_cut(self, GameState s, int* moves, int n, int me, int depth,
                              double beta, double* v) noexcept nogil:
        """Enhanced transposition cutoff: a child whose stored bound already refutes this node
        (fails high here) ends it before any search, with value v[0]."""
        cdef TTEntry* ce
        cdef int i
        for i in range(n):
            s.do_move(moves[i])
            ce = &self.tt[s.hash & self.tt_mask]
            if (s.player != me and ce.flag != 0 and ce.key == s.hash
                    and ce.depth >= depth - 1 and (ce.flag == 1 or ce.flag == 3)
                    and -ce.value >= beta):
                v[0] = -ce.value
                s.undo_move()
                return True
            s.undo_move()
        return False

    def search(self, GameState state, double seconds=0.0, int depth=0, nodes=0,
               double hard=0.0):
        """Choose a move for `state` (not modified). Returns (move, stats dict).

        A depth, a node count and seconds may be given together: the search stops at the first
        reached. Budgets outside mcts_arena.budgets' ranges raise a ValueError; the search never
        runs longer than budgets.TIME_MAX seconds (a fixed depth included), or than `hard`
        seconds when it is given (a game clock's time left plus its margin), which then
        replaces TIME_MAX and bounds `seconds`.
        """
        cdef double cap = hard if hard > 0 else TIME_CAP
        if not (0.0 <= hard <= HARD_CAP):
            raise ValueError(f"αβ hard time limit must be 0 to {HARD_CAP:g} seconds, got {hard}")
        if not (0.0 <= seconds <= cap):
            raise ValueError(f"αβ time budget must be 0 to {cap:g} seconds, got {seconds}")
        if not (0 <= nodes <= NODES_CAP) or nodes != int(nodes):
            raise ValueError(f"αβ node budget must be 0 to {NODES_CAP}, got {nodes}")
        cdef long nnodes = int(nodes)
        self.k = knowledge_for(self.knowledge, state)
        cdef GameState s = state.clone()
        cdef double t0 = now(), value = 0.0, v
        cdef int d, best = -1, done_depth = 0, limit
        cdef int* moves = <int*>alloca(s.max_moves * sizeof(int))
        cdef int n = self.k.search_moves(s, moves) if s.result() == ONGOING else 0
        if n == 0:
            raise ValueError("no legal move: the game is over")
        if s.max_moves > self.mv_stride:
            free(self.mvbuf)
            self.mvbuf = <int*>malloc(MAX_PLY * s.max_moves * sizeof(int))
            if self.mvbuf == NULL:
                self.mv_stride = 0
                raise MemoryError()
            self.mv_stride = s.max_moves
        self.c.nodes = 0
        self.c.aborted = False
        self.c.node_limit = nnodes
        self.c.deadline = t0 + (seconds if seconds > 0 else cap)
        self.max_depth_reached = 0
        memset(self.killers, 0xFF, sizeof(self.killers))
        limit = depth if depth > 0 else MAX_PLY - 2
        if seconds <= 0 and nnodes <= 0 and depth <= 0:
            raise ValueError("αβ needs a budget: seconds, depth or nodes")
        best = moves[rng_below(&self.rng, n)]
        with nogil:
            d = 1
            while d <= limit:
                self.root_best = -1
                v = self._search(s, d, -INF, INF, 0, True)
                if self.c.aborted:
                    break
                if self.root_best >= 0:
                    best = self.root_best
                    value = v
                done_depth = d
                if v >= WIN_SCORE - MAX_PLY or v <= -(WIN_SCORE - MAX_PLY):
                    break     # the game-theoretic value is known
                if n == 1:
                    break
                d += 1
        return best, {"nodes": self.c.nodes, "depth": done_depth, "value": value,
                      "seldepth": self.max_depth_reached, "time": now() - t0, "sims": 0}
