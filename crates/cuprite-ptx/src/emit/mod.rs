//! The PTX back-end: Cuprite IR to PTX text that `ptxas` and the driver's JIT accept.
//!
//! The text is plain and regular on purpose (one instruction per line, explicit types,
//! every register declared at the top of its function, labels `$L__BB<f>_<b>`), so that
//! Cuprite's own PTX front-end reads it back. Modules:
//! `types` (register classes), `globals` (module-scope variables and strings),
//! `function` (signatures, the PTX ABI's `.param` space, frames, control flow),
//! `inst` (arithmetic, conversions, memory), `calls` (device calls, `vprintf`,
//! `__assertfail`, `malloc`), `atomics`, `warp` (native warp collectives), `math`.
//! What the back-end cannot translate is an `EmitError` naming the construct and its
//! source position; it never writes PTX that would compute something else.

mod atomics;
mod calls;
mod function;
mod globals;
mod grid;
mod inst;
pub mod lint;
mod math;
pub mod mathlib;
mod shared32;
mod spaces;
mod texture;
pub mod types;
mod warp;

#[cfg(test)]
mod tests;

use crate::isa::Target;
use cuprite_ir::{Const, FunctionKind, Init, InstKind, Module, SrcLoc};
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;

/// Why a module cannot be written as PTX: a sentence, and where in the user's source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmitError {
    pub message: String,
    /// `file:line:col`, when the construct has a position.
    pub location: Option<String>,
}

impl EmitError {
    pub fn at(m: &Module, loc: Option<SrcLoc>, message: impl Into<String>) -> EmitError {
        let location = loc.map(|l| {
            let file = m.files.get(l.file.index()).map(String::as_str).unwrap_or("<unknown>");
            format!("{file}:{}:{}", l.line, l.col)
        });
        EmitError { message: message.into(), location }
    }
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(l) => write!(f, "{l}: error: {} (PTX back-end)", self.message),
            None => write!(f, "error: {} (PTX back-end)", self.message),
        }
    }
}

impl std::error::Error for EmitError {}

/// The PTX names of a module's functions, variables and string literals.
pub struct Names {
    pub functions: Vec<String>,
    pub globals: Vec<String>,
    /// Each distinct string literal and its variable, in first-use order.
    pub strings: RefCell<Vec<(Vec<u8>, String)>>,
    string_index: RefCell<HashMap<Vec<u8>, usize>>,
}

impl Names {
    fn new(m: &Module) -> Names {
        let mut taken: HashMap<String, usize> = HashMap::new();
        let mut unique = |base: String| -> String {
            let n = taken.entry(base.clone()).or_insert(0);
            *n += 1;
            if *n == 1 {
                base
            } else {
                format!("{base}${}", *n - 1)
            }
        };
        let mut functions = Vec::new();
        for (i, f) in m.functions.iter().enumerate() {
            let base = match (&f.kind, &f.symbol) {
                (FunctionKind::Kernel { stub_symbol, .. }, _) => types::identifier(stub_symbol),
                (_, Some(s)) if s.starts_with("_Z") => types::identifier(s),
                (_, Some(s)) if f.blocks.is_empty() => types::identifier(s),
                _ => format!("__cuprite_f{i}_{}", types::identifier(&f.name).trim_start_matches('_')),
            };
            functions.push(unique(base));
        }
        let mut globals = Vec::new();
        for (i, g) in m.globals.iter().enumerate() {
            let base = match &g.host_symbol {
                Some(s) => types::identifier(s),
                None => format!("__cuprite_g{i}_{}", types::identifier(&g.name).trim_start_matches('_')),
            };
            globals.push(unique(base));
        }
        Names { functions, globals, strings: RefCell::new(Vec::new()), string_index: RefCell::new(HashMap::new()) }
    }

    /// The variable holding a string literal (made on first use).
    pub fn string(&self, bytes: &[u8]) -> String {
        if let Some(i) = self.string_index.borrow().get(bytes) {
            return self.strings.borrow()[*i].1.clone();
        }
        let mut strings = self.strings.borrow_mut();
        let name = format!("$str{}", strings.len());
        strings.push((bytes.to_vec(), name.clone()));
        self.string_index.borrow_mut().insert(bytes.to_vec(), strings.len() - 1);
        name
    }

    /// Every string literal of the module, named before any function refers to one.
    fn collect_strings(&self, m: &Module) {
        fn walk_init(names: &Names, i: &Init) {
            match i {
                Init::Scalar(Const::Str(s)) => {
                    names.string(s);
                }
                Init::Aggregate(items) => items.iter().for_each(|i| walk_init(names, i)),
                _ => {}
            }
        }
        for g in &m.globals {
            if let Some(i) = &g.init {
                walk_init(self, i);
            }
        }
        for f in &m.functions {
            for b in &f.blocks {
                for inst in &b.insts {
                    if let InstKind::Const(Const::Str(s)) = &inst.kind {
                        self.string(s);
                    }
                }
            }
        }
    }
}

