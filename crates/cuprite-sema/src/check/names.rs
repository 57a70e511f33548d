//! C++ names beyond plain qualified lookup: using-directives (`using namespace a;`),
//! using-declarations (`using a::f;`), namespace aliases (`namespace fs = a::b;`), at
//! namespace and block scope, and anonymous namespaces.
//!
//! - A using-directive adds its namespace to `Checker::usings`, searched after the
//!   enclosing namespaces (file-scope ones stay for the rest of the translation unit,
//!   block-scope ones until the end of the function: see `names_mark`).
//! - A using-declaration copies the meaning of the name (its symbol and tag) into the
//!   current scope; a class or enum named that way also works as a qualifier
//!   (`using ns::Kind; Kind::A`), through an alias entry.
//! - A namespace alias maps its qualified name to the namespace's; `candidates` expands
//!   a path that starts with an alias.
//! - An anonymous namespace is the namespace `_GLOBAL__N_1` (the name g++ mangles:
//!   `_ZN12_GLOBAL__N_11kEv`) with a using-directive for it.

use super::*;

/// The name g++ gives the anonymous namespace of a translation unit in mangled names.
pub(crate) const ANON_NS: &str = "_GLOBAL__N_1";

/// State of the C++ name machinery (and of the other C++ extensions in `lambda.rs`).
#[derive(Default)]
pub(crate) struct CxxState {
    /// Namespace aliases and names used as qualifiers through using-declarations:
    /// qualified alias name → the qualified name it stands for.
    pub aliases: HashMap<String, Vec<String>>,
    pub lambdas: super::lambda::LambdaState,
}

/// What `names_mark` saves.
pub(crate) struct NamesMark {
    usings: usize,
    aliases: HashMap<String, Vec<String>>,
}

impl<'o> Checker<'o> {
    /// Saved before a function body: block-scope using-directives and aliases end with it.
    pub(crate) fn names_mark(&self) -> NamesMark {
        NamesMark { usings: self.usings.len(), aliases: self.cxx.aliases.clone() }
    }

    pub(crate) fn names_restore(&mut self, m: NamesMark) {
        self.usings.truncate(m.usings);
        self.cxx.aliases = m.aliases;
    }

    /// More candidate qualified names for `path`: those where a leading part of the path
    /// is an alias (`gs::Kind` with `namespace gs = geo::shapes;`).
    pub(crate) fn alias_candidates(&self, path: &ast::Path) -> Vec<String> {
        let mut out = Vec::new();
        if self.cxx.aliases.is_empty() || path.segments.len() < 2 {
            return out;
        }
        let segs: Vec<&str> = path.segments.iter().map(|s| s.name.as_str()).collect();
        for k in (1..segs.len()).rev() {
            let head = segs[..k].join("::");
            let rest = segs[k..].join("::");
            let scopes: Vec<Vec<String>> = if path.global {
                vec![Vec::new()]
            } else {
                let mut v: Vec<Vec<String>> = (0..=self.ns.len()).rev().map(|i| self.ns[..i].to_vec()).collect();
                v.extend(self.usings.iter().cloned());
                v
            };
            for sc in scopes {
                if let Some(target) = self.cxx.aliases.get(&qualify(&sc, &head)) {
                    out.push(qualify(target, &rest));
                }
            }
        }
        out
    }

    /// Whether anything is declared in namespace (or class) `q`.
    fn namespace_exists(&self, q: &str) -> bool {
        let prefix = format!("{q}::");
        self.names.keys().chain(self.tags.keys()).chain(self.skipped.keys()).any(|k| k.starts_with(&prefix))
            || self.usings.iter().any(|u| u.join("::") == q)
            || self.cxx.aliases.contains_key(q)
    }

    /// The namespace a path written in a using-directive or alias names, as segments.
    fn resolve_namespace(&self, p: &ast::Path) -> Vec<String> {
        let rel: Vec<String> = p.segments.iter().map(|s| s.name.clone()).collect();
        if p.global {
            return rel;
        }
        // Through an alias: `using namespace fs;`.
        let joined = rel.join("::");
        for i in (0..=self.ns.len()).rev() {
            let q = qualify(&self.ns[..i], &joined);
            if let Some(t) = self.cxx.aliases.get(&q) {
                return t.clone();
            }
            if self.namespace_exists(&q) {
                return q.split("::").map(|s| s.to_string()).collect();
            }
        }
        for c in self.alias_candidates(p) {
            if self.namespace_exists(&c) {
                return c.split("::").map(|s| s.to_string()).collect();
            }
        }
        rel
    }

