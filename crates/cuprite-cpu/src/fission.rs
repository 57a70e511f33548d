//! Barrier-region fission along block-uniform control flow.
//!
//! A kernel with barriers whose barriers all sit on block-uniform control flow (see
//! `uniformity.rs`) runs as ordinary scalar C for that uniform control flow — loops around
//! barriers, their counters, `n`, the matrix pointers — with a loop over the block's
//! threads (*thread loop*, innermost) for each stretch of per-thread work between two
//! uniform control-flow points. The plan cuts the uniform blocks into *units*: chains of
//! uniform blocks that one thread loop runs, each with the varying code under it
//! (divergent `if`s and loops, as labelled C inside the thread loop).
//!
//! In a unit, the uniform instructions of all its blocks run first, once per block (they
//! change nothing but uniform locals and cannot fault), then the thread loop runs the
//! rest. That reordering is sound because varying code reads uniform locals only through
//! values the uniform code already loaded, except in divergent blocks, which read the
//! local itself: a block whose uniform code stores a local that divergent code earlier in
//! the chain reads starts a new unit. Threads may run a unit's work in any order, as
//! CUDA allows between barriers; warp-synchronous kernels (lock-step points, warp
//! collectives) never come here.
//!
//! A divergent `if` around a loop (a `uniformity::Guard`) keeps the loop's uniform control
//! flow scalar too: the units inside run their thread loops for the threads whose mask
//! the `if` set. Units never mix guards.
//!
//! Varying locals live across units are kept in per-thread arrays (*slots*); the others
//! are C locals of the thread loop's body, in registers.
//!
//! A warp collective (shuffle, vote, …) on block-uniform control flow ends a unit like a
//! barrier: every lane of every warp has stored its operands when the thread loop ends,
//! so the collective is computed warp by warp over the whole block, and the next unit
//! reads the results. A lock-step point there is a plain unit boundary.
//!
//! When the plan does not apply (a barrier or warp collective under divergent control
//! flow, a return before a barrier, `-G`), `plan` says why and the kernel keeps the general
//! form (`emit.rs`: a goto-based region machine inside one thread loop per region).

use crate::uniformity::{self, Uniformity};
use cuprite_ir::*;
use std::collections::{BTreeSet, HashMap, HashSet};

/// One uniform block of a unit and the divergent code under it.
#[derive(Debug)]
pub struct Step {
    pub block: BlockId,
    /// Whether the threads part at the end of `block` (a branch on a varying value, or a
    /// jump into a varying loop): its successors run in the thread loop.
    pub diverges: bool,
    /// When it diverges: the blocks up to where the threads meet again (the first uniform
    /// block that post-dominates `block`), and that block (`None`: the kernel's end).
    pub region: Vec<BlockId>,
    pub join: Option<BlockId>,
    /// When `block` ends in a guard's branch (`uniformity::Guard`): the guard. Its
    /// threads' masks are set in the thread loop; the uniform code goes on in the region.
    pub guard_owner: Option<usize>,
}

#[derive(Debug)]
pub struct Unit {
    pub steps: Vec<Step>,
}

impl Unit {
    pub fn entry(&self) -> BlockId {
        self.steps[0].block
    }
    pub fn last(&self) -> &Step {
        self.steps.last().expect("a unit has a step")
    }
    /// Every block whose varying code runs in this unit's thread loop.
    pub fn blocks(&self) -> impl Iterator<Item = BlockId> + '_ {
        self.steps.iter().flat_map(|s| std::iter::once(s.block).chain(s.region.iter().copied()))
    }
}

