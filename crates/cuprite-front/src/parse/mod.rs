//! Recursive-descent parser for the device view of a translation unit.
//!
//! - `items.rs`: top-level items and the parse-or-skip policy;
//! - `skip.rs`: balanced-token scanning (item extents, the names an item declares);
//! - `decl.rs`: declaration specifiers, declarators, initializers, records, enums;
//! - `stmt.rs`: statements; `expr.rs`: expressions.
//!
//! Errors are `Diagnostic`s returned through `PResult`; the first error abandons the
//! current statement (or item) and the caller recovers by skipping tokens.

mod alt_tokens;
mod decl;
mod expr;
mod items;
mod lambda;
mod newdelete;
mod skip;
mod stmt;
mod templates;

use std::collections::{HashMap, HashSet};

use crate::ast::{Ident, Path, Span};
use crate::diag::Diagnostic;
use crate::lex::{TokKind, Token};
use crate::source_map::SourceMap;

pub(crate) type PResult<T> = Result<T, Diagnostic>;

/// What a name means to the parser (the C "lexer hack").
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum NameKind {
    Type,
    /// A variable, function or enumerator: hides an outer type of the same name.
    Value,
    /// A function or variable template (`f<int>(x)`, `pi<float>`), or a template of
    /// unknown kind declared by a skipped template item.
    Template,
    /// A class or alias template (`Vec<float, 3>`); also a type by itself (the
    /// injected-class-name inside the template, template template arguments).
    TypeTemplate,
}

pub(crate) struct Parser<'a> {
    src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    sm: &'a SourceMap,
    pub(crate) diags: Vec<Diagnostic>,
    /// Innermost last. Scope 0 is the file scope.
    scopes: Vec<HashMap<&'a str, NameKind>>,
    /// Types declared in namespaces and classes, by qualified name (`ns::T`, `S::Inner`).
    qualified: HashMap<String, NameKind>,
    /// Namespace or class names enclosing the current position (for `qualified`).
    ns_path: Vec<&'a str>,
    /// `ns_path` with inline namespaces' names too.
    ns_path_written: Vec<&'a str>,
    /// Namespaces opened by `using namespace` at file scope.
    using_namespaces: HashSet<String>,
    /// Using-directives by the namespace they appear in (`namespace cuda { namespace std {
    /// using namespace ::std; } }`): `cuda::std::X` finds `std::X`.
    namespace_usings: HashMap<String, Vec<String>>,
    /// Name of the class whose body is being parsed (constructors are named after it).
    class_stack: Vec<&'a str>,
    /// Greater than zero while parsing code whose errors must not be reported (host
    /// items): statement errors then abandon the item instead of recovering.
    quiet: u32,
    /// Nesting depth of expression parsing, so deeply nested garbage cannot overflow the
    /// stack.
    depth: u32,
    /// Token indices where a `>>`-like token was split to close a template argument list
    /// (undone by `restore`).
    splits: Vec<usize>,
    /// In a template argument or parameter list, outside brackets: `>` and `>>` end the
    /// list instead of being operators.
    no_gt: bool,
    /// The scope where the entity declared by the template being parsed is declared (the
    /// scope around its parameters); taken by the first declaration of the item.
    template_entity: Option<usize>,
    /// Number of template parameter lists around the current position (packs are
    /// allowed inside).
    template_depth: u32,
    /// Names declared as member function templates (`obj.f<int>()` is a template-id).
    member_templates: HashSet<&'a str>,
}

/// How deeply declarations, statements and expressions may nest. The parser's stack
/// grows on the heap (`nested`), so this guards memory, not the thread's stack; it is
/// far beyond what g++ takes in practice (an `else if` chain nests once per arm).
const MAX_DEPTH: u32 = 20_000;

