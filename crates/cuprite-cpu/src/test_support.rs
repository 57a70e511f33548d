//! Lowering CUDA source to IR for the crate's unit tests (no preprocessing: the sources
//! use no headers or macros).

use cuprite_front::diag::Severity;
use cuprite_ir::*;

pub fn lower(src: &str) -> Module {
    let src = format!("# 1 \"test.cu\"\n{src}");
    let p = cuprite_front::parse(&src);
    let errors: Vec<_> = p.diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
    assert!(errors.is_empty(), "parse errors: {errors:#?}");
    let checked = cuprite_sema::check(&p.tu, &cuprite_sema::SemaOptions::default()).unwrap_or_else(|e| panic!("{e:#?}"));
    checked.lower_with(&[], &p.source_map).unwrap_or_else(|e| panic!("{e:#?}")).module
}

/// The only kernel of a module, made block-local as the back-end does.
pub fn kernel(m: &Module) -> Function {
    let mut f = m.kernels().next().expect("a kernel").1.clone();
    block_local::demote_cross_block_values(&mut f);
    f
}

pub fn local_named(f: &Function, name: &str) -> LocalId {
    LocalId(f.locals.iter().position(|l| l.name == name).unwrap_or_else(|| panic!("no local {name}")) as u32)
}
