//! `atom.add.noftz` and `red.add.noftz` on `.f16`, `.bf16`, `.f16x2`, `.bf16x2`: a
//! compare-and-swap loop on the aligned 32-bit word that holds the value (the CPU has no
//! half-precision atomics). Each half is added as `add.rn` does it (in f32, rounded to
//! nearest even, NaN results canonical); the old value is the result.

use super::body::Lowerer;
use super::{lerr, LResult};
use crate::isa::ScalarType;
use crate::parse::Inst;
use cuprite_ir::{AtomicOp, BinaryOp as B, Builtin, InstKind as IK, Scope, Terminator, Type, ValueId};

impl Lowerer<'_> {
    pub(crate) fn atom_half(&mut self, i: &Inst, t: ScalarType, scope: Scope, addr: ValueId) -> LResult<()> {
        if !i.has("add") {
            return lerr(i.loc, format!("'{}': only add is an atomic operation on half-precision types", i.name()));
        }
        let is_red = i.opcode == "red";
        let first = usize::from(!is_red);
        self.nops(i, first + 2)?;
        let bf = matches!(t, ScalarType::Bf16 | ScalarType::Bf16x2);
        let pair = matches!(t, ScalarType::F16x2 | ScalarType::Bf16x2);
        let u32t = Type::U32;
        // The word holding the value and the value's position in it (little-endian).
        let word_addr = if pair { addr } else { self.bin_k(B::And, addr, !3) };
        let shift = if pair {
            self.int(0, &u32t)
        } else {
            let s = self.bin_k(B::And, addr, 2);
            let s = self.bin_k(B::Shl, s, 3);
            self.cast(s, &u32t)
        };
        let v = self.read_as(&i.operands[first + 1], if pair { &u32t } else { &Type::U16 }, i.loc)?;
        let v = self.cast(v, &u32t);
        let p = self.typed_ptr(word_addr, &u32t);
        let cur = self.temp(u32t.clone());
        let first_word = self.emit(IK::Load { ptr: p, volatile: true }, u32t.clone());
        self.store_local(cur, first_word);
        let top = self.s.new_block();
        let done = self.s.new_block();
        self.s.terminate(Terminator::Jump(top));
        self.s.switch_to(top);
        let old = self.load_local(cur);
        let field = self.bin(B::Shr, old, shift);
        let sum = if pair {
            let lo = self.half_lane_add(field, v, 0, bf);
            let hi = self.half_lane_add(field, v, 16, bf);
            let hi = self.bin_k(B::Shl, hi, 16);
            self.bin(B::Or, lo, hi)
        } else {
            self.half_lane_add(field, v, 0, bf)
        };
        let mask = self.int(if pair { 0xffff_ffff } else { 0xffff }, &u32t);
        let mask = self.bin(B::Shl, mask, shift);
        let keep = self.emit(IK::Unary(cuprite_ir::UnaryOp::Not, mask), u32t.clone());
        let rest = self.bin(B::And, old, keep);
        let placed = self.bin(B::Shl, sum, shift);
        let new = self.bin(B::Or, rest, placed);
        let seen = self.emit(IK::CallBuiltin { builtin: Builtin::Atomic { op: AtomicOp::Cas, scope }, args: vec![p, old, new] }, u32t.clone());
        self.store_local(cur, seen);
        let ok = self.bin(B::Eq, seen, old);
        self.s.terminate(Terminator::Branch { cond: ok, then: done, else_: top });
        self.s.switch_to(done);
        if !is_red {
            let old = self.load_local(cur);
            let field = self.bin(B::Shr, old, shift);
            let r = if pair { field } else { self.cast(field, &Type::U16) };
            self.write(&i.operands[0], r, i.loc)?;
        }
        Ok(())
    }

    /// The half at bit `lane` of `a` plus the one of `b`, rounded as `add.rn` (in the low
    /// 16 bits of a `U32`).
    fn half_lane_add(&mut self, a: ValueId, b: ValueId, lane: i64, bf: bool) -> ValueId {
        let mut args = Vec::new();
        for v in [a, b] {
            let x = self.bin_k(B::Shr, v, lane);
            let x = self.cast(x, &Type::U16);
            args.push(self.widen_half(x, bf));
        }
        let r = self.bin(B::Add, args[0], args[1]);
        let h = if bf { self.f32_to_bf16_rn(r) } else { self.f32_to_half_rn(r) };
        let isnan = self.bin(B::Ne, r, r);
        let canon = self.int(0x7fff, &self.vty(h));
        let h = self.select(isnan, canon, h);
        self.cast(h, &Type::U32)
    }
}
