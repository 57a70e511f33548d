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

__CUPRITE_MATH_INLINE float __cu_rsqrtf(float x) { return 1.0f / sqrtf(x); }
__CUPRITE_MATH_INLINE double __cu_rsqrt(double x) { return 1.0 / sqrt(x); }
__CUPRITE_MATH_INLINE float __cu_rcbrtf(float x) { return 1.0f / cbrtf(x); }
__CUPRITE_MATH_INLINE double __cu_rcbrt(double x) { return 1.0 / cbrt(x); }
__CUPRITE_MATH_INLINE float __cu_sinpif(float x) { return (float)sin(M_PI * (double)x); }
__CUPRITE_MATH_INLINE float __cu_cospif(float x) { return (float)cos(M_PI * (double)x); }
__CUPRITE_MATH_INLINE double __cu_sinpi(double x) { return sin(M_PI * x); }
__CUPRITE_MATH_INLINE double __cu_cospi(double x) { return cos(M_PI * x); }
__CUPRITE_MATH_INLINE void __cu_sincospif(float x, float *s, float *c) { *s = __cu_sinpif(x); *c = __cu_cospif(x); }
__CUPRITE_MATH_INLINE void __cu_sincospi(double x, double *s, double *c) { *s = __cu_sinpi(x); *c = __cu_cospi(x); }
__CUPRITE_MATH_INLINE float __cu_normcdff(float x) { return 0.5f * erfcf(-x * (float)M_SQRT1_2); }
__CUPRITE_MATH_INLINE double __cu_normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
__CUPRITE_MATH_INLINE double __cu_erfinv(double y) {
    /* Newton on erf(x) - y from a rational first guess. */
    if (y <= -1.0) return y == -1.0 ? -INFINITY : NAN;
    if (y >= 1.0) return y == 1.0 ? INFINITY : NAN;
    double w = -log((1.0 - y) * (1.0 + y)), x;
    if (w < 5.0) { w -= 2.5; x = 2.81022636e-08; x = 3.43273939e-07 + x * w; x = -3.5233877e-06 + x * w;
        x = -4.39150654e-06 + x * w; x = 0.00021858087 + x * w; x = -0.00125372503 + x * w;
        x = -0.00417768164 + x * w; x = 0.246640727 + x * w; x = 1.50140941 + x * w; }
    else { w = sqrt(w) - 3.0; x = -0.000200214257; x = 0.000100950558 + x * w; x = 0.00134934322 + x * w;
        x = -0.00367342844 + x * w; x = 0.00573950773 + x * w; x = -0.0076224613 + x * w;
        x = 0.00943887047 + x * w; x = 1.00167406 + x * w; x = 2.83297682 + x * w; }
    x *= y;
    for (int i = 0; i < 3; i++) x -= (erf(x) - y) / (1.1283791670955126 * exp(-x * x));
    return x;
}
__CUPRITE_MATH_INLINE float __cu_erfinvf(float y) { return (float)__cu_erfinv((double)y); }
__CUPRITE_MATH_INLINE double __cu_erfcinv(double y) { return __cu_erfinv(1.0 - y); }
__CUPRITE_MATH_INLINE float __cu_erfcinvf(float y) { return (float)__cu_erfinv(1.0 - (double)y); }
__CUPRITE_MATH_INLINE double __cu_normcdfinv(double p) { return -M_SQRT2 * __cu_erfcinv(2.0 * p); }
__CUPRITE_MATH_INLINE float __cu_normcdfinvf(float p) { return (float)__cu_normcdfinv((double)p); }
__CUPRITE_MATH_INLINE double __cu_erfcx(double x) {
    if (x < 25.0) return exp(x * x) * erfc(x);
    /* Asymptotic series: exp(x^2) erfc(x) = 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(2x^2)^2 - ...). */
    double t = 1.0 / (2.0 * x * x), s = 1.0, term = 1.0;
    for (int k = 1; k < 8; k++) { term *= -(2.0 * k - 1.0) * t; s += term; }
    return s / (x * 1.7724538509055160273);
}
__CUPRITE_MATH_INLINE float __cu_erfcxf(float x) { return (float)__cu_erfcx((double)x); }
__CUPRITE_MATH_INLINE float __cu_rhypotf(float a, float b) { return 1.0f / hypotf(a, b); }
__CUPRITE_MATH_INLINE double __cu_rhypot(double a, double b) { return 1.0 / hypot(a, b); }
__CUPRITE_MATH_INLINE float __cu_norm3df(float a, float b, float c) { return (float)sqrt((double)a*a + (double)b*b + (double)c*c); }
__CUPRITE_MATH_INLINE float __cu_rnorm3df(float a, float b, float c) { return 1.0f / __cu_norm3df(a, b, c); }
__CUPRITE_MATH_INLINE float __cu_norm4df(float a, float b, float c, float d) { return (float)sqrt((double)a*a + (double)b*b + (double)c*c + (double)d*d); }
__CUPRITE_MATH_INLINE float __cu_rnorm4df(float a, float b, float c, float d) { return 1.0f / __cu_norm4df(a, b, c, d); }
__CUPRITE_MATH_INLINE double __cu_norm3d(double a, double b, double c) { return sqrt(a*a + b*b + c*c); }
__CUPRITE_MATH_INLINE double __cu_rnorm3d(double a, double b, double c) { return 1.0 / __cu_norm3d(a, b, c); }
__CUPRITE_MATH_INLINE double __cu_norm4d(double a, double b, double c, double d) { return sqrt(a*a + b*b + c*c + d*d); }
__CUPRITE_MATH_INLINE double __cu_rnorm4d(double a, double b, double c, double d) { return 1.0 / __cu_norm4d(a, b, c, d); }
__CUPRITE_MATH_INLINE double __cu_norm(int n, const double *p) { double s = 0.0; for (int i = 0; i < n; i++) s += p[i] * p[i]; return sqrt(s); }
__CUPRITE_MATH_INLINE double __cu_rnorm(int n, const double *p) { return 1.0 / __cu_norm(n, p); }
__CUPRITE_MATH_INLINE float __cu_normf(int n, const float *p) { double s = 0.0; for (int i = 0; i < n; i++) s += (double)p[i] * p[i]; return (float)sqrt(s); }
__CUPRITE_MATH_INLINE float __cu_rnormf(int n, const float *p) { return 1.0f / __cu_normf(n, p); }
/* Modified Bessel functions of the first kind, orders 0 and 1: the power series. */
__CUPRITE_MATH_INLINE double __cu_cyl_bessel_i0(double x) {
    double q = 0.25 * x * x, term = 1.0, s = 1.0;
    for (int k = 1; k < 1000 && term > s * 1e-17; k++) { term *= q / ((double)k * k); s += term; }
    return s;
}
__CUPRITE_MATH_INLINE double __cu_cyl_bessel_i1(double x) {
    double q = 0.25 * x * x, term = 0.5 * x, s = term;
    for (int k = 1; k < 1000 && fabs(term) > fabs(s) * 1e-17; k++) { term *= q / ((double)k * (k + 1)); s += term; }
    return s;
}
__CUPRITE_MATH_INLINE float __cu_cyl_bessel_i0f(float x) { return (float)__cu_cyl_bessel_i0((double)x); }
__CUPRITE_MATH_INLINE float __cu_cyl_bessel_i1f(float x) { return (float)__cu_cyl_bessel_i1((double)x); }

#endif /* CUPRITE_MATH_EXTRAS_H */
