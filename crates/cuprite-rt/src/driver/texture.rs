//! The driver API's CUDA arrays, mipmapped arrays, texture and surface objects and
//! texture references: translations of the driver's descriptors (`CUDA_ARRAY_DESCRIPTOR`,
//! `CUDA_RESOURCE_DESC`, `CUDA_TEXTURE_DESC`, `CU_TRSF_*` flags) to the runtime's
//! objects (`texture/`), which both APIs share: a `CUarray` is a `cudaArray_t`, a
//! `CUtexObject` a `cudaTextureObject_t`.

use super::{drv, out, rt, CuResult, Result, INVALID_HANDLE, INVALID_VALUE};
use crate::api::array as rta;
use crate::api::texture as rtt;
use crate::texture::array::{self, Array};
use crate::texture::format::ChannelDesc;
use crate::texture::mipmap::{self, MipmappedArray};
use crate::texture::object::{ResourceDesc, TextureDesc, RES_LINEAR, RES_PITCH2D};
use std::collections::HashMap;
use std::ffi::{c_uint, c_void};
use std::sync::Mutex;

/// `CUarray_format` values: (code, bits per channel, cudaChannelFormatKind).
const FORMATS: [(u32, i32, i32); 8] =
    [(0x01, 8, 1), (0x02, 16, 1), (0x03, 32, 1), (0x08, 8, 0), (0x09, 16, 0), (0x0a, 32, 0), (0x10, 16, 2), (0x20, 32, 2)];

const TRSF_READ_AS_INTEGER: u32 = 0x01;
const TRSF_NORMALIZED_COORDINATES: u32 = 0x02;
const TRSF_SRGB: u32 = 0x10;
const TRSF_DISABLE_TRILINEAR_OPTIMIZATION: u32 = 0x20;
const TRSF_SEAMLESS_CUBEMAP: u32 = 0x40;

/// The channel descriptor of `channels` channels of a `CUarray_format`.
pub(super) fn channel_desc(format: u32, channels: u32) -> Result<ChannelDesc> {
    let &(_, bits, kind) = FORMATS.iter().find(|f| f.0 == format).ok_or(INVALID_VALUE)?;
    if !matches!(channels, 1 | 2 | 4) {
        return Err(INVALID_VALUE);
    }
    let b = |c: u32| if c < channels { bits } else { 0 };
    Ok(ChannelDesc { x: b(0), y: b(1), z: b(2), w: b(3), f: kind })
}

/// The `CUarray_format` and channel count of a channel descriptor.
pub(super) fn format_of(d: &ChannelDesc) -> (u32, u32) {
    let channels = [d.x, d.y, d.z, d.w].iter().filter(|&&b| b > 0).count() as u32;
    let f = FORMATS.iter().find(|f| f.1 == d.x && f.2 == d.f).map_or(0, |f| f.0);
    (f, channels)
}

/// `CUDA_ARRAY_DESCRIPTOR`.
#[repr(C)]
pub struct ArrayDescriptor {
    pub(super) width: usize,
    pub(super) height: usize,
    pub(super) format: u32,
    pub(super) num_channels: c_uint,
}

/// `CUDA_ARRAY3D_DESCRIPTOR`.
#[repr(C)]
pub struct Array3DDescriptor {
    width: usize,
    height: usize,
    depth: usize,
    format: u32,
    num_channels: c_uint,
    flags: c_uint,
}

fn create(p: *mut *mut Array, d: &Array3DDescriptor) -> Result<()> {
    if p.is_null() {
        return Err(INVALID_VALUE);
    }
    let desc = channel_desc(d.format, d.num_channels)?;
    let e = crate::api::memory::Extent { width: d.width, height: d.height, depth: d.depth };
    rt(rta::cudaMalloc3DArray(p, &desc, e, d.flags))
}

#[no_mangle]
pub extern "C" fn cuArrayCreate_v2(p: *mut *mut Array, d: *const ArrayDescriptor) -> CuResult {
    drv(|| {
        let d = unsafe { d.as_ref() }.ok_or(INVALID_VALUE)?;
        let d3 = Array3DDescriptor { width: d.width, height: d.height, depth: 0, format: d.format, num_channels: d.num_channels, flags: 0 };
        create(p, &d3)
    })
}

