// Seeded bug: cudaFree of a pointer that is not an allocation's base, and a cudaMemcpy
// from a freed pointer (memcheck reports the API errors).
#include <cstdio>
#include <cuda_runtime.h>

int main() {
    int *a, h[4];
    cudaMalloc(&a, 64);
    cudaError_t e1 = cudaFree(a + 1);
    printf("free interior: %s\n", cudaGetErrorName(e1));
    cudaFree(a);
    cudaError_t e2 = cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
    printf("copy from freed: %s\n", cudaGetErrorName(e2));
    return 0;
}
