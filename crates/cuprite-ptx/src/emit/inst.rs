//! Instructions: constants, arithmetic, comparisons, conversions, memory, addresses.

use super::function::{imm64, Fx, Mem};
use super::types::{self, class, f32_imm, f64_imm, is_aggregate, narrow_bits, Class};
use super::EmitError;
use cuprite_ir::{AddressSpace, BinaryOp, Const, Dim, Inst, InstKind, SpecialReg, Type, UnaryOp, ValueId};

impl<'a> Fx<'a> {
    pub fn inst(&mut self, inst: &Inst) -> Result<(), EmitError> {
        let result = inst.result;
        let res = |fx: &mut Fx| -> Result<ValueId, EmitError> { result.ok_or_else(|| fx.err("internal error: instruction without result")) };
        match &inst.kind {
            InstKind::Const(c) => {
                let v = res(self)?;
                self.constant(v, c)?;
            }
            InstKind::Unary(op, a) => {
                let v = res(self)?;
                self.unary(v, *op, *a)?;
            }
            InstKind::Binary(op, a, b) => {
                let v = res(self)?;
                self.binary(v, *op, *a, *b)?;
            }
            InstKind::Cast(a) => {
                let v = res(self)?;
                let (from, to) = (self.vty(*a).clone(), self.vty(v).clone());
                if is_aggregate(&from) || is_aggregate(&to) {
                    return Err(self.err(format!("conversion from {from} to {to} is not supported by the PTX back-end")));
                }
                let s = self.v(*a)?;
                let d = convert_reg(self, &s, &from, &to)?;
                let r = self.v(v)?;
                self.emit(format!("mov.{} {r}, {d}", class(&to).unwrap().bits()));
            }
            InstKind::Bitcast(a) => {
                let v = res(self)?;
                let (s, d) = (self.v(*a)?, self.v(v)?);
                let bits = match class(self.vty(v)) {
                    Some(Class::B64) | Some(Class::F64) => "b64",
                    Some(Class::Pred) => return Err(self.err("bit cast to bool is not supported by the PTX back-end")),
                    _ => "b32",
                };
                self.emit(format!("mov.{bits} {d}, {s}"));
            }
            InstKind::Select(c, a, b) => {
                let v = res(self)?;
                let (pc, ra, rb) = (self.v(*c)?, self.v(*a)?, self.v(*b)?);
                let ty = self.vty(v).clone();
                match class(&ty) {
                    Some(Class::Pred) => {
                        let (t1, t2, n) = (self.tmp(Class::Pred), self.tmp(Class::Pred), self.tmp(Class::Pred));
                        let d = self.v(v)?;
                        self.emit(format!("and.pred {t1}, {pc}, {ra}"));
                        self.emit(format!("not.pred {n}, {pc}"));
                        self.emit(format!("and.pred {t2}, {n}, {rb}"));
                        self.emit(format!("or.pred {d}, {t1}, {t2}"));
                    }
                    Some(c) if is_aggregate(&ty) => {
                        let _ = c;
                        let t = self.tmp(Class::B64);
                        self.emit(format!("selp.b64 {t}, {ra}, {rb}, {pc}"));
                        let (size, align) = self.m.layout(&ty);
                        let d = self.def_aggregate(v)?;
                        self.copy_mem(&Self::generic(&d), 0, &Self::generic(&t), 0, size, align);
                    }
                    Some(c) => {
                        let d = self.v(v)?;
                        self.emit(format!("selp.{} {d}, {ra}, {rb}, {pc}", c.bits()));
                    }
                    None => return Err(self.err("internal error: select of void")),
                }
            }
            InstKind::LoadLocal(l) => {
                let v = res(self)?;
                self.load_local(*l, v)?;
            }
            InstKind::StoreLocal(l, a) => {
                let s = self.v(*a)?;
                self.store_local(*l, &s);
            }
            InstKind::LocalAddr(l) => {
                let v = res(self)?;
                let super::function::Home::Slot(off) = self.homes[l.index()] else {
                    return Err(self.err("internal error: address of a register local"));
                };
                let d = self.v(v)?;
                self.emit(format!("add.u64 {d}, %SP, {off}"));
            }
            InstKind::GlobalAddr(g) => {
                let v = res(self)?;
                let gl = self.m.global(*g);
                let name = self.names.globals[g.index()].clone();
                let space = match gl.space {
                    AddressSpace::Global => "global",
                    AddressSpace::Constant => "const",
                    AddressSpace::Shared => "shared",
                };
                let (t, d) = (self.tmp(Class::B64), self.v(v)?);
                self.emit(format!("mov.u64 {t}, {name}"));
                self.emit(format!("cvta.{space}.u64 {d}, {t}"));
            }
            InstKind::Load { ptr, volatile } => {
                let v = res(self)?;
                let p = self.v(*ptr)?;
                let ty = self.vty(v).clone();
                if is_aggregate(&ty) {
                    // Straight from the pointer's space into the value's frame slot.
                    let (size, align) = self.m.layout(&ty);
                    let off = self.def_aggregate_slot(v)?;
                    let (space, addr) = self.access(*ptr, p, size)?;
                    self.copy_mem(&Mem { space: ".local", base: "%SPL".into() }, off, &Mem { space, base: addr }, 0, size, align);
                } else {
                    let d = self.v(v)?;
                    let (space, addr) = self.access(*ptr, p, 0)?;
                    self.load_scalar(&d, &ty, space, &addr, *volatile);
                }
            }
            InstKind::Store { ptr, value, volatile } => {
                let p = self.v(*ptr)?;
                let s = self.v(*value)?;
                let ty = self.vty(*value).clone();
                if is_aggregate(&ty) {
                    let (size, align) = self.m.layout(&ty);
                    let (space, addr) = self.access(*ptr, p, size)?;
                    self.copy_mem(&Mem { space, base: addr }, 0, &Self::generic(&s), 0, size, align);
                } else {
                    let (space, addr) = self.access(*ptr, p, 0)?;
                    self.store_scalar(&ty, space, &addr, &s, *volatile);
                }
            }
            InstKind::FieldAddr { base, strukt, field } => {
                let v = res(self)?;
                let off = self.m.struct_def(*strukt).fields.get(*field as usize).map(|f| f.offset).ok_or_else(|| self.err("internal error: field out of range"))?;
                let (b, d) = (self.v(*base)?, self.v(v)?);
                self.emit(format!("add.u64 {d}, {b}, {off}"));
            }
            InstKind::PtrAdd { base, index } => {
                let v = res(self)?;
                let elem = match self.vty(*base) {
                    Type::Ptr(t) if **t == Type::Void => 1,
                    Type::Ptr(t) => self.m.layout(t).0,
                    _ => 1,
                };
                let ity = self.vty(*index).clone();
                let i = self.v(*index)?;
                let i64r = convert_reg(self, &i, &ity, if ity.is_signed() { &Type::I64 } else { &Type::U64 })?;
                let (b, d) = (self.v(*base)?, self.v(v)?);
                self.emit(format!("mad.lo.s64 {d}, {i64r}, {elem}, {b}"));
            }
            InstKind::PtrDiff(a, b) => {
                let v = res(self)?;
                let elem = match self.vty(*a) {
                    Type::Ptr(t) if **t != Type::Void => self.m.layout(t).0,
                    _ => 1,
                };
                let (ra, rb, d) = (self.v(*a)?, self.v(*b)?, self.v(v)?);
                if elem == 1 {
                    self.emit(format!("sub.s64 {d}, {ra}, {rb}"));
                } else {
                    let t = self.tmp(Class::B64);
                    self.emit(format!("sub.s64 {t}, {ra}, {rb}"));
                    self.emit(format!("div.s64 {d}, {t}, {elem}"));
                }
            }
            InstKind::Copy { dst, src, bytes } => {
                let align_of = |fx: &Fx, p: ValueId| match fx.vty(p) {
                    Type::Ptr(t) if **t != Type::Void => fx.m.layout(t).1,
                    _ => 1,
                };
                let align = align_of(self, *dst).min(align_of(self, *src));
                let (d, s) = (self.v(*dst)?, self.v(*src)?);
                self.copy_mem(&Mem { space: "", base: d }, 0, &Mem { space: "", base: s }, 0, *bytes, align);
            }
            InstKind::Special(s) => {
                let v = res(self)?;
                let axis = |d: &Dim| match d {
                    Dim::X => "x",
                    Dim::Y => "y",
                    Dim::Z => "z",
                };
                let t = self.tmp(Class::B32);
                match s {
                    SpecialReg::ThreadIdx(d) => self.emit(format!("mov.u32 {t}, %tid.{}", axis(d))),
                    SpecialReg::BlockIdx(d) => self.emit(format!("mov.u32 {t}, %ctaid.{}", axis(d))),
                    SpecialReg::BlockDim(d) => self.emit(format!("mov.u32 {t}, %ntid.{}", axis(d))),
                    SpecialReg::GridDim(d) => self.emit(format!("mov.u32 {t}, %nctaid.{}", axis(d))),
                    SpecialReg::LaneId => self.emit(format!("mov.u32 {t}, %laneid")),
                    SpecialReg::WarpSize => self.emit(format!("mov.u32 {t}, WARP_SZ")),
                    SpecialReg::DynamicSmemSize => self.emit(format!("mov.u32 {t}, %dynamic_smem_size")),
                }
                let to = self.vty(v).clone();
                let c = convert_reg(self, &t, &Type::U32, &to)?;
                let d = self.v(v)?;
                self.emit(format!("mov.{} {d}, {c}", class(&to).unwrap().bits()));
            }
            InstKind::Call { func, args } => self.call_direct(*func, args, result)?,
            InstKind::CallIndirect { callee, args } => self.call_indirect(*callee, args, result)?,
            InstKind::FuncAddr(func) => {
                let v = res(self)?;
                let d = self.v(v)?;
                let name = self.names.functions[func.index()].clone();
                self.emit(format!("mov.u64 {d}, {name}"));
            }
            InstKind::CallBuiltin { builtin, args } => self.builtin(builtin, args, result)?,
            // An instruction added to the IR after this back-end (checking-only
            // instrumentation, say) is refused by name until it is translated.
            #[allow(unreachable_patterns)]
            other => return Err(self.err(format!("IR instruction {other:?} is not supported by the PTX back-end"))),
        }
        Ok(())
    }

