//! Checking and profiling a program built without `--sanitize` (`cuprite sanitize ./app`,
//! `cuprite prof ./app`). Every program Cuprite builds keeps its device IR (section
//! `.cuprite_checkable_ir`) and exports the runtime's device-side entry points; the
//! command instruments that IR, compiles it into a shared object (cached by content) and
//! runs the program with `CUPRITE_CHECKED_DEVICE_CODE` naming it. Here the runtime loads
//! that object before the program's first module registers, and registers each of the
//! program's kernels and device variables with the instrumented object's code and
//! instances instead (matched by source file and symbol), so host copies to symbols and
//! the checked kernels see one instance.

use crate::abi::{KernelDesc, ModuleDesc, VarDesc};
use std::cell::Cell;
use std::collections::HashMap;
use std::ffi::CStr;
use std::sync::{Mutex, OnceLock};

pub const ENV: &str = "CUPRITE_CHECKED_DEVICE_CODE";

/// Descriptors inside the loaded object (static data, loaded for the process's life).
pub struct Overrides {
    kernels: HashMap<(String, String), *const KernelDesc>,
    vars: HashMap<(String, String), *const VarDesc>,
}

unsafe impl Send for Overrides {}
unsafe impl Sync for Overrides {}

struct Captured(Vec<*const ModuleDesc>);
unsafe impl Send for Captured {}

thread_local! {
    static LOADING: Cell<bool> = const { Cell::new(false) };
}

fn captured() -> std::sync::MutexGuard<'static, Captured> {
    static C: OnceLock<Mutex<Captured>> = OnceLock::new();
    C.get_or_init(|| Mutex::new(Captured(Vec::new()))).lock().unwrap_or_else(|p| p.into_inner())
}

/// A module registering while the instrumented object loads: kept as an override (true),
/// not registered.
pub fn capture(m: *const ModuleDesc) -> bool {
    if !LOADING.with(|l| l.get()) {
        return false;
    }
    captured().0.push(m);
    true
}

unsafe fn text(p: *const std::ffi::c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

/// The instrumented object's descriptors, loaded on first use when the environment
/// names one. A named object that cannot be loaded ends the program: running unchecked
/// would be a silent "0 errors".
pub fn overrides() -> Option<&'static Overrides> {
    static O: OnceLock<Option<Overrides>> = OnceLock::new();
    O.get_or_init(|| {
        let path = std::env::var(ENV).ok().filter(|p| !p.is_empty())?;
        let c = std::ffi::CString::new(path.clone()).ok()?;
        LOADING.with(|l| l.set(true));
        let h = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        LOADING.with(|l| l.set(false));
        if h.is_null() {
            let why = unsafe { text(libc::dlerror()) };
            eprintln!("cuprite: cannot load the instrumented device code {path}: {why}");
            unsafe { libc::_exit(1) };
        }
        let mut o = Overrides { kernels: HashMap::new(), vars: HashMap::new() };
        for &m in &captured().0 {
            let m = unsafe { &*m };
            let src = unsafe { text(m.source_file) };
            for i in 0..m.num_kernels as usize {
                let k = unsafe { m.kernels.add(i) };
                o.kernels.insert((src.clone(), unsafe { text((*k).symbol) }), k);
            }
            for i in 0..m.num_vars as usize {
                let v = unsafe { m.vars.add(i) };
                o.vars.insert((src.clone(), unsafe { text((*v).name) }), v);
            }
        }
        Some(o)
    })
    .as_ref()
}

impl Overrides {
    /// The instrumented kernel standing for `k` of module `m`; says so when there is none
    /// (that kernel then runs unchecked).
    pub unsafe fn kernel<'a>(&self, m: &ModuleDesc, k: &'a KernelDesc) -> &'a KernelDesc {
        let key = (text(m.source_file), text(k.symbol));
        match self.kernels.get(&key) {
            Some(&o) => &*o,
            None => {
                eprintln!("cuprite: the instrumented device code has no kernel {} of {}; it runs unchecked", key.1, key.0);
                k
            }
        }
    }

    pub unsafe fn var<'a>(&self, m: &ModuleDesc, v: &'a VarDesc) -> &'a VarDesc {
        match self.vars.get(&(text(m.source_file), text(v.name))) {
            Some(&o) => &*o,
            None => v,
        }
    }
}
