//! Top-level items and the parse-or-skip policy (DESIGN.md §1):
//! - items with a device-side CUDA qualifier are parsed fully and their errors reported;
//! - host function definitions are skipped by balanced braces, unparsed;
//! - other declarations are parsed, and skipped silently if that fails;
//! - templates are skipped (with an error if they are device code).

use super::decl::{DeclCtx, NameReq};
use super::{NameKind, PResult, Parser};
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lex::TokKind;

impl<'a> Parser<'a> {
    pub(super) fn parse_items_until_eof(&mut self) -> Vec<Item> {
        let mut items = Vec::new();
        while !self.at_eof() {
            if self.is("}") {
                // A stray `}` (unbalanced input): drop it and go on.
                let span = self.span();
                self.bump();
                if !self.sm.is_system_header(span.lo) {
                    self.diags.push(Diagnostic::error(span, "unmatched '}'"));
                }
                continue;
            }
            self.parse_item_into(&mut items);
        }
        items
    }

    /// Items up to (not including) the `}` that closes a namespace or linkage block.
    fn parse_items_in_braces(&mut self) -> Vec<Item> {
        let mut items = Vec::new();
        while !self.at_eof() && !self.is("}") {
            self.parse_item_into(&mut items);
        }
        items
    }

    fn parse_item_into(&mut self, items: &mut Vec<Item>) {
        let before = self.pos;
        if let Some(item) = self.parse_item() {
            items.push(item);
        }
        if self.pos == before {
            // Never loop without progress.
            self.bump();
        }
    }

    pub(super) fn item(&self, kind: ItemKind, start: usize) -> Item {
        let span = self.span_from(start);
        Item { kind, span, in_system_header: self.sm.is_system_header(span.lo) }
    }

    fn parse_item(&mut self) -> Option<Item> {
        let start = self.pos;
        let t = self.peek();
        if t.kind == TokKind::Pragma {
            self.bump();
            return Some(self.item(ItemKind::Pragma(self.pragma_text(t)), start));
        }
        match self.text() {
            ";" => {
                self.bump();
                None
            }
            "__extension__" => {
                self.bump();
                self.parse_item()
            }
            "namespace" => Some(self.parse_namespace(start)),
            "inline" if self.nth_is(1, "namespace") => {
                self.bump();
                Some(self.parse_namespace(start))
            }
            "extern" if self.nth_kind(1) == TokKind::Str => Some(self.parse_linkage(start)),
            // `extern template class X<int>;`: an explicit instantiation declaration.
            "extern" if self.nth_is(1, "template") => {
                self.bump();
                Some(self.template_item(start, true))
            }
            "template" => Some(self.template_item(start, false)),
            "static_assert" | "_Static_assert" => Some(self.parse_or_skip(start, |p| {
                let (cond, message) = p.parse_static_assert()?;
                Ok(ItemKind::StaticAssert { cond, message })
            })),
            "using" => Some(self.parse_or_skip(start, |p| {
                Ok(match p.parse_using_any()? {
                    Ok(d) => ItemKind::Decl(d),
                    Err(u) => ItemKind::Using(u),
                })
            })),
            "_Pragma" if self.nth_is(1, "(") => Some(self.parse_or_skip(start, |p| Ok(ItemKind::Pragma(p.parse_pragma_operator()?)))),
            "asm" | "__asm__" | "__asm" => {
                // File-scope `asm("...")`: host-only.
                let scan = self.scan_item(start);
                self.pos = scan.end;
                Some(self.item(ItemKind::Skipped { names: Vec::new(), reason: SkipReason::HostOnly, error: None }, start))
            }
            _ => Some(self.declaration_item(start)),
        }
    }

    /// Parses an item with `f`; on error, skips it by scanning and reports the error only
    /// if the item is device code.
    fn parse_or_skip(&mut self, start: usize, f: impl FnOnce(&mut Self) -> PResult<ItemKind>) -> Item {
        match f(self) {
            Ok(kind) => self.item(kind, start),
            Err(d) => self.failed_item(start, d),
        }
    }

