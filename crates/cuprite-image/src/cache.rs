//! Where Cuprite keeps what it compiled, shared by the compiler driver (its build cache,
//! `builds/`) and the runtime (modules compiled at load time, `modules/`).

use std::path::PathBuf;

/// `$CUPRITE_CACHE_DIR`, else `$XDG_CACHE_HOME/cuprite` or `~/.cache/cuprite`, else a
/// directory of the user's in the temporary directory.
pub fn root() -> PathBuf {
    if let Some(d) = std::env::var_os("CUPRITE_CACHE_DIR") {
        PathBuf::from(d)
    } else if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        PathBuf::from(d).join("cuprite")
    } else if let Some(h) = std::env::var_os("HOME") {
        PathBuf::from(h).join(".cache/cuprite")
    } else {
        let user = std::env::var("USER").unwrap_or_else(|_| "user".into());
        std::env::temp_dir().join(format!("cuprite-cache-{user}"))
    }
}
