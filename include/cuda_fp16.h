/* cuda_fp16.h (Cuprite): CUDA's half-precision type and functions, written for Cuprite
 * from the CUDA Math API's "Half Precision Intrinsics" pages.
 *
 * `__half` and `__half2` are ordinary C++ classes holding the binary16 bits; every
 * function is plain C++ over cuprite/narrow_float.h (bit manipulation, float and double
 * arithmetic), so the same code runs in device code and in host code and gives the GPU's
 * bits for the correctly rounded operations (conversions in all rounding modes,
 * add/sub/mul/div/fma, sqrt, comparisons, min/max). The other math functions (hexp,
 * hsin, ...) are computed in double and rounded once; the GPU's are approximations, so a
 * result may differ from the GPU's in the last bit.
 * cuda_bf16.h is the same file for `__nv_bfloat16`, made from this one by renaming
 * (tools/gen-cuda-bf16.py): change this file, then run that script.
 *
 * Device-only here, as in CUDA: the warp shuffles, atomicAdd and __ldg on these types.
 * __CUDA_NO_HALF_CONVERSIONS__, __CUDA_NO_HALF_OPERATORS__, __CUDA_NO_HALF2_OPERATORS__
 * and CUDA_NO_HALF remove what they remove in CUDA. */
#ifndef __CUDA_FP16_H__
#define __CUDA_FP16_H__

typedef struct __half_raw {
    unsigned short x;
} __half_raw;
typedef struct __half2_raw {
    unsigned short x;
    unsigned short y;
} __half2_raw;

#ifdef __cplusplus

#include "cuprite/narrow_float.h"

#define __CUPRITE_H __host__ __device__ static inline
#define __CUPRITE_HM __host__ __device__
#define __CUPRITE_HDEV __device__ static inline

/* NaN from a float: the canonical NaN; from a double: in device code the quiet NaN
 * with the input's sign, in host code the canonical NaN (CUDA's two paths differ). */
#define __CUPRITE_H_NAN_FROM_F32 ((unsigned short)__CUPRITE_CANONICAL_NAN)
#ifdef __CUDA_ARCH__
#define __CUPRITE_H_NAN_FROM_F64 ((unsigned short)0x7e00u), 1
#else
#define __CUPRITE_H_NAN_FROM_F64 ((unsigned short)__CUPRITE_CANONICAL_NAN), 0
#endif

struct __nv_bfloat16;

struct __align__(2) __half {
    unsigned short __x;

    __CUPRITE_HM __half() = default;
    __CUPRITE_HM __half(const __half_raw &hr) : __x(hr.x) {}
    __CUPRITE_HM __half &operator=(const __half_raw &hr) {
        __x = hr.x;
        return *this;
    }
    __CUPRITE_HM operator __half_raw() const {
        __half_raw r;
        r.x = __x;
        return r;
    }
#if !defined(__CUDA_NO_HALF_CONVERSIONS__)
    __CUPRITE_HM __half(float f) : __x(__cuprite_nf_from_f32(f, __CUPRITE_F16, __CUPRITE_RN, __CUPRITE_H_NAN_FROM_F32)) {}
    __CUPRITE_HM __half(double f) : __x(__cuprite_nf_from_f64(f, __CUPRITE_F16, __CUPRITE_RN, __CUPRITE_H_NAN_FROM_F64)) {}
    __CUPRITE_HM __half(short v) : __x(__cuprite_nf_from_i64(v, __CUPRITE_F16, __CUPRITE_RN)) {}
    __CUPRITE_HM __half(unsigned short v) : __x(__cuprite_nf_from_u64(v, __CUPRITE_F16, __CUPRITE_RN)) {}
    __CUPRITE_HM __half(int v) : __x(__cuprite_nf_from_i64(v, __CUPRITE_F16, __CUPRITE_RN)) {}
    __CUPRITE_HM __half(unsigned int v) : __x(__cuprite_nf_from_u64(v, __CUPRITE_F16, __CUPRITE_RN)) {}
    __CUPRITE_HM __half(long v) : __x(__cuprite_nf_from_i64(v, __CUPRITE_F16, __CUPRITE_RN)) {}
    __CUPRITE_HM __half(unsigned long v) : __x(__cuprite_nf_from_u64(v, __CUPRITE_F16, __CUPRITE_RN)) {}
    __CUPRITE_HM __half(long long v) : __x(__cuprite_nf_from_i64(v, __CUPRITE_F16, __CUPRITE_RN)) {}
    __CUPRITE_HM __half(unsigned long long v) : __x(__cuprite_nf_from_u64(v, __CUPRITE_F16, __CUPRITE_RN)) {}
    __CUPRITE_HM operator float() const { return __cuprite_nf_to_f32(__x, __CUPRITE_F16); }
    __CUPRITE_HM __half &operator=(float f) {
        __x = __cuprite_nf_from_f32(f, __CUPRITE_F16, __CUPRITE_RN, __CUPRITE_H_NAN_FROM_F32);
        return *this;
    }
    __CUPRITE_HM __half &operator=(double f) {
        __x = __cuprite_nf_from_f64(f, __CUPRITE_F16, __CUPRITE_RN, __CUPRITE_H_NAN_FROM_F64);
        return *this;
    }
    /* From integers by assignment: to nearest, as the constructors. */
    __CUPRITE_HM __half &operator=(short v) { return *this = __half(v); }
    __CUPRITE_HM __half &operator=(unsigned short v) { return *this = __half(v); }
    __CUPRITE_HM __half &operator=(int v) { return *this = __half(v); }
    __CUPRITE_HM __half &operator=(unsigned int v) { return *this = __half(v); }
    __CUPRITE_HM __half &operator=(long long v) { return *this = __half(v); }
    __CUPRITE_HM __half &operator=(unsigned long long v) { return *this = __half(v); }
    /* To integers: round toward zero, saturating, NaN -> 0, as the _rz conversions. */
    __CUPRITE_HM operator signed char() const {
        return (signed char)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_F16), __CUPRITE_RZ, -128, 127, 0);
    }
    __CUPRITE_HM operator char() const {
        return (char)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_F16), __CUPRITE_RZ, -128, 127, 0);
    }
    __CUPRITE_HM operator unsigned char() const {
        return (unsigned char)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_F16), __CUPRITE_RZ, 0, 255, 0);
    }
    __CUPRITE_HM operator long() const {
        return (long)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_F16), __CUPRITE_RZ, -9223372036854775807ll - 1,
                                         9223372036854775807ll, -9223372036854775807ll - 1);
    }
    __CUPRITE_HM operator unsigned long() const {
        return (unsigned long)__cuprite_nf_to_u64(__cuprite_nf_to_f32(__x, __CUPRITE_F16), __CUPRITE_RZ);
    }
    __CUPRITE_HM operator short() const {
        return (short)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_F16), __CUPRITE_RZ, -32768, 32767, 0);
    }
    __CUPRITE_HM operator unsigned short() const {
        return (unsigned short)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_F16), __CUPRITE_RZ, 0, 65535, 0);
    }
    __CUPRITE_HM operator int() const {
        return (int)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_F16), __CUPRITE_RZ, -2147483647 - 1, 2147483647, 0);
    }
    __CUPRITE_HM operator unsigned int() const {
        return (unsigned int)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_F16), __CUPRITE_RZ, 0, 4294967295ll, 0);
    }
    __CUPRITE_HM operator long long() const {
        return __cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_F16), __CUPRITE_RZ, -9223372036854775807ll - 1,
                                   9223372036854775807ll, -9223372036854775807ll - 1);
    }
    __CUPRITE_HM operator unsigned long long() const {
        return __cuprite_nf_to_u64(__cuprite_nf_to_f32(__x, __CUPRITE_F16), __CUPRITE_RZ);
    }
    __CUPRITE_HM operator bool() const { return (__x & 0x7fffu) != 0; }
