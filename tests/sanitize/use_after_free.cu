// Seeded bug: a kernel reads an allocation after cudaFree (memcheck).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void copy(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

int main() {
    const int n = 256;
    float *in, *out;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(in, 0, n * sizeof(float));
    cudaFree(in);
    copy<<<1, n>>>(in, out, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(out);
    return 0;
}
