// Pointer minus an unsigned integer moves back, in every form: `p - u`, `p -= u`,
// `p - u` inside a longer chain (`base + a*s + b - threadIdx.x`, as cuda-samples dct8x8
// writes it), narrower unsigned types, and 64-bit sizes. Cuprite once negated the
// 32-bit unsigned value and moved 4 G elements forward. Expected output: nvcc 13, H100.
#include <cstdio>

__global__ void back(int *out, const int *base) {
    unsigned u = threadIdx.x;
    const int *p = base + 8;
    out[threadIdx.x] = *(p - u);
    const int *q = base + 8;
    q -= u;
    out[8 + threadIdx.x] = *q;
    unsigned short s = 3;
    unsigned char c = 2;
    out[16 + threadIdx.x] = *(p - s) + *(p - c);
    size_t z = threadIdx.x;
    out[24 + threadIdx.x] = *(p - z);
    out[32 + threadIdx.x] = *(base + (threadIdx.x + 1) * 1 + 4 - threadIdx.x);
    const int *r = base;
    r += 8u;
    r -= 8u - threadIdx.x;
    out[40 + threadIdx.x] = r[0];
}

int main() {
    int h[9], *d, *o;
    for (int i = 0; i < 9; ++i) h[i] = i * 10;
    cudaMalloc(&d, sizeof h);
    cudaMalloc(&o, 48 * sizeof(int));
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    back<<<1, 8>>>(o, d);
    int r[48];
    cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    for (int row = 0; row < 6; ++row) {
        for (int i = 0; i < 8; ++i) printf(" %d", r[row * 8 + i]);
        printf("\n");
    }
    return 0;
}
