//! The worker pool of the CPU device: persistent workers (one fewer than the cores),
//! blocking when idle. A launch is run by the thread of the stream it was issued to,
//! which takes runs of blocks itself and asks the workers for help; several launches
//! (from different streams) may be under way at once, and each always has its own
//! thread, so a kernel that spins waiting for another never starves it. Every thread
//! that runs blocks has its own shared-memory and thread-slot buffers (64-byte aligned,
//! grown as needed, never reallocated per launch), an alternate signal stack and a large
//! stack for device recursion. A launch with one run of blocks wakes no worker.
//!
//! Hand-out (`Ranges`): the grid's linear block indices are cut into one contiguous range
//! per thread, the same ranges for the same grid every launch (as OpenMP's static
//! schedule), so that a worker touches the same data launch after launch; a thread that
//! has finished its own range takes runs from the others', lowest range first, through
//! the ranges' atomic cursors. Pick-up and completion take no shared lock on the hot
//! path: the launching thread hands the job to idle workers through their mailboxes and
//! wakes each by its own handle; a helper that finishes decrements the job's count of
//! helpers and wakes the launching thread only when it reaches zero. The pool's lock
//! guards the list of launches still wanting helpers, which a worker reads only when it
//! finds one there as it goes idle (stream priorities, several launches at once).

mod helpers;
mod ranges;
mod spin;
pub mod trace;

use crate::abi::{self, BlockRun, Dim3, FaultInfo, KernelEntry, Launch};
use helpers::Helpers;
use ranges::Ranges;
use std::alloc::Layout;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicPtr, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::Thread;

pub const WORKER_STACK: usize = 64 * 1024 * 1024;

/// One kernel launch as the pool executes it.
pub struct Job {
    pub entry: KernelEntry,
    pub launch: Launch,
    pub total_blocks: u64,
    pub chunk: u64,
    pub shared_bytes: usize,
    pub slot_bytes: usize,
    ranges: Ranges,
    abort: AtomicBool,
    /// Helpers still wanted and running, and whether the launching thread has stopped
    /// taking helpers.
    helpers: Helpers,
    /// The launching thread, woken by the last helper to finish.
    launcher: OnceLock<Thread>,
    fault: Mutex<Option<Fault>>,
    /// The priority of the stream that launched it (lower is more urgent, as in CUDA).
    pub priority: i32,
    /// Checking mode's identity of the launch (0: not checked; `sanitize`).
    pub check_id: u64,
    /// Cooperative launches: every block's own state across grid phases.
    grid: Option<GridPhases>,
    trace_id: std::sync::atomic::AtomicU32,
}

/// The per-block state of a cooperative launch, whose blocks may stop at grid barriers
/// (`grid.sync()`): each block has shared memory and thread slots of its own for the
/// whole launch, and the value it left in `grid_resume` (0: finished). The launch runs
/// in phases: every unfinished block runs until it finishes or stops at the next grid
/// barrier; the next phase starts when all have, so a grid of any size completes with
/// any number of workers. A block may also stop because all its threads wait for other
/// blocks (`GRID_YIELDED`: a device-scope barrier, a flag): such blocks run again,
/// round after round, before the blocks at a grid barrier are let go.
struct GridPhases {
    shared: *mut u8,
    slots: *mut u8,
    layout: Option<Layout>,
    shared_stride: usize,
    slot_stride: usize,
    resume: Vec<std::sync::atomic::AtomicU32>,
    /// Some block stopped at a grid barrier / for other blocks in this round.
    stopped: AtomicBool,
    yielded: AtomicBool,
    /// This round runs the blocks stopped at a grid barrier (every block has reached it).
    release: AtomicBool,
}

impl Drop for GridPhases {
    fn drop(&mut self) {
        if let Some(l) = self.layout {
            unsafe { std::alloc::dealloc(self.shared, l) };
        }
    }
}

thread_local! {
    /// The priority of the stream this thread is serving (0 elsewhere).
    static PRIORITY: std::cell::Cell<i32> = const { std::cell::Cell::new(0) };
}

