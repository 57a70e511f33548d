//! Legacy texture references: `cudaBindTexture`, `cudaBindTexture2D`,
//! `cudaBindTextureToArray`, `cudaUnbindTexture`, `cudaGetTextureReference`,
//! `cudaGetTextureAlignmentOffset`.
//!
//! A `texture<T, dim, mode>` variable is a host object (a `textureReference`) that the
//! device object registers as the host shadow of an 8-byte device cell. Each binding
//! creates a texture object from the reference's fields at that moment and stores its
//! handle in the cell, where device code's fetches read it; the previous object is retired.

use super::texture::{create_texture, retire_texture};
use crate::context::ctx;
use crate::error::{self, api, CudaError, Result};
use crate::registry;
use crate::texture::array::{self, Array};
use crate::texture::format::ChannelDesc;
use crate::texture::object::{ResourceDesc, TextureDesc, INVALID_TEXTURE};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Mutex;

/// CUDA's `struct textureReference`. The `texture<>` template's constructor records its
/// read mode and dimension in the first reserved words (`cuda_runtime.h`), since the
/// runtime cannot see template arguments.
#[repr(C)]
pub struct TextureReference {
    normalized: i32,
    filter_mode: i32,
    address_mode: [i32; 3],
    channel_desc: ChannelDesc,
    srgb: i32,
    max_anisotropy: u32,
    mipmap_filter_mode: i32,
    mipmap_level_bias: f32,
    min_mipmap_level_clamp: f32,
    max_mipmap_level_clamp: f32,
    disable_trilinear_optimization: i32,
    reserved: [i32; 14],
}

const RESERVED_READ_MODE: usize = 0;

/// Texture objects behind bound references: reference address -> (handle, offset).
static BOUND: Mutex<Option<HashMap<usize, (u64, usize)>>> = Mutex::new(None);

fn bound<R>(f: impl FnOnce(&mut HashMap<usize, (u64, usize)>) -> R) -> R {
    f(BOUND.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashMap::new))
}

/// The device cell of a registered reference; anything else is not a texture reference.
fn cell(tr: *const TextureReference) -> Result<*mut u64> {
    if tr.is_null() {
        return Err(INVALID_TEXTURE);
    }
    match registry::var(tr as *const c_void) {
        Some(v) if v.size == 8 && !v.is_constant && !v.is_managed && v.device_addr != tr as usize => Ok(v.device_addr as *mut u64),
        _ => Err(INVALID_TEXTURE),
    }
}

fn descriptor(tr: &TextureReference) -> TextureDesc {
    TextureDesc {
        address_mode: tr.address_mode,
        filter_mode: tr.filter_mode,
        read_mode: tr.reserved[RESERVED_READ_MODE],
        srgb: tr.srgb,
        normalized_coords: tr.normalized,
        max_anisotropy: tr.max_anisotropy,
        ..TextureDesc::default()
    }
}

/// Binds `tr` to a new texture object over `res` (after running launches finish, since
/// they may read the cell).
fn bind(tr: *const TextureReference, res: &ResourceDesc, offset: usize) -> Result<()> {
    let cell = cell(tr)?;
    ctx().check()?;
    let h = create_texture(res, &descriptor(unsafe { &*tr }))?;
    crate::stream::wait_all_streams();
    unsafe { crate::gpu::write_cell(cell, h)? };
    if let Some((old, _)) = bound(|b| b.insert(tr as usize, (h, offset))) {
        retire_texture(old);
    }
    Ok(())
}

/// Splits a pointer into the 256-byte aligned address a texture starts at and the offset
/// (as the guide describes: the kernel adds offset / sizeof(T) to its indices).
fn aligned(p: *const c_void) -> (*const c_void, usize) {
    let off = p as usize % 256;
    ((p as usize - off) as *const c_void, off)
}

/// # Safety
/// Pointers are the caller's, as for CUDA.
#[no_mangle]
pub unsafe extern "C" fn cudaBindTexture(
    offset: *mut usize,
    tr: *const TextureReference,
    dev_ptr: *const c_void,
    desc: *const ChannelDesc,
    size: usize,
) -> CudaError {
    api(|| {
        cell(tr)?;
        if dev_ptr.is_null() || desc.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let (base, off) = aligned(dev_ptr);
        if off != 0 && offset.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // The default size (UINT_MAX) and any size past the allocation end there.
        let avail = match crate::memory::lookup(dev_ptr) {
            Some(a) => a.base + a.size - dev_ptr as usize,
            None => return Err(error::INVALID_VALUE),
        };
        let res = ResourceDesc::linear(base, *desc, off + size.min(avail));
        bind(tr, &res, off)?;
        if !offset.is_null() {
            offset.write(off);
        }
        Ok(())
    })
}

/// # Safety
/// As `cudaBindTexture`.
#[no_mangle]
pub unsafe extern "C" fn cudaBindTexture2D(
    offset: *mut usize,
    tr: *const TextureReference,
    dev_ptr: *const c_void,
    desc: *const ChannelDesc,
    width: usize,
    height: usize,
    pitch: usize,
) -> CudaError {
    api(|| {
        cell(tr)?;
        if desc.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // Pitched memory must start aligned (cudaMallocPitch's rows do): offset 0.
        bind(tr, &ResourceDesc::pitch2d(dev_ptr, *desc, width, height, pitch), 0)?;
        if !offset.is_null() {
            offset.write(0);
        }
        Ok(())
    })
}

/// # Safety
/// As `cudaBindTexture`.
#[no_mangle]
pub unsafe extern "C" fn cudaBindTextureToArray(tr: *const TextureReference, a: *const Array, desc: *const ChannelDesc) -> CudaError {
    api(|| {
        cell(tr)?;
        array::get(a)?;
        if desc.is_null() {
            return Err(error::INVALID_VALUE);
        }
        // The texels are read in the array's own format, as CUDA does.
        bind(tr, &ResourceDesc::array(a), 0)
    })
}

/// # Safety
/// As `cudaBindTexture`.
#[no_mangle]
pub unsafe extern "C" fn cudaUnbindTexture(tr: *const TextureReference) -> CudaError {
    api(|| {
        let cell = cell(tr)?;
        crate::stream::wait_all_streams();
        crate::gpu::write_cell(cell, 0)?;
        if let Some((old, _)) = bound(|b| b.remove(&(tr as usize))) {
            retire_texture(old);
        }
        Ok(())
    })
}

/// # Safety
/// As `cudaBindTexture`.
#[no_mangle]
pub unsafe extern "C" fn cudaGetTextureAlignmentOffset(offset: *mut usize, tr: *const TextureReference) -> CudaError {
    api(|| {
        cell(tr)?;
        match bound(|b| b.get(&(tr as usize)).copied()) {
            Some((_, off)) => super::out(offset, off),
            None => Err(error::INVALID_TEXTURE_BINDING),
        }
    })
}

/// The reference is its own host object: `symbol` is returned once checked.
///
/// # Safety
/// As `cudaBindTexture`.
#[no_mangle]
pub unsafe extern "C" fn cudaGetTextureReference(r: *mut *const TextureReference, symbol: *const c_void) -> CudaError {
    api(|| {
        let tr = symbol as *const TextureReference;
        cell(tr)?;
        super::out(r, tr)
    })
}
