//! Initializers (elaborated to the shape of the object, with C's brace elision and
//! designators) and constant evaluation.

use super::*;

/// A constant value.
#[derive(Clone, Debug, PartialEq)]
pub enum CVal {
    Int(i128),
    Float(f64),
    Null,
    /// The address of a global plus a byte offset.
    Addr(GVarId, i64),
    /// A string literal's address (plus offset).
    Str(Vec<u8>, i64),
}

pub(crate) fn cval_expr(v: CVal, ty: &QTy, span: Span) -> Expr {
    match v {
        CVal::Float(f) => Expr::new(ExprKind::Float(f), ty.unqual(), false, span),
        CVal::Int(i) => Expr::new(ExprKind::Int(i), ty.unqual(), false, span),
        _ => Expr::error(span),
    }
}

fn wrap_to(types: &TypeTable, t: &Ty, v: i128) -> i128 {
    match t {
        Ty::Bool => (v != 0) as i128,
        Ty::Int(k) => k.wrap(v),
        Ty::Enum(e) => types.enm(*e).underlying.wrap(v),
        _ => v,
    }
}

fn float_to_int(f: f64, t: &Ty, types: &TypeTable) -> i128 {
    if f.is_nan() {
        return 0;
    }
    let k = match t {
        Ty::Int(k) => *k,
        Ty::Enum(e) => types.enm(*e).underlying,
        Ty::Bool => return (f != 0.0) as i128,
        _ => return 0,
    };
    let bits = k.size() * 8;
    let (lo, hi) = if k.signed() { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) };
    (f.trunc() as i128).clamp(lo, hi)
}