/// Called by a stream's server thread before it runs one of the stream's operations.
pub fn set_current_priority(p: i32) {
    PRIORITY.with(|c| c.set(p));
}

// The raw pointers in `launch` point at the launch's argument copy, alive while the job runs.
unsafe impl Send for Job {}
unsafe impl Sync for Job {}

/// The first fault of a launch.
#[derive(Clone, Debug)]
pub struct Fault {
    pub cuda_error: i32,
    pub info: FaultInfo,
    pub message: Option<String>,
    /// The block being run when it happened, where known.
    pub block: Option<Dim3>,
    /// The thread's linear index within its block, where known.
    pub thread_linear: Option<u32>,
}

unsafe impl Send for Fault {}

impl Job {
    pub fn new(entry: KernelEntry, launch: Launch, shared_bytes: usize, slot_bytes: usize, workers: usize) -> Job {
        let total = launch.grid_dim.count();
        let runs_wanted = (workers as u64 * 4).max(1);
        let chunk = (total / runs_wanted).max(1);
        Job {
            entry,
            launch,
            total_blocks: total,
            chunk,
            shared_bytes,
            slot_bytes,
            ranges: Ranges::new(total, chunk, workers),
            abort: AtomicBool::new(false),
            helpers: Helpers::default(),
            launcher: OnceLock::new(),
            fault: Mutex::new(None),
            priority: PRIORITY.with(|c| c.get()),
            check_id: 0,
            grid: None,
            trace_id: u32::MAX.into(),
        }
    }

    /// A cooperative launch: one block per run, each with buffers of its own that live
    /// across grid phases (`GridPhases`). Fails when the host has no memory for them.
    pub fn new_cooperative(entry: KernelEntry, launch: Launch, shared_bytes: usize, slot_bytes: usize, workers: usize) -> Option<Job> {
        let mut job = Job::new(entry, launch, shared_bytes, slot_bytes, workers);
        let blocks = job.total_blocks as usize;
        let round = |n: usize| (n.max(1) + 63) & !63;
        let (shared_stride, slot_stride) = (round(shared_bytes), round(slot_bytes));
        let shared_total = shared_stride.checked_mul(blocks)?;
        let total = slot_stride.checked_mul(blocks)?.checked_add(shared_total)?;
        let layout = Layout::from_size_align(total.max(64), 64).ok()?;
        let base = unsafe { std::alloc::alloc(layout) };
        if base.is_null() {
            return None;
        }
        job.chunk = 1;
        job.ranges = Ranges::new(job.total_blocks, 1, workers);
        job.grid = Some(GridPhases {
            shared: base,
            slots: unsafe { base.add(shared_total) },
            layout: Some(layout),
            shared_stride,
            slot_stride,
            resume: (0..blocks).map(|_| std::sync::atomic::AtomicU32::new(0)).collect(),
            stopped: AtomicBool::new(false),
            yielded: AtomicBool::new(false),
            release: AtomicBool::new(false),
        });
        Some(job)
    }

