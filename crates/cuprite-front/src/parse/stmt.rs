//! Statements and blocks, with recovery: a statement that fails to parse is reported and
//! skipped, and the block goes on with the next one.

use super::decl::{DeclCtx, NameReq};
use super::{PResult, Parser};
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lex::TokKind;

impl<'a> Parser<'a> {
    /// `{ stmts }` in a new scope.
    pub(super) fn parse_block(&mut self) -> PResult<Block> {
        self.push_scope();
        let r = self.parse_block_in_scope();
        self.pop_scope();
        r
    }

    /// `{ stmts }` without opening a scope (function bodies share the parameters' scope).
    pub(super) fn parse_block_in_scope(&mut self) -> PResult<Block> {
        let start = self.pos;
        let open = self.expect("{")?;
        let mut stmts = Vec::new();
        loop {
            if self.is("}") {
                self.bump();
                break;
            }
            if self.at_eof() {
                return Err(self
                    .err_here("expected '}' at end of input")
                    .with_note(Some(Span::new(open.lo, open.hi)), "to match this '{'"));
            }
            let stmt_start = self.pos;
            match self.parse_stmt() {
                Ok(s) => stmts.push(s),
                Err(d) => {
                    if self.quiet > 0 {
                        return Err(d);
                    }
                    self.diags.push(d);
                    let err_pos = self.pos;
                    self.recover_stmt(stmt_start, err_pos);
                }
            }
        }
        Ok(Block { stmts, span: self.span_from(start) })
    }

    /// Skips the statement that starts at `start` and failed at `err_pos`, by balanced
    /// brackets: up to and including `;`, or past a braced body that ends a compound
    /// statement, or up to the `}` that closes the enclosing block.
    fn recover_stmt(&mut self, start: usize, err_pos: usize) {
        self.pos = start;
        let compound = matches!(self.text(), "if" | "for" | "while" | "do" | "switch" | "{" | "else" | "try");
        let mut depth = 0usize;
        loop {
            let t = self.peek();
            let past_error = self.pos >= err_pos;
            match (t.kind, self.text_of(t)) {
                (TokKind::Eof, _) => return,
                (TokKind::Pragma, _) if depth == 0 && self.pos > start => return,
                (TokKind::Punct, "(" | "[" | "{") => depth += 1,
                (TokKind::Punct, ")" | "]") => depth = depth.saturating_sub(1),
                (TokKind::Punct, "}") => {
                    if depth == 0 {
                        if self.pos == start {
                            self.bump();
                        }
                        return;
                    }
                    depth -= 1;
                    if depth == 0 && compound && past_error && !matches!(self.nth_text(1), "else" | "while" | ";") {
                        self.bump();
                        return;
                    }
                }
                (TokKind::Punct, ";") if depth == 0 && (past_error || !compound) => {
                    self.bump();
                    if past_error {
                        return;
                    }
                    continue;
                }
                _ => {}
            }
            self.bump();
        }
    }

    pub(super) fn parse_stmt(&mut self) -> PResult<Stmt> {
        self.nested(|p| p.parse_stmt_inner())
    }

