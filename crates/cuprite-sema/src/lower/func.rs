//! One function: statements to blocks, expressions to instructions.
//!
//! Values never cross blocks: when an operand is followed by an operand whose lowering
//! creates blocks (`&&`, `?:`, barriers), the earlier value is kept in a temporary local.

use super::ModLower;
use crate::hir::*;
use crate::ty::*;
use cuprite_ir as ir;
use cuprite_ir::{BlockId, InstKind as IK, Terminator, ValueId};
use std::collections::HashMap;

mod asm;
mod dynamic;
mod product_locals;

#[derive(Clone, Copy)]
enum Place {
    Local(ir::LocalId),
    Mem { ptr: ValueId, vol: bool },
    /// A `Mem` or `Bits` place whose pointer was kept in a local (see `place_keep`).
    Spilled(ir::LocalId, bool, Option<Bits>),
    /// A bit-field: `ptr` points to the unsigned integer unit that holds it.
    Bits { ptr: ValueId, vol: bool, bits: Bits },
}

/// How a bit-field sits in its access unit.
#[derive(Clone, Copy)]
struct Bits {
    shift: u32,
    width: u32,
    /// Sign-extend when reading (a signed declared type).
    signed: bool,
    /// Unit size in bytes (1, 2, 4, 8).
    unit: u64,
}

impl Bits {
    fn unit_ty(&self) -> ir::Type {
        match self.unit {
            1 => ir::Type::U8,
            2 => ir::Type::U16,
            4 => ir::Type::U32,
            _ => ir::Type::U64,
        }
    }
    fn mask(&self) -> u64 {
        if self.width >= 64 { u64::MAX } else { (1u64 << self.width) - 1 }
    }
}

struct BB {
    insts: Vec<ir::Inst>,
    term: Option<Terminator>,
    term_loc: Option<ir::SrcLoc>,
}

struct FnLower<'m, 'a> {
    m: &'m mut ModLower<'a>,
    f: ir::Function,
    blocks: Vec<BB>,
    cur: usize,
    loc: Option<ir::SrcLoc>,
    breaks: Vec<BlockId>,
    conts: Vec<BlockId>,
    labels: HashMap<u32, BlockId>,
    /// Locals holding a product that every use adds (`product_locals.rs`), and once
    /// declared, the locals that keep their factors.
    fusible: std::collections::HashSet<LocalId>,
    factors: product_locals::ProductLocals,
    /// Float `*`, `+`, `-` made by source operators (see `contract_inlined.rs`).
    contractable: std::collections::HashSet<ValueId>,
}

/// The symbol by which other translation units name a device function: its mangled
/// name, unless it has internal linkage (`static`, anonymous namespace).
fn link_symbol(m: &ModLower, id: FnId) -> Option<String> {
    let hf = &m.prog.functions[id.0 as usize];
    if m.prog.static_functions.contains(&id) || hf.scope.iter().any(|s| s == "_GLOBAL__N_1") {
        return None;
    }
    Some(crate::mangle::mangle_function(&m.prog.types, &hf.scope, &hf.name, &hf.sig.params, hf.sig.variadic, hf.extern_c))
}

/// A function that device code calls but this translation unit does not define.
pub(super) fn declare_function(m: &mut ModLower, id: FnId) -> ir::Function {
    let hf = &m.prog.functions[id.0 as usize];
    let mut name = hf.scope.join("::");
    if !name.is_empty() {
        name.push_str("::");
    }
    name.push_str(&hf.name);
    if let Some(targs) = m.prog.template_args.get(&id) {
        name.push_str(targs);
    }
    let locals: Vec<ir::Local> =
        hf.sig.params.iter().enumerate().map(|(i, p)| ir::Local { name: format!("p{i}"), ty: m.ty(&p.ty), align: None }).collect();
    ir::Function {
        name,
        symbol: link_symbol(m, id),
        kind: ir::FunctionKind::Device,
        inline: hf.inline,
        params: (0..locals.len() as u32).map(ir::LocalId).collect(),
        ret: m.ty(&hf.sig.ret.ty),
        locals,
        values: Vec::new(),
        blocks: Vec::new(),
        loc: m.loc(hf.span),
    }
}

pub(super) fn lower_function(m: &mut ModLower, id: FnId) -> ir::Function {
    let hf = &m.prog.functions[id.0 as usize];
    let body = hf.body.as_ref().unwrap();
    let kind = if hf.space == ExecSpace::Global {
        ir::FunctionKind::Kernel {
            stub_symbol: match m.prog.stub_symbols.get(&id) {
                Some(s) => s.clone(),
                None => crate::mangle::mangle_function(&m.prog.types, &hf.scope, &hf.name, &hf.sig.params, hf.sig.variadic, hf.extern_c),
            },
            max_threads: hf.launch_bounds.0,
            min_blocks: hf.launch_bounds.1,
        }
    } else {
        ir::FunctionKind::Device
    };
    let mut name = hf.scope.join("::");
    if !name.is_empty() {
        name.push_str("::");
    }
    name.push_str(&hf.name);
    if let Some(targs) = m.prog.template_args.get(&id) {
        name.push_str(targs);
    }
    let ret = m.ty(&hf.sig.ret.ty);
    let loc = m.loc(hf.span);
    let mut locals = Vec::new();
    for l in &body.locals {
        let ty = m.ty(&l.ty.ty);
        locals.push(ir::Local { name: l.name.clone(), ty, align: l.align });
    }
    let symbol = if matches!(kind, ir::FunctionKind::Kernel { .. }) { None } else { link_symbol(m, id) };
    let f = ir::Function {
        name,
        symbol,
        kind,
        inline: hf.inline,
        params: (0..body.nparams as u32).map(ir::LocalId).collect(),
        ret,
        locals,
        values: Vec::new(),
        blocks: Vec::new(),
        loc,
    };
    let mut fl = FnLower {
        m,
        f,
        blocks: vec![BB { insts: vec![], term: None, term_loc: None }],
        cur: 0,
        loc,
        breaks: vec![],
        conts: vec![],
        labels: HashMap::new(),
        fusible: Default::default(),
        factors: Default::default(),
        contractable: Default::default(),
    };
    let prog = fl.m.prog;
    let body = prog.functions[id.0 as usize].body.as_ref().unwrap();
    if fl.m.opts.fmad {
        fl.fusible = product_locals::fusible_product_locals(body);
    }
    for s in &body.stmts {
        fl.stmt(s);
    }
    // Falling off the end.
    if fl.blocks[fl.cur].term.is_none() {
        let rt = fl.f.ret.clone();
        let t = match &rt {
            ir::Type::Void => Terminator::Return(None),
            t if t.scalar_size().is_some() => {
                let c = zero_const(t);
                let v = fl.emit(IK::Const(c), Some(t.clone())).unwrap();
                Terminator::Return(Some(v))
            }
            _ => Terminator::Unreachable,
        };
        fl.terminate(t);
    }
    fl.m.contractable.push(std::mem::take(&mut fl.contractable));
    let mut f = fl.f;
    f.blocks = fl
        .blocks
        .into_iter()
        .map(|b| ir::Block { insts: b.insts, term: b.term.unwrap_or(Terminator::Unreachable), term_loc: b.term_loc })
        .collect();
    f
}

