//! Rust mirrors of the structs in `csrc/cuprite_abi.h` (the device code contract) and of
//! the C functions in `csrc/guard.c` / `csrc/props.c`.

use std::ffi::{c_char, c_int, c_void};

pub const ABI_VERSION: u32 = 1;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
    pub fn count(&self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }
}

#[repr(C)]
pub struct Launch {
    pub grid_dim: Dim3,
    pub block_dim: Dim3,
    pub args: *const *mut c_void,
    pub dynamic_shared_bytes: usize,
    /// 1 for a cooperative launch.
    pub cooperative: u32,
}

#[repr(C)]
pub struct BlockRun {
    pub launch: *const Launch,
    pub first_block: u64,
    pub end_block: u64,
    pub shared: *mut c_char,
    pub thread_slots: *mut c_char,
    pub fault_block: Dim3,
    pub fault_thread_linear: u32,
    /// Grid phases of cooperative launches (see `cuprite_abi.h`).
    pub grid_resume: u32,
}

pub type KernelEntry = unsafe extern "C" fn(run: *mut BlockRun);

#[repr(C)]
pub struct KernelDesc {
    pub host_stub: *const c_void,
    pub symbol: *const c_char,
    pub name: *const c_char,
    pub entry: Option<KernelEntry>,
    pub num_params: u32,
    pub param_sizes: *const u32,
    pub param_aligns: *const u32,
    pub static_shared_bytes: u64,
    pub slot_bytes_per_thread: u64,
    pub local_bytes_per_thread: u64,
    pub max_threads_per_block: u32,
    pub min_blocks_per_sm: u32,
}

#[repr(C)]
pub struct VarDesc {
    pub host_shadow: *const c_void,
    pub name: *const c_char,
    pub device_addr: *mut c_void,
    pub size: u64,
    pub is_constant: u32,
}

#[repr(C)]
pub struct ModuleDesc {
    pub abi_version: u32,
    pub source_file: *const c_char,
    pub kernels: *const KernelDesc,
    pub num_kernels: u32,
    pub vars: *const VarDesc,
    pub num_vars: u32,
}

pub fn dynamic_shared_offset(static_bytes: u64) -> u64 {
    (static_bytes + 15) & !15
}

/// Fault details recorded by guard.c (mirror of `cuprite_fault_info`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct FaultInfo {
    pub kind: c_int,
    pub signo: c_int,
    pub si_code: c_int,
    pub cuda_error: c_int,
    pub address: usize,
    pub message: *const c_char,
}

impl Default for FaultInfo {
    fn default() -> Self {
        FaultInfo { kind: 0, signo: 0, si_code: 0, cuda_error: 0, address: 0, message: std::ptr::null() }
    }
}

pub const FAULT_SIGNAL: c_int = 1;
pub const FAULT_TRAP: c_int = 2;
pub const FAULT_ASSERT: c_int = 3;
pub const FAULT_KERNEL_ERROR: c_int = 4;

/// Mirror of `cuprite_device_info` in props.c.
#[repr(C)]
pub struct DeviceInfo {
    pub ordinal: c_int,
    pub major: c_int,
    pub minor: c_int,
    pub sm_count: c_int,
    pub total_mem: usize,
}

extern "C" {
    pub fn cuprite_guard_thread_init() -> c_int;
    pub fn cuprite_guard_install();
    pub fn cuprite_guarded_run(entry: KernelEntry, run: *mut BlockRun) -> c_int;
    pub fn cuprite_guarded_memcpy(dst: *mut c_void, src: *const c_void, n: usize) -> c_int;
    pub fn cuprite_guarded_memset(dst: *mut c_void, value: c_int, n: usize) -> c_int;
    pub fn cuprite_guard_last_fault(out: *mut FaultInfo);
    pub fn cuprite_set_assert_stream(to_stdout: c_int);

    pub fn cuprite_printf_set_limit(limit: usize);
    pub fn cuprite_printf_get_limit() -> usize;
    pub fn cuprite_printf_flush();
    pub fn cuprite_printf_discard();
    pub fn cuprite_printf_pending() -> usize;
    pub fn cuprite_register_atexit();

    pub fn cuprite_fill_props(p: *mut c_void, d: *const DeviceInfo);
    pub fn cuprite_prop_attribute(p: *const c_void, attr: c_int, v: *mut c_int) -> c_int;
    pub fn cuprite_sizeof_device_prop() -> usize;
    pub fn cuprite_arch_shared_optin(major: c_int, minor: c_int) -> c_int;
}
