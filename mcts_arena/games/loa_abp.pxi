# The αβ playouts' fast paths of Lines of Action, included by loa.pyx after the class: the
# moves by category rank without keys (select_best, ordered_moves), the replies shared between
# siblings (ReplyBase), is_among_best's early answers, and a leaf's result and efWB argument
# without playing the move (leaf_after). Each gives GameState's default answer to the last bit
# (tests/test_game_conformance.py checks them against it).
#
# The replies shared between siblings: a 2-ply αβ playout generates and orders the
# opponent's replies after each of its 8 first moves, and a first move that captures nothing
# changes those replies only along the lines through its two squares (their counts, what blocks,
# what can be captured there); the opponent's pieces, and so its centre of mass and every other
# reply's category, stay. A ReplyBase holds one side's moves in a position (the parent of the
# siblings), ordered as ordered_moves orders them (by key: the category rank above the
# generation position, so the order is rank first, then generation order), with each move's
# line; a child then regenerates only the replies along the changed lines and merges them in.
# One slot per parent ply (RSLOTS of them), so the nodes of a deeper search keep theirs.


cdef inline int keep_by_rank(const int* mv, const unsigned char* rk, int n, const int* cntr,
                             uint64_t present, int width, int* out) noexcept nogil:
    """out[0:cap] := the `width` best of mv[0:n] (all when width <= 0) by rank rk (higher first),
    equal ranks in the order given: what a stable sort by rank cut to `width` keeps (cntr[r]:
    how many have rank r; present: bit r set for each rank there). The ranks present, from the
    highest, give where each one's moves start, down to the cut-off rank `top`, of which only
    the first `need` are kept; one pass then writes each kept move in its place, the others
    to a spare slot, without a data-dependent branch. Returns cap."""
    cdef int res[MAX_MOVES + 1]
    cdef int start[32]
    cdef int cap = width if 0 < width < n else n
    cdef int pos = 0, top = 0, need = 0, r, i, keep
    cdef uint64_t bits = present
    memset(start, 0, sizeof(start))
    while bits:
        r = msb(bits)
        bits ^= (<uint64_t>1) << r
        start[r] = pos
        if pos + cntr[r] >= cap:
            top = r
            need = cap - pos
            break
        pos += cntr[r]
    for i in range(n):
        r = rk[i]
        keep = <int>(r > top) | (<int>(r == top) & <int>(need > 0))
        # the index by arithmetic: GCC compiles a conditional expression here to a branch
        res[MAX_MOVES + ((start[r] - MAX_MOVES) & -keep)] = mv[i]
        start[r] += keep
        need -= keep & <int>(r == top)
    memcpy(out, res, cap * sizeof(int))
    return cap


cdef int select_by_rank(Knowledge k, LinesOfAction s, int* moves, int n,
                        int width) noexcept nogil:
    """Knowledge.select_best (k's) by counting the moves' weight ranks (as ordered_full): the same
    moves in the same order, without keys or an insertion sort."""
    cdef int tmp[MAX_MOVES]
    cdef unsigned char rk[MAX_MOVES]
    cdef int cntr[32]
    cdef int rd[8]
    cdef int cd[8]
    cdef int p = s.player
    cdef uint64_t opp = s.bb[1 - p], present = 0
    cdef int i, m, fr, to, r
    if n > MAX_MOVES:
        return Knowledge.select_best(k, s, moves, n, width)
    memset(cntr, 0, sizeof(cntr))
    com_distances(s.npieces[p], s.sumr[p], s.sumc[p], rd, cd)
    for i in range(n):
        m = moves[i]
        tmp[i] = m
        fr = mv_from(m)
        to = mv_to(m)
        r = category_rank(opp, fr, to, com_distance(rd, cd, fr), com_distance(rd, cd, to))
        rk[i] = <unsigned char>r
        cntr[r] += 1
        present |= (<uint64_t>1) << r
    return keep_by_rank(tmp, rk, n, cntr, present, width, moves)


