//! Events: recorded into a stream, complete when the stream reaches them, and carry the
//! time at which they completed.

use crate::error::{self, Result};
use crate::stream::{Op, Stream};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

pub const DISABLE_TIMING: u32 = 0x02;

#[derive(Default)]
struct EvState {
    /// Sequence number of the latest record in its queue; 0: never recorded.
    seq: u64,
    queue: Option<Arc<crate::stream::Queue>>,
    time_ns: Option<u64>,
}

pub struct EventObj {
    pub flags: u32,
    st: Mutex<EvState>,
}

fn epoch() -> Instant {
    static E: OnceLock<Instant> = OnceLock::new();
    *E.get_or_init(Instant::now)
}

impl EventObj {
    fn lock(&self) -> std::sync::MutexGuard<'_, EvState> {
        self.st.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs on the stream's thread when the stream reaches the record.
    pub fn fire(&self, seq: u64) {
        let mut st = self.lock();
        if st.seq == seq {
            st.time_ns = Some(epoch().elapsed().as_nanos() as u64);
        }
    }

    pub fn record(self: &Arc<Self>, stream: &Stream) {
        let _ = epoch();
        // The event's lock is held while submitting, so fire() sees the new sequence number.
        let mut st = self.lock();
        let me = self.clone();
        let seq = stream.submit_with(move |seq| Op::RecordEvent(me, seq));
        st.seq = seq;
        st.queue = Some(stream.queue().clone());
        st.time_ns = None;
    }

    pub fn is_recorded(&self) -> bool {
        self.lock().seq != 0
    }

    pub fn is_complete(&self) -> bool {
        let st = self.lock();
        match &st.queue {
            None => true,
            Some(q) => q.completed() >= st.seq,
        }
    }

    pub fn wait(&self) {
        let (q, seq) = {
            let st = self.lock();
            (st.queue.clone(), st.seq)
        };
        if let Some(q) = q {
            q.wait(seq);
        }
    }

    fn time(&self) -> Option<u64> {
        self.lock().time_ns
    }
}

struct Events {
    live: HashMap<usize, Arc<EventObj>>,
}

fn events() -> std::sync::MutexGuard<'static, Events> {
    static E: OnceLock<Mutex<Events>> = OnceLock::new();
    E.get_or_init(|| Mutex::new(Events { live: HashMap::new() })).lock().unwrap_or_else(|p| p.into_inner())
}

pub fn create(flags: u32) -> *mut c_void {
    let e = Arc::new(EventObj { flags, st: Mutex::new(EvState::default()) });
    let h = Arc::as_ptr(&e) as *mut c_void;
    events().live.insert(h as usize, e);
    h
}

pub fn resolve(h: *mut c_void) -> Result<Arc<EventObj>> {
    events().live.get(&(h as usize)).cloned().ok_or(error::INVALID_RESOURCE_HANDLE)
}

pub fn destroy(h: *mut c_void) -> Result<()> {
    events().live.remove(&(h as usize)).map(|_| ()).ok_or(error::INVALID_RESOURCE_HANDLE)
}

/// cudaEventElapsedTime, in milliseconds.
pub fn elapsed_ms(start: &EventObj, end: &EventObj) -> Result<f32> {
    if start.flags & DISABLE_TIMING != 0 || end.flags & DISABLE_TIMING != 0 {
        return Err(error::INVALID_RESOURCE_HANDLE);
    }
    if !start.is_recorded() || !end.is_recorded() {
        return Err(error::INVALID_RESOURCE_HANDLE);
    }
    if !start.is_complete() || !end.is_complete() {
        return Err(error::NOT_READY);
    }
    match (start.time(), end.time()) {
        (Some(a), Some(b)) => Ok(((b as i128 - a as i128) as f64 / 1.0e6) as f32),
        _ => Err(error::NOT_READY),
    }
}
