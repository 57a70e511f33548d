//! Pointers to members (`int S::*pm = &S::x;`, `float (S::*pf)(float) const =
//! &S::scale;`), `.*` and `->*`, calls through pointers to member functions, their
//! conversions and comparisons.
//!
//! Representation (Itanium C++ ABI, so that they cross between host and device memory
//! unchanged): a pointer to data member is the member's byte offset as an `i64` (null:
//! -1); a pointer to member function is a pair `{ptr, adj}` of 64-bit words: `ptr` is
//! the function's address, or 1 + the byte offset of its vtable slot for a virtual
//! function; `adj` is the adjustment of `this` (always 0 here: single inheritance puts
//! every base at offset 0); null is `ptr == 0`. In the HIR, a pointer to data member
//! is an integer-like scalar (`Cast` to `long` gives the offset); a pointer to member
//! function is made by `ExprKind::MemberFnPtr` (null: `ExprKind::Null`), called by
//! `ExprKind::CallMemberPtr` and compared by `ExprKind::MemberFnPtrEq`, lowered in
//! `lower/func/dynamic.rs`.

use super::*;

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl<'o> Checker<'o> {
    /// `&C::m` for a non-static member `m` of class `C`: a pointer to member. `None` when
    /// `x` is not such a name (the ordinary `&` then applies).
    pub(crate) fn member_pointer_of(&mut self, x: &ast::Expr, sp: Span) -> Option<Expr> {
        let ast::ExprKind::Name(p) = &x.kind else { return None };
        if p.segments.len() < 2 {
            return None;
        }
        let n = p.segments.len() - 1;
        let class_path = ast::Path {
            global: p.global,
            segments: p.segments[..n].to_vec(),
            args: if p.args.is_empty() { Vec::new() } else { p.args[..n].to_vec() },
            span: p.span,
        };
        let spec = ast::DeclSpec { ty: ast::TypeSpec::Named(class_path), span: p.span, ..Default::default() };
        // Only a class name qualifies a member: anything else is left to `name`.
        let is_class = matches!(self.lookup_tag(&spec_path(&spec)), Some(Tag::Record(_)))
            || matches!(self.lookup(&spec_path(&spec)), Some(Sym::Typedef(t)) if matches!(t.ty, Ty::Record(_)));
        if !is_class {
            return None;
        }
        let Ty::Record(r) = self.spec_type(&spec).ty else { return None };
        let name = p.last().name.clone();
        if let Some((_, fty, owner, acc)) = self.lookup_field(r, &name) {
            let decl_span = self.field_span(owner, &name);
            if !self.check_access(owner, acc, &name, decl_span, p.last().span) {
                return Some(Expr::error(sp));
            }
            if matches!(fty.ty, Ty::Ref(_)) {
                self.err(sp, format!("cannot form a pointer to member '{name}' of reference type"));
                return Some(Expr::error(sp));
            }
            let (path, _, _, _) = self.lookup_field(owner, &name)?;
            if bitfield_path(&self.prog.types, owner, &path).is_some() {
                self.err(sp, format!("cannot form a pointer to the bit-field '{name}'"));
                return Some(Expr::error(sp));
            }
            let off = field_path_offset(&self.prog.types, owner, &path);
            let t = QTy::new(Ty::MemberPtr { class: owner, pointee: Box::new(fty) });
            return Some(Expr::new(ExprKind::Int(off as i128), t, false, sp));
        }
        let cands = self.lookup_methods(r, &name);
        if cands.is_empty() {
            return None;
        }
        let all_static = cands.iter().all(|f| !self.prog.functions[f.0 as usize].has_this());
        if all_static {
            return None;
        }
        if cands.len() > 1 {
            self.err(sp, format!("taking the address of overloaded member function '{name}' is not supported in device code yet"));
            return Some(Expr::error(sp));
        }
        let fid = cands[0];
        let f = self.prog.functions[fid.0 as usize].clone_header_pub();
        let m = f.cxx.method.clone().unwrap();
        if !matches!(m.kind, MethodKind::Normal | MethodKind::Conversion) {
            self.err(sp, format!("cannot take the address of '{}'", qualified_fn_name(&f)));
            return Some(Expr::error(sp));
        }
        self.check_access(m.class, m.access, &f.name, f.span, p.last().span);
        let device_ctx = self.fcx.as_ref().map_or(true, |c| c.space != ExecSpace::Host);
        if device_ctx && f.space == ExecSpace::Host {
            let shown = qualified_fn_name(&f);
            let d = Diagnostic::error(sp, format!("the address of __host__ function '{shown}' cannot be used in device code"))
                .with_note(Some(f.span), format!("'{shown}' is declared here without __device__"));
            self.diag(d);
            return Some(Expr::error(sp));
        }
        if f.sig.variadic {
            self.err(sp, "pointers to variadic member functions are not supported in device code");
            return Some(Expr::error(sp));
        }
        let vslot = self.class_info(m.class).and_then(|i| i.virtual_slots.get(&fid).copied());
        if let Some(cx) = &mut self.fcx {
            cx.calls.push(fid);
        }
        let pointee = QTy { ty: Ty::Func(Box::new(f.sig.clone())), c: m.is_const, v: false };
        let t = QTy::new(Ty::MemberPtr { class: m.class, pointee: Box::new(pointee) });
        Some(Expr::new(ExprKind::MemberFnPtr { fid, vslot }, t, false, sp))
    }

    /// The operands of `base.*member` / `base->*member`: the object (an lvalue of the
    /// member pointer's class, converted to it), the member pointer (a prvalue) and its
    /// pointee type.
    fn pm_operands(&mut self, base: &ast::Expr, member: &ast::Expr, arrow: bool, sp: Span) -> Option<(Expr, Expr, QTy)> {
        let b = self.expr(base);
        let mp = self.expr(member);
        if b.is_error() || mp.is_error() {
            return None;
        }
        let mp = self.rvalue(mp);
        let Ty::MemberPtr { class, pointee } = mp.ty.ty.clone() else {
            let op = if arrow { "->*" } else { ".*" };
            self.err(member.span, format!("right hand operand to {op} has non-pointer-to-member type '{}'", self.show(&mp.ty)));
            return None;
        };
        let obj = if arrow {
            let b = self.rvalue(b);
            match b.ty.ty.pointee() {
                Some(t) if matches!(t.ty, Ty::Record(_)) => self.deref(b, base.span),
                _ => {
                    self.err(base.span, format!("left hand operand to ->* must be a pointer to class compatible with the right hand operand, but is '{}'", self.show(&b.ty)));
                    return None;
                }
            }
        } else {
            b
        };
        let ok = matches!(obj.ty.ty, Ty::Record(r) if r == class || self.is_base_of(class, r));
        if !ok {
            let cname = self.show(&QTy::new(Ty::Record(class)));
            self.err(sp, format!("the object of type '{}' is not of class '{cname}' (or a class derived from it), as the pointer to member '{}' needs", self.show(&obj.ty.unqual()), self.show(&mp.ty)));
            return None;
        }
        if self.prog.types.rec(class).fields.is_none() {
            self.err(sp, format!("member access into incomplete type '{}'", self.show(&QTy::new(Ty::Record(class)))));
            return None;
        }
        let obj = self.materialize(obj);
        let obj = self.to_base(obj, class);
        Some((obj, mp, *pointee))
    }

    /// `obj.*pm` / `p->*pm` used as a value (pointers to data members).
    pub(crate) fn member_ptr_access(&mut self, base: &ast::Expr, member: &ast::Expr, arrow: bool, sp: Span) -> Expr {
        let Some((obj, mp, pointee)) = self.pm_operands(base, member, arrow, sp) else { return Expr::error(sp) };
        if let Ty::Func(_) = pointee.ty {
            self.err(sp, "a pointer to member function can only be called: '(obj.*pf)(args)'");
            return Expr::error(sp);
        }
        // `*(T *)((char *)&obj + offset)`.
        let t = QTy { ty: pointee.ty.clone(), c: pointee.c || obj.ty.c, v: pointee.v || obj.ty.v };
        let a = Expr::new(ExprKind::AddrOf(bx(obj.clone())), QTy::new(Ty::ptr(obj.ty.clone())), false, sp);
        let cp = QTy::new(Ty::ptr(QTy::new(Ty::Int(IntKind::Char)).with_const(obj.ty.c)));
        let c = Expr::new(ExprKind::Cast(bx(a)), cp.clone(), false, sp);
        let off = Expr::new(ExprKind::Cast(bx(mp)), QTy::new(Ty::Int(IntKind::Long)), false, sp);
        let at = Expr::new(ExprKind::PtrAdd(bx(c), bx(off)), cp, false, sp);
        let tp = Expr::new(ExprKind::Cast(bx(at)), QTy::new(Ty::ptr(t.clone())), false, sp);
        Expr::new(ExprKind::Deref(bx(tp)), t, true, sp)
    }

    /// `(obj.*pf)(args)` / `(p->*pf)(args)`.
    pub(crate) fn member_ptr_call(&mut self, base: &ast::Expr, member: &ast::Expr, arrow: bool, args: &[ast::Expr], sp: Span) -> Expr {
        let ops = self.pm_operands(base, member, arrow, sp);
        let hargs: Vec<Expr> = args.iter().map(|a| self.expr(a)).collect();
        let Some((obj, mp, pointee)) = ops else { return Expr::error(sp) };
        if hargs.iter().any(|a| a.is_error()) {
            return Expr::error(sp);
        }
        let Ty::Func(sig) = &pointee.ty else {
            self.err(sp, format!("called object type '{}' is not a function or function pointer", self.show(&pointee)));
            return Expr::error(sp);
        };
        let sig = (**sig).clone();
        if obj.ty.c && !pointee.c {
            self.err(sp, format!("calling a non-const member function through '{}' on a const object discards qualifiers", self.show(&mp.ty)));
            return Expr::error(sp);
        }
        if hargs.len() != sig.params.len() {
            let which = if hargs.len() < sig.params.len() { "few" } else { "many" };
            self.err(sp, format!("too {which} arguments to function call, expected {}, have {}", sig.params.len(), hargs.len()));
            return Expr::error(sp);
        }
        let mut conv = Vec::new();
        for (a, p) in hargs.into_iter().zip(&sig.params) {
            let v = self.convert(a, p, "argument passing");
            if v.is_error() {
                return Expr::error(sp);
            }
            conv.push(v);
        }
        let pt = QTy::new(Ty::ptr(QTy { ty: obj.ty.ty.clone(), c: pointee.c, v: false }));
        let this = Expr::new(ExprKind::AddrOf(bx(obj)), pt, false, sp);
        let kind = ExprKind::CallMemberPtr { mfp: bx(mp), this: bx(this), args: conv };
        if let Ty::Ref(t) = &sig.ret.ty {
            let rp = QTy::new(Ty::ptr((**t).clone()));
            let c = Expr::new(kind, rp, false, sp);
            return super::overload::referenced_result(c, &sig.ret, sp);
        }
        Expr::new(kind, sig.ret.unqual(), false, sp)
    }

    /// Whether `from` converts implicitly to the member pointer type `to`: the same
    /// pointee (a data member's may gain cv-qualifiers) in the same class or a base of
    /// `to`'s class (a base is at offset 0: the value is unchanged).
    pub(crate) fn member_ptr_compatible(&self, from: &Ty, to: &Ty) -> Option<bool> {
        let (Ty::MemberPtr { class: ca, pointee: pa }, Ty::MemberPtr { class: cb, pointee: pb }) = (from, to) else { return None };
        let same_pointee = if matches!(pa.ty, Ty::Func(_)) {
            pa.ty == pb.ty && pa.c == pb.c
        } else {
            pa.ty == pb.ty && (!pa.c || pb.c) && (!pa.v || pb.v)
        };
        if !same_pointee || !(ca == cb || self.is_base_of(*ca, *cb)) {
            return None;
        }
        Some(ca == cb && pa.c == pb.c && pa.v == pb.v)
    }

    /// The null member pointer of type `t`.
    pub(crate) fn null_member_ptr(&self, t: &QTy, sp: Span) -> Expr {
        if t.ty.is_member_fn_ptr() {
            Expr::new(ExprKind::Null, t.unqual(), false, sp)
        } else {
            Expr::new(ExprKind::Int(-1), t.unqual(), false, sp)
        }
    }

    /// `a == b` / `a != b` where one operand is a member pointer (the other converted to
    /// its type, or a null pointer constant).
    pub(crate) fn member_ptr_compare(&mut self, eq: bool, a: Expr, b: Expr, sp: Span) -> Expr {
        let a = self.rvalue(a);
        let b = self.rvalue(b);
        let (a, b) = if matches!(a.ty.ty, Ty::MemberPtr { .. }) { (a, b) } else { (b, a) };
        let t = a.ty.unqual();
        let b = if self.member_ptr_compatible(&b.ty.ty, &t.ty).is_none() && self.member_ptr_compatible(&t.ty, &b.ty.ty).is_some() {
            // `b`'s type is the more derived: compare in it.
            let bt = b.ty.unqual();
            let a2 = Expr { ty: bt, ..a.clone() };
            return self.member_ptr_compare(eq, b, a2, sp);
        } else {
            self.convert(b, &t, "comparison")
        };
        if b.is_error() {
            return Expr::error(sp);
        }
        let bool_t = QTy::new(Ty::Bool);
        if t.ty.is_member_fn_ptr() {
            let e = Expr::new(ExprKind::MemberFnPtrEq(bx(a), bx(b)), bool_t.clone(), false, sp);
            return if eq { e } else { Expr::new(ExprKind::LNot(bx(e)), bool_t, false, sp) };
        }
        let op = if eq { BinOp::Eq } else { BinOp::Ne };
        Expr::new(ExprKind::Binary(op, bx(a), bx(b)), bool_t, false, sp)
    }

    /// A member pointer as a condition: not null.
    pub(crate) fn member_ptr_to_bool(&mut self, e: Expr) -> Expr {
        let sp = e.span;
        let null = self.null_member_ptr(&e.ty, sp);
        self.member_ptr_compare(false, e, null, sp)
    }
}

fn spec_path(spec: &ast::DeclSpec) -> ast::Path {
    match &spec.ty {
        ast::TypeSpec::Named(p) => p.clone(),
        _ => unreachable!(),
    }
}

/// The byte offset of the field that `path` (field indices, through anonymous members and
/// base subobjects) leads to in record `r`.
pub(crate) fn field_path_offset(types: &TypeTable, r: RecId, path: &[u32]) -> u64 {
    let mut off = 0;
    let mut rec = r;
    for idx in path {
        let fd = &types.rec(rec).fields.as_ref().unwrap()[*idx as usize];
        off += fd.offset;
        if let Ty::Record(nr) = fd.ty.ty {
            rec = nr;
        }
    }
    off
}

/// Whether `path` in `r` ends at a bit-field.
fn bitfield_path(types: &TypeTable, r: RecId, path: &[u32]) -> Option<()> {
    let mut rec = r;
    for (i, idx) in path.iter().enumerate() {
        let fd = &types.rec(rec).fields.as_ref().unwrap()[*idx as usize];
        if i + 1 == path.len() {
            return fd.bits.map(|_| ());
        }
        if let Ty::Record(nr) = fd.ty.ty {
            rec = nr;
        }
    }
    None
}
