//! Range guards: `if (p >= n) return;` (or `if (p < n) { ... }`) with `p = blockIdx.x *
//! blockDim.x + threadIdx.x` and `n` block-uniform admits exactly the threads with
//! `threadIdx.x < n - blockIdx.x * blockDim.x`. Such a region is a guard
//! (`uniformity::Guard::range_x`) even without warp collectives: its uniform loops
//! (k-means' loops over centroids and features) become scalar C around thread loops that
//! run `x` below that limit, with no per-thread mask to test. Exact only where `p` cannot
//! wrap: in the fast copy of the block body (block indices below 2^21, `blockDim.x` at
//! most 1024, so `p < 2^31`); the general copy tests the guard's mask as for any guard.

use cuprite_ir::*;
use std::collections::HashMap;

/// The threads entering a range guard: `threadIdx.x < bound - blockIdx.x * mul`.
#[derive(Debug, Clone, Copy)]
pub struct RangeX {
    /// `n`, a 32-bit integer (block-uniform: checked by the caller).
    pub bound: ValueId,
    /// Whether `p` and `n` compare signed.
    pub signed: bool,
    /// The multiplier of `blockIdx.x`: `None` for `blockDim.x`, else a constant 1..=1024.
    pub mul: Option<u32>,
}

/// The range of a divergent branch ending `d` on `cond`, whose region (`blocks`) the
/// threads with `cond == enter_when` enter, when it has the shape above. Only where it
/// can pay: the region holds a loop (to run as uniform code around thread loops), and
/// the kernel has a barrier or warp collective (so it is fissioned anyway: a
/// barrier-free kernel whose plan has more than one unit keeps the general form, and a
/// guard without a loop would only add a thread loop).
pub fn range_x(f: &Function, d: BlockId, cond: ValueId, enter_when: bool, blocks: &[BlockId]) -> Option<RangeX> {
    let synchronises = f.blocks.iter().any(|b| matches!(b.term, Terminator::Barrier { .. } | Terminator::Warp { .. }));
    if !synchronises || !has_cycle(f, blocks) {
        return None;
    }
    let defs: HashMap<ValueId, (BlockId, usize, &InstKind)> = f
        .blocks
        .iter()
        .enumerate()
        .flat_map(|(bi, b)| b.insts.iter().enumerate().filter_map(move |(ii, i)| i.result.map(|r| (r, (BlockId(bi as u32), ii, &i.kind)))))
        .collect();
    let (_, _, InstKind::Binary(op, a, b)) = defs.get(&cond)? else { return None };
    // Entered when `p < n`: `p < n` true, `p >= n` false, `n > p` true, `n <= p` false.
    let (p, n) = match (op, enter_when) {
        (BinaryOp::Lt, true) | (BinaryOp::Ge, false) => (*a, *b),
        (BinaryOp::Gt, true) | (BinaryOp::Le, false) => (*b, *a),
        _ => return None,
    };
    let ty = f.value_type(p);
    if !matches!(ty, Type::I32 | Type::U32) || f.value_type(n) != ty {
        return None;
    }
    let mul = global_x(f, &defs, d, p, 0)?;
    Some(RangeX { bound: n, signed: ty.is_signed(), mul })
}

/// `Some(mul)` when `v` is `blockIdx.x * mul + threadIdx.x` (either order, through 32-bit
/// casts and a local stored once with it), as 32 bits.
fn global_x(f: &Function, defs: &HashMap<ValueId, (BlockId, usize, &InstKind)>, at: BlockId, v: ValueId, depth: u32) -> Option<Option<u32>> {
    if depth > 8 || !matches!(f.value_type(v), Type::I32 | Type::U32) {
        return None;
    }
    let (b, ii, kind) = defs.get(&v)?;
    match kind {
        InstKind::Cast(a) => global_x(f, defs, at, *a, depth + 1),
        InstKind::LoadLocal(l) => {
            let s = single_store(f, *l, *b, *ii)?;
            global_x(f, defs, at, s, depth + 1)
        }
        InstKind::Binary(BinaryOp::Add, x, y) => {
            let tx = |v: ValueId| is_special(f, defs, v, SpecialReg::ThreadIdx(Dim::X), 0);
            let base = if tx(*y) { *x } else if tx(*x) { *y } else { return None };
            block_base(f, defs, base)
        }
        _ => None,
    }
}

/// `blockIdx.x * blockDim.x` (`None`) or `blockIdx.x * K` (`Some(K)`, 1 <= K <= 1024).
fn block_base(f: &Function, defs: &HashMap<ValueId, (BlockId, usize, &InstKind)>, v: ValueId) -> Option<Option<u32>> {
    let (_, _, InstKind::Binary(BinaryOp::Mul, x, y)) = defs.get(&v)? else { return None };
    let bx = |v: ValueId| is_special(f, defs, v, SpecialReg::BlockIdx(Dim::X), 0);
    let other = if bx(*x) { *y } else if bx(*y) { *x } else { return None };
    if is_special(f, defs, other, SpecialReg::BlockDim(Dim::X), 0) {
        return Some(None);
    }
    let kinds: HashMap<ValueId, InstKind> = defs.iter().map(|(v, (_, _, k))| (*v, (*k).clone())).collect();
    let k = crate::const_fold::small_const(other, &kinds, &|v| f.value_type(v).clone(), 8)?;
    (1..=1024).contains(&k).then_some(Some(k as u32))
}

/// Whether `v` is the special register `s` (through casts to 32-bit integers).
fn is_special(f: &Function, defs: &HashMap<ValueId, (BlockId, usize, &InstKind)>, v: ValueId, s: SpecialReg, depth: u32) -> bool {
    if depth > 4 || !matches!(f.value_type(v), Type::I32 | Type::U32) {
        return false;
    }
    match defs.get(&v) {
        Some((_, _, InstKind::Special(r))) => *r == s,
        Some((_, _, InstKind::Cast(a))) => is_special(f, defs, *a, s, depth + 1),
        _ => false,
    }
}

/// The value of the one store to local `l` in the whole function, when it precedes the
/// load at instruction `ii` of block `b` in that block or lies in the entry block (which
/// no jump enters), and `l`'s address is never taken: then every load reads it.
fn single_store(f: &Function, l: LocalId, b: BlockId, ii: usize) -> Option<ValueId> {
    let entry_reentered = f.blocks.iter().any(|blk| blk.term.successors().contains(&BlockId(0)));
    let mut found = None;
    for (bi, blk) in f.blocks.iter().enumerate() {
        for (k, i) in blk.insts.iter().enumerate() {
            match i.kind {
                InstKind::StoreLocal(sl, v) if sl == l => {
                    if found.is_some() {
                        return None;
                    }
                    let before = if bi == b.index() { k < ii } else { bi == 0 && !entry_reentered };
                    if !before {
                        return None;
                    }
                    found = Some(v);
                }
                InstKind::LocalAddr(a) if a == l => return None,
                _ => {}
            }
        }
    }
    found
}

/// Whether some block of `blocks` reaches itself through `blocks`.
fn has_cycle(f: &Function, blocks: &[BlockId]) -> bool {
    blocks.iter().any(|start| {
        let mut seen = vec![false; f.blocks.len()];
        let mut stack: Vec<BlockId> = f.block(*start).term.successors();
        while let Some(b) = stack.pop() {
            if b == *start {
                return true;
            }
            if !blocks.contains(&b) || std::mem::replace(&mut seen[b.index()], true) {
                continue;
            }
            stack.extend(f.block(b).term.successors());
        }
        false
    })
}
