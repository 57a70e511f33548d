//! Warps in lock step where the program can tell.
//!
//! The CPU back-end runs a block's threads one after the other between cut points. That
//! is faithful for code that synchronises through barriers, but warp-synchronous code —
//! written for GPUs that execute each instruction for all 32 lanes of a warp before the
//! next — lets lanes of a warp communicate through memory with no barrier at all (the
//! 4.2 guide's reduction: `volatile float *smem = sdata; smem[tid] += smem[tid + 16]; …`).
//!
//! This pass finds the memory accesses through which lanes can observe each other's order
//! and ends a block just before each of them with `WarpOp::Lockstep`. The general
//! scheduler lets the lanes of a warp that wait at the earliest such point (in reverse
//! postorder: lanes that are behind catch up, as a diverged warp reconverges) do their
//! access together, and only then go on: each access is done by all lanes that reach it
//! before any lane does a later one, as on the GPU. Two kinds of access qualify:
//!
//! - **volatile** loads and stores (except through pointers to the thread's own locals):
//!   `volatile` is how CUDA code says "another thread may be looking";
//! - **shared-memory accesses in a barrier-free region where lanes read what other lanes
//!   wrote**: a store to a `__shared__` variable followed, in the same region, by a load
//!   from that variable at an address that is not provably the thread's own element
//!   (address expressions compared structurally, see `AddrTerm`). Kernels whose shared accesses are separated
//!   by barriers — tiled GEMM, stencils, tree reductions with `__syncthreads()` — are left
//!   alone and keep their fast per-thread loops.
//!
//! Functions that receive steps become barrier functions (they end blocks in warp
//! operations) and are inlined into their kernels like any other.

use crate::lane_disjoint::LaneDisjoint;
use crate::simt;
use cuprite_ir::*;
use std::collections::{HashMap, HashSet};

/// Inserts lock-step points into every function that needs them. Returns the new module,
/// or `None` when no function needs any.
pub fn insert_warp_steps(m: &Module) -> Option<Module> {
    let plans: Vec<(usize, Vec<(usize, usize)>)> = m
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| (i, step_points(m, f)))
        .filter(|(_, p)| !p.is_empty())
        .collect();
    if plans.is_empty() {
        return None;
    }
    let mut out = m.clone();
    for (i, points) in plans {
        let f = &mut out.functions[i];
        split_before(f, &points);
        cuprite_ir::block_local::demote_cross_block_values(f);
    }
    Some(out)
}

/// The accesses before which `f` needs a lock-step point, as (block, instruction index).
fn step_points(m: &Module, f: &Function) -> Vec<(usize, usize)> {
    let defs = Defs::new(f);
    let mut points: HashSet<(usize, usize)> = HashSet::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, inst) in b.insts.iter().enumerate() {
            let ptr = match &inst.kind {
                InstKind::Load { ptr, volatile: true } | InstKind::Store { ptr, volatile: true, .. } => *ptr,
                _ => continue,
            };
            if defs.origin(ptr) != Origin::ThreadLocal {
                points.insert((bi, ii));
            }
        }
    }
    let disjoint = LaneDisjoint::new(m, f);
    for region in &simt::analyse(f).regions {
        let accesses = shared_accesses(m, f, &defs, &region.blocks);
        let order = RegionOrder::new(f, &region.blocks);
        let pairs = conflicting_pairs(&order, &accesses, disjoint.as_ref());
        // Only where a lane may read what another lane wrote does the order matter to
        // anyone; then every later access of a conflicting pair waits for all lanes.
        if pairs.iter().any(|(p, q)| accesses[*p].store && !accesses[*q].store) {
            points.extend(pairs.iter().map(|(_, q)| (accesses[*q].block, accesses[*q].inst)));
        }
    }
    let mut v: Vec<(usize, usize)> = points.into_iter().collect();
    v.sort();
    v
}

/// A non-volatile load or store whose address points into shared memory.
struct Access {
    block: usize,
    inst: usize,
    store: bool,
    /// The shared variable the address points into.
    global: GlobalId,
    addr: AddrTerm,
    ptr: ValueId,
    /// Bytes accessed.
    bytes: u64,
    /// `extern __shared__`: every such variable starts at the same address.
    dynamic: bool,
}

