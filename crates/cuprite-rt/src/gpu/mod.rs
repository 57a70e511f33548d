//! The GPU device: with `CUPRITE_DEVICE=gpu`, a program's kernels run on an NVIDIA GPU.
//!
//! The driver library is loaded at run time (`driver.rs`, never Cuprite's own
//! `libcuda.so`); the PTX each device object registered (`ptx.rs`) is JIT-compiled with
//! `cuModuleLoadDataEx` when the device opens; device variables are re-pointed at their
//! instances in those modules. Memory, copies and launches map onto the driver API in the
//! primary context; the runtime's streams, events and error handling above the `Device`
//! trait stay as they are (each stream's thread runs its operations in order on its own
//! driver stream; a launch that more queued GPU work follows returns once the driver has
//! queued it, any other operation once the GPU has finished it, with the driver's error
//! code, which CUDA numbers as the runtime does).

pub mod driver;
mod fault;
mod ipc;
pub mod mempool;
pub mod timing;
pub mod loaded_modules;
pub mod ptx;
pub mod texture;

use crate::device::Device;
use crate::error::{self, Result};
use crate::launch::PreparedLaunch;
use crate::memory::{self, Kind};
use crate::stream::Op;
use driver::*;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::ffi::{c_int, c_void, CString};
use std::sync::{Mutex, OnceLock};

thread_local! {
    /// The calling thread's own driver stream and event: each runtime stream's thread
    /// issues its operations there, so launches of different streams run concurrently
    /// on the GPU as they do under CUDA, and none waits behind the legacy stream.
    static LANE: Cell<Option<(usize, usize)>> = const { Cell::new(None) };
}

thread_local! {
    /// Set by the stream's server before a launch that the next queued operation, one the
    /// driver stream orders after it and that waits for the stream itself (a launch, copy
    /// or memset), follows: the launch then returns as soon as the driver has queued it.
    static MAY_DEFER: Cell<bool> = const { Cell::new(false) };
    /// Whether the last operation was a launch left running (`MAY_DEFER`).
    static DEFERRED: Cell<bool> = const { Cell::new(false) };
    /// Whether this thread's driver stream holds launches nobody waited for yet.
    pub(crate) static PENDING: Cell<bool> = const { Cell::new(false) };
    /// Whether this thread is a stream's server (it has run an operation).
    static ON_STREAM_THREAD: Cell<bool> = const { Cell::new(false) };
}

/// Whether the calling thread serves a stream (rather than being a program's thread).
pub fn on_stream_thread() -> bool {
    ON_STREAM_THREAD.with(Cell::get)
}

/// Called by a stream's server before it runs `current`, with the operation queued after
/// it: lets a launch followed by more GPU work return without waiting, as CUDA's
/// launches do (the host round trip per launch is what made kernel loops slow).
pub fn before_op(current: &Op, next: Option<&Op>) {
    ON_STREAM_THREAD.with(|c| c.set(true));
    let defer = active().is_some()
        && matches!(current, Op::Launch(_))
        && matches!(
            next,
            Some(Op::Launch(_) | Op::Copy { .. } | Op::Copy2D { .. } | Op::Set { .. } | Op::Set2D { .. } | Op::RecordEvent(..))
        );
    MAY_DEFER.with(|c| c.set(defer));
}

/// Called by a stream's server after an operation: true when it was a launch still
/// running on the GPU (the server then does not count it complete; the next operation's
/// completion covers it). Otherwise what earlier launches left running is waited for
/// here, so an operation counts complete only when the GPU finished everything before it.
pub fn after_op() -> bool {
    MAY_DEFER.with(|c| c.set(false));
    if DEFERRED.with(|c| c.replace(false)) {
        return true;
    }
    if PENDING.with(Cell::get) {
        if let Some(g) = active() {
            g.current();
            if let Ok((s, e)) = g.lane() {
                if let Err(err) = g.finish(s, e) {
                    crate::context::ctx().set_sticky(err);
                }
            }
        }
    }
    false
}

static ACTIVE: OnceLock<&'static GpuDevice> = OnceLock::new();

