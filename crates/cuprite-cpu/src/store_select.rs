//! Conditional stores back to just-loaded addresses as unconditional stores of a select.
//!
//! A compare-and-swap (`x = a[i]; y = a[p]; if (x > y) { a[i] = y; a[p] = x; }`, a
//! bitonic sort's stage) is an unpredictable branch per thread: half the threads of a
//! random input take it. When the branch's side holds nothing but stores to addresses
//! the block before it loaded (and pure arithmetic), it becomes `a[i] = c ? y : x; a[p]
//! = c ? x : y;` with no branch. Not taking the branch then writes back what was just
//! read, which nothing can tell apart:
//! - in this thread: no write happened between the load and the store (nothing but
//!   pure code follows the load in its block), and a sequence of such write-backs
//!   leaves memory as it was even when two of the addresses are the same;
//! - in other threads: one that wrote the location in between would race with this
//!   thread's load (undefined in CUDA's memory model, as in C++'s), and a reader sees
//!   the value the location holds anyway.
//!
//! Only non-volatile accesses, only where the side is entered from that block alone, and
//! never in checking mode (the written-back stores would be reported as accesses).

use cuprite_ir::*;
use std::collections::{HashMap, HashSet};

/// Rewrites every such branch of `f`. Returns how many.
pub fn select_conditional_stores(f: &mut Function) -> usize {
    let defs: HashMap<ValueId, InstKind> =
        f.blocks.iter().flat_map(|b| b.insts.iter()).filter_map(|i| i.result.map(|r| (r, i.kind.clone()))).collect();
    let addr_taken: HashSet<LocalId> = f
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter())
        .filter_map(|i| match i.kind {
            InstKind::LocalAddr(l) => Some(l),
            _ => None,
        })
        .collect();
    let mut preds = vec![0usize; f.blocks.len()];
    for b in &f.blocks {
        for s in b.term.successors() {
            preds[s.index()] += 1;
        }
    }
    let mut done = 0;
    for bi in 0..f.blocks.len() {
        let Terminator::Branch { cond, then, else_ } = f.blocks[bi].term.clone() else { continue };
        let (side, join, taken_when) = match (&f.block(then).term, &f.block(else_).term) {
            (Terminator::Jump(j), _) if *j == else_ && then != else_ => (then, else_, true),
            (_, Terminator::Jump(j)) if *j == then && then != else_ => (else_, then, false),
            _ => continue,
        };
        if side.index() == bi || preds[side.index()] != 1 || join.index() == bi {
            continue;
        }
        let Some(plan) = plan_block(f, BlockId(bi as u32), side, &defs, &addr_taken) else { continue };
        // The side's code, in order, into the block; each store writes a select.
        let side_insts = std::mem::take(&mut f.blocks[side.index()].insts);
        let mut moved = Vec::with_capacity(side_insts.len() + plan.len());
        for (k, inst) in side_insts.into_iter().enumerate() {
            match (inst.kind, plan.get(&k)) {
                (InstKind::Store { ptr, value, volatile: false }, Some(old)) => {
                    let ty = f.value_type(value).clone();
                    f.values.push(ty);
                    let sel = ValueId(f.values.len() as u32 - 1);
                    let (a, b) = if taken_when { (value, *old) } else { (*old, value) };
                    moved.push(Inst { result: Some(sel), kind: InstKind::Select(cond, a, b), loc: inst.loc });
                    moved.push(Inst { result: None, kind: InstKind::Store { ptr, value: sel, volatile: false }, loc: inst.loc });
                }
                (kind, _) => moved.push(Inst { result: inst.result, kind, loc: inst.loc }),
            }
        }
        f.blocks[bi].insts.extend(moved);
        done += 1;
    }
    done
}

/// For each store of `side` (by index), the value `block` loaded from the same address,
/// when every instruction of `side` is pure or such a store, and nothing after those
/// loads in `block` writes memory.
fn plan_block(f: &Function, block: BlockId, side: BlockId, defs: &HashMap<ValueId, InstKind>, addr_taken: &HashSet<LocalId>) -> Option<HashMap<usize, ValueId>> {
    let b = f.block(block);
    let s = f.block(side);
    let stored_locals: HashSet<LocalId> = b
        .insts
        .iter()
        .chain(s.insts.iter())
        .filter_map(|i| match i.kind {
            InstKind::StoreLocal(l, _) => Some(l),
            _ => None,
        })
        .collect();
    // Loads of `block` after which it writes no memory, with their addresses.
    let mut loads: Vec<(ValueId, ValueId)> = Vec::new();
    for inst in &b.insts {
        match &inst.kind {
            InstKind::Load { ptr, volatile: false } => loads.extend(inst.result.map(|r| (*ptr, r))),
            InstKind::StoreLocal(l, _) if !addr_taken.contains(l) => {}
            k if is_pure(k) || matches!(k, InstKind::Load { .. }) => {}
            _ => loads.clear(),
        }
    }
    let eq = Same { f, defs, stored_locals: &stored_locals, addr_taken };
    let mut plan = HashMap::new();
    for (k, inst) in s.insts.iter().enumerate() {
        match &inst.kind {
            InstKind::Store { ptr, value, volatile: false } => {
                let scalar = matches!(f.value_type(*value), Type::Bool | Type::I8 | Type::U8 | Type::I16 | Type::U16 | Type::I32 | Type::U32 | Type::I64 | Type::U64 | Type::F32 | Type::F64 | Type::Ptr(_));
                if !scalar {
                    return None;
                }
                let old = loads.iter().find(|(p, r)| f.value_type(*r) == f.value_type(*value) && eq.same(*ptr, *p, 0))?.1;
                plan.insert(k, old);
            }
            k if is_pure(k) => {}
            _ => return None,
        }
    }
    (!plan.is_empty()).then_some(plan)
}

