//! The PTX modules a program's device objects register (`__cuprite_register_ptx`, from
//! the code `crates/cuprite/src/ptx_embed.rs` generates), for the GPU device.

use std::ffi::{c_char, c_void, CStr};
use std::sync::Mutex;

pub struct PtxModule {
    /// The PTX text, NUL-terminated as `cuModuleLoadData` wants it; `None` when the
    /// back-end could not translate the module, with the reason in `error`.
    pub text: Option<std::ffi::CString>,
    pub error: Option<String>,
    /// (stub symbol, PTX entry name) of each kernel.
    pub kernels: Vec<(String, String)>,
    /// (host shadow address, PTX variable name) of each `__device__`/`__constant__` variable.
    pub vars: Vec<(usize, String)>,
}

static MODULES: Mutex<Vec<PtxModule>> = Mutex::new(Vec::new());

pub fn with_modules<R>(f: impl FnOnce(&[PtxModule]) -> R) -> R {
    f(&MODULES.lock().unwrap_or_else(|p| p.into_inner()))
}

unsafe fn string(p: *const c_char) -> Option<String> {
    (!p.is_null()).then(|| CStr::from_ptr(p).to_string_lossy().into_owned())
}

/// Called by each device object's constructor.
///
/// # Safety
/// The arrays hold `nk` and `nv` valid entries; the strings are NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn __cuprite_register_ptx(
    ptx: *const c_char,
    error: *const c_char,
    nk: u32,
    kernel_symbols: *const *const c_char,
    kernel_names: *const *const c_char,
    nv: u32,
    var_shadows: *const *const c_void,
    var_names: *const *const c_char,
) {
    crate::error::guard((), || {
        let mut kernels = Vec::new();
        for i in 0..nk as usize {
            if let (Some(s), Some(n)) = (string(*kernel_symbols.add(i)), string(*kernel_names.add(i))) {
                kernels.push((s, n));
            }
        }
        let mut vars = Vec::new();
        for i in 0..nv as usize {
            if let Some(n) = string(*var_names.add(i)) {
                vars.push((*var_shadows.add(i) as usize, n));
            }
        }
        let text = (!ptx.is_null()).then(|| CStr::from_ptr(ptx).to_owned());
        let m = PtxModule { text, error: string(error), kernels, vars };
        MODULES.lock().unwrap_or_else(|p| p.into_inner()).push(m);
    })
}
