//! Expressions: typing, implicit conversions, operators, calls.

use super::builtins::{self, Class, MathShape};
use cuprite_ir::MathFn;
use super::*;
use crate::hir::BinOp as HB;
use ast::{BinOp as AB, UnOp};

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

pub(crate) fn int_ty(k: IntKind) -> QTy {
    QTy::new(Ty::Int(k))
}

pub(crate) fn mk_int(v: i128, ty: QTy, span: Span) -> Expr {
    Expr::new(ExprKind::Int(v), ty, false, span)
}

/// Integer promotion of a type.
pub(crate) fn promoted(types: &TypeTable, t: &Ty) -> Ty {
    match t {
        Ty::Bool => Ty::int(),
        Ty::Int(k) if k.rank() < 3 => Ty::int(),
        Ty::Enum(e) => {
            let k = types.enm(*e).underlying;
            if k.rank() < 3 {
                Ty::int()
            } else {
                Ty::Int(k)
            }
        }
        other => other.clone(),
    }
}

/// The usual arithmetic conversions.
pub(crate) fn common_type(types: &TypeTable, a: &Ty, b: &Ty) -> Ty {
    if a.is_error() || b.is_error() {
        return Ty::Error;
    }
    if *a == Ty::Double || *b == Ty::Double {
        return Ty::Double;
    }
    if *a == Ty::Float || *b == Ty::Float {
        return Ty::Float;
    }
    let (Ty::Int(x), Ty::Int(y)) = (promoted(types, a), promoted(types, b)) else { return Ty::Error };
    if x == y {
        return Ty::Int(x);
    }
    if x.signed() == y.signed() {
        return Ty::Int(if x.rank() >= y.rank() { x } else { y });
    }
    let (u, s) = if x.signed() { (y, x) } else { (x, y) };
    if u.rank() >= s.rank() {
        Ty::Int(u)
    } else if s.size() > u.size() {
        Ty::Int(s)
    } else {
        Ty::Int(s.to_unsigned())
    }
}

impl<'o> Checker<'o> {
    /// Lvalue-to-rvalue, array-to-pointer.
    pub(crate) fn rvalue(&mut self, e: Expr) -> Expr {
        if e.is_error() {
            return e;
        }
        match &e.ty.ty {
            Ty::Array(el, _) if e.lvalue => {
                let t = QTy::new(Ty::ptr((**el).clone()));
                let sp = e.span;
                Expr::new(ExprKind::Decay(bx(e)), t, false, sp)
            }
            Ty::Func(_) => self.func_to_ptr(e),
            _ if e.lvalue && matches!(e.kind, ExprKind::Cond(..)) => {
                // Load in each arm, so locals need no address.
                let Expr { kind: ExprKind::Cond(c, a, b), ty, span, .. } = e else { unreachable!() };
                let a = self.rvalue(*a);
                let b = self.rvalue(*b);
                Expr::new(ExprKind::Cond(c, bx(a), bx(b)), ty.unqual(), false, span)
            }
            _ if e.lvalue => {
                let t = e.ty.unqual();
                let sp = e.span;
                let bits = bitfield_of(&self.prog.types, &e).map(|b| b.width);
                let load = Expr::new(ExprKind::Load(bx(e)), t.clone(), false, sp);
                // Integral promotion of a bit-field ([conv.prom]/5): to `int` when `int`
                // holds every value of the field, else to `unsigned int` when that does.
                match (bits, &t.ty) {
                    (Some(w), Ty::Int(k)) if w < 32 || (w == 32 && k.signed()) => self.cast(load, &Ty::int()),
                    (Some(32), Ty::Int(_)) => self.cast(load, &Ty::Int(IntKind::UInt)),
                    _ => load,
                }
            }
            _ => e,
        }
    }

    /// A scalar conversion node (no check).
    pub(crate) fn cast(&mut self, e: Expr, to: &Ty) -> Expr {
        if e.is_error() || to.is_error() {
            return e;
        }
        if e.ty.ty == *to {
            return e;
        }
        if let (ExprKind::Int(v), Ty::Int(k)) = (&e.kind, to) {
            return mk_int(k.wrap(*v), QTy::new(to.clone()), e.span);
        }
        let sp = e.span;
        Expr::new(ExprKind::Cast(bx(e)), QTy::new(to.clone()), false, sp)
    }

    pub(crate) fn to_bool(&mut self, e: Expr) -> Expr {
        let e = if matches!(e.ty.ty, Ty::Record(_)) {
            // Contextual conversion: explicit conversion functions count too.
            match e.ty.ty {
                Ty::Record(r) => {
                    let c = self.lookup_methods(r, "operator bool");
                    if c.is_empty() {
                        self.class_to_scalar(e)
                    } else {
                        let sp = e.span;
                        self.method_call(e, c, "operator bool", vec![], sp, sp)
                    }
                }
                _ => unreachable!(),
            }
        } else {
            e
        };
        let e = self.rvalue(e);
        if e.is_error() {
            return e;
        }
        if let Ty::MemberPtr { .. } = e.ty.ty {
            return self.member_ptr_to_bool(e);
        }
        if !e.ty.ty.is_scalar() {
            self.err(e.span, format!("value of type '{}' is not contextually convertible to 'bool'", self.show(&e.ty)));
            return Expr::error(e.span);
        }
        self.cast(e, &Ty::Bool)
    }

    pub(crate) fn promote(&mut self, e: Expr) -> Expr {
        let e = self.rvalue(e);
        let t = promoted(&self.prog.types, &e.ty.ty);
        self.cast(e, &t)
    }

