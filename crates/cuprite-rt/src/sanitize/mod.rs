//! Checking mode: compute-sanitizer's four tools on the CPU device.
//!
//! Device code built with `--sanitize` (`cuprite_ir::instrument`) calls
//! `__cuprite_san_access` before every access through a pointer and `__cuprite_san_event`
//! at barriers, warp collectives and kernel exits. The tool is chosen when the program
//! runs (`CUPRITE_SANITIZE=memcheck|racecheck|synccheck|initcheck`, set by `cuprite
//! sanitize` / `cuprite run --sanitize`; a checked program run directly uses memcheck):
//! - `memcheck.rs`: which memory an address is (allocation, shared window, local,
//!   static data), out-of-bounds and misaligned accesses, leaks at exit;
//! - `initcheck.rs`: a shadow byte per byte of each `cudaMalloc` allocation;
//! - `racecheck.rs`: per-byte shadows of the last writer and reader, ordered by barrier
//!   intervals, for shared memory (per block) and global memory (per launch), and
//!   between lanes of one warp by the `__syncwarp`s they met at (`warp_order.rs`); on
//!   global memory also by atomics and grid barriers (`global_order.rs`);
//! - `synccheck.rs`: how many barriers each thread of a block passed before it exited.
//!
//! Reports follow compute-sanitizer's layout (`report.rs`) on stdout; the summary and
//! `--error-exitcode` come from an `atexit` handler. Programs without checks pay
//! nothing: nothing here runs unless checked device code calls it or
//! `CUPRITE_SANITIZE` is set.

mod global_order;
mod global_shadow;
mod initcheck;
mod memcheck;
mod racecheck;
pub mod report;
mod synccheck;
mod warp_order;

use crate::abi::Dim3;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_char, c_void, CStr};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Memcheck,
    Racecheck,
    Synccheck,
    Initcheck,
}

pub struct Config {
    pub tool: Tool,
    pub leak_check: bool,
    pub error_exitcode: Option<i32>,
    /// compute-sanitizer's `--print-limit` default.
    pub print_limit: u64,
}

static CHECKED_MODULE: AtomicBool = AtomicBool::new(false);

fn env_config() -> Option<Config> {
    let tool = match std::env::var("CUPRITE_SANITIZE").ok()?.as_str() {
        "racecheck" => Tool::Racecheck,
        "synccheck" => Tool::Synccheck,
        "initcheck" => Tool::Initcheck,
        _ => Tool::Memcheck,
    };
    Some(Config {
        tool,
        leak_check: std::env::var("CUPRITE_SANITIZE_LEAK_CHECK").is_ok_and(|v| v == "full"),
        error_exitcode: std::env::var("CUPRITE_SANITIZE_ERROR_EXITCODE").ok().and_then(|v| v.parse().ok()),
        print_limit: 100,
    })
}

/// The checker's settings, when checking is on (asked by the environment, or a checked
/// module was loaded); decided once.
pub fn config() -> Option<&'static Config> {
    static C: OnceLock<Option<Config>> = OnceLock::new();
    C.get_or_init(|| {
        // A checked program run directly uses memcheck, unless it runs to be profiled.
        let c = env_config().or_else(|| {
            (CHECKED_MODULE.load(Ordering::Relaxed) && !crate::profile::enabled()).then_some(Config { tool: Tool::Memcheck, leak_check: false, error_exitcode: None, print_limit: 100 })
        })?;
        start(&c);
        Some(c)
    })
    .as_ref()
}

pub fn active() -> bool {
    config().is_some()
}

fn tool_is(t: Tool) -> bool {
    config().is_some_and(|c| c.tool == t)
}

