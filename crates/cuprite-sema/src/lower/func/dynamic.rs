//! Lowering of function pointers, virtual calls, vptrs, `new` and `delete`.

use super::*;

fn vp() -> ir::Type {
    ir::Type::Void.ptr_to()
}

impl<'m, 'a> FnLower<'m, 'a> {
    pub(super) fn func_addr(&mut self, fid: FnId, t: ir::Type) -> ValueId {
        match self.m.funcs.get(&fid).copied() {
            Some(func) => {
                let ft = match &t {
                    ir::Type::FnPtr(_) => t.clone(),
                    _ => vp(),
                };
                let v = self.val(IK::FuncAddr(func), ft);
                self.cast(v, &t)
            }
            // A function without a definition: nothing to point to.
            None => self.val(IK::Const(ir::Const::Null(t.clone())), t),
        }
    }

    pub(super) fn call_ptr(&mut self, f: &Expr, args: &[Expr], t: ir::Type) -> Option<ValueId> {
        let mut refs: Vec<&Expr> = vec![f];
        refs.extend(args.iter());
        let vals = self.operands(&refs);
        let callee = vals[0];
        let callee = match self.vty(callee) {
            ir::Type::FnPtr(_) => callee,
            _ => {
                let sig = ir::Signature { params: vals[1..].iter().map(|v| self.vty(*v)).collect(), ret: t.clone(), variadic: false };
                self.val(IK::Cast(callee), ir::Type::FnPtr(Box::new(sig)))
            }
        };
        self.emit(IK::CallIndirect { callee, args: vals[1..].to_vec() }, Some(t))
    }

    /// Load the vtable entry `slot` of the object `this` points to and call it.
    pub(super) fn virtual_call(&mut self, slot: u32, args: &[Expr], t: ir::Type) -> Option<ValueId> {
        let refs: Vec<&Expr> = args.iter().collect();
        let vals = self.operands(&refs);
        let this = vals[0];
        let vpp = self.cast(this, &vp().ptr_to().ptr_to());
        let vt = self.val(IK::Load { ptr: vpp, volatile: false }, vp().ptr_to());
        let idx = self.iconst(slot as i64, ir::Type::I64);
        let ep = self.val(IK::PtrAdd { base: vt, index: idx }, vp().ptr_to());
        let fv = self.val(IK::Load { ptr: ep, volatile: false }, vp());
        let sig = ir::Signature { params: vals.iter().map(|v| self.vty(*v)).collect(), ret: t.clone(), variadic: false };
        let fp = self.val(IK::Cast(fv), ir::Type::FnPtr(Box::new(sig)));
        self.emit(IK::CallIndirect { callee: fp, args: vals }, Some(t))
    }

    /// The pointer to member function value `{ptr, adj}` (`None`: null) in IR struct `t`.
    pub(super) fn member_fn_ptr(&mut self, f: Option<(FnId, Option<u32>)>, t: ir::Type) -> ValueId {
        let ptr = match f {
            None => self.iconst(0, ir::Type::U64),
            Some((_, Some(slot))) => self.iconst(1 + 8 * slot as i64, ir::Type::U64),
            Some((fid, None)) => {
                let a = self.func_addr(fid, vp());
                self.cast(a, &ir::Type::U64)
            }
        };
        let adj = self.iconst(0, ir::Type::I64);
        let l = self.temp(t.clone());
        let base = self.val(IK::LocalAddr(l), t.clone().ptr_to());
        let sid = self.m.memfn_struct();
        for (field, v, ft) in [(0, ptr, ir::Type::U64), (1, adj, ir::Type::I64)] {
            let p = self.val(IK::FieldAddr { base, strukt: sid, field }, ft.ptr_to());
            self.emit(IK::Store { ptr: p, value: v, volatile: false }, None);
        }
        self.val(IK::LoadLocal(l), t)
    }

    /// The `ptr` and `adj` words of a pointer to member function value.
    fn member_fn_parts(&mut self, v: ValueId) -> (ValueId, ValueId) {
        let t = self.vty(v);
        let l = self.spill(v);
        let base = self.val(IK::LocalAddr(l), t.ptr_to());
        let sid = self.m.memfn_struct();
        let mut out = Vec::new();
        for (field, ft) in [(0, ir::Type::U64), (1, ir::Type::I64)] {
            let p = self.val(IK::FieldAddr { base, strukt: sid, field }, ft.clone().ptr_to());
            out.push(self.val(IK::Load { ptr: p, volatile: false }, ft));
        }
        (out[0], out[1])
    }

