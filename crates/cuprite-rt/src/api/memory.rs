//! Memory: allocation, host memory, copies and sets (blocking and stream-ordered).

use super::out;
use crate::context::ctx;
use crate::error::{self, api, CudaError, Result};
use crate::memory::{self, Kind};
use crate::stream::{self, Op, SendPtr};
use std::ffi::{c_int, c_uint, c_void};

pub const KIND_H2H: c_int = 0;
pub const KIND_H2D: c_int = 1;
pub const KIND_D2H: c_int = 2;
pub const KIND_D2D: c_int = 3;

#[no_mangle]
pub extern "C" fn cudaMalloc(p: *mut *mut c_void, size: usize) -> CudaError {
    api(|| {
        crate::graph::capture::refuse_unsafe()?;
        if p.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let c = ctx();
        c.check()?;
        out(p, c.device.alloc(size, Kind::Device)?)
    })
}

#[no_mangle]
pub extern "C" fn cudaMallocManaged(p: *mut *mut c_void, size: usize, flags: c_uint) -> CudaError {
    api(|| {
        crate::graph::capture::refuse_unsafe()?;
        if p.is_null() || size == 0 || (flags != 1 && flags != 2) {
            return Err(error::INVALID_VALUE);
        }
        let c = ctx();
        c.check()?;
        out(p, c.device.alloc(size, Kind::Managed)?)
    })
}

#[no_mangle]
pub extern "C" fn cudaFree(p: *mut c_void) -> CudaError {
    api(|| {
        crate::graph::capture::refuse_unsafe()?;
        let c = ctx();
        c.check()?;
        if p.is_null() {
            return Ok(());
        }
        crate::stream::wait_all_streams();
        if crate::mempool::free_graph_alloc(p) {
            return Ok(());
        }
        crate::mempool::forget(p);
        if crate::mempool_ipc::release(p) || crate::gpu::active().is_some_and(|g| g.pool_release(p)) {
            return Ok(());
        }
        c.device.free(p, &|k| matches!(k, Kind::Device | Kind::Managed))
    })
}

#[no_mangle]
pub extern "C" fn cudaHostAlloc(p: *mut *mut c_void, size: usize, flags: c_uint) -> CudaError {
    api(|| {
        crate::graph::capture::refuse_unsafe()?;
        if p.is_null() || flags & !0x7 != 0 {
            return Err(error::INVALID_VALUE);
        }
        let c = ctx();
        c.check()?;
        out(p, c.device.alloc(size, Kind::PinnedHost(flags))?)
    })
}

#[no_mangle]
pub extern "C" fn cudaMallocHost(p: *mut *mut c_void, size: usize) -> CudaError {
    cudaHostAlloc(p, size, 0)
}

#[no_mangle]
pub extern "C" fn cudaFreeHost(p: *mut c_void) -> CudaError {
    api(|| {
        crate::graph::capture::refuse_unsafe()?;
        let c = ctx();
        c.check()?;
        if p.is_null() {
            return Ok(());
        }
        crate::stream::wait_all_streams();
        c.device.free(p, &|k| matches!(k, Kind::PinnedHost(_)))
    })
}

#[no_mangle]
pub extern "C" fn cudaHostRegister(p: *mut c_void, size: usize, flags: c_uint) -> CudaError {
    api(|| {
        if flags & !0xf != 0 {
            return Err(error::INVALID_VALUE);
        }
        memory::register(p, size, flags)?;
        match crate::gpu::active() {
            Some(g) => g.host_register(p, size).inspect_err(|_| {
                let _ = memory::unregister(p);
            }),
            None => Ok(()),
        }
    })
}

#[no_mangle]
pub extern "C" fn cudaHostUnregister(p: *mut c_void) -> CudaError {
    api(|| {
        memory::unregister(p)?;
        match crate::gpu::active() {
            Some(g) => g.host_unregister(p),
            None => Ok(()),
        }
    })
}

