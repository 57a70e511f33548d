//! Function bodies: parameters, local declarations, statements.

use super::*;

fn st(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, span }
}

impl<'o> Checker<'o> {
    pub(crate) fn check_function(&mut self, id: FnId) {
        let Some(def) = self.prog.functions[id.0 as usize].def.take() else { return };
        let f = &self.prog.functions[id.0 as usize];
        let pretty = pretty_signature(&self.prog.types, f);
        let saved_ns = std::mem::replace(&mut self.ns, f.scope.clone());
        let names_mark = self.names_mark();
        let saved_sys = self.in_system_header;
        self.in_system_header = f.in_system_header;
        self.fcx = Some(FnCx {
            fid: id,
            name: f.name.clone(),
            pretty,
            locals: Vec::new(),
            scopes: vec![Scope::default()],
            labels: HashMap::new(),
            next_label: 0,
            switches: Vec::new(),
            loops: 0,
            breakable: 0,
            ret: f.sig.ret.clone(),
            calls: Vec::new(),
            globals_used: Vec::new(),
            space: f.space,
            local_consts: HashMap::new(),
            fold_const_locals: true,
            class: f.cxx.method.as_ref().map(|m| m.class),
            this: None,
            temps: Vec::new(),
            dtor_scopes: vec![Vec::new()],
            loop_depths: Vec::new(),
            break_depths: Vec::new(),
            epilogue: Vec::new(),
            nrvo: None,
            nparams: 0,
        });
        let method = f.cxx.method.clone();
        self.lambda_enter(id);
        let mut nparams = 0;
        if let Some(m) = method.as_ref().filter(|m| !m.is_static) {
            let t = QTy::new(Ty::ptr(QTy { ty: Ty::Record(m.class), c: m.is_const, v: false }));
            let l = self.new_local("this".into(), t, None);
            self.fcx.as_mut().unwrap().this = Some(l);
            nparams += 1;
        }
        if let Some(ast::Derived::Function(fd)) = def.declarator.derived.first() {
            let params: Vec<ast::Param> = fd.params.clone();
            for p in &params {
                let t = self.param_type(p);
                if t.ty == Ty::Void && params.len() == 1 {
                    break;
                }
                let t = decay_param(t);
                let name = p.declarator.name.as_ref().map(|n| n.last().name.clone());
                let l = self.new_local(name.clone().unwrap_or_else(|| format!("arg{nparams}")), t, None);
                if let Some(n) = name {
                    self.bind_name(&n, Sym::Local(l));
                }
                nparams += 1;
            }
        }
        self.fcx.as_mut().unwrap().nparams = nparams;
        self.fcx.as_mut().unwrap().scopes.push(Scope::default());
        self.fcx.as_mut().unwrap().dtor_scopes.push(Vec::new());
        let mut stmts = Vec::new();
        if let Some(m) = method.as_ref() {
            match m.kind {
                MethodKind::Ctor => stmts.extend(self.ctor_prologue(m.class, &def)),
                MethodKind::Dtor => {
                    let obj = self.this_object(def.span).unwrap();
                    stmts.extend(self.set_vptr(m.class, &obj, def.span));
                    let mut ep = Vec::new();
                    self.destroy_members(m.class, obj, &mut ep);
                    self.fcx.as_mut().unwrap().epilogue = ep;
                }
                _ => {}
            }
        }
        for s in &def.body.stmts {
            stmts.push(self.stmt(s));
        }
        // Falling off the end: the body's objects, then (destructors) members and base.
        let mut tail = Vec::new();
        self.exit_scopes(1, &mut tail);
        let ep = self.fcx.as_ref().unwrap().epilogue.clone();
        tail.extend(ep);
        stmts.extend(tail);
        let cx = self.fcx.take().unwrap();
        for (name, (_, defined, sp)) in &cx.labels {
            if !defined {
                self.err(*sp, format!("use of undeclared label '{name}'"));
            }
        }
        self.prog.functions[id.0 as usize].body = Some(Body {
            locals: cx.locals,
            nparams,
            stmts,
            labels: cx.next_label,
            calls: cx.calls,
            globals_used: cx.globals_used,
        });
        self.prog.functions[id.0 as usize].def = None;
        self.ns = saved_ns;
        self.names_restore(names_mark);
        self.in_system_header = saved_sys;
    }

