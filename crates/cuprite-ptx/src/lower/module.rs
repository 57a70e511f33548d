//! A whole PTX module (as nvcc writes it) → an IR module: `.entry` functions become
//! kernels keyed by their PTX names, `.func` functions device functions, `.global`,
//! `.const` and `.shared` variables IR globals.

use super::body::{var_type, Binding, Lowerer};
use super::{lerr, LResult, LowerError, Sink};
use crate::isa::StateSpace;
use crate::parse::{self, FuncDef, FuncKind, Init as PInit, Item, Linkage, Loc, VarDecl, VarType};
use cuprite_ir as ir;
use cuprite_ir::{AddressSpace, BlockId, Const, FuncId, GlobalId, InstKind, LocalId, Signature, Terminator, Type, ValueId};
use std::collections::HashMap;

/// Functions the PTX calls that the lowering provides itself.
const SYSTEM_CALLS: &[&str] = &["vprintf", "malloc", "free", "__assertfail"];

/// The zero-sized shared variable the shared window is measured from.
pub const SHARED_WINDOW: &str = "__cuprite_shared_window";

struct ModState {
    m: ir::Module,
    globals: HashMap<String, GlobalId>,
    funcs: HashMap<String, FuncId>,
    blobs: HashMap<(u64, u64), ir::StructId>,
    /// The block's reserved shared memory, made on first use (`Sink::reserved_smem`).
    reserved_smem: Option<GlobalId>,
    opts: LowerOptions,
}

/// What ptxas is told besides the PTX text.
#[derive(Clone, Copy, Debug)]
pub struct LowerOptions {
    /// ptxas's `--fmad`: unrounded half-precision `mul` + `add` may become an fma
    /// (`fusion.rs`). nvcc passes `-fmad=false` on to ptxas; the driver's JIT fuses.
    pub fmad: bool,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions { fmad: true }
    }
}

impl ModState {
    /// nvcc's byte-array parameters (`.param .align 8 .b8 p[16]`, structs passed by value)
    /// become structs of that size and alignment, so they pass by value in the IR.
    fn blob(&mut self, size: u64, align: u64) -> Type {
        let n = self.blobs.len();
        let id = *self.blobs.entry((size, align)).or_insert_with(|| {
            self.m.structs.push(ir::StructDef {
                name: format!("__ptx_bytes{size}_{align}_{n}"),
                is_union: false,
                fields: vec![ir::Field { name: "b".into(), ty: Type::Array(Box::new(Type::U8), size), offset: 0 }],
                size,
                align,
            });
            ir::StructId(self.m.structs.len() as u32 - 1)
        });
        Type::Struct(id)
    }

    fn param_type(&mut self, d: &VarDecl) -> LResult<Type> {
        let t = var_type(d)?;
        Ok(match t {
            Type::Array(..) => {
                let (size, _) = self.m.layout(&t);
                self.blob(size, d.align.unwrap_or(1) as u64)
            }
            t => t,
        })
    }
}

/// Parses and lowers a module.
pub fn lower_module_text(text: &str) -> LResult<ir::Module> {
    lower_module_text_with(text, LowerOptions::default())
}

/// Parses and lowers a module as ptxas would with `opts`.
pub fn lower_module_text_with(text: &str, opts: LowerOptions) -> LResult<ir::Module> {
    let m = parse::parse_module(text).map_err(|e| LowerError { loc: e.loc, message: e.message })?;
    lower_module_with(&m, opts)
}

pub fn lower_module(pm: &parse::Module) -> LResult<ir::Module> {
    lower_module_with(pm, LowerOptions::default())
}

pub fn lower_module_with(pm: &parse::Module, opts: LowerOptions) -> LResult<ir::Module> {
    let mut st = ModState { m: ir::Module::default(), globals: HashMap::new(), funcs: HashMap::new(), blobs: HashMap::new(), reserved_smem: None, opts };
    if let Some(a) = pm.address_size {
        if a != 64 {
            return lerr(Loc::default(), format!(".address_size {a}: only 64-bit PTX is supported"));
        }
    }
    st.m.globals.push(window_global());
    st.globals.insert(SHARED_WINDOW.into(), GlobalId(0));
    for item in &pm.items {
        if let Item::Var(v) = item {
            declare_var(&mut st, v)?;
        }
    }
    for item in &pm.items {
        if let Item::Func(f) = item {
            declare_func(&mut st, f)?;
        }
    }
    // Initializers name variables and functions declared anywhere in the module (vtables
    // hold function addresses): they are lowered once every name is known.
    for item in &pm.items {
        if let Item::Var(v) = item {
            if let Some(i) = &v.init {
                for name in &v.names {
                    let g = st.globals[name];
                    let ty = st.m.globals[g.index()].ty.clone();
                    st.m.globals[g.index()].init = Some(init(&st, &ty, i, v.loc)?);
                }
            }
        }
    }
    for item in &pm.items {
        if let Item::Func(f) = item {
            if f.body.is_some() {
                lower_func(&mut st, f)?;
            }
        }
    }
    // Calls to functions only declared (and not provided) are refused by name.
    for (name, id) in &st.funcs {
        if st.m.functions[id.index()].blocks.is_empty() && !SYSTEM_CALLS.contains(&name.as_str()) {
            return lerr(Loc::default(), format!("function '{name}' is declared but not defined in this module (linking PTX modules is not supported)"));
        }
    }
    // The IR must be valid for the back-ends; a failure here is a bug of this lowering,
    // reported as an error rather than left to crash a back-end.
    if let Err(errs) = cuprite_ir::verify::verify(&st.m) {
        return lerr(Loc::default(), format!("internal error: the PTX lowered to invalid IR: {}", errs.join("; ")));
    }
    Ok(st.m)
}