extern "C" {
    fn cuprite_san_set_fast_window(lo: usize, hi: usize);
    fn cuprite_san_bump_epoch();
    fn cuprite_san_epoch_now() -> u64;
    fn cuprite_san_set_read_window(lo: usize, hi: usize, shadow: usize, seen: u64);
    fn cuprite_san_set_launch(launch: u32);
    fn cuprite_san_set_init_window(lo: usize, hi: usize, shadow: usize, seen: u64);
    fn cuprite_san_want_values(bits: i32);
    fn cuprite_san_want_events(on: i32);
    fn cuprite_san_skip_accesses(skip: i32);
}

/// Checked code calls `__cuprite_san_value` for branches (the profiler's divergence)
/// only when asked.
pub fn want_branches() {
    unsafe {
        cuprite_san_want_values(1 << 0);
        // The profiler counts every access.
        cuprite_san_skip_accesses(0);
    }
}

/// Checked code calls `__cuprite_san_value` for warp collectives' masks (event 1), and
/// `__syncwarp`'s (event 3), only when asked.
fn want_warp_masks(collectives: bool) {
    unsafe { cuprite_san_want_values(if collectives { 1 << 1 | 1 << 3 } else { 1 << 3 }) };
}

/// The banner, and the summary at exit.
fn start(c: &Config) {
    // synccheck checks every collective's mask; racecheck orders lanes of a warp by
    // `__syncwarp`'s.
    match c.tool {
        Tool::Synccheck => want_warp_masks(true),
        Tool::Racecheck => want_warp_masks(false),
        _ => {}
    }
    // Barriers matter to racecheck and synccheck, exits to synccheck (a thread that
    // leaves before a barrier others reach), fences to racecheck (atomics order memory
    // through them).
    let events = match c.tool {
        Tool::Racecheck => 1 << 0 | 1 << 3,
        Tool::Synccheck => 1 << 0 | 1 << 2,
        _ => 0,
    };
    unsafe { cuprite_san_want_events(events) };
    // synccheck checks no access (`__cuprite_san_access` lets them all through): checked
    // code skips the checks, unless the profiler counts the accesses.
    if c.tool == Tool::Synccheck && !crate::profile::enabled() {
        unsafe { cuprite_san_skip_accesses(1) };
    }
    report::line("COMPUTE-SANITIZER");
    extern "C" fn at_exit() {
        finish();
    }
    unsafe {
        libc::atexit(at_exit);
    }
}

/// Errors counted for the summary (compute-sanitizer counts API errors and leaks too).
static ERRORS: AtomicU64 = AtomicU64::new(0);

/// Counts an error; whether it is still to be printed (`--print-limit`).
fn count_error() -> bool {
    let n = ERRORS.fetch_add(1, Ordering::Relaxed);
    n < config().map_or(100, |c| c.print_limit)
}

fn finish() {
    let Some(c) = config() else { return };
    if !CHECKED_MODULE.load(Ordering::Relaxed) && LAUNCHES.load(Ordering::Relaxed) > 0 {
        unchecked_program();
    }
    if c.tool == Tool::Memcheck && c.leak_check {
        memcheck::report_leaks();
    }
    let n = ERRORS.load(Ordering::Relaxed);
    match c.tool {
        Tool::Racecheck => racecheck::summary(),
        _ => report::line(&format!("ERROR SUMMARY: {n} error{}", if n == 1 { "" } else { "s" })),
    }
    if n > c.print_limit && c.tool != Tool::Racecheck {
        report::line(&format!(
            "ERROR SUMMARY: {} errors were not printed. Use --print-limit option to adjust the number of printed errors",
            n - c.print_limit
        ));
    }
    report::flush();
    if let (Some(code), true) = (c.error_exitcode, n > 0) {
        unsafe { libc::_exit(code) };
    }
}

/// Checking was asked of a program whose device code has no checks: said once, and
/// counted as an error, never a silent "0 errors".
fn unchecked_program() {
    static SAID: AtomicBool = AtomicBool::new(false);
    if !SAID.swap(true, Ordering::Relaxed) {
        count_error();
        report::line("Error: this program's device code was built without checks, so nothing was checked.");
        report::line("    Build it with 'cuprite --sanitize …', or run 'cuprite sanitize FILE.cu' / 'cuprite run --sanitize FILE.cu'.");
        report::line("");
    }
}

