//! Arithmetic, logic, comparison and control-flow instructions.

use super::body::{uint_of, Lowerer};
use super::fusion::Role;
use super::{ir_type, lerr, LResult};
use crate::isa::ScalarType;
use crate::parse::{Inst, Operand};
use cuprite_ir::{BinaryOp as B, Builtin, InstKind as IK, MathFn as M, Terminator, Type, UnaryOp, ValueId};

/// Modifiers that change nothing here (hints; `.ftz`, which the lowering of operands and
/// results applies, `Lowerer::flush_f32`).
const BENIGN: &[&str] = &["uni", "ftz", "approx", "full", "aligned", "sync", "noftz"];

fn is_half(t: ScalarType) -> bool {
    matches!(t, ScalarType::F16 | ScalarType::F16x2 | ScalarType::Bf16 | ScalarType::Bf16x2)
}

#[derive(Clone, Copy, PartialEq)]
enum HalfOp {
    Add,
    Sub,
    Mul,
    Fma,
    Min,
    Max,
}

pub(crate) fn types(i: &Inst) -> Vec<ScalarType> {
    i.mods.iter().filter_map(|m| ScalarType::parse(m)).collect()
}

pub(crate) fn rounding(i: &Inst) -> Option<&'static str> {
    for m in &i.mods {
        match m.as_str() {
            "rn" | "rni" => return Some("rn"),
            "rz" | "rzi" => return Some("rz"),
            "rm" | "rmi" => return Some("rm"),
            "rp" | "rpi" => return Some("rp"),
            _ => {}
        }
    }
    None
}

