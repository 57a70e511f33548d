//! Lambdas: each lambda expression is an unnamed class (its closure type) with one data
//! member per capture and a call operator, checked with the ordinary class machinery —
//! so closures can be stored in `auto` locals, copied, called, returned and passed.
//!
//! - Captures are known before the body is checked: explicit ones from the capture list,
//!   implicit ones (`[=]`, `[&]`) from the names the body (nested lambdas included)
//!   uses that are local variables (or captures) of the enclosing function. Each is
//!   evaluated where the lambda is written: by copy into a member of the variable's
//!   type, by reference into a member holding its address.
//! - The call operator is a member function `operator()` of the closure class, `const`
//!   unless the lambda is `mutable`, in the execution space of the enclosing function;
//!   its body is checked right away, nested in the enclosing function's check (the
//!   enclosing function's other names, its typedefs and constants, are visible there).
//!   A use of a captured name in the body is a use of the member (`lambda_capture_ref`).
//! - Without `-> T` the return type is deduced from the first `return` (`deduce_return`).
//! - Generic lambdas (`auto` parameters): the call operator is instantiated for each
//!   list of deduced parameter types at the call (`generic_lambda_call`).
//! - The closure object is a prvalue `InitTemp` of the closure class, aggregate-
//!   initialized from the captures.

use super::*;
use std::collections::HashSet;

#[derive(Default)]
pub(crate) struct LambdaState {
    next: u32,
    /// The closure each lambda expression made in a function (a lambda checked twice,
    /// as `auto` initializers are, is the same closure).
    cache: HashMap<(FnId, u32, u32), Expr>,
    closures: HashMap<RecId, Closure>,
    /// Call operators whose bodies are being checked (innermost last).
    frames: Vec<Frame>,
}

#[derive(Clone)]
struct Cap {
    name: String,
    field: u32,
    by_ref: bool,
}

#[derive(Clone)]
struct Closure {
    lam: ast::Lambda,
    captures: Vec<Cap>,
    /// Local variables of the enclosing function that are not captured.
    uncaptured: HashSet<String>,
    /// Names of the enclosing scopes other than variables (typedefs, local classes,
    /// enumerators, constants), visible in the body.
    scope_syms: Vec<(String, Sym)>,
    scope_tags: Vec<(String, Tag)>,
    space: ExecSpace,
    /// Instantiations of a generic call operator by parameter types.
    instances: Vec<(Vec<QTy>, FnId)>,
}

struct Frame {
    fid: FnId,
    rec: RecId,
    deduce: bool,
    deduced: bool,
    /// Typedefs for the deduced `auto` parameters of a generic lambda's instance.
    extra: Vec<(String, Sym)>,
}

fn name_path(n: &str, sp: Span) -> ast::Path {
    ast::Path::new(false, vec![ast::Ident { name: n.to_string(), span: sp }], sp)
}

fn is_auto_param(p: &ast::Param) -> bool {
    matches!(p.spec.ty, ast::TypeSpec::Auto)
}

// ---------------------------------------------------------------- names in a body

fn walk_block(b: &ast::Block, out: &mut HashSet<String>) {
    for s in &b.stmts {
        walk_stmt(s, out);
    }
}

fn walk_init(i: &ast::Initializer, out: &mut HashSet<String>) {
    match i {
        ast::Initializer::Expr(e) => walk_expr(e, out),
        ast::Initializer::List(items, _) => {
            for it in items {
                walk_init(&it.init, out);
            }
        }
        ast::Initializer::Ctor(args, _) => {
            for a in args {
                walk_expr(a, out);
            }
        }
    }
}

fn walk_decl(d: &ast::Declaration, out: &mut HashSet<String>) {
    if let ast::TypeSpec::Decltype(e) = &d.spec.ty {
        walk_expr(e, out);
    }
    for id in &d.declarators {
        for der in &id.declarator.derived {
            if let ast::Derived::Array(Some(n)) = der {
                walk_expr(n, out);
            }
        }
        if let Some(i) = &id.init {
            walk_init(i, out);
        }
    }
}

