//! racecheck: hazards between threads whose accesses no barrier orders.
//!
//! Each thread counts the barriers it has passed (its *epoch*); every thread of a block
//! passes barrier k before any passes k + 1, so two accesses are ordered exactly when
//! their epochs differ. A shadow per byte keeps the last write and the last read (thread,
//! epoch, site); an access that meets one from another thread in the same epoch is a
//! hazard (RAW, WAR, WAW). What is found does not depend on the order in which the
//! threads run. Lanes of one warp in the same barrier interval are ordered only by a
//! `__syncwarp` both took part in (`warp_order.rs`); a shared-memory hazard between them
//! is reported as a warning, as compute-sanitizer does. Atomics are never a hazard.
//!
//! Shared memory is shadowed per block (on the worker running it); global memory per
//! allocation (`global_shadow.rs`: the last write of each word), where accesses from
//! different blocks of a launch are never ordered (beyond the GPU tool, which checks
//! shared memory only); there only reads of a word another thread wrote unordered (RAW)
//! are reported, and lanes of one warp are taken as ordered. Between blocks (and warps),
//! relaxed atomics with fences order global memory (release and acquire), volatile
//! accesses as acquire and release, `__syncthreads` passes on what a
//! thread learnt, and a grid barrier orders everything before it (`global_order.rs`).
//! Hazards are grouped by their two sites and reported at the end of the launch, as
//! compute-sanitizer's analysis mode does. A block's state lives with the worker running
//! it; a block of a cooperative launch that stops before its end (grid barrier, waiting
//! for other blocks) is set aside where any worker finds it when it resumes.

use super::global_order::{self, BlockSync, Clock};
use super::memcheck::Space;
use super::report::line;
use super::warp_order::{self, WarpClocks};
use super::{Access, Site, Thread};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// An access to a byte of the block's shared memory.
#[derive(Clone, Copy)]
struct Acc {
    /// The thread's index in its block; `u32::MAX`: no access.
    tid: u32,
    epoch: u32,
    /// The lane's own count of `__syncwarp`s joined (`warp_order.rs`).
    wclock: u32,
    /// `global_shadow::site_id`.
    site: u32,
    /// The thread's stamp (`global_order.rs`: what atomics ordered).
    stamp: u32,
}

const NO_ACCESS: Acc = Acc { tid: u32::MAX, epoch: 0, wclock: 0, site: 0, stamp: 0 };

/// A byte of shared memory: its last write and read in the block numbered `block`
/// (`BlockState::serial`; cells of other blocks are stale, so nothing is cleared).
#[derive(Clone, Copy)]
struct Cell {
    block: u32,
    w: Acc,
    r: Acc,
}

const STALE: Cell = Cell { block: 0, w: NO_ACCESS, r: NO_ACCESS };

/// How an earlier access relates to a later one of the same launch.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Order {
    Ordered,
    /// Threads of different warps (or blocks) that no barrier orders: an error.
    Race,
    /// Lanes of one warp that no barrier or warp collective orders: a warning.
    WarpRace,
}

impl Acc {
    /// How `earlier` (of the same block, numbered `block` in its grid) relates to
    /// `self`, whose lane's warp clock is `clock` and whose thread knows `known`.
    fn order_after(&self, earlier: &Acc, clock: &[u32; 32], known: Option<&Clock>, block: u32) -> Order {
        if earlier.tid == u32::MAX || self.tid == earlier.tid || self.epoch != earlier.epoch {
            return Order::Ordered;
        }
        if known.is_some_and(|k| k.knows_thread(block, earlier.tid, earlier.stamp)) {
            return Order::Ordered;
        }
        if self.tid / 32 != earlier.tid / 32 {
            return Order::Race;
        }
        if warp_order::ordered(earlier.tid % 32, earlier.wclock, clock) {
            Order::Ordered
        } else {
            Order::WarpRace
        }
    }
}

/// The running block's barrier counts (per worker thread).
struct BlockState {
    key: (u64, u32, u32, u32),
    /// Numbers the blocks this worker ran (from 1), for the shared cells.
    serial: u32,
    epochs: Vec<u32>,
    /// Per warp of the block, made at its first `__syncwarp`.
    warps: HashMap<u32, Box<WarpClocks>>,
    /// What atomics and barriers ordered between its threads and other blocks'.
    sync: BlockSync,
}

