# cython: language_level=3
"""The one seam every game core and every search stands on.

A game is a `cdef class` extending `GameState`. Searches hold a `GameState` reference and call
the C-level methods below (vtable calls, no Python objects, no allocation per move). Each game
also implements the Python-level hooks of `state.pyx` (`format_move`, `parse_move`, `to_text`,
`_from_text`, `board_str`) that tools and tests use.

Conventions:
- players are 0 (moves first) and 1;
- moves are small non-negative ints inside, notation strings only at the edges;
- `result()` is ONGOING, 0 or 1 (the winner) or DRAW;
- `evaluate(evalfn)` is in [-1, 1] from the view of the side to move; a decided position is ±1;
- `do_move` pushes an undo record, `undo_move` pops it; both keep `hash` (64-bit Zobrist) exact.
"""
from libc.stdint cimport uint64_t
from mcts_arena.rng cimport Rng

cdef enum:
    MAX_MOVES = 368     # upper bound on legal moves in any position of any game here (Hex 19x19 + swap)
    ONGOING = -1
    DRAW = 2

# Evaluation function ids (one numbering for all games; each game accepts its own).
cdef enum:
    EF_DEFAULT = 0
    EF_MS = 1      # Breakthrough, Schadd's simple evaluation
    EF_LH = 2      # Breakthrough, Lorentz & Horey piece-square values
    EF_RS = 3      # Kalah, store difference
    EF_WB = 4      # LOA, MIA-style
    EF_LOA0 = 5    # LOA, cheap (concentration)
    EF_TTT = 6     # tic-tac-toe, open lines
    EF_TD = 7      # Hex, two-distance potentials

# Playout policy ids understood by `playout_move`.
cdef enum:
    PP_RANDOM = 0
    PP_IPP = 1     # the game's improved playout policy (`ipp` in the paper)


cdef class GameState:
    cdef public int player          # side to move: 0 or 1
    cdef public int ply             # moves played since the position was set up
    cdef uint64_t hash              # Zobrist hash of the position and side to move

    cdef int gen_moves(self, int* out) noexcept nogil
    cdef void do_move(self, int move) noexcept nogil
    cdef void undo_move(self) noexcept nogil
    cdef int result(self) noexcept nogil
    cdef double evaluate(self, int evalfn) noexcept nogil
    cdef double eval_after(self, int move, int evalfn) noexcept nogil
    cdef int best_successor(self, int evalfn, int* moves, int n, Rng* rng) noexcept nogil

    # Game knowledge the searches use (defaults in state.pyx are neutral).
    cdef int playout_move(self, int policy, int* moves, int n, Rng* rng) noexcept nogil
    cdef int forced_move(self, int* moves, int n, Rng* rng) noexcept nogil
    cdef int random_playout(self, Rng* rng, int max_plies) noexcept nogil
    cdef int policy_playout(self, int policy, Rng* rng) noexcept nogil
    cdef int move_order(self, int move) noexcept nogil
    cdef double move_prior(self, int move) noexcept nogil
    cdef double move_bias(self, int move) noexcept nogil
    cdef bint is_decisive(self, int move) noexcept nogil
    cdef int threats(self, int* out, int limit) noexcept nogil

    cdef GameState clone(self)
