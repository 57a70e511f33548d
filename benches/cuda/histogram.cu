// 256-bin histogram of 16M bytes: each block counts into a shared-memory histogram with
// shared atomics, then adds it to the global one with global atomics.
#include "../common/cuda_check.h"

#define N (1 << 24)
#define BINS 256
#define REPS 2

__global__ void histogram_shared(const unsigned char *data, int n, unsigned int *hist)
{
    __shared__ unsigned int local[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        atomicAdd(&hist[b], local[b]);
}

int main()
{
    unsigned char *data = (unsigned char *)malloc(N);
    uint32_t s = 9;
    for (int i = 0; i < N; ++i) {
        // skewed: low bins are hot, as in image data
        uint32_t r = bench_rand(&s);
        data[i] = (unsigned char)((r & 0xff) & ((r >> 8) & 0xff));
    }
    unsigned char *ddata;
    unsigned int *dhist;
    CHECK(cudaMalloc(&ddata, N));
    CHECK(cudaMalloc(&dhist, BINS * sizeof(unsigned int)));
    CHECK(cudaMemcpy(ddata, data, N, cudaMemcpyHostToDevice));
    histogram_shared<<<512, 256>>>(ddata, N, dhist); // warm-up
    BenchTimer t;
    t.begin();
    for (int r = 0; r < REPS; ++r) {
        CHECK(cudaMemsetAsync(dhist, 0, BINS * sizeof(unsigned int)));
        histogram_shared<<<512, 256>>>(ddata, N, dhist);
    }
    double ms = t.end();
    unsigned int hist[BINS], want[BINS] = {0};
    CHECK(cudaMemcpy(hist, dhist, sizeof hist, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; ++i) want[data[i]]++;
    int ok = 1;
    double sum = 0;
    for (int b = 0; b < BINS; ++b) {
        if (hist[b] != want[b]) ok = 0;
        sum += (double)hist[b] * (b + 1);
    }
    bench_report("histogram", ms, sum, ok);
    return ok ? 0 : 1;
}
