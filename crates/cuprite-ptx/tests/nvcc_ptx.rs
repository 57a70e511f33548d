//! Every PTX file nvcc wrote for the conformance programs (tests/ptx-modules) parses.

use std::path::PathBuf;

fn modules() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/ptx-modules");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "ptx")).collect();
    v.sort();
    v
}

#[test]
fn nvcc_modules_parse() {
    let mut failures = Vec::new();
    let files = modules();
    assert!(files.len() >= 20);
    for p in &files {
        let text = std::fs::read_to_string(p).unwrap();
        if let Err(e) = cuprite_ptx::parse::parse_module(&text) {
            failures.push(format!("{}:{e}", p.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn nvcc_modules_lower_to_valid_ir() {
    let mut ok = 0;
    let mut report = Vec::new();
    for p in modules() {
        let text = std::fs::read_to_string(&p).unwrap();
        match cuprite_ptx::lower::module::lower_module_text(&text) {
            Ok(m) => match cuprite_ir::verify::verify(&m) {
                Ok(()) => ok += 1,
                Err(e) => report.push(format!("{}: invalid IR: {:?}", p.display(), e)),
            },
            Err(e) => report.push(format!("{}:{e}", p.display())),
        }
    }
    eprintln!("{ok} modules lowered\n{}", report.join("\n"));
    assert!(ok >= 20, "{}", report.join("\n"));
}
