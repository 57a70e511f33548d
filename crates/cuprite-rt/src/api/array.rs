//! CUDA arrays: allocation, information, and every copy to, from and between arrays
//! (2D, the legacy linear forms, and `cudaMemcpy3D`'s array sides, see `memory.rs`).
//! Copies are done on the calling thread after all earlier work, as blocking copies;
//! the `Async` forms order themselves the same way.

use super::memory::{Extent, Memcpy3DParms, KIND_D2D, KIND_D2H, KIND_H2D};
use super::out;
use crate::context::ctx;
use crate::error::{self, api, CudaError, Result};
use crate::memory;
use crate::texture::array::{self, Array};
use crate::texture::format::ChannelDesc;
use crate::texture::mipmap::{self, MipmappedArray};
use std::ffi::{c_int, c_uint, c_void};

#[no_mangle]
pub extern "C" fn cudaMallocArray(
    p: *mut *mut Array,
    desc: *const ChannelDesc,
    width: usize,
    height: usize,
    flags: c_uint,
) -> CudaError {
    api(|| alloc(p, desc, width, height, 0, flags))
}

#[no_mangle]
pub extern "C" fn cudaMalloc3DArray(p: *mut *mut Array, desc: *const ChannelDesc, e: Extent, flags: c_uint) -> CudaError {
    api(|| alloc(p, desc, e.width, e.height, e.depth, flags))
}

fn alloc(p: *mut *mut Array, desc: *const ChannelDesc, w: usize, h: usize, d: usize, flags: c_uint) -> Result<()> {
    if p.is_null() || desc.is_null() {
        return Err(error::INVALID_VALUE);
    }
    ctx().check()?;
    let a = Array::new(unsafe { *desc }, w, h, d, flags)?;
    out(p, array::register(Box::new(a)))
}

#[no_mangle]
pub extern "C" fn cudaFreeArray(p: *mut Array) -> CudaError {
    api(|| {
        if p.is_null() {
            return Ok(());
        }
        crate::stream::wait_all_streams();
        // A mipmapped array's level: CUDA 13 answers success and the level stays usable
        // (measured on an H100); its mipmapped array owns and frees it.
        if array::get(p)?.mip_level {
            return Ok(());
        }
        array::release(p)
    })
}

#[no_mangle]
pub extern "C" fn cudaMallocMipmappedArray(
    p: *mut *mut MipmappedArray,
    desc: *const ChannelDesc,
    e: Extent,
    levels: c_uint,
    flags: c_uint,
) -> CudaError {
    api(|| {
        if p.is_null() || desc.is_null() {
            return Err(error::INVALID_VALUE);
        }
        ctx().check()?;
        let m = MipmappedArray::new(unsafe { *desc }, e.width, e.height, e.depth, flags, levels)?;
        out(p, mipmap::register(Box::new(m)))
    })
}

#[no_mangle]
pub extern "C" fn cudaGetMipmappedArrayLevel(p: *mut *mut Array, m: *const MipmappedArray, level: c_uint) -> CudaError {
    api(|| {
        if p.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let m = mipmap::get(m)?;
        out(p, *m.levels.get(level as usize).ok_or(error::INVALID_VALUE)?)
    })
}

#[no_mangle]
pub extern "C" fn cudaFreeMipmappedArray(m: *mut MipmappedArray) -> CudaError {
    api(|| {
        if m.is_null() {
            return Ok(());
        }
        crate::stream::wait_all_streams();
        mipmap::get(m)?;
        mipmap::release(m)
    })
}