#[no_mangle]
pub extern "C" fn cuArray3DCreate_v2(p: *mut *mut Array, d: *const Array3DDescriptor) -> CuResult {
    drv(|| create(p, unsafe { d.as_ref() }.ok_or(INVALID_VALUE)?))
}

fn array_of<'a>(a: *const Array) -> Result<&'a Array> {
    array::get(a).map_err(|_| INVALID_HANDLE)
}

#[no_mangle]
pub extern "C" fn cuArrayGetDescriptor_v2(d: *mut ArrayDescriptor, a: *const Array) -> CuResult {
    drv(|| {
        let a = array_of(a)?;
        let (format, num_channels) = format_of(&a.desc);
        out(d, ArrayDescriptor { width: a.width, height: a.height, format, num_channels })
    })
}

#[no_mangle]
pub extern "C" fn cuArray3DGetDescriptor_v2(d: *mut Array3DDescriptor, a: *const Array) -> CuResult {
    drv(|| {
        let a = array_of(a)?;
        let (format, num_channels) = format_of(&a.desc);
        out(d, Array3DDescriptor { width: a.width, height: a.height, depth: a.depth, format, num_channels, flags: a.flags })
    })
}

#[no_mangle]
pub extern "C" fn cuArrayDestroy(a: *mut Array) -> CuResult {
    drv(|| {
        let arr = array_of(a)?;
        if arr.mip_level {
            return Err(INVALID_VALUE);
        }
        rt(rta::cudaFreeArray(a))
    })
}

// ---- copies between arrays and linear memory (one run of bytes from an offset) -------

use crate::api::memory::{KIND_D2D, KIND_D2H, KIND_H2D};

/// A byte offset into an array as the runtime's legacy copies take it: (bytes into the
/// row, row).
fn at(a: *const Array, off: usize) -> Result<(usize, usize)> {
    let row = array_of(a)?.row_bytes();
    Ok((off % row, off / row))
}

/// The driver's one-run copies (`cuMemcpyHtoA`, `AtoH`, `DtoA`, `AtoD`, `AtoA`) reach the
/// array's first row only: past it, `CUDA_ERROR_INVALID_VALUE`, as measured on the H100
/// (a 2D array of 8 floats a row: 12 bytes from byte 16 copy; 8 bytes from byte 32, or
/// 16 from byte 28, do not).
fn in_first_row(a: *const Array, off: usize, n: usize) -> Result<()> {
    let row = array_of(a)?.row_bytes();
    if off.checked_add(n).is_none_or(|end| end > row) {
        return Err(INVALID_VALUE);
    }
    Ok(())
}

#[no_mangle]
pub extern "C" fn cuMemcpyHtoA_v2(a: *mut Array, off: usize, src: *const c_void, n: usize) -> CuResult {
    drv(|| {
        in_first_row(a, off, n)?;
        let (w, h) = at(a, off)?;
        rt(rta::cudaMemcpyToArray(a, w, h, src, n, KIND_H2D))
    })
}
#[no_mangle]
pub extern "C" fn cuMemcpyAtoH_v2(dst: *mut c_void, a: *const Array, off: usize, n: usize) -> CuResult {
    drv(|| {
        in_first_row(a, off, n)?;
        let (w, h) = at(a, off)?;
        rt(rta::cudaMemcpyFromArray(dst, a, w, h, n, KIND_D2H))
    })
}
#[no_mangle]
pub extern "C" fn cuMemcpyDtoA_v2(a: *mut Array, off: usize, src: u64, n: usize) -> CuResult {
    drv(|| {
        in_first_row(a, off, n)?;
        let (w, h) = at(a, off)?;
        rt(rta::cudaMemcpyToArray(a, w, h, src as usize as *const c_void, n, KIND_D2D))
    })
}
#[no_mangle]
pub extern "C" fn cuMemcpyAtoD_v2(dst: u64, a: *const Array, off: usize, n: usize) -> CuResult {
    drv(|| {
        in_first_row(a, off, n)?;
        let (w, h) = at(a, off)?;
        rt(rta::cudaMemcpyFromArray(dst as usize as *mut c_void, a, w, h, n, KIND_D2D))
    })
}
#[no_mangle]
pub extern "C" fn cuMemcpyAtoA_v2(dst: *mut Array, doff: usize, src: *const Array, soff: usize, n: usize) -> CuResult {
    drv(|| {
        in_first_row(dst, doff, n)?;
        in_first_row(src, soff, n)?;
        let ((wd, hd), (ws, hs)) = (at(dst, doff)?, at(src, soff)?);
        rt(rta::cudaMemcpyArrayToArray(dst, wd, hd, src, ws, hs, n, KIND_D2D))
    })
}
#[no_mangle]
pub extern "C" fn cuMemcpyHtoAAsync_v2(a: *mut Array, off: usize, src: *const c_void, n: usize, st: *mut c_void) -> CuResult {
    drv(|| {
        in_first_row(a, off, n)?;
        let (w, h) = at(a, off)?;
        rt(rta::cudaMemcpyToArrayAsync(a, w, h, src, n, KIND_H2D, st))
    })
}
#[no_mangle]
pub extern "C" fn cuMemcpyAtoHAsync_v2(dst: *mut c_void, a: *const Array, off: usize, n: usize, st: *mut c_void) -> CuResult {
    drv(|| {
        in_first_row(a, off, n)?;
        let (w, h) = at(a, off)?;
        rt(rta::cudaMemcpyFromArrayAsync(dst, a, w, h, n, KIND_D2H, st))
    })
}

