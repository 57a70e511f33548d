//! Classes: members, member functions, constructors, destructors, access control,
//! single non-virtual inheritance, and the object-lifetime helpers (construction,
//! destruction, temporaries) the rest of the checker uses.
//!
//! Representation (see `hir::ClassInfo`, `hir::MethodInfo`):
//! - a class's members live in the namespace-like scope `class_ns(r)` (its enclosing
//!   scope plus its name), so `C::f`, `C::N`, `C::Nested` resolve through the ordinary
//!   qualified-name tables, and member-function bodies are checked with that scope as
//!   their namespace (class scope lookup before the enclosing namespaces);
//! - the base subobject is at offset 0 (field 0 unless the base is empty), so a
//!   derived-to-base conversion is a pointer cast;
//! - constructors initialize an object whose address they get as `this`
//!   (`hir::Init::Construct`), destructors are called explicitly by the code sema emits
//!   at scope exits and at the end of full-expressions.

use super::expr::find_field;
use super::*;

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

impl<'o> Checker<'o> {
    /// The scope that holds a class's members: its enclosing scope and its name.
    pub(crate) fn class_ns(&self, r: RecId) -> Vec<String> {
        let d = self.prog.types.rec(r);
        let mut v = d.scope.clone();
        v.push(d.name.clone().unwrap_or_else(|| format!("<anon{}>", r.0)));
        v
    }

    /// The name constructors of class `r` have: its name without template arguments
    /// (`Vec` for `Vec<float, 3>`).
    pub(crate) fn ctor_name(&self, r: RecId) -> String {
        let n = self.prog.types.rec(r).name.clone().unwrap_or_default();
        match n.find('<') {
            Some(i) => n[..i].to_string(),
            None => n,
        }
    }

    pub(crate) fn class_info(&self, r: RecId) -> Option<&ClassInfo> {
        self.prog.classes.get(&r)
    }

    /// `r` and its bases, derived first.
    pub(crate) fn class_chain(&self, r: RecId) -> Vec<RecId> {
        let mut v = vec![r];
        let mut c = r;
        while let Some(b) = self.class_info(c).and_then(|i| i.base) {
            if v.contains(&b) {
                break;
            }
            v.push(b);
            c = b;
        }
        v
    }

    /// Whether `base` is `derived` or one of its bases.
    pub(crate) fn is_base_of(&self, base: RecId, derived: RecId) -> bool {
        self.class_chain(derived).contains(&base)
    }