#endif
    /* From the other 16-bit format, to nearest (defined in cuda_bf16.h). */
    __CUPRITE_HM explicit __half(const __nv_bfloat16 &f); /* __cuprite_cross_ctor */
};

struct __align__(4) __half2 {
    __half x;
    __half y;

    __CUPRITE_HM __half2() = default;
    __CUPRITE_HM __half2(const __half &a, const __half &b) : x(a), y(b) {}
    __CUPRITE_HM __half2(const __half2_raw &h2r) {
        __half_raw lo, hi;
        lo.x = h2r.x;
        hi.x = h2r.y;
        x = __half(lo);
        y = __half(hi);
    }
    __CUPRITE_HM __half2 &operator=(const __half2_raw &h2r) {
        __half_raw lo, hi;
        lo.x = h2r.x;
        hi.x = h2r.y;
        x = __half(lo);
        y = __half(hi);
        return *this;
    }
    __CUPRITE_HM operator __half2_raw() const {
        __half2_raw r;
        r.x = x.__x;
        r.y = y.__x;
        return r;
    }
};

#if !defined(CUDA_NO_HALF)
typedef __half half;
typedef __half2 half2;
#endif

/* ---- Bits ---------------------------------------------------------------------------- */

__CUPRITE_H unsigned short __cuprite_h_bits(const __half h) { return h.__x; }
__CUPRITE_H __half __cuprite_h_make(unsigned short b) {
    __half_raw r;
    r.x = b;
    return __half(r);
}
__CUPRITE_H float __cuprite_h_f(const __half h) { return __cuprite_nf_to_f32(h.__x, __CUPRITE_F16); }
/* An arithmetic result in float (or double) -> __half, NaN -> canonical NaN. */
__CUPRITE_H __half __cuprite_h_res(float r) { return __cuprite_h_make(__cuprite_nf_result(r, __CUPRITE_F16)); }
__CUPRITE_H __half __cuprite_h_res64(double r) { return __cuprite_h_make(__cuprite_nf_result64(r, __CUPRITE_F16)); }
__CUPRITE_H int __cuprite_h_nan(const __half h) { return __cuprite_nf_isnan(h.__x, __CUPRITE_F16); }

__CUPRITE_H short __half_as_short(const __half h) { return (short)h.__x; }
__CUPRITE_H unsigned short __half_as_ushort(const __half h) { return h.__x; }
__CUPRITE_H __half __short_as_half(const short i) { return __cuprite_h_make((unsigned short)i); }
__CUPRITE_H __half __ushort_as_half(const unsigned short i) { return __cuprite_h_make(i); }

