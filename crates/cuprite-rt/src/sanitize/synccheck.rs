//! synccheck: every thread of a block that has not exited must reach each barrier, and
//! the same one. Each thread counts the barriers it passes; a thread that exits after
//! fewer barriers than another reached (or reaches a barrier other threads reached as a
//! different one) means a barrier that not all of the block reached: the guide forbids
//! it, even where sm_70+ hardware lets the others through (compute-sanitizer reports
//! nothing for a `__syncthreads()` under `if (threadIdx.x < 96)`; Cuprite does). One
//! report per block. Schedule-independent: both orders of the two events are caught.

use super::report::line;
use super::{Site, Thread};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

struct BlockState {
    key: (u64, u32, u32, u32),
    /// Barriers each thread has passed.
    passed: Vec<u32>,
    /// The site of the k-th barrier, as the first thread to reach it saw it, and that thread.
    sites: Vec<BarrierSite>,
    /// The most barriers any thread reached, and the fewest any exited after.
    most_reached: u32,
    fewest_at_exit: Option<(u32, u32, Site)>,
    reported: bool,
}

/// A barrier's site (`cuprite_abi.h`'s `__cuprite_san_barrier_site`: the inlined count
/// compares the symbol and file pointers and the line, as `Site::key` does).
#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq)]
struct BarrierSite {
    symbol: usize,
    file: usize,
    line: u32,
    first: u32,
}

/// `cuprite_abi.h`'s `__cuprite_san_sync_state`: what checked code reads to count a
/// barrier or an exit without a call.
#[repr(C)]
struct SyncFast {
    valid: u32,
    bx: u32,
    by: u32,
    bz: u32,
    bdx: u32,
    bdy: u32,
    nsites: u32,
    most: u32,
    fewest_exit: u32,
    passed: *mut u32,
    sites: *const BarrierSite,
}

extern "C" {
    fn cuprite_san_sync_state() -> *mut SyncFast;
}

thread_local! {
    static BLOCK: RefCell<Option<BlockState>> = const { RefCell::new(None) };
}

fn with_block(at: &Thread, f: impl FnOnce(&mut BlockState)) {
    let _ = BLOCK.try_with(|b| {
        let mut b = b.borrow_mut();
        let key = at.block_key();
        if b.as_ref().is_none_or(|s| s.key != key) {
            let n = at.run.block_dim.count() as usize;
            *b = Some(BlockState { key, passed: vec![0; n], sites: Vec::new(), most_reached: 0, fewest_at_exit: None, reported: false });
        }
        let s = b.as_mut().unwrap();
        f(s);
        publish(s, at);
    });
}

/// Lets checked code count this block's next barriers and exits itself while they
/// change nothing but a thread's count (`__cuprite_san_sync_counted`): the pointers stay
/// valid until the next call here, the only place that changes the block's state.
fn publish(b: &mut BlockState, at: &Thread) {
    // SAFETY: the calling thread's own thread-local, read only by checked code that this
    // thread runs.
    let fast = unsafe { &mut *cuprite_san_sync_state() };
    *fast = SyncFast {
        valid: 1,
        bx: at.block.x,
        by: at.block.y,
        bz: at.block.z,
        bdx: at.run.block_dim.x.max(1),
        bdy: at.run.block_dim.y.max(1),
        nsites: b.sites.len() as u32,
        most: b.most_reached,
        fewest_exit: b.fewest_at_exit.map_or(u32::MAX, |(_, n, _)| n),
        passed: b.passed.as_mut_ptr(),
        sites: b.sites.as_ptr(),
    };
}

/// A worker starts or ends a run: its blocks' counts are not the next launch's.
pub fn forget_block() {
    // SAFETY: as in `publish`.
    unsafe { (*cuprite_san_sync_state()).valid = 0 };
}

