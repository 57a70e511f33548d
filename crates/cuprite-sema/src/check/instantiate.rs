//! Function template specializations: calls that name function templates (deduction,
//! overload resolution with non-template functions), the declaration of a
//! specialization, lazy checking of its body with its template arguments, kernels
//! instantiated on the host object's request, and the expansion of packs in the syntax
//! of a specialization (`Ts... xs` → `Ts#0 xs#0, Ts#1 xs#1`; `(xs + ...)` →
//! `xs#0 + (xs#1 + xs#2)`; `sizeof...(xs)` → `3`), after which it is ordinary code.

use super::template::{Env, FnInst, Inst, TArg, TKind, TemplId};
use super::*;

impl<'o> Checker<'o> {
    /// Check a function's body in the context it was made in (template arguments and
    /// instantiation chain of a specialization).
    pub(crate) fn check_function_in_context(&mut self, id: FnId) {
        let Some(ctx) = self.tpl.fn_ctx.get(&id).cloned() else {
            self.check_function(id);
            return;
        };
        let saved_env = std::mem::replace(&mut self.tpl.env, Some(ctx.env));
        let saved_chain = std::mem::replace(&mut self.tpl.chain, ctx.chain);
        self.check_function(id);
        self.tpl.env = saved_env;
        self.tpl.chain = saved_chain;
    }

    /// The specialization of function template `t` for the complete argument list
    /// `args` (its declaration; the body is checked when it is used). `None` if its
    /// declaration has errors (reported unless silent).
    pub(crate) fn instantiate_function(&mut self, t: TemplId, args: Vec<TArg>, sp: Span) -> Option<FnId> {
        let key = self.targs_key(&args);
        match self.tpl.defs[t].instances.get(&key) {
            Some(Inst::Fn(f)) => return Some(*f),
            Some(_) => return None,
            None => {}
        }
        let d = self.tpl.defs[t].clone();
        let display = format!("{}<{}>", qualify(&d.scope, &d.name), self.show_targs(&args));
        // An explicit specialization for these arguments?
        let mut chosen: Option<(ast::Item, Env)> = None;
        for s in d.specs.iter().filter(|s| s.params.is_empty()) {
            let saved = self.enter_template(d.scope.clone(), d.outer.clone(), self.tpl.chain.clone(), false);
            let sargs = if s.args.is_empty() { self.deduce_from_specialization(t, &s.item) } else { self.eval_template_args(&s.args) };
            self.leave_template(saved);
            let Some(sargs) = sargs else { continue };
            let saved = self.enter_template(d.scope.clone(), d.outer.clone(), self.tpl.chain.clone(), false);
            let full = self.bind_template_params(&d.params, &sargs, &HashMap::new(), &d.outer, &d.scope, &d.name, s.item.span, true);
            self.leave_template(saved);
            if full.is_some_and(|(_, f)| self.targs_key(&f) == key) {
                chosen = Some((s.item.clone(), d.outer.clone()));
                break;
            }
        }
        let (item, env) = match chosen {
            Some(c) => c,
            None => match &d.out_def {
                Some((outer, params, item)) => {
                    let (env, _) = self.bind_template_params(params, &args, &HashMap::new(), outer, &d.scope, &d.name, sp, self.silent > 0)?;
                    (item.clone(), env)
                }
                None => {
                    let (env, _) = self.bind_template_params(&d.params, &args, &HashMap::new(), &d.outer, &d.scope, &d.name, sp, self.silent > 0)?;
                    (d.item.clone(), env)
                }
            },
        };
        let item = expand_item_packs(&item, &env);
        if self.template_depth_exceeded(sp) {
            return None;
        }
        let chain = self.chain_with(display, sp);
        let saved = self.enter_template(d.scope.clone(), env.clone(), chain.clone(), d.in_system_header);
        let fid = self.declare_specialization(&d, &item);
        self.leave_template(saved);
        let Some(fid) = fid else {
            self.tpl.defs[t].instances.insert(key, Inst::Failed);
            return None;
        };
        self.tpl.defs[t].instances.insert(key, Inst::Fn(fid));
        self.tpl.fn_ctx.insert(fid, FnInst { env: env.clone(), chain: chain.clone(), templ: Some((t, args)) });
        // `auto` return type: deduced from the body (checked once, quietly, to see it).
        if self.prog.functions[fid.0 as usize].sig.ret.ty.is_error() && returns_auto(&item) {
            let def = self.prog.functions[fid.0 as usize].def.clone();
            let saved_fcx = self.fcx.take();
            let saved_ns = self.ns.clone();
            self.silent += 1;
            self.check_function_in_context(fid);
            self.silent -= 1;
            self.fcx = saved_fcx;
            self.ns = saved_ns;
            let f = &mut self.prog.functions[fid.0 as usize];
            let ret = f.body.as_ref().and_then(|b| first_return_type(&b.stmts)).unwrap_or(QTy::new(Ty::Void));
            f.sig.ret = ret.unqual();
            f.body = None;
            f.def = def;
        }
        Some(fid)
    }

