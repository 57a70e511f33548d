//! Memory: `cuMem*` over the runtime's allocator and copies (a `CUdeviceptr` is a device
//! address, as a `cudaMalloc` pointer is), `cuMemsetD8/16/32`, pointer attributes.

use super::context::{primary_handle, require};
use super::{drv, out, rt, CuResult, Result, INVALID_VALUE};
use crate::api::memory as m;
use crate::context::ctx;
use crate::memory::{self, Kind};
use std::ffi::{c_int, c_uint, c_void};

type DPtr = u64;
const DEFAULT: c_int = 4; // cudaMemcpyDefault: the runtime tells the sides apart

/// The context each `cuMemAlloc` allocation was made in (CU_POINTER_ATTRIBUTE_CONTEXT);
/// other device memory belongs to the primary context.
fn owners() -> std::sync::MutexGuard<'static, std::collections::HashMap<DPtr, usize>> {
    static O: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<DPtr, usize>>> = std::sync::OnceLock::new();
    O.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

fn p(d: DPtr) -> *mut c_void {
    d as usize as *mut c_void
}

#[no_mangle]
pub extern "C" fn cuMemAlloc_v2(dptr: *mut DPtr, size: usize) -> CuResult {
    drv(|| {
        let owner = require()?;
        if dptr.is_null() || size == 0 {
            return Err(INVALID_VALUE);
        }
        let mut x = std::ptr::null_mut();
        rt(m::cudaMalloc(&mut x, size))?;
        owners().insert(x as DPtr, owner);
        out(dptr, x as DPtr)
    })
}

#[no_mangle]
pub extern "C" fn cuMemAllocPitch_v2(dptr: *mut DPtr, pitch: *mut usize, width: usize, height: usize, elem: c_uint) -> CuResult {
    drv(|| {
        require()?;
        if dptr.is_null() || !matches!(elem, 4 | 8 | 16) || width == 0 || height == 0 {
            return Err(INVALID_VALUE);
        }
        let mut x = std::ptr::null_mut();
        rt(m::cudaMallocPitch(&mut x, pitch, width, height))?;
        out(dptr, x as DPtr)
    })
}

#[no_mangle]
pub extern "C" fn cuMemAllocManaged(dptr: *mut DPtr, size: usize, flags: c_uint) -> CuResult {
    drv(|| {
        require()?;
        let mut x = std::ptr::null_mut();
        rt(m::cudaMallocManaged(&mut x, size, flags))?;
        out(dptr, x as DPtr)
    })
}

#[no_mangle]
pub extern "C" fn cuMemFree_v2(d: DPtr) -> CuResult {
    drv(|| {
        require()?;
        if d == 0 {
            return Err(INVALID_VALUE);
        }
        rt(m::cudaFree(p(d)))?;
        owners().remove(&d);
        Ok(())
    })
}

/// Stream-ordered allocation, the simplest valid way: the memory is allocated at once
/// (usable by all later work of the stream), and freed once the stream's earlier work is
/// done. (Memory pools are the runtime's `cudaMallocAsync` side.)
#[no_mangle]
pub extern "C" fn cuMemAllocAsync(dptr: *mut DPtr, size: usize, st: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        if size == 0 {
            return Err(INVALID_VALUE);
        }
        // The stream-ordered allocator of the runtime: the stream's device pool.
        let mut x = std::ptr::null_mut();
        rt(crate::api::mempool::cudaMallocAsync(&mut x, size, st))?;
        out(dptr, x as DPtr)
    })
}

#[no_mangle]
pub extern "C" fn cuMemFreeAsync(d: DPtr, st: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        rt(crate::api::mempool::cudaFreeAsync(p(d), st))
    })
}

#[no_mangle]
pub extern "C" fn cuMemGetInfo_v2(free: *mut usize, total: *mut usize) -> CuResult {
    drv(|| {
        require()?;
        rt(m::cudaMemGetInfo(free, total))
    })
}

