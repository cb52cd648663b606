# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Searches of games with chance nodes: expectimax, Ballard's Star1 and Star2, and Monte Carlo
*-minimax (MCMS).

All four are one negamax recursion over decision nodes and chance nodes (games/state.pxd):

- a value is in [L, U] = [-1, 1] from the view of the node's `player` (a chance node's player
  is the side the dice concern); a finished game is `terminal_reward()` (gammons scaled in),
  a leaf at depth 0 the game's evaluation. A child's value is negated when the side changes;
- depth counts decisions (plies); a chance node costs no depth, so a depth-d search looks d
  decisions ahead with every roll between them;
- `EXPECTIMAX` searches every child of every node with no pruning at all (Ballard's baseline);
- `STAR1` (Ballard 1983) keeps αβ at decision nodes and prunes chance nodes: after each outcome
  the chance value is known to lie in [sum p*lo, sum p*hi] over per-outcome bounds (L and U for
  those not searched yet), so it stops once that interval lies outside (alpha, beta), and it
  searches each outcome with the window that would just decide that;
- `STAR2` first probes every outcome: a decision child's value is at least the value of one of
  its moves, so it searches only the first move by the game's ordering (a lower bound, for the
  side to move after the outcome), and a cut may come from those bounds before any full search
  (Ballard; Hauk, Buro & Schaeffer 2004). Then Star1 runs with the probed bounds;
- MCMS (Lanctot, Saffidine, Veness, Archibald & Winands, IJCAI 2013): with `samples` = c > 0 a
  chance node with more than c outcomes is replaced by c outcomes drawn by their probabilities
  (with replacement, each drawn outcome weighted by how often it was drawn / c), redrawn at
  every visit, and then searched by Star1 or Star2.

Pruning never changes the value (tests/test_expectimax.py checks expectimax = Star1 = Star2 at
equal depth): a child searched with a narrowed window that fails low or high gives a bound, and
a chance node whose bounds did not cut searches any such child again with the full window
before it returns, so floating-point rounding at a cut's edge cannot leave a bound standing in
for a value.

Budgets: iterative deepening (depth 1, 2, ...) under seconds and/or a node count, or a fixed
depth; the last finished iteration's move is played; the clock is read every 256 nodes.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, malloc, free

from mcts_arena.clock cimport now
from mcts_arena.rng cimport Rng, rng_seed, rng_below
from mcts_arena.games.state cimport alloca, GameState, Knowledge, knowledge_for, ONGOING
from mcts_arena.players.search.alphabeta cimport order_moves
from mcts_arena import budgets as _budgets

cdef double TIME_CAP = _budgets.TIME_MAX
cdef double HARD_CAP = _budgets.HARD_MAX
cdef long NODES_CAP = _budgets.SIMS_MAX
cdef double INF = 1e9
cdef double LO = -1.0       # the bounds L, U of every value (evaluations, rewards)
cdef double HI = 1.0
cdef double EPS = 1e-12     # cut tests allow this much rounding

cdef enum:
    MAX_DEPTH = 64

# Algorithms.
cdef enum:
    EXPECTIMAX = 0
    STAR1 = 1
    STAR2 = 2
ALGORITHMS = {"expectimax": EXPECTIMAX, "Star1": STAR1, "Star2": STAR2}


cdef struct Entry:         # a transposition table entry: bounds on a node's value at a depth
    uint64_t key
    double lo
    double hi
    int depth           # -1: empty