fn zero_const(t: &ir::Type) -> ir::Const {
    match t {
        ir::Type::Bool => ir::Const::Bool(false),
        ir::Type::F32 => ir::Const::F32(0.0),
        ir::Type::F64 => ir::Const::F64(0.0),
        ir::Type::Ptr(_) | ir::Type::FnPtr(_) => ir::Const::Null(t.clone()),
        t => ir::Const::Int(0, t.clone()),
    }
}

impl<'m, 'a> FnLower<'m, 'a> {
    // ------------------------------------------------------------ building blocks

    fn new_block(&mut self) -> BlockId {
        self.blocks.push(BB { insts: vec![], term: None, term_loc: None });
        BlockId(self.blocks.len() as u32 - 1)
    }

    fn switch_to(&mut self, b: BlockId) {
        self.cur = b.index();
    }

    /// Make sure the current block can take instructions (after a `return`, code goes
    /// to a fresh block that nothing jumps to).
    fn ensure_open(&mut self) {
        if self.blocks[self.cur].term.is_some() {
            let b = self.new_block();
            self.switch_to(b);
        }
    }

    fn terminate(&mut self, t: Terminator) {
        self.ensure_open();
        self.blocks[self.cur].term = Some(t);
        self.blocks[self.cur].term_loc = self.loc;
    }

    fn jump(&mut self, to: BlockId) {
        if self.blocks[self.cur].term.is_none() {
            self.terminate(Terminator::Jump(to));
        }
    }

    fn emit(&mut self, kind: IK, ty: Option<ir::Type>) -> Option<ValueId> {
        self.ensure_open();
        let result = ty.filter(|t| *t != ir::Type::Void).map(|t| {
            self.f.values.push(t);
            ValueId(self.f.values.len() as u32 - 1)
        });
        self.blocks[self.cur].insts.push(ir::Inst { result, kind, loc: self.loc });
        result
    }

    fn val(&mut self, kind: IK, ty: ir::Type) -> ValueId {
        self.emit(kind, Some(ty)).expect("non-void value")
    }

    fn vty(&self, v: ValueId) -> ir::Type {
        self.f.values[v.index()].clone()
    }

    fn temp(&mut self, ty: ir::Type) -> ir::LocalId {
        let n = self.f.locals.len();
        self.f.locals.push(ir::Local { name: format!("tmp.{n}"), ty, align: None });
        ir::LocalId(n as u32)
    }

    fn ty(&mut self, t: &QTy) -> ir::Type {
        self.m.ty(&t.ty)
    }

    fn iconst(&mut self, v: i64, t: ir::Type) -> ValueId {
        let c = match &t {
            ir::Type::Bool => ir::Const::Bool(v != 0),
            ir::Type::F32 => ir::Const::F32(v as f32),
            ir::Type::F64 => ir::Const::F64(v as f64),
            _ => ir::Const::Int(v, t.clone()),
        };
        self.val(IK::Const(c), t)
    }

    fn cast(&mut self, v: ValueId, to: &ir::Type) -> ValueId {
        if self.vty(v) == *to {
            return v;
        }
        self.val(IK::Cast(v), to.clone())
    }

    /// Keep a value in a local when a later operand creates blocks.
    fn spill(&mut self, v: ValueId) -> ir::LocalId {
        let t = self.vty(v);
        let l = self.temp(t);
        self.emit(IK::StoreLocal(l, v), None);
        l
    }

    fn reload(&mut self, l: ir::LocalId) -> ValueId {
        let t = self.f.locals[l.index()].ty.clone();
        self.val(IK::LoadLocal(l), t)
    }

    /// Lower operands left to right, keeping each in a local when a later one has
    /// control flow.
    fn operands(&mut self, es: &[&Expr]) -> Vec<ValueId> {
        let mut out: Vec<Result<ValueId, ir::LocalId>> = Vec::new();
        for (i, e) in es.iter().enumerate() {
            let v = self.value(e);
            let later_cf = es[i + 1..].iter().any(|x| x.has_control_flow());
            if later_cf {
                out.push(Err(self.spill(v)));
            } else {
                out.push(Ok(v));
            }
        }
        out.into_iter().map(|r| match r {
            Ok(v) => v,
            Err(l) => self.reload(l),
        })
        .collect()
    }

    fn place_keep(&mut self, p: Place, later: &Expr) -> Place {
        match p {
            Place::Mem { ptr, vol } if later.has_control_flow() => {
                let l = self.spill(ptr);
                Place::Spilled(l, vol, None)
            }
            Place::Bits { ptr, vol, bits } if later.has_control_flow() => {
                let l = self.spill(ptr);
                Place::Spilled(l, vol, Some(bits))
            }
            p => p,
        }
    }

    fn place_restore(&mut self, p: Place) -> Place {
        match p {
            Place::Spilled(l, vol, None) => Place::Mem { ptr: self.reload(l), vol },
            Place::Spilled(l, vol, Some(bits)) => Place::Bits { ptr: self.reload(l), vol, bits },
            p => p,
        }
    }

    // ------------------------------------------------------------ places

    fn place(&mut self, e: &Expr) -> Place {
        crate::deep(|| self.place_here(e))
    }

