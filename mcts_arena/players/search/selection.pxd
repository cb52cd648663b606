# cython: language_level=3
"""MCTS's selection policies at a decision node (players/search/mcts.pyx calls one per tree
level; Opts.rule chooses):

- UCT (`select_uct`), the paper's: value = Q + C sqrt(ln n_s / n) + W H(s,a) / (n + 1) (PB /
  pbW); unvisited children come first (uniformly at random: the child block is shuffled at
  expansion, or sorted by heuristic under `puK`, whose window of children grows with n_s);
  with RAVE an untried move with AMAF data is ranked by it (as one visit's exploration);
- UCB1-Tuned (`select_uct` given the sums of squared rewards, `tuned`): UCT with the
  exploration term of Auer, Cesa-Bianchi & Fischer (2002), sized by the spread of the rewards
  the child has seen (`tuned_term`);
- PUCT (`select_puct`, `puctc`): value = Q + c P(s,a) sqrt(n_s) / (1 + n), P the child's prior
  (uniform 1/k over the k children, or with `pr` the game's node priors normalised over the
  siblings: `set_priors`); an unvisited child's Q is 0, the value of a draw.

Both: Q is the child's mean blended by RAVE (Q = (1-β) Q + β AMAF, β = max(0, (K - n_s) / K))
and by the evaluation (`blend`: im, cb, pbim); a proven win is taken at once, proven losses are
skipped while another move exists; ties are broken uniformly (reservoir sampling, `better`).

At the root a search may play the Gumbel root instead (players/search/gumbel.pxd), any rule
here below it.
"""
from libc.math cimport log, sqrt, exp

from mcts_arena.rng cimport Rng, rng_below
from mcts_arena.games.state cimport GameState, Knowledge
from mcts_arena.players.search.tree cimport Node, Opts, SEL_IM, SEL_CB, SEL_PBIM

cdef enum:
    UCB_CACHE = 64      # select_uct: exploration terms cached per visit count below this


cdef struct UcbCache:
    # the exploration term C sqrt(ln n / v) by visit count v, valid while gen[v] == call (one
    # call of select_uct: ln n is fixed within it)
    double term[UCB_CACHE]
    long gen[UCB_CACHE]
    long call


cdef inline double blend(Opts* o, Node* c, double q) noexcept nogil:
    """The mean q of visited child c blended with its value v by im, cb or pbim."""
    cdef double a = o.alpha
    if o.sel == SEL_IM or o.sel == SEL_CB:
        return (1.0 - a) * q + a * c.v
    if o.sel == SEL_PBIM:
        return (1.0 - a) * q + a * c.v / (c.visits + 1.0)
    return q


cdef inline bint better(Rng* rng, double val, double* best, int* ties) noexcept nogil:
    """Does a child of selection value `val` replace the choice so far? Above the best, yes;
    equal to it, with probability 1/ties (reservoir sampling of the ties)."""
    if val > best[0]:
        best[0] = val
        ties[0] = 1
        return True
    if val == best[0]:
        ties[0] += 1
        return rng_below(rng, ties[0]) == 0
    return False


cdef inline double rave_mean(Opts* o, Node* nd, Node* c, double q) noexcept nogil:
    """Visited child c's mean q blended with its AMAF mean (RAVE's schedule at parent nd)."""
    cdef double beta
    if o.rave > 0 and c.amaf_n > 0:
        beta = (o.rave - nd.visits) / <double>o.rave
        if beta > 0:
            q = (1.0 - beta) * q + beta * (c.amaf_w / c.amaf_n)
    return q


cdef inline double tuned_term(Opts* o, Node* c, double sq, double logn) noexcept nogil:
    """UCB1-Tuned's exploration term for visited child c whose rewards' squares sum to sq.

    Auer et al. 2002 on rewards x in [0, 1]: sqrt(ln N / n min(1/4, V)), V = the mean of x^2 -
    the mean of x squared + sqrt(2 ln N / n). Ours are r in [-1, 1]: with x = (r + 1) / 2 the
    variance of x is a quarter of r's, and the term, times 2 to come back to r's scale, is
    sqrt(ln N / n min(1, var_r + 4 sqrt(2 ln N / n))), var_r = sq / n - (wins / n)^2. Times C,
    as UCT's term is: at C = 1 it is Auer's formula. It is never above UCT's term at the same
    C, and equal to it while V reaches its bound (few visits, or rewards spread wide)."""
    cdef double n = c.visits, mean = c.wins / n
    cdef double v = sq / n - mean * mean + 4.0 * sqrt(2.0 * logn / n)
    if v > 1.0:
        v = 1.0
    elif v < 0.0:           # rounding of a zero variance at N = 1 (ln N = 0)
        v = 0.0
    return o.C * sqrt(logn / n * v)


