//! Texture fetches and surface accesses as PTX's `tex`, `tex.level`, `tex.grad`, `tld4`,
//! `suld.b` and `sust.b` on the object handle (bindless, as nvcc writes them).
//!
//! The templates of `include/cuprite/texture_fetch.h` call three builtins with the
//! address and size of the result: `__cuprite_tex_fetch(obj, kind, x, y, z, layer, out,
//! size)`, `__cuprite_tex_fetch_int(obj, i, out, size)` and `__cuprite_surf_access(obj,
//! dims, x, y, z, data, size, mode, write)`. The geometry, the level-of-detail and
//! gradient bits, the gather component and the boundary mode are immediates of the PTX
//! instruction; where the IR passes them as run-time values (a template that forwards its
//! parameter: `tex2Dgather`'s component, a surface's boundary mode), the back-end emits
//! one instruction per possible value behind a compare chain. The destination type
//! (`.f32`, `.s32`, `.u32`) is the result element's, found through the pointer's casts.

use super::function::Fx;
use super::types::Class;
use super::EmitError;
use cuprite_ir::{BinaryOp, Const, InstKind, MathFn, Type, ValueId};

/// The handle texture_fetch.h passes for a texture or surface reference that is not
/// bound (`__CUPRITE_UNBOUND_TEXREF`, `__CUPRITE_UNBOUND_SURFREF`: all ones, which no
/// driver object handle is).
const UNBOUND_REFERENCE: &str = "0xFFFFFFFFFFFFFFFF";
/// cudaErrorInvalidTexture, cudaErrorInvalidSurface: what an access through an unbound
/// reference ends the launch with, as on the CPU device.
const INVALID_TEXTURE: u32 = 18;
const INVALID_SURFACE: u32 = 37;

/// The module variable through which a kernel reports such an error to the runtime's GPU
/// device: the device address of a mapped page-locked host word, which the runtime
/// writes when it loads the module and reads when a launch completes (0 where no runtime
/// set it, as on the CPU through the PTX front-end: the fetch then goes ahead and the
/// front-end's runtime reports it).
pub const FAULT_CELL_DECLARATION: &str = ".visible .global .align 8 .u64 __cuprite_fault_cell;\n\n";

/// `__cuprite_tex_fetch`'s kind bits (texture_fetch.h): dims (1-3), | 0x10 layered,
/// | 0x20 cubemap, and these.
const GATHER: i64 = 0x40;
const LOD: i64 = 0x80;
const GRAD: i64 = 0x400;

/// Every kind the header's templates pass, for a kind known only at run time.
fn all_fetch_kinds() -> Vec<i64> {
    let mut v = Vec::new();
    for g in [1, 2, 3, 0x11, 0x12, 0x20, 0x30] {
        v.extend([g, g | LOD, g | GRAD]);
    }
    v.extend((0..4).map(|c| 0x42 | (c << 8)));
    v
}

/// `__cuprite_surf_access`'s dims: 1, 2, 3, and layered 1D (0x13: x, layer in z) and
/// layered 2D or cubemap (0x23: x, y, layer or face in z).
const SURF_A1D: i64 = 0x13;
const SURF_A2D: i64 = 0x23;

/// A fetch's operands, as registers.
struct Fetch {
    obj: String,
    x: String,
    y: String,
    z: String,
    layer: String,
    out: String,
    size: u64,
    dtype: &'static str,
}

