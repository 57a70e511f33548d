/* Twin of hotspot.cu: 1024x1024 chip, 20 steps; rows over threads, the interior of each
 * row a SIMD loop, the border columns and rows handled apart. */
#include <omp.h>
#include "../common/bench.h"
#include "../common/hotspot.h"

#define N 1024
#define STEPS 20

static void hotspot_step(const float *restrict power, const float *restrict a, float *restrict b, int n)
{
#pragma omp parallel for schedule(static)
    for (int y = 0; y < n; ++y) {
        const float *restrict row = a + (size_t)y * n;
        const float *restrict up = y > 0 ? row - n : row;
        const float *restrict down = y < n - 1 ? row + n : row;
        const float *restrict p = power + (size_t)y * n;
        float *restrict o = b + (size_t)y * n;
        o[0] = HS_CELL(row[0], up[0], down[0], row[1], row[0], p[0]);
#pragma omp simd
        for (int x = 1; x < n - 1; ++x)
            o[x] = HS_CELL(row[x], up[x], down[x], row[x + 1], row[x - 1], p[x]);
        o[n - 1] = HS_CELL(row[n - 1], up[n - 1], down[n - 1], row[n - 1], row[n - 2], p[n - 1]);
    }
}

int main(void)
{
    size_t bytes = (size_t)N * N * sizeof(float);
    float *power = malloc(bytes), *temp = malloc(bytes), *d0 = malloc(bytes), *d1 = malloc(bytes);
    uint32_t s = 23;
    for (int i = 0; i < N * N; ++i) {
        temp[i] = 300.0f + bench_below(&s, 40);
        power[i] = bench_below(&s, 100) / 100.0f;
    }
    hotspot_step(power, temp, d1, N); /* warm-up */
    for (int i = 0; i < N * N; ++i) d0[i] = temp[i];
    double t0 = omp_get_wtime();
    for (int r = 0; r < STEPS; ++r) {
        hotspot_step(power, d0, d1, N);
        float *t = d0; d0 = d1; d1 = t;
    }
    double ms = (omp_get_wtime() - t0) * 1e3;
    double sum = 0;
    for (int i = 0; i < N * N; ++i) sum += d0[i];
    bench_report("hotspot", ms, sum, 1);
    return 0;
}
