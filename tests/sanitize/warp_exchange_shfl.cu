// Lanes of one warp exchange values through shared memory with a warp shuffle (not a
// __syncwarp) between a lane's store and its neighbour's load: whether a collective
// other than __syncwarp orders the lanes (captured on the GPU to compare).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void rotate(const int *in, int *out) {
    __shared__ int s[32];
    unsigned lane = threadIdx.x;
    int v = in[lane];
    s[lane] = v;
    v += __shfl_xor_sync(0xffffffffu, v, 1);
    out[lane] = v + s[(lane + 1) % 32];
}

int main() {
    int h[32], *in, *out;
    for (int i = 0; i < 32; i++)
        h[i] = i;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    rotate<<<1, 32>>>(in, out);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    int sum = 0;
    for (int i = 0; i < 32; i++)
        sum += h[i] * (i + 1);
    printf("sum = %d\nsync: %s\n", sum, cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
    return 0;
}