    pub(crate) fn new_local(&mut self, name: String, ty: QTy, align: Option<u64>) -> LocalId {
        let f = self.fcx.as_mut().unwrap();
        f.locals.push(LocalVar { name, ty, align });
        LocalId(f.locals.len() as u32 - 1)
    }

    fn fresh_label(&mut self) -> u32 {
        let f = self.fcx.as_mut().unwrap();
        f.next_label += 1;
        f.next_label - 1
    }

    fn label_id(&mut self, name: &ast::Ident, defining: bool) -> u32 {
        let existing = self.fcx.as_ref().unwrap().labels.get(&name.name).cloned();
        match existing {
            Some((id, defined, sp)) => {
                if defining {
                    if defined {
                        self.err(name.span, format!("redefinition of label '{}'", name.name));
                    }
                    self.fcx.as_mut().unwrap().labels.insert(name.name.clone(), (id, true, sp));
                }
                id
            }
            None => {
                let id = self.fresh_label();
                self.fcx.as_mut().unwrap().labels.insert(name.name.clone(), (id, defining, name.span));
                id
            }
        }
    }

    pub(crate) fn push_scope(&mut self) {
        let f = self.fcx.as_mut().unwrap();
        f.scopes.push(Scope::default());
        f.dtor_scopes.push(Vec::new());
    }
    pub(crate) fn pop_scope(&mut self) {
        let f = self.fcx.as_mut().unwrap();
        f.scopes.pop();
        f.dtor_scopes.pop();
    }

    /// Destructor calls for the objects of the scopes from the innermost down to (and
    /// excluding) depth `keep`, innermost first, each scope in reverse order of
    /// declaration.
    pub(crate) fn exit_scopes(&mut self, keep: usize, out: &mut Vec<Stmt>) {
        let f = self.fcx.as_ref().unwrap();
        let nrvo = f.nrvo;
        let mut objs: Vec<LocalId> = Vec::new();
        for sc in f.dtor_scopes.iter().skip(keep).rev() {
            for l in sc.iter().rev() {
                if Some(*l) != nrvo {
                    objs.push(*l);
                }
            }
        }
        for l in objs {
            let t = self.fcx.as_ref().unwrap().locals[l.0 as usize].ty.clone();
            let e = Expr::new(ExprKind::Local(l), t, true, Span::default());
            self.destroy(e, out);
        }
    }

    /// A block: its statements, then the destructors of its objects.
    fn scoped_block(&mut self, stmts: &[ast::Stmt]) -> Vec<Stmt> {
        self.push_scope();
        let mut v: Vec<Stmt> = stmts.iter().map(|s| self.stmt(s)).collect();
        let depth = self.fcx.as_ref().unwrap().dtor_scopes.len() - 1;
        self.exit_scopes(depth, &mut v);
        self.pop_scope();
        v
    }

    /// Statements for a full-expression statement followed by the destruction of its
    /// temporaries (reverse order of construction).
    pub(crate) fn with_temps(&mut self, mark: usize, s: Stmt) -> Stmt {
        let temps: Vec<LocalId> = self.fcx.as_mut().unwrap().temps.drain(mark..).collect();
        if temps.is_empty() {
            return s;
        }
        let sp = s.span;
        let mut v = vec![s];
        for l in temps.into_iter().rev() {
            let t = self.fcx.as_ref().unwrap().locals[l.0 as usize].ty.clone();
            let e = Expr::new(ExprKind::Local(l), t, true, sp);
            self.destroy(e, &mut v);
        }
        st(StmtKind::Block(v), sp)
    }

    /// A condition: temporaries with destructors there are not supported yet.
    fn no_temps(&mut self, mark: usize, sp: Span) {
        let f = self.fcx.as_mut().unwrap();
        if f.temps.len() > mark {
            f.temps.truncate(mark);
            self.err(sp, "temporaries with destructors in conditions are not supported in device code yet");
        }
    }

