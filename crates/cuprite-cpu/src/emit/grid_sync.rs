//! Grid barriers of cooperative launches (`grid.sync()`) and threads that wait for each
//! other inside a block (`cuda::barrier::wait`, block-scope pipelines: `WarpOp::Yield`).
//!
//! Both need the general form: a grid barrier is a cut point like `__syncthreads()`,
//! but the block does not go on to the next region: it stops (`__cu_grid_suspend` in the
//! prelude records where), its state stays in the per-block shared memory and thread
//! slots the runtime gives cooperative launches, and the runtime runs it again from
//! there once every block of the grid has stopped or finished (one grid phase). A
//! yield is a cut point that waits for no one, so the resume-point scheduler
//! (`__cu_schedule`) runs the block's other threads before the waiting one checks again.

use crate::cast::*;
use cuprite_ir::{BarrierKind, Function, Terminator, WarpOp};

/// Why a kernel must take the general form for these, if it must.
pub fn general_form_reason(f: &Function) -> Option<&'static str> {
    if has_grid_barrier(f) {
        Some("a grid-wide barrier of a cooperative launch")
    } else if has_yield(f) {
        Some("threads that wait for other threads of the block (cuda::barrier, pipelines)")
    } else {
        None
    }
}

pub fn has_yield(f: &Function) -> bool {
    f.blocks.iter().any(|b| matches!(b.term, Terminator::Warp { op: WarpOp::Yield, .. }))
}

pub fn has_grid_barrier(f: &Function) -> bool {
    f.blocks.iter().any(|b| is_grid_barrier(&b.term))
}

pub fn is_grid_barrier(t: &Terminator) -> bool {
    matches!(t, Terminator::Barrier { kind: BarrierKind::Grid, .. })
}

/// The block stops at a grid barrier; `resume` (nonzero) is what the entry finds in
/// `grid_resume` when the runtime runs the block again.
pub fn suspend(resume: Expr) -> Vec<Stmt> {
    vec![call("__cu_grid_suspend", vec![id("__run"), resume]).stmt(), Stmt::Goto("__grid_next".into())]
}

/// After `__block_done`: a finished block says so; a stopped one jumps past that.
pub fn block_end() -> Vec<Stmt> {
    vec![id("__run").arrow("grid_resume").assign(lit("0u")).stmt(), Stmt::Label("__grid_next".into())]
}

/// At the top of the block body of a kernel without warp collectives: a block stopped at
/// a grid barrier goes on at the region after it (`grid_resume` = region + 1).
pub fn resume_at_region(ver: &str, regions: &[usize]) -> Stmt {
    let cases = regions.iter().map(|r| (lit(format!("{}u", r + 1)), vec![Stmt::Goto(format!("{ver}__region{r}"))])).collect();
    Stmt::Switch { value: id("__run").arrow("grid_resume"), cases, default: vec![] }
}
