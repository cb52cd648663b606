# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Lines of Action 8x8 on bitboards with incremental line counts.

Rules (the MSO rules as in Winands' thesis): Black (player 0) starts on b1-g1 and b8-g8 and moves
first; White (player 1) starts on a2-a7 and h2-h7. A piece moves in a straight line (8
directions) exactly as many squares as there are pieces of both colours on that whole line (row,
column or diagonal). It may jump over its own pieces but not over enemy pieces; it may land on an
enemy piece (capturing it) but not on its own. After a move: if the mover's pieces form one
8-connected group the mover wins (also when the move connects both sides at once); otherwise, if
the opponent's pieces form one group (a capture can do that), the opponent wins. A single
remaining piece is a connected group. A player with no legal move loses. A position repeated with
the same side to move is a draw: this core draws on the FIRST repetition (the current position
equals an earlier one with the same side to move, compared by 64-bit Zobrist hash; only
positions since the last capture can repeat, so the scan stops there). The order of the checks
after a move is: mover connected, opponent connected, repetition, opponent has no move.

Squares are `row * 8 + col`, row 0 = rank 1, col 0 = file a. A move is `from | to << 6`.
Notation: `b1-d3`, captures `b1xd3`. Text form (FEN-like): the ranks from 8 down to 1 with `b`
(Black), `w` (White), `.`, separated by `/`, then ` b` or ` w` for the side to move. Only moves
played on the object count for repetition (a position read from text has no history).

The line counts (8 rows, 8 columns, 15 diagonals, 15 anti-diagonals) and the line patterns
(each line's squares as a base-3 number: empty, Black, White) are kept in do/undo. A table per
line pattern gives the legal directions of every piece on the line and both sides' weighted
mobility along it, so move generation reads a piece's four lines (targets from precomputed
tables) and efWB's mobility is a sum of 46 table entries (issue 23: before, both scanned the 8
directions of every piece square by square). Connection is a bitboard flood fill (8-neighbour
dilation). `perft` does not expand finished games.

`random_playout` runs on local copies (bitboards, line counts and the hash, no undo records) and
ends games as the rules do, repetition draws included (issue 23: it had left them out); after
`max_plies` it returns ONGOING (callers score that as a draw).

Evaluations (side to move's view, in [-1, 1], +-1 for a decided game, 0 for a draw):

efWB, in the spirit of MIA's evaluator (M.H.M. Winands and H.J. van den Herik, "MIA: a world
champion LOA program", GPW 2006; M.H.M. Winands, "Informed Search in Complex Games", PhD thesis,
Maastricht 2004, ch. 8; M.H.M. Winands, J.W.H.M. Uiterwijk, H.J. van den Herik, "The quad
heuristic in Lines of Action", ICGA Journal 24(1), 2001; quad curvature classes after D. Dyer's
"LOA programmer's corner"). Per side, with n pieces:
- concentration: sum of Chebyshev distances of the pieces to their centre of mass, minus the
  minimal such sum for n pieces (0, 1 x8, 2 x16, 3 ...), averaged over n (lower is better);
- centralisation: average piece-square value (corner -1, other edge -0.5, second ring 0,
  third ring 0.25, centre 4 squares 0.5), the sum kept incrementally;
- quads: Euler number of the 8-connected piece set, 4E = Q1 - Q3 - 2*Qd over all 81 2x2
  quads including those hanging over the edge; a good estimate of the number of groups;
- mobility: legal moves weighted (capture 2, move onto the edge 0.5, other 1), used as the
  share (m_own - m_opp) / (m_own + m_opp);
- connectedness: 8-neighbour adjacent own pairs per piece;
- uniformity: area of the smallest rectangle holding the side's pieces, / 64;
- centre-of-mass position: Chebyshev distance of the centre of mass from the board centre.
Score S = 2.0*(conc_opp - conc_own) + 2.0*(cent_own - cent_opp) + 0.1*(E_opp - E_own)
        + 2.5*mobility share + 0.1*(conn_own - conn_opp) + 0.5*(unif_opp - unif_own)
        + 0.1*(compos_opp - compos_own);  value = tanh(S / 2).
The weights are ours (MIA's weights are not published): a first guess (1, 1, 0.4, 0.5, 0.3,
0.5, 0.1) refined by a few rounds of one-at-a-time changes in self-play of greedy 1-ply and
2-ply negamax players from random 3-ply openings (100-400 games per comparison). The 2-ply
player with these weights scored 0.94 against the first guess and 0.59 against 2-ply efLOA0.
The centre of mass sums, the piece-square sums and the line patterns (mobility) are
incremental, the rest are bitboard popcounts or a short loop over the pieces; a side's features
other than mobility depend on its pieces alone and are remembered per bitboard (a 4,096-entry
table per position object, with whether those pieces are connected), which a 2-ply search
reuses for most leaves.

For the 2-ply αβ playouts (issue 23) two answers come without the work of the generic search:
`ordered_moves` after a move that captured nothing merges the parent's replies (generated once
per parent, see ReplyBase) with those along the move's 7 lines, and `leaf_after` gives a leaf's
result and efWB score without playing the move. Both are exact: tests/test_loa_speed.py and
tools/loa_identity.py compare them with the plain generation, do_move and evaluate.

efLOA0 (cheap): concentration only, value = tanh((conc_opp - conc_own) / 1.5).

Move categories (after MC-LOA: M.H.M. Winands, Y. Bjornsson, J.-T. Saito, "Monte Carlo Tree
Search in Lines of Action", IEEE TCIAIG 2(4), 2010, and Winands & Bjornsson's realization-
probability work, where a move is categorised by capture or not, the board regions of its origin
and destination, and whether it goes toward or away from the mover's centre of mass). Here:
capture (2) x from-region (4) x to-region (4) x centre-of-mass direction (3) = 96 categories;
regions: corner, other edge square, second ring, central 4x4; direction: the Chebyshev distance to
the mover's centre of mass shrinks / stays / grows. MC-LOA learned a weight per category from
game records (the fraction of times a move of that category was played when available); lacking
those records we set weight = 16 * cap * to * from * com rounded, with factors
cap {quiet 1, capture 2}, to {corner 0.25, edge 0.5, ring2 1, centre 1.5},
from {corner 2, edge 1.5, ring2 1, centre 0.75}, com {toward 2, same 1, away 0.5}
(weights 2 .. 192). Used by the `ipp` playout policy (probability proportional to the weight),
`move_bias` (weight / 192, in [0, 1]) and `move_order` (the weight itself).
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset
from libc.math cimport fabs, tanh

from mcts_arena.bits cimport popcount, lsb, msb
from mcts_arena.rng cimport Rng, rng_below, rng_seed, splitmix64
import math

from mcts_arena.games.boardtext import format_ranks, parse_ranks
from mcts_arena.games.history cimport (History, history_copy, history_free, history_init,
                                        history_reserve)
from mcts_arena.games.state cimport (GameState, Leaf, MAX_MOVES, ONGOING, DRAW, EF_DEFAULT,
                                      PP_IPP)

# Evaluation functions (ids local to this game; 0, the default, is efWB).
cdef enum:
    EF_WB = 1      # MIA-style
    EF_LOA0 = 2    # cheap (concentration)

cdef uint64_t FILE_A = 0x0101010101010101ULL
cdef uint64_t FILE_H = 0x8080808080808080ULL
cdef uint64_t RANK_1 = 0xFFULL
cdef uint64_t RANK_8 = 0xFF00000000000000ULL
cdef uint64_t BORDER = FILE_A | FILE_H | RANK_1 | RANK_8
# Quad anchors (lower-left square) fully on the board: rows 0-6, cols 0-6.
cdef uint64_t INNER_ANCHORS = 0x007F7F7F7F7F7F7FULL

cdef enum:
    NLINES = 46          # 8 rows, 8 columns, 15 diagonals (r-c), 15 anti-diagonals (r+c)
    CAT_COUNT = 96
    W_MAX = 192

# Directions: E, W, N, S, NE, SW, NW, SE; line type of direction d is d >> 1.
cdef int DR[8]
cdef int DC[8]
DR[:] = [0, 0, 1, -1, 1, -1, 1, -1]
DC[:] = [1, -1, 0, 0, 1, -1, -1, 1]

cdef int LINE[64][4]          # line index of each square for each line type
cdef int TGT[64][8][8]        # target square of moving k squares in direction d, or -1
cdef uint64_t PATH[64][8][8]  # squares strictly between origin and target
cdef int REGION[64]           # 0 corner, 1 other edge, 2 second ring, 3 central 4x4
cdef int PST4[64]             # piece-square values x4
cdef int MINDIST[13]          # minimal sum of Chebyshev distances to a centre for n pieces

cdef int _sq, _d, _k, _r, _c, _t, _ring
for _sq in range(64):
    _r = _sq >> 3
    _c = _sq & 7
    LINE[_sq][0] = _r
    LINE[_sq][1] = 8 + _c
    LINE[_sq][2] = 16 + (_r - _c + 7)
    LINE[_sq][3] = 31 + (_r + _c)
    _ring = min(_r, 7 - _r, _c, 7 - _c)
    if _ring == 0:
        REGION[_sq] = 0 if (_r in (0, 7) and _c in (0, 7)) else 1
    else:
        REGION[_sq] = 2 if _ring == 1 else 3
    PST4[_sq] = (-4 if REGION[_sq] == 0 else -2) if _ring == 0 else [0, 0, 1, 2][_ring]
    for _d in range(8):
        for _k in range(8):
            TGT[_sq][_d][_k] = -1
            PATH[_sq][_d][_k] = 0
            if _k == 0:
                continue
            _t = 0
            if 0 <= _r + DR[_d] * _k < 8 and 0 <= _c + DC[_d] * _k < 8:
                TGT[_sq][_d][_k] = (_r + DR[_d] * _k) * 8 + _c + DC[_d] * _k
                for _t in range(1, _k):
                    PATH[_sq][_d][_k] |= (<uint64_t>1) << ((_r + DR[_d] * _t) * 8 + _c + DC[_d] * _t)

_md = [0] + [1] * 8 + [2] * 16
for _k in range(13):
    MINDIST[_k] = sum(_md[:_k])

# Line patterns (efWB's mobility from tables). Each of the 46 lines is read as a base-3 number
# over its squares in order (digit 0 empty, 1 Black, 2 White); LD[sq][t] is 3^(position of sq
# in its line of type t), so a piece arriving or leaving changes the line's index by +-(p+1) *
# LD. A line's index is kept offset by its table's start (LBASE), so MOBT[lidx[line]] is at once
# the weighted mobility (x2: capture 4, onto the edge 1, other 2) of both sides along that line:
# Black's in the low 16 bits, White's in the high 16. Every move lies on exactly one line, so
# the sum over the 46 lines is the whole weighted mobility. Three kinds of table, by which
# squares of the line are edge squares: the outer rows and columns (all of them), the other
# rows and columns and the two long diagonals (both ends), the shorter diagonals of length 1
# to 7 (both ends).
# MOVET[lidx[line]] has bit 2*pos (2*pos+1) set when the piece at position pos of the line may
# move toward higher (lower) positions along it: legal-move generation reads a piece's four
# lines instead of testing its eight directions square by square. LSH[sq][t] = 2 * position.
cdef int LD[64][4]
cdef int LSH[64][4]
cdef int LBASE[NLINES]
cdef unsigned int MOBT[16401]       # 6561 (outer) + 6561 (length 8) + 3 + 9 + ... + 2187
cdef unsigned short MOVET[16401]
# LTYPE[line]: a line's type (0 row, 1 column, 2 diagonal, 3 anti-diagonal); LMASK[sq]: bit
# `line` set for the four lines through sq (46 lines < 64).
cdef int LTYPE[NLINES]
cdef uint64_t LMASK[64]
# MOVES_OF[p][pattern]: MOVET's bits of the positions that hold p's pieces only (a side's moves
# along a line, 2 bits a position); LPOS[line][pos]: the square at a line's position.
cdef unsigned short MOVES_OF[2][16401]
cdef int LPOS[NLINES][8]


cdef int POW3[9]
POW3[:] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561]
cdef int SWAP2[4]
SWAP2[:] = [0, 2, 1, 3]