    pub fn take_fault(&self) -> Option<Fault> {
        self.fault.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

struct AlignedBuf {
    ptr: *mut u8,
    cap: usize,
}

impl AlignedBuf {
    const fn new() -> Self {
        AlignedBuf { ptr: std::ptr::null_mut(), cap: 0 }
    }
    fn ensure(&mut self, n: usize) -> *mut u8 {
        if n > self.cap {
            let cap = n.next_power_of_two().max(4096);
            unsafe {
                if !self.ptr.is_null() {
                    std::alloc::dealloc(self.ptr, Layout::from_size_align_unchecked(self.cap, 64));
                }
                let p = std::alloc::alloc(Layout::from_size_align(cap, 64).expect("layout"));
                if p.is_null() {
                    self.cap = 0;
                    self.ptr = std::ptr::null_mut();
                    return std::ptr::null_mut();
                }
                self.ptr = p;
                self.cap = cap;
            }
        }
        if self.ptr.is_null() {
            // n == 0 and nothing allocated yet: still hand out a valid aligned pointer.
            return self.ensure(1);
        }
        self.ptr
    }
}

struct PoolState {
    /// Launches under way that have asked for helpers (until their launching thread
    /// closes them).
    jobs: Vec<Arc<Job>>,
}

impl PoolState {
    /// The job a free worker helps: the one of the most urgent stream priority among
    /// those that want help, the earliest launched among equals.
    fn most_urgent(&self) -> Option<Arc<Job>> {
        self.jobs.iter().filter(|j| j.helpers.wanted() > 0).min_by_key(|j| j.priority).cloned()
    }

    /// Publishes the most urgent waiting priority, which helpers of less urgent launches
    /// watch between runs of blocks, and which a worker going idle reads (`i32::MAX`:
    /// no launch wants help) — sequentially consistent with the idle set (`Pool::idle`).
    fn update_urgent(&self, pool: &Pool) {
        let p = self.most_urgent().map_or(i32::MAX, |j| j.priority);
        pool.urgent.store(p, Ordering::SeqCst);
    }

    /// Joins the most urgent launch that wants help, as a worker going idle.
    fn claim_most_urgent(&self, pool: &Pool) -> Option<Arc<Job>> {
        let job = self.most_urgent().filter(|j| j.helpers.claim());
        self.update_urgent(pool);
        job
    }
}

/// What the pool knows of one of its worker threads.
struct Worker {
    thread: OnceLock<Thread>,
    /// A job handed to this worker while it was idle (`Arc::into_raw`), taken by it.
    mailbox: AtomicPtr<Job>,
    /// The workers it wakes once it has taken its job (a tree of wake-ups, so that the
    /// launching thread makes two wake-up calls, not one per helper; `usize::MAX`: none).
    wakes: [std::sync::atomic::AtomicUsize; 2],
}

pub struct Pool {
    state: Mutex<PoolState>,
    /// Threads that run blocks: the workers plus the launching stream's thread.
    pub workers: usize,
    /// The most urgent priority of a launch waiting for helpers (`i32::MAX`: none).
    urgent: AtomicI32,
    helpers: Box<[Worker]>,
    /// Idle workers, one bit each, set by a worker before it sleeps, cleared by whoever
    /// takes it out (the worker itself, or a launching thread that hands it a job).
    idle: Box<[AtomicU64]>,
}

pub fn pool() -> &'static Pool {
    static POOL: OnceLock<&'static Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let n = std::env::var("CUPRITE_WORKERS")
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|&n| n > 0)
            .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
        let helpers = n.saturating_sub(1);
        let p: &'static Pool = Box::leak(Box::new(Pool {
            state: Mutex::new(PoolState { jobs: Vec::new() }),
            workers: n,
            urgent: AtomicI32::new(i32::MAX),
            helpers: (0..helpers)
                .map(|_| Worker {
                    thread: OnceLock::new(),
                    mailbox: AtomicPtr::new(std::ptr::null_mut()),
                    wakes: [usize::MAX.into(), usize::MAX.into()],
                })
                .collect(),
            idle: (0..helpers.div_ceil(64)).map(|_| AtomicU64::new(0)).collect(),
        }));
        for i in 0..helpers {
            let _ = std::thread::Builder::new()
                .name(format!("cuprite-worker-{i}"))
                .stack_size(WORKER_STACK)
                .spawn(move || worker_main(p, i));
        }
        trace::init();
        p
    })
}

impl Pool {
    fn set_idle(&self, i: usize) {
        self.idle[i / 64].fetch_or(1 << (i % 64), Ordering::SeqCst);
    }

    /// Takes worker `i` out of the idle set; false when someone else already has.
    fn unset_idle(&self, i: usize) -> bool {
        let bit = 1 << (i % 64);
        self.idle[i / 64].fetch_and(!bit, Ordering::SeqCst) & bit != 0
    }

    /// Takes some idle worker out of the idle set, the lowest first.
    fn take_idle(&self) -> Option<usize> {
        for (w, word) in self.idle.iter().enumerate() {
            let mut v = word.load(Ordering::SeqCst);
            while v != 0 {
                let bit = v & v.wrapping_neg();
                let prev = word.fetch_and(!bit, Ordering::SeqCst);
                if prev & bit != 0 {
                    return Some(w * 64 + bit.trailing_zeros() as usize);
                }
                v = prev & !bit;
            }
        }
        None
    }

