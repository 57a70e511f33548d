/* cuprite/narrow_float.h (Cuprite): the arithmetic of CUDA's two 16-bit floating formats,
 * binary16 (`__half`: 10 stored mantissa bits, bias 15) and bfloat16 (`__nv_bfloat16`:
 * 7 bits, bias 127), on their bits, shared by cuda_fp16.h and cuda_bf16.h.
 *
 * Everything is integer bit manipulation or float/double arithmetic whose result is
 * exact or rounded once more in a way that cannot change the final bits, so the same
 * code gives the GPU's bits in device code and in host code:
 *   - conversions round with the four IEEE modes from the exact value;
 *   - add, sub, mul, div, sqrt are done in float, then rounded: float's 24 bits are at
 *     least 2p+2 for both formats (p = 11, 8), so the double rounding is innocuous;
 *   - fma is done in double (the product is exact), the sum rounded to odd, then rounded
 *     to the format: round-to-odd at 53 bits then to-nearest at p <= 51 bits is exact.
 * NaN results follow the GPU (H100, CUDA 13): arithmetic, negation and absolute value
 * return the canonical NaN 0x7fff; float -> 16-bit gives 0x7fff, double -> 16-bit the
 * quiet NaN with the input's sign; binary16 -> float gives 0x7fffffff. */
#ifndef CUPRITE_NARROW_FLOAT_H
#define CUPRITE_NARROW_FLOAT_H

#include "cuda_runtime.h"
#include <math.h>

#define __CUPRITE_NF __host__ __device__ static inline

/* Rounding modes. */
#define __CUPRITE_RN 0
#define __CUPRITE_RZ 1
#define __CUPRITE_RD 2
#define __CUPRITE_RU 3

/* The two formats: stored mantissa bits, exponent bias. */
#define __CUPRITE_F16 10, 15
#define __CUPRITE_BF16 7, 127

/* The NaN that arithmetic produces on the GPU (both formats). */
#define __CUPRITE_CANONICAL_NAN 0x7fffu

union __cuprite_f32_bits_u {
    float f;
    unsigned int u;
};
union __cuprite_f64_bits_u {
    double d;
    unsigned long long u;
};

__CUPRITE_NF unsigned int __cuprite_f32_bits(float f) {
    __cuprite_f32_bits_u c;
    c.f = f;
    return c.u;
}
__CUPRITE_NF float __cuprite_f32_from_bits(unsigned int u) {
    __cuprite_f32_bits_u c;
    c.u = u;
    return c.f;
}
__CUPRITE_NF unsigned long long __cuprite_f64_bits(double d) {
    __cuprite_f64_bits_u c;
    c.d = d;
    return c.u;
}
__CUPRITE_NF double __cuprite_f64_from_bits(unsigned long long u) {
    __cuprite_f64_bits_u c;
    c.u = u;
    return c.d;
}

/* Rounds (-1)^sign * m * 2^e (m != 0) to the format with `mb` stored mantissa bits and
 * exponent bias `bias`, in rounding mode `mode`; the 16 result bits include the sign. */
__CUPRITE_NF unsigned short __cuprite_nf_round(unsigned int sign, unsigned long long m, int e, int mb, int bias, int mode) {
    /* Normalise: the leading one to bit 63. */
    if (!(m >> 32)) { m <<= 32; e -= 32; }
    if (!(m >> 48)) { m <<= 16; e -= 16; }
    if (!(m >> 56)) { m <<= 8; e -= 8; }
    if (!(m >> 60)) { m <<= 4; e -= 4; }
    if (!(m >> 62)) { m <<= 2; e -= 2; }
    if (!(m >> 63)) { m <<= 1; e -= 1; }
    int be = e + 63 + bias; /* biased exponent of the leading one */
    int shift = 63 - mb;    /* bits of m below the last one kept */
    if (be < 1) shift += 1 - be; /* subnormal: fewer bits are kept */
    unsigned long long kept;
    int up;
    if (shift > 64) {
        kept = 0; /* below half the smallest subnormal, not zero */
        up = (mode == __CUPRITE_RU && !sign) || (mode == __CUPRITE_RD && sign);
    } else {
        kept = shift == 64 ? 0ull : m >> shift;
        unsigned long long rem = shift == 64 ? m : m & ((1ull << shift) - 1ull);
        unsigned long long halfway = 1ull << (shift - 1);
        if (mode == __CUPRITE_RN) up = rem > halfway || (rem == halfway && (kept & 1ull));
        else if (mode == __CUPRITE_RZ) up = 0;
        else if (mode == __CUPRITE_RU) up = rem != 0 && !sign;
        else up = rem != 0 && sign;
    }
    kept += (unsigned long long)up;
    /* A normal number's leading one adds 1 to the stored exponent field; a carry out of
     * the mantissa moves to the next binade (or from subnormal to normal) by itself. */
    unsigned long long bits = be >= 1 ? ((unsigned long long)(be - 1) << mb) + kept : kept;
    unsigned long long inf = (unsigned long long)(2 * bias + 1) << mb;
    if (bits >= inf) {
        int to_inf = mode == __CUPRITE_RN || (mode == __CUPRITE_RU && !sign) || (mode == __CUPRITE_RD && sign);
        bits = to_inf ? inf : inf - 1ull;
    }
    return (unsigned short)((sign << 15) | (unsigned int)bits);
}