    fn constant(&mut self, v: ValueId, c: &Const) -> Result<(), EmitError> {
        let ty = self.vty(v).clone();
        let d = self.v(v)?;
        let truth = |fx: &mut Fx, b: bool| {
            let t = fx.tmp(Class::B32);
            fx.emit(format!("mov.u32 {t}, {}", b as u32));
            fx.emit(format!("setp.ne.u32 {d}, {t}, 0"));
        };
        match (c, class(&ty)) {
            (Const::Bool(b), Some(Class::Pred)) => truth(self, *b),
            (Const::Int(x, _), Some(Class::Pred)) => truth(self, *x != 0),
            (Const::Bool(b), Some(Class::B32)) => self.emit(format!("mov.b32 {d}, {}", *b as i32)),
            (Const::Int(x, _), Some(Class::B32)) => self.emit(format!("mov.b32 {d}, {}", *x as i32)),
            (Const::Int(x, _), Some(Class::B64)) => self.emit(format!("mov.b64 {d}, {}", imm64(*x))),
            (Const::Int(x, _), Some(Class::F32)) => self.emit(format!("mov.f32 {d}, {}", f32_imm(*x as f32))),
            (Const::Int(x, _), Some(Class::F64)) => self.emit(format!("mov.f64 {d}, {}", f64_imm(*x as f64))),
            (Const::F32(x), Some(Class::F32)) => self.emit(format!("mov.f32 {d}, {}", f32_imm(*x))),
            (Const::F64(x), Some(Class::F64)) => self.emit(format!("mov.f64 {d}, {}", f64_imm(*x))),
            (Const::F32(x), Some(Class::F64)) => self.emit(format!("mov.f64 {d}, {}", f64_imm(*x as f64))),
            (Const::F64(x), Some(Class::F32)) => self.emit(format!("mov.f32 {d}, {}", f32_imm(*x as f32))),
            (Const::Null(_), Some(Class::B64)) => self.emit(format!("mov.b64 {d}, 0")),
            (Const::Str(s), Some(Class::B64)) => {
                let name = self.names.string(s);
                let t = self.tmp(Class::B64);
                self.emit(format!("mov.u64 {t}, {name}"));
                self.emit(format!("cvta.global.u64 {d}, {t}"));
            }
            (c, _) => return Err(self.err(format!("constant {c:?} of type {ty} is not supported by the PTX back-end"))),
        }
        Ok(())
    }

