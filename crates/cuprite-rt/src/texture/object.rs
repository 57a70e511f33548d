//! Texture and surface objects: the descriptors `cudaCreate{Texture,Surface}Object`
//! build, and the fetch entry points generated device code calls through them.

use super::array::{self, Array};
use super::filter::{self, Axis};
use super::format::{ChannelDesc, Format};
use super::lod;
use super::mipmap::{self, MipmappedArray};
use super::srgb;
use crate::error::{self, CudaError, Result};
use std::ffi::{c_char, c_void};

pub const INVALID_FILTER_SETTING: CudaError = 26;
pub const INVALID_NORM_SETTING: CudaError = 27;
pub const MISALIGNED_ADDRESS: CudaError = 716;
pub const INVALID_TEXTURE: CudaError = 18;
pub const INVALID_SURFACE: CudaError = 37;

/// The handle device code passes for a texture reference that is not bound
/// (`__CUPRITE_UNBOUND_TEXREF` in `include/cuprite/texture_fetch.h`; all ones, never an
/// address nor a driver object handle, which on the GPU device count up from 1).
pub const UNBOUND_REFERENCE: u64 = u64::MAX;

/// Bits of `__cuprite_tex_fetch`'s kind: a level of detail, or two gradients, follow
/// the result.
const LOD: i32 = 0x80;
const GRAD: i32 = 0x400;
/// Set in a fetch's `size`: integer texels read as elements come back with each channel
/// widened to 32 bits (sign- or zero-extended as the format's kind), as PTX's `tex` with
/// an `.s32`/`.u32` result gives them (the PTX front-end asks for it); otherwise they come
/// packed as the format stores them, as CUDA C's `tex2D<uchar4>` returns them.
pub const WIDEN_CHANNELS: u32 = 1 << 31;

pub const RES_ARRAY: i32 = 0;
pub const RES_MIPMAPPED: i32 = 1;
pub const RES_LINEAR: i32 = 2;
pub const RES_PITCH2D: i32 = 3;

/// `struct cudaResourceDesc` (include/driver_types.h): the union is 128 bytes.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ResourceDesc {
    pub res_type: i32,
    pub res: [u64; 16],
    pub flags: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct LinearRes {
    dev_ptr: *mut c_void,
    desc: ChannelDesc,
    size: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
struct Pitch2DRes {
    dev_ptr: *mut c_void,
    desc: ChannelDesc,
    width: usize,
    height: usize,
    pitch: usize,
}

impl ResourceDesc {
    fn with<T>(res_type: i32, r: T) -> ResourceDesc {
        const { assert!(std::mem::size_of::<T>() <= 128) };
        let mut d = ResourceDesc { res_type, res: [0; 16], flags: 0 };
        unsafe { (d.res.as_mut_ptr() as *mut T).write(r) };
        d
    }

    pub fn array(a: *const Array) -> ResourceDesc {
        ResourceDesc::with(RES_ARRAY, a)
    }

    pub fn linear(dev_ptr: *const c_void, desc: ChannelDesc, size: usize) -> ResourceDesc {
        ResourceDesc::with(RES_LINEAR, LinearRes { dev_ptr: dev_ptr as _, desc, size })
    }

    pub fn pitch2d(dev_ptr: *const c_void, desc: ChannelDesc, width: usize, height: usize, pitch: usize) -> ResourceDesc {
        ResourceDesc::with(RES_PITCH2D, Pitch2DRes { dev_ptr: dev_ptr as _, desc, width, height, pitch })
    }
}

/// `struct cudaTextureDesc`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct TextureDesc {
    pub address_mode: [i32; 3],
    pub filter_mode: i32,
    pub read_mode: i32,
    pub srgb: i32,
    pub border_color: [f32; 4],
    pub normalized_coords: i32,
    pub max_anisotropy: u32,
    pub mipmap_filter_mode: i32,
    pub mipmap_level_bias: f32,
    pub min_mipmap_level_clamp: f32,
    pub max_mipmap_level_clamp: f32,
    pub disable_trilinear_optimization: i32,
    pub seamless_cubemap: i32,
}

/// Where texels are and how they are laid out; shared by textures and surfaces.
#[derive(Clone, Copy)]
pub struct Memory {
    pub base: *const u8,
    pub format: Format,
    pub row: usize,
    pub slice: usize,
    /// Width, height, depth in texels (1 where absent); layers separately.
    pub size: [usize; 3],
    pub layers: usize,
    /// 1, 2 or 3: the dimensions an array samples in (1D arrays sample as 2D, height 1).
    pub dims: usize,
    /// Linear memory: only `tex1Dfetch` reads it.
    pub linear: bool,
}

impl Memory {
    fn of_array(a: &Array) -> Memory {
        let layered = a.flags & (array::LAYERED | array::CUBEMAP) != 0;
        let (depth, layers) = if layered { (1, a.slices()) } else { (a.slices(), 1) };
        let dims = if a.depth > 0 && !layered { 3 } else { 2 };
        Memory {
            base: a.base(),
            format: a.format,
            row: a.row_bytes(),
            slice: a.slice_bytes(),
            size: [a.width, a.rows(), depth],
            layers,
            dims,
            linear: false,
        }
    }

