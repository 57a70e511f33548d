//! Declarations: specifiers (with CUDA qualifiers and attributes), declarators,
//! initializers, records and enums.

use super::{NameKind, PResult, Parser};
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lex::TokKind;

/// Where a declaration appears; decides what the specifier and declarator parsers accept.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum DeclCtx {
    File,
    Block,
    /// In a class body (constructors are named after the class).
    Member,
    Param,
    /// A type written in an expression (cast, `sizeof`) or an alias.
    TypeName,
}

/// Whether a declarator must, may or must not have a name.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum NameReq {
    Named,
    Either,
    Abstract,
}

/// Counts of the builtin type keywords seen in one specifier list.
#[derive(Default)]
struct Builtins {
    any: bool,
    void: bool,
    bool_: bool,
    char_: bool,
    short: bool,
    int: bool,
    long: u8,
    float: bool,
    double: bool,
    signed: bool,
    unsigned: bool,
    int128: bool,
    /// A keyword that is a whole type by itself (`wchar_t`, `__int128_t`, `_Float32`).
    exact: Option<BuiltinType>,
}

impl Builtins {
    fn add(&mut self, kw: &str) -> bool {
        match kw {
            "void" => self.void = true,
            "bool" | "_Bool" => self.bool_ = true,
            "char" => self.char_ = true,
            "short" => self.short = true,
            "int" => self.int = true,
            "long" => self.long += 1,
            "float" => self.float = true,
            "double" => self.double = true,
            "signed" | "__signed" | "__signed__" => self.signed = true,
            "unsigned" => self.unsigned = true,
            "__int128" => self.int128 = true,
            // Distinct types in C++ that the AST has no variant for: their Linux ABI type.
            "wchar_t" => self.exact = Some(BuiltinType::Int),
            "char16_t" => self.exact = Some(BuiltinType::UShort),
            "char32_t" => self.exact = Some(BuiltinType::UInt),
            "char8_t" => self.exact = Some(BuiltinType::UChar),
            "__int128_t" => self.exact = Some(BuiltinType::Int128),
            "__uint128_t" => self.exact = Some(BuiltinType::UInt128),
            "_Float32" => self.exact = Some(BuiltinType::Float),
            "_Float64" | "_Float32x" => self.exact = Some(BuiltinType::Double),
            "_Float64x" => self.exact = Some(BuiltinType::LongDouble),
            _ => return false,
        }
        self.any = true;
        true
    }

    fn resolve(&self) -> Option<BuiltinType> {
        use BuiltinType::*;
        let u = self.unsigned;
        Some(if let Some(t) = self.exact {
            t
        } else if self.void {
            Void
        } else if self.bool_ {
            Bool
        } else if self.float {
            Float
        } else if self.double {
            if self.long > 0 {
                LongDouble
            } else {
                Double
            }
        } else if self.char_ {
            if u {
                UChar
            } else if self.signed {
                SChar
            } else {
                Char
            }
        } else if self.int128 {
            if u {
                UInt128
            } else {
                Int128
            }
        } else if self.short {
            if u {
                UShort
            } else {
                Short
            }
        } else if self.long == 1 {
            if u {
                ULong
            } else {
                Long
            }
        } else if self.long >= 2 {
            if u {
                ULongLong
            } else {
                LongLong
            }
        } else if self.int || self.signed || u {
            if u {
                UInt
            } else {
                Int
            }
        } else {
            return None;
        })
    }
}

pub(super) fn is_builtin_type_kw(s: &str) -> bool {
    Builtins::default().add(s)
}

/// Keywords that can start a declaration (besides type names).
fn is_spec_kw(s: &str) -> bool {
    matches!(
        s,
        "typedef" | "static" | "extern" | "register" | "thread_local" | "__thread" | "inline" | "__inline"
            | "__inline__" | "constexpr" | "consteval" | "constinit" | "const" | "__const" | "volatile"
            | "__volatile" | "__volatile__" | "mutable" | "virtual" | "explicit" | "friend" | "struct"
            | "class" | "union" | "enum" | "typename" | "decltype" | "__typeof__" | "__typeof" | "typeof"
            | "__attribute__" | "__attribute" | "alignas" | "_Alignas" | "__declspec" | "__align__" | "auto"
            | "__global__" | "__device__" | "__host__" | "__shared__" | "__constant__" | "__managed__"
            | "__forceinline__" | "__noinline__" | "__launch_bounds__" | "__grid_constant__"
            | "__restrict__" | "__restrict"
    )
}

