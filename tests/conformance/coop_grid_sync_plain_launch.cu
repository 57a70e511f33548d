// grid.sync() in a kernel launched with <<<>>> (not cooperatively): the kernel fails
// instead of hanging, and the error is sticky. Expected output captured with nvcc 13
// -arch=sm_90 on an NVIDIA H100.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void needs_grid(int *out) {
    cg::grid_group g = cg::this_grid();
    out[g.thread_rank()] = 1;
    g.sync();
    out[g.thread_rank()] += out[(g.thread_rank() + 1) % g.size()];
}

int main() {
    int *out;
    cudaMalloc(&out, 4 * 128 * sizeof(int));
    needs_grid<<<4, 128>>>(out);
    printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaError_t e = cudaDeviceSynchronize();
    printf("synchronize: %s\n", cudaGetErrorName(e));
    printf("afterwards: %s\n", cudaGetErrorName(cudaMemset(out, 0, 4)));
    return 0;
}