/// Blocks of cooperative launches that stopped before all their threads exited.
fn parked() -> MutexGuard<'static, HashMap<(u64, u32, u32, u32), BlockState>> {
    static P: OnceLock<Mutex<HashMap<(u64, u32, u32, u32), BlockState>>> = OnceLock::new();
    P.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

/// Numbers blocks as they start or resume (the shared cells' stamp: unique across
/// workers, so a block resumed elsewhere never takes another's cells for its own).
fn next_serial() -> u32 {
    static S: AtomicU32 = AtomicU32::new(0);
    S.fetch_add(1, Ordering::Relaxed).wrapping_add(1).max(1)
}

thread_local! {
    static BLOCK: RefCell<Option<BlockState>> = const { RefCell::new(None) };
    /// A cell per byte of shared memory, indexed by offset, reused from block to block.
    static SHARED: RefCell<Vec<Cell>> = const { RefCell::new(Vec::new()) };
}

fn with_block<R>(at: &Thread, f: impl FnOnce(&mut BlockState) -> R) -> Option<R> {
    BLOCK
        .try_with(|b| {
            let mut b = b.borrow_mut();
            let key = at.block_key();
            if b.as_ref().is_none_or(|s| s.key != key) {
                let n = at.run.block_dim.count() as usize;
                // The block this worker ran before is over: a block that stops before its
                // end (cooperative launches only) was set aside by `block_stopped`.
                b.take();
                let resumed = parked().remove(&key);
                *b = Some(match resumed {
                    Some(s) => BlockState { serial: next_serial(), ..s },
                    None => BlockState { key, serial: next_serial(), epochs: vec![0; n], warps: HashMap::new(), sync: BlockSync::with_threads(n) },
                });
            }
            f(b.as_mut().unwrap())
        })
        .ok()
}

/// The worker's running block stopped (a block of a cooperative launch at a grid
/// barrier, or yielding while it waits for other blocks): it may resume on another
/// worker, so its state is set aside now, where any worker finds it, unless all its
/// threads exited. Left in the worker's thread-local, a block resumed elsewhere started
/// over with empty clocks, and a thread that had already acquired what other blocks
/// released (passed a device-scope `cuda::barrier`) saw their writes as races.
/// `finished`: the block ran to its end, and its state goes.
pub fn block_stopped(finished: bool) {
    let _ = BLOCK.try_with(|b| {
        if let Some(old) = b.borrow_mut().take() {
            if !finished {
                parked().insert(old.key, old);
            }
        }
    });
}

pub fn barrier(at: &Thread) {
    let t = at.linear() as usize;
    with_block(at, |b| {
        if let Some(e) = b.epochs.get_mut(t) {
            b.sync.barrier(t as u32, *e);
            *e += 1;
        }
    });
}

/// A thread reaches a memory fence: its relaxed atomics order memory around it.
pub fn fence(at: &Thread) {
    let t = at.linear();
    let g = at.run.grid_dim;
    let block = at.block.x + at.block.y * g.x + at.block.z * g.x * g.y;
    with_block(at, |b| {
        let epoch = b.epochs.get(t as usize).copied().unwrap_or(0);
        b.sync.fence(block, t, epoch);
    });
}

/// The shadow's launch number for the worker's running launch (`global_order.rs`:
/// changed at grid barriers), set when a worker starts a run of blocks.
pub fn enter_run(launch: u64) -> u32 {
    let n = global_order::shadow_launch(launch);
    let _ = SHADOW_LAUNCH.try_with(|s| s.set(n));
    n
}

