//! Event timing on the GPU device: an event recorded into a stream also records a driver
//! event on the stream thread's driver stream, right behind the work queued before it,
//! and `cudaEventElapsedTime` between two such events is the driver's (the GPU's clock),
//! as under CUDA. The runtime's own time of completion (the host's clock when the stream
//! thread saw the GPU finish) would add the polling latency to every interval.

use super::driver::*;
use super::{active, PENDING};
use crate::event::{EventObj, DISABLE_TIMING};
use std::sync::Mutex;

/// The driver event behind a runtime event, and whether it holds the latest record.
#[derive(Default)]
pub struct GpuTiming {
    state: Mutex<(usize, bool)>,
}

impl Drop for GpuTiming {
    fn drop(&mut self) {
        let (e, _) = *self.state.get_mut().unwrap_or_else(|p| p.into_inner());
        if let (true, Some(g)) = (e != 0, active()) {
            g.current();
            unsafe { (g.drv.event_destroy)(e as CUevent) };
        }
    }
}

/// On a stream's thread, when the stream reaches a record of `ev` and before the record
/// counts complete: the driver event is recorded behind what the driver stream holds, and
/// what it holds is then waited for (so that the record completes after the work before
/// it, as it does on the CPU device).
pub fn on_record(ev: &EventObj) {
    let Some(g) = active() else { return };
    g.current();
    let Ok((stream, event)) = g.lane() else { return };
    if ev.flags & DISABLE_TIMING == 0 {
        let mut st = ev.gpu_timing.state.lock().unwrap_or_else(|p| p.into_inner());
        if st.0 == 0 {
            let mut e: CUevent = std::ptr::null_mut();
            if unsafe { (g.drv.event_create)(&mut e, 0) } == 0 {
                st.0 = e as usize;
            }
        }
        st.1 = st.0 != 0 && unsafe { (g.drv.event_record)(st.0 as CUevent, stream) } == 0;
    }
    if PENDING.with(|c| c.get()) {
        if let Err(e) = g.finish(stream, event) {
            crate::context::ctx().set_sticky(e);
        }
    }
}

/// `cudaEventElapsedTime` from the driver's events, when both records made one.
pub fn elapsed_ms(start: &EventObj, end: &EventObj) -> Option<f32> {
    let g = active()?;
    let a = *start.gpu_timing.state.lock().unwrap_or_else(|p| p.into_inner());
    let b = *end.gpu_timing.state.lock().unwrap_or_else(|p| p.into_inner());
    if !(a.1 && b.1) {
        return None;
    }
    g.current();
    let mut ms = 0f32;
    (unsafe { (g.drv.event_elapsed_time)(&mut ms, a.0 as CUevent, b.0 as CUevent) } == 0).then_some(ms)
}
