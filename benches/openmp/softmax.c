/* Twin of softmax.cu: row softmax of 4096x1024 floats; rows over threads, the max, the sum
 * of exponentials and the scaling each a SIMD loop over the row. */
#include <float.h>
#include <math.h>
#include <omp.h>
#include "../common/bench.h"

#define ROWS 4096
#define COLS 1024
#define REPS 4

static void softmax(const float *restrict in, float *restrict out, int rows, int cols)
{
#pragma omp parallel for schedule(static)
    for (int r = 0; r < rows; ++r) {
        const float *restrict x = in + (size_t)r * cols;
        float *restrict y = out + (size_t)r * cols;
        float m = -FLT_MAX;
#pragma omp simd reduction(max : m)
        for (int c = 0; c < cols; ++c) m = fmaxf(m, x[c]);
        float s = 0.0f;
#pragma omp simd reduction(+ : s)
        for (int c = 0; c < cols; ++c) {
            y[c] = expf(x[c] - m);
            s += y[c];
        }
        float inv = 1.0f / s;
#pragma omp simd
        for (int c = 0; c < cols; ++c) y[c] *= inv;
    }
}

int main(void)
{
    size_t n = (size_t)ROWS * COLS;
    float *in = malloc(n * sizeof(float)), *out = malloc(n * sizeof(float));
    uint32_t s = 43;
    for (size_t i = 0; i < n; ++i) in[i] = bench_below(&s, 2001) / 100.0f - 10.0f;
    softmax(in, out, ROWS, COLS); /* warm-up */
    double t0 = omp_get_wtime();
    for (int r = 0; r < REPS; ++r)
        softmax(in, out, ROWS, COLS);
    double ms = (omp_get_wtime() - t0) * 1e3;
    double check = 0;
    for (int r = 0; r < ROWS; ++r)
        for (int c = 0; c < COLS; ++c) check += out[(size_t)r * COLS + c] * (double)(c % 11);
    bench_report("softmax", ms, check, 1);
    return 0;
}
