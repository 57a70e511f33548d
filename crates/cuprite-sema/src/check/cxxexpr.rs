//! C++ expressions on classes: member function calls, `this`, constructors as
//! expressions, overloaded operators, user-defined conversions.

use super::*;

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// The spelling of the operator function for a binary operator.
pub(crate) fn binop_name(op: ast::BinOp) -> &'static str {
    use ast::BinOp as B;
    match op {
        B::Mul => "operator*",
        B::Div => "operator/",
        B::Rem => "operator%",
        B::Add => "operator+",
        B::Sub => "operator-",
        B::Shl => "operator<<",
        B::Shr => "operator>>",
        B::Lt => "operator<",
        B::Gt => "operator>",
        B::Le => "operator<=",
        B::Ge => "operator>=",
        B::Eq => "operator==",
        B::Ne => "operator!=",
        B::BitAnd => "operator&",
        B::BitXor => "operator^",
        B::BitOr => "operator|",
        B::LogAnd => "operator&&",
        B::LogOr => "operator||",
        B::Comma => "operator,",
    }
}

impl<'o> Checker<'o> {
    /// Whether an operand makes an operator expression look for operator functions.
    pub(crate) fn is_class_or_enum(&self, e: &Expr) -> bool {
        matches!(e.ty.ty, Ty::Record(_) | Ty::Enum(_))
    }

    /// `this`: a prvalue pointer.
    pub(crate) fn this_expr(&mut self, sp: Span) -> Expr {
        let Some(l) = self.fcx.as_ref().and_then(|f| f.this) else {
            self.err(sp, "invalid use of 'this' outside of a non-static member function");
            return Expr::error(sp);
        };
        let t = self.fcx.as_ref().unwrap().locals[l.0 as usize].ty.clone();
        Expr::new(ExprKind::Load(bx(Expr::new(ExprKind::Local(l), t.clone(), true, sp))), t, false, sp)
    }

    /// An unqualified name inside a member function that names a data member of the
    /// class (or a base): `this->name`.
    pub(crate) fn implicit_member(&mut self, name: &str, sp: Span) -> Option<Expr> {
        let r = self.fcx.as_ref()?.class?;
        let (path, fty, owner, acc) = self.lookup_field(r, name)?;
        let Some(obj) = self.this_object(sp) else {
            self.err(sp, format!("invalid use of member '{name}' in static member function"));
            return Some(Expr::error(sp));
        };
        let decl_span = self.field_span(owner, name);
        self.check_access(owner, acc, name, decl_span, sp);
        let t = QTy { ty: fty.ty.clone(), c: fty.c || obj.ty.c, v: fty.v || obj.ty.v };
        let e = Expr::new(ExprKind::Member(bx(obj), r, path), t, true, sp);
        Some(self.deref_reference_pub(e))
    }

    pub(crate) fn field_span(&self, r: RecId, name: &str) -> Span {
        self.prog.types.rec(r).fields.iter().flatten().find(|f| f.name.as_deref() == Some(name)).map(|f| f.span).unwrap_or_default()
    }

    /// A call of a member function named `name` on the object `obj`.
    pub(crate) fn method_call(&mut self, obj: Expr, cands: Vec<FnId>, name: &str, args: Vec<Expr>, callee_span: Span, sp: Span) -> Expr {
        if obj.is_error() || args.iter().any(|a| a.is_error()) {
            return Expr::error(sp);
        }
        let shown = self.show(&obj.ty.unqual());
        let what = format!("member function '{name}' in '{shown}'");
        let Some(fid) = self.resolve_overload(&cands, Some(&obj), &args, &what, sp, true) else { return Expr::error(sp) };
        self.finish_method_call(fid, obj, args, callee_span, sp)
    }

    /// Call member function `fid` (already chosen) on `obj`.
    pub(crate) fn finish_method_call(&mut self, fid: FnId, obj: Expr, args: Vec<Expr>, callee_span: Span, sp: Span) -> Expr {
        let f = self.prog.functions[fid.0 as usize].clone_header_pub();
        let m = f.cxx.method.clone().unwrap();
        self.check_access(m.class, m.access, &f.name, f.span, callee_span);
        if m.is_static {
            return self.user_call_this(fid, args, None, callee_span, sp);
        }
        let obj = self.materialize(obj);
        let obj = self.to_base(obj, m.class);
        let pt = QTy::new(Ty::ptr(QTy { ty: Ty::Record(m.class), c: m.is_const, v: false }));
        let this = Expr::new(ExprKind::AddrOf(bx(obj)), pt, false, sp);
        self.user_call_this(fid, args, Some(this), callee_span, sp)
    }