    /// The class's members: fields (returned), member functions, static members.
    pub(crate) fn class_body(&mut self, id: RecId, rs: &ast::RecordSpec, members: &[ast::Member]) -> Vec<FieldDef> {
        let mut info = ClassInfo::default();
        let mut fields = Vec::new();
        if rs.bases.len() > 1 {
            self.err(rs.span, "multiple inheritance is not supported in device code yet");
        }
        if let Some(bp) = rs.bases.first() {
            match self.lookup_tag(bp) {
                Some(Tag::Record(b)) if self.prog.types.rec(b).fields.is_some() => {
                    info.base = Some(b);
                    let empty = self.prog.types.rec(b).fields.as_ref().is_some_and(|f| f.is_empty());
                    if !empty {
                        fields.push(FieldDef { name: None, ty: QTy::new(Ty::Record(b)), offset: 0, span: bp.span, bits: None });
                    }
                }
                Some(Tag::Record(_)) => {
                    self.err(bp.span, format!("base class has incomplete type '{}'", expr::path_str(bp)));
                }
                _ => self.err(bp.span, format!("expected class name ('{}' is not a class)", expr::path_str(bp))),
            }
        }
        let is_class = rs.kind == ast::RecordKind::Class;
        let mut access = if is_class { Access::Private } else { Access::Public };
        let named = rs.name.is_some();
        self.prog.classes.insert(id, info);
        if named {
            let ns = self.class_ns(id);
            let saved = std::mem::replace(&mut self.ns, ns);
            self.ns_stack_saved.push(saved);
        }
        let mut nsdmi: Vec<(usize, ast::Initializer)> = Vec::new();
        let mut declared_virtual: Vec<FnId> = Vec::new();
        let mut pure: Vec<FnId> = Vec::new();
        for m in members {
            match m {
                ast::Member::Access(_, a) => {
                    access = match a {
                        ast::AccessSpec::Public => Access::Public,
                        ast::AccessSpec::Protected => Access::Protected,
                        ast::AccessSpec::Private => Access::Private,
                    };
                }
                ast::Member::Field(d) => {
                    let base = self.spec_type(&d.spec);
                    if d.spec.storage == Some(ast::Storage::Typedef) {
                        for id in &d.declarators {
                            if let Some(n) = &id.declarator.name {
                                let t = self.apply_declarator(base.clone(), &id.declarator.derived);
                                self.bind_name(&n.last().name, Sym::Typedef(t));
                            }
                        }
                        continue;
                    }
                    if d.spec.storage == Some(ast::Storage::Static) {
                        for idecl in &d.declarators {
                            if idecl.declarator.name.is_none() {
                                continue;
                            }
                            let t = self.apply_declarator(base.clone(), &idecl.declarator.derived);
                            if matches!(t.ty, Ty::Func(_)) {
                                continue;
                            }
                            self.global_var(d, idecl, t);
                            if let Some(Sym::Var(g)) = self.names.get(&qualify(&self.ns, &idecl.declarator.name.as_ref().unwrap().last().name)) {
                                let g = *g;
                                let gv = &mut self.prog.globals[g.0 as usize];
                                // A static member declared in the class: defined there only
                                // with an initializer (`static constexpr int N = 4;`).
                                if idecl.init.is_none() {
                                    gv.is_extern = true;
                                }
                            }
                        }
                        continue;
                    }
                    if d.declarators.is_empty() {
                        if let (ast::TypeSpec::Record(r), Ty::Record(_)) = (&d.spec.ty, &base.ty) {
                            if r.name.is_none() {
                                fields.push(FieldDef { name: None, ty: base.clone(), offset: 0, span: d.span, bits: None });
                            }
                        }
                        continue;
                    }
                    for idecl in &d.declarators {
                        let ty = self.apply_declarator(base.clone(), &idecl.declarator.derived);
                        if matches!(ty.ty, Ty::Func(_)) {
                            continue;
                        }
                        let name = idecl.declarator.name.as_ref().map(|p| p.last().name.clone());
                        if !self.prog.types.is_complete(&ty.ty) && !ty.ty.is_error() && !matches!(ty.ty, Ty::Ref(_)) {
                            self.err(idecl.declarator.span, format!("field has incomplete type '{}'", self.show(&ty)));
                            continue;
                        }
                        if matches!(ty.ty, Ty::Ref(_)) {
                            self.err(idecl.declarator.span, "reference members are not supported in device code yet");
                            continue;
                        }
                        let bits = match &idecl.bit_width {
                            Some(w) => match self.bit_width(&ty, w, name.as_deref(), idecl.declarator.span) {
                                Some(w) => Some(BitField { width: w, bit_pos: 0 }),
                                None => continue,
                            },
                            None => None,
                        };
                        if let Some(n) = &name {
                            let info = self.prog.classes.get_mut(&id).unwrap();
                            info.field_access.insert(n.clone(), access);
                            if access != Access::Public {
                                info.non_public = true;
                            }
                        }
                        if let Some(init) = &idecl.init {
                            nsdmi.push((fields.len(), init.clone()));
                        }
                        fields.push(FieldDef { name, ty, offset: 0, span: idecl.declarator.span, bits });
                    }
                }
                ast::Member::Function(f) => {
                    let fid = self.declare_method(id, &f.spec, &f.declarator, Some(f), access, f.span);
                    if f.spec.is_virtual {
                        declared_virtual.extend(fid);
                    }
                }
                ast::Member::FunctionDecl(d) => {
                    for idecl in &d.declarators {
                        let fid = self.declare_method(id, &d.spec, &idecl.declarator, None, access, d.span);
                        if d.spec.is_virtual {
                            declared_virtual.extend(fid);
                        }
                        // `virtual void f() = 0;`
                        if matches!(&idecl.init, Some(ast::Initializer::Expr(ast::Expr { kind: ast::ExprKind::IntLit { value: 0, .. }, .. }))) {
                            pure.extend(fid);
                        }
                    }
                }
                ast::Member::StaticAssert { cond, message } => self.static_assert(cond, message.as_deref(), rs.span),
                ast::Member::Template { params, member, span } => self.member_template(id, params, member, access, *span),
            }
        }
        if named {
            self.ns = self.ns_stack_saved.pop().unwrap();
        }
        self.setup_vtable(id, &mut fields, &mut nsdmi, &declared_virtual, &pure, rs.span);
        let info = self.prog.classes.get_mut(&id).unwrap();
        info.member_inits = nsdmi.into_iter().map(|(i, init)| (i as u32, init)).collect();
        fields
    }

