//! `cuprite install --prefix DIR`: writes a directory shaped like a CUDA toolkit, so that
//! builds made for nvcc (Makefiles, CMake, `g++ … -lcudart`) work by pointing them at it.
//!
//! ```text
//! DIR/bin/nvcc                      this binary, under nvcc's name
//! DIR/include/…                     Cuprite's headers (the ones the binary embeds)
//! DIR/include/cccl/{cuda,nv}/…      libcu++'s headers again, where CUDA 13 keeps them
//! DIR/lib64/libcudart_static.a      the runtime as ONE object (linked whole or not at all)
//! DIR/lib64/libcudart.so.13.0.0     the same object as a shared library (soname libcudart.so.13)
//! DIR/lib64/libcudart.so.13, libcudart.so   symlinks, as CUDA ships them
//! DIR/lib64/libcuda.so.1, libcuda.so the same object as the driver API's library
//! DIR/lib64/libnvrtc.so.13.0.0        NVRTC (the cuprite-nvrtc crate), with .so.13 and .so links
//! DIR/lib64/libcudadevrt.a          empty: there is no device runtime to link yet
//! DIR/nvvm/libdevice/               empty: CMake requires it to accept the toolkit root
//! DIR/version.json                  CUDA's version file format
//! ```
//!
//! One runtime per process (shared/DESIGN.md §4): the static archive holds a single
//! relocatable object, so every image that links it gets the whole runtime, and all its
//! symbols keep default visibility. When several images of a process carry the runtime
//! (a shared library linked with `-lcudart_static`, a program linked with `-lcudart`),
//! the dynamic linker binds every call to the first definition it finds, so all images
//! use one copy and one state (GNU ld exports an executable's own definitions of
//! symbols that its shared libraries also define).

use crate::support_files;
use crate::toolchain::Toolchain;
use crate::toolkit::{self, Prefix};
use clap::Parser;
use std::path::{Path, PathBuf};

#[derive(Parser, Debug)]
#[command(name = "cuprite install", bin_name = "cuprite install", about = "Write a CUDA-toolkit-shaped directory (bin/nvcc, include/, lib64/) for builds made for nvcc")]
pub struct InstallArgs {
    /// The directory to write (created if missing; files of an earlier install are replaced).
    #[arg(long, value_name = "DIR")]
    pub prefix: PathBuf,
}

pub fn install(args: &InstallArgs) -> Result<(), String> {
    let root = absolute(&args.prefix)?;
    let prefix = Prefix { root };
    for dir in [prefix.bin(), prefix.include(), prefix.lib64(), prefix.libdevice()] {
        std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    install_driver(&prefix)?;
    install_headers(&prefix)?;
    install_libraries(&prefix)?;
    write_file(&prefix.root.join("version.json"), version_json().as_bytes())?;
    write_file(
        &prefix.libdevice().join("README"),
        b"Cuprite compiles device code itself; this directory exists because build systems\nlook for it to recognise a CUDA toolkit.\n",
    )?;
    Ok(())
}

fn absolute(p: &Path) -> Result<PathBuf, String> {
    if p.is_absolute() {
        return Ok(p.to_path_buf());
    }
    let cwd = std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    Ok(cwd.join(p))
}

/// Copies the running binary to `bin/nvcc` (a copy, not a link: the prefix must outlive
/// the build tree).
fn install_driver(prefix: &Prefix) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate the cuprite binary: {e}"))?;
    let dest = prefix.bin().join("nvcc");
    let staging = prefix.bin().join(".nvcc.partial");
    std::fs::copy(&exe, &staging).map_err(|e| format!("cannot write {}: {e}", staging.display()))?;
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&staging, std::fs::Permissions::from_mode(0o755)).map_err(|e| format!("cannot make {} executable: {e}", staging.display()))?;
    // Rename over the old one: a running nvcc keeps its (unlinked) file.
    std::fs::rename(&staging, &dest).map_err(|e| format!("cannot write {}: {e}", dest.display()))
}

fn install_headers(prefix: &Prefix) -> Result<(), String> {
    for (rel, contents) in support_files::HEADERS {
        let mut places = vec![prefix.include().join(rel)];
        // CUDA 13 keeps libcu++'s headers (`cuda/…`, `nv/…`) in include/cccl/ as well,
        // and builds copy them from there (cuda-samples' matrixMul_nvrtc does).
        if rel.starts_with("cuda/") || rel.starts_with("nv/") {
            places.push(prefix.include().join("cccl").join(rel));
        }
        for path in places {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
            }
            write_file(&path, contents.as_bytes())?;
        }
    }
    Ok(())
}

