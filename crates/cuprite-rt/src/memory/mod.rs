//! Memory of the CPU device: device memory is host memory, device pointers are host
//! addresses. Device and managed allocations come from the chunk pool (`pool`: 2 MiB
//! chunks, as the GPU maps them); page-locked host memory from the C library or mmap.
//! Every allocation is tracked, so that bad frees are detected, cudaMemcpyDefault and
//! cudaPointerGetAttributes know what a pointer is, and cudaMemGetInfo is believable.
//! `heap` is the device heap (`malloc` in device code).

mod heap;
mod pool;

/// The pool's chunk size (`ipc.rs` shares memory in whole chunks).
pub use pool::CHUNK;

pub use heap::{device_free, device_malloc, heap_block_containing, heap_limit, set_heap_limit, DEFAULT_HEAP_LIMIT};
pub use pool::ALIGN;

use crate::error::{self, CudaError};
use pool::Pool;
use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::{Mutex, OnceLock};

/// Page-locked host allocations this large are mapped rather than taken from malloc.
const HOST_MMAP_THRESHOLD: usize = 256 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// cudaMalloc / cudaMallocPitch / cudaMalloc3D.
    Device,
    /// cudaMallocManaged.
    Managed,
    /// cudaMallocHost / cudaHostAlloc (flags).
    PinnedHost(u32),
    /// cudaHostRegister (flags): not owned.
    Registered(u32),
}

impl Kind {
    /// Device memory: from the chunk pool, counted by cudaMemGetInfo, freed by reset.
    fn is_device(self) -> bool {
        matches!(self, Kind::Device | Kind::Managed)
    }
}

/// Where an allocation's bytes come from, which says how to give them back.
#[derive(Clone, Copy, Debug)]
enum Backing {
    Pool,
    HostHeap,
    HostMap,
    /// Registered memory belongs to the program.
    None,
    /// Memory another allocator owns (the GPU device's driver): tracked, never released here.
    Foreign,
}

#[derive(Clone, Copy, Debug)]
pub struct Alloc {
    pub base: usize,
    pub size: usize,
    /// Bytes actually reserved (size rounded up; at least 1).
    reserved: usize,
    backing: Backing,
    pub kind: Kind,
    /// The device current when it was allocated (what cudaPointerGetAttributes reports).
    pub device: std::ffi::c_int,
}

#[derive(Default)]
struct Tracker {
    allocs: BTreeMap<usize, Alloc>,
    pool: Pool,
    /// Bytes of live device allocations, as reserved (cudaMemGetInfo).
    device_bytes: usize,
}

/// Bumped whenever an allocation goes away, so that checking mode's per-thread cache of
/// the last allocation it found knows when it may be stale.
static GENERATION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

pub fn generation() -> u64 {
    GENERATION.load(std::sync::atomic::Ordering::Acquire)
}

fn bump_generation() {
    GENERATION.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
}

fn tracker() -> std::sync::MutexGuard<'static, Tracker> {
    static T: OnceLock<Mutex<Tracker>> = OnceLock::new();
    T.get_or_init(|| Mutex::new(Tracker::default())).lock().unwrap_or_else(|p| p.into_inner())
}

/// Total memory the CPU device reports: the machine's physical memory.
pub fn total_memory() -> usize {
    static TOTAL: OnceLock<usize> = OnceLock::new();
    *TOTAL.get_or_init(|| unsafe {
        let pages = libc::sysconf(libc::_SC_PHYS_PAGES);
        let size = libc::sysconf(libc::_SC_PAGESIZE);
        if pages > 0 && size > 0 {
            pages as usize * size as usize
        } else {
            16usize << 30
        }
    })
}

pub fn free_memory() -> usize {
    let avail = unsafe {
        let pages = libc::sysconf(libc::_SC_AVPHYS_PAGES);
        let size = libc::sysconf(libc::_SC_PAGESIZE);
        if pages > 0 && size > 0 { pages as usize * size as usize } else { 0 }
    };
    let used = tracker().device_bytes;
    let by_tracking = total_memory().saturating_sub(used);
    if avail > 0 { avail.min(by_tracking) } else { by_tracking }
}