    /// The Itanium ABI's layout of a class whose base is not POD for the purpose of
    /// layout: the members after the base start at the base's data size (`dsize`), in
    /// its tail padding (`struct D : B { int x; }` with `B = {vptr; int}` puts `x` at 12).
    /// `None` when the ordinary layout is the same.
    pub(crate) fn layout_reusing_tail_padding(&mut self, id: RecId, fields: &mut [FieldDef], min_align: u64) -> Option<(u64, u64)> {
        let b = self.class_info(id)?.base?;
        let first = fields.first()?;
        if first.name.is_some() || first.ty.ty != Ty::Record(b) {
            return None;
        }
        let bi = self.class_info(b)?;
        let (bsize, balign) = self.prog.types.layout(&Ty::Record(b))?;
        if !bi.non_pod || bi.dsize >= bsize || fields.len() < 2 {
            return None;
        }
        let pad = FieldDef { name: None, ty: QTy::new(Ty::Array(Box::new(QTy::new(Ty::Int(IntKind::UChar))), Some(bi.dsize))), offset: 0, span: first.span, bits: None };
        let mut tmp: Vec<FieldDef> = std::iter::once(pad).chain(fields[1..].iter().cloned()).collect();
        let (size, align) = self.prog.types.layout_fields(&mut tmp, false, min_align)?;
        for (f, t) in fields[1..].iter_mut().zip(&tmp[1..]) {
            f.offset = t.offset;
            f.bits = t.bits;
        }
        fields[0].offset = 0;
        let align = align.max(balign);
        Some((size.max(bsize).div_ceil(align) * align, align))
    }

    /// After layout: POD-ness and data size (for the tail-padding rule of derived classes).
    pub(crate) fn finish_class(&mut self, id: RecId, rs_span: Span) {
        let d = self.prog.types.rec(id).clone();
        let fields = d.fields.clone().unwrap_or_default();
        let mut dsize = 0;
        for f in &fields {
            let s = if f.bits.is_some() {
                f.bits.unwrap().bytes().1
            } else {
                let sz = self.prog.types.layout(&f.ty.ty).map(|l| l.0).unwrap_or(0);
                let sz = match &f.ty.ty {
                    Ty::Record(r) if f.name.is_none() => self.class_info(*r).map(|i| if i.non_pod { i.dsize } else { sz }).unwrap_or(sz),
                    _ => sz,
                };
                f.offset + sz
            };
            dsize = dsize.max(s);
        }
        let member_non_pod = fields.iter().any(|f| match &f.ty.ty {
            Ty::Record(r) => self.class_info(*r).is_some_and(|i| i.non_pod),
            _ => false,
        });
        let info = self.prog.classes.get_mut(&id).unwrap();
        info.dsize = dsize;
        info.non_pod = info.user_ctor || info.dtor.is_some() || info.non_public || info.base.is_some() || member_non_pod;
        // A derived class puts its members in a non-POD base's tail padding, as the
        // Itanium ABI does (`layout_reusing_tail_padding`).
        let _ = rs_span;
    }

    /// The type named by a conversion function's name (`operator float`, `operator const T &`).
    fn conversion_type(&mut self, name: &str, sp: Span) -> Option<QTy> {
        let words: Vec<&str> = name.trim_start_matches("operator").split_whitespace().collect();
        let mut c = false;
        let mut v = false;
        let mut ptrs: Vec<&str> = Vec::new();
        let mut base_words: Vec<&str> = Vec::new();
        for w in &words {
            match *w {
                "const" if base_words.is_empty() || ptrs.is_empty() => c = true,
                "volatile" => v = true,
                "*" | "&" | "&&" => ptrs.push(w),
                other => base_words.push(other),
            }
        }
        let bt = {
            use ast::BuiltinType as B;
            let has = |s: &str| base_words.contains(&s);
            let longs = base_words.iter().filter(|w| **w == "long").count();
            let uns = has("unsigned");
            let b = if has("void") {
                Some(B::Void)
            } else if has("bool") {
                Some(B::Bool)
            } else if has("float") {
                Some(B::Float)
            } else if has("double") {
                Some(B::Double)
            } else if has("char") {
                Some(if uns { B::UChar } else if has("signed") { B::SChar } else { B::Char })
            } else if has("short") {
                Some(if uns { B::UShort } else { B::Short })
            } else if longs >= 2 {
                Some(if uns { B::ULongLong } else { B::LongLong })
            } else if longs == 1 {
                Some(if uns { B::ULong } else { B::Long })
            } else if has("int") || uns || has("signed") {
                Some(if uns { B::UInt } else { B::Int })
            } else {
                None
            };
            b
        };
        let spec_ty = match bt {
            Some(b) => ast::TypeSpec::Builtin(b),
            None if base_words.len() == 1 || (base_words.len() >= 1 && base_words.iter().all(|w| *w != "::")) => {
                let segs: Vec<ast::Ident> = base_words.join("").split("::").filter(|s| !s.is_empty()).map(|s| ast::Ident { name: s.to_string(), span: sp }).collect();
                if segs.is_empty() {
                    return None;
                }
                ast::TypeSpec::Named(ast::Path::new(false, segs, sp))
            }
            None => return None,
        };
        let spec = ast::DeclSpec { ty: spec_ty, cv: ast::Cv { is_const: c, is_volatile: v }, span: sp, ..Default::default() };
        let mut t = self.spec_type(&spec);
        for p in ptrs {
            t = match p {
                "*" => QTy::new(Ty::ptr(t)),
                "&" => QTy::new(Ty::Ref(Box::new(t))),
                _ => QTy { ty: Ty::Ref(Box::new(t)), c: false, v: true },
            };
        }
        Some(t)
    }

