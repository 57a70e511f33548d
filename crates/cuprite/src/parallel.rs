//! Running a build's independent commands at once (the C compiles of a module's
//! translation units, `pipeline::compile_device_code`), within the machine's cores and,
//! under `make -jN`, within make's job slots.
//!
//! Under a make jobserver (`--jobserver-auth` in `MAKEFLAGS`) this process holds one
//! implicit slot; each further command first takes a token from the jobserver and gives
//! it back when it ends, so `make -j8` never runs more than 8 compilers in all. Under a
//! make without a jobserver, `-jN` in `MAKEFLAGS` is the limit (`make` without `-j`: one
//! at a time). Otherwise the limit is the number of cores this process may use.

use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::Duration;

/// How many commands may run at once, and make's jobserver when there is one.
pub struct Slots {
    limit: usize,
    jobserver: Option<jobserver::Client>,
}

/// This process's slots (read from the environment once).
pub fn slots() -> &'static Slots {
    static SLOTS: OnceLock<Slots> = OnceLock::new();
    SLOTS.get_or_init(|| {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        // SAFETY: the jobserver's descriptors, if inherited, are used only through this
        // client (what `from_env` requires); it checks that they are open pipes or a fifo.
        let jobserver = unsafe { jobserver::Client::from_env_ext(true) }.client.ok();
        let limit = match (&jobserver, make_jobs()) {
            (Some(_), _) => cores,
            (None, Some(n)) => n.clamp(1, cores),
            (None, None) => cores,
        };
        Slots { limit, jobserver }
    })
}

/// `-jN`/`--jobs=N` of a parent make without a jobserver: `Some(1)` for a serial make,
/// `None` when not run by make (or `-j` without a number).
fn make_jobs() -> Option<usize> {
    let flags = std::env::var("MAKEFLAGS").ok()?;
    let mut words = flags.split_whitespace().peekable();
    let mut jobs = Some(1);
    // The first word may be single-letter flags run together ("ks"), then options.
    while let Some(w) = words.next() {
        let n = if let Some(n) = w.strip_prefix("--jobs=") {
            Some(n)
        } else if let Some(n) = w.strip_prefix("-j") {
            Some(n)
        } else if w == "--jobs" {
            words.peek().copied()
        } else {
            None
        };
        if let Some(n) = n {
            jobs = n.parse().ok();
        }
    }
    jobs
}

impl Slots {
    /// How many commands may run at once at most.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Runs every job, at most `limit` at once (the first on this process's own slot,
    /// the others on jobserver tokens, if any); returns the first error, in job order,
    /// after all have ended. While this thread captures diagnostics (`diagnostics.rs`:
    /// the build cache records them), each job's are captured on its own thread and
    /// passed on here in job order.
    pub fn run_all<F>(&self, jobs: Vec<F>) -> Result<(), String>
    where
        F: FnOnce() -> Result<(), String> + Send,
    {
        let n = jobs.len();
        let capturing = crate::diagnostics::capturing();
        let mut said: Vec<String> = vec![String::new(); n];
        let mut results: Vec<Option<Result<(), String>>> = (0..n).map(|_| None).collect();
        std::thread::scope(|s| {
            let (done, finished) = mpsc::channel::<(usize, Result<(), String>, String)>();
            let mut running = 0usize;
            let mut record = |(i, r, text): (usize, Result<(), String>, String), running: &mut usize| {
                results[i] = Some(r);
                said[i] = text;
                *running -= 1;
            };
            for (i, job) in jobs.into_iter().enumerate() {
                // Wait for a slot: our own when nothing runs, else a token.
                let token = loop {
                    if running == 0 {
                        break None;
                    }
                    if running < self.limit {
                        match &self.jobserver {
                            None => break None,
                            Some(c) => {
                                if let Ok(Some(t)) = c.try_acquire() {
                                    break Some(t);
                                }
                            }
                        }
                    }
                    // A job ends, or (polling the jobserver) another make job does.
                    let wait = if running < self.limit { Duration::from_millis(20) } else { Duration::from_secs(3600) };
                    if let Ok(r) = finished.recv_timeout(wait) {
                        record(r, &mut running);
                    }
                };
                let done = done.clone();
                running += 1;
                s.spawn(move || {
                    let (r, text) = if capturing { crate::diagnostics::capture(job) } else { (job(), String::new()) };
                    drop(token);
                    let _ = done.send((i, r, text));
                });
            }
            while running > 0 {
                match finished.recv() {
                    Ok(r) => record(r, &mut running),
                    Err(_) => break,
                }
            }
        });
        for text in said.iter().filter(|t| !t.is_empty()) {
            crate::diagnostics::emit(text);
        }
        results.into_iter().map(|r| r.unwrap_or_else(|| Err("internal error: a parallel job did not report".into()))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_every_job_and_reports_the_first_error() {
        let slots = Slots { limit: 2, jobserver: None };
        let hits = std::sync::atomic::AtomicUsize::new(0);
        let jobs: Vec<_> = (0..5)
            .map(|i| {
                let hits = &hits;
                move || {
                    hits.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    if i == 1 || i == 3 {
                        Err(format!("job {i}"))
                    } else {
                        Ok(())
                    }
                }
            })
            .collect();
        assert_eq!(slots.run_all(jobs), Err("job 1".into()));
        assert_eq!(hits.load(std::sync::atomic::Ordering::SeqCst), 5);
    }

    #[test]
    fn never_runs_more_than_the_limit() {
        let slots = Slots { limit: 2, jobserver: None };
        let now = std::sync::atomic::AtomicUsize::new(0);
        let most = std::sync::atomic::AtomicUsize::new(0);
        let jobs: Vec<_> = (0..6)
            .map(|_| {
                let (now, most) = (&now, &most);
                move || {
                    let k = now.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                    most.fetch_max(k, std::sync::atomic::Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(20));
                    now.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
                    Ok(())
                }
            })
            .collect();
        slots.run_all(jobs).unwrap();
        assert_eq!(most.load(std::sync::atomic::Ordering::SeqCst), 2);
    }
}
