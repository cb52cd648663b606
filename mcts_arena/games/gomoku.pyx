# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Gomoku (five in a row) on an n x n board (n = 7..19, 15 by default).

Rules: Black (player 0, `x`) moves first; a move puts a stone on any empty cell. Five of one's
stones in a row (horizontal, vertical or diagonal) wins. Freestyle (the default): five *or more*
wins; `exact=1`: exactly five wins and an overline (six or more) does not. A full board without
a five is a draw.

Cells are `row * n + col` (row 0 = row 1, col 0 = file a). Notation `a1`..`s19` (file = column,
number = row). Text form: the rows from 1 to n with `x`, `o`, `.`, separated by `/`, then ` x`
or ` o` for the side to move, then ` exact` under the exact-five rule, e.g. the 7x7 start
`......./......./......./......./......./......./....... x`.

Search moves (`near`, a game parameter that never changes the rules): the searches consider
only the empty cells within Chebyshev distance `near` (2 by default, 0 = every empty cell) of a
stone, and the centre on an empty board; every empty cell stays legal (`moves()`, `play`, perft,
the random playout). Every cell that completes or blocks a five is next to a stone, so no
tactic falls outside the set.

Win detection: the runs through the stone just played, four directions (O(1)).

Pattern evaluation `efPT` (incremental): the board's five-cell windows (every run of five cells
in a line). A window holding k stones of one player and none of the other is a pattern of that
player worth T[k] = 0, 1, 10, 100, 1000 for k = 0..4: an open two, three or four fills several
windows (an open four `_XXXX_` two four-windows, a closed four `OXXXX_` one; an open three
`__XXX__` three three-windows, a closed one fewer), so the open/closed distinction and broken
shapes (`XX_XX`) come out of the counts. A stone changes only the 20 windows through it: do and
undo update the window counts, both players' sums S and the number of four-windows in O(20).
Value for the side to move p: 0.95 when p has a four-window (it completes five next move),
-0.9 when the opponent has two or more (an open four or double four), else
0.9 tanh((S_p - S_o) / 1000); a finished game is +-1 or 0. (Under `exact=1` a four-window
whose completion would be an overline still counts: the evaluation is a heuristic; the rules,
`is_decisive` and `threats` are exact.)

