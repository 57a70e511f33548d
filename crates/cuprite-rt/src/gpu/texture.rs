//! CUDA arrays, texture objects and surface objects on the GPU device.
//!
//! The runtime's objects stay what they are on the CPU device (`texture/`: arrays hold
//! their texels in host memory, every API call validates and answers from them); the GPU
//! device adds a driver twin to each: a texture or surface object made while the GPU
//! device is active is also made with `cuTexObjectCreate`/`cuSurfObjectCreate`, and the
//! handle programs see (and pass to kernels) is the driver's, mapped back to the
//! runtime's object by [`host_handle`]. An array behind such an object gets a driver
//! array (`cuArray3DCreate`, or a level of `cuMipmappedArrayCreate`), a *mirror* kept in
//! step at the two places where the copies can diverge: before each launch, an array
//! whose host texels changed since the mirror last saw them is uploaded; an array that a
//! surface object can write counts as changed on the GPU after each launch, and is
//! downloaded before the runtime next touches it ([`before_host_access`], called by
//! `texture::array::get`). Linear and pitched resources are device memory already.

use super::driver::*;
use super::GpuDevice;
use crate::driver::texture::DrvTextureDesc;
use crate::error::{self, Result};
use crate::texture::array::{Array, CUBEMAP, LAYERED, SURFACE_LOAD_STORE, TEXTURE_GATHER};
use crate::texture::format::{ChannelDesc, KIND_FLOAT};
use crate::texture::mipmap::MipmappedArray;
use crate::texture::object::{ResourceDesc, TextureDesc, RES_ARRAY, RES_LINEAR, RES_MIPMAPPED, RES_PITCH2D};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Mutex;

/// A driver array kept in step with a runtime array.
struct Mirror {
    array: CUarray,
    /// Made by `cuArray3DCreate` (a mipmapped array's level belongs to that array).
    owned: bool,
    /// The host texels as last uploaded or downloaded.
    snapshot: Vec<u8>,
    /// A surface object reaches it: kernels may write it.
    writable: bool,
    /// A launch that may have written it ran since the last download.
    device_newer: bool,
}

#[derive(Default)]
struct State {
    /// By runtime array address.
    mirrors: HashMap<usize, Mirror>,
    /// Driver mipmapped arrays by runtime mipmapped-array address.
    mipmaps: HashMap<usize, usize>,
    /// Driver object handle → runtime object handle.
    handles: HashMap<u64, u64>,
    /// Driver object handle → whether it is a surface, and the driver array or
    /// mipmapped array it reads (none for linear and pitched memory).
    objects: HashMap<u64, (bool, Option<Resource>)>,
    /// Live driver objects per driver array or mipmapped array.
    users: HashMap<usize, usize>,
    /// Driver arrays whose runtime array was freed while objects still used them: they
    /// go with the last such object.
    orphans: HashMap<usize, Resource>,
}

/// A driver array or mipmapped array, by handle.
#[derive(Clone, Copy)]
enum Resource {
    Array(usize),
    Mipmapped(usize),
}

impl Resource {
    fn handle(self) -> usize {
        match self {
            Resource::Array(h) | Resource::Mipmapped(h) => h,
        }
    }

    fn destroy(self, g: &GpuDevice) {
        g.current();
        unsafe {
            match self {
                Resource::Array(h) => (g.drv.array_destroy)(h as CUarray),
                Resource::Mipmapped(h) => (g.drv.mipmapped_array_destroy)(h as CUmipmappedArray),
            };
        }
    }
}

// Driver handles are process-wide values, usable from any thread.
unsafe impl Send for State {}

static STATE: Mutex<Option<State>> = Mutex::new(None);

fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    f(STATE.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(State::default))
}

/// The runtime object behind a handle a program holds (the handle itself on the CPU
/// device, or when it is not a driver object's).
pub fn host_handle(h: u64) -> u64 {
    let g = STATE.lock().unwrap_or_else(|e| e.into_inner());
    g.as_ref().and_then(|s| s.handles.get(&h).copied()).unwrap_or(h)
}

