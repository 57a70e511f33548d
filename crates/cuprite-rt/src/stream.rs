//! Streams: ordered queues of device work served by their own thread.
//!
//! For now every stream maps onto one ordered queue (the legacy default stream's), which
//! is a valid schedule of CUDA's semantics; `Stream` objects are real (flags, priority,
//! their own completion point), so giving each its own queue later changes only this file.

use crate::error::{self, Result};
use crate::event::EventObj;
use crate::launch::PreparedLaunch;
use std::collections::{HashMap, VecDeque};
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};

#[derive(Clone, Copy)]
pub struct SendPtr(pub *mut c_void);
unsafe impl Send for SendPtr {}

pub enum Op {
    Launch(Box<PreparedLaunch>),
    Copy { dst: SendPtr, src: SendPtr, n: usize },
    Copy2D { dst: SendPtr, dpitch: usize, src: SendPtr, spitch: usize, width: usize, height: usize },
    Set { dst: SendPtr, value: i32, n: usize },
    Set2D { dst: SendPtr, pitch: usize, value: i32, width: usize, height: usize },
    RecordEvent(Arc<EventObj>, u64),
    Host(Box<dyn FnOnce() + Send>),
}

struct QState {
    ops: VecDeque<(u64, Op)>,
    submitted: u64,
    completed: u64,
}

pub struct Queue {
    st: Mutex<QState>,
    work: Condvar,
    done: Condvar,
}

impl Queue {
    /// Creates a queue and the thread that serves it; `exec` runs each operation.
    pub fn spawn(name: &str, exec: fn(Op)) -> Arc<Queue> {
        let q = Arc::new(Queue {
            st: Mutex::new(QState { ops: VecDeque::new(), submitted: 0, completed: 0 }),
            work: Condvar::new(),
            done: Condvar::new(),
        });
        let q2 = q.clone();
        let _ = std::thread::Builder::new()
            .name(name.to_string())
            .stack_size(crate::workers::WORKER_STACK)
            .spawn(move || {
                unsafe { crate::abi::cuprite_guard_thread_init() };
                q2.serve(exec)
            });
        q
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QState> {
        self.st.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn serve(&self, exec: fn(Op)) {
        loop {
            let (seq, op) = {
                let mut st = self.lock();
                loop {
                    if let Some(x) = st.ops.pop_front() {
                        break x;
                    }
                    st = self.work.wait(st).unwrap_or_else(|p| p.into_inner());
                }
            };
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| exec(op)));
            let mut st = self.lock();
            st.completed = seq;
            self.done.notify_all();
        }
    }

    /// Enqueues an operation; returns its sequence number.
    pub fn submit(&self, op: Op) -> u64 {
        self.submit_with(move |_| op)
    }

    /// Enqueues the operation `make(seq)` builds from its own sequence number.
    pub fn submit_with(&self, make: impl FnOnce(u64) -> Op) -> u64 {
        let mut st = self.lock();
        st.submitted += 1;
        let seq = st.submitted;
        st.ops.push_back((seq, make(seq)));
        self.work.notify_one();
        seq
    }

    pub fn submitted(&self) -> u64 {
        self.lock().submitted
    }

    pub fn completed(&self) -> u64 {
        self.lock().completed
    }

    pub fn is_idle(&self) -> bool {
        let st = self.lock();
        st.completed == st.submitted
    }

    /// Blocks until operation `seq` (and all before it) completed.
    pub fn wait(&self, seq: u64) {
        let mut st = self.lock();
        while st.completed < seq {
            st = self.done.wait(st).unwrap_or_else(|p| p.into_inner());
        }
    }

    pub fn wait_all(&self) {
        let seq = self.submitted();
        self.wait(seq);
    }
}

/// A CUDA stream.
pub struct Stream {
    pub flags: u32,
    pub priority: i32,
    queue: Arc<Queue>,
    last: AtomicU64,
}

impl Stream {
    pub fn submit(&self, op: Op) -> u64 {
        self.submit_with(move |_| op)
    }
    pub fn submit_with(&self, make: impl FnOnce(u64) -> Op) -> u64 {
        let seq = self.queue.submit_with(make);
        self.last.fetch_max(seq, Ordering::AcqRel);
        seq
    }
    pub fn synchronize(&self) {
        // One queue for all streams: the legacy default stream also waits for the others.
        let seq = if self.is_default() { self.queue.submitted() } else { self.last.load(Ordering::Acquire) };
        self.queue.wait(seq);
    }
    pub fn is_done(&self) -> bool {
        let seq = if self.is_default() { self.queue.submitted() } else { self.last.load(Ordering::Acquire) };
        self.queue.completed() >= seq
    }
    pub fn queue(&self) -> &Arc<Queue> {
        &self.queue
    }
    fn is_default(&self) -> bool {
        std::ptr::eq(self, default_stream().as_ref())
    }
}

struct Streams {
    live: HashMap<usize, Arc<Stream>>,
}

fn streams() -> std::sync::MutexGuard<'static, Streams> {
    static S: OnceLock<Mutex<Streams>> = OnceLock::new();
    S.get_or_init(|| Mutex::new(Streams { live: HashMap::new() })).lock().unwrap_or_else(|p| p.into_inner())
}

pub fn default_stream() -> &'static Arc<Stream> {
    static D: OnceLock<Arc<Stream>> = OnceLock::new();
    D.get_or_init(|| {
        Arc::new(Stream { flags: 0, priority: 0, queue: crate::context::ctx().queue.clone(), last: AtomicU64::new(0) })
    })
}

/// cudaStreamCreate*: a new stream's handle.
pub fn create(flags: u32, priority: i32) -> *mut c_void {
    let s = Arc::new(Stream {
        flags,
        priority,
        queue: crate::context::ctx().queue.clone(),
        last: AtomicU64::new(0),
    });
    let handle = Arc::as_ptr(&s) as *mut c_void;
    streams().live.insert(handle as usize, s);
    handle
}

/// A stream handle to its stream: 0, cudaStreamLegacy and cudaStreamPerThread are the
/// default stream; others must be live.
pub fn resolve(handle: *mut c_void) -> Result<Arc<Stream>> {
    match handle as usize {
        0 | 1 | 2 => Ok(default_stream().clone()),
        h => streams().live.get(&h).cloned().ok_or(error::INVALID_RESOURCE_HANDLE),
    }
}

pub fn destroy(handle: *mut c_void) -> Result<()> {
    match handle as usize {
        0 | 1 | 2 => Err(error::INVALID_RESOURCE_HANDLE),
        h => streams().live.remove(&h).map(|_| ()).ok_or(error::INVALID_RESOURCE_HANDLE),
    }
}