impl<'a> Parser<'a> {
    pub(crate) fn new(src: &'a str, mut toks: Vec<Token>, sm: &'a SourceMap) -> Parser<'a> {
        alt_tokens::mark(src, &mut toks);
        let mut file_scope = HashMap::new();
        // GCC's builtin type names that headers use.
        for t in [
            "__builtin_va_list",
            "__float128",
            "_Float128",
            "_Float16",
            "__bf16",
            "__ieee128",
            "_Float128x",
        ] {
            file_scope.insert(t, NameKind::Type);
        }
        Parser {
            src,
            toks,
            pos: 0,
            sm,
            diags: Vec::new(),
            scopes: vec![file_scope],
            qualified: HashMap::new(),
            ns_path: Vec::new(),
            ns_path_written: Vec::new(),
            using_namespaces: HashSet::new(),
            namespace_usings: HashMap::new(),
            class_stack: Vec::new(),
            quiet: 0,
            depth: 0,
            splits: Vec::new(),
            no_gt: false,
            template_entity: None,
            template_depth: 0,
            member_templates: HashSet::new(),
        }
    }

    // ----- tokens -------------------------------------------------------------------

    fn tok(&self, i: usize) -> Token {
        self.toks[i.min(self.toks.len() - 1)]
    }
    fn peek(&self) -> Token {
        self.tok(self.pos)
    }
    fn text_of(&self, t: Token) -> &'a str {
        let s = self.src.get(t.lo as usize..t.hi as usize).unwrap_or("");
        match t.kind {
            TokKind::Punct if s.as_bytes().first().is_some_and(u8::is_ascii_alphabetic) => alt_tokens::punct_of(s).unwrap_or(s),
            _ => s,
        }
    }
    fn text(&self) -> &'a str {
        self.text_of(self.peek())
    }
    fn nth_text(&self, n: usize) -> &'a str {
        self.text_of(self.tok(self.pos + n))
    }
    fn nth_kind(&self, n: usize) -> TokKind {
        self.tok(self.pos + n).kind
    }
    fn kind(&self) -> TokKind {
        self.peek().kind
    }
    fn at_eof(&self) -> bool {
        self.kind() == TokKind::Eof
    }
    /// The current token is the punctuator or keyword `s`.
    fn is(&self, s: &str) -> bool {
        let t = self.peek();
        matches!(t.kind, TokKind::Punct | TokKind::Ident) && self.text_of(t) == s
    }
    fn nth_is(&self, n: usize, s: &str) -> bool {
        let t = self.tok(self.pos + n);
        matches!(t.kind, TokKind::Punct | TokKind::Ident) && self.text_of(t) == s
    }
    fn is_ident(&self) -> bool {
        self.kind() == TokKind::Ident
    }
    fn bump(&mut self) -> Token {
        let t = self.peek();
        if t.kind != TokKind::Eof {
            self.pos += 1;
        }
        t
    }
    /// Consumes the current token and returns its text.
    fn bump_text(&mut self) -> &'a str {
        let t = self.bump();
        self.text_of(t)
    }
    fn eat(&mut self, s: &str) -> bool {
        if self.is(s) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn span(&self) -> Span {
        let t = self.peek();
        Span::new(t.lo, t.hi)
    }
    /// Span of the token before the current one.
    fn prev_span(&self) -> Span {
        let t = self.tok(self.pos.saturating_sub(1));
        Span::new(t.lo, t.hi)
    }
    /// From the start of token `start` to the end of the previous token.
    fn span_from(&self, start: usize) -> Span {
        let lo = self.tok(start).lo;
        let hi = if self.pos > start { self.tok(self.pos - 1).hi } else { lo };
        Span::new(lo, hi.max(lo))
    }

    /// Describes the current token for messages: `'x'` or `end of file`.
    fn describe(&self) -> String {
        match self.kind() {
            TokKind::Eof => "end of file".to_string(),
            TokKind::Pragma => "'#pragma'".to_string(),
            _ => format!("'{}'", self.text()),
        }
    }

    fn err_here(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.span(), msg)
    }

    fn expect(&mut self, s: &str) -> PResult<Token> {
        if self.is(s) {
            Ok(self.bump())
        } else {
            Err(self.err_here(format!("expected '{s}' before {}", self.describe())))
        }
    }

    /// Expects a terminator that belongs at the end of what was just parsed (`;` after a
    /// statement): the error points at the end of the previous token, where it is missing.
    fn expect_after(&mut self, s: &str, what: &str) -> PResult<Token> {
        if self.is(s) {
            return Ok(self.bump());
        }
        let prev = self.prev_span();
        let at = Span::new(prev.hi.saturating_sub(1).max(prev.lo), prev.hi);
        Err(Diagnostic::error(at, format!("expected '{s}' after {what}")).with_help(format!("add '{s}'")))
    }

    fn ident(&mut self) -> PResult<Ident> {
        if self.is_ident() && !is_reserved(self.text()) {
            let t = self.bump();
            Ok(Ident { name: self.text_of(t).to_string(), span: Span::new(t.lo, t.hi) })
        } else {
            Err(self.err_here(format!("expected an identifier before {}", self.describe())))
        }
    }

    /// Runs a parsing step one level deeper, on a stack that grows as needed.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.enter_depth()?;
        let r = stacker::maybe_grow(256 * 1024, 4 * 1024 * 1024, || f(self));
        self.depth -= 1;
        r
    }

    fn enter_depth(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err_here(format!("declarations, statements and expressions nest more than {MAX_DEPTH} deep here (Cuprite's limit)")));
        }
        Ok(())
    }

    // ----- scopes (typedef names) -----------------------------------------------------

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }
    fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    /// Records what `name` means in the current scope (and, in a namespace or class,
    /// under its qualified name).
    fn declare(&mut self, name: &'a str, kind: NameKind) {
        if let Some(scope) = self.scopes.last_mut() {
            // A function overloading a function template in the same scope leaves the
            // name a template (`f<int>(x)` still names the template).
            if kind == NameKind::Value && scope.get(name) == Some(&NameKind::Template) {
                return;
            }
            scope.insert(name, kind);
        }
        if !self.ns_path.is_empty() && kind != NameKind::Value {
            let q = format!("{}::{}", self.ns_path.join("::"), name);
            self.qualified.insert(q, kind);
        }
        if self.ns_path_written.len() != self.ns_path.len() && kind != NameKind::Value {
            let q = format!("{}::{}", self.ns_path_written.join("::"), name);
            self.qualified.insert(q, kind);
        }
    }

    fn lookup_unqualified(&self, name: &str) -> Option<NameKind> {
        for scope in self.scopes.iter().rev() {
            if let Some(&k) = scope.get(name) {
                return Some(k);
            }
        }
        // Inside `namespace a { namespace b {` names of `a::` are visible too.
        for k in (1..=self.ns_path.len()).rev() {
            let q = format!("{}::{}", self.ns_path[..k].join("::"), name);
            if let Some(&kind) = self.qualified.get(&q) {
                return Some(kind);
            }
        }
        for ns in &self.using_namespaces {
            if let Some(&kind) = self.qualified.get(&format!("{ns}::{name}")) {
                return Some(kind);
            }
        }
        None
    }

    /// What the path (as segment texts) names, as far as the parser knows.
    fn lookup_path(&self, global: bool, segs: &[&str]) -> Option<NameKind> {
        match segs {
            [] => None,
            [one] if !global => self.lookup_unqualified(one),
            // `::name`: a name declared at file scope.
            [one] => self.scopes.first().and_then(|s| s.get(one)).copied(),
            _ => {
                let q = segs.join("::");
                if let Some(&k) = self.qualified.get(&q) {
                    return Some(k);
                }
                if let Some(nominated) = self.namespace_usings.get(&segs[..segs.len() - 1].join("::")) {
                    let last = segs[segs.len() - 1];
                    for ns in nominated {
                        if let Some(&kind) = self.qualified.get(&format!("{ns}::{last}")) {
                            return Some(kind);
                        }
                    }
                }
                if !global {
                    for k in (1..=self.ns_path.len()).rev() {
                        let full = format!("{}::{}", self.ns_path[..k].join("::"), q);
                        if let Some(&kind) = self.qualified.get(&full) {
                            return Some(kind);
                        }
                    }
                    for ns in &self.using_namespaces {
                        if let Some(&kind) = self.qualified.get(&format!("{ns}::{q}")) {
                            return Some(kind);
                        }
                    }
                }
                None
            }
        }
    }

    /// Looks ahead at a possibly qualified name starting at the current token without
    /// consuming it: its segment texts, whether it starts with `::`, and the number of
    /// tokens it spans. `None` if no name starts here.
    fn peek_path(&self) -> Option<(bool, Vec<&'a str>, usize)> {
        self.peek_path_at(0)
    }

    /// `peek_path` starting `at` tokens ahead; the length does not include `at`.
    fn peek_path_at(&self, at: usize) -> Option<(bool, Vec<&'a str>, usize)> {
        let (global, segs, end) = self.peek_path_from(at)?;
        Some((global, segs, end - at))
    }

    fn peek_path_from(&self, at: usize) -> Option<(bool, Vec<&'a str>, usize)> {
        let mut n = at;
        let global = self.nth_is(0, "::");
        if global {
            n += 1;
        }
        let mut segs = Vec::new();
        loop {
            let t = self.tok(self.pos + n);
            if t.kind != TokKind::Ident || is_reserved(self.text_of(t)) {
                return if segs.is_empty() { None } else { Some((global, segs, n - 1)) };
            }
            segs.push(self.text_of(t));
            n += 1;
            if self.nth_is(n, "::") && self.nth_kind(n + 1) == TokKind::Ident && !is_reserved(self.nth_text(n + 1)) {
                n += 1;
            } else {
                return Some((global, segs, n));
            }
        }
    }

    /// Consumes a path of `len` tokens as returned by `peek_path`.
    fn take_path(&mut self, len: usize) -> Path {
        let start = self.pos;
        let global = self.eat("::");
        let mut segments = Vec::new();
        while self.pos < start + len {
            let t = self.bump();
            if t.kind == TokKind::Ident {
                segments.push(Ident { name: self.text_of(t).to_string(), span: Span::new(t.lo, t.hi) });
            }
        }
        Path::new(global, segments, self.span_from(start))
    }

    /// The current token starts a (possibly qualified) type name known to the parser.
    /// Returns the number of tokens of the name.
    fn type_name_len(&self) -> Option<usize> {
        self.type_name_len_at(0)
    }

    /// Template arguments included (`Vec<float>`, `S<T>::type` where the class template's
    /// body declared `type` as a type); a class template's name alone is a type too.
    fn type_name_len_at(&self, at: usize) -> Option<usize> {
        let pk = self.peek_name_at(at)?;
        match pk.kind {
            Some(NameKind::Type | NameKind::TypeTemplate) => Some(pk.len),
            _ => None,
        }
    }
}