// ---- mipmapped arrays -----------------------------------------------------------------

#[no_mangle]
pub extern "C" fn cuMipmappedArrayCreate(p: *mut *mut MipmappedArray, d: *const Array3DDescriptor, levels: c_uint) -> CuResult {
    drv(|| {
        let d = unsafe { d.as_ref() }.ok_or(INVALID_VALUE)?;
        let desc = channel_desc(d.format, d.num_channels)?;
        let e = crate::api::memory::Extent { width: d.width, height: d.height, depth: d.depth };
        rt(rta::cudaMallocMipmappedArray(p, &desc, e, levels, d.flags))
    })
}

#[no_mangle]
pub extern "C" fn cuMipmappedArrayGetLevel(p: *mut *mut Array, m: *const MipmappedArray, level: c_uint) -> CuResult {
    drv(|| {
        mipmap::get(m).map_err(|_| INVALID_HANDLE)?;
        rt(rta::cudaGetMipmappedArrayLevel(p, m, level))
    })
}

#[no_mangle]
pub extern "C" fn cuMipmappedArrayDestroy(m: *mut MipmappedArray) -> CuResult {
    drv(|| {
        mipmap::get(m).map_err(|_| INVALID_HANDLE)?;
        rt(rta::cudaFreeMipmappedArray(m))
    })
}

// ---- texture and surface objects ------------------------------------------------------

/// `CUDA_RESOURCE_DESC`: the union is 128 bytes, like the runtime's.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct DrvResourceDesc {
    res_type: i32,
    res: [u64; 16],
    flags: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct DrvLinear {
    dev_ptr: u64,
    format: u32,
    num_channels: c_uint,
    size: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct DrvPitch2D {
    dev_ptr: u64,
    format: u32,
    num_channels: c_uint,
    width: usize,
    height: usize,
    pitch: usize,
}

/// `CUDA_TEXTURE_DESC`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct DrvTextureDesc {
    address_mode: [i32; 3],
    filter_mode: i32,
    flags: c_uint,
    max_anisotropy: c_uint,
    mipmap_filter_mode: i32,
    mipmap_level_bias: f32,
    min_mipmap_level_clamp: f32,
    max_mipmap_level_clamp: f32,
    border_color: [f32; 4],
    reserved: [i32; 12],
}

impl DrvTextureDesc {
    /// The driver's form of a runtime texture descriptor (also what the GPU device hands
    /// to NVIDIA's `cuTexObjectCreate`). `integer`: the texels are integers, the only
    /// ones `CU_TRSF_READ_AS_INTEGER` applies to.
    pub(crate) fn from_runtime(t: &TextureDesc, integer: bool) -> DrvTextureDesc {
        let flag = |on: bool, f: u32| if on { f } else { 0 };
        DrvTextureDesc {
            address_mode: t.address_mode,
            filter_mode: t.filter_mode,
            flags: flag(integer && t.read_mode == 0, TRSF_READ_AS_INTEGER)
                | flag(t.normalized_coords != 0, TRSF_NORMALIZED_COORDINATES)
                | flag(t.srgb != 0, TRSF_SRGB)
                | flag(t.disable_trilinear_optimization != 0, TRSF_DISABLE_TRILINEAR_OPTIMIZATION)
                | flag(t.seamless_cubemap != 0, TRSF_SEAMLESS_CUBEMAP),
            max_anisotropy: t.max_anisotropy,
            mipmap_filter_mode: t.mipmap_filter_mode,
            mipmap_level_bias: t.mipmap_level_bias,
            min_mipmap_level_clamp: t.min_mipmap_level_clamp,
            max_mipmap_level_clamp: t.max_mipmap_level_clamp,
            border_color: t.border_color,
            reserved: [0; 12],
        }
    }
}

