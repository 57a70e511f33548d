/*
 * cuprite/math_extras.h: the functions of CUDA's math library that C's does not have
 * (rsqrtf, rcbrtf, sinpif, erfinvf, normcdff, norm3df, cyl_bessel_i0f, ...), as plain C
 * over <math.h>, named __cu_*. One implementation serves both sides: the device C that
 * cuprite-cpu generates embeds this file, and cuda_runtime.h gives host code the CUDA
 * names on top of it (nvcc's headers make these functions usable in host code too).
 */
#ifndef CUPRITE_MATH_EXTRAS_H
#define CUPRITE_MATH_EXTRAS_H
#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#ifndef M_SQRT2
#define M_SQRT2 1.41421356237309504880
#endif
#ifndef M_SQRT1_2
#define M_SQRT1_2 0.70710678118654752440
#endif

#define __CUPRITE_MATH_INLINE static inline __attribute__((unused))

/*
 * Accuracy: each function is within the ulp bound that the CUDA C++ Programming Guide
 * gives for it (tests/math-sweep measures every one against a correctly rounded
 * reference; docs/MATH.md lists the figures). Where glibc's double function is not
 * (tanh, the Bessel functions near their zeros) or C has none, the work is done in long
 * double (64-bit significand on x86-64) and rounded once. Special values are CUDA's.
 */
#define __CU_LD_PI 0xc.90fdaa22168c235p-2L
#define __CU_LD_SQRT2 0xb.504f333f9de6484p-3L
#define __CU_LD_SQRT_PI 0xe.2dfc48da77b553dp-3L
#define __CU_LD_2_SQRT_PI 0x9.06eba8214db688dp-3L
#define __CU_LD_1_SQRT_2PI 0xc.c42299ea1b28468p-5L

__CUPRITE_MATH_INLINE float __cu_rsqrtf(float x) { return (float)(1.0 / sqrt((double)x)); }
__CUPRITE_MATH_INLINE double __cu_rsqrt(double x) { return (double)(1.0L / sqrtl((long double)x)); }
__CUPRITE_MATH_INLINE float __cu_rcbrtf(float x) { return (float)(1.0 / cbrt((double)x)); }
__CUPRITE_MATH_INLINE double __cu_rcbrt(double x) { return (double)(1.0L / cbrtl((long double)x)); }
__CUPRITE_MATH_INLINE double __cu_tanh(double x) { return (double)tanhl((long double)x); }
__CUPRITE_MATH_INLINE float __cu_tgammaf(float x) { return (float)tgamma((double)x); }

/* sin(pi x), cos(pi x): x reduced exactly modulo 2, then to [-1/4, 1/4] plus a quadrant,
 * so that pi times the remainder is exact to long double precision. Zeros: sinpi(n) has
 * the sign of n, cospi(n + 1/2) is +0 (as on the GPU). */
__CUPRITE_MATH_INLINE long double __cu_sincospi_ld(double x, int want_cos) {
    double r = fmod(x, 2.0);           /* exact, |r| < 2 */
    double n = rint(2.0 * r);          /* -4..4 */
    double f = r - 0.5 * n;            /* exact, |f| <= 1/4 */
    int q = ((int)n % 4 + 4 + (want_cos ? 1 : 0)) % 4;
    long double a = __CU_LD_PI * (long double)f;
    switch (q) {
    case 0: return sinl(a);
    case 1: return cosl(a);
    case 2: return -sinl(a);
    default: return -cosl(a);
    }
}
__CUPRITE_MATH_INLINE double __cu_sinpi(double x) {
    if (isnan(x) || isinf(x)) return x - x;
    double r = (double)__cu_sincospi_ld(x, 0);
    return r == 0.0 ? copysign(0.0, x) : r;
}
__CUPRITE_MATH_INLINE double __cu_cospi(double x) {
    if (isnan(x) || isinf(x)) return x - x;
    double r = (double)__cu_sincospi_ld(x, 1);
    return r == 0.0 ? 0.0 : r;
}
__CUPRITE_MATH_INLINE float __cu_sinpif(float x) {
    if (isnan(x) || isinf(x)) return x - x;
    float r = (float)__cu_sincospi_ld(x, 0);
    return r == 0.0f ? copysignf(0.0f, x) : r;
}
__CUPRITE_MATH_INLINE float __cu_cospif(float x) {
    if (isnan(x) || isinf(x)) return x - x;
    float r = (float)__cu_sincospi_ld(x, 1);
    return r == 0.0f ? 0.0f : r;
}
__CUPRITE_MATH_INLINE void __cu_sincospif(float x, float *s, float *c) { *s = __cu_sinpif(x); *c = __cu_cospif(x); }
__CUPRITE_MATH_INLINE void __cu_sincospi(double x, double *s, double *c) { *s = __cu_sinpi(x); *c = __cu_cospi(x); }

