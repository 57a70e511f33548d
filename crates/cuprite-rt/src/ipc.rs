//! Interprocess handles (`cudaIpcGetMemHandle`, `cudaIpcGetEventHandle`): shared memory
//! between processes of one machine.
//!
//! Device memory is private anonymous memory until a handle to it is asked for; then the
//! pool chunks holding the allocation (2 MiB each, so that allocations sharing a chunk
//! share one backing) are moved, contents and address kept, onto a memfd mapped
//! `MAP_SHARED`: normal allocations pay nothing. A handle names the exporting process, the
//! memfd's descriptor number in it and the allocation's place in the region; another
//! process opens `/proc/PID/fd/FD` (the exporter must be alive, as CUDA requires) and maps
//! it. An interprocess event keeps its record and completion counters in a page of its own
//! memfd, so a record in one process completes a wait in another.

use crate::error::{self, Result};
use crate::memory::CHUNK;
use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::sync::atomic::AtomicU64;
use std::sync::Mutex;

/// `cudaIpcMemHandle_t` / `cudaIpcEventHandle_t`: 64 opaque bytes.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Handle {
    magic: u32,
    kind: u32,
    pid: u32,
    fd: i32,
    /// Memory: the region's length and the allocation's offset and size in it.
    region_len: u64,
    offset: u64,
    size: u64,
    /// The exporter's address of the region (identifies it across opens).
    region: u64,
    _reserved: [u8; 16],
}

const MAGIC: u32 = 0x4950_5243; // "CRPI"
const KIND_MEM: u32 = 1;
const KIND_EVENT: u32 = 2;
/// `cudaErrorDeviceUninitialized` ("invalid device context").
pub const DEVICE_UNINITIALIZED: error::CudaError = 201;
pub const MAP_FAILED_ERR: error::CudaError = 205;

const _: () = assert!(std::mem::size_of::<Handle>() == 64);

fn os_err<T>(_: T) -> error::CudaError {
    error::MEMORY_ALLOCATION
}

fn memfd(len: usize) -> Result<i32> {
    let name = CString::new("cuprite-ipc").unwrap();
    let fd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(os_err(()));
    }
    if unsafe { libc::ftruncate(fd, len as libc::off_t) } != 0 {
        unsafe { libc::close(fd) };
        return Err(os_err(()));
    }
    Ok(fd)
}

/// Regions of this process's device memory moved onto a memfd: start -> (len, fd).
static EXPORTED: Mutex<Option<HashMap<usize, (usize, i32)>>> = Mutex::new(None);

/// Called when the pool unmaps `[at, at + len)`: memfd regions there are gone.
pub fn forget_region(at: usize, len: usize) {
    if let Some(m) = EXPORTED.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        m.retain(|&s, &mut (_, fd)| {
            let gone = s >= at && s < at + len;
            if gone {
                unsafe { libc::close(fd) };
            }
            !gone
        });
    }
}

/// Moves `[start, start + len)` onto a new memfd, keeping its contents and address.
fn share_region(start: usize, len: usize) -> Result<i32> {
    let fd = memfd(len)?;
    let written = unsafe { libc::pwrite(fd, start as *const c_void, len, 0) };
    if written != len as isize {
        unsafe { libc::close(fd) };
        return Err(os_err(()));
    }
    let p = unsafe { libc::mmap(start as *mut c_void, len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED | libc::MAP_FIXED, fd, 0) };
    if p == libc::MAP_FAILED {
        unsafe { libc::close(fd) };
        return Err(os_err(()));
    }
    Ok(fd)
}

/// A handle for the device allocation containing `ptr`.
pub fn export_memory(ptr: *const c_void) -> Result<Handle> {
    if let Some(g) = crate::gpu::active() {
        let bytes = g.ipc_export(ptr)?;
        return Ok(unsafe { std::mem::transmute::<[u8; 64], Handle>(bytes) });
    }
    let a = crate::memory::lookup(ptr).ok_or(error::INVALID_VALUE)?;
    if !matches!(a.kind, crate::memory::Kind::Device) {
        return Err(error::INVALID_VALUE);
    }
    // Work already queued may be writing the chunk being moved.
    crate::stream::wait_all_streams();
    let start = a.base & !(CHUNK - 1);
    let end = (a.base + a.size.max(1)).div_ceil(CHUNK) * CHUNK;
    let mut g = EXPORTED.lock().unwrap_or_else(|e| e.into_inner());
    let m = g.get_or_insert_with(HashMap::new);
    let found = m.iter().find(|(&s, &(l, _))| s <= start && end <= s + l).map(|(&s, &(l, fd))| (s, l, fd));
    let (s, l, fd) = match found {
        Some(r) => r,
        None => {
            let fd = share_region(start, end - start)?;
            m.insert(start, (end - start, fd));
            (start, end - start, fd)
        }
    };
    Ok(Handle {
        magic: MAGIC,
        kind: KIND_MEM,
        pid: std::process::id(),
        fd,
        region_len: l as u64,
        offset: (a.base - s) as u64,
        size: a.size as u64,
        region: s as u64,
        _reserved: [0; 16],
    })
}

