/* Twin of bitonic.cu: the same bitonic sorting network on 1M unsigned ints. Each stage is a
 * parallel loop over the n/2 compare-exchange pairs, written so that the inner loop runs
 * over consecutive lower indices (a SIMD min/max when j >= the vector width). */
#include <omp.h>
#include "../common/bench.h"

#define N (1 << 20)

static void bitonic_sort(unsigned int *restrict a, int n)
{
#pragma omp parallel
    for (int k = 2; k <= n; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
#pragma omp for schedule(static)
            for (int blk = 0; blk < n; blk += 2 * j) { /* pairs (i, i+j) for i in [blk, blk+j) */
                int ascending = (blk & k) == 0;
                unsigned int *restrict lo = a + blk, *restrict hi = a + blk + j;
                if (ascending) {
#pragma omp simd
                    for (int q = 0; q < j; ++q) {
                        unsigned int x = lo[q], y = hi[q];
                        lo[q] = x < y ? x : y;
                        hi[q] = x < y ? y : x;
                    }
                } else {
#pragma omp simd
                    for (int q = 0; q < j; ++q) {
                        unsigned int x = lo[q], y = hi[q];
                        lo[q] = x < y ? y : x;
                        hi[q] = x < y ? x : y;
                    }
                }
            }
        }
}

int main(void)
{
    unsigned int *a = malloc(N * sizeof(unsigned int));
    uint32_t s = 41;
    for (int i = 0; i < N; ++i) a[i] = bench_rand(&s);
    double t0 = omp_get_wtime();
    bitonic_sort(a, N);
    double ms = (omp_get_wtime() - t0) * 1e3;
    double weighted = 0;
    int ok = 1;
    for (int i = 0; i < N; ++i) {
        if (i > 0 && a[i - 1] > a[i]) ok = 0;
        weighted += (double)a[i] * (i % 7);
    }
    bench_report("bitonic", ms, weighted, ok);
    return ok ? 0 : 1;
}
