//! PTX, both ways.
//!
//! `isa` holds the facts of the PTX ISA that both directions share: its scalar
//! types, state spaces, special registers and which `.version`/`.target` a
//! compute capability takes. The back-end (Cuprite IR -> PTX text for `ptxas`
//! and the driver's JIT) and the front-end (PTX text from inline `asm()` or an
//! nvcc-written `.ptx` module -> Cuprite IR) are built on it, so the two agree
//! on every name by construction.

pub mod isa;
pub mod emit;
pub mod lower;
pub mod opt;
pub mod parse;