fn window_global() -> ir::Global {
    ir::Global {
        name: SHARED_WINDOW.into(),
        ty: Type::Array(Box::new(Type::U8), 0),
        space: AddressSpace::Shared,
        align: Some(16),
        init: None,
        host_symbol: None,
        dynamic_shared: false,
        external: false,
        loc: None,
    }
}

fn declare_var(st: &mut ModState, v: &VarDecl) -> LResult<()> {
    if let VarType::Opaque(o) = &v.ty {
        return lerr(v.loc, format!("'.{o}' variables (legacy texture references) in PTX are not supported yet"));
    }
    if v.managed {
        return lerr(v.loc, "__managed__ variables in a PTX module are not supported yet");
    }
    let space = match v.space {
        StateSpace::Global => AddressSpace::Global,
        StateSpace::Const => AddressSpace::Constant,
        StateSpace::Shared => AddressSpace::Shared,
        s => return lerr(v.loc, format!("module-scope variables in the .{} state space are not supported", s.name())),
    };
    let ty = var_type(v)?;
    for name in &v.names {
        let dynamic = space == AddressSpace::Shared && v.dims.first() == Some(&None);
        // Set once every variable and function is declared (`lower_module`).
        let init = None;
        let visible = matches!(v.linkage, Linkage::Visible | Linkage::Weak | Linkage::Common | Linkage::Extern);
        let g = ir::Global {
            name: name.clone(),
            ty: if dynamic { Type::Array(Box::new(Type::U8), 0) } else { ty.clone() },
            space,
            align: v.align.map(u64::from),
            init,
            host_symbol: if space != AddressSpace::Shared && (visible || !name.contains('$')) { Some(name.clone()) } else { None },
            dynamic_shared: dynamic,
            external: false,
            loc: None,
        };
        if v.linkage == Linkage::Extern && !dynamic {
            return lerr(v.loc, format!("'.extern' variable '{name}' (defined in another module) is not supported"));
        }
        st.globals.insert(name.clone(), GlobalId(st.m.globals.len() as u32));
        st.m.globals.push(g);
    }
    Ok(())
}

/// A constant initializer for a variable of type `ty`.
fn init(st: &ModState, ty: &Type, i: &PInit, loc: Loc) -> LResult<ir::Init> {
    match (ty, i) {
        (Type::Array(elem, n), PInit::List(items)) => {
            if items.len() as u64 > *n {
                return lerr(loc, "more initializers than elements");
            }
            Ok(ir::Init::Aggregate(items.iter().map(|x| init(st, elem, x, loc)).collect::<LResult<_>>()?))
        }
        (t, PInit::Int(v)) if t.is_integer() => Ok(ir::Init::Scalar(Const::Int(*v, t.clone()))),
        (Type::F32, PInit::F32(b)) => Ok(ir::Init::Scalar(Const::F32(f32::from_bits(*b)))),
        (Type::F64, PInit::F64(b)) => Ok(ir::Init::Scalar(Const::F64(f64::from_bits(*b)))),
        (Type::F32, PInit::Int(v)) => Ok(ir::Init::Scalar(Const::F32(*v as f32))),
        (Type::F64, PInit::Int(v)) => Ok(ir::Init::Scalar(Const::F64(*v as f64))),
        (t, PInit::F32(b)) if t.is_integer() => Ok(ir::Init::Scalar(Const::Int(*b as i64, t.clone()))),
        (t, PInit::F64(b)) if t.is_integer() => Ok(ir::Init::Scalar(Const::Int(*b as i64, t.clone()))),
        // A variable's or function's address in a 64-bit element (`generic(x)` too).
        (t, PInit::Addr(name, off)) if t.is_integer() && t.scalar_size() == Some(8) => {
            if let Some(g) = st.globals.get(name) {
                if st.m.globals[g.index()].space == AddressSpace::Shared {
                    return lerr(loc, format!("the address of .shared variable '{name}' is not a constant initializer"));
                }
                return Ok(ir::Init::GlobalAddr { global: *g, offset: *off });
            }
            match st.funcs.get(name) {
                Some(f) if *off == 0 => Ok(ir::Init::FuncAddr(*f)),
                Some(_) => lerr(loc, format!("an offset from function '{name}' is not a valid initializer")),
                None => lerr(loc, format!("'{name}' in an initializer is not a variable or function of this module")),
            }
        }
        (_, PInit::Addr(name, _)) => lerr(loc, format!("the address of '{name}' initializes an element that is not 64 bits wide; only .u64/.b64/.s64 elements can hold addresses")),
        _ => lerr(loc, "this initializer does not fit the variable's type"),
    }
}

