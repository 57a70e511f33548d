//! initcheck: a shadow byte per byte of each `cudaMalloc` allocation, set by copies,
//! memsets and kernel writes; a kernel read of a byte never set is reported. Managed,
//! page-locked and registered memory is written by the host directly, where nothing
//! can see it: it counts as initialised, as do device variables. An allocation whose
//! every byte is set stays so until freed: the checker then lets the inlined fast path
//! take later accesses to it (`mod.rs`).

use super::memcheck::Space;
use super::report::line;
use super::{Access, Thread};
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, OnceLock};

/// Which bytes of an allocation were set, and how many are not.
struct Shadow {
    set: Vec<bool>,
    unset: usize,
}

fn shadows() -> MutexGuard<'static, BTreeMap<usize, Shadow>> {
    static S: OnceLock<Mutex<BTreeMap<usize, Shadow>>> = OnceLock::new();
    S.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

pub fn alloc(base: usize, size: usize, device: bool) {
    if device {
        shadows().insert(base, Shadow { set: vec![false; size], unset: size });
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
        if let Some(sh) = s.get_mut(&base) {
            let lo = addr.max(base);
            let hi = end.min(base + sh.set.len());
            if lo < hi && sh.unset > 0 {
                let bytes = &mut sh.set[lo - base..hi - base];
                sh.unset -= bytes.iter().filter(|b| !**b).count();
                bytes.fill(true);
            }
        }
    }
}

/// Whether the allocation at `base` has no byte left unset (or is not shadowed).
fn complete(base: usize) -> bool {
    shadows().get(&base).is_none_or(|sh| sh.unset == 0)
}

/// Checks an access; whether later accesses to its allocation have nothing to find
/// (the allocation is not shadowed, or every byte of it is set).
pub fn access(addr: usize, len: usize, kind: Access, space: &Space, at: &Thread) -> bool {
    let Space::Global { base, kind: Some(crate::memory::Kind::Device), .. } = *space else {
        return true;
    };
    match kind {
        Access::Write | Access::Atomic => written(addr, len),
        Access::Read => {
            let uninit = {
                let s = shadows();
                match s.range(..=addr).next_back() {
                    Some((&base, sh)) if addr < base + sh.set.len() => {
                        let stop = (addr + len).min(base + sh.set.len());
                        sh.set[addr - base..stop - base].iter().any(|b| !b)
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
    complete(base)
}
