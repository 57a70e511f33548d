//! The table of `Builtin::Math` names the CPU back-end implements, with their
//! signatures, and the C function each one becomes (a libm function or a prelude helper).

use cuprite_ir::Type;

/// One implemented math builtin.
#[derive(Clone, Debug)]
pub struct MathEntry {
    /// The CUDA name (`sqrtf`, `__popc`, `min`).
    pub name: String,
    pub ret: Type,
    pub params: Vec<Type>,
    /// The C function called.
    pub c_name: String,
}

fn ty(c: char) -> Type {
    match c {
        'f' => Type::F32,
        'd' => Type::F64,
        'i' => Type::I32,
        'u' => Type::U32,
        'l' => Type::I64,
        'L' => Type::U64,
        'v' => Type::Void,
        'F' => Type::F32.ptr_to(),
        'D' => Type::F64.ptr_to(),
        'I' => Type::I32.ptr_to(),
        _ => panic!("bad type code {c}"),
    }
}

fn sfx(c: char) -> &'static str {
    match c {
        'f' => "f32",
        'd' => "f64",
        'i' => "i32",
        'u' => "u32",
        'l' => "i64",
        'L' => "u64",
        _ => panic!(),
    }
}

/// libm functions called by their own name: (name, "ret:params").
const LIBM: &[(&str, &str)] = &[
    ("fmaf", "f:fff"), ("fma", "d:ddd"), ("ldexpf", "f:fi"), ("ldexp", "d:di"), ("scalbnf", "f:fi"),
    ("scalbn", "d:di"), ("frexpf", "f:fI"), ("frexp", "d:dI"), ("modff", "f:fF"), ("modf", "d:dD"),
    ("remquof", "f:ffI"), ("remquo", "d:ddI"), ("ilogbf", "i:f"), ("ilogb", "i:d"), ("lrintf", "l:f"),
    ("lrint", "l:d"), ("llrintf", "l:f"), ("llrint", "l:d"), ("lroundf", "l:f"), ("lround", "l:d"),
    ("llroundf", "l:f"), ("llround", "l:d"), ("j0", "d:d"), ("j1", "d:d"), ("y0", "d:d"), ("y1", "d:d"),
    ("jn", "d:id"), ("yn", "d:id"), ("nanf", "f:p"), ("nan", "d:p"),
    ("scalblnf", "f:fl"), ("scalbln", "d:dl"),
];

const LIBM_UNARY: &[&str] = &[
    "sqrt", "cbrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
    "atanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "fabs", "floor", "ceil", "trunc",
    "round", "rint", "nearbyint", "erf", "erfc", "lgamma", "tgamma", "logb",
];
const LIBM_BINARY: &[&str] = &[
    "atan2", "pow", "fmin", "fmax", "fmod", "remainder", "hypot", "fdim", "copysign", "nextafter",
];