#[derive(Debug)]
pub struct Plan {
    pub uni: Uniformity,
    pub units: Vec<Unit>,
    /// Varying locals in per-thread arrays.
    pub slots: BTreeSet<LocalId>,
    /// Varying locals recomputed where they are read instead of kept (`tx = threadIdx.x`,
    /// `row = blockIdx.y * 16 + ty`): each is stored once, in the entry block, with a pure
    /// function of the thread's and block's coordinates, constants, parameters that are
    /// never assigned, and other such locals. The value is the one stored.
    pub remat: HashMap<LocalId, ValueId>,
    /// Loads of a local that read the value of its only store, made earlier in the same
    /// thread loop (`i = y * n + x; ... in[i - 1]`): load result -> stored value. Index
    /// widening (`FnCx::wide_index`) looks through them, so that `in + i - 1` stays
    /// affine in the thread index for the vectoriser.
    pub forward: HashMap<ValueId, ValueId>,
}

/// The fission plan of a kernel (after inlining), or why it does not apply.
pub fn plan(f: &Function) -> Result<Plan, String> {
    plan_for(f, None)
}

/// `plan` with `uniformity::analyse_for`'s `per_block` (the multi-block form).
pub fn plan_for(f: &Function, per_block: Option<&HashSet<GlobalId>>) -> Result<Plan, String> {
    let uni = uniformity::analyse_for(f, per_block);
    let dom = cuprite_ir::dom::Dominators::new(f);
    // Without barriers or collectives the general form is one thread loop already.
    // (Hoisting a barrier-free kernel's uniform loops out of its thread loop measured
    // slower: transpose_naive 0.6x, an untiled n-body 0.9x; see NOTES.md.)
    let barrier_free = !f.blocks.iter().any(|b| matches!(b.term, Terminator::Barrier { .. } | Terminator::Warp { .. }));
    let reachable: Vec<BlockId> = dom.reverse_postorder().collect();
    let mut preds: Vec<Vec<BlockId>> = vec![Vec::new(); f.blocks.len()];
    for b in &reachable {
        for s in f.block(*b).term.successors() {
            preds[s.index()].push(*b);
        }
    }
    if !uni.block(BlockId(0)) {
        return Err("the entry block is divergent".into());
    }
    for b in &reachable {
        let term = &f.block(*b).term;
        if matches!(term, Terminator::Warp { .. }) && !uni.block(*b) {
            return Err("a warp collective or lock-step point under divergent control flow".into());
        }
        if let Terminator::Barrier { result, .. } = term {
            if !uni.block(*b) {
                return Err("a barrier under divergent control flow".into());
            }
            if result.is_some_and(|l| !uni.local(l)) {
                return Err("a barrier's result is stored into a varying local".into());
            }
        }
        if uni.block(*b) && !diverges(f, &uni, *b) && term.successors().iter().any(|s| !uni.block(*s)) {
            return Err("a barrier is followed by divergent control flow".into());
        }
    }

    // Units: chains of uniform blocks, in reverse postorder.
    let mut assigned = vec![false; f.blocks.len()];
    let mut units = Vec::new();
    for &b in &reachable {
        if !uni.block(b) || assigned[b.index()] {
            continue;
        }
        let mut steps: Vec<Step> = Vec::new();
        let mut members: HashSet<BlockId> = HashSet::new();
        // Uniform locals that divergent blocks of this unit read directly.
        let mut read_by_divergent: HashSet<LocalId> = HashSet::new();
        let mut cur = b;
        loop {
            assigned[cur.index()] = true;
            members.insert(cur);
            let diverging = diverges(f, &uni, cur);
            let (region, join) = if diverging {
                // Threads meet again at the first uniform block that post-dominates.
                let mut join = uni.ipdom[cur.index()];
                while let Some(j) = join.filter(|j| !uni.block(*j)) {
                    join = uni.ipdom[j.index()];
                }
                let region = uniformity::divergent_region(f, cur, join);
                for r in &region {
                    if uni.block(*r) {
                        return Err("a divergent branch reaches uniform code before its join".into());
                    }
                    if f.block(*r).term.successors().iter().any(|s| Some(*s) != join && !region.contains(s)) {
                        return Err("divergent code leaves its region".into());
                    }
                    for i in &f.block(*r).insts {
                        if let InstKind::LoadLocal(l) = i.kind {
                            if uni.local(l) {
                                read_by_divergent.insert(l);
                            }
                        }
                    }
                }
                members.extend(region.iter().copied());
                (region, join)
            } else {
                (Vec::new(), None)
            };
            let guard_owner = uni.guard_owned_by(cur);
            let next = match &f.block(cur).term {
                _ if guard_owner.is_some() => None,
                _ if diverging => join,
                Terminator::Jump(t) => Some(*t),
                _ => None,
            };
            steps.push(Step { block: cur, diverges: diverging, region, join, guard_owner });
            let Some(n) = next else { break };
            // Uniform loads run before the thread loop: not after this unit's stores.
            let stores_so_far = members.iter().any(|m| f.block(*m).insts.iter().any(|i| uniformity::writes_memory(&i.kind)));
            let uniform_loads = f.block(n).insts.iter().any(|i| matches!(i.kind, InstKind::Load { .. }) && i.result.is_some_and(|r| uni.value(r)));
            let joins = uni.block(n)
                && !(stores_so_far && uniform_loads)
                && uni.guard_of[n.index()] == uni.guard_of[b.index()]
                && !assigned[n.index()]
                && n != BlockId(0)
                && preds[n.index()].iter().all(|p| members.contains(p))
                && !f.block(n).insts.iter().any(|i| {
                    matches!(i.kind, InstKind::StoreLocal(l, _) if read_by_divergent.contains(&l))
                });
            if !joins {
                break;
            }
            cur = n;
        }
        units.push(Unit { steps });
    }
    if barrier_free && units.len() > 1 {
        return Err("no barriers or warp collectives, and uniform loops".into());
    }

    // Varying locals live into a unit cross thread loops: per-thread arrays. So do
    // varying locals whose address is taken (a pointer may outlive the thread loop).
    let (live_in, addr_taken) = crate::simt::local_liveness(f);
    let remat = rematerialisable(f, &uni, &preds, &addr_taken, &dom);
    let mut slots = BTreeSet::new();
    for u in &units {
        for l in &live_in[u.entry().index()] {
            if !uni.local(*l) && !remat.contains_key(l) {
                slots.insert(*l);
            }
        }
    }
    // An address-taken local needs a stable per-thread place only if its address may
    // outlive the thread loop (stored, passed, converted); one used only to load and
    // store its parts lives in the thread loop like any other.
    slots.extend(addr_taken.iter().copied().filter(|l| address_escapes(f, *l)));
    let forward = forwarded_loads(f, &dom, &units, &addr_taken);
    Ok(Plan { uni, units, slots, remat, forward })
}

