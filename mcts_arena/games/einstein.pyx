# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""EinStein würfelt nicht! (Ingo Althöfer, 2004) on the standard 5x5 board, as OpenSpiel's
`einstein_wurfelt_nicht` plays it (`einstein`, two players).

Rules: each side has six cubes numbered 1 to 6. Black (player 0, `b`) starts on the six cells
of the top-left corner with row + column <= 2, white (player 1, `w`) on the six of the
bottom-right corner with row + column >= 6 (rows 0-4 top to bottom, columns 0-4 left to
right). A turn: the side to move rolls a die and moves the cube with that number; when that
cube is gone, the cube with the next higher or the next lower number still on the board (the
player chooses). A cube moves one cell towards the other side's corner: black right, down or
diagonally down-right; white left, up or diagonally up-left. Whatever stands on the cell it
moves to, an own cube or the other side's, is removed (captured). A side wins when one of its
cubes reaches the other side's corner cell (black: bottom-right, white: top-left) or when the
other side has no cube left. Every move brings a cube closer to its goal, so a game ends
within 112 moves and is never drawn.

Chance: the start is a chance node for black's arrangement (its six cubes on its six corner
cells in one of 6! = 720 orders, each 1/720), then one for white's; then before every turn a
chance node for the die (1-6, 1/6 each). As in OpenSpiel, white moves first. The side to
move at a chance node is the side the outcome concerns (black at the first arrangement, white
at the second, the side about to move at a die).

Move ids: a cube's move is cell * 3 + direction (cell = row * 5 + column of the cube moved;
direction 0-2 in the mover's order: black diagonal, down, right; white up, diagonal, left);
a die face f is DIE + f; an arrangement is SETUP + its rank among the 720 orders of 1-6 taken
lexicographically (the six numbers as they are placed on the corner cells in row-major order).
OpenSpiel's arrangement action is the same rank, its die action f - 1.

Notation: a move as OpenSpiel writes it, the cube and its direction, `*` when it captures:
`B3-diag`, `W6-left*` (directions up, down, left, right, diag); a die `1`-`6`; an arrangement
its six numbers in cell order, e.g. `123456`.

Text form: `ROWS side phase die`: the five rows top to bottom separated by `/`, each five
cells of two characters (`--` empty, `b3` black's cube 3, `w5` white's cube 5); side `b` or `w`;
phase `setup` (an arrangement is drawn next: black's when side is b, white's when w), `roll`
(the die is rolled next, or the game is over) or `move` (the side moves with the die shown);
die `-` or 1-6 at `move`. The start:
`----------/----------/----------/----------/---------- b setup -`.

