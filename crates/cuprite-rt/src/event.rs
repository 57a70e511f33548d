//! Events: recorded into a stream, complete when the stream reaches them, and carry the
//! time at which they completed.

use crate::error::{self, Result};
use crate::stream::{Op, Stream};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::sync::atomic::Ordering::SeqCst;
use std::time::Instant;

pub const BLOCKING_SYNC: u32 = 0x01;
pub const DISABLE_TIMING: u32 = 0x02;
pub const INTERPROCESS: u32 = 0x04;

#[derive(Default)]
struct EvState {
    /// Number of the latest record; 0: never recorded.
    gen: u64,
    /// Number of the latest record that completed.
    fired: u64,
    time_ns: Option<u64>,
    /// Set when the latest record was captured into a graph: what a wait on it joins.
    captured: Option<crate::graph::capture::CapturedEvent>,
}

pub struct EventObj {
    pub flags: u32,
    /// The device it belongs to (current when it was made): it can be recorded only in
    /// that device's streams.
    pub device: std::ffi::c_int,
    st: Mutex<EvState>,
    cv: Condvar,
    /// An interprocess event's record and completion counters, shared with the processes
    /// that opened its handle (`ipc.rs`); they replace `gen` and `fired`.
    pub shared: Option<crate::ipc::SharedCounters>,
    /// The GPU device's driver event for timing (`gpu/timing.rs`).
    pub gpu_timing: crate::gpu::timing::GpuTiming,
}

fn epoch() -> Instant {
    static E: OnceLock<Instant> = OnceLock::new();
    *E.get_or_init(Instant::now)
}

impl EventObj {
    fn lock(&self) -> std::sync::MutexGuard<'_, EvState> {
        self.st.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Runs on the stream's thread when the stream reaches record number `gen`.
    pub fn fire(&self, gen: u64) {
        if let Some(s) = &self.shared {
            s.counters()[1].fetch_max(gen, SeqCst);
        }
        let mut st = self.lock();
        if gen > st.fired {
            st.fired = gen;
        }
        if st.gen == gen {
            st.time_ns = Some(epoch().elapsed().as_nanos() as u64);
        }
        self.cv.notify_all();
    }

    /// Starts a new record; its completion is `fire(returned number)`.
    pub fn begin_record(&self) -> u64 {
        let _ = epoch();
        let mut st = self.lock();
        st.gen = match &self.shared {
            Some(s) => s.counters()[0].fetch_add(1, SeqCst) + 1,
            None => st.gen + 1,
        };
        st.time_ns = None;
        st.captured = None;
        st.gen
    }

    pub fn record(self: &Arc<Self>, stream: &Stream) {
        let gen = self.begin_record();
        stream.submit(Op::RecordEvent(self.clone(), gen));
    }

    /// The record a wait issued now has to wait for.
    pub fn current_record(&self) -> u64 {
        match &self.shared {
            Some(s) => s.counters()[0].load(SeqCst),
            None => self.lock().gen,
        }
    }

    pub fn set_captured(&self, c: Option<crate::graph::capture::CapturedEvent>) {
        let mut st = self.lock();
        st.captured = c;
    }

    pub fn captured(&self) -> Option<crate::graph::capture::CapturedEvent> {
        self.lock().captured.clone()
    }

    pub fn is_recorded(&self) -> bool {
        self.current_record() != 0
    }

    pub fn is_complete(&self) -> bool {
        if let Some(s) = &self.shared {
            let c = s.counters();
            return c[1].load(SeqCst) >= c[0].load(SeqCst);
        }
        let st = self.lock();
        st.fired >= st.gen
    }

    pub fn is_done(&self, gen: u64) -> bool {
        match &self.shared {
            Some(s) => s.counters()[1].load(SeqCst) >= gen,
            None => self.lock().fired >= gen,
        }
    }

    /// Blocks until record number `gen` completed.
    pub fn wait_for(&self, gen: u64) {
        if crate::queue::spin_until(|| self.is_done(gen)) {
            return;
        }
        if self.shared.is_some() {
            // Another process fires it: nothing notifies this one.
            while !self.is_done(gen) {
                std::thread::sleep(std::time::Duration::from_micros(50));
            }
            return;
        }
        let mut st = self.lock();
        while st.fired < gen {
            st = self.cv.wait(st).unwrap_or_else(|p| p.into_inner());
        }
    }

    pub fn wait(&self) {
        let gen = self.current_record();
        self.wait_for(gen);
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
    // An interprocess event whose shared page cannot be made gets no handle
    // (cudaIpcGetEventHandle reports it).
    let shared = if flags & INTERPROCESS != 0 { crate::ipc::SharedCounters::new().ok() } else { None };
    register(EventObj { flags, device: crate::devices::current(), st: Mutex::new(EvState::default()), cv: Condvar::new(), shared, gpu_timing: Default::default() })
}

fn register(e: EventObj) -> *mut c_void {
    let e = Arc::new(e);
    let h = Arc::as_ptr(&e) as *mut c_void;
    events().live.insert(h as usize, e);
    h
}

/// `cudaIpcOpenEventHandle`: an event over another process's interprocess event.
pub fn import(h: &crate::ipc::Handle) -> Result<*mut c_void> {
    let shared = crate::ipc::SharedCounters::open(h)?;
    Ok(register(EventObj { flags: INTERPROCESS | DISABLE_TIMING, device: crate::devices::current(), st: Mutex::new(EvState::default()), cv: Condvar::new(), shared: Some(shared), gpu_timing: Default::default() }))
}

pub fn resolve(h: *mut c_void) -> Result<Arc<EventObj>> {
    events().live.get(&(h as usize)).cloned().ok_or(error::INVALID_RESOURCE_HANDLE)
}

pub fn destroy(h: *mut c_void) -> Result<()> {
    events().live.remove(&(h as usize)).map(|_| ()).ok_or(error::INVALID_RESOURCE_HANDLE)
}

/// cudaEventElapsedTime, in milliseconds.
pub fn elapsed_ms(start: &EventObj, end: &EventObj) -> Result<f32> {
    if start.flags & DISABLE_TIMING != 0 || end.flags & DISABLE_TIMING != 0 || start.device != end.device {
        return Err(error::INVALID_RESOURCE_HANDLE);
    }
    if !start.is_recorded() || !end.is_recorded() {
        return Err(error::INVALID_RESOURCE_HANDLE);
    }
    if !start.is_complete() || !end.is_complete() {
        return Err(error::NOT_READY);
    }
    if let Some(ms) = crate::gpu::timing::elapsed_ms(start, end) {
        return Ok(ms);
    }
    match (start.time(), end.time()) {
        (Some(a), Some(b)) => Ok(((b as i128 - a as i128) as f64 / 1.0e6) as f32),
        _ => Err(error::NOT_READY),
    }
}
