# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The Game of the Amazons on an n x n board (n = 6..10; 10, the usual game, by default).

Rules: each side has four amazons (queens). A move is two steps by the side to move: one of its
amazons moves like a chess queen (any distance along a row, column or diagonal, over empty
squares only, never onto or through an amazon or an arrow), then that amazon shoots an arrow
the same way from where it landed (it may shoot back through or onto the square it left); the
arrow's square is blocked for the rest of the game. A side with no move on its turn loses:
there are no draws and no passes. White (player 0) moves first.

Start (as OpenSpiel's `amazons(board_size=n)` and the usual 10 x 10 game): with k = (n - 4) / 2
(rounded down), White's amazons on rank 1 at files k and n-1-k and on rank k+1 at files a and
the last; Black's mirrored on rank n and rank n-k. 10 x 10: White a4 d1 g1 j4, Black a7 d10
g10 j7; 6 x 6: White a2 b1 e1 f2, Black a5 b6 e6 f5. (OpenSpiel plays 6, 8 and 10; the odd
sizes follow the same formula.)

Squares are `row * n + col` (row 0 = rank 1, col 0 = file a). A move is
`(from * n*n + to) * n*n + arrow`: a small non-negative int (below 10^6 on 10 x 10, below
65,536 on 6 x 6). Notation: `from-to/arrow`, e.g. `d1-d7/g7` (the amazon from d1 to d7, the
arrow to g7), as Amazons records write it. Text form: the ranks from rank n down to rank 1
separated by `/`, each n characters from `w` (a White amazon), `b` (Black), `x` (an arrow) and
`.`, then ` w` or ` b` for the side to move.

Inside, the board is a mailbox with a border: (n + 2) x (n + 2) cells, the border blocked, so
a ray stops at the first non-empty cell with no bounds test.

Evaluations (side to move's view, ±1 for a decided game):
- efQD: queen-distance territory, the "minimum distance" territory of Amazons programs
  (Lieberum, "An evaluation function for the game of Amazons", Theoretical
  Computer Science 349 (2005); the territory term of Lorentz's Invader, "Amazons Discover
  Monte-Carlo", Computers and Games 2008): each empty square belongs to the side that reaches
  it in fewer queen moves (none on a tie or when neither reaches it); d = White's squares -
  Black's, tanh(d / n);
- efMob: mobility, the squares each side's amazons reach in one queen move; tanh(d / 2n).
Playout policy (`ipp`): a uniformly random move, but a move whose arrow lands next to an enemy
amazon weighs 4 (module function `amazons_playout_move`).
"""
from libc.stdint cimport uint64_t
from libc.math cimport tanh
from libc.string cimport memcpy, memset

from mcts_arena.rng cimport Rng, rng_below, splitmix64
from mcts_arena.games.history cimport (History, history_copy, history_free, history_init,
                                        history_reserve)
from mcts_arena.games.state cimport GameState, Knowledge, ONGOING, PP_IPP

import re

cdef enum:
    MIN_N = 6
    MAX_N = 10
    MAX_W = MAX_N + 2
    MAX_CELLS = MAX_W * MAX_W       # the mailbox of the largest board, border included
    MAX_SQ = MAX_N * MAX_N
    EMPTY = 0                        # an amazon of player p is p + 1
    ARROW = 3
    EDGE = 4
    # the most destinations of four amazons in one position: 4 x (4n - 4) on 10 x 10
    MAX_DEST = 4 * (4 * MAX_N - 4)
    FAR = 255                        # an unreached square of the queen-distance search

# Evaluation functions (ids local to this game; 0, the default, is efQD).
cdef enum:
    EF_QD = 1
    EF_MOB = 2
# an arrow next to an enemy amazon weighs this much in the ipp playout policy (a plain move 1)
cdef int TOUCH_WEIGHT = 4

# MB2EXT[n][cell]: the square of mailbox cell `cell` on an n x n board (-1 on the border);
# EXT2MB[n][sq] back. One table per size, so a state carries two pointers, not two arrays.
cdef int MB2EXT[MAX_N + 1][MAX_CELLS]
cdef int EXT2MB[MAX_N + 1][MAX_SQ]
cdef int _n, _r, _c
for _n in range(MIN_N, MAX_N + 1):
    for _r in range(MAX_CELLS):
        MB2EXT[_n][_r] = -1
    for _r in range(_n):
        for _c in range(_n):
            MB2EXT[_n][(_r + 1) * (_n + 2) + _c + 1] = _r * _n + _c
            EXT2MB[_n][_r * _n + _c] = (_r + 1) * (_n + 2) + _c + 1

cdef uint64_t ZQ[2][MAX_SQ]         # an amazon of each side on a square
cdef uint64_t ZA[MAX_SQ]            # an arrow on a square
cdef uint64_t ZSIDE
cdef uint64_t _seed = 0xA3A205C5
for _r in range(MAX_SQ):
    ZQ[0][_r] = splitmix64(&_seed)
    ZQ[1][_r] = splitmix64(&_seed)
    ZA[_r] = splitmix64(&_seed)
ZSIDE = splitmix64(&_seed)


cdef struct Undo:
    int move
    uint64_t hash


def start_squares(int n):
    """([White's four squares], [Black's]) of the start position on an n x n board."""
    k = (n - 4) // 2
    white = [k, n - 1 - k, k * n, k * n + n - 1]
    black = [(n - 1 - r) * n + c for r, c in (divmod(sq, n) for sq in white)]
    return sorted(white), sorted(black)


def queen_reach_max(int n):
    """The most squares one queen reaches in one move on an empty n x n board."""
    best = 0
    for r in range(n):
        for c in range(n):
            diag = min(r, c) + min(n - 1 - r, n - 1 - c) + min(r, n - 1 - c) + min(n - 1 - r, c)
            best = max(best, 2 * (n - 1) + diag)
    return best


cdef class Amazons(GameState):
    """Amazons position; see the module docstring for rules and conventions."""

    name = "amazons"
    eval_functions = {"efQD": EF_QD, "efMob": EF_MOB}

    cdef public int n                # board side
    cdef int nc                      # squares: n * n
    cdef int d[8]                    # the eight directions in the mailbox
    cdef unsigned char cell[MAX_CELLS]
    cdef int q[2][4]                 # each side's amazons (mailbox cells), in ascending order
    cdef int* m2e                    # MB2EXT / EXT2MB of this size
    cdef int* e2m
    cdef History hist

    def __cinit__(self):
        history_init(&self.hist, sizeof(Undo))

    def __dealloc__(self):
        history_free(&self.hist)

    def __init__(self, int size=10):
        if not MIN_N <= size <= MAX_N:
            raise ValueError(f"bad Amazons size {size}: valid {MIN_N}..{MAX_N}")
        white, black = start_squares(size)
        self._setup(size)
        for i in range(4):
            self.cell[self.e2m[white[i]]] = 1
            self.cell[self.e2m[black[i]]] = 2
        self._finish(0)

    cdef void _setup(self, int size):
        """An empty board of side `size` (the border blocked)."""
        cdef int w = size + 2, i
        self.n = size
        self.nc = size * size
        self.max_moves = 4 * queen_reach_max(size) ** 2
        self.m2e = MB2EXT[size]
        self.e2m = EXT2MB[size]
        self.d[0] = 1
        self.d[1] = -1
        self.d[2] = w
        self.d[3] = -w
        self.d[4] = w + 1
        self.d[5] = w - 1
        self.d[6] = -w + 1
        self.d[7] = -w - 1
        memset(self.cell, EDGE, MAX_CELLS)
        for i in range(self.nc):
            self.cell[self.e2m[i]] = EMPTY

    cdef void _finish(self, int player):
        """The amazon lists and the hash from the cells; ply 0."""
        cdef int c, k0 = 0, k1 = 0, sq
        self.player = player
        self.ply = 0
        self.hash = ZSIDE if player == 1 else 0
        for sq in range(self.nc):
            c = self.e2m[sq]
            if self.cell[c] == 1:
                self.q[0][k0] = c
                k0 += 1
                self.hash ^= ZQ[0][sq]
            elif self.cell[c] == 2:
                self.q[1][k1] = c
                k1 += 1
                self.hash ^= ZQ[1][sq]
            elif self.cell[c] == ARROW:
                self.hash ^= ZA[sq]

    # ---- rules ----------------------------------------------------------------------------
    cdef int gen_moves(self, int* out) noexcept nogil:
        cdef int p = self.player, nc = self.nc, cnt = 0, i, j, k, fr, t, a, dt, da, base
        cdef unsigned char* b = self.cell
        for i in range(4):
            fr = self.q[p][i]
            b[fr] = EMPTY                # the amazon has left: its arrow may cross or hit fr
            for j in range(8):
                dt = self.d[j]
                t = fr + dt
                while b[t] == EMPTY:
                    base = (self.m2e[fr] * nc + self.m2e[t]) * nc
                    for k in range(8):
                        da = self.d[k]
                        a = t + da
                        while b[a] == EMPTY:
                            out[cnt] = base + self.m2e[a]
                            cnt += 1
                            a += da
                    t += dt
            b[fr] = p + 1
        return cnt

    cdef inline void _move_queen(self, int p, int fr, int to) noexcept nogil:
        """Amazon p at cell fr now at cell to, the list kept in ascending order."""
        cdef int i = 0
        cdef int* qs = self.q[p]
        while qs[i] != fr:
            i += 1
        qs[i] = to
        while i > 0 and qs[i - 1] > qs[i]:
            qs[i], qs[i - 1] = qs[i - 1], qs[i]
            i -= 1
        while i < 3 and qs[i + 1] < qs[i]:
            qs[i], qs[i + 1] = qs[i + 1], qs[i]
            i += 1

    cdef void do_move(self, int move) noexcept nogil:
        cdef int p = self.player, nc = self.nc
        cdef int ar = move % nc, to = (move // nc) % nc, fr = move // nc // nc
        cdef Undo* u
        history_reserve(&self.hist, self.ply + 1)
        u = &(<Undo*>self.hist.data)[self.ply]
        u.move = move
        u.hash = self.hash
        self.cell[self.e2m[fr]] = EMPTY
        self.cell[self.e2m[to]] = p + 1
        self.cell[self.e2m[ar]] = ARROW
        self._move_queen(p, self.e2m[fr], self.e2m[to])
        self.hash ^= ZQ[p][fr] ^ ZQ[p][to] ^ ZA[ar] ^ ZSIDE
        self.player = 1 - p
        self.ply += 1

    cdef void undo_move(self) noexcept nogil:
        self.ply -= 1
        cdef Undo* u = &(<Undo*>self.hist.data)[self.ply]
        cdef int p = 1 - self.player, nc = self.nc, move = u.move
        cdef int ar = move % nc, to = (move // nc) % nc, fr = move // nc // nc
        self.cell[self.e2m[ar]] = EMPTY
        self.cell[self.e2m[to]] = EMPTY
        self.cell[self.e2m[fr]] = p + 1
        self._move_queen(p, self.e2m[to], self.e2m[fr])
        self.hash = u.hash
        self.player = p

    cdef int result(self) noexcept nogil:
        """The side to move has a move exactly when one of its amazons has an empty neighbour
        (it steps there and shoots back where it came from); otherwise it has lost."""
        cdef int p = self.player, i, j, c
        for i in range(4):
            c = self.q[p][i]
            for j in range(8):
                if self.cell[c + self.d[j]] == EMPTY:
                    return ONGOING
        return 1 - p

    # ---- fast paths -----------------------------------------------------------------------
    cdef int random_playout(self, Rng* rng, int max_plies) noexcept nogil:
        return amazons_random_playout(self, rng, max_plies)

    cdef GameState clone(self):
        cdef Amazons c = Amazons.__new__(Amazons)
        c.n = self.n
        c.nc = self.nc
        c.max_moves = self.max_moves
        c.m2e = self.m2e
        c.e2m = self.e2m
        memcpy(c.d, self.d, sizeof(self.d))
        memcpy(c.cell, self.cell, MAX_CELLS)
        memcpy(c.q, self.q, sizeof(self.q))
        c.player = self.player
        c.ply = self.ply
        c.hash = self.hash
        history_copy(&c.hist, &self.hist, self.ply)
        return c

    # ---- Python face ----------------------------------------------------------------------
    def format_move(self, int move):
        nc = self.nc
        if not 0 <= move < nc * nc * nc:
            raise ValueError(f"bad Amazons move id {move} on {self.n}x{self.n}")
        fr, to, ar = move // nc // nc, (move // nc) % nc, move % nc
        return f"{self._sqname(fr)}-{self._sqname(to)}/{self._sqname(ar)}"

    def parse_move(self, str text):
        m = re.fullmatch(r"\s*([a-z]\d+)-([a-z]\d+)/([a-z]\d+)\s*", text.lower())
        if not m:
            raise ValueError(f"bad Amazons move {text!r}: expected from-to/arrow like "
                             f"'d1-d7/g7'")
        fr, to, ar = (self._sqindex(g, text) for g in m.groups())
        return (fr * self.nc + to) * self.nc + ar

    def _sqname(self, int sq):
        return "abcdefghij"[sq % self.n] + str(sq // self.n + 1)

    def _sqindex(self, str name, str text):
        files = "abcdefghij"[:self.n]
        if name[0] not in files or not 1 <= int(name[1:]) <= self.n:
            raise ValueError(f"bad Amazons move {text!r}: square {name!r} is off the "
                             f"{self.n}x{self.n} board")
        return (int(name[1:]) - 1) * self.n + files.index(name[0])

    def _char(self, int sq):
        return ".wbx"[self.cell[self.e2m[sq]]]

    def to_text(self):
        n = self.n
        rows = ["".join(self._char(r * n + c) for c in range(n)) for r in range(n - 1, -1, -1)]
        return "/".join(rows) + (" w" if self.player == 0 else " b")

    @classmethod
    def from_text(cls, str text, int size=10):
        """Read the text form (module docstring) of an Amazons game of side `size`."""
        parts = text.split()
        if len(parts) != 2 or parts[1] not in ("w", "b"):
            raise ValueError(f"bad Amazons position {text!r}: expected 'rankN/.../rank1 side' "
                             f"with side 'w' or 'b'")
        ranks = parts[0].split("/")
        n = len(ranks)
        if not MIN_N <= n <= MAX_N or any(len(r) != n or set(r) - set("wbx.") for r in ranks):
            raise ValueError(f"bad Amazons position {text!r}: need N ranks of N characters "
                             f"from 'w', 'b', 'x', '.' with N in {MIN_N}..{MAX_N}")
        if size != n:
            raise ValueError(f"bad Amazons position {text!r}: {n}x{n}, but size={size}")
        if parts[0].count("w") != 4 or parts[0].count("b") != 4:
            raise ValueError(f"bad Amazons position {text!r}: each side has 4 amazons")
        cdef Amazons s = cls.__new__(cls)
        s._setup(n)
        for i, rank in enumerate(ranks):
            for col, ch in enumerate(rank):
                s.cell[s.e2m[(n - 1 - i) * n + col]] = ".wbx".index(ch)
        s._finish(0 if parts[1] == "w" else 1)
        return s

    def knowledge(self):
        return AmazonsKnowledge()

    def board_str(self):
        n = self.n
        lines = [f"{r + 1:2d} " + " ".join(self._char(r * n + c) for c in range(n))
                 for r in range(n - 1, -1, -1)]
        lines.append("   " + " ".join("abcdefghij"[:n]))
        r = self.result()
        if r == ONGOING:
            lines.append(("White" if self.player == 0 else "Black") + " to move")
        else:
            lines.append(("White" if r == 0 else "Black") + " has won")
        return "\n".join(lines)

    def territory(self):
        """(White's queen-distance squares, Black's): efQD's two counts, for tests."""
        cdef unsigned char d0[MAX_CELLS]
        cdef unsigned char d1[MAX_CELLS]
        queen_distances(self, 0, d0)
        queen_distances(self, 1, d1)
        w = sum(1 for sq in range(self.nc) if self.cell[self.e2m[sq]] == EMPTY
                and d0[self.e2m[sq]] < d1[self.e2m[sq]])
        b = sum(1 for sq in range(self.nc) if self.cell[self.e2m[sq]] == EMPTY
                and d1[self.e2m[sq]] < d0[self.e2m[sq]])
        return w, b

    def mobility(self, int p):
        """Squares p's amazons reach in one queen move (efMob's count), for tests."""
        return queen_mobility(self, p)


# ---- the knowledge: module functions over the state, so the wiring can move ----------------

cdef void queen_distances(Amazons s, int p, unsigned char* dist) noexcept nogil:
    """dist[cell]: the fewest queen moves p's amazons need to reach each cell over empty
    squares (FAR: never). A breadth-first search: every cell taken from the queue scans its
    eight rays to the first blocked cell, giving the unreached cells on them one more move."""
    cdef int queue[MAX_CELLS]
    cdef int head = 0, tail = 0, c, t, j, dt
    cdef unsigned char nd
    cdef unsigned char* b = s.cell
    memset(dist, FAR, MAX_CELLS)
    for j in range(4):
        c = s.q[p][j]
        dist[c] = 0
        queue[tail] = c
        tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        nd = dist[c] + 1
        for j in range(8):
            dt = s.d[j]
            t = c + dt
            while b[t] == EMPTY:
                if dist[t] == FAR:
                    dist[t] = nd
                    queue[tail] = t
                    tail += 1
                t += dt


cdef int queen_mobility(Amazons s, int p) noexcept nogil:
    """Empty squares p's amazons reach in one queen move (a square two reach counts twice)."""
    cdef int i, j, t, dt, cnt = 0
    for i in range(4):
        for j in range(8):
            dt = s.d[j]
            t = s.q[p][i] + dt
            while s.cell[t] == EMPTY:
                cnt += 1
                t += dt
    return cnt


cdef double amazons_eval(Amazons s, int evalfn) noexcept nogil:
    """efQD (the default) or efMob from the side to move's view (module docstring)."""
    cdef unsigned char d0[MAX_CELLS]
    cdef unsigned char d1[MAX_CELLS]
    cdef int r = s.result(), sq, c, diff = 0
    cdef double v
    if r != ONGOING:
        return 1.0 if r == s.player else -1.0
    if evalfn == EF_MOB:
        v = tanh((queen_mobility(s, 0) - queen_mobility(s, 1)) / (2.0 * s.n))
    else:
        queen_distances(s, 0, d0)
        queen_distances(s, 1, d1)
        for sq in range(s.nc):
            c = s.e2m[sq]
            if s.cell[c] == EMPTY:
                if d0[c] < d1[c]:
                    diff += 1
                elif d1[c] < d0[c]:
                    diff -= 1
        # a lead of a board side's worth of squares is worth tanh(1) = 0.76
        v = tanh(diff / <double>s.n)
    return v if s.player == 0 else -v


cdef int amazons_playout_move(Amazons s, int policy, int* moves, int n,
                              Rng* rng) noexcept nogil:
    """The playout policy `ipp`: a move whose arrow lands next to an enemy amazon weighs
    TOUCH_WEIGHT, every other move 1. Why this one: an Amazons game is won by mobility and
    territory, and an arrow beside an enemy amazon takes away one of its exits, the cheapest
    step toward trapping it (the mobility term of Lieberum's evaluation, in one playout move);
    a uniformly random arrow mostly lands in the open, where it changes little. It costs one
    table of the 8 x 4 cells beside the enemy amazons per move and one lookup per legal move,
    against a territory evaluation's breadth-first search per move of `ege`.

    Written for speed as Breakthrough's: the weight of move i is 1 + extra_i, so a draw r < n
    picks moves[r] directly and only the touching moves are counted again."""
    cdef unsigned char near[MAX_CELLS]
    cdef int i, j, r, o = 1 - s.player, nc = s.nc, ntouch = 0
    if policy != PP_IPP:
        return moves[rng_below(rng, n)]
    memset(near, 0, MAX_CELLS)
    for i in range(4):
        for j in range(8):
            near[s.q[o][i] + s.d[j]] = 1
    for i in range(n):
        ntouch += near[s.e2m[moves[i] % nc]]
    r = rng_below(rng, n + (TOUCH_WEIGHT - 1) * ntouch)
    if r < n:
        return moves[r]
    r = (r - n) // (TOUCH_WEIGHT - 1)
    for i in range(n):
        if near[s.e2m[moves[i] % nc]]:
            if r == 0:
                return moves[i]
            r -= 1
    return moves[n - 1]


cdef int amazons_random_playout(Amazons s, Rng* rng, int max_plies) noexcept nogil:
    """Uniformly random moves to the end on a copy of the board (no undo records, no hash):
    each ply counts the arrows from every destination, draws one move out of the total and
    shoots the drawn arrow. The same distribution of games as the generate-and-do loop."""
    cdef unsigned char b[MAX_CELLS]
    cdef int qs[2][4]
    cdef int dest[MAX_DEST]
    cdef int who[MAX_DEST]
    cdef int cnt[MAX_DEST]
    cdef int d[8]
    cdef int p = s.player, plies = 0, nd, total, i, j, k, fr, t, a, dt, da, c, r
    memcpy(b, s.cell, MAX_CELLS)
    memcpy(qs, s.q, sizeof(qs))
    memcpy(d, s.d, sizeof(d))
    while True:
        nd = 0
        total = 0
        for i in range(4):
            fr = qs[p][i]
            b[fr] = EMPTY
            for j in range(8):
                dt = d[j]
                t = fr + dt
                while b[t] == EMPTY:
                    c = 0
                    for k in range(8):
                        da = d[k]
                        a = t + da
                        while b[a] == EMPTY:
                            c += 1
                            a += da
                    dest[nd] = t
                    who[nd] = i
                    cnt[nd] = c
                    total += c
                    nd += 1
                    t += dt
            b[fr] = p + 1
        if total == 0:
            return 1 - p
        if plies >= max_plies:
            return ONGOING
        r = rng_below(rng, total)
        k = 0
        while r >= cnt[k]:
            r -= cnt[k]
            k += 1
        i = who[k]
        t = dest[k]
        b[qs[p][i]] = EMPTY
        b[t] = p + 1
        qs[p][i] = t
        j = 0
        while True:          # the r-th arrow from t, in the order the counting met them
            da = d[j]
            a = t + da
            while b[a] == EMPTY and r > 0:
                r -= 1
                a += da
            if b[a] == EMPTY:
                b[a] = ARROW
                break
            j += 1
        plies += 1
        p = 1 - p


def draw(state, last=None):
    """The position as SVG (the game viewer's board): White's amazons light, Black's dark,
    arrows as small dark-red discs, rank n at the top; the last move's three squares (from,
    to, arrow) framed (`last` = (seat, move id))."""
    from mcts_arena.games.drawing import BLACK_STONE, WHITE_STONE, ranks_of, square_board

    ranks, side = ranks_of(state.to_text())
    nc = len(ranks) ** 2
    squares = () if last is None else (last[1] // nc // nc, (last[1] // nc) % nc, last[1] % nc)
    return square_board(ranks, {"w": (WHITE_STONE, "#333333"), "b": (BLACK_STONE, "#000000"),
                                "x": ("#7a1f1f", "#3d0f0f")},
                        squares, f"Amazons, {'White' if side == 'w' else 'Black'} to move")


# ---- what the game declares about itself (see mcts_arena/games/info.py) ----------------------
from mcts_arena.games.info import GameInfo, Param

GAME = GameInfo(
    name="amazons",
    description="Amazons n x n (size 6-10, 10 by default): move an amazon, shoot an arrow; "
                "a side that cannot move loses",
    cls=Amazons,
    evals=Amazons.eval_functions,
    default_eval="efQD",
    eval_meanings={
        "efQD": "queen-distance territory (Lieberum; Lorentz's Invader): empty squares White "
                "reaches in fewer queen moves minus Black's, tanh(d / n)",
        "efMob": "mobility: squares the amazons reach in one queen move, White's minus "
                 "Black's, tanh(d / 2n)"},
    default_c=1.0,
    params={"size": Param(default=10, low=MIN_N, high=MAX_N, meaning="board side")},
    # Lorentz's MCTS for Amazons (Invader, CG 2008) cuts its playouts after a few moves and
    # lets the evaluation judge them: fet with the territory evaluation
    macros={"bl": "efQD,fet4"},
    options=frozenset({"policy", "abp"}),
    typical_plies=70,
    bench_players=("MCTS", "MCTS(ipp)", "MCTS(bl)", "MCTS(bl,im0.4)", "αβ(efQD)"),
    bench_playouts=200,
    gtp_colors=("w", "b"), gtp_boardsize="size",     # White moves first
    draw=draw,
)


# ---- knowledge: what a search knows of the game beyond its rules (state.pxd) ---------------------

cdef class AmazonsKnowledge(Knowledge):
    """Amazons' evaluations (efQD: queen-distance territory, efMob: mobility) and its `ipp`
    playout policy (module docstring)."""

    game = "amazons"

    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        return amazons_eval(<Amazons>s, evalfn)

    cdef int playout_move(self, GameState s, int policy, int* moves, int n,
                          Rng* rng) noexcept nogil:
        return amazons_playout_move(<Amazons>s, policy, moves, n, rng)
