// Cooperative groups: coalesced_threads() under divergence (size, thread_rank, shfl,
// shfl_up/down, meta_group_rank/size, any, all, ballot, match_any, cg::reduce, scans), labeled_partition and
// binary_partition, cg::inclusive_scan and cg::exclusive_scan over tiles (plus, less,
// greater, bit_or), dynamic tiled_partition of a block and of a coalesced group (as
// thread_group), and cg::memcpy_async + cg::wait into shared memory.
// Expected output captured with nvcc 13.0 -arch=sm_90 on an NVIDIA H100.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

#define CHECK(x)                                                                     \
    do {                                                                             \
        cudaError_t e = (x);                                                         \
        if (e != cudaSuccess) {                                                      \
            printf("%s failed: %s\n", #x, cudaGetErrorString(e));                   \
            return 1;                                                                \
        }                                                                            \
    } while (0)

#define COLS 16

// Lanes whose rank is not a multiple of 3 form a coalesced group.
__global__ void coalesced(int *out) {
    cg::thread_block b = cg::this_thread_block();
    int r = (int)b.thread_rank();
    int *o = out + COLS * r;
    for (int c = 0; c < COLS; ++c) o[c] = -7;
    if (r % 3 != 0) {
        cg::coalesced_group a = cg::coalesced_threads();
        int v = r * 10 + 3;
        o[0] = (int)a.size();
        o[1] = (int)a.num_threads();
        o[2] = (int)a.thread_rank();
        o[3] = a.shfl(v, 0);
        o[4] = a.shfl(v, 5);
        o[5] = a.shfl_up(v, 2);
        o[6] = a.shfl_down(v, 3);
        o[7] = (int)(a.meta_group_rank() * 100 + a.meta_group_size());
        o[8] = a.any(r == 7);
        o[9] = a.all(r % 2 == 0);
        o[10] = (int)a.ballot(r % 4 == 1);
        o[11] = (int)a.match_any(r / 5);
        o[12] = cg::reduce(a, v, cg::plus<int>());
        o[13] = cg::reduce(a, (r * 13) % 17, cg::greater<int>());
        o[14] = cg::inclusive_scan(a, r);
        o[15] = cg::exclusive_scan(a, r);
        a.sync();
    }
}

// labeled_partition and binary_partition of the whole warp.
__global__ void partitions(int *out) {
    cg::thread_block b = cg::this_thread_block();
    int r = (int)b.thread_rank();
    int *o = out + 6 * r;
    cg::coalesced_group all = cg::coalesced_threads();
    cg::coalesced_group byLabel = cg::labeled_partition(all, r % 3);
    o[0] = (int)byLabel.size();
    o[1] = (int)byLabel.thread_rank();
    o[2] = cg::reduce(byLabel, r, cg::plus<int>());
    cg::coalesced_group byPred = cg::binary_partition(all, r % 5 == 2);
    o[3] = (int)byPred.size();
    o[4] = (int)byPred.thread_rank();
    o[5] = byPred.shfl(r, 1);
}

template <unsigned N>
__device__ void scans(int *o, const cg::thread_block &b) {
    cg::thread_block_tile<N> t = cg::tiled_partition<N>(b);
    int r = (int)b.thread_rank();
    int v = (r * 7) % 11 - 3;
    o[0] = cg::inclusive_scan(t, v);
    o[1] = cg::exclusive_scan(t, v);
    o[2] = cg::inclusive_scan(t, v, cg::plus<int>());
    o[3] = cg::exclusive_scan(t, v, cg::plus<int>());
    o[4] = cg::inclusive_scan(t, v, cg::less<int>());
    o[5] = cg::inclusive_scan(t, v, cg::greater<int>());
    o[6] = (int)cg::inclusive_scan(t, 1u << (r % 13), cg::bit_or<unsigned>());
    o[7] = __float_as_int(cg::inclusive_scan(t, (float)v * 0.25f));
}

__global__ void tile_scans(int *out) {
    cg::thread_block b = cg::this_thread_block();
    int *o = out + 24 * b.thread_rank();
    scans<4>(o, b);
    scans<16>(o + 8, b);
    scans<32>(o + 16, b);
}

// Dynamic tiles: of the block, and of a coalesced group.
__global__ void dynamic_tiles(int *out) {
    __shared__ int s[64];
    cg::thread_block b = cg::this_thread_block();
    int r = (int)b.thread_rank();
    int *o = out + 6 * r;
    cg::thread_group t8 = cg::tiled_partition(b, 8);
    s[r] = r * r;
    t8.sync();
    o[0] = (int)t8.thread_rank();
    o[1] = (int)t8.size();
    o[2] = s[(r ^ 7)];  // the tile's mirror thread, written before t8.sync()
    o[3] = -1;
    o[4] = -1;
    o[5] = -1;
    if (r % 2 == 1) {
        cg::coalesced_group odd = cg::coalesced_threads();
        cg::thread_group t4 = cg::tiled_partition(odd, 4);
        o[3] = (int)t4.thread_rank();
        o[4] = (int)t4.size();
        cg::coalesced_group c4 = cg::tiled_partition(odd, 4);
        o[5] = c4.shfl(r, 3) * 100 + (int)(c4.meta_group_rank() * 10 + c4.meta_group_size());
    }
}

// memcpy_async of a block's slice of global memory into shared memory, then wait.
__global__ void staged_sum(const float *in, float *out, int per_block) {
    extern __shared__ float buf[];
    cg::thread_block b = cg::this_thread_block();
    cg::memcpy_async(b, buf, in + blockIdx.x * per_block, sizeof(float) * per_block);
    cg::wait(b);
    float acc = 0.0f;
    for (int i = b.thread_rank(); i < per_block; i += b.size()) acc += buf[i] * (float)(i % 3);
    cg::thread_block_tile<32> t = cg::tiled_partition<32>(b);
    acc = cg::reduce(t, acc, cg::plus<float>());
    __shared__ float partial[32];
    if (t.thread_rank() == 0) partial[t.meta_group_rank()] = acc;
    b.sync();
    if (b.thread_rank() == 0) {
        float s = 0.0f;
        for (unsigned w = 0; w < t.meta_group_size(); ++w) s += partial[w];
        out[blockIdx.x] = s;
    }
    // The element-count form, into the second half of the buffer.
    cg::memcpy_async(b, buf + per_block, (size_t)per_block, in, (size_t)per_block);
    cg::wait(b);
    if (b.thread_rank() == 0) out[gridDim.x + blockIdx.x] = buf[per_block + 3] + buf[2 * per_block - 1];
}

static void print_rows(const char *name, const int *h, int rows, int cols, int step) {
    for (int r = 0; r < rows; r += step) {
        printf("%s[%3d]:", name, r);
        for (int c = 0; c < cols; ++c) printf(" %d", h[r * cols + c]);
        printf("\n");
    }
}

int main() {
    int *d;
    CHECK(cudaMalloc(&d, 64 * 24 * sizeof(int)));
    static int h[64 * 24];

    coalesced<<<1, 64>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, 64 * COLS * sizeof(int), cudaMemcpyDeviceToHost));
    print_rows("coalesced", h, 64, COLS, 1);

    partitions<<<1, 64>>>(d);
    CHECK(cudaMemcpy(h, d, 64 * 6 * sizeof(int), cudaMemcpyDeviceToHost));
    print_rows("partitions", h, 64, 6, 3);

    tile_scans<<<1, 64>>>(d);
    CHECK(cudaMemcpy(h, d, 64 * 24 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int r = 0; r < 64; r += 5) {
        printf("scan[%2d]:", r);
        for (int c = 0; c < 24; ++c) {
            if (c % 8 == 7) {
                float f;
                memcpy(&f, &h[r * 24 + c], sizeof f);
                printf(" %.2f", f);
            } else {
                printf(" %d", h[r * 24 + c]);
            }
        }
        printf("\n");
    }

    dynamic_tiles<<<1, 64>>>(d);
    CHECK(cudaMemcpy(h, d, 64 * 6 * sizeof(int), cudaMemcpyDeviceToHost));
    print_rows("dynamic", h, 64, 6, 3);

    const int blocks = 3, per_block = 500;
    float *in, *out;
    CHECK(cudaMallocManaged(&in, blocks * per_block * sizeof(float)));
    CHECK(cudaMallocManaged(&out, 2 * blocks * sizeof(float)));
    for (int i = 0; i < blocks * per_block; ++i) in[i] = (float)((i * 37) % 64) * 0.5f;
    staged_sum<<<blocks, 128, 2 * per_block * sizeof(float)>>>(in, out, per_block);
    CHECK(cudaDeviceSynchronize());
    for (int i = 0; i < blocks; ++i) printf("staged_sum[%d] = %.1f, %.1f\n", i, out[i], out[blocks + i]);
    CHECK(cudaFree(in));
    CHECK(cudaFree(out));
    CHECK(cudaFree(d));
    printf("done\n");
    return 0;
}
