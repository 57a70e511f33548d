// A correct program: every tool must report 0 errors for it.
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
        __syncthreads();
    }
    if (t == 0)
        atomicAdd(out, s[0]);
}

int main() {
    const int n = 1024;
    int h[n], *in, *out, r = 0;
    for (int i = 0; i < n; i++)
        h[i] = i % 7;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, sizeof(int));
    cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(out, 0, sizeof(int));
    reduce<<<n / 256, 256>>>(in, out);
    cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
    printf("sum = %d\n", r);
    cudaFree(in);
    cudaFree(out);
    return 0;
}
