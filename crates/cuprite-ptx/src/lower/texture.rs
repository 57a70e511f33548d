//! Texture and surface instructions on texture and surface objects (`tex`, `tld4`, `suld.b`,
//! `sust.b`), lowered to the builtins the CPU runtime implements for CUDA C's fetch
//! functions (`__cuprite_tex_fetch`, `__cuprite_tex_fetch_int`, `__cuprite_surf_access`;
//! include/cuprite/texture_fetch.h documents their arguments). The handle operand is the
//! 64-bit object; texture references (`.texref`) are not handled here.

use super::body::Lowerer;
use super::{lerr, LResult};
use crate::isa::ScalarType;
use crate::parse::{Inst, Operand};
use cuprite_ir::{Builtin, InstKind as IK, MathFn as M, Type, ValueId};

/// The result buffer: four 32-bit components, then the level of detail or the gradients
/// the runtime reads after the result (at the next 4-byte boundary).
const BUF_WORDS: u64 = 16;
const RESULT_BYTES: i64 = 16;
/// Set in the fetch's size for `.s32`/`.u32` results: the runtime widens each integer
/// channel to 32 bits (`WIDEN_CHANNELS` in cuprite-rt's texture/object.rs).
const WIDEN_CHANNELS: i64 = 1 << 31;

/// A texture geometry: the runtime's kind bits and how PTX lays out the coordinates.
struct Geometry {
    kind: i32,
    /// The coordinate vector starts with an array index.
    layered: bool,
    /// Coordinates that matter (after the index): 1, 2 or 3.
    dims: usize,
}

fn geometry(m: &str) -> Option<Geometry> {
    Some(match m {
        "1d" => Geometry { kind: 1, layered: false, dims: 1 },
        "2d" => Geometry { kind: 2, layered: false, dims: 2 },
        "3d" => Geometry { kind: 3, layered: false, dims: 3 },
        "a1d" => Geometry { kind: 0x11, layered: true, dims: 1 },
        "a2d" => Geometry { kind: 0x12, layered: true, dims: 2 },
        "cube" => Geometry { kind: 0x20, layered: false, dims: 3 },
        "acube" => Geometry { kind: 0x30, layered: true, dims: 3 },
        _ => return None,
    })
}

