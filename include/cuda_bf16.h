/* cuda_bf16.h (Cuprite): CUDA's bfloat16 type and functions, written for Cuprite from the
 * CUDA Math API's "Bfloat16 Precision Intrinsics" pages.
 *
 * GENERATED from cuda_fp16.h by tools/gen-cuda-bf16.py: do not edit; change cuda_fp16.h
 * and run the script. `__nv_bfloat16` (1 sign, 8 exponent, 7 mantissa bits) and
 * `__nv_bfloat162` have the same functions as `__half` and `__half2` (cuda_fp16.h says
 * how they are computed and which results are the GPU's bits), under CUDA's bfloat16
 * names: __float2bfloat16*, __bfloat162float, __bfloat162int_rn, ...; the arithmetic,
 * comparison and math functions (__hadd, __hfma, __heq, hsqrt, ...) are overloads of
 * half's. */
#ifndef __CUDA_BF16_H__
#define __CUDA_BF16_H__

typedef struct __nv_bfloat16_raw {
    unsigned short x;
} __nv_bfloat16_raw;
typedef struct __nv_bfloat162_raw {
    unsigned short x;
    unsigned short y;
} __nv_bfloat162_raw;

#ifdef __cplusplus

#include "cuprite/narrow_float.h"
#include "cuda_fp16.h"

#define __CUPRITE_BF __host__ __device__ static inline
#define __CUPRITE_BFM __host__ __device__
#define __CUPRITE_BFDEV __device__ static inline

/* NaN from a float: the canonical NaN; from a double: in device code the quiet NaN
 * with the input's sign, in host code the canonical NaN (CUDA's two paths differ). */
#define __CUPRITE_BF_NAN_FROM_F32 ((unsigned short)__CUPRITE_CANONICAL_NAN)
#ifdef __CUDA_ARCH__
#define __CUPRITE_BF_NAN_FROM_F64 ((unsigned short)0x7fc0u), 1
#else
#define __CUPRITE_BF_NAN_FROM_F64 ((unsigned short)__CUPRITE_CANONICAL_NAN), 0
#endif

struct __align__(2) __nv_bfloat16 {
    unsigned short __x;

    __CUPRITE_BFM __nv_bfloat16() = default;
    __CUPRITE_BFM __nv_bfloat16(const __nv_bfloat16_raw &hr) : __x(hr.x) {}
    __CUPRITE_BFM __nv_bfloat16 &operator=(const __nv_bfloat16_raw &hr) {
        __x = hr.x;
        return *this;
    }
    __CUPRITE_BFM operator __nv_bfloat16_raw() const {
        __nv_bfloat16_raw r;
        r.x = __x;
        return r;
    }
#if !defined(__CUDA_NO_BFLOAT16_CONVERSIONS__)
    __CUPRITE_BFM __nv_bfloat16(float f) : __x(__cuprite_nf_from_f32(f, __CUPRITE_BF16, __CUPRITE_RN, __CUPRITE_BF_NAN_FROM_F32)) {}
    __CUPRITE_BFM __nv_bfloat16(double f) : __x(__cuprite_nf_from_f64(f, __CUPRITE_BF16, __CUPRITE_RN, __CUPRITE_BF_NAN_FROM_F64)) {}
    __CUPRITE_BFM __nv_bfloat16(short v) : __x(__cuprite_nf_from_i64(v, __CUPRITE_BF16, __CUPRITE_RN)) {}
    __CUPRITE_BFM __nv_bfloat16(unsigned short v) : __x(__cuprite_nf_from_u64(v, __CUPRITE_BF16, __CUPRITE_RN)) {}
    __CUPRITE_BFM __nv_bfloat16(int v) : __x(__cuprite_nf_from_i64(v, __CUPRITE_BF16, __CUPRITE_RN)) {}
    __CUPRITE_BFM __nv_bfloat16(unsigned int v) : __x(__cuprite_nf_from_u64(v, __CUPRITE_BF16, __CUPRITE_RN)) {}
    __CUPRITE_BFM __nv_bfloat16(long v) : __x(__cuprite_nf_from_i64(v, __CUPRITE_BF16, __CUPRITE_RN)) {}
    __CUPRITE_BFM __nv_bfloat16(unsigned long v) : __x(__cuprite_nf_from_u64(v, __CUPRITE_BF16, __CUPRITE_RN)) {}
    __CUPRITE_BFM __nv_bfloat16(long long v) : __x(__cuprite_nf_from_i64(v, __CUPRITE_BF16, __CUPRITE_RN)) {}
    __CUPRITE_BFM __nv_bfloat16(unsigned long long v) : __x(__cuprite_nf_from_u64(v, __CUPRITE_BF16, __CUPRITE_RN)) {}
    __CUPRITE_BFM operator float() const { return __cuprite_nf_to_f32(__x, __CUPRITE_BF16); }
    __CUPRITE_BFM __nv_bfloat16 &operator=(float f) {
        __x = __cuprite_nf_from_f32(f, __CUPRITE_BF16, __CUPRITE_RN, __CUPRITE_BF_NAN_FROM_F32);
        return *this;
    }
    __CUPRITE_BFM __nv_bfloat16 &operator=(double f) {
        __x = __cuprite_nf_from_f64(f, __CUPRITE_BF16, __CUPRITE_RN, __CUPRITE_BF_NAN_FROM_F64);
        return *this;
    }
    /* From integers by assignment: to nearest, as the constructors. */
    __CUPRITE_BFM __nv_bfloat16 &operator=(short v) { return *this = __nv_bfloat16(v); }
    __CUPRITE_BFM __nv_bfloat16 &operator=(unsigned short v) { return *this = __nv_bfloat16(v); }
    __CUPRITE_BFM __nv_bfloat16 &operator=(int v) { return *this = __nv_bfloat16(v); }
    __CUPRITE_BFM __nv_bfloat16 &operator=(unsigned int v) { return *this = __nv_bfloat16(v); }
    __CUPRITE_BFM __nv_bfloat16 &operator=(long long v) { return *this = __nv_bfloat16(v); }
    __CUPRITE_BFM __nv_bfloat16 &operator=(unsigned long long v) { return *this = __nv_bfloat16(v); }
    /* To integers: round toward zero, saturating, NaN -> 0, as the _rz conversions. */
    __CUPRITE_BFM operator signed char() const {
        return (signed char)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_BF16), __CUPRITE_RZ, -128, 127, 0);
    }
    __CUPRITE_BFM operator char() const {
        return (char)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_BF16), __CUPRITE_RZ, -128, 127, 0);
    }
    __CUPRITE_BFM operator unsigned char() const {
        return (unsigned char)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_BF16), __CUPRITE_RZ, 0, 255, 0);
    }
    __CUPRITE_BFM operator long() const {
        return (long)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_BF16), __CUPRITE_RZ, -9223372036854775807ll - 1,
                                         9223372036854775807ll, -9223372036854775807ll - 1);
    }
    __CUPRITE_BFM operator unsigned long() const {
        return (unsigned long)__cuprite_nf_to_u64(__cuprite_nf_to_f32(__x, __CUPRITE_BF16), __CUPRITE_RZ);
    }
    __CUPRITE_BFM operator short() const {
        return (short)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_BF16), __CUPRITE_RZ, -32768, 32767, 0);
    }
    __CUPRITE_BFM operator unsigned short() const {
        return (unsigned short)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_BF16), __CUPRITE_RZ, 0, 65535, 0);
    }
    __CUPRITE_BFM operator int() const {
        return (int)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_BF16), __CUPRITE_RZ, -2147483647 - 1, 2147483647, 0);
    }
    __CUPRITE_BFM operator unsigned int() const {
        return (unsigned int)__cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_BF16), __CUPRITE_RZ, 0, 4294967295ll, 0);
    }
    __CUPRITE_BFM operator long long() const {
        return __cuprite_nf_to_int(__cuprite_nf_to_f32(__x, __CUPRITE_BF16), __CUPRITE_RZ, -9223372036854775807ll - 1,
                                   9223372036854775807ll, -9223372036854775807ll - 1);
    }
    __CUPRITE_BFM operator unsigned long long() const {
        return __cuprite_nf_to_u64(__cuprite_nf_to_f32(__x, __CUPRITE_BF16), __CUPRITE_RZ);
    }
    __CUPRITE_BFM operator bool() const { return (__x & 0x7fffu) != 0; }
