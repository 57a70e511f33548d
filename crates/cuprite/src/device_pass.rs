//! The device side of a `.cu` translation unit: its device view parsed and checked into
//! IR, its kernels bound to their host stubs, and C generated for the CPU.

use crate::cli::Options;
use cpp_demangle::Symbol;
use cuprite_ir::{FunctionKind, Module};
use object::{Object, ObjectSymbol};
use std::collections::HashMap;
use std::path::Path;

/// The device view parsed and checked, waiting for the host object to say which kernel
/// template specializations exist.
pub struct DeviceCheck {
    parsed: cuprite_front::ParseResult,
    checked: cuprite_sema::Checked,
    /// `-w`: device warnings are not shown; `-Werror`: they are errors.
    no_warnings: bool,
    warnings_are_errors: bool,
    /// `-ftz=true` (or `-use_fast_math`): flush single-precision denormals
    /// (`cuprite_ir::ftz`).
    ftz: bool,
    /// `-use_fast_math`: `x / y` on floats is `__fdividef`.
    fast_math: bool,
}

impl DeviceCheck {
    /// Whether the file has kernel templates (whose specializations the host code picks).
    pub fn has_kernel_templates(&self) -> bool {
        !self.checked.kernel_templates().is_empty()
    }
}

fn report(diags: &[cuprite_front::diag::Diagnostic], sm: &cuprite_front::SourceMap) -> usize {
    let errors = diags.iter().filter(|d| d.severity == cuprite_front::diag::Severity::Error).count();
    for d in diags {
        crate::diagnostics::emit(&cuprite_front::render(d, sm));
    }
    errors
}

/// Parses and checks the device view (everything but kernel template specializations);
/// on errors, prints them and fails.
pub fn check(preprocessed: &str, arch: u32, opts: &Options) -> Result<DeviceCheck, String> {
    let parsed = cuprite_front::parse(preprocessed);
    if report(&parsed.diagnostics, &parsed.source_map) > 0 {
        return Err(String::new());
    }
    let sema_opts = cuprite_sema::SemaOptions {
        arch,
        // nvcc contracts a*b+c into fma by default, never under -G, even with -fmad=true
        // (measured with nvcc 13 on an H100: tests/fmad).
        fmad: Options::bool_flag(&opts.fmad, true)? && !opts.device_debug,
        fast_math: opts.fast_math,
        template_depth: opts.template_depth,
        relocatable: opts.relocatable()?,
    };
    match cuprite_sema::check(&parsed.tu, &sema_opts) {
        Ok(checked) => Ok(DeviceCheck {
            parsed,
            checked,
            no_warnings: opts.no_warnings,
            warnings_are_errors: opts.warnings_are_errors,
            // -use_fast_math implies -ftz=true; an explicit -ftz wins.
            ftz: Options::bool_flag(&opts.ftz, opts.fast_math)?,
            fast_math: opts.fast_math,
        }),
        Err(diags) => {
            report(&diags, &parsed.source_map);
            Err(String::new())
        }
    }
}

/// The symbols the object file defines.
/// The symbols an object defines, each with whether it is local (internal linkage).
pub fn defined_symbols(host_object: &Path) -> Result<HashMap<String, bool>, String> {
    let data = std::fs::read(host_object).map_err(|e| format!("cannot read {}: {e}", host_object.display()))?;
    let file = object::File::parse(&*data).map_err(|e| format!("cannot read symbols of {}: {e}", host_object.display()))?;
    Ok(file
        .symbols()
        .filter(|s| s.is_definition())
        .filter_map(|s| s.name().ok().map(|n| (n.to_string(), s.is_local())))
        .collect())
}

/// Instantiates the kernel template specializations whose stubs the host object
/// defines, and lowers the device code to IR (errors printed, with their chains of
/// instantiations).
pub fn instantiate_and_lower(dc: DeviceCheck, host_object: &Path) -> Result<Module, String> {
    let symbols: Vec<String> =
        if dc.checked.kernel_templates().is_empty() { Vec::new() } else { defined_symbols(host_object)?.into_keys().collect() };
    lower_for_symbols(dc, &symbols)
}

