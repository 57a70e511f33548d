//! initcheck: a shadow byte per byte of each `cudaMalloc` allocation, set by copies,
//! memsets and kernel writes; a kernel read of a byte never set is reported. Managed,
//! page-locked and registered memory is written by the host directly, where nothing
//! can see it: it counts as initialised, as do device variables.

use super::memcheck::Space;
use super::report::line;
use super::{Access, Thread};
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, OnceLock};

fn shadows() -> MutexGuard<'static, BTreeMap<usize, Vec<bool>>> {
    static S: OnceLock<Mutex<BTreeMap<usize, Vec<bool>>>> = OnceLock::new();
    S.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

pub fn alloc(base: usize, size: usize, device: bool) {
    if device {
        shadows().insert(base, vec![false; size]);
    }
}

pub fn free(base: usize) {
    shadows().remove(&base);
}

/// Marks `[addr, addr + n)` written, where it lies in a shadowed allocation.
pub fn written(addr: usize, n: usize) {
    let mut s = shadows();
    let end = addr + n;
    // The shadowed allocations that overlap [addr, end).
    let first = s.range(..=addr).next_back().map(|(&b, _)| b).unwrap_or(addr);
    let bases: Vec<usize> = s.range(first..end).map(|(&b, _)| b).collect();
    for base in bases {
        if let Some(bytes) = s.get_mut(&base) {
            let lo = addr.max(base);
            let hi = end.min(base + bytes.len());
            if lo < hi {
                bytes[lo - base..hi - base].fill(true);
            }
        }
    }
}

pub fn access(addr: usize, len: usize, kind: Access, space: &Space, at: &Thread) {
    if !matches!(space, Space::Global { kind: Some(crate::memory::Kind::Device), .. }) {
        return;
    }
    match kind {
        Access::Write | Access::Atomic => written(addr, len),
        Access::Read => {
            let uninit = {
                let s = shadows();
                match s.range(..=addr).next_back() {
                    Some((&base, bytes)) if addr < base + bytes.len() => {
                        let stop = (addr + len).min(base + bytes.len());
                        bytes[addr - base..stop - base].iter().any(|b| !b)
                    }
                    _ => false,
                }
            };
            if uninit && super::count_error() {
                line(&format!("Uninitialized __global__ memory read of size {len} bytes"));
                line(&format!("    at {} in {}", at.site.function(), at.site.place()));
                line(&format!("    {}", at.coords()));
                line(&format!("    Address {addr:#x}"));
                line("");
            }
        }
    }
}
