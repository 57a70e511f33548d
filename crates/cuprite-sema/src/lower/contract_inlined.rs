//! Contraction after inlining. nvcc (`-fmad=true`) inlines device functions and then
//! contracts `a*b + c` into an fma on SSA form, one basic block at a time, so a product
//! made in one function and added in another (`mul(a, b) + c`, `add(a*b, c)`,
//! helper_math's `float3` `s += k * v`) is fused; a `__noinline__` callee's product is
//! not. The lowering (`func.rs`, `try_fma`) contracts within one function; this pass
//! does the rest: in each block, calls of straight-line device functions (one block
//! ending in `return`) are expanded in a scratch copy, values are followed through the
//! block's locals (stores then loads of the same local or struct field), and an
//! addition from one function instance whose operand is a product from another becomes
//! an fma when every other use of that product is an addition too (at most four uses:
//! NVPTX's rule; a product that is also stored or compared stays rounded). Blocks where
//! nothing is fused are left as they were. Only products and sums written with the
//! source operators take part (`contractable`), never intrinsics or inline PTX.

use cuprite_ir::operands::{inst_uses, map_inst, map_term, term_uses};
use cuprite_ir::*;
use std::collections::{HashMap, HashSet};

/// Per function (by `FuncId`), the float `*`, `+`, `-` values that source operators made.
pub(crate) type Contractable = Vec<HashSet<ValueId>>;

/// Most instructions a callee may have to be expanded, and a block's total after
/// expansion: nvcc inlines far more, but only small helpers make cross-function pairs
/// worth the work here.
const MAX_CALLEE_INSTS: usize = 400;
const MAX_BLOCK_INSTS: usize = 8000;
const MAX_DEPTH: usize = 12;

pub(crate) fn run(m: &mut Module, contractable: &Contractable) {
    let mut sets = contractable.clone();
    sets.resize(m.functions.len(), HashSet::new());
    for fi in 0..m.functions.len() {
        let Some(new) = contract_function(m, fi, &sets) else { continue };
        m.functions[fi] = new;
    }
}

/// The function with its blocks rewritten, or `None` if nothing was fused.
fn contract_function(m: &Module, fi: usize, sets: &Contractable) -> Option<Function> {
    let f = &m.functions[fi];
    if f.blocks.is_empty() || !f.blocks.iter().flat_map(|b| &b.insts).any(|i| matches!(i.kind, InstKind::Call { .. })) {
        return None;
    }
    let mut out = f.clone();
    let mut changed = false;
    let lu = LocalUse::of(f);
    for bi in 0..f.blocks.len() {
        let (nl, nv) = (out.locals.len(), out.values.len());
        let mut x = Expander { m, sets, f: &mut out, insts: vec![], instance: vec![], contract: HashSet::new(), next_instance: 1, stack: vec![fi], budget: MAX_BLOCK_INSTS };
        let block = &f.blocks[bi];
        if !block.insts.iter().any(|i| matches!(&i.kind, InstKind::Call { func, .. } if x.eligible(*func))) {
            continue;
        }
        let own = &sets[fi];
        let mut vmap: HashMap<ValueId, ValueId> = HashMap::new();
        x.expand(&block.insts, 0, own, &mut vmap, &|l| l);
        let term = map_term(&block.term, &|v| *vmap.get(&v).unwrap_or(&v), &|b| b, &|l| l);
        let Expander { insts, instance, contract, .. } = x;
        match fuse(m, &lu, bi, insts, &instance, &contract, &term, &mut out) {
            Some(insts) => {
                out.blocks[bi] = Block { insts, term, term_loc: block.term_loc };
                changed = true;
            }
            None => {
                out.locals.truncate(nl);
                out.values.truncate(nv);
            }
        }
    }
    changed.then_some(out)
}

/// Which blocks touch which locals (computed once per function).
struct LocalUse {
    /// Per block, the locals its instructions load, store or take the address of.
    in_block: Vec<HashSet<LocalId>>,
    /// For each local, how many blocks touch it.
    blocks_touching: HashMap<LocalId, u32>,
    /// Locals that terminators write (barrier and warp results).
    term_locals: HashSet<LocalId>,
    /// Locals whose address is taken somewhere.
    addr_taken: HashSet<LocalId>,
}