    fn of_resource(r: &ResourceDesc) -> Result<(Memory, Option<*const Array>)> {
        let u = r.res.as_ptr() as *const u8;
        match r.res_type {
            RES_ARRAY => {
                let p = unsafe { (u as *const *const Array).read() };
                Ok((Memory::of_array(array::get(p)?), Some(p)))
            }
            RES_LINEAR => {
                let l = unsafe { (u as *const LinearRes).read() };
                if l.dev_ptr.is_null() || l.dev_ptr as usize % 256 != 0 {
                    return Err(error::INVALID_VALUE);
                }
                let format = Format::of(&l.desc)?;
                let n = l.size / format.elem_size();
                Ok((Memory { base: l.dev_ptr as _, format, row: l.size, slice: l.size, size: [n, 1, 1], layers: 1, dims: 1, linear: true }, None))
            }
            RES_PITCH2D => {
                let p = unsafe { (u as *const Pitch2DRes).read() };
                let format = Format::of(&p.desc)?;
                let bad_ptr = p.dev_ptr.is_null() || p.dev_ptr as usize % 256 != 0;
                if bad_ptr || p.pitch % 32 != 0 || p.width == 0 || p.height == 0 || p.pitch < p.width * format.elem_size() {
                    return Err(error::INVALID_VALUE);
                }
                let mem = Memory {
                    base: p.dev_ptr as _,
                    format,
                    row: p.pitch,
                    slice: p.pitch * p.height,
                    size: [p.width, p.height, 1],
                    layers: 1,
                    dims: 2,
                    linear: false,
                };
                Ok((mem, None))
            }
            RES_MIPMAPPED => {
                let m = mipmap::get(unsafe { (u as *const *const MipmappedArray).read() })?;
                Ok((Memory::of_array(array::get(m.levels[0])?), None))
            }
            _ => Err(error::INVALID_VALUE),
        }
    }

    /// The texel at in-range indices.
    fn texel(&self, i: [usize; 3], layer: usize) -> *const u8 {
        let off = (layer + i[2]) * self.slice + i[1] * self.row + i[0] * self.format.elem_size();
        unsafe { self.base.add(off) }
    }
}

/// The start of every texture object, read by generated C without a call
/// (`__cu_tex_fast` in crates/cuprite-cpu/src/prelude.h; keep the two in step): `kind`
/// 1 when a fetch is a plain texel read there, nearest-point sampling of a 1D or 2D
/// array or pitch-2D memory of one 4-byte channel read as elements, clamp addressing,
/// one level; 2 when it is bilinear filtering of such texels with clamp addressing (any
/// mode but border, for unnormalized coordinates), done there exactly as `taps_with` and
/// `resolve` do it; 3 when it is nearest-point sampling with normalized coordinates and
/// wrap addressing; 0 otherwise (every other fetch, and a destroyed object, calls the
/// runtime).
#[repr(C)]
pub struct FastPath {
    pub kind: u32,
    pub width: u32,
    pub height: u32,
    /// Normalized coordinates: scaled by width and height first.
    pub normalized: u32,
    pub row: u64,
    pub base: *const u8,
}

/// What a `cudaTextureObject_t` points to.
#[repr(C)]
pub struct TexObj {
    /// First: generated C reads it at the handle's address.
    pub fast: FastPath,
    /// Cleared by `cudaDestroyTextureObject` (the object itself is kept, so a stale
    /// handle traps instead of reading freed memory).
    pub live: bool,
    pub res: ResourceDesc,
    pub tex: TextureDesc,
    /// Level 0 (the only level of a texture without mipmaps).
    pub mem: Memory,
    /// Every level of a mipmapped array, level 0 first; empty otherwise.
    pub mips: Box<[Memory]>,
    /// `sRGB` in effect: 8-bit unsigned texels read as normalized floats, their colour
    /// channels decoded through the H100's table (`srgb.rs`).
    pub srgb: bool,
    /// The border colour as fetches return it (see [`border_as_read`]).
    pub border: [f32; 4],
}

impl TexObj {
    pub fn new(res: &ResourceDesc, tex: &TextureDesc) -> Result<TexObj> {
        let (mem, _) = Memory::of_resource(res)?;
        let mips: Box<[Memory]> = if res.res_type == RES_MIPMAPPED {
            let m = mipmap::get(unsafe { (res.res.as_ptr() as *const *const MipmappedArray).read() })?;
            m.levels.iter().map(|l| array::get(*l).map(Memory::of_array)).collect::<Result<_>>()?
        } else {
            Box::new([])
        };
        let bad_enum = tex.address_mode.iter().any(|m| !(0..=3).contains(m))
            || !(0..=1).contains(&tex.filter_mode)
            || !(0..=1).contains(&tex.mipmap_filter_mode)
            || !(0..=1).contains(&tex.read_mode);
        if bad_enum {
            return Err(error::INVALID_VALUE);
        }
        let f = mem.format;
        let normalized_read = tex.read_mode == 1;
        let linear_mips = tex.mipmap_filter_mode == 1 && !mips.is_empty();
        if (tex.filter_mode == 1 || linear_mips) && f.is_integer() && !normalized_read {
            return Err(INVALID_FILTER_SETTING);
        }
        if normalized_read && (!f.is_integer() || f.bits == 32) {
            return Err(INVALID_NORM_SETTING);
        }
        let srgb = tex.srgb != 0 && f.bits == 8 && f.kind == super::format::KIND_UNSIGNED && normalized_read;
        let mut tex = *tex;
        // The GPU keeps a border colour only where an axis uses it (read back as 0).
        if !tex.address_mode.contains(&filter::BORDER) {
            tex.border_color = [0.0; 4];
        }
        let one_texel_read = !mem.linear
            && mem.dims == 2
            && mem.layers == 1
            && mips.len() <= 1
            && tex.read_mode == 0
            && f.channels == 1
            && f.bits == 32
            // Texel indices are clamped in float, exact below 2^24.
            && mem.size[0] <= 1 << 24
            && mem.size[1] <= 1 << 24;
        let clamp_both = tex.address_mode[0] == filter::CLAMP && tex.address_mode[1] == filter::CLAMP;
        let plain = one_texel_read && tex.filter_mode == 0 && clamp_both;
        // Unnormalized coordinates clamp in every mode but border.
        let clamps = |m: i32| if tex.normalized_coords != 0 { m == filter::CLAMP } else { m != filter::BORDER };
        let bilinear = one_texel_read
            && tex.filter_mode == 1
            && f.kind == super::format::KIND_FLOAT
            && clamps(tex.address_mode[0])
            && clamps(tex.address_mode[1]);
        let wrapped = one_texel_read
            && tex.filter_mode == 0
            && tex.normalized_coords != 0
            && tex.address_mode[0] == filter::WRAP
            && tex.address_mode[1] == filter::WRAP;
        let fast = FastPath {
            kind: if plain { 1 } else if bilinear { 2 } else if wrapped { 3 } else { 0 },
            width: mem.size[0] as u32,
            height: mem.size[1] as u32,
            normalized: (tex.normalized_coords != 0) as u32,
            row: mem.row as u64,
            base: mem.base,
        };
        let border = border_as_read(tex.border_color, f, normalized_read, srgb);
        Ok(TexObj { fast, live: true, res: *res, tex, mem, mips, srgb, border })
    }

