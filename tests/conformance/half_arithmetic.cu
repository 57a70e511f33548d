// half_arithmetic: __half and __half2 arithmetic in device code, bit for bit. Binary
// operations (add, sub, mul, div, their _sat and _rn forms, max/min and _nan, the C++
// operators) over 131072 random pairs of bit patterns, 131072 pairs of close exponents
// and all pairs of 24 special values; fma, fma_sat, fma_relu over random triples and
// triples that cancel (c near -a*b); neg and abs over all 65536 patterns; the 12
// comparisons, __hisnan and __hisinf as bit masks; the __half2 forms of all of them
// (lanes from neighbouring pairs), __hcmadd. Prints a hash per operation and readable
// lines for NaN, infinity, signed zero and saturation cases. With a directory argument
// it also writes each result array there.
// Expected output: nvcc 13 -arch=sm_90 on an H100.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_fp16.h>

typedef __half T;
typedef __half2 T2;
#define FROM_BITS(b) __ushort_as_half((unsigned short)(b))
#define TO_BITS(h) __half_as_ushort(h)
static const int MB = 10, EMAX = 31;
static const unsigned short specials[24] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x4000, 0x7bff, 0xfbff,
                                            0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x0001, 0x8001, 0x03ff,
                                            0x0400, 0x3555, 0x4200, 0x5640, 0x3bff, 0x3c01, 0x1000, 0x6000};
static const char *format_name = "half";

static const char *dump_dir = nullptr;
static unsigned long long fnv(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}
static void report(const char *name, const void *p, size_t bytes) {
    printf("%-14s %016llx\n", name, fnv(p, bytes));
    size_t len = strlen(name);
    if (dump_dir && name[len - 1] != '2') { // the two-lane forms' arrays are not written
        char path[512];
        snprintf(path, sizeof path, "%s/%s_%s.bin", dump_dir, format_name, name);
        FILE *f = fopen(path, "wb");
        if (f) { fwrite(p, 1, bytes, f); fclose(f); }
    }
}
static unsigned int lcg_state = 777u;
static unsigned int lcg() { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state >> 8; }

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

const int NBIN = 19;
static const char *bin_names[NBIN] = {"add", "sub", "mul", "div", "add_sat", "sub_sat", "mul_sat", "add_rn", "sub_rn",
                                      "mul_rn", "max", "min", "max_nan", "min_nan", "op_add", "op_sub", "op_mul",
                                      "op_div", "op_compound"};
__device__ T binary(int op, T a, T b) {
    switch (op) {
    case 0: return __hadd(a, b);
    case 1: return __hsub(a, b);
    case 2: return __hmul(a, b);
    case 3: return __hdiv(a, b);
    case 4: return __hadd_sat(a, b);
    case 5: return __hsub_sat(a, b);
    case 6: return __hmul_sat(a, b);
    case 7: return __hadd_rn(a, b);
    case 8: return __hsub_rn(a, b);
    case 9: return __hmul_rn(a, b);
    case 10: return __hmax(a, b);
    case 11: return __hmin(a, b);
    case 12: return __hmax_nan(a, b);
    case 13: return __hmin_nan(a, b);
    case 14: return a + b;
    case 15: return a - b;
    case 16: return a * b;
    case 17: return a / b;
    default: { T c = a; c += b; c -= a; c /= b; c *= b; return c; } // no mul followed by add: nvcc would fuse them
    }
}
__device__ T2 binary2(int op, T2 a, T2 b) {
    switch (op) {
    case 0: return __hadd2(a, b);
    case 1: return __hsub2(a, b);
    case 2: return __hmul2(a, b);
    case 3: return __h2div(a, b);
    case 4: return __hadd2_sat(a, b);
    case 5: return __hsub2_sat(a, b);
    case 6: return __hmul2_sat(a, b);
    case 7: return __hadd2_rn(a, b);
    case 8: return __hsub2_rn(a, b);
    case 9: return __hmul2_rn(a, b);
    case 10: return __hmax2(a, b);
    case 11: return __hmin2(a, b);
    case 12: return __hmax2_nan(a, b);
    case 13: return __hmin2_nan(a, b);
    case 14: return a + b;
    case 15: return a - b;
    case 16: return a * b;
    case 17: return a / b;
    default: { T2 c = a; c += b; c -= a; c /= b; c *= b; return c; }
    }
}
__device__ unsigned int bits2(T2 v) { return TO_BITS(v.x) | ((unsigned int)TO_BITS(v.y) << 16); }

