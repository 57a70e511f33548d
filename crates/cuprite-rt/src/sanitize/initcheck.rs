//! initcheck: a shadow byte per byte of each `cudaMalloc` allocation, set by copies,
//! memsets and kernel writes; a kernel read of a byte never set is reported. Managed,
//! page-locked and registered memory is written by the host directly, where nothing
//! can see it: it counts as initialised, as do device variables. An allocation whose
//! every byte is set stays so until freed: the checker then lets the inlined fast path
//! take later accesses to it (`mod.rs`). One with bytes still unset is a shadow window
//! instead (`cuprite_abi.h`'s `__cuprite_san_fast_init`): checked code marks the bytes
//! it writes and checks those it reads in the shadow itself, calling only for a read of a
//! byte not set (to report it). Those marks do not count down `unset`, so such an
//! allocation stays a shadow window until freed.

use super::memcheck::Space;
use super::report::line;
use super::{Access, Thread};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// Which bytes of an allocation were set (1), and how many the runtime saw unset (an
/// upper bound: checked code sets bytes without counting). Atomic bytes: checked code on
/// several workers marks them at once; the boxed slice stays put until `free`, which
/// bumps the epoch so no window outlives it.
struct Shadow {
    set: Box<[AtomicU8]>,
    unset: usize,
}

fn shadows() -> MutexGuard<'static, BTreeMap<usize, Shadow>> {
    static S: OnceLock<Mutex<BTreeMap<usize, Shadow>>> = OnceLock::new();
    S.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

pub fn alloc(base: usize, size: usize, device: bool) {
    if device {
        shadows().insert(base, Shadow { set: zeroed(size), unset: size });
    }
}

/// `n` zero bytes from the allocator's zeroed memory (untouched pages stay unmapped, as
/// `vec![false; n]` left them before the shadow became atomic).
fn zeroed(n: usize) -> Box<[AtomicU8]> {
    let bytes = Box::into_raw(vec![0u8; n].into_boxed_slice());
    // SAFETY: AtomicU8 has the size, alignment and bit validity of u8.
    unsafe { Box::from_raw(bytes as *mut [AtomicU8]) }
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
                let bytes = &sh.set[lo - base..hi - base];
                sh.unset = sh.unset.saturating_sub(bytes.iter().filter(|b| b.swap(1, Relaxed) == 0).count());
            }
        }
    }
}

/// The shadow window of the allocation at `base` (`[base, base + size)` and the address
/// of its shadow bytes), where it has one.
pub fn shadow_window(base: usize) -> Option<(usize, usize, usize)> {
    shadows().get(&base).map(|sh| (base, base + sh.set.len(), sh.set.as_ptr() as usize))
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
                        sh.set[addr - base..stop - base].iter().any(|b| b.load(Relaxed) == 0)
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