    /// Destroys the object for device code: later fetches through it fail.
    pub fn retire(&mut self) {
        self.live = false;
        self.fast.kind = 0;
    }

    fn float_result(&self) -> bool {
        self.tex.read_mode == 1 || !self.mem.format.is_integer()
    }

    fn texel_f32(&self, t: Option<*const u8>) -> [f32; 4] {
        let mut v = [0f32; 4];
        match t {
            Some(p) => {
                for (c, x) in v.iter_mut().enumerate().take(self.mem.format.channels) {
                    *x = if self.srgb && srgb::decodes_channel(c, self.mem.format.channels) {
                        srgb::DECODE[unsafe { *p.add(c) } as usize]
                    } else {
                        unsafe { self.mem.format.channel_f32(p, c) }
                    };
                }
            }
            None => v.copy_from_slice(&self.border),
        }
        v
    }

    /// Samples at texel-space coordinates (`dims` of them) in `layer`.
    /// Component `comp` of the four texels that bilinear filtering at (x, y) reads, in
    /// the order (i, j+1), (i+1, j+1), (i+1, j), (i, j): what `tex2Dgather` returns.
    fn gather(&self, x: f32, y: f32, comp: usize, out: &mut [u8]) {
        let m = &self.mem;
        let norm = self.tex.normalized_coords != 0;
        let axes = [Axis { size: m.size[0], mode: self.tex.address_mode[0] }, Axis { size: m.size[1], mode: self.tex.address_mode[1] }];
        let (i, _) = filter::linear(axes[0].texel_coord(x, norm));
        let (j, _) = filter::linear(axes[1].texel_coord(y, norm));
        let locate = |di: i64, dj: i64| -> Option<*const u8> { Some(m.texel([axes[0].address(i + di, norm)?, axes[1].address(j + dj, norm)?, 0], 0)) };
        let corners = [locate(0, 1), locate(1, 1), locate(1, 0), locate(0, 0)];
        out.fill(0);
        let comp = comp.min(m.format.channels.saturating_sub(1));
        if self.float_result() {
            let v: Vec<f32> = corners.iter().map(|t| self.texel_f32(*t)[comp]).collect();
            write_f32(out, &v);
        } else {
            let width = m.format.elem_size() / m.format.channels.max(1);
            for (k, t) in corners.iter().enumerate() {
                if let (Some(p), Some(d)) = (t, out.get_mut(k * width..(k + 1) * width)) {
                    unsafe { std::ptr::copy_nonoverlapping(p.add(comp * width), d.as_mut_ptr(), width) };
                }
            }
        }
    }

