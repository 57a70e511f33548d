//! The runtime's state for the (one) device: the device itself, the sticky error, limits
//! and settings. Initialised on first use. Streams live in `stream.rs`.

use crate::device::{cpu::CpuDevice, Device};
use crate::error::{self, CudaError, Result};
use crate::props::{self, PropBuf};
use crate::stream::Op;
use std::sync::atomic::{AtomicI32, AtomicU32, AtomicUsize, Ordering};
use std::sync::OnceLock;

pub const DEFAULT_STACK_LIMIT: usize = 1024;

pub struct Context {
    pub device: &'static dyn Device,
    sticky: AtomicI32,
    pub stack_limit: AtomicUsize,
    pub device_flags: AtomicU32,
    pub cache_config: AtomicI32,
    pub shmem_config: AtomicI32,
    props: OnceLock<PropBuf>,
}

static TARGET_ARCH: AtomicI32 = AtomicI32::new(0);

/// Called by generated code (optionally) before first use: the `-arch` it was built for.
pub fn set_target_arch(sm: u32) {
    TARGET_ARCH.store(sm as i32, Ordering::Relaxed);
}

pub(crate) fn selected_arch() -> (i32, i32) {
    if let Ok(s) = std::env::var("CUPRITE_ARCH") {
        if let Some(a) = props::parse_arch(&s) {
            return a;
        }
    }
    let t = TARGET_ARCH.load(Ordering::Relaxed);
    if t >= 10 {
        return (t / 10, t % 10);
    }
    (9, 0)
}

pub fn ctx() -> &'static Context {
    static C: OnceLock<Context> = OnceLock::new();
    C.get_or_init(|| {
        unsafe {
            crate::abi::cuprite_guard_install();
            crate::abi::cuprite_register_atexit();
        }
        let (major, minor) = selected_arch();
        let device: &'static dyn Device = if crate::gpu::selected() { crate::gpu::open_selected() } else { Box::leak(Box::new(CpuDevice::new(major, minor))) };
        Context {
            device,
            sticky: AtomicI32::new(0),
            stack_limit: AtomicUsize::new(DEFAULT_STACK_LIMIT),
            device_flags: AtomicU32::new(0x8),
            cache_config: AtomicI32::new(0),
            shmem_config: AtomicI32::new(0),
            props: OnceLock::new(),
        }
    })
}

impl Context {
    /// CUDA_LAUNCH_BLOCKING=1: launches return when the work is done. Read at the first
    /// launch (a program may set it before its first CUDA call, as CUDA reads it late).
    pub fn launch_blocking(&self) -> bool {
        static B: OnceLock<bool> = OnceLock::new();
        *B.get_or_init(|| std::env::var("CUDA_LAUNCH_BLOCKING").map(|v| v == "1").unwrap_or(false))
    }

    /// The sticky error, if a kernel faulted.
    pub fn check(&self) -> Result<()> {
        match self.sticky.load(Ordering::Acquire) {
            0 => Ok(()),
            e => Err(e),
        }
    }

    pub fn set_sticky(&self, e: CudaError) {
        let _ = self.sticky.compare_exchange(0, e, Ordering::AcqRel, Ordering::Acquire);
    }

    pub fn clear_sticky(&self) {
        self.sticky.store(0, Ordering::Release);
    }

    pub fn props(&self) -> &PropBuf {
        props::cached(&self.props, || {
            props::device_info(
                0,
                self.device.compute_capability(),
                self.device.multiprocessor_count(),
                self.device.total_memory(),
            )
        })
    }

    /// Waits for all work, flushes device printf, returns the sticky error if any.
    /// Waits for the current device's work (cudaDeviceSynchronize, cuCtxSynchronize).
    pub fn synchronize(&self) -> Result<()> {
        crate::stream::wait_device_streams(crate::devices::current());
        crate::printf::flush();
        crate::mempool::release_to_thresholds();
        self.check()
    }
}

/// Runs one operation of a stream (on the stream's thread).
pub fn execute_op(op: Op) {
    let c = ctx();
    match op {
        Op::Launch(l) => {
            if c.check().is_ok() {
                if let Err(e) = c.device.execute(&l) {
                    c.set_sticky(e);
                }
            }
        }
        Op::Copy { dst, src, n } => {
            if c.check().is_ok() {
                if let Err(e) = c.device.copy(dst.0, src.0, n) {
                    c.set_sticky(e);
                }
            }
        }
        Op::Copy2D { dst, dpitch, src, spitch, width, height } => {
            if c.check().is_ok() {
                for row in 0..height {
                    let d = unsafe { (dst.0 as *mut u8).add(row * dpitch) };
                    let s = unsafe { (src.0 as *const u8).add(row * spitch) };
                    if let Err(e) = c.device.copy(d as _, s as _, width) {
                        c.set_sticky(e);
                        break;
                    }
                }
            }
        }
        Op::Set { dst, value, n } => {
            if c.check().is_ok() {
                if let Err(e) = c.device.memset(dst.0, value, n) {
                    c.set_sticky(e);
                }
            }
        }
        Op::Set2D { dst, pitch, value, width, height } => {
            if c.check().is_ok() {
                for row in 0..height {
                    let d = unsafe { (dst.0 as *mut u8).add(row * pitch) };
                    if let Err(e) = c.device.memset(d as _, value, width) {
                        c.set_sticky(e);
                        break;
                    }
                }
            }
        }
        Op::SetElems { dst, pitch, value, elem, width, height } => {
            if c.check().is_ok() {
                crate::graph::exec::set_elements(dst.0, pitch, value, elem, width, height);
            }
        }
        Op::RecordEvent(ev, seq) => {
            crate::gpu::timing::on_record(&ev);
            ev.fire(seq)
        }
        Op::WaitEvent(ev, gen) => ev.wait_for(gen),
        Op::WaitQueue(q, seq) => q.wait(seq),
        Op::Host(f) => {
            crate::printf::flush();
            f()
        }
        Op::HostFn { f, data } => {
            crate::printf::flush();
            unsafe { f(data.0) }
        }
        Op::Graph(g) => crate::graph::exec::run(&g),
        Op::Free(p) => crate::mempool::free_now(p.0),
    }
}

/// At program exit: CUDA loses device printf output that no synchronisation flushed.
#[no_mangle]
pub extern "C" fn cuprite_rt_at_exit() {
    error::guard((), crate::printf::discard);
}