/// Keywords that can never be names.
pub(crate) fn is_reserved(s: &str) -> bool {
    matches!(
        s,
        "alignas" | "alignof" | "asm" | "auto" | "bool" | "break" | "case" | "catch" | "char" | "char16_t"
            | "char32_t" | "char8_t" | "class" | "const" | "const_cast" | "constexpr" | "continue"
            | "decltype" | "default" | "delete" | "do" | "double" | "dynamic_cast" | "else" | "enum"
            | "explicit" | "extern" | "false" | "float" | "for" | "friend" | "goto" | "if" | "inline"
            | "int" | "long" | "mutable" | "namespace" | "new" | "noexcept" | "nullptr" | "operator"
            | "private" | "protected" | "public" | "register" | "reinterpret_cast" | "return" | "short"
            | "signed" | "sizeof" | "static" | "static_assert" | "static_cast" | "struct" | "switch"
            | "template" | "this" | "throw" | "true" | "try" | "typedef" | "typeid" | "typename"
            | "union" | "unsigned" | "using" | "virtual" | "void" | "volatile" | "wchar_t" | "while"
            | "_Bool" | "__int128" | "__attribute__" | "__attribute" | "__extension__" | "__asm__"
            | "__asm" | "__typeof__" | "__typeof" | "typeof" | "__restrict__" | "__restrict"
            | "__inline__" | "__inline" | "__const" | "__volatile__" | "__volatile" | "_Alignof"
            | "__alignof__" | "__signed__" | "__signed" | "_Static_assert" | "consteval" | "constinit"
            | "co_await" | "co_return" | "co_yield" | "concept" | "requires" | "thread_local"
            | "__thread" | "__global__" | "__device__" | "__host__" | "__shared__" | "__constant__"
            | "__managed__" | "__forceinline__" | "__noinline__" | "__launch_bounds__"
    )
}

/// Parses a template argument list from text (`crate::parse_template_args`).
pub(crate) fn parse_template_args_text(text: &str, names: &[(String, NameKind)]) -> PResult<Vec<crate::ast::TemplateArg>> {
    templates::parse_args_text(text, names)
}

/// Parses the token stream into items (the entry point used by `crate::parse`).
pub(crate) fn parse_tokens(src: &str, toks: Vec<Token>, sm: &SourceMap) -> (crate::ast::TranslationUnit, Vec<Diagnostic>) {
    let mut p = Parser::new(src, toks, sm);
    let items = p.parse_items_until_eof();
    (crate::ast::TranslationUnit { items }, p.diags)
}
