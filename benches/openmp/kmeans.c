/* Twin of kmeans.cu: the assignment step for 1M points, 16 features (feature-major), 32
 * centroids. Blocks of points over threads; within a block, a SIMD loop over points keeps
 * each point's best distance in a small array (the loop order a vectorising CPU
 * programmer picks for feature-major data). */
#include <omp.h>
#include "../common/bench.h"

#define NPTS (1 << 20)
#define DIM 16
#define K 32
#define REPS 1
#define CHUNK 256

static void assign(const float *restrict pts, const float *restrict cen, int *restrict membership, int n)
{
#pragma omp parallel for schedule(static)
    for (int p0 = 0; p0 < n; p0 += CHUNK) {
        float best_d[CHUNK];
        int best[CHUNK];
        for (int q = 0; q < CHUNK; ++q) { best_d[q] = 3.0e38f; best[q] = 0; }
        for (int k = 0; k < K; ++k) {
#pragma omp simd
            for (int q = 0; q < CHUNK; ++q) {
                float d = 0.0f;
                for (int f = 0; f < DIM; ++f) {
                    float diff = pts[(size_t)f * n + p0 + q] - cen[k * DIM + f];
                    d += diff * diff;
                }
                if (d < best_d[q]) { best_d[q] = d; best[q] = k; }
            }
        }
        for (int q = 0; q < CHUNK; ++q) membership[p0 + q] = best[q];
    }
}

int main(void)
{
    float *pts = malloc((size_t)NPTS * DIM * sizeof(float)), cen[K * DIM];
    int *mem = malloc(NPTS * sizeof(int));
    uint32_t s = 31;
    for (size_t i = 0; i < (size_t)NPTS * DIM; ++i) pts[i] = (float)bench_below(&s, 64);
    for (int i = 0; i < K * DIM; ++i) cen[i] = (float)bench_below(&s, 64);
    assign(pts, cen, mem, NPTS); /* warm-up */
    double t0 = omp_get_wtime();
    for (int r = 0; r < REPS; ++r)
        assign(pts, cen, mem, NPTS);
    double ms = (omp_get_wtime() - t0) * 1e3;
    double sum = 0;
    for (int p = 0; p < NPTS; ++p) sum += (double)mem[p] * (p % 5 + 1);
    bench_report("kmeans", ms, sum, 1);
    return 0;
}
