//! Uniformity analysis: which values, locals and blocks are the same for every thread of
//! a block (*block-uniform*) and which may differ between threads (*varying*).
//!
//! Works on block-local IR (values never cross blocks; `block_local` demotes them), where
//! threads communicate values between blocks only through locals. It is an optimistic
//! fixpoint: everything starts uniform and the varying sets only grow.
//! - A value is varying if it comes from `threadIdx`/the lane id, from a load through a
//!   varying address (or a volatile load, or one after a store in its block, or any load
//!   in a warp-synchronous kernel), from a call or builtin, from a local's address, or
//!   from a varying operand or local.
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
    /// Divergent `if`s around loops, analysed as guarded uniform code (see `Guard`).
    pub guards: Vec<Guard>,
    /// The innermost guard around each block.
    pub guard_of: Vec<Option<usize>>,
}

/// A branch on a varying value whose one side is a single-entry region holding warp
/// collectives and no barrier (`if (row >= rows) return;` before a softmax row's
/// shuffles, `if (warp == 0) { shuffles }`). Instead of divergent, the region is uniform code *guarded* by
/// a per-thread mask: its uniform control flow runs once per block whether or not any
/// thread takes the branch (it is pure), its per-thread work only for the threads that
/// do; its warp collectives are computed among those threads (instead of sending the
/// kernel to the general scheduler). Guards around plain loops measured slower than
/// divergent code (k-means 0.64x: masked thread loops over struct slots), so only
/// collectives make a guard. A local stored in the
/// region is varying if it is live where the sides meet again (threads that skipped the
/// region keep their old value).
#[derive(Debug, Clone)]
pub struct Guard {
    /// The block that ends in the branch, and the region's entry.
    pub owner: BlockId,
    pub entry: BlockId,
    /// Threads enter the region when the condition equals this.
    pub enter_when: bool,
    /// Where the sides meet (`None`: the other side returns at once).
    pub join: Option<BlockId>,
    pub blocks: Vec<BlockId>,
    /// A grid-stride loop (`stride_loop.rs`): `owner` is the loop's header, inside the
    /// region; its branch updates the mask of the threads still iterating, and the
    /// uniform loop goes round while one does. `join` is the loop's exit.
    pub looping: bool,
    /// A region only the threads with `threadIdx.x == c` enter (`if (threadIdx.x == 0)
    /// p[0] = halo;`): `c`, block-uniform. Such a region needs no collective to be a guard:
    /// its thread loops run `x = c` only, and the thread loop around it no longer holds a
    /// store to one fixed address, which the vectoriser refuses.
    pub single_x: Option<ValueId>,
    /// A region only the threads with `blockIdx.x * blockDim.x + threadIdx.x < n` enter
    /// (`if (p >= n) return;` before k-means' loops; `range_guard.rs`): a guard without
    /// collectives, whose thread loops run `x` below a limit. Never nested in or around
    /// another guard.
    pub range_x: Option<crate::range_guard::RangeX>,
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
    /// The guard whose branch ends this block, if any.
    pub fn guard_owned_by(&self, b: BlockId) -> Option<usize> {
        self.guards.iter().position(|g| g.owner == b)
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
    analyse_for(f, None)
}

/// `analyse` for the multi-block form (`emit/multi_block.rs`), where one thread loop's
/// uniform code serves several consecutive blocks: with `per_block` (the module's shared
/// variables), `blockIdx` and shared-memory addresses differ between those blocks, so
/// they count as varying.
pub fn analyse_for(f: &Function, per_block: Option<&std::collections::HashSet<GlobalId>>) -> Uniformity {
    // Grid-stride loops become loop guards when their bound and step turn out uniform;
    // a loop that fails is analysed again as divergent code.
    let ipdom = post_dominators(f);
    let dom = cuprite_ir::dom::Dominators::new(f);
    let mut loops: Vec<(BlockId, ValueId, ValueId)> = (0..f.blocks.len())
        .filter_map(|b| crate::stride_loop::loop_guard_shape(f, BlockId(b as u32), &ipdom, &dom).map(|(g, bound, step)| (g.owner, bound, step)))
        .collect();
    // Single-thread regions whose `c` turned out varying: divergent code after all.
    let mut not_single: Vec<BlockId> = Vec::new();
    loop {
        let headers: Vec<BlockId> = loops.iter().map(|l| l.0).collect();
        let u = analyse_with(f, &headers, &not_single, per_block);
        let nests = |g: &Guard| u.guards.iter().any(|o| o.owner != g.owner && (o.blocks.iter().any(|b| g.blocks.contains(b)) || g.blocks.contains(&o.owner) || o.blocks.contains(&g.owner)));
        let bad_single: Vec<BlockId> = u
            .guards
            .iter()
            .filter(|g| g.single_x.is_some_and(|c| !u.value(c)) || g.range_x.is_some_and(|r| !u.value(r.bound) || nests(g)))
            .map(|g| g.owner)
            .collect();
        if !bad_single.is_empty() {
            not_single.extend(bad_single);
            continue;
        }
        let in_force = |h: BlockId, bound: ValueId, step: ValueId| {
            let Some(g) = u.guard_owned_by(h) else { return false };
            // Not nested in another guard, and none nested in it.
            let alone = u.guards.iter().enumerate().all(|(k, o)| k == g || !o.blocks.iter().any(|b| u.guards[g].blocks.contains(b) || *b == h));
            u.value(bound) && u.value(step) && alone
        };
        let before = loops.len();
        loops.retain(|(h, bound, step)| in_force(*h, *bound, *step));
        if loops.len() == before {
            return u;
        }
    }
}

/// The analysis with the grid-stride loops headed by `loop_headers` as loop guards, and
/// no single-thread guard owned by a block of `not_single`.
fn analyse_with(f: &Function, loop_headers: &[BlockId], not_single: &[BlockId], per_block: Option<&std::collections::HashSet<GlobalId>>) -> Uniformity {
    let n = f.blocks.len();
    let ipdom = post_dominators(f);
    let dom = cuprite_ir::dom::Dominators::new(f);
    // Guard shapes, found once a branch turns out divergent.
    let mut candidates: Vec<Option<Option<Guard>>> = vec![None; n];
    let (live_in, _) = crate::simt::local_liveness(f);
    let mut u = Uniformity {
        varying_value: vec![false; f.values.len()],
        varying_local: vec![false; f.locals.len()],
        varying_block: vec![false; n],
        ipdom,
        guards: Vec::new(),
        guard_of: vec![None; n],
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
    // Warp-synchronous kernels communicate through memory without barriers: no load is
    // uniform there.
    let loads_ok = !crate::lockstep::has_steps(f);
    loop {
        let mut changed = false;
        for (bi, b) in f.blocks.iter().enumerate() {
            let in_varying_block = u.varying_block[bi];
            // A load through a uniform address reads the same value in every thread unless
            // the memory changes meanwhile: a store by another thread between two
            // barriers would be a data race, so only the thread's own earlier stores
            // count, and a load after one in its block stays varying (`fission.rs`
            // starts a new thread loop before a block with uniform loads that follows
            // stores).
            let mut stored = false;
            for i in &b.insts {
                if let Some(r) = i.result {
                    let vary = match &i.kind {
                        InstKind::Load { ptr, volatile } => *volatile || !loads_ok || stored || u.varying_value[ptr.index()],
                        k => inst_is_varying(k, &u) || per_block.is_some_and(|sh| differs_per_block(k, sh)),
                    };
                    if !u.varying_value[r.index()] && vary {
                        u.varying_value[r.index()] = true;
                        changed = true;
                    }
                }
                stored |= writes_memory(&i.kind);
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
            if !u.divergent_term(f, b) {
                continue;
            }
            let candidate = candidates[bi].get_or_insert_with(|| {
                if loop_headers.contains(&b) {
                    crate::stride_loop::loop_guard_shape(f, b, &u.ipdom, &dom).map(|(g, _, _)| g)
                } else {
                    guard_shape(f, b, &u.ipdom, &dom, !not_single.contains(&b))
                }
            });
            match candidate {
                Some(g) => {
                    // Locals the region stores and the join reads: threads that skipped
                    // the region keep another value.
                    let live = g.join.map(|j| &live_in[j.index()]);
                    for r in &g.blocks {
                        let block = f.block(*r);
                        let stored = block.insts.iter().filter_map(|i| match i.kind {
                            InstKind::StoreLocal(l, _) => Some(l),
                            _ => None,
                        });
                        let results = match &block.term {
                            Terminator::Warp { results, .. } => results.clone(),
                            _ => vec![],
                        };
                        for l in stored.chain(results) {
                            if live.is_some_and(|s| s.contains(&l)) && !u.varying_local[l.index()] {
                                u.varying_local[l.index()] = true;
                                changed = true;
                            }
                        }
                    }
                }
                None => changed |= mark_divergent_region(f, b, u.ipdom[bi], &mut u.varying_block),
            }
        }
        if !changed {
            break;
        }
    }
    // Guards in force: divergent branches of the right shape on uniform control flow (a
    // guard inside divergent code is just divergent code).
    for (bi, g) in candidates.into_iter().enumerate() {
        let b = BlockId(bi as u32);
        if let Some(g) = g.flatten().filter(|_| u.divergent_term(f, b) && u.block(b)) {
            u.guards.push(g);
        }
    }
    // Regions nest: the innermost guard is the one with the fewest blocks.
    let mut order: Vec<usize> = (0..u.guards.len()).collect();
    order.sort_by_key(|g| std::cmp::Reverse(u.guards[*g].blocks.len()));
    for g in order {
        for b in &u.guards[g].blocks {
            u.guard_of[b.index()] = Some(g);
        }
    }
    u
}

/// The guard a divergent branch would be (see `Guard`), if it has the shape.
fn guard_shape(f: &Function, d: BlockId, ipdom: &[Option<BlockId>], dom: &cuprite_ir::dom::Dominators, single_ok: bool) -> Option<Guard> {
    let Terminator::Branch { cond, then, else_ } = f.block(d).term else { return None };
    if then == else_ {
        return None;
    }
    let join = ipdom[d.index()];
    let returns_at_once = |b: BlockId| {
        matches!(f.block(b).term, Terminator::Return(_))
            && f.block(b).insts.iter().all(|i| !matches!(i.kind, InstKind::Store { .. } | InstKind::StoreLocal(..) | InstKind::Copy { .. } | InstKind::Call { .. } | InstKind::CallIndirect { .. } | InstKind::CallBuiltin { .. }))
    };
    let (entry, enter_when) = match join {
        Some(j) if else_ == j => (then, true),
        Some(j) if then == j => (else_, false),
        None if returns_at_once(else_) => (then, true),
        None if returns_at_once(then) => (else_, false),
        _ => return None,
    };
    let blocks = divergent_region(f, d, join);
    let inside = |b: &BlockId| blocks.contains(b);
    let mut has_collective = false;
    // Lock-step points only (no lane waits for another's value): a single thread
    // inside needs none of them.
    let mut only_lockstep = true;
    let mut preds_outside = false;
    for b in &blocks {
        let term = &f.block(*b).term;
        match term {
            Terminator::Barrier { .. } | Terminator::Unreachable => return None,
            Terminator::Return(_) if join.is_some() => return None,
            Terminator::Warp { op, .. } => {
                has_collective = true;
                only_lockstep &= *op == WarpOp::Lockstep;
            }
            _ => {}
        }
    }
    for pi in 0..f.blocks.len() {
        let p = BlockId(pi as u32);
        if p != d && !inside(&p) && dom.reachable(p) && f.block(p).term.successors().iter().any(inside) {
            preds_outside = true;
        }
    }
    let single_x = if (has_collective && !only_lockstep) || !single_ok { None } else { single_thread(f, d, cond, enter_when) };
    let range_x = if has_collective || single_x.is_some() || !single_ok { None } else { crate::range_guard::range_x(f, d, cond, enter_when, &blocks) };
    ((has_collective || single_x.is_some() || range_x.is_some()) && !preds_outside).then_some(Guard { owner: d, entry, enter_when, join, blocks, looping: false, single_x, range_x })
}

/// `c` when the threads that enter are those with `threadIdx.x == c`: `cond` is
/// `threadIdx.x == c` (or `(int)threadIdx.x`, either side) entered when true, or `!=`
/// entered when false, with `c` a 32-bit integer (negative: no thread).
fn single_thread(f: &Function, d: BlockId, cond: ValueId, enter_when: bool) -> Option<ValueId> {
    let def_in = |b: BlockId, v: ValueId| f.block(b).insts.iter().find(|i| i.result == Some(v)).map(|i| &i.kind);
    let def = |v: ValueId| def_in(d, v);
    let is_tx_in = |b: BlockId, v: ValueId| match def_in(b, v) {
        Some(InstKind::Special(SpecialReg::ThreadIdx(Dim::X))) => true,
        Some(InstKind::Cast(a)) => {
            matches!(f.value_type(v), Type::I32 | Type::U32) && matches!(def_in(b, *a), Some(InstKind::Special(SpecialReg::ThreadIdx(Dim::X))))
        }
        _ => false,
    };
    // `int t = threadIdx.x;` in the entry block, its only assignment (`if (t == 0)`).
    let entry_tx_local = |l: LocalId| {
        let mut stores = f.blocks.iter().flat_map(|b| b.insts.iter()).filter_map(|i| match i.kind {
            InstKind::StoreLocal(sl, v) if sl == l => Some(v),
            _ => None,
        });
        let entry = BlockId(0);
        matches!((stores.next(), stores.next()), (Some(v), None) if def_in(entry, v).is_some() && is_tx_in(entry, v))
            && f.blocks.iter().flat_map(|b| b.insts.iter()).all(|i| !matches!(i.kind, InstKind::LocalAddr(a) if a == l))
    };
    let is_tx = |v: ValueId| match def(v) {
        Some(InstKind::LoadLocal(l)) => matches!(f.value_type(v), Type::I32 | Type::U32) && entry_tx_local(*l),
        _ => is_tx_in(d, v),
    };
    let Some(InstKind::Binary(op, a, b)) = def(cond) else { return None };
    let wanted = if enter_when { BinaryOp::Eq } else { BinaryOp::Ne };
    if *op != wanted {
        return None;
    }
    let c = match (is_tx(*a), is_tx(*b)) {
        (true, false) => *b,
        (false, true) => *a,
        _ => return None,
    };
    matches!(f.value_type(c), Type::I32 | Type::U32).then_some(c)
}

/// Whether an instruction's result differs between the blocks of one multi-block thread
/// loop: `blockIdx` and the address of a shared variable (each block has its own).
fn differs_per_block(k: &InstKind, shared: &std::collections::HashSet<GlobalId>) -> bool {
    match k {
        InstKind::Special(SpecialReg::BlockIdx(_)) => true,
        InstKind::GlobalAddr(g) => shared.contains(g),
        _ => false,
    }
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
        | InstKind::CallBuiltin { .. }
        | InstKind::Check(_) => true,
        InstKind::StoreLocal(..) | InstKind::Store { .. } | InstKind::Copy { .. } => true,
    }
}

/// Whether a uniform instruction may run once per block instead of once per thread:
/// it has no effect but on uniform locals, and cannot fault (uniform loads: see
/// `emit/fission.rs`, which runs them only when some thread would).
pub fn is_scalar_inst(k: &InstKind, u: &Uniformity, result: Option<ValueId>) -> bool {
    match k {
        InstKind::StoreLocal(l, v) => u.local(*l) && u.value(*v),
        _ => result.is_some_and(|r| u.value(r)),
    }
}

/// Whether an instruction may write memory (stores, copies, calls, runtime services).
pub fn writes_memory(k: &InstKind) -> bool {
    match k {
        InstKind::Store { .. } | InstKind::Copy { .. } | InstKind::Call { .. } | InstKind::CallIndirect { .. } => true,
        InstKind::CallBuiltin { builtin, .. } => !matches!(builtin, Builtin::Math(_)),
        _ => false,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;

    fn analysed(src: &str) -> (Function, Uniformity) {
        let f = kernel(&lower(src));
        let u = analyse(&f);
        (f, u)
    }

    /// Blocks that store into a local.
    fn stores_of(f: &Function, l: LocalId) -> Vec<BlockId> {
        (0..f.blocks.len())
            .map(|i| BlockId(i as u32))
            .filter(|b| f.block(*b).insts.iter().any(|i| matches!(i.kind, InstKind::StoreLocal(x, _) if x == l)))
            .collect()
    }

    fn barrier_blocks(f: &Function) -> Vec<BlockId> {
        (0..f.blocks.len()).map(|i| BlockId(i as u32)).filter(|b| matches!(f.block(*b).term, Terminator::Barrier { .. })).collect()
    }

    #[test]
    fn tree_reduction_stride_is_uniform() {
        let (f, u) = analysed(
            "__global__ void reduce(const float *in, float *out) {
                __shared__ float s[256];
                unsigned tid = threadIdx.x;
                s[tid] = in[blockIdx.x * blockDim.x + tid];
                __syncthreads();
                for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
                    if (tid < st) s[tid] += s[tid + st];
                    __syncthreads();
                }
                if (tid == 0) out[blockIdx.x] = s[0];
            }",
        );
        assert!(u.local(local_named(&f, "st")), "the stride is block-uniform");
        assert!(u.local(local_named(&f, "in")) && u.local(local_named(&f, "out")), "parameters are uniform");
        assert!(!u.local(local_named(&f, "tid")), "threadIdx is varying");
        for b in barrier_blocks(&f) {
            assert!(u.block(b), "every barrier is on uniform control flow");
        }
        // The `s[tid] += ...` block runs under `tid < st`: varying. The `tid == 0` block is
        // a single-thread guard (`tid` is `threadIdx.x`, assigned once in the entry).
        let divergent: Vec<BlockId> = (0..f.blocks.len()).map(|i| BlockId(i as u32)).filter(|b| !u.block(*b)).collect();
        assert_eq!(divergent.len(), 1, "the guarded store, nothing else: {divergent:?}");
        assert!(u.guards.iter().any(|g| g.single_x.is_some()), "tid == 0 is a single-thread guard");
        assert!(divergent.iter().all(|b| f.block(*b).insts.iter().any(|i| matches!(i.kind, InstKind::Store { .. }))));
    }

    #[test]
    fn tiled_sgemm_loops_are_uniform() {
        let (f, u) = analysed(
            "__global__ void sgemm(const float *A, const float *B, float *C, int n) {
                __shared__ float As[16][16];
                __shared__ float Bs[16][16];
                int tx = threadIdx.x, ty = threadIdx.y;
                int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
                float sum = 0.0f;
                for (int t = 0; t < n / 16; t++) {
                    As[ty][tx] = A[row * n + t * 16 + tx];
                    Bs[ty][tx] = B[(t * 16 + ty) * n + col];
                    __syncthreads();
                    for (int k = 0; k < 16; k++) sum += As[ty][k] * Bs[k][tx];
                    __syncthreads();
                }
                C[row * n + col] = sum;
            }",
        );
        for name in ["t", "k", "n", "A", "B", "C"] {
            assert!(u.local(local_named(&f, name)), "{name} is uniform");
        }
        for name in ["tx", "ty", "row", "col", "sum"] {
            assert!(!u.local(local_named(&f, name)), "{name} is varying");
        }
        assert!((0..f.blocks.len()).all(|b| u.block(BlockId(b as u32))), "no divergent branch at all");
    }