cdef inline int ranked_moves(LinesOfAction s, int* rd, int* cd, int* gm, unsigned char* rk,
                             short* gp, int* cntr, uint64_t* present) noexcept nogil:
    """The side to move's moves in generation order (gm), each with its category's weight
    rank (rk, counted in cntr and marked in *present) and, unless gp is NULL, its
    generation position (gp: 8 * square + direction); rd, cd := the centre-of-mass
    distances of the rows and columns (com_distances). Without a data-dependent branch
    per move (the branchy form cost more in a search, where each call meets a new
    position, than its count of instructions says). Returns how many."""
    cdef int p = s.player
    cdef uint64_t x = s.bb[p], opp = s.bb[1 - p], marks = 0, bits
    cdef uint64_t w[2]
    cdef int n = 0, sq, d, to, r, i = 0, h, b
    cdef int psq[16]
    cdef int pd0[16]
    cdef unsigned char pk[16][4]
    memset(cntr, 0, 32 * sizeof(int))
    com_distances(s.npieces[p], s.sumr[p], s.sumc[p], rd, cd)
    # first each piece's square, distance, line counts and legal directions (8 bits a
    # piece, pieces 0-7 in w[0], 8-11 in w[1]), then one loop over all the moves: a loop
    # per piece ends at a count of moves no predictor knows, once a piece
    w[0] = 0
    w[1] = 0
    while x:
        sq = lsb(x)
        x &= x - 1
        psq[i] = sq
        pd0[i] = com_distance(rd, cd, sq)
        pk[i][0] = s.cnt[LINE[sq][0]]
        pk[i][1] = s.cnt[LINE[sq][1]]
        pk[i][2] = s.cnt[LINE[sq][2]]
        pk[i][3] = s.cnt[LINE[sq][3]]
        w[i >> 3] |= (<uint64_t>s._dirs(sq)) << (8 * (i & 7))
        i += 1
    for h in range(2):
        bits = w[h]
        while bits:
            b = lsb(bits)
            bits &= bits - 1
            i = 8 * h + (b >> 3)
            d = b & 7
            sq = psq[i]
            to = TGT[sq][d][pk[i][d >> 1]]
            r = category_rank(opp, sq, to, pd0[i], com_distance(rd, cd, to))
            rk[n] = <unsigned char>r
            cntr[r] += 1
            marks |= (<uint64_t>1) << r
            gm[n] = sq | (to << 6)
            if gp != NULL:          # (a constant where this is inlined)
                gp[n] = <short>(sq * 8 + d)
            n += 1
    present[0] = marks
    return n


cdef void build_base(LinesOfAction s, ReplyBase* rb) noexcept nogil:
    """rb := the moves of the side to move, all of them, ordered as ordered_full orders them
    (by rank, then generation order: a counting sort), each with its key and line."""
    cdef int gm[104]
    cdef unsigned char rk[104]
    cdef short gp[104]
    cdef int cntr[32]
    cdef int start[32]
    cdef uint64_t present, bits
    cdef int n, i, r, pos, g
    n = ranked_moves(s, rb.rd, rb.cd, gm, rk, gp, cntr, &present)
    pos = 0
    bits = present
    while bits:
        r = msb(bits)
        bits ^= (<uint64_t>1) << r
        start[r] = pos
        pos += cntr[r]
    for i in range(n):
        r = rk[i]
        g = gp[i]
        pos = start[r]
        start[r] = pos + 1
        rb.mv[pos] = gm[i]
        rb.key[pos] = (r << 9) | (511 - g)
        rb.ln[pos] = <unsigned char>LINE[g >> 3][(g & 7) >> 1]
        rb.index[gm[i]] = <unsigned char>pos
    rb.n = n
    rb.side = s.player
    rb.bb[0] = s.bb[0]
    rb.bb[1] = s.bb[1]


