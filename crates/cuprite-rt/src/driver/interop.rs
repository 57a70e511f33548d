//! Runtime/driver interoperability in the runtime API: `cudaGetFuncBySymbol` (a kernel's
//! host stub is its `CUfunction`) and `cudaGetDriverEntryPoint` (the driver's table).

use crate::error::{self, api, CudaError};
use std::ffi::{c_char, c_int, c_ulonglong, c_void};

#[no_mangle]
pub extern "C" fn cudaGetFuncBySymbol(f: *mut *mut c_void, symbol: *const c_void) -> CudaError {
    api(|| {
        if f.is_null() {
            return Err(error::INVALID_VALUE);
        }
        crate::registry::kernel(symbol).ok_or(error::INVALID_DEVICE_FUNCTION)?;
        unsafe { *f = symbol as *mut c_void };
        Ok(())
    })
}

/// `cudaDriverEntryPointQueryResult`: success 0, symbol not found 1, version not
/// sufficient 2.
#[no_mangle]
pub extern "C" fn cudaGetDriverEntryPoint(symbol: *const c_char, f: *mut *mut c_void, _flags: c_ulonglong, status: *mut c_int) -> CudaError {
    cudaGetDriverEntryPointByVersion(symbol, f, 13000, _flags, status)
}

#[no_mangle]
pub extern "C" fn cudaGetDriverEntryPointByVersion(symbol: *const c_char, f: *mut *mut c_void, version: u32, _flags: c_ulonglong, status: *mut c_int) -> CudaError {
    api(|| {
        if symbol.is_null() || f.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let name = unsafe { std::ffi::CStr::from_ptr(symbol) }.to_string_lossy();
        let found = super::procs::lookup(&name, version as i32);
        unsafe { *f = found.unwrap_or(std::ptr::null_mut()) };
        if !status.is_null() {
            unsafe { *status = if found.is_some() { 0 } else { 1 } };
        }
        Ok(())
    })
}
