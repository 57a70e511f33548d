//! One function: its signature in the PTX ABI, its registers and local frame, its
//! blocks and their terminators.
//!
//! Every SSA value has a register of its own (registers are function-wide in PTX, so
//! values that cross blocks need nothing more). Scalar locals whose address is never
//! taken are registers too; the others, and every aggregate, live in the function's
//! `.local` frame (`__local_depot<f>`, addressed through `%SPL` / generically `%SP`, the
//! way the ABI lays out recursive frames).

use super::types::{self, class, is_aggregate, Class};
use super::{EmitError, Names};
use crate::isa::Target;
use cuprite_ir::{BarrierKind, BlockId, Function, FunctionKind, InstKind, LocalId, Module, SrcLoc, Terminator, Type, ValueId};
use std::fmt::Write;

/// Where a local lives.
#[derive(Clone, Debug)]
pub enum Home {
    Reg(String),
    /// Byte offset in the frame.
    Slot(u64),
}

/// A memory operand base: a state space (`""` generic, `.param`, `.local`) and the
/// register or symbol the offsets apply to.
#[derive(Clone, Debug)]
pub struct Mem {
    pub space: &'static str,
    pub base: String,
}

pub struct Fx<'a> {
    pub m: &'a Module,
    pub names: &'a Names,
    pub target: Target,
    pub fi: usize,
    pub f: &'a Function,
    pub name: String,
    pub body: String,
    counts: [u32; 5],
    value_regs: Vec<Option<String>>,
    pub homes: Vec<Home>,
    depot: u64,
    depot_align: u64,
    labels: u32,
    pub loc: Option<SrcLoc>,
    /// Per value: the state space it certainly points into (`spaces.rs`).
    pub ptr_space: Vec<super::spaces::PtrSpace>,
    /// Per value: its 32-bit shared-window address register, if it has one (`shared32.rs`).
    pub shared32: Vec<Option<String>>,
    /// Per local: the shadow register of a local that only holds shared pointers.
    pub local32: Vec<Option<String>>,
}

pub fn is_kernel(f: &Function) -> bool {
    matches!(f.kind, FunctionKind::Kernel { .. })
}

/// `.param` declaration of parameter `i` of a kernel (C layout: the driver copies
/// arguments by these sizes) or of a `.func` (scalars widened to 32 bits).
fn param_decl(m: &Module, kernel: bool, name: &str, i: usize, ty: &Type) -> String {
    if is_aggregate(ty) {
        let (size, align) = m.layout(ty);
        return format!(".param .align {align} .b8 {name}_param_{i}[{size}]");
    }
    if kernel {
        format!(".param .{} {name}_param_{i}", types::mem_suffix(ty).unwrap_or("u64"))
    } else {
        format!(".param {} {name}_param_{i}", types::func_param_type(ty))
    }
}

fn ret_decl(m: &Module, ty: &Type) -> String {
    if *ty == Type::Void {
        return String::new();
    }
    if is_aggregate(ty) {
        let (size, align) = m.layout(ty);
        return format!("(.param .align {align} .b8 func_retval0[{size}]) ");
    }
    format!("(.param {} func_retval0) ", types::func_param_type(ty))
}

/// The signature line(s) of a function, without the terminating `;` or body.
fn signature(m: &Module, names: &Names, index: usize, f: &Function) -> String {
    let name = &names.functions[index];
    let kernel = is_kernel(f);
    let params: Vec<String> = f.params.iter().enumerate().map(|(i, l)| format!("\t{}", param_decl(m, kernel, name, i, &f.local(*l).ty))).collect();
    let head = if kernel {
        format!(".visible .entry {name}")
    } else if f.blocks.is_empty() {
        format!(".extern .func {}{name}", ret_decl(m, &f.ret))
    } else {
        format!(".func {}{name}", ret_decl(m, &f.ret))
    };
    if params.is_empty() {
        format!("{head}()")
    } else {
        format!("{head}(\n{}\n)", params.join(",\n"))
    }
}

/// A device function's forward declaration.
pub fn prototype(m: &Module, names: &Names, index: usize, f: &Function) -> Result<String, EmitError> {
    Ok(format!("{};\n", signature(m, names, index, f)))
}

