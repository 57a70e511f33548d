//! The build cache: a build whose inputs have not changed is not done again.
//!
//! A build is found in two steps, as ccache's "direct mode" does it:
//! 1. the **invocation key** hashes what is known before reading any source: Cuprite's own
//!    binary, the host compilers it would run, the working directory, the environment
//!    variables that change a build, and the command line;
//! 2. under that key, a **manifest** lists every file the last such build read — both
//!    preprocessor views of each `.cu` file with all their headers (from the
//!    preprocessor's dependency lists), the other sources, the objects and libraries on
//!    the link line, the runtime library — each with its size, modification time and
//!    content hash, plus the build's products and what it printed on stderr.
//!
//! A lookup hits when every listed file still has its content (equal size and mtime are
//! taken as unchanged without reading the file; otherwise its content is hashed). A hit
//! copies the products into place and replays the diagnostics. Each key keeps the latest
//! build only; the cache is trimmed to `CUPRITE_CACHE_SIZE` bytes (default 2 GiB), oldest
//! first. `CUPRITE_CACHE=0` turns it off. It lives in `$CUPRITE_CACHE_DIR`, else
//! `$XDG_CACHE_HOME/cuprite` or `~/.cache/cuprite` (shared with the runtime's module cache).

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::UNIX_EPOCH;

/// Bumped when the manifest's meaning changes.
const FORMAT: u32 = 1;
const DEFAULT_SIZE_LIMIT: u64 = 2 << 30;

fn builds_dir() -> PathBuf {
    cuprite_image::cache::root().join("builds")
}

/// Whether the cache is on (`CUPRITE_CACHE=0`, `off` or `false` turns it off).
pub fn enabled() -> bool {
    !matches!(std::env::var("CUPRITE_CACHE").as_deref(), Ok("0" | "off" | "false" | "no"))
}

/// What a build read, as recorded while it runs (see [`record`]).
static RECORDED: Mutex<Option<Vec<PathBuf>>> = Mutex::new(None);

/// Starts recording the files the build reads.
pub fn start_recording() {
    *RECORDED.lock().unwrap_or_else(|e| e.into_inner()) = Some(Vec::new());
}

/// Whether a build is being recorded (then the pipeline asks for dependency lists).
pub fn recording() -> bool {
    RECORDED.lock().map(|r| r.is_some()).unwrap_or(false)
}

/// Notes that the build read `path`.
pub fn record(path: impl Into<PathBuf>) {
    if let Some(list) = RECORDED.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        list.push(path.into());
    }
}

/// Notes every file a make-style dependency file (`-MD -MF`) names.
pub fn record_depfile(depfile: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(depfile).map_err(|e| format!("cannot read the dependency list {}: {e}", depfile.display()))?;
    for p in depfile_prerequisites(&text) {
        record(p);
    }
    Ok(())
}

fn take_recorded() -> Vec<PathBuf> {
    let mut list = RECORDED.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or_default();
    list.sort();
    list.dedup();
    list
}

/// The prerequisites of every rule in a make dependency file (`a.o: x.h y.h \` …), with
/// make's escapes (`\ ` for a space, `$$` for `$`) undone. Phony targets (`-MP`) add
/// rules without prerequisites, which is harmless.
pub fn depfile_prerequisites(text: &str) -> Vec<PathBuf> {
    let joined = text.replace("\\\r\n", " ").replace("\\\n", " ");
    let mut out = Vec::new();
    for line in joined.lines() {
        // The target ends at the first ": " (a colon followed by a space or the end).
        let Some(colon) = rule_colon(line) else { continue };
        let mut word = String::new();
        let mut chars = line[colon + 1..].chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' if chars.peek() == Some(&' ') => {
                    word.push(' ');
                    chars.next();
                }
                '$' if chars.peek() == Some(&'$') => {
                    word.push('$');
                    chars.next();
                }
                c if c.is_whitespace() => {
                    if !word.is_empty() {
                        out.push(PathBuf::from(std::mem::take(&mut word)));
                    }
                }
                c => word.push(c),
            }
        }
        if !word.is_empty() {
            out.push(PathBuf::from(word));
        }
    }
    out
}

