//! `new` and `delete` in device code, on the device heap (the storage of device
//! `malloc`/`free`).
//!
//! - `new T`, `new T(args)`, `new T{...}`: allocate `sizeof(T)`, initialize as the
//!   declaration `T x(args)` / `T x{...}` would (`new T()` value-initializes).
//! - `new T[n]` (`n` any integer expression), `new T[n]()`, `new T[n]{...}` (`n`
//!   constant there): every element default-/value-initialized, or the array from the
//!   list. Classes with a non-trivial destructor get the Itanium array cookie (the count,
//!   8 bytes before the first element), which `delete[]` reads to destroy every element
//!   in reverse order.
//! - `new (p) T(...)`: placement new, constructs at `p` (nvcc needs `<new>` for its
//!   declaration; Cuprite does not check that the header was included).
//! - `delete p` / `delete[] p`: nothing for null; destructor(s), then free. A virtual
//!   destructor is called through the vtable (the storage starts at the object's
//!   address: single inheritance keeps every base at offset 0).

use super::*;

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl<'o> Checker<'o> {
    pub(crate) fn new_expr(
        &mut self,
        placement: Option<&[ast::Expr]>,
        ty: &ast::TypeName,
        init: Option<&ast::Initializer>,
        array_len: Option<&ast::Expr>,
        sp: Span,
    ) -> Expr {
        let elem = self.type_name(ty);
        let place = placement.map(|args| args.iter().map(|a| self.expr(a)).collect::<Vec<_>>());
        let count = array_len.map(|n| self.expr(n));
        if self.fcx.as_ref().is_none_or(|f| f.space == ExecSpace::Host) {
            self.err(sp, "'new' is not supported here");
            return Expr::error(sp);
        }
        if elem.ty.is_error() || place.iter().flatten().any(|a| a.is_error()) || count.as_ref().is_some_and(|c| c.is_error()) {
            return Expr::error(sp);
        }
        if matches!(elem.ty, Ty::Ref(_) | Ty::Func(_) | Ty::Void) || !self.prog.types.is_complete(&elem.ty) {
            self.err(ty.span, format!("allocation of incomplete type '{}'", self.show(&elem)));
            return Expr::error(sp);
        }
        if let Ty::Record(r) = elem.ty {
            if self.class_info(r).is_some_and(|i| i.is_abstract) {
                self.err(ty.span, format!("allocating an object of abstract class type '{}'", self.show(&elem.unqual())));
                return Expr::error(sp);
            }
        }
        let placement = match place {
            None => None,
            Some(args) if args.len() == 1 => {
                let a = args.into_iter().next().unwrap();
                let a = self.rvalue(a);
                if !a.ty.ty.is_pointer() {
                    self.err(a.span, format!("no matching placement 'operator new' for an argument of type '{}'", self.show(&a.ty)));
                    return Expr::error(sp);
                }
                let vp = QTy::new(Ty::ptr(QTy { ty: Ty::Void, c: false, v: false }));
                let a = if a.ty.ty.pointee().is_some_and(|p| p.c) { self.cast(a, &vp.ty) } else { self.convert(a, &vp, "placement new") };
                Some(a)
            }
            Some(_) => {
                self.err(sp, "placement 'new' with other than one pointer argument is not supported in device code");
                return Expr::error(sp);
            }
        };
        let ulong = QTy::new(Ty::Int(IntKind::ULong));
        let count = match count {
            None => None,
            Some(c) => {
                let c = self.rvalue(c);
                if !c.ty.ty.is_integer() {
                    self.err(c.span, format!("array size expression must have integral type, not '{}'", self.show(&c.ty)));
                    return Expr::error(sp);
                }
                Some(self.cast(c, &ulong.ty))
            }
        };
        let value_init = |this: &mut Self, t: &QTy| -> Init {
            if this.needs_ctor(&t.ty) {
                this.default_init(t, sp).unwrap_or(Init::Zero(t.unqual()))
            } else {
                Init::Zero(t.unqual())
            }
        };
        let ninit = match (init, &count) {
            (None, _) => match self.default_init(&elem, sp) {
                Some(i) => NewInit::Each(i),
                None => NewInit::None,
            },
            (Some(ast::Initializer::Ctor(args, _)), _) if args.is_empty() => NewInit::Each(value_init(self, &elem)),
            (Some(i @ ast::Initializer::Ctor(..)), None) | (Some(i @ ast::Initializer::List(..)), None) => {
                match self.check_initializer(i, &elem.unqual(), sp) {
                    Some(i) => NewInit::Each(i),
                    None => return Expr::error(sp),
                }
            }
            (Some(ast::Initializer::List(items, lsp)), Some(c)) => {
                let Some(CVal::Int(n)) = eval_const(&self.prog, c) else {
                    self.err(*lsp, "an initializer list for an array 'new' with a non-constant size is not supported in device code yet");
                    return Expr::error(sp);
                };
                let at = QTy::new(Ty::Array(Box::new(elem.unqual()), Some(n as u64)));
                let list = ast::Initializer::List(items.clone(), *lsp);
                match self.check_initializer(&list, &at, sp) {
                    Some(i) => NewInit::Whole(i),
                    None => return Expr::error(sp),
                }
            }
            (Some(ast::Initializer::Ctor(_, csp)), Some(_)) => {
                self.err(*csp, "array 'new' cannot have initialization arguments");
                return Expr::error(sp);
            }
            (Some(ast::Initializer::Expr(e)), _) => {
                self.err(e.span, "unexpected initializer in 'new'");
                return Expr::error(sp);
            }
        };
        let cookie = count.is_some() && placement.is_none() && self.needs_dtor(&elem.ty);
        let t = QTy::new(Ty::ptr(elem.clone()));
        let ne = NewExpr { placement, elem, count, cookie, init: ninit };
        Expr::new(ExprKind::New(bx_new(ne)), t, false, sp)
    }

    pub(crate) fn delete_expr(&mut self, array: bool, e: &ast::Expr, sp: Span) -> Expr {
        let p = self.expr(e);
        if p.is_error() {
            return Expr::error(sp);
        }
        let p = if matches!(p.ty.ty, Ty::Record(_)) { self.class_to_scalar(p) } else { p };
        let p = self.rvalue(p);
        if self.fcx.as_ref().is_none_or(|f| f.space == ExecSpace::Host) {
            self.err(sp, "'delete' is not supported here");
            return Expr::error(sp);
        }
        let Some(elem) = p.ty.ty.pointee().cloned() else {
            self.err(p.span, format!("cannot delete expression of type '{}'", self.show(&p.ty)));
            return Expr::error(sp);
        };
        if matches!(elem.ty, Ty::Void | Ty::Func(_)) || !self.prog.types.is_complete(&elem.ty) {
            self.err(p.span, format!("cannot delete expression of type '{}' (pointer to an incomplete or non-object type)", self.show(&p.ty)));
            return Expr::error(sp);
        }
        let cookie = array && self.needs_dtor(&elem.ty);
        let pt = QTy::new(Ty::ptr(elem.unqual()));
        let l = self.new_local(format!("__del{}", self.fcx.as_ref().unwrap().locals.len()), pt.clone(), None);
        let lp = Expr::new(ExprKind::Load(bx(Expr::new(ExprKind::Local(l), pt.clone(), true, sp))), pt, false, sp);
        let obj = Expr::new(ExprKind::Deref(bx(lp.clone())), elem.clone(), true, sp);
        let mut destroy = Vec::new();
        let virtual_dtor = match elem.ty {
            Ty::Record(r) => self.class_info(r).and_then(|i| i.dtor.filter(|d| i.virtual_slots.contains_key(d))),
            _ => None,
        };
        match virtual_dtor {
            Some(d) if !array => {
                if self.check_callable(d, sp).is_some() {
                    if let Some(f) = &mut self.fcx {
                        f.calls.push(d);
                    }
                    let k = self.call_kind(d, vec![lp]);
                    destroy.push(Stmt { kind: StmtKind::Expr(Expr::new(k, QTy::new(Ty::Void), false, sp)), span: sp });
                }
            }
            _ => self.destroy(obj, &mut destroy),
        }
        let de = DeleteExpr { ptr: p, array, cookie, elem: l, destroy };
        Expr::new(ExprKind::Delete(Box::new(de)), QTy::new(Ty::Void), false, sp)
    }
}

fn bx_new(n: NewExpr) -> Box<NewExpr> {
    let _ = bx;
    Box::new(n)
}
