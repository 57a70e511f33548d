/* Twin of copy.cu: the same 32M-float copy, as memcpy: each OpenMP thread memcpy's its own
 * contiguous chunk (the machine's copy bandwidth); a single-threaded memcpy is printed for
 * reference. GB/s count the bytes read and written. */
#include <string.h>
#include <omp.h>
#include "../common/bench.h"

#define N (1 << 25)
#define REPS 10

static void parallel_memcpy(float *restrict b, const float *restrict a, size_t n)
{
#pragma omp parallel
    {
        int nt = omp_get_num_threads(), id = omp_get_thread_num();
        size_t lo = n * id / nt, hi = n * (id + 1) / nt;
        memcpy(b + lo, a + lo, (hi - lo) * sizeof(float));
    }
}

int main(void)
{
    float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float));
    uint32_t s = 47;
    for (int i = 0; i < N; ++i) a[i] = (float)bench_below(&s, 1000);
    parallel_memcpy(b, a, N); /* warm-up, and first touch of b */
    double t0 = omp_get_wtime();
    for (int r = 0; r < REPS; ++r)
        parallel_memcpy(b, a, N);
    double ms = (omp_get_wtime() - t0) * 1e3;
    double t1 = omp_get_wtime();
    for (int r = 0; r < REPS; ++r)
        memcpy(b, a, N * sizeof(float));
    double ms1 = (omp_get_wtime() - t1) * 1e3;
    double sum = 0;
    for (int i = 0; i < N; ++i) sum += b[i];
    bench_report("copy", ms, sum, 1);
    printf("BENCH copy_gbps gbps=%.2f\n", 2.0 * N * sizeof(float) * REPS / (ms * 1e6));
    printf("BENCH copy_memcpy1_gbps gbps=%.2f\n", 2.0 * N * sizeof(float) * REPS / (ms1 * 1e6));
    return 0;
}
