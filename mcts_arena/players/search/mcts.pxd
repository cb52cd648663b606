# cython: language_level=3
"""The MCTS core's class, for the variants that extend it (players/search/openloop.pyx)."""
from mcts_arena.rng cimport Rng
from mcts_arena.games.state cimport GameState, Knowledge
from mcts_arena.players.search.tree cimport Node, Opts
from mcts_arena.players.search.selection cimport UcbCache
from mcts_arena.players.search.gumbel cimport GumbelRoot
from mcts_arena.players.search.alphaarms cimport AlphaArms

cdef enum:
    MAX_PATH = 4096
    MARK_SIZE = 65536


cdef struct Checkpoints:
    long* sims          # the simulation counts asked for, increasing
    int* move           # the move the search would play at each reached
    double* secs        # and the seconds it had searched
    int n
    int reached


cdef class MCTSSearch:
    # the knowledge given to the search (None: each position's game's own) and the one in use
    cdef public Knowledge knowledge
    cdef Knowledge k
    cdef Node* nodes
    cdef long n_nodes
    cdef long cap
    cdef double time_cap    # the longest this search may run: TIME_MAX, or a clock's hard limit
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
    cdef UcbCache ucb       # select_uct's exploration terms
    cdef double* sq         # UCB1-Tuned (RULE_TUNED) only: each node's sum of squared rewards,
                            # by index, as long as the pool (cap); NULL for every other rule
    cdef GumbelRoot gr      # the Gumbel root's state (`gumbel` only: its arrays NULL otherwise)
    cdef AlphaArms arms     # imas: each side's α bandit, afresh for every search

    cdef int _alloc(self, int count) noexcept nogil
    cdef bint _expand(self, GameState s, int node, int np_visits) noexcept nogil
    cdef void _make_child(self, GameState s, Node* c, int move, int me,
                          int np_visits) noexcept nogil
    cdef inline void _look_ahead(self, GameState s, Node* c, int move, int me) noexcept nogil
    cdef bint _expand_chance(self, GameState s, int node) noexcept nogil
    cdef void _init_squares(self, int first, int n) noexcept nogil
    cdef void _set_arms(self, tuple arms) except *
    cdef int _sample_outcome(self, GameState s, int node) noexcept nogil
    cdef int _playout_move(self, GameState s, int* moves, int n) noexcept nogil
    cdef double _playout(self, GameState s) noexcept nogil
    cdef void _simulate(self, GameState s, int np_visits) noexcept nogil
    cdef void _minimax_in_selection(self, GameState s, Node* nd) noexcept nogil
    cdef inline void _descend(self, GameState s, int child, int* depth) noexcept nogil
    cdef double _leaf_value(self, GameState s, int child) noexcept nogil
    cdef void _backprop(self, int depth, double r0) noexcept nogil
    cdef void _rave_mark_playout(self, int depth) noexcept nogil
    cdef void _rave_update(self, int node, int i, double r0) noexcept nogil
    cdef bint _settled(self, double remaining) noexcept nogil
    cdef int _current_move(self) noexcept nogil
    cdef void _size_buffers(self, GameState s) except *
    cdef void _take_knowledge(self, GameState state) except *
    cdef tuple _searched(self, GameState s, double seconds, long nsims, int np_visits,
                         list checkpoints)
    cdef long _run(self, GameState s, double seconds, long nsims, int np_visits,
                   Checkpoints* cp, double t0, bint* settled) noexcept nogil
    cdef object _report(self, long done, double elapsed, bint settled, list trace)
    cdef int _final_choice(self)
