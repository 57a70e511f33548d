//! Loop rotation of grid-stride loops under fission (loop guards, `stride_loop.rs`).
//!
//! A loop guard goes round as two thread loops per round: the body's, then the header's,
//! which updates each thread's mask (`__gN[t] = i < n`) and counts the threads still
//! iterating. When the body's last unit jumps back to the header, the header's work can
//! run at the end of that unit's thread loop instead: for each thread it still comes
//! after the thread's body (the per-thread order is the program's), and between two
//! barriers the order among threads is free. The header's uniform code then runs before
//! that thread loop instead of after it, which is only the same if it reads no memory
//! (the thread loop may store to it) and stores no local (the thread loop may read it).
//! One thread loop per round is saved; the header's own unit still runs when the loop
//! is entered.

use super::*;
use crate::fission::{Plan, Unit};
use crate::uniformity::is_scalar_inst;

/// The loop guard and header unit that the unit `latch` takes over, if it may.
pub(super) fn rotation<'p>(f: &Function, plan: &'p Plan, latch: &Unit, simd: bool) -> Option<(usize, &'p Unit)> {
    let uni = &plan.uni;
    let last = latch.last();
    let Terminator::Jump(h) = f.block(last.block).term else { return None };
    let g = uni.guards.iter().position(|g| g.looping && g.owner == h && g.blocks.contains(&last.block))?;
    // The latch's thread loop runs every thread of the guard, vectorised (not one with
    // plain atomics, whose loop is scalar), and nothing diverges to its end.
    if !simd || last.diverges || uni.guard_of[latch.entry().index()] != Some(g) || crate::thread_range::thread_range(f, plan, latch).is_some() {
        return None;
    }
    let header = plan.units.iter().find(|u| u.entry() == h)?;
    let [step] = header.steps.as_slice() else { return None };
    if step.diverges || step.guard_owner != Some(g) {
        return None;
    }
    let movable = f.block(h).insts.iter().all(|i| {
        !is_scalar_inst(&i.kind, uni, i.result) || !matches!(i.kind, InstKind::Load { .. } | InstKind::StoreLocal(..) | InstKind::Store { .. } | InstKind::Copy { .. })
    });
    // The latch must have per-thread work of its own (a thread loop to extend).
    let work = latch.blocks().any(|b| f.block(b).insts.iter().any(|i| !is_scalar_inst(&i.kind, uni, i.result)));
    (movable && work).then_some((g, header))
}
