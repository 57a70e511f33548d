//! Typed HIR → IR: types and struct layouts, globals and their constant initializers,
//! the reachable device functions (`func.rs`).

mod contract_inlined;
mod func;
mod vtable;

use crate::check::{eval_const, CVal};
use crate::hir::*;
use crate::ty::*;
use crate::{Locate, SemaOptions};
use cuprite_front::ast::Span;
use cuprite_ir as ir;
use std::collections::HashMap;

pub(crate) struct ModLower<'a> {
    pub prog: &'a Program,
    pub opts: &'a SemaOptions,
    pub locate: &'a dyn Locate,
    pub module: ir::Module,
    structs: HashMap<RecId, ir::StructId>,
    /// For each lowered record: the IR field of each HIR field. A bit-field maps to the
    /// byte-array field (`__bfN`) that stands for its run of bit-field bytes.
    field_map: HashMap<RecId, Vec<u32>>,
    pub funcs: HashMap<FnId, ir::FuncId>,
    pub globals: HashMap<GVarId, ir::GlobalId>,
    files: HashMap<String, ir::FileId>,
    /// Vtables made so far (`vtable.rs`).
    vtables: HashMap<RecId, ir::GlobalId>,
    /// The IR struct of pointers to member functions (`{u64 ptr; i64 adj;}`), once used.
    memfn_struct: Option<ir::StructId>,
    /// Per lowered function, the float `*`, `+`, `-` that source operators made (the
    /// ones contraction after inlining may fuse, `contract_inlined.rs`).
    contractable: contract_inlined::Contractable,
}

impl<'a> ModLower<'a> {
    pub fn loc(&mut self, span: Span) -> Option<ir::SrcLoc> {
        let (file, line, col) = self.locate.locate(span)?;
        let n = self.files.len() as u32;
        let id = *self.files.entry(file.clone()).or_insert_with(|| {
            self.module.files.push(file);
            ir::FileId(n)
        });
        Some(ir::SrcLoc { file: id, line, col })
    }

    pub fn int_ty(k: IntKind) -> ir::Type {
        match (k.size(), k.signed()) {
            (1, true) => ir::Type::I8,
            (1, false) => ir::Type::U8,
            (2, true) => ir::Type::I16,
            (2, false) => ir::Type::U16,
            (4, true) => ir::Type::I32,
            (4, false) => ir::Type::U32,
            (_, true) => ir::Type::I64,
            (_, false) => ir::Type::U64,
        }
    }

    pub fn ty(&mut self, t: &Ty) -> ir::Type {
        match t {
            Ty::Error => ir::Type::I32,
            Ty::Void => ir::Type::Void,
            Ty::Bool => ir::Type::Bool,
            Ty::Int(k) => Self::int_ty(*k),
            Ty::Float => ir::Type::F32,
            Ty::Double => ir::Type::F64,
            Ty::Nullptr => ir::Type::Ptr(Box::new(ir::Type::Void)),
            Ty::Ptr(p) | Ty::Ref(p) => match &p.ty {
                Ty::Func(f) => ir::Type::FnPtr(Box::new(self.sig(f))),
                other => ir::Type::Ptr(Box::new(self.ty(other))),
            },
            Ty::Array(e, n) => ir::Type::Array(Box::new(self.ty(&e.ty)), n.unwrap_or(0)),
            Ty::Record(r) => ir::Type::Struct(self.record(*r)),
            Ty::Enum(e) => Self::int_ty(self.prog.types.enm(*e).underlying),
            Ty::Func(f) => ir::Type::FnPtr(Box::new(self.sig(f))),
            Ty::MemberPtr { pointee, .. } if matches!(pointee.ty, Ty::Func(_)) => ir::Type::Struct(self.memfn_struct()),
            Ty::MemberPtr { .. } => ir::Type::I64,
        }
    }

