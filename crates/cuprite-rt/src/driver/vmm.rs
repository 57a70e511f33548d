//! Virtual memory management (`cuMemCreate`, `cuMemAddressReserve`, `cuMemMap`,
//! `cuMemSetAccess`, shareable handles), on the host's own virtual memory: physical
//! memory is a memfd of the size asked for, an address range is a `PROT_NONE` reservation,
//! mapping puts the memfd's pages at the address (`MAP_SHARED | MAP_FIXED`), and access
//! flags become page protections. A mapped, accessible range is device memory to the rest
//! of the runtime (copies and kernels take it). A POSIX file descriptor exported from an
//! allocation is a `dup` of its memfd, so another process imports the same pages.

use super::{drv, out, CuResult, INVALID_VALUE, NOT_SUPPORTED, OUT_OF_MEMORY, Result};
use std::collections::{BTreeMap, HashMap};
use std::ffi::{c_int, c_void};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::{Arc, Mutex, MutexGuard};

/// The granularity of sizes, addresses and offsets (what an H100 reports, both minimum
/// and recommended).
pub const GRANULARITY: usize = 2 << 20;

const ALLOCATION_TYPE_PINNED: c_int = 1;
const LOCATION_TYPE_DEVICE: c_int = 1;
const HANDLE_TYPE_POSIX_FD: c_int = 1;
const ACCESS_READ: c_int = 1;
const ACCESS_READWRITE: c_int = 3;

/// `CUmemLocation`.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct Location {
    kind: c_int,
    id: c_int,
}

/// `CUmemAllocationProp` (32 bytes, as CUDA 13's).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct AllocationProp {
    kind: c_int,
    requested_handle_types: c_int,
    location: Location,
    win32_metadata: *mut c_void,
    compression_type: u8,
    gpu_direct_rdma_capable: u8,
    usage: u16,
    reserved: [u8; 4],
}

/// `CUmemAccessDesc`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct AccessDesc {
    location: Location,
    flags: c_int,
}

struct Physical {
    fd: OwnedFd,
    size: usize,
    prop: AllocationProp,
}

unsafe impl Send for Physical {}
unsafe impl Sync for Physical {}

struct Mapping {
    size: usize,
    phys: Arc<Physical>,
    access: c_int,
}

#[derive(Default)]
struct Vmm {
    next_handle: u64,
    handles: HashMap<u64, Arc<Physical>>,
    /// Reserved ranges: start → size.
    reserved: BTreeMap<usize, usize>,
    /// Mapped ranges: start → mapping.
    mapped: BTreeMap<usize, Mapping>,
}

fn vmm() -> MutexGuard<'static, Vmm> {
    static V: std::sync::OnceLock<Mutex<Vmm>> = std::sync::OnceLock::new();
    V.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

fn granular(n: usize) -> bool {
    n > 0 && n % GRANULARITY == 0
}

fn check_prop(p: *const AllocationProp) -> Result<AllocationProp> {
    if p.is_null() {
        return Err(INVALID_VALUE);
    }
    let p = unsafe { *p };
    if p.kind != ALLOCATION_TYPE_PINNED || p.location.kind != LOCATION_TYPE_DEVICE {
        return Err(INVALID_VALUE);
    }
    super::device::check_device(p.location.id)?;
    Ok(p)
}

#[no_mangle]
pub extern "C" fn cuMemGetAllocationGranularity(g: *mut usize, p: *const AllocationProp, _option: c_int) -> CuResult {
    drv(|| {
        check_prop(p)?;
        out(g, GRANULARITY)
    })
}

