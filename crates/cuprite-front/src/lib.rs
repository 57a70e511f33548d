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

/// What a name is, for [`parse_template_args`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameClass {
    Type,
    /// A class or alias template.
    TypeTemplate,
    /// A function or variable template.
    Template,
    Value,
}

/// Parses a template argument list given as text, without its angle brackets
/// (`float, (unsigned int)128`, `Vec<float, 3>`, `ns::S const*`), as the arguments of a
/// specialization the host compiler made. `names` says which names (qualified with
/// `::` where they are in a namespace or class) are types and templates.
pub fn parse_template_args(text: &str, names: &[(String, NameClass)]) -> Result<Vec<ast::TemplateArg>, diag::Diagnostic> {
    let kinds: Vec<(String, parse::NameKind)> = names
        .iter()
        .map(|(n, c)| {
            let k = match c {
                NameClass::Type => parse::NameKind::Type,
                NameClass::TypeTemplate => parse::NameKind::TypeTemplate,
                NameClass::Template => parse::NameKind::Template,
                NameClass::Value => parse::NameKind::Value,
            };
            (n.clone(), k)
        })
        .collect();
    parse::parse_template_args_text(text, &kinds)
}

fn parse_on_this_thread(preprocessed: &str) -> ParseResult {
    let mut builder = source_map::SourceMapBuilder::default();
    let tokens = lex::lex(preprocessed, &mut builder);
    let source_map = builder.finish(preprocessed);
    let (tu, diagnostics) = parse::parse_tokens(preprocessed, tokens, &source_map);
    ParseResult { tu, source_map, diagnostics }
}
