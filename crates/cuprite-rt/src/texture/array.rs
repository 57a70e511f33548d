//! CUDA arrays: texels in row-major order, rows packed, one slice per depth/layer/face.

use super::format::{ChannelDesc, Format};
use crate::error::{self, Result};
use std::collections::HashSet;
use std::sync::Mutex;

pub const LAYERED: u32 = 0x01;
pub const SURFACE_LOAD_STORE: u32 = 0x02;
pub const CUBEMAP: u32 = 0x04;
pub const TEXTURE_GATHER: u32 = 0x08;
/// Every flag `cudaMalloc3DArray` accepts (color attachment, sparse, deferred mapping
/// included: they are recorded, nothing more).
const KNOWN_FLAGS: u32 = 0x01 | 0x02 | 0x04 | 0x08 | 0x20 | 0x40 | 0x80;

pub struct Array {
    pub desc: ChannelDesc,
    pub format: Format,
    /// The extent as given: height 0 for 1D, depth 0 for 1D/2D; for layered arrays depth
    /// is the number of layers; cubemaps have depth 6 (faces).
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub flags: u32,
    /// A level of a mipmapped array, which owns it (`cudaFreeArray` refuses it).
    pub mip_level: bool,
    data: Box<[u8]>,
}

impl Array {
    pub fn new(desc: ChannelDesc, width: usize, height: usize, depth: usize, flags: u32) -> Result<Array> {
        let format = Format::of(&desc)?;
        if width == 0 || flags & !KNOWN_FLAGS != 0 {
            return Err(error::INVALID_VALUE);
        }
        if flags & CUBEMAP != 0 && (width != height || (flags & LAYERED == 0 && depth != 6) || depth % 6 != 0) {
            return Err(error::INVALID_VALUE);
        }
        if flags & LAYERED != 0 && depth == 0 {
            return Err(error::INVALID_VALUE);
        }
        if height == 0 && depth != 0 && flags & LAYERED == 0 {
            return Err(error::INVALID_VALUE);
        }
        let bytes = width
            .checked_mul(format.elem_size())
            .and_then(|r| r.checked_mul(height.max(1)))
            .and_then(|s| s.checked_mul(depth.max(1)))
            .ok_or(error::MEMORY_ALLOCATION)?;
        let mut v = Vec::new();
        v.try_reserve_exact(bytes).map_err(|_| error::MEMORY_ALLOCATION)?;
        v.resize(bytes, 0u8);
        Ok(Array { desc, format, width, height, depth, flags, mip_level: false, data: v.into_boxed_slice() })
    }

    pub fn elem(&self) -> usize {
        self.format.elem_size()
    }
    pub fn row_bytes(&self) -> usize {
        self.width * self.elem()
    }
    pub fn rows(&self) -> usize {
        self.height.max(1)
    }
    pub fn slices(&self) -> usize {
        self.depth.max(1)
    }
    pub fn slice_bytes(&self) -> usize {
        self.row_bytes() * self.rows()
    }
    pub fn len(&self) -> usize {
        self.data.len()
    }
    pub fn base(&self) -> *mut u8 {
        self.data.as_ptr() as *mut u8
    }

    /// The address of byte `x` of row `y` of slice `z`, if `bytes` bytes from there stay
    /// in that row (cudaErrorInvalidValue otherwise).
    pub fn at(&self, x_bytes: usize, y: usize, z: usize, bytes: usize) -> Result<*mut u8> {
        let end = x_bytes.checked_add(bytes).ok_or(error::INVALID_VALUE)?;
        if end > self.row_bytes() || y >= self.rows() || z >= self.slices() {
            return Err(error::INVALID_VALUE);
        }
        Ok(unsafe { self.base().add(z * self.slice_bytes() + y * self.row_bytes() + x_bytes) })
    }
}

/// Live arrays by address, so that handles can be checked.
static LIVE: Mutex<Option<HashSet<usize>>> = Mutex::new(None);

pub fn register(a: Box<Array>) -> *mut Array {
    let p = Box::into_raw(a);
    let mut g = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    g.get_or_insert_with(HashSet::new).insert(p as usize);
    p
}

/// The array behind a handle: cudaErrorInvalidResourceHandle for null or unknown ones.
pub fn get<'a>(p: *const Array) -> Result<&'a Array> {
    {
        let g = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        if p.is_null() || !g.as_ref().is_some_and(|s| s.contains(&(p as usize))) {
            return Err(error::INVALID_RESOURCE_HANDLE);
        }
    }
    // On the GPU device, what kernels wrote through surfaces comes back first.
    crate::gpu::texture::before_host_access(p);
    // Arrays are only freed by `release`, which the caller orders after all users.
    Ok(unsafe { &*p })
}

pub fn release(p: *mut Array) -> Result<()> {
    let mut g = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    if !g.as_mut().is_some_and(|s| s.remove(&(p as usize))) {
        return Err(error::INVALID_VALUE);
    }
    crate::gpu::texture::forget_array(p);
    drop(unsafe { Box::from_raw(p) });
    Ok(())
}
