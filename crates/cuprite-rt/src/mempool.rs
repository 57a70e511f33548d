//! Stream-ordered allocation: memory pools (the device's default pool and created ones),
//! cudaMallocAsync / cudaFreeAsync. An allocation is made when the call is issued (so
//! the pointer is valid for everything ordered after it) and freed when its stream
//! reaches the cudaFreeAsync. Pools keep CUDA's accounting: bytes in use, bytes reserved
//! (in use plus freed bytes the pool keeps, up to its release threshold, until a
//! synchronisation or a trim), and their high-water marks.

use crate::context::ctx;
use crate::error::{self, Result};
use crate::memory::Kind;
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, OnceLock};

/// `cudaMemPoolAttr`.
pub mod attr {
    pub const REUSE_FOLLOW_EVENT_DEPENDENCIES: i32 = 1;
    pub const REUSE_ALLOW_OPPORTUNISTIC: i32 = 2;
    pub const REUSE_ALLOW_INTERNAL_DEPENDENCIES: i32 = 3;
    pub const RELEASE_THRESHOLD: i32 = 4;
    pub const RESERVED_MEM_CURRENT: i32 = 5;
    pub const RESERVED_MEM_HIGH: i32 = 6;
    pub const USED_MEM_CURRENT: i32 = 7;
    pub const USED_MEM_HIGH: i32 = 8;
}

/// The granularity in which a pool reserves memory (32 MiB on an H100, measured).
pub const CHUNK: u64 = 32 << 20;

#[derive(Default)]
pub struct PoolState {
    pub reuse: [i32; 3],
    pub release_threshold: u64,
    pub used: u64,
    pub used_high: u64,
    /// Freed bytes the pool still holds.
    pub kept: u64,
    pub reserved_high: u64,
    pub access: i32,
}

impl PoolState {
    pub fn reserved(&self) -> u64 {
        (self.used + self.kept).div_ceil(CHUNK) * CHUNK
    }
    fn note_high(&mut self) {
        self.used_high = self.used_high.max(self.used);
        self.reserved_high = self.reserved_high.max(self.reserved());
    }
    /// Gives back what exceeds `keep` bytes (trim, or the threshold at a synchronisation).
    pub fn trim(&mut self, keep: u64) {
        let reserved = self.used + self.kept;
        if reserved > keep {
            self.kept = self.kept.saturating_sub(reserved - keep);
        }
    }
}

pub struct MemPool {
    pub st: Mutex<PoolState>,
    /// Memory shared with other processes (a pool created with a shareable handle type,
    /// or imported from another process's handle): `mempool_ipc`.
    pub shared: Option<Arc<crate::mempool_ipc::Backing>>,
    /// The same on the GPU device: a shareable driver pool (`gpu::mempool`).
    pub gpu_shared: Option<Arc<crate::gpu::mempool::GpuPool>>,
}

impl MemPool {
    fn new() -> Arc<MemPool> {
        Self::with_backing(None, None)
    }
    fn with_backing(shared: Option<Arc<crate::mempool_ipc::Backing>>, gpu_shared: Option<Arc<crate::gpu::mempool::GpuPool>>) -> Arc<MemPool> {
        Arc::new(MemPool { st: Mutex::new(PoolState { reuse: [1, 1, 1], access: 3, ..Default::default() }), shared, gpu_shared })
    }
    pub fn lock(&self) -> std::sync::MutexGuard<'_, PoolState> {
        self.st.lock().unwrap_or_else(|p| p.into_inner())
    }
}

struct Pools {
    live: HashMap<usize, Arc<MemPool>>,
    /// Stream-ordered allocations: pointer → (pool, size).
    allocs: HashMap<usize, (Arc<MemPool>, u64)>,
    current: usize,
}

fn pools() -> std::sync::MutexGuard<'static, Pools> {
    static P: OnceLock<Mutex<Pools>> = OnceLock::new();
    P.get_or_init(|| {
        let d = default_pool().clone();
        let h = Arc::as_ptr(&d) as usize;
        Mutex::new(Pools { live: HashMap::from([(h, d)]), allocs: HashMap::new(), current: h })
    })
    .lock()
    .unwrap_or_else(|p| p.into_inner())
}