/* ---- Constants ----------------------------------------------------------------------- */

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)

/* ---- Conversions ---------------------------------------------------------------------- */

__CUPRITE_H __half __float2half(const float a) {
    return __cuprite_h_make(__cuprite_nf_from_f32(a, __CUPRITE_F16, __CUPRITE_RN, __CUPRITE_H_NAN_FROM_F32));
}
__CUPRITE_H __half __float2half_rn(const float a) { return __float2half(a); }
__CUPRITE_H __half __float2half_rz(const float a) {
    return __cuprite_h_make(__cuprite_nf_from_f32(a, __CUPRITE_F16, __CUPRITE_RZ, __CUPRITE_H_NAN_FROM_F32));
}
__CUPRITE_H __half __float2half_rd(const float a) {
    return __cuprite_h_make(__cuprite_nf_from_f32(a, __CUPRITE_F16, __CUPRITE_RD, __CUPRITE_H_NAN_FROM_F32));
}
__CUPRITE_H __half __float2half_ru(const float a) {
    return __cuprite_h_make(__cuprite_nf_from_f32(a, __CUPRITE_F16, __CUPRITE_RU, __CUPRITE_H_NAN_FROM_F32));
}
__CUPRITE_H __half __double2half(const double a) {
    return __cuprite_h_make(__cuprite_nf_from_f64(a, __CUPRITE_F16, __CUPRITE_RN, __CUPRITE_H_NAN_FROM_F64));
}
__CUPRITE_H float __half2float(const __half a) { return __cuprite_h_f(a); }

__CUPRITE_H __half2 __halves2half2(const __half a, const __half b) { return __half2(a, b); }
__CUPRITE_H __half2 make_half2(const __half x, const __half y) { return __half2(x, y); }
__CUPRITE_H __half2 __half2half2(const __half a) { return __half2(a, a); }
__CUPRITE_H __half2 __float2half2_rn(const float a) {
    __half h = __float2half(a);
    return __half2(h, h);
}
__CUPRITE_H __half2 __floats2half2_rn(const float a, const float b) { return __half2(__float2half(a), __float2half(b)); }
__CUPRITE_H __half2 __float22half2_rn(const float2 a) { return __half2(__float2half(a.x), __float2half(a.y)); }
__CUPRITE_H float2 __half22float2(const __half2 a) {
    float2 r;
    r.x = __half2float(a.x);
    r.y = __half2float(a.y);
    return r;
}
__CUPRITE_H float __low2float(const __half2 a) { return __half2float(a.x); }
__CUPRITE_H float __high2float(const __half2 a) { return __half2float(a.y); }
__CUPRITE_H __half __low2half(const __half2 a) { return a.x; }
__CUPRITE_H __half __high2half(const __half2 a) { return a.y; }
__CUPRITE_H __half2 __low2half2(const __half2 a) { return __half2(a.x, a.x); }
__CUPRITE_H __half2 __high2half2(const __half2 a) { return __half2(a.y, a.y); }
__CUPRITE_H __half2 __lows2half2(const __half2 a, const __half2 b) { return __half2(a.x, b.x); }
__CUPRITE_H __half2 __highs2half2(const __half2 a, const __half2 b) { return __half2(a.y, b.y); }
__CUPRITE_H __half2 __lowhigh2highlow(const __half2 a) { return __half2(a.y, a.x); }

/* To integers: the rounding mode of the name, saturating, NaN -> 0 (64-bit: the most
 * negative value). */
#define __CUPRITE_H_TO_INT(NAME, T, MODE, LO, HI, NANV)                                               \
    __CUPRITE_H T NAME(const __half h) { return (T)__cuprite_nf_to_int(__cuprite_h_f(h), MODE, LO, HI, NANV); }
