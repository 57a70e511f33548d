//! Stream capture: while a stream captures, what is submitted to it becomes graph nodes
//! instead of work. A capture sequence starts in one stream (its origin); other streams
//! join it by waiting on an event recorded in a capturing stream (a fork) and must be
//! joined back into the origin before the capture ends. Each capturing stream keeps the
//! set of nodes its next node will depend on.

use super::{GraphObj, Memcpy, Memset, NodeKind};
use crate::api::memory::{Extent, Memcpy3DParms, PitchedPtr, Pos};
use crate::error::{self, Result};
use crate::stream::{Op, SendPtr, Stream};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::thread::ThreadId;

pub const MODE_GLOBAL: i32 = 0;
pub const MODE_THREAD_LOCAL: i32 = 1;
pub const MODE_RELAXED: i32 = 2;

pub struct CaptureSeq {
    pub id: u64,
    pub graph: Arc<GraphObj>,
    pub mode: i32,
    pub thread: ThreadId,
    pub invalid: bool,
    /// The stream that began it.
    pub origin: usize,
    pub members: Vec<Weak<Stream>>,
}

pub type Seq = Arc<Mutex<CaptureSeq>>;

pub fn lock(s: &Seq) -> std::sync::MutexGuard<'_, CaptureSeq> {
    s.lock().unwrap_or_else(|p| p.into_inner())
}

#[derive(Clone)]
pub struct StreamCapture {
    pub seq: Seq,
    pub deps: Vec<usize>,
    /// The dependency set as last handed out by cudaStreamGetCaptureInfo (kept alive),
    /// with as many zeroed `cudaGraphEdgeData` (8 bytes each) for its edge data.
    pub deps_out: Arc<(Vec<usize>, Vec<u64>)>,
}

/// What an event recorded in a capturing stream stands for.
#[derive(Clone)]
pub struct CapturedEvent {
    pub seq: Seq,
    pub deps: Vec<usize>,
}

/// Captures in progress (for the checks of unsafe calls in other streams).
fn active() -> &'static Mutex<Vec<Weak<Mutex<CaptureSeq>>>> {
    static A: std::sync::OnceLock<Mutex<Vec<Weak<Mutex<CaptureSeq>>>>> = std::sync::OnceLock::new();
    A.get_or_init(|| Mutex::new(Vec::new()))
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn cap(s: &Stream) -> std::sync::MutexGuard<'_, Option<StreamCapture>> {
    s.capture.lock().unwrap_or_else(|p| p.into_inner())
}

pub fn begin(s: &Arc<Stream>, mode: i32) -> Result<()> {
    if !(MODE_GLOBAL..=MODE_RELAXED).contains(&mode) {
        return Err(error::INVALID_VALUE);
    }
    if s.kind == crate::stream::Kind::Legacy {
        return Err(error::STREAM_CAPTURE_UNSUPPORTED);
    }
    let mut c = cap(s);
    if c.is_some() {
        return Err(error::ILLEGAL_STATE);
    }
    let seq = Arc::new(Mutex::new(CaptureSeq {
        id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        graph: super::create(),
        mode,
        thread: std::thread::current().id(),
        invalid: false,
        origin: Arc::as_ptr(s) as usize,
        members: vec![Arc::downgrade(s)],
    }));
    let mut a = active().lock().unwrap_or_else(|p| p.into_inner());
    a.retain(|w| w.strong_count() > 0);
    a.push(Arc::downgrade(&seq));
    *c = Some(StreamCapture { seq, deps: Vec::new(), deps_out: Arc::new((Vec::new(), Vec::new())) });
    Ok(())
}

/// Ends the capture that began in `s`; returns its graph.
pub fn end(s: &Arc<Stream>) -> Result<Arc<GraphObj>> {
    let c = cap(s).clone().ok_or(error::ILLEGAL_STATE)?;
    let (origin, mode, thread) = {
        let q = lock(&c.seq);
        (q.origin, q.mode, q.thread)
    };
    if origin != Arc::as_ptr(s) as usize {
        lock(&c.seq).invalid = true;
        return Err(error::STREAM_CAPTURE_UNMATCHED);
    }
    if mode != MODE_RELAXED && thread != std::thread::current().id() {
        return Err(error::STREAM_CAPTURE_WRONG_THREAD);
    }
    let members: Vec<Arc<Stream>> = lock(&c.seq).members.iter().filter_map(|w| w.upgrade()).collect();
    let joined = super::ancestors(&c.deps);
    let mut unjoined = false;
    for m in &members {
        if Arc::ptr_eq(m, s) {
            continue;
        }
        let mut mc = cap(m);
        if let Some(x) = mc.as_ref() {
            if Arc::ptr_eq(&x.seq, &c.seq) {
                if x.deps.iter().any(|d| !joined.contains(d)) {
                    unjoined = true;
                }
                *mc = None;
            }
        }
    }
    *cap(s) = None;
    let (invalid, graph) = {
        let mut q = lock(&c.seq);
        let inv = q.invalid;
        q.invalid = true; // no longer capturing
        (inv, q.graph.clone())
    };
    if invalid {
        let _ = super::destroy(graph.handle() as *mut _);
        return Err(error::STREAM_CAPTURE_INVALIDATED);
    }
    if unjoined {
        let _ = super::destroy(graph.handle() as *mut _);
        return Err(error::STREAM_CAPTURE_UNJOINED);
    }
    Ok(graph)
}

