/* The SpMV input, built the same way on both sides: a CSR matrix with 4..28 nonzeros per
 * row, columns mostly within 2048 of the diagonal, small integer values (so the products
 * are exact), and the vector x. Returns the nonzero count. */
#ifndef CUPRITE_BENCH_CSR_H
#define CUPRITE_BENCH_CSR_H
#include "bench.h"

static inline int bench_csr(int rows, int **row_start, int **cols, float **vals, float *x)
{
    uint32_t s = 37;
    int *rs = (int *)malloc((rows + 1) * sizeof(int));
    int cap = rows * 28;
    int *c = (int *)malloc(cap * sizeof(int));
    float *v = (float *)malloc(cap * sizeof(float));
    int e = 0;
    for (int r = 0; r < rows; ++r) {
        rs[r] = e;
        int len = 4 + (int)bench_below(&s, 25);
        for (int k = 0; k < len; ++k) {
            int col = r - 1024 + (int)bench_below(&s, 2048);
            c[e] = col < 0 ? col + rows : (col >= rows ? col - rows : col);
            v[e] = (float)bench_below(&s, 7) - 3.0f;
            ++e;
        }
    }
    rs[rows] = e;
    for (int r = 0; r < rows; ++r) x[r] = (float)bench_below(&s, 9) - 4.0f;
    *row_start = rs;
    *cols = c;
    *vals = v;
    return e;
}
#endif