cdef ReplyBase* reply_base(LinesOfAction s, int last) noexcept nogil:
    """The reply base of the position before the non-capturing move `last` (the side to move's
    moves there), built when its slot holds another position: the move's lines are put back
    as they were for the while. NULL when there is no memory for the slots (they are
    allocated at the first use)."""
    cdef int p = s.player, a = 1 - p
    cdef int fr = mv_from(last), to = mv_to(last)
    cdef uint64_t frto = ((<uint64_t>1) << fr) | ((<uint64_t>1) << to)
    cdef ReplyBase* rb
    if s.rbase == NULL:
        s.rbase = <ReplyBase*>calloc(RSLOTS, sizeof(ReplyBase))
        if s.rbase == NULL:
            return NULL
    rb = &s.rbase[(s.ply - 1) & (RSLOTS - 1)]
    if rb.side != p or rb.bb[p] != s.bb[p] or rb.bb[a] != (s.bb[a] ^ frto):
        # the parent: the mover's piece back on fr (the side to move has not changed)
        s.bb[a] ^= frto
        s._lines(to, -1)
        s._patterns(to, -(a + 1))
        s._lines(fr, 1)
        s._patterns(fr, a + 1)
        build_base(s, rb)
        s._patterns(fr, -(a + 1))
        s._lines(fr, -1)
        s._patterns(to, a + 1)
        s._lines(to, 1)
        s.bb[a] ^= frto
    return rb


cdef int among_best(LinesOfAction s, int move, int width) noexcept nogil:
    """Knowledge.is_among_best after a move that captured nothing, at once where the answer is
    plain from the reply base: a move along a line the last move left alone is legal here as
    it was there (and has the same key), and it is among the `width` best when fewer than
    `width` moves can be above it: the base's above it (its place there) plus every move along
    the changed lines. Otherwise -1."""
    cdef Undo* u
    cdef ReplyBase* rb
    cdef int p = s.player, kf = mv_from(move), kt = mv_to(move), line, idx, k, last
    cdef uint64_t changed, lines
    cdef int above
    if s.ply == 0 or move < 0 or move >= 4096:
        return -1
    u = &(<Undo*>s.hist.data)[s.ply - 1]
    if u.captured:
        return -1
    last = u.move
    changed = LMASK[mv_from(last)] | LMASK[mv_to(last)]
    line = LINE[kf][MOVE_LT[kf][kt]]
    if (changed >> line) & 1:
        return -1
    rb = reply_base(s, last)
    if rb == NULL:
        return -1
    idx = rb.index[move]
    if idx >= rb.n or rb.mv[idx] != move:
        return 0 if line == LINE[kt][MOVE_LT[kf][kt]] and kf != kt else -1
    if width <= 0:
        return 1
    above = idx
    if above >= width:
        return -1
    lines = changed
    while lines:
        k = lsb(lines)
        lines &= lines - 1
        above += popcount(MOVES_OF[p][s.lidx[k]])
    return 1 if above < width else -1


cdef inline int merge_replies(const int* um, const int* uk, int nn, ReplyBase* rb,
                              uint64_t changed, int width, int* out) noexcept nogil:
    """ordered_shared's merge: the nn regenerated replies um with their keys uk, and the reply
    base rb's replies along the lines not in `changed`, merged by key into out (at most
    `width`, 0 = all). Returns the moves written."""
    cdef int nm[104]
    cdef int nk[104]
    cdef int bm[104]
    cdef int bk[104]
    cdef int k, j, i, o, lim, c, take
    # The regenerated replies in order of key (keys are distinct: a key holds the generation
    # position), each one's place counted; then the parent's replies along unchanged lines,
    # as many as can be kept; then the two merged. Without data-dependent branches: a few
    # moves each time, in an order no predictor learns.
    for i in range(nn):
        k = 0
        for j in range(nn):
            k += uk[j] > uk[i]
        nk[k] = uk[i]
        nm[k] = um[i]
    nk[nn] = -1
    lim = width if width > 0 else 1 << 30
    c = 0
    i = 0
    while c < lim and i < rb.n:
        bk[c] = rb.key[i]
        bm[c] = rb.mv[i]
        c += 1 - <int>((changed >> rb.ln[i]) & 1)
        i += 1
    bk[c] = -1
    o = c + nn
    if o > lim:
        o = lim
    i = 0
    j = 0
    for k in range(o):
        take = bk[i] > nk[j]
        # a select by arithmetic: GCC turns the conditional expression into a branch
        out[k] = nm[j] ^ ((bm[i] ^ nm[j]) & -take)
        i += take
        j += 1 - take
    return o