impl<'a> Parser<'a> {
    /// The token `n` ahead can start declaration specifiers.
    pub(super) fn starts_decl_spec_at(&self, n: usize) -> bool {
        let t = self.tok(self.pos + n);
        match t.kind {
            TokKind::Ident => {
                let s = self.text_of(t);
                is_builtin_type_kw(s) || is_spec_kw(s) || self.type_name_len_at(n).is_some()
            }
            TokKind::Punct => {
                let s = self.text_of(t);
                (s == "::" && self.type_name_len_at(n).is_some()) || (s == "[" && self.nth_is(n + 1, "["))
            }
            _ => false,
        }
    }

    /// The token `n` ahead can start a type name (in a cast or `sizeof`): like a
    /// declaration but without storage classes or CUDA qualifiers.
    pub(super) fn starts_type_name_at(&self, n: usize) -> bool {
        let t = self.tok(self.pos + n);
        let s = self.text_of(t);
        match t.kind {
            TokKind::Ident => {
                is_builtin_type_kw(s)
                    || matches!(
                        s,
                        "const" | "__const" | "volatile" | "__volatile__" | "struct" | "class" | "union" | "enum"
                            | "typename" | "decltype" | "__typeof__" | "__typeof" | "typeof"
                    )
                    || self.type_name_len_at(n).is_some()
            }
            TokKind::Punct => s == "::" && self.type_name_len_at(n).is_some(),
            _ => false,
        }
    }