fn read<T: Copy>(r: &[u64; 16]) -> T {
    unsafe { (r.as_ptr() as *const T).read() }
}

/// The runtime's resource descriptor for a driver one (arrays are the same handles).
fn to_runtime(r: &DrvResourceDesc) -> Result<ResourceDesc> {
    let mut rr = ResourceDesc { res_type: r.res_type, res: r.res, flags: r.flags };
    match r.res_type {
        RES_LINEAR => {
            let l: DrvLinear = read(&r.res);
            rr = ResourceDesc::linear(l.dev_ptr as usize as *const c_void, channel_desc(l.format, l.num_channels)?, l.size);
        }
        RES_PITCH2D => {
            let p: DrvPitch2D = read(&r.res);
            let desc = channel_desc(p.format, p.num_channels)?;
            rr = ResourceDesc::pitch2d(p.dev_ptr as usize as *const c_void, desc, p.width, p.height, p.pitch);
        }
        _ => {}
    }
    Ok(rr)
}

/// The driver's resource descriptor for a runtime one.
fn from_runtime(r: &ResourceDesc) -> DrvResourceDesc {
    let mut d = DrvResourceDesc { res_type: r.res_type, res: r.res, flags: r.flags };
    let put = |d: &mut DrvResourceDesc, v: &[u64]| {
        d.res = [0; 16];
        d.res[..v.len()].copy_from_slice(v);
    };
    match r.res_type {
        RES_LINEAR => {
            // Runtime layout: devPtr, channel desc (20 bytes), size.
            let (ptr, desc, size) = unsafe {
                let b = r.res.as_ptr() as *const u8;
                ((b as *const u64).read(), (b.add(8) as *const ChannelDesc).read(), (b.add(32) as *const usize).read())
            };
            let (f, n) = format_of(&desc);
            put(&mut d, &[ptr, f as u64 | (n as u64) << 32, size as u64]);
        }
        RES_PITCH2D => {
            let (ptr, desc, w, h, p) = unsafe {
                let b = r.res.as_ptr() as *const u8;
                let z = |o: usize| (b.add(o) as *const usize).read() as u64;
                ((b as *const u64).read(), (b.add(8) as *const ChannelDesc).read(), z(32), z(40), z(48))
            };
            let (f, n) = format_of(&desc);
            put(&mut d, &[ptr, f as u64 | (n as u64) << 32, w, h, p]);
        }
        _ => {}
    }
    d
}

/// The runtime's texture descriptor: without `CU_TRSF_READ_AS_INTEGER`, 8- and 16-bit
/// integer texels read as normalized floats, as the driver API documents.
fn texture_desc(t: &DrvTextureDesc, res: &ResourceDesc) -> Result<TextureDesc> {
    let integer_bits = texel_format(res)?.filter(|d| d.f != 2).map(|d| d.x);
    let normalized_read = t.flags & TRSF_READ_AS_INTEGER == 0 && matches!(integer_bits, Some(8 | 16));
    Ok(TextureDesc {
        address_mode: t.address_mode,
        filter_mode: t.filter_mode,
        read_mode: normalized_read as i32,
        srgb: (t.flags & TRSF_SRGB != 0) as i32,
        border_color: t.border_color,
        normalized_coords: (t.flags & TRSF_NORMALIZED_COORDINATES != 0) as i32,
        max_anisotropy: t.max_anisotropy,
        mipmap_filter_mode: t.mipmap_filter_mode,
        mipmap_level_bias: t.mipmap_level_bias,
        min_mipmap_level_clamp: t.min_mipmap_level_clamp,
        max_mipmap_level_clamp: t.max_mipmap_level_clamp,
        disable_trilinear_optimization: (t.flags & TRSF_DISABLE_TRILINEAR_OPTIMIZATION != 0) as i32,
        seamless_cubemap: (t.flags & TRSF_SEAMLESS_CUBEMAP != 0) as i32,
    })
}

