# hex.pyx's knowledge (included at its end): what a search knows of the game beyond its
# rules (state.pxd's Knowledge), as module functions over the position's fields and the
# Knowledge class that casts onto them.

cdef inline double _evaluate(Hex s, int evalfn) noexcept nogil:
    cdef int r = s.res
    cdef double v
    if r != ONGOING:
        return 1.0 if r == s.player else -1.0
    cdef int d = s._potential(1) - s._potential(0)
    # clamped so that only a finished game scores +-1 (a hopeless side has potential INF)
    if d > 16:
        d = 16
    elif d < -16:
        d = -16
    v = tanh(d / 4.0)
    return v if s.player == 0 else -v


cdef inline int _move_order(Hex s, int move) noexcept nogil:
    """2: answers a bridge intrusion; 1: makes a bridge to an own stone or edge; else 0."""
    cdef int last
    if move == SWAP:
        return 0
    if s.ply > 0:
        last = s.hist_move[s.ply - 1]
        if last != SWAP and s._is_reply(last, move):
            return 2
    if _makes_bridge(s.cell, s.n, move, s.player + 1):
        return 1
    return 0


cdef inline double _move_prior(Hex s, int move) noexcept nogil:
    if move == SWAP:
        return 0.5
    return 0.35 + 0.15 * _move_order(s, move) + 0.1 * s._centre(move)


cdef inline double _move_bias(Hex s, int move) noexcept nogil:
    if move == SWAP:
        return 0.5
    return 0.8 * _move_order(s, move) / 2.0 + 0.2 * s._centre(move)


cdef inline int _playout_move(Hex s, int policy, int* moves, int n, Rng* rng) noexcept nogil:
    cdef int m
    if policy == PP_IPP:
        m = _forced_move(s, moves, n, rng)
        if m >= 0:
            return m
    return moves[rng_below(rng, n)]


cdef inline int _forced_move(Hex s, int* moves, int n, Rng* rng) noexcept nogil:
    """The bridge reply to the opponent's last stone, or -1."""
    cdef int last
    if s.ply == 0:
        return -1
    last = s.hist_move[s.ply - 1]
    if last == SWAP:
        return -1
    return _bridge_reply(s.cell, s.n, last, s.player + 1, rng)


cdef inline int _threats(Hex s, int* out, int limit) noexcept nogil:
    """Empty cells where the opponent's stone would connect its edges at once."""
    cdef int c, k = 0, o = 1 - s.player
    for c in range(s.nc):
        if s.cell[c] == 0 and s._would_connect(c, o):
            out[k] = c
            k += 1
            if k >= limit:
                break
    return k


cdef inline int _policy_playout(Hex s, int policy, Rng* rng) noexcept nogil:
    """The bridge playout on local arrays: each stone answers a bridge intrusion by the
    previous one if there is one, else goes on a random empty cell; one test at the end."""
    cdef unsigned char b[NB_SIZE]
    if policy != PP_IPP:
        return -3
    if s.res != ONGOING:
        return s.res
    s._bridge_fill(b, rng)
    return 0 if _board_black_connected(b, s.n) else 1


cdef class HexKnowledge(Knowledge):
    """Hex's knowledge: the evaluation, the bridge playouts (Browne's slides) with their forced
    bridge replies, move order, bias and priors, and the threats the solver reads."""

    game = "hex"

    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        return _evaluate(<Hex>s, evalfn)

    cdef int move_order(self, GameState s, int move) noexcept nogil:
        return _move_order(<Hex>s, move)

    cdef double move_prior(self, GameState s, int move) noexcept nogil:
        return _move_prior(<Hex>s, move)

    cdef double move_bias(self, GameState s, int move) noexcept nogil:
        return _move_bias(<Hex>s, move)

    cdef int playout_move(self, GameState s, int policy, int* moves, int n,
                          Rng* rng) noexcept nogil:
        return _playout_move(<Hex>s, policy, moves, n, rng)

    cdef int forced_move(self, GameState s, int* moves, int n, Rng* rng) noexcept nogil:
        return _forced_move(<Hex>s, moves, n, rng)

    cdef int threats(self, GameState s, int* out, int limit) noexcept nogil:
        return _threats(<Hex>s, out, limit)

    cdef int policy_playout(self, GameState s, int policy, Rng* rng) noexcept nogil:
        return _policy_playout(<Hex>s, policy, rng)