    /// The arguments of `template <> float f(float)` (none written): deduced from its
    /// parameter types.
    fn deduce_from_specialization(&mut self, t: TemplId, item: &ast::Item) -> Option<Vec<TArg>> {
        let decl = match &item.kind {
            ast::ItemKind::FunctionDef(f) => f.declarator.clone(),
            ast::ItemKind::Decl(d) => d.declarators.first()?.declarator.clone(),
            _ => return None,
        };
        let Some(ast::Derived::Function(fd)) = decl.derived.first() else { return None };
        let mut args = Vec::new();
        for p in &fd.params {
            let ty = self.param_type(p);
            let rref = super::overload::is_rvalue_ref(&ty);
            let (ty, lvalue) = match ty.ty {
                Ty::Ref(t) => (*t, true),
                _ => (ty, false),
            };
            let arg = Expr::new(ExprKind::Error, ty, lvalue, p.span);
            args.push(if rref { arg.into_xvalue() } else { arg });
        }
        self.silent += 1;
        let r = self.deduce_call(t, &[], &args, item.span);
        self.silent -= 1;
        r
    }

    /// Declare the function a specialization's (expanded) item declares.
    fn declare_specialization(&mut self, d: &super::template::TemplateDef, item: &ast::Item) -> Option<FnId> {
        let (spec, decl, def) = match &item.kind {
            ast::ItemKind::FunctionDef(f) => (f.spec.clone(), f.declarator.clone(), Some(f.clone())),
            ast::ItemKind::Decl(dd) => (dd.spec.clone(), dd.declarators.first()?.declarator.clone(), None),
            _ => return None,
        };
        let errs = self.diags.len();
        let space = Self::exec_space(&spec.cuda);
        let auto = matches!(spec.ty, ast::TypeSpec::Auto);
        let ret = match (auto, decl.derived.first()) {
            (true, Some(ast::Derived::Function(ast::FunctionDeclarator { trailing_return: Some(t), .. }))) => self.type_name(t),
            (true, _) => QTy::error(),
            // (Constructor templates are not supported: they have no type specifier.)
            _ => self.return_base_type(&spec),
        };
        let mut derived = decl.derived.clone();
        if let Some(ast::Derived::Function(fd)) = derived.first_mut() {
            fd.trailing_return = None;
        }
        let fty = self.apply_declarator(ret, &derived);
        let Ty::Func(sig) = fty.ty else { return None };
        if sig.params.iter().any(|p| p.ty.is_error()) || (self.silent > 0 && self.diags.len() > errs) {
            return None;
        }
        if space == ExecSpace::Global && sig.ret.ty != Ty::Void && !sig.ret.ty.is_error() {
            self.err(decl.span, "a __global__ function must have a void return type");
        }
        let inline = Self::inline_hint(&spec.cuda);
        let lb = self.launch_bounds(&spec.cuda);
        let fd = match decl.derived.first() {
            Some(ast::Derived::Function(fd)) => Some(fd.clone()),
            _ => None,
        };
        let method = d.class.map(|c| MethodInfo {
            class: c,
            kind: MethodKind::Normal,
            is_static: spec.storage == Some(ast::Storage::Static),
            is_const: fd.as_ref().is_some_and(|f| f.cv.is_const),
            access: d.access,
            explicit: spec.is_explicit,
            implicit: false,
        });
        let id = FnId(self.prog.functions.len() as u32);
        self.prog.functions.push(Function {
            name: d.name.clone(),
            scope: d.scope.clone(),
            extern_c: d.extern_c,
            space,
            sig: *sig,
            inline,
            launch_bounds: lb,
            span: item.span,
            in_system_header: d.in_system_header,
            body: None,
            def,
            builtin_name: None,
            cxx: FnCxx {
                method,
                defaults: fd.map(|f| f.params.iter().map(|p| p.default.clone()).collect()).unwrap_or_default(),
                is_constexpr: spec.is_constexpr,
            },
        });
        Some(id)
    }

    // ------------------------------------------------------------ calls