fn rule_colon(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    (0..bytes.len()).find(|&i| bytes[i] == b':' && (i + 1 == bytes.len() || bytes[i + 1] == b' ' || bytes[i + 1] == b'\t') && (i == 0 || bytes[i - 1] != b'\\'))
}

/// A file's identity for a quick "unchanged?" test.
fn stamp(path: &Path) -> Option<(u64, u128)> {
    let m = std::fs::metadata(path).ok()?;
    let mtime = m.modified().ok()?.duration_since(UNIX_EPOCH).ok()?.as_nanos();
    Some((m.len(), mtime))
}

fn content_hash(path: &Path) -> Option<[u8; 32]> {
    let mut h = blake3::Hasher::new();
    h.update_reader(std::fs::File::open(path).ok()?).ok()?;
    Some(*h.finalize().as_bytes())
}

/// The invocation key: everything that decides a build before any source is read.
pub struct Invocation {
    hasher: blake3::Hasher,
}

impl Invocation {
    /// Starts a key from Cuprite's own binary, the working directory and the environment.
    pub fn new() -> Invocation {
        let mut inv = Invocation { hasher: blake3::Hasher::new() };
        inv.add(&format!("cuprite build cache {FORMAT}"));
        match std::env::current_exe() {
            Ok(exe) => inv.add_file_identity(&exe),
            Err(_) => inv.add("no-exe"),
        }
        inv.add(&std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_default());
        // Variables that the driver, the compilers it runs or the preprocessor read.
        const ENV: [&str; 13] = [
            "CC",
            "CXX",
            "CUPRITE_RUNTIME_LIB",
            "CUPRITE_NVRTC_LIB",
            "CUPRITE_VERIFY_IR",
            "CPATH",
            "C_INCLUDE_PATH",
            "CPLUS_INCLUDE_PATH",
            "LIBRARY_PATH",
            "GCC_EXEC_PREFIX",
            "COMPILER_PATH",
            "SOURCE_DATE_EPOCH",
            "TMPDIR",
        ];
        for v in ENV {
            inv.add(&format!("{v}={:?}", std::env::var_os(v)));
        }
        // And every `CUPRITE_*` variable, so that a setting the compiler reads (for
        // example `CUPRITE_DEVICE_PTX`) never meets a build made without it. (Those the
        // program reads only at run time cost a rebuild, never a wrong program.)
        let mut ours: Vec<(String, std::ffi::OsString)> = std::env::vars_os()
            .filter_map(|(k, v)| k.into_string().ok().filter(|k| k.starts_with("CUPRITE_") && !k.starts_with("CUPRITE_CACHE")).map(|k| (k, v)))
            .collect();
        ours.sort();
        for (k, v) in ours {
            inv.add(&format!("{k}={v:?}"));
        }
        inv
    }

    pub fn add(&mut self, text: &str) {
        self.hasher.update(&(text.len() as u64).to_le_bytes());
        self.hasher.update(text.as_bytes());
    }

    /// A program named as the driver would run it (`c++`, or a path): which file it is,
    /// its size and modification time.
    pub fn add_program(&mut self, program: &str) {
        match which(program) {
            Some(p) => self.add_file_identity(&p),
            None => self.add(&format!("missing program {program}")),
        }
    }

    fn add_file_identity(&mut self, path: &Path) {
        let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        self.add(&format!("{} {:?}", real.display(), stamp(&real)));
    }

    pub fn finish(&self) -> String {
        self.hasher.finalize().to_hex()[..32].to_string()
    }
}

/// `program` resolved as `execvp` would (a name with a slash is a path).
fn which(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        return Some(PathBuf::from(program));
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(program)).find(|p| p.is_file())
}

