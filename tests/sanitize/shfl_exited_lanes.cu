// Seeded bug: a full-warp shuffle mask naming lanes that have already exited (synccheck).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void broadcast(const int *in, int *out) {
    unsigned lane = threadIdx.x;
    if (lane >= 16)
        return;
    int v = __shfl_sync(0xffffffffu, in[lane], 0);
    out[lane] = v;
}

int main() {
    int h[32], *in, *out;
    for (int i = 0; i < 32; i++)
        h[i] = i + 1;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&out, sizeof h);
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    broadcast<<<1, 32>>>(in, out);
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(in);
    cudaFree(out);
    return 0;
}