impl<'a> Fx<'a> {
    /// The instruction that defines `v`, if an instruction does.
    fn def_kind(&self, v: ValueId) -> Option<&'a InstKind> {
        self.f.blocks.iter().flat_map(|b| &b.insts).find(|i| i.result == Some(v)).map(|i| &i.kind)
    }

    /// The value of an integer computed from constants only (casts, `|`, `&`, `<<`).
    pub fn const_int(&self, v: ValueId) -> Option<i64> {
        match self.def_kind(v)? {
            InstKind::Const(Const::Int(x, _)) => Some(*x),
            InstKind::Cast(a) | InstKind::Bitcast(a) if self.vty(*a).is_integer() => self.const_int(*a),
            InstKind::Binary(op, a, b) => {
                let (a, b) = (self.const_int(*a)?, self.const_int(*b)?);
                match op {
                    BinaryOp::Or => Some(a | b),
                    BinaryOp::And => Some(a & b),
                    BinaryOp::Shl => Some(a.checked_shl(b as u32)?),
                    BinaryOp::Add => Some(a.wrapping_add(b)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Bits certainly set in `v`: the constants it is `|`ed with.
    fn or_bits(&self, v: ValueId) -> i64 {
        match self.def_kind(v) {
            Some(InstKind::Binary(BinaryOp::Or, a, b)) => {
                self.const_int(*a).unwrap_or_else(|| self.or_bits(*a)) | self.const_int(*b).unwrap_or_else(|| self.or_bits(*b))
            }
            Some(InstKind::Cast(a)) if self.vty(*a).is_integer() => self.or_bits(*a),
            _ => 0,
        }
    }

    /// The type a pointer argument addresses, looking through the casts to `void *`.
    fn pointee(&self, mut v: ValueId) -> Type {
        while let Some(InstKind::Cast(a) | InstKind::Bitcast(a)) = self.def_kind(v) {
            if !matches!(self.vty(*a), Type::Ptr(_)) {
                break;
            }
            v = *a;
        }
        match self.vty(v) {
            Type::Ptr(t) => (**t).clone(),
            _ => Type::Void,
        }
    }

    /// The scalar element of a fetch's result type (`float4` → `F32`), and whether it is a
    /// half-precision type (which the `.f32`/`.s32`/`.u32` forms do not return).
    fn element(&self, t: &Type) -> (Type, bool) {
        match t {
            Type::Struct(id) => {
                let s = self.m.struct_def(*id);
                let half = s.name.contains("half") || s.name.contains("bfloat16");
                match s.fields.first() {
                    Some(f) => {
                        let (e, h) = self.element(&f.ty);
                        (e, h || half)
                    }
                    None => (Type::Void, half),
                }
            }
            Type::Array(e, _) => self.element(e),
            other => (other.clone(), false),
        }
    }

    /// The destination type of a fetch into `out`, and the size of one element.
    fn fetch_type(&self, out: ValueId) -> Result<(&'static str, u64), EmitError> {
        let mut t = self.pointee(out);
        // The level-of-detail forms pass `__cuprite_tex_lod<T>`, whose first field is T.
        if let Type::Struct(id) = &t {
            let s = self.m.struct_def(*id);
            if s.name.starts_with("__cuprite_tex_lod") {
                if let Some(f) = s.fields.first() {
                    t = f.ty.clone();
                }
            }
        }
        let (e, half) = self.element(&t);
        let dtype = match e {
            _ if half => None,
            Type::F32 => Some("f32"),
            Type::I8 | Type::I16 | Type::I32 => Some("s32"),
            Type::Bool | Type::U8 | Type::U16 | Type::U32 => Some("u32"),
            _ => None,
        };
        let dtype = dtype.ok_or_else(|| self.err(format!("a texture fetch returning {t} is not supported by the PTX back-end")))?;
        Ok((dtype, self.m.layout(&e).0))
    }

    /// `size` as a constant (`sizeof(T)` in the templates).
    fn const_size(&self, v: ValueId) -> Result<u64, EmitError> {
        self.const_int(v)
            .filter(|s| *s > 0)
            .map(|s| s as u64)
            .ok_or_else(|| self.err("a texture or surface access whose size is not a constant is not supported by the PTX back-end"))
    }

    /// `sel` compared with each case, the code of the matching one, and `trap` when none
    /// matches (a value the templates never pass).
    fn dispatch(
        &mut self,
        sel: ValueId,
        cases: &[i64],
        mut body: impl FnMut(&mut Self, i64) -> Result<(), EmitError>,
    ) -> Result<(), EmitError> {
        if let Some(k) = self.const_int(sel) {
            return body(self, k);
        }
        let r = self.v(sel)?;
        let end = self.label();
        for &c in cases {
            let next = self.label();
            let p = self.tmp(Class::Pred);
            self.emit(format!("setp.ne.s32 {p}, {r}, {c}"));
            self.emit(format!("@{p} bra {next}"));
            body(self, c)?;
            self.emit(format!("bra.uni {end}"));
            self.place_label(&next);
        }
        self.emit("trap");
        self.place_label(&end);
        Ok(())
    }

    /// An access through handle `obj` of an unbound reference: the error code goes to the
    /// runtime's fault word and the thread exits (the others of the launch do the same).
    fn report_unbound_reference(&mut self, obj: &str, code: u32) {
        let (p, cell) = (self.tmp(Class::Pred), self.tmp(Class::B64));
        let go = self.label();
        self.emit(format!("setp.ne.u64 {p}, {obj}, {UNBOUND_REFERENCE}"));
        self.emit(format!("@{p} bra {go}"));
        self.emit(format!("ld.global.u64 {cell}, [__cuprite_fault_cell]"));
        self.emit(format!("setp.eq.u64 {p}, {cell}, 0"));
        self.emit(format!("@{p} bra {go}"));
        self.emit(format!("st.volatile.u32 [{cell}], {code}"));
        self.emit("membar.sys");
        self.emit("exit");
        self.place_label(&go);
    }

    pub fn texture_builtin(&mut self, f: MathFn, args: &[ValueId]) -> Result<(), EmitError> {
        let need = |fx: &Fx, n: usize| {
            if args.len() < n {
                Err(fx.err(format!("internal error: {} needs {n} operands", f.cuda_name())))
            } else {
                Ok(())
            }
        };
        match f {
            MathFn::CupriteTexFetch => {
                need(self, 8)?;
                let (dtype, esize) = self.fetch_type(args[6])?;
                let fetch = Fetch {
                    obj: self.v(args[0])?,
                    x: self.v(args[2])?,
                    y: self.v(args[3])?,
                    z: self.v(args[4])?,
                    layer: self.v(args[5])?,
                    out: self.v(args[6])?,
                    size: self.const_size(args[7])?,
                    dtype,
                };
                self.report_unbound_reference(&fetch.obj, INVALID_TEXTURE);
                let d = self.fetch_regs(dtype);
                let must = self.or_bits(args[1]);
                let kinds: Vec<i64> = all_fetch_kinds().into_iter().filter(|k| k & must == must).collect();
                self.dispatch(args[1], &kinds, |fx, k| fx.tex(&fetch, k, &d))?;
                self.store_components(&d, &fetch.out, fetch.size, esize)
            }
            MathFn::CupriteTexFetchInt => {
                need(self, 4)?;
                let (dtype, esize) = self.fetch_type(args[2])?;
                let (obj, i, out) = (self.v(args[0])?, self.v(args[1])?, self.v(args[2])?);
                let size = self.const_size(args[3])?;
                self.report_unbound_reference(&obj, INVALID_TEXTURE);
                let d = self.fetch_regs(dtype);
                self.emit(format!("tex.1d.v4.{dtype}.s32 {{{}}}, [{obj}, {{{i}}}]", d.join(", ")));
                self.store_components(&d, &out, size, esize)
            }
            _ => {
                need(self, 9)?;
                self.surface(args)
            }
        }
    }

    fn fetch_regs(&mut self, dtype: &str) -> Vec<String> {
        let c = if dtype == "f32" { Class::F32 } else { Class::B32 };
        (0..4).map(|_| self.tmp(c)).collect()
    }

    /// One fetch of kind `k` into the registers `d`.
    fn tex(&mut self, a: &Fetch, k: i64, d: &[String]) -> Result<(), EmitError> {
        let (x, y, z, l) = (&a.x, &a.y, &a.z, &a.layer);
        let base = k & 0x3f;
        let (geom, coords) = match base {
            1 => ("1d", format!("{{{x}}}")),
            2 => ("2d", format!("{{{x}, {y}}}")),
            3 => ("3d", format!("{{{x}, {y}, {z}, {z}}}")),
            0x11 => ("a1d", format!("{{{l}, {x}}}")),
            0x12 => ("a2d", format!("{{{l}, {x}, {y}, {y}}}")),
            0x20 => ("cube", format!("{{{x}, {y}, {z}, {z}}}")),
            0x30 => ("acube", format!("{{{l}, {x}, {y}, {z}}}")),
            _ => return Err(self.err(format!("texture fetch kind {k:#x} is not supported by the PTX back-end"))),
        };
        let dst = d.join(", ");
        let (t, o, dt) = (&a.obj, &a.out, a.dtype);
        // The level of detail or gradients follow the result at the next 4-byte boundary.
        let extra = a.size.div_ceil(4) * 4;
        if k & GATHER != 0 {
            if base != 2 {
                return Err(self.err("texture gather of a geometry other than 2D is not supported by the PTX back-end"));
            }
            let comp = ["r", "g", "b", "a"][((k >> 8) & 3) as usize];
            self.emit(format!("tld4.{comp}.2d.v4.{dt}.f32 {{{dst}}}, [{t}, {coords}]"));
        } else if k & LOD != 0 {
            let lod = self.tmp(Class::F32);
            self.emit(format!("ld.f32 {lod}, [{o}+{extra}]"));
            self.emit(format!("tex.level.{geom}.v4.{dt}.f32 {{{dst}}}, [{t}, {coords}], {lod}"));
        } else if k & GRAD != 0 {
            let g: Vec<String> = (0..6).map(|_| self.tmp(Class::F32)).collect();
            for (i, r) in g.iter().enumerate() {
                self.emit(format!("ld.f32 {r}, [{o}+{}]", extra + 4 * i as u64));
            }
            let vec = |v: &[String]| match geom {
                "1d" | "a1d" => format!("{{{}}}", v[0]),
                "2d" | "a2d" => format!("{{{}, {}}}", v[0], v[1]),
                _ => format!("{{{}, {}, {}, {}}}", v[0], v[1], v[2], v[2]),
            };
            let (dx, dy) = (vec(&g[0..3]), vec(&g[3..6]));
            self.emit(format!("tex.grad.{geom}.v4.{dt}.f32 {{{dst}}}, [{t}, {coords}], {dx}, {dy}"));
        } else {
            self.emit(format!("tex.{geom}.v4.{dt}.f32 {{{dst}}}, [{t}, {coords}]"));
        }
        Ok(())
    }

    /// Stores the first `size / esize` of the four fetched components at `out`.
    fn store_components(&mut self, d: &[String], out: &str, size: u64, esize: u64) -> Result<(), EmitError> {
        let n = if esize == 0 { 0 } else { size / esize };
        if n == 0 || n > 4 || n * esize != size {
            return Err(self.err(format!("a texture fetch of {size} bytes in elements of {esize} is not supported by the PTX back-end")));
        }
        let st = match esize {
            1 => "u8",
            2 => "u16",
            _ => "b32",
        };
        for (i, r) in d.iter().take(n as usize).enumerate() {
            self.emit(format!("st.{st} [{out}+{}], {r}", i as u64 * esize));
        }
        Ok(())
    }

    /// `__cuprite_surf_access(obj, dims, x, y, z, data, size, mode, write)`: raw bytes
    /// (`suld.b`/`sust.b`; x is in bytes, as in CUDA), 1, 2, 4, 8 or 16 of them.
    fn surface(&mut self, args: &[ValueId]) -> Result<(), EmitError> {
        let dims = self
            .const_int(args[1])
            .ok_or_else(|| self.err("a surface access whose dimensionality is not a constant is not supported by the PTX back-end"))?;
        let write = self
            .const_int(args[8])
            .ok_or_else(|| self.err("a surface access not known to be a read or a write is not supported by the PTX back-end"))?
            != 0;
        let size = self.const_size(args[6])?;
        let (obj, x, y, z, data) = (self.v(args[0])?, self.v(args[2])?, self.v(args[3])?, self.v(args[4])?, self.v(args[5])?);
        self.report_unbound_reference(&obj, INVALID_SURFACE);
        let (geom, coords) = match dims {
            1 => ("1d", format!("{{{x}}}")),
            2 => ("2d", format!("{{{x}, {y}}}")),
            3 => ("3d", format!("{{{x}, {y}, {z}, {z}}}")),
            SURF_A1D => ("a1d", format!("{{{z}, {x}}}")),
            SURF_A2D => ("a2d", format!("{{{z}, {x}, {y}, {y}}}")),
            _ => return Err(self.err(format!("surface access of dimensionality {dims:#x} is not supported by the PTX back-end"))),
        };
        let (vec, ty, n) = match size {
            1 => ("", "b8", 1),
            2 => ("", "b16", 1),
            4 => ("", "b32", 1),
            8 => (".v2", "b32", 2),
            16 => (".v4", "b32", 4),
            _ => return Err(self.err(format!("a surface access of {size} bytes is not supported by the PTX back-end"))),
        };
        let narrow = size < 4;
        let regs: Vec<String> = if narrow { vec!["%cus".to_string()] } else { (0..n).map(|_| self.tmp(Class::B32)).collect() };
        let list = regs.join(", ");
        let mem = match size {
            1 => "u8",
            2 => "u16",
            _ => "b32",
        };
        self.dispatch(args[7], &[0, 1, 2], |fx, mode| {
            let clamp = match mode {
                0 => "zero",
                1 => "clamp",
                2 => "trap",
                _ => return Err(fx.err(format!("surface boundary mode {mode} is not supported by the PTX back-end"))),
            };
            if narrow {
                fx.body.push_str("\t{\n\t.reg .b16 %cus;\n");
            }
            if write {
                for (i, r) in regs.iter().enumerate() {
                    fx.emit(format!("ld.{mem} {r}, [{data}+{}]", 4 * i));
                }
                fx.emit(format!("sust.b.{geom}{vec}.{ty}.{clamp} [{obj}, {coords}], {{{list}}}"));
            } else {
                fx.emit(format!("suld.b.{geom}{vec}.{ty}.{clamp} {{{list}}}, [{obj}, {coords}]"));
                for (i, r) in regs.iter().enumerate() {
                    fx.emit(format!("st.{mem} [{data}+{}], {r}", 4 * i));
                }
            }
            if narrow {
                fx.body.push_str("\t}\n");
            }
            Ok(())
        })?;
        Ok(())
    }
}
