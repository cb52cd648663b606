# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Lines of Action 8x8 (the MSO rules, as in Winands' thesis) on bitboards; docs/loa.md has the
rules in full, the evaluations' derivation and the speed work. Included here (one module, one
set of C globals): loa_tables.pxi (the constant tables: geometry, line patterns, move
categories, Zobrist keys), loa_features.pxi (efWB's features), loa_abp.pxi (the fast paths).

Contract beyond state.pxd's:
- Black (player 0) starts on b1-g1 and b8-g8 and moves first; a move is `from | to << 6`
  with squares `row * 8 + col` (row 0 = rank 1, col 0 = file a); notation `b1-d3`, captures
  `b1xd3`; the text form is the ranks 8 to 1 in `b`, `w`, `.` separated by `/`, then ` b` or
  ` w` for the side to move.
- After a move the checks come in this order: the mover connected (a win, even when the move
  connects both sides), the opponent connected by a capture, a repetition (a draw at the
  first repetition of a position with the same side to move, by Zobrist hash, since the last
  capture; only moves played on the object count), the opponent without a legal move (a win).
- `random_playout` ends games as the rules do, repetitions included; after `max_plies` it
  returns ONGOING.
- Evaluations (side to move's view): `efWB` (default), MIA-style, tanh(S / 2) of seven
  weighted features (loa_features.pxi); `efLOA0`, concentration only, tanh(d / 1.5).
- The 96 move categories (capture, origin and target region, direction to the mover's centre
  of mass) weigh `ipp`'s draws, `move_bias` (weight / 192) and `move_order` (the weight).
- The fast paths (loa_abp.pxi: select_best, ordered_moves, is_among_best, leaf_after) give
  GameState's default answers to the last bit.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset
from libc.math cimport fabs, tanh

from mcts_arena.bits cimport popcount, lsb, msb
from mcts_arena.rng cimport Rng, rng_below, splitmix64
import math

from mcts_arena.games.boardtext import format_ranks, parse_ranks
from mcts_arena.games.history cimport (History, history_copy, history_free, history_init,
                                        history_reserve)
from mcts_arena.games.state cimport GameState, Knowledge, Leaf, MAX_MOVES, ONGOING, DRAW, PP_IPP

# Evaluation functions (ids local to this game; 0, the default, is efWB).
cdef enum:
    EF_WB = 1      # MIA-style
    EF_LOA0 = 2    # cheap (concentration)

include "loa_tables.pxi"

cdef enum:
    NULL_MIN_PIECES = 4     # do_null refuses with this many pieces or fewer to move
    # A side's moves in a position, ordered, for its children to share (loa_abp.pxi); one
    # slot per parent ply, RSLOTS of them.
    RSLOTS = 8


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
    """The move fr-to's category (docs/loa.md): capture (the opponent's pieces opp), the
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


cdef inline int gen_into(uint64_t own, uint64_t opp, const unsigned char* cnt,
                         int* out) noexcept nogil:
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


include "loa_features.pxi"


cdef class LinesOfAction(GameState):
    """Lines of Action position; docs/loa.md has the rules."""

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

    # ---- what the knowledge reads (the game's Knowledge class, below) ----------------------------
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
        features_in_order(h, f)
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

    cdef inline int _category(self, int move) noexcept nogil:
        cdef int p = self.player, n = self.npieces[p], sr = self.sumr[p], sc = self.sumc[p]
        cdef int fr = mv_from(move), to = mv_to(move)
        return category_of(self.bb[1 - p], fr, to, com_distance_of(n, sr, sc, fr),
                           com_distance_of(n, sr, sc, to))

    # ---- fast paths ------------------------------------------------------------------------------
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

    def knowledge(self):
        return LoaKnowledge()

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


include "loa_abp.pxi"


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
    options=frozenset({"policy", "abp", "tactical"}),
    typical_plies=60,
    tuning={"im_base": {"": "abp2"}, "games": 200},
    bench_players=("MCTS(ipp,det0.5)", "MCTS(ipp,abp2,det0.5)", "αβ(efWB)"),
    bench_playouts=500,
    gtp_colors=("b", "w"), gtp_boardsize=8,     # Black moves first
    draw=draw,
)


# ---- knowledge: what a search knows of the game beyond its rules (state.pxd) ---------------------

include "loa_knowledge.pxi"
