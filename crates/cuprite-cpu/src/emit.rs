//! Lowering of a checked IR module to the C syntax tree.

use crate::builtins::resolve_math;
use crate::cast::*;
use crate::inline;
use crate::simt::{self, Regions};
use crate::{BackendError, EmitOptions};
use cuprite_ir::*;
use std::collections::{BTreeSet, HashMap, HashSet};

mod fission;
mod grid_sync;
mod multi_block;
mod rotate;
mod shuffle;
mod xor_run;

const ABI_HEADER: &str = include_str!("../../cuprite-rt/csrc/cuprite_abi.h");
const PRELUDE: &str = include_str!("prelude.h");
/// CUDA math functions C lacks; shared with host code through Cuprite's headers.
const MATH_EXTRAS: &str = include_str!("../../../include/cuprite/math_extras.h");

pub fn sanitize(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else if c == ':' {
            if !out.ends_with("__") {
                out.push('_');
            }
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    if out.len() > 40 {
        out.truncate(40);
    }
    out
}

const C_KEYWORDS: &[&str] = &[
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
];

fn field_ident(name: &str, i: usize, used: &mut HashSet<String>) -> String {
    let mut s = sanitize(name);
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) || s.starts_with("__") || C_KEYWORDS.contains(&s.as_str()) {
        s = format!("f{i}_{s}");
    }
    while !used.insert(s.clone()) {
        s = format!("{s}_{i}");
    }
    s
}

/// The generated C in sections, printed as one file (`ModuleItems::all`) or split into
/// several translation units (`crate::split`).
pub struct ModuleItems {
    /// The ABI header, the prelude, structs, prototypes of device functions.
    pub head: Vec<Item>,
    /// `__device__` and `__constant__` variables: `static` definitions.
    pub globals: Vec<Item>,
    /// Bodies of the device functions that are not inlined (all `static`).
    pub functions: Vec<Item>,
    pub kernels: Vec<KernelItems>,
    /// The module table and the constructor that registers it.
    pub tables: Vec<Item>,
}

/// One kernel's items: its entry function (`static`, named `entry`) and what only it
/// uses (tables of cut points and shared offsets).
pub struct KernelItems {
    pub entry: String,
    pub items: Vec<Item>,
}

impl ModuleItems {
    /// Every item in the order of one self-contained C file.
    pub fn all(&self) -> impl Iterator<Item = &Item> {
        self.head.iter().chain(&self.globals).chain(&self.functions).chain(self.kernels.iter().flat_map(|k| &k.items)).chain(&self.tables)
    }
}

pub struct ModCx<'m> {
    pub m: &'m Module,
    opts: &'m EmitOptions,
    pub errors: Vec<BackendError>,
    struct_names: Vec<String>,
    field_names: Vec<Vec<String>>,
    global_names: Vec<String>,
    func_names: Vec<String>,
    /// Static `__shared__` globals: index in the module's shared table.
    shared_index: HashMap<GlobalId, usize>,
    bset: HashSet<FuncId>,
    /// What each kernel needs, for the driver's limit checks and resource report.
    pub resources: Vec<crate::KernelResources>,
    /// Set when a copy of a block body used the bound on block indices of the fast copy
    /// (`wide_thread_index`): only then does the general copy differ from it.
    used_block_bound: std::cell::Cell<bool>,
    /// The `a ^ b` pointer offsets of the unit being emitted that run by run
    /// (`emit/xor_run.rs`).
    xor_run: std::cell::Cell<Option<xor_run::XorRun>>,
}

fn err(msg: impl Into<String>, loc: Option<SrcLoc>) -> BackendError {
    BackendError { message: msg.into(), loc }
}

fn align_up(x: u64, a: u64) -> u64 {
    if a <= 1 {
        x
    } else {
        x.div_ceil(a) * a
    }
}

