// Seeded bug: a tree reduction in shared memory without its inner barrier (racecheck).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void reduce(const int *in, int *out) {
    __shared__ int s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (t < stride)
            s[t] += s[t + stride];
        // missing: __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

int main() {
    const int n = 512;
    int h[n], *in, *out, r[2];
    for (int i = 0; i < n; i++)
        h[i] = 1;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, 2 * sizeof(int));
    cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    reduce<<<2, 256>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