/// `CUarray_format` and channel count of a channel descriptor (`CUarray_format` codes).
fn format_of(d: &ChannelDesc) -> (u32, u32) {
    let channels = [d.x, d.y, d.z, d.w].iter().filter(|&&b| b > 0).count() as u32;
    let f = match (d.f, d.x) {
        (1, 8) => 0x01,
        (1, 16) => 0x02,
        (1, 32) => 0x03,
        (0, 8) => 0x08,
        (0, 16) => 0x09,
        (0, 32) => 0x0a,
        (2, 16) => 0x10,
        (2, 32) => 0x20,
        _ => 0,
    };
    (f, channels)
}

fn descriptor(a: &Array) -> Array3DDesc {
    let (format, num_channels) = format_of(&a.desc);
    Array3DDesc {
        width: a.width,
        height: a.height,
        depth: a.depth,
        format,
        num_channels,
        flags: a.flags & (LAYERED | SURFACE_LOAD_STORE | CUBEMAP | TEXTURE_GATHER),
    }
}

/// Copies all of `a` between its host texels and driver array `d`.
fn transfer(g: &GpuDevice, a: &Array, d: CUarray, upload: bool) -> Result<()> {
    let mut c = Memcpy3D::default();
    if upload {
        c.src_memory_type = MEMORYTYPE_HOST;
        c.src_host = a.base() as *const c_void;
        c.src_pitch = a.row_bytes();
        c.src_height = a.rows();
        c.dst_memory_type = MEMORYTYPE_ARRAY;
        c.dst_array = d;
    } else {
        c.dst_memory_type = MEMORYTYPE_HOST;
        c.dst_host = a.base() as *mut c_void;
        c.dst_pitch = a.row_bytes();
        c.dst_height = a.rows();
        c.src_memory_type = MEMORYTYPE_ARRAY;
        c.src_array = d;
    }
    c.width_in_bytes = a.row_bytes();
    c.height = a.rows();
    c.depth = a.slices();
    g.result(unsafe { (g.drv.memcpy3d)(&c) })
}

fn host_bytes(a: &Array) -> &[u8] {
    unsafe { std::slice::from_raw_parts(a.base(), a.len()) }
}

/// The mirror of runtime array `p` (made and filled on first use); `driver` is the
/// driver array to use when the mirror is new (a mipmapped array's level).
fn mirror(g: &GpuDevice, s: &mut State, p: *const Array, driver: Option<CUarray>, writable: bool) -> Result<CUarray> {
    if let Some(m) = s.mirrors.get_mut(&(p as usize)) {
        m.writable |= writable;
        return Ok(m.array);
    }
    // The caller validated the handle (`texture::array::get`).
    let a = unsafe { &*p };
    let owned = driver.is_none();
    let d = match driver {
        Some(d) => d,
        None => {
            let mut d: CUarray = std::ptr::null_mut();
            g.result(unsafe { (g.drv.array3d_create)(&mut d, &descriptor(a)) })?;
            d
        }
    };
    transfer(g, a, d, true)?;
    s.mirrors.insert(p as usize, Mirror { array: d, owned, snapshot: host_bytes(a).to_vec(), writable, device_newer: false });
    Ok(d)
}

fn mipmapped(g: &GpuDevice, s: &mut State, p: *const MipmappedArray, writable: bool) -> Result<CUmipmappedArray> {
    let m = unsafe { &*p };
    let levels = m.levels.len();
    let first = unsafe { &*m.levels[0] };
    let h = match s.mipmaps.get(&(p as usize)) {
        Some(h) => *h as CUmipmappedArray,
        None => {
            let mut h: CUmipmappedArray = std::ptr::null_mut();
            g.result(unsafe { (g.drv.mipmapped_array_create)(&mut h, &descriptor(first), levels as u32) })?;
            s.mipmaps.insert(p as usize, h as usize);
            h
        }
    };
    for (l, a) in m.levels.iter().enumerate() {
        let mut d: CUarray = std::ptr::null_mut();
        g.result(unsafe { (g.drv.mipmapped_array_get_level)(&mut d, h, l as u32) })?;
        mirror(g, s, *a, Some(d), writable)?;
    }
    Ok(h)
}

