// Pathfinder-like dynamic programming: the cheapest top-to-bottom path through a
// 128-row x 256K-column grid of weights, moving down or diagonally. One launch per row; each
// block stages its slice of the previous row (plus a halo cell each side) in shared memory.
#include <climits>
#include "../common/cuda_check.h"

#define ROWS 128
#define COLS (1 << 18)
#define THREADS 256

__global__ void dp_row(const int *wall_row, const int *prev, int *next, int cols)
{
    __shared__ int p[THREADS + 2];
    int x = blockIdx.x * THREADS + threadIdx.x;
    p[threadIdx.x + 1] = prev[x];
    if (threadIdx.x == 0) p[0] = x > 0 ? prev[x - 1] : INT_MAX;
    if (threadIdx.x == THREADS - 1) p[THREADS + 1] = x < cols - 1 ? prev[x + 1] : INT_MAX;
    __syncthreads();
    int best = min(p[threadIdx.x + 1], min(p[threadIdx.x], p[threadIdx.x + 2]));
    next[x] = wall_row[x] + best;
}

int main()
{
    int *wall = (int *)malloc((size_t)ROWS * COLS * sizeof(int)), *got = (int *)malloc(COLS * sizeof(int));
    uint32_t s = 29;
    for (size_t i = 0; i < (size_t)ROWS * COLS; ++i) wall[i] = (int)bench_below(&s, 10);
    int *dwall, *d0, *d1;
    CHECK(cudaMalloc(&dwall, (size_t)ROWS * COLS * sizeof(int)));
    CHECK(cudaMalloc(&d0, COLS * sizeof(int)));
    CHECK(cudaMalloc(&d1, COLS * sizeof(int)));
    CHECK(cudaMemcpy(dwall, wall, (size_t)ROWS * COLS * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d0, wall, COLS * sizeof(int), cudaMemcpyHostToDevice));
    dp_row<<<COLS / THREADS, THREADS>>>(dwall + COLS, d0, d1, COLS); // warm-up
    BenchTimer t;
    t.begin();
    for (int r = 1; r < ROWS; ++r) {
        dp_row<<<COLS / THREADS, THREADS>>>(dwall + (size_t)r * COLS, d0, d1, COLS);
        int *tmp = d0; d0 = d1; d1 = tmp;
    }
    double ms = t.end();
    CHECK(cudaMemcpy(got, d0, COLS * sizeof(int), cudaMemcpyDeviceToHost));

    int *a = (int *)malloc(COLS * sizeof(int)), *b = (int *)malloc(COLS * sizeof(int));
    for (int x = 0; x < COLS; ++x) a[x] = wall[x];
    for (int r = 1; r < ROWS; ++r) {
        for (int x = 0; x < COLS; ++x) {
            int m = a[x];
            if (x > 0 && a[x - 1] < m) m = a[x - 1];
            if (x < COLS - 1 && a[x + 1] < m) m = a[x + 1];
            b[x] = wall[(size_t)r * COLS + x] + m;
        }
        int *tmp = a; a = b; b = tmp;
    }
    int ok = 1;
    double sum = 0;
    for (int x = 0; x < COLS; ++x) {
        if (got[x] != a[x]) ok = 0;
        sum += got[x];
    }
    bench_report("pathfinder", ms, sum, ok);
    return ok ? 0 : 1;
}
