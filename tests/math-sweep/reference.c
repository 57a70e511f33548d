/*
 * Math sweep, reference side: writes the inputs of every swept function, then judges the
 * results that sweep.cu computed (with Cuprite, or with nvcc on a GPU) against a
 * correctly rounded reference, and checks each function's error against the bound that
 * the CUDA C++ Programming Guide gives for it ("Mathematical Functions" appendix: the
 * tables "Single-Precision Mathematical Standard Library Functions with Maximum ULP
 * Error", "Double-Precision ...", "Single-Precision Floating-Point Intrinsic Functions"
 * and "Double-Precision Floating-Point Intrinsic Functions").
 *
 *   reference gen N INPUTS                 N inputs per function
 *   reference check INPUTS OUTPUTS [GPU]   one line per function; exit 1 if any fails
 *   reference table INPUTS OUTPUTS [GPU]   the same as a Markdown table (docs/MATH.md)
 *   reference pack OUTPUTS N PACKED        first N results per function, compactly
 *
 * GPU is the OUTPUTS file of the same program built by nvcc and run on a GPU, for the
 * first inputs of each function (the inputs are a fixed sequence per function, so the
 * first k of a longer run are the same). Correctly rounded functions must agree with it
 * bit for bit (NaN payloads aside); for the others its own error is reported beside ours.
 *
 * The reference is libquadmath's __float128 (113-bit significand) rounded once to the
 * result format; where libquadmath has no such function, a routine of this file computes
 * it in __float128 (erfinv by Newton steps on erfq, Bessel I0/I1 by their power series,
 * sinpi by exact reduction). Directed-rounding intrinsics are judged against the host's
 * IEEE operations under fesetround (build with -frounding-math), conversions against
 * exact integer/__float128 reasoning. Build: cc -O2 -frounding-math reference.c
 * -lquadmath -lm.
 */
#include <fenv.h>
#include <math.h>
#include <quadmath.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef __float128 Q;
typedef uint64_t u64;

/* ---- formats ------------------------------------------------------------------------- */

/* Value types of results and arguments, as sweep.cu encodes them in a u64. */
enum { TF = 'f', TD = 'd', TI = 'i', TU = 'u', TL = 'l', TUL = 'L' };

static float bits_f(u64 b) { uint32_t u = (uint32_t)b; float f; memcpy(&f, &u, 4); return f; }
static double bits_d(u64 b) { double d; memcpy(&d, &b, 8); return d; }
static u64 f_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static u64 d_bits(double d) { u64 u; memcpy(&u, &d, 8); return u; }

/* The value an encoded argument or result stands for, exactly. */
static Q decode(int t, u64 b) {
    switch (t) {
    case TF: return bits_f(b);
    case TD: return bits_d(b);
    case TI: return (int32_t)(uint32_t)b;
    case TU: return (uint32_t)b;
    case TL: return (int64_t)b;
    default: return b;
    }
}

/* ---- rounding a __float128 to float or double, in any mode ---------------------------- */

enum { RN, RZ, RU, RD };

/* x rounded to a binary format of P significand bits, minimum normal exponent EMIN and
 * maximum exponent EMAX, in MODE. Exact when x is (conversions); a correctly rounded
 * reference when x is a 113-bit approximation away from a rounding boundary. */
static Q round_fmt(Q x, int p, int emin, int emax, int mode) {
    if (isnanq(x) || isinfq(x) || x == 0) return x;
    int e = ilogbq(x);
    int q = (e < emin ? emin : e) - (p - 1);
    Q s = ldexpq(x, -q), r;
    switch (mode) {
    case RN: r = rintq(s); break; /* ties to even (the default environment) */
    case RZ: r = truncq(s); break;
    case RU: r = ceilq(s); break;
    default: r = floorq(s); break;
    }
    r = ldexpq(r, q);
    Q maxv = ldexpq(ldexpq(1, p) - 1, emax - (p - 1));
    if (fabsq(r) > maxv) {
        int neg = r < 0;
        if (mode == RN || (mode == RU && !neg) || (mode == RD && neg)) return neg ? -HUGE_VALQ : HUGE_VALQ;
        return neg ? -maxv : maxv;
    }
    if (r == 0) return x < 0 ? -0.0Q : 0.0Q;
    return r;
}
static float to_f(Q x, int mode) { return (float)round_fmt(x, 24, -126, 127, mode); }
static double to_d(Q x, int mode) { return (double)round_fmt(x, 53, -1022, 1023, mode); }

/* ---- reference functions -------------------------------------------------------------- */

/* erfinv in __float128: a double first guess, then Newton steps on erfq/erfcq. */
static Q q_erfinv(Q y) {
    if (isnanq(y) || fabsq(y) > 1) return nanq("");
    if (y == 1) return HUGE_VALQ;
    if (y == -1) return -HUGE_VALQ;
    if (y == 0) return y;
    Q a = fabsq(y);
    /* Start from the tail asymptotics or a small-argument series, then Newton. */
    Q x;
    if (a > 0.9Q) {
        Q t = sqrtq(-logq(1 - a));
        x = t - logq(t) / (2 * t) * 0.5Q;
    } else {
        x = a * 0.886226925452758013649083741671Q * (1 + a * a * 0.2617993877991494365Q);
    }
    Q c = 1 - a; /* exact for a in the float/double range near 1 */
    for (int i = 0; i < 60; i++) {
        Q f = a > 0.5Q ? c - erfcq(x) : erfq(x) - a; /* erf(x) - a, accurately */
        Q dx = f / (1.12837916709551257389615890312154517Q * expq(-x * x));
        x -= dx;
        if (fabsq(dx) <= fabsq(x) * 1e-33Q) break;
    }
    return y < 0 ? -x : x;
}
/* erfcinv(y) = erfinv(1 - y), solved on erfc directly so small y keeps its precision. */
static Q q_erfcinv(Q y) {
    if (isnanq(y) || y < 0 || y > 2) return nanq("");
    if (y == 0) return HUGE_VALQ;
    if (y == 2) return -HUGE_VALQ;
    if (y == 1) return 0;
    if (y > 0.5Q) return q_erfinv(1 - y);
    /* Newton on log erfc(x) = log y, from the tail asymptote erfc(x) ~ exp(-x^2)/(x sqrt pi). */
    Q l = logq(y), x = sqrtq(-l);
    for (int i = 0; i < 3; i++) x = sqrtq(-l - logq(x * 1.77245385090551602729816748334114518Q));
    for (int i = 0; i < 100; i++) {
        Q e = erfcq(x);
        Q dx = (logq(e) - l) * e / (1.12837916709551257389615890312154517Q * expq(-x * x));
        x += dx;
        if (fabsq(dx) <= fabsq(x) * 1e-33Q) break;
    }
    return x;
}
static Q q_erfcx(Q x) {
    if (isnanq(x)) return x;
    if (x < 100) return expq(x * x) * erfcq(x);
    /* exp(x^2) erfc(x) ~ 1/(x sqrt(pi)) * sum (-1)^k (2k-1)!! / (2x^2)^k: at x >= 100 the
     * terms fall by 1/20000 each, so 12 of them reach 2^-113. */
    if (isinfq(x)) return 0;
    Q t = 1 / (2 * x * x), s = 1, term = 1;
    for (int k = 1; k < 14; k++) { term *= -(2 * k - 1) * t; s += term; }
    return s / (x * 1.77245385090551602729816748334114518Q);
}
static Q q_normcdf(Q x) { return 0.5Q * erfcq(-x / M_SQRT2q); }
static Q q_normcdfinv(Q p) {
    if (isnanq(p) || p < 0 || p > 1) return nanq("");
    if (p == 0.5Q) return 0; /* +0, as the GPU gives it */
    return -M_SQRT2q * q_erfcinv(2 * p);
}
/* sin(pi x), cos(pi x) with x reduced exactly modulo 2 first. */
static Q q_sinpi(Q x) {
    if (isnanq(x) || isinfq(x)) return nanq("");
    Q r = fmodq(x, 2); /* exact */
    if (r == 0 || r == 1 || r == -1) return x < 0 || (x == 0 && signbitq(x)) ? -0.0Q : 0.0Q;
    return sinq(M_PIq * r);
}
static Q q_cospi(Q x) {
    if (isnanq(x) || isinfq(x)) return nanq("");
    Q r = fabsq(fmodq(x, 2));
    if (r == 0.5Q || r == 1.5Q) return 0;
    return cosq(M_PIq * r);
}
/* Modified Bessel functions of the first kind: power series (all terms positive). */
/* I_nu(x) ~ e^x / sqrt(2 pi x) sum_k (-1)^k prod_{j<=k} (4 nu^2 - (2j-1)^2) / (k! (8x)^k):
 * at |x| > 60 its smallest term is below e^-120, far under 2^-113. */
