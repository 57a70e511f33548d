//! C++ templates in device code: the registry of templates, template arguments and the
//! environments that bind them, template-ids in names, and class, alias and variable
//! template specializations.
//!
//! Model:
//! - a template is kept as its syntax (`TemplateDef`: the templated item, its parameter
//!   list, its specializations); a specialization is made by checking that syntax again
//!   with the template parameters bound (`Env`): a type parameter is found by lookup as
//!   a typedef of its argument, a non-type parameter as a constant, so the ordinary
//!   checker does the rest. Packs are expanded in the syntax before it is checked
//!   (`instantiate.rs`).
//! - a class template specialization is a record named as C++ prints it
//!   (`Vec<float, 3>`), in the template's scope; its members live in the scope
//!   `Vec<float, 3>::`, so a qualified name inside a specialization resolves through the
//!   ordinary tables once its template-ids are replaced by those names
//!   ([`Checker::canonical_path`]). The injected-class-name (`Vec` inside the class) is a
//!   typedef of the specialization in the class scope.
//! - function template specializations are functions like any other, made when a call
//!   deduces their arguments (`deduce.rs`) and checked lazily, when used, with their
//!   environment; so are the member functions of class template specializations. Kernel
//!   templates are specialized only when the host object asks (`lib.rs`).
//! - errors inside a specialization carry the chain of instantiations as notes.

use super::*;

pub(crate) type TemplId = usize;

/// A template argument, evaluated.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TArg {
    Type(QTy),
    /// A non-type argument, converted to the parameter's type.
    Value(i128, QTy),
    Pack(Vec<TArg>),
}

/// Template parameters bound to arguments (by parameter name). Elements of packs are
/// also bound as `Ts#0`, `Ts#1`, … (the names pack expansion rewrites the pattern to).
#[derive(Clone, Debug, Default)]
pub(crate) struct Env {
    pub binds: HashMap<String, TArg>,
}

