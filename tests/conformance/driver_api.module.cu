// Device code for driver_api.cu: compiled with `nvcc -fatbin` by driver_api.prebuild
// and loaded at run time with cuModuleLoad.
#include <cstdio>

__device__ int counter;
__device__ float coef[4];

extern "C" __global__ void vadd(const float *a, const float *b, float *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void __launch_bounds__(128) poly(float *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        x[i] = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3]));
        atomicAdd(&counter, 1);
    }
}

extern "C" __global__ void hello(int tag) {
    if (threadIdx.x == 0) printf("hello from block %d, tag %d\n", blockIdx.x, tag);
}

extern "C" __global__ void packed(char c, double d, short s, int *out, long long ll, float f) {
    out[0] = c;
    out[1] = (int)(d * 10.0);
    out[2] = s;
    out[3] = (int)(ll % 100000);
    out[4] = (int)(f * 4.0f);
}
