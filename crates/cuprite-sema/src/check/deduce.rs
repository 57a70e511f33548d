//! Template argument deduction ([temp.deduct]): from a call's arguments to a function
//! template's parameters, and from the arguments of a class template specialization to
//! a partial specialization's patterns.
//!
//! A pattern is the syntax of a parameter's type (`const T *`, `T (&)[N]`, `Vec<T, N>`,
//! `Ts...`); it is matched against the argument's type from the outside in, binding the
//! template parameters it names. Non-deduced contexts (`typename V::value_type`) bind
//! nothing; the overload check that follows checks the argument against the substituted
//! parameter type.

use super::template::{TArg, TemplId};
use super::*;

fn single_name(spec: &ast::DeclSpec) -> Option<&str> {
    match &spec.ty {
        ast::TypeSpec::Named(p) if p.segments.len() == 1 && !p.global && !p.has_template_args() => Some(&p.last().name),
        _ => None,
    }
}

pub(crate) fn param_named<'p>(params: &'p [ast::TemplateParam], name: &str) -> Option<&'p ast::TemplateParam> {
    params.iter().find(|p| p.name.as_ref().is_some_and(|n| n.name == name))
}

fn bind_or_check(b: &mut HashMap<String, TArg>, name: &str, a: TArg) -> bool {
    match b.get(name) {
        Some(old) => *old == a,
        None => {
            b.insert(name.to_string(), a);
            true
        }
    }
}

/// The name of the pack an expansion pattern expands (`Ts` in `Ts...`, `const Ts&...`).
pub(crate) fn pack_param_name(spec: &ast::DeclSpec, params: &[ast::TemplateParam]) -> Option<String> {
    let n = single_name(spec)?;
    param_named(params, n).filter(|p| p.pack).map(|_| n.to_string())
}

impl<'o> Checker<'o> {
    /// Match template argument patterns (a partial specialization's `<T*, N>`, or the
    /// arguments of `Vec<T, N>` in a parameter type) against evaluated arguments.
    pub(crate) fn match_targs(&mut self, pats: &[ast::TemplateArg], args: &[TArg], params: &[ast::TemplateParam], b: &mut HashMap<String, TArg>) -> bool {
        let mut k = 0;
        for p in pats {
            match p {
                ast::TemplateArg::Pack(inner) => {
                    let name = match &**inner {
                        ast::TemplateArg::Type(tn) if tn.declarator.derived.is_empty() => single_name(&tn.spec).map(str::to_string),
                        ast::TemplateArg::Expr(ast::Expr { kind: ast::ExprKind::Name(p), .. }) if p.segments.len() == 1 => Some(p.last().name.clone()),
                        _ => None,
                    };
                    let Some(name) = name else { return false };
                    let rest = args.get(k..).unwrap_or(&[]).to_vec();
                    k = args.len();
                    if !bind_or_check(b, &name, TArg::Pack(rest)) {
                        return false;
                    }
                }
                ast::TemplateArg::Type(tn) => {
                    let Some(a) = args.get(k) else { return false };
                    k += 1;
                    let TArg::Type(a) = a else {
                        return false;
                    };
                    if !self.match_type(&tn.spec, &tn.declarator.derived, a, params, b, true) {
                        return false;
                    }
                }
                ast::TemplateArg::Expr(e) => {
                    let Some(a) = args.get(k) else { return false };
                    k += 1;
                    if let ast::ExprKind::Name(p) = &e.kind {
                        if p.segments.len() == 1 {
                            if let Some(tp) = param_named(params, &p.last().name) {
                                let ok = match (&tp.kind, a) {
                                    (ast::TemplateParamKind::NonType { .. }, TArg::Value(..)) => true,
                                    (ast::TemplateParamKind::Type { .. }, TArg::Type(_)) => true,
                                    _ => false,
                                };
                                if !ok || !bind_or_check(b, &p.last().name, a.clone()) {
                                    return false;
                                }
                                continue;
                            }
                        }
                    }
                    if let (TArg::Type(at), ast::ExprKind::Name(p)) = (a, &e.kind) {
                        // A name the parser could not tell from a value (`frag<A, M>`
                        // with `struct A`): it must name the argument's type.
                        let spec = ast::DeclSpec { ty: ast::TypeSpec::Named(p.clone()), ..Default::default() };
                        if !self.same_as_written(&spec, at) {
                            return false;
                        }
                        continue;
                    }
                    let TArg::Value(v, _) = a else { return false };
                    self.silent += 1;
                    let c = self.const_int(e);
                    self.silent -= 1;
                    if c != Some(*v) {
                        return false;
                    }
                }
            }
        }
        k == args.len()
    }