cdef int ordered_shared(LinesOfAction s, int* out, int width, int last,
                        ReplyBase* rb) noexcept nogil:
    """ordered_full's answer after the non-capturing move `last`: the parent's reply base rb
    (reply_base) with the replies along the move's lines regenerated and merged in by key.
    Exact: a reply along another line has the same target, the same blocking and the same
    capture bit as in the parent, and the mover's centre of mass is the same."""
    cdef int um[104]
    cdef int uk[104]
    cdef int p = s.player, a = 1 - p
    cdef int fr = mv_from(last), to = mv_to(last)
    cdef uint64_t opp = s.bb[a], changed = LMASK[fr] | LMASK[to], lines, w0, w1, bits
    cdef int nn = 0, line, t, sq, b, d, tgt, k, half
    cdef int ids[8]
    # the replies along the changed lines, in this position: the side's move bits of the
    # 7 lines side by side in two words (16 bits a line), then one pass over the moves
    lines = changed
    w0 = 0
    w1 = 0
    k = 0
    while lines:
        line = lsb(lines)
        lines &= lines - 1
        ids[k] = line
        if k < 4:
            w0 |= (<uint64_t>MOVES_OF[p][s.lidx[line]]) << (16 * k)
        else:
            w1 |= (<uint64_t>MOVES_OF[p][s.lidx[line]]) << (16 * (k - 4))
        k += 1
    for half in range(2):
        bits = w0 if half == 0 else w1
        while bits:
            b = lsb(bits)
            bits &= bits - 1
            line = ids[4 * half + (b >> 4)]
            t = LTYPE[line]
            sq = LPOS[line][(b & 15) >> 1]
            # MOVET's bit 0 goes toward higher positions: E, N, NE, but SE on the
            # anti-diagonal (positions count columns there)
            d = 2 * t + ((b & 1) ^ <int>(t == 3))
            tgt = TGT[sq][d][s.cnt[line]]
            uk[nn] = (category_rank(opp, sq, tgt, com_distance(rb.rd, rb.cd, sq),
                                    com_distance(rb.rd, rb.cd, tgt)) << 9) \
                | (511 - (sq * 8 + d))
            um[nn] = sq | (tgt << 6)
            nn += 1
    return merge_replies(um, uk, nn, rb, changed, width, out)


cdef int ordered_full(LinesOfAction s, int* out, int width) noexcept nogil:
    """gen_moves, move_order and keep_best fused (the same moves in the same order): the
    moves with their weight ranks (ranked_moves), the `width` best picked by counting ranks
    (keep_by_rank), not by insertion (whose data-dependent branches were 40% of this call)."""
    cdef int gm[104]
    cdef unsigned char rk[104]
    cdef int cntr[32]
    cdef int rd[8]
    cdef int cd[8]
    cdef uint64_t present
    cdef int n = ranked_moves(s, rd, cd, gm, rk, NULL, cntr, &present)
    return keep_by_rank(gm, rk, n, cntr, present, width, out)


# ---- a leaf without playing its move: leaf_after's steps, in do_move's order of the checks ----

cdef inline bint is_one_group(SideFeatures* e, uint64_t b) noexcept nogil:
    """Are the pieces b (e: their cache entry) one group? The flood fill once per entry."""
    if e.connected < 0:
        e.connected = connected(b)
    return e.connected


