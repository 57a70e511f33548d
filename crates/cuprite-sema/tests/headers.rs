//! Real programs through `c++ -E` with Cuprite's headers (skipped when there is no c++).
mod common;
use std::process::Command;

fn preprocess(src: &str, name: &str) -> Option<String> {
    let dir = std::env::temp_dir().join(format!("cuprite-sema-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).ok()?;
    let file = dir.join(format!("{name}.cu"));
    std::fs::write(&file, src).ok()?;
    let include = concat!(env!("CARGO_MANIFEST_DIR"), "/../../include");
    let out = Command::new("c++")
        .args(["-E", "-x", "c++", "-D__CUDACC__", "-D__NVCC__", "-D__CUPRITE__", "-D__CUDA_ARCH__=900", "-D__CUPRITE_DEVICE_PASS__", "-std=c++17", "-I", include, "-include", "cuda_runtime.h"])
        .arg(&file)
        .output()
        .ok()?;
    if !out.status.success() {
        panic!("preprocessing failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    Some(String::from_utf8(out.stdout).unwrap())
}

pub fn compile_pp(src: &str, name: &str) -> Option<Result<cuprite_ir::Module, String>> {
    let text = preprocess(src, name)?;
    let p = cuprite_front::parse(&text);
    let mut msgs = String::new();
    for d in &p.diagnostics {
        msgs.push_str(&cuprite_front::render(d, &p.source_map));
    }
    if !msgs.is_empty() && p.diagnostics.iter().any(|d| d.severity == cuprite_front::diag::Severity::Error) {
        return Some(Err(format!("parse: {msgs}")));
    }
    Some(match cuprite_sema::compile(&p.tu, &p.source_map, &cuprite_sema::SemaOptions::default()) {
        Ok(m) => {
            cuprite_ir::verify::verify(&m).unwrap_or_else(|e| panic!("verify: {e:#?}"));
            Ok(m)
        }
        Err(d) => Err(d.iter().map(|d| cuprite_front::render(d, &p.source_map)).collect()),
    })
}

#[test]
fn big_program() {
    let src = include_str!("data/big.cu").to_string();
    if src.is_empty() {
        return;
    }
    match compile_pp(&src, "big") {
        None => {}
        Some(Ok(m)) => {
            let names: Vec<&str> = m.functions.iter().map(|f| f.name.as_str()).collect();
            eprintln!("{names:?}");
        }
        Some(Err(e)) => panic!("{e}"),
    }
}

#[test]
fn big_program_builtins() {
    let src = include_str!("data/big.cu").to_string();
    if src.is_empty() {
        return;
    }
    let Some(Ok(m)) = compile_pp(&src, "big2") else { return };
    for f in &m.functions {
        eprintln!("{} {:?}: {:?}", f.name, f.kind, common::builtins(f));
    }
    for g in &m.globals {
        eprintln!("global {} {:?} {:?} {:?} {:?}", g.name, g.space, g.host_symbol, g.init, g.dynamic_shared);
    }
}

#[test]
fn common_programs() {
    match compile_pp(include_str!("data/programs.cu"), "programs") {
        None => {}
        Some(Ok(m)) => {
            let k: Vec<&str> = m.kernels().map(|(_, f)| f.name.as_str()).collect();
            assert_eq!(k, vec!["matmul", "histo", "red"]);
        }
        Some(Err(e)) => panic!("{e}"),
    }
}
