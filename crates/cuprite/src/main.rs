//! `cuprite`: compiles CUDA programs to run on the CPU, with nvcc's command line.
//!
//! `cuprite [nvcc flags] inputs…` builds like nvcc; `cuprite run [flags] file.cu [-- args]`
//! builds a temporary executable, runs it and passes its output and exit code through.

mod cli;
mod device_pass;
mod host_rewrite;
mod pipeline;
mod rdc;
mod resources;
mod support_files;
mod toolchain;

use clap::Parser;
use cli::Options;
use pipeline::{Build, InputKind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// nvcc 13's default target (compute capability 7.5).
pub const DEFAULT_ARCH: u32 = 75;

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().collect();
    let run_mode = args.get(1).map(String::as_str) == Some("run");
    if run_mode {
        args.remove(1);
    }
    let normalized = cli::normalize(args);
    let opts = match Options::try_parse_from(&normalized) {
        Ok(o) => o,
        Err(e) if matches!(e.kind(), clap::error::ErrorKind::DisplayHelp) => {
            print!("{e}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("cuprite fatal   : {}", cli::describe_error(&e, &normalized));
            return ExitCode::from(1);
        }
    };
    if opts.version {
        print_version();
        return ExitCode::SUCCESS;
    }
    match drive(&opts, run_mode) {
        Ok(code) => code,
        Err(msg) => {
            if !msg.is_empty() {
                eprintln!("cuprite fatal   : {msg}");
            }
            ExitCode::from(1)
        }
    }
}

fn print_version() {
    println!("cuprite: Cuprite CUDA compiler driver (CUDA on the CPU)");
    println!("Cuprite version {}, compatible with CUDA 13.0 (nvcc command line)", env!("CARGO_PKG_VERSION"));
}

fn drive(opts: &Options, run_mode: bool) -> Result<ExitCode, String> {
    if opts.inputs.is_empty() {
        return Err("No input files specified; use option --help for more information".into());
    }
    // `-dc` is `-c -rdc=true`.
    let rdc = Options::bool_flag(&opts.rdc, false)? || opts.dc;
    let compile_only = opts.compile_only || opts.dc;
    let arch = opts.compute_capability()?;
    let opt_level = opts.opt_level()?;
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
        include_dir: support_files::include_dir()?,
        work,
        arch,
        opt_level,
    };

    let mut objects = Vec::new();
    for (i, input) in opts.inputs.iter().enumerate() {
        let kind = pipeline::input_kind(input, opts.language.as_deref())?;
        if kind != InputKind::Object && !input.exists() {
            return Err(format!("Could not open input file '{}'", input.display()));
        }
        let object = if compile_only {
            match (&opts.output, opts.inputs.len()) {
                (Some(o), 1) => o.clone(),
                _ => PathBuf::from(input.file_stem().unwrap_or_default()).with_extension("o"),
            }
        } else {
            build.work.join(format!("{i}-{}.o", input.file_stem().and_then(|s| s.to_str()).unwrap_or("input")))
        };
        if opts.preprocess_only || opts.deps_only {
            if kind == InputKind::Object {
                continue;
            }
            let target = PathBuf::from(input.file_stem().unwrap_or_default()).with_extension("o");
            if opts.preprocess_only {
                build.preprocess_to_stdout(input)?;
            } else {
                build.dependencies(input, &target.display().to_string())?;
            }
            continue;
        }
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
    if compile_only || opts.preprocess_only || opts.deps_only {
        return Ok(ExitCode::SUCCESS);
    }
    if opts.dlink {
        // `-dlink`: only the device object, for another linker (nvcc names it a_dlink.o).
        let output = opts.output.clone().unwrap_or_else(|| PathBuf::from("a_dlink.o"));
        if !build.device_link(&objects, &output)? {
            build.empty_object(&output)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    // Linking objects with relocatable device code links their device code first.
    let device_o = build.work.join("device-link.o");
    if build.device_link(&objects, &device_o)? {
        objects.push(device_o);
    }
    let output = match (&opts.output, run_mode) {
        (Some(o), _) => o.clone(),
        (None, true) => work_dir.path().join("a.out"),
        (None, false) => PathBuf::from("a.out"),
    };
    build.link(&objects, &output)?;
    if run_mode || opts.run {
        let mut args = opts.program_args.clone();
        args.extend(Options::split_commas(&opts.run_args));
        return run_program(&output, &args);
    }
    Ok(ExitCode::SUCCESS)
}

/// Runs the built program with the user's arguments; its output and exit code are ours.
fn run_program(program: &Path, args: &[String]) -> Result<ExitCode, String> {
    let program = if program.is_relative() && program.parent() == Some(Path::new("")) {
        Path::new(".").join(program)
    } else {
        program.to_path_buf()
    };
    let status = std::process::Command::new(&program)
        .args(args)
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