fn shared_accesses(m: &Module, f: &Function, defs: &Defs, blocks: &[BlockId]) -> Vec<Access> {
    let mut out = Vec::new();
    for b in blocks {
        let bi = b.index();
        for (ii, inst) in f.blocks[bi].insts.iter().enumerate() {
            let (ptr, store, ty) = match &inst.kind {
                InstKind::Load { ptr, volatile: false } => (*ptr, false, inst.result.map(|r| f.value_type(r).clone())),
                InstKind::Store { ptr, value, volatile: false } => (*ptr, true, Some(f.value_type(*value).clone())),
                _ => continue,
            };
            if let Origin::Global(g) = defs.origin(ptr) {
                if m.global(g).space == AddressSpace::Shared {
                    let bytes = ty.map_or(0, |t| m.layout(&t).0);
                    out.push(Access { block: bi, inst: ii, store, global: g, addr: defs.term(ptr, 0), ptr, bytes, dynamic: m.global(g).dynamic_shared });
                }
            }
        }
    }
    out
}

/// Which region blocks follow each block without crossing a cut.
struct RegionOrder {
    after: HashMap<usize, HashSet<usize>>,
}

impl RegionOrder {
    fn new(f: &Function, blocks: &[BlockId]) -> Self {
        let in_region: HashSet<usize> = blocks.iter().map(|b| b.index()).collect();
        let reach_after = |from: usize| -> HashSet<usize> {
            let mut seen = HashSet::new();
            let term = &f.blocks[from].term;
            if simt::is_cut(term) {
                return seen;
            }
            let mut work: Vec<usize> = term.successors().iter().map(|b| b.index()).collect();
            while let Some(b) = work.pop() {
                if !in_region.contains(&b) || !seen.insert(b) {
                    continue;
                }
                if !simt::is_cut(&f.blocks[b].term) {
                    work.extend(f.blocks[b].term.successors().iter().map(|s| s.index()));
                }
            }
            seen
        };
        RegionOrder { after: in_region.iter().map(|b| (*b, reach_after(*b))).collect() }
    }
    /// Whether some lane may do access `q` after access `p` within the region.
    fn follows(&self, p: &Access, q: &Access) -> bool {
        (p.block == q.block && q.inst > p.inst) || self.after.get(&p.block).is_some_and(|s| s.contains(&q.block))
    }
    /// Whether a block can run again before its region's next cut.
    fn on_cycle(&self, b: usize) -> bool {
        self.after.get(&b).is_some_and(|s| s.contains(&b))
    }
}

/// The pairs `(p, q)` (indices into `accesses`) of the region where `q` may follow `p`,
/// both touch the same shared variable, one of them writes, and two different lanes may
/// touch the same element: not equal addresses (the thread's own element), nor, in one
/// straight-line stretch, addresses that `LaneDisjoint` proves apart.
fn conflicting_pairs(order: &RegionOrder, accesses: &[Access], disjoint: Option<&LaneDisjoint>) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (pi, p) in accesses.iter().enumerate() {
        for (qi, q) in accesses.iter().enumerate() {
            let same_memory = p.global == q.global || (p.dynamic && q.dynamic);
            if !same_memory || !(p.store || q.store) || !order.follows(p, q) {
                continue;
            }
            if p.addr.is_known() && p.addr == q.addr {
                continue;
            }
            let straight = p.block == q.block && q.inst > p.inst && !order.on_cycle(p.block);
            if straight && p.bytes == q.bytes && disjoint.is_some_and(|d| d.proves(p.block, p.ptr, q.ptr, p.bytes)) {
                continue;
            }
            out.push((pi, qi));
        }
    }
    out
}

/// Where a pointer value comes from, as far as one block shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// The address of one of the thread's own locals.
    ThreadLocal,
    /// Derived from a global variable's address (directly or through locals that only
    /// ever hold addresses derived from it).
    Global(GlobalId),
    Unknown,
}