    /// The IR struct of a pointer to member function: `{ptr, adj}` (Itanium C++ ABI).
    pub fn memfn_struct(&mut self) -> ir::StructId {
        if let Some(s) = self.memfn_struct {
            return s;
        }
        let id = ir::StructId(self.module.structs.len() as u32);
        let fields = vec![
            ir::Field { name: "ptr".into(), ty: ir::Type::U64, offset: 0 },
            ir::Field { name: "adj".into(), ty: ir::Type::I64, offset: 8 },
        ];
        self.module.structs.push(ir::StructDef { name: "__member_fn_ptr".into(), is_union: false, fields, size: 16, align: 8 });
        self.memfn_struct = Some(id);
        id
    }

    fn sig(&mut self, f: &FnTy) -> ir::Signature {
        ir::Signature {
            params: f.params.iter().map(|p| self.ty(&p.ty)).collect(),
            ret: self.ty(&f.ret.ty),
            variadic: f.variadic,
        }
    }

    fn record(&mut self, r: RecId) -> ir::StructId {
        if let Some(s) = self.structs.get(&r) {
            return *s;
        }
        let d = self.prog.types.rec(r);
        let id = ir::StructId(self.module.structs.len() as u32);
        self.structs.insert(r, id);
        let base = match &d.name {
            Some(n) => {
                let mut s = d.scope.join("::");
                if !s.is_empty() {
                    s.push_str("::");
                }
                s + n
            }
            None => format!("anon.{}", r.0),
        };
        let mut name = base.clone();
        let mut k = 1;
        while self.module.structs.iter().any(|s| s.name == name) {
            k += 1;
            name = format!("{base}.{k}");
        }
        self.module.structs.push(ir::StructDef { name, is_union: d.is_union, fields: vec![], size: d.size, align: d.align });
        let mut fields: Vec<ir::Field> = Vec::new();
        let mut map = Vec::new();
        // The bytes holding bit-fields belong to no other member: each maximal run of
        // them becomes one `unsigned char __bfN[n]` field (for layout and constant
        // initializers); the bit-fields themselves are read and written through the
        // record's address (see `func.rs`).
        let mut run: Option<(u64, u64, u32)> = None; // (first byte, end byte, IR field)
        let mut nbf = 0;
        for (i, f) in d.fields.iter().flatten().enumerate() {
            if let Some(bf) = f.bits {
                let (b0, b1) = bf.bytes();
                match run {
                    Some((start, end, k)) if !d.is_union && b0 <= end => {
                        let end = end.max(b1);
                        run = Some((start, end, k));
                        map.push(k);
                        fields[k as usize].ty = ir::Type::Array(Box::new(ir::Type::U8), (end - start).max(1));
                    }
                    _ => {
                        let k = fields.len() as u32;
                        fields.push(ir::Field {
                            name: format!("__bf{nbf}"),
                            ty: ir::Type::Array(Box::new(ir::Type::U8), (b1 - b0).max(1)),
                            offset: b0,
                        });
                        nbf += 1;
                        run = Some((b0, b1, k));
                        map.push(k);
                    }
                }
                continue;
            }
            run = None;
            let mut ty = self.ty(&f.ty.ty);
            // A base subobject whose tail padding holds the next members: its bytes up to
            // the next member (the C struct could not overlap them).
            if f.name.is_none() && matches!(f.ty.ty, Ty::Record(_)) {
                let size = self.prog.types.layout(&f.ty.ty).map(|l| l.0).unwrap_or(0);
                if let Some(next) = d.fields.iter().flatten().nth(i + 1) {
                    if next.offset < f.offset + size {
                        ty = ir::Type::Array(Box::new(ir::Type::U8), next.offset - f.offset);
                    }
                }
            }
            map.push(fields.len() as u32);
            fields.push(ir::Field { name: f.name.clone().unwrap_or_else(|| format!("__anon{i}")), ty, offset: f.offset });
        }
        self.module.structs[id.index()].fields = fields;
        self.field_map.insert(r, map);
        id
    }

    /// The IR field that HIR field `idx` of record `r` lives in.
    pub fn ir_field(&mut self, r: RecId, idx: u32) -> u32 {
        self.record(r);
        self.field_map[&r][idx as usize]
    }