#[no_mangle]
pub extern "C" fn cuMemGetAddressRange_v2(base: *mut DPtr, size: *mut usize, d: DPtr) -> CuResult {
    drv(|| {
        require()?;
        let a = memory::lookup(p(d)).ok_or(super::NOT_FOUND)?;
        if !base.is_null() {
            unsafe { *base = a.base as DPtr };
        }
        if !size.is_null() {
            unsafe { *size = a.size };
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuMemAllocHost_v2(pp: *mut *mut c_void, size: usize) -> CuResult {
    drv(|| {
        require()?;
        rt(m::cudaMallocHost(pp, size))
    })
}

#[no_mangle]
pub extern "C" fn cuMemHostAlloc(pp: *mut *mut c_void, size: usize, flags: c_uint) -> CuResult {
    drv(|| {
        require()?;
        rt(m::cudaHostAlloc(pp, size, flags))
    })
}

#[no_mangle]
pub extern "C" fn cuMemFreeHost(ptr: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        rt(m::cudaFreeHost(ptr))
    })
}

#[no_mangle]
pub extern "C" fn cuMemHostGetDevicePointer_v2(d: *mut DPtr, host: *mut c_void, flags: c_uint) -> CuResult {
    drv(|| {
        require()?;
        let mut x = std::ptr::null_mut();
        rt(m::cudaHostGetDevicePointer(&mut x, host, flags))?;
        out(d, x as DPtr)
    })
}

#[no_mangle]
pub extern "C" fn cuMemHostGetFlags(flags: *mut c_uint, host: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        rt(m::cudaHostGetFlags(flags, host))
    })
}

#[no_mangle]
pub extern "C" fn cuMemHostRegister_v2(ptr: *mut c_void, size: usize, flags: c_uint) -> CuResult {
    drv(|| {
        require()?;
        rt(m::cudaHostRegister(ptr, size, flags))
    })
}

/// The CUDA 4.0 name (same arguments), still exported.
#[no_mangle]
pub extern "C" fn cuMemHostRegister(ptr: *mut c_void, size: usize, flags: c_uint) -> CuResult {
    cuMemHostRegister_v2(ptr, size, flags)
}

#[no_mangle]
pub extern "C" fn cuMemHostUnregister(ptr: *mut c_void) -> CuResult {
    drv(|| {
        require()?;
        rt(m::cudaHostUnregister(ptr))
    })
}

// ---- copies -------------------------------------------------------------------------

fn copy(dst: *mut c_void, src: *const c_void, n: usize, kind: c_int) -> Result<()> {
    require()?;
    rt(m::cudaMemcpy(dst, src, n, kind))
}

fn copy_async(dst: *mut c_void, src: *const c_void, n: usize, kind: c_int, st: *mut c_void) -> Result<()> {
    require()?;
    rt(m::cudaMemcpyAsync(dst, src, n, kind, st))
}

#[no_mangle]
pub extern "C" fn cuMemcpyHtoD_v2(dst: DPtr, src: *const c_void, n: usize) -> CuResult {
    drv(|| copy(p(dst), src, n, m::KIND_H2D))
}
#[no_mangle]
pub extern "C" fn cuMemcpyDtoH_v2(dst: *mut c_void, src: DPtr, n: usize) -> CuResult {
    drv(|| copy(dst, p(src), n, m::KIND_D2H))
}
#[no_mangle]
pub extern "C" fn cuMemcpyDtoD_v2(dst: DPtr, src: DPtr, n: usize) -> CuResult {
    drv(|| copy(p(dst), p(src), n, m::KIND_D2D))
}
#[no_mangle]
pub extern "C" fn cuMemcpy(dst: DPtr, src: DPtr, n: usize) -> CuResult {
    drv(|| copy(p(dst), p(src), n, DEFAULT))
}
#[no_mangle]
pub extern "C" fn cuMemcpyHtoDAsync_v2(dst: DPtr, src: *const c_void, n: usize, st: *mut c_void) -> CuResult {
    drv(|| copy_async(p(dst), src, n, m::KIND_H2D, st))
}
#[no_mangle]
pub extern "C" fn cuMemcpyDtoHAsync_v2(dst: *mut c_void, src: DPtr, n: usize, st: *mut c_void) -> CuResult {
    drv(|| copy_async(dst, p(src), n, m::KIND_D2H, st))
}
#[no_mangle]
pub extern "C" fn cuMemcpyDtoDAsync_v2(dst: DPtr, src: DPtr, n: usize, st: *mut c_void) -> CuResult {
    drv(|| copy_async(p(dst), p(src), n, m::KIND_D2D, st))
}

