//! A small typed C syntax tree and its pretty-printer.
//!
//! The emitter builds these nodes; `print_*` renders them as readable C (GNU C11) with
//! the fewest parentheses that keep the meaning.

use std::fmt::Write;

/// A C type. Declarators are built from the inside out when printed.
#[derive(Clone, Debug, PartialEq)]
pub enum CType {
    /// A type name: `int32_t`, `float`, `struct s1_float4`, `cuprite_dim3`, `void`.
    Named(String),
    Ptr(Box<CType>),
    /// `T [n]` (n = 0 is GNU's zero-length array).
    Array(Box<CType>, u64),
    /// A function type: return, parameters.
    Func(Box<CType>, Vec<CType>),
    /// `const T` / `volatile T` (qualifier applied to the named or pointer type).
    Qual(&'static str, Box<CType>),
}

impl CType {
    pub fn named(s: &str) -> CType {
        CType::Named(s.to_string())
    }
    pub fn ptr(self) -> CType {
        CType::Ptr(Box::new(self))
    }
    pub fn konst(self) -> CType {
        CType::Qual("const", Box::new(self))
    }
    pub fn volatile(self) -> CType {
        CType::Qual("volatile", Box::new(self))
    }
    /// Renders `T name` with correct declarator syntax (`name` may be empty for an
    /// abstract declarator, as in casts and `sizeof`).
    pub fn declare(&self, name: &str) -> String {
        fn go(t: &CType, inner: String) -> String {
            match t {
                CType::Named(n) => {
                    if inner.is_empty() {
                        n.clone()
                    } else {
                        format!("{n} {inner}")
                    }
                }
                CType::Qual(q, t) => match &**t {
                    CType::Named(n) => {
                        if inner.is_empty() {
                            format!("{q} {n}")
                        } else {
                            format!("{q} {n} {inner}")
                        }
                    }
                    // A qualified pointer: `T *const p`.
                    CType::Ptr(_) => {
                        let i = if inner.is_empty() { q.to_string() } else { format!("{q} {inner}") };
                        go_ptr(t, i)
                    }
                    other => go(other, inner),
                },
                CType::Ptr(_) => go_ptr(t, inner),
                CType::Array(e, n) => go(e, format!("{inner}[{n}]")),
                CType::Func(r, ps) => {
                    let ps: Vec<String> = ps.iter().map(|p| p.declare("")).collect();
                    let ps = if ps.is_empty() { "void".to_string() } else { ps.join(", ") };
                    go(r, format!("{inner}({ps})"))
                }
            }
        }
        fn go_ptr(t: &CType, inner: String) -> String {
            let CType::Ptr(p) = t else { unreachable!() };
            let needs_parens = matches!(&**p, CType::Array(..) | CType::Func(..));
            if needs_parens {
                go(p, format!("(*{inner})"))
            } else {
                go(p, format!("*{inner}"))
            }
        }
        go(self, name.to_string())
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Ident(String),
    /// A literal exactly as written in C (`42`, `7u`, `1.5f`, `INT64_C(-3)`).
    Lit(String),
    Str(Vec<u8>),
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    Assign(Box<Expr>, Box<Expr>),
    /// Compound assignment: `a += b` (operator without `=`).
    AssignOp(&'static str, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Cast(CType, Box<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Member(Box<Expr>, String),
    Arrow(Box<Expr>, String),
    SizeofType(CType),
    AlignofType(CType),
    /// `(T){a, b, c}`
    CompoundLit(CType, Vec<Expr>),
    PostInc(Box<Expr>),
}

pub fn id(s: impl Into<String>) -> Expr {
    Expr::Ident(s.into())
}
pub fn lit(s: impl Into<String>) -> Expr {
    Expr::Lit(s.into())
}
pub fn call(f: &str, args: Vec<Expr>) -> Expr {
    Expr::Call(Box::new(id(f)), args)
}

impl Expr {
    pub fn bin(self, op: &'static str, rhs: Expr) -> Expr {
        Expr::Binary(op, Box::new(self), Box::new(rhs))
    }
    pub fn un(op: &'static str, e: Expr) -> Expr {
        Expr::Unary(op, Box::new(e))
    }
    pub fn deref(self) -> Expr {
        Expr::Unary("*", Box::new(self))
    }
    pub fn addr(self) -> Expr {
        Expr::Unary("&", Box::new(self))
    }
    pub fn cast(self, t: CType) -> Expr {
        Expr::Cast(t, Box::new(self))
    }
    pub fn index(self, i: Expr) -> Expr {
        Expr::Index(Box::new(self), Box::new(i))
    }
    pub fn member(self, f: &str) -> Expr {
        Expr::Member(Box::new(self), f.to_string())
    }
    pub fn arrow(self, f: &str) -> Expr {
        Expr::Arrow(Box::new(self), f.to_string())
    }
    pub fn assign(self, v: Expr) -> Expr {
        Expr::Assign(Box::new(self), Box::new(v))
    }
    pub fn assign_op(self, op: &'static str, v: Expr) -> Expr {
        Expr::AssignOp(op, Box::new(self), Box::new(v))
    }
    pub fn cond(c: Expr, a: Expr, b: Expr) -> Expr {
        Expr::Cond(Box::new(c), Box::new(a), Box::new(b))
    }
    pub fn stmt(self) -> Stmt {
        Stmt::Expr(self)
    }

    /// Precedence: higher binds tighter (C's table, 15 = primary).
    fn prec(&self) -> u8 {
        match self {
            Expr::Ident(_) | Expr::Lit(_) | Expr::Str(_) | Expr::SizeofType(_) | Expr::AlignofType(_) => 16,
            Expr::Call(..) | Expr::Index(..) | Expr::Member(..) | Expr::Arrow(..) | Expr::PostInc(_) => 15,
            Expr::CompoundLit(..) => 15,
            Expr::Unary(..) | Expr::Cast(..) => 14,
            Expr::Binary(op, ..) => binary_prec(op),
            Expr::Cond(..) => 3,
            Expr::Assign(..) | Expr::AssignOp(..) => 2,
        }
    }
}

fn binary_prec(op: &str) -> u8 {
    match op {
        "*" | "/" | "%" => 13,
        "+" | "-" => 12,
        "<<" | ">>" => 11,
        "<" | "<=" | ">" | ">=" => 10,
        "==" | "!=" => 9,
        "&" => 8,
        "^" => 7,
        "|" => 6,
        "&&" => 5,
        "||" => 4,
        "," => 1,
        _ => panic!("unknown binary operator {op}"),
    }
}

pub fn c_string_literal(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    let mut prev_hex = false;
    for &b in bytes {
        let hex_digit = (b as char).is_ascii_hexdigit();
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'\r' => s.push_str("\\r"),
            b'?' => s.push_str("\\?"), // no trigraphs
            0x20..=0x7e => {
                if prev_hex && hex_digit {
                    // A hex escape would swallow this digit: split the literal.
                    s.push_str("\" \"");
                }
                s.push(b as char);
            }
            _ => {
                write!(s, "\\x{b:02x}").unwrap();
                prev_hex = true;
                continue;
            }
        }
        prev_hex = false;
    }
    s.push('"');
    s
}

pub fn print_expr(e: &Expr) -> String {
    let mut s = String::new();
    pe(e, &mut s);
    s
}

fn sub(e: &Expr, min_prec: u8, out: &mut String) {
    if e.prec() < min_prec {
        out.push('(');
        pe(e, out);
        out.push(')');
    } else {
        pe(e, out);
    }
}

fn pe(e: &Expr, out: &mut String) {
    match e {
        Expr::Ident(s) | Expr::Lit(s) => out.push_str(s),
        Expr::Str(b) => out.push_str(&c_string_literal(b)),
        Expr::Unary(op, x) => {
            out.push_str(op);
            // Avoid `- -x` becoming `--x` and `& &x`.
            let x_str = {
                let mut t = String::new();
                sub(x, 14, &mut t);
                t
            };
            if (op.ends_with('-') && x_str.starts_with('-')) || (op.ends_with('+') && x_str.starts_with('+'))
                || (op.ends_with('&') && x_str.starts_with('&'))
            {
                out.push(' ');
            }
            out.push_str(&x_str);
        }
        Expr::Binary(op, a, b) => {
            let p = binary_prec(op);
            sub(a, p, out);
            write!(out, " {op} ").unwrap();
            sub(b, p + 1, out);
        }
        Expr::Assign(a, b) => {
            sub(a, 14, out);
            out.push_str(" = ");
            sub(b, 2, out);
        }
        Expr::AssignOp(op, a, b) => {
            sub(a, 14, out);
            write!(out, " {op}= ").unwrap();
            sub(b, 2, out);
        }
        Expr::Cond(c, a, b) => {
            sub(c, 4, out);
            out.push_str(" ? ");
            sub(a, 3, out);
            out.push_str(" : ");
            sub(b, 3, out);
        }
        Expr::Call(f, args) => {
            sub(f, 15, out);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                sub(a, 2, out);
            }
            out.push(')');
        }
        Expr::Cast(t, x) => {
            write!(out, "({})", t.declare("")).unwrap();
            sub(x, 14, out);
        }
        Expr::Index(a, i) => {
            sub(a, 15, out);
            out.push('[');
            pe(i, out);
            out.push(']');
        }
        Expr::Member(a, f) => {
            sub(a, 15, out);
            write!(out, ".{f}").unwrap();
        }
        Expr::Arrow(a, f) => {
            sub(a, 15, out);
            write!(out, "->{f}").unwrap();
        }
        Expr::SizeofType(t) => write!(out, "sizeof({})", t.declare("")).unwrap(),
        Expr::AlignofType(t) => write!(out, "_Alignof({})", t.declare("")).unwrap(),
        Expr::CompoundLit(t, xs) => {
            write!(out, "({}){{", t.declare("")).unwrap();
            for (i, a) in xs.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                sub(a, 2, out);
            }
            out.push('}');
        }
        Expr::PostInc(x) => {
            sub(x, 15, out);
            out.push_str("++");
        }
    }
}

