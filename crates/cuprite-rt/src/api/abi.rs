//! The device-side ABI functions implemented in Rust (cuprite_abi.h); the ones that
//! must be C (printf, assert, trap, clock) are in csrc/guard.c.

use crate::abi::ModuleDesc;
use crate::error;
use std::ffi::c_void;

#[no_mangle]
pub unsafe extern "C" fn __cuprite_register_module(m: *const ModuleDesc) {
    error::guard((), || crate::registry::register_module(m))
}

#[no_mangle]
pub extern "C" fn __cuprite_device_malloc(size: usize) -> *mut c_void {
    error::guard(std::ptr::null_mut(), || crate::memory::device_malloc(size))
}

#[no_mangle]
pub extern "C" fn __cuprite_device_free(p: *mut c_void) {
    error::guard((), || crate::memory::device_free(p))
}

/// Contract addition: the generated code may tell the runtime the `-arch` it was built
/// for (e.g. 75, 90) before the first runtime call; the CPU device then reports and
/// enforces that compute capability's limits.
#[no_mangle]
pub extern "C" fn __cuprite_set_target_arch(sm: u32) {
    crate::context::set_target_arch(sm)
}
