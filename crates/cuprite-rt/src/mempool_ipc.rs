//! Memory pools shared between processes (`cudaMemPoolExportToShareableHandle`,
//! `cudaMemPoolImportFromShareableHandle`, `cudaMemPoolExportPointer`,
//! `cudaMemPoolImportPointer`), with POSIX file descriptors.
//!
//! A pool created with `cudaMemHandleTypePosixFileDescriptor` keeps its allocations in one
//! memfd of its own, each at a page-aligned offset and mapped `MAP_SHARED` where the
//! process sees it (known to the runtime as device memory). The pool's shareable handle
//! is a `dup` of that memfd; another process imports the pool from the descriptor (sent
//! over a Unix socket, as CUDA's programs do). An allocation's export data names the
//! memfd by device and inode (which every process sees alike) and the allocation's offset
//! and size, so a process holding the pool's descriptor maps the same pages.

use crate::error::{self, Result};
use crate::memory::{self, Kind};
use std::collections::{BTreeMap, HashMap};
use std::ffi::{c_int, c_void};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// `cudaMemHandleTypePosixFileDescriptor`, the one handle type the CPU device shares.
pub const HANDLE_TYPE_POSIX_FD: c_int = 1;

/// The memfd's name: an imported descriptor must carry it (anything else is refused).
const MEMFD_NAME: &str = "cuprite-mempool";

/// `cudaMemPoolPtrExportData`: 64 opaque bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExportData {
    magic: u32,
    version: u32,
    dev: u64,
    ino: u64,
    offset: u64,
    size: u64,
    len: u64,
    _reserved: [u64; 2],
}

const _: () = assert!(std::mem::size_of::<ExportData>() == 64);
const MAGIC: u32 = 0x4c50_5043; // "CPPL"

fn page() -> u64 {
    (unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).max(4096) as u64
}

/// The shared memory behind one pool, in the process that created it or imported it.
pub struct Backing {
    fd: OwnedFd,
    /// (device, inode) of the memfd: the pool's identity in every process.
    id: (u64, u64),
    /// Imported pools only map what another process exported; they allocate nothing.
    pub imported: bool,
    /// Free ranges of the memfd (offset -> length) and its current length.
    space: Mutex<(BTreeMap<u64, u64>, u64)>,
}

fn identity(fd: &OwnedFd) -> Result<(u64, u64, u64)> {
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    if unsafe { libc::fstat(fd.as_raw_fd(), &mut st) } != 0 {
        return Err(error::INVALID_VALUE);
    }
    Ok((st.st_dev as u64, st.st_ino as u64, st.st_size as u64))
}

