//! Stream-ordered allocation: cudaMallocAsync, cudaFreeAsync and memory pools.

use super::out;
use crate::context::ctx;
use crate::error::{self, api, CudaError, Result};
use crate::graph::capture;
use crate::mempool::{self, attr, MemPool};
use crate::mempool_ipc;
use crate::stream::{self, Op, SendPtr};
use std::ffi::{c_int, c_uint, c_void};
use std::sync::Arc;

fn malloc_async(p: *mut *mut c_void, size: usize, pool: &Arc<MemPool>, s: *mut c_void) -> Result<()> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    let st = stream::resolve(s)?;
    ctx().check()?;
    crate::api::stream::check_capture_rules(&st)?;
    if size == 0 {
        return out(p, std::ptr::null_mut());
    }
    if st.is_capturing() {
        // Captured: the allocation belongs to the graph, at an address fixed now.
        return out(p, capture::add_alloc_node(&st, size)?);
    }
    out(p, mempool::alloc(pool, size)?)
}

#[no_mangle]
pub extern "C" fn cudaMallocAsync(p: *mut *mut c_void, size: usize, s: *mut c_void) -> CudaError {
    api(|| malloc_async(p, size, &mempool::current(), s))
}

#[no_mangle]
pub extern "C" fn cudaMallocFromPoolAsync(p: *mut *mut c_void, size: usize, pool: *mut c_void, s: *mut c_void) -> CudaError {
    api(|| malloc_async(p, size, &mempool::resolve(pool)?, s))
}

