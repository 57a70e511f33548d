//! Launches: `<<<>>>` (push configuration + stub), cudaLaunchKernel, the legacy
//! configure/setup/launch trio, function attributes and occupancy.

use super::out;
use crate::abi::Dim3;
use crate::context::ctx;
use crate::error::{self, api, CudaError, Result};
use crate::launch::{self, CallConfig, PreparedLaunch};
use crate::registry;
use crate::stream::{self, Op};
use std::cell::RefCell;
use std::ffi::{c_int, c_uint, c_void};
use std::sync::atomic::Ordering;

/// Validates and enqueues one launch.
pub fn launch_kernel(
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *const *const c_void,
    shared: usize,
    st: *mut c_void,
) -> Result<()> {
    launch_kernel_with(func, grid, block, args, shared, st, false)
}

/// Validates and enqueues one launch, cooperative or not. A cooperative grid must be
/// co-resident as CUDA defines it: at most as many blocks as
/// `cudaOccupancyMaxActiveBlocksPerMultiprocessor × multiProcessorCount`.
pub fn launch_kernel_with(
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *const *const c_void,
    shared: usize,
    st: *mut c_void,
    cooperative: bool,
) -> Result<()> {
    let c = ctx();
    c.check()?;
    let k = registry::kernel(func).ok_or(error::INVALID_RESOURCE_HANDLE)?;
    if k.entry.is_none() {
        return Err(error::INVALID_DEVICE_FUNCTION);
    }
    launch::validate(&k, grid, block, shared, &c.props().limits())?;
    if cooperative {
        let per_sm = resident_blocks_per_sm(&k, c.props(), block.count() as c_int, shared, 0)?;
        let sms = c.props().attribute(16)?; // cudaDevAttrMultiProcessorCount
        if grid.count() > per_sm as u64 * sms.max(0) as u64 {
            return Err(error::COOPERATIVE_LAUNCH_TOO_LARGE);
        }
    }
    let s = stream::resolve(st)?;
    // A kernel runs on the current device: another device's stream is refused.
    if s.device != crate::devices::current() {
        return Err(error::INVALID_RESOURCE_HANDLE);
    }
    crate::api::stream::check_capture_rules(&s)?;
    let mut l = unsafe { PreparedLaunch::new(k, grid, block, shared, args)? };
    l.cooperative = cooperative;
    s.submit(Op::Launch(Box::new(l)));
    if c.launch_blocking() && !s.is_capturing() {
        s.synchronize();
        crate::printf::flush();
    }
    Ok(())
}

#[no_mangle]
pub extern "C" fn __cudaPushCallConfiguration(grid: Dim3, block: Dim3, shared: usize, st: *mut c_void) -> c_uint {
    error::guard(0, || {
        launch::push_config(CallConfig { grid, block, shared, stream: st });
        0
    })
}