/// Whether the GPU device is the process's device.
pub fn active() -> Option<&'static GpuDevice> {
    ACTIVE.get().copied()
}
/// The largest dynamic shared memory a launch gets without opting in.
const DEFAULT_DYNAMIC_SHARED: usize = 48 * 1024;

/// cudaErrorNoDevice.
pub const NO_DEVICE: error::CudaError = 100;

pub struct GpuDevice {
    drv: Driver,
    ctx: CUcontext,
    cc: (i32, i32),
    sms: i32,
    total: usize,
    /// Each kernel's function by its stub symbol, or why it cannot run on the GPU.
    functions: HashMap<String, std::result::Result<usize, String>>,
    /// The grid-barrier state (`__cuprite_grid_state`, emit/grid.rs) of the module of each
    /// kernel whose module has grid barriers, by stub symbol.
    grid_states: HashMap<String, u64>,
    /// Kernels of modules loaded at run time (`loaded_modules.rs`), by stub symbol.
    late: Mutex<HashMap<String, std::result::Result<usize, String>>>,
    /// Live driver allocations and whether each is page-locked host memory.
    allocations: Mutex<HashMap<u64, bool>>,
    reported: Mutex<HashSet<String>>,
}

// The context handle is a process-wide driver object, usable from any thread once made current.
unsafe impl Send for GpuDevice {}
unsafe impl Sync for GpuDevice {}

fn check(drv: &Driver, what: &str, r: CUresult) -> std::result::Result<(), String> {
    if r == 0 {
        Ok(())
    } else {
        Err(format!("{what} failed: {}", drv.error_string(r)))
    }
}

/// Whether the environment selects the GPU device (`CUPRITE_DEVICE=gpu`).
pub fn selected() -> bool {
    std::env::var("CUPRITE_DEVICE").is_ok_and(|v| v.eq_ignore_ascii_case("gpu"))
}

impl GpuDevice {
    pub fn open() -> std::result::Result<GpuDevice, String> {
        let drv = Driver::load()?;
        unsafe {
            check(&drv, "cuInit", (drv.init)(0))?;
            let mut dev: CUdevice = 0;
            check(&drv, "cuDeviceGet", (drv.device_get)(&mut dev, 0))?;
            let attr = |a: c_int| -> std::result::Result<i32, String> {
                let mut v = 0;
                check(&drv, "cuDeviceGetAttribute", (drv.device_get_attribute)(&mut v, a, dev))?;
                Ok(v)
            };
            let cc = (attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?, attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?);
            let sms = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
            let mut total = 0usize;
            check(&drv, "cuDeviceTotalMem", (drv.device_total_mem)(&mut total, dev))?;
            let mut ctx: CUcontext = std::ptr::null_mut();
            check(&drv, "cuDevicePrimaryCtxRetain", (drv.primary_ctx_retain)(&mut ctx, dev))?;
            check(&drv, "cuCtxSetCurrent", (drv.ctx_set_current)(ctx))?;
            let mut dev = GpuDevice {
                drv,
                ctx,
                cc,
                sms,
                total,
                functions: HashMap::new(),
                grid_states: HashMap::new(),
                late: Mutex::new(HashMap::new()),
                allocations: Mutex::new(HashMap::new()),
                reported: Mutex::new(HashSet::new()),
            };
            dev.load_modules()?;
            Ok(dev)
        }
    }

    /// Makes the host shadows of `__managed__` variables (one object for host and device,
    /// as on the CPU device) page-locked and mapped, so that kernels reach them at the
    /// host's own addresses.
    unsafe fn map_managed(&self, managed: &HashMap<usize, u64>) -> std::result::Result<(), String> {
        const PAGE: usize = 4096;
        let mut ranges: Vec<(usize, usize)> =
            managed.iter().map(|(&a, &n)| (a & !(PAGE - 1), (a + (n as usize).max(1) + PAGE - 1) & !(PAGE - 1))).collect();
        ranges.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::new();
        for (s, e) in ranges {
            match merged.last_mut() {
                Some(last) if s <= last.1 => last.1 = last.1.max(e),
                _ => merged.push((s, e)),
            }
        }
        for (s, e) in merged {
            check(&self.drv, "cuMemHostRegister (__managed__ variables)", (self.drv.mem_host_register)(s as *mut c_void, e - s, HOST_REGISTER_MAPPED))?;
            let mut d: CUdeviceptr = 0;
            check(&self.drv, "cuMemHostGetDevicePointer (__managed__ variables)", (self.drv.mem_host_get_device_pointer)(&mut d, s as *mut c_void, 0))?;
            if d as usize != s {
                return Err("the GPU cannot use host addresses for registered memory, which __managed__ variables need".into());
            }
        }
        Ok(())
    }

