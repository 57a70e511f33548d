// half_conversions: every conversion to and from __half in every rounding mode, in device
// code. half -> float and half -> integers (int, unsigned, short, unsigned short, long
// long, unsigned long long, rn/rz/rd/ru; char/uchar rz; half -> bf16 and the bits read as a bf16 -> half) over all 65536 bit patterns;
// float -> half (rn/rz/rd/ru) over the midpoints between neighbouring halves and their
// float neighbours, the halves themselves and 262144 random float bit patterns; double ->
// half over midpoints moved by less than a float ulp and random doubles; integers ->
// half (4 modes) over all shorts, all unsigned shorts and 64-bit values around powers of
// two and rounding midpoints. Prints a hash of each result array, and readable lines for
// NaN, infinity and saturation cases. With a directory argument it also writes each
// result array there (raw, for comparing with another implementation).
// Expected output: nvcc 13 -arch=sm_90 on an H100.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

static const char *dump_dir = nullptr;

static unsigned long long fnv(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}
static void report(const char *name, const void *p, size_t bytes) {
    printf("%-22s %016llx\n", name, fnv(p, bytes));
    if (dump_dir) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s.bin", dump_dir, name);
        FILE *f = fopen(path, "wb");
        if (f) { fwrite(p, 1, bytes, f); fclose(f); }
    }
}
static unsigned int lcg_state = 12345u;
static unsigned int lcg() { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state; }
static unsigned long long lcg64() { unsigned long long hi = lcg(); return (hi << 32) | lcg(); }

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

// ---- half -> float / integers over all bit patterns --------------------------------------
__device__ unsigned long long from_half(int op, __half h) {
    switch (op) {
    case 0: { float f = __half2float(h); unsigned int u; memcpy(&u, &f, 4); return u; }
    case 1: return (unsigned int)__half2int_rn(h);
    case 2: return (unsigned int)__half2int_rz(h);
    case 3: return (unsigned int)__half2int_rd(h);
    case 4: return (unsigned int)__half2int_ru(h);
    case 5: return __half2uint_rn(h);
    case 6: return __half2uint_rz(h);
    case 7: return __half2uint_rd(h);
    case 8: return __half2uint_ru(h);
    case 9: return (unsigned short)__half2short_rn(h);
    case 10: return (unsigned short)__half2short_rz(h);
    case 11: return (unsigned short)__half2short_rd(h);
    case 12: return (unsigned short)__half2short_ru(h);
    case 13: return __half2ushort_rn(h);
    case 14: return __half2ushort_rz(h);
    case 15: return __half2ushort_rd(h);
    case 16: return __half2ushort_ru(h);
    case 17: return (unsigned long long)__half2ll_rn(h);
    case 18: return (unsigned long long)__half2ll_rz(h);
    case 19: return (unsigned long long)__half2ll_rd(h);
    case 20: return (unsigned long long)__half2ll_ru(h);
    case 21: return __half2ull_rn(h);
    case 22: return __half2ull_rz(h);
    case 23: return __half2ull_rd(h);
    case 24: return __half2ull_ru(h);
    case 25: return (unsigned short)__half_as_short(h);
    case 26: return (unsigned char)__half2char_rz(h);
    case 27: return __half2uchar_rz(h);
    case 28: return __bfloat16_as_ushort(__nv_bfloat16(h));
    case 29: return __half_as_ushort(__half(__ushort_as_bfloat16(__half_as_ushort(h))));
    default: return 0;
    }
}
static const char *from_half_names[] = {
    "half2float", "half2int_rn", "half2int_rz", "half2int_rd", "half2int_ru", "half2uint_rn", "half2uint_rz",
    "half2uint_rd", "half2uint_ru", "half2short_rn", "half2short_rz", "half2short_rd", "half2short_ru",
    "half2ushort_rn", "half2ushort_rz", "half2ushort_rd", "half2ushort_ru", "half2ll_rn", "half2ll_rz",
    "half2ll_rd", "half2ll_ru", "half2ull_rn", "half2ull_rz", "half2ull_rd", "half2ull_ru", "half_as_short",
    "half2char_rz", "half2uchar_rz", "half2bf16", "bf16bits2half"};
const int NFROM = 30;

__global__ void k_from_half(unsigned long long *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 65536) return;
    __half h = __ushort_as_half((unsigned short)i);
    for (int op = 0; op < NFROM; op++) out[op * 65536 + i] = from_half(op, h);
}

