# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Kalah(6,4): 6 houses per side, 4 stones in each, both stores empty.

Rules: player 0 moves first. A move picks one of one's own non-empty houses, numbered 1-6 from
the mover's left, takes all its stones and sows them one by one counter-clockwise into the
following houses and one's own store, skipping the opponent's store. If the last stone lands in
one's own store the same player moves again (no limit; an extra turn is just another ply by the
same side). If the last stone lands in an empty house of one's own and the opposite house is not
empty, that stone and all stones of the opposite house go to one's store (capture); if the
opposite house is empty nothing is captured. After every move: if either side has no stones left
in its houses the game ends, each side adds the stones left in its own houses to its own store,
and more stones in the store wins; equal is a draw.

Board: `b[14]`, player 0's houses 1-6 at indices 0..5 and its store at 6, player 1's houses 1-6
at 7..12 and its store at 13; sowing goes by increasing index mod 14. The house opposite index i
is 12 - i. A move id is the house number minus one (0..5) of the side to move; notation is the
house number "1".."6".

Text form: `h1,h2,h3,h4,h5,h6,store/h1,h2,h3,h4,h5,h6,store side` -- player 0's houses 1-6 and
store, a slash, player 1's houses 1-6 and store, a space, and the side to move `0` or `1`.
The start position is `4,4,4,4,4,4,0/4,4,4,4,4,4,0 0`.

Evaluation efRS (the default): tanh((store_mine - store_theirs) / 10) from the side to move;
a finished game is +1 / -1 / 0.
"""
from libc.stdint cimport uint64_t
from libc.string cimport memcpy
from libc.math cimport tanh

from mcts_arena.rng cimport Rng, rng_below, splitmix64
from mcts_arena.games.history cimport (History, history_copy, history_free, history_init,
                                        history_reserve)
from mcts_arena.games.state cimport GameState, Knowledge, ONGOING, DRAW
from mcts_arena.games.netinput cimport NetInput, net_input

# Evaluation functions (ids local to this game; 0, the default, is efRS).
cdef enum:
    EF_RS = 1      # store difference

cdef enum:
    NPITS = 14
    ZCOUNTS = 64        # stone counts hashed 0..63; larger counts share the key of 63

cdef uint64_t ZOB[NPITS][ZCOUNTS]
cdef uint64_t ZOB_SIDE
cdef uint64_t _seed = 0x4B414C4148ULL
cdef int _i, _c
for _i in range(NPITS):
    for _c in range(ZCOUNTS):
        ZOB[_i][_c] = splitmix64(&_seed)
ZOB_SIDE = splitmix64(&_seed)

START_TEXT = "4,4,4,4,4,4,0/4,4,4,4,4,4,0 0"


cdef struct Undo:
    int b[NPITS]
    int player
    int res
    uint64_t hash


cdef inline uint64_t zkey(int i, int c) noexcept nogil:
    return ZOB[i][c if c < ZCOUNTS else ZCOUNTS - 1]


cdef inline int board_result(const int* b) noexcept nogil:
    """ONGOING unless a side's houses are empty; then compare store + houses of each side."""
    cdef int h0 = b[0] + b[1] + b[2] + b[3] + b[4] + b[5]
    cdef int h1 = b[7] + b[8] + b[9] + b[10] + b[11] + b[12]
    cdef int t0, t1
    if h0 != 0 and h1 != 0:
        return ONGOING
    t0 = b[6] + h0
    t1 = b[13] + h1
    if t0 > t1:
        return 0
    if t1 > t0:
        return 1
    return DRAW


cdef inline int sow(int* b, int p, int idx) noexcept nogil:
    """Sow house index `idx` of player p on board b, with the capture rule (the end-of-game
    sweep is `sweep_if_over`). Returns the side to move next, plus 2 if the move captured."""
    cdef int s = b[idx]
    cdef int store = 6 + 7 * p
    cdef int skip = 13 - 7 * p          # the opponent's store
    cdef int pos = idx, laps, i, opp
    b[idx] = 0
    if s >= 13:
        laps = s // 13
        s -= laps * 13
        for i in range(NPITS):
            b[i] += laps
        b[skip] -= laps
    while s > 0:
        pos += 1
        if pos == NPITS:
            pos = 0
        if pos != skip:
            b[pos] += 1
            s -= 1
    if pos == store:
        return p
    if b[pos] == 1 and pos >= store - 6 and pos < store:
        opp = 12 - pos
        if b[opp] != 0:
            b[store] += b[opp] + 1
            b[opp] = 0
            b[pos] = 0
            return 3 - p
    return 1 - p


