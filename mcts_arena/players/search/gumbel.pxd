# cython: language_level=3
"""The Gumbel root (Danihelka, Guez, Schrittwieser & Silver, "Policy improvement by planning
with Gumbel", ICLR 2022), a root policy of MCTS (players/search/mcts.pyx calls it at the root;
below the root the search's own rule selects, UCT, UCB1-Tuned or PUCT):

- at the root's expansion each move a gets Gumbel noise g(a) and its logit, log P(a), P the
  game's node priors normalised over the moves (uniform where the game has none): the m moves
  of highest g(a) + logit(a) are the survivors (`gumbel_start`);
- Sequential Halving spends the budget in ceil(log2 m) phases: in a phase each survivor gets
  max(1, floor(n / (phases x survivors))) visits, round robin (best-ranked first), then the
  survivors are ranked by g(a) + logit(a) + sigma(q(a)) and the better half, at least 2, stay
  (`gumbel_advance`). Budget left after the last phase goes to the last 2, phase by phase, as
  mctx's schedule does. Under a time budget phase p ends at p + 1 phases' share of the time
  (or at its simulations, whichever comes first, when both are given);
- the move played: a proven win at once, else among the survivors with the most visits the
  highest g(a) + logit(a) + sigma(q(a)) (`gumbel_final`);
- sigma(q) = (c_visit + max_b N(b)) c_scale q, q the child's mean (blended as selection blends
  it, +-1 once proven) completed for an unvisited move by the mixed value (the visited moves'
  prior-weighted mean, weighted with a draw's 0 at the root as one visit) and rescaled to
  [0, 1] by the least and greatest over the root's moves.

Its statistics are arrays over the root's children only (by offset from the root's first
child), allocated by the searches that use it: no field of Node changes.
"""
from libc.math cimport log, ceil, log2
from libc.stdlib cimport malloc, free

from mcts_arena.rng cimport Rng, rng_uniform
from mcts_arena.games.state cimport GameState, Knowledge
from mcts_arena.players.search.tree cimport Node, Opts
from mcts_arena.players.search.selection cimport blend, game_prior


cdef enum:
    GUMBEL_M_MAX = 10000     # m at most (players/options.py's range for `gumbel`)


cdef struct GumbelRoot:
    double* score        # g(a) + logit(a) of each root child, by offset from the root's first
    double* prior        # its prior, normalised over the root's moves
    double* q            # its completed value, rescaled to [0, 1] (gumbel_values)
    int* alive           # the survivors (offsets), the first n_alive of them, best first
    int n_alive
    int cap              # the arrays' length (the game's max_moves)
    int phase
    int phases           # ceil(log2 m), at least 1
    long n               # the simulation budget (0: a time budget alone)
    long phase_end       # simulations done when the current phase ends
    double t0            # the search's start and time budget (0: simulations alone)
    double T
    bint on              # the root is a decision node the Gumbel root plays at


cdef inline void gumbel_init(GumbelRoot* g) noexcept nogil:
    """No arrays yet, off."""
    g.score = g.prior = g.q = NULL
    g.alive = NULL
    g.cap = 0
    g.on = False


cdef inline void gumbel_free(GumbelRoot* g) noexcept nogil:
    free(g.score)
    free(g.prior)
    free(g.q)
    free(g.alive)
    gumbel_init(g)


cdef inline int gumbel_alloc(GumbelRoot* g, int n) noexcept nogil:
    """The arrays for up to n root moves: 0, or -1 when memory ran out (then none)."""
    if n <= g.cap:
        return 0
    gumbel_free(g)
    g.score = <double*>malloc(n * sizeof(double))
    g.prior = <double*>malloc(n * sizeof(double))
    g.q = <double*>malloc(n * sizeof(double))
    g.alive = <int*>malloc(n * sizeof(int))
    if g.score == NULL or g.prior == NULL or g.q == NULL or g.alive == NULL:
        gumbel_free(g)
        return -1
    g.cap = n
    return 0


