//! Itanium C++ ABI name mangling, as g++ does it for the host side of a declaration:
//! kernel stubs (`_Z6vecAddPfS_S_i`) and device-variable shadows (`_ZN2ns1xE`).

use crate::ty::{IntKind, QTy, Ty, TypeTable};

struct Mangler<'a> {
    types: &'a TypeTable,
    /// Substitution candidates by their expanded mangling, in order of appearance.
    subs: Vec<String>,
    out: String,
}

fn source_name(s: &str) -> String {
    format!("{}{}", s.len(), s)
}

fn seq_id(i: usize) -> String {
    if i == 0 {
        return "S_".into();
    }
    let mut n = i - 1;
    let mut digits = Vec::new();
    loop {
        let d = (n % 36) as u8;
        digits.push(if d < 10 { b'0' + d } else { b'A' + d - 10 });
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.reverse();
    format!("S{}_", String::from_utf8(digits).unwrap())
}

fn builtin_code(t: &Ty) -> Option<&'static str> {
    Some(match t {
        Ty::Void => "v",
        Ty::Bool => "b",
        Ty::Float => "f",
        Ty::Double => "d",
        Ty::Nullptr => "Dn",
        Ty::Int(k) => match k {
            IntKind::Char => "c",
            IntKind::SChar => "a",
            IntKind::UChar => "h",
            IntKind::Short => "s",
            IntKind::UShort => "t",
            IntKind::Int => "i",
            IntKind::UInt => "j",
            IntKind::Long => "l",
            IntKind::ULong => "m",
            IntKind::LongLong => "x",
            IntKind::ULongLong => "y",
        },
        _ => return None,
    })
}

impl<'a> Mangler<'a> {
    fn sub_or(&mut self, key: String, produce: impl FnOnce(&mut Self) -> String) -> String {
        if let Some(i) = self.subs.iter().position(|s| *s == key) {
            return seq_id(i);
        }
        let s = produce(self);
        self.subs.push(key);
        s
    }

    /// Mangle a nested name prefix list + final name (`N2ns1SE` or `1S`), with the
    /// prefixes as substitution candidates; the whole name is a candidate when `whole`.
    fn nested(&mut self, scope: &[String], name: &str, whole: bool) -> String {
        if scope.is_empty() {
            let key = source_name(name);
            if whole {
                return self.sub_or(format!("T{key}"), |_| key.clone());
            }
            return key;
        }
        // Find the longest prefix already substituted.
        let mut prefix = String::new();
        let mut expanded = String::new();
        for (i, seg) in scope.iter().enumerate() {
            expanded.push_str(&source_name(seg));
            let key = format!("P{expanded}");
            if let Some(j) = self.subs.iter().position(|s| *s == key) {
                prefix = seq_id(j);
            } else {
                prefix.push_str(&source_name(seg));
                self.subs.push(key);
            }
            let _ = i;
        }
        let full_key = format!("T{expanded}{}", source_name(name));
        if whole {
            if let Some(j) = self.subs.iter().position(|s| *s == full_key) {
                return seq_id(j);
            }
        }
        let s = format!("N{prefix}{}E", source_name(name));
        if whole {
            self.subs.push(full_key);
        }
        s
    }

    fn expanded(&self, t: &QTy) -> String {
        let mut m = Mangler { types: self.types, subs: Vec::new(), out: String::new() };
        // Expanded form: mangle with a fresh substitution table that never matches.
        m.ty_inner(t, false)
    }

    fn ty(&mut self, t: &QTy) -> String {
        self.ty_inner(t, true)
    }