    fn parse_stmt_inner(&mut self) -> PResult<Stmt> {
        let start = self.pos;
        let t = self.peek();
        if t.kind == TokKind::Pragma {
            self.bump();
            return Ok(Stmt { kind: StmtKind::Pragma(self.pragma_text(t)), span: Span::new(t.lo, t.hi) });
        }
        let kind = match (t.kind, self.text_of(t)) {
            (TokKind::Punct, "{") => StmtKind::Block(self.parse_block()?),
            (TokKind::Punct, ";") => {
                self.bump();
                StmtKind::Empty
            }
            (TokKind::Ident, kw) => match kw {
                "if" => self.parse_if()?,
                "while" => {
                    self.bump();
                    let cond = self.parse_paren_cond()?;
                    let body = Box::new(self.parse_sub_stmt()?);
                    StmtKind::While { cond, body }
                }
                "do" => {
                    self.bump();
                    let body = Box::new(self.parse_sub_stmt()?);
                    if !self.is("while") {
                        return Err(self.err_here(format!("expected 'while' in do-while loop before {}", self.describe())));
                    }
                    self.bump();
                    let cond = self.parse_paren_cond()?;
                    self.expect_after(";", "do-while statement")?;
                    StmtKind::DoWhile { body, cond }
                }
                "for" => self.parse_for()?,
                "switch" => {
                    self.bump();
                    let cond = self.parse_paren_cond()?;
                    let body = Box::new(self.parse_sub_stmt()?);
                    StmtKind::Switch { cond, body }
                }
                "case" => {
                    self.bump();
                    let value = self.parse_cond()?;
                    if self.is("...") {
                        return Err(self.err_here("case ranges are not supported"));
                    }
                    self.expect(":")?;
                    StmtKind::Case { value, body: Box::new(self.parse_labeled_body()?) }
                }
                "default" => {
                    self.bump();
                    self.expect(":")?;
                    StmtKind::Default { body: Box::new(self.parse_labeled_body()?) }
                }
                "break" | "continue" => {
                    self.bump();
                    self.expect_after(";", &format!("'{kw}'"))?;
                    if kw == "break" {
                        StmtKind::Break
                    } else {
                        StmtKind::Continue
                    }
                }
                "return" => {
                    self.bump();
                    let value = if self.is(";") { None } else { Some(self.parse_return_value()?) };
                    self.expect_after(";", "return statement")?;
                    StmtKind::Return(value)
                }
                "goto" => {
                    self.bump();
                    if self.is("*") {
                        return Err(self.err_here("computed goto is not supported"));
                    }
                    let label = self.ident()?;
                    self.expect_after(";", "goto statement")?;
                    StmtKind::Goto(label)
                }
                "static_assert" | "_Static_assert" => {
                    let (cond, message) = self.parse_static_assert()?;
                    StmtKind::StaticAssert { cond, message }
                }
                "asm" | "__asm__" | "__asm" => StmtKind::Asm(Box::new(self.parse_asm()?)),
                "try" | "catch" => {
                    return Err(self.err_here("exception handling ('try') in device code is not supported"));
                }
                "template" => return Err(self.err_here("templates in device code are not supported yet")),
                "using" => return self.parse_block_using(start),
                "namespace" if self.nth_kind(1) == TokKind::Ident && self.nth_is(2, "=") => {
                    self.bump();
                    let name = self.ident()?;
                    StmtKind::Using(self.parse_namespace_alias(name)?)
                }
                "__extension__" => {
                    self.bump();
                    return self.parse_stmt();
                }
                "_Pragma" if self.nth_is(1, "(") => StmtKind::Pragma(self.parse_pragma_operator()?),
                _ if self.nth_is(1, ":") && !self.nth_is(2, ":") && !super::is_reserved(kw) => {
                    let label = self.ident()?;
                    self.bump();
                    StmtKind::Label { label, body: Box::new(self.parse_labeled_body()?) }
                }
                _ if self.starts_block_decl() => StmtKind::Decl(self.parse_block_decl()?),
                _ => self.parse_expr_stmt()?,
            },
            (TokKind::Punct, "::") if self.starts_block_decl() => StmtKind::Decl(self.parse_block_decl()?),
            _ => self.parse_expr_stmt()?,
        };
        Ok(Stmt { kind, span: self.span_from(start) })
    }

