//! Kernels and device variables registered by device objects (`__cuprite_register_module`).

use crate::abi::{KernelDesc, KernelEntry, ModuleDesc, VarDesc};
use std::collections::HashMap;
use std::ffi::CStr;
use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// `Kernel::max_dynamic_shared` before the program sets it.
pub const DYNAMIC_SHARED_UNSET: u32 = u32::MAX;

pub struct Kernel {
    pub name: String,
    pub symbol: String,
    pub entry: Option<KernelEntry>,
    pub param_sizes: Vec<u32>,
    pub param_aligns: Vec<u32>,
    pub static_shared_bytes: u64,
    pub slot_bytes_per_thread: u64,
    pub local_bytes_per_thread: u64,
    pub max_threads_per_block: u32,
    pub min_blocks_per_sm: u32,
    /// cudaFuncAttributeMaxDynamicSharedMemorySize ([`DYNAMIC_SHARED_UNSET`]: not set;
    /// a program may set 0, which forbids dynamic shared memory, as on a GPU).
    pub max_dynamic_shared: AtomicU32,
    /// cudaFuncAttributePreferredSharedMemoryCarveout (-1: default).
    pub carveout: AtomicI32,
}

impl Kernel {
    /// The most dynamic shared memory a launch may ask for: what the program set with
    /// cudaFuncAttributeMaxDynamicSharedMemorySize, else the per-block limit less the
    /// static shared memory.
    pub fn dynamic_shared_limit(&self, lim: &crate::launch::Limits) -> u64 {
        match self.max_dynamic_shared.load(Ordering::Relaxed) {
            DYNAMIC_SHARED_UNSET => lim.shared_per_block.saturating_sub(self.static_shared_bytes),
            set => set as u64,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub device_addr: usize,
    pub size: u64,
    pub is_constant: bool,
    /// `__managed__`: `device_addr` is the host shadow itself (one object for both sides).
    pub is_managed: bool,
}

#[derive(Default)]
struct Registry {
    kernels: HashMap<usize, Arc<Kernel>>,
    vars: HashMap<usize, Var>,
}

fn registry() -> &'static Mutex<Registry> {
    static R: OnceLock<Mutex<Registry>> = OnceLock::new();
    R.get_or_init(|| Mutex::new(Registry::default()))
}

fn lock() -> std::sync::MutexGuard<'static, Registry> {
    registry().lock().unwrap_or_else(|p| p.into_inner())
}

unsafe fn cstr(p: *const std::ffi::c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

unsafe fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p, n)
    }
}

/// Registers a module table.
///
/// # Safety
/// `m` must point at a valid module table whose pointers stay valid for the process.
pub unsafe fn register_module(m: *const ModuleDesc) {
    if m.is_null() || crate::checked_override::capture(m) {
        return;
    }
    let m = &*m;
    // `cuprite sanitize ./app`: the instrumented code and variables stand in for these.
    let ov = crate::checked_override::overrides();
    if m.abi_version != crate::abi::ABI_VERSION {
        eprintln!(
            "cuprite: device object built for ABI version {} but the runtime has {}; its kernels are not registered",
            m.abi_version,
            crate::abi::ABI_VERSION
        );
        return;
    }
    let kernels: &[KernelDesc] = slice(m.kernels, m.num_kernels as usize);
    let vars: &[VarDesc] = slice(m.vars, m.num_vars as usize);
    let mut r = lock();
    for k in kernels {
        let n = k.num_params as usize;
        let code = ov.map_or(k, |o| o.kernel(m, k));
        let kernel = Kernel {
            name: cstr(k.name),
            symbol: cstr(k.symbol),
            entry: code.entry,
            param_sizes: slice(k.param_sizes, n).to_vec(),
            param_aligns: slice(k.param_aligns, n).to_vec(),
            static_shared_bytes: code.static_shared_bytes,
            slot_bytes_per_thread: code.slot_bytes_per_thread,
            local_bytes_per_thread: code.local_bytes_per_thread,
            max_threads_per_block: k.max_threads_per_block,
            min_blocks_per_sm: k.min_blocks_per_sm,
            max_dynamic_shared: AtomicU32::new(DYNAMIC_SHARED_UNSET),
            carveout: AtomicI32::new(-1),
        };
        r.kernels.insert(k.host_stub as usize, Arc::new(kernel));
    }
    for v in vars {
        let name = cstr(v.name);
        let inst = ov.map_or(v, |o| o.var(m, v));
        let var = match bind_managed(inst, v.host_shadow as usize) {
            Some(size) => Var { name, device_addr: v.host_shadow as usize, size, is_constant: false, is_managed: true },
            None => Var {
                name,
                device_addr: inst.device_addr as usize,
                size: v.size,
                is_constant: v.is_constant != 0,
                is_managed: false,
            },
        };
        r.vars.insert(v.host_shadow as usize, var);
    }
}

