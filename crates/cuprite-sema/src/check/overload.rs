//! Overload resolution with C++'s implicit conversion sequences ([over.match],
//! [over.ics.rank]), usable for any candidate set: free functions, member functions
//! (with the implied object argument), constructors, operators.
//!
//! An implicit conversion sequence is summarized as an `Ics`: its rank (exact match,
//! promotion, conversion, user-defined) and a tie-breaker within the rank (binding an
//! rvalue to `T&&` over `const T&`, less cv-qualification added, pointer-to-bool last).

use super::expr::promoted;
use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Ics {
    /// 0 exact match, 1 promotion, 2 conversion, 3 user-defined conversion.
    pub rank: u8,
    /// Within a rank: 0 better than 1.
    pub tie: u8,
}

const EXACT: Ics = Ics { rank: 0, tie: 0 };

/// Whether a `Ty::Ref` is an rvalue reference (`T&&`): the reference's own `v` flag,
/// which a reference cannot otherwise have, marks it.
pub(crate) fn is_rvalue_ref(t: &QTy) -> bool {
    matches!(t.ty, Ty::Ref(_)) && t.v
}

/// Whether two parameter types of signatures are the same: top-level cv is already
/// dropped, but `T&` and `T&&` differ only in the reference's `v` mark.
pub(crate) fn same_param_type(a: &QTy, b: &QTy) -> bool {
    a.ty == b.ty && is_rvalue_ref(a) == is_rvalue_ref(b)
}

/// The object a call returning the reference type `ret` designates, given the call
/// `c` that yields its address: an lvalue for `T&`, an xvalue for `T&&`.
pub(crate) fn referenced_result(c: Expr, ret: &QTy, sp: Span) -> Expr {
    let Ty::Ref(t) = &ret.ty else { unreachable!("referenced_result of a non-reference") };
    let e = Expr::new(ExprKind::Deref(Box::new(c)), (**t).clone(), true, sp);
    if is_rvalue_ref(ret) { e.into_xvalue() } else { e }
}