impl<'m> ModCx<'m> {
    pub fn new(m: &'m Module, opts: &'m EmitOptions, bset: HashSet<FuncId>) -> Self {
        let struct_names = m
            .structs
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} s{i}_{}", if s.is_union { "union" } else { "struct" }, sanitize(&s.name)))
            .collect();
        let field_names = m
            .structs
            .iter()
            .map(|s| {
                let mut used = HashSet::new();
                s.fields.iter().enumerate().map(|(i, f)| field_ident(&f.name, i, &mut used)).collect()
            })
            .collect();
        let global_names = m.globals.iter().enumerate().map(|(i, g)| format!("__cuprite_g_{}_{i}", sanitize(&g.name))).collect();
        let func_names = m
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| match f.kind {
                FunctionKind::Kernel { .. } => format!("__cuprite_k_{i}_{}", sanitize(&f.name)),
                FunctionKind::Device => format!("__cuprite_f_{i}_{}", sanitize(&f.name)),
            })
            .collect();
        let mut shared_index = HashMap::new();
        for (i, g) in m.globals.iter().enumerate() {
            if g.space == AddressSpace::Shared && !g.dynamic_shared {
                let n = shared_index.len();
                shared_index.insert(GlobalId(i as u32), n);
            }
        }
        ModCx {
            m,
            opts,
            errors: Vec::new(),
            struct_names,
            field_names,
            global_names,
            func_names,
            shared_index,
            bset,
            resources: Vec::new(),
            used_block_bound: std::cell::Cell::new(false),
            xor_run: std::cell::Cell::new(None),
        }
    }

    pub fn ctype(&self, t: &Type) -> CType {
        match t {
            Type::Void => CType::named("void"),
            Type::Bool => CType::named("_Bool"),
            Type::I8 => CType::named("int8_t"),
            Type::U8 => CType::named("uint8_t"),
            Type::I16 => CType::named("int16_t"),
            Type::U16 => CType::named("uint16_t"),
            Type::I32 => CType::named("int32_t"),
            Type::U32 => CType::named("uint32_t"),
            Type::I64 => CType::named("int64_t"),
            Type::U64 => CType::named("uint64_t"),
            Type::F32 => CType::named("float"),
            Type::F64 => CType::named("double"),
            Type::Ptr(p) => self.ctype(p).ptr(),
            Type::Array(e, n) => CType::Array(Box::new(self.ctype(e)), *n),
            Type::Struct(s) => CType::Named(self.struct_names[s.index()].clone()),
            Type::FnPtr(sig) => self.fn_type(sig).ptr(),
        }
    }

    fn fn_type(&self, sig: &Signature) -> CType {
        let mut ps = vec![CType::named("__cuprite_tctx").konst().ptr()];
        ps.extend(sig.params.iter().map(|p| self.ctype(p)));
        if sig.variadic {
            ps.push(CType::named("..."));
        }
        CType::Func(Box::new(self.ctype(&sig.ret)), ps)
    }

    fn layout(&self, t: &Type) -> (u64, u64) {
        self.m.layout(t)
    }

    // ---- module ---------------------------------------------------------------------

    pub fn emit_module(&mut self) -> ModuleItems {
        let mut head = vec![
            Item::Comment(format!(
                "Generated by cuprite-cpu from {}. Device code for the CPU: do not edit.",
                self.opts.source_name
            )),
            Item::Verbatim("#define _GNU_SOURCE 1\n".into()),
            Item::Verbatim(ABI_HEADER.into()),
            Item::Verbatim(MATH_EXTRAS.into()),
            Item::Verbatim(PRELUDE.into()),
            Item::Verbatim(
                "#define __CU_STR2(x) #x\n#define __CU_STR(x) __CU_STR2(x)\n#define __CU_SYM(s) __CU_STR(__USER_LABEL_PREFIX__) s\n"
                    .into(),
            ),
        ];
        self.emit_structs(&mut head);

        // Device functions that are not inlined: prototypes (before the variables, whose
        // initializers may hold their addresses), then bodies.
        let mut devfns = Vec::new();
        for (i, f) in self.m.functions.iter().enumerate() {
            let id = FuncId(i as u32);
            if f.kind == FunctionKind::Device && !self.bset.contains(&id) {
                devfns.push(id);
            }
        }
        if !devfns.is_empty() {
            head.push(Item::Blank);
            head.push(Item::Comment("device functions".into()));
            for id in &devfns {
                let (ret, name, params, attrs) = self.devfn_head(*id);
                head.push(Item::Func { storage: "static", attrs, ret, name, params, body: None });
            }
        }
        let mut globals = Vec::new();
        self.emit_globals(&mut globals);
        let mut functions = Vec::new();
        for id in &devfns {
            functions.push(Item::Blank);
            let body = self.device_function_body(*id);
            let (ret, name, params, attrs) = self.devfn_head(*id);
            functions.push(Item::Func { storage: "static", attrs, ret, name, params, body: Some(body) });
        }

        // Kernels.
        let mut kdescs = Vec::new();
        let mut kernels = Vec::new();
        for (id, f) in self.m.kernels() {
            let mut items = vec![Item::Blank];
            let k = self.emit_kernel(id, f, &mut items);
            let symbol = match &f.kind {
                FunctionKind::Kernel { stub_symbol, .. } => stub_symbol.clone(),
                FunctionKind::Device => unreachable!("kernels() yields kernels"),
            };
            self.resources.push(crate::KernelResources {
                name: f.name.clone(),
                symbol,
                static_shared_bytes: k.static_shared,
                local_bytes_per_thread: k.local_bytes,
                uses_barriers: k.barriers,
                warp_lockstep: k.lockstep,
            });
            kdescs.push(k);
            kernels.push(KernelItems { entry: self.func_names[id.index()].clone(), items });
        }
        let mut tables = Vec::new();
        self.emit_tables(&mut tables, kdescs);
        ModuleItems { head, globals, functions, kernels, tables }
    }

    fn devfn_head(&self, id: FuncId) -> (CType, String, Vec<(CType, String)>, Vec<String>) {
        let f = self.m.function(id);
        let mut params = vec![(CType::named("__cuprite_tctx").konst().ptr(), "__ctx".to_string())];
        for p in &f.params {
            params.push((self.ctype(&f.local(*p).ty), local_name(f, *p)));
        }
        let attrs = match f.inline {
            InlineHint::Always => vec!["inline __attribute__((always_inline, unused))".to_string()],
            InlineHint::Never => vec!["__attribute__((noinline, unused))".to_string()],
            InlineHint::None => vec!["__attribute__((unused))".to_string()],
        };
        (self.ctype(&f.ret), self.func_names[id.index()].clone(), params, attrs)
    }

    fn emit_structs(&mut self, items: &mut Vec<Item>) {
        if self.m.structs.is_empty() {
            return;
        }
        items.push(Item::Blank);
        items.push(Item::Comment("structs (layout as the front-end computed it; checked below)".into()));
        for (i, s) in self.m.structs.iter().enumerate() {
            let kw = if s.is_union { "union" } else { "struct" };
            items.push(Item::StructForward { keyword: kw, name: self.struct_names[i].split_once(' ').unwrap().1.to_string() });
        }
        // Definitions in dependency order (by-value members first).
        let n = self.m.structs.len();
        let mut done = vec![false; n];
        let mut visiting = vec![false; n];
        let mut order = Vec::new();
        fn deps(t: &Type, out: &mut Vec<usize>) {
            match t {
                Type::Struct(s) => out.push(s.index()),
                Type::Array(e, _) => deps(e, out),
                _ => {}
            }
        }
        fn visit(m: &Module, i: usize, done: &mut [bool], visiting: &mut [bool], order: &mut Vec<usize>, errs: &mut Vec<BackendError>) {
            if done[i] {
                return;
            }
            if visiting[i] {
                errs.push(err(format!("internal error: struct `{}` contains itself", m.structs[i].name), None));
                return;
            }
            visiting[i] = true;
            let mut d = Vec::new();
            for f in &m.structs[i].fields {
                deps(&f.ty, &mut d);
            }
            for j in d {
                visit(m, j, done, visiting, order, errs);
            }
            visiting[i] = false;
            done[i] = true;
            order.push(i);
        }
        for i in 0..n {
            visit(self.m, i, &mut done, &mut visiting, &mut order, &mut self.errors);
        }
        for i in order {
            let s = &self.m.structs[i];
            let kw = if s.is_union { "union" } else { "struct" };
            let mut fields = Vec::new();
            let mut cur = 0u64;
            let mut natural_align = 1u64;
            let mut pad = 0;
            for (fi, f) in s.fields.iter().enumerate() {
                let (fs, fa) = self.layout(&f.ty);
                natural_align = natural_align.max(fa);
                if !s.is_union {
                    let natural = align_up(cur, fa);
                    if f.offset > natural {
                        fields.push((CType::Array(Box::new(CType::named("char")), f.offset - cur), format!("__pad{pad}")));
                        pad += 1;
                    }
                    cur = f.offset.max(natural) + fs;
                } else {
                    cur = cur.max(fs);
                }
                fields.push((self.ctype(&f.ty), self.field_names[i][fi].clone()));
            }
            let c_align = natural_align.max(s.align);
            let c_size = align_up(cur, c_align);
            if s.size > c_size {
                if s.is_union {
                    fields.push((CType::Array(Box::new(CType::named("char")), s.size), "__pad_union".to_string()));
                } else {
                    fields.push((CType::Array(Box::new(CType::named("char")), s.size - cur), format!("__pad{pad}")));
                }
            }
            if fields.is_empty() {
                fields.push((CType::Array(Box::new(CType::named("char")), 0), "__empty".to_string()));
            }
            let align = if s.align > natural_align { Some(s.align) } else { None };
            let name = self.struct_names[i].split_once(' ').unwrap().1.to_string();
            items.push(Item::Struct { keyword: kw, name, fields, align });
            let t = CType::Named(self.struct_names[i].clone());
            items.push(Item::StaticAssert(
                Expr::SizeofType(t.clone()).bin("==", lit(s.size.to_string())),
                format!("layout of {}: size", s.name),
            ));
            items.push(Item::StaticAssert(
                Expr::AlignofType(t.clone()).bin("==", lit(s.align.to_string())),
                format!("layout of {}: alignment", s.name),
            ));
            for (fi, f) in s.fields.iter().enumerate() {
                items.push(Item::StaticAssert(
                    call("offsetof", vec![Expr::Ident(self.struct_names[i].clone()), id(self.field_names[i][fi].clone())])
                        .bin("==", lit(f.offset.to_string())),
                    format!("layout of {}: offset of {}", s.name, f.name),
                ));
            }
        }
    }

    fn emit_globals(&mut self, items: &mut Vec<Item>) {
        let mut any = false;
        for (i, g) in self.m.globals.iter().enumerate() {
            if g.space == AddressSpace::Shared {
                continue;
            }
            if !any {
                items.push(Item::Blank);
                items.push(Item::Comment("__device__ and __constant__ variables (one instance: the CPU device)".into()));
                any = true;
            }
            let (_, a) = self.layout(&g.ty);
            let align = g.align.unwrap_or(a).max(a);
            let init = match &g.init {
                None => None,
                Some(init) => match self.init(init, &g.ty, g.loc) {
                    Ok(i) => Some(i),
                    Err(e) => {
                        self.errors.push(e);
                        None
                    }
                },
            };
            items.push(Item::Var {
                storage: "static",
                ty: self.ctype(&g.ty),
                name: self.global_names[i].clone(),
                attrs: vec![format!("__attribute__((aligned({align}), used))")],
                asm_name: None,
                init,
            });
        }
    }

    fn init(&self, init: &Init, ty: &Type, loc: Option<SrcLoc>) -> Result<Initializer, BackendError> {
        Ok(match init {
            Init::Zero => match ty {
                Type::Array(..) | Type::Struct(_) => Initializer::List(vec![]),
                _ => Initializer::Expr(lit("0")),
            },
            Init::Scalar(c) => Initializer::Expr(self.const_expr(c, ty)),
            Init::GlobalAddr { global, offset } => {
                let g = self.m.global(*global);
                if g.space == AddressSpace::Shared {
                    return Err(err(format!("the address of __shared__ variable `{}` is not a constant", g.name), loc));
                }
                let base = id(self.global_names[global.index()].clone()).addr().cast(CType::named("char").ptr());
                let e = if *offset == 0 { base } else { base.bin("+", lit(offset.to_string())) };
                Initializer::Expr(e.cast(self.ctype(ty)))
            }
            Init::FuncAddr(f) => {
                if f.index() >= self.m.functions.len() || matches!(self.m.function(*f).kind, FunctionKind::Kernel { .. }) {
                    return Err(err("internal error: a constant initializer holds the address of a kernel or an unknown function", loc));
                }
                if self.bset.contains(f) {
                    return Err(err(
                        format!(
                            "the address of `{}` is taken, but it contains __syncthreads() or a warp operation; barriers and warp operations in functions called through pointers are not supported",
                            self.m.function(*f).name
                        ),
                        loc,
                    ));
                }
                let e = id(self.func_names[f.index()].clone()).addr();
                Initializer::Expr(if matches!(ty, Type::FnPtr(_)) { e } else { e.cast(self.ctype(ty)) })
            }
            Init::Aggregate(items) => match ty {
                Type::Array(e, _) => {
                    let mut v = Vec::new();
                    for it in items {
                        v.push((None, self.init(it, e, loc)?));
                    }
                    Initializer::List(v)
                }
                Type::Struct(s) => {
                    let sd = self.m.struct_def(*s);
                    let mut v = Vec::new();
                    for (fi, it) in items.iter().enumerate() {
                        let Some(f) = sd.fields.get(fi) else {
                            return Err(err(format!("internal error: too many initializers for `{}`", sd.name), loc));
                        };
                        v.push((Some(self.field_names[s.index()][fi].clone()), self.init(it, &f.ty, loc)?));
                        if sd.is_union {
                            break;
                        }
                    }
                    Initializer::List(v)
                }
                _ => {
                    if items.len() == 1 {
                        return self.init(&items[0], ty, loc);
                    }
                    return Err(err("internal error: aggregate initializer for a scalar", loc));
                }
            },
        })
    }

    pub fn const_expr(&self, c: &Const, ty: &Type) -> Expr {
        match c {
            Const::Bool(b) => lit(if *b { "1" } else { "0" }),
            Const::Int(v, t) => {
                let t = if ty.is_pointer() || ty.is_float() { t } else { ty };
                let e = int_lit(*v, t);
                if ty.is_pointer() {
                    e.cast(CType::named("uintptr_t")).cast(self.ctype(ty))
                } else if ty.is_float() {
                    e.cast(self.ctype(ty))
                } else {
                    e
                }
            }
            Const::F32(x) => {
                let e = f32_lit(*x);
                if *ty == Type::F64 { e.cast(CType::named("double")) } else { e }
            }
            Const::F64(x) => {
                let e = f64_lit(*x);
                if *ty == Type::F32 { e.cast(CType::named("float")) } else { e }
            }
            Const::Null(_) => lit("0").cast(self.ctype(ty)),
            Const::Str(b) => {
                let e = Expr::Str(b.clone());
                if ty.is_pointer() { e.cast(self.ctype(ty)) } else { e }
            }
        }
    }

    // ---- module tables ----------------------------------------------------------------

    fn emit_tables(&mut self, items: &mut Vec<Item>, kdescs: Vec<KernelDesc>) {
        items.push(Item::Blank);
        items.push(Item::Comment("the module table, registered before main".into()));
        let mut kinits = Vec::new();
        for k in &kdescs {
            let f = self.m.function(k.id);
            let FunctionKind::Kernel { stub_symbol, max_threads, min_blocks } = &f.kind else { unreachable!() };
            let stub = format!("__cuprite_stub_{}", k.id.0);
            items.push(Item::Var {
                storage: "extern",
                ty: CType::Func(Box::new(CType::named("void")), vec![]),
                name: stub.clone(),
                attrs: vec![],
                asm_name: Some(format!("__CU_SYM({})", c_string_literal(stub_symbol.as_bytes()))),
                init: None,
            });
            let np = f.params.len();
            let (sizes, aligns) = if np == 0 {
                (lit("NULL"), lit("NULL"))
            } else {
                let pt: Vec<CType> = f.params.iter().map(|p| self.ctype(&f.local(*p).ty)).collect();
                let sn = format!("__cuprite_k{}_param_sizes", k.id.0);
                let an = format!("__cuprite_k{}_param_aligns", k.id.0);
                let u32a = CType::Array(Box::new(CType::named("uint32_t")), np as u64).konst_elem();
                items.push(Item::Var {
                    storage: "static",
                    ty: u32a.clone(),
                    name: sn.clone(),
                    attrs: vec![],
                    asm_name: None,
                    init: Some(Initializer::List(pt.iter().map(|t| (None, Initializer::Expr(Expr::SizeofType(t.clone())))).collect())),
                });
                items.push(Item::Var {
                    storage: "static",
                    ty: u32a,
                    name: an.clone(),
                    attrs: vec![],
                    asm_name: None,
                    init: Some(Initializer::List(pt.iter().map(|t| (None, Initializer::Expr(Expr::AlignofType(t.clone())))).collect())),
                });
                (id(sn), id(an))
            };
            let e = |s: &str, x: Expr| (Some(s.to_string()), Initializer::Expr(x));
            kinits.push((
                None,
                Initializer::List(vec![
                    e("host_stub", id(stub).addr().cast(CType::named("void").konst().ptr())),
                    e("symbol", Expr::Str(stub_symbol.as_bytes().to_vec())),
                    e("name", Expr::Str(f.name.as_bytes().to_vec())),
                    e("entry", id(self.func_names[k.id.index()].clone())),
                    e("num_params", lit(format!("{np}u"))),
                    e("param_sizes", sizes),
                    e("param_aligns", aligns),
                    e("static_shared_bytes", lit(format!("{}u", k.static_shared))),
                    e("slot_bytes_per_thread", lit(format!("{}u", k.slot_bytes))),
                    e("local_bytes_per_thread", lit(format!("{}u", k.local_bytes))),
                    e("max_threads_per_block", lit(format!("{}u", max_threads.unwrap_or(0)))),
                    e("min_blocks_per_sm", lit(format!("{}u", min_blocks.unwrap_or(0)))),
                ]),
            ));
        }
        let mut vinits = Vec::new();
        for (i, g) in self.m.globals.iter().enumerate() {
            let Some(sym) = &g.host_symbol else { continue };
            if g.space == AddressSpace::Shared {
                continue;
            }
            let shadow = format!("__cuprite_shadow_{i}");
            items.push(Item::Var {
                storage: "extern",
                ty: CType::named("char"),
                name: shadow.clone(),
                attrs: vec![],
                asm_name: Some(format!("__CU_SYM({})", c_string_literal(sym.as_bytes()))),
                init: None,
            });
            let e = |s: &str, x: Expr| (Some(s.to_string()), Initializer::Expr(x));
            let (size, _) = self.layout(&g.ty);
            vinits.push((
                None,
                Initializer::List(vec![
                    e("host_shadow", id(shadow).addr().cast(CType::named("void").konst().ptr())),
                    e("name", Expr::Str(g.name.as_bytes().to_vec())),
                    e("device_addr", id(self.global_names[i].clone()).addr().cast(CType::named("void").ptr())),
                    e("size", lit(format!("{size}u"))),
                    e("is_constant", lit(if g.space == AddressSpace::Constant { "1u" } else { "0u" })),
                ]),
            ));
        }
        let nk = kinits.len();
        let nv = vinits.len();
        if nk > 0 {
            items.push(Item::Var {
                storage: "static",
                ty: CType::Array(Box::new(CType::named("cuprite_kernel_desc")), nk as u64).konst_elem(),
                name: "__cuprite_kernels".into(),
                attrs: vec![],
                asm_name: None,
                init: Some(Initializer::List(kinits)),
            });
        }
        if nv > 0 {
            items.push(Item::Var {
                storage: "static",
                ty: CType::Array(Box::new(CType::named("cuprite_var_desc")), nv as u64).konst_elem(),
                name: "__cuprite_vars".into(),
                attrs: vec![],
                asm_name: None,
                init: Some(Initializer::List(vinits)),
            });
        }
        let e = |s: &str, x: Expr| (Some(s.to_string()), Initializer::Expr(x));
        items.push(Item::Var {
            storage: "static",
            ty: CType::named("cuprite_module_desc").konst(),
            name: "__cuprite_module".into(),
            attrs: vec![],
            asm_name: None,
            init: Some(Initializer::List(vec![
                e("abi_version", lit("CUPRITE_ABI_VERSION")),
                e("source_file", Expr::Str(self.opts.source_name.as_bytes().to_vec())),
                e("kernels", if nk > 0 { id("__cuprite_kernels") } else { lit("NULL") }),
                e("num_kernels", lit(format!("{nk}u"))),
                e("vars", if nv > 0 { id("__cuprite_vars") } else { lit("NULL") }),
                e("num_vars", lit(format!("{nv}u"))),
            ])),
        });
        items.push(Item::Func {
            storage: "static",
            attrs: vec!["__attribute__((constructor))".into()],
            ret: CType::named("void"),
            name: "__cuprite_register".into(),
            params: vec![],
            body: Some({
                let mut b = Vec::new();
                if self.opts.checks {
                    b.push(call("__cuprite_san_module_checked", vec![]).stmt());
                }
                b.push(call("__cuprite_register_module", vec![id("__cuprite_module").addr()]).stmt());
                b
            }),
        });
    }

    // ---- device functions ---------------------------------------------------------------

    fn device_function_body(&mut self, id: FuncId) -> Vec<Stmt> {
        let f = self.m.function(id);
        let mut lv = Vec::new();
        let mut body = Vec::new();
        for (i, l) in f.locals.iter().enumerate() {
            let lid = LocalId(i as u32);
            lv.push(id_expr(&local_name(f, lid)));
            if !f.params.contains(&lid) {
                body.push(local_decl(self, l, &local_name(f, lid)));
            }
        }
        let cx = FnCx { mc: self, f, lv, kernel: None, prefix: String::new(), ver: String::new(), labels: HashMap::new(), subst: HashMap::new() };
        let blocks = reachable(f);
        let mut out = Vec::new();
        let mut errs = Vec::new();
        for b in blocks {
            cx.emit_block(b, &mut out, &mut errs);
        }
        body.extend(out);
        self.errors.extend(errs);
        body
    }

    // ---- kernels ------------------------------------------------------------------------

    fn emit_kernel(&mut self, kid: FuncId, orig: &'m Function, items: &mut Vec<Item>) -> KernelDesc {
        let mut inlined = self.bset.clone();
        inlined.extend(texture_wrappers(self.m));
        let mut f = inline::inline_barrier_calls(self.m, orig, &inlined);
        if !self.opts.line_directives {
            // One local per independent value, so that fission can keep fewer in slots.
            crate::webs::split_local_webs(&mut f);
            // Grid-stride loops read their index as `i0 + k * step` (affine in the thread).
            crate::stride_affine::rewrite_stride_inductions(&mut f);
            // Compare-and-swap branches as selects (never in checking mode: more stores).
            if !self.opts.checks {
                crate::store_select::select_conditional_stores(&mut f);
            }
        }
        let regions = simt::analyse(&f);
        let multi = regions.regions.len() > 1;
        // Kernels with warp collectives run under the general scheduler (`__cu_schedule`
        // in the prelude): each thread has a resume point in a `__cu_wslot`. Kernels with
        // barriers only keep the direct region-to-region jumps below.
        let warp = regions.has_warp;
        let general_why = if self.opts.line_directives {
            "-G".to_string()
        } else if self.opts.checks {
            // Checks name the thread (`__tx`…), which only thread loops have.
            "checking mode".to_string()
        } else if let Some(why) = grid_sync::general_form_reason(&f) {
            why.to_string()
        } else {
            match crate::fission::plan(&f) {
                Ok(plan) => return self.emit_kernel_fissioned(kid, &f, &regions, &plan, items),
                Err(why) => why,
            }
        };

        let (shared_off, static_shared) = self.shared_layout(&f);
        let grid_barriers = grid_sync::has_grid_barrier(&f);
        let yields = grid_sync::has_yield(&f);
        // Blocks of such kernels may stop and be resumed by the runtime (grid phases).
        let grid = grid_barriers || yields;
        let is_grid = |k: usize| grid_sync::is_grid_barrier(&f.block(regions.barriers[k]).term);

        let (slot_off, mut soff) = self.slot_layout(&f, &regions.slot_locals);
        let alive_off = if multi && !warp {
            let o = soff;
            soff += 1;
            Some(o)
        } else {
            None
        };
        let ws_off = if warp {
            soff = align_up(soff, 8);
            let o = soff;
            soff += 32; // sizeof(__cu_wslot)
            Some(o)
        } else {
            None
        };
        let slot_bytes = align_up(soff, 8);
        let local_bytes: u64 = f
            .locals
            .iter()
            .enumerate()
            .filter(|(i, _)| !regions.slot_locals.contains(&LocalId(*i as u32)))
            .map(|(_, l)| self.layout(&l.ty).0)
            .sum();
        let need_ctx = simt::needs_ctx(&f);

        let mut body = self.kernel_prologue(kid, &f, static_shared, &shared_off, need_ctx, items);
        let run = || id("__run");
        // Slot arrays.
        let mut lv: Vec<Expr> = f.locals.iter().enumerate().map(|(i, _)| id_expr(&local_name(&f, LocalId(i as u32)))).collect();
        body.extend(self.slot_arrays(&f, &slot_off, &mut lv));
        if let Some(o) = alive_off {
            body.push(Stmt::decl(
                CType::named("uint8_t").ptr().konst(),
                "__alive",
                Some(id("__slots").bin("+", lit(format!("(size_t){o}")).bin("*", id("__nthreads"))).cast(CType::named("uint8_t").ptr())),
            ));
        }
        if let Some(o) = ws_off {
            body.push(Stmt::decl(
                CType::named("__cu_wslot").ptr().konst(),
                "__ws",
                Some(id("__slots").bin("+", lit(format!("(size_t){o}")).bin("*", id("__nthreads"))).cast(CType::named("__cu_wslot").ptr())),
            ));
            let rank = reverse_postorder_rank(&f);
            let cuts: Vec<(Option<String>, Initializer)> = regions
                .barriers
                .iter()
                .map(|b| {
                    let (kind, op) = cut_code(&f, &f.block(*b).term);
                    let fields = [kind.to_string(), op.to_string(), format!("{}u", rank[b.index()])];
                    (None, Initializer::List(fields.into_iter().map(|x| (None, Initializer::Expr(lit(x)))).collect()))
                })
                .collect();
            let tname = format!("__cuprite_k{}_cuts", kid.0);
            items.push(Item::Var {
                storage: "static",
                ty: CType::Array(Box::new(CType::named("__cu_cut")), cuts.len() as u64).konst_elem(),
                name: tname,
                attrs: vec![],
                asm_name: None,
                init: Some(Initializer::List(cuts)),
            });
        }
        for (k, b) in regions.barriers.iter().enumerate() {
            if warp {
                break;
            }
            if let Terminator::Barrier { result: Some(_), .. } = f.block(*b).term {
                body.push(Stmt::decl(CType::named("int32_t"), format!("__bres{k}"), Some(lit("0"))));
            }
        }
        // The block loop.
        let mut blk = block_coords(need_ctx);
        let dim3 = |a: &str, b: &str, c: &str| Expr::CompoundLit(CType::named("cuprite_dim3"), vec![id(a), id(b), id(c)]);
        // Under the scheduler, every region ends by asking it what runs next.
        let sched_switch = |ver: &str| {
            let mut cases = vec![(lit("-1"), vec![Stmt::Goto("__block_done".into())])];
            if grid_barriers {
                cases.push((lit("-2"), grid_sync::suspend(lit("1u"))));
            }
            if yields {
                cases.push((lit("-3"), grid_sync::suspend(lit("__CU_GRID_YIELDED"))));
            }
            for r2 in 1..regions.regions.len() {
                cases.push((lit(r2.to_string()), vec![Stmt::Goto(format!("{ver}__region{r2}"))]));
            }
            Stmt::Switch {
                value: call(
                    "__cu_schedule",
                    vec![
                        id("__ws"),
                        id("__nthreads"),
                        id(format!("__cuprite_k{}_cuts", kid.0)),
                        id("__bx"),
                        id("__by"),
                        id("__bz"),
                        if yields { Expr::cond(id("__l").arrow("cooperative"), id("&__spins"), lit("NULL")) } else { lit("NULL") },
                    ],
                ),
                cases,
                default: vec![call("__builtin_unreachable", vec![]).stmt()],
            }
        };
        if yields {
            blk.push(Stmt::decl(CType::named("uint32_t"), "__spins", Some(lit("0"))));
        }
        if warp {
            let init = Stmt::For {
                init: Some(Box::new(Stmt::decl(CType::named("uint32_t"), "__i", Some(lit("0"))))),
                cond: Some(id("__i").bin("<", id("__nthreads"))),
                step: Some(Expr::PostInc(Box::new(id("__i")))),
                body: vec![id("__ws").index(id("__i")).member("st").assign(lit("1u")).stmt()],
            };
            if grid {
                // A block resuming after a grid barrier: its threads' resume points are
                // in its slots; the scheduler picks up from there.
                blk.push(Stmt::If { cond: id("__run").arrow("grid_resume"), then: vec![sched_switch("")], else_: vec![init] });
            } else {
                blk.push(init);
            }
        } else if grid {
            let after: Vec<usize> = (0..regions.barriers.len()).filter(|k| is_grid(*k)).map(|k| k + 1).collect();
            blk.push(grid_sync::resume_at_region("", &after));
        }
        let mut errs = Vec::new();
        // A kernel without barriers whose thread loop may vectorise gets two copies of
        // its block body: in blocks whose indices are below 2^21 (nearly all launches),
        // `blockIdx * blockDim + threadIdx` provably does not wrap in 32 bits (blockDim
        // is at most 1024, checked on entry), so the C compiler's range analysis can see
        // affine accesses and vectorise; other blocks run the general copy.
        let versioned = !multi && !self.opts.line_directives && !region_is_slow(self.m, &f, &regions.regions[0]);
        let versions: &[&str] = if versioned { &["", "g_"] } else { &[""] };
        let outer = std::mem::take(&mut blk);
        let mut version_bodies = Vec::new();
        self.used_block_bound.set(false);
        for ver in versions {
        if !ver.is_empty() && !self.used_block_bound.get() {
            // The fast copy relied on nothing the general one may not: it is the general
            // copy too (half the C to compile).
            break;
        }
        for (r, reg) in regions.regions.iter().enumerate() {
            blk.push(Stmt::Blank);
            let what = match reg.after_barrier {
                None => "from the kernel's entry".to_string(),
                Some(k) => format!("after barrier {k}"),
            };
            blk.push(Stmt::Comment(format!("region {r}: {what}")));
            if multi {
                blk.push(Stmt::Label(format!("{ver}__region{r}")));
            }
            let mut rb = Vec::new();
            for k in reg.exits.iter().filter(|_| !warp) {
                rb.push(Stmt::decl(CType::named("uint32_t"), format!("__n_b{k}"), Some(lit("0"))));
                if let Terminator::Barrier { pred: Some(_), .. } = f.block(regions.barriers[*k]).term {
                    rb.push(Stmt::decl(CType::named("uint32_t"), format!("__p_b{k}"), Some(lit("0"))));
                }
            }
            // The thread body.
            let mut tb = Vec::new();
            tb.push(Stmt::decl(
                CType::named("uint32_t").konst(),
                "__t",
                Some(id("__tz").bin("*", id("__bdy")).bin("+", id("__ty")).bin("*", id("__bdx")).bin("+", id("__tx"))),
            ));
            if warp {
                tb.push(Stmt::If {
                    cond: id("__ws").index(id("__t")).member("st").bin("!=", lit(format!("{}u", r + 1))),
                    then: vec![Stmt::Continue],
                    else_: vec![],
                });
            } else if r > 0 {
                tb.push(Stmt::If { cond: Expr::un("!", id("__alive").index(id("__t"))), then: vec![Stmt::Continue], else_: vec![] });
            }
            // Recording the thread for fault messages costs a store per thread, which
            // stops the C compiler from vectorising the thread loop: do it in regions that
            // are not vectorisable anyway (calls, runtime services) and under -G. Elsewhere
            // the thread is unknown (UINT32_MAX) and the runtime names only the block.
            let slow = self.opts.line_directives || region_is_slow(self.m, &f, reg);
            if slow {
                tb.push(run().arrow("fault_thread_linear").assign(id("__t")).stmt());
            } else {
                rb.push(run().arrow("fault_thread_linear").assign(lit("UINT32_MAX")).stmt());
            }
            if need_ctx {
                tb.push(id("__ctx").member("tid").assign(dim3("__tx", "__ty", "__tz")).stmt());
                tb.push(id("__ctx").member("tlinear").assign(id("__t")).stmt());
            }
            // Plain (thread-private, not live across a barrier) locals of this region.
            let used = simt::locals_used(&f, &reg.blocks);
            let mut init_locals: BTreeSet<LocalId> = used.clone();
            if r == 0 {
                init_locals.extend(f.params.iter().copied());
            }
            let bar_result = reg.after_barrier.and_then(|k| match f.block(regions.barriers[k]).term {
                Terminator::Barrier { result: Some(res), .. } if !warp => Some((k, res)),
                _ => None,
            });
            if let Some((_, res)) = bar_result {
                init_locals.insert(res);
            }
            // Under the scheduler, a cut point's results are in the thread's `__cu_wslot`.
            let cut_results: Vec<LocalId> = match reg.after_barrier {
                Some(k) if warp => simt::cut_results(&f.block(regions.barriers[k]).term),
                _ => vec![],
            };
            init_locals.extend(cut_results.iter().copied());
            for l in &init_locals {
                if !regions.slot_locals.contains(l) {
                    tb.push(local_decl(self, f.local(*l), &local_name(&f, *l)));
                }
            }
            if r == 0 {
                for (i, p) in f.params.iter().enumerate() {
                    if used.contains(p) || regions.slot_locals.contains(p) {
                        tb.push(lv[p.index()].clone().assign(id(format!("__arg{i}"))).stmt());
                    }
                }
            }
            if let Some((k, res)) = bar_result {
                tb.push(lv[res.index()].clone().assign(id(format!("__bres{k}"))).stmt());
            }
            let kcx = KernelCx { region: r, multi, warp, shared_off: &shared_off, regions: &regions, ret_goto: None, plain_atomics: None, defs: None, nonwrap: None };
            let cx = FnCx { mc: self, f: &f, lv: lv.clone(), kernel: Some(kcx), prefix: if multi { format!("{ver}r{r}_") } else { ver.to_string() }, ver: ver.to_string(), labels: HashMap::new(), subst: HashMap::new() };
            for (i, res) in cut_results.iter().enumerate() {
                tb.push(lv[res.index()].clone().assign(cx.warp_result(i, &f.local(*res).ty)).stmt());
            }
            for b in &reg.blocks {
                cx.emit_block(*b, &mut tb, &mut errs);
            }
            tb.push(Stmt::Label(format!("{ver}__r{r}_next")));
            let tloop = |v: &str, lim: &str, body: Vec<Stmt>| Stmt::For {
                init: Some(Box::new(Stmt::decl(CType::named("uint32_t"), v, Some(lit("0"))))),
                cond: Some(id(v).bin("<", id(lim))),
                step: Some(Expr::PostInc(Box::new(id(v)))),
                body,
            };
            rb.push(tloop("__tz", "__bdz", vec![tloop("__ty", "__bdy", vec![tloop("__tx", "__bdx", tb)])]));
            // Where the block goes next: all live threads must wait at the same barrier.
            let exits: Vec<usize> = reg.exits.iter().copied().collect();
            let result_of = |k: usize| -> Option<Stmt> {
                let Terminator::Barrier { kind, result: Some(_), .. } = f.block(regions.barriers[k]).term else { return None };
                let n = id(format!("__n_b{k}"));
                let p = id(format!("__p_b{k}"));
                let v = match kind {
                    BarrierKind::Count | BarrierKind::Sync | BarrierKind::Grid => p.cast(CType::named("int32_t")),
                    BarrierKind::And => p.bin("==", n),
                    BarrierKind::Or => p.bin("!=", lit("0")),
                };
                Some(id(format!("__bres{k}")).assign(v).stmt())
            };
            if warp {
                // Every region ends in the scheduler, which picks the next one: one
                // dispatch after the last region (a switch per region would make the C
                // quadratic in the number of regions).
                rb.push(Stmt::Goto(format!("{ver}__dispatch")));
                blk.push(Stmt::Block(rb));
                continue;
            }
            // After a barrier: the next region, or, after a grid barrier, the next phase.
            let go_on = |k: usize| -> Vec<Stmt> {
                if is_grid(k) {
                    grid_sync::suspend(lit(format!("{}u", k + 2)))
                } else {
                    vec![Stmt::Goto(format!("{ver}__region{}", k + 1))]
                }
            };
            match exits.len() {
                0 => rb.push(Stmt::Goto("__block_done".into())),
                1 => {
                    let k = exits[0];
                    rb.push(Stmt::If {
                        cond: id(format!("__n_b{k}")).bin("==", lit("0")),
                        then: vec![Stmt::Goto("__block_done".into())],
                        else_: vec![],
                    });
                    rb.extend(result_of(k));
                    rb.extend(go_on(k));
                }
                _ => {
                    let mut sum = id(format!("__n_b{}", exits[0]));
                    for k in &exits[1..] {
                        sum = sum.bin("+", id(format!("__n_b{k}")));
                    }
                    rb.push(Stmt::decl(CType::named("uint32_t").konst(), "__live", Some(sum)));
                    rb.push(Stmt::If {
                        cond: id("__live").bin("==", lit("0")),
                        then: vec![Stmt::Goto("__block_done".into())],
                        else_: vec![],
                    });
                    for k in &exits {
                        let mut then: Vec<Stmt> = result_of(*k).into_iter().collect();
                        then.extend(go_on(*k));
                        rb.push(Stmt::If { cond: id(format!("__n_b{k}")).bin("==", id("__live")), then, else_: vec![] });
                    }
                    rb.push(call("__cu_divergent_barrier", vec![id("__bx"), id("__by"), id("__bz")]).stmt());
                }
            }
            blk.push(Stmt::Block(rb));
        }
        if warp {
            blk.push(Stmt::Label(format!("{ver}__dispatch")));
            blk.push(sched_switch(ver));
        }
        version_bodies.push(std::mem::take(&mut blk));
        }
        blk = outer;
        if version_bodies.len() == 2 {
            let small = |v: &str| id(v).bin("<", lit("0x200000u"));
            let cond = small("__bx").bin("&&", small("__by")).bin("&&", small("__bz"));
            let general = version_bodies.pop().unwrap();
            let fast = version_bodies.pop().unwrap();
            blk.push(Stmt::If { cond, then: fast, else_: general });
        } else {
            blk.extend(version_bodies.pop().unwrap());
        }
        blk.push(Stmt::Label("__block_done".into()));
        if grid {
            blk.extend(grid_sync::block_end());
        }
        body.push(Stmt::For {
            init: Some(Box::new(Stmt::decl(CType::named("uint64_t"), "__blk", Some(run().arrow("first_block"))))),
            cond: Some(id("__blk").bin("<", run().arrow("end_block"))),
            step: Some(Expr::PostInc(Box::new(id("__blk")))),
            body: blk,
        });
        self.errors.extend(errs);
        let mut comment = format!("kernel `{}`: {} region(s), general form ({general_why})", f.name, regions.regions.len());
        if !regions.slot_locals.is_empty() {
            let names: Vec<String> = regions.slot_locals.iter().map(|l| f.local(*l).name.clone()).collect();
            comment.push_str(&format!("; kept in per-thread slots across barriers: {}", names.join(", ")));
        }
        items.push(Item::Comment(comment));
        items.push(Item::Func {
            storage: "static",
            attrs: vec![],
            ret: CType::named("void"),
            name: self.func_names[kid.index()].clone(),
            params: vec![(CType::named("cuprite_block_run").ptr(), "__run".into())],
            body: Some(body),
        });
        let barriers = f.blocks.iter().any(|b| matches!(b.term, Terminator::Barrier { .. }));
        let lockstep = crate::lockstep::has_steps(&f);
        KernelDesc { id: kid, static_shared, slot_bytes, local_bytes, barriers, lockstep }
    }

    /// Offsets of the static `__shared__` variables this kernel can reach, and their size.
    fn shared_layout(&self, f: &Function) -> (HashMap<GlobalId, u64>, u64) {
        let mut shared_off: HashMap<GlobalId, u64> = HashMap::new();
        let mut off = 0u64;
        for g in &self.shared_used_by(f) {
            let gl = self.m.global(*g);
            let (s, a) = self.layout(&gl.ty);
            let a = gl.align.unwrap_or(a).max(a);
            off = align_up(off, a);
            shared_off.insert(*g, off);
            off += s;
        }
        (shared_off, off)
    }

    /// Slot layout (structure of arrays: each slot local is an array over the block's
    /// threads at thread_slots + offset * nthreads), and the bytes per thread so far.
    fn slot_layout(&self, f: &Function, locals: &BTreeSet<LocalId>) -> (Vec<(LocalId, u64)>, u64) {
        let mut slot_off: Vec<(LocalId, u64)> = Vec::new();
        let mut soff = 0u64;
        for l in locals {
            let lo = f.local(*l);
            let (s, a) = self.layout(&lo.ty);
            let a = lo.align.unwrap_or(a).max(a);
            soff = align_up(soff, a);
            slot_off.push((*l, soff));
            soff += align_up(s, a);
        }
        (slot_off, soff)
    }

    /// Declarations of the slot arrays; points each slot local's lvalue at its element.
    fn slot_arrays(&self, f: &Function, slot_off: &[(LocalId, u64)], lv: &mut [Expr]) -> Vec<Stmt> {
        let mut body = Vec::new();
        for (l, o) in slot_off {
            let t = self.ctype(&f.local(*l).ty);
            let name = format!("__s_{}", local_name(f, *l));
            body.push(Stmt::decl(
                t.clone().ptr().konst(),
                name.clone(),
                Some(id("__slots").bin("+", lit(format!("(size_t){o}")).bin("*", id("__nthreads"))).cast(t.ptr())),
            ));
            lv[l.index()] = id(name).index(id("__t"));
        }
        body
    }

    /// The start of a kernel entry: launch dimensions (checked against CUDA's limits),
    /// shared memory, slots, the arguments and, for kernels that call device functions,
    /// the thread context.
    fn kernel_prologue(
        &mut self,
        kid: FuncId,
        f: &Function,
        static_shared: u64,
        shared_off: &HashMap<GlobalId, u64>,
        need_ctx: bool,
        items: &mut Vec<Item>,
    ) -> Vec<Stmt> {
        let mut body: Vec<Stmt> = Vec::new();
        let u32t = CType::named("uint32_t").konst();
        let run = || id("__run");
        body.push(Stmt::decl(CType::named("cuprite_launch").konst().ptr().konst(), "__l", Some(run().arrow("launch"))));
        for (n, fld) in [("__bdx", "block_dim.x"), ("__bdy", "block_dim.y"), ("__bdz", "block_dim.z"), ("__gdx", "grid_dim.x"), ("__gdy", "grid_dim.y"), ("__gdz", "grid_dim.z")] {
            let (a, b) = fld.split_once('.').unwrap();
            body.push(Stmt::decl(u32t.clone(), n, Some(id("__l").arrow(a).member(b))));
        }
        // CUDA's limits (the runtime rejects larger launches); stated here so that the
        // C compiler knows the ranges of thread indices.
        body.push(Stmt::If {
            cond: id("__bdx").bin(">", lit("1024u")).bin("||", id("__bdy").bin(">", lit("1024u"))).bin("||", id("__bdz").bin(">", lit("64u"))),
            then: vec![call("__cuprite_kernel_error", vec![lit("9 /* cudaErrorInvalidConfiguration */"), Expr::Str(b"block dimensions exceed (1024, 1024, 64)".to_vec())]).stmt()],
            else_: vec![],
        });
        body.push(Stmt::decl(u32t.clone(), "__nthreads", Some(id("__bdx").bin("*", id("__bdy")).bin("*", id("__bdz")))));
        body.push(Stmt::decl(CType::named("char").ptr().konst(), "__shared", Some(run().arrow("shared"))));
        body.push(Stmt::decl(
            CType::named("char").ptr().konst(),
            "__dyn_shared",
            Some(id("__shared").bin("+", call("CUPRITE_DYNAMIC_SHARED_OFFSET", vec![lit(format!("{static_shared}u"))]))),
        ));
        body.push(Stmt::decl(CType::named("char").ptr().konst(), "__slots", Some(run().arrow("thread_slots"))));
        if self.opts.checks {
            // What the checker wants, read once per run (cuprite_abi.h, "checking mode"):
            // the checks in thread loops test values the C compiler sees do not change.
            let int = CType::named("int").konst();
            body.push(Stmt::decl(int.clone(), "__san_skip", Some(id("__cuprite_san_skip_accesses"))));
            body.push(Stmt::decl(int.clone(), "__san_values", Some(id("__cuprite_san_want_values"))));
            body.push(Stmt::decl(int, "__san_events", Some(id("__cuprite_san_want_events"))));
        }
        // Kernel arguments, read once per run.
        for (i, p) in f.params.iter().enumerate() {
            let t = self.ctype(&f.local(*p).ty);
            body.push(Stmt::decl(
                t.clone(),
                format!("__arg{i}"),
                Some(id("__l").arrow("args").index(lit(i.to_string())).cast(t.clone().konst().ptr()).deref()),
            ));
        }
        if need_ctx {
            // Offsets of the module's static shared variables in this kernel's layout.
            let nsh = self.shared_index.len();
            let shoff = if nsh > 0 {
                let mut v = vec![0u64; nsh];
                for (g, o) in shared_off {
                    v[self.shared_index[g]] = *o;
                }
                let tname = format!("__cuprite_k{}_shoff", kid.0);
                items.push(Item::Var {
                    storage: "static",
                    ty: CType::Array(Box::new(CType::named("uint32_t")), nsh as u64).konst_elem(),
                    name: tname.clone(),
                    attrs: vec![],
                    asm_name: None,
                    init: Some(Initializer::List(v.iter().map(|o| (None, Initializer::Expr(lit(format!("{o}u"))))).collect())),
                });
                id(tname)
            } else {
                lit("NULL")
            };
            let e = |s: &str, x: Expr| (Some(s.to_string()), Initializer::Expr(x));
            body.push(Stmt::Decl {
                ty: CType::named("__cuprite_tctx"),
                name: "__ctx".into(),
                init: Some(Initializer::List(vec![
                    e("bdim", id("__l").arrow("block_dim")),
                    e("gdim", id("__l").arrow("grid_dim")),
                    e("shared", id("__shared")),
                    e("dyn_shared", id("__dyn_shared")),
                    e("dyn_shared_bytes", id("__l").arrow("dynamic_shared_bytes").cast(CType::named("uint32_t"))),
                    e("shoff", shoff),
                ])),
            });
        }
        body
    }

    /// Static shared variables used by a kernel (after inlining) and the functions it
    /// can call, in GlobalId order.
    fn shared_used_by(&self, f: &Function) -> Vec<GlobalId> {
        let mut set = BTreeSet::new();
        let mut seen_fn = HashSet::new();
        let mut stack: Vec<&Function> = vec![f];
        let mut indirect = false;
        while let Some(g) = stack.pop() {
            for b in &g.blocks {
                for i in &b.insts {
                    match &i.kind {
                        InstKind::GlobalAddr(gid) if self.shared_index.contains_key(gid) => {
                            set.insert(*gid);
                        }
                        InstKind::Call { func, .. } | InstKind::FuncAddr(func) => {
                            if seen_fn.insert(*func) {
                                stack.push(self.m.function(*func));
                            }
                        }
                        InstKind::CallIndirect { .. } => indirect = true,
                        _ => {}
                    }
                }
            }
        }
        if indirect {
            // Calls through pointers may reach any function whose address is taken.
            for h in &self.m.functions {
                for b in &h.blocks {
                    for i in &b.insts {
                        if let InstKind::FuncAddr(func) = &i.kind {
                            if seen_fn.insert(*func) {
                                for b2 in &self.m.function(*func).blocks {
                                    for i2 in &b2.insts {
                                        if let InstKind::GlobalAddr(gid) = &i2.kind {
                                            if self.shared_index.contains_key(gid) {
                                                set.insert(*gid);
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        set.into_iter().collect()
    }
}

impl CType {
    /// `const` on the element type of an array (for tables).
    fn konst_elem(self) -> CType {
        match self {
            CType::Array(e, n) => CType::Array(Box::new(e.konst()), n),
            t => t.konst(),
        }
    }
}

pub struct KernelDesc {
    id: FuncId,
    static_shared: u64,
    slot_bytes: u64,
    local_bytes: u64,
    barriers: bool,
    lockstep: bool,
}

/// Whether a region's thread loop cannot be vectorised anyway (calls, runtime services).
/// A cut point's entry in a kernel's `__cu_cut` table (see the prelude): kind 0 and the
/// `BarrierKind` for barriers, kind 1 and the `__CU_W_*` code for warp collectives.
fn cut_code(f: &Function, t: &Terminator) -> (u8, u8) {
    match t {
        Terminator::Barrier { kind, .. } => (
            0,
            match kind {
                BarrierKind::Sync => 0,
                BarrierKind::Count => 1,
                BarrierKind::And => 2,
                BarrierKind::Or => 3,
                BarrierKind::Grid => 4, // __CU_B_GRID
            },
        ),
        Terminator::Warp { op, args, .. } => {
            let signed = args.get(1).is_some_and(|a| f.value_type(*a).is_signed());
            let code = match op {
                WarpOp::Shfl(ShflKind::Idx) => 0,
                WarpOp::Shfl(ShflKind::Up) => 1,
                WarpOp::Shfl(ShflKind::Down) => 2,
                WarpOp::Shfl(ShflKind::Xor) => 3,
                WarpOp::Vote(VoteKind::All) => 4,
                WarpOp::Vote(VoteKind::Any) => 5,
                WarpOp::Vote(VoteKind::Uni) => 6,
                WarpOp::Vote(VoteKind::Ballot) => 7,
                WarpOp::ActiveMask => 8,
                WarpOp::SyncWarp => 9,
                WarpOp::MatchAny => 10,
                WarpOp::MatchAll => 11,
                WarpOp::Reduce(ReduceKind::Add) => 12,
                WarpOp::Reduce(ReduceKind::Min) => if signed { 13 } else { 14 },
                WarpOp::Reduce(ReduceKind::Max) => if signed { 15 } else { 16 },
                WarpOp::Reduce(ReduceKind::And) => 17,
                WarpOp::Reduce(ReduceKind::Or) => 18,
                WarpOp::Reduce(ReduceKind::Xor) => 19,
                WarpOp::Lockstep => 20,
                WarpOp::Yield => 21,
            };
            (1, code)
        }
        _ => unreachable!("not a cut point"),
    }
}

/// Each block's position in a reverse postorder of the CFG (unreachable blocks last): of
/// two lock-step points, the one with the lower rank is the one a lane meets first, so
/// lanes waiting there are the ones that are behind (see `__cu_schedule`).
fn reverse_postorder_rank(f: &Function) -> Vec<u32> {
    let mut rank = vec![u32::MAX; f.blocks.len()];
    for (i, b) in cuprite_ir::dom::Dominators::new(f).reverse_postorder().enumerate() {
        rank[b.index()] = i as u32;
    }
    rank
}

/// Device functions a kernel inlines besides those with barriers: the texture-fetch
/// templates of include/cuprite/texture_fetch.h (one block around a `__cuprite_tex_fetch`
/// builtin, no calls). Inlined, the fetch is a builtin of the thread loop, which then
/// stays vectorisable (the prelude gives 4-byte fetches a SIMD clone, `__cu_tex_fetch4`).
fn texture_wrappers(m: &Module) -> HashSet<FuncId> {
    let tex = |i: &Inst| {
        matches!(&i.kind, InstKind::CallBuiltin { builtin: Builtin::Math(b), .. }
            if matches!(b, MathFn::CupriteTexFetch | MathFn::CupriteTexFetchInt))
    };
    let plain = |i: &Inst| match &i.kind {
        InstKind::Call { .. } | InstKind::CallIndirect { .. } => false,
        InstKind::CallBuiltin { builtin, .. } => matches!(builtin, Builtin::Math(_)),
        _ => true,
    };
    (0..m.functions.len())
        .map(|i| FuncId(i as u32))
        .filter(|id| {
            let f = m.function(*id);
            f.kind == FunctionKind::Device
                && f.blocks.len() == 1
                && f.blocks[0].insts.iter().any(tex)
                && f.blocks[0].insts.iter().all(plain)
        })
        .collect()
}

fn region_is_slow(m: &Module, f: &Function, reg: &simt::Region) -> bool {
    reg.blocks.iter().flat_map(|b| &f.block(*b).insts).any(|i| inst_is_slow(m, i, 0))
}

/// Whether an instruction keeps its thread loop from vectorising. A call to a device
/// function counts only if that function (or one it calls, 4 deep) does something slow,
/// or synchronises: the C compiler inlines small leaf functions such as the
/// `tex2D<float>` template and vectorises through them (texture fetches reach a prelude
/// function with a SIMD clone, `__cu_tex_fetch4`).
fn inst_is_slow(m: &Module, i: &cuprite_ir::Inst, depth: u32) -> bool {
    match &i.kind {
        InstKind::Call { func, .. } => {
            let g = m.function(*func);
            depth >= 4
                || g.blocks.iter().any(|b| matches!(b.term, Terminator::Barrier { .. } | Terminator::Warp { .. }))
                || g.blocks.iter().flat_map(|b| &b.insts).any(|i| inst_is_slow(m, i, depth + 1))
        }
        InstKind::CallIndirect { .. } => true,
        InstKind::CallBuiltin { builtin, .. } => !matches!(builtin, Builtin::Math(_)),
        _ => false,
    }
}

/// The block's coordinates from its linear index `__blk`, recorded for fault messages.
fn block_coords(need_ctx: bool) -> Vec<Stmt> {
    let mut blk = Vec::new();
    let u32n = CType::named("uint32_t").konst();
    blk.push(Stmt::decl(u32n.clone(), "__bx", Some(id("__blk").bin("%", id("__gdx")).cast(CType::named("uint32_t")))));
    blk.push(Stmt::decl(
        u32n.clone(),
        "__by",
        Some(id("__blk").bin("/", id("__gdx")).bin("%", id("__gdy")).cast(CType::named("uint32_t"))),
    ));
    blk.push(Stmt::decl(
        u32n,
        "__bz",
        Some(id("__blk").bin("/", id("__gdx").cast(CType::named("uint64_t")).bin("*", id("__gdy"))).cast(CType::named("uint32_t"))),
    ));
    let dim3 = |a: &str, b: &str, c: &str| Expr::CompoundLit(CType::named("cuprite_dim3"), vec![id(a), id(b), id(c)]);
    blk.push(id("__run").arrow("fault_block").assign(dim3("__bx", "__by", "__bz")).stmt());
    if need_ctx {
        blk.push(id("__ctx").member("bid").assign(dim3("__bx", "__by", "__bz")).stmt());
    }
    blk
}

fn id_expr(s: &str) -> Expr {
    id(s.to_string())
}

pub fn local_name(f: &Function, l: LocalId) -> String {
    let n = sanitize(&f.local(l).name);
    if n.is_empty() {
        format!("l{}", l.0)
    } else {
        format!("l{}_{}", l.0, n)
    }
}

fn local_decl(mc: &ModCx, l: &Local, name: &str) -> Stmt {
    let mut t = mc.ctype(&l.ty);
    if let Some(a) = l.align {
        let (_, na) = mc.m.layout(&l.ty);
        if a > na {
            // `__attribute__((aligned(a))) __typeof__(T) name`: a type that also works for
            // arrays (`alignas(W) unsigned char buf[sizeof(W)]`).
            t = CType::Named(format!("__attribute__((aligned({a}))) __typeof__({})", t.declare("")));
        }
    }
    Stmt::decl(t, name, None)
}

fn reachable(f: &Function) -> Vec<BlockId> {
    let mut seen = vec![false; f.blocks.len()];
    let mut order = Vec::new();
    let mut stack = vec![BlockId(0)];
    seen[0] = true;
    while let Some(b) = stack.pop() {
        order.push(b);
        let succ = f.block(b).term.successors();
        for s in succ.into_iter().rev() {
            if !seen[s.index()] {
                seen[s.index()] = true;
                stack.push(s);
            }
        }
    }
    order
}

pub fn int_lit(v: i64, t: &Type) -> Expr {
    match t {
        Type::Bool => lit(if v != 0 { "1" } else { "0" }),
        Type::I8 => lit(format!("{}", v as i8)).cast(CType::named("int8_t")),
        Type::U8 => lit(format!("{}", v as u8)).cast(CType::named("uint8_t")),
        Type::I16 => lit(format!("{}", v as i16)).cast(CType::named("int16_t")),
        Type::U16 => lit(format!("{}", v as u16)).cast(CType::named("uint16_t")),
        Type::I32 => {
            let x = v as i32;
            if x == i32::MIN {
                lit("INT32_MIN")
            } else {
                lit(format!("{x}"))
            }
        }
        Type::U32 => lit(format!("{}u", v as u32)),
        Type::I64 => {
            if v == i64::MIN {
                lit("INT64_MIN")
            } else {
                lit(format!("INT64_C({v})"))
            }
        }
        _ => lit(format!("UINT64_C({})", v as u64)),
    }
}

fn f32_lit(x: f32) -> Expr {
    if x.is_nan() {
        let bits = x.to_bits();
        let e = lit(format!("__builtin_nanf(\"0x{:x}\")", bits & 0x3fffff));
        if bits >> 31 != 0 { Expr::un("-", e) } else { e }
    } else if x.is_infinite() {
        if x > 0.0 { lit("__builtin_inff()") } else { Expr::un("-", lit("__builtin_inff()")) }
    } else {
        let s = format!("{x:?}");
        let s = if s.contains('.') || s.contains('e') { s } else { format!("{s}.0") };
        if let Some(rest) = s.strip_prefix('-') {
            Expr::un("-", lit(format!("{rest}f")))
        } else {
            lit(format!("{s}f"))
        }
    }
}

fn f64_lit(x: f64) -> Expr {
    if x.is_nan() {
        let bits = x.to_bits();
        let e = lit(format!("__builtin_nan(\"0x{:x}\")", bits & 0x7_ffff_ffff_ffff));
        if bits >> 63 != 0 { Expr::un("-", e) } else { e }
    } else if x.is_infinite() {
        if x > 0.0 { lit("__builtin_inf()") } else { Expr::un("-", lit("__builtin_inf()")) }
    } else {
        let s = format!("{x:?}");
        let s = if s.contains('.') || s.contains('e') { s } else { format!("{s}.0") };
        if let Some(rest) = s.strip_prefix('-') {
            Expr::un("-", lit(rest.to_string()))
        } else {
            lit(s)
        }
    }
}

struct KernelCx<'a> {
    region: usize,
    multi: bool,
    /// Under the general scheduler (the kernel has warp collectives).
    warp: bool,
    shared_off: &'a HashMap<GlobalId, u64>,
    regions: &'a Regions,
    /// Under barrier-region fission (`emit/fission.rs`): where a returning thread goes.
    ret_goto: Option<String>,
    /// Pointers into shared memory whose atomics may be plain read-modify-writes here
    /// (see `emit/fission.rs`).
    plain_atomics: Option<&'a HashSet<ValueId>>,
    /// Under fission: each value's defining instruction, for widening signed 32-bit
    /// index arithmetic into 64 bits where it feeds a pointer offset (`wide_index`).
    defs: Option<&'a HashMap<ValueId, InstKind>>,
    /// Under fission: `threadIdx.x - k`-style unsigned offsets proved not to wrap
    /// (`guarded_index.rs`), redone in 64 bits by `wide_index`.
    nonwrap: Option<&'a HashSet<ValueId>>,
}

/// Lowering of one function's blocks (a device function, or one region of a kernel).
struct FnCx<'a, 'm> {
    mc: &'a ModCx<'m>,
    f: &'a Function,
    /// The lvalue of each local.
    lv: Vec<Expr>,
    kernel: Option<KernelCx<'a>>,
    prefix: String,
    /// Label prefix of the kernel body's copy (see versioning in `emit_kernel`).
    ver: String,
    /// Labels that replace the usual ones for jumps to these blocks.
    labels: HashMap<BlockId, String>,
    /// Expressions that stand for values instead of their C variables (values
    /// recomputed where used, see `Plan::remat`).
    subst: HashMap<ValueId, Expr>,
}

fn vname(v: ValueId) -> String {
    format!("v{}", v.0)
}

fn int_suffix(t: &Type) -> Option<&'static str> {
    Some(match t {
        Type::Bool | Type::I8 | Type::I16 | Type::U8 | Type::U16 | Type::I32 => "i32",
        Type::U32 => "u32",
        Type::I64 => "i64",
        Type::U64 => "u64",
        _ => return None,
    })
}

fn cvt_suffix(t: &Type) -> Option<&'static str> {
    Some(match t {
        Type::I8 => "i8",
        Type::U8 => "u8",
        Type::I16 => "i16",
        Type::U16 => "u16",
        Type::I32 => "i32",
        Type::U32 => "u32",
        Type::I64 => "i64",
        Type::U64 => "u64",
        Type::F32 => "f32",
        Type::F64 => "f64",
        _ => return None,
    })
}

impl<'a, 'm> FnCx<'a, 'm> {
    fn label(&self, b: BlockId) -> String {
        if let Some(l) = self.labels.get(&b) {
            return l.clone();
        }
        format!("{}bb{}", self.prefix, b.0)
    }
    fn v(&self, v: ValueId) -> Expr {
        if let Some(e) = self.subst.get(&v) {
            return e.clone();
        }
        id(vname(v))
    }
    fn vty(&self, v: ValueId) -> &Type {
        self.f.value_type(v)
    }
    fn line(&self, loc: Option<SrcLoc>, last: &mut Option<(u32, u32)>, out: &mut Vec<Stmt>) {
        if !self.mc.opts.line_directives {
            return;
        }
        if let Some(l) = loc {
            if *last != Some((l.file.0, l.line)) {
                *last = Some((l.file.0, l.line));
                let file = self.mc.m.files.get(l.file.index()).cloned().unwrap_or_else(|| self.mc.opts.source_name.clone());
                out.push(Stmt::Line(l.line, file));
            }
        }
    }
    fn ctx_expr(&self) -> Expr {
        if self.kernel.is_some() {
            id("__ctx").addr()
        } else {
            id("__ctx")
        }
    }
    fn block_dim3(&self) -> Expr {
        if self.kernel.is_some() {
            Expr::CompoundLit(CType::named("cuprite_dim3"), vec![id("__bx"), id("__by"), id("__bz")])
        } else {
            id("__ctx").arrow("bid")
        }
    }
    fn thread_dim3(&self) -> Expr {
        if self.kernel.is_some() {
            Expr::CompoundLit(CType::named("cuprite_dim3"), vec![id("__tx"), id("__ty"), id("__tz")])
        } else {
            id("__ctx").arrow("tid")
        }
    }

    fn emit_block(&self, b: BlockId, out: &mut Vec<Stmt>, errs: &mut Vec<BackendError>) {
        let block = self.f.block(b);
        out.push(Stmt::Label(self.label(b)));
        let mut last = None;
        for inst in &block.insts {
            self.line(inst.loc, &mut last, out);
            if let Err(e) = self.emit_inst(inst, out) {
                errs.push(e);
            }
        }
        self.line(block.term_loc, &mut last, out);
        self.emit_term(block, out, errs);
    }

    fn def(&self, out: &mut Vec<Stmt>, r: Option<ValueId>, e: Expr) {
        match r {
            Some(r) if *self.vty(r) != Type::Void => {
                out.push(Stmt::decl(self.mc.ctype(self.vty(r)), vname(r), Some(e)));
            }
            _ => out.push(e.stmt()),
        }
    }

    fn emit_inst(&self, inst: &Inst, out: &mut Vec<Stmt>) -> Result<(), BackendError> {
        let loc = inst.loc;
        let r = inst.result;
        let rty = r.map(|r| self.vty(r).clone()).unwrap_or(Type::Void);
        let need_r = || r.ok_or_else(|| err("internal error: instruction without a result", loc));
        match &inst.kind {
            InstKind::Const(c) => {
                need_r()?;
                self.def(out, r, self.mc.const_expr(c, &rty));
            }
            InstKind::Unary(op, a) => {
                let x = self.v(*a);
                let e = match op {
                    UnaryOp::Neg => {
                        if self.vty(*a).is_integer() && !self.vty(*a).is_signed() {
                            lit("0").cast(self.mc.ctype(self.vty(*a))).bin("-", x)
                        } else {
                            Expr::un("-", x)
                        }
                    }
                    UnaryOp::Not => Expr::un("~", x),
                    UnaryOp::LNot => Expr::un("!", x),
                };
                self.def(out, r, e);
            }
            InstKind::Binary(op, a, b) => {
                let e = self.binary(*op, *a, *b, loc)?;
                self.def(out, r, e);
            }
            InstKind::Cast(a) => {
                let e = self.cast(self.vty(*a), &rty, self.v(*a), loc)?;
                self.def(out, r, e);
            }
            InstKind::Bitcast(a) => {
                let from = self.vty(*a);
                let r = need_r()?;
                let ct = self.mc.ctype(&rty);
                if from == &rty {
                    self.def(out, Some(r), self.v(*a));
                } else if from.is_float() || rty.is_float() || matches!(rty, Type::Struct(_)) {
                    let (fs, _) = self.mc.m.layout(from);
                    let (ts, _) = self.mc.m.layout(&rty);
                    if fs != ts {
                        return Err(err(format!("internal error: bitcast between sizes {fs} and {ts}"), loc));
                    }
                    out.push(Stmt::decl(ct, vname(r), None));
                    out.push(
                        call("memcpy", vec![id(vname(r)).addr(), self.v(*a).addr(), Expr::SizeofType(self.mc.ctype(&rty))]).stmt(),
                    );
                } else if from.is_pointer() || rty.is_pointer() {
                    self.def(out, Some(r), self.v(*a).cast(CType::named("uintptr_t")).cast(ct));
                } else {
                    self.def(out, Some(r), self.v(*a).cast(ct));
                }
            }
            InstKind::Select(c, a, b) => {
                self.def(out, r, Expr::cond(self.v(*c), self.v(*a), self.v(*b)));
            }
            InstKind::LoadLocal(l) => {
                if matches!(self.f.local(*l).ty, Type::Array(..)) {
                    return Err(err("internal error: an array local is read as a value", loc));
                }
                self.def(out, r, self.lv[l.index()].clone());
            }
            InstKind::StoreLocal(l, v) => {
                out.push(self.lv[l.index()].clone().assign(self.v(*v)).stmt());
            }
            InstKind::LocalAddr(l) => {
                self.def(out, r, self.lv[l.index()].clone().addr());
            }
            InstKind::GlobalAddr(g) => {
                let gl = self.mc.m.global(*g);
                let pt = self.mc.ctype(&gl.ty).ptr();
                let e = if gl.space == AddressSpace::Shared {
                    match &self.kernel {
                        Some(k) => {
                            if gl.dynamic_shared {
                                id("__dyn_shared").cast(pt)
                            } else {
                                let off = k.shared_off.get(g).copied().unwrap_or(0);
                                id("__shared").bin("+", lit(off.to_string())).cast(pt)
                            }
                        }
                        None => {
                            if gl.dynamic_shared {
                                id("__ctx").arrow("dyn_shared").cast(pt)
                            } else {
                                let idx = self.mc.shared_index[g];
                                id("__ctx")
                                    .arrow("shared")
                                    .bin("+", id("__ctx").arrow("shoff").index(lit(idx.to_string())))
                                    .cast(pt)
                            }
                        }
                    }
                } else {
                    id(self.mc.global_names[g.index()].clone()).addr()
                };
                let e = if rty.is_pointer() && self.mc.ctype(&rty) != self.mc.ctype(&gl.ty).ptr() {
                    e.cast(self.mc.ctype(&rty))
                } else {
                    e
                };
                self.def(out, r, e);
            }
            InstKind::Load { ptr, volatile } => {
                let e = self.typed_ptr(*ptr, &rty, *volatile).deref();
                self.def(out, r, e);
            }
            InstKind::Store { ptr, value, volatile } => {
                let vt = self.vty(*value).clone();
                let p = self.typed_ptr(*ptr, &vt, *volatile);
                out.push(p.deref().assign(self.v(*value)).stmt());
            }
            InstKind::FieldAddr { base, strukt, field } => {
                let st = CType::Named(self.mc.struct_names[strukt.index()].clone()).ptr();
                let b = if self.mc.ctype(self.vty(*base)) == st { self.v(*base) } else { self.v(*base).cast(st) };
                let mut e = b.arrow(&self.mc.field_names[strukt.index()][*field as usize]).addr();
                let fty = &self.mc.m.struct_def(*strukt).fields[*field as usize].ty;
                if self.mc.ctype(&rty) != self.mc.ctype(fty).ptr() {
                    e = e.cast(self.mc.ctype(&rty));
                }
                self.def(out, r, e);
            }
            InstKind::PtrAdd { base, index } => {
                let bt = self.vty(*base);
                let b = if self.mc.ctype(bt) != self.mc.ctype(&rty) { self.v(*base).cast(self.mc.ctype(&rty)) } else { self.v(*base) };
                self.def(out, r, b.bin("+", self.wide_index(*index, 6)));
            }
            InstKind::PtrDiff(a, b) => {
                self.def(out, r, self.v(*a).bin("-", self.v(*b)).cast(CType::named("int64_t")));
            }
            InstKind::Copy { dst, src, bytes } => {
                out.push(call("memcpy", vec![self.v(*dst), self.v(*src), lit(format!("{bytes}u"))]).stmt());
            }
            InstKind::Check(op) => {
                let e = self.check_call(op, loc);
                match op {
                    CheckOp::Access { .. } => self.def(out, Some(need_r()?), e.cast(self.mc.ctype(&rty))),
                    _ => out.push(e.stmt()),
                }
            }
            InstKind::Special(s) => {
                let e = self.special(*s);
                let e = if rty == Type::U32 || rty == Type::Void { e } else { e.cast(self.mc.ctype(&rty)) };
                self.def(out, r, e);
            }
            InstKind::Call { func, args } => {
                if self.mc.bset.contains(func) {
                    return Err(err("internal error: a call of a barrier function was not inlined", loc));
                }
                let mut a = vec![self.ctx_expr()];
                a.extend(args.iter().map(|x| self.v(*x)));
                self.def(out, r, call(&self.mc.func_names[func.index()], a));
            }
            InstKind::CallIndirect { callee, args } => {
                let mut a = vec![self.ctx_expr()];
                a.extend(args.iter().map(|x| self.v(*x)));
                self.def(out, r, Expr::Call(Box::new(self.v(*callee)), a));
            }
            InstKind::FuncAddr(func) => {
                if matches!(self.mc.m.function(*func).kind, FunctionKind::Kernel { .. }) {
                    return Err(err("the address of a kernel is taken in device code (not supported)", loc));
                }
                let e = id(self.mc.func_names[func.index()].clone()).addr();
                let e = if matches!(rty, Type::FnPtr(_)) { e } else { e.cast(self.mc.ctype(&rty)) };
                self.def(out, r, e);
            }
            InstKind::CallBuiltin { builtin, args } => self.builtin(builtin, args, r, &rty, loc, out)?,
        }
        Ok(())
    }

    /// A pointer offset: under fission, `int` additions, subtractions and multiplications
    /// that compute it are redone in 64 bits. They differ from the 32-bit ones only where
    /// those overflow, which is undefined in CUDA C++ (nvcc widens them the same way), and
    /// they keep `base + tid`-style offsets affine for the vectoriser under `-fwrapv`.
    fn wide_index(&self, v: ValueId, depth: u32) -> Expr {
        let leaf = || if *self.vty(v) == Type::I32 && depth < 6 { self.v(v).cast(CType::named("int64_t")) } else { self.v(v) };
        let Some(defs) = self.kernel.as_ref().and_then(|k| k.defs) else { return self.v(v) };
        // `s - k` where a guard proved `s >= k`: the same number in 64 bits.
        if self.kernel.as_ref().and_then(|k| k.nonwrap).is_some_and(|n| n.contains(&v)) {
            if let Some(InstKind::Binary(BinaryOp::Sub, a, k)) = defs.get(&v) {
                return self.v(*a).cast(CType::named("int64_t")).bin("-", self.v(*k).cast(CType::named("int64_t")));
            }
        }
        if let Some(e) = self.xor_run_index(v, defs) {
            return e;
        }
        // Unsigned `blockIdx.x * blockDim.x + threadIdx.x` in the fast copy: below 2^31,
        // the same number in 64 bits (as for the `int` cast below).
        if *self.vty(v) == Type::U32 && self.ver.is_empty() && matches!(defs.get(&v), Some(InstKind::Binary(BinaryOp::Add, ..))) {
            if let Some(e) = self.wide_thread_index(v, defs, 0) {
                self.mc.used_block_bound.set(true);
                return e;
            }
        }
        if *self.vty(v) != Type::I32 || depth == 0 {
            return leaf();
        }
        match defs.get(&v) {
            Some(InstKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul), a, b))
                if *self.vty(*a) == Type::I32 && *self.vty(*b) == Type::I32 =>
            {
                let o = match op {
                    BinaryOp::Add => "+",
                    BinaryOp::Sub => "-",
                    _ => "*",
                };
                self.wide_index(*a, depth - 1).bin(o, self.wide_index(*b, depth - 1))
            }
            // `(int)(blockIdx.x * blockDim.x + threadIdx.x)`: in the fissioned copy for
            // blocks below 2^21 the unsigned sum is below 2^31, so it is the same number
            // in 64 bits, where the C compiler sees it affine in the thread index.
            Some(InstKind::Cast(a)) if *self.vty(*a) == Type::U32 && self.ver.is_empty() => match self.wide_thread_index(*a, defs, 0) {
                Some(e) => {
                    self.mc.used_block_bound.set(true);
                    e
                }
                None => leaf(),
            },
            _ => leaf(),
        }
    }

    /// `v` in 64 bits when it is a thread or block coordinate or dimension, a block index
    /// times its dimension (or a constant up to 1024), or that plus a thread index: below
    /// 2^31 where block indices are below 2^21 (the fast copy of a fissioned kernel).
    fn wide_thread_index(&self, v: ValueId, defs: &HashMap<ValueId, InstKind>, level: u8) -> Option<Expr> {
        let special = |v: ValueId, want: fn(&SpecialReg) -> bool| matches!(defs.get(&v), Some(InstKind::Special(s)) if want(s));
        let is_tid = |s: &SpecialReg| matches!(s, SpecialReg::ThreadIdx(_));
        let is_bid = |s: &SpecialReg| matches!(s, SpecialReg::BlockIdx(_));
        let is_dim = |s: &SpecialReg| matches!(s, SpecialReg::BlockDim(_));
        let ty = |v: ValueId| self.vty(v).clone();
        let small = |v: ValueId| crate::const_fold::small_const(v, defs, &ty, 4).is_some_and(|c| c <= 1024);
        let wide = |v: ValueId| self.v(v).cast(CType::named("int64_t"));
        match defs.get(&v)? {
            InstKind::Special(s) if is_tid(s) || is_bid(s) || is_dim(s) => Some(wide(v)),
            InstKind::Binary(BinaryOp::Mul, a, b) if level == 0 || level == 1 => {
                let (blk, dim) = if special(*a, is_bid) { (*a, *b) } else { (*b, *a) };
                (special(blk, is_bid) && (special(dim, is_dim) || small(dim))).then(|| wide(blk).bin("*", wide(dim)))
            }
            InstKind::Binary(BinaryOp::Add, a, b) if level == 0 => {
                let (t, rest) = if special(*a, is_tid) { (*a, *b) } else { (*b, *a) };
                if !special(t, is_tid) {
                    return None;
                }
                let r = self.wide_thread_index(rest, defs, 1)?;
                matches!(defs.get(&rest), Some(InstKind::Binary(BinaryOp::Mul, ..))).then(|| r.bin("+", wide(t)))
            }
            _ => None,
        }
    }

    /// The pointer value `p` as a `T *` (cast if its static type differs).
    fn typed_ptr(&self, p: ValueId, t: &Type, volatile: bool) -> Expr {
        let mut want = self.mc.ctype(t);
        if volatile {
            want = want.volatile();
        }
        let want = want.ptr();
        if self.mc.ctype(self.vty(p)) == want {
            self.v(p)
        } else {
            self.v(p).cast(want)
        }
    }

    /// A checking-mode instruction as a call into the runtime's checker
    /// (`cuprite_abi.h`, "checking mode"): the site (function symbol, file, line) and
    /// the thread's coordinates go with it.
    fn check_call(&self, op: &CheckOp, loc: Option<SrcLoc>) -> Expr {
        let symbol = match &self.f.kind {
            FunctionKind::Kernel { stub_symbol, .. } => stub_symbol.clone(),
            FunctionKind::Device => self.f.symbol.clone().unwrap_or_else(|| self.f.name.clone()),
        };
        let file = loc
            .and_then(|l| self.mc.m.files.get(l.file.index()).cloned())
            .unwrap_or_else(|| self.mc.opts.source_name.clone());
        let line = loc.map_or(0, |l| l.line);
        let site = [Expr::Str(symbol.into_bytes()), Expr::Str(file.into_bytes()), lit(format!("{line}u"))];
        // Kernels pass what their prologue read; device functions read the globals.
        let wanted = |local: &str, global: &str| id(if self.kernel.is_some() { local } else { global });
        let (name, mut args) = match op {
            CheckOp::Access { ptr, bytes, align, kind, site } => {
                let code = match kind {
                    AccessKind::Read => 0,
                    AccessKind::Write => 1,
                    AccessKind::Atomic => 2,
                    AccessKind::VolatileRead => 3,
                    AccessKind::VolatileWrite => 4,
                };
                let p = self.v(*ptr).cast(CType::named("void").ptr());
                ("__cuprite_san_check", vec![wanted("__san_skip", "__cuprite_san_skip_accesses"), p, lit(format!("{bytes}u")), lit(format!("{align}u")), lit(format!("{code}")), lit(format!("{site}u"))])
            }
            CheckOp::Barrier => ("__cuprite_san_event_if_wanted", vec![wanted("__san_events", "__cuprite_san_want_events"), lit("0")]),
            CheckOp::WarpSync => ("__cuprite_san_event_if_wanted", vec![wanted("__san_events", "__cuprite_san_want_events"), lit("1")]),
            CheckOp::Exit => ("__cuprite_san_event_if_wanted", vec![wanted("__san_events", "__cuprite_san_want_events"), lit("2")]),
            CheckOp::Fence => ("__cuprite_san_event_if_wanted", vec![wanted("__san_events", "__cuprite_san_want_events"), lit("3")]),
            CheckOp::Branch { cond, site } => ("__cuprite_san_value_if_wanted", vec![wanted("__san_values", "__cuprite_san_want_values"), lit("0"), self.v(*cond).bin("!=", lit("0")).cast(CType::named("uint32_t")), lit(format!("{site}u"))]),
            // Event 1: a collective's mask; 3: `__syncwarp`'s (cuprite_abi.h).
            CheckOp::WarpMask { mask, site, orders_memory } => {
                let event = if *orders_memory { "3" } else { "1" };
                ("__cuprite_san_value_if_wanted", vec![wanted("__san_values", "__cuprite_san_want_values"), lit(event), self.v(*mask).cast(CType::named("uint32_t")), lit(format!("{site}u"))])
            }
        };
        args.extend(site);
        args.push(self.thread_dim3());
        args.push(self.block_dim3());
        call(name, args)
    }

    fn special(&self, s: SpecialReg) -> Expr {
        let d = |d: Dim| match d {
            Dim::X => "x",
            Dim::Y => "y",
            Dim::Z => "z",
        };
        match (&self.kernel, s) {
            (_, SpecialReg::WarpSize) => lit("32u"),
            (Some(_), SpecialReg::ThreadIdx(x)) => id(format!("__t{}", d(x))),
            (Some(_), SpecialReg::BlockIdx(x)) => id(format!("__b{}", d(x))),
            (Some(_), SpecialReg::BlockDim(x)) => id(format!("__bd{}", d(x))),
            (Some(_), SpecialReg::GridDim(x)) => id(format!("__gd{}", d(x))),
            (Some(_), SpecialReg::LaneId) => id("__t").bin("&", lit("31u")).cast(CType::named("uint32_t")),
            (None, SpecialReg::ThreadIdx(x)) => id("__ctx").arrow("tid").member(d(x)),
            (None, SpecialReg::BlockIdx(x)) => id("__ctx").arrow("bid").member(d(x)),
            (None, SpecialReg::BlockDim(x)) => id("__ctx").arrow("bdim").member(d(x)),
            (None, SpecialReg::GridDim(x)) => id("__ctx").arrow("gdim").member(d(x)),
            (None, SpecialReg::LaneId) => id("__ctx").arrow("tlinear").bin("&", lit("31u")),
            (Some(_), SpecialReg::DynamicSmemSize) => id("__l").arrow("dynamic_shared_bytes").cast(CType::named("uint32_t")),
            (None, SpecialReg::DynamicSmemSize) => id("__ctx").arrow("dyn_shared_bytes"),
        }
    }

    fn binary(&self, op: BinaryOp, a: ValueId, b: ValueId, loc: Option<SrcLoc>) -> Result<Expr, BackendError> {
        let ta = self.vty(a);
        let (x, y) = (self.v(a), self.v(b));
        let c = |o: &'static str| Ok(x.clone().bin(o, y.clone()));
        match op {
            BinaryOp::Add => c("+"),
            BinaryOp::Sub => c("-"),
            BinaryOp::Mul => {
                // Unsigned 16-bit operands promote to int: multiply as unsigned instead.
                if matches!(ta, Type::U16 | Type::U8) {
                    Ok(x.cast(CType::named("uint32_t")).bin("*", y))
                } else {
                    c("*")
                }
            }
            BinaryOp::Div | BinaryOp::Rem => {
                let name = if op == BinaryOp::Div { "div" } else { "rem" };
                if ta.is_float() {
                    if op == BinaryOp::Div {
                        c("/")
                    } else {
                        Ok(call(if *ta == Type::F32 { "fmodf" } else { "fmod" }, vec![x, y]))
                    }
                } else if let Some(s) = int_suffix(ta) {
                    Ok(call(&format!("__cu_{name}_{s}"), vec![x, y]))
                } else {
                    Err(err(format!("internal error: `{name}` of type {ta}"), loc))
                }
            }
            BinaryOp::Shl | BinaryOp::Shr => {
                let name = if op == BinaryOp::Shl { "shl" } else { "shr" };
                let Some(s) = int_suffix(ta) else {
                    return Err(err(format!("internal error: shift of type {ta}"), loc));
                };
                // The amount is unsigned for PTX: a negative amount is a huge one.
                let amt = if self.vty(b).is_signed() {
                    y.cast(CType::named("int64_t")).cast(CType::named("uint64_t"))
                } else {
                    y
                };
                // Small unsigned types promote to int (non-negative): same as i32.
                let x = if matches!(ta, Type::U8 | Type::U16 | Type::Bool) { x.cast(CType::named("int32_t")) } else { x };
                Ok(call(&format!("__cu_{name}_{s}"), vec![x, amt]))
            }
            BinaryOp::And => c("&"),
            BinaryOp::Or => c("|"),
            BinaryOp::Xor => c("^"),
            BinaryOp::Eq => c("=="),
            BinaryOp::Ne => c("!="),
            BinaryOp::Lt => c("<"),
            BinaryOp::Le => c("<="),
            BinaryOp::Gt => c(">"),
            BinaryOp::Ge => c(">="),
        }
    }

    fn cast(&self, from: &Type, to: &Type, e: Expr, loc: Option<SrcLoc>) -> Result<Expr, BackendError> {
        if from == to {
            return Ok(e);
        }
        let ct = self.mc.ctype(to);
        if *to == Type::Bool {
            return Ok(e.bin("!=", lit("0")));
        }
        if from.is_float() && to.is_integer() {
            let name = format!("__cu_cvt_{}_{}", cvt_suffix(from).unwrap(), cvt_suffix(to).unwrap());
            return Ok(call(&name, vec![e]));
        }
        if (from.is_pointer() && (to.is_integer() || to.is_pointer())) || (from.is_integer() && to.is_pointer()) {
            if from.is_pointer() && to.is_pointer() {
                return Ok(e.cast(ct));
            }
            return Ok(e.cast(CType::named("uintptr_t")).cast(ct));
        }
        if (from.is_integer() || from.is_float()) && (to.is_integer() || to.is_float()) {
            return Ok(e.cast(ct));
        }
        Err(err(format!("internal error: cast from {from} to {to}"), loc))
    }

    fn builtin(&self, b: &Builtin, args: &[ValueId], r: Option<ValueId>, rty: &Type, loc: Option<SrcLoc>, out: &mut Vec<Stmt>) -> Result<(), BackendError> {
        let a: Vec<Expr> = args.iter().map(|x| self.v(*x)).collect();
        let argn = |n: usize| -> Result<(), BackendError> {
            if args.len() < n {
                Err(err(format!("internal error: builtin {b:?} needs {n} operands"), loc))
            } else {
                Ok(())
            }
        };
        let cchar = || CType::named("char").konst().ptr();
        match b {
            Builtin::Math(f) => {
                let tys: Vec<Type> = args.iter().map(|x| self.vty(*x).clone()).collect();
                let e = resolve_math(*f, &tys, rty).map_err(|m| err(m, loc))?;
                let mut ca = Vec::new();
                for (i, x) in a.into_iter().enumerate() {
                    // Pointer operands (sincosf, frexpf, ...) are converted explicitly.
                    if e.params[i].is_pointer() && tys[i] != e.params[i] {
                        ca.push(x.cast(self.mc.ctype(&e.params[i])));
                    } else {
                        ca.push(x);
                    }
                }
                self.def(out, r, call(&e.c_name, ca));
            }
            Builtin::Printf => {
                argn(1)?;
                let mut ca = vec![a[0].clone().cast(cchar())];
                ca.extend(a[1..].iter().cloned());
                self.def(out, r, call("__cuprite_printf", ca));
            }
            Builtin::AssertFail => {
                argn(4)?;
                out.push(
                    call(
                        "__cuprite_assert_fail",
                        vec![
                            a[0].clone().cast(cchar()),
                            a[1].clone().cast(cchar()),
                            a[2].clone().cast(CType::named("unsigned")),
                            a[3].clone().cast(cchar()),
                            self.block_dim3(),
                            self.thread_dim3(),
                        ],
                    )
                    .stmt(),
                );
            }
            Builtin::Trap => out.push(call("__cuprite_trap", vec![]).stmt()),
            Builtin::Clock | Builtin::Clock64 => self.def(out, r, call("__cuprite_clock64", vec![])),
            Builtin::Fence(_) => out.push(call("__atomic_thread_fence", vec![lit("__ATOMIC_SEQ_CST")]).stmt()),
            Builtin::Malloc => {
                argn(1)?;
                self.def(out, r, call("__cuprite_device_malloc", vec![a[0].clone()]));
            }
            Builtin::Free => {
                argn(1)?;
                out.push(call("__cuprite_device_free", vec![a[0].clone().cast(CType::named("void").ptr())]).stmt());
            }
            Builtin::Memcpy => {
                argn(3)?;
                self.def(out, r, call("memcpy", a));
            }
            Builtin::Memset => {
                argn(3)?;
                self.def(out, r, call("memset", vec![a[0].clone(), a[1].clone().cast(CType::named("int")), a[2].clone()]));
            }
            Builtin::Atomic { op, .. } => {
                let n = if *op == AtomicOp::Cas { 3 } else { 2 };
                argn(n)?;
                // The element type is the result's; without a result, the operand's.
                let et = if *rty == Type::Void { self.vty(args[1]).clone() } else { rty.clone() };
                let s = cvt_suffix(&et).ok_or_else(|| err(format!("atomic operation on type {et} is not supported"), loc))?;
                let opn = op.name();
                let ok = match op {
                    AtomicOp::Inc | AtomicOp::Dec => s == "u32",
                    AtomicOp::And | AtomicOp::Or | AtomicOp::Xor => !et.is_float() && !matches!(s, "i8" | "u8"),
                    _ => !matches!(s, "i8" | "u8"),
                };
                if !ok {
                    return Err(err(format!("atomic {opn} on type {et} is not supported"), loc));
                }
                let mut ca = vec![self.typed_ptr(args[0], &et, false)];
                ca.extend(a[1..n].iter().cloned());
                let plain = self.kernel.as_ref().and_then(|k| k.plain_atomics).is_some_and(|p| p.contains(&args[0]));
                let kind = if plain { "plain" } else { "atomic" };
                self.def(out, r, call(&format!("__cu_{kind}_{opn}_{s}"), ca));
            }
        }
        Ok(())
    }

    /// Stores a warp collective's operands into the thread's `__cu_wslot` (`__ws[__t]`).
    fn warp_operands(&self, op: WarpOp, args: &[ValueId], out: &mut Vec<Stmt>) {
        let ws = id("__ws").index(id("__t"));
        let fields: &[&str] = match op {
            WarpOp::Shfl(_) => &["mask", "val", "lane", "width"],
            WarpOp::ActiveMask | WarpOp::Lockstep | WarpOp::Yield => &[],
            WarpOp::SyncWarp => &["mask"],
            _ => &["mask", "val"],
        };
        for (fld, a) in fields.iter().zip(args) {
            let x = self.v(*a);
            let e = match (*fld, self.vty(*a)) {
                ("val", Type::F32) => call("__cu_float_as_uint", vec![x]).cast(CType::named("uint64_t")),
                ("val", Type::F64) => call("__cu_double_as_longlong", vec![x]).cast(CType::named("uint64_t")),
                ("val", _) => x.cast(CType::named("uint64_t")),
                ("mask", _) => x.cast(CType::named("uint32_t")),
                _ => x.cast(CType::named("int32_t")),
            };
            out.push(ws.clone().member(fld).assign(e).stmt());
        }
        if matches!(op, WarpOp::ActiveMask) {
            out.push(ws.member("mask").assign(lit("0")).stmt());
        }
    }

    /// A thread's result `i` of a warp collective, from its `__cu_wslot`, as `ty`.
    fn warp_result(&self, i: usize, ty: &Type) -> Expr {
        let raw = id("__ws").index(id("__t")).member("res");
        match ty {
            _ if i == 1 => raw.bin(">>", lit("32")).cast(CType::named("int32_t")),
            Type::F32 => call("__cu_uint_as_float", vec![raw.cast(CType::named("uint32_t"))]),
            Type::F64 => call("__cu_longlong_as_double", vec![raw.cast(CType::named("int64_t"))]),
            t => raw.cast(self.mc.ctype(t)),
        }
    }

    fn emit_term(&self, b: &Block, out: &mut Vec<Stmt>, errs: &mut Vec<BackendError>) {
        match &b.term {
            Terminator::Jump(t) => out.push(Stmt::Goto(self.label(*t))),
            Terminator::Branch { cond, then, else_ } => out.push(Stmt::If {
                cond: self.v(*cond),
                then: vec![Stmt::Goto(self.label(*then))],
                else_: vec![Stmt::Goto(self.label(*else_))],
            }),
            Terminator::Switch { value, cases, default } => {
                let t = self.vty(*value).clone();
                let cases = cases
                    .iter()
                    .map(|(c, blk)| (int_lit(*c, &t), vec![Stmt::Goto(self.label(*blk))]))
                    .collect();
                out.push(Stmt::Switch { value: self.v(*value), cases, default: vec![Stmt::Goto(self.label(*default))] });
            }
            Terminator::Return(v) => match &self.kernel {
                None => out.push(Stmt::Return(v.map(|v| self.v(v)))),
                Some(KernelCx { ret_goto: Some(l), .. }) => out.push(Stmt::Goto(l.clone())),
                Some(k) => {
                    if k.warp {
                        out.push(id("__ws").index(id("__t")).member("st").assign(lit("0")).stmt());
                    } else if k.multi {
                        out.push(id("__alive").index(id("__t")).assign(lit("0")).stmt());
                    }
                    out.push(Stmt::Goto(format!("{}__r{}_next", self.ver, k.region)));
                }
            },
            Terminator::Barrier { pred, .. } => match &self.kernel {
                None => errs.push(err("internal error: a barrier in a function that is not inlined", b.term_loc)),
                Some(k) if k.warp => {
                    let idx = k.regions.barriers.iter().position(|x| std::ptr::eq(self.f.block(*x), b)).unwrap();
                    let ws = id("__ws").index(id("__t"));
                    let pv = match pred {
                        Some(p) => self.v(*p).bin("!=", lit("0")).cast(CType::named("uint64_t")),
                        None => lit("0"),
                    };
                    out.push(ws.clone().member("val").assign(pv).stmt());
                    out.push(ws.member("st").assign(lit(format!("0x80000000u | {idx}u"))).stmt());
                    out.push(Stmt::Goto(format!("{}__r{}_next", self.ver, k.region)));
                }
                Some(k) => {
                    let idx = k.regions.barriers.iter().position(|x| std::ptr::eq(self.f.block(*x), b)).unwrap();
                    if k.region == 0 {
                        out.push(id("__alive").index(id("__t")).assign(lit("1")).stmt());
                    }
                    out.push(Expr::PostInc(Box::new(id(format!("__n_b{idx}")))).stmt());
                    if let Some(p) = pred {
                        out.push(id(format!("__p_b{idx}")).assign_op("+", self.v(*p).bin("!=", lit("0"))).stmt());
                    }
                    out.push(Stmt::Goto(format!("{}__r{}_next", self.ver, k.region)));
                }
            },
            Terminator::Warp { op, args, .. } => match &self.kernel {
                Some(k) if k.warp => {
                    let idx = k.regions.barriers.iter().position(|x| std::ptr::eq(self.f.block(*x), b)).unwrap();
                    let ws = id("__ws").index(id("__t"));
                    self.warp_operands(*op, args, out);
                    out.push(ws.member("st").assign(lit(format!("0x80000000u | {idx}u"))).stmt());
                    out.push(Stmt::Goto(format!("{}__r{}_next", self.ver, k.region)));
                }
                _ => errs.push(err("internal error: a warp operation in a function that is not inlined", b.term_loc)),
            },
            Terminator::Unreachable => out.push(call("__builtin_unreachable", vec![]).stmt()),
        }
    }
}
