//! A small builder for IR functions, for tests (here and in other crates) that write IR
//! by hand.

use cuprite_ir::*;

pub struct FnBuilder {
    pub f: Function,
    cur: BlockId,
}

impl FnBuilder {
    pub fn kernel(name: &str, stub_symbol: &str) -> Self {
        Self::new(
            name,
            FunctionKind::Kernel { stub_symbol: stub_symbol.into(), max_threads: None, min_blocks: None },
            Type::Void,
        )
    }
    pub fn device(name: &str, ret: Type) -> Self {
        Self::new(name, FunctionKind::Device, ret)
    }
    pub fn new(name: &str, kind: FunctionKind, ret: Type) -> Self {
        FnBuilder {
            f: Function {
                name: name.into(),
                symbol: None,
                kind,
                inline: InlineHint::None,
                params: vec![],
                ret,
                locals: vec![],
                values: vec![],
                blocks: vec![Block { insts: vec![], term: Terminator::Unreachable, term_loc: None }],
                loc: None,
            },
            cur: BlockId(0),
        }
    }
    /// Adds a parameter (call before any other local).
    pub fn param(&mut self, name: &str, ty: Type) -> LocalId {
        let l = self.local(name, ty);
        self.f.params.push(l);
        l
    }
    pub fn local(&mut self, name: &str, ty: Type) -> LocalId {
        self.f.locals.push(Local { name: name.into(), ty, align: None });
        LocalId(self.f.locals.len() as u32 - 1)
    }
    pub fn new_block(&mut self) -> BlockId {
        self.f.blocks.push(Block { insts: vec![], term: Terminator::Unreachable, term_loc: None });
        BlockId(self.f.blocks.len() as u32 - 1)
    }
    pub fn switch_to(&mut self, b: BlockId) {
        self.cur = b;
    }
    pub fn current(&self) -> BlockId {
        self.cur
    }
    pub fn inst(&mut self, kind: InstKind, ty: Option<Type>) -> ValueId {
        let result = ty.map(|t| {
            self.f.values.push(t);
            ValueId(self.f.values.len() as u32 - 1)
        });
        self.f.blocks[self.cur.index()].insts.push(Inst { result, kind, loc: None });
        result.unwrap_or(ValueId(u32::MAX))
    }
    pub fn value_type(&self, v: ValueId) -> Type {
        self.f.values[v.index()].clone()
    }
    pub fn term(&mut self, t: Terminator) {
        self.f.blocks[self.cur.index()].term = t;
    }

