//! `cvt`: conversions between integer and float types with PTX's rounding modes and
//! saturation, and f16/bf16 conversions done on their bits.

use super::body::Lowerer;
use super::inst::{rounding, types};
use super::{ir_type, lerr, LResult};
use crate::isa::ScalarType;
use crate::parse::Inst;
use cuprite_ir::{BinaryOp as B, Const, InstKind as IK, MathFn as M, Type, ValueId};

impl Lowerer<'_> {
    pub(crate) fn cvt(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["rni", "rzi", "rmi", "rpi", "sat", "relu", "satfinite"])?;
        if i.has("relu") || i.has("satfinite") {
            return self.unsupported(i);
        }
        let tys = types(i);
        if i.operands.len() == 3 && matches!(tys[..], [ScalarType::F16x2, ScalarType::F32] | [ScalarType::Bf16x2, ScalarType::F32]) && rounding(i).unwrap_or("rn") == "rn" && !i.has("sat") {
            let bf = tys[0] == ScalarType::Bf16x2;
            let mut out = self.int(0, &Type::U32);
            for (k, shift) in [(1, 16), (2, 0)] {
                let f = self.read(&i.operands[k], ScalarType::F32, i.loc)?;
                let h = if bf { self.f32_to_bf16_rn(f) } else { self.f32_to_half_rn(f) };
                let h = self.cast(h, &Type::U32);
                let h = self.bin_k(B::Shl, h, shift);
                out = self.bin(B::Or, out, h);
            }
            return self.write(&i.operands[0], out, i.loc);
        }
        self.nops(i, 2)?;
        let [dt, st] = tys[..] else { return lerr(i.loc, format!("'{}' needs a destination and a source type", i.name())) };
        if matches!(dt, ScalarType::F16x2 | ScalarType::Bf16x2) || matches!(st, ScalarType::F16x2 | ScalarType::Bf16x2) {
            return self.unsupported(i);
        }
        let a = self.read(&i.operands[1], st, i.loc)?;
        let r = self.convert(i, dt, st, a)?;
        self.write(&i.operands[0], r, i.loc)
    }

    fn convert(&mut self, i: &Inst, dt: ScalarType, st: ScalarType, a: ValueId) -> LResult<ValueId> {
        use ScalarType::*;
        let rnd = rounding(i);
        let sat = i.has("sat");
        // Half-precision sources become f32 (exactly); half destinations come from f32.
        if matches!(st, F16 | Bf16) {
            let f = if st == F16 { self.half_to_f32(a) } else { self.bf16_to_f32(a) };
            return self.convert(i, dt, F32, f);
        }
        if matches!(dt, F16 | Bf16) {
            let int_rounding = i.mods.iter().any(|m| matches!(m.as_str(), "rni" | "rzi" | "rmi" | "rpi"));
            let mode = if int_rounding { "rn" } else { rnd.unwrap_or("rn") };
            let f = if st == F32 {
                if int_rounding {
                    // cvt.rXi.f16.f16 came here widened: round to an integer in f32 (exact).
                    self.convert_plain(i, F32, F32, a, rnd)?
                } else {
                    a
                }
            } else if mode == "rn" {
                // Through an f32 rounded to odd, so that the second rounding to nearest
                // gives the correctly rounded half (two round-to-nearest steps can differ
                // from one in rare ties).
                let d = if st == F64 { a } else { self.int_to_f64_for_odd(a, st) };
                self.f64_to_f32_odd(d)
            } else if st == F64 {
                // f64 → f32 in the same mode first: directed roundings compose exactly.
                self.convert_plain(i, F32, F64, a, Some(mode))?
            } else {
                self.convert_plain(i, F32, st, a, Some(mode))?
            };
            let f = if sat { self.saturatef(f) } else { f };
            let bf = dt == Bf16;
            let h = if bf { self.f32_to_bf16_rn(f) } else { self.f32_to_half_rn(f) };
            let h = if mode == "rn" { h } else { self.directed_half(h, f, mode, bf) };
            if st == F64 {
                // An f64 NaN becomes the quiet NaN of its sign, 0x7e00 (f16) or 0x7fc0
                // (bf16), not the canonical 0x7fff (measured on the H100:
                // conf/half_conversions, conf/bf16_conversions).
                let isnan = self.bin(B::Ne, a, a);
                let bits = self.emit(IK::Bitcast(a), Type::U64);
                let sign = self.bin_k(B::Shr, bits, 48);
                let sign = self.cast(sign, &Type::U16);
                let sign = self.bin_k(B::And, sign, 0x8000);
                let quiet = self.bin_k(B::Or, sign, if bf { 0x7fc0 } else { 0x7e00 });
                let ht = self.vty(h);
                let quiet = self.cast(quiet, &ht);
                return Ok(self.select(isnan, quiet, h));
            }
            return Ok(h);
        }
        self.convert_plain(i, dt, st, a, rnd)
    }

    /// f64 → f32 rounded to odd (`Lowerer::round_to_odd`).
    fn f64_to_f32_odd(&mut self, d: ValueId) -> ValueId {
        let f = self.cast(d, &Type::F32);
        let back = self.cast(f, &Type::F64);
        let rest = self.bin(B::Sub, d, back);
        self.round_to_odd(f, rest, &Type::U32)
    }

    /// An integer as an f64 that rounds to 24 bits (and fewer) as the integer does: exact
    /// up to 53 significant bits; beyond, the bits below bit 11 of the magnitude are
    /// folded into a sticky bit 11, which makes it exact in f64 and keeps every rounding
    /// to float precision unchanged.
    fn int_to_f64_for_odd(&mut self, a: ValueId, st: ScalarType) -> ValueId {
        let signed = st.is_signed();
        if !matches!(st, ScalarType::S64 | ScalarType::U64 | ScalarType::B64) {
            return self.cast(a, &Type::F64);
        }
        let x = self.cast(a, &Type::I64);
        let (mag, neg) = if signed {
            let zero = self.int(0, &Type::I64);
            let neg = self.bin(B::Lt, x, zero);
            let minus = self.bin(B::Sub, zero, x);
            let m = self.select(neg, minus, x);
            (self.cast(m, &Type::U64), Some(neg))
        } else {
            (self.cast(a, &Type::U64), None)
        };
        let low = self.bin_k(B::And, mag, 0x7ff);
        let inexact = self.bin_k(B::Ne, low, 0);
        let cleared = self.bin_k(B::And, mag, !0x7ff);
        let sticky = self.bin_k(B::Or, cleared, 0x800);
        let folded = self.select(inexact, sticky, cleared);
        let big = self.bin_k(B::Shr, mag, 53);
        let big = self.bin_k(B::Ne, big, 0);
        let m = self.select(big, folded, mag);
        let d = self.cast(m, &Type::F64);
        match neg {
            Some(n) => {
                let nd = self.emit(IK::Unary(cuprite_ir::UnaryOp::Neg, d), Type::F64);
                self.select(n, nd, d)
            }
            None => d,
        }
    }

    fn convert_plain(&mut self, i: &Inst, dt: ScalarType, st: ScalarType, a: ValueId, rnd: Option<&str>) -> LResult<ValueId> {
        use ScalarType::*;
        let sat = i.has("sat");
        let dty = ir_type(dt).unwrap();
        let int_rounding = i.mods.iter().any(|m| matches!(m.as_str(), "rni" | "rzi" | "rmi" | "rpi"));
        match (dt.is_float(), st.is_float()) {
            (false, false) => {
                // Integer to integer: clamp to the destination's range with .sat, else wrap.
                let v = if sat { self.clamp_to(a, st, dt) } else { a };
                Ok(self.cast(v, &dty))
            }
            (true, true) => {
                let f32d = dt == F32;
                let v = if dt == st {
                    if int_rounding {
                        let f = match (rnd.unwrap_or("rn"), f32d) {
                            ("rn", true) => M::Rintf,
                            ("rz", true) => M::Truncf,
                            ("rm", true) => M::Floorf,
                            ("rp", true) => M::Ceilf,
                            ("rn", false) => M::Rint,
                            ("rz", false) => M::Trunc,
                            ("rm", false) => M::Floor,
                            _ => M::Ceil,
                        };
                        self.math(f, vec![a], dty.clone())
                    } else {
                        a
                    }
                } else if f32d {
                    match rnd.unwrap_or("rn") {
                        "rn" => self.cast(a, &Type::F32),
                        "rz" => self.math(M::Double2FloatRz, vec![a], Type::F32),
                        "rm" => self.math(M::Double2FloatRd, vec![a], Type::F32),
                        _ => self.math(M::Double2FloatRu, vec![a], Type::F32),
                    }
                } else {
                    self.cast(a, &Type::F64)
                };
                if !sat {
                    return Ok(v);
                }
                Ok(if f32d {
                    self.saturatef(v)
                } else {
                    let z = self.emit(IK::Const(Const::F64(0.0)), Type::F64);
                    let o = self.emit(IK::Const(Const::F64(1.0)), Type::F64);
                    let m = self.math(M::Fmax, vec![v, z], Type::F64);
                    self.math(M::Fmin, vec![m, o], Type::F64)
                })
            }
            (false, true) => {
                // Float to integer: the 32/64-bit conversions saturate and map NaN to 0;
                // narrower destinations are clamped from the 32-bit result.
                let Some(r) = rnd else { return lerr(i.loc, format!("'{}': a float-to-integer cvt needs a rounding modifier (.rni, .rzi, ...)", i.name())) };
                let f32s = st == F32;
                let (wide, wide_st) = match (dt.size(), dt.is_signed()) {
                    (8, true) => (Type::I64, S64),
                    (8, false) => (Type::U64, U64),
                    (_, true) => (Type::I32, S32),
                    (_, false) => (Type::U32, U32),
                };
                let f = conv_fn(f32s, &wide, r);
                let v = self.math(f, vec![a], wide.clone());
                let v = if dt.size() < 4 { self.clamp_to(v, wide_st, dt) } else { v };
                Ok(self.cast(v, &dty))
            }
            (true, false) => {
                // Integer to float: widen small integers first.
                let (src, sty) = match (st.size(), st.is_signed()) {
                    (8, true) => (self.cast(a, &Type::I64), Type::I64),
                    (8, false) => (self.cast(a, &Type::U64), Type::U64),
                    (_, true) => (self.cast(a, &Type::I32), Type::I32),
                    (_, false) => (self.cast(a, &Type::U32), Type::U32),
                };
                let r = rnd.unwrap_or("rn");
                let f = match (dt == F32, &sty, r) {
                    (true, Type::I32, "rn") => M::Int2FloatRn,
                    (true, Type::I32, "rz") => M::Int2FloatRz,
                    (true, Type::I32, "rm") => M::Int2FloatRd,
                    (true, Type::I32, _) => M::Int2FloatRu,
                    (true, Type::U32, "rn") => M::Uint2FloatRn,
                    (true, Type::U32, "rz") => M::Uint2FloatRz,
                    (true, Type::U32, "rm") => M::Uint2FloatRd,
                    (true, Type::U32, _) => M::Uint2FloatRu,
                    (true, Type::I64, "rn") => M::Ll2FloatRn,
                    (true, Type::I64, "rz") => M::Ll2FloatRz,
                    (true, Type::I64, "rm") => M::Ll2FloatRd,
                    (true, Type::I64, _) => M::Ll2FloatRu,
                    (true, _, "rn") => M::Ull2FloatRn,
                    (true, _, "rz") => M::Ull2FloatRz,
                    (true, _, "rm") => M::Ull2FloatRd,
                    (true, _, _) => M::Ull2FloatRu,
                    (false, Type::I32, _) => M::Int2DoubleRn,
                    (false, Type::U32, _) => M::Uint2DoubleRn,
                    (false, Type::I64, "rn") => M::Ll2DoubleRn,
                    (false, Type::I64, "rz") => M::Ll2DoubleRz,
                    (false, Type::I64, "rm") => M::Ll2DoubleRd,
                    (false, Type::I64, _) => M::Ll2DoubleRu,
                    (false, _, "rn") => M::Ull2DoubleRn,
                    (false, _, "rz") => M::Ull2DoubleRz,
                    (false, _, "rm") => M::Ull2DoubleRd,
                    (false, _, _) => M::Ull2DoubleRu,
                };
                let v = self.math(f, vec![src], dty.clone());
                if sat {
                    return Ok(if dt == F32 { self.saturatef(v) } else { v });
                }
                Ok(v)
            }
        }
    }

    /// Clamps integer `v` (of PTX type `st`) to the range of `dt`, comparing only against
    /// the bounds that `st` can represent.
    fn clamp_to(&mut self, v: ValueId, st: ScalarType, dt: ScalarType) -> ValueId {
        let bits = |t: ScalarType| t.size() as u32 * 8;
        let range = |t: ScalarType| -> (i128, i128) {
            let b = bits(t);
            if t.is_signed() {
                (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
            } else {
                (0, (1i128 << b) - 1)
            }
        };
        let (slo, shi) = range(st);
        let (dlo, dhi) = range(dt);
        let t = self.vty(v);
        let mut v = v;
        if dlo > slo {
            let lo = self.int(dlo as i64, &t);
            let below = self.bin(B::Lt, v, lo);
            v = self.select(below, lo, v);
        }
        if dhi < shi {
            let hi = self.int(dhi as i64, &t);
            let above = self.bin(B::Gt, v, hi);
            v = self.select(above, hi, v);
        }
        v
    }

    /// Turns the round-to-nearest half `h` of `f` into the directed rounding `mode`: when
    /// `h` lies on the wrong side of `f`, it moves one step (one unit of its magnitude
    /// bits) the other way.
    fn directed_half(&mut self, h: ValueId, f: ValueId, mode: &str, bf: bool) -> ValueId {
        let back = self.widen_half(h, bf);
        let u = Type::U16;
        let sign = self.bin_k(B::And, h, 0x8000);
        let neg = self.bin_k(B::Ne, sign, 0);
        let down = self.bin_k(B::Sub, h, 1);
        let up = self.bin_k(B::Add, h, 1);
        let (cond, step) = match mode {
            "rz" => {
                let fa = self.math(M::Fabsf, vec![f], Type::F32);
                let ba = self.math(M::Fabsf, vec![back], Type::F32);
                (self.bin(B::Gt, ba, fa), down)
            }
            "rm" => (self.bin(B::Gt, back, f), self.select(neg, up, down)),
            _ => (self.bin(B::Lt, back, f), self.select(neg, down, up)),
        };
        let _ = u;
        self.select(cond, step, h)
    }

    pub(crate) fn bf16_to_f32(&mut self, h: ValueId) -> ValueId {
        let h = self.cast(h, &Type::U32);
        let k = self.int(16, &Type::U32);
        let b = self.bin(B::Shl, h, k);
        self.emit(IK::Bitcast(b), Type::F32)
    }

    /// f32 → bf16, round to nearest even; NaN stays a (quiet) NaN.
    pub(crate) fn f32_to_bf16_rn(&mut self, f: ValueId) -> ValueId {
        let u = Type::U32;
        let b = self.emit(IK::Bitcast(f), u.clone());
        let k16 = self.int(16, &u);
        let one = self.int(1, &u);
        let lsb = self.bin(B::Shr, b, k16);
        let lsb = self.bin(B::And, lsb, one);
        let bias = self.int(0x7fff, &u);
        let bias = self.bin(B::Add, bias, lsb);
        let r = self.bin(B::Add, b, bias);
        let r = self.bin(B::Shr, r, k16);
        let hi = self.bin(B::Shr, b, k16);
        let _ = hi;
        let qnan = self.int(0x7fff, &u);
        let nan = self.bin(B::Ne, f, f);
        let r = self.select(nan, qnan, r);
        self.cast(r, &Type::U16)
    }

    /// f16 bits → f32, exactly (subnormals normalised with a count of leading zeros).
    pub(crate) fn half_to_f32(&mut self, h: ValueId) -> ValueId {
        let u = Type::U32;
        let h = self.cast(h, &u);
        let c = |this: &mut Self, v: i64| this.int(v, &u);
        let k15 = c(self, 15);
        let sign = self.bin(B::Shr, h, k15);
        let sign = self.bin_k(B::Shl, sign, 31);
        let k10 = c(self, 10);
        let e = self.bin(B::Shr, h, k10);
        let e = self.bin_k(B::And, e, 0x1f);
        let m = self.bin_k(B::And, h, 0x3ff);
        // Normal: exponent rebias 15 → 127.
        let e_n = self.bin_k(B::Add, e, 112);
        let e_n = self.bin_k(B::Shl, e_n, 23);
        let m_n = self.bin_k(B::Shl, m, 13);
        let normal = self.bin(B::Or, e_n, m_n);
        // Inf/NaN.
        // Infinity keeps its sign; a NaN becomes the canonical NaN, as the GPU's cvt does.
        let m_zero = self.bin_k(B::Eq, m, 0);
        let canon = self.int(0x7fff_ffff, &u);
        let inf = self.int(0x7f80_0000, &u);
        let infnan = self.select(m_zero, inf, canon);
        // Subnormal: m * 2^-24, normalised: shift so the leading 1 lands on bit 10.
        let mi = self.cast(m, &Type::I32);
        let lz = self.math(M::Clz, vec![mi], Type::I32);
        let lz = self.cast(lz, &u);
        let sh = self.bin_k(B::Sub, lz, 21);
        let mn = self.bin(B::Shl, m, sh);
        let mn = self.bin_k(B::And, mn, 0x3ff);
        let mn = self.bin_k(B::Shl, mn, 13);
        let es = self.k_bin(B::Sub, 113, sh);
        let es = self.bin_k(B::Shl, es, 23);
        let sub = self.bin(B::Or, es, mn);
        let zero_m = self.bin_k(B::Eq, m, 0);
        let zero_e = self.bin_k(B::Eq, e, 0);
        let max_e = self.bin_k(B::Eq, e, 31);
        let z = c(self, 0);
        let zsub = self.select(zero_m, z, sub);
        let r = self.select(zero_e, zsub, normal);
        let r = self.bin(B::Or, r, sign);
        // e == 31: infinity (m == 0) keeps its sign, NaN becomes the canonical NaN.
        let signed_inf = self.bin(B::Or, infnan, sign);
        let special = self.select(m_zero, signed_inf, canon);
        let r = self.select(max_e, special, r);
        self.emit(IK::Bitcast(r), Type::F32)
    }

    /// f32 → f16 bits, round to nearest even (overflow to infinity, subnormals kept).
    pub(crate) fn f32_to_half_rn(&mut self, f: ValueId) -> ValueId {
        let u = Type::U32;
        let c = |this: &mut Self, v: i64| this.int(v, &u);
        let b = self.emit(IK::Bitcast(f), u.clone());
        let sign = self.bin_k(B::Shr, b, 16);
        let sign = self.bin_k(B::And, sign, 0x8000);
        let abs = self.bin_k(B::And, b, 0x7fff_ffff);
        // NaN → quiet NaN keeping the top payload bits; Inf and overflow → Inf.
        let is_nan = self.bin_k(B::Gt, abs, 0x7f80_0000);
        let payload = self.bin_k(B::Shr, abs, 13);
        let payload = self.bin_k(B::And, payload, 0x3ff);
        let nan = self.bin_k(B::Or, payload, 0x7e00);
        let overflow = self.bin_k(B::Ge, abs, 0x477f_f000);
        // Normal range: abs >= 2^-14 (0x38800000). Rebias and round the 13 dropped bits.
        let t = self.bin_k(B::Sub, abs, 0x3800_0000);
        let lsb = self.bin_k(B::Shr, t, 13);
        let lsb = self.bin_k(B::And, lsb, 1);
        let t = self.bin_k(B::Add, t, 0xfff);
        let t = self.bin(B::Add, t, lsb);
        let normal = self.bin_k(B::Shr, t, 13);
        // Subnormal: value = abs * 2^24 as an integer, rounded to nearest even.
        // m = 1.mant (24 bits), shift right by (126 - exp) - 24 + 24... computed directly.
        let e = self.bin_k(B::Shr, abs, 23);
        let mant = self.bin_k(B::And, abs, 0x7f_ffff);
        let m = self.bin_k(B::Or, mant, 0x80_0000);
        // half subnormal unit is 2^-24; abs = m * 2^(e-150); count = m >> (126 - e).
        let shift = self.k_bin(B::Sub, 126, e);
        let big = self.bin_k(B::Gt, shift, 31);
        let k = c(self, 31);
        let shift = self.select(big, k, shift);
        let q = self.bin(B::Shr, m, shift);
        let one = c(self, 1);
        let sm1 = self.bin(B::Sub, shift, one);
        let half_bit = self.bin(B::Shl, one, sm1);
        let rest_mask = self.bin(B::Shl, one, shift);
        let rest_mask = self.bin(B::Sub, rest_mask, one);
        let rest = self.bin(B::And, m, rest_mask);
        let gt_half = self.bin(B::Gt, rest, half_bit);
        let eq_half = self.bin(B::Eq, rest, half_bit);
        let qodd = self.bin(B::And, q, one);
        let odd = self.bin_k(B::Ne, qodd, 0);
        let tie_up = self.select(eq_half, odd, eq_half);
        let gtu = self.cast(gt_half, &u);
        let tiu = self.cast(tie_up, &u);
        let up = self.bin(B::Or, gtu, tiu);
        let sub = self.bin(B::Add, q, up);
        let tiny = self.bin_k(B::Lt, abs, 0x3880_0000);
        let r = self.select(tiny, sub, normal);
        let inf = c(self, 0x7c00);
        let r = self.select(overflow, inf, r);
        let r = self.bin(B::Or, r, sign);
        let canon = self.int(0x7fff, &u);
        let _ = nan;
        let r = self.select(is_nan, canon, r);
        self.cast(r, &Type::U16)
    }
}