/// Marks the capture `s` takes part in as invalid (an illegal call was made in it).
pub fn invalidate(s: &Stream) {
    if let Some(c) = cap(s).as_ref() {
        lock(&c.seq).invalid = true;
    }
}

/// cudaStreamIsCapturing / GetCaptureInfo: 0 none, 1 active, 2 invalidated.
pub fn status(s: &Stream) -> i32 {
    match cap(s).as_ref() {
        None => 0,
        Some(c) if lock(&c.seq).invalid => 2,
        Some(_) => 1,
    }
}

pub fn info(s: &Stream) -> Option<(u64, usize, Arc<(Vec<usize>, Vec<u64>)>)> {
    let mut g = cap(s);
    let c = g.as_mut()?;
    c.deps_out = Arc::new((c.deps.clone(), vec![0; c.deps.len().max(1)]));
    let q = lock(&c.seq);
    Some((q.id, q.graph.handle(), c.deps_out.clone()))
}

/// cudaStreamUpdateCaptureDependencies: flags 0 adds, 1 sets.
pub fn update_deps(s: &Stream, deps: &[usize], set: bool) -> Result<()> {
    let mut g = cap(s);
    let c = g.as_mut().ok_or(error::ILLEGAL_STATE)?;
    if set {
        c.deps.clear();
    }
    for d in deps {
        if !c.deps.contains(d) {
            c.deps.push(*d);
        }
    }
    Ok(())
}

/// Whether a capture in a mode that forbids unsafe calls is under way and concerns the
/// calling thread: any global capture, or a thread-local one begun by this thread.
pub fn unsafe_calls_forbidden() -> bool {
    let me = std::thread::current().id();
    let a = active().lock().unwrap_or_else(|p| p.into_inner());
    a.iter().filter_map(|w| w.upgrade()).any(|s| {
        let q = lock(&s);
        !q.invalid && (q.mode == MODE_GLOBAL || (q.mode == MODE_THREAD_LOCAL && q.thread == me))
    })
}

/// A potentially unsafe call (allocation, free, synchronisation) made while a capture
/// forbids it: the captures concerned are invalidated and the call is refused.
pub fn refuse_unsafe() -> Result<()> {
    let me = std::thread::current().id();
    let a = active().lock().unwrap_or_else(|p| p.into_inner());
    let mut refused = false;
    for s in a.iter().filter_map(|w| w.upgrade()) {
        let mut q = lock(&s);
        if !q.invalid && (q.mode == MODE_GLOBAL || (q.mode == MODE_THREAD_LOCAL && q.thread == me)) {
            q.invalid = true;
            refused = true;
        }
    }
    if refused {
        Err(error::STREAM_CAPTURE_UNSUPPORTED)
    } else {
        Ok(())
    }
}

/// Marks a capture sequence invalid (an illegal use of one of its events).
pub fn invalidate_seq(s: &Seq) {
    lock(s).invalid = true;
}

/// Whether a blocking stream is capturing (the legacy stream may not be used then).
pub fn blocking_stream_capturing() -> bool {
    crate::stream::live_streams().iter().any(|s| s.is_blocking() && status(s) == 1)
}

/// cudaEventRecord into a capturing stream: the event stands for the stream's nodes.
pub fn record_event(s: &Stream, ev: &crate::event::EventObj) {
    if let Some(c) = cap(s).as_ref() {
        ev.set_captured(Some(CapturedEvent { seq: c.seq.clone(), deps: c.deps.clone() }));
    }
}