#[no_mangle]
pub extern "C" fn cudaFreeAsync(p: *mut c_void, s: *mut c_void) -> CudaError {
    api(|| {
        let st = stream::resolve(s)?;
        ctx().check()?;
        if p.is_null() {
            return Ok(());
        }
        if !mempool::freeable(p) {
            return Err(error::INVALID_VALUE);
        }
        crate::api::stream::check_capture_rules(&st)?;
        st.submit(Op::Free(SendPtr(p)));
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaDeviceGetDefaultMemPool(pool: *mut *mut c_void, device: c_int) -> CudaError {
    api(|| {
        crate::devices::check(device)?;
        out(pool, mempool::handle(mempool::default_pool()))
    })
}

#[no_mangle]
pub extern "C" fn cudaDeviceGetMemPool(pool: *mut *mut c_void, device: c_int) -> CudaError {
    api(|| {
        crate::devices::check(device)?;
        out(pool, mempool::handle(&mempool::current()))
    })
}

#[no_mangle]
pub extern "C" fn cudaDeviceSetMemPool(device: c_int, pool: *mut c_void) -> CudaError {
    api(|| {
        crate::devices::check(device)?;
        mempool::set_current(pool)
    })
}

/// `cudaMemPoolProps` as far as it is read: allocation type and location.
#[repr(C)]
pub struct PoolProps {
    alloc_type: c_int,
    handle_types: c_int,
    loc_type: c_int,
    loc_id: c_int,
    rest: [u64; 9],
}

#[no_mangle]
pub extern "C" fn cudaMemPoolCreate(pool: *mut *mut c_void, props: *const PoolProps) -> CudaError {
    api(|| {
        if pool.is_null() || props.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let p = unsafe { &*props };
        // Pinned device memory of device 0 is what a pool can hold here.
        if p.alloc_type != 1 || p.loc_type != 1 {
            return Err(error::INVALID_VALUE);
        }
        crate::devices::check(p.loc_id)?;
        let shared = match (p.handle_types, crate::gpu::active()) {
            (0, _) => None,
            // POSIX file descriptors: on the GPU device a driver pool of that handle
            // type; on the CPU device a memfd (its memory is this machine's).
            (mempool_ipc::HANDLE_TYPE_POSIX_FD, Some(g)) => return out(pool, mempool::create_on_gpu(g.pool_create(p.loc_id)?)),
            (mempool_ipc::HANDLE_TYPE_POSIX_FD, None) => Some(mempool_ipc::Backing::create()?),
            _ => return Err(error::NOT_SUPPORTED),
        };
        out(pool, mempool::create(shared))
    })
}

/// `cudaMemPoolExportToShareableHandle`: for a POSIX file descriptor, `handle` points to
/// an `int` that receives a new descriptor, which the caller owns.
#[no_mangle]
pub extern "C" fn cudaMemPoolExportToShareableHandle(handle: *mut c_void, pool: *mut c_void, kind: c_int, flags: c_uint) -> CudaError {
    api(|| {
        let p = mempool::resolve(pool)?;
        if handle.is_null() || flags != 0 || kind != mempool_ipc::HANDLE_TYPE_POSIX_FD {
            return Err(error::INVALID_VALUE);
        }
        // A pool made without that handle type cannot be shared.
        if let (Some(g), Some(dev)) = (&p.gpu_shared, crate::gpu::active()) {
            return out(handle as *mut c_int, dev.pool_export_fd(g)?);
        }
        let b = p.shared.as_ref().ok_or(error::INVALID_VALUE)?;
        out(handle as *mut c_int, b.export_fd()?)
    })
}

/// `cudaMemPoolImportFromShareableHandle`: for a POSIX file descriptor, `handle` is the
/// descriptor itself cast to a pointer. The caller may close it afterwards.
#[no_mangle]
pub extern "C" fn cudaMemPoolImportFromShareableHandle(pool: *mut *mut c_void, handle: *mut c_void, kind: c_int, flags: c_uint) -> CudaError {
    api(|| {
        if pool.is_null() || flags != 0 || kind != mempool_ipc::HANDLE_TYPE_POSIX_FD {
            return Err(error::INVALID_VALUE);
        }
        ctx().check()?;
        if let Some(dev) = crate::gpu::active() {
            return out(pool, mempool::create_on_gpu(dev.pool_import(handle as usize as c_int)?));
        }
        let b = mempool_ipc::Backing::import(handle as usize as c_int)?;
        out(pool, mempool::create(Some(b)))
    })
}

#[no_mangle]
pub extern "C" fn cudaMemPoolExportPointer(data: *mut mempool_ipc::ExportData, ptr: *mut c_void) -> CudaError {
    api(|| {
        if data.is_null() {
            return Err(error::INVALID_VALUE);
        }
        if let Some(dev) = crate::gpu::active() {
            let bytes = dev.pool_export_pointer(ptr)?;
            return out(data as *mut [u8; 64], bytes);
        }
        out(data, mempool_ipc::export_pointer(ptr)?)
    })
}

#[no_mangle]
pub extern "C" fn cudaMemPoolImportPointer(ptr: *mut *mut c_void, pool: *mut c_void, data: *mut mempool_ipc::ExportData) -> CudaError {
    api(|| {
        let p = mempool::resolve(pool)?;
        if ptr.is_null() || data.is_null() {
            return Err(error::INVALID_VALUE);
        }
        if let (Some(g), Some(dev)) = (&p.gpu_shared, crate::gpu::active()) {
            return out(ptr, dev.pool_import_pointer(g, unsafe { &*(data as *const [u8; 64]) })?);
        }
        let b = p.shared.as_ref().ok_or(error::INVALID_VALUE)?;
        out(ptr, b.import_pointer(unsafe { &*data })?)
    })
}

#[no_mangle]
pub extern "C" fn cudaMemPoolDestroy(pool: *mut c_void) -> CudaError {
    api(|| mempool::destroy(pool))
}

#[no_mangle]
pub extern "C" fn cudaMemPoolTrimTo(pool: *mut c_void, keep: usize) -> CudaError {
    api(|| {
        mempool::resolve(pool)?.lock().trim(keep as u64);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaMemPoolSetAttribute(pool: *mut c_void, a: c_int, value: *mut c_void) -> CudaError {
    api(|| {
        let p = mempool::resolve(pool)?;
        if value.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let mut st = p.lock();
        match a {
            attr::REUSE_FOLLOW_EVENT_DEPENDENCIES..=attr::REUSE_ALLOW_INTERNAL_DEPENDENCIES => {
                st.reuse[(a - 1) as usize] = unsafe { *(value as *const c_int) }
            }
            attr::RELEASE_THRESHOLD => st.release_threshold = unsafe { *(value as *const u64) },
            // Only resetting the high-water marks (to the current value) is allowed.
            attr::RESERVED_MEM_HIGH | attr::USED_MEM_HIGH => {
                if unsafe { *(value as *const u64) } != 0 {
                    return Err(error::INVALID_VALUE);
                }
                if a == attr::RESERVED_MEM_HIGH {
                    st.reserved_high = st.reserved();
                } else {
                    st.used_high = st.used;
                }
            }
            _ => return Err(error::INVALID_VALUE),
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaMemPoolGetAttribute(pool: *mut c_void, a: c_int, value: *mut c_void) -> CudaError {
    api(|| {
        let p = mempool::resolve(pool)?;
        if value.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let st = p.lock();
        let v64 = |v: u64| unsafe { *(value as *mut u64) = v };
        match a {
            attr::REUSE_FOLLOW_EVENT_DEPENDENCIES..=attr::REUSE_ALLOW_INTERNAL_DEPENDENCIES => unsafe {
                *(value as *mut c_int) = st.reuse[(a - 1) as usize]
            },
            attr::RELEASE_THRESHOLD => v64(st.release_threshold),
            attr::RESERVED_MEM_CURRENT => v64(st.reserved()),
            attr::RESERVED_MEM_HIGH => v64(st.reserved_high),
            attr::USED_MEM_CURRENT => v64(st.used),
            attr::USED_MEM_HIGH => v64(st.used_high),
            _ => return Err(error::INVALID_VALUE),
        }
        Ok(())
    })
}

/// `cudaMemAccessDesc`: a location and its access flags.
#[repr(C)]
pub struct AccessDesc {
    loc_type: c_int,
    loc_id: c_int,
    flags: c_int,
}

#[no_mangle]
pub extern "C" fn cudaMemPoolSetAccess(pool: *mut c_void, descs: *const AccessDesc, n: usize) -> CudaError {
    api(|| {
        let p = mempool::resolve(pool)?;
        if n > 0 && descs.is_null() {
            return Err(error::INVALID_VALUE);
        }
        for i in 0..n {
            let d = unsafe { &*descs.add(i) };
            if d.loc_type != 1 || !matches!(d.flags, 0 | 1 | 3) {
                return Err(error::INVALID_VALUE);
            }
            crate::devices::check(d.loc_id)?;
            p.lock().access = d.flags;
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaMemPoolGetAccess(flags: *mut c_int, pool: *mut c_void, loc: *const [c_int; 2]) -> CudaError {
    api(|| {
        let p = mempool::resolve(pool)?;
        if loc.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let [t, id] = unsafe { *loc };
        if t != 1 {
            return Err(error::INVALID_VALUE);
        }
        crate::devices::check(id).map_err(|_| error::INVALID_VALUE)?;
        let a = p.lock().access;
        out(flags, a)
    })
}