    /// Itanium equality: same `ptr`, and (both null or the same `adj`).
    pub(super) fn member_fn_ptr_eq(&mut self, a: &Expr, b: &Expr) -> ValueId {
        let vals = self.operands(&[a, b]);
        let (pa, aa) = self.member_fn_parts(vals[0]);
        let (pb, ab) = self.member_fn_parts(vals[1]);
        let same_p = self.val(IK::Binary(ir::BinaryOp::Eq, pa, pb), ir::Type::Bool);
        let z = self.iconst(0, ir::Type::U64);
        let null = self.val(IK::Binary(ir::BinaryOp::Eq, pa, z), ir::Type::Bool);
        let same_a = self.val(IK::Binary(ir::BinaryOp::Eq, aa, ab), ir::Type::Bool);
        let either = self.val(IK::Binary(ir::BinaryOp::Or, null, same_a), ir::Type::Bool);
        self.val(IK::Binary(ir::BinaryOp::And, same_p, either), ir::Type::Bool)
    }

    /// A call through a pointer to member function: `this` adjusted by `adj`; an odd
    /// `ptr` is 1 + the offset of the function's entry in the object's vtable.
    pub(super) fn call_member_ptr(&mut self, mfp: &Expr, this: &Expr, args: &[Expr], t: ir::Type) -> Option<ValueId> {
        let mut refs: Vec<&Expr> = vec![mfp, this];
        refs.extend(args.iter());
        let vals = self.operands(&refs);
        let arg_ls: Vec<ir::LocalId> = vals[2..].iter().map(|v| self.spill(*v)).collect();
        let (ptr, adj) = self.member_fn_parts(vals[0]);
        let this_t = self.vty(vals[1]);
        let bytes = self.cast(vals[1], &ir::Type::U8.ptr_to());
        let at = self.val(IK::PtrAdd { base: bytes, index: adj }, ir::Type::U8.ptr_to());
        let this_v = self.cast(at, &this_t);
        let this_l = self.spill(this_v);
        let fn_l = self.temp(ir::Type::U64);
        let one = self.iconst(1, ir::Type::U64);
        let low = self.val(IK::Binary(ir::BinaryOp::And, ptr, one), ir::Type::U64);
        let z = self.iconst(0, ir::Type::U64);
        let virt = self.val(IK::Binary(ir::BinaryOp::Ne, low, z), ir::Type::Bool);
        let ptr_l = self.spill(ptr);
        let (vb, nb, join) = (self.new_block(), self.new_block(), self.new_block());
        self.terminate(Terminator::Branch { cond: virt, then: vb, else_: nb });
        self.switch_to(vb);
        let this_v = self.reload(this_l);
        let vpp = self.cast(this_v, &ir::Type::U8.ptr_to().ptr_to());
        let vt = self.val(IK::Load { ptr: vpp, volatile: false }, ir::Type::U8.ptr_to());
        let p = self.reload(ptr_l);
        let one = self.iconst(1, ir::Type::U64);
        let off = self.val(IK::Binary(ir::BinaryOp::Sub, p, one), ir::Type::U64);
        let off = self.cast(off, &ir::Type::I64);
        let ep = self.val(IK::PtrAdd { base: vt, index: off }, ir::Type::U8.ptr_to());
        let ep = self.cast(ep, &ir::Type::U64.ptr_to());
        let f = self.val(IK::Load { ptr: ep, volatile: false }, ir::Type::U64);
        self.emit(IK::StoreLocal(fn_l, f), None);
        self.jump(join);
        self.switch_to(nb);
        let p = self.reload(ptr_l);
        self.emit(IK::StoreLocal(fn_l, p), None);
        self.jump(join);
        self.switch_to(join);
        let mut call_args = vec![self.reload(this_l)];
        for l in arg_ls {
            call_args.push(self.reload(l));
        }
        let f = self.reload(fn_l);
        let sig = ir::Signature { params: call_args.iter().map(|v| self.vty(*v)).collect(), ret: t.clone(), variadic: false };
        let fv = self.cast(f, &vp());
        let fp = self.val(IK::Cast(fv), ir::Type::FnPtr(Box::new(sig)));
        self.emit(IK::CallIndirect { callee: fp, args: call_args }, Some(t))
    }