/// The CUDA 3.0 form with 32-bit device pointers (`CUdeviceptr_v1`), still exported for
/// old binaries: Cuprite's device memory lies above 4 GiB, so such a copy finds no memory.
#[no_mangle]
pub extern "C" fn cuMemcpyDtoDAsync(dst: c_uint, src: c_uint, n: c_uint, st: *mut c_void) -> CuResult {
    cuMemcpyDtoDAsync_v2(dst as DPtr, src as DPtr, n as usize, st)
}
#[no_mangle]
pub extern "C" fn cuMemcpyAsync(dst: DPtr, src: DPtr, n: usize, st: *mut c_void) -> CuResult {
    drv(|| copy_async(p(dst), p(src), n, DEFAULT, st))
}

/// `CUDA_MEMCPY2D`.
#[repr(C)]
pub struct Memcpy2D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_memory_type: c_int,
    pub src_host: *const c_void,
    pub src_device: DPtr,
    pub src_array: *mut c_void,
    pub src_pitch: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_memory_type: c_int,
    pub dst_host: *mut c_void,
    pub dst_device: DPtr,
    pub dst_array: *mut c_void,
    pub dst_pitch: usize,
    pub width_in_bytes: usize,
    pub height: usize,
}

/// `CUDA_MEMCPY3D`.
#[repr(C)]
pub struct Memcpy3D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_z: usize,
    pub src_lod: usize,
    pub src_memory_type: c_int,
    pub src_host: *const c_void,
    pub src_device: DPtr,
    pub src_array: *mut c_void,
    pub reserved0: *mut c_void,
    pub src_pitch: usize,
    pub src_height: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_z: usize,
    pub dst_lod: usize,
    pub dst_memory_type: c_int,
    pub dst_host: *mut c_void,
    pub dst_device: DPtr,
    pub dst_array: *mut c_void,
    pub reserved1: *mut c_void,
    pub dst_pitch: usize,
    pub dst_height: usize,
    pub width_in_bytes: usize,
    pub height: usize,
    pub depth: usize,
}

/// One side of a 2D/3D copy (`CUmemorytype`: host 1, device 2, array 3, unified 4): its
/// base address, row pitch and rows per slice. A CUDA array's rows are packed.
struct Side {
    base: *mut u8,
    pitch: usize,
    height: usize,
}

fn side(ty: c_int, host: *const c_void, dev: DPtr, array: *mut c_void, pitch: usize, height: usize) -> Result<Side> {
    match ty {
        1 => Ok(Side { base: host as *mut u8, pitch, height }),
        2 | 4 => Ok(Side { base: dev as usize as *mut u8, pitch, height }),
        3 => {
            let a = crate::texture::array::get(array as *const crate::texture::array::Array).map_err(|_| super::INVALID_HANDLE)?;
            Ok(Side { base: a.base(), pitch: a.row_bytes(), height: a.rows() })
        }
        _ => Err(INVALID_VALUE),
    }
}

/// Checks that a box of `width` bytes × `rows` × `depth` at (x, y, z) lies in an array side.
fn check_array_box(ty: c_int, array: *mut c_void, x: usize, y: usize, z: usize, width: usize, rows: usize, depth: usize) -> Result<()> {
    if ty != 3 || width == 0 || rows == 0 || depth == 0 {
        return Ok(());
    }
    let a = crate::texture::array::get(array as *const crate::texture::array::Array).map_err(|_| super::INVALID_HANDLE)?;
    if x + width > a.row_bytes() || y + rows > a.rows() || z + depth > a.slices() {
        return Err(INVALID_VALUE);
    }
    Ok(())
}