    /// The level of detail a gradient pair asks for, in texels of level 0 (gradients
    /// count in normalized units even with unnormalized coordinates, as on the H100).
    /// 1D and 2D: the H100's combination of the two gradients ([`lod::level_of_gradients`]:
    /// the footprint's major axis, or with `maxAnisotropy` N > 1 its minor axis unless
    /// the major divided by N is longer). 3D gradients (not measured): the Euclidean
    /// lengths, the longer divided by min(N, ceil(longer / shorter)), with the same log2.
    fn grad_lod(&self, dx: [f32; 3], dy: [f32; 3]) -> f32 {
        let m = &self.mem;
        let texels = |d: [f32; 3]| -> [f64; 3] {
            let t = |a: usize| if a < m.dims { d[a] as f64 * m.size[a] as f64 } else { 0.0 };
            [t(0), t(1), t(2)]
        };
        let (x, y) = (texels(dx), texels(dy));
        let n = self.tex.max_anisotropy;
        if m.dims <= 2 {
            return lod::level_of_gradients([x[0], x[1]], [y[0], y[1]], n) as f32;
        }
        let len = |v: [f64; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        let (a, b) = (len(x), len(y));
        let (major, minor) = (a.max(b), a.min(b));
        let samples = if n > 1 { if minor > 0.0 { (major / minor).ceil().min(n as f64) } else { n as f64 } } else { 1.0 };
        lod::log2_steps(major / samples) as f32
    }

    /// The level of detail after `mipmapLevelBias` (not applied to fetches without a
    /// level or gradients: they read level 0 on the H100) and the clamps, in 1/256 steps
    /// (truncated, as the H100's): the level and the weight (0..256) of the next one.
    /// With `maxAnisotropy` > 1 the texture unit narrows the blend between levels unless
    /// `disableTrilinearOptimization` is set: weight 2w - 1/2, clamped (measured).
    fn level_and_weight(&self, lod: f32, biased: bool) -> (usize, i32) {
        let t = &self.tex;
        let top = (self.mips.len() - 1) as f32;
        let mut l = if biased { lod + t.mipmap_level_bias } else { lod };
        l = l.max(t.min_mipmap_level_clamp).min(t.max_mipmap_level_clamp);
        let l = if l.is_nan() { 0.0 } else { l.clamp(0.0, top) };
        let k = l.floor();
        // The weight keeps 8 fractional bits, truncated (level 0.1 blends with 25/256).
        let mut w = ((l - k) * 256.0) as i32;
        if t.max_anisotropy > 1 && t.disable_trilinear_optimization == 0 {
            w = (2 * w - 128).clamp(0, 256);
        }
        if w == 256 {
            return (k as usize + 1, 0);
        }
        (k as usize, w)
    }

    /// Samples at level of detail `lod` (before bias and clamps): one level with
    /// `mipmapFilterMode` point (the nearest), two levels blended with linear, their
    /// shares 256 - w and w splitting each level's filter weights (`taps_of` adds one
    /// level's weighted texels for a share). Without mipmaps, level 0.
    fn sample_lod(&self, lod: Option<f32>, out: &mut [u8], taps_of: impl Fn(&Memory, i32, &mut Taps)) {
        let mut taps = Taps::default();
        if self.mips.len() <= 1 {
            taps_of(&self.mem, 256, &mut taps);
            return self.resolve(&taps, out);
        }
        let (k, w) = self.level_and_weight(lod.unwrap_or(0.0), lod.is_some());
        if self.tex.mipmap_filter_mode == 0 {
            let k = if w >= 128 { k + 1 } else { k };
            taps_of(&self.mips[k.min(self.mips.len() - 1)], 256, &mut taps);
        } else if w == 0 || k + 1 >= self.mips.len() {
            taps_of(&self.mips[k], 256, &mut taps);
        } else {
            taps_of(&self.mips[k], 256 - w, &mut taps);
            taps.next_group();
            taps_of(&self.mips[k + 1], w, &mut taps);
        }
        self.resolve(&taps, out)
    }

    /// Linear filtering on cubemap `face` of `layer` at face coordinates (u, v) with
    /// `seamlessCubemap`: texels past an edge come from the neighbouring face
    /// (`filter::seamless_texel`), a missing corner's weight goes to the other three.
    fn taps_cube_seamless(&self, m: &Memory, face: usize, u: f32, v: f32, layer: usize, share: i32, taps: &mut Taps) {
        let w = m.size[0];
        let (i, a) = filter::linear(u * w as f32);
        let (j, b) = filter::linear(v * w as f32);
        let mut weights = filter::bilinear_weights(a, b);
        let mut texels = [None; 4];
        for (k, t) in texels.iter_mut().enumerate() {
            match filter::seamless_texel(face, i + (k & 1) as i64, j + (k >> 1) as i64, w) {
                Some((f, x, y)) => *t = Some(m.texel([x, y, 0], 6 * layer + f)),
                None => weights = filter::corner_weights(weights, k),
            }
        }
        let mut w = weights.map(|x| (x * 256.0).round() as i32);
        if share != 256 {
            filter::scale_weights(&mut w, share);
        }
        for k in 0..4 {
            taps.push(texels[k], w[k]);
        }
    }

    /// The texels (with weights in 1/256 units summing to `share`) that sampling `m` at
    /// `c` in `layer` reads. `norm`: whether `c` is in normalized coordinates (always,
    /// for a cubemap face).
    fn taps_with(&self, m: &Memory, c: [f32; 3], layer: usize, norm: bool, share: i32, taps: &mut Taps) {
        // Fixed-size arrays only: this runs once per fetch, inside kernels' loops.
        let dims = m.dims;
        let axis = |a: usize| Axis { size: m.size[a], mode: self.tex.address_mode[a] };
        let axes = [axis(0), axis(1), axis(2)];
        let mut tc = [0f32; 3];
        for a in 0..dims {
            tc[a] = axes[a].texel_coord(c[a], norm);
        }
        let locate = |idx: [i64; 3]| -> Option<*const u8> {
            let mut i = [0usize; 3];
            for a in 0..dims {
                i[a] = axes[a].address(idx[a], norm)?;
            }
            Some(m.texel(i, layer))
        };
        if self.tex.filter_mode == 0 {
            let idx = [filter::nearest(tc[0]), filter::nearest(tc[1]), filter::nearest(tc[2])];
            taps.push(locate(idx), share);
            return;
        }
        // Linear: 2^dims texels, x fastest.
        for a in 0..dims {
            tc[a] = axes[a].linear_coord(c[a], norm);
        }
        let lw = [filter::linear(tc[0]), filter::linear(tc[1]), filter::linear(tc[2])];
        let mut w = [0i32; 8];
        let n = 1usize << dims;
        if dims == 3 {
            w = filter::trilinear_weights(lw[0].1, lw[1].1, lw[2].1, share);
        } else if share == 256 {
            let b = filter::bilinear_weights(lw[0].1, lw[1].1);
            for k in 0..4 {
                w[k] = (b[k] * 256.0) as i32;
            }
        } else {
            w[..4].copy_from_slice(&filter::slice_weights(lw[0].1, lw[1].1, share));
        }
        for (corner, wk) in w.iter().enumerate().take(n) {
            if corner == 4 {
                taps.next_group();
            }
            let mut idx = [0i64; 3];
            for a in 0..dims {
                idx[a] = lw[a].0 + ((corner >> a) & 1) as i64;
            }
            taps.push(locate(idx), *wk);
        }
    }

    /// The texel (or the border colour) as the filter reads it.
    fn texel_filter(&self, t: Option<*const u8>) -> [f64; 4] {
        let mut v = [0f64; 4];
        match t {
            Some(p) => {
                for (c, x) in v.iter_mut().enumerate().take(self.mem.format.channels) {
                    *x = unsafe { self.mem.format.channel_f32(p, c) as f64 };
                }
            }
            None => {
                for (x, b) in v.iter_mut().zip(self.border) {
                    *x = b as f64;
                }
            }
        }
        v
    }

    /// Linear filtering of 8/16-bit integer texels read as normalized floats: the exact
    /// integer sum of codes times weights (the border colour, already in the format,
    /// as its code), rounded as [`Format::filtered_from_codes`].
    fn filter_codes(&self, taps: &Taps) -> [f32; 4] {
        let f = self.mem.format;
        let max = f.max_code() as f32;
        let mut sum = [0i64; 4];
        for k in 0..taps.n {
            for (ch, s) in sum.iter_mut().enumerate().take(f.channels) {
                let code = match taps.t[k] {
                    Some(p) => unsafe { f.channel_code(p, ch) },
                    None => (self.border[ch] * max).round() as i64,
                };
                *s += taps.w[k] as i64 * code;
            }
        }
        sum.map(|s| f.filtered_from_codes(s))
    }

    /// Replaces the sRGB-decoded channels of `r` (the others stay 8-bit normalized
    /// reads) by the H100's filtering of decoded texels ([`srgb::filter`]); the border
    /// colour counts as the code it encodes to.
    fn filter_srgb(&self, taps: &Taps, r: &mut [f32; 4]) {
        let nc = self.mem.format.channels;
        for (ch, x) in r.iter_mut().enumerate().take(nc) {
            if !srgb::decodes_channel(ch, nc) {
                continue;
            }
            let code = |k: usize| match taps.t[k] {
                Some(p) => unsafe { *p.add(ch) },
                None => srgb::encode(self.tex.border_color[ch]),
            };
            // Each bilinear footprint (a mipmap level, a z slice) is aligned on its own.
            let mut sum = 0.0;
            let mut start = 0;
            while start < taps.n {
                let end = (start..taps.n).find(|&k| taps.group[k] != taps.group[start]).unwrap_or(taps.n);
                sum += srgb::aligned_sum((start..end).map(|k| (code(k), taps.w[k])));
                start = end;
            }
            *x = srgb::filtered(sum);
        }
    }

    /// Writes the fetch's result: one texel as it is (raw for integers read as
    /// elements), or the weighted sum, exact in f64, then as the texture unit rounds it.
    fn resolve(&self, taps: &Taps, out: &mut [u8]) {
        let f = self.mem.format;
        if !self.float_result() {
            return write_raw(out, taps.t[0], f.elem_size());
        }
        if taps.n == 1 && self.tex.filter_mode == 0 {
            return write_f32(out, &self.texel_f32(taps.t[0])[..f.channels]);
        }
        let nc = f.channels;
        if self.tex.read_mode == 1 && f.filters_codes() {
            let mut r = self.filter_codes(taps);
            if self.srgb {
                self.filter_srgb(taps, &mut r);
            }
            return write_f32(out, &r[..nc]);
        }
        let mut sum = [0f64; 4];
        for k in 0..taps.n {
            if taps.w[k] != 0 {
                let v = self.texel_filter(taps.t[k]);
                for ch in 0..nc {
                    sum[ch] += taps.w[k] as f64 * v[ch];
                }
            }
        }
        let mut r = [0f32; 4];
        for ch in 0..nc {
            r[ch] = (sum[ch] / 256.0) as f32;
        }
        write_f32(out, &r[..nc]);
    }
}

/// The border colour as a fetch returns it. Integer texels read as normalized floats get
/// it converted to their format first (measured on an H100 for 8-bit unsigned texels:
/// 0.5 reads as 127/255 and 7.5 as 1; sRGB channels take the code the colour encodes
/// to, decoded: 0.5 reads as 0.50390625); the same truncating conversion is assumed for
/// 16-bit and signed texels. Float texels keep it as given.
fn border_as_read(b: [f32; 4], f: Format, normalized_read: bool, srgb: bool) -> [f32; 4] {
    if !normalized_read {
        return b;
    }
    let max = ((1u32 << (f.bits - u32::from(f.kind == super::format::KIND_SIGNED))) - 1) as f32;
    let mut r = b;
    for (c, x) in r.iter_mut().enumerate() {
        *x = if srgb && srgb::decodes_channel(c, f.channels) {
            srgb::DECODE[srgb::encode(*x) as usize]
        } else if f.kind == super::format::KIND_SIGNED {
            (x.clamp(-1.0, 1.0) * max).trunc() / max
        } else {
            (x.clamp(0.0, 1.0) * max).floor() / max
        };
    }
    r
}

/// The texels one fetch reads and their weights in 1/256 units (up to 2 levels of 8).
struct Taps {
    t: [Option<*const u8>; 16],
    w: [i32; 16],
    n: usize,
    /// The bilinear footprint each texel belongs to (a mipmap level, a z slice of
    /// trilinear filtering): sRGB filtering aligns each footprint on its own.
    group: [u8; 16],
    current: u8,
}

impl Default for Taps {
    fn default() -> Taps {
        Taps { t: [None; 16], w: [0; 16], n: 0, group: [0; 16], current: 0 }
    }
}

impl Taps {
    /// Starts the next bilinear footprint.
    fn next_group(&mut self) {
        self.current += 1;
    }

