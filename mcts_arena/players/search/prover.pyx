# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The exact prover for small games (`arena prove`): αβ on the values {-1, 0, +1} (loss, draw,
win for the side to move) to the end of the game, with a transposition table. Ground truth for
`arena prove` and for the answers of the shipped test-position suites (`arena solve`).

At every node a move that wins at once (`is_decisive`, confirmed by playing it) is taken
first; where the game's knowledge lists the opponent's wins in one (`threats`), two of them lose
at once and one must be blocked; the other moves are searched in the knowledge's static order
(`move_order`, then `move_bias`: for Hex, bridge replies, bridge
moves, the centre). The TT (2^tt_bits entries, always-replace) keeps the value with its bound
type (exact, lower, upper). A node budget makes the answer `None` (unknown) instead of wrong.
With `max_depth`, a line longer than that many plies counts as unknown (0 in the search,
flagged): a "win in N" search for games whose games are long.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free

from mcts_arena.clock cimport now
from mcts_arena.games.state cimport GameState, Knowledge, knowledge_for, ONGOING, DRAW, alloca
from mcts_arena.players.search.ordering cimport sort_moves

cdef struct Entry:
    uint64_t key
    signed char value
    signed char flag      # 0 empty, 1 exact, 2 lower bound, 3 upper bound
    signed char depth_limited


