//! Thread loops over a prefix of `x`: a unit whose only per-thread work sits under
//! `if (threadIdx.x < d)`, `d` block-uniform (a tree reduction's `if (tid < s)`, a scan
//! sweep's `if (t < d)`), runs its thread loop over `x < min(d, blockDim.x)` instead of
//! testing every thread: the threads left out would only have computed the condition.
//! The branch stays in the body (always taken there), so the loop means what it did.

use crate::fission::{Plan, Unit};
use cuprite_ir::*;
use std::collections::HashMap;

/// The bound of such a unit's thread loop: `x < d`, compared signed or not.
pub struct ThreadRange {
    pub bound: ValueId,
    pub signed: bool,
}

/// The range of `unit`'s thread loop, when every thread at or above a block-uniform bound
/// skips all of the unit's per-thread work.
pub fn thread_range(f: &Function, plan: &Plan, unit: &Unit) -> Option<ThreadRange> {
    let uni = &plan.uni;
    if uni.guard_of[unit.entry().index()].is_some() || unit.steps.iter().any(|s| s.guard_owner.is_some()) {
        return None;
    }
    let last = unit.last();
    match &f.block(last.block).term {
        Terminator::Warp { .. } | Terminator::Barrier { pred: Some(_), .. } => return None,
        _ => {}
    }
    let mut divergent = unit.steps.iter().filter(|s| s.diverges);
    let step = divergent.next()?;
    if divergent.next().is_some() {
        return None;
    }
    let Terminator::Branch { cond, else_, .. } = &f.block(step.block).term else { return None };
    if step.join != Some(*else_) {
        return None; // the threads that fail the test must have nothing to do
    }
    // Outside the divergent region, the thread loop only computes (nothing it could skip
    // is stored, loaded or called).
    for s in &unit.steps {
        for inst in &f.block(s.block).insts {
            if crate::uniformity::is_scalar_inst(&inst.kind, uni, inst.result) {
                continue;
            }
            let pure = match &inst.kind {
                InstKind::StoreLocal(l, _) => plan.remat.contains_key(l),
                k => (k.is_pure_value() || matches!(k, InstKind::LoadLocal(_))) && !matches!(k, InstKind::Binary(BinaryOp::Div | BinaryOp::Rem, ..)),
            };
            if !pure {
                return None;
            }
        }
    }
    let defs = definitions(f);
    let InstKind::Binary(op, a, b) = defs.get(cond)? else { return None };
    let (x, bound) = match op {
        BinaryOp::Lt => (*a, *b),
        BinaryOp::Gt => (*b, *a),
        _ => return None,
    };
    if !uni.value(bound) || !is_thread_x(f, x, &defs, plan, 0) {
        return None;
    }
    let ty = f.value_type(x);
    matches!(ty, Type::I32 | Type::I64 | Type::U32 | Type::U64).then(|| ThreadRange { bound, signed: ty.is_signed() })
}

fn definitions(f: &Function) -> HashMap<ValueId, &InstKind> {
    f.blocks.iter().flat_map(|b| b.insts.iter()).filter_map(|i| i.result.map(|r| (r, &i.kind))).collect()
}

/// Whether `v` is `threadIdx.x`, converted to an integer type that holds it (through
/// locals recomputed where read, `int t = threadIdx.x`).
fn is_thread_x(f: &Function, v: ValueId, defs: &HashMap<ValueId, &InstKind>, plan: &Plan, depth: u32) -> bool {
    if depth > 8 || !matches!(f.value_type(v), Type::I32 | Type::I64 | Type::U32 | Type::U64) {
        return false;
    }
    match defs.get(&v) {
        Some(InstKind::Special(SpecialReg::ThreadIdx(Dim::X))) => true,
        Some(InstKind::Cast(a)) => is_thread_x(f, *a, defs, plan, depth + 1),
        Some(InstKind::LoadLocal(l)) => plan.remat.get(l).is_some_and(|s| s.0 != u32::MAX && is_thread_x(f, *s, defs, plan, depth + 1)),
        _ => false,
    }
}