    /// Re-extends a narrow integer held in a 32-bit register after arithmetic.
    pub fn normalize(&mut self, r: &str, ty: &Type) {
        match (narrow_bits(ty), ty.is_signed()) {
            (Some(n), true) => self.emit(format!("cvt.s32.s{n} {r}, {r}")),
            (Some(8), false) => self.emit(format!("and.b32 {r}, {r}, 255")),
            (Some(_), false) => self.emit(format!("and.b32 {r}, {r}, 65535")),
            _ => {}
        }
    }

    fn unary(&mut self, v: ValueId, op: UnaryOp, a: ValueId) -> Result<(), EmitError> {
        let ty = self.vty(v).clone();
        let (s, d) = (self.v(a)?, self.v(v)?);
        match (op, class(&ty)) {
            (UnaryOp::LNot, Some(Class::Pred)) | (UnaryOp::Not, Some(Class::Pred)) => self.emit(format!("not.pred {d}, {s}")),
            (UnaryOp::Neg, Some(Class::F32)) => self.emit(format!("neg.f32 {d}, {s}")),
            (UnaryOp::Neg, Some(Class::F64)) => self.emit(format!("neg.f64 {d}, {s}")),
            (UnaryOp::Neg, Some(Class::B32)) => self.emit(format!("neg.s32 {d}, {s}")),
            (UnaryOp::Neg, Some(Class::B64)) => self.emit(format!("neg.s64 {d}, {s}")),
            (UnaryOp::Not, Some(Class::B32)) => self.emit(format!("not.b32 {d}, {s}")),
            (UnaryOp::Not, Some(Class::B64)) => self.emit(format!("not.b64 {d}, {s}")),
            (UnaryOp::LNot, Some(c)) if c != Class::Pred => {
                let t = self.tmp(Class::Pred);
                let from = self.vty(a).clone();
                let p = convert_reg(self, &s, &from, &Type::Bool)?;
                self.emit(format!("not.pred {t}, {p}"));
                let r = convert_reg(self, &t, &Type::Bool, &ty)?;
                self.emit(format!("mov.{} {d}, {r}", c.bits()));
            }
            _ => return Err(self.err(format!("unary {op:?} on {ty} is not supported by the PTX back-end"))),
        }
        self.normalize(&d, &ty);
        Ok(())
    }

