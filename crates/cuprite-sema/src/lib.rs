//! Sema: name resolution and type checking of device code, and lowering to the IR.
//!
//! Layout:
//! - `ty`: source-level types, record layout, how types print in messages;
//! - `hir`: the typed HIR (names resolved, every expression typed, conversions explicit);
//! - `check/`: AST → HIR (declarations, expressions, statements, initializers, builtins);
//! - `lower/`: HIR → IR (reachable functions from the kernels, globals, constants);
//! - `mangle`: Itanium mangling of kernel stubs and device-variable shadows.
//!
//! Entry points: [`check`] then [`Checked::lower_with`] (the driver: kernel templates
//! are instantiated for the specializations the host object uses), or [`compile`]
//! (both steps, no kernel template specializations). The result is `Ok(Output)` when there are no errors —
//! `Output::warnings` may hold warnings — or `Err(diagnostics)`, errors and warnings
//! together, in source order of discovery.

pub mod check;
pub mod hir;
pub mod lower;
pub mod mangle;
pub mod ty;

use cuprite_front::ast::{self, Span};
use cuprite_front::diag::{Diagnostic, Severity};

#[derive(Clone, Debug)]
pub struct SemaOptions {
    /// Compute capability, e.g. 90.
    pub arch: u32,
    /// nvcc `-fmad` (default true): contract `a*b + c` into `fma`.
    pub fmad: bool,
    /// `-use_fast_math`.
    pub fast_math: bool,
    /// The maximum depth of template instantiation (g++'s default 900).
    pub template_depth: u32,
    /// `-rdc=true`: other translation units may call this one's `__device__` functions,
    /// so all of them are lowered, not only those its kernels reach.
    pub relocatable: bool,
}

/// Recursion in the checker and lowering never depends on the thread's stack: deep
/// programs (a 3,000-term sum, a 3,000-arm `?:` chain) grow it on the heap.
pub(crate) fn deep<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(256 * 1024, 4 * 1024 * 1024, f)
}

impl Default for SemaOptions {
    fn default() -> Self {
        SemaOptions { arch: 90, fmad: true, fast_math: false, template_depth: 900, relocatable: false }
    }
}

/// Where a span is in the user's source: (file path, line, column), 1-based.
pub trait Locate {
    fn locate(&self, span: Span) -> Option<(String, u32, u32)>;
}

/// No source positions (tests, or when there is no source map).
pub struct NoLocations;
impl Locate for NoLocations {
    fn locate(&self, _: Span) -> Option<(String, u32, u32)> {
        None
    }
}

/// The compiled device code and the warnings found on the way.
#[derive(Debug)]
pub struct Output {
    pub module: cuprite_ir::Module,
    pub warnings: Vec<Diagnostic>,
}

/// A specialization of a kernel template that host code uses (the driver finds them
/// among the host object's stub symbols, DESIGN.md §1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelRequest {
    /// The template's qualified name (`reduce`, `ns::k`).
    pub name: String,
    /// The template arguments as C++ source, as the demangler prints them
    /// (`float, (unsigned int)128`).
    pub args: String,
    /// The stub's symbol: the kernel is keyed by it.
    pub symbol: String,
}

/// A checked translation unit, before its kernel templates are instantiated.
pub struct Checked {
    ck: check::Checker<'static>,
    warnings: Vec<Diagnostic>,
}

/// Check the translation unit: everything but the specializations of kernel templates,
/// which the host object decides ([`Checked::lower_with`]). Errors found here are
/// reported before the host code is compiled.
pub fn check(tu: &ast::TranslationUnit, opts: &SemaOptions) -> Result<Checked, Vec<Diagnostic>> {
    let mut ck = check::Checker::new_owned(opts.clone());
    ck.items(&tu.items);
    ck.check_bodies();
    let diags = std::mem::take(&mut ck.diags);
    if diags.iter().any(|d| d.severity == Severity::Error) {
        return Err(diags);
    }
    Ok(Checked { ck, warnings: diags })
}

impl Checked {
    /// The qualified names of the kernel templates, for finding their specializations
    /// among the host object's symbols.
    pub fn kernel_templates(&self) -> Vec<String> {
        self.ck.kernel_template_names()
    }

    /// Instantiate the requested kernel templates (and what they use), check them, and
    /// lower the device code. Instantiation errors carry the chain of instantiations.
    pub fn lower_with(mut self, requests: &[KernelRequest], locate: &dyn Locate) -> Result<Output, Vec<Diagnostic>> {
        for r in requests {
            self.ck.request_kernel(&r.name, &r.args, &r.symbol);
        }
        self.ck.check_bodies();
        let mut diags = self.warnings;
        diags.append(&mut self.ck.diags);
        if diags.iter().any(|d| d.severity == Severity::Error) {
            return Err(diags);
        }
        // Printed before the program (and its type table) is taken from the checker.
        let template_args = self.ck.template_args_of_specializations();
        let mut prog = std::mem::take(&mut self.ck.prog);
        prog.stub_symbols = std::mem::take(&mut self.ck.tpl.stub_symbols);
        prog.template_args = template_args;
        let module = lower::lower(&prog, &self.ck.opts, locate);
        if cfg!(debug_assertions) || std::env::var_os("CUPRITE_VERIFY_IR").is_some() {
            if let Err(errs) = cuprite_ir::verify::verify(&module) {
                let mut d = Diagnostic::error(Span::default(), "internal compiler error: the IR produced for device code is invalid");
                for e in errs.into_iter().take(10) {
                    d = d.with_note(None, e);
                }
                return Err(vec![d]);
            }
        }
        Ok(Output { module, warnings: diags })
    }
}

/// Check the translation unit and lower its device code, without kernel template
/// specializations from a host object. `locate` maps spans to the user's source (for
/// `SrcLoc`s).
pub fn compile_with(tu: &ast::TranslationUnit, locate: &dyn Locate, opts: &SemaOptions) -> Result<Output, Vec<Diagnostic>> {
    check(tu, opts)?.lower_with(&[], locate)
}

impl Locate for cuprite_front::SourceMap {
    fn locate(&self, span: Span) -> Option<(String, u32, u32)> {
        let l = self.lookup(span.lo);
        if l.file.is_empty() {
            return None;
        }
        Some((l.file, l.line, l.col))
    }
}

/// Check and lower a translation unit. Warnings are dropped on success; use
/// [`compile_with`] to get them. On failure, all diagnostics (errors and warnings).
pub fn compile(
    tu: &ast::TranslationUnit,
    sm: &cuprite_front::SourceMap,
    opts: &SemaOptions,
) -> Result<cuprite_ir::Module, Vec<Diagnostic>> {
    compile_with(tu, sm, opts).map(|o| o.module)
}
