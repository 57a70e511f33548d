//! Index-set splitting of thread loops. A stencil picks its neighbours by comparing the
//! thread index with constants (`threadIdx.x > 0 ? t[ty][tx - 1] : in[i - 1]`,
//! `threadIdx.y < B - 1 ? ...`): in one loop over all threads those are divergent
//! branches, which GCC vectorises badly or not at all (a masked load at an address that
//! its value ranges make invariant, two invariant tests on `y` combined). Cut at those
//! constants, the loop over `x` (and the one over `y`) becomes a few loops over ranges in
//! which every such test has one outcome the C compiler can see from the loop bounds;
//! the interior then has no branch left. Each range runs its own copy of the body (labels
//! renamed). The threads then run range by range rather than row by row, an order a
//! thread loop may take: only loops marked `omp simd` are split, whose threads'
//! accesses do not conflict (lock-step points end a unit).

use crate::cast::*;
use crate::fission::{Plan, Unit};
use cuprite_ir::*;
use std::collections::HashMap;

/// At most this many cuts per dimension (3 ranges), and copies of the body in all.
const MAX_CUTS: usize = 2;
const MAX_COPIES: usize = 9;

/// Where a unit's thread loops are cut: ascending constants in `1..=1024` for `x`, `y`.
#[derive(Debug, PartialEq)]
pub struct Split {
    pub x: Vec<u32>,
    pub y: Vec<u32>,
}

/// The cuts for `unit`, when some divergent branch in its thread loop tests
/// `threadIdx.x` or `threadIdx.y` against a constant (none under guards: their thread
/// loops have forms of their own).
pub fn thread_split(f: &Function, plan: &Plan, unit: &Unit) -> Option<Split> {
    let uni = &plan.uni;
    if uni.guard_of[unit.entry().index()].is_some() || unit.steps.iter().any(|s| s.guard_owner.is_some()) {
        return None;
    }
    let defs: HashMap<ValueId, InstKind> =
        f.blocks.iter().flat_map(|b| b.insts.iter()).filter_map(|i| i.result.map(|r| (r, i.kind.clone()))).collect();
    let ty = |v: ValueId| f.value_type(v).clone();
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for b in unit.blocks() {
        let Terminator::Branch { cond, .. } = &f.block(b).term else { continue };
        if uni.value(*cond) {
            continue;
        }
        let Some(InstKind::Binary(op, a, c)) = defs.get(cond) else { continue };
        // `t OP k` with `t` a thread coordinate, `k` a constant (either side).
        let (dim, op, k) = match (thread_dim(f, *a, &defs, plan, 0), thread_dim(f, *c, &defs, plan, 0)) {
            (Some(d), None) => (d, *op, *c),
            (None, Some(d)) => (d, mirror(*op), *a),
            _ => continue,
        };
        let Some(k) = crate::const_fold::small_const(k, &defs, &ty, 6) else { continue };
        let cuts: &[i64] = match op {
            BinaryOp::Lt | BinaryOp::Ge => &[k],
            BinaryOp::Le | BinaryOp::Gt => &[k + 1],
            BinaryOp::Eq | BinaryOp::Ne => &[k, k + 1],
            _ => continue,
        };
        let into = if dim == Dim::X { &mut xs } else { &mut ys };
        into.extend(cuts.iter().filter(|c| (1..=1024).contains(*c)).map(|c| *c as u32));
    }
    for v in [&mut xs, &mut ys] {
        v.sort_unstable();
        v.dedup();
        if v.len() > MAX_CUTS {
            v.clear();
        }
    }
    let copies = (xs.len() + 1) * (ys.len() + 1);
    (copies > 1 && copies <= MAX_COPIES).then_some(Split { x: xs, y: ys })
}

fn mirror(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Ge => BinaryOp::Le,
        o => o,
    }
}

/// `X` or `Y` when `v` is that thread coordinate, converted to an integer type that
/// holds it (through locals recomputed where read, `int tx = threadIdx.x`).
fn thread_dim(f: &Function, v: ValueId, defs: &HashMap<ValueId, InstKind>, plan: &Plan, depth: u32) -> Option<Dim> {
    if depth > 8 || !matches!(f.value_type(v), Type::I32 | Type::I64 | Type::U32 | Type::U64) {
        return None;
    }
    match defs.get(&v)? {
        InstKind::Special(SpecialReg::ThreadIdx(d)) if *d != Dim::Z => Some(*d),
        InstKind::Cast(a) => thread_dim(f, *a, defs, plan, depth + 1),
        InstKind::LoadLocal(l) => plan.remat.get(l).filter(|s| s.0 != u32::MAX).and_then(|s| thread_dim(f, *s, defs, plan, depth + 1)),
        _ => None,
    }
}

