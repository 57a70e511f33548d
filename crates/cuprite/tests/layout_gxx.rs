//! Class layout against g++: `tests/layout/classes.cu` computes `sizeof`, `alignof` and
//! `offsetof` of a set of classes (inheritance, padding, bases with tail padding, empty
//! bases, `alignas` on classes and members, nested classes, unions, bit-fields, CUDA
//! vector types, virtual functions) both in host code (g++) and in a kernel (Cuprite's
//! layout), and prints every value that differs.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn class_layout_matches_gxx() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/layout/classes.cu");
    let out = Command::new(env!("CARGO_BIN_EXE_cuprite")).arg("run").arg(&src).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.ends_with("0 mismatches\n"), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
}
