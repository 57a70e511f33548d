//! Streams: creation, destruction, synchronisation, queries, callbacks.

use super::out;
use crate::context::ctx;
use crate::error::{self, api, CudaError, Result};
use crate::graph::capture;
use crate::stream::{self, Op};
use std::ffi::{c_int, c_uint, c_void};

#[no_mangle]
pub extern "C" fn cudaStreamCreate(p: *mut *mut c_void) -> CudaError {
    cudaStreamCreateWithPriority(p, 0, 0)
}

#[no_mangle]
pub extern "C" fn cudaStreamCreateWithFlags(p: *mut *mut c_void, flags: c_uint) -> CudaError {
    cudaStreamCreateWithPriority(p, flags, 0)
}

#[no_mangle]
pub extern "C" fn cudaStreamCreateWithPriority(p: *mut *mut c_void, flags: c_uint, priority: c_int) -> CudaError {
    api(|| {
        if p.is_null() || flags & !1 != 0 {
            return Err(error::INVALID_VALUE);
        }
        ctx().check()?;
        out(p, stream::create(flags, priority.clamp(-5, 0)))
    })
}

#[no_mangle]
pub extern "C" fn cudaStreamDestroy(s: *mut c_void) -> CudaError {
    api(|| stream::destroy(s))
}

/// A call that would wait for a capturing stream: refused, and the capture is invalid.
pub(crate) fn refuse_if_capturing(st: &stream::Stream) -> Result<()> {
    if st.is_capturing() {
        capture::invalidate(st);
        return Err(error::STREAM_CAPTURE_UNSUPPORTED);
    }
    Ok(())
}

/// Work submitted to a stream during a capture: the legacy stream may not be used while
/// a blocking stream captures, and a stream whose capture was invalidated refuses work.
pub(crate) fn check_capture_rules(st: &stream::Stream) -> Result<()> {
    if capture::status(st) == 2 {
        return Err(error::STREAM_CAPTURE_INVALIDATED);
    }
    if st.kind == stream::Kind::Legacy && capture::blocking_stream_capturing() {
        for s in stream::live_streams() {
            if s.is_blocking() {
                capture::invalidate(&s);
            }
        }
        return Err(error::STREAM_CAPTURE_IMPLICIT);
    }
    Ok(())
}

#[no_mangle]
pub extern "C" fn cudaStreamSynchronize(s: *mut c_void) -> CudaError {
    api(|| {
        let st = stream::resolve(s)?;
        refuse_if_capturing(&st)?;
        check_capture_rules(&st)?;
        capture::refuse_unsafe()?;
        st.synchronize_implicit();
        crate::printf::flush();
        crate::mempool::release_to_thresholds();
        ctx().check()
    })
}

#[no_mangle]
pub extern "C" fn cudaStreamQuery(s: *mut c_void) -> CudaError {
    api(|| {
        let st = stream::resolve(s)?;
        refuse_if_capturing(&st)?;
        check_capture_rules(&st)?;
        ctx().check()?;
        if st.is_done() {
            Ok(())
        } else {
            Err(error::NOT_READY)
        }
    })
}

#[no_mangle]
pub extern "C" fn cudaStreamWaitEvent(s: *mut c_void, e: *mut c_void, flags: c_uint) -> CudaError {
    api(|| {
        let st = stream::resolve(s)?;
        let ev = crate::event::resolve(e)?;
        if flags & !1 != 0 {
            return Err(error::INVALID_VALUE);
        }
        if let Some(ce) = ev.captured() {
            return capture::wait_event(&st, ce);
        }
        if st.is_capturing() {
            if flags & 1 != 0 {
                // cudaEventWaitExternal: a wait node on the event as it stands now.
                return capture::add_node(&st, crate::graph::NodeKind::EventWait(ev));
            }
            capture::invalidate(&st);
            return Err(error::STREAM_CAPTURE_ISOLATION);
        }
        let gen = ev.current_record();
        if !ev.is_done(gen) {
            st.submit(Op::WaitEvent(ev, gen));
        }
        Ok(())
    })
}

pub type StreamCallback = unsafe extern "C" fn(*mut c_void, c_int, *mut c_void);
pub type HostFn = unsafe extern "C" fn(*mut c_void);

