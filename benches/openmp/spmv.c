/* Twin of spmv.cu: CSR y = A x, 1M rows, rows over threads, a plain loop per row (a SIMD gather measured no faster). */
#include <omp.h>
#include "../common/csr.h"

#define ROWS (1 << 20)
#define REPS 10

static void spmv(const int *restrict row_start, const int *restrict cols, const float *restrict vals,
                 const float *restrict x, float *restrict y, int rows)
{
#pragma omp parallel for schedule(static)
    for (int r = 0; r < rows; ++r) {
        float sum = 0.0f;
        for (int e = row_start[r]; e < row_start[r + 1]; ++e)
            sum += vals[e] * x[cols[e]];
        y[r] = sum;
    }
}

int main(void)
{
    int *row_start, *cols;
    float *vals, *x = malloc(ROWS * sizeof(float)), *y = malloc(ROWS * sizeof(float));
    bench_csr(ROWS, &row_start, &cols, &vals, x);
    spmv(row_start, cols, vals, x, y, ROWS); /* warm-up */
    double t0 = omp_get_wtime();
    for (int r = 0; r < REPS; ++r)
        spmv(row_start, cols, vals, x, y, ROWS);
    double ms = (omp_get_wtime() - t0) * 1e3;
    double sum = 0;
    for (int r = 0; r < ROWS; ++r) sum += (double)y[r] * y[r] * (r % 3 + 1);
    bench_report("spmv", ms, sum, 1);
    return 0;
}
