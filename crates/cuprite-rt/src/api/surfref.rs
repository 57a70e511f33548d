//! Legacy surface references: `cudaBindSurfaceToArray`, `cudaGetSurfaceReference`.
//!
//! A `surface<void, dim>` variable is a host object (a `surfaceReference`) that the device
//! object registers as the host shadow of an 8-byte device cell, as texture references
//! are (`texref.rs`). Binding creates a surface object over the array and stores its
//! handle in the cell, where device code's `surf*read/write(ref, …)` read it.

use super::texture::{create_surface, retire_surface};
use crate::context::ctx;
use crate::error::{self, api, CudaError, Result};
use crate::registry;
use crate::texture::array::{self, Array};
use crate::texture::format::ChannelDesc;
use crate::texture::object::{ResourceDesc, INVALID_SURFACE};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Mutex;

/// CUDA's `struct surfaceReference`.
#[repr(C)]
pub struct SurfaceReference {
    channel_desc: ChannelDesc,
}

/// Surface objects behind bound references: reference address -> handle.
static BOUND: Mutex<Option<HashMap<usize, u64>>> = Mutex::new(None);

/// The device cell of a registered reference; anything else is not a surface reference.
fn cell(sr: *const SurfaceReference) -> Result<*mut u64> {
    if sr.is_null() {
        return Err(INVALID_SURFACE);
    }
    match registry::var(sr as *const c_void) {
        Some(v) if v.size == 8 && !v.is_constant && !v.is_managed && v.device_addr != sr as usize => Ok(v.device_addr as *mut u64),
        _ => Err(INVALID_SURFACE),
    }
}

/// # Safety
/// Pointers are the caller's, as for CUDA.
#[no_mangle]
pub unsafe extern "C" fn cudaBindSurfaceToArray(sr: *const SurfaceReference, a: *const Array, desc: *const ChannelDesc) -> CudaError {
    api(|| {
        let cell = cell(sr)?;
        if desc.is_null() {
            return Err(error::INVALID_VALUE);
        }
        ctx().check()?;
        array::get(a)?;
        // The surface reads the array's own format, as a texture reference bound to an
        // array does; the descriptor is not compared with it.
        let h = create_surface(&ResourceDesc::array(a))?;
        crate::stream::wait_all_streams();
        crate::gpu::write_cell(cell, h)?;
        let old = BOUND.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashMap::new).insert(sr as usize, h);
        if let Some(old) = old {
            retire_surface(old);
        }
        Ok(())
    })
}

/// # Safety
/// Pointers are the caller's, as for CUDA.
#[no_mangle]
pub unsafe extern "C" fn cudaGetSurfaceReference(r: *mut *const SurfaceReference, symbol: *const c_void) -> CudaError {
    api(|| {
        let sr = symbol as *const SurfaceReference;
        cell(sr)?;
        super::out(r, sr)
    })
}
