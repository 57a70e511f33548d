//! Checks the IR invariants documented in the crate root.