/// Instantiates the kernel template specializations among `symbols` (stub symbols, as
/// g++ mangles them) and lowers the device code.
pub fn lower_for_symbols(dc: DeviceCheck, symbols: &[String]) -> Result<Module, String> {
    let templates = dc.checked.kernel_templates();
    let names: Vec<&str> = templates.iter().map(String::as_str).collect();
    let requests: Vec<cuprite_sema::KernelRequest> = kernel_instances(symbols, &names)
        .into_iter()
        .map(|i| cuprite_sema::KernelRequest { name: i.name, args: i.args, symbol: i.symbol })
        .collect();
    let sm = &dc.parsed.source_map;
    match dc.checked.lower_with(&requests, sm) {
        Ok(out) if dc.warnings_are_errors && !out.warnings.is_empty() => {
            // As g++ -Werror: each warning is reported as an error.
            let as_errors: Vec<_> =
                out.warnings.into_iter().map(|mut d| { d.severity = cuprite_front::diag::Severity::Error; d }).collect();
            report(&as_errors, sm);
            Err(String::new())
        }
        Ok(mut out) => {
            if !dc.no_warnings {
                report(&out.warnings, sm);
            }
            if dc.fast_math {
                cuprite_ir::ftz::approximate_division(&mut out.module);
            }
            if dc.ftz {
                cuprite_ir::ftz::flush_denormals(&mut out.module);
            }
            Ok(out.module)
        }
        Err(diags) => {
            report(&diags, sm);
            Err(String::new())
        }
    }
}

/// A symbol of the host object to rename and make global, so that the device object can
/// refer to it: the stub or shadow of a kernel or variable with internal linkage
/// (`static`, anonymous namespace).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    pub local: String,
    pub global: String,
}

/// Points each kernel at the stub the host compiler defined for it, and each device
/// variable at its host shadow. The front-end mangles names as g++ does; where a name
/// differs (internal linkage is `_ZL…` in g++), the symbol is found by its demangled
/// name. Symbols with internal linkage get a name unique to this translation unit
/// (`tu_key`) and are returned for the driver to export.
/// Device code from a PTX module instead of the `.cu` file's own (`DEVICE_PTX_ENV`):
/// kernels are the PTX entries, keyed by their (mangled) names as stubs are; PTX
/// variables without a host shadow in this translation unit are device-only data.
/// `fmad` is what nvcc would tell ptxas (`-fmad`, off under `-G`).
pub fn module_from_ptx(path: &Path, host_object: &Path, fmad: bool) -> Result<Module, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let opts = cuprite_ptx::lower::module::LowerOptions { fmad };
    let mut module = cuprite_ptx::lower::module::lower_module_text_with(&text, opts).map_err(|e| format!("{}:{}:{}: error: {}", path.display(), e.loc.line, e.loc.col, e.message))?;
    let defined = defined_symbols(host_object)?;
    for g in &mut module.globals {
        if g.host_symbol.as_ref().is_some_and(|s| !defined.contains_key(s)) {
            g.host_symbol = None;
        }
    }
    Ok(module)
}

pub fn bind_host_symbols(module: &mut Module, host_object: &Path, tu_key: &str) -> Result<Vec<Exported>, String> {
    let defined = defined_symbols(host_object)?;
    let find = |symbol: &str, name: &str| -> Option<String> {
        if defined.contains_key(symbol) {
            return Some(symbol.to_string());
        }
        let candidates: Vec<&String> = defined.keys().filter(|s| demangled_base(s).as_deref() == Some(name)).collect();
        match candidates.as_slice() {
            [one] => Some((*one).clone()),
            _ => None,
        }
    };
    let mut exported = Vec::new();
    let mut export = |sym: String| -> String {
        if defined.get(&sym) == Some(&true) {
            let global = format!("__cuprite_{tu_key}_{sym}");
            exported.push(Exported { local: sym, global: global.clone() });
            global
        } else {
            sym
        }
    };
    for f in &mut module.functions {
        let FunctionKind::Kernel { stub_symbol, .. } = &mut f.kind else { continue };
        let Some(sym) = find(stub_symbol, &f.name) else {
            return Err(format!(
                "internal error: no host stub for kernel '{}' (expected symbol {stub_symbol}); please report this",
                f.name
            ));
        };
        *stub_symbol = export(sym);
    }
    for g in module.globals.iter_mut().filter(|g| !g.external) {
        // (An external variable's shadow is defined by the translation unit that defines it.)
        let Some(expected) = g.host_symbol.clone() else { continue };
        let Some(sym) = find(&expected, &g.name) else {
            return Err(format!("internal error: no host shadow for device variable '{}' (expected symbol {expected}); please report this", g.name));
        };
        g.host_symbol = Some(export(sym));
    }
    Ok(exported)
}

/// A specialization of a kernel template that host code uses: g++ defined its stub.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelInstance {
    /// The stub's symbol, e.g. `_Z6reduceIfLj128EEvPKT_PS0_j`.
    pub symbol: String,
    /// The template's qualified name, e.g. `reduce` or `ns::k`.
    pub name: String,
    /// The template arguments as C++ source, e.g. `float, (unsigned int)128` (C++ source, as cpp_demangle spells it).
    pub args: String,
}

