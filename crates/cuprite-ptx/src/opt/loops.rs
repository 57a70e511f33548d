//! Natural loops of a function's CFG, and counted loops among them.

use cuprite_ir::dom::Dominators;
use cuprite_ir::{BinaryOp, BlockId, Const, Function, InstKind, LocalId, Terminator, Type, ValueId};

/// A natural loop with one back edge and one way in.
pub struct Loop {
    pub header: usize,
    /// The only block in the loop that jumps back to the header.
    pub latch: usize,
    /// The only block outside the loop that enters it, by a plain jump to the header.
    pub preheader: usize,
    /// Per block of the function: whether it is in the loop.
    pub blocks: Vec<bool>,
}

impl Loop {
    pub fn contains(&self, b: usize) -> bool {
        self.blocks[b]
    }

    /// Whether control leaves the loop only from the header (no `break`, `return`).
    pub fn exits_only_from_header(&self, f: &Function) -> bool {
        (0..f.blocks.len()).filter(|&b| self.blocks[b] && b != self.header).all(|b| {
            let t = &f.blocks[b].term;
            !matches!(t, Terminator::Return(_) | Terminator::Unreachable) && t.successors().iter().all(|s| self.blocks[s.index()])
        })
    }

    /// Whether the loop has no loop inside it (its body without the header is acyclic).
    pub fn is_innermost(&self, f: &Function) -> bool {
        // Depth-first search over the body from the header's successors; a back edge to a
        // block on the stack is a cycle.
        let n = f.blocks.len();
        let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for s in f.blocks[self.header].term.successors() {
            let s = s.index();
            if !self.blocks[s] || s == self.header || state[s] != 0 {
                continue;
            }
            state[s] = 1;
            stack.push((s, 0));
            while let Some((b, i)) = stack.pop() {
                let succ = f.blocks[b].term.successors();
                if i < succ.len() {
                    stack.push((b, i + 1));
                    let c = succ[i].index();
                    if !self.blocks[c] || c == self.header {
                        continue;
                    }
                    match state[c] {
                        0 => {
                            state[c] = 1;
                            stack.push((c, 0));
                        }
                        1 => return false,
                        _ => {}
                    }
                } else {
                    state[b] = 2;
                }
            }
        }
        true
    }
}

/// The function's loops of the shape `Loop` describes (others are left alone).
pub fn natural_loops(f: &Function) -> Vec<Loop> {
    let n = f.blocks.len();
    let dom = Dominators::new(f);
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (b, blk) in f.blocks.iter().enumerate() {
        if !dom.reachable(BlockId(b as u32)) {
            continue;
        }
        for s in blk.term.successors() {
            preds[s.index()].push(b);
        }
    }
    let mut out = Vec::new();
    for h in 0..n {
        let hb = BlockId(h as u32);
        let (back, outside): (Vec<usize>, Vec<usize>) = preds[h].iter().partition(|&&p| dom.dominates(hb, BlockId(p as u32)));
        if back.len() != 1 || outside.len() != 1 || h == 0 {
            continue;
        }
        let (latch, preheader) = (back[0], outside[0]);
        if !matches!(f.blocks[preheader].term, Terminator::Jump(t) if t.index() == h) {
            continue;
        }
        let mut blocks = vec![false; n];
        blocks[h] = true;
        let mut work = vec![latch];
        while let Some(b) = work.pop() {
            if std::mem::replace(&mut blocks[b], true) {
                continue;
            }
            work.extend(preds[b].iter().copied());
        }
        out.push(Loop { header: h, latch, preheader, blocks });
    }
    out
}

/// A loop whose header tests a local that the loop steps by a constant, from a constant
/// stored just before the loop.
pub struct Counted {
    pub var: LocalId,
    /// The counter's value at the start of each iteration that runs the body.
    pub values: Vec<i64>,
    /// The header's successor in the loop, and the one it leaves to.
    pub body: BlockId,
    pub exit: BlockId,
}

/// The header's test of a counter: the counter, the condition, the successors in and out
/// of the loop, and the condition's value that runs the body.
struct HeaderTest {
    var: LocalId,
    cond: ValueId,
    body: BlockId,
    exit: BlockId,
    run_when: bool,
}