fn walk_stmt(s: &ast::Stmt, out: &mut HashSet<String>) {
    use ast::StmtKind as S;
    match &s.kind {
        S::Expr(e) => walk_expr(e, out),
        S::Decl(d) => walk_decl(d, out),
        S::Block(b) => walk_block(b, out),
        S::If { cond, then, else_ } | S::IfConstexpr { cond, then, else_ } => {
            walk_expr(cond, out);
            walk_stmt(then, out);
            if let Some(e) = else_ {
                walk_stmt(e, out);
            }
        }
        S::While { cond, body } | S::DoWhile { body, cond } => {
            walk_expr(cond, out);
            walk_stmt(body, out);
        }
        S::For { init, cond, step, body } => {
            if let Some(i) = init {
                walk_stmt(i, out);
            }
            if let Some(c) = cond {
                walk_expr(c, out);
            }
            if let Some(c) = step {
                walk_expr(c, out);
            }
            walk_stmt(body, out);
        }
        S::RangeFor { decl, range, body } => {
            walk_decl(decl, out);
            walk_expr(range, out);
            walk_stmt(body, out);
        }
        S::Switch { cond, body } => {
            walk_expr(cond, out);
            walk_stmt(body, out);
        }
        S::Case { value, body } => {
            walk_expr(value, out);
            walk_stmt(body, out);
        }
        S::Default { body } | S::Label { body, .. } => walk_stmt(body, out),
        S::Return(Some(e)) => walk_expr(e, out),
        S::StaticAssert { cond, .. } => walk_expr(cond, out),
        _ => {}
    }
}

fn walk_expr(e: &ast::Expr, out: &mut HashSet<String>) {
    use ast::ExprKind as E;
    match &e.kind {
        E::Name(p) => {
            if p.segments.len() == 1 && !p.global {
                out.insert(p.segments[0].name.clone());
            }
        }
        E::Unary { expr, .. } | E::SizeofExpr(expr) | E::PackExpansion(expr) => walk_expr(expr, out),
        E::Binary { lhs, rhs, .. } | E::Assign { lhs, rhs, .. } => {
            walk_expr(lhs, out);
            walk_expr(rhs, out);
        }
        E::Cond { cond, then, else_ } => {
            walk_expr(cond, out);
            walk_expr(then, out);
            walk_expr(else_, out);
        }
        E::Call { callee, args } => {
            walk_expr(callee, out);
            for a in args {
                walk_expr(a, out);
            }
        }
        E::Index { base, index } => {
            walk_expr(base, out);
            walk_expr(index, out);
        }
        E::Member { base, .. } | E::MemberTemplateId { base, .. } => walk_expr(base, out),
        E::Cast { expr, .. } => walk_expr(expr, out),
        E::CompoundLit { init, .. } | E::InitList(init) => {
            for it in init {
                walk_init(&it.init, out);
            }
        }
        E::Fold { lhs, rhs, .. } => {
            if let Some(l) = lhs {
                walk_expr(l, out);
            }
            if let Some(r) = rhs {
                walk_expr(r, out);
            }
        }
        E::This => {
            out.insert("this".to_string());
        }
        E::Lambda(l) => {
            for c in &l.captures {
                match c {
                    ast::Capture::Var { name, .. } => {
                        out.insert(name.name.clone());
                    }
                    ast::Capture::Init { init, .. } => walk_init(init, out),
                    ast::Capture::This { .. } => {
                        out.insert("this".to_string());
                    }
                }
            }
            walk_block(&l.body, out);
        }
        _ => {}
    }
}

impl<'o> Checker<'o> {
    /// The frame of the call operator whose body is being checked now, if any.
    fn lambda_frame(&self) -> Option<&Frame> {
        let fid = self.fcx.as_ref()?.fid;
        self.cxx.lambdas.frames.iter().rev().find(|f| f.fid == fid)
    }