    pub(super) fn vtable_addr(&mut self, r: RecId, t: ir::Type) -> ValueId {
        let g = self.m.vtable_global(r);
        let gt = self.m.module.globals[g.index()].ty.clone();
        let a = self.val(IK::GlobalAddr(g), gt.ptr_to());
        self.cast(a, &t)
    }

    /// After an implicit constructor initialized the object at `ptr` (member by member):
    /// its vptr, for a dynamic class.
    pub(super) fn store_vptr(&mut self, ptr: ValueId, r: RecId) {
        if !self.m.prog.classes.get(&r).is_some_and(|i| i.dynamic) {
            return;
        }
        let v = self.vtable_addr(r, vp().ptr_to());
        let vpp = self.cast(ptr, &vp().ptr_to().ptr_to());
        self.emit(IK::Store { ptr: vpp, value: v, volatile: false }, None);
    }

    fn null_check(&mut self, p: ValueId, nonnull: BlockId, null: BlockId) {
        let t = self.vty(p);
        let z = self.val(IK::Const(ir::Const::Null(t.clone())), t);
        let c = self.val(IK::Binary(ir::BinaryOp::Eq, p, z), ir::Type::Bool);
        self.terminate(Terminator::Branch { cond: c, then: null, else_: nonnull });
    }

    /// A loop `for (i = from; i != to; i += step)` over `U64`s, calling `body(i)`.
    fn count_loop(&mut self, n_l: ir::LocalId, down: bool, body: &mut dyn FnMut(&mut Self, ValueId)) {
        let i_l = self.temp(ir::Type::U64);
        let start = if down { self.reload(n_l) } else { self.iconst(0, ir::Type::U64) };
        self.emit(IK::StoreLocal(i_l, start), None);
        let (head, bb, exit) = (self.new_block(), self.new_block(), self.new_block());
        self.jump(head);
        self.switch_to(head);
        let i = self.reload(i_l);
        let c = if down {
            let z = self.iconst(0, ir::Type::U64);
            self.val(IK::Binary(ir::BinaryOp::Ne, i, z), ir::Type::Bool)
        } else {
            let n = self.reload(n_l);
            self.val(IK::Binary(ir::BinaryOp::Lt, i, n), ir::Type::Bool)
        };
        self.terminate(Terminator::Branch { cond: c, then: bb, else_: exit });
        self.switch_to(bb);
        let i = self.reload(i_l);
        let one = self.iconst(1, ir::Type::U64);
        let idx = if down { self.val(IK::Binary(ir::BinaryOp::Sub, i, one), ir::Type::U64) } else { i };
        if down {
            self.emit(IK::StoreLocal(i_l, idx), None);
        }
        body(self, idx);
        if !down {
            let i = self.reload(i_l);
            let one = self.iconst(1, ir::Type::U64);
            let n = self.val(IK::Binary(ir::BinaryOp::Add, i, one), ir::Type::U64);
            self.emit(IK::StoreLocal(i_l, n), None);
        }
        self.jump(head);
        self.switch_to(exit);
    }