/// A function's definition.
pub fn emit(m: &Module, names: &Names, target: Target, index: usize, f: &Function) -> Result<String, EmitError> {
    let mut fx = Fx {
        m,
        names,
        target,
        fi: index,
        f,
        name: names.functions[index].clone(),
        body: String::new(),
        counts: [0; 5],
        value_regs: vec![None; f.values.len()],
        homes: Vec::new(),
        depot: 0,
        depot_align: 8,
        labels: 0,
        loc: f.loc,
        ptr_space: super::spaces::pointer_spaces(m, f),
        shared32: vec![None; f.values.len()],
        local32: Vec::new(),
    };
    fx.assign_homes();
    fx.plan_shared_locals();
    fx.load_params()?;
    for (bi, b) in f.blocks.iter().enumerate() {
        let _ = writeln!(fx.body, "{}:", fx.block_label(BlockId(bi as u32)));
        for inst in &b.insts {
            fx.loc = inst.loc.or(fx.loc);
            fx.inst(inst)?;
            fx.shadow_shared(inst)?;
        }
        fx.loc = b.term_loc.or(fx.loc);
        fx.terminator(&b.term)?;
    }
    let mut out = signature(m, names, index, f);
    out.push('\n');
    if let FunctionKind::Kernel { max_threads, min_blocks, .. } = &f.kind {
        if let Some(t) = max_threads {
            let _ = writeln!(out, ".maxntid {t}, 1, 1");
        }
        if let Some(b) = min_blocks {
            let _ = writeln!(out, ".minnctapersm {b}");
        }
    }
    out.push_str("{\n");
    if fx.depot > 0 {
        let _ = writeln!(out, "\t.local .align {} .b8 __local_depot{}[{}];", fx.depot_align, index, fx.depot);
        out.push_str("\t.reg .b64 %SP;\n\t.reg .b64 %SPL;\n");
    }
    for (i, c) in Class::ALL.iter().enumerate() {
        if fx.counts[i] > 0 {
            let _ = writeln!(out, "\t.reg {} {}<{}>;", c.reg_type(), c.prefix(), fx.counts[i]);
        }
    }
    if fx.depot > 0 {
        let _ = writeln!(out, "\tmov.u64 %SPL, __local_depot{index};");
        out.push_str("\tcvta.local.u64 %SP, %SPL;\n");
    }
    out.push_str(&fx.body);
    out.push_str("}\n");
    Ok(out)
}

impl<'a> Fx<'a> {
    pub fn err(&self, message: impl Into<String>) -> EmitError {
        EmitError::at(self.m, self.loc, message)
    }

    /// Appends one instruction (without its `;`).
    pub fn emit(&mut self, line: impl AsRef<str>) {
        let _ = writeln!(self.body, "\t{};", line.as_ref());
    }

    pub fn tmp(&mut self, c: Class) -> String {
        let i = Class::ALL.iter().position(|x| *x == c).unwrap();
        let n = self.counts[i];
        self.counts[i] += 1;
        format!("{}{n}", c.prefix())
    }