    fn push(&mut self, t: Option<*const u8>, w: i32) {
        if self.n < 16 {
            self.t[self.n] = t;
            self.w[self.n] = w;
            self.group[self.n] = self.current;
            self.n += 1;
        }
    }
}

fn write_f32(out: &mut [u8], v: &[f32]) {
    out.fill(0);
    for (i, x) in v.iter().enumerate() {
        if let Some(d) = out.get_mut(i * 4..i * 4 + 4) {
            d.copy_from_slice(&x.to_ne_bytes());
        }
    }
}

fn write_raw(out: &mut [u8], t: Option<*const u8>, elem: usize) {
    out.fill(0);
    if let Some(p) = t {
        let n = elem.min(out.len());
        unsafe { std::ptr::copy_nonoverlapping(p, out.as_mut_ptr(), n) };
    }
}

/// What a `cudaSurfaceObject_t` points to.
pub struct SurfObj {
    pub live: bool,
    pub res: ResourceDesc,
    pub mem: Memory,
}

impl SurfObj {
    pub fn new(res: &ResourceDesc) -> Result<SurfObj> {
        if res.res_type == RES_LINEAR {
            // CUDA 13 checks a linear resource's channel descriptor first (measured).
            let l = unsafe { (res.res.as_ptr() as *const LinearRes).read() };
            Format::of(&l.desc)?;
        }
        if res.res_type != RES_ARRAY {
            return Err(error::INVALID_VALUE);
        }
        // CUDA 13 accepts arrays made without cudaArraySurfaceLoadStore (measured).
        let (mem, _) = Memory::of_resource(res)?;
        Ok(SurfObj { live: true, res: *res, mem })
    }
}

const MSG_BAD_TEXTURE: &[u8] = b"texture fetch through a texture object that does not exist (never created, or destroyed)\0";
const MSG_TEX_LINEAR: &[u8] = b"tex1D/tex2D/tex3D on a texture object over linear memory (only tex1Dfetch reads linear memory)\0";
const MSG_FETCH_ARRAY: &[u8] = b"tex1Dfetch on a texture object that is not over linear memory\0";
const MSG_NOT_CUBEMAP: &[u8] = b"texCubemap on a texture object whose array is not a cubemap (cudaArrayCubemap)\0";
const MSG_UNBOUND_REF: &[u8] = b"texture fetch through a texture reference that is not bound (cudaBindTexture*)\0";
const MSG_CUBE_GRAD: &[u8] = b"texCubemapGrad/texCubemapLayeredGrad on a mipmapped cubemap is not supported yet (level selection from cubemap gradients is not modelled)\0";
const MSG_UNBOUND_SURFREF: &[u8] = b"surface access through a surface reference that is not bound (cudaBindSurfaceToArray)\0";
const MSG_BAD_SURFACE: &[u8] = b"surface access through a surface object that does not exist\0";
const MSG_MISALIGNED: &[u8] = b"surface access at a byte offset that is not a multiple of the access size\0";
const MSG_SURF_TRAP: &[u8] = b"surface access out of bounds with cudaBoundaryModeTrap\0";

fn fail(msg: *mut *const c_char, text: &'static [u8], code: CudaError) -> i32 {
    if !msg.is_null() {
        unsafe { *msg = text.as_ptr() as *const c_char };
    }
    code
}

/// `tex1D`/`tex2D`/`tex3D` and the layered forms (`dims | 0x10`), from device code.
/// Returns 0, or a CUDA error (with `*msg` set) that ends the launch.
///
/// # Safety
/// `obj` is a texture object handle; `out` holds `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn __cuprite_tex_fetch(
    obj: u64,
    dims: i32,
    x: f32,
    y: f32,
    z: f32,
    layer: i32,
    out: *mut c_void,
    size: u32,
    msg: *mut *const c_char,
) -> i32 {
    if obj == UNBOUND_REFERENCE {
        return fail(msg, MSG_UNBOUND_REF, INVALID_TEXTURE);
    }
    let t = obj as *const TexObj;
    if t.is_null() || !(*t).live {
        return fail(msg, MSG_BAD_TEXTURE, error::LAUNCH_FAILURE);
    }
    let t = &*t;
    if t.mem.linear {
        return fail(msg, MSG_TEX_LINEAR, error::LAUNCH_FAILURE);
    }
    let (size, widen) = (size & !WIDEN_CHANNELS, size & WIDEN_CHANNELS != 0 && !t.float_result());
    // Lod and Grad forms pass their level or gradients after the result, at the next
    // 4-byte boundary (`__cuprite_tex_lod` in include/cuprite/texture_fetch.h).
    let extra = (out as *const u8).add((size as usize + 3) & !3) as *const f32;
    let norm = t.tex.normalized_coords != 0;
    let out = std::slice::from_raw_parts_mut(out as *mut u8, size as usize);
    // A layer index is read as unsigned and clamped to the last layer (as the H100 does).
    let layer = if dims & 0x10 != 0 { layer as u32 as usize } else { 0 };
    let lod = if dims & LOD != 0 {
        Some(extra.read())
    } else if dims & GRAD != 0 {
        if dims & 0x20 != 0 && t.mips.len() > 1 {
            return fail(msg, MSG_CUBE_GRAD, error::LAUNCH_FAILURE);
        }
        let g = std::slice::from_raw_parts(extra, 6);
        Some(t.grad_lod([g[0], g[1], g[2]], [g[3], g[4], g[5]]))
    } else {
        None
    };
    if dims & 0x20 != 0 {
        if t.mem.layers < 6 {
            return fail(msg, MSG_NOT_CUBEMAP, error::LAUNCH_FAILURE);
        }
        let (face, u, v) = filter::cubemap_face(x, y, z);
        let layer = layer.min(t.mem.layers / 6 - 1);
        if t.tex.seamless_cubemap != 0 && t.tex.filter_mode == 1 {
            t.sample_lod(lod, out, |m, s, k| t.taps_cube_seamless(m, face, u, v, layer, s, k));
        } else {
            t.sample_lod(lod, out, |m, s, k| t.taps_with(m, [u, v, 0.0], 6 * layer + face, true, s, k));
        }
    } else if dims & 0x40 != 0 {
        t.gather(x, y, ((dims >> 8) & 3) as usize, out);
    } else {
        // Coordinates the call does not give are 0 (a 1D array samples row 0 as 2D).
        let layer = layer.min(t.mem.layers - 1);
        t.sample_lod(lod, out, |m, s, k| t.taps_with(m, [x, y, z], layer, norm, s, k));
    }
    if widen {
        // A gather returns one channel of four texels.
        widen_channels(out, t.mem.format, if dims & 0x40 != 0 { 4 } else { t.mem.format.channels });
    }
    0
}

