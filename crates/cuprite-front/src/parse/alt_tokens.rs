//! C++'s alternative tokens (`and`, `or`, `not`, `bitand`, …): keywords that stand for
//! punctuators (CCCL writes `if (not has_flags && …)`). The lexer leaves them
//! identifiers; the parser makes them punctuators and reads them as the punctuator.

use crate::lex::{TokKind, Token};

/// The punctuator an alternative token spells.
pub(super) fn punct_of(spelling: &str) -> Option<&'static str> {
    Some(match spelling {
        "and" => "&&",
        "and_eq" => "&=",
        "bitand" => "&",
        "bitor" => "|",
        "compl" => "~",
        "not" => "!",
        "not_eq" => "!=",
        "or" => "||",
        "or_eq" => "|=",
        "xor" => "^",
        "xor_eq" => "^=",
        _ => return None,
    })
}

/// Marks the identifiers that are alternative tokens as punctuators.
pub(super) fn mark(src: &str, toks: &mut [Token]) {
    for t in toks.iter_mut().filter(|t| t.kind == TokKind::Ident) {
        if src.get(t.lo as usize..t.hi as usize).and_then(punct_of).is_some() {
            t.kind = TokKind::Punct;
        }
    }
}
