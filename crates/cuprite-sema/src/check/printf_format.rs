//! `printf` format checking in device code, with the host compiler's kind of warning
//! (`-Wformat`): a conversion whose argument has the wrong type, and too many or too few
//! arguments for the format. Device `printf` formats are C's (CUDA Programming Guide,
//! "Formatted Output"); arguments arrive after the default argument promotions.

use super::Checker;
use crate::hir::{Expr, ExprKind};
use crate::ty::{IntKind, Ty};
use cuprite_front::diag::Diagnostic;

/// What a conversion specification expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    Int { long: u8, unsigned_ok: bool },
    Double,
    CharPtr,
    AnyPtr,
}

impl Want {
    fn describe(self) -> &'static str {
        match self {
            Want::Int { long: 0, unsigned_ok: false } => "int",
            Want::Int { long: 0, unsigned_ok: true } => "unsigned int",
            Want::Int { long: 1, unsigned_ok: false } => "long int",
            Want::Int { long: 1, unsigned_ok: true } => "long unsigned int",
            Want::Int { unsigned_ok: false, .. } => "long long int",
            Want::Int { unsigned_ok: true, .. } => "long long unsigned int",
            Want::Double => "double",
            Want::CharPtr => "char*",
            Want::AnyPtr => "void*",
        }
    }

    /// Whether an argument of this (promoted) type fits. Signedness mismatches of the same
    /// width pass, as they do under g++'s -Wformat.
    fn accepts(self, t: &Ty) -> bool {
        match (self, t) {
            (Want::Int { long, .. }, Ty::Int(k)) => int_width(*k) == long,
            (Want::Int { long: 0, .. }, Ty::Enum(_)) | (Want::Int { long: 0, .. }, Ty::Bool) => true,
            (Want::Double, Ty::Double | Ty::Float) => true,
            (Want::CharPtr, Ty::Ptr(p)) => matches!(p.ty, Ty::Int(IntKind::Char | IntKind::SChar | IntKind::UChar)),
            (Want::AnyPtr, Ty::Ptr(_)) => true,
            _ => false,
        }
    }
}

/// 0 for int-sized, 1 for long, 2 for long long (both 64-bit on x86-64, but g++ tells
/// them apart in its warning, and so do we).
fn int_width(k: IntKind) -> u8 {
    match k {
        IntKind::Long | IntKind::ULong => 1,
        IntKind::LongLong | IntKind::ULongLong => 2,
        _ => 0,
    }
}

/// The conversions of a format string, in order (`%%` excluded; `*` widths count as an
/// `int` argument each).
fn conversions(fmt: &[u8]) -> Result<Vec<(String, Want)>, String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if fmt.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        while i < fmt.len() && b"-+ #0".contains(&fmt[i]) {
            i += 1;
        }
        for _ in 0..2 {
            // width, then precision
            if fmt.get(i) == Some(&b'*') {
                out.push(("*".to_string(), Want::Int { long: 0, unsigned_ok: false }));
                i += 1;
            } else {
                while i < fmt.len() && fmt[i].is_ascii_digit() {
                    i += 1;
                }
            }
            if fmt.get(i) == Some(&b'.') {
                i += 1;
            } else {
                break;
            }
        }
        let mut long = 0u8;
        while i < fmt.len() && b"hlLqjzt".contains(&fmt[i]) {
            if fmt[i] == b'l' || fmt[i] == b'q' || fmt[i] == b'j' || fmt[i] == b'z' || fmt[i] == b't' {
                long += 1;
            }
            i += 1;
        }
        let Some(&c) = fmt.get(i) else { return Err("spurious trailing '%' in format".into()) };
        i += 1;
        let spec = String::from_utf8_lossy(&fmt[start..i]).into_owned();
        let want = match c {
            b'd' | b'i' => Want::Int { long: long.min(2), unsigned_ok: false },
            b'u' | b'x' | b'X' | b'o' => Want::Int { long: long.min(2), unsigned_ok: true },
            b'c' => Want::Int { long: 0, unsigned_ok: false },
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => Want::Double,
            b's' => Want::CharPtr,
            b'p' => Want::AnyPtr,
            other => return Err(format!("unknown conversion type character '{}' in format", other as char)),
        };
        out.push((spec, want));
    }
    Ok(out)
}

/// The string literal a (decayed) format argument designates, if it is one.
fn literal(e: &Expr) -> Option<&[u8]> {
    match &e.kind {
        ExprKind::Str(s) => Some(s),
        ExprKind::Decay(x) | ExprKind::Cast(x) => literal(x),
        _ => None,
    }
}

/// Warns, as g++'s -Wformat does, about `printf(fmt, args…)` whose arguments (already
/// promoted) do not match its literal format.
pub(crate) fn check(ck: &mut Checker, fmt: &Expr, args: &[Expr]) {
    let Some(text) = literal(fmt) else { return };
    let text = text.strip_suffix(&[0]).unwrap_or(text);
    let convs = match conversions(text) {
        Ok(c) => c,
        Err(msg) => {
            ck.diag(Diagnostic::warning(fmt.span, format!("{msg} [-Wformat=]")));
            return;
        }
    };
    for (k, (spec, want)) in convs.iter().enumerate() {
        let Some(arg) = args.get(k) else {
            ck.diag(Diagnostic::warning(fmt.span, format!("format '{spec}' expects a matching '{}' argument [-Wformat=]", want.describe())));
            return;
        };
        if !want.accepts(&arg.ty.ty) {
            let shown = ck.show(&arg.ty);
            ck.diag(Diagnostic::warning(
                arg.span,
                format!("format '{spec}' expects argument of type '{}', but argument {} has type '{shown}' [-Wformat=]", want.describe(), k + 2),
            ));
        }
    }
    if args.len() > convs.len() {
        ck.diag(Diagnostic::warning(args[convs.len()].span, "too many arguments for format [-Wformat-extra-args]"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_are_read_as_c_reads_them() {
        let c = conversions(b"%d %5.2f %-*s %lld %llu %% %p %c %lx").unwrap();
        let specs: Vec<&str> = c.iter().map(|(s, _)| s.as_str()).collect();
        assert_eq!(specs, ["%d", "%5.2f", "*", "%-*s", "%lld", "%llu", "%p", "%c", "%lx"]);
        assert_eq!(c[4].1, Want::Int { long: 2, unsigned_ok: false });
        assert!(conversions(b"50%").is_err());
        assert!(conversions(b"%y").unwrap_err().contains("'y'"));
    }
}
