//! CUDA streams: each has its own queue (`queue.rs`), so work in different streams runs
//! concurrently. The legacy default stream synchronises with every blocking stream: work
//! submitted to it first waits for what the blocking streams hold, and work submitted to
//! a blocking stream first waits for what the legacy stream holds (`cudaStreamNonBlocking`
//! streams do neither). The per-thread default stream is a blocking stream of its thread.
//! A stream that is capturing (`graph::capture`) turns what is submitted into graph nodes.

use crate::error::{self, Result};
use crate::event::EventObj;
use crate::launch::PreparedLaunch;
pub use crate::queue::Queue;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

#[derive(Clone, Copy, Debug)]
pub struct SendPtr(pub *mut c_void);
unsafe impl Send for SendPtr {}
unsafe impl Sync for SendPtr {}

pub type HostFn = unsafe extern "C" fn(*mut c_void);

pub enum Op {
    Launch(Box<PreparedLaunch>),
    Copy { dst: SendPtr, src: SendPtr, n: usize },
    Copy2D { dst: SendPtr, dpitch: usize, src: SendPtr, spitch: usize, width: usize, height: usize },
    Set { dst: SendPtr, value: i32, n: usize },
    Set2D { dst: SendPtr, pitch: usize, value: i32, width: usize, height: usize },
    /// Element-sized memset (graph memset nodes with 2- or 4-byte elements).
    SetElems { dst: SendPtr, pitch: usize, value: u32, elem: usize, width: usize, height: usize },
    RecordEvent(Arc<EventObj>, u64),
    /// Waits until the event's record number `.1` completed.
    WaitEvent(Arc<EventObj>, u64),
    /// Waits until another queue completed operation `.1`.
    WaitQueue(Arc<Queue>, u64),
    Host(Box<dyn FnOnce() + Send>),
    HostFn { f: HostFn, data: SendPtr },
    /// One launch of an instantiated graph.
    Graph(Arc<crate::graph::exec::Launch>),
    /// cudaFreeAsync reached in stream order.
    Free(SendPtr),
}

/// Which of CUDA's streams this is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Legacy,
    PerThread,
    Created,
}

/// A CUDA stream.
pub struct Stream {
    pub flags: u32,
    pub priority: i32,
    pub kind: Kind,
    queue: Arc<Queue>,
    /// The capture this stream takes part in, if any.
    pub capture: Mutex<Option<crate::graph::capture::StreamCapture>>,
}

pub const NON_BLOCKING: u32 = 1;

impl Stream {
    fn new(flags: u32, priority: i32, kind: Kind) -> Arc<Stream> {
        let queue = Queue::spawn(crate::context::execute_op);
        queue.set_priority(priority);
        let s = Arc::new(Stream { flags, priority, kind, queue, capture: Mutex::new(None) });
        all_streams().lock().unwrap_or_else(|p| p.into_inner()).push(Arc::downgrade(&s));
        s
    }

    /// Whether this stream synchronises with the legacy default stream.
    pub fn is_blocking(&self) -> bool {
        self.kind != Kind::Legacy && self.flags & NON_BLOCKING == 0
    }

    pub fn is_capturing(&self) -> bool {
        self.capture.lock().unwrap_or_else(|p| p.into_inner()).is_some()
    }

    /// Enqueues an operation (or, while capturing, adds it to the capture's graph).
    pub fn submit(&self, op: Op) -> u64 {
        self.submit_with(move |_| op)
    }

    pub fn submit_with(&self, make: impl FnOnce(u64) -> Op) -> u64 {
        if self.is_capturing() {
            crate::graph::capture::add_op(self, make(0));
            return 0;
        }
        self.order_after_others();
        self.queue.submit_with(make)
    }

    /// Enqueues several operations at once (a graph launch).
    pub fn submit_many(&self, ops: Vec<Op>) -> u64 {
        self.order_after_others();
        self.queue.submit_many(ops)
    }

    /// The implicit synchronisation of the legacy default stream with blocking streams.
    fn order_after_others(&self) {
        let legacy = legacy_stream();
        if self.kind == Kind::Legacy {
            let waits: Vec<Op> = blocking_streams()
                .into_iter()
                .filter(|s| !s.queue.is_idle())
                .map(|s| Op::WaitQueue(s.queue.clone(), s.queue.submitted()))
                .collect();
            if !waits.is_empty() {
                self.queue.submit_many(waits);
            }
        } else if self.is_blocking() && !legacy.queue.is_idle() {
            let seq = legacy.queue.submitted();
            self.queue.submit(Op::WaitQueue(legacy.queue.clone(), seq));
        }
    }

    /// Waits for all work submitted so far (cudaStreamSynchronize).
    pub fn synchronize(&self) {
        self.queue.wait_all();
    }

    /// Waits as a synchronous call on this stream does: the legacy stream also waits for
    /// the blocking streams' work.
    pub fn synchronize_implicit(&self) {
        if self.kind == Kind::Legacy {
            for s in blocking_streams() {
                s.queue.wait_all();
            }
        } else if self.is_blocking() {
            legacy_stream().queue.wait_all();
        }
        self.queue.wait_all();
    }

    pub fn is_done(&self) -> bool {
        self.queue.is_idle()
    }

    pub fn queue(&self) -> &Arc<Queue> {
        &self.queue
    }
}