static Q q_i_asym(Q x, int nu) {
    Q ax = fabsq(x), mu = 4 * nu * nu, term = 1, s = 1;
    for (int k = 1; k < 200; k++) {
        term *= -(mu - (Q)(2 * k - 1) * (2 * k - 1)) / (8 * k * ax);
        s += term;
        if (fabsq(term) < 1e-36Q) break;
    }
    Q r = expq(ax) / sqrtq(2 * M_PIq * ax) * s;
    return nu && x < 0 ? -r : r;
}
static Q q_i0(Q x) {
    if (isnanq(x)) return x;
    if (isinfq(x) || fabsq(x) > 720) return HUGE_VALQ; /* beyond double's range */
    if (fabsq(x) > 60) return q_i_asym(x, 0);
    Q q = x * x / 4, term = 1, s = 1;
    for (int k = 1; k < 100000 && term > s * 1e-36Q; k++) { term *= q / ((Q)k * k); s += term; }
    return s;
}
static Q q_i1(Q x) {
    if (isnanq(x) || x == 0) return x;
    if (isinfq(x) || fabsq(x) > 720) return x > 0 ? HUGE_VALQ : -HUGE_VALQ;
    if (fabsq(x) > 60) return q_i_asym(x, 1);
    Q q = x * x / 4, term = x / 2, s = term;
    for (int k = 1; k < 100000 && fabsq(term) > fabsq(s) * 1e-36Q; k++) { term *= q / ((Q)k * (k + 1)); s += term; }
    return s;
}
static Q q_rsqrt(Q x) { return 1 / sqrtq(x); }
static Q q_rcbrt(Q x) { return 1 / cbrtq(x); }
static Q q_exp10(Q x) { return expq(x * M_LN10q); }
static Q q_lgamma(Q x) { return lgammaq(x); }
static Q q_min(Q a, Q b) {
    if (isnanq(a)) return b;
    if (isnanq(b)) return a;
    if (a == b) return signbitq(a) ? a : b;
    return a < b ? a : b;
}
static Q q_max(Q a, Q b) {
    if (isnanq(a)) return b;
    if (isnanq(b)) return a;
    if (a == b) return signbitq(a) ? b : a;
    return a > b ? a : b;
}
static Q q_fdim(Q a, Q b) { return isnanq(a) || isnanq(b) ? nanq("") : (a > b ? a - b : 0); }
static Q q_hypot(Q a, Q b) {
    if (isinfq(a) || isinfq(b)) return HUGE_VALQ;
    return sqrtq(a * a + b * b); /* squares of doubles are exact in 113 bits */
}
static Q q_norm3(Q a, Q b, Q c) {
    if (isinfq(a) || isinfq(b) || isinfq(c)) return HUGE_VALQ;
    return sqrtq(a * a + b * b + c * c);
}
static Q q_norm4(Q a, Q b, Q c, Q d) {
    if (isinfq(a) || isinfq(b) || isinfq(c) || isinfq(d)) return HUGE_VALQ;
    return sqrtq(a * a + b * b + c * c + d * d);
}
static Q q_saturate(Q x) { return !(x > 0) ? 0 : (x > 1 ? 1 : x); } /* -0 and NaN give +0 */
/* j1 is odd: j1(-inf) = -0 (the GPU's result; libquadmath gives +0). */
static Q q_j1(Q x) { return isinfq(x) ? copysignq(0, x) : j1q(x); }
/* __fdividef(x, y) for 2^126 < |y| < 2^128 is documented to give 0 (NaN for infinite x). */
static Q q_fdividef(Q a, Q b) {
    Q m = fabsq(b);
    if (m > ldexpq(1, 126) && !isinfq(m)) return a * copysignq(0, b);
    return a / b;
}
/* __powf(x, y) is exp2(y * log2(x)): its special values follow from that formula. */
static Q q_fast_pow(Q a, Q b) {
    if (isnanq(a) || isnanq(b) || a < 0) return nanq("");
    if (a == 0) return b > 0 ? 0 : b < 0 ? HUGE_VALQ : nanq("");
    if (isinfq(a)) return b > 0 ? HUGE_VALQ : b < 0 ? 0 : nanq("");
    if (a == 1) return isinfq(b) ? nanq("") : 1;
    return powq(a, b);
}
static Q q_roundhalfaway(Q x) { return roundq(x); }

/* Float or double to integer: round in MODE, saturate, NaN to the value the GPU's cvt
 * gives (tests/facts/intdiv.txt). */
static Q to_int(Q x, int mode, Q lo, Q hi, Q nan_value) {
    if (isnanq(x)) return nan_value;
    Q r = mode == RN ? rintq(x) : mode == RZ ? truncq(x) : mode == RU ? ceilq(x) : floorq(x);
    return r < lo ? lo : r > hi ? hi : r;
}

/* ---- the function table --------------------------------------------------------------- */

/* How a result is judged. */
enum {
    K_NEAR,   /* `ref` is the real value: round it to nearest, compare in ulps */
    K_EXACT,  /* `ref` is the exact result (integer results, directed roundings done) */
};

/* Bounds at one input: the result passes if its ulp error is at most `ulp` or its
 * absolute error at most `abs`; a negative figure is no bound of that kind, both negative
 * is "no bound stated" (the error is measured and reported only). */
typedef struct { double ulp, abs; } Bound;
typedef Bound (*BoundFn)(const Q *a);

typedef struct Fn Fn;
typedef Q (*RefFn)(const Fn *fn, const Q *a);

/* Input classes for one argument. */
typedef struct { double lo, hi; } Range;

struct Fn {
    const char *name;
    const char *sig;   /* result type then argument types: "f=ff" */
    RefFn ref;
    int kind;
    double ulp;        /* constant bound (ulps), if `bound` is NULL; < 0: none */
    BoundFn bound;
    Range range[4];    /* values of interest per argument; lo == hi == 0: full range */
    int mode;          /* rounding mode of a K_EXACT rounding intrinsic */
    const void *impl;  /* the quad function a generic ref calls */
};

typedef Q (*Q1)(Q);
typedef Q (*Q2)(Q, Q);
typedef Q (*Q3)(Q, Q, Q);
typedef Q (*Q4)(Q, Q, Q, Q);
static Q r1(const Fn *f, const Q *a) { return ((Q1)f->impl)(a[0]); }
static Q r2(const Fn *f, const Q *a) { return ((Q2)f->impl)(a[0], a[1]); }
static Q r3(const Fn *f, const Q *a) { return ((Q3)f->impl)(a[0], a[1], a[2]); }
static Q r4(const Fn *f, const Q *a) { return ((Q4)f->impl)(a[0], a[1], a[2], a[3]); }

static Q ref_ldexp(const Fn *f, const Q *a) { (void)f; return a[0] == 0 || isinfq(a[0]) || isnanq(a[0]) ? a[0] : ldexpq(a[0], a[1] > 100000 ? 100000 : a[1] < -100000 ? -100000 : (int)a[1]); }
/* CUDA's jn/yn return NaN for a negative order. */
static Q ref_jn(const Fn *f, const Q *a) { (void)f; return a[0] < 0 ? nanq("") : jnq((int)a[0], a[1]); }
static Q ref_yn(const Fn *f, const Q *a) { (void)f; return a[0] < 0 ? nanq("") : ynq((int)a[0], a[1]); }
static Q ref_frexp_m(const Fn *f, const Q *a) { (void)f; int e; return isinfq(a[0]) || isnanq(a[0]) ? a[0] : frexpq(a[0], &e); }
static Q ref_frexp_e(const Fn *f, const Q *a) { (void)f; int e = 0; if (isinfq(a[0]) || isnanq(a[0])) return 0; frexpq(a[0], &e); return e; }
static Q ref_modf_f(const Fn *f, const Q *a) { (void)f; Q ip; if (isinfq(a[0])) return copysignq(0, a[0]); return modfq(a[0], &ip); }
static Q ref_modf_i(const Fn *f, const Q *a) { (void)f; Q ip; if (isinfq(a[0])) return a[0]; modfq(a[0], &ip); return ip; }
static Q ref_ilogb(const Fn *f, const Q *a) {
    (void)f;
    if (isnanq(a[0]) || a[0] == 0) return -2147483648.0Q;
    if (isinfq(a[0])) return 2147483647.0Q;
    return ilogbq(a[0]);
}
static Q ref_logb(Q x) { return logbq(x); }
static Q ref_remquo_r(const Fn *f, const Q *a) { (void)f; int q; return remquoq(a[0], a[1], &q); }
static Q ref_remquo_q(const Fn *f, const Q *a) {
    (void)f;
    int q = 0;
    if (isnanq(a[0]) || isnanq(a[1]) || isinfq(a[0]) || a[1] == 0) return 0;
    remquoq(a[0], a[1], &q);
    /* the GPU returns the sign and the low three bits, all C requires */
    return q < 0 ? -(-q & 7) : (q & 7);
}
/* lrint/llrint/lround/llround: saturating, NaN -> INT64_MIN (the GPU's cvt.s64). */
static Q ref_llrint(const Fn *f, const Q *a) { (void)f; return to_int(a[0], RN, -9223372036854775808.0Q, 9223372036854775807.0Q, -9223372036854775808.0Q); }
static Q ref_llround(const Fn *f, const Q *a) {
    (void)f;
    if (isnanq(a[0])) return -9223372036854775808.0Q;
    Q r = q_roundhalfaway(a[0]);
    return r < -9223372036854775808.0Q ? -9223372036854775808.0Q : r > 9223372036854775807.0Q ? 9223372036854775807.0Q : r;
}