/// Page-locked host memory: (base, reserved, backing).
fn host_alloc(size: usize) -> Option<(usize, usize, Backing)> {
    let reserved = size.max(1).checked_add(ALIGN - 1)? & !(ALIGN - 1);
    if reserved >= HOST_MMAP_THRESHOLD {
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                reserved,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return None;
        }
        Some((p as usize, reserved, Backing::HostMap))
    } else {
        let mut p: *mut c_void = std::ptr::null_mut();
        let rc = unsafe { libc::posix_memalign(&mut p, ALIGN, reserved) };
        if rc != 0 || p.is_null() {
            return None;
        }
        Some((p as usize, reserved, Backing::HostHeap))
    }
}

/// Gives an allocation's bytes back (the tracker's lock held: the pool is in it).
fn release(pool: &mut Pool, a: &Alloc) {
    match a.backing {
        Backing::Pool => pool.free(a.base, a.size),
        Backing::HostHeap => unsafe { libc::free(a.base as *mut c_void) },
        Backing::HostMap => unsafe {
            libc::munmap(a.base as *mut c_void, a.reserved);
        },
        Backing::None | Backing::Foreign => {}
    }
}

/// Records memory another allocator (the GPU device's driver) owns, so that copies,
/// frees and pointer queries know it as they know the pool's.
pub fn track_foreign(base: usize, size: usize, kind: Kind) {
    let mut t = tracker();
    t.allocs.insert(base, Alloc { base, size, reserved: size, backing: Backing::Foreign, kind, device: crate::devices::current() });
    if kind.is_device() {
        t.device_bytes += size;
    }
}

/// Forgets a foreign allocation that starts at `ptr` and whose kind `accept` takes;
/// cudaErrorInvalidValue otherwise (a bad free, as for the pool's memory).
pub fn untrack_foreign(ptr: *mut c_void, accept: &dyn Fn(Kind) -> bool) -> error::Result<Alloc> {
    let mut t = tracker();
    match t.allocs.get(&(ptr as usize)) {
        Some(a) if accept(a.kind) && matches!(a.backing, Backing::Foreign) => {
            let a = *a;
            t.allocs.remove(&a.base);
            if a.kind.is_device() {
                t.device_bytes -= a.size;
            }
            Ok(a)
        }
        _ => Err(error::INVALID_VALUE),
    }
}

/// Allocates `size` bytes of the given kind. Size 0 gives a null pointer, as CUDA does.
pub fn alloc(size: usize, kind: Kind) -> error::Result<*mut c_void> {
    if size == 0 {
        return Ok(std::ptr::null_mut());
    }
    if size > total_memory() {
        return Err(error::MEMORY_ALLOCATION);
    }
    let mut t = tracker();
    let (base, reserved, backing) = if kind.is_device() {
        let reserved = pool::footprint(size).ok_or(error::MEMORY_ALLOCATION)?;
        (t.pool.alloc(size).ok_or(error::MEMORY_ALLOCATION)?, reserved, Backing::Pool)
    } else {
        host_alloc(size).ok_or(error::MEMORY_ALLOCATION)?
    };
    t.allocs.insert(base, Alloc { base, size, reserved, backing, kind, device: crate::devices::current() });
    if kind.is_device() {
        t.device_bytes += reserved;
    }
    drop(t);
    crate::sanitize::note_alloc(base, size, kind == Kind::Device);
    Ok(base as *mut c_void)
}

/// Frees an allocation whose kind satisfies `accept`; a pointer that is not the start of
/// such an allocation gives cudaErrorInvalidValue.
pub fn free(ptr: *mut c_void, accept: impl Fn(Kind) -> bool) -> error::Result<()> {
    if ptr.is_null() {
        return Ok(());
    }
    let mut t = tracker();
    let a = match t.allocs.get(&(ptr as usize)) {
        Some(a) if accept(a.kind) && !matches!(a.backing, Backing::None) => *a,
        _ => return Err(error::INVALID_VALUE),
    };
    t.allocs.remove(&a.base);
    bump_generation();
    if a.kind.is_device() {
        t.device_bytes -= a.reserved;
    }
    release(&mut t.pool, &a);
    drop(t);
    crate::sanitize::note_free(a.base);
    Ok(())
}

