//! Checking and profiling without a special build (`cuprite sanitize ./app`, `cuprite
//! prof ./app`).
//!
//! Two ways were possible: carry an instrumented copy of the device code in every
//! program, or keep the device IR and build the instrumented copy when it is first
//! asked for. Measured on benches/sgemm.cu (docs/FEATURES.md P2): compiling the
//! instrumented device C is about as long as compiling the plain one, so carrying it
//! would make every build slower for a tool most runs never use; keeping the IR costs an
//! `objcopy` and a few kilobytes per translation unit, and the first checked run pays the
//! instrumented compile once (cached by content). So:
//! - every non-`-rdc` object keeps its device IR in section `.cuprite_checkable_ir`
//!   ([`embed`]), and every program exports the runtime's device-side entry points
//!   ([`export_flag`]) so that a shared object loaded later can call them;
//! - [`instrumented_device_code`] reads the section of a program, instruments each unit
//!   (`EmitOptions::checks`), compiles them into one shared object in the cache, and the
//!   runtime (`cuprite_rt::checked_override`) runs the program's kernels from it.
//!
//! Programs linked with `-rdc` (device code generated at link), module images and
//! run-time compiled modules have no such section: they are not checked this way, and the
//! checker says nothing was checked.

use crate::pipeline::Build;
use cuprite_ir::Module;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub const SECTION: &str = ".cuprite_checkable_ir";

/// Adds the device IR of `input` to its object.
pub fn embed(b: &Build, module: &Module, input: &Path, object: &Path) -> Result<(), String> {
    let name = object.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let blob = b.work.join(format!("{name}.checkable.ir"));
    std::fs::write(&blob, crate::rdc::encode(&input.display().to_string(), module)?).map_err(|e| format!("cannot write {}: {e}", blob.display()))?;
    let args = vec![format!("--add-section={SECTION}={}", blob.display()), object.display().to_string()];
    b.tools.run(&b.tools.objcopy, &args).map(drop)
}

/// The runtime's functions and variables that device code uses (`cuprite_abi.h`).
fn device_entry_points() -> Vec<String> {
    let header = include_str!("../../cuprite-rt/csrc/cuprite_abi.h");
    let mut names: Vec<String> = Vec::new();
    let bytes = header.as_bytes();
    let mut i = 0;
    while let Some(p) = header[i..].find("__cuprite_") {
        let start = i + p;
        let mut end = start;
        while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_') {
            end += 1;
        }
        let rest = header[end..].trim_start();
        // Functions, and the variables the inlined fast path reads.
        if rest.starts_with(['(', ',', ';', '[']) && !names.iter().any(|n| n == &header[start..end]) {
            names.push(header[start..end].to_string());
        }
        i = end;
    }
    names
}

/// The linker flag that exports the device entry points from a program.
pub fn export_flag(work: &Path) -> Result<String, String> {
    let list = work.join("cuprite-exports.list");
    let mut text = String::from("{\n");
    for n in device_entry_points() {
        let _ = writeln!(text, "  {n};");
    }
    text.push_str("};\n");
    std::fs::write(&list, text).map_err(|e| format!("cannot write {}: {e}", list.display()))?;
    Ok(format!("-Wl,--dynamic-list={}", list.display()))
}

/// The instrumented device code of `program` as a shared object (built on first use and
/// cached); `None` when the program kept no device IR.
pub fn instrumented_device_code(program: &Path) -> Result<Option<PathBuf>, String> {
    let data = std::fs::read(program).map_err(|e| format!("cannot read {}: {e}", program.display()))?;
    let units = crate::rdc::units_in_section(&data, SECTION, program)?;
    if units.is_empty() {
        return Ok(None);
    }
    let mut hasher = blake3::Hasher::new();
    hasher.update(env!("CARGO_PKG_VERSION").as_bytes());
    hasher.update(include_bytes!("../../cuprite-rt/csrc/cuprite_abi.h"));
    for u in &units {
        hasher.update(u.origin.as_bytes());
        hasher.update(&bincode::serialize(&u.module).map_err(|e| e.to_string())?);
    }
    let dir = cuprite_image::cache::root().join("checked");
    let so = dir.join(format!("{}.so", hasher.finalize().to_hex()));
    if so.exists() {
        return Ok(Some(so));
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let work = tempfile::Builder::new().prefix("cuprite-checked-").tempdir().map_err(|e| e.to_string())?;
    let mut sources = Vec::new();
    let mut stubs = String::from("/* The program's host stubs and shadows, which the instrumented code names: it\n * is registered by symbol, so these only give the names an address. */\n");
    for (i, u) in units.iter().enumerate() {
        let opts = cuprite_cpu::EmitOptions { line_directives: false, source_name: u.origin.clone(), checks: true };
        let emitted = cuprite_cpu::emit(&u.module, &opts).map_err(|errs| {
            let msgs: Vec<String> = errs.iter().map(|e| e.message.clone()).collect();
            format!("cannot instrument the device code of {}: {}", u.origin, msgs.join("; "))
        })?;
        let c = work.path().join(format!("unit{i}.c"));
        std::fs::write(&c, emitted.c).map_err(|e| e.to_string())?;
        sources.push(c);
        for f in &u.module.functions {
            if let cuprite_ir::FunctionKind::Kernel { stub_symbol, .. } = &f.kind {
                let _ = writeln!(stubs, "__attribute__((weak)) char {stub_symbol}[1];");
            }
        }
        for g in &u.module.globals {
            if let Some(h) = &g.host_symbol {
                let _ = writeln!(stubs, "__attribute__((weak)) char {h}[1];");
            }
        }
    }
    let stubs_c = work.path().join("stubs.c");
    std::fs::write(&stubs_c, stubs).map_err(|e| e.to_string())?;
    sources.push(stubs_c);
    let tmp = dir.join(format!(".{}.tmp{}", so.file_name().unwrap().to_string_lossy(), std::process::id()));
    let mut args = cuprite_cpu::c_compiler_flags(2);
    args.extend(["-shared".to_string(), "-o".into(), tmp.display().to_string()]);
    args.extend(sources.iter().map(|s| s.display().to_string()));
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let out = std::process::Command::new(&cc).args(&args).output().map_err(|e| format!("cannot run {cc}: {e}"))?;
    if !out.status.success() {
        return Err(format!("building the instrumented device code failed:\n{}", String::from_utf8_lossy(&out.stderr)));
    }
    std::fs::rename(&tmp, &so).map_err(|e| format!("cannot write {}: {e}", so.display()))?;
    Ok(Some(so))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_runtime_entry_points_come_from_the_abi_header() {
        let names = super::device_entry_points();
        for n in ["__cuprite_register_module", "__cuprite_san_access", "__cuprite_san_value", "__cuprite_kernel_error", "__cuprite_san_fast", "__cuprite_san_epoch", "__cuprite_san_want_events", "__cuprite_san_want_values"] {
            assert!(names.iter().any(|x| x == n), "{n} in {names:?}");
        }
    }
}
