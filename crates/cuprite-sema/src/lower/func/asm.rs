//! Inline PTX: operands travel in locals of their constraint's type, and the PTX front-end
//! (`cuprite_ptx::lower::asm`) lowers the template into this function through `Sink`.

use super::{FnLower, Place};
use crate::hir::{AsmOperand, AsmStmt};
use cuprite_ir as ir;
use cuprite_ir::{BlockId, FuncId, GlobalId, InstKind as IK, LocalId, Signature, Terminator, Type, ValueId};
use cuprite_ptx::isa::StateSpace;
use cuprite_ptx::lower::asm::{constraint_type, lower_asm, AsmOperand as PtxOperand};
use cuprite_ptx::lower::module::SHARED_WINDOW;
use cuprite_ptx::lower::Sink;

impl FnLower<'_, '_> {
    pub(super) fn asm(&mut self, a: &AsmStmt) {
        // Output places first (kept in locals: the asm makes blocks), then the values in.
        let mut outs: Vec<(Place, LocalId, Type)> = Vec::new();
        let mut ops = Vec::new();
        for o in &a.operands {
            match o {
                AsmOperand::Out { letter, place, read } => {
                    let (st, it) = constraint_type(*letter).expect("checked constraint");
                    let l = self.temp(it.clone());
                    let pt = self.ty(&place.ty);
                    let p = self.place(place);
                    let p = self.keep_place(p);
                    if *read {
                        let v = self.load(p, pt.clone());
                        let v = self.convert_bits(v, &it);
                        self.emit(IK::StoreLocal(l, v), None);
                    }
                    outs.push((p, l, pt));
                    ops.push(PtxOperand::Reg { local: l, ty: st });
                }
                AsmOperand::In { letter, value } => {
                    let (st, it) = constraint_type(*letter).expect("checked constraint");
                    let l = self.temp(it.clone());
                    let v = self.value(value);
                    let v = self.convert_bits(v, &it);
                    self.emit(IK::StoreLocal(l, v), None);
                    ops.push(PtxOperand::Reg { local: l, ty: st });
                }
                AsmOperand::Imm(v) => ops.push(PtxOperand::Imm(*v)),
            }
        }
        if let Err(e) = lower_asm(self, &a.template, &ops) {
            // Sema checked the template with the same lowering; this cannot happen.
            unreachable!("inline PTX passed sema's check but not lowering: {e}");
        }
        for (p, l, pt) in outs {
            let v = self.reload(l);
            let v = self.convert_bits(v, &pt);
            self.store(p, v);
        }
    }

    fn keep_place(&mut self, p: Place) -> Place {
        match p {
            Place::Mem { ptr, vol } => Place::Spilled(self.spill(ptr), vol, None),
            Place::Bits { ptr, vol, bits } => Place::Spilled(self.spill(ptr), vol, Some(bits)),
            p => p,
        }
    }

    /// A C value to or from a register of the constraint's type: integers and pointers
    /// convert, floats keep their value (sema made inputs the constraint's C type).
    fn convert_bits(&mut self, v: ValueId, to: &Type) -> ValueId {
        let from = self.vty(v);
        if from == *to {
            return v;
        }
        self.cast(v, to)
    }

    fn shared_window_global(&mut self) -> GlobalId {
        if let Some(i) = self.m.module.globals.iter().position(|g| g.name == SHARED_WINDOW) {
            return GlobalId(i as u32);
        }
        self.m.module.globals.push(ir::Global {
            name: SHARED_WINDOW.into(),
            ty: Type::Array(Box::new(Type::U8), 0),
            space: ir::AddressSpace::Shared,
            align: Some(16),
            init: None,
            host_symbol: None,
            dynamic_shared: false,
            external: false,
            loc: None,
        });
        GlobalId(self.m.module.globals.len() as u32 - 1)
    }
}

impl Sink for FnLower<'_, '_> {
    fn emit(&mut self, kind: IK, ty: Option<Type>) -> Option<ValueId> {
        FnLower::emit(self, kind, ty)
    }
    fn value_type(&self, v: ValueId) -> Type {
        self.vty(v)
    }
    fn new_local(&mut self, name: &str, ty: Type, align: Option<u64>) -> LocalId {
        self.f.locals.push(ir::Local { name: format!("asm.{}", name.trim_start_matches('%')), ty, align });
        LocalId(self.f.locals.len() as u32 - 1)
    }
    fn local_type(&self, l: LocalId) -> Type {
        self.f.locals[l.index()].ty.clone()
    }
    fn new_block(&mut self) -> BlockId {
        FnLower::new_block(self)
    }
    fn terminate(&mut self, t: Terminator) {
        FnLower::terminate(self, t)
    }
    fn switch_to(&mut self, b: BlockId) {
        FnLower::switch_to(self, b)
    }
    fn global(&mut self, _name: &str) -> Option<(GlobalId, Type, StateSpace)> {
        None
    }
    fn global_type(&self, g: GlobalId) -> Type {
        self.m.module.globals[g.index()].ty.clone()
    }
    fn global_bytes(&self, _g: GlobalId) -> Option<Vec<u8>> {
        None
    }
    fn function(&mut self, _name: &str) -> Option<(FuncId, Signature)> {
        None
    }
    fn shared_window(&mut self) -> GlobalId {
        self.shared_window_global()
    }
    fn function_shared(&mut self, _name: &str, _ty: Type, _align: Option<u64>) -> Option<GlobalId> {
        None
    }
}
