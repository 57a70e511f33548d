//! Devices: the one CPU device, its name, attributes (the runtime's `cudaDeviceAttr`
//! values are the driver's `CUdevice_attribute` values) and memory.

use super::{drv, out, rt, CuResult, Result, INVALID_DEVICE, INVALID_VALUE};
use crate::context::ctx;
use std::ffi::{c_char, c_int, c_uint, CStr};

/// A device the process sees (`crate::devices`); no device at all is
/// `CUDA_ERROR_NO_DEVICE` (100, as the runtime's code).
pub fn check_device(d: c_int) -> Result<()> {
    match crate::devices::check(d) {
        Ok(()) => Ok(()),
        Err(crate::devices::NO_DEVICE) => Err(crate::devices::NO_DEVICE),
        Err(_) => Err(INVALID_DEVICE),
    }
}

#[no_mangle]
pub extern "C" fn cuDeviceGet(dev: *mut c_int, ordinal: c_int) -> CuResult {
    drv(|| {
        check_device(ordinal)?;
        out(dev, ordinal)
    })
}

#[no_mangle]
pub extern "C" fn cuDeviceGetCount(n: *mut c_int) -> CuResult {
    drv(|| out(n, crate::devices::count().unwrap_or(0)))
}

/// The device's name as `cudaDeviceProp::name` has it (the first field of the struct).
fn name() -> String {
    let p = ctx().props().as_ptr() as *const c_char;
    unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
}

#[no_mangle]
pub extern "C" fn cuDeviceGetName(buf: *mut c_char, len: c_int, d: c_int) -> CuResult {
    drv(|| {
        check_device(d)?;
        if buf.is_null() || len <= 0 {
            return Err(INVALID_VALUE);
        }
        let n = name();
        let k = n.len().min(len as usize - 1);
        unsafe {
            std::ptr::copy_nonoverlapping(n.as_ptr() as *const c_char, buf, k);
            *buf.add(k) = 0;
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuDeviceGetAttribute(v: *mut c_int, attr: c_int, d: c_int) -> CuResult {
    drv(|| {
        check_device(d)?;
        let x = match super::vmm::attribute(attr) {
            Some(x) => x,
            None => ctx().props().attribute(attr).map_err(|_| INVALID_VALUE)?,
        };
        out(v, x)
    })
}

#[no_mangle]
pub extern "C" fn cuDeviceTotalMem_v2(bytes: *mut usize, d: c_int) -> CuResult {
    drv(|| {
        check_device(d)?;
        out(bytes, ctx().device.total_memory())
    })
}

#[no_mangle]
pub extern "C" fn cuDeviceTotalMem(bytes: *mut usize, d: c_int) -> CuResult {
    cuDeviceTotalMem_v2(bytes, d)
}

#[no_mangle]
pub extern "C" fn cuDeviceComputeCapability(major: *mut c_int, minor: *mut c_int, d: c_int) -> CuResult {
    drv(|| {
        check_device(d)?;
        let (a, b) = ctx().device.compute_capability();
        out(major, a)?;
        out(minor, b)
    })
}

/// `CUuuid`: 16 bytes, the same as `cudaDeviceProp::uuid`.
#[no_mangle]
pub extern "C" fn cuDeviceGetUuid(uuid: *mut [u8; 16], d: c_int) -> CuResult {
    drv(|| {
        check_device(d)?;
        let mut prop = vec![0u8; crate::props::PropBuf::size()];
        rt(crate::api::device::cudaGetDeviceProperties(prop.as_mut_ptr() as *mut _, 0))?;
        // cudaDeviceProp: char name[256]; cudaUUID_t uuid; ...
        let mut u = [0u8; 16];
        u.copy_from_slice(&prop[256..272]);
        out(uuid, u)
    })
}

#[no_mangle]
pub extern "C" fn cuDeviceGetUuid_v2(uuid: *mut [u8; 16], d: c_int) -> CuResult {
    cuDeviceGetUuid(uuid, d)
}

#[no_mangle]
pub extern "C" fn cuDeviceGetPCIBusId(buf: *mut c_char, len: c_int, d: c_int) -> CuResult {
    drv(|| {
        check_device(d)?;
        rt(crate::api::device::cudaDeviceGetPCIBusId(buf, len, d))
    })
}

#[no_mangle]
pub extern "C" fn cuDeviceCanAccessPeer(can: *mut c_int, d: c_int, peer: c_int) -> CuResult {
    drv(|| {
        check_device(d)?;
        check_device(peer)?;
        out(can, (d != peer) as c_int)
    })
}

#[no_mangle]
pub extern "C" fn cuDeviceGetDefaultMemPool(_pool: *mut *mut std::ffi::c_void, d: c_int) -> CuResult {
    drv(|| {
        check_device(d)?;
        Err(super::NOT_SUPPORTED)
    })
}

#[no_mangle]
pub extern "C" fn cuDeviceGetExecAffinitySupport(v: *mut c_int, _ty: c_uint, d: c_int) -> CuResult {
    drv(|| {
        check_device(d)?;
        out(v, 0)
    })
}
