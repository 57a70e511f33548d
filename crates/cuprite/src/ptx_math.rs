//! The device math library of the PTX back-end (`cuprite_ptx::emit::mathlib`): its CUDA C
//! source lowered to IR once per process, and a module prepared for the back-end with
//! the routines its device code calls linked in.

use cuprite_ir::Module;
use cuprite_ptx::emit::mathlib;
use std::borrow::Cow;
use std::sync::OnceLock;

/// The library as IR (every function lowered: it has no kernels).
fn library() -> Result<&'static Module, String> {
    static LIB: OnceLock<Result<Module, String>> = OnceLock::new();
    LIB.get_or_init(|| {
        let parsed = cuprite_front::parse(mathlib::SOURCE);
        let fail = |what: &str, n: usize| format!("internal error: Cuprite's device math library does not {what} ({n} diagnostics)");
        if !parsed.diagnostics.is_empty() {
            for d in &parsed.diagnostics {
                crate::diagnostics::emit(&cuprite_front::render(d, &parsed.source_map));
            }
            return Err(fail("parse", parsed.diagnostics.len()));
        }
        let opts = cuprite_sema::SemaOptions { arch: 75, fmad: true, fast_math: false, template_depth: 900, relocatable: true };
        let lowered = cuprite_sema::check(&parsed.tu, &opts).and_then(|c| c.lower_with(&[], &parsed.source_map));
        match lowered {
            Ok(out) => Ok(out.module),
            Err(diags) => {
                for d in &diags {
                    crate::diagnostics::emit(&cuprite_front::render(d, &parsed.source_map));
                }
                Err(fail("compile", diags.len()))
            }
        }
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// `m` as the PTX back-end takes it: with the library's routines linked in when its
/// device code calls math functions that need them.
pub fn prepare(m: &Module) -> Result<Cow<'_, Module>, String> {
    let lib = library()?;
    if !mathlib::needs(m, lib) {
        return Ok(Cow::Borrowed(m));
    }
    mathlib::attach(m, lib).map(Cow::Owned)
}