__global__ void k_binary(const unsigned short *a, const unsigned short *b, int n, unsigned short *out, unsigned int *out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    T x = FROM_BITS(a[i]), y = FROM_BITS(b[i]);
    int j = i + 1 < n ? i + 1 : 0;
    T2 x2 = __halves2half2(x, FROM_BITS(a[j])), y2 = __halves2half2(y, FROM_BITS(b[j]));
    for (int op = 0; op < NBIN; op++) {
        out[op * n + i] = TO_BITS(binary(op, x, y));
        out2[op * n + i] = bits2(binary2(op, x2, y2));
    }
}

__global__ void k_compare(const unsigned short *a, const unsigned short *b, int n, unsigned int *out, unsigned int *out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    T x = FROM_BITS(a[i]), y = FROM_BITS(b[i]);
    unsigned int m = 0;
    m |= (unsigned)__heq(x, y) << 0; m |= (unsigned)__hne(x, y) << 1; m |= (unsigned)__hlt(x, y) << 2;
    m |= (unsigned)__hle(x, y) << 3; m |= (unsigned)__hgt(x, y) << 4; m |= (unsigned)__hge(x, y) << 5;
    m |= (unsigned)__hequ(x, y) << 6; m |= (unsigned)__hneu(x, y) << 7; m |= (unsigned)__hltu(x, y) << 8;
    m |= (unsigned)__hleu(x, y) << 9; m |= (unsigned)__hgtu(x, y) << 10; m |= (unsigned)__hgeu(x, y) << 11;
    m |= (unsigned)__hisnan(x) << 12; m |= (unsigned)(__hisinf(x) + 1) << 13;
    m |= (unsigned)(x == y) << 16; m |= (unsigned)(x != y) << 17; m |= (unsigned)(x < y) << 18;
    m |= (unsigned)(x <= y) << 19; m |= (unsigned)(x > y) << 20; m |= (unsigned)(x >= y) << 21;
    out[i] = m;
    int j = i + 1 < n ? i + 1 : 0;
    T2 x2 = __halves2half2(x, FROM_BITS(a[j])), y2 = __halves2half2(y, FROM_BITS(b[j]));
    T2 r[13] = {__heq2(x2, y2), __hne2(x2, y2), __hlt2(x2, y2), __hle2(x2, y2), __hgt2(x2, y2), __hge2(x2, y2),
                __hequ2(x2, y2), __hneu2(x2, y2), __hltu2(x2, y2), __hleu2(x2, y2), __hgtu2(x2, y2), __hgeu2(x2, y2),
                __hisnan2(x2)};
    unsigned int h = 0;
    for (int k = 0; k < 13; k++) h = h * 31u + bits2(r[k]);
    unsigned int bm = 0;
    bm |= (unsigned)__hbeq2(x2, y2) << 0; bm |= (unsigned)__hbne2(x2, y2) << 1; bm |= (unsigned)__hblt2(x2, y2) << 2;
    bm |= (unsigned)__hble2(x2, y2) << 3; bm |= (unsigned)__hbgt2(x2, y2) << 4; bm |= (unsigned)__hbge2(x2, y2) << 5;
    bm |= (unsigned)__hbequ2(x2, y2) << 6; bm |= (unsigned)__hbneu2(x2, y2) << 7; bm |= (unsigned)__hbltu2(x2, y2) << 8;
    bm |= (unsigned)__hbleu2(x2, y2) << 9; bm |= (unsigned)__hbgtu2(x2, y2) << 10; bm |= (unsigned)__hbgeu2(x2, y2) << 11;
    bm |= (unsigned)(x2 == y2) << 12; bm |= (unsigned)(x2 != y2) << 13; bm |= (unsigned)(x2 < y2) << 14;
    bm |= (unsigned)(x2 <= y2) << 15; bm |= (unsigned)(x2 > y2) << 16; bm |= (unsigned)(x2 >= y2) << 17;
    out2[2 * i] = h;
    out2[2 * i + 1] = bm;
}

// c = -(a*b) rounded toward zero, moved by c's old value - 2 ulps: fma results near 0.
__global__ void k_cancelling(const unsigned short *a, const unsigned short *b, unsigned short *c) {
    int i = 131072 + blockIdx.x * blockDim.x + threadIdx.x;
    float p = __half2float(FROM_BITS(a[i])) * __half2float(FROM_BITS(b[i]));
    c[i] = (unsigned short)(TO_BITS(__float2half_rz(-p)) + (int)c[i] - 2);
}

