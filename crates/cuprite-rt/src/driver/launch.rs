//! Launches through the driver API: `cuLaunchKernel` with `kernelParams` or with the
//! packed `extra` buffer, `cuLaunchKernelEx`, the legacy `cuFuncSetBlockShape` /
//! `cuParamSet*` / `cuLaunchGrid`, function attributes and occupancy.

use super::context::require;
use super::{drv, out, rt, CuResult, Result, INVALID_HANDLE, INVALID_VALUE};
use crate::abi::Dim3;
use crate::api::launch as rl;
use crate::registry;
use std::collections::HashMap;
use std::ffi::{c_int, c_uint, c_void};
use std::sync::{Mutex, OnceLock};

const PARAM_END: usize = 0;
const PARAM_BUFFER_POINTER: usize = 1;
const PARAM_BUFFER_SIZE: usize = 2;

fn d(x: c_uint, y: c_uint, z: c_uint) -> Dim3 {
    Dim3 { x, y, z }
}

/// A packed parameter buffer as the kernel's parameters: each at the next offset aligned
/// for its type, as the parameters of the kernel's signature are laid out (the CUDA
/// driver API guide's rule for `extra` and `cuParamSet*`). As CUDA does (measured on an
/// H100), a buffer shorter than the parameters is not an error: the bytes it lacks read
/// as zero here.
struct Unpacked {
    bytes: Vec<u64>,
    offsets: Vec<usize>,
}

impl Unpacked {
    fn new(f: usize, buf: *const u8, size: usize) -> Result<Unpacked> {
        let k = registry::kernel(f as *const c_void).ok_or(INVALID_HANDLE)?;
        if buf.is_null() && size > 0 {
            return Err(INVALID_VALUE);
        }
        let mut offsets = Vec::with_capacity(k.param_sizes.len());
        let mut off = 0usize;
        for (i, &sz) in k.param_sizes.iter().enumerate() {
            let al = (k.param_aligns.get(i).copied().unwrap_or(1) as usize).max(1);
            off = (off + al - 1) & !(al - 1);
            offsets.push(off);
            off += sz as usize;
        }
        // 8-byte words: the copy is aligned for every parameter type up to 8 bytes; larger
        // alignments are honoured by the launch's own copy of the arguments.
        let mut bytes = vec![0u64; off.div_ceil(8).max(1)];
        let n = size.min(off);
        if n > 0 {
            unsafe { std::ptr::copy_nonoverlapping(buf, bytes.as_mut_ptr() as *mut u8, n) };
        }
        Ok(Unpacked { bytes, offsets })
    }

    fn pointers(&self) -> Vec<*const c_void> {
        let base = self.bytes.as_ptr() as *const u8;
        self.offsets.iter().map(|&o| unsafe { base.add(o) } as *const c_void).collect()
    }
}

/// The buffer and size named by an `extra` array.
fn read_extra(extra: *const *mut c_void) -> Result<(*const u8, usize)> {
    let (mut buf, mut size) = (None, None);
    let mut i = 0;
    loop {
        let key = unsafe { *extra.add(i) } as usize;
        match key {
            PARAM_END => break,
            PARAM_BUFFER_POINTER => buf = Some(unsafe { *extra.add(i + 1) } as *const u8),
            PARAM_BUFFER_SIZE => size = Some(unsafe { *(*extra.add(i + 1) as *const usize) }),
            _ => return Err(INVALID_VALUE),
        }
        i += 2;
    }
    match (buf, size) {
        (Some(b), Some(s)) => Ok((b, s)),
        _ => Err(INVALID_VALUE),
    }
}

#[allow(clippy::too_many_arguments)]
fn launch(f: usize, grid: Dim3, block: Dim3, shared: c_uint, st: *mut c_void, params: *mut *mut c_void, extra: *mut *mut c_void) -> Result<()> {
    launch_with(f, grid, block, shared, st, params, extra, false)
}