/// If `v` is a managed variable's cell (`cuprite_abi.h`, "managed variables"), points it
/// at the host shadow and returns the variable's size.
///
/// # Safety
/// `v.device_addr` must point at `v.size` readable and writable bytes.
unsafe fn bind_managed(v: &VarDesc, shadow: usize) -> Option<u64> {
    let cell = v.device_addr as *mut usize;
    if v.size != 16 || v.is_constant != 0 || cell.is_null() || cell as usize % 8 != 0 {
        return None;
    }
    let (begin, end) = (cell.read(), cell.add(1).read());
    if begin != cell as usize + 16 || end < begin {
        return None;
    }
    let size = end - begin;
    cell.write(shadow);
    cell.add(1).write(shadow + size);
    Some(size as u64)
}

/// Forgets a module's kernels and variables (`cuModuleUnload`).
///
/// # Safety
/// As for [`register_module`].
pub unsafe fn unregister_module(m: *const ModuleDesc) {
    let Some(m) = m.as_ref() else { return };
    let kernels: &[KernelDesc] = slice(m.kernels, m.num_kernels as usize);
    let vars: &[VarDesc] = slice(m.vars, m.num_vars as usize);
    let mut r = lock();
    for k in kernels {
        r.kernels.remove(&(k.host_stub as usize));
    }
    for v in vars {
        r.vars.remove(&(v.host_shadow as usize));
    }
}

pub fn kernel(host_stub: *const std::ffi::c_void) -> Option<Arc<Kernel>> {
    lock().kernels.get(&(host_stub as usize)).cloned()
}

/// A device variable by its host shadow's address; a device address of a registered
/// variable is accepted too (as CUDA accepts device symbols).
pub fn var(symbol: *const std::ffi::c_void) -> Option<Var> {
    let r = lock();
    if let Some(v) = r.vars.get(&(symbol as usize)) {
        return Some(v.clone());
    }
    r.vars.values().find(|v| v.device_addr == symbol as usize).cloned()
}

/// The registered variable whose device instance contains [addr, addr+len).
pub fn var_containing(addr: usize, len: usize) -> Option<Var> {
    let r = lock();
    r.vars
        .values()
        .find(|v| addr >= v.device_addr && addr.saturating_add(len) <= v.device_addr + v.size as usize)
        .cloned()
}

/// Every registered variable: (host shadow, variable).
pub fn all_vars() -> Vec<(usize, Var)> {
    lock().vars.iter().map(|(k, v)| (*k, v.clone())).collect()
}

/// Moves a variable's device instance (the GPU device's copy of it).
pub fn set_var_device_addr(host_shadow: usize, device_addr: usize) {
    if let Some(v) = lock().vars.get_mut(&host_shadow) {
        v.device_addr = device_addr;
    }
}

pub fn reset_kernel_attributes() {
    for k in lock().kernels.values() {
        k.max_dynamic_shared.store(DYNAMIC_SHARED_UNSET, Ordering::Relaxed);
        k.carveout.store(-1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::ABI_VERSION;

    #[repr(C, align(16))]
    struct Cell([usize; 2]);

    fn module(vars: &[VarDesc]) -> ModuleDesc {
        ModuleDesc {
            abi_version: ABI_VERSION,
            source_file: std::ptr::null(),
            kernels: std::ptr::null(),
            num_kernels: 0,
            vars: vars.as_ptr(),
            num_vars: vars.len() as u32,
        }
    }

    #[test]
    fn managed_cell_points_at_the_host_shadow() {
        let shadow = Box::new([0u32; 3]);
        let shadow_addr = shadow.as_ptr() as usize;
        let mut cell = Box::new(Cell([0; 2]));
        let at = &mut *cell as *mut Cell as usize;
        cell.0 = [at + 16, at + 16 + 12];
        // A plain 16-byte variable that does not point past itself stays what it is.
        let plain_shadow = Box::new([0u64; 2]);
        let mut plain = Box::new(Cell([7, 9]));
        let plain_at = &mut *plain as *mut Cell;
        let vars = [
            VarDesc { host_shadow: shadow_addr as _, name: c"m".as_ptr(), device_addr: at as _, size: 16, is_constant: 0 },
            VarDesc {
                host_shadow: plain_shadow.as_ptr() as _,
                name: c"d".as_ptr(),
                device_addr: plain_at as _,
                size: 16,
                is_constant: 0,
            },
        ];
        unsafe { register_module(&module(&vars)) };
        assert_eq!(cell.0, [shadow_addr, shadow_addr + 12]);
        let v = var(shadow_addr as _).expect("registered");
        assert!(v.is_managed);
        assert_eq!((v.device_addr, v.size), (shadow_addr, 12));
        assert!(var_containing(shadow_addr + 8, 4).is_some_and(|v| v.is_managed));
        assert_eq!(plain.0, [7, 9]);
        let d = var(plain_shadow.as_ptr() as _).expect("registered");
        assert!(!d.is_managed);
        assert_eq!(d.device_addr, plain_at as usize);
    }
}

/// The host stub a kernel was registered under (graph node queries hand it back).
pub fn stub_of(k: &Arc<Kernel>) -> *const std::ffi::c_void {
    lock().kernels.iter().find(|(_, v)| Arc::ptr_eq(v, k)).map(|(s, _)| *s).unwrap_or(0) as *const std::ffi::c_void
}
