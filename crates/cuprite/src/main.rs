//! `cuprite`: compiles CUDA programs to run on the CPU, with nvcc's command line.
//!
//! `cuprite [nvcc flags] inputs…` builds like nvcc; `cuprite run [flags] file.cu [-- args]`
//! builds a temporary executable, runs it and passes its output and exit code through;
//! `cuprite install --prefix DIR` writes a CUDA-toolkit-shaped directory whose `bin/nvcc`
//! is this binary (under that name it is nvcc only: no subcommands).

use cuprite::{build_cache, cli, ice, install, pipeline, support_files, toolchain, toolkit};

use clap::Parser;
use cli::Options;
use pipeline::{Build, InputKind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().collect();
    let as_nvcc = toolkit::invoked_as_nvcc(args.first().map(String::as_str).unwrap_or(""));
    let tool = if as_nvcc { "nvcc" } else { "cuprite" };
    if !args.is_empty() {
        args.remove(0);
    }
    if !as_nvcc && args.first().map(String::as_str) == Some("install") {
        return match install::InstallArgs::try_parse_from(&args) {
            Ok(a) => match install::install(&a) {
                Ok(()) => ExitCode::SUCCESS,
                Err(msg) => fail(tool, &msg),
            },
            Err(e) => {
                let _ = e.print();
                ExitCode::from(if e.use_stderr() { 2 } else { 0 })
            }
        };
    }
    if !as_nvcc && args.first().map(String::as_str) == Some("sanitize") {
        return match cli::sanitize::parse_sanitize(&args[1..]) {
            Ok(c) => sanitize_main(c, tool),
            Err(e) => fail(tool, &e),
        };
    }
    if !as_nvcc && args.first().map(String::as_str) == Some("prof") {
        return match cli::sanitize::parse_prof(&args[1..]) {
            Ok(c) => sanitize_main(c, tool),
            Err(e) => fail(tool, &e),
        };
    }
    let run_mode = !as_nvcc && args.first().map(String::as_str) == Some("run");
    if run_mode {
        args.remove(0);
        // `cuprite run --device gpu|cpu file.cu`: the device the program runs on
        // (CUPRITE_DEVICE for the child; the CPU device is the default).
        let end = args.iter().position(|a| a == "--").unwrap_or(args.len());
        if let Some(i) = args[..end].iter().position(|a| a == "--device" || a.starts_with("--device=")) {
            let value = match args[i].strip_prefix("--device=") {
                Some(v) => v.to_string(),
                None if i + 1 < end => args.remove(i + 1),
                None => String::new(),
            };
            args.remove(i);
            match value.as_str() {
                "gpu" | "cpu" => std::env::set_var("CUPRITE_DEVICE", value),
                other => return fail(tool, &format!("--device takes 'gpu' or 'cpu', not '{other}'")),
            }
        }
    }
    // `--sanitize[=TOOL]`, `--leak-check`: Cuprite's, not nvcc's (not under that name).
    let sanitize = if as_nvcc {
        None
    } else {
        match cli::sanitize::take_build_flags(&mut args, run_mode) {
            Ok(s) => s,
            Err(e) => return fail(tool, &e),
        }
    };
    // Deep programs (long expressions, deep template recursion) must not depend on the
    // main thread's stack; a panic becomes an internal compiler error, not a backtrace.
    ice::run_guarded(tool, move || cli_main(&args, run_mode, sanitize, tool))
}

/// `cuprite sanitize [options] PROGRAM [args]` / `cuprite prof …`: runs a program under
/// the checker or the profiler; a `.cu` file is built instrumented first (as `cuprite
/// run --sanitize` / `--profile`).
fn sanitize_main(cmd: cli::sanitize::SanitizeCommand, tool: &'static str) -> ExitCode {
    if cmd.program.extension().is_some_and(|e| e == "cu") {
        let mut build_args = vec![cmd.program.display().to_string()];
        if !cmd.args.is_empty() {
            build_args.push("--".into());
            build_args.extend(cmd.args.iter().cloned());
        }
        let settings = Some(cmd.settings);
        return ice::run_guarded(tool, move || cli_main(&build_args, true, settings, tool));
    }
    // A program built without instrumentation: its kept device IR is instrumented and
    // compiled on demand (`checked_rebuild`), and the runtime runs its kernels from that.
    let mut env = cmd.settings.env();
    match cuprite::checked_rebuild::instrumented_device_code(&cmd.program) {
        Ok(Some(so)) => env.push((cuprite_rt_env::CHECKED_DEVICE_CODE.into(), so.display().to_string())),
        Ok(None) => {}
        Err(msg) => return fail(tool, &msg),
    }
    match run_program(&cmd.program, &cmd.args, &env) {
        Ok(code) => code,
        Err(msg) => fail(tool, &msg),
    }
}

