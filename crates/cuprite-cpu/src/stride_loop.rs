//! Grid-stride loops as masked uniform loops (*loop guards*).
//!
//! `for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)`
//! is a loop with a varying exit, so each thread would run all its iterations inside one
//! thread loop: thread 0 reads `in[i]`, `in[i + stride]`, … before thread 1 starts, a
//! column walk through memory with a stride of the whole grid. Its bound and step are
//! block-uniform, so every thread runs about as many iterations as the others, and
//! interchanging the two loops is what a CPU wants: the loop becomes uniform control flow
//! (scalar C) that goes round while some thread still iterates, each iteration one thread
//! loop over the threads whose per-thread mask is still set (`uniformity::Guard` with
//! `looping`), reading `in[base + t]` for consecutive `t`: contiguous, vectorised.
//! Threads may run their iterations in that order: between barriers CUDA leaves the
//! interleaving of threads open (warp-synchronous kernels never come here).

use crate::uniformity::{divergent_region, Guard};
use cuprite_ir::*;

/// The loop guard that the loop headed by `h` would be, if it has the shape: `h` ends in a
/// branch on `i <op> bound` whose other side leaves the loop for `h`'s immediate
/// post-dominator, the loop is single-entry (one outside predecessor, jumping to `h`)
/// and single-exit (only `h` leaves it), has no barrier, warp collective or return, and
/// changes `i` once per iteration by `i += step`. Returns the guard and the values
/// `(bound, step)`, which must turn out block-uniform (`uniformity::analyse` checks).
pub fn loop_guard_shape(f: &Function, h: BlockId, ipdom: &[Option<BlockId>], dom: &cuprite_ir::dom::Dominators) -> Option<(Guard, ValueId, ValueId)> {
    let Terminator::Branch { cond, then, else_ } = f.block(h).term else { return None };
    let exit = ipdom[h.index()]?;
    let (entry, enter_when) = match exit {
        e if e == else_ && then != else_ => (then, true),
        e if e == then && then != else_ => (else_, false),
        _ => return None,
    };
    let blocks = divergent_region(f, h, Some(exit));
    if !blocks.contains(&h) {
        return None; // not a loop
    }
    for b in &blocks {
        if !dom.dominates(h, *b) {
            return None;
        }
        let term = &f.block(*b).term;
        if !matches!(term, Terminator::Jump(_) | Terminator::Branch { .. } | Terminator::Switch { .. }) {
            return None;
        }
        for s in term.successors() {
            let inside = blocks.contains(&s);
            if !(inside || (s == exit && *b == h)) {
                return None;
            }
        }
    }
    let outside_preds: Vec<BlockId> = (0..f.blocks.len())
        .map(|i| BlockId(i as u32))
        .filter(|p| dom.reachable(*p) && !blocks.contains(p) && f.block(*p).term.successors().contains(&h))
        .collect();
    if outside_preds.len() != 1 || !matches!(f.block(outside_preds[0]).term, Terminator::Jump(t) if t == h) {
        return None;
    }
    let (bound, step) = induction(f, h, cond, &blocks)?;
    Some((Guard { owner: h, entry, enter_when, join: Some(exit), blocks, looping: true, single_x: None, range_x: None }, bound, step))
}

/// `cond` compares a local `i` with `bound`, and the loop stores `i` once, with
/// `i + step` (or `i - step`): `(bound, step)`. Casts between the operands are allowed
/// (`i += blockDim.x * gridDim.x` adds in `unsigned`).
fn induction(f: &Function, h: BlockId, cond: ValueId, blocks: &[BlockId]) -> Option<(ValueId, ValueId)> {
    let InstKind::Binary(op, a, b) = def_in(f, h, cond)? else { return None };
    if !op.is_comparison() {
        return None;
    }
    let direct = match (loaded_local(f, h, a), loaded_local(f, h, b)) {
        (Some(i), _) if stepped_by(f, i, blocks).is_some() => Some((i, b)),
        (_, Some(i)) if stepped_by(f, i, blocks).is_some() => Some((i, a)),
        _ => None,
    };
    // `i0 + k * step < n` after `stride_affine.rs`: the counter `k` steps.
    let (i, bound) = direct.or_else(|| {
        let (ra, rb) = (locals_read(f, h, a, 0), locals_read(f, h, b, 0));
        let counter = |ls: &[LocalId]| ls.iter().copied().find(|l| stepped_by(f, *l, blocks).is_some());
        match (counter(&ra), counter(&rb)) {
            (Some(k), None) if !rb.contains(&k) => Some((k, b)),
            (None, Some(k)) if !ra.contains(&k) => Some((k, a)),
            _ => None,
        }
    })?;
    Some((bound, stepped_by(f, i, blocks)?))
}

/// The step, when the loop stores `i` once, with `i + step` (or `i - step`). Casts between
/// the operands are allowed (`i += blockDim.x * gridDim.x` adds in `unsigned`).
fn stepped_by(f: &Function, i: LocalId, blocks: &[BlockId]) -> Option<ValueId> {
    let mut stores = blocks.iter().flat_map(|blk| {
        f.block(*blk).insts.iter().filter_map(move |x| match x.kind {
            InstKind::StoreLocal(l, v) if l == i => Some((*blk, v)),
            _ => None,
        })
    });
    let (sb, v) = stores.next()?;
    if stores.next().is_some() {
        return None;
    }
    let InstKind::Binary(op, x, y) = def_in(f, sb, strip_casts(f, sb, v))? else { return None };
    match op {
        BinaryOp::Add if loaded_local(f, sb, x) == Some(i) => Some(y),
        BinaryOp::Add if loaded_local(f, sb, y) == Some(i) => Some(x),
        BinaryOp::Sub if loaded_local(f, sb, x) == Some(i) => Some(y),
        _ => None,
    }
}

/// The instruction of block `b` that defines `v` (values are block-local).
fn def_in(f: &Function, b: BlockId, v: ValueId) -> Option<InstKind> {
    f.block(b).insts.iter().find(|i| i.result == Some(v)).map(|i| i.kind.clone())
}

fn strip_casts(f: &Function, b: BlockId, mut v: ValueId) -> ValueId {
    while let Some(InstKind::Cast(a)) = def_in(f, b, v) {
        v = a;
    }
    v
}

/// The local that `v` loads (through casts), if any.
fn loaded_local(f: &Function, b: BlockId, v: ValueId) -> Option<LocalId> {
    match def_in(f, b, strip_casts(f, b, v))? {
        InstKind::LoadLocal(l) => Some(l),
        _ => None,
    }
}

/// The locals whose loads `v` is computed from, within block `b`.
fn locals_read(f: &Function, b: BlockId, v: ValueId, depth: u32) -> Vec<LocalId> {
    if depth > 16 {
        return Vec::new();
    }
    match def_in(f, b, v) {
        Some(InstKind::LoadLocal(l)) => vec![l],
        Some(k) => crate::inline::inst_uses(&k).into_iter().flat_map(|u| locals_read(f, b, u, depth + 1)).collect(),
        None => Vec::new(),
    }
}