    /// Whether `name` here is a local variable of the current function, or a capture of
    /// the lambda whose body this is: something a lambda written here can capture.
    fn capturable(&self, name: &str) -> bool {
        let Some(f) = &self.fcx else { return false };
        for s in f.scopes.iter().rev() {
            if let Some(sym) = s.names.get(name) {
                return matches!(sym, Sym::Local(_));
            }
        }
        match self.lambda_frame() {
            Some(fr) => self.cxx.lambdas.closures.get(&fr.rec).is_some_and(|c| c.captures.iter().any(|k| k.name == name)),
            None => false,
        }
    }

    /// Whether a name is a capture of the lambda whose body is being checked (and not
    /// hidden by a local of the body): a use of it is an object, as a local's is.
    pub(crate) fn lambda_captures_name(&self, name: &str) -> bool {
        let Some(fr) = self.lambda_frame() else { return false };
        let Some(c) = self.cxx.lambdas.closures.get(&fr.rec) else { return false };
        c.captures.iter().any(|k| k.name == name) || c.uncaptured.contains(name)
    }

    /// In a lambda's body: a captured name as the closure's member (through the stored
    /// address for a capture by reference); an error for a local of the enclosing
    /// function that is not captured. `None` when the name is not one of those.
    pub(crate) fn lambda_capture_ref(&mut self, name: &str, sp: Span) -> Option<Expr> {
        let fr = self.lambda_frame()?;
        let rec = fr.rec;
        let f = self.fcx.as_ref()?;
        if f.scopes.iter().any(|s| s.names.contains_key(name)) {
            return None;
        }
        let c = self.cxx.lambdas.closures.get(&rec)?;
        if let Some(cap) = c.captures.iter().find(|k| k.name == name).cloned() {
            let obj = self.this_object(sp)?;
            let fty = self.prog.types.rec(rec).fields.as_ref()?[cap.field as usize].ty.clone();
            let t = QTy { ty: fty.ty.clone(), c: fty.c || obj.ty.c, v: fty.v };
            let m = Expr::new(ExprKind::Member(Box::new(obj), rec, vec![cap.field]), t, true, sp);
            if cap.by_ref {
                let pointee = fty.ty.pointee()?.clone();
                let p = Expr::new(ExprKind::Load(Box::new(m)), fty.unqual(), false, sp);
                return Some(Expr::new(ExprKind::Deref(Box::new(p)), pointee, true, sp));
            }
            return Some(m);
        }
        if c.uncaptured.contains(name) {
            let msg = if c.lam.default_capture.is_none() {
                format!("variable '{name}' cannot be implicitly captured in a lambda with no capture-default specified")
            } else {
                format!("variable '{name}' cannot be captured here")
            };
            self.err(sp, msg);
            return Some(Expr::error(sp));
        }
        None
    }

    /// `return e;` in a lambda without a declared return type: the first return fixes
    /// the type (decayed, unqualified).
    pub(crate) fn deduce_return(&mut self, v: &Expr, ret: QTy) -> QTy {
        let Some(fid) = self.fcx.as_ref().map(|f| f.fid) else { return ret };
        let Some(fr) = self.cxx.lambdas.frames.iter_mut().rev().find(|f| f.fid == fid) else { return ret };
        if !fr.deduce || fr.deduced || v.is_error() {
            return ret;
        }
        fr.deduced = true;
        let t = match &v.ty.ty {
            Ty::Array(e, _) => QTy::new(Ty::ptr((**e).clone())),
            Ty::Func(_) => QTy::new(Ty::ptr(v.ty.unqual())),
            t => QTy::new(t.clone()),
        };
        self.fcx.as_mut().unwrap().ret = t.clone();
        self.prog.functions[fid.0 as usize].sig.ret = t.clone();
        t
    }