/// Names shared with the runtime (`cuprite_rt::checked_override`).
mod cuprite_rt_env {
    pub const CHECKED_DEVICE_CODE: &str = "CUPRITE_CHECKED_DEVICE_CODE";
}

/// Prints `TOOL fatal   : msg` (nvcc's form; TOOL is `nvcc` under that name) and fails.
fn fail(tool: &str, msg: &str) -> ExitCode {
    if !msg.is_empty() {
        eprintln!("{tool} fatal   : {msg}");
    }
    ExitCode::from(1)
}

fn cli_main(args: &[String], run_mode: bool, sanitize: Option<cli::sanitize::Settings>, tool: &str) -> ExitCode {
    let mut opts = match Options::parse(args) {
        Ok(o) => o,
        Err(e) => return fail(tool, &e),
    };
    opts.sanitize = sanitize;
    if opts.help {
        cli::print_help();
        return ExitCode::SUCCESS;
    }
    if opts.version {
        print_version();
        return ExitCode::SUCCESS;
    }
    if opts.list_gpu_arch || opts.list_gpu_code {
        if opts.list_gpu_arch {
            cli::print_list_gpu_arch();
        }
        if opts.list_gpu_code {
            cli::print_list_gpu_code();
        }
        return ExitCode::SUCCESS;
    }
    if !opts.no_warnings {
        for n in &opts.notes {
            eprintln!("{tool} warning : {n}");
        }
    }
    match drive(&opts, run_mode, args) {
        Ok(code) => code,
        Err(msg) => fail(tool, &msg),
    }
}

/// The banner: its first line and the `V<major>.<minor>.<patch>` are what build systems
/// (CMake) read to recognise nvcc and its version.
fn print_version() {
    println!("nvcc: Cuprite, an nvcc-compatible Cuda compiler driver that runs CUDA on the CPU");
    println!("Cuprite version {}, implementing CUDA {}.{} (V{})", env!("CARGO_PKG_VERSION"), toolkit::CUDA_MAJOR, toolkit::CUDA_MINOR, toolkit::cuda_version());
}

/// Where `-c` (or `-M`'s target) puts the object of `input`: `-o`, else its stem with
/// `.o`, in `-odir` when given.
fn object_name(opts: &Options, input: &Path) -> PathBuf {
    if let Some(o) = &opts.output {
        return o.clone();
    }
    let name = PathBuf::from(input.file_stem().unwrap_or_default()).with_extension("o");
    match &opts.output_dir {
        Some(d) => d.join(name),
        None => name,
    }
}

