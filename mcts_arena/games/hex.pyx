# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Hex on an n x n rhombus (n = 3..19, 11 by default), with the swap (pie) rule as an option.

Rules: Black (player 0, `x`) moves first and connects the top and bottom edges (rows 1 and n);
White (player 1, `o`) connects the left and right edges (columns a and the last). A move puts a
stone on an empty cell. Exactly one player connects on a full board, so there are no draws.
With the swap rule (`swap=True`), White's first move may be `swap`: Black's single stone is
taken off and a White stone put on the cell mirrored in the long diagonal (row and column
exchanged), and Black moves again: the usual "swap pieces" form, which keeps the edges.

Cells are `row * n + col` (row 0 = row 1, col 0 = file a); `swap` is the move id SWAP (400).
The Zobrist hash includes a salt per board size and swap rule.
Cell (r, c) touches (r-1, c), (r-1, c+1), (r, c+1), (r+1, c), (r+1, c-1), (r, c-1), in this
cyclic order, so two adjacent cells x, x+D[i] share exactly the common neighbours x+D[i-1] and
x+D[i+1]: the ends of the bridge whose carriers are x and x+D[i]. The four edges are virtual
cells n*n+0..3 (top, bottom: Black's; left, right: White's), so an edge is a stone of its
owner to the flood fill and to the bridge test (a stone on row 2 is "bridged" to row 1's edge).

Notation: `a1`..`s19` (file = column, number = row), `swap`. Text form: the rows from 1 to n
with `x`, `o`, `.`, separated by `/`, then ` x` or ` o` for the side to move, then ` swap`
when the swap rule is in force, e.g. `...../...../...../...../..... x` (5x5 start).

Win detection: a union-find over the stones (union by size, no path compression, so do_move's
unions are undone exactly by undo_move); each group's root records which of its owner's edges
the group touches, and a stone that leaves its group touching both wins: O(log cells) per move
instead of a flood fill over the group. The same records answer "would a stone here win"
(`is_decisive`, `threats`) without placing it. The random playout is the
fill-and-test-once of Browne's slides: the empty cells are shared out at random (the side to
move gets the extra one of an odd count) and one flood fill from the top edge says who won.

Bridge playouts (`ipp`; the `bridge` macro): when the opponent's last stone went into one
carrier of a bridge of the side to move (both ends its stones or its edge, the other carrier
empty), answer in the other carrier (at random among several), else a uniformly random cell.
`forced_move` gives the reply (so it comes before ε-greedy and αβ playouts) and
`policy_playout` runs a whole bridge playout on local arrays, testing the winner once at the end.