    /// Wakes worker `i` (its mailbox is filled).
    fn wake(&self, i: usize) {
        if let Some(t) = self.helpers[i].thread.get() {
            t.unpark();
        }
    }
}

thread_local! {
    /// This thread's shared-memory and thread-slot buffers.
    static BUFFERS: RefCell<(AlignedBuf, AlignedBuf)> = const { RefCell::new((AlignedBuf::new(), AlignedBuf::new())) };
}

/// `home`: the range of blocks this thread starts on (`Ranges`).
/// `urgent`: for a helper, the pool's most urgent waiting priority; the helper leaves
/// between runs of blocks when a more urgent launch wants help (the launching thread
/// finishes its own launch).
fn run_job_here(job: &Job, home: usize, urgent: Option<&AtomicI32>) {
    let r = BUFFERS.try_with(|b| {
        let mut b = b.borrow_mut();
        let (shared, slots) = &mut *b;
        run_job(job, home, shared, slots, urgent);
    });
    if r.is_err() {
        run_job(job, home, &mut AlignedBuf::new(), &mut AlignedBuf::new(), urgent);
    }
}

fn worker_main(pool: &'static Pool, i: usize) {
    unsafe {
        abi::cuprite_guard_thread_init();
    }
    let me = &pool.helpers[i];
    let _ = me.thread.set(std::thread::current());
    trace::SLOT.with(|s| s.set(1 + i));
    loop {
        // Idle first, then look: a launching thread that published its wish for helpers
        // before this finds the bit set, or this sees its priority in `urgent` (both
        // sequentially consistent), so no launch waits for a sleeping worker.
        pool.set_idle(i);
        if pool.urgent.load(Ordering::SeqCst) != i32::MAX && pool.unset_idle(i) {
            let job = pool.state.lock().unwrap_or_else(|p| p.into_inner()).claim_most_urgent(pool);
            if let Some(job) = job {
                help(pool, i, &job);
            }
            continue;
        }
        // Idle (or just handed a job): wait for the mailbox.
        // Spinning first (`spin`): the next launch usually comes within microseconds.
        spin::until(spin::limit(pool.workers), || !me.mailbox.load(Ordering::Relaxed).is_null());
        let job = loop {
            let p = me.mailbox.swap(std::ptr::null_mut(), Ordering::Acquire);
            if !p.is_null() {
                break unsafe { Arc::from_raw(p as *const Job) };
            }
            std::thread::park();
        };
        trace::mark(job.trace_id.load(Ordering::Relaxed), 0);
        for w in &me.wakes {
            let w = w.swap(usize::MAX, Ordering::Relaxed);
            if w != usize::MAX {
                pool.wake(w);
            }
        }
        help(pool, i, &job);
    }
}

/// Runs blocks of a job this worker has joined (counted in its `helpers`), starting on
/// its own range; the last helper to finish after the launching thread closed the job
/// wakes that thread.
fn help(pool: &Pool, i: usize, job: &Job) {
    run_job_here(job, job.ranges.home_of_worker(i), Some(&pool.urgent));
    trace::mark(job.trace_id.load(Ordering::Relaxed), 3);
    if job.helpers.finish() {
        if let Some(t) = job.launcher.get() {
            t.unpark();
        }
    }
}

fn linear_to_block(linear: u64, grid: Dim3) -> Dim3 {
    let gx = grid.x.max(1) as u64;
    let gy = grid.y.max(1) as u64;
    Dim3 { x: (linear % gx) as u32, y: ((linear / gx) % gy) as u32, z: (linear / (gx * gy)) as u32 }
}

