//! Launch tracing for measuring where a launch's time goes (`CUPRITE_LAUNCH_TRACE=file`):
//! per launch and per thread (0: the launching thread, 1 + i: worker i) the times of
//! the phases of a launch, written to the file at exit. Off: nothing is allocated, and an
//! event costs one check of the launch's trace index.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Instant;

pub const MAX_LAUNCHES: usize = 2048;
pub const MAX_THREADS: usize = 32;
/// Times in ns since the first launch traced, per thread: 0 the launching thread's
/// start / a worker's wake-up (job taken), 1 its first block's start, 2 its last block's
/// end, 3 the launcher's hand-out done / a worker's finish, 4 blocks run (a count),
/// 5 the launcher's end (all helpers done).
pub const EVENTS: usize = 6;

static NEXT: AtomicU32 = AtomicU32::new(0);
static EPOCH: OnceLock<Instant> = OnceLock::new();
static PATH: OnceLock<Option<String>> = OnceLock::new();
/// The times, allocated when tracing is on.
static T: OnceLock<Box<[AtomicU64]>> = OnceLock::new();

thread_local! {
    pub static SLOT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

extern "C" fn dump() {
    let (Some(Some(p)), Some(times)) = (PATH.get(), T.get()) else { return };
    let n = (NEXT.load(Ordering::SeqCst) as usize).min(MAX_LAUNCHES);
    let mut s = String::new();
    for l in 0..n {
        for t in 0..MAX_THREADS {
            let b = (l * MAX_THREADS + t) * EVENTS;
            let v: Vec<u64> = (0..EVENTS).map(|e| times[b + e].load(Ordering::Relaxed)).collect();
            if v.iter().any(|&x| x != 0) {
                s += &format!("{l} {t} {} {} {} {} {} {}\n", v[0], v[1], v[2], v[3], v[4], v[5]);
            }
        }
    }
    let _ = std::fs::write(p, s);
}

pub fn init() {
    let p = PATH.get_or_init(|| {
        let p = std::env::var("CUPRITE_LAUNCH_TRACE").ok();
        if p.is_some() {
            EPOCH.get_or_init(Instant::now);
            T.get_or_init(|| (0..MAX_LAUNCHES * MAX_THREADS * EVENTS).map(|_| AtomicU64::new(0)).collect());
            unsafe { libc::atexit(dump) };
        }
        p
    });
    let _ = p;
}

/// A new launch's trace index (`u32::MAX`: not traced).
pub fn begin() -> u32 {
    if T.get().is_none() {
        return u32::MAX;
    }
    NEXT.fetch_add(1, Ordering::Relaxed)
}

pub fn now() -> u64 {
    EPOCH.get().map_or(0, |e| e.elapsed().as_nanos() as u64 + 1)
}

pub fn mark(launch: u32, event: usize) {
    if launch as usize >= MAX_LAUNCHES {
        return;
    }
    let Some(times) = T.get() else { return };
    let t = SLOT.with(|s| s.get()).min(MAX_THREADS - 1);
    times[(launch as usize * MAX_THREADS + t) * EVENTS + event].store(now(), Ordering::Relaxed);
}

pub fn mark_first(launch: u32, event: usize) {
    if launch as usize >= MAX_LAUNCHES {
        return;
    }
    let Some(times) = T.get() else { return };
    let t = SLOT.with(|s| s.get()).min(MAX_THREADS - 1);
    let _ = times[(launch as usize * MAX_THREADS + t) * EVENTS + event].compare_exchange(0, now(), Ordering::Relaxed, Ordering::Relaxed);
}

pub fn add(launch: u32, event: usize, v: u64) {
    if launch as usize >= MAX_LAUNCHES {
        return;
    }
    let Some(times) = T.get() else { return };
    let t = SLOT.with(|s| s.get()).min(MAX_THREADS - 1);
    times[(launch as usize * MAX_THREADS + t) * EVENTS + event].fetch_add(v, Ordering::Relaxed);
}