/* normcdf(x) = erfc(-x / sqrt 2) / 2, the argument formed in long double. */
__CUPRITE_MATH_INLINE double __cu_normcdf(double x) {
    return (double)(0.5L * erfcl(-(long double)x / __CU_LD_SQRT2));
}
__CUPRITE_MATH_INLINE float __cu_normcdff(float x) { return (float)(0.5 * erfc(-(double)x * M_SQRT1_2)); }

/* erfinv / erfcinv: Newton's method in long double, on erf(x) = d while d <= 1/2, else
 * on log erfc(x) = log c (c = 1 - d, exact), which converges from the tail asymptote
 * even for subnormal c. The first guess is Giles's single-precision approximation. */
__CUPRITE_MATH_INLINE long double __cu_erfinv_small(double d) { /* 0 <= d <= 1/2 */
    double w = -log((1.0 - d) * (1.0 + d)) - 2.5, x;
    x = 2.81022636e-08; x = 3.43273939e-07 + x * w; x = -3.5233877e-06 + x * w;
    x = -4.39150654e-06 + x * w; x = 0.00021858087 + x * w; x = -0.00125372503 + x * w;
    x = -0.00417768164 + x * w; x = 0.246640727 + x * w; x = 1.50140941 + x * w;
    long double xl = (long double)(x * d);
    for (int i = 0; i < 3 && xl != 0; i++)
        xl -= (erfl(xl) - d) / (__CU_LD_2_SQRT_PI * expl(-xl * xl));
    return xl;
}
__CUPRITE_MATH_INLINE long double __cu_erfcinv_tail(double c) { /* 0 < c < 1/2 */
    long double l = logl((long double)c), x = sqrtl(-l);
    for (int i = 0; i < 2; i++) x = sqrtl(-l - logl(x * __CU_LD_SQRT_PI));
    for (int i = 0; i < 8; i++) {
        long double e = erfcl(x);
        long double dx = (logl(e) - l) * e / (__CU_LD_2_SQRT_PI * expl(-x * x));
        x += dx;
        if (fabsl(dx) <= x * 0x1p-66L) break;
    }
    return x;
}
__CUPRITE_MATH_INLINE long double __cu_erfcinv_ld(double y) {
    if (y <= 1.0) return y >= 0.5 ? __cu_erfinv_small(1.0 - y) : __cu_erfcinv_tail(y);
    double c = 2.0 - y; /* exact */
    return -(c >= 0.5 ? __cu_erfinv_small(1.0 - c) : __cu_erfcinv_tail(c));
}
__CUPRITE_MATH_INLINE double __cu_erfinv(double y) {
    if (isnan(y) || fabs(y) > 1.0) return NAN;
    if (fabs(y) == 1.0) return copysign(INFINITY, y);
    double a = fabs(y);
    long double x = a <= 0.5 ? __cu_erfinv_small(a) : __cu_erfcinv_tail(1.0 - a);
    return y < 0 || (y == 0 && signbit(y)) ? -(double)x : (double)x;
}
__CUPRITE_MATH_INLINE double __cu_erfcinv(double y) {
    if (isnan(y) || y < 0.0 || y > 2.0) return NAN;
    if (y == 0.0) return INFINITY;
    if (y == 2.0) return -INFINITY;
    if (y == 1.0) return 0.0;
    return (double)__cu_erfcinv_ld(y);
}
__CUPRITE_MATH_INLINE double __cu_normcdfinv(double p) {
    if (isnan(p) || p < 0.0 || p > 1.0) return NAN;
    if (p == 0.0) return -INFINITY;
    if (p == 1.0) return INFINITY;
    if (p == 0.5) return 0.0;
    return (double)(-__CU_LD_SQRT2 * __cu_erfcinv_ld(2.0 * p));
}
__CUPRITE_MATH_INLINE float __cu_erfinvf(float y) { return (float)__cu_erfinv((double)y); }
__CUPRITE_MATH_INLINE float __cu_erfcinvf(float y) { return (float)__cu_erfcinv((double)y); }
__CUPRITE_MATH_INLINE float __cu_normcdfinvf(float p) { return (float)__cu_normcdfinv((double)p); }

