//! The math library's functions with ulp bounds (`expf`, `sin`, `pow`, `erfc`, ...) for
//! the PTX back-end: device routines of our own, written in CUDA C (`mathlib.cu`), which
//! the compiler driver lowers to IR once (it owns the front-end) and hands to [`attach`].
//! `attach` links them into a module whose device code calls one of them and turns each
//! such call into a call of its routine; the back-end then writes them as `.func`s like
//! any device function. Functions the library lacks stay calls of the math builtin, which
//! the back-end refuses by name.

use cuprite_ir::{Builtin, FuncId, InstKind, MathFn, Module};
use std::collections::HashMap;

/// The library's CUDA C source (no preprocessor lines: the front-end reads it as is).
pub const SOURCE: &str = include_str!("mathlib.cu");

/// Each function `f` of the library is named `__cuprite_ptx_` + `f.cuda_name()`.
pub const PREFIX: &str = "__cuprite_ptx_";

/// The library's entry points start with [`PREFIX`], its helpers with `__cuprite_pm_`.
fn is_library_name(name: &str) -> bool {
    name.starts_with(PREFIX) || name.starts_with("__cuprite_pm_")
}

/// The math functions `library` (the lowered [`SOURCE`]) implements.
fn provided(library: &Module) -> HashMap<MathFn, String> {
    library
        .functions
        .iter()
        .filter(|f| !f.blocks.is_empty())
        .filter_map(|f| {
            let name = f.name.rsplit("::").next().unwrap_or(&f.name);
            MathFn::from_cuda_name(name.strip_prefix(PREFIX)?).map(|m| (m, f.name.clone()))
        })
        .collect()
}

/// Whether device code of `m` calls a function that `library` implements.
pub fn needs(m: &Module, library: &Module) -> bool {
    let p = provided(library);
    m.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.insts).any(|i| match &i.kind {
        InstKind::CallBuiltin { builtin: Builtin::Math(f), .. } => p.contains_key(f),
        _ => false,
    })
}

/// `m` with the library linked in and its math calls pointed at the library's routines.
/// The library's functions lose their symbols, so that the back-end writes only those
/// that device code reaches.
pub fn attach(m: &Module, library: &Module) -> Result<Module, String> {
    let units = vec![
        cuprite_ir::link::Unit { origin: "device code".into(), module: m.clone() },
        cuprite_ir::link::Unit { origin: "Cuprite's device math library".into(), module: library.clone() },
    ];
    let mut out = cuprite_ir::link::link(units).map_err(|e| format!("cannot link the device math library: {}", e.join("; ")))?;
    let by_name: HashMap<String, FuncId> = out
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.blocks.is_empty() && is_library_name(&f.name))
        .map(|(i, f)| (f.name.clone(), FuncId(i as u32)))
        .collect();
    let routines: HashMap<MathFn, FuncId> =
        provided(library).into_iter().filter_map(|(m, name)| by_name.get(&name).map(|id| (m, *id))).collect();
    // The library's tables are the device's own: no host shadow refers to them.
    for g in out.globals.iter_mut().filter(|g| is_library_name(&g.name)) {
        g.host_symbol = None;
    }
    for f in out.functions.iter_mut() {
        if by_name.contains_key(&f.name) {
            f.symbol = None;
        }
        for inst in f.blocks.iter_mut().flat_map(|b| b.insts.iter_mut()) {
            if let InstKind::CallBuiltin { builtin: Builtin::Math(mf), args } = &inst.kind {
                if let Some(id) = routines.get(mf) {
                    inst.kind = InstKind::Call { func: *id, args: args.clone() };
                }
            }
        }
    }
    Ok(out)
}
