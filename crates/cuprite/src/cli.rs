//! The command line: nvcc's flags, parsed with clap.
//!
//! nvcc spells long options with one dash (`-arch=sm_90`, `-Xcompiler -fopenmp`) and also
//! with two. clap's long options need two, so `normalize` first rewrites the one-dash form
//! of every long option nvcc knows; what remains is ordinary clap parsing. An option nvcc
//! does not know is an error, as in nvcc.

use clap::Parser;
use std::path::PathBuf;

/// nvcc's long options (without dashes), in the spellings nvcc accepts.
const LONG_OPTIONS: &[&str] = &[
    "arch", "gpu-architecture", "code", "gpu-code", "gencode", "generate-code", "std",
    "Xcompiler", "compiler-options", "Xlinker", "linker-options", "Xptxas", "ptxas-options",
    "Xnvlink", "nvlink-options", "lineinfo", "generate-line-info", "use_fast_math",
    "use-fast-math", "maxrregcount", "keep", "keep-dir", "ccbin", "compiler-bindir", "rdc",
    "relocatable-device-code", "run", "run-args", "version", "dc", "device-c", "dlink",
    "device-link", "fmad", "ftz", "prec-div", "prec-sqrt", "extended-lambda",
    "expt-extended-lambda", "expt-relaxed-constexpr", "resource-usage", "res-usage", "Werror",
    "Wno-deprecated-gpu-targets", "Wno-deprecated-declarations", "Wreorder",
    "Wext-robust-types", "m64", "output-file", "compile", "device-debug", "debug", "optimize",
    "include-path", "define-macro", "undefine-macro", "library-path", "library", "x",
    "language", "MD", "MF", "MT", "MMD", "generate-dependencies", "dryrun", "verbose",
    "disable-warnings", "threads", "split-compile", "allow-unsupported-compiler",
    "default-stream", "cudart", "cudadevrt", "diag-suppress", "expt-relaxed-constexpr",
    "display-error-number", "no-display-error-number", "source-in-ptx", "forward-unknown-to-host-compiler",
    "isystem", "system-include", "MM", "MP", "generate-nonsystem-dependencies",
    "generate-dependencies-with-compile", "generate-nonsystem-dependencies-with-compile",
    "dependency-output", "dependency-target-name", "generate-dependency-targets",
    "forward-unknown-opts",
];

/// Replaces `--options-file FILE` / `-optf FILE` (also `=FILE`) by the arguments the file
/// holds, as nvcc does; CMake passes include directories and objects this way.
pub fn expand_options_files(args: Vec<String>) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut it = args.into_iter();
    while let Some(arg) = it.next() {
        if arg == "--" {
            out.push(arg);
            out.extend(it.by_ref());
            break;
        }
        let file = match arg.as_str() {
            "--options-file" | "-options-file" | "-optf" | "--optf" => {
                Some(it.next().ok_or_else(|| format!("Option '{arg}' needs a file name"))?)
            }
            _ => ["--options-file=", "-options-file=", "-optf=", "--optf="].iter().find_map(|p| arg.strip_prefix(p)).map(str::to_string),
        };
        match file {
            Some(f) => {
                let text = std::fs::read_to_string(&f).map_err(|e| format!("Could not open options file '{f}': {e}"))?;
                out.extend(split_options(&text));
            }
            None => out.push(arg),
        }
    }
    Ok(out)
}

/// Splits an options file's text as a shell would split words: whitespace separates,
/// single and double quotes group, a backslash escapes the next character.
pub fn split_options(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                in_word = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

/// Parses the command line. With `-forward-unknown-to-host-compiler`, an option nvcc does
/// not know goes to the host compiler (as `-Xcompiler`) instead of being an error.
pub fn parse(mut args: Vec<String>) -> Result<(Options, Vec<String>), (clap::Error, Vec<String>)> {
    let forward = args.iter().any(|a| matches!(a.as_str(), "--forward-unknown-to-host-compiler" | "--forward-unknown-opts"));
    // Each round forwards one unknown option; bounded by the number of arguments.
    for _ in 0..=args.len() {
        match Options::try_parse_from(&args) {
            Ok(o) => return Ok((o, args)),
            Err(e) => {
                use clap::error::{ContextKind, ContextValue, ErrorKind};
                let bad = match (forward, e.kind(), e.get(ContextKind::InvalidArg)) {
                    (true, ErrorKind::UnknownArgument, Some(ContextValue::String(bad))) => bad.clone(),
                    _ => return Err((e, args)),
                };
                // clap names only the first letter of an unknown short-option cluster.
                let Some(pos) = args.iter().skip(1).position(|a| a == &bad || (a.starts_with(bad.as_str()) && !bad.starts_with("--"))) else {
                    return Err((e, args));
                };
                let whole = args[pos + 1].clone();
                args[pos + 1] = format!("--Xcompiler={whole}");
            }
        }
    }
    Options::try_parse_from(&args).map(|o| (o, args.clone())).map_err(|e| (e, args))
}

/// The CUDA runtime a link uses (`-cudart`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cudart {
    Static,
    Shared,
    None,
}