impl Env {
    pub fn bind(&mut self, name: &str, a: TArg) {
        if let TArg::Pack(elems) = &a {
            for (i, e) in elems.iter().enumerate() {
                self.binds.insert(format!("{name}#{i}"), e.clone());
            }
        }
        self.binds.insert(name.to_string(), a);
    }
    /// Pack names and their lengths.
    pub fn packs(&self) -> HashMap<String, usize> {
        self.binds
            .iter()
            .filter_map(|(k, v)| match v {
                TArg::Pack(e) => Some((k.clone(), e.len())),
                _ => None,
            })
            .collect()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TKind {
    Function,
    Class,
    Alias,
    Var,
}

/// An explicit (`params` empty) or partial specialization.
#[derive(Clone, Debug)]
pub(crate) struct Spec {
    pub params: Vec<ast::TemplateParam>,
    /// The specialization's template arguments as written (empty for a function
    /// specialization that leaves them to deduction).
    pub args: Vec<ast::TemplateArg>,
    pub item: ast::Item,
}

#[derive(Clone, Debug)]
pub(crate) enum Inst {
    Fn(FnId),
    Rec(RecId),
    Ty(QTy),
    Var(GVarId),
    Failed,
}

#[derive(Clone, Debug)]
pub(crate) struct TemplateDef {
    pub name: String,
    pub scope: Vec<String>,
    pub params: Vec<ast::TemplateParam>,
    pub kind: TKind,
    /// The templated item (`FunctionDef`, or a `Decl` of a record, alias, variable or
    /// function).
    pub item: ast::Item,
    /// The arguments of the enclosing class template specialization (member templates).
    pub outer: Env,
    /// The class of a member template.
    pub class: Option<RecId>,
    pub access: Access,
    pub extern_c: bool,
    pub specs: Vec<Spec>,
    /// Out-of-class definitions of members of a class template: the definition's
    /// template parameters and the item.
    pub members: Vec<(Vec<ast::TemplateParam>, ast::Item)>,
    /// A member function template defined outside its class: the arguments of the class
    /// as the definition names them, the definition's own parameters, the definition.
    pub out_def: Option<(Env, Vec<ast::TemplateParam>, ast::Item)>,
    pub instances: HashMap<String, Inst>,
    pub span: Span,
    pub in_system_header: bool,
}

impl TemplateDef {
    pub fn is_kernel(&self) -> bool {
        match &self.item.kind {
            ast::ItemKind::FunctionDef(f) => f.spec.cuda.global,
            ast::ItemKind::Decl(d) => d.spec.cuda.global,
            _ => false,
        }
    }
}

/// What a function specialization was made from.
#[derive(Clone, Debug)]
pub(crate) struct FnInst {
    pub env: Env,
    pub chain: Vec<(String, Span)>,
    pub templ: Option<(TemplId, Vec<TArg>)>,
}

#[derive(Default)]
pub(crate) struct Templates {
    pub defs: Vec<TemplateDef>,
    /// Templates by qualified name (function templates may be overloaded).
    pub by_name: HashMap<String, Vec<TemplId>>,
    /// The template arguments in scope: those of the specialization being checked.
    pub env: Option<Env>,
    /// The instantiations that led here, outermost first: (what, where it was requested).
    pub chain: Vec<(String, Span)>,
    /// The depth limit was reported (once: the recursion unwinds through every level).
    pub depth_reported: bool,
    /// Functions made from templates (and members of class template specializations).
    pub fn_ctx: HashMap<FnId, FnInst>,
    pub rec_inst: HashMap<RecId, (TemplId, Vec<TArg>)>,
    /// Kernels instantiated on request: checked as roots.
    pub roots: Vec<FnId>,
    /// Stub symbols of requested kernels.
    pub stub_symbols: HashMap<FnId, String>,
}

impl Templates {
    pub fn is_instance(&self, f: FnId) -> bool {
        self.fn_ctx.contains_key(&f)
    }
    pub fn requested_roots(&self) -> Vec<FnId> {
        self.roots.clone()
    }
}

/// The result of resolving the template-ids in a path.
pub(crate) enum Canon {
    /// Nothing to resolve: look the path up as it is.
    Same,
    /// The same name with its template-ids replaced by the specializations' names.
    Path(ast::Path),
    /// The path names this (a template-id at the end), or nothing (errors reported).
    Sym(Option<Sym>),
}

/// What the checker was doing before it switched to instantiating a template.
pub(crate) struct Saved {
    ns: Vec<String>,
    fcx: Option<FnCx>,
    env: Option<Env>,
    chain: Vec<(String, Span)>,
    in_system_header: bool,
}

fn ident(name: &str, span: Span) -> ast::Ident {
    ast::Ident { name: name.to_string(), span }
}

/// The name a templated item declares.
pub(crate) fn item_name(it: &ast::Item) -> Option<ast::Path> {
    match &it.kind {
        ast::ItemKind::FunctionDef(f) => f.declarator.name.clone(),
        ast::ItemKind::Decl(d) => {
            if let Some(p) = d.declarators.first().and_then(|i| i.declarator.name.clone()) {
                return Some(p);
            }
            if let ast::TypeSpec::Record(ast::RecordSpec { name: Some(n), .. }) = &d.spec.ty {
                return Some(ast::Path::new(false, vec![n.clone()], n.span));
            }
            None
        }
        ast::ItemKind::Template { item, .. } => item_name(item),
        _ => None,
    }
}

/// `A<T>::B` of `A<T>::B::f`, template arguments kept.
pub(crate) fn qualifier(path: &ast::Path) -> ast::Path {
    let n = path.segments.len() - 1;
    let mut p = ast::Path::new(path.global, path.segments[..n].to_vec(), path.span);
    if path.args.len() == path.segments.len() {
        p.args = path.args[..n].to_vec();
        if p.args.iter().all(Option::is_none) {
            p.args.clear();
        }
    }
    p
}

fn is_function_decl(d: &ast::Declaration) -> bool {
    d.declarators.first().is_some_and(|i| matches!(i.declarator.derived.first(), Some(ast::Derived::Function(_))))
}

fn has_body(it: &ast::Item) -> bool {
    match &it.kind {
        ast::ItemKind::FunctionDef(_) => true,
        ast::ItemKind::Decl(d) => matches!(&d.spec.ty, ast::TypeSpec::Record(r) if r.members.is_some()),
        _ => false,
    }
}

impl<'o> Checker<'o> {
    // ------------------------------------------------------------ registration

    /// `template <params> item` at namespace scope.
    pub(crate) fn template_item(&mut self, it: &ast::Item) {
        let ast::ItemKind::Template { params, item } = &it.kind else { return };
        if it.in_system_header {
            return;
        }
        let Some(name) = item_name(item) else { return };
        if let ast::ItemKind::Template { .. } = &item.kind {
            // `template <class T> template <class U> U A<T>::f()`: a member template of a
            // class template, defined outside the class.
            if name.segments.len() > 1 {
                self.add_class_member(&name, params, item);
            }
            return;
        }
        if name.segments.len() > 1 {
            // `template <class T> T Vec<T>::sum() const {...}`, `template <class T> int
            // S<T>::count = 0;`: members of a class template, defined outside the class.
            if !params.is_empty() {
                self.add_class_member(&name, params, item);
            }
            return;
        }
        let kind = match &item.kind {
            ast::ItemKind::FunctionDef(_) => TKind::Function,
            ast::ItemKind::Decl(d) if is_function_decl(d) => TKind::Function,
            ast::ItemKind::Decl(d) if d.spec.storage == Some(ast::Storage::Typedef) => TKind::Alias,
            ast::ItemKind::Decl(d) if d.declarators.is_empty() && matches!(d.spec.ty, ast::TypeSpec::Record(_)) => TKind::Class,
            ast::ItemKind::Decl(_) => TKind::Var,
            _ => return,
        };
        let last = name.last().name.clone();
        let q = qualify(&self.ns, &last);
        // Specializations.
        let spec_args = match (&item.kind, kind) {
            (ast::ItemKind::Decl(d), TKind::Class) => match &d.spec.ty {
                ast::TypeSpec::Record(rs) => rs.args.clone(),
                _ => None,
            },
            (_, TKind::Function) if params.is_empty() => Some(name.segment_args(0).map(|a| a.to_vec()).unwrap_or_default()),
            _ => None,
        };
        if let Some(args) = spec_args {
            let primary = self.tpl.by_name.get(&q).and_then(|ids| ids.iter().copied().find(|t| self.tpl.defs[*t].kind == kind));
            match primary {
                Some(t) => self.tpl.defs[t].specs.push(Spec { params: params.clone(), args, item: (**item).clone() }),
                None => self.err(name.span, format!("explicit specialization of undeclared template '{last}'")),
            }
            return;
        }
        // A redeclaration (a declaration, then the definition).
        if let Some(ids) = self.tpl.by_name.get(&q).cloned() {
            for t in ids {
                let d = &self.tpl.defs[t];
                if d.kind == kind && d.params.len() == params.len() && (kind != TKind::Function || same_function_shape(&d.item, item)) {
                    if has_body(item) && !has_body(&d.item) {
                        let d = &mut self.tpl.defs[t];
                        d.item = (**item).clone();
                        d.params = params.clone();
                        d.span = it.span;
                    }
                    return;
                }
            }
        }
        let def = TemplateDef {
            name: last,
            scope: self.ns.clone(),
            params: params.clone(),
            kind,
            item: (**item).clone(),
            outer: Env::default(),
            class: None,
            access: Access::Public,
            extern_c: self.extern_c,
            specs: Vec::new(),
            members: Vec::new(),
            out_def: None,
            instances: HashMap::new(),
            span: it.span,
            in_system_header: it.in_system_header,
        };
        self.register_template(q, def);
    }

    fn register_template(&mut self, q: String, def: TemplateDef) -> TemplId {
        let id = self.tpl.defs.len();
        self.tpl.defs.push(def);
        self.tpl.by_name.entry(q).or_default().push(id);
        id
    }

    /// An out-of-class member definition of a class template (`Vec<T, N>::sum`).
    fn add_class_member(&mut self, name: &ast::Path, params: &[ast::TemplateParam], item: &ast::Item) {
        let prefix = qualifier(name);
        let t = self.find_templates(&prefix).and_then(|ids| ids.into_iter().find(|t| self.tpl.defs[*t].kind == TKind::Class));
        match t {
            Some(t) => self.tpl.defs[t].members.push((params.to_vec(), item.clone())),
            None => self.err(name.span, format!("no class template named '{}'", expr::path_str(&prefix))),
        }
    }

    /// `template <...> member` inside the class body of record `rec`.
    pub(crate) fn member_template(&mut self, rec: RecId, params: &[ast::TemplateParam], member: &ast::Member, access: Access, span: Span) {
        if params.is_empty() {
            return; // A member specialization: not supported (uses fail lookup).
        }
        let item_kind = match member {
            ast::Member::Function(f) => ast::ItemKind::FunctionDef(f.clone()),
            ast::Member::FunctionDecl(d) | ast::Member::Field(d) => ast::ItemKind::Decl(d.clone()),
            _ => return,
        };
        let item = ast::Item { kind: item_kind, span, in_system_header: self.in_system_header };
        let Some(name) = item_name(&item) else { return };
        let kind = match &item.kind {
            ast::ItemKind::FunctionDef(_) => TKind::Function,
            ast::ItemKind::Decl(d) if is_function_decl(d) => TKind::Function,
            ast::ItemKind::Decl(d) if d.spec.storage == Some(ast::Storage::Typedef) => TKind::Alias,
            ast::ItemKind::Decl(d) if d.declarators.is_empty() && matches!(d.spec.ty, ast::TypeSpec::Record(_)) => TKind::Class,
            ast::ItemKind::Decl(_) => TKind::Var,
            _ => return,
        };
        let scope = self.class_ns(rec);
        let last = name.last().name.clone();
        let def = TemplateDef {
            name: last.clone(),
            scope: scope.clone(),
            params: params.to_vec(),
            kind,
            item,
            outer: self.tpl.env.clone().unwrap_or_default(),
            class: Some(rec),
            access,
            extern_c: false,
            specs: Vec::new(),
            members: Vec::new(),
            out_def: None,
            instances: HashMap::new(),
            span,
            in_system_header: self.in_system_header,
        };
        self.register_template(qualify(&scope, &last), def);
    }

    /// The qualified names of the kernel templates (for the host object's stubs).
    pub fn kernel_template_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .tpl
            .defs
            .iter()
            .filter(|d| d.kind == TKind::Function && d.class.is_none() && d.is_kernel())
            .map(|d| qualify(&d.scope, &d.name))
            .collect();
        v.sort();
        v.dedup();
        v
    }

    // ------------------------------------------------------------ environments

    /// A template parameter of the specialization being checked, as a name.
    pub(crate) fn template_param_sym(&self, name: &str) -> Option<Sym> {
        match self.tpl.env.as_ref()?.binds.get(name)? {
            TArg::Type(t) => Some(Sym::Typedef(t.clone())),
            TArg::Value(v, t) => Some(Sym::Enumerator(*v, t.clone())),
            TArg::Pack(_) => None,
        }
    }

    /// Switch to the context of a template's definition: its scope, its arguments, no
    /// enclosing function.
    pub(crate) fn enter_template(&mut self, ns: Vec<String>, env: Env, chain: Vec<(String, Span)>, in_system_header: bool) -> Saved {
        Saved {
            ns: std::mem::replace(&mut self.ns, ns),
            fcx: self.fcx.take(),
            env: std::mem::replace(&mut self.tpl.env, Some(env)),
            chain: std::mem::replace(&mut self.tpl.chain, chain),
            in_system_header: std::mem::replace(&mut self.in_system_header, in_system_header),
        }
    }

    pub(crate) fn leave_template(&mut self, s: Saved) {
        self.ns = s.ns;
        self.fcx = s.fcx;
        self.tpl.env = s.env;
        self.tpl.chain = s.chain;
        self.in_system_header = s.in_system_header;
    }

    pub(crate) fn with_instantiation_notes(&self, mut d: Diagnostic) -> Diagnostic {
        for (what, sp) in self.tpl.chain.iter().rev() {
            d = d.with_note(Some(*sp), format!("in instantiation of '{what}' requested here"));
        }
        d
    }

    /// g++'s limit on nested instantiations (`-ftemplate-depth`): beyond it, an error
    /// naming the limit instead of endless recursion.
    pub(crate) fn template_depth_exceeded(&mut self, sp: Span) -> bool {
        let limit = self.opts.template_depth;
        if self.tpl.chain.len() < limit as usize {
            return false;
        }
        if !self.tpl.depth_reported {
            // Reported even where errors are held back (a trial, a host declaration):
            // the build cannot go on. Only the ends of the chain are shown, as g++ does.
            self.tpl.depth_reported = true;
            let mut d = Diagnostic::error(sp, format!("template instantiation depth exceeds maximum of {limit} (use '-ftemplate-depth=N' to increase the maximum)"));
            let chain = &self.tpl.chain;
            for (i, (what, at)) in chain.iter().enumerate().rev() {
                if i + 5 == chain.len().saturating_sub(5) && chain.len() > 10 {
                    d = d.with_note(None, format!("[{} instantiation contexts not shown]", chain.len() - 10));
                }
                if i + 5 >= chain.len() || i < 5 {
                    d = d.with_note(Some(*at), format!("in instantiation of '{what}' requested here"));
                }
            }
            self.diags.push(d);
        }
        true
    }

    pub(crate) fn chain_with(&self, what: String, sp: Span) -> Vec<(String, Span)> {
        let mut c = self.tpl.chain.clone();
        c.push((what, sp));
        c
    }

    // ------------------------------------------------------------ arguments

    pub(crate) fn show_targ(&self, a: &TArg) -> String {
        match a {
            TArg::Type(t) => self.show(t),
            TArg::Value(v, t) => match t.ty {
                Ty::Bool => (if *v != 0 { "true" } else { "false" }).to_string(),
                _ => v.to_string(),
            },
            TArg::Pack(e) => e.iter().map(|x| self.show_targ(x)).collect::<Vec<_>>().join(", "),
        }
    }

    /// Every function template specialization made so far, with its template arguments
    /// as C++ prints them (`<3>`).
    pub(crate) fn template_args_of_specializations(&self) -> HashMap<FnId, String> {
        self.tpl
            .fn_ctx
            .iter()
            .filter_map(|(f, inst)| inst.templ.as_ref().map(|(_, args)| (*f, format!("<{}>", self.show_targs(args)))))
            .collect()
    }

    pub(crate) fn show_targs(&self, args: &[TArg]) -> String {
        args.iter().map(|a| self.show_targ(a)).filter(|s| !s.is_empty()).collect::<Vec<_>>().join(", ")
    }

    /// The cache key of an argument list (types by their printed form).
    pub(crate) fn targs_key(&self, args: &[TArg]) -> String {
        fn k(ck: &Checker, a: &TArg, out: &mut String) {
            match a {
                TArg::Type(t) => {
                    out.push_str("T:");
                    out.push_str(&format!("{:?}", t));
                }
                TArg::Value(v, _) => out.push_str(&format!("V:{v}")),
                TArg::Pack(e) => {
                    out.push_str("P[");
                    for x in e {
                        k(ck, x, out);
                        out.push(';');
                    }
                    out.push(']');
                }
            }
            out.push('|');
        }
        let mut s = String::new();
        for a in args {
            k(self, a, &mut s);
        }
        s
    }

    /// Evaluate the template arguments of a template-id in the current context. Pack
    /// expansions of packs in scope are spliced in. `None` after an error.
    pub(crate) fn eval_template_args(&mut self, args: &[ast::TemplateArg]) -> Option<Vec<TArg>> {
        let mut out = Vec::new();
        for a in args {
            match a {
                ast::TemplateArg::Pack(inner) => {
                    let name = match &**inner {
                        ast::TemplateArg::Type(tn) => match &tn.spec.ty {
                            ast::TypeSpec::Named(p) if p.segments.len() == 1 && tn.declarator.derived.is_empty() => Some(p.last().name.clone()),
                            _ => None,
                        },
                        ast::TemplateArg::Expr(ast::Expr { kind: ast::ExprKind::Name(p), .. }) if p.segments.len() == 1 => Some(p.last().name.clone()),
                        _ => None,
                    };
                    match name.and_then(|n| self.tpl.env.as_ref().and_then(|e| e.binds.get(&n).cloned())) {
                        Some(TArg::Pack(elems)) => out.extend(elems),
                        _ => {
                            // A pattern (`Vec<Ts>...`): expand it syntactically.
                            let packs = self.tpl.env.as_ref().map(|e| e.packs()).unwrap_or_default();
                            let expanded = super::instantiate::expand_targ_pack(inner, &packs)?;
                            out.extend(self.eval_template_args(&expanded)?);
                        }
                    }
                }
                ast::TemplateArg::Type(tn) => {
                    let t = self.type_name(tn);
                    if t.ty.is_error() {
                        return None;
                    }
                    out.push(TArg::Type(t));
                }
                ast::TemplateArg::Expr(e) => {
                    if let ast::ExprKind::Name(p) = &e.kind {
                        // A name the parser did not know as a type may be one.
                        match self.lookup(p) {
                            Some(Sym::Typedef(t)) => {
                                out.push(TArg::Type(t));
                                continue;
                            }
                            None => {
                                if let Some(Tag::Record(r)) = self.lookup_tag(p) {
                                    out.push(TArg::Type(QTy::new(Ty::Record(r))));
                                    continue;
                                }
                                if let Some(Tag::Enum(en)) = self.lookup_tag(p) {
                                    out.push(TArg::Type(QTy::new(Ty::Enum(en))));
                                    continue;
                                }
                            }
                            _ => {}
                        }
                    }
                    let h = self.expr(e);
                    let h = self.rvalue(h);
                    if h.is_error() {
                        return None;
                    }
                    match eval_const(&self.prog, &h) {
                        Some(CVal::Int(v)) if h.ty.ty.is_integer() => out.push(TArg::Value(v, h.ty.unqual())),
                        _ => {
                            self.err(e.span, "template argument is not an integral constant expression");
                            return None;
                        }
                    }
                }
            }
        }
        Some(out)
    }

    /// Bind `params` to `args` (positionally, a pack taking the rest), `pre` (deduced
    /// arguments by name) filling the others, then defaults (evaluated in the template's
    /// scope with the parameters bound so far). Returns the environment (with `outer`)
    /// and the complete argument list; `None` if an argument is missing or of the wrong
    /// kind (reported unless `quiet`).
    pub(crate) fn bind_template_params(
        &mut self,
        params: &[ast::TemplateParam],
        args: &[TArg],
        pre: &HashMap<String, TArg>,
        outer: &Env,
        scope: &[String],
        what: &str,
        sp: Span,
        quiet: bool,
    ) -> Option<(Env, Vec<TArg>)> {
        let mut env = outer.clone();
        let mut full = Vec::new();
        let mut k = 0;
        for (i, p) in params.iter().enumerate() {
            let pname = p.name.as_ref().map(|n| n.name.clone()).unwrap_or_else(|| format!("<param{i}>"));
            let a = if p.pack {
                // (A complete argument list already has the pack as one argument.)
                let mut rest: Vec<TArg> = Vec::new();
                for a in &args[k.min(args.len())..] {
                    match a {
                        TArg::Pack(e) => rest.extend(e.iter().cloned()),
                        o => rest.push(o.clone()),
                    }
                }
                k = args.len();
                if rest.is_empty() {
                    if let Some(TArg::Pack(d)) = pre.get(&pname) {
                        rest = d.clone();
                    }
                }
                TArg::Pack(rest)
            } else if k < args.len() {
                k += 1;
                args[k - 1].clone()
            } else if let Some(a) = pre.get(&pname) {
                a.clone()
            } else {
                // The default argument, in the template's scope.
                let saved = self.enter_template(scope.to_vec(), env.clone(), self.tpl.chain.clone(), self.in_system_header);
                let d = match &p.kind {
                    ast::TemplateParamKind::Type { default: Some(t) } => {
                        let t = self.type_name(t);
                        (!t.ty.is_error()).then_some(TArg::Type(t))
                    }
                    ast::TemplateParamKind::NonType { default: Some(e), .. } => {
                        let v = self.const_int(e);
                        v.map(|v| TArg::Value(v, QTy::new(Ty::int())))
                    }
                    _ => None,
                };
                self.leave_template(saved);
                match d {
                    Some(d) => d,
                    None => {
                        if !quiet {
                            self.err(sp, format!("couldn't infer template argument '{pname}' of '{what}'"));
                        }
                        return None;
                    }
                }
            };
            // Kinds, and non-type arguments converted to the parameter's type.
            let a = match (&p.kind, a) {
                (ast::TemplateParamKind::Type { .. }, a @ TArg::Type(_)) => a,
                (ast::TemplateParamKind::NonType { ty, .. }, TArg::Value(v, _)) => {
                    let saved = self.enter_template(scope.to_vec(), env.clone(), self.tpl.chain.clone(), self.in_system_header);
                    let t = self.type_name(ty);
                    self.leave_template(saved);
                    TArg::Value(wrap_value(v, &t), t.unqual())
                }
                (ast::TemplateParamKind::NonType { ty, .. }, TArg::Pack(vs)) if p.pack => {
                    let saved = self.enter_template(scope.to_vec(), env.clone(), self.tpl.chain.clone(), self.in_system_header);
                    let t = self.type_name(ty);
                    self.leave_template(saved);
                    TArg::Pack(vs.into_iter().map(|v| match v {
                        TArg::Value(v, _) => TArg::Value(wrap_value(v, &t), t.unqual()),
                        o => o,
                    }).collect())
                }
                (ast::TemplateParamKind::Type { .. }, a @ TArg::Pack(_)) if p.pack => a,
                (_, a) => {
                    if !quiet {
                        let want = match p.kind {
                            ast::TemplateParamKind::Type { .. } => "a type",
                            ast::TemplateParamKind::NonType { .. } => "a constant",
                            ast::TemplateParamKind::Template { .. } => "a template",
                        };
                        self.err(sp, format!("template argument '{}' for parameter '{pname}' of '{what}' must be {want}", self.show_targ(&a)));
                    }
                    return None;
                }
            };
            env.bind(&pname, a.clone());
            full.push(a);
        }
        if k < args.len() {
            if !quiet {
                self.err(sp, format!("too many template arguments for '{what}'"));
            }
            return None;
        }
        Some((env, full))
    }

    // ------------------------------------------------------------ names

    /// The templates a name (without template arguments) designates.
    pub(crate) fn find_templates(&self, p: &ast::Path) -> Option<Vec<TemplId>> {
        if p.segments.len() == 1 && !p.global {
            if let Some(c) = self.fcx.as_ref().and_then(|f| f.class) {
                for k in self.class_chain(c) {
                    if let Some(ids) = self.tpl.by_name.get(&qualify(&self.class_ns(k), &p.last().name)) {
                        return Some(ids.clone());
                    }
                }
            }
            if self.template_param_sym(&p.last().name).is_some() {
                return None;
            }
            if let Some(f) = &self.fcx {
                if f.scopes.iter().any(|s| s.names.contains_key(&p.last().name)) {
                    return None;
                }
            }
        }
        // A template by that name, unless a plain name comes first.
        self.find_candidate(p, |c| match self.tpl.by_name.get(c) {
            Some(ids) => Some(Some(ids.clone())),
            None if self.names.contains_key(c) => Some(None),
            None => None,
        })
        .flatten()
    }

    /// A path whose segments up to `i` are `resolved` (global) or as written.
    fn path_upto(path: &ast::Path, resolved: &Option<Vec<String>>, i: usize) -> ast::Path {
        match resolved {
            Some(r) => {
                let mut segs: Vec<ast::Ident> = r.iter().map(|s| ident(s, path.span)).collect();
                segs.push(path.segments[i].clone());
                ast::Path::new(true, segs, path.span)
            }
            None => ast::Path::new(path.global, path.segments[..=i].to_vec(), path.span),
        }
    }

    /// Resolve the template-ids of a path, and its prefixes that name classes through
    /// typedefs or template parameters (`T::value_type`), into the names of the
    /// specializations (instantiating them).
    pub(crate) fn canonical_path(&mut self, path: &ast::Path) -> Canon {
        let n = path.segments.len();
        if !path.has_template_args() && n == 1 {
            return Canon::Same;
        }
        let mut resolved: Option<Vec<String>> = None;
        for i in 0..n - 1 {
            let p = Self::path_upto(path, &resolved, i);
            if let Some(args) = path.segment_args(i) {
                match self.template_id(&p, args, path.span) {
                    Some(Sym::Typedef(QTy { ty: Ty::Record(r), .. })) => resolved = Some(self.class_ns(r)),
                    Some(Sym::Typedef(t)) => {
                        self.err(path.span, format!("'{}' is not a class, namespace, or enumeration", self.show(&t)));
                        return Canon::Sym(None);
                    }
                    _ => return Canon::Sym(None),
                }
                continue;
            }
            match self.lookup_plain(&p) {
                Some(Sym::Typedef(QTy { ty: Ty::Record(r), .. })) => resolved = Some(self.class_ns(r)),
                _ => {
                    if let Some(r) = &mut resolved {
                        r.push(path.segments[i].name.clone());
                    }
                }
            }
        }
        let last_args = path.segment_args(n - 1);
        if resolved.is_none() && last_args.is_none() {
            return Canon::Same;
        }
        let base = Self::path_upto(path, &resolved, n - 1);
        match last_args {
            None => Canon::Path(base),
            Some(args) => Canon::Sym(self.template_id(&base, args, path.span)),
        }
    }

    /// `name<args>` as a type or variable: the specialization (`None`: not a class,
    /// alias or variable template, or an error was reported).
    pub(crate) fn template_id(&mut self, name: &ast::Path, args: &[ast::TemplateArg], sp: Span) -> Option<Sym> {
        let Some(ids) = self.find_templates(name) else {
            if let Some(Sym::Typedef(t)) = self.lookup_plain(name) {
                // The injected-class-name with arguments (`Vec<U, N>` inside `Vec`) names
                // the template: find it through the specialization.
                if let Ty::Record(r) = t.ty {
                    if let Some((tid, _)) = self.tpl.rec_inst.get(&r).cloned() {
                        let targs = self.eval_template_args(args)?;
                        return self.specialize_named(tid, targs, sp);
                    }
                }
            }
            if let Some(trait_name) = self.std_name(name) {
                if let Some(r) = self.std_trait(&trait_name, args, sp) {
                    return r;
                }
            }
            self.err(name.span, format!("no template named '{}'", expr::path_str(name)));
            return None;
        };
        let Some(t) = ids.iter().copied().find(|t| self.tpl.defs[*t].kind != TKind::Function) else {
            return None; // Function templates: see `template_call`.
        };
        let targs = self.eval_template_args(args)?;
        self.specialize_named(t, targs, sp)
    }

    fn specialize_named(&mut self, t: TemplId, targs: Vec<TArg>, sp: Span) -> Option<Sym> {
        match self.tpl.defs[t].kind {
            TKind::Class => self.instantiate_class(t, targs, sp).map(|r| Sym::Typedef(QTy::new(Ty::Record(r)))),
            TKind::Alias => self.instantiate_alias(t, targs, sp).map(Sym::Typedef),
            TKind::Var => self.instantiate_var(t, targs, sp).map(Sym::Var),
            TKind::Function => None,
        }
    }

    // ------------------------------------------------------------ class templates

    /// The specialization of class template `t` for `args`: an explicit
    /// specialization, the most specialized matching partial specialization, or the
    /// primary template.
    pub(crate) fn instantiate_class(&mut self, t: TemplId, args: Vec<TArg>, sp: Span) -> Option<RecId> {
        crate::deep(|| self.instantiate_class_here(t, args, sp))
    }

    pub(crate) fn instantiate_class_here(&mut self, t: TemplId, args: Vec<TArg>, sp: Span) -> Option<RecId> {
        if self.template_depth_exceeded(sp) {
            return None;
        }
        let (name, scope, params, outer) = {
            let d = &self.tpl.defs[t];
            (d.name.clone(), d.scope.clone(), d.params.clone(), d.outer.clone())
        };
        let (env, full) = self.bind_template_params(&params, &args, &HashMap::new(), &outer, &scope, &name, sp, false)?;
        let key = self.targs_key(&full);
        match self.tpl.defs[t].instances.get(&key) {
            Some(Inst::Rec(r)) => return Some(*r),
            Some(_) => return None,
            None => {}
        }
        let display = format!("{name}<{}>", self.show_targs(&full));
        // Which definition. Specializations are written with the primary's pack spread
        // out (`S<T, Ts...>`, `S<>`): they are matched against the arguments so.
        let specs = self.tpl.defs[t].specs.clone();
        let mut chosen: Option<(ast::Item, Env)> = None;
        let spread = spread_packs(&full);
        let spread_key = self.targs_key(&spread);
        for s in specs.iter().filter(|s| s.params.is_empty()) {
            let saved = self.enter_template(scope.clone(), outer.clone(), self.tpl.chain.clone(), false);
            let sargs = self.eval_template_args(&s.args);
            self.leave_template(saved);
            if sargs.as_ref().is_some_and(|a| self.targs_key(a) == spread_key) {
                chosen = Some((s.item.clone(), outer.clone()));
                break;
            }
        }
        if chosen.is_none() {
            let mut best: Option<(usize, ast::Item, Env)> = None;
            let mut ambiguous = false;
            for s in specs.iter().filter(|s| !s.params.is_empty()) {
                if let Some(e) = self.match_partial_spec(s, &spread, &outer, &scope) {
                    let score = spec_score(&s.args);
                    match &best {
                        Some((b, _, _)) if *b > score => {}
                        Some((b, _, _)) if *b == score => ambiguous = true,
                        _ => {
                            ambiguous = false;
                            best = Some((score, s.item.clone(), e));
                        }
                    }
                }
            }
            if ambiguous {
                self.err(sp, format!("ambiguous partial specializations of '{display}'"));
            }
            chosen = best.map(|(_, i, e)| (i, e));
        }
        let (item, env) = chosen.unwrap_or_else(|| (self.tpl.defs[t].item.clone(), env));
        let ast::ItemKind::Decl(d) = &item.kind else { return None };
        let ast::TypeSpec::Record(rs) = &d.spec.ty else { return None };
        let r = RecId(self.prog.types.records.len() as u32);
        self.prog.types.records.push(RecordDef {
            name: Some(display.clone()),
            scope: scope.clone(),
            is_union: rs.kind == ast::RecordKind::Union,
            is_class: rs.kind == ast::RecordKind::Class,
            fields: None,
            size: 0,
            align: 1,
            span: rs.span,
        });
        self.tags.insert(qualify(&scope, &display), Tag::Record(r));
        self.tpl.defs[t].instances.insert(key, Inst::Rec(r));
        self.tpl.rec_inst.insert(r, (t, full.clone()));
        if rs.members.is_none() {
            return Some(r); // Declared, not defined: an incomplete type.
        }
        let chain = self.chain_with(display.clone(), sp);
        let in_sys = self.tpl.defs[t].in_system_header;
        let saved = self.enter_template(scope.clone(), env.clone(), chain.clone(), in_sys);
        // The injected-class-name.
        self.names.insert(qualify(&self.class_ns(r), &name), Sym::Typedef(QTy::new(Ty::Record(r))));
        let first_fn = self.prog.functions.len();
        let mut rs2 = rs.clone();
        rs2.name = Some(ident(&name, rs.span));
        rs2.args = None;
        self.define_record(r, &rs2);
        let mut fn_envs: Vec<(usize, Env)> = (first_fn..self.prog.functions.len()).map(|i| (i, env.clone())).collect();
        // Members defined outside the class.
        let members = self.tpl.defs[t].members.clone();
        for (mparams, mitem) in &members {
            let Some(mname) = item_name(mitem) else { continue };
            let prefix_args = mname.segment_args(mname.segments.len() - 2).map(|a| a.to_vec()).unwrap_or_default();
            // The definition's parameters, bound to this specialization's arguments.
            let mut menv = outer.clone();
            let mut ok = true;
            for (k, pa) in prefix_args.iter().enumerate() {
                let Some(arg) = full.get(k) else { ok = false; break };
                let bound = match pa {
                    ast::TemplateArg::Type(tn) => match &tn.spec.ty {
                        ast::TypeSpec::Named(p) if p.segments.len() == 1 && tn.declarator.derived.is_empty() => Some(p.last().name.clone()),
                        _ => None,
                    },
                    ast::TemplateArg::Expr(ast::Expr { kind: ast::ExprKind::Name(p), .. }) if p.segments.len() == 1 => Some(p.last().name.clone()),
                    ast::TemplateArg::Pack(inner) => match &**inner {
                        ast::TemplateArg::Type(tn) => match &tn.spec.ty {
                            ast::TypeSpec::Named(p) => Some(p.last().name.clone()),
                            _ => None,
                        },
                        _ => None,
                    },
                    _ => None,
                };
                match bound {
                    Some(b) if mparams.iter().any(|p| p.name.as_ref().is_some_and(|n| n.name == b)) => menv.bind(&b, arg.clone()),
                    _ => ok = false,
                }
            }
            if !ok {
                continue; // A member of a partial specialization, or not this one's.
            }
            if let ast::ItemKind::Template { params: inner_params, item: inner } = &mitem.kind {
                // A member template defined outside the class.
                let q = qualify(&self.class_ns(r), &mname.last().name);
                if let Some(ids) = self.tpl.by_name.get(&q).cloned() {
                    if let Some(mt) = ids.into_iter().find(|m| self.tpl.defs[*m].params.len() == inner_params.len()) {
                        self.tpl.defs[mt].out_def = Some((menv.clone(), inner_params.clone(), (**inner).clone()));
                    }
                }
                continue;
            }
            let before = self.prog.functions.iter().map(|f| f.def.is_some()).collect::<Vec<_>>();
            self.tpl.env = Some(menv.clone());
            self.item(mitem);
            self.tpl.env = Some(env.clone());
            for (i, had) in before.iter().enumerate() {
                if !had && self.prog.functions[i].def.is_some() && self.prog.functions[i].cxx.method.as_ref().is_some_and(|m| m.class == r) {
                    fn_envs.retain(|(k, _)| *k != i);
                    fn_envs.push((i, menv.clone()));
                }
            }
        }
        for (i, e) in fn_envs {
            // A class template instantiated while defining this one (a member's or a
            // base's type) has already bound its own functions to its own parameters.
            self.tpl.fn_ctx.entry(FnId(i as u32)).or_insert_with(|| FnInst { env: e, chain: chain.clone(), templ: None });
        }
        self.leave_template(saved);
        Some(r)
    }

    /// Whether the partial specialization `s` matches `args`; its environment if so.
    fn match_partial_spec(&mut self, s: &Spec, args: &[TArg], outer: &Env, scope: &[String]) -> Option<Env> {
        let mut binds: HashMap<String, TArg> = HashMap::new();
        let saved = self.enter_template(scope.to_vec(), outer.clone(), self.tpl.chain.clone(), false);
        let ok = self.match_targs(&s.args, args, &s.params, &mut binds);
        self.leave_template(saved);
        if !ok {
            return None;
        }
        let mut env = outer.clone();
        for (i, p) in s.params.iter().enumerate() {
            let n = p.name.as_ref().map(|n| n.name.clone()).unwrap_or_else(|| format!("<param{i}>"));
            let a = binds.get(&n)?.clone();
            env.bind(&n, a);
        }
        Some(env)
    }

    // ------------------------------------------------------------ alias and variable templates

    fn instantiate_alias(&mut self, t: TemplId, args: Vec<TArg>, sp: Span) -> Option<QTy> {
        let d = self.tpl.defs[t].clone();
        let (env, full) = self.bind_template_params(&d.params, &args, &HashMap::new(), &d.outer, &d.scope, &d.name, sp, false)?;
        let key = self.targs_key(&full);
        if let Some(Inst::Ty(q)) = d.instances.get(&key) {
            return Some(q.clone());
        }
        let ast::ItemKind::Decl(decl) = &d.item.kind else { return None };
        let display = format!("{}<{}>", d.name, self.show_targs(&full));
        let chain = self.chain_with(display, sp);
        let saved = self.enter_template(d.scope.clone(), env, chain, d.in_system_header);
        let base = self.spec_type(&decl.spec);
        let ty = decl.declarators.first().map(|i| self.apply_declarator(base.clone(), &i.declarator.derived)).unwrap_or(base);
        self.leave_template(saved);
        self.tpl.defs[t].instances.insert(key, Inst::Ty(ty.clone()));
        Some(ty)
    }

    fn instantiate_var(&mut self, t: TemplId, args: Vec<TArg>, sp: Span) -> Option<GVarId> {
        let d = self.tpl.defs[t].clone();
        let (env, full) = self.bind_template_params(&d.params, &args, &HashMap::new(), &d.outer, &d.scope, &d.name, sp, false)?;
        let key = self.targs_key(&full);
        if let Some(Inst::Var(g)) = d.instances.get(&key) {
            return Some(*g);
        }
        let ast::ItemKind::Decl(decl) = &d.item.kind else { return None };
        let display = format!("{}<{}>", d.name, self.show_targs(&full));
        let chain = self.chain_with(display.clone(), sp);
        let saved = self.enter_template(d.scope.clone(), env, chain, d.in_system_header);
        let mut decl = decl.clone();
        if let Some(id) = decl.declarators.first_mut() {
            let sp = id.declarator.span;
            id.declarator.name = Some(ast::Path::new(false, vec![ident(&display, sp)], sp));
        }
        decl.declarators.truncate(1);
        self.file_decl(&decl);
        let g = match self.names.get(&qualify(&d.scope, &display)) {
            Some(Sym::Var(g)) => Some(*g),
            _ => None,
        };
        self.leave_template(saved);
        self.tpl.defs[t].instances.insert(key, g.map(Inst::Var).unwrap_or(Inst::Failed));
        g
    }
}

/// Template arguments with every pack's elements in its place (`<Pack[a, b]>` → `<a, b>`).
pub(crate) fn spread_packs(args: &[TArg]) -> Vec<TArg> {
    let mut out = Vec::with_capacity(args.len());
    for a in args {
        match a {
            TArg::Pack(v) => out.extend(v.iter().cloned()),
            a => out.push(a.clone()),
        }
    }
    out
}

/// A non-type argument converted to its parameter's type.
fn wrap_value(v: i128, t: &QTy) -> i128 {
    match &t.ty {
        Ty::Int(k) => k.wrap(v),
        Ty::Bool => (v != 0) as i128,
        _ => v,
    }
}

/// How specialized a partial specialization's argument list is (more structure in the
/// patterns: more specialized). Enough for the usual cases (`T*` over `T`, `const T`).
fn spec_score(args: &[ast::TemplateArg]) -> usize {
    fn tn(t: &ast::TypeName) -> usize {
        let mut s = t.declarator.derived.len() * 2;
        if t.spec.cv.is_const || t.spec.cv.is_volatile {
            s += 1;
        }
        match &t.spec.ty {
            ast::TypeSpec::Named(p) => {
                for a in p.args.iter().flatten().flatten() {
                    s += 1 + arg(a);
                }
            }
            _ => s += 3,
        }
        s
    }
    fn arg(a: &ast::TemplateArg) -> usize {
        match a {
            ast::TemplateArg::Type(t) => tn(t),
            ast::TemplateArg::Expr(ast::Expr { kind: ast::ExprKind::Name(_), .. }) => 0,
            ast::TemplateArg::Expr(_) => 3,
            ast::TemplateArg::Pack(_) => 0,
        }
    }
    args.iter().map(arg).sum()
}

/// Two function template declarations of the same function (a declaration and its
/// definition): the same parameter list, by the shape of the parameter types.
fn same_function_shape(a: &ast::Item, b: &ast::Item) -> bool {
    fn shape(it: &ast::Item) -> Option<Vec<String>> {
        let d = match &it.kind {
            ast::ItemKind::FunctionDef(f) => &f.declarator,
            ast::ItemKind::Decl(d) => &d.declarators.first()?.declarator,
            _ => return None,
        };
        let Some(ast::Derived::Function(fd)) = d.derived.first() else { return None };
        Some(
            fd.params
                .iter()
                .map(|p| {
                    let mut s = spec_shape(&p.spec);
                    for x in &p.declarator.derived {
                        s.push_str(match x {
                            ast::Derived::Pointer { .. } => "*",
                            ast::Derived::Reference { rvalue: false } => "&",
                            ast::Derived::Reference { rvalue: true } => "&&",
                            ast::Derived::Array(_) => "[]",
                            ast::Derived::Function(_) => "()",
                            ast::Derived::MemberPointer { .. } => "::*",
                        });
                    }
                    if p.declarator.pack {
                        s.push_str("...");
                    }
                    s
                })
                .collect(),
        )
    }
    shape(a) == shape(b)
}

/// A parameter type's spelling for [`same_function_shape`]: its name with the template
/// arguments as written (`fragment<Use, M, row_major>` and `fragment<Use, M, col_major>`
/// are different overloads), without source positions.
fn spec_shape(spec: &ast::DeclSpec) -> String {
    let mut s = match &spec.ty {
        ast::TypeSpec::Named(n) => {
            let mut out = Vec::new();
            for (i, seg) in n.segments.iter().enumerate() {
                let mut part = seg.name.clone();
                if let Some(args) = n.segment_args(i) {
                    part.push('<');
                    part.push_str(&args.iter().map(targ_shape).collect::<Vec<_>>().join(","));
                    part.push('>');
                }
                out.push(part);
            }
            out.join("::")
        }
        ast::TypeSpec::Builtin(b) => format!("{b:?}"),
        _ => "?".to_string(),
    };
    if spec.cv.is_const {
        s.push_str(" const");
    }
    s
}

fn targ_shape(a: &ast::TemplateArg) -> String {
    match a {
        ast::TemplateArg::Type(t) => spec_shape(&t.spec) + &"*".repeat(t.declarator.derived.len()),
        ast::TemplateArg::Expr(ast::Expr { kind: ast::ExprKind::Name(p), .. }) => p.segments.iter().map(|x| x.name.as_str()).collect::<Vec<_>>().join("::"),
        ast::TemplateArg::Expr(_) => "expr".into(),
        ast::TemplateArg::Pack(inner) => targ_shape(inner) + "...",
    }
}

// ---------------------------------------------------------------------------------------
// The standard type traits (`<type_traits>` is a system header whose templates the
// device front-end does not read): `std::is_integral<T>::value`, `std::is_same_v<A, B>`,
// `std::remove_const_t<T>`, `std::enable_if<B, T>::type`, ...

enum TraitResult {
    Value(bool),
    Type(QTy),
    /// `enable_if<false>`: a class without `type`.
    Empty,
}

impl<'o> Checker<'o> {
    /// `X` of `std::X` (or `cuda::std::X`: Cuprite's `cuda::std` finds std's names through
    /// a using-directive, `include/cuda/std/__cuprite_namespace`), or of `X` where `using
    /// namespace std;` is in effect.
    fn std_name(&self, p: &ast::Path) -> Option<String> {
        let segs: Vec<&str> = p.segments.iter().map(|s| s.name.as_str()).collect();
        match segs.as_slice() {
            ["std", x] | ["cuda", "std", x] => Some(x.to_string()),
            [x] if self.usings.iter().any(|u| u.len() == 1 && u[0] == "std") => Some(x.to_string()),
            _ => None,
        }
    }