impl<'o> Checker<'o> {
    /// The implicit conversion sequence from `a` to a parameter of type `p`;
    /// `user`: whether user-defined conversions may be used.
    pub(crate) fn ics(&self, a: &Expr, p: &QTy, user: bool) -> Option<Ics> {
        if a.is_error() || p.ty.is_error() {
            return Some(EXACT);
        }
        if let Ty::Ref(t) = &p.ty {
            let rref = is_rvalue_ref(p);
            // Direct binding of an lvalue (or a class rvalue to `const T&`/`T&&`).
            let same_or_base = match (&a.ty.ty, &t.ty) {
                (x, y) if x == y => Some(0),
                (Ty::Record(d), Ty::Record(b)) if self.is_base_of(*b, *d) => Some(2),
                _ => None,
            };
            if let Some(rank) = same_or_base {
                let cv_ok = (t.c || !a.ty.c) && (t.v || !a.ty.v);
                let plain_lvalue = a.lvalue && !a.xvalue;
                if plain_lvalue && !rref && cv_ok {
                    let added = (t.c && !a.ty.c) as u8;
                    return Some(Ics { rank, tie: added });
                }
                // An rvalue (prvalue or xvalue) binds to `T&&` in preference to `const T&`.
                if a.is_rvalue() && cv_ok && (rref || (t.c && !t.v)) {
                    return Some(Ics { rank, tie: if rref { 0 } else { 1 } });
                }
                if plain_lvalue && rref {
                    return None;
                }
                if a.xvalue {
                    // An xvalue never binds to a non-const lvalue reference.
                    return None;
                }
            }
            if rref || (t.c && !t.v) {
                // A temporary of the referenced type.
                let r = self.ics(&Expr { lvalue: false, ..a.clone() }, &t.unqual(), user)?;
                return Some(Ics { rank: r.rank, tie: r.tie.max(if rref { 0 } else { 1 }) });
            }
            // A non-const lvalue reference to a class with a conversion to `T&`.
            return None;
        }
        let at = match (&a.ty.ty, a.lvalue) {
            (Ty::Array(e, _), true) => Ty::ptr((**e).clone()),
            (Ty::Func(_), _) => Ty::ptr(a.ty.unqual()),
            (t, _) => t.clone(),
        };
        if at == p.ty {
            return Some(EXACT);
        }
        if let (Ty::Record(d), Ty::Record(b)) = (&at, &p.ty) {
            if self.is_base_of(*b, *d) {
                return Some(Ics { rank: 2, tie: 0 });
            }
        }
        if !user && (matches!(at, Ty::Record(_)) || matches!(p.ty, Ty::Record(_))) {
            return None;
        }
        if let Ty::Record(r) = &p.ty {
            // Converting constructors.
            let ctors: Vec<FnId> = self.class_info(*r).map(|i| i.ctors.clone()).unwrap_or_default();
            let ok = ctors.iter().any(|c| {
                let f = &self.prog.functions[c.0 as usize];
                let m = f.cxx.method.as_ref().unwrap();
                !m.explicit && self.arity_ok(f, 1) && f.sig.params.first().is_some_and(|pt| self.ics(a, pt, false).is_some())
            });
            return ok.then_some(Ics { rank: 3, tie: 0 });
        }
        if let Ty::Record(r) = &at {
            let ok = self.conversion_functions(*r).iter().any(|c| {
                let f = &self.prog.functions[c.0 as usize];
                let rt = &f.sig.ret;
                let rv = Expr::new(ExprKind::Error, match &rt.ty {
                    Ty::Ref(t) => (**t).clone(),
                    _ => rt.clone(),
                }, matches!(rt.ty, Ty::Ref(_)), a.span);
                let rv = Expr { ty: if rv.ty.ty.is_error() { QTy::new(Ty::Void) } else { rv.ty.clone() }, ..rv };
                self.ics(&rv, p, false).is_some()
            });
            return ok.then_some(Ics { rank: 3, tie: 0 });
        }
        if at.is_arith() && p.ty.is_arith() {
            if matches!(p.ty, Ty::Enum(_)) {
                return None;
            }
            let prom = promoted(&self.prog.types, &at);
            if (prom == p.ty && at != prom) || (at == Ty::Float && p.ty == Ty::Double) {
                return Some(Ics { rank: 1, tie: 0 });
            }
            return Some(Ics { rank: 2, tie: 0 });
        }
        match (&at, &p.ty) {
            (Ty::Ptr(x), Ty::Ptr(y)) => {
                let quals_ok = (!x.c || y.c) && (!x.v || y.v);
                if !quals_ok {
                    return None;
                }
                if x.ty == y.ty {
                    Some(Ics { rank: 0, tie: ((y.c && !x.c) || (y.v && !x.v)) as u8 })
                } else if y.ty == Ty::Void {
                    Some(Ics { rank: 2, tie: 0 })
                } else if let (Ty::Record(d), Ty::Record(b)) = (&x.ty, &y.ty) {
                    self.is_base_of(*b, *d).then_some(Ics { rank: 2, tie: 0 })
                } else {
                    None
                }
            }
            (Ty::MemberPtr { .. }, Ty::MemberPtr { .. }) => {
                self.member_ptr_compatible(&at, &p.ty).map(|same| if same { EXACT } else { Ics { rank: 2, tie: 0 } })
            }
            (Ty::Nullptr, Ty::MemberPtr { .. }) => Some(Ics { rank: 2, tie: 0 }),
            (_, Ty::MemberPtr { .. }) if self.is_null_const(a) => Some(Ics { rank: 2, tie: 0 }),
            (Ty::MemberPtr { .. }, Ty::Bool) => Some(Ics { rank: 2, tie: 1 }),
            (Ty::Nullptr, Ty::Ptr(_)) => Some(Ics { rank: 2, tie: 0 }),
            (_, Ty::Ptr(_)) if self.is_null_const(a) => Some(Ics { rank: 2, tie: 0 }),
            (Ty::Ptr(_) | Ty::Nullptr, Ty::Bool) => Some(Ics { rank: 2, tie: 1 }),
            _ => None,
        }
    }

