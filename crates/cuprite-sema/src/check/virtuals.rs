//! Virtual functions: vtable slots, the vptr, dynamic dispatch, explicit destructor
//! calls.
//!
//! Layout (Itanium ABI, restricted to single inheritance): a dynamic class has a vptr
//! at offset 0. The root of a dynamic hierarchy gets it as its field 0 (unnamed,
//! `void **`); a derived class shares its base's (the base subobject is at offset 0).
//! A class with virtual functions whose base has none would need the base after the
//! vptr (a non-trivial derived-to-base conversion): refused.
//!
//! The vtable of a class is an array of function addresses, one per slot: the base's
//! slots (with this class's overriders), then the virtual functions this class adds,
//! in declaration order. The destructor has one slot (the complete-object destructor;
//! `delete` frees the storage after calling it). Vtables are made by the lowering
//! (`lower::vtable`): `ExprKind::VTable(r)` is the address of class `r`'s.
//!
//! Constructors store the class's vtable in the vptr after constructing the base and
//! before the members (so virtual calls in a constructor's body see this class's
//! overriders); destructors store it again at their start. Objects made by an implicit
//! constructor get it when the lowering initializes them (`Init::List` of a dynamic
//! class). A virtual call loads the vptr of the object, the slot's entry, and calls it
//! with the object's address (`ExprKind::VirtualCall`); `Base::f()` calls directly.

use super::*;

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// The type of the vptr field: `void **`.
pub(crate) fn vptr_ty() -> QTy {
    QTy::new(Ty::ptr(QTy::new(Ty::ptr(QTy::new(Ty::Void)))))
}

impl<'o> Checker<'o> {
    /// After a class's members are declared: its vtable and, for the root of a dynamic
    /// hierarchy, the vptr as field 0 (indices in `nsdmi` move up by one).
    pub(crate) fn setup_vtable(
        &mut self,
        id: RecId,
        fields: &mut Vec<FieldDef>,
        nsdmi: &mut [(usize, ast::Initializer)],
        declared_virtual: &[FnId],
        pure: &[FnId],
        span: Span,
    ) {
        let info = self.class_info(id).cloned().unwrap_or_default();
        let base = info.base;
        let (mut slots, base_dynamic) = match base.and_then(|b| self.class_info(b)) {
            Some(bi) => (bi.vtable.clone(), bi.dynamic),
            None => (Vec::new(), false),
        };
        let mut own: Vec<FnId> = info.methods.values().flatten().copied().collect();
        own.extend(info.dtor);
        own.sort();
        own.dedup();
        let mut vslots = std::collections::HashMap::new();
        for fid in own {
            let f = &self.prog.functions[fid.0 as usize];
            let Some(m) = &f.cxx.method else { continue };
            if m.is_static || !matches!(m.kind, MethodKind::Normal | MethodKind::Dtor | MethodKind::Conversion) {
                continue;
            }
            let over = base.and_then(|b| self.overridden_slot(b, fid));
            let slot = match over {
                Some(s) => s,
                None if declared_virtual.contains(&fid) => {
                    slots.push(None);
                    (slots.len() - 1) as u32
                }
                None => continue,
            };
            slots[slot as usize] = Some(fid);
            vslots.insert(fid, slot);
        }
        let dynamic = !slots.is_empty();
        if dynamic && !base_dynamic {
            if let Some(b) = base {
                let shown = self.show(&QTy::new(Ty::Record(b)));
                self.err(span, format!("a class with virtual functions whose base class '{shown}' has none is not supported in device code yet"));
            } else {
                fields.insert(0, FieldDef { name: None, ty: vptr_ty(), offset: 0, span, bits: None });
                for (k, _) in nsdmi.iter_mut() {
                    *k += 1;
                }
            }
        }
        // Abstract: a slot whose final overrider is pure.
        let mut all_pure: Vec<FnId> = pure.to_vec();
        if let Some(b) = base {
            all_pure.extend(self.class_info(b).map(|i| i.pure.clone()).unwrap_or_default());
        }
        let is_abstract = slots.iter().any(|s| s.is_some_and(|f| all_pure.contains(&f)));
        let info = self.prog.classes.get_mut(&id).unwrap();
        info.vtable = slots;
        info.virtual_slots = vslots;
        info.dynamic = dynamic;
        info.is_abstract = is_abstract;
        info.pure = all_pure;
        if dynamic {
            // Not an aggregate, not POD.
            info.non_public = true;
        }
    }

    /// The slot of a virtual function of class `b` (or its bases) that `fid` overrides:
    /// same name (or both destructors), same parameter types and `const`.
    fn overridden_slot(&self, b: RecId, fid: FnId) -> Option<u32> {
        let f = &self.prog.functions[fid.0 as usize];
        let m = f.cxx.method.as_ref()?;
        for c in self.class_chain(b) {
            let Some(ci) = self.class_info(c) else { continue };
            for (bf, slot) in &ci.virtual_slots {
                let g = &self.prog.functions[bf.0 as usize];
                let Some(gm) = &g.cxx.method else { continue };
                let same = if m.kind == MethodKind::Dtor || gm.kind == MethodKind::Dtor {
                    m.kind == gm.kind
                } else {
                    g.name == f.name
                        && g.sig.params.len() == f.sig.params.len()
                        && g.sig.params.iter().zip(&f.sig.params).all(|(a, b)| super::overload::same_param_type(a, b))
                        && gm.is_const == m.is_const
                };
                if same {
                    return Some(*slot);
                }
            }
        }
        None
    }

