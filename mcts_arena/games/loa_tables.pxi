# Lines of Action's constant tables, included by loa.pyx (one module: the tables are its C
# globals): the board's geometry, the line patterns (legal directions and weighted mobility of
# every piece of a line, by the line's contents), the move categories' weights and ranks, the
# Zobrist keys. docs/loa.md derives them.

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
                    PATH[_sq][_d][_k] |= ((<uint64_t>1)
                                          << ((_r + DR[_d] * _t) * 8 + _c + DC[_d] * _t))

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

# Move-category weights (docs/loa.md).
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
cdef uint64_t _seed = 0x10A5EED5
for _sq in range(64):
    ZOB[0][_sq] = splitmix64(&_seed)
    ZOB[1][_sq] = splitmix64(&_seed)
ZOB_SIDE = splitmix64(&_seed)

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
