//! Regions and liveness of locals for the SIMT-to-CPU transformation.
//!
//! A kernel is cut at its *cut points*: block barriers (`Terminator::Barrier`) and warp
//! collectives (`Terminator::Warp`). Both end a block, and each starts a region at its
//! `next` block.

use crate::inline::inst_uses;
use cuprite_ir::*;
use std::collections::{BTreeSet, HashSet, VecDeque};

/// A region: the code a thread runs from `start` until it reaches a barrier or returns.
#[derive(Debug)]
#[allow(dead_code)]
pub struct Region {
    pub start: BlockId,
    /// The cut point (index into `Regions::barriers`) whose `next` starts this region;
    /// `None` for region 0.
    pub after_barrier: Option<usize>,
    /// Blocks reachable from `start` without crossing a barrier, `start` first.
    pub blocks: Vec<BlockId>,
    /// Cut points (indices) that end some path of this region.
    pub exits: BTreeSet<usize>,
    /// Whether some path of this region returns.
    pub returns: bool,
}

#[derive(Debug)]
pub struct Regions {
    /// Blocks whose terminator is a cut point (a barrier or a warp collective), in block
    /// order; cut point k starts region k+1.
    pub barriers: Vec<BlockId>,
    /// Whether some cut point is a warp collective (the kernel then needs the general
    /// scheduler, see `emit.rs`).
    pub has_warp: bool,
    pub regions: Vec<Region>,
    /// Locals that must live in per-thread slots.
    pub slot_locals: BTreeSet<LocalId>,
}

pub fn analyse(f: &Function) -> Regions {
    let barriers: Vec<BlockId> = f
        .blocks
        .iter()
        .enumerate()
        .filter(|(_, b)| is_cut(&b.term))
        .map(|(i, _)| BlockId(i as u32))
        .collect();
    let bar_index = |b: BlockId| barriers.iter().position(|x| *x == b).unwrap();
    let mut regions = Vec::new();
    let mut starts = vec![(BlockId(0), None)];
    for (k, b) in barriers.iter().enumerate() {
        starts.push((f.block(*b).term.successors()[0], Some(k)));
    }
    for (start, after) in starts {
        let mut seen = HashSet::new();
        let mut order = Vec::new();
        let mut q = VecDeque::from([start]);
        seen.insert(start);
        let mut exits = BTreeSet::new();
        let mut returns = false;
        while let Some(b) = q.pop_front() {
            order.push(b);
            match &f.block(b).term {
                t if is_cut(t) => {
                    exits.insert(bar_index(b));
                }
                Terminator::Return(_) => returns = true,
                t => {
                    for s in t.successors() {
                        if seen.insert(s) {
                            q.push_back(s);
                        }
                    }
                }
            }
        }
        regions.push(Region { start, after_barrier: after, blocks: order, exits, returns });
    }

    let (live_in, addr_taken) = local_liveness(f);
    let mut slot_locals = BTreeSet::new();
    for b in &barriers {
        let term = &f.block(*b).term;
        let results = cut_results(term);
        for l in &live_in[term.successors()[0].index()] {
            if !results.contains(l) {
                slot_locals.insert(*l);
            }
        }
    }
    if !barriers.is_empty() {
        // An address-taken local may be reached through a pointer in a later region:
        // give it a stable per-thread address.
        slot_locals.extend(addr_taken.iter().copied());
    }
    let has_warp = barriers.iter().any(|b| matches!(f.block(*b).term, Terminator::Warp { .. }));
    Regions { barriers, has_warp, regions, slot_locals }
}