    /// Match the type pattern `spec` + `derived` against `a`. `exact`: the types must be
    /// the same (partial specializations, arguments of class templates); otherwise the
    /// pattern's qualifiers may add to the argument's (a call's `const T *` from a
    /// `float *`).
    pub(crate) fn match_type(&mut self, spec: &ast::DeclSpec, derived: &[ast::Derived], a: &QTy, params: &[ast::TemplateParam], b: &mut HashMap<String, TArg>, exact: bool) -> bool {
        if let Some((first, rest)) = derived.split_first() {
            return match first {
                ast::Derived::Pointer { cv, .. } => {
                    let Ty::Ptr(p) = &a.ty else { return false };
                    if exact && (cv.is_const != a.c || cv.is_volatile != a.v) {
                        return false;
                    }
                    self.match_type(spec, rest, p, params, b, exact)
                }
                ast::Derived::Reference { rvalue } => {
                    let Ty::Ref(p) = &a.ty else { return false };
                    if *rvalue != a.v {
                        return false;
                    }
                    self.match_type(spec, rest, p, params, b, exact)
                }
                ast::Derived::Array(n) => {
                    let Ty::Array(e, len) = &a.ty else { return false };
                    if let Some(n) = n {
                        if let ast::ExprKind::Name(p) = &n.kind {
                            if p.segments.len() == 1 && param_named(params, &p.last().name).is_some() {
                                let Some(len) = len else { return false };
                                if !bind_or_check(b, &p.last().name, TArg::Value(*len as i128, QTy::new(Ty::Int(IntKind::ULong)))) {
                                    return false;
                                }
                            }
                        }
                    }
                    self.match_type(spec, rest, e, params, b, exact)
                }
                ast::Derived::Function(_) => matches!(a.ty, Ty::Func(_)),
                ast::Derived::MemberPointer { .. } => {
                    let Ty::MemberPtr { pointee, .. } = &a.ty else { return false };
                    self.match_type(spec, rest, pointee, params, b, exact)
                }
            };
        }
        let mut a = a.clone();
        if spec.cv.is_const {
            if exact && !a.c {
                return false;
            }
            a.c = false;
        }
        if spec.cv.is_volatile {
            if exact && !a.v {
                return false;
            }
            a.v = false;
        }
        match &spec.ty {
            ast::TypeSpec::Named(p) if p.segments.len() == 1 && !p.has_template_args() => {
                if let Some(tp) = param_named(params, &p.last().name) {
                    if !matches!(tp.kind, ast::TemplateParamKind::Type { .. }) {
                        return false;
                    }
                    return bind_or_check(b, &p.last().name, TArg::Type(a));
                }
                !exact || self.same_as_written(spec, &a)
            }
            ast::TypeSpec::Named(p) if p.segment_args(p.segments.len() - 1).is_some() => {
                // `Vec<T, N>`: the argument must be a specialization of that template.
                let mut base = p.clone();
                let pats = base.args.pop().flatten().unwrap_or_default();
                if base.args.iter().all(Option::is_none) {
                    base.args.clear();
                } else {
                    base.args.push(None);
                }
                let Some(ids) = self.find_templates(&base) else { return !exact };
                let Ty::Record(r) = a.ty else { return false };
                let Some((rt, rargs)) = self.tpl.rec_inst.get(&r).cloned() else { return false };
                if !ids.contains(&rt) {
                    // A base class that is a specialization of the template.
                    if let Some(base_r) = self.class_info(r).and_then(|i| i.base) {
                        return self.match_type(spec, derived, &QTy::new(Ty::Record(base_r)), params, b, exact);
                    }
                    return false;
                }
                // `frag<A, M, T>` names `frag<A, M, T, void>` when the template's last
                // parameter defaults to `void`: the arguments the pattern leaves out must
                // be the defaults the written ones give.
                // A variadic template's pack is one argument of its specialization; the
                // pattern spreads it (`List<T, Ts...>`).
                if rargs.iter().any(|a| matches!(a, TArg::Pack(_))) {
                    let spread = super::template::spread_packs(&rargs);
                    return self.match_targs(&pats, &spread, params, b);
                }
                let written = pats.iter().any(|p| matches!(p, ast::TemplateArg::Pack(_))).then_some(rargs.len()).unwrap_or(pats.len().min(rargs.len()));
                if written < rargs.len() && !self.trailing_defaults_match(rt, &rargs, written, p.last().span) {
                    return false;
                }
                self.match_targs(&pats, &rargs[..written], params, b)
            }
            ast::TypeSpec::Builtin(_) if exact => self.same_as_written(spec, &a),
            _ => true,
        }
    }