    /// Skips an item that failed to parse. Device items report their error; anything else
    /// stays silent until device code uses one of the names it declares.
    fn failed_item(&mut self, start: usize, d: Diagnostic) -> Item {
        let scan = self.scan_item(start);
        self.pos = scan.end.max(start + 1);
        let names = self.item_names(start, self.pos);
        let system = self.sm.is_system_header(self.tok(start).lo);
        let reason = if scan.device {
            self.diags.push(d.clone());
            SkipReason::Unsupported
        } else if system {
            SkipReason::SystemHeader
        } else {
            SkipReason::HostOnly
        };
        self.item(ItemKind::Skipped { names, reason, error: Some(d) }, start)
    }

    /// A declaration or function definition, with the policy above.
    fn declaration_item(&mut self, start: usize) -> Item {
        let scan = self.scan_item(start);
        // A host `constexpr` function is parsed too: constant expressions may call it.
        if scan.is_function_def && !scan.device && !self.is_constexpr_function(start, scan.end) {
            if !self.sm.is_system_header(self.tok(start).lo) {
                if let Some(d) = self.find_extended_lambda(start, scan.end) {
                    self.diags.push(d);
                }
            }
            let names = self.item_names(start, scan.end);
            self.pos = scan.end;
            return self.item(ItemKind::Skipped { names, reason: SkipReason::HostOnly, error: None }, start);
        }
        // Not device code: errors are not reported but kept in the Skipped item, so
        // statements do not recover (nothing is pushed to `diags`).
        if !scan.device {
            self.quiet += 1;
        }
        let r = self.parse_external_decl(DeclCtx::File);
        if !scan.device {
            self.quiet -= 1;
        }
        match r {
            Ok(kind) => self.item(kind, start),
            Err(d) => self.failed_item(start, d),
        }
    }

    /// A declaration or function definition at file/namespace scope or in a class.
    pub(super) fn parse_external_decl(&mut self, ctx: DeclCtx) -> PResult<ItemKind> {
        let start = self.pos;
        let spec = self.parse_decl_spec(ctx)?;
        if self.is(";") {
            self.bump();
            return Ok(ItemKind::Decl(Declaration { spec, declarators: Vec::new(), span: self.span_from(start) }));
        }
        let first = self.parse_declarator(NameReq::Named, ctx)?;
        let is_function = matches!(first.derived.first(), Some(Derived::Function(_)));
        if matches!(spec.ty, TypeSpec::None) && !is_function {
            return Err(match &first.name {
                Some(p) => Diagnostic::error(p.span, format!("unknown type name '{}'", p.last().name)),
                None => Diagnostic::error(first.span, "expected a type"),
            });
        }
        if is_function && (self.is("{") || self.is(":")) {
            return Ok(ItemKind::FunctionDef(self.parse_function_def(spec, first, start)?));
        }
        let declarators = self.parse_init_declarators(&spec, first, ctx)?;
        self.expect_after(";", "declaration")?;
        Ok(ItemKind::Decl(Declaration { spec, declarators, span: self.span_from(start) }))
    }

