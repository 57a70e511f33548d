//! Moves, addresses, loads and stores, atomics, and calls.

use super::body::{Binding, Lowerer};
use super::inst::types;
use super::{ir_type, lerr, LResult};
use crate::isa::{ScalarType, StateSpace};
use crate::parse::{Inst, Operand};
use cuprite_ir::{AtomicOp, BinaryOp as B, Builtin, InstKind as IK, Scope, Type, ValueId};

/// The state space an instruction names (`ld.global`, `atom.shared::cta`), else generic.
pub(crate) fn space_of(i: &Inst) -> StateSpace {
    i.mods.iter().find_map(|m| match StateSpace::parse(m) {
        Some(StateSpace::Reg) | Some(StateSpace::Sreg) | None => None,
        s => s,
    }).unwrap_or(StateSpace::Generic)
}

impl Lowerer<'_> {
    /// The generic (host) address an address operand `[base+off]` designates in `space`.
    pub(crate) fn address(&mut self, op: &Operand, space: StateSpace, i: &Inst) -> LResult<ValueId> {
        let Operand::Addr(base, off) = op else { return lerr(i.loc, format!("'{}' needs an address operand [..]", i.name())) };
        let Some(base) = base else {
            // An absolute address: only meaningful as a shared window offset.
            if space == StateSpace::Shared {
                let w = self.window_u64();
                return Ok(self.add_u64(w, *off));
            }
            return lerr(i.loc, format!("'{}': absolute addresses are not supported", i.name()));
        };
        match self.lookup(base).cloned() {
            Some(Binding::Reg(l, rt)) => {
                let v = self.load_local(l);
                let a = if space == StateSpace::Shared {
                    // A shared window offset, 32 or 64 bits: sign-extend and add the window.
                    let st = if rt.size() == 8 { Type::I64 } else { Type::I32 };
                    let s = self.conv(v, &st);
                    let s = self.cast(s, &Type::I64);
                    let s = self.cast(s, &Type::U64);
                    let w = self.window_u64();
                    self.bin(B::Add, w, s)
                } else {
                    let u = if rt.size() == 8 { Type::U64 } else { Type::U32 };
                    let v = self.conv(v, &u);
                    self.cast(v, &Type::U64)
                };
                Ok(self.add_u64(a, *off))
            }
            Some(Binding::Var(l)) => {
                let t = self.s.local_type(l);
                let p = self.emit(IK::LocalAddr(l), t.ptr_to());
                let a = self.cast(p, &Type::U64);
                Ok(self.add_u64(a, *off))
            }
            Some(Binding::Shared(g)) => {
                let a = self.global_u64(g);
                Ok(self.add_u64(a, *off))
            }
            None => match self.s.global(base) {
                Some((g, _, _)) => {
                    let a = self.global_u64(g);
                    Ok(self.add_u64(a, *off))
                }
                None => lerr(i.loc, format!("'{}': '{base}' is not a register or variable declared here", i.name())),
            },
        }
    }

    pub(crate) fn typed_ptr(&mut self, addr: ValueId, t: &Type) -> ValueId {
        self.emit(IK::Cast(addr), t.clone().ptr_to())
    }

    pub(crate) fn mov(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &[])?;
        self.nops(i, 2)?;
        let t = self.ty(i)?;
        let (d, a) = (&i.operands[0], &i.operands[1]);
        match (d, a) {
            // Packing: mov.b64 d, {lo, hi} (and b32 from two b16).
            (_, Operand::Vector(parts)) => {
                let (pt, wt) = match (t.size(), parts.len()) {
                    (2, 2) => (ScalarType::B8, Type::U16),
                    (8, 2) => (ScalarType::B32, Type::U64),
                    (4, 2) => (ScalarType::B16, Type::U32),
                    (8, 4) => (ScalarType::B16, Type::U64),
                    (4, 4) => (ScalarType::B8, Type::U32),
                    _ => return lerr(i.loc, format!("'{}': cannot pack {} parts", i.name(), parts.len())),
                };
                let mut acc = self.int(0, &wt);
                for (k, p) in parts.iter().enumerate() {
                    let v = self.read(p, pt, i.loc)?;
                    let v = self.cast(v, &wt);
                    let sh = self.int((k as u32 * pt.size() * 8) as i64, &wt);
                    let v = self.bin(B::Shl, v, sh);
                    acc = self.bin(B::Or, acc, v);
                }
                let r = self.conv(acc, &ir_type(t).unwrap());
                self.write(d, r, i.loc)
            }
            (Operand::Vector(parts), _) => {
                let pt = match (t.size(), parts.len()) {
                    (2, 2) => ScalarType::B8,
                    (8, 2) => ScalarType::B32,
                    (4, 2) => ScalarType::B16,
                    (8, 4) => ScalarType::B16,
                    (4, 4) => ScalarType::B8,
                    _ => return lerr(i.loc, format!("'{}': cannot unpack into {} parts", i.name(), parts.len())),
                };
                let wt = match t.size() {
                    8 => Type::U64,
                    2 => Type::U16,
                    _ => Type::U32,
                };
                let v = self.read_as(a, &wt, i.loc)?;
                let part_t = ir_type(pt).unwrap();
                for (k, p) in parts.iter().enumerate() {
                    let sh = self.int((k as u32 * pt.size() * 8) as i64, &wt);
                    let x = self.bin(B::Shr, v, sh);
                    let x = self.cast(x, &part_t);
                    self.write(p, x, i.loc)?;
                }
                Ok(())
            }
            _ => {
                let v = self.read(a, t, i.loc)?;
                // Remember variable addresses moved into registers (vprintf's formats).
                let known = match a {
                    Operand::Name(n, off) => match self.lookup(n) {
                        Some(Binding::Reg(..)) => self.known_addr.get(n).copied().map(|(g, o)| (g, o + off)),
                        Some(_) => None,
                        None => self.s.global(n).map(|(g, _, _)| (g, *off)),
                    },
                    _ => None,
                };
                self.write(d, v, i.loc)?;
                if let (Some(k), Some(dn)) = (known, self.reg_name(d)) {
                    self.known_addr.insert(dn.to_string(), k);
                }
                Ok(())
            }
        }
    }

    /// `cvta.space` (window → generic) and `cvta.to.space` (generic → window): only the
    /// shared window differs from a host address.
    pub(crate) fn cvta(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["to", "global", "shared", "local", "const", "param", "shared::cta"])?;
        self.nops(i, 2)?;
        let t = self.ty(i)?;
        let space = space_of(i);
        let v = self.read(&i.operands[1], t, i.loc)?;
        let r = if space == StateSpace::Shared {
            let st = if t.size() == 8 { Type::I64 } else { Type::I32 };
            let w = self.window_u64();
            if i.has("to") {
                let g = self.conv(v, &Type::U64);
                let d = self.bin(B::Sub, g, w);
                self.conv(d, &ir_type(t).unwrap())
            } else {
                let s = self.conv(v, &st);
                let s = self.cast(s, &Type::I64);
                let s = self.cast(s, &Type::U64);
                let g = self.bin(B::Add, w, s);
                self.conv(g, &ir_type(t).unwrap())
            }
        } else {
            v
        };
        let known = match &i.operands[1] {
            Operand::Name(n, 0) => self.known_addr.get(n).copied(),
            _ => None,
        };
        self.write(&i.operands[0], r, i.loc)?;
        if let (Some(k), Some(dn)) = (known, self.reg_name(&i.operands[0])) {
            if space != StateSpace::Shared {
                self.known_addr.insert(dn.to_string(), k);
            }
        }
        Ok(())
    }

    fn vector_len(&self, i: &Inst) -> u32 {
        i.mods.iter().find_map(|m| m.strip_prefix('v').and_then(|n| n.parse().ok())).unwrap_or(1)
    }

    fn memory_mods(&self, i: &Inst) -> LResult<()> {
        const OK: &[&str] = &[
            "global", "shared", "local", "const", "param", "shared::cta", "nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt", "volatile",
            "weak", "relaxed", "acquire", "release", "cta", "gpu", "sys", "v2", "v4", "L1::evict_normal", "L1::evict_unchanged",
            "L1::evict_first", "L1::evict_last", "L1::no_allocate", "L2::evict_normal", "L2::evict_first", "L2::evict_last",
            "L2::64B", "L2::128B", "L2::256B", "L2::cache_hint", "unified", "mmio",
        ];
        for m in &i.mods {
            if ScalarType::parse(m).is_none() && !OK.contains(&m.as_str()) {
                return lerr(i.loc, format!("'{}': the modifier '.{m}' is not supported yet", i.name()));
            }
        }
        if i.has("L2::cache_hint") {
            return lerr(i.loc, format!("'{}': cache-hint operands are not supported yet", i.name()));
        }
        Ok(())
    }

    pub(crate) fn ld(&mut self, i: &Inst) -> LResult<()> {
        self.memory_mods(i)?;
        self.nops(i, 2)?;
        let t = self.ty(i)?;
        let Some(et) = ir_type(t) else { return self.unsupported(i) };
        let space = space_of(i);
        let addr = self.address(&i.operands[1], space, i)?;
        let volatile = i.has("volatile") || i.has("relaxed") || i.has("acquire");
        let n = self.vector_len(i);
        let dsts: Vec<Operand> = match &i.operands[0] {
            Operand::Vector(v) if v.len() as u32 == n => v.clone(),
            d if n == 1 => vec![d.clone()],
            _ => return lerr(i.loc, format!("'{}': the destination does not match .v{n}", i.name())),
        };
        for (k, d) in dsts.iter().enumerate() {
            let a = self.add_u64(addr, k as i64 * t.size() as i64);
            let p = self.typed_ptr(a, &et);
            let v = self.emit(IK::Load { ptr: p, volatile }, et.clone());
            self.write(d, v, i.loc)?;
        }
        Ok(())
    }

    pub(crate) fn st(&mut self, i: &Inst) -> LResult<()> {
        self.memory_mods(i)?;
        self.nops(i, 2)?;
        let t = self.ty(i)?;
        let Some(et) = ir_type(t) else { return self.unsupported(i) };
        let space = space_of(i);
        let addr = self.address(&i.operands[0], space, i)?;
        let volatile = i.has("volatile") || i.has("relaxed") || i.has("release");
        let n = self.vector_len(i);
        let srcs: Vec<Operand> = match &i.operands[1] {
            Operand::Vector(v) if v.len() as u32 == n => v.clone(),
            s if n == 1 => vec![s.clone()],
            _ => return lerr(i.loc, format!("'{}': the source does not match .v{n}", i.name())),
        };
        // A constant's address stored into a call parameter (vprintf's format).
        if let (StateSpace::Param, Operand::Addr(Some(pn), 0), [Operand::Name(src, 0)]) = (space, &i.operands[0], &srcs[..]) {
            if let Some(k) = self.known_addr.get(src).copied() {
                self.known_addr.insert(pn.clone(), k);
            }
        }
        for (k, s) in srcs.iter().enumerate() {
            let v = self.read(s, t, i.loc)?;
            let a = self.add_u64(addr, k as i64 * t.size() as i64);
            let p = self.typed_ptr(a, &et);
            self.emit_void(IK::Store { ptr: p, value: v, volatile });
        }
        Ok(())
    }

    /// `cp.async.{ca,cg}.shared.global [dst], [src], size[, src-size]` copies at once (the
    /// copy may complete any time before the wait, so now is allowed), zero-filling past
    /// `src-size`; `commit_group`, `wait_group`, `wait_all` then have nothing to wait for.
    pub(crate) fn cp_async(&mut self, i: &Inst) -> LResult<()> {
        const OK: &[&str] = &["async", "ca", "cg", "shared", "shared::cta", "global", "commit_group", "wait_group", "wait_all", "L2::64B", "L2::128B", "L2::256B"];
        for m in &i.mods {
            if !OK.contains(&m.as_str()) {
                return lerr(i.loc, format!("the PTX instruction '{}' is not supported yet", i.name()));
            }
        }
        if i.has("commit_group") || i.has("wait_group") || i.has("wait_all") {
            return Ok(());
        }
        if i.operands.len() < 3 || i.operands.len() > 4 {
            return lerr(i.loc, format!("'{}' takes a destination, a source, a size and an optional source size", i.name()));
        }
        let dst = self.address(&i.operands[0], StateSpace::Shared, i)?;
        let src = self.address(&i.operands[1], StateSpace::Global, i)?;
        let Operand::Int(size) = i.operands[2] else { return lerr(i.loc, format!("'{}': the copy size must be a constant", i.name())) };
        let vp = Type::Void.ptr_to();
        let d = self.typed_ptr_void(dst);
        let s = self.typed_ptr_void(src);
        let n = match i.operands.get(3) {
            Some(op) => {
                let v = self.read(op, ScalarType::U32, i.loc)?;
                let k = self.int(size, &Type::U32);
                let big = self.bin(B::Gt, v, k);
                let v = self.select(big, k, v);
                self.cast(v, &Type::U64)
            }
            None => self.int(size, &Type::U64),
        };
        let total = self.int(size, &Type::U64);
        let z = self.int(0, &Type::I32);
        self.emit(IK::CallBuiltin { builtin: Builtin::Memset, args: vec![d, z, total] }, vp.clone());
        self.emit(IK::CallBuiltin { builtin: Builtin::Memcpy, args: vec![d, s, n] }, vp);
        Ok(())
    }

    fn typed_ptr_void(&mut self, addr: ValueId) -> ValueId {
        self.emit(IK::Cast(addr), Type::Void.ptr_to())
    }

    pub(crate) fn atom(&mut self, i: &Inst) -> LResult<()> {
        const OPS: &[&str] = &["add", "inc", "dec", "exch", "cas", "min", "max", "and", "or", "xor"];
        let Some(opn) = i.mods.iter().find(|m| OPS.contains(&m.as_str())).cloned() else {
            return lerr(i.loc, format!("'{}': unknown atomic operation", i.name()));
        };
        let mut allowed: Vec<&str> = OPS.to_vec();
        allowed.extend(["global", "shared", "shared::cta", "relaxed", "acquire", "release", "acq_rel", "sc", "cta", "gpu", "sys", "noftz"]);
        self.mods(i, &allowed)?;
        let t = self.ty(i)?;
        if t == ScalarType::B128 {
            return self.unsupported(i);
        }
        let half = matches!(t, ScalarType::F16 | ScalarType::F16x2 | ScalarType::Bf16 | ScalarType::Bf16x2);
        let et = match t {
            ScalarType::B32 => Type::U32,
            ScalarType::B64 => Type::U64,
            t => ir_type(t).unwrap(),
        };
        let scope = if i.has("cta") {
            Scope::Block
        } else if i.has("sys") {
            Scope::System
        } else {
            Scope::Device
        };
        if half {
            let first = usize::from(i.opcode != "red");
            let addr = match i.operands.get(first) {
                Some(a) => self.address(a, space_of(i), i)?,
                None => return lerr(i.loc, format!("'{}' needs an address", i.name())),
            };
            return self.atom_half(i, t, scope, addr);
        }
        let op = match opn.as_str() {
            "add" => AtomicOp::Add,
            "inc" => AtomicOp::Inc,
            "dec" => AtomicOp::Dec,
            "exch" => AtomicOp::Exch,
            "cas" => AtomicOp::Cas,
            "min" => AtomicOp::Min,
            "max" => AtomicOp::Max,
            "and" => AtomicOp::And,
            "or" => AtomicOp::Or,
            _ => AtomicOp::Xor,
        };
        let is_red = i.opcode == "red";
        let first = if is_red { 0 } else { 1 };
        let want = first + if op == AtomicOp::Cas { 3 } else { 2 };
        self.nops(i, want)?;
        let space = space_of(i);
        let addr = self.address(&i.operands[first], space, i)?;
        let p = self.typed_ptr(addr, &et);
        let mut args = vec![p];
        for o in &i.operands[first + 1..] {
            args.push(self.read_as(o, &et, i.loc)?);
        }
        // IR atomics are relaxed (PTX's default): a stronger order is a fence before
        // (release) and after (acquire), as checking mode's racecheck reads it.
        let fence = |l: &mut Self| l.emit_void(IK::CallBuiltin { builtin: Builtin::Fence(scope), args: vec![] });
        let sc = i.has("sc") || i.has("acq_rel");
        if sc || i.has("release") {
            fence(self);
        }
        let old = self.emit(IK::CallBuiltin { builtin: Builtin::Atomic { op, scope }, args }, et);
        if sc || i.has("acquire") {
            fence(self);
        }
        if !is_red {
            self.write(&i.operands[0], old, i.loc)?;
        }
        let _ = types;
        Ok(())
    }
}