fn copy_2d(c: &Memcpy2D, st: Option<*mut c_void>) -> Result<()> {
    require()?;
    let s = side(c.src_memory_type, c.src_host, c.src_device, c.src_array, c.src_pitch, 0)?;
    let d = side(c.dst_memory_type, c.dst_host, c.dst_device, c.dst_array, c.dst_pitch, 0)?;
    check_array_box(c.src_memory_type, c.src_array, c.src_x_in_bytes, c.src_y, 0, c.width_in_bytes, c.height, 1)?;
    check_array_box(c.dst_memory_type, c.dst_array, c.dst_x_in_bytes, c.dst_y, 0, c.width_in_bytes, c.height, 1)?;
    let src = s.base.wrapping_add(c.src_y * s.pitch + c.src_x_in_bytes);
    let dst = d.base.wrapping_add(c.dst_y * d.pitch + c.dst_x_in_bytes);
    let (sp, dp) = (s.pitch.max(c.width_in_bytes), d.pitch.max(c.width_in_bytes));
    rt(match st {
        None => m::cudaMemcpy2D(dst as _, dp, src as _, sp, c.width_in_bytes, c.height, DEFAULT),
        Some(st) => m::cudaMemcpy2DAsync(dst as _, dp, src as _, sp, c.width_in_bytes, c.height, DEFAULT, st),
    })
}

fn copy_3d(c: &Memcpy3D, st: Option<*mut c_void>) -> Result<()> {
    require()?;
    let s = side(c.src_memory_type, c.src_host, c.src_device, c.src_array, c.src_pitch, c.src_height)?;
    let d = side(c.dst_memory_type, c.dst_host, c.dst_device, c.dst_array, c.dst_pitch, c.dst_height)?;
    check_array_box(c.src_memory_type, c.src_array, c.src_x_in_bytes, c.src_y, c.src_z, c.width_in_bytes, c.height, c.depth)?;
    check_array_box(c.dst_memory_type, c.dst_array, c.dst_x_in_bytes, c.dst_y, c.dst_z, c.width_in_bytes, c.height, c.depth)?;
    for z in 0..c.depth {
        let plane = Memcpy2D {
            src_x_in_bytes: 0,
            src_y: 0,
            src_memory_type: 1,
            src_host: s.base.wrapping_add(((c.src_z + z) * s.height + c.src_y) * s.pitch + c.src_x_in_bytes) as _,
            src_device: 0,
            src_array: std::ptr::null_mut(),
            src_pitch: s.pitch,
            dst_x_in_bytes: 0,
            dst_y: 0,
            dst_memory_type: 1,
            dst_host: d.base.wrapping_add(((c.dst_z + z) * d.height + c.dst_y) * d.pitch + c.dst_x_in_bytes) as _,
            dst_device: 0,
            dst_array: std::ptr::null_mut(),
            dst_pitch: d.pitch,
            width_in_bytes: c.width_in_bytes,
            height: c.height,
        };
        copy_2d(&plane, st)?;
    }
    Ok(())
}

#[no_mangle]
pub extern "C" fn cuMemcpy2D_v2(c: *const Memcpy2D) -> CuResult {
    drv(|| copy_2d(unsafe { c.as_ref() }.ok_or(INVALID_VALUE)?, None))
}
#[no_mangle]
pub extern "C" fn cuMemcpy2DUnaligned_v2(c: *const Memcpy2D) -> CuResult {
    cuMemcpy2D_v2(c)
}
#[no_mangle]
pub extern "C" fn cuMemcpy2DAsync_v2(c: *const Memcpy2D, st: *mut c_void) -> CuResult {
    drv(|| copy_2d(unsafe { c.as_ref() }.ok_or(INVALID_VALUE)?, Some(st)))
}
#[no_mangle]
pub extern "C" fn cuMemcpy3D_v2(c: *const Memcpy3D) -> CuResult {
    drv(|| copy_3d(unsafe { c.as_ref() }.ok_or(INVALID_VALUE)?, None))
}
#[no_mangle]
pub extern "C" fn cuMemcpy3DAsync_v2(c: *const Memcpy3D, st: *mut c_void) -> CuResult {
    drv(|| copy_3d(unsafe { c.as_ref() }.ok_or(INVALID_VALUE)?, Some(st)))
}

// ---- sets ---------------------------------------------------------------------------