    /// Called when the body of function `fid` starts being checked: a lambda's call
    /// operator sees the names of the scopes around the lambda.
    pub(crate) fn lambda_enter(&mut self, fid: FnId) {
        let Some(fr) = self.cxx.lambdas.frames.iter().rev().find(|f| f.fid == fid) else { return };
        let extra = fr.extra.clone();
        let Some(c) = self.cxx.lambdas.closures.get(&fr.rec) else { return };
        let syms = c.scope_syms.clone();
        let tags = c.scope_tags.clone();
        let f = self.fcx.as_mut().unwrap();
        let sc = &mut f.scopes[0];
        for (n, s) in syms.into_iter().chain(extra) {
            sc.names.insert(n, s);
        }
        for (n, t) in tags {
            sc.tags.insert(n, t);
        }
    }

    pub(crate) fn lambda_expr(&mut self, l: &ast::Lambda, sp: Span) -> Expr {
        let Some(fid) = self.fcx.as_ref().map(|f| f.fid) else {
            self.err(l.intro_span, "lambda expressions outside functions are not supported in device code yet");
            return Expr::error(sp);
        };
        let key = (fid, sp.lo, sp.hi);
        if let Some(e) = self.cxx.lambdas.cache.get(&key) {
            return e.clone();
        }
        let e = self.make_closure(l, sp).unwrap_or_else(|| Expr::error(sp));
        self.cxx.lambdas.cache.insert(key, e.clone());
        e
    }

