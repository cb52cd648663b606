# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Nim with one pile, a game written from outside the package by docs/extending.md's recipe
(tests/test_plugins.py compiles it and plays it through tests/data/plugin/toy_plugin.py).

Rules: a pile of `stones` stones (default 10); a move takes 1, 2 or 3 of them; who takes the
last stone wins. A move is the number taken, its notation that digit. Text form: the stones
left, a space, `a` or `b` for the side to move (`10 a`).

Evaluation efNim (the default): the side to move wins when the pile is not a multiple of 4:
+0.5 then, else -0.5; a finished game is +1 / -1.
"""
from libc.stdint cimport uint64_t

from mcts_arena.rng cimport splitmix64
from mcts_arena.games.state cimport GameState, Knowledge, ONGOING

cdef enum:
    MOST = 64                  # the largest pile

cdef uint64_t ZOB[MOST + 1]
cdef uint64_t ZOB_SIDE
cdef uint64_t _seed = 0x70E5
cdef int _k
for _k in range(MOST + 1):
    ZOB[_k] = splitmix64(&_seed)
ZOB_SIDE = splitmix64(&_seed)


cdef class ToyNim(GameState):
    """A pile of stones; see the module docstring."""

    name = "toynim"
    eval_functions = {"efNim": 1}

    cdef int stones
    cdef int taken[MOST]

    def __cinit__(self):
        self.max_moves = 3

    def __init__(self, stones=10):
        self._set(stones, 0)

    cdef void _set(self, int stones, int player):
        self.stones = stones
        self.player = player
        self.ply = 0
        self.hash = ZOB[stones] ^ (ZOB_SIDE if player else 0)

    cdef int gen_moves(self, int* out) noexcept nogil:
        cdef int k, n = 0
        for k in range(1, 4):
            if k <= self.stones:
                out[n] = k
                n += 1
        return n

    cdef void do_move(self, int move) noexcept nogil:
        self.taken[self.ply] = move
        self.hash ^= ZOB[self.stones] ^ ZOB[self.stones - move] ^ ZOB_SIDE
        self.stones -= move
        self.player = 1 - self.player
        self.ply += 1

    cdef void undo_move(self) noexcept nogil:
        self.ply -= 1
        cdef int move = self.taken[self.ply]
        self.hash ^= ZOB[self.stones] ^ ZOB[self.stones + move] ^ ZOB_SIDE
        self.stones += move
        self.player = 1 - self.player

    cdef int result(self) noexcept nogil:
        return ONGOING if self.stones > 0 else 1 - self.player

    cdef GameState clone(self):
        cdef ToyNim c = ToyNim.__new__(ToyNim)
        c.stones, c.player, c.ply, c.hash = self.stones, self.player, self.ply, self.hash
        c.taken = self.taken
        return c

    def format_move(self, int move):
        if move < 1 or move > 3:
            raise ValueError(f"bad toynim move id {move}: valid 1..3")
        return str(move)

    def parse_move(self, str text):
        if text.strip() not in ("1", "2", "3"):
            raise ValueError(f"bad toynim move {text!r}: expected 1, 2 or 3")
        return int(text)

    def to_text(self):
        return f"{self.stones} {'ab'[self.player]}"

    @classmethod
    def from_text(cls, str text, stones=10):
        parts = text.split()
        if len(parts) != 2 or not parts[0].isdigit() or int(parts[0]) > MOST or \
                parts[1] not in ("a", "b"):
            raise ValueError(f"bad toynim position {text!r}: expected 'STONES a|b', at most "
                             f"{MOST} stones")
        cdef ToyNim s = cls.__new__(cls)
        s._set(int(parts[0]), "ab".index(parts[1]))
        return s

    def knowledge(self):
        return ToyNimKnowledge()

    def board_str(self):
        return f"{self.stones} stones, {'AB'[self.player]} to move"


cdef class ToyNimKnowledge(Knowledge):
    """What the searches know of Nim beyond its rules: the evaluation efNim."""

    game = "toynim"

    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        cdef int stones = (<ToyNim>s).stones
        if stones == 0:
            return -1.0                 # the side to move has nothing left: it lost
        return 0.5 if stones % 4 else -0.5


def draw(state, last=None):
    """The pile as a row of stones (SVG)."""
    from mcts_arena.games.drawing import Svg

    n = int(state.to_text().split()[0])
    svg = Svg(20 + 14 * max(n, 1), 30, "toy nim")
    for i in range(n):
        svg.circle(17 + 14 * i, 15, 6, "#333333")
    return str(svg)


from mcts_arena.games.info import GameInfo, Param

GAME = GameInfo(
    name="toynim",
    description="one-pile Nim, a plug-in's game (tests/test_plugins.py)",
    cls=ToyNim,
    evals=ToyNim.eval_functions,
    default_eval="efNim",
    eval_meanings={"efNim": "+0.5 for the side to move unless the pile is a multiple of 4"},
    params={"stones": Param(default=10, low=1, high=MOST, meaning="stones in the pile")},
    typical_plies=5,
    draw=draw,
)