/// Locals live on entry to each block (backward dataflow to a fixpoint), and the locals
/// whose address is taken. A cut point's results are written when its next region
/// starts, so they are not live across the cut itself.
pub fn local_liveness(f: &Function) -> (Vec<HashSet<LocalId>>, HashSet<LocalId>) {
    // Dense bit sets over the function's locals: functions lowered from PTX have tens of
    // thousands of blocks and locals, where hash sets made this quadratic in practice.
    let n = f.blocks.len();
    let words = f.locals.len().div_ceil(64).max(1);
    let bit = |l: LocalId| (l.index() / 64, 1u64 << (l.index() % 64));
    let mut uses = vec![0u64; n * words];
    let mut defs = vec![0u64; n * words];
    let mut addr_taken: HashSet<LocalId> = HashSet::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        let (u, d) = (&mut uses[bi * words..(bi + 1) * words], &mut defs[bi * words..(bi + 1) * words]);
        for inst in &b.insts {
            match &inst.kind {
                InstKind::LoadLocal(l) => {
                    let (w, m) = bit(*l);
                    if d[w] & m == 0 {
                        u[w] |= m;
                    }
                }
                InstKind::StoreLocal(l, _) => {
                    let (w, m) = bit(*l);
                    d[w] |= m;
                }
                InstKind::LocalAddr(l) => {
                    addr_taken.insert(*l);
                    let (w, m) = bit(*l);
                    if d[w] & m == 0 {
                        u[w] |= m;
                    }
                }
                _ => {}
            }
        }
    }
    let cuts: Vec<Vec<u64>> = f
        .blocks
        .iter()
        .map(|b| {
            let mut c = vec![0u64; words];
            for l in cut_results(&b.term) {
                let (w, m) = bit(l);
                c[w] |= m;
            }
            c
        })
        .collect();
    let mut live_in = vec![0u64; n * words];
    let mut out = vec![0u64; words];
    loop {
        let mut changed = false;
        for bi in (0..n).rev() {
            out.iter_mut().for_each(|w| *w = 0);
            for s in f.blocks[bi].term.successors() {
                let si = s.index();
                for w in 0..words {
                    out[w] |= live_in[si * words + w];
                }
            }
            for w in 0..words {
                // A cut's results are defined by the cut itself.
                let o = out[w] & !cuts[bi][w];
                let inn = uses[bi * words + w] | (o & !defs[bi * words + w]);
                if inn != live_in[bi * words + w] {
                    live_in[bi * words + w] = inn;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let sets = (0..n)
        .map(|bi| {
            let mut set = HashSet::new();
            for w in 0..words {
                let mut bits = live_in[bi * words + w];
                while bits != 0 {
                    let t = bits.trailing_zeros() as usize;
                    set.insert(LocalId((w * 64 + t) as u32));
                    bits &= bits - 1;
                }
            }
            set
        })
        .collect();
    (sets, addr_taken)
}

/// Whether a terminator is a cut point (a block barrier or a warp collective).
pub fn is_cut(t: &Terminator) -> bool {
    matches!(t, Terminator::Barrier { .. } | Terminator::Warp { .. })
}

/// The locals a cut point writes when its next region starts.
pub fn cut_results(t: &Terminator) -> Vec<LocalId> {
    match t {
        Terminator::Barrier { result, .. } => result.iter().copied().collect(),
        Terminator::Warp { results, .. } => results.clone(),
        _ => vec![],
    }
}

/// Locals referenced by the given blocks.
pub fn locals_used(f: &Function, blocks: &[BlockId]) -> BTreeSet<LocalId> {
    let mut s = BTreeSet::new();
    for b in blocks {
        for inst in &f.block(*b).insts {
            match &inst.kind {
                InstKind::LoadLocal(l) | InstKind::StoreLocal(l, _) | InstKind::LocalAddr(l) => {
                    s.insert(*l);
                }
                _ => {}
            }
        }
        if let Terminator::Barrier { result: Some(_r), .. } = &f.block(*b).term {
            // written at the start of the next region, not here
        }
    }
    s
}

/// Whether the blocks contain calls that need the thread context.
pub fn needs_ctx(f: &Function) -> bool {
    f.blocks.iter().flat_map(|b| &b.insts).any(|i| matches!(i.kind, InstKind::Call { .. } | InstKind::CallIndirect { .. }))
}

#[allow(dead_code)]
pub fn uses_of(k: &InstKind) -> Vec<ValueId> {
    inst_uses(k)
}