cdef void _fill_mobility(unsigned int* table, unsigned short* moves, int length,
                         bint all_edge, unsigned short* black, unsigned short* white) noexcept:
    cdef int pattern, x, i, k, j, d, t, p, w
    cdef int cell[8]
    cdef unsigned int packed, legal
    for pattern in range(POW3[length]):
        x = pattern
        k = 0
        for i in range(length):
            cell[i] = x % 3
            x //= 3
            if cell[i]:
                k += 1
        packed = 0
        legal = 0
        black[pattern] = 0
        white[pattern] = 0
        for i in range(length):
            if cell[i] == 0:
                continue
            p = cell[i] - 1
            for d in (-1, 1):
                t = i + d * k
                if t < 0 or t >= length or cell[t] == p + 1:
                    continue
                for j in range(1, k):
                    if cell[i + d * j] == 2 - p:      # an enemy piece in the way
                        break
                else:
                    if cell[t]:
                        w = 4
                    elif all_edge or t == 0 or t == length - 1:
                        w = 1
                    else:
                        w = 2
                    packed += <unsigned int>w << (16 * p)
                    legal |= 1u << (2 * i + (0 if d > 0 else 1))
                    if p == 0:
                        black[pattern] |= 1u << (2 * i + (0 if d > 0 else 1))
                    else:
                        white[pattern] |= 1u << (2 * i + (0 if d > 0 else 1))
        table[pattern] = packed
        moves[pattern] = <unsigned short>legal


cdef int _lines_init() except -1:
    cdef int sq, r, c, line, length, base = 0
    cdef int starts[9]
    _fill_mobility(&MOBT[0], &MOVET[0], 8, True, &MOVES_OF[0][0], &MOVES_OF[1][0])
    _fill_mobility(&MOBT[6561], &MOVET[6561], 8, False, &MOVES_OF[0][6561], &MOVES_OF[1][6561])
    base = 2 * 6561
    for length in range(1, 8):
        starts[length] = base
        _fill_mobility(&MOBT[base], &MOVET[base], length, False, &MOVES_OF[0][base],
                       &MOVES_OF[1][base])
        base += POW3[length]
    starts[8] = 6561
    for line in range(NLINES):
        if line < 16:                           # rows 0-7, columns 8-15
            LBASE[line] = 0 if (line & 7) in (0, 7) else 6561
        elif line < 31:                         # diagonals r - c + 7 = 0 .. 14
            LBASE[line] = starts[8 - abs(line - 16 - 7)]
        else:                                   # anti-diagonals r + c = 0 .. 14
            LBASE[line] = starts[8 - abs(line - 31 - 7)]
    for sq in range(64):
        r = sq >> 3
        c = sq & 7
        LD[sq][0] = POW3[c]
        LD[sq][1] = POW3[r]
        LD[sq][2] = POW3[min(r, c)]
        LD[sq][3] = POW3[c - max(0, r + c - 7)]
        LSH[sq][0] = 2 * c
        LSH[sq][1] = 2 * r
        LSH[sq][2] = 2 * min(r, c)
        LSH[sq][3] = 2 * (c - max(0, r + c - 7))
    for line in range(NLINES):
        LTYPE[line] = 0 if line < 8 else (1 if line < 16 else (2 if line < 31 else 3))
    for sq in range(64):
        LMASK[sq] = 0
        for r in range(4):
            LMASK[sq] |= (<uint64_t>1) << LINE[sq][r]
            LPOS[LINE[sq][r]][LSH[sq][r] >> 1] = sq
    return 0


_lines_init()

# Move-category weights (see the module docstring).
cdef int CAT_W[CAT_COUNT]
_CAP_F = (1.0, 2.0)
_FROM_F = (2.0, 1.5, 1.0, 0.75)
_TO_F = (0.25, 0.5, 1.0, 1.5)
_COM_F = (2.0, 1.0, 0.5)        # toward, same, away
for _cap in range(2):
    for _fr in range(4):
        for _to in range(4):
            for _dir in range(3):
                CAT_W[_cap * 48 + _fr * 12 + _to * 3 + _dir] = int(
                    16 * _CAP_F[_cap] * _FROM_F[_fr] * _TO_F[_to] * _COM_F[_dir] + 0.5)
# The rank of each category's weight among the distinct weights (0 = the lowest; 19 ranks): a
# stable sort by weight is a stable sort by rank, which ordered_moves does by counting.
cdef int CAT_R[CAT_COUNT]
_ranks = sorted({CAT_W[_i] for _i in range(CAT_COUNT)})
assert len(_ranks) <= 32
for _i in range(CAT_COUNT):
    CAT_R[_i] = _ranks.index(CAT_W[_i])

cdef uint64_t ZOB[2][64]
cdef uint64_t ZOB_SIDE
DEF NULL_MIN_PIECES = 4     # do_null refuses with this many pieces or fewer to move
cdef uint64_t _seed = 0x10A5EED5
for _sq in range(64):
    ZOB[0][_sq] = splitmix64(&_seed)
    ZOB[1][_sq] = splitmix64(&_seed)
ZOB_SIDE = splitmix64(&_seed)

# efWB weights
cdef double W_CONC = 2.0
cdef double W_CENT = 2.0
cdef double W_QUAD = 0.1
cdef double W_MOB = 2.5
cdef double W_CONN = 0.1
cdef double W_UNIF = 0.5
cdef double W_COMPOS = 0.1
cdef double WB_SCALE = 2.0
cdef double LOA0_SCALE = 1.5
# 1 / WB_SCALE when that is a power of two (then S * WB_INV is S / WB_SCALE to the last bit: both
# are the same real number rounded once), else 0 (divide): a division's latency was a tenth of
# a 2-ply αβ playout's leaf.
cdef double WB_INV = 0.5


cdef inline double wb_arg(double s) noexcept nogil:
    """efWB's tanh argument for the score s: s / WB_SCALE."""
    return s * WB_INV if WB_INV != 0.0 else s / WB_SCALE


# efWB's per-side features but mobility are functions of that side's pieces alone (its bitboard
# fixes the count, the sums and the shape), so they are remembered per bitboard: in a 2-ply
# search the side that did not make the last move keeps its pieces across all the replies, and
# the same reply recurs after different first moves. A direct-mapped table of FCACHE entries,
# allocated by a position at its first efWB evaluation; key 0 (no pieces) marks an empty entry.
DEF FCACHE = 4096


cdef struct SideFeatures:
    uint64_t key
    double f[6]        # conc, cent, euler, conn, unif, compos
    int connected      # are the pieces one group: 1, 0, or -1 (not asked yet)


# The replies shared between siblings (issue 23): a 2-ply αβ playout generates and orders the
# opponent's replies after each of its 8 first moves, and a first move that captures nothing
# changes those replies only along the lines through its two squares (their counts, what blocks,
# what can be captured there); the opponent's pieces, and so its centre of mass and every other
# reply's category, stay. A ReplyBase holds one side's moves in a position (the parent of the
# siblings), ordered as ordered_moves orders them (by key: the category rank above the
# generation position, so the order is rank first, then generation order), with each move's
# line; a child then regenerates only the replies along the changed lines and merges them in.
# One slot per parent ply (RSLOTS of them), so the nodes of a deeper search keep theirs.
DEF RSLOTS = 8