/// Rewrites nvcc's one-dash long options (`-arch=sm_90`) into clap's two-dash form.
pub fn normalize(args: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut after_double_dash = false;
    for arg in args {
        if after_double_dash {
            out.push(arg);
            continue;
        }
        if arg == "--" {
            after_double_dash = true;
            out.push(arg);
            continue;
        }
        // gcc's joined spelling, which CMake may pass: -isystem/usr/include/x.
        if let Some(dir) = arg.strip_prefix("-isystem").filter(|d| !d.is_empty() && !d.starts_with('=')) {
            out.push("--isystem".into());
            out.push(dir.to_string());
            continue;
        }
        if let Some(rest) = arg.strip_prefix('-') {
            if !rest.starts_with('-') {
                let name = rest.split('=').next().unwrap_or("");
                if name.len() > 1 && LONG_OPTIONS.contains(&name) {
                    out.push(format!("-{arg}"));
                    continue;
                }
            }
        }
        out.push(arg);
    }
    out
}

/// One line in nvcc's style for a bad command line: `Unknown option '-frobnicate'`.
pub fn describe_error(e: &clap::Error, args: &[String]) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() == ErrorKind::UnknownArgument {
        if let Some(ContextValue::String(bad)) = e.get(ContextKind::InvalidArg) {
            // clap names only the first letter of an unknown short-option cluster.
            let whole = args.iter().skip(1).find(|a| a.starts_with(bad.as_str())).unwrap_or(bad);
            return format!("Unknown option '{whole}'");
        }
    }
    let msg = e.to_string();
    msg.lines().next().unwrap_or("").trim_start_matches("error: ").to_string()
}