/* Infinity of the format, with sign. */
__CUPRITE_NF unsigned short __cuprite_nf_inf(unsigned int sign, int mb, int bias) {
    return (unsigned short)((sign << 15) | ((unsigned int)(2 * bias + 1) << mb));
}

__CUPRITE_NF int __cuprite_nf_isnan(unsigned short h, int mb, int bias) {
    unsigned int inf = (unsigned int)(2 * bias + 1) << mb;
    return (h & 0x7fffu) > inf;
}

/* float -> format, NaN -> `nan`. */
__CUPRITE_NF unsigned short __cuprite_nf_from_f32(float f, int mb, int bias, int mode, unsigned short nan) {
    unsigned int u = __cuprite_f32_bits(f);
    unsigned int sign = u >> 31, ex = (u >> 23) & 0xffu, man = u & 0x7fffffu;
    if (ex == 0xffu) return man ? nan : __cuprite_nf_inf(sign, mb, bias);
    if (ex == 0 && man == 0) return (unsigned short)(sign << 15);
    unsigned long long m = ex ? (man | 0x800000u) : man;
    int e = ex ? (int)ex - 150 : -149;
    return __cuprite_nf_round(sign, m, e, mb, bias, mode);
}

/* double -> format, NaN -> `nan`, with the input's sign where `nan_signed`. */
__CUPRITE_NF unsigned short __cuprite_nf_from_f64(double d, int mb, int bias, int mode, unsigned short nan, int nan_signed) {
    unsigned long long u = __cuprite_f64_bits(d);
    unsigned int sign = (unsigned int)(u >> 63), ex = (unsigned int)(u >> 52) & 0x7ffu;
    unsigned long long man = u & 0xfffffffffffffull;
    if (ex == 0x7ffu) {
        if (!man) return __cuprite_nf_inf(sign, mb, bias);
        return nan_signed ? (unsigned short)(nan | (sign << 15)) : nan;
    }
    if (ex == 0 && man == 0) return (unsigned short)(sign << 15);
    unsigned long long m = ex ? (man | 0x10000000000000ull) : man;
    int e = ex ? (int)ex - 1075 : -1074;
    return __cuprite_nf_round(sign, m, e, mb, bias, mode);
}

/* Integers -> format (exact magnitude, one rounding). */
__CUPRITE_NF unsigned short __cuprite_nf_from_u64(unsigned long long v, int mb, int bias, int mode) {
    return v ? __cuprite_nf_round(0, v, 0, mb, bias, mode) : (unsigned short)0;
}
__CUPRITE_NF unsigned short __cuprite_nf_from_i64(long long v, int mb, int bias, int mode) {
    if (v >= 0) return __cuprite_nf_from_u64((unsigned long long)v, mb, bias, mode);
    return __cuprite_nf_round(1, 0ull - (unsigned long long)v, 0, mb, bias, mode);
}

/* format -> float: exact. bfloat16 is float's upper half (NaNs keep their bits); a
 * binary16 NaN becomes the canonical float NaN 0x7fffffff, as on the GPU. */
__CUPRITE_NF float __cuprite_nf_to_f32(unsigned short h, int mb, int bias) {
    if (mb == 7) return __cuprite_f32_from_bits((unsigned int)h << 16);
    unsigned int sign = (unsigned int)(h >> 15) << 31;
    unsigned int ex = (h & 0x7fffu) >> mb, man = h & ((1u << mb) - 1u);
    unsigned int maxe = (unsigned int)(2 * bias + 1);
    if (ex == maxe) return __cuprite_f32_from_bits(man ? 0x7fffffffu : (sign | 0x7f800000u));
    if (ex == 0) {
        /* man * 2^(1 - bias - mb): exact in double, and in float for both formats. */
        float mag = (float)((double)man * __cuprite_f64_from_bits((unsigned long long)(1023 + 1 - bias - mb) << 52));
        return sign ? -mag : mag;
    }
    return __cuprite_f32_from_bits(sign | ((ex - (unsigned int)bias + 127u) << 23) | (man << (23 - mb)));
}

/* Arithmetic results: float (or double) result -> format, NaN -> canonical NaN. */
__CUPRITE_NF unsigned short __cuprite_nf_result(float r, int mb, int bias) {
    return __cuprite_nf_from_f32(r, mb, bias, __CUPRITE_RN, (unsigned short)__CUPRITE_CANONICAL_NAN);
}
__CUPRITE_NF unsigned short __cuprite_nf_result64(double r, int mb, int bias) {
    return __cuprite_nf_from_f64(r, mb, bias, __CUPRITE_RN, (unsigned short)__CUPRITE_CANONICAL_NAN, 0);
}

/* a * b + c, rounded once. The product of two 16-bit floats is exact in double; the sum
 * is rounded to odd (the TwoSum error says whether it was exact), which the final
 * rounding to nearest at far fewer bits cannot tell from the exact sum. */
