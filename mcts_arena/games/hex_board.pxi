# hex.pyx's board-level helpers (included in place): the connection tests on a board array
# or bitboard, the bridge patterns of the playouts and the knowledge, and the counting step of the
# two-distance evaluation (Hex._two_distance). All on plain arrays, nogil.


cdef inline void _set_edges(unsigned char* b, int nc) noexcept nogil:
    b[nc + V_TOP] = 1
    b[nc + V_BOTTOM] = 1
    b[nc + V_LEFT] = 2
    b[nc + V_RIGHT] = 2
    b[nc + V_NONE] = 3


cdef inline bint _black_connected(unsigned char* b, int n) noexcept nogil:
    """Does Black connect top and bottom on board b (b is marked on the way: pass a copy with
    its virtual edge cells)? Flood fill from the top row over Black stones (colour 1; visited
    ones become 5) until the bottom edge's virtual cell, itself a 1, is reached: one test per
    neighbour, with no bounds check."""
    cdef int stack[MAXC + 4]
    cdef int sp = 0, c, i, x, nc = n * n, goal = n * n + V_BOTTOM
    cdef int* nb
    b[nc + V_TOP] = 5
    for c in range(n):
        if b[c] == 1:
            b[c] = 5
            stack[sp] = c
            sp += 1
    while sp > 0:
        sp -= 1
        x = stack[sp]
        if x == goal:
            return True
        nb = NB[n][x]
        for i in range(6):
            c = nb[i]
            if b[c] == 1:
                b[c] = 5
                stack[sp] = c
                sp += 1
    return False


cdef inline bint _white_connected(unsigned char* b, int n) noexcept nogil:
    """Does White connect left and right (b is marked on the way: pass a copy with its
    virtual edge cells)? As _black_connected, from column a to the right edge's cell."""
    cdef int stack[MAXC + 4]
    cdef int sp = 0, c, i, x, r, nc = n * n, goal = n * n + V_RIGHT
    cdef int* nb
    b[nc + V_LEFT] = 6
    for r in range(n):
        c = r * n
        if b[c] == 2:
            b[c] = 6
            stack[sp] = c
            sp += 1
    while sp > 0:
        sp -= 1
        x = stack[sp]
        if x == goal:
            return True
        nb = NB[n][x]
        for i in range(6):
            c = nb[i]
            if b[c] == 2:
                b[c] = 6
                stack[sp] = c
                sp += 1
    return False


cdef inline bint _black_bits_connected(uint64_t* black, int n) noexcept nogil:
    """Does the Black stone set `black` (bitboard) connect the top and bottom rows? Grows the
    stones reached from the top row by all six neighbour shifts at once, word by word, until
    the bottom row is hit or nothing grows: no branch per cell (on a random board those
    mispredict), about one step per row of the longest path."""
    cdef uint64_t x[MAXW]
    cdef uint64_t nx[MAXW]
    cdef uint64_t r[MAXW]
    cdef uint64_t l[MAXW]
    cdef uint64_t v, grew, hit
    cdef int w, nw = (n * n + 63) >> 6
    cdef uint64_t* top = TOPROW[n]
    cdef uint64_t* bot = BOTROW[n]
    cdef uint64_t* nf = NOTFIRST[n]
    cdef uint64_t* nl = NOTLAST[n]
    for w in range(nw):
        x[w] = black[w] & top[w]
    while True:
        for w in range(nw):
            r[w] = x[w] & nl[w]          # may step right / up-right
            l[w] = x[w] & nf[w]          # may step left / down-left
        grew = 0
        hit = 0
        for w in range(nw):
            # to higher cells: right (+1), down (+n), down-left (+n-1)
            v = x[w] | (r[w] << 1) | (x[w] << n) | (l[w] << (n - 1))
            # to lower cells: left (-1), up (-n), up-right (-n+1)
            v |= (l[w] >> 1) | (x[w] >> n) | (r[w] >> (n - 1))
            if w > 0:
                v |= (r[w - 1] >> 63) | (x[w - 1] >> (64 - n)) | (l[w - 1] >> (65 - n))
            if w + 1 < nw:
                v |= (l[w + 1] << 63) | (x[w + 1] << (64 - n)) | (r[w + 1] << (65 - n))
            v &= black[w]
            grew |= v ^ x[w]
            hit |= v & bot[w]
            nx[w] = v
        if hit:
            return True
        if not grew:
            return False
        for w in range(nw):
            x[w] = nx[w]