/* Float-to-integer intrinsics: the family's limits and NaN value, the mode in f->mode. */
#define TOINT(NAME, LO, HI, NANV) \
    static Q NAME(const Fn *f, const Q *a) { return to_int(a[0], f->mode, LO, HI, NANV); }
TOINT(ref_f2i, -2147483648.0Q, 2147483647.0Q, 0)
TOINT(ref_f2u, 0, 4294967295.0Q, 0)
TOINT(ref_f2ll, -9223372036854775808.0Q, 9223372036854775807.0Q, -9223372036854775808.0Q)
TOINT(ref_f2ull, 0, 18446744073709551615.0Q, 9223372036854775808.0Q)
TOINT(ref_d2i, -2147483648.0Q, 2147483647.0Q, -2147483648.0Q)
TOINT(ref_d2u, 0, 4294967295.0Q, 2147483648.0Q)
TOINT(ref_d2ll, -9223372036854775808.0Q, 9223372036854775807.0Q, -9223372036854775808.0Q)
TOINT(ref_d2ull, 0, 18446744073709551615.0Q, 9223372036854775808.0Q)
/* Conversions to a float format: the exact value rounded in the mode. */
static Q ref_cvt_f(const Fn *f, const Q *a) { return to_f(a[0], f->mode); }
static Q ref_cvt_d(const Fn *f, const Q *a) { return to_d(a[0], f->mode); }
/* The raw bits of the current arguments (NaN payloads do not survive __float128). */
static __thread const u64 *cur_bits;
static Q ref_hiint(const Fn *f, const Q *a) { (void)f; (void)a; return (int32_t)(cur_bits[0] >> 32); }
static Q ref_loint(const Fn *f, const Q *a) { (void)f; (void)a; return (int32_t)(uint32_t)cur_bits[0]; }

/* Directed-rounding arithmetic: the host's IEEE operation under fesetround. */
static const int fe_modes[] = { FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD };
#define HOSTOP(NAME, T, EXPR)                                                         \
    static Q NAME(const Fn *f, const Q *a) {                                          \
        volatile T x = (T)a[0], y = (T)a[1], z = (T)a[2];                             \
        (void)y; (void)z;                                                             \
        fesetround(fe_modes[f->mode]);                                                \
        volatile T r = (EXPR);                                                        \
        fesetround(FE_TONEAREST);                                                     \
        return r;                                                                     \
    }
HOSTOP(ref_fadd, float, x + y)
HOSTOP(ref_fsub, float, x - y)
HOSTOP(ref_fmul, float, x * y)
HOSTOP(ref_fdiv, float, x / y)
HOSTOP(ref_frcp, float, 1.0f / x)
HOSTOP(ref_fsqrt, float, sqrtf(x))
HOSTOP(ref_ffma, float, fmaf(x, y, z))
HOSTOP(ref_dadd, double, x + y)
HOSTOP(ref_dsub, double, x - y)
HOSTOP(ref_dmul, double, x * y)
HOSTOP(ref_ddiv, double, x / y)
HOSTOP(ref_drcp, double, 1.0 / x)
HOSTOP(ref_dsqrt, double, sqrt(x))
HOSTOP(ref_dfma, double, fma(x, y, z))

/* ---- bounds that depend on the input (the guide's footnoted entries) ---------------- */

static Bound b_j_f(const Q *a) { return fabsq(a[0]) < 8 ? (Bound){ 9, -1 } : (Bound){ -1, 2.2e-6 }; }
static Bound b_j_d(const Q *a) { return fabsq(a[0]) < 8 ? (Bound){ 7, -1 } : (Bound){ -1, 5e-12 }; }
/* jnf: "for n = 128 the maximum absolute error is 2.2e-6"; jn: 5e-12. Applied to every n. */
static Bound b_jn_f(const Q *a) { (void)a; return (Bound){ -1, 2.2e-6 }; }
static Bound b_jn_d(const Q *a) { (void)a; return (Bound){ -1, 5e-12 }; }
/* ynf: ceil(2 + 2.5 n) ulps for |x| < n, else 2.2e-6 absolute; yn: 5e-12 absolute for
 * |x| > 1.5 n, no bound stated below. */
static Bound b_yn_f(const Q *a) {
    Q n = fabsq(a[0]);
    return fabsq(a[1]) < n ? (Bound){ ceil(2 + 2.5 * (double)n), -1 } : (Bound){ -1, 2.2e-6 };
}
static Bound b_yn_d(const Q *a) { return fabsq(a[1]) > 1.5Q * fabsq(a[0]) ? (Bound){ -1, 5e-12 } : (Bound){ -1, -1 }; }
/* lgammaf: 6 ulps outside [-10.001, -2.264]; lgamma: 4 outside [-23.0001, -2.2637];
 * "larger inside". */
static Bound b_lgamma_f(const Q *a) { return a[0] > -10.001Q && a[0] < -2.264Q ? (Bound){ -1, -1 } : (Bound){ 6, -1 }; }
static Bound b_lgamma_d(const Q *a) { return a[0] > -23.0001Q && a[0] < -2.2637Q ? (Bound){ -1, -1 } : (Bound){ 4, -1 }; }
/* Intrinsics (table "Single-Precision Floating-Point Intrinsic Functions"). */
static Bound b_fexp(const Q *a) { return (Bound){ 2 + floor(fabs(1.173 * (double)a[0])), -1 }; }
static Bound b_fexp10(const Q *a) { return (Bound){ 2 + floor(fabs(2.97 * (double)a[0])), -1 }; }
static int in_half_two(Q x) { return x >= 0.5Q && x <= 2; }
static Bound b_flog(const Q *a) { return in_half_two(a[0]) ? (Bound){ -1, exp2(-21.41) } : (Bound){ 3, -1 }; }
static Bound b_flog2(const Q *a) { return in_half_two(a[0]) ? (Bound){ -1, exp2(-22) } : (Bound){ 2, -1 }; }
static Bound b_flog10(const Q *a) { return in_half_two(a[0]) ? (Bound){ -1, exp2(-24) } : (Bound){ 3, -1 }; }
static Bound b_fsin(const Q *a) { return fabsq(a[0]) <= M_PIq ? (Bound){ -1, exp2(-21.41) } : (Bound){ -1, -1 }; }
static Bound b_fcos(const Q *a) { return fabsq(a[0]) <= M_PIq ? (Bound){ -1, exp2(-21.19) } : (Bound){ -1, -1 }; }
static Bound b_fdividef(const Q *a) {
    Q y = fabsq(a[1]);
    return y >= ldexpq(1, -126) && y <= ldexpq(1, 126) ? (Bound){ 2, -1 } : (Bound){ -1, -1 };
}

/* ---- the table ------------------------------------------------------------------------ */

#define NONE -1.0
#define ALL { { 0, 0 } }
#define R1(lo, hi) { { lo, hi } }
#define F1(n, q, u, lo, hi) { n, "f=f", r1, K_NEAR, u, NULL, R1(lo, hi), 0, (const void *)(q) }
#define D1(n, q, u, lo, hi) { n, "d=d", r1, K_NEAR, u, NULL, R1(lo, hi), 0, (const void *)(q) }
#define F1B(n, q, b, lo, hi) { n, "f=f", r1, K_NEAR, 0, b, R1(lo, hi), 0, (const void *)(q) }
#define D1B(n, q, b, lo, hi) { n, "d=d", r1, K_NEAR, 0, b, R1(lo, hi), 0, (const void *)(q) }
#define F2(n, q, u, l0, h0, l1, h1) { n, "f=ff", r2, K_NEAR, u, NULL, { { l0, h0 }, { l1, h1 } }, 0, (const void *)(q) }
#define D2(n, q, u, l0, h0, l1, h1) { n, "d=dd", r2, K_NEAR, u, NULL, { { l0, h0 }, { l1, h1 } }, 0, (const void *)(q) }
/* The four rounding modes of an intrinsic; lo == hi == 0: inputs over the full range. */
#define M4(base, sig, ref, lo, hi) \
    { base "_rn", sig, ref, K_EXACT, 0, NULL, R1(lo, hi), RN, NULL }, \
    { base "_rz", sig, ref, K_EXACT, 0, NULL, R1(lo, hi), RZ, NULL }, \
    { base "_ru", sig, ref, K_EXACT, 0, NULL, R1(lo, hi), RU, NULL }, \
    { base "_rd", sig, ref, K_EXACT, 0, NULL, R1(lo, hi), RD, NULL }
