//! The profiler: `cuprite run --profile`, `cuprite prof ./app`, or `CUPRITE_PROFILE=1` on
//! a program Cuprite built.
//!
//! For every program: per kernel, its launches and the host time they took (from the
//! launch's start to its end on the stream's thread), and with
//! `CUPRITE_PROFILE_TRACE=FILE` a Chrome/Perfetto trace of kernels, copies and memsets
//! (`trace.rs`). For a program whose device code was instrumented (built with
//! `--profile` or `--sanitize`: `cuprite_ir::instrument`, the same build as checking
//! mode), also the memory counters of Nsight Compute computed from every access's
//! address, lanes of a warp put back together (`lanes.rs`, `counters.rs`), the
//! theoretical occupancy, and warp-level branch divergence. The report (`report.rs`)
//! is printed at exit in ncu's layout. Programs run without `CUPRITE_PROFILE` pay one
//! `OnceLock` test per launch.

mod counters;
pub mod lanes;
mod report;
mod trace;

pub use counters::Counters;

use crate::abi::Dim3;
use crate::sanitize::RunContext;
use lanes::{warp_lanes, InstanceKey, WarpInstances};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

fn env_on(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Whether the profiler is on (decided once; the report is printed at exit).
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        let on = env_on("CUPRITE_PROFILE") || env_on("CUPRITE_PROFILE_TRACE");
        if on {
            crate::sanitize::want_branches();
            extern "C" fn at_exit() {
                finish();
            }
            unsafe {
                libc::atexit(at_exit);
            }
        }
        on
    })
}

/// Whether accesses are counted: the profiler is on and the device code is instrumented.
pub fn counting() -> bool {
    enabled() && crate::sanitize::module_checked()
}

// ---- per kernel -------------------------------------------------------------------------

pub struct KernelStats {
    pub name: String,
    pub launches: u64,
    pub host_ns: u128,
    pub grid: Dim3,
    pub block: Dim3,
    pub static_shared: u64,
    pub dynamic_shared: usize,
    pub occupancy: Option<crate::api::launch::OccupancyLimits>,
    pub warps_per_sm: i32,
    pub counters: Counters,
    pub counted: bool,
}

fn kernels() -> std::sync::MutexGuard<'static, Vec<KernelStats>> {
    static K: OnceLock<Mutex<Vec<KernelStats>>> = OnceLock::new();
    K.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

fn launch_counters() -> std::sync::MutexGuard<'static, HashMap<u64, Counters>> {
    static L: OnceLock<Mutex<HashMap<u64, Counters>>> = OnceLock::new();
    L.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

/// A launch is about to run: when it started.
pub fn launch_begin() -> Option<Instant> {
    enabled().then(Instant::now)
}

/// A launch has ended (`check_id`: its identity for the counters, 0 if none).
pub fn launch_end(started: Option<Instant>, l: &crate::launch::PreparedLaunch, check_id: u64) {
    let Some(t0) = started else { return };
    let dur = t0.elapsed();
    let counters = if check_id != 0 { launch_counters().remove(&check_id) } else { None };
    let display = crate::sanitize::report::display_name(&l.kernel.symbol);
    trace::kernel(&display, t0, dur, l.grid, l.block);
    let mut ks = kernels();
    let i = match ks.iter().position(|k| k.name == display) {
        Some(i) => i,
        None => {
            let c = crate::context::ctx();
            let bs = l.block.count() as i32;
            let occupancy = crate::api::launch::occupancy_limits(&l.kernel, c.props(), bs, l.dynamic_shared, 0).ok();
            let warps_per_sm = c.props().attribute(39).unwrap_or(2048) / 32;
            ks.push(KernelStats {
                name: display,
                launches: 0,
                host_ns: 0,
                grid: l.grid,
                block: l.block,
                static_shared: l.kernel.static_shared_bytes,
                dynamic_shared: l.dynamic_shared,
                occupancy,
                warps_per_sm,
                counters: Counters::default(),
                counted: false,
            });
            ks.len() - 1
        }
    };
    let k = &mut ks[i];
    k.launches += 1;
    k.host_ns += dur.as_nanos();
    if let Some(c) = counters {
        k.counters.add(&c);
        k.counted = true;
    }
}

/// A copy or memset ran (for the trace).
pub fn transfer(what: &str, bytes: usize, started: Instant) {
    if enabled() {
        trace::transfer(what, bytes, started, started.elapsed());
    }
}

fn finish() {
    let ks = kernels();
    report::print(&ks, counting());
    trace::write();
}

// ---- per worker: the accesses of the block it runs --------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum What {
    Load,
    Store,
    Branch,
}

