//! One NVRTC compilation: the program's source and headers written to a private
//! directory, compiled in process by Cuprite's driver library into a module image
//! (`cuprite::module_image`), diagnostics captured for the program log.

use cuprite::cli::{Cudart, Options};
use cuprite::pipeline::Build;
use std::path::Path;

pub struct Input<'a> {
    pub name: &'a str,
    pub source: &'a str,
    pub headers: &'a [(String, String)],
    pub name_expressions: &'a [String],
}

pub struct Output {
    /// The image as text (what nvrtcGetPTX and nvrtcGetCUBIN return), or None on failure.
    pub image: Option<String>,
    pub lowered: Vec<String>,
    pub log: String,
}

/// Stack for the compiler thread (deep expressions and templates), as the driver's.
const STACK_BYTES: usize = 256 << 20;

/// A file name for the program or a header inside the work directory (no `..`, no root).
fn relative(name: &str) -> String {
    let parts: Vec<&str> = name.split('/').filter(|p| !p.is_empty() && *p != "." && *p != "..").collect();
    if parts.is_empty() {
        "default_program".into()
    } else {
        parts.join("/")
    }
}

pub fn compile(input: &Input, nvcc_args: Vec<String>) -> Output {
    let name = relative(input.name);
    let source = input.source.to_string();
    let headers = input.headers.to_vec();
    let exprs = input.name_expressions.to_vec();
    let worker = std::thread::Builder::new().name("cuprite-nvrtc".into()).stack_size(STACK_BYTES).spawn(move || {
        let (r, log) = cuprite::diagnostics::capture(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(&name, &source, &headers, &exprs, &nvcc_args)))
                .unwrap_or_else(|_| Err(("internal compiler error while compiling the program, please report".to_string(), String::new())))
        });
        (r, log)
    });
    let (r, mut log) = match worker.map(|h| h.join()) {
        Ok(Ok(x)) => x,
        _ => (Err(("cannot start the compiler thread".to_string(), String::new())), String::new()),
    };
    match r {
        Ok((image, lowered, dir)) => Output { image: Some(image), lowered, log: tidy(&log, &dir) },
        Err((msg, dir)) => {
            if !msg.is_empty() {
                log.push_str(&msg);
                log.push('\n');
            }
            Output { image: None, lowered: Vec::new(), log: tidy(&log, &dir) }
        }
    }
}

/// Paths of the private directory are not the user's: the log names files as the program did.
fn tidy(log: &str, dir: &str) -> String {
    if dir.is_empty() {
        log.to_string()
    } else {
        log.replace(&format!("{dir}/"), "")
    }
}

type Compiled = (String, Vec<String>, String);

fn run(name: &str, source: &str, headers: &[(String, String)], exprs: &[String], nvcc_args: &[String]) -> Result<Compiled, (String, String)> {
    let tmp = tempfile::Builder::new().prefix("cuprite-nvrtc-").tempdir().map_err(|e| (format!("cannot create a temporary directory: {e}"), String::new()))?;
    let dir = tmp.path().join("src");
    let dir_text = dir.display().to_string();
    let fail = |m: String| (m, dir_text.clone());
    let write = |rel: &str, text: &str| -> Result<(), (String, String)> {
        let path = dir.join(rel);
        if let Some(p) = path.parent() {
            std::fs::create_dir_all(p).map_err(|e| fail(format!("cannot write {}: {e}", path.display())))?;
        }
        std::fs::write(&path, text).map_err(|e| fail(format!("cannot write {}: {e}", path.display())))
    };
    for (h, text) in headers {
        write(&relative(h), text)?;
    }
    write(name, source)?;
    let input = dir.join(name);
    let mut args = nvcc_args.to_vec();
    args.push(input.display().to_string());
    let opts = Options::parse(&args).map_err(|e| fail(format!("error: {e}")))?;
    if let Some(r) = &opts.refused {
        return Err(fail(format!("error: {r}")));
    }
    let build = Build {
        opts: &opts,
        tools: cuprite::toolchain::Toolchain::new(None, false, false),
        include_dir: cuprite::support_files::include_dir().map_err(fail)?,
        prefix: None,
        cudart: Cudart::Static,
        work: tmp.path().to_path_buf(),
        arch: opts.compute_capability().map_err(fail)?,
        opt_level: opts.opt_level().map_err(fail)?,
    };
    let compiled = cuprite::module_image::compile(&build, Path::new(&input), exprs).map_err(fail)?;
    Ok((compiled.image.encode(), compiled.lowered, dir_text))
}