// ---- launches ---------------------------------------------------------------------------

static LAUNCHES: AtomicU64 = AtomicU64::new(0);

/// What one launch found: memcheck errors end it with `cudaErrorLaunchFailure`, as the
/// GPU does once compute-sanitizer has reported them.
#[derive(Default)]
struct LaunchState {
    memcheck_errors: u64,
}

fn launches() -> std::sync::MutexGuard<'static, HashMap<u64, LaunchState>> {
    static L: OnceLock<Mutex<HashMap<u64, LaunchState>>> = OnceLock::new();
    L.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

/// Before a launch runs: its identity for the checks its blocks make (0: unchecked).
pub fn launch_begin() -> u64 {
    if !active() {
        // The profiler puts the lanes of a warp together per launch.
        return if crate::profile::counting() { LAUNCHES.fetch_add(1, Ordering::Relaxed) + 1 } else { 0 };
    }
    let id = LAUNCHES.fetch_add(1, Ordering::Relaxed) + 1;
    if !CHECKED_MODULE.load(Ordering::Relaxed) {
        unchecked_program();
    }
    launches().insert(id, LaunchState::default());
    id
}

/// After a launch: the reports made at its end, and the error it ends with.
pub fn launch_end(id: u64) -> Option<i32> {
    if id == 0 || !active() {
        return None;
    }
    let st = launches().remove(&id).unwrap_or_default();
    racecheck::launch_end(id);
    if tool_is(Tool::Racecheck) {
        racecheck::launch_over(id);
    }
    (st.memcheck_errors > 0).then_some(crate::error::LAUNCH_FAILURE)
}

/// Where the running block's thread is: set by the worker before each run of blocks.
#[derive(Clone, Copy)]
pub struct RunContext {
    pub launch: u64,
    pub shared: usize,
    pub shared_bytes: usize,
    pub slots: usize,
    pub slot_bytes: usize,
    pub block_dim: Dim3,
    pub grid_dim: Dim3,
}

thread_local! {
    static RUN: RefCell<Option<RunContext>> = const { RefCell::new(None) };
}

pub fn enter_run(c: RunContext) {
    if c.launch != 0 {
        let _ = RUN.try_with(|r| *r.borrow_mut() = Some(c));
        if tool_is(Tool::Memcheck) || tool_is(Tool::Initcheck) {
            // Windows over the last run's shared memory and slots must not outlive it.
            bump_epoch();
        }
        if tool_is(Tool::Racecheck) {
            unsafe { cuprite_san_set_launch(racecheck::enter_run(c.launch)) };
        }
        if tool_is(Tool::Synccheck) {
            synccheck::forget_block();
        }
    }
}

/// Later accesses by this thread to `[lo, hi)` need no call (the inlined fast path),
/// until the next free; never while the profiler must see every access.
fn skip_calls_within(lo: usize, hi: usize) {
    if !crate::profile::counting() {
        unsafe { cuprite_san_set_fast_window(lo, hi) };
    }
}

/// After a valid access (memcheck, or initcheck with nothing left to find) in `space`:
/// later accesses to the same allocation, the block's shared memory or its per-thread
/// slots need no call. The shared and slot windows are the worker's buffers for the
/// running launch: `enter_run` bumps the epoch, so a later launch never finds them.
fn skip_calls_within_space(space: &memcheck::Space, run: &RunContext) {
    match *space {
        memcheck::Space::Global { base, size, kind: Some(_) } => skip_calls_within(base, base + size),
        memcheck::Space::Shared { .. } => skip_calls_within(run.shared, run.shared + run.shared_bytes),
        memcheck::Space::Local if run.slot_bytes > 0 => skip_calls_within(run.slots, run.slots + run.slot_bytes),
        _ => {}
    }
}