#[derive(Serialize, Deserialize)]
struct Dependency {
    path: PathBuf,
    size: u64,
    mtime: u128,
    hash: [u8; 32],
}

#[derive(Serialize, Deserialize)]
struct Manifest {
    format: u32,
    deps: Vec<Dependency>,
    /// Where each product goes, in the order of the stored files `0`, `1`, …
    products: Vec<PathBuf>,
    /// What the build printed on stderr (warnings), replayed on a hit.
    diagnostics: String,
}

/// A build found in the cache.
pub struct Hit {
    dir: PathBuf,
    manifest: Manifest,
}

impl Hit {
    /// The stored copy of the `i`th product.
    pub fn product(&self, i: usize) -> Option<PathBuf> {
        (i < self.manifest.products.len()).then(|| self.dir.join(i.to_string()))
    }

    /// Prints what the cached build printed.
    pub fn replay_diagnostics(&self) {
        crate::diagnostics::emit(&self.manifest.diagnostics);
    }

    /// Replays the diagnostics and copies every product into place.
    pub fn restore(&self) -> Result<(), String> {
        self.replay_diagnostics();
        for (i, dest) in self.manifest.products.iter().enumerate() {
            let src = self.dir.join(i.to_string());
            // Replace rather than overwrite: a running program may hold the old file.
            let _ = std::fs::remove_file(dest);
            std::fs::copy(&src, dest).map_err(|e| format!("cannot copy the cached {} to {}: {e}", src.display(), dest.display()))?;
        }
        Ok(())
    }
}

/// The build stored under `key`, if every file it read is unchanged.
pub fn lookup(key: &str) -> Option<Hit> {
    let dir = builds_dir().join(key);
    let bytes = std::fs::read(dir.join("manifest")).ok()?;
    let manifest: Manifest = bincode::deserialize(&bytes).ok()?;
    if manifest.format != FORMAT {
        return None;
    }
    for d in &manifest.deps {
        let now = stamp(&d.path)?;
        if now != (d.size, d.mtime) && content_hash(&d.path)? != d.hash {
            return None;
        }
    }
    if (0..manifest.products.len()).any(|i| !dir.join(i.to_string()).is_file()) {
        return None;
    }
    // Mark it used, for trimming (oldest first).
    let _ = std::fs::File::options().append(true).open(dir.join("manifest")).and_then(|f| f.set_modified(std::time::SystemTime::now()));
    Some(Hit { dir, manifest })
}

/// Stores a finished build: what it recorded as read, its products and diagnostics.
/// A failure to store is not the build's failure; it only costs the next build.
pub fn store(key: &str, products: &[PathBuf], diagnostics: &str) {
    let read = take_recorded();
    let _ = try_store(key, &read, products, diagnostics);
    trim();
}

fn try_store(key: &str, read: &[PathBuf], products: &[PathBuf], diagnostics: &str) -> Option<()> {
    let mut deps = Vec::with_capacity(read.len());
    for path in read {
        let (size, mtime) = stamp(path)?;
        deps.push(Dependency { path: path.clone(), size, mtime, hash: content_hash(path)? });
    }
    let builds = builds_dir();
    std::fs::create_dir_all(&builds).ok()?;
    // Fill a private directory, then rename it into place: readers never see half an entry.
    let staging = tempfile::Builder::new().prefix(".staging-").tempdir_in(&builds).ok()?;
    for (i, p) in products.iter().enumerate() {
        std::fs::copy(p, staging.path().join(i.to_string())).ok()?;
    }
    let manifest = Manifest { format: FORMAT, deps, products: products.to_vec(), diagnostics: diagnostics.to_string() };
    std::fs::write(staging.path().join("manifest"), bincode::serialize(&manifest).ok()?).ok()?;
    let target = builds.join(key);
    let _ = std::fs::remove_dir_all(&target);
    std::fs::rename(staging.keep(), &target).ok()
}