    fn binary(&mut self, v: ValueId, op: BinaryOp, a: ValueId, b: ValueId) -> Result<(), EmitError> {
        let ty = self.vty(a).clone();
        let rty = self.vty(v).clone();
        let (mut ra, mut rb) = (self.v(a)?, self.v(b)?);
        let d = self.v(v)?;
        if op.is_comparison() {
            let mut opty = ty.clone();
            if ty == Type::Bool {
                ra = self.pred_to_u32(&ra);
                rb = self.pred_to_u32(&rb);
                opty = Type::U32;
            }
            let suffix = types::arith_suffix(&opty).ok_or_else(|| self.err(format!("comparison of {ty} is not supported by the PTX back-end")))?;
            let float = opty.is_float();
            let cmp = match op {
                BinaryOp::Eq => "eq",
                BinaryOp::Ne if float => "neu",
                BinaryOp::Ne => "ne",
                BinaryOp::Lt => "lt",
                BinaryOp::Le => "le",
                BinaryOp::Gt => "gt",
                _ => "ge",
            };
            let p = if rty == Type::Bool { d.clone() } else { self.tmp(Class::Pred) };
            self.emit(format!("setp.{cmp}.{suffix} {p}, {ra}, {rb}"));
            if rty != Type::Bool {
                let r = convert_reg(self, &p, &Type::Bool, &rty)?;
                self.emit(format!("mov.{} {d}, {r}", class(&rty).unwrap().bits()));
            }
            return Ok(());
        }
        if ty == Type::Bool {
            let name = match op {
                BinaryOp::And => "and",
                BinaryOp::Or => "or",
                BinaryOp::Xor => "xor",
                _ => return Err(self.err(format!("binary {op:?} on bool is not supported by the PTX back-end"))),
            };
            self.emit(format!("{name}.pred {d}, {ra}, {rb}"));
            return Ok(());
        }
        let suffix = types::arith_suffix(&ty).ok_or_else(|| self.err(format!("binary {op:?} on {ty} is not supported by the PTX back-end")))?;
        let c = class(&ty).unwrap();
        let bits = if matches!(c, Class::B64 | Class::F64) { 64 } else { 32 };
        if ty.is_float() {
            let name = match op {
                BinaryOp::Add => "add.rn",
                BinaryOp::Sub => "sub.rn",
                BinaryOp::Mul => "mul.rn",
                BinaryOp::Div => "div.rn",
                _ => return Err(self.err(format!("binary {op:?} on {ty} is not supported by the PTX back-end"))),
            };
            self.emit(format!("{name}.{suffix} {d}, {ra}, {rb}"));
            return Ok(());
        }
        let line = match op {
            BinaryOp::Add => format!("add.{suffix} {d}, {ra}, {rb}"),
            BinaryOp::Sub => format!("sub.{suffix} {d}, {ra}, {rb}"),
            BinaryOp::Mul => format!("mul.lo.{suffix} {d}, {ra}, {rb}"),
            BinaryOp::Div => format!("div.{suffix} {d}, {ra}, {rb}"),
            BinaryOp::Rem => format!("rem.{suffix} {d}, {ra}, {rb}"),
            BinaryOp::And => format!("and.b{bits} {d}, {ra}, {rb}"),
            BinaryOp::Or => format!("or.b{bits} {d}, {ra}, {rb}"),
            BinaryOp::Xor => format!("xor.b{bits} {d}, {ra}, {rb}"),
            BinaryOp::Shl | BinaryOp::Shr => {
                let bty = self.vty(b).clone();
                if class(&bty) == Some(Class::B64) {
                    let t = self.tmp(Class::B32);
                    self.emit(format!("cvt.u32.u64 {t}, {rb}"));
                    rb = t;
                }
                if op == BinaryOp::Shl {
                    format!("shl.b{bits} {d}, {ra}, {rb}")
                } else {
                    format!("shr.{suffix} {d}, {ra}, {rb}")
                }
            }
            _ => unreachable!("comparisons handled above"),
        };
        self.emit(line);
        self.normalize(&d, &rty);
        let _ = &mut ra;
        Ok(())
    }
}

