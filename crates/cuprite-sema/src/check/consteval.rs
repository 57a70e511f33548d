//! Constant evaluation of calls to `constexpr` functions: an interpreter over the typed
//! HIR of their bodies (locals, assignments, loops, `if`/`switch`, recursion, calls to
//! other constexpr functions, arrays and structs of scalars, pointers into them), with
//! a step limit. `init::eval_const` calls `eval_call` for a `Call`; the checker makes
//! sure the bodies it needs are checked (`ensure_constexpr_body`) and explains a failure
//! (`explain_not_constant`).

use super::*;

/// Expressions and statements evaluated before giving up.
const STEP_LIMIT: u64 = 4_000_000;
/// Nested calls.
const DEPTH_LIMIT: usize = 512;
/// Elements of one array object.
const MAX_ELEMS: u64 = 1 << 20;

#[derive(Clone, Debug, PartialEq)]
enum V {
    Int(i128),
    Float(f64),
    Null,
    Ptr(Loc),
    Agg(Vec<V>),
    Undef,
}

/// An object of the evaluation: slot `slot` of frame `frame` (locals, then
/// temporaries), then a path of field / element indices.
#[derive(Clone, Debug, PartialEq)]
struct Loc {
    frame: usize,
    slot: usize,
    path: Vec<i64>,
}

enum Flow {
    Normal,
    Break,
    Continue,
    Return(V),
}

struct Interp<'p> {
    prog: &'p Program,
    frames: Vec<Vec<V>>,
    steps: u64,
}

type R<T> = Result<T, String>;

fn lit(v: &V, ty: &QTy, sp: Span) -> Option<Expr> {
    Some(match v {
        V::Int(i) => Expr::new(ExprKind::Int(*i), ty.clone(), false, sp),
        V::Float(f) => Expr::new(ExprKind::Float(*f), ty.clone(), false, sp),
        V::Null => Expr::new(ExprKind::Null, ty.clone(), false, sp),
        _ => return None,
    })
}

impl<'p> Interp<'p> {
    fn step(&mut self) -> R<()> {
        self.steps += 1;
        if self.steps > STEP_LIMIT {
            return Err(format!("evaluation exceeded {STEP_LIMIT} steps"));
        }
        Ok(())
    }

    fn fname(&self, fid: FnId) -> String {
        qualified_fn_name(&self.prog.functions[fid.0 as usize])
    }

    /// The value of a fresh object of type `t` (zero-filled when `zero`).
    fn blank(&self, t: &Ty, zero: bool) -> R<V> {
        Ok(match t {
            Ty::Array(e, Some(n)) => {
                if *n > MAX_ELEMS {
                    return Err("array too large for constant evaluation".into());
                }
                let one = self.blank(&e.ty, zero)?;
                V::Agg(vec![one; *n as usize])
            }
            Ty::Record(r) => {
                let fields = self.prog.types.rec(*r).fields.clone().unwrap_or_default();
                let mut v = Vec::new();
                for f in &fields {
                    v.push(self.blank(&f.ty.ty, zero)?);
                }
                V::Agg(v)
            }
            Ty::Ptr(_) | Ty::Nullptr if zero => V::Null,
            Ty::Float | Ty::Double if zero => V::Float(0.0),
            _ if zero => V::Int(0),
            _ => V::Undef,
        })
    }

    fn get(&self, l: &Loc) -> R<&V> {
        let mut v = self.frames.get(l.frame).and_then(|f| f.get(l.slot)).ok_or("use of an object whose lifetime has ended")?;
        for i in &l.path {
            match v {
                V::Agg(items) => v = items.get(*i as usize).ok_or("access outside the bounds of an array")?,
                _ => return Err("invalid access to a subobject".into()),
            }
        }
        Ok(v)
    }

