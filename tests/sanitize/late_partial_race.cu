// Seeded bug: the "last block" reduction with each block's partial sum written after it
// takes its ticket. The atomic orders only what came before it, so the last block may
// read a partial sum that is not written yet (racecheck, global memory: Cuprite only).
#include <cstdio>
#include <cuda_runtime.h>

__device__ unsigned int ticket = 0;

__global__ void sum(const int *in, int *partial, int *result) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        unsigned int my = atomicInc(&ticket, gridDim.x);
        partial[blockIdx.x] = in[blockIdx.x];
        last = (my == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int acc = 0;
        for (unsigned int b = 0; b < gridDim.x; b++)
            acc += partial[b];
        *result = acc;
    }
}

int main() {
    const int blocks = 16;
    int h[blocks], *in, *partial, *result;
    for (int i = 0; i < blocks; i++)
        h[i] = i + 1;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&partial, sizeof h);
    cudaMalloc(&result, sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(partial, 0, sizeof h);
    cudaMemset(result, 0, sizeof(int));
    sum<<<blocks, 64>>>(in, partial, result);
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    int r = 0;
    cudaMemcpy(&r, result, sizeof r, cudaMemcpyDeviceToHost);
    printf("sum is at most 136: %s\n", r <= 136 ? "yes" : "no");
    cudaFree(in);
    cudaFree(partial);
    cudaFree(result);
    return 0;
}
