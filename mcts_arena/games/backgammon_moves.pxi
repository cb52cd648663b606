# backgammon.pyx's move generation on a board (included in place): shared by gen_moves and
# the fast playout.

#
# Point sets are bit masks in the mover's numbering (bit q = point q, 25 the bar): the mover's
# occupied points, the points the other side holds with two or more checkers (closed) and its
# blots. Which checkers may move with a number is then a few mask operations, not a scan.

cdef struct Gen:
    unsigned char* me       # the mover's counts, own numbering
    unsigned char* op       # the other side's counts, its numbering (my point t is its 25 - t)
    int p                   # the mover (its Zobrist keys)
    unsigned int occ        # the mover's occupied points (bits 1-25)
    unsigned int blk        # points closed to the mover (bits 1-24)
    unsigned int blt        # the other side's blots (bits 1-24)
    uint64_t key            # the board as sum over points of count x a random key (mod 2^64),
                            # from the start of the turn: two adds per checker moved
    int* out                # turns found (ids)
    int n
    int maxlen              # most dice a turn found so far uses
    int die                 # a double's number
    int src[4]              # a double's checker points so far
    uint64_t* seen_key      # dedup of a non-double's turns
    int* seen_stamp
    int stamp


cdef inline void gen_init(Gen* g, unsigned char* me, unsigned char* op, int p) noexcept nogil:
    cdef int q
    cdef unsigned int occ = 0, blk = 0, blt = 0
    for q in range(1, NPT):
        occ |= (<unsigned int>(me[q] != 0)) << q
    for q in range(1, 25):
        blk |= (<unsigned int>(op[25 - q] >= 2)) << q
        blt |= (<unsigned int>(op[25 - q] == 1)) << q
    g.me = me
    g.op = op
    g.p = p
    g.occ = occ
    g.blk = blk
    g.blt = blt
    g.key = 0


cdef inline unsigned int movable(const Gen* g, int d) noexcept nogil:
    """The points a checker of the mover may move from with number d: from the bar only while
    a checker is there; to an open point; bearing off (all checkers home) with the exact
    number, or with a larger one from the highest point."""
    cdef unsigned int occ = g.occ, m
    if occ == 0:
        return 0                        # every checker is off (the turn's last moves won)
    if occ >> BAR:
        return (1u << BAR) if not (g.blk >> (25 - d)) & 1 else 0
    m = occ & ~(g.blk << d) & ~((2u << d) - 1)
    if occ < 128:                       # no checker above the 6-point: bearing off
        if (occ >> d) & 1:
            m |= 1u << d
        elif (occ >> d) == 0:
            m |= 1u << msb(occ)
    return m


cdef inline bint apply_step(Gen* g, int s, int d) noexcept nogil:
    """Move a checker of the mover from s by d (off below point 1), hitting a blot where it
    lands; returns the hit. The masks and g.key follow the counts."""
    cdef unsigned char* me = g.me
    cdef int t = s - d
    me[s] -= 1
    if me[s] == 0:
        g.occ &= ~(1u << s)
    if t < 1:
        me[OFF] += 1
        g.key += RMOVE[OFF] - RMOVE[s]
        return False
    me[t] += 1
    g.occ |= 1u << t
    g.key += RMOVE[t] - RMOVE[s]
    if (g.blt >> t) & 1:
        g.op[25 - t] = 0
        g.op[BAR] += 1
        g.blt &= ~(1u << t)
        g.key += RHIT[t]
        return True
    return False


cdef inline void undo_step(Gen* g, int s, int d, bint hit) noexcept nogil:
    cdef unsigned char* me = g.me
    cdef int t = s - d
    if t < 1:
        me[OFF] -= 1
        g.key -= RMOVE[OFF] - RMOVE[s]
    else:
        if hit:
            g.op[BAR] -= 1
            g.op[25 - t] = 1
            g.blt |= 1u << t
            g.key -= RHIT[t]
        me[t] -= 1
        if me[t] == 0:
            g.occ &= ~(1u << t)
        g.key -= RMOVE[t] - RMOVE[s]
    me[s] += 1
    g.occ |= 1u << s


cdef inline bint seen_add(Gen* g, uint64_t key) noexcept nogil:
    """Insert key into the turn's dedup table; False when it was there already."""
    cdef int i = <int>(key >> 54) & (SEEN - 1)
    while g.seen_stamp[i] == g.stamp:
        if g.seen_key[i] == key:
            return False
        i = (i + 1) & (SEEN - 1)
    g.seen_stamp[i] = g.stamp
    g.seen_key[i] = key
    return True


