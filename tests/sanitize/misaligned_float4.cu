// Seeded bug: a float4 load from an address that is not 16-byte aligned (memcheck).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void load4(const float *in, float *out) {
    const float4 *p = reinterpret_cast<const float4 *>(in + 1);
    float4 v = p[threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

int main() {
    float *in, *out;
    cudaMalloc(&in, 1024 * sizeof(float));
    cudaMalloc(&out, 32 * sizeof(float));
    cudaMemset(in, 0, 1024 * sizeof(float));
    load4<<<1, 32>>>(in, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    cudaFree(in);
    cudaFree(out);
    return 0;
}
