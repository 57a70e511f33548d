// Math sweep, device side: evaluates CUDA math functions and intrinsics on the inputs
// that tests/math-sweep/reference.c wrote, and writes the raw result bits back for it to
// judge. Built by Cuprite in CI (crates/cuprite/tests/math_sweep.rs) and by nvcc on the
// GPU machine (tools/math-sweep-gpu.sh), so both sides run the same calls.
//
//   sweep INPUTS OUTPUTS
//
// File formats (little-endian): INPUTS = "MSWI", u32 count, then per function: u32 name
// length, name, u32 arity, u32 n, arity arrays of n u64 (a float's bits in the low 32, an
// int's as unsigned). OUTPUTS = "MSWO", u32 count, per function: u32 name length, name,
// u32 n, n u64 results encoded the same way.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string>

typedef unsigned long long u64;

#define AF(k) __uint_as_float((unsigned)A##k[i])
#define AD(k) __longlong_as_double((long long)A##k[i])
#define AI(k) ((int)(unsigned)A##k[i])
#define AU(k) ((unsigned)A##k[i])
#define AL(k) ((long long)A##k[i])
#define AUL(k) ((unsigned long long)A##k[i])
#define RF(e) ((u64)__float_as_uint(e))
#define RD(e) ((u64)__double_as_longlong(e))
#define RI(e) ((u64)(unsigned)(int)(e))
#define RU(e) ((u64)(unsigned)(e))
#define RL(e) ((u64)(long long)(e))
#define RUL(e) ((u64)(e))

// Functions with several results, one sweep entry per result.
__device__ float sincosf_s(float x) { float s, c; sincosf(x, &s, &c); return s; }
__device__ float sincosf_c(float x) { float s, c; sincosf(x, &s, &c); return c; }
__device__ double sincos_s(double x) { double s, c; sincos(x, &s, &c); return s; }
__device__ double sincos_c(double x) { double s, c; sincos(x, &s, &c); return c; }
__device__ float sincospif_s(float x) { float s, c; sincospif(x, &s, &c); return s; }
__device__ float sincospif_c(float x) { float s, c; sincospif(x, &s, &c); return c; }
__device__ double sincospi_s(double x) { double s, c; sincospi(x, &s, &c); return s; }
__device__ double sincospi_c(double x) { double s, c; sincospi(x, &s, &c); return c; }
__device__ float fast_sincosf_s(float x) { float s, c; __sincosf(x, &s, &c); return s; }
__device__ float fast_sincosf_c(float x) { float s, c; __sincosf(x, &s, &c); return c; }
__device__ float frexpf_m(float x) { int e; return frexpf(x, &e); }
__device__ int frexpf_e(float x) { int e = 0; frexpf(x, &e); return e; }
__device__ double frexp_m(double x) { int e; return frexp(x, &e); }
__device__ int frexp_e(double x) { int e = 0; frexp(x, &e); return e; }
__device__ float modff_f(float x) { float ip; return modff(x, &ip); }
__device__ float modff_i(float x) { float ip; modff(x, &ip); return ip; }
__device__ double modf_f(double x) { double ip; return modf(x, &ip); }
__device__ double modf_i(double x) { double ip; modf(x, &ip); return ip; }
__device__ float remquof_r(float x, float y) { int q; return remquof(x, y, &q); }
__device__ int remquof_q(float x, float y) { int q = 0; remquof(x, y, &q); return q; }
__device__ double remquo_r(double x, double y) { int q; return remquo(x, y, &q); }
__device__ int remquo_q(double x, double y) { int q = 0; remquo(x, y, &q); return q; }
__device__ float normf4(float a, float b, float c, float d) { float v[4] = {a, b, c, d}; return normf(4, v); }
__device__ float rnormf4(float a, float b, float c, float d) { float v[4] = {a, b, c, d}; return rnormf(4, v); }
__device__ double norm4(double a, double b, double c, double d) { double v[4] = {a, b, c, d}; return norm(4, v); }
__device__ double rnorm4(double a, double b, double c, double d) { double v[4] = {a, b, c, d}; return rnorm(4, v); }

