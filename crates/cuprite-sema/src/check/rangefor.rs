//! Range-based `for` over arrays and over classes with `begin()`/`end()` members.
//!
//! `for (decl : range) body` is checked as C++ defines it:
//! ```text
//! { auto &&__range = range;            // a pointer to it here (or the prvalue itself)
//!   auto __begin = begin-expr; auto __end = end-expr;
//!   for (; __begin != __end; ++__begin) { decl = *__begin; body } }
//! ```
//! The range is held in a hidden local; the rest is built as AST (names that cannot be
//! spelled in C++) and checked as ordinary statements, so iterators that are classes
//! with `operator!=`, `operator++` and `operator*` work as pointers do.

use super::*;

const RANGE: &str = " range";
const BEGIN: &str = " begin";
const END: &str = " end";

fn name_expr(n: &str, sp: Span) -> ast::Expr {
    let id = ast::Ident { name: n.to_string(), span: sp };
    ast::Expr { kind: ast::ExprKind::Name(ast::Path::new(false, vec![id], sp)), span: sp }
}

fn unary(op: ast::UnOp, e: ast::Expr, sp: Span) -> ast::Expr {
    ast::Expr { kind: ast::ExprKind::Unary { op, expr: Box::new(e) }, span: sp }
}

fn method_call(obj: ast::Expr, name: &str, sp: Span) -> ast::Expr {
    let callee = ast::Expr {
        kind: ast::ExprKind::Member { base: Box::new(obj), member: ast::Ident { name: name.to_string(), span: sp }, arrow: false },
        span: sp,
    };
    ast::Expr { kind: ast::ExprKind::Call { callee: Box::new(callee), args: Vec::new() }, span: sp }
}

fn auto_decl(name: &str, init: ast::Expr, sp: Span) -> ast::Stmt {
    let spec = ast::DeclSpec { ty: ast::TypeSpec::Auto, span: sp, ..Default::default() };
    let declarator = ast::Declarator {
        name: Some(ast::Path::new(false, vec![ast::Ident { name: name.to_string(), span: sp }], sp)),
        span: sp,
        ..Default::default()
    };
    let d = ast::Declaration {
        spec,
        declarators: vec![ast::InitDeclarator { declarator, init: Some(ast::Initializer::Expr(init)), bit_width: None }],
        span: sp,
    };
    ast::Stmt { kind: ast::StmtKind::Decl(d), span: sp }
}

impl<'o> Checker<'o> {
    /// `if constexpr`: the condition is a constant; the discarded branch is not checked
    /// (in a template instance it may be invalid for these arguments).
    pub(crate) fn if_constexpr(&mut self, cond: &ast::Expr, then: &ast::Stmt, else_: Option<&ast::Stmt>) -> StmtKind {
        let Some(v) = self.const_int_or_bool(cond) else {
            self.err(cond.span, "if constexpr condition is not a constant expression");
            return StmtKind::Empty;
        };
        let taken = if v != 0 { Some(then) } else { else_ };
        match taken {
            Some(s) => {
                self.push_scope();
                let mut v = vec![self.stmt(s)];
                let depth = self.fcx.as_ref().unwrap().dtor_scopes.len() - 1;
                self.exit_scopes(depth, &mut v);
                self.pop_scope();
                StmtKind::Block(v)
            }
            None => StmtKind::Empty,
        }
    }

    /// A constant condition: an integer, `bool`, or a pointer/floating constant tested
    /// against zero.
    fn const_int_or_bool(&mut self, e: &ast::Expr) -> Option<i128> {
        let h = self.expr(e);
        let h = self.to_bool(h);
        if h.is_error() {
            return Some(1);
        }
        match eval_const(&self.prog, &h) {
            Some(CVal::Int(v)) => Some(v),
            _ => {
                self.explain_not_constant(&h, e.span);
                None
            }
        }
    }

