// From Rodinia hotspot3D, which its Makefile builds with -g -G (found by the compatibility hunt):
// does `a*b + c` get contracted into one fused multiply-add?
// nvcc's default is --fmad=true; the question is what -G (device debug, -O0) does.
// Build: nvcc -arch=sm_90 -G fmad_under_G.cu   and without -G; compare with cuprite.
// nvcc 13.0 on an H100 (2026-11-24):
//   nvcc -arch=sm_90     -> device a*b+c = 4.8834085464e-04 (fused)
//   nvcc -arch=sm_90 -G  -> device a*b+c = 4.8828125000e-04 (separately rounded)
//   nvcc -arch=sm_90 -G -fmad=true, and -fmad=false -> separately rounded too
// Cuprite does the same (driver::device_debug_does_not_contract_fma).
// Effect seen: Rodinia hotspot3D (Makefile uses -g -G) reports Accuracy 4.557819e-05
// against its CPU reference under Cuprite, 3.057898e-06 under nvcc -G (4.559097e-05
// under nvcc -O3 without -G, i.e. what Cuprite computes). Last-digit differences only.
#include <cstdio>
__global__ void k(const float *a, const float *b, const float *c, float *out) {
    out[0] = a[0] * b[0] + c[0];
}
int main() {
    // a*b = 1 + 2^-11 + 2^-24 exactly representable only in the fused form
    float ha = 1.0f + 1.0f / 4096.0f, hb = 1.0f + 1.0f / 4096.0f, hc = -1.0f, r = 0;
    float *d;
    cudaMalloc(&d, 4 * sizeof(float));
    cudaMemcpy(d, &ha, 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d + 1, &hb, 4, cudaMemcpyHostToDevice);
    cudaMemcpy(d + 2, &hc, 4, cudaMemcpyHostToDevice);
    k<<<1, 1>>>(d, d + 1, d + 2, d + 3);
    cudaMemcpy(&r, d + 3, 4, cudaMemcpyDeviceToHost);
    volatile float p = ha * hb;  // rounded product, as without contraction
    printf("device a*b+c = %.10e (%s)\n", r, r == p + hc ? "separately rounded" : "fused");
    return 0;
}