/// Evaluate a constant expression (integer, floating, address constants).
pub fn eval_const(prog: &Program, e: &Expr) -> Option<CVal> {
    use ExprKind as K;
    let types = &prog.types;
    let ty = &e.ty.ty;
    Some(match &e.kind {
        K::Int(v) => CVal::Int(*v),
        K::Float(f) => CVal::Float(*f),
        K::Null => CVal::Null,
        K::Cast(x) => {
            let v = eval_const(prog, x)?;
            match (v, ty) {
                (CVal::Int(i), t) if t.is_integer() => CVal::Int(wrap_to(types, t, i)),
                (CVal::Int(i), Ty::Float) => CVal::Float(i as f32 as f64),
                (CVal::Int(i), Ty::Double) => CVal::Float(i as f64),
                (CVal::Float(f), t) if t.is_integer() => {
                    if *t == Ty::Bool {
                        CVal::Int((f != 0.0) as i128)
                    } else {
                        CVal::Int(float_to_int(f, t, types))
                    }
                }
                (CVal::Float(f), Ty::Float) => CVal::Float(f as f32 as f64),
                (CVal::Float(f), Ty::Double) => CVal::Float(f),
                (CVal::Int(0), Ty::Ptr(_)) => CVal::Null,
                (CVal::Null, Ty::Ptr(_)) => CVal::Null,
                (CVal::Null, Ty::Bool) => CVal::Int(0),
                (CVal::Addr(g, o), Ty::Ptr(_)) => CVal::Addr(g, o),
                (CVal::Str(s, o), Ty::Ptr(_)) => CVal::Str(s, o),
                (CVal::Addr(..), Ty::Bool) | (CVal::Str(..), Ty::Bool) => CVal::Int(1),
                _ => return None,
            }
        }
        K::Neg(x) => match eval_const(prog, x)? {
            CVal::Int(i) => CVal::Int(wrap_to(types, ty, -i)),
            CVal::Float(f) => CVal::Float(-f),
            _ => return None,
        },
        K::BitNot(x) => match eval_const(prog, x)? {
            CVal::Int(i) => CVal::Int(wrap_to(types, ty, !i)),
            _ => return None,
        },
        K::LNot(x) => match eval_const(prog, x)? {
            CVal::Int(i) => CVal::Int((i == 0) as i128),
            _ => return None,
        },
        K::LogAnd(a, b) => {
            let a = eval_const(prog, a)?;
            if a == CVal::Int(0) {
                CVal::Int(0)
            } else {
                CVal::Int((eval_const(prog, b)? != CVal::Int(0)) as i128)
            }
        }
        K::LogOr(a, b) => {
            let a = eval_const(prog, a)?;
            if a != CVal::Int(0) {
                CVal::Int(1)
            } else {
                CVal::Int((eval_const(prog, b)? != CVal::Int(0)) as i128)
            }
        }
        K::Cond(c, a, b) => {
            if eval_const(prog, c)? != CVal::Int(0) {
                eval_const(prog, a)?
            } else {
                eval_const(prog, b)?
            }
        }
        K::Binary(op, a, b) => {
            let opt = &a.ty.ty;
            let (x, y) = (eval_const(prog, a)?, eval_const(prog, b)?);
            match (x, y) {
                (CVal::Int(x), CVal::Int(y)) => {
                    let signed = match opt {
                        Ty::Int(k) => k.signed(),
                        _ => true,
                    };
                    let bits = types.layout(opt).map(|l| l.0 * 8).unwrap_or(32) as u32;
                    let r = match op {
                        BinOp::Add => x + y,
                        BinOp::Sub => x - y,
                        BinOp::Mul => x.wrapping_mul(y),
                        BinOp::Div => {
                            if y == 0 {
                                return None;
                            }
                            x / y
                        }
                        BinOp::Rem => {
                            if y == 0 {
                                return None;
                            }
                            x % y
                        }
                        BinOp::Shl => {
                            if !(0..bits as i128).contains(&y) {
                                return None;
                            }
                            x << y
                        }
                        BinOp::Shr => {
                            if !(0..bits as i128).contains(&y) {
                                return None;
                            }
                            x >> y
                        }
                        BinOp::And => x & y,
                        BinOp::Or => x | y,
                        BinOp::Xor => x ^ y,
                        BinOp::Eq => (x == y) as i128,
                        BinOp::Ne => (x != y) as i128,
                        BinOp::Lt => (x < y) as i128,
                        BinOp::Le => (x <= y) as i128,
                        BinOp::Gt => (x > y) as i128,
                        BinOp::Ge => (x >= y) as i128,
                    };
                    let _ = signed;
                    CVal::Int(wrap_to(types, ty, r))
                }
                (CVal::Float(x), CVal::Float(y)) => {
                    let f32ty = *opt == Ty::Float;
                    let r = |v: f64| if f32ty { v as f32 as f64 } else { v };
                    match op {
                        BinOp::Add => CVal::Float(r(x + y)),
                        BinOp::Sub => CVal::Float(r(x - y)),
                        BinOp::Mul => CVal::Float(r(x * y)),
                        BinOp::Div => CVal::Float(r(x / y)),
                        BinOp::Eq => CVal::Int((x == y) as i128),
                        BinOp::Ne => CVal::Int((x != y) as i128),
                        BinOp::Lt => CVal::Int((x < y) as i128),
                        BinOp::Le => CVal::Int((x <= y) as i128),
                        BinOp::Gt => CVal::Int((x > y) as i128),
                        BinOp::Ge => CVal::Int((x >= y) as i128),
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
        K::Load(x) => match &x.kind {
            K::Global(g) => {
                let gv = &prog.globals[g.0 as usize];
                if gv.ty.c {
                    eval_const(prog, gv.const_value.as_ref()?)?
                } else {
                    return None;
                }
            }
            _ => return None,
        },
        K::AddrOf(x) | K::Decay(x) => address(prog, x)?,
        // A constexpr function: its body, interpreted.
        K::Call(fid, args) => return super::consteval::eval_call(prog, *fid, args).ok().flatten(),
        K::PtrAdd(p, i) => {
            let base = eval_const(prog, p)?;
            let CVal::Int(i) = eval_const(prog, i)? else { return None };
            let sz = types.layout(&p.ty.ty.pointee()?.ty)?.0 as i64;
            match base {
                CVal::Addr(g, o) => CVal::Addr(g, o + i as i64 * sz),
                CVal::Str(s, o) => CVal::Str(s, o + i as i64 * sz),
                _ => return None,
            }
        }
        _ => return None,
    })
}

/// The constant address of an lvalue.
fn address(prog: &Program, e: &Expr) -> Option<CVal> {
    use ExprKind as K;
    match &e.kind {
        K::Global(g) => {
            let gv = &prog.globals[g.0 as usize];
            // A managed variable lives in the host object; its address is known only
            // at run time (the CUDA guide: it is not a constant expression).
            if matches!(gv.space, VarSpace::Host | VarSpace::Managed) || gv.function_local {
                return None;
            }
            Some(CVal::Addr(*g, 0))
        }
        K::Str(s) => Some(CVal::Str(s.clone(), 0)),
        K::Deref(p) => eval_const(prog, p),
        K::Member(b, r, path) => {
            let base = address(prog, b)?;
            let mut off = 0i64;
            let mut rec = *r;
            for (i, idx) in path.iter().enumerate() {
                let f = &prog.types.rec(rec).fields.as_ref()?[*idx as usize];
                off += f.offset as i64;
                if i + 1 < path.len() {
                    let Ty::Record(nr) = f.ty.ty else { return None };
                    rec = nr;
                }
            }
            match base {
                CVal::Addr(g, o) => Some(CVal::Addr(g, o + off)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether an initializer of a device variable is constant; reports the first one that is not.
pub(crate) fn check_constant(ck: &mut Checker, init: &Init) -> bool {
    match init {
        Init::Zero(_) => true,
        Init::Construct { args, .. } => {
            let sp = args.first().map(|a| a.span).unwrap_or_default();
            ck.err(sp, "dynamic initialization is not supported for __device__, __constant__ and __shared__ variables");
            false
        }
        Init::Expr(e) => {
            if e.is_error() {
                return false;
            }
            if matches!(e.ty.ty, Ty::Record(_)) {
                ck.err(e.span, "dynamic initialization is not supported for __device__, __constant__ and __shared__ variables");
                return false;
            }
            if eval_const(&ck.prog, e).is_none() {
                ck.err(e.span, "dynamic initialization is not supported for __device__, __constant__ and __shared__ variables");
                return false;
            }
            true
        }
        Init::List { items, union_member, ty } => {
            if union_member.is_some_and(|m| m != 0) {
                ck.err(Span::default(), format!("a constant initializer of union '{}' must initialize its first member", ck.show(ty)));
                return false;
            }
            items.iter().all(|i| check_constant(ck, i))
        }
    }
}

fn is_char_array(t: &QTy) -> bool {
    matches!(&t.ty, Ty::Array(e, _) if matches!(e.ty, Ty::Int(IntKind::Char | IntKind::SChar | IntKind::UChar)))
}

fn is_aggregate(t: &Ty) -> bool {
    matches!(t, Ty::Array(..) | Ty::Record(_))
}

impl<'o> Checker<'o> {
    /// A scalar initializer expression converted to `ty` (for host constants).
    pub(crate) fn check_init_expr(&mut self, init: &ast::Initializer, ty: &QTy) -> Option<Expr> {
        match init {
            ast::Initializer::Expr(e) => {
                let v = self.expr(e);
                let v = self.convert(v, &ty.unqual(), "initialization");
                if v.is_error() {
                    None
                } else {
                    Some(v)
                }
            }
            ast::Initializer::List(items, _) if items.len() == 1 && items[0].designators.is_empty() => {
                self.check_init_expr(&items[0].init, ty)
            }
            ast::Initializer::Ctor(args, _) if args.len() == 1 => {
                let v = self.expr(&args[0]);
                let v = self.convert(v, &ty.unqual(), "initialization");
                (!v.is_error()).then_some(v)
            }
            _ => None,
        }
    }

    pub(crate) fn check_initializer(&mut self, init: &ast::Initializer, ty: &QTy, span: Span) -> Option<Init> {
        if ty.ty.is_error() {
            return None;
        }
        if let Ty::Ref(_) = ty.ty {
            let e = match init {
                ast::Initializer::Expr(e) => e,
                ast::Initializer::Ctor(a, _) if a.len() == 1 => &a[0],
                _ => {
                    self.err(span, "a reference must be initialized with an expression");
                    return None;
                }
            };
            let v = self.expr(e);
            let v = self.bind_ref(v, ty, "initialization");
            return (!v.is_error()).then_some(Init::Expr(v));
        }
        match init {
            ast::Initializer::Expr(e) => {
                if let (ast::ExprKind::StringLit(s), true) = (&e.kind, is_char_array(ty)) {
                    return Some(self.string_init(s, ty, e.span));
                }
                if is_aggregate(&ty.ty) && matches!(ty.ty, Ty::Array(..)) {
                    self.err(e.span, format!("array initializer must be an initializer list"));
                    return None;
                }
                let v = self.expr(e);
                let v = self.convert(v, &ty.unqual(), "initialization");
                if v.is_error() {
                    return None;
                }
                Some(self.init_from_value(v))
            }
            ast::Initializer::List(items, sp) if matches!(ty.ty, Ty::Record(r) if self.class_info(r).is_some_and(|i| i.user_ctor)) => {
                // List-initialization of a class with constructors.
                let mut vals = Vec::new();
                for it in items {
                    match (&it.init, it.designators.is_empty()) {
                        (ast::Initializer::Expr(e), true) => vals.push(self.expr(e)),
                        _ => {
                            self.err(*sp, "nested braced initializers as constructor arguments are not supported in device code yet");
                            return None;
                        }
                    }
                }
                if vals.len() == 1 && vals[0].ty.ty == ty.ty {
                    let v = self.convert(vals.pop().unwrap(), &ty.unqual(), "initialization");
                    return (!v.is_error()).then(|| self.init_from_value(v));
                }
                self.construct_init(ty, vals, *sp)
            }
            ast::Initializer::List(items, sp) => {
                if is_aggregate(&ty.ty) {
                    let mut pos = 0;
                    let r = self.fill(ty, items, &mut pos, true);
                    if pos < items.len() {
                        self.err(*sp, "excess elements in initializer");
                    }
                    return r;
                }
                match items.len() {
                    0 => Some(Init::Zero(ty.unqual())),
                    1 => self.check_initializer(&items[0].init, ty, span),
                    _ => {
                        self.err(*sp, "excess elements in scalar initializer");
                        None
                    }
                }
            }
            ast::Initializer::Ctor(args, sp) => {
                if let Some(i) = self.dim3_ctor(ty, args, *sp) {
                    return i;
                }
                if matches!(ty.ty, Ty::Record(_)) {
                    let vals: Vec<Expr> = args.iter().map(|a| self.expr(a)).collect();
                    return self.construct_init(ty, vals, *sp);
                }
                if args.is_empty() {
                    return Some(Init::Zero(ty.unqual()));
                }
                if args.len() == 1 {
                    let v = self.expr(&args[0]);
                    if !ty.ty.is_scalar() && v.ty.ty != ty.ty && !v.is_error() {
                        self.err(*sp, format!("constructors of '{}' are not supported in device code yet", self.show(ty)));
                        return None;
                    }
                    let v = self.convert(v, &ty.unqual(), "initialization");
                    return (!v.is_error()).then_some(Init::Expr(v));
                }
                self.err(*sp, format!("constructors of '{}' are not supported in device code yet", self.show(ty)));
                None
            }
        }
    }

    /// `dim3(x, y, z)` with its default arguments of 1 (its constructors are the only
    /// ones device code commonly uses); `None` when `ty` is not `dim3`.
    pub(crate) fn dim3_ctor(&mut self, ty: &QTy, args: &[ast::Expr], sp: Span) -> Option<Option<Init>> {
        let Ty::Record(r) = ty.ty else { return None };
        let d = self.prog.types.rec(r);
        if d.name.as_deref() != Some("dim3") || !d.scope.is_empty() || d.fields.as_ref().map(|f| f.len()) != Some(3) {
            return None;
        }
        let u = QTy::new(Ty::Int(IntKind::UInt));
        if args.len() > 3 {
            self.err(sp, "no matching constructor for initialization of 'dim3'");
            return Some(None);
        }
        let vals: Vec<Expr> = args.iter().map(|a| self.expr(a)).collect();
        if vals.iter().any(|v| v.is_error()) {
            return Some(None);
        }
        if vals.len() == 1 && matches!(vals[0].ty.ty, Ty::Record(_)) {
            // dim3(uint3)
            let v = vals.into_iter().next().unwrap();
            let Ty::Record(src) = v.ty.ty.clone() else { unreachable!() };
            let base = if v.lvalue { v } else { let t = v.ty.clone(); Expr::new(ExprKind::Temp(Box::new(v)), t, true, sp) };
            let mut items = Vec::new();
            for (i, n) in ["x", "y", "z"].iter().enumerate() {
                let Some((path, fty)) = super::expr::find_field(&self.prog.types, src, n) else {
                    self.err(sp, "no matching constructor for initialization of 'dim3'");
                    return Some(None);
                };
                let m = Expr::new(ExprKind::Member(Box::new(base.clone()), src, path), fty, true, sp);
                let _ = i;
                items.push(Init::Expr(self.convert(m, &u, "initialization")));
            }
            return Some(Some(Init::List { ty: ty.unqual(), items, union_member: None }));
        }
        let mut items = Vec::new();
        for v in vals {
            let e = self.convert(v, &u, "initialization");
            if e.is_error() {
                return Some(None);
            }
            items.push(Init::Expr(e));
        }
        while items.len() < 3 {
            items.push(Init::Expr(Expr::new(ExprKind::Int(1), u.clone(), false, sp)));
        }
        Some(Some(Init::List { ty: ty.unqual(), items, union_member: None }))
    }

    fn string_init(&mut self, s: &[u8], ty: &QTy, sp: Span) -> Init {
        let Ty::Array(e, n) = &ty.ty else { unreachable!() };
        let n = n.unwrap_or(s.len() as u64 + 1);
        if (s.len() as u64) > n {
            self.err(sp, "initializer-string for char array is too long");
        }
        let mut items = Vec::new();
        for i in 0..n {
            let c = s.get(i as usize).copied().unwrap_or(0);
            let k = match e.ty {
                Ty::Int(k) => k,
                _ => IntKind::Char,
            };
            items.push(Init::Expr(Expr::new(ExprKind::Int(k.wrap(c as i128)), e.unqual(), false, sp)));
        }
        Init::List { ty: QTy::new(Ty::Array(e.clone(), Some(n))), items, union_member: None }
    }

    /// Initialize an aggregate from `items[*pos..]`. At the top of a braced list
    /// designators are allowed; in elided braces the run stops at a designator.
    fn fill(&mut self, ty: &QTy, items: &[ast::InitItem], pos: &mut usize, top: bool) -> Option<Init> {
        match &ty.ty {
            Ty::Array(e, n) => {
                let mut out: Vec<Init> = Vec::new();
                let mut idx = 0usize;
                while *pos < items.len() {
                    if n.is_some_and(|n| idx as u64 >= n) && (items[*pos].designators.is_empty() || !top) {
                        break;
                    }
                    let it = &items[*pos];
                    if !it.designators.is_empty() {
                        if !top {
                            break;
                        }
                        if it.designators.len() > 1 {
                            self.err(Span::default(), "nested designators are not supported yet");
                            return None;
                        }
                        match &it.designators[0] {
                            ast::Designator::Index(x) => idx = self.const_int(x)?.max(0) as usize,
                            ast::Designator::Field(f) => {
                                self.err(f.span, format!("field designator '{}' does not refer to a field of an array", f.name));
                                return None;
                            }
                        }
                    }
                    if n.is_some_and(|n| idx as u64 >= n) {
                        self.err(Span::default(), "excess elements in array initializer");
                        return None;
                    }
                    let v = self.sub(e, items, pos)?;
                    while out.len() <= idx {
                        out.push(Init::Zero(e.unqual()));
                    }
                    out[idx] = v;
                    idx += 1;
                }
                let len = n.unwrap_or(out.len() as u64);
                while (out.len() as u64) < len {
                    out.push(Init::Zero(e.unqual()));
                }
                Some(Init::List { ty: QTy::new(Ty::Array(e.clone(), Some(len))), items: out, union_member: None })
            }
            Ty::Record(r) => {
                let r = *r;
                let Some(fields) = self.prog.types.rec(r).fields.clone() else {
                    self.err(Span::default(), format!("initialization of incomplete type '{}'", self.show(ty)));
                    return None;
                };
                let is_union = self.prog.types.rec(r).is_union;
                let mut out: Vec<Init> = fields.iter().map(|f| Init::Zero(f.ty.unqual())).collect();
                let mut given = vec![false; fields.len()];
                let mut idx = 0usize;
                let mut union_member = None;
                while *pos < items.len() {
                    let it = &items[*pos];
                    if !it.designators.is_empty() {
                        if !top {
                            break;
                        }
                        if it.designators.len() > 1 {
                            self.err(Span::default(), "nested designators are not supported yet");
                            return None;
                        }
                        match &it.designators[0] {
                            ast::Designator::Field(f) => match fields.iter().position(|x| x.name.as_deref() == Some(&f.name)) {
                                Some(i) => idx = i,
                                None => {
                                    self.err(f.span, format!("field designator '{}' does not refer to any field in type '{}'", f.name, self.show(ty)));
                                    return None;
                                }
                            },
                            ast::Designator::Index(x) => {
                                self.err(x.span, "array designator cannot initialize a non-array type");
                                return None;
                            }
                        }
                    }
                    if idx >= fields.len() || (is_union && union_member.is_some() && it.designators.is_empty()) {
                        break;
                    }
                    let v = self.sub(&fields[idx].ty.unqual(), items, pos)?;
                    out[idx] = v;
                    given[idx] = true;
                    if is_union {
                        union_member = Some(idx as u32);
                    }
                    idx += 1;
                }
                if is_union {
                    let m = union_member.unwrap_or(0);
                    let item = out.swap_remove(m as usize);
                    return Some(Init::List { ty: ty.unqual(), items: vec![item], union_member: Some(m) });
                }
                // Members without an initializer in the list: their default member
                // initializer, else value-initialization (a default constructor).
                for (i, f) in fields.iter().enumerate() {
                    if given[i] {
                        continue;
                    }
                    let nsdmi = self.class_info(r).and_then(|c| c.member_inits.iter().find(|(k, _)| *k == i as u32).map(|(_, x)| x.clone()));
                    if let Some(init) = nsdmi {
                        if let Some(v) = self.check_initializer(&init, &f.ty.unqual(), f.span) {
                            out[i] = v;
                        }
                    } else if self.needs_ctor(&f.ty.ty) {
                        if let Some(v) = self.default_init(&f.ty.unqual(), f.span) {
                            out[i] = v;
                        }
                    }
                }
                Some(Init::List { ty: ty.unqual(), items: out, union_member: None })
            }
            _ => self.sub(ty, items, pos),
        }
    }

    /// Initialize one sub-object from `items[*pos]` (brace elision when it is an
    /// aggregate given a plain expression).
    fn sub(&mut self, ty: &QTy, items: &[ast::InitItem], pos: &mut usize) -> Option<Init> {
        let it = &items[*pos];
        let has_ctor = matches!(ty.ty, Ty::Record(r) if self.class_info(r).is_some_and(|i| i.user_ctor));
        match &it.init {
            ast::Initializer::Expr(e) if has_ctor => {
                *pos += 1;
                self.check_initializer(&it.init, ty, e.span)
            }
            ast::Initializer::List(inner, sp) => {
                *pos += 1;
                self.check_initializer(&ast::Initializer::List(inner.clone(), *sp), ty, *sp)
            }
            ast::Initializer::Expr(e) if is_aggregate(&ty.ty) => {
                if let (ast::ExprKind::StringLit(_), true) = (&e.kind, is_char_array(ty)) {
                    *pos += 1;
                    return self.check_initializer(&it.init, ty, e.span);
                }
                self.silent += 1;
                let v = self.expr(e);
                self.silent -= 1;
                if v.ty.ty == ty.ty {
                    *pos += 1;
                    return self.check_initializer(&it.init, ty, e.span);
                }
                // Brace elision: this expression starts the sub-aggregate.
                let start = *pos;
                let mut p = *pos;
                // Designators on the first item belong to the enclosing list, which already
                // consumed them.
                let r = self.fill_elided(ty, items, &mut p, start);
                *pos = p;
                r
            }
            other => {
                *pos += 1;
                self.check_initializer(other, ty, it.init_span())
            }
        }
    }

    fn fill_elided(&mut self, ty: &QTy, items: &[ast::InitItem], pos: &mut usize, start: usize) -> Option<Init> {
        // The first item may carry the designator that selected this sub-object: strip it.
        if !items[start].designators.is_empty() {
            let mut copy: Vec<ast::InitItem> = items.to_vec();
            copy[start].designators.clear();
            return self.fill(ty, &copy, pos, false);
        }
        self.fill(ty, items, pos, false)
    }
}

trait InitSpan {
    fn init_span(&self) -> Span;
}
impl InitSpan for ast::InitItem {
    fn init_span(&self) -> Span {
        match &self.init {
            ast::Initializer::Expr(e) => e.span,
            ast::Initializer::List(_, s) | ast::Initializer::Ctor(_, s) => *s,
        }
    }
}
