//! Modules a program loads at run time (`cuModuleLoad*`, `cuLibraryLoad*`, NVRTC's
//! output) on the GPU device.
//!
//! The CPU loader (`driver/loader.rs`) still compiles and registers every module (the
//! registry's kernels and variables are what the driver API hands out); with the GPU
//! device active the module also goes to the driver: PTX text as given (NVIDIA's PTX, or
//! Cuprite's `-ptx` output, whose comment lines carry the image), else the PTX back-end's
//! translation of the image's IR (`-cubin`, `-fatbin`, NVRTC images). Its kernels are
//! found by their stub symbols (the PTX entry is the symbol's identifier, `emit::Names`),
//! its variables are re-pointed at the driver module's instances. A module the back-end
//! cannot translate (it calls a device math routine, which only the compiler can attach)
//! loads for the CPU loader and its kernels fail on the GPU with the reason.

use super::driver::*;
use super::GpuDevice;
use cuprite_image::Image;
use cuprite_ir::{FunctionKind, Module};
use std::ffi::CString;

/// The text of `data` when it is PTX (it has `.version` and an entry).
fn ptx_text(data: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(data).ok()?.trim_end_matches('\0');
    (text.contains(".version") && text.contains(".entry")).then_some(text)
}

/// The device code of a loaded image as IR.
fn module_of(data: &[u8], img: &Image) -> Result<Module, String> {
    if !img.ir.is_empty() {
        return bincode::deserialize(&img.ir).map_err(|e| format!("the module image's device code cannot be read: {e}"));
    }
    let text = ptx_text(data).ok_or("the module image carries no device code for the GPU")?;
    let parsed = cuprite_ptx::parse::parse_module(text).map_err(|e| e.message)?;
    cuprite_ptx::lower::module::lower_module(&parsed).map_err(|e| e.message)
}

/// Loads a module the CPU loader has just loaded (`symbol` finds its definitions) on the
/// GPU device, when that is the process's device.
pub fn load(data: &[u8], img: &Image, symbol: &dyn Fn(&str) -> Option<usize>) {
    if !super::selected() {
        return;
    }
    // A driver-API program may load modules before anything opened the device.
    let _ = crate::context::ctx();
    let Some(g) = super::active() else { return };
    let module = match module_of(data, img) {
        Ok(m) => m,
        Err(why) => {
            eprintln!("cuprite: a module loaded at run time cannot run on the GPU device: {why}");
            return;
        }
    };
    let (fnames, gnames) = cuprite_ptx::emit::symbol_names(&module);
    let kernels: Vec<(String, String)> = module
        .functions
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match &f.kind {
            FunctionKind::Kernel { stub_symbol, .. } => Some((stub_symbol.clone(), fnames[i].clone())),
            _ => None,
        })
        .collect();
    let text = match ptx_text(data) {
        Some(t) => Ok(t.to_string()),
        None => {
            let target = cuprite_ptx::isa::Target { sm: img.arch.max(cuprite_ptx::isa::Target::OLDEST_SM), arch_specific: false };
            cuprite_ptx::emit::emit_module(&module, target).map_err(|e| format!("its device code has no PTX: {e}"))
        }
    };
    let vars: Vec<(usize, String)> = module
        .globals
        .iter()
        .enumerate()
        .filter(|(_, v)| v.space != cuprite_ir::AddressSpace::Shared && !v.external)
        .filter_map(|(i, v)| Some((symbol(v.host_symbol.as_deref()?)?, gnames[i].clone())))
        .collect();
    g.current();
    let result = text.and_then(|t| unsafe { g.load_late(&t, &kernels, &vars) });
    if let Err(why) = result {
        let mut late = g.late.lock().unwrap_or_else(|e| e.into_inner());
        for (sym, _) in &kernels {
            late.insert(sym.clone(), Err(why.clone()));
        }
    }
}

impl GpuDevice {
    /// JIT-compiles one module's PTX and records its kernels and variables.
    unsafe fn load_late(&self, text: &str, kernels: &[(String, String)], vars: &[(usize, String)]) -> Result<(), String> {
        let text = CString::new(text).map_err(|_| "the PTX holds a NUL byte".to_string())?;
        let module = self.jit_ptx(&text, "the module's PTX")?;
        self.attach_fault_cell(module)?;
        let mut late = self.late.lock().unwrap_or_else(|e| e.into_inner());
        for (sym, name) in kernels {
            let cname = CString::new(name.as_str()).unwrap_or_default();
            let mut f: CUfunction = std::ptr::null_mut();
            let r = (self.drv.module_get_function)(&mut f, module, cname.as_ptr());
            let entry = if r == 0 { Ok(f as usize) } else { Err(format!("cuModuleGetFunction({name}): {}", self.drv.error_string(r))) };
            late.insert(sym.clone(), entry);
        }
        drop(late);
        for (shadow, name) in vars {
            let cname = CString::new(name.as_str()).unwrap_or_default();
            let (mut p, mut size) = (0u64, 0usize);
            if (self.drv.module_get_global)(&mut p, &mut size, module, cname.as_ptr()) == 0 {
                crate::registry::set_var_device_addr(*shadow, p as usize);
            }
        }
        Ok(())
    }
}