    /// A call with `this` (for member functions) and arguments converted.
    pub(crate) fn user_call_this(&mut self, fid: FnId, args: Vec<Expr>, this: Option<Expr>, callee_span: Span, sp: Span) -> Expr {
        if this.is_none() {
            if let Some(e) = self.contract_half(fid, &args, sp) {
                return e;
            }
        }
        self.ensure_constexpr_body(fid);
        if self.check_callable(fid, callee_span).is_none() {
            return Expr::error(sp);
        }
        let f = self.prog.functions[fid.0 as usize].clone_header_pub();
        if f.space == ExecSpace::Global && self.fcx.as_ref().is_some_and(|c| c.space != ExecSpace::Host) {
            self.err(callee_span, "a __global__ function call must be configured");
            return Expr::error(sp);
        }
        if f.sig.variadic {
            self.err(sp, "variadic device functions are not supported yet");
            return Expr::error(sp);
        }
        let Some(mut hargs) = self.call_args(fid, args, sp) else { return Expr::error(sp) };
        if let Some(t) = this {
            hargs.insert(0, t);
        }
        if let Some(cx) = &mut self.fcx {
            cx.calls.push(fid);
        }
        let ret = f.sig.ret.clone();
        if let Ty::Ref(t) = &ret.ty {
            let pt = QTy::new(Ty::ptr((**t).clone()));
            let c = Expr::new(self.call_kind(fid, hargs), pt, false, sp);
            return super::overload::referenced_result(c, &ret, sp);
        }
        Expr::new(self.call_kind(fid, hargs), ret.unqual(), false, sp)
    }

    /// `f(args)` where `f` is an object of class type: `f.operator()(args)`.
    pub(crate) fn call_object(&mut self, f: Expr, args: Vec<Expr>, callee_span: Span, sp: Span) -> Expr {
        let Ty::Record(r) = f.ty.ty else { return Expr::error(sp) };
        // A generic lambda: its call operator for these arguments.
        if let Some(g) = self.generic_lambda_call(r, &args, sp) {
            let Some(fid) = g else { return Expr::error(sp) };
            return self.method_call(f, vec![fid], "operator()", args, callee_span, sp);
        }
        let cands = self.lookup_methods(r, "operator()");
        if cands.is_empty() {
            self.err(callee_span, format!("type '{}' does not provide a call operator", self.show(&f.ty.unqual())));
            return Expr::error(sp);
        }
        self.method_call(f, cands, "operator()", args, callee_span, sp)
    }

    /// `T(args)` / `T{args}` for a class `T`: a prvalue.
    pub(crate) fn construct_class(&mut self, t: QTy, args: Vec<Expr>, sp: Span) -> Expr {
        match self.construct_init(&t, args, sp) {
            Some(Init::Expr(e)) => e,
            Some(i) => Expr::new(ExprKind::InitTemp(bx_init(i)), t.unqual(), false, sp),
            None => Expr::error(sp),
        }
    }

    /// Where non-member operator functions named `name` are looked up: the innermost
    /// enclosing namespace that declares the name (as a function or a function template),
    /// the using-directives' namespaces, and argument-dependent lookup (the namespaces of
    /// class and enum operands).
    fn operator_scopes(&self, name: &str, operands: &[&Expr]) -> Vec<Vec<String>> {
        let mut scopes = Vec::new();
        for i in (0..=self.ns.len()).rev() {
            let q = qualify(&self.ns[..i], name);
            if matches!(self.names.get(&q), Some(Sym::Funcs(_))) || self.tpl.by_name.contains_key(&q) {
                scopes.push(self.ns[..i].to_vec());
                break;
            }
        }
        scopes.extend(self.using_dirs());
        for o in operands {
            let scope = match &o.ty.ty {
                Ty::Record(r) => {
                    let mut s = self.prog.types.rec(*r).scope.clone();
                    // A nested class's associated namespace is its outermost enclosing namespace.
                    while !s.is_empty() && self.tags.contains_key(&s.join("::")) {
                        s.pop();
                    }
                    Some(s)
                }
                Ty::Enum(e) => Some(self.prog.types.enm(*e).scope.clone()),
                _ => None,
            };
            scopes.extend(scope);
        }
        scopes
    }