    /// `[: inits] { body }` after a function declarator.
    fn parse_function_def(&mut self, spec: DeclSpec, declarator: Declarator, start: usize) -> PResult<FunctionDef> {
        self.declare_declarator(&spec, &declarator);
        let mut ctor_inits = Vec::new();
        if self.eat(":") {
            loop {
                let Some(pk) = self.peek_name_at(0) else {
                    return Err(self.err_here(format!("expected a member name before {}", self.describe())));
                };
                let path = self.take_qualified(pk.len)?;
                let args = if self.is("{") {
                    let (items, span) = self.parse_init_list()?;
                    vec![Expr { kind: ExprKind::InitList(items), span }]
                } else {
                    self.expect("(")?;
                    let mut args = Vec::new();
                    while !self.is(")") {
                        args.push(self.parse_arg_or_pack()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                    self.expect(")")?;
                    args
                };
                ctor_inits.push((path.last().clone(), args));
                if !self.eat(",") {
                    break;
                }
            }
        }
        // An out-of-class member (`S::f`, `Vec<T>::sum`): the class's member types are
        // in scope in the body.
        let outer = self.ns_path.len();
        if let Some(p) = declarator.name.as_ref().filter(|p| p.segments.len() > 1) {
            for seg in &p.segments[..p.segments.len() - 1] {
                let text = self.src.get(seg.span.lo as usize..seg.span.hi as usize).unwrap_or("");
                if text == seg.name {
                    self.ns_path.push(text);
                }
            }
        }
        self.push_scope();
        self.declare_params(&declarator);
        let body = self.parse_block_in_scope();
        self.pop_scope();
        self.ns_path.truncate(outer);
        Ok(FunctionDef { spec, declarator, ctor_inits, body: body?, span: self.span_from(start) })
    }

    /// `namespace [a[::b]] { items }` (also `namespace a = b;`).
    fn parse_namespace(&mut self, start: usize) -> Item {
        let inline = self.text_of(self.tok(start)) == "inline";
        self.bump(); // `namespace`
        let mut attrs = Vec::new();
        if self.parse_attributes(&mut attrs).is_err() {
            return self.failed_namespace(start);
        }
        let mut names = Vec::new();
        while self.is_ident() {
            match self.ident() {
                Ok(id) => names.push(id),
                Err(_) => break,
            }
            if !self.eat("::") {
                break;
            }
            self.eat("inline");
        }
        if self.parse_attributes(&mut attrs).is_err() {
            return self.failed_namespace(start);
        }
        if self.is("=") && names.len() == 1 {
            let name = names.pop().unwrap();
            return self.parse_or_skip(start, |p| Ok(ItemKind::Using(p.parse_namespace_alias(name)?)));
        }
        if !self.is("{") {
            return self.failed_namespace(start);
        }
        self.bump();
        // Inline and anonymous namespaces are transparent to unqualified lookup.
        let transparent = inline || names.is_empty();
        let all: Vec<&'a str> = names.iter().map(|n| self.text_of(self.tok_for(n.span))).collect();
        let pushed: Vec<&'a str> = if inline { Vec::new() } else { all.clone() };
        self.ns_path.extend(pushed.iter().copied());
        // The names as written (inline ones too): `a::v1::X` names what `a::X` does.
        self.ns_path_written.extend(all.iter().copied());
        if !transparent {
            self.push_scope();
        }
        let items = self.parse_items_in_braces();
        if !transparent {
            self.pop_scope();
        }
        for _ in &pushed {
            self.ns_path.pop();
        }
        for _ in &all {
            self.ns_path_written.pop();
        }
        if !self.eat("}") {
            let sys = self.sm.is_system_header(self.tok(start).lo);
            if !sys {
                self.diags.push(self.err_here("expected '}' at end of namespace"));
            }
        }
        // `namespace a::b { ... }` becomes `a { b { ... } }`.
        let mut kind = ItemKind::Namespace { name: names.pop(), items, inline };
        while let Some(outer) = names.pop() {
            let inner = self.item(kind, start);
            kind = ItemKind::Namespace { name: Some(outer), items: vec![inner], inline: false };
        }
        self.item(kind, start)
    }

    pub(super) fn tok_for(&self, span: Span) -> crate::lex::Token {
        crate::lex::Token { kind: TokKind::Ident, lo: span.lo, hi: span.hi, line_start: false }
    }

    /// A namespace head we cannot read: skip through its braced body, silently unless it
    /// is in the user's code.
    fn failed_namespace(&mut self, start: usize) -> Item {
        let d = self.err_here(format!("expected '{{' after namespace name before {}", self.describe()));
        while !self.at_eof() && !self.is("{") && !self.is(";") {
            self.bump();
        }
        self.pos = if self.is("{") { self.skip_balanced(self.pos) } else { self.pos + 1 };
        let system = self.sm.is_system_header(self.tok(start).lo);
        let reason = if system { SkipReason::SystemHeader } else { SkipReason::HostOnly };
        if !system {
            self.diags.push(d.clone());
        }
        self.item(ItemKind::Skipped { names: Vec::new(), reason, error: Some(d) }, start)
    }

    /// `extern "C" { items }` or `extern "C" item`.
    fn parse_linkage(&mut self, start: usize) -> Item {
        self.bump(); // `extern`
        let lit = self.bump();
        let lang = crate::lit::parse_string(self.text_of(lit)).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default();
        if self.eat("{") {
            let items = self.parse_items_in_braces();
            self.eat("}");
            return self.item(ItemKind::LinkageSpec { lang, items }, start);
        }
        let mut items = Vec::new();
        self.parse_item_into(&mut items);
        self.item(ItemKind::LinkageSpec { lang, items }, start)
    }

    /// Skips `template<...> item` by balanced scanning (templates in system headers, host
    /// function templates, friend templates); its names become known as templates (so
    /// that `name<` is recognised later).
    pub(super) fn skip_template(&mut self, start: usize) -> Item {
        let kw_span = self.span();
        while self.is("template") {
            self.bump();
            if self.is("<") {
                self.pos = self.skip_angles(self.pos);
            }
        }
        let body_start = self.pos;
        let scan = self.scan_item(body_start);
        self.pos = scan.end.max(start + 1);
        let names = self.item_names(body_start, self.pos);
        self.declare_skipped_template_names(body_start, &names);
        let _ = kw_span;
        self.item(ItemKind::Skipped { names, reason: SkipReason::HostOnly, error: None }, start)
    }

    /// The source text of identifier `name` within tokens `[from, to)` (to declare it
    /// with the source's lifetime).
    pub(super) fn source_name(&self, from: usize, to: usize, name: &str) -> Option<&'a str> {
        (from..to).map(|i| self.text_of(self.tok(i))).find(|s| *s == name)
    }

    /// `using namespace n;`, `using T = type;`, `using ns::name;`: the alias
    /// declaration, if it is one.
    pub(super) fn parse_using(&mut self) -> PResult<Option<Declaration>> {
        Ok(self.parse_using_any()?.ok())
    }

    /// `using namespace n;`, `using T = type;` (a typedef), `using ns::name;`.
    pub(super) fn parse_using_any(&mut self) -> PResult<Result<Declaration, Using>> {
        let start = self.pos;
        self.bump(); // `using`
        if self.eat("namespace") {
            let Some((_, segs, len)) = self.peek_path() else {
                return Err(self.err_here(format!("expected a namespace name before {}", self.describe())));
            };
            let joined = segs.join("::");
            let path = self.take_path(len);
            self.expect_after(";", "using-directive")?;
            if !self.ns_path.is_empty() {
                self.namespace_usings.entry(self.ns_path.join("::")).or_default().push(joined.clone());
            }
            self.using_namespaces.insert(joined);
            return Ok(Err(Using::Directive(path)));
        }
        if self.is_ident() && (self.nth_is(1, "=") || (self.nth_is(1, "[") && self.nth_is(2, "["))) {
            let name = self.ident()?;
            let mut attrs = Vec::new();
            self.parse_attributes(&mut attrs)?;
            self.expect("=")?;
            let ty = self.parse_type_name()?;
            self.expect_after(";", "alias declaration")?;
            let src_name: &'a str = self.text_of(self.tok_for(name.span));
            self.declare_entity(src_name, NameKind::Type);
            let mut spec = ty.spec;
            spec.storage = Some(Storage::Typedef);
            let declarator = Declarator {
                name: Some(Path::new(false, vec![name.clone()], name.span)),
                pack: false,
                derived: ty.declarator.derived,
                attrs,
                span: ty.declarator.span,
            };
            return Ok(Ok(Declaration {
                spec,
                declarators: vec![InitDeclarator { declarator, init: None, bit_width: None }],
                span: self.span_from(start),
            }));
        }
        // `using ns::name;`: the name becomes visible here with its meaning.
        self.eat("typename");
        let Some((global, segs, len)) = self.peek_path() else {
            return Err(self.err_here(format!("expected a name after 'using' before {}", self.describe())));
        };
        let kind = self.lookup_path(global, &segs);
        let last: &'a str = segs[segs.len() - 1];
        let path = self.take_path(len);
        self.expect_after(";", "using-declaration")?;
        if let Some(k) = kind {
            self.declare(last, k);
        }
        Ok(Err(Using::Decl(path)))
    }

    /// After `namespace name`: `= a::b;` (a namespace alias). The names the parser knows
    /// in `a::b` become known through `name::` too.
    pub(super) fn parse_namespace_alias(&mut self, name: Ident) -> PResult<Using> {
        self.expect("=")?;
        let Some((global, segs, len)) = self.peek_path() else {
            return Err(self.err_here(format!("expected a namespace name before {}", self.describe())));
        };
        let mut target = segs.join("::");
        if !global {
            // Relative to the enclosing namespaces: the innermost that has names under it.
            for k in (1..=self.ns_path.len()).rev() {
                let full = format!("{}::{}", self.ns_path[..k].join("::"), target);
                let prefix = format!("{full}::");
                if self.qualified.keys().any(|q| q.starts_with(&prefix)) {
                    target = full;
                    break;
                }
            }
        }
        let path = self.take_path(len);
        self.expect_after(";", "namespace alias")?;
        let mut alias = self.ns_path.join("::");
        if !alias.is_empty() {
            alias.push_str("::");
        }
        alias.push_str(&name.name);
        let prefix = format!("{target}::");
        let copies: Vec<(String, NameKind)> = self
            .qualified
            .iter()
            .filter_map(|(q, k)| q.strip_prefix(&prefix).map(|rest| (format!("{alias}::{rest}"), *k)))
            .collect();
        self.qualified.extend(copies);
        Ok(Using::NamespaceAlias { name, target: path })
    }

    // ----- class bodies -------------------------------------------------------------

    /// `{ members }` of a struct, class or union named `name`.
    pub(super) fn parse_members(&mut self, name: Option<&Ident>) -> PResult<Vec<Member>> {
        let open = self.expect("{")?;
        let class_name: &'a str = match name {
            Some(n) => self.text_of(self.tok_for(n.span)),
            None => "",
        };
        self.class_stack.push(class_name);
        if !class_name.is_empty() {
            self.ns_path.push(class_name);
        }
        self.push_scope();
        let r = self.parse_member_list(open);
        self.pop_scope();
        if !class_name.is_empty() {
            self.ns_path.pop();
        }
        self.class_stack.pop();
        r
    }

