//! How the CPU back-end computes each `MathFn`: the C function a call becomes (a libm
//! function or a prelude helper) and its C signature. `c_impl` matches every `MathFn`, so a
//! new one does not compile until this back-end implements it.

use cuprite_ir::{MathFn, Type};

/// A C function implementing a math builtin (one overload of it).
#[derive(Clone, Debug)]
pub struct MathEntry {
    pub f: MathFn,
    pub ret: Type,
    pub params: Vec<Type>,
    /// The C function called.
    pub c_name: String,
}

/// The C types of the math functions' operands and results.
#[derive(Clone, Copy, Debug)]
enum T {
    F32,
    F64,
    I32,
    U32,
    I64,
    U64,
    Void,
    PtrF32,
    PtrF64,
    PtrI32,
    /// `const char *` (`nan`'s tag).
    PtrI8,
}
use T::*;

impl T {
    fn ty(self) -> Type {
        match self {
            F32 => Type::F32,
            F64 => Type::F64,
            I32 => Type::I32,
            U32 => Type::U32,
            I64 => Type::I64,
            U64 => Type::U64,
            Void => Type::Void,
            PtrF32 => Type::F32.ptr_to(),
            PtrF64 => Type::F64.ptr_to(),
            PtrI32 => Type::I32.ptr_to(),
            PtrI8 => Type::I8.ptr_to(),
        }
    }
}

/// A C signature: result, parameters.
#[derive(Clone, Copy, Debug)]
struct Sig(T, &'static [T]);

/// Where the C code for a `MathFn` comes from.
enum CImpl {
    /// The C library function of the same name (`sqrtf`).
    Libm(Sig),
    /// The prelude helper `__cu_<CUDA name without its leading underscores>`.
    Prelude(Sig),
    /// Helpers named here; the operand types pick one (`min` on `U32` → `__cu_min_u32`).
    Named(&'static [(&'static str, Sig)]),
}

/// `min` by operand type (floats as `fminf`/`fmin`).
const MIN: &[(&str, Sig)] = &[
    ("__cu_min_i32", Sig(I32, &[I32, I32])),
    ("__cu_min_u32", Sig(U32, &[U32, U32])),
    ("__cu_min_i64", Sig(I64, &[I64, I64])),
    ("__cu_min_u64", Sig(U64, &[U64, U64])),
    ("__cu_min_f32", Sig(F32, &[F32, F32])),
    ("__cu_min_f64", Sig(F64, &[F64, F64])),
];
/// `max` by operand type.
const MAX: &[(&str, Sig)] = &[
    ("__cu_max_i32", Sig(I32, &[I32, I32])),
    ("__cu_max_u32", Sig(U32, &[U32, U32])),
    ("__cu_max_i64", Sig(I64, &[I64, I64])),
    ("__cu_max_u64", Sig(U64, &[U64, U64])),
    ("__cu_max_f32", Sig(F32, &[F32, F32])),
    ("__cu_max_f64", Sig(F64, &[F64, F64])),
];
/// `abs` by operand type (`abs(INT_MIN)` is `INT_MIN`, as on the GPU).
const ABS: &[(&str, Sig)] = &[
    ("__cu_abs_i32", Sig(I32, &[I32])),
    ("__cu_abs_i64", Sig(I64, &[I64])),
    ("__cu_abs_f32", Sig(F32, &[F32])),
    ("__cu_abs_f64", Sig(F64, &[F64])),
];
/// `isnan` by operand type; `isnanf` is the first.
const ISNAN: &[(&str, Sig)] = &[
    ("__cu_isnan_f32", Sig(I32, &[F32])),
    ("__cu_isnan_f64", Sig(I32, &[F64])),
];
/// `isinf` by operand type; `isinff` is the first.
const ISINF: &[(&str, Sig)] = &[
    ("__cu_isinf_f32", Sig(I32, &[F32])),
    ("__cu_isinf_f64", Sig(I32, &[F64])),
];
/// `isfinite` by operand type; `isfinitef` is the first.
const ISFINITE: &[(&str, Sig)] = &[
    ("__cu_isfinite_f32", Sig(I32, &[F32])),
    ("__cu_isfinite_f64", Sig(I32, &[F64])),
];
/// `signbit` by operand type; `signbitf` is the first.
const SIGNBIT: &[(&str, Sig)] = &[
    ("__cu_signbit_f32", Sig(I32, &[F32])),
    ("__cu_signbit_f64", Sig(I32, &[F64])),
];
/// `__dp4a` on signed or unsigned bytes.
const DP4A: &[(&str, Sig)] = &[
    ("__cu_dp4a_i32", Sig(I32, &[I32, I32, I32])),
    ("__cu_dp4a_u32", Sig(U32, &[U32, U32, U32])),
];

