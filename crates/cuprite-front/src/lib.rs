//! The device front-end of Cuprite: reads the preprocessed text of a `.cu` translation
//! unit (device pass) and produces its syntax tree, with diagnostics that point at the
//! user's source.

pub mod ast;
pub mod diag;