/// racecheck: later reads by this thread of the allocation `[lo, hi)` need no call while
/// its shadow of writes (`shadow`, the cells' address, or 0 for none) shows no write in
/// the running launch; `seen`: the epoch read before the shadow was looked up.
fn skip_fresh_reads_within(lo: usize, hi: usize, shadow: usize, seen: u64) {
    if !crate::profile::counting() {
        unsafe { cuprite_san_set_read_window(lo, hi, shadow, seen) };
    }
}

fn epoch_now() -> u64 {
    unsafe { cuprite_san_epoch_now() }
}

/// Every thread's windows are stale (an allocation went away, or a shadow was made).
fn bump_epoch() {
    unsafe { cuprite_san_bump_epoch() };
}

/// A worker has run its last block of launch `launch`: what it holds of the block's
/// warps is settled (synccheck's masks, the profiler's counters).
pub fn leave_run(launch: u64) {
    if launch == 0 {
        return;
    }
    if tool_is(Tool::Synccheck) {
        synccheck::forget_block();
        synccheck::leave_run();
    }
    if crate::profile::counting() {
        crate::profile::leave_run();
    }
}

/// A block of the cooperative launch `launch` returned to the worker (finished, or
/// stopped to be resumed later, perhaps by another worker): racecheck sets its state
/// aside, so that where it resumes does not change what is found.
pub fn block_stopped(launch: u64, finished: bool) {
    if launch != 0 && tool_is(Tool::Racecheck) {
        racecheck::block_stopped(finished);
    }
}

/// Every block of the cooperative launch `launch` reached a grid barrier and is about to
/// be let go (`workers.rs`): racecheck orders all earlier writes before what follows.
pub fn grid_barrier_released(launch: u64) {
    if launch != 0 && tool_is(Tool::Racecheck) {
        global_order::grid_barrier(launch, LAUNCHES.fetch_add(1, Ordering::Relaxed) + 1);
    }
}

/// Whether device code built with checks (`cuprite_ir::instrument`) was loaded.
pub fn module_checked() -> bool {
    CHECKED_MODULE.load(Ordering::Relaxed)
}

/// Ends the running launch with `cudaErrorLaunchFailure` once it is over (a finding
/// that stops the GPU's launch under compute-sanitizer).
fn fail_launch(launch: u64) {
    if let Some(l) = launches().get_mut(&launch) {
        l.memcheck_errors += 1;
    }
}

fn run_context() -> Option<RunContext> {
    RUN.try_with(|r| *r.borrow()).ok().flatten()
}

// ---- sites ------------------------------------------------------------------------------

/// Where a check was made, as the generated code names it.
#[derive(Clone, Copy)]
pub struct Site {
    pub symbol: *const c_char,
    pub file: *const c_char,
    pub line: u32,
}

