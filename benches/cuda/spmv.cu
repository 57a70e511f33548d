// Sparse matrix-vector product y = A x, CSR, one thread per row (the "scalar" CSR kernel).
// 1M rows, 4 to 28 nonzeros per row, mostly near the diagonal.
#include "../common/cuda_check.h"
#include "../common/csr.h"

#define ROWS (1 << 20)
#define REPS 10

__global__ void spmv_csr(const int *row_start, const int *cols, const float *vals, const float *x, float *y, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float sum = 0.0f;
    for (int e = row_start[r]; e < row_start[r + 1]; ++e)
        sum += vals[e] * x[cols[e]];
    y[r] = sum;
}

int main()
{
    int *row_start, *cols;
    float *vals, *x = (float *)malloc(ROWS * sizeof(float)), *y = (float *)malloc(ROWS * sizeof(float));
    int nnz = bench_csr(ROWS, &row_start, &cols, &vals, x);
    int *drow, *dcols;
    float *dvals, *dx, *dy;
    CHECK(cudaMalloc(&drow, (ROWS + 1) * sizeof(int)));
    CHECK(cudaMalloc(&dcols, nnz * sizeof(int)));
    CHECK(cudaMalloc(&dvals, nnz * sizeof(float)));
    CHECK(cudaMalloc(&dx, ROWS * sizeof(float)));
    CHECK(cudaMalloc(&dy, ROWS * sizeof(float)));
    CHECK(cudaMemcpy(drow, row_start, (ROWS + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dcols, cols, nnz * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dvals, vals, nnz * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dx, x, ROWS * sizeof(float), cudaMemcpyHostToDevice));
    spmv_csr<<<ROWS / 256, 256>>>(drow, dcols, dvals, dx, dy, ROWS); // warm-up
    BenchTimer t;
    t.begin();
    for (int r = 0; r < REPS; ++r)
        spmv_csr<<<ROWS / 256, 256>>>(drow, dcols, dvals, dx, dy, ROWS);
    double ms = t.end();
    CHECK(cudaMemcpy(y, dy, ROWS * sizeof(float), cudaMemcpyDeviceToHost));
    int ok = 1;
    double sum = 0;
    for (int r = 0; r < ROWS; ++r) {
        float want = 0.0f; // exact: small integer values
        for (int e = row_start[r]; e < row_start[r + 1]; ++e) want += vals[e] * x[cols[e]];
        if (y[r] != want) ok = 0;
        sum += (double)y[r] * y[r] * (r % 3 + 1);
    }
    bench_report("spmv", ms, sum, ok);
    return ok ? 0 : 1;
}