#[no_mangle]
pub extern "C" fn cuMemCreate(h: *mut u64, size: usize, p: *const AllocationProp, flags: u64) -> CuResult {
    // No context needed: physical allocations belong to a device, not a context.
    drv(|| {
        let mut prop = check_prop(p)?;
        if h.is_null() || flags != 0 || !granular(size) {
            return Err(INVALID_VALUE);
        }
        // The CPU device compresses nothing (CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED
        // is 0), so the allocation is made uncompressed, as CUDA does on such devices.
        prop.compression_type = 0;
        let fd = unsafe { libc::memfd_create(c"cuprite-vmm".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(OUT_OF_MEMORY);
        }
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        if unsafe { libc::ftruncate(fd.as_raw_fd(), size as libc::off_t) } != 0 {
            return Err(OUT_OF_MEMORY);
        }
        let mut v = vmm();
        v.next_handle += 1;
        let id = v.next_handle;
        v.handles.insert(id, Arc::new(Physical { fd, size, prop }));
        out(h, id)
    })
}

/// Releasing a handle leaves mapped pages in place until they are unmapped, as in CUDA.
#[no_mangle]
pub extern "C" fn cuMemRelease(h: u64) -> CuResult {
    drv(|| vmm().handles.remove(&h).map(drop).ok_or(INVALID_VALUE))
}

#[no_mangle]
pub extern "C" fn cuMemAddressReserve(ptr: *mut u64, size: usize, alignment: usize, _addr: u64, flags: u64) -> CuResult {
    drv(|| {
        if ptr.is_null() || flags != 0 || !granular(size) || (alignment != 0 && !alignment.is_power_of_two()) {
            return Err(INVALID_VALUE);
        }
        let align = alignment.max(GRANULARITY);
        let span = size + align;
        let base = unsafe { libc::mmap(std::ptr::null_mut(), span, libc::PROT_NONE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE, -1, 0) };
        if base == libc::MAP_FAILED {
            return Err(OUT_OF_MEMORY);
        }
        let start = (base as usize).next_multiple_of(align);
        // Give back the slack on both sides.
        unsafe {
            if start > base as usize {
                libc::munmap(base, start - base as usize);
            }
            let end = start + size;
            let span_end = base as usize + span;
            if span_end > end {
                libc::munmap(end as *mut c_void, span_end - end);
            }
        }
        vmm().reserved.insert(start, size);
        out(ptr, start as u64)
    })
}

#[no_mangle]
pub extern "C" fn cuMemAddressFree(ptr: u64, size: usize) -> CuResult {
    drv(|| {
        let mut v = vmm();
        let start = ptr as usize;
        if v.reserved.get(&start) != Some(&size) || v.mapped.range(start..start + size).next().is_some() {
            return Err(INVALID_VALUE);
        }
        v.reserved.remove(&start);
        unsafe { libc::munmap(start as *mut c_void, size) };
        Ok(())
    })
}

/// Whether `[start, start + size)` lies inside one reserved range.
fn inside_reservation(v: &Vmm, start: usize, size: usize) -> bool {
    v.reserved.range(..=start).next_back().is_some_and(|(&b, &n)| start + size <= b + n)
}

fn overlaps_mapping(v: &Vmm, start: usize, size: usize) -> bool {
    let before = v.mapped.range(..start).next_back().is_some_and(|(&b, m)| b + m.size > start);
    before || v.mapped.range(start..start + size).next().is_some()
}

#[no_mangle]
pub extern "C" fn cuMemMap(ptr: u64, size: usize, offset: usize, h: u64, flags: u64) -> CuResult {
    drv(|| {
        let mut v = vmm();
        let start = ptr as usize;
        let phys = v.handles.get(&h).cloned().ok_or(INVALID_VALUE)?;
        if flags != 0 || !granular(size) || start % GRANULARITY != 0 || offset % GRANULARITY != 0 || offset + size > phys.size {
            return Err(INVALID_VALUE);
        }
        if !inside_reservation(&v, start, size) || overlaps_mapping(&v, start, size) {
            return Err(INVALID_VALUE);
        }
        let p = unsafe { libc::mmap(start as *mut c_void, size, libc::PROT_NONE, libc::MAP_SHARED | libc::MAP_FIXED, phys.fd.as_raw_fd(), offset as libc::off_t) };
        if p == libc::MAP_FAILED {
            return Err(OUT_OF_MEMORY);
        }
        v.mapped.insert(start, Mapping { size, phys, access: 0 });
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuMemUnmap(ptr: u64, size: usize) -> CuResult {
    drv(|| {
        let mut v = vmm();
        let start = ptr as usize;
        // The range must be made of whole mappings.
        let covered: usize = v.mapped.range(start..start + size).map(|(_, m)| m.size).sum();
        if size == 0 || covered != size || !v.mapped.contains_key(&start) {
            return Err(INVALID_VALUE);
        }
        crate::stream::wait_all_streams();
        let keys: Vec<usize> = v.mapped.range(start..start + size).map(|(&k, _)| k).collect();
        for k in keys {
            if let Some(m) = v.mapped.remove(&k) {
                if m.access != 0 {
                    let _ = crate::memory::untrack_foreign(k as *mut c_void, &|_| true);
                }
            }
        }
        // Back to a plain reservation.
        unsafe { libc::mmap(start as *mut c_void, size, libc::PROT_NONE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_FIXED, -1, 0) };
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuMemSetAccess(ptr: u64, size: usize, desc: *const AccessDesc, count: usize) -> CuResult {
    drv(|| {
        if desc.is_null() || count == 0 {
            return Err(INVALID_VALUE);
        }
        let descs = unsafe { std::slice::from_raw_parts(desc, count) };
        let mut access = 0;
        for d in descs {
            if d.location.kind != LOCATION_TYPE_DEVICE || !matches!(d.flags, 0 | ACCESS_READ | ACCESS_READWRITE) {
                return Err(INVALID_VALUE);
            }
            super::device::check_device(d.location.id)?;
            // Devices share the host's memory: the widest access granted is the pages'.
            access = access.max(d.flags);
        }
        let mut v = vmm();
        let start = ptr as usize;
        let covered: usize = v.mapped.range(start..start + size).map(|(_, m)| m.size).sum();
        if size == 0 || covered != size || !v.mapped.contains_key(&start) {
            return Err(INVALID_VALUE);
        }
        let prot = match access {
            ACCESS_READWRITE => libc::PROT_READ | libc::PROT_WRITE,
            ACCESS_READ => libc::PROT_READ,
            _ => libc::PROT_NONE,
        };
        if unsafe { libc::mprotect(start as *mut c_void, size, prot) } != 0 {
            return Err(INVALID_VALUE);
        }
        let keys: Vec<usize> = v.mapped.range(start..start + size).map(|(&k, _)| k).collect();
        for k in keys {
            let m = v.mapped.get_mut(&k).expect("listed");
            match (m.access != 0, access != 0) {
                (false, true) => crate::memory::track_foreign(k, m.size, crate::memory::Kind::Device),
                (true, false) => {
                    let _ = crate::memory::untrack_foreign(k as *mut c_void, &|_| true);
                }
                _ => {}
            }
            m.access = access;
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuMemGetAccess(flags: *mut u64, location: *const Location, ptr: u64) -> CuResult {
    drv(|| {
        if location.is_null() {
            return Err(INVALID_VALUE);
        }
        let v = vmm();
        let start = ptr as usize;
        let (_, m) = v.mapped.range(..=start).next_back().filter(|(&b, m)| start < b + m.size).ok_or(INVALID_VALUE)?;
        out(flags, m.access as u64)
    })
}

#[no_mangle]
pub extern "C" fn cuMemGetAllocationPropertiesFromHandle(p: *mut AllocationProp, h: u64) -> CuResult {
    drv(|| {
        let v = vmm();
        let phys = v.handles.get(&h).ok_or(INVALID_VALUE)?;
        out(p, phys.prop)
    })
}

/// The handle of the allocation mapped at `addr` (a new reference, released with
/// cuMemRelease).
#[no_mangle]
pub extern "C" fn cuMemRetainAllocationHandle(h: *mut u64, addr: *mut c_void) -> CuResult {
    drv(|| {
        let mut v = vmm();
        let start = addr as usize;
        let phys = v.mapped.range(..=start).next_back().filter(|(&b, m)| start < b + m.size).map(|(_, m)| m.phys.clone()).ok_or(INVALID_VALUE)?;
        v.next_handle += 1;
        let id = v.next_handle;
        v.handles.insert(id, phys);
        out(h, id)
    })
}

#[no_mangle]
pub extern "C" fn cuMemExportToShareableHandle(shareable: *mut c_void, h: u64, kind: c_int, flags: u64) -> CuResult {
    drv(|| {
        if shareable.is_null() || flags != 0 {
            return Err(INVALID_VALUE);
        }
        if kind != HANDLE_TYPE_POSIX_FD {
            return Err(NOT_SUPPORTED);
        }
        let v = vmm();
        let phys = v.handles.get(&h).ok_or(INVALID_VALUE)?;
        if phys.prop.requested_handle_types & HANDLE_TYPE_POSIX_FD == 0 {
            return Err(INVALID_VALUE);
        }
        let fd = unsafe { libc::dup(phys.fd.as_raw_fd()) };
        if fd < 0 {
            return Err(OUT_OF_MEMORY);
        }
        unsafe { *(shareable as *mut c_int) = fd };
        Ok(())
    })
}

/// For a POSIX file descriptor the OS handle is the descriptor itself, cast to a pointer.
#[no_mangle]
pub extern "C" fn cuMemImportFromShareableHandle(h: *mut u64, os_handle: *mut c_void, kind: c_int) -> CuResult {
    drv(|| {
        if h.is_null() {
            return Err(INVALID_VALUE);
        }
        if kind != HANDLE_TYPE_POSIX_FD {
            return Err(NOT_SUPPORTED);
        }
        let fd = unsafe { libc::dup(os_handle as usize as c_int) };
        if fd < 0 {
            return Err(INVALID_VALUE);
        }
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        if unsafe { libc::fstat(fd.as_raw_fd(), &mut st) } != 0 || !granular(st.st_size as usize) {
            return Err(INVALID_VALUE);
        }
        let prop = AllocationProp {
            kind: ALLOCATION_TYPE_PINNED,
            requested_handle_types: HANDLE_TYPE_POSIX_FD,
            location: Location { kind: LOCATION_TYPE_DEVICE, id: crate::devices::current() },
            win32_metadata: std::ptr::null_mut(),
            compression_type: 0,
            gpu_direct_rdma_capable: 0,
            usage: 0,
            reserved: [0; 4],
        };
        let mut v = vmm();
        v.next_handle += 1;
        let id = v.next_handle;
        v.handles.insert(id, Arc::new(Physical { fd, size: st.st_size as usize, prop }));
        out(h, id)
    })
}

/// Device attributes of virtual memory management that the driver answers itself
/// (CUdevice_attribute numbers; the runtime's table has other meanings or none for them).
pub fn attribute(attr: c_int) -> Option<c_int> {
    match attr {
        102 => Some(1), // VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED
        103 => Some(1), // HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED
        104 | 105 => Some(0), // Win32 handles
        107 => Some(0), // GENERIC_COMPRESSION_SUPPORTED
        110 => Some(0), // GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED
        _ => None,
    }
}