fn declare_func(st: &mut ModState, f: &FuncDef) -> LResult<()> {
    if SYSTEM_CALLS.contains(&f.name.as_str()) && f.body.is_none() {
        return Ok(());
    }
    if let Some(id) = st.funcs.get(&f.name) {
        // A prototype followed by the definition: keep one function.
        let _ = id;
        return Ok(());
    }
    if f.rets.len() > 1 {
        return lerr(f.loc, format!("function '{}' returns several values, which is not supported", f.name));
    }
    let mut locals = Vec::new();
    for p in &f.params {
        let ty = st.param_type(p)?;
        locals.push(ir::Local { name: p.names[0].clone(), ty, align: p.align.map(u64::from) });
    }
    let ret = match f.rets.first() {
        Some(r) => st.param_type(r)?,
        None => Type::Void,
    };
    let kind = match f.kind {
        FuncKind::Entry => {
            let threads = f.reqntid.as_ref().or(f.maxntid.as_ref()).map(|v| v.iter().product::<u32>());
            ir::FunctionKind::Kernel { stub_symbol: f.name.clone(), max_threads: threads, min_blocks: f.minnctapersm }
        }
        FuncKind::Func => ir::FunctionKind::Device,
    };
    let func = ir::Function {
        name: f.name.clone(),
        symbol: if f.kind == FuncKind::Func && f.linkage != Linkage::None { Some(f.name.clone()) } else { None },
        kind,
        inline: ir::InlineHint::None,
        params: (0..f.params.len() as u32).map(LocalId).collect(),
        ret,
        locals,
        values: Vec::new(),
        blocks: Vec::new(),
        loc: None,
    };
    st.funcs.insert(f.name.clone(), FuncId(st.m.functions.len() as u32));
    st.m.functions.push(func);
    Ok(())
}

struct Bb {
    insts: Vec<ir::Inst>,
    term: Option<Terminator>,
}

/// The `Sink` of a module function: blocks are kept here and moved into the IR function
/// at the end.
struct FuncSink<'s> {
    st: &'s mut ModState,
    f: ir::Function,
    blocks: Vec<Bb>,
    cur: usize,
}

