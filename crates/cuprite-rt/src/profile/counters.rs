//! The memory counters of one warp-level access, as Nsight Compute counts them on sm_70+
//! (checked against ncu on an H100: crates/cuprite/tests/profile.rs).
//!
//! - Global memory: one request per warp-level load or store instruction (a `float4`
//!   access too), and the 32-byte sectors its active lanes touch, each counted once.
//! - Shared memory: 32 banks of 4-byte words. A wavefront serves, in each bank, one word;
//!   the lanes reading one word share it (a broadcast is no conflict). Wavefronts are the
//!   most distinct words any one bank holds; an access needs at least one wavefront per
//!   128 bytes its lanes move, and the conflicts are the wavefronts beyond that.

use std::collections::{HashMap, HashSet};

/// The counters of a kernel, summed over its launches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    pub global_ld_requests: u64,
    pub global_ld_sectors: u64,
    pub global_st_requests: u64,
    pub global_st_sectors: u64,
    pub shared_ld_requests: u64,
    pub shared_ld_wavefronts: u64,
    pub shared_ld_conflicts: u64,
    pub shared_st_requests: u64,
    pub shared_st_wavefronts: u64,
    pub shared_st_conflicts: u64,
    /// Warp-level conditional branches of the source, and those whose lanes went both ways.
    pub branches: u64,
    pub divergent_branches: u64,
}

impl Counters {
    pub fn add(&mut self, o: &Counters) {
        self.global_ld_requests += o.global_ld_requests;
        self.global_ld_sectors += o.global_ld_sectors;
        self.global_st_requests += o.global_st_requests;
        self.global_st_sectors += o.global_st_sectors;
        self.shared_ld_requests += o.shared_ld_requests;
        self.shared_ld_wavefronts += o.shared_ld_wavefronts;
        self.shared_ld_conflicts += o.shared_ld_conflicts;
        self.shared_st_requests += o.shared_st_requests;
        self.shared_st_wavefronts += o.shared_st_wavefronts;
        self.shared_st_conflicts += o.shared_st_conflicts;
        self.branches += o.branches;
        self.divergent_branches += o.divergent_branches;
    }
}

/// Distinct 32-byte sectors touched by accesses of `bytes` bytes at `addrs`.
pub fn sectors(addrs: &[usize], bytes: usize) -> u64 {
    let mut s: HashSet<usize> = HashSet::with_capacity(addrs.len() * 2);
    for &a in addrs {
        for sec in (a >> 5)..=((a + bytes.max(1) - 1) >> 5) {
            s.insert(sec);
        }
    }
    s.len() as u64
}

/// (wavefronts, bank conflicts) of a shared-memory access of `bytes` bytes by each lane
/// at `addrs` (addresses relative to anything 128-byte aligned, e.g. the window).
pub fn shared_wavefronts(addrs: &[usize], bytes: usize) -> (u64, u64) {
    let mut words: HashSet<usize> = HashSet::with_capacity(addrs.len() * 4);
    for &a in addrs {
        for w in (a >> 2)..=((a + bytes.max(1) - 1) >> 2) {
            words.insert(w);
        }
    }
    let mut per_bank: HashMap<usize, u64> = HashMap::new();
    for w in &words {
        *per_bank.entry(w % 32).or_default() += 1;
    }
    let wavefronts = per_bank.values().copied().max().unwrap_or(1).max(1);
    let ideal = ((addrs.len() * bytes) as u64).div_ceil(128).max(1);
    (wavefronts, wavefronts.saturating_sub(ideal))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(f: impl Fn(usize) -> usize) -> Vec<usize> {
        (0..32).map(f).collect()
    }

    #[test]
    fn sectors_of_common_patterns() {
        assert_eq!(sectors(&lanes(|l| 4 * l), 4), 4);
        assert_eq!(sectors(&lanes(|l| 4 * l + 4), 4), 5);
        assert_eq!(sectors(&lanes(|l| 8 * l), 4), 8);
        assert_eq!(sectors(&lanes(|l| 132 * l), 4), 32);
        assert_eq!(sectors(&lanes(|l| 16 * l), 16), 16);
        assert_eq!(sectors(&lanes(|l| l), 1), 1);
    }

    #[test]
    fn bank_conflicts_of_common_patterns() {
        // Consecutive words, a broadcast: no conflict.
        assert_eq!(shared_wavefronts(&lanes(|l| 4 * l), 4), (1, 0));
        assert_eq!(shared_wavefronts(&lanes(|_| 0), 4), (1, 0));
        // A column of a 32×32 float tile: 32-way; of a 32×33 one: none.
        assert_eq!(shared_wavefronts(&lanes(|l| 128 * l), 4), (32, 31));
        assert_eq!(shared_wavefronts(&lanes(|l| 132 * l), 4), (1, 0));
        // Doubles: two wavefronts are the minimum; a stride of two doubles takes four.
        assert_eq!(shared_wavefronts(&lanes(|l| 8 * l), 8), (2, 0));
        assert_eq!(shared_wavefronts(&lanes(|l| 16 * l), 8), (4, 2));
        assert_eq!(shared_wavefronts(&lanes(|_| 0), 8), (1, 0));
    }
}