cdef struct ReplyBase:
    uint64_t bb[2]      # the parent position's pieces (both 0: an empty slot)
    int side            # whose moves
    int n
    int rd[8]           # |n * row - sum of rows| of side's pieces (the centre-of-mass distance)
    int cd[8]
    int mv[96]
    int key[96]         # rank << 9 | (511 - generation position), larger first
    unsigned char ln[96]
    unsigned char index[4096]   # index[m]: m's place in mv when m is there (mv says so)


cdef struct Undo:
    int move
    int captured
    int res
    int irrev
    uint64_t hash
    uint64_t seen       # bit hash >> 58 of this position and of the earlier ones of its
                        # parity since the last capture: no bit, no repetition to look for


cdef inline int mv_from(int m) noexcept nogil:
    return m & 63


cdef inline int mv_to(int m) noexcept nogil:
    return m >> 6


# MOVE_LT[fr][to]: the type of the line a move from fr to to goes along (0 row, 1 column, 2
# diagonal, 3 anti-diagonal; 0 for squares on no common line, which no move joins).
cdef unsigned char MOVE_LT[64][64]
for _sq in range(64):
    for _t in range(64):
        MOVE_LT[_sq][_t] = 0
        for _k in range(4):
            if LINE[_sq][_k] == LINE[_t][_k]:
                MOVE_LT[_sq][_t] = _k
                break


cdef inline int iabs(int x) noexcept nogil:
    return -x if x < 0 else x


cdef inline void com_distances(int n, int sr, int sc, int* rd, int* cd) noexcept nogil:
    """rd[r], cd[c] := n times the distance of row r, column c from the centre of mass of n
    pieces whose rows and columns sum to sr, sc (a square's Chebyshev distance, times n, is
    the greater of its row's and its column's)."""
    cdef int i
    for i in range(8):
        rd[i] = iabs(n * i - sr)
        cd[i] = iabs(n * i - sc)


cdef inline int com_distance(const int* rd, const int* cd, int sq) noexcept nogil:
    return rd[sq >> 3] if rd[sq >> 3] > cd[sq & 7] else cd[sq & 7]


cdef inline int com_distance_of(int n, int sr, int sc, int sq) noexcept nogil:
    """n times the Chebyshev distance of sq from the centre of mass of n pieces whose rows and
    columns sum to sr, sc (com_distance's value without the tables)."""
    cdef int dr = iabs(n * (sq >> 3) - sr), dc = iabs(n * (sq & 7) - sc)
    return dr if dr > dc else dc


cdef inline int category_of(uint64_t opp, int fr, int to, int d0, int d1) noexcept nogil:
    """The move fr-to's category (module docstring): capture (the opponent's pieces opp), the
    regions of origin and target, and whether the target's centre-of-mass distance d1 is
    below, equal to or above the origin's d0."""
    return (<int>((opp >> to) & 1) * 48 + REGION[fr] * 12 + REGION[to] * 3
            + <int>(d1 >= d0) + <int>(d1 > d0))


cdef inline int category_rank(uint64_t opp, int fr, int to, int d0, int d1) noexcept nogil:
    """CAT_R of category_of's category."""
    return CAT_R[category_of(opp, fr, to, d0, d1)]


cdef inline bint connected(uint64_t b) noexcept nogil:
    """Do the pieces in b form one 8-connected group (true for 0 or 1 piece)?"""
    cdef uint64_t g, x, rows, cols
    if b == 0:
        return True
    # A group spans a run of rows and a run of columns without a gap: an empty row or column
    # between two occupied ones means two groups, found without the flood fill (most of the
    # positions a search meets: a side starts on two opposite edges).
    x = b | (b >> 4)
    x |= x >> 2
    x |= x >> 1
    rows = ((x & FILE_A) * <uint64_t>0x0102040810204080) >> 56    # bit r: row r occupied
    rows >>= lsb(rows)
    if rows & (rows + 1):
        return False
    cols = b | (b >> 32)
    cols |= cols >> 16
    cols |= cols >> 8
    cols &= 0xFF
    cols >>= lsb(cols)
    if cols & (cols + 1):
        return False
    g = b & (~b + 1)
    while True:
        x = g | (g << 8) | (g >> 8)
        x = (x | ((x << 1) & ~FILE_A) | ((x >> 1) & ~FILE_H)) & b
        if x == g:
            return g == b
        g = x


cdef inline int gen_into(uint64_t own, uint64_t opp, const unsigned char* cnt, int* out) noexcept nogil:
    """Legal moves of the side owning `own` given the line counts `cnt`."""
    cdef uint64_t x = own
    cdef int n = 0, sq, d, k, t
    while x:
        sq = lsb(x)
        x &= x - 1
        for d in range(8):
            k = cnt[LINE[sq][d >> 1]]
            t = TGT[sq][d][k]
            if t >= 0 and (PATH[sq][d][k] & opp) == 0 and ((own >> t) & 1) == 0:
                out[n] = sq | (t << 6)
                n += 1
    return n


cdef inline bint any_move(uint64_t own, uint64_t opp, const unsigned char* cnt) noexcept nogil:
    cdef uint64_t x = own
    cdef int sq, d, k, t
    while x:
        sq = lsb(x)
        x &= x - 1
        for d in range(8):
            k = cnt[LINE[sq][d >> 1]]
            t = TGT[sq][d][k]
            if t >= 0 and (PATH[sq][d][k] & opp) == 0 and ((own >> t) & 1) == 0:
                return True
    return False


cdef inline int euler4(uint64_t b) noexcept nogil:
    """4 x Euler number (8-connectivity) of the piece set b: Q1 - Q3 - 2*Qd over 81 quads."""
    cdef uint64_t a = b, bq = b >> 1, c = b >> 8, d = b >> 9
    cdef uint64_t m = INNER_ANCHORS
    cdef uint64_t ones, threes, diag, row, col
    cdef int q1, q3, qd
    ones = a ^ bq ^ c ^ d       # an odd number of the four squares: 1 or 3
    threes = ((a & bq & c) | (a & bq & d) | (a & c & d) | (bq & c & d)) & ~(a & bq & c & d)
    q3 = popcount(threes & m)
    q1 = popcount(ones & ~threes & m)
    diag = ((a & d & ~bq & ~c) | (bq & c & ~a & ~d)) & m
    qd = popcount(diag)
    # edge quads (two squares on the board) and corner quads (one square): Q1 only
    row = b & RANK_1
    q1 += popcount((row ^ (row >> 1)) & 0x7FULL)
    row = (b >> 56) & 0xFFULL
    q1 += popcount((row ^ (row >> 1)) & 0x7FULL)
    col = b & FILE_A
    q1 += popcount((col ^ (col >> 8)) & 0x0001010101010101ULL)
    col = (b >> 7) & FILE_A
    q1 += popcount((col ^ (col >> 8)) & 0x0001010101010101ULL)
    q1 += <int>(b & 1) + <int>((b >> 7) & 1) + <int>((b >> 56) & 1) + <int>((b >> 63) & 1)
    return q1 - q3 - 2 * qd


cdef inline int adjacent_pairs(uint64_t b) noexcept nogil:
    """Number of 8-neighbour adjacent pairs of pieces in b."""
    return (popcount(b & ((b << 1) & ~FILE_A)) + popcount(b & (b << 8))
            + popcount(b & ((b << 9) & ~FILE_A)) + popcount(b & ((b << 7) & ~FILE_H)))


# A side's efWB features but mobility, from its bitboard alone (the piece count, the sums of
# rows and columns and the piece-square sum are popcounts over fixed masks: the integers the
# position keeps incrementally, so the features are the same to the last bit).
cdef uint64_t ROWBIT[3]         # squares whose row has bit k set
cdef uint64_t COLBIT[3]
cdef uint64_t PSTMASK[4]        # squares of piece-square value -4, -2, +1, +2 (x4)
for _k in range(3):
    ROWBIT[_k] = 0
    COLBIT[_k] = 0
    for _sq in range(64):
        if ((_sq >> 3) >> _k) & 1:
            ROWBIT[_k] |= (<uint64_t>1) << _sq
        if ((_sq & 7) >> _k) & 1:
            COLBIT[_k] |= (<uint64_t>1) << _sq
for _k in range(4):
    PSTMASK[_k] = 0
    for _sq in range(64):
        if PST4[_sq] == (-4, -2, 1, 2)[_k]:
            PSTMASK[_k] |= (<uint64_t>1) << _sq


cdef inline double conc_of(uint64_t x, int n, int sr, int sc) noexcept nogil:
    """Concentration of the pieces x (n of them, sums of rows and columns sr, sc): the average
    surplus Chebyshev distance to their centre of mass (0 = tightly packed)."""
    cdef int sq, tot = 0
    if n <= 1:
        return 0.0
    while x:
        sq = lsb(x)
        x &= x - 1
        tot += com_distance_of(n, sr, sc, sq)
    # tot is the distance sum scaled by n
    return (tot / <double>n - MINDIST[n]) / n


cdef inline double area_of(uint64_t b) noexcept nogil:
    """Area of the smallest rectangle holding the pieces b, / 64 (uniformity)."""
    cdef uint64_t cols
    cdef int rlo, rhi, clo, chi
    if b == 0:
        return 0.0
    rlo = lsb(b) >> 3
    rhi = msb(b) >> 3
    cols = b | (b >> 32)
    cols |= cols >> 16
    cols |= cols >> 8
    cols &= 0xFF
    clo = lsb(cols)
    chi = msb(cols)
    return (rhi - rlo + 1) * (chi - clo + 1) / 64.0


cdef inline double compos_of(int n, int sr, int sc) noexcept nogil:
    """Chebyshev distance of the centre of mass from the board centre (3.5, 3.5)."""
    cdef double dr, dc
    if n == 0:
        return 0.0
    # fabs, not a branch on the sign (the same value: these differences are never -0.0)
    dr = fabs(sr / <double>n - 3.5)
    dc = fabs(sc / <double>n - 3.5)
    return dr if dr > dc else dc