fn report(b: &mut BlockState, at: &Thread, detail: String) {
    if b.reported {
        return;
    }
    b.reported = true;
    if super::count_error() {
        line("Barrier error detected. Divergent thread(s) in block.");
        line(&format!("    at {} in {}", at.site.function(), at.site.place()));
        line(&format!("    {}", at.coords()));
        line(&format!("    {detail}"));
        line("");
    }
}

fn thread_of(linear: u32, at: &Thread) -> String {
    let bd = at.run.block_dim;
    let (x, y, z) = (linear % bd.x, (linear / bd.x) % bd.y, linear / (bd.x * bd.y));
    format!("({x},{y},{z})")
}

pub fn barrier(at: &Thread) {
    let t = at.linear();
    with_block(at, |b| {
        let Some(p) = b.passed.get_mut(t as usize) else { return };
        *p += 1;
        let k = *p;
        b.most_reached = b.most_reached.max(k);
        let (symbol, file, at_line) = at.site.key();
        match b.sites.get(k as usize - 1) {
            Some(s) if (s.symbol, s.file, s.line) != (symbol, file, at_line) => {
                let first = s.first;
                // As compute-sanitizer: one report per thread at the other barrier, and
                // the launch fails (the runtime ends a launch whose threads wait at
                // different barriers).
                if super::count_error() {
                    let scope = if first / 32 == t / 32 { "warp" } else { "block" };
                    line(&format!("Barrier error detected. Divergent thread(s) in {scope}."));
                    line(&format!("    at {} in {}", at.site.function(), at.site.place()));
                    line(&format!("    {}", at.coords()));
                    line("");
                }
                return;
            }
            Some(_) => {}
            None => b.sites.push(BarrierSite { symbol, file, line: at_line, first: t }),
        }
        if let Some((other, n, exit_site)) = b.fewest_at_exit {
            if n < k {
                let d = format!("Thread {} left the kernel at {} without reaching this barrier", thread_of(other, at), exit_site.place());
                report(b, at, d);
            }
        }
    });
}

pub fn exit(at: &Thread) {
    let t = at.linear();
    with_block(at, |b| {
        let Some(&n) = b.passed.get(t as usize) else { return };
        if b.fewest_at_exit.is_none_or(|(_, m, _)| n < m) {
            b.fewest_at_exit = Some((t, n, at.site));
        }
        if b.most_reached > n {
            let d = format!("This thread left the kernel after {n} barrier(s); other threads of the block waited at barrier number {}", n + 1);
            report(b, at, d);
        }
    });
}

// ---- warp collectives' member masks ------------------------------------------------------

use crate::abi::Dim3;
use crate::profile::lanes::{warp_lanes, InstanceKey, SiteKey, WarpInstances};

/// The lanes of one warp at one collective: each lane's mask, and where they were
/// (site, block, block shape, launch).
#[derive(Default)]
struct MaskInstance {
    masks: Vec<(u32, u32)>,
    place: Option<(Site, Dim3, Dim3, u64)>,
}

thread_local! {
    static MASKS: RefCell<(u32, WarpInstances<MaskInstance>)> = RefCell::new((0, WarpInstances::default()));
}

/// A lane arrives at a warp collective whose member mask is `mask`. As compute-sanitizer
/// (measured on an H100): lanes that meet at the collective while one of them is not in
/// its own mask are each reported ("Invalid arguments") and the launch fails. Beyond
/// it (it reports 0 for these): a mask naming lanes of the warp that exited or never
/// come to this collective is reported once per warp instance, when its block ends.
pub fn warp_mask(mask: u32, site: SiteKey, at: &Thread) {
    let _ = MASKS.try_with(|m| {
        let mut m = m.borrow_mut();
        let threads = at.run.block_dim.count() as u32;
        let previous = m.0;
        for (k, lanes, g) in m.1.enter(at.block_key()) {
            settle(k, lanes, g, previous);
        }
        m.0 = threads;
        let (key, lanes, g) = m.1.arrive(with_mask(site, mask), at.linear());
        g.masks.push((at.linear() % 32, mask));
        if g.place.is_none() {
            g.place = Some((at.site, at.block, at.run.block_dim, at.run.launch));
        }
        let named = g.masks.iter().fold(0u32, |a, &(_, m)| a | m) & warp_lanes(key.0, threads);
        if lanes & named == named && lanes == warp_lanes(key.0, threads) {
            if let Some(g) = m.1.take(key) {
                settle(key, lanes, g, threads);
            }
        }
    });
}