    /// Constructor prologue: the base, then each member in declaration order, from the
    /// member initializer list, a default member initializer, or default-initialized.
    fn ctor_prologue(&mut self, r: RecId, def: &ast::FunctionDef) -> Vec<Stmt> {
        let mut out = Vec::new();
        let sp = def.span;
        let Some(obj) = self.this_object(sp) else { return out };
        let info = self.class_info(r).cloned().unwrap_or_default();
        let fields = self.prog.types.rec(r).fields.clone().unwrap_or_default();
        let mut used = vec![false; def.ctor_inits.len()];
        let find = |name: &str, used: &mut Vec<bool>| -> Option<usize> {
            let i = def.ctor_inits.iter().position(|(n, _)| n.name == name)?;
            used[i] = true;
            Some(i)
        };
        let init_with = |this: &mut Self, place: Expr, ty: &QTy, args: &[ast::Expr], isp: Span| -> Option<Init> {
            let _ = place;
            if matches!(ty.ty, Ty::Record(_)) {
                let vals: Vec<Expr> = args.iter().map(|a| this.expr(a)).collect();
                if vals.len() == 1 && !this.needs_ctor(&ty.ty) && this.class_info(match ty.ty { Ty::Record(r) => r, _ => unreachable!() }).is_some_and(|i| !i.user_ctor) {
                    let v = this.convert(vals.into_iter().next().unwrap(), &ty.unqual(), "initialization");
                    return (!v.is_error()).then(|| this.init_from_value(v));
                }
                return this.construct_init(ty, vals, isp);
            }
            let init = ast::Initializer::Ctor(args.to_vec(), isp);
            this.check_initializer(&init, ty, isp)
        };
        if let Some(b) = info.base {
            let bt = QTy::new(Ty::Record(b));
            let bname = self.prog.types.rec(b).name.clone().unwrap_or_default();
            let place = self.to_base(obj.clone(), b);
            let i = match find(&bname, &mut used) {
                Some(k) => {
                    let (_, args) = &def.ctor_inits[k];
                    init_with(self, place.clone(), &bt, args, def.ctor_inits[k].0.span)
                }
                None => self.default_init(&bt, sp),
            };
            if let Some(i) = i {
                out.push(st(StmtKind::InitAt(place, i), sp));
            }
        }
        out.extend(self.set_vptr(r, &obj, sp));
        for (idx, f) in fields.iter().enumerate() {
            if idx == 0 && info.base.is_some() && f.name.is_none() {
                continue;
            }
            let Some(name) = &f.name else { continue };
            let place = Expr::new(ExprKind::Member(Box::new(obj.clone()), r, vec![idx as u32]), f.ty.clone(), true, sp);
            let i = match find(name, &mut used) {
                Some(k) => {
                    let (id, args) = &def.ctor_inits[k];
                    init_with(self, place.clone(), &f.ty.unqual(), args, id.span)
                }
                None => match info.member_inits.iter().find(|(k, _)| *k == idx as u32) {
                    Some((_, init)) => self.check_initializer(init, &f.ty.unqual(), f.span),
                    None => self.default_init(&f.ty, sp),
                },
            };
            if let Some(i) = i {
                out.push(st(StmtKind::InitAt(place, i), sp));
            }
        }
        for (k, u) in used.iter().enumerate() {
            if !*u {
                let (id, _) = &def.ctor_inits[k];
                let cls = self.show(&QTy::new(Ty::Record(r)));
                self.err(id.span, format!("member initializer '{}' does not name a non-static data member or base class of '{cls}'", id.name));
            }
        }
        out
    }

    fn cond_expr(&mut self, e: &ast::Expr) -> Expr {
        let mark = self.fcx.as_ref().unwrap().temps.len();
        let v = self.expr(e);
        let v = self.to_bool(v);
        self.no_temps(mark, e.span);
        v
    }

    pub(crate) fn stmt(&mut self, s: &ast::Stmt) -> Stmt {
        crate::deep(|| self.stmt_here(s))
    }