pub fn default_pool() -> &'static Arc<MemPool> {
    static D: OnceLock<Arc<MemPool>> = OnceLock::new();
    D.get_or_init(MemPool::new)
}

pub fn handle(p: &Arc<MemPool>) -> *mut c_void {
    Arc::as_ptr(p) as *mut c_void
}

/// A new pool; `shared`: its memory is shared with other processes.
pub fn create(shared: Option<Arc<crate::mempool_ipc::Backing>>) -> *mut c_void {
    register(MemPool::with_backing(shared, None))
}

/// A new pool over a shareable driver pool (the GPU device).
pub fn create_on_gpu(g: crate::gpu::mempool::GpuPool) -> *mut c_void {
    register(MemPool::with_backing(None, Some(Arc::new(g))))
}

fn register(p: Arc<MemPool>) -> *mut c_void {
    let h = handle(&p);
    pools().live.insert(h as usize, p);
    h
}

impl MemPool {
    /// Made from another process's handle: it allocates nothing itself.
    pub fn imported(&self) -> bool {
        self.shared.as_ref().is_some_and(|b| b.imported) || self.gpu_shared.as_ref().is_some_and(|g| g.imported)
    }
}

pub fn resolve(h: *mut c_void) -> Result<Arc<MemPool>> {
    pools().live.get(&(h as usize)).cloned().ok_or(error::INVALID_VALUE)
}

pub fn destroy(h: *mut c_void) -> Result<()> {
    let mut p = pools();
    if h as usize == Arc::as_ptr(default_pool()) as usize {
        return Err(error::INVALID_VALUE);
    }
    p.live.remove(&(h as usize)).ok_or(error::INVALID_VALUE)?;
    if p.current == h as usize {
        p.current = Arc::as_ptr(default_pool()) as usize;
    }
    Ok(())
}

/// The pool cudaMallocAsync uses (cudaDeviceSetMemPool / GetMemPool).
pub fn current() -> Arc<MemPool> {
    let p = pools();
    p.live.get(&p.current).cloned().unwrap_or_else(|| default_pool().clone())
}

pub fn set_current(h: *mut c_void) -> Result<()> {
    let mut p = pools();
    // Imported pools allocate nothing, so they cannot be a device's pool.
    match p.live.get(&(h as usize)) {
        Some(pool) if !pool.imported() => {}
        _ => return Err(error::INVALID_VALUE),
    }
    p.current = h as usize;
    Ok(())
}

/// Allocates `size` bytes from `pool` now.
pub fn alloc(pool: &Arc<MemPool>, size: usize) -> Result<*mut c_void> {
    let p = match (&pool.shared, &pool.gpu_shared, crate::gpu::active()) {
        (Some(b), _, _) => b.alloc(size)?,
        (None, Some(g), Some(dev)) => dev.pool_alloc(g, size)?,
        _ => ctx().device.alloc(size.max(1), Kind::Device)?,
    };
    {
        let mut st = pool.lock();
        st.used += size as u64;
        st.kept = st.kept.saturating_sub(size as u64);
        st.note_high();
    }
    pools().allocs.insert(p as usize, (pool.clone(), size as u64));
    Ok(p)
}

/// Memory of a graph's allocation node. As in CUDA, its address is fixed when the node is
/// made and stays reserved while a graph or executable graph holds the node: each run of
/// the node makes it live, and a free of it (a free node, cudaFreeAsync, cudaFree) makes
/// it dead again without giving the memory back. It is released with the last holder.
pub struct GraphAlloc {
    pub ptr: usize,
    pub size: usize,
    live: std::sync::atomic::AtomicBool,
}

impl GraphAlloc {
    pub fn new(size: usize) -> Result<Arc<GraphAlloc>> {
        let p = ctx().device.alloc(size.max(1), Kind::Device)? as usize;
        let a = Arc::new(GraphAlloc { ptr: p, size, live: std::sync::atomic::AtomicBool::new(true) });
        graph_allocs().insert(p, Arc::downgrade(&a));
        graph_footprint().reserve(size as u64, true);
        Ok(a)
    }
    pub fn set_live(&self, live: bool) {
        self.live.store(live, std::sync::atomic::Ordering::Release);
    }
}