fn run_job(job: &Job, home: usize, shared: &mut AlignedBuf, slots: &mut AlignedBuf, urgent: Option<&AtomicI32>) {
    let shared_ptr = shared.ensure(job.shared_bytes);
    let slots_ptr = slots.ensure(job.slot_bytes);
    if shared_ptr.is_null() || slots_ptr.is_null() {
        record_fault(
            job,
            Fault {
                cuda_error: crate::error::LAUNCH_OUT_OF_RESOURCES,
                info: FaultInfo::default(),
                message: Some("out of host memory for shared memory".into()),
                block: None,
                thread_linear: None,
            },
        );
        return;
    }
    const UNKNOWN: u32 = u32::MAX;
    crate::sanitize::enter_run(crate::sanitize::RunContext {
        launch: job.check_id,
        shared: shared_ptr as usize,
        shared_bytes: job.shared_bytes,
        slots: slots_ptr as usize,
        slot_bytes: job.slot_bytes,
        block_dim: job.launch.block_dim,
        grid_dim: job.launch.grid_dim,
    });
    loop {
        if job.abort.load(Ordering::Relaxed) {
            break;
        }
        if urgent.is_some_and(|u| u.load(Ordering::Relaxed) < job.priority) {
            break;
        }
        let Some((first, end)) = job.ranges.take(home) else {
            break;
        };
        let mut run = BlockRun {
            launch: &job.launch,
            first_block: first,
            end_block: end,
            shared: shared_ptr as *mut _,
            thread_slots: slots_ptr as *mut _,
            fault_block: Dim3 { x: UNKNOWN, y: UNKNOWN, z: UNKNOWN },
            fault_thread_linear: UNKNOWN,
            grid_resume: 0,
        };
        if let Some(g) = &job.grid {
            // One block, with its own buffers; a finished block sits out later phases.
            let b = first as usize;
            run.grid_resume = g.resume[b].load(Ordering::Relaxed);
            let at_grid_barrier = run.grid_resume != 0 && run.grid_resume & GRID_YIELDED == 0;
            if run.grid_resume == GRID_DONE || at_grid_barrier != g.release.load(Ordering::Relaxed) {
                continue;
            }
            run.shared = unsafe { g.shared.add(b * g.shared_stride) } as *mut _;
            run.thread_slots = unsafe { g.slots.add(b * g.slot_stride) } as *mut _;
            // Checking mode knows shared memory and slots by address: these are the block's.
            crate::sanitize::enter_run(crate::sanitize::RunContext {
                launch: job.check_id,
                shared: run.shared as usize,
                shared_bytes: job.shared_bytes,
                slots: run.thread_slots as usize,
                slot_bytes: job.slot_bytes,
                block_dim: job.launch.block_dim,
                grid_dim: job.launch.grid_dim,
            });
        }
        let tid = job.trace_id.load(Ordering::Relaxed);
        trace::mark_first(tid, 1);
        let rc = unsafe { abi::cuprite_guarded_run(job.entry, &mut run) };
        trace::mark(tid, 2);
        trace::add(tid, 4, end - first);
        if let Some(g) = &job.grid {
            let r = if run.grid_resume == 0 { GRID_DONE } else { run.grid_resume };
            crate::sanitize::block_stopped(job.check_id, r == GRID_DONE);
            g.resume[first as usize].store(r, Ordering::Relaxed);
            if r & GRID_YIELDED != 0 && r != GRID_DONE {
                g.yielded.store(true, Ordering::Relaxed);
            } else if r != GRID_DONE {
                g.stopped.store(true, Ordering::Relaxed);
            }
        }
        if rc != 0 {
            let mut info = FaultInfo::default();
            unsafe { abi::cuprite_guard_last_fault(&mut info) };
            let message = if info.message.is_null() {
                None
            } else {
                Some(unsafe { std::ffi::CStr::from_ptr(info.message) }.to_string_lossy().into_owned())
            };
            let block = if run.fault_block.x != UNKNOWN {
                Some(run.fault_block)
            } else if end - first == 1 {
                Some(linear_to_block(first, job.launch.grid_dim))
            } else {
                None
            };
            let thread_linear = if run.fault_thread_linear != UNKNOWN { Some(run.fault_thread_linear) } else { None };
            record_fault(job, Fault { cuda_error: rc, info, message, block, thread_linear });
            break;
        }
    }
    crate::sanitize::leave_run(job.check_id);
}