    fn make_closure(&mut self, l: &ast::Lambda, sp: Span) -> Option<Expr> {
        let isp = l.intro_span;
        for c in &l.captures {
            if let ast::Capture::This { span, .. } = c {
                self.err(*span, "capturing 'this' in a lambda in device code is not supported yet");
                return None;
            }
        }
        let params: Vec<ast::Param> = l.params.as_ref().map(|p| p.params.clone()).unwrap_or_default();
        let param_names: HashSet<String> =
            params.iter().filter_map(|p| p.declarator.name.as_ref().map(|n| n.last().name.clone())).collect();
        let mut used = HashSet::new();
        walk_block(&l.body, &mut used);
        if used.contains("this") && self.fcx.as_ref().is_some_and(|f| f.this.is_some()) {
            self.err(isp, "using 'this' or members of the enclosing class in a lambda in device code is not supported yet");
            return None;
        }
        // Captures: (name, by_ref, value).
        let mut caps: Vec<(String, bool, Expr, Span)> = Vec::new();
        let mut explicit: HashSet<String> = HashSet::new();
        for c in &l.captures {
            match c {
                ast::Capture::Var { name, by_ref } => {
                    if !self.capturable(&name.name) {
                        self.err(name.span, format!("'{}' in capture list does not name a variable", name.name));
                        return None;
                    }
                    explicit.insert(name.name.clone());
                    let v = self.capture_value(&name.name, *by_ref, name.span);
                    caps.push((name.name.clone(), *by_ref, v, name.span));
                }
                ast::Capture::Init { name, by_ref, init } => {
                    explicit.insert(name.name.clone());
                    let e = match init {
                        ast::Initializer::Expr(e) => e.clone(),
                        ast::Initializer::List(items, _) if items.len() == 1 && matches!(items[0].init, ast::Initializer::Expr(_)) => {
                            let ast::Initializer::Expr(e) = &items[0].init else { unreachable!() };
                            e.clone()
                        }
                        ast::Initializer::Ctor(args, _) if args.len() == 1 => args[0].clone(),
                        _ => {
                            self.err(name.span, "this form of init-capture is not supported in device code yet");
                            return None;
                        }
                    };
                    let v = self.expr(&e);
                    if *by_ref && !v.lvalue && !v.is_error() {
                        self.err(e.span, "cannot bind a reference init-capture to a temporary");
                        return None;
                    }
                    caps.push((name.name.clone(), *by_ref, v, name.span));
                }
                ast::Capture::This { .. } => {}
            }
        }
        let mut uncaptured = HashSet::new();
        let mut names: Vec<&String> = used.iter().collect();
        names.sort();
        for n in names {
            if explicit.contains(n) || param_names.contains(n) || !self.capturable(n) {
                continue;
            }
            // A constant local needs no capture (it is not odr-used).
            if self.const_local(n).is_some() {
                continue;
            }
            match l.default_capture {
                Some(by_ref) => {
                    let v = self.capture_value(n, by_ref, isp);
                    caps.push((n.clone(), by_ref, v, isp));
                }
                None => {
                    uncaptured.insert(n.clone());
                }
            }
        }
        if caps.iter().any(|c| c.2.is_error()) {
            return None;
        }
        // The names of the enclosing scopes that are not variables.
        let mut scope_syms: Vec<(String, Sym)> = Vec::new();
        let mut scope_tags: Vec<(String, Tag)> = Vec::new();
        if let Some(f) = &self.fcx {
            for s in &f.scopes {
                for (n, sym) in &s.names {
                    match sym {
                        Sym::Local(l) => {
                            if let Some(Expr { kind: ExprKind::Int(v), ty, .. }) = f.local_consts.get(&l.0) {
                                scope_syms.push((n.clone(), Sym::Enumerator(*v, ty.clone())));
                            }
                        }
                        other => scope_syms.push((n.clone(), other.clone())),
                    }
                }
                for (n, t) in &s.tags {
                    scope_tags.push((n.clone(), *t));
                }
            }
        }
        // The closure class.
        let n = self.cxx.lambdas.next;
        self.cxx.lambdas.next += 1;
        let rec = RecId(self.prog.types.records.len() as u32);
        let mut fields = Vec::new();
        let mut items = Vec::new();
        let mut captures = Vec::new();
        for (i, (name, by_ref, v, csp)) in caps.into_iter().enumerate() {
            let (fty, init) = if by_ref {
                let pt = QTy::new(Ty::ptr(v.ty.clone()));
                let a = Expr::new(ExprKind::AddrOf(Box::new(v)), pt.clone(), false, csp);
                (pt, Init::Expr(a))
            } else {
                let t = match &v.ty.ty {
                    Ty::Func(_) => QTy::new(Ty::ptr(v.ty.unqual())),
                    _ => QTy { ty: v.ty.ty.clone(), c: v.ty.c, v: false },
                };
                if matches!(t.ty, Ty::Array(..)) {
                    self.err(csp, format!("capturing the array '{name}' by copy is not supported in device code yet"));
                    return None;
                }
                let cv = self.convert(v, &t.unqual(), "initialization");
                if cv.is_error() {
                    return None;
                }
                (t, self.init_from_value(cv))
            };
            fields.push(FieldDef { name: Some(name.clone()), ty: fty, offset: 0, span: csp, bits: None });
            items.push(init);
            captures.push(Cap { name, field: i as u32, by_ref });
        }
        let (size, align) = self.prog.types.layout_fields(&mut fields, false, 1).unwrap_or((1, 1));
        let cname = format!("__lambda_{n}");
        self.prog.types.records.push(RecordDef {
            name: Some(cname),
            scope: self.ns.clone(),
            is_union: false,
            is_class: true,
            fields: Some(fields),
            size: size.max(1),
            align,
            span: isp,
        });
        self.prog.classes.insert(rec, ClassInfo::default());
        self.finish_class(rec, isp);
        let space = match self.fcx.as_ref().unwrap().space {
            ExecSpace::Global | ExecSpace::Device => ExecSpace::Device,
            s => s,
        };
        let generic = params.iter().any(is_auto_param);
        self.cxx.lambdas.closures.insert(
            rec,
            Closure { lam: l.clone(), captures, uncaptured, scope_syms, scope_tags, space, instances: Vec::new() },
        );
        if !generic {
            let fid = self.lambda_operator(rec, &params, sp)?;
            self.prog.classes.get_mut(&rec).unwrap().methods.insert("operator()".into(), vec![fid]);
        }
        let t = QTy::new(Ty::Record(rec));
        let init = Init::List { ty: t.clone(), items, union_member: None };
        Some(Expr::new(ExprKind::InitTemp(Box::new(init)), t, false, sp))
    }