    fn parse_expr_stmt(&mut self) -> PResult<StmtKind> {
        // `foo x;` where `foo` is not a known type: say so rather than "expected ';'".
        if let Some((global, segs, len)) = self.peek_path() {
            let next = self.tok(self.pos + len);
            if next.kind == TokKind::Ident
                && !super::is_reserved(self.text_of(next))
                && self.lookup_path(global, &segs).is_none()
                && matches!(self.nth_text(len + 1), ";" | "=" | "," | "[" | "(" | "{")
            {
                return Err(self.err_here(format!("unknown type name '{}'", segs.join("::"))));
            }
        }
        let e = self.parse_expr()?;
        self.expect_after(";", "expression")?;
        Ok(StmtKind::Expr(e))
    }

    fn parse_return_value(&mut self) -> PResult<Expr> {
        if self.is("{") {
            let (items, span) = self.parse_init_list()?;
            return Ok(Expr { kind: ExprKind::InitList(items), span });
        }
        self.parse_expr()
    }

    /// The body of a sub-statement (`if`, loops) gets its own scope, as in C++.
    fn parse_sub_stmt(&mut self) -> PResult<Stmt> {
        self.push_scope();
        let r = self.parse_stmt();
        self.pop_scope();
        r
    }

    /// The statement after a label; a label before `}` labels an empty statement (C23).
    fn parse_labeled_body(&mut self) -> PResult<Stmt> {
        if self.is("}") {
            let span = Span::new(self.span().lo, self.span().lo);
            return Ok(Stmt { kind: StmtKind::Empty, span });
        }
        self.parse_stmt()
    }

    fn parse_if(&mut self) -> PResult<StmtKind> {
        self.bump();
        let is_constexpr = self.eat("constexpr");
        let cond = self.parse_paren_cond()?;
        let then = Box::new(self.parse_sub_stmt()?);
        let else_ = if self.eat("else") { Some(Box::new(self.parse_sub_stmt()?)) } else { None };
        if is_constexpr {
            return Ok(StmtKind::IfConstexpr { cond, then, else_ });
        }
        Ok(StmtKind::If { cond, then, else_ })
    }

    /// `( expression )` of `if`, `while`, `switch`.
    fn parse_paren_cond(&mut self) -> PResult<Expr> {
        self.expect("(")?;
        if self.starts_block_decl() {
            return Err(self.err_here("declarations in conditions are not supported yet"));
        }
        let e = self.parse_expr()?;
        if self.is(";") {
            return Err(self.err_here("init-statements in conditions are not supported yet"));
        }
        self.expect(")")?;
        Ok(e)
    }

    fn parse_for(&mut self) -> PResult<StmtKind> {
        self.bump();
        self.expect("(")?;
        self.push_scope();
        let r = self.parse_for_rest();
        self.pop_scope();
        r
    }

    fn parse_for_rest(&mut self) -> PResult<StmtKind> {
        let init_start = self.pos;
        let init = if self.eat(";") {
            None
        } else if self.starts_block_decl() {
            let spec = self.parse_decl_spec(DeclCtx::Block)?;
            let first = self.parse_declarator(NameReq::Named, DeclCtx::Block)?;
            if self.is(":") {
                // `for (decl : range) body`
                self.bump();
                self.declare_declarator(&spec, &first);
                let range = if self.is("{") {
                    let (items, span) = self.parse_init_list()?;
                    Expr { kind: ExprKind::InitList(items), span }
                } else {
                    self.parse_expr()?
                };
                self.expect(")")?;
                let span = self.span_from(init_start);
                let decl = Declaration {
                    spec,
                    declarators: vec![InitDeclarator { declarator: first, init: None, bit_width: None }],
                    span,
                };
                let body = Box::new(self.parse_sub_stmt()?);
                return Ok(StmtKind::RangeFor { decl, range, body });
            }
            let declarators = self.parse_init_declarators(&spec, first, DeclCtx::Block)?;
            self.expect_after(";", "declaration")?;
            let span = self.span_from(init_start);
            Some(Box::new(Stmt { kind: StmtKind::Decl(Declaration { spec, declarators, span }), span }))
        } else {
            let e = self.parse_expr()?;
            self.expect_after(";", "expression")?;
            Some(Box::new(Stmt { kind: StmtKind::Expr(e), span: self.span_from(init_start) }))
        };
        let cond = if self.is(";") { None } else { Some(self.parse_expr()?) };
        self.expect_after(";", "loop condition")?;
        let step = if self.is(")") { None } else { Some(self.parse_expr()?) };
        self.expect(")")?;
        let body = Box::new(self.parse_sub_stmt()?);
        Ok(StmtKind::For { init, cond, step, body })
    }