    fn get_mut(&mut self, l: &Loc) -> R<&mut V> {
        let mut v = self.frames.get_mut(l.frame).and_then(|f| f.get_mut(l.slot)).ok_or("use of an object whose lifetime has ended")?;
        for i in &l.path {
            match v {
                V::Agg(items) => v = items.get_mut(*i as usize).ok_or("access outside the bounds of an array")?,
                _ => return Err("invalid access to a subobject".into()),
            }
        }
        Ok(v)
    }

    fn temp(&mut self, v: V) -> Loc {
        let f = self.frames.len() - 1;
        self.frames[f].push(v);
        Loc { frame: f, slot: self.frames[f].len() - 1, path: Vec::new() }
    }

    fn read(&self, l: &Loc) -> R<V> {
        let v = self.get(l)?.clone();
        if v == V::Undef {
            return Err("read of an uninitialized object".into());
        }
        Ok(v)
    }

    /// Apply an operator on constants with `eval_const`'s semantics.
    fn fold(&self, e: Expr) -> R<V> {
        match eval_const(self.prog, &e) {
            Some(CVal::Int(i)) => Ok(V::Int(i)),
            Some(CVal::Float(f)) => Ok(V::Float(f)),
            Some(CVal::Null) => Ok(V::Null),
            _ => Err(match &e.kind {
                ExprKind::Binary(BinOp::Div | BinOp::Rem, _, b) if matches!(b.kind, ExprKind::Int(0)) => "division by zero".to_string(),
                ExprKind::Binary(BinOp::Shl | BinOp::Shr, ..) => "shift count out of range".to_string(),
                _ => "operation not allowed in a constant expression".to_string(),
            }),
        }
    }

    fn lvalue(&mut self, e: &Expr) -> R<Loc> {
        self.step()?;
        use ExprKind as K;
        match &e.kind {
            K::Local(l) => Ok(Loc { frame: self.frames.len() - 1, slot: l.0 as usize, path: Vec::new() }),
            K::Deref(p) => match self.rvalue(p)? {
                V::Ptr(l) => Ok(l),
                V::Null => Err("dereference of a null pointer".into()),
                _ => Err("dereference of an invalid pointer".into()),
            },
            K::Member(b, _, path) => {
                let mut l = self.lvalue(b)?;
                l.path.extend(path.iter().map(|i| *i as i64));
                Ok(l)
            }
            K::Temp(x) => {
                let v = self.rvalue(x)?;
                Ok(self.temp(v))
            }
            K::InitTemp(i) => {
                let v = self.init(i)?;
                Ok(self.temp(v))
            }
            K::LocalInit(l, i) => {
                let v = self.init(i)?;
                let loc = Loc { frame: self.frames.len() - 1, slot: l.0 as usize, path: Vec::new() };
                *self.get_mut(&loc)? = v;
                Ok(loc)
            }
            K::Global(_) | K::Str(_) => {
                // Constant globals are read as values.
                let v = self.global_value(e)?;
                Ok(self.temp(v))
            }
            K::Assign(..) | K::CompoundAssign { .. } | K::IncDec { .. } => {
                self.rvalue_or_place(e)?.ok_or_else(|| "invalid assignment".to_string())
            }
            K::Comma(a, b) => {
                self.rvalue(a)?;
                self.lvalue(b)
            }
            K::Cond(c, a, b) => {
                if self.truth(c)? {
                    self.lvalue(a)
                } else {
                    self.lvalue(b)
                }
            }
            K::Call(..) => {
                // A call returning a reference (as a pointer).
                let v = self.rvalue(e)?;
                Ok(self.temp(v))
            }
            _ => Err("this expression is not supported in constant evaluation".into()),
        }
    }