    /// A using-directive, using-declaration or namespace alias (`block`: inside a function).
    pub(crate) fn using(&mut self, u: &ast::Using, sp: Span) {
        match u {
            ast::Using::Directive(p) => {
                let ns = self.resolve_namespace(p);
                if !self.usings.contains(&ns) {
                    self.usings.push(ns);
                }
            }
            ast::Using::NamespaceAlias { name, target } => {
                let t = self.resolve_namespace(target);
                let q = self.alias_key(&name.name);
                self.cxx.aliases.insert(q, t);
            }
            ast::Using::Decl(p) => {
                let name = p.last().name.clone();
                let sym = self.lookup(p);
                let tag = self.lookup_tag(p);
                if sym.is_none() && tag.is_none() {
                    if let Some((reason, err, _)) = self.lookup_skipped(p) {
                        // Host-only or unsupported: a use of the name says why.
                        if self.fcx.is_none() {
                            let q = qualify(&self.ns, &name);
                            self.skipped.insert(q, (reason, err, sp));
                        }
                        return;
                    }
                    if self.fcx.is_some() {
                        self.err(p.span, format!("no member named '{}' in namespace '{}'", name, p.segments[..p.segments.len() - 1].iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join("::")));
                    }
                    return;
                }
                if let Some(s) = sym {
                    match (&s, self.fcx.is_some()) {
                        // Functions: merge with overloads already visible here.
                        (Sym::Funcs(ids), false) => {
                            let q = qualify(&self.ns, &name);
                            match self.names.get_mut(&q) {
                                Some(Sym::Funcs(have)) => {
                                    for id in ids {
                                        if !have.contains(id) {
                                            have.push(*id);
                                        }
                                    }
                                }
                                _ => {
                                    self.names.insert(q, s.clone());
                                }
                            }
                        }
                        _ => self.bind_name(&name, s.clone()),
                    }
                }
                if let Some(t) = tag {
                    self.bind_tag(&name, t);
                    // `Kind::A` after `using ns::Kind;`.
                    let full = match t {
                        Tag::Record(r) => self.class_ns(r),
                        Tag::Enum(e) => {
                            let d = self.prog.types.enm(e);
                            let mut v = d.scope.clone();
                            v.push(d.name.clone().unwrap_or_default());
                            v
                        }
                    };
                    let q = self.alias_key(&name);
                    self.cxx.aliases.insert(q, full);
                }
            }
        }
    }

    /// The key an alias declared here is found by (`alias_candidates`).
    fn alias_key(&self, name: &str) -> String {
        // Block-scope aliases are keyed in the function's namespace.
        qualify(&self.ns, name)
    }

    /// `namespace { ... }`: enter the translation unit's anonymous namespace.
    pub(crate) fn enter_anonymous_namespace(&mut self) {
        self.ns.push(ANON_NS.to_string());
        let ns = self.ns.clone();
        if !self.usings.contains(&ns) {
            self.usings.push(ns);
        }
    }
}

impl<'o> Checker<'o> {
    /// The alignment each field asks for with `alignas`/`__align__`/`aligned` on its
    /// declaration (1 when none), by position in `fields` (matched by name).
    pub(crate) fn field_alignments(&mut self, members: &[ast::Member], fields: &[FieldDef]) -> Vec<u64> {
        let mut by_name: HashMap<String, u64> = HashMap::new();
        for m in members {
            let ast::Member::Field(d) = m else { continue };
            if d.spec.storage.is_some() {
                continue;
            }
            let spec_al = attr_align(self, &d.spec.attrs).unwrap_or(1);
            for id in &d.declarators {
                let Some(n) = &id.declarator.name else { continue };
                let al = spec_al.max(attr_align(self, &id.declarator.attrs).unwrap_or(1));
                if al > 1 {
                    by_name.insert(n.last().name.clone(), al);
                }
            }
        }
        fields.iter().map(|f| f.name.as_ref().and_then(|n| by_name.get(n).copied()).unwrap_or(1)).collect()
    }
}