#endif
    /* From the other 16-bit format, to nearest (defined in cuda_bf16.h). */
    __CUPRITE_BFM explicit __nv_bfloat16(const __half &f)
        : __x(__cuprite_nf_from_f32(__half2float(f), __CUPRITE_BF16, __CUPRITE_RN, __CUPRITE_BF_NAN_FROM_F32)) {}
};

struct __align__(4) __nv_bfloat162 {
    __nv_bfloat16 x;
    __nv_bfloat16 y;

    __CUPRITE_BFM __nv_bfloat162() = default;
    __CUPRITE_BFM __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
    __CUPRITE_BFM __nv_bfloat162(const __nv_bfloat162_raw &h2r) {
        __nv_bfloat16_raw lo, hi;
        lo.x = h2r.x;
        hi.x = h2r.y;
        x = __nv_bfloat16(lo);
        y = __nv_bfloat16(hi);
    }
    __CUPRITE_BFM __nv_bfloat162 &operator=(const __nv_bfloat162_raw &h2r) {
        __nv_bfloat16_raw lo, hi;
        lo.x = h2r.x;
        hi.x = h2r.y;
        x = __nv_bfloat16(lo);
        y = __nv_bfloat16(hi);
        return *this;
    }
    __CUPRITE_BFM operator __nv_bfloat162_raw() const {
        __nv_bfloat162_raw r;
        r.x = x.__x;
        r.y = y.__x;
        return r;
    }
};

#if !defined(CUDA_NO_BFLOAT16)
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
#endif

/* ---- Bits ---------------------------------------------------------------------------- */

__CUPRITE_BF unsigned short __cuprite_bf_bits(const __nv_bfloat16 h) { return h.__x; }
__CUPRITE_BF __nv_bfloat16 __cuprite_bf_make(unsigned short b) {
    __nv_bfloat16_raw r;
    r.x = b;
    return __nv_bfloat16(r);
}
__CUPRITE_BF float __cuprite_bf_f(const __nv_bfloat16 h) { return __cuprite_nf_to_f32(h.__x, __CUPRITE_BF16); }
/* An arithmetic result in float (or double) -> __nv_bfloat16, NaN -> canonical NaN. */
__CUPRITE_BF __nv_bfloat16 __cuprite_bf_res(float r) { return __cuprite_bf_make(__cuprite_nf_result(r, __CUPRITE_BF16)); }
__CUPRITE_BF __nv_bfloat16 __cuprite_bf_res64(double r) { return __cuprite_bf_make(__cuprite_nf_result64(r, __CUPRITE_BF16)); }
__CUPRITE_BF int __cuprite_bf_nan(const __nv_bfloat16 h) { return __cuprite_nf_isnan(h.__x, __CUPRITE_BF16); }

__CUPRITE_BF short __bfloat16_as_short(const __nv_bfloat16 h) { return (short)h.__x; }
__CUPRITE_BF unsigned short __bfloat16_as_ushort(const __nv_bfloat16 h) { return h.__x; }
__CUPRITE_BF __nv_bfloat16 __short_as_bfloat16(const short i) { return __cuprite_bf_make((unsigned short)i); }
__CUPRITE_BF __nv_bfloat16 __ushort_as_bfloat16(const unsigned short i) { return __cuprite_bf_make(i); }

