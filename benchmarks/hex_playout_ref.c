/* Plain C reference for Hex 11x11 random playouts: shuffle the empty cells, fill the
 * board alternately, one flood fill from the top edge. Prints playouts per second.
 * gcc -O3 -o /tmp/hex_playout_ref benchmarks/hex_playout_ref.c && /tmp/hex_playout_ref 2 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#define N 11
#define NC (N * N)
static uint64_t s[4] = {0x9E3779B97F4A7C15ull, 0xBF58476D1CE4E5B9ull, 0x94D049BB133111EBull, 1};
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t next(void) {
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
    return r;
}
static inline int below(int n) { return (int)(((next() >> 32) * (uint64_t)n) >> 32); }
static const int DR[6] = {-1, -1, 0, 1, 1, 0}, DC[6] = {0, 1, 1, 0, -1, -1};
int main(int argc, char** argv) {
    double secs = argc > 1 ? atof(argv[1]) : 2.0;
    int cells[NC], stack[NC];
    unsigned char b[NC];
    long count = 0, black = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        for (int k = 0; k < 64; k++) {
            for (int i = 0; i < NC; i++) cells[i] = i;
            for (int i = NC - 1; i > 0; i--) { int j = below(i + 1), t = cells[i]; cells[i] = cells[j]; cells[j] = t; }
            for (int i = 0; i < NC; i++) b[cells[i]] = 1 + (i & 1);
            int sp = 0, won = 0;
            for (int c = 0; c < N; c++) if (b[c] == 1) { b[c] = 5; stack[sp++] = c; }
            while (sp > 0 && !won) {
                int x = stack[--sp], r = x / N, c = x % N;
                if (r == N - 1) { won = 1; break; }
                for (int d = 0; d < 6; d++) {
                    int rr = r + DR[d], cc = c + DC[d];
                    if (rr >= 0 && rr < N && cc >= 0 && cc < N && b[rr * N + cc] == 1) { b[rr * N + cc] = 5; stack[sp++] = rr * N + cc; }
                }
            }
            black += won;
        }
        count += 64;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double el = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
        if (el >= secs) { printf("%.1f %ld %.4f\n", count / el, count, (double)black / count); return 0; }
    }
}
