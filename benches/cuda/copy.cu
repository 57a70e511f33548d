// STREAM-like copy: b[i] = a[i] over 32M floats, repeated; reported as GB/s counting the
// bytes read and written (STREAM's convention).
#include "../common/cuda_check.h"

#define N (1 << 25)
#define REPS 10

__global__ void copy_kernel(const float *__restrict__ a, float *__restrict__ b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        b[i] = a[i];
}

int main()
{
    float *h = (float *)malloc(N * sizeof(float));
    uint32_t s = 47;
    for (int i = 0; i < N; ++i) h[i] = (float)bench_below(&s, 1000);
    float *da, *db;
    CHECK(cudaMalloc(&da, N * sizeof(float)));
    CHECK(cudaMalloc(&db, N * sizeof(float)));
    CHECK(cudaMemcpy(da, h, N * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(db, 0, N * sizeof(float)));
    copy_kernel<<<N / 256, 256>>>(da, db, N); // warm-up
    BenchTimer t;
    t.begin();
    for (int r = 0; r < REPS; ++r)
        copy_kernel<<<N / 256, 256>>>(da, db, N);
    double ms = t.end();
    float *out = (float *)malloc(N * sizeof(float));
    CHECK(cudaMemcpy(out, db, N * sizeof(float), cudaMemcpyDeviceToHost));
    int ok = 1;
    double sum = 0;
    for (int i = 0; i < N; ++i) {
        if (out[i] != h[i]) ok = 0;
        sum += out[i];
    }
    bench_report("copy", ms, sum, ok);
    printf("BENCH copy_gbps gbps=%.2f\n", 2.0 * N * sizeof(float) * REPS / (ms * 1e6));
    return ok ? 0 : 1;
}
