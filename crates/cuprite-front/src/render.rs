//! Renders diagnostics like a C compiler: a gcc-style first line that editors parse,
//! then the source line with a caret under the location.
//!
//! ```text
//! vadd.cu:12:17: error: expected ';' after expression
//!    12 |     int x = y + 1
//!       |                 ^
//!    = help: add ';'
//! ```
//!
//! Rendered by hand: the shape is fixed and simple, and codespan-reporting's layout
//! differs from the gcc-style first line that tools expect.

use crate::ast::Span;
use crate::diag::{Diagnostic, Severity};
use crate::source_map::SourceMap;

fn severity_word(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// One diagnostic, ending with a newline.
pub fn render(diag: &Diagnostic, sm: &SourceMap) -> String {
    let mut out = String::new();
    header(&mut out, sm, diag.span, severity_word(diag.severity), &diag.message);
    snippet(&mut out, sm, diag.span);
    for (span, note) in &diag.notes {
        match span {
            Some(span) => {
                header(&mut out, sm, *span, "note", note);
                snippet(&mut out, sm, *span);
            }
            None => out.push_str(&format!("note: {note}\n")),
        }
    }
    if let Some(help) = &diag.help {
        out.push_str(&format!("   = help: {help}\n"));
    }
    out
}

/// All diagnostics, in order, and a summary line if there are errors.
pub fn render_all(diags: &[Diagnostic], sm: &SourceMap) -> String {
    let mut out: String = diags.iter().map(|d| render(d, sm)).collect();
    let errors = diags.iter().filter(|d| d.severity == Severity::Error).count();
    if errors > 0 {
        out.push_str(&format!("{} error{} generated.\n", errors, if errors == 1 { "" } else { "s" }));
    }
    out
}

fn header(out: &mut String, sm: &SourceMap, span: Span, word: &str, message: &str) {
    let loc = sm.lookup(span.lo);
    out.push_str(&format!("{}:{}:{}: {}: {}\n", loc.file, loc.line, loc.col, word, message));
}

/// The source line and a caret line (`^~~~` under the span's part on that line).
fn snippet(out: &mut String, sm: &SourceMap, span: Span) {
    let loc = sm.lookup(span.lo);
    let Some(line) = sm.source_line(&loc) else { return };
    let line = line.trim_end_matches(['\r', '\n']);
    out.push_str(&format!("{:>5} | {}\n", loc.line, line));
    let col = (loc.col as usize).saturating_sub(1);
    // Keep tabs in the padding so the caret lines up however tabs are displayed.
    let pad: String = line.bytes().take(col).map(|b| if b == b'\t' { '\t' } else { ' ' }).collect();
    let pad_len = col.min(line.len());
    let pad = pad + &" ".repeat(col - pad_len);
    let end_loc = sm.lookup(span.hi);
    let width = if end_loc.line == loc.line && end_loc.file == loc.file && end_loc.col > loc.col {
        (end_loc.col - loc.col) as usize
    } else {
        1
    };
    let width = width.min(line.len().saturating_sub(col).max(1));
    out.push_str(&format!("{:>5} | {}^{}\n", "", pad, "~".repeat(width - 1)));
}
