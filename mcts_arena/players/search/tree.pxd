# cython: language_level=3
"""The MCTS tree: its node, the search's options, and the node-level helpers every part of the
search shares (the core in mcts.pyx, the open-loop variant in openloop.pyx, the policies in
selection.pxd and backup.pxd). Inline functions only: each module that cimports them compiles
its own copy, so a call costs what it cost as a method of one class.

Values: a node stores the statistics of the move that led to it, from the view of the player
who made that move (its `mover`): `wins` (sum of rewards in [-1, 1]), `v` (implicit minimax
value or, for `cb`, the static evaluation), `proven` (+1 the mover wins, -1 the mover loses).
The side to move at a node is stored too, because in Kalah the same side may move again.
UCB1-Tuned's sum of squared rewards is not a field: only that rule reads it, so it lives in an
array beside the pool (MCTSSearch.sq, by node index) that the other rules never allocate, and
their nodes stay 48 bytes.
"""
from mcts_arena.games.state cimport GameState, ONGOING, DRAW

cdef enum:
    VISITED = 1          # Node.real's bits
    CHANCE = 2
    MS_PROBED = 4        # MCTS-MS has run its shallow minimax here

# How a child's mean is blended with its value v in selection (players/search/selection.pxd)
cdef enum:
    SEL_PLAIN = 0
    SEL_IM = 1
    SEL_CB = 2
    SEL_PBIM = 3

# The selection rule at a decision node (players/search/selection.pxd)
cdef enum:
    RULE_UCT = 0         # UCB1's exploration term C sqrt(ln n_s / n) (+ progressive bias)
    RULE_PUCT = 1        # PUCT's c P(s,a) sqrt(n_s) / (1 + n), P in the child's `bias`
    RULE_TUNED = 2       # UCB1-Tuned's C sqrt(ln n_s / n min(1, V)), V from the rewards' spread


cdef struct Node:
    double wins          # sum of rewards, mover's view
    int first            # first child index; -1 = not expanded
    int move
    int visits           # real + virtual (node priors) visits
    int nchild           # size of the child block
    int nactive          # children activated (== nchild unless exp1)
    float v              # implicit minimax value (mover's view) / static v0 for cb
    float bias           # H(s, a) for progressive bias / unpruning order; P(s, a) for PUCT
    float amaf_w         # RAVE: sum of AMAF rewards (mover's view)
    int amaf_n
    signed char mover    # player who made `move`
    signed char tomove   # side to move at this node
    signed char proven   # +1 mover wins, -1 mover loses, 0 unknown
    signed char real     # bit 1: a simulation has passed through (virtual visits aside);
                         # bit 2 (CHANCE): a chance node, whose children are the outcomes;
                         # bit 3 (MS_PROBED): MCTS-MS's shallow minimax has run here


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
    int sel              # SEL_*: the blend of a child's mean with its value
    double alpha
    int rule             # RULE_*: the selection rule (RULE_TUNED: `tuned`)
    double puct          # PUCT's constant c
    bint prior           # PUCT's prior: the game's node priors (else uniform)
    int gumbel           # the Gumbel root's m, the moves Sequential Halving starts with (0: off)
    double gumbel_cv     # its sigma(q) = (c_visit + max N) c_scale q: c_visit
    double gumbel_cs     # and c_scale
    int rave
    int pu
    bint exp1
    int abp
    int abw              # αβ playouts: moves searched per node (0 = all)
    int v0q              # v0(s) by a quiescence search this many plies deep (0: static)
    int ms               # MCTS-MS: a win/loss minimax this deep at a node with msv visits
    int msv
    int mib              # MCTS-MB: a win/loss minimax this deep above a child proven lost
    bint sfx             # above a child proven lost, prove its unexpanded siblings one ply deep
    bint need_v
    bint backup_v
    bint fast_random
    bint policy_fast     # a non-random policy alone: try the game's policy_playout
    bint rave_fast       # RAVE with random playouts: the game's recorded_playout
    bint flat            # flat Monte Carlo: never expand below the root
    bint open_loop       # open-loop tree over the players' moves (games of dice)
    long max_nodes
    double stop          # STOP rule (time budgets): end when the best move cannot change, f


cdef inline void init_node(Node* nd, int move, int mover, int tomove) noexcept nogil:
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


cdef inline void init_bandit(Node* nodes, int k) noexcept nogil:
    """A root (player 0 to move) whose k children nodes[1:k+1], unvisited, are a bandit's arms
    (move i for arm i): a policy's choice at a root, looked at by hand (tests)."""
    cdef int i
    init_node(&nodes[0], -1, 1, 0)
    nodes[0].first = 1
    nodes[0].nchild = nodes[0].nactive = k
    for i in range(k):
        init_node(&nodes[i + 1], i, 0, 1)


cdef inline double reward0(int res) noexcept nogil:
    """A playout's result as the reward of player 0: a win +1, a loss -1, else (a draw, or a
    playout cut off unfinished) 0."""
    if res == 0:
        return 1.0
    if res == 1:
        return -1.0
    return 0.0


cdef inline double proven_reward0(Node* nd) noexcept nogil:
    """The reward of player 0 that proven node `nd` returns: its mover wins (+1) or loses."""
    return nd.proven if nd.mover == 0 else -nd.proven


cdef inline bint descent_ends(GameState s, Node* nd, bint root, double* r0) noexcept nogil:
    """Does a simulation's descent end at node nd, whose position s is? At a proven node
    (the root aside) with its proof, at a finished game with its result: r0[0], player 0's
    reward."""
    cdef int res
    if not root and nd.proven != 0:
        r0[0] = proven_reward0(nd)
        return True
    res = s.result()
    if res != ONGOING:
        r0[0] = 0.0 if res == DRAW else (1.0 if res == 0 else -1.0)
        return True
    return False


cdef inline void sort_by_bias(Node* a, Node* tmp, int n) noexcept nogil:
    """Stable sort of a[0:n] by bias, highest first (bottom-up merge sort through tmp, n nodes):
    O(n log n) where an insertion sort cost O(n^2) on 225-child Gomoku nodes; stable, so equal
    biases keep the generation order."""
    cdef Node* src = a
    cdef Node* dst = tmp
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