/// `GridPhases::resume` of a block that has finished.
const GRID_DONE: u32 = u32::MAX;
/// The bit a block sets in `grid_resume` when it stopped waiting for other blocks
/// (`__CU_GRID_YIELDED` in the back-end's prelude).
const GRID_YIELDED: u32 = 0x8000_0000;

fn record_fault(job: &Job, f: Fault) {
    job.abort.store(true, Ordering::Relaxed);
    let mut slot = job.fault.lock().unwrap_or_else(|p| p.into_inner());
    if slot.is_none() {
        *slot = Some(f);
    }
}

impl Pool {
    /// Runs a job to completion on the calling thread, with the workers' help; a
    /// cooperative launch phase after phase, until no block stops at a grid barrier.
    pub fn run(&self, job: Arc<Job>) {
        let Some(g) = &job.grid else {
            return self.run_phase(job);
        };
        // Round after round: the blocks that have not reached a grid barrier (at first
        // all), then, once none is left, those at the barrier. The workers' writes of a
        // round are seen by the next: `run_phase` waited for them (`Helpers::finish`
        // releases, `Helpers::running` acquires).
        let mut at_barrier = false;
        loop {
            g.stopped.store(false, Ordering::Relaxed);
            g.yielded.store(false, Ordering::Relaxed);
            job.ranges.reset();
            self.run_phase(job.clone());
            if job.abort.load(Ordering::Relaxed) {
                return;
            }
            at_barrier |= g.stopped.load(Ordering::Relaxed);
            let yielded = g.yielded.load(Ordering::Relaxed);
            if !yielded && !at_barrier {
                return;
            }
            // Let the grid barrier go only when no block still runs towards it.
            g.release.store(!yielded, Ordering::Relaxed);
            if !yielded && at_barrier {
                crate::sanitize::grid_barrier_released(job.check_id);
            }
            if !yielded {
                at_barrier = false;
            }
        }
    }

    fn run_phase(&self, job: Arc<Job>) {
        if job.total_blocks == 0 {
            return;
        }
        let tid = trace::begin();
        job.trace_id.store(tid, Ordering::Relaxed);
        trace::mark(tid, 0);
        let helpers = (job.ranges.len() - 1).min(self.workers.saturating_sub(1));
        let given = if helpers > 0 { self.hand_out(&job, helpers) } else { Vec::new() };
        trace::mark(tid, 3);
        run_job_here(&job, 0, None);
        if helpers > 0 {
            let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
            job.helpers.close();
            st.jobs.retain(|j| !Arc::ptr_eq(j, &job));
            st.update_urgent(self);
            drop(st);
            // A worker handed the job that has not taken it yet (still asleep while this
            // thread ran every block) is taken back, not waited for; it is idle again
            // (without looking for another launch that wants help: it is found by the
            // next hand-out, docs/PERFORMANCE.md "the launch path on 16 cores").
            let mine = Arc::as_ptr(&job) as *mut Job;
            for &w in &given {
                let mailbox = &self.helpers[w].mailbox;
                if mailbox.compare_exchange(mine, std::ptr::null_mut(), Ordering::AcqRel, Ordering::Acquire).is_ok() {
                    drop(unsafe { Arc::from_raw(mine as *const Job) });
                    job.helpers.finish();
                    self.set_idle(w);
                }
            }
            // Woken by the last helper to finish (`help`); a wake-up left over from
            // elsewhere only makes it look again.
            spin::until(spin::limit(self.workers), || job.helpers.running() == 0);
            while job.helpers.running() > 0 {
                std::thread::park();
            }
        }
        trace::mark(tid, 5);
    }

