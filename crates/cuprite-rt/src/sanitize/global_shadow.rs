//! racecheck's shadow of global memory: per allocation, a dense array of 16-byte cells,
//! one per 4-byte word, holding the word's last write (launch, block, thread, barrier
//! epoch, site). Made on an allocation's first checked write, so memory that kernels only
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

fn shadow_of(base: usize, size: usize, create: bool) -> Option<Arc<Shadow>> {
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
    let fresh = || Arc::new(Shadow { base, cells: (0..words).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]).collect() });
    let s = w.entry(base).or_insert_with(fresh);
    if s.cells.len() != words {
        // A new allocation at the base of a freed one.
        *s = fresh();
    }
    Some(s.clone())
}

fn pack(w: &Write) -> [u64; 2] {
    [(w.launch as u64) << 32 | w.block as u64, (w.tid as u64) << 48 | (w.epoch as u64 & 0xffff) << 32 | w.site as u64]
}

fn unpack(c: [u64; 2]) -> Write {
    Write { launch: (c[0] >> 32) as u32, block: c[0] as u32, tid: (c[1] >> 48) as u32, epoch: ((c[1] >> 32) & 0xffff) as u32, site: c[1] as u32 }
}

/// The allocation at `base` was freed.
pub fn forget(base: usize) {
    allocations().write().unwrap_or_else(|p| p.into_inner()).remove(&base);
}

/// Records a write of `[addr, addr + len)` in the allocation at `base`.
pub fn write(base: usize, size: usize, addr: usize, len: usize, w: &Write) {
    let Some(s) = shadow_of(base, size, true) else { return };
    let p = pack(w);
    for word in (addr - s.base) / 4..((addr + len - s.base).div_ceil(4)).min(s.cells.len()) {
        s.cells[word][0].store(p[0], Ordering::Relaxed);
        s.cells[word][1].store(p[1], Ordering::Relaxed);
    }
}

/// The last writes of the words `[addr, addr + len)` covers, in the launch `launch`.
pub fn writes(base: usize, size: usize, addr: usize, len: usize, launch: u32) -> Vec<Write> {
    let Some(s) = shadow_of(base, size, false) else { return Vec::new() };
    let mut out: Vec<Write> = Vec::new();
    for word in (addr - s.base) / 4..((addr + len - s.base).div_ceil(4)).min(s.cells.len()) {
        let w = unpack([s.cells[word][0].load(Ordering::Relaxed), s.cells[word][1].load(Ordering::Relaxed)]);
        if w.launch == launch && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// Sites as small numbers, for the cells (interned once per thread and site).
pub fn site_id(site: &Site) -> u32 {
    thread_local! {
        static LOCAL: std::cell::RefCell<HashMap<(usize, usize, u32), u32>> = std::cell::RefCell::new(HashMap::new());
    }
    let key = site.key();
    if let Ok(Some(id)) = LOCAL.try_with(|l| l.borrow().get(&key).copied()) {
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
