/* Twin of pathfinder.cu: 128 rows x 256K columns, row by row; columns over threads, the
 * interior a SIMD loop of mins. */
#include <limits.h>
#include <omp.h>
#include "../common/bench.h"

#define ROWS 128
#define COLS (1 << 18)

static inline int min3(int a, int b, int c) { int m = a < b ? a : b; return m < c ? m : c; }

static void dp(const int *restrict wall, int *a0, int *b0)
{
#pragma omp parallel
    {
    int *restrict a = a0, *restrict b = b0; /* private: each thread swaps its own copies */
    for (int r = 1; r < ROWS; ++r) {
        const int *restrict w = wall + (size_t)r * COLS;
#pragma omp for simd schedule(static)
        for (int x = 1; x < COLS - 1; ++x)
            b[x] = w[x] + min3(a[x - 1], a[x], a[x + 1]);
#pragma omp single
        {
            b[0] = w[0] + (a[0] < a[1] ? a[0] : a[1]);
            b[COLS - 1] = w[COLS - 1] + (a[COLS - 1] < a[COLS - 2] ? a[COLS - 1] : a[COLS - 2]);
        } /* implicit barrier: the row is complete before the swap */
        int *t = a; a = b; b = t;
    }
    }
}

int main(void)
{
    int *wall = malloc((size_t)ROWS * COLS * sizeof(int));
    int *a = malloc(COLS * sizeof(int)), *b = malloc(COLS * sizeof(int));
    uint32_t s = 29;
    for (size_t i = 0; i < (size_t)ROWS * COLS; ++i) wall[i] = (int)bench_below(&s, 10);
    for (int x = 0; x < COLS; ++x) { a[x] = wall[x]; b[x] = 0; }
    double t0 = omp_get_wtime();
    dp(wall, a, b);
    double ms = (omp_get_wtime() - t0) * 1e3;
    const int *res = (ROWS - 1) % 2 ? b : a;
    double sum = 0;
    for (int x = 0; x < COLS; ++x) sum += res[x];
    bench_report("pathfinder", ms, sum, 1);
    return 0;
}
