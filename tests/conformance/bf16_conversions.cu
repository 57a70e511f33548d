// bf16_conversions: every conversion to and from __nv_bfloat16 in every rounding mode, in device
// code. bf16 -> float and bf16 -> integers (int, unsigned, short, unsigned short, long
// long, unsigned long long, rn/rz/rd/ru; char/uchar rz) over all 65536 bit patterns;
// float -> bf16 (rn/rz/rd/ru) over the midpoints between neighbouring bf16 values and their
// float neighbours, the values themselves and 262144 random float bit patterns; double ->
// bf16 over midpoints moved by less than a float ulp and random doubles; integers ->
// bf16 (4 modes) over all shorts, all unsigned shorts and 64-bit values around powers of
// two and rounding midpoints. Prints a hash of each result array, and readable lines for
// NaN, infinity and saturation cases. With a directory argument it also writes each
// result array there (raw, for comparing with another implementation).
// Expected output: nvcc 13 -arch=sm_90 on an H100.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
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

// ---- bf16 -> float / integers over all bit patterns --------------------------------------
__device__ unsigned long long from_bf16(int op, __nv_bfloat16 h) {
    switch (op) {
    case 0: { float f = __bfloat162float(h); unsigned int u; memcpy(&u, &f, 4); return u; }
    case 1: return (unsigned int)__bfloat162int_rn(h);
    case 2: return (unsigned int)__bfloat162int_rz(h);
    case 3: return (unsigned int)__bfloat162int_rd(h);
    case 4: return (unsigned int)__bfloat162int_ru(h);
    case 5: return __bfloat162uint_rn(h);
    case 6: return __bfloat162uint_rz(h);
    case 7: return __bfloat162uint_rd(h);
    case 8: return __bfloat162uint_ru(h);
    case 9: return (unsigned short)__bfloat162short_rn(h);
    case 10: return (unsigned short)__bfloat162short_rz(h);
    case 11: return (unsigned short)__bfloat162short_rd(h);
    case 12: return (unsigned short)__bfloat162short_ru(h);
    case 13: return __bfloat162ushort_rn(h);
    case 14: return __bfloat162ushort_rz(h);
    case 15: return __bfloat162ushort_rd(h);
    case 16: return __bfloat162ushort_ru(h);
    case 17: return (unsigned long long)__bfloat162ll_rn(h);
    case 18: return (unsigned long long)__bfloat162ll_rz(h);
    case 19: return (unsigned long long)__bfloat162ll_rd(h);
    case 20: return (unsigned long long)__bfloat162ll_ru(h);
    case 21: return __bfloat162ull_rn(h);
    case 22: return __bfloat162ull_rz(h);
    case 23: return __bfloat162ull_rd(h);
    case 24: return __bfloat162ull_ru(h);
    case 25: return (unsigned short)__bfloat16_as_short(h);
    case 26: return (unsigned char)__bfloat162char_rz(h);
    case 27: return __bfloat162uchar_rz(h);
    default: return 0;
    }
}
static const char *from_bf16_names[] = {
    "bf162float", "bf162int_rn", "bf162int_rz", "bf162int_rd", "bf162int_ru", "bf162uint_rn", "bf162uint_rz",
    "bf162uint_rd", "bf162uint_ru", "bf162short_rn", "bf162short_rz", "bf162short_rd", "bf162short_ru",
    "bf162ushort_rn", "bf162ushort_rz", "bf162ushort_rd", "bf162ushort_ru", "bf162ll_rn", "bf162ll_rz",
    "bf162ll_rd", "bf162ll_ru", "bf162ull_rn", "bf162ull_rz", "bf162ull_rd", "bf162ull_ru", "bf16_as_short",
    "bf162char_rz", "bf162uchar_rz"};
const int NFROM = 28;

__global__ void k_from_bf16(unsigned long long *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 65536) return;
    __nv_bfloat16 h = __ushort_as_bfloat16((unsigned short)i);
    for (int op = 0; op < NFROM; op++) out[op * 65536 + i] = from_bf16(op, h);
}

// ---- float / double -> bf16 ---------------------------------------------------------------
__global__ void k_from_float(const float *in, int n, unsigned short *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = in[i];
    out[0 * n + i] = __bfloat16_as_ushort(__float2bfloat16(f));
    out[1 * n + i] = __bfloat16_as_ushort(__float2bfloat16_rz(f));
    out[2 * n + i] = __bfloat16_as_ushort(__float2bfloat16_rd(f));
    out[3 * n + i] = __bfloat16_as_ushort(__float2bfloat16_ru(f));
    out[4 * n + i] = __bfloat16_as_ushort(__float2bfloat16_rn(f));
}
__global__ void k_from_double(const double *in, int n, unsigned short *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = __bfloat16_as_ushort(__double2bfloat16(in[i]));
}