impl Backing {
    /// The backing of a new exportable pool.
    pub fn create() -> Result<Arc<Backing>> {
        let name = std::ffi::CString::new(MEMFD_NAME).unwrap();
        let fd = unsafe { libc::memfd_create(name.as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(error::MEMORY_ALLOCATION);
        }
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let (dev, ino, _) = identity(&fd)?;
        Ok(Arc::new(Backing { fd, id: (dev, ino), imported: false, space: Mutex::new((BTreeMap::new(), 0)) }))
    }

    /// The backing of a pool another process exported, from its descriptor (which the
    /// caller keeps: this takes a duplicate). A negative or closed descriptor is
    /// cudaErrorInvalidValue; an open one that is not such a pool's is cudaErrorUnknown,
    /// as an H100 with CUDA 13 answers for `/dev/null`.
    pub fn import(fd: c_int) -> Result<Arc<Backing>> {
        if fd < 0 {
            return Err(error::INVALID_VALUE);
        }
        let link = std::fs::read_link(format!("/proc/self/fd/{fd}")).map_err(|_| error::INVALID_VALUE)?;
        if !link.to_string_lossy().starts_with(&format!("/memfd:{MEMFD_NAME}")) {
            return Err(error::UNKNOWN);
        }
        let dup = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
        if dup < 0 {
            return Err(error::INVALID_VALUE);
        }
        let fd = unsafe { OwnedFd::from_raw_fd(dup) };
        let (dev, ino, _) = identity(&fd)?;
        Ok(Arc::new(Backing { fd, id: (dev, ino), imported: true, space: Mutex::new((BTreeMap::new(), 0)) }))
    }

    /// A new descriptor of the pool's memfd (the shareable handle); the caller owns it.
    pub fn export_fd(&self) -> Result<c_int> {
        if self.imported {
            return Err(error::INVALID_VALUE);
        }
        let fd = unsafe { libc::dup(self.fd.as_raw_fd()) };
        if fd < 0 {
            return Err(error::MEMORY_ALLOCATION);
        }
        Ok(fd)
    }

    fn lock_space(&self) -> MutexGuard<'_, (BTreeMap<u64, u64>, u64)> {
        self.space.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A range of `len` bytes of the memfd: the first free one that fits, else at its end.
    fn take(&self, len: u64) -> Result<u64> {
        let mut s = self.lock_space();
        let fit = s.0.iter().find(|(_, &l)| l >= len).map(|(&o, &l)| (o, l));
        if let Some((o, l)) = fit {
            s.0.remove(&o);
            if l > len {
                s.0.insert(o + len, l - len);
            }
            return Ok(o);
        }
        let o = s.1;
        if unsafe { libc::ftruncate(self.fd.as_raw_fd(), (o + len) as libc::off_t) } != 0 {
            return Err(error::MEMORY_ALLOCATION);
        }
        s.1 = o + len;
        Ok(o)
    }

    /// Gives a range back: its pages are released and it joins its free neighbours.
    fn give_back(&self, mut o: u64, mut len: u64) {
        unsafe {
            libc::fallocate(self.fd.as_raw_fd(), libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE, o as libc::off_t, len as libc::off_t);
        }
        let mut s = self.lock_space();
        if let Some((&po, &pl)) = s.0.range(..o).next_back() {
            if po + pl == o {
                s.0.remove(&po);
                o = po;
                len += pl;
            }
        }
        if let Some(nl) = s.0.remove(&(o + len)) {
            len += nl;
        }
        s.0.insert(o, len);
    }

    fn map(self: &Arc<Self>, offset: u64, size: u64, len: u64, own: bool) -> Result<*mut c_void> {
        let p = unsafe {
            libc::mmap(std::ptr::null_mut(), len as usize, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, self.fd.as_raw_fd(), offset as libc::off_t)
        };
        if p == libc::MAP_FAILED {
            return Err(error::MEMORY_ALLOCATION);
        }
        memory::track_foreign(p as usize, size as usize, Kind::Device);
        mappings().insert(p as usize, Mapping { backing: self.clone(), offset, size, len, own });
        Ok(p)
    }

    /// Allocates `size` bytes of an exportable pool.
    pub fn alloc(self: &Arc<Self>, size: usize) -> Result<*mut c_void> {
        if self.imported {
            return Err(error::INVALID_VALUE);
        }
        let pg = page();
        let len = (size.max(1) as u64).div_ceil(pg) * pg;
        let offset = self.take(len)?;
        self.map(offset, size as u64, len, true).inspect_err(|_| self.give_back(offset, len))
    }

    /// `cudaMemPoolImportPointer`: maps the allocation `data` names, which must be one
    /// of this (imported) pool's.
    pub fn import_pointer(self: &Arc<Self>, data: &ExportData) -> Result<*mut c_void> {
        if !self.imported || data.magic != MAGIC || data.version != 1 || (data.dev, data.ino) != self.id {
            return Err(error::INVALID_VALUE);
        }
        let (_, _, file_len) = identity(&self.fd)?;
        let end = data.offset.checked_add(data.len).ok_or(error::INVALID_VALUE)?;
        if end > file_len || data.size > data.len || data.offset % page() != 0 {
            return Err(error::INVALID_VALUE);
        }
        self.map(data.offset, data.size, data.len, false)
    }
}

/// One mapping of a shared pool's memory in this process.
struct Mapping {
    backing: Arc<Backing>,
    offset: u64,
    size: u64,
    len: u64,
    /// This process allocated it (its range returns to the pool when freed); otherwise
    /// it was imported.
    own: bool,
}

fn mappings() -> MutexGuard<'static, HashMap<usize, Mapping>> {
    static M: OnceLock<Mutex<HashMap<usize, Mapping>>> = OnceLock::new();
    M.get_or_init(|| Mutex::new(HashMap::new())).lock().unwrap_or_else(|p| p.into_inner())
}