    /// Whether `args[written..]` are the defaults of class template `t` given `args[..written]`.
    fn trailing_defaults_match(&mut self, t: TemplId, args: &[TArg], written: usize, sp: Span) -> bool {
        let d = self.tpl.defs[t].clone();
        self.silent += 1;
        let full = self.bind_template_params(&d.params, &args[..written], &HashMap::new(), &d.outer, &d.scope, &d.name, sp, true);
        self.silent -= 1;
        match full {
            Some((_, full)) => full.len() == args.len() && self.targs_key(&full[written..]) == self.targs_key(&args[written..]),
            None => false,
        }
    }

    /// Whether a pattern without template parameters names `a` (cv already removed).
    fn same_as_written(&mut self, spec: &ast::DeclSpec, a: &QTy) -> bool {
        let mut s = spec.clone();
        s.cv = ast::Cv::default();
        s.is_constexpr = false;
        self.silent += 1;
        let t = self.spec_type(&s);
        self.silent -= 1;
        t.ty == a.ty
    }

    /// Deduce from one call argument for one function parameter ([temp.deduct.call]).
    fn deduce_param(&mut self, p: &ast::Param, a: &Expr, params: &[ast::TemplateParam], b: &mut HashMap<String, TArg>) -> bool {
        if a.is_error() {
            return false;
        }
        let derived = &p.declarator.derived;
        match derived.first() {
            Some(ast::Derived::Reference { rvalue: true })
                if derived.len() == 1 && !p.spec.cv.is_const && !p.spec.cv.is_volatile && single_name(&p.spec).is_some_and(|n| param_named(params, n).is_some()) =>
            {
                // A forwarding reference: an lvalue deduces `A&`, an xvalue `A`.
                let n = single_name(&p.spec).unwrap().to_string();
                let t = if a.lvalue && !a.xvalue {
                    QTy::new(Ty::Ref(Box::new(a.ty.clone())))
                } else if a.xvalue {
                    a.ty.clone()
                } else {
                    a.ty.unqual()
                };
                bind_or_check(b, &n, TArg::Type(t))
            }
            Some(ast::Derived::Reference { .. }) => self.match_type(&p.spec, &derived[1..], &a.ty, params, b, false),
            _ => {
                let t = match &a.ty.ty {
                    Ty::Array(e, _) if a.lvalue => QTy::new(Ty::ptr((**e).clone())),
                    Ty::Func(_) => QTy::new(Ty::ptr(a.ty.clone())),
                    _ => a.ty.unqual(),
                };
                self.match_type(&p.spec, derived, &t, params, b, false)
            }
        }
    }

    /// The function parameters of a function template's declaration.
    pub(crate) fn template_fn_params(&self, t: TemplId) -> Vec<ast::Param> {
        let d = &self.tpl.defs[t];
        let decl = match &d.item.kind {
            ast::ItemKind::FunctionDef(f) => &f.declarator,
            ast::ItemKind::Decl(dd) => match dd.declarators.first() {
                Some(i) => &i.declarator,
                None => return vec![],
            },
            _ => return vec![],
        };
        match decl.derived.first() {
            Some(ast::Derived::Function(fd)) => {
                let ps = fd.params.clone();
                if ps.len() == 1 && matches!(ps[0].spec.ty, ast::TypeSpec::Builtin(ast::BuiltinType::Void)) && ps[0].declarator.derived.is_empty() {
                    return vec![];
                }
                ps
            }
            _ => vec![],
        }
    }

    /// Deduce the template arguments of a call to function template `t` with the
    /// explicitly given `explicit` and the call's `args`; the complete argument list, or
    /// `None` (deduction failed; reported unless silent).
    pub(crate) fn deduce_call(&mut self, t: TemplId, explicit: &[TArg], args: &[Expr], sp: Span) -> Option<Vec<TArg>> {
        // Names in the parameters' patterns (`frag<U, M>` in `namespace wmma`) are the
        // template's, looked up from its scope, not the caller's.
        let scope = self.tpl.defs[t].scope.clone();
        let caller = std::mem::replace(&mut self.ns, scope);
        let r = self.deduce_call_in_scope(t, explicit, args, sp);
        self.ns = caller;
        r
    }

