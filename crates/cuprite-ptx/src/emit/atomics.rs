//! Atomic read-modify-write operations: `atom` on generic addresses, with the scope of
//! the CUDA function (`atomicAdd_block` → `.cta`, `atomicAdd` → the default `.gpu`,
//! `atomicAdd_system` → `.sys`).

use super::function::Fx;
use super::types::{class, Class};
use super::EmitError;
use cuprite_ir::{AtomicOp, Scope, Type, ValueId};

impl<'a> Fx<'a> {
    pub fn atomic(&mut self, op: AtomicOp, scope: Scope, args: &[ValueId], result: Option<ValueId>) -> Result<(), EmitError> {
        let n = if op == AtomicOp::Cas { 3 } else { 2 };
        if args.len() < n {
            return Err(self.err(format!("internal error: atomic {} needs {n} operands", op.name())));
        }
        // The element type is the result's; without a result, the operand's.
        let rty = result.map(|r| self.vty(r).clone()).unwrap_or(Type::Void);
        let et = if rty == Type::Void { self.vty(args[1]).clone() } else { rty };
        let bits = match class(&et) {
            Some(Class::B32) | Some(Class::F32) if et.scalar_size() == Some(4) => 32,
            Some(Class::B64) | Some(Class::F64) => 64,
            _ => return Err(self.err(format!("atomic {} on type {et} is not supported by the PTX back-end", op.name()))),
        };
        let int = match (&et, bits) {
            (Type::I32, _) => "s32",
            (Type::I64, _) => "s64",
            (_, 32) => "u32",
            _ => "u64",
        };
        let float = match et {
            Type::F32 => Some("f32"),
            Type::F64 => Some("f64"),
            _ => None,
        };
        let b = format!("b{bits}");
        let ty = match (op, float) {
            (AtomicOp::Add | AtomicOp::Sub, Some(f)) => f.to_string(),
            (AtomicOp::Add | AtomicOp::Sub, None) => if bits == 64 { "u64".into() } else { int.to_string() },
            (AtomicOp::Min | AtomicOp::Max, None) => int.to_string(),
            (AtomicOp::Inc | AtomicOp::Dec, None) if int == "u32" => "u32".into(),
            (AtomicOp::Exch | AtomicOp::Cas, _) => b.clone(),
            (AtomicOp::And | AtomicOp::Or | AtomicOp::Xor, None) => b.clone(),
            _ => return Err(self.err(format!("atomic {} on type {et} is not supported by the PTX back-end", op.name()))),
        };
        let scope_q = match scope {
            Scope::Block => ".cta",
            Scope::Device => "",
            Scope::System => ".sys",
        };
        let p = self.v(args[0])?;
        let mut val = self.v(args[1])?;
        let c = class(&et).unwrap();
        if op == AtomicOp::Sub {
            let t = self.tmp(c);
            let neg = match float {
                Some(f) => format!("neg.{f}"),
                None => format!("neg.s{bits}"),
            };
            self.emit(format!("{neg} {t}, {val}"));
            val = t;
        }
        let name = match op {
            AtomicOp::Sub => "add",
            other => other.name(),
        };
        let d = self.tmp(c);
        if op == AtomicOp::Cas {
            let new = self.v(args[2])?;
            self.emit(format!("atom{scope_q}.cas.{ty} {d}, [{p}], {val}, {new}"));
        } else {
            self.emit(format!("atom{scope_q}.{name}.{ty} {d}, [{p}], {val}"));
        }
        self.define(result, &d, &et)
    }
}