cdef inline void side_features(uint64_t b, double* f) noexcept nogil:
    """f[0..5] := conc, cent, euler, conn, unif, compos of the pieces b."""
    cdef int n = popcount(b)
    cdef int sr = popcount(b & ROWBIT[0]) + 2 * popcount(b & ROWBIT[1]) + 4 * popcount(b & ROWBIT[2])
    cdef int sc = popcount(b & COLBIT[0]) + 2 * popcount(b & COLBIT[1]) + 4 * popcount(b & COLBIT[2])
    cdef int pst = (-4 * popcount(b & PSTMASK[0]) - 2 * popcount(b & PSTMASK[1])
                    + popcount(b & PSTMASK[2]) + 2 * popcount(b & PSTMASK[3]))
    f[0] = conc_of(b, n, sr, sc)
    f[1] = pst / (4.0 * n) if n > 0 else 0.0
    f[2] = euler4(b) / 4.0
    f[3] = adjacent_pairs(b) / <double>n if n > 0 else 0.0
    f[4] = area_of(b)
    f[5] = compos_of(n, sr, sc)


cdef inline double wb_combine(const double* a, const double* b) noexcept nogil:
    """The efWB score S from the features of the side to move (a) and of the other (b)."""
    cdef double mt = a[3] + b[3]
    cdef double s = (W_CONC * (b[0] - a[0]) + W_CENT * (a[1] - b[1]) + W_QUAD * (b[2] - a[2])
                     + W_CONN * (a[4] - b[4]) + W_UNIF * (b[5] - a[5]) + W_COMPOS * (b[6] - a[6]))
    if mt > 0:
        s += W_MOB * (a[3] - b[3]) / mt
    return s


cdef inline int keep_by_rank(const int* mv, const unsigned char* rk, int n, const int* cntr,
                             uint64_t present, int width, int* out) noexcept nogil:
    """out[0:cap] := the `width` best of mv[0:n] (all when width <= 0) by rank rk (higher first),
    equal ranks in the order given: what a stable sort by rank cut to `width` keeps (cntr[r]:
    how many have rank r; present: bit r set for each rank there). The ranks present, from the
    highest, give where each one's moves start, down to the cut-off rank `top`, of which only
    the first `need` are kept; one pass then writes each kept move in its place, the others
    to a spare slot, without a data-dependent branch. Returns cap."""
    cdef int res[MAX_MOVES + 1]
    cdef int start[32]
    cdef int cap = width if 0 < width < n else n
    cdef int pos = 0, top = 0, need = 0, r, i, keep
    cdef uint64_t bits = present
    memset(start, 0, sizeof(start))
    while bits:
        r = msb(bits)
        bits ^= (<uint64_t>1) << r
        start[r] = pos
        if pos + cntr[r] >= cap:
            top = r
            need = cap - pos
            break
        pos += cntr[r]
    for i in range(n):
        r = rk[i]
        keep = <int>(r > top) | (<int>(r == top) & <int>(need > 0))
        # the index by arithmetic: GCC compiles a conditional expression here to a branch
        res[MAX_MOVES + ((start[r] - MAX_MOVES) & -keep)] = mv[i]
        start[r] += keep
        need -= keep & <int>(r == top)
    memcpy(out, res, cap * sizeof(int))
    return cap


