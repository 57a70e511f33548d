//! Mipmapped arrays: a chain of CUDA arrays, level `l` of extent `max(1, n >> l)` on each
//! dimension that has one (layers and cubemap faces are not halved). Levels are ordinary
//! registered arrays (copies, surfaces and `cudaArrayGetInfo` take them) owned by their
//! mipmapped array: only `cudaFreeMipmappedArray` frees them.

use super::array::{self, Array, CUBEMAP, LAYERED};
use super::format::ChannelDesc;
use crate::error::{self, Result};
use std::collections::HashSet;
use std::sync::Mutex;

pub struct MipmappedArray {
    pub desc: ChannelDesc,
    pub levels: Vec<*mut Array>,
}

/// The number of levels allocated for `requested`: clamped to
/// [1, 1 + floor(log2(largest mipmapped dimension))], as the driver API documents.
pub fn level_count(width: usize, height: usize, depth: usize, flags: u32, requested: u32) -> usize {
    let layered = flags & (LAYERED | CUBEMAP) != 0;
    let largest = width.max(height).max(if layered { 0 } else { depth }).max(1);
    let most = 1 + largest.ilog2() as usize;
    (requested as usize).clamp(1, most)
}

/// `n` halved `level` times, at least 1; 0 (an absent dimension) stays 0.
pub fn level_extent(n: usize, level: usize) -> usize {
    if n == 0 {
        0
    } else {
        (n >> level.min(63)).max(1)
    }
}

impl MipmappedArray {
    pub fn new(desc: ChannelDesc, width: usize, height: usize, depth: usize, flags: u32, requested: u32) -> Result<MipmappedArray> {
        if width == 0 {
            return Err(error::INVALID_VALUE);
        }
        let layered = flags & (LAYERED | CUBEMAP) != 0;
        let n = level_count(width, height, depth, flags, requested);
        let mut levels = Vec::with_capacity(n);
        for l in 0..n {
            let d = if layered { depth } else { level_extent(depth, l) };
            match Array::new(desc, level_extent(width, l), level_extent(height, l), d, flags) {
                Ok(mut a) => {
                    a.mip_level = true;
                    levels.push(array::register(Box::new(a)));
                }
                Err(e) => {
                    for p in levels {
                        let _ = array::release(p);
                    }
                    return Err(e);
                }
            }
        }
        Ok(MipmappedArray { desc, levels })
    }
}

/// Live mipmapped arrays by address, so that handles can be checked.
static LIVE: Mutex<Option<HashSet<usize>>> = Mutex::new(None);

pub fn register(m: Box<MipmappedArray>) -> *mut MipmappedArray {
    let p = Box::into_raw(m);
    let mut g = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    g.get_or_insert_with(HashSet::new).insert(p as usize);
    p
}

/// The mipmapped array behind a handle: cudaErrorInvalidResourceHandle for null or
/// unknown ones.
pub fn get<'a>(p: *const MipmappedArray) -> Result<&'a MipmappedArray> {
    let g = LIVE.lock().unwrap_or_else(|e| e.into_inner());
    if p.is_null() || !g.as_ref().is_some_and(|s| s.contains(&(p as usize))) {
        return Err(error::INVALID_RESOURCE_HANDLE);
    }
    // Freed only by `release`, which the caller orders after all users.
    Ok(unsafe { &*p })
}

/// Frees a mipmapped array and its levels.
pub fn release(p: *mut MipmappedArray) -> Result<()> {
    {
        let mut g = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        if !g.as_mut().is_some_and(|s| s.remove(&(p as usize))) {
            return Err(error::INVALID_VALUE);
        }
    }
    crate::gpu::texture::forget_mipmapped(p);
    let m = unsafe { Box::from_raw(p) };
    for l in m.levels {
        array::release(l)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_counts_are_clamped_to_the_chain() {
        assert_eq!(level_count(16, 8, 0, 0, 5), 5);
        assert_eq!(level_count(16, 8, 0, 0, 0), 1);
        assert_eq!(level_count(16, 8, 0, 0, 9), 5);
        assert_eq!(level_count(12, 5, 0, 0, 9), 4);
        assert_eq!(level_count(8, 4, 32, 0, 9), 6);
        assert_eq!(level_count(8, 8, 32, LAYERED, 9), 4);
        assert_eq!(level_count(1, 0, 0, 0, 3), 1);
    }

    #[test]
    fn level_extents_halve_down_to_one() {
        let e: Vec<usize> = (0..5).map(|l| level_extent(12, l)).collect();
        assert_eq!(e, [12, 6, 3, 1, 1]);
        assert_eq!(level_extent(0, 3), 0);
    }
}