/* erfcx(x) = exp(x^2) erfc(x): x^2 split exactly (fma) into hi + lo, in long double;
 * the asymptotic series for x >= 50. */
__CUPRITE_MATH_INLINE double __cu_erfcx(double x) {
    if (isnan(x)) return x;
    if (x < 50.0) {
        if (x < -27.0) return INFINITY;
        double h = x * x, l = fma(x, x, -h);
        return (double)(expl((long double)h) * (1.0L + (long double)l) * erfcl((long double)x));
    }
    if (isinf(x)) return 0.0;
    /* exp(x^2) erfc(x) ~ 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(2x^2)^2 - ...) */
    long double t = 1.0L / (2.0L * (long double)x * (long double)x), s = 1.0L, term = 1.0L;
    for (int k = 1; k < 12; k++) { term *= -(2.0L * k - 1.0L) * t; s += term; }
    return (double)(s / ((long double)x * __CU_LD_SQRT_PI));
}
__CUPRITE_MATH_INLINE float __cu_erfcxf(float x) { return (float)__cu_erfcx((double)x); }

/* hypot-like norms: any infinite argument gives +inf (even beside a NaN), as hypot;
 * sums of squares in double (float forms) or long double (double forms: no overflow,
 * no underflow), rounded once. */
__CUPRITE_MATH_INLINE float __cu_rhypotf(float a, float b) {
    if (isinf(a) || isinf(b)) return 0.0f;
    return (float)(1.0 / sqrt((double)a * a + (double)b * b));
}
__CUPRITE_MATH_INLINE double __cu_rhypot(double a, double b) {
    if (isinf(a) || isinf(b)) return 0.0;
    return (double)(1.0L / sqrtl((long double)a * a + (long double)b * b));
}
__CUPRITE_MATH_INLINE double __cu_normf_sq(int n, const float *p, int *inf) {
    double s = 0.0;
    for (int i = 0; i < n; i++) { s += (double)p[i] * p[i]; if (isinf(p[i])) *inf = 1; }
    return s;
}
__CUPRITE_MATH_INLINE long double __cu_norm_sq(int n, const double *p, int *inf) {
    long double s = 0.0L;
    for (int i = 0; i < n; i++) { s += (long double)p[i] * p[i]; if (isinf(p[i])) *inf = 1; }
    return s;
}
__CUPRITE_MATH_INLINE float __cu_normf(int n, const float *p) {
    int inf = 0; double s = __cu_normf_sq(n, p, &inf);
    return inf ? INFINITY : (float)sqrt(s);
}
__CUPRITE_MATH_INLINE float __cu_rnormf(int n, const float *p) {
    int inf = 0; double s = __cu_normf_sq(n, p, &inf);
    return inf ? 0.0f : (float)(1.0 / sqrt(s));
}
__CUPRITE_MATH_INLINE double __cu_norm(int n, const double *p) {
    int inf = 0; long double s = __cu_norm_sq(n, p, &inf);
    return inf ? INFINITY : (double)sqrtl(s);
}
__CUPRITE_MATH_INLINE double __cu_rnorm(int n, const double *p) {
    int inf = 0; long double s = __cu_norm_sq(n, p, &inf);
    return inf ? 0.0 : (double)(1.0L / sqrtl(s));
}
__CUPRITE_MATH_INLINE float __cu_norm3df(float a, float b, float c) { float v[3] = { a, b, c }; return __cu_normf(3, v); }
__CUPRITE_MATH_INLINE float __cu_rnorm3df(float a, float b, float c) { float v[3] = { a, b, c }; return __cu_rnormf(3, v); }
__CUPRITE_MATH_INLINE float __cu_norm4df(float a, float b, float c, float d) { float v[4] = { a, b, c, d }; return __cu_normf(4, v); }
__CUPRITE_MATH_INLINE float __cu_rnorm4df(float a, float b, float c, float d) { float v[4] = { a, b, c, d }; return __cu_rnormf(4, v); }
__CUPRITE_MATH_INLINE double __cu_norm3d(double a, double b, double c) { double v[3] = { a, b, c }; return __cu_norm(3, v); }
__CUPRITE_MATH_INLINE double __cu_rnorm3d(double a, double b, double c) { double v[3] = { a, b, c }; return __cu_rnorm(3, v); }
__CUPRITE_MATH_INLINE double __cu_norm4d(double a, double b, double c, double d) { double v[4] = { a, b, c, d }; return __cu_norm(4, v); }
__CUPRITE_MATH_INLINE double __cu_rnorm4d(double a, double b, double c, double d) { double v[4] = { a, b, c, d }; return __cu_rnorm(4, v); }