/// Rewrites `count` packed integer channels at the start of `out` as 32-bit integers,
/// sign- or zero-extended as `f`'s kind ([`WIDEN_CHANNELS`]).
fn widen_channels(out: &mut [u8], f: Format, count: usize) {
    let width = f.bits as usize / 8;
    let mut v = [0u32; 4];
    for (c, x) in v.iter_mut().enumerate().take(count.min(4)) {
        let Some(b) = out.get(c * width..(c + 1) * width) else { break };
        let mut raw = [0u8; 4];
        raw[..width].copy_from_slice(b);
        let u = u32::from_le_bytes(raw);
        *x = match (f.kind, width) {
            (super::format::KIND_SIGNED, 1) => u as u8 as i8 as i32 as u32,
            (super::format::KIND_SIGNED, 2) => u as u16 as i16 as i32 as u32,
            _ => u,
        };
    }
    out.fill(0);
    for (c, x) in v.iter().enumerate() {
        if let Some(d) = out.get_mut(c * 4..c * 4 + 4) {
            d.copy_from_slice(&x.to_le_bytes());
        }
    }
}

/// `tex1Dfetch`: element `i` of linear memory, zero outside it.
///
/// # Safety
/// As `__cuprite_tex_fetch`.
#[no_mangle]
pub unsafe extern "C" fn __cuprite_tex_fetch_int(obj: u64, i: i32, out: *mut c_void, size: u32, msg: *mut *const c_char) -> i32 {
    if obj == UNBOUND_REFERENCE {
        return fail(msg, MSG_UNBOUND_REF, INVALID_TEXTURE);
    }
    let t = obj as *const TexObj;
    if t.is_null() || !(*t).live {
        return fail(msg, MSG_BAD_TEXTURE, error::LAUNCH_FAILURE);
    }
    let t = &*t;
    if !t.mem.linear {
        return fail(msg, MSG_FETCH_ARRAY, error::LAUNCH_FAILURE);
    }
    let (size, widen) = (size & !WIDEN_CHANNELS, size & WIDEN_CHANNELS != 0 && !t.float_result());
    let out = std::slice::from_raw_parts_mut(out as *mut u8, size as usize);
    let p = (i >= 0 && (i as usize) < t.mem.size[0]).then(|| t.mem.texel([i as usize, 0, 0], 0));
    if t.float_result() {
        let v = t.texel_f32(p);
        write_f32(out, if p.is_some() { &v[..t.mem.format.channels] } else { &[] });
    } else {
        write_raw(out, p, t.mem.format.elem_size());
        if widen {
            widen_channels(out, t.mem.format, t.mem.format.channels);
        }
    }
    0
}