fn c_impl(f: MathFn) -> CImpl {
    use CImpl::*;
    use MathFn::*;
    match f {
        Sqrtf | Cbrtf | Expf | Exp2f | Expm1f | Logf | Log2f | Log10f | Log1pf | Sinf | Cosf | Tanf | Asinf
        | Acosf | Atanf | Sinhf | Coshf | Tanhf | Asinhf | Acoshf | Atanhf | Erff | Erfcf | Lgammaf
        | Fabsf | Floorf | Ceilf | Roundf | Truncf | Rintf | Nearbyintf | Logbf => Libm(Sig(F32, &[F32])),
        Sqrt | Cbrt | Exp | Exp2 | Expm1 | Log | Log2 | Log10 | Log1p | Sin | Cos | Tan | Asin | Acos | Atan
        | Sinh | Cosh | Asinh | Acosh | Atanh | Erf | Erfc | Tgamma | Lgamma | Fabs | Floor | Ceil
        | Round | Trunc | Rint | Nearbyint | Logb => Libm(Sig(F64, &[F64])),
        Rsqrtf | Rcbrtf | Exp10f | Erfinvf | Erfcinvf | Erfcxf | Normcdff | Normcdfinvf | Sinpif | Cospif
        | J0f | J1f | Y0f | Y1f | Tgammaf | CylBesselI0f | CylBesselI1f | FastSinf | FastCosf | FastTanf | FastExpf
        | FastExp10f | FastLogf | FastLog2f | FastLog10f | FtzF32 | Saturatef | FrsqrtRn | FrcpRn | FrcpRz | FrcpRu
        | FrcpRd | FsqrtRn | FsqrtRz | FsqrtRu | FsqrtRd => Prelude(Sig(F32, &[F32])),
        Rsqrt | Rcbrt | Exp10 | Erfinv | Erfcinv | Erfcx | Normcdf | Normcdfinv | Sinpi | Cospi | CylBesselI0
        | CylBesselI1 | Tanh | J0 | J1 | Y0 | Y1 | DrcpRn | DrcpRz | DrcpRu | DrcpRd | DsqrtRn | DsqrtRz | DsqrtRu | DsqrtRd
        => Prelude(Sig(F64, &[F64])),
        Powf | Atan2f | Hypotf | Fmodf | Remainderf | Fdimf | Copysignf | Nextafterf
        => Libm(Sig(F32, &[F32, F32])),
        Pow | Atan2 | Hypot | Fmod | Remainder | Fdim | Copysign | Nextafter
        => Libm(Sig(F64, &[F64, F64])),
        Fminf | Fmaxf => Prelude(Sig(F32, &[F32, F32])),
        Fmin | Fmax => Prelude(Sig(F64, &[F64, F64])),
        Fmaf => Libm(Sig(F32, &[F32, F32, F32])),
        Fma => Libm(Sig(F64, &[F64, F64, F64])),
        Ldexpf | Scalbnf => Libm(Sig(F32, &[F32, I32])),
        Ldexp | Scalbn => Libm(Sig(F64, &[F64, I32])),
        Frexpf => Libm(Sig(F32, &[F32, PtrI32])),
        Frexp => Libm(Sig(F64, &[F64, PtrI32])),
        Modff => Libm(Sig(F32, &[F32, PtrF32])),
        Modf => Libm(Sig(F64, &[F64, PtrF64])),
        Remquof => Prelude(Sig(F32, &[F32, F32, PtrI32])),
        Remquo => Prelude(Sig(F64, &[F64, F64, PtrI32])),
        Sincosf | Sincospif | FastSincosf => Prelude(Sig(Void, &[F32, PtrF32, PtrF32])),
        Sincos | Sincospi => Prelude(Sig(Void, &[F64, PtrF64, PtrF64])),
        Lrintf | Llrintf | Lroundf | Llroundf => Prelude(Sig(I64, &[F32])),
        Lrint | Llrint | Lround | Llround => Prelude(Sig(I64, &[F64])),
        Ilogbf => Libm(Sig(I32, &[F32])),
        Ilogb => Libm(Sig(I32, &[F64])),
        Isnanf => Named(&ISNAN[..1]),
        Isnan => Named(ISNAN),
        Isinff => Named(&ISINF[..1]),
        Isinf => Named(ISINF),
        Isfinitef => Named(&ISFINITE[..1]),
        Isfinite => Named(ISFINITE),
        Signbitf => Named(&SIGNBIT[..1]),
        Signbit => Named(SIGNBIT),
        Nanf => Libm(Sig(F32, &[PtrI8])),
        Nan => Libm(Sig(F64, &[PtrI8])),
        Scalblnf => Libm(Sig(F32, &[F32, I64])),
        Scalbln => Libm(Sig(F64, &[F64, I64])),
        Jnf | Ynf => Prelude(Sig(F32, &[I32, F32])),
        Jn | Yn => Prelude(Sig(F64, &[I32, F64])),
        Fdividef => Named(&[("__cu_fdividef_accurate", Sig(F32, &[F32, F32]))]),
        Rhypotf | FastPowf | FastFdividef | Fdivide | FaddRn | FaddRz | FaddRu | FaddRd | FsubRn
        | FsubRz | FsubRu | FsubRd | FmulRn | FmulRz | FmulRu | FmulRd | FdivRn | FdivRz | FdivRu | FdivRd
        => Prelude(Sig(F32, &[F32, F32])),
        Rhypot | DaddRn | DaddRz | DaddRu | DaddRd | DsubRn | DsubRz | DsubRu | DsubRd | DmulRn | DmulRz
        | DmulRu | DmulRd | DdivRn | DdivRz | DdivRu | DdivRd => Prelude(Sig(F64, &[F64, F64])),
        Norm3df | Rnorm3df | FmafRn | FmafRz | FmafRu | FmafRd => Prelude(Sig(F32, &[F32, F32, F32])),
        Norm3d | Rnorm3d | FmaRn | FmaRz | FmaRu | FmaRd => Prelude(Sig(F64, &[F64, F64, F64])),
        Norm4df | Rnorm4df => Prelude(Sig(F32, &[F32, F32, F32, F32])),
        Norm4d | Rnorm4d => Prelude(Sig(F64, &[F64, F64, F64, F64])),
        Normf | Rnormf => Prelude(Sig(F32, &[I32, PtrF32])),
        Norm | Rnorm => Prelude(Sig(F64, &[I32, PtrF64])),
        Saturate => Named(&[("__cu_saturatef", Sig(F32, &[F32]))]),
        Float2Double => Prelude(Sig(F64, &[F32])),
        Popc => Prelude(Sig(I32, &[U32])),
        Popcll => Prelude(Sig(I32, &[U64])),
        Clz | Ffs => Prelude(Sig(I32, &[I32])),
        Clzll | Ffsll => Prelude(Sig(I32, &[I64])),
        Brev => Prelude(Sig(U32, &[U32])),
        Brevll => Prelude(Sig(U64, &[U64])),
        Mul24 | Mulhi | Hadd | Rhadd => Prelude(Sig(I32, &[I32, I32])),
        Umul24 | Umulhi | Uhadd | Urhadd => Prelude(Sig(U32, &[U32, U32])),
        Mul64hi => Prelude(Sig(I64, &[I64, I64])),
        Umul64hi => Prelude(Sig(U64, &[U64, U64])),
        Sad => Prelude(Sig(U32, &[I32, I32, U32])),
        Usad | BytePerm | FunnelshiftL | FunnelshiftLc | FunnelshiftR | FunnelshiftRc
        => Prelude(Sig(U32, &[U32, U32, U32])),
        Dp4a => Named(DP4A),
        CupriteTexFetch => Prelude(Sig(Void, &[U64, I32, F32, F32, F32, I32, PtrI8, U32])),
        CupriteTexFetchInt => Prelude(Sig(Void, &[U64, I32, PtrI8, U32])),
        CupriteSurfAccess => Prelude(Sig(Void, &[U64, I32, I32, I32, I32, PtrI8, U32, I32, I32])),
        Min => Named(MIN),
        Max => Named(MAX),
        Umin => Named(&[("__cu_min_u32", Sig(U32, &[U32, U32]))]),
        Umax => Named(&[("__cu_max_u32", Sig(U32, &[U32, U32]))]),
        Llmin => Named(&[("__cu_min_i64", Sig(I64, &[I64, I64]))]),
        Llmax => Named(&[("__cu_max_i64", Sig(I64, &[I64, I64]))]),
        Ullmin => Named(&[("__cu_min_u64", Sig(U64, &[U64, U64]))]),
        Ullmax => Named(&[("__cu_max_u64", Sig(U64, &[U64, U64]))]),
        Abs => Named(ABS),
        Labs | Llabs => Named(&[("__cu_abs_i64", Sig(I64, &[I64]))]),
        Double2Hiint | Double2Loint | Double2IntRn | Double2IntRz | Double2IntRu | Double2IntRd
        => Prelude(Sig(I32, &[F64])),
        Hiloint2Double => Prelude(Sig(F64, &[I32, I32])),
        FloatAsInt | Float2IntRn | Float2IntRz | Float2IntRu | Float2IntRd => Prelude(Sig(I32, &[F32])),
        FloatAsUint | Float2UintRn | Float2UintRz | Float2UintRu | Float2UintRd => Prelude(Sig(U32, &[F32])),
        IntAsFloat | Int2FloatRn | Int2FloatRz | Int2FloatRu | Int2FloatRd => Prelude(Sig(F32, &[I32])),
        UintAsFloat | Uint2FloatRn | Uint2FloatRz | Uint2FloatRu | Uint2FloatRd => Prelude(Sig(F32, &[U32])),
        DoubleAsLonglong | Double2LlRn | Double2LlRz | Double2LlRu | Double2LlRd => Prelude(Sig(I64, &[F64])),
        LonglongAsDouble | Ll2DoubleRn | Ll2DoubleRz | Ll2DoubleRu | Ll2DoubleRd => Prelude(Sig(F64, &[I64])),
        Int2DoubleRn => Prelude(Sig(F64, &[I32])),
        Uint2DoubleRn => Prelude(Sig(F64, &[U32])),
        Float2LlRn | Float2LlRz | Float2LlRu | Float2LlRd => Prelude(Sig(I64, &[F32])),
        Float2UllRn | Float2UllRz | Float2UllRu | Float2UllRd => Prelude(Sig(U64, &[F32])),
        Double2UintRn | Double2UintRz | Double2UintRu | Double2UintRd => Prelude(Sig(U32, &[F64])),
        Double2UllRn | Double2UllRz | Double2UllRu | Double2UllRd => Prelude(Sig(U64, &[F64])),
        Double2FloatRn | Double2FloatRz | Double2FloatRu | Double2FloatRd => Prelude(Sig(F32, &[F64])),
        Ll2FloatRn | Ll2FloatRz | Ll2FloatRu | Ll2FloatRd => Prelude(Sig(F32, &[I64])),
        Ull2FloatRn | Ull2FloatRz | Ull2FloatRu | Ull2FloatRd => Prelude(Sig(F32, &[U64])),
        Ull2DoubleRn | Ull2DoubleRz | Ull2DoubleRu | Ull2DoubleRd => Prelude(Sig(F64, &[U64])),
    }
}

