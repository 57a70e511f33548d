//! Diagnostics: what went wrong, where, and (when we know) how to fix it.
//!
//! Both the parser and sema report `Diagnostic`s against spans of the preprocessed text;
//! `render` maps them to the user's `file:line:col` through the `SourceMap` and prints the
//! source line with a caret, in the style of a good C compiler.

use crate::ast::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    Note,
}

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    /// One sentence saying what is wrong.
    pub message: String,
    pub span: Span,
    /// Further locations that explain the error ("declared here", "instantiated from").
    pub notes: Vec<(Option<Span>, String)>,
    /// What to do about it, when we know.
    pub help: Option<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, message: message.into(), span, notes: Vec::new(), help: None }
    }
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, message: message.into(), span, notes: Vec::new(), help: None }
    }
    pub fn with_note(mut self, span: Option<Span>, note: impl Into<String>) -> Diagnostic {
        self.notes.push((span, note.into()));
        self
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
}