/* Modified Bessel functions of the first kind, orders 0 and 1, in long double: the power
 * series up to |x| = 40, the asymptotic expansion e^x / sqrt(2 pi x) sum a_k / x^k above. */
__CUPRITE_MATH_INLINE long double __cu_bessel_i_ld(double x, int order) {
    long double ax = fabsl((long double)x), r;
    if (isinf(x)) return order ? (long double)x : INFINITY;
    if (ax <= 40.0L) {
        long double q = 0.25L * ax * ax, term = order ? 0.5L * ax : 1.0L, s = term;
        for (int k = 1; k < 200 && term > s * 0x1p-66L; k++) { term *= q / ((long double)k * (k + order)); s += term; }
        r = s;
    } else {
        long double mu = 4.0L * order * order, term = 1.0L, s = 1.0L;
        for (int k = 1; k < 40; k++) {
            term *= -(mu - (2.0L * k - 1.0L) * (2.0L * k - 1.0L)) / (8.0L * k * ax);
            s += term;
            if (fabsl(term) < 0x1p-66L) break;
        }
        r = expl(ax) * __CU_LD_1_SQRT_2PI / sqrtl(ax) * s;
    }
    return order && x < 0 ? -r : r;
}
__CUPRITE_MATH_INLINE double __cu_cyl_bessel_i0(double x) { return isnan(x) ? x : (double)__cu_bessel_i_ld(x, 0); }
__CUPRITE_MATH_INLINE double __cu_cyl_bessel_i1(double x) { return isnan(x) || x == 0 ? x : (double)__cu_bessel_i_ld(x, 1); }
__CUPRITE_MATH_INLINE float __cu_cyl_bessel_i0f(float x) { return (float)__cu_cyl_bessel_i0((double)x); }
__CUPRITE_MATH_INLINE float __cu_cyl_bessel_i1f(float x) { return (float)__cu_cyl_bessel_i1((double)x); }