    /// A call whose callee names function templates (`f(x)`, `f<int>(x)`, `ns::f(x)`):
    /// deduce each template's arguments, instantiate the viable ones, and resolve the
    /// overload among them and the non-template functions of the same name. `None` when
    /// the name names no function template (an ordinary call).
    pub(crate) fn template_call(&mut self, path: &ast::Path, args: &[ast::Expr], callee_span: Span, sp: Span) -> Option<Expr> {
        let n = path.segments.len();
        let explicit_args = path.segment_args(n - 1).map(|a| a.to_vec());
        let mut p0 = path.clone();
        if !p0.args.is_empty() {
            p0.args[n - 1] = None;
            if p0.args.iter().all(Option::is_none) {
                p0.args.clear();
            }
        }
        let base = match self.canonical_path(&p0) {
            super::template::Canon::Same => p0,
            super::template::Canon::Path(p) => p,
            super::template::Canon::Sym(_) => return None,
        };
        let ids: Vec<TemplId> = self.find_templates(&base)?.into_iter().filter(|t| self.tpl.defs[*t].kind == TKind::Function).collect();
        if ids.is_empty() {
            return None;
        }
        let name = path.last().name.clone();
        let explicit = match &explicit_args {
            Some(a) => match self.eval_template_args(a) {
                Some(v) => v,
                None => return Some(Expr::error(sp)),
            },
            None => vec![],
        };
        let hargs: Vec<Expr> = self.user_call_args(args);
        if hargs.iter().any(|a| a.is_error()) {
            return Some(Expr::error(sp));
        }
        let mut cands = Vec::new();
        if explicit_args.is_none() {
            if let Some(Sym::Funcs(f)) = self.lookup_plain(&base) {
                cands.extend(f);
            }
        }
        let templ_cands = self.template_candidates(&ids, &explicit, &hargs, sp);
        if templ_cands.is_empty() && cands.is_empty() {
            // CUDA's own overloads of a builtin (`max(double, float)`) stay candidates
            // beside a program's template of the same name, as nvcc's headers declare
            // them: the builtin call takes over when no template fits.
            if explicit_args.is_none() && self.builtin_named(path).is_some() {
                return None;
            }
            return Some(self.no_viable_template(&name, &ids, &explicit, &hargs, sp));
        }
        cands.extend(templ_cands);
        let Some(fid) = self.resolve_overload(&cands, None, &hargs, &format!("function for call to '{name}'"), sp, true) else {
            return Some(Expr::error(sp));
        };
        if self.prog.functions[fid.0 as usize].has_this() {
            let Some(obj) = self.this_object(sp) else {
                self.err(callee_span, format!("call to non-static member function '{name}' without an object argument"));
                return Some(Expr::error(sp));
            };
            return Some(self.finish_method_call(fid, obj, hargs, callee_span, sp));
        }
        if self.prog.functions[fid.0 as usize].cxx.method.is_some() {
            return Some(self.finish_method_call(fid, Expr::error(sp), hargs, callee_span, sp));
        }
        Some(self.user_call_this(fid, hargs, None, callee_span, sp))
    }

    /// The specializations of `ids` that deduction makes for a call (quietly: a
    /// template whose deduction fails is not a candidate).
    pub(crate) fn template_candidates(&mut self, ids: &[TemplId], explicit: &[TArg], hargs: &[Expr], sp: Span) -> Vec<FnId> {
        let mut out = Vec::new();
        for t in ids {
            self.silent += 1;
            let full = self.deduce_call(*t, explicit, hargs, sp);
            let f = full.and_then(|full| self.instantiate_function(*t, full, sp));
            self.silent -= 1;
            if let Some(f) = f {
                out.push(f);
            }
        }
        out
    }

    fn no_viable_template(&mut self, name: &str, ids: &[TemplId], explicit: &[TArg], hargs: &[Expr], sp: Span) -> Expr {
        let tys: Vec<String> = hargs.iter().map(|a| format!("'{}'", self.show(&a.ty))).collect();
        let mut d = Diagnostic::error(sp, format!("no matching function for call to '{name}' with arguments ({})", tys.join(", ")));
        for t in ids {
            let def = &self.tpl.defs[*t];
            let why = if explicit.len() > def.params.len() && !def.params.iter().any(|p| p.pack) {
                "too many template arguments".to_string()
            } else {
                "could not deduce its template arguments, or substituting them failed".to_string()
            };
            d = d.with_note(Some(def.span), format!("candidate template ignored: {why}"));
        }
        self.diag(d);
        Expr::error(sp)
    }