    fn deduce_call_in_scope(&mut self, t: TemplId, explicit: &[TArg], args: &[Expr], sp: Span) -> Option<Vec<TArg>> {
        let tparams = self.tpl.defs[t].params.clone();
        let fparams = self.template_fn_params(t);
        let mut b: HashMap<String, TArg> = HashMap::new();
        // The parameters the explicit arguments give.
        let mut explicit_names: Vec<String> = Vec::new();
        let mut k = 0;
        for p in &tparams {
            if k >= explicit.len() {
                break;
            }
            if let Some(n) = &p.name {
                explicit_names.push(n.name.clone());
            }
            k += if p.pack { explicit.len() } else { 1 };
        }
        // Too many arguments for a function without a pack or C varargs.
        let has_pack = fparams.iter().any(|p| p.declarator.pack);
        if !has_pack && args.len() > fparams.len() {
            return None;
        }
        for (i, p) in fparams.iter().enumerate() {
            if p.declarator.pack {
                let Some(name) = pack_param_name(&p.spec, &tparams) else { return None };
                // Each remaining argument deduces one element, the pack's pattern
                // matched as if its pack were a plain parameter.
                let mut plain = tparams.clone();
                for q in &mut plain {
                    if q.name.as_ref().is_some_and(|n| n.name == name) {
                        q.pack = false;
                    }
                }
                let mut elems = Vec::new();
                for a in args.get(i..).unwrap_or(&[]) {
                    let mut tb: HashMap<String, TArg> = HashMap::new();
                    if !self.deduce_param(p, a, &plain, &mut tb) {
                        return None;
                    }
                    elems.push(tb.remove(&name)?);
                    for (k, v) in tb {
                        if !bind_or_check(&mut b, &k, v) {
                            return None;
                        }
                    }
                }
                if !bind_or_check(&mut b, &name, TArg::Pack(elems)) {
                    return None;
                }
                break;
            }
            let Some(a) = args.get(i) else { break };
            // Parameters given explicitly are not deduced: a pattern made of them only
            // needs the argument to convert (checked by overload resolution).
            let mut tb: HashMap<String, TArg> = HashMap::new();
            let ok = self.deduce_param(p, a, &tparams, &mut tb);
            if !ok {
                if single_name(&p.spec).is_some_and(|n| explicit_names.iter().any(|e| e == n)) {
                    continue;
                }
                return None;
            }
            for (k, v) in tb {
                if explicit_names.contains(&k) {
                    continue;
                }
                if !bind_or_check(&mut b, &k, v) {
                    return None;
                }
            }
        }
        let d = self.tpl.defs[t].clone();
        let (_, full) = self.bind_template_params(&tparams, explicit, &b, &d.outer, &d.scope, &d.name, sp, self.silent > 0)?;
        Some(full)
    }
}

/// How specialized a function template's parameter list is: the structure its parameter
/// patterns add around the template parameters (`T *` over `T`, `Vec<T>` over `T`).
fn fn_pattern_score(params: &[ast::Param]) -> usize {
    fn spec_score(s: &ast::DeclSpec) -> usize {
        let mut n = (s.cv.is_const || s.cv.is_volatile) as usize;
        if let ast::TypeSpec::Named(p) = &s.ty {
            n += p.args.iter().flatten().map(|a| 2 + a.len()).sum::<usize>();
        }
        if !matches!(s.ty, ast::TypeSpec::Named(_)) {
            n += 4;
        }
        n
    }
    params
        .iter()
        .map(|p| p.declarator.derived.iter().filter(|d| !matches!(d, ast::Derived::Reference { .. })).count() * 2 + spec_score(&p.spec))
        .sum()
}

impl<'o> Checker<'o> {
    /// Between two candidates with equal conversion sequences: `Some(true)` if `a` is
    /// better (a non-template over a template specialization; the specialization of the
    /// more specialized template), `Some(false)` if `b` is, `None` if this rule does not
    /// decide.
    pub(crate) fn template_tiebreak(&self, a: FnId, b: FnId) -> Option<bool> {
        let ta = self.tpl.fn_ctx.get(&a).and_then(|c| c.templ.as_ref()).map(|t| t.0);
        let tb = self.tpl.fn_ctx.get(&b).and_then(|c| c.templ.as_ref()).map(|t| t.0);
        match (ta, tb) {
            (None, None) => None,
            (None, Some(_)) => Some(true),
            (Some(_), None) => Some(false),
            (Some(x), Some(y)) if x == y => None,
            (Some(x), Some(y)) => {
                let sx = fn_pattern_score(&self.template_fn_params(x));
                let sy = fn_pattern_score(&self.template_fn_params(y));
                (sx != sy).then_some(sx > sy)
            }
        }
    }
}