    // ---- shorthands
    pub fn i32(&mut self, v: i32) -> ValueId {
        self.inst(InstKind::Const(Const::Int(v as i64, Type::I32)), Some(Type::I32))
    }
    pub fn u32(&mut self, v: u32) -> ValueId {
        self.inst(InstKind::Const(Const::Int(v as i64, Type::U32)), Some(Type::U32))
    }
    pub fn f32(&mut self, v: f32) -> ValueId {
        self.inst(InstKind::Const(Const::F32(v)), Some(Type::F32))
    }
    pub fn str(&mut self, s: &str) -> ValueId {
        self.inst(InstKind::Const(Const::Str(s.as_bytes().to_vec())), Some(Type::I8.ptr_to()))
    }
    pub fn bin(&mut self, op: BinaryOp, a: ValueId, b: ValueId) -> ValueId {
        let t = if op.is_comparison() { Type::Bool } else { self.value_type(a) };
        self.inst(InstKind::Binary(op, a, b), Some(t))
    }
    pub fn cast(&mut self, v: ValueId, to: Type) -> ValueId {
        self.inst(InstKind::Cast(v), Some(to))
    }
    pub fn load_local(&mut self, l: LocalId) -> ValueId {
        let t = self.f.locals[l.index()].ty.clone();
        self.inst(InstKind::LoadLocal(l), Some(t))
    }
    pub fn store_local(&mut self, l: LocalId, v: ValueId) {
        self.inst(InstKind::StoreLocal(l, v), None);
    }
    pub fn local_addr(&mut self, l: LocalId) -> ValueId {
        let t = self.f.locals[l.index()].ty.clone().ptr_to();
        self.inst(InstKind::LocalAddr(l), Some(t))
    }
    pub fn global_addr(&mut self, m: &Module, g: GlobalId) -> ValueId {
        let t = m.global(g).ty.clone().ptr_to();
        self.inst(InstKind::GlobalAddr(g), Some(t))
    }
    pub fn special(&mut self, s: SpecialReg) -> ValueId {
        self.inst(InstKind::Special(s), Some(Type::U32))
    }
    /// `blockIdx.x * blockDim.x + threadIdx.x` as `I32`.
    pub fn global_tid_x(&mut self) -> ValueId {
        let b = self.special(SpecialReg::BlockIdx(Dim::X));
        let d = self.special(SpecialReg::BlockDim(Dim::X));
        let t = self.special(SpecialReg::ThreadIdx(Dim::X));
        let m = self.bin(BinaryOp::Mul, b, d);
        let s = self.bin(BinaryOp::Add, m, t);
        self.cast(s, Type::I32)
    }
    pub fn ptr_add(&mut self, base: ValueId, index: ValueId) -> ValueId {
        let t = self.value_type(base);
        self.inst(InstKind::PtrAdd { base, index }, Some(t))
    }
    /// Decays a pointer to an array to a pointer to its first element.
    pub fn decay(&mut self, p: ValueId) -> ValueId {
        let Type::Ptr(inner) = self.value_type(p) else { panic!("decay of a non-pointer") };
        let Type::Array(e, _) = *inner else { panic!("decay of a non-array pointer") };
        self.inst(InstKind::Cast(p), Some(e.ptr_to()))
    }
    pub fn load(&mut self, ptr: ValueId) -> ValueId {
        let Type::Ptr(t) = self.value_type(ptr) else { panic!("load through a non-pointer") };
        self.inst(InstKind::Load { ptr, volatile: false }, Some(*t))
    }
    pub fn store(&mut self, ptr: ValueId, value: ValueId) {
        self.inst(InstKind::Store { ptr, value, volatile: false }, None);
    }
    pub fn call(&mut self, m: &Module, func: FuncId, args: Vec<ValueId>) -> Option<ValueId> {
        let ret = m.function(func).ret.clone();
        if ret == Type::Void {
            self.inst(InstKind::Call { func, args }, None);
            None
        } else {
            Some(self.inst(InstKind::Call { func, args }, Some(ret)))
        }
    }
    pub fn builtin(&mut self, builtin: Builtin, args: Vec<ValueId>, ret: Option<Type>) -> ValueId {
        self.inst(InstKind::CallBuiltin { builtin, args }, ret)
    }
    pub fn math(&mut self, name: &str, args: Vec<ValueId>, ret: Type) -> ValueId {
        self.builtin(Builtin::Math(name.into()), args, Some(ret))
    }
    pub fn printf(&mut self, fmt: &str, args: Vec<ValueId>) {
        let s = self.str(fmt);
        let mut a = vec![s];
        a.extend(args);
        self.builtin(Builtin::Printf, a, Some(Type::I32));
    }
    pub fn jump(&mut self, b: BlockId) {
        self.term(Terminator::Jump(b));
    }
    pub fn branch(&mut self, cond: ValueId, then: BlockId, else_: BlockId) {
        self.term(Terminator::Branch { cond, then, else_ });
    }
    pub fn ret(&mut self, v: Option<ValueId>) {
        self.term(Terminator::Return(v));
    }
    /// `__syncthreads()`; continues in a new block, which becomes current.
    pub fn sync(&mut self) -> BlockId {
        let next = self.new_block();
        self.term(Terminator::Barrier { kind: BarrierKind::Sync, pred: None, result: None, next });
        self.switch_to(next);
        next
    }
    /// `__syncthreads_count/and/or(pred)` into `result`; continues in a new block.
    pub fn sync_pred(&mut self, kind: BarrierKind, pred: ValueId, result: LocalId) -> BlockId {
        let next = self.new_block();
        self.term(Terminator::Barrier { kind, pred: Some(pred), result: Some(result), next });
        self.switch_to(next);
        next
    }
    /// A warp collective (operands and results as `WarpOp` documents); continues in a new
    /// block, which becomes current.
    pub fn warp(&mut self, op: WarpOp, args: Vec<ValueId>, results: Vec<LocalId>) -> BlockId {
        let next = self.new_block();
        self.term(Terminator::Warp { op, args, results, next });
        self.switch_to(next);
        next
    }
    pub fn finish(self) -> Function {
        self.f
    }
}

/// Adds a global to a module and returns its id.
pub fn add_global(m: &mut Module, name: &str, ty: Type, space: AddressSpace, init: Option<Init>, host_symbol: Option<&str>) -> GlobalId {
    m.globals.push(Global {
        name: name.into(),
        ty,
        space,
        align: None,
        init,
        host_symbol: host_symbol.map(|s| s.to_string()),
        dynamic_shared: false,
        external: false,
        loc: None,
    });
    GlobalId(m.globals.len() as u32 - 1)
}

pub fn add_function(m: &mut Module, f: Function) -> FuncId {
    m.functions.push(f);
    FuncId(m.functions.len() as u32 - 1)
}
