//! racecheck's shadow of global memory: per allocation, a dense array of 16-byte cells,
//! one per 4-byte word, holding the word's last write (launch, block, thread, stamp,
//! barrier epoch, site). Made on an allocation's first checked write, so memory that kernels only
//! read costs nothing; written memory costs four times its size. Reads check against it
//! (RAW); the cells are two atomic words each, updated without a lock (a torn cell can
//! only come from two unordered writes to one word, which is a race anyway).

use super::Site;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};

/// A word's last write, unpacked.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Write {
    pub launch: u32,
    pub block: u32,
    pub tid: u32,
    pub epoch: u32,
    /// The writer's stamp (`global_order.rs`).
    pub stamp: u32,
    pub site: u32,
}

struct Shadow {
    base: usize,
    cells: Box<[[AtomicU64; 2]]>,
}

fn allocations() -> &'static RwLock<BTreeMap<usize, Arc<Shadow>>> {
    static A: std::sync::OnceLock<RwLock<BTreeMap<usize, Arc<Shadow>>>> = std::sync::OnceLock::new();
    A.get_or_init(Default::default)
}

/// Shadows made so far: a thread's "no shadow here" holds while this is unchanged.
static MADE: AtomicU64 = AtomicU64::new(0);

/// What a thread found for an allocation: its shadow, or none as of `MADE`.
enum Seen {
    Shadow(Arc<Shadow>),
    None { base: usize, made: u64 },
}

thread_local! {
    /// The allocations this thread looked up last, with the allocation generation they
    /// were found in (valid while nothing has been freed): no lock and no shared
    /// reference count on the hot path.
    static RECENT: std::cell::RefCell<(u64, Vec<Seen>)> = const { std::cell::RefCell::new((0, Vec::new())) };
}

/// Runs `f` on the shadow of the allocation at `base` (made when `create`).
fn with_shadow<R>(base: usize, size: usize, create: bool, f: impl FnOnce(&Shadow) -> R) -> Option<R> {
    let gen = crate::memory::generation();
    let words = size.div_ceil(4);
    let mut f = Some(f);
    let cached = RECENT
        .try_with(|r| {
            let r = r.borrow();
            if r.0 != gen {
                return None;
            }
            r.1.iter().find_map(|seen| match seen {
                Seen::Shadow(s) if s.base == base && s.cells.len() == words => Some(Some((f.take()?)(s))),
                Seen::None { base: b, made } if *b == base && !create && *made == MADE.load(Ordering::Acquire) => Some(None),
                _ => None,
            })
        })
        .ok()
        .flatten();
    if let Some(result) = cached {
        return result;
    }
    let made = MADE.load(Ordering::Acquire);
    let found = shadow_of_locked(base, size, create);
    let _ = RECENT.try_with(|r| {
        let mut r = r.borrow_mut();
        if r.0 != gen {
            *r = (gen, Vec::new());
        }
        r.1.retain(|seen| !matches!(seen, Seen::Shadow(s) if s.base == base) && !matches!(seen, Seen::None { base: b, .. } if *b == base));
        if r.1.len() >= 4 {
            r.1.remove(0);
        }
        r.1.push(match &found {
            Some(s) => Seen::Shadow(s.clone()),
            None => Seen::None { base, made },
        });
    });
    found.map(|s| (f.take().unwrap())(&s))
}

fn shadow_of_locked(base: usize, size: usize, create: bool) -> Option<Arc<Shadow>> {
    if let Some(s) = allocations().read().unwrap_or_else(|p| p.into_inner()).get(&base) {
        if s.cells.len() == size.div_ceil(4) {
            return Some(s.clone());
        }
    }
    if !create {
        return None;
    }
    let mut w = allocations().write().unwrap_or_else(|p| p.into_inner());
    let words = size.div_ceil(4);
    let fresh = || {
        MADE.fetch_add(1, Ordering::AcqRel);
        // Read windows saying "no shadow" (or naming a freed one's cells) are stale now.
        super::bump_epoch();
        Arc::new(Shadow { base, cells: (0..words).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect() })
    };
    let s = w.entry(base).or_insert_with(fresh);
    if s.cells.len() != words {
        // A new allocation at the base of a freed one.
        *s = fresh();
    }
    Some(s.clone())
}

