//! The compiler never crashes: the build runs on a thread with a large stack (deep
//! programs recurse deeply; the front-end and checker also grow their stacks with
//! `stacker` where they recurse), and a panic becomes one "internal compiler error"
//! line naming the input being compiled, never a Rust backtrace.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;

/// The stack of the thread that compiles; only the pages used are ever touched.
const STACK_BYTES: usize = 1 << 30;

/// What is being done, for the internal compiler error message.
static CONTEXT: Mutex<String> = Mutex::new(String::new());

pub fn set_context(input: &Path, phase: &str) {
    let text = if input.as_os_str().is_empty() { phase.to_string() } else { format!("{phase} {}", input.display()) };
    if let Ok(mut c) = CONTEXT.lock() {
        *c = text;
    }
}

/// Runs `f` on a large stack; a panic prints an internal compiler error (under the name
/// the driver was invoked as: `cuprite` or `nvcc`) and exits 1.
pub fn run_guarded(tool: &'static str, f: impl FnOnce() -> ExitCode + Send + 'static) -> ExitCode {
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        let place = info.location().map(|l| format!(" [{}:{}]", l.file(), l.line())).unwrap_or_default();
        let context = CONTEXT.lock().map(|c| c.clone()).unwrap_or_default();
        let during = if context.is_empty() { String::new() } else { format!(" while {context}") };
        eprintln!("{tool}: internal compiler error: {msg}{place}{during}, please report");
    }));
    let worker = std::thread::Builder::new().name("cuprite".into()).stack_size(STACK_BYTES).spawn(f);
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        Ok(Err(_)) => ExitCode::from(1),
        Err(e) => {
            eprintln!("{tool} fatal   : cannot start the compiler thread: {e}");
            ExitCode::from(1)
        }
    }
}
