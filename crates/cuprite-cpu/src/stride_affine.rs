//! The induction variable of a grid-stride loop as `i0 + k·step`.
//!
//! `for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)`
//! keeps `i` in a per-thread slot once the loop becomes a loop guard (`stride_loop.rs`), so
//! `in[i]` is a gather. Every thread adds the same step once per iteration, so after `k`
//! iterations `i == i0 + k·step` (also with wrap-around: the same sum modulo 2^w). This
//! IR rewrite gives the loop a counter `k` (0 on entry, `k + 1` where `i` was stepped),
//! keeps the initial value in its own local `i0` (set once: fission recomputes it from the
//! thread coordinates where read, `Plan::remat`) and reads `i` as `i0 + k·step`. Under a
//! loop guard `k` is block-uniform (scalar C), and `in[i0 + k·step]` is a contiguous load
//! in the thread loop. Elsewhere each thread counts its own iterations: the same values.
//!
//! Applies when the loop has the loop-guard shape, `i` starts from a value that may
//! differ between threads (uniform loops need no help), is stored once outside the loop and
//! once inside (on every path round it, not in an inner cycle), is not read after the
//! loop, and the step is computed from constants, block coordinates/dimensions and
//! parameters that are never assigned (recomputed where `i` is read).

use crate::stride_loop::loop_guard_shape;
use crate::uniformity::post_dominators;
use cuprite_ir::*;
use std::collections::HashSet;

/// Rewrites every grid-stride loop of `f` that qualifies. Returns how many.
pub fn rewrite_stride_inductions(f: &mut Function) -> usize {
    let mut done = 0;
    // One loop at a time: each rewrite changes blocks and values.
    let mut tried: HashSet<BlockId> = HashSet::new();
    loop {
        let ipdom = post_dominators(f);
        let dom = cuprite_ir::dom::Dominators::new(f);
        let found = (0..f.blocks.len()).map(|b| BlockId(b as u32)).filter(|h| !tried.contains(h)).find_map(|h| {
            let (g, _, _) = loop_guard_shape(f, h, &ipdom, &dom)?;
            Some((h, g.blocks))
        });
        let Some((h, blocks)) = found else { return done };
        tried.insert(h);
        if let Some(r) = analyse(f, h, &blocks, &dom) {
            apply(f, h, &blocks, r);
            done += 1;
        }
    }
}

struct Rewrite {
    i: LocalId,
    /// The store that steps `i` (block, instruction index), and the add's type.
    step_store: (BlockId, usize),
    add_ty: Type,
    /// The step value (in `step_store`'s block) and its instructions, in order.
    step: ValueId,
    step_insts: Vec<Inst>,
    /// The store of the initial value outside the loop.
    init_store: (BlockId, usize),
    /// The loop's single outside predecessor.
    preheader: BlockId,
}

fn analyse(f: &Function, h: BlockId, blocks: &[BlockId], dom: &cuprite_ir::dom::Dominators) -> Option<Rewrite> {
    let Terminator::Branch { cond, .. } = f.block(h).term else { return None };
    compared_locals(f, h, cond).into_iter().find_map(|i| analyse_local(f, i, h, blocks, dom))
}

fn analyse_local(f: &Function, i: LocalId, h: BlockId, blocks: &[BlockId], dom: &cuprite_ir::dom::Dominators) -> Option<Rewrite> {
    if f.params.contains(&i) {
        return None;
    }
    let mut inside = Vec::new();
    let mut outside = Vec::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        let bid = BlockId(bi as u32);
        for (ii, inst) in b.insts.iter().enumerate() {
            match inst.kind {
                InstKind::LocalAddr(l) if l == i => return None,
                InstKind::StoreLocal(l, v) if l == i => {
                    if blocks.contains(&bid) {
                        inside.push((bid, ii, v))
                    } else {
                        outside.push((bid, ii))
                    }
                }
                InstKind::LoadLocal(l) if l == i && !blocks.contains(&bid) => return None, // read after the loop
                _ => {}
            }
        }
        if crate::simt::cut_results(&b.term).contains(&i) {
            return None;
        }
    }
    let ([(sb, si, sv)], [init_store]) = (inside.as_slice(), outside.as_slice()) else { return None };
    // A loop whose start is the same for every thread is uniform already: left alone.
    let (ib, ii) = *init_store;
    if let InstKind::StoreLocal(_, v) = f.block(ib).insts[ii].kind {
        if pure_tree(f, ib, v).is_some() {
            return None;
        }
    }
    // Stepped on every way round, once.
    let latches: Vec<BlockId> = blocks.iter().copied().filter(|b| f.block(*b).term.successors().contains(&h)).collect();
    if latches.is_empty() || !latches.iter().all(|l| dom.dominates(*sb, *l)) || on_inner_cycle(f, *sb, h, blocks) {
        return None;
    }
    // `i = (T)((A)i + step)` with A the same size as T.
    let (add, add_ty) = strip_casts(f, *sb, *sv);
    let InstKind::Binary(BinaryOp::Add, x, y) = def_in(f, *sb, add)? else { return None };
    let step = if loads_local(f, *sb, x, i) {
        y
    } else if loads_local(f, *sb, y, i) {
        x
    } else {
        return None;
    };
    let ity = f.local(i).ty.clone();
    if !add_ty.is_integer() || !ity.is_integer() || add_ty.scalar_size() != ity.scalar_size() || f.value_type(step) != &add_ty {
        return None;
    }
    let step_insts = pure_tree(f, *sb, step)?;
    let preheader = (0..f.blocks.len())
        .map(|b| BlockId(b as u32))
        .find(|p| dom.reachable(*p) && !blocks.contains(p) && f.block(*p).term.successors().contains(&h))?;
    Some(Rewrite { i, step_store: (*sb, *si), add_ty, step, step_insts, init_store: *init_store, preheader })
}