    /// The value of a local constant (`const int n = 4;`) named `name` here.
    fn const_local(&self, name: &str) -> Option<&Expr> {
        let f = self.fcx.as_ref()?;
        for s in f.scopes.iter().rev() {
            if let Some(sym) = s.names.get(name) {
                return match sym {
                    Sym::Local(l) => f.local_consts.get(&l.0).filter(|e| matches!(e.kind, ExprKind::Int(_))),
                    _ => None,
                };
            }
        }
        None
    }

    /// The variable `name` as the enclosing function sees it (an lvalue).
    fn capture_value(&mut self, name: &str, by_ref: bool, sp: Span) -> Expr {
        let saved = self.fcx.as_ref().map(|f| f.fold_const_locals);
        if let Some(f) = &mut self.fcx {
            f.fold_const_locals = false;
        }
        let e = ast::Expr { kind: ast::ExprKind::Name(name_path(name, sp)), span: sp };
        let v = self.expr(&e);
        if let (Some(f), Some(s)) = (&mut self.fcx, saved) {
            f.fold_const_locals = s;
        }
        if by_ref && !v.lvalue && !v.is_error() {
            self.err(sp, format!("cannot capture '{name}' by reference"));
            return Expr::error(sp);
        }
        v
    }

    /// The call operator of closure `rec` for these parameters (with `extra` typedefs
    /// for deduced `auto` parameters): declared, and its body checked now.
    fn lambda_operator_with(&mut self, rec: RecId, params: &[ast::Param], extra: Vec<(String, Sym)>, sp: Span) -> Option<FnId> {
        let c = self.cxx.lambdas.closures.get(&rec)?.clone();
        let l = &c.lam;
        let deduce = l.ret.is_none();
        let mut fd = l.params.clone().unwrap_or_default();
        fd.params = params.to_vec();
        fd.cv.is_const = !l.is_mutable;
        fd.trailing_return = None;
        let spec = match &l.ret {
            Some(t) => ast::DeclSpec { cuda: ast::CudaQuals { device: true, ..Default::default() }, ..t.spec.clone() },
            None => ast::DeclSpec {
                ty: ast::TypeSpec::Builtin(ast::BuiltinType::Void),
                span: l.intro_span,
                ..Default::default()
            },
        };
        let mut derived = vec![ast::Derived::Function(fd)];
        if let Some(t) = &l.ret {
            derived.extend(t.declarator.derived.iter().cloned());
        }
        let declarator = ast::Declarator {
            name: Some(name_path("operator()", l.intro_span)),
            derived,
            span: l.intro_span,
            ..Default::default()
        };
        let def = ast::FunctionDef { spec: spec.clone(), declarator: declarator.clone(), ctor_inits: Vec::new(), body: l.body.clone(), span: l.span };
        // The signature, in the scope of the lambda (its typedefs, deduced types): a
        // scope pushed on the current function's.
        let saved_ns = std::mem::replace(&mut self.ns, self.prog.types.rec(rec).scope.clone());
        self.push_scope();
        for (n, s) in c.scope_syms.iter().cloned().chain(extra.iter().cloned()) {
            self.bind_name(&n, s);
        }
        for (n, t) in &c.scope_tags {
            self.bind_tag(n, *t);
        }
        let ret = self.spec_type(&spec);
        let fty = self.apply_declarator(ret, &declarator.derived);
        self.pop_scope();
        self.ns = saved_ns;
        let Ty::Func(sig) = fty.ty else { return None };
        let defaults = params.iter().map(|p| p.default.clone()).collect();
        let fid = FnId(self.prog.functions.len() as u32);
        let method = MethodInfo {
            class: rec,
            kind: MethodKind::Normal,
            is_static: false,
            is_const: !l.is_mutable,
            access: Access::Public,
            explicit: false,
            implicit: false,
        };
        let inline = if l.cuda.forceinline {
            ir::InlineHint::Always
        } else if l.cuda.noinline {
            ir::InlineHint::Never
        } else {
            ir::InlineHint::None
        };
        self.prog.functions.push(Function {
            name: "operator()".into(),
            scope: self.class_ns(rec),
            extern_c: false,
            space: c.space,
            sig: *sig,
            inline,
            launch_bounds: (None, None),
            span: l.span,
            in_system_header: self.in_system_header,
            body: None,
            def: Some(def),
            builtin_name: None,
            cxx: FnCxx { method: Some(method), defaults, is_constexpr: l.is_constexpr, ..Default::default() },
        });
        // Check the body now, nested in the current check.
        let outer = self.fcx.take();
        self.cxx.lambdas.frames.push(Frame { fid, rec, deduce, deduced: false, extra });
        self.check_function(fid);
        self.cxx.lambdas.frames.pop();
        self.fcx = outer;
        let _ = sp;
        Some(fid)
    }