impl LocalUse {
    fn of(f: &Function) -> LocalUse {
        let mut lu = LocalUse { in_block: vec![], blocks_touching: HashMap::new(), term_locals: HashSet::new(), addr_taken: HashSet::new() };
        for b in &f.blocks {
            let mut set = HashSet::new();
            for i in &b.insts {
                match i.kind {
                    InstKind::LoadLocal(l) | InstKind::StoreLocal(l, _) => {
                        set.insert(l);
                    }
                    InstKind::LocalAddr(l) => {
                        set.insert(l);
                        lu.addr_taken.insert(l);
                    }
                    _ => {}
                }
            }
            for l in &set {
                *lu.blocks_touching.entry(*l).or_default() += 1;
            }
            lu.in_block.push(set);
            match &b.term {
                Terminator::Barrier { result: Some(l), .. } => {
                    lu.term_locals.insert(*l);
                }
                Terminator::Warp { results, .. } => lu.term_locals.extend(results.iter().copied()),
                _ => {}
            }
        }
        lu
    }
}

/// Builds a block's instructions with eligible calls expanded in place.
struct Expander<'a> {
    m: &'a Module,
    sets: &'a Contractable,
    f: &'a mut Function,
    insts: Vec<Inst>,
    /// Which function instance made each instruction of `insts` (0: the block's own).
    instance: Vec<u32>,
    /// Contractable values among `insts`' results.
    contract: HashSet<ValueId>,
    next_instance: u32,
    stack: Vec<usize>,
    budget: usize,
}

impl Expander<'_> {
    fn eligible(&self, g: FuncId) -> bool {
        let c = &self.m.functions[g.index()];
        !c.blocks.is_empty()
            && matches!(c.blocks[0].term, Terminator::Return(_))
            && c.inline != InlineHint::Never
            && matches!(c.kind, FunctionKind::Device)
            && c.blocks[0].insts.len() <= MAX_CALLEE_INSTS
            && !self.stack.contains(&g.index())
            && self.stack.len() < MAX_DEPTH
    }

    fn new_value(&mut self, t: Type) -> ValueId {
        self.f.values.push(t);
        ValueId(self.f.values.len() as u32 - 1)
    }

    /// Appends `src` (instructions of the function instance `inst`, whose contractable
    /// values are `own`), mapping its values through `vmap` and its locals through `lmap`.
    fn expand(&mut self, src: &[Inst], inst: u32, own: &HashSet<ValueId>, vmap: &mut HashMap<ValueId, ValueId>, lmap: &dyn Fn(LocalId) -> LocalId) {
        for i in src {
            let kind = map_inst(&i.kind, &|v| *vmap.get(&v).unwrap_or(&v), lmap);
            if let InstKind::Call { func, args } = &kind {
                if self.eligible(*func) && self.budget >= self.m.functions[func.index()].blocks[0].insts.len() {
                    let ret = self.inline_call(*func, args, i.loc);
                    if let (Some(r), Some(v)) = (i.result, ret) {
                        vmap.insert(r, v);
                    }
                    continue;
                }
            }
            let result = if inst == 0 {
                i.result
            } else {
                i.result.map(|r| {
                    let t = self.m_value_type(r);
                    let n = self.new_value(t);
                    vmap.insert(r, n);
                    n
                })
            };
            if let Some(r) = result {
                if own.contains(&i.result.unwrap()) {
                    self.contract.insert(r);
                }
            }
            self.budget = self.budget.saturating_sub(1);
            self.insts.push(Inst { result, kind, loc: i.loc });
            self.instance.push(inst);
        }
    }

    /// The type of a value of the callee being expanded (the top of `stack`).
    fn m_value_type(&self, v: ValueId) -> Type {
        self.m.functions[*self.stack.last().unwrap()].values[v.index()].clone()
    }

    /// Expands a call of `g` with the (mapped) `args`; the returned value, if any.
    fn inline_call(&mut self, g: FuncId, args: &[ValueId], loc: Option<SrcLoc>) -> Option<ValueId> {
        let callee = &self.m.functions[g.index()];
        let base = self.f.locals.len() as u32;
        for l in &callee.locals {
            self.f.locals.push(l.clone());
        }
        let lmap = move |l: LocalId| LocalId(base + l.0);
        let inst = self.next_instance;
        self.next_instance += 1;
        for (p, a) in callee.params.iter().zip(args) {
            self.insts.push(Inst { result: None, kind: InstKind::StoreLocal(lmap(*p), *a), loc });
            self.instance.push(inst);
        }
        self.stack.push(g.index());
        let mut vmap = HashMap::new();
        let own = &self.sets[g.index()];
        self.expand(&callee.blocks[0].insts, inst, own, &mut vmap, &lmap);
        self.stack.pop();
        match callee.blocks[0].term {
            Terminator::Return(Some(v)) => Some(*vmap.get(&v).unwrap_or(&v)),
            _ => None,
        }
    }
}