impl Lowerer<'_> {
    fn tex_operands<'i>(&self, i: &'i Inst, at: usize) -> LResult<(&'i Operand, Vec<Operand>)> {
        match i.operands.get(at) {
            Some(Operand::Tex(items)) if items.len() == 2 => {
                let coords = match &items[1] {
                    Operand::Vector(v) => v.clone(),
                    c => vec![c.clone()],
                };
                Ok((&items[0], coords))
            }
            Some(Operand::Tex(_)) => lerr(i.loc, format!("'{}': separate sampler operands (independent mode) are not supported yet", i.name())),
            _ => lerr(i.loc, format!("'{}' needs a [object, {{coordinates}}] operand", i.name())),
        }
    }

    /// The object handle: a 64-bit register (texture references and `.texref` names are not
    /// supported).
    fn object_handle(&mut self, op: &Operand, i: &Inst) -> LResult<ValueId> {
        let a = match op {
            Operand::Addr(Some(n), 0) => Operand::Name(n.clone(), 0),
            _ => return lerr(i.loc, format!("'{}': the texture or surface must be a 64-bit object handle in a register", i.name())),
        };
        if self.reg_name(&a).is_none() {
            return lerr(i.loc, format!("'{}': texture and surface references (.texref/.surfref) in PTX are not supported yet; objects are", i.name()));
        }
        self.read(&a, ScalarType::U64, i.loc)
    }

    fn buffer(&mut self) -> (ValueId, ValueId) {
        let l = self.temp(Type::Array(Box::new(Type::U32), BUF_WORDS));
        let p = self.emit(IK::LocalAddr(l), Type::Array(Box::new(Type::U32), BUF_WORDS).ptr_to());
        let a = self.cast(p, &Type::U64);
        let out = self.emit(IK::Cast(p), Type::I8.ptr_to());
        (a, out)
    }

    fn buffer_store(&mut self, base: ValueId, byte: i64, v: ValueId) {
        let t = self.vty(v);
        let a = self.add_u64(base, byte);
        let p = self.typed_ptr(a, &t);
        self.emit_void(IK::Store { ptr: p, value: v, volatile: false });
    }

    fn buffer_load(&mut self, base: ValueId, byte: i64, t: &Type) -> ValueId {
        let a = self.add_u64(base, byte);
        let p = self.typed_ptr(a, t);
        self.emit(IK::Load { ptr: p, volatile: false }, t.clone())
    }

    /// Writes the four 32-bit components of the buffer to the destination vector.
    fn tex_results(&mut self, i: &Inst, base: ValueId, t: &Type) -> LResult<()> {
        let dsts = match &i.operands[0] {
            Operand::Vector(v) if v.len() == 4 => v.clone(),
            _ => return lerr(i.loc, format!("'{}': the destination must be a vector of four registers", i.name())),
        };
        for (k, d) in dsts.iter().enumerate() {
            let v = self.buffer_load(base, 4 * k as i64, t);
            self.write(d, v, i.loc)?;
        }
        Ok(())
    }

    /// `tex.{1d,2d,3d,a1d,a2d,cube,acube}{.level,.grad}.v4.dtype.ctype d, [t, {c}]{, lod | , dPdx, dPdy}`
    /// and `tld4.{r,g,b,a}.2d.v4.dtype.f32 d, [t, {x, y}]`; `dtype` `.f32`, or `.s32`/`.u32`
    /// for integer texels read as elements (each channel widened to 32 bits by the runtime).
    pub(crate) fn tex(&mut self, i: &Inst) -> LResult<()> {
        let gather = i.opcode == "tld4";
        // The gathered component: r, g, b, a → 0..3.
        let comp = i.mods.iter().find_map(|m| ["r", "g", "b", "a"].iter().position(|c| c == m));
        let geo_mod = i.mods.iter().find_map(|m| geometry(m).map(|g| (m.clone(), g)));
        let Some((geo_name, geo)) = geo_mod else {
            return lerr(i.loc, format!("'{}': the texture geometry is not supported yet", i.name()));
        };
        let level = i.has("level");
        let grad = i.has("grad");
        for m in &i.mods {
            let ok = ScalarType::parse(m).is_some() || *m == geo_name || m == "v4" || m == "level" || m == "grad" || (gather && ["r", "g", "b", "a"].contains(&m.as_str()));
            if !ok {
                return lerr(i.loc, format!("'{}': the modifier '.{m}' is not supported yet", i.name()));
            }
        }
        let tys: Vec<ScalarType> = i.mods.iter().filter_map(|m| ScalarType::parse(m)).collect();
        let [dty, cty] = tys[..] else { return lerr(i.loc, format!("'{}' needs a result and a coordinate type", i.name())) };
        // Integer results: the runtime knows the channel format, so it widens the channels.
        let (result_ty, size_flags) = match dty {
            ScalarType::F32 => (Type::F32, 0),
            ScalarType::S32 => (Type::I32, WIDEN_CHANNELS),
            ScalarType::U32 => (Type::U32, WIDEN_CHANNELS),
            _ => return lerr(i.loc, format!("'{}': texture fetches with {dty} results are not supported yet", i.name())),
        };
        if gather && (geo.kind != 2 || cty != ScalarType::F32) {
            return lerr(i.loc, format!("'{}': only 2D gathers with float coordinates are supported", i.name()));
        }
        let (obj, coords) = self.tex_operands(i, 1)?;
        let obj = self.object_handle(obj, i)?;
        let want = if geo.layered { 1 + geo.dims } else { geo.dims };
        if coords.len() < want {
            return lerr(i.loc, format!("'{}' takes {want} coordinates", i.name()));
        }
        let (base, out) = self.buffer();
        let size = self.int(RESULT_BYTES | size_flags, &Type::U32);
        // Integer coordinates on a 1D texture: tex1Dfetch of linear memory.
        if cty == ScalarType::S32 || cty == ScalarType::U32 {
            if geo.kind != 1 || level || grad {
                return lerr(i.loc, format!("'{}': integer coordinates are supported on 1D textures (tex1Dfetch) only", i.name()));
            }
            let x = self.read(&coords[0], ScalarType::S32, i.loc)?;
            self.emit_void(IK::CallBuiltin { builtin: Builtin::Math(M::CupriteTexFetchInt), args: vec![obj, x, out, size] });
            return self.tex_results(i, base, &result_ty);
        }
        if cty != ScalarType::F32 {
            return lerr(i.loc, format!("'{}': coordinates of type {cty} are not supported yet", i.name()));
        }
        let layer = if geo.layered { self.read(&coords[0], ScalarType::S32, i.loc)? } else { self.int(0, &Type::I32) };
        let first = usize::from(geo.layered);
        let mut xyz = Vec::new();
        for k in 0..3 {
            xyz.push(if k < geo.dims { self.read(&coords[first + k], ScalarType::F32, i.loc)? } else { self.emit(IK::Const(cuprite_ir::Const::F32(0.0)), Type::F32) });
        }
        let mut kind = geo.kind;
        if gather {
            kind |= 0x40 | ((comp.unwrap_or(0) as i32) << 8);
        }
        if level {
            kind |= 0x80;
            let Some(lod) = i.operands.get(2) else { return lerr(i.loc, format!("'{}' needs a level of detail", i.name())) };
            let lod = self.read(lod, ScalarType::F32, i.loc)?;
            self.buffer_store(base, RESULT_BYTES, lod);
        } else if grad {
            kind |= 0x400;
            for (g, op) in [i.operands.get(2), i.operands.get(3)].into_iter().enumerate() {
                let comps = match op {
                    Some(Operand::Vector(v)) => v.clone(),
                    _ => return lerr(i.loc, format!("'{}' needs two gradient vectors", i.name())),
                };
                for k in 0..3 {
                    let v = if k < geo.dims.min(comps.len()) { self.read(&comps[k], ScalarType::F32, i.loc)? } else { self.emit(IK::Const(cuprite_ir::Const::F32(0.0)), Type::F32) };
                    self.buffer_store(base, RESULT_BYTES + 4 * (3 * g as i64 + k as i64), v);
                }
            }
        } else if i.operands.len() != 2 {
            return lerr(i.loc, format!("'{}': extra operands (offsets, depth compare, a predicate result) are not supported yet", i.name()));
        }
        let kind = self.int(kind as i64, &Type::I32);
        let args = vec![obj, kind, xyz[0], xyz[1], xyz[2], layer, out, size];
        self.emit_void(IK::CallBuiltin { builtin: Builtin::Math(M::CupriteTexFetch), args });
        self.tex_results(i, base, &result_ty)
    }

    /// `suld.b.geom{.v2,.v4}.{b8,b16,b32,b64}.mode d, [s, {x(bytes), ...}]` and
    /// `sust.b.geom… [s, {…}], d`: raw bytes through the surface object, with the boundary
    /// mode (`.trap`, `.clamp`, `.zero`) of the instruction.
    pub(crate) fn surface(&mut self, i: &Inst) -> LResult<()> {
        let write = i.opcode == "sust";
        if !i.has("b") {
            return lerr(i.loc, format!("'{}': formatted surface access (.p) is not supported yet", i.name()));
        }
        let Some((geo_name, geo)) = i.mods.iter().find_map(|m| geometry(m).map(|g| (m.clone(), g))) else {
            return lerr(i.loc, format!("'{}': the surface geometry is not supported yet", i.name()));
        };
        if geo.kind & 0x20 != 0 {
            return lerr(i.loc, format!("'{}': cubemap surface geometry is not supported yet", i.name()));
        }
        let mode = if i.has("clamp") {
            1
        } else if i.has("zero") {
            0
        } else {
            2
        };
        for m in &i.mods {
            let ok = ["b", "v2", "v4", "trap", "clamp", "zero", "b8", "b16", "b32", "b64"].contains(&m.as_str()) || *m == geo_name || ScalarType::parse(m).is_some_and(|t| matches!(t, ScalarType::B8 | ScalarType::B16 | ScalarType::B32 | ScalarType::B64));
            if !ok {
                return lerr(i.loc, format!("'{}': the modifier '.{m}' is not supported yet", i.name()));
            }
        }
        let ty = self.ty(i)?;
        let et = match ty {
            ScalarType::B8 => Type::U8,
            ScalarType::B16 => Type::U16,
            ScalarType::B32 => Type::U32,
            ScalarType::B64 => Type::U64,
            _ => return lerr(i.loc, format!("'{}': surface data of type {ty} is not supported", i.name())),
        };
        let n: usize = if i.has("v4") {
            4
        } else if i.has("v2") {
            2
        } else {
            1
        };
        let (surf_at, data_at) = if write { (0, 1) } else { (1, 0) };
        let (obj, coords) = self.tex_operands(i, surf_at)?;
        let obj = self.object_handle(obj, i)?;
        let want = if geo.layered { 1 + geo.dims } else { geo.dims };
        if coords.len() < want || i.operands.len() != 2 {
            return lerr(i.loc, format!("'{}' takes {want} coordinates and one data operand", i.name()));
        }
        let first = usize::from(geo.layered);
        let mut c = Vec::new();
        for k in 0..geo.dims {
            c.push(self.read(&coords[first + k], ScalarType::S32, i.loc)?);
        }
        let zero = self.int(0, &Type::I32);
        // Layered surfaces: the layer is the slice, as surf*Layered* pass it (dims 3).
        let (dims, x, y, z) = if geo.layered {
            let layer = self.read(&coords[0], ScalarType::S32, i.loc)?;
            (3, c[0], if geo.dims > 1 { c[1] } else { zero }, layer)
        } else {
            (geo.dims as i64, c[0], c.get(1).copied().unwrap_or(zero), c.get(2).copied().unwrap_or(zero))
        };
        let data = match &i.operands[data_at] {
            Operand::Vector(v) if v.len() == n => v.clone(),
            d if n == 1 => vec![d.clone()],
            _ => return lerr(i.loc, format!("'{}': the data does not match the vector size", i.name())),
        };
        let (base, out) = self.buffer();
        let width = ty.size() as i64;
        if write {
            for (k, d) in data.iter().enumerate() {
                let v = self.read(d, ty, i.loc)?;
                let v = self.conv(v, &et);
                self.buffer_store(base, width * k as i64, v);
            }
        }
        let dims = self.int(dims, &Type::I32);
        let size = self.int(width * n as i64, &Type::U32);
        let mode = self.int(mode, &Type::I32);
        let w = self.int(i64::from(write), &Type::I32);
        let args = vec![obj, dims, x, y, z, out, size, mode, w];
        self.emit_void(IK::CallBuiltin { builtin: Builtin::Math(M::CupriteSurfAccess), args });
        if !write {
            for (k, d) in data.iter().enumerate() {
                let v = self.buffer_load(base, width * k as i64, &et);
                self.write(d, v, i.loc)?;
            }
        }
        Ok(())
    }
}
