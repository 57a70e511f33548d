// Seeded bug: an allocation never freed (memcheck --leak-check full).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void set(int *a) { a[threadIdx.x] = threadIdx.x; }

int main() {
    int *kept, *freed;
    cudaMalloc(&kept, 1024);
    cudaMalloc(&freed, 512);
    set<<<1, 64>>>(kept);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(freed);
    return 0;
}
