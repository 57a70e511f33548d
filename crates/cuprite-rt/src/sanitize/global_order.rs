//! racecheck's happens-before between threads of different blocks (and warps) on global
//! memory: what atomics, fences and grid barriers order, as ThreadSanitizer models it.
//!
//! Each thread keeps a vector clock (`Clock`) of what it knows of other threads' global
//! writes: per thread `(block, tid)` the last *stamp* it knows (a thread stamps its
//! writes with its own count of releases that followed a write), and per block `X` a
//! barrier count `E` (every write of block `X` made before its `E`-th `__syncthreads` is
//! known). Atomics are relaxed, as CUDA's builtins are (`atomicAdd`, and libcu++'s with
//! `memory_order_relaxed`; libcu++'s other orders and `cuda::barrier` put fences around
//! their read-modify-writes, `include/cuda/`): they order memory only with fences, as
//! C++'s fence synchronisation says. An atomic read-modify-write releases on its address
//! what the thread knew at its last fence (a release fence before a relaxed write), and
//! what it reads there the thread takes at its next fence (an acquire fence after a
//! relaxed read) or `__syncthreads` (the guide's "last block" reduction reads the
//! partial sums after its ticket and a barrier, with no fence of its own). So a message
//! passed through a relaxed flag with no fence is a race, as the guide's
//! `__threadfence()` example explains. Volatile loads and stores are still taken as
//! acquire and release (spinning on a volatile flag, `cuda::barrier`'s wait): stronger
//! than CUDA asks, which can hide a race, never make one up. A `__syncthreads` joins the
//! clocks of the block's threads (all arrive before any passes, so each takes the joined
//! clock after it). A grid barrier (`grid.sync()`) orders every earlier write of the
//! launch: the shadow's launch number changes (`grid_barrier`), so earlier writes are of
//! "another launch". A race-free program's reads are all ordered after the writes they
//! may see whatever the schedule, so none is reported; the seeded race (a non-atomic
//! counter every block increments) involves no atomic and is found in any schedule.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// A multiplicative hash for the clocks' integer keys (no need for SipHash here).
#[derive(Default)]
pub struct IntHasher(u64);
impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ *b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
}
type IntMap<K, V> = HashMap<K, V, BuildHasherDefault<IntHasher>>;

/// Stamps are kept in 17 bits of a shadow cell; a thread that reaches the last one stays
/// there (its later writes look ordered after its later releases: a race may be missed,
/// none is made up).
pub const STAMP_MAX: u32 = (1 << 17) - 1;

fn thread_key(block: u32, tid: u32) -> u64 {
    (block as u64) << 16 | tid as u64
}

fn barrier_key(block: u32) -> u64 {
    1 << 63 | block as u64
}

/// What a thread knows of other threads' writes (entries are maxima; absent is none).
#[derive(Default, Clone)]
pub struct Clock(IntMap<u64, u32>);

impl Clock {
    fn raise(&mut self, key: u64, v: u32) {
        let e = self.0.entry(key).or_insert(v);
        *e = (*e).max(v);
    }
    fn join(&mut self, other: &Clock) {
        for (k, v) in &other.0 {
            self.raise(*k, *v);
        }
    }
    /// Whether the access of thread `tid` (of this block) stamped `stamp` is known.
    pub fn knows_thread(&self, block: u32, tid: u32, stamp: u32) -> bool {
        self.0.get(&thread_key(block, tid)).is_some_and(|&s| s >= stamp)
    }

    /// Whether the write of thread `tid` of block `block`, made in its block's barrier
    /// interval `epoch` (16 bits, as the shadow keeps it) with stamp `stamp`, is known.
    pub fn knows(&self, block: u32, tid: u32, epoch: u32, stamp: u32) -> bool {
        if self.0.is_empty() {
            return false;
        }
        if let Some(&e) = self.0.get(&barrier_key(block)) {
            // Past 16 bits the shadow's epoch has wrapped: take it as known.
            if e > 0xffff || e > epoch {
                return true;
            }
        }
        self.knows_thread(block, tid, stamp)
    }
}