#define RNG2(l0, h0, l1, h1) { { l0, h0 }, { l1, h1 } }
#define RNG3(l, h) { { l, h }, { l, h }, { l, h } }

static Q q_fabs(Q x) { return fabsq(x); }
static Q q_copysign(Q a, Q b) { return copysignq(a, b); }
static Q q_nextafter_f(Q a, Q b) { return nextafterf((float)a, (float)b); } /* exact: IEEE */
static Q q_nextafter_d(Q a, Q b) { return nextafter((double)a, (double)b); }
static Q q_rhypot(Q a, Q b) { return 1 / q_hypot(a, b); }
static Q q_rnorm3(Q a, Q b, Q c) { return 1 / q_norm3(a, b, c); }
static Q q_rnorm4(Q a, Q b, Q c, Q d) { return 1 / q_norm4(a, b, c, d); }
static Q q_div(Q a, Q b) { return a / b; }
static Q q_fmod(Q a, Q b) { return fmodq(a, b); }
static Q q_remainder(Q a, Q b) { return remainderq(a, b); }
static Q q_atan2(Q a, Q b) { return atan2q(a, b); }
static Q q_pow(Q a, Q b) { return powq(a, b); }

static const Fn FNS[] = {
    /* Single precision (table "Single-Precision Mathematical Standard Library Functions"). */
    F1("sqrtf", sqrtq, 0, 0, 1e6), F1("rsqrtf", q_rsqrt, 2, 0, 1e6), F1("cbrtf", cbrtq, 1, -1e6, 1e6),
    F1("rcbrtf", q_rcbrt, 1, -1e6, 1e6), F1("expf", expq, 2, -104, 89), F1("exp2f", exp2q, 2, -150, 128),
    F1("exp10f", q_exp10, 2, -46, 39), F1("expm1f", expm1q, 1, -20, 89), F1("logf", logq, 1, 0, 100),
    F1("log2f", log2q, 1, 0, 100), F1("log10f", log10q, 2, 0, 100), F1("log1pf", log1pq, 1, -1, 10),
    F1("sinf", sinq, 2, -100, 100), F1("cosf", cosq, 2, -100, 100), F1("tanf", tanq, 4, -100, 100),
    F1("asinf", asinq, 2, -1, 1), F1("acosf", acosq, 2, -1, 1), F1("atanf", atanq, 2, -100, 100),
    F1("sinhf", sinhq, 3, -90, 90), F1("coshf", coshq, 2, -90, 90), F1("tanhf", tanhq, 2, -10, 10),
    F1("asinhf", asinhq, 3, -100, 100), F1("acoshf", acoshq, 4, 1, 100), F1("atanhf", atanhq, 3, -1, 1),
    F1("erff", erfq, 2, -4, 4), F1("erfcf", erfcq, 4, -4, 11), F1("erfinvf", q_erfinv, 2, -1, 1),
    F1("erfcinvf", q_erfcinv, 4, 0, 2), F1("erfcxf", q_erfcx, 4, -10, 100), F1("normcdff", q_normcdf, 5, -15, 8),
    F1("normcdfinvf", q_normcdfinv, 5, 0, 1), F1("tgammaf", tgammaq, 5, -40, 36),
    F1B("lgammaf", q_lgamma, b_lgamma_f, -50, 100), F1("fabsf", q_fabs, 0, -1e7, 1e7),
    F1("floorf", floorq, 0, -1e7, 1e7), F1("ceilf", ceilq, 0, -1e7, 1e7), F1("roundf", roundq, 0, -1e7, 1e7),
    F1("truncf", truncq, 0, -1e7, 1e7), F1("rintf", rintq, 0, -1e7, 1e7), F1("nearbyintf", rintq, 0, -1e7, 1e7),
    F1("logbf", ref_logb, 0, -1e7, 1e7), F1("sinpif", q_sinpi, 1, -100, 100), F1("cospif", q_cospi, 1, -100, 100),
    F1B("j0f", j0q, b_j_f, -30, 30), F1B("j1f", q_j1, b_j_f, -30, 30), F1B("y0f", y0q, b_j_f, 0, 30),
    F1B("y1f", y1q, b_j_f, 0, 30), F1("cyl_bessel_i0f", q_i0, 6, -90, 90), F1("cyl_bessel_i1f", q_i1, 6, -90, 90),
    F1("sincosf_s", sinq, 2, -100, 100), F1("sincosf_c", cosq, 2, -100, 100),
    F1("sincospif_s", q_sinpi, 1, -100, 100), F1("sincospif_c", q_cospi, 1, -100, 100),
    { "frexpf_m", "f=f", ref_frexp_m, K_NEAR, 0, NULL, ALL, 0, NULL },
    { "frexpf_e", "i=f", ref_frexp_e, K_EXACT, 0, NULL, ALL, 0, NULL },
    { "modff_f", "f=f", ref_modf_f, K_NEAR, 0, NULL, R1(-1e7, 1e7), 0, NULL },
    { "modff_i", "f=f", ref_modf_i, K_NEAR, 0, NULL, R1(-1e7, 1e7), 0, NULL },
    { "ilogbf", "i=f", ref_ilogb, K_EXACT, 0, NULL, ALL, 0, NULL },
    { "lrintf", "l=f", ref_llrint, K_EXACT, 0, NULL, R1(-1e19, 1e19), 0, NULL },
    { "llrintf", "l=f", ref_llrint, K_EXACT, 0, NULL, R1(-1e19, 1e19), 0, NULL },
    { "lroundf", "l=f", ref_llround, K_EXACT, 0, NULL, R1(-1e19, 1e19), 0, NULL },
    { "llroundf", "l=f", ref_llround, K_EXACT, 0, NULL, R1(-1e19, 1e19), 0, NULL },
    F2("powf", q_pow, 4, 0, 10, -30, 30), F2("atan2f", q_atan2, 3, -10, 10, -10, 10),
    F2("hypotf", q_hypot, 3, -1e4, 1e4, -1e4, 1e4), F2("fmodf", q_fmod, 0, -1e6, 1e6, -100, 100),
    F2("remainderf", q_remainder, 0, -1e6, 1e6, -100, 100), F2("fminf", q_min, 0, -10, 10, -10, 10),
    F2("fmaxf", q_max, 0, -10, 10, -10, 10), F2("fdimf", q_fdim, 0, -10, 10, -10, 10),
    F2("copysignf", q_copysign, 0, -10, 10, -10, 10), F2("nextafterf", q_nextafter_f, 0, -10, 10, -10, 10),
    F2("rhypotf", q_rhypot, 2, -1e4, 1e4, -1e4, 1e4),
    { "remquof_r", "f=ff", ref_remquo_r, K_NEAR, 0, NULL, RNG2(-1e6, 1e6, -100, 100), 0, NULL },
    { "remquof_q", "i=ff", ref_remquo_q, K_EXACT, 0, NULL, RNG2(-1e6, 1e6, -100, 100), 0, NULL },
    { "fmaf", "f=fff", ref_ffma, K_EXACT, 0, NULL, RNG3(-100, 100), RN, NULL },
    { "norm3df", "f=fff", r3, K_NEAR, 2, NULL, RNG3(-1e4, 1e4), 0, (const void *)q_norm3 },
    { "rnorm3df", "f=fff", r3, K_NEAR, 2, NULL, RNG3(-1e4, 1e4), 0, (const void *)q_rnorm3 },
    { "norm4df", "f=ffff", r4, K_NEAR, 2, NULL, RNG3(-1e4, 1e4), 0, (const void *)q_norm4 },
    { "rnorm4df", "f=ffff", r4, K_NEAR, 2, NULL, RNG3(-1e4, 1e4), 0, (const void *)q_rnorm4 },
    { "normf4", "f=ffff", r4, K_NEAR, NONE, NULL, RNG3(-1e4, 1e4), 0, (const void *)q_norm4 },
    { "rnormf4", "f=ffff", r4, K_NEAR, NONE, NULL, RNG3(-1e4, 1e4), 0, (const void *)q_rnorm4 },
    { "ldexpf", "f=fi", ref_ldexp, K_NEAR, 0, NULL, RNG2(-10, 10, -300, 300), 0, NULL },
    { "scalbnf", "f=fi", ref_ldexp, K_NEAR, 0, NULL, RNG2(-10, 10, -300, 300), 0, NULL },
    { "scalblnf", "f=fl", ref_ldexp, K_NEAR, 0, NULL, RNG2(-10, 10, -300, 300), 0, NULL },
    { "jnf", "f=if", ref_jn, K_NEAR, 0, b_jn_f, RNG2(0, 130, 0, 100), 0, NULL },
    { "ynf", "f=if", ref_yn, K_NEAR, 0, b_yn_f, RNG2(0, 130, 0, 100), 0, NULL },

    /* Double precision (table "Double-Precision Mathematical Standard Library Functions"). */
    D1("sqrt", sqrtq, 0, 0, 1e6), D1("rsqrt", q_rsqrt, 1, 0, 1e6), D1("cbrt", cbrtq, 1, -1e6, 1e6),
    D1("rcbrt", q_rcbrt, 1, -1e6, 1e6), D1("exp", expq, 1, -745, 710), D1("exp2", exp2q, 1, -1075, 1024),
    D1("exp10", q_exp10, 1, -324, 309), D1("expm1", expm1q, 1, -40, 710), D1("log", logq, 1, 0, 100),
    D1("log2", log2q, 1, 0, 100), D1("log10", log10q, 1, 0, 100), D1("log1p", log1pq, 1, -1, 10),
    D1("sin", sinq, 2, -100, 100), D1("cos", cosq, 2, -100, 100), D1("tan", tanq, 2, -100, 100),
    D1("asin", asinq, 2, -1, 1), D1("acos", acosq, 2, -1, 1), D1("atan", atanq, 2, -100, 100),
    D1("sinh", sinhq, 2, -710, 710), D1("cosh", coshq, 1, -710, 710), D1("tanh", tanhq, 1, -20, 20),
    D1("asinh", asinhq, 3, -100, 100), D1("acosh", acoshq, 3, 1, 100), D1("atanh", atanhq, 2, -1, 1),
    D1("erf", erfq, 2, -6, 6), D1("erfc", erfcq, 5, -6, 27), D1("erfinv", q_erfinv, 5, -1, 1),
    D1("erfcinv", q_erfcinv, 6, 0, 2), D1("erfcx", q_erfcx, 4, -26, 1e5), D1("normcdf", q_normcdf, 5, -38, 9),
    D1("normcdfinv", q_normcdfinv, 8, 0, 1), D1("tgamma", tgammaq, 10, -180, 172),
    D1B("lgamma", q_lgamma, b_lgamma_d, -50, 100), D1("fabs", q_fabs, 0, -1e15, 1e15),
    D1("floor", floorq, 0, -1e15, 1e15), D1("ceil", ceilq, 0, -1e15, 1e15), D1("round", roundq, 0, -1e15, 1e15),
    D1("trunc", truncq, 0, -1e15, 1e15), D1("rint", rintq, 0, -1e15, 1e15), D1("nearbyint", rintq, 0, -1e15, 1e15),
    D1("logb", ref_logb, 0, -1e15, 1e15), D1("sinpi", q_sinpi, 2, -100, 100), D1("cospi", q_cospi, 2, -100, 100),
    D1B("j0", j0q, b_j_d, -30, 30), D1B("j1", q_j1, b_j_d, -30, 30), D1B("y0", y0q, b_j_d, 0, 30),
    D1B("y1", y1q, b_j_d, 0, 30), D1("cyl_bessel_i0", q_i0, 6, -700, 700), D1("cyl_bessel_i1", q_i1, 6, -700, 700),
    D1("sincos_s", sinq, 2, -100, 100), D1("sincos_c", cosq, 2, -100, 100),
    D1("sincospi_s", q_sinpi, 2, -100, 100), D1("sincospi_c", q_cospi, 2, -100, 100),
    { "frexp_m", "d=d", ref_frexp_m, K_NEAR, 0, NULL, ALL, 0, NULL },
    { "frexp_e", "i=d", ref_frexp_e, K_EXACT, 0, NULL, ALL, 0, NULL },
    { "modf_f", "d=d", ref_modf_f, K_NEAR, 0, NULL, R1(-1e15, 1e15), 0, NULL },
    { "modf_i", "d=d", ref_modf_i, K_NEAR, 0, NULL, R1(-1e15, 1e15), 0, NULL },
    { "ilogb", "i=d", ref_ilogb, K_EXACT, 0, NULL, ALL, 0, NULL },
    { "lrint", "l=d", ref_llrint, K_EXACT, 0, NULL, R1(-1e19, 1e19), 0, NULL },
    { "llrint", "l=d", ref_llrint, K_EXACT, 0, NULL, R1(-1e19, 1e19), 0, NULL },
    { "lround", "l=d", ref_llround, K_EXACT, 0, NULL, R1(-1e19, 1e19), 0, NULL },
    { "llround", "l=d", ref_llround, K_EXACT, 0, NULL, R1(-1e19, 1e19), 0, NULL },
    D2("pow", q_pow, 2, 0, 10, -300, 300), D2("atan2", q_atan2, 2, -10, 10, -10, 10),
    D2("hypot", q_hypot, 2, -1e4, 1e4, -1e4, 1e4), D2("fmod", q_fmod, 0, -1e15, 1e15, -100, 100),
    D2("remainder", q_remainder, 0, -1e15, 1e15, -100, 100), D2("fmin", q_min, 0, -10, 10, -10, 10),
    D2("fmax", q_max, 0, -10, 10, -10, 10), D2("fdim", q_fdim, 0, -10, 10, -10, 10),
    D2("copysign", q_copysign, 0, -10, 10, -10, 10), D2("nextafter", q_nextafter_d, 0, -10, 10, -10, 10),
    D2("rhypot", q_rhypot, 1, -1e4, 1e4, -1e4, 1e4),
    { "remquo_r", "d=dd", ref_remquo_r, K_NEAR, 0, NULL, RNG2(-1e15, 1e15, -100, 100), 0, NULL },
    { "remquo_q", "i=dd", ref_remquo_q, K_EXACT, 0, NULL, RNG2(-1e15, 1e15, -100, 100), 0, NULL },
    { "fma", "d=ddd", ref_dfma, K_EXACT, 0, NULL, RNG3(-100, 100), RN, NULL },
    { "norm3d", "d=ddd", r3, K_NEAR, 2, NULL, RNG3(-1e4, 1e4), 0, (const void *)q_norm3 },
    { "rnorm3d", "d=ddd", r3, K_NEAR, 1, NULL, RNG3(-1e4, 1e4), 0, (const void *)q_rnorm3 },
    { "norm4d", "d=dddd", r4, K_NEAR, 2, NULL, RNG3(-1e4, 1e4), 0, (const void *)q_norm4 },
    { "rnorm4d", "d=dddd", r4, K_NEAR, 1, NULL, RNG3(-1e4, 1e4), 0, (const void *)q_rnorm4 },
    { "norm4", "d=dddd", r4, K_NEAR, NONE, NULL, RNG3(-1e4, 1e4), 0, (const void *)q_norm4 },
    { "rnorm4", "d=dddd", r4, K_NEAR, NONE, NULL, RNG3(-1e4, 1e4), 0, (const void *)q_rnorm4 },
    { "ldexp", "d=di", ref_ldexp, K_NEAR, 0, NULL, RNG2(-10, 10, -2200, 2200), 0, NULL },
    { "scalbn", "d=di", ref_ldexp, K_NEAR, 0, NULL, RNG2(-10, 10, -2200, 2200), 0, NULL },
    { "scalbln", "d=dl", ref_ldexp, K_NEAR, 0, NULL, RNG2(-10, 10, -2200, 2200), 0, NULL },
    { "jn", "d=id", ref_jn, K_NEAR, 0, b_jn_d, RNG2(0, 130, 0, 100), 0, NULL },
    { "yn", "d=id", ref_yn, K_NEAR, 0, b_yn_d, RNG2(0, 130, 0, 100), 0, NULL },

    /* Single-precision intrinsics (table "Single-Precision Floating-Point Intrinsic
     * Functions"); -use_fast_math maps the standard functions to these. */
    F1B("__sinf", sinq, b_fsin, -3.1415927, 3.1415927), F1B("__cosf", cosq, b_fcos, -3.1415927, 3.1415927),
    F1("__tanf", tanq, NONE, -1.5, 1.5), F1B("__expf", expq, b_fexp, -87, 88),
    F1B("__exp10f", q_exp10, b_fexp10, -37, 38), F1B("__logf", logq, b_flog, 0, 4),
    F1B("__log2f", log2q, b_flog2, 0, 4), F1B("__log10f", log10q, b_flog10, 0, 4),
    F2("__powf", q_fast_pow, NONE, 0, 10, -10, 10),
    { "__fdividef", "f=ff", r2, K_NEAR, 0, b_fdividef, RNG2(-100, 100, -100, 100), 0, (const void *)q_fdividef },
    /* fdividef divides as x / y does (2 ulp bound for 2^-126 <= |y| <= 2^126, like __fdividef). */
    { "fdividef", "f=ff", r2, K_NEAR, 0, b_fdividef, RNG2(-100, 100, -100, 100), 0, (const void *)q_div },
    F1B("__sincosf_s", sinq, b_fsin, -3.1415927, 3.1415927), F1B("__sincosf_c", cosq, b_fcos, -3.1415927, 3.1415927),
    F1("__saturatef", q_saturate, 0, -0.5, 1.5), F1("__frsqrt_rn", q_rsqrt, 0, 0, 100),
    M4("__fadd", "f=ff", ref_fadd, 0, 0), M4("__fsub", "f=ff", ref_fsub, 0, 0), M4("__fmul", "f=ff", ref_fmul, 0, 0),
    M4("__fdiv", "f=ff", ref_fdiv, 0, 0), M4("__frcp", "f=f", ref_frcp, 0, 0), M4("__fsqrt", "f=f", ref_fsqrt, 0, 0),
    M4("__fmaf", "f=fff", ref_ffma, 0, 0),
    /* Double-precision intrinsics. */
    M4("__dadd", "d=dd", ref_dadd, 0, 0), M4("__dsub", "d=dd", ref_dsub, 0, 0), M4("__dmul", "d=dd", ref_dmul, 0, 0),
    M4("__ddiv", "d=dd", ref_ddiv, 0, 0), M4("__drcp", "d=d", ref_drcp, 0, 0), M4("__dsqrt", "d=d", ref_dsqrt, 0, 0),
    M4("__fma", "d=ddd", ref_dfma, 0, 0),
    /* Conversions (type casting intrinsics). */
    M4("__float2int", "i=f", ref_f2i, -3e9, 3e9), M4("__float2uint", "u=f", ref_f2u, -1e3, 5e9),
    M4("__float2ll", "l=f", ref_f2ll, -1e19, 1e19), M4("__float2ull", "L=f", ref_f2ull, -1e3, 2e19),
    M4("__double2int", "i=d", ref_d2i, -3e9, 3e9), M4("__double2uint", "u=d", ref_d2u, -1e3, 5e9),
    M4("__double2ll", "l=d", ref_d2ll, -1e19, 1e19), M4("__double2ull", "L=d", ref_d2ull, -1e3, 2e19),
    M4("__double2float", "f=d", ref_cvt_f, -1e3, 1e3),
    M4("__int2float", "f=i", ref_cvt_f, 0, 0), M4("__uint2float", "f=u", ref_cvt_f, 0, 0),
    M4("__ll2float", "f=l", ref_cvt_f, 0, 0), M4("__ull2float", "f=L", ref_cvt_f, 0, 0),
    M4("__ll2double", "d=l", ref_cvt_d, 0, 0), M4("__ull2double", "d=L", ref_cvt_d, 0, 0),
    { "__int2double_rn", "d=i", ref_cvt_d, K_EXACT, 0, NULL, ALL, RN, NULL },
    { "__uint2double_rn", "d=u", ref_cvt_d, K_EXACT, 0, NULL, ALL, RN, NULL },
    { "__double2hiint", "i=d", ref_hiint, K_EXACT, 0, NULL, ALL, 0, NULL },
    { "__double2loint", "i=d", ref_loint, K_EXACT, 0, NULL, ALL, 0, NULL },
};
#define NFNS ((int)(sizeof FNS / sizeof FNS[0]))