impl Lowerer<'_> {
    /// The instruction's (last) type modifier.
    pub(crate) fn ty(&self, i: &Inst) -> LResult<ScalarType> {
        match types(i).last() {
            Some(t) => Ok(*t),
            None => lerr(i.loc, format!("'{}' has no type", i.name())),
        }
    }

    pub(crate) fn nops(&self, i: &Inst, n: usize) -> LResult<()> {
        if i.operands.len() != n {
            return lerr(i.loc, format!("'{}' takes {n} operands, not {}", i.name(), i.operands.len()));
        }
        Ok(())
    }

    /// Refuses modifiers outside `allowed` (types, rounding modes and hints are always allowed).
    pub(crate) fn mods(&self, i: &Inst, allowed: &[&str]) -> LResult<()> {
        for m in &i.mods {
            let ok = ScalarType::parse(m).is_some() || allowed.contains(&m.as_str()) || BENIGN.contains(&m.as_str()) || matches!(m.as_str(), "rn" | "rz" | "rm" | "rp");
            if !ok {
                return lerr(i.loc, format!("'{}': the modifier '.{m}' is not supported yet", i.name()));
            }
        }
        Ok(())
    }

    pub(crate) fn unsupported<T>(&self, i: &Inst) -> LResult<T> {
        lerr(i.loc, format!("the PTX instruction '{}' is not supported yet", i.name()))
    }

    pub(crate) fn inst(&mut self, i: &Inst) -> LResult<()> {
        if self.is_workspace_access(i) {
            return self.workspace_access(i);
        }
        match self.fusion_role(i) {
            Some(Role::Product) => return self.fused_product(i),
            Some(Role::Negate) => return self.fused_negate(i),
            Some(Role::Consumer) => return self.fused_consumer(i),
            None => {}
        }
        match i.opcode.as_str() {
            "add" | "sub" | "addc" | "subc" => self.add_sub(i),
            "mul" | "mad" | "madc" | "mul24" | "mad24" | "fma" => self.mul_mad(i),
            "div" | "rem" => self.div_rem(i),
            "min" | "max" => self.min_max(i),
            "abs" | "neg" => self.abs_neg(i),
            "popc" | "clz" | "brev" | "bfind" => self.bit_count(i),
            "and" | "or" | "xor" | "not" | "cnot" => self.logic(i),
            "shl" | "shr" => self.shift(i),
            "shf" => self.funnel(i),
            "prmt" => self.prmt(i),
            "bfe" => self.bfe(i),
            "bfi" => self.bfi(i),
            "setp" | "set" => self.setp(i),
            "selp" | "slct" => self.selp(i),
            "testp" => self.testp(i),
            "copysign" | "rcp" | "sqrt" | "rsqrt" | "sin" | "cos" | "lg2" | "ex2" | "tanh" => self.float_fn(i),
            "mov" => self.mov(i),
            "cvt" => self.cvt(i),
            "cvta" => self.cvta(i),
            "ld" | "ldu" => self.ld(i),
            "st" => self.st(i),
            "atom" | "red" => self.atom(i),
            "nanosleep" => self.nanosleep(i),
            "elect" => self.elect(i),
            "mbarrier" => self.mbarrier(i),
            "prefetch" | "prefetchu" | "discard" | "pmevent" | "applypriority" | "createpolicy" => {
                if i.opcode == "createpolicy" {
                    // `createpolicy.fractional.L2::evict_last.b64 d, 1.0;`: any value will do.
                    if let Some(d) = i.operands.first() {
                        let z = self.int(0, &Type::U64);
                        self.write(d, z, i.loc)?;
                    }
                }
                Ok(())
            }
            "bar" | "barrier" => self.barrier(i),
            "membar" | "fence" => self.fence(i),
            "shfl" => self.shfl(i),
            "vote" => self.vote(i),
            "activemask" => self.activemask(i),
            "match" => self.match_(i),
            "redux" => self.redux(i),
            "bra" => {
                let b = self.label(i)?;
                self.end_block(Terminator::Jump(b));
                Ok(())
            }
            "ret" => self.ret(i),
            "exit" => {
                if self.ret_value.is_some() {
                    return lerr(i.loc, "'exit' in a function that returns a value is not supported yet");
                }
                self.end_block(Terminator::Return(None));
                Ok(())
            }
            "trap" | "brkpt" => {
                self.emit_void(IK::CallBuiltin { builtin: Builtin::Trap, args: vec![] });
                self.end_block(Terminator::Unreachable);
                Ok(())
            }
            "call" => self.call(i),
            "sad" => self.sad(i),
            "fns" => self.fns(i),
            "vabsdiff4" => self.vabsdiff4(i),
            "cp" if i.mods.starts_with(&["async".to_string(), "bulk".to_string()]) => self.cp_async_bulk(i),
            "cp" if i.mods.starts_with(&["async".to_string(), "mbarrier".to_string()]) => self.cp_async_mbarrier_arrive(i),
            "cp" if i.mods.first().map(String::as_str) == Some("async") => self.cp_async(i),
            "cp" => lerr(i.loc, format!("the PTX instruction '{}' (asynchronous copies) is not supported yet", i.name())),
            "mma" | "wgmma" | "wmma" | "ldmatrix" | "stmatrix" => {
                lerr(i.loc, format!("the PTX instruction '{}' (matrix multiply-accumulate) is not supported on the CPU device", i.name()))
            }
            "tex" | "tld4" => self.tex(i),
            "suld" | "sust" => self.surface(i),
            "sured" | "txq" | "suq" | "tld4s" | "istypep" => {
                lerr(i.loc, format!("the PTX texture/surface instruction '{}' is not supported yet", i.name()))
            }
            _ => self.unsupported(i),
        }
    }

    /// `fns.b32 d, mask, base, offset`: the position of the |offset|-th set bit of `mask`
    /// counting from bit `base` towards the most (offset > 0) or least (offset < 0)
    /// significant bit; with offset 0, `base` itself if set; 0xffffffff when there is none.
    fn fns(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &[])?;
        self.nops(i, 4)?;
        let (it, ut) = (Type::I32, Type::U32);
        let mask = self.read(&i.operands[1], ScalarType::U32, i.loc)?;
        let base = self.read(&i.operands[2], ScalarType::S32, i.loc)?;
        let off = self.read(&i.operands[3], ScalarType::S32, i.loc)?;
        let (d, pos, count) = (self.temp(ut.clone()), self.temp(it.clone()), self.temp(it.clone()));
        let none = self.int(-1, &ut);
        self.store_local(d, none);
        self.store_local(pos, base);
        // offset 0 looks at `base` alone: as a search for the first set bit that stops
        // after one step.
        let z = self.int(0, &it);
        let neg = self.bin(B::Lt, off, z);
        let minus = self.k_bin(B::Sub, 0, off);
        let mag = self.select(neg, minus, off);
        let is_zero = self.bin(B::Eq, off, z);
        let one = self.int(1, &it);
        let mag = self.select(is_zero, one, mag);
        let c0 = self.bin_k(B::Sub, mag, 1);
        self.store_local(count, c0);
        let m1 = self.int(-1, &it);
        let inc = self.select(neg, m1, one);
        let big = self.int(64, &it);
        let inc = self.select(is_zero, big, inc);
        // Values do not cross blocks: the loop reads these from locals.
        let (inc_l, mask_l) = (self.temp(it.clone()), self.temp(ut.clone()));
        self.store_local(inc_l, inc);
        self.store_local(mask_l, mask);
        let (head, body, found, next, done) = (self.s.new_block(), self.s.new_block(), self.s.new_block(), self.s.new_block(), self.s.new_block());
        self.s.terminate(Terminator::Jump(head));
        self.s.switch_to(head);
        let p = self.load_local(pos);
        let ge = self.bin_k(B::Ge, p, 0);
        let lt = self.bin_k(B::Lt, p, 32);
        let f = self.bool_const(false);
        let inside = self.select(ge, lt, f);
        self.s.terminate(Terminator::Branch { cond: inside, then: body, else_: done });
        self.s.switch_to(body);
        let p = self.load_local(pos);
        let pu = self.cast(p, &ut);
        let mask = self.load_local(mask_l);
        let bit = self.bin(B::Shr, mask, pu);
        let bit = self.bin_k(B::And, bit, 1);
        let set = self.bin_k(B::Ne, bit, 0);
        let c = self.load_local(count);
        let last = self.bin_k(B::Eq, c, 0);
        let hit = self.select(set, last, f);
        let dec = self.bin_k(B::Sub, c, 1);
        let c2 = self.select(set, dec, c);
        self.store_local(count, c2);
        self.s.terminate(Terminator::Branch { cond: hit, then: found, else_: next });
        self.s.switch_to(found);
        let p = self.load_local(pos);
        let pu = self.cast(p, &ut);
        self.store_local(d, pu);
        self.s.terminate(Terminator::Jump(done));
        self.s.switch_to(next);
        let p = self.load_local(pos);
        let inc = self.load_local(inc_l);
        let p2 = self.bin(B::Add, p, inc);
        self.store_local(pos, p2);
        self.s.terminate(Terminator::Jump(head));
        self.s.switch_to(done);
        let r = self.load_local(d);
        self.write(&i.operands[0], r, i.loc)
    }

    /// `sad.type d, a, b, c`: c + |a - b|.
    fn sad(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &[])?;
        self.nops(i, 4)?;
        let t = self.ty(i)?;
        let src = self.srcs(i, t)?;
        let gt = self.bin(B::Gt, src[0], src[1]);
        let a = self.as_uint(src[0]);
        let b = self.as_uint(src[1]);
        let d1 = self.bin(B::Sub, a, b);
        let d2 = self.bin(B::Sub, b, a);
        let d = self.select(gt, d1, d2);
        let c = self.as_uint(src[2]);
        let r = self.bin(B::Add, d, c);
        let r = self.conv(r, &ir_type(t).unwrap());
        self.write(&i.operands[0], r, i.loc)
    }

    /// `vabsdiff4.u32.u32.u32[.add] d, a, b, c`: per-byte |a - b|, summed and added to c
    /// (`.add`), or packed as bytes.
    fn vabsdiff4(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["add"])?;
        self.nops(i, 4)?;
        if types(i) != [ScalarType::U32, ScalarType::U32, ScalarType::U32] || !i.has("add") {
            return self.unsupported(i);
        }
        let a = self.read(&i.operands[1], ScalarType::U32, i.loc)?;
        let b = self.read(&i.operands[2], ScalarType::U32, i.loc)?;
        let c = self.read(&i.operands[3], ScalarType::U32, i.loc)?;
        let mut acc = if i.has("add") { c } else { self.int(0, &Type::U32) };
        for k in 0..4 {
            let sh = self.int(k * 8, &Type::U32);
            let x = self.bin(B::Shr, a, sh);
            let x = self.bin_k(B::And, x, 0xff);
            let y = self.bin(B::Shr, b, sh);
            let y = self.bin_k(B::And, y, 0xff);
            let gt = self.bin(B::Gt, x, y);
            let d1 = self.bin(B::Sub, x, y);
            let d2 = self.bin(B::Sub, y, x);
            let d = self.select(gt, d1, d2);
            let d = if i.has("add") { d } else { self.bin(B::Shl, d, sh) };
            acc = self.bin(if i.has("add") { B::Add } else { B::Or }, acc, d);
        }
        self.write(&i.operands[0], acc, i.loc)
    }

    fn ret(&mut self, _i: &Inst) -> LResult<()> {
        match self.ret_value {
            Some(l) => {
                let v = self.load_local(l);
                self.end_block(Terminator::Return(Some(v)));
            }
            None => self.end_block(Terminator::Return(None)),
        }
        Ok(())
    }

    /// Operands 1.. read as `t`.
    fn srcs(&mut self, i: &Inst, t: ScalarType) -> LResult<Vec<ValueId>> {
        let mut v = Vec::new();
        for op in &i.operands[1..] {
            v.push(self.read(op, t, i.loc)?);
        }
        Ok(v)
    }

    fn float_op(&mut self, i: &Inst, t: ScalarType, what: &str) -> LResult<()> {
        if matches!(t, ScalarType::F16 | ScalarType::F16x2 | ScalarType::Bf16 | ScalarType::Bf16x2) {
            return lerr(i.loc, format!("'{}': {what} on half-precision types is not supported yet", i.name()));
        }
        Ok(())
    }

    /// Integer arithmetic is done in the unsigned type of the instruction's size, where
    /// wrapping is defined.
    fn as_uint(&mut self, v: ValueId) -> ValueId {
        let t = uint_of(&self.vty(v));
        self.cast(v, &t)
    }

    fn add_sub(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["cc", "sat"])?;
        self.nops(i, 3)?;
        let t = self.ty(i)?;
        let sub = i.opcode.starts_with("sub");
        let op = if sub { B::Sub } else { B::Add };
        let src = self.srcs(i, t)?;
        if is_half(t) {
            return self.half_op(i, t, if sub { HalfOp::Sub } else { HalfOp::Add });
        }
        if t.is_float() {
            self.float_op(i, t, "arithmetic")?;
            let r = self.rounded(i, t, if sub { "sub" } else { "add" }, &src)?;
            let r = self.saturate(i, r);
            return self.write(&i.operands[0], r, i.loc);
        }
        if i.has("sat") {
            // Only `.s32` saturates: compute in 64 bits and clamp.
            let a = self.cast(src[0], &Type::I64);
            let b = self.cast(src[1], &Type::I64);
            let w = self.bin(op, a, b);
            let r = self.clamp_i64(w, i32::MIN as i64, i32::MAX as i64);
            let r = self.cast(r, &Type::I32);
            return self.write(&i.operands[0], r, i.loc);
        }
        let a = self.as_uint(src[0]);
        let b = self.as_uint(src[1]);
        let ut = self.vty(a);
        let with_carry = i.opcode.ends_with('c');
        let cin = if with_carry {
            let c = self.carry();
            let c = self.load_local(c);
            Some(self.cast(c, &ut))
        } else {
            None
        };
        let s1 = self.bin(op, a, b);
        let r = match cin {
            Some(c) => self.bin(op, s1, c),
            None => s1,
        };
        if i.has("cc") {
            // Carry out of a + b (+ cin), or borrow of a - b (- bin).
            let c1 = if sub { self.bin(B::Lt, a, b) } else { self.bin(B::Lt, s1, a) };
            let c = match cin {
                Some(c) => {
                    let c2 = if sub { self.bin(B::Lt, s1, c) } else { self.bin(B::Lt, r, s1) };
                    let x = self.cast(c1, &Type::U32);
                    let y = self.cast(c2, &Type::U32);
                    self.bin(B::Or, x, y)
                }
                None => self.cast(c1, &Type::U32),
            };
            let cl = self.carry();
            self.store_local(cl, c);
        }
        let r = self.conv(r, &ir_type(t).unwrap());
        self.write(&i.operands[0], r, i.loc)
    }

    pub(crate) fn clamp_i64(&mut self, v: ValueId, lo: i64, hi: i64) -> ValueId {
        let t = self.vty(v);
        let l = self.int(lo, &t);
        let h = self.int(hi, &t);
        let below = self.bin(B::Lt, v, l);
        let v = self.select(below, l, v);
        let above = self.bin(B::Gt, v, h);
        self.select(above, h, v)
    }

    /// Float add/sub/mul/div/fma in the instruction's rounding mode.
    fn rounded(&mut self, i: &Inst, t: ScalarType, op: &str, src: &[ValueId]) -> LResult<ValueId> {
        let rnd = rounding(i).unwrap_or("rn");
        let f32 = t == ScalarType::F32;
        let ty = ir_type(t).unwrap();
        if rnd == "rn" && op != "fma" {
            let bop = match op {
                "add" => B::Add,
                "sub" => B::Sub,
                "mul" => B::Mul,
                _ => B::Div,
            };
            if op == "div" && f32 && i.has("approx") {
                return Ok(self.math(M::FastFdividef, src.to_vec(), ty));
            }
            return Ok(self.bin(bop, src[0], src[1]));
        }
        let f = match (op, rnd, f32) {
            ("add", "rz", true) => M::FaddRz,
            ("add", "rm", true) => M::FaddRd,
            ("add", "rp", true) => M::FaddRu,
            ("sub", "rz", true) => M::FsubRz,
            ("sub", "rm", true) => M::FsubRd,
            ("sub", "rp", true) => M::FsubRu,
            ("mul", "rz", true) => M::FmulRz,
            ("mul", "rm", true) => M::FmulRd,
            ("mul", "rp", true) => M::FmulRu,
            ("div", "rz", true) => M::FdivRz,
            ("div", "rm", true) => M::FdivRd,
            ("div", "rp", true) => M::FdivRu,
            ("fma", "rn", true) => M::Fmaf,
            ("fma", "rz", true) => M::FmafRz,
            ("fma", "rm", true) => M::FmafRd,
            ("fma", "rp", true) => M::FmafRu,
            ("add", "rz", false) => M::DaddRz,
            ("add", "rm", false) => M::DaddRd,
            ("add", "rp", false) => M::DaddRu,
            ("sub", "rz", false) => M::DsubRz,
            ("sub", "rm", false) => M::DsubRd,
            ("sub", "rp", false) => M::DsubRu,
            ("mul", "rz", false) => M::DmulRz,
            ("mul", "rm", false) => M::DmulRd,
            ("mul", "rp", false) => M::DmulRu,
            ("div", "rz", false) => M::DdivRz,
            ("div", "rm", false) => M::DdivRd,
            ("div", "rp", false) => M::DdivRu,
            ("fma", "rn", false) => M::Fma,
            ("fma", "rz", false) => M::FmaRz,
            ("fma", "rm", false) => M::FmaRd,
            ("fma", "rp", false) => M::FmaRu,
            _ => return self.unsupported(i),
        };
        Ok(self.math(f, src.to_vec(), ty))
    }

    /// `.sat` on a float result: clamp to [0, 1], NaN to 0.
    fn saturate(&mut self, i: &Inst, v: ValueId) -> ValueId {
        if !i.has("sat") {
            return v;
        }
        match self.vty(v) {
            Type::F32 => self.saturatef(v),
            _ => {
                let z = self.emit(IK::Const(cuprite_ir::Const::F64(0.0)), Type::F64);
                let o = self.emit(IK::Const(cuprite_ir::Const::F64(1.0)), Type::F64);
                let m = self.math(M::Fmax, vec![v, z], Type::F64);
                self.math(M::Fmin, vec![m, o], Type::F64)
            }
        }
    }

    /// f16/bf16 (bits in a U16) → f32, exactly.
    pub(crate) fn widen_half(&mut self, h: ValueId, bf: bool) -> ValueId {
        if bf {
            self.bf16_to_f32(h)
        } else {
            self.half_to_f32(h)
        }
    }

    /// Half-precision arithmetic, lane by lane (one lane for .f16/.bf16, two for the
    /// x2 types, low half first): widened to f32 exactly, computed there, rounded back
    /// to nearest even. The f32 results of add, sub, mul and min/max of halves are exact
    /// or round to the same half; an fma may round twice in rare ties.
    fn half_op(&mut self, i: &Inst, t: ScalarType, op: HalfOp) -> LResult<()> {
        self.mods(i, &["sat", "relu", "NaN"])?;
        if i.has("relu") && !matches!(op, HalfOp::Fma | HalfOp::Min | HalfOp::Max) || rounding(i).is_some_and(|r| r != "rn") {
            return self.unsupported(i);
        }
        self.nops(i, if op == HalfOp::Fma { 4 } else { 3 })?;
        let bf = matches!(t, ScalarType::Bf16 | ScalarType::Bf16x2);
        let lanes = if matches!(t, ScalarType::F16x2 | ScalarType::Bf16x2) { 2 } else { 1 };
        let wt = if lanes == 2 { Type::U32 } else { Type::U16 };
        let mut srcs = Vec::new();
        for o in &i.operands[1..] {
            srcs.push(self.read_as(o, &wt, i.loc)?);
        }
        let mut out = self.int(0, &wt);
        for lane in 0..lanes {
            let mut args = Vec::new();
            for &v in &srcs {
                let x = self.bin_k(B::Shr, v, lane * 16);
                let x = self.cast(x, &Type::U16);
                args.push(self.widen_half(x, bf));
            }
            let r = match op {
                HalfOp::Add => self.bin(B::Add, args[0], args[1]),
                HalfOp::Sub => self.bin(B::Sub, args[0], args[1]),
                HalfOp::Mul => self.bin(B::Mul, args[0], args[1]),
                HalfOp::Fma => self.fma_to_odd(args[0], args[1], args[2]),
                HalfOp::Min => self.math(M::Fminf, args.clone(), Type::F32),
                HalfOp::Max => self.math(M::Fmaxf, args.clone(), Type::F32),
            };
            let r = if i.has("NaN") {
                // min.NaN/max.NaN: a NaN operand gives the canonical NaN.
                let na = self.bin(B::Ne, args[0], args[0]);
                let nb = self.bin(B::Ne, args[1], args[1]);
                let x = self.cast(na, &Type::U32);
                let y = self.cast(nb, &Type::U32);
                let any = self.bin(B::Or, x, y);
                let any = self.cast(any, &Type::Bool);
                let nan = self.emit(IK::Const(cuprite_ir::Const::F32(f32::NAN)), Type::F32);
                self.select(any, nan, r)
            } else {
                r
            };
            let r = if i.has("sat") { self.saturatef(r) } else { r };
            // .relu: a negative result (or -0) becomes +0; a NaN stays NaN.
            let r = if i.has("relu") {
                let z = self.emit(IK::Const(cuprite_ir::Const::F32(0.0)), Type::F32);
                let le = self.bin(B::Le, r, z);
                self.select(le, z, r)
            } else {
                r
            };
            let h = if bf { self.f32_to_bf16_rn(r) } else { self.f32_to_half_rn(r) };
            // A NaN result is the canonical NaN, 0x7fff (the CPU's default NaN has its sign set).
            let isnan = self.bin(B::Ne, r, r);
            let canon = self.int(0x7fff, &self.vty(h));
            let h = self.select(isnan, canon, h);
            let h = self.cast(h, &wt);
            let h = self.bin_k(B::Shl, h, lane * 16);
            out = self.bin(B::Or, out, h);
        }
        self.write(&i.operands[0], out, i.loc)
    }

    /// `tanh.approx` and `ex2.approx` on `.f16`, `.f16x2`, `.bf16`, `.bf16x2`, lane by lane:
    /// computed in f32 (more accurately than the GPU's approximation, whose error bound
    /// the result stays within) and rounded to nearest even.
    fn half_approx_fn(&mut self, i: &Inst, t: ScalarType) -> LResult<()> {
        self.nops(i, 2)?;
        let bf = matches!(t, ScalarType::Bf16 | ScalarType::Bf16x2);
        let lanes = if matches!(t, ScalarType::F16x2 | ScalarType::Bf16x2) { 2 } else { 1 };
        let wt = if lanes == 2 { Type::U32 } else { Type::U16 };
        let a = self.read_as(&i.operands[1], &wt, i.loc)?;
        let f = if i.opcode == "tanh" { M::Tanhf } else { M::Exp2f };
        let mut out = self.int(0, &wt);
        for lane in 0..lanes {
            let x = self.bin_k(B::Shr, a, lane * 16);
            let x = self.cast(x, &Type::U16);
            let x = self.widen_half(x, bf);
            let r = self.math(f, vec![x], Type::F32);
            let h = if bf { self.f32_to_bf16_rn(r) } else { self.f32_to_half_rn(r) };
            let isnan = self.bin(B::Ne, r, r);
            let canon = self.int(0x7fff, &self.vty(h));
            let h = self.select(isnan, canon, h);
            let h = self.cast(h, &wt);
            let h = self.bin_k(B::Shl, h, lane * 16);
            out = self.bin(B::Or, out, h);
        }
        self.write(&i.operands[0], out, i.loc)
    }

    /// `a * b + c` of half-precision values (widened to f32) as an f32 rounded to odd, so
    /// that rounding it to f16 or bf16 gives the correctly rounded fma: the product is
    /// exact in f64, the sum's rounding error (two-sum) makes the f64 result odd when it
    /// is inexact, and the f64 → f32 step is rounded to odd the same way.
    pub(crate) fn fma_to_odd(&mut self, a: ValueId, b: ValueId, c: ValueId) -> ValueId {
        let (f64t, u64t) = (Type::F64, Type::U64);
        let a = self.cast(a, &f64t);
        let b = self.cast(b, &f64t);
        let q = self.cast(c, &f64t);
        let p = self.bin(B::Mul, a, b);
        let s = self.bin(B::Add, p, q);
        let bp = self.bin(B::Sub, s, p);
        let sb = self.bin(B::Sub, s, bp);
        let e1 = self.bin(B::Sub, p, sb);
        let e2 = self.bin(B::Sub, q, bp);
        let err = self.bin(B::Add, e1, e2);
        let s = self.round_to_odd(s, err, &u64t);
        let f = self.cast(s, &Type::F32);
        let back = self.cast(f, &f64t);
        let rest = self.bin(B::Sub, s, back);
        self.round_to_odd(f, rest, &Type::U32)
    }

    /// `v` (rounded to nearest) moved to the odd neighbour in the direction of `err` (the
    /// exact value minus `v`) when `err` is nonzero, `v` finite and its last bit even
    /// (zero included: a sum that underflows to zero moves to the smallest subnormal).
    pub(crate) fn round_to_odd(&mut self, v: ValueId, err: ValueId, bits_t: &Type) -> ValueId {
        let et = self.vty(err);
        let vt = self.vty(v);
        let zero_e = if et == Type::F64 { self.emit(IK::Const(cuprite_ir::Const::F64(0.0)), Type::F64) } else { self.emit(IK::Const(cuprite_ir::Const::F32(0.0)), Type::F32) };
        let zero_v = if vt == Type::F64 { self.emit(IK::Const(cuprite_ir::Const::F64(0.0)), Type::F64) } else { self.emit(IK::Const(cuprite_ir::Const::F32(0.0)), Type::F32) };
        let u = self.emit(IK::Bitcast(v), bits_t.clone());
        let d = self.bin(B::Sub, v, v);
        let finite = self.bin(B::Eq, d, zero_v);
        let inexact = self.bin(B::Ne, err, zero_e);
        let low = self.bin_k(B::And, u, 1);
        let even = self.bin_k(B::Eq, low, 0);
        let f = self.bool_const(false);
        let adjust = self.select(finite, inexact, f);
        let adjust = self.select(adjust, even, f);
        let up_e = self.bin(B::Gt, err, zero_e);
        let up_v = self.bin(B::Gt, v, zero_v);
        let away = self.bin(B::Eq, up_e, up_v);
        let plus = self.bin_k(B::Add, u, 1);
        let minus = self.bin_k(B::Sub, u, 1);
        let moved = self.select(away, plus, minus);
        // From zero the odd neighbour is the smallest subnormal on err's side (moving
        // the bits of +0 down would give all ones, a NaN).
        let is_zero = self.bin(B::Eq, v, zero_v);
        let width = if *bits_t == Type::U64 { 64 } else { 32 };
        let pos_tiny = self.int(1, bits_t);
        let sign_bit = self.bin_k(B::Shl, pos_tiny, width - 1);
        let neg_tiny = self.bin_k(B::Or, sign_bit, 1);
        let down_e = self.bin(B::Lt, err, zero_e);
        let tiny = self.select(down_e, neg_tiny, pos_tiny);
        let moved = self.select(is_zero, tiny, moved);
        let r = self.select(adjust, moved, u);
        self.emit(IK::Bitcast(r), vt)
    }

    /// `setp.cmp.f16x2 p|q, a, b`: `p` compares the low halves, `q` the high ones.
    fn setp_half2(&mut self, i: &Inst, cmp: &str, t: ScalarType, combined: bool) -> LResult<()> {
        if combined {
            return self.unsupported(i);
        }
        let bf = t == ScalarType::Bf16x2;
        let a = self.read(&i.operands[1], ScalarType::U32, i.loc)?;
        let b = self.read(&i.operands[2], ScalarType::U32, i.loc)?;
        if i.opcode == "set" {
            // set.cmp.dtype.{f16x2,bf16x2}: each half of d is 1.0 (dtype f16x2/bf16x2) or
            // 0xffff (dtype u32/s32) where its comparison holds, else 0.
            let dt = types(i)[0];
            let one = match dt {
                ScalarType::F16x2 => 0x3c00,
                ScalarType::Bf16x2 => 0x3f80,
                ScalarType::U32 | ScalarType::S32 | ScalarType::B32 => 0xffff,
                _ => return self.unsupported(i),
            };
            let mut acc = self.int(0, &Type::U32);
            for lane in 0..2 {
                let x = self.bin_k(B::Shr, a, lane * 16);
                let x = self.cast(x, &Type::U16);
                let x = self.widen_half(x, bf);
                let y = self.bin_k(B::Shr, b, lane * 16);
                let y = self.cast(y, &Type::U16);
                let y = self.widen_half(y, bf);
                let c = self.compare(i, cmp, ScalarType::F32, x, y)?;
                let on = self.int(one << (lane * 16), &Type::U32);
                let off = self.int(0, &Type::U32);
                let v = self.select(c, on, off);
                acc = self.bin(B::Or, acc, v);
            }
            return self.write(&i.operands[0], acc, i.loc);
        }
        let Operand::Pair(p, q) = &i.operands[0] else { return lerr(i.loc, format!("'{}' needs two predicates p|q", i.name())) };
        for (lane, dst) in [(0, p), (1, q)] {
            let x = self.bin_k(B::Shr, a, lane * 16);
            let x = self.cast(x, &Type::U16);
            let x = self.widen_half(x, bf);
            let y = self.bin_k(B::Shr, b, lane * 16);
            let y = self.cast(y, &Type::U16);
            let y = self.widen_half(y, bf);
            let c = self.compare(i, cmp, ScalarType::F32, x, y)?;
            self.write(dst, c, i.loc)?;
        }
        Ok(())
    }

    /// Clamp to [0, 1] as `.sat` does: NaN and -0 become +0.
    pub(crate) fn saturatef(&mut self, v: ValueId) -> ValueId {
        let s = self.math(M::Saturatef, vec![v], Type::F32);
        let z = self.emit(IK::Const(cuprite_ir::Const::F32(0.0)), Type::F32);
        self.bin(B::Add, s, z)
    }

    /// `mul24`/`mad24` (PTX 1.x code uses them): the low 24 bits of each 32-bit operand,
    /// sign- or zero-extended, make a 48-bit product; `.lo` keeps its bits 0–31 and `.hi`
    /// its bits 16–47; `mad24` adds the third operand to that.
    fn mul24(&mut self, i: &Inst, t: ScalarType, is_mad: bool) -> LResult<()> {
        if t.size() != 4 || i.has("sat") || i.has("wide") || i.has("cc") {
            return self.unsupported(i);
        }
        let signed = t.is_signed();
        let wide = if signed { Type::I64 } else { Type::U64 };
        let low24 = |this: &mut Self, v: ValueId| {
            if signed {
                let x = this.cast(v, &Type::I32);
                let eight = this.int(8, &Type::I32);
                let up = this.bin(B::Shl, x, eight);
                let down = this.bin(B::Shr, up, eight);
                this.cast(down, &wide)
            } else {
                let x = this.cast(v, &Type::U32);
                let mask = this.int(0xFF_FFFF, &Type::U32);
                let m = this.bin(B::And, x, mask);
                this.cast(m, &wide)
            }
        };
        let a = self.read(&i.operands[1], t, i.loc)?;
        let b = self.read(&i.operands[2], t, i.loc)?;
        let x = low24(self, a);
        let y = low24(self, b);
        let p = self.bin(B::Mul, x, y);
        let p = self.as_uint(p);
        let part = if i.has("hi") {
            let k = self.int(16, &Type::U64);
            self.bin(B::Shr, p, k)
        } else {
            p
        };
        let mut r = self.cast(part, &Type::U32);
        if is_mad {
            let c = self.read(&i.operands[3], t, i.loc)?;
            let c = self.cast(c, &Type::U32);
            r = self.bin(B::Add, r, c);
        }
        self.write(&i.operands[0], r, i.loc)
    }

    fn mul_mad(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["lo", "hi", "wide", "cc", "sat", "relu"])?;
        let t = self.ty(i)?;
        if i.has("relu") && !is_half(t) {
            return self.unsupported(i);
        }
        let is_mad = i.opcode != "mul" && i.opcode != "mul24";
        self.nops(i, if is_mad { 4 } else { 3 })?;
        if is_half(t) {
            return self.half_op(i, t, if is_mad { HalfOp::Fma } else { HalfOp::Mul });
        }
        if t.is_float() {
            self.float_op(i, t, "arithmetic")?;
            let src = self.srcs(i, t)?;
            let r = self.rounded(i, t, if is_mad { "fma" } else { "mul" }, &src)?;
            let r = self.saturate(i, r);
            return self.write(&i.operands[0], r, i.loc);
        }
        if i.opcode.ends_with("24") {
            return self.mul24(i, t, is_mad);
        }
        let bits = t.size() * 8;
        let a = self.read(&i.operands[1], t, i.loc)?;
        let b = self.read(&i.operands[2], t, i.loc)?;
        let wide_t = match (bits, t.is_signed()) {
            (16, true) => Type::I32,
            (16, false) => Type::U32,
            (32, true) => Type::I64,
            (32, false) => Type::U64,
            _ => Type::U64,
        };
        let prod = if i.has("wide") {
            if bits == 64 {
                return self.unsupported(i);
            }
            let x = self.cast(a, &wide_t);
            let y = self.cast(b, &wide_t);
            let x = self.as_uint(x);
            let y = self.as_uint(y);
            self.bin(B::Mul, x, y)
        } else if i.has("hi") {
            if bits == 64 {
                let f = if t.is_signed() { M::Mul64hi } else { M::Umul64hi };
                let (ta, tb) = if t.is_signed() { (Type::I64, Type::I64) } else { (Type::U64, Type::U64) };
                let x = self.cast(a, &ta);
                let y = self.cast(b, &tb);
                let h = self.math(f, vec![x, y], ta);
                self.as_uint(h)
            } else {
                let x = self.cast(a, &wide_t);
                let y = self.cast(b, &wide_t);
                let x = self.as_uint(x);
                let y = self.as_uint(y);
                let p = self.bin(B::Mul, x, y);
                let k = self.int(bits as i64, &self.vty(p));
                let h = self.bin(B::Shr, p, k);
                let ut = uint_of(&ir_type(t).unwrap());
                self.cast(h, &ut)
            }
        } else {
            let x = self.as_uint(a);
            let y = self.as_uint(b);
            self.bin(B::Mul, x, y)
        };
        let mut r = prod;
        if is_mad {
            let ct = if i.has("wide") { if t.is_signed() { if bits == 16 { ScalarType::S32 } else { ScalarType::S64 } } else if bits == 16 { ScalarType::U32 } else { ScalarType::U64 } } else { t };
            let c = self.read(&i.operands[3], ct, i.loc)?;
            let c = self.as_uint(c);
            if i.has("sat") {
                // mad.hi.sat.s32: saturate the sum.
                let p = self.cast(r, &Type::I32);
                let p = self.cast(p, &Type::I64);
                let c2 = self.cast(c, &Type::I32);
                let c2 = self.cast(c2, &Type::I64);
                let s = self.bin(B::Add, p, c2);
                let s = self.clamp_i64(s, i32::MIN as i64, i32::MAX as i64);
                let s = self.cast(s, &Type::I32);
                return self.write(&i.operands[0], s, i.loc);
            }
            let with_carry = i.opcode == "madc";
            let s1 = self.bin(B::Add, r, c);
            let cin = if with_carry {
                let cl = self.carry();
                let cv = self.load_local(cl);
                Some(self.cast(cv, &self.vty(s1)))
            } else {
                None
            };
            let s2 = match cin {
                Some(ci) => self.bin(B::Add, s1, ci),
                None => s1,
            };
            if i.has("cc") {
                let c1 = self.bin(B::Lt, s1, r);
                let cf = match cin {
                    Some(_) => {
                        let c2 = self.bin(B::Lt, s2, s1);
                        let x = self.cast(c1, &Type::U32);
                        let y = self.cast(c2, &Type::U32);
                        self.bin(B::Or, x, y)
                    }
                    None => self.cast(c1, &Type::U32),
                };
                let cl = self.carry();
                self.store_local(cl, cf);
            }
            r = s2;
        }
        let out_t = if i.has("wide") { wide_t } else { ir_type(t).unwrap() };
        let r = self.conv(r, &out_t);
        self.write(&i.operands[0], r, i.loc)
    }

    fn div_rem(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &[])?;
        self.nops(i, 3)?;
        let t = self.ty(i)?;
        let src = self.srcs(i, t)?;
        let r = if t.is_float() {
            self.float_op(i, t, "division")?;
            if i.opcode == "rem" {
                return self.unsupported(i);
            }
            self.rounded(i, t, "div", &src)?
        } else {
            self.bin(if i.opcode == "div" { B::Div } else { B::Rem }, src[0], src[1])
        };
        self.write(&i.operands[0], r, i.loc)
    }

    fn min_max(&mut self, i: &Inst) -> LResult<()> {
        let t = self.ty(i)?;
        if is_half(t) {
            return self.half_op(i, t, if i.opcode == "max" { HalfOp::Max } else { HalfOp::Min });
        }
        self.mods(i, &[])?;
        self.nops(i, 3)?;
        if is_half(t) {
            return self.half_op(i, t, if i.opcode == "max" { HalfOp::Max } else { HalfOp::Min });
        }
        let src = self.srcs(i, t)?;
        let max = i.opcode == "max";
        let r = if t.is_float() {
            self.float_op(i, t, "min/max")?;
            let f = match (max, t == ScalarType::F32) {
                (true, true) => M::Fmaxf,
                (false, true) => M::Fminf,
                (true, false) => M::Fmax,
                (false, false) => M::Fmin,
            };
            self.math(f, src, ir_type(t).unwrap())
        } else {
            let c = self.bin(if max { B::Gt } else { B::Lt }, src[0], src[1]);
            self.select(c, src[0], src[1])
        };
        self.write(&i.operands[0], r, i.loc)
    }

    fn abs_neg(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &[])?;
        self.nops(i, 2)?;
        let t = self.ty(i)?;
        let a = self.read(&i.operands[1], t, i.loc)?;
        if is_half(t) {
            // Sign-bit operations on each 16-bit lane; a NaN becomes the canonical NaN
            // (0x7fff), as the H100 gives (conf/half_arithmetic, bf16_arithmetic).
            let wide = matches!(t, ScalarType::F16x2 | ScalarType::Bf16x2);
            let inf = if matches!(t, ScalarType::Bf16 | ScalarType::Bf16x2) { 0x7f80 } else { 0x7c00 };
            let a = self.cast(a, &Type::U32);
            let mut out = self.int(0, &Type::U32);
            for lane in 0..if wide { 2 } else { 1 } {
                let x = self.bin_k(B::Shr, a, lane * 16);
                let x = self.bin_k(B::And, x, 0xffff);
                let mag = self.bin_k(B::And, x, 0x7fff);
                let nan = self.bin_k(B::Gt, mag, inf);
                let r = if i.opcode == "abs" { mag } else { self.bin_k(B::Xor, x, 0x8000) };
                let canon = self.int(0x7fff, &Type::U32);
                let r = self.select(nan, canon, r);
                let r = self.bin_k(B::Shl, r, lane * 16);
                out = self.bin(B::Or, out, r);
            }
            let r = self.conv(out, &ir_type(t).unwrap());
            return self.write(&i.operands[0], r, i.loc);
        }
        let r = if t.is_float() {
            self.float_op(i, t, "abs/neg")?;
            if i.opcode == "neg" {
                self.emit(IK::Unary(UnaryOp::Neg, a), ir_type(t).unwrap())
            } else {
                self.math(if t == ScalarType::F32 { M::Fabsf } else { M::Fabs }, vec![a], ir_type(t).unwrap())
            }
        } else {
            let u = self.as_uint(a);
            let ut = self.vty(u);
            let z = self.int(0, &ut);
            let n = self.bin(B::Sub, z, u);
            let n = self.conv(n, &ir_type(t).unwrap());
            if i.opcode == "neg" {
                n
            } else {
                let zs = self.int(0, &ir_type(t).unwrap());
                let neg = self.bin(B::Lt, a, zs);
                self.select(neg, n, a)
            }
        };
        self.write(&i.operands[0], r, i.loc)
    }

    fn bit_count(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["shiftamt"])?;
        self.nops(i, 2)?;
        let t = self.ty(i)?;
        let wide = t.size() == 8;
        let a = self.read(&i.operands[1], t, i.loc)?;
        let u = self.as_uint(a);
        let r = match i.opcode.as_str() {
            "popc" => {
                let c = self.math(if wide { M::Popcll } else { M::Popc }, vec![u], Type::I32);
                self.cast(c, &Type::U32)
            }
            "clz" => self.clz(u, wide),
            "brev" => self.math(if wide { M::Brevll } else { M::Brev }, vec![u], self.vty(u)),
            _ => {
                // bfind: the position of the most significant non-sign bit, 0xffffffff if none.
                let ut = self.vty(u);
                let x = if t.is_signed() {
                    let z = self.int(0, &ir_type(t).unwrap());
                    let neg = self.bin(B::Lt, a, z);
                    let inv = self.emit(IK::Unary(UnaryOp::Not, u), ut.clone());
                    self.select(neg, inv, u)
                } else {
                    u
                };
                let lz = self.clz(x, wide);
                let top = self.int(if wide { 63 } else { 31 }, &Type::U32);
                let pos = self.bin(B::Sub, top, lz);
                let pos = if i.has("shiftamt") { self.bin(B::Sub, top, pos) } else { pos };
                let z = self.int(0, &ut);
                let none = self.bin(B::Eq, x, z);
                let all = self.int(0xffff_ffff, &Type::U32);
                self.select(none, all, pos)
            }
        };
        self.write(&i.operands[0], r, i.loc)
    }

    fn clz(&mut self, u: ValueId, wide: bool) -> ValueId {
        let (st, f) = if wide { (Type::I64, M::Clzll) } else { (Type::I32, M::Clz) };
        let s = self.cast(u, &st);
        let c = self.math(f, vec![s], Type::I32);
        self.cast(c, &Type::U32)
    }

    fn logic(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &[])?;
        let t = self.ty(i)?;
        let unary = i.opcode == "not" || i.opcode == "cnot";
        self.nops(i, if unary { 2 } else { 3 })?;
        let work = if t == ScalarType::Pred { ScalarType::U32 } else { t };
        let src = self.srcs(i, t)?;
        let src: Vec<ValueId> = src.into_iter().map(|v| if t == ScalarType::Pred { self.cast(v, &Type::U32) } else { self.as_uint(v) }).collect();
        let wt = ir_type(work).map(|t| uint_of(&t)).unwrap();
        let r = match i.opcode.as_str() {
            "and" => self.bin(B::And, src[0], src[1]),
            "or" => self.bin(B::Or, src[0], src[1]),
            "xor" => self.bin(B::Xor, src[0], src[1]),
            "not" if t == ScalarType::Pred => {
                let one = self.int(1, &wt);
                self.bin(B::Xor, src[0], one)
            }
            "not" => self.emit(IK::Unary(UnaryOp::Not, src[0]), wt.clone()),
            _ => {
                let z = self.int(0, &wt);
                let e = self.bin(B::Eq, src[0], z);
                self.cast(e, &wt)
            }
        };
        let r = if t == ScalarType::Pred { self.cast(r, &Type::Bool) } else { r };
        self.write(&i.operands[0], r, i.loc)
    }

    /// `a << n` / `a >> n` with PTX's rule that amounts past the width give 0 (or the
    /// sign for `shr.s`).
    fn shift(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &[])?;
        self.nops(i, 3)?;
        let t = self.ty(i)?;
        let a = self.read(&i.operands[1], t, i.loc)?;
        let n = self.read(&i.operands[2], ScalarType::U32, i.loc)?;
        let r = self.shift_value(a, n, i.opcode == "shl", t.is_signed());
        self.write(&i.operands[0], r, i.loc)
    }

    pub(crate) fn shift_value(&mut self, a: ValueId, n: ValueId, left: bool, arith: bool) -> ValueId {
        let at = self.vty(a);
        let bits = at.scalar_size().unwrap() as i64 * 8;
        let wmax = self.int(bits - 1, &Type::U32);
        let big = self.bin(B::Gt, n, wmax);
        let clamped = self.select(big, wmax, n);
        let amt = self.cast(clamped, &at);
        let x = if arith { a } else { self.as_uint(a) };
        let s = self.bin(if left { B::Shl } else { B::Shr }, x, amt);
        if arith {
            // A shift by more than width-1 is a shift by width-1: all sign bits.
            return s;
        }
        let z = self.int(0, &self.vty(s));
        self.select(big, z, s)
    }

    fn funnel(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["l", "r", "wrap", "clamp"])?;
        self.nops(i, 4)?;
        let a = self.read(&i.operands[1], ScalarType::U32, i.loc)?;
        let b = self.read(&i.operands[2], ScalarType::U32, i.loc)?;
        let c = self.read(&i.operands[3], ScalarType::U32, i.loc)?;
        let n = if i.has("wrap") {
            let m = self.int(31, &Type::U32);
            self.bin(B::And, c, m)
        } else {
            let k = self.int(32, &Type::U32);
            let big = self.bin(B::Gt, c, k);
            self.select(big, k, c)
        };
        let a64 = self.cast(a, &Type::U64);
        let b64 = self.cast(b, &Type::U64);
        let k32 = self.int(32, &Type::U64);
        let hi = self.bin(B::Shl, b64, k32);
        let v = self.bin(B::Or, hi, a64);
        let n64 = self.cast(n, &Type::U64);
        let r = if i.has("l") {
            let s = self.bin(B::Shl, v, n64);
            self.bin(B::Shr, s, k32)
        } else {
            self.bin(B::Shr, v, n64)
        };
        let r = self.cast(r, &Type::U32);
        self.write(&i.operands[0], r, i.loc)
    }

    fn prmt(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"])?;
        self.nops(i, 4)?;
        let a = self.read(&i.operands[1], ScalarType::U32, i.loc)?;
        let b = self.read(&i.operands[2], ScalarType::U32, i.loc)?;
        let c = self.read(&i.operands[3], ScalarType::U32, i.loc)?;
        let a64 = self.cast(a, &Type::U64);
        let b64 = self.cast(b, &Type::U64);
        let k32 = self.int(32, &Type::U64);
        let hi = self.bin(B::Shl, b64, k32);
        let v = self.bin(B::Or, hi, a64);
        let mode = ["f4e", "b4e", "rc8", "ecl", "ecr", "rc16"].into_iter().find(|m| i.has(m));
        let u = Type::U32;
        let three = self.int(3, &u);
        let seven = self.int(7, &u);
        let c2 = self.bin(B::And, c, three);
        let mut out = self.int(0, &u);
        for byte in 0..4i64 {
            let bi = self.int(byte, &u);
            let (idx, sign) = match mode {
                None => {
                    let sh = self.int(byte * 4, &u);
                    let nib = self.bin(B::Shr, c, sh);
                    let idx = self.bin(B::And, nib, seven);
                    let eight = self.int(8, &u);
                    let s = self.bin(B::And, nib, eight);
                    (idx, Some(s))
                }
                Some("f4e") => {
                    let s = self.bin(B::Add, c2, bi);
                    (self.bin(B::And, s, seven), None)
                }
                Some("b4e") => {
                    let eight = self.int(8, &u);
                    let s = self.bin(B::Add, c2, eight);
                    let s = self.bin(B::Sub, s, bi);
                    (self.bin(B::And, s, seven), None)
                }
                Some("rc8") => (c2, None),
                Some("ecl") => {
                    let gt = self.bin(B::Gt, bi, c2);
                    (self.select(gt, bi, c2), None)
                }
                Some("ecr") => {
                    let lt = self.bin(B::Lt, bi, c2);
                    (self.select(lt, bi, c2), None)
                }
                _ => {
                    let one = self.int(1, &u);
                    let lo = self.bin(B::And, c2, one);
                    let two = self.int(2, &u);
                    let base = self.bin(B::Mul, lo, two);
                    let bb = self.int(byte & 1, &u);
                    (self.bin(B::Add, base, bb), None)
                }
            };
            let eight = self.int(8, &u);
            let sh = self.bin(B::Mul, idx, eight);
            let sh64 = self.cast(sh, &Type::U64);
            let x = self.bin(B::Shr, v, sh64);
            let x = self.cast(x, &u);
            let ff = self.int(0xff, &u);
            let mut x = self.bin(B::And, x, ff);
            if let Some(s) = sign {
                let z = self.int(0, &u);
                let rep = self.bin(B::Ne, s, z);
                let k80 = self.int(0x80, &u);
                let msb = self.bin(B::And, x, k80);
                let set = self.bin(B::Ne, msb, z);
                let fill = self.select(set, ff, z);
                x = self.select(rep, fill, x);
            }
            let pos = self.int(byte * 8, &u);
            let placed = self.bin(B::Shl, x, pos);
            out = self.bin(B::Or, out, placed);
        }
        self.write(&i.operands[0], out, i.loc)
    }

    /// The field `bfe`/`bfi` name by `pos` and `len` (each already masked to 8 bits) in a
    /// `w`-bit value of unsigned type `ut`: the mask of its length, clipped to the bits
    /// above `pos`, not yet shifted; `pos` clamped to the top bit; and whether `pos` lies
    /// past the value altogether.
    fn bit_field(&mut self, pos: ValueId, len: ValueId, w: i64, ut: &Type) -> BitField {
        let u = Type::U32;
        let wv = self.int(w, &u);
        let past = self.bin(B::Ge, pos, wv);
        let avail = self.bin(B::Sub, wv, pos);
        let z32 = self.int(0, &u);
        let avail = self.select(past, z32, avail);
        let short = self.bin(B::Lt, len, avail);
        let flen = self.select(short, len, avail);
        let full = self.bin(B::Ge, flen, wv);
        let one = self.int(1, ut);
        let fl = self.cast(flen, ut);
        let wm1 = self.int(w - 1, ut);
        let fl_safe = self.bin(B::And, fl, wm1);
        let m = self.bin(B::Shl, one, fl_safe);
        let m = self.bin(B::Sub, m, one);
        let all = self.int(-1, ut);
        let mask = self.select(full, all, m);
        let wm1u = self.int(w - 1, &u);
        let big = self.bin(B::Gt, pos, wm1u);
        let p = self.select(big, wm1u, pos);
        let pos = self.cast(p, ut);
        BitField { mask, pos, past }
    }

    fn bfe(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &[])?;
        self.nops(i, 4)?;
        let t = self.ty(i)?;
        let w = t.size() as i64 * 8;
        let a = self.read(&i.operands[1], t, i.loc)?;
        let b = self.read(&i.operands[2], ScalarType::U32, i.loc)?;
        let c = self.read(&i.operands[3], ScalarType::U32, i.loc)?;
        let u = Type::U32;
        let ff = self.int(0xff, &u);
        let pos = self.bin(B::And, b, ff);
        let len = self.bin(B::And, c, ff);
        let ua = self.as_uint(a);
        let ut = self.vty(ua);
        let BitField { mask, pos: p, .. } = self.bit_field(pos, len, w, &ut);
        let one = self.int(1, &ut);
        let wm1u = self.int(w - 1, &u);
        let z32 = self.int(0, &u);
        let sh = self.bin(B::Shr, ua, p);
        let mut field = self.bin(B::And, sh, mask);
        if t.is_signed() {
            // The sign is bit min(pos + len - 1, msb) of a.
            let plen = self.bin(B::Add, pos, len);
            let plen1 = self.bin_k(B::Sub, plen, 1);
            let over = self.bin(B::Gt, plen1, wm1u);
            let sb = self.select(over, wm1u, plen1);
            let sb = self.cast(sb, &ut);
            let bit = self.bin(B::Shr, ua, sb);
            let bit = self.bin(B::And, bit, one);
            let zt = self.int(0, &ut);
            let neg = self.bin(B::Ne, bit, zt);
            let inv = self.emit(IK::Unary(UnaryOp::Not, mask), ut.clone());
            let ext = self.bin(B::Or, field, inv);
            field = self.select(neg, ext, field);
        }
        let zl = self.bin(B::Eq, len, z32);
        let zt = self.int(0, &ut);
        let r = self.select(zl, zt, field);
        let r = self.conv(r, &ir_type(t).unwrap());
        self.write(&i.operands[0], r, i.loc)
    }

    fn bfi(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &[])?;
        self.nops(i, 5)?;
        let t = self.ty(i)?;
        let w = t.size() as i64 * 8;
        let f = self.read(&i.operands[1], t, i.loc)?;
        let base = self.read(&i.operands[2], t, i.loc)?;
        let c = self.read(&i.operands[3], ScalarType::U32, i.loc)?;
        let d = self.read(&i.operands[4], ScalarType::U32, i.loc)?;
        let u = Type::U32;
        let ff = self.int(0xff, &u);
        let pos = self.bin(B::And, c, ff);
        let len = self.bin(B::And, d, ff);
        let f = self.as_uint(f);
        let base = self.as_uint(base);
        let ut = self.vty(base);
        let BitField { mask: m, pos: p, past } = self.bit_field(pos, len, w, &ut);
        let mask = self.bin(B::Shl, m, p);
        let zt = self.int(0, &ut);
        let mask = self.select(past, zt, mask);
        let fs = self.bin(B::Shl, f, p);
        let fs = self.bin(B::And, fs, mask);
        let keep = self.emit(IK::Unary(UnaryOp::Not, mask), ut.clone());
        let kept = self.bin(B::And, base, keep);
        let r = self.bin(B::Or, kept, fs);
        let r = self.conv(r, &ir_type(t).unwrap());
        self.write(&i.operands[0], r, i.loc)
    }

    /// A comparison as `setp`/`set` name it.
    fn compare(&mut self, i: &Inst, cmp: &str, t: ScalarType, a: ValueId, b: ValueId) -> LResult<ValueId> {
        if t.is_float() {
            let unordered = {
                let na = self.bin(B::Ne, a, a);
                let nb = self.bin(B::Ne, b, b);
                let x = self.cast(na, &Type::U32);
                let y = self.cast(nb, &Type::U32);
                let o = self.bin(B::Or, x, y);
                self.cast(o, &Type::Bool)
            };
            let base = cmp.strip_suffix('u').unwrap_or(cmp);
            let ordered = match base {
                "eq" => self.bin(B::Eq, a, b),
                "lt" => self.bin(B::Lt, a, b),
                "le" => self.bin(B::Le, a, b),
                "gt" => self.bin(B::Gt, a, b),
                "ge" => self.bin(B::Ge, a, b),
                "ne" => {
                    let l = self.bin(B::Lt, a, b);
                    let g = self.bin(B::Gt, a, b);
                    let x = self.cast(l, &Type::U32);
                    let y = self.cast(g, &Type::U32);
                    let o = self.bin(B::Or, x, y);
                    self.cast(o, &Type::Bool)
                }
                "num" => return Ok(self.not_bool(unordered)),
                "nan" => return Ok(unordered),
                _ => return lerr(i.loc, format!("'{}': unknown comparison '{cmp}'", i.name())),
            };
            if cmp.ends_with('u') && cmp != "neu" || cmp == "neu" {
                let x = self.cast(ordered, &Type::U32);
                let y = self.cast(unordered, &Type::U32);
                let o = self.bin(B::Or, x, y);
                return Ok(self.cast(o, &Type::Bool));
            }
            return Ok(ordered);
        }
        // Integers: lo/ls/hi/hs are unsigned whatever the type; lt/le/gt/ge follow it.
        let (a, b, op) = match cmp {
            "eq" => (a, b, B::Eq),
            "ne" => (a, b, B::Ne),
            "lt" | "le" | "gt" | "ge" => (a, b, match cmp {
                "lt" => B::Lt,
                "le" => B::Le,
                "gt" => B::Gt,
                _ => B::Ge,
            }),
            "lo" | "ls" | "hi" | "hs" => {
                let x = self.as_uint(a);
                let y = self.as_uint(b);
                (x, y, match cmp {
                    "lo" => B::Lt,
                    "ls" => B::Le,
                    "hi" => B::Gt,
                    _ => B::Ge,
                })
            }
            _ => return lerr(i.loc, format!("'{}': unknown comparison '{cmp}'", i.name())),
        };
        Ok(self.bin(op, a, b))
    }

    fn setp(&mut self, i: &Inst) -> LResult<()> {
        const CMPS: &[&str] = &["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"];
        let Some(cmp) = i.mods.iter().find(|m| CMPS.contains(&m.as_str())).cloned() else { return lerr(i.loc, format!("'{}' needs a comparison", i.name())) };
        let bop = i.mods.iter().find(|m| matches!(m.as_str(), "and" | "or" | "xor")).cloned();
        let mut allowed: Vec<&str> = CMPS.to_vec();
        allowed.extend(["and", "or", "xor"]);
        self.mods(i, &allowed)?;
        let tys = types(i);
        let t = *tys.last().unwrap_or(&ScalarType::U32);
        let n = if bop.is_some() { 4 } else { 3 };
        self.nops(i, n)?;
        if matches!(t, ScalarType::F16x2 | ScalarType::Bf16x2) {
            return self.setp_half2(i, &cmp, t, bop.is_some());
        }
        let (a, b, t) = if is_half(t) {
            let a = self.read(&i.operands[1], t, i.loc)?;
            let b = self.read(&i.operands[2], t, i.loc)?;
            let bf = t == ScalarType::Bf16;
            (self.widen_half(a, bf), self.widen_half(b, bf), ScalarType::F32)
        } else {
            (self.read(&i.operands[1], t, i.loc)?, self.read(&i.operands[2], t, i.loc)?, t)
        };
        let c = self.compare(i, &cmp, t, a, b)?;
        let combine = |this: &mut Self, v: ValueId| -> LResult<ValueId> {
            let Some(op) = &bop else { return Ok(v) };
            let p = this.read(&i.operands[3], ScalarType::Pred, i.loc)?;
            let x = this.cast(v, &Type::U32);
            let y = this.cast(p, &Type::U32);
            let r = this.bin(match op.as_str() {
                "and" => B::And,
                "or" => B::Or,
                _ => B::Xor,
            }, x, y);
            Ok(this.cast(r, &Type::Bool))
        };
        if i.opcode == "set" {
            // set.cmp.dtype.stype: 0xffffffff (or 1.0f) when true.
            let dt = tys[0];
            let r = combine(self, c)?;
            let dty = ir_type(dt).unwrap();
            let v = if dt == ScalarType::F16 || dt == ScalarType::Bf16 {
                let one = self.int(if dt == ScalarType::F16 { 0x3c00 } else { 0x3f80 }, &Type::U16);
                let z = self.int(0, &Type::U16);
                self.select(r, one, z)
            } else if dt.is_float() {
                let one = self.emit(IK::Const(cuprite_ir::Const::F32(1.0)), Type::F32);
                let z = self.emit(IK::Const(cuprite_ir::Const::F32(0.0)), Type::F32);
                self.select(r, one, z)
            } else {
                let all = self.int(-1, &dty);
                let z = self.int(0, &dty);
                self.select(r, all, z)
            };
            return self.write(&i.operands[0], v, i.loc);
        }
        let (p, q) = match &i.operands[0] {
            Operand::Pair(p, q) => (p.as_ref().clone(), Some(q.as_ref().clone())),
            p => (p.clone(), None),
        };
        let r = combine(self, c)?;
        self.write(&p, r, i.loc)?;
        if let Some(q) = q {
            let nc = self.not_bool(c);
            let r2 = combine(self, nc)?;
            self.write(&q, r2, i.loc)?;
        }
        Ok(())
    }

    fn selp(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &[])?;
        self.nops(i, 4)?;
        let tys = types(i);
        let t = tys[0];
        let a = self.read(&i.operands[1], t, i.loc)?;
        let b = self.read(&i.operands[2], t, i.loc)?;
        let c = if i.opcode == "selp" {
            self.read(&i.operands[3], ScalarType::Pred, i.loc)?
        } else {
            let ct = *tys.last().unwrap();
            let cv = self.read(&i.operands[3], ct, i.loc)?;
            let z = self.read(&Operand::Int(0), ct, i.loc)?;
            self.bin(B::Ge, cv, z)
        };
        let r = self.select(c, a, b);
        self.write(&i.operands[0], r, i.loc)
    }

    fn testp(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["finite", "infinite", "number", "notanumber", "normal", "subnormal"])?;
        self.nops(i, 2)?;
        let t = self.ty(i)?;
        let f32 = t == ScalarType::F32;
        let a = self.read(&i.operands[1], t, i.loc)?;
        let r = if i.has("finite") {
            self.math(if f32 { M::Isfinitef } else { M::Isfinite }, vec![a], Type::Bool)
        } else if i.has("infinite") {
            self.math(if f32 { M::Isinff } else { M::Isinf }, vec![a], Type::Bool)
        } else if i.has("notanumber") {
            self.bin(B::Ne, a, a)
        } else if i.has("number") {
            self.bin(B::Eq, a, a)
        } else {
            return self.unsupported(i);
        };
        self.write(&i.operands[0], r, i.loc)
    }

    fn float_fn(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &[])?;
        let t = self.ty(i)?;
        if is_half(t) && i.has("approx") && matches!(i.opcode.as_str(), "tanh" | "ex2") {
            return self.half_approx_fn(i, t);
        }
        self.float_op(i, t, "math")?;
        let f32 = t == ScalarType::F32;
        let ty = ir_type(t).unwrap();
        if i.opcode == "copysign" {
            self.nops(i, 3)?;
            let a = self.read(&i.operands[1], t, i.loc)?;
            let b = self.read(&i.operands[2], t, i.loc)?;
            // copysign d, a, b: b's magnitude with a's sign.
            let r = self.math(if f32 { M::Copysignf } else { M::Copysign }, vec![b, a], ty);
            return self.write(&i.operands[0], r, i.loc);
        }
        self.nops(i, 2)?;
        let a = self.read(&i.operands[1], t, i.loc)?;
        let rnd = rounding(i);
        let r = match (i.opcode.as_str(), f32) {
            ("rcp", _) => match rnd {
                Some("rz") => self.math(if f32 { M::FrcpRz } else { M::DrcpRz }, vec![a], ty),
                Some("rm") => self.math(if f32 { M::FrcpRd } else { M::DrcpRd }, vec![a], ty),
                Some("rp") => self.math(if f32 { M::FrcpRu } else { M::DrcpRu }, vec![a], ty),
                _ => {
                    let one = self.read(&Operand::Int(1), t, i.loc)?;
                    self.bin(B::Div, one, a)
                }
            },
            ("sqrt", _) => match rnd {
                Some("rz") => self.math(if f32 { M::FsqrtRz } else { M::DsqrtRz }, vec![a], ty),
                Some("rm") => self.math(if f32 { M::FsqrtRd } else { M::DsqrtRd }, vec![a], ty),
                Some("rp") => self.math(if f32 { M::FsqrtRu } else { M::DsqrtRu }, vec![a], ty),
                _ => self.math(if f32 { M::Sqrtf } else { M::Sqrt }, vec![a], ty),
            },
            ("rsqrt", _) => self.math(if f32 { M::Rsqrtf } else { M::Rsqrt }, vec![a], ty),
            ("sin", true) => self.math(M::FastSinf, vec![a], ty),
            ("cos", true) => self.math(M::FastCosf, vec![a], ty),
            ("lg2", true) => self.math(M::FastLog2f, vec![a], ty),
            ("ex2", true) => self.math(M::Exp2f, vec![a], ty),
            ("tanh", true) => self.math(M::Tanhf, vec![a], ty),
            _ => return self.unsupported(i),
        };
        self.write(&i.operands[0], r, i.loc)
    }
}

/// A bit field of `bfe`/`bfi` (`bit_field`).
struct BitField {
    mask: ValueId,
    pos: ValueId,
    past: ValueId,
}