#[allow(clippy::too_many_arguments)]
fn launch_with(f: usize, grid: Dim3, block: Dim3, shared: c_uint, st: *mut c_void, params: *mut *mut c_void, extra: *mut *mut c_void, coop: bool) -> Result<()> {
    require()?;
    if f == 0 || registry::kernel(f as *const c_void).is_none() {
        return Err(INVALID_HANDLE);
    }
    let f_ptr = f as *const c_void;
    match (params.is_null(), extra.is_null()) {
        (false, false) => Err(INVALID_VALUE),
        (true, false) => {
            let (buf, size) = read_extra(extra)?;
            let unpacked = Unpacked::new(f, buf, size)?;
            let ptrs = unpacked.pointers();
            rt(crate::error::in_driver_call(|| crate::error::api(|| rl::launch_kernel_with(f_ptr, grid, block, ptrs.as_ptr(), shared as usize, st, coop))))
        }
        _ => rt(crate::error::api(|| rl::launch_kernel_with(f_ptr, grid, block, params as *const *const c_void, shared as usize, st, coop))),
    }
}

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn cuLaunchKernel(
    f: usize,
    gx: c_uint,
    gy: c_uint,
    gz: c_uint,
    bx: c_uint,
    by: c_uint,
    bz: c_uint,
    shared: c_uint,
    st: *mut c_void,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> CuResult {
    drv(|| launch(f, d(gx, gy, gz), d(bx, by, bz), shared, st, params, extra))
}

#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub extern "C" fn cuLaunchCooperativeKernel(
    f: usize,
    gx: c_uint,
    gy: c_uint,
    gz: c_uint,
    bx: c_uint,
    by: c_uint,
    bz: c_uint,
    shared: c_uint,
    st: *mut c_void,
    params: *mut *mut c_void,
) -> CuResult {
    drv(|| launch_with(f, d(gx, gy, gz), d(bx, by, bz), shared, st, params, std::ptr::null_mut(), true))
}

/// `CUlaunchConfig`. Launch attributes: `CU_LAUNCH_ATTRIBUTE_COOPERATIVE` makes a
/// cooperative launch; the others (clusters, priorities) are accepted and change nothing.
#[repr(C)]
pub struct LaunchConfig {
    pub grid_x: c_uint,
    pub grid_y: c_uint,
    pub grid_z: c_uint,
    pub block_x: c_uint,
    pub block_y: c_uint,
    pub block_z: c_uint,
    pub shared: c_uint,
    pub stream: *mut c_void,
    pub attrs: *const rl::LaunchAttribute,
    pub num_attrs: c_uint,
}

#[no_mangle]
pub extern "C" fn cuLaunchKernelEx(cfg: *const LaunchConfig, f: usize, params: *mut *mut c_void, extra: *mut *mut c_void) -> CuResult {
    drv(|| {
        let c = unsafe { cfg.as_ref() }.ok_or(INVALID_VALUE)?;
        let coop = rl::attrs_cooperative(c.attrs, c.num_attrs).map_err(|_| INVALID_VALUE)?;
        launch_with(f, d(c.grid_x, c.grid_y, c.grid_z), d(c.block_x, c.block_y, c.block_z), c.shared, c.stream, params, extra, coop)
    })
}

// ---- legacy launches -------------------------------------------------------------------

#[derive(Default)]
struct Legacy {
    block: Option<Dim3>,
    shared: c_uint,
    params: Vec<u8>,
}

fn legacy() -> std::sync::MutexGuard<'static, HashMap<usize, Legacy>> {
    static L: OnceLock<Mutex<HashMap<usize, Legacy>>> = OnceLock::new();
    L.get_or_init(|| Mutex::new(HashMap::new())).lock().unwrap_or_else(|p| p.into_inner())
}

fn with_legacy(f: usize, g: impl FnOnce(&mut Legacy) -> Result<()>) -> Result<()> {
    require()?;
    registry::kernel(f as *const c_void).ok_or(INVALID_HANDLE)?;
    g(legacy().entry(f).or_default())
}