cdef void gen_double(Gen* g, int depth, int top) noexcept nogil:
    """Depth-first over a double's moves, checker points never increasing (every turn once:
    the points moved from fix the position reached). Keeps the longest turns only."""
    cdef int s, k
    cdef bint hit
    cdef unsigned int m
    if depth < 4:
        m = movable(g, g.die) & ((2u << top) - 1)
        if m:
            while m:
                s = msb(m)
                m &= ~(1u << s)
                hit = apply_step(g, s, g.die)
                g.src[depth] = s
                gen_double(g, depth + 1, s)
                undo_step(g, s, g.die, hit)
            return
    if depth < g.maxlen:
        return
    if depth > g.maxlen:
        g.maxlen = depth
        g.n = 0
    k = 0
    if depth > 0:
        k = g.src[0] | (g.die << 5)
    if depth > 1:
        k |= (g.src[1] << 8) | (g.die << 13)
    if depth > 2:
        k |= g.src[2] << 16
    if depth > 3:
        k |= g.src[3] << 21
    g.out[g.n] = k
    g.n += 1


cdef void gen_pair(Gen* g, int a, int b) noexcept nogil:
    """Two different numbers a > b: every distinct position using both dice (either order);
    else the larger number alone where it can move, else the smaller."""
    cdef int order, x, y, s1, s2
    cdef unsigned int m1, m2, single_a = 0, single_b = 0
    cdef bint h1, h2
    g.stamp += 1
    g.n = 0
    for order in range(2):
        x = a if order == 0 else b
        y = b if order == 0 else a
        m1 = movable(g, x)
        while m1:
            s1 = msb(m1)
            m1 &= ~(1u << s1)
            h1 = apply_step(g, s1, x)
            m2 = movable(g, y)
            if m2 == 0:
                if order == 0:
                    single_a |= 1u << s1
                else:
                    single_b |= 1u << s1
            while m2:
                s2 = msb(m2)
                m2 &= ~(1u << s2)
                h2 = apply_step(g, s2, y)
                if seen_add(g, g.key):
                    g.out[g.n] = s1 | (x << 5) | (s2 << 8) | (y << 13)
                    g.n += 1
                undo_step(g, s2, y, h2)
            undo_step(g, s1, x, h1)
    if g.n > 0:
        g.maxlen = 2
        return
    # at most one die can be used: the larger where it can be
    if single_a == 0:
        single_a = single_b
        a = b
    g.maxlen = 1 if single_a else 0
    while single_a:
        s1 = msb(single_a)
        single_a &= ~(1u << s1)
        g.out[g.n] = s1 | (a << 5)
        g.n += 1
    if g.n == 0:
        g.out[0] = 0        # pass
        g.n = 1


cdef int gen_turns(unsigned char* me, unsigned char* op, int p, int d0, int d1, int* out,
                   uint64_t* seen_key, int* seen_stamp, int* stamp) noexcept nogil:
    """The distinct turns of the mover (counts me, the other side's op) with dice d0 >= d1
    into out; returns their number (a pass is one turn)."""
    cdef Gen g
    gen_init(&g, me, op, p)
    g.out = out
    g.n = 0
    g.maxlen = 0
    if d0 == d1:
        g.die = d0
        gen_double(&g, 0, BAR)
        if g.maxlen == 0:
            out[0] = 0
            return 1
        return g.n
    if stamp[0] >= 0x3FFFFFFF:
        # the stamps would wrap round and match old entries: clear the table once
        memset(seen_stamp, 0, SEEN * sizeof(int))
        stamp[0] = 0
    g.seen_key = seen_key
    g.seen_stamp = seen_stamp
    g.stamp = stamp[0]
    gen_pair(&g, d0, d1)
    stamp[0] = g.stamp
    return g.n


cdef inline int play_turn(unsigned char* me, unsigned char* op, int move) noexcept nogil:
    """Apply a turn's checker moves to the counts (no hashing); returns 1 if the mover has
    borne off every checker."""
    cdef int k, s, d, t, shift
    cdef int die = (move >> 5) & 7
    for k in range(4):
        shift = 8 * k if k < 2 else 16 + 5 * (k - 2)
        s = (move >> shift) & 31
        if s == 0:
            break
        d = die if k != 1 else (move >> 13) & 7
        t = s - d
        if t < 0:
            t = 0
        me[s] -= 1
        me[t] += 1
        if t >= 1 and op[25 - t] == 1:
            op[25 - t] = 0
            op[BAR] += 1
    return me[OFF] == NCHK


cdef inline int turn_steps(int move, int* src, int* dice) noexcept nogil:
    """The checker moves of a turn id: points and dice, in the order they are played."""
    cdef int k, s, shift, n = 0
    for k in range(4):
        shift = 8 * k if k < 2 else 16 + 5 * (k - 2)
        s = (move >> shift) & 31
        if s == 0:
            break
        src[n] = s
        dice[n] = (move >> 5) & 7 if k != 1 else (move >> 13) & 7
        n += 1
    return n