/// The cache key of an object the C compiler makes from generated C (one translation
/// unit of device code): the compiler (which file, size, mtime), its flags and the C.
/// An unchanged unit (a build whose host code changed, or that left this kernel alone)
/// is not compiled again.
pub fn object_key(cc: &str, flags: &[String], c_text: &str) -> String {
    let mut inv = Invocation { hasher: blake3::Hasher::new() };
    inv.add(&format!("cuprite object cache {FORMAT}"));
    inv.add_program(cc);
    for f in flags {
        inv.add(f);
    }
    inv.add(c_text);
    format!("o-{}", inv.finish())
}

/// Copies the cached object of `key` to `out`; false when there is none (or the cache
/// is off). The entry counts as used now (for trimming).
pub fn object_lookup(key: &str, out: &Path) -> bool {
    if !enabled() {
        return false;
    }
    let dir = builds_dir().join(key);
    if std::fs::copy(dir.join("object"), out).is_err() {
        return false;
    }
    let _ = std::fs::write(dir.join("manifest"), b"");
    true
}

/// Stores `object` under `key` (entries live beside the builds', under the same size
/// limit; `manifest` marks the time of last use). Failing to store costs only time.
pub fn object_store(key: &str, object: &Path) {
    if !enabled() {
        return;
    }
    let builds = builds_dir();
    let stored = (|| {
        std::fs::create_dir_all(&builds).ok()?;
        let staging = tempfile::Builder::new().prefix(".staging-").tempdir_in(&builds).ok()?;
        std::fs::copy(object, staging.path().join("object")).ok()?;
        std::fs::write(staging.path().join("manifest"), b"").ok()?;
        let target = builds.join(key);
        let _ = std::fs::remove_dir_all(&target);
        std::fs::rename(staging.keep(), &target).ok()
    })();
    if stored.is_some() {
        trim();
    }
}

/// Removes the least recently used entries while the cache is over its size limit.
fn trim() {
    let limit = std::env::var("CUPRITE_CACHE_SIZE").ok().and_then(|s| s.parse::<u64>().ok()).unwrap_or(DEFAULT_SIZE_LIMIT);
    let Ok(entries) = std::fs::read_dir(builds_dir()) else { return };
    let mut all: Vec<(std::time::SystemTime, u64, PathBuf)> = Vec::new();
    for e in entries.flatten() {
        let path = e.path();
        let Ok(manifest) = std::fs::metadata(path.join("manifest")) else { continue };
        let used = manifest.modified().unwrap_or(UNIX_EPOCH);
        let size = std::fs::read_dir(&path).map(|d| d.flatten().filter_map(|f| f.metadata().ok()).map(|m| m.len()).sum()).unwrap_or(0);
        all.push((used, size, path));
    }
    let mut total: u64 = all.iter().map(|(_, s, _)| s).sum();
    all.sort();
    for (_, size, path) in all {
        if total <= limit {
            break;
        }
        if std::fs::remove_dir_all(&path).is_ok() {
            total -= size;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuprite_variables_are_part_of_the_key() {
        let without = Invocation::new().finish();
        std::env::set_var("CUPRITE_DEVICE_PTX", "/tmp/some.ptx");
        let with = Invocation::new().finish();
        std::env::remove_var("CUPRITE_DEVICE_PTX");
        assert_ne!(without, with);
        assert_eq!(without, Invocation::new().finish());
    }

    #[test]
    fn depfiles_are_read_as_make_reads_them() {
        let text = "obj.o: a.cu /inc/b\\ c.h \\\n  /usr/include/stdio.h\nd$$.h:\n";
        let got = depfile_prerequisites(text);
        assert_eq!(got, vec![PathBuf::from("a.cu"), PathBuf::from("/inc/b c.h"), PathBuf::from("/usr/include/stdio.h")]);
    }
}