    fn trait_of(&self, name: &str, args: &[TArg]) -> Option<TraitResult> {
        use TraitResult::*;
        let ty = |i: usize| match args.get(i) {
            Some(TArg::Type(t)) => Some(t.clone()),
            _ => None,
        };
        let val = |i: usize| match args.get(i) {
            Some(TArg::Value(v, _)) => Some(*v != 0),
            _ => None,
        };
        let t = ty(0);
        let strip_ref = |t: &QTy| match &t.ty {
            Ty::Ref(x) => (**x).clone(),
            _ => t.clone(),
        };
        Some(match name {
            "is_integral" => Value(matches!(t?.ty, Ty::Bool | Ty::Int(_))),
            "is_floating_point" => Value(matches!(t?.ty, Ty::Float | Ty::Double)),
            "is_arithmetic" => Value(matches!(t?.ty, Ty::Bool | Ty::Int(_) | Ty::Float | Ty::Double)),
            "is_same" => Value(t? == ty(1)?),
            "is_pointer" => Value(matches!(t?.ty, Ty::Ptr(_))),
            "is_reference" => Value(matches!(t?.ty, Ty::Ref(_))),
            "is_lvalue_reference" => Value(t.as_ref().is_some_and(|t| matches!(t.ty, Ty::Ref(_)) && !t.v)),
            "is_rvalue_reference" => Value(t.as_ref().is_some_and(|t| matches!(t.ty, Ty::Ref(_)) && t.v)),
            "is_array" => Value(matches!(t?.ty, Ty::Array(..))),
            "is_void" => Value(matches!(t?.ty, Ty::Void)),
            "is_enum" => Value(matches!(t?.ty, Ty::Enum(_))),
            "is_class" => Value(matches!(t?.ty, Ty::Record(r) if !self.prog.types.rec(r).is_union)),
            "is_union" => Value(matches!(t?.ty, Ty::Record(r) if self.prog.types.rec(r).is_union)),
            "is_const" => Value(t?.c),
            "is_volatile" => Value(t?.v),
            "is_signed" => Value(match t?.ty {
                Ty::Int(k) => k.signed(),
                Ty::Float | Ty::Double => true,
                _ => false,
            }),
            "is_unsigned" => Value(match t?.ty {
                Ty::Int(k) => !k.signed(),
                Ty::Bool => true,
                _ => false,
            }),
            "remove_const" => Type(QTy { c: false, ..t? }),
            "remove_volatile" => Type(QTy { v: false, ..t? }),
            "remove_cv" => Type(t?.unqual()),
            "remove_reference" => Type(strip_ref(&t?)),
            "remove_cvref" => Type(strip_ref(&t?).unqual()),
            "remove_pointer" => Type(match t?.ty {
                Ty::Ptr(p) => *p,
                o => QTy::new(o),
            }),
            "add_const" => Type(QTy { c: true, ..t? }),
            "add_pointer" => Type(QTy::new(Ty::ptr(strip_ref(&t?)))),
            "add_lvalue_reference" => Type(QTy::new(Ty::Ref(Box::new(strip_ref(&t?))))),
            "decay" => Type({
                let t = strip_ref(&t?);
                match t.ty {
                    Ty::Array(e, _) => QTy::new(Ty::ptr(*e)),
                    Ty::Func(_) => QTy::new(Ty::ptr(t)),
                    _ => t.unqual(),
                }
            }),
            "make_unsigned" => Type(match t?.ty {
                Ty::Int(k) => QTy::new(Ty::Int(k.to_unsigned())),
                o => QTy::new(o),
            }),
            "conditional" => Type(if val(0)? { ty(1)? } else { ty(2)? }),
            "enable_if" => {
                if val(0)? {
                    Type(ty(1).unwrap_or(QTy::new(Ty::Void)))
                } else {
                    Empty
                }
            }
            _ => return None,
        })
    }

