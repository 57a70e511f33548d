//! The command line: every option of nvcc 13 (`table.rs`), parsed with nvcc's syntax
//! (`parse.rs`) into the settings the build uses ([`Options`]); `--help` (`help.rs`).
//!
//! The parser is written by hand rather than with `clap` (which the project otherwise
//! prefers for command lines, and which `cuprite install` uses) because nvcc's syntax
//! fits clap poorly: long options with one dash (`-arch=sm_90`, `-odir`, `-lib`) next
//! to one-letter options with attached values (`-Iinc`, `-lm`, `-O3`), multi-letter
//! "short" names that must never be split into letters (`-cubin`, `-dc`), values that
//! are themselves options (`-Xcompiler -Werror`), comma-separated lists, response files,
//! and unknown options forwarded to the host compiler on request. With clap, each of
//! these needed a rewrite of the arguments before parsing, and the rewrites were where
//! the defects were. One table of 140-odd entries (implemented, accepted and ignored
//! with a reason, or refused with one sentence) drives the parser and `--help` alike.
//!
//! An option nvcc does not know is an error, as in nvcc (unless
//! `--forward-unknown-to-host-compiler` asks to pass it on); an option Cuprite refuses
//! says why in one sentence.

mod help;
mod parse;
pub mod sanitize;
mod table;

pub use help::{print_help, print_list_gpu_arch, print_list_gpu_code};

use std::path::PathBuf;
use table::How;

/// The default maximum depth of template instantiation, as g++'s.
pub const DEFAULT_TEMPLATE_DEPTH: u32 = 900;

/// Libraries that name CUDA's runtime: Cuprite links its own, as `-cudart` says (from a
/// toolkit prefix, the names are also passed on, since its `lib64` has them).
/// Libraries that name parts of Cuprite's runtime: outside a toolkit prefix they are
/// linked as `-cudart` says (`cuda`, the driver API, is part of the runtime).
const RUNTIME_LIBS: &[&str] = &["cudart", "cudart_static", "cudadevrt", "cuda"];

/// The CUDA runtime a link uses (`-cudart`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cudart {
    Static,
    Shared,
    None,
}

#[derive(Debug, Default, Clone)]
pub struct Options {
    pub output: Option<PathBuf>,
    pub output_dir: Option<PathBuf>,
    pub compile_only: bool,
    pub preprocess_only: bool,
    pub syntax_only: bool,
    pub shared: bool,
    pub include_dirs: Vec<String>,
    pub system_include_dirs: Vec<String>,
    pub pre_includes: Vec<String>,
    pub defines: Vec<String>,
    pub undefines: Vec<String>,
    pub lib_dirs: Vec<String>,
    pub libs: Vec<String>,
    /// `-lcudart`, `-lcudart_static`, `-lcudadevrt`: kept apart from [`Options::libs`].
    pub runtime_libs: Vec<String>,
    /// `-ptx`, `-cubin`, `-fatbin`: write each `.cu` file's device code as a module image
    /// with this extension.
    pub module_output: Option<&'static str>,
    pub opt: Option<String>,
    pub debug: bool,
    pub profile: bool,
    pub device_debug: bool,
    pub lineinfo: bool,
    pub no_exceptions: bool,
    pub arch: Option<String>,
    pub gencode: Vec<String>,
    pub std: Option<String>,
    /// Host compiler options: `-Xcompiler` (split at commas and spaces), forwarded
    /// unknown options, and the options Cuprite implements by passing them on.
    pub xcompiler: Vec<String>,
    /// Host linker options (`-Xlinker`, forwarded unknown options).
    pub xlinker: Vec<String>,
    pub xptxas: Vec<String>,
    pub language: Option<String>,
    pub run: bool,
    pub run_args: Vec<String>,
    pub version: bool,
    pub help: bool,
    pub list_gpu_arch: bool,
    pub list_gpu_code: bool,
    /// `-M`/`-MM`: dependencies instead of compiling.
    pub deps_only: bool,
    pub deps_md: bool,
    pub deps_mmd: bool,
    /// `-MM`/`-MMD`: system headers left out.
    pub deps_nonsystem: bool,
    pub deps_phony: bool,
    pub deps_file: Option<PathBuf>,
    pub deps_target: Option<String>,
    pub fast_math: bool,
    pub fmad: Option<String>,
    pub ftz: Option<String>,
    pub prec_div: Option<String>,
    pub prec_sqrt: Option<String>,
    pub keep: bool,
    pub keep_dir: Option<PathBuf>,
    pub ccbin: Option<String>,
    pub rdc: Option<String>,
    /// `-dc`: `-c -rdc=true`.
    pub dc: bool,
    /// `-dlink`: only the device link, into one object.
    pub dlink: bool,
    /// `-lib`: compile the inputs and archive the objects into a static library.
    pub lib: bool,
    /// `-arbin`: the archiver for `-lib` (default `ar`), and `-Xarchive` options.
    pub archiver: Option<String>,
    pub xarchive: Vec<String>,
    /// `-cudart static|shared|none`.
    pub cudart: Option<String>,
    pub dryrun: bool,
    pub verbose: bool,
    pub no_warnings: bool,
    /// Device warnings are errors (`-Werror all-warnings`, `-Xcompiler -Werror`).
    pub warnings_are_errors: bool,
    pub resource_usage: bool,
    pub template_depth: u32,
    pub default_stream_per_thread: bool,
    /// The first refused option's sentence: the build stops with it.
    pub refused: Option<String>,
    /// Warnings about the command line itself, printed before the build.
    pub notes: Vec<String>,
    pub inputs: Vec<PathBuf>,
    /// Arguments for the program (`cuprite run file.cu -- args`).
    pub program_args: Vec<String>,
    /// `--sanitize[=TOOL]` (not nvcc's): device code is built checked, and `cuprite run`
    /// runs the program under the checker (`sanitize.rs`).
    pub sanitize: Option<sanitize::Settings>,
}