    /// `obj.f<int>(x)`, `obj.template f<int>(x)`, and `obj.f(x)` where `f` is a member
    /// function template. `None` when the callee is not one.
    pub(crate) fn member_template_call(&mut self, callee: &ast::Expr, args: &[ast::Expr], sp: Span) -> Option<Expr> {
        let (base, member, arrow, targs) = match &callee.kind {
            ast::ExprKind::MemberTemplateId { base, member, args, arrow } => (base, member, *arrow, Some(args.clone())),
            ast::ExprKind::Member { base, member, arrow } => {
                if !self.tpl.defs.iter().any(|d| d.class.is_some() && d.kind == TKind::Function && d.name == member.name) {
                    return None;
                }
                (base, member, *arrow, None)
            }
            _ => return None,
        };
        // The object's class, found without reporting (the ordinary path reports).
        self.silent += 1;
        let probe = self.expr(base);
        self.silent -= 1;
        let probe_ty = if arrow { probe.ty.ty.pointee().cloned().unwrap_or(QTy::error()) } else { probe.ty.clone() };
        let Ty::Record(r) = probe_ty.ty else {
            if targs.is_some() {
                let b = self.expr(base);
                if !b.is_error() {
                    self.err(member.span, format!("member reference base type '{}' is not a structure or union", self.show(&b.ty)));
                }
                return Some(Expr::error(sp));
            }
            return None;
        };
        let mut ids: Vec<TemplId> = Vec::new();
        for k in self.class_chain(r) {
            if let Some(v) = self.tpl.by_name.get(&qualify(&self.class_ns(k), &member.name)) {
                ids = v.iter().copied().filter(|t| self.tpl.defs[*t].kind == TKind::Function).collect();
                break;
            }
        }
        if ids.is_empty() {
            if targs.is_some() {
                self.err(member.span, format!("no member template named '{}' in '{}'", member.name, self.show(&probe_ty.unqual())));
                return Some(Expr::error(sp));
            }
            return None;
        }
        let b = self.expr(base);
        let obj = if arrow {
            let b = self.rvalue(b);
            self.deref(b, base.span)
        } else {
            b
        };
        let explicit = match &targs {
            Some(a) => match self.eval_template_args(a) {
                Some(v) => v,
                None => return Some(Expr::error(sp)),
            },
            None => vec![],
        };
        let hargs: Vec<Expr> = self.user_call_args(args);
        if obj.is_error() || hargs.iter().any(|a| a.is_error()) {
            return Some(Expr::error(sp));
        }
        let mut cands = if targs.is_none() { self.lookup_methods(r, &member.name) } else { vec![] };
        let templ = self.template_candidates(&ids, &explicit, &hargs, sp);
        if templ.is_empty() && cands.is_empty() {
            return Some(self.no_viable_template(&member.name, &ids, &explicit, &hargs, sp));
        }
        cands.extend(templ);
        Some(self.method_call(obj, cands, &member.name, hargs, member.span, sp))
    }

    // ------------------------------------------------------------ requests

    /// Instantiate kernel template `name` (qualified) for the template arguments the
    /// host compiler used (`args`: C++ source, as the demangler prints them), its stub
    /// being `symbol`.
    pub fn request_kernel(&mut self, name: &str, args: &str, symbol: &str) {
        let sp = Span::default();
        let Some(ids) = self.tpl.by_name.get(name).cloned() else {
            self.err(sp, format!("internal error: the host object uses kernel template '{name}', which device code does not declare"));
            return;
        };
        let names = self.names_for_parser();
        let parsed = match cuprite_front::parse_template_args(args, &names) {
            Ok(a) => a,
            Err(e) => {
                self.err(sp, format!("cannot read the template arguments '{args}' of kernel '{name}' (from the host object's symbol {symbol}): {}", e.message));
                return;
            }
        };
        let Some(targs) = self.eval_template_args(&parsed) else { return };
        let t = ids.iter().copied().find(|t| self.tpl.defs[*t].is_kernel()).unwrap_or(ids[0]);
        let what = format!("{name}<{}>", self.show_targs(&targs));
        // Errors point at the template, with the request as a note.
        let def_span = self.tpl.defs[t].span;
        let saved = std::mem::replace(&mut self.tpl.chain, vec![]);
        let _ = what;
        let fid = self.instantiate_function(t, targs, def_span);
        self.tpl.chain = saved;
        if let Some(f) = fid {
            if let Some(ctx) = self.tpl.fn_ctx.get_mut(&f) {
                if let Some(last) = ctx.chain.last_mut() {
                    last.0 = format!("{} (launched by host code: {symbol})", last.0);
                }
            }
            self.tpl.stub_symbols.insert(f, symbol.to_string());
            self.tpl.roots.push(f);
        }
    }

    /// Names the parser must know as types or templates to read template arguments.
    fn names_for_parser(&self) -> Vec<(String, cuprite_front::NameClass)> {
        use cuprite_front::NameClass;
        let mut v = Vec::new();
        for (k, s) in &self.names {
            if let Sym::Typedef(_) = s {
                v.push((k.clone(), NameClass::Type));
            }
        }
        for k in self.tags.keys() {
            if !k.contains('<') {
                v.push((k.clone(), NameClass::Type));
            }
        }
        for (k, ids) in &self.tpl.by_name {
            let c = match self.tpl.defs[ids[0]].kind {
                TKind::Class | TKind::Alias => NameClass::TypeTemplate,
                _ => NameClass::Template,
            };
            v.push((k.clone(), c));
        }
        v
    }
}

fn returns_auto(it: &ast::Item) -> bool {
    match &it.kind {
        ast::ItemKind::FunctionDef(f) => matches!(f.spec.ty, ast::TypeSpec::Auto),
        _ => false,
    }
}

fn first_return_type(stmts: &[Stmt]) -> Option<QTy> {
    for s in stmts {
        let t = match &s.kind {
            StmtKind::Return(Some(e)) => Some(match &e.ty.ty {
                Ty::Array(el, _) if e.lvalue => QTy::new(Ty::ptr((**el).clone())),
                _ => e.ty.clone(),
            }),
            StmtKind::Block(b) => first_return_type(b),
            StmtKind::If(_, a, b) => first_return_type(std::slice::from_ref(a)).or_else(|| b.as_ref().and_then(|b| first_return_type(std::slice::from_ref(b)))),
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::For(_, _, _, b) | StmtKind::Case(_, b) | StmtKind::Label(_, b) => first_return_type(std::slice::from_ref(b)),
            StmtKind::Switch { body, .. } => first_return_type(std::slice::from_ref(body)),
            _ => None,
        };
        if t.is_some() {
            return t;
        }
    }
    None
}