#[derive(Parser, Debug, Default, Clone)]
#[command(
    name = "cuprite",
    about = "Compile CUDA programs to run on the CPU (an nvcc-compatible driver)",
    after_help = "Also: `cuprite run [flags] file.cu [-- args]` builds and runs a program; `cuprite install --prefix DIR` writes a CUDA toolkit directory (DIR/bin/nvcc, include/, lib64/) for CMake, Makefiles and `g++ -lcudart`.",
    disable_version_flag = true,
    allow_negative_numbers = true
)]
pub struct Options {
    /// Output file.
    #[arg(short = 'o', long = "output-file", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Compile each input to an object file; do not link.
    #[arg(short = 'c', long = "compile")]
    pub compile_only: bool,
    /// Preprocess only (host view), like nvcc -E.
    #[arg(short = 'E')]
    pub preprocess_only: bool,
    /// Add a directory to the include path.
    #[arg(short = 'I', long = "include-path", value_name = "DIR")]
    pub include_dirs: Vec<String>,
    /// Define a macro: NAME or NAME=VALUE.
    #[arg(short = 'D', long = "define-macro", value_name = "DEF")]
    pub defines: Vec<String>,
    /// Undefine a macro.
    #[arg(short = 'U', long = "undefine-macro", value_name = "NAME")]
    pub undefines: Vec<String>,
    /// Add a library search directory.
    #[arg(short = 'L', long = "library-path", value_name = "DIR")]
    pub lib_dirs: Vec<String>,
    /// Link a library.
    #[arg(short = 'l', long = "library", value_name = "LIB")]
    pub libs: Vec<String>,
    /// Optimisation level for host and device code (0-3).
    #[arg(short = 'O', long = "optimize", value_name = "N")]
    pub opt: Option<String>,
    /// Host debug information.
    #[arg(short = 'g', long = "debug")]
    pub debug: bool,
    /// Device debug information: the generated C carries #line directives to the .cu.
    #[arg(short = 'G', long = "device-debug")]
    pub device_debug: bool,
    /// Accepted (line information for profilers).
    #[arg(long = "lineinfo", alias = "generate-line-info")]
    pub lineinfo: bool,
    /// Target compute capability: sm_XX or compute_XX (limits and __CUDA_ARCH__).
    #[arg(long = "arch", alias = "gpu-architecture", value_name = "ARCH")]
    pub arch: Option<String>,
    /// Accepted (GPU code generation).
    #[arg(long = "code", alias = "gpu-code", value_name = "CODE")]
    pub code: Vec<String>,
    /// Accepted: arch=compute_XX,code=sm_XX; the first arch sets __CUDA_ARCH__.
    #[arg(long = "gencode", alias = "generate-code", value_name = "SPEC")]
    pub gencode: Vec<String>,
    /// C++ dialect (c++11, c++14, c++17, c++20); default c++17 as nvcc 13.
    #[arg(long = "std", value_name = "DIALECT")]
    pub std: Option<String>,
    /// Options for the host compiler (comma separated).
    #[arg(long = "Xcompiler", alias = "compiler-options", value_name = "OPTS", allow_hyphen_values = true)]
    pub xcompiler: Vec<String>,
    /// Options for the host linker (comma separated).
    #[arg(long = "Xlinker", alias = "linker-options", value_name = "OPTS", allow_hyphen_values = true)]
    pub xlinker: Vec<String>,
    /// Accepted (options for ptxas).
    #[arg(long = "Xptxas", alias = "ptxas-options", value_name = "OPTS", allow_hyphen_values = true)]
    pub xptxas: Vec<String>,
    /// Accepted (options for nvlink).
    #[arg(long = "Xnvlink", alias = "nvlink-options", value_name = "OPTS", allow_hyphen_values = true)]
    pub xnvlink: Vec<String>,
    /// Language of the inputs that follow: cu, c++, c.
    #[arg(short = 'x', long = "language", value_name = "LANG")]
    pub language: Option<String>,
    /// Run the program after building it.
    #[arg(long = "run")]
    pub run: bool,
    /// Arguments for --run.
    #[arg(long = "run-args", value_name = "ARGS", allow_hyphen_values = true)]
    pub run_args: Vec<String>,
    /// Print the version.
    #[arg(short = 'V', long = "version")]
    pub version: bool,
    /// Add a directory to the include path as a system directory (no warnings from it).
    #[arg(long = "isystem", alias = "system-include", value_name = "DIR")]
    pub system_include_dirs: Vec<String>,
    /// Write make dependencies to stdout (or -MF) instead of compiling.
    #[arg(short = 'M', long = "generate-dependencies")]
    pub deps_only: bool,
    /// As -M, without system headers.
    #[arg(long = "MM", alias = "generate-nonsystem-dependencies")]
    pub deps_only_nonsystem: bool,
    /// Write make dependencies to a .d file while compiling.
    #[arg(long = "MD", alias = "generate-dependencies-with-compile")]
    pub deps_md: bool,
    /// As -MD, without system headers.
    #[arg(long = "MMD", alias = "generate-nonsystem-dependencies-with-compile")]
    pub deps_mmd: bool,
    /// The dependency file for -M/-MM/-MD/-MMD.
    #[arg(long = "MF", alias = "dependency-output", value_name = "FILE")]
    pub deps_file: Option<PathBuf>,
    /// The target named in the dependency file.
    #[arg(long = "MT", alias = "dependency-target-name", value_name = "TARGET")]
    pub deps_target: Option<String>,
    /// Add a phony target for each dependency.
    #[arg(long = "MP", alias = "generate-dependency-targets")]
    pub deps_phony: bool,
    /// Fast math: flush to zero, approximate division and transcendental functions.
    #[arg(long = "use_fast_math", alias = "use-fast-math")]
    pub fast_math: bool,
    /// Contract multiplies and adds into fused multiply-adds (default true).
    #[arg(long = "fmad", value_name = "BOOL")]
    pub fmad: Option<String>,
    #[arg(long = "ftz", value_name = "BOOL")]
    pub ftz: Option<String>,
    #[arg(long = "prec-div", value_name = "BOOL")]
    pub prec_div: Option<String>,
    #[arg(long = "prec-sqrt", value_name = "BOOL")]
    pub prec_sqrt: Option<String>,
    /// Accepted (register limit for GPU code).
    #[arg(long = "maxrregcount", value_name = "N")]
    pub maxrregcount: Option<String>,
    /// Keep intermediate files (preprocessed host and device sources, generated C).
    #[arg(long = "keep")]
    pub keep: bool,
    #[arg(long = "keep-dir", value_name = "DIR")]
    pub keep_dir: Option<PathBuf>,
    /// Host compiler to use (default: $CXX or c++).
    #[arg(long = "ccbin", alias = "compiler-bindir", value_name = "PATH")]
    pub ccbin: Option<String>,
    /// Relocatable device code (separate compilation): only false is supported yet.
    #[arg(long = "rdc", alias = "relocatable-device-code", value_name = "BOOL")]
    pub rdc: Option<String>,
    #[arg(long = "dc", alias = "device-c")]
    pub dc: bool,
    #[arg(long = "dlink", alias = "device-link")]
    pub dlink: bool,
    /// Show the commands that would run.
    #[arg(long = "dryrun")]
    pub dryrun: bool,
    /// Show the commands as they run.
    #[arg(short = 'v', long = "verbose")]
    pub verbose: bool,
    /// Inhibit warnings.
    #[arg(short = 'w', long = "disable-warnings")]
    pub no_warnings: bool,
    #[arg(long = "Werror", value_name = "KIND")]
    pub werror: Vec<String>,
    #[arg(long = "Wno-deprecated-gpu-targets")]
    pub wno_deprecated_gpu_targets: bool,
    #[arg(long = "Wno-deprecated-declarations")]
    pub wno_deprecated_declarations: bool,
    #[arg(long = "Wreorder")]
    pub wreorder: bool,
    #[arg(long = "Wext-robust-types")]
    pub wext_robust_types: bool,
    #[arg(long = "m64")]
    pub m64: bool,
    #[arg(long = "expt-relaxed-constexpr")]
    pub relaxed_constexpr: bool,
    #[arg(long = "extended-lambda", alias = "expt-extended-lambda")]
    pub extended_lambda: bool,
    #[arg(long = "resource-usage", alias = "res-usage")]
    pub resource_usage: bool,
    #[arg(long = "threads", value_name = "N")]
    pub threads: Option<String>,
    #[arg(long = "split-compile", value_name = "N")]
    pub split_compile: Option<String>,
    #[arg(long = "allow-unsupported-compiler")]
    pub allow_unsupported_compiler: bool,
    #[arg(long = "default-stream", value_name = "KIND")]
    pub default_stream: Option<String>,
    /// The CUDA runtime to link: static (default), shared, none.
    #[arg(long = "cudart", value_name = "KIND")]
    pub cudart: Option<String>,
    #[arg(long = "cudadevrt", value_name = "KIND")]
    pub cudadevrt: Option<String>,
    #[arg(long = "diag-suppress", value_name = "N")]
    pub diag_suppress: Vec<String>,
    #[arg(long = "display-error-number")]
    pub display_error_number: bool,
    #[arg(long = "no-display-error-number")]
    pub no_display_error_number: bool,
    #[arg(long = "source-in-ptx")]
    pub source_in_ptx: bool,
    /// Pass options nvcc does not know to the host compiler instead of refusing them.
    #[arg(long = "forward-unknown-to-host-compiler", alias = "forward-unknown-opts")]
    pub forward_unknown: bool,
    /// Input files: .cu, .c, .cpp/.cc/.cxx, .o/.a.
    pub inputs: Vec<PathBuf>,
    /// Arguments for the program (`cuprite run file.cu -- args`).
    #[arg(last = true)]
    pub program_args: Vec<String>,
}

