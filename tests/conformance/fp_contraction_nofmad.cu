// (fp_contraction.cu built with -fmad=false: see its header.)
// Which multiply-adds nvcc contracts into one fused multiply-add (default -fmad=true;
// fp_contraction_nofmad is the same program built with -fmad=false): half and half2
// through the intrinsics (__hmul/__hadd/__hsub, the _rn forms) and the C++ operators,
// bfloat16, float and double, in one expression, with a product used twice, and compound
// assignment. (A product kept in a local that only an addition reads is contracted by
// nvcc and not yet by Cuprite: docs/FEATURES.md L13.) 
// The inputs make a fused result differ from a rounded product: (1+u)^2 - (1+2u) is u^2 when fused, 0 when the product is rounded.
// Expected output from nvcc 13 on an H100.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__device__ unsigned short hb(__half h) { return __half_as_ushort(h); }
__device__ unsigned short bb(__nv_bfloat16 h) { return __bfloat16_as_ushort(h); }

__global__ void half_cases(const __half *in, unsigned short *o) {
    __half a = in[0], b = in[1], c = in[2], nc = in[3];
    int k = 0;
    o[k++] = hb(a * b + nc);                       // operators, one expression
    o[k++] = hb(nc + a * b);                       // product on the right
    o[k++] = hb(a * b - c);                        // subtraction
    o[k++] = hb(c - a * b);                        // product subtracted
    o[k++] = hb(__hadd(__hmul(a, b), nc));         // intrinsics
    o[k++] = hb(__hsub(__hmul(a, b), c));
    o[k++] = hb(__hadd(nc, __hmul(a, b)));
    o[k++] = hb(__hadd(__hmul_rn(a, b), nc));      // _rn multiply
    o[k++] = hb(__hadd_rn(__hmul(a, b), nc));      // _rn add
    o[k++] = hb(__hsub_rn(__hmul(a, b), c));
    __half u = a * b;                              // product used twice
    o[k++] = hb(u + nc);
    o[k++] = hb(u);
    __half acc = nc;                               // compound assignment
    acc += a * b;
    o[k++] = hb(acc);
    o[k++] = hb(__hfma(a, b, nc));                 // explicit fma
    o[k++] = hb(__hadd(__hmul_sat(a, b), nc));     // saturating multiply
    o[k++] = hb(__hneg(a * b) + c);
    o[k++] = hb(a * b + nc * a);                   // two products
    o[k++] = hb(__float2half(__half2float(a) * __half2float(b)) + nc);
    __half2 a2 = __halves2half2(a, b), b2 = __halves2half2(b, a), c2 = __halves2half2(nc, nc);
    __half2 r2 = a2 * b2 + c2;
    o[k++] = hb(__low2half(r2));
    o[k++] = hb(__high2half(r2));
    r2 = __hadd2(__hmul2(a2, b2), c2);
    o[k++] = hb(__low2half(r2));
    r2 = __hadd2(__hmul2_rn(a2, b2), c2);
    o[k++] = hb(__low2half(r2));
    r2 = __hsub2(__hmul2(a2, b2), __halves2half2(c, c));
    o[k++] = hb(__high2half(r2));
    o[k++] = 0xdead;
}

__global__ void bf16_cases(const __nv_bfloat16 *in, unsigned short *o) {
    __nv_bfloat16 a = in[0], b = in[1], c = in[2], nc = in[3];
    int k = 0;
    o[k++] = bb(a * b + nc);
    o[k++] = bb(__hadd(__hmul(a, b), nc));
    o[k++] = bb(__hsub(__hmul(a, b), c));
    o[k++] = bb(__hadd(__hmul_rn(a, b), nc));
    o[k++] = bb(__hadd_rn(__hmul(a, b), nc));
    __nv_bfloat162 a2 = __halves2bfloat162(a, b), b2 = __halves2bfloat162(b, a), c2 = __halves2bfloat162(nc, nc);
    __nv_bfloat162 r2 = a2 * b2 + c2;
    o[k++] = bb(__low2bfloat16(r2));
    r2 = __hadd2(__hmul2(a2, b2), c2);
    o[k++] = bb(__low2bfloat16(r2));
    o[k++] = 0xdead;
}