    /// The current token starts a declaration rather than an expression statement.
    /// A type name followed by `(` or `{` is an expression (`T(x)`, `float4{...}`) unless
    /// the parenthesis holds a pointer declarator (`T (*fp)(int)`).
    pub(super) fn starts_block_decl(&self) -> bool {
        if !self.starts_decl_spec_at(0) {
            return false;
        }
        if let Some(len) = self.type_name_len() {
            let next = self.nth_text(len);
            if next == "{" {
                return false;
            }
            if next == "(" {
                return matches!(self.nth_text(len + 1), "*" | "&" | "&&" | "^");
            }
            if matches!(next, "." | "->" | "::") {
                return false;
            }
            return true;
        }
        let s = self.text();
        let member_ptr = self.nth_is(3, "::") && self.nth_is(4, "*");
        if super::decl::is_builtin_type_kw(s) && self.nth_is(1, "(") && (matches!(self.nth_text(2), "*" | "&" | "&&" | "^") || member_ptr) {
            // `void (*fp)(int) = f;`: a declarator in parentheses.
            return true;
        }
        if super::decl::is_builtin_type_kw(s) && matches!(self.nth_text(1), "(" | "{") {
            // `float(x) * 2;`: a functional cast.
            return false;
        }
        true
    }

    /// A declaration statement: specifiers, declarators, `;`.
    pub(super) fn parse_block_decl(&mut self) -> PResult<Declaration> {
        let start = self.pos;
        let spec = self.parse_decl_spec(DeclCtx::Block)?;
        if self.is(";") {
            self.bump();
            return Ok(Declaration { spec, declarators: Vec::new(), span: self.span_from(start) });
        }
        if matches!(spec.ty, TypeSpec::None) {
            if let Some((_, segs, _)) = self.peek_path() {
                return Err(self.err_here(format!("unknown type name '{}'", segs.join("::"))));
            }
            return Err(self.err_here(format!("expected a type before {}", self.describe())));
        }
        let first = self.parse_declarator(NameReq::Named, DeclCtx::Block)?;
        let declarators = self.parse_init_declarators(&spec, first, DeclCtx::Block)?;
        self.expect_after(";", "declaration")?;
        Ok(Declaration { spec, declarators, span: self.span_from(start) })
    }

    /// `using namespace x;` (no effect on the tree) or `using T = type;` (a typedef).
    fn parse_block_using(&mut self, start: usize) -> PResult<Stmt> {
        match self.parse_using_any()? {
            Ok(decl) => Ok(Stmt { span: decl.span, kind: StmtKind::Decl(decl) }),
            Err(u) => Ok(Stmt { kind: StmtKind::Using(u), span: self.span_from(start) }),
        }
    }

