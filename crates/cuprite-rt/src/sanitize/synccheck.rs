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

struct BlockState {
    key: (u64, u32, u32, u32),
    /// Barriers each thread has passed.
    passed: Vec<u32>,
    /// The site of the k-th barrier, as the first thread to reach it saw it, and that thread.
    sites: Vec<((usize, usize, u32), u32)>,
    /// The most barriers any thread reached, and the fewest any exited after.
    most_reached: u32,
    fewest_at_exit: Option<(u32, u32, Site)>,
    reported: bool,
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
        f(b.as_mut().unwrap())
    });
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
        let site = at.site.key();
        match b.sites.get(k as usize - 1) {
            Some(&(s, first)) if s != site => {
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
            None => b.sites.push((site, t)),
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
