//! Thread loops split into runs at the bit of a block-uniform power of two, so that a
//! partner index `i ^ j` becomes affine. A sorting network's step (bitonic sort:
//! `partner = i ^ j` with `i = blockIdx.x * blockDim.x + threadIdx.x`, `j` a kernel
//! argument) addresses `a[i ^ j]`, which the C compiler cannot vectorise: as a function
//! of the thread index it is no affine address. Over a run of consecutive threads in
//! which bit `j` of `i` does not change, `i ^ j` is `i + j` (bit clear) or `i - j` (bit
//! set), `i + d` with `d` the same for the whole run: a contiguous vector load. So when
//! `j` is a power of two of at least `MIN_RUN` (checked at run time), the `x` loop runs
//! run by run, each with its own `d`; otherwise one loop computes `d` per thread as
//! `(i ^ j) - i` (any `j`). The index is computed in 64 bits from `i`'s 64-bit form,
//! exact in the fast copy of the block body (block indices below 2^21, `i < 2^31`): the
//! same address as `i ^ j`. Only thread loops marked `omp simd` are split (their threads
//! may run in any order), not those under guards, thread ranges or other splits.

use super::FnCx;
use crate::cast::*;
use crate::fission::{Plan, Unit};
use cuprite_ir::*;
use std::collections::HashMap;

/// Below this many threads a run is too short for a vector of 32-bit lanes; such `j`
/// (and any `j` that is no power of two) keep one loop.
const MIN_RUN: u32 = 16;

/// `a ^ b` where `a = blockIdx * K + threadIdx.x` (`K` the block dimension or a constant
/// up to 1024) and `b` is block-uniform, all 32-bit unsigned.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct XorRun {
    pub a: ValueId,
    pub b: ValueId,
    blk: SpecialReg,
    dim: Factor,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Factor {
    Dim(SpecialReg),
    Const(u32),
}

/// The first pointer offset in `unit`'s thread loop of the form `XorRun`.
pub fn find(f: &Function, plan: &Plan, unit: &Unit, defs: &HashMap<ValueId, InstKind>) -> Option<XorRun> {
    let u32_ = |v: ValueId| *f.value_type(v) == Type::U32;
    for b in unit.blocks().chain(unit.steps.iter().flat_map(|s| s.region.iter().copied())) {
        for inst in &f.block(b).insts {
            let InstKind::PtrAdd { index, .. } = &inst.kind else { continue };
            let Some(InstKind::Binary(BinaryOp::Xor, x, y)) = defs.get(index) else { continue };
            for (a, b) in [(*x, *y), (*y, *x)] {
                if !u32_(a) || !u32_(b) || !plan.uni.value(b) || plan.uni.value(a) {
                    continue;
                }
                if let Some((blk, dim)) = block_base_plus_tid(f, a, defs) {
                    return Some(XorRun { a, b, blk, dim });
                }
            }
        }
    }
    None
}

/// `blockIdx * K + threadIdx.x` (either order of either operation): the block index and `K`.
fn block_base_plus_tid(f: &Function, a: ValueId, defs: &HashMap<ValueId, InstKind>) -> Option<(SpecialReg, Factor)> {
    let special = |v: ValueId| match defs.get(&v) {
        Some(InstKind::Special(s)) => Some(*s),
        _ => None,
    };
    let Some(InstKind::Binary(BinaryOp::Add, p, q)) = defs.get(&a) else { return None };
    let base = match (special(*p), special(*q)) {
        (Some(SpecialReg::ThreadIdx(Dim::X)), _) => *q,
        (_, Some(SpecialReg::ThreadIdx(Dim::X))) => *p,
        _ => return None,
    };
    let Some(InstKind::Binary(BinaryOp::Mul, m, n)) = defs.get(&base) else { return None };
    let ty = |v: ValueId| f.value_type(v).clone();
    let factor = |v: ValueId| match special(v) {
        Some(s @ SpecialReg::BlockDim(_)) => Some(Factor::Dim(s)),
        _ => crate::const_fold::small_const(v, defs, &ty, 4).filter(|c| (1..=1024).contains(c)).map(|c| Factor::Const(c as u32)),
    };
    match (special(*m), special(*n)) {
        (Some(s @ SpecialReg::BlockIdx(_)), _) => factor(*n).map(|k| (s, k)),
        (_, Some(s @ SpecialReg::BlockIdx(_))) => factor(*m).map(|k| (s, k)),
        _ => None,
    }
}

impl FnCx<'_, '_> {
    /// Under a split (`ModCx::xor_run`), the pointer offset `v` when it is that `a ^ b`:
    /// `a` in 64 bits plus the run's (or the thread's) `__xd`.
    pub(super) fn xor_run_index(&self, v: ValueId, defs: &HashMap<ValueId, InstKind>) -> Option<Expr> {
        let xr = self.mc.xor_run.get()?;
        match defs.get(&v) {
            Some(InstKind::Binary(BinaryOp::Xor, x, y)) if (*x, *y) == (xr.a, xr.b) || (*y, *x) == (xr.a, xr.b) => {
                let a = self.wide_thread_index(xr.a, defs, 0)?;
                self.mc.used_block_bound.set(true);
                Some(a.bin("+", id("__xd")))
            }
            _ => None,
        }
    }

