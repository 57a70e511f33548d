//! Memory pools shared between processes on the GPU device: device memory is the
//! driver's, so a pool created with `cudaMemHandleTypePosixFileDescriptor` is a driver
//! pool of that handle type (`cuMemPoolCreate`), its shareable handle the driver's
//! descriptor, and its allocations' export data the driver's 64 bytes. Allocations and
//! imported pointers are known to the runtime as device memory until they are freed.
//! (On the CPU device the same API is `crate::mempool_ipc`'s memfd.)

use super::driver::*;
use super::GpuDevice;
use crate::error::{self, Result};
use crate::memory::{self, Kind};
use std::collections::HashMap;
use std::ffi::{c_int, c_void};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// `CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR`, `CU_MEM_ALLOCATION_TYPE_PINNED`,
/// `CU_MEM_LOCATION_TYPE_DEVICE`.
const POSIX_FD: c_int = 1;
const PINNED: c_int = 1;
const ON_DEVICE: c_int = 1;

/// One shareable driver pool of this process (created here or imported).
pub struct GpuPool {
    handle: usize,
    pub imported: bool,
}

/// Allocations of shareable pools in this process: address → made here (else imported).
fn allocations() -> MutexGuard<'static, HashMap<usize, bool>> {
    static M: OnceLock<Mutex<HashMap<usize, bool>>> = OnceLock::new();
    M.get_or_init(|| Mutex::new(HashMap::new())).lock().unwrap_or_else(|e| e.into_inner())
}

impl GpuDevice {
    /// The driver's work is done: a pool allocation or free is stream-ordered there, and
    /// the runtime hands out and frees this memory at once (its own streams ordered it
    /// already). A whole-context wait, acceptable for the rare shareable pool.
    fn settle(&self) -> Result<()> {
        self.result(unsafe { (self.drv.ctx_synchronize)() })
    }

    /// `cudaMemPoolCreate` with a POSIX file descriptor handle type.
    pub fn pool_create(&self, device: c_int) -> Result<GpuPool> {
        self.current();
        let props = MemPoolProps {
            alloc_type: PINNED,
            handle_types: POSIX_FD,
            location_type: ON_DEVICE,
            location_id: device,
            win32_security_attributes: std::ptr::null_mut(),
            max_size: 0,
            usage: 0,
            reserved: [0; 54],
        };
        let mut pool: CUmemoryPool = std::ptr::null_mut();
        self.result(unsafe { (self.drv.mem_pool_create)(&mut pool, &props) })?;
        Ok(GpuPool { handle: pool as usize, imported: false })
    }

    /// `cudaMemPoolImportFromShareableHandle`: `fd` is the exporter's descriptor, sent
    /// to this process.
    pub fn pool_import(&self, fd: c_int) -> Result<GpuPool> {
        if fd < 0 {
            return Err(error::INVALID_VALUE);
        }
        self.current();
        let mut pool: CUmemoryPool = std::ptr::null_mut();
        self.result(unsafe { (self.drv.mem_pool_import_from_shareable_handle)(&mut pool, fd as isize as *mut c_void, POSIX_FD, 0) })?;
        Ok(GpuPool { handle: pool as usize, imported: true })
    }

    /// `cudaMemPoolExportToShareableHandle`: a new descriptor the caller owns.
    pub fn pool_export_fd(&self, pool: &GpuPool) -> Result<c_int> {
        if pool.imported {
            return Err(error::INVALID_VALUE);
        }
        self.current();
        let mut fd: c_int = -1;
        self.result(unsafe { (self.drv.mem_pool_export_to_shareable_handle)(&mut fd as *mut c_int as *mut c_void, pool.handle as CUmemoryPool, POSIX_FD, 0) })?;
        Ok(fd)
    }

    /// Allocates `size` bytes of a shareable pool now.
    pub fn pool_alloc(&self, pool: &GpuPool, size: usize) -> Result<*mut c_void> {
        if pool.imported {
            return Err(error::INVALID_VALUE);
        }
        self.current();
        let mut p: CUdeviceptr = 0;
        self.result(unsafe { (self.drv.mem_alloc_from_pool_async)(&mut p, size.max(1), pool.handle as CUmemoryPool, std::ptr::null_mut()) })?;
        self.settle()?;
        memory::track_foreign(p as usize, size.max(1), Kind::Device);
        allocations().insert(p as usize, true);
        Ok(p as *mut c_void)
    }

    /// `cudaMemPoolImportPointer`: the exported allocation in this (importing) process.
    pub fn pool_import_pointer(&self, pool: &GpuPool, data: &[u8; 64]) -> Result<*mut c_void> {
        if !pool.imported {
            return Err(error::INVALID_VALUE);
        }
        self.current();
        let mut bytes = *data;
        let mut p: CUdeviceptr = 0;
        self.result(unsafe { (self.drv.mem_pool_import_pointer)(&mut p, pool.handle as CUmemoryPool, &mut bytes) })?;
        self.track_mapping(p);
        allocations().insert(p as usize, false);
        Ok(p as *mut c_void)
    }

    /// `cudaMemPoolExportPointer`: `ptr` must start an allocation of a shareable pool
    /// made in this process.
    pub fn pool_export_pointer(&self, ptr: *const c_void) -> Result<[u8; 64]> {
        if allocations().get(&(ptr as usize)) != Some(&true) {
            return Err(error::INVALID_VALUE);
        }
        self.current();
        let mut data = [0u8; 64];
        self.result(unsafe { (self.drv.mem_pool_export_pointer)(&mut data, ptr as CUdeviceptr) })?;
        Ok(data)
    }

    /// Frees `ptr` if it is shareable pool memory (made here or imported); false when it
    /// is not such memory.
    pub fn pool_release(&self, ptr: *mut c_void) -> bool {
        if allocations().remove(&(ptr as usize)).is_none() {
            return false;
        }
        let _ = memory::untrack_foreign(ptr, &|k| k == Kind::Device);
        self.current();
        unsafe {
            (self.drv.mem_free_async)(ptr as CUdeviceptr, std::ptr::null_mut());
        }
        let _ = self.settle();
        true
    }

    /// `cudaMemPoolDestroy` of a shareable pool.
    pub fn pool_destroy(&self, pool: &GpuPool) {
        self.current();
        unsafe {
            (self.drv.mem_pool_destroy)(pool.handle as CUmemoryPool);
        }
    }
}

impl Drop for GpuPool {
    /// The driver keeps the pool's memory until its allocations are freed.
    fn drop(&mut self) {
        if let Some(g) = super::active() {
            g.pool_destroy(self);
        }
    }
}
