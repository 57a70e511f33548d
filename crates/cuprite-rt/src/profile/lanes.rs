//! Putting the lanes of a warp back together. Checked device code runs a block's threads
//! one after another, so the profiler and synccheck see each lane's events separately;
//! the k-th time a lane runs an instruction (its `site`) is matched with the k-th time
//! every other lane of its warp runs it. That is how SIMT hardware runs them in the
//! common case: lanes that branch apart meet again after the branch, and a loop's k-th
//! iteration is one warp-level instruction for every lane that makes it.

use std::collections::HashMap;

/// A block, unique within the process: (launch, block x, y, z).
pub type BlockKey = (u64, u32, u32, u32);
/// An instruction: (its function's symbol string address, its number in the object).
pub type SiteKey = (usize, u32);
/// One warp-level instance: (warp, site, occurrence).
pub type InstanceKey = (u32, SiteKey, u32);

/// The open warp-level instances of the block a worker is running.
pub struct WarpInstances<G> {
    block: Option<BlockKey>,
    occurrences: HashMap<(SiteKey, u32), u32>,
    open: HashMap<InstanceKey, (u32, G)>,
}

impl<G: Default> Default for WarpInstances<G> {
    fn default() -> Self {
        WarpInstances { block: None, occurrences: HashMap::new(), open: HashMap::new() }
    }
}

impl<G: Default> WarpInstances<G> {
    /// Moves on to `block`; the instances still open in the previous one (lanes that
    /// never came) are handed back.
    pub fn enter(&mut self, block: BlockKey) -> Vec<(InstanceKey, u32, G)> {
        if self.block == Some(block) {
            return Vec::new();
        }
        self.block = Some(block);
        self.drain()
    }

    /// Everything still open, and forgets the block.
    pub fn drain(&mut self) -> Vec<(InstanceKey, u32, G)> {
        self.occurrences.clear();
        let mut v: Vec<_> = self.open.drain().map(|(k, (lanes, g))| (k, lanes, g)).collect();
        v.sort_by_key(|(k, _, _)| (k.0, k.1, k.2));
        v
    }

    pub fn leave(&mut self) -> Vec<(InstanceKey, u32, G)> {
        self.block = None;
        self.drain()
    }

    /// Lane `linear` (its index in the block) runs `site`: its instance, and the lanes
    /// (bit per lane of the warp) that have arrived there so far, this one included.
    pub fn arrive(&mut self, site: SiteKey, linear: u32) -> (InstanceKey, u32, &mut G) {
        let occ = self.occurrences.entry((site, linear)).or_insert(0);
        let key = (linear / 32, site, *occ);
        *occ += 1;
        let e = self.open.entry(key).or_default();
        e.0 |= 1 << (linear % 32);
        (key, e.0, &mut e.1)
    }

    pub fn take(&mut self, key: InstanceKey) -> Option<G> {
        self.open.remove(&key).map(|(_, g)| g)
    }
}

/// The lanes of warp `warp` that exist in a block of `threads` threads.
pub fn warp_lanes(warp: u32, threads: u32) -> u32 {
    let n = threads.saturating_sub(warp * 32).min(32);
    if n == 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kth_run_of_a_site_by_each_lane_is_one_instance() {
        let mut w: WarpInstances<Vec<u32>> = WarpInstances::default();
        assert!(w.enter((1, 0, 0, 0)).is_empty());
        // Lane 0 runs the site twice (a loop), then lane 1 twice.
        for lane in 0..2 {
            for _ in 0..2 {
                let (_, _, g) = w.arrive((7, 3), lane);
                g.push(lane);
            }
        }
        let (k, lanes, g) = w.arrive((7, 3), 33);
        assert_eq!((k.0, lanes), (1, 2));
        g.push(33);
        let open = w.enter((1, 1, 0, 0));
        assert_eq!(open.len(), 3);
        assert_eq!(open[0], ((0, (7, 3), 0), 0b11, vec![0, 1]));
        assert_eq!(open[1], ((0, (7, 3), 1), 0b11, vec![0, 1]));
        assert_eq!(warp_lanes(1, 48), 0xffff);
        assert_eq!(warp_lanes(0, 48), u32::MAX);
    }
}