/// Computes a value without touching memory, faulting or depending on anything but its
/// operands (integer division included: it never traps on the GPU or here).
fn is_pure(k: &InstKind) -> bool {
    k.is_pure_value() || matches!(k, InstKind::LoadLocal(_) | InstKind::FuncAddr(_))
}

/// Structural equality of two values computed in the block and its side.
struct Same<'a> {
    f: &'a Function,
    defs: &'a HashMap<ValueId, InstKind>,
    /// Locals written in either block (a load of one may differ between the two).
    stored_locals: &'a HashSet<LocalId>,
    addr_taken: &'a HashSet<LocalId>,
}

impl Same<'_> {
    fn same(&self, a: ValueId, b: ValueId, depth: u32) -> bool {
        if a == b {
            return true;
        }
        if depth > 12 || self.f.value_type(a) != self.f.value_type(b) {
            return false;
        }
        let (Some(x), Some(y)) = (self.defs.get(&a), self.defs.get(&b)) else { return false };
        let s = |p: &ValueId, q: &ValueId| self.same(*p, *q, depth + 1);
        match (x, y) {
            (InstKind::Const(p), InstKind::Const(q)) => format!("{p:?}") == format!("{q:?}"),
            (InstKind::Special(p), InstKind::Special(q)) => p == q,
            (InstKind::GlobalAddr(p), InstKind::GlobalAddr(q)) => p == q,
            (InstKind::LoadLocal(p), InstKind::LoadLocal(q)) => p == q && !self.stored_locals.contains(p) && !self.addr_taken.contains(p),
            (InstKind::Unary(o, p), InstKind::Unary(r, q)) => o == r && s(p, q),
            (InstKind::Binary(o, p1, p2), InstKind::Binary(r, q1, q2)) => o == r && s(p1, q1) && s(p2, q2),
            (InstKind::Cast(p), InstKind::Cast(q)) | (InstKind::Bitcast(p), InstKind::Bitcast(q)) => s(p, q),
            (InstKind::PtrAdd { base: p1, index: p2 }, InstKind::PtrAdd { base: q1, index: q2 }) => s(p1, q1) && s(p2, q2),
            (InstKind::FieldAddr { base: p, strukt: ps, field: pf }, InstKind::FieldAddr { base: q, strukt: qs, field: qf }) => {
                ps == qs && pf == qf && s(p, q)
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{kernel, lower};

    /// Rewrites the module's only kernel; the result must pass the IR verifier.
    fn rewritten(src: &str) -> (usize, Function) {
        let mut m = lower(src);
        let (id, _) = m.kernels().next().expect("a kernel");
        let mut f = kernel(&m);
        let n = select_conditional_stores(&mut f);
        m.functions[id.index()] = f.clone();
        cuprite_ir::verify::verify(&m).unwrap_or_else(|e| panic!("invalid IR after the rewrite: {e:#?}"));
        (n, f)
    }

    fn stores_under_branches(f: &Function) -> usize {
        f.blocks
            .iter()
            .filter(|b| matches!(b.term, Terminator::Branch { .. }))
            .flat_map(|b| b.term.successors())
            .filter(|s| f.block(*s).insts.iter().any(|i| matches!(i.kind, InstKind::Store { .. })))
            .count()
    }

    #[test]
    fn a_compare_and_swap_stores_selects() {
        let (n, f) = rewritten(
            "__global__ void stage(unsigned *a, int j) {
                unsigned i = blockIdx.x * blockDim.x + threadIdx.x, p = i ^ j;
                if (p > i) {
                    unsigned x = a[i], y = a[p];
                    if (x > y) { a[i] = y; a[p] = x; }
                }
            }",
        );
        assert_eq!(n, 1);
        // Both stores now sit in the block of the loads (under `p > i` only) and store
        // selects; the swap's side is empty.
        let insts: Vec<&Inst> = f.blocks.iter().flat_map(|b| b.insts.iter()).collect();
        let selects: Vec<ValueId> = insts.iter().filter(|i| matches!(i.kind, InstKind::Select(..))).filter_map(|i| i.result).collect();
        let stored: Vec<ValueId> = insts.iter().filter_map(|i| match i.kind {
            InstKind::Store { value, .. } => Some(value),
            _ => None,
        }).collect();
        assert_eq!(selects.len(), 2);
        assert_eq!(stored, selects, "{f:#?}");
        assert_eq!(stores_under_branches(&f), 1, "only the block of the loads: {f:#?}");
    }

    #[test]
    fn stores_elsewhere_volatile_or_after_a_write_stay_conditional() {
        for src in [
            // Stores to an address not loaded before.
            "__global__ void k(int *a, int *b) { int x = a[threadIdx.x]; if (x > 0) b[threadIdx.x] = x; }",
            // Volatile.
            "__global__ void k(volatile int *a) { int x = a[threadIdx.x]; if (x > 0) a[threadIdx.x] = 0; }",
            // A store between the load and the branch: the old value is no longer there.
            "__global__ void k(int *a, int *b) { int x = a[threadIdx.x]; b[0] = 1; if (x > 0) a[threadIdx.x] = 0; }",
            // A load in the side (it might fault when the branch is not taken).
            "__global__ void k(int *a, int *b) { int x = a[threadIdx.x]; if (x > 0) a[threadIdx.x] = b[x]; }",
        ] {
            let (n, f) = rewritten(src);
            assert_eq!(n, 0, "{src}");
            assert_eq!(stores_under_branches(&f), 1, "{src}");
        }
    }
}
