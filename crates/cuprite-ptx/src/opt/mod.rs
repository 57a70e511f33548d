//! IR optimisations the PTX back-end runs before it writes a module: ptxas allocates
//! registers and folds constants, but it does not unroll loops or move loads out of them
//! when it cannot prove them invariant, which nvcc's front half (NVVM) does. Each pass
//! works on a copy of the module and keeps the IR's invariants (the verifier checks its
//! output in the tests).
//!
//! `sroa`: struct locals whose address does not escape become one scalar local per
//! field (registers, not the `.local` frame).
//! `loops`: natural loops and counted loops (a local stepped by a constant from a
//! constant start, compared with a constant). `unroll`: innermost counted loops with few
//! iterations and a short body become straight-line code with the counter a constant in
//! each copy (nvcc unrolls such loops fully by default). `hoist`: loop-invariant
//! arithmetic and loads move to the loop's preheader when the loop surely runs and writes
//! no memory.

mod hoist;
mod loops;
mod sroa;
mod unroll;

#[cfg(test)]
mod tests;

use cuprite_ir::{BarrierKind, Module, Terminator};

/// The module as the back-end writes it: `m` with every function unrolled and hoisted.
pub fn optimize(m: &Module) -> Module {
    let mut out = m.clone();
    // A module with a grid barrier is written as it is: its kernels must stay co-resident,
    // and more registers from unrolled and hoisted code made a cooperative launch of the
    // size the program computed too large (coop_grid_sync on the H100).
    let grid_sync = m.functions.iter().flat_map(|f| &f.blocks).any(|b| matches!(b.term, Terminator::Barrier { kind: BarrierKind::Grid, .. }));
    if grid_sync {
        return out;
    }
    for f in &mut out.functions {
        if f.blocks.is_empty() {
            continue;
        }
        sroa::scalarize_aggregate_locals(m, f);
        unroll::unroll_counted_loops(f);
        hoist::hoist_invariants(f);
    }
    out
}