/* ---- inputs ----------------------------------------------------------------------------- */

static u64 rng_state;
static u64 next_rand(void) {
    /* splitmix64 */
    u64 z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static double uniform01(void) { return (next_rand() >> 11) * 0x1p-53; }
static u64 seed_of(const char *s) {
    u64 h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static const double SPECIAL_F[] = {
    0.0, -0.0, 0x1p-149, -0x1p-149, 0x1.fffffcp-127, -0x1.fffffcp-127, 0x1p-126, -0x1p-126, 1.0, -1.0,
    0.5, -0.5, 2.0, -2.0, 0x1.fffffep127, -0x1.fffffep127, INFINITY, -INFINITY, NAN, 3.14159265f, -3.14159265f,
    1.5707964f, 1e30, -1e30, 0x1p100, 105414350.0, 3.0, -3.0, 1.5, -1.5, 0.25, 10.0, 100.0, 88.7228394f,
    -103.972084f, 1e-10, 0x1.fffffep-1, 0x1.000002p+0, 16777216.0, 16777217.0, 2147483648.0, -2147483904.0,
    4294967296.0, 9.2233720e18, -9.2233720e18, 1.8446744e19,
};
static const double SPECIAL_D[] = {
    0.0, -0.0, 0x1p-1074, -0x1p-1074, 0x0.fffffffffffffp-1022, -0x0.fffffffffffffp-1022, 0x1p-1022, -0x1p-1022,
    1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 0x1.fffffffffffffp1023, -0x1.fffffffffffffp1023, INFINITY, -INFINITY, NAN,
    3.141592653589793, -3.141592653589793, 1.5707963267948966, 1e300, -1e300, 1e22, 0x1p1000, 3.0, -3.0, 1.5,
    -1.5, 0.25, 10.0, 100.0, 709.782712893384, -745.1332191019412, 1e-300, 0x1.fffffffffffffp-1,
    0x1.0000000000001p+0, 9007199254740992.0, 9007199254740993.0, 2147483647.5, -2147483648.5, 4294967295.5,
    9.223372036854775807e18, -9.223372036854775808e18, 1.8446744073709551615e19,
};
static const int64_t SPECIAL_I[] = {
    0, 1, -1, 2, -2, 127, 128, 1000, 16777216, 16777217, 16777219, -16777217, 2147483647, -2147483647 - 1,
    (int64_t)1 << 53, ((int64_t)1 << 53) + 1, -(((int64_t)1 << 53) + 1), INT64_MAX, INT64_MIN, 1 + ((int64_t)1 << 62),
};

/* One argument of type T for input index i of function f's argument k. */
static u64 gen_arg(const Fn *f, int k, int t, u64 i, u64 sweep_index) {
    (void)f; (void)i;
    Range r = f->range[k];
    int full = r.lo == 0 && r.hi == 0;
    unsigned c = (unsigned)(sweep_index % 4);
    if (t == TF || t == TD) {
        double v;
        if (full || c == 0) {
            u64 b = next_rand();
            return t == TF ? (b & 0xffffffffu) : b;
        } else if (c == 1 || c == 3) {
            v = r.lo + (r.hi - r.lo) * uniform01();
        } else {
            /* log-uniform magnitude up to the range's, either sign the range allows */
            double m = fmax(fabs(r.lo), fabs(r.hi));
            v = m * exp2(-40 * uniform01());
            if (r.lo < 0 && (next_rand() & 1)) v = -v;
        }
        return t == TF ? f_bits((float)v) : d_bits(v);
    }
    /* integers: random bits, or values in the range */
    if (full || c == 0 || c == 2) {
        u64 b = next_rand();
        if (c == 2) b >>= (next_rand() % 64);
        if (next_rand() & 1) b = (u64)-(int64_t)b;
        return t == TI || t == TU ? (b & 0xffffffffu) : b;
    }
    int64_t v = (int64_t)(r.lo + (r.hi - r.lo) * uniform01());
    return t == TI || t == TU ? ((u64)v & 0xffffffffu) : (u64)v;
}
static u64 special_arg(int t, unsigned j) {
    if (t == TF) return f_bits((float)SPECIAL_F[j % (sizeof SPECIAL_F / sizeof SPECIAL_F[0])]);
    if (t == TD) return d_bits(SPECIAL_D[j % (sizeof SPECIAL_D / sizeof SPECIAL_D[0])]);
    int64_t v = SPECIAL_I[j % (sizeof SPECIAL_I / sizeof SPECIAL_I[0])];
    return t == TI || t == TU ? ((u64)v & 0xffffffffu) : (u64)v;
}
static unsigned n_special(int t) {
    return t == TF ? sizeof SPECIAL_F / sizeof SPECIAL_F[0]
         : t == TD ? sizeof SPECIAL_D / sizeof SPECIAL_D[0] : sizeof SPECIAL_I / sizeof SPECIAL_I[0];
}

/* Fills args[k][i]: at even i, while they last, every special value of argument 0
 * against each of argument 1's (pairs), at odd i and after them random values; the
 * sequence does not depend on n. */
static void gen_inputs(const Fn *f, int n, u64 **args) {
    int arity = (int)strlen(f->sig) - 2;
    rng_state = seed_of(f->name);
    unsigned ns0 = n_special(f->sig[2]);
    unsigned nsp = arity == 1 ? ns0 : ns0 * n_special(f->sig[3]);
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < arity; k++) {
            int t = f->sig[2 + k];
            if (k == 0 && (f->ref == ref_jn || f->ref == ref_yn)) {
                /* the order of jn/yn: -3..130 (huge orders only cost time) */
                args[k][i] = (u64)(uint32_t)(i < 134 ? i - 3 : (int)(-3 + 134 * uniform01()));
            } else if (i % 2 == 0 && (unsigned)i / 2 < nsp) {
                unsigned s = (unsigned)i / 2;
                unsigned j = k == 0 ? s % ns0 : k == 1 ? s / ns0 : s * 7 + k;
                args[k][i] = special_arg(t, j);
            } else {
                args[k][i] = gen_arg(f, k, t, (u64)i, (u64)i + (u64)k * 3);
            }
        }
    }
}