    fn place_here(&mut self, e: &Expr) -> Place {
        match &e.kind {
            ExprKind::Local(l) => Place::Local(ir::LocalId(l.0)),
            ExprKind::Global(g) => {
                let gid = self.m.globals[g];
                let t = self.m.module.globals[gid.index()].ty.clone();
                let p = self.val(IK::GlobalAddr(gid), t.ptr_to());
                if self.m.prog.globals[g.0 as usize].space == VarSpace::Managed {
                    // The object is in the host object: its address is the cell's first word.
                    let obj = self.ty(&e.ty).ptr_to();
                    let first = self.val(IK::Cast(p), obj.clone().ptr_to());
                    let ptr = self.val(IK::Load { ptr: first, volatile: false }, obj);
                    return Place::Mem { ptr, vol: e.ty.v };
                }
                Place::Mem { ptr: p, vol: e.ty.v }
            }
            ExprKind::Deref(p) => {
                let v = self.value(p);
                Place::Mem { ptr: v, vol: e.ty.v }
            }
            ExprKind::Member(b, r, path) => {
                let bp = self.place(b);
                let mut ptr = self.addr(bp);
                let mut rec = *r;
                for (i, idx) in path.iter().enumerate() {
                    if i + 1 == path.len() {
                        return self.field_place(ptr, rec, *idx, e.ty.v);
                    }
                    let fd = &self.m.prog.types.rec(rec).fields.as_ref().unwrap()[*idx as usize];
                    let Ty::Record(nr) = fd.ty.ty else { unreachable!() };
                    let Place::Mem { ptr: p, .. } = self.field_place(ptr, rec, *idx, e.ty.v) else { unreachable!() };
                    ptr = p;
                    rec = nr;
                }
                Place::Mem { ptr, vol: e.ty.v }
            }
            ExprKind::Str(s) => {
                let v = self.val(IK::Const(ir::Const::Str(s.clone())), ir::Type::I8.ptr_to());
                let t = self.ty(&e.ty);
                let p = self.val(IK::Cast(v), t.ptr_to());
                Place::Mem { ptr: p, vol: false }
            }
            ExprKind::Temp(x) => {
                let v = self.value(x);
                let l = self.spill(v);
                Place::Local(l)
            }
            ExprKind::InitTemp(init) => {
                let t = self.ty(&e.ty);
                let l = self.temp(t);
                self.init(Place::Local(l), init);
                Place::Local(l)
            }
            ExprKind::LocalInit(l, init) => {
                let l = ir::LocalId(l.0);
                self.init(Place::Local(l), init);
                Place::Local(l)
            }
            ExprKind::Assign(..) | ExprKind::CompoundAssign { .. } | ExprKind::IncDec { .. } => {
                let (_, p) = self.assign_like(e);
                p
            }
            ExprKind::Comma(a, b) => {
                self.value(a);
                self.place(b)
            }
            ExprKind::Cond(c, a, b) => {
                let pt = self.ty(&e.ty).ptr_to();
                let tmp = self.temp(pt);
                let (tb, eb, join) = (self.new_block(), self.new_block(), self.new_block());
                let cv = self.value(c);
                self.terminate(Terminator::Branch { cond: cv, then: tb, else_: eb });
                for (blk, x) in [(tb, a), (eb, b)] {
                    self.switch_to(blk);
                    let p = self.place(x);
                    let ad = self.addr(p);
                    self.emit(IK::StoreLocal(tmp, ad), None);
                    self.jump(join);
                }
                self.switch_to(join);
                let ptr = self.reload(tmp);
                Place::Mem { ptr, vol: e.ty.v }
            }
            _ => {
                // A prvalue used as an object.
                let v = self.value(e);
                let l = self.spill(v);
                Place::Local(l)
            }
        }
    }

    /// Field `idx` (HIR numbering) of the record of type `rec` that `base` points to.
    fn field_place(&mut self, base: ValueId, rec: RecId, idx: u32, vol: bool) -> Place {
        let sid = match self.m.ty(&Ty::Record(rec)) {
            ir::Type::Struct(s) => s,
            _ => unreachable!(),
        };
        let fd = self.m.prog.types.rec(rec).fields.as_ref().unwrap()[idx as usize].clone();
        let fty = self.m.ty(&fd.ty.ty);
        if let Some(bf) = fd.bits {
            let decl = fty.scalar_size().unwrap_or(4);
            let (off, unit, shift) = bf.access_unit(decl);
            let signed = match &fd.ty.ty {
                Ty::Enum(e) => self.m.prog.types.enm(*e).signed_bitfield,
                _ => fty.is_signed(),
            };
            let bits = Bits { shift, width: bf.width, signed, unit };
            let bytes = self.val(IK::Cast(base), ir::Type::U8.ptr_to());
            let o = self.iconst(off as i64, ir::Type::I64);
            let at = self.val(IK::PtrAdd { base: bytes, index: o }, ir::Type::U8.ptr_to());
            let ptr = self.val(IK::Cast(at), bits.unit_ty().ptr_to());
            return Place::Bits { ptr, vol, bits };
        }
        let field = self.m.ir_field(rec, idx);
        let irf = self.m.module.structs[sid.index()].fields[field as usize].ty.clone();
        let ptr = self.val(IK::FieldAddr { base, strukt: sid, field }, irf.clone().ptr_to());
        // A base subobject whose tail padding holds members is bytes in the IR struct.
        let ptr = if irf != fty { self.val(IK::Cast(ptr), fty.ptr_to()) } else { ptr };
        Place::Mem { ptr, vol }
    }

    fn addr(&mut self, p: Place) -> ValueId {
        let p = self.place_restore(p);
        match p {
            Place::Spilled(..) => unreachable!(),
            // Sema refuses `&` of a bit-field; the unit's address keeps lowering total.
            Place::Bits { ptr, .. } => ptr,
            Place::Local(l) => {
                let t = self.f.locals[l.index()].ty.clone();
                self.val(IK::LocalAddr(l), t.ptr_to())
            }
            Place::Mem { ptr, .. } => ptr,
        }
    }

    fn load(&mut self, p: Place, t: ir::Type) -> ValueId {
        let p = self.place_restore(p);
        match p {
            Place::Spilled(..) => unreachable!(),
            Place::Local(l) => {
                let lt = self.f.locals[l.index()].ty.clone();
                let v = self.val(IK::LoadLocal(l), lt.clone());
                if lt != t {
                    self.cast(v, &t)
                } else {
                    v
                }
            }
            Place::Mem { ptr, vol } => {
                let pt = self.vty(ptr);
                let want = t.clone().ptr_to();
                let ptr = if pt != want { self.val(IK::Cast(ptr), want) } else { ptr };
                self.val(IK::Load { ptr, volatile: vol }, t)
            }
            Place::Bits { ptr, vol, bits } => {
                let ut = bits.unit_ty();
                let ubits = (bits.unit * 8) as u32;
                let u = self.val(IK::Load { ptr, volatile: vol }, ut.clone());
                let v = if bits.signed {
                    let st = match bits.unit {
                        1 => ir::Type::I8,
                        2 => ir::Type::I16,
                        4 => ir::Type::I32,
                        _ => ir::Type::I64,
                    };
                    // Promote narrow units to 32 bits so the shifts are in range.
                    let (st, ubits) = if bits.unit < 4 { (ir::Type::I32, 32) } else { (st, ubits) };
                    let s = self.cast(u, &st);
                    let l = self.iconst((ubits - bits.shift - bits.width) as i64, st.clone());
                    let s = self.val(IK::Binary(ir::BinaryOp::Shl, s, l), st.clone());
                    let r = self.iconst((ubits - bits.width) as i64, st.clone());
                    self.val(IK::Binary(ir::BinaryOp::Shr, s, r), st)
                } else {
                    let sh = self.iconst(bits.shift as i64, ut.clone());
                    let s = self.val(IK::Binary(ir::BinaryOp::Shr, u, sh), ut.clone());
                    let m = self.iconst(bits.mask() as i64, ut.clone());
                    self.val(IK::Binary(ir::BinaryOp::And, s, m), ut)
                };
                if self.vty(v) != t {
                    self.cast(v, &t)
                } else {
                    v
                }
            }
        }
    }