/* Bessel functions of the first and second kind: glibc's long double ones, rounded
 * once (its double ones lose hundreds of ulps near their zeros). A negative order gives
 * NaN, as on the GPU. */
__CUPRITE_MATH_INLINE double __cu_j0(double x) { return (double)j0l((long double)x); }
__CUPRITE_MATH_INLINE double __cu_j1(double x) { return (double)j1l((long double)x); }
__CUPRITE_MATH_INLINE double __cu_y0(double x) { return (double)y0l((long double)x); }
__CUPRITE_MATH_INLINE double __cu_y1(double x) { return (double)y1l((long double)x); }
__CUPRITE_MATH_INLINE double __cu_jn(int n, double x) { return n < 0 ? NAN : (double)jnl(n, (long double)x); }
__CUPRITE_MATH_INLINE double __cu_yn(int n, double x) { return n < 0 ? NAN : (double)ynl(n, (long double)x); }

/* What CUDA defines where C leaves it open. */
/* lrint, llrint, lround, llround: the GPU's conversion saturates; NaN gives INT64_MIN. */
__CUPRITE_MATH_INLINE long long __cu_sat_ll(double r) {
    if (r != r || r < -9223372036854775808.0) return (long long)(-9223372036854775807LL - 1);
    if (r >= 9223372036854775808.0) return 9223372036854775807LL;
    return (long long)r;
}
__CUPRITE_MATH_INLINE long long __cu_lrintf(float x) { return __cu_sat_ll(rint((double)x)); }
__CUPRITE_MATH_INLINE long long __cu_llrintf(float x) { return __cu_sat_ll(rint((double)x)); }
__CUPRITE_MATH_INLINE long long __cu_lroundf(float x) { return __cu_sat_ll(round((double)x)); }
__CUPRITE_MATH_INLINE long long __cu_llroundf(float x) { return __cu_sat_ll(round((double)x)); }
__CUPRITE_MATH_INLINE long long __cu_lrint(double x) { return __cu_sat_ll(rint(x)); }
__CUPRITE_MATH_INLINE long long __cu_llrint(double x) { return __cu_sat_ll(rint(x)); }
__CUPRITE_MATH_INLINE long long __cu_lround(double x) { return __cu_sat_ll(round(x)); }
__CUPRITE_MATH_INLINE long long __cu_llround(double x) { return __cu_sat_ll(round(x)); }
/* fmin/fmax order -0 below +0, as the GPU's min/max do. */
__CUPRITE_MATH_INLINE float __cu_fminf(float a, float b) {
    if (a == b) return signbit(a) ? a : b;
    return fminf(a, b);
}
__CUPRITE_MATH_INLINE float __cu_fmaxf(float a, float b) {
    if (a == b) return signbit(a) ? b : a;
    return fmaxf(a, b);
}
__CUPRITE_MATH_INLINE double __cu_fmin(double a, double b) {
    if (a == b) return signbit(a) ? a : b;
    return fmin(a, b);
}
__CUPRITE_MATH_INLINE double __cu_fmax(double a, double b) {
    if (a == b) return signbit(a) ? b : a;
    return fmax(a, b);
}
/* remquo: the quotient's sign and low three bits (what C requires), 0 where the result
 * is NaN (y = 0, x infinite, a NaN operand), as the GPU gives them. */
__CUPRITE_MATH_INLINE float __cu_remquof(float x, float y, int *quo) {
    int q = 0;
    float r = remquof(x, y, &q);
    *quo = isnan(r) ? 0 : (q < 0 ? -(int)((0u - (unsigned)q) & 7u) : (int)(q & 7));
    return r;
}
__CUPRITE_MATH_INLINE double __cu_remquo(double x, double y, int *quo) {
    int q = 0;
    double r = remquo(x, y, &q);
    *quo = isnan(r) ? 0 : (q < 0 ? -(int)((0u - (unsigned)q) & 7u) : (int)(q & 7));
    return r;
}

#endif /* CUPRITE_MATH_EXTRAS_H */
