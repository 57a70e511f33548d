//! The host toolchain: the system C++ compiler (as nvcc uses it) for preprocessing,
//! host code and linking, and the C compiler for generated device code.

use std::path::Path;
use std::process::Command;

pub struct Toolchain {
    /// Host C++ compiler: `-ccbin`, else `$CXX`, else `c++`.
    pub cxx: String,
    /// C compiler for generated device code: `$CC`, else `cc`.
    pub cc: String,
    /// Object-file editor for symbol visibility (binutils): `$OBJCOPY`, else `objcopy`.
    pub objcopy: String,
    pub verbose: bool,
    pub dryrun: bool,
}

impl Toolchain {
    pub fn new(ccbin: Option<&str>, verbose: bool, dryrun: bool) -> Toolchain {
        let env = |name: &str, default: &str| std::env::var(name).ok().filter(|s| !s.is_empty()).unwrap_or_else(|| default.to_string());
        Toolchain {
            cxx: ccbin.map(str::to_string).unwrap_or_else(|| env("CXX", "c++")),
            cc: env("CC", "cc"),
            objcopy: env("OBJCOPY", "objcopy"),
            verbose,
            dryrun,
        }
    }

    /// Runs a command; its stderr goes to ours (compiler diagnostics reach the user
    /// unchanged). Returns stdout.
    pub fn run(&self, program: &str, args: &[String]) -> Result<Vec<u8>, String> {
        if self.verbose || self.dryrun {
            eprintln!("#$ {} {}", program, args.join(" "));
        }
        if self.dryrun {
            return Ok(Vec::new());
        }
        // While run-time compilation captures diagnostics, the tool's go with them.
        let capturing = crate::diagnostics::capturing();
        let out = Command::new(program)
            .args(args)
            .stderr(if capturing { std::process::Stdio::piped() } else { std::process::Stdio::inherit() })
            .output()
            .map_err(|e| format!("cannot run `{program}`: {e}"))?;
        if capturing {
            crate::diagnostics::emit(&String::from_utf8_lossy(&out.stderr));
        }
        if !out.status.success() {
            return Err(String::new()); // the tool has already said why
        }
        Ok(out.stdout)
    }

    pub fn run_to_file(&self, program: &str, args: &[String], out: &Path) -> Result<(), String> {
        let text = self.run(program, args)?;
        if !self.dryrun {
            std::fs::write(out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        }
        Ok(())
    }
}
