//! AST → typed HIR: declarations, name resolution, type checking.
//!
//! - `mod.rs`: the checker, file-scope items, symbol tables, types of declarations;
//! - `expr.rs`: expressions and conversions; `stmt.rs`: function bodies;
//! - `init.rs`: initializers and constant evaluation; `builtins.rs`: device builtins.

mod asm;
pub mod builtins;
mod class;
mod cxxexpr;
mod expr;
mod funcptr;
mod memberptr;
mod move_forward;
mod newdelete;
mod overload;
mod printf_format;
mod virtuals;
mod init;
mod consteval;
mod contract;
mod lambda;
mod names;
mod rangefor;
mod stmt;
pub(crate) mod template;
mod deduce;
mod instantiate;

pub(crate) use funcptr::{func_addr_of, funcs_in_init};
pub use init::{eval_const, CVal};
pub(crate) use overload::qualified_fn_name;

use crate::hir::*;
use crate::ty::*;
use crate::SemaOptions;
use cuprite_front::ast::{self, Span};
use cuprite_front::diag::Diagnostic;
use cuprite_ir as ir;
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub(crate) enum Sym {
    Typedef(QTy),
    Var(GVarId),
    Funcs(Vec<FnId>),
    Enumerator(i128, QTy),
    Local(LocalId),
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Tag {
    Record(RecId),
    Enum(EnumId),
}

#[derive(Default)]
pub(crate) struct Scope {
    names: HashMap<String, Sym>,
    tags: HashMap<String, Tag>,
}

pub(crate) struct FnCx {
    #[allow(dead_code)]
    pub fid: FnId,
    pub name: String,
    pub pretty: String,
    pub locals: Vec<LocalVar>,
    pub scopes: Vec<Scope>,
    pub labels: HashMap<String, (u32, bool, Span)>,
    pub next_label: u32,
    pub switches: Vec<(Vec<(i64, u32)>, Option<u32>, QTy)>,
    pub loops: u32,
    pub breakable: u32,
    pub ret: QTy,
    pub calls: Vec<FnId>,
    pub globals_used: Vec<GVarId>,
    pub space: ExecSpace,
    /// Values of `const` arithmetic locals with constant initializers (by local index):
    /// usable where C++ needs a constant (array sizes, case labels), as nvcc allows.
    pub local_consts: HashMap<u32, Expr>,
    /// False while checking the operand of `&`.
    pub fold_const_locals: bool,
    /// The class of a member function (class-scope lookup, access).
    pub class: Option<RecId>,
    /// The `this` parameter of a non-static member function.
    pub this: Option<LocalId>,
    /// Temporaries to destroy at the end of the current full-expression.
    pub temps: Vec<LocalId>,
    /// Objects with destructors declared in each open scope (parallel to `scopes`).
    pub dtor_scopes: Vec<Vec<LocalId>>,
    /// `dtor_scopes.len()` at the start of each enclosing loop body / breakable statement.
    pub loop_depths: Vec<usize>,
    pub break_depths: Vec<usize>,
    /// A destructor's epilogue (members and base), run before every return.
    pub epilogue: Vec<Stmt>,
    /// Local whose destructor a `return` of it skips (copy elision of a named object).
    /// The first `nparams` locals are the parameters (`this` included).
    pub nparams: usize,
    pub nrvo: Option<LocalId>,
}

pub struct Checker<'o> {
    pub prog: Program,
    pub diags: Vec<Diagnostic>,
    pub opts: std::borrow::Cow<'o, SemaOptions>,
    /// File-scope ordinary names and tags by qualified name (`ns::x`).
    names: HashMap<String, Sym>,
    tags: HashMap<String, Tag>,
    skipped: HashMap<String, (ast::SkipReason, Option<Diagnostic>, Span)>,
    ns: Vec<String>,
    extern_c: bool,
    in_system_header: bool,
    pub(crate) fcx: Option<FnCx>,
    /// Diagnostics are dropped while > 0 (trial evaluation of host initializers).
    silent: u32,
    /// Namespaces saved while a class body is being declared.
    ns_stack_saved: Vec<Vec<String>>,
    /// Namespaces nominated by `using namespace` (file scope).
    pub(crate) usings: Vec<Vec<String>>,
    /// Inline namespaces by the namespace that encloses them (qualified names).
    pub(crate) inline_namespaces: HashMap<String, Vec<String>>,
    /// Namespace aliases, lambdas (`names.rs`, `lambda.rs`).
    pub(crate) cxx: names::CxxState,
    /// Templates: the registry, the template arguments in scope, the instantiation
    /// chain (`template.rs`).
    pub(crate) tpl: template::Templates,
}

fn qualify(ns: &[String], name: &str) -> String {
    let mut s = String::new();
    for p in ns {
        s.push_str(p);
        s.push_str("::");
    }
    s + name
}

pub(crate) fn attr_align(ck: &mut Checker, attrs: &[ast::Attribute]) -> Option<u64> {
    let mut al = None;
    for a in attrs {
        let n = a.name.trim_matches('_');
        if n == "aligned" || n == "align" || n == "alignas" {
            let v = match a.args.first() {
                Some(e) => ck.const_int(e).map(|v| v as u64),
                None => Some(16),
            };
            if let Some(v) = v {
                al = Some(al.unwrap_or(0).max(v));
            }
        }
    }
    al
}

impl<'o> Checker<'o> {
    pub fn new(opts: &'o SemaOptions) -> Self {
        Checker::with_opts(std::borrow::Cow::Borrowed(opts))
    }

    fn with_opts(opts: std::borrow::Cow<'o, SemaOptions>) -> Self {
        Checker {
            prog: Program::default(),
            diags: Vec::new(),
            opts,
            names: HashMap::new(),
            tags: HashMap::new(),
            skipped: HashMap::new(),
            ns: Vec::new(),
            extern_c: false,
            in_system_header: false,
            fcx: None,
            silent: 0,
            ns_stack_saved: Vec::new(),
            usings: Vec::new(),
            inline_namespaces: HashMap::new(),
            cxx: names::CxxState::default(),
            tpl: template::Templates::default(),
        }
    }