/// The thread loops of a split unit: for each range of `y`, for each range of `x`, a
/// copy of `body` (its labels suffixed with the copy's number).
pub fn split_thread_loops(body: Vec<Stmt>, simd: Option<String>, split: &Split) -> Stmt {
    let ranges = |cuts: &[u32]| {
        let mut r = Vec::new();
        let mut lo = 0;
        for c in cuts {
            r.push((lo, Some(*c)));
            lo = *c;
        }
        r.push((lo, None));
        r
    };
    let tloop = |v: &str, lo: u32, hi: Option<u32>, lim: &str, body: Vec<Stmt>| {
        // `v < min(hi, lim)`: the compiler sees `v < hi` in the loop.
        let end = match hi {
            Some(h) => Expr::cond(lit(format!("{h}u")).bin("<", id(lim)), lit(format!("{h}u")), id(lim)),
            None => id(lim),
        };
        Stmt::For {
            init: Some(Box::new(Stmt::decl(CType::named("uint32_t"), v, Some(lit(if lo == 0 { "0".to_string() } else { format!("{lo}u") }))))),
            cond: Some(id(v).bin("<", end)),
            step: Some(Expr::PostInc(Box::new(id(v)))),
            body,
        }
    };
    let mut n = 0;
    let mut ys = Vec::new();
    for (ylo, yhi) in ranges(&split.y) {
        for (xlo, xhi) in ranges(&split.x) {
            let mut xs = Vec::new();
            if let Some(p) = &simd {
                xs.push(Stmt::Pragma(p.clone()));
            }
            xs.push(tloop("__tx", xlo, xhi, "__bdx", renamed(&body, &format!("_s{n}"))));
            n += 1;
            ys.push(tloop("__ty", ylo, yhi, "__bdy", xs));
        }
    }
    tloop("__tz", 0, None, "__bdz", ys)
}

/// `body` with every label it defines, and every jump to one, suffixed.
pub(crate) fn renamed(body: &[Stmt], suffix: &str) -> Vec<Stmt> {
    fn labels(s: &[Stmt], out: &mut Vec<String>) {
        for s in s {
            match s {
                Stmt::Label(l) => out.push(l.clone()),
                Stmt::If { then, else_, .. } => {
                    labels(then, out);
                    labels(else_, out);
                }
                Stmt::For { body, .. } | Stmt::Block(body) => labels(body, out),
                Stmt::Switch { cases, default, .. } => {
                    cases.iter().for_each(|(_, b)| labels(b, out));
                    labels(default, out);
                }
                _ => {}
            }
        }
    }
    fn walk(s: &[Stmt], own: &[String], suffix: &str) -> Vec<Stmt> {
        let re = |l: &String| if own.contains(l) { format!("{l}{suffix}") } else { l.clone() };
        s.iter()
            .map(|s| match s {
                Stmt::Label(l) => Stmt::Label(re(l)),
                Stmt::Goto(l) => Stmt::Goto(re(l)),
                Stmt::If { cond, then, else_ } => Stmt::If { cond: cond.clone(), then: walk(then, own, suffix), else_: walk(else_, own, suffix) },
                Stmt::For { init, cond, step, body } => {
                    Stmt::For { init: init.clone(), cond: cond.clone(), step: step.clone(), body: walk(body, own, suffix) }
                }
                Stmt::Block(b) => Stmt::Block(walk(b, own, suffix)),
                Stmt::Switch { value, cases, default } => Stmt::Switch {
                    value: value.clone(),
                    cases: cases.iter().map(|(e, b)| (e.clone(), walk(b, own, suffix))).collect(),
                    default: walk(default, own, suffix),
                },
                s => s.clone(),
            })
            .collect()
    }
    let mut own = Vec::new();
    labels(body, &mut own);
    walk(body, &own, suffix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_rename_their_own_labels_only() {
        let body = vec![Stmt::Goto("a".into()), Stmt::Label("a".into()), Stmt::Goto("__block_done".into())];
        let s = split_thread_loops(body, Some("omp simd".into()), &Split { x: vec![1], y: vec![] });
        let text = format!("{s:?}");
        assert!(text.contains("\"a_s0\"") && text.contains("\"a_s1\"") && text.contains("__block_done"));
        assert!(!text.contains("Label(\"a\")"));
    }
}
