// Seeded bug: __syncthreads() inside if (threadIdx.x < 96) in a block of 128 (synccheck).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void partial(int *out) {
    __shared__ int s[128];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 96) {
        __syncthreads();
        out[threadIdx.x] = s[127 - threadIdx.x];
    }
}

int main() {
    int *out;
    cudaMalloc(&out, 128 * sizeof(int));
    partial<<<1, 128>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(out);
    return 0;
}
