// Odd and even lanes wait at two different barriers (synccheck's report layout).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void pair(int *o) {
    if (threadIdx.x & 1) {
        __syncthreads();
        o[threadIdx.x] = 1;
    } else {
        __syncthreads();
        o[threadIdx.x] = 2;
    }
}

int main() {
    int *o;
    cudaMalloc(&o, 64 * sizeof(int));
    pair<<<1, 64>>>(o);
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
