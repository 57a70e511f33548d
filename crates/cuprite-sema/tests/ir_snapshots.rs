//! Snapshot tests of the IR that sema produces: each `snapshots/NAME.cu` is compiled to
//! IR and printed (`cuprite_ir::print`), and the text must equal `snapshots/NAME.ir`.
//!
//! After a deliberate change to lowering or to the printer, rewrite the expected files
//! and review the diff before committing it:
//!
//! ```text
//! CUPRITE_UPDATE_SNAPSHOTS=1 cargo test --release -p cuprite-sema --test ir_snapshots
//! git diff crates/cuprite-sema/tests/snapshots
//! ```
//!
//! The sources are not preprocessed (no `#include`, no macros); the test puts a line
//! marker before each, so locations name `NAME.cu` rather than the full path.

use cuprite_front::diag::Severity;
use cuprite_sema::{KernelRequest, SemaOptions};
use std::path::PathBuf;

fn snapshot_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

/// Compiles `snapshots/NAME.cu`, instantiating the kernel template specializations given
/// as (template, arguments, stub symbol), as the driver does from a host object, and
/// prints the IR.
fn print_ir(name: &str, requests: &[(&str, &str, &str)]) -> String {
    let path = snapshot_dir().join(format!("{name}.cu"));
    let src = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let src = format!("# 1 \"{name}.cu\"\n{src}");
    let p = cuprite_front::parse(&src);
    let errors: Vec<_> = p.diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
    assert!(errors.is_empty(), "{name}.cu: parse errors: {errors:#?}");
    let checked = cuprite_sema::check(&p.tu, &SemaOptions::default()).unwrap_or_else(|e| panic!("{name}.cu: {e:#?}"));
    let requests: Vec<KernelRequest> = requests
        .iter()
        .map(|(n, a, s)| KernelRequest { name: n.to_string(), args: a.to_string(), symbol: s.to_string() })
        .collect();
    let module = checked.lower_with(&requests, &p.source_map).unwrap_or_else(|e| panic!("{name}.cu: {e:#?}")).module;
    cuprite_ir::verify::verify(&module).unwrap_or_else(|e| panic!("{name}.cu: invalid IR: {e:#?}"));
    module.to_string()
}

/// Compares with `snapshots/NAME.ir`, or rewrites it under `CUPRITE_UPDATE_SNAPSHOTS=1`.
fn check_snapshot(name: &str, requests: &[(&str, &str, &str)]) {
    let actual = print_ir(name, requests);
    assert_eq!(actual, print_ir(name, requests), "{name}: printing the IR twice gave different text");
    let path = snapshot_dir().join(format!("{name}.ir"));
    if std::env::var_os("CUPRITE_UPDATE_SNAPSHOTS").is_some_and(|v| v != "0" && !v.is_empty()) {
        std::fs::write(&path, &actual).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if actual == expected {
        return;
    }
    let (mut exp, mut act) = (expected.lines(), actual.lines());
    for n in 1.. {
        match (exp.next(), act.next()) {
            (None, None) => break,
            (e, a) if e == a => continue,
            (e, a) => panic!(
                "{name}: the IR differs from {} at line {n}\n  expected: {}\n  actual:   {}\n\
                 (CUPRITE_UPDATE_SNAPSHOTS=1 rewrites the snapshot; review the diff)",
                path.display(),
                e.unwrap_or("<end of file>"),
                a.unwrap_or("<end of output>"),
            ),
        }
    }
    // Equal lines, different text: line endings or the final newline.
    panic!("{name}: the IR differs from {} in line endings", path.display());
}

#[test]
fn vector_add() {
    check_snapshot("vector_add", &[]);
}

#[test]
fn shared_reduction() {
    check_snapshot("shared_reduction", &[]);
}

#[test]
fn warp_collectives() {
    check_snapshot("warp_collectives", &[]);
}

#[test]
fn struct_constant() {
    check_snapshot("struct_constant", &[]);
}

#[test]
fn atomics_printf() {
    check_snapshot("atomics_printf", &[]);
}

#[test]
fn kernel_template() {
    check_snapshot("kernel_template", &[("scale", "float, (unsigned int)128", "_Z5scaleIfLj128EEvPT_S0_")]);
}