cdef class Prover:
    cdef Entry* tt
    cdef uint64_t mask
    cdef long nodes
    cdef long node_limit
    cdef bint aborted
    cdef int max_depth
    cdef bint hit_depth
    cdef Knowledge k         # the game's own: its move order, biases and threats

    def __cinit__(self, int tt_bits=22):
        self.tt = <Entry*>calloc((<size_t>1) << tt_bits, sizeof(Entry))
        if self.tt == NULL:
            raise MemoryError()
        self.mask = ((<uint64_t>1) << tt_bits) - 1

    def __dealloc__(self):
        free(self.tt)

    cdef int _order(self, GameState s, int* moves, int n) noexcept nogil:
        cdef double* keys = <double*>alloca(n * sizeof(double) + 8)
        cdef int i
        for i in range(n):
            keys[i] = self.k.move_order(s, moves[i]) * 10.0 + self.k.move_bias(s, moves[i])
        sort_moves(moves, keys, n)
        return n

    cdef bint _wins_at_once(self, GameState s, int move) noexcept nogil:
        """Does `move` end the game with a win for the side playing it? The check behind a
        game's `is_decisive` claim, which games may answer from their own shortcuts: a wrong
        claim would be a wrong proof (GameState's default once compared the result with the
        side to move after the move, which in Kalah may be the mover again)."""
        cdef int me = s.player, r
        s.do_move(move)
        r = s.result()
        s.undo_move()
        return r == me

    cdef int _solve(self, GameState s, int alpha, int beta, int ply) noexcept nogil:
        cdef int* moves = <int*>alloca(s.max_moves * sizeof(int) + 8)
        cdef int n, i, v, best = -2, alpha0 = alpha, me, nt
        cdef int threat[2]
        cdef int res = s.result()
        cdef Entry* e
        self.nodes += 1
        if self.node_limit > 0 and self.nodes >= self.node_limit:
            self.aborted = True
        if self.aborted:
            return 0
        if res != ONGOING:
            if res == DRAW:
                return 0
            return 1 if res == s.player else -1
        if self.max_depth > 0 and ply >= self.max_depth:
            self.hit_depth = True
            return 0
        e = &self.tt[s.hash & self.mask]
        if e.flag != 0 and e.key == s.hash and not e.depth_limited:
            if e.flag == 1:
                return e.value
            if e.flag == 2 and e.value >= beta:
                return e.value
            if e.flag == 3 and e.value <= alpha:
                return e.value
        n = s.gen_moves(moves)
        if n == 0:
            return 0
        for i in range(n):
            if s.is_decisive(moves[i]) and self._wins_at_once(s, moves[i]):
                return 1
        # the opponent's wins in one: two cannot both be stopped, one must be
        nt = self.k.threats(s, threat, 2)
        if nt >= 2:
            best = -1
            n = 0
        elif nt == 1:
            moves[0] = threat[0]
            n = 1
        self._order(s, moves, n)
        me = s.player
        for i in range(n):
            s.do_move(moves[i])
            if s.player == me:
                v = self._solve(s, alpha, beta, ply + 1)
            else:
                v = -self._solve(s, -beta, -alpha, ply + 1)
            s.undo_move()
            if self.aborted:
                return 0
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        e.key = s.hash
        e.value = best
        e.flag = 3 if best <= alpha0 else (2 if best >= beta else 1)
        e.depth_limited = self.hit_depth
        return best

    def prove(self, GameState state, long max_nodes=0, int max_depth=0):
        """Exact value of `state` for the side to move (+1 win, 0 draw, -1 loss), or None if
        the node budget ran out (or, with max_depth, no result within that many plies)."""
        cdef GameState s = state.clone()
        cdef int v
        self.k = knowledge_for(None, state)
        self.nodes = 0
        self.node_limit = max_nodes
        self.aborted = False
        self.max_depth = max_depth
        self.hit_depth = False
        with nogil:
            v = self._solve(s, -1, 1, 0)
        if self.aborted or (self.hit_depth and v == 0):
            return None
        return v

    @property
    def nodes_searched(self) -> int:
        """Positions the last `prove` visited."""
        return self.nodes

    @property
    def budget_ran_out(self) -> bool:
        """Whether the last `prove` stopped at its node budget (its None is "no time", not
        "no result within the depth")."""
        return self.aborted

    def prove_moves(self, GameState state, long max_nodes=0, int max_depth=0):
        """{move id: value for the side to move after playing it (+1 win, 0 draw, -1 loss, None
        unknown)} for every legal move, and the nodes searched (`aborted`: how many moves'
        searches stopped at the node budget)."""
        cdef GameState s = state.clone()
        cdef int me = s.player
        cdef long total = 0
        cdef int aborted = 0
        cdef double t0 = now()
        self.k = knowledge_for(None, state)
        out = {}
        for m in s.move_ids():
            s.do_move(m)
            self.aborted = False
            v = self.prove(s, max_nodes, max_depth - 1 if max_depth > 0 else 0) \
                if s.result() == ONGOING else _terminal(s)
            total += self.nodes
            aborted += self.aborted
            s.undo_move()
            if v is not None and _next_player(state, m) != me:
                v = -v
            out[m] = v
        return out, {"nodes": total, "time": now() - t0, "aborted": aborted}


def _next_player(GameState state, int move):
    cdef GameState s = state.clone()
    s.do_move(move)
    return s.player


def _terminal(GameState s):
    cdef int r = s.result()
    if r == DRAW:
        return 0
    return 1 if r == s.player else -1


WORDS = {1: "win", 0: "draw", -1: "loss", None: "unknown"}


def prove_position(GameState state, long max_nodes=0, int max_depth=0):
    """`arena prove`: the value of `state` for the side to move and of every legal move, as
    words (win, draw, loss, unknown): {"value", "moves" (notation -> word), "winning_moves",
    "nodes", "time"}. The position's value is unknown while an unknown move might be better
    than every known one."""
    values, stats = Prover().prove_moves(state, max_nodes, max_depth)
    known = [v for v in values.values() if v is not None]
    overall = max(known) if known else None
    if overall is not None and overall < 1 and None in values.values():
        overall = None            # an unknown move might still be better
    moves = {state.format_move(m): WORDS[v] for m, v in values.items()}
    return {"value": WORDS[overall], "moves": moves,
            "winning_moves": [m for m, w in moves.items() if w == "win"], **stats}