impl Site {
    fn text(p: *const c_char) -> String {
        if p.is_null() {
            return "?".into();
        }
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
    /// `kernel(int *, int)`, as compute-sanitizer names functions.
    pub fn function(&self) -> String {
        report::display_name(&Site::text(self.symbol))
    }
    /// `file.cu:12`, the path stripped as compute-sanitizer's `--strip-paths yes`.
    pub fn place(&self) -> String {
        let f = Site::text(self.file);
        let base = f.rsplit('/').next().unwrap_or(&f).to_string();
        format!("{base}:{}", self.line)
    }
    /// A key for grouping reports by site.
    fn key(&self) -> (usize, usize, u32) {
        (self.symbol as usize, self.file as usize, self.line)
    }
}

/// The thread's linear index in its block.
fn linear(t: Dim3, bd: Dim3) -> u32 {
    t.x + t.y * bd.x + t.z * bd.x * bd.y
}

// ---- the entry points of checked device code ---------------------------------------------

/// A scratch area for an invalid access, so that the thread goes on without touching
/// memory it must not (reads give zeros).
fn scratch(bytes: usize) -> *mut c_void {
    thread_local! {
        static SCRATCH: RefCell<Vec<u128>> = const { RefCell::new(Vec::new()) };
    }
    SCRATCH
        .try_with(|s| {
            let mut s = s.borrow_mut();
            let words = bytes.div_ceil(16).max(1);
            if s.len() < words {
                s.resize(words, 0);
            }
            s[..words].fill(0);
            s.as_mut_ptr() as *mut c_void
        })
        .unwrap_or(std::ptr::null_mut())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    Write,
    Atomic,
}

/// # Safety
/// Called by checked device code with C strings that live as long as the program.
#[no_mangle]
pub unsafe extern "C" fn __cuprite_san_access(
    ptr: *mut c_void,
    bytes: u32,
    align: u32,
    kind: i32,
    site_no: u32,
    symbol: *const c_char,
    file: *const c_char,
    line: u32,
    thread: Dim3,
    block: Dim3,
) -> *mut c_void {
    let Some(run) = run_context() else { return ptr };
    // Kinds 3 and 4: volatile reads and writes (cuprite_abi.h).
    if crate::profile::counting() && kind != 2 {
        let global = matches!(memcheck::classify(ptr as usize, bytes as usize, &run), memcheck::Space::Global { .. });
        crate::profile::access(ptr as usize, bytes, kind == 1 || kind == 4, global, &run, (symbol as usize, site_no), thread, block);
    }
    let Some(cfg) = config() else { return ptr };
    if cfg.tool == Tool::Synccheck {
        // synccheck looks at barriers and warp collectives only (as compute-sanitizer's):
        // accesses go on unchecked, as in a program built without checks.
        skip_calls_within(0, usize::MAX);
        return ptr;
    }
    let volatile = kind == 3 || kind == 4;
    let kind = match kind {
        0 | 3 => Access::Read,
        1 | 4 => Access::Write,
        _ => Access::Atomic,
    };
    let site = Site { symbol, file, line };
    let at = Thread { thread, block, run, site };
    let addr = ptr as usize;
    let space = memcheck::classify(addr, bytes as usize, &run);
    match cfg.tool {
        Tool::Memcheck => {
            if let Some(bad) = memcheck::check(addr, bytes as usize, align as usize, kind, &space) {
                if count_error() {
                    memcheck::report(&bad, addr, bytes, kind, &at);
                }
                if let Some(l) = launches().get_mut(&run.launch) {
                    l.memcheck_errors += 1;
                }
                return scratch(bytes as usize);
            }
            // Later accesses to this allocation, or to the block's shared memory or
            // per-thread slots, take the inlined fast path (`__cuprite_san_check`),
            // unless the profiler must see each one.
            skip_calls_within_space(&space, &run);
        }
        Tool::Initcheck => {
            // An allocation initcheck does not shadow, or whose every byte is set, has
            // nothing left to find.
            let seen = epoch_now();
            if initcheck::access(addr, bytes as usize, kind, &space, &at) {
                skip_calls_within_space(&space, &run);
            } else if let memcheck::Space::Global { base, .. } = space {
                // Bytes left to find: checked code keeps the shadow itself.
                if let Some((lo, hi, shadow)) = initcheck::shadow_window(base) {
                    if !crate::profile::counting() {
                        unsafe { cuprite_san_set_init_window(lo, hi, shadow, seen) };
                    }
                }
            }
        }
        Tool::Racecheck => racecheck::access(addr, bytes as usize, kind, volatile, &space, &at),
        Tool::Synccheck => {}
    }
    // Memory the program must not touch is never touched, whatever the tool.
    if matches!(space, memcheck::Space::Unknown) {
        return scratch(bytes as usize);
    }
    ptr
}

/// # Safety
/// As `__cuprite_san_access`.
#[no_mangle]
pub unsafe extern "C" fn __cuprite_san_event(event: i32, symbol: *const c_char, file: *const c_char, line: u32, thread: Dim3, block: Dim3) {
    let Some(cfg) = config() else { return };
    let Some(run) = run_context() else { return };
    let at = Thread { thread, block, run, site: Site { symbol, file, line } };
    match (cfg.tool, event) {
        (Tool::Racecheck, 0) => racecheck::barrier(&at),
        (Tool::Racecheck, 3) => racecheck::fence(&at),
        (Tool::Synccheck, 0) => synccheck::barrier(&at),
        (Tool::Synccheck, 2) => synccheck::exit(&at),
        _ => {}
    }
}

/// # Safety
/// As `__cuprite_san_access`.
#[no_mangle]
pub unsafe extern "C" fn __cuprite_san_value(
    event: i32,
    value: u32,
    site_no: u32,
    symbol: *const c_char,
    file: *const c_char,
    line: u32,
    thread: Dim3,
    block: Dim3,
) {
    let Some(run) = run_context() else { return };
    let key = (symbol as usize, site_no);
    match event {
        0 if crate::profile::counting() => crate::profile::branch(value != 0, &run, key, thread, block),
        1 | 3 if tool_is(Tool::Synccheck) => {
            let at = Thread { thread, block, run, site: Site { symbol, file, line } };
            synccheck::warp_mask(value, key, &at);
        }
        3 if tool_is(Tool::Racecheck) => {
            let at = Thread { thread, block, run, site: Site { symbol, file, line } };
            racecheck::warp_sync(value, key, &at);
        }
        _ => {}
    }
}

#[no_mangle]
pub extern "C" fn __cuprite_san_module_checked() {
    CHECKED_MODULE.store(true, Ordering::Relaxed);
    let _ = config();
}

/// The thread making a check, and where.
pub struct Thread {
    pub thread: Dim3,
    pub block: Dim3,
    pub run: RunContext,
    pub site: Site,
}

impl Thread {
    fn linear(&self) -> u32 {
        linear(self.thread, self.run.block_dim)
    }
    /// A key for the block, unique within a launch.
    fn block_key(&self) -> (u64, u32, u32, u32) {
        (self.run.launch, self.block.x, self.block.y, self.block.z)
    }
    fn coords(&self) -> String {
        format!("by thread ({},{},{}) in block ({},{},{})", self.thread.x, self.thread.y, self.thread.z, self.block.x, self.block.y, self.block.z)
    }
}

// ---- host-side hooks ----------------------------------------------------------------------

/// A runtime API call failed: memcheck reports it as compute-sanitizer does
/// (`--report-api-errors explicit`).
pub fn api_error(code: i32) {
    if !tool_is(Tool::Memcheck) || code == crate::error::NOT_READY {
        return;
    }
    let name = report::api_function_name().unwrap_or_else(|| "a CUDA API function".into());
    if count_error() {
        let (cname, msg) = (crate::error::name(code), crate::error::message(code));
        report::line(&format!("Program hit {cname} (error {code}) due to \"{msg}\" on CUDA API call to {name}."));
        report::line("");
    }
}

/// Device memory was allocated / freed / written by a copy or memset.
pub fn note_alloc(base: usize, size: usize, device: bool) {
    if tool_is(Tool::Initcheck) {
        initcheck::alloc(base, size, device);
    }
}

pub fn note_free(base: usize) {
    // Every thread's fast-path window may name this allocation.
    bump_epoch();
    if tool_is(Tool::Initcheck) {
        initcheck::free(base);
    }
    if tool_is(Tool::Racecheck) {
        global_shadow::forget(base);
    }
}

pub fn note_host_write(dst: usize, n: usize) {
    if tool_is(Tool::Initcheck) {
        initcheck::written(dst, n);
    }
}
