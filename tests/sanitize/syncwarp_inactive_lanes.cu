// Seeded bug: __syncwarp with a full mask inside a branch only half the warp takes (synccheck).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void half(int *out) {
    __shared__ int s[32];
    unsigned lane = threadIdx.x;
    s[lane] = lane;
    if (lane < 16) {
        __syncwarp(0xffffffffu);
        out[lane] = s[lane + 16];
    }
}

int main() {
    int *out;
    cudaMalloc(&out, 32 * sizeof(int));
    half<<<1, 32>>>(out);
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(out);
    return 0;
}