    /// A checker that owns its options (kept between checking and lowering).
    pub fn new_owned(opts: SemaOptions) -> Checker<'static> {
        Checker::with_opts(std::borrow::Cow::Owned(opts))
    }

    pub fn err(&mut self, span: Span, msg: impl Into<String>) {
        if self.silent == 0 {
            let d = self.with_instantiation_notes(Diagnostic::error(span, msg));
            self.diags.push(d);
        }
    }
    pub fn diag(&mut self, d: Diagnostic) {
        if self.silent == 0 {
            let d = self.with_instantiation_notes(d);
            self.diags.push(d);
        }
    }
    pub(crate) fn using_dirs(&self) -> Vec<Vec<String>> {
        self.usings.clone()
    }
    pub fn show(&self, t: &QTy) -> String {
        self.prog.types.show(t)
    }

    // ---------------------------------------------------------------- items

    pub fn items(&mut self, items: &[ast::Item]) {
        for it in items {
            let saved = self.in_system_header;
            self.in_system_header = it.in_system_header;
            match host_side_names(it) {
                Some(names) if !it.in_system_header => self.host_side_item(it, names),
                _ => self.item(it),
            }
            self.in_system_header = saved;
        }
    }

    /// A file-scope declaration without CUDA qualifiers (a host function, a host variable,
    /// a typedef, a class) is the host compiler's business: if device code cannot make
    /// sense of it (`std::vector<int> order;` — the device view has no `<vector>`), its
    /// errors are kept back, and the names it declares become errors only if device
    /// code uses them.
    fn host_side_item(&mut self, it: &ast::Item, names: HostSideNames) {
        let errs = self.diags.len();
        let q = |n: &String| qualify(&self.ns, n);
        let new_names: Vec<String> = names.names.iter().map(q).filter(|n| !self.names.contains_key(n)).collect();
        let new_tags: Vec<String> = names.tags.iter().map(q).filter(|n| !self.tags.contains_key(n)).collect();
        self.item(it);
        if self.diags.len() == errs {
            return;
        }
        let first = self.diags[errs].clone();
        self.diags.truncate(errs);
        let reason = if names.host_only { ast::SkipReason::HostOnly } else { ast::SkipReason::HostDeclaration };
        for n in new_names.iter().filter(|_| !names.is_function) {
            self.names.remove(n);
            self.skipped.insert(n.clone(), (reason, Some(first.clone()), it.span));
        }
        for n in &new_tags {
            self.tags.remove(n);
            self.skipped.insert(n.clone(), (ast::SkipReason::HostDeclaration, Some(first.clone()), it.span));
        }
    }

    fn item(&mut self, it: &ast::Item) {
        match &it.kind {
            ast::ItemKind::Decl(d) => self.file_decl(d),
            ast::ItemKind::FunctionDef(f) => self.declare_function(&f.spec, &f.declarator, Some(f), f.span),
            ast::ItemKind::Namespace { name, items, inline } => {
                match name {
                    Some(n) => {
                        if *inline {
                            let parent = self.ns.join("::");
                            let child = qualify(&self.ns, &n.name);
                            let list = self.inline_namespaces.entry(parent).or_default();
                            if !list.contains(&child) {
                                list.push(child);
                            }
                        }
                        self.ns.push(n.name.clone())
                    }
                    None => self.enter_anonymous_namespace(),
                }
                self.items(items);
                self.ns.pop();
            }
            ast::ItemKind::Using(u) => self.using(u, it.span),
            ast::ItemKind::LinkageSpec { lang, items } => {
                let saved = self.extern_c;
                self.extern_c = lang == "C";
                self.items(items);
                self.extern_c = saved;
            }
            ast::ItemKind::StaticAssert { cond, message } => self.static_assert(cond, message.as_deref(), it.span),
            ast::ItemKind::Skipped { names, reason, error } => {
                for n in names {
                    let q = qualify(&self.ns, n);
                    if !self.names.contains_key(&q) {
                        self.skipped.insert(q, (*reason, error.clone(), it.span));
                    }
                }
            }
            ast::ItemKind::Pragma(_) => {}
            ast::ItemKind::Template { .. } => self.template_item(it),
            // `template __global__ void k<float>(float*);`: the host compiler emits the
            // stub, so the instance is requested from the host object like any other.
            ast::ItemKind::ExplicitInstantiation { .. } => {}
        }
    }

    pub(crate) fn static_assert(&mut self, cond: &ast::Expr, message: Option<&str>, span: Span) {
        match self.const_int(cond) {
            Some(0) => {
                let m = match message {
                    Some(m) => format!("static assertion failed: {m}"),
                    None => "static assertion failed".to_string(),
                };
                self.err(cond.span, m);
            }
            Some(_) => {}
            None => self.err(span, "static assertion expression is not an integral constant expression"),
        }
    }

    fn silent_in_system(&self) -> bool {
        self.in_system_header
    }

    fn file_decl(&mut self, d: &ast::Declaration) {
        let errs = self.diags.len();
        if self.silent_in_system() {
            self.silent += 1;
        }
        let base = self.spec_type(&d.spec);
        for id in &d.declarators {
            let Some(name) = &id.declarator.name else { continue };
            let is_fn = matches!(id.declarator.derived.first(), Some(ast::Derived::Function(_)));
            if is_fn {
                self.declare_function(&d.spec, &id.declarator, None, d.span);
                continue;
            }
            let ty = self.apply_declarator(base.clone(), &id.declarator.derived);
            let qname = qualify(&self.ns, &name.last().name);
            if d.spec.storage == Some(ast::Storage::Typedef) {
                self.names.insert(qname, Sym::Typedef(ty));
                continue;
            }
            if name.segments.len() > 1 {
                // `int C::count = 0;`: the definition of a static data member.
                let prefix = template::qualifier(name);
                let ns = match self.lookup_tag(&prefix) {
                    Some(Tag::Record(r)) => self.class_ns(r),
                    _ => prefix.segments.iter().map(|s| s.name.clone()).collect(),
                };
                let saved = std::mem::replace(&mut self.ns, ns);
                self.global_var(d, id, ty);
                self.ns = saved;
                continue;
            }
            self.global_var(d, id, ty);
        }
        if self.silent_in_system() {
            self.silent -= 1;
            self.diags.truncate(errs);
        }
    }

    fn global_var(&mut self, d: &ast::Declaration, id: &ast::InitDeclarator, ty: QTy) {
        let name = id.declarator.name.as_ref().unwrap().last().clone();
        let q = &d.spec.cuda;
        let space = if q.shared {
            VarSpace::Shared
        } else if q.constant {
            VarSpace::Constant
        } else if q.managed {
            VarSpace::Managed
        } else if q.device || self.is_texture_reference(&ty) {
            VarSpace::Global
        } else {
            VarSpace::Host
        };
        let is_extern = d.spec.storage == Some(ast::Storage::Extern);
        let mut align = attr_align(self, &d.spec.attrs);
        if let Some(a) = attr_align(self, &id.declarator.attrs) {
            align = Some(align.unwrap_or(0).max(a));
        }
        let qname = qualify(&self.ns, &name.name);
        // Redeclaration (extern then definition): reuse.
        let existing = match self.names.get(&qname) {
            Some(Sym::Var(g)) => Some(*g),
            _ => None,
        };
        let gid = existing.unwrap_or(GVarId(self.prog.globals.len() as u32));
        let mut ty = ty;
        // `int a[] = {1, 2}`: the size comes from the initializer.
        if let (Ty::Array(e, None), Some(init)) = (&ty.ty, &id.init) {
            if let Some(n) = self.init_array_len(e, init) {
                ty = QTy { ty: Ty::Array(e.clone(), Some(n)), ..ty.clone() };
            }
        }
        let dynamic_shared = space == VarSpace::Shared && matches!(ty.ty, Ty::Array(_, None));
        if space == VarSpace::Shared && id.init.is_some() {
            self.err(id.declarator.span, "initializer not allowed for __shared__ variable");
        }
        let gv = GlobalVar {
            name: name.name.clone(),
            scope: self.ns.clone(),
            extern_c: self.extern_c,
            ty: ty.clone(),
            space,
            align,
            is_extern: is_extern && id.init.is_none(),
            is_static: d.spec.storage == Some(ast::Storage::Static),
            init: None,
            const_value: None,
            span: name.span,
            function_local: false,
        };
        let _ = dynamic_shared;
        if existing.is_some() {
            let old = &mut self.prog.globals[gid.0 as usize];
            if id.init.is_some() || !gv.is_extern {
                old.is_extern = false;
            }
            old.ty = ty.clone();
        } else {
            self.prog.globals.push(gv);
            self.names.insert(qname, Sym::Var(gid));
        }
        if let Some(init) = &id.init {
            if space == VarSpace::Host {
                // Only constants are usable in device code; evaluate silently.
                if ty.c && ty.ty.is_arith() {
                    self.silent += 1;
                    let e = self.check_init_expr(init, &ty);
                    self.silent -= 1;
                    if let Some(e) = e {
                        if let Some(v) = eval_const(&self.prog, &e) {
                            self.prog.globals[gid.0 as usize].const_value = Some(init::cval_expr(v, &ty, e.span));
                        }
                    }
                }
            } else if space != VarSpace::Shared {
                let hinit = self.check_initializer(init, &ty, id.declarator.span);
                if let Some(hinit) = hinit {
                    if self.const_init_ok(&hinit) {
                        self.prog.globals[gid.0 as usize].init = Some(hinit.clone());
                    }
                    if ty.c && ty.ty.is_arith() {
                        if let Init::Expr(e) = &hinit {
                            if let Some(v) = eval_const(&self.prog, e) {
                                self.prog.globals[gid.0 as usize].const_value = Some(init::cval_expr(v, &ty, e.span));
                            }
                        }
                    }
                }
            }
        }
    }

    /// A legacy `texture<T, dim, mode>` reference (declared by `cuprite/texture_fetch.h`):
    /// a device global without `__device__`, the cell holding its bound texture object.
    fn is_texture_reference(&self, ty: &QTy) -> bool {
        let Ty::Record(r) = &ty.ty else { return false };
        let d = self.prog.types.rec(*r);
        d.scope.is_empty() && d.name.as_deref().is_some_and(|n| n.starts_with("texture<") || n.starts_with("surface<"))
    }

    fn init_array_len(&mut self, _elem: &QTy, init: &ast::Initializer) -> Option<u64> {
        match init {
            ast::Initializer::List(items, _) => {
                let mut n = 0u64;
                let mut max = 0u64;
                for it in items {
                    if let Some(ast::Designator::Index(e)) = it.designators.first() {
                        n = self.const_int(e)? as u64;
                    }
                    n += 1;
                    max = max.max(n);
                }
                Some(max)
            }
            ast::Initializer::Expr(ast::Expr { kind: ast::ExprKind::StringLit(s), .. }) => Some(s.len() as u64 + 1),
            _ => None,
        }
    }

    fn exec_space(q: &ast::CudaQuals) -> ExecSpace {
        if q.global {
            ExecSpace::Global
        } else if q.device && q.host {
            ExecSpace::HostDevice
        } else if q.device {
            ExecSpace::Device
        } else {
            ExecSpace::Host
        }
    }

    fn declare_function(&mut self, spec: &ast::DeclSpec, decl: &ast::Declarator, def: Option<&ast::FunctionDef>, span: Span) {
        let Some(path) = &decl.name else { return };
        if path.segments.len() > 1 {
            self.define_member_out_of_class(spec, decl, def, span);
            return;
        }
        let name = path.last().name.clone();
        let errs = self.diags.len();
        let sys = self.in_system_header;
        if sys {
            self.silent += 1;
        }
        let space = Self::exec_space(&spec.cuda);
        let ret = self.return_base_type(spec);
        let fty = self.apply_declarator(ret, &decl.derived);
        if sys {
            self.silent -= 1;
            self.diags.truncate(errs);
        }
        let Ty::Func(sig) = fty.ty else { return };
        let sig = *sig;
        let inline = Self::inline_hint(&spec.cuda);
        let lb = self.launch_bounds(&spec.cuda);
        if space == ExecSpace::Global && sig.ret.ty != Ty::Void && !sig.ret.ty.is_error() {
            self.err(decl.span, "a __global__ function must have a void return type");
        }
        let qname = qualify(&self.ns, &name);
        let same_params = |a: &FnTy, b: &FnTy| {
            a.params.len() == b.params.len()
                && a.variadic == b.variadic
                && a.params.iter().zip(&b.params).all(|(x, y)| overload::same_param_type(x, y))
        };
        if let Some(Sym::Funcs(ids)) = self.names.get(&qname) {
            for id in ids.clone() {
                let f = &mut self.prog.functions[id.0 as usize];
                if same_params(&f.sig, &sig) {
                    if let Some(ast::Derived::Function(fd)) = decl.derived.first() {
                        for (i, p) in fd.params.iter().enumerate() {
                            if let (Some(d), Some(slot)) = (&p.default, f.cxx.defaults.get_mut(i)) {
                                *slot = Some(d.clone());
                            }
                        }
                    }
                    if spec.is_constexpr {
                        f.cxx.is_constexpr = true;
                    }
                    if def.is_some() {
                        f.def = def.cloned();
                        f.span = span;
                        f.in_system_header = sys;
                        f.builtin_name = None;
                    }
                    if space != ExecSpace::Host && f.space == ExecSpace::Host {
                        f.space = space;
                    }
                    if inline != ir::InlineHint::None {
                        f.inline = inline;
                    }
                    if lb.0.is_some() {
                        f.launch_bounds = lb;
                    }
                    return;
                }
            }
        }
        let builtin_name = if def.is_none() && builtins::classify(&name).is_some() { Some(name.clone()) } else { None };
        let id = FnId(self.prog.functions.len() as u32);
        if spec.storage == Some(ast::Storage::Static) {
            self.prog.static_functions.insert(id);
        }
        self.prog.functions.push(Function {
            name: name.clone(),
            scope: self.ns.clone(),
            extern_c: self.extern_c,
            space,
            sig,
            inline,
            launch_bounds: lb,
            span,
            in_system_header: sys,
            body: None,
            def: def.cloned(),
            builtin_name,
            cxx: FnCxx {
                method: None,
                defaults: match decl.derived.first() {
                    Some(ast::Derived::Function(fd)) => fd.params.iter().map(|p| p.default.clone()).collect(),
                    _ => vec![],
                },
                is_constexpr: spec.is_constexpr,
            },
        });
        match self.names.get_mut(&qname) {
            Some(Sym::Funcs(ids)) => ids.push(id),
            _ => {
                self.names.insert(qname, Sym::Funcs(vec![id]));
            }
        }
    }

    // ---------------------------------------------------------------- lookup

    /// Candidate qualified names for a path, innermost scope first (not yet through
    /// inline namespaces: `find_candidate` adds those only when none of these is found).
    fn candidates(&self, path: &ast::Path) -> Vec<String> {
        let rel: Vec<&str> = path.segments.iter().map(|s| s.name.as_str()).collect();
        let rel = rel.join("::");
        if path.global {
            return vec![rel];
        }
        let mut out = Vec::new();
        for i in (0..=self.ns.len()).rev() {
            out.push(qualify(&self.ns[..i], &rel));
        }
        for u in &self.usings {
            out.push(qualify(u, &rel));
        }
        out.extend(self.alias_candidates(path));
        // `std::sqrt` and friends: the global builtin.
        if path.segments.len() == 2 && path.segments[0].name == "std" {
            out.push(path.segments[1].name.clone());
        }
        out
    }

    /// The first candidate name of `path` that `find` knows: the direct candidates in
    /// order, then the same names through inline namespaces. Those are made only when no
    /// direct one is found: inside `std`, whose inline namespaces nest (`literals`,
    /// `__cxx11`, …), they are up to 256 strings per lookup, which made every lookup of a
    /// host header's name slow (a cuda-samples translation unit with no kernel took 40 s).
    pub(crate) fn find_candidate<T>(&self, path: &ast::Path, mut find: impl FnMut(&str) -> Option<T>) -> Option<T> {
        let direct = self.candidates(path);
        if let Some(v) = direct.iter().find_map(|c| find(c)) {
            return Some(v);
        }
        if self.inline_namespaces.is_empty() {
            return None;
        }
        let mut out = direct.clone();
        let mut seen: std::collections::HashSet<String> = direct.iter().cloned().collect();
        for c in &direct {
            self.through_inline_namespaces(c, &mut out, &mut seen);
        }
        out[direct.len()..].iter().find_map(|c| find(c))
    }

    /// `a::X` also names `a::v1::X` when `v1` is an inline namespace of `a`, and
    /// `a::v1::v2::X` when `v2` is one of `v1`: pushes those names onto `out`. Each
    /// prefix of `q` is replaced by each of its inline namespaces, nested ones included;
    /// after a replacement only longer prefixes are replaced again (so that `a::b::X` also
    /// reaches `a::v1::b::w1::X`), never the namespace just inserted.
    fn through_inline_namespaces(&self, q: &str, out: &mut Vec<String>, seen: &mut std::collections::HashSet<String>) {
        self.inline_expansions_from(q, 0, out, seen);
    }

    fn inline_expansions_from(&self, q: &str, from: usize, out: &mut Vec<String>, seen: &mut std::collections::HashSet<String>) {
        let segs: Vec<&str> = q.split("::").collect();
        for k in from..segs.len() {
            let parent = segs[..k].join("::");
            let inner = self.inline_namespaces_within(&parent);
            if inner.is_empty() {
                continue;
            }
            let rest = segs[k..].join("::");
            for child in inner {
                let via = format!("{child}::{rest}");
                if out.len() >= 256 {
                    return;
                }
                if seen.insert(via.clone()) {
                    out.push(via.clone());
                    self.inline_expansions_from(&via, child.split("::").count() + 1, out, seen);
                }
            }
        }
    }

    /// The inline namespaces of namespace `parent`, and theirs, outermost first.
    fn inline_namespaces_within(&self, parent: &str) -> Vec<&String> {
        let mut all: Vec<&String> = Vec::new();
        let mut i = 0;
        if let Some(c) = self.inline_namespaces.get(parent) {
            all.extend(c);
        }
        while i < all.len() {
            if let Some(c) = self.inline_namespaces.get(all[i].as_str()) {
                all.extend(c);
            }
            i += 1;
        }
        all
    }

    /// What a name means. Template-ids and names inside template specializations
    /// (`Vec<float>::size`, `T::value_type`) are resolved first (`template.rs`), which
    /// may instantiate class templates.
    pub(crate) fn lookup(&mut self, path: &ast::Path) -> Option<Sym> {
        match self.canonical_path(path) {
            template::Canon::Same => self.lookup_plain(path),
            template::Canon::Path(p) => self.lookup_plain(&p),
            template::Canon::Sym(s) => s,
        }
    }

    pub(crate) fn lookup_tag(&mut self, path: &ast::Path) -> Option<Tag> {
        match self.canonical_path(path) {
            template::Canon::Same => self.lookup_tag_plain(path),
            template::Canon::Path(p) => self.lookup_tag_plain(&p),
            template::Canon::Sym(Some(Sym::Typedef(QTy { ty: Ty::Record(r), .. }))) => Some(Tag::Record(r)),
            template::Canon::Sym(_) => None,
        }
    }

    /// `lookup` for a path without template arguments.
    pub(crate) fn lookup_plain(&self, path: &ast::Path) -> Option<Sym> {
        if path.has_template_args() {
            return None;
        }
        if path.segments.len() == 1 && !path.global {
            if let Some(f) = &self.fcx {
                for s in f.scopes.iter().rev() {
                    if let Some(v) = s.names.get(&path.last().name) {
                        return Some(v.clone());
                    }
                }
            }
            // Template parameters of the template being instantiated.
            if let Some(s) = self.template_param_sym(&path.last().name) {
                return Some(s);
            }
            if let Some(f) = &self.fcx {
                // Class scope: the class and its bases.
                if let Some(c) = f.class {
                    for k in self.class_chain(c) {
                        if let Some(s) = self.names.get(&qualify(&self.class_ns(k), &path.last().name)) {
                            return Some(s.clone());
                        }
                    }
                }
            }
        }
        // `Base::member` through a derived class: `D::f` where `f` is `B`'s.
        if path.segments.len() >= 2 {
            let prefix = ast::Path::new(path.global, path.segments[..path.segments.len() - 1].to_vec(), path.span);
            if let Some(Tag::Record(r)) = self.lookup_tag_plain(&prefix) {
                for k in self.class_chain(r) {
                    if let Some(s) = self.names.get(&qualify(&self.class_ns(k), &path.last().name)) {
                        return Some(s.clone());
                    }
                }
            }
        }
        self.find_candidate(path, |c| self.names.get(c).cloned())
    }

    pub(crate) fn lookup_tag_plain(&self, path: &ast::Path) -> Option<Tag> {
        if path.has_template_args() {
            return None;
        }
        if path.segments.len() == 1 && !path.global {
            if let Some(f) = &self.fcx {
                for s in f.scopes.iter().rev() {
                    if let Some(v) = s.tags.get(&path.last().name) {
                        return Some(*v);
                    }
                }
            }
        }
        self.find_candidate(path, |c| self.tags.get(c).copied())
    }

    pub(crate) fn lookup_skipped(&self, path: &ast::Path) -> Option<(ast::SkipReason, Option<Diagnostic>, Span)> {
        if path.has_template_args() {
            // Template-ids are resolved (and their errors reported) in `template.rs`.
            return None;
        }
        self.find_candidate(path, |c| self.skipped.get(c).cloned())
    }

    fn bind_tag(&mut self, name: &str, tag: Tag) {
        if let Some(f) = &mut self.fcx {
            f.scopes.last_mut().unwrap().tags.insert(name.to_string(), tag);
        } else {
            let q = qualify(&self.ns, name);
            self.tags.insert(q, tag);
        }
    }

    pub(crate) fn bind_name(&mut self, name: &str, sym: Sym) {
        if let Some(f) = &mut self.fcx {
            f.scopes.last_mut().unwrap().names.insert(name.to_string(), sym);
        } else {
            let q = qualify(&self.ns, name);
            self.names.insert(q, sym);
        }
    }

    // ---------------------------------------------------------------- types

    /// The type a function's declaration specifiers give its return type: `constexpr`
    /// makes objects `const`, not what a function returns (`constexpr T& get()`).
    pub(crate) fn return_base_type(&mut self, spec: &ast::DeclSpec) -> QTy {
        if !spec.is_constexpr {
            return self.spec_type(spec);
        }
        let plain = ast::DeclSpec { is_constexpr: false, ..spec.clone() };
        self.spec_type(&plain)
    }

    pub(crate) fn spec_type(&mut self, spec: &ast::DeclSpec) -> QTy {
        let ty = match &spec.ty {
            ast::TypeSpec::None => {
                self.err(spec.span, "a type specifier is required for all declarations");
                Ty::Error
            }
            ast::TypeSpec::Builtin(b) => {
                use ast::BuiltinType as B;
                match b {
                    B::Void => Ty::Void,
                    B::Bool => Ty::Bool,
                    B::Char => Ty::Int(IntKind::Char),
                    B::SChar => Ty::Int(IntKind::SChar),
                    B::UChar => Ty::Int(IntKind::UChar),
                    B::Short => Ty::Int(IntKind::Short),
                    B::UShort => Ty::Int(IntKind::UShort),
                    B::Int => Ty::Int(IntKind::Int),
                    B::UInt => Ty::Int(IntKind::UInt),
                    B::Long => Ty::Int(IntKind::Long),
                    B::ULong => Ty::Int(IntKind::ULong),
                    B::LongLong => Ty::Int(IntKind::LongLong),
                    B::ULongLong => Ty::Int(IntKind::ULongLong),
                    B::Float => Ty::Float,
                    B::Double => Ty::Double,
                    // nvcc treats `long double` as `double` in device code.
                    B::LongDouble => Ty::Double,
                    B::Int128 | B::UInt128 => {
                        self.err(spec.span, "'__int128' is not supported in device code yet");
                        Ty::Error
                    }
                }
            }
            ast::TypeSpec::Named(path) => match self.lookup(path) {
                Some(Sym::Typedef(t)) => {
                    let mut t = t;
                    t.c |= spec.cv.is_const || spec.is_constexpr;
                    t.v |= spec.cv.is_volatile;
                    return t;
                }
                _ => match self.lookup_tag(path) {
                    Some(Tag::Record(r)) => Ty::Record(r),
                    Some(Tag::Enum(e)) => Ty::Enum(e),
                    None => {
                        let n = path.last().name.clone();
                        if let Some((reason, err, _)) = self.lookup_skipped(path) {
                            self.skipped_error(path.span, &n, reason, err);
                        } else {
                            self.err(path.span, format!("unknown type name '{n}'"));
                        }
                        Ty::Error
                    }
                },
            },
            ast::TypeSpec::Record(rs) => Ty::Record(self.record(rs)),
            ast::TypeSpec::Enum(es) => Ty::Enum(self.enumeration(es)),
            ast::TypeSpec::Auto => {
                self.err(spec.span, "'auto' is only supported for local variables with an initializer");
                Ty::Error
            }
            ast::TypeSpec::Decltype(e) => {
                let e = self.expr(e);
                e.ty.ty
            }
        };
        // `constexpr` implies `const`.
        QTy { ty, c: spec.cv.is_const || spec.is_constexpr, v: spec.cv.is_volatile }
    }

    /// `__forceinline__` / `__noinline__` as the IR's hint.
    pub(crate) fn inline_hint(cuda: &ast::CudaQuals) -> ir::InlineHint {
        if cuda.forceinline {
            ir::InlineHint::Always
        } else if cuda.noinline {
            ir::InlineHint::Never
        } else {
            ir::InlineHint::None
        }
    }

    /// `__launch_bounds__(max_threads, min_blocks)`, evaluated.
    pub(crate) fn launch_bounds(&mut self, cuda: &ast::CudaQuals) -> (Option<u32>, Option<u32>) {
        let Some(args) = &cuda.launch_bounds else { return (None, None) };
        let mut eval = |i: usize| args.get(i).and_then(|a| self.const_int(a)).map(|v| v as u32);
        (eval(0), eval(1))
    }

    pub(crate) fn skipped_error(&mut self, span: Span, name: &str, reason: ast::SkipReason, err: Option<Diagnostic>) {
        if let (ast::SkipReason::HostDeclaration, Some(e)) = (reason, &err) {
            // The declaration's own error, now that device code needs it.
            let d = e.clone().with_note(Some(span), format!("'{name}' is used in device code here"));
            self.diag(d);
            return;
        }
        let msg = match reason {
            ast::SkipReason::HostDeclaration => format!("'{name}' has an error in its declaration and cannot be used in device code"),
            ast::SkipReason::HostOnly => format!("'{name}' is host code and cannot be used in device code"),
            ast::SkipReason::Unsupported => format!("'{name}' uses a construct that device code does not support yet"),
            ast::SkipReason::SystemHeader => format!("'{name}' comes from a system header that could not be parsed for device code"),
        };
        let mut d = Diagnostic::error(span, msg);
        if let Some(e) = err {
            d = d.with_note(Some(e.span), e.message);
        }
        self.diag(d);
    }

    pub(crate) fn apply_declarator(&mut self, base: QTy, derived: &[ast::Derived]) -> QTy {
        let mut t = base;
        for d in derived.iter().rev() {
            t = match d {
                ast::Derived::Pointer { cv, .. } => {
                    if matches!(t.ty, Ty::Ref(_)) {
                        self.err(Span::default(), "pointer to a reference is not allowed");
                    }
                    QTy { ty: Ty::ptr(t), c: cv.is_const, v: cv.is_volatile }
                }
                // An rvalue reference is marked by the reference's own `v` flag (see
                // `overload::is_rvalue_ref`).
                // Reference collapsing (a template parameter or typedef that is a
                // reference): `T& &&` is `T&`, `T&& &&` is `T&&`.
                ast::Derived::Reference { rvalue } if matches!(t.ty, Ty::Ref(_)) => QTy { ty: t.ty, c: false, v: t.v && *rvalue },
                ast::Derived::Reference { rvalue } => QTy { ty: Ty::Ref(Box::new(t)), c: false, v: *rvalue },
                ast::Derived::MemberPointer { class, cv } => {
                    let spec = ast::DeclSpec { ty: ast::TypeSpec::Named(class.clone()), span: class.span, ..Default::default() };
                    let ct = self.spec_type(&spec);
                    match ct.ty {
                        Ty::Record(r) if !matches!(t.ty, Ty::Ref(_) | Ty::Void) => {
                            QTy { ty: Ty::MemberPtr { class: r, pointee: Box::new(t) }, c: cv.is_const, v: cv.is_volatile }
                        }
                        Ty::Error => QTy::error(),
                        Ty::Record(_) => {
                            self.err(class.span, "a pointer to member cannot point to a reference or 'void'");
                            QTy::error()
                        }
                        _ => {
                            let shown = self.show(&ct);
                            self.err(class.span, format!("'{shown}' is not a class: a pointer to member needs a class"));
                            QTy::error()
                        }
                    }
                }
                ast::Derived::Array(n) => {
                    let len = match n {
                        None => None,
                        Some(e) => match self.const_int(e) {
                            Some(v) if v >= 0 => Some(v as u64),
                            Some(_) => {
                                self.err(e.span, "array has a negative size");
                                Some(1)
                            }
                            None => {
                                self.err(e.span, "array size is not an integral constant expression");
                                Some(1)
                            }
                        },
                    };
                    if matches!(t.ty, Ty::Void) {
                        self.err(Span::default(), "array of 'void' is not allowed");
                    }
                    QTy::new(Ty::Array(Box::new(t), len))
                }
                ast::Derived::Function(fd) => {
                    let mut params = Vec::new();
                    for p in &fd.params {
                        let pt = self.param_type(p);
                        params.push(pt);
                    }
                    if params.len() == 1 && params[0].ty == Ty::Void {
                        params.clear();
                    }
                    // Signature types: decayed, top-level cv dropped.
                    let params = params
                        .into_iter()
                        .map(|p| {
                            let p = decay_param(p);
                            if matches!(p.ty, Ty::Ref(_)) { p } else { p.unqual() }
                        })
                        .collect();
                    // `c`: a `const` member function (see `Ty::MemberPtr`).
                    QTy { ty: Ty::Func(Box::new(FnTy { params, ret: t, variadic: fd.variadic })), c: fd.cv.is_const, v: false }
                }
            };
        }
        t
    }

    pub(crate) fn param_type(&mut self, p: &ast::Param) -> QTy {
        let base = self.spec_type(&p.spec);
        self.apply_declarator(base, &p.declarator.derived)
    }

    fn record(&mut self, rs: &ast::RecordSpec) -> RecId {
        let is_union = rs.kind == ast::RecordKind::Union;
        let existing = rs.name.as_ref().and_then(|n| {
            if rs.members.is_some() {
                // A definition: only the current scope.
                if let Some(f) = &self.fcx {
                    match f.scopes.last().unwrap().tags.get(&n.name) {
                        Some(Tag::Record(r)) => Some(*r),
                        _ => None,
                    }
                } else {
                    match self.tags.get(&qualify(&self.ns, &n.name)) {
                        Some(Tag::Record(r)) => Some(*r),
                        _ => None,
                    }
                }
            } else {
                let p = ast::Path::new(false, vec![n.clone()], n.span);
                match self.lookup_tag(&p) {
                    Some(Tag::Record(r)) => Some(r),
                    _ => None,
                }
            }
        });
        let id = match existing {
            Some(r) if self.prog.types.rec(r).fields.is_none() || rs.members.is_none() => r,
            Some(_) => {
                self.err(rs.span, format!("redefinition of '{}'", rs.name.as_ref().unwrap().name));
                return existing.unwrap();
            }
            None => {
                let id = RecId(self.prog.types.records.len() as u32);
                self.prog.types.records.push(RecordDef {
                    name: rs.name.as_ref().map(|n| n.name.clone()),
                    scope: self.ns.clone(),
                    is_union,
                    is_class: rs.kind == ast::RecordKind::Class,
                    fields: None,
                    size: 0,
                    align: 1,
                    span: rs.span,
                });
                if let Some(n) = &rs.name {
                    self.bind_tag(&n.name, Tag::Record(id));
                }
                id
            }
        };
        self.define_record(id, rs);
        id
    }

    /// The members and layout of record `id` from its definition `rs` (no-op for a
    /// declaration without a body).
    pub(crate) fn define_record(&mut self, id: RecId, rs: &ast::RecordSpec) {
        let is_union = rs.kind == ast::RecordKind::Union;
        let Some(members) = &rs.members else { return };
        let mut fields = self.class_body(id, rs, members);
        let min_align = attr_align(self, &rs.attrs).unwrap_or(1);
        // Member alignment attributes (`alignas(8) int x;`) raise their field's alignment
        // (approximated by the record's where a base's tail padding is reused).
        let field_align = self.field_alignments(members, &fields);
        let fa = field_align.iter().copied().max().unwrap_or(1);
        let (size, align) = match self.layout_reusing_tail_padding(id, &mut fields, min_align.max(fa)) {
            Some(l) => l,
            None => self.prog.types.layout_fields_with(&mut fields, is_union, min_align, &field_align).unwrap_or((1, 1)),
        };
        // Unnamed bit-fields only shape the layout: they are not members.
        fields.retain(|f| f.name.is_some() || f.bits.is_none());
        let r = &mut self.prog.types.records[id.0 as usize];
        r.fields = Some(fields);
        r.size = size.max(if size == 0 { 1 } else { 0 });
        r.align = align;
        self.finish_class(id, rs.span);
    }

    /// The width of a bit-field of type `ty` (checked as C++ compilers do).
    fn bit_width(&mut self, ty: &QTy, w: &ast::Expr, name: Option<&str>, sp: Span) -> Option<u32> {
        let shown = match name {
            Some(n) => format!("'{n}'"),
            None => "<anonymous>".to_string(),
        };
        if ty.ty.is_error() {
            return None;
        }
        if !ty.ty.is_integer() {
            self.err(sp, format!("bit-field {shown} has non-integral type '{}'", self.show(ty)));
            return None;
        }
        let Some(v) = self.const_int(w) else {
            self.err(w.span, format!("bit-field {shown} width is not an integral constant expression"));
            return None;
        };
        if v < 0 {
            self.err(w.span, format!("bit-field {shown} has negative width ({v})"));
            return None;
        }
        if v == 0 && name.is_some() {
            self.err(w.span, format!("named bit-field {shown} has zero width"));
            return None;
        }
        let bits = self.prog.types.layout(&ty.ty).map(|(s, _)| s * 8).unwrap_or(0) as i128;
        if v > bits {
            self.err(w.span, format!("width of bit-field {shown} ({v} bits) exceeds the width of its type ({bits} bits)"));
            return None;
        }
        Some(v as u32)
    }

    fn enumeration(&mut self, es: &ast::EnumSpec) -> EnumId {
        if es.enumerators.is_none() {
            if let Some(n) = &es.name {
                let p = ast::Path::new(false, vec![n.clone()], n.span);
                if let Some(Tag::Enum(e)) = self.lookup_tag(&p) {
                    return e;
                }
            }
        }
        let underlying = match &es.underlying {
            Some(t) => match self.type_name(t).ty {
                Ty::Int(k) => k,
                _ => IntKind::Int,
            },
            None => IntKind::Int,
        };
        let id = EnumId(self.prog.types.enums.len() as u32);
        self.prog.types.enums.push(EnumDef {
            name: es.name.as_ref().map(|n| n.name.clone()),
            scope: self.ns.clone(),
            underlying,
            span: es.span,
            signed_bitfield: underlying.signed(),
        });
        if let Some(n) = &es.name {
            self.bind_tag(&n.name, Tag::Enum(id));
        }
        let ety = QTy::new(Ty::Enum(id));
        let mut next: i128 = 0;
        let mut min = 0i128;
        let mut max = 0i128;
        for e in es.enumerators.iter().flatten() {
            if let Some(v) = &e.value {
                if let Some(v) = self.const_int(v) {
                    next = v;
                }
            }
            min = min.min(next);
            max = max.max(next);
            let name = if es.scoped { format!("{}::{}", es.name.as_ref().map(|n| n.name.as_str()).unwrap_or(""), e.name.name) } else { e.name.name.clone() };
            self.bind_name(&name, Sym::Enumerator(next, ety.clone()));
            next += 1;
        }
        if es.underlying.is_none() && !es.scoped {
            self.prog.types.enums[id.0 as usize].signed_bitfield = min < 0;
        }
        if es.underlying.is_none() && (max > i32::MAX as i128 || min < i32::MIN as i128) {
            self.prog.types.enums[id.0 as usize].underlying =
                if min < 0 { IntKind::Long } else if max > u32::MAX as i128 { IntKind::ULong } else { IntKind::UInt };
        }
        id
    }

    pub(crate) fn type_name(&mut self, t: &ast::TypeName) -> QTy {
        let base = self.spec_type(&t.spec);
        self.apply_declarator(base, &t.declarator.derived)
    }

    /// Evaluate an integral constant expression.
    pub(crate) fn const_int(&mut self, e: &ast::Expr) -> Option<i128> {
        let h = self.expr(e);
        let h = self.rvalue(h);
        if h.is_error() {
            return Some(1);
        }
        let Some(c) = eval_const(&self.prog, &h) else {
            self.explain_not_constant(&h, e.span);
            return None;
        };
        match c {
            CVal::Int(v) if h.ty.ty.is_integer() => Some(v),
            _ => None,
        }
    }

    // ---------------------------------------------------------------- functions

    /// Check the body of every device function the program needs.
    pub fn check_bodies(&mut self) {
        // Roots: kernels and user __device__ functions (so their errors are reported);
        // __host__ __device__ and system-header functions only when reachable.
        let mut work: Vec<FnId> = Vec::new();
        for (i, f) in self.prog.functions.iter().enumerate() {
            if f.def.is_some() && !f.in_system_header && matches!(f.space, ExecSpace::Global | ExecSpace::Device) {
                // Specializations of templates are checked only where they are used.
                if !self.tpl.is_instance(FnId(i as u32)) {
                    work.push(FnId(i as u32));
                }
            }
        }
        work.extend(self.tpl.requested_roots());
        let mut done = vec![false; self.prog.functions.len()];
        while let Some(id) = work.pop() {
            if done.get(id.0 as usize).copied().unwrap_or(true) {
                continue;
            }
            done[id.0 as usize] = true;
            // A constexpr function may have been checked already, where a call to it was
            // first built (`ensure_constexpr_body`): its callees are still reachable.
            if self.prog.functions[id.0 as usize].def.is_some() {
                self.check_function_in_context(id);
            }
            if let Some(b) = &self.prog.functions[id.0 as usize].body {
                for c in &b.calls {
                    work.push(*c);
                }
            }
            done.resize(self.prog.functions.len(), false);
        }
    }
}

