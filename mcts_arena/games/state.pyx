# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""Base class of every game core: neutral defaults for the C-level hooks and the Python face.

See state.pxd for the conventions. The Python face (`moves`, `play`, `undo`, `winner`, ...) is
written once here on top of the C-level methods and a few per-game hooks.
"""
from libc.stdlib cimport malloc, free

from mcts_arena.rng cimport Rng, rng_below, rng_seed, rng_uniform

POLICY_IDS = {"random": PP_RANDOM, "ipp": PP_IPP}
MAX_LEGAL_MOVES = MAX_MOVES
RESULT_ONGOING = ONGOING
RESULT_DRAW = DRAW


cdef class GameState:
    """A game position that searches change in place with do/undo."""

    #: registry name, evaluation functions (name -> id) and notation, set by each game
    name = "abstract"
    eval_functions = {}
    #: does the game have chance nodes (dice)? Layers that cannot handle them refuse cheaply.
    has_chance = False

    def __cinit__(self, *args, **kwargs):
        self.max_moves = MAX_MOVES

    # ---- rules: every game overrides these (state.pxd) -----------------------------------
    cdef int gen_moves(self, int* out) noexcept nogil:
        return 0

    cdef void do_move(self, int move) noexcept nogil:
        pass

    cdef void undo_move(self) noexcept nogil:
        pass

    cdef int result(self) noexcept nogil:
        return ONGOING

    cdef GameState clone(self):
        raise NotImplementedError

    # ---- chance: a game of dice overrides these; a deterministic game keeps them ---------
    cdef bint is_chance(self) noexcept nogil:
        """Is this a chance node (the dice decide, nobody chooses)?"""
        return False

    cdef int chance_outcomes(self, int* outcomes, double* probs) noexcept nogil:
        """The outcomes of this chance node and their probabilities (summing to 1), at most
        max_outcomes of them, in the order gen_moves lists them; 0 when it is not one."""
        return 0

    cdef int sample_chance(self, Rng* rng) noexcept nogil:
        """One outcome of this chance node drawn by its probability. The default walks
        chance_outcomes with one uniform number; games override it with a direct draw (two
        dice, one die). Only called at a chance node."""
        cdef int* out = <int*>alloca(self.max_outcomes * sizeof(int))
        cdef double* pr = <double*>alloca(self.max_outcomes * sizeof(double))
        cdef int n = self.chance_outcomes(out, pr)
        cdef int i
        cdef double u = rng_uniform(rng)
        for i in range(n - 1):
            u -= pr[i]
            if u < 0.0:
                return out[i]
        return out[n - 1]

    cdef double terminal_reward(self) noexcept nogil:
        """The value of a finished game for player 0 in [-1, 1]: +1 / -1 / 0 by result().
        A game that scores some wins higher (backgammon's gammons) scales its score by the
        largest one."""
        cdef int r = self.result()
        if r == 0:
            return 1.0
        if r == 1:
            return -1.0
        return 0.0

    # ---- fast paths: a game may answer faster; it MUST give these defaults' answer -------
    cdef int random_playout(self, Rng* rng, int max_plies) noexcept nogil:
        """Play uniformly random moves to the end (or max_plies), restore, return the result.
        A game with chance samples its chance nodes by probability (one test per playout, so
        the deterministic games' loop is as before)."""
        cdef int* moves
        cdef int n, depth = 0, res
        if self.max_outcomes > 0:
            return _chance_playout(self, rng, max_plies)
        moves = <int*>alloca(self.max_moves * sizeof(int))
        res = self.result()
        while res == ONGOING and depth < max_plies:
            n = self.gen_moves(moves)
            if n == 0:
                break
            self.do_move(moves[rng_below(rng, n)])
            depth += 1
            res = self.result()
        while depth > 0:
            self.undo_move()
            depth -= 1
        return res

    cdef int recorded_playout(self, Rng* rng, int* moves, signed char* movers, int cap,
                              int* count) noexcept nogil:
        """A uniformly random playout (as the searches' move-by-move loop plays the random
        policy) that also records its moves and who made
        them, the first `cap` of them, in moves/movers; count[0] = moves recorded, count[1] =
        moves played. State restored; returns the result. RAVE's playouts use it, so a game
        with a fast path (Gomoku) gives RAVE its speed. In a game with chance the dice are
        sampled by probability and not recorded (nobody chose them)."""
        cdef int* buf
        cdef int n, m, depth = 0, k = 0, res
        if self.max_outcomes > 0:
            return _chance_recorded_playout(self, rng, moves, movers, cap, count)
        buf = <int*>alloca(self.max_moves * sizeof(int))
        res = self.result()
        while res == ONGOING and depth < PLAYOUT_PLIES_MAX:
            n = self.gen_moves(buf)
            if n == 0:
                break
            m = buf[rng_below(rng, n)]
            if k < cap:
                moves[k] = m
                movers[k] = self.player
                k += 1
            self.do_move(m)
            depth += 1
            res = self.result()
        count[0] = k
        count[1] = depth
        while depth > 0:
            self.undo_move()
            depth -= 1
        return res

    cdef bint is_decisive(self, int move) noexcept nogil:
        """Does `move` win the game at once (for the side making it, which in Kalah may be the
        side to move again afterwards)?"""
        cdef int me = self.player
        self.do_move(move)
        cdef bint won = self.result() == me
        self.undo_move()
        return won

    # ---- Python hooks: every game overrides these ------------------------------------------
    def format_move(self, int move):
        """Notation string of an internal move id."""
        raise NotImplementedError

    def parse_move(self, str text):
        """Internal move id of a notation string (syntax only; legality is checked by play)."""
        raise NotImplementedError

    def to_text(self):
        """The position as text that `from_text` reads back."""
        raise NotImplementedError

    @classmethod
    def from_text(cls, str text):
        """A new position read from `to_text`'s form (a ValueError naming the problem when it
        is not one)."""
        raise NotImplementedError

    def board_str(self):
        raise NotImplementedError

    def knowledge(self):
        """The game's own knowledge (a `Knowledge` the searches hold unless given another):
        the neutral one for a game that knows nothing beyond its rules."""
        return Knowledge()

    # ---- Python face ---------------------------------------------------------------------
    def move_ids(self):
        """Legal moves as internal ids, in generation order."""
        cdef int* buf = <int*>alloca(self.max_moves * sizeof(int))
        cdef int n = 0
        if self.result() == ONGOING:
            n = self.gen_moves(buf)
        return [buf[i] for i in range(n)]

    def moves(self):
        """Legal moves as notation strings."""
        return [self.format_move(m) for m in self.move_ids()]

    def play(self, move):
        """Play a move given as notation (or an internal id); ValueError if it is not legal."""
        legal = self.move_ids()
        if isinstance(move, int):
            mid = move
        else:
            try:
                mid = self.parse_move(str(move).strip())
            except ValueError:
                mid = None
        if mid is None or mid not in legal:
            shown = ", ".join(self.format_move(m) for m in legal) or "none (the game is over)"
            raise ValueError(f"illegal move {move!r} in this position; legal moves: {shown}")
        self.do_move(mid)

    def undo(self):
        """Take back the last move played on this object."""
        if self.ply <= 0:
            raise IndexError("no move to undo")
        self.undo_move()

    def is_terminal(self):
        return self.result() != ONGOING

    def winner(self):
        """0 or 1 for a decided game, None for a draw or a game still going."""
        cdef int r = self.result()
        return r if r in (0, 1) else None

    def is_draw(self):
        return self.result() == DRAW

    def to_move(self):
        return self.player

    def reward(self, int who):
        """+1 / 0 / -1 for player `who` in a finished game (0 while it is going on)."""
        cdef int r = self.result()
        if r == ONGOING or r == DRAW:
            return 0
        return 1 if r == who else -1

    def evaluation(self, evalfn="default"):
        """Heuristic value in [-1, 1] from the side to move, by evaluation name or id."""
        cdef Knowledge k = self.knowledge()
        return k.evaluate(self, self._eval_id(evalfn))

    def perft(self, int depth):
        """Leaf count of the move tree `depth` plies deep (a finished game has no moves)."""
        if depth < 0:
            raise ValueError(f"perft depth must be >= 0, got {depth}")
        cdef unsigned long long r
        with nogil:
            r = _perft(self, depth)
        return r

    def zobrist(self):
        """The 64-bit Zobrist hash of the position (side to move included)."""
        return self.hash

    def copy(self):
        return self.clone()

    # ---- Python face of chance nodes ---------------------------------------------------------
    def is_chance_node(self):
        """Is this a chance node: the dice move next, not a player?"""
        return bool(self.is_chance()) and self.result() == ONGOING

    def outcome_probs(self):
        """[(outcome id, probability), ...] of this chance node in the game's order; [] at a
        position that is not one."""
        cdef int* out
        cdef double* pr
        cdef int n
        if self.max_outcomes <= 0 or self.result() != ONGOING:
            return []
        out = <int*>alloca(self.max_outcomes * sizeof(int))
        pr = <double*>alloca(self.max_outcomes * sizeof(double))
        n = self.chance_outcomes(out, pr)
        return [(out[i], pr[i]) for i in range(n)]

    def outcome_at(self, double u):
        """The outcome a uniform number u in [0, 1) stands for: the first whose cumulative
        probability (in outcome_probs order) exceeds u. The match loop draws u, so the same
        number gives the same dice in two games at the same kind of chance node."""
        outcomes = self.outcome_probs()
        if not outcomes:
            raise ValueError("not a chance node")
        if not 0.0 <= u < 1.0:
            raise ValueError(f"u={u} is not in [0, 1)")
        for m, p in outcomes:
            u -= p
            if u < 0.0:
                return m
        return outcomes[len(outcomes) - 1][0]   # rounding: u near 1

    def sample_chance_id(self, unsigned long long seed):
        """sample_chance with a fresh Rng seeded by `seed` (tests)."""
        cdef Rng r
        if not self.is_chance_node():
            raise ValueError("not a chance node")
        rng_seed(&r, seed)
        return self.sample_chance(&r)

    def final_reward(self):
        """terminal_reward(): a finished game's value for player 0 in [-1, 1] (0 while it goes
        on)."""
        return self.terminal_reward() if self.result() != ONGOING else 0.0

    def perft_weighted(self, int depth):
        """perft with every chance outcome weighted by its probability: the expected number of
        leaves `depth` plies deep when the dice are rolled and every move is tried."""
        if depth < 0:
            raise ValueError(f"perft depth must be >= 0, got {depth}")
        cdef double r
        with nogil:
            r = _perft_weighted(self, depth)
        return r

    def random_playout_result(self, unsigned long long seed=1, int max_plies=1000000):
        """Result of one uniformly random playout from here (state restored): for tests/bench."""
        cdef Rng r
        rng_seed(&r, seed)
        return self.random_playout(&r, max_plies)

    def generic_playout_result(self, unsigned long long seed=1, int max_plies=1000000):
        """The same playout as random_playout_result by the generic do/undo loop (GameState's
        own random_playout, whatever the game overrides): a game whose fast playout draws its
        moves in gen_moves order from the same generator must agree with it game for game."""
        cdef Rng r
        rng_seed(&r, seed)
        return GameState.random_playout(self, &r, max_plies)

    # ---- test shims: the C-level knowledge hooks, by notation or move id ---------------------
    def _move_id(self, move):
        return self.parse_move(move) if isinstance(move, str) else int(move)

    def _eval_id(self, evalfn):
        if isinstance(evalfn, str):
            if evalfn == "default":
                return EF_DEFAULT
            if evalfn not in self.eval_functions:
                raise ValueError(f"unknown evaluation {evalfn!r} for {self.name}; "
                                 f"valid: {', '.join(self.eval_functions)}")
            return self.eval_functions[evalfn]
        return int(evalfn)

    # The knowledge hooks are asked of the game's own knowledge (`knowledge()`). base=True runs
    # the default (Knowledge's or GameState's) instead of the game's fast path: the conformance
    # harness compares the two.
    def py_eval_after(self, move, evalfn="default", bint base=False):
        """eval_after: the evaluation after `move` from the view of the side making it."""
        cdef Knowledge k = self.knowledge()
        if base:
            return Knowledge.eval_after(k, self, self._move_id(move), self._eval_id(evalfn))
        return k.eval_after(self, self._move_id(move), self._eval_id(evalfn))

    def py_evaluate_tanh_arg(self, evalfn="default"):
        """`evaluate_tanh_arg`: x with evaluation(evalfn) == tanh(x) here, or None where the
        game gives none."""
        cdef Knowledge k = self.knowledge()
        cdef double x = 0.0
        if k.evaluate_tanh_arg(self, self._eval_id(evalfn), &x):
            return x
        return None

    def py_move_order(self, move):
        cdef Knowledge k = self.knowledge()
        return k.move_order(self, self._move_id(move))

    def py_leaf_after(self, move, evalfn="default", bint base=False):
        """`leaf_after`: (result, side to move, is_arg, x) after `move`, which is not kept."""
        cdef Knowledge k = self.knowledge()
        cdef Leaf leaf
        if base:
            leaf = Knowledge.leaf_after(k, self, self._move_id(move), self._eval_id(evalfn))
        else:
            leaf = k.leaf_after(self, self._move_id(move), self._eval_id(evalfn))
        return leaf.res, leaf.player, bool(leaf.is_arg), leaf.x

    def py_is_among_best(self, move, int width=0):
        """`is_among_best`: 1, 0 or -1 (not known without listing the moves)."""
        cdef Knowledge k = self.knowledge()
        return k.is_among_best(self, self._move_id(move), width)

    def py_select_best(self, list moves, int width=0, bint base=False):
        """`select_best` (ids): the given legal moves by the static order, best first, equal
        ones in the order given, cut to `width` when > 0."""
        cdef Knowledge k = self.knowledge()
        cdef int n = len(moves), i
        cdef int* buf = <int*>alloca(n * sizeof(int) + sizeof(int))
        for i in range(n):
            buf[i] = moves[i]
        n = Knowledge.select_best(k, self, buf, n, width) if base else \
            k.select_best(self, buf, n, width)
        return [buf[i] for i in range(n)]

    def py_ordered_moves(self, int width=0, bint base=False):
        """`ordered_moves` (ids): the search moves best first, cut to `width` when > 0."""
        cdef Knowledge k = self.knowledge()
        cdef int* buf = <int*>alloca(self.max_moves * sizeof(int) + sizeof(int))
        cdef int n = 0
        if self.result() == ONGOING:
            n = Knowledge.ordered_moves(k, self, buf, width) if base else \
                k.ordered_moves(self, buf, width)
        return [buf[i] for i in range(n)]

    def py_tactical_moves(self):
        """`tactical_moves` (ids): what the αβ's quiescence search extends."""
        cdef Knowledge k = self.knowledge()
        cdef int* buf = <int*>alloca(self.max_moves * sizeof(int) + sizeof(int))
        cdef int n = 0
        if self.result() == ONGOING:
            n = k.tactical_moves(self, buf)
        return [buf[i] for i in range(n)]

    def py_do_null(self):
        """`do_null`: pass where the game allows it; True if it did (undo with py_undo_null)."""
        cdef Knowledge k = self.knowledge()
        return bool(k.do_null(self))

    def py_undo_null(self):
        cdef Knowledge k = self.knowledge()
        k.undo_null(self)

    def py_move_prior(self, move):
        cdef Knowledge k = self.knowledge()
        return k.move_prior(self, self._move_id(move))

    def py_move_bias(self, move):
        cdef Knowledge k = self.knowledge()
        return k.move_bias(self, self._move_id(move))

    def py_is_decisive(self, move, bint base=False):
        if base:
            return bool(GameState.is_decisive(self, self._move_id(move)))
        return bool(self.is_decisive(self._move_id(move)))

    def py_best_successor(self, evalfn="default", unsigned long long seed=1, bint base=False):
        """best_successor over every legal move: the 1-ply greedy move by an evaluation (ties
        at random with a fresh Rng seeded by `seed`); None when there is no move."""
        cdef Knowledge k = self.knowledge()
        cdef int* buf = <int*>alloca(self.max_moves * sizeof(int))
        cdef int n = 0, ef = self._eval_id(evalfn)
        cdef Rng r
        if self.result() == ONGOING:
            n = self.gen_moves(buf)
        if n == 0:
            return None
        rng_seed(&r, seed)
        if base:
            return Knowledge.best_successor(k, self, ef, buf, n, &r)
        return k.best_successor(self, ef, buf, n, &r)

    def py_recorded_playout(self, unsigned long long seed=1, int cap=PLAYOUT_PLIES_MAX,
                            bint base=False):
        """(result, moves recorded, their movers, plies played) of the recorded playout (RAVE's)
        from here, state restored; base=True runs GameState's own loop."""
        cdef Rng r
        cdef int* mv
        cdef signed char* who
        cdef int cnt[2]
        cdef int res
        cap = max(0, cap)
        mv = <int*>malloc((cap + 1) * sizeof(int))
        who = <signed char*>malloc(cap + 1)
        if mv == NULL or who == NULL:
            free(mv)
            free(who)
            raise MemoryError()
        rng_seed(&r, seed)
        if base:
            res = GameState.recorded_playout(self, &r, mv, who, cap, cnt)
        else:
            res = self.recorded_playout(&r, mv, who, cap, cnt)
        out = (res, [mv[i] for i in range(cnt[0])], [who[i] for i in range(cnt[0])], cnt[1])
        free(mv)
        free(who)
        return out

    def py_policy_playout(self, int policy, unsigned long long seed=1):
        """`policy_playout` with a fresh Rng seeded by `seed`: the result, or -3 (no fast path)."""
        cdef Knowledge k = self.knowledge()
        cdef Rng r
        rng_seed(&r, seed)
        return k.policy_playout(self, policy, &r)

    def py_forced_move_of(self, list moves, unsigned long long seed=1):
        """`forced_move` over the given move ids (fresh Rng seeded by `seed`): a move or -1."""
        cdef Knowledge k = self.knowledge()
        cdef int* buf = <int*>alloca(self.max_moves * sizeof(int) + sizeof(int))
        cdef Rng r
        cdef int i
        if len(moves) > self.max_moves:
            raise ValueError(f"expected at most {self.max_moves} moves, got {len(moves)}")
        for i, m in enumerate(moves):
            buf[i] = m
        rng_seed(&r, seed)
        return k.forced_move(self, buf, len(moves), &r)

    def py_playout_move(self, int policy, list moves, unsigned long long seed):
        """playout_move over the given move ids with a fresh Rng seeded by `seed`."""
        cdef Knowledge k = self.knowledge()
        cdef int* buf = <int*>alloca(self.max_moves * sizeof(int))
        cdef Rng r
        cdef int i
        if not 0 < len(moves) <= self.max_moves:
            raise ValueError(f"expected 1 to {self.max_moves} moves, got {len(moves)}")
        for i, m in enumerate(moves):
            buf[i] = m
        rng_seed(&r, seed)
        return k.playout_move(self, policy, buf, len(moves), &r)

    def __str__(self):
        return self.board_str()

    def __repr__(self):
        return f"<{type(self).__name__} {self.to_text()!r}>"


cdef class Knowledge:
    """The neutral knowledge of a game (what a game without any has) and the defaults every
    game's own knowledge falls back on; see state.pxd."""

    #: the game this knowledge judges ("" for any: the neutral defaults judge every game)
    game = ""
    #: the names of `features`' numbers, in its order (none: the game offers no features)
    feature_names = ()

    def value(self, GameState state, int evalfn=0):
        """evaluate(state, evalfn): the position's value in [-1, 1] for its side to move."""
        return self.evaluate(state, evalfn)

    def py_features(self, GameState state):
        """features(state) as a list (feature_names' order); [] where the game has none."""
        cdef double buf[MAX_FEATURES]
        cdef int n = self.features(state, buf)
        return [buf[i] for i in range(n)]

    def judges(self, GameState state):
        """Does this knowledge judge positions of `state`'s game? A search checks it once a
        move before it casts the positions it hands to the knowledge's C-level methods."""
        return not self.game or self.game == state.name

    # ---- knowledge: neutral defaults, overridden where a game knows better --------------
    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        """The value of s in [-1, 1] for the side to move there by evaluation `evalfn` (the
        game's ids, 0 its default): ±1 for a decided game (0 a draw); neutral 0 while it goes
        on, as a game without an evaluation has none."""
        cdef int r = s.result()
        if r == ONGOING or r == DRAW:
            return 0.0
        return 1.0 if r == s.player else -1.0

    cdef int features(self, GameState s, double* out) noexcept nogil:
        """The position's features, len(feature_names) of them (at most MAX_FEATURES), into
        out, from the view of the side to move (each the mover's count less the opponent's
        where it is a count of both), the first a constant 1 (the move's tempo); returns how
        many. A linear evaluation fitted to game outcomes weighs them (mcts_arena/learn/).
        Defined for ongoing positions; none by default."""
        return 0

    cdef int search_moves(self, GameState s, int* out) noexcept nogil:
        """The moves a search expands here: the rules' moves (`gen_moves`) unless the game
        narrows them for search only (Gomoku's cells near the stones). Never empty while the
        game goes on, and always including every move that wins or stops a win at once."""
        return s.gen_moves(out)

    cdef int move_order(self, GameState s, int move) noexcept nogil:
        """Static ordering score: higher is searched first (decisive > anti-decisive > ...)."""
        return 0

    cdef double move_prior(self, GameState s, int move) noexcept nogil:
        """Prior win rate in [0, 1] of `move` for the mover (node priors), or -1 for none."""
        return -1.0

    cdef double move_bias(self, GameState s, int move) noexcept nogil:
        """Heuristic H(s, a) in [0, 1] for progressive bias; neutral 0."""
        return 0.0

    cdef int playout_move(self, GameState s, int policy, int* moves, int n,
                          Rng* rng) noexcept nogil:
        """Choose a playout move among `moves[0:n]` (n > 0). Default: uniform."""
        return moves[rng_below(rng, n)]

    cdef int forced_move(self, GameState s, int* moves, int n, Rng* rng) noexcept nogil:
        """The move the improved playout policy must play here (a win at once, or the only way
        to stop the opponent's win in one), or -1 when there is none. It comes before any other
        choice of an `ipp` playout, ε-greedy included. Default: none."""
        return -1

    cdef int threats(self, GameState s, int* out, int limit) noexcept nogil:
        """Moves with which the opponent would win at once if it were its turn (at most
        `limit` of them in out), or -1 when the game cannot tell (the default). The exact
        solver uses it: two threats lose, one must be blocked."""
        return -1

    cdef int tactical_moves(self, GameState s, int* out) noexcept nogil:
        """The moves a quiescence search extends (captures, for LOA), as many as it writes;
        0 by default: a game without them has no quiescence search."""
        return 0

    cdef bint do_null(self, GameState s) noexcept nogil:
        """Pass the move (a null move) where the game holds it sound, and say whether it did;
        undo_null takes it back. Never by default: passing is no move of the game, and a game
        with zugzwang would make null-move pruning unsound."""
        return False

    cdef void undo_null(self, GameState s) noexcept nogil:
        pass

    # ---- fast paths: a game may answer faster; it MUST give these defaults' answer -------
    cdef int policy_playout(self, GameState s, int policy, Rng* rng) noexcept nogil:
        """A whole playout by `policy` on the game's own fast path (state restored), returning
        the result; or -3 when the game has none (the search then plays the policy move by
        move: the game's forced_move, else its playout_move). A game's own must play the
        games that loop plays, in distribution. Hex and Gomoku have one for `ipp`."""
        return -3

    cdef double eval_after(self, GameState s, int move, int evalfn) noexcept nogil:
        """Evaluation after `move`, from the view of the side making it (ε-greedy playouts and
        expansion use this; games override it with an O(1) incremental version)."""
        cdef int me = s.player
        cdef double e
        s.do_move(move)
        e = self.evaluate(s, evalfn)
        if s.player != me:
            e = -e
        s.undo_move()
        return e

    cdef int best_successor(self, GameState s, int evalfn, int* moves, int n,
                            Rng* rng) noexcept nogil:
        """The move of moves[0:n] whose successor evaluates best for the mover (ties at
        random): the greedy half of ε-greedy playouts."""
        cdef int i, best_move = moves[0], ties = 0
        cdef double e, best = -1e300
        for i in range(n):
            e = self.eval_after(s, moves[i], evalfn)
            if e > best:
                best = e
                best_move = moves[i]
                ties = 1
            elif e == best:
                ties += 1
                if rng_below(rng, ties) == 0:
                    best_move = moves[i]
        return best_move

    cdef bint evaluate_tanh_arg(self, GameState s, int evalfn, double* x) noexcept nogil:
        """True, with x set, when evaluate(evalfn) here is exactly tanh(x) (an ongoing position
        and an evaluation of that shape): a search comparing leaf values may then compare
        the x's and take tanh only of those that can matter (tanh is monotone). Default:
        False (call evaluate)."""
        return False

    cdef Leaf leaf_after(self, GameState s, int move, int evalfn) noexcept nogil:
        """The position after `move`, for the last ply of a search (the move is not kept): its
        result, the side to move there and, when it goes on, its evaluation from that side's
        view: x = the evaluation, or its tanh argument (is_arg) where evaluate_tanh_arg gives
        one and the side to move has changed. This default plays the move and takes it back."""
        cdef Leaf leaf
        cdef int me = s.player
        s.do_move(move)
        leaf.res = s.result()
        leaf.player = s.player
        leaf.is_arg = False
        leaf.x = 0.0
        if leaf.res == ONGOING:
            if s.player != me and self.evaluate_tanh_arg(s, evalfn, &leaf.x):
                leaf.is_arg = True
            else:
                leaf.x = self.evaluate(s, evalfn)
        s.undo_move()
        return leaf

    cdef int select_best(self, GameState s, int* moves, int n, int width) noexcept nogil:
        """moves[0:n] by the static order (move_order), best first, equal ones in the order
        given, cut to the `width` best (all when width <= 0): keep_best's answer, in place.
        Returns how many are kept."""
        cdef int* keys = <int*>alloca(n * sizeof(int) + sizeof(int))
        cdef int i
        for i in range(n):
            keys[i] = self.move_order(s, moves[i])
        return keep_best(moves, keys, n, width)

    cdef int is_among_best(self, GameState s, int move, int width) noexcept nogil:
        """Is `move` legal here and among ordered_moves(width)'s moves? 1 yes, 0 no, -1 not
        known without listing them (this default). A game that can often tell at once lets a
        selective search try a killer before it lists the moves."""
        return -1

    cdef int ordered_moves(self, GameState s, int* out, int width) noexcept nogil:
        """The search moves (`search_moves`) in the static order, best first, moves of equal
        order as generated, cut to the `width` best when width > 0: select_best's answer on
        search_moves' list (what a selective search, αβ playouts, expands)."""
        cdef int n = self.search_moves(s, out)
        return Knowledge.select_best(self, s, out, n, width)


cdef Knowledge knowledge_for(Knowledge given, GameState state):
    cdef Knowledge k = given if given is not None else state.knowledge()
    if not k.judges(state):
        raise ValueError(f"this knowledge ({type(k).__name__}) judges {k.game}, not "
                         f"{state.name}")
    return k


cdef unsigned long long _perft(GameState s, int depth) noexcept nogil:
    cdef int* moves = <int*>alloca(s.max_moves * sizeof(int))
    cdef int n, i
    cdef unsigned long long total = 0
    if depth == 0:
        return 1
    if s.result() != ONGOING:
        return 0
    n = s.gen_moves(moves)
    if depth == 1:
        return n
    for i in range(n):
        s.do_move(moves[i])
        total += _perft(s, depth - 1)
        s.undo_move()
    return total


cdef double _perft_weighted(GameState s, int depth) noexcept nogil:
    cdef int* moves = <int*>alloca(s.max_moves * sizeof(int))
    cdef double* probs
    cdef int n, i
    cdef double total = 0.0
    if depth == 0:
        return 1.0
    if s.result() != ONGOING:
        return 0.0
    if s.max_outcomes > 0 and s.is_chance():
        probs = <double*>alloca(s.max_outcomes * sizeof(double))
        n = s.chance_outcomes(moves, probs)
        for i in range(n):
            s.do_move(moves[i])
            total += probs[i] * _perft_weighted(s, depth - 1)
            s.undo_move()
        return total
    n = s.gen_moves(moves)
    if depth == 1:
        return n
    for i in range(n):
        s.do_move(moves[i])
        total += _perft_weighted(s, depth - 1)
        s.undo_move()
    return total


cdef inline int _chance_step(GameState s, int* buf, Rng* rng) noexcept nogil:
    """A random playout's next move: the dice by probability at a chance node, else uniform
    among the legal moves; -1 when there is none."""
    cdef int n
    if s.is_chance():
        return s.sample_chance(rng)
    n = s.gen_moves(buf)
    if n == 0:
        return -1
    return buf[rng_below(rng, n)]


cdef int _chance_playout(GameState s, Rng* rng, int max_plies) noexcept nogil:
    """GameState.random_playout for a game with chance nodes."""
    cdef int* buf = <int*>alloca(s.max_moves * sizeof(int))
    cdef int m, depth = 0, res
    res = s.result()
    while res == ONGOING and depth < max_plies:
        m = _chance_step(s, buf, rng)
        if m < 0:
            break
        s.do_move(m)
        depth += 1
        res = s.result()
    while depth > 0:
        s.undo_move()
        depth -= 1
    return res


cdef int _chance_recorded_playout(GameState s, Rng* rng, int* moves, signed char* movers,
                                  int cap, int* count) noexcept nogil:
    """GameState.recorded_playout for a game with chance nodes: dice are not recorded."""
    cdef int* buf = <int*>alloca(s.max_moves * sizeof(int))
    cdef int n, m, depth = 0, k = 0, res
    cdef bint chance
    res = s.result()
    while res == ONGOING and depth < PLAYOUT_PLIES_MAX:
        chance = s.is_chance()
        if chance:
            m = s.sample_chance(rng)
        else:
            n = s.gen_moves(buf)
            if n == 0:
                break
            m = buf[rng_below(rng, n)]
            if k < cap:
                moves[k] = m
                movers[k] = s.player
                k += 1
        s.do_move(m)
        depth += 1
        res = s.result()
    count[0] = k
    count[1] = depth
    while depth > 0:
        s.undo_move()
        depth -= 1
    return res
