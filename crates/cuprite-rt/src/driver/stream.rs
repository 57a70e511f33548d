//! Streams and events: a `CUstream` is a `cudaStream_t`, a `CUevent` a `cudaEvent_t`.

use super::context::require;
use super::{drv, rt, CuResult};
use crate::api::{event as ev, stream as st};
use std::ffi::{c_int, c_uint, c_void};

#[no_mangle]
pub extern "C" fn cuStreamCreate(p: *mut *mut c_void, flags: c_uint) -> CuResult {
    drv(|| {
        require()?;
        rt(st::cudaStreamCreateWithFlags(p, flags))
    })
}
#[no_mangle]
pub extern "C" fn cuStreamCreateWithPriority(p: *mut *mut c_void, flags: c_uint, prio: c_int) -> CuResult {
    drv(|| {
        require()?;
        rt(st::cudaStreamCreateWithPriority(p, flags, prio))
    })
}
#[no_mangle]
pub extern "C" fn cuStreamDestroy_v2(s: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        rt(st::cudaStreamDestroy(s))
    })
}
#[no_mangle]
pub extern "C" fn cuStreamDestroy(s: *mut c_void) -> CuResult {
    cuStreamDestroy_v2(s)
}
#[no_mangle]
pub extern "C" fn cuStreamSynchronize(s: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        rt(st::cudaStreamSynchronize(s))
    })
}
#[no_mangle]
pub extern "C" fn cuStreamQuery(s: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        rt(st::cudaStreamQuery(s))
    })
}
#[no_mangle]
pub extern "C" fn cuStreamWaitEvent(s: *mut c_void, e: *mut c_void, flags: c_uint) -> CuResult {
    drv(|| {
        require()?;
        rt(st::cudaStreamWaitEvent(s, e, flags))
    })
}
#[no_mangle]
pub extern "C" fn cuStreamGetFlags(s: *mut c_void, flags: *mut c_uint) -> CuResult {
    drv(|| {
        require()?;
        rt(st::cudaStreamGetFlags(s, flags))
    })
}
#[no_mangle]
pub extern "C" fn cuStreamGetPriority(s: *mut c_void, p: *mut c_int) -> CuResult {
    drv(|| {
        require()?;
        rt(st::cudaStreamGetPriority(s, p))
    })
}

/// The device of the stream (`CUdevice` is the device's ordinal here).
#[no_mangle]
pub extern "C" fn cuStreamGetDevice(s: *mut c_void, device: *mut c_int) -> CuResult {
    drv(|| {
        require()?;
        rt(st::cudaStreamGetDevice(s, device))
    })
}

/// `CUstreamCallback` has the shape of `cudaStreamCallback_t` (the status is a
/// `CUresult`, and the codes a callback can see are the same in both).
#[no_mangle]
pub extern "C" fn cuStreamAddCallback(s: *mut c_void, cb: Option<st::StreamCallback>, data: *mut c_void, flags: c_uint) -> CuResult {
    drv(|| {
        require()?;
        rt(st::cudaStreamAddCallback(s, cb, data, flags))
    })
}
#[no_mangle]
pub extern "C" fn cuLaunchHostFunc(s: *mut c_void, f: Option<st::HostFn>, data: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        rt(st::cudaLaunchHostFunc(s, f, data))
    })
}

#[no_mangle]
pub extern "C" fn cuEventCreate(p: *mut *mut c_void, flags: c_uint) -> CuResult {
    drv(|| {
        require()?;
        rt(ev::cudaEventCreateWithFlags(p, flags))
    })
}
#[no_mangle]
pub extern "C" fn cuEventRecord(e: *mut c_void, s: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        rt(ev::cudaEventRecord(e, s))
    })
}
#[no_mangle]
pub extern "C" fn cuEventRecordWithFlags(e: *mut c_void, s: *mut c_void, flags: c_uint) -> CuResult {
    drv(|| {
        require()?;
        rt(ev::cudaEventRecordWithFlags(e, s, flags))
    })
}
#[no_mangle]
pub extern "C" fn cuEventQuery(e: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        rt(ev::cudaEventQuery(e))
    })
}
#[no_mangle]
pub extern "C" fn cuEventSynchronize(e: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        rt(ev::cudaEventSynchronize(e))
    })
}
#[no_mangle]
pub extern "C" fn cuEventDestroy_v2(e: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        rt(ev::cudaEventDestroy(e))
    })
}
#[no_mangle]
pub extern "C" fn cuEventDestroy(e: *mut c_void) -> CuResult {
    cuEventDestroy_v2(e)
}
#[no_mangle]
pub extern "C" fn cuEventElapsedTime(ms: *mut f32, a: *mut c_void, b: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        rt(ev::cudaEventElapsedTime(ms, a, b))
    })
}
#[no_mangle]
pub extern "C" fn cuEventElapsedTime_v2(ms: *mut f32, a: *mut c_void, b: *mut c_void) -> CuResult {
    cuEventElapsedTime(ms, a, b)
}
