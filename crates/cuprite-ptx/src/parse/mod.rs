//! PTX text → syntax tree (`ast`): whole modules as nvcc writes them, and the bodies of
//! inline `asm()` statements (a list of statements, as inside a function).

pub mod ast;
mod lexer;
mod parser;
#[cfg(test)]
mod tests;

pub use ast::*;

/// A position in the PTX text (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Loc {
    pub line: u32,
    pub col: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ParseError {
    pub loc: Loc,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.loc.line, self.loc.col, self.message)
    }
}

/// Parses a whole module (`.version`, `.target`, variables, functions).
pub fn parse_module(text: &str) -> Result<Module, ParseError> {
    parser::Parser::new(lexer::lex(text)?).module()
}

/// Parses statements as inside a function body: the text of an inline `asm()`.
pub fn parse_statements(text: &str) -> Result<Vec<Stmt>, ParseError> {
    parser::Parser::new(lexer::lex(text)?).statements_to_end()
}