/// A thread's part: its clock, and its own stamp.
#[derive(Default)]
pub struct ThreadSync {
    clock: Clock,
    /// Stamps its accesses (shared memory's, global memory's writes).
    stamp: u32,
    /// Its current stamp was published: its next access takes a new one.
    published: bool,
    /// The barrier interval of its last global write / shared access: only accesses of
    /// the current interval need its own entry (earlier ones are ordered by the barrier,
    /// for other blocks through the block's barrier entry), which keeps clocks small.
    global_epoch: Option<u32>,
    shared_epoch: Option<u32>,
    /// The barrier interval whose joined clock it has yet to take.
    pending: Option<u32>,
    /// What its relaxed atomics read since its last fence (taken at the next fence or
    /// barrier).
    observed: Clock,
    /// What its relaxed atomics release: its knowledge at its last fence, and its own
    /// stamp then (`true`: it covers a global write, not only shared accesses).
    fenced: Clock,
    fenced_own: Option<(u32, bool)>,
    /// Addresses it read atomically or volatile (launch, address, volatile), whose
    /// released clocks it takes at its next call here: the check runs before the access,
    /// so taking them at once could miss a release made between the two by another
    /// worker (the one the access then sees), and report its writes as races.
    reads: Vec<(u64, usize, bool)>,
}

/// A block's part: its threads', and the joined clocks of the barriers being passed.
#[derive(Default)]
pub struct BlockSync {
    threads: Vec<ThreadSync>,
    /// Barrier interval → (the joined clock of the threads that arrived, how many have
    /// yet to take it).
    at_barrier: IntMap<u64, (Clock, u32)>,
    /// The first barrier interval in which the block wrote global memory.
    first_write_epoch: Option<u32>,
}

impl BlockSync {
    /// For a block of `n` threads (each made at once: growing one by one cost more).
    pub fn with_threads(n: usize) -> BlockSync {
        let mut threads = Vec::new();
        threads.resize_with(n, ThreadSync::default);
        BlockSync { threads, ..BlockSync::default() }
    }

    fn thread(&mut self, tid: u32) -> &mut ThreadSync {
        let t = tid as usize;
        if self.threads.len() <= t {
            self.threads.resize_with(t + 1, ThreadSync::default);
        }
        &mut self.threads[t]
    }

    /// The thread takes what it read atomically (into what it observed) or volatile (into
    /// its clock) since its last call, and the clock of the barrier it passed last.
    fn settle(&mut self, tid: u32) {
        let t = self.thread(tid);
        if !t.reads.is_empty() {
            let reads = std::mem::take(&mut t.reads);
            if LIVE.load(Ordering::Acquire) != 0 {
                let vars = sync_vars();
                for (launch, addr, volatile) in reads {
                    if let Some(var) = vars.get(&(launch, addr)) {
                        if volatile {
                            t.clock.join(var);
                        } else {
                            t.observed.join(var);
                        }
                    }
                }
            }
        }
        self.settle_barrier(tid);
    }

    fn settle_barrier(&mut self, tid: u32) {
        let Some(e) = self.thread(tid).pending.take() else { return };
        let key = e as u64;
        let Some(entry) = self.at_barrier.get_mut(&key) else { return };
        self.threads[tid as usize].clock.join(&entry.0);
        entry.1 -= 1;
        if entry.1 == 0 {
            self.at_barrier.remove(&key);
        }
    }

    /// Thread `tid` arrives at the block's barrier ending interval `epoch`. Every thread
    /// takes part (one that knows nothing yet may learn from one that arrives later).
    pub fn barrier(&mut self, tid: u32, epoch: u32) {
        self.settle(tid);
        let t = &mut self.threads[tid as usize];
        // What its relaxed atomics read is known from here (see the module's comment).
        let observed = std::mem::take(&mut t.observed);
        t.clock.join(&observed);
        t.pending = Some(epoch);
        let (joined, left) = self.at_barrier.entry(epoch as u64).or_default();
        joined.join(&t.clock);
        *left += 1;
    }

    /// The clock of thread `tid`, up to date; `None` while it knows nothing.
    pub fn clock(&mut self, tid: u32) -> Option<&Clock> {
        self.settle(tid);
        let c = &self.thread(tid).clock;
        (!c.0.is_empty()).then_some(c)
    }

    /// Thread `tid` writes global memory (`global`) or accesses shared memory in barrier
    /// interval `epoch`: the stamp the access carries.
    pub fn stamp(&mut self, tid: u32, epoch: u32, global: bool) -> u32 {
        if global && self.first_write_epoch.is_none() {
            self.first_write_epoch = Some(epoch);
        }
        let t = self.thread(tid);
        if t.published {
            t.stamp = (t.stamp + 1).min(STAMP_MAX);
            t.published = false;
        }
        if global {
            t.global_epoch = Some(epoch);
        } else {
            t.shared_epoch = Some(epoch);
        }
        t.stamp
    }