cdef inline bint sweep_if_over(int* b) noexcept nogil:
    """End-of-game sweep: if a side's houses are empty, move every house's stones to its store."""
    cdef int h0 = b[0] + b[1] + b[2] + b[3] + b[4] + b[5]
    cdef int h1 = b[7] + b[8] + b[9] + b[10] + b[11] + b[12]
    cdef int i
    if h0 != 0 and h1 != 0:
        return False
    b[6] += h0
    b[13] += h1
    for i in range(6):
        b[i] = 0
        b[7 + i] = 0
    return True


cdef class Kalah(GameState):
    """Kalah(6,4) position; see the module docstring for rules and conventions."""

    name = "kalah"
    eval_functions = {"efRS": EF_RS}

    cdef int b[NPITS]
    cdef int res
    cdef History hist

    def __cinit__(self):
        self.max_moves = 6           # one per house
        history_init(&self.hist, sizeof(Undo))

    def __dealloc__(self):
        history_free(&self.hist)

    def __init__(self, int stones=4):
        """The start position: `stones` in each house (the game's parameter, 4 by default)."""
        if not 1 <= stones <= 10:
            raise ValueError(f"kalah parameter stones={stones} out of range: expected 1 to 10")
        self._set([stones] * 6 + [0] + [stones] * 6 + [0], 0)

    cdef void _set(self, list board, int player):
        cdef int i
        for i in range(NPITS):
            self.b[i] = board[i]
        self.player = player
        self.ply = 0
        self.res = board_result(self.b)
        self.hash = self._full_hash()

    cdef uint64_t _full_hash(self):
        cdef uint64_t h = ZOB_SIDE if self.player == 1 else 0
        cdef int i
        for i in range(NPITS):
            h ^= zkey(i, self.b[i])
        return h

    # ---- rules ----------------------------------------------------------------------------
    cdef int gen_moves(self, int* out) noexcept nogil:
        cdef int base = 7 * self.player, n = 0, k
        for k in range(6):
            if self.b[base + k] != 0:
                out[n] = k
                n += 1
        return n

    cdef void do_move(self, int move) noexcept nogil:
        cdef Undo* u
        cdef int i, p = self.player
        history_reserve(&self.hist, self.ply + 1)
        u = &(<Undo*>self.hist.data)[self.ply]
        memcpy(u.b, self.b, sizeof(self.b))
        u.player = p
        u.res = self.res
        u.hash = self.hash
        self.player = sow(self.b, p, move + 7 * p) & 1
        if sweep_if_over(self.b):
            self.res = board_result(self.b)
        for i in range(NPITS):
            if u.b[i] != self.b[i]:
                self.hash ^= zkey(i, u.b[i]) ^ zkey(i, self.b[i])
        if self.player != p:
            self.hash ^= ZOB_SIDE
        self.ply += 1

    cdef void undo_move(self) noexcept nogil:
        self.ply -= 1
        cdef Undo* u = &(<Undo*>self.hist.data)[self.ply]
        memcpy(self.b, u.b, sizeof(self.b))
        self.player = u.player
        self.res = u.res
        self.hash = u.hash

    cdef int result(self) noexcept nogil:
        return self.res

    # ---- what the knowledge reads (the game's Knowledge class, below) ----------------------------
    cdef int _kind(self, int move) noexcept nogil:
        """2 for an extra-turn move, 1 for a capture, 0 otherwise."""
        cdef int t[NPITS]
        cdef int p = self.player, code
        memcpy(t, self.b, sizeof(t))
        code = sow(t, p, move + 7 * p)
        if (code & 1) == p:
            return 2
        return 1 if code & 2 else 0

    cdef int random_playout(self, Rng* rng, int max_plies) noexcept nogil:
        """Uniformly random playout on a local board copy: no undo records, no hashing."""
        cdef int b[NPITS]
        cdef int mv[6]
        cdef int p = self.player, n, k, base, plies = 0
        if self.res != ONGOING:
            return self.res
        memcpy(b, self.b, sizeof(b))
        while plies < max_plies:
            base = 7 * p
            n = 0
            for k in range(6):
                if b[base + k] != 0:
                    mv[n] = base + k
                    n += 1
            p = sow(b, p, mv[rng_below(rng, n)]) & 1
            plies += 1
            if sweep_if_over(b):
                if b[6] > b[13]:
                    return 0
                if b[13] > b[6]:
                    return 1
                return DRAW
        return ONGOING

    cdef GameState clone(self):
        cdef Kalah c = Kalah.__new__(Kalah)
        memcpy(c.b, self.b, sizeof(self.b))
        c.res = self.res
        c.player = self.player
        c.ply = self.ply
        c.hash = self.hash
        history_copy(&c.hist, &self.hist, self.ply)
        return c

    # ---- Python face ----------------------------------------------------------------------
    def format_move(self, int move):
        if move < 0 or move > 5:
            raise ValueError(f"bad Kalah move id {move}: valid 0..5")
        return str(move + 1)

    def parse_move(self, str text):
        t = text.strip()
        if len(t) != 1 or t not in "123456":
            raise ValueError(f"bad Kalah move {text!r}: expected a house number 1-6")
        return int(t) - 1

    def to_text(self):
        p0 = ",".join(str(self.b[i]) for i in range(7))
        p1 = ",".join(str(self.b[i]) for i in range(7, 14))
        return f"{p0}/{p1} {self.player}"

    @classmethod
    def from_text(cls, str text, int stones=4):
        """Read the text form (see the module docstring). The text holds every count, so the
        `stones` parameter changes nothing here."""
        parts = text.split()
        if len(parts) != 2 or parts[1] not in ("0", "1"):
            raise ValueError(f"bad Kalah position {text!r}: expected "
                             "'h1,..,h6,store/h1,..,h6,store side' with side '0' or '1'")
        halves = parts[0].split("/")
        if len(halves) != 2:
            raise ValueError(f"bad Kalah position {text!r}: need two sides separated by '/'")
        board = []
        for half in halves:
            fields = half.split(",")
            if len(fields) != 7:
                raise ValueError(f"bad Kalah position {text!r}: each side needs 7 numbers "
                                 f"(houses 1-6 and the store), got {len(fields)} in {half!r}")
            for f in fields:
                if not f.isdigit():
                    raise ValueError(f"bad Kalah position {text!r}: {f!r} is not a "
                                     "non-negative stone count")
                board.append(int(f))
        if sum(board) > 10000:
            raise ValueError(f"bad Kalah position {text!r}: more than 10000 stones")
        cdef Kalah s = cls.__new__(cls)
        s._set(board, int(parts[1]))
        return s

    def knowledge(self):
        return KalahKnowledge()

    def board_str(self):
        top = " ".join(f"{self.b[i]:2d}" for i in range(12, 6, -1))
        bot = " ".join(f"{self.b[i]:2d}" for i in range(6))
        lines = [
            "       6  5  4  3  2  1    <- player 1's houses",
            f"      {top}",
            f"  {self.b[13]:2d}{'':21s}{self.b[6]:2d}    stores: player 1 left, player 0 right",
            f"      {bot}",
            "       1  2  3  4  5  6    <- player 0's houses",
        ]
        r = self.res
        if r == ONGOING:
            lines.append(f"player {self.player} to move")
        elif r == DRAW:
            lines.append(f"draw {self.b[6]}-{self.b[13]}")
        else:
            lines.append(f"player {r} has won {self.b[6]}-{self.b[13]}")
        return "\n".join(lines)

    # ---- helpers for tests and tools --------------------------------------------------------
    def board(self):
        """The 14 pits: player 0's houses 1-6, its store, player 1's houses 1-6, its store."""
        return [self.b[i] for i in range(NPITS)]

    def stores(self):
        return self.b[6], self.b[13]

    def hash_from_scratch(self):
        return self._full_hash()