/// `surf1D/2D/3D read/write`: `x` in bytes, `mode` 0 zero, 1 clamp, 2 trap.
///
/// # Safety
/// `obj` is a surface object handle; `data` holds `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn __cuprite_surf_access(
    obj: u64,
    dims: i32,
    x: i32,
    y: i32,
    z: i32,
    data: *mut c_void,
    size: u32,
    mode: i32,
    write: i32,
    msg: *mut *const c_char,
) -> i32 {
    if obj == UNBOUND_REFERENCE {
        return fail(msg, MSG_UNBOUND_SURFREF, INVALID_SURFACE);
    }
    let s = obj as *const SurfObj;
    if s.is_null() || !(*s).live {
        return fail(msg, MSG_BAD_SURFACE, error::LAUNCH_FAILURE);
    }
    let m = &(*s).mem;
    let size = size as usize;
    if size == 0 || x.rem_euclid(size as i32) != 0 {
        return fail(msg, MSG_MISALIGNED, MISALIGNED_ADDRESS);
    }
    let (y, z) = if dims == 1 { (0, 0) } else if dims == 2 { (y, 0) } else { (y, z) };
    let limits = [m.row as i64 - size as i64, m.size[1] as i64 - 1, (m.size[2] * m.layers) as i64 - 1];
    let c = [x as i64, y as i64, z as i64];
    let inside = c.iter().zip(limits).all(|(v, l)| *v >= 0 && *v <= l);
    let c = if inside {
        c
    } else {
        match mode {
            0 => {
                if write == 0 {
                    std::ptr::write_bytes(data as *mut u8, 0, size);
                }
                return 0;
            }
            1 => {
                let mut k = [0i64; 3];
                for a in 0..3 {
                    k[a] = c[a].clamp(0, limits[a].max(0));
                }
                k[0] -= k[0] % size as i64;
                k
            }
            _ => return fail(msg, MSG_SURF_TRAP, error::ILLEGAL_ADDRESS),
        }
    };
    let p = m.base.add(c[2] as usize * m.slice + c[1] as usize * m.row + c[0] as usize) as *mut u8;
    if write != 0 {
        std::ptr::copy_nonoverlapping(data as *const u8, p, size);
    } else {
        std::ptr::copy_nonoverlapping(p, data as *mut u8, size);
    }
    0
}

