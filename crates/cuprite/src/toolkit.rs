//! The toolkit prefix that `cuprite install` writes (see `install.rs`): how the running
//! binary finds it, the CUDA version it stands for, and the `-v` lines that tell build
//! systems (CMake) where its headers and libraries are.

use std::path::{Path, PathBuf};

/// The CUDA release Cuprite implements (headers' `CUDART_VERSION`, `__CUDACC_VER_*__`).
pub const CUDA_MAJOR: u32 = 13;
pub const CUDA_MINOR: u32 = 0;
pub const CUDA_PATCH: u32 = 0;

pub fn cuda_version() -> String {
    format!("{CUDA_MAJOR}.{CUDA_MINOR}.{CUDA_PATCH}")
}

/// A toolkit prefix: `bin/nvcc`, `include/`, `lib64/`, `version.json`.
#[derive(Clone, Debug)]
pub struct Prefix {
    pub root: PathBuf,
}

impl Prefix {
    /// The prefix the running binary lives in (`DIR/bin/nvcc` → `DIR`), if it is one:
    /// its `lib64` holds the runtime and its `include` the headers. A binary in Cargo's
    /// `target/` directory is not in a prefix and finds its runtime as before.
    pub fn of_running_binary() -> Option<Prefix> {
        let exe = std::env::current_exe().ok()?;
        let root = exe.parent()?.parent()?.to_path_buf();
        let prefix = Prefix { root };
        (prefix.lib64().join("libcudart_static.a").is_file() && prefix.include().join("cuda_runtime.h").is_file()).then_some(prefix)
    }

    pub fn bin(&self) -> PathBuf {
        self.root.join("bin")
    }
    pub fn include(&self) -> PathBuf {
        self.root.join("include")
    }
    pub fn lib64(&self) -> PathBuf {
        self.root.join("lib64")
    }
    /// CMake requires `nvvm/libdevice` to exist to accept a toolkit root; it stays empty.
    pub fn libdevice(&self) -> PathBuf {
        self.root.join("nvvm").join("libdevice")
    }
}

/// True when the binary runs under nvcc's name (`DIR/bin/nvcc`): messages then say
/// `nvcc`, and `run`/`install` are not subcommands but ordinary (input) arguments.
pub fn invoked_as_nvcc(argv0: &str) -> bool {
    Path::new(argv0).file_name().and_then(|n| n.to_str()).is_some_and(|n| n == "nvcc")
}

/// The variable lines nvcc prints first under `-v`/`--dryrun`, in the `#$ NAME=value`
/// form that CMake's CUDA support parses (TOP, NVVMIR_LIBRARY_DIR, PATH, INCLUDES,
/// LIBRARIES). `libraries` must appear verbatim on the link line printed later: CMake
/// finds the link line by that string.
pub fn verbose_variables(top: &Path, include: &Path, libraries: &str) -> String {
    let bin = top.join("bin");
    let path = std::env::var("PATH").unwrap_or_default();
    let mut s = String::new();
    let mut var = |name: &str, value: String| {
        s.push_str(&format!("#$ {name}={value}\n"));
    };
    var("_NVVM_BRANCH_", "nvvm".into());
    var("_HERE_", bin.display().to_string());
    var("_THERE_", bin.display().to_string());
    var("_TARGET_SIZE_", "64".into());
    var("TOP", top.display().to_string());
    var("NVVMIR_LIBRARY_DIR", top.join("nvvm").join("libdevice").display().to_string());
    var("PATH", format!("{}:{path}", bin.display()));
    var("INCLUDES", quote(&format!("-I{}", include.display())));
    var("SYSTEM_INCLUDES", String::new());
    var("LIBRARIES", libraries.to_string());
    s
}

/// Quotes an argument for a printed command line when it needs it.
pub fn quote(arg: &str) -> String {
    if !arg.is_empty() && arg.chars().all(|c| c.is_ascii_alphanumeric() || "-_=+/.,:@%".contains(c)) {
        arg.to_string()
    } else {
        format!("\"{}\"", arg.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvcc_name() {
        assert!(invoked_as_nvcc("/opt/cuprite/bin/nvcc"));
        assert!(invoked_as_nvcc("nvcc"));
        assert!(!invoked_as_nvcc("target/release/cuprite"));
    }

    #[test]
    fn verbose_lines_are_cmakes_format() {
        let s = verbose_variables(Path::new("/p"), Path::new("/p/include"), "-L/p/lib64");
        assert!(s.contains("#$ TOP=/p\n"));
        assert!(s.contains("#$ INCLUDES=-I/p/include\n"));
        assert!(s.contains("#$ LIBRARIES=-L/p/lib64\n"));
        assert!(s.contains("#$ NVVMIR_LIBRARY_DIR=/p/nvvm/libdevice\n"));
    }
}