/* ---- files ------------------------------------------------------------------------------ */

static void die(const char *m) { fprintf(stderr, "reference: %s\n", m); exit(2); }
static void w32(FILE *f, uint32_t v) { fwrite(&v, 4, 1, f); }
static uint32_t r32(FILE *f) { uint32_t v; if (fread(&v, 4, 1, f) != 1) die("short file"); return v; }

typedef struct { char name[64]; uint32_t arity, n; u64 *args[4]; u64 *res; } Rec;

static int cmd_gen(int n, const char *path) {
    FILE *f = fopen(path, "wb");
    if (!f) die("cannot write inputs");
    w32(f, 0x4957534du);
    w32(f, NFNS);
    u64 *args[4];
    for (int k = 0; k < 4; k++) args[k] = malloc(sizeof(u64) * n);
    for (int j = 0; j < NFNS; j++) {
        const Fn *fn = &FNS[j];
        int arity = (int)strlen(fn->sig) - 2;
        gen_inputs(fn, n, args);
        w32(f, (uint32_t)strlen(fn->name));
        fwrite(fn->name, 1, strlen(fn->name), f);
        w32(f, arity);
        w32(f, n);
        for (int k = 0; k < arity; k++) fwrite(args[k], 8, n, f);
    }
    fclose(f);
    return 0;
}