    pub(crate) fn range_for(&mut self, decl: &ast::Declaration, range: &ast::Expr, body: &ast::Stmt, sp: Span) -> StmtKind {
        if let ast::ExprKind::InitList(_) = range.kind {
            self.err(range.span, "range-based for over a braced initializer list is not supported in device code yet");
            return StmtKind::Empty;
        }
        let rsp = range.span;
        self.push_scope();
        let mut out = Vec::new();
        let mark = self.fcx.as_ref().unwrap().temps.len();
        let r = self.expr(range);
        if r.is_error() {
            self.pop_scope();
            return StmtKind::Empty;
        }
        // `__range`: a pointer to an lvalue range, or the prvalue itself.
        let obj_ast;
        let rty = r.ty.clone();
        if r.lvalue {
            let pt = QTy::new(Ty::ptr(rty.clone()));
            let l = self.new_local("__range".into(), pt.clone(), None);
            let a = Expr::new(ExprKind::AddrOf(Box::new(r)), pt, false, rsp);
            out.push(self.with_temps(mark, Stmt { kind: StmtKind::Decl(l, Some(Init::Expr(a))), span: rsp }));
            self.bind_name(RANGE, Sym::Local(l));
            obj_ast = unary(ast::UnOp::Deref, name_expr(RANGE, rsp), rsp);
        } else {
            let l = self.new_local("__range".into(), rty.unqual(), None);
            let init = self.init_from_value(r);
            if self.needs_dtor(&rty.ty) {
                self.fcx.as_mut().unwrap().dtor_scopes.last_mut().unwrap().push(l);
            }
            out.push(self.with_temps(mark, Stmt { kind: StmtKind::Decl(l, Some(init)), span: rsp }));
            self.bind_name(RANGE, Sym::Local(l));
            obj_ast = name_expr(RANGE, rsp);
        }
        let (begin, end) = match &rty.ty {
            Ty::Array(_, Some(n)) => {
                let n = ast::Expr {
                    kind: ast::ExprKind::IntLit { value: *n as u128, suffix: ast::IntSuffix { unsigned: true, long: 1 }, radix: 10 },
                    span: rsp,
                };
                let end = ast::Expr { kind: ast::ExprKind::Binary { op: ast::BinOp::Add, lhs: Box::new(obj_ast.clone()), rhs: Box::new(n) }, span: rsp };
                (obj_ast, end)
            }
            Ty::Array(_, None) => {
                self.err(rsp, format!("cannot use incomplete type '{}' as a range", self.show(&rty)));
                self.pop_scope();
                return StmtKind::Block(out);
            }
            Ty::Record(rec) => {
                let rec = *rec;
                if self.lookup_methods(rec, "begin").is_empty() || self.lookup_methods(rec, "end").is_empty() {
                    self.err(rsp, format!("invalid range expression of type '{}'; no viable 'begin' function available", self.show(&rty.unqual())));
                    self.pop_scope();
                    return StmtKind::Block(out);
                }
                (method_call(obj_ast.clone(), "begin", rsp), method_call(obj_ast, "end", rsp))
            }
            _ => {
                self.err(rsp, format!("invalid range expression of type '{}'; no viable 'begin' function available", self.show(&rty)));
                self.pop_scope();
                return StmtKind::Block(out);
            }
        };
        let bdecl = auto_decl(BEGIN, begin, rsp);
        out.push(self.stmt(&bdecl));
        let edecl = auto_decl(END, end, rsp);
        out.push(self.stmt(&edecl));
        // The loop variable, initialized from `*__begin` in each iteration's scope.
        let mut vdecl = decl.clone();
        if let Some(first) = vdecl.declarators.first_mut() {
            first.init = Some(ast::Initializer::Expr(unary(ast::UnOp::Deref, name_expr(BEGIN, rsp), rsp)));
        }
        let inner = ast::Stmt {
            kind: ast::StmtKind::Block(ast::Block {
                stmts: vec![ast::Stmt { kind: ast::StmtKind::Decl(vdecl), span: decl.span }, body.clone()],
                span: body.span,
            }),
            span: body.span,
        };
        let cond = ast::Expr {
            kind: ast::ExprKind::Binary { op: ast::BinOp::Ne, lhs: Box::new(name_expr(BEGIN, rsp)), rhs: Box::new(name_expr(END, rsp)) },
            span: rsp,
        };
        let step = unary(ast::UnOp::PreInc, name_expr(BEGIN, rsp), rsp);
        let for_ast = ast::Stmt {
            kind: ast::StmtKind::For { init: None, cond: Some(cond), step: Some(step), body: Box::new(inner) },
            span: sp,
        };
        out.push(self.stmt(&for_ast));
        let depth = self.fcx.as_ref().unwrap().dtor_scopes.len() - 1;
        self.exit_scopes(depth, &mut out);
        self.pop_scope();
        StmtKind::Block(out)
    }
}