/// Fills `n` elements of `W` bytes (rows of `width` elements `pitch` bytes apart), after
/// the work already in `st` (the legacy default stream when `st` is `None`): the fill
/// itself happens before the call returns, which orders it as CUDA does.
fn fill<const W: usize>(dst: DPtr, pitch: usize, value: [u8; W], width: usize, height: usize, st: Option<*mut c_void>) -> Result<()> {
    require()?;
    let c = ctx();
    rt(c.check().err().unwrap_or(0))?;
    if width == 0 || height == 0 {
        return Ok(());
    }
    let row = width * W;
    let pitch = if height == 1 { row } else { pitch };
    if dst as usize % W != 0 || pitch < row {
        return Err(INVALID_VALUE);
    }
    let span = pitch * (height - 1) + row;
    if dst == 0 || !memory::is_device_range(p(dst), span) {
        return Err(INVALID_VALUE);
    }
    match st {
        Some(st) => crate::stream::resolve(st).map_err(super::from_runtime)?.synchronize(),
        None => crate::stream::wait_all_streams(),
    }
    if crate::gpu::active().is_some() {
        let mut v = [0u8; 4];
        v[..W].copy_from_slice(&value);
        crate::graph::exec::set_elements(p(dst), pitch, u32::from_le_bytes(v), W, width, height);
        return Ok(());
    }
    for y in 0..height {
        let r = (dst as usize + y * pitch) as *mut [u8; W];
        for x in 0..width {
            unsafe { r.add(x).write_unaligned(value) };
        }
        crate::sanitize::note_host_write(r as usize, width * W);
    }
    Ok(())
}

#[no_mangle]
pub extern "C" fn cuMemsetD8_v2(d: DPtr, v: u8, n: usize) -> CuResult {
    drv(|| fill(d, 0, [v], n, 1, None))
}
#[no_mangle]
pub extern "C" fn cuMemsetD16_v2(d: DPtr, v: u16, n: usize) -> CuResult {
    drv(|| fill(d, 0, v.to_ne_bytes(), n, 1, None))
}
#[no_mangle]
pub extern "C" fn cuMemsetD32_v2(d: DPtr, v: u32, n: usize) -> CuResult {
    drv(|| fill(d, 0, v.to_ne_bytes(), n, 1, None))
}
#[no_mangle]
pub extern "C" fn cuMemsetD8Async(d: DPtr, v: u8, n: usize, st: *mut c_void) -> CuResult {
    drv(|| fill(d, 0, [v], n, 1, Some(st)))
}
#[no_mangle]
pub extern "C" fn cuMemsetD16Async(d: DPtr, v: u16, n: usize, st: *mut c_void) -> CuResult {
    drv(|| fill(d, 0, v.to_ne_bytes(), n, 1, Some(st)))
}
#[no_mangle]
pub extern "C" fn cuMemsetD32Async(d: DPtr, v: u32, n: usize, st: *mut c_void) -> CuResult {
    drv(|| fill(d, 0, v.to_ne_bytes(), n, 1, Some(st)))
}
#[no_mangle]
pub extern "C" fn cuMemsetD2D8_v2(d: DPtr, pitch: usize, v: u8, w: usize, h: usize) -> CuResult {
    drv(|| fill(d, pitch, [v], w, h, None))
}
#[no_mangle]
pub extern "C" fn cuMemsetD2D16_v2(d: DPtr, pitch: usize, v: u16, w: usize, h: usize) -> CuResult {
    drv(|| fill(d, pitch, v.to_ne_bytes(), w, h, None))
}
#[no_mangle]
pub extern "C" fn cuMemsetD2D32_v2(d: DPtr, pitch: usize, v: u32, w: usize, h: usize) -> CuResult {
    drv(|| fill(d, pitch, v.to_ne_bytes(), w, h, None))
}

// ---- pointer attributes -------------------------------------------------------------

const ATTR_CONTEXT: c_int = 1;
const ATTR_MEMORY_TYPE: c_int = 2;
const ATTR_DEVICE_POINTER: c_int = 3;
const ATTR_HOST_POINTER: c_int = 4;
const ATTR_SYNC_MEMOPS: c_int = 6;
const ATTR_BUFFER_ID: c_int = 7;
const ATTR_IS_MANAGED: c_int = 8;
const ATTR_DEVICE_ORDINAL: c_int = 9;
const ATTR_RANGE_START_ADDR: c_int = 11;
const ATTR_RANGE_SIZE: c_int = 12;
const ATTR_MAPPED: c_int = 13;

