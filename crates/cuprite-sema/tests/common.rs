#![allow(dead_code)]
use cuprite_front::diag::{Diagnostic, Severity};
use cuprite_ir as ir;
use cuprite_sema::SemaOptions;

pub fn compile_opts(src: &str, opts: &SemaOptions) -> Result<ir::Module, Vec<(u32, String)>> {
    let p = cuprite_front::parse(src);
    let errs: Vec<&Diagnostic> = p.diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
    assert!(errs.is_empty(), "parse errors: {:?}", errs);
    match cuprite_sema::compile(&p.tu, &p.source_map, opts) {
        Ok(m) => {
            ir::verify::verify(&m).unwrap_or_else(|e| panic!("verify: {e:#?}"));
            Ok(m)
        }
        Err(d) => Err(d.iter().map(|d| (p.source_map.lookup(d.span.lo).line, d.message.clone())).collect()),
    }
}

pub fn compile(src: &str) -> ir::Module {
    match compile_opts(src, &SemaOptions::default()) {
        Ok(m) => m,
        Err(e) => panic!("unexpected errors: {e:#?}"),
    }
}

/// The errors as (line, message).
pub fn errors(src: &str) -> Vec<(u32, String)> {
    match compile_opts(src, &SemaOptions::default()) {
        Ok(_) => panic!("expected errors"),
        Err(e) => e,
    }
}

pub fn has_error(src: &str, line: u32, msg: &str) {
    let e = errors(src);
    assert!(e.iter().any(|(l, m)| *l == line && m.contains(msg)), "wanted line {line}: {msg}\ngot {e:#?}");
}

pub fn func<'a>(m: &'a ir::Module, name: &str) -> &'a ir::Function {
    m.functions.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no function {name}"))
}

pub fn insts(f: &ir::Function) -> Vec<&ir::InstKind> {
    f.blocks.iter().flat_map(|b| b.insts.iter().map(|i| &i.kind)).collect()
}

pub fn builtins(f: &ir::Function) -> Vec<String> {
    insts(f)
        .into_iter()
        .filter_map(|k| match k {
            ir::InstKind::CallBuiltin { builtin: ir::Builtin::Math(f), .. } => Some(f.cuda_name().to_string()),
            ir::InstKind::CallBuiltin { builtin, .. } => Some(format!("{builtin:?}")),
            _ => None,
        })
        .collect()
}
