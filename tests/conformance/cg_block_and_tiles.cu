// Cooperative groups: thread_block (ranks, sizes, indices, sync, cg::sync), a block
// passed as a generic thread_group, static tiles of 1, 2, 4, 8, 16 and 32 threads
// (thread_rank, size, meta_group_rank/size, shfl, shfl_up, shfl_down, shfl_xor, any,
// all, ballot, match_any, match_all), a tile of a tile, and cg::reduce with plus, less,
// greater, bit_and, bit_or and bit_xor.
// Expected output captured with nvcc 13.0 -arch=sm_90 on an NVIDIA H100.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

#define CHECK(x)                                                                     \
    do {                                                                             \
        cudaError_t e = (x);                                                         \
        if (e != cudaSuccess) {                                                      \
            printf("%s failed: %s\n", #x, cudaGetErrorString(e));                   \
            return 1;                                                                \
        }                                                                            \
    } while (0)

// One row of 8 ints per thread.
__global__ void block_info(int *out) {
    cg::thread_block b = cg::this_thread_block();
    int *o = out + 8 * (blockIdx.x * b.size() + b.thread_rank());
    o[0] = (int)b.thread_rank();
    o[1] = (int)b.size();
    o[2] = (int)b.num_threads();
    o[3] = (int)(b.group_index().x * 10 + b.group_index().y);
    o[4] = (int)(b.thread_index().x * 100 + b.thread_index().y * 10 + b.thread_index().z);
    dim3 d = b.dim_threads();
    dim3 g = b.group_dim();
    o[5] = (int)(d.x * 100 + d.y * 10 + d.z);
    o[6] = (int)(g.x * 100 + g.y * 10 + g.z);
    o[7] = 0;
}

// A generic group: rank and size through thread_group, a barrier through it.
__device__ int generic_rank(const cg::thread_group &g, int *shared) {
    shared[g.thread_rank()] = (int)g.thread_rank() * 3;
    g.sync();
    unsigned long long n = g.size();
    return shared[(g.thread_rank() + 1) % n] + (int)g.size() * 1000;
}

__global__ void generic(int *out) {
    __shared__ int s[96];
    cg::thread_block b = cg::this_thread_block();
    out[b.thread_rank()] = generic_rank(b, s);
}

// Shared-memory exchange across the block with block.sync() and cg::sync(block).
__global__ void reverse(int *out) {
    __shared__ int s[128];
    cg::thread_block b = cg::this_thread_block();
    unsigned r = b.thread_rank();
    s[r] = (int)r * 7;
    b.sync();
    int v = s[127 - r];
    cg::sync(b);
    s[r] = v + 1;
    cg::sync(b);
    out[r] = s[(r + 64) % 128];
}

template <unsigned N>
__device__ void tile_ops(int *o, const cg::thread_block &b) {
    cg::thread_block_tile<N> t = cg::tiled_partition<N>(b);
    int v = (int)(b.thread_rank() * 5 + 1);
    o[0] = (int)t.thread_rank();
    o[1] = (int)t.size();
    o[2] = (int)t.num_threads();
    o[3] = (int)t.meta_group_rank();
    o[4] = (int)t.meta_group_size();
    o[5] = t.shfl(v, (int)(N - 1));
    o[6] = t.shfl_up(v, 1);
    o[7] = t.shfl_down(v, 1);
    o[8] = t.shfl_xor(v, N > 1 ? 1 : 0);
    o[9] = t.any(b.thread_rank() % 8 == 3);
    o[10] = t.all(b.thread_rank() % 2 == 0);
    o[11] = (int)t.ballot(b.thread_rank() % 3 == 0);
    o[12] = (int)t.match_any((int)(b.thread_rank() / 3));
    int pred = -1;
    o[13] = (int)t.match_all(7, pred);
    o[14] = pred;
    int pred2 = -1;
    o[15] = (int)t.match_all((int)(b.thread_rank() & 1), pred2);
    o[16] = pred2;
    t.sync();
    cg::sync(t);
    o[17] = cg::reduce(t, v, cg::plus<int>());
    o[18] = cg::reduce(t, (int)((b.thread_rank() * 37) % 101), cg::less<int>());
    o[19] = cg::reduce(t, (int)((b.thread_rank() * 37) % 101), cg::greater<int>());
    o[20] = (int)cg::reduce(t, 0xffffu ^ (1u << (b.thread_rank() % 16)), cg::bit_and<unsigned>());
    o[21] = (int)cg::reduce(t, 1u << (b.thread_rank() % 16), cg::bit_or<unsigned>());
    o[22] = (int)cg::reduce(t, (unsigned)(b.thread_rank() * 11), cg::bit_xor<unsigned>());
    o[23] = (int)cg::reduce(t, (float)(b.thread_rank() % 10) * 0.5f, cg::plus<float>());
}

// One row of 24 ints per thread and tile size.
__global__ void tiles(int *out) {
    cg::thread_block b = cg::this_thread_block();
    int *o = out + 24 * 6 * b.thread_rank();
    tile_ops<1>(o, b);
    tile_ops<2>(o + 24, b);
    tile_ops<4>(o + 48, b);
    tile_ops<8>(o + 72, b);
    tile_ops<16>(o + 96, b);
    tile_ops<32>(o + 120, b);
}

// Tiles of a tile: meta_group_rank counts within the parent tile.
__global__ void tile_of_tile(int *out) {
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(b);
    cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(t32);
    auto t16 = cg::tiled_partition<16>(t32);
    int *o = out + 6 * b.thread_rank();
    o[0] = (int)t4.thread_rank();
    o[1] = (int)t4.meta_group_rank();
    o[2] = (int)t4.meta_group_size();
    o[3] = (int)t16.meta_group_rank();
    o[4] = (int)t16.meta_group_size();
    o[5] = t4.shfl((int)b.thread_rank(), 2);
}

// A warp reduction with shfl_down, the cuda-samples way, and tile meta ranks.
__global__ void warp_sums(const int *in, int *sums, int n) {
    __shared__ int partial[8];
    cg::thread_block b = cg::this_thread_block();
    cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(b);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int off = tile32.size() / 2; off > 0; off /= 2) v += tile32.shfl_down(v, off);
    if (tile32.thread_rank() == 0) partial[tile32.meta_group_rank()] = v;
    b.sync();
    if (tile32.meta_group_rank() == 0) {
        v = tile32.thread_rank() < tile32.meta_group_size() ? partial[tile32.thread_rank()] : 0;
        v = cg::reduce(tile32, v, cg::plus<int>());
        if (tile32.thread_rank() == 0) sums[blockIdx.x] = v;
    }
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
    CHECK(cudaMalloc(&d, 128 * 24 * 6 * sizeof(int)));
    static int h[128 * 24 * 6];

    block_info<<<dim3(3), dim3(4, 2, 3)>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, 3 * 24 * 8 * sizeof(int), cudaMemcpyDeviceToHost));
    print_rows("block", h, 72, 8, 5);

    generic<<<1, 96>>>(d);
    CHECK(cudaMemcpy(h, d, 96 * sizeof(int), cudaMemcpyDeviceToHost));
    print_rows("generic", h, 96, 1, 19);

    reverse<<<1, 128>>>(d);
    CHECK(cudaMemcpy(h, d, 128 * sizeof(int), cudaMemcpyDeviceToHost));
    print_rows("reverse", h, 8, 16, 1);

    tiles<<<1, 128>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, 128 * 24 * 6 * sizeof(int), cudaMemcpyDeviceToHost));
    const char *names[6] = {"tile1", "tile2", "tile4", "tile8", "tile16", "tile32"};
    for (int s = 0; s < 6; ++s) {
        for (int r = 0; r < 128; r += 13) {
            printf("%s[%3d]:", names[s], r);
            for (int c = 0; c < 24; ++c) printf(" %d", h[r * 144 + s * 24 + c]);
            printf("\n");
        }
    }

    tile_of_tile<<<1, 64>>>(d);
    CHECK(cudaMemcpy(h, d, 64 * 6 * sizeof(int), cudaMemcpyDeviceToHost));
    print_rows("tile_of_tile", h, 64, 6, 7);

    const int n = 1000;
    int *in, *sums;
    CHECK(cudaMallocManaged(&in, n * sizeof(int)));
    CHECK(cudaMallocManaged(&sums, 4 * sizeof(int)));
    for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1000 - 300;
    warp_sums<<<4, 256>>>(in, sums, n);
    CHECK(cudaDeviceSynchronize());
    printf("warp_sums: %d %d %d %d\n", sums[0], sums[1], sums[2], sums[3]);
    CHECK(cudaFree(in));
    CHECK(cudaFree(sums));
    CHECK(cudaFree(d));
    printf("done\n");
    return 0;
}