/// The runtime (static, `libcudart.so`, `libcuda.so`) and NVRTC into `DIR/lib64` (also used
/// by tests that need the shared libraries without a whole prefix).
pub fn install_libraries(prefix: &Prefix) -> Result<(), String> {
    let runtime = support_files::runtime_lib()?;
    let tools = Toolchain::new(None, false, false);
    let work = tempfile::Builder::new().prefix("cuprite-install-").tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let object = work.path().join("cudart.o");
    let s = |p: &Path| p.display().to_string();

    // The whole runtime (Rust code, its std, the C helpers) as one relocatable object.
    let ld = env_tool("LD", "ld");
    tools.run(&ld, &["-r".into(), "--whole-archive".into(), s(&runtime), "--no-whole-archive".into(), "-o".into(), s(&object)])?;
    // Rust's precompiled std embeds LLVM bitcode; binutils' LLVM plugin (used by `ar`
    // where one is installed) aborts on it, and no linker needs it.
    tools.run(&tools.objcopy, &["--remove-section=.llvmbc".into(), "--remove-section=.llvmcmd".into(), s(&object)])?;

    let lib64 = prefix.lib64();
    let archive = lib64.join("libcudart_static.a");
    remove_if_present(&archive)?;
    tools.run(&env_tool("AR", "ar"), &["rcs".into(), s(&archive), s(&object)])?;

    // CUDA's soname scheme: libcudart.so → libcudart.so.13 → libcudart.so.13.0.<patch>.
    let soname = format!("libcudart.so.{}", toolkit::CUDA_MAJOR);
    let real = format!("libcudart.so.{}", toolkit::cuda_version());
    let shared = lib64.join(&real);
    remove_if_present(&shared)?;
    tools.run(
        &tools.cc,
        &["-shared".into(), format!("-Wl,-soname,{soname}"), "-o".into(), s(&shared), s(&object), "-lpthread".into(), "-ldl".into(), "-lm".into(), "-lrt".into()],
    )?;
    symlink(&real, &lib64.join(&soname))?;
    symlink(&soname, &lib64.join("libcudart.so"))?;

    // The driver API: the same runtime object under the driver's name (libcuda.so.1), so
    // that whichever of the two a process loads first, it has one runtime (DESIGN.md §4).
    let driver = lib64.join("libcuda.so.1");
    remove_if_present(&driver)?;
    tools.run(
        &tools.cc,
        &["-shared".into(), "-Wl,-soname,libcuda.so.1".into(), "-o".into(), s(&driver), s(&object), "-lpthread".into(), "-ldl".into(), "-lm".into(), "-lrt".into()],
    )?;
    symlink("libcuda.so.1", &lib64.join("libcuda.so"))?;

    // NVRTC: Cuprite's compiler as a library (the cuprite-nvrtc crate, built beside the
    // driver). A driver built alone has none: the prefix then has no libnvrtc.
    match support_files::nvrtc_lib() {
        Ok(nvrtc) => {
            let real = format!("libnvrtc.so.{}", toolkit::cuda_version());
            let dest = lib64.join(&real);
            remove_if_present(&dest)?;
            std::fs::copy(&nvrtc, &dest).map_err(|e| format!("cannot write {}: {e}", dest.display()))?;
            symlink(&real, &lib64.join(format!("libnvrtc.so.{}", toolkit::CUDA_MAJOR)))?;
            symlink(&real, &lib64.join("libnvrtc.so"))?;
        }
        Err(why) => eprintln!("cuprite install: no libnvrtc in the prefix: {why}"),
    }

    // The device runtime (dynamic parallelism, device-side launches) does not exist yet:
    // an empty archive, so that `-lcudadevrt` (CMake adds it to every link) links.
    write_file(&lib64.join("libcudadevrt.a"), b"!<arch>\n")
}

fn env_tool(var: &str, default: &str) -> String {
    std::env::var(var).ok().filter(|s| !s.is_empty()).unwrap_or_else(|| default.to_string())
}

fn version_json() -> String {
    let v = toolkit::cuda_version();
    format!(
        "{{\n   \"cuda\" : {{\n      \"name\" : \"Cuprite (CUDA on the CPU)\",\n      \"version\" : \"{v}\"\n   }},\n   \"cuda_cudart\" : {{\n      \"name\" : \"Cuprite CUDA runtime\",\n      \"version\" : \"{v}\"\n   }},\n   \"cuda_nvcc\" : {{\n      \"name\" : \"Cuprite compiler driver\",\n      \"version\" : \"{v}\"\n   }},\n   \"cuprite\" : {{\n      \"name\" : \"Cuprite\",\n      \"version\" : \"{}\"\n   }}\n}}\n",
        env!("CARGO_PKG_VERSION")
    )
}

fn write_file(path: &Path, contents: &[u8]) -> Result<(), String> {
    remove_if_present(path)?;
    std::fs::write(path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Removes an earlier install's file or symlink (a symlink would otherwise be written
/// through, and a read-only file refused).
fn remove_if_present(path: &Path) -> Result<(), String> {
    match std::fs::symlink_metadata(path) {
        Ok(_) => std::fs::remove_file(path).map_err(|e| format!("cannot replace {}: {e}", path.display())),
        Err(_) => Ok(()),
    }
}

fn symlink(target: &str, link: &Path) -> Result<(), String> {
    remove_if_present(link)?;
    std::os::unix::fs::symlink(target, link).map_err(|e| format!("cannot create {}: {e}", link.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_json_names_cuda_13() {
        let j = version_json();
        assert!(j.contains("\"cuda\" : {"));
        assert!(j.contains(&format!("\"version\" : \"{}\"", toolkit::cuda_version())));
    }
}