    /// Thread `tid` of block `block`, in barrier interval `epoch`, reaches a fence: it
    /// takes what its relaxed atomics read (acquire), and its later atomics release what
    /// it knows now and its accesses so far (release).
    pub fn fence(&mut self, block: u32, tid: u32, epoch: u32) {
        self.settle(tid);
        let publish_barrier = self.first_write_epoch.is_some_and(|w| w < epoch);
        let t = &mut self.threads[tid as usize];
        let observed = std::mem::take(&mut t.observed);
        t.clock.join(&observed);
        t.fenced = t.clock.clone();
        if publish_barrier {
            t.fenced.raise(barrier_key(block), epoch);
        }
        let global = t.global_epoch == Some(epoch);
        t.fenced_own = (global || t.shared_epoch == Some(epoch)).then_some((t.stamp, global));
        if t.fenced_own.is_some() {
            t.published = true;
        }
    }

    /// Thread `tid` of block `block` makes a (relaxed) atomic read-modify-write on
    /// `addr`: it releases what it knew at its last fence, and what it reads waits for
    /// its next fence. `shared`: `addr` is in shared memory, where its own shared
    /// accesses count (elsewhere only its global writes).
    pub fn atomic(&mut self, launch: u64, addr: usize, block: u32, tid: u32, shared: bool) {
        self.settle(tid);
        let t = &mut self.threads[tid as usize];
        // What it reads is taken at its next call (`settle`), after the access.
        t.reads.push((launch, addr, false));
        let own = t.fenced_own.filter(|&(_, global)| global || shared);
        if t.fenced.0.is_empty() && own.is_none() {
            // Nothing to release (a histogram's atomics): no lock.
            return;
        }
        let mut vars = sync_vars();
        let var = vars.entry((launch, addr)).or_default();
        if var.0.is_empty() {
            LIVE.fetch_add(1, Ordering::AcqRel);
        }
        var.join(&t.fenced);
        if let Some((stamp, _)) = own {
            var.raise(thread_key(block, tid), stamp);
        }
    }

    /// Thread `tid` takes what was released on `addr` (a volatile read).
    /// (Taken at its next call, after the read itself.)
    pub fn acquire(&mut self, launch: u64, addr: usize, tid: u32) {
        self.settle(tid);
        self.threads[tid as usize].reads.push((launch, addr, true));
    }

    /// Thread `tid` of block `block`, in barrier interval `epoch`, releases on `addr`
    /// (a volatile write) what it knows, its own accesses, and its block's
    /// global writes before the barrier it passed last. `shared`: `addr` is in shared
    /// memory, which only the block's threads reach: its own shared accesses count
    /// only there.
    pub fn release(&mut self, launch: u64, addr: usize, block: u32, tid: u32, epoch: u32, shared: bool) {
        self.settle(tid);
        let publish_barrier = self.first_write_epoch.is_some_and(|w| w < epoch);
        let t = &mut self.threads[tid as usize];
        let publish_own = t.global_epoch == Some(epoch) || (shared && t.shared_epoch == Some(epoch));
        if t.clock.0.is_empty() && !publish_own && !publish_barrier {
            // Nothing to release (a histogram's atomics): no lock, no entry.
            return;
        }
        let mut vars = sync_vars();
        let var = vars.entry((launch, addr)).or_default();
        if var.0.is_empty() {
            LIVE.fetch_add(1, Ordering::AcqRel);
        }
        var.join(&t.clock);
        if publish_own {
            var.raise(thread_key(block, tid), t.stamp);
            t.published = true;
        }
        if publish_barrier {
            var.raise(barrier_key(block), epoch);
        }
    }
}

/// The clocks released on each address, per launch.
fn sync_vars() -> MutexGuard<'static, HashMap<(u64, usize), Clock>> {
    static V: OnceLock<Mutex<HashMap<(u64, usize), Clock>>> = OnceLock::new();
    V.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

/// Addresses whose released clock is not empty: while there are none, an acquire needs
/// no lock (a histogram's atomics release nothing).
static LIVE: AtomicU64 = AtomicU64::new(0);

/// The launch is over: what its atomics released is of no use.
pub fn launch_end(launch: u64) {
    let mut vars = sync_vars();
    let before = vars.len();
    vars.retain(|(l, _), _| *l != launch);
    LIVE.fetch_sub((before - vars.len()) as u64, Ordering::AcqRel);
    drop(vars);
    grid_generations().remove(&launch);
}

fn grid_generations() -> MutexGuard<'static, HashMap<u64, u32>> {
    static G: OnceLock<Mutex<HashMap<u64, u32>>> = OnceLock::new();
    G.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

/// The launch number global memory's shadow records for `launch` (changed at each grid
/// barrier it passes).
pub fn shadow_launch(launch: u64) -> u32 {
    grid_generations().get(&launch).copied().unwrap_or(launch as u32)
}

/// Every block of `launch` reached a grid barrier and is let go: every write made before
/// is ordered before every later access. `fresh` is a number no launch uses.
pub fn grid_barrier(launch: u64, fresh: u64) {
    grid_generations().insert(launch, fresh as u32);
}

