# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""MCTS with every enhancement of the paper, MCTS-Solver always on (docs/paper.md sections 1, 2, 6).

Tree: a flat pool of C `Node` structs grown geometrically; the children of a node occupy one
contiguous block (expanded all at once, Algorithm 1's default; with `exp1` the block is reserved
at once but children are activated one per simulation). No Python object per node; the whole
simulation loop (selection, expansion, playout, backpropagation) is `nogil`.

Values: each node stores the statistics of the move that led to it, from the view of the player
who made that move (its `mover`): `wins` (sum of rewards in [-1, 1]), `v` (implicit minimax value
or, for `cb`, the static evaluation), `proven` (+1 the mover wins, -1 the mover loses). The side
to move at a node is stored too, because in Kalah the same side may move again.

Selection value of child c at a node (c.mover is the side to move there):
    Q = c.wins / c.visits                            (plain UCT)
    Q = (1-β) Q + β AMAF                             (raveK, β = max(0, (K - n_s) / K), the usual RAVE schedule)
    Q = (1-α) Q + α c.v                              (imα; cbα with v = v0(child), never backed up)
    Q = (1-α) Q + α c.v / (c.visits + 1)            (pbimα)
    value = Q + C sqrt(ln n_s / c.visits) + W H(s,a) / (c.visits + 1)   (PB / pbW)
Unvisited children come first (uniformly at random: the child block is shuffled at expansion,
or sorted by heuristic under `puK`; with RAVE an untried move with AMAF data is ranked by it), a
proven win is taken at once, proven losses are skipped while another move exists; ties are
broken uniformly (reservoir sampling).

Playouts: uniform (the game's fast `random_playout` when nothing else is asked), `ipp`, `egeε`
(random by the playout policy with probability ε, else the best successor by evaluation),
`abpN` (each move by a depth-N αβ); with `ipp` the game's forced moves (win at once, stop a
win in one) come before ε-greedy or αβ choices; `fetX` (stop after X moves and return v0), `detX` (after every
`dfN` playout moves, default 5, stop with ±1 when |v0| >= X). Rewards are in [-1, 1].
Node priors (`npN`): N virtual visits at the game's `move_prior`, or with `npk`/`npb` at the
sigmoid 1 / (1 + e^-(k v + b)) of the evaluation v after the move (the Gomoku report's prior).
Forced actions (`fa`): before searching, the game's `forced_move` (Gomoku: make or stop a five,
make or stop an open four) is played at once without search.
Backpropagation: mean, or with `mbT` the max child value once a node has T visits; implicit
minimax `v_s = max_a v_{s,a}` (sign by side to move); the solver's proofs.

Chance nodes (games of dice, closed loop): a chance node's children are its outcomes (their
probabilities in `bias`, all active at once), selection there draws an outcome by probability
instead of UCT, playouts roll the dice by probability, implicit minimax backs up the
expectation of the outcomes' values, `mbT` takes no max there, and the solver proves a chance
node only when every outcome is proven the same way.