/// The PTX names of the module's functions and variables, indexed as in the module
/// (kernels are named by their stub symbols, variables by their host symbols).
pub fn symbol_names(m: &Module) -> (Vec<String>, Vec<String>) {
    let n = Names::new(m);
    (n.functions, n.globals)
}

/// Writes a whole module as PTX for `target`.
pub fn emit_module(m: &Module, target: Target) -> Result<String, EmitError> {
    let optimized = crate::opt::optimize(m);
    let m = &optimized;
    let names = Names::new(m);
    names.collect_strings(m);
    let (major, minor) = Target::ISA_VERSION;
    let mut out = String::new();
    out.push_str("//\n// Generated by Cuprite's PTX back-end\n//\n\n");
    out.push_str(&format!(".version {major}.{minor}\n.target {}\n.address_size 64\n\n", target.directive_name()));
    out.push_str(&calls::extern_declarations(m));
    out.push('\n');
    // Only what device code can reach is written: the kernels, the functions whose
    // addresses variables hold, what those call or take the address of, and functions
    // with external linkage (for -rdc) when all they reach translates.
    let bodies: Vec<Option<Result<String, EmitError>>> = m
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| (!f.blocks.is_empty()).then(|| function::emit(m, &names, target, i, f)))
        .collect();
    let mut roots: Vec<usize> = m.kernels().map(|(id, _)| id.index()).collect();
    for g in &m.globals {
        if let Some(i) = &g.init {
            function_addresses(i, &mut roots);
        }
    }
    let mut keep = reach(m, &roots);
    for (i, f) in m.functions.iter().enumerate() {
        if f.symbol.is_some() && !keep[i] {
            let extra = reach(m, &[i]);
            let ok = extra.iter().enumerate().all(|(j, r)| !*r || !matches!(bodies[j], Some(Err(_))));
            if ok {
                keep.iter_mut().zip(extra).for_each(|(k, e)| *k |= e);
            }
        }
    }
    for (i, f) in m.functions.iter().enumerate() {
        if keep[i] && !matches!(f.kind, FunctionKind::Kernel { .. }) {
            out.push_str(&function::prototype(m, &names, i, f)?);
        }
    }
    out.push('\n');
    out.push_str(&globals::strings(&names));
    if uses_grid_barrier(m) {
        out.push_str(grid::STATE_DECLARATION);
    }
    if uses_textures(m) {
        out.push_str(texture::FAULT_CELL_DECLARATION);
    }
    // Variables whose initializers hold addresses after the others.
    let mut order: Vec<usize> = (0..m.globals.len()).collect();
    order.sort_by_key(|&i| has_addresses(m.globals[i].init.as_ref()));
    for i in order {
        out.push_str(&globals::declare(m, &names, i, &m.globals[i])?);
    }
    out.push('\n');
    for (i, body) in bodies.into_iter().enumerate() {
        if let (true, Some(body)) = (keep[i], body) {
            out.push_str(&body?);
            out.push('\n');
        }
    }
    Ok(out)
}

/// Whether a function of the module has a grid-wide barrier (`grid_group::sync`).
fn uses_grid_barrier(m: &Module) -> bool {
    m.functions.iter().flat_map(|f| &f.blocks).any(|b| matches!(b.term, cuprite_ir::Terminator::Barrier { kind: cuprite_ir::BarrierKind::Grid, .. }))
}

/// Whether a function of the module fetches from a texture or accesses a surface.
fn uses_textures(m: &Module) -> bool {
    use cuprite_ir::{Builtin, MathFn};
    m.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.insts).any(|i| {
        matches!(
            i.kind,
            InstKind::CallBuiltin { builtin: Builtin::Math(MathFn::CupriteTexFetch | MathFn::CupriteTexFetchInt | MathFn::CupriteSurfAccess), .. }
        )
    })
}

/// The functions whose addresses an initializer holds.
fn function_addresses(i: &Init, out: &mut Vec<usize>) {
    match i {
        Init::FuncAddr(f) => out.push(f.index()),
        Init::Aggregate(items) => items.iter().for_each(|i| function_addresses(i, out)),
        _ => {}
    }
}

/// The functions reachable from `roots` by calls and address-taking.
fn reach(m: &Module, roots: &[usize]) -> Vec<bool> {
    let mut seen = vec![false; m.functions.len()];
    let mut work: Vec<usize> = roots.to_vec();
    while let Some(f) = work.pop() {
        if std::mem::replace(&mut seen[f], true) {
            continue;
        }
        for inst in m.functions[f].blocks.iter().flat_map(|b| &b.insts) {
            if let InstKind::Call { func, .. } | InstKind::FuncAddr(func) = &inst.kind {
                work.push(func.index());
            }
        }
    }
    seen
}

fn has_addresses(i: Option<&Init>) -> bool {
    match i {
        Some(Init::GlobalAddr { .. }) | Some(Init::FuncAddr(_)) => true,
        Some(Init::Aggregate(items)) => items.iter().any(|i| has_addresses(Some(i))),
        _ => false,
    }
}