    fn parse_member_list(&mut self, open: crate::lex::Token) -> PResult<Vec<Member>> {
        let mut members = Vec::new();
        loop {
            if self.eat("}") {
                return Ok(members);
            }
            if self.at_eof() {
                return Err(self
                    .err_here("expected '}' at end of input")
                    .with_note(Some(Span::new(open.lo, open.hi)), "to match this '{'"));
            }
            let start = self.pos;
            let t = self.peek();
            match self.text_of(t) {
                _ if t.kind == TokKind::Pragma => {
                    self.bump();
                }
                ";" => {
                    self.bump();
                }
                "public" | "private" | "protected" if self.nth_is(1, ":") => {
                    let acc = match self.text() {
                        "public" => AccessSpec::Public,
                        "private" => AccessSpec::Private,
                        _ => AccessSpec::Protected,
                    };
                    self.bump();
                    self.bump();
                    members.push(Member::Access(self.span_from(start), acc));
                }
                "static_assert" | "_Static_assert" => {
                    let (cond, message) = self.parse_static_assert()?;
                    members.push(Member::StaticAssert { cond, message });
                }
                "template" => {
                    // Member templates (a member template that fails to parse is dropped,
                    // its error reported if it is device code; the rest of the class is
                    // still usable).
                    if let Some(m) = self.parse_member_template() {
                        members.push(m);
                    }
                }
                "friend" => {
                    let scan = self.scan_item(start);
                    self.pos = scan.end;
                }
                "using" => {
                    if let Some(d) = self.parse_using()? {
                        members.push(Member::Field(d));
                    }
                }
                _ => members.push(self.parse_member()?),
            }
        }
    }