# ---- random start boards (the paper's Kalah experiments start from them) --------------------
# 48 stones spread over the 12 houses at random (each stone dropped into a uniformly chosen
# house), both stores empty, player 0 to move. The same seed always gives the same board
# (Python's `random.Random(seed).randrange` is stable across platforms and versions).
import random

KALAH_HOUSES = 12


def kalah_random_houses(seed, stones=4):
    """The 12 house counts (player 0's houses 1-6, then player 1's houses 1-6) for `seed`:
    12 x `stones` stones (48 for Kalah(6,4)) dropped one by one into uniformly chosen houses.

    A board where one side's houses are all empty would be over before it starts; such a draw
    (probability about 2**-47) is skipped by drawing again from the same generator.
    """
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"bad Kalah board seed {seed!r}: must be an integer")
    rng = random.Random(seed)
    while True:
        houses = [0] * KALAH_HOUSES
        for _ in range(KALAH_HOUSES * stones):
            houses[rng.randrange(KALAH_HOUSES)] += 1
        if sum(houses[:6]) and sum(houses[6:]):
            return houses


def kalah_random_text(seed, stones=4):
    """The text form of the random Kalah board for `seed` (player 0 to move)."""
    h = kalah_random_houses(seed, stones)
    p0 = ",".join(map(str, h[:6])) + ",0"
    p1 = ",".join(map(str, h[6:])) + ",0"
    return f"{p0}/{p1} 0"


