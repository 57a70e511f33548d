//! The `extern "C"` functions of the runtime API. Each is thin: argument checks, then
//! the runtime's modules. None panics across the boundary (`error::api`).

pub mod abi;
pub mod array;
pub mod device;
pub mod errors;
pub mod event;
pub mod graph;
pub mod ipc;
pub mod launch;
pub mod memory;
pub mod mempool;
pub mod stream;
pub mod symbol;
pub mod texref;
pub mod surfref;
pub mod texture;

use crate::error::{self, Result};

/// Writes through an out-pointer, or cudaErrorInvalidValue if it is null.
pub(crate) fn out<T>(p: *mut T, v: T) -> Result<()> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    unsafe { p.write(v) };
    Ok(())
}
