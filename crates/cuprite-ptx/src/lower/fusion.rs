//! ptxas's contraction of half-precision (f16, bf16) `mul` + `add`/`sub` into `fma`.
//!
//! PTX lets the code generator fuse a `mul` and an `add` that carry no rounding modifier
//! (the ISA's "mul/add sequences with no rounding modifiers may be optimized to use
//! fused-multiply-add instructions"), and ptxas does, for `.f16`/`.f16x2`/`.bf16`/`.bf16x2`
//! and `.f32`/`.f64` (measured on the H100: conf/fp_contraction's half, bf16 and
//! float cases; cuda_fp16's operators are such `mul.f16` and `add.f16` in inline asm).
//! Not under ptxas's `-fmad=false` (`LowerOptions::fmad`), and not with `.ftz` here. It fuses when the product feeds only that `add`/`sub`
//! (possibly through a `neg`), and neither has `.rn` or `.sat`. The lowering does the
//! same: such a `mul` only keeps its operands, and the `add`/`sub` computes the fma
//! (correctly rounded, `Lowerer::fma_to_odd`).

use super::body::Lowerer;
use super::{lerr, LResult};
use crate::isa::ScalarType;
use crate::parse::{Inst, Operand, Stmt};
use cuprite_ir::{BinaryOp as B, InstKind as IK, LocalId, MathFn, Type, UnaryOp};
use std::collections::HashMap;

/// A deferred product: its operands (words of the instruction type), and whether a `neg`
/// negated it.
#[derive(Clone, Copy)]
pub(crate) struct Product {
    a: LocalId,
    b: LocalId,
    negated: bool,
}

/// What the plan decided for an instruction (keyed by its address in the parse tree).
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Role {
    /// A `mul` whose product is fused into its consumer.
    Product,
    /// A `neg` between a fused product and its consumer.
    Negate,
    /// The `add`/`sub` that consumes a fused product.
    Consumer,
}

fn key(i: &Inst) -> usize {
    i as *const Inst as usize
}

/// The floating-point type of an instruction that ptxas may contract.
fn half_type(i: &Inst) -> Option<ScalarType> {
    let t = i.mods.iter().filter_map(|m| ScalarType::parse(m)).last()?;
    matches!(t, ScalarType::F16 | ScalarType::F16x2 | ScalarType::Bf16 | ScalarType::Bf16x2 | ScalarType::F32 | ScalarType::F64).then_some(t)
}

fn is_wide(t: ScalarType) -> bool {
    matches!(t, ScalarType::F32 | ScalarType::F64)
}

/// Unrounded, unsaturated, unguarded half-precision `op`.
fn plain(i: &Inst, ops: &[&str]) -> bool {
    ops.contains(&i.opcode.as_str())
        && i.guard.is_none()
        && half_type(i).is_some()
        && !i.mods.iter().any(|m| matches!(m.as_str(), "rn" | "rz" | "rm" | "rp" | "sat" | "relu" | "ftz"))
}

fn dest(i: &Inst) -> Option<&str> {
    match i.operands.first() {
        Some(Operand::Name(n, 0)) if n.starts_with('%') => Some(n),
        _ => None,
    }
}

fn count_names(op: &Operand, counts: &mut HashMap<String, usize>) {
    match op {
        Operand::Name(n, _) | Operand::Addr(Some(n), _) => *counts.entry(n.clone()).or_default() += 1,
        Operand::Vector(v) | Operand::List(v) | Operand::Tex(v) => v.iter().for_each(|o| count_names(o, counts)),
        Operand::Not(o) => count_names(o, counts),
        Operand::Pair(a, b) => {
            count_names(a, counts);
            count_names(b, counts);
        }
        _ => {}
    }
}

fn walk<'a>(stmts: &'a [Stmt], out: &mut Vec<&'a Inst>) {
    for s in stmts {
        match s {
            Stmt::Inst(i) => out.push(i),
            Stmt::Block(b) => walk(b, out),
            _ => {}
        }
    }
}

/// The instructions of a function body that take part in a fusion.
pub(crate) fn plan(body: &[Stmt]) -> HashMap<usize, Role> {
    let mut insts = Vec::new();
    walk(body, &mut insts);
    let mut counts = HashMap::new();
    for i in &insts {
        for o in &i.operands {
            count_names(o, &mut counts);
        }
        if let Some((p, _)) = &i.guard {
            *counts.entry(p.clone()).or_default() += 1;
        }
    }
    // The instructions after `after` that read register `d`, when `d` is written once
    // (by the instruction at `after`) and read only there, at most four times.
    let readers = |d: &str, after: usize| -> Option<Vec<usize>> {
        let reads = |i: &Inst| i.operands.iter().skip(1).filter(|o| matches!(o, Operand::Name(n, 0) if n == d)).count();
        let found: Vec<usize> = insts.iter().enumerate().skip(after + 1).filter(|(_, i)| reads(i) > 0).map(|(k, _)| k).collect();
        let all_reads: usize = found.iter().map(|&k| reads(insts[k])).sum();
        (!found.is_empty() && found.len() <= 4 && all_reads == found.len() && counts.get(d) == Some(&(1 + found.len()))).then_some(found)
    };
    let consumes = |c: &Inst, m: &Inst| plain(c, &["add", "sub"]) && half_type(c) == half_type(m) && c.operands.len() == 3;
    let mut roles = HashMap::new();
    for (k, m) in insts.iter().enumerate() {
        if !plain(m, &["mul"]) || m.operands.len() != 3 {
            continue;
        }
        let Some(d) = dest(m) else { continue };
        let Some(mut users) = readers(d, k) else { continue };
        // `neg` of a product read once, itself read by one add/sub: `-(a*b) + c`.
        let mut neg = None;
        if let [c] = users[..] {
            if plain(insts[c], &["neg"]) && half_type(insts[c]) == half_type(m) {
                let Some(n) = dest(insts[c]) else { continue };
                let Some(next) = readers(n, c) else { continue };
                neg = Some(c);
                users = next;
                if users.len() != 1 {
                    continue;
                }
            }
        }
        // ptxas fuses a product only where every use is an addition (measured: a
        // product also stored or reinterpreted stays a rounded mul everywhere), and one
        // product per addition (`a*b + c*d` fuses one of them).
        if !users.iter().all(|&c| consumes(insts[c], m) && roles.get(&key(insts[c])) != Some(&Role::Consumer)) {
            continue;
        }
        roles.insert(key(m), Role::Product);
        if let Some(n) = neg {
            roles.insert(key(insts[n]), Role::Negate);
        }
        for c in users {
            roles.insert(key(insts[c]), Role::Consumer);
        }
    }
    roles
}

