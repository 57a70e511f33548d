//! Contexts. The CPU device has one state (memory, kernels, the default stream), owned
//! by the runtime; a `CUcontext` is a handle on it. The primary context is the
//! runtime's: the runtime API activates it, `cuDevicePrimaryCtxRetain` returns it.
//! Contexts made by `cuCtxCreate` share that state (so a pointer allocated in one is
//! valid in all); what each has of its own is its place on each thread's context stack,
//! its flags, and whether it is alive.

use super::device::check_device;
use super::{drv, out, rt, CuResult, Result, INVALID_CONTEXT, INVALID_VALUE};
use crate::context::ctx;
use crate::devices::MAX_DEVICES;
use std::cell::RefCell;
use std::collections::HashSet;
use std::ffi::{c_int, c_uint, c_void};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

pub struct Ctx {
    pub flags: AtomicU32,
    /// The device of a created context (primary contexts: their index in `PRIMARIES`).
    pub device: c_int,
}

/// Each device's primary context (its address is its handle). All of them are handles
/// on the one device state, as every device is a view of the CPU (`crate::devices`).
static PRIMARIES: [Ctx; MAX_DEVICES] = [const { Ctx { flags: AtomicU32::new(0), device: 0 } }; MAX_DEVICES];
static PRIMARY_RETAINS: [AtomicU32; MAX_DEVICES] = [const { AtomicU32::new(0) }; MAX_DEVICES];

fn primary_of(dev: c_int) -> &'static Ctx {
    &PRIMARIES[dev as usize]
}

/// The primary context's device index, for a primary context's handle.
fn primary_index(h: usize) -> Option<usize> {
    let base = PRIMARIES.as_ptr() as usize;
    let size = std::mem::size_of::<Ctx>();
    (h >= base && h < base + MAX_DEVICES * size && (h - base) % size == 0).then(|| (h - base) / size)
}

/// The device a live context handle belongs to.
pub fn device_of(h: usize) -> c_int {
    match primary_index(h) {
        Some(i) => i as c_int,
        None => unsafe { (*(h as *const Ctx)).device },
    }
}

/// `cudaSetDevice` on this thread: a primary context current on it is replaced by the
/// new device's (as CUDA's runtime does); a created context stays.
pub fn follow_runtime_device(dev: c_int) {
    let _ = STACK.try_with(|s| {
        if let Some(top) = s.borrow_mut().last_mut() {
            if primary_index(*top).is_some() {
                *top = primary_of(dev) as *const Ctx as usize;
            }
        }
    });
}

/// A context made current: the runtime's current device follows it.
fn made_current(h: usize) {
    crate::devices::set_current(device_of(h));
}

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

/// The primary context of the calling thread's current device.
pub fn primary_handle() -> usize {
    primary_of(crate::devices::current()) as *const Ctx as usize
}

fn primary_active(dev: usize) -> bool {
    PRIMARY_RETAINS[dev].load(Ordering::Acquire) > 0 || crate::error::runtime_used()
}

pub(super) fn is_live(h: usize) -> bool {
    match primary_index(h) {
        Some(i) => primary_active(i),
        None => lock_live().contains(&h),
    }
}

/// The calling thread's current context: the top of its stack, else the primary
/// context once it is active (the runtime makes it current on the threads it serves).
pub fn current() -> Option<usize> {
    let top = STACK.try_with(|s| s.borrow().last().copied()).ok().flatten();
    match top {
        Some(h) => Some(h),
        None if primary_active(crate::devices::current() as usize) => Some(primary_handle()),
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
    made_current(h);
}

fn create(flags: c_uint, dev: c_int) -> Result<usize> {
    check_device(dev)?;
    let c = Box::leak(Box::new(Ctx { flags: AtomicU32::new(flags), device: dev }));
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
        if h == 0 || primary_index(h).is_some() || !lock_live().contains(&h) {
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
        if let Some(top) = current() {
            made_current(top);
        }
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
        if h != 0 {
            made_current(h);
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuCtxGetDevice(dev: *mut c_int) -> CuResult {
    drv(|| {
        let h = require()?;
        out(dev, device_of(h))
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
        PRIMARY_RETAINS[dev as usize].fetch_add(1, Ordering::AcqRel);
        out(pctx, primary_of(dev) as *const Ctx as usize)
    })
}

#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxRelease_v2(dev: c_int) -> CuResult {
    drv(|| {
        check_device(dev)?;
        let r = PRIMARY_RETAINS[dev as usize].fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
        r.map(drop).map_err(|_| INVALID_CONTEXT)
    })
}

/// Destroys what the primary context holds (all memory, modules' state stays loaded),
/// as `cudaDeviceReset` does.
#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxReset_v2(dev: c_int) -> CuResult {
    drv(|| {
        check_device(dev)?;
        PRIMARY_RETAINS[dev as usize].store(0, Ordering::Release);
        rt(crate::api::device::cudaDeviceReset())
    })
}

#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxGetState(dev: c_int, flags: *mut c_uint, active: *mut c_int) -> CuResult {
    drv(|| {
        check_device(dev)?;
        out(flags, primary_of(dev).flags.load(Ordering::Relaxed))?;
        out(active, primary_active(dev as usize) as c_int)
    })
}

#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxSetFlags_v2(dev: c_int, flags: c_uint) -> CuResult {
    drv(|| {
        check_device(dev)?;
        primary_of(dev).flags.store(flags, Ordering::Relaxed);
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