// Each float case reads its own inputs, so that no two cases share a product (nvcc
// does not contract a product it also needs unfused elsewhere).
__global__ void float_cases(const float *f, const double *d, unsigned long long *o) {
    int k = 0;
#define A f[4 * k]
#define B f[4 * k + 1]
#define C f[4 * k + 2]
#define NC f[4 * k + 3]
    o[k] = __float_as_uint(A * B + NC), k++;
    o[k] = __float_as_uint(NC + A * B), k++;
    o[k] = __float_as_uint(A * B - C), k++;
    o[k] = __float_as_uint(C - A * B), k++;
    o[k] = __float_as_uint(__fmul_rn(A, B) + NC), k++;
    o[k] = __float_as_uint(__fadd_rn(A * B, NC)), k++;
    {
        float acc = NC;
        acc += A * B;
        o[k] = __float_as_uint(acc), k++;
    }
    {
        float u = A * B;  // product used twice
        o[k] = __float_as_uint(u + NC) ^ (__float_as_uint(u) << 1), k++;
    }
    o[k] = __float_as_uint(-(A * B) + C), k++;
    o[k] = __float_as_uint(A * B + NC * A), k++;
#define X d[4 * k]
#define Y d[4 * k + 1]
#define NZ d[4 * k + 3]
    o[k] = __double_as_longlong(X * Y + NZ), k++;
    o[k] = __double_as_longlong(NZ - X * Y), k++;
    o[k] = __double_as_longlong(__dmul_rn(X, Y) + NZ), k++;
    o[k] = 0xdead;
}

int main() {
    // a = b = 1 + 2^-10, c = 1 + 2^-9 (the rounded product), nc = -c.
    __half hin[4] = {__ushort_as_half(0x3c01), __ushort_as_half(0x3c01), __ushort_as_half(0x3c02), __ushort_as_half(0xbc02)};
    __nv_bfloat16 bin[4] = {__ushort_as_bfloat16(0x3f81), __ushort_as_bfloat16(0x3f81), __ushort_as_bfloat16(0x3f82),
                            __ushort_as_bfloat16(0xbf82)};
    float fin[64];
    double din[64];
    for (int i = 0; i < 16; i++) {
        fin[4 * i] = fin[4 * i + 1] = 1.0f + 0x1p-23f;
        fin[4 * i + 2] = 1.0f + 0x1p-22f;
        fin[4 * i + 3] = -(1.0f + 0x1p-22f);
        din[4 * i] = din[4 * i + 1] = 1.0 + 0x1p-52;
        din[4 * i + 2] = 1.0 + 0x1p-51;
        din[4 * i + 3] = -(1.0 + 0x1p-51);
    }
    __half *dh;
    __nv_bfloat16 *db;
    float *df;
    double *dd;
    unsigned short *oh;
    unsigned long long *of;
    cudaMalloc(&dh, sizeof hin);
    cudaMalloc(&db, sizeof bin);
    cudaMalloc(&df, sizeof fin);
    cudaMalloc(&dd, sizeof din);
    cudaMalloc(&oh, 64 * sizeof(unsigned short));
    cudaMalloc(&of, 64 * sizeof(unsigned long long));
    cudaMemcpy(dh, hin, sizeof hin, cudaMemcpyHostToDevice);
    cudaMemcpy(db, bin, sizeof bin, cudaMemcpyHostToDevice);
    cudaMemcpy(df, fin, sizeof fin, cudaMemcpyHostToDevice);
    cudaMemcpy(dd, din, sizeof din, cudaMemcpyHostToDevice);
    unsigned short h[64];
    unsigned long long f[64];
    half_cases<<<1, 1>>>(dh, oh);
    cudaMemcpy(h, oh, sizeof h, cudaMemcpyDeviceToHost);
    printf("half:");
    for (int i = 0; i < 64 && h[i] != 0xdead; i++) printf(" %d:%04x", i, h[i]);
    printf("\n");
    bf16_cases<<<1, 1>>>(db, oh);
    cudaMemcpy(h, oh, sizeof h, cudaMemcpyDeviceToHost);
    printf("bf16:");
    for (int i = 0; i < 64 && h[i] != 0xdead; i++) printf(" %d:%04x", i, h[i]);
    printf("\n");
    float_cases<<<1, 1>>>(df, dd, of);
    cudaMemcpy(f, of, sizeof f, cudaMemcpyDeviceToHost);
    printf("float/double:");
    for (int i = 0; i < 64 && f[i] != 0xdead; i++) printf(" %d:%llx", i, f[i]);
    printf("\n");
    printf("done: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