    fn const_of(&mut self, v: CVal, t: &Ty) -> Option<ir::Init> {
        let irt = self.ty(t);
        Some(match v {
            CVal::Int(i) => ir::Init::Scalar(match irt {
                ir::Type::Bool => ir::Const::Bool(i != 0),
                ir::Type::F32 => ir::Const::F32(i as f32),
                ir::Type::F64 => ir::Const::F64(i as f64),
                ir::Type::Ptr(_) if i == 0 => ir::Const::Null(irt),
                t if t.is_integer() => ir::Const::Int(i as i64, t),
                _ => return None,
            }),
            CVal::Float(f) => ir::Init::Scalar(match irt {
                ir::Type::F32 => ir::Const::F32(f as f32),
                _ => ir::Const::F64(f),
            }),
            CVal::Null => ir::Init::Scalar(ir::Const::Null(irt)),
            CVal::Addr(g, off) => ir::Init::GlobalAddr { global: *self.globals.get(&g)?, offset: off },
            CVal::Str(s, 0) => ir::Init::Scalar(ir::Const::Str(s)),
            CVal::Str(s, off) => {
                // A string plus an offset: make the string a global.
                let gid = ir::GlobalId(self.module.globals.len() as u32);
                let n = s.len() as u64 + 1;
                let mut items: Vec<ir::Init> = s.iter().map(|c| ir::Init::Scalar(ir::Const::Int(*c as i8 as i64, ir::Type::I8))).collect();
                items.push(ir::Init::Zero);
                self.module.globals.push(ir::Global {
                    name: format!("str.{}", gid.0),
                    ty: ir::Type::Array(Box::new(ir::Type::I8), n),
                    space: ir::AddressSpace::Constant,
                    align: None,
                    init: Some(ir::Init::Aggregate(items)),
                    host_symbol: None,
                    dynamic_shared: false,
                    external: false,
                    loc: None,
                });
                ir::Init::GlobalAddr { global: gid, offset: off }
            }
        })
    }

    fn init(&mut self, i: &Init) -> Option<ir::Init> {
        Some(match i {
            Init::Zero(_) => ir::Init::Zero,
            Init::Construct { .. } => return None,
            Init::Expr(e) if crate::check::func_addr_of(e).is_some() => {
                let f = crate::check::func_addr_of(e)?;
                ir::Init::FuncAddr(*self.funcs.get(&f)?)
            }
            Init::Expr(e) => {
                let v = eval_const(self.prog, e)?;
                self.const_of(v, &e.ty.ty)?
            }
            Init::List { ty, items, union_member } => {
                if let Ty::Record(r) = &ty.ty {
                    if self.prog.types.rec(*r).fields.iter().flatten().any(|f| f.bits.is_some()) {
                        return self.record_init_with_bits(*r, items, *union_member);
                    }
                }
                let mut out = Vec::new();
                for it in items {
                    out.push(self.init(it)?);
                }
                ir::Init::Aggregate(out)
            }
        })
    }

    /// A constant initializer of a record with bit-fields, in IR field order: the
    /// bit-field values are packed into the bytes of their run fields (little-endian).
    fn record_init_with_bits(&mut self, r: RecId, items: &[Init], union_member: Option<u32>) -> Option<ir::Init> {
        let sid = self.record(r);
        let d = self.prog.types.rec(r);
        let hfields = d.fields.clone().unwrap_or_default();
        let map = self.field_map[&r].clone();
        let nir = self.module.structs[sid.index()].fields.len();
        let mut out: Vec<Option<ir::Init>> = vec![None; nir];
        let mut bytes: HashMap<u32, Vec<u8>> = HashMap::new();
        for (k, it) in items.iter().enumerate() {
            let hidx = union_member.map(|m| m as usize).unwrap_or(k);
            let Some(hf) = hfields.get(hidx) else { return None };
            let irk = map[hidx];
            let Some(bf) = hf.bits else {
                out[irk as usize] = Some(self.init(it)?);
                continue;
            };
            let v: i128 = match it {
                Init::Zero(_) => 0,
                Init::Expr(e) => match eval_const(self.prog, e)? {
                    CVal::Int(v) => v,
                    _ => return None,
                },
                Init::List { .. } | Init::Construct { .. } => return None,
            };
            let irf = &self.module.structs[sid.index()].fields[irk as usize];
            let (start, n) = match &irf.ty {
                ir::Type::Array(_, n) => (irf.offset, *n),
                _ => return None,
            };
            let buf = bytes.entry(irk).or_insert_with(|| vec![0u8; n as usize]);
            let rel = bf.bit_pos - start * 8;
            for b in 0..bf.width as u64 {
                if (v >> b) & 1 != 0 {
                    let at = rel + b;
                    buf[(at / 8) as usize] |= 1 << (at % 8);
                }
            }
        }
        for (k, buf) in bytes {
            out[k as usize] = Some(ir::Init::Aggregate(buf.into_iter().map(|b| ir::Init::Scalar(ir::Const::Int(b as i64, ir::Type::U8))).collect()));
        }
        if self.module.structs[sid.index()].is_union {
            // The emitter initializes a union through its first IR field only.
            return match out.into_iter().enumerate().find(|(_, o)| o.is_some()) {
                Some((0, Some(i))) => Some(ir::Init::Aggregate(vec![i])),
                Some(_) => None,
                None => Some(ir::Init::Zero),
            };
        }
        Some(ir::Init::Aggregate(out.into_iter().map(|o| o.unwrap_or(ir::Init::Zero)).collect()))
    }
}

