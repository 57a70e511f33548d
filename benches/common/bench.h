/* Shared by both sides of the benchmark suite (CUDA host code and the OpenMP C twins):
 * the deterministic input generator and the one result line the runner parses.
 * Plain C so that gcc and Cuprite's host compiler read the same definitions. */
#ifndef CUPRITE_BENCH_H
#define CUPRITE_BENCH_H
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* xorshift32: the same stream on both sides, so inputs are bit-identical. */
static inline uint32_t bench_rand(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return x;
}

/* A small integer in [0, n): inputs are mostly small integers stored as float, so that
 * sums and products are exact and the checksum does not depend on summation order. */
static inline uint32_t bench_below(uint32_t *state, uint32_t n) { return bench_rand(state) % n; }

/* The line run.sh parses. ms: the timed compute section; check: a checksum both sides
 * must print equally (an integral checksum is printed in full and must match exactly,
 * others within a relative 1e-5); ok: the program's own verification. */
static inline void bench_report(const char *name, double ms, double check, int ok)
{
    if (check > -1e18 && check < 1e18 && (double)(long long)check == check)
        printf("BENCH %s ms=%.3f check=%lld ok=%d\n", name, ms, (long long)check, ok);
    else
        printf("BENCH %s ms=%.3f check=%.10g ok=%d\n", name, ms, check, ok);
}
#endif
