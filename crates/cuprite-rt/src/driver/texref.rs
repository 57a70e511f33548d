//! The driver API's texture and surface references (`cuModuleGetTexRef`, `cuTexRef*`,
//! `cuModuleGetSurfRef`, `cuSurfRefSetArray`), as the CUDA 2.x–4.x guides describe them.
//!
//! A `texture<…>` or `surface<…>` variable of a module is an 8-byte device cell that the
//! module's fetches read a texture (surface) object handle from (as for the runtime's
//! references, `api/texref.rs`). A `CUtexref` is this module's record of the reference's
//! settings (format, address and filter modes, flags, border colour) and what it is bound
//! to; every setter rebuilds the object from the record when a resource is bound, so the
//! order of `cuTexRefSetArray` and the other setters does not matter, as in CUDA. The
//! read mode is the flags' (`CU_TRSF_READ_AS_INTEGER`), not the variable's template.

use super::texture::{channel_desc, format_of, ArrayDescriptor};
use super::{drv, out, rt, CuResult, INVALID_HANDLE, INVALID_VALUE, NOT_FOUND, NOT_SUPPORTED, Result};
use crate::api::texture::{create_surface, create_texture, retire_surface, retire_texture};
use crate::texture::array::Array;
use crate::texture::format::ChannelDesc;
use crate::texture::object::{ResourceDesc, TextureDesc};
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_uint, c_void};
use std::sync::{Mutex, MutexGuard};

const TRSF_READ_AS_INTEGER: u32 = 0x01;
const TRSF_NORMALIZED_COORDINATES: u32 = 0x02;
const TRSF_SRGB: u32 = 0x10;
const TRSF_DISABLE_TRILINEAR_OPTIMIZATION: u32 = 0x20;
const TRSF_SEAMLESS_CUBEMAP: u32 = 0x40;

#[derive(Clone, Copy)]
enum Bound {
    None,
    Array(*mut Array),
    Linear { ptr: u64, bytes: usize },
    Pitch2D { ptr: u64, width: usize, height: usize, pitch: usize, desc: ChannelDesc },
}

struct TexRef {
    /// The device cell the module's fetches read.
    cell: usize,
    /// `CUarray_format` and channel count given by cuTexRefSetFormat (0 = unset).
    format: (u32, u32),
    address_mode: [i32; 3],
    filter_mode: i32,
    flags: u32,
    border: [f32; 4],
    max_anisotropy: u32,
    bound: Bound,
    /// The object in the cell, if bound.
    object: Option<u64>,
}

unsafe impl Send for TexRef {}

impl TexRef {
    fn new(cell: usize) -> TexRef {
        TexRef { cell, format: (0, 0), address_mode: [0; 3], filter_mode: 0, flags: 0, border: [0.0; 4], max_anisotropy: 0, bound: Bound::None, object: None }
    }
}

struct SurfRef {
    cell: usize,
    array: *mut Array,
    object: Option<u64>,
}

unsafe impl Send for SurfRef {}

/// References by handle. A handle is its cell's address, so looking a reference up
/// twice gives the same `CUtexref`, as CUDA does.
static TEXREFS: Mutex<Option<HashMap<usize, TexRef>>> = Mutex::new(None);
static SURFREFS: Mutex<Option<HashMap<usize, SurfRef>>> = Mutex::new(None);
/// Cells made by cuTexRefCreate.
static CREATED: Mutex<std::collections::BTreeSet<usize>> = Mutex::new(std::collections::BTreeSet::new());

fn texrefs() -> MutexGuard<'static, Option<HashMap<usize, TexRef>>> {
    TEXREFS.lock().unwrap_or_else(|p| p.into_inner())
}

fn surfrefs() -> MutexGuard<'static, Option<HashMap<usize, SurfRef>>> {
    SURFREFS.lock().unwrap_or_else(|p| p.into_inner())
}

/// The 8-byte variable a module defines under `name` (a reference's cell). Cuprite's
/// modules do not record which variables are references, so any 8-byte global is taken.
fn reference_cell(m: *mut c_void, name: *const c_char) -> Result<usize> {
    let (addr, size) = super::module::global(m as usize, name)?;
    if size != 8 {
        return Err(NOT_FOUND);
    }
    Ok(addr as usize)
}

#[no_mangle]
pub extern "C" fn cuModuleGetTexRef(p: *mut *mut c_void, m: *mut c_void, name: *const c_char) -> CuResult {
    drv(|| {
        super::context::require()?;
        if p.is_null() || name.is_null() {
            return Err(INVALID_VALUE);
        }
        let cell = reference_cell(m, name)?;
        texrefs().get_or_insert_with(HashMap::new).entry(cell).or_insert_with(|| TexRef::new(cell));
        out(p, cell as *mut c_void)
    })
}

