//! The `cuprite` compiler driver as a library: what the `cuprite` binary (nvcc's
//! command line, `src/main.rs`) and run-time compilation (`cuprite-nvrtc`) share.

pub mod build_cache;
pub mod checked_rebuild;
pub mod cli;
pub mod device_pass;
pub mod diagnostics;
pub mod host_rewrite;
pub mod ice;
pub mod install;
pub mod module_image;
pub mod parallel;
pub mod pipeline;
pub mod ptx_embed;
pub mod ptx_math;
pub mod rdc;
pub mod resources;
pub mod support_files;
pub mod toolchain;
pub mod toolkit;

/// nvcc 13's default target (compute capability 7.5).
pub const DEFAULT_ARCH: u32 = 75;
