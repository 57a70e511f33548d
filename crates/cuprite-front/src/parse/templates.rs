//! C++ templates: `template <...>` declarations, template parameter lists, template-ids
//! (names with template arguments) and the `>`/`>>` rules of argument lists.
//!
//! - Which names are templates is the parser's business (as which names are types): a
//!   class or alias template is `NameKind::TypeTemplate`, a function or variable template
//!   `NameKind::Template`; `name<` starts template arguments only after such a name, or
//!   after the `template` keyword (`T::template X<U>`, `obj.template f<1>()`), as in C++.
//! - A template argument that parses as a type-id is a type; otherwise it is a constant
//!   expression in which `>` and `>>` end the list (`Parser::no_gt`), except inside
//!   brackets.
//! - A `>>` (or `>=`, `>>=`) that closes a list is split into `>` and the rest in the
//!   token vector; splits are logged so that backtracking (`Checkpoint`) undoes them.
//! - The name a template declares goes to the scope around its parameter scope
//!   (`Parser::template_entity`), as a template.

use super::decl::{DeclCtx, NameReq};
use super::{NameKind, PResult, Parser};
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lex::{TokKind, Token};

/// A name seen by lookahead, template arguments skipped over.
pub(super) struct NamePeek<'a> {
    pub segs: Vec<&'a str>,
    /// Number of tokens, template argument lists included.
    pub len: usize,
    /// What the segments (arguments ignored) name, as far as the parser knows.
    pub kind: Option<NameKind>,
    /// The name ends inside its last token: the first `>` of a `>>` closes its last
    /// argument list, the second one belongs to an enclosing list (`A<B<int>>`).
    pub half: bool,
}

/// Where to go back to when a tentative parse fails.
#[derive(Clone, Copy)]
pub(super) struct Checkpoint {
    pos: usize,
    diags: usize,
    splits: usize,
}

impl<'a> Parser<'a> {
    // ----- backtracking ----------------------------------------------------------------

    pub(super) fn checkpoint(&self) -> Checkpoint {
        Checkpoint { pos: self.pos, diags: self.diags.len(), splits: self.splits.len() }
    }

    pub(super) fn restore(&mut self, cp: Checkpoint) {
        while self.splits.len() > cp.splits {
            let Some(i) = self.splits.pop() else { break };
            // Merge the two halves back into the token they came from.
            if i + 1 < self.toks.len() {
                let second = self.toks.remove(i + 1);
                self.toks[i].hi = second.hi;
            }
        }
        self.pos = cp.pos;
        self.diags.truncate(cp.diags);
    }

    // ----- closing angle brackets -------------------------------------------------------

    /// The current token closes a template argument or parameter list: `>`, or `>>`,
    /// `>=`, `>>=` whose first `>` does.
    pub(super) fn at_close_angle(&self) -> bool {
        self.kind() == TokKind::Punct && matches!(self.text(), ">" | ">>" | ">=" | ">>=")
    }

    /// Consumes the `>` that closes a list, splitting `>>` (C++11), `>=` and `>>=`.
    pub(super) fn expect_close_angle(&mut self) -> PResult<()> {
        if !self.at_close_angle() {
            return Err(self.err_here(format!("expected '>' before {}", self.describe())));
        }
        let t = self.peek();
        if t.hi - t.lo > 1 {
            let first = Token { kind: TokKind::Punct, lo: t.lo, hi: t.lo + 1, line_start: t.line_start };
            let rest = Token { kind: TokKind::Punct, lo: t.lo + 1, hi: t.hi, line_start: false };
            self.toks[self.pos] = first;
            self.toks.insert(self.pos + 1, rest);
            self.splits.push(self.pos);
        }
        self.bump();
        Ok(())
    }