    fn global_value(&self, e: &Expr) -> R<V> {
        match &e.kind {
            ExprKind::Global(g) => {
                let gv = &self.prog.globals[g.0 as usize];
                if !gv.ty.c {
                    return Err(format!("read of the non-const variable '{}'", gv.name));
                }
                if let Some(c) = &gv.const_value {
                    return match eval_const(self.prog, c) {
                        Some(CVal::Int(i)) => Ok(V::Int(i)),
                        Some(CVal::Float(f)) => Ok(V::Float(f)),
                        _ => Err(format!("the value of '{}' is not known", gv.name)),
                    };
                }
                match &gv.init {
                    Some(i) => {
                        let mut sub = Interp { prog: self.prog, frames: vec![Vec::new()], steps: 0 };
                        sub.init(i)
                    }
                    None => Err(format!("the value of '{}' is not known", gv.name)),
                }
            }
            ExprKind::Str(s) => {
                let mut v: Vec<V> = s.iter().map(|b| V::Int(*b as i8 as i128)).collect();
                v.push(V::Int(0));
                Ok(V::Agg(v))
            }
            _ => Err("not a constant".into()),
        }
    }

    fn truth(&mut self, e: &Expr) -> R<bool> {
        Ok(match self.rvalue(e)? {
            V::Int(i) => i != 0,
            V::Float(f) => f != 0.0,
            V::Null => false,
            V::Ptr(_) => true,
            _ => return Err("invalid condition".into()),
        })
    }

    /// Assignments and increments: the place they write (their result as an lvalue).
    fn rvalue_or_place(&mut self, e: &Expr) -> R<Option<Loc>> {
        use ExprKind as K;
        let sp = e.span;
        match &e.kind {
            K::Assign(l, r) => {
                let v = self.rvalue(r)?;
                let loc = self.lvalue(l)?;
                *self.get_mut(&loc)? = v;
                Ok(Some(loc))
            }
            K::CompoundAssign { op, lhs, rhs, comp } => {
                let loc = self.lvalue(lhs)?;
                let old = self.read(&loc)?;
                let r = self.rvalue(rhs)?;
                let new = match (&old, lhs.ty.ty.is_pointer()) {
                    (V::Ptr(p), true) => {
                        let V::Int(i) = r else { return Err("invalid pointer arithmetic".into()) };
                        let mut p = p.clone();
                        let d = if *op == BinOp::Sub { -i } else { i } as i64;
                        *p.path.last_mut().ok_or("pointer arithmetic on a non-array object")? += d;
                        V::Ptr(p)
                    }
                    _ => {
                        let lt = lhs.ty.unqual();
                        let a = Expr::new(ExprKind::Cast(Box::new(lit(&old, &lt, sp).ok_or("invalid operand")?)), comp.clone(), false, sp);
                        let b = lit(&r, &rhs.ty, sp).ok_or("invalid operand")?;
                        let res = self.fold(Expr::new(ExprKind::Binary(*op, Box::new(a), Box::new(b)), comp.clone(), false, sp))?;
                        self.fold(Expr::new(ExprKind::Cast(Box::new(lit(&res, comp, sp).unwrap())), lt, false, sp))?
                    }
                };
                *self.get_mut(&loc)? = new;
                Ok(Some(loc))
            }
            K::IncDec { inc, post, expr } => {
                let loc = self.lvalue(expr)?;
                let old = self.read(&loc)?;
                let new = match &old {
                    V::Ptr(p) => {
                        let mut p = p.clone();
                        *p.path.last_mut().ok_or("pointer arithmetic on a non-array object")? += if *inc { 1 } else { -1 };
                        V::Ptr(p)
                    }
                    V::Int(i) => {
                        let t = expr.ty.unqual();
                        let r = if *inc { i + 1 } else { i - 1 };
                        self.fold(Expr::new(ExprKind::Cast(Box::new(Expr::new(ExprKind::Int(r), QTy::new(Ty::Int(IntKind::LongLong)), false, sp))), t, false, sp))
                            .or_else(|_| Ok::<V, String>(V::Int(r)))?
                    }
                    V::Float(f) => {
                        let r = if *inc { f + 1.0 } else { f - 1.0 };
                        V::Float(if expr.ty.ty == Ty::Float { r as f32 as f64 } else { r })
                    }
                    _ => return Err("invalid increment".into()),
                };
                *self.get_mut(&loc)? = new;
                if *post {
                    let t = self.temp(old);
                    return Ok(Some(t));
                }
                Ok(Some(loc))
            }
            _ => Ok(None),
        }
    }