// ---------------------------------------------------------------------------------------
// Pack expansion in the syntax of a specialization.

/// Pack names and their lengths in scope of an item: the environment's packs and the
/// item's function parameter packs.
fn item_packs(item: &ast::Item, env: &Env) -> HashMap<String, usize> {
    let mut packs = env.packs();
    let decl = match &item.kind {
        ast::ItemKind::FunctionDef(f) => Some(&f.declarator),
        ast::ItemKind::Decl(d) => d.declarators.first().map(|i| &i.declarator),
        _ => None,
    };
    if let Some(ast::Derived::Function(fd)) = decl.and_then(|d| d.derived.first()) {
        for p in &fd.params {
            if p.declarator.pack {
                let mut c = Collect { packs: &packs, found: Vec::new() };
                c.spec(&mut p.spec.clone());
                if let (Some(n), Some(first)) = (&p.declarator.name, c.found.first()) {
                    let len = packs[first];
                    packs.insert(n.last().name.clone(), len);
                }
            }
        }
    }
    packs
}

/// The item with its packs expanded (unchanged when it has none).
pub(crate) fn expand_item_packs(item: &ast::Item, env: &Env) -> ast::Item {
    let packs = item_packs(item, env);
    if packs.is_empty() {
        return item.clone();
    }
    let mut it = item.clone();
    let mut x = Expand { packs: &packs };
    match &mut it.kind {
        ast::ItemKind::FunctionDef(f) => {
            x.spec(&mut f.spec);
            x.declarator(&mut f.declarator);
            for (_, args) in &mut f.ctor_inits {
                x.pre_expr_list(args);
                for a in args.iter_mut() {
                    x.expr(a);
                }
            }
            x.block(&mut f.body);
        }
        ast::ItemKind::Decl(d) => x.declaration(d),
        _ => {}
    }
    it
}

/// `X...` in a template argument list whose pattern is not a plain pack name.
pub(crate) fn expand_targ_pack(pattern: &ast::TemplateArg, packs: &HashMap<String, usize>) -> Option<Vec<ast::TemplateArg>> {
    let mut c = Collect { packs, found: Vec::new() };
    let mut p = pattern.clone();
    c.targ(&mut p);
    let first = c.found.first()?;
    let n = packs[first];
    let mut out = Vec::new();
    for i in 0..n {
        let mut q = pattern.clone();
        let mut r = Rename { packs, index: i };
        r.targ(&mut q);
        out.push(q);
    }
    Some(out)
}

/// A walk over the syntax that visitors hook into.
trait Walk {
    /// Before an expression's children; `true`: replaced, do not descend.
    fn pre_expr(&mut self, _e: &mut ast::Expr) -> bool {
        false
    }
    fn pre_expr_list(&mut self, _l: &mut Vec<ast::Expr>) {}
    fn pre_targ_list(&mut self, _l: &mut Vec<ast::TemplateArg>) {}
    fn pre_params(&mut self, _l: &mut Vec<ast::Param>) {}
    fn path_name(&mut self, _p: &mut ast::Path) {}
    fn ident(&mut self, _i: &mut ast::Ident) {}

