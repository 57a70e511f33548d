/* Twin of scan.cu: exclusive prefix sum of 2M ints. Each thread sums its static chunk, the
 * chunk totals are scanned serially, then each thread scans its chunk from its offset. */
#include <omp.h>
#include "../common/bench.h"

#define N (1 << 21)
#define REPS 1
#define MAX_THREADS 1024

static void scan(const int *restrict in, int *restrict out, int n)
{
    int totals[MAX_THREADS + 1];
#pragma omp parallel
    {
        int nt = omp_get_num_threads(), id = omp_get_thread_num();
        long lo = (long)n * id / nt, hi = (long)n * (id + 1) / nt;
        int sum = 0;
#pragma omp simd reduction(+ : sum)
        for (long i = lo; i < hi; ++i) sum += in[i];
        totals[id + 1] = sum;
#pragma omp barrier
#pragma omp single
        {
            totals[0] = 0;
            for (int k = 1; k <= nt; ++k) totals[k] += totals[k - 1];
        }
        int run = totals[id];
        for (long i = lo; i < hi; ++i) {
            out[i] = run;
            run += in[i];
        }
    }
}

int main(void)
{
    int *h = malloc(N * sizeof(int)), *out = malloc(N * sizeof(int));
    uint32_t s = 13;
    for (int i = 0; i < N; ++i) h[i] = (int)bench_below(&s, 10);
    if (omp_get_max_threads() > MAX_THREADS) omp_set_num_threads(MAX_THREADS);
    scan(h, out, N); /* warm-up */
    double t0 = omp_get_wtime();
    for (int r = 0; r < REPS; ++r)
        scan(h, out, N);
    double ms = (omp_get_wtime() - t0) * 1e3;
    double sum = 0;
    for (int i = 0; i < N; ++i) sum += (double)out[i] * (i % 3);
    bench_report("scan", ms, sum, 1);
    return 0;
}
