//! Uniformity analysis: which values, locals and blocks are the same for every thread of
//! a block (*block-uniform*) and which may differ between threads (*varying*).
//!
//! Works on block-local IR (values never cross blocks; `block_local` demotes them), where
//! threads communicate values between blocks only through locals. It is an optimistic
//! fixpoint: everything starts uniform and the varying sets only grow.
//! - A value is varying if it comes from `threadIdx`/the lane id, from memory (any load:
//!   conservative, no analysis of which threads write it), from a call or builtin, from
//!   a local's address, or from a varying operand or local.
//! - A block is varying (executed by a subset of the block's threads) if it lies on a
//!   path from a branch with a varying condition to that branch's immediate
//!   post-dominator (where all threads meet again).
//! - A local is varying if its address is taken, if some store gives it a varying value,
//!   or if some store is in a varying block (threads that skipped it keep the old value).
//!   Parameters start uniform (every thread gets the same argument); a barrier's result
//!   (`__syncthreads_count`) is uniform when the barrier is in a uniform block.

use cuprite_ir::*;

#[derive(Debug)]
pub struct Uniformity {
    pub varying_value: Vec<bool>,
    pub varying_local: Vec<bool>,
    pub varying_block: Vec<bool>,
    /// Immediate post-dominator of each block; `None` for the function's exit (a block
    /// that returns, or one from which no return is reachable).
    pub ipdom: Vec<Option<BlockId>>,
}

impl Uniformity {
    pub fn value(&self, v: ValueId) -> bool {
        !self.varying_value[v.index()]
    }
    pub fn local(&self, l: LocalId) -> bool {
        !self.varying_local[l.index()]
    }
    pub fn block(&self, b: BlockId) -> bool {
        !self.varying_block[b.index()]
    }
    /// Whether a block ends in a branch or switch on a varying value.
    pub fn divergent_term(&self, f: &Function, b: BlockId) -> bool {
        match &f.block(b).term {
            Terminator::Branch { cond, .. } => !self.value(*cond),
            Terminator::Switch { value, .. } => !self.value(*value),
            _ => false,
        }
    }
}

pub fn analyse(f: &Function) -> Uniformity {
    let n = f.blocks.len();
    let ipdom = post_dominators(f);
    let mut u = Uniformity {
        varying_value: vec![false; f.values.len()],
        varying_local: vec![false; f.locals.len()],
        varying_block: vec![false; n],
        ipdom,
    };
    for b in &f.blocks {
        for i in &b.insts {
            if let InstKind::LocalAddr(l) = i.kind {
                u.varying_local[l.index()] = true;
            }
        }
        if let Terminator::Warp { results, .. } = &b.term {
            for l in results {
                u.varying_local[l.index()] = true;
            }
        }
    }
    loop {
        let mut changed = false;
        for (bi, b) in f.blocks.iter().enumerate() {
            let in_varying_block = u.varying_block[bi];
            for i in &b.insts {
                if let Some(r) = i.result {
                    if !u.varying_value[r.index()] && inst_is_varying(&i.kind, &u) {
                        u.varying_value[r.index()] = true;
                        changed = true;
                    }
                }
                if let InstKind::StoreLocal(l, v) = i.kind {
                    if !u.varying_local[l.index()] && (in_varying_block || u.varying_value[v.index()]) {
                        u.varying_local[l.index()] = true;
                        changed = true;
                    }
                }
            }
            if let Terminator::Barrier { result: Some(l), .. } = b.term {
                if in_varying_block && !u.varying_local[l.index()] {
                    u.varying_local[l.index()] = true;
                    changed = true;
                }
            }
        }
        for bi in 0..n {
            let b = BlockId(bi as u32);
            if u.divergent_term(f, b) {
                changed |= mark_divergent_region(f, b, u.ipdom[bi], &mut u.varying_block);
            }
        }
        if !changed {
            break;
        }
    }
    u
}

/// Whether an instruction's result differs between threads, given what is known so far.
fn inst_is_varying(k: &InstKind, u: &Uniformity) -> bool {
    let vary = |v: &ValueId| u.varying_value[v.index()];
    match k {
        InstKind::Const(_) | InstKind::GlobalAddr(_) | InstKind::FuncAddr(_) => false,
        InstKind::Special(s) => matches!(s, SpecialReg::ThreadIdx(_) | SpecialReg::LaneId),
        InstKind::LoadLocal(l) => u.varying_local[l.index()],
        InstKind::Unary(_, a) | InstKind::Cast(a) | InstKind::Bitcast(a) => vary(a),
        InstKind::Binary(_, a, b) | InstKind::PtrDiff(a, b) => vary(a) || vary(b),
        InstKind::Select(c, a, b) => vary(c) || vary(a) || vary(b),
        InstKind::FieldAddr { base, .. } => vary(base),
        InstKind::PtrAdd { base, index } => vary(base) || vary(index),
        InstKind::LocalAddr(_)
        | InstKind::Load { .. }
        | InstKind::Call { .. }
        | InstKind::CallIndirect { .. }
        | InstKind::CallBuiltin { .. } => true,
        InstKind::StoreLocal(..) | InstKind::Store { .. } | InstKind::Copy { .. } => true,
    }
}