/// An address as an expression over what is the same for a thread throughout the region:
/// constants, special registers, globals' addresses, parameters, and locals assigned
/// once. Two equal known terms are the same address for the same thread.
#[derive(Clone, Debug, PartialEq)]
enum AddrTerm {
    Const(String),
    Special(SpecialReg),
    Global(GlobalId),
    Param(LocalId),
    Op(String, Type, Vec<AddrTerm>),
    /// Anything else (a load from memory, a local assigned more than once, a call).
    Unknown,
}

impl AddrTerm {
    fn is_known(&self) -> bool {
        match self {
            AddrTerm::Unknown => false,
            AddrTerm::Op(_, _, args) => args.iter().all(AddrTerm::is_known),
            _ => true,
        }
    }
}

/// Definitions of values and single assignments of locals.
struct Defs<'f> {
    f: &'f Function,
    /// Value → (block, instruction index) of its definition.
    def: HashMap<ValueId, (usize, usize)>,
    /// Local → the (block, value) it is assigned, for locals assigned exactly once.
    single_store: HashMap<LocalId, (usize, ValueId)>,
    /// Locals with no assignment that are parameters.
    params: HashSet<LocalId>,
    /// Locals whose address is taken (they may change behind our back).
    addr_taken: HashSet<LocalId>,
    /// For each local, the globals every value stored into it derives from (`None`:
    /// something else was stored).
    local_origin: HashMap<LocalId, Option<GlobalId>>,
}

const MAX_DEPTH: u32 = 24;

impl<'f> Defs<'f> {
    fn new(f: &'f Function) -> Self {
        let mut def = HashMap::new();
        let mut stores: HashMap<LocalId, Vec<(usize, ValueId)>> = HashMap::new();
        let mut addr_taken = HashSet::new();
        for (bi, b) in f.blocks.iter().enumerate() {
            for (ii, inst) in b.insts.iter().enumerate() {
                if let Some(r) = inst.result {
                    def.insert(r, (bi, ii));
                }
                match &inst.kind {
                    InstKind::StoreLocal(l, v) => stores.entry(*l).or_default().push((bi, *v)),
                    InstKind::LocalAddr(l) => {
                        addr_taken.insert(*l);
                    }
                    _ => {}
                }
            }
            // Results of cut points are assigned too.
            for l in simt::cut_results(&b.term) {
                stores.entry(l).or_default().push((bi, ValueId(u32::MAX)));
            }
        }
        let single_store = stores
            .iter()
            .filter(|(l, s)| s.len() == 1 && s[0].1 .0 != u32::MAX && !addr_taken.contains(*l) && !f.params.contains(l))
            .map(|(l, s)| (*l, s[0]))
            .collect();
        let params = f.params.iter().copied().filter(|p| !stores.contains_key(p) && !addr_taken.contains(p)).collect();
        let mut d = Defs { f, def, single_store, params, addr_taken, local_origin: HashMap::new() };
        // Which locals only ever hold addresses derived from one global: to a fixpoint,
        // since a local may be copied into another.
        for _ in 0..8 {
            let mut next: HashMap<LocalId, Option<GlobalId>> = HashMap::new();
            for (l, ss) in &stores {
                let mut o: Option<Option<GlobalId>> = None;
                for (_, v) in ss {
                    let g = if v.0 == u32::MAX {
                        None
                    } else {
                        match d.origin(*v) {
                            Origin::Global(g) => Some(g),
                            _ => None,
                        }
                    };
                    o = Some(match o {
                        None => g,
                        Some(prev) if prev == g => g,
                        Some(_) => None,
                    });
                }
                next.insert(*l, o.flatten());
            }
            if next == d.local_origin {
                break;
            }
            d.local_origin = next;
        }
        d
    }