/// A reference made outside any module (pre-3.0 `cuParamSetTexRef` style): its cell is
/// its own, which no module's code reads.
#[no_mangle]
pub extern "C" fn cuTexRefCreate(p: *mut *mut c_void) -> CuResult {
    drv(|| {
        super::context::require()?;
        if p.is_null() {
            return Err(INVALID_VALUE);
        }
        let cell = Box::into_raw(Box::new(0u64)) as usize;
        CREATED.lock().unwrap_or_else(|p| p.into_inner()).insert(cell);
        texrefs().get_or_insert_with(HashMap::new).insert(cell, TexRef::new(cell));
        out(p, cell as *mut c_void)
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefDestroy(h: *mut c_void) -> CuResult {
    drv(|| {
        let mut g = texrefs();
        let t = g.as_mut().and_then(|m| m.remove(&(h as usize))).ok_or(INVALID_HANDLE)?;
        if let Some(old) = t.object {
            retire_texture(old);
        }
        // Only references from cuTexRefCreate own their cell; a module's stays with it
        // (CUDA forbids destroying those; the record is simply forgotten).
        if CREATED.lock().unwrap_or_else(|p| p.into_inner()).remove(&(h as usize)) {
            drop(unsafe { Box::from_raw(h as *mut u64) });
        }
        Ok(())
    })
}

/// A live reference, or CUDA_ERROR_INVALID_HANDLE.
pub(super) fn check_texref(h: *mut c_void) -> Result<()> {
    read_texref(h, |_| Ok(()))
}

#[no_mangle]
pub extern "C" fn cuModuleGetSurfRef(p: *mut *mut c_void, m: *mut c_void, name: *const c_char) -> CuResult {
    drv(|| {
        super::context::require()?;
        if p.is_null() || name.is_null() {
            return Err(INVALID_VALUE);
        }
        let cell = reference_cell(m, name)?;
        surfrefs().get_or_insert_with(HashMap::new).entry(cell).or_insert(SurfRef { cell, array: std::ptr::null_mut(), object: None });
        out(p, cell as *mut c_void)
    })
}

/// Runs `f` on the reference `h`, then rebinds its object if it is bound.
fn with_texref(h: *mut c_void, f: impl FnOnce(&mut TexRef) -> Result<()>) -> CuResult {
    drv(|| {
        let mut g = texrefs();
        let t = g.as_mut().and_then(|m| m.get_mut(&(h as usize))).ok_or(INVALID_HANDLE)?;
        f(t)?;
        rebind(t)
    })
}

fn read_texref<T>(h: *mut c_void, f: impl FnOnce(&TexRef) -> Result<T>) -> Result<T> {
    let g = texrefs();
    let t = g.as_ref().and_then(|m| m.get(&(h as usize))).ok_or(INVALID_HANDLE)?;
    f(t)
}

/// The object's settings; `texels` is the bound memory's format (the read mode depends
/// on it: without READ_AS_INTEGER, integer texels read as normalized floats, while float
/// texels read as they are).
fn descriptor(t: &TexRef, texels: &ChannelDesc) -> TextureDesc {
    const FLOAT_KIND: i32 = 2;
    TextureDesc {
        address_mode: t.address_mode,
        filter_mode: t.filter_mode,
        read_mode: if t.flags & TRSF_READ_AS_INTEGER != 0 || texels.f == FLOAT_KIND { 0 } else { 1 },
        srgb: (t.flags & TRSF_SRGB != 0) as i32,
        border_color: t.border,
        normalized_coords: (t.flags & TRSF_NORMALIZED_COORDINATES != 0) as i32,
        max_anisotropy: t.max_anisotropy,
        disable_trilinear_optimization: (t.flags & TRSF_DISABLE_TRILINEAR_OPTIMIZATION != 0) as i32,
        seamless_cubemap: (t.flags & TRSF_SEAMLESS_CUBEMAP != 0) as i32,
        ..TextureDesc::default()
    }
}

/// The format a linear binding reads: cuTexRefSetFormat's (one float channel if unset).
fn linear_format(t: &TexRef) -> Result<ChannelDesc> {
    match t.format {
        (0, _) => channel_desc(0x20, 1),
        (f, n) => channel_desc(f, n),
    }
}

/// Makes a new object from the record and puts it in the cell (after running work
/// finishes, since it may read the cell), retiring the old one.
fn rebind(t: &mut TexRef) -> Result<()> {
    let (res, texels) = match t.bound {
        Bound::None => return Ok(()),
        Bound::Array(a) => {
            let desc = crate::texture::array::get(a).map_err(|_| INVALID_HANDLE)?.desc;
            (ResourceDesc::array(a), desc)
        }
        Bound::Linear { ptr, bytes } => {
            let desc = linear_format(t)?;
            (ResourceDesc::linear(ptr as *const c_void, desc, bytes), desc)
        }
        Bound::Pitch2D { ptr, width, height, pitch, desc } => (ResourceDesc::pitch2d(ptr as *const c_void, desc, width, height, pitch), desc),
    };
    let h = create_texture(&res, &descriptor(t, &texels)).map_err(|e| rt(e).err().unwrap_or(INVALID_VALUE))?;
    crate::stream::wait_all_streams();
    unsafe { (t.cell as *mut u64).write(h) };
    if let Some(old) = t.object.replace(h) {
        retire_texture(old);
    }
    Ok(())
}

#[no_mangle]
pub extern "C" fn cuTexRefSetArray(h: *mut c_void, a: *mut Array, _flags: c_uint) -> CuResult {
    with_texref(h, |t| {
        if a.is_null() {
            return Err(INVALID_VALUE);
        }
        t.bound = Bound::Array(a);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefSetMipmappedArray(h: *mut c_void, _a: *mut c_void, _flags: c_uint) -> CuResult {
    drv(|| {
        read_texref(h, |_| Ok(()))?;
        eprintln!("cuprite: cuTexRefSetMipmappedArray: mipmapped arrays bound to texture references are not supported yet (use a texture object)");
        Err(NOT_SUPPORTED)
    })
}

/// Binds linear memory; as CUDA, the texture starts at the 256-byte boundary at or below
/// `dptr` and `*offset` says how far past it `dptr` is (a null `offset` then is an error).
#[no_mangle]
pub extern "C" fn cuTexRefSetAddress_v2(offset: *mut usize, h: *mut c_void, dptr: u64, bytes: usize) -> CuResult {
    with_texref(h, |t| {
        let off = (dptr % 256) as usize;
        if off != 0 && offset.is_null() {
            return Err(INVALID_VALUE);
        }
        if dptr == 0 || crate::memory::lookup(dptr as *const c_void).is_none() {
            return Err(INVALID_VALUE);
        }
        t.bound = Bound::Linear { ptr: dptr - off as u64, bytes: bytes + off };
        if !offset.is_null() {
            unsafe { offset.write(off) };
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefSetAddress2D_v3(h: *mut c_void, d: *const ArrayDescriptor, dptr: u64, pitch: usize) -> CuResult {
    with_texref(h, |t| {
        if d.is_null() || dptr == 0 {
            return Err(INVALID_VALUE);
        }
        let d = unsafe { &*d };
        let desc = channel_desc(d.format, d.num_channels)?;
        t.format = (d.format, d.num_channels);
        t.bound = Bound::Pitch2D { ptr: dptr, width: d.width, height: d.height, pitch, desc };
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefSetAddress2D_v2(h: *mut c_void, d: *const ArrayDescriptor, dptr: u64, pitch: usize) -> CuResult {
    cuTexRefSetAddress2D_v3(h, d, dptr, pitch)
}

#[no_mangle]
pub extern "C" fn cuTexRefSetFormat(h: *mut c_void, f: u32, n: c_int) -> CuResult {
    with_texref(h, |t| {
        channel_desc(f, n.max(0) as u32)?;
        t.format = (f, n as u32);
        if let Bound::Pitch2D { desc, .. } = &mut t.bound {
            *desc = channel_desc(f, n as u32)?;
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefSetAddressMode(h: *mut c_void, dim: c_int, mode: i32) -> CuResult {
    with_texref(h, |t| {
        if !(0..3).contains(&dim) || !(0..=3).contains(&mode) {
            return Err(INVALID_VALUE);
        }
        t.address_mode[dim as usize] = mode;
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefSetFilterMode(h: *mut c_void, mode: i32) -> CuResult {
    with_texref(h, |t| {
        if !(0..=1).contains(&mode) {
            return Err(INVALID_VALUE);
        }
        t.filter_mode = mode;
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefSetFlags(h: *mut c_void, flags: c_uint) -> CuResult {
    with_texref(h, |t| {
        t.flags = flags;
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefSetBorderColor(h: *mut c_void, rgba: *const f32) -> CuResult {
    with_texref(h, |t| {
        if rgba.is_null() {
            return Err(INVALID_VALUE);
        }
        t.border.copy_from_slice(unsafe { std::slice::from_raw_parts(rgba, 4) });
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefSetMaxAnisotropy(h: *mut c_void, n: c_uint) -> CuResult {
    with_texref(h, |t| {
        t.max_anisotropy = n;
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefGetAddress_v2(p: *mut u64, h: *mut c_void) -> CuResult {
    drv(|| {
        let a = read_texref(h, |t| match t.bound {
            Bound::Linear { ptr, .. } | Bound::Pitch2D { ptr, .. } => Ok(ptr),
            _ => Err(INVALID_VALUE),
        })?;
        out(p, a)
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefGetArray(p: *mut *mut Array, h: *mut c_void) -> CuResult {
    drv(|| {
        let a = read_texref(h, |t| match t.bound {
            Bound::Array(a) => Ok(a),
            _ => Err(INVALID_VALUE),
        })?;
        out(p, a)
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefGetAddressMode(p: *mut i32, h: *mut c_void, dim: c_int) -> CuResult {
    drv(|| {
        if !(0..3).contains(&dim) {
            return Err(INVALID_VALUE);
        }
        out(p, read_texref(h, |t| Ok(t.address_mode[dim as usize]))?)
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefGetFilterMode(p: *mut i32, h: *mut c_void) -> CuResult {
    drv(|| out(p, read_texref(h, |t| Ok(t.filter_mode))?))
}

#[no_mangle]
pub extern "C" fn cuTexRefGetFlags(p: *mut c_uint, h: *mut c_void) -> CuResult {
    drv(|| out(p, read_texref(h, |t| Ok(t.flags))?))
}

#[no_mangle]
pub extern "C" fn cuTexRefGetBorderColor(p: *mut f32, h: *mut c_void) -> CuResult {
    drv(|| {
        if p.is_null() {
            return Err(INVALID_VALUE);
        }
        let b = read_texref(h, |t| Ok(t.border))?;
        unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), p, 4) };
        Ok(())
    })
}

/// The format set with cuTexRefSetFormat, else the bound array's.
#[no_mangle]
pub extern "C" fn cuTexRefGetFormat(f: *mut u32, n: *mut c_int, h: *mut c_void) -> CuResult {
    drv(|| {
        let (format, channels) = read_texref(h, |t| match (t.format, t.bound) {
            ((0, _), Bound::Array(a)) => Ok(format_of(&crate::texture::array::get(a).map_err(|_| INVALID_HANDLE)?.desc)),
            ((0, _), _) => Err(INVALID_VALUE),
            (fc, _) => Ok(fc),
        })?;
        out(f, format)?;
        if !n.is_null() {
            unsafe { n.write(channels as c_int) };
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuSurfRefSetArray(h: *mut c_void, a: *mut Array, _flags: c_uint) -> CuResult {
    drv(|| {
        let mut g = surfrefs();
        let s = g.as_mut().and_then(|m| m.get_mut(&(h as usize))).ok_or(INVALID_HANDLE)?;
        if a.is_null() {
            return Err(INVALID_VALUE);
        }
        let obj = create_surface(&ResourceDesc::array(a)).map_err(|e| rt(e).err().unwrap_or(INVALID_VALUE))?;
        crate::stream::wait_all_streams();
        unsafe { (s.cell as *mut u64).write(obj) };
        s.array = a;
        if let Some(old) = s.object.replace(obj) {
            retire_surface(old);
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuSurfRefGetArray(p: *mut *mut Array, h: *mut c_void) -> CuResult {
    drv(|| {
        let g = surfrefs();
        let s = g.as_ref().and_then(|m| m.get(&(h as usize))).ok_or(INVALID_HANDLE)?;
        if s.array.is_null() {
            return Err(INVALID_VALUE);
        }
        out(p, s.array)
    })
}

/// The 32-bit forms of CUDA 2.x (`CUdeviceptr` of 32 bits, `CUDA_ARRAY_DESCRIPTOR_v1`),
/// still exported for old binaries: Cuprite's device memory lies above 4 GiB, so no
/// 32-bit pointer names it.
#[no_mangle]
pub extern "C" fn cuTexRefSetAddress(offset: *mut c_uint, h: *mut c_void, _dptr: c_uint, _bytes: c_uint) -> CuResult {
    drv(|| {
        check_texref(h)?;
        if !offset.is_null() {
            unsafe { offset.write(0) };
        }
        Err(INVALID_VALUE)
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefSetAddress2D(h: *mut c_void, _desc: *const c_void, _dptr: c_uint, _pitch: c_uint) -> CuResult {
    drv(|| {
        check_texref(h)?;
        Err(INVALID_VALUE)
    })
}

#[no_mangle]
pub extern "C" fn cuTexRefGetAddress(p: *mut c_uint, h: *mut c_void) -> CuResult {
    drv(|| {
        let mut a = 0u64;
        match cuTexRefGetAddress_v2(&mut a, h) {
            0 => {}
            e => return Err(e),
        }
        out(p, u32::try_from(a).map_err(|_| INVALID_VALUE)?)
    })
}