    pub fn vty(&self, v: ValueId) -> &'a Type {
        self.f.value_type(v)
    }

    /// The register of a value (aggregates: the register holding its slot's address).
    pub fn v(&mut self, v: ValueId) -> Result<String, EmitError> {
        if let Some(r) = &self.value_regs[v.index()] {
            return Ok(r.clone());
        }
        let c = class(self.vty(v)).ok_or_else(|| self.err(format!("internal error: value %{} of type void is used", v.0)))?;
        let r = self.tmp(c);
        self.value_regs[v.index()] = Some(r.clone());
        Ok(r)
    }

    /// A new label, unique in the module.
    pub fn label(&mut self) -> String {
        self.labels += 1;
        format!("$L__cu{}_{}", self.fi, self.labels)
    }

    pub fn place_label(&mut self, l: &str) {
        let _ = writeln!(self.body, "{l}:");
    }

    pub fn block_label(&self, b: BlockId) -> String {
        format!("$L__BB{}_{}", self.fi, b.0)
    }

    /// Reserves `size` bytes of the frame.
    pub fn slot(&mut self, size: u64, align: u64) -> u64 {
        let align = align.max(1);
        self.depot = self.depot.div_ceil(align) * align;
        let off = self.depot;
        self.depot += size.max(1);
        self.depot_align = self.depot_align.max(align);
        off
    }

    /// Defines an aggregate value: a fresh slot, its address in the value's register.
    pub fn def_aggregate(&mut self, v: ValueId) -> Result<String, EmitError> {
        self.def_aggregate_slot(v)?;
        self.v(v)
    }

    /// `def_aggregate`, giving the slot's offset in the frame (for `.local` accesses).
    pub fn def_aggregate_slot(&mut self, v: ValueId) -> Result<u64, EmitError> {
        let (size, align) = self.m.layout(self.vty(v));
        let off = self.slot(size, align);
        let r = self.v(v)?;
        self.emit(format!("add.u64 {r}, %SP, {off}"));
        Ok(off)
    }

    fn assign_homes(&mut self) {
        let mut addressed = vec![false; self.f.locals.len()];
        for b in &self.f.blocks {
            for i in &b.insts {
                if let InstKind::LocalAddr(l) = i.kind {
                    addressed[l.index()] = true;
                }
            }
        }
        for (i, l) in self.f.locals.iter().enumerate() {
            let home = if addressed[i] || is_aggregate(&l.ty) || class(&l.ty).is_none() {
                let (size, align) = self.m.layout(&l.ty);
                Home::Slot(self.slot(size, l.align.unwrap_or(align).max(align)))
            } else {
                Home::Reg(self.tmp(class(&l.ty).unwrap()))
            };
            self.homes.push(home);
        }
    }

    /// Copies `size` bytes between two memory operands, in units their alignment allows.
    pub fn copy_mem(&mut self, dst: &Mem, dst_off: u64, src: &Mem, src_off: u64, size: u64, align: u64) {
        let unit = [8u64, 4, 2, 1].into_iter().find(|u| *u <= align.max(1) && size % u == 0).unwrap_or(1);
        let (suffix, c) = match unit {
            8 => ("b64", Class::B64),
            4 => ("b32", Class::B32),
            2 => ("u16", Class::B32),
            _ => ("u8", Class::B32),
        };
        let count = size / unit;
        let unrolled = count <= 32 || dst.space == ".param" || src.space == ".param";
        let param = dst.space == ".param" || src.space == ".param";
        if unit == 8 && align >= 16 && size % 16 == 0 && count <= 32 && !param {
            // Pairs as one vector access (`float4`, `double2`), as nvcc moves them.
            let (a, b) = (self.tmp(Class::B64), self.tmp(Class::B64));
            for k in 0..size / 16 {
                let o = k * 16;
                self.emit(format!("ld{}.v2.b64 {{{a}, {b}}}, [{}+{}]", src.space, src.base, src_off + o));
                self.emit(format!("st{}.v2.b64 [{}+{}], {{{a}, {b}}}", dst.space, dst.base, dst_off + o));
            }
            return;
        }
        let t = self.tmp(c);
        if unrolled {
            for k in 0..count {
                let o = k * unit;
                self.emit(format!("ld{}.{suffix} {t}, [{}+{}]", src.space, src.base, src_off + o));
                self.emit(format!("st{}.{suffix} [{}+{}], {t}", dst.space, dst.base, dst_off + o));
            }
            return;
        }
        // A loop over generic or local addresses.
        let (i, s, d) = (self.tmp(Class::B64), self.tmp(Class::B64), self.tmp(Class::B64));
        let p = self.tmp(Class::Pred);
        let top = self.label();
        self.emit(format!("mov.u64 {i}, 0"));
        self.place_label(&top);
        self.emit(format!("add.u64 {s}, {}, {i}", src.base));
        self.emit(format!("ld{}.{suffix} {t}, [{s}+{src_off}]", src.space));
        self.emit(format!("add.u64 {d}, {}, {i}", dst.base));
        self.emit(format!("st{}.{suffix} [{d}+{dst_off}], {t}", dst.space));
        self.emit(format!("add.u64 {i}, {i}, {unit}"));
        self.emit(format!("setp.lt.u64 {p}, {i}, {size}"));
        self.emit(format!("@{p} bra {top}"));
    }

    pub fn generic(reg: &str) -> Mem {
        Mem { space: "", base: reg.to_string() }
    }

    /// Reads a local into `dst` (scalar) or into a fresh copy (aggregate value `v`).
    pub fn load_local(&mut self, l: LocalId, v: ValueId) -> Result<(), EmitError> {
        let ty = &self.f.local(l).ty;
        match self.homes[l.index()].clone() {
            Home::Reg(r) => {
                let d = self.v(v)?;
                let bits = class(ty).unwrap().bits();
                self.emit(format!("mov.{bits} {d}, {r}"));
            }
            Home::Slot(off) if is_aggregate(ty) => {
                let (size, align) = self.m.layout(ty);
                let d = self.def_aggregate(v)?;
                let sp = Mem { space: ".local", base: "%SPL".into() };
                self.copy_mem(&Self::generic(&d), 0, &sp, off, size, align);
            }
            Home::Slot(off) => {
                let d = self.v(v)?;
                self.load_scalar(&d, ty, ".local", &format!("%SPL+{off}"), false);
            }
        }
        Ok(())
    }

    /// Writes register `src` (or the aggregate at address `src`) into a local.
    pub fn store_local(&mut self, l: LocalId, src: &str) {
        let ty = self.f.local(l).ty.clone();
        match self.homes[l.index()].clone() {
            Home::Reg(r) => {
                let bits = class(&ty).unwrap().bits();
                self.emit(format!("mov.{bits} {r}, {src}"));
            }
            Home::Slot(off) if is_aggregate(&ty) => {
                let (size, align) = self.m.layout(&ty);
                let sp = Mem { space: ".local", base: "%SPL".into() };
                self.copy_mem(&sp, off, &Self::generic(src), 0, size, align);
            }
            Home::Slot(off) => self.store_scalar(&ty, ".local", &format!("%SPL+{off}"), src, false),
        }
    }

    /// `ld` of a scalar of type `ty` into register `d` (a `Bool` reads a byte).
    /// The state space and address to access memory through pointer value `ptr` (in
    /// register `reg`): `.global` when the pointer certainly addresses global memory.
    /// `space_of` for an access of `size` bytes (0: a scalar) through `ptr`, with a
    /// 32-bit window address for shared pointers (`shared32.rs`) where the copy is
    /// unrolled (a copy loop steps its address in 64 bits).
    pub fn access(&mut self, ptr: ValueId, reg: String, size: u64) -> Result<(&'static str, String), EmitError> {
        if size <= 32 {
            if let Some(a) = self.shared_access(ptr)? {
                return Ok((".shared", a));
            }
        }
        Ok(self.space_of(ptr, reg))
    }

    pub fn space_of(&mut self, ptr: ValueId, reg: String) -> (&'static str, String) {
        let space = self.ptr_space.get(ptr.index()).copied().unwrap_or(super::spaces::PtrSpace::Generic);
        if let Some((suffix, cvta)) = space.suffix() {
            let g = self.tmp(Class::B64);
            self.emit(format!("cvta.to.{cvta}.u64 {g}, {reg}"));
            (suffix, g)
        } else {
            ("", reg)
        }
    }

    pub fn load_scalar(&mut self, d: &str, ty: &Type, space: &str, addr: &str, volatile: bool) {
        let vol = if volatile { ".volatile" } else { "" };
        let suffix = types::mem_suffix(ty).unwrap_or("u64");
        if *ty == Type::Bool {
            let t = self.tmp(Class::B32);
            self.emit(format!("ld{vol}{space}.u8 {t}, [{addr}]"));
            self.emit(format!("setp.ne.u32 {d}, {t}, 0"));
        } else {
            self.emit(format!("ld{vol}{space}.{suffix} {d}, [{addr}]"));
        }
    }

    pub fn store_scalar(&mut self, ty: &Type, space: &str, addr: &str, src: &str, volatile: bool) {
        let vol = if volatile { ".volatile" } else { "" };
        let suffix = types::mem_suffix(ty).unwrap_or("u64");
        if *ty == Type::Bool {
            let t = self.tmp(Class::B32);
            self.emit(format!("selp.u32 {t}, 1, 0, {src}"));
            self.emit(format!("st{vol}{space}.u8 [{addr}], {t}"));
        } else {
            self.emit(format!("st{vol}{space}.{suffix} [{addr}], {src}"));
        }
    }

    /// A predicate as a 32-bit 0/1.
    pub fn pred_to_u32(&mut self, p: &str) -> String {
        let t = self.tmp(Class::B32);
        self.emit(format!("selp.u32 {t}, 1, 0, {p}"));
        t
    }

    fn load_params(&mut self) -> Result<(), EmitError> {
        let kernel = is_kernel(self.f);
        for (i, l) in self.f.params.clone().into_iter().enumerate() {
            let ty = self.f.local(l).ty.clone();
            let pname = format!("{}_param_{i}", self.name);
            if is_aggregate(&ty) {
                let Home::Slot(off) = self.homes[l.index()] else { unreachable!("aggregates live in the frame") };
                let (size, align) = self.m.layout(&ty);
                let sp = Mem { space: ".local", base: "%SPL".into() };
                let pm = Mem { space: ".param", base: pname };
                self.copy_mem(&sp, off, &pm, 0, size, align);
                continue;
            }
            let c = class(&ty).unwrap();
            let r = self.tmp(c);
            if kernel {
                self.load_scalar(&r, &ty, ".param", &pname, false);
            } else if c == Class::Pred {
                let t = self.tmp(Class::B32);
                self.emit(format!("ld.param.b32 {t}, [{pname}]"));
                self.emit(format!("setp.ne.u32 {r}, {t}, 0"));
            } else {
                let suffix = match c {
                    Class::F32 => "f32",
                    Class::F64 => "f64",
                    Class::B64 => "b64",
                    _ => "b32",
                };
                self.emit(format!("ld.param.{suffix} {r}, [{pname}]"));
            }
            self.store_local(l, &r);
        }
        Ok(())
    }

    fn terminator(&mut self, t: &Terminator) -> Result<(), EmitError> {
        match t {
            Terminator::Jump(b) => {
                let l = self.block_label(*b);
                self.emit(format!("bra {l}"));
            }
            Terminator::Branch { cond, then, else_ } => {
                let p = self.v(*cond)?;
                let (lt, le) = (self.block_label(*then), self.block_label(*else_));
                self.emit(format!("@{p} bra {lt}"));
                self.emit(format!("bra {le}"));
            }
            Terminator::Switch { value, cases, default } => {
                let r = self.v(*value)?;
                let ty = self.vty(*value);
                let wide = class(ty) == Some(Class::B64);
                let p = self.tmp(Class::Pred);
                for (c, b) in cases {
                    let imm = if wide { imm64(*c) } else { (*c as i32).to_string() };
                    let l = self.block_label(*b);
                    self.emit(format!("setp.eq.{} {p}, {r}, {imm}", if wide { "s64" } else { "s32" }));
                    self.emit(format!("@{p} bra {l}"));
                }
                let l = self.block_label(*default);
                self.emit(format!("bra {l}"));
            }
            Terminator::Return(v) => {
                if let (Some(v), false) = (v, is_kernel(self.f)) {
                    self.store_return(*v)?;
                }
                self.emit("ret");
            }
            Terminator::Barrier { kind, pred, result, next } => {
                match kind {
                    BarrierKind::Sync => self.emit("bar.sync 0"),
                    BarrierKind::Grid => self.grid_barrier(),
                    _ => {
                        let p = self.v(pred.ok_or_else(|| self.err("internal error: predicate barrier without predicate"))?)?;
                        let r = self.tmp(Class::B32);
                        match kind {
                            BarrierKind::Count => self.emit(format!("bar.red.popc.u32 {r}, 0, {p}")),
                            BarrierKind::And | BarrierKind::Or => {
                                let q = self.tmp(Class::Pred);
                                let op = if *kind == BarrierKind::And { "and" } else { "or" };
                                self.emit(format!("bar.red.{op}.pred {q}, 0, {p}"));
                                self.emit(format!("selp.u32 {r}, 1, 0, {q}"));
                            }
                            BarrierKind::Sync | BarrierKind::Grid => unreachable!(),
                        }
                        if let Some(l) = result {
                            let lt = self.f.local(*l).ty.clone();
                            let d = super::inst::convert_reg(self, &r, &Type::I32, &lt)?;
                            self.store_local(*l, &d);
                        }
                    }
                }
                let l = self.block_label(*next);
                self.emit(format!("bra {l}"));
            }
            Terminator::Warp { op, args, results, next } => {
                self.warp(*op, args, results)?;
                let l = self.block_label(*next);
                self.emit(format!("bra {l}"));
            }
            Terminator::Unreachable => self.emit("trap"),
        }
        Ok(())
    }

    fn store_return(&mut self, v: ValueId) -> Result<(), EmitError> {
        let ty = self.vty(v).clone();
        let r = self.v(v)?;
        if is_aggregate(&ty) {
            let (size, align) = self.m.layout(&ty);
            let pm = Mem { space: ".param", base: "func_retval0".into() };
            self.copy_mem(&pm, 0, &Self::generic(&r), 0, size, align);
            return Ok(());
        }
        let (suffix, src) = match class(&ty) {
            Some(Class::Pred) => ("b32", self.pred_to_u32(&r)),
            Some(Class::F32) => ("f32", r),
            Some(Class::F64) => ("f64", r),
            Some(Class::B64) => ("b64", r),
            _ => ("b32", r),
        };
        self.emit(format!("st.param.{suffix} [func_retval0], {src}"));
        Ok(())
    }
}

/// A 64-bit integer immediate PTX reads back exactly.
pub fn imm64(v: i64) -> String {
    if v == i64::MIN {
        "0x8000000000000000U".into()
    } else {
        v.to_string()
    }
}