impl Options {
    /// Parses nvcc's command line (without the program name).
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let parsed = parse::parse(args)?;
        let mut o = Options { template_depth: DEFAULT_TEMPLATE_DEPTH, ..Options::default() };
        o.xcompiler.extend(parsed.to_host);
        o.xlinker.extend(parsed.to_linker);
        for g in &parsed.given {
            o.apply(g)?;
        }
        // The host compiler's -Werror also makes Cuprite's device warnings (which stand
        // for the host compiler's, e.g. printf formats) errors.
        if o.xcompiler.iter().any(|f| f == "-Werror") {
            o.warnings_are_errors = true;
        }
        o.inputs = parsed.inputs.into_iter().map(PathBuf::from).collect();
        o.program_args = parsed.program_args;
        if o.device_debug && o.lineinfo {
            o.notes.push("'--device-debug (-G)' overrides '--generate-line-info (-lineinfo)'".into());
        }
        Ok(o)
    }

    fn apply(&mut self, g: &parse::Given) -> Result<(), String> {
        let opt = g.opt;
        let value = g.value.clone().unwrap_or_default();
        if let Some(allowed) = table::allowed(opt) {
            let values = if matches!(opt.arg, table::Arg::List(_)) { parse::split_list(&value) } else { vec![value.clone()] };
            if let Some(bad) = values.iter().find(|v| !allowed.contains(&v.as_str())) {
                return Err(format!("Value '{bad}' is not defined for option '{}'", opt.long));
            }
        }
        if opt.long == "generate-line-info" {
            self.lineinfo = true; // ignored, but -G overriding it is worth a warning
        }
        match opt.how {
            How::Refused(why) => {
                if self.refused.is_none() {
                    self.refused = Some(format!("{}: {why}", g.spelled));
                }
                return Ok(());
            }
            How::Ignored(_) => return Ok(()),
            How::Used => {}
        }
        let list = || parse::split_list(&value);
        let path = || Some(PathBuf::from(&value));
        let value = || value.clone();
        match opt.long {
            "preprocess" => self.preprocess_only = true,
            "generate-dependencies" => self.deps_only = true,
            "generate-nonsystem-dependencies" => (self.deps_only, self.deps_nonsystem) = (true, true),
            "generate-dependencies-with-compile" => self.deps_md = true,
            "generate-nonsystem-dependencies-with-compile" => (self.deps_mmd, self.deps_nonsystem) = (true, true),
            "dependency-output" => self.deps_file = path(),
            "generate-dependency-targets" => self.deps_phony = true,
            "dependency-target-name" => self.deps_target = Some(value()),
            "compile" => self.compile_only = true,
            "ptx" => self.module_output = Some("ptx"),
            "cubin" => self.module_output = Some("cubin"),
            "fatbin" => self.module_output = Some("fatbin"),
            "device-c" => self.dc = true,
            "device-w" => (self.compile_only, self.rdc) = (true, Some("false".into())),
            "device-link" => self.dlink = true,
            "lib" => self.lib = true,
            "archiver-binary" => self.archiver = Some(value()),
            "archive-options" => self.xarchive.extend(list().iter().flat_map(|v| parse::shell_words(v))),
            "cudart" => self.cudart = Some(value()),
            "link" => {}
            "run" => self.run = true,
            "output-file" => self.output = path(),
            "output-directory" => self.output_dir = path(),
            "pre-include" => self.pre_includes.extend(list()),
            "library" => {
                let (runtime, others): (Vec<String>, Vec<String>) = list().into_iter().partition(|l| RUNTIME_LIBS.contains(&l.as_str()));
                self.libs.extend(others);
                self.runtime_libs.extend(runtime);
            }
            "define-macro" => self.defines.extend(list()),
            "undefine-macro" => self.undefines.extend(list()),
            "include-path" => self.include_dirs.extend(list()),
            "system-include" => self.system_include_dirs.extend(list()),
            "library-path" => self.lib_dirs.extend(list()),
            "compiler-bindir" => self.ccbin = Some(value()),
            "profile" => self.profile = true,
            "debug" => self.debug = true,
            "device-debug" => self.device_debug = true,
            "optimize" => self.opt = Some(value()),
            "ftemplate-depth" => {
                self.template_depth = value().parse().ok().filter(|&n| n > 0).ok_or_else(|| format!("Value '{}' is not a valid template depth", value()))?
            }
            "no-exceptions" => self.no_exceptions = true,
            "shared" => self.shared = true,
            "x" => self.language = Some(value()),
            "std" => self.std = Some(value()),
            "machine" if value() != "64" => return Err(format!("Value '{}' is not defined for option 'machine'", value())),
            "machine" | "m64" => {}
            "ptxas-options" => self.xptxas.extend(list()),
            "compiler-options" => self.xcompiler.extend(list().iter().flat_map(|v| parse::shell_words(v))),
            "linker-options" => self.xlinker.extend(list().iter().flat_map(|v| parse::shell_words(v))),
            "forward-unknown-to-host-compiler" | "forward-unknown-to-host-linker" | "forward-unknown-opts" => {}
            "dryrun" => self.dryrun = true,
            "verbose" => self.verbose = true,
            "fdevice-syntax-only" => self.syntax_only = true,
            "keep" | "save-temps" => self.keep = true,
            "keep-dir" => self.keep_dir = path(),
            "run-args" => self.run_args.extend(list()),
            "gpu-architecture" => self.arch = Some(value()),
            "generate-code" => self.gencode.push(value()),
            "relocatable-device-code" => self.rdc = Some(value()),
            "use_fast_math" => self.fast_math = true,
            "ftz" => self.ftz = Some(value()),
            "prec-div" => self.prec_div = Some(value()),
            "prec-sqrt" => self.prec_sqrt = Some(value()),
            "fmad" => self.fmad = Some(value()),
            "default-stream" => self.default_stream_per_thread = value() == "per-thread",
            "disable-warnings" => self.no_warnings = true,
            "Wno-deprecated-declarations" => self.xcompiler.push("-Wno-deprecated-declarations".into()),
            "Werror" => {
                const KINDS: &[&str] = &["all-warnings", "cross-execution-space-call", "reorder", "default-stream-launch", "missing-launch-bounds", "ext-lambda-captures-this", "deprecated-declarations"];
                for kind in list() {
                    match kind.as_str() {
                        "all-warnings" => self.warnings_are_errors = true,
                        "deprecated-declarations" => self.xcompiler.push("-Werror=deprecated-declarations".into()),
                        "reorder" => self.xcompiler.push("-Werror=reorder".into()),
                        k if KINDS.contains(&k) => {}
                        other => return Err(format!("Value '{other}' is not defined for option 'Werror'")),
                    }
                }
            }
            "resource-usage" => self.resource_usage = true,
            "list-gpu-code" => self.list_gpu_code = true,
            "list-gpu-arch" => self.list_gpu_arch = true,
            "help" => self.help = true,
            "version" => self.version = true,
            other => return Err(format!("internal error: option '{other}' is marked implemented but has no handler, please report")),
        }
        Ok(())
    }

    /// The compute capability as a number (90 for sm_90): from -arch, else from the first
    /// -gencode, else nvcc 13's default.
    /// The compute capability the program runs as: the lowest of `-arch` and every
    /// `-gencode arch=…,code=…`, whatever their order. A build for several architectures
    /// must run on the oldest of them, so the CPU device stands for that one: its limits
    /// are the strictest the build promises to meet. (CMake lists many: "75;80;…;120".)
    pub fn compute_capability(&self) -> Result<u32, String> {
        let mut best: Option<u32> = None;
        let mut consider = |n: u32| best = Some(best.map_or(n, |b| b.min(n)));
        if let Some(s) = &self.arch {
            consider(parse_arch(s).ok_or_else(|| format!("Value '{s}' is not defined for option 'gpu-architecture'"))?);
        }
        for g in &self.gencode {
            // `arch=compute_90,code=[compute_90,sm_90]`: every compute_/sm_ name counts
            // (`lto_90` and the like name no runnable image).
            for part in g.split(',') {
                let name = part.trim_start_matches("code=").trim_start_matches("arch=").trim_matches(|c| c == '[' || c == ']' || c == '"');
                if let Some(n) = parse_arch(name) {
                    consider(n);
                }
            }
        }
        Ok(best.unwrap_or(crate::DEFAULT_ARCH))
    }

    /// The virtual architectures compiled for, as nvcc's `__CUDA_ARCH_LIST__` lists them
    /// (ascending, each once, 900 for sm_90): `-arch`'s and each `-gencode arch=compute_XX`,
    /// else nvcc 13's default.
    pub fn virtual_arch_list(&self) -> Vec<u32> {
        let mut list: Vec<u32> = self.arch.iter().filter_map(|s| parse_arch(s)).collect();
        for g in &self.gencode {
            for part in g.split(',') {
                if let Some(n) = part.trim().strip_prefix("arch=").and_then(|a| parse_arch(a.trim_matches(|c| c == '[' || c == ']' || c == '"'))) {
                    list.push(n);
                }
            }
        }
        if list.is_empty() {
            list.push(crate::DEFAULT_ARCH);
        }
        list.sort_unstable();
        list.dedup();
        list.iter().map(|n| n * 10).collect()
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

    /// Whether device code is relocatable: `-rdc=true`, or `-dc`.
    pub fn relocatable(&self) -> Result<bool, String> {
        Ok(Options::bool_flag(&self.rdc, false)? || self.dc)
    }

    /// The runtime to link (`-cudart`, default static).
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

    /// The C++ dialect for the host compiler (`-std`, default c++17 as nvcc 13).
    pub fn std_flag(&self) -> String {
        format!("-std={}", self.std.as_deref().unwrap_or("c++17"))
    }

    /// Checks combinations nvcc refuses, before anything runs.
    pub fn validate(&self) -> Result<(), String> {
        if let Some(why) = &self.refused {
            return Err(why.clone());
        }
        let non_link = self.compile_only || self.dc || self.preprocess_only || self.deps_only || self.syntax_only;
        if non_link && self.output.is_some() && self.inputs.len() > 1 {
            return Err("A single input file is required for a non-link phase when an outputfile is specified".into());
        }
        Ok(())
    }
}

/// The compute capabilities Cuprite accepts (nvcc 13's list).
pub const GPU_ARCHS: &[u32] = &[75, 80, 86, 87, 88, 89, 90, 100, 110, 103, 120, 121];

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
mod tests;