impl Drop for GraphAlloc {
    fn drop(&mut self) {
        graph_footprint().reserve(self.size as u64, false);
        graph_allocs().remove(&self.ptr);
        let _ = ctx().device.free(self.ptr as *mut c_void, &|k| matches!(k, Kind::Device));
    }
}

fn graph_allocs() -> std::sync::MutexGuard<'static, HashMap<usize, std::sync::Weak<GraphAlloc>>> {
    static G: OnceLock<Mutex<HashMap<usize, std::sync::Weak<GraphAlloc>>>> = OnceLock::new();
    G.get_or_init(|| Mutex::new(HashMap::new())).lock().unwrap_or_else(|p| p.into_inner())
}

/// Frees a graph allocation (marks it dead); false when `p` is not one.
pub fn free_graph_alloc(p: *mut c_void) -> bool {
    match graph_allocs().get(&(p as usize)).and_then(|w| w.upgrade()) {
        Some(a) => {
            a.set_live(false);
            true
        }
        None => false,
    }
}

/// Whether `p` may be passed to cudaFreeAsync: a stream-ordered, graph or ordinary allocation.
pub fn freeable(p: *mut c_void) -> bool {
    pools().allocs.contains_key(&(p as usize))
        || graph_allocs().contains_key(&(p as usize))
        || crate::memory::is_device_range(p, 1)
}

/// Takes a stream-ordered allocation off its pool's books (it is being freed).
pub fn forget(p: *mut c_void) {
    let entry = pools().allocs.remove(&(p as usize));
    if let Some((pool, size)) = entry {
        let mut st = pool.lock();
        st.used = st.used.saturating_sub(size);
        st.kept += size;
    }
}

/// Frees `p` (the stream reached its cudaFreeAsync).
pub fn free_now(p: *mut c_void) {
    if free_graph_alloc(p) {
        return;
    }
    forget(p);
    if crate::mempool_ipc::release(p) || crate::gpu::active().is_some_and(|g| g.pool_release(p)) {
        return;
    }
    let c = ctx();
    if let Err(e) = c.device.free(p, &|k| matches!(k, Kind::Device | Kind::Managed)) {
        c.set_sticky(e);
    }
}

/// At a synchronisation, each pool gives back what it keeps beyond its release threshold.
pub fn release_to_thresholds() {
    let live: Vec<Arc<MemPool>> = pools().live.values().cloned().collect();
    for p in live {
        let mut st = p.lock();
        let t = st.release_threshold;
        st.trim(t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_memory_follows_use_threshold_and_trim() {
        let mut st = PoolState::default();
        st.used = 1000;
        st.note_high();
        assert_eq!(st.reserved(), CHUNK);
        st.used = 0;
        st.kept = 1000;
        st.trim(0);
        assert_eq!(st.reserved(), 0);
        st.kept = 5 << 20;
        st.trim(64 << 20);
        assert_eq!(st.reserved(), CHUNK, "below the threshold the pool keeps what was freed");
        st.trim(0);
        assert_eq!((st.reserved(), st.reserved_high, st.used_high), (0, CHUNK, 1000));
    }
}

/// Memory associated with graph allocations (`cudaDeviceGetGraphMemAttribute`). The
/// CPU device gives each allocation node its own memory from the node's creation until
/// its last graph goes, and shares none between graphs, so "used" and "reserved" are
/// both what the live nodes hold (a GPU maps physical memory at the first launch, shares
/// it between graphs whose allocations do not overlap, and keeps it until a trim).
#[derive(Default, Clone, Copy)]
pub struct GraphFootprint {
    pub used: u64,
    pub used_high: u64,
    pub reserved: u64,
    pub reserved_high: u64,
}

impl GraphFootprint {
    fn reserve(&mut self, n: u64, more: bool) {
        if more {
            self.reserved += n;
        } else {
            self.reserved = self.reserved.saturating_sub(n);
        }
        self.used = self.reserved;
        self.reserved_high = self.reserved_high.max(self.reserved);
        self.used_high = self.used_high.max(self.used);
    }
}

pub fn graph_footprint() -> std::sync::MutexGuard<'static, GraphFootprint> {
    static F: Mutex<GraphFootprint> = Mutex::new(GraphFootprint { used: 0, used_high: 0, reserved: 0, reserved_high: 0 });
    F.lock().unwrap_or_else(|p| p.into_inner())
}
