# cython: language_level=3
"""The one seam every game core and every search stands on: the game and what is known of it.

A game is a `cdef class` extending `GameState`, and what a search knows of it beyond its rules
a `cdef class` extending `Knowledge` (the game's own: `state.knowledge()`; a learned one is one
more). Searches hold a `GameState` and a `Knowledge` and call the C-level methods below (vtable
calls, no Python objects, no allocation per move); a knowledge method takes the position it
judges as its first argument. The methods come in tiers, each a labelled section of a class:

GameState
- **rules**: what every game implements (its moves, results and copy), with the Python-level
  hooks of `state.pyx` (`format_move`, `parse_move`, `to_text`, `board_str`, the class method
  `from_text`, and `knowledge()`) that tools and tests use;
- **chance**: what a game of dice implements; a deterministic game keeps the defaults;
- **fast paths**: uniformly random playouts and the one-move win test, answered faster than
  the default where a game can.

Knowledge
- **knowledge**: evaluations, move orders, priors and biases, playout policies, forced moves,
  threats, tactical moves and the null move; each default is neutral (an evaluation of 0 for a
  game going on), so a game without the knowledge loses nothing but strength;
- **fast paths**: answers over the knowledge (a policy's whole playout, one move ahead, the
  selective search's ordering and leaves) given faster than the default does.

A fast path of either class MUST give the default's answer: the same value to the last bit,
for a choice among ties a move the default could choose, for a playout the same distribution
of games. tests/test_game_conformance.py finds every game's overrides (from the vtables of its
state and its knowledge) and checks each against its default, so a new game's speed-ups are
checked without a new test.

Conventions:
- players are 0 (moves first) and 1;
- moves are small non-negative ints inside, notation strings only at the edges;
- `result()` is ONGOING, 0 or 1 (the winner) or DRAW;
- `knowledge.evaluate(s, evalfn)` is in [-1, 1] from the view of the side to move at s; a
  decided position is ±1;
- `do_move` pushes an undo record, `undo_move` pops it; both keep `hash` (64-bit Zobrist) exact.

Chance (games of dice: `max_outcomes > 0`; a deterministic game sets nothing and is untouched):
- a position may be a chance node (`is_chance()`): nobody chooses, the dice do. Its outcomes
  and their probabilities come from `chance_outcomes(outcomes, probs)` (the count, at most
  `max_outcomes`, probabilities summing to 1; 0 at a position that is not a chance node);
- an outcome is a move id like any other: `gen_moves` at a chance node lists the same ids (in
  the same order, so perft and the generic loops walk through the dice), `do_move` applies one
  and `undo_move` takes it back through the same undo history and hash; outcome ids never
  coincide with the ids of the game's moves, so `format_move` tells them apart;
- `player` at a chance node is the side the outcome concerns (the one about to roll, or who
  rolled); `evaluate` there is still from that side's view;
- `sample_chance(rng)` draws one outcome by its probability (the searches and the fast
  playouts use it; `random_playout` samples every chance node this way, never uniformly);
- `terminal_reward()` is the value of a finished game for player 0 in [-1, 1]: ±1 / 0 from
  `result()` unless the game scores some wins higher (backgammon's gammons), which it scales
  into [-1, 1] by its largest score. Searches that want the score use it instead of `result()`.
"""
from libc.stdint cimport uint64_t
from libc.stdio cimport fprintf, stderr
from libc.stdlib cimport abort, realloc
from mcts_arena.rng cimport Rng

cdef extern from "alloca.h":
    void* alloca(size_t size) nogil    # move buffers sized by the game, on the C stack

cdef enum:
    MAX_MOVES = 256     # the default of GameState.max_moves, for a game that declares none
    ONGOING = -1
    DRAW = 2
    #: the most plies a playout plays: one that has not ended by then stops there, unfinished
    PLAYOUT_PLIES_MAX = 100000
    #: the most features a game's knowledge describes a position by (Knowledge.features)
    MAX_FEATURES = 32

# Evaluation function ids are local to each game (its `GAME.evals`); 0 is always its default.
cdef enum:
    EF_DEFAULT = 0

# Playout policy ids understood by `playout_move`.
cdef enum:
    PP_RANDOM = 0
    PP_IPP = 1     # the game's improved playout policy (`ipp` in the paper)


cdef inline void* grow_history(void* p, int* cap, int need, size_t elem) noexcept nogil:
    """The undo history `p` (cap[0] records of `elem` bytes) grown to hold at least `need`
    records, doubling; cap[0] is updated. Every game's do_move and clone grow their history
    with this. Out of memory inside a search cannot raise (nogil, noexcept): it stops the
    process with a message instead of writing through a NULL pointer."""
    cdef int newcap = cap[0] if cap[0] > 0 else 1
    cdef void* q
    while newcap < need:
        newcap *= 2
    q = realloc(p, <size_t>newcap * elem)
    if q == NULL:
        fprintf(stderr, b"mcts_arena: out of memory growing an undo history to %d records\n",
                newcap)
        abort()
    cap[0] = newcap
    return q


# What the selective search's fast paths (`leaf_after`, `select_best`, `ordered_moves`) share.
cdef struct Leaf:        # 16 bytes: returned in two registers, not through memory
    signed char res     # the result after the move (ONGOING, DRAW or the winner)
    signed char player  # the side to move after it
    char is_arg         # (ongoing) x is the evaluation's tanh argument, not the evaluation
    double x


