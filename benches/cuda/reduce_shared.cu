// Sum of 16M ints: the classic shared-memory tree reduction (grid-stride loads, one partial
// per block, a second launch reduces the partials).
#include "../common/cuda_check.h"

#define N (1 << 24)
#define REPS 3
#define THREADS 256
#define BLOCKS 1024

__global__ void reduce_tree(const int *in, int *out, int n)
{
    __shared__ int buf[THREADS];
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i];
    buf[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = buf[0];
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

    reduce_tree<<<BLOCKS, THREADS>>>(din, dpart, N); // warm-up
    BenchTimer t;
    t.begin();
    for (int r = 0; r < REPS; ++r) {
        reduce_tree<<<BLOCKS, THREADS>>>(din, dpart, N);
        reduce_tree<<<1, THREADS>>>(dpart, dsum, BLOCKS);
    }
    double ms = t.end();
    int got;
    CHECK(cudaMemcpy(&got, dsum, sizeof(int), cudaMemcpyDeviceToHost));
    bench_report("reduce_shared", ms, got, got == want);
    return got == want ? 0 : 1;
}