    /// Candidate operator functions for `name` with these operands: members of the
    /// first operand's class, and non-members found where `operator_scopes` looks.
    pub(crate) fn operator_candidates(&self, name: &str, operands: &[&Expr]) -> (Vec<FnId>, Vec<FnId>) {
        let mut members = Vec::new();
        if let Some(Ty::Record(r)) = operands.first().map(|o| &o.ty.ty) {
            members = self.lookup_methods(*r, name);
        }
        let mut free: Vec<FnId> = Vec::new();
        for s in self.operator_scopes(name, operands) {
            if let Some(Sym::Funcs(ids)) = self.names.get(&qualify(&s, name)) {
                for id in ids {
                    if !free.contains(id) && self.prog.functions[id.0 as usize].cxx.method.is_none() {
                        free.push(*id);
                    }
                }
            }
        }
        (members, free)
    }

    /// Non-member operator function templates (`template <class T> V<T> operator-(V<T>
    /// const &, V<T> const &)`) found where `operator_scopes` looks, specialized by
    /// deduction from the operands; a template that does not deduce is no candidate.
    fn operator_template_candidates(&mut self, name: &str, operands: &[Expr], sp: Span) -> Vec<FnId> {
        let refs: Vec<&Expr> = operands.iter().collect();
        let mut ids: Vec<super::template::TemplId> = Vec::new();
        for s in self.operator_scopes(name, &refs) {
            for t in self.tpl.by_name.get(&qualify(&s, name)).cloned().unwrap_or_default() {
                let d = &self.tpl.defs[t];
                if d.kind == super::template::TKind::Function && d.class.is_none() && !ids.contains(&t) {
                    ids.push(t);
                }
            }
        }
        if ids.is_empty() {
            return Vec::new();
        }
        self.template_candidates(&ids, &[], operands, sp)
    }

    /// Resolve an overloaded operator over member and non-member candidates. `None`
    /// when no operator function is viable (the built-in operator applies).
    pub(crate) fn overloaded_operator(&mut self, name: &str, operands: Vec<Expr>, sp: Span) -> Option<Expr> {
        let refs: Vec<&Expr> = operands.iter().collect();
        let (members, mut free) = self.operator_candidates(name, &refs);
        for f in self.operator_template_candidates(name, &operands, sp) {
            if !free.contains(&f) {
                free.push(f);
            }
        }
        if members.is_empty() && free.is_empty() {
            return None;
        }
        // Trial resolution, silently: is any candidate viable?
        let obj = operands[0].clone();
        let rest: Vec<Expr> = operands[1..].to_vec();
        self.silent += 1;
        let m = if members.is_empty() { None } else { self.resolve_overload(&members, Some(&obj), &rest, name, sp, true) };
        let f = if free.is_empty() { None } else { self.resolve_overload(&free, None, &operands, name, sp, true) };
        self.silent -= 1;
        let pick = match (m, f) {
            (None, None) => return None,
            (Some(a), None) => (a, true),
            (None, Some(b)) => (b, false),
            (Some(a), Some(b)) => {
                // Compare the two best: the member's implied object vs the first parameter.
                let ma = self.ranks_for(a, Some(&obj), &rest);
                let fb = self.ranks_for(b, None, &operands);
                let not_worse = ma.iter().zip(&fb).all(|(x, y)| x <= y);
                let better = ma.iter().zip(&fb).any(|(x, y)| x < y);
                let not_worse_b = fb.iter().zip(&ma).all(|(x, y)| x <= y);
                let better_b = fb.iter().zip(&ma).any(|(x, y)| x < y);
                if not_worse && better {
                    (a, true)
                } else if not_worse_b && better_b {
                    (b, false)
                } else {
                    let tys: Vec<String> = operands.iter().map(|o| format!("'{}'", self.show(&o.ty))).collect();
                    let mut d = Diagnostic::error(sp, format!("use of overloaded operator '{}' is ambiguous (with operand types {})", name.trim_start_matches("operator"), tys.join(" and ")));
                    for id in [a, b] {
                        let f = &self.prog.functions[id.0 as usize];
                        d = d.with_note(Some(f.span), format!("candidate function: {}", pretty_signature(&self.prog.types, f)));
                    }
                    self.diag(d);
                    return Some(Expr::error(sp));
                }
            }
        };
        Some(if pick.1 { self.finish_method_call(pick.0, obj, rest, sp, sp) } else { self.user_call_this(pick.0, operands, None, sp, sp) })
    }

