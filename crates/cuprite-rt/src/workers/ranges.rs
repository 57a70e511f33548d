//! The hand-out of a launch's blocks: the linear block indices cut into one contiguous
//! range per thread, fixed by the grid's size and the thread count (OpenMP's static
//! schedule), each with an atomic cursor. A thread takes runs from its own range first,
//! then from the others', lowest range first. Every run comes from one `fetch_add` on a
//! cursor, so no block runs twice and none is lost; and since a free thread always takes
//! the lowest run still untaken, a block that waits for lower-numbered blocks never keeps
//! them from being taken.

use std::sync::atomic::{AtomicU64, Ordering};

/// One thread's range `[start, end)` and its cursor, alone on a cache line.
#[repr(align(64))]
struct Range {
    next: AtomicU64,
    start: u64,
    end: u64,
}

pub struct Ranges {
    ranges: Box<[Range]>,
    chunk: u64,
}

impl Ranges {
    /// `total` blocks in runs of `chunk` (≥ 1), over at most `threads` ranges (fewer when
    /// there are fewer runs); range boundaries fall on run boundaries.
    pub fn new(total: u64, chunk: u64, threads: usize) -> Ranges {
        let chunk = chunk.max(1);
        let runs = total.div_ceil(chunk);
        let n = (threads as u64).min(runs).max(1);
        let bound = |k: u64| ((k as u128 * runs as u128 / n as u128) as u64).saturating_mul(chunk).min(total);
        let ranges = (0..n).map(|k| Range { next: AtomicU64::new(bound(k)), start: bound(k), end: bound(k + 1) }).collect();
        Ranges { ranges, chunk }
    }

    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// The range a helper starts on: worker `i` of the pool (the launching thread has 0).
    pub fn home_of_worker(&self, i: usize) -> usize {
        let n = self.ranges.len();
        if n > 1 {
            1 + i % (n - 1)
        } else {
            0
        }
    }

    /// Every range untaken again (the next round of a cooperative launch).
    pub fn reset(&self) {
        for r in self.ranges.iter() {
            r.next.store(r.start, Ordering::Relaxed);
        }
    }

    /// The next run `[first, end)` for a thread whose own range is `home`.
    pub fn take(&self, home: usize) -> Option<(u64, u64)> {
        self.take_from(home % self.ranges.len()).or_else(|| (0..self.ranges.len()).find_map(|k| self.take_from(k)))
    }

    fn take_from(&self, k: usize) -> Option<(u64, u64)> {
        let r = &self.ranges[k];
        // The load keeps exhausted cursors from being bumped by every thief.
        if r.next.load(Ordering::Relaxed) >= r.end {
            return None;
        }
        let first = r.next.fetch_add(self.chunk, Ordering::Relaxed);
        (first < r.end).then(|| (first, (first + self.chunk).min(r.end)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU8;

    fn bounds(r: &Ranges) -> Vec<(u64, u64)> {
        r.ranges.iter().map(|r| (r.start, r.end)).collect()
    }

    #[test]
    fn ranges_are_contiguous_fixed_and_cover_the_grid() {
        let r = Ranges::new(100, 3, 4);
        assert_eq!(bounds(&r), vec![(0, 24), (24, 51), (51, 75), (75, 100)]);
        assert_eq!(bounds(&r), bounds(&Ranges::new(100, 3, 4)), "same grid, same ranges");
        assert_eq!(bounds(&Ranges::new(2, 1, 16)), vec![(0, 1), (1, 2)], "no more ranges than runs");
        assert_eq!(bounds(&Ranges::new(0, 1, 4)), vec![(0, 0)]);
        assert_eq!(Ranges::new(0, 1, 4).take(0), None);
        let huge = 2147483647u64 * 65535 * 65535;
        let r = Ranges::new(huge, huge / 64, 16);
        assert_eq!(r.ranges.last().unwrap().end, huge);
    }

    #[test]
    fn own_range_first_then_the_lowest_other() {
        let r = Ranges::new(8, 1, 4);
        assert_eq!(r.home_of_worker(0), 1);
        assert_eq!(r.home_of_worker(4), 2);
        assert_eq!(r.take(2), Some((4, 5)));
        assert_eq!(r.take(2), Some((5, 6)));
        assert_eq!(r.take(2), Some((0, 1)), "range 2 done: the lowest untaken run");
        r.reset();
        assert_eq!(r.take(3), Some((6, 7)));
    }

    #[test]
    fn every_block_runs_once_under_contention() {
        let total = 100_003u64;
        let r = Ranges::new(total, 7, 5);
        let seen: Vec<AtomicU8> = (0..total).map(|_| AtomicU8::new(0)).collect();
        std::thread::scope(|s| {
            for home in 0..5 {
                let (r, seen) = (&r, &seen);
                s.spawn(move || {
                    while let Some((a, b)) = r.take(home) {
                        for i in a..b {
                            seen[i as usize].fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert!(seen.iter().all(|c| c.load(Ordering::Relaxed) == 1));
    }
}
