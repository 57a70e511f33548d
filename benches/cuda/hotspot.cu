// Hotspot-like thermal simulation: 1024x1024 chip, 20 steps. 16x16 blocks stage their tile
// of temperatures in shared memory; neighbours outside the tile come from global memory.
#include <math.h>
#include "../common/cuda_check.h"
#include "../common/hotspot.h"

#define N 1024
#define B 16
#define STEPS 20

__global__ void hotspot_step(const float *power, const float *temp, float *out, int n)
{
    __shared__ float t[B][B];
    int x = blockIdx.x * B + threadIdx.x, y = blockIdx.y * B + threadIdx.y;
    int i = y * n + x;
    float c = temp[i];
    t[threadIdx.y][threadIdx.x] = c;
    __syncthreads();
    float nv = threadIdx.y > 0 ? t[threadIdx.y - 1][threadIdx.x] : (y > 0 ? temp[i - n] : c);
    float sv = threadIdx.y < B - 1 ? t[threadIdx.y + 1][threadIdx.x] : (y < n - 1 ? temp[i + n] : c);
    float wv = threadIdx.x > 0 ? t[threadIdx.y][threadIdx.x - 1] : (x > 0 ? temp[i - 1] : c);
    float ev = threadIdx.x < B - 1 ? t[threadIdx.y][threadIdx.x + 1] : (x < n - 1 ? temp[i + 1] : c);
    out[i] = HS_CELL(c, nv, sv, ev, wv, power[i]);
}

int main()
{
    size_t bytes = (size_t)N * N * sizeof(float);
    float *power = (float *)malloc(bytes), *temp = (float *)malloc(bytes), *out = (float *)malloc(bytes);
    uint32_t s = 23;
    for (int i = 0; i < N * N; ++i) {
        temp[i] = 300.0f + bench_below(&s, 40);
        power[i] = bench_below(&s, 100) / 100.0f;
    }
    float *dp, *d0, *d1;
    CHECK(cudaMalloc(&dp, bytes));
    CHECK(cudaMalloc(&d0, bytes));
    CHECK(cudaMalloc(&d1, bytes));
    CHECK(cudaMemcpy(dp, power, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d0, temp, bytes, cudaMemcpyHostToDevice));
    dim3 block(B, B), grid(N / B, N / B);
    hotspot_step<<<grid, block>>>(dp, d0, d1, N); // warm-up
    BenchTimer t;
    t.begin();
    for (int r = 0; r < STEPS; ++r) {
        hotspot_step<<<grid, block>>>(dp, d0, d1, N);
        float *tmp = d0; d0 = d1; d1 = tmp;
    }
    double ms = t.end();
    CHECK(cudaMemcpy(out, d0, bytes, cudaMemcpyDeviceToHost));

    float *a = (float *)malloc(bytes), *b = (float *)malloc(bytes);
    for (int i = 0; i < N * N; ++i) a[i] = temp[i];
    for (int r = 0; r < STEPS; ++r) {
        for (int y = 0; y < N; ++y)
            for (int x = 0; x < N; ++x) {
                int i = y * N + x;
                float c = a[i];
                b[i] = HS_CELL(c, y > 0 ? a[i - N] : c, y < N - 1 ? a[i + N] : c, x < N - 1 ? a[i + 1] : c,
                               x > 0 ? a[i - 1] : c, power[i]);
            }
        float *tmp = a; a = b; b = tmp;
    }
    int ok = 1;
    double sum = 0;
    for (int i = 0; i < N * N; ++i) {
        if (fabsf(out[i] - a[i]) > 1e-3f) ok = 0;
        sum += out[i];
    }
    bench_report("hotspot", ms, sum, ok);
    return ok ? 0 : 1;
}