    fn ranks_for(&self, fid: FnId, obj: Option<&Expr>, args: &[Expr]) -> Vec<overload::Ics> {
        let f = &self.prog.functions[fid.0 as usize];
        let mut v = Vec::new();
        if let (Some(o), Some(m)) = (obj, &f.cxx.method) {
            v.push(overload::Ics { rank: 0, tie: (m.is_const && !o.ty.c) as u8 });
        }
        for (a, p) in args.iter().zip(&f.sig.params) {
            v.push(self.ics(a, p, true).unwrap_or(overload::Ics { rank: 9, tie: 9 }));
        }
        v
    }

    /// A class operand of a built-in operator: converted by its (unique) conversion
    /// function to a scalar type.
    pub(crate) fn class_to_scalar(&mut self, e: Expr) -> Expr {
        let Ty::Record(r) = e.ty.ty else { return e };
        let convs = self.conversion_functions(r);
        let scalar: Vec<FnId> = convs
            .into_iter()
            .filter(|c| {
                let rt = &self.prog.functions[c.0 as usize].sig.ret;
                let t = match &rt.ty {
                    Ty::Ref(t) => &t.ty,
                    t => t,
                };
                t.is_scalar()
            })
            .collect();
        if scalar.len() != 1 {
            return e;
        }
        let sp = e.span;
        self.finish_method_call(scalar[0], e, vec![], sp, sp)
    }

    /// `(T)obj` / `static_cast<T>(obj)` from a class object to a scalar `T`: the conversion
    /// function to exactly `T` (explicit ones count, as in direct-initialization), else
    /// the implicit conversion.
    pub(crate) fn cast_class_to_scalar(&mut self, e: Expr, t: &QTy, sp: Span) -> Expr {
        let Ty::Record(r) = e.ty.ty else { return self.convert(e, &t.unqual(), "cast") };
        let mut exact = Vec::new();
        for c in self.class_chain(r) {
            if let Some(i) = self.class_info(c) {
                for (n, ids) in &i.methods {
                    if !n.starts_with("operator ") {
                        continue;
                    }
                    for id in ids {
                        let f = &self.prog.functions[id.0 as usize];
                        let ret = match &f.sig.ret.ty {
                            Ty::Ref(q) => &q.ty,
                            q => q,
                        };
                        if f.cxx.method.as_ref().is_some_and(|m| m.kind == MethodKind::Conversion) && *ret == t.ty {
                            exact.push(*id);
                        }
                    }
                }
            }
        }
        if exact.len() == 1 {
            return self.finish_method_call(exact[0], e, vec![], sp, sp);
        }
        self.convert(e, &t.unqual(), "cast")
    }

