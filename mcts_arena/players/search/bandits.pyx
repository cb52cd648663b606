# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The selection rules on a bandit, by the search's own functions: UCT's and UCB1-Tuned's
choice (selection.pxd) and the Gumbel root's Sequential Halving (gumbel.pxd), its schedule,
survivors and choice laid open (the search plays them in players/search/mcts.pyx). For tests
and for working the rules by hand."""
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from mcts_arena.rng cimport Rng, rng_seed, rng_uniform
from mcts_arena.players.search.tree cimport Node, Opts, SEL_PLAIN, init_bandit
from mcts_arena.players.search.selection cimport UcbCache, select_uct
from mcts_arena.players.search.gumbel cimport (
    GumbelRoot, GUMBEL_M_MAX, gumbel_init, gumbel_free, gumbel_alloc, gumbel_noise, gumbel_start,
    gumbel_advance, gumbel_pick, gumbel_final)


def bandit_choice(arms, double C=1.0, bint tuned=False, unsigned long long seed=1):
    """The arm UCT (or with `tuned` UCB1-Tuned) selects at a node whose children are `arms`,
    a list of (visits, sum of rewards, sum of squared rewards) in [-1, 1], by select_uct itself:
    for tests and for looking at the rules by hand on a bandit."""
    cdef int k = len(arms), i
    cdef Node* nodes = <Node*>calloc(k + 1, sizeof(Node))
    cdef double* sq = <double*>calloc(k + 1, sizeof(double))
    cdef Opts o
    cdef Rng rng
    cdef UcbCache cache
    try:
        if nodes == NULL or sq == NULL:
            raise MemoryError()
        memset(&o, 0, sizeof(Opts))
        memset(&cache, 0, sizeof(UcbCache))
        o.C = C
        o.sel = SEL_PLAIN
        rng_seed(&rng, seed)
        init_bandit(nodes, k)
        for i in range(k):
            nodes[i + 1].visits, nodes[i + 1].wins, sq[i + 1] = arms[i]
            nodes[0].visits += nodes[i + 1].visits
        return select_uct(nodes, 0, &o, &rng, &cache, sq if tuned else NULL) - 1
    finally:
        free(nodes)
        free(sq)


def gumbel_bandit(values, int m, long n, priors=None, noise=None, bint noisy=False,
                  double c_visit=50.0, double c_scale=1.0, unsigned long long seed=1):
    """The Gumbel root's Sequential Halving on a bandit, by gumbel.pxd's functions themselves:
    arm i pays values[i] in [-1, 1] (with `noisy`, +1 with probability (1 + values[i]) / 2,
    else -1), its prior priors[i] (default uniform) and its Gumbel noise noise[i] (default
    drawn from the seed); n pulls. Returns (the arm chosen, the survivors at the start of
    each phase, best first, each arm's pulls). For tests and for looking at the schedule by
    hand."""
    cdef int k = len(values), i, arm
    cdef long done
    cdef Node* nodes = <Node*>calloc(k + 1, sizeof(Node))
    cdef GumbelRoot g
    cdef Opts o
    cdef Rng rng
    cdef double r
    gumbel_init(&g)
    try:
        if nodes == NULL:
            raise MemoryError()
        if not 2 <= m <= GUMBEL_M_MAX or k < 1 or n < 1:
            raise ValueError("a bandit of at least one arm, m from 2, n from 1")
        if gumbel_alloc(&g, k) < 0:
            raise MemoryError()
        memset(&o, 0, sizeof(Opts))
        o.sel = SEL_PLAIN
        o.gumbel = m
        o.gumbel_cv = c_visit
        o.gumbel_cs = c_scale
        rng_seed(&rng, seed)
        init_bandit(nodes, k)
        for i in range(k):
            g.prior[i] = 1.0 / k if priors is None else priors[i]
        gumbel_noise(&g, k, &rng)
        if noise is not None:
            for i in range(k):
                g.score[i] = noise[i]
        gumbel_start(&g, nodes, &o, n, 0.0, 0.0)
        rounds = [[g.alive[i] for i in range(g.n_alive)]]
        for done in range(n):
            gumbel_advance(&g, nodes, &o, done, 0.0)
            if g.phase == len(rounds):
                rounds.append([g.alive[i] for i in range(g.n_alive)])
            arm = gumbel_pick(&g, nodes) - 1
            r = values[arm]
            if noisy:
                r = 1.0 if rng_uniform(&rng) < (1.0 + r) / 2.0 else -1.0
            nodes[arm + 1].visits += 1
            nodes[arm + 1].wins += r
            nodes[0].visits += 1
        return (gumbel_final(&g, nodes, &o) - 1, rounds,
                [nodes[i + 1].visits for i in range(k)])
    finally:
        free(nodes)
        gumbel_free(&g)
