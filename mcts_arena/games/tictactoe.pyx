# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Tic-tac-toe 3x3, the tiny game the search tests use.

Rules: X (player 0) moves first, O (player 1) second; a move puts one's mark on an empty cell.
Three in a row, column or diagonal wins; a full board without a line is a draw.

Cells are `rank * 3 + file` (rank 0 = rank 1, file 0 = file a), so a move is 0..8 and its
notation is `a1`..`c3`. Text form: the ranks from 3 down to 1 with `x`, `o`, `.`, separated by
`/`, then ` x` or ` o` for the side to move, e.g. the start `.../.../... x`. The side must agree
with the marks (X to move when the counts are equal, O when X has one more).

Evaluation efTTT (the default): d = open lines of the side to move - open lines of the other
side (a line is open for a side when the other side has no mark on it), value tanh(d / 3);
a finished game is +1 / -1 / 0.
"""
from libc.stdint cimport uint64_t
from libc.math cimport tanh

from mcts_arena.bits cimport lsb
from mcts_arena.rng cimport splitmix64
from mcts_arena.games.state cimport GameState, Knowledge, MAX_MOVES, ONGOING, DRAW

# Evaluation functions (ids local to this game; 0, the default, is efTTT).
cdef enum:
    EF_TTT = 1     # open lines

cdef enum:
    FULL = 0x1FF

cdef int LINES[8]
LINES[:] = [0x007, 0x038, 0x1C0,      # ranks 1, 2, 3
            0x049, 0x092, 0x124,      # files a, b, c
            0x111, 0x054]             # diagonals a1-c3, c1-a3

cdef uint64_t ZOB[2][9]
cdef uint64_t ZOB_SIDE
cdef uint64_t _seed = 0x7177AC70E
cdef int _sq
for _sq in range(9):
    ZOB[0][_sq] = splitmix64(&_seed)
    ZOB[1][_sq] = splitmix64(&_seed)
ZOB_SIDE = splitmix64(&_seed)


cdef inline bint has_line(int m) noexcept nogil:
    cdef int i
    for i in range(8):
        if (m & LINES[i]) == LINES[i]:
            return True
    return False


cdef inline int open_lines(int other) noexcept nogil:
    cdef int i, n = 0
    for i in range(8):
        if (other & LINES[i]) == 0:
            n += 1
    return n


cdef class TicTacToe(GameState):
    """Tic-tac-toe position; see the module docstring for rules and conventions."""

    name = "tictactoe"
    eval_functions = {"efTTT": EF_TTT}

    cdef int m[2]          # 9-bit masks of X's and O's marks
    cdef int res
    cdef int hist_move[16]
    cdef int hist_res[16]

    def __cinit__(self):
        self.max_moves = 9

    def __init__(self):
        self._set(0, 0, 0)

    cdef void _set(self, int x, int o, int player):
        self.m[0] = x
        self.m[1] = o
        self.player = player
        self.ply = 0
        self.res = self._compute_result()
        self.hash = self._full_hash()

    cdef int _compute_result(self) noexcept nogil:
        if has_line(self.m[0]):
            return 0
        if has_line(self.m[1]):
            return 1
        if (self.m[0] | self.m[1]) == FULL:
            return DRAW
        return ONGOING

    cdef uint64_t _full_hash(self) noexcept nogil:
        cdef uint64_t h = ZOB_SIDE if self.player == 1 else 0
        cdef int sq
        for sq in range(9):
            if (self.m[0] >> sq) & 1:
                h ^= ZOB[0][sq]
            if (self.m[1] >> sq) & 1:
                h ^= ZOB[1][sq]
        return h

    # ---- rules ----------------------------------------------------------------------------
    cdef int gen_moves(self, int* out) noexcept nogil:
        cdef int empty = FULL & ~(self.m[0] | self.m[1])
        cdef int n = 0
        while empty:
            out[n] = lsb(empty)
            empty &= empty - 1
            n += 1
        return n

    cdef void do_move(self, int move) noexcept nogil:
        cdef int p = self.player
        self.hist_move[self.ply] = move
        self.hist_res[self.ply] = self.res
        self.m[p] |= 1 << move
        self.hash ^= ZOB[p][move] ^ ZOB_SIDE
        if has_line(self.m[p]):
            self.res = p
        elif (self.m[0] | self.m[1]) == FULL:
            self.res = DRAW
        self.player = 1 - p
        self.ply += 1

    cdef void undo_move(self) noexcept nogil:
        self.ply -= 1
        cdef int move = self.hist_move[self.ply]
        cdef int p = 1 - self.player
        self.m[p] &= ~(1 << move)
        self.hash ^= ZOB[p][move] ^ ZOB_SIDE
        self.res = self.hist_res[self.ply]
        self.player = p

    cdef int result(self) noexcept nogil:
        return self.res

    # ---- what the knowledge reads (the game's Knowledge class, below) ----------------------------
    cdef bint is_decisive(self, int move) noexcept nogil:
        return has_line(self.m[self.player] | (1 << move))

    cdef GameState clone(self):
        cdef TicTacToe c = TicTacToe.__new__(TicTacToe)
        cdef int i
        c.m[0] = self.m[0]
        c.m[1] = self.m[1]
        c.res = self.res
        c.player = self.player
        c.ply = self.ply
        c.hash = self.hash
        for i in range(self.ply):
            c.hist_move[i] = self.hist_move[i]
            c.hist_res[i] = self.hist_res[i]
        return c

    # ---- Python face ----------------------------------------------------------------------
    def format_move(self, int move):
        if move < 0 or move > 8:
            raise ValueError(f"bad tic-tac-toe move id {move}: valid 0..8")
        return "abc"[move % 3] + str(move // 3 + 1)

    def parse_move(self, str text):
        t = text.strip().lower()
        if len(t) != 2 or t[0] not in "abc" or t[1] not in "123":
            raise ValueError(f"bad tic-tac-toe move {text!r}: expected a cell 'a1'..'c3'")
        return (int(t[1]) - 1) * 3 + "abc".index(t[0])

    def _cell(self, int sq):
        if (self.m[0] >> sq) & 1:
            return "x"
        if (self.m[1] >> sq) & 1:
            return "o"
        return "."

    def to_text(self):
        rows = ["".join(self._cell(r * 3 + c) for c in range(3)) for r in range(2, -1, -1)]
        return "/".join(rows) + (" x" if self.player == 0 else " o")

    @classmethod
    def from_text(cls, str text):
        """Read the text form (see the module docstring)."""
        parts = text.split()
        if len(parts) != 2 or parts[1] not in ("x", "o"):
            raise ValueError(f"bad tic-tac-toe position {text!r}: expected 'row3/row2/row1 side' "
                             "with side 'x' or 'o'")
        rows = parts[0].split("/")
        if len(rows) != 3 or any(len(r) != 3 or set(r) - set("xo.") for r in rows):
            raise ValueError(f"bad tic-tac-toe position {text!r}: need 3 rows of 3 characters "
                             "from 'x', 'o', '.'")
        x = o = 0
        for i, row in enumerate(rows):
            for c, ch in enumerate(row):
                sq = (2 - i) * 3 + c
                if ch == "x":
                    x |= 1 << sq
                elif ch == "o":
                    o |= 1 << sq
        nx, no = bin(x).count("1"), bin(o).count("1")
        side = 0 if parts[1] == "x" else 1
        if nx - no not in (0, 1):
            raise ValueError(f"bad tic-tac-toe position {text!r}: {nx} x and {no} o marks "
                             "(x must have as many as o or one more)")
        if side != nx - no:
            raise ValueError(f"bad tic-tac-toe position {text!r}: side {parts[1]!r} does not "
                             f"match the marks (it is {'xo'[nx - no]}'s turn)")
        if has_line(x) and has_line(o):
            raise ValueError(f"bad tic-tac-toe position {text!r}: both sides have a line")
        cdef TicTacToe s = cls.__new__(cls)
        s._set(x, o, side)
        return s

    def knowledge(self):
        return TicTacToeKnowledge()

    def board_str(self):
        lines = [f"{r + 1} " + " ".join(self._cell(r * 3 + c) for c in range(3))
                 for r in range(2, -1, -1)]
        lines.append("  a b c")
        r = self.res
        if r == ONGOING:
            lines.append(("X" if self.player == 0 else "O") + " to move")
        elif r == DRAW:
            lines.append("draw")
        else:
            lines.append(("X" if r == 0 else "O") + " has won")
        return "\n".join(lines)

    # ---- helpers for tests and tools --------------------------------------------------------
    def hash_from_scratch(self):
        return self._full_hash()

    def count_games(self):
        """Number of finished games reachable from here (leaves of the full game tree)."""
        return _count_games(self)


cdef long long _count_games(GameState s) noexcept nogil:
    cdef int moves[MAX_MOVES]
    cdef int n, i
    cdef long long total = 0
    if s.result() != ONGOING:
        return 1
    n = s.gen_moves(moves)
    for i in range(n):
        s.do_move(moves[i])
        total += _count_games(s)
        s.undo_move()
    return total


# ---- what the game declares about itself (see mcts_arena/games/info.py) ----------------------
def draw(state, last=None):
    """The position as SVG (the game viewer's board): rank 3 at the top, X as a cross, O as a
    ring, the last mark's cell framed (`last` = (seat, move id))."""
    from mcts_arena.games.drawing import FILES, MARK, Svg, ranks_of

    rows, side = ranks_of(state.to_text())
    cell, m = 60.0, 20.0
    svg = Svg(m + 3 * cell + 6, 3 * cell + m + 6, f"tic-tac-toe, {side.upper()} to move")
    svg.rect(m, 3, 3 * cell, 3 * cell, "#ffffff", stroke="#333333", stroke_width=2)
    for k in (1, 2):
        svg.line(m + k * cell, 3, m + k * cell, 3 + 3 * cell, "#333333", 2)
        svg.line(m, 3 + k * cell, m + 3 * cell, 3 + k * cell, "#333333", 2)
    for i, row in enumerate(rows):         # rank 3 first
        for col, ch in enumerate(row):
            x, y = m + col * cell + cell / 2, 3 + i * cell + cell / 2
            if ch == "x":
                d = cell * 0.3
                svg.line(x - d, y - d, x + d, y + d, "#1f4e9c", 6)
                svg.line(x - d, y + d, x + d, y - d, "#1f4e9c", 6)
            elif ch == "o":
                svg.circle(x, y, cell * 0.3, "none", stroke="#b03030", stroke_width=6)
        svg.text(m / 2, 3 + i * cell + cell / 2, 3 - i, size=11)
    for col in range(3):
        svg.text(m + col * cell + cell / 2, 3 + 3 * cell + m / 2, FILES[col], size=11)
    if last is not None:
        rank, col = divmod(last[1], 3)
        svg.rect(m + col * cell + 3, 3 + (2 - rank) * cell + 3, cell - 6, cell - 6, "none",
                 stroke=MARK, stroke_width=3)
    return str(svg)


from mcts_arena.games.info import GameInfo

GAME = GameInfo(
    name="tictactoe",
    description="tic-tac-toe 3x3, for search tests",
    cls=TicTacToe,
    evals=TicTacToe.eval_functions,
    default_eval="efTTT",
    eval_meanings={"efTTT": "lines still open to me minus lines still open to the opponent, "
                            "tanh(d / 3)"},
    default_c=1.0,
    options=frozenset({"abp"}),
    typical_plies=9,
    tuning={"games": 200},
    bench_players=("MCTS", "αβ(efTTT)"),
    gtp_colors=("b", "w"), gtp_boardsize=3,     # X is b
    draw=draw,
)


# ---- knowledge: what a search knows of the game beyond its rules (state.pxd) ---------------------

cdef inline double _evaluate(TicTacToe s, int evalfn) noexcept nogil:
    cdef int r = s.res, p = s.player
    if r != ONGOING:
        if r == DRAW:
            return 0.0
        return 1.0 if r == p else -1.0
    return tanh((open_lines(s.m[1 - p]) - open_lines(s.m[p])) / 3.0)


cdef inline int _move_order(TicTacToe s, int move) noexcept nogil:
    """2: completes one's own line; 1: blocks a line the opponent would complete; else 0."""
    if has_line(s.m[s.player] | (1 << move)):
        return 2
    if has_line(s.m[1 - s.player] | (1 << move)):
        return 1
    return 0


cdef inline double _move_bias(TicTacToe s, int move) noexcept nogil:
    return _move_order(s, move) / 2.0


cdef class TicTacToeKnowledge(Knowledge):
    """Tic-tac-toe's evaluation (efTTT) and move order."""

    game = "tictactoe"

    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        return _evaluate(<TicTacToe>s, evalfn)

    cdef int move_order(self, GameState s, int move) noexcept nogil:
        return _move_order(<TicTacToe>s, move)

    cdef double move_bias(self, GameState s, int move) noexcept nogil:
        return _move_bias(<TicTacToe>s, move)
