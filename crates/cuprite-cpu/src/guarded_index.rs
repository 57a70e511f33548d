//! Unsigned index subtractions that cannot wrap: `threadIdx.x - k` (`k` a constant) in a
//! block that runs only after a branch proved `threadIdx.x >= k` (hotspot's
//! `threadIdx.x > 0 ? t[ty][threadIdx.x - 1] : ...`). As a 32-bit unsigned value the
//! offset is not affine in the thread index for the C compiler (it could wrap to 2^32 - 1),
//! so the load is a gather or not vectorised at all; where the guard holds, the 64-bit
//! `(int64_t)threadIdx.x - k` is the same number and is affine.
//!
//! The guard must be a branch on a comparison of the same special register (thread or
//! block index) with a constant, and the guarded block must be dominated by a branch
//! target that has the branch as its only way in.

use cuprite_ir::dom::Dominators;
use cuprite_ir::*;
use std::collections::{HashMap, HashSet};

/// The `U32` subtractions `s - k` of `f` (by value) that run only where `s >= k`.
/// `defs` maps each value to its defining instruction (with fission's forwarding applied).
pub fn nonwrapping_subs(f: &Function, defs: &HashMap<ValueId, InstKind>) -> HashSet<ValueId> {
    let mut out = HashSet::new();
    let special = |v: ValueId| match defs.get(&v) {
        Some(InstKind::Special(s @ (SpecialReg::ThreadIdx(_) | SpecialReg::BlockIdx(_)))) => Some(*s),
        _ => None,
    };
    let konst = |v: ValueId| match defs.get(&v) {
        Some(InstKind::Const(Const::Int(c, Type::U32))) => Some(*c),
        _ => None,
    };
    // Blocks entered only from one branch edge, with the lower bound that edge proves.
    let mut preds = vec![0u32; f.blocks.len()];
    for b in &f.blocks {
        for s in b.term.successors() {
            preds[s.index()] += 1;
        }
    }
    let mut facts: Vec<(BlockId, SpecialReg, i64)> = Vec::new();
    for b in &f.blocks {
        let Terminator::Branch { cond, then, else_ } = &b.term else { continue };
        if then == else_ {
            continue;
        }
        let Some(InstKind::Binary(op, x, y)) = defs.get(cond) else { continue };
        if *f.value_type(*x) != Type::U32 {
            continue;
        }
        // Normalised to `s OP c`.
        let (s, op, c) = match (special(*x), konst(*y), special(*y), konst(*x)) {
            (Some(s), Some(c), _, _) => (s, *op, c),
            (_, _, Some(s), Some(c)) => (s, flip(*op), c),
            _ => continue,
        };
        let on_then = match op {
            BinaryOp::Gt => Some(c + 1),
            BinaryOp::Ge => Some(c),
            BinaryOp::Ne if c == 0 => Some(1),
            _ => None,
        };
        let on_else = match op {
            BinaryOp::Lt => Some(c),
            BinaryOp::Le => Some(c + 1),
            BinaryOp::Eq if c == 0 => Some(1),
            _ => None,
        };
        for (target, bound) in [(*then, on_then), (*else_, on_else)] {
            if let Some(lb) = bound.filter(|lb| *lb > 0 && preds[target.index()] == 1) {
                facts.push((target, s, lb));
            }
        }
    }
    if facts.is_empty() {
        return out;
    }
    let dom = Dominators::new(f);
    for (bi, b) in f.blocks.iter().enumerate() {
        for i in &b.insts {
            let (Some(r), InstKind::Binary(BinaryOp::Sub, a, k)) = (i.result, &i.kind) else { continue };
            if *f.value_type(r) != Type::U32 {
                continue;
            }
            let (Some(s), Some(k)) = (special(*a), konst(*k)) else { continue };
            if k > 0 && facts.iter().any(|(t, fs, lb)| *fs == s && *lb >= k && dom.dominates(*t, BlockId(bi as u32))) {
                out.insert(r);
            }
        }
    }
    out
}

/// `c OP s` as `s OP' c`.
fn flip(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        o => o,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::FnBuilder;

    fn defs(f: &Function) -> HashMap<ValueId, InstKind> {
        f.blocks.iter().flat_map(|b| &b.insts).filter_map(|i| i.result.map(|r| (r, i.kind.clone()))).collect()
    }

    /// `if (threadIdx.x OP c) { threadIdx.x - k }` (then side) or the else side.
    fn kernel(op: BinaryOp, c: i64, k: i64, on_then: bool) -> (Function, ValueId) {
        let mut b = FnBuilder::kernel("k", "_Z1kv");
        let tx = b.special(SpecialReg::ThreadIdx(Dim::X));
        let cv = b.u32(c as u32);
        let cond = b.bin(op, tx, cv);
        let yes = b.new_block();
        let no = b.new_block();
        b.branch(cond, yes, no);
        b.switch_to(if on_then { yes } else { no });
        let tx2 = b.special(SpecialReg::ThreadIdx(Dim::X));
        let kv = b.u32(k as u32);
        let sub = b.bin(BinaryOp::Sub, tx2, kv);
        b.ret(None);
        b.switch_to(if on_then { no } else { yes });
        b.ret(None);
        (b.finish(), sub)
    }

    #[test]
    fn guarded_subtractions_are_found() {
        for (op, c, k, then) in [(BinaryOp::Gt, 0, 1, true), (BinaryOp::Ge, 2, 2, true), (BinaryOp::Ne, 0, 1, true), (BinaryOp::Lt, 1, 1, false), (BinaryOp::Eq, 0, 1, false)] {
            let (f, sub) = kernel(op, c, k, then);
            assert!(nonwrapping_subs(&f, &defs(&f)).contains(&sub), "{op:?} {c} {k}");
        }
    }

    #[test]
    fn unproved_subtractions_are_left_alone() {
        // The bound is too small, or the subtraction sits on the side that proves nothing.
        for (op, c, k, then) in [(BinaryOp::Gt, 0, 2, true), (BinaryOp::Gt, 0, 1, false), (BinaryOp::Lt, 1, 1, true), (BinaryOp::Ne, 3, 1, true)] {
            let (f, sub) = kernel(op, c, k, then);
            assert!(!nonwrapping_subs(&f, &defs(&f)).contains(&sub), "{op:?} {c} {k}");
        }
    }
}
