//! Texture and surface objects (`cudaCreateTextureObject`, `cudaCreateSurfaceObject`, …).
//! A handle is the address of the object; destroyed objects stay allocated with `live`
//! cleared, so device code holding a stale handle gets an error, not freed memory.

use super::out;
use crate::context::ctx;
use crate::error::{self, api, CudaError, Result};
use crate::texture::object::{ResourceDesc, SurfObj, TexObj, TextureDesc};
use std::collections::HashSet;
use std::ffi::c_void;
use std::sync::Mutex;

type Handles = Mutex<Option<HashSet<u64>>>;
static TEXTURES: Handles = Mutex::new(None);
static SURFACES: Handles = Mutex::new(None);

fn remember(set: &Handles, h: u64) {
    set.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashSet::new).insert(h);
}

fn known(set: &Handles, h: u64) -> bool {
    set.lock().unwrap_or_else(|e| e.into_inner()).as_ref().is_some_and(|s| s.contains(&h))
}

#[no_mangle]
pub extern "C" fn cudaCreateTextureObject(
    p: *mut u64,
    res: *const ResourceDesc,
    tex: *const TextureDesc,
    view: *const c_void,
) -> CudaError {
    api(|| {
        if p.is_null() || res.is_null() {
            return Err(error::INVALID_VALUE);
        }
        if tex.is_null() {
            return Err(error::INVALID_RESOURCE_HANDLE);
        }
        if !view.is_null() {
            return Err(error::NOT_SUPPORTED); // resource views: not yet
        }
        ctx().check()?;
        out(p, create_texture(unsafe { &*res }, unsafe { &*tex })?)
    })
}

/// A new texture object's handle (also behind each texture-reference binding).
pub(crate) fn create_texture(res: &ResourceDesc, tex: &TextureDesc) -> Result<u64> {
    let t = TexObj::new(res, tex)?;
    let h = Box::into_raw(Box::new(t)) as u64;
    remember(&TEXTURES, h);
    // On the GPU device the program holds the driver's object (gpu/texture.rs).
    match crate::gpu::active() {
        Some(g) => crate::gpu::texture::texture_object(g, res, tex, h),
        None => Ok(h),
    }
}

/// Retires an object made by [`create_texture`] (a rebound or unbound reference's).
pub(crate) fn retire_texture(h: u64) {
    if let Ok(t) = texture(h) {
        t.retire();
        crate::gpu::texture::destroy_object(h);
    }
}

fn texture<'a>(h: u64) -> Result<&'a mut TexObj> {
    let h = crate::gpu::texture::host_handle(h);
    if !known(&TEXTURES, h) {
        return Err(error::INVALID_VALUE);
    }
    let t = unsafe { &mut *(h as *mut TexObj) };
    if !t.live {
        return Err(error::INVALID_VALUE);
    }
    Ok(t)
}

#[no_mangle]
pub extern "C" fn cudaDestroyTextureObject(h: u64) -> CudaError {
    api(|| {
        if h == 0 {
            return Ok(());
        }
        crate::stream::wait_all_streams();
        texture(h)?.retire();
        crate::gpu::texture::destroy_object(h);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaGetTextureObjectResourceDesc(r: *mut ResourceDesc, h: u64) -> CudaError {
    api(|| out(r, texture(h)?.res))
}

#[no_mangle]
pub extern "C" fn cudaGetTextureObjectTextureDesc(d: *mut TextureDesc, h: u64) -> CudaError {
    api(|| out(d, texture(h)?.tex))
}

#[no_mangle]
pub extern "C" fn cudaCreateSurfaceObject(p: *mut u64, res: *const ResourceDesc) -> CudaError {
    api(|| {
        if p.is_null() || res.is_null() {
            return Err(error::INVALID_VALUE);
        }
        ctx().check()?;
        out(p, create_surface(unsafe { &*res })?)
    })
}

/// A new surface object's handle (also behind each surface-reference binding).
pub(crate) fn create_surface(res: &ResourceDesc) -> Result<u64> {
    let s = SurfObj::new(res)?;
    let h = Box::into_raw(Box::new(s)) as u64;
    remember(&SURFACES, h);
    match crate::gpu::active() {
        Some(g) => crate::gpu::texture::surface_object(g, res, h),
        None => Ok(h),
    }
}

/// Retires an object made by [`create_surface`] (a rebound reference's).
pub(crate) fn retire_surface(h: u64) {
    if let Ok(s) = surface(h) {
        s.live = false;
        crate::gpu::texture::destroy_object(h);
    }
}

fn surface<'a>(h: u64) -> Result<&'a mut SurfObj> {
    let h = crate::gpu::texture::host_handle(h);
    if !known(&SURFACES, h) {
        return Err(error::INVALID_VALUE);
    }
    let s = unsafe { &mut *(h as *mut SurfObj) };
    if !s.live {
        return Err(error::INVALID_VALUE);
    }
    Ok(s)
}

#[no_mangle]
pub extern "C" fn cudaDestroySurfaceObject(h: u64) -> CudaError {
    api(|| {
        if h == 0 {
            return Ok(());
        }
        crate::stream::wait_all_streams();
        surface(h)?.live = false;
        crate::gpu::texture::destroy_object(h);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaGetSurfaceObjectResourceDesc(r: *mut ResourceDesc, h: u64) -> CudaError {
    api(|| out(r, surface(h)?.res))
}
