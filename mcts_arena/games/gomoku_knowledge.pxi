# gomoku.pyx's knowledge (included at its end): what a search knows of the game beyond its
# rules (state.pxd's Knowledge), as module functions over the position's fields and the
# Knowledge class that casts onto them.

cdef inline double _evaluate(Gomoku s, int evalfn) noexcept nogil:
    cdef int r = s.res, me = s.player
    if r != ONGOING:
        return 0.0 if r == DRAW else (1.0 if r == me else -1.0)
    return _value(s.n4[me], s.n4[1 - me], s.score[me], s.score[1 - me])


cdef inline int _search_moves(Gomoku s, int* out) noexcept nogil:
    """The empty cells near a stone (see `near`); every empty cell when near = 0 or when no
    empty cell is near a stone (the empty board)."""
    cdef int c, k = 0
    if s.near == 0 or s.nstones == 0:
        return s.gen_moves(out)
    for c in range(s.nc):
        if s.cell[c] == 0 and s.nearcnt[c] > 0:
            out[k] = c
            k += 1
    if k == 0:
        return s.gen_moves(out)
    return k


cdef inline int _move_order(Gomoku s, int move) noexcept nogil:
    cdef int j, w, cp, co, p = s.player, o = 1 - p, fours = 0, e, k
    cdef bint block3 = False, three = False, block5 = False
    cdef unsigned short* ws = CW[s.n][move]
    cdef unsigned short* cells
    cdef int partner = -1
    if s.is_decisive(move):
        return 6
    for j in range(CWN[s.n][move]):
        w = ws[j]
        cp = s.wcnt[p][w]
        co = s.wcnt[o][w]
        if co == 0:
            if cp == 3:
                # this stone makes a four-window; its empty cell is a five-point
                cells = WC[s.n][w]
                for k in range(5):
                    e = cells[k]
                    if e != move and s.cell[e] == 0:
                        break
                if partner < 0:
                    partner = e
                    fours = 1
                elif e != partner:
                    fours = 2
            elif cp == 2:
                three = True
        elif cp == 0:
            if co == 4:
                block5 = True
            elif co == 3:
                block3 = True
    if block5:
        return 5
    if fours >= 2:
        return 4
    if fours == 1:
        return 3
    if block3:
        return 2
    if three:
        return 1
    return 0


cdef inline double _move_prior(Gomoku s, int move) noexcept nogil:
    return 1.0 / (1.0 + exp(-3.0 * _eval_after(s, move, EF_DEFAULT)))


cdef inline double _move_bias(Gomoku s, int move) noexcept nogil:
    cdef double score = <double>s._point_score(move, s.player)
    return score / (score + 100.0)


cdef inline int _playout_move(Gomoku s, int policy, int* moves, int n, Rng* rng) noexcept nogil:
    """`ipp` (heavy): the urgent move, else random near the stones; else uniform."""
    cdef int m
    if policy == PP_IPP:
        m = s._urgent(rng)
        if m >= 0:
            return m
        m = s._near_random(rng)
        if m >= 0:
            return m
    return moves[rng_below(rng, n)]


cdef inline int _forced_move(Gomoku s, int* moves, int n, Rng* rng) noexcept nogil:
    return s._urgent(rng) if s.res == ONGOING else -1


cdef inline int _threats(Gomoku s, int* out, int limit) noexcept nogil:
    """The opponent's five-points (cells where its stone would win at once)."""
    return s._five_points(1 - s.player, out, limit)


cdef inline int _policy_playout(Gomoku s, int policy, Rng* rng) noexcept nogil:
    """The heavy playout (urgent move, else random near the stones), move by move on this
    state (windows and counters kept by do/undo), restored afterwards."""
    cdef int depth = 0, m, res
    if policy != PP_IPP:
        return -3
    res = s.res
    while res == ONGOING:
        m = s._urgent(rng)
        if m < 0:
            m = s._near_random(rng)
        s.do_move(m)
        depth += 1
        res = s.res
    while depth > 0:
        s.undo_move()
        depth -= 1
    return res


cdef inline double _eval_after(Gomoku s, int move, int evalfn) noexcept nogil:
    """evaluate() of the position after `move`, from the mover's view, without playing it:
    the 20 windows through the cell give the new sums and four counts (node priors call
    this for every new child)."""
    cdef int p = s.player, o = 1 - p, j, w, cp, co, n4p = s.n4[p], n4o = s.n4[o]
    cdef long long sp = s.score[p], so = s.score[o]
    cdef unsigned short* ws = CW[s.n][move]
    if s.is_decisive(move):
        return 1.0
    if s.nstones + 1 == s.nc:
        return 0.0
    for j in range(CWN[s.n][move]):
        w = ws[j]
        cp = s.wcnt[p][w]
        co = s.wcnt[o][w]
        if co == 0:
            sp += T[cp + 1] - T[cp]
            if cp == 3:
                n4p += 1
            elif cp == 4:
                n4p -= 1
        elif cp == 0:
            so -= T[co]
            if co == 4:
                n4o -= 1
    # the opponent is to move after the move: evaluate()'s value from its side, negated
    return -_value(n4o, n4p, so, sp)


cdef class GomokuKnowledge(Knowledge):
    """Gomoku's knowledge (the Gomoku report): the search moves near the stones, the pattern
    evaluation, point-score order, bias and priors, the heavy playout and its urgent moves,
    and the five-point threats the solver reads."""

    game = "gomoku"

    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        return _evaluate(<Gomoku>s, evalfn)

    cdef int search_moves(self, GameState s, int* out) noexcept nogil:
        return _search_moves(<Gomoku>s, out)

    cdef int move_order(self, GameState s, int move) noexcept nogil:
        return _move_order(<Gomoku>s, move)

    cdef double move_prior(self, GameState s, int move) noexcept nogil:
        return _move_prior(<Gomoku>s, move)

    cdef double move_bias(self, GameState s, int move) noexcept nogil:
        return _move_bias(<Gomoku>s, move)

    cdef int playout_move(self, GameState s, int policy, int* moves, int n,
                          Rng* rng) noexcept nogil:
        return _playout_move(<Gomoku>s, policy, moves, n, rng)

    cdef int forced_move(self, GameState s, int* moves, int n, Rng* rng) noexcept nogil:
        return _forced_move(<Gomoku>s, moves, n, rng)

    cdef int threats(self, GameState s, int* out, int limit) noexcept nogil:
        return _threats(<Gomoku>s, out, limit)

    cdef int policy_playout(self, GameState s, int policy, Rng* rng) noexcept nogil:
        return _policy_playout(<Gomoku>s, policy, rng)

    cdef double eval_after(self, GameState s, int move, int evalfn) noexcept nogil:
        return _eval_after(<Gomoku>s, move, evalfn)
