//! The PTX a program carries for the GPU device (`CUPRITE_DEVICE=gpu`).
//!
//! Each device object gets, besides its C, its module as PTX text (`cuprite_ptx::emit`)
//! and a constructor that hands it to the runtime with the names the PTX gives each
//! kernel (keyed by the stub's symbol) and each variable (keyed by its host shadow's
//! address), so that the GPU device can JIT it with the driver and find both there. When
//! the back-end cannot translate the module, the object carries the reason instead, and
//! the GPU device reports it; the CPU device never looks at either.

use cuprite_ir::{AddressSpace, FunctionKind, Module};

/// C to append to a device object's generated C.
pub fn registration_c(module: &Module, arch: u32) -> String {
    let target = cuprite_ptx::isa::Target { sm: arch.max(cuprite_ptx::isa::Target::OLDEST_SM), arch_specific: false };
    let lit = |s: &str| cuprite_cpu::cast::c_string_literal(s.as_bytes());
    let mut c = String::from("\n/* The module as PTX, for the GPU device (crates/cuprite/src/ptx_embed.rs). */\n");
    c.push_str("extern void __cuprite_register_ptx(const char *ptx, const char *error, unsigned nk, const char *const *kernel_symbols, const char *const *kernel_names, unsigned nv, const void *const *var_shadows, const char *const *var_names);\n");
    // The device math library's routines join the module when its code calls them.
    let prepared = crate::ptx_math::prepare(module);
    let module: &Module = match &prepared {
        Ok(m) => m,
        Err(_) => module,
    };
    let (ptx, error) = match &prepared {
        Err(e) => (None, Some(e.clone())),
        Ok(m) => match cuprite_ptx::emit::emit_module(m, target) {
            Ok(p) => (Some(p), None),
            Err(e) => (None, Some(e.to_string())),
        },
    };
    let (fnames, gnames) = cuprite_ptx::emit::symbol_names(module);
    let mut ksyms = Vec::new();
    let mut knames = Vec::new();
    for (i, f) in module.functions.iter().enumerate() {
        if let FunctionKind::Kernel { stub_symbol, .. } = &f.kind {
            ksyms.push(lit(stub_symbol));
            knames.push(lit(&fnames[i]));
        }
    }
    let mut shadows = Vec::new();
    let mut vnames = Vec::new();
    for (i, g) in module.globals.iter().enumerate() {
        if g.space == AddressSpace::Shared || g.external {
            continue;
        }
        if let Some(sym) = &g.host_symbol {
            c.push_str(&format!("extern char __cuprite_ptx_shadow_{i} __asm__(__CU_SYM({}));\n", lit(sym)));
            shadows.push(format!("&__cuprite_ptx_shadow_{i}"));
            vnames.push(lit(&gnames[i]));
        }
    }
    let array = |name: &str, ty: &str, items: &[String]| {
        if items.is_empty() {
            format!("#define {name} 0\n")
        } else {
            format!("static {ty} const {name}[] = {{ {} }};\n", items.join(", "))
        }
    };
    c.push_str(&array("__cuprite_ptx_ksyms", "const char *", &ksyms));
    c.push_str(&array("__cuprite_ptx_knames", "const char *", &knames));
    c.push_str(&array("__cuprite_ptx_shadows", "const void *", &shadows));
    c.push_str(&array("__cuprite_ptx_vnames", "const char *", &vnames));
    c.push_str("static const char __cuprite_ptx_text[] =\n");
    match &ptx {
        Some(p) => {
            for line in p.split_inclusive('\n') {
                c.push_str(&format!("    {}\n", lit(line)));
            }
        }
        None => c.push_str("    \"\"\n"),
    }
    c.push_str(";\n");
    let err = error.as_deref().map(lit).unwrap_or_else(|| "0".into());
    c.push_str(&format!(
        "__attribute__((constructor)) static void __cuprite_ptx_register(void) {{\n    __cuprite_register_ptx({}, {err}, {}u, __cuprite_ptx_ksyms, __cuprite_ptx_knames, {}u, __cuprite_ptx_shadows, __cuprite_ptx_vnames);\n}}\n",
        if ptx.is_some() { "__cuprite_ptx_text" } else { "0" },
        ksyms.len(),
        shadows.len()
    ));
    c
}