/// `Plan::forward`: a load of a local with a single store, where the storing block is in
/// the same unit and dominates the load (in one block: the store comes first), reads the
/// value that store wrote in the storing block's latest run, whose C variable is in scope
/// (a unit's blocks share one thread loop body).
fn forwarded_loads(f: &Function, dom: &cuprite_ir::dom::Dominators, units: &[Unit], addr_taken: &HashSet<LocalId>) -> HashMap<ValueId, ValueId> {
    let mut store_count: HashMap<LocalId, usize> = HashMap::new();
    for b in &f.blocks {
        for i in &b.insts {
            if let InstKind::StoreLocal(l, _) = i.kind {
                *store_count.entry(l).or_default() += 1;
            }
        }
        for l in crate::simt::cut_results(&b.term) {
            *store_count.entry(l).or_default() += 2;
        }
    }
    let mut forward = HashMap::new();
    for u in units {
        let blocks: Vec<BlockId> = u.blocks().collect();
        // The only store of each such local in this unit: (block, position, value).
        let mut store_at: HashMap<LocalId, (BlockId, usize, ValueId)> = HashMap::new();
        for b in &blocks {
            for (k, i) in f.block(*b).insts.iter().enumerate() {
                if let InstKind::StoreLocal(l, v) = i.kind {
                    if store_count.get(&l) == Some(&1) && !addr_taken.contains(&l) && !f.params.contains(&l) {
                        store_at.insert(l, (*b, k, v));
                    }
                }
            }
        }
        for b in &blocks {
            for (k, i) in f.block(*b).insts.iter().enumerate() {
                let (InstKind::LoadLocal(l), Some(r)) = (&i.kind, i.result) else { continue };
                let Some(&(sb, sk, v)) = store_at.get(l) else { continue };
                let before = if sb == *b { sk < k } else { dom.dominates(sb, *b) };
                if before {
                    forward.insert(r, v);
                }
            }
        }
    }
    forward
}

