//! The CUDA runtime API on the CPU device (C ABI, linked statically into every program
//! Cuprite builds).
//!
//! Layout: `api/` holds the thin `extern "C"` functions; they call into `context` (the
//! device's state), `memory`, `stream`, `event`, `launch`, `registry`, `printf`, `props`;
//! `device/` is the device abstraction (the CPU device runs kernels on `workers`).
//! `csrc/guard.c` holds what must be C: fault containment (sigsetjmp/siglongjmp around
//! device code), device printf formatting and the device-side error exits.

pub mod abi;
pub mod api;
pub mod checked_override;
pub mod context;
pub mod device;
pub mod devices;
pub mod driver;
pub mod error;
pub mod event;
pub mod gpu;
pub mod graph;
pub mod ipc;
pub mod launch;
pub mod memory;
pub mod mempool;
pub mod mempool_ipc;
pub mod printf;
pub mod profile;
pub mod props;
pub mod queue;
pub mod registry;
pub mod sanitize;
pub mod stream;
pub mod texture;
pub mod workers;

/// Marks this library as Cuprite's runtime. Cuprite's toolkit ships the runtime as
/// `libcuda.so` too; the GPU device refuses a driver library that carries this symbol,
/// so it never mistakes Cuprite for NVIDIA's driver.
#[no_mangle]
#[used]
pub static __cuprite_runtime_marker: u8 = 1;