    pub(crate) fn stmt_here(&mut self, s: &ast::Stmt) -> Stmt {
        let sp = s.span;
        let kind = match &s.kind {
            ast::StmtKind::Expr(e) => {
                let mark = self.fcx.as_ref().unwrap().temps.len();
                let v = self.expr(e);
                // A discarded class prvalue is a temporary: destroy it.
                let v = if !v.lvalue && matches!(v.ty.ty, Ty::Record(_)) && self.needs_dtor(&v.ty.ty) { self.materialize(v) } else { v };
                return self.with_temps(mark, st(StmtKind::Expr(v), sp));
            }
            ast::StmtKind::Decl(d) => return st(StmtKind::Block(self.local_decl(d)), sp),
            ast::StmtKind::Block(b) => StmtKind::Block(self.scoped_block(&b.stmts)),
            ast::StmtKind::If { cond, then, else_ } => {
                let c = self.cond_expr(cond);
                self.push_scope();
                let t = self.stmt(then);
                self.pop_scope();
                let e = else_.as_ref().map(|e| {
                    self.push_scope();
                    let r = self.stmt(e);
                    self.pop_scope();
                    Box::new(r)
                });
                StmtKind::If(c, Box::new(t), e)
            }
            ast::StmtKind::While { cond, body } => {
                let c = self.cond_expr(cond);
                let b = self.loop_body(body);
                StmtKind::While(c, Box::new(b))
            }
            ast::StmtKind::DoWhile { body, cond } => {
                let b = self.loop_body(body);
                let c = self.cond_expr(cond);
                StmtKind::DoWhile(Box::new(b), c)
            }
            ast::StmtKind::For { init, cond, step, body } => {
                self.push_scope();
                let i = init.as_ref().map(|i| Box::new(self.stmt(i)));
                let c = cond.as_ref().map(|c| self.cond_expr(c));
                let stp = step.as_ref().map(|e| self.expr(e));
                let b = self.loop_body(body);
                self.pop_scope();
                StmtKind::For(i, c, stp, Box::new(b))
            }
            ast::StmtKind::Switch { cond, body } => {
                let c = self.expr(cond);
                let c = self.rvalue(c);
                let c = if c.is_error() {
                    c
                } else if !c.ty.ty.is_integer() {
                    self.err(cond.span, format!("statement requires expression of integer type ('{}' invalid)", self.show(&c.ty)));
                    Expr::error(cond.span)
                } else {
                    self.promote(c)
                };
                let cty = c.ty.clone();
                self.fcx.as_mut().unwrap().switches.push((Vec::new(), None, cty));
                self.fcx.as_mut().unwrap().breakable += 1;
                let depth = self.fcx.as_ref().unwrap().dtor_scopes.len();
                self.fcx.as_mut().unwrap().break_depths.push(depth);
                self.push_scope();
                let b = self.stmt(body);
                self.pop_scope();
                self.fcx.as_mut().unwrap().break_depths.pop();
                self.fcx.as_mut().unwrap().breakable -= 1;
                let (cases, default, _) = self.fcx.as_mut().unwrap().switches.pop().unwrap();
                StmtKind::Switch { cond: c, body: Box::new(b), cases, default }
            }
            ast::StmtKind::Case { value, body } => {
                let v = self.const_int(value);
                let id = self.fresh_label();
                match (v, self.fcx.as_ref().unwrap().switches.last().map(|s| s.2.clone())) {
                    (_, None) => self.err(sp, "'case' statement not in switch statement"),
                    (None, _) => self.err(value.span, "case value is not a constant expression"),
                    (Some(v), Some(t)) => {
                        let v = match &t.ty {
                            Ty::Int(k) => k.wrap(v),
                            _ => v,
                        } as i64;
                        let sw = self.fcx.as_mut().unwrap().switches.last_mut().unwrap();
                        if sw.0.iter().any(|(x, _)| *x == v) {
                            self.err(value.span, format!("duplicate case value '{v}'"));
                        } else {
                            sw.0.push((v, id));
                        }
                    }
                }
                let b = self.stmt(body);
                StmtKind::Case(id, Box::new(b))
            }
            ast::StmtKind::Default { body } => {
                let id = self.fresh_label();
                let state = self.fcx.as_mut().unwrap().switches.last_mut().map(|sw| {
                    let dup = sw.1.is_some();
                    sw.1 = Some(id);
                    dup
                });
                match state {
                    None => self.err(sp, "'default' statement not in switch statement"),
                    Some(true) => self.err(sp, "multiple default labels in one switch"),
                    Some(false) => {}
                }
                let b = self.stmt(body);
                StmtKind::Case(id, Box::new(b))
            }
            ast::StmtKind::Break => {
                if self.fcx.as_ref().unwrap().breakable == 0 {
                    self.err(sp, "'break' statement not in loop or switch statement");
                }
                let keep = self.fcx.as_ref().unwrap().break_depths.last().copied().unwrap_or(usize::MAX);
                let mut v = Vec::new();
                self.exit_scopes(keep, &mut v);
                v.push(st(StmtKind::Break, sp));
                StmtKind::Block(v)
            }
            ast::StmtKind::Continue => {
                if self.fcx.as_ref().unwrap().loops == 0 {
                    self.err(sp, "'continue' statement not in loop statement");
                }
                let keep = self.fcx.as_ref().unwrap().loop_depths.last().copied().unwrap_or(usize::MAX);
                let mut v = Vec::new();
                self.exit_scopes(keep, &mut v);
                v.push(st(StmtKind::Continue, sp));
                StmtKind::Block(v)
            }
            ast::StmtKind::Return(e) => {
                let ret = self.fcx.as_ref().unwrap().ret.clone();
                let name = self.fcx.as_ref().unwrap().name.clone();
                match e {
                    None => {
                        if ret.ty != Ty::Void && !ret.ty.is_error() {
                            self.err(sp, format!("non-void function '{name}' should return a value"));
                        }
                        let mut out = Vec::new();
                        self.exit_scopes(1, &mut out);
                        out.extend(self.fcx.as_ref().unwrap().epilogue.clone());
                        out.push(st(StmtKind::Return(None), sp));
                        StmtKind::Block(out)
                    }
                    Some(e) => {
                        let mark = self.fcx.as_ref().unwrap().temps.len();
                        let v = match &e.kind {
                            // `return {…};` copy-list-initializes the declared return type.
                            ast::ExprKind::InitList(items) if ret.ty != Ty::Void && !ret.ty.is_error() && !matches!(ret.ty, Ty::Ref(_)) => {
                                let t = ret.unqual();
                                let list = ast::Initializer::List(items.clone(), e.span);
                                match self.check_initializer(&list, &t, e.span) {
                                    Some(i) => Expr::new(ExprKind::InitTemp(Box::new(i)), t, true, e.span),
                                    None => Expr::error(e.span),
                                }
                            }
                            _ => self.expr(e),
                        };
                        let ret = self.deduce_return(&v, ret);
                        if ret.ty == Ty::Void {
                            if v.ty.ty != Ty::Void && !v.is_error() {
                                self.err(e.span, format!("void function '{name}' should not return a value"));
                            }
                            let mut out = vec![self.with_temps(mark, st(StmtKind::Expr(v), e.span))];
                            self.exit_scopes(1, &mut out);
                            out.extend(self.fcx.as_ref().unwrap().epilogue.clone());
                            out.push(st(StmtKind::Return(None), sp));
                            StmtKind::Block(out)
                        } else {
                            // Returning a local object of the class type: it becomes the
                            // result (copy elision as g++ and nvcc do), not copied and
                            // not destroyed.
                            // A by-value parameter cannot be elided: it is moved from
                            // (C++11's implicit move on return), as g++ does.
                            let fcx = self.fcx.as_ref().unwrap();
                            let local = match (&v.kind, &ret.ty) {
                                (ExprKind::Local(l), Ty::Record(_)) if v.ty.ty == ret.ty && Some(*l) != fcx.this => Some(*l),
                                _ => None,
                            };
                            let is_param = local.is_some_and(|l| (l.0 as usize) < fcx.nparams);
                            let nrvo = local.filter(|_| !is_param);
                            // The declared type: `T&&` keeps its mark (see `is_rvalue_ref`).
                            let target = if matches!(ret.ty, Ty::Ref(_)) { ret.clone() } else { ret.unqual() };
                            let v = match nrvo {
                                Some(_) => {
                                    let t = v.ty.unqual();
                                    Expr::new(ExprKind::Load(Box::new(v)), t, false, e.span)
                                }
                                None if is_param => self.convert(v.into_xvalue(), &target, "return"),
                                None => self.convert(v, &target, "return"),
                            };
                            let temps = self.fcx.as_ref().unwrap().temps.len() > mark;
                            let needs = temps || self.fcx.as_ref().unwrap().dtor_scopes.iter().any(|s| !s.is_empty()) || !self.fcx.as_ref().unwrap().epilogue.is_empty();
                            if !needs {
                                StmtKind::Return(Some(v))
                            } else {
                                // Compute the value, then run destructors, then return it.
                                let saved = self.fcx.as_ref().unwrap().nrvo;
                                self.fcx.as_mut().unwrap().nrvo = nrvo;
                                let rl = self.new_local("__ret".into(), ret.unqual(), None);
                                let mut out = vec![self.with_temps(mark, st(StmtKind::Decl(rl, Some(Init::Expr(v))), sp))];
                                self.exit_scopes(1, &mut out);
                                self.fcx.as_mut().unwrap().nrvo = saved;
                                let rt = ret.unqual();
                                let load = Expr::new(ExprKind::Load(Box::new(Expr::new(ExprKind::Local(rl), rt.clone(), true, sp))), rt, false, sp);
                                out.push(st(StmtKind::Return(Some(load)), sp));
                                StmtKind::Block(out)
                            }
                        }
                    }
                }
            }
            ast::StmtKind::Goto(l) => StmtKind::Goto(self.label_id(l, false)),
            ast::StmtKind::Label { label, body } => {
                let id = self.label_id(label, true);
                let b = self.stmt(body);
                StmtKind::Label(id, Box::new(b))
            }
            ast::StmtKind::StaticAssert { cond, message } => {
                self.static_assert(cond, message.as_deref(), sp);
                StmtKind::Empty
            }
            ast::StmtKind::Pragma(_) | ast::StmtKind::Empty => StmtKind::Empty,
            ast::StmtKind::Asm(a) => self.asm_stmt(a, sp),
            ast::StmtKind::RangeFor { decl, range, body } => self.range_for(decl, range, body, sp),
            ast::StmtKind::IfConstexpr { cond, then, else_ } => self.if_constexpr(cond, then, else_.as_deref()),
            ast::StmtKind::Using(u) => {
                self.using(u, sp);
                StmtKind::Empty
            }
        };
        st(kind, sp)
    }

