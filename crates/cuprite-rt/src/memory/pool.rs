//! Device memory as a GPU's allocator lays it out: allocations are carved, 256-byte
//! aligned, from 2 MiB-aligned, 2 MiB-mapped chunks, and one larger than a chunk gets a
//! run of chunks of its own. A kernel that reads a little past an allocation (Rodinia's
//! srad_v2 reads one row past its array) then reads mapped memory, as it does on the GPU,
//! and faults only where it leaves mapped memory.
//!
//! The pool does no locking: `memory` owns it behind its tracker's mutex.

use std::collections::BTreeMap;
use std::ffi::c_void;

/// The GPU's large-page size: the unit of mapping.
pub const CHUNK: usize = 2 << 20;
/// cudaMalloc's alignment guarantee.
pub const ALIGN: usize = 256;

fn round_up(n: usize, to: usize) -> Option<usize> {
    Some(n.checked_add(to - 1)? & !(to - 1))
}

/// Bytes an allocation of `size` occupies: its sub-allocation in a chunk (a multiple of
/// 256), or its own run of chunks when it does not fit in one.
pub fn footprint(size: usize) -> Option<usize> {
    let r = round_up(size.max(1), ALIGN)?;
    if r <= CHUNK {
        Some(r)
    } else {
        round_up(r, CHUNK)
    }
}

/// Free ranges of `total` bytes, as (offset, length), coalesced; allocation is first
/// fit, so the lowest addresses are used first. Used for the sub-allocations of a chunk
/// and for the chunks of the device region alike.
#[derive(Debug)]
struct FreeList {
    total: usize,
    free: BTreeMap<usize, usize>,
}

impl FreeList {
    fn new(total: usize) -> Self {
        FreeList { total, free: BTreeMap::from([(0, total)]) }
    }

    fn take(&mut self, len: usize) -> Option<usize> {
        let (&off, &have) = self.free.iter().find(|(_, &have)| have >= len)?;
        self.free.remove(&off);
        if have > len {
            self.free.insert(off + len, have - len);
        }
        Some(off)
    }

    fn give(&mut self, off: usize, len: usize) {
        let (mut start, mut end) = (off, off + len);
        if let Some((&p, &plen)) = self.free.range(..off).next_back() {
            if p + plen == off {
                self.free.remove(&p);
                start = p;
            }
        }
        if let Some(&nlen) = self.free.get(&end) {
            self.free.remove(&end);
            end += nlen;
        }
        self.free.insert(start, end - start);
    }

    fn is_empty(&self) -> bool {
        self.free.get(&0) == Some(&self.total)
    }
}

const RW: i32 = libc::PROT_READ | libc::PROT_WRITE;

/// An anonymous mapping of `len` bytes with protection `prot`, at `fixed` (replacing
/// what is there) or wherever the system likes.
fn map(fixed: Option<usize>, len: usize, prot: i32) -> Option<usize> {
    let flags = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | fixed.map_or(0, |_| libc::MAP_FIXED);
    // SAFETY: anonymous memory; a fixed address is always inside a reservation this
    // module owns, over chunks nobody uses.
    let p = unsafe { libc::mmap(fixed.unwrap_or(0) as *mut c_void, len, prot, flags, -1, 0) };
    (p != libc::MAP_FAILED).then_some(p as usize)
}

fn unmap(base: usize, len: usize) {
    // SAFETY: [base, base+len) is a mapping this module made and no longer uses.
    unsafe { libc::munmap(base as *mut c_void, len) };
}

/// `len` bytes (a multiple of CHUNK) with protection `prot` at a CHUNK-aligned address.
fn map_aligned(len: usize, prot: i32) -> Option<usize> {
    let over = len.checked_add(CHUNK)?;
    let raw = map(None, over, prot)?;
    let base = (raw + CHUNK - 1) & !(CHUNK - 1);
    if base > raw {
        unmap(raw, base - raw);
    }
    let tail = raw + over - (base + len);
    if tail > 0 {
        unmap(base + len, tail);
    }
    Some(base)
}

/// Address space reserved for device memory (inaccessible until a chunk is mapped), so
/// that chunks lie next to each other as they do in a GPU's address space, and an access
/// that leaves them faults instead of landing in unrelated host memory.
#[derive(Debug)]
struct Region {
    base: usize,
    chunks: FreeList,
}

impl Region {
    /// Reserves up to `want` bytes, less where the system refuses (`ulimit -v`). The
    /// first chunk is mapped and kept: it stands for the memory a CUDA context holds
    /// ahead of the program's allocations, so that a kernel that reads a row before its
    /// first array (Rodinia's srad_v2 does) reads mapped memory, as on the GPU (seen on
    /// an H100: its first cudaMalloc starts on a 2 MiB boundary, the row before reads).
    fn reserve(want: usize) -> Option<Region> {
        let mut len = round_up(want, CHUNK)?;
        while len >= 4 * CHUNK {
            if let Some(base) = map_aligned(len, libc::PROT_NONE) {
                if map(Some(base), CHUNK, RW).is_none() {
                    unmap(base, len);
                    return None;
                }
                let mut chunks = FreeList::new(len);
                chunks.take(CHUNK)?; // the context's chunk, at the start
                return Some(Region { base, chunks });
            }
            len /= 2;
        }
        None
    }