/// The site as synccheck matches lanes there: lanes that reach one collective with
/// different masks are different instances (the partitions of a `labeled_partition` or
/// `binary_partition` run one site as many times as each partition needs: their k-th
/// runs are not one instance). The function's symbol and the mask are numbered
/// together, exactly.
fn with_mask(site: SiteKey, mask: u32) -> SiteKey {
    thread_local! {
        static LOCAL: RefCell<HashMap<(usize, u32), usize>> = RefCell::new(HashMap::new());
    }
    static ALL: OnceLock<Mutex<HashMap<(usize, u32), usize>>> = OnceLock::new();
    let key = (site.0, mask);
    let id = LOCAL.try_with(|l| l.borrow().get(&key).copied()).ok().flatten().unwrap_or_else(|| {
        let mut all = ALL.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner());
        let n = all.len();
        let id = *all.entry(key).or_insert(n);
        let _ = LOCAL.try_with(|l| l.borrow_mut().insert(key, id));
        id
    });
    (id, site.1)
}

fn settle(key: InstanceKey, lanes: u32, g: MaskInstance, threads: u32) {
    let Some((site, b, bd, launch)) = g.place else { return };
    let thread = |lane: u32| {
        let linear = key.0 * 32 + lane;
        let (bx, by) = (bd.x.max(1), bd.y.max(1));
        format!("by thread ({},{},{}) in block ({},{},{})", linear % bx, (linear / bx) % by, linear / (bx * by), b.x, b.y, b.z)
    };
    if g.masks.iter().any(|&(l, m)| m & (1 << l) == 0) {
        for &(l, _) in &g.masks {
            if super::count_error() {
                line("Barrier error detected. Invalid arguments.");
                line(&format!("    at {} in {}", site.function(), site.place()));
                line(&format!("    {}", thread(l)));
                line("");
            }
        }
        super::fail_launch(launch);
        return;
    }
    let named = g.masks.iter().fold(0u32, |a, &(_, m)| a | m) & warp_lanes(key.0, threads);
    let missing = named & !lanes;
    if missing != 0 && super::count_error() {
        line(&format!(
            "Barrier error detected. Warp collective's mask {named:#010x} names lanes that do not reach it (lanes {}: exited or elsewhere).",
            lane_list(missing)
        ));
        line(&format!("    at {} in {}", site.function(), site.place()));
        line(&format!("    {}", thread(g.masks[0].0)));
        line("    (found by Cuprite; compute-sanitizer's synccheck does not check masks against the lanes that arrive)");
        line("");
    }
}

/// `0-15,17`: the lanes set in `m`, runs collapsed.
fn lane_list(m: u32) -> String {
    let mut parts = Vec::new();
    let mut l = 0;
    while l < 32 {
        if m & (1 << l) != 0 {
            let start = l;
            while l + 1 < 32 && m & (1 << (l + 1)) != 0 {
                l += 1;
            }
            parts.push(if start == l { format!("{start}") } else { format!("{start}-{l}") });
        }
        l += 1;
    }
    parts.join(",")
}

/// The worker's last block of a launch has run: masks of warps still open are settled.
pub fn leave_run() {
    let _ = MASKS.try_with(|m| {
        let mut m = m.borrow_mut();
        let threads = m.0;
        for (k, lanes, g) in m.1.leave() {
            settle(k, lanes, g, threads);
        }
    });
}