#[no_mangle]
pub extern "C" fn cudaArrayGetInfo(desc: *mut ChannelDesc, e: *mut Extent, flags: *mut c_uint, p: *const Array) -> CudaError {
    api(|| {
        let a = array::get(p)?;
        unsafe {
            if !desc.is_null() {
                *desc = a.desc;
            }
            if !e.is_null() {
                *e = Extent { width: a.width, height: a.height, depth: a.depth };
            }
            if !flags.is_null() {
                *flags = a.flags;
            }
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaGetChannelDesc(desc: *mut ChannelDesc, p: *const Array) -> CudaError {
    api(|| out(desc, array::get(p)?.desc))
}

/// Waits for earlier work (and flushes device printf), as a blocking copy does.
fn before_copy(kind: c_int) -> Result<()> {
    memory::check_kind(kind)?;
    let c = ctx();
    c.check()?;
    crate::stream::default_stream().synchronize_implicit();
    crate::printf::flush();
    c.check()
}

/// The linear side of a copy: `rows` rows of `width` bytes, `pitch` apart. Device memory
/// must be known to the device when the kind says it is device memory.
fn check_linear(p: *const c_void, pitch: usize, width: usize, rows: usize, device: bool) -> Result<()> {
    if width == 0 || rows == 0 {
        return Ok(());
    }
    if p.is_null() || pitch < width {
        return Err(error::INVALID_VALUE);
    }
    if device && !memory::is_device_range(p, pitch * (rows - 1) + width) {
        return Err(error::INVALID_VALUE);
    }
    Ok(())
}

/// Copies a rectangle of `width` bytes × `rows` rows.
///
/// # Safety
/// Both sides must be valid for the rectangle.
unsafe fn copy_rows(dst: *mut u8, dpitch: usize, src: *const u8, spitch: usize, width: usize, rows: usize) {
    for r in 0..rows {
        let _ = crate::gpu::copy_any(dst.add(r * dpitch), src.add(r * spitch), width);
    }
}

/// Checks a rectangle of an array and returns its first byte.
fn array_rect(a: &Array, x_bytes: usize, y: usize, z: usize, width: usize, rows: usize) -> Result<*mut u8> {
    if rows == 0 || width == 0 {
        return Ok(a.base());
    }
    a.at(x_bytes, y + rows - 1, z, width)?;
    a.at(x_bytes, y, z, width)
}

fn to_array_2d(
    dst: *mut Array,
    w_off: usize,
    h_off: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> Result<()> {
    let a = array::get(dst)?;
    before_copy(kind)?;
    let d = array_rect(a, w_off, h_off, 0, width, height)?;
    check_linear(src, spitch, width, height, matches!(kind, KIND_D2H | KIND_D2D))?;
    unsafe { copy_rows(d, a.row_bytes(), src as *const u8, spitch, width, height) };
    Ok(())
}

fn from_array_2d(
    dst: *mut c_void,
    dpitch: usize,
    src: *const Array,
    w_off: usize,
    h_off: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> Result<()> {
    let a = array::get(src)?;
    before_copy(kind)?;
    let s = array_rect(a, w_off, h_off, 0, width, height)?;
    check_linear(dst, dpitch, width, height, matches!(kind, KIND_H2D | KIND_D2D))?;
    unsafe { copy_rows(dst as *mut u8, dpitch, s, a.row_bytes(), width, height) };
    Ok(())
}

#[no_mangle]
pub extern "C" fn cudaMemcpy2DToArray(
    dst: *mut Array,
    w_off: usize,
    h_off: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> CudaError {
    api(|| to_array_2d(dst, w_off, h_off, src, spitch, width, height, kind))
}

#[no_mangle]
pub extern "C" fn cudaMemcpy2DToArrayAsync(
    dst: *mut Array,
    w_off: usize,
    h_off: usize,
    src: *const c_void,
    spitch: usize,
    width: usize,
    height: usize,
    kind: c_int,
    st: *mut c_void,
) -> CudaError {
    api(|| {
        crate::stream::resolve(st)?;
        to_array_2d(dst, w_off, h_off, src, spitch, width, height, kind)
    })
}

#[no_mangle]
pub extern "C" fn cudaMemcpy2DFromArray(
    dst: *mut c_void,
    dpitch: usize,
    src: *const Array,
    w_off: usize,
    h_off: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> CudaError {
    api(|| from_array_2d(dst, dpitch, src, w_off, h_off, width, height, kind))
}

#[no_mangle]
pub extern "C" fn cudaMemcpy2DFromArrayAsync(
    dst: *mut c_void,
    dpitch: usize,
    src: *const Array,
    w_off: usize,
    h_off: usize,
    width: usize,
    height: usize,
    kind: c_int,
    st: *mut c_void,
) -> CudaError {
    api(|| {
        crate::stream::resolve(st)?;
        from_array_2d(dst, dpitch, src, w_off, h_off, width, height, kind)
    })
}

#[no_mangle]
pub extern "C" fn cudaMemcpy2DArrayToArray(
    dst: *mut Array,
    wd: usize,
    hd: usize,
    src: *const Array,
    ws: usize,
    hs: usize,
    width: usize,
    height: usize,
    kind: c_int,
) -> CudaError {
    api(|| {
        let (d, s) = (array::get(dst)?, array::get(src)?);
        before_copy(kind)?;
        let dp = array_rect(d, wd, hd, 0, width, height)?;
        let sp = array_rect(s, ws, hs, 0, width, height)?;
        unsafe { copy_rows(dp, d.row_bytes(), sp, s.row_bytes(), width, height) };
        Ok(())
    })
}

/// The legacy linear copies address an array as one run of bytes starting at byte
/// `w_off` of row `h_off` and running on across rows (as CUDA 13 still does).
fn linear_span(a: &Array, w_off: usize, h_off: usize, count: usize) -> Result<*mut u8> {
    if w_off >= a.row_bytes() || h_off >= a.rows() {
        return Err(error::INVALID_VALUE);
    }
    let start = h_off * a.row_bytes() + w_off;
    if start.checked_add(count).is_none_or(|e| e > a.slice_bytes()) {
        return Err(error::INVALID_VALUE);
    }
    Ok(unsafe { a.base().add(start) })
}

fn to_array(dst: *mut Array, w_off: usize, h_off: usize, src: *const c_void, count: usize, kind: c_int) -> Result<()> {
    let a = array::get(dst)?;
    before_copy(kind)?;
    let d = linear_span(a, w_off, h_off, count)?;
    check_linear(src, count, count, 1, matches!(kind, KIND_D2H | KIND_D2D))?;
    unsafe { crate::gpu::copy_any(d, src as *const u8, count) }
}

fn from_array(dst: *mut c_void, src: *const Array, w_off: usize, h_off: usize, count: usize, kind: c_int) -> Result<()> {
    let a = array::get(src)?;
    before_copy(kind)?;
    let s = linear_span(a, w_off, h_off, count)?;
    check_linear(dst, count, count, 1, matches!(kind, KIND_H2D | KIND_D2D))?;
    unsafe { crate::gpu::copy_any(dst as *mut u8, s, count) }
}

#[no_mangle]
pub extern "C" fn cudaMemcpyToArray(dst: *mut Array, w: usize, h: usize, src: *const c_void, n: usize, kind: c_int) -> CudaError {
    api(|| to_array(dst, w, h, src, n, kind))
}

#[no_mangle]
pub extern "C" fn cudaMemcpyToArrayAsync(
    dst: *mut Array,
    w: usize,
    h: usize,
    src: *const c_void,
    n: usize,
    kind: c_int,
    st: *mut c_void,
) -> CudaError {
    api(|| {
        crate::stream::resolve(st)?;
        to_array(dst, w, h, src, n, kind)
    })
}

#[no_mangle]
pub extern "C" fn cudaMemcpyFromArray(dst: *mut c_void, src: *const Array, w: usize, h: usize, n: usize, kind: c_int) -> CudaError {
    api(|| from_array(dst, src, w, h, n, kind))
}

#[no_mangle]
pub extern "C" fn cudaMemcpyFromArrayAsync(
    dst: *mut c_void,
    src: *const Array,
    w: usize,
    h: usize,
    n: usize,
    kind: c_int,
    st: *mut c_void,
) -> CudaError {
    api(|| {
        crate::stream::resolve(st)?;
        from_array(dst, src, w, h, n, kind)
    })
}

#[no_mangle]
pub extern "C" fn cudaMemcpyArrayToArray(
    dst: *mut Array,
    wd: usize,
    hd: usize,
    src: *const Array,
    ws: usize,
    hs: usize,
    n: usize,
    kind: c_int,
) -> CudaError {
    api(|| {
        let (d, s) = (array::get(dst)?, array::get(src)?);
        before_copy(kind)?;
        let dp = linear_span(d, wd, hd, n)?;
        let sp = linear_span(s, ws, hs, n)?;
        unsafe { std::ptr::copy(sp, dp, n) };
        Ok(())
    })
}

/// One side of a 3D copy: an array (positions and extent in elements) or pitched
/// memory (in bytes).
struct Side {
    base: *mut u8,
    pitch: usize,
    slice: usize,
}

fn side_3d(arr: *mut c_void, pos: super::memory::Pos, ptr: super::memory::PitchedPtr, e: Extent, elem: Option<usize>, device: bool) -> Result<Side> {
    if !arr.is_null() {
        let a = array::get(arr as *const Array)?;
        let eb = a.elem();
        let (w, x) = (e.width * eb, pos.x * eb);
        if e.depth > 0 && e.height > 0 {
            a.at(x, pos.y + e.height - 1, pos.z + e.depth - 1, w)?;
        }
        let base = a.at(x, pos.y, pos.z, w)?;
        return Ok(Side { base, pitch: a.row_bytes(), slice: a.slice_bytes() });
    }
    let w = e.width * elem.unwrap_or(1);
    if ptr.ptr.is_null() || ptr.pitch < pos.x + w {
        return Err(error::INVALID_VALUE);
    }
    let slice = ptr.pitch * ptr.ysize.max(1);
    let first = (pos.z * ptr.ysize + pos.y) * ptr.pitch + pos.x;
    let span = if e.depth == 0 || e.height == 0 { 0 } else { (e.depth - 1) * slice + (e.height - 1) * ptr.pitch + w };
    if device && span > 0 && !memory::is_device_range(unsafe { (ptr.ptr as *const u8).add(first) } as *const c_void, span) {
        return Err(error::INVALID_VALUE);
    }
    Ok(Side { base: unsafe { (ptr.ptr as *mut u8).add(first) }, pitch: ptr.pitch, slice })
}

/// `cudaMemcpy3D` where either side is an array: the extent's width is in elements of
/// the array's format.
pub(crate) fn copy_3d_arrays(p: &Memcpy3DParms) -> Result<()> {
    let elem = [p.src_array, p.dst_array]
        .iter()
        .find(|a| !a.is_null())
        .map(|a| array::get(*a as *const Array).map(|a| a.elem()))
        .transpose()?;
    before_copy(p.kind)?;
    let e = p.extent;
    let s = side_3d(p.src_array, p.src_pos, p.src_ptr, e, elem, matches!(p.kind, KIND_D2H | KIND_D2D))?;
    let d = side_3d(p.dst_array, p.dst_pos, p.dst_ptr, e, elem, matches!(p.kind, KIND_H2D | KIND_D2D))?;
    let w = e.width * elem.unwrap_or(1);
    for z in 0..e.depth {
        unsafe { copy_rows(d.base.add(z * d.slice), d.pitch, s.base.add(z * s.slice), s.pitch, w, e.height) };
    }
    Ok(())
}

/// `cudaCreateChannelDesc(x, y, z, w, f)`, the explicit form (the template is in
/// include/channel_descriptor.h).
#[no_mangle]
pub extern "C" fn cudaCreateChannelDesc(x: c_int, y: c_int, z: c_int, w: c_int, f: c_int) -> ChannelDesc {
    ChannelDesc { x, y, z, w, f }
}