fn header_test(f: &Function, lp: &Loop) -> Option<HeaderTest> {
    let header = &f.blocks[lp.header];
    let Terminator::Branch { cond, then, else_ } = header.term else { return None };
    let (body, exit, run_when) = match (lp.contains(then.index()), lp.contains(else_.index())) {
        (true, false) => (then, else_, true),
        (false, true) => (else_, then, false),
        _ => return None,
    };
    // The counter: the one local the header reads.
    let mut var = None;
    for inst in &header.insts {
        match &inst.kind {
            InstKind::LoadLocal(l) if var.is_none() || var == Some(*l) => var = Some(*l),
            InstKind::LoadLocal(_) => return None,
            InstKind::Const(Const::Int(..)) | InstKind::Binary(..) | InstKind::Cast(_) => {}
            _ => return None,
        }
    }
    let var = var?;
    let ty = &f.local(var).ty;
    if !ty.is_integer() || *ty == Type::Bool || address_taken(f, var) {
        return None;
    }
    Some(HeaderTest { var, cond, body, exit, run_when })
}

/// Whether the loop's body surely runs at least once: its counter starts at a constant
/// for which the header's test holds.
pub fn surely_entered(f: &Function, lp: &Loop) -> bool {
    let Some(h) = header_test(f, lp) else { return false };
    let Some(start) = initial_value(f, lp.preheader, h.var) else { return false };
    let mut env = vec![None; f.values.len()];
    eval_block_cond(f, lp.header, h.var, start, h.cond, &mut env) == Some(h.run_when)
}

/// The iterations of `lp` when it is a counted loop of at most `max_trips` iterations.
pub fn counted(f: &Function, lp: &Loop, max_trips: usize) -> Option<Counted> {
    let HeaderTest { var, cond, body, exit, run_when } = header_test(f, lp)?;
    let ty = f.local(var).ty.clone();
    let start = initial_value(f, lp.preheader, var)?;
    let step = step_of(f, lp, var)?;
    let mut values = Vec::new();
    let mut i = start;
    loop {
        let mut env = vec![None; f.values.len()];
        let go = eval_block_cond(f, lp.header, var, i, cond, &mut env)?;
        if go != run_when {
            break;
        }
        if values.len() == max_trips {
            return None;
        }
        values.push(i);
        i = wrap(i.wrapping_add(step), &ty);
    }
    Some(Counted { var, values, body, exit })
}

pub fn address_taken(f: &Function, l: LocalId) -> bool {
    f.blocks.iter().flat_map(|b| &b.insts).any(|i| matches!(i.kind, InstKind::LocalAddr(x) if x == l))
}

/// Whether block `b`'s terminator stores into local `l` (a barrier's or warp
/// collective's results).
pub fn term_stores(t: &Terminator, l: LocalId) -> bool {
    match t {
        Terminator::Barrier { result, .. } => *result == Some(l),
        Terminator::Warp { results, .. } => results.contains(&l),
        _ => false,
    }
}

/// The constant the preheader stores last into `var`.
fn initial_value(f: &Function, preheader: usize, var: LocalId) -> Option<i64> {
    let b = &f.blocks[preheader];
    if term_stores(&b.term, var) {
        return None;
    }
    let stored = b.insts.iter().rev().find_map(|i| match i.kind {
        InstKind::StoreLocal(l, v) if l == var => Some(v),
        _ => None,
    })?;
    let c = b.insts.iter().find(|i| i.result == Some(stored))?;
    match c.kind {
        InstKind::Const(Const::Int(x, _)) => Some(x),
        _ => None,
    }
}

