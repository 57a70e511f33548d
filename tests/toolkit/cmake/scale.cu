#include "scale.h"

__global__ void scale_kernel(float *d, int n, float factor) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) d[i] *= factor;
}

void scale_on_device(float *d, int n, float factor) {
    scale_kernel<<<(n + 127) / 128, 128>>>(d, n, factor);
}