    fn ty_inner(&mut self, t: &QTy, use_subs: bool) -> String {
        // `T&&` (a reference's `v` mark): `O` where `T&` is `R`.
        if let (Ty::Ref(p), true) = (&t.ty, t.v) {
            let inner = self.ty_inner(p, use_subs);
            if !use_subs {
                return format!("O{inner}");
            }
            let key = format!("O{}", self.expanded(p));
            return self.sub_or(key, |_| format!("O{inner}"));
        }
        if t.c || t.v {
            let inner = self.ty_inner(&t.unqual(), use_subs);
            let q = format!("{}{}", if t.v { "V" } else { "" }, if t.c { "K" } else { "" });
            if !use_subs {
                return format!("{q}{inner}");
            }
            let key = format!("{q}{}", self.expanded(&t.unqual()));
            return self.sub_or(key, |_| format!("{q}{inner}"));
        }
        if let Some(c) = builtin_code(&t.ty) {
            return c.to_string();
        }
        let expanded = if use_subs { Some(self.expanded(t)) } else { None };
        if let Some(key) = &expanded {
            if let Some(i) = self.subs.iter().position(|s| s == key) {
                return seq_id(i);
            }
        }
        let s = match &t.ty {
            Ty::Ptr(p) => format!("P{}", self.ty_inner(p, use_subs)),
            Ty::Ref(p) => format!("R{}", self.ty_inner(p, use_subs)),
            Ty::Array(e, n) => {
                let n = n.map(|n| n.to_string()).unwrap_or_default();
                format!("A{n}_{}", self.ty_inner(e, use_subs))
            }
            Ty::Func(f) => {
                let mut s = String::from("F");
                s.push_str(&self.ty_inner(&f.ret, use_subs));
                if f.params.is_empty() {
                    s.push('v');
                }
                for p in &f.params {
                    s.push_str(&self.ty_inner(p, use_subs));
                }
                if f.variadic {
                    s.push('z');
                }
                s.push('E');
                s
            }
            Ty::Record(_) | Ty::Enum(_) => {
                let (name, scope) = match &t.ty {
                    Ty::Record(r) => {
                        let d = self.types.rec(*r);
                        (d.name.clone().unwrap_or_else(|| "$_0".into()), d.scope.clone())
                    }
                    Ty::Enum(e) => {
                        let d = self.types.enm(*e);
                        (d.name.clone().unwrap_or_else(|| "$_0".into()), d.scope.clone())
                    }
                    _ => unreachable!(),
                };
                if !use_subs {
                    let mut s = String::new();
                    for p in &scope {
                        s.push_str(&source_name(p));
                    }
                    s.push_str(&source_name(&name));
                    return if scope.is_empty() { s } else { format!("N{s}E") };
                }
                // Names register their own substitutions (prefixes, then the name).
                return self.nested(&scope, &name, true);
            }
            Ty::Error => "v".into(),
            _ => "v".into(),
        };
        if let Some(key) = expanded {
            self.subs.push(key);
        }
        s
    }
}

/// The symbol g++ gives a function with this name, scope and parameter types.
pub fn mangle_function(types: &TypeTable, scope: &[String], name: &str, params: &[QTy], variadic: bool, extern_c: bool) -> String {
    if extern_c {
        return name.to_string();
    }
    let mut m = Mangler { types, subs: Vec::new(), out: String::new() };
    let n = m.nested(scope, name, false);
    m.out.push_str("_Z");
    m.out.push_str(&n);
    if params.is_empty() && !variadic {
        m.out.push('v');
    }
    for p in params {
        // Top-level cv-qualifiers of parameters are not part of the signature (a
        // reference's `v` is not one: it marks `T&&`).
        let p = QTy { ty: p.ty.clone(), c: false, v: p.v && matches!(p.ty, Ty::Ref(_)) };
        let s = m.ty(&p);
        m.out.push_str(&s);
    }
    if variadic {
        m.out.push('z');
    }
    m.out
}