def kalah_random_board(seed):
    """A `Kalah` position: 48 stones spread at random over the 12 houses, stores empty."""
    return Kalah.from_text(kalah_random_text(seed))


def _random_board(params, seed, pair_index):
    return kalah_random_text(seed, params.get("stones", 4))


# ---- what the game declares about itself (see mcts_arena/games/info.py) ----------------------
def draw(state, last=None):
    """The position as SVG (the game viewer's board): player 0's houses 1-6 along the bottom
    (left to right) with its store on the right, player 1's along the top (right to left)
    with its store on the left, each with its stone count; the house the last move sowed from
    is ringed (`last` = (seat, move id))."""
    from mcts_arena.games.drawing import LABEL, MARK, Svg

    sides, mover = state.to_text().split()
    b = [int(v) for half in sides.split("/") for v in half.split(",")]
    pit, gap = 22.0, 56.0
    left = 20 + 64.0                    # x of house column 0's left edge
    width, height = left * 2 + 6 * gap - 8, 190.0
    svg = Svg(width, height, f"Kalah, player {mover} to move")
    svg.rect(4, 22, width - 8, 146, "#c49a6c", stroke="#7a5a3a", stroke_width=2, rx=24)
    hot = None if last is None else last[0] * 7 + last[1]

    def house(index, col, y, label):
        x = left + col * gap + gap / 2 - 4
        svg.circle(x, y, pit, "#a47a4c", stroke=MARK if index == hot else "#6a4a2a",
                   stroke_width=3 if index == hot else 1)
        svg.text(x, y, b[index], size=15, fill="#ffffff", font_weight="bold")
        svg.text(x, 12 if y < height / 2 else height - 10, label, size=10, fill=LABEL)
    for k in range(6):
        house(k, k, 130, k + 1)                 # player 0: houses 1-6, left to right
        house(7 + k, 5 - k, 60, k + 1)          # player 1: houses 1-6, right to left
    for index, x in ((13, 44.0), (6, width - 44)):
        svg.rect(x - 24, 36, 48, 118, "#a47a4c", stroke="#6a4a2a", stroke_width=1, rx=20)
        svg.text(x, 95, b[index], size=17, fill="#ffffff", font_weight="bold")
        svg.text(x, 176 if index == 6 else 12, f"store {index // 7}", size=10, fill=LABEL)
    return str(svg)


from mcts_arena.games.info import GameInfo, Param

GAME = GameInfo(
    name="kalah",
    description="Kalah(6,4): sowing game, most stones wins",
    params={"stones": Param(4, 1, 10, "stones in each house at the start")},
    cls=Kalah,
    evals=Kalah.eval_functions,
    default_eval="efRS",
    eval_meanings={"efRS": "Ramanujan & Selman: stones in my store minus the opponent's, "
                           "tanh(d / 10)"},
    default_c=1.0,
    openings={"random_boards": _random_board},
    default_opening="random_boards",
    scoring="pairs",
    options=frozenset({"abp"}),
    typical_plies=40,
    tuning={"im_base": {"": "fet4"}, "games": 1000},
    bench_players=("MCTS(fet4)", "MCTS(fet4,im0.4)", "αβ(efRS)"),
    gtp_colors=("b", "w"),                      # no board size
    capabilities=frozenset({"gameframe"}),
    draw=draw,
)


