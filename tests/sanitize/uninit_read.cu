// Seeded bug: a kernel reads global memory that nothing wrote (initcheck).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2 * in[i];
}

int main() {
    const int n = 64;
    int *in, *out, h[n];
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMemset(in, 0, (n / 2) * sizeof(int));
    scale<<<1, n>>>(in, out, n);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaMemcpy(h, out, (n / 2) * sizeof(int), cudaMemcpyDeviceToHost);
    printf("h[0] = %d\n", h[0]);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
