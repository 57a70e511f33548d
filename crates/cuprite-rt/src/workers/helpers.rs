//! A launch's helpers in one atomic word: how many more workers it wants, how many are
//! running its blocks, and whether its launching thread has stopped taking helpers. One
//! word, so that a worker's claim and the launching thread's close cannot cross: after
//! `close`, no claim succeeds and `running` only falls.

use std::sync::atomic::{AtomicU64, Ordering};

const CLOSED: u64 = 1 << 63;
const WANTED_ONE: u64 = 1 << 32;
const WANTED_MASK: u64 = (CLOSED - 1) & !(WANTED_ONE - 1);
const RUNNING_MASK: u64 = WANTED_ONE - 1;

#[derive(Default)]
pub struct Helpers(AtomicU64);

impl Helpers {
    /// A new phase wanting `wanted` helpers; none may be running.
    pub fn open(&self, wanted: usize) {
        debug_assert_eq!(self.running(), 0);
        self.0.store(((wanted as u64) << 32) & WANTED_MASK, Ordering::Release);
    }

    pub fn wanted(&self) -> u64 {
        (self.0.load(Ordering::Acquire) & WANTED_MASK) >> 32
    }

    pub fn running(&self) -> u64 {
        self.0.load(Ordering::Acquire) & RUNNING_MASK
    }

    /// One more helper, if one is still wanted and the launch not closed.
    pub fn claim(&self) -> bool {
        self.0
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |v| {
                (v & CLOSED == 0 && v & WANTED_MASK != 0).then_some(v - WANTED_ONE + 1)
            })
            .is_ok()
    }

    /// No more helpers: the launching thread waits for the running ones.
    pub fn close(&self) {
        let _ = self.0.fetch_update(Ordering::AcqRel, Ordering::Acquire, |v| Some(CLOSED | (v & RUNNING_MASK)));
    }

    /// A helper has finished; true when it was the last and the launch is closed (the
    /// launching thread may be waiting for it).
    pub fn finish(&self) -> bool {
        let prev = self.0.fetch_sub(1, Ordering::AcqRel);
        debug_assert!(prev & RUNNING_MASK != 0);
        prev & RUNNING_MASK == 1 && prev & CLOSED != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_stop_at_wanted_and_at_close() {
        let h = Helpers::default();
        h.open(2);
        assert!(h.claim() && h.claim());
        assert!(!h.claim(), "only two wanted");
        assert_eq!((h.wanted(), h.running()), (0, 2));
        assert!(!h.finish(), "not closed: nobody waits");
        h.close();
        assert!(h.finish(), "the last one after close wakes the launcher");
        assert_eq!(h.running(), 0);
        h.open(3);
        assert!(h.claim());
        h.close();
        assert!(!h.claim(), "closed");
        assert_eq!((h.wanted(), h.running()), (0, 1));
        assert!(h.finish());
    }
}