/// Parameter adjustment: arrays to pointers, functions to function pointers.
pub(crate) fn decay_param(t: QTy) -> QTy {
    match t.ty {
        Ty::Array(e, _) => QTy { ty: Ty::ptr(*e), c: t.c, v: t.v },
        Ty::Func(_) => QTy::new(Ty::ptr(t)),
        _ => t,
    }
}

/// `__PRETTY_FUNCTION__` as nvcc's front-end prints it: `void k(int *)`.
pub(crate) fn pretty_signature(types: &TypeTable, f: &Function) -> String {
    let ps: Vec<String> = f.sig.params.iter().map(|p| types.show(p)).collect();
    let name = qualified_fn_name(f);
    format!("{} {}({})", types.show(&f.sig.ret), name, ps.join(", "))
}

/// What a host-side file-scope item declares (see `Checker::host_side_item`).
struct HostSideNames {
    /// Declarator names: variables, typedefs, functions.
    names: Vec<String>,
    /// Class and enum names defined by the item.
    tags: Vec<String>,
    /// A host function or host variable (device code may not use it at all), as opposed
    /// to a type, which device code may use.
    host_only: bool,
    /// A function declaration: it stays declared (an overload set may hold device
    /// functions too); calls from device code are refused as calls of host functions.
    is_function: bool,
}