/// Converts register `s` of type `from` to `to` with C's semantics (float to integer
/// truncates and saturates, NaN to 0, as `cvt.rzi` does); returns the register holding
/// the result (`s` itself when nothing changes).
pub fn convert_reg(fx: &mut Fx, s: &str, from: &Type, to: &Type) -> Result<String, EmitError> {
    let (fc, tc) = match (class(from), class(to)) {
        (Some(a), Some(b)) => (a, b),
        _ => return Err(fx.err(format!("conversion from {from} to {to} is not supported by the PTX back-end"))),
    };
    if from == to {
        return Ok(s.to_string());
    }
    let d = fx.tmp(tc);
    let int_suffix = |t: &Type| -> &'static str {
        match t {
            Type::I8 | Type::I16 | Type::I32 => "s32",
            Type::I64 => "s64",
            Type::U64 | Type::Ptr(_) | Type::FnPtr(_) => "u64",
            _ => "u32",
        }
    };
    match (fc, tc) {
        (Class::Pred, Class::Pred) => fx.emit(format!("mov.pred {d}, {s}")),
        (Class::Pred, Class::B32) => fx.emit(format!("selp.u32 {d}, 1, 0, {s}")),
        (Class::Pred, Class::B64) => fx.emit(format!("selp.u64 {d}, 1, 0, {s}")),
        (Class::Pred, Class::F32) => fx.emit(format!("selp.f32 {d}, 0f3F800000, 0f00000000, {s}")),
        (Class::Pred, Class::F64) => fx.emit(format!("selp.f64 {d}, 0d3FF0000000000000, 0d0000000000000000, {s}")),
        (Class::B32, Class::Pred) => fx.emit(format!("setp.ne.u32 {d}, {s}, 0")),
        (Class::B64, Class::Pred) => fx.emit(format!("setp.ne.u64 {d}, {s}, 0")),
        (Class::F32, Class::Pred) => fx.emit(format!("setp.neu.f32 {d}, {s}, 0f00000000")),
        (Class::F64, Class::Pred) => fx.emit(format!("setp.neu.f64 {d}, {s}, 0d0000000000000000")),
        (Class::B32, Class::B32) => {
            fx.emit(format!("mov.b32 {d}, {s}"));
            fx.normalize(&d, to);
        }
        (Class::B64, Class::B64) => fx.emit(format!("mov.b64 {d}, {s}")),
        (Class::B64, Class::B32) => {
            fx.emit(format!("cvt.u32.u64 {d}, {s}"));
            fx.normalize(&d, to);
        }
        (Class::B32, Class::B64) => {
            let fs = int_suffix(from);
            let ts = if fs == "s32" { "s64" } else { "u64" };
            fx.emit(format!("cvt.{ts}.{fs} {d}, {s}"));
        }
        (Class::B32 | Class::B64, Class::F32 | Class::F64) => {
            let fl = if tc == Class::F32 { "f32" } else { "f64" };
            fx.emit(format!("cvt.rn.{fl}.{} {d}, {s}", int_suffix(from)));
        }
        (Class::F32 | Class::F64, Class::B32 | Class::B64) => {
            let fl = if fc == Class::F32 { "f32" } else { "f64" };
            let is = match (tc, to.is_signed()) {
                (Class::B64, true) => "s64",
                (Class::B64, false) => "u64",
                (_, true) => "s32",
                _ if narrow_bits(to).is_some() => "s32",
                _ => "u32",
            };
            fx.emit(format!("cvt.rzi.{is}.{fl} {d}, {s}"));
            fx.normalize(&d, to);
        }
        (Class::F32, Class::F64) => fx.emit(format!("cvt.f64.f32 {d}, {s}")),
        (Class::F64, Class::F32) => fx.emit(format!("cvt.rn.f32.f64 {d}, {s}")),
        (Class::F32, Class::F32) => fx.emit(format!("mov.f32 {d}, {s}")),
        (Class::F64, Class::F64) => fx.emit(format!("mov.f64 {d}, {s}")),
    }
    Ok(d)
}