    fn path(&mut self, p: &mut ast::Path) {
        self.path_name(p);
        for a in p.args.iter_mut().flatten() {
            self.pre_targ_list(a);
            for t in a.iter_mut() {
                self.targ(t);
            }
        }
    }
    fn targ(&mut self, a: &mut ast::TemplateArg) {
        match a {
            ast::TemplateArg::Type(t) => self.type_name(t),
            ast::TemplateArg::Expr(e) => self.expr(e),
            ast::TemplateArg::Pack(p) => self.targ(p),
        }
    }
    fn type_name(&mut self, t: &mut ast::TypeName) {
        self.spec(&mut t.spec);
        self.declarator(&mut t.declarator);
    }
    fn spec(&mut self, s: &mut ast::DeclSpec) {
        match &mut s.ty {
            ast::TypeSpec::Named(p) => self.path(p),
            ast::TypeSpec::Decltype(e) => self.expr(e),
            ast::TypeSpec::Record(r) => {
                for m in r.members.iter_mut().flatten() {
                    match m {
                        ast::Member::Field(d) | ast::Member::FunctionDecl(d) => self.declaration(d),
                        ast::Member::Function(f) => {
                            self.spec(&mut f.spec);
                            self.declarator(&mut f.declarator);
                            self.block(&mut f.body);
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        if let Some(lb) = &mut s.cuda.launch_bounds {
            for e in lb.iter_mut() {
                self.expr(e);
            }
        }
    }
    fn declarator(&mut self, d: &mut ast::Declarator) {
        if let Some(n) = &mut d.name {
            if n.segments.len() == 1 {
                self.ident(&mut n.segments[0]);
            }
        }
        for x in &mut d.derived {
            match x {
                ast::Derived::Array(Some(e)) => self.expr(e),
                ast::Derived::Function(fd) => {
                    self.pre_params(&mut fd.params);
                    for p in &mut fd.params {
                        self.spec(&mut p.spec);
                        self.declarator(&mut p.declarator);
                        if let Some(e) = &mut p.default {
                            self.expr(e);
                        }
                    }
                    if let Some(t) = &mut fd.trailing_return {
                        self.type_name(t);
                    }
                }
                _ => {}
            }
        }
    }
    fn declaration(&mut self, d: &mut ast::Declaration) {
        self.spec(&mut d.spec);
        for i in &mut d.declarators {
            self.declarator(&mut i.declarator);
            if let Some(init) = &mut i.init {
                self.init(init);
            }
        }
    }
    fn init(&mut self, i: &mut ast::Initializer) {
        match i {
            ast::Initializer::Expr(e) => self.expr(e),
            ast::Initializer::List(items, _) => {
                let mut es: Vec<ast::Expr> = Vec::new();
                let simple = items.iter().all(|it| it.designators.is_empty() && matches!(it.init, ast::Initializer::Expr(_)));
                if simple {
                    for it in items.iter() {
                        if let ast::Initializer::Expr(e) = &it.init {
                            es.push(e.clone());
                        }
                    }
                    self.pre_expr_list(&mut es);
                    *items = es.into_iter().map(|e| ast::InitItem { designators: vec![], init: ast::Initializer::Expr(e) }).collect();
                }
                for it in items.iter_mut() {
                    self.init(&mut it.init);
                }
            }
            ast::Initializer::Ctor(es, _) => {
                self.pre_expr_list(es);
                for e in es.iter_mut() {
                    self.expr(e);
                }
            }
        }
    }
    fn block(&mut self, b: &mut ast::Block) {
        for s in &mut b.stmts {
            self.stmt(s);
        }
    }
    fn stmt(&mut self, s: &mut ast::Stmt) {
        use ast::StmtKind as S;
        match &mut s.kind {
            S::Expr(e) => self.expr(e),
            S::Decl(d) => self.declaration(d),
            S::Block(b) => self.block(b),
            S::If { cond, then, else_ } => {
                self.expr(cond);
                self.stmt(then);
                if let Some(e) = else_ {
                    self.stmt(e);
                }
            }
            S::While { cond, body } | S::DoWhile { body, cond } => {
                self.expr(cond);
                self.stmt(body);
            }
            S::For { init, cond, step, body } => {
                if let Some(i) = init {
                    self.stmt(i);
                }
                if let Some(c) = cond {
                    self.expr(c);
                }
                if let Some(c) = step {
                    self.expr(c);
                }
                self.stmt(body);
            }
            S::Switch { cond, body } => {
                self.expr(cond);
                self.stmt(body);
            }
            S::Case { value, body } => {
                self.expr(value);
                self.stmt(body);
            }
            S::Default { body } | S::Label { body, .. } => self.stmt(body),
            S::Return(Some(e)) => self.expr(e),
            S::StaticAssert { cond, .. } => self.expr(cond),
            _ => {}
        }
    }
    fn expr(&mut self, e: &mut ast::Expr) -> () {
        crate::deep(|| self.expr_here(e))
    }

    fn expr_here(&mut self, e: &mut ast::Expr) {
        if self.pre_expr(e) {
            return;
        }
        use ast::ExprKind as E;
        match &mut e.kind {
            E::Name(p) => self.path(p),
            E::Unary { expr, .. } => self.expr(expr),
            E::Binary { lhs, rhs, .. } | E::Assign { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            E::Cond { cond, then, else_ } => {
                self.expr(cond);
                self.expr(then);
                self.expr(else_);
            }
            E::Call { callee, args } => {
                self.expr(callee);
                self.pre_expr_list(args);
                for a in args.iter_mut() {
                    self.expr(a);
                }
            }
            E::Index { base, index } => {
                self.expr(base);
                self.expr(index);
            }
            E::Member { base, .. } => self.expr(base),
            E::MemberTemplateId { base, args, .. } => {
                self.expr(base);
                self.pre_targ_list(args);
                for a in args.iter_mut() {
                    self.targ(a);
                }
            }
            E::Cast { ty, expr, .. } => {
                self.type_name(ty);
                self.expr(expr);
            }
            E::SizeofExpr(x) => self.expr(x),
            E::SizeofType(t) | E::AlignofType(t) => self.type_name(t),
            E::CompoundLit { ty, init } => {
                self.type_name(ty);
                let mut i = ast::Initializer::List(std::mem::take(init), e.span);
                self.init(&mut i);
                if let ast::Initializer::List(items, _) = i {
                    *init = items;
                }
            }
            E::InitList(items) => {
                let mut i = ast::Initializer::List(std::mem::take(items), e.span);
                self.init(&mut i);
                if let ast::Initializer::List(v, _) = i {
                    *items = v;
                }
            }
            E::PackExpansion(x) => self.expr(x),
            E::Fold { lhs, rhs, .. } => {
                if let Some(l) = lhs {
                    self.expr(l);
                }
                if let Some(r) = rhs {
                    self.expr(r);
                }
            }
            E::SizeofPack(i) => self.ident(i),
            E::OffsetOf { ty, .. } => self.type_name(ty),
            _ => {}
        }
    }
}

/// Finds the packs a pattern mentions.
struct Collect<'p> {
    packs: &'p HashMap<String, usize>,
    found: Vec<String>,
}

impl Walk for Collect<'_> {
    fn path_name(&mut self, p: &mut ast::Path) {
        if p.segments.len() == 1 && self.packs.contains_key(&p.segments[0].name) && !self.found.contains(&p.segments[0].name) {
            self.found.push(p.segments[0].name.clone());
        }
    }
    fn ident(&mut self, i: &mut ast::Ident) {
        if self.packs.contains_key(&i.name) && !self.found.contains(&i.name) {
            self.found.push(i.name.clone());
        }
    }
    fn pre_expr(&mut self, e: &mut ast::Expr) -> bool {
        // Inner expansions expand their own packs.
        matches!(e.kind, ast::ExprKind::PackExpansion(_) | ast::ExprKind::Fold { .. } | ast::ExprKind::SizeofPack(_))
    }
}

/// Renames each pack in a pattern to its `index`th element (`Ts` → `Ts#1`).
struct Rename<'p> {
    packs: &'p HashMap<String, usize>,
    index: usize,
}

impl Walk for Rename<'_> {
    fn path_name(&mut self, p: &mut ast::Path) {
        if p.segments.len() == 1 && self.packs.contains_key(&p.segments[0].name) {
            p.segments[0].name = format!("{}#{}", p.segments[0].name, self.index);
        }
    }
    fn ident(&mut self, i: &mut ast::Ident) {
        if self.packs.contains_key(&i.name) {
            i.name = format!("{}#{}", i.name, self.index);
        }
    }
    fn pre_expr(&mut self, e: &mut ast::Expr) -> bool {
        // `sizeof...(Ts)` inside a pattern still counts the whole pack.
        if let ast::ExprKind::SizeofPack(i) = &e.kind {
            if let Some(n) = self.packs.get(&i.name) {
                *e = size_lit(*n, e.span);
                return true;
            }
        }
        false
    }
}

fn size_lit(n: usize, span: Span) -> ast::Expr {
    ast::Expr { kind: ast::ExprKind::IntLit { value: n as u128, suffix: ast::IntSuffix { unsigned: true, long: 1 }, radix: 10 }, span }
}

/// Expands pack expansions, folds and `sizeof...`.
struct Expand<'p> {
    packs: &'p HashMap<String, usize>,
}

impl Expand<'_> {
    /// The copies of a pattern, one per element of the packs it mentions.
    fn copies<T: Clone>(&self, pattern: &T, walk: impl Fn(&mut Collect, &mut T), rename: impl Fn(&mut Rename, &mut T)) -> Option<Vec<T>> {
        let mut c = Collect { packs: self.packs, found: Vec::new() };
        let mut p = pattern.clone();
        walk(&mut c, &mut p);
        let first = c.found.first()?;
        let n = self.packs[first];
        Some(
            (0..n)
                .map(|i| {
                    let mut q = pattern.clone();
                    rename(&mut Rename { packs: self.packs, index: i }, &mut q);
                    q
                })
                .collect(),
        )
    }
}

