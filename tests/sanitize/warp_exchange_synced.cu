// A correct program: lanes of one warp exchange values through shared memory, ordered by
// __syncwarp() (a full mask, and a partial one naming exactly the lanes that meet).
// Every tool must report 0 hazards and 0 errors.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void rotate(const int *in, int *out) {
    __shared__ int s[64], u[64];
    unsigned t = threadIdx.x, lane = t % 32, base = t - lane;
    s[t] = in[t];
    __syncwarp();
    int v = s[base + (lane + 1) % 32];
    __syncwarp();
    s[t] = v * 2;
    __syncwarp();
    v += s[base + (lane + 31) % 32];
    if (lane < 16) {
        u[t] = v;
        __syncwarp(0x0000ffffu);
        v += u[base + (lane ^ 1)];
    }
    out[t] = v;
}

int main() {
    int h[64], *in, *out;
    for (int i = 0; i < 64; i++)
        h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    rotate<<<1, 64>>>(in, out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    long sum = 0;
    for (int i = 0; i < 64; i++)
        sum += (long)h[i] * (i + 1);
    printf("sum = %ld\nsync: %s\n", sum, cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
    return 0;
}
