# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Breakthrough 8x8 on bitboards.

Rules: White (player 0) starts on ranks 1-2 and moves first, toward rank 8; Black on ranks 7-8
moves toward rank 1. A piece moves one square straight forward onto an empty square, or one
square diagonally forward onto an empty square or onto an enemy piece, capturing it. Captures
are only diagonal. A side wins by moving a piece onto the far rank or by capturing every enemy
piece. There are no draws.

Squares are `row * 8 + col`, row 0 = rank 1, col 0 = file a. A move is `from | to << 6`.
Notation: `a2-a3`, captures `b4xc5`. Text form (FEN-like): the ranks from 8 down to 1 with
`w`, `b`, `.`, separated by `/`, then ` w` or ` b` for the side to move.

Evaluations (docs/paper.md section 6), side to move's view, ±1 for a decided game:
- efMS: d = (10*pieces + 2.5*adv)_W - (...)_B, clamped to [-100, 100], tanh(d / 60);
  adv = rows from a side's home row to its most advanced piece (O(1) from the bitboard);
- efLH: tanh((PV_W - PV_B) / 100) with Lorentz & Horey's per-square piece values, kept
  incrementally in do/undo.
Game knowledge for the searches: decisive / anti-decisive moves, "is this piece defended", the
paper's `ipp` playout policy, static move-ordering categories and Lorentz & Horey node priors.
"""
from libc.stdint cimport uint64_t
from libc.math cimport tanh

from mcts_arena.bits cimport popcount, lsb, msb, nth_bit
from mcts_arena.games.boardtext import format_ranks, parse_ranks
from mcts_arena.rng cimport Rng, rng_below, splitmix64
from mcts_arena.games.history cimport (History, history_copy, history_free, history_init,
                                        history_reserve)
from mcts_arena.games.state cimport GameState, Knowledge, MAX_MOVES, ONGOING, PP_IPP
from mcts_arena.games.netinput cimport NetInput, net_input

# Evaluation functions (ids local to this game; 0, the default, is efMS).
cdef enum:
    EF_MS = 1      # Schadd's simple evaluation
    EF_LH = 2      # Lorentz & Horey piece-square values

cdef uint64_t FILE_A = 0x0101010101010101ULL
cdef uint64_t FILE_H = 0x8080808080808080ULL
cdef uint64_t RANK_1 = 0xFFULL
cdef uint64_t RANK_8 = 0xFF00000000000000ULL

# Lorentz & Horey piece values by row counted from the side's own home row
# (docs/paper.md section 6).
cdef int LH_ROWS[8][8]
LH_ROWS[0][:] = [5, 15, 15, 5, 5, 15, 15, 5]
LH_ROWS[1][:] = [2, 3, 3, 3, 3, 3, 3, 2]
LH_ROWS[2][:] = [4, 6, 6, 6, 6, 6, 6, 4]
LH_ROWS[3][:] = [7, 10, 10, 10, 10, 10, 10, 7]
LH_ROWS[4][:] = [11, 15, 15, 15, 15, 15, 15, 11]
LH_ROWS[5][:] = [16, 21, 21, 21, 21, 21, 21, 16]
LH_ROWS[6][:] = [20, 28, 28, 28, 28, 28, 28, 20]
LH_ROWS[7][:] = [36, 36, 36, 36, 36, 36, 36, 36]

# LH[p][sq]: the value of a piece of player p on square sq.
cdef int LH[2][64]
cdef int _sq
for _sq in range(64):
    LH[0][_sq] = LH_ROWS[_sq >> 3][_sq & 7]
    LH[1][_sq] = LH_ROWS[7 - (_sq >> 3)][_sq & 7]

# Node-prior win rates by rows left to the goal after the move (Lorentz & Horey via the paper's
# code).
cdef double NP_SAFE[8]
NP_SAFE[:] = [1.0, 1.0, 0.95, 0.85, 0.75, 0.60, 0.30, 0.30]

cdef uint64_t ZOB[2][64]
cdef uint64_t ZOB_SIDE
cdef uint64_t _seed = 0xB7EA6781
for _sq in range(64):
    ZOB[0][_sq] = splitmix64(&_seed)
    ZOB[1][_sq] = splitmix64(&_seed)
ZOB_SIDE = splitmix64(&_seed)


cdef struct Undo:
    int move
    int captured
    int lh0
    int lh1
    uint64_t hash


cdef inline int mv_from(int m) noexcept nogil:
    return m & 63


cdef inline int mv_to(int m) noexcept nogil:
    return m >> 6


cdef class Breakthrough(GameState):
    """Breakthrough position; see the module docstring for rules and conventions."""

    name = "breakthrough"
    eval_functions = {"efMS": EF_MS, "efLH": EF_LH}

    cdef uint64_t bb[2]
    cdef int lh[2]
    cdef History hist

    def __cinit__(self):
        self.max_moves = 48          # 16 pieces x 3 directions
        history_init(&self.hist, sizeof(Undo))

    def __dealloc__(self):
        history_free(&self.hist)

    def __init__(self):
        self._set(0x000000000000FFFFULL, 0xFFFF000000000000ULL, 0)

    cdef void _set(self, uint64_t white, uint64_t black, int player):
        cdef int sq
        self.bb[0] = white
        self.bb[1] = black
        self.player = player
        self.ply = 0
        self.hash = ZOB_SIDE if player == 1 else 0
        self.lh[0] = 0
        self.lh[1] = 0
        for sq in range(64):
            if (white >> sq) & 1:
                self.hash ^= ZOB[0][sq]
                self.lh[0] += LH[0][sq]
            if (black >> sq) & 1:
                self.hash ^= ZOB[1][sq]
                self.lh[1] += LH[1][sq]

    # ---- rules ----------------------------------------------------------------------------
    cdef inline void _targets(self, int p, uint64_t* fwd, uint64_t* left,
                              uint64_t* right) noexcept nogil:
        """Destination sets: straight, toward file a, toward file h (diagonals may capture)."""
        cdef uint64_t own = self.bb[p]
        cdef uint64_t empty = ~(self.bb[0] | self.bb[1])
        if p == 0:
            fwd[0] = (own << 8) & empty
            left[0] = ((own & ~FILE_A) << 7) & ~own
            right[0] = ((own & ~FILE_H) << 9) & ~own
        else:
            fwd[0] = (own >> 8) & empty
            left[0] = ((own & ~FILE_A) >> 9) & ~own
            right[0] = ((own & ~FILE_H) >> 7) & ~own

    cdef int gen_moves(self, int* out) noexcept nogil:
        cdef uint64_t f, l, r
        cdef int n = 0, to, df, dl, dr
        self._targets(self.player, &f, &l, &r)
        if self.player == 0:
            df = -8; dl = -7; dr = -9
        else:
            df = 8; dl = 9; dr = 7
        while f:
            to = lsb(f); f &= f - 1
            out[n] = (to + df) | (to << 6); n += 1
        while l:
            to = lsb(l); l &= l - 1
            out[n] = (to + dl) | (to << 6); n += 1
        while r:
            to = lsb(r); r &= r - 1
            out[n] = (to + dr) | (to << 6); n += 1
        return n

    cdef void do_move(self, int move) noexcept nogil:
        cdef int p = self.player, o = 1 - p
        cdef int fr = mv_from(move), to = mv_to(move)
        cdef uint64_t tob = (<uint64_t>1) << to
        cdef Undo* u
        history_reserve(&self.hist, self.ply + 1)
        u = &(<Undo*>self.hist.data)[self.ply]
        u.move = move
        u.hash = self.hash
        u.lh0 = self.lh[0]
        u.lh1 = self.lh[1]
        u.captured = (self.bb[o] & tob) != 0
        if u.captured:
            self.bb[o] ^= tob
            self.hash ^= ZOB[o][to]
            self.lh[o] -= LH[o][to]
        self.bb[p] ^= ((<uint64_t>1) << fr) | tob
        self.hash ^= ZOB[p][fr] ^ ZOB[p][to] ^ ZOB_SIDE
        self.lh[p] += LH[p][to] - LH[p][fr]
        self.player = o
        self.ply += 1

    cdef void undo_move(self) noexcept nogil:
        self.ply -= 1
        cdef Undo* u = &(<Undo*>self.hist.data)[self.ply]
        cdef int p = 1 - self.player, o = self.player
        cdef int fr = mv_from(u.move), to = mv_to(u.move)
        cdef uint64_t tob = (<uint64_t>1) << to
        self.bb[p] ^= ((<uint64_t>1) << fr) | tob
        if u.captured:
            self.bb[o] |= tob
        self.hash = u.hash
        self.lh[0] = u.lh0
        self.lh[1] = u.lh1
        self.player = p

    cdef int result(self) noexcept nogil:
        if (self.bb[0] & RANK_8) or self.bb[1] == 0:
            return 0
        if (self.bb[1] & RANK_1) or self.bb[0] == 0:
            return 1
        return ONGOING

    # ---- what the knowledge reads (the game's Knowledge class, below) ----------------------------
    cdef inline int _advance(self, int p) noexcept nogil:
        """Rows from p's home row to p's most advanced piece (0 with no pieces)."""
        if self.bb[p] == 0:
            return 0
        if p == 0:
            return msb(self.bb[0]) >> 3
        return 7 - (lsb(self.bb[1]) >> 3)

    cdef int lh_sum(self, int p) noexcept nogil:
        return self.lh[p]

    cdef inline uint64_t _guard_squares(self, int p, int sq) noexcept nogil:
        """The squares from which a piece of player p could capture onto sq (diagonally
        behind it, from p's side)."""
        cdef int row = sq >> 3, col = sq & 7
        cdef uint64_t g = 0
        cdef int r2 = row - 1 if p == 0 else row + 1
        if r2 < 0 or r2 > 7:
            return 0
        if col > 0:
            g |= (<uint64_t>1) << (r2 * 8 + col - 1)
        if col < 7:
            g |= (<uint64_t>1) << (r2 * 8 + col + 1)
        return g

    cdef inline uint64_t _guards(self, int p, int sq) noexcept nogil:
        """Pieces of player p that could capture onto sq (they sit diagonally behind it)."""
        return self._guard_squares(p, sq) & self.bb[p]

    cdef bint defended(self, int sq) noexcept nogil:
        """Is the piece on sq protected by a piece of its own side (a recapture exists)?"""
        cdef uint64_t b = (<uint64_t>1) << sq
        if self.bb[0] & b:
            return self._guards(0, sq) != 0
        if self.bb[1] & b:
            return self._guards(1, sq) != 0
        return False

    cdef inline bint _is_capture(self, int move) noexcept nogil:
        return (self.bb[1 - self.player] >> mv_to(move)) & 1

    cdef inline bint _to_goal(self, int move) noexcept nogil:
        cdef int row = mv_to(move) >> 3
        return row == 7 if self.player == 0 else row == 0

    cdef bint is_decisive(self, int move) noexcept nogil:
        # Reaching the far rank, or taking the opponent's last piece.
        return self._to_goal(move) or (self._is_capture(move)
                                       and popcount(self.bb[1 - self.player]) == 1)

    cdef bint is_anti_decisive(self, int move) noexcept nogil:
        """Does this capture remove an enemy piece that stands one step from winning?"""
        cdef int row = mv_to(move) >> 3
        if not self._is_capture(move):
            return False
        return row == 1 if self.player == 0 else row == 6

    # ---- fast paths ------------------------------------------------------------------------------
    cdef int random_playout(self, Rng* rng, int max_plies) noexcept nogil:
        """Uniformly random playout on local bitboard copies: no undo records, no hashing."""
        cdef uint64_t b[2]
        cdef uint64_t own, empty, f, l, r, bit
        cdef int p = self.player, o, nf, nl, nr, k, to, fr, plies = 0
        cdef int res = self.result()
        if res != ONGOING:
            return res
        b[0] = self.bb[0]
        b[1] = self.bb[1]
        while plies < max_plies:
            own = b[p]
            o = 1 - p
            empty = ~(b[0] | b[1])
            if p == 0:
                f = (own << 8) & empty
                l = ((own & ~FILE_A) << 7) & ~own
                r = ((own & ~FILE_H) << 9) & ~own
            else:
                f = (own >> 8) & empty
                l = ((own & ~FILE_A) >> 9) & ~own
                r = ((own & ~FILE_H) >> 7) & ~own
            nf = popcount(f)
            nl = popcount(l)
            nr = popcount(r)
            if nf + nl + nr == 0:
                return o     # cannot happen in Breakthrough, kept for safety
            k = rng_below(rng, nf + nl + nr)
            if k < nf:
                to = nth_bit(f, k)
                fr = to - 8 if p == 0 else to + 8
            elif k < nf + nl:
                to = nth_bit(l, k - nf)
                fr = to - 7 if p == 0 else to + 9
            else:
                to = nth_bit(r, k - nf - nl)
                fr = to - 9 if p == 0 else to + 7
            bit = (<uint64_t>1) << to
            b[p] ^= ((<uint64_t>1) << fr) | bit
            plies += 1
            if b[o] & bit:
                b[o] ^= bit
                if b[o] == 0:
                    return p
            if (p == 0 and to >= 56) or (p == 1 and to < 8):
                return p
            p = o
        return ONGOING

    cdef GameState clone(self):
        cdef Breakthrough c = Breakthrough.__new__(Breakthrough)
        c.bb[0] = self.bb[0]
        c.bb[1] = self.bb[1]
        c.lh[0] = self.lh[0]
        c.lh[1] = self.lh[1]
        c.player = self.player
        c.ply = self.ply
        c.hash = self.hash
        history_copy(&c.hist, &self.hist, self.ply)
        return c

    # ---- Python face ----------------------------------------------------------------------
    def format_move(self, int move):
        fr, to = mv_from(move), mv_to(move)
        sep = "x" if self._is_capture(move) else "-"
        return f"{_sqname(fr)}{sep}{_sqname(to)}"

    def parse_move(self, str text):
        t = text.strip().lower()
        if len(t) != 5 or t[2] not in "-x":
            raise ValueError(f"bad Breakthrough move {text!r}: expected like 'a2-a3' or 'b4xc5'")
        return _sqindex(t[:2]) | (_sqindex(t[3:]) << 6)

    def to_text(self):
        return format_ranks(self.bb[0], self.bb[1], self.player, "w", "b")

    def _cell(self, int sq):
        if (self.bb[0] >> sq) & 1:
            return "w"
        if (self.bb[1] >> sq) & 1:
            return "b"
        return "."

    @classmethod
    def from_text(cls, str text):
        """Read the FEN-like text form (see the module docstring)."""
        white, black, side = parse_ranks(text, "Breakthrough", "w", "b")
        cdef Breakthrough s = cls.__new__(cls)
        s._set(white, black, side)
        return s

    def knowledge(self):
        return BreakthroughKnowledge()

    def board_str(self):
        lines = []
        for row in range(7, -1, -1):
            lines.append(f"{row + 1} " + " ".join(self._cell(row * 8 + c) for c in range(8)))
        lines.append("  a b c d e f g h")
        r = self.result()
        if r == ONGOING:
            lines.append(("White" if self.player == 0 else "Black") + " to move")
        else:
            lines.append(("White" if r == 0 else "Black") + " has won")
        return "\n".join(lines)

    def piece_values(self):
        """(PV_white, PV_black): the incremental efLH sums, for tests."""
        return self.lh[0], self.lh[1]

    def lh_from_scratch(self):
        w = sum(LH[0][sq] for sq in range(64) if (self.bb[0] >> sq) & 1)
        b = sum(LH[1][sq] for sq in range(64) if (self.bb[1] >> sq) & 1)
        return w, b

    def hash_from_scratch(self):
        h = ZOB_SIDE if self.player == 1 else 0
        for sq in range(64):
            if (self.bb[0] >> sq) & 1:
                h ^= ZOB[0][sq]
            if (self.bb[1] >> sq) & 1:
                h ^= ZOB[1][sq]
        return h

    def py_defended(self, str square):
        return bool(self.defended(_sqindex(square)))


def _sqname(int sq):
    return "abcdefgh"[sq & 7] + str((sq >> 3) + 1)


def _sqindex(str name):
    if len(name) != 2 or name[0] not in "abcdefgh" or name[1] not in "12345678":
        raise ValueError(f"bad square {name!r}")
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


def draw(state, last=None):
    """The position as SVG (the game viewer's board): White's pieces light, Black's dark, rank
    8 at the top; the last move's from and to squares framed (`last` = (seat, move id))."""
    from mcts_arena.games.drawing import BLACK_STONE, WHITE_STONE, ranks_of, square_board

    ranks, side = ranks_of(state.to_text())
    squares = () if last is None else (last[1] & 63, (last[1] >> 6) & 63)
    return square_board(ranks, {"w": (WHITE_STONE, "#333333"), "b": (BLACK_STONE, "#000000")},
                        squares, f"Breakthrough, {'White' if side == 'w' else 'Black'} to move")


# ---- what the game declares about itself (see mcts_arena/games/info.py) ----------------------
from mcts_arena.games.info import GameInfo

GAME = GameInfo(
    name="breakthrough",
    description="Breakthrough 8x8: race a piece to the far rank",
    cls=Breakthrough,
    evals=Breakthrough.eval_functions,
    default_eval="efMS",
    eval_meanings={
        "efMS": "simple (Schadd): 10 per piece and 2.5 per row the furthest piece advanced, "
                "difference of the sides, tanh(d / 60)",
        "efLH": "sophisticated (Lorentz & Horey): a value per piece by its square, difference "
                "of the sides, tanh(d / 100)"},
    default_c=0.8,
    # the paper's MCTS(bl) and MCTS(bl') (docs/paper.md)
    macros={"bl": "efMS,ipp,ege0.1,det0.5", "bl'": "efLH,ipp,fet20,np"},
    options=frozenset({"policy", "np", "abp", "tactical"}),
    typical_plies=60,
    tuning={"im_base": {"efMS": "bl", "efLH": "bl'"}, "ipp_for": ("fet", "det"), "games": 200,
            "evals": ("efMS", "efLH")},
    bench_players=("MCTS", "MCTS(ipp)", "MCTS(bl)", "MCTS(bl,im0.4)", "MCTS(bl',im0.6)",
                   "αβ(efMS)"),
    gtp_colors=("w", "b"), gtp_boardsize=8,     # White moves first
    capabilities=frozenset({"gameframe"}),
    draw=draw,
)


# ---- knowledge: what a search knows of the game beyond its rules (state.pxd) ---------------------

cdef inline double _evaluate(Breakthrough s, int evalfn) noexcept nogil:
    cdef int r = s.result()
    cdef double d, v
    if r != ONGOING:
        return 1.0 if r == s.player else -1.0
    if evalfn == EF_LH:
        v = tanh((s.lh[0] - s.lh[1]) / 100.0)
    else:
        d = (10.0 * popcount(s.bb[0]) + 2.5 * s._advance(0)) \
            - (10.0 * popcount(s.bb[1]) + 2.5 * s._advance(1))
        if d > 100.0:
            d = 100.0
        elif d < -100.0:
            d = -100.0
        v = tanh(d / 60.0)
    return v if s.player == 0 else -v


cdef inline uint64_t _attacks(uint64_t b, int p) noexcept nogil:
    """The squares player p's pieces b could capture onto (diagonally ahead of them)."""
    if p == 0:
        return ((b & ~FILE_A) << 7) | ((b & ~FILE_H) << 9)
    return ((b & ~FILE_A) >> 9) | ((b & ~FILE_H) >> 7)


cdef inline int _on_row(Breakthrough s, int p, int row) noexcept nogil:
    """p's pieces on p's relative row `row` (0: its home row)."""
    return popcount(s.bb[p] & (RANK_1 << (8 * (row if p == 0 else 7 - row))))


cdef inline int _hanging(Breakthrough s, int p) noexcept nogil:
    """p's pieces the opponent attacks and no piece of p defends."""
    return popcount(s.bb[p] & _attacks(s.bb[1 - p], 1 - p) & ~_attacks(s.bb[p], p))


cdef inline int _features(Breakthrough s, double* out) noexcept nogil:
    """FEATURES, each the mover's less the opponent's."""
    cdef int me = s.player, op = 1 - s.player, k
    out[0] = 1.0
    out[1] = popcount(s.bb[me]) - popcount(s.bb[op])
    for k in range(1, 7):
        out[1 + k] = _on_row(s, me, k) - _on_row(s, op, k)
    out[8] = s._advance(me) - s._advance(op)
    out[9] = _on_row(s, me, 0) - _on_row(s, op, 0)
    out[10] = (s.lh[me] - s.lh[op]) / 100.0
    out[11] = _hanging(s, me) - _hanging(s, op)
    return 12


#: What `features` describes a position by (Knowledge.features): the tempo, then the mover's
#: count less the opponent's of pieces, of pieces on each relative row 1-6, of the most advanced
#: row, of pieces still home, efLH's table sum (/100), and of pieces attacked and undefended.
FEATURES = ("tempo", "pieces", "row1", "row2", "row3", "row4", "row5", "row6", "advance",
            "home", "lh", "hanging")


cdef inline int _net_planes(Breakthrough s, double* out) noexcept nogil:
    """NET_INPUT's encoding: 2 x 64 planes, the mover's pieces then the opponent's, on squares
    seen from the mover's side (Black's board flipped rank for rank, so both move up)."""
    cdef int me = s.player, side, sq, flip = 0 if me == 0 else 56
    cdef uint64_t b
    for sq in range(128):
        out[sq] = 0.0
    for side in range(2):
        b = s.bb[me if side == 0 else 1 - me]
        while b:
            sq = lsb(b)
            b &= b - 1
            out[64 * side + (sq ^ flip)] = 1.0
    return 128


cdef int _net_encode(GameState s, double* out) noexcept nogil:
    return _net_planes(<Breakthrough>s, out)


cdef int _net_action(GameState s, int move) noexcept nogil:
    """A move's action: its from-square seen from the mover's side x 3 (the file it goes to:
    left, straight, right, which a rank flip leaves as they are)."""
    cdef int fr = mv_from(move), to = mv_to(move)
    return 3 * (fr ^ (0 if s.player == 0 else 56)) + (to & 7) - (fr & 7) + 1


#: The network encoding (games/netinput.pxd): 128 inputs, 192 actions (64 squares x 3).
cdef NetInput NET_INPUT = net_input("breakthrough", "breakthrough-planes/1", 128, 192,
                                    _net_encode, _net_action)


cdef inline int _tactical_moves(Breakthrough s, int* out) noexcept nogil:
    """The captures and the moves onto the far row, in generation order."""
    cdef int n = s.gen_moves(out), i, k = 0
    for i in range(n):
        if s._is_capture(out[i]) or s._to_goal(out[i]):
            out[k] = out[i]
            k += 1
    return k


cdef inline int _move_order(Breakthrough s, int move) noexcept nogil:
    if s.is_decisive(move):
        return 4
    if s.is_anti_decisive(move):
        return 3
    if s._is_capture(move):
        return 1 if s.defended(mv_to(move)) else 2
    return 0


cdef inline double _move_prior(Breakthrough s, int move) noexcept nogil:
    cdef int p = s.player, o = 1 - p
    cdef int fr = mv_from(move), to = mv_to(move)
    cdef int goal_dist = (7 - (to >> 3)) if p == 0 else (to >> 3)
    cdef bint cap = s._is_capture(move)
    cdef int attackers = popcount(s._guards(o, to))
    # Defenders after the move: the moving piece has left `fr`.
    cdef int defenders = popcount(s._guards(p, to) & ~((<uint64_t>1) << fr))
    if attackers <= defenders:
        return NP_SAFE[goal_dist]
    return 0.60 if cap else 0.30


cdef inline double _move_bias(Breakthrough s, int move) noexcept nogil:
    return _move_order(s, move) / 4.0


cdef inline int _playout_move(Breakthrough s, int policy, int* moves, int n,
                              Rng* rng) noexcept nogil:
    """The paper's `ipp`, as the authors' engine plays it: the forced move if any
    (`forced_move`), else weighted random: a capture whose landing square no piece at all
    could be recaptured from (both squares diagonally ahead of it empty) 5, every other
    capture 2, a quiet move 1. (The paper's text reads "other captures 1" outside one's own
    half; the engine adds the extra weight to every capture.)

    Written for speed: the weight of move i is 1 + extra_i, where only captures have an
    extra; so a draw r < n picks moves[r] directly and only captures need looking at."""
    cdef int i, m, to, r, extra_total = 0, ncap = 0
    cdef int caps[MAX_MOVES]
    cdef int extras[MAX_MOVES]
    cdef int p = s.player, o = 1 - p
    cdef uint64_t opp = s.bb[o]
    cdef uint64_t occupied = s.bb[0] | s.bb[1]
    if policy != PP_IPP:
        return moves[rng_below(rng, n)]
    m = _forced_move(s, moves, n, rng)
    if m >= 0:
        return m
    for i in range(n):
        m = moves[i]
        to = mv_to(m)
        if (opp >> to) & 1:
            caps[ncap] = m
            extras[ncap] = 1 if s._guard_squares(o, to) & occupied else 4
            extra_total += extras[ncap]
            ncap += 1
    r = rng_below(rng, n + extra_total)
    if r < n:
        return moves[r]
    r -= n
    for i in range(ncap):
        r -= extras[i]
        if r < 0:
            return caps[i]
    return moves[n - 1]


cdef inline int _forced_move(Breakthrough s, int* moves, int n, Rng* rng) noexcept nogil:
    """ipp's first two rules (section 6): a move onto the far row at once; else a capture
    from the home row of a piece one step from winning (random among them); else -1."""
    cdef int i, m, nforced = 0
    cdef int forced[MAX_MOVES]
    cdef int p = s.player
    cdef uint64_t opp = s.bb[1 - p]
    cdef uint64_t home = RANK_1 if p == 0 else RANK_8
    cdef uint64_t pre_goal = (s.bb[p] & (0x00FF000000000000ULL if p == 0 else 0xFF00ULL))
    cdef uint64_t threats = opp & (0xFF00ULL if p == 0 else 0x00FF000000000000ULL)
    if pre_goal:
        for i in range(n):
            if s._to_goal(moves[i]):
                return moves[i]
    if threats:
        for i in range(n):
            m = moves[i]
            if (threats >> mv_to(m)) & 1 and (home >> mv_from(m)) & 1:
                forced[nforced] = m
                nforced += 1
        if nforced:
            return forced[rng_below(rng, nforced)]
    return -1


cdef inline double _eval_after(Breakthrough s, int move, int evalfn) noexcept nogil:
    """O(1) evaluation of the position after `move`, from the mover's view."""
    cdef int p = s.player, o = 1 - p
    cdef int fr = mv_from(move), to = mv_to(move)
    cdef uint64_t tob = (<uint64_t>1) << to
    cdef uint64_t b[2]
    cdef bint cap = (s.bb[o] & tob) != 0
    cdef double d, v
    cdef int adv0, adv1
    if s._to_goal(move):
        return 1.0
    b[p] = s.bb[p] ^ (((<uint64_t>1) << fr) | tob)
    b[o] = s.bb[o] & ~tob
    if b[o] == 0:
        return 1.0
    if evalfn == EF_LH:
        if p == 0:
            d = (s.lh[0] + LH[0][to] - LH[0][fr]) - (s.lh[1] - (LH[1][to] if cap else 0))
        else:
            d = (s.lh[0] - (LH[0][to] if cap else 0)) - (s.lh[1] + LH[1][to] - LH[1][fr])
        v = tanh(d / 100.0)
    else:
        adv0 = msb(b[0]) >> 3
        adv1 = 7 - (lsb(b[1]) >> 3)
        d = (10.0 * popcount(b[0]) + 2.5 * adv0) - (10.0 * popcount(b[1]) + 2.5 * adv1)
        if d > 100.0:
            d = 100.0
        elif d < -100.0:
            d = -100.0
        v = tanh(d / 60.0)
    return v if p == 0 else -v


cdef inline int _best_successor(Breakthrough s, int evalfn, int* moves, int n,
                                Rng* rng) noexcept nogil:
    """Greedy move by efMS/efLH on the raw score difference (tanh is monotonic, so the
    argmax and its ties are the same as on the scaled value; efMS keeps its clamp). Scores
    are integers (efMS doubled: 20 per piece, 5 per row) and the tied best moves are
    collected, so one random draw breaks the tie."""
    cdef int p = s.player, o = 1 - p
    cdef int i, m, fr, to, nbest = 0, d, best = -1000000
    cdef int n_own = popcount(s.bb[p]), n_opp = popcount(s.bb[o])
    cdef int adv_own = s._advance(p), adv_opp = s._advance(o), a_own, a_opp, rel
    cdef int tied[MAX_MOVES]
    cdef uint64_t tob, rest
    cdef bint cap
    for i in range(n):
        m = moves[i]
        fr = mv_from(m)
        to = mv_to(m)
        tob = (<uint64_t>1) << to
        cap = (s.bb[o] & tob) != 0
        rel = (to >> 3) if p == 0 else 7 - (to >> 3)
        if rel == 7 or (cap and n_opp == 1):
            return m
        if evalfn == EF_LH:
            d = (s.lh[p] + LH[p][to] - LH[p][fr]) - (s.lh[o] - (LH[o][to] if cap else 0))
        else:
            a_own = rel if rel > adv_own else adv_own
            a_opp = adv_opp
            if cap:
                rest = s.bb[o] & ~tob
                a_opp = (7 - (lsb(rest) >> 3)) if p == 0 else (msb(rest) >> 3)
            d = 20 * (n_own - n_opp + cap) + 5 * (a_own - a_opp)
            if d > 200:
                d = 200
            elif d < -200:
                d = -200
        if d > best:
            best = d
            tied[0] = m
            nbest = 1
        elif d == best:
            tied[nbest] = m
            nbest += 1
    return tied[rng_below(rng, nbest)] if nbest > 1 else tied[0]


cdef class BreakthroughKnowledge(Knowledge):
    """Breakthrough's evaluations (efMS, efLH), the paper's move categories as order, bias and
    node priors, and its `ipp` playout policy with the forced moves."""

    game = "breakthrough"
    feature_names = FEATURES

    def net_input(self):
        """The network encoding (games/netinput.pxd): 2 x 64 planes, 192 actions."""
        return NET_INPUT

    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        return _evaluate(<Breakthrough>s, evalfn)

    cdef int features(self, GameState s, double* out) noexcept nogil:
        return _features(<Breakthrough>s, out)

    cdef int tactical_moves(self, GameState s, int* out) noexcept nogil:
        return _tactical_moves(<Breakthrough>s, out)

    cdef int move_order(self, GameState s, int move) noexcept nogil:
        return _move_order(<Breakthrough>s, move)

    cdef double move_prior(self, GameState s, int move) noexcept nogil:
        return _move_prior(<Breakthrough>s, move)

    cdef double move_bias(self, GameState s, int move) noexcept nogil:
        return _move_bias(<Breakthrough>s, move)

    cdef int playout_move(self, GameState s, int policy, int* moves, int n,
                          Rng* rng) noexcept nogil:
        return _playout_move(<Breakthrough>s, policy, moves, n, rng)

    cdef int forced_move(self, GameState s, int* moves, int n, Rng* rng) noexcept nogil:
        return _forced_move(<Breakthrough>s, moves, n, rng)

    cdef double eval_after(self, GameState s, int move, int evalfn) noexcept nogil:
        return _eval_after(<Breakthrough>s, move, evalfn)

    cdef int best_successor(self, GameState s, int evalfn, int* moves, int n,
                            Rng* rng) noexcept nogil:
        return _best_successor(<Breakthrough>s, evalfn, moves, n, rng)