impl Walk for Expand<'_> {
    fn pre_expr(&mut self, e: &mut ast::Expr) -> bool {
        match &e.kind {
            ast::ExprKind::SizeofPack(i) => {
                if let Some(n) = self.packs.get(&i.name) {
                    *e = size_lit(*n, e.span);
                    return true;
                }
                false
            }
            ast::ExprKind::Fold { op, lhs, rhs } => {
                let op = *op;
                let sp = e.span;
                // Which operand holds the pack.
                let has_pack = |x: &ast::Expr| {
                    let mut c = Collect { packs: self.packs, found: Vec::new() };
                    let mut y = x.clone();
                    c.expr_inner(&mut y);
                    !c.found.is_empty()
                };
                let (pattern, init, right) = match (lhs, rhs) {
                    (Some(l), None) => ((**l).clone(), None, true),
                    (None, Some(r)) => ((**r).clone(), None, false),
                    (Some(l), Some(r)) => {
                        if has_pack(l) {
                            ((**l).clone(), Some((**r).clone()), true)
                        } else {
                            ((**r).clone(), Some((**l).clone()), false)
                        }
                    }
                    (None, None) => return false,
                };
                let Some(mut elems) = self.copies(&pattern, |c, x| c.expr_inner(x), |r, x| r.expr(x)) else { return false };
                for x in &mut elems {
                    self.expr(x);
                }
                let mut init = init;
                if let Some(i) = &mut init {
                    self.expr(i);
                }
                let bin = |a: ast::Expr, b: ast::Expr| ast::Expr { kind: ast::ExprKind::Binary { op, lhs: Box::new(a), rhs: Box::new(b) }, span: sp };
                let mut items: Vec<ast::Expr> = elems;
                if right {
                    // (E op ...) = E1 op (... op (EN-1 op EN)); with init at the end.
                    if let Some(i) = init {
                        items.push(i);
                    }
                    let Some(mut acc) = items.pop() else {
                        *e = empty_fold(op, sp);
                        return true;
                    };
                    while let Some(x) = items.pop() {
                        acc = bin(x, acc);
                    }
                    *e = paren(acc);
                } else {
                    if let Some(i) = init {
                        items.insert(0, i);
                    }
                    if items.is_empty() {
                        *e = empty_fold(op, sp);
                        return true;
                    }
                    let mut it = items.into_iter();
                    let mut acc = it.next().unwrap();
                    for x in it {
                        acc = bin(acc, x);
                    }
                    *e = paren(acc);
                }
                true
            }
            _ => false,
        }
    }
    fn pre_expr_list(&mut self, l: &mut Vec<ast::Expr>) {
        if !l.iter().any(|e| matches!(e.kind, ast::ExprKind::PackExpansion(_))) {
            return;
        }
        let mut out = Vec::new();
        for e in l.drain(..) {
            match e.kind {
                ast::ExprKind::PackExpansion(x) => match self.copies(&*x, |c, y| c.expr_inner(y), |r, y| r.expr(y)) {
                    Some(v) => out.extend(v),
                    None => out.push(*x),
                },
                _ => out.push(e),
            }
        }
        *l = out;
    }
    fn pre_targ_list(&mut self, l: &mut Vec<ast::TemplateArg>) {
        if !l.iter().any(|a| matches!(a, ast::TemplateArg::Pack(_))) {
            return;
        }
        let mut out = Vec::new();
        for a in l.drain(..) {
            match a {
                ast::TemplateArg::Pack(x) => match self.copies(&*x, |c, y| c.targ(y), |r, y| r.targ(y)) {
                    Some(v) => out.extend(v),
                    None => out.push(ast::TemplateArg::Pack(x)),
                },
                other => out.push(other),
            }
        }
        *l = out;
    }
    fn pre_params(&mut self, l: &mut Vec<ast::Param>) {
        if !l.iter().any(|p| p.declarator.pack) {
            return;
        }
        let mut out = Vec::new();
        for p in l.drain(..) {
            if !p.declarator.pack {
                out.push(p);
                continue;
            }
            let walk = |c: &mut Collect, q: &mut ast::Param| {
                c.spec(&mut q.spec);
                c.declarator(&mut q.declarator);
            };
            let rename = |r: &mut Rename, q: &mut ast::Param| {
                r.spec(&mut q.spec);
                r.declarator(&mut q.declarator);
            };
            match self.copies(&p, walk, rename) {
                Some(v) => out.extend(v.into_iter().map(|mut q| {
                    q.declarator.pack = false;
                    q
                })),
                None => out.push(p),
            }
        }
        *l = out;
    }
}