cdef inline void gumbel_priors(GumbelRoot* g, Node* nodes, Knowledge k, GameState s,
                               Opts* o) noexcept nogil:
    """The root children's game priors (s at the root), normalised over them as PUCT's are: a
    move without one gets the others' mean; uniform where none has one."""
    cdef Node* root = &nodes[0]
    cdef int i, n = root.nchild, known = 0
    cdef double p, total = 0.0
    for i in range(n):
        p = game_prior(k, s, nodes[root.first + i].move, o)
        g.prior[i] = p
        if p >= 0:
            total += p
            known += 1
    if known == 0 or total <= 0:
        for i in range(n):
            g.prior[i] = 1.0 / n
        return
    p = total / known
    total += p * (n - known)
    for i in range(n):
        g.prior[i] = (g.prior[i] if g.prior[i] >= 0 else p) / total


cdef inline void gumbel_noise(GumbelRoot* g, int n, Rng* rng) noexcept nogil:
    """Gumbel(0, 1) noise -log(-log u) for the root's n children into g.score."""
    cdef int i
    cdef double u
    for i in range(n):
        u = rng_uniform(rng)
        while u <= 0.0:
            u = rng_uniform(rng)
        g.score[i] = -log(-log(u))


cdef inline void gumbel_start(GumbelRoot* g, Node* nodes, Opts* o, long nsims, double t0,
                              double seconds) noexcept nogil:
    """At the expanded root, its noise in g.score and priors in g.prior: the logits added,
    the m survivors best first, the first phase's end; nsims and seconds are the search's
    budget (0: not given)."""
    cdef int i, j, n = nodes[0].nchild, m = o.gumbel
    for i in range(n):
        g.score[i] += log(g.prior[i] if g.prior[i] > 1e-30 else 1e-30)
    if m > n:
        m = n
    g.n_alive = 0
    for i in range(n):
        # insertion into the survivors so far, best first; below the m-th: not one
        if g.n_alive == m and g.score[i] <= g.score[g.alive[m - 1]]:
            continue
        j = g.n_alive if g.n_alive < m else m - 1
        while j > 0 and g.score[g.alive[j - 1]] < g.score[i]:
            g.alive[j] = g.alive[j - 1]
            j -= 1
        g.alive[j] = i
        if g.n_alive < m:
            g.n_alive += 1
    g.phases = <int>ceil(log2(m)) if m > 1 else 1
    g.phase = 0
    g.n = nsims
    g.t0 = t0
    g.T = seconds
    g.phase_end = gumbel_phase_length(g)
    g.on = True


cdef inline long gumbel_phase_length(GumbelRoot* g) noexcept nogil:
    """Simulations in a phase of the current survivors: each gets max(1, floor(n / (phases x
    survivors))) visits (mctx's schedule); -1 (no end by simulations) under time alone."""
    cdef long each
    if g.n <= 0:
        return -1
    each = g.n // (<long>g.phases * g.n_alive)
    if each < 1:
        each = 1
    return each * g.n_alive


cdef inline void gumbel_values(GumbelRoot* g, Node* nodes, Opts* o) noexcept nogil:
    """sigma(q) of each root child into g.q: its completed value rescaled to [0, 1] by the
    root's least and greatest, times (c_visit + max N) c_scale."""
    cdef Node* root = &nodes[0]
    cdef Node* c
    cdef int i, n = root.nchild, max_n = 0
    cdef long total_n = 0
    cdef double lo = 1e300, hi = -1e300, weighted = 0.0, weight = 0.0, mixed, q, scale
    for i in range(n):
        c = &nodes[root.first + i]
        if c.proven != 0:
            q = c.proven
        elif c.visits > 0:
            q = blend(o, c, c.wins / c.visits)
        else:
            continue
        g.q[i] = q
        if c.visits > 0:
            total_n += c.visits
            weighted += g.prior[i] * q
            weight += g.prior[i]
        if c.visits > max_n:
            max_n = c.visits
    # the mixed value: the root's own value (a draw's 0, as PUCT's unvisited Q: no evaluation
    # of it) as one visit beside the visited moves' prior-weighted mean as their visits
    mixed = total_n * (weighted / weight) / (total_n + 1.0) if weight > 0 else 0.0
    for i in range(n):
        c = &nodes[root.first + i]
        if c.proven == 0 and c.visits == 0:
            g.q[i] = mixed
        if g.q[i] < lo:
            lo = g.q[i]
        if g.q[i] > hi:
            hi = g.q[i]
    scale = (o.gumbel_cv + max_n) * o.gumbel_cs / (hi - lo if hi - lo > 1e-8 else 1e-8)
    for i in range(n):
        g.q[i] = (g.q[i] - lo) * scale