/// Lower the checked program: every kernel and what it reaches, all device variables.
/// The device side of a `__managed__` variable. The one object is the host shadow (so
/// host code, `sizeof`, `&var` and the host's initializer are as g++ makes them); the
/// device object holds only a cell `{begin, end}` of pointers that device code loads the
/// object's address from. The cell starts out as `{cell + 16, cell + 16 + size}`, which
/// tells the runtime what it is and how big the object is: at registration it points the
/// cell at the host shadow (`cuprite_abi.h`, "managed variables").
fn managed_cell(m: &mut ModLower, g: &GlobalVar, me: ir::GlobalId, loc: Option<ir::SrcLoc>) -> ir::Global {
    let obj = m.ty(&g.ty.ty).ptr_to();
    let size = m.prog.types.layout(&g.ty.ty).map_or(0, |l| l.0) as i64;
    let mut name = g.scope.join("::");
    if !name.is_empty() {
        name.push_str("::");
    }
    name.push_str(&g.name);
    ir::Global {
        name,
        ty: ir::Type::Array(Box::new(obj), 2),
        space: ir::AddressSpace::Global,
        align: Some(16),
        init: Some(ir::Init::Aggregate(vec![
            ir::Init::GlobalAddr { global: me, offset: 16 },
            ir::Init::GlobalAddr { global: me, offset: 16 + size },
        ])),
        host_symbol: Some(crate::mangle::mangle_variable(&g.scope, &g.name, g.extern_c)),
        dynamic_shared: false,
        external: false,
        loc,
    }
}

