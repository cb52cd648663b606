/* The plain C loop the Gomoku issue names as the yardstick for `arena bench gomoku`:
 * uniformly random stones on an empty 15x15 board (a partial Fisher-Yates shuffle of the
 * cells), five or more checked around the last stone only, a full board a draw.
 * Usage: gomoku_playout_ref SECONDS  -> prints "<playouts per second> <black> <white> <draws>".
 * Compiled and run by mcts_arena/bench.py (gcc -O3) in the same run as our core. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 15
#define NC (N * N)

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

static const int DR[4] = {0, 1, 1, 1}, DC[4] = {1, 0, 1, -1};

static int five(const unsigned char *b, int x, int col) {
    int r0 = x / N, c0 = x % N;
    for (int d = 0; d < 4; d++) {
        int k = 1, r = r0 + DR[d], c = c0 + DC[d];
        while (r >= 0 && r < N && c >= 0 && c < N && b[r * N + c] == col) { k++; r += DR[d]; c += DC[d]; }
        r = r0 - DR[d]; c = c0 - DC[d];
        while (r >= 0 && r < N && c >= 0 && c < N && b[r * N + c] == col) { k++; r -= DR[d]; c -= DC[d]; }
        if (k >= 5) return 1;
    }
    return 0;
}

static int playout(void) {
    unsigned char b[NC] = {0};
    int cells[NC];
    for (int i = 0; i < NC; i++) cells[i] = i;
    int p = 0;
    for (int i = 0; i < NC; i++) {
        int j = i + (int)below((uint32_t)(NC - i));
        int c = cells[j];
        cells[j] = cells[i];
        b[c] = (unsigned char)(p + 1);
        if (five(b, c, p + 1)) return p;
        p = 1 - p;
    }
    return 2;
}

int main(int argc, char **argv) {
    double secs = argc > 1 ? atof(argv[1]) : 1.0;
    long count = 0, wins[3] = {0, 0, 0};
    double t0 = now(), t;
    do {
        for (int i = 0; i < 256; i++) { wins[playout()]++; count++; }
        t = now();
    } while (t - t0 < secs);
    printf("%.1f %ld %ld %ld\n", count / (t - t0), wins[0], wins[1], wins[2]);
    return 0;
}
