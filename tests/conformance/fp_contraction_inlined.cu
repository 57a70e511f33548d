// Multiply-adds across device-function boundaries: nvcc (-fmad=true, the default)
// inlines device functions and then contracts on SSA form, so a product computed in one
// function and added in another (returned, passed as an argument, through helper_math-
// style float3 operators) becomes one fma; a __noinline__ function keeps its product
// rounded. Each case reads its own inputs (no two cases compute the same product), chosen
// so that the fused and the rounded forms differ. Expected output captured with nvcc 13
// on an H100.
#include <cstdio>
#include <cuda_runtime.h>

#define N 96

struct f3 { float x, y, z; };
__device__ inline f3 mk3(float x, float y, float z) { f3 r; r.x = x; r.y = y; r.z = z; return r; }
__device__ inline f3 operator*(float k, f3 v) { return mk3(k * v.x, k * v.y, k * v.z); }
__device__ inline f3 operator*(f3 a, f3 b) { return mk3(a.x * b.x, a.y * b.y, a.z * b.z); }
__device__ inline f3 operator+(f3 a, f3 b) { return mk3(a.x + b.x, a.y + b.y, a.z + b.z); }
__device__ inline void operator+=(f3 &a, f3 b) { a.x += b.x; a.y += b.y; a.z += b.z; }

__device__ float mul(float a, float b) { return a * b; }
__device__ float mul_nested(float a, float b) { return mul(a, b); }
__device__ float add(float x, float y) { return x + y; }
__device__ void accumulate(float &s, float v) { s += v; }
__device__ __noinline__ float mul_noinline(float a, float b) { return a * b; }
__device__ __noinline__ float add_noinline(float x, float y) { return x + y; }
__device__ float mul_or_first(float a, float b, int n) { if (n > 0) return a * b; return a; }
__device__ double mul_double(double a, double b) { return a * b; }
struct Scaler { float k; __device__ float operator()(float v) const { return k * v; } };

__global__ void inlined(const float *x, const double *y, float *out, double *outd, float *side, int n)
{
    int k = 0;
    const float *p = x;
    // 0: a product returned by a device function, then added
    { out[k++] = mul(p[0], p[1]) + p[2]; p += 3; }
    // 1: returned, then subtracted from
    { out[k++] = p[2] - mul(p[0], p[1]); p += 3; }
    // 2: returned through two functions
    { out[k++] = mul_nested(p[0], p[1]) + p[2]; p += 3; }
    // 3: a product passed as an argument to a function that adds it
    { out[k++] = add(p[0] * p[1], p[2]); p += 3; }
    // 4: passed to a function that accumulates it through a reference
    { float s = p[2]; accumulate(s, p[0] * p[1]); out[k++] = s; p += 3; }
    // 5: __noinline__ function returning the product
    { out[k++] = mul_noinline(p[0], p[1]) + p[2]; p += 3; }
    // 6: product passed to a __noinline__ function that adds it
    { out[k++] = add_noinline(p[0] * p[1], p[2]); p += 3; }
    // 7: a returned product kept in a local and added
    { float t = mul(p[0], p[1]); out[k++] = t + p[2]; p += 3; }
    // 8: a returned product also stored
    { float t = mul(p[0], p[1]); side[0] = t; out[k++] = t + p[2]; p += 3; }
    // 9: returned from one of two return statements
    { out[k++] = mul_or_first(p[0], p[1], n) + p[2]; p += 3; }
    // 10: a function object's call operator
    { Scaler s{p[0]}; out[k++] = s(p[1]) + p[2]; p += 3; }
    // 11: a lambda
    { auto m = [](float a, float b) { return a * b; }; out[k++] = m(p[0], p[1]) + p[2]; p += 3; }
    // 12-14: helper_math style s += k * v on a 3-vector
    { f3 s = mk3(p[2], p[5], p[8]); s += p[0] * mk3(p[1], p[4], p[7]); out[k++] = s.x; out[k++] = s.y; out[k++] = s.z; p += 9; }
    // 15-17: a * b + c on 3-vectors
    { f3 a = mk3(p[0], p[3], p[6]), b = mk3(p[1], p[4], p[7]), c = mk3(p[2], p[5], p[8]);
      f3 r = a * b + c; out[k++] = r.x; out[k++] = r.y; out[k++] = r.z; p += 9; }
    // 18: returned product, negated, then added
    { out[k++] = -mul(p[0], p[1]) + p[2]; p += 3; }
    // 19: returned product accumulated in a loop
    { float t = mul(p[0], p[1]); float acc = p[2]; for (int i = 0; i < n; ++i) acc += t; out[k++] = acc; p += 3; }
    // 20: a returned product added to another returned product
    { out[k++] = mul(p[0], p[1]) + mul(p[2], p[1]); p += 3; }
    // 21, 22: a returned product kept in a local, added twice
    { float t = mul(p[0], p[1]); out[k++] = t + p[2]; out[k++] = t - p[3]; p += 4; }
    // double
    { outd[0] = mul_double(y[0], y[1]) + y[2]; }
    out[k] = 12345.0f;
}

int main()
{
    // a*b = 1 + 2^-11 + s 2^-10 + ... + 2^-24 (inexact in float); adding -1 shows whether it was rounded.
    const float a = 1.0f + 0x1p-12f;
    float h[N];
    for (int i = 0; i < N; ++i) h[i] = 0.0f;
    for (int s = 0; s + 2 < N; s += 3) { h[s] = a; h[s + 1] = a + 0x1p-10f * (float)(s / 3 + 1); h[s + 2] = -1.0f; }
    // Subtractions of a product from c: c = 1 (case 1 at offset 3, case 18 at 54).
    h[5] = 1.0f; h[56] = 1.0f;
    // case 20 (offset 60): mul(a, b) + mul(c, b) with c = -1: a*b - b
    const double da = 1.0 + 0x1p-30;
    double hd[3] = {da, da + 0x1p-28, -1.0};
    float *x, *out, *side; double *y, *outd;
    cudaMalloc(&x, sizeof h); cudaMalloc(&y, sizeof hd);
    cudaMalloc(&out, N * sizeof(float)); cudaMalloc(&outd, sizeof(double)); cudaMalloc(&side, sizeof(float));
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemcpy(y, hd, sizeof hd, cudaMemcpyHostToDevice);
    inlined<<<1, 1>>>(x, y, out, outd, side, 1);
    float r[N]; double rd;
    cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost);
    cudaMemcpy(&rd, outd, sizeof rd, cudaMemcpyDeviceToHost);
    for (int i = 0; i < N && r[i] != 12345.0f; ++i) printf("case %d: %a\n", i, r[i]);
    printf("double: %a\n", rd);
    return 0;
}