impl Options {
    /// Splits nvcc's comma-separated option lists (`-Xcompiler -O3,-fopenmp`).
    pub fn split_commas(values: &[String]) -> Vec<String> {
        values.iter().flat_map(|v| v.split(',')).filter(|s| !s.is_empty()).map(str::to_string).collect()
    }

    /// The compute capability as a number (90 for sm_90): from -arch, else from the first
    /// -gencode, else nvcc 13's default.
    pub fn compute_capability(&self) -> Result<u32, String> {
        let spec = if let Some(a) = &self.arch {
            Some(a.clone())
        } else {
            self.gencode.first().and_then(|g| {
                g.split(',').find_map(|p| p.strip_prefix("arch=").map(str::to_string))
            })
        };
        match spec {
            None => Ok(crate::DEFAULT_ARCH),
            Some(s) => parse_arch(&s).ok_or_else(|| format!("Value '{s}' is not defined for option 'gpu-architecture'")),
        }
    }

    pub fn opt_level(&self) -> Result<u8, String> {
        match self.opt.as_deref() {
            None => Ok(3),
            Some(s) => match s {
                "0" | "1" | "2" | "3" => Ok(s.parse().unwrap_or(3)),
                _ => Err(format!("Value '{s}' is not defined for option 'optimize'")),
            },
        }
    }

    pub fn cudart(&self) -> Result<Cudart, String> {
        match self.cudart.as_deref() {
            None | Some("static") => Ok(Cudart::Static),
            Some("shared") => Ok(Cudart::Shared),
            Some("none") => Ok(Cudart::None),
            Some(other) => Err(format!("Value '{other}' is not defined for option 'cudart'")),
        }
    }