Evaluation efTD: two-distance potentials (van Rijswijck's Queenbee). The two-distance of an
empty cell to an edge is 1 if it touches the edge (directly or through a group of own stones),
else 1 + the second smallest two-distance among its neighbours (a group's neighbours count as
the cell's own): the opponent can always block the best route, so the second best is what is
guaranteed. A player's potential is the least sum of its two edge distances over the empty
cells; the value is tanh(d / 4) for Black with d = P_white - P_black clamped to [-16, 16]
(negated for White), so only a finished game scores +-1. Chosen over
electrical resistance (Anshelevich's Hexy) because it needs no linear solve: a few relaxation
sweeps over the board, O(cells) each, nogil and allocation-free, which is what the per-node
use in `im`/`cb` and αβ needs; resistance costs a dense O(cells^3) solve per evaluation.

Knowledge for PB/np/αβ ordering: a bridge reply (2) > a move making a bridge to an own stone
or edge (1) > other (0); `move_bias` = order / 2 plus a small centre term, `move_prior` a win
rate from 0.35 (plain) to 0.75 (bridge reply).
"""
from libc.stdint cimport uint64_t
from libc.string cimport memcpy, memset, memmove
from libc.math cimport tanh

from mcts_arena.rng cimport Rng, rng_below, rng_seed, splitmix64
from mcts_arena.games.state cimport GameState, Knowledge, ONGOING, DRAW, PP_IPP
from mcts_arena.games.grid cimport grid_cells, grid_hash
from mcts_arena.games.boardtext import cell_name, format_grid, parse_cell, parse_grid

cdef enum:
    MAXN = 19
    MAXC = 361            # MAXN * MAXN
    NB_SIZE = 366         # cells + 4 edges + "nobody"
    INF = 1000
    MAXW = 6              # 64-bit words of a cell bitboard (361 cells)

cdef enum:
    EF_TD = 1                 # local evaluation id: two-distance
    SWAP = 400
    V_TOP = 0
    V_BOTTOM = 1
    V_LEFT = 2
    V_RIGHT = 3
    V_NONE = 4

MIN_SIZE = 3
MAX_SIZE = MAXN
DEFAULT_SIZE = 11
SWAP_MOVE = SWAP

# NB[n][cell][i]: neighbour i of `cell` on the n x n board, off-board ones as virtual cells
# n*n + V_TOP.. (V_NONE past a corner).
cdef int NB[MAXN + 1][MAXC][6]
# EB[n][cell][p]: the edges of player p that `cell` touches (bit 1: top/left, bit 2: bottom/right)
cdef unsigned char EB[MAXN + 1][MAXC][2]
# bitboards of the n x n board (bit = cell, row by row): its first and last rows, and the cells
# not in its first / last column (the sources that may shift sideways)
cdef uint64_t TOPROW[MAXN + 1][MAXW]
cdef uint64_t BOTROW[MAXN + 1][MAXW]
cdef uint64_t NOTFIRST[MAXN + 1][MAXW]
cdef uint64_t NOTLAST[MAXN + 1][MAXW]
cdef int DR[6]
cdef int DC[6]
DR[:] = [-1, -1, 0, 1, 1, 0]
DC[:] = [0, 1, 1, 0, -1, -1]


cdef void _init_tables():
    cdef int n, r, c, i, rr, cc, v
    memset(TOPROW, 0, sizeof(TOPROW))
    memset(BOTROW, 0, sizeof(BOTROW))
    memset(NOTFIRST, 0, sizeof(NOTFIRST))
    memset(NOTLAST, 0, sizeof(NOTLAST))
    for n in range(3, MAXN + 1):
        for r in range(n):
            for c in range(n):
                for i in range(6):
                    rr = r + DR[i]
                    cc = c + DC[i]
                    if 0 <= rr < n and 0 <= cc < n:
                        v = rr * n + cc
                    elif rr < 0 and 0 <= cc < n:
                        v = n * n + V_TOP
                    elif rr >= n and 0 <= cc < n:
                        v = n * n + V_BOTTOM
                    elif cc < 0 and 0 <= rr < n:
                        v = n * n + V_LEFT
                    elif cc >= n and 0 <= rr < n:
                        v = n * n + V_RIGHT
                    else:
                        v = n * n + V_NONE
                    NB[n][r * n + c][i] = v
                EB[n][r * n + c][0] = (1 if r == 0 else 0) | (2 if r == n - 1 else 0)
                EB[n][r * n + c][1] = (1 if c == 0 else 0) | (2 if c == n - 1 else 0)
                v = r * n + c
                if r == 0:
                    TOPROW[n][v >> 6] |= (<uint64_t>1) << (v & 63)
                if r == n - 1:
                    BOTROW[n][v >> 6] |= (<uint64_t>1) << (v & 63)
                if c != 0:
                    NOTFIRST[n][v >> 6] |= (<uint64_t>1) << (v & 63)
                if c != n - 1:
                    NOTLAST[n][v >> 6] |= (<uint64_t>1) << (v & 63)


_init_tables()

cdef uint64_t ZOB[2][MAXC]
cdef uint64_t ZOB_SIDE
cdef uint64_t _seed = 0x4E5C0DE11
cdef int _sq
for _sq in range(MAXC):
    ZOB[0][_sq] = splitmix64(&_seed)
    ZOB[1][_sq] = splitmix64(&_seed)
ZOB_SIDE = splitmix64(&_seed)
# one salt per (size, swap rule): equal stone sets on different boards or rules never share a
# hash (a transposition table may outlive one game)
cdef uint64_t SALT[MAXN + 1][2]
for _sq in range(MAXN + 1):
    SALT[_sq][0] = splitmix64(&_seed)
    SALT[_sq][1] = splitmix64(&_seed)


# ---- on a board array: connection tests, bridge patterns, two-distance steps ----------------

include "hex_board.pxi"


cdef class Hex(GameState):
    """Hex position; see the module docstring for rules and conventions."""

    name = "hex"
    eval_functions = {"efTD": EF_TD}

    cdef public int n               # board size
    cdef public bint swap_rule
    cdef int nc                     # cells (n * n)
    cdef int nstones
    cdef int res
    cdef unsigned char cell[NB_SIZE]
    cdef int hist_move[MAXC + 4]
    cdef int hist_res[MAXC + 4]
    cdef int hist_aux[MAXC + 4]     # swap: the cell Black's stone was on
    # union-find over the stones (union by size, no path compression, so it can be undone):
    # each group's root holds its size and the edges of its owner it touches (EB bits)
    cdef int uf_parent[MAXC]
    cdef int uf_size[MAXC]
    cdef unsigned char uf_edges[MAXC]
    cdef int uf_log[MAXC + 4][3]    # per ply, the unions made: attached root * 4 + old edge bits
    cdef unsigned char uf_n[MAXC + 4]

    def __init__(self, int size=11, swap=0):
        if not MIN_SIZE <= size <= MAX_SIZE:
            raise ValueError(f"bad Hex size {size}: valid {MIN_SIZE}..{MAX_SIZE}")
        self._setup(size, bool(swap))
        self._finish(0)

    cdef void _setup(self, int size, bint swap):
        cdef int i
        self.n = size
        self.nc = size * size
        self.max_moves = size * size + 1
        self.swap_rule = swap
        for i in range(NB_SIZE):
            self.cell[i] = 0
        _set_edges(self.cell, self.nc)

    cdef void _finish(self, int player):
        """Side to move, counters, result and hash from the cells."""
        cdef int c
        cdef int scratch[3]
        cdef unsigned char tmp[NB_SIZE]
        self.player = player
        self.ply = 0
        self.nstones = 0
        self.hash = grid_hash(self.cell, self.nc, ZOB[0], ZOB[1], (ZOB_SIDE if player == 1 else 0)
                              ^ SALT[self.n][1 if self.swap_rule else 0])
        for c in range(self.nc):
            if self.cell[c]:
                self.nstones += 1
        self.res = ONGOING
        # the union-find, stone by stone (a stone joins only the stones already put back)
        memcpy(tmp, self.cell, NB_SIZE)
        for c in range(self.nc):
            self.cell[c] = 0
        for c in range(self.nc):
            if tmp[c]:
                self.cell[c] = tmp[c]
                self._join(c, tmp[c] - 1, scratch)
        memcpy(tmp, self.cell, NB_SIZE)
        if _black_connected(tmp, self.n):
            self.res = 0
        memcpy(tmp, self.cell, NB_SIZE)
        if _white_connected(tmp, self.n):
            self.res = 1 if self.res == ONGOING else DRAW   # DRAW marks "both": rejected by caller

    cdef inline bint _swap_available(self) noexcept nogil:
        return self.swap_rule and self.player == 1 and self.nstones == 1 and self.ply_black_only()

    cdef inline bint ply_black_only(self) noexcept nogil:
        cdef int c
        for c in range(self.nc):
            if self.cell[c] == 2:
                return False
        return True

    cdef inline int _find(self, int x) noexcept nogil:
        while self.uf_parent[x] != x:
            x = self.uf_parent[x]
        return x

    cdef int _join(self, int x, int p, int* log) noexcept nogil:
        """Add p's stone on x (already on the board) to the union-find, merging it with the
        groups of p around it; the unions are written to `log` (3 at most: six neighbours hold
        at most three separate groups). Returns how many."""
        cdef int i, y, ry, a, r, root = x, k = 0, col = p + 1, nc = self.nc
        cdef int* nb = NB[self.n][x]
        self.uf_parent[x] = x
        self.uf_size[x] = 1
        self.uf_edges[x] = EB[self.n][x][p]
        for i in range(6):
            y = nb[i]
            if y < nc and self.cell[y] == col:
                ry = self._find(y)
                if ry != root:
                    if self.uf_size[ry] >= self.uf_size[root]:
                        a = root
                        r = ry
                    else:
                        a = ry
                        r = root
                    log[k] = a * 4 + self.uf_edges[r]
                    k += 1
                    self.uf_parent[a] = r
                    self.uf_size[r] += self.uf_size[a]
                    self.uf_edges[r] |= self.uf_edges[a]
                    root = r
        return k

    cdef inline void _unjoin(self, int* log, int k) noexcept nogil:
        """Undo the k unions of `log`, last first."""
        cdef int a, r
        while k > 0:
            k -= 1
            a = log[k] >> 2
            r = self.uf_parent[a]
            self.uf_edges[r] = log[k] & 3
            self.uf_size[r] -= self.uf_size[a]
            self.uf_parent[a] = a

    cdef inline bint _would_connect(self, int x, int p) noexcept nogil:
        """Would p's stone on the empty cell x join both of p's edges? (nothing changes)"""
        cdef int i, y, col = p + 1, nc = self.nc
        cdef int* nb = NB[self.n][x]
        cdef unsigned char e = EB[self.n][x][p]
        for i in range(6):
            y = nb[i]
            if y < nc and self.cell[y] == col:
                e |= self.uf_edges[self._find(y)]
        return e == 3

    # ---- rules ----------------------------------------------------------------------------
    cdef int gen_moves(self, int* out) noexcept nogil:
        cdef int c, k = 0
        for c in range(self.nc):
            if self.cell[c] == 0:
                out[k] = c
                k += 1
        if self._swap_available():
            out[k] = SWAP
            k += 1
        return k

    cdef void do_move(self, int move) noexcept nogil:
        cdef int p = self.player, c, t
        self.hist_move[self.ply] = move
        self.hist_res[self.ply] = self.res
        if move == SWAP:
            # swap is legal only with Black's one stone on the board (_swap_available): find it
            # with a loop that leaves c set on every path (a for-range over an empty range
            # would not, which gcc rightly flagged as maybe-uninitialized)
            c = 0
            while c < self.nc - 1 and self.cell[c] != 1:
                c += 1
            t = (c % self.n) * self.n + c // self.n
            self.hist_aux[self.ply] = c
            self.cell[c] = 0
            self.cell[t] = 2
            self.hash ^= ZOB[0][c] ^ ZOB[1][t]
            # Black's stone was alone (a singleton group), White's new one is alone too
            self.uf_n[self.ply] = self._join(t, 1, self.uf_log[self.ply])
        else:
            self.cell[move] = p + 1
            self.hash ^= ZOB[p][move]
            self.nstones += 1
            self.uf_n[self.ply] = self._join(move, p, self.uf_log[self.ply])
            if self.uf_edges[self._find(move)] == 3:
                self.res = p
        self.hash ^= ZOB_SIDE
        self.player = 1 - p
        self.ply += 1

    cdef void undo_move(self) noexcept nogil:
        self.ply -= 1
        cdef int move = self.hist_move[self.ply], c, t
        cdef int p = 1 - self.player
        if move == SWAP:
            c = self.hist_aux[self.ply]
            t = (c % self.n) * self.n + c // self.n
            self.cell[t] = 0
            self.cell[c] = 1
            self.hash ^= ZOB[0][c] ^ ZOB[1][t]
            self.uf_parent[c] = c          # Black's lone stone back (t may be c itself)
            self.uf_size[c] = 1
            self.uf_edges[c] = EB[self.n][c][0]
        else:
            self._unjoin(self.uf_log[self.ply], self.uf_n[self.ply])
            self.cell[move] = 0
            self.hash ^= ZOB[p][move]
            self.nstones -= 1
        self.hash ^= ZOB_SIDE
        self.res = self.hist_res[self.ply]
        self.player = p

    cdef int result(self) noexcept nogil:
        return self.res

    # ---- playouts -------------------------------------------------------------------------
    cdef int random_playout(self, Rng* rng, int max_plies) noexcept nogil:
        """Fill-and-test-once: share the empty cells out at random (the side to move gets
        ceil(k/2) of k), then one connection test says who connects (the winner of the full
        board is the winner of the game). A max_plies short of filling the board plays move by
        move. The filled board is only a bitboard of Black's stones, tested by
        _black_bits_connected (the swap rule's one position keeps a board copy)."""
        cdef unsigned char b[NB_SIZE]
        cdef uint64_t black[MAXW]
        cdef int empties[MAXC]
        cdef int k = 0, c, i, j, t, nother, p = self.player, nc = self.nc, w, lo, hi
        cdef unsigned char* cell = self.cell
        if self.res != ONGOING:
            return self.res
        if max_plies < self.nc - self.nstones + 1:
            # a ply limit short of a full board: the base class's move-by-move loop
            return GameState.random_playout(self, rng, max_plies)
        if self._swap_available():
            memcpy(b, self.cell, NB_SIZE)
            for c in range(nc):
                empties[k] = c
                k += b[c] == 0
            if rng_below(rng, k + 1) == k:
                self._swap_on(b)
                p = 0
            nother = k >> 1
            for i in range(nother):
                j = i + rng_below(rng, k - i)
                t = empties[j]
                empties[j] = empties[i]
                empties[i] = t
                b[t] = 2 - p
            for i in range(nother, k):
                b[empties[i]] = p + 1
            return 0 if _board_black_connected(b, self.n) else 1
        for w in range(MAXW):
            black[w] = 0
        for c in range(nc):        # branch-free: a board in the tree is mostly empty
            empties[k] = c
            k += cell[c] == 0
            black[c >> 6] |= (<uint64_t>(cell[c] == 1)) << (c & 63)
        # the opponent's floor(k/2) cells: a partial Fisher-Yates shuffle picks them
        nother = k >> 1
        for i in range(nother):
            j = i + rng_below(rng, k - i)
            t = empties[j]
            empties[j] = empties[i]
            empties[i] = t
        # Black's share: the rest when Black is to move, else the picked cells
        lo = nother if p == 0 else 0
        hi = k if p == 0 else nother
        for i in range(lo, hi):
            t = empties[i]
            black[t >> 6] |= (<uint64_t>1) << (t & 63)
        return 0 if _black_bits_connected(black, self.n) else 1

    cdef int recorded_playout(self, Rng* rng, int* moves, signed char* movers, int cap,
                              int* count) noexcept nogil:
        """RAVE's playout: GameState's move-by-move loop (a uniformly random empty cell each
        ply, recorded, until a side connects), with the same draws: the empty cells are kept
        in increasing order, as gen_moves lists them, so cell i of the list is the move the
        loop's `moves[rng_below(n)]` picks; instead of a scan of the board per ply, the drawn
        cell leaves the list. The win test is do_move's union-find. Where the swap can still
        come up (the swap rule, at most one stone) the base loop runs."""
        cdef int empties[MAXC]
        cdef int k = 0, c, i, m, depth = 0, rec = 0, res = self.res
        if self.swap_rule and self.nstones <= 1:
            return GameState.recorded_playout(self, rng, moves, movers, cap, count)
        for c in range(self.nc):
            empties[k] = c
            k += self.cell[c] == 0
        while res == ONGOING and k > 0:
            i = rng_below(rng, k)
            m = empties[i]
            k -= 1
            memmove(&empties[i], &empties[i + 1], (k - i) * sizeof(int))
            if rec < cap:
                moves[rec] = m
                movers[rec] = self.player
                rec += 1
            self.do_move(m)
            depth += 1
            res = self.res
        count[0] = rec
        count[1] = depth
        while depth > 0:
            self.undo_move()
            depth -= 1
        return res

    cdef void _swap_on(self, unsigned char* b) noexcept nogil:
        cdef int c
        for c in range(self.nc):
            if b[c] == 1:
                b[c] = 0
                b[(c % self.n) * self.n + c // self.n] = 2
                return

    cdef void _bridge_fill(self, unsigned char* b, Rng* rng) noexcept nogil:
        """Fill a copy b of the board by a bridge playout."""
        cdef int empties[MAXC]
        cdef int where[MAXC]
        cdef int k = 0, c, i, m, last = -1, p = self.player, n = self.n
        memcpy(b, self.cell, NB_SIZE)
        if self.ply > 0 and self.hist_move[self.ply - 1] != SWAP:
            last = self.hist_move[self.ply - 1]
        if self._swap_available():
            for c in range(self.nc):
                if b[c] == 0:
                    k += 1
            if rng_below(rng, k + 1) == k:
                self._swap_on(b)
                p = 0
                last = -1
            k = 0
        for c in range(self.nc):
            if b[c] == 0:
                where[c] = k
                empties[k] = c
                k += 1
        while k > 0:
            m = -1
            if last >= 0:
                m = _bridge_reply(b, n, last, p + 1, rng)
            if m < 0:
                m = empties[rng_below(rng, k)]
            # remove m from the empty list
            i = where[m]
            k -= 1
            empties[i] = empties[k]
            where[empties[i]] = i
            b[m] = p + 1
            last = m
            p = 1 - p

    # ---- what the knowledge reads (the game's Knowledge class, below) ----------------------------
    cdef int _potential(self, int p) noexcept nogil:
        """min over empty cells of (two-distance to p's first edge + to its second edge)."""
        cdef int d1[MAXC]
        cdef int d2[MAXC]
        cdef int c, best = 2 * INF, s
        cdef int nc = self.nc
        self._two_distance(p, nc + (V_TOP if p == 0 else V_LEFT), d1)
        self._two_distance(p, nc + (V_BOTTOM if p == 0 else V_RIGHT), d2)
        for c in range(nc):
            if self.cell[c] == 0:
                s = d1[c] + d2[c]
                if s < best:
                    best = s
        return best if best < 2 * INF else 2 * INF

    # one function, not steps: split into steps (a function each), αβ(efTD) ran 6% slower
    cdef void _two_distance(self, int p, int edge, int* d) noexcept nogil:
        """Two-distances of the empty cells to `edge` for player p (INF where unreachable),
        breadth-first by value: a settled node (the edge, then empty cells by value v) is counted
        by each empty cell of its neighbourhood (direct, or through an adjacent group of p's
        stones); the second one a cell counts settles it at v + 1 (cells seeing the edge settle
        at 1)."""
        cdef int n = self.n, nc = self.nc, col = p + 1
        cdef TwoDistance t
        cdef int ng = 0, c, i, j, y, x, g, sp, qh = 0, qt = 0, v, k, top = 0
        cdef int* nb
        for c in range(nc):
            t.grp[c] = -1
            d[c] = INF
            t.cnt[c] = 0
            t.mark[c] = -1
            t.gmark[c] = -1
        # label groups and list each group's adjacent empties (a cell may repeat)
        for c in range(nc):
            if self.cell[c] == col and t.grp[c] < 0:
                t.gstart[ng] = top
                t.gedge[ng] = 0
                t.grp[c] = ng
                t.stack[0] = c
                sp = 1
                while sp > 0:
                    sp -= 1
                    x = t.stack[sp]
                    nb = NB[n][x]
                    for i in range(6):
                        y = nb[i]
                        if y < nc:
                            if self.cell[y] == col and t.grp[y] < 0:
                                t.grp[y] = ng
                                t.stack[sp] = y
                                sp += 1
                            elif self.cell[y] == 0 and t.mark[y] != ng:
                                t.mark[y] = ng
                                t.gadj[top] = y
                                top += 1
                        elif y == edge:
                            t.gedge[ng] = 1
                ng += 1
        t.gstart[ng] = top
        for c in range(nc):
            t.mark[c] = -1
        # level 1: empties touching the edge, directly or through a group
        for c in range(nc):
            if self.cell[c] != 0:
                continue
            nb = NB[n][c]
            for i in range(6):
                y = nb[i]
                if y == edge or (y < nc and self.cell[y] == col and t.gedge[t.grp[y]]):
                    d[c] = 1
                    t.queue[qt] = c
                    qt += 1
                    break
        while qh < qt:
            x = t.queue[qh]
            qh += 1
            v = d[x] + 1
            nb = NB[n][x]
            for i in range(6):
                y = nb[i]
                if y >= nc:
                    continue
                if self.cell[y] == 0:
                    _count(y, x, v, d, t.cnt, t.mark, t.queue, &qt)
                elif self.cell[y] == col:
                    g = t.grp[y]
                    if t.gmark[g] == x:
                        continue
                    t.gmark[g] = x
                    for j in range(t.gstart[g], t.gstart[g + 1]):
                        k = t.gadj[j]
                        if k != x:
                            _count(k, x, v, d, t.cnt, t.mark, t.queue, &qt)

    # ---- the one-move win test, and what the knowledge reads -------------------------------------
    cdef bint is_decisive(self, int move) noexcept nogil:
        if move == SWAP:
            return False
        return self._would_connect(move, self.player)

    cdef bint _is_reply(self, int last, int move) noexcept nogil:
        cdef int i, a, bb
        cdef int* nb = NB[self.n][last]
        cdef int me = self.player + 1
        for i in range(6):
            if nb[i] != move:
                continue
            a = nb[(i + 5) % 6]
            bb = nb[(i + 1) % 6]
            return a != bb and self.cell[a] == me and self.cell[bb] == me
        return False

    cdef double _centre(self, int move) noexcept nogil:
        """1 at the centre, 0 in the corners (hex distance to the centre, scaled)."""
        cdef double h = (self.n - 1) / 2.0
        cdef double dr = move // self.n - h, dc = move % self.n - h
        cdef double s = dr + dc
        cdef double dist = (abs(dr) + abs(dc) + abs(s)) / 2.0
        return 1.0 - dist / (2.0 * h)

    cdef GameState clone(self):
        cdef Hex c = Hex.__new__(Hex)
        c.n = self.n
        c.nc = self.nc
        c.max_moves = self.max_moves
        c.swap_rule = self.swap_rule
        c.nstones = self.nstones
        c.res = self.res
        c.player = self.player
        c.ply = self.ply
        c.hash = self.hash
        memcpy(c.cell, self.cell, NB_SIZE)
        memcpy(c.uf_parent, self.uf_parent, self.nc * sizeof(int))
        memcpy(c.uf_size, self.uf_size, self.nc * sizeof(int))
        memcpy(c.uf_edges, self.uf_edges, self.nc)
        memcpy(c.uf_log, self.uf_log, self.ply * sizeof(int) * 3)
        memcpy(c.uf_n, self.uf_n, self.ply)
        memcpy(c.hist_move, self.hist_move, self.ply * sizeof(int))
        memcpy(c.hist_res, self.hist_res, self.ply * sizeof(int))
        memcpy(c.hist_aux, self.hist_aux, self.ply * sizeof(int))
        return c

    # ---- Python face ----------------------------------------------------------------------
    def format_move(self, int move):
        if move == SWAP:
            return "swap"
        return cell_name(move, self.n, "Hex")

    def parse_move(self, str text):
        if text.strip().lower() == "swap":
            return SWAP
        return parse_cell(text, self.n, "Hex", " or 'swap'")

    def _ch(self, int c):
        return ".xo"[self.cell[c]]

    def to_text(self):
        return format_grid(self.cells(), self.n, self.player, "swap" if self.swap_rule else None)

    @classmethod
    def from_text(cls, str text, size=None, swap=None):
        """Read the text form (see the module docstring); `size` and `swap`, when given, must
        agree with it (a text without ` swap` takes the swap rule from `swap`)."""
        rows, side, swap = parse_grid(text, "Hex", "swap", swap, size, MIN_SIZE, MAX_SIZE)
        n = len(rows)
        nx = sum(r.count("x") for r in rows)
        no = sum(r.count("o") for r in rows)
        ok = (nx == no and side == 0) or (nx == no + 1 and side == 1)
        if swap:       # after a swap White is one stone ahead
            ok = ok or (no == nx + 1 and side == 0) or (nx == no and nx >= 1 and side == 1)
        if not ok:
            raise ValueError(f"bad Hex position {text!r}: {nx} x and {no} o stones with "
                             f"{'xo'[side]!r} to move cannot arise"
                             + ("" if swap else " (without the swap rule)"))
        cdef Hex s = cls.__new__(cls)
        s._setup(n, swap)
        for r, row in enumerate(rows):
            for c, ch in enumerate(row):
                s.cell[r * n + c] = ".xo".index(ch)
        s._finish(side)
        if s.res == DRAW:
            raise ValueError(f"bad Hex position {text!r}: both sides connect")
        if s.res == side:
            raise ValueError(f"bad Hex position {text!r}: the side to move has already won")
        return s

    def knowledge(self):
        return HexKnowledge()

    def board_str(self):
        files = "abcdefghijklmnopqrs"[:self.n]
        lines = ["   " + " ".join(files)]
        for r in range(self.n):
            lines.append(" " * r + f"{r + 1:>2} " + " ".join(self._ch(r * self.n + c)
                                                         for c in range(self.n)))
        r = self.res
        if r == ONGOING:
            lines.append(("Black (x, top-bottom)" if self.player == 0
                          else "White (o, left-right)") + " to move")
        else:
            lines.append(("Black" if r == 0 else "White") + " has won")
        return "\n".join(lines)

    # ---- helpers for tests and tools --------------------------------------------------------
    def hash_from_scratch(self):
        return grid_hash(self.cell, self.nc, ZOB[0], ZOB[1], (ZOB_SIDE if self.player == 1 else 0)
                         ^ SALT[self.n][1 if self.swap_rule else 0])

    def cells(self):
        """The board as a list of 0 (empty), 1 (Black), 2 (White), row by row."""
        return grid_cells(self.cell, self.nc)

    def two_distances(self, int p, str edge):
        """Two-distance map (list, None for stones and unreachable) of player p to an edge
        ('first' = top/left, 'second' = bottom/right), for tests and for looking."""
        cdef int d[MAXC]
        e = self.nc + ((V_TOP if p == 0 else V_LEFT) if edge == "first"
                       else (V_BOTTOM if p == 0 else V_RIGHT))
        self._two_distance(p, e, d)
        return [None if (self.cell[c] or d[c] >= INF) else d[c] for c in range(self.nc)]

    def potential(self, int p):
        return self._potential(p)

    def py_threats(self, int limit=400):
        """The opponent's wins in one (notation), as `threats` lists them for the solver."""
        cdef int out[MAXC]
        cdef int k = _threats(self, out, min(limit, MAXC))
        return [self.format_move(out[i]) for i in range(k)]

    def py_forced_move(self, unsigned long long seed=1):
        """The bridge reply here (notation) or None."""
        cdef Rng r
        rng_seed(&r, seed)
        m = _forced_move(self, NULL, 0, &r)
        return None if m < 0 else self.format_move(m)

    def bridge_playout_board(self, unsigned long long seed=1):
        """The full board one bridge playout from here ends on (0/1/2 per cell)."""
        cdef Rng r
        cdef unsigned char b[NB_SIZE]
        rng_seed(&r, seed)
        self._bridge_fill(b, &r)
        return [b[c] for c in range(self.nc)]

    def bridge_playout_result(self, unsigned long long seed=1):
        """Result of one bridge playout from here (state restored)."""
        cdef Rng r
        rng_seed(&r, seed)
        return _policy_playout(self, PP_IPP, &r)


def connection_tests(int n, cells):
    """(bitboard test, flood-fill test) of "Black connects top and bottom" for an n x n board
    given as a list of 0/1/2 per cell (for tests: both against a plain reference)."""
    cdef unsigned char b[NB_SIZE]
    if not MIN_SIZE <= n <= MAX_SIZE or len(cells) != n * n:
        raise ValueError("need n in 3..19 and n*n cells")
    for c in range(n * n):
        b[c] = cells[c]
    _set_edges(b, n * n)
    first = _board_black_connected(b, n)
    return bool(first), bool(_black_connected(b, n))


def draw(state, last=None):
    """The position as SVG (the game viewer's board): the rhombus with row 1 at the top, Black's
    edges (top and bottom) dark, White's (left and right) light, stones as discs, the last
    stone marked (`last` = (seat, move id); a swap marks nothing)."""
    import math

    from mcts_arena.games.drawing import BLACK_STONE, FILES, MARK, WHITE_STONE, Svg, ranks_of

    rows, side = ranks_of(state.to_text())
    n = len(rows)
    r = 14.0                            # a hexagon's circumradius (pointy top)
    w = math.sqrt(3) * r
    x0, y0 = 4.2 * r, 4.2 * r

    def centre(row, col):
        return x0 + col * w + row * w / 2, y0 + row * 1.5 * r
    width = x0 + (n - 1) * 1.5 * w + w / 2 + 2.6 * r
    height = y0 + (n - 1) * 1.5 * r + 2.6 * r
    svg = Svg(width, height, f"Hex {n}x{n}, {'Black' if side == 'x' else 'White'} to move")
    corners = [centre(0, 0), centre(0, n - 1), centre(n - 1, n - 1), centre(n - 1, 0)]
    cx = sum(p[0] for p in corners) / 4
    cy = sum(p[1] for p in corners) / 4

    def out(p):                         # a corner pushed out from the middle: the edge bands
        dx, dy = p[0] - cx, p[1] - cy
        d = math.hypot(dx, dy) or 1.0
        return cx + dx * (d + 2.4 * r) / d, cy + dy * (d + 2.4 * r) / d
    tl, tr, br, bl = (out(p) for p in corners)
    for a, b, fill in ((tl, tr, BLACK_STONE), (tr, br, "#f4f4f4"), (br, bl, BLACK_STONE),
                       (bl, tl, "#f4f4f4")):
        svg.polygon([a, b, (cx, cy)], fill, stroke="#777777", stroke_width=1)
    hexagon = [(r * math.cos(math.radians(30 + 60 * k)), r * math.sin(math.radians(30 + 60 * k)))
               for k in range(6)]
    for row, text in enumerate(rows):
        for col, ch in enumerate(text):
            x, y = centre(row, col)
            svg.polygon([(x + dx, y + dy) for dx, dy in hexagon], "#e8d7b0", stroke="#7a6a4a",
                        stroke_width=1)
            if ch in "xo":
                svg.circle(x, y, r * 0.7, BLACK_STONE if ch == "x" else WHITE_STONE,
                           stroke="#111111", stroke_width=1)
        x, y = centre(row, 0)
        svg.text(x - w / 2 - 2.6 * r, y, row + 1, size=10)
    for col in range(n):
        x, y = centre(0, col)
        svg.text(x, y - 3.4 * r, FILES[col], size=10)
    if last is not None and 0 <= last[1] < n * n:
        x, y = centre(*divmod(last[1], n))
        svg.circle(x, y, r * 0.25, MARK)
    return str(svg)


from mcts_arena.games.boardtext import grid_setup
from mcts_arena.games.info import GameInfo, Param


def _sgf_move(notation):
    return "swap-pieces" if notation == "swap" else notation


def _sgf_parse(value):
    return "swap" if value.lower() in ("swap-pieces", "swap") else value


GAME = GameInfo(
    name="hex",
    description="Hex n x n (size 3-19, 11 by default; swap=1 for the pie rule): connect your edges",
    cls=Hex,
    evals=Hex.eval_functions,
    default_eval="efTD",
    eval_meanings={"efTD": "two-distance potentials (Queenbee): the opponent's least two-distance "
                           "connection minus mine, tanh(d / 4)"},
    default_c=1.0,
    params={"size": Param(default=11, low=3, high=19, meaning="board side"),
            "swap": Param(default=0, low=0, high=1,
                          meaning="swap (pie) rule on White's first move")},
    # Browne's "UCT with bridge playouts": the game's improved playout policy is the bridge reply
    macros={"bridge": "ipp"},
    options=frozenset({"policy", "np", "abp"}),
    typical_plies=60,
    bench_players=("MCTS", "MCTS(bridge)", "MCTS(rave300)", "αβ(efTD)"),
    draw=draw,
    # GTP: `boardsize N` is the size parameter, as for HexGui and Hex engines (MoHex); without
    # it a controller was refused every size and an outside engine was never told the size
    gtp_boardsize="size",
    # SGF as HexGui writes it: GM[11], cells by their name (a1 = column a, row 1, as ours),
    # the swap move `swap-pieces`
    record="sgf", sgf_game=11, sgf_move=_sgf_move, sgf_parse=_sgf_parse, sgf_setup=grid_setup,
)


# ---- knowledge: what a search knows of the game beyond its rules (state.pxd) ---------------------

include "hex_knowledge.pxi"
