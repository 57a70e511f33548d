//! Whether two shared-memory accesses of one straight-line stretch of a kernel can touch
//! the same element from two different lanes.
//!
//! The lock-step pass (`lockstep.rs`) orders a region's shared accesses like a GPU warp
//! would only where a lane may see another lane's access. Its first test compares address
//! expressions structurally (equal: the thread's own element). This one proves more: each
//! address is written as a polynomial over the lane's `threadIdx.x` (`t`) and atoms that
//! are the same for every lane (constants, block coordinates and dimensions, kernel
//! parameters never assigned, shared variables' addresses, block-uniform locals), linear
//! in `t`: `addr(t) = Q·t + P`. Two accesses with the same `Q` collide across lanes when
//! `Q·(t' − t) = P₂ − P₁` for some `t' ≠ t`; if `P₂ − P₁ = r·Q` with `r` a fraction whose
//! denominator is a power of two (the work-efficient scan's `offset·(2t+1) − 1` against
//! `offset·(2t+2) − 1`, `r = 1/2`), or `r = 0`, no two different lanes ever meet, also
//! modulo 2^32/2^64 (the odd factor is invertible). The exception is `Q = 0` at run time,
//! where every lane accesses one address: a data race among all lanes, on which neither
//! order is promised.
//!
//! Index arithmetic is read as integer arithmetic: signed overflow is undefined in CUDA
//! C++, unsigned wrap-around is arithmetic modulo a power of two, which the argument above
//! survives.

use cuprite_ir::*;
use std::collections::{BTreeMap, HashMap, HashSet};

/// What a polynomial is built from.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Atom {
    /// `threadIdx.x`: the only atom that differs between lanes.
    Lane,
    Block(String),
    Param(LocalId),
    Global(GlobalId),
    /// A block-uniform local, read in the accesses' block with no store between reads.
    Local(LocalId),
}

/// Integer polynomial: monomial (sorted atoms) → coefficient.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Poly(BTreeMap<Vec<Atom>, i128>);

/// Polynomials with more terms than this are not worth proving anything about.
const MAX_TERMS: usize = 64;
const MAX_DEPTH: u32 = 32;

impl Poly {
    fn constant(c: i128) -> Poly {
        let mut p = Poly::default();
        if c != 0 {
            p.0.insert(Vec::new(), c);
        }
        p
    }
    fn atom(a: Atom) -> Poly {
        Poly(BTreeMap::from([(vec![a], 1)]))
    }
    fn add(mut self, o: &Poly, sign: i128) -> Option<Poly> {
        for (m, c) in &o.0 {
            let e = self.0.entry(m.clone()).or_insert(0);
            *e = e.checked_add(c.checked_mul(sign)?)?;
            if *e == 0 {
                self.0.remove(m);
            }
        }
        (self.0.len() <= MAX_TERMS).then_some(self)
    }
    fn mul(&self, o: &Poly) -> Option<Poly> {
        let mut out = Poly::default();
        for (m1, c1) in &self.0 {
            for (m2, c2) in &o.0 {
                let mut m: Vec<Atom> = m1.iter().chain(m2).cloned().collect();
                m.sort();
                let e = out.0.entry(m.clone()).or_insert(0);
                *e = e.checked_add(c1.checked_mul(*c2)?)?;
                if *e == 0 {
                    out.0.remove(&m);
                }
            }
            if out.0.len() > MAX_TERMS {
                return None;
            }
        }
        Some(out)
    }
    fn scale(&self, k: i128) -> Option<Poly> {
        Poly::default().add(self, k)
    }
    /// `(Q, P)` with `self = Q·t + P`, or `None` if `t` appears non-linearly.
    fn split_lane(&self) -> Option<(Poly, Poly)> {
        let (mut q, mut p) = (Poly::default(), Poly::default());
        for (m, c) in &self.0 {
            match m.iter().filter(|a| **a == Atom::Lane).count() {
                0 => {
                    p.0.insert(m.clone(), *c);
                }
                1 => {
                    let rest: Vec<Atom> = m.iter().filter(|a| **a != Atom::Lane).cloned().collect();
                    q.0.insert(rest, *c);
                }
                _ => return None,
            }
        }
        Some((q, p))
    }
    fn divisible_by(&self, k: i128) -> bool {
        self.0.values().all(|c| c % k == 0)
    }
    fn div_exact(&self, k: i128) -> Poly {
        Poly(self.0.iter().map(|(m, c)| (m.clone(), c / k)).collect())
    }
}

/// The facts about one kernel that the test needs.
pub struct LaneDisjoint<'a> {
    m: &'a Module,
    f: &'a Function,
    def: HashMap<ValueId, (usize, usize)>,
    /// Local → (block, instruction, stored value) for locals stored exactly once.
    single_store: HashMap<LocalId, (usize, usize, ValueId)>,
    /// Kernel parameters never assigned.
    params: HashSet<LocalId>,
    addr_taken: HashSet<LocalId>,
    uniform_local: Vec<bool>,
}