/// Whether a uniform block's terminator hands control to per-thread code: a branch on a
/// varying value, or an edge into a divergent block (a loop whose exit is varying).
fn diverges(f: &Function, uni: &Uniformity, b: BlockId) -> bool {
    if uni.guard_owned_by(b).is_some() {
        return false;
    }
    let term = &f.block(b).term;
    let ordinary = matches!(term, Terminator::Jump(_) | Terminator::Branch { .. } | Terminator::Switch { .. });
    uni.divergent_term(f, b) || (ordinary && term.successors().iter().any(|s| !uni.block(*s)))
}

/// Whether a pointer to local `l` may be used other than as the address of a load, store
/// or copy in its own block (values are block-local, so one block at a time).
fn address_escapes(f: &Function, l: LocalId) -> bool {
    for b in &f.blocks {
        // Pointers into `l` defined in this block.
        let mut ptrs: HashSet<ValueId> = HashSet::new();
        for i in &b.insts {
            let derived = match &i.kind {
                InstKind::LocalAddr(x) => *x == l,
                InstKind::FieldAddr { base, .. } | InstKind::Cast(base) | InstKind::Bitcast(base) => ptrs.contains(base),
                InstKind::PtrAdd { base, index } => ptrs.contains(base) && !ptrs.contains(index),
                _ => false,
            };
            let uses_ok = match &i.kind {
                InstKind::Load { .. } | InstKind::LocalAddr(_) => true,
                InstKind::Store { value, .. } => !ptrs.contains(value),
                InstKind::Copy { .. } => true,
                InstKind::FieldAddr { .. } | InstKind::PtrAdd { .. } | InstKind::Cast(_) | InstKind::Bitcast(_) => {
                    derived || !crate::inline::inst_uses(&i.kind).iter().any(|v| ptrs.contains(v))
                }
                k => !crate::inline::inst_uses(k).iter().any(|v| ptrs.contains(v)),
            };
            if !uses_ok {
                return true;
            }
            if derived {
                if let Some(r) = i.result {
                    // A cast to an integer is an escape.
                    if !f.value_type(r).is_pointer() {
                        return true;
                    }
                    ptrs.insert(r);
                }
            }
        }
        if crate::inline::term_uses(&b.term).iter().any(|v| ptrs.contains(v)) {
            return true;
        }
    }
    false
}