/// The specializations of the named kernel templates among the host object's defined
/// symbols: exactly the kernels that host code launches or takes the address of, with
/// their template arguments as the host compiler deduced them (DESIGN.md §1).
pub fn kernel_instances<'a>(defined: impl IntoIterator<Item = &'a String>, templates: &[&str]) -> Vec<KernelInstance> {
    let mut out: Vec<KernelInstance> = defined
        .into_iter()
        .filter_map(|sym| {
            let text = demangled_base(sym)?;
            let open = text.find('<')?;
            let (name, rest) = text.split_at(open);
            if !templates.contains(&name) || !rest.ends_with('>') {
                return None;
            }
            Some(KernelInstance { symbol: sym.clone(), name: name.to_string(), args: rest[1..rest.len() - 1].to_string() })
        })
        .collect();
    out.sort_by(|a, b| a.symbol.cmp(&b.symbol));
    out
}

/// `_ZN2ns6reduceEPfi` → `ns::reduce`; `_Z6reduceIfLj128EEvPKT_PS0_j` → `reduce<float, (unsigned int)128>`.
fn demangled_base(symbol: &str) -> Option<String> {
    let sym = Symbol::new(symbol).ok()?;
    let text = sym.demangle(&cpp_demangle::DemangleOptions::new().no_params().no_return_type()).ok()?;
    Some(text)
}

/// Generates the C for the device side, after ptxas's checks (and its report when asked).
/// The generated file also tells the runtime which compute capability `-arch` selected,
/// so that the device reports and enforces its limits.
pub fn emit(module: &Module, input: &Path, arch: u32, opts: &Options) -> Result<String, String> {
    emit_units(module, input, arch, opts, 1).map(|(c, _)| c)
}

/// `emit`, as at most `units` C translation units (`cuprite_cpu::emit_units`): the first,
/// with the module table, and the others.
pub fn emit_units(module: &Module, input: &Path, arch: u32, opts: &Options, units: usize) -> Result<(String, Vec<String>), String> {
    let emit_opts = cuprite_cpu::EmitOptions {
        line_directives: opts.device_debug,
        source_name: input.display().to_string(),
        checks: opts.sanitize.is_some(),
    };
    let arch_ctor = format!(
        "\n__attribute__((constructor)) static void __cuprite_select_arch(void) {{ __cuprite_set_target_arch({arch}u); }}\n"
    );
    let emitted = cuprite_cpu::emit_units(module, &emit_opts, units).map_err(|errors| {
        for e in &errors {
            match e.loc {
                Some(loc) => {
                    let file = module.files.get(loc.file.index()).map(String::as_str).unwrap_or("<device code>");
                    crate::diagnostics::emit(&format!("{file}:{}:{}: error: {}\n", loc.line, loc.col, e.message));
                }
                None => crate::diagnostics::emit(&format!("{}: error: {}\n", input.display(), e.message)),
            }
        }
        String::new()
    })?;
    let name = input.display().to_string();
    crate::resources::check_limits(module, &emitted.kernels, &name)?;
    let ptxas_verbose = opts.xptxas.iter().any(|o| o == "-v" || o == "--verbose");
    if opts.resource_usage || ptxas_verbose {
        eprint!("{}", crate::resources::report(module, &emitted.kernels, arch));
    }
    if opts.verbose {
        eprint!("{}", crate::resources::execution_notes(&emitted.kernels));
    }
    Ok((emitted.c + &arch_ctor, emitted.units))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_instances_from_stub_symbols() {
        // Symbols g++ 12 defines for stubs of template kernels launched from host code.
        let defined: Vec<String> = [
            "_Z6reduceIfLj128EEvPKT_PS0_j",
            "_Z6reduceIdLj128EEvPKT_PS0_j",
            "_Z4fillIfEvP3VecIT_ES1_",
            "_ZN2ns1kILi5EEEvPi",
            "_Z3runIfEvPT_j",
            "main",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let got = kernel_instances(&defined, &["reduce", "fill", "ns::k"]);
        let shown: Vec<(String, String)> = got.iter().map(|i| (i.name.clone(), i.args.clone())).collect();
        assert_eq!(
            shown,
            vec![
                ("fill".to_string(), "float".to_string()),
                ("reduce".to_string(), "double, (unsigned int)128".to_string()),
                ("reduce".to_string(), "float, (unsigned int)128".to_string()),
                ("ns::k".to_string(), "5".to_string()),
            ]
        );
    }
}
