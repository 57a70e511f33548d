//! CUDA's math functions and intrinsics as PTX instructions.
//!
//! Exact and correctly rounded functions map to the instruction that computes them
//! (`sqrt.rn`, `div.rn`, `fma.rn`, `cvt.rni`, `add.rz`, ...); the fast intrinsics
//! (`__sinf`, `__expf`, ...) to the `.approx` instructions CUDA documents them as. The
//! library functions with ulp bounds (`expf`, `sinf`, ...) need device routines of our
//! own, which the back-end does not have yet: they are an error naming the function.

use super::function::Fx;
use super::inst::convert_reg;
use super::types::{class, f32_imm, Class};
use super::EmitError;
use cuprite_ir::{MathFn, Type, ValueId};

/// `ru`/`rd` in CUDA's names are `rp`/`rm` in PTX.
fn rounding(suffix: &str) -> &'static str {
    match suffix {
        "rn" => "rn",
        "rz" => "rz",
        "ru" => "rp",
        _ => "rm",
    }
}

impl<'a> Fx<'a> {
    pub fn math(&mut self, f: MathFn, args: &[ValueId], result: Option<ValueId>) -> Result<(), EmitError> {
        use MathFn::*;
        let name = f.cuda_name();
        let mut a = Vec::new();
        for x in args {
            a.push(self.v(*x)?);
        }
        let aty: Vec<Type> = args.iter().map(|x| self.vty(*x).clone()).collect();
        let rty = result.map(|r| self.vty(r).clone()).unwrap_or(Type::Void);
        let need = |fx: &Fx, n: usize| {
            if a.len() < n {
                Err(fx.err(format!("internal error: {name} needs {n} operands")))
            } else {
                Ok(())
            }
        };
        // The floating type the function computes in: its first operand's.
        let fty = aty.first().cloned().unwrap_or(Type::F32);
        let ft = if fty == Type::F64 { "f64" } else { "f32" };
        let fc = if fty == Type::F64 { Class::F64 } else { Class::F32 };
        // Result of one instruction `op.T d, a...` in the class of `ty`.
        macro_rules! one {
            ($cls:expr, $fmt:literal $(, $arg:expr)*) => {{
                let d = self.tmp($cls);
                self.emit(format!($fmt, $($arg,)* d = d));
                d
            }};
        }
        let (out, out_ty): (String, Type) = match f {
            Sqrtf | Sqrt => {
                need(self, 1)?;
                (one!(fc, "sqrt.rn.{ft} {d}, {}", a[0]), fty.clone())
            }
            Rsqrtf => {
                need(self, 1)?;
                (one!(fc, "rsqrt.approx.f32 {d}, {}", a[0]), fty.clone())
            }
            Rsqrt => {
                need(self, 1)?;
                let s = one!(Class::F64, "sqrt.rn.f64 {d}, {}", a[0]);
                (one!(Class::F64, "rcp.rn.f64 {d}, {s}"), fty.clone())
            }
            FrsqrtRn => {
                need(self, 1)?;
                // In double: sqrt and reciprocal of a float are exact enough there that the
                // final rounding to float is the only one that matters.
                let x = one!(Class::F64, "cvt.f64.f32 {d}, {}", a[0]);
                let s = one!(Class::F64, "sqrt.rn.f64 {d}, {x}");
                let r = one!(Class::F64, "rcp.rn.f64 {d}, {s}");
                (one!(Class::F32, "cvt.rn.f32.f64 {d}, {r}"), Type::F32)
            }
            Fabsf | Fabs => (one!(fc, "abs.{ft} {d}, {}", a[0]), fty.clone()),
            Floorf | Floor => (one!(fc, "cvt.rmi.{ft}.{ft} {d}, {}", a[0]), fty.clone()),
            Ceilf | Ceil => (one!(fc, "cvt.rpi.{ft}.{ft} {d}, {}", a[0]), fty.clone()),
            Truncf | Trunc => (one!(fc, "cvt.rzi.{ft}.{ft} {d}, {}", a[0]), fty.clone()),
            Rintf | Rint | Nearbyintf | Nearbyint => (one!(fc, "cvt.rni.{ft}.{ft} {d}, {}", a[0]), fty.clone()),
            Roundf | Round => {
                // Halfway cases away from zero: trunc(x) plus sign(x) when |x - trunc(x)| >= 0.5
                // (that difference is exact).
                let x = a[0].clone();
                let (half, one_) = if ft == "f32" { (f32_imm(0.5), f32_imm(1.0)) } else { (super::types::f64_imm(0.5), super::types::f64_imm(1.0)) };
                let t = one!(fc, "cvt.rzi.{ft}.{ft} {d}, {x}");
                let fr = one!(fc, "sub.rn.{ft} {d}, {x}, {t}");
                let ab = one!(fc, "abs.{ft} {d}, {fr}");
                let p = one!(Class::Pred, "setp.ge.{ft} {d}, {ab}, {half}");
                let s = one!(fc, "copysign.{ft} {d}, {x}, {one_}");
                let u = one!(fc, "add.rn.{ft} {d}, {t}, {s}");
                (one!(fc, "selp.{ft} {d}, {u}, {t}, {p}"), fty.clone())
            }
            Fminf | Fmin => (one!(fc, "min.{ft} {d}, {}, {}", a[0], a[1]), fty.clone()),
            Fmaxf | Fmax => (one!(fc, "max.{ft} {d}, {}, {}", a[0], a[1]), fty.clone()),
            Fmaf | Fma => (one!(fc, "fma.rn.{ft} {d}, {}, {}, {}", a[0], a[1], a[2]), fty.clone()),
            Copysignf | Copysign => (one!(fc, "copysign.{ft} {d}, {}, {}", a[1], a[0]), fty.clone()),
            Fdimf | Fdim => {
                let z = if ft == "f32" { f32_imm(0.0) } else { super::types::f64_imm(0.0) };
                let s = one!(fc, "sub.rn.{ft} {d}, {}, {}", a[0], a[1]);
                let p = one!(Class::Pred, "setp.le.{ft} {d}, {}, {}", a[0], a[1]);
                (one!(fc, "selp.{ft} {d}, {z}, {s}, {p}"), fty.clone())
            }
            Ldexpf | Scalbnf => {
                // In double, where x * 2^n is exact for every float x and |n| <= 300; the
                // one rounding to float gives the correctly rounded (or overflowed) result.
                let n = convert_reg(self, &a[1], &aty[1], &Type::I32)?;
                let c1 = one!(Class::B32, "max.s32 {d}, {n}, -300");
                let c2 = one!(Class::B32, "min.s32 {d}, {c1}, 300");
                let e = one!(Class::B32, "add.s32 {d}, {c2}, 1023");
                let e64 = one!(Class::B64, "cvt.u64.u32 {d}, {e}");
                let bits = one!(Class::B64, "shl.b64 {d}, {e64}, 52");
                let scale = one!(Class::F64, "mov.b64 {d}, {bits}");
                let x = one!(Class::F64, "cvt.f64.f32 {d}, {}", a[0]);
                let y = one!(Class::F64, "mul.rn.f64 {d}, {x}, {scale}");
                (one!(Class::F32, "cvt.rn.f32.f64 {d}, {y}"), Type::F32)
            }
            Isnanf | Isnan => (one!(Class::Pred, "testp.notanumber.{ft} {d}, {}", a[0]), Type::Bool),
            Isinff | Isinf => (one!(Class::Pred, "testp.infinite.{ft} {d}, {}", a[0]), Type::Bool),
            Isfinitef | Isfinite => (one!(Class::Pred, "testp.finite.{ft} {d}, {}", a[0]), Type::Bool),
            Signbitf => {
                let b = one!(Class::B32, "mov.b32 {d}, {}", a[0]);
                (one!(Class::Pred, "setp.lt.s32 {d}, {b}, 0"), Type::Bool)
            }
            Signbit => {
                let b = one!(Class::B64, "mov.b64 {d}, {}", a[0]);
                (one!(Class::Pred, "setp.lt.s64 {d}, {b}, 0"), Type::Bool)
            }
            Saturatef | Saturate => (one!(Class::F32, "cvt.sat.f32.f32 {d}, {}", a[0]), Type::F32),
            // a * (1/b): 0 for 2^126 < |b| < 2^128 (NaN for infinite a), as CUDA documents.
            Fdividef | FastFdividef | Fdivide => (one!(Class::F32, "div.approx.f32 {d}, {}, {}", a[0], a[1]), Type::F32),
            FtzF32 => {
                // |x| below the smallest normal (zeros and subnormals) becomes the zero of its sign;
                // every other value (NaNs too) keeps its bits.
                let m = one!(Class::F32, "abs.f32 {d}, {}", a[0]);
                let p = one!(Class::Pred, "setp.lt.f32 {d}, {m}, 0f00800000");
                let b = one!(Class::B32, "mov.b32 {d}, {}", a[0]);
                let s = one!(Class::B32, "and.b32 {d}, {b}, -2147483648");
                let z = one!(Class::F32, "mov.b32 {d}, {s}");
                (one!(Class::F32, "selp.f32 {d}, {z}, {}, {p}", a[0]), Type::F32)
            }
            FastSinf => (one!(Class::F32, "sin.approx.f32 {d}, {}", a[0]), Type::F32),
            FastCosf => (one!(Class::F32, "cos.approx.f32 {d}, {}", a[0]), Type::F32),
            FastTanf => {
                let s = one!(Class::F32, "sin.approx.f32 {d}, {}", a[0]);
                let c = one!(Class::F32, "cos.approx.f32 {d}, {}", a[0]);
                (one!(Class::F32, "div.full.f32 {d}, {s}, {c}"), Type::F32)
            }
            FastExpf | FastExp10f => {
                let k = if f == FastExpf { std::f32::consts::LOG2_E } else { std::f32::consts::LOG2_10 };
                let t = one!(Class::F32, "mul.rn.f32 {d}, {}, {}", a[0], f32_imm(k));
                (one!(Class::F32, "ex2.approx.f32 {d}, {t}"), Type::F32)
            }
            Expf => {
                need(self, 1)?;
                // CUDA's expf (2 ulp, as its guide documents), inline as nvcc writes it:
                // e^x = 2^k * 2^r, k = n - 126 with n = floor(252 * sat(x*log2(e)/256 + 1/2))
                // formed in the low bits of 1.5*2^23 + 1 + n (so 2^k is those bits shifted
                // into the exponent field), r = x*log2(e) - k in two parts, 2^r by
                // `ex2.approx` (|r| < 2 where the result is finite and not tiny).
                // Saturation keeps k in [-126, 126]; overflow, underflow to 0 and NaN come
                // from 2^r, subnormal results from the final product.
                let x = &a[0];
                let t = one!(Class::F32, "fma.rn.f32 {d}, {x}, 0f3BBB989D, 0f3F000000");
                let s = one!(Class::F32, "cvt.sat.f32.f32 {d}, {t}");
                let j = one!(Class::F32, "fma.rm.f32 {d}, {s}, 0f437C0000, 0f4B400001");
                let k = one!(Class::F32, "add.rn.f32 {d}, {j}, 0fCB40007F");
                let nk = one!(Class::F32, "neg.f32 {d}, {k}");
                let hi = one!(Class::F32, "fma.rn.f32 {d}, {x}, 0f3FB8AA3B, {nk}");
                let r = one!(Class::F32, "fma.rn.f32 {d}, {x}, 0f32A57060, {hi}");
                let jb = one!(Class::B32, "mov.b32 {d}, {j}");
                let sb = one!(Class::B32, "shl.b32 {d}, {jb}, 23");
                let scale = one!(Class::F32, "mov.b32 {d}, {sb}");
                let e = one!(Class::F32, "ex2.approx.ftz.f32 {d}, {r}");
                (one!(Class::F32, "mul.rn.f32 {d}, {e}, {scale}"), Type::F32)
            }
            FastLog2f => (one!(Class::F32, "lg2.approx.f32 {d}, {}", a[0]), Type::F32),
            FastLogf | FastLog10f => {
                let k = if f == FastLogf { std::f32::consts::LN_2 } else { std::f32::consts::LOG10_2 };
                let t = one!(Class::F32, "lg2.approx.f32 {d}, {}", a[0]);
                (one!(Class::F32, "mul.rn.f32 {d}, {t}, {}", f32_imm(k)), Type::F32)
            }
            FastPowf => {
                let l = one!(Class::F32, "lg2.approx.f32 {d}, {}", a[0]);
                let t = one!(Class::F32, "mul.rn.f32 {d}, {l}, {}", a[1]);
                (one!(Class::F32, "ex2.approx.f32 {d}, {t}"), Type::F32)
            }
            FastSincosf => {
                need(self, 3)?;
                let s = one!(Class::F32, "sin.approx.f32 {d}, {}", a[0]);
                let c = one!(Class::F32, "cos.approx.f32 {d}, {}", a[0]);
                self.emit(format!("st.f32 [{}], {s}", a[1]));
                self.emit(format!("st.f32 [{}], {c}", a[2]));
                return Ok(());
            }
            Modff | Modf => {
                need(self, 2)?;
                let x = a[0].clone();
                let t = one!(fc, "cvt.rzi.{ft}.{ft} {d}, {x}");
                self.emit(format!("st.{ft} [{}], {t}", a[1]));
                let fr = one!(fc, "sub.rn.{ft} {d}, {x}, {t}");
                let inf = one!(Class::Pred, "testp.infinite.{ft} {d}, {x}");
                let z = if ft == "f32" { f32_imm(0.0) } else { super::types::f64_imm(0.0) };
                let fr2 = one!(fc, "selp.{ft} {d}, {z}, {fr}, {inf}");
                (one!(fc, "copysign.{ft} {d}, {x}, {fr2}"), fty.clone())
            }
            Popc => (one!(Class::B32, "popc.b32 {d}, {}", a[0]), Type::U32),
            Popcll => (one!(Class::B32, "popc.b64 {d}, {}", a[0]), Type::U32),
            Clz => (one!(Class::B32, "clz.b32 {d}, {}", a[0]), Type::U32),
            Clzll => (one!(Class::B32, "clz.b64 {d}, {}", a[0]), Type::U32),
            Ffs => {
                let r = one!(Class::B32, "brev.b32 {d}, {}", a[0]);
                let p = one!(Class::B32, "bfind.shiftamt.u32 {d}, {r}");
                (one!(Class::B32, "add.s32 {d}, {p}, 1"), Type::I32)
            }
            Ffsll => {
                let r = one!(Class::B64, "brev.b64 {d}, {}", a[0]);
                let p = one!(Class::B32, "bfind.shiftamt.u64 {d}, {r}");
                (one!(Class::B32, "add.s32 {d}, {p}, 1"), Type::I32)
            }
            Brev => (one!(Class::B32, "brev.b32 {d}, {}", a[0]), Type::U32),
            Brevll => (one!(Class::B64, "brev.b64 {d}, {}", a[0]), Type::U64),
            Mul24 => (one!(Class::B32, "mul24.lo.s32 {d}, {}, {}", a[0], a[1]), Type::I32),
            Umul24 => (one!(Class::B32, "mul24.lo.u32 {d}, {}, {}", a[0], a[1]), Type::U32),
            Mulhi => (one!(Class::B32, "mul.hi.s32 {d}, {}, {}", a[0], a[1]), Type::I32),
            Umulhi => (one!(Class::B32, "mul.hi.u32 {d}, {}, {}", a[0], a[1]), Type::U32),
            Mul64hi => (one!(Class::B64, "mul.hi.s64 {d}, {}, {}", a[0], a[1]), Type::I64),
            Umul64hi => (one!(Class::B64, "mul.hi.u64 {d}, {}, {}", a[0], a[1]), Type::U64),
            Sad => (one!(Class::B32, "sad.s32 {d}, {}, {}, {}", a[0], a[1], a[2]), Type::U32),
            Usad => (one!(Class::B32, "sad.u32 {d}, {}, {}, {}", a[0], a[1], a[2]), Type::U32),
            BytePerm => (one!(Class::B32, "prmt.b32 {d}, {}, {}, {}", a[0], a[1], a[2]), Type::U32),
            FunnelshiftL => (one!(Class::B32, "shf.l.wrap.b32 {d}, {}, {}, {}", a[0], a[1], a[2]), Type::U32),
            FunnelshiftLc => (one!(Class::B32, "shf.l.clamp.b32 {d}, {}, {}, {}", a[0], a[1], a[2]), Type::U32),
            FunnelshiftR => (one!(Class::B32, "shf.r.wrap.b32 {d}, {}, {}, {}", a[0], a[1], a[2]), Type::U32),
            FunnelshiftRc => (one!(Class::B32, "shf.r.clamp.b32 {d}, {}, {}, {}", a[0], a[1], a[2]), Type::U32),
            Hadd | Rhadd | Uhadd | Urhadd => {
                // In 64 bits, where the sum cannot overflow.
                let signed = matches!(f, Hadd | Rhadd);
                let (ext, s64) = if signed { ("cvt.s64.s32", "s64") } else { ("cvt.u64.u32", "u64") };
                let x = one!(Class::B64, "{ext} {d}, {}", a[0]);
                let y = one!(Class::B64, "{ext} {d}, {}", a[1]);
                let mut s = one!(Class::B64, "add.s64 {d}, {x}, {y}");
                if matches!(f, Rhadd | Urhadd) {
                    s = one!(Class::B64, "add.s64 {d}, {s}, 1");
                }
                let h = one!(Class::B64, "shr.{s64} {d}, {s}, 1");
                (one!(Class::B32, "cvt.u32.u64 {d}, {h}"), if signed { Type::I32 } else { Type::U32 })
            }
            Dp4a => {
                if fty == Type::U32 {
                    (one!(Class::B32, "dp4a.u32.u32 {d}, {}, {}, {}", a[0], a[1], a[2]), Type::U32)
                } else {
                    (one!(Class::B32, "dp4a.s32.s32 {d}, {}, {}, {}", a[0], a[1], a[2]), Type::I32)
                }
            }
            Min | Max | Umin | Umax | Llmin | Llmax | Ullmin | Ullmax => {
                let op = if matches!(f, Min | Umin | Llmin | Ullmin) { "min" } else { "max" };
                let (s, c, t) = match fty {
                    Type::I64 => ("s64", Class::B64, Type::I64),
                    Type::U64 => ("u64", Class::B64, Type::U64),
                    Type::U32 => ("u32", Class::B32, Type::U32),
                    _ => ("s32", Class::B32, Type::I32),
                };
                (one!(c, "{op}.{s} {d}, {}, {}", a[0], a[1]), t)
            }
            Abs | Labs | Llabs => match fty {
                Type::I64 => (one!(Class::B64, "abs.s64 {d}, {}", a[0]), Type::I64),
                _ => (one!(Class::B32, "abs.s32 {d}, {}", a[0]), Type::I32),
            },
            Double2Hiint | Double2Loint => {
                let (lo, hi) = (self.tmp(Class::B32), self.tmp(Class::B32));
                self.emit(format!("mov.b64 {{{lo}, {hi}}}, {}", a[0]));
                (if f == Double2Hiint { hi } else { lo }, Type::I32)
            }
            Hiloint2Double => (one!(Class::F64, "mov.b64 {d}, {{{}, {}}}", a[1], a[0]), Type::F64),
            FloatAsInt | FloatAsUint => (one!(Class::B32, "mov.b32 {d}, {}", a[0]), Type::I32),
            IntAsFloat | UintAsFloat => (one!(Class::F32, "mov.b32 {d}, {}", a[0]), Type::F32),
            DoubleAsLonglong => (one!(Class::B64, "mov.b64 {d}, {}", a[0]), Type::I64),
            LonglongAsDouble => (one!(Class::F64, "mov.b64 {d}, {}", a[0]), Type::F64),
            Int2DoubleRn => (one!(Class::F64, "cvt.rn.f64.s32 {d}, {}", a[0]), Type::F64),
            Uint2DoubleRn => (one!(Class::F64, "cvt.rn.f64.u32 {d}, {}", a[0]), Type::F64),
            Float2Double => (one!(Class::F64, "cvt.f64.f32 {d}, {}", a[0]), Type::F64),
            CupriteTexFetch | CupriteTexFetchInt | CupriteSurfAccess => {
                return self.texture_builtin(f, args);
            }
            _ => {
                if let Some(r) = self.rounded(f, &a, &aty)? {
                    r
                } else {
                    return Err(self.err(format!(
                        "math function '{name}' is not implemented by the PTX back-end yet (it needs a device routine with CUDA's accuracy)"
                    )));
                }
            }
        };
        self.define(result, &out, &out_ty)?;
        let _ = rty;
        Ok(())
    }