#[derive(Default)]
struct Instance {
    what: Option<What>,
    shared: bool,
    bytes: usize,
    addrs: Vec<usize>,
    taken: u32,
}

#[derive(Default)]
struct Worker {
    launch: u64,
    threads: u32,
    counters: Counters,
    instances: WarpInstances<Instance>,
}

thread_local! {
    static WORKER: RefCell<Worker> = RefCell::new(Worker::default());
}

impl Worker {
    fn enter(&mut self, run: &RunContext, block: Dim3) {
        if self.launch != run.launch {
            self.flush();
            self.launch = run.launch;
        }
        self.threads = run.block_dim.count() as u32;
        for (k, lanes, g) in self.instances.enter((run.launch, block.x, block.y, block.z)) {
            self.count(k, lanes, g);
        }
    }

    /// Counts one warp-level instance.
    fn count(&mut self, _k: InstanceKey, lanes: u32, g: Instance) {
        let c = &mut self.counters;
        match (g.what, g.shared) {
            (Some(What::Branch), _) => {
                c.branches += 1;
                if g.taken != 0 && g.taken != lanes {
                    c.divergent_branches += 1;
                }
            }
            (Some(What::Load), false) => {
                c.global_ld_requests += 1;
                c.global_ld_sectors += counters::sectors(&g.addrs, g.bytes);
            }
            (Some(What::Store), false) => {
                c.global_st_requests += 1;
                c.global_st_sectors += counters::sectors(&g.addrs, g.bytes);
            }
            (Some(What::Load), true) => {
                let (w, x) = counters::shared_wavefronts(&g.addrs, g.bytes);
                c.shared_ld_requests += 1;
                c.shared_ld_wavefronts += w;
                c.shared_ld_conflicts += x;
            }
            (Some(What::Store), true) => {
                let (w, x) = counters::shared_wavefronts(&g.addrs, g.bytes);
                c.shared_st_requests += 1;
                c.shared_st_wavefronts += w;
                c.shared_st_conflicts += x;
            }
            (None, _) => {}
        }
    }

    /// Lane `linear` at instruction `site`: the instance is counted once its warp's lanes
    /// have all come (else when the block ends).
    fn arrive(&mut self, site: lanes::SiteKey, linear: u32, fill: impl FnOnce(&mut Instance, u32)) {
        let (key, lanes, g) = self.instances.arrive(site, linear);
        fill(g, linear % 32);
        if lanes == warp_lanes(key.0, self.threads) {
            if let Some(g) = self.instances.take(key) {
                self.count(key, lanes, g);
            }
        }
    }

    fn flush(&mut self) {
        for (k, lanes, g) in self.instances.leave() {
            self.count(k, lanes, g);
        }
        if self.launch != 0 {
            let c = std::mem::take(&mut self.counters);
            launch_counters().entry(self.launch).or_default().add(&c);
        }
    }
}

fn linear(t: Dim3, bd: Dim3) -> u32 {
    t.x + t.y * bd.x + t.z * bd.x * bd.y
}

/// An access by checked device code (`__cuprite_san_access`). Atomics and local memory
/// are not counted.
#[allow(clippy::too_many_arguments)]
pub fn access(addr: usize, bytes: u32, write: bool, global: bool, run: &RunContext, site: lanes::SiteKey, thread: Dim3, block: Dim3) {
    let shared = addr >= run.shared && addr < run.shared + run.shared_bytes && run.shared_bytes > 0;
    if !shared && !global {
        return;
    }
    let _ = WORKER.try_with(|w| {
        let mut w = w.borrow_mut();
        w.enter(run, block);
        let l = linear(thread, run.block_dim);
        w.arrive(site, l, |g, _| {
            g.what = Some(if write { What::Store } else { What::Load });
            g.shared = shared;
            g.bytes = bytes as usize;
            g.addrs.push(if shared { addr - run.shared } else { addr });
        });
    });
}

/// A conditional branch taken (`taken`) or not by checked device code.
pub fn branch(taken: bool, run: &RunContext, site: lanes::SiteKey, thread: Dim3, block: Dim3) {
    let _ = WORKER.try_with(|w| {
        let mut w = w.borrow_mut();
        w.enter(run, block);
        let l = linear(thread, run.block_dim);
        w.arrive(site, l, |g, lane| {
            g.what = Some(What::Branch);
            if taken {
                g.taken |= 1 << lane;
            }
        });
    });
}

/// A worker has finished its part of a launch: what it counted joins the launch's.
pub fn leave_run() {
    let _ = WORKER.try_with(|w| {
        let mut w = w.borrow_mut();
        w.flush();
        w.launch = 0;
    });
}
