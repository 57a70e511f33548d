// Multiply-adds through local variables: nvcc (-fmad=true, the default) contracts on
// SSA form, so a product kept in a local is fused into the additions that use it when
// every use of it is an addition or subtraction. Each case reads its own inputs (no two
// cases compute the same product, which nvcc would share), chosen so that the fused and
// the rounded forms differ. Expected output captured with nvcc 13 on an H100.
#include <cstdio>
#include <cuda_runtime.h>

#define N 64

__global__ void locals(const float *x, const double *y, float *out, double *outd, float *side, int n)
{
    int k = 0;
    const float *p = x;
    // 0: one use
    { float t = p[0] * p[1]; out[k++] = t + p[2]; p += 3; }
    // 1, 2: two uses, both additions
    { float t = p[0] * p[1]; out[k++] = t + p[2]; out[k++] = t - p[3]; p += 4; }
    // 3: the product is also stored: kept rounded
    { float t = p[0] * p[1]; side[0] = t; out[k++] = t + p[2]; p += 3; }
    // 4: used in another block
    { float t = p[0] * p[1]; float r = 0.0f; if (n > 0) r = t + p[2]; out[k++] = r; p += 3; }
    // 5: a product local plus a product
    { float t = p[0] * p[1]; out[k++] = t + p[2] * p[3]; p += 4; }
    // 6: subtracted from
    { const float t = p[0] * p[1]; out[k++] = p[2] - t; p += 3; }
    // 7: a negated product
    { float t = -(p[0] * p[1]); out[k++] = t + p[2]; p += 3; }
    // 8: accumulated in a loop
    { float t = p[0] * p[1]; float acc = p[2]; for (int i = 0; i < n; ++i) acc += t; out[k++] = acc; p += 3; }
    // 9: compared as well: kept rounded
    { float t = p[0] * p[1]; out[k++] = t > 0.0f ? t + p[2] : p[2]; p += 3; }
    // 10: declared in a loop body
    { float acc = p[2]; for (int i = 0; i < n; ++i) { float t = p[0] * p[1]; acc = acc + t; } out[k++] = acc; p += 3; }
    // 11: double
    { double t = y[0] * y[1]; outd[0] = t + y[2]; }
    // 12: double, compound assignment
    { double t = y[3] * y[4]; double acc = y[5]; acc -= t; outd[1] = acc; }
    out[k] = 12345.0f;
}

int main()
{
    // a*a = 1 + 2^-11 + 2^-24 (inexact in float); adding -1 shows whether it was rounded.
    const float a = 1.0f + 0x1p-12f;
    float h[N];
    for (int i = 0; i < N; ++i) h[i] = 0.0f;
    // Each case starts with (a, a + s 2^-10, -1) at its offset s; the others below.
    const int starts[] = {0, 3, 7, 10, 13, 17, 20, 23, 26, 29};
    for (int s : starts) { h[s] = a; h[s + 1] = a + 0x1p-10f * (float)s; h[s + 2] = -1.0f; }
    h[6] = 1.0f;                                          // case 1, 2: t + (-1), t - 1
    h[15] = -(1.0f + 0x1p-12f); h[16] = 1.0f + 0x1p-13f;  // case 5: t + (-1) * p3 -> t + p2 * p3
    h[19] = 1.0f;                                         // case 6: 1 - t
    h[22] = 1.0f;                                         // case 7: -t + 1
    const double da = 1.0 + 0x1p-30;
    double hd[6] = {da, da, -1.0, da, da + 0x1p-28, 1.0};
    float *x, *out, *side; double *y, *outd;
    cudaMalloc(&x, sizeof h); cudaMalloc(&y, sizeof hd);
    cudaMalloc(&out, N * sizeof(float)); cudaMalloc(&outd, 2 * sizeof(double)); cudaMalloc(&side, sizeof(float));
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemcpy(y, hd, sizeof hd, cudaMemcpyHostToDevice);
    locals<<<1, 1>>>(x, y, out, outd, side, 1);
    float r[N]; double rd[2];
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    cudaMemcpy(rd, outd, sizeof rd, cudaMemcpyDeviceToHost);
    for (int i = 0; i < N && r[i] != 12345.0f; ++i) printf("case %d: %a\n", i, r[i]);
    printf("double: %a %a\n", rd[0], rd[1]);
    return 0;
}