cdef inline bint repeats_after(LinesOfAction s, int p, int fr, int to) noexcept nogil:
    """Does p's non-capturing move fr-to reach a position seen before with the same side to
    move (do_move's _repeated, from the hash after the move; a capture starts a new window,
    so it never repeats)?"""
    cdef uint64_t h = s.hash ^ ZOB[p][fr] ^ ZOB[p][to] ^ ZOB_SIDE
    cdef int j = s.ply - 3
    if j >= s.irrev and not ((<Undo*>s.hist.data)[j].seen >> (h >> 58)) & 1:
        return False            # no earlier position of this parity has h's top bits
    while j >= s.irrev:
        if (<Undo*>s.hist.data)[j].hash == h:
            return True
        j -= 2
    return False


cdef inline unsigned int mobility_after(LinesOfAction s, int p, int fr, int to,
                                        bint cap) noexcept nogil:
    """Both sides' weighted mobility x2 (as _mobility2_both) after p's move fr-to: this
    position's (kept for its next leaves) with the 7 lines through fr and to as they are
    after the move. The piece leaves fr (digit p+1 off) and lands on to (p+1 on, over the
    opponent's digit on a capture); the move's own line (type t0) has both changes."""
    cdef int o = 1 - p, t0 = MOVE_LT[fr][to], dt = (p - o) if cap else p + 1, t, k, j, own
    cdef unsigned int before = 0, after = 0
    if s.mob_key[0] != s.bb[0] or s.mob_key[1] != s.bb[1]:
        s.mob_key[0] = s.bb[0]
        s.mob_key[1] = s.bb[1]
        s.mob_val = s._mobility2_both()
    for t in range(4):
        # without a branch on t == t0 (the move's line type, a new one each leaf): there
        # to's line is fr's, counted once with both changes
        own = -<int>(t == t0)
        k = s.lidx[LINE[fr][t]]
        j = s.lidx[LINE[to][t]]
        before += MOBT[k] + (MOBT[j] & ~<unsigned int>own)
        after += (MOBT[k - (p + 1) * LD[fr][t] + (dt * LD[to][t] & own)]
                  + (MOBT[j + dt * LD[to][t]] & ~<unsigned int>own))
    return s.mob_val - before + after


cdef Leaf wb_leaf_after(Knowledge k, LinesOfAction s, int move, int evalfn) noexcept nogil:
    """Knowledge.leaf_after (k's) for efWB in an ongoing position, without playing the move: the
    rules' checks in do_move's order on the pieces after it (the mover connected, a capture
    connecting the opponent, a repetition, the opponent without a move), then the efWB
    argument from the sides' cache entries and mobility_after."""
    cdef Leaf leaf
    cdef int p = s.player, o = 1 - p, fr = mv_from(move), to = mv_to(move)
    cdef uint64_t tob = (<uint64_t>1) << to
    cdef uint64_t bp = s.bb[p] ^ (((<uint64_t>1) << fr) | tob), bo = s.bb[o]
    cdef bint cap = (bo & tob) != 0
    cdef unsigned int mob
    cdef SideFeatures* e = s._side(bp)
    cdef double a[7]
    cdef double b[7]
    if e == NULL:
        return Knowledge.leaf_after(k, s, move, evalfn)
    leaf.player = o
    leaf.is_arg = False
    leaf.x = 0.0
    if is_one_group(e, bp):
        leaf.res = p
        return leaf
    features_in_order(e.f, b)   # copied now: the opponent's entry may take this slot
    if cap:
        bo ^= tob
        if is_one_group(s._side(bo), bo):
            leaf.res = o
            return leaf
    elif repeats_after(s, p, fr, to):
        leaf.res = DRAW
        return leaf
    mob = mobility_after(s, p, fr, to, cap)
    if (mob >> (16 * o)) & 0xFFFF == 0:
        # no legal move for the opponent (every legal move has a positive weight)
        leaf.res = p
        return leaf
    features_in_order(s._side(bo).f, a)
    a[3] = ((mob >> (16 * o)) & 0xFFFF) / 2.0
    b[3] = ((mob >> (16 * p)) & 0xFFFF) / 2.0
    leaf.res = ONGOING
    leaf.is_arg = True
    leaf.x = wb_arg(wb_combine(a, b))
    return leaf
