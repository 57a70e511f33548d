//! Lambda expressions: `[captures] <specifiers> (params) mutable -> T { body }`, with
//! CUDA's execution-space annotations (`[=] __device__ (int i) {...}`), and the check
//! that host code does not define extended `__device__` lambdas.

use super::{NameKind, PResult, Parser};
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lex::TokKind;

impl<'a> Parser<'a> {
    /// At `[`: a lambda expression.
    pub(super) fn parse_lambda(&mut self) -> PResult<Expr> {
        let start = self.pos;
        self.expect("[")?;
        let mut default_capture = None;
        let mut captures = Vec::new();
        // Names the body may use: captured variables and init-captures.
        let mut init_names: Vec<&'a str> = Vec::new();
        let mut first = true;
        while !self.is("]") {
            if !first {
                self.expect(",")?;
            }
            first = false;
            let cstart = self.pos;
            if captures.is_empty() && default_capture.is_none() && (self.is("=") || (self.is("&") && matches!(self.nth_text(1), "," | "]"))) {
                default_capture = Some(self.is("&"));
                self.bump();
                continue;
            }
            if self.is("this") {
                let t = self.bump();
                captures.push(Capture::This { copy: false, span: Span::new(t.lo, t.hi) });
                continue;
            }
            if self.is("*") && self.nth_is(1, "this") {
                self.bump();
                self.bump();
                captures.push(Capture::This { copy: true, span: self.span_from(cstart) });
                continue;
            }
            let by_ref = self.eat("&");
            if self.kind() != TokKind::Ident || super::is_reserved(self.text()) {
                return Err(self.err_here(format!("expected a capture before {}", self.describe())));
            }
            let name = self.ident()?;
            if self.is("...") {
                return Err(self.err_here("pack expansions in lambda captures are not supported yet"));
            }
            if self.is("=") || self.is("{") || self.is("(") {
                // `= e`, `= {...}`, `{...}` or `(...)`, as for a declarator.
                let Some(init) = self.parse_initializer(&Declarator::default())? else {
                    return Err(self.err_here("expected an initializer for the init-capture"));
                };
                init_names.push(self.text_of(self.tok_for(name.span)));
                captures.push(Capture::Init { name, by_ref, init });
            } else {
                captures.push(Capture::Var { name, by_ref });
            }
        }
        self.bump(); // `]`
        let intro_span = self.span_from(start);
        if self.is("<") {
            return Err(self.err_here("lambdas with a template parameter list are not supported yet"));
        }
        let mut cuda = CudaQuals::default();
        self.lambda_quals(&mut cuda);
        self.push_scope();
        for n in &init_names {
            self.declare(n, NameKind::Value);
        }
        let r = self.parse_lambda_rest(start, default_capture, captures, cuda, intro_span);
        self.pop_scope();
        r
    }

    /// `__device__`, `__host__` on a lambda (before or after its parameter list).
    fn lambda_quals(&mut self, cuda: &mut CudaQuals) {
        loop {
            match self.text() {
                "__device__" => cuda.device = true,
                "__host__" => cuda.host = true,
                "__forceinline__" => cuda.forceinline = true,
                "__noinline__" => cuda.noinline = true,
                _ => return,
            }
            self.bump();
        }
    }

    fn parse_lambda_rest(
        &mut self,
        start: usize,
        default_capture: Option<bool>,
        captures: Vec<Capture>,
        mut cuda: CudaQuals,
        intro_span: Span,
    ) -> PResult<Expr> {
        let mut params = None;
        if self.is("(") {
            let fd = self.parse_params()?;
            for p in &fd.params {
                if let Some(path) = &p.declarator.name {
                    if let [id] = path.segments.as_slice() {
                        let name: &'a str = self.text_of(self.tok_for(id.span));
                        self.declare(name, NameKind::Value);
                    }
                }
            }
            params = Some(fd);
        }
        let mut is_mutable = false;
        let mut is_constexpr = false;
        let mut attrs = Vec::new();
        loop {
            match self.text() {
                "mutable" => is_mutable = true,
                "constexpr" | "consteval" => is_constexpr = true,
                "__device__" | "__host__" | "__forceinline__" | "__noinline__" => {
                    self.lambda_quals(&mut cuda);
                    continue;
                }
                "noexcept" | "throw" => {
                    self.bump();
                    if self.is("(") {
                        self.pos = self.skip_balanced(self.pos);
                    }
                    continue;
                }
                "__attribute__" | "__attribute" => {
                    self.parse_attributes(&mut attrs)?;
                    continue;
                }
                "[" if self.nth_is(1, "[") => {
                    self.parse_attributes(&mut attrs)?;
                    continue;
                }
                _ => break,
            }
            self.bump();
        }
        let ret = if self.eat("->") { Some(Box::new(self.parse_type_name()?)) } else { None };
        if !self.is("{") {
            return Err(self.err_here(format!("expected '{{' to begin the body of the lambda before {}", self.describe())));
        }
        // The body is a function body: labels, `return` … belong to the lambda.
        let body = self.parse_block_in_scope()?;
        let span = self.span_from(start);
        let lam = Lambda { default_capture, captures, params, is_mutable, is_constexpr, cuda, ret, body, intro_span, span };
        Ok(Expr { kind: ExprKind::Lambda(Box::new(lam)), span })
    }

    /// Whether the function definition in tokens `[from, to)` is declared `constexpr`
    /// (the keyword before its body, outside brackets).
    pub(super) fn is_constexpr_function(&self, from: usize, to: usize) -> bool {
        let mut depth = 0usize;
        for i in from..to {
            let t = self.tok(i);
            match self.text_of(t) {
                "(" | "[" => depth += 1,
                ")" | "]" => depth = depth.saturating_sub(1),
                "{" if depth == 0 => return false,
                "constexpr" | "consteval" if depth == 0 && t.kind == TokKind::Ident => return true,
                _ => {}
            }
        }
        false
    }

    /// In a host function's tokens `[from, to)`: an extended lambda (`[...] __device__`,
    /// `[...] __host__ __device__`, `[...](params) __device__`), which Cuprite cannot
    /// compile for the device (nvcc's `--extended-lambda`).
    pub(super) fn find_extended_lambda(&self, from: usize, to: usize) -> Option<Diagnostic> {
        let mut i = from;
        while i < to {
            let t = self.tok(i);
            if t.kind == TokKind::Punct && self.text_of(t) == "]" {
                let mut j = i + 1;
                // `[...] (params) __device__`
                if self.text_of(self.tok(j)) == "(" && self.tok(j).kind == TokKind::Punct {
                    j = self.skip_balanced(j);
                }
                while j < to && matches!(self.text_of(self.tok(j)), "__host__" | "mutable") {
                    j += 1;
                }
                if j < to && self.text_of(self.tok(j)) == "__device__" {
                    let d = self.tok(j);
                    return Some(Diagnostic::error(
                        Span::new(d.lo, d.hi),
                        "extended __device__ lambdas in host code are not supported yet",
                    ));
                }
            }
            i += 1;
        }
        None
    }
}
