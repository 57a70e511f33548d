//! Loop-invariant code motion: an instruction of a loop whose operands do not change in
//! it moves to the loop's preheader. Loads move only when the loop surely runs (a counted
//! loop entered with a constant that passes its test), leaves only from its header, and
//! writes no memory that the load could read; the load's block must run on every
//! iteration (it dominates the latch), so the load happens in the original program too
//! and moving it cannot fault where the program did not. A load of the header itself
//! moves whenever the loop writes no memory: the header runs each time the preheader
//! does. Arithmetic moves from those blocks too. Innermost loops go first, so what
//! leaves an inner loop can leave the outer one as well.

use super::loops::{address_taken, natural_loops, surely_entered, Loop};
use cuprite_ir::dom::Dominators;
use cuprite_ir::operands::inst_uses;
use std::collections::HashMap;
use cuprite_ir::{Builtin, BlockId, Function, InstKind, LocalId, Terminator, Type, ValueId};

pub fn hoist_invariants(f: &mut Function) {
    let mut loops = natural_loops(f);
    loops.sort_by_key(|lp| lp.blocks.iter().filter(|b| **b).count());
    for lp in &loops {
        hoist_loop(f, lp);
    }
}

fn is_aggregate(t: &Type) -> bool {
    matches!(t, Type::Array(..) | Type::Struct(_) | Type::Void)
}

/// What a loop writes.
struct Writes {
    /// Memory through pointers (stores, copies, calls, atomics and other builtins).
    memory: bool,
    /// Locals it assigns.
    locals: Vec<bool>,
    /// Whether one of them lives in memory (address taken or an aggregate).
    frame: bool,
}

fn writes(f: &Function, lp: &Loop) -> Writes {
    let mut w = Writes { memory: false, locals: vec![false; f.locals.len()], frame: false };
    for (bi, b) in f.blocks.iter().enumerate().filter(|(bi, _)| lp.contains(*bi)) {
        let _ = bi;
        for inst in &b.insts {
            match &inst.kind {
                InstKind::StoreLocal(l, _) => w.locals[l.index()] = true,
                InstKind::Store { .. } | InstKind::Copy { .. } | InstKind::Call { .. } | InstKind::CallIndirect { .. } | InstKind::Check(_) => w.memory = true,
                InstKind::CallBuiltin { builtin, args } => {
                    if !pure_builtin(f, builtin, args, inst.result) {
                        w.memory = true;
                    }
                }
                _ => {}
            }
        }
        match &b.term {
            // Other threads write memory between a barrier's two sides.
            Terminator::Barrier { result, .. } => {
                w.memory = true;
                if let Some(l) = result {
                    w.locals[l.index()] = true;
                }
            }
            Terminator::Warp { results, .. } => results.iter().for_each(|l| w.locals[l.index()] = true),
            _ => {}
        }
    }
    w.frame = (0..f.locals.len()).any(|l| w.locals[l] && in_frame(f, LocalId(l as u32)));
    w
}

fn in_frame(f: &Function, l: LocalId) -> bool {
    is_aggregate(&f.local(l).ty) || address_taken(f, l)
}

/// A math function of scalars: no pointer operands (which `sincosf`, `modf` and the
/// texture fetches write through) and a scalar result.
fn pure_builtin(f: &Function, builtin: &Builtin, args: &[ValueId], result: Option<ValueId>) -> bool {
    matches!(builtin, Builtin::Math(_))
        && args.iter().all(|a| !f.value_type(*a).is_pointer() && !is_aggregate(f.value_type(*a)))
        && result.is_some_and(|r| !is_aggregate(f.value_type(r)))
}

/// How a pointer value was made, as far as `root_local` follows it.
#[derive(Clone, Copy)]
enum PtrDef {
    Local(LocalId),
    From(ValueId),
}

/// The local a pointer is derived from by field and element arithmetic, if any.
fn root_local(defs: &HashMap<ValueId, PtrDef>, mut p: ValueId) -> Option<LocalId> {
    loop {
        match defs.get(&p)? {
            PtrDef::Local(l) => return Some(*l),
            PtrDef::From(base) => p = *base,
        }
    }
}

