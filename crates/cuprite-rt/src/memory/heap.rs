//! The device heap: `malloc`/`free` in device code, bounded by cudaLimitMallocHeapSize.

use std::ffi::c_void;
use std::sync::{Mutex, OnceLock};

pub const DEFAULT_HEAP_LIMIT: usize = 8 * 1024 * 1024;

struct Heap {
    used: usize,
    limit: usize,
    blocks: std::collections::BTreeMap<usize, usize>,
}

fn heap() -> std::sync::MutexGuard<'static, Heap> {
    static H: OnceLock<Mutex<Heap>> = OnceLock::new();
    H.get_or_init(|| Mutex::new(Heap { used: 0, limit: DEFAULT_HEAP_LIMIT, blocks: Default::default() }))
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

pub fn heap_limit() -> usize {
    heap().limit
}

pub fn set_heap_limit(limit: usize) {
    heap().limit = limit;
}

pub fn device_malloc(size: usize) -> *mut c_void {
    let mut h = heap();
    let rounded = (size.max(1) + 15) & !15;
    if h.used + rounded > h.limit {
        return std::ptr::null_mut();
    }
    let mut p: *mut c_void = std::ptr::null_mut();
    if unsafe { libc::posix_memalign(&mut p, 16, rounded) } != 0 || p.is_null() {
        return std::ptr::null_mut();
    }
    h.used += rounded;
    h.blocks.insert(p as usize, rounded);
    p
}

pub fn device_free(p: *mut c_void) {
    if p.is_null() {
        return;
    }
    let mut h = heap();
    if let Some(sz) = h.blocks.remove(&(p as usize)) {
        h.used -= sz;
        unsafe { libc::free(p) };
    }
}

/// The device-heap block containing `addr`: (base, size rounded to 16), for checking mode.
pub fn heap_block_containing(addr: usize) -> Option<(usize, usize)> {
    let h = heap();
    let (&base, &size) = h.blocks.range(..=addr).next_back()?;
    (addr < base + size).then_some((base, size))
}