/// The locals of `Plan::remat`.
fn rematerialisable(f: &Function, uni: &Uniformity, preds: &[Vec<BlockId>], addr_taken: &HashSet<LocalId>, dom: &cuprite_ir::dom::Dominators) -> HashMap<LocalId, ValueId> {
    let mut remat = HashMap::new();
    if f.blocks.is_empty() || !preds[0].is_empty() {
        return remat;
    }
    // Every write of a local: stores, and the results of barriers and collectives.
    let mut stores: HashMap<LocalId, usize> = HashMap::new();
    for b in &f.blocks {
        for i in &b.insts {
            if let InstKind::StoreLocal(l, _) = i.kind {
                *stores.entry(l).or_default() += 1;
            }
        }
        for l in crate::simt::cut_results(&b.term) {
            *stores.entry(l).or_default() += 1;
        }
    }
    let invariant_param = |l: LocalId| f.params.contains(&l) && !stores.contains_key(&l) && !addr_taken.contains(&l);
    let entry = &f.blocks[0];
    let defs: HashMap<ValueId, &Inst> = entry.insts.iter().filter_map(|i| i.result.map(|r| (r, i))).collect();
    // Whether a value of the entry block is a pure function of what is invariant, with at
    // most `budget` instructions (so that recomputing it stays cheap).
    fn pure(v: ValueId, defs: &HashMap<ValueId, &Inst>, ok_local: &dyn Fn(LocalId) -> bool, budget: &mut u32) -> bool {
        let Some(inst) = defs.get(&v) else { return false };
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let operands: Vec<ValueId> = match &inst.kind {
            InstKind::Const(_) | InstKind::Special(_) | InstKind::GlobalAddr(_) => vec![],
            InstKind::LoadLocal(l) => return ok_local(*l),
            InstKind::Unary(_, a) | InstKind::Cast(a) => vec![*a],
            InstKind::Binary(_, a, b) => vec![*a, *b],
            InstKind::Select(c, a, b) => vec![*c, *a, *b],
            InstKind::PtrAdd { base, index } => vec![*base, *index],
            InstKind::FieldAddr { base, .. } => vec![*base],
            _ => return false,
        };
        operands.into_iter().all(|o| pure(o, defs, ok_local, budget))
    }
    // Uniform locals stored once, in the entry block: scalars that never change after.
    let mut set_once: HashSet<LocalId> = HashSet::new();
    for i in &entry.insts {
        match i.kind {
            InstKind::LoadLocal(l) if !remat.contains_key(&l) => {
                // Read before its store in the entry block: not a single definition.
                remat.insert(l, ValueId(u32::MAX));
            }
            InstKind::StoreLocal(l, v) => {
                let candidate = !uni.local(l)
                    && stores.get(&l) == Some(&1)
                    && !addr_taken.contains(&l)
                    && !f.params.contains(&l)
                    && !remat.contains_key(&l);
                let ok_local = |x: LocalId| {
                    invariant_param(x) || set_once.contains(&x) || remat.get(&x).is_some_and(|v| v.0 != u32::MAX)
                };
                let accepted = candidate && pure(v, &defs, &ok_local, &mut 24);
                if uni.local(l) && stores.get(&l) == Some(&1) && !remat.contains_key(&l) {
                    set_once.insert(l);
                }
                remat.insert(l, if accepted { v } else { ValueId(u32::MAX) });
            }
            _ => {}
        }
    }
    remat.retain(|_, v| v.0 != u32::MAX);
    // Locals stored once in a later block (`x = blockIdx.y * TILE + threadIdx.x` after a
    // barrier) whose store comes before every load: the store's block dominates the
    // loads' blocks (in its own block, the loads follow it). Blocks in reverse postorder,
    // so that a local's operands are decided before it.
    let mut loads: HashMap<LocalId, Vec<(BlockId, usize)>> = HashMap::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, i) in b.insts.iter().enumerate() {
            if let InstKind::LoadLocal(l) = i.kind {
                loads.entry(l).or_default().push((BlockId(bi as u32), ii));
            }
        }
    }
    // (Uniform blocks only: the emitter leaves out a rematerialised local's store there.)
    for b in dom.reverse_postorder().filter(|b| b.0 != 0 && uni.block(*b)) {
        let block = f.block(b);
        let defs: HashMap<ValueId, &Inst> = block.insts.iter().filter_map(|i| i.result.map(|r| (r, i))).collect();
        for (ii, i) in block.insts.iter().enumerate() {
            let InstKind::StoreLocal(l, v) = i.kind else { continue };
            let candidate = !uni.local(l) && stores.get(&l) == Some(&1) && !addr_taken.contains(&l) && !f.params.contains(&l) && !remat.contains_key(&l);
            let dominated = loads.get(&l).map_or(true, |ls| ls.iter().all(|(lb, li)| if *lb == b { *li > ii } else { dom.dominates(b, *lb) }));
            let ok_local = |x: LocalId| invariant_param(x) || set_once.contains(&x) || remat.contains_key(&x);
            if candidate && dominated && pure(v, &defs, &ok_local, &mut 24) {
                remat.insert(l, v);
            }
        }
    }
    remat
}
