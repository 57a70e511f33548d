//! The builtin functions of device code: what each name means and which overload a
//! call picks. `BUILTINS.md` lists the IR functions this produces; each math name here
//! must be a `cuprite_ir::MathFn` (`every_math_name_is_an_ir_function` checks).

use crate::ty::{IntKind, Ty};
use cuprite_ir::MathFn;

/// Math functions with `float` and `double` forms (`sqrtf`/`sqrt`), one argument.
pub const UNARY: &[&str] = &[
    "sqrt", "rsqrt", "cbrt", "rcbrt", "exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
    "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "erf", "erfc", "erfinv",
    "erfcinv", "erfcx", "normcdf", "normcdfinv", "tgamma", "lgamma", "fabs", "floor", "ceil", "round", "trunc", "rint",
    "nearbyint", "logb", "sinpi", "cospi", "j0", "j1", "y0", "y1",
];
/// Two arguments of the same floating type.
pub const BINARY: &[&str] =
    &["pow", "atan2", "hypot", "fmod", "remainder", "fmin", "fmax", "fdim", "copysign", "nextafter"];
/// Floating argument, integer result (`long` for `l*`, `long long` for `ll*`, `int` for `ilogb`).
pub const TO_INT: &[(&str, IntKind)] = &[
    ("lrint", IntKind::Long),
    ("llrint", IntKind::LongLong),
    ("lround", IntKind::Long),
    ("llround", IntKind::LongLong),
    ("ilogb", IntKind::Int),
];
pub const CLASSIFY: &[&str] = &["isnan", "isinf", "isfinite", "signbit"];
/// The other shapes with `float` and `double` forms.
const OTHER_SHAPES: &[(&str, MathShape)] = &[
    ("fma", MathShape::Fma),
    ("ldexp", MathShape::XInt),
    ("scalbn", MathShape::XInt),
    ("frexp", MathShape::Frexp),
    ("modf", MathShape::Modf),
    ("remquo", MathShape::Remquo),
    ("sincos", MathShape::Sincos),
    ("sincospi", MathShape::Sincos),
];