    /// A standard trait as a type or value: `Some(sym)` when `name` is one.
    fn std_trait(&mut self, name: &str, args: &[ast::TemplateArg], sp: Span) -> Option<Option<Sym>> {
        let (base, suffix) = if let Some(b) = name.strip_suffix("_v") {
            (b, "_v")
        } else if let Some(b) = name.strip_suffix("_t") {
            (b, "_t")
        } else {
            (name, "")
        };
        if self.trait_of(base, &[]).is_none() && !matches!(base, "is_same" | "conditional" | "enable_if") {
            // (`trait_of` with no arguments answers only for traits that need none.)
            let probe = [TArg::Type(QTy::new(Ty::int())), TArg::Type(QTy::new(Ty::int())), TArg::Type(QTy::new(Ty::int()))];
            self.trait_of(base, &probe)?;
        }
        let targs = match self.eval_template_args(args) {
            Some(a) => a,
            None => return Some(None),
        };
        let Some(res) = self.trait_of(base, &targs) else {
            self.err(sp, format!("wrong template arguments for 'std::{name}'"));
            return Some(None);
        };
        match (suffix, res) {
            ("_v", TraitResult::Value(v)) => return Some(Some(Sym::Enumerator(v as i128, QTy::new(Ty::Bool)))),
            ("_t", TraitResult::Type(t)) => return Some(Some(Sym::Typedef(t))),
            ("_t", TraitResult::Empty) => {
                self.err(sp, format!("no type named 'type' in 'std::{base}<{}>'", self.show_targs(&targs)));
                return Some(None);
            }
            ("", _) => {}
            _ => return None,
        }
        // The class: `value` and/or `type` members.
        let display = format!("{base}<{}>", self.show_targs(&targs));
        let scope = vec!["std".to_string()];
        if let Some(Tag::Record(r)) = self.tags.get(&qualify(&scope, &display)) {
            return Some(Some(Sym::Typedef(QTy::new(Ty::Record(*r)))));
        }
        let res = self.trait_of(base, &targs)?;
        let body = match &res {
            TraitResult::Value(v) => format!("static constexpr bool value = {v}; typedef bool value_type;"),
            TraitResult::Type(_) => "typedef __cuprite_T type;".to_string(),
            TraitResult::Empty => String::new(),
        };
        let parsed = cuprite_front::parse(&format!("typedef int __cuprite_T; struct {base} {{ {body} }};"));
        let rs = parsed.tu.items.iter().find_map(|it| match &it.kind {
            ast::ItemKind::Decl(d) => match &d.spec.ty {
                ast::TypeSpec::Record(rs) => Some(rs.clone()),
                _ => None,
            },
            _ => None,
        })?;
        let r = RecId(self.prog.types.records.len() as u32);
        self.prog.types.records.push(RecordDef {
            name: Some(display.clone()),
            scope: scope.clone(),
            is_union: false,
            is_class: false,
            fields: None,
            size: 0,
            align: 1,
            span: sp,
        });
        self.tags.insert(qualify(&scope, &display), Tag::Record(r));
        let mut env = Env::default();
        if let TraitResult::Type(t) = res {
            env.bind("__cuprite_T", TArg::Type(t));
        }
        let saved = self.enter_template(scope, env, self.tpl.chain.clone(), true);
        self.define_record(r, &rs);
        self.leave_template(saved);
        Some(Some(Sym::Typedef(QTy::new(Ty::Record(r)))))
    }
}