// ---- integers -> bf16 ---------------------------------------------------------------------
__global__ void k_from_int(const long long *in, int n, unsigned short *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    long long v = in[i];
    unsigned long long u = (unsigned long long)v;
    int k = 0;
    out[(k++) * n + i] = __bfloat16_as_ushort(__ll2bfloat16_rn(v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__ll2bfloat16_rz(v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__ll2bfloat16_rd(v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__ll2bfloat16_ru(v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__ull2bfloat16_rn(u));
    out[(k++) * n + i] = __bfloat16_as_ushort(__ull2bfloat16_rz(u));
    out[(k++) * n + i] = __bfloat16_as_ushort(__ull2bfloat16_rd(u));
    out[(k++) * n + i] = __bfloat16_as_ushort(__ull2bfloat16_ru(u));
    out[(k++) * n + i] = __bfloat16_as_ushort(__int2bfloat16_rn((int)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__int2bfloat16_rz((int)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__int2bfloat16_rd((int)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__int2bfloat16_ru((int)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__uint2bfloat16_rn((unsigned int)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__uint2bfloat16_rz((unsigned int)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__uint2bfloat16_rd((unsigned int)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__uint2bfloat16_ru((unsigned int)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__short2bfloat16_rn((short)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__short2bfloat16_rz((short)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__short2bfloat16_rd((short)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__short2bfloat16_ru((short)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__ushort2bfloat16_rn((unsigned short)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__ushort2bfloat16_rz((unsigned short)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__ushort2bfloat16_rd((unsigned short)v));
    out[(k++) * n + i] = __bfloat16_as_ushort(__ushort2bfloat16_ru((unsigned short)v));
}
static const char *from_int_names[] = {
    "ll2bf16_rn", "ll2bf16_rz", "ll2bf16_rd", "ll2bf16_ru", "ull2bf16_rn", "ull2bf16_rz", "ull2bf16_rd",
    "ull2bf16_ru", "int2bf16_rn", "int2bf16_rz", "int2bf16_rd", "int2bf16_ru", "uint2bf16_rn",
    "uint2bf16_rz", "uint2bf16_rd", "uint2bf16_ru", "short2bf16_rn", "short2bf16_rz", "short2bf16_rd",
    "short2bf16_ru", "ushort2bf16_rn", "ushort2bf16_rz", "ushort2bf16_rd", "ushort2bf16_ru"};
const int NINT = 24;

// ---- bf162 packing ----------------------------------------------------------------------
__global__ void k_pack(float a, float b, unsigned int *out) {
    __nv_bfloat162 p = __floats2bfloat162_rn(a, b);
    __nv_bfloat162 q = __float2bfloat162_rn(b);
    float2 f2; f2.x = b; f2.y = a;
    __nv_bfloat162 r = __float22bfloat162_rn(f2);
    __nv_bfloat162 s = __halves2bfloat162(__low2bfloat16(p), __high2bfloat16(r));
    __nv_bfloat162 t = __lows2bfloat162(p, q);
    __nv_bfloat162 u = __highs2bfloat162(p, r);
    __nv_bfloat162 v = __lowhigh2highlow(p);
    __nv_bfloat162 w = __bfloat162bfloat162(__high2bfloat16(p));
    __nv_bfloat162 x = __low2bfloat162(r);
    __nv_bfloat162 y = __high2bfloat162(r);
    __nv_bfloat162 all[10] = {p, q, r, s, t, u, v, w, x, y};
    for (int i = 0; i < 10; i++) out[i] = __bfloat16_as_ushort(all[i].x) | ((unsigned int)__bfloat16_as_ushort(all[i].y) << 16);
    float2 back = __bfloat1622float2(p);
    out[10] = (unsigned int)(int)(back.x * 1000.0f);
    out[11] = (unsigned int)(int)(back.y * 1000.0f);
    out[12] = (unsigned int)(int)(__low2float(r) * 1000.0f);
    out[13] = (unsigned int)(int)(__high2float(r) * 1000.0f);
}

static unsigned int fbits(float f) { unsigned int u; memcpy(&u, &f, 4); return u; }
static float bitsf(unsigned int u) { float f; memcpy(&f, &u, 4); return f; }
static float bf16_value(unsigned int h) { return bitsf(h << 16); } // a bf16's exact value

int main(int argc, char **argv) {
    if (argc > 1) dump_dir = argv[1];

    // bf16 -> everything
    unsigned long long *d_from;
    CHECK(cudaMalloc(&d_from, sizeof(unsigned long long) * NFROM * 65536));
    k_from_bf16<<<256, 256>>>(d_from);
    CHECK(cudaGetLastError());
    std::vector<unsigned long long> from(NFROM * 65536);
    CHECK(cudaMemcpy(from.data(), d_from, from.size() * 8, cudaMemcpyDeviceToHost));
    for (int op = 0; op < NFROM; op++) report(from_bf16_names[op], &from[op * 65536], 65536 * 8);
    // Readable: NaNs, infinities, extremes.
    const unsigned int probes[] = {0x7f81, 0x7fc0, 0xffc0, 0x7fff, 0xffd5, 0x7f80, 0xff80, 0x7f7f, 0xff7f, 0x0001, 0x8001, 0x3f00, 0xbf00, 0x3fc0, 0xbfc0, 0x4f00, 0x4f80, 0xcf00, 0xcf01, 0x5f00, 0x5f80, 0xdf00, 0xdf01};
    for (unsigned int p : probes)
        printf("h %04x: float %08llx int_rn %d uint_rn %u short_rn %d ushort_rn %u ll_rn %lld ull_rn %llu\n", p,
               from[0 * 65536 + p], (int)from[1 * 65536 + p], (unsigned)from[5 * 65536 + p], (short)from[9 * 65536 + p],
               (unsigned)from[13 * 65536 + p], (long long)from[17 * 65536 + p], from[21 * 65536 + p]);

    // float -> bf16
    std::vector<float> fin;
    for (unsigned int h = 0; h < 0x7f80; h++) {
        float v = bf16_value(h), next = h + 1 < 0x7f80 ? bf16_value(h + 1) : 3.4028235e38f;
        float mid = h + 1 < 0x7f80 ? (v + next) * 0.5f : next;
        float c[] = {v, nextafterf(v, 1e30f), mid, nextafterf(mid, 0.0f), nextafterf(mid, 1e30f)};
        for (float x : c) { fin.push_back(x); fin.push_back(-x); }
    }
    for (int i = 0; i < 262144; i++) fin.push_back(bitsf(lcg()));
    const unsigned int fspecial[] = {0x7fc00000, 0x7f800001, 0xffc00000, 0x7fffffff, 0xff800001, 0x7fa00000, 0xffffffff,
                                     0x7f800000, 0xff800000, 0x7f7fffff, 0x00000001, 0x80000001, 0x7f7f8000, 0x7f7f7fff,
                                     0x00008000, 0x00008001, 0x00007fff, 0x00018000, 0x3f808000, 0xbf818000};
    for (unsigned int u : fspecial) fin.push_back(bitsf(u));
    int nf = (int)fin.size();
    float *d_fin; unsigned short *d_fout;
    CHECK(cudaMalloc(&d_fin, nf * 4));
    CHECK(cudaMalloc(&d_fout, nf * 2 * 5));
    CHECK(cudaMemcpy(d_fin, fin.data(), nf * 4, cudaMemcpyHostToDevice));
    k_from_float<<<(nf + 255) / 256, 256>>>(d_fin, nf, d_fout);
    std::vector<unsigned short> fout(nf * 5);
    CHECK(cudaMemcpy(fout.data(), d_fout, nf * 2 * 5, cudaMemcpyDeviceToHost));
    const char *fnames[] = {"float2bf16", "float2bf16_rz", "float2bf16_rd", "float2bf16_ru", "float2bf16_rn"};
    printf("float inputs: %d\n", nf);
    for (int m = 0; m < 5; m++) report(fnames[m], &fout[m * nf], nf * 2);
    int base = nf - (int)(sizeof fspecial / sizeof fspecial[0]);
    for (int i = 0; i < (int)(sizeof fspecial / sizeof fspecial[0]); i++)
        printf("f %08x: rn %04x rz %04x rd %04x ru %04x\n", fspecial[i], fout[base + i], fout[nf + base + i],
               fout[2 * nf + base + i], fout[3 * nf + base + i]);

    // double -> bf16
    std::vector<double> din;
    for (unsigned int h = 0; h < 0x7f80; h += 2) {
        double v = bf16_value(h), next = h + 1 < 0x7f80 ? bf16_value(h + 1) : ldexp(2.0, 127) - ldexp(1.0, 127 - 8);
        double mid = (v + next) * 0.5;
        double tiny = ldexp(mid, -40);
        double c[] = {mid - tiny, mid + tiny, mid, v + ldexp(v, -45)};
        for (double x : c) { din.push_back(x); din.push_back(-x); }
    }
    for (int i = 0; i < 65536; i++) {
        unsigned long long b = lcg64();
        // exponents over bf16's range: 2^-140 .. 2^130
        b = (b & 0x800fffffffffffffull) | ((unsigned long long)(1023 - 140 + (lcg() % 271)) << 52);
        double d; memcpy(&d, &b, 8);
        din.push_back(d);
    }
    const unsigned long long dspecial[] = {0x7ff8000000000000ull, 0xfff0000000000001ull, 0x7ff0000000000000ull,
                                           0x47efffffe0000000ull, 0x47efffffdfffffffull, 0x3790000000000000ull,
                                           0x378fffffffffffffull, 0x0000000000000001ull};
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
    report("double2bf16", dout.data(), nd * 2);
    for (int i = 0; i < 8; i++) printf("d %016llx: %04x\n", dspecial[i], dout[nd - 8 + i]);

    // integers -> bf16
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

    // bf162 packing and data movement
    unsigned int *d_pack, pack[14];
    CHECK(cudaMalloc(&d_pack, sizeof pack));
    k_pack<<<1, 1>>>(1.5f, -0.333f, d_pack);
    CHECK(cudaMemcpy(pack, d_pack, sizeof pack, cudaMemcpyDeviceToHost));
    printf("bf162:");
    for (int i = 0; i < 10; i++) printf(" %08x", pack[i]);
    printf("\nfloats: %d %d %d %d\n", (int)pack[10], (int)pack[11], (int)pack[12], (int)pack[13]);
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
