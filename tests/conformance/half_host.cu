// half_host: cuda_fp16.h and cuda_bf16.h in host code (the functions CUDA declares
// __host__ __device__): float <-> half/bf16 conversions in the four rounding modes,
// double -> half/bf16, half/bf16 -> float over all 65536 bit patterns, and add, sub,
// mul, div, neg, abs, _sat over random pairs, computed on the host; the same conversions
// computed on the device must give the same bits. Prints hashes and a few values.
// Expected output: nvcc 13 -arch=sm_90 on an H100.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

static unsigned long long fnv(const void *p, size_t n) {
    const unsigned char *b = (const unsigned char *)p;
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ull;
    return h;
}
static unsigned int lcg_state = 4242u;
static unsigned int lcg() { lcg_state = lcg_state * 1664525u + 1013904223u; return lcg_state; }
static float bitsf(unsigned int u) { float f; memcpy(&f, &u, 4); return f; }
static unsigned int fbits(float f) { unsigned int u; memcpy(&u, &f, 4); return u; }
static unsigned short hbits(__half h) { __half_raw r = h; return r.x; }
static __half hmake(unsigned short b) { __half_raw r; r.x = b; return __half(r); }
static unsigned short bbits(__nv_bfloat16 h) { __nv_bfloat16_raw r = h; return r.x; }
static __nv_bfloat16 bmake(unsigned short b) { __nv_bfloat16_raw r; r.x = b; return __nv_bfloat16(r); }

__global__ void k_convert(const float *in, int n, unsigned short *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float f = in[i];
    out[8 * i + 0] = __half_as_ushort(__float2half_rn(f));
    out[8 * i + 1] = __half_as_ushort(__float2half_rz(f));
    out[8 * i + 2] = __half_as_ushort(__float2half_rd(f));
    out[8 * i + 3] = __half_as_ushort(__float2half_ru(f));
    out[8 * i + 4] = __bfloat16_as_ushort(__float2bfloat16_rn(f));
    out[8 * i + 5] = __bfloat16_as_ushort(__float2bfloat16_rz(f));
    out[8 * i + 6] = __bfloat16_as_ushort(__float2bfloat16_rd(f));
    out[8 * i + 7] = __bfloat16_as_ushort(__float2bfloat16_ru(f));
}