    /// Runs `f` with `>` an operator again (inside brackets within template arguments).
    pub(super) fn with_gt<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = std::mem::replace(&mut self.no_gt, false);
        let r = f(self);
        self.no_gt = saved;
        r
    }

    pub(super) fn with_no_gt<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = std::mem::replace(&mut self.no_gt, true);
        let r = f(self);
        self.no_gt = saved;
        r
    }

    // ----- names with template arguments ------------------------------------------------

    /// From `<` at token index `i`, the index just past the `>` that closes it, if the
    /// list is closed before anything that cannot be in it (`;`, `{`, `}`, `)`); and
    /// whether only the first `>` of that last token closes it (`>>` closing one list).
    fn match_angles(&self, i: usize) -> Option<(usize, bool)> {
        let mut angle = 0i32;
        let mut j = i;
        loop {
            let t = self.tok(j);
            if t.kind == TokKind::Eof {
                return None;
            }
            if t.kind == TokKind::Punct {
                match self.text_of(t) {
                    "<" => angle += 1,
                    ">" | ">=" => angle -= 1,
                    ">>" | ">>=" => angle -= 2,
                    "(" | "[" => {
                        j = self.skip_balanced(j);
                        continue;
                    }
                    ";" | "{" | "}" | ")" | "]" => return None,
                    _ => {}
                }
            }
            j += 1;
            if angle <= 0 {
                return Some((j, angle < 0));
            }
        }
    }

    /// Looks ahead at a possibly qualified name starting `at` tokens ahead, with template
    /// arguments (`ns::Vec<float, 3>::type`, `T::template X<U>`), without consuming it.
    pub(super) fn peek_name_at(&self, at: usize) -> Option<NamePeek<'a>> {
        let mut n = at;
        let global = self.nth_is(n, "::");
        if global {
            n += 1;
        }
        let mut segs: Vec<&'a str> = Vec::new();
        let mut half = false;
        // Token count up to the end of the last complete segment.
        let mut end = n;
        loop {
            let mut kw = false;
            if (global || !segs.is_empty()) && self.nth_is(n, "template") {
                kw = true;
                n += 1;
            }
            let t = self.tok(self.pos + n);
            if t.kind != TokKind::Ident || super::is_reserved(self.text_of(t)) {
                break;
            }
            segs.push(self.text_of(t));
            n += 1;
            if self.nth_is(n, "<") {
                let templ = kw || matches!(self.lookup_path(global, &segs), Some(NameKind::Template | NameKind::TypeTemplate));
                if templ {
                    if let Some((j, h)) = self.match_angles(self.pos + n) {
                        n = j - self.pos;
                        half = h;
                    }
                }
            }
            end = n;
            let next = self.tok(self.pos + n + 1);
            if !half
                && self.nth_is(n, "::")
                && ((next.kind == TokKind::Ident && !super::is_reserved(self.text_of(next))) || self.nth_is(n + 1, "template"))
            {
                n += 1;
                continue;
            }
            break;
        }
        if segs.is_empty() {
            return None;
        }
        let kind = self.lookup_path(global, &segs);
        Some(NamePeek { segs, len: end - at, kind, half })
    }

    /// Consumes a name of `len` tokens as measured by `peek_name_at`, parsing its
    /// template arguments.
    pub(super) fn take_qualified(&mut self, len: usize) -> PResult<Path> {
        let start = self.pos;
        let splits = self.splits.len();
        let end = |p: &Self| start + len + (p.splits.len() - splits);
        let global = self.eat("::");
        let mut segments = Vec::new();
        let mut args: Vec<Option<Vec<TemplateArg>>> = Vec::new();
        while self.pos < end(self) {
            self.eat("template");
            segments.push(self.ident()?);
            if self.is("<") && self.pos < end(self) {
                args.push(Some(self.parse_template_args()?));
            } else {
                args.push(None);
            }
            // (A `>>` split in the arguments may leave its second `>` inside `len`.)
            if self.pos < end(self) && self.is("::") {
                self.bump();
            } else {
                break;
            }
        }
        if segments.is_empty() {
            return Err(self.err_here(format!("expected a name before {}", self.describe())));
        }
        if !args.iter().any(Option::is_some) {
            args.clear();
        }
        Ok(Path { global, segments, args, span: self.span_from(start) })
    }

    /// `< args >` of a template-id (at `<`).
    pub(super) fn parse_template_args(&mut self) -> PResult<Vec<TemplateArg>> {
        self.nested(|p| p.with_no_gt(|p| p.parse_template_args_inner()))
    }

    fn parse_template_args_inner(&mut self) -> PResult<Vec<TemplateArg>> {
        self.expect("<")?;
        let mut args = Vec::new();
        if !self.at_close_angle() {
            loop {
                let mut a = self.parse_template_arg()?;
                if self.eat("...") {
                    a = TemplateArg::Pack(Box::new(a));
                }
                args.push(a);
                if !self.eat(",") {
                    break;
                }
            }
        }
        if !self.at_close_angle() {
            return Err(self.err_here(format!("expected '>' or ',' in template argument list before {}", self.describe())));
        }
        self.expect_close_angle()?;
        Ok(args)
    }

    /// A type-id if one parses up to the end of the argument, else a constant expression.
    fn parse_template_arg(&mut self) -> PResult<TemplateArg> {
        if self.starts_type_name_at(0) {
            let cp = self.checkpoint();
            match self.parse_type_name() {
                Ok(ty) if self.is(",") || self.is("...") || self.at_close_angle() => return Ok(TemplateArg::Type(ty)),
                _ => self.restore(cp),
            }
        }
        Ok(TemplateArg::Expr(self.parse_cond()?))
    }

    // ----- declaring templates ------------------------------------------------------------

    /// Declares the name of the entity a template declares (or an ordinary name when no
    /// template is pending): a type becomes a type template, anything else a template.
    pub(super) fn declare_entity(&mut self, name: &'a str, kind: NameKind) {
        match self.template_entity.take() {
            Some(scope) => {
                let kind = if kind == NameKind::Type { NameKind::TypeTemplate } else { NameKind::Template };
                if let Some(s) = self.scopes.get_mut(scope) {
                    s.insert(name, kind);
                }
                if !self.ns_path.is_empty() {
                    let q = format!("{}::{}", self.ns_path.join("::"), name);
                    self.qualified.insert(q, kind);
                }
                if self.ns_path_written.len() != self.ns_path.len() {
                    let q = format!("{}::{}", self.ns_path_written.join("::"), name);
                    self.qualified.insert(q, kind);
                }
                if !self.class_stack.is_empty() && kind == NameKind::Template {
                    self.member_templates.insert(name);
                }
            }
            None => self.declare(name, kind),
        }
    }

    // ----- template declarations ----------------------------------------------------------

    /// `template <...> item`, `template decl;` (explicit instantiation), and with
    /// `is_extern` `extern template decl;`, at `template`. Templates in system headers,
    /// host function templates and templates that fail to parse are skipped.
    pub(super) fn template_item(&mut self, start: usize, is_extern: bool) -> Item {
        let in_system = self.sm.is_system_header(self.peek().lo);
        let scan = self.scan_template(self.pos);
        if in_system || (scan.is_function_def && !scan.device) {
            return self.skip_template(start);
        }
        let cp = self.checkpoint();
        let saved = (self.scopes.len(), self.ns_path.len(), self.class_stack.len(), self.template_depth, self.no_gt);
        if !scan.device {
            self.quiet += 1;
        }
        let r = self.parse_template_decl(DeclCtx::File, is_extern);
        if !scan.device {
            self.quiet -= 1;
        }
        match r {
            Ok(kind) => self.item(kind, start),
            Err(d) => {
                self.scopes.truncate(saved.0);
                self.ns_path.truncate(saved.1);
                self.class_stack.truncate(saved.2);
                self.template_depth = saved.3;
                self.no_gt = saved.4;
                self.template_entity = None;
                self.restore(cp);
                self.skip_template_with_error(start, d)
            }
        }
    }

    /// The extent of the item after `template <...>` headers starting at `at`.
    fn scan_template(&self, at: usize) -> super::skip::ItemScan {
        let mut i = at;
        while self.text_of(self.tok(i)) == "template" {
            i += 1;
            if self.text_of(self.tok(i)) == "<" {
                i = self.skip_angles(i);
            }
        }
        self.scan_item(i)
    }

    /// `template [<params>] declaration` at `template`: the item's kind.
    fn parse_template_decl(&mut self, ctx: DeclCtx, is_extern: bool) -> PResult<ItemKind> {
        let kw = self.span();
        self.expect("template")?;
        if !self.is("<") {
            // Explicit instantiation.
            let inner_start = self.pos;
            let kind = self.parse_external_decl(ctx)?;
            let item = self.item(kind, inner_start);
            return Ok(ItemKind::ExplicitInstantiation { is_extern, item: Box::new(item) });
        }
        if is_extern {
            return Err(Diagnostic::error(kw, "expected a declaration after 'extern template'"));
        }
        let enclosing = self.scopes.len() - 1;
        self.push_scope();
        let r = self.parse_template_rest(ctx, enclosing);
        self.pop_scope();
        self.template_entity = None;
        let (params, item) = r?;
        Ok(ItemKind::Template { params, item: Box::new(item) })
    }

    fn parse_template_rest(&mut self, ctx: DeclCtx, enclosing: usize) -> PResult<(Vec<TemplateParam>, Item)> {
        let params = self.parse_template_params()?;
        self.template_depth += 1;
        self.template_entity = Some(enclosing);
        let inner_start = self.pos;
        let r = (|| -> PResult<ItemKind> {
            match self.text() {
                "template" => self.parse_template_decl(ctx, false),
                "using" => match self.parse_using()? {
                    Some(d) => Ok(ItemKind::Decl(d)),
                    None => Err(Diagnostic::error(self.span_from(inner_start), "expected an alias declaration after a template parameter list")),
                },
                "concept" | "requires" => Err(self.err_here(format!("'{}' (C++20 concepts) is not supported yet", self.text()))),
                "friend" => Err(self.err_here("friend templates are not supported yet")),
                _ => self.parse_external_decl(ctx),
            }
        })();
        self.template_depth -= 1;
        Ok((params, self.item(r?, inner_start)))
    }

    /// `< params >` at `<`; declares the parameters in the current scope.
    pub(super) fn parse_template_params(&mut self) -> PResult<Vec<TemplateParam>> {
        self.template_depth += 1;
        let r = self.parse_template_params_inner();
        self.template_depth -= 1;
        r
    }

    fn parse_template_params_inner(&mut self) -> PResult<Vec<TemplateParam>> {
        self.with_no_gt(|p| {
            p.expect("<")?;
            let mut params = Vec::new();
            if !p.at_close_angle() {
                loop {
                    params.push(p.parse_template_param()?);
                    if !p.eat(",") {
                        break;
                    }
                }
            }
            if !p.at_close_angle() {
                return Err(p.err_here(format!("expected '>' or ',' in template parameter list before {}", p.describe())));
            }
            p.expect_close_angle()?;
            Ok(params)
        })
    }

    fn opt_param_name(&mut self) -> Option<Ident> {
        if self.is_ident() && !super::is_reserved(self.text()) {
            self.ident().ok()
        } else {
            None
        }
    }

    fn parse_template_param(&mut self) -> PResult<TemplateParam> {
        let start = self.pos;
        let s = self.text();
        // `typename T::type N` is a non-type parameter of a dependent type.
        let dependent_type = s == "typename" && (self.nth_is(2, "::") || self.nth_is(1, "::"));
        if matches!(s, "typename" | "class") && !dependent_type {
            self.bump();
            let pack = self.eat("...");
            let name = self.opt_param_name();
            let default = if self.eat("=") { Some(self.parse_type_name()?) } else { None };
            if let Some(n) = &name {
                let n: &'a str = self.text_of(self.tok_for(n.span));
                self.declare(n, NameKind::Type);
            }
            return Ok(TemplateParam { name, kind: TemplateParamKind::Type { default }, pack, span: self.span_from(start) });
        }
        if s == "template" {
            self.bump();
            self.push_scope();
            let params = self.parse_template_params();
            self.pop_scope();
            let params = params?;
            if !(self.eat("class") || self.eat("typename")) {
                return Err(self.err_here(format!("expected 'class' or 'typename' before {}", self.describe())));
            }
            let pack = self.eat("...");
            let name = self.opt_param_name();
            let default = if self.eat("=") {
                let Some(pk) = self.peek_name_at(0) else {
                    return Err(self.err_here(format!("expected a template name before {}", self.describe())));
                };
                Some(self.take_qualified(pk.len)?)
            } else {
                None
            };
            if let Some(n) = &name {
                let n: &'a str = self.text_of(self.tok_for(n.span));
                self.declare(n, NameKind::TypeTemplate);
            }
            return Ok(TemplateParam { name, kind: TemplateParamKind::Template { params, default }, pack, span: self.span_from(start) });
        }
        if matches!(s, "concept" | "requires") {
            return Err(self.err_here(format!("'{s}' (C++20 concepts) is not supported yet")));
        }
        // A non-type parameter: `int N`, `auto V`, `unsigned... Is`, `T *P = nullptr`.
        let spec = self.parse_decl_spec(DeclCtx::Param)?;
        if matches!(spec.ty, TypeSpec::None) {
            return Err(match self.peek_path() {
                Some((_, segs, _)) => self.err_here(format!("unknown type name '{}'", segs.join("::"))),
                None => self.err_here(format!("expected a template parameter before {}", self.describe())),
            });
        }
        let mut d = self.parse_declarator(NameReq::Either, DeclCtx::Param)?;
        let name = match d.name.take() {
            Some(p) if p.segments.len() == 1 && !p.global => p.segments.into_iter().next(),
            Some(p) => return Err(Diagnostic::error(p.span, "a template parameter name cannot be qualified")),
            None => None,
        };
        let pack = std::mem::take(&mut d.pack);
        let default = if self.eat("=") { Some(self.parse_cond()?) } else { None };
        if let Some(n) = &name {
            let n: &'a str = self.text_of(self.tok_for(n.span));
            self.declare(n, NameKind::Value);
        }
        let ty_span = Span::new(spec.span.lo, d.span.hi.max(spec.span.hi));
        let ty = TypeName { spec, declarator: d, span: ty_span };
        Ok(TemplateParam { name, kind: TemplateParamKind::NonType { ty, default }, pack, span: self.span_from(start) })
    }

    /// A member template in a class body (at `template`): `None` if it is skipped
    /// (friend templates; errors in host code, and errors in device code, reported).
    pub(super) fn parse_member_template(&mut self) -> Option<Member> {
        let start = self.pos;
        let scan = self.scan_template(start);
        let in_system = self.sm.is_system_header(self.peek().lo);
        let friend = {
            let mut i = start;
            while self.text_of(self.tok(i)) == "template" {
                i += 1;
                if self.text_of(self.tok(i)) == "<" {
                    i = self.skip_angles(i);
                }
            }
            self.text_of(self.tok(i)) == "friend"
        };
        if in_system || friend {
            self.skip_template(start);
            return None;
        }
        let cp = self.checkpoint();
        let saved = (self.scopes.len(), self.ns_path.len(), self.class_stack.len(), self.template_depth, self.no_gt);
        match self.parse_member_template_inner() {
            Ok(m) => Some(m),
            Err(d) => {
                self.scopes.truncate(saved.0);
                self.ns_path.truncate(saved.1);
                self.class_stack.truncate(saved.2);
                self.template_depth = saved.3;
                self.no_gt = saved.4;
                self.template_entity = None;
                self.restore(cp);
                self.pos = scan.end.max(start + 1);
                let names = self.item_names(start, self.pos);
                self.declare_skipped_template_names(start, &names);
                if scan.device {
                    self.diags.push(d);
                }
                None
            }
        }
    }

    fn parse_member_template_inner(&mut self) -> PResult<Member> {
        let start = self.pos;
        self.expect("template")?;
        if !self.is("<") {
            return Err(self.err_here("explicit instantiations are not allowed in a class"));
        }
        let enclosing = self.scopes.len() - 1;
        self.push_scope();
        let r = (|| -> PResult<(Vec<TemplateParam>, Member)> {
            let params = self.parse_template_params()?;
            self.template_depth += 1;
            self.template_entity = Some(enclosing);
            let m = match self.text() {
                "template" => self.parse_member_template_inner(),
                "using" => match self.parse_using()? {
                    Some(d) => Ok(Member::Field(d)),
                    None => Err(self.err_here("expected an alias declaration after a template parameter list")),
                },
                _ => self.parse_member(),
            };
            self.template_depth -= 1;
            Ok((params, m?))
        })();
        self.pop_scope();
        self.template_entity = None;
        let (params, member) = r?;
        Ok(Member::Template { params, member: Box::new(member), span: self.span_from(start) })
    }

    /// A template that is skipped after a failed parse: its error is reported if it is
    /// device code; its names stay known as templates.
    fn skip_template_with_error(&mut self, start: usize, d: Diagnostic) -> Item {
        let scan = self.scan_template(start);
        self.pos = scan.end.max(start + 1);
        let names = self.item_names(start, self.pos);
        self.declare_skipped_template_names(start, &names);
        let reason = if scan.device {
            self.diags.push(d.clone());
            SkipReason::Unsupported
        } else {
            SkipReason::HostOnly
        };
        self.item(ItemKind::Skipped { names, reason, error: Some(d) }, start)
    }

    /// Declares the names a skipped template (tokens from `start` to the current
    /// position) declares: class and alias templates as type templates, others as
    /// templates.
    pub(super) fn declare_skipped_template_names(&mut self, start: usize, names: &[String]) {
        let mut i = start;
        while self.text_of(self.tok(i)) == "template" {
            i += 1;
            if self.text_of(self.tok(i)) == "<" {
                i = self.skip_angles(i);
            }
        }
        let head = self.text_of(self.tok(i));
        let kind = if matches!(head, "struct" | "class" | "union" | "using") { NameKind::TypeTemplate } else { NameKind::Template };
        let end = self.pos;
        for n in names {
            // A specialization or out-of-class member does not redeclare its template.
            if let Some(name) = self.source_name(i, end, n) {
                if self.lookup_unqualified(name).is_none() || kind == NameKind::TypeTemplate {
                    self.declare(name, kind);
                }
            }
        }
    }
}

/// Reads a template argument list written as text (`float, (unsigned int)128`, as a
/// demangler prints the arguments of a specialization), the names in `names` known as
/// what they are (qualified names as `ns::Vec`). For the driver's lazy instantiation of
/// kernel templates from the host object's symbols.
pub(crate) fn parse_args_text(text: &str, names: &[(String, NameKind)]) -> PResult<Vec<TemplateArg>> {
    let src = format!("<{text}>");
    let mut b = crate::source_map::SourceMapBuilder::default();
    let toks = crate::lex::lex(&src, &mut b);
    let sm = b.finish(&src);
    let mut p = Parser::new(&src, toks, &sm);
    for (n, k) in names {
        if n.contains("::") {
            p.qualified.insert(n.clone(), *k);
        } else if let Some(s) = p.scopes.first_mut() {
            s.insert(n.as_str(), *k);
        }
    }
    let args = p.parse_template_args()?;
    if !p.at_eof() {
        return Err(p.err_here(format!("unexpected {} after the template arguments", p.describe())));
    }
    Ok(args)
}