    fn rvalue(&mut self, e: &Expr) -> R<V> {
        crate::deep(|| self.rvalue_here(e))
    }

    fn rvalue_here(&mut self, e: &Expr) -> R<V> {
        self.step()?;
        use ExprKind as K;
        let sp = e.span;
        if e.lvalue && !matches!(e.kind, K::Assign(..) | K::CompoundAssign { .. } | K::IncDec { .. }) {
            // An lvalue used as a value: the object's value.
            let l = self.lvalue(e)?;
            return self.read(&l);
        }
        Ok(match &e.kind {
            K::Int(i) => V::Int(*i),
            K::Float(f) => V::Float(*f),
            K::Null => V::Null,
            K::Load(x) => {
                if let K::Global(_) = x.kind {
                    return self.global_value(x);
                }
                let l = self.lvalue(x)?;
                self.read(&l)?
            }
            K::Assign(..) | K::CompoundAssign { .. } | K::IncDec { .. } => {
                let l = self.rvalue_or_place(e)?.unwrap();
                self.read(&l)?
            }
            K::AddrOf(x) => V::Ptr(self.lvalue(x)?),
            K::Decay(x) => {
                let mut l = self.lvalue(x)?;
                l.path.push(0);
                V::Ptr(l)
            }
            K::PtrAdd(p, i) => {
                let pv = self.rvalue(p)?;
                let V::Int(i) = self.rvalue(i)? else { return Err("invalid pointer arithmetic".into()) };
                match pv {
                    V::Ptr(mut l) => {
                        *l.path.last_mut().ok_or("pointer arithmetic on a non-array object")? += i as i64;
                        V::Ptr(l)
                    }
                    _ => return Err("arithmetic on an invalid pointer".into()),
                }
            }
            K::PtrDiff(a, b) => match (self.rvalue(a)?, self.rvalue(b)?) {
                (V::Ptr(x), V::Ptr(y)) if x.frame == y.frame && x.slot == y.slot && x.path.len() == y.path.len() => {
                    V::Int((x.path.last().copied().unwrap_or(0) - y.path.last().copied().unwrap_or(0)) as i128)
                }
                _ => return Err("subtraction of unrelated pointers".into()),
            },
            K::Cast(x) | K::Bitcast(x) if matches!(e.kind, K::Cast(_)) || x.ty.ty == e.ty.ty => {
                let v = self.rvalue(x)?;
                match v {
                    V::Ptr(_) if e.ty.ty.is_pointer() => v,
                    V::Ptr(_) if e.ty.ty == Ty::Bool => V::Int(1),
                    V::Agg(_) => v,
                    _ => self.fold(Expr::new(K::Cast(Box::new(lit(&v, &x.ty, sp).ok_or("invalid cast")?)), e.ty.clone(), false, sp))?,
                }
            }
            K::ToVoid(x) => {
                self.rvalue(x)?;
                V::Int(0)
            }
            K::Neg(x) | K::BitNot(x) | K::LNot(x) => {
                let v = self.rvalue(x)?;
                let l = Box::new(lit(&v, &x.ty, sp).ok_or("invalid operand")?);
                let k = match &e.kind {
                    K::Neg(_) => K::Neg(l),
                    K::BitNot(_) => K::BitNot(l),
                    _ => K::LNot(l),
                };
                self.fold(Expr::new(k, e.ty.clone(), false, sp))?
            }
            K::Binary(op, a, b) => {
                let x = self.rvalue(a)?;
                let y = self.rvalue(b)?;
                if let (V::Ptr(p), V::Ptr(q)) = (&x, &y) {
                    let r = match op {
                        BinOp::Eq => p == q,
                        BinOp::Ne => p != q,
                        _ if p.frame == q.frame && p.slot == q.slot && p.path.len() == q.path.len() => {
                            let (i, j) = (p.path.last().copied().unwrap_or(0), q.path.last().copied().unwrap_or(0));
                            match op {
                                BinOp::Lt => i < j,
                                BinOp::Le => i <= j,
                                BinOp::Gt => i > j,
                                BinOp::Ge => i >= j,
                                _ => return Err("invalid pointer operation".into()),
                            }
                        }
                        _ => return Err("comparison of unrelated pointers".into()),
                    };
                    return Ok(V::Int(r as i128));
                }
                if matches!((&x, &y), (V::Ptr(_), V::Null) | (V::Null, V::Ptr(_))) {
                    return Ok(V::Int((*op == BinOp::Ne) as i128));
                }
                let la = lit(&x, &a.ty, sp).ok_or("invalid operand")?;
                let lb = lit(&y, &b.ty, sp).ok_or("invalid operand")?;
                self.fold(Expr::new(K::Binary(*op, Box::new(la), Box::new(lb)), e.ty.clone(), false, sp))?
            }
            K::LogAnd(a, b) => V::Int((self.truth(a)? && self.truth(b)?) as i128),
            K::LogOr(a, b) => V::Int((self.truth(a)? || self.truth(b)?) as i128),
            K::Cond(c, a, b) => {
                if self.truth(c)? {
                    self.rvalue(a)?
                } else {
                    self.rvalue(b)?
                }
            }
            K::Comma(a, b) => {
                self.rvalue(a)?;
                self.rvalue(b)?
            }
            K::Call(fid, args) => {
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.rvalue(a)?);
                }
                self.call(*fid, vals)?
            }
            K::InitTemp(i) => self.init(i)?,
            K::Temp(x) => self.rvalue(x)?,
            K::LocalInit(..) => {
                let l = self.lvalue(e)?;
                self.read(&l)?
            }
            K::Builtin(..) => return Err("call to a builtin function".into()),
            K::Special(_) | K::SpecialVec(_) => return Err("read of a built-in variable".into()),
            _ => return Err("this expression is not supported in constant evaluation".into()),
        })
    }

    fn init(&mut self, i: &Init) -> R<V> {
        self.step()?;
        Ok(match i {
            Init::Zero(t) => self.blank(&t.ty, true)?,
            Init::Expr(e) => self.rvalue(e)?,
            Init::List { ty, items, union_member } => {
                if union_member.is_some() {
                    return Err("unions are not supported in constant evaluation".into());
                }
                let mut v = Vec::new();
                for it in items {
                    v.push(self.init(it)?);
                }
                let _ = ty;
                V::Agg(v)
            }
            Init::Construct { ctor, args, ty } => {
                // A constexpr constructor: run it on a fresh object.
                let obj = self.blank(&ty.ty, false)?;
                let loc = self.temp(obj);
                let mut vals = vec![V::Ptr(loc.clone())];
                for a in args {
                    vals.push(self.rvalue(a)?);
                }
                self.call(*ctor, vals)?;
                self.get(&loc)?.clone()
            }
        })
    }

    fn call(&mut self, fid: FnId, args: Vec<V>) -> R<V> {
        let f = &self.prog.functions[fid.0 as usize];
        if !f.cxx.is_constexpr {
            return Err(format!("call to non-constexpr function '{}'", self.fname(fid)));
        }
        let Some(body) = &f.body else {
            return Err(format!("'{}' is not defined", self.fname(fid)));
        };
        if self.frames.len() >= DEPTH_LIMIT {
            return Err(format!("more than {DEPTH_LIMIT} nested calls"));
        }
        let mut locals = Vec::with_capacity(body.locals.len());
        for l in &body.locals {
            locals.push(self.blank(&l.ty.ty, false)?);
        }
        for (i, a) in args.into_iter().enumerate() {
            if i < locals.len() {
                locals[i] = a;
            }
        }
        self.frames.push(locals);
        let mut r = Ok(V::Undef);
        for s in &body.stmts {
            match self.stmt(s, &mut None) {
                Ok(Flow::Return(v)) => {
                    r = Ok(v);
                    break;
                }
                Ok(_) => {}
                Err(e) => {
                    r = Err(e);
                    break;
                }
            }
        }
        self.frames.pop();
        let v = r?;
        if v == V::Undef && f.sig.ret.ty != Ty::Void {
            return Err(format!("'{}' ends without returning a value", self.fname(fid)));
        }
        Ok(v)
    }

    /// One statement; `seek` is the case label being looked for in a `switch` body.
    fn stmt(&mut self, s: &Stmt, seek: &mut Option<u32>) -> R<Flow> {
        self.step()?;
        if let Some(target) = *seek {
            // Looking for a case label: only blocks and labels are entered.
            return match &s.kind {
                StmtKind::Block(v) => self.block(v, seek),
                StmtKind::Case(id, b) if *id == target => {
                    *seek = None;
                    self.stmt(b, seek)
                }
                StmtKind::Case(_, b) | StmtKind::Label(_, b) => self.stmt(b, seek),
                _ => Ok(Flow::Normal),
            };
        }
        Ok(match &s.kind {
            StmtKind::Expr(e) => {
                self.rvalue(e)?;
                Flow::Normal
            }
            StmtKind::Decl(l, init) => {
                let loc = Loc { frame: self.frames.len() - 1, slot: l.0 as usize, path: Vec::new() };
                if let Some(i) = init {
                    let v = self.init(i)?;
                    *self.get_mut(&loc)? = v;
                }
                Flow::Normal
            }
            StmtKind::InitAt(place, i) => {
                let v = self.init(i)?;
                let loc = self.lvalue(place)?;
                *self.get_mut(&loc)? = v;
                Flow::Normal
            }
            StmtKind::Block(v) => self.block(v, seek)?,
            StmtKind::If(c, t, e) => {
                if self.truth(c)? {
                    self.stmt(t, seek)?
                } else if let Some(e) = e {
                    self.stmt(e, seek)?
                } else {
                    Flow::Normal
                }
            }
            StmtKind::While(c, b) => {
                while self.truth(c)? {
                    match self.stmt(b, seek)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                }
                Flow::Normal
            }
            StmtKind::DoWhile(b, c) => {
                loop {
                    match self.stmt(b, seek)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                    if !self.truth(c)? {
                        break;
                    }
                }
                Flow::Normal
            }
            StmtKind::For(init, c, step, b) => {
                if let Some(i) = init {
                    self.stmt(i, seek)?;
                }
                loop {
                    if let Some(c) = c {
                        if !self.truth(c)? {
                            break;
                        }
                    }
                    match self.stmt(b, seek)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                    if let Some(st) = step {
                        self.rvalue(st)?;
                    }
                }
                Flow::Normal
            }
            StmtKind::Switch { cond, body, cases, default } => {
                let V::Int(v) = self.rvalue(cond)? else { return Err("invalid switch condition".into()) };
                let target = cases.iter().find(|(x, _)| *x as i128 == v).map(|(_, id)| *id).or(*default);
                let Some(t) = target else { return Ok(Flow::Normal) };
                let mut sk = Some(t);
                match self.stmt(body, &mut sk)? {
                    Flow::Break | Flow::Normal => Flow::Normal,
                    f => f,
                }
            }
            StmtKind::Case(_, b) | StmtKind::Label(_, b) => self.stmt(b, seek)?,
            StmtKind::Break => Flow::Break,
            StmtKind::Continue => Flow::Continue,
            StmtKind::Return(e) => Flow::Return(match e {
                Some(e) => self.rvalue(e)?,
                None => V::Int(0),
            }),
            StmtKind::Goto(_) => return Err("'goto' in a constant expression".into()),
            StmtKind::Asm(_) => return Err("inline assembly in a constant expression".into()),
            StmtKind::Empty => Flow::Normal,
        })
    }

    fn block(&mut self, v: &[Stmt], seek: &mut Option<u32>) -> R<Flow> {
        for s in v {
            match self.stmt(s, seek)? {
                Flow::Normal => {}
                f => return Ok(f),
            }
        }
        Ok(Flow::Normal)
    }
}