thread_local! {
    static SHADOW_LAUNCH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// A lane reaches a `__syncwarp` with member mask `mask` (`site`: which one).
pub fn warp_sync(mask: u32, site: (usize, u32), at: &Thread) {
    let t = at.linear();
    with_block(at, |b| b.warps.entry(t / 32).or_default().arrive(t % 32, site, mask));
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Hazard {
    Raw,
    War,
    Waw,
}

/// (launch, global?, hazard, first site, second site) → counts; the sites' text is kept
/// beside for the report.
type Key = (u64, bool, Hazard, (usize, usize, u32), (usize, usize, u32));

struct Found {
    first: Site,
    second: Site,
    count: u64,
    /// Of `count`, the hazards between lanes of one warp: the report is a warning when
    /// all are (compute-sanitizer sums both kinds in one report: 1016 hazards, an error,
    /// for tests/sanitize/reduce_missing_barrier.cu).
    in_warp: u64,
}
unsafe impl Send for Found {}

fn found() -> MutexGuard<'static, BTreeMap<Key, Found>> {
    static F: OnceLock<Mutex<BTreeMap<Key, Found>>> = OnceLock::new();
    F.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}


/// Records a hazard between `read` (or the first write) and `write`, in the reading
/// order of compute-sanitizer's reports (the read first).
fn record(launch: u64, global: bool, warning: bool, h: Hazard, a: Site, b: Site) {
    let (first, second) = if h == Hazard::Waw && b.key() < a.key() { (b, a) } else { (a, b) };
    let mut f = found();
    let e = f.entry((launch, global, h, first.key(), second.key())).or_insert(Found { first, second, count: 0, in_warp: 0 });
    e.count += 1;
    e.in_warp += warning as u64;
}

/// What the accessing thread knows: its warp clock, its clock, its block's number.
struct Knows<'a> {
    warp: [u32; 32],
    clock: Option<&'a Clock>,
    block: u32,
}

/// Records a hazard between `earlier` and the access `me` if they are unordered.
fn hazard(me: &Acc, earlier: &Acc, k: &Knows, launch: u64, h: Hazard) {
    let warning = match me.order_after(earlier, &k.warp, k.clock, k.block) {
        Order::Ordered => return,
        Order::Race => false,
        Order::WarpRace => true,
    };
    let (mine, theirs) = (super::global_shadow::site(me.site), super::global_shadow::site(earlier.site));
    match h {
        Hazard::Raw => record(launch, false, warning, h, mine, theirs),
        _ => record(launch, false, warning, h, theirs, mine),
    }
}

/// A shared-memory byte's access by `me` (whose warp clock is `clock`) in the block
/// numbered `block`.
fn visit(cell: &mut Cell, me: Acc, clock: &Knows, kind: Access, launch: u64, block: u32) {
    if cell.block != block {
        *cell = Cell { block, ..STALE };
    }
    match kind {
        Access::Read => {
            hazard(&me, &cell.w, clock, launch, Hazard::Raw);
            cell.r = me;
        }
        Access::Write => {
            hazard(&me, &cell.w, clock, launch, Hazard::Waw);
            hazard(&me, &cell.r, clock, launch, Hazard::War);
            cell.w = me;
        }
        Access::Atomic => {}
    }
}