impl<'a> LaneDisjoint<'a> {
    /// `None` for device functions: their parameters may differ between lanes.
    pub fn new(m: &'a Module, f: &'a Function) -> Option<Self> {
        if !matches!(f.kind, FunctionKind::Kernel { .. }) {
            return None;
        }
        let mut def = HashMap::new();
        let mut stores: HashMap<LocalId, Vec<(usize, usize, ValueId)>> = HashMap::new();
        let mut addr_taken = HashSet::new();
        for (bi, b) in f.blocks.iter().enumerate() {
            for (ii, inst) in b.insts.iter().enumerate() {
                if let Some(r) = inst.result {
                    def.insert(r, (bi, ii));
                }
                match &inst.kind {
                    InstKind::StoreLocal(l, v) => stores.entry(*l).or_default().push((bi, ii, *v)),
                    InstKind::LocalAddr(l) => {
                        addr_taken.insert(*l);
                    }
                    _ => {}
                }
            }
            for l in crate::simt::cut_results(&b.term) {
                stores.entry(l).or_default().push((bi, usize::MAX, ValueId(u32::MAX)));
            }
        }
        let single_store = stores
            .iter()
            .filter(|(l, s)| s.len() == 1 && s[0].1 != usize::MAX && !addr_taken.contains(*l) && !f.params.contains(l))
            .map(|(l, s)| (*l, s[0]))
            .collect();
        let params = f.params.iter().copied().filter(|p| !stores.contains_key(p) && !addr_taken.contains(p)).collect();
        let uni = crate::uniformity::analyse(f);
        let uniform_local = (0..f.locals.len()).map(|i| uni.local(LocalId(i as u32))).collect();
        Some(LaneDisjoint { m, f, def, single_store, params, addr_taken, uniform_local })
    }

    /// Whether the accesses through `p_ptr` (instruction `p_inst`) and then `q_ptr`
    /// (`q_inst`, later in the same block `block`, which the caller knows is not on a
    /// cycle of its region), each of `bytes` bytes, never touch the same element from two
    /// different lanes.
    pub fn proves(&self, block: usize, p_ptr: ValueId, q_ptr: ValueId, bytes: u64) -> bool {
        self.try_prove(block, p_ptr, q_ptr, bytes).unwrap_or(false)
    }

    fn try_prove(&self, block: usize, p_ptr: ValueId, q_ptr: ValueId, bytes: u64) -> Option<bool> {
        let mut reads: Vec<(LocalId, usize)> = Vec::new();
        let p = self.poly(p_ptr, block, true, &mut reads, 0)?;
        let q = self.poly(q_ptr, block, true, &mut reads, 0)?;
        // A uniform local read for both addresses must hold one value throughout.
        let locals: HashSet<LocalId> = reads.iter().map(|r| r.0).collect();
        for l in locals {
            let at: Vec<usize> = reads.iter().filter(|r| r.0 == l).map(|r| r.1).collect();
            let (lo, hi) = (*at.iter().min()?, *at.iter().max()?);
            let stored_between = self.f.blocks[block].insts[lo..hi]
                .iter()
                .any(|i| matches!(&i.kind, InstKind::StoreLocal(s, _) if *s == l));
            if stored_between {
                return Some(false);
            }
        }
        let (qp, pp) = p.split_lane()?;
        let (qq, pq) = q.split_lane()?;
        if qp != qq || qp.0.is_empty() {
            return Some(false);
        }
        let d = pq.add(&pp, -1)?;
        let s = bytes as i128;
        if s == 0 || !qp.divisible_by(s) || !d.divisible_by(s) {
            return Some(false);
        }
        lanes_apart(&qp.div_exact(s), &d.div_exact(s))
    }

