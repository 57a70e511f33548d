/* Twin of stencil2d.cu: 5-point Jacobi, 2048x2048, 10 sweeps, fixed boundary; rows over
 * threads, the row a SIMD loop. */
#include <string.h>
#include <omp.h>
#include "../common/bench.h"

#define N 2048
#define SWEEPS 10

static void jacobi5(const float *restrict in, float *restrict out, int n)
{
#pragma omp parallel for schedule(static)
    for (int y = 1; y < n - 1; ++y) {
        const float *restrict c = in + (size_t)y * n;
        float *restrict o = out + (size_t)y * n;
#pragma omp simd
        for (int x = 1; x < n - 1; ++x)
            o[x] = 0.2f * (c[x] + c[x - 1] + c[x + 1] + c[x - n] + c[x + n]);
    }
}

int main(void)
{
    size_t bytes = (size_t)N * N * sizeof(float);
    float *a = malloc(bytes), *d0 = malloc(bytes), *d1 = malloc(bytes);
    uint32_t s = 5;
    for (int i = 0; i < N * N; ++i) a[i] = (float)bench_below(&s, 100);
    memcpy(d0, a, bytes);
    jacobi5(d0, d1, N); /* warm-up */
    memcpy(d0, a, bytes);
    memcpy(d1, a, bytes);
    double t0 = omp_get_wtime();
    for (int r = 0; r < SWEEPS; ++r) {
        jacobi5(d0, d1, N);
        float *t = d0; d0 = d1; d1 = t;
    }
    double ms = (omp_get_wtime() - t0) * 1e3;
    double sum = 0;
    for (int i = 0; i < N * N; ++i) sum += d0[i];
    bench_report("stencil2d", ms, sum, 1);
    return 0;
}