#[no_mangle]
pub extern "C" fn cudaHostGetDevicePointer(dev: *mut *mut c_void, host: *mut c_void, flags: c_uint) -> CudaError {
    api(|| {
        if flags != 0 {
            return Err(error::INVALID_VALUE);
        }
        match memory::lookup(host) {
            Some(a) if matches!(a.kind, Kind::PinnedHost(_) | Kind::Registered(_) | Kind::Managed) => out(dev, host),
            _ => Err(error::INVALID_VALUE),
        }
    })
}

#[no_mangle]
pub extern "C" fn cudaHostGetFlags(flags: *mut c_uint, host: *mut c_void) -> CudaError {
    api(|| match memory::lookup(host) {
        Some(a) => match a.kind {
            Kind::PinnedHost(f) | Kind::Registered(f) => out(flags, f),
            _ => Err(error::INVALID_VALUE),
        },
        None => Err(error::INVALID_VALUE),
    })
}

fn pitch_for(width: usize) -> usize {
    width.max(1).div_ceil(512) * 512
}

#[no_mangle]
pub extern "C" fn cudaMallocPitch(p: *mut *mut c_void, pitch: *mut usize, width: usize, height: usize) -> CudaError {
    api(|| {
        if p.is_null() || pitch.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let c = ctx();
        c.check()?;
        let pt = pitch_for(width);
        let ptr = c.device.alloc(pt.checked_mul(height).ok_or(error::MEMORY_ALLOCATION)?, Kind::Device)?;
        out(pitch, pt)?;
        out(p, ptr)
    })
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Extent {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct PitchedPtr {
    pub ptr: *mut c_void,
    pub pitch: usize,
    pub xsize: usize,
    pub ysize: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Pos {
    pub x: usize,
    pub y: usize,
    pub z: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Memcpy3DParms {
    pub src_array: *mut c_void,
    pub src_pos: Pos,
    pub src_ptr: PitchedPtr,
    pub dst_array: *mut c_void,
    pub dst_pos: Pos,
    pub dst_ptr: PitchedPtr,
    pub extent: Extent,
    pub kind: c_int,
}

#[no_mangle]
pub extern "C" fn cudaMalloc3D(p: *mut PitchedPtr, e: Extent) -> CudaError {
    api(|| {
        if p.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let c = ctx();
        c.check()?;
        let pt = pitch_for(e.width);
        let bytes = pt.checked_mul(e.height.max(1)).and_then(|v| v.checked_mul(e.depth.max(1)));
        let ptr = c.device.alloc(bytes.ok_or(error::MEMORY_ALLOCATION)?, Kind::Device)?;
        out(p, PitchedPtr { ptr, pitch: pt, xsize: e.width, ysize: e.height })
    })
}

#[no_mangle]
pub extern "C" fn cudaMemGetInfo(free: *mut usize, total: *mut usize) -> CudaError {
    api(|| {
        let c = ctx();
        c.check()?;
        out(free, c.device.free_memory())?;
        out(total, c.device.total_memory())
    })
}

#[repr(C)]
pub struct PointerAttributes {
    pub kind: c_int,
    pub device: c_int,
    pub device_pointer: *mut c_void,
    pub host_pointer: *mut c_void,
}

#[no_mangle]
pub extern "C" fn cudaPointerGetAttributes(attr: *mut PointerAttributes, p: *const c_void) -> CudaError {
    api(|| {
        let pm = p as *mut c_void;
        let v = match memory::lookup(p) {
            Some(a) => match a.kind {
                Kind::Device => PointerAttributes { kind: 2, device: a.device, device_pointer: pm, host_pointer: std::ptr::null_mut() },
                Kind::Managed => PointerAttributes { kind: 3, device: a.device, device_pointer: pm, host_pointer: pm },
                Kind::PinnedHost(_) | Kind::Registered(_) => {
                    PointerAttributes { kind: 1, device: a.device, device_pointer: pm, host_pointer: pm }
                }
            },
            None => match crate::registry::var_containing(p as usize, 1) {
                Some(v) if v.is_managed => PointerAttributes { kind: 3, device: 0, device_pointer: pm, host_pointer: pm },
                Some(_) => PointerAttributes { kind: 2, device: 0, device_pointer: pm, host_pointer: std::ptr::null_mut() },
                None => PointerAttributes {
                    kind: 0,
                    device: -2,
                    device_pointer: std::ptr::null_mut(),
                    host_pointer: std::ptr::null_mut(),
                },
            },
        };
        out(attr, v)
    })
}

/// Checks the device side(s) of a copy as CUDA does: the pointer the kind calls device
/// memory must be memory the device knows, over the whole range.
pub(crate) fn check_copy(dst: *const c_void, src: *const c_void, n: usize, kind: c_int) -> Result<()> {
    memory::check_kind(kind)?;
    if n == 0 {
        return Ok(());
    }
    if dst.is_null() || src.is_null() {
        return Err(error::INVALID_VALUE);
    }
    let dst_dev = matches!(kind, KIND_H2D | KIND_D2D);
    let src_dev = matches!(kind, KIND_D2H | KIND_D2D);
    if (dst_dev && !memory::is_device_range(dst, n)) || (src_dev && !memory::is_device_range(src, n)) {
        return Err(error::INVALID_VALUE);
    }
    Ok(())
}

/// A blocking copy: ordered after all earlier work, flushes device printf.
pub(crate) fn copy_blocking(dst: *mut c_void, src: *const c_void, n: usize, kind: c_int) -> Result<()> {
    memory::check_kind(kind)?;
    let c = ctx();
    c.check()?;
    check_copy(dst, src, n, kind)?;
    let s = stream::default_stream();
    crate::api::stream::check_capture_rules(&s)?;
    crate::api::stream::refuse_if_capturing(&s)?;
    s.synchronize_implicit();
    crate::printf::flush();
    c.check()?;
    c.device.copy(dst, src, n).map_err(|_| error::INVALID_VALUE)
}

/// Whether a host-side buffer is page-locked (so an async copy may really be deferred).
fn is_pinned(p: *const c_void, n: usize) -> bool {
    memory::is_device_range(p, n)
}

pub(crate) fn copy_async(dst: *mut c_void, src: *const c_void, n: usize, kind: c_int, st: *mut c_void) -> Result<()> {
    memory::check_kind(kind)?;
    let c = ctx();
    c.check()?;
    let s = stream::resolve(st)?;
    check_copy(dst, src, n, kind)?;
    crate::api::stream::check_capture_rules(&s)?;
    if n == 0 {
        return Ok(());
    }
    if s.is_capturing() || (is_pinned(dst, n) && is_pinned(src, n)) {
        s.submit(Op::Copy { dst: SendPtr(dst), src: SendPtr(src as *mut c_void), n });
        Ok(())
    } else {
        // Pageable host memory: the copy is done before the call returns, as CUDA does.
        s.synchronize();
        c.check()?;
        c.device.copy(dst, src, n).map_err(|_| error::INVALID_VALUE)
    }
}

#[no_mangle]
pub extern "C" fn cudaMemcpy(dst: *mut c_void, src: *const c_void, n: usize, kind: c_int) -> CudaError {
    api(|| copy_blocking(dst, src, n, kind))
}

#[no_mangle]
pub extern "C" fn cudaMemcpyAsync(
    dst: *mut c_void,
    src: *const c_void,
    n: usize,
    kind: c_int,
    st: *mut c_void,
) -> CudaError {
    api(|| copy_async(dst, src, n, kind, st))
}

#[no_mangle]
pub extern "C" fn cudaMemcpyPeer(dst: *mut c_void, dd: c_int, src: *const c_void, sd: c_int, n: usize) -> CudaError {
    api(|| {
        crate::devices::check(dd)?;
        crate::devices::check(sd)?;
        copy_blocking(dst, src, n, KIND_D2D)
    })
}

#[no_mangle]
pub extern "C" fn cudaMemcpyPeerAsync(
    dst: *mut c_void,
    dd: c_int,
    src: *const c_void,
    sd: c_int,
    n: usize,
    st: *mut c_void,
) -> CudaError {
    api(|| {
        crate::devices::check(dd)?;
        crate::devices::check(sd)?;
        copy_async(dst, src, n, KIND_D2D, st)
    })
}

fn check_2d(dpitch: usize, spitch: usize, width: usize) -> Result<()> {
    if width > dpitch || width > spitch {
        return Err(error::INVALID_PITCH_VALUE);
    }
    Ok(())
}

fn copy_2d(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
    st: Option<*mut c_void>,
) -> Result<()> {
    memory::check_kind(kind)?;
    let c = ctx();
    c.check()?;
    if width == 0 || height == 0 {
        return Ok(());
    }
    check_2d(dpitch, spitch, width)?;
    let dspan = dpitch * (height - 1) + width;
    let sspan = spitch * (height - 1) + width;
    check_copy(dst, src, dspan.max(1), if matches!(kind, KIND_H2D | KIND_D2D) { KIND_H2D } else { KIND_H2H })?;
    check_copy(dst, src, sspan.max(1), if matches!(kind, KIND_D2H | KIND_D2D) { KIND_D2H } else { KIND_H2H })?;
    let op = Op::Copy2D { dst: SendPtr(dst), dpitch, src: SendPtr(src as *mut c_void), spitch, width, height };
    match st {
        Some(st) => {
            let s = stream::resolve(st)?;
            crate::api::stream::check_capture_rules(&s)?;
            let pinned = is_pinned(dst, dspan) && is_pinned(src, sspan);
            s.submit(op);
            if !pinned && !s.is_capturing() {
                s.synchronize();
            }
            Ok(())
        }
        None => {
            let s = stream::default_stream();
            crate::api::stream::check_capture_rules(&s)?;
            crate::api::stream::refuse_if_capturing(&s)?;
            s.submit(op);
            s.synchronize_implicit();
            crate::printf::flush();
            c.check()
        }
    }
}

#[no_mangle]
pub extern "C" fn cudaMemcpy2D(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> CudaError {
    api(|| copy_2d(dst, dpitch, src, spitch, width, height, kind, None))
}

#[no_mangle]
pub extern "C" fn cudaMemcpy2DAsync(
    dst: *mut c_void,
    dpitch: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
    st: *mut c_void,
) -> CudaError {
    api(|| copy_2d(dst, dpitch, src, spitch, width, height, kind, Some(st)))
}

fn copy_3d(p: *const Memcpy3DParms, st: Option<*mut c_void>) -> Result<()> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    let p = unsafe { &*p };
    if !p.src_array.is_null() || !p.dst_array.is_null() {
        return super::array::copy_3d_arrays(p);
    }
    let e = p.extent;
    for z in 0..e.depth {
        let s = unsafe {
            (p.src_ptr.ptr as *const u8)
                .add(((p.src_pos.z + z) * p.src_ptr.ysize + p.src_pos.y) * p.src_ptr.pitch + p.src_pos.x)
        };
        let d = unsafe {
            (p.dst_ptr.ptr as *mut u8)
                .add(((p.dst_pos.z + z) * p.dst_ptr.ysize + p.dst_pos.y) * p.dst_ptr.pitch + p.dst_pos.x)
        };
        copy_2d(d as _, p.dst_ptr.pitch, s as _, p.src_ptr.pitch, e.width, e.height, p.kind, st)?;
    }
    Ok(())
}

#[no_mangle]
pub extern "C" fn cudaMemcpy3D(p: *const Memcpy3DParms) -> CudaError {
    api(|| copy_3d(p, None))
}

#[no_mangle]
pub extern "C" fn cudaMemcpy3DAsync(p: *const Memcpy3DParms, st: *mut c_void) -> CudaError {
    api(|| copy_3d(p, Some(st)))
}

fn set(dst: *mut c_void, value: c_int, n: usize, st: Option<*mut c_void>) -> Result<()> {
    let c = ctx();
    c.check()?;
    if n == 0 {
        return Ok(());
    }
    if dst.is_null() || !memory::is_device_range(dst, n) {
        return Err(error::INVALID_VALUE);
    }
    submit_set(Op::Set { dst: SendPtr(dst), value, n }, st)
}

/// Enqueues a memset: on the given stream (asynchronous), else on the legacy default
/// stream, waiting for it as the synchronous `cudaMemset*` do.
fn submit_set(op: Op, st: Option<*mut c_void>) -> Result<()> {
    let c = ctx();
    match st {
        Some(st) => {
            let s = stream::resolve(st)?;
            crate::api::stream::check_capture_rules(&s)?;
            s.submit(op);
            Ok(())
        }
        None => {
            let s = stream::default_stream();
            crate::api::stream::check_capture_rules(&s)?;
            crate::api::stream::refuse_if_capturing(&s)?;
            s.submit(op);
            s.synchronize_implicit();
            c.check()
        }
    }
}

#[no_mangle]
pub extern "C" fn cudaMemset(dst: *mut c_void, value: c_int, n: usize) -> CudaError {
    api(|| set(dst, value, n, None))
}

#[no_mangle]
pub extern "C" fn cudaMemsetAsync(dst: *mut c_void, value: c_int, n: usize, st: *mut c_void) -> CudaError {
    api(|| set(dst, value, n, Some(st)))
}

fn set_2d(dst: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize, st: Option<*mut c_void>) -> Result<()> {
    let c = ctx();
    c.check()?;
    if width == 0 || height == 0 {
        return Ok(());
    }
    if width > pitch {
        return Err(error::INVALID_VALUE);
    }
    let span = pitch * (height - 1) + width;
    if dst.is_null() || !memory::is_device_range(dst, span) {
        return Err(error::INVALID_VALUE);
    }
    submit_set(Op::Set2D { dst: SendPtr(dst), pitch, value, width, height }, st)
}

#[no_mangle]
pub extern "C" fn cudaMemset2D(dst: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize) -> CudaError {
    api(|| set_2d(dst, pitch, value, width, height, None))
}

#[no_mangle]
pub extern "C" fn cudaMemset2DAsync(
    dst: *mut c_void,
    pitch: usize,
    value: c_int,
    width: usize,
    height: usize,
    st: *mut c_void,
) -> CudaError {
    api(|| set_2d(dst, pitch, value, width, height, Some(st)))
}

fn set_3d(p: PitchedPtr, value: c_int, e: Extent, st: Option<*mut c_void>) -> Result<()> {
    for z in 0..e.depth {
        let d = unsafe { (p.ptr as *mut u8).add(z * p.ysize * p.pitch) };
        set_2d(d as _, p.pitch, value, e.width, e.height, st)?;
    }
    Ok(())
}

#[no_mangle]
pub extern "C" fn cudaMemset3D(p: PitchedPtr, value: c_int, e: Extent) -> CudaError {
    api(|| set_3d(p, value, e, None))
}

#[no_mangle]
pub extern "C" fn cudaMemset3DAsync(p: PitchedPtr, value: c_int, e: Extent, st: *mut c_void) -> CudaError {
    api(|| set_3d(p, value, e, Some(st)))
}

/// `struct cudaMemLocation` (CUDA 13's unified-memory hints name a location, not a device).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct MemLocation {
    kind: c_int,
    id: c_int,
}

/// A location the hints may name: the device (there is one) or the host.
fn check_location(l: MemLocation) -> Result<()> {
    match l.kind {
        1 => crate::devices::check(l.id),
        2..=4 => Ok(()),
        _ => Err(error::INVALID_VALUE),
    }
}

/// Prefetching moves nothing: device memory is host memory on the CPU device.
#[no_mangle]
pub extern "C" fn cudaMemPrefetchAsync(_p: *const c_void, _n: usize, loc: MemLocation, _flags: c_uint, st: *mut c_void) -> CudaError {
    api(|| {
        check_location(loc)?;
        stream::resolve(st).map(|_| ())
    })
}

/// Advice changes placement only, never results: accepted once its arguments are valid.
#[no_mangle]
pub extern "C" fn cudaMemAdvise(_p: *const c_void, _n: usize, advice: c_int, loc: MemLocation) -> CudaError {
    api(|| {
        if !(1..=6).contains(&advice) {
            return Err(error::INVALID_VALUE);
        }
        check_location(loc)
    })
}
