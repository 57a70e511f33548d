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
        });
        let mut nparams = 0;
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
        self.fcx.as_mut().unwrap().scopes.push(Scope::default());
        let mut stmts = Vec::new();
        for s in &def.body.stmts {
            stmts.push(self.stmt(s));
        }
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
        self.in_system_header = saved_sys;
    }

    fn new_local(&mut self, name: String, ty: QTy, align: Option<u64>) -> LocalId {
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

    fn push_scope(&mut self) {
        self.fcx.as_mut().unwrap().scopes.push(Scope::default());
    }
    fn pop_scope(&mut self) {
        self.fcx.as_mut().unwrap().scopes.pop();
    }

    fn cond_expr(&mut self, e: &ast::Expr) -> Expr {
        let v = self.expr(e);
        self.to_bool(v)
    }

    pub(crate) fn stmt(&mut self, s: &ast::Stmt) -> Stmt {
        let sp = s.span;
        let kind = match &s.kind {
            ast::StmtKind::Expr(e) => StmtKind::Expr(self.expr(e)),
            ast::StmtKind::Decl(d) => return st(StmtKind::Block(self.local_decl(d)), sp),
            ast::StmtKind::Block(b) => {
                self.push_scope();
                let v = b.stmts.iter().map(|s| self.stmt(s)).collect();
                self.pop_scope();
                StmtKind::Block(v)
            }
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
                self.push_scope();
                let b = self.stmt(body);
                self.pop_scope();
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
                StmtKind::Break
            }
            ast::StmtKind::Continue => {
                if self.fcx.as_ref().unwrap().loops == 0 {
                    self.err(sp, "'continue' statement not in loop statement");
                }
                StmtKind::Continue
            }
            ast::StmtKind::Return(e) => {
                let ret = self.fcx.as_ref().unwrap().ret.clone();
                let name = self.fcx.as_ref().unwrap().name.clone();
                match e {
                    None => {
                        if ret.ty != Ty::Void && !ret.ty.is_error() {
                            self.err(sp, format!("non-void function '{name}' should return a value"));
                        }
                        StmtKind::Return(None)
                    }
                    Some(e) => {
                        let v = self.expr(e);
                        if ret.ty == Ty::Void {
                            if v.ty.ty != Ty::Void && !v.is_error() {
                                self.err(e.span, format!("void function '{name}' should not return a value"));
                            }
                            StmtKind::Block(vec![st(StmtKind::Expr(v), e.span), st(StmtKind::Return(None), sp)])
                        } else {
                            let v = self.convert(v, &ret.unqual(), "return");
                            StmtKind::Return(Some(v))
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
        };
        st(kind, sp)
    }

    fn loop_body(&mut self, body: &ast::Stmt) -> Stmt {
        let f = self.fcx.as_mut().unwrap();
        f.loops += 1;
        f.breakable += 1;
        self.push_scope();
        let b = self.stmt(body);
        self.pop_scope();
        let f = self.fcx.as_mut().unwrap();
        f.loops -= 1;
        f.breakable -= 1;
        b
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
            let mut ty = if is_auto {
                let Some(ast::Initializer::Expr(e)) = &id.init else {
                    self.err(name.span, format!("declaration of variable '{}' with deduced type 'auto' requires an initializer", name.name));
                    continue;
                };
                let v = self.expr(e);
                let v = self.rvalue(v);
                if v.is_error() {
                    continue;
                }
                let t = QTy { ty: v.ty.ty.clone(), c: base.c, v: base.v };
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
            let init = match &id.init {
                None => None,
                Some(i) => self.check_initializer(i, &ty, id.declarator.span),
            };
            if is_auto {
                self.bind_name(&name.name, Sym::Local(l));
            }
            if let (true, false, true, Some(Init::Expr(e))) = (ty.c, ty.v, ty.ty.is_arith(), &init) {
                if let Some(v) = eval_const(&self.prog, e) {
                    let value = init::cval_expr(v, &ty, e.span);
                    self.fcx.as_mut().unwrap().local_consts.insert(l.0, value);
                }
            }
            out.push(st(StmtKind::Decl(l, init), id.declarator.span));
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