cdef inline int select_uct(Node* nodes, int node, Opts* o, Rng* rng, UcbCache* cache,
                           const double* sq) noexcept nogil:
    """UCT's choice at `node`; with sq (each node's sum of squared rewards, by index) the
    exploration term is UCB1-Tuned's (tuned_term), else C sqrt(ln n_s / n)."""
    cdef Node* nd = &nodes[node]
    cdef Node* c
    cdef int i, last, choice = -1, ties = 0, fallback = -1
    cdef double best = -1e300, val, q, logn, tuned_above
    cdef long limit
    logn = log(nd.visits if nd.visits > 0 else 1)
    # UCB1-Tuned's V is at least its allowance 4 sqrt(2 ln N / n), which is 1 or more up to
    # n = 32 ln N: up to there its term is UCT's exactly, cached as UCT's is (two square
    # roots for every child of Hex's 121 made its search several times slower than UCT's)
    tuned_above = 32.0 * logn
    cache.call += 1
    last = nd.first + nd.nactive
    if o.pu > 0 and nd.visits >= 40:
        limit = o.pu + 1 + <long>(log(nd.visits / 40.0) / log(1.3))
        if nd.first + limit < last:
            last = nd.first + <int>limit
    elif o.pu > 0 and nd.first + o.pu < last:
        last = nd.first + o.pu
    for i in range(nd.first, last):
        c = &nodes[i]
        if c.proven == 1:
            return i
        if c.proven == -1:
            fallback = i
            continue
        if c.visits == 0:
            if o.rave > 0 and c.amaf_n > 0:
                # RAVE ranks the untried moves by their AMAF value (as one visit's worth of
                # exploration): "unvisited first at random" threw away what RAVE knows
                # (MCTS(rave300) vs MCTS on 7x7 Hex at 2,000 sims: 48% before)
                q = c.amaf_w / c.amaf_n
                val = q + o.C * sqrt(logn)
            else:
                # untried: the children were shuffled at expansion (by heuristic under pu),
                # so the first one is a random (best-ordered) pick
                return i
        else:
            q = blend(o, c, rave_mean(o, nd, c, c.wins / c.visits))
            if sq != NULL and c.visits > tuned_above:
                val = q + tuned_term(o, c, sq[i], logn)
            elif c.visits < UCB_CACHE:
                # the same product as below, computed once per visit count and call: wide
                # nodes (Hex, Gomoku) have many children with equal small counts
                if cache.gen[c.visits] != cache.call:
                    cache.gen[c.visits] = cache.call
                    cache.term[c.visits] = o.C * sqrt(logn / c.visits)
                val = q + cache.term[c.visits]
            else:
                val = q + o.C * sqrt(logn / c.visits)
            if o.pb > 0:
                val += o.pb * c.bias / (c.visits + 1.0)
        if better(rng, val, &best, &ties):
            choice = i
    if choice < 0:
        # every considered move is a proven loss: any of them (or the first active)
        return fallback if fallback >= 0 else nd.first
    return choice


cdef inline int select_puct(Node* nodes, int node, Opts* o, Rng* rng) noexcept nogil:
    cdef Node* nd = &nodes[node]
    cdef Node* c
    cdef int i, choice = -1, ties = 0, fallback = -1
    cdef double best = -1e300, val, q
    cdef double scale = o.puct * sqrt(nd.visits if nd.visits > 0 else 1)
    for i in range(nd.first, nd.first + nd.nactive):
        c = &nodes[i]
        if c.proven == 1:
            return i
        if c.proven == -1:
            fallback = i
            continue
        q = blend(o, c, rave_mean(o, nd, c, c.wins / c.visits)) if c.visits > 0 else 0.0
        val = q + scale * c.bias / (1.0 + c.visits)
        if better(rng, val, &best, &ties):
            choice = i
    if choice < 0:
        return fallback if fallback >= 0 else nd.first
    return choice


cdef inline double game_prior(Knowledge k, GameState s, int move, Opts* o) noexcept nogil:
    """The node prior of `move` at s by knowledge k, in [0, 1] (negative: it has none there):
    its `move_prior`, or with npk the sigmoid 1 / (1 + e^-(k v + b)) of the evaluation v after
    the move (the Gomoku report's prior)."""
    if o.npk > 0:
        return 1.0 / (1.0 + exp(-(o.npk * k.eval_after(s, move, o.evalfn) + o.npb)))
    return k.move_prior(s, move)


cdef inline void set_priors(Node* a, int n, bint game) noexcept nogil:
    """PUCT's priors of sibling children a[0:n], summing to 1: uniform, or (game) their game
    priors as set in `bias` normalised, a child without one given the mean of the others."""
    cdef double total = 0.0, fill
    cdef int i, known = 0
    if game:
        for i in range(n):
            if a[i].bias >= 0:
                total += a[i].bias
                known += 1
        if known > 0 and total > 0:
            fill = total / known
            total += fill * (n - known)
            for i in range(n):
                a[i].bias = <float>((a[i].bias if a[i].bias >= 0 else fill) / total)
            return
    for i in range(n):
        a[i].bias = <float>(1.0 / n)