    pub(crate) fn is_null_const(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Null => true,
            _ if e.ty.ty.is_integer() && !matches!(e.ty.ty, Ty::Bool) => {
                matches!(eval_const(&self.prog, e), Some(CVal::Int(0))) && matches!(e.kind, ExprKind::Int(_) | ExprKind::Cast(_))
            }
            _ => false,
        }
    }

    /// Implicit conversion (initialization / assignment / argument passing) to `to`.
    pub(crate) fn convert(&mut self, e: Expr, to: &QTy, what: &str) -> Expr {
        if e.is_error() || to.ty.is_error() {
            return if to.ty.is_error() { e } else { Expr::error(e.span) };
        }
        if let Ty::Ref(_) = to.ty {
            return self.bind_ref(e, to, what);
        }
        if matches!(e.ty.ty, Ty::Record(_)) || matches!(to.ty, Ty::Record(_)) {
            if let Some(v) = self.convert_class(e.clone(), to, what) {
                return v;
            }
        }
        let e = self.rvalue(e);
        let from = e.ty.ty.clone();
        if let Ty::MemberPtr { .. } = to.ty {
            if from == Ty::Nullptr || self.is_null_const(&e) {
                return self.null_member_ptr(to, e.span);
            }
            if self.member_ptr_compatible(&from, &to.ty).is_some() {
                return Expr { ty: to.unqual(), ..e };
            }
            if let (Ty::MemberPtr { class: ca, .. }, Ty::MemberPtr { class: cb, .. }) = (&from, &to.ty) {
                if ca != cb && self.is_base_of(*cb, *ca) {
                    let msg = format!("converting '{}' to '{}' (a pointer to member of a derived class to one of its base) needs a static_cast, which is not supported in device code yet", self.show(&e.ty), self.show(&to.unqual()));
                    self.err(e.span, msg);
                    return Expr::error(e.span);
                }
            }
        }
        if let (Ty::MemberPtr { .. }, Ty::Bool) = (&from, &to.ty) {
            return self.member_ptr_to_bool(e);
        }
        let ok = match (&from, &to.ty) {
            (a, b) if a == b => true,
            (a, b) if a.is_arith() && b.is_arith() => true,
            (Ty::Ptr(_), Ty::Bool) | (Ty::Nullptr, Ty::Bool) => true,
            (Ty::Nullptr, Ty::Ptr(_)) => true,
            (_, Ty::Ptr(_)) if self.is_null_const(&e) => true,
            (Ty::Ptr(a), Ty::Ptr(b)) => {
                let quals_ok = (!a.c || b.c) && (!a.v || b.v);
                let derived = matches!((&a.ty, &b.ty), (Ty::Record(d), Ty::Record(bb)) if self.is_base_of(*bb, *d));
                let same = a.ty == b.ty || b.ty == Ty::Void || derived;
                if same && !quals_ok {
                    self.err(
                        e.span,
                        format!("{what} of type '{}' from '{}' discards qualifiers", self.show(to), self.show(&e.ty)),
                    );
                    return Expr::error(e.span);
                }
                same
            }
            _ => false,
        };
        if !ok {
            self.err(e.span, format!("cannot convert '{}' to '{}' in {what}", self.show(&e.ty), self.show(&to.unqual())));
            return Expr::error(e.span);
        }
        if matches!(from, Ty::Record(_)) {
            return e;
        }
        if self.is_null_const(&e) && to.ty.is_pointer() {
            return Expr::new(ExprKind::Null, to.unqual(), false, e.span);
        }
        self.cast(e, &to.ty)
    }

    /// Bind a reference of type `to` (a `Ty::Ref`) to `e`: the result is a pointer.
    pub(crate) fn bind_ref(&mut self, e: Expr, to: &QTy, what: &str) -> Expr {
        let Ty::Ref(target) = &to.ty else { unreachable!() };
        let sp = e.span;
        let ptr_ty = QTy::new(Ty::ptr((**target).clone()));
        let rref = super::overload::is_rvalue_ref(to);
        // A derived object bound to a reference to its base: the base subobject.
        if let (Ty::Record(d), Ty::Record(b)) = (&e.ty.ty, &target.ty) {
            if d != b && self.is_base_of(*b, *d) && (e.lvalue || target.c || rref) {
                let b = *b;
                let e = self.materialize(e);
                let e = self.to_base(e, b);
                return self.bind_ref(e, to, what);
            }
        }
        if rref && e.lvalue && !e.xvalue && !matches!(e.kind, ExprKind::LocalInit(..)) {
            self.err(sp, format!("rvalue reference to type '{}' cannot bind to lvalue of type '{}'", self.show(&target.unqual()), self.show(&e.ty)));
            return Expr::error(sp);
        }
        if (rref || (target.c && !target.v)) && !e.lvalue && e.ty.ty == target.ty && matches!(e.ty.ty, Ty::Record(_)) {
            let m = self.materialize(e);
            return Expr::new(ExprKind::AddrOf(bx(m)), ptr_ty, false, sp);
        }
        if e.xvalue && !rref && !(target.c && !target.v) {
            self.err(
                sp,
                format!("non-const lvalue reference to type '{}' cannot bind to an rvalue of type '{}'", self.show(&target.unqual()), self.show(&e.ty)),
            );
            return Expr::error(sp);
        }
        if rref && (!e.lvalue || (e.xvalue && e.ty.ty != target.ty)) {
            let v = self.convert(e, &target.unqual(), what);
            if v.is_error() {
                return v;
            }
            let m = self.materialize(v);
            return Expr::new(ExprKind::AddrOf(bx(m)), ptr_ty, false, sp);
        }
        if e.lvalue && e.ty.ty == target.ty && bitfield_of(&self.prog.types, &e).is_some() && !(target.c && !target.v) {
            self.err(sp, format!("non-const reference cannot bind to bit-field of type '{}'", self.show(&e.ty)));
            return Expr::error(sp);
        }
        if e.lvalue && e.ty.ty == target.ty && bitfield_of(&self.prog.types, &e).is_none() {
            if (e.ty.c && !target.c) || (e.ty.v && !target.v) {
                self.err(
                    sp,
                    format!("binding reference of type '{}' to value of type '{}' drops qualifiers", self.show(target), self.show(&e.ty)),
                );
                return Expr::error(sp);
            }
            return Expr::new(ExprKind::AddrOf(bx(e)), ptr_ty, false, sp);
        }
        if target.c && !target.v {
            let v = self.convert(e, &target.unqual(), what);
            if v.is_error() {
                return v;
            }
            let t = self.materialize(v);
            return Expr::new(ExprKind::AddrOf(bx(t)), ptr_ty, false, sp);
        }
        self.err(
            sp,
            format!(
                "non-const lvalue reference to type '{}' cannot bind to {} of type '{}'",
                self.show(&target.unqual()),
                if e.lvalue { "a value" } else { "a temporary" },
                self.show(&e.ty)
            ),
        );
        Expr::error(sp)
    }

    fn check_modifiable(&mut self, e: &Expr, span: Span) -> bool {
        if e.is_error() {
            return false;
        }
        if !e.lvalue {
            self.err(span, "expression is not assignable");
            return false;
        }
        if matches!(e.ty.ty, Ty::Array(..)) {
            self.err(span, format!("array type '{}' is not assignable", self.show(&e.ty)));
            return false;
        }
        if e.ty.c {
            self.err(span, format!("cannot assign to a variable of type '{}'", self.show(&e.ty)));
            return false;
        }
        true
    }

    fn special_rec(&mut self, name: &str) -> RecId {
        let p = ast::Path::new(false, vec![ast::Ident { name: name.into(), span: Span::default() }], Span::default());
        if let Some(Tag::Record(r)) = self.lookup_tag(&p) {
            return r;
        }
        // No headers: make the struct (three unsigned ints).
        let id = RecId(self.prog.types.records.len() as u32);
        let u = QTy::new(Ty::Int(IntKind::UInt));
        let fields = ["x", "y", "z"]
            .iter()
            .enumerate()
            .map(|(i, n)| FieldDef { name: Some(n.to_string()), ty: u.clone(), offset: 4 * i as u64, span: Span::default(), bits: None })
            .collect();
        self.prog.types.records.push(RecordDef {
            name: Some(name.into()),
            scope: vec![],
            is_union: false,
            is_class: false,
            fields: Some(fields),
            size: 12,
            align: 4,
            span: Span::default(),
        });
        self.tags.insert(name.to_string(), Tag::Record(id));
        id
    }

    fn shadowed_locally(&self, name: &str) -> bool {
        // Functions named by a block-scope using-declaration are not objects.
        self.fcx.as_ref().is_some_and(|f| f.scopes.iter().any(|s| s.names.get(name).is_some_and(|s| !matches!(s, Sym::Funcs(_)))))
            || self.lambda_captures_name(name)
    }

    fn special_var(&self, e: &ast::Expr) -> Option<SpecialVar> {
        let ast::ExprKind::Name(p) = &e.kind else { return None };
        if p.segments.len() != 1 || self.fcx.is_none() {
            return None;
        }
        let n = &p.last().name;
        if self.shadowed_locally(n) {
            return None;
        }
        Some(match n.as_str() {
            "threadIdx" => SpecialVar::ThreadIdx,
            "blockIdx" => SpecialVar::BlockIdx,
            "blockDim" => SpecialVar::BlockDim,
            "gridDim" => SpecialVar::GridDim,
            _ => return None,
        })
    }

    pub(crate) fn expr(&mut self, e: &ast::Expr) -> Expr {
        crate::deep(|| self.expr_here(e))
    }

    pub(crate) fn expr_here(&mut self, e: &ast::Expr) -> Expr {
        let sp = e.span;
        match &e.kind {
            ast::ExprKind::IntLit { value, suffix, radix } => {
                let v = *value;
                let dec = *radix == 10;
                use IntKind::*;
                let cands: &[IntKind] = match (suffix.unsigned, suffix.long) {
                    (false, 0) if dec => &[Int, Long],
                    (false, 0) => &[Int, UInt, Long, ULong],
                    (true, 0) => &[UInt, ULong],
                    (false, 1) if dec => &[Long],
                    (false, 1) => &[Long, ULong],
                    (true, 1) => &[ULong],
                    (false, _) if dec => &[LongLong],
                    (false, _) => &[LongLong, ULongLong],
                    (true, _) => &[ULongLong],
                };
                let fits = |k: IntKind| {
                    let bits = k.size() * 8 - if k.signed() { 1 } else { 0 };
                    v < (1u128 << bits)
                };
                let k = cands.iter().copied().find(|k| fits(*k)).unwrap_or(ULongLong);
                mk_int(k.wrap(v as i128), int_ty(k), sp)
            }
            ast::ExprKind::FloatLit { value, suffix } => {
                let t = if *suffix == ast::FloatSuffix::F { Ty::Float } else { Ty::Double };
                let v = if t == Ty::Float { *value as f32 as f64 } else { *value };
                Expr::new(ExprKind::Float(v), QTy::new(t), false, sp)
            }
            ast::ExprKind::CharLit { value, wide } => {
                if *wide {
                    mk_int(*value as i128, int_ty(IntKind::Int), sp)
                } else {
                    mk_int(IntKind::Char.wrap(*value as i128), int_ty(IntKind::Char), sp)
                }
            }
            ast::ExprKind::StringLit(s) => self.string(s.clone(), sp),
            ast::ExprKind::BoolLit(b) => mk_int(*b as i128, QTy::new(Ty::Bool), sp),
            ast::ExprKind::Nullptr => Expr::new(ExprKind::Null, QTy::new(Ty::Nullptr), false, sp),
            ast::ExprKind::Name(p) => self.name(p, sp),
            ast::ExprKind::Unary { op, expr } => self.unary(*op, expr, sp),
            ast::ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, sp),
            ast::ExprKind::Assign { op, lhs, rhs } => self.assign(*op, lhs, rhs, sp),
            ast::ExprKind::Cond { cond, then, else_ } => self.cond(cond, then, else_, sp),
            ast::ExprKind::Call { callee, args } => self.call(callee, args, sp),
            ast::ExprKind::Index { base, index } => {
                let b = self.expr(base);
                let i = self.expr(index);
                if let Ty::Record(rr) = b.ty.ty {
                    let cands = self.lookup_methods(rr, "operator[]");
                    if !cands.is_empty() {
                        return self.method_call(b, cands, "operator[]", vec![i], sp, sp);
                    }
                }
                let b = self.rvalue(b);
                let i = self.rvalue(i);
                if b.is_error() || i.is_error() {
                    return Expr::error(sp);
                }
                let (p, i) = if b.ty.ty.is_pointer() { (b, i) } else { (i, b) };
                if !p.ty.ty.is_pointer() || !i.ty.ty.is_integer() {
                    self.err(sp, "subscripted value is not an array or pointer");
                    return Expr::error(sp);
                }
                let pa = self.ptr_add(p, i, sp);
                self.deref(pa, sp)
            }
            ast::ExprKind::Member { base, member, arrow } => self.member(base, member, *arrow, sp),
            ast::ExprKind::MemberPtrAccess { base, member, arrow } => self.member_ptr_access(base, member, *arrow, sp),
            ast::ExprKind::Cast { ty, expr, style } => {
                let t = self.type_name(ty);
                let v = self.expr(expr);
                self.explicit_cast(v, &t, *style, sp)
            }
            ast::ExprKind::SizeofExpr(x) => {
                self.silent += 1;
                let before = self.fcx.as_ref().map(|f| (f.calls.len(), f.globals_used.len()));
                let v = self.expr(x);
                if let (Some(f), Some((c, g))) = (&mut self.fcx, before) {
                    f.calls.truncate(c);
                    f.globals_used.truncate(g);
                }
                self.silent -= 1;
                self.sizeof(&v.ty, sp)
            }
            ast::ExprKind::SizeofType(t) => {
                let t = self.type_name(t);
                self.sizeof(&t, sp)
            }
            ast::ExprKind::AlignofType(t) => {
                let t = self.type_name(t);
                let t = match t.ty {
                    Ty::Ref(x) => *x,
                    _ => t,
                };
                match self.prog.types.layout(&t.ty) {
                    Some((_, a)) => mk_int(a as i128, int_ty(IntKind::ULong), sp),
                    None => {
                        self.err(sp, format!("invalid application of 'alignof' to an incomplete type '{}'", self.show(&t)));
                        Expr::error(sp)
                    }
                }
            }
            ast::ExprKind::OffsetOf { ty, designators } => self.offset_of(ty, designators, sp),
            ast::ExprKind::CompoundLit { ty, init } => {
                let t = self.type_name(ty);
                let list = ast::Initializer::List(init.clone(), sp);
                match self.check_initializer(&list, &t, sp) {
                    Some(i) => Expr::new(ExprKind::InitTemp(Box::new(i)), t.unqual(), true, sp),
                    None => Expr::error(sp),
                }
            }
            ast::ExprKind::InitList(_) => {
                self.err(sp, "an initializer list cannot be used here");
                Expr::error(sp)
            }
            ast::ExprKind::This => self.this_expr(sp),
            ast::ExprKind::Lambda(l) => self.lambda_expr(l, sp),
            ast::ExprKind::New { placement, ty, init, array_len } => {
                self.new_expr(placement.as_deref(), ty, init.as_deref(), array_len.as_deref(), sp)
            }
            ast::ExprKind::Delete { array, expr } => self.delete_expr(*array, expr, sp),
            // `sizeof...(Ts)` outside a function body (a static member's initializer in a
            // class template): the bound pack's length. (Bodies are rewritten before.)
            ast::ExprKind::SizeofPack(i) if self.bound_pack_len(&i.name).is_some() => {
                let n = self.bound_pack_len(&i.name).unwrap_or(0);
                mk_int(n as i128, int_ty(IntKind::ULong), sp)
            }
            // Only templates have packs; member template-ids name templates.
            ast::ExprKind::PackExpansion(_)
            | ast::ExprKind::Fold { .. }
            | ast::ExprKind::SizeofPack(_)
            | ast::ExprKind::MemberTemplateId { .. } => {
                self.err(sp, "templates in device code are not supported yet");
                Expr::error(sp)
            }
        }
    }

    /// The number of elements of the template parameter pack `name` in scope, if bound.
    fn bound_pack_len(&self, name: &str) -> Option<usize> {
        self.tpl.env.as_ref().and_then(|e| e.packs().get(name).copied())
    }

    pub(crate) fn string(&mut self, mut s: Vec<u8>, sp: Span) -> Expr {
        let n = s.len() as u64 + 1;
        let t = QTy::new(Ty::Array(Box::new(QTy { ty: Ty::Int(IntKind::Char), c: true, v: false }), Some(n)));
        s.shrink_to_fit();
        Expr::new(ExprKind::Str(s), t, true, sp)
    }

    /// `__builtin_offsetof(T, a.b[2])`: an integer constant of type `size_t`.
    fn offset_of(&mut self, ty: &ast::TypeName, designators: &[ast::Designator], sp: Span) -> Expr {
        let t = self.type_name(ty);
        if t.ty.is_error() {
            return Expr::error(sp);
        }
        let mut cur = t.clone();
        let mut off: u64 = 0;
        for d in designators {
            match d {
                ast::Designator::Field(name) => {
                    let Ty::Record(r) = cur.ty else {
                        self.err(name.span, format!("offsetof requires struct, union, or class type, '{}' invalid", self.show(&cur)));
                        return Expr::error(sp);
                    };
                    if self.prog.types.rec(r).fields.is_none() {
                        self.err(sp, format!("offsetof of incomplete type '{}'", self.show(&cur)));
                        return Expr::error(sp);
                    }
                    let Some((path, fty)) = find_field(&self.prog.types, r, &name.name) else {
                        self.err(name.span, format!("no member named '{}' in '{}'", name.name, self.show(&cur.unqual())));
                        return Expr::error(sp);
                    };
                    let mut rec = r;
                    for (i, idx) in path.iter().enumerate() {
                        let f = &self.prog.types.rec(rec).fields.as_ref().unwrap()[*idx as usize];
                        if f.bits.is_some() {
                            self.err(name.span, format!("cannot compute offset of bit-field '{}'", name.name));
                            return Expr::error(sp);
                        }
                        off += f.offset;
                        if i + 1 < path.len() {
                            let Ty::Record(nr) = f.ty.ty else { unreachable!() };
                            rec = nr;
                        }
                    }
                    cur = fty;
                }
                ast::Designator::Index(e) => {
                    let Ty::Array(el, _) = &cur.ty else {
                        self.err(e.span, format!("subscripted value is not an array: '{}'", self.show(&cur)));
                        return Expr::error(sp);
                    };
                    let el = (**el).clone();
                    let Some(i) = self.const_int(e) else {
                        self.err(e.span, "offsetof with a non-constant array index is not supported in device code");
                        return Expr::error(sp);
                    };
                    let es = self.prog.types.layout(&el.ty).map(|(s, _)| s).unwrap_or(0);
                    off = (off as i128 + i * es as i128) as u64;
                    cur = el;
                }
            }
        }
        mk_int(off as i128, int_ty(IntKind::ULong), sp)
    }

    fn sizeof(&mut self, t: &QTy, sp: Span) -> Expr {
        let t = match &t.ty {
            Ty::Ref(x) => (**x).clone(),
            _ => t.clone(),
        };
        if t.ty.is_error() {
            return Expr::error(sp);
        }
        match self.prog.types.layout(&t.ty) {
            Some((s, _)) => mk_int(s as i128, int_ty(IntKind::ULong), sp),
            None if t.ty == Ty::Void => mk_int(1, int_ty(IntKind::ULong), sp),
            None => {
                self.err(sp, format!("invalid application of 'sizeof' to an incomplete type '{}'", self.show(&t)));
                Expr::error(sp)
            }
        }
    }

    fn name(&mut self, p: &ast::Path, sp: Span) -> Expr {
        let n = p.last().name.clone();
        if p.segments.len() == 1 && !self.shadowed_locally(&n) {
            if let Some(f) = &self.fcx {
                match n.as_str() {
                    "__func__" | "__FUNCTION__" => {
                        let s = f.name.clone().into_bytes();
                        return self.string(s, sp);
                    }
                    "__PRETTY_FUNCTION__" => {
                        let s = f.pretty.clone().into_bytes();
                        return self.string(s, sp);
                    }
                    "warpSize" => {
                        return Expr::new(ExprKind::Special(ir::SpecialReg::WarpSize), int_ty(IntKind::Int), false, sp)
                    }
                    _ => {}
                }
            }
            let sv = match n.as_str() {
                "threadIdx" => Some((SpecialVar::ThreadIdx, "uint3")),
                "blockIdx" => Some((SpecialVar::BlockIdx, "uint3")),
                "blockDim" => Some((SpecialVar::BlockDim, "dim3")),
                "gridDim" => Some((SpecialVar::GridDim, "dim3")),
                _ => None,
            };
            if let (Some((v, rec)), true) = (sv, self.fcx.is_some()) {
                let r = self.special_rec(rec);
                return Expr::new(ExprKind::SpecialVec(v), QTy::new(Ty::Record(r)), false, sp);
            }
        }
        if p.segments.len() == 1 && !p.global {
            // A capture, in a lambda's body.
            if let Some(e) = self.lambda_capture_ref(&n, sp) {
                return e;
            }
        }
        if p.segments.len() == 1 && !p.global && !self.shadowed_locally(&n) {
            if let Some(e) = self.implicit_member(&n, sp) {
                return e;
            }
        }
        match self.lookup(p) {
            Some(Sym::Local(l)) => {
                let fcx = self.fcx.as_ref().unwrap();
                if let Some(v) = fcx.local_consts.get(&l.0).filter(|_| fcx.fold_const_locals) {
                    let mut v = v.clone();
                    v.span = sp;
                    return v;
                }
                let t = self.fcx.as_ref().unwrap().locals[l.0 as usize].ty.clone();
                let e = Expr::new(ExprKind::Local(l), t.clone(), true, sp);
                self.deref_reference(e)
            }
            Some(Sym::Var(g)) => self.global_ref(g, &n, sp),
            Some(Sym::Enumerator(v, t)) => mk_int(v, t, sp),
            Some(Sym::Funcs(ids)) => self.func_designator(&ids, &n, sp),
            Some(Sym::Typedef(_)) => {
                self.err(sp, format!("'{n}' is a type, not a value"));
                Expr::error(sp)
            }
            None => {
                if let Some((reason, err, decl_span)) = self.lookup_skipped(p) {
                    if reason == ast::SkipReason::HostOnly && self.fcx.is_some() {
                        let d = Diagnostic::error(sp, format!("identifier \"{n}\" is undefined in device code"))
                            .with_note(Some(decl_span), "declared here in host code");
                        self.diag(d);
                    } else {
                        self.skipped_error(sp, &n, reason, err);
                    }
                } else {
                    self.err(sp, format!("use of undeclared identifier '{}'", path_str(p)));
                }
                Expr::error(sp)
            }
        }
    }

    pub(crate) fn deref_reference_pub(&mut self, e: Expr) -> Expr {
        self.deref_reference(e)
    }

    fn deref_reference(&mut self, e: Expr) -> Expr {
        if let Ty::Ref(t) = &e.ty.ty {
            let t = (**t).clone();
            let sp = e.span;
            let ptr = Expr::new(ExprKind::Load(bx(e)), QTy::new(Ty::ptr(t.clone())), false, sp);
            return Expr::new(ExprKind::Deref(bx(ptr)), t, true, sp);
        }
        e
    }

    pub(crate) fn deref(&mut self, p: Expr, sp: Span) -> Expr {
        if p.is_error() {
            return Expr::error(sp);
        }
        let Some(t) = p.ty.ty.pointee().cloned() else {
            self.err(sp, format!("indirection requires pointer operand ('{}' invalid)", self.show(&p.ty)));
            return Expr::error(sp);
        };
        if t.ty == Ty::Void {
            self.err(sp, format!("indirection of '{}' is not allowed", self.show(&p.ty)));
            return Expr::error(sp);
        }
        Expr::new(ExprKind::Deref(bx(p)), t, true, sp)
    }

    fn ptr_add(&mut self, p: Expr, i: Expr, sp: Span) -> Expr {
        if let Some(t) = p.ty.ty.pointee() {
            if !self.prog.types.is_complete(&t.ty) && !t.ty.is_error() {
                self.err(sp, format!("arithmetic on a pointer to an incomplete type '{}'", self.show(t)));
                return Expr::error(sp);
            }
        }
        let i = self.promote(i);
        let t = p.ty.clone();
        Expr::new(ExprKind::PtrAdd(bx(p), bx(i)), t, false, sp)
    }

    /// A use of global variable `g` (spelled `n`) as an expression.
    fn global_ref(&mut self, g: GVarId, n: &str, sp: Span) -> Expr {
        let gv = &self.prog.globals[g.0 as usize];
        let in_device = self.fcx.as_ref().is_some_and(|f| f.space != ExecSpace::Host);
        let mut t = gv.ty.clone();
        if gv.space == VarSpace::Host {
            if let Some(v) = &gv.const_value {
                let mut v = v.clone();
                v.span = sp;
                return v;
            }
            if in_device || self.fcx.is_none() {
                if self.fcx.is_none() {
                    // A file-scope initializer that refers to a non-constant.
                    return Expr::new(ExprKind::Global(g), t, true, sp);
                }
                let d = Diagnostic::error(sp, format!("identifier \"{n}\" is undefined in device code"))
                    .with_note(Some(gv.span), "declared here as a host variable");
                self.diag(d);
                return Expr::error(sp);
            }
        }
        if gv.space == VarSpace::Constant && in_device {
            t.c = true;
        }
        if let Some(f) = &mut self.fcx {
            f.globals_used.push(g);
        }
        let e = Expr::new(ExprKind::Global(g), t, true, sp);
        self.deref_reference(e)
    }

    fn member(&mut self, base: &ast::Expr, member: &ast::Ident, arrow: bool, sp: Span) -> Expr {
        if !arrow {
            if let Some(sv) = self.special_var(base) {
                let d = match member.name.as_str() {
                    "x" => ir::Dim::X,
                    "y" => ir::Dim::Y,
                    "z" => ir::Dim::Z,
                    _ => {
                        let rec = if matches!(sv, SpecialVar::ThreadIdx | SpecialVar::BlockIdx) { "uint3" } else { "dim3" };
                        self.err(member.span, format!("no member named '{}' in '{rec}'", member.name));
                        return Expr::error(sp);
                    }
                };
                let r = match sv {
                    SpecialVar::ThreadIdx => ir::SpecialReg::ThreadIdx(d),
                    SpecialVar::BlockIdx => ir::SpecialReg::BlockIdx(d),
                    SpecialVar::BlockDim => ir::SpecialReg::BlockDim(d),
                    SpecialVar::GridDim => ir::SpecialReg::GridDim(d),
                };
                return Expr::new(ExprKind::Special(r), int_ty(IntKind::UInt), false, sp);
            }
        }
        let b = self.expr(base);
        if b.is_error() {
            return b;
        }
        let b = if arrow {
            let b = self.rvalue(b);
            match b.ty.ty.pointee() {
                Some(t) if matches!(t.ty, Ty::Record(_)) => self.deref(b, base.span),
                _ => {
                    if matches!(b.ty.ty, Ty::Record(_)) {
                        self.err(sp, format!("member reference type '{}' is not a pointer; did you mean to use '.'?", self.show(&b.ty)));
                    } else {
                        self.err(sp, format!("member reference type '{}' is not a pointer to a structure", self.show(&b.ty)));
                    }
                    return Expr::error(sp);
                }
            }
        } else {
            match &b.ty.ty {
                Ty::Record(_) => b,
                Ty::Ptr(t) if matches!(t.ty, Ty::Record(_)) => {
                    self.err(sp, format!("member reference type '{}' is a pointer; did you mean to use '->'?", self.show(&b.ty)));
                    return Expr::error(sp);
                }
                _ => {
                    self.err(sp, format!("member reference base type '{}' is not a structure or union", self.show(&b.ty)));
                    return Expr::error(sp);
                }
            }
        };
        let Ty::Record(r) = b.ty.ty.clone() else { unreachable!() };
        if self.prog.types.rec(r).fields.is_none() {
            self.err(sp, format!("member access into incomplete type '{}'", self.show(&b.ty)));
            return Expr::error(sp);
        }
        let Some((path, fty, owner, acc)) = self.lookup_field(r, &member.name) else {
            // `obj.count` naming a static data member: the member itself (the object
            // expression is not evaluated).
            if let Some(Sym::Var(g)) = self.names.get(&qualify(&self.class_ns(r), &member.name)).cloned() {
                return self.global_ref(g, &member.name, sp);
            }
            if !self.lookup_methods(r, &member.name).is_empty() {
                self.err(member.span, format!("reference to non-static member function '{}' must be called", member.name));
                return Expr::error(sp);
            }
            self.err(member.span, format!("no member named '{}' in '{}'", member.name, self.show(&b.ty.unqual())));
            return Expr::error(sp);
        };
        let decl_span = self.field_span(owner, &member.name);
        if !self.check_access(owner, acc, &member.name, decl_span, member.span) {
            return Expr::error(sp);
        }
        // A member of an xvalue (`std::move(p).first`) is an xvalue.
        let of_xvalue = b.xvalue && !matches!(fty.ty, Ty::Ref(_));
        let b = self.materialize(b);
        let t = QTy { ty: fty.ty.clone(), c: fty.c || b.ty.c, v: fty.v || b.ty.v };
        let e = Expr::new(ExprKind::Member(bx(b), r, path), t, true, sp);
        if of_xvalue {
            return e.into_xvalue();
        }
        self.deref_reference(e)
    }

    /// The arguments of a call to a user function: a `const` local stays the object it
    /// names (an lvalue of `const T`, which picks `f(const T&)` over `f(T&&)`) instead of
    /// its folded value; by-value parameters still read the same value.
    pub(crate) fn user_call_args(&mut self, args: &[ast::Expr]) -> Vec<Expr> {
        args.iter().map(|a| self.user_call_arg(a)).collect()
    }

    pub(crate) fn user_call_arg(&mut self, a: &ast::Expr) -> Expr {
        self.object_operand(a)
    }

    /// Checks an operand used as an object (of `&`, `++`, assignment): a `const` local
    /// there names the variable itself, not its folded constant value.
    fn object_operand(&mut self, x: &ast::Expr) -> Expr {
        self.without_const_folding(|c| c.expr(x))
    }

    pub(crate) fn object_operand_pub(&mut self, x: &ast::Expr) -> Expr {
        self.object_operand(x)
    }

    /// Runs `f` with `const` locals naming their objects rather than their folded values
    /// (the value is read at the lvalue-to-rvalue conversion instead).
    pub(crate) fn without_const_folding<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let fold = self.fcx.as_mut().map(|f| std::mem::replace(&mut f.fold_const_locals, false));
        let v = f(self);
        if let (Some(f), Some(fold)) = (self.fcx.as_mut(), fold) {
            f.fold_const_locals = fold;
        }
        v
    }

    /// What `auto` stands for in `auto&& x = e` / `auto& x = e` (`base`: the written
    /// cv) with an lvalue `e`: `T&` for a forwarding reference, so `x` names `e`'s
    /// object, and `e`'s own cv-qualified type for `auto&`; `None` where plain deduction
    /// from `e`'s value applies.
    pub(crate) fn auto_reference_deduction(&mut self, v: &Expr, derived: &[ast::Derived], base: &QTy) -> Option<QTy> {
        if !v.lvalue || v.is_error() {
            return None;
        }
        match derived.first() {
            Some(ast::Derived::Reference { rvalue: true }) if !v.xvalue => Some(QTy::new(Ty::Ref(Box::new(v.ty.clone())))),
            Some(ast::Derived::Reference { rvalue: false }) => Some(QTy { ty: v.ty.ty.clone(), c: v.ty.c || base.c, v: v.ty.v || base.v }),
            _ => None,
        }
    }

    fn unary(&mut self, op: UnOp, x: &ast::Expr, sp: Span) -> Expr {
        if op == UnOp::AddrOf {
            if let Some(e) = self.member_pointer_of(x, sp) {
                return e;
            }
        }
        let v = match op {
            UnOp::AddrOf | UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec => self.object_operand(x),
            _ => self.expr(x),
        };
        if v.is_error() {
            return Expr::error(sp);
        }
        if self.is_class_or_enum(&v) && !matches!(op, UnOp::AddrOf) {
            let (name, post) = match op {
                UnOp::Neg => ("operator-", false),
                UnOp::Plus => ("operator+", false),
                UnOp::Not => ("operator!", false),
                UnOp::BitNot => ("operator~", false),
                UnOp::Deref => ("operator*", false),
                UnOp::PreInc => ("operator++", false),
                UnOp::PreDec => ("operator--", false),
                UnOp::PostInc => ("operator++", true),
                UnOp::PostDec => ("operator--", true),
                UnOp::AddrOf => unreachable!(),
            };
            let mut operands = vec![v.clone()];
            if post {
                operands.push(mk_int(0, int_ty(IntKind::Int), sp));
            }
            if let Some(r) = self.overloaded_operator(name, operands, sp) {
                return r;
            }
            if matches!(v.ty.ty, Ty::Record(_)) {
                let c = self.class_to_scalar(v.clone());
                if !matches!(c.ty.ty, Ty::Record(_)) && !matches!(op, UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec) {
                    return self.unary_builtin(op, c, sp);
                }
                self.err(sp, format!("invalid argument type '{}' to unary expression", self.show(&v.ty)));
                return Expr::error(sp);
            }
        }
        self.unary_builtin(op, v, sp)
    }

    fn unary_builtin(&mut self, op: UnOp, v: Expr, sp: Span) -> Expr {
        match op {
            UnOp::Neg | UnOp::Plus => {
                let v = self.rvalue(v);
                if !v.ty.ty.is_arith() {
                    self.err(sp, format!("invalid argument type '{}' to unary expression", self.show(&v.ty)));
                    return Expr::error(sp);
                }
                let v = self.promote(v);
                if op == UnOp::Plus {
                    return v;
                }
                let t = v.ty.clone();
                Expr::new(ExprKind::Neg(bx(v)), t, false, sp)
            }
            UnOp::Not => {
                let v = self.to_bool(v);
                Expr::new(ExprKind::LNot(bx(v)), QTy::new(Ty::Bool), false, sp)
            }
            UnOp::BitNot => {
                let v = self.rvalue(v);
                if !v.ty.ty.is_integer() {
                    self.err(sp, format!("invalid argument type '{}' to unary expression", self.show(&v.ty)));
                    return Expr::error(sp);
                }
                let v = self.promote(v);
                let t = v.ty.clone();
                Expr::new(ExprKind::BitNot(bx(v)), t, false, sp)
            }
            UnOp::Deref => {
                let v = self.rvalue(v);
                self.deref(v, sp)
            }
            UnOp::AddrOf => {
                if matches!(v.ty.ty, Ty::Func(_)) {
                    return self.func_to_ptr(v);
                }
                if bitfield_of(&self.prog.types, &v).is_some() {
                    self.err(sp, "address of bit-field requested");
                    return Expr::error(sp);
                }
                if !v.lvalue {
                    self.err(sp, format!("cannot take the address of an rvalue of type '{}'", self.show(&v.ty)));
                    return Expr::error(sp);
                }
                let t = QTy::new(Ty::ptr(v.ty.clone()));
                Expr::new(ExprKind::AddrOf(bx(v)), t, false, sp)
            }
            UnOp::PreInc | UnOp::PreDec | UnOp::PostInc | UnOp::PostDec => {
                if !self.check_modifiable(&v, sp) {
                    return Expr::error(sp);
                }
                if !(v.ty.ty.is_arith() || v.ty.ty.is_pointer()) || matches!(v.ty.ty, Ty::Enum(_)) {
                    self.err(sp, format!("cannot increment value of type '{}'", self.show(&v.ty)));
                    return Expr::error(sp);
                }
                let inc = matches!(op, UnOp::PreInc | UnOp::PostInc);
                let post = matches!(op, UnOp::PostInc | UnOp::PostDec);
                let t = v.ty.clone();
                Expr::new(ExprKind::IncDec { inc, post, expr: bx(v) }, if post { t.unqual() } else { t }, !post, sp)
            }
        }
    }

    pub(crate) fn arith(&mut self, op: HB, a: Expr, b: Expr, sp: Span) -> Expr {
        let a = self.rvalue(a);
        let b = self.rvalue(b);
        if a.is_error() || b.is_error() {
            return Expr::error(sp);
        }
        let int_only = matches!(op, HB::Rem | HB::And | HB::Or | HB::Xor | HB::Shl | HB::Shr);
        let bad = if int_only { !a.ty.ty.is_integer() || !b.ty.ty.is_integer() } else { !a.ty.ty.is_arith() || !b.ty.ty.is_arith() };
        if bad {
            self.err(sp, format!("invalid operands to binary expression ('{}' and '{}')", self.show(&a.ty), self.show(&b.ty)));
            return Expr::error(sp);
        }
        if matches!(op, HB::Shl | HB::Shr) {
            let a = self.promote(a);
            let t = a.ty.ty.clone();
            let b = self.promote(b);
            let b = self.cast(b, &t);
            return Expr::new(ExprKind::Binary(op, bx(a), bx(b)), QTy::new(t), false, sp);
        }
        let t = common_type(&self.prog.types, &a.ty.ty, &b.ty.ty);
        let a = self.cast(a, &t);
        let b = self.cast(b, &t);
        let rt = if op.is_comparison() { Ty::Bool } else { t };
        Expr::new(ExprKind::Binary(op, bx(a), bx(b)), QTy::new(rt), false, sp)
    }

    fn binary(&mut self, op: AB, l: &ast::Expr, r: &ast::Expr, sp: Span) -> Expr {
        let a = self.expr(l);
        let b = self.expr(r);
        if a.is_error() || b.is_error() {
            return Expr::error(sp);
        }
        if matches!(a.ty.ty, Ty::MemberPtr { .. }) || matches!(b.ty.ty, Ty::MemberPtr { .. }) {
            match op {
                AB::Eq | AB::Ne => return self.member_ptr_compare(op == AB::Eq, a, b, sp),
                AB::LogAnd | AB::LogOr | AB::Comma => {}
                _ => {
                    self.err(sp, format!("invalid operands to binary expression ('{}' and '{}')", self.show(&a.ty), self.show(&b.ty)));
                    return Expr::error(sp);
                }
            }
        }
        if self.is_class_or_enum(&a) || self.is_class_or_enum(&b) {
            if let Some(e) = self.overloaded_operator(super::cxxexpr::binop_name(op), vec![a.clone(), b.clone()], sp) {
                return e;
            }
        }
        let (a, b) = if op != AB::Comma && (matches!(a.ty.ty, Ty::Record(_)) || matches!(b.ty.ty, Ty::Record(_))) {
            (self.class_to_scalar(a), self.class_to_scalar(b))
        } else {
            (a, b)
        };
        let hop = match op {
            AB::Mul => HB::Mul,
            AB::Div => HB::Div,
            AB::Rem => HB::Rem,
            AB::Add => HB::Add,
            AB::Sub => HB::Sub,
            AB::Shl => HB::Shl,
            AB::Shr => HB::Shr,
            AB::Lt => HB::Lt,
            AB::Gt => HB::Gt,
            AB::Le => HB::Le,
            AB::Ge => HB::Ge,
            AB::Eq => HB::Eq,
            AB::Ne => HB::Ne,
            AB::BitAnd => HB::And,
            AB::BitXor => HB::Xor,
            AB::BitOr => HB::Or,
            AB::LogAnd | AB::LogOr => {
                let a = self.to_bool(a);
                let b = self.to_bool(b);
                let k = if op == AB::LogAnd { ExprKind::LogAnd(bx(a), bx(b)) } else { ExprKind::LogOr(bx(a), bx(b)) };
                return Expr::new(k, QTy::new(Ty::Bool), false, sp);
            }
            AB::Comma => {
                let t = b.ty.clone();
                let lv = b.lvalue;
                return Expr::new(ExprKind::Comma(bx(a), bx(b)), t, lv, sp);
            }
        };
        let a = self.rvalue(a);
        let b = self.rvalue(b);
        let (ap, bp) = (a.ty.ty.is_pointer(), b.ty.ty.is_pointer());
        match hop {
            HB::Add if ap && b.ty.ty.is_integer() => self.ptr_add(a, b, sp),
            HB::Add if bp && a.ty.ty.is_integer() => self.ptr_add(b, a, sp),
            HB::Sub if ap && b.ty.ty.is_integer() => {
                // Negate in 64 bits: `p - u` with an `unsigned int` u moves back u
                // elements, which the 32-bit negation (zero-extended) would not.
                let b = self.promote(b);
                let b = self.cast(b, &int_ty(IntKind::LongLong).ty);
                let t = b.ty.clone();
                let bs = b.span;
                let n = Expr::new(ExprKind::Neg(bx(b)), t, false, bs);
                self.ptr_add(a, n, sp)
            }
            HB::Sub if ap && bp => {
                if a.ty.ty.pointee().map(|t| &t.ty) != b.ty.ty.pointee().map(|t| &t.ty) {
                    self.err(sp, format!("'{}' and '{}' are not pointers to compatible types", self.show(&a.ty), self.show(&b.ty)));
                    return Expr::error(sp);
                }
                Expr::new(ExprKind::PtrDiff(bx(a), bx(b)), int_ty(IntKind::Long), false, sp)
            }
            _ if hop.is_comparison() && (ap || bp || a.ty.ty == Ty::Nullptr || b.ty.ty == Ty::Nullptr) => {
                let (a, b) = if ap && !bp {
                    let t = a.ty.clone();
                    (a, self.convert(b, &t, "comparison"))
                } else if bp && !ap {
                    let t = b.ty.clone();
                    (self.convert(a, &t, "comparison"), b)
                } else if ap && bp {
                    let (pa, pb) = (a.ty.ty.pointee().unwrap().clone(), b.ty.ty.pointee().unwrap().clone());
                    if pa.ty == pb.ty || pa.ty == Ty::Void || pb.ty == Ty::Void {
                        let t = if pa.ty == Ty::Void { a.ty.ty.clone() } else { b.ty.ty.clone() };
                        (self.cast(a, &t), self.cast(b, &t))
                    } else {
                        self.err(sp, format!("comparison of distinct pointer types ('{}' and '{}')", self.show(&a.ty), self.show(&b.ty)));
                        return Expr::error(sp);
                    }
                } else {
                    (a, b)
                };
                if a.is_error() || b.is_error() {
                    return Expr::error(sp);
                }
                Expr::new(ExprKind::Binary(hop, bx(a), bx(b)), QTy::new(Ty::Bool), false, sp)
            }
            _ => self.arith(hop, a, b, sp),
        }
    }

    fn assign(&mut self, op: Option<AB>, l: &ast::Expr, r: &ast::Expr, sp: Span) -> Expr {
        let lhs = self.object_operand(l);
        let rhs = self.expr(r);
        if lhs.is_error() || rhs.is_error() {
            return Expr::error(sp);
        }
        if self.is_class_or_enum(&lhs) {
            let name = match op {
                None => "operator=".to_string(),
                Some(o) => format!("{}=", super::cxxexpr::binop_name(o)),
            };
            if let Ty::Record(rr) = lhs.ty.ty {
                // Assignment operators are members only.
                let cands = self.lookup_methods(rr, &name);
                // Without a user-declared copy assignment, `a = b` from the same class is
                // the implicit one, whatever other assignment operators the class has.
                let implicit_copy = op.is_none()
                    && matches!(rhs.ty.ty, Ty::Record(x) if x == rr || self.is_base_of(rr, x))
                    && !cands.iter().any(|c| self.is_copy_assign(*c, rr));
                if !cands.is_empty() && !implicit_copy {
                    return self.method_call(lhs, cands, &name, vec![rhs], sp, sp);
                }
            }
            if op.is_some() {
                if let Some(e) = self.overloaded_operator(&name, vec![lhs.clone(), rhs.clone()], sp) {
                    return e;
                }
            }
        }
        let rhs = if matches!(rhs.ty.ty, Ty::Record(_)) && !matches!(lhs.ty.ty, Ty::Record(_)) { self.class_to_scalar(rhs) } else { rhs };
        let rhs = if op.is_none() && matches!(lhs.ty.ty, Ty::Record(_)) && !rhs.lvalue && self.needs_dtor(&rhs.ty.ty) {
            // The temporary assigned from is destroyed at the end of the full-expression.
            self.materialize(rhs)
        } else {
            rhs
        };
        if !self.check_modifiable(&lhs, l.span) {
            return Expr::error(sp);
        }
        let lt = lhs.ty.clone();
        let Some(op) = op else {
            let rhs = self.convert(rhs, &lt.unqual(), "assignment");
            if rhs.is_error() {
                return Expr::error(sp);
            }
            return Expr::new(ExprKind::Assign(bx(lhs), bx(rhs)), lt, true, sp);
        };
        let rhs = self.rvalue(rhs);
        let hop = match op {
            AB::Mul => HB::Mul,
            AB::Div => HB::Div,
            AB::Rem => HB::Rem,
            AB::Add => HB::Add,
            AB::Sub => HB::Sub,
            AB::Shl => HB::Shl,
            AB::Shr => HB::Shr,
            AB::BitAnd => HB::And,
            AB::BitXor => HB::Xor,
            AB::BitOr => HB::Or,
            _ => {
                self.err(sp, "invalid compound assignment");
                return Expr::error(sp);
            }
        };
        if lt.ty.is_pointer() && matches!(hop, HB::Add | HB::Sub) && rhs.ty.ty.is_integer() {
            let rhs = self.promote(rhs);
            let comp = lt.unqual();
            return Expr::new(ExprKind::CompoundAssign { op: hop, lhs: bx(lhs), rhs: bx(rhs), comp }, lt, true, sp);
        }
        let int_only = matches!(hop, HB::Rem | HB::And | HB::Or | HB::Xor | HB::Shl | HB::Shr);
        let ok = if int_only { lt.ty.is_integer() && rhs.ty.ty.is_integer() } else { lt.ty.is_arith() && rhs.ty.ty.is_arith() };
        if !ok {
            self.err(sp, format!("invalid operands to binary expression ('{}' and '{}')", self.show(&lt), self.show(&rhs.ty)));
            return Expr::error(sp);
        }
        let comp = if matches!(hop, HB::Shl | HB::Shr) {
            promoted(&self.prog.types, &lt.ty)
        } else {
            common_type(&self.prog.types, &lt.ty, &rhs.ty.ty)
        };
        let rhs = if matches!(hop, HB::Shl | HB::Shr) { self.promote(rhs) } else { rhs };
        let rhs = self.cast(rhs, &comp);
        Expr::new(ExprKind::CompoundAssign { op: hop, lhs: bx(lhs), rhs: bx(rhs), comp: QTy::new(comp) }, lt, true, sp)
    }

    fn cond(&mut self, c: &ast::Expr, t: &ast::Expr, f: &ast::Expr, sp: Span) -> Expr {
        let c = self.expr(c);
        let c = self.to_bool(c);
        let a = self.expr(t);
        let b = self.expr(f);
        if c.is_error() || a.is_error() || b.is_error() {
            return Expr::error(sp);
        }
        if a.lvalue && b.lvalue && a.ty == b.ty && !matches!(a.ty.ty, Ty::Array(..) | Ty::Func(_)) {
            let ty = a.ty.clone();
            return Expr::new(ExprKind::Cond(bx(c), bx(a), bx(b)), ty, true, sp);
        }
        let a = self.rvalue(a);
        let b = self.rvalue(b);
        let (ta, tb) = (a.ty.ty.clone(), b.ty.ty.clone());
        let ty = if ta == tb && matches!(ta, Ty::Enum(_)) {
            // Both operands of one enumeration type: the result has that type.
            ta.clone()
        } else if ta.is_arith() && tb.is_arith() {
            common_type(&self.prog.types, &ta, &tb)
        } else if ta == tb {
            ta.clone()
        } else if ta.is_pointer() && (self.is_null_const(&b) || tb == Ty::Nullptr) {
            ta.clone()
        } else if tb.is_pointer() && (self.is_null_const(&a) || ta == Ty::Nullptr) {
            tb.clone()
        } else if let (Ty::Ptr(pa), Ty::Ptr(pb)) = (&ta, &tb) {
            if pa.ty == pb.ty {
                Ty::ptr(QTy { ty: pa.ty.clone(), c: pa.c || pb.c, v: pa.v || pb.v })
            } else if pa.ty == Ty::Void || pb.ty == Ty::Void {
                Ty::ptr(QTy { ty: Ty::Void, c: pa.c || pb.c, v: pa.v || pb.v })
            } else {
                self.err(sp, format!("incompatible operand types ('{}' and '{}')", self.show(&a.ty), self.show(&b.ty)));
                return Expr::error(sp);
            }
        } else {
            self.err(sp, format!("incompatible operand types ('{}' and '{}')", self.show(&a.ty), self.show(&b.ty)));
            return Expr::error(sp);
        };
        let q = QTy::new(ty.clone());
        let (a, b) = if ty == Ty::Void || matches!(ty, Ty::Record(_)) {
            (a, b)
        } else {
            (self.convert(a, &q, "conditional expression"), self.convert(b, &q, "conditional expression"))
        };
        Expr::new(ExprKind::Cond(bx(c), bx(a), bx(b)), q, false, sp)
    }

    pub(crate) fn explicit_cast(&mut self, v: Expr, t: &QTy, _style: ast::CastStyle, sp: Span) -> Expr {
        if v.is_error() || t.ty.is_error() {
            return Expr::error(sp);
        }
        if t.ty == Ty::Void {
            return Expr::new(ExprKind::ToVoid(bx(v)), QTy::new(Ty::Void), false, sp);
        }
        if let Ty::Ref(target) = &t.ty {
            let rref = overload::is_rvalue_ref(t);
            if rref && !v.lvalue {
                // `static_cast<T&&>(prvalue)`: the materialized temporary.
                if v.ty.ty == target.ty {
                    return Expr { span: sp, ..v };
                }
                let v = self.explicit_cast(v, &target.unqual(), _style, sp);
                return Expr { span: sp, ..v };
            }
            // `(T&)x`: reinterpret the object; `(T&&)x`: the same object as an xvalue.
            if !v.lvalue {
                self.err(sp, "cannot cast an rvalue to a reference type");
                return Expr::error(sp);
            }
            let pt = QTy::new(Ty::ptr((**target).clone()));
            let a = Expr::new(ExprKind::AddrOf(bx(v)), pt.clone(), false, sp);
            let a = Expr::new(ExprKind::Cast(bx(a)), pt, false, sp);
            let e = Expr::new(ExprKind::Deref(bx(a)), (**target).clone(), true, sp);
            return if rref { e.into_xvalue() } else { e };
        }
        if matches!(v.ty.ty, Ty::Record(_)) && t.ty.is_scalar() {
            let mut e = self.cast_class_to_scalar(v, t, sp);
            e.span = sp;
            return e;
        }
        if matches!(t.ty, Ty::Record(_)) && v.ty.ty != t.ty {
            // `(__half)x`: a cast to a class is the construction `__half(x)`.
            return self.construct_class(t.unqual(), vec![v], sp);
        }
        let v = self.rvalue(v);
        let from = v.ty.ty.clone();
        if from == t.ty {
            let mut v = v;
            v.span = sp;
            return v;
        }
        let ok = (from.is_scalar() && t.ty.is_scalar() && t.ty != Ty::Nullptr)
            && !(from.is_float() && t.ty.is_pointer())
            && !(from.is_pointer() && t.ty.is_float());
        if !ok {
            self.err(sp, format!("cannot cast from type '{}' to '{}'", self.show(&v.ty), self.show(&t.unqual())));
            return Expr::error(sp);
        }
        let mut e = self.cast(v, &t.ty);
        e.span = sp;
        e
    }

    // ------------------------------------------------------------------ calls

    pub(crate) fn caller_desc(&self) -> String {
        let f = self.fcx.as_ref().unwrap();
        let q = match f.space {
            ExecSpace::Global => "__global__",
            ExecSpace::Device => "__device__",
            ExecSpace::HostDevice => "__host__ __device__",
            ExecSpace::Host => "__host__",
        };
        format!("{q} function(\"{}\")", f.name)
    }

    /// Whether every one of these functions has a parameter whose type is a class (or a
    /// pointer, reference or array of one).
    fn overloads_take_classes(&self, ids: &[FnId]) -> bool {
        ids.iter().all(|i| self.prog.functions[i.0 as usize].sig.params.iter().any(|p| involves_class(&p.ty)))
    }

    /// Whether any argument's type is a class, or a pointer, reference or array of one
    /// (checked silently: the call checks its arguments again).
    fn args_involve_class(&mut self, args: &[ast::Expr]) -> bool {
        self.silent += 1;
        let found = args.iter().any(|a| involves_class(&self.expr(a).ty.ty));
        self.silent -= 1;
        found
    }

    fn user_has_body(&self, ids: &[FnId]) -> bool {
        ids.iter().any(|i| {
            let f = &self.prog.functions[i.0 as usize];
            f.builtin_name.is_none() && (f.def.is_some() || f.body.is_some()) && !f.in_system_header
        })
    }

    /// The device builtin a call through `path` names: `f` or `std::f` in device code,
    /// where `f` is one of CUDA's builtins (whatever else the program declares `f` to be).
    pub(crate) fn builtin_named(&self, path: &ast::Path) -> Option<Class> {
        let n = path.segments.len();
        let plain_or_std = n == 1 || (n == 2 && path.segments[0].name == "std");
        if !plain_or_std || self.fcx.is_none() {
            return None;
        }
        builtins::classify(&path.last().name)
    }

    fn call(&mut self, callee: &ast::Expr, args: &[ast::Expr], sp: Span) -> Expr {
        // Member function templates (`obj.f<int>(x)`, `obj.f(x)`): `instantiate.rs`.
        if let Some(e) = self.member_template_call(callee, args, sp) {
            return e;
        }
        let path = match &callee.kind {
            ast::ExprKind::Name(p) => p.clone(),
            ast::ExprKind::Member { base, member, arrow } => {
                // `obj.f(args)` / `p->f(args)`.
                let b = self.expr(base);
                if b.is_error() {
                    for a in args {
                        self.expr(a);
                    }
                    return Expr::error(sp);
                }
                let obj = if *arrow {
                    let b = self.rvalue(b);
                    if !matches!(b.ty.ty.pointee().map(|t| &t.ty), Some(Ty::Record(_))) {
                        self.err(sp, format!("member reference type '{}' is not a pointer to a structure", self.show(&b.ty)));
                        return Expr::error(sp);
                    }
                    self.deref(b, base.span)
                } else {
                    b
                };
                let Ty::Record(r) = obj.ty.ty.clone() else {
                    self.err(sp, format!("member reference base type '{}' is not a structure or union", self.show(&obj.ty)));
                    return Expr::error(sp);
                };
                if member.name.starts_with('~') {
                    return self.explicit_dtor_call(obj, member, args, sp);
                }
                let cands = self.lookup_methods(r, &member.name);
                let hargs: Vec<Expr> = self.user_call_args(args);
                if cands.is_empty() {
                    if self.lookup_field(r, &member.name).is_some() {
                        // A data member of class type called: its `operator()`; a
                        // pointer to function: a call through it.
                        let f = self.member(base, member, *arrow, callee.span);
                        if !matches!(f.ty.ty, Ty::Record(_)) {
                            return self.call_through_ptr(f, hargs, sp);
                        }
                        return self.call_object(f, hargs, callee.span, sp);
                    }
                    self.err(member.span, format!("no member named '{}' in '{}'", member.name, self.show(&obj.ty.unqual())));
                    return Expr::error(sp);
                }
                return self.method_call(obj, cands, &member.name, hargs, member.span, sp);
            }
            ast::ExprKind::MemberPtrAccess { base, member, arrow } => return self.member_ptr_call(base, member, *arrow, args, sp),
            _ => {
                let f = self.expr(callee);
                let hargs: Vec<Expr> = args.iter().map(|a| self.expr(a)).collect();
                if matches!(f.ty.ty, Ty::Record(_)) {
                    return self.call_object(f, hargs, callee.span, sp);
                }
                if let ExprKind::FuncRef(fid) = f.kind {
                    // `(f)(args)`: a direct call.
                    if hargs.iter().any(|a| a.is_error()) {
                        return Expr::error(sp);
                    }
                    return self.user_call_this(fid, hargs, None, callee.span, sp);
                }
                return self.call_through_ptr(f, hargs, sp);
            }
        };
        // A block-scope typedef: `I(x)` constructs (or casts to) the type, as at file scope.
        if path.segments.len() == 1 && !path.global && self.shadowed_locally(&path.last().name) {
            if let Some(Sym::Typedef(t)) = self.lookup(&path) {
                return self.construct(t, args, sp);
            }
        }
        // A local or member object of class type: `f(args)` is `f.operator()(args)`.
        if path.segments.len() == 1 && !path.global {
            let n = &path.last().name;
            let is_obj = if self.shadowed_locally(n) {
                true
            } else {
                self.fcx.as_ref().and_then(|f| f.class).is_some_and(|c| self.lookup_field(c, n).is_some())
            };
            if is_obj {
                let f = self.expr(callee);
                if matches!(f.ty.ty, Ty::Record(_)) {
                    let hargs: Vec<Expr> = args.iter().map(|a| self.expr(a)).collect();
                    return self.call_object(f, hargs, callee.span, sp);
                }
                if f.is_error() {
                    return f;
                }
                let hargs: Vec<Expr> = args.iter().map(|a| self.expr(a)).collect();
                return self.call_through_ptr(f, hargs, sp);
            }
        }
        let name = path.last().name.clone();
        if path.segments.len() == 1 && self.shadowed_locally(&name) {
            let f = self.expr(callee);
            let hargs: Vec<Expr> = args.iter().map(|a| self.expr(a)).collect();
            return self.call_through_ptr(f, hargs, sp);
        }
        // The C library's INFINITY, NAN and HUGE_VAL(F) expand to these GCC builtins.
        if path.segments.len() == 1 && !path.global {
            let constant = match name.as_str() {
                "__builtin_inff" | "__builtin_huge_valf" => Some((f64::INFINITY, Ty::Float)),
                "__builtin_inf" | "__builtin_huge_val" => Some((f64::INFINITY, Ty::Double)),
                "__builtin_nanf" => Some((f64::NAN, Ty::Float)),
                "__builtin_nan" => Some((f64::NAN, Ty::Double)),
                _ => None,
            };
            if let Some((v, t)) = constant {
                for a in args {
                    self.expr(a);
                }
                return Expr::new(ExprKind::Float(v), QTy::new(t), false, sp);
            }
        }
        if let Some(e) = self.std_move_or_forward(&path, args, sp) {
            return e;
        }
        // Function templates (`f(x)`, `f<int>(x)`): `instantiate.rs`.
        if let Some(e) = self.template_call(&path, args, callee.span, sp) {
            return e;
        }
        let sym = self.lookup(&path);
        let builtin = self.builtin_named(&path);
        let user = match &sym {
            Some(Sym::Funcs(ids)) => self.user_has_body(ids),
            _ => false,
        };
        if let Some(class) = builtin.clone() {
            let is_fn_or_none = matches!(sym, None | Some(Sym::Funcs(_)));
            // A header may add overloads of a builtin for its own classes
            // (`__shfl_sync(unsigned, __half, int, int)` in cuda_fp16.h): when every
            // declared overload takes a class, calls with an argument of class type go
            // to those and the others stay builtin. (Overloads of other shapes, a
            // program's own `max(float3, float3)`, are tried first; the builtin takes the
            // calls none of them fits, below.)
            let beside = match &sym {
                Some(Sym::Funcs(ids)) if user => self.overloads_take_classes(ids) && !self.args_involve_class(args),
                _ => false,
            };
            if is_fn_or_none && (!user || beside) {
                return self.builtin_call(&name, class, args, callee.span, sp);
            }
        }
        match sym {
            Some(Sym::Funcs(ids)) => {
                let mut hargs = Vec::new();
                for a in args {
                    hargs.push(self.user_call_arg(a));
                }
                if hargs.iter().any(|a| a.is_error()) {
                    return Expr::error(sp);
                }
                let is_method = ids.iter().any(|i| self.prog.functions[i.0 as usize].has_this());
                if is_method {
                    // A member function named without an object: `this->f(args)`.
                    let obj = self.this_object(sp);
                    let Some(obj) = obj else {
                        let all_static = ids.iter().all(|i| !self.prog.functions[i.0 as usize].has_this());
                        if !all_static {
                            let shown = path_str(&path);
                            self.silent += 1;
                            let fid = self.resolve_overload(&ids, None, &hargs, &format!("function '{shown}'"), sp, true);
                            self.silent -= 1;
                            if fid.is_some_and(|f| !self.prog.functions[f.0 as usize].has_this()) {
                                return self.user_call_this(fid.unwrap(), hargs, None, callee.span, sp);
                            }
                            self.err(callee.span, format!("call to non-static member function '{shown}' without an object argument"));
                            return Expr::error(sp);
                        }
                        return Expr::error(sp);
                    };
                    let e = self.method_call(obj, ids, &name, hargs, callee.span, sp);
                    // `Base::f()` names its class: not a virtual call.
                    return if path.segments.len() > 1 { super::virtuals::devirtualize(e) } else { e };
                }
                // CUDA's own overloads of a builtin (`max(float, float)`) are candidates
                // beside a program's functions of the same name (helper_math.h's
                // `max(float3, float3)`): the builtin takes the call none of them fits.
                if let Some(class) = builtin {
                    self.silent += 1;
                    let fits = self.resolve_overload(&ids, None, &hargs, &format!("function for call to '{name}'"), sp, true);
                    self.silent -= 1;
                    if fits.is_none() {
                        return self.builtin_call(&name, class, args, callee.span, sp);
                    }
                }
                let Some(fid) = self.resolve_overload(&ids, None, &hargs, &format!("function for call to '{name}'"), sp, true) else { return Expr::error(sp) };
                self.user_call_this(fid, hargs, None, callee.span, sp)
            }
            Some(Sym::Typedef(t)) => self.construct(t, args, sp),
            Some(Sym::Var(_)) => {
                // A variable holding a pointer to function (or an object with `operator()`).
                let f = self.expr(callee);
                let hargs: Vec<Expr> = args.iter().map(|a| self.expr(a)).collect();
                if matches!(f.ty.ty, Ty::Record(_)) {
                    return self.call_object(f, hargs, callee.span, sp);
                }
                self.call_through_ptr(f, hargs, sp)
            }
            Some(_) => {
                self.err(callee.span, format!("called object type is not a function or function pointer"));
                Expr::error(sp)
            }
            None => {
                if let Some(Tag::Record(r)) = self.lookup_tag(&path) {
                    return self.construct(QTy::new(Ty::Record(r)), args, sp);
                }
                if let Some((reason, err, decl_span)) = self.lookup_skipped(&path) {
                    if reason == ast::SkipReason::HostOnly && self.fcx.as_ref().is_some_and(|f| f.space != ExecSpace::Host) {
                        let d = Diagnostic::error(
                            callee.span,
                            format!("calling a __host__ function(\"{name}\") from a {} is not allowed", self.caller_desc()),
                        )
                        .with_note(Some(decl_span), format!("'{name}' is declared here without __device__"));
                        self.diag(d);
                    } else {
                        self.skipped_error(callee.span, &name, reason, err);
                    }
                } else {
                    self.err(callee.span, format!("use of undeclared identifier '{}'", path_str(&path)));
                }
                for a in args {
                    self.expr(a);
                }
                Expr::error(sp)
            }
        }
    }

    fn construct(&mut self, t: QTy, args: &[ast::Expr], sp: Span) -> Expr {
        if let Some(i) = self.dim3_ctor(&t, args, sp) {
            return match i {
                Some(i) => Expr::new(ExprKind::InitTemp(Box::new(i)), t.unqual(), true, sp),
                None => Expr::error(sp),
            };
        }
        if args.is_empty() {
            if t.ty.is_scalar() {
                return self.cast(mk_int(0, int_ty(IntKind::Int), sp), &t.ty);
            }
            if self.needs_ctor(&t.ty) {
                return self.construct_class(t, vec![], sp);
            }
            return Expr::new(ExprKind::InitTemp(Box::new(Init::Zero(t.unqual()))), t.unqual(), true, sp);
        }
        if args.len() == 1 && t.ty.is_scalar() {
            let v = self.expr(&args[0]);
            return self.explicit_cast(v, &t, ast::CastStyle::Functional, sp);
        }
        if matches!(t.ty, Ty::Record(_)) {
            let vals: Vec<Expr> = args.iter().map(|a| self.expr(a)).collect();
            return self.construct_class(t, vals, sp);
        }
        self.err(sp, format!("cannot construct a value of type '{}' from {} arguments", self.show(&t), args.len()));
        Expr::error(sp)
    }

    fn check_arity(&mut self, name: &str, args: &[ast::Expr], n: usize, sp: Span) -> bool {
        if args.len() != n {
            self.err(
                sp,
                format!("too {} arguments to function call '{name}', expected {n}, have {}", if args.len() > n { "many" } else { "few" }, args.len()),
            );
            for a in args {
                self.expr(a);
            }
            return false;
        }
        true
    }

    /// A warp collective: CUDA's overloads, operands converted to the IR op's types
    /// (`ir::WarpOp`); the legacy mask-less forms get the full mask.
    fn warp_call(&mut self, name: &str, op: ir::WarpOp, legacy: bool, args: &[ast::Expr], sp: Span) -> Expr {
        use ir::WarpOp as W;
        let uint = int_ty(IntKind::UInt);
        let int = int_ty(IntKind::Int);
        // Number of operands after the mask, and how many of them may be left out.
        let (rest, optional) = match op {
            W::Shfl(_) => (3, 1),
            W::Vote(_) | W::MatchAny | W::Reduce(_) => (1, 0),
            W::MatchAll => (2, 0),
            W::ActiveMask => (0, 0),
            W::SyncWarp | W::Yield => (0, 0),
            W::Lockstep => {
                self.err(sp, format!("internal compiler error: '{name}' names a warp operation that only back-ends insert"));
                return Expr::error(sp);
            }
        };
        let has_mask = !legacy && !matches!(op, W::ActiveMask | W::Yield);
        let min = rest - optional + has_mask as usize;
        let max = if op == W::SyncWarp { 1 } else { rest + has_mask as usize };
        let min = if op == W::SyncWarp { 0 } else { min };
        if args.len() < min || args.len() > max {
            let n = if args.len() > max { max } else { min };
            self.check_arity(name, args, n, sp);
            return Expr::error(sp);
        }
        let mut it = args.iter();
        let mask = if has_mask && !(op == W::SyncWarp && args.is_empty()) {
            let m = self.expr(it.next().unwrap());
            self.convert(m, &uint, "argument passing")
        } else {
            mk_int(0xffff_ffff, uint.clone(), sp)
        };
        let mut out = vec![mask];
        let value_of = |this: &mut Self, a: &ast::Expr| -> Expr {
            let v = this.expr(a);
            let v = this.promote(v);
            if v.is_error() {
                return v;
            }
            use IntKind as K;
            match &v.ty.ty {
                Ty::Int(K::Int | K::UInt | K::Long | K::ULong | K::LongLong | K::ULongLong) | Ty::Float | Ty::Double => v,
                _ => {
                    let t = this.show(&v.ty);
                    this.err(sp, format!("no matching function for call to '{name}' with a value of type '{t}'"));
                    Expr::error(sp)
                }
            }
        };
        let ret = match op {
            W::Shfl(_) => {
                let v = value_of(self, it.next().unwrap());
                let t = v.ty.clone();
                out.push(v);
                let l = self.expr(it.next().unwrap());
                out.push(self.convert(l, &int, "argument passing"));
                let w = match it.next() {
                    Some(w) => {
                        let w = self.expr(w);
                        self.convert(w, &int, "argument passing")
                    }
                    None => mk_int(32, int.clone(), sp),
                };
                out.push(w);
                t
            }
            W::Vote(k) => {
                let p = self.expr(it.next().unwrap());
                out.push(self.to_bool(p));
                if k == ir::VoteKind::Ballot {
                    uint.clone()
                } else {
                    int.clone()
                }
            }
            W::ActiveMask => {
                out.clear();
                uint.clone()
            }
            W::Yield => {
                out.clear();
                QTy::new(Ty::Void)
            }
            W::SyncWarp | W::Lockstep => QTy::new(Ty::Void),
            W::MatchAny | W::MatchAll => {
                let v = value_of(self, it.next().unwrap());
                out.push(v);
                if op == W::MatchAll {
                    let p = self.expr(it.next().unwrap());
                    out.push(self.convert(p, &QTy::new(Ty::ptr(int.clone())), "argument passing"));
                }
                uint.clone()
            }
            W::Reduce(k) => {
                let v = self.expr(it.next().unwrap());
                let v = self.promote(v);
                if v.is_error() {
                    return Expr::error(sp);
                }
                let signed_ok = matches!(k, ir::ReduceKind::Add | ir::ReduceKind::Min | ir::ReduceKind::Max);
                let t = match &v.ty.ty {
                    Ty::Int(IntKind::Int) if signed_ok => int.clone(),
                    Ty::Int(IntKind::UInt) => uint.clone(),
                    t if !signed_ok && (t.is_integer() || t.is_arith()) => uint.clone(),
                    _ => {
                        let t = self.show(&v.ty);
                        self.err(sp, format!("no matching function for call to '{name}' with a value of type '{t}'"));
                        return Expr::error(sp);
                    }
                };
                out.push(self.convert(v, &t, "argument passing"));
                t
            }
        };
        if out.iter().any(|e| e.is_error()) {
            return Expr::error(sp);
        }
        Expr::new(ExprKind::Builtin(BuiltinKind::Warp(op), out), ret, false, sp)
    }

    fn builtin_call(&mut self, name: &str, class: Class, args: &[ast::Expr], csp: Span, sp: Span) -> Expr {
        let void = QTy::new(Ty::Void);
        let mk = |k: BuiltinKind, a: Vec<Expr>, t: QTy| Expr::new(ExprKind::Builtin(k, a), t, false, sp);
        match class {
            Class::NotYet => {
                self.err(csp, format!("`{name}` is not supported yet"));
                Expr::error(sp)
            }
            Class::Refused(what) => {
                self.err(csp, what);
                Expr::error(sp)
            }
            Class::Printf => {
                if args.is_empty() {
                    self.err(sp, "too few arguments to function call 'printf'");
                    return Expr::error(sp);
                }
                let mut out = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    let v = self.expr(a);
                    let v = self.rvalue(v);
                    if v.is_error() {
                        return Expr::error(sp);
                    }
                    let v = if i == 0 {
                        let want = QTy::new(Ty::ptr(QTy { ty: Ty::Int(IntKind::Char), c: true, v: false }));
                        self.convert(v, &want, "argument passing")
                    } else if v.ty.ty == Ty::Float {
                        self.cast(v, &Ty::Double)
                    } else if v.ty.ty.is_integer() {
                        self.promote(v)
                    } else if v.ty.ty.is_scalar() {
                        v
                    } else {
                        self.err(v.span, format!("cannot pass an object of type '{}' to printf", self.show(&v.ty)));
                        return Expr::error(sp);
                    };
                    out.push(v);
                }
                if args.len() > 33 {
                    self.err(sp, "printf in device code takes at most 32 arguments after the format");
                }
                super::printf_format::check(self, &out[0], &out[1..]);
                mk(BuiltinKind::Printf, out, int_ty(IntKind::Int))
            }
            Class::Assert => {
                if !self.check_arity(name, args, 4, sp) {
                    return Expr::error(sp);
                }
                let cp = QTy::new(Ty::ptr(QTy { ty: Ty::Int(IntKind::Char), c: true, v: false }));
                let tys = [cp.clone(), cp.clone(), int_ty(IntKind::UInt), cp];
                let mut out = Vec::new();
                for (a, t) in args.iter().zip(tys.iter()) {
                    let v = self.expr(a);
                    out.push(self.convert(v, t, "argument passing"));
                }
                if out.iter().any(|e| e.is_error()) {
                    return Expr::error(sp);
                }
                mk(BuiltinKind::AssertFail, out, void)
            }
            Class::Trap | Class::Clock | Class::Clock64 | Class::Fence(_) => {
                if !self.check_arity(name, args, 0, sp) {
                    return Expr::error(sp);
                }
                let (k, t) = match class {
                    Class::Trap => (BuiltinKind::Trap, void),
                    Class::Clock => (BuiltinKind::Clock, int_ty(IntKind::Long)),
                    Class::Clock64 => (BuiltinKind::Clock64, int_ty(IntKind::LongLong)),
                    Class::Fence(s) => (BuiltinKind::Fence(s), void),
                    _ => unreachable!(),
                };
                mk(k, vec![], t)
            }
            Class::Barrier(kind) => {
                if matches!(kind, ir::BarrierKind::Sync | ir::BarrierKind::Grid) {
                    if !self.check_arity(name, args, 0, sp) {
                        return Expr::error(sp);
                    }
                    return mk(BuiltinKind::Barrier(kind), vec![], void);
                }
                if !self.check_arity(name, args, 1, sp) {
                    return Expr::error(sp);
                }
                let v = self.expr(&args[0]);
                let v = self.to_bool(v);
                mk(BuiltinKind::Barrier(kind), vec![v], int_ty(IntKind::Int))
            }
            Class::Warp(op, legacy) => self.warp_call(name, op, legacy, args, sp),
            Class::Atomic(op, scope) => {
                let n = if op == ir::AtomicOp::Cas { 3 } else { 2 };
                if !self.check_arity(name, args, n, sp) {
                    return Expr::error(sp);
                }
                let p = self.expr(&args[0]);
                let p = self.rvalue(p);
                if p.is_error() {
                    return Expr::error(sp);
                }
                let elem = p.ty.ty.pointee().map(|t| t.ty.clone());
                use ir::AtomicOp as A;
                let ok = match &elem {
                    Some(Ty::Int(k)) if k.size() == 4 || k.size() == 8 => match op {
                        A::Inc | A::Dec => *k == IntKind::UInt,
                        _ => true,
                    },
                    Some(Ty::Float) | Some(Ty::Double) => matches!(op, A::Add | A::Sub | A::Exch),
                    _ => false,
                };
                if !ok || p.ty.ty.pointee().is_some_and(|t| t.c) {
                    let tys: Vec<String> = vec![format!("'{}'", self.show(&p.ty))];
                    self.err(sp, format!("no matching function for call to '{name}' with a first argument of type {}", tys[0]));
                    return Expr::error(sp);
                }
                let et = QTy::new(elem.unwrap());
                let mut out = vec![p];
                for a in &args[1..] {
                    let v = self.expr(a);
                    out.push(self.convert(v, &et, "argument passing"));
                }
                if out.iter().any(|e| e.is_error()) {
                    return Expr::error(sp);
                }
                mk(BuiltinKind::Atomic { op, scope }, out, et)
            }
            Class::Ldg => {
                if !self.check_arity(name, args, 1, sp) {
                    return Expr::error(sp);
                }
                let p = self.expr(&args[0]);
                let p = self.rvalue(p);
                let d = self.deref(p, sp);
                self.rvalue(d)
            }
            Class::Bitcast(from, to) => {
                if !self.check_arity(name, args, 1, sp) {
                    return Expr::error(sp);
                }
                let v = self.expr(&args[0]);
                let v = self.convert(v, &QTy::new(builtins::code_ty(from.chars().next().unwrap())), "argument passing");
                if v.is_error() {
                    return v;
                }
                Expr::new(ExprKind::Bitcast(bx(v)), QTy::new(builtins::code_ty(to.chars().next().unwrap())), false, sp)
            }
            Class::Fixed(n, params, ret) => {
                if !self.check_arity(name, args, params.len(), sp) {
                    return Expr::error(sp);
                }
                let mut out = Vec::new();
                for (a, c) in args.iter().zip(params.chars()) {
                    let v = self.expr(a);
                    out.push(self.convert(v, &QTy::new(builtins::code_ty(c)), "argument passing"));
                }
                if out.iter().any(|e| e.is_error()) {
                    return Expr::error(sp);
                }
                let kind = match n {
                    "malloc" => BuiltinKind::Malloc,
                    "free" => BuiltinKind::Free,
                    "memcpy" => BuiltinKind::Memcpy,
                    "memset" => BuiltinKind::Memset,
                    _ => match self.math_fn(n, sp) {
                        Some(f) => BuiltinKind::Math(f),
                        None => return Expr::error(sp),
                    },
                };
                mk(kind, out, QTy::new(builtins::code_ty(ret.chars().next().unwrap())))
            }
            Class::MinMax(is_max) => {
                if !self.check_arity(name, args, 2, sp) {
                    return Expr::error(sp);
                }
                let a = self.expr(&args[0]);
                let b = self.expr(&args[1]);
                let a = self.rvalue(a);
                let b = self.rvalue(b);
                if a.is_error() || b.is_error() {
                    return Expr::error(sp);
                }
                if !a.ty.ty.is_arith() || !b.ty.ty.is_arith() {
                    self.err(sp, format!("no matching function for call to '{name}' with arguments ('{}', '{}')", self.show(&a.ty), self.show(&b.ty)));
                    return Expr::error(sp);
                }
                let t = common_type(&self.prog.types, &a.ty.ty, &b.ty.ty);
                let (min, max) = match &t {
                    Ty::Float => (MathFn::Fminf, MathFn::Fmaxf),
                    Ty::Double => (MathFn::Fmin, MathFn::Fmax),
                    Ty::Int(IntKind::Int) => (MathFn::Min, MathFn::Max),
                    Ty::Int(IntKind::UInt) => (MathFn::Umin, MathFn::Umax),
                    Ty::Int(IntKind::Long) | Ty::Int(IntKind::LongLong) => (MathFn::Llmin, MathFn::Llmax),
                    _ => (MathFn::Ullmin, MathFn::Ullmax),
                };
                let a = self.cast(a, &t);
                let b = self.cast(b, &t);
                mk(BuiltinKind::Math(if is_max { max } else { min }), vec![a, b], QTy::new(t))
            }
            Class::Abs => {
                if !self.check_arity(name, args, 1, sp) {
                    return Expr::error(sp);
                }
                let a = self.expr(&args[0]);
                let a = self.rvalue(a);
                if a.is_error() {
                    return a;
                }
                if !a.ty.ty.is_arith() {
                    self.err(sp, format!("no matching function for call to 'abs' with argument '{}'", self.show(&a.ty)));
                    return Expr::error(sp);
                }
                let a = if a.ty.ty.is_integer() { self.promote(a) } else { a };
                let (f, t) = match &a.ty.ty {
                    Ty::Float => (MathFn::Fabsf, Ty::Float),
                    Ty::Double => (MathFn::Fabs, Ty::Double),
                    Ty::Int(IntKind::Long) | Ty::Int(IntKind::ULong) => (MathFn::Labs, Ty::Int(IntKind::Long)),
                    Ty::Int(IntKind::LongLong) | Ty::Int(IntKind::ULongLong) => (MathFn::Llabs, Ty::Int(IntKind::LongLong)),
                    _ => (MathFn::Abs, Ty::int()),
                };
                let a = self.cast(a, &t);
                mk(BuiltinKind::Math(f), vec![a], QTy::new(t))
            }
            Class::MathOverloaded(base, shape) => self.math_call(base, None, shape, args, sp),
            Class::MathFixed(n, shape, _) => self.math_call(&n.clone(), Some(Ty::Float), shape, args, sp),
        }
    }

    /// A math function of `shape`; `fixed` is the precision for `sqrtf`-style names,
    /// `None` to choose it from the arguments (C++ overloads).
    fn math_call(&mut self, base: &str, fixed: Option<Ty>, shape: MathShape, args: &[ast::Expr], sp: Span) -> Expr {
        let n = match shape {
            MathShape::Unary | MathShape::ToInt(_) | MathShape::Classify => 1,
            MathShape::Binary | MathShape::XInt | MathShape::Frexp | MathShape::Modf => 2,
            MathShape::Fma | MathShape::Remquo | MathShape::Sincos => 3,
        };
        if !self.check_arity(base, args, n, sp) {
            return Expr::error(sp);
        }
        let mut vals = Vec::new();
        for a in args {
            let v = self.expr(a);
            let v = self.rvalue(v);
            if v.is_error() {
                return Expr::error(sp);
            }
            vals.push(v);
        }
        let nfloat = match shape {
            MathShape::Binary | MathShape::Remquo => 2,
            MathShape::Fma => 3,
            _ => 1,
        };
        let is_fixed = fixed.is_some();
        let t = match fixed {
            Some(t) => t,
            None => {
                let fl = &vals[..nfloat];
                if fl.iter().any(|v| !v.ty.ty.is_arith()) {
                    let tys: Vec<String> = vals.iter().map(|v| format!("'{}'", self.show(&v.ty))).collect();
                    self.err(sp, format!("no matching function for call to '{base}' with arguments ({})", tys.join(", ")));
                    return Expr::error(sp);
                }
                if fl.iter().any(|v| v.ty.ty == Ty::Double) {
                    Ty::Double
                } else if fl.iter().any(|v| v.ty.ty == Ty::Float) {
                    Ty::Float
                } else {
                    Ty::Double
                }
            }
        };
        let name = if t == Ty::Float && !is_fixed { format!("{base}f") } else { base.to_string() };
        let Some(mut f) = self.math_fn(&name, sp) else { return Expr::error(sp) };
        if self.opts.fast_math {
            f = builtins::fast_math_intrinsic(f);
        }
        let tq = QTy::new(t.clone());
        let ptr_t = QTy::new(Ty::ptr(tq.clone()));
        let ptr_i = QTy::new(Ty::ptr(int_ty(IntKind::Int)));
        let (params, ret): (Vec<QTy>, QTy) = match shape {
            MathShape::Unary => (vec![tq.clone()], tq.clone()),
            MathShape::Binary => (vec![tq.clone(), tq.clone()], tq.clone()),
            MathShape::Fma => (vec![tq.clone(), tq.clone(), tq.clone()], tq.clone()),
            MathShape::ToInt(k) => (vec![tq.clone()], int_ty(k)),
            MathShape::Classify => (vec![tq.clone()], QTy::new(Ty::Bool)),
            MathShape::XInt => (vec![tq.clone(), int_ty(IntKind::Int)], tq.clone()),
            MathShape::Frexp => (vec![tq.clone(), ptr_i], tq.clone()),
            MathShape::Modf => (vec![tq.clone(), ptr_t], tq.clone()),
            MathShape::Remquo => (vec![tq.clone(), tq.clone(), ptr_i], tq.clone()),
            MathShape::Sincos => (vec![tq.clone(), ptr_t.clone(), ptr_t], QTy::new(Ty::Void)),
        };
        let mut out = Vec::new();
        for (v, p) in vals.into_iter().zip(&params) {
            out.push(self.convert(v, p, "argument passing"));
        }
        if out.iter().any(|e| e.is_error()) {
            return Expr::error(sp);
        }
        Expr::new(ExprKind::Builtin(BuiltinKind::Math(f), out), ret, false, sp)
    }

    /// The IR function of a math name the builtin tables typed; a name the IR lacks is a
    /// bug in those tables (`every_math_name_is_an_ir_function` guards against it).
    fn math_fn(&mut self, name: &str, sp: Span) -> Option<MathFn> {
        let f = MathFn::from_cuda_name(name);
        if f.is_none() {
            self.err(sp, format!("internal error: '{name}' has no Cuprite IR math function"));
        }
        f
    }
}