    #[test]
    fn varying_loops_and_divergent_stores() {
        let (f, u) = analysed(
            "__global__ void k(const int *p, int *out, int n) {
                int x = 0;
                int m = p[0];
                int mt = p[threadIdx.x];
                out[threadIdx.x] = 1;
                int after = p[1];
                volatile int *vp = (volatile int *)p;
                int vol = vp[2];
                int c = __syncthreads_count(threadIdx.x & 1);
                if (threadIdx.x < 5) x = 1;
                for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = x + m + c + mt + after + vol;
            }",
        );
        assert!(!u.local(local_named(&f, "x")), "stored under a varying condition");
        assert!(u.local(local_named(&f, "m")), "a load through a uniform address before any store");
        assert!(!u.local(local_named(&f, "mt")), "a load through a varying address");
        assert!(!u.local(local_named(&f, "after")), "a load after a store in its block");
        assert!(!u.local(local_named(&f, "vol")), "a volatile load");
        assert!(u.local(local_named(&f, "c")), "a barrier's count is the same for every thread");
        let i = local_named(&f, "i");
        assert!(!u.local(i));
        // A grid-stride loop (uniform bound and step): a loop guard, its step uniform
        // code under the mask of the threads still iterating.
        let stores = stores_of(&f, i);
        assert_eq!(stores.len(), 2);
        assert!(stores.iter().all(|b| u.block(*b)), "{stores:?}");
        assert_eq!(u.guards.len(), 1);
        assert!(u.guards[0].looping && stores.iter().any(|b| u.guards[0].blocks.contains(b)));
    }

    #[test]
    fn loops_with_a_varying_bound_or_step_stay_divergent() {
        for (bound, step) in [("p[threadIdx.x]", "blockDim.x"), ("n", "threadIdx.x + 1")] {
            let (f, u) = analysed(&format!(
                "__global__ void k(const int *p, int *out, int n) {{
                    for (int i = threadIdx.x; i < {bound}; i += {step}) out[i] = 1;
                }}"
            ));
            assert!(u.guards.is_empty(), "bound {bound}, step {step}");
            let stores = stores_of(&f, local_named(&f, "i"));
            assert_eq!(stores.iter().filter(|b| u.block(**b)).count(), 1, "{stores:?}");
        }
    }

    #[test]
    fn single_thread_regions_are_guards_when_c_is_uniform() {
        let (_, u) = analysed(
            "__global__ void k(const int *p, int *out, int n) {
                if (threadIdx.x == blockDim.x - 1) out[0] = p[n];
                if ((int)threadIdx.x == p[threadIdx.y]) out[1] = 2;
            }",
        );
        assert_eq!(u.guards.len(), 1, "{:?}", u.guards);
        assert!(u.guards[0].single_x.is_some() && !u.guards[0].looping);
    }

    #[test]
    fn a_loop_with_a_break_is_no_loop_guard() {
        let (f, u) = analysed(
            "__global__ void k(const int *p, int *out, int n) {
                for (int i = threadIdx.x; i < n; i += blockDim.x) {
                    if (p[i] < 0) break;
                    out[i] = 1;
                }
            }",
        );
        assert!(u.guards.is_empty());
        let stores = stores_of(&f, local_named(&f, "i"));
        assert_eq!(stores.iter().filter(|b| u.block(**b)).count(), 1, "{stores:?}");
    }

    #[test]
    fn post_dominators_of_a_diamond_and_a_loop() {
        let (f, u) = analysed(
            "__global__ void k(int *o) {
                if (threadIdx.x < 3) o[0] = 1; else o[1] = 2;
                o[2] = 3;
            }",
        );
        let Terminator::Branch { then, else_, .. } = f.block(BlockId(0)).term else { panic!("entry branches") };
        let join = u.ipdom[0].expect("the diamond joins");
        assert_eq!(u.ipdom[then.index()], Some(join));
        assert_eq!(u.ipdom[else_.index()], Some(join));
        assert!(!u.block(then) && !u.block(else_) && u.block(join));
        assert!(u.divergent_term(&f, BlockId(0)));
    }
}