    /// Hands PTX text (NUL-terminated) to the driver's JIT; on refusal, the driver's
    /// error log, naming `what` was refused.
    pub(crate) unsafe fn jit_ptx(&self, text: &std::ffi::CStr, what: &str) -> std::result::Result<CUmodule, String> {
        let mut log = vec![0u8; 16384];
        let mut opts = [CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES];
        let mut vals = [log.as_mut_ptr() as *mut c_void, log.len() as *mut c_void];
        let mut module: CUmodule = std::ptr::null_mut();
        let r = (self.drv.module_load_data_ex)(&mut module, text.as_ptr() as *const c_void, 2, opts.as_mut_ptr(), vals.as_mut_ptr());
        if r != 0 {
            let log = String::from_utf8_lossy(&log[..log.iter().position(|b| *b == 0).unwrap_or(0)]).into_owned();
            return Err(format!("the driver refused {what} ({}): {log}", self.drv.error_string(r)));
        }
        Ok(module)
    }

    /// JIT-compiles every registered module and finds its kernels and variables.
    unsafe fn load_modules(&mut self) -> std::result::Result<(), String> {
        let mut functions = HashMap::new();
        let mut grid_states = HashMap::new();
        let mut vars = Vec::new();
        // A __managed__ variable's device-side cell ({begin, end}, cuprite_abi.h) points at
        // its host shadow, which stays the variable's address for the runtime.
        let managed: HashMap<usize, u64> =
            crate::registry::all_vars().into_iter().filter(|(_, v)| v.is_managed).map(|(shadow, v)| (shadow, v.size)).collect();
        if !managed.is_empty() {
            self.map_managed(&managed)?;
        }
        let mut cells: Vec<(u64, [usize; 2])> = Vec::new();
        ptx::with_modules(|mods| -> std::result::Result<(), String> {
            for m in mods {
                let Some(text) = &m.text else {
                    let why = format!("its device code has no PTX: {}", m.error.as_deref().unwrap_or("unknown reason"));
                    for (sym, _) in &m.kernels {
                        functions.insert(sym.clone(), Err(why.clone()));
                    }
                    continue;
                };
                let module = self.jit_ptx(text, "the program's PTX")?;
                self.attach_fault_cell(module)?;
                let (mut grid, mut size) = (0u64, 0usize);
                let has_grid = (self.drv.module_get_global)(&mut grid, &mut size, module, c"__cuprite_grid_state".as_ptr()) == 0;
                for (sym, name) in &m.kernels {
                    if has_grid {
                        grid_states.insert(sym.clone(), grid);
                    }
                    let cname = CString::new(name.as_str()).unwrap_or_default();
                    let mut f: CUfunction = std::ptr::null_mut();
                    let r = (self.drv.module_get_function)(&mut f, module, cname.as_ptr());
                    let entry = if r == 0 { Ok(f as usize) } else { Err(format!("cuModuleGetFunction({name}): {}", self.drv.error_string(r))) };
                    functions.insert(sym.clone(), entry);
                }
                for (shadow, name) in &m.vars {
                    let cname = CString::new(name.as_str()).unwrap_or_default();
                    let (mut p, mut size) = (0u64, 0usize);
                    check(&self.drv, &format!("cuModuleGetGlobal({name})"), (self.drv.module_get_global)(&mut p, &mut size, module, cname.as_ptr()))?;
                    match managed.get(shadow) {
                        Some(&n) if size >= 16 => cells.push((p, [*shadow, *shadow + n as usize])),
                        Some(_) => return Err(format!("__managed__ variable '{name}' has no cell in the PTX")),
                        None => vars.push((*shadow, p as usize)),
                    }
                }
            }
            Ok(())
        })?;
        for (shadow, addr) in vars {
            crate::registry::set_var_device_addr(shadow, addr);
        }
        if !cells.is_empty() {
            let (s, _) = self.lane().map_err(|e| format!("cannot create a driver stream: error {e}"))?;
            for (cell, bounds) in &cells {
                check(&self.drv, "cuMemcpyAsync (__managed__ cell)", (self.drv.memcpy_async)(*cell, bounds.as_ptr() as CUdeviceptr, 16, s))?;
            }
            check(&self.drv, "cuStreamSynchronize", (self.drv.stream_synchronize)(s))?;
        }
        self.functions = functions;
        self.grid_states = grid_states;
        Ok(())
    }