#define __CUPRITE_H_TO_INT4(BASE, T, LO, HI, NANV)                                                    \
    __CUPRITE_H_TO_INT(BASE##_rn, T, __CUPRITE_RN, LO, HI, NANV)                                      \
    __CUPRITE_H_TO_INT(BASE##_rz, T, __CUPRITE_RZ, LO, HI, NANV)                                      \
    __CUPRITE_H_TO_INT(BASE##_rd, T, __CUPRITE_RD, LO, HI, NANV)                                      \
    __CUPRITE_H_TO_INT(BASE##_ru, T, __CUPRITE_RU, LO, HI, NANV)
__CUPRITE_H_TO_INT4(__half2int, int, -2147483647 - 1, 2147483647, 0)
__CUPRITE_H_TO_INT4(__half2uint, unsigned int, 0, 4294967295ll, 0)
__CUPRITE_H_TO_INT4(__half2short, short, -32768, 32767, 0)
__CUPRITE_H_TO_INT4(__half2ushort, unsigned short, 0, 65535, 0)
__CUPRITE_H_TO_INT4(__half2ll, long long, -9223372036854775807ll - 1, 9223372036854775807ll, -9223372036854775807ll - 1)
__CUPRITE_H_TO_INT(__half2char_rz, signed char, __CUPRITE_RZ, -128, 127, 0)
__CUPRITE_H_TO_INT(__half2uchar_rz, unsigned char, __CUPRITE_RZ, 0, 255, 0)
#define __CUPRITE_H_TO_U64(NAME, MODE)                                                                \
    __CUPRITE_H unsigned long long NAME(const __half h) { return __cuprite_nf_to_u64(__cuprite_h_f(h), MODE); }
__CUPRITE_H_TO_U64(__half2ull_rn, __CUPRITE_RN)
__CUPRITE_H_TO_U64(__half2ull_rz, __CUPRITE_RZ)
__CUPRITE_H_TO_U64(__half2ull_rd, __CUPRITE_RD)
__CUPRITE_H_TO_U64(__half2ull_ru, __CUPRITE_RU)

/* From integers: one rounding from the exact value. */
#define __CUPRITE_H_FROM_INT(NAME, T, CONV, WIDE, MODE)                                               \
    __CUPRITE_H __half NAME(const T i) { return __cuprite_h_make(CONV((WIDE)i, __CUPRITE_F16, MODE)); }
#define __CUPRITE_H_FROM_INT4(BASE, T, CONV, WIDE)                                                    \
    __CUPRITE_H_FROM_INT(BASE##_rn, T, CONV, WIDE, __CUPRITE_RN)                                      \
    __CUPRITE_H_FROM_INT(BASE##_rz, T, CONV, WIDE, __CUPRITE_RZ)                                      \
    __CUPRITE_H_FROM_INT(BASE##_rd, T, CONV, WIDE, __CUPRITE_RD)                                      \
    __CUPRITE_H_FROM_INT(BASE##_ru, T, CONV, WIDE, __CUPRITE_RU)
__CUPRITE_H_FROM_INT4(__int2half, int, __cuprite_nf_from_i64, long long)
__CUPRITE_H_FROM_INT4(__uint2half, unsigned int, __cuprite_nf_from_u64, unsigned long long)
__CUPRITE_H_FROM_INT4(__short2half, short, __cuprite_nf_from_i64, long long)
__CUPRITE_H_FROM_INT4(__ushort2half, unsigned short, __cuprite_nf_from_u64, unsigned long long)
__CUPRITE_H_FROM_INT4(__ll2half, long long, __cuprite_nf_from_i64, long long)
__CUPRITE_H_FROM_INT4(__ull2half, unsigned long long, __cuprite_nf_from_u64, unsigned long long)

/* ---- Arithmetic ---------------------------------------------------------------------- */

__CUPRITE_H __half __hadd(const __half a, const __half b) { return __cuprite_h_res(__cuprite_h_f(a) + __cuprite_h_f(b)); }
__CUPRITE_H __half __hsub(const __half a, const __half b) { return __cuprite_h_res(__cuprite_h_f(a) - __cuprite_h_f(b)); }
__CUPRITE_H __half __hmul(const __half a, const __half b) { return __cuprite_h_res(__cuprite_h_f(a) * __cuprite_h_f(b)); }
__CUPRITE_H __half __hdiv(const __half a, const __half b) { return __cuprite_h_res(__cuprite_h_f(a) / __cuprite_h_f(b)); }
/* The _rn forms are the same operations, never contracted into an fma (nor are these). */
__CUPRITE_H __half __hadd_rn(const __half a, const __half b) { return __hadd(a, b); }
__CUPRITE_H __half __hsub_rn(const __half a, const __half b) { return __hsub(a, b); }
__CUPRITE_H __half __hmul_rn(const __half a, const __half b) { return __hmul(a, b); }
__CUPRITE_H __half __hfma(const __half a, const __half b, const __half c) {
    return __cuprite_h_make(__cuprite_nf_fma(a.__x, b.__x, c.__x, __CUPRITE_F16));
}
__CUPRITE_H __half __hadd_sat(const __half a, const __half b) { return __cuprite_h_make(__cuprite_nf_sat(__hadd(a, b).__x, __CUPRITE_F16)); }
__CUPRITE_H __half __hsub_sat(const __half a, const __half b) { return __cuprite_h_make(__cuprite_nf_sat(__hsub(a, b).__x, __CUPRITE_F16)); }
__CUPRITE_H __half __hmul_sat(const __half a, const __half b) { return __cuprite_h_make(__cuprite_nf_sat(__hmul(a, b).__x, __CUPRITE_F16)); }
__CUPRITE_H __half __hfma_sat(const __half a, const __half b, const __half c) {
    return __cuprite_h_make(__cuprite_nf_sat(__hfma(a, b, c).__x, __CUPRITE_F16));
}
__CUPRITE_H __half __hfma_relu(const __half a, const __half b, const __half c) {
    return __cuprite_h_make(__cuprite_nf_relu(__hfma(a, b, c).__x, __CUPRITE_F16));
}
__CUPRITE_H __half __hneg(const __half a) { return __cuprite_h_make(__cuprite_nf_neg(a.__x, __CUPRITE_F16)); }
__CUPRITE_H __half __habs(const __half a) { return __cuprite_h_make(__cuprite_nf_abs(a.__x, __CUPRITE_F16)); }
__CUPRITE_H __half __hmax(const __half a, const __half b) { return __cuprite_h_make(__cuprite_nf_maxmin(a.__x, b.__x, __CUPRITE_F16, 1, 0)); }
__CUPRITE_H __half __hmin(const __half a, const __half b) { return __cuprite_h_make(__cuprite_nf_maxmin(a.__x, b.__x, __CUPRITE_F16, 0, 0)); }
__CUPRITE_H __half __hmax_nan(const __half a, const __half b) { return __cuprite_h_make(__cuprite_nf_maxmin(a.__x, b.__x, __CUPRITE_F16, 1, 1)); }
__CUPRITE_H __half __hmin_nan(const __half a, const __half b) { return __cuprite_h_make(__cuprite_nf_maxmin(a.__x, b.__x, __CUPRITE_F16, 0, 1)); }

/* The two-lane forms: each lane on its own. */
#define __CUPRITE_H2_BINARY(NAME2, NAME)                                                               \
    __CUPRITE_H __half2 NAME2(const __half2 a, const __half2 b) { return __half2(NAME(a.x, b.x), NAME(a.y, b.y)); }
#define __CUPRITE_H2_TERNARY(NAME2, NAME)                                                              \
    __CUPRITE_H __half2 NAME2(const __half2 a, const __half2 b, const __half2 c) {                      \
        return __half2(NAME(a.x, b.x, c.x), NAME(a.y, b.y, c.y));                                        \
    }
#define __CUPRITE_H2_UNARY(NAME2, NAME)                                                                \
    __CUPRITE_H __half2 NAME2(const __half2 a) { return __half2(NAME(a.x), NAME(a.y)); }
__CUPRITE_H2_BINARY(__hadd2, __hadd)
__CUPRITE_H2_BINARY(__hsub2, __hsub)
__CUPRITE_H2_BINARY(__hmul2, __hmul)
__CUPRITE_H2_BINARY(__h2div, __hdiv)
__CUPRITE_H2_BINARY(__hadd2_rn, __hadd)
__CUPRITE_H2_BINARY(__hsub2_rn, __hsub)
__CUPRITE_H2_BINARY(__hmul2_rn, __hmul)
__CUPRITE_H2_BINARY(__hadd2_sat, __hadd_sat)
__CUPRITE_H2_BINARY(__hsub2_sat, __hsub_sat)
__CUPRITE_H2_BINARY(__hmul2_sat, __hmul_sat)
__CUPRITE_H2_TERNARY(__hfma2, __hfma)
__CUPRITE_H2_TERNARY(__hfma2_sat, __hfma_sat)
__CUPRITE_H2_TERNARY(__hfma2_relu, __hfma_relu)
__CUPRITE_H2_UNARY(__hneg2, __hneg)
__CUPRITE_H2_UNARY(__habs2, __habs)
__CUPRITE_H2_BINARY(__hmax2, __hmax)
__CUPRITE_H2_BINARY(__hmin2, __hmin)
__CUPRITE_H2_BINARY(__hmax2_nan, __hmax_nan)
__CUPRITE_H2_BINARY(__hmin2_nan, __hmin_nan)
/* Complex multiply-add: (a.x + i a.y)(b.x + i b.y) + (c.x + i c.y), as two fmas per lane. */
__CUPRITE_H __half2 __hcmadd(const __half2 a, const __half2 b, const __half2 c) {
    __half re = __hfma(a.x, b.x, c.x), im = __hfma(a.x, b.y, c.y);
    re = __hfma(__hneg(a.y), b.y, re);
    im = __hfma(a.y, b.x, im);
    return __half2(re, im);
}

/* ---- Comparisons --------------------------------------------------------------------- */

/* Ordered comparisons are false with a NaN operand; the unordered (`u`) ones true. */
#define __CUPRITE_H_CMP(NAME, NAMEU, OP)                                                               \
    __CUPRITE_H bool NAME(const __half a, const __half b) { return __cuprite_h_f(a) OP __cuprite_h_f(b); } \
    __CUPRITE_H bool NAMEU(const __half a, const __half b) {                                            \
        return __cuprite_h_nan(a) || __cuprite_h_nan(b) || __cuprite_h_f(a) OP __cuprite_h_f(b);         \
    }
__CUPRITE_H_CMP(__heq, __hequ, ==)
__CUPRITE_H_CMP(__hle, __hleu, <=)
__CUPRITE_H_CMP(__hge, __hgeu, >=)
__CUPRITE_H_CMP(__hlt, __hltu, <)
__CUPRITE_H_CMP(__hgt, __hgtu, >)
__CUPRITE_H bool __hne(const __half a, const __half b) {
    return !__cuprite_h_nan(a) && !__cuprite_h_nan(b) && __cuprite_h_f(a) != __cuprite_h_f(b);
}
__CUPRITE_H bool __hneu(const __half a, const __half b) { return __cuprite_h_f(a) != __cuprite_h_f(b); }
__CUPRITE_H bool __hisnan(const __half a) { return __cuprite_h_nan(a); }
__CUPRITE_H int __hisinf(const __half a) {
    if (a.__x == 0x7c00u) return 1;
    if (a.__x == 0xfc00u) return -1;
    return 0;
}

/* Two lanes: a __half2 of 1.0/0.0 per lane, a mask of 0xffff per lane, or (the `b`
 * forms) true when both lanes compare true. */
#define __CUPRITE_H2_CMP(NAME2, MASK, BNAME, NAME)                                                     \
    __CUPRITE_H __half2 NAME2(const __half2 a, const __half2 b) {                                       \
        return __half2(__cuprite_h_make(NAME(a.x, b.x) ? 0x3c00u : 0u), __cuprite_h_make(NAME(a.y, b.y) ? 0x3c00u : 0u)); \
    }                                                                                                  \
    __CUPRITE_H unsigned int MASK(const __half2 a, const __half2 b) {                                   \
        return (NAME(a.x, b.x) ? 0xffffu : 0u) | (NAME(a.y, b.y) ? 0xffff0000u : 0u);                    \
    }                                                                                                  \
    __CUPRITE_H bool BNAME(const __half2 a, const __half2 b) { return NAME(a.x, b.x) && NAME(a.y, b.y); }
__CUPRITE_H2_CMP(__heq2, __heq2_mask, __hbeq2, __heq)
__CUPRITE_H2_CMP(__hne2, __hne2_mask, __hbne2, __hne)
__CUPRITE_H2_CMP(__hle2, __hle2_mask, __hble2, __hle)
__CUPRITE_H2_CMP(__hge2, __hge2_mask, __hbge2, __hge)
__CUPRITE_H2_CMP(__hlt2, __hlt2_mask, __hblt2, __hlt)
__CUPRITE_H2_CMP(__hgt2, __hgt2_mask, __hbgt2, __hgt)
__CUPRITE_H2_CMP(__hequ2, __hequ2_mask, __hbequ2, __hequ)
__CUPRITE_H2_CMP(__hneu2, __hneu2_mask, __hbneu2, __hneu)
__CUPRITE_H2_CMP(__hleu2, __hleu2_mask, __hbleu2, __hleu)
__CUPRITE_H2_CMP(__hgeu2, __hgeu2_mask, __hbgeu2, __hgeu)
__CUPRITE_H2_CMP(__hltu2, __hltu2_mask, __hbltu2, __hltu)
__CUPRITE_H2_CMP(__hgtu2, __hgtu2_mask, __hbgtu2, __hgtu)
__CUPRITE_H __half2 __hisnan2(const __half2 a) {
    return __half2(__cuprite_h_make(__hisnan(a.x) ? 0x3c00u : 0u), __cuprite_h_make(__hisnan(a.y) ? 0x3c00u : 0u));
}

/* ---- Math ---------------------------------------------------------------------------- */

/* Rounding to integral values: exact; NaN -> canonical NaN. */
#define __CUPRITE_H_INTEGRAL(NAME, MODE)                                                               \
    __CUPRITE_H __half NAME(const __half h) {                                                           \
        if (__cuprite_h_nan(h)) return __cuprite_h_make((unsigned short)__CUPRITE_CANONICAL_NAN);        \
        float r = __cuprite_nf_round_integral(__cuprite_h_f(h), MODE);                                   \
        /* keep the sign of a zero result (-0.3 -> -0) */                                               \
        return __cuprite_h_make(r == 0.0f ? (unsigned short)(h.__x & 0x8000u) : __cuprite_nf_result(r, __CUPRITE_F16)); \
    }
__CUPRITE_H_INTEGRAL(htrunc, __CUPRITE_RZ)
__CUPRITE_H_INTEGRAL(hceil, __CUPRITE_RU)
__CUPRITE_H_INTEGRAL(hfloor, __CUPRITE_RD)
__CUPRITE_H_INTEGRAL(hrint, __CUPRITE_RN)

__CUPRITE_H __half hsqrt(const __half a) { return __cuprite_h_res(sqrtf(__cuprite_h_f(a))); }
__CUPRITE_H __half hrcp(const __half a) { return __cuprite_h_res(1.0f / __cuprite_h_f(a)); }
__CUPRITE_H __half hrsqrt(const __half a) { return __cuprite_h_res64(1.0 / sqrt((double)__cuprite_h_f(a))); }
__CUPRITE_H __half hexp(const __half a) { return __cuprite_h_res64(exp((double)__cuprite_h_f(a))); }
__CUPRITE_H __half hexp2(const __half a) { return __cuprite_h_res64(exp2((double)__cuprite_h_f(a))); }
__CUPRITE_H __half hexp10(const __half a) { return __cuprite_h_res64(pow(10.0, (double)__cuprite_h_f(a))); }
__CUPRITE_H __half hlog(const __half a) { return __cuprite_h_res64(log((double)__cuprite_h_f(a))); }
__CUPRITE_H __half hlog2(const __half a) { return __cuprite_h_res64(log2((double)__cuprite_h_f(a))); }
__CUPRITE_H __half hlog10(const __half a) { return __cuprite_h_res64(log10((double)__cuprite_h_f(a))); }
__CUPRITE_H __half hsin(const __half a) { return __cuprite_h_res64(sin((double)__cuprite_h_f(a))); }
__CUPRITE_H __half hcos(const __half a) { return __cuprite_h_res64(cos((double)__cuprite_h_f(a))); }
__CUPRITE_H __half htanh(const __half a) { return __cuprite_h_res64(tanh((double)__cuprite_h_f(a))); }
/* The GPU's approximate tanh: here the correctly rounded one (may differ in the last bit). */
__CUPRITE_H __half htanh_approx(const __half a) { return htanh(a); }
__CUPRITE_H2_UNARY(h2trunc, htrunc)
__CUPRITE_H2_UNARY(h2ceil, hceil)
__CUPRITE_H2_UNARY(h2floor, hfloor)
__CUPRITE_H2_UNARY(h2rint, hrint)
__CUPRITE_H2_UNARY(h2sqrt, hsqrt)
__CUPRITE_H2_UNARY(h2rcp, hrcp)
__CUPRITE_H2_UNARY(h2rsqrt, hrsqrt)
__CUPRITE_H2_UNARY(h2exp, hexp)
__CUPRITE_H2_UNARY(h2exp2, hexp2)
__CUPRITE_H2_UNARY(h2exp10, hexp10)
__CUPRITE_H2_UNARY(h2log, hlog)
__CUPRITE_H2_UNARY(h2log2, hlog2)
__CUPRITE_H2_UNARY(h2log10, hlog10)
__CUPRITE_H2_UNARY(h2sin, hsin)
__CUPRITE_H2_UNARY(h2cos, hcos)
__CUPRITE_H2_UNARY(h2tanh, htanh)
__CUPRITE_H2_UNARY(h2tanh_approx, htanh)

/* ---- Operators ----------------------------------------------------------------------- */

#if !defined(__CUDA_NO_HALF_OPERATORS__)
__CUPRITE_H __half operator+(const __half &a, const __half &b) { return __hadd(a, b); }
__CUPRITE_H __half operator-(const __half &a, const __half &b) { return __hsub(a, b); }
__CUPRITE_H __half operator*(const __half &a, const __half &b) { return __hmul(a, b); }
__CUPRITE_H __half operator/(const __half &a, const __half &b) { return __hdiv(a, b); }
__CUPRITE_H __half &operator+=(__half &a, const __half &b) { return a = __hadd(a, b); }
__CUPRITE_H __half &operator-=(__half &a, const __half &b) { return a = __hsub(a, b); }
__CUPRITE_H __half &operator*=(__half &a, const __half &b) { return a = __hmul(a, b); }
__CUPRITE_H __half &operator/=(__half &a, const __half &b) { return a = __hdiv(a, b); }
__CUPRITE_H __half operator+(const __half &a) { return a; }
__CUPRITE_H __half operator-(const __half &a) { return __hneg(a); }
__CUPRITE_H __half &operator++(__half &a) { return a = __hadd(a, __cuprite_h_make(0x3c00u)); }
__CUPRITE_H __half &operator--(__half &a) { return a = __hsub(a, __cuprite_h_make(0x3c00u)); }
__CUPRITE_H __half operator++(__half &a, int) {
    __half old = a;
    a = __hadd(a, __cuprite_h_make(0x3c00u));
    return old;
}
__CUPRITE_H __half operator--(__half &a, int) {
    __half old = a;
    a = __hsub(a, __cuprite_h_make(0x3c00u));
    return old;
}
__CUPRITE_H bool operator==(const __half &a, const __half &b) { return __heq(a, b); }
__CUPRITE_H bool operator!=(const __half &a, const __half &b) { return __hneu(a, b); }
__CUPRITE_H bool operator<(const __half &a, const __half &b) { return __hlt(a, b); }
__CUPRITE_H bool operator>(const __half &a, const __half &b) { return __hgt(a, b); }
__CUPRITE_H bool operator<=(const __half &a, const __half &b) { return __hle(a, b); }
__CUPRITE_H bool operator>=(const __half &a, const __half &b) { return __hge(a, b); }
#endif

#if !defined(__CUDA_NO_HALF2_OPERATORS__)
__CUPRITE_H __half2 operator+(const __half2 &a, const __half2 &b) { return __hadd2(a, b); }
__CUPRITE_H __half2 operator-(const __half2 &a, const __half2 &b) { return __hsub2(a, b); }
__CUPRITE_H __half2 operator*(const __half2 &a, const __half2 &b) { return __hmul2(a, b); }
__CUPRITE_H __half2 operator/(const __half2 &a, const __half2 &b) { return __h2div(a, b); }
__CUPRITE_H __half2 &operator+=(__half2 &a, const __half2 &b) { return a = __hadd2(a, b); }
__CUPRITE_H __half2 &operator-=(__half2 &a, const __half2 &b) { return a = __hsub2(a, b); }
__CUPRITE_H __half2 &operator*=(__half2 &a, const __half2 &b) { return a = __hmul2(a, b); }
__CUPRITE_H __half2 &operator/=(__half2 &a, const __half2 &b) { return a = __h2div(a, b); }
__CUPRITE_H __half2 operator+(const __half2 &a) { return a; }
__CUPRITE_H __half2 operator-(const __half2 &a) { return __hneg2(a); }
__CUPRITE_H __half2 &operator++(__half2 &a) { return a = __hadd2(a, __half2(__cuprite_h_make(0x3c00u), __cuprite_h_make(0x3c00u))); }
__CUPRITE_H __half2 &operator--(__half2 &a) { return a = __hsub2(a, __half2(__cuprite_h_make(0x3c00u), __cuprite_h_make(0x3c00u))); }
__CUPRITE_H __half2 operator++(__half2 &a, int) {
    __half2 old = a;
    a = __hadd2(a, __half2(__cuprite_h_make(0x3c00u), __cuprite_h_make(0x3c00u)));
    return old;
}
__CUPRITE_H __half2 operator--(__half2 &a, int) {
    __half2 old = a;
    a = __hsub2(a, __half2(__cuprite_h_make(0x3c00u), __cuprite_h_make(0x3c00u)));
    return old;
}
__CUPRITE_H bool operator==(const __half2 &a, const __half2 &b) { return __hbeq2(a, b); }
__CUPRITE_H bool operator!=(const __half2 &a, const __half2 &b) { return __hbneu2(a, b); }
__CUPRITE_H bool operator<(const __half2 &a, const __half2 &b) { return __hblt2(a, b); }
__CUPRITE_H bool operator>(const __half2 &a, const __half2 &b) { return __hbgt2(a, b); }
__CUPRITE_H bool operator<=(const __half2 &a, const __half2 &b) { return __hble2(a, b); }
__CUPRITE_H bool operator>=(const __half2 &a, const __half2 &b) { return __hbge2(a, b); }
#endif

/* ---- Device only: warp shuffles, atomics, loads ---------------------------------------- */
/* (Only in CUDA compiles: a plain C++ compile of this header has no device builtins.) */
#if defined(__CUDACC__)

/* Shuffles move the bits through the 32-bit builtin. */
#define __CUPRITE_H_SHFL(NAME, ARG)                                                                    \
    __CUPRITE_HDEV __half NAME(unsigned int mask, __half var, ARG, int width = 32) {                     \
        return __cuprite_h_make((unsigned short)NAME(mask, (unsigned int)var.__x, __cuprite_arg, width)); \
    }                                                                                                  \
    __CUPRITE_HDEV __half2 NAME(unsigned int mask, __half2 var, ARG, int width = 32) {                   \
        unsigned int v = (unsigned int)var.x.__x | ((unsigned int)var.y.__x << 16);                      \
        v = NAME(mask, v, __cuprite_arg, width);                                                        \
        return __half2(__cuprite_h_make((unsigned short)v), __cuprite_h_make((unsigned short)(v >> 16))); \
    }
__CUPRITE_H_SHFL(__shfl_sync, int __cuprite_arg)
__CUPRITE_H_SHFL(__shfl_up_sync, unsigned int __cuprite_arg)
__CUPRITE_H_SHFL(__shfl_down_sync, unsigned int __cuprite_arg)
__CUPRITE_H_SHFL(__shfl_xor_sync, int __cuprite_arg)

/* atomicAdd: a compare-and-swap loop on the aligned 32-bit word holding the value (each
 * lane of a __half2 is rounded on its own, as on the GPU). Returns the old value. */
__CUPRITE_HDEV __half atomicAdd(__half *address, const __half val) {
    unsigned long long a = (unsigned long long)address;
    unsigned int *word = (unsigned int *)(a & ~3ull);
    unsigned int shift = (a & 2ull) ? 16u : 0u;
    unsigned int old = *word, assumed;
    do {
        assumed = old;
        __half cur = __cuprite_h_make((unsigned short)(assumed >> shift));
        unsigned int sum = (unsigned int)__hadd(cur, val).__x;
        unsigned int next = (assumed & ~(0xffffu << shift)) | (sum << shift);
        old = atomicCAS(word, assumed, next);
    } while (old != assumed);
    return __cuprite_h_make((unsigned short)(old >> shift));
}
__CUPRITE_HDEV __half2 atomicAdd(__half2 *address, const __half2 val) {
    unsigned int *word = (unsigned int *)address;
    unsigned int old = *word, assumed;
    do {
        assumed = old;
        __half lo = __hadd(__cuprite_h_make((unsigned short)assumed), val.x);
        __half hi = __hadd(__cuprite_h_make((unsigned short)(assumed >> 16)), val.y);
        old = atomicCAS(word, assumed, (unsigned int)lo.__x | ((unsigned int)hi.__x << 16));
    } while (old != assumed);
    return __half2(__cuprite_h_make((unsigned short)old), __cuprite_h_make((unsigned short)(old >> 16)));
}

__CUPRITE_HDEV __half __ldg(const __half *p) { return *p; }
__CUPRITE_HDEV __half2 __ldg(const __half2 *p) { return *p; }
#endif /* __CUDACC__ */

#undef __CUPRITE_H_TO_INT
#undef __CUPRITE_H_TO_INT4
#undef __CUPRITE_H_TO_U64
#undef __CUPRITE_H_FROM_INT
#undef __CUPRITE_H_FROM_INT4
#undef __CUPRITE_H2_BINARY
#undef __CUPRITE_H2_TERNARY
#undef __CUPRITE_H2_UNARY
#undef __CUPRITE_H_CMP
#undef __CUPRITE_H2_CMP
#undef __CUPRITE_H_INTEGRAL
#undef __CUPRITE_H_SHFL

#endif /* __cplusplus */
#endif /* __CUDA_FP16_H__ */