    /// The statement that stores class `r`'s vtable in the vptr of `obj` (constructor and
    /// destructor prologues); nothing for a class without virtual functions.
    pub(crate) fn set_vptr(&mut self, r: RecId, obj: &Expr, sp: Span) -> Option<Stmt> {
        if !self.class_info(r).is_some_and(|i| i.dynamic) {
            return None;
        }
        self.vtable_used(r);
        let place = self.vptr_place(obj.clone(), sp);
        let v = Expr::new(ExprKind::VTable(r), vptr_ty(), false, sp);
        Some(Stmt { kind: StmtKind::InitAt(place, Init::Expr(v)), span: sp })
    }

    /// Class `r`'s vtable is stored by the current function: its entries are reachable
    /// (checked and lowered like called functions).
    pub(crate) fn vtable_used(&mut self, r: RecId) {
        let entries: Vec<FnId> = self.class_info(r).map(|i| i.vtable.iter().flatten().copied().collect()).unwrap_or_default();
        if let Some(f) = &mut self.fcx {
            f.calls.extend(entries);
        }
    }

    /// `*(void ***)&obj`: the vptr of a dynamic object, as an lvalue.
    fn vptr_place(&mut self, obj: Expr, sp: Span) -> Expr {
        let a = Expr::new(ExprKind::AddrOf(bx(obj.clone())), QTy::new(Ty::ptr(obj.ty.clone())), false, sp);
        let c = Expr::new(ExprKind::Cast(bx(a)), QTy::new(Ty::ptr(vptr_ty())), false, sp);
        Expr::new(ExprKind::Deref(bx(c)), vptr_ty(), true, sp)
    }

    /// The call of member `fid` with `args` (`args[0]` the object's address when it has
    /// one): dispatched through the vtable when `fid` is virtual.
    pub(crate) fn call_kind(&self, fid: FnId, args: Vec<Expr>) -> ExprKind {
        let f = &self.prog.functions[fid.0 as usize];
        if let Some(m) = f.cxx.method.as_ref().filter(|m| !m.is_static) {
            if let Some(slot) = self.class_info(m.class).and_then(|i| i.virtual_slots.get(&fid)) {
                return ExprKind::VirtualCall { fid, slot: *slot, args };
            }
        }
        ExprKind::Call(fid, args)
    }

    /// `obj.~T()` / `p->~T()`: the destructor (virtual when it is), or nothing for a type
    /// without one.
    pub(crate) fn explicit_dtor_call(&mut self, obj: Expr, name: &ast::Ident, args: &[ast::Expr], sp: Span) -> Expr {
        if !args.is_empty() {
            self.err(sp, "a destructor takes no arguments");
            return Expr::error(sp);
        }
        let void = QTy::new(Ty::Void);
        let tname = &name.name[1..];
        let Ty::Record(r) = obj.ty.ty else {
            // `p->~T()` on a scalar (pseudo-destructor): nothing happens.
            return Expr::new(ExprKind::ToVoid(bx(obj)), void, false, sp);
        };
        let cname = self.prog.types.rec(r).name.clone().unwrap_or_default();
        if cname != tname {
            let shown = self.show(&obj.ty.unqual());
            self.err(name.span, format!("the destructor name '{}' does not name the type '{shown}'", name.name));
            return Expr::error(sp);
        }
        match self.class_info(r).and_then(|i| i.dtor) {
            Some(d) => {
                if self.check_callable(d, name.span).is_none() {
                    return Expr::error(sp);
                }
                let obj = self.materialize(obj);
                let this = Expr::new(ExprKind::AddrOf(bx(obj.clone())), QTy::new(Ty::ptr(obj.ty.unqual())), false, sp);
                if let Some(f) = &mut self.fcx {
                    f.calls.push(d);
                }
                Expr::new(self.call_kind(d, vec![this]), void, false, sp)
            }
            None if self.needs_dtor(&obj.ty.ty) => {
                self.err(sp, "an explicit call of an implicitly declared non-trivial destructor is not supported in device code yet");
                Expr::error(sp)
            }
            None => Expr::new(ExprKind::ToVoid(bx(obj)), void, false, sp),
        }
    }
}

/// A call that names its class (`Base::f()`) is not virtual.
pub(crate) fn devirtualize(e: Expr) -> Expr {
    match e.kind {
        ExprKind::VirtualCall { fid, args, .. } => Expr { kind: ExprKind::Call(fid, args), ..e },
        ExprKind::Deref(inner) => {
            let inner = devirtualize(*inner);
            Expr { kind: ExprKind::Deref(bx(inner)), ..e }
        }
        _ => e,
    }
}
