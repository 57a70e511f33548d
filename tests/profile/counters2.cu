// More kernels for the profiler's counters against Nsight Compute on an H100
// (crates/cuprite/tests/profile.rs; ncu's CSV is in gpu/counters2.ncu.csv): vector and
// byte accesses to shared memory, a block that is not a whole number of warps, lanes
// that loop different numbers of times, and a strided store.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void shared_float4(const float4 *in, float4 *out) {
    __shared__ float4 s[256];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[(t * 2) & 255];
}

__global__ void shared_bytes(const unsigned char *in, unsigned char *out) {
    __shared__ unsigned char s[1024];
    unsigned t = threadIdx.x;
    for (int k = 0; k < 4; k++)
        s[t + 256 * k] = in[t + 256 * k];
    __syncthreads();
    out[t] = s[(t * 4) & 1023];
    out[t + 256] = s[(t * 128) & 1023];
}

__global__ void partial_block(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] + 1.0f;
}

__global__ void loop_divergent(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < (int)(threadIdx.x % 4); k++)
        acc += in[(i + k * 1024) % n];
    out[i] = acc;
}

__global__ void store_strided(const float *in, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i * 2] = in[i];
}

int main() {
    const int n = 1 << 14;
    float *a, *b;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, 2 * n * sizeof(float));
    float *h = new float[n];
    for (int i = 0; i < n; i++)
        h[i] = (float)(i % 13);
    cudaMemcpy(a, h, n * sizeof(float), cudaMemcpyHostToDevice);
    shared_float4<<<1, 256>>>((const float4 *)a, (float4 *)b);
    shared_bytes<<<2, 256>>>((const unsigned char *)a, (unsigned char *)b);
    partial_block<<<10, 48>>>(a, b);
    loop_divergent<<<16, 256>>>(a, b, n);
    store_strided<<<n / 256, 256>>>(a, b);
    cudaMemcpy(h, b, 64 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("%g %g %g\n", h[0], h[1], h[63]);
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(a);
    cudaFree(b);
    delete[] h;
    return 0;
}