/* ---- Constants ----------------------------------------------------------------------- */

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)

/* ---- Conversions ---------------------------------------------------------------------- */

__CUPRITE_BF __nv_bfloat16 __float2bfloat16(const float a) {
    return __cuprite_bf_make(__cuprite_nf_from_f32(a, __CUPRITE_BF16, __CUPRITE_RN, __CUPRITE_BF_NAN_FROM_F32));
}
__CUPRITE_BF __nv_bfloat16 __float2bfloat16_rn(const float a) { return __float2bfloat16(a); }
__CUPRITE_BF __nv_bfloat16 __float2bfloat16_rz(const float a) {
    return __cuprite_bf_make(__cuprite_nf_from_f32(a, __CUPRITE_BF16, __CUPRITE_RZ, __CUPRITE_BF_NAN_FROM_F32));
}
__CUPRITE_BF __nv_bfloat16 __float2bfloat16_rd(const float a) {
    return __cuprite_bf_make(__cuprite_nf_from_f32(a, __CUPRITE_BF16, __CUPRITE_RD, __CUPRITE_BF_NAN_FROM_F32));
}
__CUPRITE_BF __nv_bfloat16 __float2bfloat16_ru(const float a) {
    return __cuprite_bf_make(__cuprite_nf_from_f32(a, __CUPRITE_BF16, __CUPRITE_RU, __CUPRITE_BF_NAN_FROM_F32));
}
__CUPRITE_BF __nv_bfloat16 __double2bfloat16(const double a) {
    return __cuprite_bf_make(__cuprite_nf_from_f64(a, __CUPRITE_BF16, __CUPRITE_RN, __CUPRITE_BF_NAN_FROM_F64));
}
__CUPRITE_BF float __bfloat162float(const __nv_bfloat16 a) { return __cuprite_bf_f(a); }

__CUPRITE_BF __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
__CUPRITE_BF __nv_bfloat162 make_bfloat162(const __nv_bfloat16 x, const __nv_bfloat16 y) { return __nv_bfloat162(x, y); }
__CUPRITE_BF __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a) { return __nv_bfloat162(a, a); }
__CUPRITE_BF __nv_bfloat162 __float2bfloat162_rn(const float a) {
    __nv_bfloat16 h = __float2bfloat16(a);
    return __nv_bfloat162(h, h);
}
__CUPRITE_BF __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b) { return __nv_bfloat162(__float2bfloat16(a), __float2bfloat16(b)); }
__CUPRITE_BF __nv_bfloat162 __float22bfloat162_rn(const float2 a) { return __nv_bfloat162(__float2bfloat16(a.x), __float2bfloat16(a.y)); }
__CUPRITE_BF float2 __bfloat1622float2(const __nv_bfloat162 a) {
    float2 r;
    r.x = __bfloat162float(a.x);
    r.y = __bfloat162float(a.y);
    return r;
}
__CUPRITE_BF float __low2float(const __nv_bfloat162 a) { return __bfloat162float(a.x); }
__CUPRITE_BF float __high2float(const __nv_bfloat162 a) { return __bfloat162float(a.y); }
__CUPRITE_BF __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 a) { return a.x; }
__CUPRITE_BF __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 a) { return a.y; }
__CUPRITE_BF __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.x, a.x); }
__CUPRITE_BF __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 a) { return __nv_bfloat162(a.y, a.y); }
__CUPRITE_BF __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __nv_bfloat162(a.x, b.x); }
__CUPRITE_BF __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __nv_bfloat162(a.y, b.y); }
__CUPRITE_BF __nv_bfloat162 __lowhigh2highlow(const __nv_bfloat162 a) { return __nv_bfloat162(a.y, a.x); }

/* To integers: the rounding mode of the name, saturating, NaN -> 0 (64-bit: the most
 * negative value). */
#define __CUPRITE_BF_TO_INT(NAME, T, MODE, LO, HI, NANV)                                               \
    __CUPRITE_BF T NAME(const __nv_bfloat16 h) { return (T)__cuprite_nf_to_int(__cuprite_bf_f(h), MODE, LO, HI, NANV); }
