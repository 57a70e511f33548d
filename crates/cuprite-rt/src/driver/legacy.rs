//! Peer access between contexts, and entry points of the CUDA 2.x–4.x driver API that CUDA 13's `libcuda` still exports
//! (deprecated, but programs of that era and dynamic loaders such as cuda-samples'
//! matrixMulDynlinkJIT look them up): context attach/detach, `cuDeviceGetProperties`,
//! shared-memory bank configuration, `cuParamSetTexRef`, peer copies between contexts,
//! the profiler switches and `cuGetExportTable`.

use super::context::{self, device_of, require};
use super::{drv, out, rt, CuResult, Result, INVALID_CONTEXT, INVALID_VALUE};
use crate::api::{device as rtd, launch as rtl, memory as rtm};
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::sync::Mutex;

/// `CUdevprop`.
#[repr(C)]
pub struct DevProp {
    max_threads_per_block: c_int,
    max_threads_dim: [c_int; 3],
    max_grid_size: [c_int; 3],
    shared_mem_per_block: c_int,
    total_constant_memory: c_int,
    simd_width: c_int,
    mem_pitch: c_int,
    regs_per_block: c_int,
    clock_rate: c_int,
    texture_align: c_int,
}

#[no_mangle]
pub extern "C" fn cuDeviceGetProperties(p: *mut DevProp, dev: c_int) -> CuResult {
    drv(|| {
        if p.is_null() {
            return Err(INVALID_VALUE);
        }
        // CUdevice_attribute numbers 1 … 14, in the order of CUdevprop's fields.
        let mut v = [0 as c_int; 14];
        for (i, slot) in v.iter_mut().enumerate() {
            match super::device::cuDeviceGetAttribute(slot, i as c_int + 1, dev) {
                0 => {}
                e => return Err(e),
            }
        }
        out(
            p,
            DevProp {
                max_threads_per_block: v[0],
                max_threads_dim: [v[1], v[2], v[3]],
                max_grid_size: [v[4], v[5], v[6]],
                shared_mem_per_block: v[7],
                total_constant_memory: v[8],
                simd_width: v[9],
                mem_pitch: v[10],
                regs_per_block: v[11],
                clock_rate: v[12],
                texture_align: v[13],
            },
        )
    })
}

#[no_mangle]
pub extern "C" fn cuDeviceGetByPCIBusId(dev: *mut c_int, id: *const c_char) -> CuResult {
    drv(|| {
        if id.is_null() {
            return Err(INVALID_VALUE);
        }
        rt(rtd::cudaDeviceGetByPCIBusId(dev, id))
    })
}

/// Attach counts of contexts (`cuCtxAttach` adds one, `cuCtxDetach` takes one; a
/// context detached with none left is destroyed, as its creation counted as one).
static ATTACHED: Mutex<Option<HashMap<usize, u32>>> = Mutex::new(None);

#[no_mangle]
pub extern "C" fn cuCtxAttach(pctx: *mut usize, flags: c_uint) -> CuResult {
    drv(|| {
        if pctx.is_null() || flags != 0 {
            return Err(INVALID_VALUE);
        }
        let h = context::current().ok_or(INVALID_CONTEXT)?;
        *ATTACHED.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert_with(HashMap::new).entry(h).or_insert(0) += 1;
        out(pctx, h)
    })
}

#[no_mangle]
pub extern "C" fn cuCtxDetach(h: usize) -> CuResult {
    {
        let mut g = ATTACHED.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = g.get_or_insert_with(HashMap::new).get_mut(&h).filter(|n| **n > 0) {
            *n -= 1;
            return 0;
        }
    }
    context::cuCtxDestroy_v2(h)
}

#[no_mangle]
pub extern "C" fn cuCtxGetSharedMemConfig(p: *mut c_int) -> CuResult {
    drv(|| {
        require()?;
        rt(rtd::cudaDeviceGetSharedMemConfig(p))
    })
}

