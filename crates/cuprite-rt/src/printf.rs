//! Device printf: the buffer lives in C (csrc/guard.c, written to the C library's stdout);
//! this module decides when it is flushed (CUDA's flush points).

use crate::abi;

/// Writes buffered device output to stdout (a host synchronisation point).
pub fn flush() {
    if let Some(g) = crate::gpu::active() {
        g.flush_printf();
    }
    unsafe { abi::cuprite_printf_flush() }
}

/// Drops buffered output (program exit without synchronisation loses it, as with CUDA).
pub fn discard() {
    unsafe { abi::cuprite_printf_discard() }
}

pub fn limit() -> usize {
    unsafe { abi::cuprite_printf_get_limit() }
}

pub fn set_limit(n: usize) {
    unsafe { abi::cuprite_printf_set_limit(n) }
}