    fn contains(&self, addr: usize) -> bool {
        addr >= self.base && addr < self.base + self.chunks.total
    }

    fn map(&mut self, len: usize) -> Option<usize> {
        let off = self.chunks.take(len)?;
        match map(Some(self.base + off), len, RW) {
            Some(at) => Some(at),
            None => {
                self.chunks.give(off, len);
                None
            }
        }
    }

    /// Makes chunks inaccessible again; their pages go back to the system.
    fn unmap(&mut self, at: usize, len: usize) {
        if map(Some(at), len, libc::PROT_NONE).is_none() {
            // Could not replace the mapping: keep the chunks out of use rather than
            // hand out memory in an unknown state.
            return;
        }
        self.chunks.give(at - self.base, len);
    }
}

/// Address space reserved for device memory: twice the machine's memory (a program may
/// allocate all of it, and freed runs leave holes), at most 16 TiB.
fn default_region_bytes() -> usize {
    super::total_memory().saturating_mul(2).clamp(64 * CHUNK, 16 << 40)
}

#[derive(Debug)]
pub struct Pool {
    region_bytes: usize,
    /// Reserved on first use; `None` after that where the system refused a reservation
    /// (chunks are then mapped wherever the system puts them).
    region: Option<Option<Region>>,
    /// Chunks that hold sub-allocations, by base address.
    chunks: BTreeMap<usize, FreeList>,
    /// Runs of chunks that each hold one large allocation: base → mapped length.
    runs: BTreeMap<usize, usize>,
}

impl Default for Pool {
    fn default() -> Self {
        Pool::with_region_bytes(default_region_bytes())
    }
}

impl Pool {
    fn with_region_bytes(region_bytes: usize) -> Self {
        Pool { region_bytes, region: None, chunks: BTreeMap::new(), runs: BTreeMap::new() }
    }

    /// Maps a run of `len` bytes of chunks: in the device region while it has room.
    fn map_run(&mut self, len: usize) -> Option<usize> {
        let want = self.region_bytes;
        if let Some(r) = self.region.get_or_insert_with(|| Region::reserve(want)) {
            if let Some(at) = r.map(len) {
                return Some(at);
            }
        }
        map_aligned(len, RW)
    }

    fn unmap_run(&mut self, at: usize, len: usize) {
        crate::ipc::forget_region(at, len);
        match &mut self.region {
            Some(Some(r)) if r.contains(at) => r.unmap(at, len),
            _ => unmap(at, len),
        }
    }

    /// Allocates `size` bytes (256-byte aligned); `None` when no memory can be mapped.
    pub fn alloc(&mut self, size: usize) -> Option<usize> {
        let len = footprint(size)?;
        if len > CHUNK {
            let base = self.map_run(len)?;
            self.runs.insert(base, len);
            return Some(base);
        }
        for (&base, fl) in self.chunks.iter_mut() {
            if let Some(off) = fl.take(len) {
                return Some(base + off);
            }
        }
        let base = self.map_run(CHUNK)?;
        let mut fl = FreeList::new(CHUNK);
        let off = fl.take(len)?;
        self.chunks.insert(base, fl);
        Some(base + off)
    }

    /// Returns an allocation made by `alloc(size)` at `base`. A chunk left empty is
    /// unmapped unless it is the only empty one (kept to spare alloc/free loops the
    /// system calls).
    pub fn free(&mut self, base: usize, size: usize) {
        if let Some(len) = self.runs.remove(&base) {
            self.unmap_run(base, len);
            return;
        }
        let Some(len) = footprint(size) else { return };
        let chunk = base & !(CHUNK - 1);
        let Some(fl) = self.chunks.get_mut(&chunk) else { return };
        fl.give(base - chunk, len);
        if fl.is_empty() && self.chunks.values().filter(|f| f.is_empty()).count() > 1 {
            self.chunks.remove(&chunk);
            self.unmap_run(chunk, CHUNK);
        }
    }

    /// Unmaps every allocation (cudaDeviceReset).
    pub fn release_all(&mut self) {
        for (base, _) in std::mem::take(&mut self.chunks) {
            self.unmap_run(base, CHUNK);
        }
        for (base, len) in std::mem::take(&mut self.runs) {
            self.unmap_run(base, len);
        }
    }

