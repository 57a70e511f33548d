/* Twin of reduce_warp.cu: sum of 16M ints, an OpenMP reduction (the same on the CPU for both
 * GPU variants; the GPU's tree/shuffle shape is how a GPU sums, not a CPU). */
#include <omp.h>
#include "../common/bench.h"

#define N (1 << 24)
#define REPS 3

static int sum_ints(const int *restrict in, int n)
{
    int sum = 0;
#pragma omp parallel for simd reduction(+ : sum) schedule(static)
    for (int i = 0; i < n; ++i)
        sum += in[i];
    return sum;
}

int main(void)
{
    int *h = malloc(N * sizeof(int));
    uint32_t s = 7;
    long long want = 0;
#pragma omp parallel for schedule(static)
    for (int i = 0; i < N; ++i) h[i] = 0; /* first touch by the workers */
    for (int i = 0; i < N; ++i) {
        h[i] = (int)bench_below(&s, 16) - 7;
        want += h[i];
    }
    volatile int got = sum_ints(h, N); /* warm-up */
    double t0 = omp_get_wtime();
    for (int r = 0; r < REPS; ++r)
        got = sum_ints(h, N);
    double ms = (omp_get_wtime() - t0) * 1e3;
    bench_report("reduce_warp", ms, got, got == want);
    return got == want ? 0 : 1;
}
