//! Inline PTX (`asm()` in device code): constraints and operand types, and the template
//! checked by lowering it into a scratch function (`cuprite_ptx::lower::asm::check_asm`),
//! so that an unsupported instruction is reported here, naming itself and the line.

use super::Checker;
use crate::hir::{AsmOperand, AsmStmt, StmtKind};
use crate::ty::*;
use cuprite_front::ast::{self, Span};

/// The C type an operand of a constraint letter is passed as.
fn letter_ty(letter: char) -> Option<Ty> {
    Some(match letter {
        'h' => Ty::Int(IntKind::UShort),
        'r' => Ty::Int(IntKind::UInt),
        'l' => Ty::Int(IntKind::ULongLong),
        'f' => Ty::Float,
        'd' => Ty::Double,
        _ => return None,
    })
}

const LETTERS: &str = "the constraints Cuprite supports are \"h\" (16-bit), \"r\" (32-bit), \"l\" (64-bit), \"f\" (float), \"d\" (double) and \"n\" (a constant)";

impl Checker<'_> {
    pub(crate) fn asm_stmt(&mut self, a: &ast::AsmStmt, sp: Span) -> StmtKind {
        let mut operands = Vec::new();
        let mut letters = Vec::new();
        let mut ok = true;
        for o in &a.outputs {
            let c = o.constraint.as_str();
            let read = c.starts_with('+');
            if !c.starts_with('=') && !read {
                self.err(o.span, format!("asm output constraint \"{c}\" must start with '=' or '+'"));
                ok = false;
                continue;
            }
            let letter_s = c.trim_start_matches(['=', '+']).trim_start_matches('&');
            let letter = letter_s.chars().next().unwrap_or(' ');
            if letter_s.len() != 1 || letter_ty(letter).is_none() {
                self.err(o.span, format!("asm output constraint \"{c}\" is not supported: {LETTERS}"));
                ok = false;
                continue;
            }
            let e = self.expr(&o.expr);
            if e.is_error() {
                ok = false;
                continue;
            }
            if !e.lvalue || e.ty.c {
                self.err(o.span, "an asm output operand must be a modifiable lvalue");
                ok = false;
                continue;
            }
            if !self.asm_type_fits(letter, &e.ty.ty, o.span, &o.constraint) {
                ok = false;
                continue;
            }
            letters.push(letter);
            operands.push(AsmOperand::Out { letter, place: e, read });
        }
        for o in &a.inputs {
            let c = o.constraint.as_str();
            if c == "n" || c == "i" {
                match self.const_int(&o.expr) {
                    Some(v) => {
                        letters.push('n');
                        operands.push(AsmOperand::Imm(v as i64));
                    }
                    None => {
                        self.err(o.span, format!("asm operand with constraint \"{c}\" must be an integer constant"));
                        ok = false;
                    }
                }
                continue;
            }
            let letter = c.chars().next().unwrap_or(' ');
            if c.len() != 1 || letter_ty(letter).is_none() {
                let why = if c.chars().all(|ch| ch.is_ascii_digit()) && !c.is_empty() { "matching constraints are not supported yet; " } else { "" };
                self.err(o.span, format!("asm input constraint \"{c}\" is not supported: {why}{LETTERS}"));
                ok = false;
                continue;
            }
            let e = self.expr(&o.expr);
            let e = self.rvalue(e);
            if e.is_error() {
                ok = false;
                continue;
            }
            if !self.asm_type_fits(letter, &e.ty.ty, o.span, c) {
                ok = false;
                continue;
            }
            let value = self.cast(e, &letter_ty(letter).unwrap());
            letters.push(letter);
            operands.push(AsmOperand::In { letter, value });
        }
        for c in &a.clobbers {
            if c != "memory" && c != "cc" {
                self.err(sp, format!("asm clobber \"{c}\" is not supported (PTX has \"memory\" and \"cc\")"));
                ok = false;
            }
        }
        if ok {
            if let Err(e) = cuprite_ptx::lower::asm::check_asm(&a.template, &letters) {
                self.err(sp, format!("in inline PTX (line {} of the asm template): {}", e.loc.line, e.message));
                ok = false;
            }
        }
        if !ok {
            return StmtKind::Empty;
        }
        StmtKind::Asm(Box::new(AsmStmt { template: a.template.clone(), operands }))
    }

    /// Whether a value of type `t` can travel in a register of the constraint `letter`.
    fn asm_type_fits(&mut self, letter: char, t: &Ty, span: Span, constraint: &str) -> bool {
        let fits = match letter {
            'h' | 'r' => t.is_integer(),
            'l' => t.is_integer() || t.is_pointer(),
            'f' | 'd' => t.is_arith(),
            _ => false,
        };
        if !fits {
            let tq = QTy::new(t.clone());
            let shown = self.show(&tq);
            self.err(span, format!("an operand of type '{shown}' does not fit the asm constraint \"{constraint}\""));
        }
        fits
    }
}
