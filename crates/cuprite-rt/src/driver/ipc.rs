//! The driver API's interprocess handles: the runtime's (`crate::ipc`, `api/ipc.rs`).

use super::{drv, rt, CuResult};
use crate::api::ipc as rti;
use crate::ipc::Handle;
use std::ffi::{c_uint, c_void};

#[no_mangle]
pub extern "C" fn cuIpcGetMemHandle(h: *mut Handle, p: u64) -> CuResult {
    drv(|| rt(rti::cudaIpcGetMemHandle(h, p as usize as *mut c_void)))
}

#[no_mangle]
pub extern "C" fn cuIpcOpenMemHandle_v2(p: *mut u64, h: Handle, flags: c_uint) -> CuResult {
    drv(|| rt(rti::cudaIpcOpenMemHandle(p as *mut *mut c_void, h, flags)))
}

/// The name CUDA 4.1 gave it (same arguments), still exported.
#[no_mangle]
pub extern "C" fn cuIpcOpenMemHandle(p: *mut u64, h: Handle, flags: c_uint) -> CuResult {
    cuIpcOpenMemHandle_v2(p, h, flags)
}

#[no_mangle]
pub extern "C" fn cuIpcCloseMemHandle(p: u64) -> CuResult {
    drv(|| rt(rti::cudaIpcCloseMemHandle(p as usize as *mut c_void)))
}

#[no_mangle]
pub extern "C" fn cuIpcGetEventHandle(h: *mut Handle, e: *mut c_void) -> CuResult {
    drv(|| rt(rti::cudaIpcGetEventHandle(h, e)))
}

#[no_mangle]
pub extern "C" fn cuIpcOpenEventHandle(e: *mut *mut c_void, h: Handle) -> CuResult {
    drv(|| rt(rti::cudaIpcOpenEventHandle(e, h)))
}
