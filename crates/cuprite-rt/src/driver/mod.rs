//! The CUDA driver API (`cu*`, `cuda.h`) over the runtime's state: one device, whose
//! primary context is the runtime's, so pointers, streams, events and kernels cross
//! between the two APIs (shared/DESIGN.md §4).
//!
//! Each `extern "C"` function is thin: `drv` checks initialisation, catches panics and
//! keeps the runtime's last error untouched; the work is done by the runtime's modules
//! or its API functions (whose `cudaError_t` becomes a `CUresult`, `from_runtime`).

pub mod context;
pub mod device;
pub mod errors;
pub mod graphics;
pub mod interop;
pub mod ipc;
pub mod launch;
pub mod legacy;
pub mod link;
pub mod loader;
pub mod memory;
pub mod module;
pub mod procs;
pub mod ptx;
pub mod source_module;
pub mod stream;
pub mod texref;
pub mod texture;
pub mod vmm;

use crate::error::{self, CudaError};
use std::ffi::c_int;
use std::sync::atomic::{AtomicBool, Ordering};

/// `CUresult`.
pub type CuResult = c_int;
pub type Result<T> = std::result::Result<T, CuResult>;

pub const SUCCESS: CuResult = 0;
pub const INVALID_VALUE: CuResult = 1;
pub const OUT_OF_MEMORY: CuResult = 2;
pub const NOT_INITIALIZED: CuResult = 3;
pub const INVALID_DEVICE: CuResult = 101;
pub const INVALID_IMAGE: CuResult = 200;
pub const INVALID_CONTEXT: CuResult = 201;
pub const INVALID_PTX: CuResult = 218;
pub const UNSUPPORTED_PTX_VERSION: CuResult = 222;
pub const JIT_COMPILER_NOT_FOUND: CuResult = 221;
pub const FILE_NOT_FOUND: CuResult = 301;
pub const INVALID_HANDLE: CuResult = 400;
pub const NOT_FOUND: CuResult = 500;
pub const NOT_SUPPORTED: CuResult = 801;
pub const UNKNOWN: CuResult = 999;

static INITIALIZED: AtomicBool = AtomicBool::new(false);

/// Whether `cuInit` has run (or the runtime API, which initialises the driver).
pub fn initialized() -> bool {
    INITIALIZED.load(Ordering::Acquire) || error::runtime_used()
}

/// Runs a driver API call that needs `cuInit`: no panic crosses the boundary, and the
/// runtime's last error is not touched.
pub fn drv(f: impl FnOnce() -> Result<()>) -> CuResult {
    if !initialized() {
        return NOT_INITIALIZED;
    }
    any_time(f)
}

/// As `drv`, for the few calls allowed before `cuInit`.
pub fn any_time(f: impl FnOnce() -> Result<()>) -> CuResult {
    let r = error::in_driver_call(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(Err(UNKNOWN)));
    match r {
        Ok(()) => SUCCESS,
        Err(e) => e,
    }
}

/// The driver's code for a runtime error. Codes from 100 up are shared by both APIs;
/// below that the runtime has finer codes that the driver reports as invalid values.
pub fn from_runtime(e: CudaError) -> CuResult {
    match e {
        0..=5 => e,
        error::INVALID_DEVICE_FUNCTION => INVALID_HANDLE,
        e if e >= 100 => e,
        _ => INVALID_VALUE,
    }
}

/// Calls a runtime API function and converts its result.
pub fn rt(e: CudaError) -> Result<()> {
    match from_runtime(e) {
        SUCCESS => Ok(()),
        e => Err(e),
    }
}

/// Writes through an out-pointer, or CUDA_ERROR_INVALID_VALUE if it is null.
pub fn out<T>(p: *mut T, v: T) -> Result<()> {
    if p.is_null() {
        return Err(INVALID_VALUE);
    }
    unsafe { p.write(v) };
    Ok(())
}

#[no_mangle]
pub extern "C" fn cuInit(flags: std::ffi::c_uint) -> CuResult {
    any_time(|| {
        if flags != 0 {
            return Err(INVALID_VALUE);
        }
        INITIALIZED.store(true, Ordering::Release);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuDriverGetVersion(v: *mut c_int) -> CuResult {
    any_time(|| out(v, 13000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_errors_become_driver_errors() {
        assert_eq!(from_runtime(0), SUCCESS);
        assert_eq!(from_runtime(error::INVALID_VALUE), INVALID_VALUE);
        assert_eq!(from_runtime(error::MEMORY_ALLOCATION), OUT_OF_MEMORY);
        // Finer runtime codes below 100 are invalid values to the driver.
        assert_eq!(from_runtime(error::INVALID_DEVICE_POINTER), INVALID_VALUE);
        assert_eq!(from_runtime(error::INVALID_DEVICE_FUNCTION), INVALID_HANDLE);
        // From 100 up the two APIs share their codes.
        assert_eq!(from_runtime(error::INVALID_RESOURCE_HANDLE), INVALID_HANDLE);
        assert_eq!(from_runtime(error::ILLEGAL_ADDRESS), 700);
    }
}
