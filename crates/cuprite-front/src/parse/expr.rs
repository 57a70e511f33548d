//! Expressions, by precedence climbing over the C/C++ binary operators.

use super::decl::is_builtin_type_kw;
use super::{PResult, Parser};
use crate::ast::*;
use crate::diag::Diagnostic;
use crate::lex::TokKind;
use crate::lit;

fn binop(s: &str) -> Option<(u8, BinOp)> {
    use BinOp::*;
    Some(match s {
        "*" => (10, Mul),
        "/" => (10, Div),
        "%" => (10, Rem),
        "+" => (9, Add),
        "-" => (9, Sub),
        "<<" => (8, Shl),
        ">>" => (8, Shr),
        "<" => (7, Lt),
        ">" => (7, Gt),
        "<=" => (7, Le),
        ">=" => (7, Ge),
        "==" => (6, Eq),
        "!=" => (6, Ne),
        "&" => (5, BitAnd),
        "^" => (4, BitXor),
        "|" => (3, BitOr),
        "&&" => (2, LogAnd),
        "||" => (1, LogOr),
        _ => return None,
    })
}

fn assign_op(s: &str) -> Option<Option<BinOp>> {
    use BinOp::*;
    Some(match s {
        "=" => None,
        "+=" => Some(Add),
        "-=" => Some(Sub),
        "*=" => Some(Mul),
        "/=" => Some(Div),
        "%=" => Some(Rem),
        "<<=" => Some(Shl),
        ">>=" => Some(Shr),
        "&=" => Some(BitAnd),
        "^=" => Some(BitXor),
        "|=" => Some(BitOr),
        _ => return None,
    })
}

fn builtin_of_keyword(s: &str) -> Option<BuiltinType> {
    use BuiltinType::*;
    Some(match s {
        "void" => Void,
        "bool" | "_Bool" => Bool,
        "char" => Char,
        "short" => Short,
        "int" | "signed" => Int,
        "long" => Long,
        "unsigned" => UInt,
        "float" => Float,
        "double" => Double,
        "__int128" => Int128,
        _ => return None,
    })
}

