//! Errors a kernel reports itself on the GPU device: an access through an unbound texture
//! or surface reference ends the launch with cudaErrorInvalidTexture or
//! cudaErrorInvalidSurface and a message, as on the CPU device.
//!
//! Modules whose code fetches from textures or accesses surfaces declare
//! `__cuprite_fault_cell` (the PTX back-end's `emit/texture.rs`); when the device loads
//! such a module it points the cell at one page-locked host word mapped into the GPU's
//! address space. A kernel that finds an unbound reference stores the error code there
//! and exits; when a launch completes, the device reads the word (a plain host read, no
//! driver call), clears it, and returns the code as the launch's error.

use super::driver::*;
use super::GpuDevice;
use std::cell::RefCell;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The host word (its host address) and its device address.
static WORD: OnceLock<(usize, u64)> = OnceLock::new();

thread_local! {
    /// The kernel this thread launched last, for the message.
    pub static LAST_KERNEL: RefCell<String> = const { RefCell::new(String::new()) };
}

const MSG_UNBOUND_TEXREF: &str = "texture fetch through a texture reference that is not bound (cudaBindTexture*)";
const MSG_UNBOUND_SURFREF: &str = "surface access through a surface reference that is not bound (cudaBindSurfaceToArray)";

impl GpuDevice {
    /// Points `module`'s fault cell, if it has one, at the host word (made on first use).
    pub(crate) unsafe fn attach_fault_cell(&self, module: CUmodule) -> Result<(), String> {
        let (mut cell, mut size) = (0u64, 0usize);
        if (self.drv.module_get_global)(&mut cell, &mut size, module, c"__cuprite_fault_cell".as_ptr()) != 0 || size != 8 {
            return Ok(());
        }
        let word = match WORD.get() {
            Some(w) => *w,
            None => {
                let mut host: *mut c_void = std::ptr::null_mut();
                super::check(&self.drv, "cuMemHostAlloc (fault word)", (self.drv.mem_host_alloc)(&mut host, 4, HOST_ALLOC_MAPPED))?;
                (host as *mut u32).write_volatile(0);
                let mut dev: CUdeviceptr = 0;
                super::check(&self.drv, "cuMemHostGetDevicePointer (fault word)", (self.drv.mem_host_get_device_pointer)(&mut dev, host, 0))?;
                *WORD.get_or_init(|| (host as usize, dev))
            }
        };
        let (s, _) = self.lane().map_err(|e| format!("cannot create a driver stream: error {e}"))?;
        super::check(&self.drv, "cuMemcpyAsync (fault cell)", (self.drv.memcpy_async)(cell, &word.1 as *const u64 as CUdeviceptr, 8, s))?;
        super::check(&self.drv, "cuStreamSynchronize", (self.drv.stream_synchronize)(s))
    }
}

/// After a launch completed: the error a kernel reported, if any (cleared), with its
/// message printed as the CPU device prints a kernel's fault.
pub fn take() -> Option<crate::error::CudaError> {
    let (host, _) = *WORD.get()?;
    let word = unsafe { &*(host as *const AtomicU32) };
    let code = word.swap(0, Ordering::AcqRel);
    if code == 0 {
        return None;
    }
    let what = match code {
        18 => MSG_UNBOUND_TEXREF,
        37 => MSG_UNBOUND_SURFREF,
        _ => "the kernel reported an error",
    };
    LAST_KERNEL.with(|k| eprintln!("cuprite: kernel '{}' faulted: {what}", k.borrow()));
    Some(code as crate::error::CudaError)
}