    /// `blockIdx * K + x` in 32 bits, the value of `a` for thread `x` of the current row.
    fn xor_run_a(&self, xr: &XorRun, x: Expr) -> Expr {
        let k = match xr.dim {
            Factor::Dim(s) => self.special(s),
            Factor::Const(c) => lit(format!("{c}u")),
        };
        self.special(xr.blk).bin("*", k).bin("+", x).cast(CType::named("uint32_t"))
    }

    /// The unit's thread loops for `body` (built with `xor_run_index` active): run by run
    /// when `b` is a power of two of at least `MIN_RUN`, else one loop with a `__xd` per
    /// thread. `k` names the unit's variables.
    pub(super) fn xor_run_loops(&self, xr: &XorRun, body: Vec<Stmt>, simd: Option<String>, k: usize) -> Vec<Stmt> {
        let u32t = || CType::named("uint32_t");
        let i64t = || CType::named("int64_t");
        let xb = format!("__xb{k}");
        let pragma = |v: &mut Vec<Stmt>| v.extend(simd.clone().map(Stmt::Pragma));
        let for_ = |v: &str, from: Expr, lim: Expr, body: Vec<Stmt>| Stmt::For {
            init: Some(Box::new(Stmt::decl(u32t(), v, Some(from)))),
            cond: Some(id(v).bin("<", lim)),
            step: Some(Expr::PostInc(Box::new(id(v)))),
            body,
        };
        let rows = |inner: Vec<Stmt>| for_("__tz", lit("0"), id("__bdz"), vec![for_("__ty", lit("0"), id("__bdy"), inner)]);
        // Runs: [xs, xe) ends where bit b of a flips; `d` is +b or -b for the whole run.
        let xc = self.xor_run_a(xr, id("__xs"));
        let to_next = id(&xb).bin("-", id("__xc").bin("&", id(&xb).bin("-", lit("1u"))));
        let mut run = vec![
            Stmt::decl(u32t().konst(), "__xc", Some(xc)),
            Stmt::decl(u32t(), "__xe", Some(id("__xs").bin("+", to_next))),
            Stmt::If { cond: id("__xe").bin(">", id("__bdx")), then: vec![id("__xe").assign(id("__bdx")).stmt()], else_: vec![] },
            Stmt::decl(
                i64t().konst(),
                "__xd",
                Some(Expr::cond(id("__xc").bin("&", id(&xb)), Expr::un("-", id(&xb).cast(i64t())), id(&xb).cast(i64t()))),
            ),
        ];
        pragma(&mut run);
        run.push(for_("__tx", id("__xs"), id("__xe"), body.clone()));
        let runs = Stmt::For {
            init: Some(Box::new(Stmt::decl(u32t(), "__xs", Some(lit("0"))))),
            cond: Some(id("__xs").bin("<", id("__bdx"))),
            step: None,
            body: {
                let mut b = run;
                b.push(id("__xs").assign(id("__xe")).stmt());
                b
            },
        };
        // One loop: `d = (a ^ b) - a` for each thread.
        let a = self.xor_run_a(xr, id("__tx"));
        let d = a.clone().bin("^", id(&xb)).cast(i64t()).bin("-", a.cast(i64t()));
        let mut each = vec![Stmt::decl(i64t().konst(), "__xd", Some(d))];
        each.extend(crate::thread_split::renamed(&body, "_x"));
        // Scalar: the gathers and scatters GCC makes of it measured slower (bitonic's
        // stages with `j < 16`, docs/PERFORMANCE.md session 11).
        let mut one = vec![];
        one.push(for_("__tx", lit("0"), id("__bdx"), each));
        let pow2 = id(&xb).bin(">=", lit(format!("{MIN_RUN}u"))).bin("&&", id(&xb).bin("&", id(&xb).bin("-", lit("1u"))).bin("==", lit("0u")));
        vec![
            Stmt::decl(u32t().konst(), xb.clone(), Some(self.v(xr.b))),
            Stmt::If { cond: pow2, then: vec![rows(vec![runs])], else_: vec![rows(one)] },
        ]
    }
}

impl super::ModCx<'_> {
    /// The split for `unit` in the fast copy, if it has such an offset and no other form
    /// of thread loop; `b` must be a C variable or expression before the thread loop.
    pub(super) fn xor_run_of(&self, cx: &FnCx, plan: &Plan, unit: &Unit, eligible: bool) -> Option<XorRun> {
        let f = cx.f;
        if !eligible || !cx.ver.is_empty() || unit.steps.iter().any(|s| s.guard_owner.is_some()) {
            return None;
        }
        let defs = cx.kernel.as_ref()?.defs?;
        if crate::thread_range::thread_range(f, plan, unit).is_some() || crate::thread_split::thread_split(f, plan, unit).is_some() {
            return None;
        }
        let xr = find(f, plan, unit, defs)?;
        let before_loop = cx.subst.contains_key(&xr.b) || unit.steps.iter().any(|s| f.block(s.block).insts.iter().any(|i| i.result == Some(xr.b)));
        before_loop.then_some(xr)
    }
}
