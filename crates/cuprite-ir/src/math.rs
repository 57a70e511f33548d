//! CUDA's math library and intrinsics, as the IR names them (`Builtin::Math`).

use std::fmt;

/// Declares `MathFn` from one list of `Variant = "cuda_name"` pairs, so that the variants,
/// their CUDA spellings and the lookup by name cannot drift apart.
macro_rules! math_fns {
    ($(#[$meta:meta])* pub enum $E:ident { $($v:ident = $name:literal,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        pub enum $E {
            $(#[doc = concat!("`", $name, "`")] $v,)*
        }

        impl $E {
            /// Every function, in declaration order.
            pub const ALL: &'static [$E] = &[$($E::$v,)*];

            /// The CUDA spelling (`sqrtf`, `__expf`, `__float2int_rn`).
            pub fn cuda_name(self) -> &'static str {
                match self {
                    $($E::$v => $name,)*
                }
            }

            /// The function a CUDA name denotes, if the IR has it.
            pub fn from_cuda_name(name: &str) -> Option<$E> {
                match name {
                    $($name => Some($E::$v),)*
                    _ => None,
                }
            }
        }
    };
}

math_fns! {
    /// A math-library function or intrinsic of CUDA device code, with the precision and
    /// rounding its CUDA name implies. The operands of its `InstKind::CallBuiltin` and the
    /// result have the types that the group comments in this list (in `math.rs`) give, `T`
    /// being `F32` for the `…f` form and `F64` for the other; producers convert the
    /// arguments first. `min`, `max`, `abs` and `__dp4a` are overloaded: the operand types
    /// pick the form. Accuracy is CUDA's (the CUDA Math API's ulp bounds); exact and
    /// correctly rounded functions are noted.
    pub enum MathFn {
        // Standard functions of one argument, `T(T)`: the `…f` form is single precision (`F32`),
        // the other double (`F64`), with CUDA's accuracy (`sqrtf`/`sqrt`, `fabs`, `floor`, `ceil`,
        // `round`, `trunc`, `rint`, `nearbyint` exact or correctly rounded; the rest within CUDA's
        // documented ulp bounds).
        Sqrtf = "sqrtf", Sqrt = "sqrt", Rsqrtf = "rsqrtf", Rsqrt = "rsqrt", Cbrtf = "cbrtf", Cbrt = "cbrt",
        Rcbrtf = "rcbrtf", Rcbrt = "rcbrt", Expf = "expf", Exp = "exp", Exp2f = "exp2f", Exp2 = "exp2",
        Exp10f = "exp10f", Exp10 = "exp10", Expm1f = "expm1f", Expm1 = "expm1", Logf = "logf", Log = "log",
        Log2f = "log2f", Log2 = "log2", Log10f = "log10f", Log10 = "log10", Log1pf = "log1pf", Log1p = "log1p",
        Sinf = "sinf", Sin = "sin", Cosf = "cosf", Cos = "cos", Tanf = "tanf", Tan = "tan", Asinf = "asinf",
        Asin = "asin", Acosf = "acosf", Acos = "acos", Atanf = "atanf", Atan = "atan", Sinhf = "sinhf",
        Sinh = "sinh", Coshf = "coshf", Cosh = "cosh", Tanhf = "tanhf", Tanh = "tanh", Asinhf = "asinhf",
        Asinh = "asinh", Acoshf = "acoshf", Acosh = "acosh", Atanhf = "atanhf", Atanh = "atanh", Erff = "erff",
        Erf = "erf", Erfcf = "erfcf", Erfc = "erfc", Erfinvf = "erfinvf", Erfinv = "erfinv",
        Erfcinvf = "erfcinvf", Erfcinv = "erfcinv", Erfcxf = "erfcxf", Erfcx = "erfcx", Normcdff = "normcdff",
        Normcdf = "normcdf", Normcdfinvf = "normcdfinvf", Normcdfinv = "normcdfinv", Tgammaf = "tgammaf",
        Tgamma = "tgamma", Lgammaf = "lgammaf", Lgamma = "lgamma", Fabsf = "fabsf", Fabs = "fabs",
        Floorf = "floorf", Floor = "floor", Ceilf = "ceilf", Ceil = "ceil", Roundf = "roundf", Round = "round",
        Truncf = "truncf", Trunc = "trunc", Rintf = "rintf", Rint = "rint", Nearbyintf = "nearbyintf",
        Nearbyint = "nearbyint", Logbf = "logbf", Logb = "logb", Sinpif = "sinpif", Sinpi = "sinpi",
        Cospif = "cospif", Cospi = "cospi", J0f = "j0f", J0 = "j0", J1f = "j1f", J1 = "j1", Y0f = "y0f",
        Y0 = "y0", Y1f = "y1f", Y1 = "y1",
        // Standard functions of two arguments of the same type, `T(T, T)`.
        Powf = "powf", Pow = "pow", Atan2f = "atan2f", Atan2 = "atan2", Hypotf = "hypotf", Hypot = "hypot",
        Fmodf = "fmodf", Fmod = "fmod", Remainderf = "remainderf", Remainder = "remainder", Fminf = "fminf",
        Fmin = "fmin", Fmaxf = "fmaxf", Fmax = "fmax", Fdimf = "fdimf", Fdim = "fdim", Copysignf = "copysignf",
        Copysign = "copysign", Nextafterf = "nextafterf", Nextafter = "nextafter",
        // Fused multiply-add `T(T, T, T)`, correctly rounded (also what FMA contraction emits).
        Fmaf = "fmaf", Fma = "fma",
        // `T(T, I32)`: `ldexp`, `scalbn` (exact unless the result over- or underflows).
        Ldexpf = "ldexpf", Ldexp = "ldexp", Scalbnf = "scalbnf", Scalbn = "scalbn",
        // `frexp` `T(T, ptr<I32>)`, `modf` `T(T, ptr<T>)`, `remquo` `T(T, T, ptr<I32>)`, exact.
        Frexpf = "frexpf", Frexp = "frexp", Modff = "modff", Modf = "modf", Remquof = "remquof",
        Remquo = "remquo",
        // `sincos`, `sincospi` `Void(T, ptr<T>, ptr<T>)`: sine and cosine stored through the pointers.
        Sincosf = "sincosf", Sincos = "sincos", Sincospif = "sincospif", Sincospi = "sincospi",
        // Float to integer: `lrint`, `lround`, `llrint`, `llround` → `I64`; `ilogb` → `I32`.
        Lrintf = "lrintf", Lrint = "lrint", Llrintf = "llrintf", Llrint = "llrint", Lroundf = "lroundf",
        Lround = "lround", Llroundf = "llroundf", Llround = "llround", Ilogbf = "ilogbf", Ilogb = "ilogb",
        // Classification, `Bool(T)`.
        Isnanf = "isnanf", Isnan = "isnan", Isinff = "isinff", Isinf = "isinf", Isfinitef = "isfinitef",
        Isfinite = "isfinite", Signbitf = "signbitf", Signbit = "signbit",
        // Other C99/CUDA functions: `nan` `T(ptr<I8>)`, `scalbln` `T(T, I64)`, `jn`/`yn` `T(I32, T)`,
        // `rhypot` `T(T, T)`, `norm3d`… `T(T, T, T)`, `norm4d`… `T(T, T, T, T)`, `norm`/`rnorm`
        // `T(I32, ptr<T>)` (vector length and elements), modified Bessel functions `T(T)`.
        Nanf = "nanf", Nan = "nan", Scalblnf = "scalblnf", Scalbln = "scalbln", Jnf = "jnf", Jn = "jn",
        Ynf = "ynf", Yn = "yn", Rhypotf = "rhypotf", Rhypot = "rhypot", Norm3df = "norm3df", Norm3d = "norm3d",
        Rnorm3df = "rnorm3df", Rnorm3d = "rnorm3d", Norm4df = "norm4df", Norm4d = "norm4d", Rnorm4df = "rnorm4df",
        Rnorm4d = "rnorm4d", Normf = "normf", Norm = "norm", Rnormf = "rnormf", Rnorm = "rnorm",
        CylBesselI0f = "cyl_bessel_i0f", CylBesselI0 = "cyl_bessel_i0", CylBesselI1f = "cyl_bessel_i1f",
        CylBesselI1 = "cyl_bessel_i1",
        // Fast single-precision intrinsics (`__expf`): hardware approximations with CUDA's documented
        // error bounds, not correctly rounded; `-use_fast_math` turns the standard functions into
        // these. `__sincosf` is `Void(F32, ptr<F32>, ptr<F32>)`, `__powf` and `__fdividef` take two.
        FastSinf = "__sinf", FastCosf = "__cosf", FastTanf = "__tanf", FastExpf = "__expf",
        FastExp10f = "__exp10f", FastLogf = "__logf", FastLog2f = "__log2f", FastLog10f = "__log10f",
        FastPowf = "__powf", FastSincosf = "__sincosf", FastFdividef = "__fdividef",
        // Other single-precision intrinsics: `fdividef` (= `__fdividef`), `__saturatef` (clamp to
        // [0, 1], NaN → 0), `__frsqrt_rn` (reciprocal square root rounded to nearest even).
        Fdividef = "fdividef", Saturatef = "__saturatef", FrsqrtRn = "__frsqrt_rn",
        // Names no front-end produces; `cuprite-cpu` implements them (`saturate` = `__saturatef`,
        // `__fdivide` = `__fdividef`, `__float2double` a plain conversion, `F64(F32)`;
        // `__cuprite_ftzf` `F32(F32)` flushes a subnormal to a zero of its sign: the -ftz
        // pass, `ftz.rs`, inserts it).
        Saturate = "saturate", Fdivide = "__fdivide", Float2Double = "__float2double", FtzF32 = "__cuprite_ftzf",
        // Integer intrinsics, exact: `__popc` `I32(U32)`, `__popcll` `I32(U64)`, `__clz`/`__ffs`
        // `I32(I32)`, `__clzll`/`__ffsll` `I32(I64)`, `__brev` `U32(U32)`, `__brevll` `U64(U64)`;
        // `__mul24`, `__mulhi`, `__hadd`, `__rhadd` `I32(I32, I32)` and their `u` forms on `U32`;
        // `__mul64hi` `I64(I64, I64)`, `__umul64hi` `U64(U64, U64)`; `__sad` `U32(I32, I32, U32)`;
        // `__usad`, `__byte_perm`, `__funnelshift_*` `U32(U32, U32, U32)`; `__dp4a` `I32(I32, I32,
        // I32)` or `U32(U32, U32, U32)` by operand type.
        Popc = "__popc", Popcll = "__popcll", Clz = "__clz", Clzll = "__clzll", Ffs = "__ffs", Ffsll = "__ffsll",
        Brev = "__brev", Brevll = "__brevll", Mul24 = "__mul24", Umul24 = "__umul24", Mulhi = "__mulhi",
        Umulhi = "__umulhi", Mul64hi = "__mul64hi", Umul64hi = "__umul64hi", Sad = "__sad", Usad = "__usad",
        BytePerm = "__byte_perm", FunnelshiftL = "__funnelshift_l", FunnelshiftLc = "__funnelshift_lc",
        FunnelshiftR = "__funnelshift_r", FunnelshiftRc = "__funnelshift_rc", Hadd = "__hadd", Rhadd = "__rhadd",
        Uhadd = "__uhadd", Urhadd = "__urhadd", Dp4a = "__dp4a",
        // Texture and surface access (Cuprite's own, called by the templates of
        // include/cuprite/texture_fetch.h: `tex2D<float>`, `surf2Dwrite`, ...):
        // `__cuprite_tex_fetch` `void(U64 object, I32 kind, F32 x, F32 y, F32 z, I32 layer,
        // ptr out, U32 out size)`, `__cuprite_tex_fetch_int` `void(U64, I32 index, ptr, U32)`,
        // `__cuprite_surf_access` `void(U64, I32 x, I32 y, I32 z, I32 layer, ptr, U32 size,
        // I32 mode, I32 write)`.
        CupriteTexFetch = "__cuprite_tex_fetch", CupriteTexFetchInt = "__cuprite_tex_fetch_int",
        CupriteSurfAccess = "__cuprite_surf_access",
        // `min`, `max` `T(T, T)` and `abs` `T(T)`, exact, by operand type (sema emits them for
        // `I32` only: `umin`… `U32`, `llmin`… `I64`, `ullmin`… `U64`, `labs`/`llabs` `I64`; floats
        // use `fminf`, `fmin`, `fabsf`, …).
        Min = "min", Max = "max", Umin = "umin", Umax = "umax", Llmin = "llmin", Llmax = "llmax",
        Ullmin = "ullmin", Ullmax = "ullmax", Abs = "abs", Labs = "labs", Llabs = "llabs",
        // Reinterpretation of bits and halves of a double: `__double2hiint`/`__double2loint`
        // `I32(F64)`, `__hiloint2double` `F64(I32, I32)`. Sema lowers the `_as_` functions to
        // `InstKind::Bitcast`; the back-end implements these variants too.
        Double2Hiint = "__double2hiint", Double2Loint = "__double2loint", Hiloint2Double = "__hiloint2double",
        FloatAsInt = "__float_as_int", FloatAsUint = "__float_as_uint", IntAsFloat = "__int_as_float",
        UintAsFloat = "__uint_as_float", DoubleAsLonglong = "__double_as_longlong",
        LonglongAsDouble = "__longlong_as_double",
        // `__int2double_rn` `F64(I32)`, `__uint2double_rn` `F64(U32)`: exact.
        Int2DoubleRn = "__int2double_rn", Uint2DoubleRn = "__uint2double_rn",
        // IEEE arithmetic correctly rounded in the named mode (`_rn` to nearest even, `_rz` toward
        // zero, `_ru` up, `_rd` down); `__f…` single, `__d…` double precision; `__frcp`/`__fsqrt`
        // one operand, `__fmaf`/`__fma` three.
        FaddRn = "__fadd_rn", FaddRz = "__fadd_rz", FaddRu = "__fadd_ru", FaddRd = "__fadd_rd",
        FsubRn = "__fsub_rn", FsubRz = "__fsub_rz", FsubRu = "__fsub_ru", FsubRd = "__fsub_rd",
        FmulRn = "__fmul_rn", FmulRz = "__fmul_rz", FmulRu = "__fmul_ru", FmulRd = "__fmul_rd",
        FdivRn = "__fdiv_rn", FdivRz = "__fdiv_rz", FdivRu = "__fdiv_ru", FdivRd = "__fdiv_rd",
        FrcpRn = "__frcp_rn", FrcpRz = "__frcp_rz", FrcpRu = "__frcp_ru", FrcpRd = "__frcp_rd",
        FsqrtRn = "__fsqrt_rn", FsqrtRz = "__fsqrt_rz", FsqrtRu = "__fsqrt_ru", FsqrtRd = "__fsqrt_rd",
        FmafRn = "__fmaf_rn", FmafRz = "__fmaf_rz", FmafRu = "__fmaf_ru", FmafRd = "__fmaf_rd",
        DaddRn = "__dadd_rn", DaddRz = "__dadd_rz", DaddRu = "__dadd_ru", DaddRd = "__dadd_rd",
        DsubRn = "__dsub_rn", DsubRz = "__dsub_rz", DsubRu = "__dsub_ru", DsubRd = "__dsub_rd",
        DmulRn = "__dmul_rn", DmulRz = "__dmul_rz", DmulRu = "__dmul_ru", DmulRd = "__dmul_rd",
        DdivRn = "__ddiv_rn", DdivRz = "__ddiv_rz", DdivRu = "__ddiv_ru", DdivRd = "__ddiv_rd",
        DrcpRn = "__drcp_rn", DrcpRz = "__drcp_rz", DrcpRu = "__drcp_ru", DrcpRd = "__drcp_rd",
        DsqrtRn = "__dsqrt_rn", DsqrtRz = "__dsqrt_rz", DsqrtRu = "__dsqrt_ru", DsqrtRd = "__dsqrt_rd",
        FmaRn = "__fma_rn", FmaRz = "__fma_rz", FmaRu = "__fma_ru", FmaRd = "__fma_rd",
        // Conversions rounded in the named mode; to integers they saturate, and NaN converts as
        // the GPU's `cvt` converts it (`ll` is `I64`, `ull` `U64`).
        Float2IntRn = "__float2int_rn", Float2IntRz = "__float2int_rz", Float2IntRu = "__float2int_ru",
        Float2IntRd = "__float2int_rd", Float2UintRn = "__float2uint_rn", Float2UintRz = "__float2uint_rz",
        Float2UintRu = "__float2uint_ru", Float2UintRd = "__float2uint_rd", Float2LlRn = "__float2ll_rn",
        Float2LlRz = "__float2ll_rz", Float2LlRu = "__float2ll_ru", Float2LlRd = "__float2ll_rd",
        Float2UllRn = "__float2ull_rn", Float2UllRz = "__float2ull_rz", Float2UllRu = "__float2ull_ru",
        Float2UllRd = "__float2ull_rd", Double2IntRn = "__double2int_rn", Double2IntRz = "__double2int_rz",
        Double2IntRu = "__double2int_ru", Double2IntRd = "__double2int_rd", Double2UintRn = "__double2uint_rn",
        Double2UintRz = "__double2uint_rz", Double2UintRu = "__double2uint_ru",
        Double2UintRd = "__double2uint_rd", Double2LlRn = "__double2ll_rn", Double2LlRz = "__double2ll_rz",
        Double2LlRu = "__double2ll_ru", Double2LlRd = "__double2ll_rd", Double2UllRn = "__double2ull_rn",
        Double2UllRz = "__double2ull_rz", Double2UllRu = "__double2ull_ru", Double2UllRd = "__double2ull_rd",
        Double2FloatRn = "__double2float_rn", Double2FloatRz = "__double2float_rz",
        Double2FloatRu = "__double2float_ru", Double2FloatRd = "__double2float_rd",
        Int2FloatRn = "__int2float_rn", Int2FloatRz = "__int2float_rz", Int2FloatRu = "__int2float_ru",
        Int2FloatRd = "__int2float_rd", Uint2FloatRn = "__uint2float_rn", Uint2FloatRz = "__uint2float_rz",
        Uint2FloatRu = "__uint2float_ru", Uint2FloatRd = "__uint2float_rd", Ll2FloatRn = "__ll2float_rn",
        Ll2FloatRz = "__ll2float_rz", Ll2FloatRu = "__ll2float_ru", Ll2FloatRd = "__ll2float_rd",
        Ull2FloatRn = "__ull2float_rn", Ull2FloatRz = "__ull2float_rz", Ull2FloatRu = "__ull2float_ru",
        Ull2FloatRd = "__ull2float_rd", Ll2DoubleRn = "__ll2double_rn", Ll2DoubleRz = "__ll2double_rz",
        Ll2DoubleRu = "__ll2double_ru", Ll2DoubleRd = "__ll2double_rd", Ull2DoubleRn = "__ull2double_rn",
        Ull2DoubleRz = "__ull2double_rz", Ull2DoubleRu = "__ull2double_ru", Ull2DoubleRd = "__ull2double_rd",
    }
}

impl fmt::Display for MathFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.cuda_name())
    }
}

#[cfg(test)]
mod tests {
    use super::MathFn;

    /// Each CUDA name is listed once: the lookup finds every variant under its own name.
    #[test]
    fn names_round_trip() {
        for f in MathFn::ALL {
            assert_eq!(MathFn::from_cuda_name(f.cuda_name()), Some(*f), "{f:?}");
        }
        assert_eq!(MathFn::from_cuda_name("__expf"), Some(MathFn::FastExpf));
        assert_eq!(MathFn::from_cuda_name("__float2int_rn"), Some(MathFn::Float2IntRn));
        assert_eq!(MathFn::from_cuda_name("sqrtff"), None);
    }
}
