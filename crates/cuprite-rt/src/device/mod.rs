//! The device abstraction: the CPU now, a real GPU later. The runtime's API layer talks
//! to a `Device`; streams order work for it.

pub mod cpu;

use crate::error::Result;
use crate::launch::PreparedLaunch;
use crate::memory::Kind;
use std::ffi::c_void;

pub trait Device: Send + Sync {
    /// Compute capability the device reports and enforces the limits of.
    fn compute_capability(&self) -> (i32, i32);
    fn multiprocessor_count(&self) -> i32;
    fn total_memory(&self) -> usize;
    fn free_memory(&self) -> usize;

    fn alloc(&self, size: usize, kind: Kind) -> Result<*mut c_void>;
    fn free(&self, ptr: *mut c_void, accept: &dyn Fn(Kind) -> bool) -> Result<()>;
    /// Releases every device allocation (device reset).
    fn release_all(&self);

    /// Copies within the device's address space (any direction: the CPU device's memory
    /// is host memory). Faults become errors.
    fn copy(&self, dst: *mut c_void, src: *const c_void, n: usize) -> Result<()>;
    fn memset(&self, dst: *mut c_void, value: i32, n: usize) -> Result<()>;

    /// Runs a validated launch to completion. A device fault is reported (stderr) and
    /// returned as its cudaError_t.
    fn execute(&self, launch: &PreparedLaunch) -> Result<()>;
}