#define __CUPRITE_BF_TO_INT4(BASE, T, LO, HI, NANV)                                                    \
    __CUPRITE_BF_TO_INT(BASE##_rn, T, __CUPRITE_RN, LO, HI, NANV)                                      \
    __CUPRITE_BF_TO_INT(BASE##_rz, T, __CUPRITE_RZ, LO, HI, NANV)                                      \
    __CUPRITE_BF_TO_INT(BASE##_rd, T, __CUPRITE_RD, LO, HI, NANV)                                      \
    __CUPRITE_BF_TO_INT(BASE##_ru, T, __CUPRITE_RU, LO, HI, NANV)
__CUPRITE_BF_TO_INT4(__bfloat162int, int, -2147483647 - 1, 2147483647, 0)
__CUPRITE_BF_TO_INT4(__bfloat162uint, unsigned int, 0, 4294967295ll, 0)
__CUPRITE_BF_TO_INT4(__bfloat162short, short, -32768, 32767, 0)
__CUPRITE_BF_TO_INT4(__bfloat162ushort, unsigned short, 0, 65535, 0)
__CUPRITE_BF_TO_INT4(__bfloat162ll, long long, -9223372036854775807ll - 1, 9223372036854775807ll, -9223372036854775807ll - 1)
__CUPRITE_BF_TO_INT(__bfloat162char_rz, signed char, __CUPRITE_RZ, -128, 127, 0)
__CUPRITE_BF_TO_INT(__bfloat162uchar_rz, unsigned char, __CUPRITE_RZ, 0, 255, 0)
#define __CUPRITE_BF_TO_U64(NAME, MODE)                                                                \
    __CUPRITE_BF unsigned long long NAME(const __nv_bfloat16 h) { return __cuprite_nf_to_u64(__cuprite_bf_f(h), MODE); }
__CUPRITE_BF_TO_U64(__bfloat162ull_rn, __CUPRITE_RN)
__CUPRITE_BF_TO_U64(__bfloat162ull_rz, __CUPRITE_RZ)
__CUPRITE_BF_TO_U64(__bfloat162ull_rd, __CUPRITE_RD)
__CUPRITE_BF_TO_U64(__bfloat162ull_ru, __CUPRITE_RU)

/* From integers: one rounding from the exact value. */
#define __CUPRITE_BF_FROM_INT(NAME, T, CONV, WIDE, MODE)                                               \
    __CUPRITE_BF __nv_bfloat16 NAME(const T i) { return __cuprite_bf_make(CONV((WIDE)i, __CUPRITE_BF16, MODE)); }
#define __CUPRITE_BF_FROM_INT4(BASE, T, CONV, WIDE)                                                    \
    __CUPRITE_BF_FROM_INT(BASE##_rn, T, CONV, WIDE, __CUPRITE_RN)                                      \
    __CUPRITE_BF_FROM_INT(BASE##_rz, T, CONV, WIDE, __CUPRITE_RZ)                                      \
    __CUPRITE_BF_FROM_INT(BASE##_rd, T, CONV, WIDE, __CUPRITE_RD)                                      \
    __CUPRITE_BF_FROM_INT(BASE##_ru, T, CONV, WIDE, __CUPRITE_RU)
__CUPRITE_BF_FROM_INT4(__int2bfloat16, int, __cuprite_nf_from_i64, long long)
__CUPRITE_BF_FROM_INT4(__uint2bfloat16, unsigned int, __cuprite_nf_from_u64, unsigned long long)
__CUPRITE_BF_FROM_INT4(__short2bfloat16, short, __cuprite_nf_from_i64, long long)
__CUPRITE_BF_FROM_INT4(__ushort2bfloat16, unsigned short, __cuprite_nf_from_u64, unsigned long long)
__CUPRITE_BF_FROM_INT4(__ll2bfloat16, long long, __cuprite_nf_from_i64, long long)
__CUPRITE_BF_FROM_INT4(__ull2bfloat16, unsigned long long, __cuprite_nf_from_u64, unsigned long long)

/* ---- Arithmetic ---------------------------------------------------------------------- */

__CUPRITE_BF __nv_bfloat16 __hadd(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf_res(__cuprite_bf_f(a) + __cuprite_bf_f(b)); }
__CUPRITE_BF __nv_bfloat16 __hsub(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf_res(__cuprite_bf_f(a) - __cuprite_bf_f(b)); }
__CUPRITE_BF __nv_bfloat16 __hmul(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf_res(__cuprite_bf_f(a) * __cuprite_bf_f(b)); }
__CUPRITE_BF __nv_bfloat16 __hdiv(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf_res(__cuprite_bf_f(a) / __cuprite_bf_f(b)); }
/* The _rn forms are the same operations, never contracted into an fma (nor are these). */
__CUPRITE_BF __nv_bfloat16 __hadd_rn(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __hadd(a, b); }
__CUPRITE_BF __nv_bfloat16 __hsub_rn(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __hsub(a, b); }
__CUPRITE_BF __nv_bfloat16 __hmul_rn(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __hmul(a, b); }
__CUPRITE_BF __nv_bfloat16 __hfma(const __nv_bfloat16 a, const __nv_bfloat16 b, const __nv_bfloat16 c) {
    return __cuprite_bf_make(__cuprite_nf_fma(a.__x, b.__x, c.__x, __CUPRITE_BF16));
}
__CUPRITE_BF __nv_bfloat16 __hadd_sat(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf_make(__cuprite_nf_sat(__hadd(a, b).__x, __CUPRITE_BF16)); }
__CUPRITE_BF __nv_bfloat16 __hsub_sat(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf_make(__cuprite_nf_sat(__hsub(a, b).__x, __CUPRITE_BF16)); }
__CUPRITE_BF __nv_bfloat16 __hmul_sat(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf_make(__cuprite_nf_sat(__hmul(a, b).__x, __CUPRITE_BF16)); }
__CUPRITE_BF __nv_bfloat16 __hfma_sat(const __nv_bfloat16 a, const __nv_bfloat16 b, const __nv_bfloat16 c) {
    return __cuprite_bf_make(__cuprite_nf_sat(__hfma(a, b, c).__x, __CUPRITE_BF16));
}
__CUPRITE_BF __nv_bfloat16 __hfma_relu(const __nv_bfloat16 a, const __nv_bfloat16 b, const __nv_bfloat16 c) {
    return __cuprite_bf_make(__cuprite_nf_relu(__hfma(a, b, c).__x, __CUPRITE_BF16));
}
__CUPRITE_BF __nv_bfloat16 __hneg(const __nv_bfloat16 a) { return __cuprite_bf_make(__cuprite_nf_neg(a.__x, __CUPRITE_BF16)); }
__CUPRITE_BF __nv_bfloat16 __habs(const __nv_bfloat16 a) { return __cuprite_bf_make(__cuprite_nf_abs(a.__x, __CUPRITE_BF16)); }
__CUPRITE_BF __nv_bfloat16 __hmax(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf_make(__cuprite_nf_maxmin(a.__x, b.__x, __CUPRITE_BF16, 1, 0)); }
__CUPRITE_BF __nv_bfloat16 __hmin(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf_make(__cuprite_nf_maxmin(a.__x, b.__x, __CUPRITE_BF16, 0, 0)); }
__CUPRITE_BF __nv_bfloat16 __hmax_nan(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf_make(__cuprite_nf_maxmin(a.__x, b.__x, __CUPRITE_BF16, 1, 1)); }
__CUPRITE_BF __nv_bfloat16 __hmin_nan(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf_make(__cuprite_nf_maxmin(a.__x, b.__x, __CUPRITE_BF16, 0, 1)); }

/* The two-lane forms: each lane on its own. */
#define __CUPRITE_BF2_BINARY(NAME2, NAME)                                                               \
    __CUPRITE_BF __nv_bfloat162 NAME2(const __nv_bfloat162 a, const __nv_bfloat162 b) { return __nv_bfloat162(NAME(a.x, b.x), NAME(a.y, b.y)); }
#define __CUPRITE_BF2_TERNARY(NAME2, NAME)                                                              \
    __CUPRITE_BF __nv_bfloat162 NAME2(const __nv_bfloat162 a, const __nv_bfloat162 b, const __nv_bfloat162 c) {                      \
        return __nv_bfloat162(NAME(a.x, b.x, c.x), NAME(a.y, b.y, c.y));                                        \
    }
#define __CUPRITE_BF2_UNARY(NAME2, NAME)                                                                \
    __CUPRITE_BF __nv_bfloat162 NAME2(const __nv_bfloat162 a) { return __nv_bfloat162(NAME(a.x), NAME(a.y)); }
__CUPRITE_BF2_BINARY(__hadd2, __hadd)
__CUPRITE_BF2_BINARY(__hsub2, __hsub)
__CUPRITE_BF2_BINARY(__hmul2, __hmul)
__CUPRITE_BF2_BINARY(__h2div, __hdiv)
__CUPRITE_BF2_BINARY(__hadd2_rn, __hadd)
__CUPRITE_BF2_BINARY(__hsub2_rn, __hsub)
__CUPRITE_BF2_BINARY(__hmul2_rn, __hmul)
__CUPRITE_BF2_BINARY(__hadd2_sat, __hadd_sat)
__CUPRITE_BF2_BINARY(__hsub2_sat, __hsub_sat)
__CUPRITE_BF2_BINARY(__hmul2_sat, __hmul_sat)
__CUPRITE_BF2_TERNARY(__hfma2, __hfma)
__CUPRITE_BF2_TERNARY(__hfma2_sat, __hfma_sat)
__CUPRITE_BF2_TERNARY(__hfma2_relu, __hfma_relu)
__CUPRITE_BF2_UNARY(__hneg2, __hneg)
__CUPRITE_BF2_UNARY(__habs2, __habs)
__CUPRITE_BF2_BINARY(__hmax2, __hmax)
__CUPRITE_BF2_BINARY(__hmin2, __hmin)
__CUPRITE_BF2_BINARY(__hmax2_nan, __hmax_nan)
__CUPRITE_BF2_BINARY(__hmin2_nan, __hmin_nan)
/* Complex multiply-add: (a.x + i a.y)(b.x + i b.y) + (c.x + i c.y), as two fmas per lane. */
__CUPRITE_BF __nv_bfloat162 __hcmadd(const __nv_bfloat162 a, const __nv_bfloat162 b, const __nv_bfloat162 c) {
    __nv_bfloat16 re = __hfma(a.x, b.x, c.x), im = __hfma(a.x, b.y, c.y);
    re = __hfma(__hneg(a.y), b.y, re);
    im = __hfma(a.y, b.x, im);
    return __nv_bfloat162(re, im);
}

/* ---- Comparisons --------------------------------------------------------------------- */

/* Ordered comparisons are false with a NaN operand; the unordered (`u`) ones true. */
#define __CUPRITE_BF_CMP(NAME, NAMEU, OP)                                                               \
    __CUPRITE_BF bool NAME(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf_f(a) OP __cuprite_bf_f(b); } \
    __CUPRITE_BF bool NAMEU(const __nv_bfloat16 a, const __nv_bfloat16 b) {                                            \
        return __cuprite_bf_nan(a) || __cuprite_bf_nan(b) || __cuprite_bf_f(a) OP __cuprite_bf_f(b);         \
    }
__CUPRITE_BF_CMP(__heq, __hequ, ==)
__CUPRITE_BF_CMP(__hle, __hleu, <=)
__CUPRITE_BF_CMP(__hge, __hgeu, >=)
__CUPRITE_BF_CMP(__hlt, __hltu, <)
__CUPRITE_BF_CMP(__hgt, __hgtu, >)
__CUPRITE_BF bool __hne(const __nv_bfloat16 a, const __nv_bfloat16 b) {
    return !__cuprite_bf_nan(a) && !__cuprite_bf_nan(b) && __cuprite_bf_f(a) != __cuprite_bf_f(b);
}
__CUPRITE_BF bool __hneu(const __nv_bfloat16 a, const __nv_bfloat16 b) { return __cuprite_bf_f(a) != __cuprite_bf_f(b); }
__CUPRITE_BF bool __hisnan(const __nv_bfloat16 a) { return __cuprite_bf_nan(a); }
__CUPRITE_BF int __hisinf(const __nv_bfloat16 a) {
    if (a.__x == 0x7f80u) return 1;
    if (a.__x == 0xff80u) return -1;
    return 0;
}

/* Two lanes: a __nv_bfloat162 of 1.0/0.0 per lane, a mask of 0xffff per lane, or (the `b`
 * forms) true when both lanes compare true. */
#define __CUPRITE_BF2_CMP(NAME2, MASK, BNAME, NAME)                                                     \
    __CUPRITE_BF __nv_bfloat162 NAME2(const __nv_bfloat162 a, const __nv_bfloat162 b) {                                       \
        return __nv_bfloat162(__cuprite_bf_make(NAME(a.x, b.x) ? 0x3f80u : 0u), __cuprite_bf_make(NAME(a.y, b.y) ? 0x3f80u : 0u)); \
    }                                                                                                  \
    __CUPRITE_BF unsigned int MASK(const __nv_bfloat162 a, const __nv_bfloat162 b) {                                   \
        return (NAME(a.x, b.x) ? 0xffffu : 0u) | (NAME(a.y, b.y) ? 0xffff0000u : 0u);                    \
    }                                                                                                  \
    __CUPRITE_BF bool BNAME(const __nv_bfloat162 a, const __nv_bfloat162 b) { return NAME(a.x, b.x) && NAME(a.y, b.y); }
__CUPRITE_BF2_CMP(__heq2, __heq2_mask, __hbeq2, __heq)
__CUPRITE_BF2_CMP(__hne2, __hne2_mask, __hbne2, __hne)
__CUPRITE_BF2_CMP(__hle2, __hle2_mask, __hble2, __hle)
__CUPRITE_BF2_CMP(__hge2, __hge2_mask, __hbge2, __hge)
__CUPRITE_BF2_CMP(__hlt2, __hlt2_mask, __hblt2, __hlt)
__CUPRITE_BF2_CMP(__hgt2, __hgt2_mask, __hbgt2, __hgt)
__CUPRITE_BF2_CMP(__hequ2, __hequ2_mask, __hbequ2, __hequ)
__CUPRITE_BF2_CMP(__hneu2, __hneu2_mask, __hbneu2, __hneu)
__CUPRITE_BF2_CMP(__hleu2, __hleu2_mask, __hbleu2, __hleu)
__CUPRITE_BF2_CMP(__hgeu2, __hgeu2_mask, __hbgeu2, __hgeu)
__CUPRITE_BF2_CMP(__hltu2, __hltu2_mask, __hbltu2, __hltu)
__CUPRITE_BF2_CMP(__hgtu2, __hgtu2_mask, __hbgtu2, __hgtu)
__CUPRITE_BF __nv_bfloat162 __hisnan2(const __nv_bfloat162 a) {
    return __nv_bfloat162(__cuprite_bf_make(__hisnan(a.x) ? 0x3f80u : 0u), __cuprite_bf_make(__hisnan(a.y) ? 0x3f80u : 0u));
}

/* ---- Math ---------------------------------------------------------------------------- */

/* Rounding to integral values: exact; NaN -> canonical NaN. */
#define __CUPRITE_BF_INTEGRAL(NAME, MODE)                                                               \
    __CUPRITE_BF __nv_bfloat16 NAME(const __nv_bfloat16 h) {                                                           \
        if (__cuprite_bf_nan(h)) return __cuprite_bf_make((unsigned short)__CUPRITE_CANONICAL_NAN);        \
        float r = __cuprite_nf_round_integral(__cuprite_bf_f(h), MODE);                                   \
        /* keep the sign of a zero result (-0.3 -> -0) */                                               \
        return __cuprite_bf_make(r == 0.0f ? (unsigned short)(h.__x & 0x8000u) : __cuprite_nf_result(r, __CUPRITE_BF16)); \
    }
__CUPRITE_BF_INTEGRAL(htrunc, __CUPRITE_RZ)
__CUPRITE_BF_INTEGRAL(hceil, __CUPRITE_RU)
__CUPRITE_BF_INTEGRAL(hfloor, __CUPRITE_RD)
__CUPRITE_BF_INTEGRAL(hrint, __CUPRITE_RN)

__CUPRITE_BF __nv_bfloat16 hsqrt(const __nv_bfloat16 a) { return __cuprite_bf_res(sqrtf(__cuprite_bf_f(a))); }
__CUPRITE_BF __nv_bfloat16 hrcp(const __nv_bfloat16 a) { return __cuprite_bf_res(1.0f / __cuprite_bf_f(a)); }
__CUPRITE_BF __nv_bfloat16 hrsqrt(const __nv_bfloat16 a) { return __cuprite_bf_res64(1.0 / sqrt((double)__cuprite_bf_f(a))); }
__CUPRITE_BF __nv_bfloat16 hexp(const __nv_bfloat16 a) { return __cuprite_bf_res64(exp((double)__cuprite_bf_f(a))); }
__CUPRITE_BF __nv_bfloat16 hexp2(const __nv_bfloat16 a) { return __cuprite_bf_res64(exp2((double)__cuprite_bf_f(a))); }
__CUPRITE_BF __nv_bfloat16 hexp10(const __nv_bfloat16 a) { return __cuprite_bf_res64(pow(10.0, (double)__cuprite_bf_f(a))); }
__CUPRITE_BF __nv_bfloat16 hlog(const __nv_bfloat16 a) { return __cuprite_bf_res64(log((double)__cuprite_bf_f(a))); }
__CUPRITE_BF __nv_bfloat16 hlog2(const __nv_bfloat16 a) { return __cuprite_bf_res64(log2((double)__cuprite_bf_f(a))); }
__CUPRITE_BF __nv_bfloat16 hlog10(const __nv_bfloat16 a) { return __cuprite_bf_res64(log10((double)__cuprite_bf_f(a))); }
__CUPRITE_BF __nv_bfloat16 hsin(const __nv_bfloat16 a) { return __cuprite_bf_res64(sin((double)__cuprite_bf_f(a))); }
__CUPRITE_BF __nv_bfloat16 hcos(const __nv_bfloat16 a) { return __cuprite_bf_res64(cos((double)__cuprite_bf_f(a))); }
__CUPRITE_BF __nv_bfloat16 htanh(const __nv_bfloat16 a) { return __cuprite_bf_res64(tanh((double)__cuprite_bf_f(a))); }
/* The GPU's approximate tanh: here the correctly rounded one (may differ in the last bit). */
__CUPRITE_BF __nv_bfloat16 htanh_approx(const __nv_bfloat16 a) { return htanh(a); }
__CUPRITE_BF2_UNARY(h2trunc, htrunc)
__CUPRITE_BF2_UNARY(h2ceil, hceil)
__CUPRITE_BF2_UNARY(h2floor, hfloor)
__CUPRITE_BF2_UNARY(h2rint, hrint)
__CUPRITE_BF2_UNARY(h2sqrt, hsqrt)
__CUPRITE_BF2_UNARY(h2rcp, hrcp)
__CUPRITE_BF2_UNARY(h2rsqrt, hrsqrt)
__CUPRITE_BF2_UNARY(h2exp, hexp)
__CUPRITE_BF2_UNARY(h2exp2, hexp2)
__CUPRITE_BF2_UNARY(h2exp10, hexp10)
__CUPRITE_BF2_UNARY(h2log, hlog)
__CUPRITE_BF2_UNARY(h2log2, hlog2)
__CUPRITE_BF2_UNARY(h2log10, hlog10)
__CUPRITE_BF2_UNARY(h2sin, hsin)
__CUPRITE_BF2_UNARY(h2cos, hcos)
__CUPRITE_BF2_UNARY(h2tanh, htanh)
__CUPRITE_BF2_UNARY(h2tanh_approx, htanh)

/* ---- Operators ----------------------------------------------------------------------- */

#if !defined(__CUDA_NO_BFLOAT16_OPERATORS__)
__CUPRITE_BF __nv_bfloat16 operator+(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hadd(a, b); }
__CUPRITE_BF __nv_bfloat16 operator-(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hsub(a, b); }
__CUPRITE_BF __nv_bfloat16 operator*(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hmul(a, b); }
__CUPRITE_BF __nv_bfloat16 operator/(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hdiv(a, b); }
__CUPRITE_BF __nv_bfloat16 &operator+=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hadd(a, b); }
__CUPRITE_BF __nv_bfloat16 &operator-=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hsub(a, b); }
__CUPRITE_BF __nv_bfloat16 &operator*=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hmul(a, b); }
__CUPRITE_BF __nv_bfloat16 &operator/=(__nv_bfloat16 &a, const __nv_bfloat16 &b) { return a = __hdiv(a, b); }
__CUPRITE_BF __nv_bfloat16 operator+(const __nv_bfloat16 &a) { return a; }
__CUPRITE_BF __nv_bfloat16 operator-(const __nv_bfloat16 &a) { return __hneg(a); }
__CUPRITE_BF __nv_bfloat16 &operator++(__nv_bfloat16 &a) { return a = __hadd(a, __cuprite_bf_make(0x3f80u)); }
__CUPRITE_BF __nv_bfloat16 &operator--(__nv_bfloat16 &a) { return a = __hsub(a, __cuprite_bf_make(0x3f80u)); }
__CUPRITE_BF __nv_bfloat16 operator++(__nv_bfloat16 &a, int) {
    __nv_bfloat16 old = a;
    a = __hadd(a, __cuprite_bf_make(0x3f80u));
    return old;
}
__CUPRITE_BF __nv_bfloat16 operator--(__nv_bfloat16 &a, int) {
    __nv_bfloat16 old = a;
    a = __hsub(a, __cuprite_bf_make(0x3f80u));
    return old;
}
__CUPRITE_BF bool operator==(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __heq(a, b); }
__CUPRITE_BF bool operator!=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hneu(a, b); }
__CUPRITE_BF bool operator<(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hlt(a, b); }
__CUPRITE_BF bool operator>(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hgt(a, b); }
__CUPRITE_BF bool operator<=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hle(a, b); }
__CUPRITE_BF bool operator>=(const __nv_bfloat16 &a, const __nv_bfloat16 &b) { return __hge(a, b); }
#endif

#if !defined(__CUDA_NO_BFLOAT162_OPERATORS__)
__CUPRITE_BF __nv_bfloat162 operator+(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hadd2(a, b); }
__CUPRITE_BF __nv_bfloat162 operator-(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hsub2(a, b); }
__CUPRITE_BF __nv_bfloat162 operator*(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hmul2(a, b); }
__CUPRITE_BF __nv_bfloat162 operator/(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __h2div(a, b); }
__CUPRITE_BF __nv_bfloat162 &operator+=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { return a = __hadd2(a, b); }
__CUPRITE_BF __nv_bfloat162 &operator-=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { return a = __hsub2(a, b); }
__CUPRITE_BF __nv_bfloat162 &operator*=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { return a = __hmul2(a, b); }
__CUPRITE_BF __nv_bfloat162 &operator/=(__nv_bfloat162 &a, const __nv_bfloat162 &b) { return a = __h2div(a, b); }
__CUPRITE_BF __nv_bfloat162 operator+(const __nv_bfloat162 &a) { return a; }
__CUPRITE_BF __nv_bfloat162 operator-(const __nv_bfloat162 &a) { return __hneg2(a); }
__CUPRITE_BF __nv_bfloat162 &operator++(__nv_bfloat162 &a) { return a = __hadd2(a, __nv_bfloat162(__cuprite_bf_make(0x3f80u), __cuprite_bf_make(0x3f80u))); }
__CUPRITE_BF __nv_bfloat162 &operator--(__nv_bfloat162 &a) { return a = __hsub2(a, __nv_bfloat162(__cuprite_bf_make(0x3f80u), __cuprite_bf_make(0x3f80u))); }
__CUPRITE_BF __nv_bfloat162 operator++(__nv_bfloat162 &a, int) {
    __nv_bfloat162 old = a;
    a = __hadd2(a, __nv_bfloat162(__cuprite_bf_make(0x3f80u), __cuprite_bf_make(0x3f80u)));
    return old;
}
__CUPRITE_BF __nv_bfloat162 operator--(__nv_bfloat162 &a, int) {
    __nv_bfloat162 old = a;
    a = __hsub2(a, __nv_bfloat162(__cuprite_bf_make(0x3f80u), __cuprite_bf_make(0x3f80u)));
    return old;
}
__CUPRITE_BF bool operator==(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hbeq2(a, b); }
__CUPRITE_BF bool operator!=(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hbneu2(a, b); }
__CUPRITE_BF bool operator<(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hblt2(a, b); }
__CUPRITE_BF bool operator>(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hbgt2(a, b); }
__CUPRITE_BF bool operator<=(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hble2(a, b); }
__CUPRITE_BF bool operator>=(const __nv_bfloat162 &a, const __nv_bfloat162 &b) { return __hbge2(a, b); }
#endif

/* ---- Device only: warp shuffles, atomics, loads ---------------------------------------- */
/* (Only in CUDA compiles: a plain C++ compile of this header has no device builtins.) */
#if defined(__CUDACC__)

/* Shuffles move the bits through the 32-bit builtin. */
#define __CUPRITE_BF_SHFL(NAME, ARG)                                                                    \
    __CUPRITE_BFDEV __nv_bfloat16 NAME(unsigned int mask, __nv_bfloat16 var, ARG, int width = 32) {                     \
        return __cuprite_bf_make((unsigned short)NAME(mask, (unsigned int)var.__x, __cuprite_arg, width)); \
    }                                                                                                  \
    __CUPRITE_BFDEV __nv_bfloat162 NAME(unsigned int mask, __nv_bfloat162 var, ARG, int width = 32) {                   \
        unsigned int v = (unsigned int)var.x.__x | ((unsigned int)var.y.__x << 16);                      \
        v = NAME(mask, v, __cuprite_arg, width);                                                        \
        return __nv_bfloat162(__cuprite_bf_make((unsigned short)v), __cuprite_bf_make((unsigned short)(v >> 16))); \
    }
__CUPRITE_BF_SHFL(__shfl_sync, int __cuprite_arg)
__CUPRITE_BF_SHFL(__shfl_up_sync, unsigned int __cuprite_arg)
__CUPRITE_BF_SHFL(__shfl_down_sync, unsigned int __cuprite_arg)
__CUPRITE_BF_SHFL(__shfl_xor_sync, int __cuprite_arg)

/* atomicAdd: a compare-and-swap loop on the aligned 32-bit word holding the value (each
 * lane of a __nv_bfloat162 is rounded on its own, as on the GPU). Returns the old value. */
__CUPRITE_BFDEV __nv_bfloat16 atomicAdd(__nv_bfloat16 *address, const __nv_bfloat16 val) {
    unsigned long long a = (unsigned long long)address;
    unsigned int *word = (unsigned int *)(a & ~3ull);
    unsigned int shift = (a & 2ull) ? 16u : 0u;
    unsigned int old = *word, assumed;
    do {
        assumed = old;
        __nv_bfloat16 cur = __cuprite_bf_make((unsigned short)(assumed >> shift));
        unsigned int sum = (unsigned int)__hadd(cur, val).__x;
        unsigned int next = (assumed & ~(0xffffu << shift)) | (sum << shift);
        old = atomicCAS(word, assumed, next);
    } while (old != assumed);
    return __cuprite_bf_make((unsigned short)(old >> shift));
}
__CUPRITE_BFDEV __nv_bfloat162 atomicAdd(__nv_bfloat162 *address, const __nv_bfloat162 val) {
    unsigned int *word = (unsigned int *)address;
    unsigned int old = *word, assumed;
    do {
        assumed = old;
        __nv_bfloat16 lo = __hadd(__cuprite_bf_make((unsigned short)assumed), val.x);
        __nv_bfloat16 hi = __hadd(__cuprite_bf_make((unsigned short)(assumed >> 16)), val.y);
        old = atomicCAS(word, assumed, (unsigned int)lo.__x | ((unsigned int)hi.__x << 16));
    } while (old != assumed);
    return __nv_bfloat162(__cuprite_bf_make((unsigned short)old), __cuprite_bf_make((unsigned short)(old >> 16)));
}

__CUPRITE_BFDEV __nv_bfloat16 __ldg(const __nv_bfloat16 *p) { return *p; }
__CUPRITE_BFDEV __nv_bfloat162 __ldg(const __nv_bfloat162 *p) { return *p; }
#endif /* __CUDACC__ */

#undef __CUPRITE_BF_TO_INT
#undef __CUPRITE_BF_TO_INT4
#undef __CUPRITE_BF_TO_U64
#undef __CUPRITE_BF_FROM_INT
#undef __CUPRITE_BF_FROM_INT4
#undef __CUPRITE_BF2_BINARY
#undef __CUPRITE_BF2_TERNARY
#undef __CUPRITE_BF2_UNARY
#undef __CUPRITE_BF_CMP
#undef __CUPRITE_BF2_CMP
#undef __CUPRITE_BF_INTEGRAL
#undef __CUPRITE_BF_SHFL

__CUPRITE_BFM inline __half::__half(const __nv_bfloat16 &f)
    : __x(__cuprite_nf_from_f32(__bfloat162float(f), __CUPRITE_F16, __CUPRITE_RN, __CUPRITE_H_NAN_FROM_F32)) {}

#endif /* __cplusplus */
#endif /* __CUDA_BF16_H__ */