#[no_mangle]
pub extern "C" fn __cudaPopCallConfiguration(
    grid: *mut Dim3,
    block: *mut Dim3,
    shared: *mut usize,
    st: *mut *mut c_void,
) -> CudaError {
    api(|| {
        let c = launch::pop_config().ok_or(error::MISSING_CONFIGURATION)?;
        if !grid.is_null() {
            unsafe { *grid = c.grid };
        }
        if !block.is_null() {
            unsafe { *block = c.block };
        }
        if !shared.is_null() {
            unsafe { *shared = c.shared };
        }
        if !st.is_null() {
            unsafe { *st = c.stream };
        }
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn __cuprite_launch_from_stub(stub: *const c_void, args: *mut *mut c_void) {
    api(|| {
        let c = launch::pop_config().ok_or(error::MISSING_CONFIGURATION)?;
        launch_kernel(stub, c.grid, c.block, args as *const *const c_void, c.shared, c.stream)
    });
}

#[no_mangle]
pub extern "C" fn cudaLaunchKernel(
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shared: usize,
    st: *mut c_void,
) -> CudaError {
    api(|| launch_kernel(func, grid, block, args as *const *const c_void, shared, st))
}

#[no_mangle]
pub extern "C" fn cudaLaunchCooperativeKernel(
    func: *const c_void,
    grid: Dim3,
    block: Dim3,
    args: *mut *mut c_void,
    shared: usize,
    st: *mut c_void,
) -> CudaError {
    api(|| launch_kernel_with(func, grid, block, args as *const *const c_void, shared, st, true))
}

/// `cudaLaunchAttribute`: an id, padding, and a 64-byte value union.
#[repr(C)]
pub struct LaunchAttribute {
    pub id: c_int,
    pad: [u8; 4],
    pub val: [u64; 8],
}

/// `cudaLaunchConfig_t`.
#[repr(C)]
pub struct LaunchConfig {
    pub grid: Dim3,
    pub block: Dim3,
    pub shared: usize,
    pub stream: *mut c_void,
    pub attrs: *const LaunchAttribute,
    pub num_attrs: c_uint,
}

/// Whether launch attributes ask for a cooperative launch (`cudaLaunchAttributeCooperative`
/// = `CU_LAUNCH_ATTRIBUTE_COOPERATIVE` = 2, its value an `int`); the others (clusters,
/// priorities, programmatic serialization) change nothing on the CPU device.
pub fn attrs_cooperative(attrs: *const LaunchAttribute, n: c_uint) -> Result<bool> {
    if n == 0 {
        return Ok(false);
    }
    if attrs.is_null() {
        return Err(error::INVALID_VALUE);
    }
    let a = unsafe { std::slice::from_raw_parts(attrs, n as usize) };
    Ok(a.iter().any(|a| a.id == 2 && a.val[0] as u32 != 0))
}

#[no_mangle]
pub extern "C" fn cudaLaunchKernelExC(cfg: *const LaunchConfig, func: *const c_void, args: *mut *mut c_void) -> CudaError {
    api(|| {
        let c = unsafe { cfg.as_ref() }.ok_or(error::INVALID_VALUE)?;
        let coop = attrs_cooperative(c.attrs, c.num_attrs)?;
        launch_kernel_with(func, c.grid, c.block, args as *const *const c_void, c.shared, c.stream, coop)
    })
}

// ---- legacy: cudaConfigureCall / cudaSetupArgument / cudaLaunch ------------------------

thread_local! {
    static ARG_STACK: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

#[no_mangle]
pub extern "C" fn cudaConfigureCall(grid: Dim3, block: Dim3, shared: usize, st: *mut c_void) -> CudaError {
    api(|| {
        launch::push_config(CallConfig { grid, block, shared, stream: st });
        let _ = ARG_STACK.try_with(|a| a.borrow_mut().clear());
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaSetupArgument(arg: *const c_void, size: usize, offset: usize) -> CudaError {
    api(|| {
        if arg.is_null() && size > 0 {
            return Err(error::INVALID_VALUE);
        }
        ARG_STACK
            .try_with(|a| {
                let mut a = a.borrow_mut();
                if a.len() < offset + size {
                    a.resize(offset + size, 0);
                }
                unsafe { std::ptr::copy_nonoverlapping(arg as *const u8, a.as_mut_ptr().add(offset), size) };
            })
            .map_err(|_| error::UNKNOWN)
    })
}

#[no_mangle]
pub extern "C" fn cudaLaunch(func: *const c_void) -> CudaError {
    api(|| {
        let c = launch::pop_config().ok_or(error::MISSING_CONFIGURATION)?;
        let k = registry::kernel(func).ok_or(error::INVALID_RESOURCE_HANDLE)?;
        let bytes = ARG_STACK.try_with(|a| std::mem::take(&mut *a.borrow_mut())).unwrap_or_default();
        let mut ptrs = Vec::with_capacity(k.param_sizes.len());
        let mut off = 0usize;
        for (i, &sz) in k.param_sizes.iter().enumerate() {
            let al = (k.param_aligns.get(i).copied().unwrap_or(1) as usize).max(1);
            off = (off + al - 1) & !(al - 1);
            if off + sz as usize > bytes.len() {
                return Err(error::INVALID_VALUE);
            }
            ptrs.push(unsafe { bytes.as_ptr().add(off) } as *const c_void);
            off += sz as usize;
        }
        launch_kernel(func, c.grid, c.block, ptrs.as_ptr(), c.shared, c.stream)
    })
}

// ---- function attributes ----------------------------------------------------------------

#[repr(C)]
pub struct FuncAttributes {
    pub shared_size_bytes: usize,
    pub const_size_bytes: usize,
    pub local_size_bytes: usize,
    pub max_threads_per_block: c_int,
    pub num_regs: c_int,
    pub ptx_version: c_int,
    pub binary_version: c_int,
    pub cache_mode_ca: c_int,
    pub max_dynamic_shared_size_bytes: c_int,
    pub preferred_shmem_carveout: c_int,
    pub cluster_dim_must_be_set: c_int,
    pub required_cluster_width: c_int,
    pub required_cluster_height: c_int,
    pub required_cluster_depth: c_int,
    pub cluster_scheduling_policy_preference: c_int,
    pub non_portable_cluster_size_allowed: c_int,
    pub reserved: [c_int; 16],
}

#[no_mangle]
pub extern "C" fn cudaFuncGetAttributes(attr: *mut FuncAttributes, func: *const c_void) -> CudaError {
    api(|| {
        if attr.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let c = ctx();
        c.check()?;
        let k = registry::kernel(func).ok_or(error::INVALID_RESOURCE_HANDLE)?;
        let lim = c.props().limits();
        let (major, minor) = c.device.compute_capability();
        let max_dyn = k.dynamic_shared_limit(&lim);
        let max_threads = if k.max_threads_per_block > 0 {
            k.max_threads_per_block.min(lim.max_threads_per_block)
        } else {
            lim.max_threads_per_block
        };
        out(
            attr,
            FuncAttributes {
                shared_size_bytes: k.static_shared_bytes as usize,
                const_size_bytes: 0,
                local_size_bytes: k.local_bytes_per_thread as usize,
                max_threads_per_block: max_threads as c_int,
                num_regs: NUM_REGS,
                ptx_version: major * 10 + minor,
                binary_version: major * 10 + minor,
                cache_mode_ca: 0,
                max_dynamic_shared_size_bytes: max_dyn as c_int,
                preferred_shmem_carveout: k.carveout.load(Ordering::Relaxed),
                cluster_dim_must_be_set: 0,
                required_cluster_width: 0,
                required_cluster_height: 0,
                required_cluster_depth: 0,
                cluster_scheduling_policy_preference: 0,
                non_portable_cluster_size_allowed: 0,
                reserved: [0; 16],
            },
        )
    })
}

const ATTR_MAX_DYNAMIC_SHARED: c_int = 8;
const ATTR_CARVEOUT: c_int = 9;

#[no_mangle]
pub extern "C" fn cudaFuncSetAttribute(func: *const c_void, attr: c_int, value: c_int) -> CudaError {
    api(|| {
        let c = ctx();
        c.check()?;
        let k = registry::kernel(func).ok_or(error::INVALID_RESOURCE_HANDLE)?;
        match attr {
            ATTR_MAX_DYNAMIC_SHARED => {
                let lim = c.props().limits();
                if value < 0 || value as u64 + k.static_shared_bytes > lim.shared_optin {
                    return Err(error::INVALID_VALUE);
                }
                k.max_dynamic_shared.store(value as u32, Ordering::Relaxed);
                Ok(())
            }
            ATTR_CARVEOUT => {
                if !(-1..=100).contains(&value) {
                    return Err(error::INVALID_VALUE);
                }
                k.carveout.store(value, Ordering::Relaxed);
                Ok(())
            }
            10..=15 => Ok(()),
            _ => Err(error::INVALID_VALUE),
        }
    })
}

#[no_mangle]
pub extern "C" fn cudaFuncSetCacheConfig(func: *const c_void, cfg: c_int) -> CudaError {
    api(|| {
        registry::kernel(func).ok_or(error::INVALID_RESOURCE_HANDLE)?;
        if !(0..=3).contains(&cfg) {
            return Err(error::INVALID_VALUE);
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaFuncSetSharedMemConfig(func: *const c_void, cfg: c_int) -> CudaError {
    api(|| {
        registry::kernel(func).ok_or(error::INVALID_RESOURCE_HANDLE)?;
        if !(0..=2).contains(&cfg) {
            return Err(error::INVALID_VALUE);
        }
        Ok(())
    })
}

/// The register count cudaFuncGetAttributes reports: CPU code has no register file;
/// 32 keeps occupancy limited by threads, as it is for small kernels on a GPU.
const NUM_REGS: c_int = 32;
/// Registers are allocated per warp in units of this many (include/cuda_occupancy.h
/// uses the same model).
const REGISTER_ALLOCATION_UNIT: i64 = 256;
/// Shared memory is allocated per block in units of this many bytes.
const SHARED_ALLOCATION_UNIT: u64 = 128;

/// How many blocks of `block_size` threads using `dyn_shared` bytes of dynamic shared
/// memory fit on one multiprocessor of the current device: the least of the thread,
/// block, register and shared-memory limits, as the occupancy calculator counts them.
/// A private flag of cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags, set by
/// cuda_runtime.h's block-size search: CUDA's search ignores the kernel's
/// cudaFuncAttributeMaxDynamicSharedMemorySize (measured: with it set to 0, a search
/// with 8 KiB per block still finds 1024 threads) and is bounded by the device only.
const OCC_SEARCH_IGNORES_FUNCTION_LIMIT: c_uint = 1 << 31;

fn resident_blocks_per_sm(k: &registry::Kernel, p: &crate::props::PropBuf, block_size: c_int, dyn_shared: usize, flags: c_uint) -> Result<c_int> {
    let l = occupancy_limits(k, p, block_size, dyn_shared, flags)?;
    Ok(l.by_threads.min(l.by_blocks).min(l.by_regs).min(l.by_shared).max(0))
}

/// How many blocks of a launch fit on one multiprocessor, by each resource (Nsight
/// Compute's `launch__occupancy_limit_*`; registers as the CPU device assumes them).
#[derive(Clone, Copy, Debug, Default)]
pub struct OccupancyLimits {
    pub by_threads: c_int,
    pub by_blocks: c_int,
    pub by_regs: c_int,
    pub by_shared: c_int,
}

pub fn occupancy_limits(k: &registry::Kernel, p: &crate::props::PropBuf, block_size: c_int, dyn_shared: usize, flags: c_uint) -> Result<OccupancyLimits> {
    let lim = p.limits();
    if block_size <= 0 {
        return Err(error::INVALID_VALUE);
    }
    let warp = p.attribute(10)?.max(1);
    let warps = (block_size + warp - 1) / warp;
    let by_threads = if block_size as u32 > lim.max_threads_per_block { 0 } else { p.attribute(39)? / warp / warps };
    let by_blocks = p.attribute(106)?;
    let regs_per_warp = ((NUM_REGS as i64 * warp as i64 + REGISTER_ALLOCATION_UNIT - 1) / REGISTER_ALLOCATION_UNIT) * REGISTER_ALLOCATION_UNIT;
    let by_regs = (p.attribute(82)? as i64 / regs_per_warp / warps as i64) as c_int;
    let shared = k.static_shared_bytes + dyn_shared as u64;
    let dyn_limit = if flags & OCC_SEARCH_IGNORES_FUNCTION_LIMIT != 0 {
        lim.shared_optin.saturating_sub(k.static_shared_bytes)
    } else {
        k.dynamic_shared_limit(&lim)
    };
    let by_shared = if dyn_shared as u64 > dyn_limit {
        0
    } else {
        let per_block = (shared + p.attribute(111)? as u64).div_ceil(SHARED_ALLOCATION_UNIT) * SHARED_ALLOCATION_UNIT;
        // No shared memory at all (sm_75 reserves none per block): no limit from it.
        (p.attribute(81)? as u64).checked_div(per_block).map_or(c_int::MAX, |n| n.min(c_int::MAX as u64) as c_int)
    };
    Ok(OccupancyLimits { by_threads, by_blocks, by_regs, by_shared })
}

#[no_mangle]
pub extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    n: *mut c_int,
    func: *const c_void,
    block_size: c_int,
    dyn_shared: usize,
    flags: c_uint,
) -> CudaError {
    api(|| {
        let c = ctx();
        let k = registry::kernel(func).ok_or(error::INVALID_RESOURCE_HANDLE)?;
        out(n, resident_blocks_per_sm(&k, c.props(), block_size, dyn_shared, flags)?)
    })
}

/// The most dynamic shared memory per block with which `num_blocks` blocks of
/// `block_size` threads still fit on one multiprocessor.
#[no_mangle]
pub extern "C" fn cudaOccupancyAvailableDynamicSMemPerBlock(
    bytes: *mut usize,
    func: *const c_void,
    num_blocks: c_int,
    block_size: c_int,
) -> CudaError {
    api(|| {
        let c = ctx();
        let k = registry::kernel(func).ok_or(error::INVALID_RESOURCE_HANDLE)?;
        let p = c.props();
        if num_blocks <= 0 || resident_blocks_per_sm(&k, p, block_size, 0, 0)? < num_blocks {
            return Err(error::INVALID_VALUE);
        }
        let per_block = (p.attribute(81)? as u64 / num_blocks as u64) / SHARED_ALLOCATION_UNIT * SHARED_ALLOCATION_UNIT;
        // The per-block reservation is not taken off here (measured on an H100: 8 blocks
        // get 233472 / 8 bytes each).
        let avail = per_block.saturating_sub(k.static_shared_bytes);
        out(bytes, avail.min(k.dynamic_shared_limit(&p.limits())) as usize)
    })
}

#[no_mangle]
pub extern "C" fn cudaOccupancyMaxActiveBlocksPerMultiprocessor(
    n: *mut c_int,
    func: *const c_void,
    block_size: c_int,
    dyn_shared: usize,
) -> CudaError {
    cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, func, block_size, dyn_shared, 0)
}