fn to_cval(v: V) -> Option<CVal> {
    match v {
        V::Int(i) => Some(CVal::Int(i)),
        V::Float(f) => Some(CVal::Float(f)),
        V::Null => Some(CVal::Null),
        _ => None,
    }
}

/// The value of a call of a constexpr function with constant arguments.
pub(crate) fn eval_call(prog: &Program, fid: FnId, args: &[Expr]) -> Result<Option<CVal>, String> {
    let mut it = Interp { prog, frames: vec![Vec::new()], steps: 0 };
    let mut vals = Vec::new();
    for a in args {
        vals.push(it.rvalue(a)?);
    }
    let v = it.call(fid, vals)?;
    Ok(to_cval(v))
}

impl<'o> Checker<'o> {
    /// Before a call of `fid` is built: a constexpr function's body is checked now (if it
    /// was not), so that constant expressions can evaluate the call.
    pub(crate) fn ensure_constexpr_body(&mut self, fid: FnId) {
        let f = &self.prog.functions[fid.0 as usize];
        if !f.cxx.is_constexpr || f.body.is_some() || f.def.is_none() {
            return;
        }
        // A host function's errors are the host compiler's; a device function's are
        // reported even when the call is in an unevaluated operand.
        let host = f.space == ExecSpace::Host;
        let outer = self.fcx.take();
        let errs = self.diags.len();
        let silent = std::mem::replace(&mut self.silent, host as u32);
        self.check_function_in_context(fid);
        if host {
            self.diags.truncate(errs);
        }
        self.silent = silent;
        self.fcx = outer;
    }