fn apply(f: &mut Function, _h: BlockId, blocks: &[BlockId], r: Rewrite) {
    let ity = f.local(r.i).ty.clone();
    let name = f.local(r.i).name.clone();
    let i0 = new_local(f, format!("{name}.0"), ity.clone());
    let k = new_local(f, format!("{name}.k"), r.add_ty.clone());
    // The initial value goes to i0.
    let (ib, ii) = r.init_store;
    if let InstKind::StoreLocal(_, v) = f.blocks[ib.index()].insts[ii].kind {
        f.blocks[ib.index()].insts[ii].kind = InstKind::StoreLocal(i0, v);
    }
    // k = 0 on the way in.
    let zero = new_value(f, r.add_ty.clone());
    let loc = f.blocks[r.preheader.index()].term_loc;
    let pre = &mut f.blocks[r.preheader.index()].insts;
    pre.push(Inst { result: Some(zero), kind: InstKind::Const(Const::Int(0, r.add_ty.clone())), loc });
    pre.push(Inst { result: None, kind: InstKind::StoreLocal(k, zero), loc });
    // The step becomes k = k + 1.
    let (sb, si) = r.step_store;
    let loc = f.blocks[sb.index()].insts[si].loc;
    let (kv, one, sum) = (new_value(f, r.add_ty.clone()), new_value(f, r.add_ty.clone()), new_value(f, r.add_ty.clone()));
    let bump = vec![
        Inst { result: Some(kv), kind: InstKind::LoadLocal(k), loc },
        Inst { result: Some(one), kind: InstKind::Const(Const::Int(1, r.add_ty.clone())), loc },
        Inst { result: Some(sum), kind: InstKind::Binary(BinaryOp::Add, kv, one), loc },
        Inst { result: None, kind: InstKind::StoreLocal(k, sum), loc },
    ];
    f.blocks[sb.index()].insts.splice(si..si + 1, bump);
    // Every read of i in the loop: (T)((A)i0 + k * step).
    for b in blocks {
        let old = std::mem::take(&mut f.blocks[b.index()].insts);
        let mut new = Vec::with_capacity(old.len());
        for inst in old {
            match (inst.kind.clone(), inst.result) {
                (InstKind::LoadLocal(l), Some(res)) if l == r.i => {
                    let loc = inst.loc;
                    let mut emit = |f: &mut Function, ty: Type, kind: InstKind, result: Option<ValueId>| -> ValueId {
                        let v = result.unwrap_or_else(|| new_value(f, ty));
                        new.push(Inst { result: Some(v), kind, loc });
                        v
                    };
                    // In i's own type (same size as the add's: the same bits), so that
                    // a signed `i` stays a signed sum the emitter widens for indexing.
                    let same = ity == r.add_ty;
                    let a = emit(f, ity.clone(), InstKind::LoadLocal(i0), None);
                    let kk = emit(f, r.add_ty.clone(), InstKind::LoadLocal(k), None);
                    // The step's computation, copied with fresh values.
                    let mut map = std::collections::HashMap::new();
                    for si in &r.step_insts {
                        let nv = emit(f, f.value_type(si.result.unwrap()).clone(), remap(&si.kind, &map), None);
                        map.insert(si.result.unwrap(), nv);
                    }
                    let step = map[&r.step];
                    let prod = emit(f, r.add_ty.clone(), InstKind::Binary(BinaryOp::Mul, kk, step), None);
                    let prod = if same { prod } else { emit(f, ity.clone(), InstKind::Cast(prod), None) };
                    emit(f, ity.clone(), InstKind::Binary(BinaryOp::Add, a, prod), Some(res));
                }
                _ => new.push(inst),
            }
        }
        f.blocks[b.index()].insts = new;
    }
}

