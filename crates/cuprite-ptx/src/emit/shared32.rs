//! 32-bit shared-window addresses for pointers proven shared (`spaces.rs`), as nvcc
//! writes them: `mov.u32 %r, var` and 32-bit index arithmetic, then `ld.shared [%r+imm]`.
//!
//! The generic 64-bit address of a shared pointer sign-extends each `int` index before
//! scaling it, which keeps ptxas from folding `c[k * 16 + f]` into one base register
//! with immediate offsets (kmeans paid five uniform instructions per shared load). The
//! shared window is 32 bits wide, so an access that is valid at all has the same window
//! address when every step is computed modulo 2^32; in that arithmetic ptxas may
//! reassociate freely.
//!
//! Each shared pointer value gets a 32-bit shadow register right after its definition
//! (the 64-bit value is still written for its other uses; ptxas drops it when unused).
//! A register local that is only ever stored shared pointers gets a shadow register too,
//! written by each store, so loop-advanced pointers keep theirs. Where a shadow is
//! missing the window address is computed from the generic one (`cvta.to.shared`).

use super::function::{Fx, Home};
use super::spaces::PtrSpace;
use super::types::{class, Class};
use super::EmitError;
use cuprite_ir::{AddressSpace, Inst, InstKind, LocalId, Type, ValueId};

impl<'a> Fx<'a> {
    fn is_shared_ptr(&self, v: ValueId) -> bool {
        self.ptr_space.get(v.index()) == Some(&PtrSpace::Shared)
    }

    /// Gives a shadow register to each register local (not a parameter) that is stored
    /// at least once and only ever stored shared pointers.
    pub fn plan_shared_locals(&mut self) {
        let n = self.f.locals.len();
        let mut only_shared = vec![true; n];
        let mut stored = vec![false; n];
        for inst in self.f.blocks.iter().flat_map(|b| &b.insts) {
            if let InstKind::StoreLocal(l, v) = &inst.kind {
                stored[l.index()] = true;
                if !self.is_shared_ptr(*v) {
                    only_shared[l.index()] = false;
                }
            }
        }
        self.local32 = vec![None; n];
        for i in 0..n {
            let param = self.f.params.iter().any(|p| p.index() == i);
            let reg = matches!(self.homes[i], Home::Reg(_));
            if reg && !param && stored[i] && only_shared[i] && matches!(self.f.locals[i].ty, Type::Ptr(_)) {
                self.local32[i] = Some(self.tmp(Class::B32));
            }
        }
    }

    /// The 32-bit shared-window address of shared pointer `v`.
    pub fn shared_addr(&mut self, v: ValueId) -> Result<String, EmitError> {
        if let Some(r) = &self.shared32[v.index()] {
            return Ok(r.clone());
        }
        // No shadow: from the generic address, at this point (not cached: this point
        // need not dominate the value's other uses).
        let g = self.v(v)?;
        let (w, r) = (self.tmp(Class::B64), self.tmp(Class::B32));
        self.emit(format!("cvta.to.shared.u64 {w}, {g}"));
        self.emit(format!("cvt.u32.u64 {r}, {w}"));
        Ok(r)
    }

    /// After `inst` was emitted: the shadow of its result, where that is a shared
    /// pointer, and the shadow of a local it stores to.
    pub fn shadow_shared(&mut self, inst: &Inst) -> Result<(), EmitError> {
        if let InstKind::StoreLocal(l, v) = &inst.kind {
            if let Some(sh) = self.local_shadow(*l) {
                let a = self.shared_addr(*v)?;
                self.emit(format!("mov.b32 {sh}, {a}"));
            }
            return Ok(());
        }
        let Some(r) = inst.result else { return Ok(()) };
        if !self.is_shared_ptr(r) {
            return Ok(());
        }
        let shadow = match &inst.kind {
            InstKind::GlobalAddr(g) if self.m.global(*g).space == AddressSpace::Shared => {
                let t = self.tmp(Class::B32);
                let name = self.names.globals[g.index()].clone();
                self.emit(format!("mov.u32 {t}, {name}"));
                Some(t)
            }
            InstKind::PtrAdd { base, index } => {
                let elem = match self.vty(*base) {
                    Type::Ptr(t) if **t != Type::Void => self.m.layout(t).0,
                    _ => 1,
                };
                let i = self.v(*index)?;
                let i32r = match class(self.vty(*index)) {
                    Some(Class::B32) => Some(i),
                    Some(Class::B64) => {
                        let t = self.tmp(Class::B32);
                        self.emit(format!("cvt.u32.u64 {t}, {i}"));
                        Some(t)
                    }
                    _ => None,
                };
                match i32r {
                    Some(i) if elem <= u32::MAX as u64 => {
                        let b = self.shared_addr(*base)?;
                        let t = self.tmp(Class::B32);
                        self.emit(format!("mad.lo.u32 {t}, {i}, {}, {b}", elem as u32));
                        Some(t)
                    }
                    _ => None,
                }
            }
            InstKind::FieldAddr { base, strukt, field } => {
                let off = self.m.struct_def(*strukt).fields.get(*field as usize).map(|f| f.offset);
                match off {
                    Some(off) if off <= u32::MAX as u64 => {
                        let b = self.shared_addr(*base)?;
                        let t = self.tmp(Class::B32);
                        self.emit(format!("add.u32 {t}, {b}, {off}"));
                        Some(t)
                    }
                    _ => None,
                }
            }
            InstKind::Cast(a) => Some(self.shared_addr(*a)?),
            InstKind::Select(c, a, b) => {
                let (pc, ra, rb) = (self.v(*c)?, self.shared_addr(*a)?, self.shared_addr(*b)?);
                let t = self.tmp(Class::B32);
                self.emit(format!("selp.b32 {t}, {ra}, {rb}, {pc}"));
                Some(t)
            }
            InstKind::LoadLocal(l) => match self.local_shadow(*l) {
                Some(sh) => {
                    let t = self.tmp(Class::B32);
                    self.emit(format!("mov.b32 {t}, {sh}"));
                    Some(t)
                }
                None => None,
            },
            _ => None,
        };
        self.shared32[r.index()] = shadow;
        Ok(())
    }

    fn local_shadow(&self, l: LocalId) -> Option<String> {
        self.local32.get(l.index()).cloned().flatten()
    }

    /// The `.shared` 32-bit address for an access through `ptr`, where `ptr` is proven
    /// shared.
    pub fn shared_access(&mut self, ptr: ValueId) -> Result<Option<String>, EmitError> {
        if !self.is_shared_ptr(ptr) {
            return Ok(None);
        }
        self.shared_addr(ptr).map(Some)
    }
}