    /// `static_assert(cond [, "message"]);`
    /// `asm [volatile|inline]* ("template" [: outputs [: inputs [: clobbers]]]);`, after
    /// which the `;`. `::` separates two sections at once.
    fn parse_asm(&mut self) -> PResult<AsmStmt> {
        self.bump();
        let mut volatile = false;
        loop {
            match self.text() {
                "volatile" | "__volatile__" | "__volatile" => volatile = true,
                "inline" | "__inline__" | "__inline" => {}
                "goto" => return Err(self.err_here("'asm goto' is not supported")),
                _ => break,
            }
            self.bump();
        }
        self.expect("(")?;
        let t = self.parse_assign()?;
        let template = match t.kind {
            ExprKind::StringLit(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            _ => return Err(Diagnostic::error(t.span, "expected a string literal as the asm template")),
        };
        let mut sections: Vec<Vec<AsmOperand>> = vec![Vec::new(), Vec::new()];
        let mut clobbers = Vec::new();
        let mut section = 0;
        loop {
            if self.eat("::") {
                section += 2;
            } else if self.eat(":") {
                section += 1;
            } else {
                break;
            }
            if section > 3 {
                return Err(self.err_here("too many ':' sections in an asm statement"));
            }
            if section == 3 {
                loop {
                    if self.is(")") || self.is(":") || self.is("::") {
                        break;
                    }
                    let c = self.parse_assign()?;
                    match c.kind {
                        ExprKind::StringLit(bytes) => clobbers.push(String::from_utf8_lossy(&bytes).into_owned()),
                        _ => return Err(Diagnostic::error(c.span, "expected a string literal as an asm clobber")),
                    }
                    if !self.eat(",") {
                        break;
                    }
                }
                continue;
            }
            loop {
                if self.is(")") || self.is(":") || self.is("::") {
                    break;
                }
                let start = self.pos;
                if self.is("[") {
                    return Err(self.err_here("named asm operands ([name]) are not supported yet"));
                }
                let c = self.parse_primary_string()?;
                self.expect("(")?;
                let expr = self.parse_expr()?;
                self.expect(")")?;
                sections[section - 1].push(AsmOperand { constraint: c, expr, span: self.span_from(start) });
                if !self.eat(",") {
                    break;
                }
            }
        }
        self.expect(")")?;
        self.expect_after(";", "asm statement")?;
        let inputs = sections.pop().unwrap();
        let outputs = sections.pop().unwrap();
        Ok(AsmStmt { volatile, template, outputs, inputs, clobbers })
    }

    /// One or more adjacent string literals (an asm constraint), decoded.
    fn parse_primary_string(&mut self) -> PResult<String> {
        let start = self.pos;
        let mut out = String::new();
        while self.kind() == TokKind::Str {
            let t = self.bump();
            let text = self.text_of(t);
            let inner = text.trim_start_matches(|c| c != '"').trim_start_matches('"').trim_end_matches('"');
            out.push_str(inner);
        }
        if self.pos == start {
            return Err(self.err_here("expected a string literal as an asm operand constraint"));
        }
        Ok(out)
    }

    pub(super) fn parse_static_assert(&mut self) -> PResult<(Expr, Option<String>)> {
        self.bump();
        self.expect("(")?;
        let cond = self.parse_assign()?;
        let mut message = None;
        if self.eat(",") {
            let e = self.parse_assign()?;
            match e.kind {
                ExprKind::StringLit(bytes) => message = Some(String::from_utf8_lossy(&bytes).into_owned()),
                _ => return Err(Diagnostic::error(e.span, "expected a string literal as the static_assert message")),
            }
        }
        self.expect(")")?;
        self.expect_after(";", "static_assert")?;
        Ok((cond, message))
    }

    /// The text of a `#pragma` token after the word `pragma`.
    pub(super) fn pragma_text(&self, t: crate::lex::Token) -> String {
        let s = self.text_of(t).trim_start_matches('#').trim_start();
        s.strip_prefix("pragma").unwrap_or(s).trim().to_string()
    }

    /// `_Pragma("text")`.
    pub(super) fn parse_pragma_operator(&mut self) -> PResult<String> {
        self.bump();
        self.expect("(")?;
        if self.kind() != TokKind::Str {
            return Err(self.err_here("expected a string literal in '_Pragma'"));
        }
        let t = self.bump();
        let text = crate::lit::parse_string(self.text_of(t)).map_err(|m| Diagnostic::error(Span::new(t.lo, t.hi), m))?;
        self.expect(")")?;
        Ok(String::from_utf8_lossy(&text).trim().to_string())
    }
}