    fn current(&self) {
        unsafe {
            (self.drv.ctx_set_current)(self.ctx);
        }
    }

    /// The calling thread's (stream, event), made on first use.
    fn lane(&self) -> Result<(CUstream, CUevent)> {
        if let Some((s, e)) = LANE.with(Cell::get) {
            return Ok((s as CUstream, e as CUevent));
        }
        let (mut s, mut e): (CUstream, CUevent) = (std::ptr::null_mut(), std::ptr::null_mut());
        unsafe {
            self.result((self.drv.stream_create)(&mut s, CU_STREAM_NON_BLOCKING))?;
            self.result((self.drv.event_create)(&mut e, CU_EVENT_DISABLE_TIMING))?;
        }
        LANE.with(|l| l.set(Some((s as usize, e as usize))));
        Ok((s, e))
    }

    /// Waits for what the thread's stream holds by polling an event: unlike a stream
    /// synchronisation, that does not flush device printf, which CUDA prints only at its
    /// flush points (`flush_printf`).
    fn finish(&self, stream: CUstream, event: CUevent) -> Result<()> {
        PENDING.with(|c| c.set(false));
        unsafe {
            self.result((self.drv.event_record)(event, stream))?;
            let mut spins = 0u32;
            loop {
                match (self.drv.event_query)(event) {
                    0 => return fault::take().map_or(Ok(()), Err),
                    CUDA_ERROR_NOT_READY => {
                        spins += 1;
                        if spins < 1000 {
                            std::thread::yield_now();
                        } else {
                            std::thread::sleep(std::time::Duration::from_micros(50));
                        }
                    }
                    e => return Err(e),
                }
            }
        }
    }

    /// Prints what kernels wrote with printf (at the runtime's flush points): a
    /// synchronisation of the thread's own stream, which holds nothing by now, flushes
    /// the driver's buffer without waiting for other streams' work.
    pub fn flush_printf(&self) {
        self.current();
        if let Ok((s, _)) = self.lane() {
            unsafe { (self.drv.stream_synchronize)(s) };
        }
    }

    /// `cudaHostRegister`: the range becomes page-locked and reachable by kernels.
    pub fn host_register(&self, p: *mut c_void, size: usize) -> Result<()> {
        self.current();
        self.result(unsafe { (self.drv.mem_host_register)(p, size, HOST_REGISTER_MAPPED) })
    }

    pub fn host_unregister(&self, p: *mut c_void) -> Result<()> {
        self.current();
        self.result(unsafe { (self.drv.mem_host_unregister)(p) })
    }

    fn result(&self, r: CUresult) -> Result<()> {
        // The driver's codes are the runtime's for every error a program sees here
        // (1 invalid value, 2 out of memory, 700 illegal address, 710 assert, ...).
        if r == 0 {
            Ok(())
        } else {
            Err(r)
        }
    }
}

impl Device for GpuDevice {
    fn compute_capability(&self) -> (i32, i32) {
        self.cc
    }
    fn multiprocessor_count(&self) -> i32 {
        self.sms
    }
    fn total_memory(&self) -> usize {
        self.total
    }
    fn free_memory(&self) -> usize {
        self.current();
        let (mut free, mut total) = (0usize, 0usize);
        unsafe { (self.drv.mem_get_info)(&mut free, &mut total) };
        free
    }

