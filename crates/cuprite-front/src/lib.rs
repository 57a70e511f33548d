//! The device front-end of Cuprite: reads the preprocessed text of a `.cu` translation
//! unit (device pass) and produces its syntax tree, with diagnostics that point at the
//! user's source.
//!
//! ```text
//! preprocessed text ──lex──▶ tokens (+ SourceMap from linemarkers) ──parse──▶ ast::TranslationUnit
//! ```

pub mod ast;
pub mod diag;
pub mod lex;
pub mod lit;
mod parse;
mod render;
pub mod source_map;

pub use render::{render, render_all};
pub use source_map::{Loc, SourceMap};

/// The syntax tree of one translation unit, its source map, and the parse errors of
/// device code (host code that failed to parse is in `Skipped` items, not here).
#[derive(Debug)]
pub struct ParseResult {
    pub tu: ast::TranslationUnit,
    pub source_map: SourceMap,
    pub diagnostics: Vec<diag::Diagnostic>,
}

/// Parses preprocessed text (as produced by `c++ -E`, with linemarkers).
pub fn parse(preprocessed: &str) -> ParseResult {
    // The parser is recursive (nesting is capped at a few hundred levels, which real code
    // never reaches); run it on a thread with a stack big enough for that cap in debug
    // builds too, whatever the caller's stack is.
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("cuprite-parse".into())
            .stack_size(PARSER_STACK)
            .spawn_scoped(s, || parse_on_this_thread(preprocessed))
            .ok()
            .and_then(|h| h.join().ok())
    })
    .unwrap_or_else(|| parse_on_this_thread(preprocessed))
}

const PARSER_STACK: usize = 256 << 20;

fn parse_on_this_thread(preprocessed: &str) -> ParseResult {
    let mut builder = source_map::SourceMapBuilder::default();
    let tokens = lex::lex(preprocessed, &mut builder);
    let source_map = builder.finish(preprocessed);
    let (tu, diagnostics) = parse::parse_tokens(preprocessed, tokens, &source_map);
    ParseResult { tu, source_map, diagnostics }
}