    /// Bytes mapped for allocations.
    #[cfg(test)]
    fn mapped_bytes(&self) -> usize {
        self.chunks.len() * CHUNK + self.runs.values().sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the byte at `addr` can be read, asked of the kernel (a pipe write fails
    /// with EFAULT instead of faulting).
    fn readable(addr: usize) -> bool {
        let mut fds = [0; 2];
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let ok = unsafe { libc::write(fds[1], addr as *const c_void, 1) } == 1;
        unsafe {
            libc::close(fds[0]);
            libc::close(fds[1]);
        }
        ok
    }

    #[test]
    fn footprints() {
        assert_eq!(footprint(0), Some(256));
        assert_eq!(footprint(1), Some(256));
        assert_eq!(footprint(257), Some(512));
        assert_eq!(footprint(CHUNK), Some(CHUNK));
        assert_eq!(footprint(CHUNK + 1), Some(2 * CHUNK));
        assert_eq!(footprint(usize::MAX), None);
    }

    #[test]
    fn free_list_first_fit_and_coalescing() {
        let mut fl = FreeList::new(CHUNK);
        let a = fl.take(256).unwrap();
        let b = fl.take(512).unwrap();
        let c = fl.take(256).unwrap();
        assert_eq!((a, b, c), (0, 256, 768));
        fl.give(b, 512);
        assert_eq!(fl.take(256), Some(256), "first fit reuses the hole");
        fl.give(256, 256);
        fl.give(a, 256);
        fl.give(c, 256);
        assert!(fl.is_empty(), "neighbours coalesce back into one range: {fl:?}");
        assert_eq!(fl.take(CHUNK), Some(0));
        assert_eq!(fl.take(256), None);
    }

    #[test]
    fn small_allocations_share_a_chunk_and_the_memory_around_them_is_mapped() {
        let mut p = Pool::with_region_bytes(16 * CHUNK);
        let a = p.alloc(256 * 256 * 4).unwrap();
        let b = p.alloc(100).unwrap();
        assert_eq!(a % ALIGN, 0);
        assert_eq!(b, a + 256 * 256 * 4, "packed, 256-byte aligned");
        assert_eq!(a & !(CHUNK - 1), b & !(CHUNK - 1), "one chunk");
        assert_eq!(p.mapped_bytes(), CHUNK);
        // A row before the first allocation (the context's chunk) and a row past the
        // last, up to the end of the chunk, are mapped.
        assert!(readable(a - 1024));
        assert!(readable(b + 256 + 1024));
        unsafe { std::ptr::write_volatile((a - 1) as *mut u8, 1) };
        unsafe { std::ptr::write_volatile((a | (CHUNK - 1)) as *mut u8, 7) };
        p.free(a, 256 * 256 * 4);
        let c = p.alloc(1000).unwrap();
        assert_eq!(c, a, "freed memory is reused");
        p.free(b, 100);
        p.free(c, 1000);
        assert_eq!(p.mapped_bytes(), CHUNK, "one empty chunk is kept");
        p.release_all();
        assert_eq!(p.mapped_bytes(), 0);
        assert!(!readable(a), "released chunks are inaccessible");
        assert!(readable(a - 1), "the context's chunk stays");
    }

    #[test]
    fn large_allocations_get_their_own_chunks_next_to_the_others() {
        let mut p = Pool::with_region_bytes(16 * CHUNK);
        let small = p.alloc(64).unwrap();
        let big = p.alloc(CHUNK + 1).unwrap();
        assert_eq!(big % CHUNK, 0);
        assert_eq!(big, (small & !(CHUNK - 1)) + CHUNK, "the next chunks of the region");
        assert_eq!(p.mapped_bytes(), 3 * CHUNK);
        assert!(readable(big + 2 * CHUNK - 1), "the whole rounded-up run is mapped");
        assert!(!readable(big + 2 * CHUNK), "past the last chunk is unmapped");
        p.free(big, CHUNK + 1);
        assert_eq!(p.mapped_bytes(), CHUNK);
        assert!(!readable(big), "a freed run is unmapped");
        let again = p.alloc(3 * CHUNK).unwrap();
        assert_eq!(again, big, "and its chunks are reused");
        p.free(again, 3 * CHUNK);
        p.free(small, 64);
        p.release_all();
    }

    #[test]
    fn full_chunks_spill_into_new_ones_and_empty_ones_are_unmapped() {
        let mut p = Pool::with_region_bytes(16 * CHUNK);
        let half = CHUNK / 2;
        let v: Vec<usize> = (0..5).map(|_| p.alloc(half).unwrap()).collect();
        assert_eq!(p.mapped_bytes(), 3 * CHUNK);
        for &a in &v {
            p.free(a, half);
        }
        assert_eq!(p.mapped_bytes(), CHUNK, "all but one empty chunk unmapped");
        p.release_all();
    }

    #[test]
    fn a_full_region_falls_back_to_chunks_anywhere() {
        let mut p = Pool::with_region_bytes(4 * CHUNK);
        let inside = p.alloc(3 * CHUNK).unwrap();
        let outside = p.alloc(3 * CHUNK).unwrap();
        assert_eq!(outside % CHUNK, 0);
        assert!(outside + 3 * CHUNK <= inside - CHUNK || outside >= inside + 3 * CHUNK);
        unsafe { std::ptr::write_volatile((outside + 3 * CHUNK - 1) as *mut u8, 1) };
        p.free(outside, 3 * CHUNK);
        p.free(inside, 3 * CHUNK);
        p.release_all();
    }
}
