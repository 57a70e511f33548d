//! Embeds Cuprite's CUDA headers (`include/` at the workspace root) into the driver, so
//! that `target/release/cuprite` works from any directory without the source tree.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(dir: &Path, base: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, base, out);
        } else {
            let rel = path.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/");
            out.push((rel, path));
        }
    }
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let include = manifest.join("../../include").canonicalize().expect("include/ exists");
    println!("cargo:rerun-if-changed={}", include.display());
    let mut files = Vec::new();
    collect(&include, &include, &mut files);
    let mut src = String::from("/// Cuprite's CUDA headers: (path relative to the include directory, contents).\npub const HEADERS: &[(&str, &str)] = &[\n");
    for (rel, path) in files {
        writeln!(src, "    ({rel:?}, include_str!({:?})),", path.display().to_string()).unwrap();
    }
    src.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("headers.rs");
    std::fs::write(out, src).unwrap();
}
