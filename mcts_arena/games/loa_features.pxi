# efWB, Lines of Action's evaluation, included by loa.pyx: the weights, a side's features but
# mobility from its bitboard alone, and how they combine (docs/loa.md derives the formula).

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
cdef enum:
    FCACHE = 4096


cdef struct SideFeatures:
    uint64_t key
    double f[6]        # conc, cent, euler, conn, unif, compos
    int connected      # are the pieces one group: 1, 0, or -1 (not asked yet)


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
    cdef int sr = (popcount(b & ROWBIT[0]) + 2 * popcount(b & ROWBIT[1])
                   + 4 * popcount(b & ROWBIT[2]))
    cdef int sc = (popcount(b & COLBIT[0]) + 2 * popcount(b & COLBIT[1])
                   + 4 * popcount(b & COLBIT[2]))
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



cdef inline void features_in_order(const double* h, double* f) noexcept nogil:
    """f := the six features h (conc, cent, euler, conn, unif, compos: side_features' order)
    in wb_combine's places (mobility, f[3], is the caller's)."""
    f[0] = h[0]
    f[1] = h[1]
    f[2] = h[2]
    f[4] = h[3]
    f[5] = h[4]
    f[6] = h[5]