    fn loop_body(&mut self, body: &ast::Stmt) -> Stmt {
        let f = self.fcx.as_mut().unwrap();
        f.loops += 1;
        f.breakable += 1;
        let depth = f.dtor_scopes.len();
        f.loop_depths.push(depth);
        f.break_depths.push(depth);
        self.push_scope();
        let mut v = vec![self.stmt(body)];
        self.exit_scopes(depth, &mut v);
        self.pop_scope();
        let f = self.fcx.as_mut().unwrap();
        f.loops -= 1;
        f.breakable -= 1;
        f.loop_depths.pop();
        f.break_depths.pop();
        let sp = v[0].span;
        if v.len() == 1 { v.pop().unwrap() } else { st(StmtKind::Block(v), sp) }
    }

    fn local_decl(&mut self, d: &ast::Declaration) -> Vec<Stmt> {
        let mut out = Vec::new();
        let is_auto = matches!(d.spec.ty, ast::TypeSpec::Auto);
        let base = if is_auto { QTy { ty: Ty::Error, c: d.spec.cv.is_const, v: d.spec.cv.is_volatile } } else { self.spec_type(&d.spec) };
        for id in &d.declarators {
            let Some(name) = &id.declarator.name else { continue };
            let name = name.last().clone();
            if matches!(id.declarator.derived.first(), Some(ast::Derived::Function(_))) {
                // A local function declaration: declare it at file scope.
                let fcx = self.fcx.take();
                self.declare_function(&d.spec, &id.declarator, None, d.span);
                self.fcx = fcx;
                continue;
            }
            let binds_reference = matches!(id.declarator.derived.first(), Some(ast::Derived::Reference { .. }));
            let mut ty = if is_auto {
                let Some(ast::Initializer::Expr(e)) = &id.init else {
                    self.err(name.span, format!("declaration of variable '{}' with deduced type 'auto' requires an initializer", name.name));
                    continue;
                };
                let v = if binds_reference { self.object_operand_pub(e) } else { self.expr(e) };
                let t = self.auto_reference_deduction(&v, &id.declarator.derived, &base);
                let v = self.rvalue(v);
                if v.is_error() {
                    continue;
                }
                let t = t.unwrap_or(QTy { ty: v.ty.ty.clone(), c: base.c, v: base.v });
                self.apply_declarator(t, &id.declarator.derived)
            } else {
                self.apply_declarator(base.clone(), &id.declarator.derived)
            };
            if d.spec.storage == Some(ast::Storage::Typedef) {
                self.bind_name(&name.name, Sym::Typedef(ty));
                continue;
            }
            if let (Ty::Array(e, None), Some(init)) = (&ty.ty, &id.init) {
                if let Some(n) = self.init_array_len(e, init) {
                    ty = QTy { ty: Ty::Array(e.clone(), Some(n)), ..ty.clone() };
                }
            }
            if d.spec.cuda.shared {
                out.extend(self.local_shared(d, id, &name, ty));
                continue;
            }
            if d.spec.cuda.constant || d.spec.cuda.device {
                self.err(name.span, "__device__ and __constant__ variables cannot be declared inside a function");
                continue;
            }
            match d.spec.storage {
                Some(ast::Storage::Static) => {
                    self.err(name.span, "static local variables are not supported in device code yet");
                    continue;
                }
                Some(ast::Storage::Extern) => {
                    self.err(name.span, "extern local variables are not supported in device code");
                    continue;
                }
                _ => {}
            }
            if !ty.ty.is_error() && !matches!(ty.ty, Ty::Ref(_)) && !self.prog.types.is_complete(&ty.ty) {
                self.err(name.span, format!("variable has incomplete type '{}'", self.show(&ty)));
                continue;
            }
            if matches!(ty.ty, Ty::Ref(_)) && id.init.is_none() {
                self.err(name.span, format!("declaration of reference variable '{}' requires an initializer", name.name));
                continue;
            }
            let mut align = attr_align(self, &d.spec.attrs);
            if let Some(a) = attr_align(self, &id.declarator.attrs) {
                align = Some(a);
            }
            let l = self.new_local(name.name.clone(), ty.clone(), align);
            if !is_auto {
                self.bind_name(&name.name, Sym::Local(l));
            }
            let mark = self.fcx.as_ref().unwrap().temps.len();
            let init = match &id.init {
                None => self.default_init(&ty, id.declarator.span),
                // A reference binds to the object a `const` local names, not to a
                // temporary holding its folded value.
                Some(i) if matches!(ty.ty, Ty::Ref(_)) => self.without_const_folding(|c| c.check_initializer(i, &ty, id.declarator.span)),
                Some(i) => self.check_initializer(i, &ty, id.declarator.span),
            };
            if is_auto {
                self.bind_name(&name.name, Sym::Local(l));
            }
            if matches!(ty.ty, Ty::Ref(_)) {
                // Temporaries bound to a reference live as long as the reference.
                let f = self.fcx.as_mut().unwrap();
                let ts: Vec<LocalId> = f.temps.drain(mark..).collect();
                f.dtor_scopes.last_mut().unwrap().extend(ts);
            }
            if self.needs_dtor(&ty.ty) {
                let f = self.fcx.as_mut().unwrap();
                f.dtor_scopes.last_mut().unwrap().push(l);
            }
            if let (true, false, true, Some(Init::Expr(e))) = (ty.c, ty.v, ty.ty.is_arith(), &init) {
                if let Some(v) = eval_const(&self.prog, e) {
                    let value = init::cval_expr(v, &ty, e.span);
                    self.fcx.as_mut().unwrap().local_consts.insert(l.0, value);
                }
            }
            let s = st(StmtKind::Decl(l, init), id.declarator.span);
            out.push(self.with_temps(mark, s));
        }
        out
    }