/// Where a pointer points inside a local: the local and the field path.
type Slot = (LocalId, Vec<u32>);

/// What the block's memory operations on locals tell about its values.
struct Flow {
    /// A loaded value → the value stored there before (same block).
    same: HashMap<ValueId, ValueId>,
    /// Pointers into locals.
    slot: HashMap<ValueId, Slot>,
    /// For each instruction index that loads a local's memory without knowing the value.
    unknown_loads: Vec<(usize, LocalId)>,
    /// Locals whose address is used other than to load, store or take a field.
    escaped: HashSet<LocalId>,
    /// `(l2, l)`: the address of `l` stored into the local `l2`.
    addr_stores: Vec<(LocalId, LocalId)>,
    /// Struct values whose fields are known: the fields' values by path.
    agg: HashMap<ValueId, Vec<(Vec<u32>, ValueId)>>,
}

impl Flow {
    fn resolve(&self, mut v: ValueId) -> ValueId {
        while let Some(w) = self.same.get(&v) {
            v = *w;
        }
        v
    }
}

fn overlaps(a: &[u32], b: &[u32]) -> bool {
    a.iter().zip(b).all(|(x, y)| x == y)
}

/// Follows values through stores and loads of locals (and their struct fields) within
/// the block. Stores through other pointers and calls forget what is known of the locals
/// whose address is taken (`addr_taken`): only those can they reach.
fn flow(m: &Module, f: &Function, insts: &[Inst], addr_taken: &HashSet<LocalId>) -> Flow {
    let mut fl = Flow { same: HashMap::new(), slot: HashMap::new(), unknown_loads: vec![], escaped: HashSet::new(), addr_stores: vec![], agg: HashMap::new() };
    // Per local: the known scalar values at field paths.
    let mut mem: HashMap<LocalId, Vec<(Vec<u32>, ValueId)>> = HashMap::new();
    let mut agg = std::mem::take(&mut fl.agg);
    let is_scalar = |v: ValueId| f.values[v.index()].scalar_size().is_some();
    let write = |mem: &mut HashMap<LocalId, Vec<(Vec<u32>, ValueId)>>, agg: &HashMap<ValueId, Vec<(Vec<u32>, ValueId)>>, (l, path): &Slot, v: ValueId, scalar: bool| {
        let e = mem.entry(*l).or_default();
        e.retain(|(p, _)| !overlaps(p, path));
        if scalar {
            e.push((path.clone(), v));
        } else if let Some(fields) = agg.get(&v) {
            e.extend(fields.iter().map(|(p, x)| ([path.as_slice(), p].concat(), *x)));
        }
    };
    let read = |mem: &HashMap<LocalId, Vec<(Vec<u32>, ValueId)>>, (l, path): &Slot| -> Vec<(Vec<u32>, ValueId)> {
        mem.get(l).map(|e| e.iter().filter(|(p, _)| p.starts_with(path)).map(|(p, x)| (p[path.len()..].to_vec(), *x)).collect()).unwrap_or_default()
    };
    for (k, i) in insts.iter().enumerate() {
        let r = i.result;
        match &i.kind {
            InstKind::LocalAddr(l) => {
                fl.slot.insert(r.unwrap(), (*l, vec![]));
            }
            InstKind::FieldAddr { base, strukt, field } => {
                let b = fl.resolve(*base);
                if let (Some((l, p)), false) = (fl.slot.get(&b).cloned(), m.structs[strukt.index()].is_union) {
                    fl.slot.insert(r.unwrap(), (l, [p, vec![*field]].concat()));
                }
            }
            InstKind::StoreLocal(l, v) => {
                let v = fl.resolve(*v);
                write(&mut mem, &agg, &(*l, vec![]), v, is_scalar(v));
            }
            InstKind::Store { ptr, value, volatile } => match fl.slot.get(&fl.resolve(*ptr)).cloned() {
                Some(s) if !volatile => {
                    let v = fl.resolve(*value);
                    write(&mut mem, &agg, &s, v, is_scalar(v));
                }
                Some((l, _)) => {
                    mem.remove(&l);
                }
                None => mem.retain(|l, _| !addr_taken.contains(l)),
            },
            InstKind::LoadLocal(l) => {
                let r = r.unwrap();
                load(m, &mut fl, &mut agg, &read(&mem, &(*l, vec![])), r, &f.values[r.index()], k, *l)
            }
            InstKind::Load { ptr, volatile } => {
                if let Some(s) = fl.slot.get(&fl.resolve(*ptr)).cloned() {
                    let known = if *volatile { vec![] } else { read(&mem, &s) };
                    let r = r.unwrap();
                    load(m, &mut fl, &mut agg, &known, r, &f.values[r.index()], k, s.0);
                }
            }
            InstKind::Copy { dst, .. } => match fl.slot.get(&fl.resolve(*dst)).cloned() {
                Some((l, _)) => {
                    mem.remove(&l);
                }
                None => mem.retain(|l, _| !addr_taken.contains(l)),
            },
            InstKind::Call { .. } | InstKind::CallIndirect { .. } => mem.retain(|l, _| !addr_taken.contains(l)),
            InstKind::CallBuiltin { args, .. } if args.iter().any(|a| f.values[a.index()].is_pointer()) => mem.retain(|l, _| !addr_taken.contains(l)),
            _ => {}
        }
        // Addresses of locals used otherwise than to reach memory escape.
        let addr_ok = |pos: usize| match &i.kind {
            InstKind::Load { .. } | InstKind::FieldAddr { .. } => pos == 0,
            InstKind::Store { .. } => pos == 0,
            InstKind::StoreLocal(..) => true,
            _ => false,
        };
        for (pos, u) in inst_uses(&i.kind).into_iter().enumerate() {
            if let Some((l, _)) = fl.slot.get(&fl.resolve(u)).cloned() {
                match &i.kind {
                    InstKind::StoreLocal(l2, _) => fl.addr_stores.push((*l2, l)),
                    _ if addr_ok(pos) => {}
                    _ => {
                        fl.escaped.insert(l);
                    }
                }
            }
        }
    }
    fl.agg = agg;
    fl
}

