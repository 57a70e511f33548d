//! memcheck: which memory an address is, and whether an access to it is valid.
//!
//! Global memory is checked per allocation (the runtime's allocation tracker, device
//! variables, the device heap), not per page: an access one byte past an allocation is
//! reported even where the 2 MiB chunk behind it is mapped. Shared memory is checked
//! against the block's window (static variables and the launch's dynamic size); local
//! memory against the running thread's stack and per-thread slots; code and constant
//! data the compiler made (string literals, tables) against the loaded images.

use super::report::{grouped, line};
use super::{Access, RunContext, Thread};
use crate::memory::{self, Kind};

/// Where an address lies.
#[derive(Clone, Copy, Debug)]
pub enum Space {
    /// In a tracked allocation (`kind` None: a device variable or a device-heap block).
    Global { base: usize, size: usize, kind: Option<Kind> },
    /// In the block's shared memory, at this offset.
    Shared { offset: usize },
    /// The thread's stack or per-thread slots.
    Local,
    /// Static data of a loaded image (constants the compiler made).
    Static,
    /// Nowhere the device may access.
    Unknown,
}

/// Classifies `[addr, addr + 1)`: the access's first byte says which space it is in.
pub fn classify(addr: usize, _len: usize, run: &RunContext) -> Space {
    if addr >= run.shared && addr < run.shared + run.shared_bytes.max(1) && run.shared_bytes > 0 {
        return Space::Shared { offset: addr - run.shared };
    }
    if run.slot_bytes > 0 && addr >= run.slots && addr < run.slots + run.slot_bytes {
        return Space::Local;
    }
    if on_this_stack(addr) {
        return Space::Local;
    }
    // Most accesses fall in the allocation the thread touched last: look there first,
    // without the tracker's lock (valid while no allocation has gone away since).
    let gen = memory::generation();
    let hit = LAST.try_with(|c| c.get().into_iter().flatten().find(|h| h.0 == gen && addr >= h.1 && addr < h.1 + h.2)).ok().flatten();
    if let Some(hit) = hit {
        return Space::Global { base: hit.1, size: hit.2, kind: Some(hit.3) };
    }
    if let Some(a) = memory::lookup(addr as *const _) {
        let _ = LAST.try_with(|c| {
            let mut v = c.get();
            v.rotate_right(1);
            v[0] = Some((gen, a.base, a.size.max(1), a.kind));
            c.set(v);
        });
        return Space::Global { base: a.base, size: a.size, kind: Some(a.kind) };
    }
    if let Some(v) = crate::registry::var_containing(addr, 1) {
        return Space::Global { base: v.device_addr, size: v.size as usize, kind: None };
    }
    if let Some((base, size)) = memory::heap_block_containing(addr) {
        return Space::Global { base, size, kind: None };
    }
    if in_loaded_image(addr) {
        return Space::Static;
    }
    Space::Unknown
}

thread_local! {
    /// (allocation generation, base, size, kind) of the last allocations found (kernels
    /// read and write a few arrays in turn).
    static LAST: std::cell::Cell<[Option<(u64, usize, usize, Kind)>; 4]> = const { std::cell::Cell::new([None; 4]) };
}

fn on_this_stack(addr: usize) -> bool {
    thread_local! {
        static STACK: (usize, usize) = stack_bounds();
    }
    STACK.try_with(|&(lo, hi)| addr >= lo && addr < hi).unwrap_or(false)
}

fn stack_bounds() -> (usize, usize) {
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return (0, 0);
        }
        let mut base: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let ok = libc::pthread_attr_getstack(&attr, &mut base, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        if ok {
            (base as usize, base as usize + size)
        } else {
            (0, 0)
        }
    }
}

fn in_loaded_image(addr: usize) -> bool {
    let mut info: libc::Dl_info = unsafe { std::mem::zeroed() };
    unsafe { libc::dladdr(addr as *const libc::c_void, &mut info) != 0 }
}