fn conv_fn(f32s: bool, wide: &Type, r: &str) -> M {
    match (f32s, wide, r) {
        (true, Type::I32, "rn") => M::Float2IntRn,
        (true, Type::I32, "rz") => M::Float2IntRz,
        (true, Type::I32, "rm") => M::Float2IntRd,
        (true, Type::I32, _) => M::Float2IntRu,
        (true, Type::U32, "rn") => M::Float2UintRn,
        (true, Type::U32, "rz") => M::Float2UintRz,
        (true, Type::U32, "rm") => M::Float2UintRd,
        (true, Type::U32, _) => M::Float2UintRu,
        (true, Type::I64, "rn") => M::Float2LlRn,
        (true, Type::I64, "rz") => M::Float2LlRz,
        (true, Type::I64, "rm") => M::Float2LlRd,
        (true, Type::I64, _) => M::Float2LlRu,
        (true, _, "rn") => M::Float2UllRn,
        (true, _, "rz") => M::Float2UllRz,
        (true, _, "rm") => M::Float2UllRd,
        (true, _, _) => M::Float2UllRu,
        (false, Type::I32, "rn") => M::Double2IntRn,
        (false, Type::I32, "rz") => M::Double2IntRz,
        (false, Type::I32, "rm") => M::Double2IntRd,
        (false, Type::I32, _) => M::Double2IntRu,
        (false, Type::U32, "rn") => M::Double2UintRn,
        (false, Type::U32, "rz") => M::Double2UintRz,
        (false, Type::U32, "rm") => M::Double2UintRd,
        (false, Type::U32, _) => M::Double2UintRu,
        (false, Type::I64, "rn") => M::Double2LlRn,
        (false, Type::I64, "rz") => M::Double2LlRz,
        (false, Type::I64, "rm") => M::Double2LlRd,
        (false, Type::I64, _) => M::Double2LlRu,
        (false, _, "rn") => M::Double2UllRn,
        (false, _, "rz") => M::Double2UllRz,
        (false, _, "rm") => M::Double2UllRd,
        (false, _, _) => M::Double2UllRu,
    }
}
