//! Statements of a function body or an asm template: scopes, labels, guards, and the
//! reading and writing of operands.

use super::{ir_type, lerr, LResult, Sink};
use crate::isa::{Axis, ScalarType, SpecialRegister, StateSpace};
use crate::parse::{Inst, Loc, Operand, Stmt, VarDecl, VarType};
use cuprite_ir::{BlockId, Builtin, Const, Dim, GlobalId, InstKind as IK, LocalId, SpecialReg, Terminator, Type, UnaryOp, ValueId};
use std::collections::{HashMap, HashSet};

/// What a name in a body stands for.
#[derive(Clone, Debug)]
pub(crate) enum Binding {
    /// A register: an IR local of the register's type.
    Reg(LocalId, ScalarType),
    /// A `.param` or `.local` variable (parameters, call-sequence parameters, the
    /// local depot): an IR local whose address `[name+off]` names.
    Var(LocalId),
    /// A `.shared` variable declared in the body.
    Shared(GlobalId),
}

pub struct Lowerer<'a> {
    pub(crate) s: &'a mut dyn Sink,
    scopes: Vec<HashMap<String, Binding>>,
    /// Labels by `{ }` scope, innermost last: a label is visible in the block that defines
    /// it and the blocks nested in it (two inlined asm statements may use one name).
    labels: Vec<HashMap<String, BlockId>>,
    /// The carry flag of `add.cc`/`addc` and friends (`U32`, 0 or 1).
    carry: Option<LocalId>,
    /// `ret` in a `.func` returns this local's value (its return parameter).
    pub(crate) ret_value: Option<LocalId>,
    /// Registers known to hold the address of a module variable (`mov.u64 %rd1, $str;
    /// cvta.global.u64 %rd2, %rd1;`), so that `vprintf` finds its constant format.
    pub(crate) known_addr: HashMap<String, (GlobalId, i64)>,
    /// Call-prototype names (`prototype_0`) seen in the body.
    pub(crate) prototypes: Vec<String>,
    /// The instruction being lowered has `.ftz` on an `.f32` type: its f32 operands and
    /// results are flushed (subnormals become zeros of their sign), as on the GPU.
    ftz: bool,
    /// Registers derived from the grid workspace address (`%envreg1`/`%envreg2`), and
    /// whether nvcc's grid-barrier spin was seen, so the next block barrier is the grid
    /// barrier (`grid.rs`).
    pub(crate) grid_ws: HashSet<String>,
    pub(crate) grid_sync_pending: bool,
    /// ptxas's half-precision mul+add contraction (`fusion.rs`): the plan for the
    /// function body, and the deferred products by register.
    pub(crate) fusion: HashMap<usize, super::fusion::Role>,
    pub(crate) products: HashMap<String, super::fusion::Product>,
}