/// What a name that is not declared with a body in the program means in device code.
#[derive(Clone, Debug, PartialEq)]
pub enum Class {
    /// Overloaded on float/double: `sqrt`, `pow`, … (C++ `<cmath>` overloads).
    MathOverloaded(&'static str, MathShape),
    /// A fixed-precision math function (`sqrtf`, `sqrt`-as-double is the overloaded one).
    MathFixed(String, MathShape, bool /* is float */),
    /// Fixed signature `(params) -> ret` given as type codes.
    Fixed(&'static str, &'static str, &'static str),
    MinMax(bool /* max */),
    Abs,
    Printf,
    Assert,
    Trap,
    Clock,
    Clock64,
    Fence(cuprite_ir::Scope),
    Barrier(cuprite_ir::BarrierKind),
    /// A warp collective; `true` for the legacy mask-less forms (`__shfl`, `__ballot`, …),
    /// which act on the full warp.
    Warp(cuprite_ir::WarpOp, bool),
    Atomic(cuprite_ir::AtomicOp, cuprite_ir::Scope),
    Ldg,
    /// Reinterpretation (`__float_as_int`): from, to.
    Bitcast(&'static str, &'static str),
    NotYet,
    /// A CUDA feature Cuprite refuses, reached through a Cuprite header (the message
    /// names the feature as the user wrote it).
    Refused(&'static str),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MathShape {
    Unary,
    Binary,
    Fma,
    ToInt(IntKind),
    Classify,
    /// `ldexp(x, int)`, `scalbn(x, int)`.
    XInt,
    /// `frexp(x, int*)`.
    Frexp,
    /// `modf(x, T*)`.
    Modf,
    /// `remquo(x, y, int*)`.
    Remquo,
    /// `sincos(x, T*, T*)`.
    Sincos,
}

fn math_shape(base: &str) -> Option<(&'static str, MathShape)> {
    if let Some(n) = UNARY.iter().find(|n| **n == base) {
        return Some((n, MathShape::Unary));
    }
    if let Some(n) = BINARY.iter().find(|n| **n == base) {
        return Some((n, MathShape::Binary));
    }
    if let Some(n) = CLASSIFY.iter().find(|n| **n == base) {
        return Some((n, MathShape::Classify));
    }
    if let Some((n, k)) = TO_INT.iter().find(|(n, _)| *n == base) {
        return Some((n, MathShape::ToInt(*k)));
    }
    OTHER_SHAPES.iter().find(|(n, _)| *n == base).copied()
}

/// Names that are CUDA device functions of later issues. (Host-only runtime functions,
/// `cudaMemcpy`, `cudaDeviceSynchronize`, are not here: calling them from device code is
/// an error, as in nvcc.)
pub fn not_yet(name: &str) -> bool {
    const PREFIXES: &[&str] = &[
        "tex1D", "tex2D", "tex3D", "texCubemap", "tex1Dfetch", "surf1D", "surf2D", "surf3D", "surfCubemap",
        "__nanosleep", "__prof_trigger", "cudaMalloc", "cudaFree",
        "cudaGetLastError", "__lane_id", "__fns", "__dp4a", "__dp2a", "__vadd", "__vsub",
        "__vabs", "__vcmp", "__vmax", "__vmin", "__vset", "__vsad", "__vavg", "__vhadd", "__viaddmax", "__cvta",
        "__isGlobal", "__isShared", "__isConstant", "__isLocal", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv",
        "__stwb", "__stcg", "__stcs", "__stwt", "__pipeline", "asm",
    ];
    const EXACT: &[&str] = &["__brkpt", "__assertfail", "vprintf", "__syncthreads_sync"];
    EXACT.contains(&name) || PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Classify a name as a device builtin.
pub fn classify(name: &str) -> Option<Class> {
    use cuprite_ir::{BarrierKind as B, Scope as S};
    let c = match name {
        "printf" => Class::Printf,
        "__cuprite_assert" => Class::Assert,
        "__trap" | "abort" => Class::Trap,
        "clock" => Class::Clock,
        "clock64" => Class::Clock64,
        "__threadfence_block" => Class::Fence(S::Block),
        "__threadfence" => Class::Fence(S::Device),
        "__threadfence_system" => Class::Fence(S::System),
        "__syncthreads" => Class::Barrier(B::Sync),
        "__syncthreads_count" => Class::Barrier(B::Count),
        "__syncthreads_and" => Class::Barrier(B::And),
        "__syncthreads_or" => Class::Barrier(B::Or),
        "__ldg" => Class::Ldg,
        // `cooperative_groups::grid_group::sync()` (cooperative_groups.h).
        "__cuprite_grid_sync" => Class::Barrier(B::Grid),
        // The spin-waits of <cuda/barrier> and <cuda/pipeline>: let the block's other
        // threads run (cuprite_ir::WarpOp::Yield).
        "__cuprite_yield" => Class::Warp(cuprite_ir::WarpOp::Yield, true),
        "min" | "max" => Class::MinMax(name == "max"),
        "umin" | "llmin" | "ullmin" | "umax" | "llmax" | "ullmax" => {
            let t = match &name[..name.len() - 3] {
                "u" => "j",
                "ll" => "x",
                _ => "y",
            };
            let sig: &'static str = match t {
                "j" => "jj",
                "x" => "xx",
                _ => "yy",
            };
            let n: &'static str = match name {
                "umin" => "umin",
                "llmin" => "llmin",
                "ullmin" => "ullmin",
                "umax" => "umax",
                "llmax" => "llmax",
                _ => "ullmax",
            };
            let r: &'static str = match t {
                "j" => "j",
                "x" => "x",
                _ => "y",
            };
            Class::Fixed(n, sig, r)
        }
        "abs" => Class::Abs,
        "labs" => Class::Fixed("labs", "l", "l"),
        "llabs" => Class::Fixed("llabs", "x", "x"),
        "fabsf" => Class::MathFixed("fabsf".into(), MathShape::Unary, true),
        "__float_as_int" => Class::Bitcast("f", "i"),
        "__int_as_float" => Class::Bitcast("i", "f"),
        "__float_as_uint" => Class::Bitcast("f", "j"),
        "__uint_as_float" => Class::Bitcast("j", "f"),
        "__double_as_longlong" => Class::Bitcast("d", "x"),
        "__longlong_as_double" => Class::Bitcast("x", "d"),
        _ => {
            if let Some(c) = warp(name) {
                return Some(c);
            }
            if let Some(c) = fixed(name) {
                return Some(c);
            }
            if let Some(c) = atomic(name) {
                return Some(c);
            }
            if let Some((n, shape)) = math_shape(name) {
                return Some(Class::MathOverloaded(n, shape));
            }
            if let Some(base) = name.strip_suffix('f') {
                if let Some((_, shape)) = math_shape(base) {
                    return Some(Class::MathFixed(name.to_string(), shape, true));
                }
            }
            if not_yet(name) {
                return Some(Class::NotYet);
            }
            return None;
        }
    };
    Some(c)
}

/// Warp shuffles, votes, matches and reductions (`_sync` forms and the legacy ones).
fn warp(name: &str) -> Option<Class> {
    use cuprite_ir::{ReduceKind as R, ShflKind as Sh, VoteKind as V, WarpOp as W};
    let (base, legacy) = match name.strip_suffix("_sync") {
        Some(b) => (b, false),
        None => (name, true),
    };
    let op = match base {
        "__shfl" => W::Shfl(Sh::Idx),
        "__shfl_up" => W::Shfl(Sh::Up),
        "__shfl_down" => W::Shfl(Sh::Down),
        "__shfl_xor" => W::Shfl(Sh::Xor),
        "__all" => W::Vote(V::All),
        "__any" => W::Vote(V::Any),
        "__uni" if !legacy => W::Vote(V::Uni),
        "__ballot" => W::Vote(V::Ballot),
        "__activemask" if legacy => W::ActiveMask,
        "__syncwarp" if legacy => W::SyncWarp,
        "__match_any" if !legacy => W::MatchAny,
        "__match_all" if !legacy => W::MatchAll,
        "__reduce_add" if !legacy => W::Reduce(R::Add),
        "__reduce_min" if !legacy => W::Reduce(R::Min),
        "__reduce_max" if !legacy => W::Reduce(R::Max),
        "__reduce_and" if !legacy => W::Reduce(R::And),
        "__reduce_or" if !legacy => W::Reduce(R::Or),
        "__reduce_xor" if !legacy => W::Reduce(R::Xor),
        _ => return None,
    };
    // `__activemask` and `__syncwarp` have no mask-less form to tell apart.
    let legacy = legacy && !matches!(op, W::ActiveMask | W::SyncWarp);
    Some(Class::Warp(op, legacy))
}

fn atomic(name: &str) -> Option<Class> {
    use cuprite_ir::{AtomicOp as A, Scope as S};
    let (base, scope) = if let Some(b) = name.strip_suffix("_block") {
        (b, S::Block)
    } else if let Some(b) = name.strip_suffix("_system") {
        (b, S::System)
    } else {
        (name, S::Device)
    };
    let op = match base {
        "atomicAdd" => A::Add,
        "atomicSub" => A::Sub,
        "atomicExch" => A::Exch,
        "atomicMin" => A::Min,
        "atomicMax" => A::Max,
        "atomicInc" => A::Inc,
        "atomicDec" => A::Dec,
        "atomicCAS" => A::Cas,
        "atomicAnd" => A::And,
        "atomicOr" => A::Or,
        "atomicXor" => A::Xor,
        _ => return None,
    };
    Some(Class::Atomic(op, scope))
}

/// Intrinsics with one fixed signature: name, parameters, result (type codes: `code_ty`).
const FIXED: &[(&str, &str, &str)] = &[
    ("__sinf", "f", "f"),
    ("__cosf", "f", "f"),
    ("__tanf", "f", "f"),
    ("__expf", "f", "f"),
    ("__exp10f", "f", "f"),
    ("__logf", "f", "f"),
    ("__log2f", "f", "f"),
    ("__log10f", "f", "f"),
    ("__powf", "ff", "f"),
    ("__fdividef", "ff", "f"),
    ("fdividef", "ff", "f"),
    ("__saturatef", "f", "f"),
    ("__sincosf", "fFF", "v"),
    ("__frsqrt_rn", "f", "f"),
    ("__popc", "j", "i"),
    ("__popcll", "y", "i"),
    ("__clz", "i", "i"),
    ("__clzll", "x", "i"),
    ("__ffs", "i", "i"),
    ("__ffsll", "x", "i"),
    ("__brev", "j", "j"),
    ("__brevll", "y", "y"),
    ("__mul24", "ii", "i"),
    ("__umul24", "jj", "j"),
    ("__mulhi", "ii", "i"),
    ("__umulhi", "jj", "j"),
    ("__mul64hi", "xx", "x"),
    ("__umul64hi", "yy", "y"),
    ("__sad", "iij", "j"),
    ("__usad", "jjj", "j"),
    ("__byte_perm", "jjj", "j"),
    ("__funnelshift_l", "jjj", "j"),
    ("__funnelshift_lc", "jjj", "j"),
    ("__funnelshift_r", "jjj", "j"),
    ("__funnelshift_rc", "jjj", "j"),
    ("__hadd", "ii", "i"),
    ("__rhadd", "ii", "i"),
    ("__uhadd", "jj", "j"),
    ("__urhadd", "jj", "j"),
    ("__hiloint2double", "ii", "d"),
    ("__double2hiint", "d", "i"),
    ("__double2loint", "d", "i"),
    ("__int2double_rn", "i", "d"),
    ("__uint2double_rn", "j", "d"),
    // C99 / CUDA math functions of other shapes.
    ("nan", "s", "d"),
    ("scalbln", "dl", "d"),
    ("scalblnf", "fl", "f"),
    ("nanf", "s", "f"),
    ("jn", "id", "d"),
    ("yn", "id", "d"),
    ("jnf", "if", "f"),
    ("ynf", "if", "f"),
    ("rhypot", "dd", "d"),
    ("rhypotf", "ff", "f"),
    ("norm3d", "ddd", "d"),
    ("rnorm3d", "ddd", "d"),
    ("norm3df", "fff", "f"),
    ("rnorm3df", "fff", "f"),
    ("norm4d", "dddd", "d"),
    ("rnorm4d", "dddd", "d"),
    ("norm4df", "ffff", "f"),
    ("rnorm4df", "ffff", "f"),
    ("norm", "iK", "d"),
    ("rnorm", "iK", "d"),
    ("normf", "ik", "f"),
    ("rnormf", "ik", "f"),
    ("cyl_bessel_i0", "d", "d"),
    ("cyl_bessel_i1", "d", "d"),
    ("cyl_bessel_i0f", "f", "f"),
    ("cyl_bessel_i1f", "f", "f"),
    // `__host__ __device__` in CUDA: the device heap and the C string functions
    // (lowered to `BuiltinKind::Malloc`/`Free`/`Memcpy`/`Memset`, not `Math`).
    ("malloc", "z", "p"),
    ("free", "p", "v"),
    ("memcpy", "pPz", "p"),
    ("memset", "piz", "p"),
    // Texture and surface access, called by the templates of
    // include/cuprite/texture_fetch.h (`tex2D<float>`, `surf2Dwrite`, ...).
    ("__cuprite_tex_fetch", "yifffipj", "v"),
    ("__cuprite_tex_fetch_int", "yipj", "v"),
    ("__cuprite_surf_access", "yiiiipjii", "v"),
];

/// Families with a rounding-mode suffix (`_rn`, `_rz`, `_ru`, `_rd`): stem, parameters, result.
const ROUNDED: &[(&str, &str, &str)] = &[
    ("__fadd", "ff", "f"),
    ("__fsub", "ff", "f"),
    ("__fmul", "ff", "f"),
    ("__fdiv", "ff", "f"),
    ("__frcp", "f", "f"),
    ("__fsqrt", "f", "f"),
    ("__fmaf", "fff", "f"),
    ("__dadd", "dd", "d"),
    ("__dsub", "dd", "d"),
    ("__dmul", "dd", "d"),
    ("__ddiv", "dd", "d"),
    ("__drcp", "d", "d"),
    ("__dsqrt", "d", "d"),
    ("__fma", "ddd", "d"),
    ("__float2int", "f", "i"),
    ("__float2uint", "f", "j"),
    ("__float2ll", "f", "x"),
    ("__float2ull", "f", "y"),
    ("__double2int", "d", "i"),
    ("__double2uint", "d", "j"),
    ("__double2ll", "d", "x"),
    ("__double2ull", "d", "y"),
    ("__double2float", "d", "f"),
    ("__int2float", "i", "f"),
    ("__uint2float", "j", "f"),
    ("__ll2float", "x", "f"),
    ("__ull2float", "y", "f"),
    ("__ll2double", "x", "d"),
    ("__ull2double", "y", "d"),
];

/// A name of `FIXED` or of a `ROUNDED` family.
fn fixed(name: &str) -> Option<Class> {
    if let Some((n, p, r)) = FIXED.iter().find(|(n, _, _)| *n == name) {
        return Some(Class::Fixed(n, p, r));
    }
    // Rounding-mode families.
    let stem = ["_rn", "_rz", "_ru", "_rd"].iter().find_map(|m| name.strip_suffix(m))?;
    let (_, p, r) = ROUNDED.iter().find(|(n, _, _)| *n == stem)?;
    // The IR's table holds the name with a static lifetime (`None` for a stem the IR lacks).
    Some(Class::Fixed(MathFn::from_cuda_name(name)?.cuda_name(), p, r))
}

/// The intrinsic `-use_fast_math` puts in place of a single-precision function, as nvcc
/// does; other functions stay.
pub fn fast_math_intrinsic(f: MathFn) -> MathFn {
    use MathFn::*;
    match f {
        Sinf => FastSinf,
        Cosf => FastCosf,
        Tanf => FastTanf,
        Expf => FastExpf,
        Exp10f => FastExp10f,
        Logf => FastLogf,
        Log2f => FastLog2f,
        Log10f => FastLog10f,
        Powf => FastPowf,
        Sincosf => FastSincosf,
        f => f,
    }
}

/// The type for a signature code: `f` float, `d` double, `i` int, `j` unsigned, `x` long
/// long, `y` unsigned long long, `l` long, `F`/`I` pointer to float/int, `D` pointer to
/// double, `k`/`K` pointer to const float/double, `s` `const char *`, `p` `void *`, `P`
/// `const void *`, `z` `size_t`, `v` void.
pub fn code_ty(c: char) -> Ty {
    use crate::ty::QTy;
    match c {
        'f' => Ty::Float,
        'd' => Ty::Double,
        'i' => Ty::Int(IntKind::Int),
        'j' => Ty::Int(IntKind::UInt),
        'x' => Ty::Int(IntKind::LongLong),
        'y' => Ty::Int(IntKind::ULongLong),
        'l' => Ty::Int(IntKind::Long),
        'F' => Ty::ptr(QTy::new(Ty::Float)),
        'D' => Ty::ptr(QTy::new(Ty::Double)),
        'I' => Ty::ptr(QTy::new(Ty::Int(IntKind::Int))),
        'k' => Ty::ptr(QTy::new(Ty::Float).with_const(true)),
        'K' => Ty::ptr(QTy::new(Ty::Double).with_const(true)),
        's' => Ty::ptr(QTy::new(Ty::Int(IntKind::Char)).with_const(true)),
        'p' => Ty::ptr(QTy::new(Ty::Void)),
        'P' => Ty::ptr(QTy::new(Ty::Void).with_const(true)),
        'z' => Ty::Int(IntKind::ULong),
        _ => Ty::Void,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every math name these tables give a type to is a `MathFn`, so `classify` never
    /// drops one and the checker never meets a name the IR lacks.
    #[test]
    fn every_math_name_is_an_ir_function() {
        let pairs = UNARY.iter().chain(BINARY).chain(CLASSIFY).chain(TO_INT.iter().map(|(n, _)| n));
        let pairs = pairs.chain(OTHER_SHAPES.iter().map(|(n, _)| n));
        let mut names: Vec<String> = pairs.flat_map(|n| [n.to_string(), format!("{n}f")]).collect();
        let not_math = ["malloc", "free", "memcpy", "memset"];
        names.extend(FIXED.iter().map(|(n, _, _)| n.to_string()).filter(|n| !not_math.contains(&n.as_str())));
        for (stem, _, _) in ROUNDED {
            names.extend(["rn", "rz", "ru", "rd"].iter().map(|m| format!("{stem}_{m}")));
        }
        for n in &names {
            assert!(MathFn::from_cuda_name(n).is_some(), "`{n}` is not a MathFn");
            assert!(classify(n).is_some(), "`{n}` is not classified");
        }
    }
}
