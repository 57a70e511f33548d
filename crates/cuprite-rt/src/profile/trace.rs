//! A Chrome/Perfetto trace (`CUPRITE_PROFILE_TRACE=FILE`, `--profile-trace FILE`): one
//! complete event ("ph":"X") per kernel, copy and memset, on the row of the host thread
//! that ran it — each stream's work runs on that stream's own thread, so rows are
//! streams (named by their first operation's thread). Open it in ui.perfetto.dev or
//! chrome://tracing.

use crate::abi::Dim3;
use std::fmt::Write as _;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

struct Event {
    name: String,
    cat: &'static str,
    start: Instant,
    dur: Duration,
    tid: u64,
    args: String,
}

fn events() -> std::sync::MutexGuard<'static, Vec<Event>> {
    static E: OnceLock<Mutex<Vec<Event>>> = OnceLock::new();
    E.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

fn origin() -> Instant {
    static O: OnceLock<Instant> = OnceLock::new();
    *O.get_or_init(Instant::now)
}

fn file() -> Option<String> {
    std::env::var("CUPRITE_PROFILE_TRACE").ok().filter(|f| !f.is_empty())
}

fn tid() -> u64 {
    unsafe { libc::syscall(libc::SYS_gettid) as u64 }
}

pub fn kernel(name: &str, start: Instant, dur: Duration, grid: Dim3, block: Dim3) {
    if file().is_none() {
        return;
    }
    origin();
    let args = format!("\"grid\":\"({},{},{})\",\"block\":\"({},{},{})\"", grid.x, grid.y, grid.z, block.x, block.y, block.z);
    events().push(Event { name: name.to_string(), cat: "kernel", start, dur, tid: tid(), args });
}

pub fn transfer(what: &str, bytes: usize, start: Instant, dur: Duration) {
    if file().is_none() {
        return;
    }
    origin();
    events().push(Event { name: what.to_string(), cat: "memory", start, dur, tid: tid(), args: format!("\"bytes\":{bytes}") });
}

fn escape(s: &str) -> String {
    let mut o = String::new();
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o
}

/// Writes the trace file (at exit).
pub fn write() {
    let Some(path) = file() else { return };
    let ev = events();
    let t0 = ev.iter().map(|e| e.start).min().unwrap_or_else(origin);
    let pid = std::process::id();
    let mut s = String::from("{\"traceEvents\":[\n");
    let mut tids: Vec<u64> = ev.iter().map(|e| e.tid).collect();
    tids.dedup();
    let mut named = std::collections::HashSet::new();
    let mut first = true;
    for (i, t) in tids.iter().enumerate() {
        if named.insert(*t) {
            if !first {
                s.push_str(",\n");
            }
            first = false;
            let _ = write!(s, "{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":{pid},\"tid\":{t},\"args\":{{\"name\":\"stream thread {i}\"}}}}");
        }
    }
    for e in ev.iter() {
        if !first {
            s.push_str(",\n");
        }
        first = false;
        let ts = e.start.duration_since(t0).as_secs_f64() * 1e6;
        let dur = e.dur.as_secs_f64() * 1e6;
        let _ = write!(
            s,
            "{{\"ph\":\"X\",\"name\":\"{}\",\"cat\":\"{}\",\"pid\":{pid},\"tid\":{},\"ts\":{ts:.3},\"dur\":{dur:.3},\"args\":{{{}}}}}",
            escape(&e.name),
            e.cat,
            e.tid,
            e.args
        );
    }
    s.push_str("\n],\"displayTimeUnit\":\"ms\"}\n");
    if let Err(err) = std::fs::write(&path, s) {
        eprintln!("cuprite: could not write the profile trace {path}: {err}");
    }
}
