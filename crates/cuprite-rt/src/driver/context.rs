//! Contexts. The CPU device has one state (memory, kernels, the default stream), owned
//! by the runtime; a `CUcontext` is a handle on it. The primary context is the
//! runtime's: the runtime API activates it, `cuDevicePrimaryCtxRetain` returns it.
//! Contexts made by `cuCtxCreate` share that state (so a pointer allocated in one is
//! valid in all); what each has of its own is its place on each thread's context stack,
//! its flags, and whether it is alive.

use super::device::check_device;
use super::{drv, out, rt, CuResult, Result, INVALID_CONTEXT, INVALID_VALUE};
use crate::context::ctx;
use std::cell::RefCell;
use std::collections::HashSet;
use std::ffi::{c_int, c_uint, c_void};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

pub struct Ctx {
    pub flags: AtomicU32,
}

/// The primary context (its address is its handle).
static PRIMARY: Ctx = Ctx { flags: AtomicU32::new(0) };
static PRIMARY_RETAINS: AtomicU32 = AtomicU32::new(0);

fn live() -> &'static Mutex<HashSet<usize>> {
    static LIVE: OnceLock<Mutex<HashSet<usize>>> = OnceLock::new();
    LIVE.get_or_init(|| Mutex::new(HashSet::new()))
}

fn lock_live() -> std::sync::MutexGuard<'static, HashSet<usize>> {
    live().lock().unwrap_or_else(|p| p.into_inner())
}

/// Destroyed contexts (their handles are never reused: the objects are leaked), so that
/// a second destroy says CUDA_ERROR_CONTEXT_IS_DESTROYED as CUDA's does.
fn lock_dead() -> std::sync::MutexGuard<'static, HashSet<usize>> {
    static DEAD: OnceLock<Mutex<HashSet<usize>>> = OnceLock::new();
    DEAD.get_or_init(|| Mutex::new(HashSet::new())).lock().unwrap_or_else(|p| p.into_inner())
}

const CONTEXT_IS_DESTROYED: CuResult = 709;