/// An access by `at`; `volatile`: a volatile read acquires, a volatile write releases,
/// as an atomic does (spinning on a flag, `cuda::barrier`'s wait).
pub fn access(addr: usize, len: usize, kind: Access, volatile: bool, space: &Space, at: &Thread) {
    let tid = at.linear();
    let launch = at.run.launch;
    let g = at.run.grid_dim;
    let me_block = (at.block.x as u64 + at.block.y as u64 * g.x as u64 + at.block.z as u64 * g.x as u64 * g.y as u64) as u32;
    if kind == Access::Atomic {
        // Never a hazard, but with fences it orders (global_order.rs), wherever the word is.
        with_block(at, |b| b.sync.atomic(launch, addr, me_block, tid, matches!(space, Space::Shared { .. })));
        return;
    }
    if volatile && kind == Access::Read {
        with_block(at, |b| b.sync.acquire(launch, addr, tid));
    }
    match *space {
        Space::Shared { offset } => {
            let site = super::global_shadow::site_id(&at.site);
            with_block(at, |b| {
                let warp = b.warps.get_mut(&(tid / 32)).map_or([0; 32], |w| w.clock(tid % 32));
                let epoch = b.epochs.get(tid as usize).copied().unwrap_or(0);
                let stamp = b.sync.stamp(tid, epoch, false);
                let me = Acc { tid, epoch, wclock: warp[(tid % 32) as usize], site, stamp };
                let clock = Knows { warp, clock: b.sync.clock(tid), block: me_block };
                let _ = SHARED.try_with(|cells| {
                    let mut cells = cells.borrow_mut();
                    if cells.len() < offset + len {
                        cells.resize(offset + len, STALE);
                    }
                    for cell in &mut cells[offset..offset + len] {
                        visit(cell, me, &clock, kind, launch, b.serial);
                    }
                });
                if volatile && kind == Access::Write {
                    b.sync.release(launch, addr, me_block, tid, epoch, true);
                }
            });
        }
        Space::Global { base, size, .. } => {
            use super::global_shadow as gs;
            let lid = SHADOW_LAUNCH.try_with(|s| s.get()).unwrap_or(launch as u32);
            match kind {
                Access::Read => {
                    let seen = super::epoch_now();
                    super::skip_fresh_reads_within(base, base + size, gs::cells_address(base, size), seen);
                    let writes = gs::writes(base, size, addr, len, lid);
                    if writes.is_empty() {
                        return;
                    }
                    with_block(at, |b| {
                        let epoch = b.epochs.get(tid as usize).copied().unwrap_or(0) & 0xffff;
                        let clock = b.sync.clock(tid);
                        for w in writes {
                            let same_block = w.block == me_block && (w.tid == tid || w.epoch != epoch || w.tid / 32 == tid / 32);
                            if !same_block && !clock.is_some_and(|c| c.knows(w.block, w.tid, w.epoch, w.stamp)) {
                                record(launch, true, false, Hazard::Raw, at.site, gs::site(w.site));
                            }
                        }
                    });
                }
                Access::Write => {
                    let (epoch, stamp) = with_block(at, |b| {
                        let e = b.epochs.get(tid as usize).copied().unwrap_or(0);
                        (e, b.sync.stamp(tid, e, true))
                    })
                    .unwrap_or((0, 0));
                    let w = gs::Write { launch: lid, block: me_block, tid, epoch: epoch & 0xffff, stamp, site: gs::site_id(&at.site) };
                    gs::write(base, size, addr, len, &w);
                    if volatile {
                        with_block(at, |b| b.sync.release(launch, addr, me_block, tid, epoch, false));
                    }
                }
                Access::Atomic => {}
            }
        }
        _ => {}
    }
}

/// The launch is over: its blocks set aside and what its atomics released go.
pub fn launch_over(launch: u64) {
    parked().retain(|k, _| k.0 != launch);
    global_order::launch_end(launch);
}

static DISPLAYED: AtomicU64 = AtomicU64::new(0);
static WARNINGS: AtomicU64 = AtomicU64::new(0);

/// The launch's hazards, one report per pair of sites.
pub fn launch_end(launch: u64) {
    let mine: Vec<(Key, Found)> = {
        let mut f = found();
        let keys: Vec<Key> = f.keys().filter(|k| k.0 == launch).copied().collect();
        keys.into_iter().filter_map(|k| f.remove(&k).map(|v| (k, v))).collect()
    };
    for ((_, global, h, _, _), f) in mine {
        let warning = f.in_warp == f.count;
        let (mut a, mut b) = match h {
            Hazard::Raw | Hazard::War => ("Read", "Write"),
            Hazard::Waw => ("Write", "Write"),
        };
        // The two accesses in source order, as compute-sanitizer lists them (by code
        // offset); on one line the read first.
        let (mut first, mut second) = (f.first, f.second);
        if second.line < first.line {
            std::mem::swap(&mut first, &mut second);
            std::mem::swap(&mut a, &mut b);
        }
        DISPLAYED.fetch_add(1, Ordering::Relaxed);
        let severity = if warning {
            WARNINGS.fetch_add(1, Ordering::Relaxed);
            "Warning"
        } else {
            super::ERRORS.fetch_add(1, Ordering::Relaxed);
            "Error"
        };
        line(&format!("{severity}: Race reported between {a} access at {} in {}", first.function(), first.place()));
        line(&format!(
            "    and {b} access at {} in {} [{} hazard{}]",
            second.function(),
            second.place(),
            f.count,
            if f.count == 1 { "" } else { "s" }
        ));
        if global {
            line("    on __global__ memory, between threads that no barrier or atomic orders (found by Cuprite; compute-sanitizer checks __shared__ memory only)");
        }
        line("");
    }
}

pub fn summary() {
    let n = DISPLAYED.load(Ordering::Relaxed);
    let w = WARNINGS.load(Ordering::Relaxed);
    let s = |n: u64| if n == 1 { "" } else { "s" };
    line(&format!("RACECHECK SUMMARY: {n} hazard{} displayed ({} error{}, {w} warning{})", s(n), n - w, s(n - w), s(w)));
}