fn drive(opts: &Options, run_mode: bool, args: &[String]) -> Result<ExitCode, String> {
    let prefix = toolkit::Prefix::of_running_binary();
    if opts.verbose || opts.dryrun {
        // Printed before anything can fail: CMake runs `nvcc -v <not a file>` to read them.
        let (top, include, libraries) = match &prefix {
            Some(p) => (p.root.clone(), p.include(), format!("-L{}", p.lib64().display())),
            None => {
                let exe = std::env::current_exe().map_err(|e| format!("cannot locate the cuprite binary: {e}"))?;
                let dir = exe.parent().unwrap_or(Path::new(".")).to_path_buf();
                (dir.parent().unwrap_or(&dir).to_path_buf(), support_files::include_dir()?, String::new())
            }
        };
        let libraries = if libraries.is_empty() { libraries } else { toolkit::quote(&libraries) };
        eprint!("{}", toolkit::verbose_variables(&top, &include, &libraries));
    }
    opts.validate()?;
    if opts.inputs.is_empty() {
        return Err("No input files specified; use option --help for more information".into());
    }
    // `-dc` is `-c -rdc=true`.
    opts.relocatable()?;
    let arch = opts.compute_capability()?;
    let opt_level = opts.opt_level()?;
    let cudart = opts.cudart()?;
    let work_dir = tempfile::Builder::new().prefix("cuprite-").tempdir().map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let work = match (&opts.keep_dir, opts.keep) {
        (Some(d), _) => {
            std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
            d.clone()
        }
        (None, true) => PathBuf::from("."),
        _ => work_dir.path().to_path_buf(),
    };
    let build = Build {
        opts,
        tools: toolchain::Toolchain::new(opts.ccbin.as_deref(), opts.verbose, opts.dryrun),
        include_dir: match &prefix {
            Some(p) => p.include(),
            None => support_files::include_dir()?,
        },
        prefix,
        cudart,
        work,
        arch,
        opt_level,
    };

    if let Some(ext) = opts.module_output {
        return write_module_images(&build, ext).map(|_| ExitCode::SUCCESS);
    }
    // An unchanged build is taken from the cache (`build_cache`), its diagnostics replayed.
    let cache_key = cacheable(opts).then(|| invocation_key(args, run_mode, &build));
    if let Some(hit) = cache_key.as_deref().and_then(build_cache::lookup) {
        if let Some(program) = run_mode.then(|| hit.product(0)).flatten().filter(|_| opts.output.is_none()) {
            hit.replay_diagnostics();
            return run_program(&program, &program_args(opts), &sanitizer_env(opts));
        }
        hit.restore()?;
        let output = opts.output.clone().unwrap_or_else(|| PathBuf::from("a.out"));
        return finish(opts, run_mode, &output);
    }
    if cache_key.is_some() {
        build_cache::start_recording();
    }
    let (built, diagnostics) = cuprite::diagnostics::capture(|| build_all(opts, run_mode, &build, work_dir.path()));
    eprint!("{diagnostics}");
    let Some(output) = built? else { return Ok(ExitCode::SUCCESS) };
    if let Some(key) = &cache_key {
        build_cache::store(key, &products(opts, &build, output.as_deref()), &diagnostics);
    }
    match output {
        Some(output) => finish(opts, run_mode, &output),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Runs the program after a build when `cuprite run` or `--run` asks for it.
fn finish(opts: &Options, run_mode: bool, output: &Path) -> Result<ExitCode, String> {
    if run_mode || opts.run {
        return run_program(output, &program_args(opts), &sanitizer_env(opts));
    }
    Ok(ExitCode::SUCCESS)
}

/// The environment that selects checking mode's tool when `--sanitize` asked for one.
fn sanitizer_env(opts: &Options) -> Vec<(String, String)> {
    opts.sanitize.as_ref().map(|s| s.env()).unwrap_or_default()
}

fn program_args(opts: &Options) -> Vec<String> {
    let mut args = opts.program_args.clone();
    args.extend(opts.run_args.iter().cloned());
    args
}

/// Whether this invocation's products may come from the build cache: a compile (`-c`,
/// `-dc`) or a full build, with nothing asked for that a cached build would not redo
/// (printing commands, keeping intermediate files, resource reports, …).
fn cacheable(opts: &Options) -> bool {
    let ptxas_verbose = opts.xptxas.iter().any(|o| o == "-v" || o == "--verbose");
    build_cache::enabled()
        && !(opts.dryrun || opts.verbose || opts.keep || opts.keep_dir.is_some())
        && !(opts.preprocess_only || opts.deps_only || opts.syntax_only || opts.lib || opts.dlink)
        && !(opts.resource_usage || ptxas_verbose)
        && opts.module_output.is_none()
}

fn invocation_key(args: &[String], run_mode: bool, build: &Build) -> String {
    let mut key = build_cache::Invocation::new();
    key.add(if run_mode { "run" } else { "build" });
    // `--sanitize` / `--profile` were taken out of `args`: instrumented device code is a
    // different product.
    if build.opts.sanitize.is_some() {
        key.add("--instrumented-device-code");
    }
    for a in args {
        key.add(a);
    }
    key.add_program(&build.tools.cxx);
    key.add_program(&build.tools.cc);
    key.finish()
}

/// The files a build writes for the user: objects (with their `-MD` lists) under `-c`,
/// else the program (and `-MF`'s list when named).
fn products(opts: &Options, build: &Build, program: Option<&Path>) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(p) = program {
        out.push(p.to_path_buf());
        if let Some(f) = &opts.deps_file {
            out.push(f.clone());
        }
        return out;
    }
    for input in &opts.inputs {
        if pipeline::input_kind(input, opts.language.as_deref()) == Ok(InputKind::Object) {
            continue;
        }
        let object = object_name(opts, input);
        if opts.deps_md || opts.deps_mmd {
            out.push(build.dependency_file(&object));
        }
        out.push(object);
    }
    out
}

/// Compiles every input and, unless only compiling, links them. Returns the program's
/// path when one was linked, `None` when the build stopped earlier by request.
fn build_all(opts: &Options, run_mode: bool, build: &Build, temp: &Path) -> Result<Option<Option<PathBuf>>, String> {
    let rdc = opts.relocatable()?;
    let compile_only = opts.compile_only || opts.dc || opts.lib;
    let mut objects = Vec::new();
    for (i, input) in opts.inputs.iter().enumerate() {
        let kind = pipeline::input_kind(input, opts.language.as_deref())?;
        if kind != InputKind::Object && !input.exists() {
            return Err(format!("Could not open input file '{}'", input.display()));
        }
        ice::set_context(input, "compiling");
        if opts.preprocess_only || opts.deps_only {
            if kind == InputKind::Object {
                continue;
            }
            if opts.preprocess_only {
                build.preprocess(input, kind, opts.output.as_deref())?;
            } else {
                let mut target = opts.output_dir.clone().unwrap_or_default();
                target.push(PathBuf::from(input.file_stem().unwrap_or_default()).with_extension("o"));
                build.dependencies(input, &target.display().to_string())?;
            }
            continue;
        }
        let object = if compile_only && !opts.lib {
            object_name(opts, input)
        } else {
            build.work.join(format!("{i}-{}.o", input.file_stem().and_then(|s| s.to_str()).unwrap_or("input")))
        };
        match kind {
            InputKind::Object => {
                objects.push(input.clone());
                continue;
            }
            InputKind::Cuda => build.compile_cuda(input, &object, rdc)?,
            InputKind::Cxx | InputKind::C => build.compile_host_source(input, kind, &object)?,
        }
        objects.push(object);
    }
    if opts.lib && !(opts.preprocess_only || opts.deps_only || opts.syntax_only) {
        // `-lib`: the objects (device code as compiled: relocatable under -rdc) in one archive.
        let output = opts.output.clone().unwrap_or_else(|| PathBuf::from("a.a"));
        build.archive(&objects, &output)?;
        return Ok(None);
    }
    if compile_only || opts.preprocess_only || opts.deps_only || opts.syntax_only {
        return Ok(Some(None));
    }
    ice::set_context(Path::new(""), "linking");
    if opts.dlink {
        // `-dlink`: only the device object, for another linker (nvcc names it a_dlink.o).
        let output = opts.output.clone().unwrap_or_else(|| PathBuf::from("a_dlink.o"));
        if !build.device_link(&objects, &output)? {
            build.empty_object(&output)?;
        }
        return Ok(None);
    }
    // Linking objects with relocatable device code links their device code first.
    let device_o = build.work.join("device-link.o");
    if build.device_link(&objects, &device_o)? {
        objects.push(device_o);
    }
    let output = match (&opts.output, run_mode) {
        (Some(o), _) => o.clone(),
        (None, true) => temp.join("a.out"),
        (None, false) => PathBuf::from("a.out"),
    };
    build.link(&objects, &output)?;
    Ok(Some(Some(output)))
}

/// `-ptx`, `-cubin`, `-fatbin`: each `.cu` input's device code as a Cuprite module image
/// (`module_image`), into `-o` or the input's stem with the format's extension.
fn write_module_images(build: &Build, ext: &str) -> Result<(), String> {
    let opts = build.opts;
    if opts.output.is_some() && opts.inputs.len() > 1 {
        return Err("A single input file is required for a non-link phase when an outputfile is specified".into());
    }
    for input in &opts.inputs {
        if pipeline::input_kind(input, opts.language.as_deref())? != InputKind::Cuda {
            return Err(format!("-{ext}: '{}' is not a CUDA source file", input.display()));
        }
        if !input.exists() {
            return Err(format!("Could not open input file '{}'", input.display()));
        }
        ice::set_context(input, "compiling");
        let out = match &opts.output {
            Some(o) => o.clone(),
            None => {
                let name = PathBuf::from(input.file_stem().unwrap_or_default()).with_extension(ext);
                opts.output_dir.as_ref().map_or(name.clone(), |d| d.join(&name))
            }
        };
        let compiled = cuprite::module_image::compile_with_host_instances(build, input)?;
        let text = if ext == "ptx" { cuprite::module_image::ptx_file(build, &compiled)? } else { compiled.image.encode() };
        std::fs::write(&out, text).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    Ok(())
}

/// Runs the built program with the user's arguments; its output and exit code are ours.
fn run_program(program: &Path, args: &[String], env: &[(String, String)]) -> Result<ExitCode, String> {
    let program = if program.is_relative() && program.parent() == Some(Path::new("")) {
        Path::new(".").join(program)
    } else {
        program.to_path_buf()
    };
    let status = std::process::Command::new(&program)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .status()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    if let Some(code) = status.code() {
        return Ok(ExitCode::from(code as u8));
    }
    use std::os::unix::process::ExitStatusExt;
    let signal = status.signal().unwrap_or(0);
    eprintln!("cuprite: {} was killed by signal {signal}", program.display());
    Ok(ExitCode::from((128 + signal) as u8))
}
