//! Sema: name resolution and type checking of device code, and lowering to the IR.