    /// Declare a member function of class `rec` (in the class body).
    pub(crate) fn declare_method(
        &mut self,
        rec: RecId,
        spec: &ast::DeclSpec,
        decl: &ast::Declarator,
        def: Option<&ast::FunctionDef>,
        access: Access,
        span: Span,
    ) -> Option<FnId> {
        let path = decl.name.as_ref()?;
        let name = path.last().name.clone();
        let cname = self.ctor_name(rec);
        let kind = if name == cname {
            MethodKind::Ctor
        } else if name.starts_with('~') {
            MethodKind::Dtor
        } else if name.starts_with("operator ") && !name.starts_with("operator new") && !name.starts_with("operator delete") {
            MethodKind::Conversion
        } else {
            MethodKind::Normal
        };
        let errs = self.diags.len();
        let space = Self::exec_space(&spec.cuda);
        // Host-only members are checked silently, like system headers: host code is the
        // host compiler's; device code that calls one gets nvcc's "calling a __host__
        // function" error instead.
        let sys = self.in_system_header || space == ExecSpace::Host;
        if sys {
            self.silent += 1;
        }
        let ret = match kind {
            MethodKind::Ctor | MethodKind::Dtor => QTy::new(Ty::Void),
            MethodKind::Conversion => self.conversion_type(&name, path.span).unwrap_or_else(QTy::error),
            MethodKind::Normal => self.return_base_type(spec),
        };
        let fty = self.apply_declarator(ret, &decl.derived);
        if sys {
            self.silent -= 1;
            self.diags.truncate(errs);
        }
        let Ty::Func(sig) = fty.ty else { return None };
        // `= default`: the implicit special member (the class's layout decides triviality).
        let defaulted = decl.attrs.iter().any(|a| a.name == ast::DEFAULTED_ATTR);
        if defaulted && (kind == MethodKind::Ctor || name == "operator=") {
            if kind == MethodKind::Ctor {
                let info = self.prog.classes.get_mut(&rec).unwrap();
                info.user_ctor = true;
                if sig.params.is_empty() {
                    info.defaulted_default_ctor = true;
                }
            }
            return None;
        }
        let is_const = match decl.derived.first() {
            Some(ast::Derived::Function(fd)) => fd.cv.is_const,
            _ => false,
        };
        let defaults: Vec<Option<ast::Expr>> = match decl.derived.first() {
            Some(ast::Derived::Function(fd)) => fd.params.iter().map(|p| p.default.clone()).collect(),
            _ => vec![],
        };
        let is_static = spec.storage == Some(ast::Storage::Static);
        let method = MethodInfo { class: rec, kind, is_static, is_const, access, explicit: spec.is_explicit, implicit: false };
        let inline = Self::inline_hint(&spec.cuda);
        // A redeclaration in the class (unusual) reuses the first.
        let id = FnId(self.prog.functions.len() as u32);
        self.prog.functions.push(Function {
            name: name.clone(),
            scope: self.class_ns(rec),
            extern_c: false,
            space,
            sig: *sig,
            inline,
            launch_bounds: (None, None),
            span,
            in_system_header: sys,
            body: None,
            def: def.cloned(),
            builtin_name: None,
            cxx: FnCxx { method: Some(method), defaults, is_constexpr: spec.is_constexpr },
        });
        let info = self.prog.classes.get_mut(&rec).unwrap();
        match kind {
            MethodKind::Ctor => {
                info.ctors.push(id);
                info.user_ctor = true;
            }
            MethodKind::Dtor => info.dtor = Some(id),
            _ => {
                info.methods.entry(name.clone()).or_default().push(id);
                let q = qualify(&self.class_ns(rec), &name);
                match self.names.get_mut(&q) {
                    Some(Sym::Funcs(ids)) => ids.push(id),
                    _ => {
                        self.names.insert(q, Sym::Funcs(vec![id]));
                    }
                }
            }
        }
        Some(id)
    }