/// The names a file-scope item without CUDA qualifiers declares; `None` for items that
/// have CUDA qualifiers or are not plain declarations.
fn host_side_names(it: &ast::Item) -> Option<HostSideNames> {
    let cuda_qualified = |q: &ast::CudaQuals| q.global || q.device || q.host || q.shared || q.constant || q.managed;
    let tags_of = |spec: &ast::DeclSpec| -> Vec<String> {
        match &spec.ty {
            ast::TypeSpec::Record(r) if r.members.is_some() && r.args.is_none() => r.name.iter().map(|n| n.name.clone()).collect(),
            ast::TypeSpec::Enum(e) if e.enumerators.is_some() => e.name.iter().map(|n| n.name.clone()).collect(),
            _ => vec![],
        }
    };
    match &it.kind {
        ast::ItemKind::Decl(d) if !cuda_qualified(&d.spec.cuda) && !d.spec.is_constexpr => {
            let names: Vec<String> = d
                .declarators
                .iter()
                .filter_map(|id| id.declarator.name.as_ref())
                .filter(|p| p.segments.len() == 1)
                .map(|p| p.last().name.clone())
                .collect();
            let is_function = d.declarators.iter().any(|id| matches!(id.declarator.derived.first(), Some(ast::Derived::Function(_))));
            let typedef = d.spec.storage == Some(ast::Storage::Typedef);
            let host_only = !typedef && !names.is_empty() && !(d.spec.cv.is_const && !is_function);
            Some(HostSideNames { names, tags: tags_of(&d.spec), host_only, is_function })
        }
        ast::ItemKind::FunctionDef(f) if !cuda_qualified(&f.spec.cuda) && !f.spec.is_constexpr => {
            Some(HostSideNames { names: vec![], tags: tags_of(&f.spec), host_only: true, is_function: true })
        }
        _ => None,
    }
}