/// What the plan promised for `i`; a broken promise is an error naming the instruction,
/// not a panic.
fn planned<T>(v: Option<T>, i: &Inst) -> LResult<T> {
    v.map_or_else(|| lerr(i.loc, format!("internal error: the mul+add fusion plan does not hold at '{}'", i.opcode)), Ok)
}

impl Lowerer<'_> {
    pub(crate) fn fusion_role(&self, i: &Inst) -> Option<Role> {
        self.fusion.get(&key(i)).copied()
    }

    fn word_type(t: ScalarType) -> Type {
        if t == ScalarType::F32 {
            Type::F32
        } else if t == ScalarType::F64 {
            Type::F64
        } else if matches!(t, ScalarType::F16x2 | ScalarType::Bf16x2) {
            Type::U32
        } else {
            Type::U16
        }
    }

    /// The deferred `mul`: keeps its operands for the consumer.
    pub(crate) fn fused_product(&mut self, i: &Inst) -> LResult<()> {
        let t = planned(half_type(i), i)?;
        let wt = Self::word_type(t);
        let a = self.read_as(&i.operands[1], &wt, i.loc)?;
        let b = self.read_as(&i.operands[2], &wt, i.loc)?;
        let (la, lb) = (self.temp(wt.clone()), self.temp(wt));
        self.store_local(la, a);
        self.store_local(lb, b);
        let d = planned(dest(i), i)?.to_string();
        self.products.insert(d, Product { a: la, b: lb, negated: false });
        Ok(())
    }

    /// The `neg` of a deferred product: the product, negated.
    pub(crate) fn fused_negate(&mut self, i: &Inst) -> LResult<()> {
        let src = match &i.operands[1] {
            Operand::Name(n, 0) => n.clone(),
            _ => return planned(None, i),
        };
        let mut p = planned(self.products.remove(&src), i)?;
        p.negated = !p.negated;
        self.products.insert(planned(dest(i), i)?.to_string(), p);
        Ok(())
    }

    /// The consumer `add`/`sub`: `±a*b ± c` as one correctly rounded fma per lane.
    pub(crate) fn fused_consumer(&mut self, i: &Inst) -> LResult<()> {
        let t = planned(half_type(i), i)?;
        let wt = Self::word_type(t);
        let name = |o: &Operand| match o {
            Operand::Name(n, 0) => Some(n.clone()),
            _ => None,
        };
        let (p, other, product_first) = match (name(&i.operands[1]).and_then(|n| self.products.get(&n).copied()), name(&i.operands[2])) {
            (Some(p), _) => (p, &i.operands[2], true),
            (None, Some(n)) => (planned(self.products.get(&n).copied(), i)?, &i.operands[1], false),
            (None, None) => return planned(None, i),
        };
        let sub = i.opcode == "sub";
        // a*b - c → fma(a, b, -c); c - a*b → fma(-a, b, c).
        let neg_product = p.negated ^ (sub && !product_first);
        let neg_other = sub && product_first;
        let c = self.read_as(other, &wt, i.loc)?;
        let a = self.load_local(p.a);
        let b = self.load_local(p.b);
        if is_wide(t) {
            // One correctly rounded fma in the register's own type.
            let a = if neg_product { self.emit(IK::Unary(UnaryOp::Neg, a), wt.clone()) } else { a };
            let c = if neg_other { self.emit(IK::Unary(UnaryOp::Neg, c), wt.clone()) } else { c };
            let f = if t == ScalarType::F32 { MathFn::Fmaf } else { MathFn::Fma };
            let r = self.math(f, vec![a, b, c], wt);
            return self.write(&i.operands[0], r, i.loc);
        }
        let lanes = if matches!(t, ScalarType::F16x2 | ScalarType::Bf16x2) { 2 } else { 1 };
        let bf = matches!(t, ScalarType::Bf16 | ScalarType::Bf16x2);
        let mut out = self.int(0, &wt);
        for lane in 0..lanes {
            let mut w = Vec::new();
            for v in [a, b, c] {
                let x = self.bin_k(B::Shr, v, lane * 16);
                let x = self.cast(x, &Type::U16);
                w.push(self.widen_half(x, bf));
            }
            if neg_product {
                w[0] = self.emit(IK::Unary(UnaryOp::Neg, w[0]), Type::F32);
            }
            if neg_other {
                w[2] = self.emit(IK::Unary(UnaryOp::Neg, w[2]), Type::F32);
            }
            let r = self.fma_to_odd(w[0], w[1], w[2]);
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
}