cdef inline bint _board_black_connected(unsigned char* b, int n) noexcept nogil:
    """_black_bits_connected of the Black stones (1) of the cells of b."""
    cdef uint64_t black[MAXW]
    cdef int c, w, nc = n * n
    for w in range(MAXW):
        black[w] = 0
    for c in range(nc):
        black[c >> 6] |= (<uint64_t>(b[c] == 1)) << (c & 63)
    return _black_bits_connected(black, n)


cdef inline int _bridge_reply(unsigned char* b, int n, int x, int me, Rng* rng) noexcept nogil:
    """The other carrier of a bridge of colour `me` that a stone on x intruded (both ends `me`
    stones or `me`'s edge, the other carrier empty); random among several; -1 for none.

    Direction i's cell is a carrier when it is empty and its two neighbours in the cyclic order
    (directions i-1 and i+1, distinct cells) are `me`: the six tests are computed as bits
    without branches (on a random board they mispredict), then the candidates are visited in
    direction order, so the random choice draws exactly as a plain loop would."""
    cdef int* nb = NB[n][x]
    cdef int n0 = nb[0], n1 = nb[1], n2 = nb[2], n3 = nb[3], n4 = nb[4], n5 = nb[5]
    cdef int c0 = b[n0], c1 = b[n1], c2 = b[n2], c3 = b[n3], c4 = b[n4], c5 = b[n5]
    cdef unsigned int m = (c0 == me) | (c1 == me) << 1 | (c2 == me) << 2 | (c3 == me) << 3 | \
        (c4 == me) << 4 | (c5 == me) << 5
    cdef unsigned int e = (c0 == 0) | (c1 == 0) << 1 | (c2 == 0) << 2 | (c3 == 0) << 3 | \
        (c4 == 0) << 4 | (c5 == 0) << 5
    # carrier i: e_i, m_(i-1), m_(i+1) (cyclic over six bits)
    cdef unsigned int cand = e & ((m << 1) | (m >> 5)) & ((m >> 1) | (m << 5)) & 63
    cdef int i, found = 0, reply = -1
    if cand == 0:
        return -1
    for i in range(6):
        if cand & (1u << i) and nb[(i + 5) % 6] != nb[(i + 1) % 6]:
            found += 1
            if found == 1 or rng_below(rng, found) == 0:
                reply = nb[i]
    return reply


cdef inline bint _makes_bridge(unsigned char* b, int n, int x, int me) noexcept nogil:
    """Would a `me` stone on x form a bridge (two empty carriers) with a `me` stone or edge?"""
    cdef int i, y1, y2, e, nc = n * n, r, c, rr, cc
    cdef int* nb = NB[n][x]
    r = x // n
    c = x % n
    for i in range(6):
        y1 = nb[i]
        y2 = nb[(i + 1) % 6]
        if y1 >= nc or y2 >= nc or b[y1] != 0 or b[y2] != 0:
            continue
        # the far end of the bridge over carriers y1, y2: (r, c) + D[i] + D[i+1]
        rr = r + DR[i] + DR[(i + 1) % 6]
        cc = c + DC[i] + DC[(i + 1) % 6]
        if 0 <= rr < n and 0 <= cc < n:
            e = rr * n + cc
            if b[e] == me:
                return True
        elif me == 1 and (rr < 0 or rr >= n) and 0 <= cc < n:
            return True
        elif me == 2 and (cc < 0 or cc >= n) and 0 <= rr < n:
            return True
    return False


cdef struct TwoDistance:
    # Hex._two_distance's arrays: grp[c], stone c's group; group g's adjacent empty cells,
    # gadj[gstart[g]:gstart[g + 1]] (a cell may repeat); gedge[g], g touches the edge; and
    # scratch: gmark[g] (the node that last counted through g), cnt, mark, queue, stack
    int grp[MAXC]
    int gstart[MAXC + 1]
    int gadj[6 * MAXC]
    int gedge[MAXC]
    int gmark[MAXC]
    int cnt[MAXC]
    int mark[MAXC]
    int queue[MAXC]
    int stack[MAXC]


cdef inline void _count(int c, int x, int v, int* d, int* cnt, int* mark, int* queue,
                        int* qt) noexcept nogil:
    """Cell c sees settled node x (value v - 1): the second distinct one settles c at v."""
    if d[c] < INF or mark[c] == x:
        return
    mark[c] = x
    cnt[c] += 1
    if cnt[c] == 2:
        d[c] = v
        queue[qt[0]] = c
        qt[0] += 1