impl Collect<'_> {
    /// Collect in an expression, including the expression itself.
    fn expr_inner(&mut self, e: &mut ast::Expr) {
        use ast::ExprKind as E;
        match &mut e.kind {
            E::Name(p) => self.path(p),
            _ => {
                // Descend without the pre_expr stop at the top.
                let mut w = CollectDeep { inner: self };
                w.expr(e);
            }
        }
    }
}

/// Collect that does not stop at nested expansions' top.
struct CollectDeep<'a, 'p> {
    inner: &'a mut Collect<'p>,
}

impl Walk for CollectDeep<'_, '_> {
    fn path_name(&mut self, p: &mut ast::Path) {
        self.inner.path_name(p)
    }
    fn ident(&mut self, i: &mut ast::Ident) {
        self.inner.ident(i)
    }
    fn pre_expr(&mut self, e: &mut ast::Expr) -> bool {
        matches!(e.kind, ast::ExprKind::PackExpansion(_) | ast::ExprKind::SizeofPack(_))
    }
}

fn paren(e: ast::Expr) -> ast::Expr {
    e
}

/// A fold over an empty pack: `&&` is `true`, `||` is `false`, `,` is `void()`.
fn empty_fold(op: ast::BinOp, sp: Span) -> ast::Expr {
    match op {
        ast::BinOp::LogAnd => ast::Expr { kind: ast::ExprKind::BoolLit(true), span: sp },
        ast::BinOp::LogOr => ast::Expr { kind: ast::ExprKind::BoolLit(false), span: sp },
        _ => ast::Expr { kind: ast::ExprKind::IntLit { value: 0, suffix: ast::IntSuffix::default(), radix: 10 }, span: sp },
    }
}