/// One attribute of a pointer the runtime knows, or None for memory it does not.
fn attribute(attr: c_int, ptr: DPtr) -> Result<Option<u64>> {
    let a = memory::lookup(p(ptr));
    let var = if a.is_none() { crate::registry::var_containing(ptr as usize, 1) } else { None };
    if a.is_none() && var.is_none() {
        return Ok(None);
    }
    // CUmemorytype: host 1, device 2, unified 4 (managed memory reports device).
    let (ty, managed, host_ok) = match a.map(|a| a.kind) {
        Some(Kind::Device) => (2, false, false),
        Some(Kind::Managed) => (2, true, true),
        Some(Kind::PinnedHost(_)) | Some(Kind::Registered(_)) => (1, false, true),
        None => (2, var.as_ref().is_some_and(|v| v.is_managed), var.as_ref().is_some_and(|v| v.is_managed)),
    };
    let (base, size) = match (a, &var) {
        (Some(a), _) => (a.base as u64, a.size as u64),
        (None, Some(v)) => (v.device_addr as u64, v.size),
        _ => unreachable!(),
    };
    Ok(Some(match attr {
        ATTR_CONTEXT => owners().get(&base).copied().unwrap_or_else(primary_handle) as u64,
        ATTR_MEMORY_TYPE => ty,
        ATTR_DEVICE_POINTER => ptr,
        ATTR_HOST_POINTER if host_ok => ptr,
        ATTR_HOST_POINTER => return Err(INVALID_VALUE),
        ATTR_SYNC_MEMOPS => 1,
        ATTR_BUFFER_ID => base,
        ATTR_IS_MANAGED => managed as u64,
        ATTR_DEVICE_ORDINAL => 0,
        ATTR_RANGE_START_ADDR => base,
        ATTR_RANGE_SIZE => size,
        ATTR_MAPPED => 1,
        _ => return Err(INVALID_VALUE),
    }))
}

/// The size in bytes of an attribute's value.
fn attribute_width(attr: c_int) -> usize {
    match attr {
        ATTR_MEMORY_TYPE | ATTR_SYNC_MEMOPS | ATTR_IS_MANAGED | ATTR_DEVICE_ORDINAL | ATTR_MAPPED => 4,
        _ => 8,
    }
}

unsafe fn write_attr(data: *mut c_void, attr: c_int, v: u64) {
    if attribute_width(attr) == 4 {
        (data as *mut u32).write_unaligned(v as u32)
    } else {
        (data as *mut u64).write_unaligned(v)
    }
}

#[no_mangle]
pub extern "C" fn cuPointerGetAttribute(data: *mut c_void, attr: c_int, ptr: DPtr) -> CuResult {
    drv(|| {
        require()?;
        if data.is_null() {
            return Err(INVALID_VALUE);
        }
        let v = attribute(attr, ptr)?.ok_or(INVALID_VALUE)?;
        unsafe { write_attr(data, attr, v) };
        Ok(())
    })
}

/// Unlike `cuPointerGetAttribute`, memory the runtime does not know is no error: its
/// attributes read as zero (memory type 0, context NULL).
#[no_mangle]
pub extern "C" fn cuPointerGetAttributes(n: c_uint, attrs: *const c_int, data: *mut *mut c_void, ptr: DPtr) -> CuResult {
    drv(|| {
        require()?;
        if n > 0 && (attrs.is_null() || data.is_null()) {
            return Err(INVALID_VALUE);
        }
        for i in 0..n as usize {
            let (a, d) = unsafe { (*attrs.add(i), *data.add(i)) };
            if d.is_null() {
                continue;
            }
            let v = match attribute(a, ptr) {
                Ok(Some(v)) => v,
                Ok(None) if a == ATTR_DEVICE_ORDINAL => -2i64 as u64,
                Ok(None) | Err(_) => 0,
            };
            unsafe { write_attr(d, a, v) };
        }
        Ok(())
    })
}
