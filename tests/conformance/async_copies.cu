// cuda::pipeline (thread scope), cuda::memcpy_async with pipelines and barriers,
// cuda::barrier<thread_scope_block> (arrive/wait, arrive_and_wait), and the pipeline
// primitives of cuda_pipeline.h. Expected output from nvcc 13 on an H100.
#include <cstdio>
#include <cuda/pipeline>
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <cuda/std/type_traits>

#define TILE 64

__global__ void pipelined_sum(const float *in, float *out, int n) {
    __shared__ float stage[2][TILE];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    float acc = 0;
    int tiles = n / TILE;
    // Prefetch the first tile, then overlap the next copy with this tile's work.
    pipe.producer_acquire();
    cuda::memcpy_async(&stage[0][threadIdx.x], &in[threadIdx.x], sizeof(float), pipe);
    pipe.producer_commit();
    for (int t = 0; t < tiles; t++) {
        if (t + 1 < tiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(&stage[(t + 1) % 2][threadIdx.x], &in[(t + 1) * TILE + threadIdx.x], cuda::aligned_size_t<4>(sizeof(float)), pipe);
            pipe.producer_commit();
        }
        cuda::pipeline_consumer_wait_prior<1>(pipe);
        if (t + 1 == tiles) pipe.consumer_wait();
        __syncthreads();
        acc += stage[t % 2][(threadIdx.x + 1) % TILE] * (t + 1);
        pipe.consumer_release();
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}

__global__ void barrier_reduce(const int *in, int *out) {
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int buf[128];
    __shared__ int sums[4];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    cuda::memcpy_async(&buf[threadIdx.x], &in[blockIdx.x * 128 + threadIdx.x], sizeof(int), bar);
    bar.arrive_and_wait();
    int v = buf[(threadIdx.x * 7) % 128];
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0) sums[threadIdx.x / 32] = v;
    auto token = bar.arrive();
    bar.wait(static_cast<cuda::barrier<cuda::thread_scope_block>::arrival_token &&>(token));
    if (threadIdx.x == 0) out[blockIdx.x] = sums[0] + sums[1] + sums[2] + sums[3];
}

__global__ void primitives(const int4 *in, int4 *out) {
    __shared__ int4 s[32];
    __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(int4), threadIdx.x % 4 == 3 ? 8 : 0);
    __pipeline_commit();
    __pipeline_wait_prior(0);
    __syncthreads();
    int4 v = s[31 - threadIdx.x];
    out[threadIdx.x] = make_int4(v.x + 1, v.y + 1, v.z + 1, v.w + 1);
}

int main() {
    static_assert(cuda::std::is_same<int, int>::value, "cuda::std type traits");
    const int n = 4 * TILE;
    float *in, *out;
    cudaMallocManaged(&in, n * sizeof(float));
    cudaMallocManaged(&out, TILE * sizeof(float));
    for (int i = 0; i < n; i++) in[i] = (float)(i % 17) - 3.0f;
    pipelined_sum<<<1, TILE>>>(in, out, n);
    printf("pipelined_sum: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    float total = 0;
    for (int i = 0; i < TILE; i++) total += out[i] * (i + 1);
    printf("  weighted %.1f out[0] %.1f out[63] %.1f\n", total, out[0], out[TILE - 1]);

    int *iin, *iout;
    cudaMallocManaged(&iin, 3 * 128 * sizeof(int));
    cudaMallocManaged(&iout, 3 * sizeof(int));
    for (int i = 0; i < 3 * 128; i++) iin[i] = i * 3 % 101;
    barrier_reduce<<<3, 128>>>(iin, iout);
    cudaError_t e = cudaDeviceSynchronize();
    printf("barrier_reduce: %s %d %d %d\n", cudaGetErrorString(e), iout[0], iout[1], iout[2]);

    int4 *vin, *vout;
    cudaMallocManaged(&vin, 32 * sizeof(int4));
    cudaMallocManaged(&vout, 32 * sizeof(int4));
    for (int i = 0; i < 32; i++) vin[i] = make_int4(i, 2 * i, 3 * i, 4 * i);
    primitives<<<1, 32>>>(vin, vout);
    printf("primitives: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    for (int i = 0; i < 32; i += 5) printf("  %d: %d %d %d %d\n", i, vout[i].x, vout[i].y, vout[i].z, vout[i].w);
    return 0;
}
