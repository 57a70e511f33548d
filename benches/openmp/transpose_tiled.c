/* Twin of transpose_tiled.cu: 4096x4096 float transpose, cache-blocked in 32x32 tiles, tile
 * rows over threads (a CPU programmer blocks for the cache in both cases). */
#include <omp.h>
#include "../common/bench.h"

#define N 4096
#define TILE 32
#define REPS 4

static void transpose(const float *restrict in, float *restrict out, int n)
{
#pragma omp parallel for schedule(static)
    for (int bi = 0; bi < n; bi += TILE)
        for (int bj = 0; bj < n; bj += TILE)
            for (int j = bj; j < bj + TILE; ++j) /* each output row segment written contiguously */
#pragma omp simd
                for (int i = bi; i < bi + TILE; ++i)
                    out[(size_t)j * n + i] = in[(size_t)i * n + j];
}

int main(void)
{
    size_t bytes = (size_t)N * N * sizeof(float);
    float *in = malloc(bytes), *out = malloc(bytes);
    uint32_t s = 11;
    for (size_t i = 0; i < (size_t)N * N; ++i) in[i] = (float)bench_below(&s, 1000);
    transpose(in, out, N); /* warm-up */
    double t0 = omp_get_wtime();
    for (int r = 0; r < REPS; ++r)
        transpose(in, out, N);
    double ms = (omp_get_wtime() - t0) * 1e3;
    double sum = 0;
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j)
            sum += out[(size_t)i * N + j] * (double)((i + 2 * j) % 13);
    bench_report("transpose_tiled", ms, sum, 1);
    return 0;
}