# ---- knowledge: what a search knows of the game beyond its rules (state.pxd) ---------------------

cdef inline double _evaluate(Kalah s, int evalfn) noexcept nogil:
    cdef int r = s.res
    cdef int p = s.player
    if r != ONGOING:
        if r == DRAW:
            return 0.0
        return 1.0 if r == p else -1.0
    # efRS is the only (and default) evaluation.
    return tanh((s.b[6 + 7 * p] - s.b[13 - 7 * p]) / 10.0)


cdef inline int _best_capture(Kalah s, int p) noexcept nogil:
    """The most stones a move of p could capture at once: its last stone, sown without a lap,
    landing in an empty house of p's facing a non-empty one (that house and the stone)."""
    cdef int k, i, seeds, land, best = 0, theirs = 13 - 7 * p
    for k in range(6):
        i = 7 * p + k
        seeds = s.b[i]
        if seeds == 0 or seeds >= 13:
            continue
        land = i
        while seeds > 0:
            land = (land + 1) % NPITS
            if land != theirs:
                seeds -= 1
        if 7 * p <= land < 7 * p + 6 and s.b[land] == 0 and s.b[12 - land] > 0:
            if s.b[12 - land] + 1 > best:
                best = s.b[12 - land] + 1
    return best


cdef inline int _features(Kalah s, double* out) noexcept nogil:
    """FEATURES, each the mover's less the opponent's."""
    cdef int me = s.player, op = 1 - s.player, k, side
    cdef int seeds[2]
    cdef int empty[2]
    cdef int free[2]
    for side in range(2):
        seeds[side] = 0
        empty[side] = 0
        free[side] = 0
        for k in range(6):
            seeds[side] += s.b[7 * side + k]
            empty[side] += s.b[7 * side + k] == 0
            free[side] += s.b[7 * side + k] == 6 - k
    out[0] = 1.0
    out[1] = s.b[7 * me + 6] - s.b[7 * op + 6]
    out[2] = seeds[me] - seeds[op]
    out[3] = empty[me] - empty[op]
    out[4] = free[me] - free[op]
    out[5] = _best_capture(s, me) - _best_capture(s, op)
    return 6


#: What `features` describes a position by (Knowledge.features): the tempo, then the mover's
#: less the opponent's stones in the store, stones in the houses, empty houses, houses whose
#: last stone would land in the store (another move), and the most a move could capture at once.
FEATURES = ("tempo", "store", "houses", "empty", "free_moves", "capture")


cdef inline int _net_pits(Kalah s, double* out) noexcept nogil:
    """NET_INPUT's encoding: the mover's houses 1-6 and store, then the opponent's, in stones
    / 8 (a house starts with 4; 48 stones in all)."""
    cdef int me = s.player, k, side, at
    for side in range(2):
        at = 7 * (me if side == 0 else 1 - me)
        for k in range(7):
            out[7 * side + k] = s.b[at + k] / 8.0
    return 14


cdef int _net_encode(GameState s, double* out) noexcept nogil:
    return _net_pits(<Kalah>s, out)


cdef int _net_action(GameState s, int move) noexcept nogil:
    """A move's action: its id, the house number less one from the mover's side."""
    return move


#: The network encoding (games/netinput.pxd): 14 inputs, 6 actions (the houses).
cdef NetInput NET_INPUT = net_input("kalah", "kalah-pits/1", 14, 6, _net_encode, _net_action)


cdef inline int _move_order(Kalah s, int move) noexcept nogil:
    return s._kind(move)


cdef inline double _move_bias(Kalah s, int move) noexcept nogil:
    return s._kind(move) / 2.0


cdef class KalahKnowledge(Knowledge):
    """Kalah's evaluation (efRS: the stores' difference) and move order."""

    game = "kalah"
    feature_names = FEATURES

    def net_input(self):
        """The network encoding (games/netinput.pxd): pits and stores, 6 actions."""
        return NET_INPUT

    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        return _evaluate(<Kalah>s, evalfn)

    cdef int features(self, GameState s, double* out) noexcept nogil:
        return _features(<Kalah>s, out)

    cdef int move_order(self, GameState s, int move) noexcept nogil:
        return _move_order(<Kalah>s, move)

    cdef double move_bias(self, GameState s, int move) noexcept nogil:
        return _move_bias(<Kalah>s, move)