    fn store(&mut self, p: Place, v: ValueId) {
        let p = self.place_restore(p);
        match p {
            Place::Spilled(..) => unreachable!(),
            Place::Local(l) => {
                let lt = self.f.locals[l.index()].ty.clone();
                let v = if self.vty(v) != lt { self.cast(v, &lt) } else { v };
                self.emit(IK::StoreLocal(l, v), None);
            }
            Place::Mem { ptr, vol } => {
                let want = self.vty(v).ptr_to();
                let ptr = if self.vty(ptr) != want { self.val(IK::Cast(ptr), want) } else { ptr };
                self.emit(IK::Store { ptr, value: v, volatile: vol }, None);
            }
            Place::Bits { ptr, vol, bits } => {
                // Read-modify-write of the unit: (old & ~(mask << shift)) | ((v & mask) << shift).
                let ut = bits.unit_ty();
                let v = if self.vty(v) == ir::Type::Bool {
                    let b = self.cast(v, &ir::Type::U8);
                    self.cast(b, &ut)
                } else {
                    self.cast(v, &ut)
                };
                let m = self.iconst(bits.mask() as i64, ut.clone());
                let v = self.val(IK::Binary(ir::BinaryOp::And, v, m), ut.clone());
                let sh = self.iconst(bits.shift as i64, ut.clone());
                let v = self.val(IK::Binary(ir::BinaryOp::Shl, v, sh), ut.clone());
                let keep = !(bits.mask() << bits.shift) & if bits.unit >= 8 { u64::MAX } else { (1u64 << (bits.unit * 8)) - 1 };
                let old = self.val(IK::Load { ptr, volatile: vol }, ut.clone());
                let k = self.iconst(keep as i64, ut.clone());
                let old = self.val(IK::Binary(ir::BinaryOp::And, old, k), ut.clone());
                let nv = self.val(IK::Binary(ir::BinaryOp::Or, old, v), ut);
                self.emit(IK::Store { ptr, value: nv, volatile: vol }, None);
            }
        }
    }

    // ------------------------------------------------------------ initializers

    fn has_zero(i: &Init) -> bool {
        match i {
            Init::Zero(_) => true,
            Init::Expr(_) | Init::Construct { .. } => false,
            Init::List { items, .. } => items.iter().any(Self::has_zero),
        }
    }

    fn zero_fill(&mut self, p: Place, t: &QTy) {
        let it = self.ty(t);
        if it.scalar_size().is_some() {
            let z = zero_const(&it);
            let v = self.val(IK::Const(z), it);
            self.store(p, v);
            return;
        }
        let (size, _) = self.m.module.layout(&it);
        let a = self.addr(p);
        let a = self.val(IK::Cast(a), ir::Type::Void.ptr_to());
        let zero = self.iconst(0, ir::Type::I32);
        let n = self.iconst(size as i64, ir::Type::U64);
        self.emit(IK::CallBuiltin { builtin: ir::Builtin::Memset, args: vec![a, zero, n] }, Some(ir::Type::Void.ptr_to()));
    }

