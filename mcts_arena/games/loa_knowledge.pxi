# loa.pyx's knowledge (included at its end): what a search knows of the game beyond its
# rules (state.pxd's Knowledge), as module functions over the position's fields and the
# Knowledge class that casts onto them.

cdef inline double _evaluate(LinesOfAction s, int evalfn) noexcept nogil:
    cdef int r = s.res
    if r != ONGOING:
        if r == DRAW:
            return 0.0
        return 1.0 if r == s.player else -1.0
    if evalfn == EF_LOA0:
        return tanh((s._concentration(1 - s.player)
                     - s._concentration(s.player)) / LOA0_SCALE)
    return tanh(wb_arg(s.wb_score()))


cdef inline int _features(LinesOfAction s, double* out) noexcept nogil:
    """FEATURES: efWB's features of the mover less the opponent's (mobility as its share)."""
    cdef double a[7]
    cdef double b[7]
    cdef unsigned int m = s._mobility2_both()
    cdef int shift = 16 * s.player, k
    s._features(s.player, (m >> shift) & 0xFFFF, a)
    s._features(1 - s.player, (m >> (16 - shift)) & 0xFFFF, b)
    out[0] = 1.0
    for k in range(7):
        out[1 + k] = a[k] - b[k]
    out[4] = (a[3] - b[3]) / (a[3] + b[3]) if a[3] + b[3] > 0 else 0.0
    out[8] = s.npieces[s.player] - s.npieces[1 - s.player]
    return 9


#: What `features` describes a position by (Knowledge.features): the tempo, then efWB's
#: features of the mover less the opponent's (concentration, centralisation, quads, mobility as
#: the mover's share less the opponent's, connectedness, uniformity, centre of mass), and pieces.
FEATURES = ("tempo", "concentration", "centralisation", "quads", "mobility", "connectedness",
            "uniformity", "com_position", "pieces")


cdef inline int _move_order(LinesOfAction s, int move) noexcept nogil:
    return CAT_W[s._category(move)]


cdef inline double _move_bias(LinesOfAction s, int move) noexcept nogil:
    return CAT_W[s._category(move)] / <double>W_MAX


cdef inline int _playout_move(LinesOfAction s, int policy, int* moves, int n,
                              Rng* rng) noexcept nogil:
    """`ipp`: a move drawn with probability proportional to its category weight."""
    cdef int weights[MAX_MOVES]
    cdef int i, w, total = 0
    if policy != PP_IPP:
        return moves[rng_below(rng, n)]
    for i in range(n):
        w = CAT_W[s._category(moves[i])]
        weights[i] = w
        total += w
    w = rng_below(rng, total)
    for i in range(n):
        w -= weights[i]
        if w < 0:
            return moves[i]
    return moves[n - 1]


cdef inline int _tactical_moves(LinesOfAction s, int* out) noexcept nogil:
    """The captures, in generation order: what the MIA-like αβ's quiescence extends."""
    cdef uint64_t opp = s.bb[1 - s.player]
    cdef int n = s.gen_moves(out), i, k = 0
    for i in range(n):
        if (opp >> mv_to(out[i])) & 1:
            out[k] = out[i]
            k += 1
    return k


cdef inline bint _do_null(LinesOfAction s) noexcept nogil:
    """A pass, where null-move pruning is sound enough: the game goes on, the side to move
    has more than NULL_MIN_PIECES pieces (zugzwang-like positions, where any move breaks a
    blockade, come with few pieces) and the opponent has a legal move (a side without one
    loses, which a pass must not bring about)."""
    cdef int p = s.player
    if s.res != ONGOING or s.npieces[p] <= NULL_MIN_PIECES:
        return False
    if not any_move(s.bb[1 - p], s.bb[p], s.cnt):
        return False
    s.player = 1 - p
    s.hash ^= ZOB_SIDE
    return True


cdef inline void _undo_null(LinesOfAction s) noexcept nogil:
    s.player = 1 - s.player
    s.hash ^= ZOB_SIDE


