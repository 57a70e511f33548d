/* Twin of sgemm.cu: C = A * B, 512x512, rows over threads, i-k-j order so that the inner
 * loop is a unit-stride SIMD loop over a row of B and C. */
#include <string.h>
#include <omp.h>
#include "../common/bench.h"

#define N 512
#define REPS 1

static void sgemm(const float *restrict A, const float *restrict B, float *restrict C, int n)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i) {
        float *restrict c = C + (size_t)i * n;
        for (int j = 0; j < n; ++j) c[j] = 0.0f;
        for (int k = 0; k < n; ++k) {
            float a = A[(size_t)i * n + k];
            const float *restrict b = B + (size_t)k * n;
#pragma omp simd
            for (int j = 0; j < n; ++j)
                c[j] += a * b[j];
        }
    }
}

int main(void)
{
    size_t bytes = (size_t)N * N * sizeof(float);
    float *A = malloc(bytes), *B = malloc(bytes), *C = malloc(bytes);
    uint32_t s = 3;
    for (int i = 0; i < N * N; ++i) A[i] = (float)bench_below(&s, 5) - 2.0f;
    for (int i = 0; i < N * N; ++i) B[i] = (float)bench_below(&s, 5) - 2.0f;
    sgemm(A, B, C, N); /* warm-up */
    double t0 = omp_get_wtime();
    for (int r = 0; r < REPS; ++r)
        sgemm(A, B, C, N);
    double ms = (omp_get_wtime() - t0) * 1e3;
    double sum = 0;
    for (int i = 0; i < N * N; ++i) sum += C[i] * (double)(i % 7 + 1);
    bench_report("sgemm", ms, sum, 1);
    return 0;
}