// ---- float / double -> half ---------------------------------------------------------------
__global__ void k_from_float(const float *in, int n, unsigned short *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = in[i];
    out[0 * n + i] = __half_as_ushort(__float2half(f));
    out[1 * n + i] = __half_as_ushort(__float2half_rz(f));
    out[2 * n + i] = __half_as_ushort(__float2half_rd(f));
    out[3 * n + i] = __half_as_ushort(__float2half_ru(f));
    out[4 * n + i] = __half_as_ushort(__float2half_rn(f));
}
__global__ void k_from_double(const double *in, int n, unsigned short *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = __half_as_ushort(__double2half(in[i]));
}

// ---- integers -> half ---------------------------------------------------------------------
__global__ void k_from_int(const long long *in, int n, unsigned short *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long v = in[i];
    unsigned long long u = (unsigned long long)v;
    int k = 0;
    out[(k++) * n + i] = __half_as_ushort(__ll2half_rn(v));
    out[(k++) * n + i] = __half_as_ushort(__ll2half_rz(v));
    out[(k++) * n + i] = __half_as_ushort(__ll2half_rd(v));
    out[(k++) * n + i] = __half_as_ushort(__ll2half_ru(v));
    out[(k++) * n + i] = __half_as_ushort(__ull2half_rn(u));
    out[(k++) * n + i] = __half_as_ushort(__ull2half_rz(u));
    out[(k++) * n + i] = __half_as_ushort(__ull2half_rd(u));
    out[(k++) * n + i] = __half_as_ushort(__ull2half_ru(u));
    out[(k++) * n + i] = __half_as_ushort(__int2half_rn((int)v));
    out[(k++) * n + i] = __half_as_ushort(__int2half_rz((int)v));
    out[(k++) * n + i] = __half_as_ushort(__int2half_rd((int)v));
    out[(k++) * n + i] = __half_as_ushort(__int2half_ru((int)v));
    out[(k++) * n + i] = __half_as_ushort(__uint2half_rn((unsigned int)v));
    out[(k++) * n + i] = __half_as_ushort(__uint2half_rz((unsigned int)v));
    out[(k++) * n + i] = __half_as_ushort(__uint2half_rd((unsigned int)v));
    out[(k++) * n + i] = __half_as_ushort(__uint2half_ru((unsigned int)v));
    out[(k++) * n + i] = __half_as_ushort(__short2half_rn((short)v));
    out[(k++) * n + i] = __half_as_ushort(__short2half_rz((short)v));
    out[(k++) * n + i] = __half_as_ushort(__short2half_rd((short)v));
    out[(k++) * n + i] = __half_as_ushort(__short2half_ru((short)v));
    out[(k++) * n + i] = __half_as_ushort(__ushort2half_rn((unsigned short)v));
    out[(k++) * n + i] = __half_as_ushort(__ushort2half_rz((unsigned short)v));
    out[(k++) * n + i] = __half_as_ushort(__ushort2half_rd((unsigned short)v));
    out[(k++) * n + i] = __half_as_ushort(__ushort2half_ru((unsigned short)v));
}
static const char *from_int_names[] = {
    "ll2half_rn", "ll2half_rz", "ll2half_rd", "ll2half_ru", "ull2half_rn", "ull2half_rz", "ull2half_rd",
    "ull2half_ru", "int2half_rn", "int2half_rz", "int2half_rd", "int2half_ru", "uint2half_rn",
    "uint2half_rz", "uint2half_rd", "uint2half_ru", "short2half_rn", "short2half_rz", "short2half_rd",
    "short2half_ru", "ushort2half_rn", "ushort2half_rz", "ushort2half_rd", "ushort2half_ru"};
const int NINT = 24;

// ---- half2 packing ----------------------------------------------------------------------
__global__ void k_pack(float a, float b, unsigned int *out) {
    __half2 p = __floats2half2_rn(a, b);
    __half2 q = __float2half2_rn(b);
    float2 f2; f2.x = b; f2.y = a;
    __half2 r = __float22half2_rn(f2);
    __half2 s = __halves2half2(__low2half(p), __high2half(r));
    __half2 t = __lows2half2(p, q);
    __half2 u = __highs2half2(p, r);
    __half2 v = __lowhigh2highlow(p);
    __half2 w = __half2half2(__high2half(p));
    __half2 x = __low2half2(r);
    __half2 y = __high2half2(r);
    __half2 all[10] = {p, q, r, s, t, u, v, w, x, y};
    for (int i = 0; i < 10; i++) out[i] = __half_as_ushort(all[i].x) | ((unsigned int)__half_as_ushort(all[i].y) << 16);
    float2 back = __half22float2(p);
    out[10] = (unsigned int)(int)(back.x * 1000.0f);
    out[11] = (unsigned int)(int)(back.y * 1000.0f);
    out[12] = (unsigned int)(int)(__low2float(r) * 1000.0f);
    out[13] = (unsigned int)(int)(__high2float(r) * 1000.0f);
}