Open loop (`ol`, games of dice): the tree holds the players' moves only; a node stands for a
sequence of moves, and the dice between them are sampled afresh in every simulation, so the
node is a different position each time. At a decision the search lists the legal moves of the
position this simulation reached and selects among the node's children that are legal there
(played by the side to move there), adding a child for a legal move never seen before (one per
visit, a uniformly random one, before any seen move is revisited). A child's exploration term
counts the times it was available instead of its parent's visits (Cowling, Powley & Whitehouse's
availability counts): C sqrt(ln avail / n). Implicit minimax (`im`) backs up, at each node, the
running mean over its simulations of the best implicit value among the children legal in that
simulation (the open-loop estimate of closed loop's expectation over the dice of the max); a
leaf's value is the evaluation after its move where it was created. A node is not one position,
so MCTS-Solver proves nothing below the root (the root's children, one fixed position away,
are proven as in closed loop). Not with exp1, pu, rave or mb (spec.py refuses them).
"""
from libc.stdlib cimport malloc, realloc, free, calloc
from libc.string cimport memcpy, memset
from libc.math cimport log, sqrt, exp

from mcts_arena.rng cimport Rng, rng_seed, rng_below, rng_uniform
from mcts_arena.games.state cimport (GameState, ONGOING, DRAW, PP_RANDOM, PP_IPP,
                                     PLAYOUT_PLIES_MAX)
from mcts_arena.clock cimport now
from mcts_arena.players.search.alphabeta cimport ab_playout_move

from mcts_arena import budgets as _budgets

cdef double TIME_CAP = _budgets.TIME_MAX        # no search runs longer, whatever its budget
cdef long SIMS_CAP = _budgets.SIMS_MAX

cdef enum:
    MAX_PATH = 4096
    MARK_SIZE = 65536
    UCB_CACHE = 64      # _select: exploration terms cached per visit count below this

cdef enum:
    VISITED = 1          # Node.real's bits
    CHANCE = 2

cdef enum:
    SEL_PLAIN = 0
    SEL_IM = 1
    SEL_CB = 2
    SEL_PBIM = 3


cdef struct Node:
    double wins          # sum of rewards, mover's view
    int first            # first child index; -1 = not expanded
    int move
    int visits           # real + virtual (node priors) visits
    int nchild           # size of the child block
    int nactive          # children activated (== nchild unless exp1)
    float v              # implicit minimax value (mover's view) / static v0 for cb
    float bias           # H(s, a) for progressive bias / unpruning order
    float amaf_w         # RAVE: sum of AMAF rewards (mover's view)
    int amaf_n
    signed char mover    # player who made `move`
    signed char tomove   # side to move at this node
    signed char proven   # +1 mover wins, -1 mover loses, 0 unknown
    signed char real     # bit 1: a simulation has passed through (virtual visits aside);
                         # bit 2 (CHANCE): a chance node, whose children are the outcomes


cdef struct Opts:
    double C
    int evalfn
    int policy
    int fet
    double det
    int df
    double ege
    int np
    double npk           # sigmoid node priors: prior = 1 / (1 + e^-(npk v + npb)), v = eval_after
    double npb
    bint fa              # forced actions: the game's urgent move at once, before any search
    int mb
    double pb
    int sel
    double alpha
    int rave
    int pu
    bint exp1
    int abp
    int abw              # αβ playouts: moves searched per node (0 = all)
    bint need_v
    bint backup_v
    bint fast_random
    bint policy_fast     # a non-random policy alone: try the game's policy_playout
    bint rave_fast       # RAVE with random playouts: the game's recorded_playout
    bint flat            # flat Monte Carlo: never expand below the root
    bint open_loop       # open-loop tree over the players' moves (games of dice)
    long max_nodes
    double stop          # STOP rule (time budgets): end when the best move cannot change, f


NODE_BYTES = sizeof(Node)


cdef inline double _reward0(int res) noexcept nogil:
    """A playout's result as the reward of player 0: a win +1, a loss -1, else (a draw, or a
    playout cut off unfinished) 0."""
    if res == 0:
        return 1.0
    if res == 1:
        return -1.0
    return 0.0


#: The option keys MCTSSearch understands; any other key is a mistake and an error.
OPTION_KEYS = ("C", "evalfn", "policy", "fet", "det", "df", "ege", "np", "npk", "npb", "fa",
               "mb", "pb", "sel",
               "alpha", "rave", "pu", "exp1", "abp", "abw", "flat", "open_loop", "max_nodes",
               "stop")

#: The STOP rule checks the root every STOP_EVERY simulations (a pass over the root's children).
cdef int STOP_EVERY = 64


cdef class MCTSSearch:
    """One MCTS engine: options, PRNG and a node pool reused from move to move."""

    cdef Node* nodes
    cdef long n_nodes
    cdef long cap
    cdef Opts o
    cdef Rng rng
    cdef int path[MAX_PATH]
    cdef int* marks         # RAVE: stamp per (player, move id)
    cdef int stamp
    cdef int played[MAX_PATH]
    cdef signed char played_by[MAX_PATH]
    cdef int n_played
    cdef int max_depth
    cdef long playout_plies
    cdef bint full
    cdef bint tracing       # record playout moves (tests, `playout_once`)
    cdef int* mv_expand     # move buffers of _expand and _playout, sized by the game's max_moves
    cdef double* pr_expand  # a chance node's outcome probabilities (max_outcomes <= max_moves)
    cdef int* mv_playout
    cdef Node* sort_tmp     # merge buffer of the unpruning order, max_moves nodes
    cdef int mv_cap
    # _select's exploration term C sqrt(ln n / v) by visit count v, valid while
    # ucb_gen[v] == ucb_call (one call of _select: ln n is fixed within it)
    cdef double ucb_term[UCB_CACHE]
    cdef long ucb_gen[UCB_CACHE]
    cdef long ucb_call
    # open loop: the legal moves of the current position, an open-addressing set stamped per
    # selection (ol_gen), and for each its "has a child" mark; path levels' side to move and
    # the best implicit value of the available children off the path (for im)
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
        self.mv_expand = self.mv_playout = NULL
        self.pr_expand = NULL
        self.sort_tmp = NULL
        self.mv_cap = 0
        self.ucb_call = 0
        memset(self.ucb_gen, 0, sizeof(self.ucb_gen))
        self.cap = 1 << 16
        self.nodes = <Node*>malloc(self.cap * sizeof(Node))
        if self.nodes == NULL:
            raise MemoryError()
        self.marks = NULL

    def __dealloc__(self):
        free(self.pr_expand)
        free(self.mv_expand)
        free(self.mv_playout)
        free(self.sort_tmp)
        free(self.nodes)
        free(self.marks)
        free(self.ol_key)
        free(self.ol_stamp)
        free(self.ol_has)

    def __init__(self, dict options, unsigned long long seed=1):
        """options: C, evalfn (id), policy (id), fet, det, df, ege, np, npk, npb, fa, mb, pb,
        sel ('im', 'cb', 'pbim' or ''), alpha, rave, pu, exp1, abp, flat, open_loop, max_nodes.
        Absent = off."""
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
        self.o.rave = o.get("rave", 0)
        self.o.pu = o.get("pu", 0)
        self.o.exp1 = o.get("exp1", False)
        self.o.abp = o.get("abp", 0)
        self.o.abw = o.get("abw", 8)
        self.o.max_nodes = o.get("max_nodes", 20_000_000)
        self.o.flat = o.get("flat", False)
        self.o.open_loop = o.get("open_loop", False)
        self.o.stop = o.get("stop", 0.0)
        if self.o.open_loop and (self.o.exp1 or self.o.pu > 0 or self.o.rave > 0
                                 or self.o.mb >= 0 or self.o.flat):
            raise ValueError("open loop does not take exp1, pu, rave, mb or flat")
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
        rng_seed(&self.rng, seed)

    # ---- node pool ------------------------------------------------------------------------
    cdef int _alloc(self, int count) noexcept nogil:
        """Index of `count` fresh consecutive nodes, or -1 when the pool is at its limit."""
        cdef long need = self.n_nodes + count
        cdef long newcap
        cdef Node* p
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
            self.cap = newcap
        cdef int first = self.n_nodes
        self.n_nodes = need
        return first

    cdef inline void _init_node(self, Node* nd, int move, int mover, int tomove) noexcept nogil:
        nd.wins = 0.0
        nd.first = -1
        nd.move = move
        nd.visits = 0
        nd.nchild = 0
        nd.nactive = 0
        nd.v = 0.0
        nd.bias = 0.0
        nd.amaf_w = 0.0
        nd.amaf_n = 0
        nd.mover = mover
        nd.tomove = tomove
        nd.proven = 0
        nd.real = 0

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
        n = s.search_moves(moves)
        if n == 0:
            return False
        first = self._alloc(n)
        if first < 0:
            return False
        for i in range(n):
            self._make_child(s, &self.nodes[first + i], moves[i], me, np_visits)
        if self.o.pu > 0:
            # children sorted by heuristic, best first: unpruning reveals them in this order
            self._sort_by_bias(&self.nodes[first], n)
        else:
            # a random order (exp1: the activation order): selection then takes the first
            # untried child, a uniformly random one, with no random draw per untried child
            # and selection (a tie-break over k untried children cost k draws every time)
            for i in range(n - 1, 0, -1):
                j = rng_below(&self.rng, i + 1)
                tmp = self.nodes[first + i]
                self.nodes[first + i] = self.nodes[first + j]
                self.nodes[first + j] = tmp
        c = &self.nodes[node]
        c.first = first
        c.nchild = n
        c.nactive = 1 if self.o.exp1 else n
        self._update_node(node)
        return True

    cdef inline void _make_child(self, GameState s, Node* c, int move, int me,
                                 int np_visits) noexcept nogil:
        """A new child for `move` of side `me` at s: its bias, node prior and look-ahead."""
        cdef double prior
        self._init_node(c, move, me, me)
        if self.o.pb > 0 or self.o.pu > 0:
            c.bias = s.move_bias(move)
        if np_visits > 0:
            if self.o.npk > 0:
                # the Gomoku report's prior: a sigmoid of the evaluation after the move
                prior = 1.0 / (1.0 + exp(-(self.o.npk * s.eval_after(move, self.o.evalfn)
                                           + self.o.npb)))
            else:
                prior = s.move_prior(move)
            if prior >= 0:
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
            e = s.evaluate(self.o.evalfn)
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
            self._init_node(c, outs[i], me, me)
            c.bias = <float>probs[i]
            self._look_ahead(s, c, outs[i], me)
        c = &self.nodes[node]
        c.first = first
        c.nchild = n
        c.nactive = n
        c.real |= CHANCE
        self._update_node(node)
        return True

    cdef int _sample_outcome(self, GameState s, int node) noexcept nogil:
        """The child of chance node `node` for an outcome drawn by its probability."""
        cdef Node* nd = &self.nodes[node]
        cdef int m = s.sample_chance(&self.rng), i
        for i in range(nd.first, nd.first + nd.nchild):
            if self.nodes[i].move == m:
                return i
        return nd.first         # cannot happen: the outcomes are the children

    cdef void _sort_by_bias(self, Node* a, int n) noexcept nogil:
        """Stable sort of a[0:n] by bias, highest first (bottom-up merge sort through
        sort_tmp): O(n log n) where an insertion sort cost O(n^2) on 225-child Gomoku nodes;
        stable, so equal biases keep the generation order as before."""
        cdef Node* src = a
        cdef Node* dst = self.sort_tmp
        cdef Node* t
        cdef int width = 1, lo, mid, hi, i, j, k
        while width < n:
            lo = 0
            while lo < n:
                mid = lo + width if lo + width < n else n
                hi = lo + 2 * width if lo + 2 * width < n else n
                i = lo
                j = mid
                k = lo
                while i < mid and j < hi:
                    if src[j].bias > src[i].bias:     # strictly greater: stable
                        dst[k] = src[j]
                        j += 1
                    else:
                        dst[k] = src[i]
                        i += 1
                    k += 1
                while i < mid:
                    dst[k] = src[i]
                    i += 1
                    k += 1
                while j < hi:
                    dst[k] = src[j]
                    j += 1
                    k += 1
                lo = hi
            t = src
            src = dst
            dst = t
            width *= 2
        if src != a:
            for i in range(n):
                a[i] = src[i]

    cdef void _update_node(self, int node) noexcept nogil:
        """Implicit minimax backup and solver proof of `node` from its active children."""
        cdef Node* nd = &self.nodes[node]
        cdef Node* c
        cdef int i
        cdef double best = -2.0
        cdef bint all_lost = nd.nactive == nd.nchild
        cdef bint won = False
        cdef double sign = 1.0 if nd.tomove == nd.mover else -1.0
        if nd.real & CHANCE:
            self._update_chance(nd, sign)
            return
        for i in range(nd.first, nd.first + nd.nactive):
            c = &self.nodes[i]
            if c.v > best:
                best = c.v
            if c.proven == 1:
                won = True
            elif c.proven != -1:
                all_lost = False
        if self.o.backup_v:
            nd.v = <float>(sign * best)
        if nd.proven == 0:
            if won:
                nd.proven = 1 if nd.tomove == nd.mover else -1
            elif all_lost:
                nd.proven = -1 if nd.tomove == nd.mover else 1

    cdef void _update_chance(self, Node* nd, double sign) noexcept nogil:
        """A chance node's implicit value is the expectation of its outcomes' (Lanctot et
        al.'s implicit minimax, with the mean where the dice choose), and it is proven only
        when every outcome is proven the same way."""
        cdef Node* c
        cdef int i, wins = 0, losses = 0
        cdef double ev = 0.0
        for i in range(nd.first, nd.first + nd.nchild):
            c = &self.nodes[i]
            ev += c.bias * c.v
            if c.proven == 1:
                wins += 1
            elif c.proven == -1:
                losses += 1
        if self.o.backup_v:
            nd.v = <float>(sign * ev)
        if nd.proven == 0:
            if wins == nd.nchild:
                nd.proven = 1 if nd.tomove == nd.mover else -1
            elif losses == nd.nchild:
                nd.proven = -1 if nd.tomove == nd.mover else 1

    # ---- selection ------------------------------------------------------------------------
    cdef inline double _blend(self, Node* c, double q) noexcept nogil:
        """The mean q of visited child c blended with its value v by im, cb or pbim."""
        cdef double a = self.o.alpha
        if self.o.sel == SEL_IM or self.o.sel == SEL_CB:
            return (1.0 - a) * q + a * c.v
        if self.o.sel == SEL_PBIM:
            return (1.0 - a) * q + a * c.v / (c.visits + 1.0)
        return q

    cdef inline bint _better(self, double val, double* best, int* ties) noexcept nogil:
        """Does a child of selection value `val` replace the choice so far? Above the best,
        yes; equal to it, with probability 1/ties (reservoir sampling of the ties)."""
        if val > best[0]:
            best[0] = val
            ties[0] = 1
            return True
        if val == best[0]:
            ties[0] += 1
            return rng_below(&self.rng, ties[0]) == 0
        return False

    cdef int _select(self, int node) noexcept nogil:
        cdef Node* nd = &self.nodes[node]
        cdef Node* c
        cdef int i, last, choice = -1, ties = 0, fallback = -1
        cdef double best = -1e300, val, q, beta, logn
        cdef long limit
        logn = log(nd.visits if nd.visits > 0 else 1)
        self.ucb_call += 1
        last = nd.first + nd.nactive
        if self.o.pu > 0 and nd.visits >= 40:
            limit = self.o.pu + 1 + <long>(log(nd.visits / 40.0) / log(1.3))
            if nd.first + limit < last:
                last = nd.first + <int>limit
        elif self.o.pu > 0 and nd.first + self.o.pu < last:
            last = nd.first + self.o.pu
        for i in range(nd.first, last):
            c = &self.nodes[i]
            if c.proven == 1:
                return i
            if c.proven == -1:
                fallback = i
                continue
            if c.visits == 0:
                if self.o.rave > 0 and c.amaf_n > 0:
                    # RAVE ranks the untried moves by their AMAF value (as one visit's worth of
                    # exploration): "unvisited first at random" threw away what RAVE knows
                    # (MCTS(rave300) vs MCTS on 7x7 Hex at 2,000 sims: 48% before)
                    q = c.amaf_w / c.amaf_n
                    val = q + self.o.C * sqrt(logn)
                else:
                    # untried: the children were shuffled at expansion (by heuristic under pu),
                    # so the first one is a random (best-ordered) pick
                    return i
            else:
                q = c.wins / c.visits
                if self.o.rave > 0 and c.amaf_n > 0:
                    beta = (self.o.rave - nd.visits) / <double>self.o.rave
                    if beta > 0:
                        q = (1.0 - beta) * q + beta * (c.amaf_w / c.amaf_n)
                q = self._blend(c, q)
                if c.visits < UCB_CACHE:
                    # the same product as below, computed once per visit count and call: wide
                    # nodes (Hex, Gomoku) have many children with equal small counts
                    if self.ucb_gen[c.visits] != self.ucb_call:
                        self.ucb_gen[c.visits] = self.ucb_call
                        self.ucb_term[c.visits] = self.o.C * sqrt(logn / c.visits)
                    val = q + self.ucb_term[c.visits]
                else:
                    val = q + self.o.C * sqrt(logn / c.visits)
                if self.o.pb > 0:
                    val += self.o.pb * c.bias / (c.visits + 1.0)
            if self._better(val, &best, &ties):
                choice = i
        if choice < 0:
            # every considered move is a proven loss: any of them (or the first active)
            return fallback if fallback >= 0 else nd.first
        return choice

    # ---- playout --------------------------------------------------------------------------
    cdef int _playout_move(self, GameState s, int* moves, int n) noexcept nogil:
        """ipp's forced moves first (a win, a stopped loss), then αβ playouts, ε-greedy, or
        the playout policy: the paper's bl = ipp,ege0.1,det0.5 is ε-greedy *on top of* ipp."""
        cdef int m
        if self.o.policy == PP_IPP:
            m = s.forced_move(moves, n, &self.rng)
            if m >= 0:
                return m
        if self.o.abp > 0:
            return ab_playout_move(s, moves, n, self.o.abp, self.o.abw, self.o.evalfn,
                                   &self.rng)
        if self.o.ege >= 0 and rng_uniform(&self.rng) >= self.o.ege:
            return s.best_successor(self.o.evalfn, moves, n, &self.rng)
        return s.playout_move(self.o.policy, moves, n, &self.rng)

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
            return _reward0(res)
        if self.o.fast_random and not self.tracing:
            return _reward0(s.random_playout(&self.rng, PLAYOUT_PLIES_MAX))
        if self.o.policy_fast and not self.tracing:
            # the game's own whole-playout path for its policy (Hex bridge playouts); -3: none
            res = s.policy_playout(self.o.policy, &self.rng)
            if res == 0 or res == 1 or res == DRAW:
                return _reward0(res)
        while True:
            res = s.result()
            if res != ONGOING:
                r0 = 0.0 if res == DRAW else (1.0 if res == 0 else -1.0)
                break
            if self.o.fet >= 0 and depth >= self.o.fet:
                e = s.evaluate(self.o.evalfn)
                r0 = e if s.player == 0 else -e
                break
            if self.o.det >= 0 and depth > 0 and depth % self.o.df == 0:
                # every dfN playout moves, first after dfN moves: checking the new leaf itself
                # (depth 0) measured far weaker (MCTS(bl) vs MCTS(ipp) at 5,000 sims: 35% with
                # it, 82% without; the paper reports 68.8% at 1 s)
                e = s.evaluate(self.o.evalfn)
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
        cdef int node = 0, depth = 0, child, res, i
        cdef double r0 = 0.0
        cdef Node* nd
        self.path[0] = 0
        self.n_played = 0
        while True:
            nd = &self.nodes[node]
            if node != 0 and nd.proven != 0:
                # a proven node returns its value: mover wins (+1) or loses (-1)
                r0 = nd.proven if nd.mover == 0 else -nd.proven
                break
            res = s.result()
            if res != ONGOING:
                r0 = 0.0 if res == DRAW else (1.0 if res == 0 else -1.0)
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
                self._update_node(node)
                child = nd.first + nd.nactive - 1
                self._descend(s, child, &depth)
                r0 = self._leaf_value(s, child)
                break
            if nd.real & CHANCE:
                child = self._sample_outcome(s, node)
            else:
                child = self._select(node)
            self._descend(s, child, &depth)
            node = child
        self._backprop(depth, r0)
        for i in range(depth):  # no-cython-lint: the count is the point
            s.undo_move()

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
            return c.proven if c.mover == 0 else -c.proven
        return self._playout(s)

    cdef void _backprop(self, int depth, double r0) noexcept nogil:
        cdef int i, k, node
        cdef Node* nd
        cdef Node* c
        cdef double best, q
        if self.o.rave > 0:
            self._rave_mark_playout(depth)
        for i in range(depth, -1, -1):
            node = self.path[i]
            nd = &self.nodes[node]
            nd.visits += 1
            nd.real |= VISITED
            nd.wins += r0 if nd.mover == 0 else -r0
            if nd.first >= 0:
                # without implicit minimax only a proof can change here, and only when the
                # child on the path is proven: a child's proof is set at its parent's
                # expansion (which updates the parent) or in this backpropagation, so an
                # unproven child leaves the parent as it was (the loop over its children,
                # a wide node's main cost here, is skipped)
                if self.o.backup_v or (nd.proven == 0 and
                                       (i == depth or self.nodes[self.path[i + 1]].proven != 0)):
                    self._update_node(node)
                if self.o.rave > 0:
                    self._rave_update(node, i, r0)
                if self.o.mb >= 0 and nd.visits >= self.o.mb and nd.proven == 0 and \
                        not (nd.real & CHANCE):       # the dice take no max
                    # max backpropagation: pass up the best child's mean instead of the sample
                    best = -2.0
                    for k in range(nd.first, nd.first + nd.nactive):
                        c = &self.nodes[k]
                        if c.visits > 0:
                            q = c.wins / c.visits
                            if q > best:
                                best = q
                    if best > -2.0:
                        r0 = best if nd.tomove == 0 else -best
            if nd.proven != 0 and i > 0:
                r0 = nd.proven if nd.mover == 0 else -nd.proven

    # ---- open loop ------------------------------------------------------------------------
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
        cdef int fresh = -1, nfresh = 0, best_i = -1
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
            if c.v > v1:
                v2 = v1
                v1 = c.v
                best_i = k
            elif c.v > v2:
                v2 = c.v
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
            val = self._blend(c, c.wins / c.visits) + self.o.C * sqrt(log(c.amaf_n) / c.visits)
            if self.o.pb > 0:
                val += self.o.pb * c.bias / (c.visits + 1.0)
            if self._better(val, &best, &ties):
                choice = k
        if untried >= 0:
            choice = untried
        else:
            for i in range(n):
                slot = self._ol_slot(moves[i])
                if not self.ol_has[slot]:
                    self.ol_has[slot] = 1       # a move listed twice counts once
                    nfresh += 1
                    if rng_below(&self.rng, nfresh) == 0:
                        fresh = moves[i]
            if fresh >= 0:
                choice = self._add_child_open(s, node, fresh, np_visits)
                if choice < 0:
                    return -1
                c = &self.nodes[choice]
                c.amaf_n = 1
                if c.v > v1:
                    v2 = v1
                    v1 = c.v
                    best_i = choice
                elif c.v > v2:
                    v2 = c.v
            elif choice < 0:
                choice = fallback if fallback >= 0 else untried
        self.path_p[level] = p
        self.path_v[level] = v2 if choice == best_i else v1
        return choice

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
                self._init_node(&self.nodes[k], -1, 0, 0)
            nd.first = first
            nd.nchild = cap
        k = nd.first + nd.nactive
        nd.nactive += 1
        self._make_child(s, &self.nodes[k], move, s.player, np_visits)
        self.nodes[k].proven = 0
        return k

    cdef void _simulate_open(self, GameState s, int np_visits) noexcept nogil:
        """One open-loop simulation: the dice sampled on the way down, a node per move."""
        cdef int node = 0, depth = 0, plies = 0, child, res, n, i
        cdef double r0 = 0.0
        cdef Node* nd
        cdef float x, bv
        self.path[0] = 0
        while True:
            nd = &self.nodes[node]
            if node != 0 and nd.proven != 0:
                r0 = nd.proven if nd.mover == 0 else -nd.proven
                break
            res = s.result()
            if res != ONGOING:
                r0 = 0.0 if res == DRAW else (1.0 if res == 0 else -1.0)
                break
            if node != 0 and not (nd.real & VISITED):
                r0 = self._playout(s)
                break
            if s.is_chance():
                s.do_move(s.sample_chance(&self.rng))
                plies += 1
                continue
            n = s.search_moves(self.mv_expand)
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
                r0 = nd.proven if nd.mover == 0 else -nd.proven
        for i in range(plies):  # no-cython-lint: the count is the point
            s.undo_move()

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
        proven win, else the most visits among moves not proven lost (first on ties)."""
        cdef Node* root = &self.nodes[0]
        cdef Node* c
        cdef int i, best = -1, best_any = -1
        cdef long bv = -1, bva = -1
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
        cdef int size = 16
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
        if self.o.open_loop:
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

    def search(self, GameState state, double seconds=0.0, sims=0, int np_visits=-1,
               checkpoints=None):
        """Search from `state` (not modified): (move, stats). Budget: seconds and/or sims.

        Budgets outside mcts_arena.budgets' ranges (NaN, inf, more than SIMS_MAX) raise a
        ValueError; the search never runs longer than budgets.TIME_MAX seconds.

        stats: sims, nodes, depth (deepest tree ply), time, playout_plies, proven (+1 the side
        to move has a proven win, -1 a proven loss, 0 unknown), pool_full, `settled` (only when
        the STOP rule ended a time-budgeted search early), and children: one
        (move, visits, mean reward, implicit value v, proven) per root move, mover's view.
        With `checkpoints` (increasing simulation counts) stats also has `trace`: the move the
        search would play after each checkpoint's simulations, [(sims, move, seconds)] (a
        search stopped early, e.g. proven, repeats its last choice for the later ones).
        """
        cdef long* cps = NULL
        cdef int* cp_move = NULL
        cdef double* cp_time = NULL
        cdef int ncp = 0, icp = 0
        cdef GameState s = state.clone()
        cdef double t0, deadline, elapsed, t, left
        cdef bint settled = False
        cdef long done = 0
        cdef long nsims
        cdef int i, best
        cdef Node* root
        cdef Node* c
        if not (0.0 <= seconds <= TIME_CAP):
            raise ValueError(f"MCTS time budget must be 0 to {TIME_CAP:g} seconds, got {seconds}")
        if not (0 <= sims <= SIMS_CAP) or sims != int(sims):
            raise ValueError(f"MCTS simulation budget must be 0 to {SIMS_CAP}, got {sims}")
        nsims = int(sims)
        if seconds <= 0 and nsims <= 0:
            raise ValueError("MCTS needs a budget: seconds > 0 or sims > 0")
        if s.result() != ONGOING:
            raise ValueError("no legal move: the game is over")
        if self.o.open_loop and s.is_chance():
            raise ValueError("open-loop MCTS searches a decision, not a chance node (the dice "
                             "are to roll)")
        self._size_buffers(s)
        if self.o.fa:
            # forced actions (the Gomoku report, 4.3): an urgent move is played without search
            best = s.forced_move(self.mv_expand, s.gen_moves(self.mv_expand), &self.rng)
            if best >= 0:
                return best, {"sims": 0, "nodes": 0, "playout_plies": 0, "depth": 0,
                              "time": 0.0, "proven": 0, "pool_full": False, "children": [],
                              "forced": True,
                              **({"trace": [(cp, best, 0.0) for cp in checkpoints]}
                                 if checkpoints else {})}
        self.n_nodes = 0
        self.full = False
        self.max_depth = 0
        self.playout_plies = 0
        self._alloc(1)
        self._init_node(&self.nodes[0], -1, 1 - s.player, s.player)
        if np_visits < 0:
            np_visits = self.o.np
        if checkpoints:
            ncp = len(checkpoints)
            cps = <long*>malloc(ncp * sizeof(long))
            cp_move = <int*>malloc(ncp * sizeof(int))
            cp_time = <double*>malloc(ncp * sizeof(double))
            for i in range(ncp):
                cps[i] = checkpoints[i]
        t0 = now()
        deadline = t0 + (seconds if seconds > 0 else TIME_CAP)
        with nogil:
            if not self._expand(s, 0, np_visits):
                pass
            while True:
                while icp < ncp and done >= cps[icp] and self.nodes[0].first >= 0:
                    cp_move[icp] = self._current_move()
                    cp_time[icp] = now() - t0
                    icp += 1
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
                        settled = True
                        break
                if self.nodes[0].proven != 0 or self.nodes[0].first < 0:
                    break
                if self.nodes[0].nchild == 1:
                    break        # forced-move shortcut: one legal move, play it now
                if self.o.open_loop:
                    self._simulate_open(s, np_visits)
                else:
                    self._simulate(s, np_visits)
                done += 1
        elapsed = now() - t0
        root = &self.nodes[0]
        if root.first < 0:
            free(cps); free(cp_move); free(cp_time)
            raise RuntimeError("MCTS could not expand the root")
        trace = None
        if ncp:
            trace = []
            for i in range(ncp):
                if i < icp:
                    trace.append((cps[i], cp_move[i], cp_time[i]))
                else:
                    trace.append((cps[i], self._current_move(), elapsed))
            free(cps); free(cp_move); free(cp_time)
        best = self._final_choice()
        # the search's value of the position for the side to move: the chosen move's mean
        # reward (its mover's view, which is the root's side to move), +-1 once proven
        c = &self.nodes[best]
        value = 1.0 if c.proven == 1 else -1.0 if c.proven == -1 else (
            c.wins / c.visits if c.visits else 0.0)
        children = []
        for i in range(root.first, root.first + root.nactive):
            c = &self.nodes[i]
            children.append((c.move, c.visits, (c.wins / c.visits) if c.visits else 0.0,
                             c.v, c.proven))
        return self.nodes[best].move, {
            "sims": done, "nodes": self.n_nodes, "playout_plies": self.playout_plies, "depth": self.max_depth, "time": elapsed,
            "proven": -root.proven, "pool_full": bool(self.full), "children": children,
            "value": value, **({"settled": True} if settled else {}),
            **({"trace": trace} if trace is not None else {})}

    cdef int _final_choice(self):
        """Proven win at once; else most visits among moves not proven lost (ties at random)."""
        cdef Node* root = &self.nodes[0]
        cdef Node* c
        cdef int i, best = -1, ties = 0, best_any = -1
        cdef long bv = -1, bva = -1
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
        self.tracing = True
        self.n_played = 0
        r0 = self._playout(s)
        self.tracing = False
        return r0, [self.played[i] for i in range(self.n_played)]

    def tree_nodes(self):
        """Dump the tree as a list of dicts (for tests): index, move, visits, mean, v, children."""
        out = []
        cdef Node* nd
        cdef int i
        for i in range(self.n_nodes):
            nd = &self.nodes[i]
            out.append({"index": i, "move": nd.move, "visits": nd.visits, "wins": nd.wins,
                        "v": nd.v, "mover": nd.mover, "tomove": nd.tomove, "proven": nd.proven,
                        "first": nd.first, "nchild": nd.nchild, "nactive": nd.nactive,
                        "amaf_n": nd.amaf_n, "amaf_w": nd.amaf_w})
        return out
