// Sum of 16M ints with warp shuffles: grid-stride loads, __shfl_down_sync within each warp,
// one shared slot per warp, the first warp reduces those; a second launch sums the partials.
#include "../common/cuda_check.h"

#define N (1 << 24)
#define REPS 3
#define THREADS 256
#define BLOCKS 1024

__device__ __forceinline__ int warp_sum(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

__global__ void reduce_shfl(const int *in, int *out, int n)
{
    __shared__ int warp_sums[THREADS / 32];
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    sum = warp_sum(sum);
    int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0)
        warp_sums[warp] = sum;
    __syncthreads();
    if (warp == 0) {
        sum = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
        sum = warp_sum(sum);
        if (lane == 0)
            out[blockIdx.x] = sum;
    }
}

int main()
{
    int *h = (int *)malloc(N * sizeof(int));
    uint32_t s = 7;
    long long want = 0;
    for (int i = 0; i < N; ++i) {
        h[i] = (int)bench_below(&s, 16) - 7;
        want += h[i];
    }
    int *din, *dpart, *dsum;
    CHECK(cudaMalloc(&din, N * sizeof(int)));
    CHECK(cudaMalloc(&dpart, BLOCKS * sizeof(int)));
    CHECK(cudaMalloc(&dsum, sizeof(int)));
    CHECK(cudaMemcpy(din, h, N * sizeof(int), cudaMemcpyHostToDevice));

    reduce_shfl<<<BLOCKS, THREADS>>>(din, dpart, N); // warm-up
    BenchTimer t;
    t.begin();
    for (int r = 0; r < REPS; ++r) {
        reduce_shfl<<<BLOCKS, THREADS>>>(din, dpart, N);
        reduce_shfl<<<1, THREADS>>>(dpart, dsum, BLOCKS);
    }
    double ms = t.end();
    int got;
    CHECK(cudaMemcpy(&got, dsum, sizeof(int), cudaMemcpyDeviceToHost));
    bench_report("reduce_warp", ms, got, got == want);
    return got == want ? 0 : 1;
}
