//! Device management: count, selection, properties, attributes, limits, versions,
//! synchronisation and reset.

use super::out;
use crate::context::{ctx, DEFAULT_STACK_LIMIT};
use crate::error::{self, api, CudaError};
use crate::props::PropBuf;
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::sync::atomic::Ordering;

pub const RUNTIME_VERSION: c_int = 13000;
pub const DRIVER_VERSION: c_int = 13000;

use crate::devices;

/// A device the process sees (`devices.rs`: `CUPRITE_DEVICE_COUNT`, `CUDA_VISIBLE_DEVICES`).
fn check_device(d: c_int) -> error::Result<()> {
    devices::check(d)
}

#[no_mangle]
pub extern "C" fn cudaGetDeviceCount(count: *mut c_int) -> CudaError {
    api(|| out(count, devices::count()?))
}

/// Every device is a view of the one CPU device state, so selecting one changes which
/// device the thread's calls name (and its driver context), not where work runs.
#[no_mangle]
pub extern "C" fn cudaSetDevice(d: c_int) -> CudaError {
    api(|| {
        check_device(d)?;
        let _ = ctx();
        devices::set_current(d);
        crate::driver::context::follow_runtime_device(d);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaGetDevice(d: *mut c_int) -> CudaError {
    api(|| {
        devices::count()?;
        out(d, devices::current())
    })
}

#[no_mangle]
pub extern "C" fn cudaInitDevice(d: c_int, _device_flags: c_uint, _flags: c_uint) -> CudaError {
    api(|| check_device(d))
}

#[no_mangle]
pub extern "C" fn cudaGetDeviceProperties(prop: *mut c_void, d: c_int) -> CudaError {
    api(|| {
        if prop.is_null() {
            return Err(error::INVALID_VALUE);
        }
        check_device(d)?;
        let p = ctx().props();
        unsafe { std::ptr::copy_nonoverlapping(p.as_ptr() as *const u8, prop as *mut u8, PropBuf::size()) };
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaGetDeviceProperties_v2(prop: *mut c_void, d: c_int) -> CudaError {
    cudaGetDeviceProperties(prop, d)
}

#[no_mangle]
pub extern "C" fn cudaDeviceGetAttribute(value: *mut c_int, attr: c_int, d: c_int) -> CudaError {
    api(|| {
        if value.is_null() {
            return Err(error::INVALID_VALUE);
        }
        check_device(d)?;
        let v = ctx().props().attribute(attr)?;
        out(value, v)
    })
}

#[no_mangle]
pub extern "C" fn cudaChooseDevice(d: *mut c_int, prop: *const c_void) -> CudaError {
    api(|| {
        if prop.is_null() {
            return Err(error::INVALID_VALUE);
        }
        out(d, 0)
    })
}

#[no_mangle]
pub extern "C" fn cudaSetDeviceFlags(flags: c_uint) -> CudaError {
    api(|| {
        if flags & !0xff != 0 {
            return Err(error::INVALID_VALUE);
        }
        ctx().device_flags.store(flags | 0x8, Ordering::Relaxed);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaGetDeviceFlags(flags: *mut c_uint) -> CudaError {
    api(|| out(flags, ctx().device_flags.load(Ordering::Relaxed)))
}

#[no_mangle]
pub extern "C" fn cudaSetValidDevices(devs: *mut c_int, len: c_int) -> CudaError {
    api(|| {
        for i in 0..len.max(0) as usize {
            check_device(unsafe { *devs.add(i) })?;
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaDeviceSynchronize() -> CudaError {
    api(|| {
        crate::graph::capture::refuse_unsafe()?;
        ctx().synchronize()
    })
}

#[no_mangle]
pub extern "C" fn cudaThreadSynchronize() -> CudaError {
    cudaDeviceSynchronize()
}

#[no_mangle]
pub extern "C" fn cudaDeviceReset() -> CudaError {
    api(|| {
        let c = ctx();
        crate::stream::wait_all_streams();
        crate::printf::flush();
        c.device.release_all();
        crate::registry::reset_kernel_attributes();
        c.stack_limit.store(DEFAULT_STACK_LIMIT, Ordering::Relaxed);
        crate::memory::set_heap_limit(crate::memory::DEFAULT_HEAP_LIMIT);
        crate::printf::set_limit(8650752);
        c.cache_config.store(0, Ordering::Relaxed);
        c.clear_sticky();
        crate::devices::reset_peers();
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaThreadExit() -> CudaError {
    cudaDeviceReset()
}

const LIMIT_STACK: c_int = 0;
const LIMIT_PRINTF: c_int = 1;
const LIMIT_HEAP: c_int = 2;
const LIMIT_SYNC_DEPTH: c_int = 3;
const LIMIT_PENDING_LAUNCHES: c_int = 4;
const LIMIT_L2_FETCH: c_int = 5;
const LIMIT_PERSISTING_L2: c_int = 6;

#[no_mangle]
pub extern "C" fn cudaDeviceGetLimit(value: *mut usize, limit: c_int) -> CudaError {
    api(|| {
        let v = match limit {
            LIMIT_STACK => ctx().stack_limit.load(Ordering::Relaxed),
            LIMIT_PRINTF => crate::printf::limit(),
            LIMIT_HEAP => crate::memory::heap_limit(),
            LIMIT_SYNC_DEPTH => return Err(error::UNSUPPORTED_LIMIT),
            LIMIT_PENDING_LAUNCHES => 2048,
            LIMIT_L2_FETCH => 64,
            LIMIT_PERSISTING_L2 => 0,
            _ => return Err(error::INVALID_VALUE),
        };
        out(value, v)
    })
}

#[no_mangle]
pub extern "C" fn cudaDeviceSetLimit(limit: c_int, value: usize) -> CudaError {
    api(|| {
        match limit {
            LIMIT_STACK => ctx().stack_limit.store(value, Ordering::Relaxed),
            LIMIT_PRINTF => crate::printf::set_limit(value),
            LIMIT_HEAP => crate::memory::set_heap_limit(value),
            LIMIT_SYNC_DEPTH => return Err(error::UNSUPPORTED_LIMIT),
            LIMIT_PENDING_LAUNCHES | LIMIT_L2_FETCH | LIMIT_PERSISTING_L2 => {}
            _ => return Err(error::INVALID_VALUE),
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaThreadGetLimit(value: *mut usize, limit: c_int) -> CudaError {
    cudaDeviceGetLimit(value, limit)
}

#[no_mangle]
pub extern "C" fn cudaThreadSetLimit(limit: c_int, value: usize) -> CudaError {
    cudaDeviceSetLimit(limit, value)
}

#[no_mangle]
pub extern "C" fn cudaDeviceGetCacheConfig(cfg: *mut c_int) -> CudaError {
    api(|| out(cfg, ctx().cache_config.load(Ordering::Relaxed)))
}

#[no_mangle]
pub extern "C" fn cudaDeviceSetCacheConfig(cfg: c_int) -> CudaError {
    api(|| {
        if !(0..=3).contains(&cfg) {
            return Err(error::INVALID_VALUE);
        }
        ctx().cache_config.store(cfg, Ordering::Relaxed);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaThreadGetCacheConfig(cfg: *mut c_int) -> CudaError {
    cudaDeviceGetCacheConfig(cfg)
}

#[no_mangle]
pub extern "C" fn cudaThreadSetCacheConfig(cfg: c_int) -> CudaError {
    cudaDeviceSetCacheConfig(cfg)
}

#[no_mangle]
pub extern "C" fn cudaDeviceGetSharedMemConfig(cfg: *mut c_int) -> CudaError {
    api(|| out(cfg, ctx().shmem_config.load(Ordering::Relaxed)))
}

#[no_mangle]
pub extern "C" fn cudaDeviceSetSharedMemConfig(cfg: c_int) -> CudaError {
    api(|| {
        if !(0..=2).contains(&cfg) {
            return Err(error::INVALID_VALUE);
        }
        ctx().shmem_config.store(cfg, Ordering::Relaxed);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaDeviceGetStreamPriorityRange(least: *mut c_int, greatest: *mut c_int) -> CudaError {
    api(|| {
        if !least.is_null() {
            unsafe { *least = 0 };
        }
        if !greatest.is_null() {
            unsafe { *greatest = -5 };
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaDeviceGetPCIBusId(buf: *mut c_char, len: c_int, d: c_int) -> CudaError {
    api(|| {
        check_device(d)?;
        if buf.is_null() || len <= 0 {
            return Err(error::INVALID_VALUE);
        }
        let s = b"0000:00:00.0\0";
        let n = (len as usize).min(s.len());
        unsafe {
            std::ptr::copy_nonoverlapping(s.as_ptr() as *const c_char, buf, n);
            *buf.add(n - 1) = 0;
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaDeviceGetByPCIBusId(d: *mut c_int, _id: *const c_char) -> CudaError {
    api(|| out(d, 0))
}

#[no_mangle]
pub extern "C" fn cudaDeviceCanAccessPeer(can: *mut c_int, d: c_int, peer: c_int) -> CudaError {
    api(|| {
        check_device(d)?;
        check_device(peer)?;
        // Every device reaches every other's memory (it is all host memory).
        out(can, (d != peer) as c_int)
    })
}

/// Attributes of a link between two devices. There is one device, and CUDA answers
/// a device paired with itself with cudaErrorInvalidDevice.
#[no_mangle]
pub extern "C" fn cudaDeviceGetP2PAttribute(value: *mut c_int, attr: c_int, src: c_int, dst: c_int) -> CudaError {
    api(|| {
        // In CUDA 13's order (measured on an H100): the pointer, the devices, the attribute.
        if value.is_null() {
            return Err(error::INVALID_VALUE);
        }
        check_device(src)?;
        check_device(dst)?;
        if src == dst {
            return Err(error::INVALID_DEVICE);
        }
        if !(1..=4).contains(&attr) {
            return Err(error::INVALID_VALUE);
        }
        // Performance rank 0; access, native atomics and array access supported.
        out(value, (attr != 1) as c_int)
    })
}

#[no_mangle]
pub extern "C" fn cudaDeviceEnablePeerAccess(peer: c_int, flags: c_uint) -> CudaError {
    api(|| devices::enable_peer(peer, flags))
}

#[no_mangle]
pub extern "C" fn cudaDeviceDisablePeerAccess(peer: c_int) -> CudaError {
    api(|| devices::disable_peer(peer))
}

#[no_mangle]
pub extern "C" fn cudaDriverGetVersion(v: *mut c_int) -> CudaError {
    api(|| out(v, DRIVER_VERSION))
}

#[no_mangle]
pub extern "C" fn cudaRuntimeGetVersion(v: *mut c_int) -> CudaError {
    api(|| out(v, RUNTIME_VERSION))
}

#[no_mangle]
pub extern "C" fn cudaProfilerStart() -> CudaError {
    0
}

#[no_mangle]
pub extern "C" fn cudaProfilerStop() -> CudaError {
    0
}