/// The channel descriptor of a resource's texels (None for an unknown resource type).
fn texel_format(r: &ResourceDesc) -> Result<Option<ChannelDesc>> {
    let bad = |_| INVALID_HANDLE;
    Ok(match r.res_type {
        0 => Some(array::get(read::<*const Array>(&r.res)).map_err(bad)?.desc),
        1 => Some(mipmap::get(read::<*const MipmappedArray>(&r.res)).map_err(bad)?.desc),
        RES_LINEAR | RES_PITCH2D => Some(unsafe { ((r.res.as_ptr() as *const u8).add(8) as *const ChannelDesc).read() }),
        _ => None,
    })
}

/// The driver's texture descriptors of live objects, returned by `cuTexObjectGetTextureDesc`.
static DESCS: Mutex<Option<HashMap<u64, DrvTextureDesc>>> = Mutex::new(None);

#[no_mangle]
pub extern "C" fn cuTexObjectCreate(p: *mut u64, r: *const DrvResourceDesc, t: *const DrvTextureDesc, view: *const c_void) -> CuResult {
    drv(|| {
        let (r, t) = unsafe { (r.as_ref().ok_or(INVALID_VALUE)?, t.as_ref().ok_or(INVALID_VALUE)?) };
        if p.is_null() {
            return Err(INVALID_VALUE);
        }
        let res = to_runtime(r)?;
        let tex = texture_desc(t, &res)?;
        let mut h = 0u64;
        rt(rtt::cudaCreateTextureObject(&mut h, &res, &tex, view))?;
        DESCS.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashMap::new).insert(h, *t);
        out(p, h)
    })
}

#[no_mangle]
pub extern "C" fn cuTexObjectDestroy(h: u64) -> CuResult {
    drv(|| {
        rt(rtt::cudaDestroyTextureObject(h))?;
        if let Some(m) = DESCS.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            m.remove(&h);
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuTexObjectGetResourceDesc(r: *mut DrvResourceDesc, h: u64) -> CuResult {
    drv(|| {
        let mut res = ResourceDesc { res_type: 0, res: [0; 16], flags: 0 };
        rt(rtt::cudaGetTextureObjectResourceDesc(&mut res, h))?;
        out(r, from_runtime(&res))
    })
}

#[no_mangle]
pub extern "C" fn cuTexObjectGetTextureDesc(d: *mut DrvTextureDesc, h: u64) -> CuResult {
    drv(|| {
        let mut tex = TextureDesc::default();
        rt(rtt::cudaGetTextureObjectTextureDesc(&mut tex, h))?;
        let known = DESCS.lock().unwrap_or_else(|e| e.into_inner()).as_ref().and_then(|m| m.get(&h)).copied();
        // An object the runtime API made: its descriptor in the driver's terms.
        let desc = known.unwrap_or_else(|| {
            let mut res = ResourceDesc { res_type: 0, res: [0; 16], flags: 0 };
            let _ = rtt::cudaGetTextureObjectResourceDesc(&mut res, h);
            let integer = texel_format(&res).ok().flatten().is_some_and(|f| f.f != 2);
            DrvTextureDesc::from_runtime(&tex, integer)
        });
        out(d, desc)
    })
}

#[no_mangle]
pub extern "C" fn cuSurfObjectCreate(p: *mut u64, r: *const DrvResourceDesc) -> CuResult {
    drv(|| {
        let r = unsafe { r.as_ref() }.ok_or(INVALID_VALUE)?;
        let res = to_runtime(r)?;
        rt(rtt::cudaCreateSurfaceObject(p, &res))
    })
}

#[no_mangle]
pub extern "C" fn cuSurfObjectDestroy(h: u64) -> CuResult {
    drv(|| rt(rtt::cudaDestroySurfaceObject(h)))
}

#[no_mangle]
pub extern "C" fn cuSurfObjectGetResourceDesc(r: *mut DrvResourceDesc, h: u64) -> CuResult {
    drv(|| {
        let mut res = ResourceDesc { res_type: 0, res: [0; 16], flags: 0 };
        rt(rtt::cudaGetSurfaceObjectResourceDesc(&mut res, h))?;
        out(r, from_runtime(&res))
    })
}