pub(crate) fn path_str(p: &ast::Path) -> String {
    let s: Vec<&str> = p.segments.iter().map(|s| s.name.as_str()).collect();
    format!("{}{}", if p.global { "::" } else { "" }, s.join("::"))
}

/// The bit-field an lvalue designates, if it is one (`s.b`, `p->b`).
pub(crate) fn bitfield_of(types: &TypeTable, e: &Expr) -> Option<BitField> {
    let ExprKind::Member(_, r, path) = &e.kind else { return None };
    let mut rec = *r;
    for (i, idx) in path.iter().enumerate() {
        let f = types.rec(rec).fields.as_ref()?.get(*idx as usize)?;
        if i + 1 == path.len() {
            return f.bits;
        }
        let Ty::Record(nr) = f.ty.ty else { return None };
        rec = nr;
    }
    None
}

/// Find a field by name, looking through anonymous members: the index path and its type.
pub(crate) fn find_field(types: &TypeTable, r: RecId, name: &str) -> Option<(Vec<u32>, QTy)> {
    let fields = types.rec(r).fields.as_ref()?;
    for (i, f) in fields.iter().enumerate() {
        match &f.name {
            Some(n) if n == name => return Some((vec![i as u32], f.ty.clone())),
            None => {
                if let Ty::Record(inner) = &f.ty.ty {
                    if let Some((mut p, t)) = find_field(types, *inner, name) {
                        p.insert(0, i as u32);
                        return Some((p, t));
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// A class type, or a pointer, reference or array of one.
fn involves_class(t: &Ty) -> bool {
    match t {
        Ty::Record(_) => true,
        Ty::Ptr(q) | Ty::Ref(q) | Ty::Array(q, _) => involves_class(&q.ty),
        _ => false,
    }
}