    fn local_shared(&mut self, d: &ast::Declaration, id: &ast::InitDeclarator, name: &ast::Ident, ty: QTy) -> Vec<Stmt> {
        if id.init.is_some() {
            self.err(id.declarator.span, "initializer not allowed for __shared__ variable");
        }
        let fname = self.fcx.as_ref().unwrap().name.clone();
        let base = format!("{fname}.{}", name.name);
        let mut uname = base.clone();
        let mut n = 1;
        while self.prog.globals.iter().any(|g| g.function_local && g.name == uname) {
            n += 1;
            uname = format!("{base}.{n}");
        }
        let dynamic = matches!(ty.ty, Ty::Array(_, None));
        if !dynamic && !self.prog.types.is_complete(&ty.ty) && !ty.ty.is_error() {
            self.err(name.span, format!("variable has incomplete type '{}'", self.show(&ty)));
        }
        if dynamic && d.spec.storage != Some(ast::Storage::Extern) {
            self.err(name.span, "a __shared__ array without a size must be declared 'extern'");
        }
        let gid = GVarId(self.prog.globals.len() as u32);
        let align = attr_align(self, &d.spec.attrs).or(attr_align(self, &id.declarator.attrs));
        self.prog.globals.push(GlobalVar {
            name: uname,
            scope: self.ns.clone(),
            extern_c: false,
            ty,
            space: VarSpace::Shared,
            align,
            is_extern: dynamic,
            is_static: true,
            init: None,
            const_value: None,
            span: name.span,
            function_local: true,
        });
        self.bind_name(&name.name, Sym::Var(gid));
        Vec::new()
    }
}
