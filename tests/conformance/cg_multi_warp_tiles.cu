// Cooperative-groups tiles larger than a warp (64, 128, 256 threads): sizes and ranks,
// cg::reduce, cg::inclusive_scan and cg::exclusive_scan over each tile, with and without
// block_tile_memory, next to 32-thread tiles. Expected output: nvcc 13, H100.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

template <unsigned Size>
__device__ void tileWork(cg::thread_block cta, long long *out, int which) {
    auto tile = cg::tiled_partition<Size>(cta);
    long long v = (long long)(threadIdx.x * 7 % 23) + 1;
    long long sum = cg::reduce(tile, v, cg::plus<long long>());
    long long mx = cg::reduce(tile, v, cg::greater<long long>());
    long long in = cg::inclusive_scan(tile, v);
    long long ex = cg::exclusive_scan(tile, v, cg::plus<long long>());
    tile.sync();
    long long *o = out + which * 6 * 256;
    o[threadIdx.x] = sum;
    o[256 + threadIdx.x] = mx;
    o[512 + threadIdx.x] = in;
    o[768 + threadIdx.x] = ex;
    o[1024 + threadIdx.x] = tile.thread_rank();
    o[1280 + threadIdx.x] = tile.meta_group_rank() * 1000 + tile.meta_group_size() * 10 + (tile.size() == Size);
}

__global__ void withScratch(long long *out) {
    __shared__ cg::block_tile_memory<256> scratch;
    cg::thread_block cta = cg::this_thread_block(scratch);
    tileWork<64>(cta, out, 0);
    tileWork<128>(cta, out, 1);
}

__global__ void withoutScratch(long long *out) {
    cg::thread_block cta = cg::this_thread_block();
    tileWork<256>(cta, out, 2);
    tileWork<32>(cta, out, 3);
}

int main() {
    long long *d;
    const int n = 4 * 6 * 256;
    cudaMalloc(&d, n * sizeof(long long));
    withScratch<<<2, 256>>>(d);
    withoutScratch<<<2, 256>>>(d);
    static long long h[n];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    const char *names[] = {"64", "128", "256", "32"};
    const char *what[] = {"sum", "max", "inclusive", "exclusive", "rank", "meta"};
    for (int w = 0; w < 4; ++w)
        for (int q = 0; q < 6; ++q) {
            long long *o = h + (w * 6 + q) * 256;
            unsigned long long hash = 1469598103934665603ull;
            for (int i = 0; i < 256; ++i) hash = (hash ^ (unsigned long long)o[i]) * 1099511628211ull;
            printf("tile %s %s: [0]=%lld [63]=%lld [64]=%lld [200]=%lld [255]=%lld hash=%016llx\n", names[w], what[q], o[0], o[63],
                   o[64], o[200], o[255], hash);
        }
    return 0;
}
