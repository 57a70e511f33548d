// Seeded bug: every lane calls __syncwarp with a mask that leaves out lanes 16..31 (synccheck).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void partial(int *out) {
    __shared__ int s[32];
    unsigned lane = threadIdx.x;
    s[lane] = lane;
    __syncwarp(0x0000ffffu);
    out[lane] = s[lane ^ 1];
}

int main() {
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    partial<<<1, 32>>>(out);
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(out);
    return 0;
}