    /// `float V::len() const { ... }`: attach the definition to the member declared in
    /// the class.
    pub(crate) fn define_member_out_of_class(&mut self, spec: &ast::DeclSpec, decl: &ast::Declarator, def: Option<&ast::FunctionDef>, span: Span) {
        let path = decl.name.as_ref().unwrap();
        let prefix = super::template::qualifier(path);
        let Some(Tag::Record(r)) = self.lookup_tag(&prefix) else {
            // `ns::f` defined outside its namespace, or an unknown class.
            if self.in_system_header {
                return;
            }
            if let Some(Sym::Funcs(ids)) = self.lookup(path) {
                // A namespace member defined with a qualified name.
                let saved = std::mem::replace(&mut self.ns, self.prog.functions[ids[0].0 as usize].scope.clone());
                let mut d2 = decl.clone();
                d2.name = Some(ast::Path::new(false, vec![path.last().clone()], path.span));
                self.declare_function(spec, &d2, def, span);
                self.ns = saved;
                return;
            }
            self.err(path.span, format!("use of undeclared identifier '{}'", expr::path_str(&prefix)));
            return;
        };
        let name = path.last().name.clone();
        let cns = self.class_ns(r);
        let saved = std::mem::replace(&mut self.ns, cns);
        let cname = self.ctor_name(r);
        let ret = if name == cname || name.starts_with('~') {
            QTy::new(Ty::Void)
        } else if name.starts_with("operator ") {
            self.conversion_type(&name, path.span).unwrap_or_else(QTy::error)
        } else {
            self.return_base_type(spec)
        };
        let fty = self.apply_declarator(ret, &decl.derived);
        self.ns = saved;
        let Ty::Func(sig) = fty.ty else { return };
        let is_const = matches!(decl.derived.first(), Some(ast::Derived::Function(fd)) if fd.cv.is_const);
        let Some(info) = self.class_info(r).cloned() else { return };
        let cands: Vec<FnId> = if name == cname {
            info.ctors.clone()
        } else if name.starts_with('~') {
            info.dtor.into_iter().collect()
        } else {
            info.methods.get(&name).cloned().unwrap_or_default()
        };
        for id in cands {
            let f = &self.prog.functions[id.0 as usize];
            let m = f.cxx.method.as_ref().unwrap();
            let same = f.sig.params.len() == sig.params.len() && f.sig.params.iter().zip(&sig.params).all(|(a, b)| a == b) && m.is_const == is_const;
            if same {
                let space = Self::exec_space(&spec.cuda);
                let f = &mut self.prog.functions[id.0 as usize];
                if def.is_some() {
                    f.def = def.cloned();
                    f.span = span;
                }
                if space != ExecSpace::Host && f.space == ExecSpace::Host {
                    f.space = space;
                }
                // Default arguments may be given on the definition instead.
                if let Some(ast::Derived::Function(fd)) = decl.derived.first() {
                    for (i, p) in fd.params.iter().enumerate() {
                        if let (Some(d), Some(slot)) = (&p.default, f.cxx.defaults.get_mut(i)) {
                            *slot = Some(d.clone());
                        }
                    }
                }
                return;
            }
        }
        if self.in_system_header {
            return;
        }
        let shown = self.show(&QTy::new(Ty::Record(r)));
        self.err(path.span, format!("out-of-line definition of '{name}' does not match any declaration in '{shown}'"));
    }

    // ------------------------------------------------------------ lookup

    /// A data member by name in class `r` or its bases (own members hide inherited
    /// ones): the field path from `r`, its type, the class declaring it and its access.
    pub(crate) fn lookup_field(&self, r: RecId, name: &str) -> Option<(Vec<u32>, QTy, RecId, Access)> {
        let mut prefix: Vec<u32> = Vec::new();
        for c in self.class_chain(r) {
            let d = self.prog.types.rec(c);
            let fields = d.fields.as_ref()?;
            let info = self.class_info(c);
            let base_field = info.and_then(|i| i.base).is_some() && fields.first().is_some_and(|f| f.name.is_none() && matches!(f.ty.ty, Ty::Record(b) if Some(b) == info.unwrap().base));
            for (i, f) in fields.iter().enumerate() {
                if base_field && i == 0 {
                    continue;
                }
                let hit = match &f.name {
                    Some(n) => n == name,
                    None => match &f.ty.ty {
                        Ty::Record(inner) => find_field(&self.prog.types, *inner, name).is_some(),
                        _ => false,
                    },
                };
                if hit {
                    let mut path = prefix.clone();
                    path.push(i as u32);
                    let mut ty = f.ty.clone();
                    if f.name.is_none() {
                        let Ty::Record(inner) = &f.ty.ty else { unreachable!() };
                        let (p, t) = find_field(&self.prog.types, *inner, name)?;
                        path.extend(p);
                        ty = t;
                    }
                    let acc = info.and_then(|i| i.field_access.get(name).copied()).unwrap_or_default();
                    return Some((path, ty, c, acc));
                }
            }
            if base_field {
                prefix.push(0);
            } else if info.and_then(|i| i.base).is_some() {
                // An empty base: it has no fields to find.
                return None;
            }
        }
        None
    }