fn mk(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

impl<'a> Parser<'a> {
    /// A full expression, including the comma operator.
    pub(super) fn parse_expr(&mut self) -> PResult<Expr> {
        let mut lhs = self.parse_assign()?;
        while self.is(",") && !self.nth_is(1, "...") {
            self.bump();
            let rhs = self.parse_assign()?;
            let span = lhs.span.to(rhs.span);
            lhs = mk(ExprKind::Binary { op: BinOp::Comma, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span);
        }
        Ok(lhs)
    }

    /// An assignment expression, or a braced list where C++ allows one (`f({1, 2})`).
    pub(super) fn parse_assign_or_list(&mut self) -> PResult<Expr> {
        if self.is("{") {
            let (items, span) = self.parse_init_list()?;
            return Ok(mk(ExprKind::InitList(items), span));
        }
        self.parse_assign()
    }

    /// A call argument (or constructor initializer argument): `parse_assign_or_list`,
    /// with a pack expansion `e...` in templates.
    pub(super) fn parse_arg_or_pack(&mut self) -> PResult<Expr> {
        let e = self.parse_assign_or_list()?;
        Ok(self.maybe_pack(e))
    }

    /// An element of a braced list: an assignment expression or a pack expansion.
    pub(super) fn parse_assign_or_pack(&mut self) -> PResult<Expr> {
        let e = self.parse_assign()?;
        Ok(self.maybe_pack(e))
    }

    fn maybe_pack(&mut self, e: Expr) -> Expr {
        if self.is("...") {
            self.bump();
            let span = e.span.to(self.prev_span());
            return mk(ExprKind::PackExpansion(Box::new(e)), span);
        }
        e
    }

    pub(super) fn parse_assign(&mut self) -> PResult<Expr> {
        if self.is("throw") {
            return Err(self.err_here("'throw' expressions in device code are not supported"));
        }
        let lhs = self.parse_cond()?;
        if self.kind() == TokKind::Punct {
            if let Some(op) = assign_op(self.text()) {
                self.bump();
                let rhs = self.parse_assign_or_list()?;
                let span = lhs.span.to(rhs.span);
                return Ok(mk(ExprKind::Assign { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span));
            }
        }
        Ok(lhs)
    }

    /// A conditional expression (`a ? b : c`) or anything of higher precedence.
    pub(super) fn parse_cond(&mut self) -> PResult<Expr> {
        let cond = self.parse_binary(1)?;
        if !self.is("?") {
            return Ok(cond);
        }
        self.bump();
        if self.is(":") {
            return Err(self.err_here("the GNU '?:' operator with an omitted operand is not supported"));
        }
        let then = self.parse_expr()?;
        self.expect(":")?;
        let else_ = self.parse_assign()?;
        let span = cond.span.to(else_.span);
        Ok(mk(ExprKind::Cond { cond: Box::new(cond), then: Box::new(then), else_: Box::new(else_) }, span))
    }

    /// A pm-expression: cast expressions joined by `.*` / `->*` (left-associative, binding
    /// tighter than every binary operator).
    fn parse_pm(&mut self) -> PResult<Expr> {
        let mut lhs = self.parse_cast()?;
        while self.kind() == TokKind::Punct && matches!(self.text(), ".*" | "->*") {
            let arrow = self.is("->*");
            self.bump();
            let rhs = self.parse_cast()?;
            let span = lhs.span.to(rhs.span);
            lhs = mk(ExprKind::MemberPtrAccess { base: Box::new(lhs), member: Box::new(rhs), arrow }, span);
        }
        Ok(lhs)
    }

    fn parse_binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.parse_pm()?;
        loop {
            if self.kind() != TokKind::Punct {
                break;
            }
            let s = self.text();
            if matches!(s, "<=>") {
                return Err(self.err_here(format!("the '{s}' operator is not supported yet")));
            }
            if self.no_gt && matches!(s, ">" | ">>") {
                break; // The end of a template argument list.
            }
            let Some((prec, op)) = binop(s) else { break };
            if prec < min_prec {
                break;
            }
            if self.nth_is(1, "...") {
                break; // `(e op ...)`: a fold expression, parsed by `parse_primary`.
            }
            if op == BinOp::Shl && self.nth_is(1, "<") {
                // `k<<<grid, block>>>(...)` inside device code.
                return Err(Diagnostic::error(lhs.span, "launching a kernel from device code (dynamic parallelism) is not supported yet")
                    .with_help("launch the kernel from host code"));
            }
            if op == BinOp::Lt && matches!(lhs.kind, ExprKind::Name(_)) && self.starts_type_name_at(1) {
                // `foo<int>(x)`: a name compared with a type can only be a template-id.
                return Err(Diagnostic::error(lhs.span, "template-ids in device code are not supported yet"));
            }
            self.bump();
            let rhs = self.parse_binary(prec + 1)?;
            let span = lhs.span.to(rhs.span);
            lhs = mk(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span);
        }
        Ok(lhs)
    }

    /// Tries `( type-name )` at the current `(`; on success the parser is after `)`.
    /// On failure nothing is consumed (the parenthesis holds an expression).
    fn try_paren_type(&mut self) -> Option<TypeName> {
        if !(self.is("(") && self.starts_type_name_at(1)) {
            return None;
        }
        let save = self.pos;
        let save_diags = self.diags.len();
        self.bump();
        match self.parse_type_name() {
            Ok(ty) if self.is(")") => {
                self.bump();
                Some(ty)
            }
            _ => {
                self.pos = save;
                self.diags.truncate(save_diags);
                None
            }
        }
    }

    /// A cast `(T)e`, a compound literal `(T){...}`, or a unary expression.
    pub(super) fn parse_cast(&mut self) -> PResult<Expr> {
        let start = self.pos;
        if let Some(ty) = self.try_paren_type() {
            if self.is("{") {
                let (init, _) = self.parse_init_list()?;
                let e = mk(ExprKind::CompoundLit { ty: Box::new(ty), init }, self.span_from(start));
                return self.parse_postfix(e);
            }
            let expr = self.parse_cast_nested()?;
            return Ok(mk(ExprKind::Cast { ty: Box::new(ty), expr: Box::new(expr), style: CastStyle::C }, self.span_from(start)));
        }
        self.parse_unary()
    }

    fn parse_cast_nested(&mut self) -> PResult<Expr> {
        self.nested(|p| p.parse_cast())
    }

    fn parse_unary(&mut self) -> PResult<Expr> {
        self.nested(|p| p.parse_unary_inner())
    }

    fn parse_unary_inner(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let s = self.text();
        let kind = self.kind();
        if kind == TokKind::Punct {
            let op = match s {
                "++" => Some(UnOp::PreInc),
                "--" => Some(UnOp::PreDec),
                "+" => Some(UnOp::Plus),
                "-" => Some(UnOp::Neg),
                "!" => Some(UnOp::Not),
                "~" => Some(UnOp::BitNot),
                "*" => Some(UnOp::Deref),
                "&" => Some(UnOp::AddrOf),
                "&&" => return Err(self.err_here("taking the address of a label ('&&label') is not supported")),
                _ => None,
            };
            if let Some(op) = op {
                self.bump();
                let expr = if matches!(op, UnOp::PreInc | UnOp::PreDec) { self.parse_unary()? } else { self.parse_cast_nested()? };
                return Ok(mk(ExprKind::Unary { op, expr: Box::new(expr) }, self.span_from(start)));
            }
        }
        if kind == TokKind::Ident {
            match s {
                "sizeof" => {
                    self.bump();
                    if self.is("...") {
                        // `sizeof...(Ts)`.
                        self.bump();
                        self.expect("(")?;
                        let id = self.ident()?;
                        self.expect(")")?;
                        return Ok(mk(ExprKind::SizeofPack(id), self.span_from(start)));
                    }
                    if let Some(ty) = self.try_paren_type() {
                        if self.is("{") {
                            // `sizeof (T){...}`: the operand is a compound literal.
                            let (init, _) = self.parse_init_list()?;
                            let lit = mk(ExprKind::CompoundLit { ty: Box::new(ty), init }, self.span_from(start + 1));
                            let e = self.parse_postfix(lit)?;
                            return Ok(mk(ExprKind::SizeofExpr(Box::new(e)), self.span_from(start)));
                        }
                        return Ok(mk(ExprKind::SizeofType(Box::new(ty)), self.span_from(start)));
                    }
                    let e = self.parse_unary()?;
                    return Ok(mk(ExprKind::SizeofExpr(Box::new(e)), self.span_from(start)));
                }
                "alignof" | "_Alignof" | "__alignof__" | "__alignof" => {
                    self.bump();
                    if let Some(ty) = self.try_paren_type() {
                        return Ok(mk(ExprKind::AlignofType(Box::new(ty)), self.span_from(start)));
                    }
                    return Err(Diagnostic::error(self.span_from(start), format!("'{s}' of an expression is not supported yet")));
                }
                "new" => return self.parse_new(),
                "delete" => return self.parse_delete(),
                "__extension__" => {
                    self.bump();
                    return self.parse_cast_nested();
                }
                "__real__" | "__imag__" | "noexcept" | "co_await" | "typeid" | "requires" => {
                    return Err(self.err_here(format!("'{s}' is not supported in device code")));
                }
                _ => {}
            }
        }
        let e = self.parse_primary()?;
        self.parse_postfix(e)
    }

    fn parse_postfix(&mut self, mut e: Expr) -> PResult<Expr> {
        loop {
            if self.kind() != TokKind::Punct {
                return Ok(e);
            }
            match self.text() {
                "[" => {
                    self.bump();
                    let index = self.with_gt(|p| p.parse_expr())?;
                    self.expect("]")?;
                    let span = e.span.to(self.prev_span());
                    e = mk(ExprKind::Index { base: Box::new(e), index: Box::new(index) }, span);
                }
                "(" => {
                    let args = self.parse_call_args()?;
                    let span = e.span.to(self.prev_span());
                    e = mk(ExprKind::Call { callee: Box::new(e), args }, span);
                }
                "." | "->" => {
                    let arrow = self.text() == "->";
                    self.bump();
                    // `obj.template get<2>()`; `obj.f<int>()` for a known member template.
                    let kw = self.eat("template");
                    if self.is("~") && self.nth_kind(1) == TokKind::Ident {
                        // `p->~T()`: an explicit destructor call; the member is named `~T`.
                        let lo = self.tok(self.pos).lo;
                        self.bump();
                        let id = self.ident()?;
                        let member = Ident { name: format!("~{}", id.name), span: Span::new(lo, id.span.hi) };
                        let span = e.span.to(member.span);
                        e = mk(ExprKind::Member { base: Box::new(e), member, arrow }, span);
                        continue;
                    }
                    if matches!(self.text(), "~" | "operator") {
                        return Err(self.err_here(format!("'{}' after a member access is not supported yet", self.text())));
                    }
                    let member = self.ident()?;
                    if self.is("<") && (kw || self.member_templates.contains(member.name.as_str())) {
                        let args = self.parse_template_args()?;
                        let span = e.span.to(self.prev_span());
                        e = mk(ExprKind::MemberTemplateId { base: Box::new(e), member, args, arrow }, span);
                        continue;
                    }
                    if kw {
                        return Err(self.err_here(format!("expected '<' after 'template {}' before {}", member.name, self.describe())));
                    }
                    let span = e.span.to(member.span);
                    e = mk(ExprKind::Member { base: Box::new(e), member, arrow }, span);
                }
                "++" | "--" => {
                    let op = if self.text() == "++" { UnOp::PostInc } else { UnOp::PostDec };
                    self.bump();
                    let span = e.span.to(self.prev_span());
                    e = mk(ExprKind::Unary { op, expr: Box::new(e) }, span);
                }
                _ => return Ok(e),
            }
        }
    }

    /// `( a, b, {c} )`.
    fn parse_call_args(&mut self) -> PResult<Vec<Expr>> {
        self.with_gt(|p| p.parse_call_args_inner())
    }

    fn parse_call_args_inner(&mut self) -> PResult<Vec<Expr>> {
        self.expect("(")?;
        let mut args = Vec::new();
        while !self.is(")") {
            args.push(self.parse_arg_or_pack()?);
            if !self.eat(",") {
                if !self.is(")") {
                    return Err(self.err_here(format!("expected ')' or ',' in argument list before {}", self.describe())));
                }
                break;
            }
        }
        self.bump();
        Ok(args)
    }

    fn parse_primary(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let t = self.peek();
        let span = Span::new(t.lo, t.hi);
        let s = self.text();
        match t.kind {
            TokKind::Int => {
                self.bump();
                let (value, suffix, radix) = lit::parse_int(s).map_err(|m| Diagnostic::error(span, m))?;
                Ok(mk(ExprKind::IntLit { value, suffix, radix }, span))
            }
            TokKind::Float => {
                self.bump();
                let (value, suffix) = lit::parse_float(s).map_err(|m| Diagnostic::error(span, m))?;
                Ok(mk(ExprKind::FloatLit { value, suffix }, span))
            }
            TokKind::Char => {
                self.bump();
                let (value, wide) = lit::parse_char(s).map_err(|m| Diagnostic::error(span, m))?;
                Ok(mk(ExprKind::CharLit { value, wide }, span))
            }
            TokKind::Str => {
                let mut bytes = Vec::new();
                while self.kind() == TokKind::Str {
                    let t = self.bump();
                    let piece = lit::parse_string(self.text_of(t)).map_err(|m| Diagnostic::error(Span::new(t.lo, t.hi), m))?;
                    bytes.extend(piece);
                }
                Ok(mk(ExprKind::StringLit(bytes), self.span_from(start)))
            }
            TokKind::Punct => match s {
                "(" => {
                    if self.nth_is(1, "{") {
                        return Err(self.err_here("statement expressions ('({ ... })') are not supported"));
                    }
                    self.with_gt(|p| p.parse_paren_or_fold(start))
                }
                "{" => {
                    let (items, span) = self.parse_init_list()?;
                    Ok(mk(ExprKind::InitList(items), span))
                }
                "[" => self.parse_lambda(),
                "::" => self.parse_name_expr(),
                _ => Err(self.err_here(format!("expected an expression before {}", self.describe()))),
            },
            TokKind::Ident => self.parse_ident_expr(),
            TokKind::Pragma => Err(self.err_here("expected an expression before '#pragma'")),
            TokKind::Unknown => Err(self.err_here(format!("stray {} in program", self.describe()))),
            TokKind::Eof => Err(self.err_here("expected an expression before end of file")),
        }
    }

    /// `( expr )` or a fold expression: `(... op e)`, `(e op ...)`, `(a op ... op b)`.
    fn parse_paren_or_fold(&mut self, start: usize) -> PResult<Expr> {
        self.bump(); // `(`
        if self.is("...") {
            self.bump();
            let op = self.fold_op()?;
            let rhs = self.parse_cast()?;
            self.expect(")")?;
            return Ok(mk(ExprKind::Fold { op, lhs: None, rhs: Some(Box::new(rhs)) }, self.span_from(start)));
        }
        let inner = self.parse_expr()?;
        if self.kind() == TokKind::Punct && self.nth_is(1, "...") && !self.is(")") {
            let op = self.fold_op()?;
            self.expect("...")?;
            let rhs = if self.is(")") {
                None
            } else {
                let op2 = self.fold_op()?;
                if op2 != op {
                    return Err(Diagnostic::error(self.prev_span(), "the operators of a binary fold expression must be the same"));
                }
                Some(Box::new(self.parse_cast()?))
            };
            self.expect(")")?;
            return Ok(mk(ExprKind::Fold { op, lhs: Some(Box::new(inner)), rhs }, self.span_from(start)));
        }
        self.expect(")")?;
        Ok(mk(inner.kind, self.span_from(start)))
    }

    /// The operator of a fold expression (consumed).
    fn fold_op(&mut self) -> PResult<BinOp> {
        let s = self.text();
        let op = if s == "," { Some(BinOp::Comma) } else { binop(s).map(|(_, op)| op) };
        match op {
            Some(op) if self.kind() == TokKind::Punct => {
                self.bump();
                Ok(op)
            }
            _ => Err(self.err_here(format!("expected a fold operator before {}", self.describe()))),
        }
    }

    fn parse_ident_expr(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let span = self.span();
        let s = self.text();
        match s {
            "true" | "false" => {
                self.bump();
                return Ok(mk(ExprKind::BoolLit(s == "true"), span));
            }
            "nullptr" => {
                self.bump();
                return Ok(mk(ExprKind::Nullptr, span));
            }
            // GCC's `NULL` in C++: an integer null pointer constant of pointer size.
            "__null" => {
                self.bump();
                return Ok(mk(ExprKind::IntLit { value: 0, suffix: IntSuffix { unsigned: false, long: 1 }, radix: 10 }, span));
            }
            "this" => {
                self.bump();
                return Ok(mk(ExprKind::This, span));
            }
            "static_cast" | "reinterpret_cast" | "const_cast" | "dynamic_cast" => {
                let style = match s {
                    "static_cast" => CastStyle::Static,
                    "reinterpret_cast" => CastStyle::Reinterpret,
                    "const_cast" => CastStyle::Const,
                    _ => CastStyle::Dynamic,
                };
                self.bump();
                self.expect("<")?;
                let ty = self.with_no_gt(|p| p.parse_type_name())?;
                self.expect_close_angle()?;
                self.expect("(")?;
                let expr = self.parse_expr()?;
                self.expect(")")?;
                return Ok(mk(ExprKind::Cast { ty: Box::new(ty), expr: Box::new(expr), style }, self.span_from(start)));
            }
            "__builtin_offsetof" => {
                self.bump();
                self.expect("(")?;
                let ty = self.parse_type_name()?;
                self.expect(",")?;
                let mut designators = vec![Designator::Field(self.ident()?)];
                loop {
                    if self.is(".") {
                        self.bump();
                        designators.push(Designator::Field(self.ident()?));
                    } else if self.is("[") {
                        self.bump();
                        designators.push(Designator::Index(self.parse_expr()?));
                        self.expect("]")?;
                    } else {
                        break;
                    }
                }
                self.expect(")")?;
                return Ok(mk(ExprKind::OffsetOf { ty: Box::new(ty), designators }, self.span_from(start)));
            }
            "__builtin_va_arg" | "__builtin_types_compatible_p" | "__builtin_choose_expr"
            | "__builtin_convertvector" | "__builtin_shufflevector" | "__builtin_bit_cast" => {
                return Err(self.err_here(format!("'{s}' is not supported in device code yet")));
            }
            "typename" => {
                // `typename T::type(x)`, `typename T::type{}`: like a type name.
                self.bump();
                return self.parse_name_expr_as(start, true);
            }
            "operator" | "template" => {
                return Err(self.err_here(format!("'{s}' in an expression is not supported yet")));
            }
            _ => {}
        }
        if is_builtin_type_kw(s) {
            // `float(i)`, `unsigned(x)`, `int{}`: functional casts on builtin types.
            let ty_kw = self.bump();
            let ty_span = Span::new(ty_kw.lo, ty_kw.hi);
            let Some(b) = builtin_of_keyword(s) else {
                return Err(Diagnostic::error(ty_span, format!("functional cast to '{s}' is not supported")));
            };
            let ty = TypeName {
                spec: DeclSpec { ty: TypeSpec::Builtin(b), span: ty_span, ..Default::default() },
                declarator: Declarator { span: Span::new(ty_span.hi, ty_span.hi), ..Default::default() },
                span: ty_span,
            };
            return self.functional_cast_or_init(start, ty, true);
        }
        if super::is_reserved(s) {
            return Err(self.err_here(format!("expected an expression before '{s}'")));
        }
        self.parse_name_expr()
    }

    /// After a type in expression position: `T(args)` or `T{...}`.
    fn functional_cast_or_init(&mut self, start: usize, ty: TypeName, builtin: bool) -> PResult<Expr> {
        if self.is("{") {
            let (init, _) = self.parse_init_list()?;
            return Ok(mk(ExprKind::CompoundLit { ty: Box::new(ty), init }, self.span_from(start)));
        }
        if !self.is("(") {
            return Err(self.err_here(format!("expected '(' or '{{' after a type name in an expression before {}", self.describe())));
        }
        let mut args = self.parse_call_args()?;
        if builtin {
            return match args.len() {
                1 => {
                    let expr = args.pop().ok_or_else(|| self.err_here("internal: missing argument"))?;
                    Ok(mk(ExprKind::Cast { ty: Box::new(ty), expr: Box::new(expr), style: CastStyle::Functional }, self.span_from(start)))
                }
                // `int()`: a value-initialized temporary.
                0 => Ok(mk(ExprKind::CompoundLit { ty: Box::new(ty), init: Vec::new() }, self.span_from(start))),
                _ => Err(Diagnostic::error(self.span_from(start), "a functional cast to a builtin type takes one argument")),
            };
        }
        // Named types reach here only with `{`; `T(args)` is parsed as a call.
        Err(Diagnostic::error(ty.span, "expected '{' after a type name"))
    }

    /// A (possibly qualified) name; a type name here must be followed by `(` or `{`.
    fn parse_name_expr(&mut self) -> PResult<Expr> {
        let start = self.pos;
        self.parse_name_expr_as(start, false)
    }

    /// A name in an expression, with template arguments (`f<int>`, `S<T>::value`);
    /// `is_type`: it follows `typename`.
    fn parse_name_expr_as(&mut self, start: usize, is_type: bool) -> PResult<Expr> {
        let Some(pk) = self.peek_name_at(0) else {
            return Err(self.err_here(format!("expected an expression before {}", self.describe())));
        };
        let len = pk.len;
        if self.nth_is(len, "::") && matches!(self.nth_text(len + 1), "~" | "operator" | "template") {
            return Err(self.err_here("this kind of qualified name is not supported in expressions yet"));
        }
        let kind = pk.kind;
        let path = self.take_qualified(len)?;
        let is_type = is_type || matches!(kind, Some(super::NameKind::Type | super::NameKind::TypeTemplate));
        if is_type && self.is("{") {
            let span = path.span;
            let ty = TypeName {
                spec: DeclSpec { ty: TypeSpec::Named(path), span, ..Default::default() },
                declarator: Declarator { span: Span::new(span.hi, span.hi), ..Default::default() },
                span,
            };
            return self.functional_cast_or_init(start, ty, false);
        }
        let span = path.span;
        Ok(mk(ExprKind::Name(path), span))
    }
}