cdef inline bint _evaluate_tanh_arg(LinesOfAction s, int evalfn, double* x) noexcept nogil:
    """evaluate's argument of tanh for an ongoing position (both evaluations are tanh of
    a score): the 2-ply αβ playout takes tanh of the few leaves that can change its value."""
    if s.res != ONGOING:
        return False
    if evalfn == EF_LOA0:
        x[0] = (s._concentration(1 - s.player)
                - s._concentration(s.player)) / LOA0_SCALE
    else:
        x[0] = wb_arg(s.wb_score())
    return True


cdef inline Leaf _leaf_after(Knowledge k, LinesOfAction s, int move, int evalfn) noexcept nogil:
    """Knowledge.leaf_after (k's); for efWB in an ongoing position without playing the move
    (wb_leaf_after: a 2-ply αβ playout's leaves are most of its work)."""
    if evalfn == EF_LOA0 or s.res != ONGOING:
        return Knowledge.leaf_after(k, s, move, evalfn)
    return wb_leaf_after(k, s, move, evalfn)


cdef inline int _select_best(Knowledge k, LinesOfAction s, int* moves, int n,
                             int width) noexcept nogil:
    """Knowledge.select_best (k's) by counting ranks (select_by_rank)."""
    return select_by_rank(k, s, moves, n, width)


cdef inline int _is_among_best(LinesOfAction s, int move, int width) noexcept nogil:
    """Knowledge.is_among_best, at once where the reply base tells (among_best)."""
    return among_best(s, move, width)


cdef inline int _ordered_moves(LinesOfAction s, int* out, int width) noexcept nogil:
    """gen_moves, move_order and keep_best fused (ordered_full); after a move that captured
    nothing, from the reply base of the position before it (ordered_shared)."""
    cdef Undo* u
    cdef ReplyBase* rb
    if s.ply > 0:
        u = &(<Undo*>s.hist.data)[s.ply - 1]
        if not u.captured:
            rb = reply_base(s, u.move)
            if rb != NULL:
                return ordered_shared(s, out, width, u.move, rb)
    return ordered_full(s, out, width)


cdef class LoaKnowledge(Knowledge):
    """LOA's knowledge (MIA's, Winands): the evaluations efWB and efLOA0, the move categories
    as order, bias and `ipp` weights, the selective αβ playout's fast paths (loa_abp.pxi),
    and the captures and null move of the MIA-like αβ."""

    game = "loa"
    feature_names = FEATURES

    cdef double evaluate(self, GameState s, int evalfn) noexcept nogil:
        return _evaluate(<LinesOfAction>s, evalfn)

    cdef int features(self, GameState s, double* out) noexcept nogil:
        return _features(<LinesOfAction>s, out)

    cdef int move_order(self, GameState s, int move) noexcept nogil:
        return _move_order(<LinesOfAction>s, move)

    cdef double move_bias(self, GameState s, int move) noexcept nogil:
        return _move_bias(<LinesOfAction>s, move)

    cdef int playout_move(self, GameState s, int policy, int* moves, int n,
                          Rng* rng) noexcept nogil:
        return _playout_move(<LinesOfAction>s, policy, moves, n, rng)

    cdef int tactical_moves(self, GameState s, int* out) noexcept nogil:
        return _tactical_moves(<LinesOfAction>s, out)

    cdef bint do_null(self, GameState s) noexcept nogil:
        return _do_null(<LinesOfAction>s)

    cdef void undo_null(self, GameState s) noexcept nogil:
        _undo_null(<LinesOfAction>s)

    cdef bint evaluate_tanh_arg(self, GameState s, int evalfn, double* x) noexcept nogil:
        return _evaluate_tanh_arg(<LinesOfAction>s, evalfn, x)

    cdef Leaf leaf_after(self, GameState s, int move, int evalfn) noexcept nogil:
        return _leaf_after(self, <LinesOfAction>s, move, evalfn)

    cdef int select_best(self, GameState s, int* moves, int n, int width) noexcept nogil:
        return _select_best(self, <LinesOfAction>s, moves, n, width)

    cdef int is_among_best(self, GameState s, int move, int width) noexcept nogil:
        return _is_among_best(<LinesOfAction>s, move, width)

    cdef int ordered_moves(self, GameState s, int* out, int width) noexcept nogil:
        return _ordered_moves(<LinesOfAction>s, out, width)