/// The symbol g++ gives a namespace-scope variable.
pub fn mangle_variable(scope: &[String], name: &str, extern_c: bool) -> String {
    if extern_c || scope.is_empty() {
        return name.to_string();
    }
    let mut s = String::from("_ZN");
    for p in scope {
        s.push_str(&source_name(p));
    }
    s.push_str(&source_name(name));
    s.push('E');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ty::{RecId, RecordDef};
    use cuprite_front::ast::Span;

    fn q(t: Ty) -> QTy {
        QTy::new(t)
    }
    fn p(t: QTy) -> QTy {
        q(Ty::ptr(t))
    }
    fn c(t: Ty) -> QTy {
        QTy { ty: t, c: true, v: false }
    }

    fn table() -> TypeTable {
        let mut t = TypeTable::default();
        for (name, scope) in [("S", vec![]), ("S", vec!["ns".to_string()]), ("float4", vec![])] {
            t.records.push(RecordDef {
                name: Some(name.into()),
                scope,
                is_union: false,
                is_class: false,
                fields: Some(vec![]),
                size: 1,
                align: 1,
                span: Span::default(),
            });
        }
        t
    }

    // Expected names checked with `g++ -c` and `nm` (GCC 13).
    #[test]
    fn kernels() {
        let t = table();
        let f = || q(Ty::Float);
        let i = || q(Ty::int());
        assert_eq!(mangle_function(&t, &[], "vecAdd", &[p(f()), p(f()), p(f()), i()], false, false), "_Z6vecAddPfS_S_i");
        assert_eq!(
            mangle_function(&t, &[], "vecAdd", &[p(c(Ty::Float)), p(c(Ty::Float)), p(f()), i()], false, false),
            "_Z6vecAddPKfS0_Pfi"
        );
        assert_eq!(mangle_function(&t, &["ns".into()], "k", &[], false, false), "_ZN2ns1kEv");
        assert_eq!(mangle_function(&t, &[], "k", &[], false, true), "k");
        assert_eq!(mangle_function(&t, &[], "k", &[q(Ty::Record(RecId(0))), p(q(Ty::Record(RecId(0))))], false, false), "_Z1k1SPS_");
        assert_eq!(
            mangle_function(&t, &["ns".into()], "k", &[p(q(Ty::Record(RecId(1)))), q(Ty::Record(RecId(1)))], false, false),
            "_ZN2ns1kEPNS_1SES0_"
        );
        assert_eq!(
            mangle_function(&t, &[], "k", &[p(q(Ty::Record(RecId(2)))), p(c(Ty::Record(RecId(2)))), q(Ty::Int(IntKind::ULongLong))], false, false),
            "_Z1kP6float4PKS_y"
        );
        assert_eq!(
            mangle_function(&t, &[], "k", &[q(Ty::Ref(Box::new(q(Ty::int())))), p(p(c(Ty::Int(IntKind::Char))))], false, false),
            "_Z1kRiPPKc"
        );
        // `int&&` (g++: `_Z1kOi`), and `S&&, S&&` with the substitution.
        let rref = |t: QTy| QTy { ty: Ty::Ref(Box::new(t)), c: false, v: true };
        assert_eq!(mangle_function(&t, &[], "k", &[rref(q(Ty::int()))], false, false), "_Z1kOi");
        assert_eq!(
            mangle_function(&t, &[], "k", &[rref(q(Ty::Record(RecId(0)))), rref(q(Ty::Record(RecId(0))))], false, false),
            "_Z1kO1SS0_"
        );
        assert_eq!(
            mangle_function(&t, &[], "k", &[p(q(Ty::Array(Box::new(q(Ty::Float)), Some(4)))), q(Ty::Int(IntKind::ULong))], false, false),
            "_Z1kPA4_fm"
        );
    }

    #[test]
    fn variables() {
        assert_eq!(mangle_variable(&[], "x", false), "x");
        assert_eq!(mangle_variable(&["ns".into()], "x", false), "_ZN2ns1xE");
        assert_eq!(mangle_variable(&["a".into(), "b".into()], "x", false), "_ZN1a1b1xE");
    }

    #[test]
    fn seq_ids() {
        assert_eq!(seq_id(0), "S_");
        assert_eq!(seq_id(1), "S0_");
        assert_eq!(seq_id(11), "SA_");
        assert_eq!(seq_id(37), "S10_");
    }
}