/// An initializer of a variable with static storage or a local.
#[derive(Clone, Debug, PartialEq)]
pub enum Initializer {
    Expr(Expr),
    /// `{ a, b }` or `{ .f = a, .g = b }` (designator `Some`).
    List(Vec<(Option<String>, Initializer)>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    Expr(Expr),
    Decl { ty: CType, name: String, init: Option<Initializer> },
    Label(String),
    Goto(String),
    If { cond: Expr, then: Vec<Stmt>, else_: Vec<Stmt> },
    For { init: Option<Box<Stmt>>, cond: Option<Expr>, step: Option<Expr>, body: Vec<Stmt> },
    Switch { value: Expr, cases: Vec<(Expr, Vec<Stmt>)>, default: Vec<Stmt> },
    Block(Vec<Stmt>),
    Return(Option<Expr>),
    Continue,
    Comment(String),
    /// `#pragma ...` on a line of its own (`omp simd` before a thread loop).
    Pragma(String),
    /// `#line N "file"` (only with -G).
    Line(u32, String),
    Blank,
}

impl Stmt {
    pub fn decl(ty: CType, name: impl Into<String>, init: Option<Expr>) -> Stmt {
        Stmt::Decl { ty, name: name.into(), init: init.map(Initializer::Expr) }
    }
}

/// Top-level items of the generated file.
#[derive(Clone, Debug)]
pub enum Item {
    /// Text kept verbatim (the ABI header, the prelude).
    Verbatim(String),
    Comment(String),
    Blank,
    /// `struct name { fields } __attribute__((aligned(a)));`
    Struct { keyword: &'static str, name: String, fields: Vec<(CType, String)>, align: Option<u64> },
    StructForward { keyword: &'static str, name: String },
    StaticAssert(Expr, String),
    /// A variable with static storage.
    Var { storage: &'static str, ty: CType, name: String, attrs: Vec<String>, asm_name: Option<String>, init: Option<Initializer> },
    Func { storage: &'static str, attrs: Vec<String>, ret: CType, name: String, params: Vec<(CType, String)>, body: Option<Vec<Stmt>> },
}

pub struct Printer {
    out: String,
    indent: usize,
}

impl Default for Printer {
    fn default() -> Self {
        Self::new()
    }
}

impl Printer {
    pub fn new() -> Self {
        Printer { out: String::new(), indent: 0 }
    }
    pub fn finish(self) -> String {
        self.out
    }
    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }

    pub fn item(&mut self, it: &Item) {
        match it {
            Item::Verbatim(s) => {
                self.out.push_str(s);
                if !s.ends_with('\n') {
                    self.out.push('\n');
                }
            }
            Item::Comment(c) => {
                for l in c.lines() {
                    self.line(&format!("/* {} */", l.replace("*/", "* /")));
                }
            }
            Item::Blank => self.out.push('\n'),
            Item::StructForward { keyword, name } => self.line(&format!("{keyword} {name};")),
            Item::Struct { keyword, name, fields, align } => {
                self.line(&format!("{keyword} {name} {{"));
                self.indent += 1;
                for (t, n) in fields {
                    self.line(&format!("{};", t.declare(n)));
                }
                self.indent -= 1;
                match align {
                    Some(a) => self.line(&format!("}} __attribute__((aligned({a})));")),
                    None => self.line("};"),
                }
            }
            Item::StaticAssert(e, msg) => {
                self.line(&format!("_Static_assert({}, {});", print_expr(e), c_string_literal(msg.as_bytes())))
            }
            Item::Var { storage, ty, name, attrs, asm_name, init } => {
                let mut s = String::new();
                if !storage.is_empty() {
                    write!(s, "{storage} ").unwrap();
                }
                s.push_str(&ty.declare(name));
                if let Some(a) = asm_name {
                    write!(s, " __asm__({a})").unwrap();
                }
                for a in attrs {
                    write!(s, " {a}").unwrap();
                }
                if let Some(i) = init {
                    s.push_str(" = ");
                    s.push_str(&print_init(i));
                }
                s.push(';');
                self.line(&s);
            }
            Item::Func { storage, attrs, ret, name, params, body } => {
                let ps: Vec<String> = params.iter().map(|(t, n)| t.declare(n)).collect();
                let ps = if ps.is_empty() { "void".to_string() } else { ps.join(", ") };
                let mut head = String::new();
                if !storage.is_empty() {
                    write!(head, "{storage} ").unwrap();
                }
                for a in attrs {
                    write!(head, "{a} ").unwrap();
                }
                head.push_str(&ret.declare(&format!("{name}({ps})")));
                match body {
                    None => self.line(&format!("{head};")),
                    Some(b) => {
                        self.line(&format!("{head} {{"));
                        self.indent += 1;
                        for s in b {
                            self.stmt(s);
                        }
                        self.indent -= 1;
                        self.line("}");
                    }
                }
            }
        }
    }

    pub fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Expr(e) => self.line(&format!("{};", print_expr(e))),
            Stmt::Decl { ty, name, init } => match init {
                None => self.line(&format!("{};", ty.declare(name))),
                Some(i) => self.line(&format!("{} = {};", ty.declare(name), print_init(i))),
            },
            Stmt::Label(l) => {
                // Labels are printed one level out, and followed by an empty statement
                // so that a declaration may come next.
                let saved = self.indent;
                self.indent = self.indent.saturating_sub(1);
                self.line(&format!("{l}:;"));
                self.indent = saved;
            }
            Stmt::Goto(l) => self.line(&format!("goto {l};")),
            Stmt::If { cond, then, else_ } => {
                // `if (c) goto a; else goto b;` stays on one line each.
                self.line(&format!("if ({}) {{", print_expr(cond)));
                self.body(then);
                if else_.is_empty() {
                    self.line("}");
                } else if else_.len() == 1 && matches!(else_[0], Stmt::If { .. }) {
                    // else-if chain
                    let mut sub = Printer { out: String::new(), indent: self.indent };
                    sub.stmt(&else_[0]);
                    let text = sub.out.trim_start().to_string();
                    for _ in 0..self.indent {
                        self.out.push_str("    ");
                    }
                    self.out.push_str("} else ");
                    self.out.push_str(&text);
                } else {
                    self.line("} else {");
                    self.body(else_);
                    self.line("}");
                }
            }
            Stmt::For { init, cond, step, body } => {
                let i = match init.as_deref() {
                    None => String::new(),
                    Some(Stmt::Decl { ty, name, init: Some(i) }) => format!("{} = {}", ty.declare(name), print_init(i)),
                    Some(Stmt::Expr(e)) => print_expr(e),
                    Some(other) => panic!("bad for-init {other:?}"),
                };
                let c = cond.as_ref().map(print_expr).unwrap_or_default();
                let st = step.as_ref().map(print_expr).unwrap_or_default();
                self.line(&format!("for ({i}; {c}; {st}) {{"));
                self.body(body);
                self.line("}");
            }
            Stmt::Switch { value, cases, default } => {
                self.line(&format!("switch ({}) {{", print_expr(value)));
                for (v, b) in cases {
                    self.line(&format!("case {}:", print_expr(v)));
                    self.body(b);
                }
                self.line("default:");
                self.body(default);
                self.line("}");
            }
            Stmt::Block(b) => {
                self.line("{");
                self.body(b);
                self.line("}");
            }
            Stmt::Return(None) => self.line("return;"),
            Stmt::Return(Some(e)) => self.line(&format!("return {};", print_expr(e))),
            Stmt::Continue => self.line("continue;"),
            Stmt::Comment(c) => {
                for l in c.lines() {
                    self.line(&format!("/* {} */", l.replace("*/", "* /")));
                }
            }
            Stmt::Pragma(p) => {
                self.out.push_str(&format!("#pragma {p}\n"));
            }
            Stmt::Line(n, f) => {
                self.out.push_str(&format!("#line {n} {}\n", c_string_literal(f.as_bytes())));
            }
            Stmt::Blank => self.out.push('\n'),
        }
    }

    fn body(&mut self, b: &[Stmt]) {
        self.indent += 1;
        for s in b {
            self.stmt(s);
        }
        self.indent -= 1;
    }
}

pub fn print_init(i: &Initializer) -> String {
    match i {
        Initializer::Expr(e) => print_expr(e),
        Initializer::List(xs) => {
            if xs.is_empty() {
                return "{0}".to_string();
            }
            let parts: Vec<String> = xs
                .iter()
                .map(|(d, x)| match d {
                    Some(d) => format!(".{d} = {}", print_init(x)),
                    None => print_init(x),
                })
                .collect();
            format!("{{ {} }}", parts.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarators() {
        let f = CType::named("float");
        assert_eq!(f.clone().ptr().declare("p"), "float *p");
        assert_eq!(CType::Array(Box::new(f.clone()), 4).ptr().declare("p"), "float (*p)[4]");
        assert_eq!(CType::Array(Box::new(f.clone()), 4).declare("a"), "float a[4]");
        assert_eq!(f.clone().ptr().konst().declare("p"), "float *const p");
        let fp = CType::Func(Box::new(f.clone()), vec![CType::named("int")]).ptr();
        assert_eq!(fp.declare("g"), "float (*g)(int)");
        assert_eq!(fp.declare(""), "float (*)(int)");
        assert_eq!(f.clone().konst().ptr().declare(""), "const float *");
    }

    #[test]
    fn precedence() {
        let e = id("a").bin("+", id("b")).bin("*", id("c"));
        assert_eq!(print_expr(&e), "(a + b) * c");
        let e = id("a").bin("-", id("b").bin("-", id("c")));
        assert_eq!(print_expr(&e), "a - (b - c)");
        let e = Expr::un("-", Expr::un("-", id("x")));
        assert_eq!(print_expr(&e), "- -x");
        assert_eq!(c_string_literal(b"a\x01b\n"), "\"a\\x01\" \"b\\n\"");
    }
}