fn read<T: Copy>(r: &[u64; 16], byte: usize) -> T {
    unsafe { ((r.as_ptr() as *const u8).add(byte) as *const T).read_unaligned() }
}

/// The driver's resource descriptor for a runtime one, mirrors made as needed, and the
/// driver array it names.
fn resource(g: &GpuDevice, s: &mut State, r: &ResourceDesc, writable: bool) -> Result<(ResDesc, Option<Resource>)> {
    let mut d = ResDesc { res_type: r.res_type, res: [0; 16], flags: r.flags };
    let mut used = None;
    match r.res_type {
        RES_ARRAY => {
            d.res[0] = mirror(g, s, read::<*const Array>(&r.res, 0), None, writable)? as u64;
            used = Some(Resource::Array(d.res[0] as usize));
        }
        RES_MIPMAPPED => {
            d.res[0] = mipmapped(g, s, read::<*const MipmappedArray>(&r.res, 0), writable)? as u64;
            used = Some(Resource::Mipmapped(d.res[0] as usize));
        }
        // Runtime layout: devPtr, cudaChannelFormatDesc (20 bytes), then sizes from byte 32.
        RES_LINEAR | RES_PITCH2D => {
            let (f, n) = format_of(&read::<ChannelDesc>(&r.res, 8));
            d.res[0] = read::<u64>(&r.res, 0);
            d.res[1] = f as u64 | (n as u64) << 32;
            d.res[2] = read::<u64>(&r.res, 32);
            if r.res_type == RES_PITCH2D {
                d.res[3] = read::<u64>(&r.res, 40);
                d.res[4] = read::<u64>(&r.res, 48);
            }
        }
        _ => return Err(error::INVALID_VALUE),
    }
    Ok((d, used))
}

/// Records a new driver object over `used`.
fn adopt(s: &mut State, h: u64, host: u64, surface: bool, used: Option<Resource>) {
    s.handles.insert(h, host);
    s.objects.insert(h, (surface, used));
    if let Some(r) = used {
        *s.users.entry(r.handle()).or_insert(0) += 1;
    }
}

/// The runtime retired the texture or surface object `h` (the program's handle, the
/// driver's on the GPU device): its driver object goes, and with it a driver array
/// whose runtime array was freed before.
pub fn destroy_object(h: u64) {
    let Some(g) = super::active() else { return };
    let mut guard = STATE.lock().unwrap_or_else(|e| e.into_inner());
    let Some(s) = guard.as_mut() else { return };
    let Some((surface, used)) = s.objects.remove(&h) else { return };
    s.handles.remove(&h);
    g.current();
    unsafe {
        if surface {
            (g.drv.surf_object_destroy)(h);
        } else {
            (g.drv.tex_object_destroy)(h);
        }
    }
    if let Some(r) = used {
        let n = s.users.entry(r.handle()).or_insert(1);
        *n -= 1;
        if *n == 0 {
            s.users.remove(&r.handle());
            if let Some(orphan) = s.orphans.remove(&r.handle()) {
                orphan.destroy(g);
            }
        }
    }
}

/// A runtime array or mipmapped array is going: its driver twin goes now, or with the
/// last driver object that reads it.
fn release(s: &mut State, r: Resource) {
    let Some(g) = super::active() else { return };
    if s.users.get(&r.handle()).copied().unwrap_or(0) == 0 {
        r.destroy(g);
    } else {
        s.orphans.insert(r.handle(), r);
    }
}


/// The channel kind of a resource's texels.
fn texel_kind(r: &ResourceDesc) -> i32 {
    match r.res_type {
        RES_ARRAY => unsafe { (*read::<*const Array>(&r.res, 0)).desc.f },
        RES_MIPMAPPED => unsafe { (*read::<*const MipmappedArray>(&r.res, 0)).desc.f },
        _ => read::<ChannelDesc>(&r.res, 8).f,
    }
}