impl Sink for FuncSink<'_> {
    fn emit(&mut self, kind: InstKind, ty: Option<Type>) -> Option<ValueId> {
        let result = ty.map(|t| {
            self.f.values.push(t);
            ValueId(self.f.values.len() as u32 - 1)
        });
        self.blocks[self.cur].insts.push(ir::Inst { result, kind, loc: None });
        result
    }
    fn value_type(&self, v: ValueId) -> Type {
        self.f.values[v.index()].clone()
    }
    fn new_local(&mut self, name: &str, ty: Type, align: Option<u64>) -> LocalId {
        let ty = match ty {
            // Byte-array call parameters pass by value as structs, as the callee declares them.
            Type::Array(ref e, n) if name.starts_with("param") || name.starts_with("retval") => {
                let (size, a) = (n * self.st.m.layout(e).0, align.unwrap_or(1));
                self.st.blob(size, a)
            }
            t => t,
        };
        self.f.locals.push(ir::Local { name: name.into(), ty, align });
        LocalId(self.f.locals.len() as u32 - 1)
    }
    fn local_type(&self, l: LocalId) -> Type {
        self.f.locals[l.index()].ty.clone()
    }
    fn new_block(&mut self) -> BlockId {
        self.blocks.push(Bb { insts: Vec::new(), term: None });
        BlockId(self.blocks.len() as u32 - 1)
    }
    fn terminate(&mut self, t: Terminator) {
        if self.blocks[self.cur].term.is_none() {
            self.blocks[self.cur].term = Some(t);
        }
    }
    fn switch_to(&mut self, b: BlockId) {
        self.cur = b.index();
    }
    fn global(&mut self, name: &str) -> Option<(GlobalId, Type, StateSpace)> {
        let g = *self.st.globals.get(name)?;
        let gl = &self.st.m.globals[g.index()];
        let space = match gl.space {
            AddressSpace::Global => StateSpace::Global,
            AddressSpace::Constant => StateSpace::Const,
            AddressSpace::Shared => StateSpace::Shared,
        };
        Some((g, gl.ty.clone(), space))
    }
    fn global_type(&self, g: GlobalId) -> Type {
        self.st.m.globals[g.index()].ty.clone()
    }
    fn global_bytes(&self, g: GlobalId) -> Option<Vec<u8>> {
        match &self.st.m.globals[g.index()].init {
            Some(ir::Init::Aggregate(items)) => items
                .iter()
                .map(|i| match i {
                    ir::Init::Scalar(Const::Int(v, _)) => Some(*v as u8),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }
    fn function(&mut self, name: &str) -> Option<(FuncId, Signature)> {
        let id = *self.st.funcs.get(name)?;
        // The function being lowered is out of the module meanwhile (recursion).
        if self.st.m.functions[id.index()].name.is_empty() {
            return Some((id, self.f.signature()));
        }
        Some((id, self.st.m.functions[id.index()].signature()))
    }
    fn shared_window(&mut self) -> GlobalId {
        GlobalId(0)
    }
    fn function_shared(&mut self, name: &str, ty: Type, align: Option<u64>) -> Option<GlobalId> {
        let id = GlobalId(self.st.m.globals.len() as u32);
        self.st.m.globals.push(ir::Global {
            name: format!("{}::{name}", self.f.name),
            ty,
            space: AddressSpace::Shared,
            align,
            init: None,
            host_symbol: None,
            dynamic_shared: false,
            external: false,
            loc: None,
        });
        Some(id)
    }

    fn reserved_smem(&mut self) -> Option<GlobalId> {
        if let Some(g) = self.st.reserved_smem {
            return Some(g);
        }
        let id = GlobalId(self.st.m.globals.len() as u32);
        self.st.m.globals.push(ir::Global {
            name: "__cuprite_reserved_smem".into(),
            ty: Type::Array(Box::new(Type::U8), super::RESERVED_SMEM_BYTES),
            space: AddressSpace::Shared,
            align: Some(16),
            init: None,
            host_symbol: None,
            dynamic_shared: false,
            external: false,
            loc: None,
        });
        self.st.reserved_smem = Some(id);
        Some(id)
    }
}

fn lower_func(st: &mut ModState, fd: &FuncDef) -> LResult<()> {
    let id = st.funcs[&fd.name];
    if !st.m.functions[id.index()].blocks.is_empty() {
        return lerr(fd.loc, format!("function '{}' is defined twice", fd.name));
    }
    let f = std::mem::replace(&mut st.m.functions[id.index()], placeholder());
    let mut sink = FuncSink { st, f, blocks: Vec::new(), cur: 0 };
    let entry = sink.new_block();
    sink.switch_to(entry);
    let body = fd.body.as_ref().unwrap();
    let ret_ty = sink.f.ret.clone();
    let fmad = sink.st.opts.fmad;
    {
        let mut lw = Lowerer::new(&mut sink);
        for (k, p) in fd.params.iter().enumerate() {
            lw.bind(&p.names[0], Binding::Var(LocalId(k as u32)));
        }
        lower_body(&mut lw, fd, body, ret_ty, fmad)?;
    }
    let FuncSink { st, mut f, blocks, .. } = sink;
    f.blocks = blocks
        .into_iter()
        .map(|b| ir::Block { insts: b.insts, term: b.term.unwrap_or(Terminator::Unreachable), term_loc: None })
        .collect();
    st.m.functions[id.index()] = f;
    Ok(())
}

fn lower_body(lw: &mut Lowerer, fd: &FuncDef, body: &[parse::Stmt], ret_ty: Type, fmad: bool) -> LResult<()> {
    // The return parameter is a local of the function's return type; `ret` returns it.
    if let Some(r) = fd.rets.first() {
        let l = lw.s.new_local(&format!("{}.ret", r.names[0]), ret_ty, r.align.map(u64::from));
        lw.ret_value = Some(l);
        lw.bind(&r.names[0], Binding::Var(l));
    }
    lw.collect_labels(body)?;
    if fmad {
        lw.fusion = super::fusion::plan(body);
    }
    lw.stmts(body)?;
    if let Some(l) = lw.ret_value {
        let v = lw.load_local(l);
        lw.s.terminate(Terminator::Return(Some(v)));
    } else {
        lw.s.terminate(Terminator::Return(None));
    }
    Ok(())
}

fn placeholder() -> ir::Function {
    ir::Function {
        name: String::new(),
        symbol: None,
        kind: ir::FunctionKind::Device,
        inline: ir::InlineHint::None,
        params: vec![],
        ret: Type::Void,
        locals: vec![],
        values: vec![],
        blocks: vec![],
        loc: None,
    }
}