#[no_mangle]
pub extern "C" fn cuFuncSetBlockShape(f: usize, x: c_int, y: c_int, z: c_int) -> CuResult {
    drv(|| {
        if x <= 0 || y <= 0 || z <= 0 {
            return Err(INVALID_VALUE);
        }
        with_legacy(f, |l| {
            l.block = Some(d(x as u32, y as u32, z as u32));
            Ok(())
        })
    })
}

#[no_mangle]
pub extern "C" fn cuFuncSetSharedSize(f: usize, bytes: c_uint) -> CuResult {
    drv(|| {
        with_legacy(f, |l| {
            l.shared = bytes;
            Ok(())
        })
    })
}

#[no_mangle]
pub extern "C" fn cuParamSetSize(f: usize, n: c_uint) -> CuResult {
    drv(|| {
        with_legacy(f, |l| {
            l.params.resize(n as usize, 0);
            Ok(())
        })
    })
}

fn set_param(f: usize, offset: c_int, bytes: &[u8]) -> Result<()> {
    with_legacy(f, |l| {
        if offset < 0 {
            return Err(INVALID_VALUE);
        }
        let end = offset as usize + bytes.len();
        if l.params.len() < end {
            l.params.resize(end, 0);
        }
        l.params[offset as usize..end].copy_from_slice(bytes);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuParamSeti(f: usize, offset: c_int, v: c_uint) -> CuResult {
    drv(|| set_param(f, offset, &v.to_ne_bytes()))
}

#[no_mangle]
pub extern "C" fn cuParamSetf(f: usize, offset: c_int, v: f32) -> CuResult {
    drv(|| set_param(f, offset, &v.to_ne_bytes()))
}

#[no_mangle]
pub extern "C" fn cuParamSetv(f: usize, offset: c_int, p: *const c_void, n: c_uint) -> CuResult {
    drv(|| {
        if p.is_null() && n > 0 {
            return Err(INVALID_VALUE);
        }
        let bytes = if n == 0 { &[][..] } else { unsafe { std::slice::from_raw_parts(p as *const u8, n as usize) } };
        set_param(f, offset, bytes)
    })
}

fn launch_legacy(f: usize, gw: c_int, gh: c_int, st: *mut c_void) -> Result<()> {
    require()?;
    if gw <= 0 || gh <= 0 {
        return Err(INVALID_VALUE);
    }
    let (block, shared, params) = {
        let l = legacy();
        let l = l.get(&f).ok_or(INVALID_HANDLE)?;
        (l.block.ok_or(INVALID_VALUE)?, l.shared, l.params.clone())
    };
    let size = params.len();
    let mut extra = [PARAM_BUFFER_POINTER as *mut c_void, params.as_ptr() as *mut c_void, PARAM_BUFFER_SIZE as *mut c_void, &size as *const usize as *mut c_void, std::ptr::null_mut()];
    launch(f, d(gw as u32, gh as u32, 1), block, shared, st, std::ptr::null_mut(), extra.as_mut_ptr())
}

#[no_mangle]
pub extern "C" fn cuLaunch(f: usize) -> CuResult {
    drv(|| launch_legacy(f, 1, 1, std::ptr::null_mut()))
}

#[no_mangle]
pub extern "C" fn cuLaunchGrid(f: usize, gw: c_int, gh: c_int) -> CuResult {
    drv(|| launch_legacy(f, gw, gh, std::ptr::null_mut()))
}

#[no_mangle]
pub extern "C" fn cuLaunchGridAsync(f: usize, gw: c_int, gh: c_int, st: *mut c_void) -> CuResult {
    drv(|| launch_legacy(f, gw, gh, st))
}

// ---- attributes and occupancy ------------------------------------------------------------

fn attributes(f: usize) -> Result<rl::FuncAttributes> {
    let mut a: rl::FuncAttributes = unsafe { std::mem::zeroed() };
    rt(rl::cudaFuncGetAttributes(&mut a, f as *const c_void))?;
    Ok(a)
}

#[no_mangle]
pub extern "C" fn cuFuncGetAttribute(v: *mut c_int, attr: c_int, f: usize) -> CuResult {
    drv(|| {
        require()?;
        registry::kernel(f as *const c_void).ok_or(INVALID_HANDLE)?;
        let a = attributes(f)?;
        out(
            v,
            match attr {
                0 => a.max_threads_per_block,
                1 => a.shared_size_bytes as c_int,
                2 => a.const_size_bytes as c_int,
                3 => a.local_size_bytes as c_int,
                4 => a.num_regs,
                5 => a.ptx_version,
                6 => a.binary_version,
                7 => a.cache_mode_ca,
                8 => a.max_dynamic_shared_size_bytes,
                9 => a.preferred_shmem_carveout,
                10..=15 => 0,
                _ => return Err(INVALID_VALUE),
            },
        )
    })
}

#[no_mangle]
pub extern "C" fn cuFuncSetAttribute(f: usize, attr: c_int, v: c_int) -> CuResult {
    drv(|| {
        require()?;
        rt(rl::cudaFuncSetAttribute(f as *const c_void, attr, v))
    })
}

#[no_mangle]
pub extern "C" fn cuFuncSetCacheConfig(f: usize, cfg: c_int) -> CuResult {
    drv(|| {
        require()?;
        rt(rl::cudaFuncSetCacheConfig(f as *const c_void, cfg))
    })
}

#[no_mangle]
pub extern "C" fn cuOccupancyMaxActiveBlocksPerMultiprocessor(n: *mut c_int, f: usize, block: c_int, dyn_shared: usize) -> CuResult {
    drv(|| {
        require()?;
        rt(rl::cudaOccupancyMaxActiveBlocksPerMultiprocessor(n, f as *const c_void, block, dyn_shared))
    })
}

#[no_mangle]
pub extern "C" fn cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n: *mut c_int, f: usize, block: c_int, dyn_shared: usize, flags: c_uint) -> CuResult {
    drv(|| {
        require()?;
        rt(rl::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, f as *const c_void, block, dyn_shared, flags))
    })
}

type SmemForBlock = unsafe extern "C" fn(c_int) -> usize;

/// The largest block size (a multiple of the warp size, within the kernel's limit and
/// `limit`) that reaches the best occupancy, and the grid that fills the device with it.
#[no_mangle]
pub extern "C" fn cuOccupancyMaxPotentialBlockSize(
    min_grid: *mut c_int,
    block_size: *mut c_int,
    f: usize,
    smem_for_block: Option<SmemForBlock>,
    dyn_shared: usize,
    limit: c_int,
) -> CuResult {
    drv(|| {
        require()?;
        registry::kernel(f as *const c_void).ok_or(INVALID_HANDLE)?;
        let a = attributes(f)?;
        let mut max = a.max_threads_per_block;
        if limit > 0 {
            max = max.min(limit);
        }
        let sms = crate::context::ctx().device.multiprocessor_count();
        let (mut best_block, mut best_threads) = (0, -1);
        let mut b = (max / 32) * 32;
        while b > 0 {
            let smem = match smem_for_block {
                Some(cb) => unsafe { cb(b) },
                None => dyn_shared,
            };
            let mut n = 0;
            if rl::cudaOccupancyMaxActiveBlocksPerMultiprocessor(&mut n, f as *const c_void, b, smem) == 0 && n * b > best_threads {
                (best_block, best_threads) = (b, n * b);
            }
            b -= 32;
        }
        if best_block == 0 {
            best_block = max.max(1);
            best_threads = best_block;
        }
        out(block_size, best_block)?;
        out(min_grid, (best_threads / best_block).max(1) * sms)
    })
}
