// saxpy: y = a*x + y over 16M floats, repeated. Memory-bound.
#include "../common/cuda_check.h"

#define N (1 << 24)
#define REPS 10

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main()
{
    float *x = (float *)malloc(N * sizeof(float)), *y = (float *)malloc(N * sizeof(float));
    uint32_t s = 1;
    for (int i = 0; i < N; ++i) {
        x[i] = (float)bench_below(&s, 8);
        y[i] = (float)bench_below(&s, 8);
    }
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, N * sizeof(float)));
    CHECK(cudaMalloc(&dy, N * sizeof(float)));
    CHECK(cudaMemcpy(dx, x, N * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dy, y, N * sizeof(float), cudaMemcpyHostToDevice));

    saxpy<<<(N + 255) / 256, 256>>>(N, 0.0f, dx, dy); // warm-up, leaves y unchanged
    BenchTimer t;
    t.begin();
    for (int r = 0; r < REPS; ++r)
        saxpy<<<(N + 255) / 256, 256>>>(N, 2.0f, dx, dy);
    double ms = t.end();

    float *out = (float *)malloc(N * sizeof(float));
    CHECK(cudaMemcpy(out, dy, N * sizeof(float), cudaMemcpyDeviceToHost));
    int ok = 1;
    double sum = 0;
    for (int i = 0; i < N; ++i) {
        float want = y[i] + REPS * 2.0f * x[i];  // exact: small integers
        if (out[i] != want) ok = 0;
        sum += out[i];
    }
    bench_report("saxpy", ms, sum, ok);
    return ok ? 0 : 1;
}