cdef inline int keep_best(int* moves, int* keys, int n, int width) noexcept nogil:
    """Order moves[0:n] by keys[0:n], highest first, equal keys in the order given, and keep
    the first `width` (all when width <= 0 or >= n): what a stable sort cut to `width` keeps,
    by a partial insertion sort (a key not above the last kept one is passed over at once).
    keys are reordered with the moves. Returns how many are kept."""
    cdef int cap = width if 0 < width < n else n
    cdef int i, j, k, m, cnt = 0
    for i in range(n):
        k = keys[i]
        m = moves[i]
        if cnt == cap and k <= keys[cap - 1]:
            continue
        j = cnt if cnt < cap else cap - 1
        while j > 0 and keys[j - 1] < k:
            keys[j] = keys[j - 1]
            moves[j] = moves[j - 1]
            j -= 1
        keys[j] = k
        moves[j] = m
        if cnt < cap:
            cnt += 1
    return cnt


cdef class GameState:
    cdef public int player          # side to move: 0 or 1
    cdef public int ply             # moves played since the position was set up
    cdef uint64_t hash              # Zobrist hash of the position and side to move
    # The most legal moves a position of this game (with its parameters) can have: every search
    # sizes its move buffers from it (361 for a 19x19 board). Set in __cinit__/__init__ (and
    # copied by clone when it depends on a parameter); MAX_MOVES when a game sets nothing.
    cdef public int max_moves
    # The most outcomes a chance node of this game can have; 0 for a game without chance
    # (the default), which is also how C code tells the two kinds of game apart. A game with
    # chance keeps max_outcomes <= max_moves (gen_moves lists a chance node's outcomes).
    cdef public int max_outcomes

    # ---- rules: every game implements these ---------------------------------------------
    cdef int gen_moves(self, int* out) noexcept nogil
    cdef void do_move(self, int move) noexcept nogil
    cdef void undo_move(self) noexcept nogil
    cdef int result(self) noexcept nogil
    cdef GameState clone(self)

    # ---- chance: a game of dice implements these (see the module docstring) ---------------
    cdef bint is_chance(self) noexcept nogil
    cdef int chance_outcomes(self, int* outcomes, double* probs) noexcept nogil
    cdef int sample_chance(self, Rng* rng) noexcept nogil
    cdef double terminal_reward(self) noexcept nogil

    # ---- fast paths: each MUST give the default's answer (module docstring) ----------------
    cdef int random_playout(self, Rng* rng, int max_plies) noexcept nogil
    cdef int recorded_playout(self, Rng* rng, int* moves, signed char* movers, int cap,
                              int* count) noexcept nogil
    cdef bint is_decisive(self, int move) noexcept nogil


cdef class Knowledge:
    """What a search knows of a game beyond its rules: evaluations, move orders and priors,
    playout policies, the selective search's hooks. Each game has one (its `knowledge()`),
    a search holds one, and a learned evaluation or prior is one more (module docstring)."""

    # ---- knowledge: neutral defaults, overridden where a game knows better ----------------
    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil
    # the numbers a learned evaluation weighs (from the side to move's view; fitted, learn/)
    cdef int features(self, GameState s, double* out) noexcept nogil
    cdef int search_moves(self, GameState s, int* out) noexcept nogil
    cdef int move_order(self, GameState s, int move) noexcept nogil
    cdef double move_prior(self, GameState s, int move) noexcept nogil
    cdef double move_bias(self, GameState s, int move) noexcept nogil
    cdef int playout_move(self, GameState s, int policy, int* moves, int n,
                          Rng* rng) noexcept nogil
    cdef int forced_move(self, GameState s, int* moves, int n, Rng* rng) noexcept nogil
    cdef int threats(self, GameState s, int* out, int limit) noexcept nogil
    # the quiescence search's moves, and a pass where the game holds null-move pruning sound
    cdef int tactical_moves(self, GameState s, int* out) noexcept nogil
    cdef bint do_null(self, GameState s) noexcept nogil
    cdef void undo_null(self, GameState s) noexcept nogil

    # ---- fast paths: each MUST give the default's answer (module docstring) ----------------
    # a whole playout by a policy
    cdef int policy_playout(self, GameState s, int policy, Rng* rng) noexcept nogil
    # one move ahead
    cdef double eval_after(self, GameState s, int move, int evalfn) noexcept nogil
    cdef int best_successor(self, GameState s, int evalfn, int* moves, int n,
                            Rng* rng) noexcept nogil
    # the selective αβ search (αβ playouts): ordering, cut and leaves
    cdef bint evaluate_tanh_arg(self, GameState s, int evalfn, double* x) noexcept nogil
    cdef Leaf leaf_after(self, GameState s, int move, int evalfn) noexcept nogil
    cdef int select_best(self, GameState s, int* moves, int n, int width) noexcept nogil
    cdef int is_among_best(self, GameState s, int move, int width) noexcept nogil
    cdef int ordered_moves(self, GameState s, int* out, int width) noexcept nogil


# The knowledge a search judges `state` by: `given` when it is not None, else the game's own;
# a ValueError when it judges another game (the C-level calls cast the positions they get).
cdef Knowledge knowledge_for(Knowledge given, GameState state)