    /// `v` as a polynomial. `home` is the block whose straight-line code the reads of
    /// uniform locals are checked in; outside it (`in_home` false) only values that never
    /// change are accepted.
    fn poly(&self, v: ValueId, home: usize, in_home: bool, reads: &mut Vec<(LocalId, usize)>, depth: u32) -> Option<Poly> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (bi, ii) = *self.def.get(&v)?;
        let rec = |x: ValueId, reads: &mut Vec<(LocalId, usize)>| self.poly(x, home, in_home, reads, depth + 1);
        let ty = self.f.value_type(v);
        match &self.f.blocks[bi].insts[ii].kind {
            InstKind::Const(Const::Int(c, _)) => Some(Poly::constant(*c as i128)),
            InstKind::Special(s) => match s {
                SpecialReg::ThreadIdx(Dim::X) => Some(Poly::atom(Atom::Lane)),
                SpecialReg::ThreadIdx(_) | SpecialReg::LaneId => None,
                other => Some(Poly::atom(Atom::Block(format!("{other:?}")))),
            },
            InstKind::GlobalAddr(g) => Some(Poly::atom(Atom::Global(*g))),
            InstKind::LoadLocal(l) => {
                if self.params.contains(l) {
                    return Some(Poly::atom(Atom::Param(*l)));
                }
                if self.addr_taken.contains(l) {
                    return None;
                }
                if let Some((sb, si, sv)) = self.single_store.get(l) {
                    // Stored once: its value, read where it was stored.
                    let same_home = in_home && *sb == home && *si < ii && bi == home;
                    return self.poly(*sv, home, same_home, reads, depth + 1);
                }
                if in_home && bi == home && self.uniform_local[l.index()] {
                    reads.push((*l, ii));
                    return Some(Poly::atom(Atom::Local(*l)));
                }
                None
            }
            InstKind::Binary(op, a, b) if ty.is_integer() => {
                let (pa, pb) = (rec(*a, reads)?, rec(*b, reads)?);
                match op {
                    BinaryOp::Add => pa.add(&pb, 1),
                    BinaryOp::Sub => pa.add(&pb, -1),
                    BinaryOp::Mul => pa.mul(&pb),
                    BinaryOp::Shl => {
                        let k = const_of(&pb)?;
                        (0..16).contains(&k).then(|| pa.scale(1 << k)).flatten()
                    }
                    _ => None,
                }
            }
            InstKind::Unary(UnaryOp::Neg, a) if ty.is_integer() => rec(*a, reads)?.scale(-1),
            InstKind::Cast(a) | InstKind::Bitcast(a) => {
                let from = self.f.value_type(*a);
                let ok = (from.is_integer() && ty.is_integer()) || (matches!(from, Type::Ptr(_)) && matches!(ty, Type::Ptr(_)));
                if ok {
                    rec(*a, reads)
                } else {
                    None
                }
            }
            InstKind::PtrAdd { base, index } => {
                let Type::Ptr(elem) = self.f.value_type(*base) else { return None };
                let size = self.m.layout(elem).0 as i128;
                let pi = rec(*index, reads)?.scale(size)?;
                rec(*base, reads)?.add(&pi, 1)
            }
            InstKind::FieldAddr { base, strukt, field } => {
                let off = self.m.struct_def(*strukt).fields.get(*field as usize)?.offset as i128;
                rec(*base, reads)?.add(&Poly::constant(off), 1)
            }
            _ => None,
        }
    }
}

/// Whether `Q·(t' − t) = D` has no solution with `t' ≠ t` (in elements): `D = 0`, or
/// `D = r·Q` with `r` a fraction whose reduced denominator is a power of two above 1.
fn lanes_apart(q: &Poly, d: &Poly) -> Option<bool> {
    if d.0.is_empty() {
        return Some(true); // each lane its own element
    }
    let (m0, qc) = q.0.iter().next()?;
    let Some(dc) = d.0.get(m0).copied() else { return Some(false) };
    if d.scale(*qc)? != q.scale(dc)? {
        return Some(false);
    }
    let g = gcd(dc.abs(), qc.abs());
    let den = (qc / g).abs();
    Some(den > 1 && den & (den - 1) == 0)
}

fn const_of(p: &Poly) -> Option<i128> {
    match p.0.len() {
        0 => Some(0),
        1 => p.0.get(&Vec::new()).copied(),
        _ => None,
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u() -> Poly {
        Poly::atom(Atom::Local(LocalId(0)))
    }

    #[test]
    fn scan_tree_offsets_are_apart() {
        // a = u(2t+1) - 1, b = u(2t+2) - 1: Q = 2u, D = u.
        assert_eq!(lanes_apart(&u().scale(2).unwrap(), &u()), Some(true));
        // A quarter of the stride apart: still never the same element.
        assert_eq!(lanes_apart(&u().scale(4).unwrap(), &u()), Some(true));
        // The same element of each lane.
        assert_eq!(lanes_apart(&u().scale(2).unwrap(), &Poly::default()), Some(true));
    }

    #[test]
    fn neighbours_and_odd_fractions_may_meet() {
        // buf[2t] against buf[2t + 2]: lane t + 1 meets lane t.
        assert_eq!(lanes_apart(&Poly::constant(2), &Poly::constant(2)), Some(false));
        // A third of the stride: meets modulo 2^32 for some u.
        assert_eq!(lanes_apart(&u().scale(3).unwrap(), &u()), Some(false));
        // Not a multiple of Q at all.
        let d = u().add(&Poly::constant(1), 1).unwrap();
        assert_eq!(lanes_apart(&u().scale(2).unwrap(), &d), Some(false));
    }

    #[test]
    fn split_lane_needs_linear_thread_index() {
        let t = Poly::atom(Atom::Lane);
        let p = t.mul(&u()).unwrap().scale(2).unwrap().add(&u(), 1).unwrap(); // 2ut + u
        let (q, rest) = p.split_lane().unwrap();
        assert_eq!(q, u().scale(2).unwrap());
        assert_eq!(rest, u());
        assert!(t.mul(&t).unwrap().split_lane().is_none());
    }
}