    /// Declaration specifiers: storage class, CUDA qualifiers, cv, attributes and the type.
    pub(super) fn parse_decl_spec(&mut self, ctx: DeclCtx) -> PResult<DeclSpec> {
        let start = self.pos;
        let mut spec = DeclSpec::default();
        let mut b = Builtins::default();
        let mut has_type = false;
        loop {
            let t = self.peek();
            let s = self.text_of(t);
            if t.kind == TokKind::Punct {
                if s == "[" && self.nth_is(1, "[") {
                    self.parse_attributes(&mut spec.attrs)?;
                    continue;
                }
                if s == "::" && !has_type && !b.any {
                    if let Some(len) = self.type_name_len() {
                        if !self.nth_is(len, "::") {
                            spec.ty = TypeSpec::Named(self.take_qualified(len)?);
                            has_type = true;
                            continue;
                        }
                    }
                }
                break;
            }
            if t.kind != TokKind::Ident {
                break;
            }
            let storage = match s {
                "typedef" => Some(Storage::Typedef),
                "static" => Some(Storage::Static),
                "extern" => Some(Storage::Extern),
                "register" => Some(Storage::Register),
                "thread_local" | "__thread" => Some(Storage::ThreadLocal),
                _ => None,
            };
            if let Some(st) = storage {
                if ctx == DeclCtx::TypeName {
                    break;
                }
                self.bump();
                // `extern "C" int f();` inside a block or `static thread_local`: keep the first.
                if spec.storage.is_none() {
                    spec.storage = Some(st);
                }
                if st == Storage::Extern && self.kind() == TokKind::Str {
                    self.bump();
                }
                continue;
            }
            match s {
                "inline" | "__inline" | "__inline__" => spec.is_inline = true,
                "constexpr" | "consteval" => spec.is_constexpr = true,
                "const" | "__const" => spec.cv.is_const = true,
                "volatile" | "__volatile" | "__volatile__" => spec.cv.is_volatile = true,
                "virtual" => spec.is_virtual = true,
                "mutable" | "friend" | "__extension__" | "constinit" | "__restrict__"
                | "__restrict" | "__grid_constant__" => {}
                "explicit" => {
                    spec.is_explicit = true;
                    self.bump();
                    if self.is("(") {
                        self.pos = self.skip_balanced(self.pos);
                    }
                    continue;
                }
                "__global__" => spec.cuda.global = true,
                "__device__" => spec.cuda.device = true,
                "__host__" => spec.cuda.host = true,
                "__shared__" => spec.cuda.shared = true,
                "__constant__" => spec.cuda.constant = true,
                "__managed__" => spec.cuda.managed = true,
                "__forceinline__" => spec.cuda.forceinline = true,
                "__noinline__" => spec.cuda.noinline = true,
                "__launch_bounds__" => {
                    self.bump();
                    self.expect("(")?;
                    let mut args = Vec::new();
                    while !self.is(")") {
                        args.push(self.parse_assign()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                    self.expect(")")?;
                    spec.cuda.launch_bounds = Some(args);
                    continue;
                }
                "__attribute__" | "__attribute" | "alignas" | "_Alignas" | "__declspec" | "__align__" => {
                    self.parse_attributes(&mut spec.attrs)?;
                    continue;
                }
                "struct" | "class" | "union" if !has_type => {
                    spec.ty = TypeSpec::Record(self.parse_record()?);
                    has_type = true;
                    continue;
                }
                "enum" if !has_type => {
                    spec.ty = TypeSpec::Enum(self.parse_enum()?);
                    has_type = true;
                    continue;
                }
                "auto" if !has_type && !b.any => {
                    spec.ty = TypeSpec::Auto;
                    has_type = true;
                }
                "decltype" | "__typeof__" | "__typeof" | "typeof" if !has_type && !b.any => {
                    let kw_span = self.span();
                    self.bump();
                    self.expect("(")?;
                    if self.starts_type_name_at(0) {
                        return Err(Diagnostic::error(kw_span, format!("'{s}' of a type is not supported yet")));
                    }
                    let e = self.parse_expr()?;
                    self.expect(")")?;
                    spec.ty = TypeSpec::Decltype(Box::new(e));
                    has_type = true;
                    continue;
                }
                "typename" if !has_type => {
                    // `typename T::value_type`, `typename Outer<T>::template Inner<U>`.
                    self.bump();
                    let Some(pk) = self.peek_name_at(0) else {
                        return Err(self.err_here(format!("expected a qualified name after 'typename' before {}", self.describe())));
                    };
                    spec.ty = TypeSpec::Named(self.take_qualified(pk.len)?);
                    has_type = true;
                    continue;
                }
                _ if b.add(s) => {
                    if has_type {
                        return Err(self.err_here("two or more data types in declaration specifiers"));
                    }
                }
                _ => {
                    if has_type || b.any || super::is_reserved(s) {
                        break;
                    }
                    // A constructor declares no type: `S(int)` in class S, `S::S(int)` outside.
                    if ctx == DeclCtx::Member && self.class_stack.last() == Some(&s) && self.nth_is(1, "(") {
                        break;
                    }
                    let Some(pk) = self.peek_name_at(0) else { break };
                    let (segs, len) = (pk.segs, pk.len);
                    if segs.len() >= 2 && segs[segs.len() - 1] == segs[segs.len() - 2] {
                        break;
                    }
                    if !pk.half && self.nth_is(len, "::") {
                        // `S::~S()`, `S::operator=`: a qualified declarator name.
                        break;
                    }
                    // A parameter must start with a type: an unknown name followed by a
                    // declarator is taken as one (sema reports it if device code needs it).
                    let param_type = ctx == DeclCtx::Param
                        && (matches!(self.nth_text(len), "&" | "&&" | "*" | "," | ")")
                            || (self.nth_kind(len) == TokKind::Ident && !super::is_reserved(self.nth_text(len))));
                    if self.type_name_len().is_none() && !param_type {
                        // `foo x;` with `foo` unknown: say so rather than "expected ';'".
                        if ctx != DeclCtx::TypeName
                            && self.nth_kind(len) == TokKind::Ident
                            && !super::is_reserved(self.nth_text(len))
                            && !is_spec_kw(self.nth_text(len))
                        {
                            return Err(self.err_here(format!("unknown type name '{}'", segs.join("::"))));
                        }
                        break;
                    }
                    spec.ty = TypeSpec::Named(self.take_qualified(len)?);
                    has_type = true;
                    continue;
                }
            }
            self.bump();
        }
        if b.any {
            match b.resolve() {
                Some(t) => spec.ty = TypeSpec::Builtin(t),
                None => return Err(Diagnostic::error(self.span_from(start), "invalid combination of type specifiers")),
            }
        }
        spec.span = self.span_from(start);
        Ok(spec)
    }

    /// `__attribute__((a, b(1)))`, `alignas(n)`, `__align__(n)`, `[[a, ns::b(1)]]`,
    /// `__declspec(x)`. Appends what it reads to `attrs`.
    pub(super) fn parse_attributes(&mut self, attrs: &mut Vec<Attribute>) -> PResult<()> {
        loop {
            let kw_span = self.span();
            match self.text() {
                "__attribute__" | "__attribute" => {
                    self.bump();
                    self.expect("(")?;
                    self.expect("(")?;
                    self.parse_attribute_list(attrs, ")")?;
                    self.expect(")")?;
                    self.expect(")")?;
                }
                "alignas" | "_Alignas" | "__align__" => {
                    self.bump();
                    self.expect("(")?;
                    let arg = if self.starts_type_name_at(0) {
                        let ty = self.parse_type_name()?;
                        Expr { span: ty.span, kind: ExprKind::AlignofType(Box::new(ty)) }
                    } else {
                        self.parse_assign()?
                    };
                    self.expect(")")?;
                    attrs.push(Attribute { name: "aligned".into(), args: vec![arg], span: self.span_from_lo(kw_span.lo) });
                }
                "__declspec" => {
                    self.bump();
                    if self.is("(") {
                        self.pos = self.skip_balanced(self.pos);
                    }
                }
                "[" if self.nth_is(1, "[") => {
                    self.bump();
                    self.bump();
                    self.parse_attribute_list(attrs, "]")?;
                    self.expect("]")?;
                    self.expect("]")?;
                }
                _ => return Ok(()),
            }
        }
    }

    fn span_from_lo(&self, lo: u32) -> Span {
        Span::new(lo, self.prev_span().hi.max(lo))
    }

    /// `a, b(1, 2), gnu::c` up to `close`. Unknown attributes are kept by name; their
    /// arguments are dropped if they are not expressions (e.g. `format(printf, 1, 2)` is).
    fn parse_attribute_list(&mut self, attrs: &mut Vec<Attribute>, close: &str) -> PResult<()> {
        while !self.is(close) && !self.at_eof() {
            if self.eat(",") {
                continue;
            }
            let lo = self.span().lo;
            let mut name = match self.kind() {
                TokKind::Ident => self.bump_text().to_string(),
                _ => return Err(self.err_here(format!("expected an attribute name before {}", self.describe()))),
            };
            while self.is("::") && self.nth_kind(1) == TokKind::Ident {
                self.bump();
                name = self.bump_text().to_string();
            }
            let name = name.trim_start_matches("__").trim_end_matches("__").to_string();
            let mut args = Vec::new();
            if self.is("(") {
                let open = self.pos;
                let save_diags = self.diags.len();
                self.bump();
                let parsed: PResult<Vec<Expr>> = (|| {
                    let mut v = Vec::new();
                    while !self.is(")") {
                        v.push(self.parse_assign()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                    self.expect(")")?;
                    Ok(v)
                })();
                match parsed {
                    Ok(v) => args = v,
                    Err(_) => {
                        self.diags.truncate(save_diags);
                        self.pos = self.skip_balanced(open);
                    }
                }
            }
            attrs.push(Attribute { name, args, span: self.span_from_lo(lo) });
        }
        Ok(())
    }

    /// `struct`/`class`/`union` [attrs] [name] [: bases] [{ members }] [attrs].
    fn parse_record(&mut self) -> PResult<RecordSpec> {
        let start = self.pos;
        let kind = match self.bump_text() {
            "union" => RecordKind::Union,
            "class" => RecordKind::Class,
            _ => RecordKind::Struct,
        };
        let mut attrs = Vec::new();
        self.parse_attributes(&mut attrs)?;
        let mut name = None;
        let mut args = None;
        if let Some((_, _, len)) = self.peek_path() {
            let path = self.take_path(len);
            if self.is("<") {
                // A specialization (`struct S<float>`, `struct S<T*>`) or an elaborated
                // reference to one.
                args = Some(self.parse_template_args()?);
            }
            name = Some(path.last().clone());
        }
        if let (Some(n), None) = (&name, &args) {
            let n: &'a str = self.text_of(self.tok_at_span(n.span));
            self.declare_entity(n, NameKind::Type);
        }
        if self.is("final") {
            self.bump();
        }
        let mut bases = Vec::new();
        if self.is(":") {
            self.bump();
            loop {
                while matches!(self.text(), "public" | "private" | "protected" | "virtual") {
                    self.bump();
                }
                let Some(pk) = self.peek_name_at(0) else {
                    return Err(self.err_here(format!("expected a base class name before {}", self.describe())));
                };
                bases.push(self.take_qualified(pk.len)?);
                if self.is("<") {
                    return Err(self.err_here(format!("'{}' is not a template", pk.segs.join("::"))));
                }
                if self.is("...") {
                    return Err(self.err_here("pack expansions in base class lists are not supported yet"));
                }
                if !self.eat(",") {
                    break;
                }
            }
        }
        let mut members = None;
        if self.is("{") {
            members = Some(self.parse_members(name.as_ref())?);
        }
        self.parse_attributes(&mut attrs)?;
        if name.is_none() && members.is_none() {
            return Err(self.err_here(format!("expected a name or '{{' after 'struct' before {}", self.describe())));
        }
        Ok(RecordSpec { kind, name, args, members, bases, attrs, span: self.span_from(start) })
    }

    /// The token whose span is `span` (used to borrow identifier text from the source).
    fn tok_at_span(&self, span: Span) -> crate::lex::Token {
        crate::lex::Token { kind: TokKind::Ident, lo: span.lo, hi: span.hi, line_start: false }
    }

    /// `enum [class] [name] [: type] [{ A, B = 2, }]`.
    fn parse_enum(&mut self) -> PResult<EnumSpec> {
        let start = self.pos;
        self.bump();
        let scoped = self.eat("class") || self.eat("struct");
        let mut attrs = Vec::new();
        self.parse_attributes(&mut attrs)?;
        let mut name = None;
        if let Some((_, _, len)) = self.peek_path() {
            name = Some(self.take_path(len).last().clone());
        }
        if let Some(n) = &name {
            let n: &'a str = self.text_of(self.tok_at_span(n.span));
            self.declare(n, NameKind::Type);
        }
        let mut underlying = None;
        if self.is(":") && (name.is_some() || self.starts_type_name_at(1)) {
            self.bump();
            underlying = Some(Box::new(self.parse_type_name()?));
        }
        let mut enumerators = None;
        if self.eat("{") {
            let mut list = Vec::new();
            while !self.is("}") {
                let id = self.ident()?;
                self.parse_attributes(&mut attrs)?;
                let value = if self.eat("=") { Some(self.parse_cond()?) } else { None };
                if !scoped {
                    let n: &'a str = self.text_of(self.tok_at_span(id.span));
                    self.declare(n, NameKind::Value);
                }
                list.push(Enumerator { name: id, value });
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("}")?;
            enumerators = Some(list);
        }
        if name.is_none() && enumerators.is_none() {
            return Err(self.err_here(format!("expected a name or '{{' after 'enum' before {}", self.describe())));
        }
        Ok(EnumSpec { name, scoped, underlying, enumerators, span: self.span_from(start) })
    }

    /// A type in an expression: specifiers and an abstract declarator.
    pub(super) fn parse_type_name(&mut self) -> PResult<TypeName> {
        let start = self.pos;
        let spec = self.parse_decl_spec(DeclCtx::TypeName)?;
        if matches!(spec.ty, TypeSpec::None) {
            return Err(self.err_here(format!("expected a type before {}", self.describe())));
        }
        let declarator = self.parse_declarator(NameReq::Abstract, DeclCtx::TypeName)?;
        Ok(TypeName { spec, declarator, span: self.span_from(start) })
    }

    // ----- declarators --------------------------------------------------------------

    /// A declarator: pointer operators, the name (or a parenthesised declarator), then
    /// array and function suffixes. See `ast::Declarator` for the order of `derived`.
    pub(super) fn parse_declarator(&mut self, req: NameReq, ctx: DeclCtx) -> PResult<Declarator> {
        self.nested(|p| p.parse_declarator_inner(req, ctx))
    }

    fn parse_declarator_inner(&mut self, req: NameReq, ctx: DeclCtx) -> PResult<Declarator> {
        let start = self.pos;
        let mut attrs = Vec::new();
        let mut ptrs = Vec::new();
        loop {
            self.parse_attributes(&mut attrs)?;
            if self.eat("*") {
                let mut cv = Cv::default();
                let mut restrict = false;
                loop {
                    match self.text() {
                        "const" | "__const" => cv.is_const = true,
                        "volatile" | "__volatile" | "__volatile__" => cv.is_volatile = true,
                        "__restrict__" | "__restrict" | "restrict" => restrict = true,
                        "__attribute__" | "__attribute" | "alignas" | "__align__" => {
                            self.parse_attributes(&mut attrs)?;
                            continue;
                        }
                        _ => break,
                    }
                    self.bump();
                }
                ptrs.push(Derived::Pointer { cv, restrict });
            } else if self.eat("&") {
                ptrs.push(Derived::Reference { rvalue: false });
            } else if self.eat("&&") {
                ptrs.push(Derived::Reference { rvalue: true });
            } else if let Some(len) = self.member_ptr_at(0) {
                // `C::*`, `ns::C::* const`: a pointer to member of class `C`.
                let class = self.take_qualified(len)?;
                self.expect("::")?;
                self.expect("*")?;
                let mut cv = Cv::default();
                loop {
                    match self.text() {
                        "const" | "__const" => cv.is_const = true,
                        "volatile" | "__volatile" | "__volatile__" => cv.is_volatile = true,
                        _ => break,
                    }
                    self.bump();
                }
                ptrs.push(Derived::MemberPointer { class, cv });
            } else {
                break;
            }
        }

        let mut name = None;
        // `Ts... args`, `const Ts&... xs`: a function (or template) parameter pack.
        let pack = ctx == DeclCtx::Param && self.template_depth > 0 && self.eat("...");
        let mut inner = Vec::new();
        if self.is("(") && req != NameReq::Abstract && (self.member_ptr_at(1).is_some() || !self.is_param_list_start(1)) {
            // `(*p)`, `(&r)`, `(name)`: a nested declarator.
            self.bump();
            let d = self.parse_declarator(req, ctx)?;
            self.expect(")")?;
            name = d.name;
            inner = d.derived;
            attrs.extend(d.attrs);
        } else if self.is("(") && req == NameReq::Abstract && (matches!(self.nth_text(1), "*" | "&" | "&&" | "^") || self.member_ptr_at(1).is_some()) {
            self.bump();
            let d = self.parse_declarator(req, ctx)?;
            self.expect(")")?;
            inner = d.derived;
        } else if req != NameReq::Abstract && self.starts_declarator_name() {
            name = Some(self.parse_declarator_name()?);
        }
        if req == NameReq::Named && name.is_none() {
            return Err(self.err_here(format!("expected an identifier before {}", self.describe())));
        }
        self.parse_attributes(&mut attrs)?;

        let mut suffixes = Vec::new();
        loop {
            if self.is("[") && !self.nth_is(1, "[") {
                self.bump();
                let size = if self.is("]") { None } else { Some(Box::new(self.parse_expr()?)) };
                self.expect("]")?;
                suffixes.push(Derived::Array(size));
            } else if self.is("(") && (req == NameReq::Abstract || ctx == DeclCtx::Param || self.is_param_list_start(1)) {
                let mut f = self.parse_params()?;
                f.cv = self.parse_function_trailer(&mut attrs)?;
                if self.eat("->") {
                    f.trailing_return = Some(Box::new(self.parse_type_name()?));
                    self.parse_function_trailer(&mut attrs)?; // `override`, `final`
                }
                suffixes.push(Derived::Function(f));
            } else {
                break;
            }
        }
        // `int x __asm__("sym") __attribute__((...))`.
        loop {
            if matches!(self.text(), "__asm__" | "__asm" | "asm") && self.nth_is(1, "(") {
                self.bump();
                self.pos = self.skip_balanced(self.pos);
            } else if matches!(self.text(), "__attribute__" | "__attribute") {
                self.parse_attributes(&mut attrs)?;
            } else {
                break;
            }
        }
        let mut derived = inner;
        derived.extend(suffixes);
        derived.extend(ptrs.into_iter().rev());
        Ok(Declarator { name, pack, derived, attrs, span: self.span_from(start) })
    }

    /// At token `n`: `C::*` (a qualified name, then `::*`); the length of the name.
    pub(super) fn member_ptr_at(&self, n: usize) -> Option<usize> {
        let pk = self.peek_name_at(n)?;
        (self.nth_is(n + pk.len, "::") && self.nth_is(n + pk.len + 1, "*")).then_some(pk.len)
    }

    /// After `(`: the list is a parameter list (not a nested declarator or `T x(args)`).
    fn is_param_list_start(&self, n: usize) -> bool {
        if self.nth_is(n, ")") || self.nth_is(n, "...") || self.starts_decl_spec_at(n) {
            return true;
        }
        // Unknown parameter types: `f(Foo x)` (two names in a row), or a body after the
        // closing parenthesis (`f(std::vector<int> v) {`). Either way it is a function.
        if self.nth_kind(n) == TokKind::Ident && self.nth_kind(n + 1) == TokKind::Ident && !super::is_reserved(self.nth_text(n + 1)) {
            return true;
        }
        let after = self.skip_balanced(self.pos + n - 1);
        let t = self.tok(after);
        matches!(self.text_of(t), "{" | "const" | "noexcept" | "override" | "final" | "->" | "throw")
            && t.kind != TokKind::Str
    }

    fn starts_declarator_name(&self) -> bool {
        (self.is_ident() && !super::is_reserved(self.text()))
            || self.is("operator")
            || (self.is("~") && self.nth_kind(1) == TokKind::Ident)
            || (self.is("::") && self.nth_kind(1) == TokKind::Ident)
    }

    /// `x`, `S::f`, `~S`, `S::~S`, `operator+`, `S::operator()`, `operator int`.
    fn parse_declarator_name(&mut self) -> PResult<Path> {
        let start = self.pos;
        let global = self.eat("::");
        let mut segments = Vec::new();
        let mut args: Vec<Option<Vec<TemplateArg>>> = Vec::new();
        loop {
            let lo = self.span().lo;
            args.resize(segments.len(), None);
            if self.is("~") {
                self.bump();
                let id = self.ident()?;
                segments.push(Ident { name: format!("~{}", id.name), span: Span::new(lo, id.span.hi) });
                break;
            }
            if self.is("operator") {
                let name = self.parse_operator_name()?;
                segments.push(Ident { name, span: self.span_from_lo(lo) });
                break;
            }
            segments.push(self.ident()?);
            if self.is("<") {
                // `Vec<T>::dot`, `f<float>` (a specialization), `S<T>::count`.
                let names: Vec<&str> = segments.iter().map(|s| s.name.as_str()).collect();
                if matches!(self.lookup_path(global, &names), Some(NameKind::Template | NameKind::TypeTemplate)) {
                    args.resize(segments.len() - 1, None);
                    args.push(Some(self.parse_template_args()?));
                }
            }
            if self.is("::")
                && (self.nth_kind(1) == TokKind::Ident || self.nth_is(1, "~"))
                && !self.nth_is(1, "*")
            {
                self.bump();
                continue;
            }
            break;
        }
        let mut path = Path::new(global, segments, self.span_from(start));
        if args.iter().any(Option::is_some) {
            args.resize(path.segments.len(), None);
            path.args = args;
        }
        Ok(path)
    }

    /// After `operator`: the operator's spelling, giving names like `operator+`,
    /// `operator()`, `operator[]`, `operator new[]`, `operator int`.
    fn parse_operator_name(&mut self) -> PResult<String> {
        self.bump();
        let mut name = String::from("operator");
        if self.is("(") && self.nth_is(1, ")") {
            self.bump();
            self.bump();
            name.push_str("()");
        } else if self.is("[") && self.nth_is(1, "]") {
            self.bump();
            self.bump();
            name.push_str("[]");
        } else if matches!(self.text(), "new" | "delete") {
            name.push(' ');
            name.push_str(self.bump_text());
            if self.is("[") && self.nth_is(1, "]") {
                self.bump();
                self.bump();
                name.push_str("[]");
            }
        } else if self.kind() == TokKind::Punct && !matches!(self.text(), "(" | ")" | ";" | "{" | "}") {
            name.push_str(self.bump_text());
        } else if self.starts_type_name_at(0) {
            // Conversion function: spell the type as written.
            let lo = self.pos;
            self.parse_decl_spec(DeclCtx::TypeName)?;
            while matches!(self.text(), "*" | "&" | "&&" | "const" | "volatile") {
                self.bump();
            }
            let words: Vec<&str> = (lo..self.pos).map(|i| self.text_of(self.tok(i))).collect();
            name.push(' ');
            name.push_str(&words.join(" "));
        } else {
            return Err(self.err_here(format!("expected an operator before {}", self.describe())));
        }
        Ok(name)
    }

    /// `( params )` of a function declarator.
    pub(super) fn parse_params(&mut self) -> PResult<FunctionDeclarator> {
        let start = self.pos;
        self.expect("(")?;
        let mut fd = FunctionDeclarator::default();
        // `(void)`: no parameters.
        if self.is("void") && self.nth_is(1, ")") {
            self.bump();
        }
        while !self.is(")") {
            if self.eat("...") {
                fd.variadic = true;
                break;
            }
            let pstart = self.pos;
            let spec = self.parse_decl_spec(DeclCtx::Param)?;
            if matches!(spec.ty, TypeSpec::None) && !spec.cv.is_const && !spec.cv.is_volatile {
                return Err(match self.peek_path() {
                    Some((_, segs, _)) => self.err_here(format!("unknown type name '{}'", segs.join("::"))),
                    None => self.err_here(format!("expected a parameter declaration before {}", self.describe())),
                });
            }
            let declarator = self.parse_declarator(NameReq::Either, DeclCtx::Param)?;
            let default = if self.eat("=") { Some(self.parse_assign_or_list()?) } else { None };
            fd.params.push(Param { spec, declarator, default, span: self.span_from(pstart) });
            if !self.eat(",") {
                break;
            }
        }
        self.expect(")")?;
        fd.span = self.span_from(start);
        Ok(fd)
    }

    /// What may follow a function's parameter list: cv and ref qualifiers, `noexcept`,
    /// `throw()`, `override`, `final`, attributes. Returns the cv qualifiers.
    fn parse_function_trailer(&mut self, attrs: &mut Vec<Attribute>) -> PResult<Cv> {
        let mut cv = Cv::default();
        loop {
            match self.text() {
                "const" => cv.is_const = true,
                "volatile" => cv.is_volatile = true,
                "&" | "&&" | "override" | "final" | "__restrict__" => {}
                "noexcept" | "throw" => {
                    self.bump();
                    if self.is("(") {
                        self.pos = self.skip_balanced(self.pos);
                    }
                    continue;
                }
                "__attribute__" | "__attribute" => {
                    self.parse_attributes(attrs)?;
                    continue;
                }
                _ => return Ok(cv),
            }
            self.bump();
        }
    }

    // ----- initializers and declarations ------------------------------------------------

    /// `= expr`, `= { ... }`, `{ ... }`, `( args )`, or nothing.
    pub(super) fn parse_initializer(&mut self, declarator: &Declarator) -> PResult<Option<Initializer>> {
        let is_function = matches!(declarator.derived.first(), Some(Derived::Function(_)));
        if self.eat("=") {
            if self.is("{") {
                let (items, span) = self.parse_init_list()?;
                return Ok(Some(Initializer::List(items, span)));
            }
            return Ok(Some(Initializer::Expr(self.parse_assign()?)));
        }
        if is_function {
            return Ok(None);
        }
        if self.is("{") {
            let (items, span) = self.parse_init_list()?;
            return Ok(Some(Initializer::List(items, span)));
        }
        if self.is("(") {
            let start = self.pos;
            self.bump();
            let mut args = Vec::new();
            while !self.is(")") {
                args.push(self.parse_assign_or_list()?);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(")")?;
            return Ok(Some(Initializer::Ctor(args, self.span_from(start))));
        }
        Ok(None)
    }

    /// `{ a, .x = b, [2] = c, { nested }, }`.
    pub(super) fn parse_init_list(&mut self) -> PResult<(Vec<InitItem>, Span)> {
        self.nested(|p| p.with_gt(|p| p.parse_init_list_inner()))
    }

    fn parse_init_list_inner(&mut self) -> PResult<(Vec<InitItem>, Span)> {
        let start = self.pos;
        self.expect("{")?;
        let mut items = Vec::new();
        while !self.is("}") {
            let mut designators = Vec::new();
            loop {
                if self.is(".") && self.nth_kind(1) == TokKind::Ident {
                    self.bump();
                    designators.push(Designator::Field(self.ident()?));
                } else if self.is("[") {
                    self.bump();
                    designators.push(Designator::Index(self.parse_cond()?));
                    self.expect("]")?;
                } else {
                    break;
                }
            }
            if !designators.is_empty() {
                self.expect("=")?;
            }
            let init = if self.is("{") {
                let (list, span) = self.parse_init_list()?;
                Initializer::List(list, span)
            } else {
                Initializer::Expr(self.parse_assign_or_pack()?)
            };
            items.push(InitItem { designators, init });
            if !self.eat(",") {
                break;
            }
        }
        if !self.is("}") {
            return Err(self.err_here(format!("expected '}}' or ',' in initializer list before {}", self.describe())));
        }
        self.bump();
        Ok((items, self.span_from(start)))
    }

    /// The declarators of a declaration after its specifiers (the first one already
    /// parsed), with their initializers; declares each name. Stops before `;`.
    pub(super) fn parse_init_declarators(
        &mut self,
        spec: &DeclSpec,
        first: Declarator,
        ctx: DeclCtx,
    ) -> PResult<Vec<InitDeclarator>> {
        let mut out = Vec::new();
        let mut declarator = first;
        loop {
            self.declare_declarator(spec, &declarator);
            let mut bit_width = None;
            if ctx == DeclCtx::Member && self.is(":") {
                self.bump();
                bit_width = Some(self.parse_cond()?);
            }
            let mut init = None;
            if matches!(declarator.derived.first(), Some(Derived::Function(_))) && self.is("=") {
                // `= 0`, `= default`, `= delete`.
                if self.eat("=") {
                    let zero = self.kind() == TokKind::Int && self.text() == "0";
                    if zero {
                        // Kept as the initializer `0`: a pure virtual function.
                        let sp = self.span();
                        init = Some(Initializer::Expr(Expr { kind: ExprKind::IntLit { value: 0, suffix: IntSuffix::default(), radix: 8 }, span: sp }));
                        self.bump();
                    } else if self.is("default") {
                        // Marked for sema: a defaulted special member is the implicit one.
                        let span = self.span();
                        self.bump();
                        declarator.attrs.push(Attribute { name: DEFAULTED_ATTR.to_string(), args: vec![], span });
                    } else if !self.eat("delete") {
                        return Err(self.err_here(format!("expected '0', 'default' or 'delete' before {}", self.describe())));
                    }
                }
            } else {
                init = self.parse_initializer(&declarator)?;
            }
            self.parse_attributes(&mut declarator.attrs)?;
            out.push(InitDeclarator { declarator, init, bit_width });
            if !self.eat(",") {
                return Ok(out);
            }
            declarator = self.parse_declarator(
                if ctx == DeclCtx::Member { NameReq::Either } else { NameReq::Named },
                ctx,
            )?;
        }
    }

    /// Records a declared name: typedefs as types, anything else hides a type.
    pub(super) fn declare_declarator(&mut self, spec: &DeclSpec, d: &Declarator) {
        // The first declarator of a templated declaration declares the template.
        let entity = self.template_entity.take();
        let Some(path) = &d.name else { return };
        if path.has_template_args() {
            return; // `f<float>`: a specialization of a known template.
        }
        if matches!(spec.ty, TypeSpec::None) {
            return; // Constructors are named after their class and must not hide it.
        }
        if path.segments.len() != 1 || path.global {
            return;
        }
        let id = &path.segments[0];
        let name: &'a str = self.text_of(self.tok_at_span(id.span));
        if name != id.name {
            return; // `~S` or `operator+`: not a plain identifier.
        }
        let kind = if spec.storage == Some(Storage::Typedef) { NameKind::Type } else { NameKind::Value };
        self.template_entity = entity;
        self.declare_entity(name, kind);
    }

    /// Declares function parameters in the current (body) scope.
    pub(super) fn declare_params(&mut self, d: &Declarator) {
        if let Some(Derived::Function(f)) = d.derived.first() {
            for p in &f.params {
                if let Some(path) = &p.declarator.name {
                    if let [id] = path.segments.as_slice() {
                        let name: &'a str = self.text_of(self.tok_at_span(id.span));
                        self.declare(name, NameKind::Value);
                    }
                }
            }
        }
    }
}
