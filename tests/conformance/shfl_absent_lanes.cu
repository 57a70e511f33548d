// Shuffles whose source lane is in the reader's segment but not there: diverged away
// (the second reduction of cuda-samples reduction's reduce7 on pre-8.0 targets, with
// the mask from __ballot_sync), or past the end of a partial warp. The H100 gives 0 for
// them; a source outside the segment (shfl_down past lane 31) gives the reader's own
// value, as CUDA documents. Expected output: nvcc 13, H100.
#include <cstdio>

__global__ void diverged(int *o) {
    int tid = threadIdx.x;
    int x = tid * 10 + 1;
    unsigned m = __ballot_sync(0xffffffff, tid < 8);
    if (tid < 8) {
        x += __shfl_down_sync(m, x, 16);
        x += __shfl_down_sync(m, x, 4);
        x += __shfl_xor_sync(m, x, 9);
    }
    o[tid] = x;
}

__global__ void partialWarp(int *o) {
    int tid = threadIdx.x; // 20 threads: lanes 20..31 do not exist
    int x = tid + 100;
    int a = __shfl_down_sync(0xfffff, x, 8);
    int b = __shfl_sync(0xfffff, x, tid + 12);
    int c = __shfl_down_sync(0xfffff, x, 16, 16);
    o[3 * tid] = a;
    o[3 * tid + 1] = b;
    o[3 * tid + 2] = c;
}

int main() {
    int *d, h[64];
    cudaMalloc(&d, sizeof h);
    diverged<<<1, 64>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("diverged:");
    for (int i = 0; i < 12; ++i) printf(" %d", h[i]);
    printf("\n");
    partialWarp<<<1, 20>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("partial warp:");
    for (int i = 0; i < 60; ++i) printf(" %d", h[i]);
    printf("\n%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
