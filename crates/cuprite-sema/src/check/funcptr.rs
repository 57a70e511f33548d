//! Pointers to device functions: function designators, the function-to-pointer
//! conversion (`f`, `&f`, `*fp`), calls through pointers, and constant initializers
//! that hold function addresses (`__device__ op_t table[] = {add, sub};`).
//!
//! A function whose address is taken is reachable (it is checked and lowered like a
//! called one): `FuncAddr` pushes it on the caller's `calls`; addresses in device
//! variables' initializers are found by the lowering (`lower::mod`).

use super::*;

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl<'o> Checker<'o> {
    /// A name that denotes functions, used as an expression: a function designator.
    pub(crate) fn func_designator(&mut self, ids: &[FnId], name: &str, sp: Span) -> Expr {
        let f = &self.prog.functions[ids[0].0 as usize];
        let t = QTy::new(Ty::Func(Box::new(f.sig.clone())));
        if ids.len() > 1 {
            // Overloaded: only a call can choose (the target type of a conversion could,
            // in C++; not implemented).
            let d = Diagnostic::error(sp, format!("taking the address of overloaded function '{name}' is not supported in device code yet"));
            self.diag(d);
            return Expr::error(sp);
        }
        Expr::new(ExprKind::FuncRef(ids[0]), t, true, sp)
    }

    /// Function-to-pointer conversion of an lvalue of function type.
    pub(crate) fn func_to_ptr(&mut self, e: Expr) -> Expr {
        let sp = e.span;
        let pt = QTy::new(Ty::ptr(e.ty.unqual()));
        match e.kind {
            ExprKind::FuncRef(fid) => {
                let f = &self.prog.functions[fid.0 as usize];
                let name = qualified_fn_name(f);
                let (space, has_this, builtin, fspan) = (f.space, f.has_this(), f.builtin_name.is_some() && f.def.is_none() && f.body.is_none(), f.span);
                if has_this {
                    self.err(sp, format!("pointers to member functions ('&{name}') are not supported in device code yet"));
                    return Expr::error(sp);
                }
                if builtin {
                    self.err(sp, format!("taking the address of the builtin function '{name}' is not supported in device code"));
                    return Expr::error(sp);
                }
                let device_ctx = self.fcx.as_ref().map_or(true, |c| c.space != ExecSpace::Host);
                if device_ctx && space == ExecSpace::Global {
                    self.err(sp, format!("taking the address of a __global__ function ('{name}') in device code is not supported"));
                    return Expr::error(sp);
                }
                if device_ctx && space == ExecSpace::Host {
                    let d = Diagnostic::error(sp, format!("the address of __host__ function '{name}' cannot be used in device code"))
                        .with_note(Some(fspan), format!("'{name}' is declared here without __device__"));
                    self.diag(d);
                    return Expr::error(sp);
                }
                if let Some(cx) = &mut self.fcx {
                    cx.calls.push(fid);
                }
                Expr::new(ExprKind::FuncAddr(fid), pt, false, sp)
            }
            // `*fp` used as a function again: the pointer itself.
            ExprKind::Deref(p) => {
                let mut p = *p;
                p.span = sp;
                p
            }
            ExprKind::Error => Expr::error(sp),
            _ => {
                self.err(sp, "this function expression cannot be converted to a pointer");
                Expr::error(sp)
            }
        }
    }

    /// `f(args)` where `f` is a pointer to function (or a function lvalue that is not a
    /// name, like `(*fp)` or `table[i]`).
    pub(crate) fn call_through_ptr(&mut self, f: Expr, args: Vec<Expr>, sp: Span) -> Expr {
        if f.is_error() || args.iter().any(|a| a.is_error()) {
            return Expr::error(sp);
        }
        let f = if matches!(f.ty.ty, Ty::Record(_)) { f } else { self.rvalue(f) };
        let sig = match &f.ty.ty {
            Ty::Ptr(p) => match &p.ty {
                Ty::Func(s) => (**s).clone(),
                _ => {
                    self.err(f.span, format!("called object type '{}' is not a function or function pointer", self.show(&f.ty)));
                    return Expr::error(sp);
                }
            },
            _ => {
                self.err(f.span, format!("called object type '{}' is not a function or function pointer", self.show(&f.ty)));
                return Expr::error(sp);
            }
        };
        if sig.variadic {
            self.err(sp, "calls through pointers to variadic functions are not supported in device code");
            return Expr::error(sp);
        }
        if args.len() != sig.params.len() {
            let which = if args.len() < sig.params.len() { "few" } else { "many" };
            self.err(sp, format!("too {which} arguments to function call, expected {}, have {}", sig.params.len(), args.len()));
            return Expr::error(sp);
        }
        let mut conv = Vec::new();
        for (a, p) in args.into_iter().zip(&sig.params) {
            let v = self.convert(a, p, "argument passing");
            if v.is_error() {
                return Expr::error(sp);
            }
            conv.push(v);
        }
        let ret = sig.ret.clone();
        if let Ty::Ref(t) = &ret.ty {
            let pt = QTy::new(Ty::ptr((**t).clone()));
            let c = Expr::new(ExprKind::CallPtr(bx(f), conv), pt, false, sp);
            return super::overload::referenced_result(c, &ret, sp);
        }
        Expr::new(ExprKind::CallPtr(bx(f), conv), ret.unqual(), false, sp)
    }

    /// Whether a checked constant initializer is made of function addresses and
    /// constants: `{add, sub, &mul, nullptr}`. Anything else goes to `check_constant`.
    pub(crate) fn const_init_ok(&mut self, init: &Init) -> bool {
        match init {
            Init::Expr(e) if func_addr_of(e).is_some() => true,
            Init::List { items, union_member, .. } if union_member.is_none_or(|m| m == 0) && items.iter().any(has_func_addr) => {
                items.iter().all(|i| self.const_init_ok(i))
            }
            other => init::check_constant(self, other),
        }
    }
}

/// The function whose address a constant expression is (through pointer casts).
pub(crate) fn func_addr_of(e: &Expr) -> Option<FnId> {
    match &e.kind {
        ExprKind::FuncAddr(f) => Some(*f),
        ExprKind::Cast(x) if e.ty.ty.is_pointer() => func_addr_of(x),
        _ => None,
    }
}

fn has_func_addr(i: &Init) -> bool {
    match i {
        Init::Expr(e) => func_addr_of(e).is_some(),
        Init::List { items, .. } => items.iter().any(has_func_addr),
        _ => false,
    }
}

/// Every function whose address appears in an initializer.
pub(crate) fn funcs_in_init(i: &Init, out: &mut Vec<FnId>) {
    match i {
        Init::Expr(e) => out.extend(func_addr_of(e)),
        Init::List { items, .. } => items.iter().for_each(|x| funcs_in_init(x, out)),
        _ => {}
    }
}