Evaluation efProgress (the default), from the side to move's view: tanh(S(me) - S(other)), where
S(side) sums over the side's cubes 0.25 + (m / 6) ((4 - d) / 4)^2, m the die faces that let
the cube move and d its distance to the goal corner in moves (the larger of the row and column
distances): material, and progress weighted by how often the dice let the cube move. A
finished game is +1 / -1.
"""
from itertools import permutations

from libc.stdint cimport uint64_t
from libc.string cimport memset
from libc.math cimport tanh

from mcts_arena.rng cimport Rng, rng_below, splitmix64
from mcts_arena.games.history cimport (History, history_copy, history_free, history_init,
                                        history_reserve)
from mcts_arena.games.state cimport GameState, Knowledge, ONGOING

# Evaluation functions (ids local to this game; 0, the default, is efProgress).
cdef enum:
    EF_PROGRESS = 1

cdef enum:
    N = 5
    CELLS = 25
    NPERM = 720
    DIE = 100           # die face f is DIE + f
    SETUP = 1000        # arrangement k (0-719) is SETUP + k
    # phases
    SETUP_PHASE = 0
    ROLL = 1
    MOVE = 2

#: each side's three directions (row and column steps), in move-id order
STEPS = (((1, 1), (1, 0), (0, 1)), ((-1, 0), (-1, -1), (0, -1)))
cdef int DR[2][3]
cdef int DC[2][3]
DIR_NAMES = (("diag", "down", "right"), ("up", "diag", "left"))
#: the corner cells each side starts on, in row-major order (the order of an arrangement)
CORNER = ((0, 1, 2, 5, 6, 10), (14, 18, 19, 22, 23, 24))
cdef int CORNER_C[2][6]
cdef int GOAL[2]
GOAL[0] = 24
GOAL[1] = 0
#: the 720 arrangements in lexicographic order (itertools.permutations of a sorted sequence)
PERMS = tuple(permutations(range(1, 7)))
PERM_RANK = {p: k for k, p in enumerate(PERMS)}
cdef signed char PERM_C[NPERM][6]
cdef int _k, _j
for _k in range(2):
    for _j in range(3):
        DR[_k][_j] = STEPS[_k][_j][0]
        DC[_k][_j] = STEPS[_k][_j][1]
    for _j in range(6):
        CORNER_C[_k][_j] = CORNER[_k][_j]
for _k in range(NPERM):
    for _j in range(6):
        PERM_C[_k][_j] = PERMS[_k][_j]

cdef uint64_t ZCELL[13][CELLS]
cdef uint64_t ZSIDE
cdef uint64_t ZPHASE[3]
cdef uint64_t ZDIE[7]
cdef uint64_t _seed = 0xE1257E1AULL
for _k in range(13):
    for _j in range(CELLS):
        ZCELL[_k][_j] = splitmix64(&_seed)
ZSIDE = splitmix64(&_seed)
for _k in range(3):
    ZPHASE[_k] = splitmix64(&_seed)
for _k in range(7):
    ZDIE[_k] = splitmix64(&_seed)


cdef struct Core:
    signed char board[CELLS]    # 0 empty, 1-6 black's cube, 7-12 white's cube (6 + number)
    signed char pos[2][7]       # the cell of each side's cube 1-6 ([0] unused), -1 gone
    signed char count[2]        # cubes left
    signed char phase
    signed char die             # 1-6 at MOVE, else 0
    signed char player
    signed char res             # ONGOING or the winner
    uint64_t hash


cdef inline int dist_to_goal(int p, int cell) noexcept nogil:
    cdef int r = cell // N, c = cell % N
    if p == 0:
        r = N - 1 - r
        c = N - 1 - c
    return r if r > c else c


cdef class EinStein(GameState):
    """EinStein würfelt nicht! position; see the module docstring for rules and conventions."""

    name = "einstein"
    eval_functions = {"efProgress": EF_PROGRESS}
    has_chance = True

    cdef Core k
    cdef History hist

    def __cinit__(self, *args, **kwargs):
        history_init(&self.hist, sizeof(Core))
        self.max_moves = NPERM          # an arrangement node lists 720 outcomes; a turn <= 6
        self.max_outcomes = NPERM

    def __dealloc__(self):
        history_free(&self.hist)

    def __init__(self):
        """The start: an empty board, black's arrangement to be drawn."""
        memset(&self.k, 0, sizeof(Core))
        for p in range(2):
            for v in range(7):
                self.k.pos[p][v] = -1
        self.k.phase = SETUP_PHASE
        self.k.res = ONGOING
        self.ply = 0
        self._sync()

    cdef void _sync(self) noexcept nogil:
        """The side to move and the hash from the core."""
        cdef int i
        cdef uint64_t h = ZPHASE[self.k.phase] ^ ZDIE[self.k.die]
        for i in range(CELLS):
            if self.k.board[i]:
                h ^= ZCELL[self.k.board[i]][i]
        if self.k.player == 1:
            h ^= ZSIDE
        self.k.hash = h
        self.player = self.k.player
        self.hash = h

    # ---- rules ----------------------------------------------------------------------------
    cdef int result(self) noexcept nogil:
        return self.k.res

    cdef bint is_chance(self) noexcept nogil:
        return self.k.phase != MOVE and self.k.res == ONGOING

    cdef int chance_outcomes(self, int* outcomes, double* probs) noexcept nogil:
        cdef int i
        if not self.is_chance():
            return 0
        if self.k.phase == SETUP_PHASE:
            for i in range(NPERM):
                outcomes[i] = SETUP + i
                probs[i] = 1.0 / NPERM
            return NPERM
        for i in range(6):
            outcomes[i] = DIE + 1 + i
            probs[i] = 1.0 / 6
        return 6

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        if self.k.phase == SETUP_PHASE:
            return SETUP + rng_below(rng, NPERM)
        return DIE + 1 + rng_below(rng, 6)

    cdef int _movable(self, int* cubes) noexcept nogil:
        """The numbers of the cubes the die lets the side to move move, by cell order."""
        cdef int p = self.k.player, d = self.k.die, v, lo = 0, hi = 0
        if self.k.pos[p][d] >= 0:
            cubes[0] = d
            return 1
        for v in range(d - 1, 0, -1):
            if self.k.pos[p][v] >= 0:
                lo = v
                break
        for v in range(d + 1, 7):
            if self.k.pos[p][v] >= 0:
                hi = v
                break
        if lo and hi:
            if self.k.pos[p][lo] < self.k.pos[p][hi]:
                cubes[0] = lo
                cubes[1] = hi
            else:
                cubes[0] = hi
                cubes[1] = lo
            return 2
        cubes[0] = lo if lo else hi
        return 1

    cdef int gen_moves(self, int* out) noexcept nogil:
        cdef int i, n = 0, ncube, cell, r, c, o, p = self.k.player
        cdef int cubes[2]
        if self.k.res != ONGOING:
            return 0
        if self.k.phase != MOVE:
            n = NPERM if self.k.phase == SETUP_PHASE else 6
            for i in range(n):
                out[i] = (SETUP + i) if self.k.phase == SETUP_PHASE else (DIE + 1 + i)
            return n
        ncube = self._movable(cubes)
        for i in range(ncube):
            cell = self.k.pos[p][cubes[i]]
            for o in range(3):
                r = cell // N + DR[p][o]
                c = cell % N + DC[p][o]
                if 0 <= r < N and 0 <= c < N:
                    out[n] = cell * 3 + o
                    n += 1
        return n

    cdef void do_move(self, int move) noexcept nogil:
        cdef int p = self.k.player, i, cell, to, v, cap, owner
        history_reserve(&self.hist, self.ply + 1)
        (<Core*>self.hist.data)[self.ply] = self.k
        self.ply += 1
        if move >= SETUP:
            for i in range(6):
                v = PERM_C[move - SETUP][i]
                self.k.board[CORNER_C[p][i]] = v + 6 * p
                self.k.pos[p][v] = CORNER_C[p][i]
            self.k.count[p] = 6
            if p == 0:
                self.k.player = 1
            else:
                self.k.phase = ROLL     # white moves first
        elif move > DIE:
            self.k.die = move - DIE
            self.k.phase = MOVE
        else:
            cell = move // 3
            to = cell + DR[p][move % 3] * N + DC[p][move % 3]
            v = self.k.board[cell]
            cap = self.k.board[to]
            if cap:
                owner = 0 if cap <= 6 else 1
                self.k.pos[owner][cap - 6 * owner] = -1
                self.k.count[owner] -= 1
            self.k.board[to] = v
            self.k.board[cell] = 0
            self.k.pos[p][v - 6 * p] = to
            if to == GOAL[p] or self.k.count[1 - p] == 0:
                self.k.res = p
            self.k.die = 0
            self.k.phase = ROLL
            self.k.player = 1 - p
        self._sync()

    cdef void undo_move(self) noexcept nogil:
        self.ply -= 1
        self.k = (<Core*>self.hist.data)[self.ply]
        self.player = self.k.player
        self.hash = self.k.hash

    cdef double _strength(self, int p) noexcept nogil:
        """S(p) of efProgress: 0.25 a cube, plus each cube's progress ((4 - d) / 4)^2 times
        the share of die faces that let it move."""
        cdef int faces[7]
        cdef int f, v, lo, hi
        cdef double s = 0.0, g
        for v in range(7):
            faces[v] = 0
        for f in range(1, 7):
            if self.k.pos[p][f] >= 0:
                faces[f] += 1
                continue
            lo = f - 1
            while lo > 0 and self.k.pos[p][lo] < 0:
                lo -= 1
            hi = f + 1
            while hi < 7 and self.k.pos[p][hi] < 0:
                hi += 1
            if lo > 0:
                faces[lo] += 1
            if hi < 7:
                faces[hi] += 1
        for v in range(1, 7):
            if self.k.pos[p][v] >= 0:
                g = (4 - dist_to_goal(p, self.k.pos[p][v])) / 4.0
                s += 0.25 + faces[v] / 6.0 * g * g
        return s

    cdef GameState clone(self):
        cdef EinStein c = EinStein.__new__(EinStein)
        c.k = self.k
        c.ply = self.ply
        c.player = self.player
        c.hash = self.hash
        history_copy(&c.hist, &self.hist, self.ply)
        return c

    # ---- Python face ----------------------------------------------------------------------
    def format_move(self, int move):
        if SETUP <= move < SETUP + NPERM:
            return "".join(str(v) for v in PERMS[move - SETUP])
        if DIE + 1 <= move <= DIE + 6:
            return str(move - DIE)
        if not 0 <= move < CELLS * 3:
            raise ValueError(f"bad EinStein move id {move}: valid 0-74 (cube moves), "
                             f"{DIE + 1}-{DIE + 6} (die faces), {SETUP}-{SETUP + NPERM - 1} "
                             "(arrangements)")
        cell, o = divmod(move, 3)
        v = self.k.board[cell]
        p = self.k.player
        if v == 0 or (v > 6) != (p == 1):
            raise ValueError(f"bad EinStein move id {move}: no cube of the side to move on "
                             f"cell {cell}")
        to = cell + DR[p][o] * N + DC[p][o]
        return (f"{'BW'[p]}{v - 6 * p}-{DIR_NAMES[p][o]}"
                f"{'*' if self.k.board[to] else ''}")

    def parse_move(self, str text):
        t = text.strip()
        if len(t) == 6 and t.isdigit() and tuple(int(x) for x in t) in PERM_RANK:
            return SETUP + PERM_RANK[tuple(int(x) for x in t)]
        if len(t) == 1 and t in "123456":
            return DIE + int(t)
        for m in self.move_ids():
            if m < DIE and t.lower() in (self.format_move(m).lower(),
                                         self.format_move(m).lower().rstrip("*")):
                return m
        raise ValueError(f"bad EinStein move {text!r}: expected a legal cube move such as "
                         "B3-diag or W6-left*, a die face 1-6, or an arrangement such as "
                         "123456")

    def to_text(self):
        rows = []
        for r in range(N):
            row = ""
            for c in range(N):
                v = self.k.board[r * N + c]
                row += "--" if v == 0 else (f"b{v}" if v <= 6 else f"w{v - 6}")
            rows.append(row)
        phase = ("setup", "roll", "move")[self.k.phase]
        die = str(self.k.die) if self.k.phase == MOVE else "-"
        return f"{'/'.join(rows)} {'bw'[self.k.player]} {phase} {die}"

    @classmethod
    def from_text(cls, str text):
        """Read the text form (see the module docstring); a ValueError names what is wrong."""
        parts = text.split()
        form = "'ROWS side phase die' (five rows of five cells --, b1-b6 or w1-w6; b|w; " \
               "setup|roll|move; - or 1-6)"
        if len(parts) != 4:
            raise ValueError(f"bad EinStein position {text!r}: expected {form}")
        rows = parts[0].split("/")
        if len(rows) != N or any(len(r) != 2 * N for r in rows):
            raise ValueError(f"bad EinStein position {text!r}: expected five rows of five "
                             "two-character cells separated by '/'")
        board = [0] * CELLS
        seen = set()
        for r in range(N):
            for c in range(N):
                cell = rows[r][2 * c: 2 * c + 2]
                if cell == "--":
                    continue
                if len(cell) != 2 or cell[0] not in "bw" or cell[1] not in "123456":
                    raise ValueError(f"bad EinStein position {text!r}: cell {cell!r} at row "
                                     f"{r}, column {c} is not --, b1-b6 or w1-w6")
                if cell in seen:
                    raise ValueError(f"bad EinStein position {text!r}: cube {cell} stands on "
                                     "the board twice")
                seen.add(cell)
                board[r * N + c] = int(cell[1]) + (6 if cell[0] == "w" else 0)
        side, phase, die = parts[1:]
        if side not in ("b", "w"):
            raise ValueError(f"bad EinStein position {text!r}: side must be b or w")
        if phase not in ("setup", "roll", "move"):
            raise ValueError(f"bad EinStein position {text!r}: phase must be setup, roll or "
                             "move")
        if phase == "move":
            if die not in tuple("123456"):
                raise ValueError(f"bad EinStein position {text!r}: the die {die!r} is not "
                                 "1-6")
        elif die != "-":
            raise ValueError(f"bad EinStein position {text!r}: a die ({die!r}) is shown only "
                             "at phase move; write -")
        p = "bw".index(side)
        blacks = {i for i in range(CELLS) if 0 < board[i] <= 6}
        whites = {i for i in range(CELLS) if board[i] > 6}
        if phase == "setup":
            want = set() if p == 0 else set(CORNER[0])
            if whites or blacks != want:
                raise ValueError(f"bad EinStein position {text!r}: at setup the board is "
                                 + ("empty (black's arrangement is drawn next)" if p == 0 else
                                    "black's six cubes on its corner and nothing else "
                                    "(white's arrangement is drawn next)"))
        elif not blacks and not whites:
            raise ValueError(f"bad EinStein position {text!r}: no cube on the board")
        res = ONGOING
        if phase != "setup":
            black_won = board[GOAL[0]] in range(1, 7) or not whites
            white_won = board[GOAL[1]] > 6 or not blacks
            if black_won and white_won:
                raise ValueError(f"bad EinStein position {text!r}: both sides have won")
            res = 0 if black_won else 1 if white_won else ONGOING
            if res != ONGOING and phase == "move":
                raise ValueError(f"bad EinStein position {text!r}: the game is over, so no "
                                 "die is to be played (phase roll)")
        cdef EinStein s = cls.__new__(cls)
        memset(&s.k, 0, sizeof(Core))
        for q in range(2):
            for v in range(7):
                s.k.pos[q][v] = -1
        for i in range(CELLS):
            s.k.board[i] = board[i]
            if board[i]:
                q = 0 if board[i] <= 6 else 1
                s.k.pos[q][board[i] - 6 * q] = i
                s.k.count[q] += 1
        s.k.phase = ("setup", "roll", "move").index(phase)
        s.k.die = int(die) if phase == "move" else 0
        s.k.player = p
        s.k.res = res
        s.ply = 0
        s._sync()
        return s

    def knowledge(self):
        return EinSteinKnowledge()

    def board_str(self):
        lines = []
        for r in range(N):
            cells = []
            for c in range(N):
                v = self.k.board[r * N + c]
                cells.append(" ." if v == 0 else (f"b{v}" if v <= 6 else f"w{v - 6}"))
            lines.append(" ".join(cells))
        side = ("black", "white")[self.k.player]
        if self.k.res != ONGOING:
            lines.append(f"{('black', 'white')[self.k.res]} has won")
        elif self.k.phase == SETUP_PHASE:
            lines.append(f"{side}'s arrangement is drawn next")
        elif self.k.phase == ROLL:
            lines.append(f"{side} rolls the die")
        else:
            lines.append(f"{side} to move, die {self.k.die}")
        return "\n".join(lines)

    # ---- helpers for tests and tools ------------------------------------------------------
    def cells(self):
        """The board as 25 ints (0 empty, 1-6 black's cube, 7-12 white's cube 1-6)."""
        return [self.k.board[i] for i in range(CELLS)]

    def phase_name(self):
        return ("setup", "roll", "move")[self.k.phase]