pub(crate) fn lower(prog: &Program, opts: &SemaOptions, locate: &dyn Locate) -> ir::Module {
    let mut m = ModLower {
        prog,
        opts,
        locate,
        module: ir::Module::default(),
        structs: HashMap::new(),
        field_map: HashMap::new(),
        funcs: HashMap::new(),
        globals: HashMap::new(),
        files: HashMap::new(),
        vtables: HashMap::new(),
        memfn_struct: None,
        contractable: Vec::new(),
    };
    // Reachable functions from the kernels.
    let mut order: Vec<FnId> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut work: Vec<FnId> = prog
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| {
            let device_root = opts.relocatable && f.space == ExecSpace::Device && !f.in_system_header;
            (f.space == ExecSpace::Global || device_root) && f.body.is_some()
        })
        .map(|(i, _)| FnId(i as u32))
        .collect();
    // Functions whose addresses are in device variables' initializers, and every
    // virtual function (vtables are made on demand, their entries must exist).
    let mut extra: Vec<FnId> = Vec::new();
    for g in &prog.globals {
        if let (Some(i), false) = (&g.init, g.space == VarSpace::Host) {
            crate::check::funcs_in_init(i, &mut extra);
        }
    }
    let mut classes: Vec<(&RecId, &ClassInfo)> = prog.classes.iter().collect();
    classes.sort_by_key(|(r, _)| **r);
    for (_, ci) in classes {
        extra.extend(ci.vtable.iter().flatten().copied());
    }
    work.extend(extra.into_iter().filter(|f| prog.functions[f.0 as usize].space != ExecSpace::Host));
    work.reverse();
    // Functions called but defined in another translation unit: declarations, resolved
    // when device code is linked (`-rdc`), an error otherwise (see cuprite-cpu).
    // (Not pure virtual functions: they have no definition anywhere.)
    let pure_virtual: std::collections::HashSet<FnId> = prog.classes.values().flat_map(|c| c.pure.iter().copied()).collect();
    let mut declared: Vec<FnId> = Vec::new();
    let mut work: Vec<(FnId, bool)> = work.into_iter().map(|f| (f, false)).collect();
    while let Some((f, called)) = work.pop() {
        if !seen.insert(f) {
            continue;
        }
        if prog.functions[f.0 as usize].body.is_none() {
            if called && !pure_virtual.contains(&f) {
                declared.push(f);
            }
            continue;
        }
        order.push(f);
        let b = prog.functions[f.0 as usize].body.as_ref().unwrap();
        for c in b.calls.iter().rev() {
            work.push((*c, true));
        }
    }
    // Globals: every device variable, and the function-local shared ones used.
    let mut used_local = std::collections::HashSet::new();
    for f in &order {
        for g in &prog.functions[f.0 as usize].body.as_ref().unwrap().globals_used {
            used_local.insert(*g);
        }
    }
    let mut gl: Vec<GVarId> = Vec::new();
    for (i, g) in prog.globals.iter().enumerate() {
        let id = GVarId(i as u32);
        let keep = match g.space {
            VarSpace::Host => false,
            _ if g.function_local => used_local.contains(&id),
            VarSpace::Shared => true,
            _ => !g.is_extern || used_local.contains(&id),
        };
        if keep {
            m.globals.insert(id, ir::GlobalId(gl.len() as u32));
            gl.push(id);
        }
    }
    for (k, id) in gl.iter().enumerate() {
        let g = &prog.globals[id.0 as usize];
        if g.space == VarSpace::Managed {
            let loc = m.loc(g.span);
            let cell = managed_cell(&mut m, g, ir::GlobalId(k as u32), loc);
            m.module.globals.push(cell);
            continue;
        }
        let ty = m.ty(&g.ty.ty);
        let space = match g.space {
            VarSpace::Constant => ir::AddressSpace::Constant,
            VarSpace::Shared => ir::AddressSpace::Shared,
            _ => ir::AddressSpace::Global,
        };
        let loc = m.loc(g.span);
        let mut name = g.scope.join("::");
        if !name.is_empty() {
            name.push_str("::");
        }
        name.push_str(&g.name);
        let host_symbol = match g.space {
            VarSpace::Shared => None,
            _ => Some(crate::mangle::mangle_variable(&g.scope, &g.name, g.extern_c)),
        };
        m.module.globals.push(ir::Global {
            name,
            ty,
            space,
            align: g.align,
            init: None,
            host_symbol,
            dynamic_shared: g.space == VarSpace::Shared && matches!(g.ty.ty, Ty::Array(_, None)),
            external: g.is_extern && g.space != VarSpace::Shared,
            loc,
        });
    }
    for (k, f) in order.iter().chain(&declared).enumerate() {
        m.funcs.insert(*f, ir::FuncId(k as u32));
    }
    for (k, id) in gl.iter().enumerate() {
        if prog.globals[id.0 as usize].space == VarSpace::Managed {
            continue; // the host object holds the initial value
        }
        if let Some(i) = &prog.globals[id.0 as usize].init {
            let v = m.init(i);
            m.module.globals[k].init = v;
        }
    }
    for f in &order {
        let func = func::lower_function(&mut m, *f);
        m.module.functions.push(func);
    }
    for f in &declared {
        let func = func::declare_function(&mut m, *f);
        m.module.functions.push(func);
        m.contractable.push(Default::default());
    }
    if opts.fmad {
        contract_inlined::run(&mut m.module, &m.contractable);
    }
    m.module
}
