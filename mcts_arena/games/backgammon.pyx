# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Backgammon without the doubling cube, as OpenSpiel's `backgammon` plays it.

Rules (the standard ones, see bkgm.com/rules.html): two players, x (player 0) and o (player 1),
15 checkers each, start on their 24-point (2), 13-point (5), 8-point (3) and 6-point (5). Each
side numbers the points from its own view, 24 down to 1, and moves its checkers downward; its
1-6 points are its home board, its 19-24 points are the other side's home board, so x's point
p is o's point 25 - p. A turn: roll two dice and move one checker per die by its number
(doubles: four moves of that number). A checker may land on a point holding at most one
checker of the other side; landing on such a blot hits it onto the bar. A side with checkers
on the bar must enter them all first, on the point 25 - die. Once all of a side's checkers are
in its home board it bears them off: with the exact number, or with a larger number from its
highest occupied point. A side must use as many of its dice as it can: both dice when
possible; when only one of two different dice can be used, the larger when it can; a double as
many times as it can. A side that cannot move passes. The first to bear off all 15 checkers
wins. The opening roll (as OpenSpiel plays it): each side throws one die, doubles are thrown
again, and the higher die starts the game moving those two numbers.

Scoring (parameter `scoring`, OpenSpiel's `scoring_type`): 1 (`winloss_scoring`, the default)
counts every win 1 point; 2 (`enable_gammons`) counts a gammon 2 (the loser has borne off no
checker); 3 (`full_scoring`) also counts a backgammon 3 (a gammon with a checker of the loser
on the bar or in the winner's home board). The searches see the score scaled into [-1, 1]:
`terminal_reward` and a finished game's `evaluate` are +-points / scoring (so with scoring 3 a
single win is worth 1/3). `max_turns` (OpenSpiel's `max_player_turns`, default 500): the game
is drawn once more than `max_turns` turns have been played without a winner. (OpenSpiel ends a
double on that last turn after its first two moves; here the turn is played whole. Random
games end long before: the longest of 1,000 lasted 299 turns, benchmarks/backgammon_stats.py.)

Chance: the start is a chance node for the opening roll (30 outcomes, 1/30 each: which side
starts and its two different numbers); after every turn a chance node rolls the next side's
dice (21 outcomes: a double 1/36, two different numbers 2/36). The side to move at a chance
node is the side about to move (player 0 at the opening, where nobody is yet).

A turn is ONE move of the side to move, of up to four checkers; move ids pack each checker
move as (from point, die) in 8 bits: bits 0-4 the first checker's point (1-24, 25 the bar),
5-7 its die, 8-12 and 13-15 the second, 16-20 and 21-25 the third and fourth points of a
double (same die); 0 is the pass. A chance outcome is 2^26 + starter * 64 + high die * 8 + low
die (starter 0 at a normal roll, 1 when x starts, 2 when o starts), so no outcome is a move.
gen_moves lists every distinct position a turn can reach once (not every order of the same
checker moves).

Notation (points in the mover's numbering): checker moves `from/to`, `bar/22`, `6/off`, a hit
marked `*` (`13/7*`), the same move repeated `13/7(2)`, moves separated by spaces, e.g.
`8/5 6/5`; `pass` when no checker can move. Read also: a checker's moves joined `24/18/13` or
`24/13`, hits marked or not (a mark only chooses between moves that differ only in what they
hit). Written: one `from/to` per die, from the highest point down. Dice: `31` (high die first;
`33` a double), and at the opening `x31` / `o31` (x or o starts with 3 and 1).

Text form: `X/O side dice turns`. X and O list the checkers of x and of o in their own
numbering as `point:count` separated by commas, highest first, with `bar:n` and `off:n`; side
`x` or `o` (the side to move or about to roll; `-` at the opening roll); dice `-` at a chance
node or the two numbers `31`; turns played so far. The start:
`24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 - - 0`.

Evaluations, from the side to move's view (the side on roll), in [-1, 1]:
- efBG (the default): a race (no contact) by the normal model behind the Kleinman count; a
  contact position by a logistic model of pip counts, points made, primes, anchors, exposed
  blots, bar, borne-off and back checkers (features, and where the weights come from, at `W`);
- efPip: the race model everywhere (pip counts only).
A finished game is +-points / scoring.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.math cimport erfc, exp, sqrt, tanh

from mcts_arena.bits cimport msb
from mcts_arena.rng cimport Rng, rng_below, splitmix64
from mcts_arena.games.history cimport (History, history_copy, history_free, history_init,
                                        history_reserve)
from mcts_arena.games.state cimport alloca, GameState, Knowledge, ONGOING, DRAW

# Evaluation functions (ids local to this game; 0, the default, is efBG).
cdef enum:
    EF_BG = 1
    EF_PIP = 2

cdef enum:
    NCHK = 15
    BAR = 25
    OFF = 0
    NPT = 26            # c[p][0] borne off, c[p][1..24] points, c[p][25] the bar
    # phases
    OPENING = 0         # chance node: the opening roll
    ROLL = 1            # chance node: the side to move rolls
    MOVE = 2            # the side to move moves with dice d[0] >= d[1]
    OUTCOME = 1 << 26   # chance outcome ids: OUTCOME + starter * 64 + hi * 8 + lo
    # The most distinct turns one roll can give. A turn with a double moves checkers 4 steps of
    # one number; the position it reaches is fixed by how many steps each checker took, and
    # distributing 4 steps over 15 checkers can be done C(18, 4) = 3060 ways. Two different
    # numbers give at most 2 x 16 x 15 sequences (two orders, a first and a second checker).
    # Random games reach far fewer: at most 1,023 over every roll of 1,000 random games
    # (benchmarks/backgammon_stats.py); a set position in tests/data/perft.json has 1,238.
    MAX_TURNS_PER_ROLL = 3060
    SEEN = 1024         # dedup table of a non-double roll's turns (at most 480 < SEEN / 2)
    MIN_MAX_TURNS = 10      # fewer would end every game before it has begun
    MAX_MAX_TURNS = 5000

cdef uint64_t ZC[2][NPT][NCHK + 1]
cdef uint64_t RMOVE[NPT]        # additive keys of a turn's dedup: one per point of the mover
cdef uint64_t RHIT[NPT]         # and of the other side's (its blots sent to the bar)
cdef uint64_t ZDICE[7][7]
cdef uint64_t ZSIDE
cdef uint64_t ZOPEN
cdef uint64_t _seed = 0xBAC6A440ULL
cdef int _p, _i, _c
for _p in range(2):
    for _i in range(NPT):
        for _c in range(NCHK + 1):
            ZC[_p][_i][_c] = splitmix64(&_seed)
for _p in range(7):
    for _i in range(7):
        ZDICE[_p][_i] = splitmix64(&_seed)
ZSIDE = splitmix64(&_seed)
ZOPEN = splitmix64(&_seed)
for _i in range(NPT):
    RMOVE[_i] = splitmix64(&_seed)
    RHIT[_i] = splitmix64(&_seed)

START_TEXT = "24:2,13:5,8:3,6:5/24:2,13:5,8:3,6:5 - - 0"
SIDES = "xo"


cdef struct Undo:
    unsigned char c[2][NPT]
    int player
    int phase
    int d0
    int d1
    int turns
    int res
    uint64_t hash


# ---- move generation on a board (shared by gen_moves and the fast playout) --------------------

include "backgammon_moves.pxi"


# ---- pip counts (the rules' bearing off and the evaluations read them) ---------------------------

cdef inline int pips(const unsigned char* me) noexcept nogil:
    cdef int q, n = 0
    for q in range(1, NPT):
        n += q * me[q]
    return n


cdef inline int highest(const unsigned char* me) noexcept nogil:
    cdef int q = BAR
    while q >= 1 and me[q] == 0:
        q -= 1
    return q


cdef class Backgammon(GameState):
    """Backgammon position; see the module docstring for rules and conventions."""

    name = "backgammon"
    eval_functions = {"efBG": EF_BG, "efPip": EF_PIP}
    has_chance = True

    cdef unsigned char c[2][NPT]
    cdef int phase
    cdef int d[2]           # dice at a MOVE node, d[0] >= d[1]; 0 at a chance node
    cdef int turns          # turns played
    cdef int res
    cdef public int scoring, max_turns
    cdef History hist
    cdef uint64_t* seen_key
    cdef int* seen_stamp
    cdef int stamp

    def __cinit__(self, *args, **kwargs):
        self.max_moves = MAX_TURNS_PER_ROLL
        self.max_outcomes = 30
        history_init(&self.hist, sizeof(Undo))
        self.seen_key = <uint64_t*>malloc(SEEN * sizeof(uint64_t))
        self.seen_stamp = <int*>malloc(SEEN * sizeof(int))
        if self.seen_key == NULL or self.seen_stamp == NULL:
            raise MemoryError()
        memset(self.seen_stamp, 0, SEEN * sizeof(int))
        self.stamp = 0

    def __dealloc__(self):
        history_free(&self.hist)
        free(self.seen_key)
        free(self.seen_stamp)

    def __init__(self, int scoring=1, int max_turns=500):
        """The start position, at the opening roll."""
        check_params(scoring, max_turns)
        self.scoring = scoring
        self.max_turns = max_turns
        self._load(START_TEXT)

    cdef void _set(self, list x, list o, int player, int phase, int d0, int d1, int turns):
        cdef int i
        for i in range(NPT):
            self.c[0][i] = x[i]
            self.c[1][i] = o[i]
        self.player = player
        self.phase = phase
        self.d[0] = d0
        self.d[1] = d1
        self.turns = turns
        self.ply = 0
        self.res = self._compute_result()
        self.hash = self._full_hash()

    cdef int _compute_result(self) noexcept nogil:
        if self.c[0][OFF] == NCHK:
            return 0
        if self.c[1][OFF] == NCHK:
            return 1
        if self.turns > self.max_turns:
            return DRAW
        return ONGOING

    cdef uint64_t _full_hash(self) noexcept nogil:
        cdef uint64_t h = 0
        cdef int p, i
        for p in range(2):
            for i in range(NPT):
                h ^= ZC[p][i][self.c[p][i]]
        if self.player == 1:
            h ^= ZSIDE
        if self.phase == OPENING:
            h ^= ZOPEN
        elif self.phase == MOVE:
            h ^= ZDICE[self.d[0]][self.d[1]]
        return h

    # ---- chance --------------------------------------------------------------------------
    cdef bint is_chance(self) noexcept nogil:
        return self.phase != MOVE

    cdef int chance_outcomes(self, int* outcomes, double* probs) noexcept nogil:
        cdef int hi, lo, n = 0, who
        if self.phase == MOVE:
            return 0
        if self.phase == OPENING:
            for hi in range(2, 7):
                for lo in range(1, hi):
                    for who in range(1, 3):
                        outcomes[n] = OUTCOME + who * 64 + hi * 8 + lo
                        probs[n] = 1.0 / 30.0
                        n += 1
            return n
        for hi in range(1, 7):
            for lo in range(1, hi + 1):
                outcomes[n] = OUTCOME + hi * 8 + lo
                probs[n] = (1.0 if hi == lo else 2.0) / 36.0
                n += 1
        return n

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        cdef int a = 1 + rng_below(rng, 6), b = 1 + rng_below(rng, 6)
        if self.phase == OPENING:
            while a == b:           # each side throws one die; equal dice throw again
                a = 1 + rng_below(rng, 6)
                b = 1 + rng_below(rng, 6)
            return OUTCOME + (1 if a > b else 2) * 64 + (a if a > b else b) * 8 + (
                b if a > b else a)
        return OUTCOME + (a if a > b else b) * 8 + (b if a > b else a)

    # ---- rules ---------------------------------------------------------------------------
    cdef int result(self) noexcept nogil:
        return self.res

    cdef int gen_moves(self, int* out) noexcept nogil:
        cdef double* probs
        if self.phase != MOVE:
            probs = <double*>alloca(30 * sizeof(double))
            return self.chance_outcomes(out, probs)
        return gen_turns(self.c[self.player], self.c[1 - self.player], self.player,
                         self.d[0], self.d[1], out, self.seen_key, self.seen_stamp,
                         &self.stamp)

    cdef void do_move(self, int move) noexcept nogil:
        cdef Undo* u
        cdef int p = self.player, o, i, who
        history_reserve(&self.hist, self.ply + 1)
        u = &(<Undo*>self.hist.data)[self.ply]
        memcpy(u.c, self.c, sizeof(self.c))
        u.player = p
        u.phase = self.phase
        u.d0 = self.d[0]
        u.d1 = self.d[1]
        u.turns = self.turns
        u.res = self.res
        u.hash = self.hash
        self.ply += 1
        if move >= OUTCOME:
            move -= OUTCOME
            who = move >> 6
            if self.phase == OPENING:
                self.hash ^= ZOPEN
                if who == 2:
                    self.player = 1
                    self.hash ^= ZSIDE if p == 0 else 0
                elif p == 1:
                    self.player = 0
                    self.hash ^= ZSIDE
            self.phase = MOVE
            self.d[0] = (move >> 3) & 7
            self.d[1] = move & 7
            self.hash ^= ZDICE[self.d[0]][self.d[1]]
            return
        o = 1 - p
        play_turn(self.c[p], self.c[o], move)
        for i in range(NPT):
            if u.c[p][i] != self.c[p][i]:
                self.hash ^= ZC[p][i][u.c[p][i]] ^ ZC[p][i][self.c[p][i]]
            if u.c[o][i] != self.c[o][i]:
                self.hash ^= ZC[o][i][u.c[o][i]] ^ ZC[o][i][self.c[o][i]]
        self.hash ^= ZDICE[self.d[0]][self.d[1]] ^ ZSIDE
        self.d[0] = 0
        self.d[1] = 0
        self.phase = ROLL
        self.player = o
        self.turns += 1
        self.res = self._compute_result()

    cdef void undo_move(self) noexcept nogil:
        self.ply -= 1
        cdef Undo* u = &(<Undo*>self.hist.data)[self.ply]
        memcpy(self.c, u.c, sizeof(self.c))
        self.player = u.player
        self.phase = u.phase
        self.d[0] = u.d0
        self.d[1] = u.d1
        self.turns = u.turns
        self.res = u.res
        self.hash = u.hash

    cdef int _points(self) noexcept nogil:
        """The winner's score of a finished game (1, 2 gammon, 3 backgammon; capped by the
        scoring parameter), 0 for a draw or a game going on."""
        cdef int r = self.res, q
        cdef const unsigned char* loser
        if r != 0 and r != 1:
            return 0
        loser = self.c[1 - r]
        if self.scoring == 1 or loser[OFF] > 0:
            return 1
        if self.scoring == 3:
            if loser[BAR] > 0:
                return 3
            for q in range(19, 25):         # the winner's home board
                if loser[q] > 0:
                    return 3
        return 2

    cdef double terminal_reward(self) noexcept nogil:
        cdef double v = self._points() / <double>self.scoring
        if self.res == 0:
            return v
        if self.res == 1:
            return -v
        return 0.0

    cdef double _eval_on_roll(self, int p, int evalfn) noexcept nogil:
        cdef const unsigned char* me = self.c[p]
        cdef const unsigned char* op = self.c[1 - p]
        if evalfn == EF_PIP or not contact(me, op):
            return race_value(me, op)
        return contact_value(me, op)

    # ---- the fast random playout -----------------------------------------------------------
    cdef int random_playout(self, Rng* rng, int max_plies) noexcept nogil:
        """Uniformly random turns (over the distinct positions a roll reaches) and fair dice on
        a local board: no undo records, no hashing. Plies count chance nodes too."""
        cdef unsigned char b[2][NPT]
        cdef int* buf = <int*>alloca(MAX_TURNS_PER_ROLL * sizeof(int))
        cdef int p = self.player, phase = self.phase, d0 = self.d[0], d1 = self.d[1]
        cdef int turns = self.turns, plies = 0, n, a, e
        if self.res != ONGOING:
            return self.res
        memcpy(b, self.c, sizeof(b))
        while plies < max_plies:
            plies += 1
            if phase != MOVE:
                a = 1 + rng_below(rng, 6)
                e = 1 + rng_below(rng, 6)
                if phase == OPENING:
                    while a == e:
                        a = 1 + rng_below(rng, 6)
                        e = 1 + rng_below(rng, 6)
                    p = 0 if a > e else 1
                d0 = a if a > e else e
                d1 = e if a > e else a
                phase = MOVE
                continue
            n = gen_turns(b[p], b[1 - p], p, d0, d1, buf, self.seen_key, self.seen_stamp,
                          &self.stamp)
            if play_turn(b[p], b[1 - p], buf[rng_below(rng, n)]):
                return p
            p = 1 - p
            phase = ROLL
            turns += 1
            if turns > self.max_turns:
                return DRAW
        return ONGOING

    cdef GameState clone(self):
        cdef Backgammon c = Backgammon.__new__(Backgammon)
        memcpy(c.c, self.c, sizeof(self.c))
        c.scoring = self.scoring
        c.max_turns = self.max_turns
        c.phase = self.phase
        c.d[0] = self.d[0]
        c.d[1] = self.d[1]
        c.turns = self.turns
        c.res = self.res
        c.player = self.player
        c.ply = self.ply
        c.hash = self.hash
        history_copy(&c.hist, &self.hist, self.ply)
        return c

    # ---- Python face ----------------------------------------------------------------------
    def _steps(self, int move):
        """[(from, to, hit)] of a turn id played from this position, in playing order."""
        cdef int src[4]
        cdef int dice[4]
        cdef int n = turn_steps(move, src, dice), k, t
        me = [self.c[self.player][i] for i in range(NPT)]
        op = [self.c[1 - self.player][i] for i in range(NPT)]
        out = []
        for k in range(n):
            t = max(src[k] - dice[k], 0)
            if me[src[k]] == 0:
                raise ValueError(f"bad backgammon move id {move}: no checker on point "
                                 f"{src[k]}")
            me[src[k]] -= 1
            me[t] += 1
            hit = t >= 1 and op[25 - t] == 1
            if hit:
                op[25 - t] = 0
                op[BAR] += 1
            out.append((src[k], t, hit))
        return out

    def _mine_after(self, int move):
        """The mover's 26 counts after turn `move`, as bytes (parse_move's quick filter)."""
        cdef unsigned char b[2][NPT]
        memcpy(b, self.c, sizeof(b))
        play_turn(b[self.player], b[1 - self.player], move)
        return bytes([b[self.player][i] for i in range(NPT)])

    def format_move(self, int move):
        if move >= OUTCOME:
            return _format_outcome(move)
        if move == 0:
            return "pass"
        if self.phase != MOVE:
            raise ValueError(f"bad backgammon move id {move}: the dice are to be rolled")
        steps = sorted(self._steps(move), key=lambda st: (-st[0], -st[1], not st[2]))
        parts = []
        i = 0
        while i < len(steps):
            s, t, _hit = steps[i]
            j = i
            anyhit = False
            while j < len(steps) and steps[j][:2] == (s, t):
                anyhit = anyhit or steps[j][2]
                j += 1
            text = f"{_point_name(s)}/{_point_name(t)}{'*' if anyhit else ''}"
            parts.append(text + (f"({j - i})" if j - i > 1 else ""))
            i = j
        return " ".join(parts)

    def parse_move(self, str text):
        """The move id of a notation in this position (see the module docstring). A turn's id
        depends on the position: the one legal turn the notation names, or ValueError."""
        t = text.strip().lower()
        outcome = _parse_outcome(t)
        if outcome is not None:
            return outcome
        if t == "pass":
            return 0
        segments = _parse_segments(text)
        if self.phase != MOVE or self.res != ONGOING:
            raise ValueError(f"backgammon move {text!r} but no side is to move with dice here")
        return self._match(text, segments)

    def play(self, move):
        """Play a move given as notation (or an id); ValueError naming what is wrong, with a few
        of the legal moves (a double can have over a thousand)."""
        if not isinstance(move, str):
            return GameState.play(self, move)
        legal = self.move_ids()
        shown = ", ".join(self.format_move(m) for m in legal[:8]) or "none (the game is over)"
        hint = f"; legal: {shown}" + (f", ... ({len(legal)} in all)" if len(legal) > 8 else "")
        try:
            mid = self.parse_move(move.strip())
        except ValueError as e:
            raise ValueError(f"{e}{hint}") from None
        if mid not in legal:
            raise ValueError(f"illegal move {move!r} in this position{hint}")
        self.do_move(mid)

    def _match(self, str text, list segments):
        p = self.player
        final = [self.c[p][i] for i in range(NPT)]
        landed = set()
        marked = set()
        for path, count, hits in segments:
            final[path[0]] -= count
            final[path[len(path) - 1]] += count
            landed.update(path[1:])
            marked.update(hits)
        if min(final) < 0:
            raise ValueError(f"backgammon move {text!r} moves more checkers than there are")
        want = bytes(final)
        cands = []
        for m in self.move_ids():
            if self._mine_after(m) != want:
                continue
            steps = self._steps(m)
            cands.append((m, {t for _, t, _ in steps}, {t for _, t, h in steps if h}))
        if len(cands) > 1:
            # a turn with the same checkers can still differ in what it hits on the way
            narrowed = [c for c in cands if landed - {0} <= c[1] and c[2] == marked]
            if len(narrowed) == 1:
                cands = narrowed
        if len(cands) == 1:
            return cands[0][0]
        dice = f"{self.d[0]}{self.d[1]}"
        if not cands:
            raise ValueError(f"illegal backgammon move {text!r} with {dice}")
        names = ", ".join(self.format_move(c[0]) for c in cands)
        raise ValueError(f"ambiguous backgammon move {text!r} with {dice}: it could be {names}")

    def to_text(self):
        x = _side_text([self.c[0][i] for i in range(NPT)])
        o = _side_text([self.c[1][i] for i in range(NPT)])
        side = "-" if self.phase == OPENING else SIDES[self.player]
        dice = f"{self.d[0]}{self.d[1]}" if self.phase == MOVE else "-"
        return f"{x}/{o} {side} {dice} {self.turns}"

    def _load(self, str text):
        x, o, side, d0, d1, turns = parse_position(text, self.max_turns)
        phase = OPENING if side == "-" else (MOVE if d0 else ROLL)
        self._set(x, o, 0 if side in "-x" else 1, phase, d0, d1, turns)

    @classmethod
    def from_text(cls, str text, int scoring=1, int max_turns=500):
        """Read the text form (see the module docstring); one-line ValueError naming what is
        wrong with a position that cannot be."""
        check_params(scoring, max_turns)
        cdef Backgammon s = cls.__new__(cls)
        s.scoring = scoring
        s.max_turns = max_turns
        s._load(text)
        return s

    def knowledge(self):
        return BackgammonKnowledge()

    def board_str(self):
        """The board from x's side: o's home top right, x's home bottom right."""
        x = [self.c[0][i] for i in range(NPT)]
        o = [self.c[1][i] for i in range(NPT)]

        def cell(xp):
            if x[xp]:
                return f"x{x[xp]:<2d}"
            if o[25 - xp]:
                return f"o{o[25 - xp]:<2d}"
            return " . "

        top = " ".join(cell(q) for q in range(13, 19)) + " | " + \
            " ".join(cell(q) for q in range(19, 25))
        bot = " ".join(cell(q) for q in range(12, 6, -1)) + " | " + \
            " ".join(cell(q) for q in range(6, 0, -1))
        nums_top = " ".join(f"{q:<3d}" for q in range(13, 19)) + " | " + \
            " ".join(f"{q:<3d}" for q in range(19, 25))
        nums_bot = " ".join(f"{q:<3d}" for q in range(12, 6, -1)) + " | " + \
            " ".join(f"{q:<3d}" for q in range(6, 0, -1))
        lines = [nums_top + "   (x's points)", top, "", bot, nums_bot,
                 f"bar: x {x[BAR]}, o {o[BAR]}   off: x {x[OFF]}, o {o[OFF]}   "
                 f"pips: x {sum(q * x[q] for q in range(1, NPT))}, "
                 f"o {sum(q * o[q] for q in range(1, NPT))}   turns {self.turns}"]
        r = self.res
        if r == ONGOING:
            if self.phase == OPENING:
                lines.append("opening roll")
            elif self.phase == ROLL:
                lines.append(f"{SIDES[self.player]} to roll")
            else:
                lines.append(f"{SIDES[self.player]} to move {self.d[0]}{self.d[1]}")
        elif r == DRAW:
            lines.append(f"draw: more than {self.max_turns} turns")
        else:
            pts = self._points()
            kind = {1: "", 2: " (gammon)", 3: " (backgammon)"}[pts]
            lines.append(f"{SIDES[r]} has won{kind}")
        return "\n".join(lines)

    # ---- helpers for tests and tools --------------------------------------------------------
    def counts(self, int who):
        """Player who's 26 counts in its own numbering: [off, points 1-24, bar]."""
        return [self.c[who][i] for i in range(NPT)]

    def steps(self, int move):
        """[(from, to, hit)] of a turn played from this position, one per die in an order it
        can be played (bar 25, off 0, the mover's numbering): what a match file lists."""
        return self._steps(move)

    def dice(self):
        """(high, low) at a move, None at a chance node."""
        return (self.d[0], self.d[1]) if self.phase == MOVE else None

    def points(self):
        """The winner's score of a finished game under this game's scoring (1, 2 or 3), 0
        for a draw or a game going on."""
        return self._points()

    def features(self):
        """The contact evaluation's features (see W) from the view of the side to move."""
        cdef double f[NFEAT]
        eval_features(self.c[self.player], self.c[1 - self.player], f)
        return [f[i] for i in range(NFEAT)]

    def is_contact(self):
        """Can the sides still hit or block each other? (False: a pure race.)"""
        return bool(contact(self.c[0], self.c[1]))

    def pip_counts(self):
        return pips(self.c[0]), pips(self.c[1])

    def turns_played(self):
        return self.turns

    def hash_from_scratch(self):
        return self._full_hash()

    def turns_for(self, int d0, int d1):
        """The distinct turns of the side to move with dice (d0, d1) (at a chance node too:
        as if it had rolled them); ids."""
        cdef int* buf = <int*>alloca(MAX_TURNS_PER_ROLL * sizeof(int))
        cdef int n, hi = max(d0, d1), lo = min(d0, d1)
        if not (1 <= lo <= 6 and 1 <= hi <= 6):
            raise ValueError(f"bad dice {d0}{d1}")
        n = gen_turns(self.c[self.player], self.c[1 - self.player], self.player, hi, lo, buf,
                      self.seen_key, self.seen_stamp, &self.stamp)
        return [buf[i] for i in range(n)]


def check_params(int scoring=1, int max_turns=500):
    if not 1 <= scoring <= 3:
        raise ValueError(f"backgammon parameter scoring={scoring} out of range: expected 1 to 3")
    if not MIN_MAX_TURNS <= max_turns <= MAX_MAX_TURNS:
        raise ValueError(f"backgammon parameter max_turns={max_turns} out of range: expected "
                         f"{MIN_MAX_TURNS} to {MAX_MAX_TURNS}")


# ---- the text forms: point and outcome names, the position text ------------------------------

include "backgammon_text.pxi"


# ---- what the game declares about itself (see mcts_arena/games/info.py) ----------------------
def _last_points(seat, move):
    """The points (in x's numbering, 0 for off the board) that turn `move` of `seat` moved
    checkers from and to; [] for a pass or a roll of the dice."""
    if move <= 0 or move >= OUTCOME:
        return []
    die0 = (move >> 5) & 7
    steps = [(move & 31, die0), ((move >> 8) & 31, (move >> 13) & 7),
             ((move >> 16) & 31, die0), ((move >> 21) & 31, die0)]
    points = []
    for src, die in steps:
        if not src:
            continue
        dst = max(src - die, 0)
        for q in (src, dst):
            if 1 <= q <= 24:
                points.append(q if seat == 0 else 25 - q)
    return points


def draw(state, last=None):
    """The position as SVG (the game viewer's board), from x's side: x's points 13-24 along the
    top left to right, 12-1 along the bottom, the bar in the middle, each side's checkers
    stacked on their points (at most five drawn, then their count), the bar and the borne-off
    checkers counted, the dice of the side to move (blank at a roll) and the turns played. The
    last move (`last` = (seat, move id)) frames the points its checkers left and reached in red
    (the dice after a roll) and is named at the foot."""
    from mcts_arena.games.drawing import BLACK_STONE, MARK, WHITE_STONE, Svg

    x, o, side, d0, d1, turns = parse_position(state.to_text(), state.max_turns)
    cell, bar, top, depth = 30.0, 30.0, 24.0, 150.0
    left = 10.0
    width = left * 2 + 12 * cell + bar + 70
    height = top + 2 * depth + 40 + 46
    mover = "nobody yet (the opening roll)" if side == "-" else side
    svg = Svg(width, height, f"backgammon, {mover} to move, turn {turns}")
    svg.rect(left, top, 12 * cell + bar, 2 * depth + 40, "#d9c39a", stroke="#6b4f2a",
             stroke_width=2)
    svg.rect(left + 6 * cell, top, bar, 2 * depth + 40, "#6b4f2a")
    marked = set() if last is None else set(_last_points(last[0], last[1]))
    bottom = top + 2 * depth + 40

    def column(p):                    # x's point p -> (x of its left edge, on top?)
        col = p - 13 if p >= 13 else 12 - p
        return left + col * cell + (bar if col >= 6 else 0), p >= 13

    for p in range(1, 25):
        cx, upper = column(p)
        base, tip = (top, top + depth) if upper else (bottom, bottom - depth)
        svg.polygon([(cx, base), (cx + cell, base), (cx + cell / 2, tip)],
                    "#8b2f2f" if p % 2 else "#f4ead5", stroke=MARK if p in marked else None,
                    stroke_width=3 if p in marked else None)
        svg.text(cx + cell / 2, top - 10 if upper else bottom + 12, p, size=10)
        n, fill = (x[p], BLACK_STONE) if x[p] else (o[25 - p], WHITE_STONE)
        for k in range(min(n, 5)):
            y = base + (k + 0.5) * cell * (1 if upper else -1)
            svg.circle(cx + cell / 2, y, cell / 2 - 1.5, fill, stroke="#111111",
                       stroke_width=1)
        if n > 5:
            y = base + 4.5 * cell * (1 if upper else -1)
            svg.text(cx + cell / 2, y, n, size=12, fill="#d62728", font_weight="bold")
    mid_x = left + 6 * cell + bar / 2
    for _who, count, fill, y in (("x", x[BAR], BLACK_STONE, top + depth + 8),
                                ("o", o[BAR], WHITE_STONE, top + depth + 32)):
        if count:
            svg.circle(mid_x, y, bar / 2 - 2, fill, stroke="#111111", stroke_width=1)
            svg.text(mid_x, y, count, size=11, fill="#d62728", font_weight="bold")
    tray = left + 12 * cell + bar + 10
    svg.text(tray, top + 12, "x off", size=11, anchor="start")
    svg.text(tray, top + 28, x[OFF], size=14, anchor="start", font_weight="bold")
    svg.text(tray, bottom - 28, "o off", size=11, anchor="start")
    svg.text(tray, bottom - 12, o[OFF], size=14, anchor="start", font_weight="bold")
    rolled = last is not None and last[1] >= OUTCOME
    foot = bottom + 30
    svg.text(left, foot, f"{mover} to move, turn {turns}", size=12, anchor="start")
    for k, d in enumerate((d0, d1)):
        dx = left + 12 * cell + bar - 66 + k * 34
        svg.rect(dx, foot - 14, 28, 28, "#ffffff", stroke=MARK if rolled else "#333333",
                 stroke_width=3 if rolled else 1.5, rx=5)
        if d:
            svg.text(dx + 14, foot, d, size=16, fill="#222222", font_weight="bold")
    if last is not None:
        what = ("rolled" if rolled else "passed" if last[1] == 0 else "moved")
        svg.text(left + 190, foot, f"last: {SIDES[last[0]]} {what}", size=12,
                 anchor="start", fill=MARK)
    return str(svg)


from mcts_arena.games.info import GameInfo, Param

GAME = GameInfo(
    name="backgammon",
    description="backgammon without the doubling cube (chance nodes: the dice)",
    params={"scoring": Param(1, 1, 3, "points a win can score: 1 single, 2 gammons, "
                                      "3 backgammons"),
            "max_turns": Param(500, MIN_MAX_TURNS, MAX_MAX_TURNS,
                               "turns after which the game is drawn")},
    cls=Backgammon,
    evals=Backgammon.eval_functions,
    default_eval="efBG",
    eval_meanings={
        "efBG": "a race by the normal model behind the Kleinman count; contact by a logistic "
                "model of pips, points, primes, anchors, blots, bar, borne-off and back checkers",
        "efPip": "the race model everywhere (pip counts only)"},
    default_c=1.0,
    scoring="game",
    options=frozenset(),
    typical_plies=200,
    # the searches docs/chance.md times
    bench_players=("MCTS", "MCTS(im0.3)", "expectimax", "Star2"),
    bench_playouts=200,
    gtp_colors=("x", "o"),
    capabilities=frozenset({"gnubg"}),
    match_file=True,
    draw=draw,
)


# ---- knowledge: what a search knows of the game beyond its rules (state.pxd) ---------------------

include "backgammon_knowledge.pxi"