# ---- what the game declares about itself (see mcts_arena/games/info.py) ----------------------
from mcts_arena.games.info import GameInfo


def draw(state, last=None):
    """The position as SVG (the game viewer's board): the 5x5 board with the cubes (black's
    dark, white's light, their numbers), each side's goal corner outlined, the die (blank while
    it is to be rolled) and the phase; the last move (`last` = (seat, move id)) marked: a cube's
    cell framed in red, a die framed in red, an arrangement written at the foot."""
    from mcts_arena.games.drawing import BLACK_STONE, MARK, WHITE_STONE, Svg

    rows_text, side, phase, die = state.to_text().split()
    rows = rows_text.split("/")
    size, x0, y0 = 56.0, 20.0, 20.0
    width, height = x0 * 2 + size * N + 110, y0 * 2 + size * N + 30
    who = ("black", "white")["bw".index(side)]
    svg = Svg(width, height, f"EinStein würfelt nicht!, {who}: {phase}")
    moved_to = None
    if last is not None and last[1] < DIE:
        cell, o = divmod(last[1], 3)
        seat = last[0]
        moved_to = cell + DR[seat][o] * N + DC[seat][o]
    for r in range(N):
        for c in range(N):
            x, y = x0 + c * size, y0 + r * size
            goal = (r, c) in ((0, 0), (N - 1, N - 1))
            svg.rect(x, y, size, size, "#e8dcc0" if (r + c) % 2 else "#f4ecd8",
                     stroke="#555555" if not goal else "#8a6d3b",
                     stroke_width=1 if not goal else 2)
            cube = rows[r][2 * c: 2 * c + 2]
            if cube != "--":
                dark = cube[0] == "b"
                svg.rect(x + 8, y + 8, size - 16, size - 16, BLACK_STONE if dark else WHITE_STONE,
                         stroke="#222222", stroke_width=1.5, rx=6)
                svg.text(x + size / 2, y + size / 2, cube[1], size=20,
                         fill=WHITE_STONE if dark else BLACK_STONE, font_weight="bold")
            if moved_to == r * N + c:
                svg.rect(x + 2, y + 2, size - 4, size - 4, "none", stroke=MARK, stroke_width=3)
    dx = x0 + size * N + 30
    rolled = last is not None and DIE < last[1] <= DIE + 6
    svg.rect(dx, y0 + 40, 50, 50, "#ffffff", stroke=MARK if rolled else "#333333",
             stroke_width=3 if rolled else 1.5, rx=7)
    if die != "-":
        svg.text(dx + 25, y0 + 65, die, size=24, fill="#222222", font_weight="bold")
    svg.text(dx + 25, y0 + 15, f"{who}", size=13, font_weight="bold")
    svg.text(dx + 25, y0 + 110, {"setup": "arranges", "roll": "to roll",
                                 "move": "to move"}[phase], size=12)
    if last is not None:
        if last[1] >= SETUP:
            what = "arranged " + "".join(str(v) for v in PERMS[last[1] - SETUP])
        elif last[1] > DIE:
            what = f"rolled {last[1] - DIE}"
        else:
            what = f"moved to row {moved_to // N}, column {moved_to % N}"
        svg.text(x0, height - 14, f"last: {('black', 'white')[last[0]]} {what}", size=12,
                 anchor="start", fill=MARK)
    return str(svg)


GAME = GameInfo(
    name="einstein",
    description="EinStein würfelt nicht!: race six numbered cubes to the far corner, the die "
                "picks the cube (chance nodes)",
    cls=EinStein,
    evals=EinStein.eval_functions,
    default_eval="efProgress",
    eval_meanings={"efProgress": "tanh of the difference in material (0.25 a cube) plus each "
                                 "cube's progress to the goal weighted by the share of die "
                                 "faces that move it"},
    default_c=1.0,
    scoring="game",
    options=frozenset(),
    typical_plies=40,
    bench_players=("MCTS", "MCTS(ol)", "expectimax", "Star2"),
    gtp_colors=("b", "w"),
    draw=draw,
)


# ---- knowledge: what a search knows of the game beyond its rules (state.pxd) ---------------------

cdef inline double _evaluate(EinStein s, int evalfn) noexcept nogil:
    cdef int p = s.k.player
    if s.k.res != ONGOING:
        return 1.0 if s.k.res == p else -1.0
    return tanh(s._strength(p) - s._strength(1 - p))


cdef class EinSteinKnowledge(Knowledge):
    """EinStein's evaluation (efProgress)."""

    game = "einstein"

    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        return _evaluate(<EinStein>s, evalfn)