    /// The non-explicit conversion functions of class `r` and its bases.
    pub(crate) fn conversion_functions(&self, r: RecId) -> Vec<FnId> {
        let mut out = Vec::new();
        for c in self.class_chain(r) {
            if let Some(i) = self.class_info(c) {
                for (n, ids) in &i.methods {
                    if n.starts_with("operator ") {
                        for id in ids {
                            let f = &self.prog.functions[id.0 as usize];
                            if f.cxx.method.as_ref().is_some_and(|m| m.kind == MethodKind::Conversion && !m.explicit) {
                                out.push(*id);
                            }
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether `f` can be called with `n` arguments (default arguments, `...`).
    pub(crate) fn arity_ok(&self, f: &Function, n: usize) -> bool {
        let np = f.sig.params.len();
        let required = np - f.cxx.defaults.iter().rev().take_while(|d| d.is_some()).count().min(np);
        (n >= required && n <= np) || (f.sig.variadic && n >= np)
    }

    /// Choose the best viable function of `cands` for a call with `args` and, for
    /// member functions, the object expression `obj`. Reports "no matching function"
    /// or "ambiguous" (with the candidates as notes) and returns `None` on failure.
    pub(crate) fn resolve_overload(&mut self, cands: &[FnId], obj: Option<&Expr>, args: &[Expr], what: &str, sp: Span, user: bool) -> Option<FnId> {
        let mut viable: Vec<(FnId, Vec<Ics>)> = Vec::new();
        let device_caller = self.fcx.as_ref().is_some_and(|f| f.space != ExecSpace::Host);
        for id in cands {
            let f = &self.prog.functions[id.0 as usize];
            if !self.arity_ok(f, args.len()) {
                continue;
            }
            let mut v = Vec::new();
            let mut ok = true;
            if let (Some(o), Some(m)) = (obj, f.cxx.method.as_ref()) {
                if !m.is_static && !matches!(m.kind, MethodKind::Ctor) {
                    // The implied object parameter: `C&` or `const C&`; an rvalue object
                    // binds to it as well ([over.match.funcs]/5).
                    let pt = QTy { ty: Ty::Record(m.class), c: m.is_const, v: false };
                    let ot = &o.ty;
                    let cv_ok = !ot.c || pt.c;
                    let same = matches!(&ot.ty, Ty::Record(r) if self.is_base_of(m.class, *r));
                    if cv_ok && same {
                        v.push(Ics { rank: 0, tie: (pt.c && !ot.c) as u8 });
                    } else {
                        ok = false;
                    }
                } else {
                    v.push(EXACT);
                }
            }
            for (a, p) in args.iter().zip(&f.sig.params) {
                match self.ics(a, p, user) {
                    Some(i) => v.push(i),
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                viable.push((*id, v));
            }
        }
        let n = viable.iter().map(|v| v.1.len()).max().unwrap_or(0);
        let better = |this: &Self, a: &(FnId, Vec<Ics>), b: &(FnId, Vec<Ics>)| -> bool {
            let (x, y) = (&a.1, &b.1);
            if x.len() == y.len() && x.len() == n {
                let not_worse = x.iter().zip(y).all(|(p, q)| p <= q);
                let some_better = x.iter().zip(y).any(|(p, q)| p < q);
                if not_worse && some_better {
                    return true;
                }
                if !(not_worse && !some_better) {
                    return false;
                }
            }
            // Equal sequences: a non-template over a template specialization, the more
            // specialized template ([over.match.best]).
            if let Some(b) = this.template_tiebreak(a.0, b.0) {
                return b;
            }
            // CUDA prefers a function of the caller's execution space.
            let sa = this.prog.functions[a.0 .0 as usize].space;
            let sb = this.prog.functions[b.0 .0 as usize].space;
            let pref = |s: ExecSpace| match (device_caller, s) {
                (true, ExecSpace::Device) | (false, ExecSpace::Host) => 0,
                (_, ExecSpace::HostDevice) => 1,
                _ => 2,
            };
            pref(sa) < pref(sb)
        };
        let best: Vec<&(FnId, Vec<Ics>)> =
            viable.iter().filter(|a| viable.iter().all(|b| a.0 == b.0 || better(self, a, b))).collect();
        if best.len() == 1 {
            return Some(best[0].0);
        }
        let tys: Vec<String> = args.iter().map(|a| format!("'{}'", self.show(&a.ty))).collect();
        let mut d = if viable.is_empty() {
            if cands.len() == 1 && obj.is_none() {
                let f = &self.prog.functions[cands[0].0 as usize];
                let want = f.sig.params.len();
                if !self.arity_ok(f, args.len()) {
                    let many = args.len() > want;
                    let req = if many { want } else { want - f.cxx.defaults.iter().filter(|d| d.is_some()).count() };
                    let msg = format!(
                        "too {} arguments to function call, expected {}{req}, have {}",
                        if many { "many" } else { "few" },
                        if req != want { if many { "at most " } else { "at least " } } else { "" },
                        args.len()
                    );
                    let sp2 = f.span;
                    let name = qualified_fn_name(f);
                    self.diag(Diagnostic::error(sp, msg).with_note(Some(sp2), format!("'{name}' declared here")));
                    return None;
                }
            }
            if let (Some(o), true) = (obj, cands.len() == 1) {
                let f = &self.prog.functions[cands[0].0 as usize];
                if f.cxx.method.as_ref().is_some_and(|m| !m.is_const && !m.is_static) && o.ty.c {
                    let msg = format!(
                        "'this' argument to member function '{}' has type '{}', but function is not marked const",
                        f.name,
                        self.show(&o.ty)
                    );
                    let fs = f.span;
                    self.diag(Diagnostic::error(sp, msg).with_note(Some(fs), format!("'{}' declared here", f.name)));
                    return None;
                }
            }
            Diagnostic::error(sp, format!("no matching {what} with arguments ({})", tys.join(", ")))
        } else {
            Diagnostic::error(sp, format!("call to {} is ambiguous", what.replace("function for call to ", "")))
        };
        let listed: Vec<FnId> = if viable.is_empty() { cands.to_vec() } else { best.iter().map(|b| b.0).collect::<Vec<_>>() };
        let listed = if listed.is_empty() { viable.iter().map(|v| v.0).collect() } else { listed };
        for id in listed {
            let f = &self.prog.functions[id.0 as usize];
            let s = crate::check::pretty_signature(&self.prog.types, f);
            d = d.with_note(Some(f.span), format!("candidate function: {s}"));
        }
        self.diag(d);
        None
    }

    /// Convert the arguments of a call to `fid` to its parameter types, adding default
    /// arguments. A class argument whose type has a destructor becomes a temporary the
    /// caller destroys at the end of the full-expression (Itanium C++ ABI).
    pub(crate) fn call_args(&mut self, fid: FnId, args: Vec<Expr>, sp: Span) -> Option<Vec<Expr>> {
        let f = self.prog.functions[fid.0 as usize].clone();
        let mut out = Vec::new();
        let nargs = args.len();
        for (a, p) in args.into_iter().zip(&f.sig.params) {
            out.push(self.convert(a, p, "argument passing"));
        }
        for i in nargs..f.sig.params.len() {
            let Some(Some(d)) = f.cxx.defaults.get(i) else {
                self.err(sp, "too few arguments to function call");
                return None;
            };
            let saved = std::mem::replace(&mut self.ns, f.scope.clone());
            let v = self.expr(d);
            self.ns = saved;
            let mut v = self.convert(v, &f.sig.params[i], "argument passing");
            v.span = sp;
            out.push(v);
        }
        if out.iter().any(|a| a.is_error()) {
            return None;
        }
        let mut fixed = Vec::new();
        for (a, p) in out.into_iter().zip(&f.sig.params) {
            if matches!(p.ty, Ty::Record(_)) && self.needs_dtor(&p.ty) {
                let a = if a.lvalue { a } else { self.materialize(a) };
                let t = a.ty.unqual();
                let s = a.span;
                fixed.push(Expr::new(ExprKind::Load(Box::new(a)), t, false, s));
            } else {
                fixed.push(a);
            }
        }
        Some(fixed)
    }
}

/// `ns::C::f` as C++ prints a function's qualified name.
pub(crate) fn qualified_fn_name(f: &Function) -> String {
    let mut s = String::new();
    for p in &f.scope {
        // The anonymous namespace (`names::ANON_NS`), as compilers print it.
        s.push_str(if p == super::names::ANON_NS { "(anonymous namespace)" } else { p });
        s.push_str("::");
    }
    s + &f.name
}