/// The driver texture object for the runtime object `host` (validated by the runtime
/// from the same descriptors): the handle the program gets.
pub fn texture_object(g: &GpuDevice, res: &ResourceDesc, tex: &TextureDesc, host: u64) -> Result<u64> {
    g.current();
    with(|s| {
        let (r, used) = resource(g, s, res, false)?;
        let t = DrvTextureDesc::from_runtime(tex, texel_kind(res) != KIND_FLOAT);
        let mut h = 0u64;
        g.result(unsafe { (g.drv.tex_object_create)(&mut h, &r, &t, std::ptr::null()) })?;
        adopt(s, h, host, false, used);
        Ok(h)
    })
}

/// The driver surface object for the runtime object `host`.
pub fn surface_object(g: &GpuDevice, res: &ResourceDesc, host: u64) -> Result<u64> {
    g.current();
    with(|s| {
        let (r, used) = resource(g, s, res, true)?;
        let mut h = 0u64;
        g.result(unsafe { (g.drv.surf_object_create)(&mut h, &r) })?;
        adopt(s, h, host, true, used);
        Ok(h)
    })
}

/// Before a launch: uploads arrays whose host texels changed, and counts the ones a
/// surface reaches as written by the GPU afterwards.
pub fn before_launch(g: &GpuDevice) -> Result<()> {
    let mut guard = STATE.lock().unwrap_or_else(|e| e.into_inner());
    let Some(s) = guard.as_mut() else { return Ok(()) };
    let mut synced = false;
    for (p, m) in s.mirrors.iter_mut() {
        let a = unsafe { &*(*p as *const Array) };
        if !m.device_newer && host_bytes(a) != m.snapshot.as_slice() {
            if !synced {
                // Earlier launches on other driver streams may still read the array.
                g.result(unsafe { (g.drv.ctx_synchronize)() })?;
                synced = true;
            }
            transfer(g, a, m.array, true)?;
            m.snapshot.copy_from_slice(host_bytes(a));
        }
        m.device_newer |= m.writable;
    }
    Ok(())
}

/// Before the runtime reads or writes array `p`'s host texels: what kernels wrote through
/// surfaces is brought back first.
pub fn before_host_access(p: *const Array) {
    let Some(g) = super::active() else { return };
    let writable = {
        let guard = STATE.lock().unwrap_or_else(|e| e.into_inner());
        guard.as_ref().and_then(|s| s.mirrors.get(&(p as usize))).is_some_and(|m| m.writable)
    };
    // A program thread may look at the array before the launches it queued ran (a
    // synchronous copy validates, then waits): they finish first. A stream's own thread
    // has run what its stream queued before.
    if writable && !super::on_stream_thread() {
        crate::stream::wait_all_streams();
    }
    let mut guard = STATE.lock().unwrap_or_else(|e| e.into_inner());
    let Some(m) = guard.as_mut().and_then(|s| s.mirrors.get_mut(&(p as usize))) else { return };
    if !m.device_newer {
        return;
    }
    m.device_newer = false;
    g.current();
    // A kernel that faulted leaves the context unusable: the host texels stay as they were.
    if unsafe { (g.drv.ctx_synchronize)() } != 0 {
        return;
    }
    let a = unsafe { &*p };
    if transfer(g, a, m.array, false).is_ok() {
        m.snapshot.copy_from_slice(host_bytes(a));
    }
}

/// A runtime array is being freed: its mirror goes, and its driver array once no
/// driver object reads it (a mipmapped array's level goes with that array).
pub fn forget_array(p: *const Array) {
    if let Some(s) = STATE.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        if let Some(m) = s.mirrors.remove(&(p as usize)) {
            if m.owned {
                release(s, Resource::Array(m.array as usize));
            }
        }
    }
}

/// A runtime mipmapped array is being freed (its levels go through [`forget_array`]).
pub fn forget_mipmapped(p: *const MipmappedArray) {
    if let Some(s) = STATE.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        if let Some(h) = s.mipmaps.remove(&(p as usize)) {
            release(s, Resource::Mipmapped(h));
        }
    }
}