/// Whether a uniform instruction may run once per block instead of once per thread:
/// it has no effect but on uniform locals and cannot fault.
pub fn is_scalar_inst(k: &InstKind, u: &Uniformity, result: Option<ValueId>) -> bool {
    match k {
        InstKind::StoreLocal(l, v) => u.local(*l) && u.value(*v),
        _ => result.is_some_and(|r| u.value(r)) && !inst_is_varying(k, u),
    }
}

/// Marks the blocks between a divergent branch and its immediate post-dominator (all
/// reachable blocks when there is none). Returns whether a block changed.
fn mark_divergent_region(f: &Function, d: BlockId, stop: Option<BlockId>, varying: &mut [bool]) -> bool {
    let mut changed = false;
    let mut seen = vec![false; f.blocks.len()];
    let mut stack: Vec<BlockId> = f.block(d).term.successors();
    while let Some(b) = stack.pop() {
        if Some(b) == stop || seen[b.index()] {
            continue;
        }
        seen[b.index()] = true;
        if !varying[b.index()] {
            varying[b.index()] = true;
            changed = true;
        }
        stack.extend(f.block(b).term.successors());
    }
    changed
}

/// The blocks between a divergent branch `d` and `stop` (its immediate post-dominator),
/// in depth-first order from `d`'s successors.
pub fn divergent_region(f: &Function, d: BlockId, stop: Option<BlockId>) -> Vec<BlockId> {
    let mut seen = vec![false; f.blocks.len()];
    let mut order = Vec::new();
    let mut stack: Vec<BlockId> = f.block(d).term.successors().into_iter().rev().collect();
    while let Some(b) = stack.pop() {
        if Some(b) == stop || seen[b.index()] {
            continue;
        }
        seen[b.index()] = true;
        order.push(b);
        stack.extend(f.block(b).term.successors().into_iter().rev());
    }
    order
}

/// Immediate post-dominators (Cooper, Harvey and Kennedy's algorithm on the reversed CFG
/// with a virtual exit after every returning block). `None`: the exit.
pub fn post_dominators(f: &Function) -> Vec<Option<BlockId>> {
    let n = f.blocks.len();
    let exit = n;
    // Reverse graph: the "predecessors" of b there are its successors here.
    let mut rsucc: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    let mut rpred: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    for (bi, b) in f.blocks.iter().enumerate() {
        let succ = b.term.successors();
        if succ.is_empty() {
            rsucc[exit].push(bi);
            rpred[bi].push(exit);
        }
        for s in succ {
            rsucc[s.index()].push(bi);
            rpred[bi].push(s.index());
        }
    }
    // Postorder of the reverse graph from the exit.
    let mut order = Vec::new();
    let mut seen = vec![false; n + 1];
    let mut stack: Vec<(usize, usize)> = vec![(exit, 0)];
    seen[exit] = true;
    while let Some((b, k)) = stack.last_mut() {
        if let Some(&s) = rsucc[*b].get(*k) {
            *k += 1;
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            order.push(*b);
            stack.pop();
        }
    }
    order.reverse();
    let mut index = vec![usize::MAX; n + 1];
    for (i, b) in order.iter().enumerate() {
        index[*b] = i;
    }
    let mut idom: Vec<Option<usize>> = vec![None; n + 1];
    idom[exit] = Some(exit);
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().skip(1) {
            let mut new: Option<usize> = None;
            for &p in &rpred[b] {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(mut x) => {
                        let mut y = p;
                        while x != y {
                            while index[x] > index[y] {
                                x = idom[x].unwrap();
                            }
                            while index[y] > index[x] {
                                y = idom[y].unwrap();
                            }
                        }
                        x
                    }
                });
            }
            if new.is_some() && idom[b] != new {
                idom[b] = new;
                changed = true;
            }
        }
    }
    (0..n).map(|b| idom[b].filter(|&p| p != exit).map(|p| BlockId(p as u32))).collect()
}
