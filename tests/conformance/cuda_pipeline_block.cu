// Block-scope cuda::pipeline over a pipeline_shared_state: a unified pipeline (every
// thread produces and consumes, cuda::make_pipeline(block, &state)), one partitioned by
// role (one warp copies tiles with cuda::memcpy_async, the others compute;
// make_pipeline(block, &state, role)) and one partitioned by a producer count, with
// more tiles than stages so that producers wait for consumers to release. Expected
// output captured with nvcc 13 -arch=sm_90 on an NVIDIA H100.
#include <cstdio>
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr int TILE = 64, STAGES = 3;

// Unified: each thread copies its element of the next tiles ahead, then sums the tile.
__global__ void unified(const int *in, long long *out, int ntiles) {
    __shared__ int tiles[STAGES][TILE];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    long long acc = 0;
    int fetched = 0;
    for (int t = 0; t < ntiles; t++) {
        for (; fetched < ntiles && fetched < t + STAGES; fetched++) {
            pipe.producer_acquire();
            cuda::memcpy_async(&tiles[fetched % STAGES][threadIdx.x], &in[fetched * TILE + threadIdx.x], sizeof(int), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        for (int i = 0; i < TILE; i++) acc += (long long)tiles[t % STAGES][i] * (threadIdx.x + 1);
        pipe.consumer_release();
    }
    out[threadIdx.x] = acc;
}

// Partitioned: warp 0 produces (whole tiles with the group form of memcpy_async), the
// rest consume. `by_count` picks the producers with a count instead of a role.
template <bool by_count>
__global__ void partitioned(const int *in, long long *out, int ntiles) {
    __shared__ int tiles[STAGES][TILE];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    auto block = cg::this_thread_block();
    bool producer = threadIdx.x < 32;
    cuda::pipeline<cuda::thread_scope_block> pipe =
        by_count ? cuda::make_pipeline(block, &state, (size_t)32)
                 : cuda::make_pipeline(block, &state, producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer);
    if (producer) {
        for (int t = 0; t < ntiles; t++) {
            pipe.producer_acquire();
            for (int i = threadIdx.x; i < TILE; i += 32)
                cuda::memcpy_async(&tiles[t % STAGES][i], &in[t * TILE + i], sizeof(int), pipe);
            pipe.producer_commit();
        }
    } else {
        long long acc = 0;
        for (int t = 0; t < ntiles; t++) {
            pipe.consumer_wait();
            acc += tiles[t % STAGES][(threadIdx.x * 3 + t) % TILE] * (long long)(t + 1);
            pipe.consumer_release();
        }
        out[threadIdx.x] = acc;
    }
}

int main() {
    const int ntiles = 10;
    int *in;
    long long *out;
    cudaMallocManaged(&in, ntiles * TILE * sizeof(int));
    cudaMallocManaged(&out, 256 * sizeof(long long));
    for (int i = 0; i < ntiles * TILE; i++) in[i] = (i * 13) % 97 - 40;

    unified<<<1, TILE>>>(in, out, ntiles);
    printf("unified: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    long long total = 0;
    for (int i = 0; i < ntiles * TILE; i++) total += in[i];
    int bad = 0;
    for (int t = 0; t < TILE; t++) bad += out[t] != total * (t + 1);
    printf("  out[0] %lld out[63] %lld mismatches %d\n", out[0], out[63], bad);

    partitioned<false><<<1, 96>>>(in, out, ntiles);
    printf("by role: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    long long s = 0;
    for (int t = 32; t < 96; t++) s += out[t] * (t % 5 + 1);
    printf("  out[32] %lld out[95] %lld checksum %lld\n", out[32], out[95], s);

    for (int t = 0; t < 96; t++) out[t] = 0;
    partitioned<true><<<1, 96>>>(in, out, ntiles);
    printf("by count: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    long long s2 = 0;
    for (int t = 32; t < 96; t++) s2 += out[t] * (t % 5 + 1);
    printf("  checksum %lld (%s)\n", s2, s2 == s ? "same" : "differs");
    return 0;
}
