//! Warp shuffles under barrier-region fission as one vectorisable thread loop.
//!
//! A shuffle whose lane (offset, xor mask or source lane) and width are block-uniform
//! needs no general collective: the unit before it writes each thread's value into a
//! typed per-thread array (`__wv`, carved out of the `__cu_wslot` area), and one thread
//! loop reads the source lane's entry straight into the result's slot. For
//! `__shfl_down_sync(m, v, off)` the source is `__t + off`, a contiguous (masked) vector
//! load; xor and idx sources are gathers. The results are those of `__cu_warp_compute`
//! (prelude.h) for the same lanes: the own value outside the caller's segment, 0 from a
//! lane that is not there (past the block's end, or outside the guard's mask).
//! Shuffles ignore the member mask there too.

use super::*;
use crate::uniformity::Uniformity;

/// A shuffle that takes the fast path: its kind and the operands it needs.
pub(super) struct FastShuffle {
    kind: ShflKind,
    val: ValueId,
    lane: ValueId,
    width: ValueId,
    ty: Type,
    pub(super) result: LocalId,
}

/// Whether `term` is a shuffle with block-uniform lane and width on a scalar of at most
/// 8 bytes whose result has the value's type (anything else keeps `__cu_warp_all`).
pub(super) fn fast_shuffle(f: &Function, uni: &Uniformity, term: &Terminator) -> Option<FastShuffle> {
    let Terminator::Warp { op: WarpOp::Shfl(kind), args, results, .. } = term else { return None };
    let ([_, val, lane, width], [result]) = (args.as_slice(), results.as_slice()) else { return None };
    let ty = f.value_type(*val).clone();
    let scalar = matches!(ty, Type::I32 | Type::U32 | Type::I64 | Type::U64 | Type::F32 | Type::F64);
    (scalar && f.local(*result).ty == ty && uni.value(*lane) && uni.value(*width))
        .then_some(FastShuffle { kind: *kind, val: *val, lane: *lane, width: *width, ty, result: *result })
}

/// `((T *)__wv)[i]`: the shuffled value of thread `i`.
fn wv(cx: &FnCx, s: &FastShuffle, i: Expr) -> Expr {
    id("__wv").cast(cx.mc.ctype(&s.ty).ptr()).index(i)
}

impl FnCx<'_, '_> {
    /// In the unit's thread loop: the thread's value into `__wv`.
    pub(super) fn shuffle_operand(&self, s: &FastShuffle, out: &mut Vec<Stmt>) {
        out.push(wv(self, s, id("__t")).assign(self.v(s.val)).stmt());
    }

    /// The bodies of the thread loops that compute the shuffle for thread `__t` into the
    /// result's slot (`guard`: only threads inside it take part); none when the result
    /// is dead (not in a slot: no later unit reads it). Under a guard, a first loop
    /// zeroes the values of the threads outside it, so that the shuffle loop reads 0
    /// from them without testing their mask (a byte gather, which does not vectorise).
    pub(super) fn shuffle_loops(&self, s: &FastShuffle, in_slot: bool, guard: Option<usize>) -> Vec<Vec<Stmt>> {
        if !in_slot {
            return vec![];
        }
        let mut loops = vec![];
        if let Some(g) = guard {
            let zero = wv(self, s, id("__t")).assign(lit("0").cast(self.mc.ctype(&s.ty))).stmt();
            loops.push(vec![Stmt::If { cond: Expr::un("!", id(format!("__g{g}")).index(id("__t"))), then: vec![zero], else_: vec![] }]);
        }
        let u32t = || CType::named("uint32_t");
        let sizet = || CType::named("size_t");
        let i32t = || CType::named("int32_t");
        // Lane, the uniform lane operand `b` (low 5 bits) and the segment mask, as in
        // `__cu_warp_compute`: segmask = (32 - width) & 31.
        let mut b = vec![
            Stmt::decl(u32t().konst(), "__sl", Some(id("__t").cast(u32t()).bin("&", lit("31u")))),
            Stmt::decl(u32t().konst(), "__sb", Some(self.v(s.lane).cast(i32t()).cast(u32t()).bin("&", lit("31u")))),
            Stmt::decl(
                u32t().konst(),
                "__sm",
                Some(lit("32").bin("-", self.v(s.width).cast(i32t())).cast(u32t()).bin("&", lit("31u"))),
            ),
        ];
        let minl = || id("__sl").bin("&", id("__sm"));
        // The last lane of the caller's segment (down, xor, idx).
        let maxl = || minl().bin("|", lit("31u").bin("&", Expr::un("~", id("__sm"))));
        let (src, ok) = match s.kind {
            ShflKind::Down => (
                id("__t").bin("+", id("__sb").cast(sizet())),
                id("__sl").bin("+", id("__sb")).bin("<=", maxl()),
            ),
            ShflKind::Up => (
                id("__t").bin("-", id("__sb").cast(sizet())),
                id("__sl").cast(i32t()).bin("-", id("__sb").cast(i32t())).bin(">=", minl().cast(i32t())),
            ),
            ShflKind::Xor => (
                id("__t").bin("^", id("__sb").cast(sizet())),
                id("__sl").bin("^", id("__sb")).bin("<=", maxl()),
            ),
            ShflKind::Idx => {
                let j = minl().bin("|", id("__sb").bin("&", Expr::un("~", id("__sm")))).bin("&", lit("31u"));
                b.push(Stmt::decl(u32t().konst(), "__sj", Some(j)));
                (id("__t").bin("-", id("__sl").cast(sizet())).bin("+", id("__sj").cast(sizet())), id("__sj").bin("<=", maxl()))
            }
        };
        b.push(Stmt::decl(sizet().konst(), "__ss", Some(src)));
        let ty = self.mc.ctype(&s.ty);
        b.push(Stmt::decl(ty.clone(), "__sr", Some(wv(self, s, id("__t")))));
        let there = id("__ss").bin("<", id("__nthreads"));
        let read = Stmt::If {
            cond: there,
            then: vec![id("__sr").assign(wv(self, s, id("__ss"))).stmt()],
            else_: vec![id("__sr").assign(lit("0").cast(ty)).stmt()],
        };
        b.push(Stmt::If { cond: ok, then: vec![read], else_: vec![] });
        b.push(self.lv[s.result.index()].clone().assign(id("__sr")).stmt());
        loops.push(match guard {
            None => b,
            Some(g) => vec![Stmt::If { cond: id(format!("__g{g}")).index(id("__t")), then: b, else_: vec![] }],
        });
        loops
    }
}