/// Records host memory registered with cudaHostRegister.
pub fn register(ptr: *mut c_void, size: usize, flags: u32) -> error::Result<()> {
    if ptr.is_null() || size == 0 {
        return Err(error::INVALID_VALUE);
    }
    let mut t = tracker();
    let base = ptr as usize;
    if lookup_in(&t, base, size).is_some() {
        return Err(error::HOST_MEMORY_ALREADY_REGISTERED);
    }
    t.allocs.insert(base, Alloc { base, size, reserved: size, backing: Backing::None, kind: Kind::Registered(flags), device: crate::devices::current() });
    Ok(())
}

pub fn unregister(ptr: *mut c_void) -> error::Result<()> {
    let mut t = tracker();
    match t.allocs.get(&(ptr as usize)) {
        Some(a) if matches!(a.kind, Kind::Registered(_)) => {
            t.allocs.remove(&(ptr as usize));
            bump_generation();
            Ok(())
        }
        _ => Err(error::HOST_MEMORY_NOT_REGISTERED),
    }
}

fn lookup_in(t: &Tracker, addr: usize, len: usize) -> Option<Alloc> {
    let (_, a) = t.allocs.range(..=addr).next_back()?;
    let end = a.base + a.size;
    if addr < end && addr.checked_add(len)? <= end {
        Some(*a)
    } else {
        None
    }
}

/// The tracked allocation containing `addr` (any kind).
pub fn lookup(addr: *const c_void) -> Option<Alloc> {
    let t = tracker();
    let addr = addr as usize;
    let (_, a) = t.allocs.range(..=addr).next_back()?;
    if addr < a.base + a.size.max(1) {
        Some(*a)
    } else {
        None
    }
}

/// The tracked allocations just below and just above `addr` (checking mode's "nearest
/// allocation").
pub fn neighbours(addr: usize) -> (Option<Alloc>, Option<Alloc>) {
    let t = tracker();
    let below = t.allocs.range(..=addr).next_back().map(|(_, a)| *a);
    let above = t.allocs.range(addr + 1..).next().map(|(_, a)| *a);
    (below, above)
}

/// Every live allocation, by address (checking mode's leak report).
pub fn live_allocations() -> Vec<Alloc> {
    tracker().allocs.values().copied().collect()
}

/// Whether [addr, addr+len) lies within one tracked allocation.
pub fn range_is_tracked(addr: *const c_void, len: usize) -> bool {
    let t = tracker();
    lookup_in(&t, addr as usize, len).is_some()
}

/// Whether [addr, addr+len) is device-accessible memory the runtime knows: a device,
/// managed, pinned or registered allocation, or a registered device variable.
pub fn is_device_range(addr: *const c_void, len: usize) -> bool {
    range_is_tracked(addr, len) || crate::registry::var_containing(addr as usize, len).is_some()
}

/// Frees every device and managed allocation (cudaDeviceReset).
pub fn release_device_allocations() {
    let mut t = tracker();
    t.allocs.retain(|_, a| !a.kind.is_device());
    bump_generation();
    t.device_bytes = 0;
    t.pool.release_all();
}

/// Validates a cudaMemcpyKind value.
pub fn check_kind(kind: i32) -> Result<(), CudaError> {
    if (0..=4).contains(&kind) {
        Ok(())
    } else {
        Err(error::INVALID_MEMCPY_DIRECTION)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn alloc_free_lookup() {
        let p = alloc(1000, Kind::Device).unwrap();
        assert_eq!(p as usize % ALIGN, 0);
        assert!(is_device_range(p, 1000));
        assert!(!is_device_range(p, 1001));
        assert!(lookup(unsafe { (p as *const u8).add(999) } as *const c_void).is_some());
        assert_eq!(free(unsafe { (p as *mut u8).add(1) } as *mut c_void, |_| true), Err(error::INVALID_VALUE));
        assert_eq!(free(p, |k| k == Kind::Device), Ok(()));
        assert_eq!(free(p, |_| true), Err(error::INVALID_VALUE));
        let big = alloc(10 << 20, Kind::Device).unwrap();
        assert_eq!(big as usize % ALIGN, 0);
        free(big, |_| true).unwrap();
        assert!(alloc(0, Kind::Device).unwrap().is_null());
    }
}