/// Prelude helpers `__cu_<name without leading underscores>`.
const EXTRA: &[(&str, &str)] = &[
    ("rsqrtf", "f:f"), ("rsqrt", "d:d"), ("rcbrtf", "f:f"), ("rcbrt", "d:d"), ("__saturatef", "f:f"),
    ("saturate", "f:f"), ("exp10f", "f:f"), ("exp10", "d:d"), ("sinpif", "f:f"), ("cospif", "f:f"),
    ("sinpi", "d:d"), ("cospi", "d:d"), ("sincospif", "v:fFF"), ("sincospi", "v:dDD"), ("sincosf", "v:fFF"),
    ("sincos", "v:dDD"), ("__sincosf", "v:fFF"), ("normcdff", "f:f"), ("normcdf", "d:d"), ("erfinvf", "f:f"),
    ("erfinv", "d:d"), ("erfcinvf", "f:f"), ("erfcinv", "d:d"), ("normcdfinvf", "f:f"), ("normcdfinv", "d:d"),
    ("erfcxf", "f:f"), ("erfcx", "d:d"), ("rhypotf", "f:ff"), ("rhypot", "d:dd"), ("norm3df", "f:fff"),
    ("rnorm3df", "f:fff"), ("norm4df", "f:ffff"), ("rnorm4df", "f:ffff"), ("norm3d", "d:ddd"),
    ("rnorm3d", "d:ddd"), ("norm4d", "d:dddd"), ("rnorm4d", "d:dddd"), ("norm", "d:iD"), ("rnorm", "d:iD"),
    ("normf", "f:iF"), ("rnormf", "f:iF"), ("cyl_bessel_i0", "d:d"), ("cyl_bessel_i1", "d:d"),
    ("cyl_bessel_i0f", "f:f"), ("cyl_bessel_i1f", "f:f"), ("fdividef", "f:ff"), ("__fdividef", "f:ff"), ("__fdivide", "f:ff"), ("j0f", "f:f"),
    ("j1f", "f:f"), ("y0f", "f:f"), ("y1f", "f:f"), ("jnf", "f:if"), ("ynf", "f:if"), ("__expf", "f:f"),
    ("__exp10f", "f:f"), ("__logf", "f:f"), ("__log2f", "f:f"), ("__log10f", "f:f"), ("__sinf", "f:f"),
    ("__cosf", "f:f"), ("__tanf", "f:f"), ("__powf", "f:ff"), ("__frsqrt_rn", "f:f"),
    ("__float_as_int", "i:f"), ("__float_as_uint", "u:f"), ("__int_as_float", "f:i"),
    ("__uint_as_float", "f:u"), ("__double_as_longlong", "l:d"), ("__longlong_as_double", "d:l"),
    ("__double2hiint", "i:d"), ("__double2loint", "i:d"), ("__hiloint2double", "d:ii"),
    ("__int2double_rn", "d:i"), ("__uint2double_rn", "d:u"), ("__float2double", "d:f"),
    ("__popc", "i:u"), ("__popcll", "i:L"), ("__clz", "i:i"), ("__clzll", "i:l"), ("__ffs", "i:i"),
    ("__ffsll", "i:l"), ("__brev", "u:u"), ("__brevll", "L:L"), ("__byte_perm", "u:uuu"),
    ("__mulhi", "i:ii"), ("__umulhi", "u:uu"), ("__mul64hi", "l:ll"), ("__umul64hi", "L:LL"),
    ("__mul24", "i:ii"), ("__umul24", "u:uu"), ("__sad", "u:iiu"), ("__usad", "u:uuu"), ("__hadd", "i:ii"),
    ("__rhadd", "i:ii"), ("__uhadd", "u:uu"), ("__urhadd", "u:uu"), ("__funnelshift_l", "u:uuu"),
    ("__funnelshift_lc", "u:uuu"), ("__funnelshift_r", "u:uuu"), ("__funnelshift_rc", "u:uuu"),
    // Texture and surface access (prelude helpers that call the runtime).
    ("__cuprite_tex_fetch", "v:Lifffipu"), ("__cuprite_tex_fetch_int", "v:Lipu"), ("__cuprite_surf_access", "v:Liiiipuii"),
];

/// Overloaded by operand type: (name, type codes) → `__cu_<base>_<suffix>`.
const OVERLOADED: &[(&str, &str, &str)] = &[
    ("min", "base", "iulLfd"), ("max", "base", "iulLfd"), ("abs", "base", "ilfd"),
    ("isnan", "pred", "fd"), ("isinf", "pred", "fd"), ("isfinite", "pred", "fd"), ("signbit", "pred", "fd"),
];

fn entry(name: &str, sig: &str, c_name: String) -> MathEntry {
    let (r, ps) = sig.split_once(':').unwrap();
    let ret = ty(r.chars().next().unwrap());
    let params = ps
        .chars()
        .map(|c| if c == 'p' { Type::I8.ptr_to() } else { ty(c) })
        .collect();
    MathEntry { name: name.to_string(), ret, params, c_name }
}