#[no_mangle]
pub extern "C" fn cuCtxSetSharedMemConfig(cfg: c_int) -> CuResult {
    drv(|| {
        require()?;
        rt(rtd::cudaDeviceSetSharedMemConfig(cfg))
    })
}

#[no_mangle]
pub extern "C" fn cuFuncSetSharedMemConfig(f: usize, cfg: c_int) -> CuResult {
    drv(|| {
        require()?;
        rt(rtl::cudaFuncSetSharedMemConfig(f as *const c_void, cfg))
    })
}

/// Texture units of the pre-3.0 launch API: a module's references are bound in the
/// module already, so only CU_PARAM_TR_DEFAULT (-1) and a live reference are accepted.
#[no_mangle]
pub extern "C" fn cuParamSetTexRef(f: usize, texunit: c_int, texref: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        if f == 0 || texunit != -1 {
            return Err(INVALID_VALUE);
        }
        super::texref::check_texref(texref)
    })
}

fn peer_copy(dst: u64, dst_ctx: usize, src: u64, src_ctx: usize, n: usize, stream: Option<*mut c_void>) -> Result<()> {
    require()?;
    if !context::is_live(dst_ctx) || !context::is_live(src_ctx) {
        return Err(INVALID_CONTEXT);
    }
    let (dd, sd) = (device_of(dst_ctx), device_of(src_ctx));
    match stream {
        None => rt(rtm::cudaMemcpyPeer(dst as *mut c_void, dd, src as *const c_void, sd, n)),
        Some(s) => rt(rtm::cudaMemcpyPeerAsync(dst as *mut c_void, dd, src as *const c_void, sd, n, s)),
    }
}

#[no_mangle]
pub extern "C" fn cuMemcpyPeer(dst: u64, dst_ctx: usize, src: u64, src_ctx: usize, n: usize) -> CuResult {
    drv(|| peer_copy(dst, dst_ctx, src, src_ctx, n, None))
}

#[no_mangle]
pub extern "C" fn cuMemcpyPeerAsync(dst: u64, dst_ctx: usize, src: u64, src_ctx: usize, n: usize, s: *mut c_void) -> CuResult {
    drv(|| peer_copy(dst, dst_ctx, src, src_ctx, n, Some(s)))
}

/// Profiler collection switches: with no profiler attached they do nothing, as CUDA's.
#[no_mangle]
pub extern "C" fn cuProfilerStart() -> CuResult {
    drv(|| rt(rtd::cudaProfilerStart()))
}

#[no_mangle]
pub extern "C" fn cuProfilerStop() -> CuResult {
    drv(|| rt(rtd::cudaProfilerStop()))
}

/// The runtime's private tables of NVIDIA's driver: Cuprite's runtime needs none, and no
/// other caller has a documented use for one, so every id is unknown.
#[no_mangle]
pub extern "C" fn cuGetExportTable(table: *mut *const c_void, id: *const c_void) -> CuResult {
    drv(|| {
        if table.is_null() || id.is_null() {
            return Err(INVALID_VALUE);
        }
        unsafe { *table = std::ptr::null() };
        Err(INVALID_VALUE)
    })
}

/// Peer access from the current context's device to `peer`'s (the runtime's rules and
/// codes: itself → CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, twice → …_ALREADY_ENABLED).
#[no_mangle]
pub extern "C" fn cuCtxEnablePeerAccess(peer: usize, flags: c_uint) -> CuResult {
    drv(|| {
        require()?;
        if !context::is_live(peer) {
            return Err(INVALID_CONTEXT);
        }
        rt(rtd::cudaDeviceEnablePeerAccess(device_of(peer), flags))
    })
}

#[no_mangle]
pub extern "C" fn cuCtxDisablePeerAccess(peer: usize) -> CuResult {
    drv(|| {
        require()?;
        if !context::is_live(peer) {
            return Err(INVALID_CONTEXT);
        }
        rt(rtd::cudaDeviceDisablePeerAccess(device_of(peer)))
    })
}
