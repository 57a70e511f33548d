// Seeded bug: a full-mask vote reached by the odd lanes only (synccheck).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void vote(const int *in, int *out) {
    unsigned lane = threadIdx.x;
    int r = 0;
    if (lane & 1)
        r = __all_sync(0xffffffffu, in[lane] > 0);
    out[lane] = r;
}

int main() {
    int h[32], *in, *out;
    for (int i = 0; i < 32; i++)
        h[i] = 1;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    vote<<<1, 32>>>(in, out);
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
    return 0;
}