const int NTER = 3;
__global__ void k_fma(const unsigned short *a, const unsigned short *b, const unsigned short *c, int n, unsigned short *out,
                      unsigned int *out2) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    T x = FROM_BITS(a[i]), y = FROM_BITS(b[i]), z = FROM_BITS(c[i]);
    out[0 * n + i] = TO_BITS(__hfma(x, y, z));
    out[1 * n + i] = TO_BITS(__hfma_sat(x, y, z));
    out[2 * n + i] = TO_BITS(__hfma_relu(x, y, z));
    int j = i + 1 < n ? i + 1 : 0;
    T2 x2 = __halves2half2(x, FROM_BITS(a[j])), y2 = __halves2half2(y, FROM_BITS(b[j])), z2 = __halves2half2(z, FROM_BITS(c[j]));
    out2[0 * n + i] = bits2(__hfma2(x2, y2, z2));
    out2[1 * n + i] = bits2(__hfma2_sat(x2, y2, z2));
    out2[2 * n + i] = bits2(__hfma2_relu(x2, y2, z2));
}

__global__ void k_unary(unsigned int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 65536) return;
    T x = FROM_BITS(i);
    T y = x;
    T z = x;
    y++;
    --z;
    out[i] = TO_BITS(__hneg(x)) | ((unsigned int)TO_BITS(__habs(x)) << 16);
    out[65536 + i] = TO_BITS(-x) | ((unsigned int)TO_BITS(+x) << 16);
    out[2 * 65536 + i] = TO_BITS(y) | ((unsigned int)TO_BITS(z) << 16);
    T2 v = __halves2half2(x, FROM_BITS(i ^ 0x8001));
    out[3 * 65536 + i] = bits2(__hneg2(v)) ^ (bits2(__habs2(v)) * 3u) ^ (bits2(-v) * 7u);
}

static unsigned short random_bits() { return (unsigned short)lcg(); }
static unsigned short near_bits(unsigned short a) {
    int e = (a >> MB) & EMAX;
    int d = (int)(lcg() % 7) - 3;
    int f = e + d;
    if (f < 0) f = 0;
    if (f > EMAX) f = EMAX;
    unsigned short s = (unsigned short)((lcg() & 1) << 15);
    return (unsigned short)(s | (f << MB) | (lcg() & ((1u << MB) - 1)));
}