    fn alloc(&self, size: usize, kind: Kind) -> Result<*mut c_void> {
        if size == 0 {
            return Ok(std::ptr::null_mut());
        }
        self.current();
        let mut p: CUdeviceptr = 0;
        let host = matches!(kind, Kind::PinnedHost(_));
        let r = unsafe {
            match kind {
                Kind::Device => (self.drv.mem_alloc)(&mut p, size),
                Kind::Managed => (self.drv.mem_alloc_managed)(&mut p, size, CU_MEM_ATTACH_GLOBAL),
                Kind::PinnedHost(_) => {
                    let mut h: *mut c_void = std::ptr::null_mut();
                    let r = (self.drv.mem_host_alloc)(&mut h, size, HOST_ALLOC_MAPPED);
                    p = h as CUdeviceptr;
                    r
                }
                Kind::Registered(_) => return Err(error::INVALID_VALUE),
            }
        };
        self.result(r)?;
        memory::track_foreign(p as usize, size, kind);
        self.allocations.lock().unwrap_or_else(|e| e.into_inner()).insert(p, host);
        Ok(p as *mut c_void)
    }

    fn free(&self, ptr: *mut c_void, accept: &dyn Fn(Kind) -> bool) -> Result<()> {
        if let Ok(a) = memory::untrack_foreign(ptr, accept) {
            self.current();
            self.allocations.lock().unwrap_or_else(|e| e.into_inner()).remove(&(ptr as u64));
            let r = unsafe {
                if matches!(a.kind, Kind::PinnedHost(_)) {
                    (self.drv.mem_free_host)(ptr)
                } else {
                    (self.drv.mem_free)(ptr as CUdeviceptr)
                }
            };
            return self.result(r);
        }
        memory::free(ptr, accept)
    }

    fn release_all(&self) {
        self.current();
        let all: Vec<u64> = {
            let mut a = self.allocations.lock().unwrap_or_else(|e| e.into_inner());
            let device: Vec<u64> = a.iter().filter(|(_, host)| !**host).map(|(p, _)| *p).collect();
            device.iter().for_each(|p| {
                a.remove(p);
            });
            device
        };
        for p in all {
            let _ = memory::untrack_foreign(p as *mut c_void, &|_| true);
            unsafe { (self.drv.mem_free)(p) };
        }
        memory::release_device_allocations();
    }

    fn copy(&self, dst: *mut c_void, src: *const c_void, n: usize) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.current();
        let (s, e) = self.lane()?;
        self.result(unsafe { (self.drv.memcpy_async)(dst as CUdeviceptr, src as CUdeviceptr, n, s) })?;
        self.finish(s, e)
    }

    fn memset(&self, dst: *mut c_void, value: i32, n: usize) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        self.current();
        let (s, e) = self.lane()?;
        self.result(unsafe { (self.drv.memset_d8_async)(dst as CUdeviceptr, value as u8, n, s) })?;
        self.finish(s, e)
    }

    fn execute(&self, l: &PreparedLaunch) -> Result<()> {
        self.current();
        let (stream, event) = self.lane()?;
        texture::before_launch(self)?;
        fault::LAST_KERNEL.with(|k| l.kernel.name.clone_into(&mut k.borrow_mut()));
        let late = if self.functions.contains_key(&l.kernel.symbol) {
            None
        } else {
            self.late.lock().unwrap_or_else(|e| e.into_inner()).get(&l.kernel.symbol).cloned()
        };
        let f = match self.functions.get(&l.kernel.symbol).or(late.as_ref()) {
            Some(Ok(f)) => *f as CUfunction,
            other => {
                let why = match other {
                    Some(Err(why)) => why.clone(),
                    _ => "the program registered no PTX for it".to_string(),
                };
                if self.reported.lock().unwrap_or_else(|e| e.into_inner()).insert(l.kernel.symbol.clone()) {
                    eprintln!("cuprite: kernel '{}' cannot run on the GPU device: {why}", l.kernel.name);
                }
                return Err(error::INVALID_DEVICE_FUNCTION);
            }
        };
        unsafe {
            if l.dynamic_shared > DEFAULT_DYNAMIC_SHARED {
                self.result((self.drv.func_set_attribute)(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, l.dynamic_shared as c_int))?;
            }
            let args = l.arg_ptrs() as *mut *mut c_void;
            let (g, b, shared) = (l.grid, l.block, l.dynamic_shared as u32);
            let grid_state = self.grid_states.get(&l.kernel.symbol).copied();
            if l.cooperative {
                // The module's grid barriers may run for this launch only (emit/grid.rs).
                if let Some(state) = grid_state {
                    self.result((self.drv.memset_d8_async)(state, 1, 4, stream))?;
                }
                let r = (self.drv.launch_cooperative_kernel)(f, g.x, g.y, g.z, b.x, b.y, b.z, shared, stream, args);
                if let Some(state) = grid_state {
                    self.result((self.drv.memset_d8_async)(state, 0, 4, stream))?;
                }
                self.result(r)?;
            } else {
                let r = (self.drv.launch_kernel)(f, g.x, g.y, g.z, b.x, b.y, b.z, shared, stream, args, std::ptr::null_mut());
                self.result(r)?;
            }
        }
        if MAY_DEFER.with(|c| c.replace(false)) {
            DEFERRED.with(|c| c.set(true));
            PENDING.with(|c| c.set(true));
            return Ok(());
        }
        self.finish(stream, event)
    }
}