    pub(super) fn parse_member(&mut self) -> PResult<Member> {
        let start = self.pos;
        let spec = self.parse_decl_spec(DeclCtx::Member)?;
        if self.is(";") {
            self.bump();
            return Ok(Member::Field(Declaration { spec, declarators: Vec::new(), span: self.span_from(start) }));
        }
        // Unnamed bit-field `int : 3;`.
        let first = if self.is(":") {
            Declarator { span: self.span(), ..Default::default() }
        } else {
            self.parse_declarator(NameReq::Either, DeclCtx::Member)?
        };
        let is_function = matches!(first.derived.first(), Some(Derived::Function(_)));
        if matches!(spec.ty, TypeSpec::None) && !is_function {
            return Err(match &first.name {
                Some(p) => Diagnostic::error(p.span, format!("unknown type name '{}'", p.last().name)),
                None => Diagnostic::error(first.span, "expected a member declaration"),
            });
        }
        if is_function && (self.is("{") || self.is(":")) {
            // Host-only member functions are parsed quietly: if their body fails, it is
            // dropped (device code cannot call them anyway).
            let device = spec.cuda.device || spec.cuda.global;
            if device {
                // Device code: report errors and recover, even inside a host item.
                let quiet = std::mem::replace(&mut self.quiet, 0);
                let r = self.parse_function_def(spec, first, start);
                self.quiet = quiet;
                return Ok(Member::Function(r?));
            }
            let body_start = self.pos;
            self.quiet += 1;
            let r = self.parse_function_def(spec.clone(), first.clone(), start);
            self.quiet -= 1;
            return Ok(Member::Function(match r {
                Ok(f) => f,
                Err(_) => {
                    self.pos = self.skip_function_body(body_start);
                    let span = self.span_from(body_start);
                    FunctionDef { spec, declarator: first, ctor_inits: Vec::new(), body: Block { stmts: Vec::new(), span }, span: self.span_from(start) }
                }
            }));
        }
        let declarators = self.parse_init_declarators(&spec, first, DeclCtx::Member)?;
        self.expect_after(";", "member declaration")?;
        let decl = Declaration { spec, declarators, span: self.span_from(start) };
        if is_function && decl.declarators.len() == 1 {
            Ok(Member::FunctionDecl(decl))
        } else {
            Ok(Member::Field(decl))
        }
    }

    /// From `{` or the `:` of a constructor's initializers at token `from`, the index
    /// just past the function body.
    fn skip_function_body(&self, from: usize) -> usize {
        let mut i = from;
        let mut prev = "";
        loop {
            let t = self.tok(i);
            if t.kind == TokKind::Eof {
                return i;
            }
            let s = self.text_of(t);
            match s {
                "{" if i == from || matches!(prev, ")" | "}") => return self.skip_balanced(i),
                "(" | "{" | "[" => {
                    i = self.skip_balanced(i);
                    prev = if s == "{" { "}" } else { ")" };
                    continue;
                }
                ";" | "}" => return i,
                _ => {}
            }
            prev = s;
            i += 1;
        }
    }
}
