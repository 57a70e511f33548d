//! Linking the device code of several translation units into one module (separable
//! compilation, `-rdc`), as nvlink does for GPU code.
//!
//! Each translation unit's module may declare functions (no blocks) and `external`
//! variables that another unit defines; they are resolved by symbol (`Function::symbol`,
//! `Global::host_symbol`). Definitions that several units share — template
//! instantiations, inline functions, the same kernel template specialization — are kept
//! once (the first), as the linker keeps one copy of a COMDAT group. Classes with the same
//! name and layout in several units are one class, so that calls across units type-check.
//! Everything else is copied with its ids renumbered.

use crate::*;
use std::collections::HashMap;

/// One translation unit's device code and where it came from (for messages).
#[derive(Debug)]
pub struct Unit {
    pub origin: String,
    pub module: Module,
}

/// Links the units into one module, or says what could not be resolved.
pub fn link(units: Vec<Unit>) -> Result<Module, Vec<String>> {
    let mut out = Module::default();
    let mut maps: Vec<Maps> = Vec::with_capacity(units.len());
    let mut struct_keys: HashMap<String, StructId> = HashMap::new();
    let mut fn_defs: HashMap<String, FuncId> = HashMap::new();
    let mut var_defs: HashMap<String, GlobalId> = HashMap::new();
    // Which unit and index each output item is copied from.
    let mut struct_src: Vec<(usize, usize)> = Vec::new();
    let mut fn_src: Vec<(usize, usize)> = Vec::new();
    let mut var_src: Vec<(usize, usize)> = Vec::new();

    // Pass 1: give every definition an id in the output.
    for (u, unit) in units.iter().enumerate() {
        let m = &unit.module;
        let mut mp = Maps::default();
        for f in &m.files {
            let id = match out.files.iter().position(|x| x == f) {
                Some(i) => i,
                None => {
                    out.files.push(f.clone());
                    out.files.len() - 1
                }
            };
            mp.files.push(FileId(id as u32));
        }
        // (Two classes of one unit stay two, even where name and layout agree: only
        // classes of different units are unified.)
        let mut taken: std::collections::HashSet<StructId> = std::collections::HashSet::new();
        for (i, s) in m.structs.iter().enumerate() {
            let key = struct_key(m, s);
            let id = match struct_keys.get(&key) {
                Some(id) if !taken.contains(id) => *id,
                _ => {
                    struct_src.push((u, i));
                    let id = StructId(struct_src.len() as u32 - 1);
                    struct_keys.entry(key).or_insert(id);
                    id
                }
            };
            taken.insert(id);
            mp.structs.push(id);
        }
        for (i, g) in m.globals.iter().enumerate() {
            if g.external {
                mp.globals.push(None);
                continue;
            }
            let shared_def = g.host_symbol.as_ref().and_then(|s| var_defs.get(s).copied());
            let id = shared_def.unwrap_or_else(|| {
                var_src.push((u, i));
                let id = GlobalId(var_src.len() as u32 - 1);
                if let Some(s) = &g.host_symbol {
                    var_defs.insert(s.clone(), id);
                }
                id
            });
            mp.globals.push(Some(id));
        }
        for (i, f) in m.functions.iter().enumerate() {
            if f.blocks.is_empty() {
                mp.funcs.push(None);
                continue;
            }
            let key = match &f.kind {
                FunctionKind::Kernel { stub_symbol, .. } => Some(format!("kernel {stub_symbol}")),
                FunctionKind::Device => f.symbol.as_ref().map(|s| fn_key(m, s, f)),
            };
            let shared_def = key.as_ref().and_then(|k| fn_defs.get(k).copied());
            let id = shared_def.unwrap_or_else(|| {
                fn_src.push((u, i));
                let id = FuncId(fn_src.len() as u32 - 1);
                if let Some(k) = key {
                    fn_defs.insert(k, id);
                }
                id
            });
            mp.funcs.push(Some(id));
        }
        maps.push(mp);
    }

    // Resolve declarations.
    let mut errors = Vec::new();
    for (u, unit) in units.iter().enumerate() {
        let m = &unit.module;
        for (i, f) in m.functions.iter().enumerate().filter(|(_, f)| f.blocks.is_empty()) {
            match f.symbol.as_ref().and_then(|s| fn_defs.get(&fn_key(m, s, f))) {
                Some(id) => maps[u].funcs[i] = Some(*id),
                None => errors.push(format!(
                    "undefined reference to device function '{}' ({}) in '{}'",
                    f.name,
                    f.symbol.as_deref().unwrap_or("internal linkage"),
                    unit.origin
                )),
            }
        }
        for (i, g) in m.globals.iter().enumerate().filter(|(_, g)| g.external) {
            match g.host_symbol.as_ref().and_then(|s| var_defs.get(s)) {
                Some(id) => maps[u].globals[i] = Some(*id),
                None => errors.push(format!(
                    "undefined reference to device variable '{}' ({}) in '{}'",
                    g.name,
                    g.host_symbol.as_deref().unwrap_or("?"),
                    unit.origin
                )),
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }

    // Pass 2: copy, renumbering ids.
    for (u, i) in struct_src {
        let s = &units[u].module.structs[i];
        let mp = &maps[u];
        out.structs.push(StructDef {
            fields: s.fields.iter().map(|f| Field { ty: mp.ty(&f.ty), ..f.clone() }).collect(),
            ..s.clone()
        });
    }
    for (u, i) in var_src {
        let g = &units[u].module.globals[i];
        let mp = &maps[u];
        out.globals.push(Global {
            ty: mp.ty(&g.ty),
            init: g.init.as_ref().map(|x| mp.init(x)),
            loc: g.loc.map(|l| mp.loc(l)),
            ..g.clone()
        });
    }
    for (u, i) in fn_src {
        let f = &units[u].module.functions[i];
        out.functions.push(maps[u].function(f));
    }
    Ok(out)
}

/// A function's identity across units: its symbol and its signature (types spelled with
/// class names), so that two functions whose symbols coincide (a mangling Cuprite gets
/// wrong for some template instance) are never taken for one.
fn fn_key(m: &Module, symbol: &str, f: &Function) -> String {
    let params: Vec<String> = f.params.iter().map(|p| ty(m, &f.locals[p.index()].ty)).collect();
    // The name too: it carries a template specialization's arguments, which Cuprite's
    // symbols leave out (`row<3>` and `row<2>` both take a float).
    format!("{symbol}|{}|({})->{}", f.name, params.join(","), ty(m, &f.ret))
}

/// A type spelled with class names instead of unit-local ids.
fn ty(m: &Module, t: &Type) -> String {
    match t {
        Type::Struct(id) => m.structs.get(id.index()).map_or_else(|| "?".to_string(), |d| format!("struct {}", d.name)),
        Type::Ptr(p) => format!("*{}", ty(m, p)),
        Type::Array(e, n) => format!("[{}; {n}]", ty(m, e)),
        Type::FnPtr(sig) => format!("fn({})->{}", sig.params.iter().map(|p| ty(m, p)).collect::<Vec<_>>().join(","), ty(m, &sig.ret)),
        other => format!("{other:?}"),
    }
}

/// Classes are one class across units when name and layout agree, field types included
/// (classes named by their names).
fn struct_key(m: &Module, s: &StructDef) -> String {
    let fields: Vec<String> = s.fields.iter().map(|f| format!("{}:{}@{}", f.name, ty(m, &f.ty), f.offset)).collect();
    format!("{}|{}|{}|{}|{}", s.name, s.is_union, s.size, s.align, fields.join(","))
}

/// One unit's ids → the output's.
#[derive(Default)]
struct Maps {
    files: Vec<FileId>,
    structs: Vec<StructId>,
    globals: Vec<Option<GlobalId>>,
    funcs: Vec<Option<FuncId>>,
}

impl Maps {
    fn global(&self, g: GlobalId) -> GlobalId {
        self.globals[g.index()].expect("resolved before copying")
    }
    fn func(&self, f: FuncId) -> FuncId {
        self.funcs[f.index()].expect("resolved before copying")
    }
    fn loc(&self, l: SrcLoc) -> SrcLoc {
        SrcLoc { file: self.files[l.file.index()], ..l }
    }
    fn ty(&self, t: &Type) -> Type {
        match t {
            Type::Ptr(p) => Type::Ptr(Box::new(self.ty(p))),
            Type::Array(e, n) => Type::Array(Box::new(self.ty(e)), *n),
            Type::Struct(s) => Type::Struct(self.structs[s.index()]),
            Type::FnPtr(sig) => Type::FnPtr(Box::new(Signature {
                params: sig.params.iter().map(|p| self.ty(p)).collect(),
                ret: self.ty(&sig.ret),
                variadic: sig.variadic,
            })),
            other => other.clone(),
        }
    }
    fn konst(&self, c: &Const) -> Const {
        match c {
            Const::Int(v, t) => Const::Int(*v, self.ty(t)),
            Const::Null(t) => Const::Null(self.ty(t)),
            other => other.clone(),
        }
    }
    fn init(&self, i: &Init) -> Init {
        match i {
            Init::Scalar(c) => Init::Scalar(self.konst(c)),
            Init::Aggregate(v) => Init::Aggregate(v.iter().map(|x| self.init(x)).collect()),
            Init::GlobalAddr { global, offset } => Init::GlobalAddr { global: self.global(*global), offset: *offset },
            Init::FuncAddr(f) => Init::FuncAddr(self.func(*f)),
            Init::Zero => Init::Zero,
        }
    }
    fn inst(&self, k: &InstKind) -> InstKind {
        match k {
            InstKind::Const(c) => InstKind::Const(self.konst(c)),
            InstKind::GlobalAddr(g) => InstKind::GlobalAddr(self.global(*g)),
            InstKind::FieldAddr { base, strukt, field } => InstKind::FieldAddr { base: *base, strukt: self.structs[strukt.index()], field: *field },
            InstKind::Call { func, args } => InstKind::Call { func: self.func(*func), args: args.clone() },
            InstKind::FuncAddr(f) => InstKind::FuncAddr(self.func(*f)),
            other => other.clone(),
        }
    }
    fn function(&self, f: &Function) -> Function {
        Function {
            locals: f.locals.iter().map(|l| Local { ty: self.ty(&l.ty), ..l.clone() }).collect(),
            values: f.values.iter().map(|t| self.ty(t)).collect(),
            ret: self.ty(&f.ret),
            blocks: f
                .blocks
                .iter()
                .map(|b| Block {
                    insts: b.insts.iter().map(|i| Inst { result: i.result, kind: self.inst(&i.kind), loc: i.loc.map(|l| self.loc(l)) }).collect(),
                    term: b.term.clone(),
                    term_loc: b.term_loc.map(|l| self.loc(l)),
                })
                .collect(),
            loc: f.loc.map(|l| self.loc(l)),
            ..f.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(origin: &str, globals: Vec<Global>, functions: Vec<Function>) -> Unit {
        Unit { origin: origin.into(), module: Module { files: vec![format!("{origin}.cu")], structs: vec![], globals, functions } }
    }
    fn func(name: &str, symbol: &str, blocks: Vec<Block>) -> Function {
        Function {
            name: name.into(),
            symbol: Some(symbol.into()),
            kind: FunctionKind::Device,
            inline: InlineHint::None,
            params: vec![],
            ret: Type::Void,
            locals: vec![],
            values: vec![],
            blocks,
            loc: Some(SrcLoc { file: FileId(0), line: 1, col: 1 }),
        }
    }
    fn ret() -> Vec<Block> {
        vec![Block { insts: vec![], term: Terminator::Return(None), term_loc: None }]
    }
    fn calls(f: FuncId) -> Vec<Block> {
        vec![Block { insts: vec![Inst { result: None, kind: InstKind::Call { func: f, args: vec![] }, loc: None }], term: Terminator::Return(None), term_loc: None }]
    }
    fn var(name: &str, external: bool) -> Global {
        Global {
            name: name.into(),
            ty: Type::I32,
            space: AddressSpace::Global,
            align: None,
            init: None,
            host_symbol: Some(name.into()),
            dynamic_shared: false,
            external,
            loc: None,
        }
    }

    #[test]
    fn declarations_resolve_to_definitions_in_other_units() {
        let a = unit("a", vec![var("counter", true)], vec![func("user", "_Z4userv", calls(FuncId(1))), func("twice", "_Z5twicev", vec![])]);
        let b = unit("b", vec![var("counter", false)], vec![func("twice", "_Z5twicev", ret())]);
        let m = link(vec![a, b]).unwrap();
        assert_eq!(m.functions.len(), 2);
        assert_eq!(m.globals.len(), 1);
        assert!(!m.globals[0].external);
        let InstKind::Call { func, .. } = &m.functions[0].blocks[0].insts[0].kind else { panic!() };
        assert_eq!(m.functions[func.index()].name, "twice");
        assert_eq!(m.files, vec!["a.cu".to_string(), "b.cu".to_string()]);
        assert_eq!(m.functions[1].loc.unwrap().file, FileId(1));
    }

    #[test]
    fn shared_definitions_are_kept_once_and_missing_ones_are_named() {
        let a = unit("a", vec![], vec![func("inl", "_Z3inlv", ret())]);
        let b = unit("b", vec![], vec![func("inl", "_Z3inlv", ret())]);
        assert_eq!(link(vec![a, b]).unwrap().functions.len(), 1);
        let a = unit("a", vec![var("v", true)], vec![func("f", "_Z1fv", vec![])]);
        let errs = link(vec![a]).unwrap_err();
        assert_eq!(errs.len(), 2);
        assert!(errs[0].contains("undefined reference to device function 'f' (_Z1fv) in 'a'"), "{errs:?}");
        assert!(errs[1].contains("device variable 'v'"), "{errs:?}");
    }
}