    /// Member functions named `name` visible in class `r` (the most derived class that
    /// declares the name hides the others).
    pub(crate) fn lookup_methods(&self, r: RecId, name: &str) -> Vec<FnId> {
        for c in self.class_chain(r) {
            if let Some(ids) = self.class_info(c).and_then(|i| i.methods.get(name)) {
                if !ids.is_empty() {
                    return ids.clone();
                }
            }
        }
        Vec::new()
    }

    /// Whether the current function may use a member of `owner` with `access`.
    pub(crate) fn check_access(&mut self, owner: RecId, access: Access, name: &str, decl_span: Span, sp: Span) -> bool {
        if access == Access::Public {
            return true;
        }
        let cur = self.fcx.as_ref().and_then(|f| f.class);
        let ok = match cur {
            Some(c) if c == owner => true,
            Some(c) if access == Access::Protected => self.is_base_of(owner, c),
            _ => false,
        };
        if !ok {
            let cls = self.show(&QTy::new(Ty::Record(owner)));
            let d = Diagnostic::error(sp, format!("'{name}' is a {} member of '{cls}'", access.name()))
                .with_note(Some(decl_span), format!("declared {} here", access.name()));
            self.diag(d);
        }
        ok
    }

    /// `*this` (an lvalue), inside a non-static member function.
    pub(crate) fn this_object(&mut self, sp: Span) -> Option<Expr> {
        let f = self.fcx.as_ref()?;
        let l = f.this?;
        let t = f.locals[l.0 as usize].ty.clone();
        let p = Expr::new(ExprKind::Load(bx(Expr::new(ExprKind::Local(l), t.clone(), true, sp))), t.clone(), false, sp);
        let pointee = t.ty.pointee()?.clone();
        Some(Expr::new(ExprKind::Deref(bx(p)), pointee, true, sp))
    }

    /// The object `obj` (of class type) viewed as its base class `to`.
    pub(crate) fn to_base(&mut self, obj: Expr, to: RecId) -> Expr {
        let Ty::Record(r) = obj.ty.ty else { return obj };
        if r == to {
            return obj;
        }
        let sp = obj.span;
        let obj = self.materialize(obj);
        let bt = QTy { ty: Ty::Record(to), c: obj.ty.c, v: obj.ty.v };
        let a = Expr::new(ExprKind::AddrOf(bx(obj.clone())), QTy::new(Ty::ptr(obj.ty.clone())), false, sp);
        let c = Expr::new(ExprKind::Cast(bx(a)), QTy::new(Ty::ptr(bt.clone())), false, sp);
        Expr::new(ExprKind::Deref(bx(c)), bt, true, sp)
    }

    // ------------------------------------------------------------ lifetimes

    /// Whether destroying an object of this type runs code.
    pub(crate) fn needs_dtor(&self, t: &Ty) -> bool {
        match t {
            Ty::Record(r) => {
                let Some(i) = self.class_info(*r) else { return false };
                if i.dtor.is_some() {
                    return true;
                }
                let d = self.prog.types.rec(*r);
                if d.is_union {
                    return false;
                }
                if i.base.is_some_and(|b| self.needs_dtor(&Ty::Record(b))) {
                    return true;
                }
                d.fields.iter().flatten().any(|f| self.needs_dtor(&f.ty.ty))
            }
            Ty::Array(e, _) => self.needs_dtor(&e.ty),
            _ => false,
        }
    }

    /// Whether default-initializing an object of this type runs code (a constructor,
    /// default member initializers).
    pub(crate) fn needs_ctor(&self, t: &Ty) -> bool {
        match t {
            Ty::Record(r) => {
                let Some(i) = self.class_info(*r) else { return false };
                if i.user_ctor || !i.member_inits.is_empty() || i.dynamic {
                    return true;
                }
                if i.base.is_some_and(|b| self.needs_ctor(&Ty::Record(b))) {
                    return true;
                }
                let d = self.prog.types.rec(*r);
                d.fields.iter().flatten().any(|f| self.needs_ctor(&f.ty.ty))
            }
            Ty::Array(e, _) => self.needs_ctor(&e.ty),
            _ => false,
        }
    }

