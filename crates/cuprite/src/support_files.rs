//! What the driver brings to every build besides the user's files: Cuprite's CUDA headers
//! (embedded in the binary, written once to a cache directory) and the runtime's static
//! library (found next to the driver binary, where Cargo leaves it).

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

include!(concat!(env!("OUT_DIR"), "/headers.rs"));

/// The directory holding Cuprite's headers, written on first use. Keyed by a hash of the
/// headers' contents, so that different versions of Cuprite never share one.
pub fn include_dir() -> Result<PathBuf, String> {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    HEADERS.hash(&mut h);
    let base = std::env::temp_dir().join(format!("cuprite-headers-{}-{:016x}", users_id(), h.finish()));
    let dir = base.join("include");
    if dir.join(".complete").exists() {
        return Ok(dir);
    }
    // Write into a private directory, then rename: concurrent builds never see half a tree.
    let staging = std::env::temp_dir().join(format!("cuprite-headers-staging-{}-{}", std::process::id(), h.finish()));
    let staging_inc = staging.join("include");
    let write = || -> std::io::Result<()> {
        for (rel, contents) in HEADERS {
            let path = staging_inc.join(rel);
            std::fs::create_dir_all(path.parent().unwrap())?;
            std::fs::write(path, contents)?;
        }
        std::fs::write(staging_inc.join(".complete"), "")
    };
    write().map_err(|e| format!("cannot write Cuprite's headers to {}: {e}", staging.display()))?;
    match std::fs::rename(&staging, &base) {
        Ok(()) => {}
        Err(_) if dir.join(".complete").exists() => {
            let _ = std::fs::remove_dir_all(&staging);
        }
        Err(e) => return Err(format!("cannot create {}: {e}", base.display())),
    }
    Ok(dir)
}

fn users_id() -> u32 {
    // SAFETY: getuid has no preconditions and cannot fail.
    unsafe { libc::getuid() }
}

/// The runtime library that every program links: `$CUPRITE_RUNTIME_LIB`, else
/// `libcuprite_rt.a` next to the driver, else the newest `deps/libcuprite_rt-*.a` there
/// (Cargo leaves a dependency's static library only there, with a hash in its name).
pub fn runtime_lib() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("CUPRITE_RUNTIME_LIB") {
        return Ok(PathBuf::from(p));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate the cuprite binary: {e}"))?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    let candidates = [dir.to_path_buf(), dir.join("deps"), dir.join("../deps")];
    let mut best: Option<(std::time::SystemTime, PathBuf)> = None;
    for d in candidates {
        let direct = d.join("libcuprite_rt.a");
        if direct.exists() && d == dir {
            return Ok(direct);
        }
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            if name.starts_with("libcuprite_rt") && name.ends_with(".a") {
                let t = e.metadata().and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH);
                if best.as_ref().is_none_or(|(bt, _)| t > *bt) {
                    best = Some((t, e.path()));
                }
            }
        }
    }
    best.map(|(_, p)| p).ok_or_else(|| {
        format!("cannot find Cuprite's runtime library (libcuprite_rt.a) next to {}; build it with `cargo build --release` or set CUPRITE_RUNTIME_LIB", exe.display())
    })
}

/// Cuprite's NVRTC (`libcuprite_nvrtc.so`, the `cuprite-nvrtc` crate): `$CUPRITE_NVRTC_LIB`,
/// else next to the driver (where Cargo builds it), for `-lnvrtc` outside a toolkit prefix.
pub fn nvrtc_lib() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os("CUPRITE_NVRTC_LIB") {
        return Ok(PathBuf::from(p));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate the cuprite binary: {e}"))?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    // Beside the binary after `cargo build`; in `deps/` when only `cargo test` built it.
    [dir.join("libcuprite_nvrtc.so"), dir.join("../libcuprite_nvrtc.so"), dir.join("deps/libcuprite_nvrtc.so"), dir.join("../deps/libcuprite_nvrtc.so")]
        .into_iter()
        .find(|p| p.exists())
        .ok_or_else(|| format!("cannot find Cuprite's NVRTC (libcuprite_nvrtc.so) next to {}; build it with `cargo build --release` or set CUPRITE_NVRTC_LIB", exe.display()))
}