static unsigned int fbits(float f) { unsigned int u; memcpy(&u, &f, 4); return u; }
static float bitsf(unsigned int u) { float f; memcpy(&f, &u, 4); return f; }
static float half_value(unsigned int h) {
    // Exact value of a finite half, computed on the host from its fields.
    int e = (h >> 10) & 31, m = h & 1023;
    float v = e ? ldexpf((float)(m | 1024), e - 25) : ldexpf((float)m, -24);
    return (h & 0x8000) ? -v : v;
}

int main(int argc, char **argv) {
    if (argc > 1) dump_dir = argv[1];

    // half -> everything
    unsigned long long *d_from;
    CHECK(cudaMalloc(&d_from, sizeof(unsigned long long) * NFROM * 65536));
    k_from_half<<<256, 256>>>(d_from);
    CHECK(cudaGetLastError());
    std::vector<unsigned long long> from(NFROM * 65536);
    CHECK(cudaMemcpy(from.data(), d_from, from.size() * 8, cudaMemcpyDeviceToHost));
    for (int op = 0; op < NFROM; op++) report(from_half_names[op], &from[op * 65536], 65536 * 8);
    // Readable: NaNs, infinities, extremes.
    const unsigned int probes[] = {0x7c01, 0x7e00, 0xfe00, 0x7fff, 0xfd55, 0x7c00, 0xfc00, 0x7bff, 0xfbff, 0x0001, 0x8001, 0x3800, 0xb800, 0x3e00, 0xbe00};
    for (unsigned int p : probes)
        printf("h %04x: float %08llx int_rn %d uint_rn %u short_rn %d ushort_rn %u ll_rn %lld ull_rn %llu\n", p,
               from[0 * 65536 + p], (int)from[1 * 65536 + p], (unsigned)from[5 * 65536 + p], (short)from[9 * 65536 + p],
               (unsigned)from[13 * 65536 + p], (long long)from[17 * 65536 + p], from[21 * 65536 + p]);

    // float -> half
    std::vector<float> fin;
    for (unsigned int h = 0; h < 0x7c00; h++) {
        float v = half_value(h), next = h + 1 < 0x7c00 ? half_value(h + 1) : 65520.0f;
        float mid = (v + next) * 0.5f;
        float c[] = {v, nextafterf(v, 1e30f), mid, nextafterf(mid, 0.0f), nextafterf(mid, 1e30f)};
        for (float x : c) { fin.push_back(x); fin.push_back(-x); }
    }
    for (int i = 0; i < 262144; i++) fin.push_back(bitsf(lcg()));
    const unsigned int fspecial[] = {0x7fc00000, 0x7f800001, 0xffc00000, 0x7fffffff, 0xff800001, 0x7fa00000, 0xffffffff,
                                     0x7f800000, 0xff800000, 0x7f7fffff, 0x00000001, 0x80000001, 0x477ff000, 0x477fefff,
                                     0x33000000, 0x33000001, 0x32ffffff, 0x33c00000, 0x387fc000, 0xb87fe000};
    for (unsigned int u : fspecial) fin.push_back(bitsf(u));
    int nf = (int)fin.size();
    float *d_fin; unsigned short *d_fout;
    CHECK(cudaMalloc(&d_fin, nf * 4));
    CHECK(cudaMalloc(&d_fout, nf * 2 * 5));
    CHECK(cudaMemcpy(d_fin, fin.data(), nf * 4, cudaMemcpyHostToDevice));
    k_from_float<<<(nf + 255) / 256, 256>>>(d_fin, nf, d_fout);
    std::vector<unsigned short> fout(nf * 5);
    CHECK(cudaMemcpy(fout.data(), d_fout, nf * 2 * 5, cudaMemcpyDeviceToHost));
    const char *fnames[] = {"float2half", "float2half_rz", "float2half_rd", "float2half_ru", "float2half_rn"};
    printf("float inputs: %d\n", nf);
    for (int m = 0; m < 5; m++) report(fnames[m], &fout[m * nf], nf * 2);
    int base = nf - (int)(sizeof fspecial / sizeof fspecial[0]);
    for (int i = 0; i < (int)(sizeof fspecial / sizeof fspecial[0]); i++)
        printf("f %08x: rn %04x rz %04x rd %04x ru %04x\n", fspecial[i], fout[base + i], fout[nf + base + i],
               fout[2 * nf + base + i], fout[3 * nf + base + i]);

    // double -> half
    std::vector<double> din;
    for (unsigned int h = 0; h < 0x7c00; h++) {
        double v = half_value(h), next = h + 1 < 0x7c00 ? half_value(h + 1) : 65520.0;
        double mid = (v + next) * 0.5;
        double tiny = ldexp(mid, -40);
        double c[] = {mid - tiny, mid + tiny, mid, v + ldexp(v, -45)};
        for (double x : c) { din.push_back(x); din.push_back(-x); }
    }
    for (int i = 0; i < 65536; i++) {
        unsigned long long b = lcg64();
        // exponents around half's range: 2^-30 .. 2^20
        b = (b & 0x800fffffffffffffull) | ((unsigned long long)(1023 - 30 + (lcg() % 51)) << 52);
        double d; memcpy(&d, &b, 8);
        din.push_back(d);
    }
    const unsigned long long dspecial[] = {0x7ff8000000000000ull, 0xfff0000000000001ull, 0x7ff0000000000000ull,
                                           0x40effe0000000000ull, 0x40effdffffffffffull, 0x3e70000000000000ull,
                                           0x3e6fffffffffffffull, 0x0000000000000001ull};
    for (unsigned long long b : dspecial) { double d; memcpy(&d, &b, 8); din.push_back(d); }
    int nd = (int)din.size();
    double *d_din; unsigned short *d_dout;
    CHECK(cudaMalloc(&d_din, nd * 8));
    CHECK(cudaMalloc(&d_dout, nd * 2));
    CHECK(cudaMemcpy(d_din, din.data(), nd * 8, cudaMemcpyHostToDevice));
    k_from_double<<<(nd + 255) / 256, 256>>>(d_din, nd, d_dout);
    std::vector<unsigned short> dout(nd);
    CHECK(cudaMemcpy(dout.data(), d_dout, nd * 2, cudaMemcpyDeviceToHost));
    printf("double inputs: %d\n", nd);
    report("double2half", dout.data(), nd * 2);
    for (int i = 0; i < 8; i++) printf("d %016llx: %04x\n", dspecial[i], dout[nd - 8 + i]);

    // integers -> half
    std::vector<long long> iin;
    for (int i = 0; i < 65536; i++) iin.push_back((short)i);
    for (int i = 0; i < 65536; i++) iin.push_back(i);
    for (int k = 0; k < 64; k++) {
        unsigned long long p = 1ull << k;
        for (int d = -3; d <= 3; d++) { iin.push_back((long long)(p + d)); iin.push_back(-(long long)(p + d)); }
        if (k >= 12) {
            for (int j = 0; j < 8; j++) {
                unsigned long long m = p + (unsigned long long)(lcg() & 1023) * (p >> 10) + (p >> 11);
                for (int d = -1; d <= 1; d++) { iin.push_back((long long)(m + d)); iin.push_back(-(long long)(m + d)); }
            }
        }
    }
    for (int i = 0; i < 4096; i++) iin.push_back((long long)(lcg64() >> (lcg() % 64)));
    int ni = (int)iin.size();
    long long *d_iin; unsigned short *d_iout;
    CHECK(cudaMalloc(&d_iin, ni * 8));
    CHECK(cudaMalloc(&d_iout, ni * 2 * NINT));
    CHECK(cudaMemcpy(d_iin, iin.data(), ni * 8, cudaMemcpyHostToDevice));
    k_from_int<<<(ni + 255) / 256, 256>>>(d_iin, ni, d_iout);
    std::vector<unsigned short> iout(ni * NINT);
    CHECK(cudaMemcpy(iout.data(), d_iout, ni * 2 * NINT, cudaMemcpyDeviceToHost));
    printf("integer inputs: %d\n", ni);
    for (int k = 0; k < NINT; k++) report(from_int_names[k], &iout[k * ni], ni * 2);

    // half2 packing and data movement
    unsigned int *d_pack, pack[14];
    CHECK(cudaMalloc(&d_pack, sizeof pack));
    k_pack<<<1, 1>>>(1.5f, -0.333f, d_pack);
    CHECK(cudaMemcpy(pack, d_pack, sizeof pack, cudaMemcpyDeviceToHost));
    printf("half2:");
    for (int i = 0; i < 10; i++) printf(" %08x", pack[i]);
    printf("\nfloats: %d %d %d %d\n", (int)pack[10], (int)pack[11], (int)pack[12], (int)pack[13]);
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