/* Reads an INPUTS file (with_args) or an OUTPUTS file, plain ("MSWO") or packed ("MSWP":
 * per function also a u32 width, 4 or 8 bytes per result). */
static Rec *read_recs(const char *path, int with_args, int *count) {
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot read file");
    uint32_t magic = r32(f);
    int packed = !with_args && magic == 0x5057534du;
    if (magic != (with_args ? 0x4957534du : 0x4f57534du) && !packed) die("bad magic");
    int c = (int)r32(f);
    Rec *recs = calloc(c, sizeof(Rec));
    for (int j = 0; j < c; j++) {
        uint32_t len = r32(f);
        if (len >= 64 || fread(recs[j].name, 1, len, f) != len) die("bad name");
        recs[j].arity = with_args ? r32(f) : 0;
        recs[j].n = r32(f);
        for (uint32_t k = 0; k < recs[j].arity; k++) {
            recs[j].args[k] = malloc(8 * (size_t)recs[j].n);
            if (fread(recs[j].args[k], 8, recs[j].n, f) != recs[j].n) die("short file");
        }
        if (!with_args) {
            uint32_t width = packed ? r32(f) : 8;
            recs[j].res = calloc(recs[j].n, 8);
            for (uint32_t i = 0; i < recs[j].n; i++)
                if (fread(&recs[j].res[i], width, 1, f) != 1) die("short file");
        }
    }
    fclose(f);
    *count = c;
    return recs;
}
static const Rec *find_rec(const Rec *r, int c, const char *name) {
    for (int j = 0; j < c; j++)
        if (!strcmp(r[j].name, name)) return &r[j];
    return NULL;
}

/* ---- judging ----------------------------------------------------------------------------- */

/* Position of a value in the ordered sequence of the format's values (-0 == +0). */
static int64_t ordinal(int t, u64 b) {
    if (t == TF) {
        int32_t i = (int32_t)(uint32_t)b;
        return i < 0 ? -(int64_t)(i & 0x7fffffff) : i;
    }
    int64_t i = (int64_t)b;
    return i < 0 ? -(i & 0x7fffffffffffffffll) : i;
}
static int is_nan_bits(int t, u64 b) { return t == TF ? isnan(bits_f(b)) : t == TD ? isnan(bits_d(b)) : 0; }

typedef struct {
    double max_ulp;      /* largest ulp error seen anywhere (finite results) */
    double max_ulp_bounded, max_abs;
    u64 worst[4];        /* arguments of the largest error */
    long special, over, bitdiff, n;
    char first_bad[200];
} Stats;

/* Error of one result; returns 0 if within the function's bound. */
static int judge(const Fn *fn, const u64 *argbits, u64 got, Stats *st) {
    int rt = fn->sig[0], arity = (int)strlen(fn->sig) - 2;
    Q a[4] = { 0, 0, 0, 0 };
    for (int k = 0; k < arity; k++) a[k] = decode(fn->sig[2 + k], argbits[k]);
    cur_bits = argbits;
    Q ref = fn->ref(fn, a);
    u64 want;
    if (rt == TF) want = f_bits(fn->kind == K_NEAR ? to_f(ref, RN) : (float)ref);
    else if (rt == TD) want = d_bits(fn->kind == K_NEAR ? to_d(ref, RN) : (double)ref);
    else {
        /* integer results: exact */
        int64_t v = (int64_t)ref;
        u64 wb = rt == TL ? (u64)v : rt == TUL ? (u64)(ref >= 9223372036854775808.0Q ? (u64)ref : (u64)v) : ((u64)v & 0xffffffffu);
        u64 gb = rt == TL || rt == TUL ? got : got & 0xffffffffu;
        if (gb == wb) return 0;
        st->special++;
        return 1;
    }
    int wnan = is_nan_bits(rt, want), gnan = is_nan_bits(rt, got);
    if (wnan || gnan) {
        if (wnan && gnan) return 0;
        st->special++;
        return 1;
    }
    Q w = decode(rt, want), g = decode(rt, got);
    if (isinfq(w) || isinfq(g) || w == 0 || g == 0) {
        /* infinities and zeros (with their sign) are special values: exact */
        if (w == g && signbitq(w) == signbitq(g)) return 0;
        if (!(isinfq(w) || isinfq(g)) && w == g) { st->special++; return 1; } /* sign of zero */
        if (isinfq(w) || isinfq(g)) { st->special++; return 1; }
    }
    double ulp = (double)llabs(ordinal(rt, got) - ordinal(rt, want));
    double aerr = (double)fabsq(g - ref);
    if (ulp > st->max_ulp) {
        st->max_ulp = ulp;
        for (int k = 0; k < 4; k++) st->worst[k] = argbits[k];
    }
    Bound b = fn->bound ? fn->bound(a) : (Bound){ fn->ulp, -1 };
    if (fn->kind == K_EXACT) b = (Bound){ 0, -1 };
    if (b.ulp < 0 && b.abs < 0) return 0;
    if (b.ulp >= 0 && ulp <= b.ulp) { if (ulp > st->max_ulp_bounded) st->max_ulp_bounded = ulp; return 0; }
    if (b.abs >= 0 && aerr <= b.abs) { if (aerr > st->max_abs) st->max_abs = aerr; return 0; }
    st->over++;
    return 1;
}

static void describe(const Fn *fn, const u64 *argbits, u64 got, char *out, size_t len) {
    int arity = (int)strlen(fn->sig) - 2, rt = fn->sig[0];
    char buf[200] = "", tmp[64];
    for (int k = 0; k < arity; k++) {
        int t = fn->sig[2 + k];
        if (t == TF) snprintf(tmp, sizeof tmp, "%a", (double)bits_f(argbits[k]));
        else if (t == TD) snprintf(tmp, sizeof tmp, "%a", bits_d(argbits[k]));
        else snprintf(tmp, sizeof tmp, "%lld", (long long)(t == TI ? (int64_t)(int32_t)argbits[k] : (int64_t)argbits[k]));
        strcat(buf, k ? ", " : "");
        strcat(buf, tmp);
    }
    Q a[4] = { 0, 0, 0, 0 };
    for (int k = 0; k < arity; k++) a[k] = decode(fn->sig[2 + k], argbits[k]);
    cur_bits = argbits;
    Q ref = fn->ref(fn, a);
    char rs[64];
    quadmath_snprintf(rs, sizeof rs, "%.20Qg", ref);
    if (rt == TF) snprintf(out, len, "%s(%s) = %a, reference %s", fn->name, buf, (double)bits_f(got), rs);
    else if (rt == TD) snprintf(out, len, "%s(%s) = %a, reference %s", fn->name, buf, bits_d(got), rs);
    else snprintf(out, len, "%s(%s) = %lld, reference %s", fn->name, buf, (long long)(rt == TI ? (int64_t)(int32_t)got : (int64_t)got), rs);
}

