/* Plain C reference for Amazons 10x10 random playouts: each ply counts every whole move
 * (amazon, destination, arrow) by ray scans on a bordered mailbox, draws one uniformly and
 * plays it; the side with no move loses. Prints playouts per second, playouts, White's wins.
 * gcc -O3 -o /tmp/amazons_playout_ref benchmarks/amazons_playout_ref.c && /tmp/amazons_playout_ref 2 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define N 10
#define W (N + 2)
static uint64_t s[4] = {0x9E3779B97F4A7C15ull, 0xBF58476D1CE4E5B9ull, 0x94D049BB133111EBull, 1};
static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static inline uint64_t next(void) {
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
    return r;
}
static inline int below(int n) { return (int)(((next() >> 32) * (uint64_t)n) >> 32); }
static const int D[8] = {1, -1, W, -W, W + 1, W - 1, -W + 1, -W - 1};
static int cell(int r, int c) { return (r + 1) * W + c + 1; }
int main(int argc, char** argv) {
    double secs = argc > 1 ? atof(argv[1]) : 2.0;
    unsigned char start[W * W], b[W * W];
    int q0[2][4] = {{cell(0, 3), cell(0, 6), cell(3, 0), cell(3, 9)},
                    {cell(9, 3), cell(9, 6), cell(6, 0), cell(6, 9)}};
    int q[2][4], dest[160], who[160], cnt[160];
    long count = 0, white = 0;
    struct timespec t0, t1;
    memset(start, 4, sizeof start);
    for (int r = 0; r < N; r++) for (int c = 0; c < N; c++) start[cell(r, c)] = 0;
    for (int p = 0; p < 2; p++) for (int i = 0; i < 4; i++) start[q0[p][i]] = p + 1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        for (int k = 0; k < 64; k++) {
            memcpy(b, start, sizeof b);
            memcpy(q, q0, sizeof q);
            for (int p = 0;; p = 1 - p) {
                int nd = 0, total = 0;
                for (int i = 0; i < 4; i++) {
                    int fr = q[p][i];
                    b[fr] = 0;
                    for (int j = 0; j < 8; j++)
                        for (int t = fr + D[j]; b[t] == 0; t += D[j]) {
                            int c = 0;
                            for (int m = 0; m < 8; m++)
                                for (int a = t + D[m]; b[a] == 0; a += D[m]) c++;
                            dest[nd] = t; who[nd] = i; cnt[nd++] = c; total += c;
                        }
                    b[fr] = p + 1;
                }
                if (total == 0) { white += p == 1; break; }
                int r = below(total), x = 0;
                while (r >= cnt[x]) r -= cnt[x++];
                int t = dest[x];
                b[q[p][who[x]]] = 0; b[t] = p + 1; q[p][who[x]] = t;
                for (int m = 0, done = 0; !done; m++)
                    for (int a = t + D[m]; b[a] == 0; a += D[m])
                        if (r-- == 0) { b[a] = 3; done = 1; break; }
            }
        }
        count += 64;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double el = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
        if (el >= secs) { printf("%.1f %ld %.4f\n", count / el, count, (double)white / count); return 0; }
    }
}