cdef class LinesOfAction(GameState):
    """Lines of Action position; see the module docstring for rules and conventions."""

    name = "loa"
    eval_functions = {"efWB": EF_WB, "efLOA0": EF_LOA0}

    cdef uint64_t bb[2]
    cdef unsigned char cnt[NLINES]
    cdef unsigned short lidx[NLINES]   # line patterns: MOBT index of each line (see LD)
    cdef int npieces[2]
    cdef int sumr[2]
    cdef int sumc[2]
    cdef int pst[2]
    cdef int res
    cdef int irrev          # ply of the position after the last capture (repetition window)
    cdef History hist
    cdef SideFeatures* fcache   # efWB side features by bitboard (NULL until the first use)
    cdef History pbuf           # random_playout's hashes since its start (scratch, not cloned)
    cdef ReplyBase* rbase       # RSLOTS reply bases (NULL until the first use; not cloned)
    cdef uint64_t mob_key[2]    # the position whose both sides' mobility mob_val holds
    cdef unsigned int mob_val   # (leaf_after's start; both keys 0: none)

    def __cinit__(self):
        self.max_moves = 96          # 12 pieces x 8 directions
        history_init(&self.hist, sizeof(Undo))
        history_init(&self.pbuf, sizeof(uint64_t), 64)

    def __dealloc__(self):
        history_free(&self.hist)
        history_free(&self.pbuf)
        free(self.fcache)
        free(self.rbase)

    def __init__(self):
        self._set(0x7E0000000000007EULL, 0x0081818181818100ULL, 0)

    cdef void _set(self, uint64_t black, uint64_t white, int player):
        cdef int sq, p, t
        self.bb[0] = black
        self.bb[1] = white
        self.player = player
        self.ply = 0
        self.irrev = 0
        self.hash = ZOB_SIDE if player == 1 else 0
        for t in range(NLINES):
            self.cnt[t] = 0
            self.lidx[t] = LBASE[t]
        for p in range(2):
            self.npieces[p] = 0
            self.sumr[p] = 0
            self.sumc[p] = 0
            self.pst[p] = 0
        for sq in range(64):
            for p in range(2):
                if (self.bb[p] >> sq) & 1:
                    self.hash ^= ZOB[p][sq]
                    self.npieces[p] += 1
                    self.sumr[p] += sq >> 3
                    self.sumc[p] += sq & 7
                    self.pst[p] += PST4[sq]
                    for t in range(4):
                        self.cnt[LINE[sq][t]] += 1
                        self.lidx[LINE[sq][t]] += (p + 1) * LD[sq][t]
        # Decide a set-up position as if the side not to move had just moved.
        p = 1 - player
        if connected(self.bb[p]):
            self.res = p
        elif connected(self.bb[player]):
            self.res = player
        elif not any_move(self.bb[player], self.bb[p], self.cnt):
            self.res = p
        else:
            self.res = ONGOING

    # ---- rules ----------------------------------------------------------------------------
    cdef inline int _dirs(self, int sq) noexcept nogil:
        """The legal directions of the piece on sq, bit d for direction d (E W N S NE SW NW SE),
        from its four lines' patterns: E/W on the row, N/S on the column, NE/SW on the
        diagonal take the higher position first; on the anti-diagonal NW goes to lower
        positions (columns), SE to higher, hence the swap."""
        return (((MOVET[self.lidx[LINE[sq][0]]] >> LSH[sq][0]) & 3)
                | (((MOVET[self.lidx[LINE[sq][1]]] >> LSH[sq][1]) & 3) << 2)
                | (((MOVET[self.lidx[LINE[sq][2]]] >> LSH[sq][2]) & 3) << 4)
                | (SWAP2[(MOVET[self.lidx[LINE[sq][3]]] >> LSH[sq][3]) & 3] << 6))

    cdef int gen_moves(self, int* out) noexcept nogil:
        """gen_into's moves in gen_into's order (piece by piece from a1, directions E W N S
        NE SW NW SE), read from the line patterns: a piece's legal directions are two bits
        of each of its four lines' MOVET entries."""
        cdef uint64_t x = self.bb[self.player]
        cdef int n = 0, sq, d, dirs
        while x:
            sq = lsb(x)
            x &= x - 1
            dirs = self._dirs(sq)
            while dirs:
                d = lsb(dirs)
                dirs &= dirs - 1
                out[n] = sq | (TGT[sq][d][self.cnt[LINE[sq][d >> 1]]] << 6)
                n += 1
        return n

    cdef inline void _lines(self, int sq, int delta) noexcept nogil:
        self.cnt[LINE[sq][0]] += delta
        self.cnt[LINE[sq][1]] += delta
        self.cnt[LINE[sq][2]] += delta
        self.cnt[LINE[sq][3]] += delta

    cdef inline void _patterns(self, int sq, int digit) noexcept nogil:
        """The line patterns through sq with `digit` added there (+-1 Black, +-2 White, +-1
        for White replacing Black, ...)."""
        self.lidx[LINE[sq][0]] += digit * LD[sq][0]
        self.lidx[LINE[sq][1]] += digit * LD[sq][1]
        self.lidx[LINE[sq][2]] += digit * LD[sq][2]
        self.lidx[LINE[sq][3]] += digit * LD[sq][3]

    cdef inline bint _has_move(self, int side) noexcept nogil:
        """Has `side` a legal move? Read from its pieces' line patterns (as gen_moves), piece
        by piece until one can move: any_move's answer without its square-by-square walk."""
        cdef uint64_t x = self.bb[side]
        cdef int sq
        while x:
            sq = lsb(x)
            x &= x - 1
            if self._dirs(sq):
                return True
        return False

    cdef inline bint _repeated(self) noexcept nogil:
        """Is the current position (just reached) equal to an earlier one, same side to move?"""
        cdef int j = self.ply - 4
        if j < self.irrev or not ((<Undo*>self.hist.data)[j].seen >> (self.hash >> 58)) & 1:
            return False        # no earlier position of this parity has the hash's top bits
        while j >= self.irrev:
            if (<Undo*>self.hist.data)[j].hash == self.hash:
                return True
            j -= 2
        return False

    cdef void do_move(self, int move) noexcept nogil:
        cdef int p = self.player, o = 1 - p
        cdef int fr = mv_from(move), to = mv_to(move)
        cdef uint64_t tob = (<uint64_t>1) << to
        cdef Undo* u
        history_reserve(&self.hist, self.ply + 1)
        u = &(<Undo*>self.hist.data)[self.ply]
        u.move = move
        u.hash = self.hash
        u.res = self.res
        u.irrev = self.irrev
        u.seen = (<uint64_t>1) << (self.hash >> 58)
        if self.ply - 2 >= self.irrev:
            u.seen |= (<Undo*>self.hist.data)[self.ply - 2].seen
        u.captured = (self.bb[o] & tob) != 0
        if u.captured:
            self.bb[o] ^= tob
            self.hash ^= ZOB[o][to]
            self.npieces[o] -= 1
            self.sumr[o] -= to >> 3
            self.sumc[o] -= to & 7
            self.pst[o] -= PST4[to]
            self.irrev = self.ply + 1
            self._patterns(to, p - o)
        else:
            self._lines(to, 1)
            self._patterns(to, p + 1)
        self._lines(fr, -1)
        self._patterns(fr, -(p + 1))
        self.bb[p] ^= ((<uint64_t>1) << fr) | tob
        self.hash ^= ZOB[p][fr] ^ ZOB[p][to] ^ ZOB_SIDE
        self.sumr[p] += (to >> 3) - (fr >> 3)
        self.sumc[p] += (to & 7) - (fr & 7)
        self.pst[p] += PST4[to] - PST4[fr]
        self.player = o
        self.ply += 1
        if connected(self.bb[p]):
            self.res = p
        elif u.captured and connected(self.bb[o]):
            self.res = o
        elif self._repeated():
            self.res = DRAW
        elif not self._has_move(o):
            self.res = p
        else:
            self.res = ONGOING

    cdef void undo_move(self) noexcept nogil:
        self.ply -= 1
        cdef Undo* u = &(<Undo*>self.hist.data)[self.ply]
        cdef int p = 1 - self.player, o = self.player
        cdef int fr = mv_from(u.move), to = mv_to(u.move)
        cdef uint64_t tob = (<uint64_t>1) << to
        self.bb[p] ^= ((<uint64_t>1) << fr) | tob
        self.sumr[p] -= (to >> 3) - (fr >> 3)
        self.sumc[p] -= (to & 7) - (fr & 7)
        self.pst[p] -= PST4[to] - PST4[fr]
        self._lines(fr, 1)
        self._patterns(fr, p + 1)
        if u.captured:
            self.bb[o] |= tob
            self.npieces[o] += 1
            self.sumr[o] += to >> 3
            self.sumc[o] += to & 7
            self.pst[o] += PST4[to]
            self._patterns(to, o - p)
        else:
            self._lines(to, -1)
            self._patterns(to, -(p + 1))
        self.hash = u.hash
        self.res = u.res
        self.irrev = u.irrev
        self.player = p

    cdef int result(self) noexcept nogil:
        return self.res

    # ---- evaluations ----------------------------------------------------------------------
    cdef inline double _concentration(self, int p) noexcept nogil:
        return conc_of(self.bb[p], self.npieces[p], self.sumr[p], self.sumc[p])

    cdef inline unsigned int _mobility2_both(self) noexcept nogil:
        """Weighted mobility x2 of both sides (capture 4, move onto the edge 1, other 2):
        Black's in the low 16 bits, White's in the high 16, from the 46 line patterns."""
        cdef unsigned int m = 0
        cdef int i
        for i in range(NLINES):
            m += MOBT[self.lidx[i]]
        return m

    cdef int _mobility2_by_pieces(self, int p) noexcept nogil:
        """The same for one side, move by move (the reference the tables are checked
        against)."""
        cdef uint64_t own = self.bb[p], opp = self.bb[1 - p], x = own
        cdef int m = 0, sq, d, k, t
        while x:
            sq = lsb(x)
            x &= x - 1
            for d in range(8):
                k = self.cnt[LINE[sq][d >> 1]]
                t = TGT[sq][d][k]
                if t >= 0 and (PATH[sq][d][k] & opp) == 0 and ((own >> t) & 1) == 0:
                    if (opp >> t) & 1:
                        m += 4
                    elif (BORDER >> t) & 1:
                        m += 1
                    else:
                        m += 2
        return m

    cdef inline SideFeatures* _side(self, uint64_t b) noexcept nogil:
        """The cache entry of the pieces b, filled on a miss (NULL: no memory for the cache)."""
        cdef SideFeatures* e
        if self.fcache == NULL:
            self.fcache = <SideFeatures*>calloc(FCACHE, sizeof(SideFeatures))
            if self.fcache == NULL:
                return NULL
        e = &self.fcache[(b * <uint64_t>0x9E3779B97F4A7C15) >> 52]
        if e.key != b:
            e.key = b
            side_features(b, e.f)
            # one 8-connected group has Euler number 1 - holes <= 1: above it, no flood fill
            e.connected = 0 if e.f[2] > 1.0 else -1
        return e

    cdef void _features(self, int p, int mob2, double* f) noexcept nogil:
        """Raw efWB features of player p: conc, cent, euler, mob, conn, unif, compos; mob2 is
        p's weighted mobility x2 (from _mobility2_both). All but mobility come from the
        side's cache entry (computed from the bitboard alone: the same bits)."""
        cdef double g[6]
        cdef SideFeatures* e = self._side(self.bb[p])
        cdef double* h = g
        if e != NULL:
            h = &e.f[0]
        else:                   # no memory for the cache: compute
            side_features(self.bb[p], g)
        f[0] = h[0]
        f[1] = h[1]
        f[2] = h[2]
        f[4] = h[3]
        f[5] = h[4]
        f[6] = h[5]
        f[3] = mob2 / 2.0

    cdef double wb_score(self) noexcept nogil:
        """The efWB score S from the side to move's view (before the tanh)."""
        cdef double a[7]
        cdef double b[7]
        cdef unsigned int m = self._mobility2_both()
        cdef int shift = 16 * self.player
        self._features(self.player, (m >> shift) & 0xFFFF, a)
        self._features(1 - self.player, (m >> (16 - shift)) & 0xFFFF, b)
        return wb_combine(a, b)

    cdef double evaluate(self, int evalfn) noexcept nogil:
        cdef int r = self.res
        if r != ONGOING:
            if r == DRAW:
                return 0.0
            return 1.0 if r == self.player else -1.0
        if evalfn == EF_LOA0:
            return tanh((self._concentration(1 - self.player)
                         - self._concentration(self.player)) / LOA0_SCALE)
        return tanh(wb_arg(self.wb_score()))

    cdef Leaf leaf_after(self, int move, int evalfn) noexcept nogil:
        """GameState.leaf_after without playing the move (efWB; efLOA0 plays it): the rules'
        checks in do_move's order on the pieces after it (connection from the side's cache
        entry, repetition from the hash, a legal move for the opponent from its mobility),
        the mobility as this position's (kept for its next leaves) plus the change along the
        move's 7 lines, and the features from the sides' cache entries: what do_move,
        evaluate_tanh_arg and undo_move give, to the last bit (issue 23: a 2-ply αβ playout's
        leaves were 40% of its time)."""
        cdef Leaf leaf
        cdef int p = self.player, o = 1 - p, fr = mv_from(move), to = mv_to(move), j, k, t, t0
        cdef int dt, own
        cdef uint64_t tob = (<uint64_t>1) << to, bp, bo, h
        cdef unsigned int mob, before = 0, after = 0
        cdef bint cap
        cdef SideFeatures* e
        cdef double a[7]
        cdef double b[7]
        if evalfn == EF_LOA0 or self.res != ONGOING:
            return GameState.leaf_after(self, move, evalfn)
        bp = self.bb[p] ^ (((<uint64_t>1) << fr) | tob)
        bo = self.bb[o]
        cap = (bo & tob) != 0
        e = self._side(bp)
        if e == NULL:
            return GameState.leaf_after(self, move, evalfn)
        leaf.player = o
        leaf.is_arg = False
        leaf.x = 0.0
        if e.connected < 0:
            e.connected = connected(bp)
        if e.connected:
            leaf.res = p
            return leaf
        b[0] = e.f[0]           # copied now: the opponent's entry may take this slot
        b[1] = e.f[1]
        b[2] = e.f[2]
        b[4] = e.f[3]
        b[5] = e.f[4]
        b[6] = e.f[5]
        if cap:
            bo ^= tob
            e = self._side(bo)
            if e.connected < 0:
                e.connected = connected(bo)
            if e.connected:
                leaf.res = o
                return leaf
        else:
            # do_move's _repeated (a capture starts a new window: nothing to compare)
            h = self.hash ^ ZOB[p][fr] ^ ZOB[p][to] ^ ZOB_SIDE
            j = self.ply - 3
            if j >= self.irrev and not ((<Undo*>self.hist.data)[j].seen >> (h >> 58)) & 1:
                j = -1          # no earlier position of this parity has h's top bits
            while j >= self.irrev:
                if (<Undo*>self.hist.data)[j].hash == h:
                    leaf.res = DRAW
                    return leaf
                j -= 2
        if self.mob_key[0] != self.bb[0] or self.mob_key[1] != self.bb[1]:
            self.mob_key[0] = self.bb[0]
            self.mob_key[1] = self.bb[1]
            self.mob_val = self._mobility2_both()
        # the 7 lines through fr and to, their patterns after the move: the piece leaves fr
        # (digit p+1 off), lands on to (p+1 on; over the opponent's digit on a capture); the
        # move's own line (t0) has both
        t0 = MOVE_LT[fr][to]
        dt = (p - o) if cap else p + 1
        for t in range(4):
            # without a branch on t == t0 (the move's line type, a new one each leaf): there
            # to's line is fr's, counted once with both changes
            own = -<int>(t == t0)
            k = self.lidx[LINE[fr][t]]
            j = self.lidx[LINE[to][t]]
            before += MOBT[k] + (MOBT[j] & ~<unsigned int>own)
            after += (MOBT[k - (p + 1) * LD[fr][t] + (dt * LD[to][t] & own)]
                      + (MOBT[j + dt * LD[to][t]] & ~<unsigned int>own))
        mob = self.mob_val - before + after
        if (mob >> (16 * o)) & 0xFFFF == 0:
            # no legal move for the opponent (every legal move has a positive weight)
            leaf.res = p
            return leaf
        e = self._side(bo)
        a[0] = e.f[0]
        a[1] = e.f[1]
        a[2] = e.f[2]
        a[4] = e.f[3]
        a[5] = e.f[4]
        a[6] = e.f[5]
        a[3] = ((mob >> (16 * o)) & 0xFFFF) / 2.0
        b[3] = ((mob >> (16 * p)) & 0xFFFF) / 2.0
        leaf.res = ONGOING
        leaf.is_arg = True
        leaf.x = wb_arg(wb_combine(a, b))
        return leaf

    cdef bint evaluate_tanh_arg(self, int evalfn, double* x) noexcept nogil:
        """evaluate's argument of tanh for an ongoing position (both evaluations are tanh of
        a score): the 2-ply αβ playout takes tanh of the few leaves that can change its value."""
        if self.res != ONGOING:
            return False
        if evalfn == EF_LOA0:
            x[0] = (self._concentration(1 - self.player)
                    - self._concentration(self.player)) / LOA0_SCALE
        else:
            x[0] = wb_arg(self.wb_score())
        return True

    # ---- knowledge ------------------------------------------------------------------------
    cdef inline int _category(self, int move) noexcept nogil:
        cdef int p = self.player, n = self.npieces[p], sr = self.sumr[p], sc = self.sumc[p]
        cdef int fr = mv_from(move), to = mv_to(move)
        return category_of(self.bb[1 - p], fr, to, com_distance_of(n, sr, sc, fr),
                           com_distance_of(n, sr, sc, to))

    cdef int move_order(self, int move) noexcept nogil:
        return CAT_W[self._category(move)]

    cdef int select_best(self, int* moves, int n, int width) noexcept nogil:
        """GameState.select_best by counting the moves' weight ranks (as _ordered_full): the
        same moves in the same order, without keys or an insertion sort."""
        cdef int tmp[MAX_MOVES]
        cdef unsigned char rk[MAX_MOVES]
        cdef int cntr[32]
        cdef int rd[8]
        cdef int cd[8]
        cdef int p = self.player
        cdef uint64_t opp = self.bb[1 - p], present = 0
        cdef int i, m, fr, to, r
        if n > MAX_MOVES:
            return GameState.select_best(self, moves, n, width)
        memset(cntr, 0, sizeof(cntr))
        com_distances(self.npieces[p], self.sumr[p], self.sumc[p], rd, cd)
        for i in range(n):
            m = moves[i]
            tmp[i] = m
            fr = mv_from(m)
            to = mv_to(m)
            r = category_rank(opp, fr, to, com_distance(rd, cd, fr), com_distance(rd, cd, to))
            rk[i] = <unsigned char>r
            cntr[r] += 1
            present |= (<uint64_t>1) << r
        return keep_by_rank(tmp, rk, n, cntr, present, width, moves)

    cdef double move_bias(self, int move) noexcept nogil:
        return CAT_W[self._category(move)] / <double>W_MAX

    cdef bint is_decisive(self, int move) noexcept nogil:
        cdef int p = self.player, o = 1 - p
        cdef int fr = mv_from(move), to = mv_to(move)
        cdef uint64_t tob = (<uint64_t>1) << to
        cdef uint64_t own = self.bb[p] ^ (((<uint64_t>1) << fr) | tob)
        cdef uint64_t opp = self.bb[o] & ~tob
        cdef bint cap = (self.bb[o] & tob) != 0
        cdef unsigned char c2[NLINES]
        cdef int t
        if connected(own):
            return True
        if cap and connected(opp):
            return False
        # Rare: the move leaves the opponent without a legal move (repetition is no win).
        memcpy(c2, self.cnt, NLINES)
        for t in range(4):
            c2[LINE[fr][t]] -= 1
            if not cap:
                c2[LINE[to][t]] += 1
        if any_move(opp, own, c2):
            return False
        self.do_move(move)
        cdef bint won = self.res == p
        self.undo_move()
        return won

    cdef int ordered_moves(self, int* out, int width) noexcept nogil:
        """gen_moves, move_orders and keep_best fused (the same moves in the same order; see
        _ordered_full); after a move that captured nothing, from the reply base of the
        position before it (see ReplyBase)."""
        cdef Undo* u
        cdef ReplyBase* rb
        if self.ply > 0:
            u = &(<Undo*>self.hist.data)[self.ply - 1]
            if not u.captured:
                rb = self._base_for(u.move)
                if rb != NULL:
                    return self._ordered_shared(out, width, u.move, rb)
        return self._ordered_full(out, width)

    cdef inline int _ranked_moves(self, int* rd, int* cd, int* gm, unsigned char* rk,
                                  short* gp, int* cntr, uint64_t* present) noexcept nogil:
        """The side to move's moves in generation order (gm), each with its category's weight
        rank (rk, counted in cntr and marked in *present) and, unless gp is NULL, its
        generation position (gp: 8 * square + direction); rd, cd := the centre-of-mass
        distances of the rows and columns (com_distances). Without a data-dependent branch
        per move (the branchy form cost more in a search, where each call meets a new
        position, than its count of instructions says). Returns how many."""
        cdef int p = self.player
        cdef uint64_t x = self.bb[p], opp = self.bb[1 - p], marks = 0, bits
        cdef uint64_t w[2]
        cdef int n = 0, sq, d, to, r, i = 0, h, b
        cdef int psq[16]
        cdef int pd0[16]
        cdef unsigned char pk[16][4]
        memset(cntr, 0, 32 * sizeof(int))
        com_distances(self.npieces[p], self.sumr[p], self.sumc[p], rd, cd)
        # first each piece's square, distance, line counts and legal directions (8 bits a
        # piece, pieces 0-7 in w[0], 8-11 in w[1]), then one loop over all the moves: a loop
        # per piece ends at a count of moves no predictor knows, once a piece
        w[0] = 0
        w[1] = 0
        while x:
            sq = lsb(x)
            x &= x - 1
            psq[i] = sq
            pd0[i] = com_distance(rd, cd, sq)
            pk[i][0] = self.cnt[LINE[sq][0]]
            pk[i][1] = self.cnt[LINE[sq][1]]
            pk[i][2] = self.cnt[LINE[sq][2]]
            pk[i][3] = self.cnt[LINE[sq][3]]
            w[i >> 3] |= (<uint64_t>self._dirs(sq)) << (8 * (i & 7))
            i += 1
        for h in range(2):
            bits = w[h]
            while bits:
                b = lsb(bits)
                bits &= bits - 1
                i = 8 * h + (b >> 3)
                d = b & 7
                sq = psq[i]
                to = TGT[sq][d][pk[i][d >> 1]]
                r = category_rank(opp, sq, to, pd0[i], com_distance(rd, cd, to))
                rk[n] = <unsigned char>r
                cntr[r] += 1
                marks |= (<uint64_t>1) << r
                gm[n] = sq | (to << 6)
                if gp != NULL:          # (a constant where this is inlined)
                    gp[n] = <short>(sq * 8 + d)
                n += 1
        present[0] = marks
        return n

    cdef void _build_base(self, ReplyBase* rb) noexcept nogil:
        """rb := the moves of the side to move, all of them, ordered as _ordered_full orders
        them (by rank, then generation order: a counting sort), each with its key and line."""
        cdef int gm[104]
        cdef unsigned char rk[104]
        cdef short gp[104]
        cdef int cntr[32]
        cdef int start[32]
        cdef uint64_t present, bits
        cdef int n, i, r, pos, g
        n = self._ranked_moves(rb.rd, rb.cd, gm, rk, gp, cntr, &present)
        pos = 0
        bits = present
        while bits:
            r = msb(bits)
            bits ^= (<uint64_t>1) << r
            start[r] = pos
            pos += cntr[r]
        for i in range(n):
            r = rk[i]
            g = gp[i]
            pos = start[r]
            start[r] = pos + 1
            rb.mv[pos] = gm[i]
            rb.key[pos] = (r << 9) | (511 - g)
            rb.ln[pos] = <unsigned char>LINE[g >> 3][(g & 7) >> 1]
            rb.index[gm[i]] = <unsigned char>pos
        rb.n = n
        rb.side = self.player
        rb.bb[0] = self.bb[0]
        rb.bb[1] = self.bb[1]

    cdef ReplyBase* _base_for(self, int last) noexcept nogil:
        """The reply base of the position before the non-capturing move `last` (the side to
        move's moves there), built when its slot holds another position: the move's lines
        are put back as they were for the while. NULL when there is no memory for the slots
        (they are allocated at the first use)."""
        cdef int p = self.player, a = 1 - p
        cdef int fr = mv_from(last), to = mv_to(last)
        cdef uint64_t frto = ((<uint64_t>1) << fr) | ((<uint64_t>1) << to)
        cdef ReplyBase* rb
        if self.rbase == NULL:
            self.rbase = <ReplyBase*>calloc(RSLOTS, sizeof(ReplyBase))
            if self.rbase == NULL:
                return NULL
        rb = &self.rbase[(self.ply - 1) & (RSLOTS - 1)]
        if rb.side != p or rb.bb[p] != self.bb[p] or rb.bb[a] != (self.bb[a] ^ frto):
            # the parent: the mover's piece back on fr (the side to move has not changed)
            self.bb[a] ^= frto
            self._lines(to, -1)
            self._patterns(to, -(a + 1))
            self._lines(fr, 1)
            self._patterns(fr, a + 1)
            self._build_base(rb)
            self._patterns(fr, -(a + 1))
            self._lines(fr, -1)
            self._patterns(to, a + 1)
            self._lines(to, 1)
            self.bb[a] ^= frto
        return rb

    cdef int is_among_best(self, int move, int width) noexcept nogil:
        """GameState.is_among_best after a move that captured nothing, at once where the
        answer is plain from the reply base: a move along a line the last move left alone is
        legal here as it was there (and has the same key), and it is among the `width` best
        when fewer than `width` moves can be above it: the base's above it (its place there)
        plus every move along the changed lines. Otherwise -1."""
        cdef Undo* u
        cdef ReplyBase* rb
        cdef int p = self.player, kf = mv_from(move), kt = mv_to(move), line, idx, k, last
        cdef uint64_t changed, lines
        cdef int above
        if self.ply == 0 or move < 0 or move >= 4096:
            return -1
        u = &(<Undo*>self.hist.data)[self.ply - 1]
        if u.captured:
            return -1
        last = u.move
        changed = LMASK[mv_from(last)] | LMASK[mv_to(last)]
        line = LINE[kf][MOVE_LT[kf][kt]]
        if (changed >> line) & 1:
            return -1
        rb = self._base_for(last)
        if rb == NULL:
            return -1
        idx = rb.index[move]
        if idx >= rb.n or rb.mv[idx] != move:
            return 0 if line == LINE[kt][MOVE_LT[kf][kt]] and kf != kt else -1
        if width <= 0:
            return 1
        above = idx
        if above >= width:
            return -1
        lines = changed
        while lines:
            k = lsb(lines)
            lines &= lines - 1
            above += popcount(MOVES_OF[p][self.lidx[k]])
        return 1 if above < width else -1

    cdef int _ordered_shared(self, int* out, int width, int last, ReplyBase* rb) noexcept nogil:
        """_ordered_full's answer after the non-capturing move `last`: the parent's reply base
        rb (_base_for) with the replies along the move's lines regenerated and merged in by key.
        Exact: a reply along another line has the same target, the same blocking and the same
        capture bit as in the parent, and the mover's centre of mass is the same."""
        cdef int nm[104]
        cdef int nk[104]
        cdef int um[104]
        cdef int uk[104]
        cdef int bm[104]
        cdef int bk[104]
        cdef int p = self.player, a = 1 - p
        cdef int fr = mv_from(last), to = mv_to(last)
        cdef uint64_t opp = self.bb[a], changed = LMASK[fr] | LMASK[to], lines, w0, w1, bits
        cdef int nn = 0, line, t, sq, b, d, tgt, k, j, i, o, lim, half, c, take
        cdef int ids[8]
        # the replies along the changed lines, in this position: the side's move bits of the
        # 7 lines side by side in two words (16 bits a line), then one pass over the moves
        lines = changed
        w0 = 0
        w1 = 0
        k = 0
        while lines:
            line = lsb(lines)
            lines &= lines - 1
            ids[k] = line
            if k < 4:
                w0 |= (<uint64_t>MOVES_OF[p][self.lidx[line]]) << (16 * k)
            else:
                w1 |= (<uint64_t>MOVES_OF[p][self.lidx[line]]) << (16 * (k - 4))
            k += 1
        for half in range(2):
            bits = w0 if half == 0 else w1
            while bits:
                b = lsb(bits)
                bits &= bits - 1
                line = ids[4 * half + (b >> 4)]
                t = LTYPE[line]
                sq = LPOS[line][(b & 15) >> 1]
                # MOVET's bit 0 goes toward higher positions: E, N, NE, but SE on the
                # anti-diagonal (positions count columns there)
                d = 2 * t + ((b & 1) ^ <int>(t == 3))
                tgt = TGT[sq][d][self.cnt[line]]
                uk[nn] = (category_rank(opp, sq, tgt, com_distance(rb.rd, rb.cd, sq),
                                        com_distance(rb.rd, rb.cd, tgt)) << 9) \
                    | (511 - (sq * 8 + d))
                um[nn] = sq | (tgt << 6)
                nn += 1
        # Their order by key (keys are distinct: a key holds the generation position), each
        # one's place counted; then the parent's replies along unchanged lines, as many as can
        # be kept; then the two merged. Without data-dependent branches: a few moves each time,
        # in an order no predictor learns.
        for i in range(nn):
            k = 0
            for j in range(nn):
                k += uk[j] > uk[i]
            nk[k] = uk[i]
            nm[k] = um[i]
        nk[nn] = -1
        lim = width if width > 0 else 1 << 30
        c = 0
        i = 0
        while c < lim and i < rb.n:
            bk[c] = rb.key[i]
            bm[c] = rb.mv[i]
            c += 1 - <int>((changed >> rb.ln[i]) & 1)
            i += 1
        bk[c] = -1
        o = c + nn
        if o > lim:
            o = lim
        i = 0
        j = 0
        for k in range(o):
            take = bk[i] > nk[j]
            # a select by arithmetic: GCC turns the conditional expression into a branch
            out[k] = nm[j] ^ ((bm[i] ^ nm[j]) & -take)
            i += take
            j += 1 - take
        return o

    cdef int _ordered_full(self, int* out, int width) noexcept nogil:
        """gen_moves, move_orders and keep_best fused (the same moves in the same order): the
        moves with their weight ranks (_ranked_moves), the `width` best picked by counting
        ranks (keep_by_rank), not by insertion (whose data-dependent branches were 40% of
        this call)."""
        cdef int gm[104]
        cdef unsigned char rk[104]
        cdef int cntr[32]
        cdef int rd[8]
        cdef int cd[8]
        cdef uint64_t present
        cdef int n = self._ranked_moves(rd, cd, gm, rk, NULL, cntr, &present)
        return keep_by_rank(gm, rk, n, cntr, present, width, out)

    cdef int tactical_moves(self, int* out) noexcept nogil:
        """The captures, in generation order: what the MIA-like αβ's quiescence extends."""
        cdef uint64_t opp = self.bb[1 - self.player]
        cdef int n = self.gen_moves(out), i, k = 0
        for i in range(n):
            if (opp >> mv_to(out[i])) & 1:
                out[k] = out[i]
                k += 1
        return k

    cdef bint do_null(self) noexcept nogil:
        """A pass, where null-move pruning is sound enough: the game goes on, the side to move
        has more than NULL_MIN_PIECES pieces (zugzwang-like positions, where any move breaks a
        blockade, come with few pieces) and the opponent has a legal move (a side without one
        loses, which a pass must not bring about)."""
        cdef int p = self.player
        if self.res != ONGOING or self.npieces[p] <= NULL_MIN_PIECES:
            return False
        if not any_move(self.bb[1 - p], self.bb[p], self.cnt):
            return False
        self.player = 1 - p
        self.hash ^= ZOB_SIDE
        return True

    cdef void undo_null(self) noexcept nogil:
        self.player = 1 - self.player
        self.hash ^= ZOB_SIDE

    cdef int playout_move(self, int policy, int* moves, int n, Rng* rng) noexcept nogil:
        """`ipp`: a move drawn with probability proportional to its category weight."""
        cdef int weights[MAX_MOVES]
        cdef int i, w, total = 0
        if policy != PP_IPP:
            return moves[rng_below(rng, n)]
        for i in range(n):
            w = CAT_W[self._category(moves[i])]
            weights[i] = w
            total += w
        w = rng_below(rng, total)
        for i in range(n):
            w -= weights[i]
            if w < 0:
                return moves[i]
        return moves[n - 1]

    cdef int random_playout(self, Rng* rng, int max_plies) noexcept nogil:
        """Uniformly random playout on local copies (bitboards, line counts, the hash; no undo
        records), with the rules' every end: connection, a capture that connects the
        opponent, a repeated position (compared with the positions since the last capture,
        the game's own before the playout included, as do_move does), no legal move."""
        cdef uint64_t b[2]
        cdef unsigned char c[NLINES]
        cdef int moves[MAX_MOVES]
        cdef uint64_t tob, h = self.hash
        cdef int p = self.player, o, n, m, fr, to, plies = 0, j
        cdef int ply0 = self.ply, irrev = self.irrev
        cdef uint64_t* seen
        cdef bint capt
        if self.res != ONGOING:
            return self.res
        b[0] = self.bb[0]
        b[1] = self.bb[1]
        memcpy(c, self.cnt, NLINES)
        history_reserve(&self.pbuf, 64)
        seen = <uint64_t*>self.pbuf.data        # seen[k]: the hash at ply ply0 + k
        seen[0] = h
        while plies < max_plies:
            o = 1 - p
            n = gen_into(b[p], b[o], c, moves)
            if n == 0:
                return o
            m = moves[rng_below(rng, n)]
            fr = m & 63
            to = m >> 6
            tob = (<uint64_t>1) << to
            capt = (b[o] & tob) != 0
            c[LINE[fr][0]] -= 1
            c[LINE[fr][1]] -= 1
            c[LINE[fr][2]] -= 1
            c[LINE[fr][3]] -= 1
            if capt:
                b[o] ^= tob
                h ^= ZOB[o][to]
                irrev = ply0 + plies + 1
            else:
                c[LINE[to][0]] += 1
                c[LINE[to][1]] += 1
                c[LINE[to][2]] += 1
                c[LINE[to][3]] += 1
            b[p] ^= ((<uint64_t>1) << fr) | tob
            h ^= ZOB[p][fr] ^ ZOB[p][to] ^ ZOB_SIDE
            plies += 1
            if connected(b[p]):
                return p
            if capt and connected(b[o]):
                return o
            if plies >= self.pbuf.cap:
                history_reserve(&self.pbuf, plies + 1)
                seen = <uint64_t*>self.pbuf.data
            seen[plies] = h
            j = ply0 + plies - 4
            while j >= irrev:
                if (seen[j - ply0] if j >= ply0 else (<Undo*>self.hist.data)[j].hash) == h:
                    return DRAW
                j -= 2
            p = o
        return ONGOING

    cdef GameState clone(self):
        cdef LinesOfAction c = LinesOfAction.__new__(LinesOfAction)
        c.bb[0] = self.bb[0]
        c.bb[1] = self.bb[1]
        memcpy(c.cnt, self.cnt, NLINES)
        memcpy(c.lidx, self.lidx, sizeof(self.lidx))
        memcpy(c.npieces, self.npieces, sizeof(self.npieces))
        memcpy(c.sumr, self.sumr, sizeof(self.sumr))
        memcpy(c.sumc, self.sumc, sizeof(self.sumc))
        memcpy(c.pst, self.pst, sizeof(self.pst))
        c.res = self.res
        c.irrev = self.irrev
        c.player = self.player
        c.ply = self.ply
        c.hash = self.hash
        history_copy(&c.hist, &self.hist, self.ply)
        return c

    # ---- Python face ----------------------------------------------------------------------
    def format_move(self, int move):
        fr, to = mv_from(move), mv_to(move)
        sep = "x" if (self.bb[1 - self.player] >> to) & 1 else "-"
        return f"{_sqname(fr)}{sep}{_sqname(to)}"

    def parse_move(self, str text):
        t = text.strip().lower()
        if len(t) != 5 or t[2] not in "-x":
            raise ValueError(f"bad LOA move {text!r}: expected like 'b1-d3' or 'b1xd3'")
        return _sqindex(t[:2]) | (_sqindex(t[3:]) << 6)

    def _cell(self, int sq):
        if (self.bb[0] >> sq) & 1:
            return "b"
        if (self.bb[1] >> sq) & 1:
            return "w"
        return "."

    def to_text(self):
        return format_ranks(self.bb[0], self.bb[1], self.player, "b", "w")

    @classmethod
    def from_text(cls, str text):
        """Read the FEN-like text form (see the module docstring)."""
        black, white, side = parse_ranks(text, "LOA", "b", "w")
        if black == 0 or white == 0 or bin(black).count("1") > 12 or bin(white).count("1") > 12:
            raise ValueError(f"bad LOA position {text!r}: each side needs 1 to 12 pieces")
        cdef LinesOfAction s = cls.__new__(cls)
        s._set(black, white, side)
        return s

    def board_str(self):
        lines = []
        for row in range(7, -1, -1):
            lines.append(f"{row + 1} " + " ".join(self._cell(row * 8 + c) for c in range(8)))
        lines.append("  a b c d e f g h")
        r = self.res
        if r == ONGOING:
            lines.append(("Black" if self.player == 0 else "White") + " to move")
        elif r == DRAW:
            lines.append("Draw by repetition")
        else:
            lines.append(("Black" if r == 0 else "White") + " has won")
        return "\n".join(lines)

    # ---- introspection for tests and tools --------------------------------------------------
    def bitboards(self):
        """(black, white) bitboards."""
        return self.bb[0], self.bb[1]

    def line_counts(self):
        """The incremental line counts: 8 rows, 8 columns, 15 diagonals, 15 anti-diagonals."""
        return [self.cnt[i] for i in range(NLINES)]

    def mobility2(self):
        """Weighted mobility x2 of (Black, White) from the line patterns, and the same move
        by move: [(tables, by pieces)] per side."""
        m = self._mobility2_both()
        return [(m & 0xFFFF, self._mobility2_by_pieces(0)),
                (m >> 16, self._mobility2_by_pieces(1))]

    def line_patterns(self):
        """The incremental line pattern indices (table offsets included), and from scratch."""
        fresh = [LBASE[i] for i in range(NLINES)]
        for sq in range(64):
            for p in range(2):
                if (self.bb[p] >> sq) & 1:
                    for t in range(4):
                        fresh[LINE[sq][t]] += (p + 1) * LD[sq][t]
        return [self.lidx[i] for i in range(NLINES)], fresh

    def line_counts_from_scratch(self):
        c = [0] * NLINES
        for sq in range(64):
            if ((self.bb[0] | self.bb[1]) >> sq) & 1:
                for t in range(4):
                    c[LINE[sq][t]] += 1
        return c

    def incremental_sums(self):
        """Per player (pieces, sum of rows, sum of cols, piece-square sum x4)."""
        return [(self.npieces[p], self.sumr[p], self.sumc[p], self.pst[p]) for p in range(2)]

    def sums_from_scratch(self):
        out = []
        for p in range(2):
            sqs = [sq for sq in range(64) if (self.bb[p] >> sq) & 1]
            out.append((len(sqs), sum(s >> 3 for s in sqs), sum(s & 7 for s in sqs),
                        sum(PST4[s] for s in sqs)))
        return out

    def hash_from_scratch(self):
        h = ZOB_SIDE if self.player == 1 else 0
        for sq in range(64):
            for p in range(2):
                if (self.bb[p] >> sq) & 1:
                    h ^= ZOB[p][sq]
        return h

    def features(self, int p):
        """efWB raw features of player p (dict), for tests and inspection."""
        cdef double f[7]
        self._features(p, (self._mobility2_both() >> (16 * p)) & 0xFFFF, f)
        return {"concentration": f[0], "centralisation": f[1], "euler": f[2],
                "mobility": f[3], "connectedness": f[4], "uniformity": f[5],
                "com_position": f[6]}

    def wb_raw(self):
        """efWB score before the tanh, side to move's view."""
        return self.wb_score()

    def tanh_argument(self, evalfn="default"):
        """x with evaluation(evalfn) == tanh(x) here, or None (a finished game)."""
        cdef double x
        if self.evaluate_tanh_arg(self._eval_id(evalfn), &x):
            return x
        return None

    def is_connected(self, int p):
        return bool(connected(self.bb[p]))

    def euler_number(self, int p):
        """Euler number (8-connectivity) of p's pieces, from the quad counts."""
        return euler4(self.bb[p]) / 4.0

    def move_category(self, move):
        """(category id, weight) of a move given as notation or id."""
        m = self.parse_move(move) if isinstance(move, str) else move
        c = self._category(m)
        return c, CAT_W[c]