__CUPRITE_NF unsigned short __cuprite_nf_fma(unsigned short a, unsigned short b, unsigned short c, int mb, int bias) {
    double p = (double)__cuprite_nf_to_f32(a, mb, bias) * (double)__cuprite_nf_to_f32(b, mb, bias);
    double q = (double)__cuprite_nf_to_f32(c, mb, bias);
    double s = p + q;
    if (s == s && s - s == 0.0) {
        double bp = s - p;
        double err = (p - (s - bp)) + (q - bp);
        if (err != 0.0) {
            unsigned long long u = __cuprite_f64_bits(s);
            if (!(u & 1ull)) u = ((err > 0.0) == (s > 0.0)) ? u + 1ull : u - 1ull;
            s = __cuprite_f64_from_bits(u);
        }
    }
    return __cuprite_nf_result64(s, mb, bias);
}

/* Negation and absolute value flip or clear the sign; a NaN becomes the canonical NaN. */
__CUPRITE_NF unsigned short __cuprite_nf_neg(unsigned short h, int mb, int bias) {
    return __cuprite_nf_isnan(h, mb, bias) ? (unsigned short)__CUPRITE_CANONICAL_NAN : (unsigned short)(h ^ 0x8000u);
}
__CUPRITE_NF unsigned short __cuprite_nf_abs(unsigned short h, int mb, int bias) {
    return __cuprite_nf_isnan(h, mb, bias) ? (unsigned short)__CUPRITE_CANONICAL_NAN : (unsigned short)(h & 0x7fffu);
}

/* Clamp to [0, 1] (the `_sat` forms): NaN -> +0. */
__CUPRITE_NF unsigned short __cuprite_nf_sat(unsigned short h, int mb, int bias) {
    if (__cuprite_nf_isnan(h, mb, bias) || (h & 0x8000u)) return 0;
    unsigned short one = (unsigned short)((unsigned int)bias << mb);
    return h > one ? one : h;
}
/* max(0, x) (the `_relu` forms): NaN -> canonical NaN, -0 -> +0. */
__CUPRITE_NF unsigned short __cuprite_nf_relu(unsigned short h, int mb, int bias) {
    if (__cuprite_nf_isnan(h, mb, bias)) return (unsigned short)__CUPRITE_CANONICAL_NAN;
    return (h & 0x8000u) ? (unsigned short)0 : h;
}

/* max/min as the GPU's `max.f16`: a NaN operand gives the other one, two NaNs the
 * canonical NaN, and +0 is greater than -0. `nan` set: any NaN gives the canonical NaN. */
__CUPRITE_NF unsigned short __cuprite_nf_maxmin(unsigned short a, unsigned short b, int mb, int bias, int is_max, int nan) {
    int na = __cuprite_nf_isnan(a, mb, bias), nb = __cuprite_nf_isnan(b, mb, bias);
    if (na || nb) {
        if (nan || (na && nb)) return (unsigned short)__CUPRITE_CANONICAL_NAN;
        return na ? b : a;
    }
    /* Order on the bits: sign-magnitude to a monotone integer. */
    int ka = (a & 0x8000u) ? -(int)(a & 0x7fffu) - 1 : (int)a;
    int kb = (b & 0x8000u) ? -(int)(b & 0x7fffu) - 1 : (int)b;
    if (is_max) return ka >= kb ? a : b;
    return ka <= kb ? a : b;
}

/* A float that holds an integer value, rounded from x in `mode` (x finite). */
__CUPRITE_NF float __cuprite_nf_round_integral(float x, int mode) {
    if (!(x > -8388608.0f && x < 8388608.0f)) return x; /* already integral */
    float t = (float)(long long)x; /* toward zero, exact */
    float frac = x - t;            /* exact */
    if (mode == __CUPRITE_RZ) return t;
    if (mode == __CUPRITE_RD) return frac < 0.0f ? t - 1.0f : t;
    if (mode == __CUPRITE_RU) return frac > 0.0f ? t + 1.0f : t;
    if (frac > 0.5f || (frac == 0.5f && ((long long)t & 1))) return t + 1.0f;
    if (frac < -0.5f || (frac == -0.5f && ((long long)t & 1))) return t - 1.0f;
    return t;
}

/* float -> integer of the given range in `mode`, saturating; NaN -> `nan_value`
 * (0 for 16- and 32-bit results, the most negative 64-bit value for 64-bit ones). */
__CUPRITE_NF long long __cuprite_nf_to_int(float x, int mode, long long lo, long long hi, long long nan_value) {
    if (x != x) return nan_value;
    double r = (double)__cuprite_nf_round_integral(x, mode);
    if (r <= (double)lo) return lo;
    if (r >= (double)hi) return hi;
    return (long long)r;
}
__CUPRITE_NF unsigned long long __cuprite_nf_to_u64(float x, int mode) {
    if (x != x) return 0x8000000000000000ull;
    double r = (double)__cuprite_nf_round_integral(x, mode);
    if (r <= 0.0) return 0;
    if (r >= 18446744073709551616.0) return 0xffffffffffffffffull;
    return (unsigned long long)r;
}

#endif /* CUPRITE_NARROW_FLOAT_H */
