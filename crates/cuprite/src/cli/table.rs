//! Every option of nvcc 13's `--help`, and what Cuprite does with it.
//!
//! Each entry is one of: used (Cuprite implements it), ignored (accepted, with the reason
//! printed by `--help`: it only steers GPU code generation or a tool Cuprite does not
//! have), or refused (one sentence saying why). `--help` is generated from this table,
//! so it lists exactly what the parser accepts.

/// How an option takes its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A flag: no value.
    None,
    /// One value (`-o file`, `-o=file`).
    One(&'static str),
    /// A comma-separated list of values; the option may be repeated.
    List(&'static str),
}

/// What Cuprite does with an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    Used,
    /// Accepted and ignored, for the reason given.
    Ignored(&'static str),
    /// Refused, with one sentence saying why.
    Refused(&'static str),
}

#[derive(Debug)]
pub struct Opt {
    /// The long name, without dashes (`output-file`).
    pub long: &'static str,
    /// The short name, without the dash (`o`); nvcc's short names may be long (`arch`).
    pub short: &'static str,
    pub arg: Arg,
    pub how: How,
    pub help: &'static str,
}

const fn o(long: &'static str, short: &'static str, arg: Arg, how: How, help: &'static str) -> Opt {
    Opt { long, short, arg, how, help }
}

use Arg::{List as L, None as F, One as V};
use How::{Ignored as I, Refused as R, Used as U};

const GPU: How = I("it only steers GPU code generation; Cuprite generates CPU code");
const PTXAS: How = I("Cuprite has no ptxas; ptxas's limits are applied, '-Xptxas -v' prints the resource report");
const NVLINK: How = I("Cuprite links device code itself (-dlink, or when a program is linked), without nvlink");
const WINDOWS: How = I("it concerns MSVC on Windows only");
const LTO: How = I("device code is always optimised as one unit by the C compiler: a translation unit's, or under -rdc all of a program's, linked as Cuprite IR before it is compiled");
const DEVICE_DIAG: How = I("Cuprite's device diagnostics have no numbers");
const NOT_GPU_CODE: &str = "Cuprite generates CPU code, not GPU code; this output format is not available";
const RDC: &str = "this form of separate compilation is not supported yet; use -rdc=true or -dc, and -dlink or an ordinary link";

/// The options, in the order `--help` lists them.
pub const OPTIONS: &[Opt] = &[
    // What to do.
    o("cuda", "cuda", F, R(NOT_GPU_CODE), "Write the host code that a .cu file becomes (.cu.cpp.ii)."),
    o("cubin", "cubin", F, U, "Compile device code to a Cuprite module image (what cuModuleLoad* loads) in a .cubin file."),
    o("fatbin", "fatbin", F, U, "Compile device code to a Cuprite module image (what cuModuleLoad* loads) in a .fatbin file."),
    o("ptx", "ptx", F, U, "Compile device code to a Cuprite module image (text, what cuModuleLoad* loads) in a .ptx file."),
    o("optix-ir", "optix-ir", F, R(NOT_GPU_CODE), "Compile device code to OptiX IR."),
    o("ltoir", "ltoir", F, R(NOT_GPU_CODE), "Compile device code to LTO IR."),
    o("preprocess", "E", F, U, "Preprocess each input (its host view) to stdout or to -o."),
    o("generate-dependencies", "M", F, U, "Write a make rule of each input's dependencies instead of compiling."),
    o("generate-nonsystem-dependencies", "MM", F, U, "Like -M, leaving out system headers."),
    o("generate-dependencies-with-compile", "MD", F, U, "Compile and also write a dependency file (-MF, else the object's name with .d)."),
    o("generate-nonsystem-dependencies-with-compile", "MMD", F, U, "Like -MD, leaving out system headers."),
    o("dependency-output", "MF", V("file"), U, "The file that -M, -MM, -MD or -MMD write."),
    o("generate-dependency-targets", "MP", F, U, "Add a phony target for each dependency."),
    o("compile", "c", F, U, "Compile each input to an object file; do not link."),
    o("device-c", "dc", F, U, "Compile each input to an object with relocatable device code (-c -rdc=true)."),
    o("device-w", "dw", F, U, "Compile each input to an object with whole-program device code (-c -rdc=false)."),
    o("device-link", "dlink", F, U, "Link the relocatable device code of the inputs into one object (default a_dlink.o) for another linker."),
    o("link", "link", F, U, "Compile and link (the default)."),
    o("lib", "lib", F, U, "Compile the inputs into a static library (default name a.a; with -rdc its device code stays relocatable)."),
    o("run", "run", F, U, "Build the program, then run it (cuprite run file.cu [-- args] does the same)."),
    // Files and directories.
    o("output-file", "o", V("file"), U, "The output file."),
    o("pre-include", "include", L("file"), U, "Include a header before each input."),
    o("objdir-as-tempdir", "objtemp", F, I("Cuprite's intermediate files go to a temporary directory or --keep-dir"), "Write intermediate files next to the object."),
    o("library", "l", L("library"), U, "Link a library (libcudart, libcudart_static and libcudadevrt are Cuprite's runtime, always linked)."),
    o("define-macro", "D", L("def"), U, "Define a macro: NAME or NAME=VALUE."),
    o("undefine-macro", "U", L("def"), U, "Undefine a macro."),
    o("include-path", "I", L("path"), U, "Add a directory to the include path."),
    o("system-include", "isystem", L("path"), U, "Add a directory to the system include path."),
    o("library-path", "L", L("path"), U, "Add a directory to the library search path."),
    o("output-directory", "odir", V("directory"), U, "The directory of object files (-c) and of -M targets."),
    o("compiler-bindir", "ccbin", V("path"), U, "The host compiler, or a directory holding it (default: $CXX, else c++)."),
    o("allow-unsupported-compiler", "allow-unsupported-compiler", F, I("Cuprite does not check the host compiler's version"), "Do not check the host compiler's version."),
    o("archiver-binary", "arbin", V("path"), U, "The archiver for --lib (default ar)."),
    o("cudart", "cudart", V("none|shared|static"), U, "Which CUDA runtime to link: static (default), shared (libcudart.so of an installed toolkit prefix), none."),
    o("cudadevrt", "cudadevrt", V("none|static"), I("Cuprite's device-side runtime is part of its runtime; libcudadevrt.a of a toolkit prefix is empty"), "Which device runtime library to link."),
    o("libdevice-directory", "ldir", V("directory"), I("Cuprite has no libdevice; its math library is C"), "Where libdevice lives."),
    o("target-directory", "target-dir", V("string"), I("Cuprite's headers and runtime are built in"), "The toolkit's target subdirectory."),
    o("use-local-env", "use-local-env", F, WINDOWS, "Assume the MSVC environment is set up."),
    o("force-cl-env-setup", "force-cl-env-setup", F, WINDOWS, "Always set up the MSVC environment."),
    // Compiler and linker behaviour.
    o("profile", "pg", F, U, "Instrument host code for gprof."),
    o("debug", "g", F, U, "Debug information for host code."),
    o("device-debug", "G", F, U, "Debug information for device code: the generated C carries #line directives to the .cu, unoptimised."),
    o("generate-line-info", "lineinfo", F, I("line information is for GPU profilers; -G gives debuggable device code on the CPU"), "Line information for device code."),
    o("optimization-info", "opt-info", L("kind"), I("Cuprite prints no optimisation remarks"), "Optimisation remarks."),
    o("optimize", "O", V("level"), U, "Optimisation level (0-3) for host code; device code is compiled with -O2 or more unless -G."),
    o("Ofast-compile", "Ofc", V("level"), GPU, "Trade device optimisation for compile speed."),
    o("dopt", "dopt", V("kind"), GPU, "Optimise device code under -G."),
    o("dlink-time-opt", "dlto", F, LTO, "Link-time optimisation of device code."),
    o("lto", "lto", F, LTO, "Link-time optimisation of device code."),
    o("gen-opt-lto", "gen-opt-lto", F, LTO, "Optimise before link-time optimisation."),
    o("ftemplate-backtrace-limit", "ftemplate-backtrace-limit", V("limit"), I("Cuprite prints every instantiation context"), "How many instantiation contexts an error prints."),
    o("ftemplate-depth", "ftemplate-depth", V("limit"), U, "The maximum depth of template instantiation (default 900)."),
    o("no-exceptions", "noeh", F, U, "Compile host code without exceptions (-fno-exceptions)."),
    o("shared", "shared", F, U, "Link a shared library."),
    o("x", "x", V("c|c++|cu"), U, "The language of the inputs, whatever their suffix."),
    o("std", "std", V("c++03|c++11|c++14|c++17|c++20"), U, "The C++ dialect (default c++17)."),
    o("no-host-device-initializer-list", "nohdinitlist", F, I("Cuprite does not treat std::initializer_list members as __host__ __device__"), "Do not treat std::initializer_list members as __host__ __device__."),
    o("no-host-device-move-forward", "nohdmoveforward", F, I("Cuprite does not treat std::move and std::forward as __host__ __device__ specially"), "Do not treat std::move/std::forward as __host__ __device__."),
    o("expt-relaxed-constexpr", "expt-relaxed-constexpr", F, I("Cuprite always lets device code call constexpr host functions"), "Let host and device code call each other's constexpr functions."),
    o("extended-lambda", "extended-lambda", F, I("Cuprite always accepts __device__ and __host__ __device__ lambdas"), "Allow __device__ lambdas in host code."),
    o("expt-extended-lambda", "expt-extended-lambda", F, I("Cuprite always accepts __device__ and __host__ __device__ lambdas"), "Old name of --extended-lambda."),
    o("machine", "m", V("64"), U, "Only 64 is allowed, as in nvcc."),
    o("m64", "m64", F, U, "64-bit host code (the only kind)."),
    o("compiler-options", "Xcompiler", L("options"), U, "Options for the host compiler (split at commas and spaces)."),
    o("linker-options", "Xlinker", L("options"), U, "Options for the host linker (passed as -Wl,...)."),
    o("archive-options", "Xarchive", L("options"), U, "Options for the archiver."),
    o("ptxas-options", "Xptxas", L("options"), U, "Options for ptxas: -v prints each kernel's resources; others are accepted and ignored (Cuprite has no ptxas)."),
    o("nvlink-options", "Xnvlink", L("options"), NVLINK, "Options for nvlink."),
    o("static-global-template-stub", "static-global-template-stub", V("true|false"), I("kernel template stubs always have the linkage the host compiler gives them"), "Give kernel template stubs internal linkage."),
    o("device-entity-has-hidden-visibility", "device-entity-has-hidden-visibility", V("true|false"), I("device symbols live in Cuprite's own device object"), "Hidden visibility for device entities."),
    o("forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler", F, U, "Pass options Cuprite does not know to the host compiler."),
    o("forward-unknown-to-host-linker", "forward-unknown-to-host-linker", F, U, "Pass options Cuprite does not know to the host linker."),
    o("forward-unknown-opts", "forward-unknown-opts", F, U, "Pass options Cuprite does not know to the host compiler and linker."),
    o("dont-use-profile", "noprof", F, I("Cuprite has no nvcc.profile"), "Do not read nvcc.profile."),
    o("dryrun", "dryrun", F, U, "Print the commands a build would run, without running them."),
    o("verbose", "v", F, U, "Print the commands as they run."),
    o("threads", "t", V("number"), I("Cuprite compiles inputs one after another"), "How many threads compile for several GPU architectures."),
    o("split-compile", "split-compile", V("number"), I("Cuprite always compiles device code as one C file per group of kernels, in parallel on the cores (or make's job slots) it may use"), "Split device code optimisation over threads."),
    o("split-compile-extended", "split-compile-extended", V("number"), I("Cuprite always compiles device code as one C file per group of kernels, in parallel on the cores (or make's job slots) it may use"), "Split device code optimisation over threads, more aggressively."),
    o("fdevice-syntax-only", "fdevice-syntax-only", F, U, "Check device code and stop (no output)."),
    o("fdevice-time-trace", "fdevice-time-trace", V("file name"), I("Cuprite writes no time traces"), "Write a time trace of device compilation."),
    o("keep", "keep", F, U, "Keep intermediate files (in the current directory, or --keep-dir)."),
    o("keep-dir", "keep-dir", V("directory"), U, "Where --keep writes intermediate files."),
    o("save-temps", "save-temps", F, U, "Same as --keep."),
    o("clean-targets", "clean", F, R("Cuprite does not delete files it might have made; remove them with make clean or rm"), "Delete the files a build would make."),
    o("time", "time", V("file name"), I("Cuprite writes no timing tables"), "Write how long each step took."),
    o("run-args", "run-args", L("arguments"), U, "Arguments for the program that --run runs."),
    o("input-drive-prefix", "idp", V("prefix"), WINDOWS, "Drive prefix of input paths (Cygwin)."),
    o("dependency-drive-prefix", "ddp", V("prefix"), WINDOWS, "Drive prefix in dependency files (Cygwin)."),
    o("drive-prefix", "dp", V("prefix"), WINDOWS, "Drive prefix (Cygwin)."),
    o("dependency-target-name", "MT", V("target"), U, "The target of the dependency rule."),
    o("no-align-double", "no-align-double", F, WINDOWS, "Do not align doubles on 32-bit Windows."),
    o("no-device-link", "nodlink", F, NVLINK, "Skip the device link step."),
    // GPU code generation.
    o("gpu-architecture", "arch", V("arch"), U, "The compute capability (sm_XX, compute_XX, native, all): device limits, properties and __CUDA_ARCH__."),
    o("gpu-code", "code", L("code"), GPU, "Which GPU code to embed."),
    o("generate-code", "gencode", L("specification"), U, "arch=compute_XX,code=sm_XX; the first sets __CUDA_ARCH__."),
    o("relocatable-device-code", "rdc", V("true|false"), U, "Relocatable device code (separate compilation): device code of an object may call and use another's; linked at -dlink or when the program is linked."),
    o("entries", "e", L("entry"), GPU, "Which kernels to keep in GPU code."),
    o("maxrregcount", "maxrregcount", V("amount"), PTXAS, "The register limit of GPU code."),
    o("use_fast_math", "use_fast_math", F, U, "Fast math: flush to zero, approximate division, square root and transcendental functions."),
    o("ftz", "ftz", V("true|false"), U, "Flush single-precision denormals to zero."),
    o("prec-div", "prec-div", V("true|false"), U, "IEEE single-precision division."),
    o("prec-sqrt", "prec-sqrt", V("true|false"), U, "IEEE single-precision square root."),
    o("fmad", "fmad", V("true|false"), U, "Contract multiplies and adds into fused multiply-adds (default true)."),
    o("extra-device-vectorization", "extra-device-vectorization", F, GPU, "More aggressive vectorisation of GPU code."),
    o("default-stream", "default-stream", V("legacy|null|per-thread"), U, "The default stream: legacy (default) or per-thread."),
    o("disable-warnings", "w", F, U, "Suppress all warnings."),
    o("keep-device-functions", "keep-device-functions", F, GPU, "Keep unused device functions in GPU code."),
    o("source-in-ptx", "src-in-ptx", F, GPU, "Interleave source in PTX."),
    o("restrict", "restrict", F, GPU, "Treat kernel pointer parameters as restrict."),
    o("Wreorder", "Wreorder", F, I("member initialisation order is the host compiler's warning (-Xcompiler -Wreorder)"), "Warn about member initialisers out of order."),
    o("Wdefault-stream-launch", "Wdefault-stream-launch", F, I("Cuprite does not warn about launches on the default stream"), "Warn about launches on the default stream."),
    o("Wmissing-launch-bounds", "Wmissing-launch-bounds", F, I("Cuprite does not warn about missing __launch_bounds__"), "Warn about kernels without __launch_bounds__."),
    o("Wext-lambda-captures-this", "Wext-lambda-captures-this", F, I("Cuprite does not warn about extended lambdas capturing this"), "Warn about extended lambdas that capture this."),
    o("Wno-deprecated-declarations", "Wno-deprecated-declarations", F, U, "No warnings about deprecated declarations (passed to the host compiler)."),
    o("Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets", F, I("Cuprite warns about no GPU target"), "No warnings about deprecated GPU targets."),
    o("Werror", "Werror", L("kind"), U, "Make warnings errors: all-warnings (device warnings, and the host compiler's -Werror), or one kind."),
    o("resource-usage", "res-usage", F, U, "Print each kernel's resource usage (as -Xptxas -v)."),
    o("extensible-whole-program", "ewp", F, R(RDC), "Whole-program compilation that may call device libraries."),
    o("no-compress", "no-compress", F, GPU, "Do not compress the fatbinary."),
    o("qpp-config", "qpp-config", V("config"), WINDOWS, "QNX host compiler configuration."),
    o("compile-as-tools-patch", "astoolspatch", F, GPU, "Compile patch code for CUDA tools."),
    o("list-gpu-code", "code-ls", F, U, "List the GPU code targets --gpu-code accepts, then exit."),
    o("list-gpu-arch", "arch-ls", F, U, "List the virtual architectures --gpu-architecture accepts, then exit."),
    o("display-error-number", "err-no", F, DEVICE_DIAG, "Show diagnostic numbers."),
    o("no-display-error-number", "no-err-no", F, DEVICE_DIAG, "Hide diagnostic numbers."),
    o("diag-error", "diag-error", L("error-number"), DEVICE_DIAG, "Make a numbered diagnostic an error."),
    o("diag-suppress", "diag-suppress", L("error-number"), DEVICE_DIAG, "Suppress a numbered diagnostic."),
    o("diag-warn", "diag-warn", L("error-number"), DEVICE_DIAG, "Make a numbered diagnostic a warning."),
    o("host-linker-script", "hls", V("use-lcs|gen-lcs"), NVLINK, "Use or write a host linker script for device code."),
    o("augment-host-linker-script", "aug-hls", F, NVLINK, "Augment the host linker script for device code."),
    o("relocatable-link", "r", F, R(RDC), "Link relocatable objects into one."),
    o("brief-diagnostics", "brief-diag", V("true|false"), I("Cuprite's diagnostics always show the source line and a caret"), "Shorter diagnostics."),
    o("jump-table-density", "jtd", V("number"), GPU, "Density of switch jump tables in GPU code."),
    o("relocatable-ptx", "reloc-ptx", F, R(NOT_GPU_CODE), "Relocatable PTX."),
    o("device-stack-protector", "device-stack-protector", V("true|false"), GPU, "Stack canaries in GPU code."),
    o("compress-mode", "compress-mode", V("mode"), GPU, "How to compress the fatbinary."),
    o("frandom-seed", "frandom-seed", V("seed"), I("Cuprite's output does not depend on a random seed"), "Seed for generated names."),
    o("sanitize", "sanitize", V("toolname"), I("Cuprite's checking mode is a run-time setting"), "Compile for compute-sanitizer."),
    o("jobserver", "jobserver", F, I("Cuprite compiles inputs one after another"), "Take part in make's job server."),
    o("help", "h", F, U, "Print this help."),
    o("version", "V", F, U, "Print the version."),
    o("options-file", "optf", L("file"), U, "Read more options from files (response files)."),
];

/// The option called `name` (long or short, without dashes).
pub fn find(name: &str) -> Option<&'static Opt> {
    OPTIONS.iter().find(|o| o.long == name || o.short == name)
}

/// Values an option of [`Arg::One`] kind allows, where nvcc lists them.
pub fn allowed(opt: &Opt) -> Option<Vec<&'static str>> {
    match opt.arg {
        Arg::One(meta) | Arg::List(meta) if meta.contains('|') => Some(meta.split('|').collect()),
        _ => None,
    }
}
