//! `cudaIpc*`: memory and event handles shared between processes (`crate::ipc`).

use super::out;
use crate::context::ctx;
use crate::error::{self, api, CudaError};
use crate::ipc::{self, Handle};
use std::ffi::{c_uint, c_void};

#[no_mangle]
pub extern "C" fn cudaIpcGetMemHandle(h: *mut Handle, ptr: *mut c_void) -> CudaError {
    api(|| {
        if h.is_null() || ptr.is_null() {
            return Err(error::INVALID_VALUE);
        }
        ctx().check()?;
        out(h, ipc::export_memory(ptr)?)
    })
}

#[no_mangle]
pub extern "C" fn cudaIpcOpenMemHandle(p: *mut *mut c_void, h: Handle, _flags: c_uint) -> CudaError {
    api(|| {
        if p.is_null() {
            return Err(error::INVALID_VALUE);
        }
        ctx().check()?;
        out(p, ipc::import_memory(&h)?)
    })
}

#[no_mangle]
pub extern "C" fn cudaIpcCloseMemHandle(p: *mut c_void) -> CudaError {
    api(|| ipc::close_memory(p))
}

#[no_mangle]
pub extern "C" fn cudaIpcGetEventHandle(h: *mut Handle, e: *mut c_void) -> CudaError {
    api(|| {
        if h.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let ev = crate::event::resolve(e)?;
        if ev.flags & crate::event::INTERPROCESS == 0 {
            return Err(error::INVALID_RESOURCE_HANDLE);
        }
        let shared = ev.shared.as_ref().ok_or(error::MEMORY_ALLOCATION)?;
        out(h, shared.handle())
    })
}

#[no_mangle]
pub extern "C" fn cudaIpcOpenEventHandle(e: *mut *mut c_void, h: Handle) -> CudaError {
    api(|| {
        if e.is_null() {
            return Err(error::INVALID_VALUE);
        }
        ctx().check()?;
        out(e, crate::event::import(&h)?)
    })
}