impl<'a> Lowerer<'a> {
    pub fn new(s: &'a mut dyn Sink) -> Lowerer<'a> {
        Lowerer { s, scopes: vec![HashMap::new()], labels: vec![HashMap::new()], carry: None, ret_value: None, known_addr: HashMap::new(), prototypes: Vec::new(), ftz: false, grid_ws: HashSet::new(), grid_sync_pending: false, fusion: HashMap::new(), products: HashMap::new() }
    }

    pub(crate) fn bind(&mut self, name: &str, b: Binding) {
        self.scopes.last_mut().unwrap().insert(name.to_string(), b);
    }

    pub(crate) fn lookup(&self, name: &str) -> Option<&Binding> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    // ---------------------------------------------------------------------------------
    // Building blocks

    pub(crate) fn emit(&mut self, k: IK, t: Type) -> ValueId {
        self.s.emit(k, Some(t)).expect("a value")
    }
    pub(crate) fn emit_void(&mut self, k: IK) {
        self.s.emit(k, None);
    }
    pub(crate) fn int(&mut self, v: i64, t: &Type) -> ValueId {
        self.emit(IK::Const(Const::Int(v, t.clone())), t.clone())
    }
    pub(crate) fn bool_const(&mut self, b: bool) -> ValueId {
        self.emit(IK::Const(Const::Bool(b)), Type::Bool)
    }
    pub(crate) fn vty(&self, v: ValueId) -> Type {
        self.s.value_type(v)
    }
    pub(crate) fn bin(&mut self, op: cuprite_ir::BinaryOp, a: ValueId, b: ValueId) -> ValueId {
        let t = if op.is_comparison() { Type::Bool } else { self.vty(a) };
        self.emit(IK::Binary(op, a, b), t)
    }
    /// `a op k` with `k` a constant of `a`'s type.
    pub(crate) fn bin_k(&mut self, op: cuprite_ir::BinaryOp, a: ValueId, k: i64) -> ValueId {
        let t = self.vty(a);
        let k = self.int(k, &t);
        self.bin(op, a, k)
    }
    /// `k op b` with `k` a constant of `b`'s type.
    pub(crate) fn k_bin(&mut self, op: cuprite_ir::BinaryOp, k: i64, b: ValueId) -> ValueId {
        let t = self.vty(b);
        let k = self.int(k, &t);
        self.bin(op, k, b)
    }
    pub(crate) fn cast(&mut self, v: ValueId, to: &Type) -> ValueId {
        if self.vty(v) == *to {
            return v;
        }
        self.emit(IK::Cast(v), to.clone())
    }
    pub(crate) fn select(&mut self, c: ValueId, a: ValueId, b: ValueId) -> ValueId {
        let t = self.vty(a);
        self.emit(IK::Select(c, a, b), t)
    }
    pub(crate) fn not_bool(&mut self, v: ValueId) -> ValueId {
        self.emit(IK::Unary(UnaryOp::LNot, v), Type::Bool)
    }
    pub(crate) fn math(&mut self, f: cuprite_ir::MathFn, args: Vec<ValueId>, t: Type) -> ValueId {
        self.emit(IK::CallBuiltin { builtin: Builtin::Math(f), args }, t)
    }
    pub(crate) fn load_local(&mut self, l: LocalId) -> ValueId {
        let t = self.s.local_type(l);
        self.emit(IK::LoadLocal(l), t)
    }
    pub(crate) fn store_local(&mut self, l: LocalId, v: ValueId) {
        let t = self.s.local_type(l);
        let v = self.conv(v, &t);
        self.emit_void(IK::StoreLocal(l, v));
    }
    pub(crate) fn temp(&mut self, t: Type) -> LocalId {
        self.s.new_local("ptx.tmp", t, None)
    }

    /// Reinterprets or resizes `v` to `to`, as moving bits between PTX registers and
    /// instruction types does: integers extend by their own signedness or truncate;
    /// floats and integers of one size exchange bits.
    pub(crate) fn conv(&mut self, v: ValueId, to: &Type) -> ValueId {
        let from = self.vty(v);
        if from == *to {
            return v;
        }
        if from == Type::Bool || *to == Type::Bool {
            let v = if from.is_float() { self.bits(v) } else { v };
            let c = self.emit(IK::Cast(v), if to.is_float() { uint_of(to) } else { to.clone() });
            return if to.is_float() { self.emit(IK::Bitcast(c), to.clone()) } else { c };
        }
        if from.is_integer() && to.is_integer() || from.is_pointer() || to.is_pointer() {
            return self.emit(IK::Cast(v), to.clone());
        }
        // Floats are moved as their bits.
        let v = if from.is_float() { self.bits(v) } else { v };
        if to.is_float() {
            let u = uint_of(to);
            let c = self.cast(v, &u);
            self.emit(IK::Bitcast(c), to.clone())
        } else {
            self.cast(v, to)
        }
    }

    /// The bits of a float as an unsigned integer of its size.
    pub(crate) fn bits(&mut self, v: ValueId) -> ValueId {
        let t = self.vty(v);
        if !t.is_float() {
            return v;
        }
        self.emit(IK::Bitcast(v), uint_of(&t))
    }

    // ---------------------------------------------------------------------------------
    // Statements

    /// Creates a block for every label of a body's outermost scope (labels of nested
    /// `{ }` blocks are made when the lowering enters them).
    pub(crate) fn collect_labels(&mut self, stmts: &[Stmt]) -> LResult<()> {
        for s in stmts {
            if let Stmt::Label(n, loc) = s {
                if self.labels.last().unwrap().contains_key(n) {
                    return lerr(*loc, format!("label '{n}' is defined twice"));
                }
                let b = self.s.new_block();
                self.labels.last_mut().unwrap().insert(n.clone(), b);
            }
        }
        Ok(())
    }

    fn find_label(&self, n: &str) -> Option<BlockId> {
        self.labels.iter().rev().find_map(|s| s.get(n).copied())
    }

    pub(crate) fn stmts(&mut self, stmts: &[Stmt]) -> LResult<()> {
        self.scopes.push(HashMap::new());
        for s in stmts {
            match s {
                Stmt::Label(n, _) => {
                    let b = self.find_label(n).expect("labels are collected on entry to their scope");
                    self.s.terminate(Terminator::Jump(b));
                    self.s.switch_to(b);
                }
                Stmt::Decl(d) => self.declare(d)?,
                Stmt::Inst(i) => self.guarded(i)?,
                Stmt::Block(b) => {
                    self.labels.push(HashMap::new());
                    self.collect_labels(b)?;
                    self.stmts(b)?;
                    self.labels.pop();
                }
                Stmt::Prototype(n, _) => self.prototypes.push(n.clone()),
            }
        }
        self.scopes.pop();
        Ok(())
    }

    /// Declarations inside a body: registers, `.param` (call sequences), `.local`, `.shared`.
    pub(crate) fn declare(&mut self, d: &VarDecl) -> LResult<()> {
        let VarType::Scalar(t) = d.ty.clone() else {
            return lerr(d.loc, format!("'.{}' variables are not supported yet", match &d.ty { VarType::Opaque(o) => o.as_str(), _ => "" }));
        };
        match d.space {
            StateSpace::Reg => {
                if d.vector.is_some() || !d.dims.is_empty() {
                    return lerr(d.loc, "vector and array registers are not supported yet");
                }
                let Some(ty) = ir_type(t) else { return lerr(d.loc, format!("registers of type {t} are not supported yet")) };
                for n in &d.names {
                    let l = self.s.new_local(n, ty.clone(), None);
                    self.bind(n, Binding::Reg(l, t));
                }
            }
            StateSpace::Param | StateSpace::Local => {
                let ty = var_type(d)?;
                for n in &d.names {
                    let l = self.s.new_local(n, ty.clone(), d.align.map(u64::from));
                    self.bind(n, Binding::Var(l));
                }
            }
            StateSpace::Shared => {
                let ty = var_type(d)?;
                for n in &d.names {
                    let Some(g) = self.s.function_shared(n, ty.clone(), d.align.map(u64::from)) else {
                        return lerr(d.loc, ".shared variables declared in inline asm are not supported");
                    };
                    self.bind(n, Binding::Shared(g));
                }
            }
            s => return lerr(d.loc, format!("declarations in the .{} state space inside a function are not supported yet", s.name())),
        }
        Ok(())
    }

    fn guarded(&mut self, i: &Inst) -> LResult<()> {
        self.ftz = i.has("ftz") && i.mods.iter().any(|m| m == "f32");
        let r = self.guarded_inst(i);
        self.ftz = false;
        self.track_workspace(i);
        r
    }

    fn guarded_inst(&mut self, i: &Inst) -> LResult<()> {
        let Some((p, neg)) = &i.guard else { return self.inst(i) };
        let mut cond = self.read(&Operand::Name(p.clone(), 0), ScalarType::Pred, i.loc)?;
        if *neg {
            cond = self.not_bool(cond);
        }
        let cont = self.s.new_block();
        if i.opcode == "bra" {
            let target = self.label(i)?;
            self.s.terminate(Terminator::Branch { cond, then: target, else_: cont });
            self.s.switch_to(cont);
            return Ok(());
        }
        let then = self.s.new_block();
        self.s.terminate(Terminator::Branch { cond, then, else_: cont });
        self.s.switch_to(then);
        self.inst(i)?;
        self.s.terminate(Terminator::Jump(cont));
        self.s.switch_to(cont);
        Ok(())
    }

    pub(crate) fn label(&self, i: &Inst) -> LResult<BlockId> {
        match i.operands.first() {
            Some(Operand::Name(n, 0)) => match self.find_label(n) {
                Some(b) => Ok(b),
                None => lerr(i.loc, format!("'{}' branches to '{n}', which is not a label of this code", i.name())),
            },
            _ => lerr(i.loc, format!("'{}' needs a label operand (indirect branches are not supported yet)", i.name())),
        }
    }

    /// Ends the current block with `t` and continues in a fresh (unreachable) one.
    pub(crate) fn end_block(&mut self, t: Terminator) {
        self.s.terminate(t);
        let b = self.s.new_block();
        self.s.switch_to(b);
    }

    /// The carry flag's local, made on first use.
    pub(crate) fn carry(&mut self) -> LocalId {
        if let Some(c) = self.carry {
            return c;
        }
        let c = self.s.new_local("ptx.carry", Type::U32, None);
        let z = self.int(0, &Type::U32);
        self.emit_void(IK::StoreLocal(c, z));
        self.carry = Some(c);
        c
    }

    // ---------------------------------------------------------------------------------
    // Operands

    /// The value of a source operand as the instruction type `t` sees it.
    pub(crate) fn read(&mut self, op: &Operand, t: ScalarType, loc: Loc) -> LResult<ValueId> {
        let Some(want) = ir_type(t) else { return lerr(loc, format!("operands of type {t} are not supported yet")) };
        self.read_as(op, &want, loc)
    }

    pub(crate) fn read_as(&mut self, op: &Operand, want: &Type, loc: Loc) -> LResult<ValueId> {
        let v = self.read_operand(op, want, loc)?;
        Ok(self.flush_f32(v))
    }

    /// `v` with a subnormal f32 flushed to zero, when the instruction has `.ftz`.
    fn flush_f32(&mut self, v: ValueId) -> ValueId {
        if self.ftz && self.vty(v) == Type::F32 {
            return self.math(cuprite_ir::MathFn::FtzF32, vec![v], Type::F32);
        }
        v
    }

    fn read_operand(&mut self, op: &Operand, want: &Type, loc: Loc) -> LResult<ValueId> {
        match op {
            Operand::Name(n, off) => {
                if let Some(Binding::Reg(l, _)) = self.lookup(n).cloned() {
                    if *off != 0 {
                        return lerr(loc, format!("'{n}+{off}': an offset on a register outside an address"));
                    }
                    let v = self.load_local(l);
                    return Ok(self.conv(v, want));
                }
                if n == "WARP_SZ" && self.lookup(n).is_none() {
                    // PTX's built-in constant.
                    return Ok(self.read_as(&Operand::Int(32), want, loc)?);
                }
                let a = self.symbol_value(n, *off, want, loc)?;
                Ok(self.conv(a, want))
            }
            Operand::Int(v) => Ok(if want.is_float() {
                if *want == Type::F32 {
                    self.emit(IK::Const(Const::F32(*v as f32)), Type::F32)
                } else {
                    self.emit(IK::Const(Const::F64(*v as f64)), Type::F64)
                }
            } else if *want == Type::Bool {
                self.bool_const(*v != 0)
            } else {
                self.int(*v, want)
            }),
            Operand::F32(b) => {
                let f = f32::from_bits(*b);
                Ok(match want {
                    Type::F32 => self.emit(IK::Const(Const::F32(f)), Type::F32),
                    Type::F64 => self.emit(IK::Const(Const::F64(f as f64)), Type::F64),
                    t => self.int(*b as i64, t),
                })
            }
            Operand::F64(b) => {
                let f = f64::from_bits(*b);
                Ok(match want {
                    Type::F32 => self.emit(IK::Const(Const::F32(f as f32)), Type::F32),
                    Type::F64 => self.emit(IK::Const(Const::F64(f)), Type::F64),
                    t => self.int(*b as i64, t),
                })
            }
            Operand::Special(n, axis) => {
                let v = self.special(n, *axis, loc)?;
                Ok(self.conv(v, want))
            }
            Operand::Not(inner) => {
                let v = self.read_as(inner, &Type::Bool, loc)?;
                let n = self.not_bool(v);
                Ok(self.conv(n, want))
            }
            _ => lerr(loc, "this kind of operand is not allowed here"),
        }
    }

    /// A variable's or function's name used as a value: its address (a shared window
    /// offset for `.shared` variables).
    pub(crate) fn symbol_value(&mut self, n: &str, off: i64, want: &Type, loc: Loc) -> LResult<ValueId> {
        match self.lookup(n).cloned() {
            Some(Binding::Var(l)) => {
                let t = self.s.local_type(l);
                let p = self.emit(IK::LocalAddr(l), t.ptr_to());
                let a = self.cast(p, &Type::U64);
                return Ok(self.add_u64(a, off));
            }
            Some(Binding::Shared(g)) => {
                let a = self.global_u64(g);
                let w = self.window_u64();
                let d = self.bin(cuprite_ir::BinaryOp::Sub, a, w);
                return Ok(self.add_u64(d, off));
            }
            Some(Binding::Reg(..)) => unreachable!("registers are read by read_as"),
            None => {}
        }
        if let Some((g, _, space)) = self.s.global(n) {
            let a = self.global_u64(g);
            let a = if space == StateSpace::Shared {
                let w = self.window_u64();
                self.bin(cuprite_ir::BinaryOp::Sub, a, w)
            } else {
                a
            };
            return Ok(self.add_u64(a, off));
        }
        if let Some((f, sig)) = self.s.function(n) {
            let p = self.emit(IK::FuncAddr(f), Type::FnPtr(Box::new(sig)));
            let a = self.cast(p, &Type::U64);
            return Ok(self.add_u64(a, off));
        }
        let _ = want;
        lerr(loc, format!("'{n}' is not a register, variable or function declared here"))
    }

    pub(crate) fn global_u64(&mut self, g: GlobalId) -> ValueId {
        let t = self.s.global_type(g);
        let p = self.emit(IK::GlobalAddr(g), t.ptr_to());
        self.cast(p, &Type::U64)
    }

    pub(crate) fn window_u64(&mut self) -> ValueId {
        let g = self.s.shared_window();
        self.global_u64(g)
    }

    pub(crate) fn add_u64(&mut self, a: ValueId, off: i64) -> ValueId {
        if off == 0 {
            return a;
        }
        let t = self.vty(a);
        let o = self.int(off, &t);
        self.bin(cuprite_ir::BinaryOp::Add, a, o)
    }

    /// Writes an instruction's result (of the instruction type's IR type) to a register.
    pub(crate) fn write(&mut self, op: &Operand, v: ValueId, loc: Loc) -> LResult<()> {
        let v = self.flush_f32(v);
        match op {
            Operand::Sink => Ok(()),
            Operand::Name(n, 0) => match self.lookup(n).cloned() {
                Some(Binding::Reg(l, _)) => {
                    self.known_addr.remove(n);
                    self.store_local(l, v);
                    Ok(())
                }
                _ => lerr(loc, format!("'{n}' is not a register")),
            },
            _ => lerr(loc, "the destination must be a register"),
        }
    }

    pub(crate) fn reg_name<'o>(&self, op: &'o Operand) -> Option<&'o str> {
        match op {
            Operand::Name(n, 0) if matches!(self.lookup(n), Some(Binding::Reg(..))) => Some(n),
            _ => None,
        }
    }

    fn special(&mut self, n: &str, axis: Option<char>, loc: Loc) -> LResult<ValueId> {
        let full = match axis {
            Some(a) => format!("{n}.{a}"),
            None => n.to_string(),
        };
        let Some(r) = SpecialRegister::parse(&full) else { return lerr(loc, format!("special register '{full}' is not supported yet")) };
        let dim = |a: Axis| match a {
            Axis::X => Dim::X,
            Axis::Y => Dim::Y,
            Axis::Z => Dim::Z,
        };
        use SpecialRegister as S;
        let u32t = Type::U32;
        Ok(match r {
            S::Tid(a) => self.emit(IK::Special(SpecialReg::ThreadIdx(dim(a))), u32t),
            S::Ntid(a) => self.emit(IK::Special(SpecialReg::BlockDim(dim(a))), u32t),
            S::Ctaid(a) => self.emit(IK::Special(SpecialReg::BlockIdx(dim(a))), u32t),
            S::Nctaid(a) => self.emit(IK::Special(SpecialReg::GridDim(dim(a))), u32t),
            S::LaneId => self.emit(IK::Special(SpecialReg::LaneId), u32t),
            S::WarpId => {
                let l = self.linear_tid();
                let s = self.int(5, &u32t);
                self.bin(cuprite_ir::BinaryOp::Shr, l, s)
            }
            // The CPU device has no SMs to number: one, with index 0; 64 warp slots as sm_90.
            S::NWarpId => self.int(64, &u32t),
            S::SmId => self.int(0, &u32t),
            S::NSmId => self.int(1, &u32t),
            S::GridId => self.int(1, &Type::U64),
            S::LanemaskEq | S::LanemaskLt | S::LanemaskLe | S::LanemaskGe | S::LanemaskGt => {
                let lane = self.emit(IK::Special(SpecialReg::LaneId), u32t.clone());
                let one = self.int(1, &u32t);
                let eq = self.bin(cuprite_ir::BinaryOp::Shl, one, lane);
                let lt = self.bin(cuprite_ir::BinaryOp::Sub, eq, one);
                let eq2 = self.bin(cuprite_ir::BinaryOp::Shl, eq, one);
                let le = self.bin(cuprite_ir::BinaryOp::Sub, eq2, one);
                match r {
                    S::LanemaskEq => eq,
                    S::LanemaskLt => lt,
                    S::LanemaskLe => le,
                    S::LanemaskGe => self.emit(IK::Unary(UnaryOp::Not, lt), u32t),
                    _ => self.emit(IK::Unary(UnaryOp::Not, le), u32t),
                }
            }
            S::Clock | S::ClockHi | S::Clock64 | S::GlobalTimer | S::GlobalTimerLo | S::GlobalTimerHi => {
                let c = self.emit(IK::CallBuiltin { builtin: Builtin::Clock64, args: vec![] }, Type::I64);
                let c = self.cast(c, &Type::U64);
                match r {
                    S::Clock | S::GlobalTimerLo => self.cast(c, &u32t),
                    S::ClockHi | S::GlobalTimerHi => {
                        let k = self.int(32, &Type::U64);
                        let h = self.bin(cuprite_ir::BinaryOp::Shr, c, k);
                        self.cast(h, &u32t)
                    }
                    _ => c,
                }
            }
            S::DynamicSmemSize => self.emit(IK::Special(SpecialReg::DynamicSmemSize), u32t),
            S::TotalSmemSize => return lerr(loc, format!("special register '{full}' is not supported yet")),
            // The grid workspace address of nvcc's grid barrier (grid.rs): a token, never
            // dereferenced; the other environment registers have no meaning here.
            S::EnvReg(1) => self.int(0, &u32t),
            S::EnvReg(2) => self.int(super::grid::WORKSPACE_TOKEN_LO, &u32t),
            S::EnvReg(_) => return lerr(loc, format!("special register '{full}' is not supported yet (only %envreg1/%envreg2, the grid barrier's workspace)")),
            S::ReservedSmemOffset(which) => {
                // The block's reserved shared memory: a shared variable of its own (its
                // offset in the shared window), so it overlaps no variable of the program.
                let Some(g) = self.s.reserved_smem() else {
                    return lerr(loc, format!("special register '{full}' is not supported in inline asm"));
                };
                let a = self.global_u64(g);
                let w = self.window_u64();
                let begin = self.bin(cuprite_ir::BinaryOp::Sub, a, w);
                let begin = self.cast(begin, &u32t);
                use crate::isa::ReservedSmem as R;
                match which {
                    R::Begin | R::Offset0 | R::Offset1 => begin,
                    R::End => {
                        let k = self.int(super::RESERVED_SMEM_BYTES as i64, &u32t);
                        self.bin(cuprite_ir::BinaryOp::Add, begin, k)
                    }
                    R::Cap => self.int(super::RESERVED_SMEM_BYTES as i64, &u32t),
                }
            }
            // Launches on the CPU device have no clusters (the runtime accepts the cluster
            // attribute without effect): every block is a cluster of one, as on the GPU
            // for a launch without clusters.
            S::ClusterId(a) => self.emit(IK::Special(SpecialReg::BlockIdx(dim(a))), u32t),
            S::NClusterId(a) => self.emit(IK::Special(SpecialReg::GridDim(dim(a))), u32t),
            S::ClusterCtaid(_) | S::ClusterCtarank => self.int(0, &u32t),
            S::ClusterNctaid(_) | S::ClusterNctarank => self.int(1, &u32t),
            S::IsExplicitCluster => self.bool_const(false),
        })
    }

    pub(crate) fn linear_tid(&mut self) -> ValueId {
        use cuprite_ir::BinaryOp::*;
        let t = Type::U32;
        let tx = self.emit(IK::Special(SpecialReg::ThreadIdx(Dim::X)), t.clone());
        let ty = self.emit(IK::Special(SpecialReg::ThreadIdx(Dim::Y)), t.clone());
        let tz = self.emit(IK::Special(SpecialReg::ThreadIdx(Dim::Z)), t.clone());
        let bx = self.emit(IK::Special(SpecialReg::BlockDim(Dim::X)), t.clone());
        let by = self.emit(IK::Special(SpecialReg::BlockDim(Dim::Y)), t.clone());
        let zy = self.bin(Mul, tz, by);
        let zyy = self.bin(Add, zy, ty);
        let r = self.bin(Mul, zyy, bx);
        self.bin(Add, r, tx)
    }
}

/// The unsigned integer type of a scalar type's size.
pub(crate) fn uint_of(t: &Type) -> Type {
    match t.scalar_size() {
        Some(1) => Type::U8,
        Some(2) => Type::U16,
        Some(4) => Type::U32,
        _ => Type::U64,
    }
}

/// The IR type of a `.param`/`.local`/`.shared` variable: its scalar type, or an array of
/// it (byte arrays for nvcc's `.b8 name[N]`).
pub(crate) fn var_type(d: &VarDecl) -> LResult<Type> {
    let VarType::Scalar(t) = d.ty.clone() else { return lerr(d.loc, "opaque variables are not supported yet") };
    let Some(mut ty) = ir_type(t) else { return lerr(d.loc, format!("variables of type {t} are not supported yet")) };
    if t == ScalarType::Pred {
        return lerr(d.loc, ".pred variables outside registers are not valid");
    }
    if let Some(n) = d.vector {
        ty = Type::Array(Box::new(ty), n as u64);
    }
    for dim in d.dims.iter().rev() {
        ty = Type::Array(Box::new(ty), dim.unwrap_or(0));
    }
    Ok(ty)
}
