// Correct partial masks: each names exactly the lanes that reach the collective (0 errors).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void lanes(const int *in, int *out) {
    unsigned lane = threadIdx.x;
    int v = in[lane];
    if (lane < 16) {
        v += __shfl_down_sync(0x0000ffffu, v, 1);
        __syncwarp(0x0000ffffu);
    } else {
        v += __any_sync(0xffff0000u, v > 20);
    }
    out[lane] = v + __ballot_sync(__activemask(), v & 1);
}

int main() {
    int h[32], *in, *out;
    for (int i = 0; i < 32; i++)
        h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    lanes<<<1, 32>>>(in, out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    printf("%d %d %d %d\n", h[0], h[15], h[16], h[31]);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