Single point score (the Gomoku report's "single point score" of the new stone): the change of
S_p - S_o a stone of p on the cell makes, attack (p's windows gain) plus defence (the
opponent's windows it kills). `move_bias` maps it to [0, 1) (score / (score + 100)) for
progressive bias and unpruning order; `move_order` gives threat-first categories for αβ and the
solver: 6 makes five, 5 blocks a five, 4 makes two five-points (open or double four), 3 makes a
four, 2 blocks an opponent's three, 1 makes a three, 0 else. `move_prior` is the sigmoid
1 / (1 + e^-(3 v)) of the evaluation after the move (players override k and b with npk/npb).

Urgent moves (`forced_move`: the heavy playout policy `ipp`/`heavy`, and the forced-actions
reduction `fa` before a search), in order: complete one's own five; block the opponent's five;
make an open four (a stone giving two distinct five-points); stop the opponent's open four (play
the cell where the opponent's stone would give two five-points); else none. The heavy playout
plays the urgent move when there is one, else a uniformly random cell near the stones.
"""
from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset
from libc.math cimport tanh, exp

from mcts_arena.rng cimport Rng, rng_below, rng_seed, splitmix64
from mcts_arena.games.state cimport GameState, Knowledge, ONGOING, DRAW, EF_DEFAULT, PP_IPP
from mcts_arena.games.grid cimport grid_cells, grid_hash
from mcts_arena.games.boardtext import cell_name, format_grid, parse_cell, parse_grid

cdef enum:
    MAXN = 19
    MAXC = 361            # MAXN * MAXN
    NWIN = 1444           # 4 directions * MAXC window ids
    CWMAX = 20            # windows through one cell

cdef enum:
    EF_PT = 1

MIN_SIZE = 7
MAX_SIZE = MAXN
DEFAULT_SIZE = 15

cdef int DR[4]
cdef int DC[4]
DR[:] = [0, 1, 1, 1]
DC[:] = [1, 0, 1, -1]
cdef long long T[6]
T[:] = [0, 1, 10, 100, 1000, 100000]

# Per board size: the windows through each cell (ids d * MAXC + start) and each window's cells.
cdef unsigned short CW[MAXN + 1][MAXC][CWMAX]
cdef unsigned char CWN[MAXN + 1][MAXC]
cdef unsigned short WC[MAXN + 1][NWIN][5]
cdef unsigned short WLIST[MAXN + 1][NWIN]   # the window ids that fit on the board, in order
cdef int NWL[MAXN + 1]


cdef void _init_tables():
    cdef int n, r, c, d, k, sr, sc, w, j
    for n in range(7, MAXN + 1):
        NWL[n] = 0
        for r in range(n):
            for c in range(n):
                CWN[n][r * n + c] = 0
        for d in range(4):
            for sr in range(n):
                for sc in range(n):
                    if not (0 <= sr + 4 * DR[d] < n and 0 <= sc + 4 * DC[d] < n):
                        continue
                    w = d * MAXC + sr * n + sc
                    WLIST[n][NWL[n]] = w
                    NWL[n] += 1
                    for k in range(5):
                        r = sr + k * DR[d]
                        c = sc + k * DC[d]
                        WC[n][w][k] = r * n + c
                        j = CWN[n][r * n + c]
                        CW[n][r * n + c][j] = w
                        CWN[n][r * n + c] = j + 1


_init_tables()

cdef uint64_t ZOB[2][MAXC]
cdef uint64_t ZOB_SIDE
cdef uint64_t SALT[MAXN + 1][2]
cdef uint64_t _seed = 0x60E0C0DE5
cdef int _sq
for _sq in range(MAXC):
    ZOB[0][_sq] = splitmix64(&_seed)
    ZOB[1][_sq] = splitmix64(&_seed)
ZOB_SIDE = splitmix64(&_seed)
for _sq in range(MAXN + 1):
    SALT[_sq][0] = splitmix64(&_seed)
    SALT[_sq][1] = splitmix64(&_seed)


cdef inline int _run(unsigned char* b, int n, int x, int d, int col) noexcept nogil:
    """Length of the run of colour `col` through cell x in direction d (x counted)."""
    cdef int r0 = x // n, c0 = x % n, r, c, k = 1
    r = r0 + DR[d]
    c = c0 + DC[d]
    while 0 <= r < n and 0 <= c < n and b[r * n + c] == col:
        k += 1
        r += DR[d]
        c += DC[d]
    r = r0 - DR[d]
    c = c0 - DC[d]
    while 0 <= r < n and 0 <= c < n and b[r * n + c] == col:
        k += 1
        r -= DR[d]
        c -= DC[d]
    return k


cdef inline bint _five_at(unsigned char* b, int n, int x, int col, bint exact) noexcept nogil:
    """Does the stone of colour `col` on x (already placed) make five (exactly five)?"""
    cdef int d, k
    for d in range(4):
        k = _run(b, n, x, d, col)
        if k == 5 or (k > 5 and not exact):
            return True
    return False


cdef inline double _value(int my_fours, int their_fours, long long mine,
                          long long theirs) noexcept nogil:
    """The evaluation of an unfinished position for the side to move from its four-window
    counts and pattern sums (module docstring)."""
    if my_fours > 0:
        return 0.95
    if their_fours >= 2:
        return -0.9
    return 0.9 * tanh((mine - theirs) / 1000.0)


cdef class Gomoku(GameState):
    """Gomoku position; see the module docstring for rules and conventions."""

    name = "gomoku"
    eval_functions = {"efPT": EF_PT}

    cdef public int n               # board side
    cdef public bint exact          # exactly five wins (overlines do not)
    cdef public int near            # search moves: within this distance of a stone (0 = all)
    cdef int nc
    cdef int nstones
    cdef int res
    cdef unsigned char cell[MAXC]
    cdef unsigned char wcnt[2][NWIN]     # stones of each player in each window
    cdef long long score[2]              # sum of T[k] over each player's pattern windows
    cdef int n4[2]                       # each player's four-windows (k == 4, none of the other)
    cdef int n3[2]                       # each player's three-windows
    cdef unsigned char nearcnt[MAXC]     # stones within `near` of each cell
    cdef int hist_move[MAXC]
    cdef int hist_res[MAXC]
    cdef int pstamp[MAXC]                # scratch of _double_points
    cdef int ppartner[MAXC]
    cdef int stamp

    def __init__(self, int size=15, exact=0, near=2):
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"bad Gomoku size {size}: valid {MIN_SIZE}..{MAX_SIZE}")
        if not 0 <= near <= 4:
            raise ValueError(f"bad Gomoku near {near}: valid 0..4")
        self._setup(size, bool(exact), near)
        self._finish(0)

    cdef void _setup(self, int size, bint exact, int near):
        self.n = size
        self.nc = size * size
        self.max_moves = size * size
        self.exact = exact
        self.near = near
        memset(self.cell, 0, MAXC)
        memset(self.pstamp, 0, MAXC * sizeof(int))
        self.stamp = 0

    cdef void _finish(self, int player):
        """Side to move, counters, windows, result and hash from the cells."""
        cdef int c, p
        cdef unsigned char b[MAXC]
        memcpy(b, self.cell, MAXC)
        memset(self.cell, 0, MAXC)
        memset(self.wcnt, 0, 2 * NWIN)
        memset(self.nearcnt, 0, MAXC)
        self.score[0] = self.score[1] = 0
        self.n4[0] = self.n4[1] = 0
        self.n3[0] = self.n3[1] = 0
        self.nstones = 0
        self.hash = (ZOB_SIDE if player == 1 else 0) ^ SALT[self.n][1 if self.exact else 0]
        self.res = ONGOING
        for c in range(self.nc):
            if b[c]:
                self._place(c, b[c] - 1)
        # fives are looked for on the whole board (under `exact` a run of five seen before its
        # sixth stone is placed would be a false five)
        for c in range(self.nc):
            if b[c] and _five_at(self.cell, self.n, c, b[c], self.exact):
                p = b[c] - 1
                self.res = p if self.res == ONGOING or self.res == p else DRAW
        if self.res == ONGOING and self.nstones == self.nc:
            self.res = DRAW
        self.player = player
        self.ply = 0

    # ---- incremental state ------------------------------------------------------------------
    cdef inline void _place(self, int x, int p) noexcept nogil:
        """Put a stone of p on x: cell, hash, windows, scores, four counts, near counts."""
        cdef int o = 1 - p, j, w, cp, co, r0, c0, r, c, R = self.near, n = self.n
        cdef unsigned short* ws = CW[n][x]
        cdef unsigned char* mine = self.wcnt[p]
        cdef unsigned char* theirs = self.wcnt[o]
        self.cell[x] = p + 1
        self.hash ^= ZOB[p][x]
        self.nstones += 1
        for j in range(CWN[n][x]):
            w = ws[j]
            cp = mine[w]
            co = theirs[w]
            if co == 0:
                self.score[p] += T[cp + 1] - T[cp]
                if cp == 2:
                    self.n3[p] += 1
                elif cp == 3:
                    self.n3[p] -= 1
                    self.n4[p] += 1
                elif cp == 4:
                    self.n4[p] -= 1
            elif cp == 0:
                self.score[o] -= T[co]
                if co == 4:
                    self.n4[o] -= 1
                elif co == 3:
                    self.n3[o] -= 1
            mine[w] = cp + 1
        if R > 0:
            r0 = x // n
            c0 = x % n
            for r in range(r0 - R if r0 >= R else 0, (r0 + R + 1) if r0 + R < n else n):
                for c in range(c0 - R if c0 >= R else 0, (c0 + R + 1) if c0 + R < n else n):
                    self.nearcnt[r * n + c] += 1

    cdef inline void _remove(self, int x, int p) noexcept nogil:
        """Take p's stone off x: the exact inverse of _place."""
        cdef int o = 1 - p, j, w, cp, co, r0, c0, r, c, R = self.near, n = self.n
        cdef unsigned short* ws = CW[n][x]
        cdef unsigned char* mine = self.wcnt[p]
        cdef unsigned char* theirs = self.wcnt[o]
        self.cell[x] = 0
        self.hash ^= ZOB[p][x]
        self.nstones -= 1
        for j in range(CWN[n][x]):
            w = ws[j]
            cp = mine[w] - 1
            co = theirs[w]
            mine[w] = cp
            if co == 0:
                self.score[p] -= T[cp + 1] - T[cp]
                if cp == 2:
                    self.n3[p] -= 1
                elif cp == 3:
                    self.n3[p] += 1
                    self.n4[p] -= 1
                elif cp == 4:
                    self.n4[p] += 1
            elif cp == 0:
                self.score[o] += T[co]
                if co == 4:
                    self.n4[o] += 1
                elif co == 3:
                    self.n3[o] += 1
        if R > 0:
            r0 = x // n
            c0 = x % n
            for r in range(r0 - R if r0 >= R else 0, (r0 + R + 1) if r0 + R < n else n):
                for c in range(c0 - R if c0 >= R else 0, (c0 + R + 1) if c0 + R < n else n):
                    self.nearcnt[r * n + c] -= 1

    # ---- rules ------------------------------------------------------------------------------
    cdef int gen_moves(self, int* out) noexcept nogil:
        cdef int c, k = 0
        for c in range(self.nc):
            if self.cell[c] == 0:
                out[k] = c
                k += 1
        return k

    cdef void do_move(self, int move) noexcept nogil:
        cdef int p = self.player
        self.hist_move[self.ply] = move
        self.hist_res[self.ply] = self.res
        self._place(move, p)
        if _five_at(self.cell, self.n, move, p + 1, self.exact):
            self.res = p
        elif self.nstones == self.nc:
            self.res = DRAW
        self.hash ^= ZOB_SIDE
        self.player = 1 - p
        self.ply += 1

    cdef void undo_move(self) noexcept nogil:
        self.ply -= 1
        cdef int p = 1 - self.player
        self._remove(self.hist_move[self.ply], p)
        self.res = self.hist_res[self.ply]
        self.hash ^= ZOB_SIDE
        self.player = p

    cdef int result(self) noexcept nogil:
        return self.res

    # ---- playouts ---------------------------------------------------------------------------
    cdef int random_playout(self, Rng* rng, int max_plies) noexcept nogil:
        """Uniformly random stones on the empty cells (a partial shuffle), five checked around
        each new stone on a local copy of the board; a full board is a draw."""
        cdef int counts[2]
        if self.res != ONGOING:
            return self.res
        if max_plies < self.nc - self.nstones:
            return GameState.random_playout(self, rng, max_plies)
        return self.recorded_playout(rng, NULL, NULL, 0, counts)

    cdef int recorded_playout(self, Rng* rng, int* moves, signed char* movers, int cap,
                              int* count) noexcept nogil:
        """The random playout's loop on a local copy of the board (a partial shuffle of the
        empty cells, five checked around each new stone), recording the first `cap` stones
        (RAVE); random_playout is this with cap 0."""
        cdef unsigned char b[MAXC]
        cdef int empties[MAXC]
        cdef int k = 0, c, i, j, p = self.player, n = self.n, res = DRAW
        cdef bint exact = self.exact
        count[0] = count[1] = 0
        if self.res != ONGOING:
            return self.res
        memcpy(b, self.cell, self.nc)
        for c in range(self.nc):
            if b[c] == 0:
                empties[k] = c
                k += 1
        for i in range(k):
            j = i + rng_below(rng, k - i)
            c = empties[j]
            empties[j] = empties[i]
            b[c] = p + 1
            if i < cap:
                moves[i] = c
                movers[i] = p
                count[0] = i + 1
            count[1] = i + 1
            if _five_at(b, n, c, p + 1, exact):
                res = p
                break
            p = 1 - p
        return res

    cdef int _near_random(self, Rng* rng) noexcept nogil:
        """A uniformly random empty cell near a stone (any empty cell when there is none)."""
        cdef int tries, c, k = 0, pick
        if self.near > 0 and self.nstones > 0:
            for tries in range(64):  # no-cython-lint: the count is the point
                c = rng_below(rng, self.nc)
                if self.cell[c] == 0 and self.nearcnt[c] > 0:
                    return c
            for c in range(self.nc):
                if self.cell[c] == 0 and self.nearcnt[c] > 0:
                    k += 1
        if k == 0:
            for c in range(self.nc):
                if self.cell[c] == 0:
                    k += 1
            pick = rng_below(rng, k)
            for c in range(self.nc):
                if self.cell[c] == 0:
                    if pick == 0:
                        return c
                    pick -= 1
            return -1
        pick = rng_below(rng, k)
        for c in range(self.nc):
            if self.cell[c] == 0 and self.nearcnt[c] > 0:
                if pick == 0:
                    return c
                pick -= 1
        return -1

    # ---- threats ----------------------------------------------------------------------------
    cdef int _five_points(self, int p, int* out, int limit) noexcept nogil:
        """Distinct empty cells where a stone of p makes five (exact under `exact`)."""
        cdef int w, k, c, i, j, iw, found = 0
        cdef unsigned short* cells
        cdef unsigned char* mine = self.wcnt[p]
        cdef unsigned char* theirs = self.wcnt[1 - p]
        cdef unsigned short* wl = WLIST[self.n]
        if self.n4[p] == 0 or limit <= 0:
            return 0
        for iw in range(NWL[self.n]):
            w = wl[iw]
            if mine[w] != 4 or theirs[w] != 0:
                continue
            cells = WC[self.n][w]
            for k in range(5):
                c = cells[k]
                if self.cell[c] == 0:
                    break
            for j in range(found):
                if out[j] == c:
                    break
            else:
                if self.exact:
                    self.cell[c] = p + 1
                    i = _five_at(self.cell, self.n, c, p + 1, True)
                    self.cell[c] = 0
                    if not i:
                        continue
                out[found] = c
                found += 1
                if found >= limit:
                    return found
        return found

    cdef int _double_point(self, int p, Rng* rng) noexcept nogil:
        """An empty cell where a stone of p gives two distinct five-points (an open four or a
        double four), at random among several; -1 for none. Each window with three of p's
        stones and none of the other pairs its two empty cells: a stone on one makes the other
        a five-point."""
        cdef int w, k, e0, e1, c, iw, found = 0, choice = -1
        cdef unsigned short* cells
        cdef unsigned char* mine = self.wcnt[p]
        cdef unsigned char* theirs = self.wcnt[1 - p]
        cdef unsigned short* wl = WLIST[self.n]
        if self.n3[p] < 2:
            return -1          # two five-points need two three-windows
        self.stamp += 1
        if self.stamp > 1000000000:
            memset(self.pstamp, 0, MAXC * sizeof(int))
            self.stamp = 1
        for iw in range(NWL[self.n]):
            w = wl[iw]
            if mine[w] != 3 or theirs[w] != 0:
                continue
            cells = WC[self.n][w]
            e0 = e1 = -1
            for k in range(5):
                c = cells[k]
                if self.cell[c] == 0:
                    if e0 < 0:
                        e0 = c
                    else:
                        e1 = c
            for k in range(2):
                c = e0 if k == 0 else e1
                if self.pstamp[c] != self.stamp:
                    self.pstamp[c] = self.stamp
                    self.ppartner[c] = e1 if k == 0 else e0
                elif self.ppartner[c] >= 0 and self.ppartner[c] != (e1 if k == 0 else e0):
                    self.ppartner[c] = -1          # a second partner: counted once
                    found += 1
                    if found == 1 or rng_below(rng, found) == 0:
                        choice = c
        return choice

    cdef int _urgent(self, Rng* rng) noexcept nogil:
        """The urgent move (module docstring), or -1."""
        cdef int pts[2]
        cdef int me = self.player, m
        if self._five_points(me, pts, 1) > 0:
            return pts[0]
        if self._five_points(1 - me, pts, 1) > 0:
            return pts[0]
        m = self._double_point(me, rng)
        if m >= 0:
            return m
        return self._double_point(1 - me, rng)

    cdef bint is_decisive(self, int move) noexcept nogil:
        cdef bint won
        self.cell[move] = self.player + 1
        won = _five_at(self.cell, self.n, move, self.player + 1, self.exact)
        self.cell[move] = 0
        return won

    # ---- what the knowledge reads (the game's Knowledge class, below) ----------------------------
    cdef long long _point_score(self, int x, int p) noexcept nogil:
        """Single point score of a p stone on empty x: p's window gains plus the opponent's
        window values it kills."""
        cdef int j, w, cp, co
        cdef long long s = 0
        cdef unsigned short* ws = CW[self.n][x]
        cdef unsigned char* mine = self.wcnt[p]
        cdef unsigned char* theirs = self.wcnt[1 - p]
        for j in range(CWN[self.n][x]):
            w = ws[j]
            cp = mine[w]
            co = theirs[w]
            if co == 0:
                s += T[cp + 1] - T[cp]
            elif cp == 0:
                s += T[co]
        return s

    cdef GameState clone(self):
        cdef Gomoku c = Gomoku.__new__(Gomoku)
        c.n = self.n
        c.nc = self.nc
        c.max_moves = self.max_moves
        c.exact = self.exact
        c.near = self.near
        c.nstones = self.nstones
        c.res = self.res
        c.player = self.player
        c.ply = self.ply
        c.hash = self.hash
        c.stamp = 0
        memcpy(c.cell, self.cell, MAXC)
        memcpy(c.wcnt, self.wcnt, 2 * NWIN)
        c.score[0] = self.score[0]
        c.score[1] = self.score[1]
        c.n4[0] = self.n4[0]
        c.n4[1] = self.n4[1]
        c.n3[0] = self.n3[0]
        c.n3[1] = self.n3[1]
        memcpy(c.nearcnt, self.nearcnt, MAXC)
        memcpy(c.hist_move, self.hist_move, self.ply * sizeof(int))
        memcpy(c.hist_res, self.hist_res, self.ply * sizeof(int))
        memset(c.pstamp, 0, MAXC * sizeof(int))
        return c

    # ---- Python face ------------------------------------------------------------------------
    def format_move(self, int move):
        return cell_name(move, self.n, "Gomoku")

    def parse_move(self, str text):
        return parse_cell(text, self.n, "Gomoku")

    def _ch(self, int c):
        return ".xo"[self.cell[c]]

    def to_text(self):
        return format_grid(self.cells(), self.n, self.player, "exact" if self.exact else None)

    @classmethod
    def from_text(cls, str text, size=None, exact=None, near=2):
        """Read the text form (module docstring); `size` and `exact`, when given, must agree
        with it (a text without ` exact` takes the rule from `exact`)."""
        rows, side, exact = parse_grid(text, "Gomoku", "exact", exact, size, MIN_SIZE, MAX_SIZE)
        n = len(rows)
        if not 0 <= near <= 4:
            raise ValueError(f"bad Gomoku near {near}: valid 0..4")
        nx = sum(r.count("x") for r in rows)
        no = sum(r.count("o") for r in rows)
        if not ((nx == no and side == 0) or (nx == no + 1 and side == 1)):
            raise ValueError(f"bad Gomoku position {text!r}: {nx} x and {no} o stones with "
                             f"{'xo'[side]!r} to move cannot arise")
        cdef Gomoku s = cls.__new__(cls)
        s._setup(n, exact, near)
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                s.cell[r * n + c] = ".xo".index(ch)
        s._finish(side)
        if s.res == DRAW and s.nstones < s.nc:
            raise ValueError(f"bad Gomoku position {text!r}: both sides have five")
        if s.res == side:
            raise ValueError(f"bad Gomoku position {text!r}: the side to move has already won")
        return s

    def knowledge(self):
        return GomokuKnowledge()

    def board_str(self):
        files = "abcdefghijklmnopqrs"[:self.n]
        lines = ["    " + " ".join(files)]
        for r in range(self.n):
            lines.append(f"{r + 1:>3} " + " ".join(self._ch(r * self.n + c)
                                                 for c in range(self.n)))
        r = self.res
        if r == ONGOING:
            lines.append(("Black (x)" if self.player == 0 else "White (o)") + " to move")
        elif r == DRAW:
            lines.append("Draw (full board)")
        else:
            lines.append(("Black" if r == 0 else "White") + " has won")
        return "\n".join(lines)

    # ---- helpers for tests and tools --------------------------------------------------------
    def hash_from_scratch(self):
        return grid_hash(self.cell, self.nc, ZOB[0], ZOB[1], (ZOB_SIDE if self.player == 1 else 0)
                         ^ SALT[self.n][1 if self.exact else 0])

    def cells(self):
        """The board as a list of 0 (empty), 1 (Black), 2 (White), row by row."""
        return grid_cells(self.cell, self.nc)

    def search_move_ids(self):
        """The moves the searches consider here (see `near`)."""
        cdef int buf[MAXC]
        cdef int k = _search_moves(self, buf) if self.res == ONGOING else 0
        return [buf[i] for i in range(k)]

    def pattern_sums(self):
        """(S_black, S_white, fours_black, fours_white, threes_black, threes_white): the
        evaluation's window sums and four- and three-window counts, kept incrementally (tests
        compare them with a rebuild from the text)."""
        return (self.score[0], self.score[1], self.n4[0], self.n4[1], self.n3[0], self.n3[1])

    def five_points(self, int p):
        """Cells (notation) where a stone of player p would make five."""
        cdef int buf[MAXC]
        cdef int k = self._five_points(p, buf, MAXC)
        return sorted(self.format_move(buf[i]) for i in range(k))

    def point_score(self, move, int p=-1):
        """The single point score of a stone of p (default: the side to move) on `move`."""
        m = self.parse_move(move) if isinstance(move, str) else int(move)
        return self._point_score(m, self.player if p < 0 else p)

    def urgent_move(self, unsigned long long seed=1):
        """The urgent move here (notation) or None: see the module docstring."""
        cdef Rng r
        rng_seed(&r, seed)
        m = self._urgent(&r) if self.res == ONGOING else -1
        return None if m < 0 else self.format_move(m)

    def heavy_playout_result(self, unsigned long long seed=1):
        """Result of one heavy playout from here (state restored)."""
        cdef Rng r
        rng_seed(&r, seed)
        return _policy_playout(self, PP_IPP, &r)


def _centre_opening(params, seed, pair_index):
    """Three stones (Black, White, Black) on distinct random cells of the central 5x5 square,
    White to move: a varied, balanced-enough start for seat-swapped pairs (both games of a pair
    start from the same three stones)."""
    import random
    n = params.get("size", DEFAULT_SIZE)
    rng = random.Random(seed * 1_000_003 + pair_index)
    h = n // 2
    cells = rng.sample([(r, c) for r in range(h - 2, h + 3) for c in range(h - 2, h + 3)], 3)
    rows = [["."] * n for _ in range(n)]
    for (r, c), ch in zip(cells, "xox"):
        rows[r][c] = ch
    return "/".join("".join(r) for r in rows) + " o" + (" exact" if params.get("exact") else "")


def draw(state, last=None):
    """The position as SVG (the game viewer's board): stones on the intersections, row 1 at the
    bottom, the last stone marked (`last` = (seat, move id))."""
    from mcts_arena.games.drawing import ranks_of, stone_grid

    rows, side = ranks_of(state.to_text())
    return stone_grid(rows, None if last is None else last[1],
                      f"Gomoku {len(rows)}x{len(rows)}, {'Black' if side == 'x' else 'White'} "
                      f"to move")


from mcts_arena.games.boardtext import from_sgf_point, grid_setup, sgf_point
from mcts_arena.games.info import GameInfo, Param

GAME = GameInfo(
    name="gomoku",
    description="Gomoku n x n (size 7-19, 15 by default; exact=1: exactly five wins): "
                "five in a row",
    cls=Gomoku,
    evals=Gomoku.eval_functions,
    default_eval="efPT",
    eval_meanings={"efPT": "five-cell windows: 0, 1, 10, 100, 1000 per window of k of my stones "
                           "and none of the opponent's, mine minus theirs, 0.9 tanh(d / 1000); "
                           "0.95 with a four to complete, -0.9 against two"},
    default_c=1.0,
    params={"size": Param(default=15, low=7, high=19, meaning="board side"),
            "exact": Param(default=0, low=0, high=1,
                           meaning="1: exactly five wins, overlines do not (0: five or more)"),
            "near": Param(default=2, low=0, high=4,
                          meaning="searches consider empty cells within this distance of a "
                                  "stone (0: all); the rules allow every empty cell")},
    # The Gomoku report's agents (docs/gomoku.md): `heavy` is the heavy playout policy, `full`
    # the combination of every enhancement of the report (RAVE, sigmoid prior, forced actions,
    # progressive bias and unpruning) on plain UCT
    macros={"heavy": "ipp", "full": "rave10000,np10,fa,pb10,pu5"},
    openings={"centre": _centre_opening},
    default_opening="centre",
    options=frozenset({"policy", "np", "abp"}),
    typical_plies=60,
    bench_players=("MCTS", "MCTS(heavy)", "MCTS(rave10000)", "MCTS(full)", "αβ(efPT)"),
    # a middle game of 30 stones (random near-stone play with urgent moves from h8; no four
    # on the board): `arena bench gomoku --search` measures the searches here too
    bench_positions={"middle": ".............../.............../.............../.............../"
                     "........x....../.....oox......./....o.o...o..../.o.x...xo....../"
                     ".....ox....o.../...o..ox.xo..../......xo....x../...x.o..x.o..../"
                     "....x..x....x../........x....../............... x"},
    gtp_boardsize="size",
    draw=draw,
    # SGF (GM[4], Gomoku and Renju, as Sabaki reads it): points are two letters from the top
    # left (`aa`), our row 1 being the top row
    record="sgf", sgf_game=4, sgf_move=sgf_point, sgf_parse=from_sgf_point,
    sgf_setup=grid_setup,
)


# ---- knowledge: what a search knows of the game beyond its rules (state.pxd) ---------------------

include "gomoku_knowledge.pxi"
