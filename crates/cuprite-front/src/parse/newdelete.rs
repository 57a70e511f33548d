//! `new` and `delete` expressions.
//!
//! `new` [`(` placement-args `)`] new-type-id [new-initializer]: the type is parsed as
//! declaration specifiers, pointer operators and array bounds only (never a function
//! declarator: in `new T(args)` the parenthesis is the initializer). `new (T)` with a
//! parenthesized type-id is accepted too. The outermost array bound becomes `array_len`.

use super::decl::DeclCtx;
use super::{PResult, Parser};
use crate::ast::*;

impl<'a> Parser<'a> {
    /// At `new` (the caller checked). `::new` is handled by the caller skipping `::`.
    pub(super) fn parse_new(&mut self) -> PResult<Expr> {
        let start = self.pos;
        self.bump(); // `new`
        let mut placement = None;
        let mut ty = None;
        if self.is("(") {
            if self.starts_type_name_at(1) {
                // `new (T)` or `new (T) (args)`: a parenthesized type-id.
                self.bump();
                let t = self.parse_type_name()?;
                self.expect(")")?;
                ty = Some(t);
            } else {
                let args = self.with_gt(|p| {
                    p.expect("(")?;
                    let mut v = Vec::new();
                    while !p.is(")") {
                        v.push(p.parse_assign()?);
                        if !p.eat(",") {
                            break;
                        }
                    }
                    p.expect(")")?;
                    Ok(v)
                })?;
                placement = Some(args);
            }
        }
        let mut ty = match ty {
            Some(t) => t,
            None => self.parse_new_type_id()?,
        };
        // The outermost array bound (the first derived entry) is the element count.
        let mut array_len = None;
        if let Some(Derived::Array(_)) = ty.declarator.derived.first() {
            let Derived::Array(n) = ty.declarator.derived.remove(0) else { unreachable!() };
            match n {
                Some(n) => array_len = Some(n),
                None => return Err(self.err_here("expected an array size in a 'new' expression")),
            }
        }
        let init = if self.is("(") {
            let sp0 = self.pos;
            let args = self.with_gt(|p| {
                p.expect("(")?;
                let mut v = Vec::new();
                while !p.is(")") {
                    v.push(p.parse_assign()?);
                    if !p.eat(",") {
                        break;
                    }
                }
                p.expect(")")?;
                Ok(v)
            })?;
            Some(Box::new(Initializer::Ctor(args, self.span_from(sp0))))
        } else if self.is("{") {
            let (items, span) = self.parse_init_list()?;
            Some(Box::new(Initializer::List(items, span)))
        } else {
            None
        };
        Ok(Expr { kind: ExprKind::New { placement, ty: Box::new(ty), init, array_len }, span: self.span_from(start) })
    }

    /// Specifiers, `*` operators with their cv, and `[n]` bounds (the first may be any
    /// expression, the others constants).
    fn parse_new_type_id(&mut self) -> PResult<TypeName> {
        let start = self.pos;
        let spec = self.parse_decl_spec(DeclCtx::TypeName)?;
        if matches!(spec.ty, TypeSpec::None) {
            return Err(self.err_here(format!("expected a type after 'new' before {}", self.describe())));
        }
        let dstart = self.pos;
        let mut ptrs = Vec::new();
        while self.eat("*") {
            let mut cv = Cv::default();
            loop {
                match self.text() {
                    "const" => cv.is_const = true,
                    "volatile" => cv.is_volatile = true,
                    _ => break,
                }
                self.bump();
            }
            ptrs.push(Derived::Pointer { cv, restrict: false });
        }
        let mut arrays = Vec::new();
        while self.is("[") && !self.nth_is(1, "[") {
            self.bump();
            let n = self.with_gt(|p| p.parse_expr())?;
            self.expect("]")?;
            arrays.push(Derived::Array(Some(Box::new(n))));
        }
        let mut derived = arrays;
        derived.extend(ptrs.into_iter().rev());
        let declarator = Declarator { derived, span: self.span_from(dstart), ..Default::default() };
        Ok(TypeName { spec, declarator, span: self.span_from(start) })
    }

    /// At `delete`.
    pub(super) fn parse_delete(&mut self) -> PResult<Expr> {
        let start = self.pos;
        self.bump(); // `delete`
        let mut array = false;
        if self.is("[") && self.nth_is(1, "]") {
            self.bump();
            self.bump();
            array = true;
        }
        let e = self.parse_cast()?;
        Ok(Expr { kind: ExprKind::Delete { array, expr: Box::new(e) }, span: self.span_from(start) })
    }
}