int main(int argc, char **argv) {
    if (argc > 1) dump_dir = argv[1];
    // Pairs: random, close exponents, all pairs of specials.
    std::vector<unsigned short> A, B;
    for (int i = 0; i < 131072; i++) { A.push_back(random_bits()); B.push_back(random_bits()); }
    for (int i = 0; i < 131072; i++) { unsigned short a = random_bits(); A.push_back(a); B.push_back(near_bits(a)); }
    for (int i = 0; i < 24; i++)
        for (int j = 0; j < 24; j++) { A.push_back(specials[i]); B.push_back(specials[j]); }
    int n = (int)A.size();
    unsigned short *dA, *dB, *dC, *dout;
    unsigned int *dout2;
    CHECK(cudaMalloc(&dA, n * 2));
    CHECK(cudaMalloc(&dB, n * 2));
    CHECK(cudaMalloc(&dC, n * 2));
    CHECK(cudaMalloc(&dout, (size_t)n * 2 * NBIN));
    CHECK(cudaMalloc(&dout2, (size_t)n * 4 * NBIN));
    CHECK(cudaMemcpy(dA, A.data(), n * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B.data(), n * 2, cudaMemcpyHostToDevice));
    k_binary<<<(n + 255) / 256, 256>>>(dA, dB, n, dout, dout2);
    CHECK(cudaGetLastError());
    std::vector<unsigned short> out((size_t)n * NBIN);
    std::vector<unsigned int> out2((size_t)n * NBIN);
    CHECK(cudaMemcpy(out.data(), dout, out.size() * 2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(out2.data(), dout2, out2.size() * 4, cudaMemcpyDeviceToHost));
    printf("%s pairs: %d\n", format_name, n);
    char name[64];
    for (int op = 0; op < NBIN; op++) {
        report(bin_names[op], &out[(size_t)op * n], (size_t)n * 2);
        snprintf(name, sizeof name, "%s2", bin_names[op]);
        report(name, &out2[(size_t)op * n], (size_t)n * 4);
    }
    // Readable: specials against specials for a few operations.
    const int pick[] = {0, 1, 2, 3, 4, 6, 10, 12};
    for (int i : {0, 1, 8, 9, 10, 11, 12}) {
        for (int j : {0, 1, 2, 8, 9, 10, 11}) {
            int k = 262144 + i * 24 + j;
            printf("%04x %04x:", specials[i], specials[j]);
            for (int op : pick) printf(" %s=%04x", bin_names[op], out[(size_t)op * n + k]);
            printf("\n");
        }
    }

    // Comparisons.
    unsigned int *dcmp, *dcmp2;
    CHECK(cudaMalloc(&dcmp, n * 4));
    CHECK(cudaMalloc(&dcmp2, n * 8));
    k_compare<<<(n + 255) / 256, 256>>>(dA, dB, n, dcmp, dcmp2);
    std::vector<unsigned int> cmp(n), cmp2(2 * n);
    CHECK(cudaMemcpy(cmp.data(), dcmp, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(cmp2.data(), dcmp2, n * 8, cudaMemcpyDeviceToHost));
    report("compare", cmp.data(), n * 4);
    report("compare2", cmp2.data(), n * 8);
    for (int i : {0, 8, 10}) {
        for (int j : {1, 2, 9, 11}) {
            int k = 262144 + i * 24 + j;
            printf("cmp %04x %04x: %06x %08x\n", specials[i], specials[j], cmp[k], cmp2[2 * k + 1]);
        }
    }

    // fma: random triples and cancelling ones.
    std::vector<unsigned short> FA, FB, FC;
    for (int i = 0; i < 131072; i++) { FA.push_back(random_bits()); FB.push_back(random_bits()); FC.push_back(random_bits()); }
    for (int i = 0; i < 131072; i++) {
        unsigned short a = random_bits(), b = random_bits();
        FA.push_back(a); FB.push_back(b);
        FC.push_back((unsigned short)(lcg() % 5)); // made a cancelling c below
    }
    for (int i = 0; i < 24; i++)
        for (int j = 0; j < 24; j++) { FA.push_back(specials[i]); FB.push_back(specials[j]); FC.push_back(specials[(i + j) % 24]); }
    int nf = (int)FA.size();
    CHECK(cudaMemcpy(dA, FA.data(), nf * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, FB.data(), nf * 2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dC, FC.data(), nf * 2, cudaMemcpyHostToDevice));
    k_cancelling<<<512, 256>>>(dA, dB, dC);
    CHECK(cudaMemcpy(FC.data(), dC, nf * 2, cudaMemcpyDeviceToHost));
    k_fma<<<(nf + 255) / 256, 256>>>(dA, dB, dC, nf, dout, dout2);
    CHECK(cudaMemcpy(out.data(), dout, (size_t)nf * 2 * NTER, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(out2.data(), dout2, (size_t)nf * 4 * NTER, cudaMemcpyDeviceToHost));
    const char *fma_names[] = {"fma", "fma_sat", "fma_relu"};
    for (int op = 0; op < NTER; op++) {
        report(fma_names[op], &out[(size_t)op * nf], (size_t)nf * 2);
        snprintf(name, sizeof name, "%s2", fma_names[op]);
        report(name, &out2[(size_t)op * nf], (size_t)nf * 4);
    }
    for (int i : {0, 1, 8, 10}) {
        for (int j : {0, 3, 8, 9}) {
            int k = 262144 + i * 24 + j;
            printf("fma %04x %04x %04x: %04x %04x %04x\n", FA[k], FB[k], FC[k], out[k], out[nf + k], out[2 * nf + k]);
        }
    }

    // Unary.
    unsigned int *dun;
    CHECK(cudaMalloc(&dun, 4 * 65536 * 4));
    k_unary<<<256, 256>>>(dun);
    std::vector<unsigned int> un(4 * 65536);
    CHECK(cudaMemcpy(un.data(), dun, un.size() * 4, cudaMemcpyDeviceToHost));
    report("neg_abs", &un[0], 65536 * 4);
    report("op_neg_plus", &un[65536], 65536 * 4);
    report("op_incdec", &un[2 * 65536], 65536 * 4);
    report("neg_abs2", &un[3 * 65536], 65536 * 4);
    for (unsigned int p : {0x0000u, 0x8000u, 0x7c00u, 0x7e00u, 0xfe00u, 0x7c01u, 0xffffu})
        printf("neg/abs %04x: %08x %08x\n", p, un[p], un[2 * 65536 + p]);
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