    fn init(&mut self, p: Place, i: &Init) {
        match i {
            Init::Zero(t) => self.zero_fill(p, t),
            Init::Construct { ctor, args, .. } => {
                let ptr = self.addr(p);
                let refs: Vec<&Expr> = args.iter().collect();
                let keep = if refs.iter().any(|a| a.has_control_flow()) { Some(self.spill(ptr)) } else { None };
                let mut vals = self.operands(&refs);
                let ptr = match keep {
                    Some(l) => self.reload(l),
                    None => ptr,
                };
                vals.insert(0, ptr);
                let func = self.m.funcs[ctor];
                self.emit(IK::Call { func, args: vals }, Some(ir::Type::Void));
            }
            Init::Expr(e) => {
                let v = self.value(e);
                self.store(p, v);
            }
            Init::List { ty, items, .. } => {
                if Self::has_zero(i) {
                    self.zero_fill(p, ty);
                }
                let ptr = self.addr(p);
                let ptr_l = if i.has_control_flow() { Some(self.spill(ptr)) } else { None };
                match &ty.ty {
                    Ty::Array(e, _) => {
                        let et = self.ty(e);
                        for (k, it) in items.iter().enumerate() {
                            if matches!(it, Init::Zero(_)) {
                                continue;
                            }
                            let base = match ptr_l {
                                Some(l) => self.reload(l),
                                None => ptr,
                            };
                            let b = self.val(IK::Cast(base), et.clone().ptr_to());
                            let idx = self.iconst(k as i64, ir::Type::I64);
                            let ep = self.val(IK::PtrAdd { base: b, index: idx }, et.clone().ptr_to());
                            self.init(Place::Mem { ptr: ep, vol: false }, it);
                        }
                    }
                    Ty::Record(r) => {
                        let sid = match self.m.ty(&Ty::Record(*r)) {
                            ir::Type::Struct(s) => s,
                            _ => unreachable!(),
                        };
                        let fields = self.m.prog.types.rec(*r).fields.clone().unwrap_or_default();
                        let um = match i {
                            Init::List { union_member, .. } => *union_member,
                            _ => None,
                        };
                        for (k, it) in items.iter().enumerate() {
                            if matches!(it, Init::Zero(_)) {
                                continue;
                            }
                            let fidx = um.map(|m| m as usize).unwrap_or(k);
                            let base = match ptr_l {
                                Some(l) => self.reload(l),
                                None => ptr,
                            };
                            let _ = (sid, &fields);
                            let fp = self.field_place(base, *r, fidx as u32, false);
                            self.init(fp, it);
                        }
                        // An implicit constructor of a dynamic class: the vptr last, after
                        // the base's constructor stored the base's.
                        let base = match ptr_l {
                            Some(l) => self.reload(l),
                            None => ptr,
                        };
                        self.store_vptr(base, *r);
                    }
                    _ => {
                        if let Some(it) = items.first() {
                            self.init(p, it);
                        }
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------ values

    /// `a * b` or `-(a * b)` of floats: the factors, and whether the product is negated
    /// (nvcc contracts `-(a * b) + c` into `fma(-a, b, c)` too).
    fn fma_parts<'e>(&self, e: &'e Expr) -> Option<(&'e Expr, &'e Expr, bool)> {
        match &e.kind {
            ExprKind::Binary(BinOp::Mul, a, b) if e.ty.ty.is_float() => Some((a, b, false)),
            ExprKind::Neg(inner) if e.ty.ty.is_float() => self.fma_parts(inner).map(|(a, b, n)| (a, b, !n)),
            _ => None,
        }
    }

    fn fma(&mut self, t: &ir::Type, a: ValueId, b: ValueId, c: ValueId) -> ValueId {
        let f = if *t == ir::Type::F32 { ir::MathFn::Fmaf } else { ir::MathFn::Fma };
        self.val(IK::CallBuiltin { builtin: ir::Builtin::Math(f), args: vec![a, b, c] }, t.clone())
    }

    /// `T l = a * b;` for a local whose every use is fused: the factors are kept in
    /// locals of their own (uses may be in other blocks), the product in `l` as usual.
    fn declare_product_local(&mut self, l: LocalId, e: &Expr) {
        let Some((a, b, neg)) = self.fma_parts(e) else { return self.init(Place::Local(ir::LocalId(l.0)), &Init::Expr(e.clone())) };
        let t = self.ty(&e.ty);
        let v = self.operands(&[a, b]);
        let a = if neg { self.val(IK::Unary(ir::UnaryOp::Neg, v[0]), t.clone()) } else { v[0] };
        let (la, lb) = (self.temp(t.clone()), self.temp(t.clone()));
        self.emit(IK::StoreLocal(la, a), None);
        self.emit(IK::StoreLocal(lb, v[1]), None);
        let p = self.val(IK::Binary(ir::BinaryOp::Mul, a, v[1]), t);
        self.emit(IK::StoreLocal(ir::LocalId(l.0), p), None);
        self.factors.insert(ir::LocalId(l.0), (la, lb));
    }

    /// The factors of a fused product local that `e` reads (see `declare_product_local`).
    fn local_factors(&mut self, e: &Expr) -> Option<(ValueId, ValueId)> {
        let l = product_locals::loaded_local(e)?;
        let (la, lb) = *self.factors.get(&ir::LocalId(l.0))?;
        let t = self.f.locals[la.index()].ty.clone();
        Some((self.val(IK::LoadLocal(la), t.clone()), self.val(IK::LoadLocal(lb), t)))
    }

    /// `x + y` / `x - y` of floats with a product operand, contracted like nvcc.
    fn try_fma(&mut self, op: BinOp, x: &Expr, y: &Expr, t: &ir::Type) -> Option<ValueId> {
        if !self.m.opts.fmad || !matches!(op, BinOp::Add | BinOp::Sub) || !t.is_float() {
            return None;
        }
        if product_locals::loaded_local(x).is_some_and(|l| self.factors.contains_key(&ir::LocalId(l.0))) {
            // t + y, t - y with t = a*b
            let c = self.value(y);
            let (a, b) = self.local_factors(x)?;
            let c = if op == BinOp::Sub { self.val(IK::Unary(ir::UnaryOp::Neg, c), t.clone()) } else { c };
            return Some(self.fma(t, a, b, c));
        }
        if let Some((a, b, neg)) = self.fma_parts(x) {
            // ±a*b + y, ±a*b - y
            let v = self.operands(&[a, b, y]);
            let a = if neg { self.val(IK::Unary(ir::UnaryOp::Neg, v[0]), t.clone()) } else { v[0] };
            let c = if op == BinOp::Sub { self.val(IK::Unary(ir::UnaryOp::Neg, v[2]), t.clone()) } else { v[2] };
            return Some(self.fma(t, a, v[1], c));
        }
        if product_locals::loaded_local(y).is_some_and(|l| self.factors.contains_key(&ir::LocalId(l.0))) {
            // x ± t with t = a*b
            let c = self.value(x);
            let (a, b) = self.local_factors(y)?;
            let a = if op == BinOp::Sub { self.val(IK::Unary(ir::UnaryOp::Neg, a), t.clone()) } else { a };
            return Some(self.fma(t, a, b, c));
        }
        if let Some((a, b, neg)) = self.fma_parts(y) {
            // x ± a*b
            let v = self.operands(&[x, a, b]);
            let a = if neg != (op == BinOp::Sub) { self.val(IK::Unary(ir::UnaryOp::Neg, v[1]), t.clone()) } else { v[1] };
            return Some(self.fma(t, a, v[2], v[0]));
        }
        None
    }

    fn value(&mut self, e: &Expr) -> ValueId {
        crate::deep(|| self.value_here(e))
    }

    fn value_here(&mut self, e: &Expr) -> ValueId {
        match self.value_opt(e) {
            Some(v) => v,
            None => self.iconst(0, ir::Type::I32),
        }
    }

    fn value_opt(&mut self, e: &Expr) -> Option<ValueId> {
        let t = self.ty(&e.ty);
        Some(match &e.kind {
            ExprKind::Error => self.iconst(0, ir::Type::I32),
            ExprKind::Int(v) => self.iconst(*v as i64, t),
            ExprKind::Float(f) => {
                let c = if t == ir::Type::F32 { ir::Const::F32(*f as f32) } else { ir::Const::F64(*f) };
                self.val(IK::Const(c), t)
            }
            ExprKind::Null if e.ty.ty.is_member_fn_ptr() => self.member_fn_ptr(None, t),
            ExprKind::Null => self.val(IK::Const(ir::Const::Null(t.clone())), t),
            ExprKind::Special(r) => {
                let rt = if *r == ir::SpecialReg::WarpSize { ir::Type::I32 } else { ir::Type::U32 };
                let v = self.val(IK::Special(*r), rt);
                self.cast(v, &t)
            }
            ExprKind::SpecialVec(sv) => {
                let l = self.temp(t.clone());
                let sid = match &t {
                    ir::Type::Struct(s) => *s,
                    _ => unreachable!(),
                };
                let base = self.val(IK::LocalAddr(l), t.clone().ptr_to());
                let dims = [ir::Dim::X, ir::Dim::Y, ir::Dim::Z];
                let fields = self.m.module.structs[sid.index()].fields.clone();
                for (k, d) in dims.iter().enumerate() {
                    let r = match sv {
                        SpecialVar::ThreadIdx => ir::SpecialReg::ThreadIdx(*d),
                        SpecialVar::BlockIdx => ir::SpecialReg::BlockIdx(*d),
                        SpecialVar::BlockDim => ir::SpecialReg::BlockDim(*d),
                        SpecialVar::GridDim => ir::SpecialReg::GridDim(*d),
                    };
                    let Some(fd) = fields.get(k) else { break };
                    let v = self.val(IK::Special(r), ir::Type::U32);
                    let v = self.cast(v, &fd.ty);
                    let fp = self.val(IK::FieldAddr { base, strukt: sid, field: k as u32 }, fd.ty.clone().ptr_to());
                    self.emit(IK::Store { ptr: fp, value: v, volatile: false }, None);
                }
                self.val(IK::LoadLocal(l), t)
            }
            ExprKind::Load(x) => {
                let p = self.place(x);
                self.load(p, t)
            }
            ExprKind::Decay(x) => {
                if let ExprKind::Str(s) = &x.kind {
                    let v = self.val(IK::Const(ir::Const::Str(s.clone())), ir::Type::I8.ptr_to());
                    return Some(self.cast(v, &t));
                }
                let p = self.place(x);
                let a = self.addr(p);
                self.cast(a, &t)
            }
            ExprKind::AddrOf(x) => {
                let p = self.place(x);
                let a = self.addr(p);
                self.cast(a, &t)
            }
            ExprKind::Cast(x) => {
                let v = self.value(x);
                self.cast(v, &t)
            }
            ExprKind::Bitcast(x) => {
                let v = self.value(x);
                self.val(IK::Bitcast(v), t)
            }
            ExprKind::ToVoid(x) => {
                self.value_opt(x);
                return None;
            }
            ExprKind::Neg(x) => {
                let v = self.value(x);
                self.val(IK::Unary(ir::UnaryOp::Neg, v), t)
            }
            ExprKind::BitNot(x) => {
                let v = self.value(x);
                self.val(IK::Unary(ir::UnaryOp::Not, v), t)
            }
            ExprKind::LNot(x) => {
                let v = self.value(x);
                self.val(IK::Unary(ir::UnaryOp::LNot, v), t)
            }
            ExprKind::Binary(op, a, b) => {
                if let Some(v) = self.try_fma(*op, a, b, &t) {
                    return Some(v);
                }
                let v = self.operands(&[a, b]);
                let float_arith = t.is_float() && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul);
                let r = self.val(IK::Binary(*op, v[0], v[1]), t);
                if float_arith {
                    self.contractable.insert(r);
                }
                r
            }
            ExprKind::PtrAdd(p, i) => {
                let v = self.operands(&[p, i]);
                self.val(IK::PtrAdd { base: v[0], index: v[1] }, t)
            }
            ExprKind::PtrDiff(a, b) => {
                let v = self.operands(&[a, b]);
                let d = self.val(IK::PtrDiff(v[0], v[1]), ir::Type::I64);
                self.cast(d, &t)
            }
            ExprKind::LogAnd(a, b) | ExprKind::LogOr(a, b) => {
                let and = matches!(e.kind, ExprKind::LogAnd(..));
                let tmp = self.temp(ir::Type::Bool);
                let av = self.value(a);
                self.emit(IK::StoreLocal(tmp, av), None);
                let (rhs, join) = (self.new_block(), self.new_block());
                let (th, el) = if and { (rhs, join) } else { (join, rhs) };
                self.terminate(Terminator::Branch { cond: av, then: th, else_: el });
                self.switch_to(rhs);
                let bv = self.value(b);
                self.emit(IK::StoreLocal(tmp, bv), None);
                self.jump(join);
                self.switch_to(join);
                self.val(IK::LoadLocal(tmp), ir::Type::Bool)
            }
            ExprKind::Cond(c, a, b) => {
                if e.lvalue {
                    let p = self.place(e);
                    return Some(self.load(p, t));
                }
                // Cheap, side-effect-free arms: a select.
                let cv = self.value(c);
                let (tb, eb, join) = (self.new_block(), self.new_block(), self.new_block());
                self.terminate(Terminator::Branch { cond: cv, then: tb, else_: eb });
                let tmp = if t == ir::Type::Void { None } else { Some(self.temp(t.clone())) };
                for (blk, x) in [(tb, a), (eb, b)] {
                    self.switch_to(blk);
                    let v = self.value_opt(x);
                    if let (Some(l), Some(v)) = (tmp, v) {
                        self.emit(IK::StoreLocal(l, v), None);
                    }
                    self.jump(join);
                }
                self.switch_to(join);
                let l = tmp?;
                self.reload(l)
            }
            ExprKind::Assign(..) | ExprKind::CompoundAssign { .. } | ExprKind::IncDec { .. } => {
                let (v, p) = self.assign_like(e);
                let post = matches!(e.kind, ExprKind::IncDec { post: true, .. });
                if let (Place::Bits { .. }, Some(v), false) = (p, v, post) {
                    // The value of a bit-field assignment is the field as stored (truncated).
                    let vt = self.vty(v).clone();
                    return Some(self.load(p, vt));
                }
                return v;
            }
            ExprKind::Comma(a, b) => {
                self.value_opt(a);
                return self.value_opt(b);
            }
            ExprKind::Call(fid, args) => {
                let refs: Vec<&Expr> = args.iter().collect();
                let vals = self.operands(&refs);
                let func = self.m.funcs[fid];
                return self.emit(IK::Call { func, args: vals }, Some(t));
            }
            ExprKind::Builtin(k, args) => return self.builtin(k, args, t),
            ExprKind::FuncRef(_) => self.iconst(0, ir::Type::I32),
            ExprKind::FuncAddr(fid) => self.func_addr(*fid, t),
            ExprKind::CallPtr(f, args) => return self.call_ptr(f, args, t),
            ExprKind::VirtualCall { slot, args, .. } => return self.virtual_call(*slot, args, t),
            ExprKind::VTable(r) => self.vtable_addr(*r, t),
            ExprKind::MemberFnPtr { fid, vslot } => self.member_fn_ptr(Some((*fid, *vslot)), t),
            ExprKind::CallMemberPtr { mfp, this, args } => return self.call_member_ptr(mfp, this, args, t),
            ExprKind::MemberFnPtrEq(a, b) => self.member_fn_ptr_eq(a, b),
            ExprKind::New(n) => self.new_expr(n, t),
            ExprKind::Delete(d) => {
                self.delete_expr(d);
                return None;
            }
            ExprKind::Temp(x) => self.value(x),
            ExprKind::InitTemp(_) | ExprKind::LocalInit(..) | ExprKind::Local(_) | ExprKind::Global(_) | ExprKind::Deref(_) | ExprKind::Member(..) | ExprKind::Str(_) => {
                let p = self.place(e);
                self.load(p, t)
            }
        })
    }

    /// Assignment, compound assignment, increment/decrement: (value, place of the lhs).
    fn assign_like(&mut self, e: &Expr) -> (Option<ValueId>, Place) {
        match &e.kind {
            ExprKind::Assign(l, r) => {
                // C++17: the right operand is sequenced before the left.
                let v = self.value(r);
                let v = if l.has_control_flow() { Err(self.spill(v)) } else { Ok(v) };
                let p = self.place(l);
                let v = match v {
                    Ok(v) => v,
                    Err(s) => self.reload(s),
                };
                self.store(p, v);
                (Some(v), p)
            }
            ExprKind::CompoundAssign { op, lhs, rhs, comp } => {
                let p = self.place(lhs);
                let p = self.place_keep(p, rhs);
                let lt = self.ty(&lhs.ty);
                let ct = self.ty(comp);
                if lt.is_pointer() {
                    let r = self.value(rhs);
                    let p = self.place_restore(p);
                    let old = self.load(p, lt.clone());
                    // `p -= u`: negate in 64 bits (see `p - u` in check/expr.rs).
                    let r = if *op == BinOp::Sub {
                        let wide = self.cast(r, &ir::Type::I64);
                        self.val(IK::Unary(ir::UnaryOp::Neg, wide), ir::Type::I64)
                    } else {
                        r
                    };
                    let nv = self.val(IK::PtrAdd { base: old, index: r }, lt);
                    self.store(p, nv);
                    return (Some(nv), p);
                }
                let fuse = self.m.opts.fmad && ct.is_float() && matches!(op, BinOp::Add | BinOp::Sub);
                if fuse && product_locals::loaded_local(rhs).is_some_and(|l| self.factors.contains_key(&ir::LocalId(l.0))) {
                    // `acc += t` with t = a*b
                    let p2 = self.place_restore(p);
                    let old = self.load(p2, lt.clone());
                    let oc = self.cast(old, &ct);
                    let (a, b) = self.local_factors(rhs).expect("factors of a product local");
                    let a = if *op == BinOp::Sub { self.val(IK::Unary(ir::UnaryOp::Neg, a), ct.clone()) } else { a };
                    let r = self.fma(&ct, a, b, oc);
                    let nv = self.cast(r, &lt);
                    self.store(p2, nv);
                    return (Some(nv), p2);
                }
                let fma = if fuse { self.fma_parts(rhs) } else { None };
                let nv = if let Some((a, b, neg)) = fma {
                    let v = self.operands(&[a, b]);
                    let p2 = self.place_restore(p);
                    let old = self.load(p2, lt.clone());
                    let oc = self.cast(old, &ct);
                    let a = if (*op == BinOp::Sub) != neg { self.val(IK::Unary(ir::UnaryOp::Neg, v[0]), ct.clone()) } else { v[0] };
                    let r = self.fma(&ct, a, v[1], oc);
                    let nv = self.cast(r, &lt);
                    self.store(p2, nv);
                    return (Some(nv), p2);
                } else {
                    let r = self.value(rhs);
                    let p2 = self.place_restore(p);
                    let old = self.load(p2, lt.clone());
                    let oc = self.cast(old, &ct);
                    let r = self.cast(r, &ct);
                    let res = self.val(IK::Binary(*op, oc, r), ct.clone());
                    if ct.is_float() && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) {
                        self.contractable.insert(res);
                    }
                    let nv = self.cast(res, &lt);
                    self.store(p2, nv);
                    (nv, p2)
                };
                (Some(nv.0), nv.1)
            }
            ExprKind::IncDec { inc, post, expr } => {
                let p = self.place(expr);
                let lt = self.ty(&expr.ty);
                let old = self.load(p, lt.clone());
                let nv = if lt.is_pointer() {
                    let one = self.iconst(if *inc { 1 } else { -1 }, ir::Type::I64);
                    self.val(IK::PtrAdd { base: old, index: one }, lt)
                } else if lt == ir::Type::Bool {
                    let c = self.iconst(*inc as i64, ir::Type::Bool);
                    c
                } else {
                    let one = self.iconst(1, lt.clone());
                    let op = if *inc { ir::BinaryOp::Add } else { ir::BinaryOp::Sub };
                    self.val(IK::Binary(op, old, one), lt)
                };
                self.store(p, nv);
                (Some(if *post { old } else { nv }), p)
            }
            _ => unreachable!(),
        }
    }

    fn builtin(&mut self, k: &BuiltinKind, args: &[Expr], t: ir::Type) -> Option<ValueId> {
        let refs: Vec<&Expr> = args.iter().collect();
        if let BuiltinKind::Barrier(kind) = k {
            let vals = self.operands(&refs);
            let next = self.new_block();
            let result = if matches!(kind, ir::BarrierKind::Sync | ir::BarrierKind::Grid) { None } else { Some(self.temp(ir::Type::I32)) };
            self.terminate(Terminator::Barrier { kind: *kind, pred: vals.first().copied(), result, next });
            self.switch_to(next);
            let r = result?;
            let v = self.reload(r);
            return Some(self.cast(v, &t));
        }
        if let BuiltinKind::Warp(op) = k {
            let mut vals = self.operands(&refs);
            // `__match_all_sync`'s predicate pointer is used after the cut: keep it in a local.
            let pred_ptr = if *op == ir::WarpOp::MatchAll { vals.pop().map(|p| self.spill(p)) } else { None };
            let rtys: Vec<ir::Type> = match op {
                ir::WarpOp::Shfl(_) | ir::WarpOp::Reduce(_) => vec![t.clone()],
                ir::WarpOp::Vote(ir::VoteKind::Ballot) | ir::WarpOp::ActiveMask | ir::WarpOp::MatchAny => {
                    vec![ir::Type::U32]
                }
                ir::WarpOp::Vote(_) => vec![ir::Type::I32],
                ir::WarpOp::SyncWarp | ir::WarpOp::Lockstep | ir::WarpOp::Yield => vec![],
                ir::WarpOp::MatchAll => vec![ir::Type::U32, ir::Type::I32],
            };
            let results: Vec<ir::LocalId> = rtys.into_iter().map(|rt| self.temp(rt)).collect();
            let next = self.new_block();
            self.terminate(Terminator::Warp { op: *op, args: vals, results: results.clone(), next });
            self.switch_to(next);
            if let Some(pl) = pred_ptr {
                let p = self.reload(pl);
                let pv = self.reload(results[1]);
                self.emit(IK::Store { ptr: p, value: pv, volatile: false }, None);
            }
            let r = *results.first()?;
            let v = self.reload(r);
            return Some(self.cast(v, &t));
        }
        let vals = self.operands(&refs);
        let b = match k {
            BuiltinKind::Math(f) => ir::Builtin::Math(*f),
            BuiltinKind::Printf => ir::Builtin::Printf,
            BuiltinKind::AssertFail => ir::Builtin::AssertFail,
            BuiltinKind::Trap => ir::Builtin::Trap,
            BuiltinKind::Clock => ir::Builtin::Clock,
            BuiltinKind::Clock64 => ir::Builtin::Clock64,
            BuiltinKind::Fence(s) => ir::Builtin::Fence(*s),
            BuiltinKind::Atomic { op, scope } => ir::Builtin::Atomic { op: *op, scope: *scope },
            BuiltinKind::Malloc => ir::Builtin::Malloc,
            BuiltinKind::Free => ir::Builtin::Free,
            BuiltinKind::Memcpy => ir::Builtin::Memcpy,
            BuiltinKind::Memset => ir::Builtin::Memset,
            BuiltinKind::Barrier(_) | BuiltinKind::Warp(_) => unreachable!(),
        };
        self.emit(IK::CallBuiltin { builtin: b, args: vals }, Some(t))
    }

    // ------------------------------------------------------------ statements

    fn label_block(&mut self, id: u32) -> BlockId {
        if let Some(b) = self.labels.get(&id) {
            return *b;
        }
        let b = self.new_block();
        self.labels.insert(id, b);
        b
    }

    fn cond_branch(&mut self, c: &Expr, then: BlockId, else_: BlockId) {
        let v = self.value(c);
        self.terminate(Terminator::Branch { cond: v, then, else_ });
    }

    fn stmt(&mut self, s: &Stmt) -> () {
        crate::deep(|| self.stmt_here(s))
    }

    fn stmt_here(&mut self, s: &Stmt) {
        if !matches!(s.kind, StmtKind::Block(_)) {
            if let Some(l) = self.m.loc(s.span) {
                self.loc = Some(l);
            }
        }
        match &s.kind {
            StmtKind::Expr(e) => {
                self.value_opt(e);
            }
            StmtKind::Decl(l, Some(Init::Expr(e))) if self.fusible.contains(l) => self.declare_product_local(*l, e),
            StmtKind::Decl(l, init) => {
                if let Some(i) = init {
                    self.init(Place::Local(ir::LocalId(l.0)), i);
                }
            }
            StmtKind::InitAt(e, i) => {
                let p = self.place(e);
                self.init(p, i);
            }
            StmtKind::Block(v) => {
                for s in v {
                    self.stmt(s);
                }
            }
            StmtKind::If(c, t, e) => {
                let (tb, join) = (self.new_block(), self.new_block());
                let eb = if e.is_some() { self.new_block() } else { join };
                self.cond_branch(c, tb, eb);
                self.switch_to(tb);
                self.stmt(t);
                self.jump(join);
                if let Some(e) = e {
                    self.switch_to(eb);
                    self.stmt(e);
                    self.jump(join);
                }
                self.switch_to(join);
            }
            StmtKind::While(c, body) => {
                let (head, bb, exit) = (self.new_block(), self.new_block(), self.new_block());
                self.jump(head);
                self.switch_to(head);
                self.cond_branch(c, bb, exit);
                self.switch_to(bb);
                self.breaks.push(exit);
                self.conts.push(head);
                self.stmt(body);
                self.breaks.pop();
                self.conts.pop();
                self.jump(head);
                self.switch_to(exit);
            }
            StmtKind::DoWhile(body, c) => {
                let (bb, cond, exit) = (self.new_block(), self.new_block(), self.new_block());
                self.jump(bb);
                self.switch_to(bb);
                self.breaks.push(exit);
                self.conts.push(cond);
                self.stmt(body);
                self.breaks.pop();
                self.conts.pop();
                self.jump(cond);
                self.switch_to(cond);
                self.cond_branch(c, bb, exit);
                self.switch_to(exit);
            }
            StmtKind::For(init, c, step, body) => {
                if let Some(i) = init {
                    self.stmt(i);
                }
                let (head, bb, stp, exit) = (self.new_block(), self.new_block(), self.new_block(), self.new_block());
                self.jump(head);
                self.switch_to(head);
                match c {
                    Some(c) => self.cond_branch(c, bb, exit),
                    None => self.jump(bb),
                }
                self.switch_to(bb);
                self.breaks.push(exit);
                self.conts.push(stp);
                self.stmt(body);
                self.breaks.pop();
                self.conts.pop();
                self.jump(stp);
                self.switch_to(stp);
                if let Some(st) = step {
                    self.value_opt(st);
                }
                self.jump(head);
                self.switch_to(exit);
            }
            StmtKind::Switch { cond, body, cases, default } => {
                let v = self.value(cond);
                let exit = self.new_block();
                let cs: Vec<(i64, BlockId)> = cases.iter().map(|(val, id)| (*val, self.label_block(*id))).collect();
                let d = match default {
                    Some(id) => self.label_block(*id),
                    None => exit,
                };
                self.terminate(Terminator::Switch { value: v, cases: cs, default: d });
                let dead = self.new_block();
                self.switch_to(dead);
                self.breaks.push(exit);
                self.stmt(body);
                self.breaks.pop();
                self.jump(exit);
                self.switch_to(exit);
            }
            StmtKind::Case(id, body) | StmtKind::Label(id, body) => {
                let b = self.label_block(*id);
                self.jump(b);
                self.switch_to(b);
                self.stmt(body);
            }
            StmtKind::Break => {
                if let Some(b) = self.breaks.last().copied() {
                    self.terminate(Terminator::Jump(b));
                }
            }
            StmtKind::Continue => {
                if let Some(b) = self.conts.last().copied() {
                    self.terminate(Terminator::Jump(b));
                }
            }
            StmtKind::Return(e) => {
                let v = e.as_ref().and_then(|e| self.value_opt(e));
                let v = match v {
                    Some(v) => {
                        let rt = self.f.ret.clone();
                        Some(if self.vty(v) != rt && rt.scalar_size().is_some() { self.cast(v, &rt) } else { v })
                    }
                    None => None,
                };
                self.terminate(Terminator::Return(v));
            }
            StmtKind::Goto(id) => {
                let b = self.label_block(*id);
                self.terminate(Terminator::Jump(b));
            }
            StmtKind::Asm(a) => self.asm(a),
            StmtKind::Empty => {}
        }
    }
}
