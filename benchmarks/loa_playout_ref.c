/* A plain C loop as the yardstick for `arena bench loa`: uniformly random Lines of
 * Action games from the start position, written the plain way: a square array, moves found by
 * counting the pieces on each line and walking to the target square, connection by a flood
 * fill of the mover (and of the opponent after a capture), a side without a move loses.
 * Repetition is not checked (our playout checks it: it costs it a little; a
 * game longer than 1000 plies is counted a draw here).
 * Usage: loa_playout_ref SECONDS  -> prints "<playouts per second> <black> <white> <draws>".
 * Compiled and run by mcts_arena/bench (gcc -O3) in the same run as our core. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t rs = 0x9E3779B97F4A7C15ULL;

static inline uint32_t below(uint32_t k) {
    rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17;
    return (uint32_t)(((rs >> 32) * (uint64_t)k) >> 32);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const int DR[8] = {0, 0, 1, -1, 1, -1, 1, -1}, DC[8] = {1, -1, 0, 0, 1, -1, -1, 1};

/* pieces on the line through (r, c) in direction d (and its opposite) */
static int line_count(const signed char *b, int r, int c, int d) {
    int k = 1;
    for (int s = -1; s <= 1; s += 2) {
        int rr = r + s * DR[d], cc = c + s * DC[d];
        while (rr >= 0 && rr < 8 && cc >= 0 && cc < 8) {
            if (b[rr * 8 + cc] >= 0) k++;
            rr += s * DR[d]; cc += s * DC[d];
        }
    }
    return k;
}

static int gen(const signed char *b, int p, int *out) {
    int n = 0;
    for (int sq = 0; sq < 64; sq++) {
        if (b[sq] != p) continue;
        int r = sq >> 3, c = sq & 7;
        for (int d = 0; d < 8; d++) {
            int k = line_count(b, r, c, d), rr = r, cc = c, ok = 1;
            for (int i = 1; i < k && ok; i++) {
                rr += DR[d]; cc += DC[d];
                if (rr < 0 || rr > 7 || cc < 0 || cc > 7 || b[rr * 8 + cc] == 1 - p) ok = 0;
            }
            rr += DR[d]; cc += DC[d];
            if (!ok || rr < 0 || rr > 7 || cc < 0 || cc > 7 || b[rr * 8 + cc] == p) continue;
            out[n++] = sq | ((rr * 8 + cc) << 6);
        }
    }
    return n;
}

static int connected(const signed char *b, int p) {
    int stack[64], seen[64] = {0}, top = 0, total = 0, reached = 0;
    for (int sq = 0; sq < 64; sq++)
        if (b[sq] == p) { if (!total) { stack[top++] = sq; seen[sq] = 1; } total++; }
    while (top) {
        int sq = stack[--top], r = sq >> 3, c = sq & 7;
        reached++;
        for (int d = 0; d < 8; d++) {
            int rr = r + DR[d], cc = c + DC[d];
            if (rr < 0 || rr > 7 || cc < 0 || cc > 7) continue;
            int t = rr * 8 + cc;
            if (b[t] == p && !seen[t]) { seen[t] = 1; stack[top++] = t; }
        }
    }
    return reached == total;
}

static int playout(void) {
    signed char b[64];
    int moves[256], p = 0;
    for (int sq = 0; sq < 64; sq++) {
        int r = sq >> 3, c = sq & 7;
        b[sq] = -1;
        if ((r == 0 || r == 7) && c > 0 && c < 7) b[sq] = 0;      /* Black: the top and bottom */
        if ((c == 0 || c == 7) && r > 0 && r < 7) b[sq] = 1;      /* White: the sides */
    }
    for (int ply = 0; ply < 1000; ply++) {
        int n = gen(b, p, moves);
        if (n == 0) return 1 - p;
        int m = moves[below((uint32_t)n)], fr = m & 63, to = m >> 6;
        int capt = b[to] == 1 - p;
        b[to] = (signed char)p;
        b[fr] = -1;
        if (connected(b, p)) return p;
        if (capt && connected(b, 1 - p)) return 1 - p;
        p = 1 - p;
    }
    return 2;
}

int main(int argc, char **argv) {
    double secs = argc > 1 ? atof(argv[1]) : 1.0;
    long count = 0, wins[3] = {0, 0, 0};
    double t0 = now(), t;
    do {
        for (int i = 0; i < 16; i++) { wins[playout()]++; count++; }
        t = now();
    } while (t - t0 < secs);
    printf("%.1f %ld %ld %ld\n", count / (t - t0), wins[0], wins[1], wins[2]);
    return 0;
}