fn pointer_defs(f: &Function) -> HashMap<ValueId, PtrDef> {
    let mut defs = HashMap::new();
    for inst in f.blocks.iter().flat_map(|b| &b.insts) {
        let Some(r) = inst.result else { continue };
        let d = match &inst.kind {
            InstKind::LocalAddr(l) => PtrDef::Local(*l),
            InstKind::FieldAddr { base, .. } | InstKind::PtrAdd { base, .. } => PtrDef::From(*base),
            InstKind::Cast(x) if f.value_type(*x).is_pointer() => PtrDef::From(*x),
            _ => continue,
        };
        defs.insert(r, d);
    }
    defs
}

fn hoist_loop(f: &mut Function, lp: &Loop) {
    let dom = Dominators::new(f);
    let latch = BlockId(lp.latch as u32);
    let w = writes(f, lp);
    let loads_may_move = !w.memory && surely_entered(f, lp) && lp.exits_only_from_header(f);
    let defs = pointer_defs(f);
    // Before any block's instructions are taken out below.
    let frame: Vec<bool> = (0..f.locals.len()).map(|l| in_frame(f, LocalId(l as u32))).collect();
    let mut variant = vec![false; f.values.len()];
    for (bi, b) in f.blocks.iter().enumerate().filter(|(bi, _)| lp.contains(*bi)) {
        let _ = bi;
        b.insts.iter().filter_map(|i| i.result).for_each(|r| variant[r.index()] = true);
    }
    let order: Vec<usize> = dom.reverse_postorder().map(|b| b.index()).filter(|&b| lp.contains(b) && dom.dominates(BlockId(b as u32), latch)).collect();
    // First what may move, then what is worth it: loads and math calls with the
    // arithmetic they need. Arithmetic alone stays (ptxas moves it as its registers
    // allow; hoisted, sgemm's 32 unrolled tile addresses held 128 registers).
    let mut movable: HashMap<ValueId, (usize, usize)> = HashMap::new();
    let mut roots = Vec::new();
    for &b in &order {
        for (ii, inst) in f.blocks[b].insts.iter().enumerate() {
            let ok = inst.result.is_some_and(|r| !is_aggregate(f.value_type(r)))
                && inst_uses(&inst.kind).iter().all(|u| !variant[u.index()])
                && match &inst.kind {
                    k if k.is_pure_value() => true,
                    InstKind::LocalAddr(_) => true,
                    InstKind::CallBuiltin { builtin, args } => pure_builtin(f, builtin, args, inst.result),
                    InstKind::LoadLocal(l) => !w.locals[l.index()] && (!frame[l.index()] || !w.memory),
                    // A load of the header runs whenever the preheader does (it jumps
                    // there), so it may move there whenever the loop writes no memory
                    // (spmv's `e < row_start[r + 1]`).
                    InstKind::Load { ptr, volatile: false } => {
                        (loads_may_move || (b == lp.header && !w.memory))
                            && match root_local(&defs, *ptr) {
                                Some(l) => !w.locals[l.index()],
                                None => !w.frame,
                            }
                    }
                    _ => false,
                };
            if ok {
                let r = inst.result.unwrap();
                variant[r.index()] = false;
                movable.insert(r, (b, ii));
                if matches!(inst.kind, InstKind::Load { .. } | InstKind::CallBuiltin { .. }) {
                    roots.push(r);
                }
            }
        }
    }
    let mut chosen = std::collections::HashSet::new();
    while let Some(r) = roots.pop() {
        if !chosen.insert(r) {
            continue;
        }
        let (b, ii) = movable[&r];
        roots.extend(inst_uses(&f.blocks[b].insts[ii].kind).into_iter().filter(|u| movable.contains_key(u)));
    }
    let mut moved = Vec::new();
    for b in order {
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let (go, keep): (Vec<_>, Vec<_>) = insts.into_iter().partition(|i| i.result.is_some_and(|r| chosen.contains(&r)));
        moved.extend(go);
        f.blocks[b].insts = keep;
    }
    f.blocks[lp.preheader].insts.extend(moved);
}
