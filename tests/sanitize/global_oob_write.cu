// Seeded bug: a global write one past the end of an allocation (memcheck).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill(int *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        a[i] = i;
}

int main() {
    const int n = 1000;
    int *a;
    cudaMalloc(&a, n * sizeof(int));
    fill<<<4, 256>>>(a, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(a);
    return 0;
}