/// The device when the GPU was asked for but cannot be used: every operation fails with
/// cudaErrorNoDevice, after one message on stderr saying why.
pub struct UnavailableGpu {
    pub why: String,
}

impl Device for UnavailableGpu {
    fn compute_capability(&self) -> (i32, i32) {
        (9, 0)
    }
    fn multiprocessor_count(&self) -> i32 {
        0
    }
    fn total_memory(&self) -> usize {
        0
    }
    fn free_memory(&self) -> usize {
        0
    }
    fn alloc(&self, _: usize, _: Kind) -> Result<*mut c_void> {
        Err(NO_DEVICE)
    }
    fn free(&self, _: *mut c_void, _: &dyn Fn(Kind) -> bool) -> Result<()> {
        Err(NO_DEVICE)
    }
    fn release_all(&self) {}
    fn copy(&self, _: *mut c_void, _: *const c_void, _: usize) -> Result<()> {
        Err(NO_DEVICE)
    }
    fn memset(&self, _: *mut c_void, _: i32, _: usize) -> Result<()> {
        Err(NO_DEVICE)
    }
    fn execute(&self, _: &PreparedLaunch) -> Result<()> {
        Err(NO_DEVICE)
    }
}

/// The device `CUPRITE_DEVICE=gpu` selects: the GPU, or, when it cannot be opened, a
/// device that fails every operation (the reason printed once).
pub fn open_selected() -> &'static dyn Device {
    match GpuDevice::open() {
        Ok(d) => {
            let d: &'static GpuDevice = Box::leak(Box::new(d));
            let _ = ACTIVE.set(d);
            d
        }
        Err(why) => {
            eprintln!("cuprite: CUPRITE_DEVICE=gpu, but the GPU device cannot be used: {why}");
            Box::leak(Box::new(UnavailableGpu { why }))
        }
    }
}

/// Copies bytes the runtime addresses directly on the CPU device (CUDA arrays, graph
/// memset nodes): through the driver when the GPU device holds device memory.
///
/// # Safety
/// Both ranges must be valid for `n` bytes on the device that holds them.
pub unsafe fn copy_any(dst: *mut u8, src: *const u8, n: usize) -> Result<()> {
    match active() {
        Some(g) => g.copy(dst as *mut c_void, src as *const c_void, n),
        None => {
            std::ptr::copy(src, dst, n);
            Ok(())
        }
    }
}

/// Stores a texture or surface reference's object handle in its device cell (GPU memory
/// on the GPU device).
///
/// # Safety
/// `cell` must be a live device variable of 8 bytes.
pub unsafe fn write_cell(cell: *mut u64, value: u64) -> Result<()> {
    copy_any(cell as *mut u8, &value as *const u64 as *const u8, 8)
}
