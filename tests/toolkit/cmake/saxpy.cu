#include "scale.h"

__global__ void saxpy_kernel(float a, const float *x, float *y, int n) {
    __shared__ float tile[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    if (i < n) y[i] = a * tile[threadIdx.x] + y[i];
}

void saxpy_on_device(float a, const float *x, float *y, int n) {
    saxpy_kernel<<<(n + 255) / 256, 256>>>(a, x, y, n);
    scale_on_device(y, n, 0.5f);
}
