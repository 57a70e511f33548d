/* saxpy twin: y = a*x + y over 16M floats, repeated. */
#include <omp.h>
#include "../common/bench.h"

#define N (1 << 24)
#define REPS 10

static void saxpy(int n, float a, const float *restrict x, float *restrict y)
{
#pragma omp parallel for simd schedule(static)
    for (int i = 0; i < n; ++i)
        y[i] = a * x[i] + y[i];
}

int main(void)
{
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float));
    uint32_t s = 1;
    for (int i = 0; i < N; ++i) {
        x[i] = (float)bench_below(&s, 8);
        y[i] = (float)bench_below(&s, 8);
    }
    saxpy(N, 0.0f, x, y); /* first touch by the worker threads, as cudaMemcpy does on the GPU */
    double t0 = omp_get_wtime();
    for (int r = 0; r < REPS; ++r)
        saxpy(N, 2.0f, x, y);
    double ms = (omp_get_wtime() - t0) * 1e3;
    double sum = 0;
    for (int i = 0; i < N; ++i) sum += y[i];
    bench_report("saxpy", ms, sum, 1);
    return 0;
}
