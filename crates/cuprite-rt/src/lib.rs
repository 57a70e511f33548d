//! The CUDA runtime API on the CPU device.