/// The field paths of a struct type's scalar members; `None` when it has arrays or
/// unions (whose members are not followed).
fn leaves(m: &Module, t: &Type, path: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) -> bool {
    match t {
        Type::Struct(s) => {
            let d = &m.structs[s.index()];
            if d.is_union {
                return false;
            }
            for (k, fd) in d.fields.iter().enumerate() {
                path.push(k as u32);
                let ok = leaves(m, &fd.ty, path, out);
                path.pop();
                if !ok {
                    return false;
                }
            }
            true
        }
        Type::Array(..) => false,
        _ => {
            out.push(path.clone());
            true
        }
    }
}

/// A load of `r` (type `t`) from local `l`'s memory, `known` what the block stored there.
fn load(m: &Module, fl: &mut Flow, agg: &mut HashMap<ValueId, Vec<(Vec<u32>, ValueId)>>, known: &[(Vec<u32>, ValueId)], r: ValueId, t: &Type, k: usize, l: LocalId) {
    if t.scalar_size().is_some() {
        match known.iter().find(|(p, _)| p.is_empty()) {
            Some((_, v)) => {
                fl.same.insert(r, *v);
            }
            None => fl.unknown_loads.push((k, l)),
        }
    } else {
        // A struct: known field by field; a read of memory unless every field is known.
        let mut all = vec![];
        if !leaves(m, t, &mut vec![], &mut all) || !all.iter().all(|p| known.iter().any(|(q, _)| q == p)) {
            fl.unknown_loads.push((k, l));
        }
        agg.insert(r, known.to_vec());
    }
}