int main() {
    // half/bf16 -> float over all patterns.
    std::vector<unsigned int> tofloat(2 * 65536);
    for (unsigned int i = 0; i < 65536; i++) {
        tofloat[i] = fbits(__half2float(hmake((unsigned short)i)));
        tofloat[65536 + i] = fbits(__bfloat162float(bmake((unsigned short)i)));
    }
    printf("half2float  %016llx\n", fnv(&tofloat[0], 65536 * 4));
    printf("bf162float  %016llx\n", fnv(&tofloat[65536], 65536 * 4));
    for (unsigned int p : {0x7c01u, 0x7e00u, 0xfe00u, 0x7fffu})
        printf("half %04x -> %08x\n", p, tofloat[p]);
    for (unsigned int p : {0x7f81u, 0x7fc0u, 0xffc0u, 0x7fffu})
        printf("bf16 %04x -> %08x\n", p, tofloat[65536 + p]);

    // float -> half/bf16, four modes, host and device.
    std::vector<float> in;
    for (int i = 0; i < 200000; i++) in.push_back(bitsf(lcg()));
    for (int i = 0; i < 100000; i++) {
        // values near half's range with short mantissas: many ties
        unsigned int e = 100 + lcg() % 60, m = (lcg() & 0x7fe000) | ((lcg() & 1) << 12);
        in.push_back(bitsf((lcg() & 0x80000000u) | (e << 23) | m));
    }
    const unsigned int special[] = {0x7fc00000, 0xffc00001, 0x7f800001, 0x7f800000, 0xff800000, 0x477ff000, 0x477fefff,
                                    0x33000000, 0x33000001, 0x7f7f8000, 0x7f7fffff, 0x00008000, 0x80008001};
    for (unsigned int u : special) in.push_back(bitsf(u));
    int n = (int)in.size();
    std::vector<unsigned short> host(8 * n), dev(8 * n);
    for (int i = 0; i < n; i++) {
        float f = in[i];
        host[8 * i + 0] = hbits(__float2half_rn(f));
        host[8 * i + 1] = hbits(__float2half_rz(f));
        host[8 * i + 2] = hbits(__float2half_rd(f));
        host[8 * i + 3] = hbits(__float2half_ru(f));
        host[8 * i + 4] = bbits(__float2bfloat16_rn(f));
        host[8 * i + 5] = bbits(__float2bfloat16_rz(f));
        host[8 * i + 6] = bbits(__float2bfloat16_rd(f));
        host[8 * i + 7] = bbits(__float2bfloat16_ru(f));
    }
    printf("host float->half/bf16 %016llx\n", fnv(host.data(), host.size() * 2));
    for (int k = 0; k < 13; k++) {
        int i = n - 13 + k;
        printf("f %08x: half %04x %04x %04x %04x bf16 %04x %04x %04x %04x\n", special[k], host[8 * i], host[8 * i + 1],
               host[8 * i + 2], host[8 * i + 3], host[8 * i + 4], host[8 * i + 5], host[8 * i + 6], host[8 * i + 7]);
    }
    float *d_in; unsigned short *d_out;
    cudaMalloc(&d_in, n * 4);
    cudaMalloc(&d_out, n * 16);
    cudaMemcpy(d_in, in.data(), n * 4, cudaMemcpyHostToDevice);
    k_convert<<<(n + 255) / 256, 256>>>(d_in, n, d_out);
    cudaMemcpy(dev.data(), d_out, n * 16, cudaMemcpyDeviceToHost);
    int differ_nan = 0, differ = 0;
    for (int i = 0; i < 8 * n; i++) {
        if (host[i] != dev[i]) {
            unsigned int u = fbits(in[i / 8]);
            if ((u & 0x7fffffff) > 0x7f800000) differ_nan++; else differ++;
        }
    }
    printf("host vs device: %d differ (not NaN), %d differ (NaN inputs)\n", differ, differ_nan);

    // double -> half/bf16
    std::vector<unsigned short> dh;
    for (int i = 0; i < 100000; i++) {
        double d = (double)bitsf(lcg()) * (1.0 + (double)(lcg() & 0xffff) * 1e-12);
        dh.push_back(hbits(__double2half(d)));
        dh.push_back(bbits(__double2bfloat16(d)));
    }
    printf("double2half/bf16 %016llx\n", fnv(dh.data(), dh.size() * 2));

    // Arithmetic on random pairs.
    std::vector<unsigned short> ar;
    for (int i = 0; i < 100000; i++) {
        __half a = hmake((unsigned short)lcg()), b = hmake((unsigned short)lcg());
        ar.push_back(hbits(__hadd(a, b)));
        ar.push_back(hbits(__hsub(a, b)));
        ar.push_back(hbits(__hmul(a, b)));
        ar.push_back(hbits(__hdiv(a, b)));
        ar.push_back(hbits(__hneg(a)));
        ar.push_back(hbits(__habs(b)));
        ar.push_back(hbits(__hadd_sat(a, b)));
        ar.push_back(hbits(__hmul_sat(a, b)));
    }
    printf("half arithmetic %016llx\n", fnv(ar.data(), ar.size() * 2));
    ar.clear();
    for (int i = 0; i < 100000; i++) {
        __nv_bfloat16 a = bmake((unsigned short)lcg()), b = bmake((unsigned short)lcg());
        ar.push_back(bbits(__hadd(a, b)));
        ar.push_back(bbits(__hsub(a, b)));
        ar.push_back(bbits(__hmul(a, b)));
        ar.push_back(bbits(__hdiv(a, b)));
        ar.push_back(bbits(__hneg(a)));
        ar.push_back(bbits(__habs(b)));
        ar.push_back(bbits(__hadd_sat(a, b)));
        ar.push_back(bbits(__hmul_sat(a, b)));
    }
    printf("bf16 arithmetic %016llx\n", fnv(ar.data(), ar.size() * 2));
    __half x = __float2half(1.25f), y = __float2half(-3.5f);
    __nv_bfloat16 u = __float2bfloat16(1.25f), v = __float2bfloat16(-3.5f);
    printf("values: %g %g %g %g\n", __half2float(__hmul(x, y)), __half2float(__hdiv(y, x)), __bfloat162float(__hadd(u, v)),
           __bfloat162float(__hsub(u, v)));
    printf("done\n");
    return 0;
}