    pub(super) fn new_expr(&mut self, n: &NewExpr, t: ir::Type) -> ValueId {
        let et = self.ty(&n.elem);
        let (esize, _) = self.m.module.layout(&et);
        let u8p = ir::Type::U8.ptr_to();
        let count_l = n.count.as_ref().map(|c| {
            let v = self.value(c);
            let v = self.cast(v, &ir::Type::U64);
            self.spill(v)
        });
        let res_l = self.temp(t.clone());
        let raw = match &n.placement {
            Some(p) => self.value(p),
            None => {
                let bytes = match count_l {
                    Some(l) => {
                        let c = self.reload(l);
                        let es = self.iconst(esize as i64, ir::Type::U64);
                        let b = self.val(IK::Binary(ir::BinaryOp::Mul, c, es), ir::Type::U64);
                        if n.cookie {
                            let eight = self.iconst(8, ir::Type::U64);
                            self.val(IK::Binary(ir::BinaryOp::Add, b, eight), ir::Type::U64)
                        } else {
                            b
                        }
                    }
                    None => self.iconst(esize.max(1) as i64, ir::Type::U64),
                };
                self.val(IK::CallBuiltin { builtin: ir::Builtin::Malloc, args: vec![bytes] }, vp())
            }
        };
        let raw = self.cast(raw, &u8p);
        let raw_l = self.spill(raw);
        let z = self.val(IK::Const(ir::Const::Null(t.clone())), t.clone());
        self.emit(IK::StoreLocal(res_l, z), None);
        let join = self.new_block();
        if n.placement.is_none() {
            let body = self.new_block();
            let r = self.reload(raw_l);
            self.null_check(r, body, join);
            self.switch_to(body);
        }
        let raw = self.reload(raw_l);
        let obj = if n.cookie {
            let cp = self.cast(raw, &ir::Type::U64.ptr_to());
            let c = self.reload(count_l.unwrap());
            self.emit(IK::Store { ptr: cp, value: c, volatile: false }, None);
            let eight = self.iconst(8, ir::Type::I64);
            self.val(IK::PtrAdd { base: raw, index: eight }, u8p.clone())
        } else {
            raw
        };
        let obj = self.cast(obj, &t);
        self.emit(IK::StoreLocal(res_l, obj), None);
        match (&n.init, count_l) {
            (NewInit::None, _) => {}
            (NewInit::Each(i), None) => {
                let p = self.reload(res_l);
                self.init(Place::Mem { ptr: p, vol: false }, i);
            }
            (NewInit::Each(i), Some(cl)) => {
                let i = i.clone();
                self.count_loop(cl, false, &mut |s: &mut Self, idx| {
                    let base = s.reload(res_l);
                    let p = s.val(IK::PtrAdd { base, index: idx }, t.clone());
                    s.init(Place::Mem { ptr: p, vol: false }, &i);
                });
            }
            (NewInit::Whole(i), _) => {
                let at = self.ty(i.ty());
                let p = self.reload(res_l);
                let p = self.cast(p, &at.ptr_to());
                self.init(Place::Mem { ptr: p, vol: false }, i);
            }
        }
        self.jump(join);
        self.switch_to(join);
        self.reload(res_l)
    }

    pub(super) fn delete_expr(&mut self, d: &DeleteExpr) {
        let p = self.value(&d.ptr);
        let pt = self.vty(p);
        let p_l = self.spill(p);
        let (body, join) = (self.new_block(), self.new_block());
        self.null_check(p, body, join);
        self.switch_to(body);
        let elem_l = ir::LocalId(d.elem.0);
        let free_ptr;
        if d.array && d.cookie {
            let p = self.reload(p_l);
            let b = self.cast(p, &ir::Type::U8.ptr_to());
            let m8 = self.iconst(-8, ir::Type::I64);
            let cp = self.val(IK::PtrAdd { base: b, index: m8 }, ir::Type::U8.ptr_to());
            let cpl = self.spill(cp);
            let cp64 = self.cast(cp, &ir::Type::U64.ptr_to());
            let n = self.val(IK::Load { ptr: cp64, volatile: false }, ir::Type::U64);
            let n_l = self.spill(n);
            let stmts = d.destroy.clone();
            self.count_loop(n_l, true, &mut |s: &mut Self, idx| {
                let base = s.reload(p_l);
                let e = s.val(IK::PtrAdd { base, index: idx }, pt.clone());
                s.emit(IK::StoreLocal(elem_l, e), None);
                for st in &stmts {
                    s.stmt(st);
                }
            });
            free_ptr = self.reload(cpl);
        } else {
            if !d.array {
                let p = self.reload(p_l);
                self.emit(IK::StoreLocal(elem_l, p), None);
                for st in &d.destroy {
                    self.stmt(st);
                }
            }
            free_ptr = self.reload(p_l);
        }
        let fp = self.cast(free_ptr, &vp());
        self.emit(IK::CallBuiltin { builtin: ir::Builtin::Free, args: vec![fp] }, Some(ir::Type::Void));
        self.jump(join);
        self.switch_to(join);
    }
}