cdef inline void gumbel_advance(GumbelRoot* g, Node* nodes, Opts* o, long done,
                                double t) noexcept nogil:
    """Before a simulation (done run so far, t the time now): at the end of a phase rank the
    survivors by g + logit + sigma(q) and keep the better half, at least 2."""
    cdef int i, j, a, keep
    cdef double v
    if not ((g.n > 0 and done >= g.phase_end) or
            (g.T > 0 and t >= g.t0 + g.T * (g.phase + 1) / g.phases)):
        return
    gumbel_values(g, nodes, o)
    for i in range(1, g.n_alive):
        a = g.alive[i]
        v = g.score[a] + g.q[a]
        j = i
        while j > 0 and g.score[g.alive[j - 1]] + g.q[g.alive[j - 1]] < v:
            g.alive[j] = g.alive[j - 1]
            j -= 1
        g.alive[j] = a
    keep = g.n_alive // 2
    if keep < 2:
        keep = 2 if g.n_alive >= 2 else g.n_alive
    g.n_alive = keep
    g.phase += 1
    if g.n > 0:
        g.phase_end = done + gumbel_phase_length(g)


cdef inline int gumbel_pick(GumbelRoot* g, Node* nodes) noexcept nogil:
    """The root child this simulation visits: round robin over the survivors, the best-ranked
    of those with the fewest visits, passing over proven losses while another survives."""
    cdef Node* root = &nodes[0]
    cdef Node* c
    cdef int j, best = 0
    cdef long least = -1
    for j in range(g.n_alive):
        c = &nodes[root.first + g.alive[j]]
        if c.proven == -1:
            continue
        if least < 0 or c.visits < least:
            least = c.visits
            best = j
    return root.first + g.alive[best]


cdef inline int gumbel_final(GumbelRoot* g, Node* nodes, Opts* o) noexcept nogil:
    """The move to play (a node index): a proven win at once; else, among the survivors not
    proven lost that have the most visits, the highest g + logit + sigma(q); -1 when every
    survivor is proven lost."""
    cdef Node* root = &nodes[0]
    cdef Node* c
    cdef int i, a, best = -1, most = -1
    cdef double v, best_v = -1e300
    for i in range(root.first, root.first + root.nchild):
        if nodes[i].proven == 1:
            return i
    gumbel_values(g, nodes, o)
    for i in range(g.n_alive):
        c = &nodes[root.first + g.alive[i]]
        if c.proven != -1 and c.visits > most:
            most = c.visits
    for i in range(g.n_alive):
        a = g.alive[i]
        c = &nodes[root.first + a]
        if c.proven == -1 or c.visits != most:
            continue
        v = g.score[a] + g.q[a]
        if v > best_v:
            best_v = v
            best = root.first + a
    return best


cdef inline void gumbel_options(Opts* o, dict options) except *:
    """The Gumbel root's options into o (after ol, exp1 and stop, which it refuses)."""
    o.gumbel = options.get("gumbel", 0)
    o.gumbel_cv = options.get("gumbel_cv", 50.0)
    o.gumbel_cs = options.get("gumbel_cs", 1.0)
    if o.gumbel != 0 and not 2 <= o.gumbel <= GUMBEL_M_MAX:
        raise ValueError(f"gumbel (the moves Sequential Halving starts with) must be 2 to "
                         f"{GUMBEL_M_MAX}, got {o.gumbel}")
    if o.gumbel > 0 and (o.open_loop or o.exp1 or o.stop > 0):
        raise ValueError("the Gumbel root does not take ol, exp1 or stop")
