# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Pig, the dice game of Neller & Presser, with OpenSpiel's rules (`pig`, two players).

Rules: player 0 begins. On its turn a player either rolls the die or stops. A roll of 1 loses
the turn total and hands the turn over; any other face f adds f to the turn total and the same
player decides again. Stopping banks the turn total (adds it to the player's score) and hands
the turn over. Once score + turn total reaches the target the player may only stop, which
wins: the game ends when a score reaches `target`. As in OpenSpiel, the game also ends, drawn,
once `horizon` decisions (rolls and stops; the dice do not count) have been made without a
winner, so that two players who keep stopping at 0 cannot play for ever.

Parameters: `target` (1-1000, default 100), `sides` (faces of the die, 2-20, default 6),
`horizon` (10-10000, default 1000: OpenSpiel's `horizon`; `winscore` and `diceoutcomes` are
target and sides there).

Chance: after `roll` the position is a chance node for the die: outcomes 1..sides, each with
probability 1/sides; the side to move there is the roller. Move ids: 0 roll, 1 stop, 1 + f for
the die face f (so 2..sides+1), all distinct; notation `roll`, `stop` and the face `1`..`20`.

Text form: `score0,score1 turn_total side phase decisions`, phase `move` (the side to move
rolls or stops) or `dice` (the die is rolled next), e.g. the start `0,0 0 0 move 0` and
`12,30 7 1 dice 41` (player 1 has 7 on its turn and has just rolled, 41 decisions made).

Evaluation efScore (the default): the race to the target from the side to move's view,
(own score + turn total - other score) / target, clipped to [-1, 1]; the turn total counts
as the mover's (it is lost only on a 1). A finished game is +1 / -1 / 0.

Hash: Zobrist keys of both scores, the turn total, the side to move and the phase. The
decision count (horizon) is left out, as chess programs leave out the fifty-move counter: the
same scores and turn total are the same position for a transposition table.
"""
from libc.stdint cimport uint64_t

from mcts_arena.rng cimport Rng, rng_below, splitmix64
from mcts_arena.games.history cimport (History, history_copy, history_free, history_init,
                                        history_reserve)
from mcts_arena.games.state cimport GameState, Knowledge, ONGOING, DRAW

# Evaluation functions (ids local to this game; 0, the default, is efScore).
cdef enum:
    EF_SCORE = 1

cdef enum:
    ROLL = 0
    STOP = 1
    FACE0 = 1          # die face f is move id FACE0 + f
    MAX_TARGET = 1000
    MAX_SIDES = 20
    MIN_HORIZON = 10        # fewer decisions than that would end a game before it starts
    MAX_HORIZON = 10000
    # the largest score or turn total a position can hold: a player below the target rolls
    # at most to target - 1 + sides, then must stop
    ZMAX = MAX_TARGET + MAX_SIDES

cdef uint64_t ZSCORE[2][ZMAX]
cdef uint64_t ZTURN[ZMAX]
cdef uint64_t ZOB_SIDE
cdef uint64_t ZOB_DICE
cdef uint64_t _seed = 0x5049470000ULL
cdef int _i
for _i in range(ZMAX):
    ZSCORE[0][_i] = splitmix64(&_seed)
    ZSCORE[1][_i] = splitmix64(&_seed)
    ZTURN[_i] = splitmix64(&_seed)
ZOB_SIDE = splitmix64(&_seed)
ZOB_DICE = splitmix64(&_seed)

PARAMS = {"target": (1, MAX_TARGET, 100), "sides": (2, MAX_SIDES, 6),
          "horizon": (MIN_HORIZON, MAX_HORIZON, 1000)}


cdef struct Undo:
    int score0
    int score1
    int turn
    int player
    int decisions
    bint dice
    uint64_t hash


def check_params(int target=100, int sides=6, int horizon=1000):
    """One-line ValueError naming a parameter out of its range."""
    for key, val in (("target", target), ("sides", sides), ("horizon", horizon)):
        lo, hi, _ = PARAMS[key]
        if not lo <= val <= hi:
            raise ValueError(f"pig parameter {key}={val} out of range: expected {lo} to {hi}")


cdef class Pig(GameState):
    """Pig position; see the module docstring for rules and conventions."""

    name = "pig"
    eval_functions = {"efScore": EF_SCORE}
    has_chance = True

    cdef int score[2]
    cdef int turn           # turn total of the side to move
    cdef int decisions      # rolls and stops so far (the horizon counts them)
    cdef bint dice          # chance node: the die is rolled next
    cdef public int target, sides, horizon
    cdef History hist

    def __cinit__(self, *args, **kwargs):
        history_init(&self.hist, sizeof(Undo))

    def __dealloc__(self):
        history_free(&self.hist)

    def __init__(self, int target=100, int sides=6, int horizon=1000):
        """The start position: no points, player 0 to decide."""
        check_params(target, sides, horizon)
        self._params(target, sides, horizon)
        self._set(0, 0, 0, 0, False, 0)

    cdef void _params(self, int target, int sides, int horizon):
        self.target = target
        self.sides = sides
        self.horizon = horizon
        self.max_moves = sides          # a chance node lists `sides` faces; a decision 2
        self.max_outcomes = sides

    cdef void _set(self, int s0, int s1, int turn, int player, bint dice, int decisions):
        self.score[0] = s0
        self.score[1] = s1
        self.turn = turn
        self.player = player
        self.dice = dice
        self.decisions = decisions
        self.ply = 0
        self.hash = self._full_hash()

    cdef uint64_t _full_hash(self) noexcept nogil:
        cdef uint64_t h = ZSCORE[0][self.score[0]] ^ ZSCORE[1][self.score[1]] ^ ZTURN[self.turn]
        if self.player == 1:
            h ^= ZOB_SIDE
        if self.dice:
            h ^= ZOB_DICE
        return h

    # ---- rules ----------------------------------------------------------------------------
    cdef int result(self) noexcept nogil:
        if self.score[0] >= self.target:
            return 0
        if self.score[1] >= self.target:
            return 1
        if self.decisions >= self.horizon:
            return DRAW
        return ONGOING

    cdef bint is_chance(self) noexcept nogil:
        return self.dice

    cdef int chance_outcomes(self, int* outcomes, double* probs) noexcept nogil:
        cdef int f
        cdef double p = 1.0 / self.sides
        if not self.dice:
            return 0
        for f in range(1, self.sides + 1):
            outcomes[f - 1] = FACE0 + f
            probs[f - 1] = p
        return self.sides

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        return FACE0 + 1 + rng_below(rng, self.sides)

    cdef int gen_moves(self, int* out) noexcept nogil:
        cdef int f
        if self.dice:
            for f in range(1, self.sides + 1):
                out[f - 1] = FACE0 + f
            return self.sides
        if self.score[self.player] + self.turn >= self.target:
            out[0] = STOP            # at the target the only move is to bank it
            return 1
        out[0] = ROLL
        out[1] = STOP
        return 2

    cdef void do_move(self, int move) noexcept nogil:
        cdef Undo* u
        cdef int p = self.player
        history_reserve(&self.hist, self.ply + 1)
        u = &(<Undo*>self.hist.data)[self.ply]
        u.score0 = self.score[0]
        u.score1 = self.score[1]
        u.turn = self.turn
        u.player = p
        u.decisions = self.decisions
        u.dice = self.dice
        u.hash = self.hash
        self.ply += 1
        self.hash ^= ZTURN[self.turn]
        if move == ROLL:
            self.dice = True
            self.decisions += 1
            self.hash ^= ZOB_DICE
        elif move == STOP:
            self.hash ^= ZSCORE[p][self.score[p]]
            self.score[p] += self.turn
            self.hash ^= ZSCORE[p][self.score[p]] ^ ZOB_SIDE
            self.turn = 0
            self.player = 1 - p
            self.decisions += 1
        else:
            self.dice = False
            self.hash ^= ZOB_DICE
            if move == FACE0 + 1:
                self.turn = 0             # a 1: the turn total is lost, the turn passes
                self.player = 1 - p
                self.hash ^= ZOB_SIDE
            else:
                self.turn += move - FACE0
        self.hash ^= ZTURN[self.turn]

    cdef void undo_move(self) noexcept nogil:
        self.ply -= 1
        cdef Undo* u = &(<Undo*>self.hist.data)[self.ply]
        self.score[0] = u.score0
        self.score[1] = u.score1
        self.turn = u.turn
        self.player = u.player
        self.decisions = u.decisions
        self.dice = u.dice
        self.hash = u.hash

    cdef int random_playout(self, Rng* rng, int max_plies) noexcept nogil:
        """Uniformly random decisions and fair dice on local copies: no undo records."""
        cdef int s[2]
        cdef int turn = self.turn, p = self.player, dec = self.decisions, plies = 0, f
        cdef bint dice = self.dice
        cdef int res = self.result()
        if res != ONGOING:
            return res
        s[0] = self.score[0]
        s[1] = self.score[1]
        while plies < max_plies:
            plies += 1
            if dice:
                dice = False
                f = 1 + rng_below(rng, self.sides)
                if f == 1:
                    turn = 0
                    p = 1 - p
                else:
                    turn += f
                continue
            dec += 1
            if s[p] + turn < self.target and rng_below(rng, 2) == 0:
                dice = True
            else:
                s[p] += turn
                if s[p] >= self.target:
                    return p
                turn = 0
                p = 1 - p
            if dec >= self.horizon:
                return DRAW
        return ONGOING

    cdef GameState clone(self):
        cdef Pig c = Pig.__new__(Pig)
        c._params(self.target, self.sides, self.horizon)
        c.score[0] = self.score[0]
        c.score[1] = self.score[1]
        c.turn = self.turn
        c.decisions = self.decisions
        c.dice = self.dice
        c.player = self.player
        c.ply = self.ply
        c.hash = self.hash
        history_copy(&c.hist, &self.hist, self.ply)
        return c

    # ---- Python face ----------------------------------------------------------------------
    def format_move(self, int move):
        if move == ROLL:
            return "roll"
        if move == STOP:
            return "stop"
        if FACE0 + 1 <= move <= FACE0 + MAX_SIDES:
            return str(move - FACE0)
        raise ValueError(f"bad Pig move id {move}: valid 0 (roll), 1 (stop), 2..21 (die faces)")

    def parse_move(self, str text):
        t = text.strip().lower()
        if t == "roll":
            return ROLL
        if t == "stop":
            return STOP
        if t.isdigit() and 1 <= int(t) <= MAX_SIDES:
            return FACE0 + int(t)
        raise ValueError(f"bad Pig move {text!r}: expected roll, stop or a die face 1-"
                         f"{self.sides}")

    def to_text(self):
        phase = "dice" if self.dice else "move"
        return (f"{self.score[0]},{self.score[1]} {self.turn} {self.player} {phase} "
                f"{self.decisions}")

    @classmethod
    def from_text(cls, str text, int target=100, int sides=6, int horizon=1000):
        """Read the text form (see the module docstring) for a game with these parameters."""
        check_params(target, sides, horizon)
        parts = text.split()
        form = "'score0,score1 turn_total side move|dice decisions'"
        if len(parts) != 5:
            raise ValueError(f"bad Pig position {text!r}: expected {form}")
        scores = parts[0].split(",")
        nums = scores + [parts[1], parts[4]]
        if len(scores) != 2 or not all(x.isdigit() for x in nums):
            raise ValueError(f"bad Pig position {text!r}: expected {form} with non-negative "
                             "integers")
        s0, s1, turn, dec = (int(x) for x in nums)
        if parts[2] not in ("0", "1"):
            raise ValueError(f"bad Pig position {text!r}: side to move must be 0 or 1")
        if parts[3] not in ("move", "dice"):
            raise ValueError(f"bad Pig position {text!r}: phase must be 'move' or 'dice'")
        top = target - 1 + sides          # the most a score or turn total can reach
        for label, v in (("score of player 0", s0), ("score of player 1", s1),
                         ("turn total", turn)):
            if v > top:
                raise ValueError(f"bad Pig position {text!r}: {label} {v} is more than "
                                 f"{top}, the most a game to {target} with a {sides}-sided "
                                 "die can reach")
        if turn == 1:
            raise ValueError(f"bad Pig position {text!r}: a turn total of 1 cannot happen "
                             "(a 1 ends the turn)")
        if s0 >= target and s1 >= target:
            raise ValueError(f"bad Pig position {text!r}: both players have reached the "
                             f"target {target}")
        if (s0 >= target or s1 >= target) and (turn != 0 or parts[3] == "dice"):
            raise ValueError(f"bad Pig position {text!r}: the game is over, so the turn "
                             "total is 0 and no die is rolled")
        p = int(parts[2])
        if (s0 if p == 0 else s1) + turn > top:
            raise ValueError(f"bad Pig position {text!r}: the side to move's score plus its "
                             f"turn total is more than {top}, the most a game to {target} with "
                             f"a {sides}-sided die can reach")
        if parts[3] == "dice" and (s0 if p == 0 else s1) + turn >= target:
            raise ValueError(f"bad Pig position {text!r}: at the target a player must stop, "
                             "so it cannot have rolled")
        if dec > horizon:
            raise ValueError(f"bad Pig position {text!r}: {dec} decisions is more than the "
                             f"horizon {horizon}")
        cdef Pig s = cls.__new__(cls)
        s._params(target, sides, horizon)
        s._set(s0, s1, turn, p, parts[3] == "dice", dec)
        return s

    def knowledge(self):
        return PigKnowledge()

    def board_str(self):
        r = self.result()
        lines = [f"player 0: {self.score[0]:4d}    player 1: {self.score[1]:4d}    "
                 f"(target {self.target}, {self.sides}-sided die)",
                 f"turn total {self.turn}, {self.decisions} of {self.horizon} decisions made"]
        if r == ONGOING:
            lines.append(f"player {self.player} " + ("rolls the die" if self.dice
                                                      else "to roll or stop"))
        elif r == DRAW:
            lines.append("draw: the horizon was reached")
        else:
            lines.append(f"player {r} has won")
        return "\n".join(lines)

    # ---- helpers for tests and tools ------------------------------------------------------
    def scores(self):
        return self.score[0], self.score[1]

    def turn_total(self):
        return self.turn

    def decisions_made(self):
        return self.decisions

    def hash_from_scratch(self):
        return self._full_hash()


# ---- what the game declares about itself (see mcts_arena/games/info.py) ----------------------
from mcts_arena.games.info import GameInfo, Param


def _exact(params, check=False):
    """Pig solved by value iteration (games/pig_solve.pyx), imported when asked for."""
    from mcts_arena.games.pig_solve import exact
    return exact(params, check)


def draw(state, last=None):
    """The position as SVG (the game viewer's board): each player's score as a bar towards the
    target, the turn total of the side to move stacked on its bar, the die (blank while it is
    to be rolled), the decisions made; the last move (`last` = (seat, move id): roll, stop or
    the face rolled) is written at the foot, the die framed in red after a roll."""
    from mcts_arena.games.drawing import BLACK_STONE, MARK, Svg

    scores, turn, side, phase, decisions = state.to_text().split()
    score = [int(v) for v in scores.split(",")]
    turn, side, target = int(turn), int(side), state.target
    width, height = 420.0, 200.0
    svg = Svg(width, height,
              f"Pig, player {side} to {'roll the die' if phase == 'dice' else 'move'}")
    bar_x, bar_w = 90.0, 200.0
    for p in (0, 1):
        y = 30.0 + p * 56
        svg.text(10, y + 12, f"player {p}", size=13, anchor="start",
                 font_weight="bold" if p == side else None)
        svg.rect(bar_x, y, bar_w, 24, "#eeeeee", stroke="#999999", stroke_width=1)
        banked = min(score[p], target) / target * bar_w
        svg.rect(bar_x, y, banked, 24, BLACK_STONE if p == 0 else "#3a7bd5")
        if p == side and turn:
            svg.rect(bar_x + banked, y, min(turn, max(target - score[p], 0)) / target * bar_w, 24,
                     "#f2b134")
        svg.text(bar_x + bar_w + 8, y + 12,
                 f"{score[p]}" + (f" + {turn}" if p == side and turn else ""), size=13,
                 anchor="start")
    svg.text(bar_x, 150, f"target {target}, {decisions} decisions made", size=11,
             anchor="start")
    rolled = last is not None and last[1] >= FACE0 + 1
    die_x, die_y = 340.0, 130.0
    svg.rect(die_x, die_y, 44, 44, "#ffffff", stroke=MARK if rolled else "#333333",
             stroke_width=3 if rolled else 1.5, rx=7)
    if rolled:
        svg.text(die_x + 22, die_y + 22, last[1] - FACE0, size=22, fill="#222222",
                 font_weight="bold")
    if phase == "dice":
        svg.text(die_x + 22, die_y - 10, "to roll", size=11)
    if last is not None:
        what = ("rolled " + str(last[1] - FACE0) if rolled else
                "rolls" if last[1] == ROLL else "stops")
        svg.text(10, 180, f"last: player {last[0]} {what}", size=12, anchor="start",
                 fill=MARK)
    return str(svg)


GAME = GameInfo(
    name="pig",
    description="Pig: roll a die to a target score, a 1 loses the turn (chance nodes)",
    params={"target": Param(100, 1, MAX_TARGET, "score that wins"),
            "sides": Param(6, 2, MAX_SIDES, "faces of the die"),
            "horizon": Param(1000, MIN_HORIZON, MAX_HORIZON,
                             "decisions (rolls and stops) after which the game is drawn")},
    cls=Pig,
    evals=Pig.eval_functions,
    default_eval="efScore",
    eval_meanings={"efScore": "the race to the target: (own score + turn total - other score) "
                              "/ target, clipped to [-1, 1]"},
    default_c=1.0,
    scoring="game",
    options=frozenset(),
    typical_plies=120,
    # the searches docs/chance.md times
    bench_players=("MCTS", "MCTS(im0.3)", "expectimax", "Star2"),
    gtp_colors=("b", "w"),
    exact_solver=_exact,
    draw=draw,
)


# ---- knowledge: what a search knows of the game beyond its rules (state.pxd) ---------------------

cdef inline double _evaluate(Pig s, int evalfn) noexcept nogil:
    cdef int r = s.result()
    cdef int p = s.player
    cdef double e
    if r != ONGOING:
        if r == DRAW:
            return 0.0
        return 1.0 if r == p else -1.0
    e = (s.score[p] + s.turn - s.score[1 - p]) / <double>s.target
    return 1.0 if e > 1.0 else (-1.0 if e < -1.0 else e)


cdef class PigKnowledge(Knowledge):
    """Pig's evaluation (efScore)."""

    game = "pig"

    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        return _evaluate(<Pig>s, evalfn)