/// Every math builtin the CPU back-end implements.
pub fn math_builtins() -> Vec<MathEntry> {
    let mut v = Vec::new();
    for (n, s) in LIBM {
        v.push(entry(n, s, n.to_string()));
    }
    for n in LIBM_UNARY {
        v.push(entry(&format!("{n}f"), "f:f", format!("{n}f")));
        v.push(entry(n, "d:d", n.to_string()));
    }
    for n in LIBM_BINARY {
        v.push(entry(&format!("{n}f"), "f:ff", format!("{n}f")));
        v.push(entry(n, "d:dd", n.to_string()));
    }
    for (n, s) in EXTRA {
        let c = match *n {
            "saturate" => "__cu_saturatef".to_string(),
            "__fdivide" => "__cu_fdividef".to_string(),
            _ => format!("__cu_{}", n.trim_start_matches('_')),
        };
        v.push(entry(n, s, c));
    }
    for (n, kind, tys) in OVERLOADED {
        for c in tys.chars() {
            let sig = if *kind == "pred" { format!("i:{c}") } else if *n == "abs" { format!("{c}:{c}") } else { format!("{c}:{c}{c}") };
            v.push(entry(n, &sig, format!("__cu_{n}_{}", sfx(c))));
        }
    }
    for (n, c, s) in [
        ("umin", "u", "min"), ("umax", "u", "max"), ("llmin", "l", "min"), ("llmax", "l", "max"),
        ("ullmin", "L", "min"), ("ullmax", "L", "max"),
    ] {
        v.push(entry(n, &format!("{c}:{c}{c}"), format!("__cu_{s}_{}", sfx(c.chars().next().unwrap()))));
    }
    for n in ["isnan", "isinf", "isfinite", "signbit"] {
        v.push(entry(&format!("{n}f"), "i:f", format!("__cu_{n}_f32")));
    }
    v.push(entry("labs", "l:l", "__cu_abs_i64".into()));
    v.push(entry("llabs", "l:l", "__cu_abs_i64".into()));
    v.push(entry("__dp4a", "i:iii", "__cu_dp4a_i32".into()));
    v.push(entry("__dp4a", "u:uuu", "__cu_dp4a_u32".into()));
    // Arithmetic with an explicit rounding mode.
    for m in ["rn", "rz", "ru", "rd"] {
        for op in ["add", "sub", "mul", "div"] {
            v.push(entry(&format!("__f{op}_{m}"), "f:ff", format!("__cu_f{op}_{m}")));
            v.push(entry(&format!("__d{op}_{m}"), "d:dd", format!("__cu_d{op}_{m}")));
        }
        v.push(entry(&format!("__fmaf_{m}"), "f:fff", format!("__cu_fmaf_{m}")));
        v.push(entry(&format!("__fma_{m}"), "d:ddd", format!("__cu_fma_{m}")));
        for (n, s) in [("frcp", "f:f"), ("drcp", "d:d"), ("fsqrt", "f:f"), ("dsqrt", "d:d")] {
            v.push(entry(&format!("__{n}_{m}"), s, format!("__cu_{n}_{m}")));
        }
        for (n, s) in [
            ("float2int", "i:f"), ("float2uint", "u:f"), ("float2ll", "l:f"), ("float2ull", "L:f"),
            ("double2int", "i:d"), ("double2uint", "u:d"), ("double2ll", "l:d"), ("double2ull", "L:d"),
            ("int2float", "f:i"), ("uint2float", "f:u"), ("ll2float", "f:l"), ("ull2float", "f:L"),
            ("ll2double", "d:l"), ("ull2double", "d:L"), ("double2float", "f:d"),
        ] {
            v.push(entry(&format!("__{n}_{m}"), s, format!("__cu_{n}_{m}")));
        }
    }
    v
}

/// Picks the C function for a call of `name` with these operand and result types:
/// an exact match of the operand types, else the overload whose result type matches,
/// else the only overload (C converts the operands).
pub fn resolve_math<'a>(table: &'a [MathEntry], name: &str, args: &[Type], ret: &Type) -> Result<&'a MathEntry, String> {
    let cands: Vec<&MathEntry> = table.iter().filter(|e| e.name == name).collect();
    if cands.is_empty() {
        return Err(format!("math builtin `{name}` is not implemented by the CPU back-end"));
    }
    if let Some(e) = cands.iter().find(|e| e.params.as_slice() == args) {
        return Ok(e);
    }
    let arity: Vec<&&MathEntry> = cands.iter().filter(|e| e.params.len() == args.len()).collect();
    if arity.is_empty() {
        return Err(format!(
            "math builtin `{name}` called with {} operands, expects {}",
            args.len(),
            cands[0].params.len()
        ));
    }
    if let Some(e) = arity.iter().find(|e| &e.ret == ret) {
        return Ok(e);
    }
    Ok(arity[0])
}