    /// The calls that destroy the object `obj` designates: its destructor, or (for an
    /// implicit destructor) its members in reverse order and then its base.
    pub(crate) fn destroy(&mut self, obj: Expr, out: &mut Vec<Stmt>) {
        let sp = obj.span;
        match obj.ty.ty.clone() {
            Ty::Record(r) => {
                if !self.needs_dtor(&obj.ty.ty) {
                    return;
                }
                if let Some(d) = self.class_info(r).and_then(|i| i.dtor) {
                    let this = Expr::new(ExprKind::AddrOf(bx(obj.clone())), QTy::new(Ty::ptr(obj.ty.unqual())), false, sp);
                    if let Some(f) = &mut self.fcx {
                        f.calls.push(d);
                    }
                    out.push(Stmt { kind: StmtKind::Expr(Expr::new(ExprKind::Call(d, vec![this]), QTy::new(Ty::Void), false, sp)), span: sp });
                    return;
                }
                self.destroy_members(r, obj, out);
            }
            Ty::Array(e, Some(n)) => {
                for i in (0..n).rev() {
                    let ptr_t = QTy::new(Ty::ptr((*e).clone()));
                    let d = Expr::new(ExprKind::Decay(bx(obj.clone())), ptr_t.clone(), false, sp);
                    let idx = expr::mk_int(i as i128, expr::int_ty(IntKind::Long), sp);
                    let p = Expr::new(ExprKind::PtrAdd(bx(d), bx(idx)), ptr_t, false, sp);
                    let el = Expr::new(ExprKind::Deref(bx(p)), (*e).clone(), true, sp);
                    self.destroy(el, out);
                }
            }
            _ => {}
        }
    }

    /// Members of `obj` (class `r`) in reverse order, then its base: what a destructor
    /// does after its body.
    pub(crate) fn destroy_members(&mut self, r: RecId, obj: Expr, out: &mut Vec<Stmt>) {
        let sp = obj.span;
        let fields = self.prog.types.rec(r).fields.clone().unwrap_or_default();
        let base = self.class_info(r).and_then(|i| i.base);
        for (i, f) in fields.iter().enumerate().rev() {
            if i == 0 && base.is_some() && f.name.is_none() {
                continue;
            }
            if self.needs_dtor(&f.ty.ty) {
                let m = Expr::new(ExprKind::Member(bx(obj.clone()), r, vec![i as u32]), f.ty.clone(), true, sp);
                self.destroy(m, out);
            }
        }
        if let Some(b) = base {
            if self.needs_dtor(&Ty::Record(b)) {
                let bo = self.to_base(obj, b);
                self.destroy(bo, out);
            }
        }
    }

    /// A prvalue as an object (member access, reference binding): a temporary, which is
    /// destroyed at the end of the full-expression when its class has a destructor.
    pub(crate) fn materialize(&mut self, e: Expr) -> Expr {
        if e.lvalue || e.is_error() {
            return e;
        }
        let sp = e.span;
        let t = e.ty.clone();
        if self.fcx.is_some() && self.needs_dtor(&t.ty) {
            let init = match e.kind {
                ExprKind::InitTemp(i) => *i,
                _ => Init::Expr(e),
            };
            let l = self.new_local(format!("__tmp{}", self.fcx.as_ref().unwrap().locals.len()), t.unqual(), None);
            let f = self.fcx.as_mut().unwrap();
            f.temps.push(l);
            return Expr::new(ExprKind::LocalInit(l, Box::new(init)), t.unqual(), true, sp);
        }
        if let ExprKind::InitTemp(_) = e.kind {
            return Expr { lvalue: true, ..e };
        }
        Expr::new(ExprKind::Temp(bx(e)), t, true, sp)
    }

    // ------------------------------------------------------------ construction