#[derive(Clone, Copy)]
struct Raw(*mut c_void);
unsafe impl Send for Raw {}

#[no_mangle]
pub extern "C" fn cudaStreamAddCallback(
    s: *mut c_void,
    cb: Option<StreamCallback>,
    data: *mut c_void,
    flags: c_uint,
) -> CudaError {
    api(|| {
        let cb = cb.ok_or(error::INVALID_VALUE)?;
        if flags != 0 {
            return Err(error::INVALID_VALUE);
        }
        let st = stream::resolve(s)?;
        refuse_if_capturing(&st)?;
        let (h, d) = (Raw(s), Raw(data));
        st.submit(Op::Host(Box::new(move || {
            let (h, d) = (h, d);
            let status = ctx().check().err().unwrap_or(0);
            unsafe { cb(h.0, status, d.0) }
        })));
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaLaunchHostFunc(s: *mut c_void, f: Option<HostFn>, data: *mut c_void) -> CudaError {
    api(|| {
        let f = f.ok_or(error::INVALID_VALUE)?;
        let st = stream::resolve(s)?;
        ctx().check()?;
        check_capture_rules(&st)?;
        st.submit(Op::HostFn { f, data: stream::SendPtr(data) });
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaStreamGetFlags(s: *mut c_void, flags: *mut c_uint) -> CudaError {
    api(|| out(flags, stream::resolve(s)?.flags))
}

#[no_mangle]
pub extern "C" fn cudaStreamGetPriority(s: *mut c_void, p: *mut c_int) -> CudaError {
    api(|| out(p, stream::resolve(s)?.priority))
}

/// The device the stream belongs to (CUDA 12.8).
#[no_mangle]
pub extern "C" fn cudaStreamGetDevice(s: *mut c_void, device: *mut c_int) -> CudaError {
    api(|| out(device, stream::resolve(s)?.device))
}

#[no_mangle]
pub extern "C" fn cudaStreamAttachMemAsync(s: *mut c_void, _p: *mut c_void, _len: usize, _flags: c_uint) -> CudaError {
    api(|| stream::resolve(s).map(|_| ()))
}

/// Stream attributes (`cudaStreamSetAttribute`): on the CPU device they are hints (access
/// policy windows, synchronisation policy, priority) without effect on results; each
/// stream keeps what was set, so that `cudaStreamGetAttribute` reads it back.
fn stream_attributes() -> &'static std::sync::Mutex<std::collections::HashMap<(usize, c_int), [u8; 64]>> {
    static ATTRS: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<(usize, c_int), [u8; 64]>>> = std::sync::OnceLock::new();
    ATTRS.get_or_init(Default::default)
}

/// The attribute ids a stream accepts (`cudaLaunchAttributeID`).
fn stream_attribute_ok(attr: c_int) -> bool {
    matches!(attr, 1 | 3 | 8)
}

#[no_mangle]
pub extern "C" fn cudaStreamSetAttribute(s: *mut c_void, attr: c_int, value: *const [u8; 64]) -> CudaError {
    api(|| {
        stream::resolve(s)?;
        if value.is_null() || !stream_attribute_ok(attr) {
            return Err(error::INVALID_VALUE);
        }
        // SAFETY: the caller passes a cudaLaunchAttributeValue, a 64-byte union.
        let v = unsafe { *value };
        stream_attributes().lock().unwrap_or_else(|e| e.into_inner()).insert((s as usize, attr), v);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaStreamGetAttribute(s: *mut c_void, attr: c_int, out: *mut [u8; 64]) -> CudaError {
    api(|| {
        stream::resolve(s)?;
        if out.is_null() || !stream_attribute_ok(attr) {
            return Err(error::INVALID_VALUE);
        }
        let v = stream_attributes().lock().unwrap_or_else(|e| e.into_inner()).get(&(s as usize, attr)).copied().unwrap_or([0; 64]);
        // SAFETY: the caller passes room for a cudaLaunchAttributeValue.
        unsafe { *out = v };
        Ok(())
    })
}

/// There is no L2 cache to hold persisting lines on the CPU device: nothing to reset.
#[no_mangle]
pub extern "C" fn cudaCtxResetPersistingL2Cache() -> CudaError {
    api(|| ctx().check())
}
