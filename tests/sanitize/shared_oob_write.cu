// Seeded bug: a shared-array write one past the end (memcheck).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shift(int *out) {
    __shared__ int s[128];
    s[threadIdx.x + 1] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

int main() {
    int *out;
    cudaMalloc(&out, 128 * sizeof(int));
    shift<<<1, 128>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(out);
    return 0;
}