static const char *bound_text(const Fn *fn, char *buf, size_t len) {
    if (fn->kind == K_EXACT) return "0 (exact)";
    if (fn->bound == b_j_f) return "9 for abs(x)<8, else 2.2e-6 abs";
    if (fn->bound == b_j_d) return "7 for abs(x)<8, else 5e-12 abs";
    if (fn->bound == b_jn_f) return "2.2e-6 abs";
    if (fn->bound == b_jn_d) return "5e-12 abs";
    if (fn->bound == b_yn_f) return "ceil(2+2.5n) for abs(x)<n, else 2.2e-6 abs";
    if (fn->bound == b_yn_d) return "5e-12 abs for abs(x)>1.5n";
    if (fn->bound == b_lgamma_f) return "6 outside [-10.001, -2.264]";
    if (fn->bound == b_lgamma_d) return "4 outside [-23.0001, -2.2637]";
    if (fn->bound == b_fexp) return "2+floor(abs(1.173x))";
    if (fn->bound == b_fexp10) return "2+floor(abs(2.97x))";
    if (fn->bound == b_flog) return "2^-21.41 abs in [0.5,2], else 3";
    if (fn->bound == b_flog2) return "2^-22 abs in [0.5,2], else 2";
    if (fn->bound == b_flog10) return "2^-24 abs in [0.5,2], else 3";
    if (fn->bound == b_fsin) return "2^-21.41 abs in [-pi,pi]";
    if (fn->bound == b_fcos) return "2^-21.19 abs in [-pi,pi]";
    if (fn->bound == b_fdividef) return "2 for 2^-126<=abs(y)<=2^126";
    if (fn->ulp < 0) return "none stated";
    snprintf(buf, len, "%g", fn->ulp);
    return buf;
}

/* Judges one function; writes its report line into `line`; returns 1 if it fails. */
static int check_one(const Fn *fn, const Rec *in, int ni, const Rec *out, int no, const Rec *gpu, int ng, int markdown,
                     char *line, size_t len) {
    const Rec *ri = find_rec(in, ni, fn->name), *ro = find_rec(out, no, fn->name);
    if (!ri || !ro || ro->n != ri->n) { snprintf(line, len, "%-20s FAIL missing\n", fn->name); return 1; }
    Stats st = { 0 };
    long bad = 0;
    for (uint32_t i = 0; i < ri->n; i++) {
        u64 argbits[4] = { 0, 0, 0, 0 };
        for (uint32_t k = 0; k < ri->arity; k++) argbits[k] = ri->args[k][i];
        if (judge(fn, argbits, ro->res[i], &st)) {
            if (!bad) describe(fn, argbits, ro->res[i], st.first_bad, sizeof st.first_bad);
            bad++;
        }
    }
    /* GPU: its own error, and how many of our results differ from its bits. */
    Stats gs = { 0 };
    long diff = 0, gn = 0;
    char gdiff[240] = "";
    const Rec *rg = gpu ? find_rec(gpu, ng, fn->name) : NULL;
    if (rg) {
        int rt = fn->sig[0];
        gn = rg->n < ri->n ? rg->n : ri->n;
        for (long i = 0; i < gn; i++) {
            u64 argbits[4] = { 0, 0, 0, 0 };
            for (uint32_t k = 0; k < ri->arity; k++) argbits[k] = ri->args[k][i];
            judge(fn, argbits, rg->res[i], &gs);
            u64 a = ro->res[i], b = rg->res[i];
            if (rt == TF || rt == TI || rt == TU) { a &= 0xffffffffu; b &= 0xffffffffu; }
            if (a != b && !(is_nan_bits(rt, a) && is_nan_bits(rt, b))) {
                if (!diff) {
                    char d1[200];
                    describe(fn, argbits, rg->res[i], d1, sizeof d1);
                    snprintf(gdiff, sizeof gdiff, "GPU: %s", d1);
                }
                diff++;
            }
        }
    }
    /* A correctly rounded function (bound 0) must match the GPU bit for bit. */
    int cr = fn->kind == K_EXACT || (fn->bound == NULL && fn->ulp == 0);
    int gpu_fail = rg && cr && diff > 0;
    int fail = bad > 0 || gpu_fail;
    char bb[32];
    size_t o = 0;
#define OUT(...) (o += (size_t)snprintf(line + o, o < len ? len - o : 0, __VA_ARGS__))
    if (markdown) {
        char abss[32] = "";
        if (st.max_abs > 0) snprintf(abss, sizeof abss, "%.3g", st.max_abs);
        OUT("| `%s` | %u | %g | %s | %s |", fn->name, ri->n, st.max_ulp, bound_text(fn, bb, sizeof bb), abss);
        if (rg) OUT(" %g | %ld of %ld |", gs.max_ulp, diff, gn);
        OUT("\n");
    } else {
        OUT("%-20s %s n=%u maxulp=%g bound=%s", fn->name, fail ? "FAIL" : "ok  ", ri->n, st.max_ulp,
            bound_text(fn, bb, sizeof bb));
        if (st.max_abs > 0) OUT(" maxabs=%.3g", st.max_abs);
        if (bad) OUT(" over=%ld special=%ld first: %s", st.over, st.special, st.first_bad);
        if (rg) {
            OUT(" | gpu n=%ld maxulp=%g over=%ld special=%ld differ=%ld", gn, gs.max_ulp, gs.over, gs.special, diff);
            if (diff) OUT(" first: %s", gdiff);
        }
        OUT("\n");
    }
#undef OUT
    return fail;
}

static int cmd_check(const char *inp, const char *outp, const char *gpup, int markdown) {
    int ni, no, ng = 0;
    Rec *in = read_recs(inp, 1, &ni), *out = read_recs(outp, 0, &no), *gpu = gpup ? read_recs(gpup, 0, &ng) : NULL;
    if (markdown) {
        printf("| function | inputs | max ulp error | bound (CUDA guide, ulp) | max abs error where the bound is absolute |%s\n",
               gpu ? " GPU max ulp (first inputs) | results differing from the GPU |" : "");
        printf("|---|---|---|---|---|%s\n", gpu ? "---|---|" : "");
    }
    static char lines[NFNS][1024];
    int fails[NFNS];
#pragma omp parallel for schedule(dynamic)
    for (int j = 0; j < NFNS; j++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
        fails[j] = check_one(&FNS[j], in, ni, out, no, gpu, ng, markdown, lines[j], sizeof lines[j]);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
        if (getenv("SWEEP_TIMES"))
            fprintf(stderr, "%-20s %.3f s\n", FNS[j].name, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9);
    }
    int failed = 0;
    for (int j = 0; j < NFNS; j++) {
        fputs(lines[j], stdout);
        failed |= fails[j];
    }
    return failed;
}

/* Keeps the first n results of each function, 4 bytes each where the result type has 32
 * bits: the form in which GPU results are checked in. */
static int cmd_pack(const char *outp, int n, const char *path) {
    int no;
    Rec *out = read_recs(outp, 0, &no);
    FILE *f = fopen(path, "wb");
    if (!f) die("cannot write");
    w32(f, 0x5057534du);
    w32(f, no);
    for (int j = 0; j < no; j++) {
        const Fn *fn = NULL;
        for (int k = 0; k < NFNS; k++)
            if (!strcmp(FNS[k].name, out[j].name)) fn = &FNS[k];
        if (!fn) die("unknown function in outputs");
        uint32_t m = out[j].n < (uint32_t)n ? out[j].n : (uint32_t)n;
        uint32_t width = strchr("fiu", fn->sig[0]) ? 4 : 8;
        w32(f, (uint32_t)strlen(out[j].name));
        fwrite(out[j].name, 1, strlen(out[j].name), f);
        w32(f, m);
        w32(f, width);
        for (uint32_t i = 0; i < m; i++) fwrite(&out[j].res[i], width, 1, f);
    }
    fclose(f);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 5 && !strcmp(argv[1], "pack")) return cmd_pack(argv[2], atoi(argv[3]), argv[4]);
    if (argc == 4 && !strcmp(argv[1], "gen")) return cmd_gen(atoi(argv[2]), argv[3]);
    if ((argc == 4 || argc == 5) && !strcmp(argv[1], "check")) return cmd_check(argv[2], argv[3], argc == 5 ? argv[4] : NULL, 0);
    if ((argc == 4 || argc == 5) && !strcmp(argv[1], "table")) return cmd_check(argv[2], argv[3], argc == 5 ? argv[4] : NULL, 1);
    fprintf(stderr, "usage: reference gen N INPUTS | check INPUTS OUTPUTS [GPU] | table INPUTS OUTPUTS [GPU]\n");
    return 2;
}