/// Maps the memfd another process exported; the same region opened twice is mapped once.
static IMPORTED: Mutex<Option<HashMap<(u32, u64), (usize, usize, usize)>>> = Mutex::new(None);

fn map_foreign(h: &Handle, len: usize) -> Result<usize> {
    let path = CString::new(format!("/proc/{}/fd/{}", h.pid, h.fd)).unwrap();
    let fd = unsafe { libc::open(path.as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(MAP_FAILED_ERR);
    }
    let p = unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, fd, 0) };
    unsafe { libc::close(fd) };
    if p == libc::MAP_FAILED {
        return Err(MAP_FAILED_ERR);
    }
    Ok(p as usize)
}

/// `cudaIpcOpenMemHandle`: the allocation's address in this process.
pub fn import_memory(h: &Handle) -> Result<*mut c_void> {
    if let Some(g) = crate::gpu::active() {
        // On the GPU device a memory handle is the driver's (`gpu/ipc.rs`).
        return g.ipc_import(unsafe { &*(h as *const Handle as *const [u8; 64]) });
    }
    if h.magic != MAGIC || h.kind != KIND_MEM {
        return Err(error::INVALID_VALUE);
    }
    if h.pid == std::process::id() {
        // CUDA does not open a process's own handles (not measured: the code is the
        // "invalid device context").
        return Err(DEVICE_UNINITIALIZED);
    }
    let mut g = IMPORTED.lock().unwrap_or_else(|e| e.into_inner());
    let m = g.get_or_insert_with(HashMap::new);
    let key = (h.pid, h.region);
    let base = match m.get_mut(&key) {
        Some((base, _, count)) => {
            *count += 1;
            *base
        }
        None => {
            let len = h.region_len as usize;
            let base = map_foreign(h, len)?;
            // Known to the runtime as memory device code and copies may use.
            crate::memory::register(base as *mut c_void, len, 0)?;
            m.insert(key, (base, len, 1));
            base
        }
    };
    Ok((base + h.offset as usize) as *mut c_void)
}

/// `cudaIpcCloseMemHandle`: unmaps at the last close.
pub fn close_memory(ptr: *const c_void) -> Result<()> {
    if let Some(g) = crate::gpu::active() {
        return g.ipc_close(ptr);
    }
    let mut g = IMPORTED.lock().unwrap_or_else(|e| e.into_inner());
    let m = g.get_or_insert_with(HashMap::new);
    let p = ptr as usize;
    let key = m.iter().find(|(_, &(b, l, _))| p >= b && p < b + l).map(|(k, _)| *k).ok_or(error::INVALID_VALUE)?;
    let (base, len, count) = m.get_mut(&key).unwrap();
    *count -= 1;
    if *count == 0 {
        crate::stream::wait_all_streams();
        let (base, len) = (*base, *len);
        let _ = crate::memory::unregister(base as *mut c_void);
        unsafe { libc::munmap(base as *mut c_void, len) };
        m.remove(&key);
    }
    Ok(())
}

/// An interprocess event's counters, in a shared page: the latest record's number and
/// the latest completed one's.
pub struct SharedCounters {
    fd: i32,
    page: *mut [AtomicU64; 2],
}

unsafe impl Send for SharedCounters {}
unsafe impl Sync for SharedCounters {}

impl SharedCounters {
    pub fn new() -> Result<SharedCounters> {
        let fd = memfd(4096)?;
        let p = unsafe { libc::mmap(std::ptr::null_mut(), 4096, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, fd, 0) };
        if p == libc::MAP_FAILED {
            unsafe { libc::close(fd) };
            return Err(os_err(()));
        }
        Ok(SharedCounters { fd, page: p as *mut [AtomicU64; 2] })
    }

    /// [records, completions].
    pub fn counters(&self) -> &[AtomicU64; 2] {
        unsafe { &*self.page }
    }

    pub fn handle(&self) -> Handle {
        Handle { magic: MAGIC, kind: KIND_EVENT, pid: std::process::id(), fd: self.fd, region_len: 4096, offset: 0, size: 0, region: 0, _reserved: [0; 16] }
    }

    /// The counters another process's handle names.
    pub fn open(h: &Handle) -> Result<SharedCounters> {
        if h.magic != MAGIC || h.kind != KIND_EVENT {
            return Err(error::INVALID_VALUE);
        }
        if h.pid == std::process::id() {
            return Err(DEVICE_UNINITIALIZED);
        }
        let p = map_foreign(h, 4096)?;
        Ok(SharedCounters { fd: -1, page: p as *mut [AtomicU64; 2] })
    }
}

impl Drop for SharedCounters {
    fn drop(&mut self) {
        unsafe {
            libc::munmap(self.page as *mut c_void, 4096);
            if self.fd >= 0 {
                libc::close(self.fd);
            }
        }
    }
}
