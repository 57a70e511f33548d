//! racecheck's order between lanes of one warp: what `__syncwarp` (and a tile's
//! `sync()`) orders.
//!
//! Since Volta, lanes of a warp run independently: two accesses by lanes of one warp are
//! ordered only by a `__syncwarp` both lanes took part in between them (the block's
//! barrier count orders the rest, `racecheck.rs`). Shuffles, votes and the other `*_sync`
//! collectives exchange registers but do not order memory: compute-sanitizer reports the
//! hazards across a `__shfl_xor_sync` (tests/sanitize/warp_exchange_shfl.cu). Each lane
//! keeps a vector clock over its warp: `clock[a]` is how many `__syncwarp`s lane `a` had
//! joined when this lane last synchronised with it (directly or through others), its own
//! entry its own count. A lane joins when its mask names it (a lane not in its own mask,
//! which synccheck reports, synchronises with no one); the lanes at one `__syncwarp` are
//! the k-th arrivals of their lanes at that site with the same mask (lanes run one after
//! another in the general form, and the scheduler lets the lanes parked at a collective
//! go on together, so a lane's next access comes after every other lane's arrival).
//! An access made by lane `a` at own count `w` is ordered before lane `b`'s later access
//! exactly when `b.clock[a] > w`. Nothing here depends on the order the lanes ran in.

use std::collections::HashMap;

/// A collective instance: site (function symbol, site number), occurrence, mask.
type Meeting = ((usize, u32), u32, u32);

#[derive(Default)]
struct Lane {
    clock: [u32; 32],
    /// The collective this lane joined and has not yet learnt the others' clocks from.
    pending: Option<Meeting>,
    /// How many times this lane reached each collective site.
    arrivals: HashMap<(usize, u32), u32>,
}

struct Group {
    clock: [u32; 32],
    /// Joined lanes that have not yet taken the merged clock.
    waiting: u32,
}

/// One warp's clocks (made at the warp's first collective; until then all zero).
#[derive(Default)]
pub struct WarpClocks {
    lanes: Vec<Lane>,
    groups: HashMap<Meeting, Group>,
}

impl WarpClocks {
    fn lane(&mut self, lane: u32) -> &mut Lane {
        let l = lane as usize;
        if self.lanes.len() <= l {
            self.lanes.resize_with(l + 1, Lane::default);
        }
        &mut self.lanes[l]
    }

    /// Lane `lane` takes what the lanes it met at its last collective knew.
    fn settle(&mut self, lane: u32) {
        let Some(meeting) = self.lane(lane).pending.take() else { return };
        let Some(g) = self.groups.get_mut(&meeting) else { return };
        let merged = g.clock;
        g.waiting -= 1;
        if g.waiting == 0 {
            self.groups.remove(&meeting);
        }
        let own = self.lane(lane);
        for (c, m) in own.clock.iter_mut().zip(merged) {
            *c = (*c).max(m);
        }
    }

    /// Lane `lane` reaches the collective at `site` with member mask `mask`.
    pub fn arrive(&mut self, lane: u32, site: (usize, u32), mask: u32) {
        self.settle(lane);
        let l = self.lane(lane);
        let n = l.arrivals.entry(site).or_insert(0);
        let occurrence = *n;
        *n += 1;
        if mask & (1 << lane) == 0 {
            return;
        }
        l.clock[lane as usize] += 1;
        let clock = l.clock;
        let meeting = (site, occurrence, mask);
        l.pending = Some(meeting);
        let g = self.groups.entry(meeting).or_insert(Group { clock: [0; 32], waiting: 0 });
        g.waiting += 1;
        for (c, m) in g.clock.iter_mut().zip(clock) {
            *c = (*c).max(m);
        }
    }

    /// Lane `lane`'s clock as of now (for an access it is about to make).
    pub fn clock(&mut self, lane: u32) -> [u32; 32] {
        self.settle(lane);
        self.lane(lane).clock
    }
}

/// Whether an access lane `a` made at own count `w` is ordered before an access by the
/// lane whose clock is `later`.
pub fn ordered(a: u32, w: u32, later: &[u32; 32]) -> bool {
    later[a as usize] > w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_syncwarp_orders_every_lane() {
        let mut w = WarpClocks::default();
        let before: Vec<u32> = (0..32).map(|l| w.clock(l)[l as usize]).collect();
        for l in 0..32 {
            w.arrive(l, (1, 7), u32::MAX);
        }
        for l in 0..32 {
            let c = w.clock(l);
            assert!((0..32).all(|a| ordered(a, before[a as usize], &c)), "lane {l}");
        }
    }

    #[test]
    fn partial_masks_order_only_their_lanes() {
        let mut w = WarpClocks::default();
        // Every lane calls __syncwarp(0xffff): lanes 16-31 are not in their own mask.
        for l in 0..32 {
            w.arrive(l, (1, 7), 0xffff);
        }
        let c0 = w.clock(0);
        let c16 = w.clock(16);
        assert!(ordered(1, 0, &c0));
        assert!(!ordered(16, 0, &c0));
        assert!(!ordered(17, 0, &c16));
        // Lanes that never arrive (exited) are not ordered with those that did.
        let mut w = WarpClocks::default();
        for l in 0..16 {
            w.arrive(l, (1, 9), u32::MAX);
        }
        let c0 = w.clock(0);
        assert!(ordered(15, 0, &c0) && !ordered(16, 0, &c0));
    }

    #[test]
    fn accesses_after_the_collective_are_unordered_until_the_next() {
        let mut w = WarpClocks::default();
        for round in 0..3 {
            for l in 0..32 {
                w.arrive(l, (1, 3), u32::MAX);
            }
            let c = w.clock(5);
            let own_of_6 = w.clock(6)[6];
            assert_eq!(own_of_6, round + 1);
            // Lane 6's accesses after this collective (own count round + 1) are not
            // ordered before lane 5's.
            assert!(!ordered(6, own_of_6, &c));
            assert!(ordered(6, own_of_6 - 1, &c));
        }
    }
}