impl Drop for Stream {
    /// A destroyed stream (or the per-thread stream of a thread that ended) finishes its
    /// work in the background; device-wide synchronisation still waits for it.
    fn drop(&mut self) {
        let mut r = retired().lock().unwrap_or_else(|p| p.into_inner());
        r.retain(|q| !q.is_idle());
        if !self.queue.is_idle() {
            r.push(self.queue.clone());
        }
        self.queue.close();
    }
}

fn all_streams() -> &'static Mutex<Vec<Weak<Stream>>> {
    static ALL: OnceLock<Mutex<Vec<Weak<Stream>>>> = OnceLock::new();
    ALL.get_or_init(|| Mutex::new(Vec::new()))
}

/// Every live stream (created, per-thread and legacy).
pub fn live_streams() -> Vec<Arc<Stream>> {
    let mut all = all_streams().lock().unwrap_or_else(|p| p.into_inner());
    all.retain(|w| w.strong_count() > 0);
    all.iter().filter_map(|w| w.upgrade()).collect()
}

fn blocking_streams() -> Vec<Arc<Stream>> {
    live_streams().into_iter().filter(|s| s.is_blocking()).collect()
}

/// Waits for all work in all streams (cudaDeviceSynchronize and the implicitly
/// synchronising calls such as cudaFree).
pub fn wait_all_streams() {
    for s in live_streams() {
        s.queue.wait_all();
    }
    // Destroyed streams finish their work in the background; CUDA waits for it too.
    let retired: Vec<Arc<Queue>> = retired().lock().unwrap_or_else(|p| p.into_inner()).drain(..).collect();
    for q in retired {
        q.wait_all();
    }
}

fn retired() -> &'static Mutex<Vec<Arc<Queue>>> {
    static R: OnceLock<Mutex<Vec<Arc<Queue>>>> = OnceLock::new();
    R.get_or_init(|| Mutex::new(Vec::new()))
}

struct Streams {
    live: HashMap<usize, Arc<Stream>>,
}

fn streams() -> std::sync::MutexGuard<'static, Streams> {
    static S: OnceLock<Mutex<Streams>> = OnceLock::new();
    S.get_or_init(|| Mutex::new(Streams { live: HashMap::new() })).lock().unwrap_or_else(|p| p.into_inner())
}

pub fn legacy_stream() -> &'static Arc<Stream> {
    static D: OnceLock<Arc<Stream>> = OnceLock::new();
    D.get_or_init(|| Stream::new(0, 0, Kind::Legacy))
}

thread_local! {
    static PER_THREAD: RefCell<Option<Arc<Stream>>> = const { RefCell::new(None) };
}

/// This host thread's default stream (`cudaStreamPerThread`).
pub fn per_thread_stream() -> Arc<Stream> {
    PER_THREAD
        .try_with(|p| p.borrow_mut().get_or_insert_with(|| Stream::new(0, 0, Kind::PerThread)).clone())
        .unwrap_or_else(|_| legacy_stream().clone())
}

/// Set when a translation unit was compiled with `--default-stream per-thread`: then the
/// handle 0 names the per-thread stream (process-wide on Cuprite, per unit in CUDA).
static PER_THREAD_DEFAULT: AtomicBool = AtomicBool::new(false);

#[no_mangle]
pub extern "C" fn __cuprite_use_per_thread_default_stream() -> i32 {
    PER_THREAD_DEFAULT.store(true, Ordering::Relaxed);
    0
}

/// The stream handle 0 stands for.
pub fn default_stream() -> Arc<Stream> {
    if PER_THREAD_DEFAULT.load(Ordering::Relaxed) {
        per_thread_stream()
    } else {
        legacy_stream().clone()
    }
}

/// cudaStreamCreate*: a new stream's handle.
pub fn create(flags: u32, priority: i32) -> *mut c_void {
    let s = Stream::new(flags, priority, Kind::Created);
    let handle = Arc::as_ptr(&s) as *mut c_void;
    streams().live.insert(handle as usize, s);
    handle
}

/// A stream handle to its stream: 0 is the default stream, cudaStreamLegacy (1) and
/// cudaStreamPerThread (2) name theirs; others must be live.
pub fn resolve(handle: *mut c_void) -> Result<Arc<Stream>> {
    match handle as usize {
        0 => Ok(default_stream()),
        1 => Ok(legacy_stream().clone()),
        2 => Ok(per_thread_stream()),
        h => streams().live.get(&h).cloned().ok_or(error::INVALID_RESOURCE_HANDLE),
    }
}

/// The handle CUDA would report for a stream (cudaStreamGetId and capture queries).
pub fn handle_of(s: &Stream) -> *mut c_void {
    match s.kind {
        Kind::Legacy => 1 as *mut c_void,
        Kind::PerThread => 2 as *mut c_void,
        Kind::Created => s as *const Stream as *mut c_void,
    }
}

pub fn destroy(handle: *mut c_void) -> Result<()> {
    match handle as usize {
        0..=2 => Err(error::INVALID_RESOURCE_HANDLE),
        h => {
            // Work already queued still runs (`Drop for Stream`).
            streams().live.remove(&h).map(|_| ()).ok_or(error::INVALID_RESOURCE_HANDLE)
        }
    }
}
