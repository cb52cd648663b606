# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""MCTS with every enhancement of the paper, MCTS-Solver always on (docs/paper.md sections 1, 2, 6):
the search core, select - expand - simulate - back up, with its policies beside it.

Tree: a flat pool of C `Node` structs (players/search/tree.pxd) grown geometrically; the
children of a node occupy one contiguous block (expanded all at once, Algorithm 1's default;
with `exp1` the block is reserved at once but children are activated one per simulation). No
Python object per node; the whole simulation loop is `nogil`.

The policies: selection (UCT, UCB1-Tuned, PUCT) in players/search/selection.pxd, the Gumbel
root (Sequential Halving over the root's moves, `gumbel`) in players/search/gumbel.pxd, backup
(mean, implicit minimax, max, solver) in players/search/backup.pxd, playouts below
(`_playout_move`, `_playout`), the open-loop variant for games of dice in
players/search/openloop.pyx. What one search reports: players/search/searchstats.py.

Playouts: uniform (the game's fast `random_playout` when nothing else is asked), `ipp`, `egeε`
(random by the playout policy with probability ε, else the best successor by evaluation),
`abpN` (each move by a depth-N αβ); with `ipp` the game's forced moves (win at once, stop a
win in one) come before ε-greedy or αβ choices; `fetX` (stop after X moves and return v0),
`detX` (after every `dfN` playout moves, default 5, stop with ±1 when |v0| >= X). Rewards are
in [-1, 1]. Node priors (`npN`): N virtual visits at the game's node prior (selection.pxd
`game_prior`). Forced actions (`fa`): before searching, the game's `forced_move` (Gomoku: make
or stop a five, make or stop an open four) is played at once without search.

