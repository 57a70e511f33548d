//! Events.

use super::out;
use crate::context::ctx;
use crate::error::{self, api, CudaError};
use crate::{event, stream};
use std::ffi::{c_uint, c_void};

#[no_mangle]
pub extern "C" fn cudaEventCreate(p: *mut *mut c_void) -> CudaError {
    cudaEventCreateWithFlags(p, 0)
}

#[no_mangle]
pub extern "C" fn cudaEventCreateWithFlags(p: *mut *mut c_void, flags: c_uint) -> CudaError {
    api(|| {
        // An interprocess event must not keep timing (as CUDA checks).
        if p.is_null() || flags & !0x7 != 0 || (flags & event::INTERPROCESS != 0 && flags & event::DISABLE_TIMING == 0) {
            return Err(error::INVALID_VALUE);
        }
        ctx().check()?;
        out(p, event::create(flags))
    })
}

/// Records `ev` in `st` (or, while `st` captures, makes it stand for the capture's nodes).
fn record(ev: &std::sync::Arc<event::EventObj>, st: &stream::Stream) -> crate::error::Result<()> {
    ctx().check()?;
    // An event is recorded only in a stream of its own device (Programming Guide,
    // "Stream and Event Behavior").
    if ev.device != st.device {
        return Err(error::INVALID_RESOURCE_HANDLE);
    }
    if st.is_capturing() {
        crate::graph::capture::record_event(st, ev);
        return Ok(());
    }
    crate::api::stream::check_capture_rules(st)?;
    ev.record(st);
    Ok(())
}

#[no_mangle]
pub extern "C" fn cudaEventRecord(e: *mut c_void, s: *mut c_void) -> CudaError {
    api(|| record(&event::resolve(e)?, &*stream::resolve(s)?))
}

#[no_mangle]
pub extern "C" fn cudaEventRecordWithFlags(e: *mut c_void, s: *mut c_void, flags: c_uint) -> CudaError {
    api(|| {
        if flags & !1 != 0 {
            return Err(error::INVALID_VALUE);
        }
        let ev = event::resolve(e)?;
        let st = stream::resolve(s)?;
        // cudaEventRecordExternal in a capture: an event record node, not a fork point.
        if flags & 1 != 0 && st.is_capturing() {
            crate::api::stream::check_capture_rules(&st)?;
            return crate::graph::capture::add_node(&st, crate::graph::NodeKind::EventRecord(ev));
        }
        record(&ev, &st)
    })
}

#[no_mangle]
pub extern "C" fn cudaEventQuery(e: *mut c_void) -> CudaError {
    api(|| {
        let ev = event::resolve(e)?;
        if let Some(c) = ev.captured() {
            crate::graph::capture::invalidate_seq(&c.seq);
            return Err(error::CAPTURED_EVENT);
        }
        ctx().check()?;
        if ev.is_complete() {
            Ok(())
        } else {
            Err(error::NOT_READY)
        }
    })
}

#[no_mangle]
pub extern "C" fn cudaEventSynchronize(e: *mut c_void) -> CudaError {
    api(|| {
        let ev = event::resolve(e)?;
        // CUDA 13 answers cudaErrorInvalidValue here (measured) and drops the capture.
        if let Some(c) = ev.captured() {
            crate::graph::capture::invalidate_seq(&c.seq);
            return Err(error::INVALID_VALUE);
        }
        crate::graph::capture::refuse_unsafe()?;
        ev.wait();
        crate::mempool::release_to_thresholds();
        crate::printf::flush();
        ctx().check()
    })
}

#[no_mangle]
pub extern "C" fn cudaEventElapsedTime(ms: *mut f32, start: *mut c_void, end: *mut c_void) -> CudaError {
    api(|| {
        if ms.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let a = event::resolve(start)?;
        let b = event::resolve(end)?;
        ctx().check()?;
        out(ms, event::elapsed_ms(&a, &b)?)
    })
}

#[no_mangle]
pub extern "C" fn cudaEventElapsedTime_v2(ms: *mut f32, start: *mut c_void, end: *mut c_void) -> CudaError {
    cudaEventElapsedTime(ms, start, end)
}

#[no_mangle]
pub extern "C" fn cudaEventDestroy(e: *mut c_void) -> CudaError {
    api(|| event::destroy(e))
}
