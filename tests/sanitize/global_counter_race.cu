// Seeded bug: a global counter incremented without an atomic by every block (racecheck).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void count(int *counter) {
    if (threadIdx.x == 0)
        *counter = *counter + 1;
}

int main() {
    int *counter, h = 0;
    cudaMalloc(&counter, sizeof(int));
    cudaMemset(counter, 0, sizeof(int));
    count<<<8, 32>>>(counter);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaMemcpy(&h, counter, sizeof(int), cudaMemcpyDeviceToHost);
    printf("counter is at most 8: %s\n", h <= 8 ? "yes" : "no");
    cudaFree(counter);
    return 0;
}