    /// After an expression failed to be a constant: if it calls a constexpr function,
    /// say why that call is not a constant here.
    pub(crate) fn explain_not_constant(&mut self, h: &Expr, sp: Span) {
        fn first_call(e: &Expr) -> Option<(FnId, &Vec<Expr>)> {
            use ExprKind as K;
            match &e.kind {
                K::Call(f, a) => {
                    for x in a {
                        if let Some(c) = first_call(x) {
                            return Some(c);
                        }
                    }
                    Some((*f, a))
                }
                K::Deref(x) | K::AddrOf(x) | K::Member(x, _, _) | K::Load(x) | K::Decay(x) | K::Cast(x) | K::Bitcast(x)
                | K::ToVoid(x) | K::Neg(x) | K::BitNot(x) | K::LNot(x) | K::Temp(x) => first_call(x),
                K::Binary(_, a, b) | K::PtrAdd(a, b) | K::PtrDiff(a, b) | K::LogAnd(a, b) | K::LogOr(a, b) | K::Comma(a, b) => {
                    first_call(a).or_else(|| first_call(b))
                }
                K::Cond(c, a, b) => first_call(c).or_else(|| first_call(a)).or_else(|| first_call(b)),
                _ => None,
            }
        }
        let Some((fid, args)) = first_call(h) else { return };
        let f = &self.prog.functions[fid.0 as usize];
        let name = qualified_fn_name(f);
        if !f.cxx.is_constexpr {
            if f.builtin_name.is_none() {
                self.err(sp, format!("call to non-constexpr function '{name}' in a constant expression"));
            }
            return;
        }
        if let Err(why) = eval_call(&self.prog, fid, args) {
            self.err(sp, format!("constexpr function '{name}' is not a constant expression here: {why}"));
        }
    }
}
