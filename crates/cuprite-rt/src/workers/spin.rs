//! Waiting by spinning first: a worker that has finished its part of a launch, and a
//! launching thread waiting for its helpers, look for the next event for a while before
//! they sleep. On the 16-core host a sleeping core takes 5-7 µs to wake (an interrupt
//! through the hypervisor, no cpuidle driver) and the workers' wake-ups form a tree of
//! four levels, so a launch after a sleep started its last helper ~27 µs late; spinning
//! workers take a launch within 1-6 µs (docs/PERFORMANCE.md, session 11). Launch-heavy
//! programs launch again within microseconds, so the spin is what keeps them fed;
//! libgomp's idle threads spin the same way (`OMP_WAIT_POLICY`, `GOMP_SPINCOUNT`).

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Default spin before sleeping, when the pool has no more threads than the machine has
/// cores; with more (oversubscribed) it never spins: a spinning thread would take the
/// core of the thread it waits for.
const DEFAULT_SPIN: Duration = Duration::from_micros(200);

/// How long to spin before sleeping (`CUPRITE_SPIN_US` overrides; 0: never spin).
pub fn limit(pool_threads: usize) -> Duration {
    static V: OnceLock<Duration> = OnceLock::new();
    *V.get_or_init(|| {
        if let Some(us) = std::env::var("CUPRITE_SPIN_US").ok().and_then(|v| v.trim().parse::<u64>().ok()) {
            return Duration::from_micros(us);
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        if pool_threads <= cores { DEFAULT_SPIN } else { Duration::ZERO }
    })
}

/// Spins until `ready()` holds or `limit` has passed; true when it holds. Yields the
/// core now and then, so that on a loaded machine the thread being waited for can run.
pub fn until(limit: Duration, ready: impl Fn() -> bool) -> bool {
    if limit.is_zero() {
        return ready();
    }
    let start = Instant::now();
    let mut n = 0u32;
    loop {
        if ready() {
            return true;
        }
        n = n.wrapping_add(1);
        if n % 64 == 0 {
            if start.elapsed() >= limit {
                return ready();
            }
            if n % 1024 == 0 {
                std::thread::yield_now();
            }
        }
        std::hint::spin_loop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_when_ready_or_at_the_limit() {
        assert!(until(Duration::from_millis(50), || true));
        let t = Instant::now();
        assert!(!until(Duration::from_micros(300), || false));
        assert!(t.elapsed() >= Duration::from_micros(300));
        assert!(!until(Duration::ZERO, || false));
    }
}