    /// The constructor call (or aggregate/implicit initialization) that initializes an
    /// object of class `r` from `args` (direct-initialization `T x(args)`, `T(args)`, and
    /// list-initialization of a class with constructors `T x{args}`).
    pub(crate) fn construct_init(&mut self, t: &QTy, args: Vec<Expr>, sp: Span) -> Option<Init> {
        let Ty::Record(r) = t.ty else { return None };
        if args.iter().any(|a| a.is_error()) {
            return None;
        }
        let info = self.class_info(r).cloned().unwrap_or_default();
        let shown = self.show(&t.unqual());
        if args.is_empty() && info.defaulted_default_ctor {
            return Some(self.default_init(t, sp).unwrap_or(Init::Zero(t.unqual())));
        }
        if !info.user_ctor {
            // Implicit constructors: default, copy.
            if args.is_empty() {
                return Some(self.default_init(t, sp).unwrap_or(Init::Zero(t.unqual())));
            }
            if args.len() == 1 {
                let a = args.into_iter().next().unwrap();
                let v = self.convert(a, &t.unqual(), "initialization");
                return (!v.is_error()).then(|| self.init_from_value(v));
            }
            let tys: Vec<String> = args.iter().map(|a| format!("'{}'", self.show(&a.ty))).collect();
            self.err(sp, format!("no matching constructor for initialization of '{shown}' with arguments ({})", tys.join(", ")));
            return None;
        }
        // Copy from the same class when it has no user copy constructor: implicit copy.
        if args.len() == 1
            && matches!(args[0].ty.ty, Ty::Record(a) if a == r || self.is_base_of(r, a))
            && self.copy_ctor(r).is_none()
            && !info.ctors.iter().any(|c| self.prog.functions[c.0 as usize].sig.params.first().is_some_and(|p| matches!(&p.ty, Ty::Ref(q) if q.ty == Ty::Record(r))))
        {
            let a = args.into_iter().next().unwrap();
            let v = self.convert(a, &t.unqual(), "initialization");
            return (!v.is_error()).then(|| self.init_from_value(v));
        }
        let cands = info.ctors.clone();
        let fid = self.resolve_overload(&cands, None, &args, &format!("constructor of '{shown}'"), sp, true)?;
        let mut conv = self.call_args(fid, args, sp)?;
        let _ = &mut conv;
        if let Some(f) = &mut self.fcx {
            f.calls.push(fid);
        }
        self.check_callable(fid, sp)?;
        Some(Init::Construct { ty: t.unqual(), ctor: fid, args: conv })
    }

    /// An initializer from a value of the object's class type: copy elision for
    /// prvalues made by a constructor, the copy constructor for lvalues of a class that
    /// declares one.
    pub(crate) fn init_from_value(&mut self, v: Expr) -> Init {
        if !v.lvalue {
            if let ExprKind::InitTemp(i) = v.kind {
                return *i;
            }
        }
        Init::Expr(v)
    }

    /// Default-initialization of an object of type `t` (`T x;`): its default
    /// constructor, or for a class with an implicit one, its members' default
    /// initialization. `None` leaves the object uninitialized (trivial).
    pub(crate) fn default_init(&mut self, t: &QTy, sp: Span) -> Option<Init> {
        match &t.ty {
            Ty::Record(r) => {
                let r = *r;
                if !self.needs_ctor(&t.ty) {
                    return None;
                }
                let info = self.class_info(r).cloned().unwrap_or_default();
                if info.user_ctor && !info.defaulted_default_ctor {
                    return self.construct_init(t, vec![], sp);
                }
                // Implicit default constructor: base, then members in order (and the
                // vptr, which the lowering stores).
                if info.dynamic {
                    self.vtable_used(r);
                }
                let fields = self.prog.types.rec(r).fields.clone().unwrap_or_default();
                let mut items = Vec::new();
                for (i, f) in fields.iter().enumerate() {
                    if let Some((_, init)) = info.member_inits.iter().find(|(k, _)| *k == i as u32) {
                        let it = self.check_initializer(init, &f.ty, f.span).unwrap_or(Init::Zero(f.ty.unqual()));
                        items.push(it);
                        continue;
                    }
                    items.push(self.default_init(&f.ty, sp).unwrap_or(Init::Zero(f.ty.unqual())));
                }
                if self.prog.types.rec(r).is_union {
                    return None;
                }
                Some(Init::List { ty: t.unqual(), items, union_member: None })
            }
            Ty::Array(e, Some(n)) => {
                if !self.needs_ctor(&e.ty) {
                    return None;
                }
                if *n > 4096 {
                    self.err(sp, "arrays of more than 4096 objects with constructors are not supported in device code yet");
                    return None;
                }
                let one = self.default_init(e, sp)?;
                Some(Init::List { ty: t.unqual(), items: vec![one; *n as usize], union_member: None })
            }
            _ => None,
        }
    }

    /// Whether a call from the current function to `fid` is allowed (execution spaces).
    pub(crate) fn check_callable(&mut self, fid: FnId, sp: Span) -> Option<()> {
        let f = &self.prog.functions[fid.0 as usize];
        if let Some(cx) = &self.fcx {
            if cx.space != ExecSpace::Host && f.space == ExecSpace::Host {
                let what = match f.cxx.method.as_ref().map(|m| m.kind) {
                    Some(MethodKind::Ctor) => "constructor",
                    Some(MethodKind::Dtor) => "destructor",
                    _ => "function",
                };
                let name = crate::check::qualified_fn_name(f);
                let fs = f.span;
                let d = Diagnostic::error(sp, format!("calling a __host__ {what}(\"{name}\") from a {} is not allowed", self.caller_desc()))
                    .with_note(Some(fs), format!("'{name}' is declared here without __device__"));
                self.diag(d);
                return None;
            }
        }
        Some(())
    }
}