fn new_local(f: &mut Function, name: String, ty: Type) -> LocalId {
    f.locals.push(Local { name, ty, align: None });
    LocalId(f.locals.len() as u32 - 1)
}

fn new_value(f: &mut Function, ty: Type) -> ValueId {
    f.values.push(ty);
    ValueId(f.values.len() as u32 - 1)
}

/// The instructions computing `v` in block `b`, in order, if they are all pure and read
/// only constants, block-level special registers and parameters never assigned.
fn pure_tree(f: &Function, b: BlockId, v: ValueId) -> Option<Vec<Inst>> {
    let insts = &f.block(b).insts;
    let mut need: HashSet<ValueId> = HashSet::from([v]);
    let mut out = Vec::new();
    for inst in insts.iter().rev() {
        let Some(r) = inst.result else { continue };
        if !need.contains(&r) {
            continue;
        }
        let ok = match &inst.kind {
            InstKind::Const(Const::Int(..)) => true,
            InstKind::Special(s) => !matches!(s, SpecialReg::ThreadIdx(_) | SpecialReg::LaneId),
            InstKind::LoadLocal(l) => f.params.contains(l) && !assigned(f, *l),
            InstKind::Binary(op, _, _) => matches!(op, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Shl),
            InstKind::Unary(UnaryOp::Neg, _) | InstKind::Cast(_) => true,
            _ => false,
        };
        if !ok || !f.value_type(r).is_integer() {
            return None;
        }
        need.extend(crate::inline::inst_uses(&inst.kind));
        out.push(inst.clone());
    }
    out.reverse();
    // Everything it needs is defined in the block (values are block-local).
    let defined: HashSet<ValueId> = out.iter().filter_map(|i| i.result).collect();
    out.iter().all(|i| crate::inline::inst_uses(&i.kind).iter().all(|u| defined.contains(u))).then_some(out)
}

fn assigned(f: &Function, l: LocalId) -> bool {
    f.blocks.iter().flat_map(|b| &b.insts).any(|i| matches!(i.kind, InstKind::StoreLocal(x, _) | InstKind::LocalAddr(x) if x == l))
}

fn remap(k: &InstKind, map: &std::collections::HashMap<ValueId, ValueId>) -> InstKind {
    let m = |v: &ValueId| *map.get(v).unwrap_or(v);
    match k {
        InstKind::Binary(op, a, b) => InstKind::Binary(*op, m(a), m(b)),
        InstKind::Unary(op, a) => InstKind::Unary(*op, m(a)),
        InstKind::Cast(a) => InstKind::Cast(m(a)),
        other => other.clone(),
    }
}

/// Whether `sb` can run twice before the loop goes back to its header `h`.
fn on_inner_cycle(f: &Function, sb: BlockId, h: BlockId, blocks: &[BlockId]) -> bool {
    let mut seen = HashSet::new();
    let mut work: Vec<BlockId> = f.block(sb).term.successors();
    while let Some(b) = work.pop() {
        if b == sb {
            return true;
        }
        if b == h || !blocks.contains(&b) || !seen.insert(b) {
            continue;
        }
        work.extend(f.block(b).term.successors());
    }
    false
}

/// The locals that the header's comparison reads directly (through casts).
fn compared_locals(f: &Function, h: BlockId, cond: ValueId) -> Vec<LocalId> {
    let Some(InstKind::Binary(op, a, b)) = def_in(f, h, cond) else { return Vec::new() };
    if !op.is_comparison() {
        return Vec::new();
    }
    [a, b]
        .into_iter()
        .filter_map(|v| match def_in(f, h, strip_casts(f, h, v).0)? {
            InstKind::LoadLocal(l) => Some(l),
            _ => None,
        })
        .collect()
}

fn def_in(f: &Function, b: BlockId, v: ValueId) -> Option<InstKind> {
    f.block(b).insts.iter().find(|i| i.result == Some(v)).map(|i| i.kind.clone())
}

/// `v` without the casts around it, and the type just inside them.
fn strip_casts(f: &Function, b: BlockId, mut v: ValueId) -> (ValueId, Type) {
    while let Some(InstKind::Cast(a)) = def_in(f, b, v) {
        v = a;
    }
    (v, f.value_type(v).clone())
}

fn loads_local(f: &Function, b: BlockId, v: ValueId, l: LocalId) -> bool {
    matches!(def_in(f, b, strip_casts(f, b, v).0), Some(InstKind::LoadLocal(x)) if x == l)
}