    pub fn bool_flag(value: &Option<String>, default: bool) -> Result<bool, String> {
        match value.as_deref() {
            None => Ok(default),
            Some("true") => Ok(true),
            Some("false") => Ok(false),
            Some(other) => Err(format!("Value '{other}' is not a boolean (true or false)")),
        }
    }
}

/// `sm_90`, `compute_90`, `sm_90a`, `native`, `all` … → 90.
fn parse_arch(spec: &str) -> Option<u32> {
    match spec {
        "native" | "all" | "all-major" => return Some(crate::DEFAULT_ARCH),
        _ => {}
    }
    let digits = spec.strip_prefix("sm_").or_else(|| spec.strip_prefix("compute_"))?;
    let digits = digits.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let n: u32 = digits.parse().ok()?;
    (20..=130).contains(&n).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Options {
        let mut v = vec!["cuprite".to_string()];
        v.extend(args.iter().map(|s| s.to_string()));
        Options::try_parse_from(normalize(v)).expect("parses")
    }

    #[test]
    fn nvcc_style_flags() {
        let o = parse(&["-arch=sm_80", "-O2", "-Iinc", "-DN=4", "-Xcompiler", "-fopenmp,-Wall", "-o", "a", "x.cu", "-lm"]);
        assert_eq!(o.compute_capability().unwrap(), 80);
        assert_eq!(o.opt_level().unwrap(), 2);
        assert_eq!(o.include_dirs, vec!["inc"]);
        assert_eq!(o.defines, vec!["N=4"]);
        assert_eq!(Options::split_commas(&o.xcompiler), vec!["-fopenmp", "-Wall"]);
        assert_eq!(o.libs, vec!["m"]);
        assert_eq!(o.inputs, vec![PathBuf::from("x.cu")]);
    }

    #[test]
    fn gencode_sets_arch() {
        let o = parse(&["-gencode", "arch=compute_75,code=sm_75", "x.cu"]);
        assert_eq!(o.compute_capability().unwrap(), 75);
    }

    #[test]
    fn unknown_flag_is_an_error() {
        let v: Vec<String> = ["cuprite", "-frobnicate", "x.cu"].iter().map(|s| s.to_string()).collect();
        assert!(Options::try_parse_from(normalize(v)).is_err());
    }

    #[test]
    fn dependency_and_system_include_flags() {
        let o = parse(&["-MD", "-MT", "x.o", "-MF", "x.d", "-isystem", "/a", "-isystem/b", "-MM", "-MP", "x.cu"]);
        assert!(o.deps_md && o.deps_only_nonsystem && o.deps_phony);
        assert_eq!(o.deps_target.as_deref(), Some("x.o"));
        assert_eq!(o.deps_file, Some(PathBuf::from("x.d")));
        assert_eq!(o.system_include_dirs, vec!["/a", "/b"]);
    }

    #[test]
    fn options_files_are_expanded() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("includes.rsp");
        std::fs::write(&f, "-I\"/a b\" -DX='1 2'\n  -Ic\n").unwrap();
        let args: Vec<String> = ["nvcc", "--options-file", f.to_str().unwrap(), "x.cu"].iter().map(|s| s.to_string()).collect();
        let out = expand_options_files(args).unwrap();
        assert_eq!(out, vec!["nvcc", "-I/a b", "-DX=1 2", "-Ic", "x.cu"]);
    }

    #[test]
    fn unknown_options_can_go_to_the_host_compiler() {
        let v: Vec<String> = ["nvcc", "-forward-unknown-to-host-compiler", "-pthread", "-fopenmp", "x.cu"].iter().map(|s| s.to_string()).collect();
        let (o, _) = super::parse(normalize(v)).expect("parses");
        assert_eq!(o.xcompiler, vec!["-pthread", "-fopenmp"]);
        let v: Vec<String> = ["nvcc", "-pthread", "x.cu"].iter().map(|s| s.to_string()).collect();
        assert!(super::parse(normalize(v)).is_err());
    }

    #[test]
    fn cudart_kinds() {
        assert_eq!(parse(&["x.cu"]).cudart().unwrap(), Cudart::Static);
        assert_eq!(parse(&["-cudart", "shared", "x.cu"]).cudart().unwrap(), Cudart::Shared);
        assert!(parse(&["-cudart=bogus", "x.cu"]).cudart().is_err());
    }

    #[test]
    fn program_args_after_double_dash() {
        let o = parse(&["x.cu", "--", "-n", "5"]);
        assert_eq!(o.program_args, vec!["-n", "5"]);
    }
}