/// The constant the loop adds to `var` once per iteration: the only store into it in the
/// loop is in the latch, `var = var ± c`.
fn step_of(f: &Function, lp: &Loop, var: LocalId) -> Option<i64> {
    let mut found = None;
    for (bi, b) in f.blocks.iter().enumerate().filter(|(bi, _)| lp.contains(*bi)) {
        if term_stores(&b.term, var) {
            return None;
        }
        for inst in &b.insts {
            let InstKind::StoreLocal(l, v) = inst.kind else { continue };
            if l != var {
                continue;
            }
            if bi != lp.latch || found.is_some() {
                return None;
            }
            found = Some(v);
        }
    }
    let v = found?;
    let latch = &f.blocks[lp.latch];
    let def = |x: ValueId| latch.insts.iter().find(|i| i.result == Some(x)).map(|i| &i.kind);
    let is_var = |x: ValueId| matches!(def(x), Some(InstKind::LoadLocal(l)) if *l == var);
    let konst = |x: ValueId| match def(x) {
        Some(InstKind::Const(Const::Int(c, _))) => Some(*c),
        _ => None,
    };
    match def(v)? {
        InstKind::Binary(BinaryOp::Add, a, b) if is_var(*a) => konst(*b),
        InstKind::Binary(BinaryOp::Add, a, b) if is_var(*b) => konst(*a),
        InstKind::Binary(BinaryOp::Sub, a, b) if is_var(*a) => konst(*b).map(i64::wrapping_neg),
        _ => None,
    }
}

/// The header's condition with the counter at `i`: `None` when it does not fold.
fn eval_block_cond(f: &Function, b: usize, var: LocalId, i: i64, cond: ValueId, env: &mut [Option<i64>]) -> Option<bool> {
    for inst in &f.blocks[b].insts {
        let Some(r) = inst.result else { return None };
        let ty = f.value_type(r);
        let get = |x: ValueId| env[x.index()];
        let val = match &inst.kind {
            InstKind::LoadLocal(l) if *l == var => wrap(i, ty),
            InstKind::Const(Const::Int(c, _)) => wrap(*c, ty),
            InstKind::Cast(a) if f.value_type(*a).is_integer() && ty.is_integer() => wrap(get(*a)?, ty),
            InstKind::Binary(op, a, b2) => {
                let ot = f.value_type(*a);
                if !ot.is_integer() {
                    return None;
                }
                binary(*op, get(*a)?, get(*b2)?, ot, ty)?
            }
            _ => return None,
        };
        env[r.index()] = Some(val);
    }
    env[cond.index()].map(|c| c != 0)
}

fn binary(op: BinaryOp, a: i64, b: i64, ot: &Type, rt: &Type) -> Option<i64> {
    let signed = ot.is_signed();
    let ua = as_unsigned(a, ot);
    let ub = as_unsigned(b, ot);
    let cmp = |r: bool| Some(r as i64);
    match op {
        BinaryOp::Add => Some(wrap(a.wrapping_add(b), rt)),
        BinaryOp::Sub => Some(wrap(a.wrapping_sub(b), rt)),
        BinaryOp::Mul => Some(wrap(a.wrapping_mul(b), rt)),
        BinaryOp::Eq => cmp(a == b),
        BinaryOp::Ne => cmp(a != b),
        BinaryOp::Lt => cmp(if signed { a < b } else { ua < ub }),
        BinaryOp::Le => cmp(if signed { a <= b } else { ua <= ub }),
        BinaryOp::Gt => cmp(if signed { a > b } else { ua > ub }),
        BinaryOp::Ge => cmp(if signed { a >= b } else { ua >= ub }),
        _ => None,
    }
}

fn bits(t: &Type) -> u32 {
    match t {
        Type::Bool => 1,
        Type::I8 | Type::U8 => 8,
        Type::I16 | Type::U16 => 16,
        Type::I32 | Type::U32 => 32,
        _ => 64,
    }
}

/// `x` reduced to type `t`'s width, sign- or zero-extended as the IR's constants are.
pub fn wrap(x: i64, t: &Type) -> i64 {
    let w = bits(t);
    if w == 64 {
        return x;
    }
    if t.is_signed() {
        (x << (64 - w)) >> (64 - w)
    } else {
        ((x as u64) & ((1u64 << w) - 1)) as i64
    }
}

fn as_unsigned(x: i64, t: &Type) -> u64 {
    let w = bits(t);
    if w == 64 {
        x as u64
    } else {
        (x as u64) & ((1u64 << w) - 1)
    }
}