    /// Asks for `helpers` workers: idle ones get the job in their mailbox at once, the
    /// rest is left in the pool's list for workers as they become free. Returns the
    /// workers handed the job.
    fn hand_out(&self, job: &Arc<Job>, helpers: usize) -> Vec<usize> {
        let _ = job.launcher.set(std::thread::current());
        job.helpers.open(helpers);
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        st.jobs.push(job.clone());
        st.update_urgent(self);
        let mut given: Vec<usize> = Vec::with_capacity(helpers);
        while job.helpers.wanted() > 0 {
            let Some(w) = self.take_idle() else { break };
            if !job.helpers.claim() {
                self.set_idle(w);
                break;
            }
            given.push(w);
        }
        st.update_urgent(self);
        drop(st);
        // Worker p of `given` wakes 2p+2 and 2p+3; this thread wakes 0 and 1. Filled
        // children first: a worker that wakes early (spuriously) and takes its job finds
        // its children's mailboxes already filled, so none of them sleeps through it.
        for (p, &w) in given.iter().enumerate().rev() {
            for (c, slot) in self.helpers[w].wakes.iter().enumerate() {
                slot.store(given.get(2 * p + 2 + c).copied().unwrap_or(usize::MAX), Ordering::Relaxed);
            }
            let old = self.helpers[w].mailbox.swap(Arc::into_raw(job.clone()) as *mut Job, Ordering::Release);
            debug_assert!(old.is_null(), "an idle worker's mailbox is empty");
        }
        for &w in given.iter().take(2) {
            self.wake(w);
        }
        given
    }
}

#[cfg(test)]
mod priority_tests {
    use super::*;

    fn job(priority: i32, wanted: usize) -> Arc<Job> {
        set_current_priority(priority);
        let launch = Launch { grid_dim: Dim3 { x: 8, y: 1, z: 1 }, block_dim: Dim3 { x: 1, y: 1, z: 1 }, args: std::ptr::null(), dynamic_shared_bytes: 0, cooperative: 0 };
        unsafe extern "C" fn nothing(_: *mut BlockRun) {}
        let j = Job::new(nothing as KernelEntry, launch, 0, 0, 4);
        j.helpers.open(wanted);
        set_current_priority(0);
        Arc::new(j)
    }

    #[test]
    fn workers_help_the_most_urgent_stream_first() {
        let st = PoolState { jobs: vec![job(0, 2), job(-3, 1), job(-5, 0), job(-3, 2)] };
        let j = st.most_urgent().unwrap();
        assert_eq!(j.priority, -3);
        assert!(Arc::ptr_eq(&j, &st.jobs[1]), "the earliest of equal priority");
        let st = PoolState { jobs: vec![job(0, 0)] };
        assert!(st.most_urgent().is_none());
    }
}

#[cfg(test)]
mod pool_tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    /// Counts each block it runs in the array its one argument points at.
    unsafe extern "C" fn count_blocks(run: *mut BlockRun) {
        let run = &*run;
        let counts = *((*run.launch).args as *const *const AtomicU32);
        for b in run.first_block..run.end_block {
            (*counts.add(b as usize)).fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn concurrent_launches_run_every_block_once() {
        let pool = pool();
        std::thread::scope(|s| {
            for t in 0..4i32 {
                s.spawn(move || {
                    set_current_priority(-(t % 3));
                    for i in 0..150u32 {
                        let blocks = 1 + (i * 37 + t as u32 * 11) % 300;
                        let counts: Vec<AtomicU32> = (0..blocks).map(|_| AtomicU32::new(0)).collect();
                        let arg = counts.as_ptr() as *mut std::ffi::c_void;
                        let launch = Launch {
                            grid_dim: Dim3 { x: blocks, y: 1, z: 1 },
                            block_dim: Dim3 { x: 1, y: 1, z: 1 },
                            args: &arg,
                            dynamic_shared_bytes: 0,
                            cooperative: 0,
                        };
                        let job = Arc::new(Job::new(count_blocks as KernelEntry, launch, 0, 0, pool.workers));
                        pool.run(job.clone());
                        assert!(job.take_fault().is_none());
                        assert!(counts.iter().all(|c| c.load(Ordering::Relaxed) == 1), "{blocks} blocks, launch {i} of thread {t}");
                    }
                    set_current_priority(0);
                });
            }
        });
    }
}
