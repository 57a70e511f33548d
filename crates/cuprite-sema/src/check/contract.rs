//! Contraction of half-precision multiply-adds, as nvcc does under `-fmad=true`.
//!
//! nvcc's `__hmul`/`__hadd` (and the `*`, `+`, `-` operators over them) on `__half`,
//! `__half2`, `__nv_bfloat16` and `__nv_bfloat162` are contractible: a product that
//! feeds an addition or subtraction becomes one fused multiply-add (`fma.rn.f16`), also
//! through `__hneg` and `+=`/`-=`; the `_rn` and `_sat` forms never contract (measured
//! with nvcc 13 on an H100: `tests/conformance/fp_contraction*`). Cuprite's headers
//! implement these functions in plain C++, so the contraction is done here, where the
//! call is built: `__hadd(__hmul(a, b), c)` is checked as `__hfma(a, b, c)`. As with
//! float (`lower/func.rs`, `try_fma`), only a product in the same expression is
//! contracted; nvcc also contracts one kept in a local that nothing else reads.

use super::*;

#[derive(Clone, Copy, PartialEq, Debug)]
enum Family {
    Half,
    Half2,
    Bf16,
    Bf162,
}

impl Family {
    fn paired(self) -> bool {
        matches!(self, Family::Half2 | Family::Bf162)
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Op {
    Add,
    Sub,
    Mul,
    Neg,
    AddAssign,
    SubAssign,
}

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// A reference argument as built by `bind_ref` (`&lvalue`), back to the lvalue.
fn unref(e: &Expr) -> Expr {
    match &e.kind {
        ExprKind::AddrOf(inner) => (**inner).clone(),
        _ => e.clone(),
    }
}

/// An lvalue that can be read and written again without repeating a side effect.
fn simple_place(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Local(_) | ExprKind::Global(_) => true,
        ExprKind::Member(b, ..) => simple_place(b),
        ExprKind::Deref(p) => pure_value(p),
        _ => false,
    }
}

fn pure_value(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Int(_) | ExprKind::Special(_) => true,
        ExprKind::Load(x) => simple_place(x),
        ExprKind::Cast(x) | ExprKind::Decay(x) => pure_value(x),
        ExprKind::AddrOf(x) => simple_place(x),
        ExprKind::PtrAdd(a, b) | ExprKind::Binary(_, a, b) => pure_value(a) && pure_value(b),
        _ => false,
    }
}

impl<'o> Checker<'o> {
    fn half_family(&self, t: &Ty) -> Option<Family> {
        let t = match t {
            Ty::Ref(q) => &q.ty,
            t => t,
        };
        let Ty::Record(r) = t else { return None };
        match self.prog.types.rec(*r).name.as_deref()? {
            "__half" => Some(Family::Half),
            "__half2" => Some(Family::Half2),
            "__nv_bfloat16" => Some(Family::Bf16),
            "__nv_bfloat162" => Some(Family::Bf162),
            _ => None,
        }
    }

    /// What a global function of the half headers does, and on which type.
    fn half_op(&self, fid: FnId) -> Option<(Op, Family)> {
        let f = &self.prog.functions[fid.0 as usize];
        if !f.scope.is_empty() || f.cxx.method.is_some() {
            return None;
        }
        let n = f.sig.params.len();
        let op = match (f.name.as_str(), n) {
            ("__hadd" | "__hadd2" | "operator+", 2) => Op::Add,
            ("__hsub" | "__hsub2" | "operator-", 2) => Op::Sub,
            ("__hmul" | "__hmul2" | "operator*", 2) => Op::Mul,
            ("__hneg" | "__hneg2" | "operator-", 1) => Op::Neg,
            ("operator+=", 2) => Op::AddAssign,
            ("operator-=", 2) => Op::SubAssign,
            _ => return None,
        };
        let fam = self.half_family(&f.sig.params[0].ty)?;
        if f.sig.params.iter().any(|p| self.half_family(&p.ty) != Some(fam)) {
            return None;
        }
        // `__hadd` on a pair, `__hadd2` on a scalar: not one of CUDA's functions.
        if f.name.starts_with("__h") && f.name.ends_with('2') != fam.paired() {
            return None;
        }
        Some((op, fam))
    }

    /// `a * b` (or `-(a * b)`, `__hneg(__hmul(a, b))`) of family `fam`: the factors and
    /// whether the product is negated.
    fn half_product(&self, e: &Expr, fam: Family) -> Option<(Expr, Expr, bool)> {
        let ExprKind::Call(fid, args) = &e.kind else { return None };
        match self.half_op(*fid)? {
            (Op::Mul, f) if f == fam => Some((unref(&args[0]), unref(&args[1]), false)),
            (Op::Neg, f) if f == fam => {
                let inner = unref(&args[0]);
                let inner = match &inner.kind {
                    ExprKind::Temp(x) => (**x).clone(),
                    _ => inner,
                };
                self.half_product(&inner, fam).map(|(a, b, n)| (a, b, !n))
            }
            _ => None,
        }
    }

    /// A call of the global function `name` (one of the half headers') with `args`.
    fn call_half_fn(&mut self, name: &str, args: Vec<Expr>, sp: Span) -> Option<Expr> {
        let Some(Sym::Funcs(ids)) = self.names.get(name) else { return None };
        let ids = ids.clone();
        self.silent += 1;
        let fid = self.resolve_overload(&ids, None, &args, name, sp, true);
        self.silent -= 1;
        let e = self.user_call_this(fid?, args, None, sp, sp);
        (!e.is_error()).then_some(e)
    }

    /// The call of `fid` with `args`, contracted into a fused multiply-add when it adds
    /// or subtracts a product of the half headers; `None` when it does not.
    pub(crate) fn contract_half(&mut self, fid: FnId, args: &[Expr], sp: Span) -> Option<Expr> {
        if !self.opts.fmad || args.len() != 2 {
            return None;
        }
        let (op, fam) = self.half_op(fid)?;
        let (fma, neg) = if fam.paired() { ("__hfma2", "__hneg2") } else { ("__hfma", "__hneg") };
        let (pos, (a, b, negated)) = match op {
            Op::Add | Op::Sub => match self.half_product(&args[0], fam) {
                Some(p) => (0, p),
                None => (1, self.half_product(&args[1], fam)?),
            },
            Op::AddAssign | Op::SubAssign if simple_place(&args[0]) => (1, self.half_product(&args[1], fam)?),
            _ => return None,
        };
        // The product's sign in the sum, and the addend's.
        let subtracted = matches!(op, Op::SubAssign) || (op == Op::Sub && pos == 1);
        let negate_product = negated != subtracted;
        let negate_addend = op == Op::Sub && pos == 0;
        let a = if negate_product { self.call_half_fn(neg, vec![a], sp)? } else { a };
        let addend = args[1 - pos].clone();
        let c = if negate_addend { self.call_half_fn(neg, vec![addend], sp)? } else { addend };
        let r = self.call_half_fn(fma, vec![a, b, c], sp)?;
        if matches!(op, Op::AddAssign | Op::SubAssign) {
            let lhs = args[0].clone();
            let lt = lhs.ty.clone();
            let r = self.convert(r, &lt.unqual(), "assignment");
            return Some(Expr::new(ExprKind::Assign(bx(lhs), bx(r)), lt, true, sp));
        }
        Some(r)
    }
}