    /// The functions whose names carry a rounding mode: `__fadd_rz`, `__float2int_rd`, ...
    fn rounded(&mut self, f: MathFn, a: &[String], aty: &[Type]) -> Result<Option<(String, Type)>, EmitError> {
        let name = f.cuda_name();
        let Some((stem, mode)) = name.rsplit_once('_') else { return Ok(None) };
        if !matches!(mode, "rn" | "rz" | "ru" | "rd") {
            return Ok(None);
        }
        let rnd = rounding(mode);
        let stem = stem.trim_start_matches("__");
        let arith = |op: &str| -> Option<(&'static str, Class, Type, usize)> {
            let (ft, c, t) = match op.chars().next()? {
                'f' => ("f32", Class::F32, Type::F32),
                'd' => ("f64", Class::F64, Type::F64),
                _ => return None,
            };
            let n = match &op[1..] {
                "add" | "sub" | "mul" | "div" => 2,
                "rcp" | "sqrt" => 1,
                "maf" | "ma" => 3,
                _ => return None,
            };
            Some((ft, c, t, n))
        };
        if let Some((ft, c, t, n)) = arith(stem) {
            if a.len() < n {
                return Err(self.err(format!("internal error: {name} needs {n} operands")));
            }
            let op = match &stem[1..] {
                "maf" | "ma" => "fma",
                other => other,
            };
            let d = self.tmp(c);
            self.emit(format!("{op}.{rnd}.{ft} {d}, {}", a[..n].join(", ")));
            return Ok(Some((d, t)));
        }
        // Conversions: `<from>2<to>` with from/to in float, double, int, uint, ll, ull.
        let Some((from, to)) = stem.split_once('2') else { return Ok(None) };
        let ty_of = |s: &str| -> Option<(&'static str, Type)> {
            Some(match s {
                "float" => ("f32", Type::F32),
                "double" => ("f64", Type::F64),
                "int" => ("s32", Type::I32),
                "uint" => ("u32", Type::U32),
                "ll" => ("s64", Type::I64),
                "ull" => ("u64", Type::U64),
                _ => return None,
            })
        };
        let (Some((fs, _)), Some((ts, tt))) = (ty_of(from), ty_of(to)) else { return Ok(None) };
        if a.is_empty() {
            return Err(self.err(format!("internal error: {name} needs an operand")));
        }
        let src = convert_reg(self, &a[0], &aty[0], &ty_of(from).unwrap().1)?;
        let to_int = !ts.starts_with('f');
        let mode = if to_int { format!("{rnd}i") } else { rnd.to_string() };
        let d = self.tmp(class(&tt).unwrap());
        self.emit(format!("cvt.{mode}.{ts}.{fs} {d}, {src}"));
        Ok(Some((d, tt)))
    }
}
