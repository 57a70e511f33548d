//! Inline `asm()` in device code: the template's operands become registers bound to the
//! enclosing function's locals, and its PTX is lowered in place.

use super::body::{Binding, Lowerer};
use super::{LResult, LowerError, Sink};
use crate::isa::ScalarType;
use crate::parse::{parse_statements, Loc};
use cuprite_ir::{LocalId, Type};

/// One operand of an `asm` statement, after sema: a register operand lives in a local of
/// the constraint's type (inputs stored before, outputs read after), an `n` operand is a
/// constant.
#[derive(Clone, Debug)]
pub enum AsmOperand {
    Reg { local: LocalId, ty: ScalarType },
    Imm(i64),
}

/// The PTX register type and IR type a constraint letter stands for.
pub fn constraint_type(letter: char) -> Option<(ScalarType, Type)> {
    Some(match letter {
        'h' => (ScalarType::B16, Type::U16),
        'r' => (ScalarType::B32, Type::U32),
        'l' => (ScalarType::B64, Type::U64),
        'f' => (ScalarType::F32, Type::F32),
        'd' => (ScalarType::F64, Type::F64),
        _ => return None,
    })
}

/// Replaces `%N` by the operand (a register name or a constant) and `%%` by `%`.
pub fn substitute(template: &str, operands: &[AsmOperand]) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.peek().copied() {
            Some('%') => {
                chars.next();
                out.push('%');
            }
            Some(d) if d.is_ascii_digit() => {
                let mut n = 0usize;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + d as usize;
                    chars.next();
                }
                match operands.get(n) {
                    Some(AsmOperand::Reg { .. }) => out.push_str(&format!("%__asm_op{n}")),
                    Some(AsmOperand::Imm(v)) => out.push_str(&v.to_string()),
                    None => return Err(format!("the template names operand %{n}, but there are {} operands", operands.len())),
                }
            }
            Some('[') => return Err("named asm operands (%[name]) are not supported yet".into()),
            _ => return Err("'%' in an asm template must be followed by an operand number or another '%'".into()),
        }
    }
    Ok(out)
}

/// Lowers an `asm` template with its operands into the current block of `sink`'s function.
/// Errors carry the line and column in the substituted template.
pub fn lower_asm(sink: &mut dyn Sink, template: &str, operands: &[AsmOperand]) -> LResult<()> {
    let text = substitute(template, operands).map_err(|m| LowerError { loc: Loc { line: 1, col: 1 }, message: m })?;
    let stmts = parse_statements(&text).map_err(|e| LowerError { loc: e.loc, message: e.message })?;
    let mut lw = Lowerer::new(sink);
    for (n, op) in operands.iter().enumerate() {
        if let AsmOperand::Reg { local, ty } = op {
            lw.bind(&format!("%__asm_op{n}"), Binding::Reg(*local, *ty));
        }
    }
    lw.collect_labels(&stmts)?;
    lw.stmts(&stmts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_are_substituted() {
        let ops = [AsmOperand::Reg { local: LocalId(0), ty: ScalarType::B32 }, AsmOperand::Imm(-5)];
        assert_eq!(substitute("mov.u32 %0, %%laneid; add.s32 %0, %0, %1;", &ops).unwrap(), "mov.u32 %__asm_op0, %laneid; add.s32 %__asm_op0, %__asm_op0, -5;");
        assert!(substitute("mov.u32 %2, 1;", &ops).unwrap_err().contains("%2"));
    }
}