cdef class StarSearch:
    """One search object per player: expectimax (algo 0), Star1 (1) or Star2 (2), with
    `samples` > 0 for MCMS's sparse sampling at chance nodes."""

    cdef int algo, evalfn, samples
    cdef Rng rng
    cdef long nodes, node_limit
    cdef double deadline
    cdef bint aborted
    cdef int root_best
    cdef long probes        # Star2 probe searches (for the experiments)
    cdef Entry* tt          # NULL: no table
    # the knowledge given to the search (None: each position's game's own) and the one in use
    cdef public Knowledge knowledge
    cdef Knowledge k
    cdef uint64_t tt_mask

    def __cinit__(self, int algo=STAR2, int evalfn=0, unsigned long long seed=1,
                  int samples=0, bint use_tt=True, int tt_bits=18):
        """`use_tt`: a transposition table of value bounds per (position, depth): the
        positions Star2 probes are searched again by its Star1 pass, and without the table
        that work is done twice at every chance node below (Pig's rolls make it 2^depth).
        Bounds are reused only at the same remaining depth, so the table never changes a
        value of a fixed-depth search (MCMS's sampled chance nodes aside)."""
        if algo not in (EXPECTIMAX, STAR1, STAR2):
            raise ValueError(f"unknown *-minimax algorithm {algo}")
        if samples < 0:
            raise ValueError(f"samples per chance node must be >= 0, got {samples}")
        self.algo = algo
        self.evalfn = evalfn
        self.samples = samples
        rng_seed(&self.rng, seed)
        self.tt = NULL
        if use_tt:
            self.tt = <Entry*>calloc((<size_t>1) << tt_bits, sizeof(Entry))
            if self.tt == NULL:
                raise MemoryError()
            self.tt_mask = ((<uint64_t>1) << tt_bits) - 1

    def __dealloc__(self):
        free(self.tt)

    cdef inline void _store(self, uint64_t key, int depth, double v, double alpha,
                            double beta) noexcept nogil:
        """Record what a fail-soft search with window (alpha, beta) found: v <= alpha an upper
        bound, v >= beta a lower bound, else the value; bounds at the same key and depth are
        combined."""
        cdef Entry* e = &self.tt[key & self.tt_mask]
        if e.key != key or e.depth != depth:
            e.key = key
            e.depth = depth
            e.lo = LO
            e.hi = HI
        if v <= alpha:
            if v < e.hi:
                e.hi = v
        elif v >= beta:
            if v > e.lo:
                e.lo = v
        else:
            e.lo = v
            e.hi = v

    cdef inline bint _tick(self) noexcept nogil:
        """Count a node; True once the budget is spent (the search then unwinds)."""
        self.nodes += 1
        if (self.nodes & 255) == 0:
            if (self.deadline > 0 and now() >= self.deadline) or \
               (self.node_limit > 0 and self.nodes >= self.node_limit):
                self.aborted = True
        return self.aborted

    cdef double _value(self, GameState s, int depth, double alpha, double beta,
                       int ply) noexcept nogil:
        """The value of `s` for s.player searched `depth` decisions deep; fail-soft: a value
        <= alpha is an upper bound, >= beta a lower bound, else exact."""
        cdef int res
        cdef double v
        cdef Entry* e
        cdef uint64_t key
        if self._tick():
            return 0.0
        res = s.result()
        if res != ONGOING:
            return s.terminal_reward() if s.player == 0 else -s.terminal_reward()
        if not s.is_chance() and (depth <= 0 or ply >= MAX_DEPTH):
            return self.k.evaluate(s, self.evalfn)
        key = s.hash
        if self.tt != NULL:
            e = &self.tt[key & self.tt_mask]
            if e.key == key and e.depth == depth:
                if e.lo == e.hi or e.lo >= beta:
                    return e.lo
                if e.hi <= alpha:
                    return e.hi
        if s.is_chance():
            v = self._chance(s, depth, alpha, beta, ply)
        else:
            v = self._decision(s, depth, alpha, beta, ply, 0)
        if self.tt != NULL and not self.aborted:
            self._store(key, depth, v, alpha, beta)
        return v

    cdef double _decision(self, GameState s, int depth, double alpha, double beta, int ply,
                          int only) noexcept nogil:
        """A decision node: negamax αβ over its moves in the game's order (no window for
        expectimax); `only` > 0 searches the first `only` moves (Star2's probe)."""
        cdef int* moves = <int*>alloca(s.max_moves * sizeof(int))
        cdef int n, i, m, me = s.player
        cdef double v, best = -INF
        n = self.k.search_moves(s, moves)
        if n == 0:
            return self.k.evaluate(s, self.evalfn)
        order_moves(self.k, s, moves, n, -1, NULL, NULL, NULL)
        if only > 0 and n > only:
            n = only
        if self.algo == EXPECTIMAX:
            alpha, beta = -INF, INF
        for i in range(n):
            m = moves[i]
            s.do_move(m)
            if s.player == me:
                v = self._value(s, depth - 1, alpha, beta, ply + 1)
            else:
                v = -self._value(s, depth - 1, -beta, -alpha, ply + 1)
            s.undo_move()
            if self.aborted:
                return 0.0
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        return best

    cdef double _leaf(self, GameState s, int depth, int ply, bint* is_leaf) noexcept nogil:
        """The value of a position that needs no search (finished, or a decision at depth 0),
        with is_leaf set; else is_leaf is False."""
        cdef int res = s.result()
        is_leaf[0] = True
        if res != ONGOING:
            return s.terminal_reward() if s.player == 0 else -s.terminal_reward()
        if not s.is_chance() and (depth <= 0 or ply >= MAX_DEPTH):
            return self.k.evaluate(s, self.evalfn)
        is_leaf[0] = False
        return 0.0

    cdef double _chance(self, GameState s, int depth, double alpha, double beta,
                        int ply) noexcept nogil:
        """A chance node: the probability-weighted mean of its outcomes' values for s.player;
        Star1/Star2 cut it once its bounds leave (alpha, beta) and return that bound."""
        cdef int k = s.max_outcomes
        cdef int* outs = <int*>alloca(k * sizeof(int))
        cdef double* probs = <double*>alloca(k * sizeof(double))
        cdef double* lo = <double*>alloca(k * sizeof(double))
        cdef double* hi = <double*>alloca(k * sizeof(double))
        cdef signed char* sign = <signed char*>alloca(k * sizeof(signed char))
        cdef int n, i
        cdef double v, a, b, slo = 0.0, shi = 0.0
        n = s.chance_outcomes(outs, probs)
        if self.samples > 0 and n > self.samples:
            n = self._sample(s, outs, probs, n)
        for i in range(n):
            lo[i] = LO
            hi[i] = HI
            slo += probs[i] * LO
            shi += probs[i] * HI
        if self.algo == EXPECTIMAX:
            return self._mean(s, depth, ply, n, outs, probs)
        if self._probe_outcomes(s, depth, alpha, beta, ply, n, outs, probs, lo, hi, sign,
                                &slo, &shi, &v):
            return v
        for i in range(n):
            if lo[i] == hi[i]:
                continue
            # the window on this outcome's value that decides the node: below a, the node
            # is <= alpha whatever the others are; above b, it is >= beta
            a = (alpha - (shi - probs[i] * hi[i])) / probs[i]
            b = (beta - (slo - probs[i] * lo[i])) / probs[i]
            if a < lo[i]:
                a = lo[i] - EPS
            if b > hi[i]:
                b = hi[i] + EPS
            s.do_move(outs[i])
            if sign[i] > 0:
                v = self._value(s, depth, a, b, ply + 1)
            else:
                v = -self._value(s, depth, -b, -a, ply + 1)
            s.undo_move()
            if self.aborted:
                return 0.0
            if v <= a:
                if v < hi[i]:
                    shi += probs[i] * (v - hi[i])
                    hi[i] = v
            elif v >= b:
                if v > lo[i]:
                    slo += probs[i] * (v - lo[i])
                    lo[i] = v
            else:
                slo += probs[i] * (v - lo[i])
                shi += probs[i] * (v - hi[i])
                lo[i] = v
                hi[i] = v
            if slo >= beta - EPS:
                return slo
            if shi <= alpha + EPS:
                return shi
        return self._exact_mean(s, depth, ply, n, outs, probs, lo, hi, sign)

    cdef inline double _mean(self, GameState s, int depth, int ply, int n, int* outs,
                             double* probs) noexcept nogil:
        """Expectimax's chance node: each of the n outcomes searched with the full window, the
        probability-weighted mean of their values for s.player (0 once aborted)."""
        cdef int i, me = s.player
        cdef double v, total = 0.0
        for i in range(n):
            s.do_move(outs[i])
            v = self._value(s, depth, -INF, INF, ply + 1)
            if s.player != me:
                v = -v
            s.undo_move()
            if self.aborted:
                return 0.0
            total += probs[i] * v
        return total

    cdef inline double _exact_mean(self, GameState s, int depth, int ply, int n, int* outs,
                                   double* probs, double* lo, double* hi,
                                   signed char* sign) noexcept nogil:
        """Star1/Star2's chance node once no cut came: the weighted mean of the outcomes'
        values, which should all be exact (lo == hi) now; one left as a bound (a cut test
        missed by rounding) is searched again with the full window (0 once aborted)."""
        cdef int i
        cdef double v, total = 0.0
        for i in range(n):
            if hi[i] - lo[i] > EPS:
                s.do_move(outs[i])
                v = self._value(s, depth, -INF, INF, ply + 1)
                s.undo_move()
                if self.aborted:
                    return 0.0
                lo[i] = v * sign[i]
            total += probs[i] * lo[i]
        return total

    cdef bint _probe_outcomes(self, GameState s, int depth, double alpha, double beta, int ply,
                              int n, int* outs, double* probs, double* lo, double* hi,
                              signed char* sign, double* slo, double* shi,
                              double* out) noexcept nogil:
        """Which side each outcome hands the decision to (sign), and for Star2 a probe of each
        outcome that narrows its bounds lo/hi and their weighted sums slo/shi. True when the
        node ends here with out[0] (a bound that cuts, or 0 once the search is aborted)."""
        cdef int i, me = s.player
        cdef double v
        cdef bint leaf
        for i in range(n):
            s.do_move(outs[i])
            sign[i] = 1 if s.player == me else -1
            if self.algo != STAR2:
                s.undo_move()
                continue
            if self._tick():
                s.undo_move()
                out[0] = 0.0
                return True
            v = self._leaf(s, depth, ply + 1, &leaf)
            if leaf:
                v = v * sign[i]
            elif (beta >= HI if sign[i] > 0 else alpha <= LO):
                s.undo_move()   # this side's bound cannot cut (a window open there)
                continue
            else:
                v = self._probe(s, depth, alpha, beta, ply, i, probs, lo, hi, slo[0],
                                shi[0], sign[i])
                if self.aborted:
                    s.undo_move()
                    out[0] = 0.0
                    return True
            s.undo_move()
            if leaf:
                slo[0] += probs[i] * (v - lo[i])
                shi[0] += probs[i] * (v - hi[i])
                lo[i] = v
                hi[i] = v
            elif sign[i] > 0 and v > lo[i]:
                slo[0] += probs[i] * (v - lo[i])
                lo[i] = v
            elif sign[i] < 0 and v < hi[i]:
                shi[0] += probs[i] * (v - hi[i])
                hi[i] = v
            if slo[0] >= beta - EPS:
                out[0] = slo[0]
                return True
            if shi[0] <= alpha + EPS:
                out[0] = shi[0]
                return True
        return False

    cdef double _probe(self, GameState s, int depth, double alpha, double beta, int ply,
                       int i, double* probs, double* lo, double* hi, double slo, double shi,
                       int sign) noexcept nogil:
        """Star2's probe of outcome i (already played on `s`): the value of the first move of
        the decision after it, a lower bound on that decision's value for its side. Searched
        with no lower limit (so the result is never an upper bound) and an upper limit where
        the bound would already cut the chance node. Returned in the chance node's view: a
        lower bound when the same side decides (sign 1), else an upper bound."""
        cdef double b, v
        cdef Entry* e
        if self.tt != NULL:         # probed (or searched) before at this depth: its bound
            e = &self.tt[s.hash & self.tt_mask]
            if e.key == s.hash and e.depth == depth and e.lo > LO:
                return e.lo if sign > 0 else -e.lo
        if sign > 0:
            b = (beta - (slo - probs[i] * lo[i])) / probs[i]
            if b > HI:
                b = HI + EPS
        else:
            b = -((alpha - (shi - probs[i] * hi[i])) / probs[i])
            if b > HI:
                b = HI + EPS
        v = self._decision(s, depth, -INF, b, ply + 1, 1)
        self.probes += 1
        if self.tt != NULL and not self.aborted:
            self._store(s.hash, depth, v, -INF, v)     # the node is worth at least v
        return v if sign > 0 else -v

    cdef int _sample(self, GameState s, int* outs, double* probs, int n) noexcept nogil:
        """MCMS: replace the n outcomes by `samples` draws by probability, merged: each drawn
        outcome weighted by its count / samples. Returns the number of distinct outcomes."""
        cdef int c = self.samples, i, j, m, d = 0
        cdef bint found
        for i in range(c):  # no-cython-lint: the count is the point
            m = s.sample_chance(&self.rng)
            found = False
            for j in range(d):
                if outs[j] == m:
                    probs[j] += 1.0 / c
                    found = True
                    break
            if not found:
                outs[d] = m
                probs[d] = 1.0 / c
                d += 1
        return d

    def value(self, GameState state, int depth):
        """The depth-`depth` value of `state` for its side to move (a chance node included),
        with the node count: (value, nodes). For tests and experiments."""
        cdef GameState s = state.clone()
        cdef double v
        self.k = knowledge_for(self.knowledge, state)
        if depth < 0 or depth > MAX_DEPTH:
            raise ValueError(f"depth must be 0 to {MAX_DEPTH}, got {depth}")
        self.nodes = 0
        self.probes = 0
        self.node_limit = 0
        self.deadline = 0.0
        self.aborted = False
        with nogil:
            v = self._value(s, depth, -INF, INF, 0)
        return v, self.nodes

    def search(self, GameState state, double seconds=0.0, int depth=0, nodes=0,
               double hard=0.0):
        """Choose a move for `state` (a decision node; not modified): iterative deepening to
        `depth` (0: no limit) under `seconds` and/or `nodes`, the first reached, never longer
        than budgets.TIME_MAX seconds or, when given, `hard` seconds (a game clock's time left
        plus its margin), which then bounds `seconds`. Returns (move, stats)."""
        cdef double cap = hard if hard > 0 else TIME_CAP
        if not (0.0 <= hard <= HARD_CAP):
            raise ValueError(f"hard time limit must be 0 to {HARD_CAP:g} seconds, got {hard}")
        if not (0.0 <= seconds <= cap):
            raise ValueError(f"time budget must be 0 to {cap:g} seconds, got {seconds}")
        if not (0 <= nodes <= NODES_CAP) or nodes != int(nodes):
            raise ValueError(f"node budget must be 0 to {NODES_CAP}, got {nodes}")
        if seconds <= 0 and nodes <= 0 and depth <= 0:
            raise ValueError("a *-minimax search needs a budget: seconds, depth or nodes")
        cdef GameState s = state.clone()
        self.k = knowledge_for(self.knowledge, state)
        if s.result() != ONGOING or s.is_chance():
            raise ValueError("no move to choose: the game is over or the dice are to be rolled")
        cdef double t0 = now(), value = 0.0
        cdef int* moves = <int*>malloc(s.max_moves * sizeof(int))
        cdef int n, d, i, j, t, best, done = 0, limit, me = s.player
        cdef double v, bestv, alpha
        if moves == NULL:
            raise MemoryError()
        n = self.k.search_moves(s, moves)
        if n == 0:
            free(moves)
            raise ValueError("no legal move")
        self.nodes = 0
        self.probes = 0
        self.node_limit = int(nodes)
        self.deadline = t0 + (seconds if seconds > 0 else cap)
        self.aborted = False
        limit = depth if depth > 0 else MAX_DEPTH
        # shuffle, then order by the game: equal moves are chosen at random, seeded
        for i in range(n - 1, 0, -1):
            j = rng_below(&self.rng, i + 1)
            t = moves[i]; moves[i] = moves[j]; moves[j] = t
        order_moves(self.k, s, moves, n, -1, NULL, NULL, NULL)
        best = moves[0]
        with nogil:
            d = 1
            while d <= limit and n > 1:
                bestv = -INF
                alpha = -INF
                j = -1
                for i in range(n):
                    s.do_move(moves[i])
                    if s.player == me:
                        v = self._value(s, d - 1, alpha, INF, 1)
                    else:
                        v = -self._value(s, d - 1, -INF, -alpha, 1)
                    s.undo_move()
                    if self.aborted:
                        break
                    if v > bestv:
                        bestv = v
                        j = i
                        if self.algo != EXPECTIMAX and v > alpha:
                            alpha = v
                if self.aborted:
                    break
                best = moves[j]
                value = bestv
                done = d
                # the best move first in the next iteration: its value makes the best window
                t = moves[j]
                while j > 0:
                    moves[j] = moves[j - 1]
                    j -= 1
                moves[0] = t
                if self.deadline > 0 and d > 1 and now() - t0 > 0.5 * (self.deadline - t0):
                    break       # the next iteration would not finish in time
                d += 1
        free(moves)
        return best, {"nodes": self.nodes, "depth": done, "value": value,
                      "time": now() - t0, "sims": 0, "probes": self.probes}