#[cfg(test)]
mod mipmap_tests {
    use super::*;

    /// A 16x16 float mipmapped array (5 levels), each level filled with its index, and a
    /// texture over it with normalized coordinates and linear filtering.
    fn levels_texture(mip_filter: i32, bias: f32, min: f32, max: f32) -> (TexObj, *mut MipmappedArray) {
        let desc = ChannelDesc { x: 32, y: 0, z: 0, w: 0, f: 2 };
        let m = mipmap::register(Box::new(MipmappedArray::new(desc, 16, 16, 0, 0, 5).unwrap()));
        for (l, a) in mipmap::get(m).unwrap().levels.iter().enumerate() {
            let a = array::get(*a).unwrap();
            for i in 0..a.len() / 4 {
                unsafe { (a.base() as *mut f32).add(i).write(l as f32) };
            }
        }
        let res = ResourceDesc::with(RES_MIPMAPPED, m as *const MipmappedArray);
        let tex = TextureDesc {
            address_mode: [filter::CLAMP; 3],
            filter_mode: 1,
            normalized_coords: 1,
            mipmap_filter_mode: mip_filter,
            mipmap_level_bias: bias,
            min_mipmap_level_clamp: min,
            max_mipmap_level_clamp: max,
            ..Default::default()
        };
        (TexObj::new(&res, &tex).unwrap(), m)
    }

    fn at_lod(t: &TexObj, lod: f32) -> f32 {
        let mut out = [0u8; 4];
        t.sample_lod(Some(lod), &mut out, |m, s, k| t.taps_with(m, [0.5, 0.5, 0.0], 0, true, s, k));
        f32::from_ne_bytes(out)
    }

    #[test]
    fn linear_mip_filtering_blends_levels_with_8_bit_weights() {
        let (t, m) = levels_texture(1, 0.0, 0.0, 4.0);
        assert_eq!(t.mips.len(), 5);
        assert_eq!(at_lod(&t, -1.0), 0.0);
        // The weight truncates to 8 bits, as the H100's: 0.3 blends with 76/256.
        assert_eq!(at_lod(&t, 0.3), 76.0 / 256.0);
        assert_eq!(at_lod(&t, 2.5), 2.5);
        assert_eq!(at_lod(&t, 9.0), 4.0);
        mipmap::release(m).unwrap();
    }

    #[test]
    fn point_mip_filtering_takes_the_nearest_level_and_clamps_apply_after_the_bias() {
        let (t, m) = levels_texture(0, 0.0, 0.0, 4.0);
        assert_eq!(at_lod(&t, 0.49), 0.0);
        assert_eq!(at_lod(&t, 0.5), 1.0);
        assert_eq!(at_lod(&t, 3.7), 4.0);
        mipmap::release(m).unwrap();
        let (t, m) = levels_texture(1, 0.5, 1.0, 2.5);
        assert_eq!(at_lod(&t, 0.0), 1.0);
        assert_eq!(at_lod(&t, 1.25), 1.75);
        assert_eq!(at_lod(&t, 3.0), 2.5);
        mipmap::release(m).unwrap();
        // The default maximum clamp (0) keeps every fetch on level 0.
        let (t, m) = levels_texture(1, 0.0, 0.0, 0.0);
        assert_eq!(at_lod(&t, 3.0), 0.0);
        mipmap::release(m).unwrap();
    }

    #[test]
    fn gradients_select_the_level_of_the_longer_one_in_level_0_texels() {
        let (t, m) = levels_texture(1, 0.0, 0.0, 4.0);
        let g = 4.0 / 16.0;
        assert_eq!(t.grad_lod([g, 0.0, 0.0], [0.0, g / 2.0, 0.0]), 2.0);
        // Normalized units even with unnormalized coordinates (the H100's).
        assert_eq!(t.grad_lod([0.0, 0.0, 0.0], [0.0, 2.0 / 16.0, 0.0]), 1.0);
        assert_eq!(t.grad_lod([0.0; 3], [0.0; 3]), f32::NEG_INFINITY);
        mipmap::release(m).unwrap();
    }
}