#[cfg(test)]
mod tests {
    use super::*;

    const COUNTER: usize = 0x1000;

    #[test]
    fn a_fenced_atomic_orders_the_writes_before_the_fence_and_not_those_after() {
        let launch = 9_000_001;
        let (mut b0, mut b1) = (BlockSync::default(), BlockSync::default());
        // Block 0's thread 0 writes its partial sum, fences, then takes a ticket.
        let before = b0.stamp(0, 0, true);
        b0.fence(0, 0, 0);
        b0.atomic(launch, COUNTER, 0, 0, false);
        let after = b0.stamp(0, 0, true);
        assert!(after > before);
        // Block 1's thread 0 takes the next ticket and fences: it sees the first write only.
        b1.atomic(launch, COUNTER, 1, 0, false);
        assert!(b1.clock(0).is_none(), "a relaxed read orders nothing before a fence");
        b1.fence(1, 0, 0);
        let c = b1.clock(0).expect("learnt something");
        assert!(c.knows(0, 0, 0, before));
        assert!(!c.knows(0, 0, 0, after));
        launch_end(launch);
    }

    #[test]
    fn a_relaxed_atomic_without_a_fence_releases_nothing() {
        let launch = 9_000_004;
        let (mut b0, mut b1) = (BlockSync::default(), BlockSync::default());
        let w = b0.stamp(0, 0, true);
        b0.atomic(launch, COUNTER, 0, 0, false);
        b1.atomic(launch, COUNTER, 1, 0, false);
        b1.fence(1, 0, 0);
        assert!(b1.clock(0).is_none_or(|c| !c.knows(0, 0, 0, w)));
        launch_end(launch);
    }

    #[test]
    fn a_barrier_after_a_relaxed_ticket_acquires_it() {
        // The guide's "last block" reduction: the writer fences, the reader's ticket is
        // followed by `__syncthreads` only.
        let launch = 9_000_005;
        let (mut b0, mut b1) = (BlockSync::default(), BlockSync::default());
        let w = b0.stamp(0, 0, true);
        b0.fence(0, 0, 0);
        b0.atomic(launch, COUNTER, 0, 0, false);
        b1.atomic(launch, COUNTER, 1, 0, false);
        b1.barrier(0, 0);
        b1.barrier(1, 0);
        assert!(b1.clock(1).is_some_and(|c| c.knows(0, 0, 0, w)));
        launch_end(launch);
    }

    #[test]
    fn without_an_atomic_nothing_is_ordered() {
        let mut b1 = BlockSync::default();
        b1.stamp(0, 0, true);
        assert!(b1.clock(0).is_none());
    }

    #[test]
    fn a_barrier_passes_on_what_one_thread_learnt() {
        let launch = 9_000_002;
        let (mut b0, mut b1) = (BlockSync::default(), BlockSync::default());
        // Threads 0..3 of block 0 write in interval 0; after a barrier thread 0 releases:
        // all four writes are ordered by the block's barrier entry.
        let stamps: Vec<u32> = (0..4).map(|t| b0.stamp(t, 0, true)).collect();
        for t in 0..4 {
            b0.barrier(t, 0);
        }
        b0.acquire(launch, COUNTER, 0);
        b0.release(launch, COUNTER, 0, 0, 1, false);
        // Block 1's thread 0 acquires; thread 5 learns it at the next barrier, whichever
        // of them arrives first.
        b1.barrier(5, 0);
        b1.acquire(launch, COUNTER, 0);
        b1.barrier(0, 0);
        for t in 0..4 {
            assert!(b1.clock(5).is_some_and(|c| c.knows(0, t, 0, stamps[t as usize])), "thread {t}");
        }
        // A write block 0 makes after that barrier (interval 1) is not known.
        let late = b0.stamp(2, 1, true);
        assert!(!b1.clock(5).unwrap().knows(0, 2, 1, late));
        launch_end(launch);
    }

    #[test]
    fn shared_accesses_are_published_on_shared_words_only() {
        let launch = 9_000_003;
        let mut b = BlockSync::default();
        let s = b.stamp(3, 0, false);
        // A global atomic does not carry thread 3's shared access...
        b.release(launch, COUNTER, 0, 3, 0, false);
        b.acquire(launch, COUNTER, 7);
        assert!(b.clock(7).is_none_or(|c| !c.knows_thread(0, 3, s)));
        // ...a barrier word in shared memory does.
        b.release(launch, COUNTER + 8, 0, 3, 0, true);
        b.acquire(launch, COUNTER + 8, 7);
        assert!(b.clock(7).is_some_and(|c| c.knows_thread(0, 3, s)));
        launch_end(launch);
    }
}