/// How an instruction uses a value.
#[derive(Clone, Copy, PartialEq)]
enum Use {
    /// A contractable float `+`/`-` (instruction index).
    Add,
    /// `-v` (its result).
    Neg(ValueId),
    /// Stored into a local that only this block reads, through loads followed here.
    Plumbing,
    Other,
}

/// Fuses the cross-instance multiply-adds of an expanded block; `None` if there are none.
/// `lu` tells which blocks of the function before this pass touch which locals, `f` is
/// the function being built (its `values` hold the expanded block's types).
fn fuse(m: &Module, lu: &LocalUse, bi: usize, insts: Vec<Inst>, instance: &[u32], contract: &HashSet<ValueId>, term: &Terminator, f: &mut Function) -> Option<Vec<Inst>> {
    let mut addr_taken = lu.addr_taken.clone();
    addr_taken.extend(insts.iter().filter_map(|i| match i.kind {
        InstKind::LocalAddr(l) => Some(l),
        _ => None,
    }));
    let fl = flow(m, f, &insts, &addr_taken);
    // Locals that other blocks (or a terminator) touch.
    let shared = |l: &LocalId| lu.term_locals.contains(l) || lu.blocks_touching.get(l).copied().unwrap_or(0) > lu.in_block[bi].contains(l) as u32;
    // The last load of each local's memory whose value is not known here.
    let mut last_unknown: HashMap<LocalId, usize> = HashMap::new();
    for (j, l) in &fl.unknown_loads {
        let e = last_unknown.entry(*l).or_insert(*j);
        *e = (*e).max(*j);
    }
    let escaped: HashSet<LocalId> = fl.escaped.iter().copied().chain(fl.addr_stores.iter().filter(|(l2, _)| shared(l2) || fl.escaped.contains(l2)).map(|(_, l)| *l)).collect();
    let def: HashMap<ValueId, usize> = insts.iter().enumerate().filter_map(|(k, i)| i.result.map(|r| (r, k))).collect();
    let is_float = |v: ValueId| f.values[v.index()].is_float();
    let is_add = |i: &Inst| matches!(i.kind, InstKind::Binary(BinaryOp::Add | BinaryOp::Sub, ..)) && i.result.is_some_and(|r| contract.contains(&r) && is_float(r));
    // Every use of every (resolved) value.
    let mut uses: HashMap<ValueId, Vec<Use>> = HashMap::new();
    for (k, i) in insts.iter().enumerate() {
        for (pos, u) in inst_uses(&i.kind).into_iter().enumerate() {
            let u = fl.resolve(u);
            let plumbing_into = |l: LocalId| {
                let private = !shared(&l) && !escaped.contains(&l);
                private && last_unknown.get(&l).is_none_or(|j| *j <= k)
            };
            let kind = match &i.kind {
                _ if is_add(i) => Use::Add,
                InstKind::Unary(UnaryOp::Neg, _) => Use::Neg(i.result.unwrap()),
                InstKind::StoreLocal(l, _) if plumbing_into(*l) => Use::Plumbing,
                InstKind::Store { ptr, .. } if pos == 1 => match fl.slot.get(&fl.resolve(*ptr)) {
                    Some((l, _)) if plumbing_into(*l) => Use::Plumbing,
                    _ => Use::Other,
                },
                _ => Use::Other,
            };
            // A struct value used as a whole (passed, stored elsewhere) uses its fields.
            if kind != Use::Plumbing {
                for (_, x) in fl.agg.get(&u).map(Vec::as_slice).unwrap_or(&[]) {
                    uses.entry(fl.resolve(*x)).or_default().push(Use::Other);
                }
            }
            uses.entry(u).or_default().push(kind);
        }
    }
    for u in term_uses(term) {
        let u = fl.resolve(u);
        for (_, x) in fl.agg.get(&u).map(Vec::as_slice).unwrap_or(&[]) {
            uses.entry(fl.resolve(*x)).or_default().push(Use::Other);
        }
        uses.entry(u).or_default().push(Use::Other);
    }
    // The additions a product's value reaches, if each of its uses is one (directly or
    // negated): NVPTX fuses a product into its additions only then, and for at most four.
    let adds_only = |v: ValueId| -> Option<usize> {
        let mut n = 0;
        for u in uses.get(&v).map(Vec::as_slice).unwrap_or(&[]) {
            match u {
                Use::Add => n += 1,
                Use::Plumbing => {}
                Use::Neg(w) => {
                    for x in uses.get(w).map(Vec::as_slice).unwrap_or(&[]) {
                        match x {
                            Use::Add => n += 1,
                            Use::Plumbing => {}
                            _ => return None,
                        }
                    }
                }
                Use::Other => return None,
            }
        }
        (n <= 4).then_some(n)
    };
    // A product an operand stands for: its factors, whether negated, its use count.
    let product = |v: ValueId, k: usize| -> Option<(ValueId, ValueId, bool, usize)> {
        let v = fl.resolve(v);
        let (mut j, mut neg) = (*def.get(&v)?, false);
        if let InstKind::Unary(UnaryOp::Neg, w) = insts[j].kind {
            j = *def.get(&fl.resolve(w))?;
            neg = true;
        }
        let InstKind::Binary(BinaryOp::Mul, a, b) = insts[j].kind else { return None };
        let p = insts[j].result?;
        if !contract.contains(&p) || !is_float(p) || instance[j] == instance[k] || f.values[p.index()] != f.values[v.index()] {
            return None;
        }
        adds_only(p).map(|n| (a, b, neg, n))
    };
    // Which additions become fmas: (a, b, negate a, c, negate c).
    let mut plan: HashMap<usize, (ValueId, ValueId, bool, ValueId, bool)> = HashMap::new();
    for (k, i) in insts.iter().enumerate() {
        let InstKind::Binary(op, x, y) = i.kind else { continue };
        if !is_add(i) {
            continue;
        }
        let (px, py) = (product(x, k), product(y, k));
        let sub = op == BinaryOp::Sub;
        // a*b ± c → fma(±a, b, ±c); c ± a*b → fma(±a, b, c). Of two products, the one
        // with fewer uses (the first on a tie), as LLVM's combiner picks.
        let pick = match (px, py) {
            (Some(p), Some(q)) if p.3 <= q.3 => Some((p, true)),
            (Some(_), Some(q)) => Some((q, false)),
            (Some(p), None) => Some((p, true)),
            (None, Some(q)) => Some((q, false)),
            (None, None) => None,
        };
        match pick {
            Some(((a, b, n, _), true)) => plan.insert(k, (a, b, n, y, sub)),
            Some(((a, b, n, _), false)) => plan.insert(k, (a, b, n != sub, x, false)),
            None => None,
        };
    }
    if plan.is_empty() {
        return None;
    }
    let mut out = Vec::with_capacity(insts.len() + plan.len());
    for (k, i) in insts.into_iter().enumerate() {
        let Some(&(a, b, neg_a, c, neg_c)) = plan.get(&k) else {
            out.push(i);
            continue;
        };
        let r = i.result.unwrap();
        let t = f.values[r.index()].clone();
        let mut negate = |v: ValueId, out: &mut Vec<Inst>| {
            f.values.push(t.clone());
            let n = ValueId(f.values.len() as u32 - 1);
            out.push(Inst { result: Some(n), kind: InstKind::Unary(UnaryOp::Neg, v), loc: i.loc });
            n
        };
        let a = if neg_a { negate(a, &mut out) } else { a };
        let c = if neg_c { negate(c, &mut out) } else { c };
        let mf = if t == Type::F32 { MathFn::Fmaf } else { MathFn::Fma };
        out.push(Inst { result: Some(r), kind: InstKind::CallBuiltin { builtin: Builtin::Math(mf), args: vec![a, b, c] }, loc: i.loc });
    }
    Some(out)
}
