// Cooperative groups: grid_group from this_grid() without grid-wide sync (thread_rank,
// size, num_threads, num_blocks, block_rank, block_index, group_dim, dim_blocks,
// is_valid of a cooperative launch), from a <<<>>> launch and from cudaLaunchCooperativeKernel, and the
// cudaDevAttrCooperativeLaunch attribute.
// Expected output captured with nvcc 13.0 -arch=sm_90 on an NVIDIA H100.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CHECK(x)                                                                     \
    do {                                                                             \
        cudaError_t e = (x);                                                         \
        if (e != cudaSuccess) {                                                      \
            printf("%s failed: %s\n", #x, cudaGetErrorString(e));                   \
            return 1;                                                                \
        }                                                                            \
    } while (0)

__global__ void grid_info(unsigned long long *out, int *valid) {
    cg::grid_group g = cg::this_grid();
    unsigned long long *o = out + 8 * g.thread_rank();
    o[0] = g.thread_rank();
    o[1] = g.size();
    o[2] = g.num_threads();
    o[3] = g.num_blocks();
    o[4] = g.block_rank();
    dim3 bi = g.block_index();
    o[5] = bi.x * 100 + bi.y * 10 + bi.z;
    dim3 gd = g.group_dim();
    dim3 db = g.dim_blocks();
    o[6] = gd.x * 100 + gd.y * 10 + gd.z;
    o[7] = db.x * 100 + db.y * 10 + db.z;
    if (g.thread_rank() == 0) *valid = g.is_valid() ? 1 : 0;
}

int main() {
    int coop = -1;
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
    printf("cooperative launch attribute: %d\n", coop);
    unsigned long long *d;
    int *valid;
    const int total = 3 * 2 * 16;
    CHECK(cudaMallocManaged(&d, total * 8 * sizeof(unsigned long long)));
    CHECK(cudaMallocManaged(&valid, sizeof(int)));
    for (int launch = 0; launch < 2; ++launch) {
        *valid = -1;
        for (int i = 0; i < total * 8; ++i) d[i] = 0;
        dim3 grid(3, 2), block(8, 2);
        if (launch == 0) {
            grid_info<<<grid, block>>>(d, valid);
        } else {
            void *args[] = {&d, &valid};
            CHECK(cudaLaunchCooperativeKernel((void *)grid_info, grid, block, args, 0, 0));
        }
        CHECK(cudaDeviceSynchronize());
        // is_valid() is only printed for the cooperative launch (an H100 with CUDA 13 answers true for both).
        if (launch == 0) printf("<<<>>>\n");
        else printf("cooperative: is_valid %d\n", *valid);
        for (int r = 0; r < total; r += 7) {
            printf("  rank %3d:", r);
            for (int c = 0; c < 8; ++c) printf(" %llu", d[8 * r + c]);
            printf("\n");
        }
    }
    CHECK(cudaFree(d));
    CHECK(cudaFree(valid));
    printf("done\n");
    return 0;
}