/// The second word: thread (11 bits: a block has at most 1,024), stamp (17 bits),
/// barrier epoch (16 bits, wrapping), site (20 bits).
fn pack(w: &Write) -> [u64; 2] {
    [
        (w.launch as u64) << 32 | w.block as u64,
        (w.tid as u64 & 0x7ff) << 53 | (w.stamp as u64 & 0x1ffff) << 36 | (w.epoch as u64 & 0xffff) << 20 | (w.site as u64 & 0xfffff),
    ]
}

fn unpack(c: [u64; 2]) -> Write {
    Write {
        launch: (c[0] >> 32) as u32,
        block: c[0] as u32,
        tid: (c[1] >> 53) as u32,
        stamp: ((c[1] >> 36) & 0x1ffff) as u32,
        epoch: ((c[1] >> 20) & 0xffff) as u32,
        site: (c[1] & 0xfffff) as u32,
    }
}

/// The allocation at `base` was freed.
pub fn forget(base: usize) {
    allocations().write().unwrap_or_else(|p| p.into_inner()).remove(&base);
}

/// The address of the allocation's cells (16 bytes per word, `pack`'s layout, which the
/// inlined fast path reads: cuprite_abi.h), or 0 while it has no shadow.
pub fn cells_address(base: usize, size: usize) -> usize {
    with_shadow(base, size, false, |s| s.cells.as_ptr() as usize).unwrap_or(0)
}

/// Records a write of `[addr, addr + len)` in the allocation at `base`.
pub fn write(base: usize, size: usize, addr: usize, len: usize, w: &Write) {
    let p = pack(w);
    with_shadow(base, size, true, |s| {
        for word in (addr - s.base) / 4..((addr + len - s.base).div_ceil(4)).min(s.cells.len()) {
            s.cells[word][0].store(p[0], Ordering::Relaxed);
            s.cells[word][1].store(p[1], Ordering::Relaxed);
        }
    });
}

/// The last writes of the words `[addr, addr + len)` covers, in the launch `launch`.
pub fn writes(base: usize, size: usize, addr: usize, len: usize, launch: u32) -> Vec<Write> {
    with_shadow(base, size, false, |s| {
        let mut out: Vec<Write> = Vec::new();
        for word in (addr - s.base) / 4..((addr + len - s.base).div_ceil(4)).min(s.cells.len()) {
            let w = unpack([s.cells[word][0].load(Ordering::Relaxed), s.cells[word][1].load(Ordering::Relaxed)]);
            if w.launch == launch && !out.contains(&w) {
                out.push(w);
            }
        }
        out
    })
    .unwrap_or_default()
}

/// Sites as small numbers, for the cells (interned once per thread and site).
pub fn site_id(site: &Site) -> u32 {
    thread_local! {
        static LOCAL: std::cell::RefCell<HashMap<(usize, usize, u32), u32>> = std::cell::RefCell::new(HashMap::new());
    }
    thread_local! {
        /// The site asked last: a kernel's writes come from a few sites in turn.
        static LAST: std::cell::Cell<((usize, usize, u32), u32)> = const { std::cell::Cell::new(((0, 0, 0), 0)) };
    }
    let key = site.key();
    if let Ok(Some(id)) = LAST.try_with(|l| (l.get().0 == key).then_some(l.get().1)) {
        return id;
    }
    if let Ok(Some(id)) = LOCAL.try_with(|l| l.borrow().get(&key).copied()) {
        let _ = LAST.try_with(|l| l.set((key, id)));
        return id;
    }
    let id = {
        let mut all = sites().lock().unwrap_or_else(|p| p.into_inner());
        match all.iter().position(|s| s.key() == key) {
            Some(i) => i as u32,
            None => {
                all.push(SendSite(*site));
                (all.len() - 1) as u32
            }
        }
    };
    let _ = LOCAL.try_with(|l| l.borrow_mut().insert(key, id));
    let _ = LAST.try_with(|l| l.set((key, id)));
    id
}

pub fn site(id: u32) -> Site {
    sites().lock().unwrap_or_else(|p| p.into_inner())[id as usize].0
}

struct SendSite(Site);
// Sites point at string literals of the generated code, alive for the whole program.
unsafe impl Send for SendSite {}
impl SendSite {
    fn key(&self) -> (usize, usize, u32) {
        self.0.key()
    }
}

fn sites() -> &'static Mutex<Vec<SendSite>> {
    static S: std::sync::OnceLock<Mutex<Vec<SendSite>>> = std::sync::OnceLock::new();
    S.get_or_init(Default::default)
}