/// The C functions implementing `f`, one per overload.
pub fn overloads(f: MathFn) -> Vec<MathEntry> {
    let entry = |c_name: String, Sig(ret, params): Sig| MathEntry {
        f,
        ret: ret.ty(),
        params: params.iter().map(|t| t.ty()).collect(),
        c_name,
    };
    match c_impl(f) {
        CImpl::Libm(sig) => vec![entry(f.cuda_name().to_string(), sig)],
        CImpl::Prelude(sig) => vec![entry(format!("__cu_{}", f.cuda_name().trim_start_matches('_')), sig)],
        CImpl::Named(list) => list.iter().map(|(c, sig)| entry(c.to_string(), *sig)).collect(),
    }
}

/// Every C function the math builtins use, each `MathFn`'s overloads in turn.
pub fn math_builtins() -> Vec<MathEntry> {
    MathFn::ALL.iter().flat_map(|f| overloads(*f)).collect()
}

/// Picks the C function for a call of `f` with these operand and result types: an exact
/// match of the operand types, else the overload whose result type matches, else the first
/// (C converts the operands).
pub fn resolve_math(f: MathFn, args: &[Type], ret: &Type) -> Result<MathEntry, String> {
    let mut cands = overloads(f);
    if let Some(i) = cands.iter().position(|e| e.params.as_slice() == args) {
        return Ok(cands.swap_remove(i));
    }
    let expects = cands.first().map_or(0, |e| e.params.len());
    cands.retain(|e| e.params.len() == args.len());
    if cands.is_empty() {
        return Err(format!("math builtin `{f}` called with {} operands, expects {expects}", args.len()));
    }
    let i = cands.iter().position(|e| &e.ret == ret).unwrap_or(0);
    Ok(cands.swap_remove(i))
}