    /// Implicit conversion from a class type, or to a class type (user-defined
    /// conversions: converting constructors, conversion functions). `None` when neither
    /// side is a class or the conversion is the built-in one.
    pub(crate) fn convert_class(&mut self, e: Expr, to: &QTy, what: &str) -> Option<Expr> {
        let sp = e.span;
        match (&e.ty.ty, &to.ty) {
            (Ty::Record(a), Ty::Record(b)) if a == b => {
                // Copy: the copy constructor when the class declares one.
                let r = *a;
                if e.lvalue {
                    let copy = self.copy_ctor(r);
                    if let Some(c) = copy {
                        let Some(args) = self.call_args(c, vec![e], sp) else { return Some(Expr::error(sp)) };
                        if self.check_callable(c, sp).is_none() {
                            return Some(Expr::error(sp));
                        }
                        if let Some(f) = &mut self.fcx {
                            f.calls.push(c);
                        }
                        let i = Init::Construct { ty: to.unqual(), ctor: c, args };
                        return Some(Expr::new(ExprKind::InitTemp(bx_init(i)), to.unqual(), false, sp));
                    }
                    let t = e.ty.unqual();
                    return Some(Expr::new(ExprKind::Load(bx(e)), t, false, sp));
                }
                Some(e)
            }
            (Ty::Record(d), Ty::Record(b)) if self.is_base_of(*b, *d) => {
                let b = *b;
                let base = self.to_base(e, b);
                self.convert_class(base, to, what)
            }
            (_, Ty::Record(r)) => {
                let r = *r;
                let ctors: Vec<FnId> = self
                    .class_info(r)
                    .map(|i| i.ctors.clone())
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|c| !self.prog.functions[c.0 as usize].cxx.method.as_ref().unwrap().explicit)
                    .collect();
                let viable: Vec<FnId> = ctors
                    .iter()
                    .copied()
                    .filter(|c| {
                        let f = &self.prog.functions[c.0 as usize];
                        self.arity_ok(f, 1) && f.sig.params.first().is_some_and(|p| self.ics(&e, p, false).is_some())
                    })
                    .collect();
                if viable.is_empty() {
                    if e.ty.ty.is_error() {
                        return Some(e);
                    }
                    self.err(sp, format!("no viable conversion from '{}' to '{}'", self.show(&e.ty.unqual()), self.show(&to.unqual())));
                    return Some(Expr::error(sp));
                }
                let shown = self.show(&to.unqual());
                let fid = self.resolve_overload(&viable, None, std::slice::from_ref(&e), &format!("constructor of '{shown}'"), sp, false)?;
                let Some(args) = self.call_args(fid, vec![e], sp) else { return Some(Expr::error(sp)) };
                self.check_callable(fid, sp)?;
                if let Some(f) = &mut self.fcx {
                    f.calls.push(fid);
                }
                let i = Init::Construct { ty: to.unqual(), ctor: fid, args };
                Some(Expr::new(ExprKind::InitTemp(bx_init(i)), to.unqual(), false, sp))
            }
            (Ty::Record(r), _) => {
                let r = *r;
                let convs = self.conversion_functions(r);
                let mut best: Option<(overload::Ics, FnId)> = None;
                let mut tie = false;
                for c in convs {
                    let rt = self.prog.functions[c.0 as usize].sig.ret.clone();
                    let (t, lv) = match &rt.ty {
                        Ty::Ref(t) => ((**t).clone(), true),
                        _ => (rt.clone(), false),
                    };
                    let probe = Expr::new(ExprKind::Error, t, lv, sp);
                    if let Some(i) = self.ics(&probe, to, false) {
                        match best {
                            Some((b, _)) if b < i => {}
                            Some((b, _)) if b == i => tie = true,
                            _ => {
                                best = Some((i, c));
                                tie = false;
                            }
                        }
                    }
                }
                let Some((_, c)) = best else {
                    self.err(sp, format!("no viable conversion from '{}' to '{}'", self.show(&e.ty.unqual()), self.show(&to.unqual())));
                    return Some(Expr::error(sp));
                };
                if tie {
                    self.err(sp, format!("conversion from '{}' to '{}' is ambiguous", self.show(&e.ty.unqual()), self.show(&to.unqual())));
                    return Some(Expr::error(sp));
                }
                let v = self.finish_method_call(c, e, vec![], sp, sp);
                Some(self.convert(v, to, what))
            }
            _ => None,
        }
    }

    /// Whether `f` is a copy assignment operator of `r` (`operator=(const C&)`, `(C&)`, `(C)`).
    pub(crate) fn is_copy_assign(&self, f: FnId, r: RecId) -> bool {
        let f = &self.prog.functions[f.0 as usize];
        f.sig.params.len() == 1
            && match &f.sig.params[0].ty {
                Ty::Ref(t) => t.ty == Ty::Record(r),
                t => *t == Ty::Record(r),
            }
    }

    /// The user-declared copy constructor of `r` (`C(const C&)` or `C(C&)`), if any.
    pub(crate) fn copy_ctor(&self, r: RecId) -> Option<FnId> {
        let i = self.class_info(r)?;
        i.ctors.iter().copied().find(|c| {
            let f = &self.prog.functions[c.0 as usize];
            f.sig.params.len() >= 1
                && self.arity_ok(f, 1)
                && matches!(&f.sig.params[0].ty, Ty::Ref(t) if t.ty == Ty::Record(r))
                && !overload::is_rvalue_ref(&f.sig.params[0])
        })
    }
}

pub(crate) fn bx_init(i: Init) -> Box<Init> {
    Box::new(i)
}

impl Function {
    pub(crate) fn clone_header_pub(&self) -> Function {
        Function {
            name: self.name.clone(),
            scope: self.scope.clone(),
            extern_c: self.extern_c,
            space: self.space,
            sig: self.sig.clone(),
            inline: self.inline,
            launch_bounds: self.launch_bounds,
            span: self.span,
            in_system_header: self.in_system_header,
            body: None,
            def: None,
            builtin_name: self.builtin_name.clone(),
            cxx: self.cxx.clone(),
        }
    }
}