    fn inst_of(&self, v: ValueId) -> Option<&'f InstKind> {
        self.def.get(&v).map(|(b, i)| &self.f.blocks[*b].insts[*i].kind)
    }

    fn origin(&self, v: ValueId) -> Origin {
        self.origin_at(v, 0)
    }

    fn origin_at(&self, v: ValueId, depth: u32) -> Origin {
        if depth > MAX_DEPTH {
            return Origin::Unknown;
        }
        match self.inst_of(v) {
            Some(InstKind::LocalAddr(_)) => Origin::ThreadLocal,
            Some(InstKind::GlobalAddr(g)) => Origin::Global(*g),
            Some(InstKind::PtrAdd { base, .. }) | Some(InstKind::FieldAddr { base, .. }) => self.origin_at(*base, depth + 1),
            Some(InstKind::Cast(a)) | Some(InstKind::Bitcast(a)) => self.origin_at(*a, depth + 1),
            Some(InstKind::LoadLocal(l)) if !self.addr_taken.contains(l) => match self.local_origin.get(l) {
                Some(Some(g)) => Origin::Global(*g),
                _ => Origin::Unknown,
            },
            _ => Origin::Unknown,
        }
    }

    fn term(&self, v: ValueId, depth: u32) -> AddrTerm {
        if depth > MAX_DEPTH {
            return AddrTerm::Unknown;
        }
        let ty = self.f.value_type(v).clone();
        let sub = |x: ValueId| self.term(x, depth + 1);
        match self.inst_of(v) {
            Some(InstKind::Const(c)) => AddrTerm::Const(format!("{c:?}")),
            Some(InstKind::Special(s)) => AddrTerm::Special(*s),
            Some(InstKind::GlobalAddr(g)) => AddrTerm::Global(*g),
            Some(InstKind::LoadLocal(l)) => {
                if self.params.contains(l) {
                    AddrTerm::Param(*l)
                } else if let Some((_, sv)) = self.single_store.get(l) {
                    self.term(*sv, depth + 1)
                } else {
                    AddrTerm::Unknown
                }
            }
            Some(InstKind::Unary(op, a)) => AddrTerm::Op(format!("{op:?}"), ty, vec![sub(*a)]),
            Some(InstKind::Binary(op, a, b)) => AddrTerm::Op(format!("{op:?}"), ty, vec![sub(*a), sub(*b)]),
            Some(InstKind::Cast(a)) => AddrTerm::Op("cast".into(), ty, vec![sub(*a)]),
            Some(InstKind::Bitcast(a)) => AddrTerm::Op("bitcast".into(), ty, vec![sub(*a)]),
            Some(InstKind::Select(c, a, b)) => AddrTerm::Op("select".into(), ty, vec![sub(*c), sub(*a), sub(*b)]),
            Some(InstKind::PtrAdd { base, index }) => AddrTerm::Op("ptradd".into(), ty, vec![sub(*base), sub(*index)]),
            Some(InstKind::FieldAddr { base, field, .. }) => {
                AddrTerm::Op("field".into(), ty, vec![sub(*base), AddrTerm::Const(field.to_string())])
            }
            _ => AddrTerm::Unknown,
        }
    }
}

/// Whether a function (a kernel after inlining) runs some of its code in lock step.
pub fn has_steps(f: &Function) -> bool {
    f.blocks.iter().any(|b| matches!(b.term, Terminator::Warp { op: WarpOp::Lockstep, .. }))
}

/// Ends the block just before each point with a lock-step warp operation. Values defined
/// before a point and used after it now cross blocks; the caller makes them block-local
/// again (`cuprite_ir::block_local`), as the rest of the back-end expects.
fn split_before(f: &mut Function, points: &[(usize, usize)]) {
    let mut by_block: HashMap<usize, Vec<usize>> = HashMap::new();
    for (b, i) in points {
        by_block.entry(*b).or_default().push(*i);
    }
    let mut blocks: Vec<usize> = by_block.keys().copied().collect();
    blocks.sort();
    for bi in blocks {
        let mut idx = by_block.remove(&bi).unwrap();
        idx.sort();
        // From the last point back, so that earlier indices stay valid.
        for ii in idx.into_iter().rev() {
            split_one(f, bi, ii);
        }
    }
}

fn split_one(f: &mut Function, bi: usize, ii: usize) {
    let block = &mut f.blocks[bi];
    let loc = block.insts[ii].loc;
    let insts = block.insts.split_off(ii);
    let term = std::mem::replace(&mut block.term, Terminator::Unreachable);
    let term_loc = block.term_loc;
    let next = BlockId(f.blocks.len() as u32);
    f.blocks.push(Block { insts, term, term_loc });
    f.blocks[bi].term = Terminator::Warp { op: WarpOp::Lockstep, args: vec![], results: vec![], next };
    f.blocks[bi].term_loc = loc;
}