def wb_weights():
    """The efWB weights (conc, cent, quad, mob, conn, unif, compos, scale)."""
    return (W_CONC, W_CENT, W_QUAD, W_MOB, W_CONN, W_UNIF, W_COMPOS, WB_SCALE)


def set_wb_weights(double conc, double cent, double quad, double mob, double conn, double unif,
                   double compos, double scale):
    """Replace the efWB weights process-wide (for tuning experiments only)."""
    global W_CONC, W_CENT, W_QUAD, W_MOB, W_CONN, W_UNIF, W_COMPOS, WB_SCALE, WB_INV
    W_CONC, W_CENT, W_QUAD, W_MOB, W_CONN, W_UNIF, W_COMPOS, WB_SCALE = (
        conc, cent, quad, mob, conn, unif, compos, scale)
    mantissa, _ = math.frexp(scale)
    WB_INV = 1.0 / scale if scale > 0 and mantissa == 0.5 else 0.0


def category_weights():
    """The 96 move-category weights (index = cap*48 + from_region*12 + to_region*3 + com_dir)."""
    return [CAT_W[i] for i in range(CAT_COUNT)]


def _sqname(int sq):
    return "abcdefgh"[sq & 7] + str((sq >> 3) + 1)


def _sqindex(str name):
    if len(name) != 2 or name[0] not in "abcdefgh" or name[1] not in "12345678":
        raise ValueError(f"bad square {name!r}: expected a file a-h and a rank 1-8, like 'b1'")
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