/// Why an access is invalid.
#[derive(Clone, Copy, Debug)]
pub enum Bad {
    OutOfBounds,
    Misaligned,
}

pub fn check(addr: usize, len: usize, align: usize, _kind: Access, space: &Space) -> Option<Bad> {
    if align > 1 && addr % align != 0 {
        return Some(Bad::Misaligned);
    }
    match *space {
        Space::Global { base, size, .. } if addr + len > base + size => Some(Bad::OutOfBounds),
        Space::Unknown => Some(Bad::OutOfBounds),
        _ => None,
    }
}

fn space_name(space: &Space) -> &'static str {
    match space {
        Space::Shared { .. } => "__shared__",
        Space::Local => "__local__",
        _ => "__global__",
    }
}

/// Reports an invalid access as compute-sanitizer does.
pub fn report(bad: &Bad, addr: usize, bytes: u32, kind: Access, at: &Thread) {
    let space = classify(addr, bytes as usize, &at.run);
    // An access past the shared window is a shared access that went out of bounds.
    let shared_past_end = at.run.shared_bytes > 0 && addr >= at.run.shared && addr < at.run.shared + at.run.shared_bytes + 64 * 1024;
    let (space_text, shown) = match space {
        Space::Shared { offset } => ("__shared__", format!("{offset:#x}")),
        Space::Unknown if shared_past_end => ("__shared__", format!("{:#x}", addr - at.run.shared)),
        _ => (space_name(&space), format!("{addr:#x}")),
    };
    let what = match kind {
        Access::Read => "read",
        Access::Write => "write",
        Access::Atomic => "atomic",
    };
    line(&format!("Invalid {space_text} {what} of size {bytes} bytes"));
    line(&format!("    at {} in {}", at.site.function(), at.site.place()));
    line(&format!("    {}", at.coords()));
    let why = match bad {
        Bad::OutOfBounds => "out of bounds",
        Bad::Misaligned => "misaligned",
    };
    line(&format!("    Access to {shown} is {why}"));
    if space_text == "__global__" {
        if let Some(near) = nearest(addr, &space) {
            line(&format!("    {near}"));
        }
    }
    line("");
}

/// "and is 1 bytes after the nearest allocation at 0x… of size 4,000 bytes".
fn nearest(addr: usize, space: &Space) -> Option<String> {
    if let Space::Global { base, size, .. } = *space {
        if addr < base + size {
            return Some(format!("and is inside the nearest allocation at {base:#x} of size {} bytes", grouped(size as u64)));
        }
    }
    let (before, after) = memory::neighbours(addr);
    let dist_after = before.map(|a| (addr + 1).saturating_sub(a.base + a.size));
    let dist_before = after.map(|a| a.base - addr);
    match (before, dist_after, after, dist_before) {
        (Some(b), Some(da), a, db) if db.is_none_or(|db| da <= db) || a.is_none() => {
            Some(format!("and is {} bytes after the nearest allocation at {:#x} of size {} bytes", grouped(da as u64), b.base, grouped(b.size as u64)))
        }
        (_, _, Some(a), Some(db)) => {
            Some(format!("and is {} bytes before the nearest allocation at {:#x} of size {} bytes", grouped(db as u64), a.base, grouped(a.size as u64)))
        }
        _ => None,
    }
}

/// `--leak-check full`: every device allocation still live at exit.
pub fn report_leaks() {
    let live: Vec<_> = memory::live_allocations().into_iter().filter(|a| matches!(a.kind, Kind::Device | Kind::Managed)).collect();
    let mut total = 0u64;
    for a in &live {
        total += a.size as u64;
        if super::count_error() {
            line(&format!("Leaked {} bytes at {:#x}", grouped(a.size as u64), a.base));
            line("");
        }
    }
    line(&format!("LEAK SUMMARY: {total} bytes leaked in {} allocations", live.len()));
}