/// cudaStreamWaitEvent on an event recorded during a capture: `s` joins the capture.
pub fn wait_event(s: &Arc<Stream>, ce: CapturedEvent) -> Result<()> {
    let mut g = cap(s);
    match g.as_mut() {
        Some(c) if Arc::ptr_eq(&c.seq, &ce.seq) => {
            for d in ce.deps {
                if !c.deps.contains(&d) {
                    c.deps.push(d);
                }
            }
            Ok(())
        }
        Some(_) => Err(error::STREAM_CAPTURE_MERGE),
        None => {
            lock(&ce.seq).members.push(Arc::downgrade(s));
            *g = Some(StreamCapture { seq: ce.seq, deps: ce.deps, deps_out: Arc::new((Vec::new(), Vec::new())) });
            Ok(())
        }
    }
}

fn linear(dst: *mut std::ffi::c_void, src: *mut std::ffi::c_void, dpitch: usize, spitch: usize, w: usize, h: usize) -> Memcpy {
    let pos = Pos { x: 0, y: 0, z: 0 };
    Memcpy {
        params: Memcpy3DParms {
            src_array: std::ptr::null_mut(),
            src_pos: pos,
            src_ptr: PitchedPtr { ptr: src, pitch: spitch, xsize: w, ysize: h },
            dst_array: std::ptr::null_mut(),
            dst_pos: pos,
            dst_ptr: PitchedPtr { ptr: dst, pitch: dpitch, xsize: w, ysize: h },
            extent: Extent { width: w, height: h, depth: 1 },
            kind: 4,
        },
    }
}

/// A stream operation as the graph node that stands for it.
pub fn node_of(op: Op) -> Option<NodeKind> {
    Some(match op {
        Op::Launch(l) => {
            let func = crate::registry::stub_of(&l.kernel) as *mut std::ffi::c_void;
            NodeKind::Kernel { launch: *l, func: SendPtr(func) }
        }
        Op::Copy { dst, src, n } => NodeKind::Memcpy(linear(dst.0, src.0, n, n, n, 1)),
        Op::Copy2D { dst, dpitch, src, spitch, width, height } => {
            NodeKind::Memcpy(linear(dst.0, src.0, dpitch, spitch, width, height))
        }
        Op::Set { dst, value, n } => {
            NodeKind::Memset(Memset { dst, pitch: 0, value: value as u8 as u32, elem: 1, width: n, height: 1 })
        }
        Op::Set2D { dst, pitch, value, width, height } => {
            NodeKind::Memset(Memset { dst, pitch, value: value as u8 as u32, elem: 1, width, height })
        }
        Op::SetElems { dst, pitch, value, elem, width, height } => {
            NodeKind::Memset(Memset { dst, pitch, value, elem, width, height })
        }
        Op::HostFn { f, data } => NodeKind::Host { f, data },
        Op::Free(p) => NodeKind::MemFree(p),
        Op::Graph(_) | Op::RecordEvent(..) | Op::WaitEvent(..) | Op::WaitQueue(..) | Op::Host(_) => return None,
    })
}

/// An operation submitted to a capturing stream becomes a node after the stream's
/// current dependencies; one that cannot be captured invalidates the capture.
pub fn add_op(s: &Stream, op: Op) {
    let mut g = cap(s);
    let Some(c) = g.as_mut() else { return };
    if lock(&c.seq).invalid {
        return;
    }
    let graph = lock(&c.seq).graph.clone();
    match node_of(op).map(|k| graph.add(k, &c.deps)) {
        Some(Ok(n)) => c.deps = vec![n.handle()],
        _ => lock(&c.seq).invalid = true,
    }
}

/// cudaMallocAsync during a capture: an allocation node (reusing the address of memory
/// the graph freed before it where it can, as CUDA does).
pub fn add_alloc_node(s: &Stream, size: usize) -> Result<*mut std::ffi::c_void> {
    let mut g = cap(s);
    let c = g.as_mut().ok_or(error::ILLEGAL_STATE)?;
    let graph = lock(&c.seq).graph.clone();
    let a = graph.alloc_memory(&c.deps, size)?;
    let ptr = a.ptr as *mut std::ffi::c_void;
    let n = graph.add(NodeKind::MemAlloc(a, size), &c.deps)?;
    c.deps = vec![n.handle()];
    Ok(ptr)
}

/// Adds an already built node kind (memory allocation nodes of cudaMallocAsync).
pub fn add_node(s: &Stream, kind: NodeKind) -> Result<()> {
    let mut g = cap(s);
    let c = g.as_mut().ok_or(error::ILLEGAL_STATE)?;
    let graph = lock(&c.seq).graph.clone();
    let n = graph.add(kind, &c.deps)?;
    c.deps = vec![n.handle()];
    Ok(())
}