    fn lambda_operator(&mut self, rec: RecId, params: &[ast::Param], sp: Span) -> Option<FnId> {
        self.lambda_operator_with(rec, params, Vec::new(), sp)
    }

    /// A call of a generic lambda's closure: the call operator instantiated for the
    /// arguments' types (`auto x` by value: the decayed type; `auto &x`, `const auto &x`:
    /// the argument's type). `None` when `rec` is not a generic closure.
    pub(crate) fn generic_lambda_call(&mut self, rec: RecId, args: &[Expr], sp: Span) -> Option<Option<FnId>> {
        let c = self.cxx.lambdas.closures.get(&rec)?;
        let params: Vec<ast::Param> = c.lam.params.as_ref().map(|p| p.params.clone()).unwrap_or_default();
        if !params.iter().any(is_auto_param) {
            return None;
        }
        if args.len() != params.len() {
            self.err(sp, format!("no matching function for call to object of type '{}': {} arguments for {} parameters", self.show(&QTy::new(Ty::Record(rec))), args.len(), params.len()));
            return Some(None);
        }
        let mut key = Vec::new();
        let mut extra = Vec::new();
        let mut new_params = params.clone();
        for (i, (p, a)) in params.iter().zip(args).enumerate() {
            if !is_auto_param(p) {
                key.push(QTy::new(Ty::Void));
                continue;
            }
            if a.is_error() {
                return Some(None);
            }
            let by_ref = matches!(p.declarator.derived.last(), Some(ast::Derived::Reference { .. }));
            let rvalue_ref = matches!(p.declarator.derived.last(), Some(ast::Derived::Reference { rvalue: true }));
            let t = if by_ref && !(rvalue_ref && !a.lvalue) {
                if p.spec.cv.is_const { a.ty.unqual() } else { a.ty.clone() }
            } else {
                match &a.ty.ty {
                    Ty::Array(e, _) => QTy::new(Ty::ptr((**e).clone())),
                    Ty::Func(_) => QTy::new(Ty::ptr(a.ty.unqual())),
                    _ => a.ty.unqual(),
                }
            };
            let tn = format!(" auto{i}");
            key.push(t.clone());
            extra.push((tn.clone(), Sym::Typedef(t)));
            let np = &mut new_params[i];
            np.spec.ty = ast::TypeSpec::Named(name_path(&tn, p.span));
            if rvalue_ref && a.lvalue {
                // `auto &&x` with an lvalue: an lvalue reference.
                if let Some(ast::Derived::Reference { rvalue }) = np.declarator.derived.last_mut() {
                    *rvalue = false;
                }
            } else if rvalue_ref {
                np.declarator.derived.pop();
            }
        }
        if let Some((_, f)) = self.cxx.lambdas.closures[&rec].instances.iter().find(|(k, _)| *k == key) {
            return Some(Some(*f));
        }
        let fid = self.lambda_operator_with(rec, &new_params, extra, sp);
        if let Some(f) = fid {
            self.cxx.lambdas.closures.get_mut(&rec).unwrap().instances.push((key, f));
        }
        Some(fid)
    }
}