/// `cudaMemPoolExportPointer`: `ptr` must be the start of an allocation this process
/// made from an exportable pool.
pub fn export_pointer(ptr: *const c_void) -> Result<ExportData> {
    let m = mappings();
    let a = m.get(&(ptr as usize)).filter(|a| a.own).ok_or(error::INVALID_VALUE)?;
    let (dev, ino) = a.backing.id;
    Ok(ExportData { magic: MAGIC, version: 1, dev, ino, offset: a.offset, size: a.size, len: a.len, _reserved: [0; 2] })
}

/// Frees `ptr` if it is shared pool memory (allocated here or imported): unmapped, and
/// an own allocation's pages go back to the pool. False when it is not such memory.
pub fn release(ptr: *mut c_void) -> bool {
    let Some(a) = mappings().remove(&(ptr as usize)) else {
        return false;
    };
    let _ = memory::untrack_foreign(ptr, &|k| k == Kind::Device);
    unsafe { libc::munmap(ptr, a.len as usize) };
    if a.own {
        a.backing.give_back(a.offset, a.len);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn freed_ranges_are_reused_and_merged() {
        let b = Backing::create().unwrap();
        let pg = page();
        let a = b.take(pg).unwrap();
        let c = b.take(2 * pg).unwrap();
        let d = b.take(pg).unwrap();
        assert_eq!((a, c, d), (0, pg, 3 * pg));
        b.give_back(a, pg);
        b.give_back(c, 2 * pg);
        assert_eq!(b.lock_space().0.get(&0), Some(&(3 * pg)), "neighbours merge");
        assert_eq!(b.take(3 * pg).unwrap(), 0, "a merged range is reused");
    }

    #[test]
    fn an_import_maps_the_exporters_pages_and_foreign_data_is_refused() {
        let pool = Backing::create().unwrap();
        let p = pool.alloc(10_000).unwrap();
        unsafe { std::ptr::write_bytes(p as *mut u8, 7, 10_000) };
        let data = export_pointer(p).unwrap();
        let fd = pool.export_fd().unwrap();
        let imported = Backing::import(fd).unwrap();
        unsafe { libc::close(fd) };
        let q = imported.import_pointer(&data).unwrap();
        assert_ne!(p, q);
        assert_eq!(unsafe { *(q as *const u8).add(9_999) }, 7);
        unsafe { *(q as *mut u8) = 9 };
        assert_eq!(unsafe { *(p as *const u8) }, 9, "the same pages");
        assert!(memory::is_device_range(q, 10_000));
        // Data of another pool, zeroed data, and importing into an exporting pool fail.
        let other = Backing::create().unwrap();
        let r = other.alloc(1).unwrap();
        assert_eq!(imported.import_pointer(&export_pointer(r).unwrap()), Err(error::INVALID_VALUE));
        assert_eq!(imported.import_pointer(&unsafe { std::mem::zeroed() }), Err(error::INVALID_VALUE));
        assert_eq!(pool.import_pointer(&data), Err(error::INVALID_VALUE));
        assert_eq!(export_pointer(q), Err(error::INVALID_VALUE), "imported memory is not re-exported");
        let devnull = std::fs::File::open("/dev/null").unwrap();
        use std::os::fd::AsRawFd;
        assert_eq!(Backing::import(devnull.as_raw_fd()).err(), Some(error::UNKNOWN), "an open file that is no pool");
        assert_eq!(Backing::import(-1).err(), Some(error::INVALID_VALUE));
        assert!(release(q) && release(p) && release(r));
        assert!(!release(p), "freed once");
    }
}