Chance nodes (games of dice, closed loop): a chance node's children are its outcomes (their
probabilities in `bias`, all active at once), selection there draws an outcome by probability,
playouts roll the dice by probability, implicit minimax backs up the expectation of the
outcomes' values, `mbT` takes no max there, and the solver proves a chance node only when
every outcome is proven the same way.
"""
from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memset

from mcts_arena.rng cimport rng_seed, rng_below, rng_uniform
from mcts_arena.games.state cimport (GameState, knowledge_for, ONGOING, DRAW, PP_RANDOM, PP_IPP,
                                     PLAYOUT_PLIES_MAX)
from mcts_arena.clock cimport now
from mcts_arena.players.search.alphabeta cimport ab_playout_move
from mcts_arena.players.search.quiesce cimport quiesce
from mcts_arena.players.search.shallow cimport prove_shallow
from mcts_arena.players.search.tree cimport (
    Node, VISITED, CHANCE, MS_PROBED, SEL_PLAIN, SEL_IM, SEL_CB, SEL_PBIM, RULE_UCT,
    RULE_PUCT, RULE_TUNED, init_node, reward0, proven_reward0, descent_ends,
    sort_by_bias)
from mcts_arena.players.search.selection cimport (select_uct, select_puct, game_prior,
                                                  set_priors)
from mcts_arena.players.search.backup cimport update_node, best_child_mean, undo_with_proofs
from mcts_arena.players.search.gumbel cimport (
    gumbel_options, gumbel_init, gumbel_alloc, gumbel_free, gumbel_priors, gumbel_noise,
    gumbel_start, gumbel_advance, gumbel_pick, gumbel_final)
from mcts_arena.players.search.alphaarms cimport arms_set, arms_clear, arms_draw, arms_reward

from mcts_arena import budgets as _budgets
from mcts_arena.players.search.searchstats import SearchStats

cdef double TIME_CAP = _budgets.TIME_MAX        # no search runs longer, whatever its budget
cdef double HARD_CAP = _budgets.HARD_MAX        # ... unless a clock gives it a hard limit
cdef long SIMS_CAP = _budgets.SIMS_MAX

NODE_BYTES = sizeof(Node)


#: The option keys MCTSSearch understands; any other key is a mistake and an error.
OPTION_KEYS = ("C", "evalfn", "policy", "fet", "det", "df", "ege", "np", "npk", "npb", "fa",
               "mb", "pb", "sel",
               "alpha", "rave", "pu", "exp1", "abp", "abw", "flat", "open_loop", "max_nodes",
               "stop", "puct", "prior", "v0q", "ms", "msv", "mib", "sfx", "tuned", "gumbel",
               "gumbel_cv", "gumbel_cs", "arms")

#: The STOP rule checks the root every STOP_EVERY simulations (a pass over the root's children).
cdef int STOP_EVERY = 64


cdef class MCTSSearch:
    """One MCTS engine: options, PRNG and a node pool reused from move to move. Its state is
    declared in mcts.pxd; the open-loop variant (openloop.pyx) extends it."""

    def __cinit__(self):
        self.mv_expand = self.mv_playout = NULL
        self.pr_expand = NULL
        self.sort_tmp = NULL
        self.mv_cap = 0
        self.ucb.call = 0
        memset(self.ucb.gen, 0, sizeof(self.ucb.gen))
        self.cap = 1 << 16
        self.nodes = <Node*>malloc(self.cap * sizeof(Node))
        if self.nodes == NULL:
            raise MemoryError()
        self.marks = NULL
        self.sq = NULL
        gumbel_init(&self.gr)

    def __dealloc__(self):
        free(self.pr_expand)
        free(self.mv_expand)
        free(self.mv_playout)
        free(self.sort_tmp)
        free(self.nodes)
        free(self.marks)
        free(self.sq)
        gumbel_free(&self.gr)

    def __init__(self, dict options, unsigned long long seed=1):
        """options: C, evalfn (id), policy (id), fet, det, df, ege, np, npk, npb, fa, mb, pb,
        sel ('im', 'cb', 'pbim' or ''), alpha, puct (PUCT's c: PUCT selection), prior (PUCT
        with the game's node priors), tuned (UCB1-Tuned selection), gumbel (the Gumbel root's
        m), gumbel_cv and gumbel_cs (its c_visit and c_scale), v0q (v0 by a quiescence
        search, plies), ms and msv (MCTS-MS's depth and visit threshold), mib (MCTS-MB's
        depth), sfx (the solver's sibling check), arms (with sel 'im': the α values each side's
        bandit picks among before every simulation of a search, alphaarms.pxd), rave, pu, exp1,
        abp, flat, open_loop (only in openloop.OpenLoopSearch), max_nodes. Absent = off."""
        o = options
        unknown = sorted(set(o) - set(OPTION_KEYS))
        if unknown:
            raise ValueError(f"unknown MCTS option(s) {', '.join(map(repr, unknown))}; valid: "
                             f"{', '.join(OPTION_KEYS)}")
        self.o.C = o.get("C", 1.0)
        self.o.evalfn = o.get("evalfn", 0)
        self.o.policy = o.get("policy", PP_RANDOM)
        self.o.fet = o.get("fet", -1)
        self.o.det = o.get("det", -1.0)
        self.o.df = o.get("df", 5)
        self.o.ege = o.get("ege", -1.0)
        self.o.np = o.get("np", -1)
        self.o.npk = o.get("npk", 0.0)
        self.o.npb = o.get("npb", 0.0)
        self.o.fa = o.get("fa", False)
        self.o.mb = o.get("mb", -1)
        self.o.pb = o.get("pb", 0.0)
        self.o.sel = {"": SEL_PLAIN, "im": SEL_IM, "cb": SEL_CB, "pbim": SEL_PBIM}[o.get("sel", "")]
        self.o.alpha = o.get("alpha", 0.0)
        self.o.puct = o.get("puct", 0.0)
        self.o.rule = (RULE_PUCT if self.o.puct > 0 else
                       RULE_TUNED if o.get("tuned", False) else RULE_UCT)
        self.o.prior = o.get("prior", False)
        self.o.rave = o.get("rave", 0)
        self.o.pu = o.get("pu", 0)
        self.o.exp1 = o.get("exp1", False)
        self.o.abp = o.get("abp", 0)
        self.o.abw = o.get("abw", 8)
        self.o.v0q = o.get("v0q", 0)
        self.o.ms = o.get("ms", 0)
        self.o.msv = o.get("msv", 1)
        self.o.mib = o.get("mib", 0)
        self.o.sfx = o.get("sfx", False)
        self.o.max_nodes = o.get("max_nodes", 20_000_000)
        self.o.flat = o.get("flat", False)
        self.o.open_loop = o.get("open_loop", False)
        self.o.stop = o.get("stop", 0.0)
        if self.o.open_loop and type(self) is MCTSSearch:
            raise ValueError("open loop is its own search: players.search.openloop.OpenLoopSearch")
        if self.o.open_loop and (self.o.exp1 or self.o.pu > 0 or self.o.rave > 0
                                 or self.o.mb >= 0 or self.o.flat or self.o.puct > 0
                                 or o.get("tuned", False)):
            raise ValueError("open loop does not take exp1, pu, rave, mb, flat, puct or tuned")
        if self.o.puct > 0 and (self.o.pb > 0 or self.o.pu > 0):
            raise ValueError("PUCT's prior takes the place of pb and pu")
        if self.o.puct > 0 and o.get("tuned", False):
            raise ValueError("tuned is UCT's exploration term: PUCT has its own")
        if self.o.prior and self.o.puct <= 0:
            raise ValueError("prior is PUCT's: give puct too")
        gumbel_options(&self.o, o)
        self._set_arms(tuple(o.get("arms", ())))
        self.o.need_v = self.o.sel != SEL_PLAIN
        self.o.backup_v = self.o.sel == SEL_IM or self.o.sel == SEL_PBIM
        self.o.fast_random = (self.o.policy == PP_RANDOM and self.o.fet < 0 and self.o.det < 0
                              and self.o.ege < 0 and self.o.abp == 0 and self.o.rave == 0)
        self.o.rave_fast = (self.o.policy == PP_RANDOM and self.o.fet < 0 and self.o.det < 0
                            and self.o.ege < 0 and self.o.abp == 0 and self.o.rave > 0)
        self.o.policy_fast = (self.o.policy != PP_RANDOM and self.o.fet < 0 and self.o.det < 0
                              and self.o.ege < 0 and self.o.abp == 0 and self.o.rave == 0)
        if self.o.df < 1:
            raise ValueError("df must be >= 1")
        if self.o.rave > 0:
            self.marks = <int*>calloc(2 * MARK_SIZE, sizeof(int))
            if self.marks == NULL:
                raise MemoryError()
        if self.o.rule == RULE_TUNED:
            self.sq = <double*>malloc(self.cap * sizeof(double))
            if self.sq == NULL:
                raise MemoryError()
        rng_seed(&self.rng, seed)

    @property
    def bytes_per_node(self):
        """What one node of this search's tree costs: the Node, and UCB1-Tuned's sum of
        squares where that rule is on."""
        return sizeof(Node) + (sizeof(double) if self.sq != NULL else 0)

    cdef void _set_arms(self, tuple arms) except *:
        """imas: the α values each side's bandit picks among per simulation; none: α stays."""
        if arms and self.o.sel != SEL_IM:
            raise ValueError("arms adapt implicit minimax's α: give sel 'im'")
        if arms and self.o.open_loop:
            raise ValueError("open loop selects by its own rule: it takes no arms")
        arms_set(&self.arms, arms)

    def alpha_arms(self):
        """imas: each arm's (α, simulations and summed reward of player 0, of player 1) in the
        last search; [] without arms."""
        return [(self.arms.alpha[a], self.arms.n[0][a], self.arms.w[0][a], self.arms.n[1][a],
                 self.arms.w[1][a]) for a in range(self.arms.k)]

    @property
    def alpha(self):
        """The weight α of the evaluation im, cb or pbim blend into selection."""
        return self.o.alpha

    @alpha.setter
    def alpha(self, double value):
        """A new α for the searches to come (`ima` sets one before each move's search); only
        for a search that blends (im, cb, pbim), within [0, 1]."""
        if self.o.sel == SEL_PLAIN:
            raise ValueError("alpha is the weight of im, cb or pbim: this search blends none")
        if not (0.0 <= value <= 1.0):
            raise ValueError(f"alpha must be 0 to 1, got {value}")
        self.o.alpha = value

    # ---- node pool ------------------------------------------------------------------------
    cdef int _alloc(self, int count) noexcept nogil:
        """Index of `count` fresh consecutive nodes, or -1 when the pool is at its limit."""
        cdef long need = self.n_nodes + count
        cdef long newcap
        cdef Node* p
        cdef double* q
        if need > self.o.max_nodes:
            self.full = True
            return -1
        if need > self.cap:
            newcap = self.cap * 2
            while newcap < need:
                newcap *= 2
            p = <Node*>realloc(self.nodes, newcap * sizeof(Node))
            if p == NULL:
                self.full = True
                return -1
            self.nodes = p
            if self.sq != NULL:
                q = <double*>realloc(self.sq, newcap * sizeof(double))
                if q == NULL:
                    # the nodes' block grew, the squares' did not: the pool stays at cap
                    self.full = True
                    return -1
                self.sq = q
            self.cap = newcap
        cdef int first = self.n_nodes
        if self.sq != NULL:
            memset(&self.sq[first], 0, count * sizeof(double))
        self.n_nodes = need
        return first

    # ---- expansion ------------------------------------------------------------------------
    cdef bint _expand(self, GameState s, int node, int np_visits) noexcept nogil:
        """Create the children of `node` (state s is at node). False if the pool is full."""
        cdef int* moves = self.mv_expand
        cdef int n
        cdef int i, j, first, me = s.player
        cdef Node* c
        cdef Node tmp
        if s.is_chance():
            return self._expand_chance(s, node)
        n = self.k.search_moves(s, moves)
        if n == 0:
            return False
        first = self._alloc(n)
        if first < 0:
            return False
        for i in range(n):
            self._make_child(s, &self.nodes[first + i], moves[i], me, np_visits)
        if self.o.rule == RULE_PUCT:
            set_priors(&self.nodes[first], n, self.o.prior)
        if self.o.pu > 0:
            # children sorted by heuristic, best first: unpruning reveals them in this order
            sort_by_bias(&self.nodes[first], self.sort_tmp, n)
        else:
            # a random order (exp1: the activation order): selection then takes the first
            # untried child, a uniformly random one, with no random draw per untried child
            # and selection (a tie-break over k untried children cost k draws every time)
            for i in range(n - 1, 0, -1):
                j = rng_below(&self.rng, i + 1)
                tmp = self.nodes[first + i]
                self.nodes[first + i] = self.nodes[first + j]
                self.nodes[first + j] = tmp
        if self.sq != NULL:
            self._init_squares(first, n)
        c = &self.nodes[node]
        c.first = first
        c.nchild = n
        c.nactive = 1 if self.o.exp1 else n
        update_node(self.nodes, node, self.o.backup_v)
        return True

    cdef void _init_squares(self, int first, int n) noexcept nogil:
        """UCB1-Tuned: the sum of squared rewards of new children first..first+n-1 (in their
        final order), their node priors' virtual visits counted as rewards of their mean: a
        child with v visits and wins w has w^2 / v."""
        cdef Node* c
        cdef int i
        for i in range(first, first + n):
            c = &self.nodes[i]
            self.sq[i] = c.wins * c.wins / c.visits if c.visits > 0 else 0.0

    cdef void _make_child(self, GameState s, Node* c, int move, int me,
                          int np_visits) noexcept nogil:
        """A new child for `move` of side `me` at s: its bias (or PUCT's prior, normalised
        over the siblings by _expand), node prior and look-ahead."""
        cdef double prior = -1.0
        init_node(c, move, me, me)
        if self.o.pb > 0 or self.o.pu > 0:
            c.bias = self.k.move_bias(s, move)
        if np_visits > 0 or self.o.prior:
            prior = game_prior(self.k, s, move, &self.o)
        if self.o.prior:
            c.bias = <float>prior
        if np_visits > 0 and prior >= 0:
            c.visits = np_visits
            c.wins = np_visits * (2.0 * prior - 1.0)
        self._look_ahead(s, c, move, me)

    cdef inline void _look_ahead(self, GameState s, Node* c, int move, int me) noexcept nogil:
        """What a new child learns one move ahead, for a move or a dice outcome alike: the side
        to move after it, a proof where the game ends there, and the evaluation im/cb/pbim use."""
        cdef int res
        cdef double e
        s.do_move(move)
        c.tomove = s.player
        res = s.result()
        if res != ONGOING:
            if res == me:
                c.proven = 1
            elif res != DRAW:
                c.proven = -1
        if self.o.need_v:
            if self.o.v0q > 0 and res == ONGOING:
                e = quiesce(self.k, s, -2.0, 2.0, self.o.v0q, self.o.evalfn)
            else:
                e = self.k.evaluate(s, self.o.evalfn)
            c.v = e if s.player == me else -e
        s.undo_move()

    cdef bint _expand_chance(self, GameState s, int node) noexcept nogil:
        """A chance node's children: one per outcome, its probability kept in `bias`, its
        mover the side the dice concern (the chance node's side), all active at once; the
        node is marked CHANCE. Selection samples them by probability (_sample_outcome)."""
        cdef int* outs = self.mv_expand
        cdef double* probs = self.pr_expand
        cdef int n = s.chance_outcomes(outs, probs)
        cdef int i, first, me = s.player
        cdef Node* c
        if n == 0:
            return False
        first = self._alloc(n)
        if first < 0:
            return False
        for i in range(n):
            c = &self.nodes[first + i]
            init_node(c, outs[i], me, me)
            c.bias = <float>probs[i]
            self._look_ahead(s, c, outs[i], me)
        c = &self.nodes[node]
        c.first = first
        c.nchild = n
        c.nactive = n
        c.real |= CHANCE
        update_node(self.nodes, node, self.o.backup_v)
        return True

    cdef int _sample_outcome(self, GameState s, int node) noexcept nogil:
        """The child of chance node `node` for an outcome drawn by its probability."""
        cdef Node* nd = &self.nodes[node]
        cdef int m = s.sample_chance(&self.rng), i
        for i in range(nd.first, nd.first + nd.nchild):
            if self.nodes[i].move == m:
                return i
        return nd.first         # cannot happen: the outcomes are the children


    # ---- playout --------------------------------------------------------------------------
    cdef int _playout_move(self, GameState s, int* moves, int n) noexcept nogil:
        """ipp's forced moves first (a win, a stopped loss), then αβ playouts, ε-greedy, or
        the playout policy: the paper's bl = ipp,ege0.1,det0.5 is ε-greedy *on top of* ipp."""
        cdef int m
        if self.o.policy == PP_IPP:
            m = self.k.forced_move(s, moves, n, &self.rng)
            if m >= 0:
                return m
        if self.o.abp > 0:
            return ab_playout_move(self.k, s, moves, n, self.o.abp, self.o.abw, self.o.evalfn,
                                   &self.rng)
        if self.o.ege >= 0 and rng_uniform(&self.rng) >= self.o.ege:
            return self.k.best_successor(s, self.o.evalfn, moves, n, &self.rng)
        return self.k.playout_move(s, self.o.policy, moves, n, &self.rng)

    cdef double _playout(self, GameState s) noexcept nogil:
        """Play out from s (restored afterwards); the reward for player 0 in [-1, 1]."""
        cdef int* moves = self.mv_playout
        cdef int n, m, depth = 0, res
        cdef double e, r0 = 0.0
        cdef int counts[2]
        if self.o.rave_fast and not self.tracing:
            # random playouts for RAVE: the game's own loop records the moves for AMAF
            res = s.recorded_playout(&self.rng, &self.played[self.n_played],
                                     &self.played_by[self.n_played], MAX_PATH - self.n_played,
                                     counts)
            self.n_played += counts[0]
            self.playout_plies += counts[1]
            return reward0(res)
        if self.o.fast_random and not self.tracing:
            return reward0(s.random_playout(&self.rng, PLAYOUT_PLIES_MAX))
        if self.o.policy_fast and not self.tracing:
            # the game's own whole-playout path for its policy (Hex bridge playouts); -3: none
            res = self.k.policy_playout(s, self.o.policy, &self.rng)
            if res == 0 or res == 1 or res == DRAW:
                return reward0(res)
        while True:
            res = s.result()
            if res != ONGOING:
                r0 = 0.0 if res == DRAW else (1.0 if res == 0 else -1.0)
                break
            if self.o.fet >= 0 and depth >= self.o.fet:
                e = self.k.evaluate(s, self.o.evalfn)
                r0 = e if s.player == 0 else -e
                break
            if self.o.det >= 0 and depth > 0 and depth % self.o.df == 0:
                # every dfN playout moves, first after dfN moves: checking the new leaf itself
                # (depth 0) measured far weaker (MCTS(bl) vs MCTS(ipp) at 5,000 sims: 35% with
                # it, 82% without; the paper reports 68.8% at 1 s)
                e = self.k.evaluate(s, self.o.evalfn)
                if e >= self.o.det:
                    r0 = 1.0 if s.player == 0 else -1.0
                    break
                if e <= -self.o.det:
                    r0 = -1.0 if s.player == 0 else 1.0
                    break
            if s.is_chance():
                m = s.sample_chance(&self.rng)     # the dice, by their probabilities
            else:
                n = s.gen_moves(moves)
                if n == 0 or depth >= PLAYOUT_PLIES_MAX:
                    r0 = 0.0
                    break
                m = self._playout_move(s, moves, n)
            if (self.o.rave > 0 or self.tracing) and self.n_played < MAX_PATH:
                self.played[self.n_played] = m
                self.played_by[self.n_played] = s.player
                self.n_played += 1
            s.do_move(m)
            depth += 1
        self.playout_plies += depth
        while depth > 0:
            s.undo_move()
            depth -= 1
        return r0

    # ---- one simulation -------------------------------------------------------------------
    cdef void _simulate(self, GameState s, int np_visits) noexcept nogil:
        """One simulation from the root (s is at the root; restored afterwards): select down
        the tree, expand a leaf visited once already, play out, back up."""
        cdef int node = 0, depth = 0, child, i
        cdef double r0 = 0.0
        cdef Node* nd
        self.path[0] = 0
        self.n_played = 0
        if self.arms.k > 0:
            arms_draw(&self.arms)
        while True:
            nd = &self.nodes[node]
            if self.o.ms > 0 and node != 0 and nd.proven == 0 and nd.visits >= self.o.msv \
                    and not (nd.real & (MS_PROBED | CHANCE)):
                self._minimax_in_selection(s, nd)
            if descent_ends(s, nd, node == 0, &r0):
                break
            if nd.first < 0:
                if (node != 0 and not (nd.real & VISITED)) or (node != 0 and self.o.flat) or \
                        depth >= MAX_PATH - 2 or not self._expand(s, node, np_visits):
                    r0 = self._playout(s)
                    break
                nd = &self.nodes[node]
                if nd.proven != 0 and node != 0:
                    continue
            elif nd.nactive < nd.nchild:
                nd.nactive += 1          # exp1: activate one more child, then play it out
                update_node(self.nodes, node, self.o.backup_v)
                child = nd.first + nd.nactive - 1
                self._descend(s, child, &depth)
                r0 = self._leaf_value(s, child)
                break
            if self.arms.k > 0:
                # imas: the α of the side that chooses here, for this simulation
                self.o.alpha = self.arms.alpha[self.arms.arm[nd.tomove]]
            if nd.real & CHANCE:
                child = self._sample_outcome(s, node)
            elif node == 0 and self.gr.on:
                child = gumbel_pick(&self.gr, self.nodes)
            elif self.o.rule == RULE_PUCT:
                child = select_puct(self.nodes, node, &self.o, &self.rng)
            elif self.o.rule == RULE_TUNED:
                child = select_uct(self.nodes, node, &self.o, &self.rng, &self.ucb, self.sq)
            else:
                # a NULL the compiler sees: UCT's own loop, without the tuned branch
                child = select_uct(self.nodes, node, &self.o, &self.rng, &self.ucb, NULL)
            self._descend(s, child, &depth)
            node = child
        self._backprop(depth, r0)
        if self.arms.k > 0:
            arms_reward(&self.arms, r0)
        if self.o.mib > 0 or self.o.sfx:
            undo_with_proofs(self.nodes, self.path, depth, s, &self.o)
            return
        for i in range(depth):  # no-cython-lint: the count is the point
            s.undo_move()

    cdef void _minimax_in_selection(self, GameState s, Node* nd) noexcept nogil:
        """MCTS-MS (Baier & Winands 2013): once, the shallow win/loss minimax at node nd (s is
        at it); a win or loss it proves becomes the node's proof, which the solver backs up."""
        cdef int v
        nd.real |= MS_PROBED
        if s.max_outcomes > 0:
            return
        v = prove_shallow(s, self.o.ms)
        if v != 0:
            nd.proven = v if nd.tomove == nd.mover else -v

    cdef inline void _descend(self, GameState s, int child, int* depth) noexcept nogil:
        cdef Node* c = &self.nodes[child]
        if self.o.rave > 0 and self.n_played < MAX_PATH:
            self.played[self.n_played] = c.move
            self.played_by[self.n_played] = c.mover
            self.n_played += 1
        s.do_move(c.move)
        depth[0] += 1
        self.path[depth[0]] = child
        if depth[0] > self.max_depth:
            self.max_depth = depth[0]

    cdef double _leaf_value(self, GameState s, int child) noexcept nogil:
        cdef Node* c = &self.nodes[child]
        if c.proven != 0:
            return proven_reward0(c)
        return self._playout(s)

    cdef void _backprop(self, int depth, double r0) noexcept nogil:
        """Back up reward r0 (player 0's) along the path: the mean at every node, implicit
        minimax and the solver's proofs, RAVE's AMAF counts, max backup (backup.pxd)."""
        cdef int i, node
        cdef Node* nd
        cdef double best
        if self.o.rave > 0:
            self._rave_mark_playout(depth)
        for i in range(depth, -1, -1):
            node = self.path[i]
            nd = &self.nodes[node]
            nd.visits += 1
            nd.real |= VISITED
            nd.wins += r0 if nd.mover == 0 else -r0
            if self.sq != NULL:
                self.sq[node] += r0 * r0
            if nd.first >= 0:
                # without implicit minimax only a proof can change here, and only when the
                # child on the path is proven: a child's proof is set at its parent's
                # expansion (which updates the parent) or in this backpropagation, so an
                # unproven child leaves the parent as it was (the loop over its children,
                # a wide node's main cost here, is skipped)
                if self.o.backup_v or (nd.proven == 0 and
                                       (i == depth or self.nodes[self.path[i + 1]].proven != 0)):
                    update_node(self.nodes, node, self.o.backup_v)
                if self.o.rave > 0:
                    self._rave_update(node, i, r0)
                if self.o.mb >= 0 and nd.visits >= self.o.mb and nd.proven == 0 and \
                        not (nd.real & CHANCE):       # the dice take no max
                    # max backpropagation: pass up the best child's mean instead of the sample
                    best = best_child_mean(self.nodes, nd)
                    if best > -2.0:
                        r0 = best if nd.tomove == 0 else -best
            if nd.proven != 0 and i > 0:
                r0 = proven_reward0(nd)

    # ---- RAVE -----------------------------------------------------------------------------
    cdef void _rave_mark_playout(self, int depth) noexcept nogil:
        """Stamp the moves of this simulation below the tree (played[depth:])."""
        cdef int j, m
        self.stamp += 1
        for j in range(depth, self.n_played):
            m = self.played[j]
            if m < MARK_SIZE:
                self.marks[self.played_by[j] * MARK_SIZE + m] = self.stamp

    cdef void _rave_update(self, int node, int i, double r0) noexcept nogil:
        """AMAF update of node's children; tree moves after path position i are added first."""
        cdef Node* nd = &self.nodes[node]
        cdef Node* c
        cdef int k, m
        cdef int p = nd.tomove
        if i < self.n_played:
            m = self.played[i]
            if m < MARK_SIZE:
                self.marks[self.played_by[i] * MARK_SIZE + m] = self.stamp
        for k in range(nd.first, nd.first + nd.nactive):
            c = &self.nodes[k]
            if c.move < MARK_SIZE and self.marks[p * MARK_SIZE + c.move] == self.stamp:
                c.amaf_n += 1
                c.amaf_w += <float>(r0 if p == 0 else -r0)


    # ---- search ---------------------------------------------------------------------------
    cdef bint _settled(self, double remaining) noexcept nogil:
        """The STOP rule of Baier & Winands, "Time Management for Monte Carlo Tree Search"
        (IEEE TCIAIG 8(3), 2016): the most-visited root move cannot be overtaken by the second
        in `remaining` more simulations (the simulations still to come, scaled by the rule's
        f), so searching on cannot change the move played."""
        cdef Node* root = &self.nodes[0]
        cdef int i
        cdef long n1 = 0, n2 = 0, n
        for i in range(root.first, root.first + root.nactive):
            n = self.nodes[i].visits
            if n > n1:
                n2 = n1
                n1 = n
            elif n > n2:
                n2 = n
        return n1 - n2 > remaining

    cdef int _current_move(self) noexcept nogil:
        """The move the search would play now, without random tie-breaks (for checkpoints): a
        proven win, else the Gumbel root's choice, or the most visits among moves not proven
        lost (first on ties)."""
        cdef Node* root = &self.nodes[0]
        cdef Node* c
        cdef int i, best = -1, best_any = -1
        cdef long bv = -1, bva = -1
        if self.gr.on:
            best = gumbel_final(&self.gr, self.nodes, &self.o)
            if best >= 0:
                return self.nodes[best].move
        for i in range(root.first, root.first + root.nactive):
            c = &self.nodes[i]
            if c.proven == 1:
                return c.move
            if c.visits > bva:
                bva = c.visits
                best_any = i
            if c.proven != -1 and c.visits > bv:
                bv = c.visits
                best = i
        if best < 0:
            best = best_any
        return self.nodes[best].move if best >= 0 else -1

    cdef void _size_buffers(self, GameState s) except *:
        """Move buffers for a game whose positions have up to s.max_moves legal moves."""
        if s.max_moves <= self.mv_cap:
            return
        free(self.mv_expand)
        free(self.mv_playout)
        free(self.sort_tmp)
        free(self.pr_expand)
        self.pr_expand = <double*>malloc(s.max_moves * sizeof(double))
        self.mv_expand = <int*>malloc(s.max_moves * sizeof(int))
        self.mv_playout = <int*>malloc(s.max_moves * sizeof(int))
        self.sort_tmp = <Node*>malloc(s.max_moves * sizeof(Node))
        if self.mv_expand == NULL or self.mv_playout == NULL or self.sort_tmp == NULL or \
                self.pr_expand == NULL:
            self.mv_cap = 0
            raise MemoryError()
        self.mv_cap = s.max_moves
        if self.o.gumbel > 0 and gumbel_alloc(&self.gr, s.max_moves) < 0:
            raise MemoryError()

    cdef void _take_knowledge(self, GameState state) except *:
        """The knowledge this search judges `state` by: the one it was given, else the game's
        own. Checked here, once a move, because the C-level calls cast the positions."""
        self.k = knowledge_for(self.knowledge, state)

    def search(self, GameState state, double seconds=0.0, sims=0, int np_visits=-1,
               checkpoints=None, double hard=0.0):
        """Search from `state` (not modified): (move, SearchStats). Budget: seconds and/or
        sims.

        Budgets outside mcts_arena.budgets' ranges (NaN, inf, more than SIMS_MAX) raise a
        ValueError; the search never runs longer than budgets.TIME_MAX seconds, or than `hard`
        seconds when it is given (a game clock's time left plus its margin, up to HARD_MAX),
        which then replaces TIME_MAX and bounds `seconds`.

        With `checkpoints` (increasing simulation counts) the stats' `trace` holds the move
        the search would play after each checkpoint's simulations, [(sims, move, seconds)] (a
        search stopped early, e.g. proven, repeats its last choice for the later ones).
        """
        cdef GameState s = state.clone()
        cdef int best
        self._take_knowledge(state)
        if not (0.0 <= hard <= HARD_CAP):
            raise ValueError(f"MCTS hard time limit must be 0 to {HARD_CAP:g} seconds, got {hard}")
        self.time_cap = hard if hard > 0 else TIME_CAP
        if not (0.0 <= seconds <= self.time_cap):
            raise ValueError(f"MCTS time budget must be 0 to {self.time_cap:g} seconds, got "
                             f"{seconds}")
        if not (0 <= sims <= SIMS_CAP) or sims != int(sims):
            raise ValueError(f"MCTS simulation budget must be 0 to {SIMS_CAP}, got {sims}")
        if seconds <= 0 and int(sims) <= 0:
            raise ValueError("MCTS needs a budget: seconds > 0 or sims > 0")
        if s.result() != ONGOING:
            raise ValueError("no legal move: the game is over")
        if self.o.gumbel > 0 and np_visits > 0:
            raise ValueError("the Gumbel root takes the game's priors as its logits: node "
                             "priors' virtual visits would count in its schedule")
        if self.o.open_loop and s.is_chance():
            raise ValueError("open-loop MCTS searches a decision, not a chance node (the dice "
                             "are to roll)")
        self._size_buffers(s)
        if self.o.fa:
            # forced actions (the Gomoku report, 4.3): an urgent move is played without search
            best = self.k.forced_move(s, self.mv_expand, s.gen_moves(self.mv_expand),
                                      &self.rng)
            if best >= 0:
                return best, SearchStats.forced_move(best, checkpoints)
        self.n_nodes = 0
        self.full = False
        self.max_depth = 0
        self.playout_plies = 0
        arms_clear(&self.arms)
        self._alloc(1)
        init_node(&self.nodes[0], -1, 1 - s.player, s.player)
        if np_visits < 0:
            np_visits = self.o.np
        return self._searched(s, seconds, int(sims), np_visits, list(checkpoints or ()))

    cdef tuple _searched(self, GameState s, double seconds, long nsims, int np_visits,
                         list checkpoints):
        """The search itself from a fresh root, its checkpoints held in C arrays meanwhile."""
        cdef Checkpoints cp
        cdef bint settled = False
        cdef long done
        cdef double t0, elapsed
        cdef int i
        cp.n = len(checkpoints)
        cp.reached = 0
        cp.sims = <long*>malloc((cp.n + 1) * sizeof(long))
        cp.move = <int*>malloc((cp.n + 1) * sizeof(int))
        cp.secs = <double*>malloc((cp.n + 1) * sizeof(double))
        try:
            if cp.sims == NULL or cp.move == NULL or cp.secs == NULL:
                raise MemoryError()
            for i in range(cp.n):
                cp.sims[i] = checkpoints[i]
            t0 = now()
            with nogil:
                done = self._run(s, seconds, nsims, np_visits, &cp, t0, &settled)
            elapsed = now() - t0
            if self.nodes[0].first < 0:
                raise RuntimeError("MCTS could not expand the root")
            trace = [(cp.sims[i], cp.move[i], cp.secs[i]) if i < cp.reached else
                     (cp.sims[i], self._current_move(), elapsed) for i in range(cp.n)]
        finally:
            free(cp.sims)
            free(cp.move)
            free(cp.secs)
        return self._report(done, elapsed, settled, trace or None)

    cdef long _run(self, GameState s, double seconds, long nsims, int np_visits,
                   Checkpoints* cp, double t0, bint* settled) noexcept nogil:
        """Simulations until the budget is spent, the root is proven or has one move, or the
        STOP rule settles it; the number run. Records the move at each checkpoint reached."""
        cdef double deadline = t0 + (seconds if seconds > 0 else self.time_cap), t, left
        cdef long done = 0
        self.gr.on = False
        if self._expand(s, 0, np_visits) and self.o.gumbel > 0 and \
                not (self.nodes[0].real & CHANCE):
            gumbel_priors(&self.gr, self.nodes, self.k, s, &self.o)
            gumbel_noise(&self.gr, self.nodes[0].nchild, &self.rng)
            gumbel_start(&self.gr, self.nodes, &self.o, nsims, t0, seconds)
        while True:
            while cp.reached < cp.n and done >= cp.sims[cp.reached] and self.nodes[0].first >= 0:
                cp.move[cp.reached] = self._current_move()
                cp.secs[cp.reached] = now() - t0
                cp.reached += 1
            if nsims > 0 and done >= nsims:
                break
            t = now()
            if t >= deadline:
                break
            if self.o.stop > 0 and seconds > 0 and done % STOP_EVERY == STOP_EVERY - 1 \
                    and t > t0:
                # the simulations still to come at this search's rate so far
                left = (deadline - t) * done / (t - t0)
                if nsims > 0 and nsims - done < left:
                    left = nsims - done
                if self._settled(self.o.stop * left):
                    settled[0] = True
                    break
            if self.nodes[0].proven != 0 or self.nodes[0].first < 0:
                break
            if self.nodes[0].nchild == 1:
                break        # forced-move shortcut: one legal move, play it now
            if self.gr.on:
                gumbel_advance(&self.gr, self.nodes, &self.o, done, t)
            self._simulate(s, np_visits)
            done += 1
        return done

    cdef object _report(self, long done, double elapsed, bint settled, list trace):
        """The SearchStats of the search just run, its move chosen by _final_choice (first:
        the choice may draw from the PRNG, as it always did after the simulations)."""
        cdef Node* root = &self.nodes[0]
        cdef int i, best = self._final_choice()
        # the search's value of the position for the side to move: the chosen move's mean
        # reward (its mover's view, which is the root's side to move), +-1 once proven
        cdef Node* c = &self.nodes[best]
        value = 1.0 if c.proven == 1 else -1.0 if c.proven == -1 else (
            c.wins / c.visits if c.visits else 0.0)
        children = []
        for i in range(root.first, root.first + root.nactive):
            c = &self.nodes[i]
            children.append((c.move, c.visits, (c.wins / c.visits) if c.visits else 0.0,
                             c.v, c.proven))
        return self.nodes[best].move, SearchStats(
            sims=done, nodes=self.n_nodes, playout_plies=self.playout_plies,
            depth=self.max_depth, time=elapsed, proven=-root.proven, pool_full=bool(self.full),
            children=children, value=value, settled=bool(settled), trace=trace)

    cdef int _final_choice(self):
        """Proven win at once; else the Gumbel root's choice (gumbel_final), or most visits
        among moves not proven lost (ties at random)."""
        cdef Node* root = &self.nodes[0]
        cdef Node* c
        cdef int i, best = -1, ties = 0, best_any = -1
        cdef long bv = -1, bva = -1
        if self.gr.on:
            best = gumbel_final(&self.gr, self.nodes, &self.o)
            if best >= 0:
                return best
        for i in range(root.first, root.first + root.nactive):
            c = &self.nodes[i]
            if c.proven == 1:
                return i
            if c.visits > bva:
                bva = c.visits
                best_any = i
            if c.proven == -1:
                continue
            if c.visits > bv:
                bv = c.visits
                best = i
                ties = 1
            elif c.visits == bv:
                ties += 1
                if rng_below(&self.rng, ties) == 0:
                    best = i
        return best if best >= 0 else best_any

    def playout_once(self, GameState state):
        """One playout from `state` (restored) with this player's playout options: returns
        (reward for player 0, the moves played). For tests and for looking at policies."""
        cdef GameState s = state.clone()
        cdef double r0
        self._size_buffers(s)
        self._take_knowledge(state)
        self.tracing = True
        self.n_played = 0
        r0 = self._playout(s)
        self.tracing = False
        return r0, [self.played[i] for i in range(self.n_played)]

    def tree_nodes(self):
        """Dump the tree as a list of dicts (for tests): index, move, visits, mean, v, children,
        bias (PB's heuristic, or PUCT's prior), and under UCB1-Tuned sq (the sum of squared
        rewards)."""
        out = []
        cdef Node* nd
        cdef int i
        for i in range(self.n_nodes):
            nd = &self.nodes[i]
            out.append({"index": i, "move": nd.move, "visits": nd.visits, "wins": nd.wins,
                        "v": nd.v, "mover": nd.mover, "tomove": nd.tomove, "proven": nd.proven,
                        "first": nd.first, "nchild": nd.nchild, "nactive": nd.nactive,
                        "amaf_n": nd.amaf_n, "amaf_w": nd.amaf_w, "bias": nd.bias})
            if self.sq != NULL:
                out[i]["sq"] = self.sq[i]
        return out
