//! The CPU device: kernels run natively on the worker pool.

use super::Device;
use crate::abi::{self, Dim3, Launch};
use crate::error::{self, Result};
use crate::launch::PreparedLaunch;
use crate::memory::{self, Kind};
use crate::workers::{self, Fault, Job};
use std::ffi::c_void;
use std::sync::Arc;

pub struct CpuDevice {
    pub major: i32,
    pub minor: i32,
}

impl CpuDevice {
    pub fn new(major: i32, minor: i32) -> Self {
        CpuDevice { major, minor }
    }
}

fn thread_coords(linear: u32, block: Dim3) -> Dim3 {
    let bx = block.x.max(1);
    let by = block.y.max(1);
    Dim3 { x: linear % bx, y: (linear / bx) % by, z: linear / (bx * by) }
}

/// The one line on stderr that names the kernel and where it faulted.
pub fn describe_fault(kernel: &str, block_dim: Dim3, f: &Fault) -> String {
    let mut s = format!("cuprite: kernel '{kernel}' faulted");
    if let Some(b) = f.block {
        s += &format!(" in block ({},{},{})", b.x, b.y, b.z);
        if let Some(t) = f.thread_linear {
            let t = thread_coords(t, block_dim);
            s += &format!(" thread ({},{},{})", t.x, t.y, t.z);
        }
    }
    let what = match f.info.kind {
        abi::FAULT_SIGNAL => match f.info.signo {
            libc::SIGSEGV | libc::SIGBUS => {
                format!("illegal memory access (address {:#x})", f.info.address)
            }
            libc::SIGILL => "illegal instruction".to_string(),
            libc::SIGFPE => "arithmetic exception".to_string(),
            other => format!("signal {other}"),
        },
        abi::FAULT_TRAP => "trap".to_string(),
        abi::FAULT_ASSERT => "device-side assert triggered".to_string(),
        _ => f.message.clone().unwrap_or_else(|| error::message(f.cuda_error).to_string()),
    };
    s + ": " + &what
}

impl Device for CpuDevice {
    fn compute_capability(&self) -> (i32, i32) {
        (self.major, self.minor)
    }
    fn multiprocessor_count(&self) -> i32 {
        workers::pool().workers as i32
    }
    fn total_memory(&self) -> usize {
        memory::total_memory()
    }
    fn free_memory(&self) -> usize {
        memory::free_memory()
    }
    fn alloc(&self, size: usize, kind: Kind) -> Result<*mut c_void> {
        memory::alloc(size, kind)
    }
    fn free(&self, ptr: *mut c_void, accept: &dyn Fn(Kind) -> bool) -> Result<()> {
        memory::free(ptr, accept)
    }
    fn release_all(&self) {
        memory::release_device_allocations();
    }
    fn copy(&self, dst: *mut c_void, src: *const c_void, n: usize) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let t0 = std::time::Instant::now();
        match unsafe { abi::cuprite_guarded_memcpy(dst, src, n) } {
            0 => {
                crate::profile::transfer("memcpy", n, t0);
                crate::sanitize::note_host_write(dst as usize, n);
                Ok(())
            }
            e => Err(e),
        }
    }
    fn memset(&self, dst: *mut c_void, value: i32, n: usize) -> Result<()> {
        if n == 0 {
            return Ok(());
        }
        let t0 = std::time::Instant::now();
        match unsafe { abi::cuprite_guarded_memset(dst, value, n) } {
            0 => {
                crate::profile::transfer("memset", n, t0);
                crate::sanitize::note_host_write(dst as usize, n);
                Ok(())
            }
            e => Err(e),
        }
    }
    fn execute(&self, l: &PreparedLaunch) -> Result<()> {
        let entry = l.kernel.entry.ok_or(error::INVALID_DEVICE_FUNCTION)?;
        let launch = Launch {
            grid_dim: l.grid,
            block_dim: l.block,
            args: l.arg_ptrs(),
            dynamic_shared_bytes: l.dynamic_shared,
            cooperative: l.cooperative as u32,
        };
        let shared = abi::dynamic_shared_offset(l.kernel.static_shared_bytes) as usize + l.dynamic_shared;
        let slots = (l.kernel.slot_bytes_per_thread as usize).saturating_mul(l.block.count() as usize);
        let pool = workers::pool();
        let mut job = if l.cooperative {
            Job::new_cooperative(entry, launch, shared, slots, pool.workers).ok_or(error::MEMORY_ALLOCATION)?
        } else {
            Job::new(entry, launch, shared, slots, pool.workers)
        };
        job.check_id = crate::sanitize::launch_begin();
        let profiled = crate::profile::launch_begin();
        let job = Arc::new(job);
        pool.run(job.clone());
        crate::profile::launch_end(profiled, l, job.check_id);
        let checked = crate::sanitize::launch_end(job.check_id);
        match job.take_fault() {
            None => checked.map_or(Ok(()), Err),
            Some(f) => {
                if f.info.kind != abi::FAULT_ASSERT {
                    eprintln!("{}", describe_fault(&l.kernel.name, l.block, &f));
                }
                Err(f.cuda_error)
            }
        }
    }
}
