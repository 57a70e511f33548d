//! CUDA streams: each has its own queue (`queue.rs`), so work in different streams runs
//! concurrently. The legacy default stream synchronises with every blocking stream: work
//! submitted to it first waits for what the blocking streams hold, and work submitted to
//! a blocking stream first waits for what the legacy stream holds (`cudaStreamNonBlocking`
//! streams do neither). The per-thread default stream is a blocking stream of its thread.
//! A stream that is capturing (`graph::capture`) turns what is submitted into graph nodes.
//! A stream belongs to the device current when it was made (each device has its own
//! legacy and per-thread default streams); the legacy stream synchronises with its own
//! device's blocking streams only, and `cudaDeviceSynchronize` waits for one device.

use crate::error::{self, Result};
use crate::event::EventObj;
use crate::launch::PreparedLaunch;
pub use crate::queue::Queue;
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_int, c_void};
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
    /// The device it belongs to (`devices::current()` when it was made).
    pub device: c_int,
    queue: Arc<Queue>,
    /// The capture this stream takes part in, if any.
    pub capture: Mutex<Option<crate::graph::capture::StreamCapture>>,
}

pub const NON_BLOCKING: u32 = 1;

impl Stream {
    fn new(flags: u32, priority: i32, kind: Kind, device: c_int) -> Arc<Stream> {
        let queue = Queue::spawn(crate::context::execute_op);
        queue.set_priority(priority);
        let s = Arc::new(Stream { flags, priority, kind, device, queue, capture: Mutex::new(None) });
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
        let legacy = legacy_stream_of(self.device);
        if self.kind == Kind::Legacy {
            let waits: Vec<Op> = blocking_streams(self.device)
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
            for s in blocking_streams(self.device) {
                s.queue.wait_all();
            }
        } else if self.is_blocking() {
            legacy_stream_of(self.device).queue.wait_all();
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
        r.retain(|(_, q)| !q.is_idle());
        if !self.queue.is_idle() {
            r.push((self.device, self.queue.clone()));
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

fn blocking_streams(device: c_int) -> Vec<Arc<Stream>> {
    live_streams().into_iter().filter(|s| s.is_blocking() && s.device == device).collect()
}

/// Waits for all work in all streams of every device (the implicitly synchronising
/// calls such as cudaFree: devices share the machine's memory).
pub fn wait_all_streams() {
    wait_streams(|_| true);
}

/// Waits for all work in one device's streams (cudaDeviceSynchronize).
pub fn wait_device_streams(device: c_int) {
    wait_streams(|d| d == device);
}

fn wait_streams(of: impl Fn(c_int) -> bool) {
    for s in live_streams().into_iter().filter(|s| of(s.device)) {
        s.queue.wait_all();
    }
    // Destroyed streams finish their work in the background; CUDA waits for it too.
    let mine: Vec<Arc<Queue>> = {
        let mut r = retired().lock().unwrap_or_else(|p| p.into_inner());
        let (mine, others): (Vec<_>, Vec<_>) = r.drain(..).partition(|(d, _)| of(*d));
        *r = others;
        mine.into_iter().map(|(_, q)| q).collect()
    };
    for q in mine {
        q.wait_all();
    }
}

fn retired() -> &'static Mutex<Vec<(c_int, Arc<Queue>)>> {
    static R: OnceLock<Mutex<Vec<(c_int, Arc<Queue>)>>> = OnceLock::new();
    R.get_or_init(|| Mutex::new(Vec::new()))
}

struct Streams {
    live: HashMap<usize, Arc<Stream>>,
}

fn streams() -> std::sync::MutexGuard<'static, Streams> {
    static S: OnceLock<Mutex<Streams>> = OnceLock::new();
    S.get_or_init(|| Mutex::new(Streams { live: HashMap::new() })).lock().unwrap_or_else(|p| p.into_inner())
}

/// The current device's legacy default stream.
pub fn legacy_stream() -> &'static Arc<Stream> {
    legacy_stream_of(crate::devices::current())
}

pub fn legacy_stream_of(device: c_int) -> &'static Arc<Stream> {
    static D: [OnceLock<Arc<Stream>>; crate::devices::MAX_DEVICES] = [const { OnceLock::new() }; crate::devices::MAX_DEVICES];
    let d = (device.max(0) as usize).min(crate::devices::MAX_DEVICES - 1);
    D[d].get_or_init(|| Stream::new(0, 0, Kind::Legacy, d as c_int))
}

thread_local! {
    static PER_THREAD: RefCell<HashMap<c_int, Arc<Stream>>> = RefCell::new(HashMap::new());
}

/// This host thread's default stream on the current device (`cudaStreamPerThread`).
pub fn per_thread_stream() -> Arc<Stream> {
    let device = crate::devices::current();
    PER_THREAD
        .try_with(|p| p.borrow_mut().entry(device).or_insert_with(|| Stream::new(0, 0, Kind::PerThread, device)).clone())
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
    let s = Stream::new(flags, priority, Kind::Created, crate::devices::current());
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