thread_local! {
    /// This thread's context stack (handles), top last.
    static STACK: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

pub fn primary_handle() -> usize {
    &PRIMARY as *const Ctx as usize
}

fn primary_active() -> bool {
    PRIMARY_RETAINS.load(Ordering::Acquire) > 0 || crate::error::runtime_used()
}

fn is_live(h: usize) -> bool {
    (h == primary_handle() && primary_active()) || lock_live().contains(&h)
}

/// The calling thread's current context: the top of its stack, else the primary
/// context once it is active (the runtime makes it current on the threads it serves).
pub fn current() -> Option<usize> {
    let top = STACK.try_with(|s| s.borrow().last().copied()).ok().flatten();
    match top {
        Some(h) => Some(h),
        None if primary_active() => Some(primary_handle()),
        None => None,
    }
}

/// The current context, or CUDA_ERROR_INVALID_CONTEXT (no context, or a destroyed one).
pub fn require() -> Result<usize> {
    let h = current().ok_or(INVALID_CONTEXT)?;
    if !is_live(h) {
        return Err(INVALID_CONTEXT);
    }
    Ok(h)
}

fn push(h: usize) {
    let _ = STACK.try_with(|s| s.borrow_mut().push(h));
}

fn create(flags: c_uint, dev: c_int) -> Result<usize> {
    check_device(dev)?;
    let c = Box::leak(Box::new(Ctx { flags: AtomicU32::new(flags) }));
    let h = c as *const Ctx as usize;
    lock_live().insert(h);
    push(h);
    Ok(h)
}

#[no_mangle]
pub extern "C" fn cuCtxCreate_v2(pctx: *mut usize, flags: c_uint, dev: c_int) -> CuResult {
    drv(|| {
        if pctx.is_null() {
            return Err(INVALID_VALUE);
        }
        out(pctx, create(flags, dev)?)
    })
}

/// CUDA 13's `cuCtxCreate`: with `CUctxCreateParams` (execution affinity and CIG
/// parameters, which the CPU device does not have: they must be absent).
#[no_mangle]
pub extern "C" fn cuCtxCreate_v4(pctx: *mut usize, params: *const [*const c_void; 3], flags: c_uint, dev: c_int) -> CuResult {
    drv(|| {
        if pctx.is_null() {
            return Err(INVALID_VALUE);
        }
        if !params.is_null() {
            let p = unsafe { &*params };
            if !p[0].is_null() || !p[2].is_null() {
                return Err(super::NOT_SUPPORTED);
            }
        }
        out(pctx, create(flags, dev)?)
    })
}

#[no_mangle]
pub extern "C" fn cuCtxDestroy_v2(h: usize) -> CuResult {
    drv(|| {
        if h != 0 && lock_dead().contains(&h) {
            return Err(CONTEXT_IS_DESTROYED);
        }
        if h == 0 || h == primary_handle() || !lock_live().contains(&h) {
            return Err(INVALID_CONTEXT);
        }
        let _ = ctx().synchronize();
        lock_live().remove(&h);
        lock_dead().insert(h);
        // Off this thread's stack (other threads find it dead).
        let _ = STACK.try_with(|s| s.borrow_mut().retain(|x| *x != h));
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuCtxPushCurrent_v2(h: usize) -> CuResult {
    drv(|| {
        if h == 0 || !is_live(h) {
            return Err(INVALID_CONTEXT);
        }
        push(h);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuCtxPopCurrent_v2(pctx: *mut usize) -> CuResult {
    drv(|| {
        let h = STACK.try_with(|s| s.borrow_mut().pop()).ok().flatten().ok_or(INVALID_CONTEXT)?;
        if !pctx.is_null() {
            unsafe { *pctx = h };
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuCtxGetCurrent(pctx: *mut usize) -> CuResult {
    drv(|| out(pctx, current().unwrap_or(0)))
}

#[no_mangle]
pub extern "C" fn cuCtxSetCurrent(h: usize) -> CuResult {
    drv(|| {
        if h != 0 && !is_live(h) {
            return Err(INVALID_CONTEXT);
        }
        let _ = STACK.try_with(|s| {
            let mut s = s.borrow_mut();
            s.pop();
            if h != 0 {
                s.push(h);
            }
        });
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuCtxGetDevice(dev: *mut c_int) -> CuResult {
    drv(|| {
        require()?;
        out(dev, 0)
    })
}

#[no_mangle]
pub extern "C" fn cuCtxSynchronize() -> CuResult {
    drv(|| {
        require()?;
        rt(ctx().synchronize().err().unwrap_or(0))
    })
}

#[no_mangle]
pub extern "C" fn cuCtxGetFlags(flags: *mut c_uint) -> CuResult {
    drv(|| {
        let h = require()?;
        out(flags, unsafe { &*(h as *const Ctx) }.flags.load(Ordering::Relaxed))
    })
}

#[no_mangle]
pub extern "C" fn cuCtxGetApiVersion(h: usize, v: *mut c_uint) -> CuResult {
    drv(|| {
        let h = if h == 0 { require()? } else { h };
        if !is_live(h) {
            return Err(INVALID_CONTEXT);
        }
        out(v, 12010)
    })
}

#[no_mangle]
pub extern "C" fn cuCtxGetLimit(v: *mut usize, limit: c_int) -> CuResult {
    drv(|| {
        require()?;
        rt(crate::api::device::cudaDeviceGetLimit(v, limit))
    })
}

#[no_mangle]
pub extern "C" fn cuCtxSetLimit(limit: c_int, v: usize) -> CuResult {
    drv(|| {
        require()?;
        rt(crate::api::device::cudaDeviceSetLimit(limit, v))
    })
}

#[no_mangle]
pub extern "C" fn cuCtxGetCacheConfig(cfg: *mut c_int) -> CuResult {
    drv(|| {
        require()?;
        rt(crate::api::device::cudaDeviceGetCacheConfig(cfg))
    })
}

#[no_mangle]
pub extern "C" fn cuCtxSetCacheConfig(cfg: c_int) -> CuResult {
    drv(|| {
        require()?;
        rt(crate::api::device::cudaDeviceSetCacheConfig(cfg))
    })
}

#[no_mangle]
pub extern "C" fn cuCtxGetStreamPriorityRange(least: *mut c_int, greatest: *mut c_int) -> CuResult {
    drv(|| {
        require()?;
        rt(crate::api::device::cudaDeviceGetStreamPriorityRange(least, greatest))
    })
}

// ---- the primary context ------------------------------------------------------------

#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxRetain(pctx: *mut usize, dev: c_int) -> CuResult {
    drv(|| {
        check_device(dev)?;
        if pctx.is_null() {
            return Err(INVALID_VALUE);
        }
        PRIMARY_RETAINS.fetch_add(1, Ordering::AcqRel);
        out(pctx, primary_handle())
    })
}

#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxRelease_v2(dev: c_int) -> CuResult {
    drv(|| {
        check_device(dev)?;
        let r = PRIMARY_RETAINS.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
        r.map(drop).map_err(|_| INVALID_CONTEXT)
    })
}

/// Destroys what the primary context holds (all memory, modules' state stays loaded),
/// as `cudaDeviceReset` does.
#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxReset_v2(dev: c_int) -> CuResult {
    drv(|| {
        check_device(dev)?;
        PRIMARY_RETAINS.store(0, Ordering::Release);
        rt(crate::api::device::cudaDeviceReset())
    })
}

#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxGetState(dev: c_int, flags: *mut c_uint, active: *mut c_int) -> CuResult {
    drv(|| {
        check_device(dev)?;
        out(flags, PRIMARY.flags.load(Ordering::Relaxed))?;
        out(active, primary_active() as c_int)
    })
}

#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxSetFlags_v2(dev: c_int, flags: c_uint) -> CuResult {
    drv(|| {
        check_device(dev)?;
        PRIMARY.flags.store(flags, Ordering::Relaxed);
        Ok(())
    })
}

// Unversioned names, for programs that look functions up by their CUDA 3 names.
#[no_mangle]
pub extern "C" fn cuCtxDestroy(h: usize) -> CuResult {
    cuCtxDestroy_v2(h)
}
#[no_mangle]
pub extern "C" fn cuCtxPushCurrent(h: usize) -> CuResult {
    cuCtxPushCurrent_v2(h)
}
#[no_mangle]
pub extern "C" fn cuCtxPopCurrent(pctx: *mut usize) -> CuResult {
    cuCtxPopCurrent_v2(pctx)
}
#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxRelease(dev: c_int) -> CuResult {
    cuDevicePrimaryCtxRelease_v2(dev)
}
#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxReset(dev: c_int) -> CuResult {
    cuDevicePrimaryCtxReset_v2(dev)
}
#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxSetFlags(dev: c_int, flags: c_uint) -> CuResult {
    cuDevicePrimaryCtxSetFlags_v2(dev, flags)
}