# ---- what the game declares about itself (see mcts_arena/games/info.py) ----------------------
from importlib import resources

from mcts_arena.games.info import GameInfo


def loa_openings():
    """The shipped opening set (100 positions made by `data/make_loa_openings.py`, seeded and
    reproducible) as text positions, one per seat-swapped pair."""
    text = resources.files("mcts_arena.games").joinpath("data/loa_openings.txt").read_text()
    return [line.strip() for line in text.splitlines() if line.strip()]


def _opening_set(params, seed, pair_index):
    positions = loa_openings()
    return positions[pair_index % len(positions)]


def draw(state, last=None):
    """The position as SVG (the game viewer's board): Black's pieces dark, White's light, rank
    8 at the top; the last move's from and to squares framed (`last` = (seat, move id))."""
    from mcts_arena.games.drawing import BLACK_STONE, WHITE_STONE, ranks_of, square_board

    ranks, side = ranks_of(state.to_text())
    squares = () if last is None else (last[1] & 63, (last[1] >> 6) & 63)
    return square_board(ranks, {"b": (BLACK_STONE, "#000000"), "w": (WHITE_STONE, "#333333")},
                        squares, f"Lines of Action, {'Black' if side == 'b' else 'White'} to move")


GAME = GameInfo(
    name="loa",
    description="Lines of Action 8x8: connect all your pieces",
    cls=LinesOfAction,
    evals=LinesOfAction.eval_functions,
    default_eval="efWB",
    eval_meanings={
        "efWB": "MIA-style (Winands): concentration, centralisation, quads (Euler number), "
                "mobility, connectedness, uniformity, centre of mass; tanh(S / 2)",
        "efLOA0": "cheap: concentration of the pieces only, tanh(d / 1.5)"},
    default_c=0.6,
    openings={"opening_set": _opening_set},
    default_opening="opening_set",
    options=frozenset({"policy", "abp"}),
    typical_plies=60,
    tuning={"im_base": {"": "abp2"}, "games": 200},
    bench_players=("MCTS(ipp,det0.5)", "MCTS(ipp,abp2,det0.5)", "αβ(efWB)"),
    bench_playouts=500,
    gtp_colors=("b", "w"), gtp_boardsize=8,     # Black moves first
    draw=draw,
)