#define ROUNDED4(X, PFX, SFX, R, ARGS) X(PFX##_rn##SFX, R(PFX##_rn ARGS)) X(PFX##_rz##SFX, R(PFX##_rz ARGS)) \
    X(PFX##_ru##SFX, R(PFX##_ru ARGS)) X(PFX##_rd##SFX, R(PFX##_rd ARGS))

// Every swept function: its name (as reference.c knows it) and the expression computing
// its encoded result from the encoded arguments A0[i]..A3[i].
#define SWEEP_FUNCTIONS(X) \
    X(sqrtf, RF(sqrtf(AF(0)))) X(rsqrtf, RF(rsqrtf(AF(0)))) X(cbrtf, RF(cbrtf(AF(0)))) X(rcbrtf, RF(rcbrtf(AF(0)))) \
    X(expf, RF(expf(AF(0)))) X(exp2f, RF(exp2f(AF(0)))) X(exp10f, RF(exp10f(AF(0)))) X(expm1f, RF(expm1f(AF(0)))) \
    X(logf, RF(logf(AF(0)))) X(log2f, RF(log2f(AF(0)))) X(log10f, RF(log10f(AF(0)))) X(log1pf, RF(log1pf(AF(0)))) \
    X(sinf, RF(sinf(AF(0)))) X(cosf, RF(cosf(AF(0)))) X(tanf, RF(tanf(AF(0)))) X(asinf, RF(asinf(AF(0)))) \
    X(acosf, RF(acosf(AF(0)))) X(atanf, RF(atanf(AF(0)))) X(sinhf, RF(sinhf(AF(0)))) X(coshf, RF(coshf(AF(0)))) \
    X(tanhf, RF(tanhf(AF(0)))) X(asinhf, RF(asinhf(AF(0)))) X(acoshf, RF(acoshf(AF(0)))) X(atanhf, RF(atanhf(AF(0)))) \
    X(erff, RF(erff(AF(0)))) X(erfcf, RF(erfcf(AF(0)))) X(erfinvf, RF(erfinvf(AF(0)))) X(erfcinvf, RF(erfcinvf(AF(0)))) \
    X(erfcxf, RF(erfcxf(AF(0)))) X(normcdff, RF(normcdff(AF(0)))) X(normcdfinvf, RF(normcdfinvf(AF(0)))) \
    X(tgammaf, RF(tgammaf(AF(0)))) X(lgammaf, RF(lgammaf(AF(0)))) X(fabsf, RF(fabsf(AF(0)))) X(floorf, RF(floorf(AF(0)))) \
    X(ceilf, RF(ceilf(AF(0)))) X(roundf, RF(roundf(AF(0)))) X(truncf, RF(truncf(AF(0)))) X(rintf, RF(rintf(AF(0)))) \
    X(nearbyintf, RF(nearbyintf(AF(0)))) X(logbf, RF(logbf(AF(0)))) X(sinpif, RF(sinpif(AF(0)))) X(cospif, RF(cospif(AF(0)))) \
    X(j0f, RF(j0f(AF(0)))) X(j1f, RF(j1f(AF(0)))) X(y0f, RF(y0f(AF(0)))) X(y1f, RF(y1f(AF(0)))) \
    X(cyl_bessel_i0f, RF(cyl_bessel_i0f(AF(0)))) X(cyl_bessel_i1f, RF(cyl_bessel_i1f(AF(0)))) \
    X(sincosf_s, RF(sincosf_s(AF(0)))) X(sincosf_c, RF(sincosf_c(AF(0)))) X(sincospif_s, RF(sincospif_s(AF(0)))) \
    X(sincospif_c, RF(sincospif_c(AF(0)))) X(frexpf_m, RF(frexpf_m(AF(0)))) X(frexpf_e, RI(frexpf_e(AF(0)))) \
    X(modff_f, RF(modff_f(AF(0)))) X(modff_i, RF(modff_i(AF(0)))) X(ilogbf, RI(ilogbf(AF(0)))) \
    X(lrintf, RL(lrintf(AF(0)))) X(llrintf, RL(llrintf(AF(0)))) X(lroundf, RL(lroundf(AF(0)))) X(llroundf, RL(llroundf(AF(0)))) \
    X(powf, RF(powf(AF(0), AF(1)))) X(atan2f, RF(atan2f(AF(0), AF(1)))) X(hypotf, RF(hypotf(AF(0), AF(1)))) \
    X(fmodf, RF(fmodf(AF(0), AF(1)))) X(remainderf, RF(remainderf(AF(0), AF(1)))) X(fminf, RF(fminf(AF(0), AF(1)))) \
    X(fmaxf, RF(fmaxf(AF(0), AF(1)))) X(fdimf, RF(fdimf(AF(0), AF(1)))) X(copysignf, RF(copysignf(AF(0), AF(1)))) \
    X(nextafterf, RF(nextafterf(AF(0), AF(1)))) X(rhypotf, RF(rhypotf(AF(0), AF(1)))) \
    X(remquof_r, RF(remquof_r(AF(0), AF(1)))) X(remquof_q, RI(remquof_q(AF(0), AF(1)))) \
    X(fmaf, RF(fmaf(AF(0), AF(1), AF(2)))) X(norm3df, RF(norm3df(AF(0), AF(1), AF(2)))) \
    X(rnorm3df, RF(rnorm3df(AF(0), AF(1), AF(2)))) X(norm4df, RF(norm4df(AF(0), AF(1), AF(2), AF(3)))) \
    X(rnorm4df, RF(rnorm4df(AF(0), AF(1), AF(2), AF(3)))) X(normf4, RF(normf4(AF(0), AF(1), AF(2), AF(3)))) \
    X(rnormf4, RF(rnormf4(AF(0), AF(1), AF(2), AF(3)))) X(ldexpf, RF(ldexpf(AF(0), AI(1)))) \
    X(scalbnf, RF(scalbnf(AF(0), AI(1)))) X(scalblnf, RF(scalblnf(AF(0), AL(1)))) \
    X(jnf, RF(jnf(AI(0), AF(1)))) X(ynf, RF(ynf(AI(0), AF(1)))) \
    X(sqrt, RD(sqrt(AD(0)))) X(rsqrt, RD(rsqrt(AD(0)))) X(cbrt, RD(cbrt(AD(0)))) X(rcbrt, RD(rcbrt(AD(0)))) \
    X(exp, RD(exp(AD(0)))) X(exp2, RD(exp2(AD(0)))) X(exp10, RD(exp10(AD(0)))) X(expm1, RD(expm1(AD(0)))) \
    X(log, RD(log(AD(0)))) X(log2, RD(log2(AD(0)))) X(log10, RD(log10(AD(0)))) X(log1p, RD(log1p(AD(0)))) \
    X(sin, RD(sin(AD(0)))) X(cos, RD(cos(AD(0)))) X(tan, RD(tan(AD(0)))) X(asin, RD(asin(AD(0)))) \
    X(acos, RD(acos(AD(0)))) X(atan, RD(atan(AD(0)))) X(sinh, RD(sinh(AD(0)))) X(cosh, RD(cosh(AD(0)))) \
    X(tanh, RD(tanh(AD(0)))) X(asinh, RD(asinh(AD(0)))) X(acosh, RD(acosh(AD(0)))) X(atanh, RD(atanh(AD(0)))) \
    X(erf, RD(erf(AD(0)))) X(erfc, RD(erfc(AD(0)))) X(erfinv, RD(erfinv(AD(0)))) X(erfcinv, RD(erfcinv(AD(0)))) \
    X(erfcx, RD(erfcx(AD(0)))) X(normcdf, RD(normcdf(AD(0)))) X(normcdfinv, RD(normcdfinv(AD(0)))) \
    X(tgamma, RD(tgamma(AD(0)))) X(lgamma, RD(lgamma(AD(0)))) X(fabs, RD(fabs(AD(0)))) X(floor, RD(floor(AD(0)))) \
    X(ceil, RD(ceil(AD(0)))) X(round, RD(round(AD(0)))) X(trunc, RD(trunc(AD(0)))) X(rint, RD(rint(AD(0)))) \
    X(nearbyint, RD(nearbyint(AD(0)))) X(logb, RD(logb(AD(0)))) X(sinpi, RD(sinpi(AD(0)))) X(cospi, RD(cospi(AD(0)))) \
    X(j0, RD(j0(AD(0)))) X(j1, RD(j1(AD(0)))) X(y0, RD(y0(AD(0)))) X(y1, RD(y1(AD(0)))) \
    X(cyl_bessel_i0, RD(cyl_bessel_i0(AD(0)))) X(cyl_bessel_i1, RD(cyl_bessel_i1(AD(0)))) \
    X(sincos_s, RD(sincos_s(AD(0)))) X(sincos_c, RD(sincos_c(AD(0)))) X(sincospi_s, RD(sincospi_s(AD(0)))) \
    X(sincospi_c, RD(sincospi_c(AD(0)))) X(frexp_m, RD(frexp_m(AD(0)))) X(frexp_e, RI(frexp_e(AD(0)))) \
    X(modf_f, RD(modf_f(AD(0)))) X(modf_i, RD(modf_i(AD(0)))) X(ilogb, RI(ilogb(AD(0)))) \
    X(lrint, RL(lrint(AD(0)))) X(llrint, RL(llrint(AD(0)))) X(lround, RL(lround(AD(0)))) X(llround, RL(llround(AD(0)))) \
    X(pow, RD(pow(AD(0), AD(1)))) X(atan2, RD(atan2(AD(0), AD(1)))) X(hypot, RD(hypot(AD(0), AD(1)))) \
    X(fmod, RD(fmod(AD(0), AD(1)))) X(remainder, RD(remainder(AD(0), AD(1)))) X(fmin, RD(fmin(AD(0), AD(1)))) \
    X(fmax, RD(fmax(AD(0), AD(1)))) X(fdim, RD(fdim(AD(0), AD(1)))) X(copysign, RD(copysign(AD(0), AD(1)))) \
    X(nextafter, RD(nextafter(AD(0), AD(1)))) X(rhypot, RD(rhypot(AD(0), AD(1)))) \
    X(remquo_r, RD(remquo_r(AD(0), AD(1)))) X(remquo_q, RI(remquo_q(AD(0), AD(1)))) \
    X(fma, RD(fma(AD(0), AD(1), AD(2)))) X(norm3d, RD(norm3d(AD(0), AD(1), AD(2)))) \
    X(rnorm3d, RD(rnorm3d(AD(0), AD(1), AD(2)))) X(norm4d, RD(norm4d(AD(0), AD(1), AD(2), AD(3)))) \
    X(rnorm4d, RD(rnorm4d(AD(0), AD(1), AD(2), AD(3)))) X(norm4, RD(norm4(AD(0), AD(1), AD(2), AD(3)))) \
    X(rnorm4, RD(rnorm4(AD(0), AD(1), AD(2), AD(3)))) X(ldexp, RD(ldexp(AD(0), AI(1)))) \
    X(scalbn, RD(scalbn(AD(0), AI(1)))) X(scalbln, RD(scalbln(AD(0), AL(1)))) \
    X(jn, RD(jn(AI(0), AD(1)))) X(yn, RD(yn(AI(0), AD(1)))) \
    X(__sinf, RF(__sinf(AF(0)))) X(__cosf, RF(__cosf(AF(0)))) X(__tanf, RF(__tanf(AF(0)))) X(__expf, RF(__expf(AF(0)))) \
    X(__exp10f, RF(__exp10f(AF(0)))) X(__logf, RF(__logf(AF(0)))) X(__log2f, RF(__log2f(AF(0)))) \
    X(__log10f, RF(__log10f(AF(0)))) X(__powf, RF(__powf(AF(0), AF(1)))) X(__fdividef, RF(__fdividef(AF(0), AF(1)))) \
    X(fdividef, RF(fdividef(AF(0), AF(1)))) X(__sincosf_s, RF(fast_sincosf_s(AF(0)))) \
    X(__sincosf_c, RF(fast_sincosf_c(AF(0)))) X(__saturatef, RF(__saturatef(AF(0)))) X(__frsqrt_rn, RF(__frsqrt_rn(AF(0)))) \
    ROUNDED4(X, __fadd, , RF, (AF(0), AF(1))) ROUNDED4(X, __fsub, , RF, (AF(0), AF(1))) \
    ROUNDED4(X, __fmul, , RF, (AF(0), AF(1))) ROUNDED4(X, __fdiv, , RF, (AF(0), AF(1))) \
    ROUNDED4(X, __frcp, , RF, (AF(0))) ROUNDED4(X, __fsqrt, , RF, (AF(0))) ROUNDED4(X, __fmaf, , RF, (AF(0), AF(1), AF(2))) \
    ROUNDED4(X, __dadd, , RD, (AD(0), AD(1))) ROUNDED4(X, __dsub, , RD, (AD(0), AD(1))) \
    ROUNDED4(X, __dmul, , RD, (AD(0), AD(1))) ROUNDED4(X, __ddiv, , RD, (AD(0), AD(1))) \
    ROUNDED4(X, __drcp, , RD, (AD(0))) ROUNDED4(X, __dsqrt, , RD, (AD(0))) ROUNDED4(X, __fma, , RD, (AD(0), AD(1), AD(2))) \
    ROUNDED4(X, __float2int, , RI, (AF(0))) ROUNDED4(X, __float2uint, , RU, (AF(0))) \
    ROUNDED4(X, __float2ll, , RL, (AF(0))) ROUNDED4(X, __float2ull, , RUL, (AF(0))) \
    ROUNDED4(X, __double2int, , RI, (AD(0))) ROUNDED4(X, __double2uint, , RU, (AD(0))) \
    ROUNDED4(X, __double2ll, , RL, (AD(0))) ROUNDED4(X, __double2ull, , RUL, (AD(0))) \
    ROUNDED4(X, __double2float, , RF, (AD(0))) \
    ROUNDED4(X, __int2float, , RF, (AI(0))) ROUNDED4(X, __uint2float, , RF, (AU(0))) \
    ROUNDED4(X, __ll2float, , RF, (AL(0))) ROUNDED4(X, __ull2float, , RF, (AUL(0))) \
    ROUNDED4(X, __ll2double, , RD, (AL(0))) ROUNDED4(X, __ull2double, , RD, (AUL(0))) \
    X(__int2double_rn, RD(__int2double_rn(AI(0)))) X(__uint2double_rn, RD(__uint2double_rn(AU(0)))) \
    X(__double2hiint, RI(__double2hiint(AD(0)))) X(__double2loint, RI(__double2loint(AD(0))))

#define SWEEP_ID(name, expr) FID_##name,
enum { SWEEP_FUNCTIONS(SWEEP_ID) SWEEP_COUNT };
#define SWEEP_NAME(name, expr) #name,
static const char *const sweep_names[] = { SWEEP_FUNCTIONS(SWEEP_NAME) };

__global__ void sweep(int fid, const u64 *A0, const u64 *A1, const u64 *A2, const u64 *A3, u64 *R, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u64 r = 0;
    switch (fid) {
#define SWEEP_CASE(name, expr) case FID_##name: r = expr; break;
        SWEEP_FUNCTIONS(SWEEP_CASE)
    }
    R[i] = r;
}

static void die(const char *what) { fprintf(stderr, "sweep: %s\n", what); exit(2); }
static unsigned read_u32(FILE *f) { unsigned v; if (fread(&v, 4, 1, f) != 1) die("short input"); return v; }
static void check(cudaError_t e) { if (e != cudaSuccess) die(cudaGetErrorString(e)); }

int main(int argc, char **argv) {
    if (argc != 3) die("usage: sweep INPUTS OUTPUTS");
    FILE *in = fopen(argv[1], "rb"), *out = fopen(argv[2], "wb");
    if (!in || !out) die("cannot open files");
    if (read_u32(in) != 0x4957534du) die("bad input magic");
    unsigned count = read_u32(in);
    unsigned magic = 0x4f57534du;
    fwrite(&magic, 4, 1, out);
    fwrite(&count, 4, 1, out);
    for (unsigned k = 0; k < count; k++) {
        unsigned len = read_u32(in);
        std::string name(len, '\0');
        if (fread(&name[0], 1, len, in) != len) die("short input");
        unsigned arity = read_u32(in), n = read_u32(in);
        int fid = -1;
        for (int j = 0; j < SWEEP_COUNT; j++)
            if (name == sweep_names[j]) fid = j;
        if (fid < 0) { fprintf(stderr, "sweep: unknown function %s\n", name.c_str()); exit(2); }
        std::vector<u64> host((size_t)n * (arity + 1));
        if (fread(host.data(), 8, (size_t)n * arity, in) != (size_t)n * arity) die("short input");
        u64 *dev = 0;
        check(cudaMalloc(&dev, host.size() * 8 + 8));
        check(cudaMemcpy(dev, host.data(), (size_t)n * arity * 8, cudaMemcpyHostToDevice));
        u64 *a[4];
        for (unsigned j = 0; j < 4; j++) a[j] = dev + (size_t)n * (j < arity ? j : 0);
        u64 *r = dev + (size_t)n * arity;
        sweep<<<(n + 255) / 256, 256>>>(fid, a[0], a[1], a[2], a[3], r, (int)n);
        check(cudaGetLastError());
        check(cudaMemcpy(host.data(), r, (size_t)n * 8, cudaMemcpyDeviceToHost));
        check(cudaFree(dev));
        fwrite(&len, 4, 1, out);
        fwrite(name.data(), 1, len, out);
        fwrite(&n, 4, 1, out);
        fwrite(host.data(), 8, n, out);
    }
    fclose(out);
    return 0;
}
