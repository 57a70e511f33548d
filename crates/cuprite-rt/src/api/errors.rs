//! cudaGetLastError, cudaPeekAtLastError, cudaGetErrorString, cudaGetErrorName.

use crate::error::{self, CudaError};
use std::ffi::c_char;

#[no_mangle]
pub extern "C" fn cudaGetLastError() -> CudaError {
    error::guard(error::UNKNOWN, error::take_last)
}

#[no_mangle]
pub extern "C" fn cudaPeekAtLastError() -> CudaError {
    error::guard(error::UNKNOWN, error::peek_last)
}

#[no_mangle]
pub extern "C" fn cudaGetErrorString(e: CudaError) -> *const c_char {
    error::guard(std::ptr::null(), || error::message_ptr(e))
}

#[no_mangle]
pub extern "C" fn cudaGetErrorName(e: CudaError) -> *const c_char {
    error::guard(std::ptr::null(), || error::name_ptr(e))
}
