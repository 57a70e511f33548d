//! Ordered queues of device work, one per stream, each served by its own thread.
//!
//! A queue's server thread runs its operations in order, a kernel's blocks included (with
//! the pool's workers helping), so every runnable launch always has a thread of its own:
//! a kernel that spins waiting for another stream's kernel cannot starve it.
//! Server threads are persistent: a destroyed stream's thread goes back to an idle list
//! and serves the next stream created. Both sides spin briefly before they sleep, so an
//! empty launch followed by a synchronisation costs a few microseconds, not two wake-ups.

use crate::stream::Op;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How long a server looks for new work, and a waiter for completion, before sleeping.
const SPIN: Duration = Duration::from_micros(30);

struct QState {
    ops: VecDeque<(u64, Op)>,
    parked: bool,
    closed: bool,
}

pub struct Queue {
    st: Mutex<QState>,
    submitted: AtomicU64,
    completed: AtomicU64,
    waiters: AtomicUsize,
    work: Condvar,
    done: Condvar,
    /// The stream priority its launches run with (`workers::Job::priority`).
    priority: std::sync::atomic::AtomicI32,
}

/// Spins for at most `SPIN` until `ready()` holds, yielding the core now and then: on a
/// loaded machine the thread we wait for may need it.
pub(crate) fn spin_until(ready: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    let mut n = 0u32;
    loop {
        if ready() {
            return true;
        }
        n += 1;
        if n % 16 == 0 {
            if start.elapsed() > SPIN {
                return false;
            }
            std::thread::yield_now();
        } else {
            std::hint::spin_loop();
        }
    }
}

impl Queue {
    /// A queue with a server thread that runs each operation with `exec`.
    pub fn spawn(exec: fn(Op)) -> Arc<Queue> {
        let q = Arc::new(Queue {
            st: Mutex::new(QState { ops: VecDeque::new(), parked: false, closed: false }),
            submitted: AtomicU64::new(0),
            completed: AtomicU64::new(0),
            waiters: AtomicUsize::new(0),
            work: Condvar::new(),
            done: Condvar::new(),
            priority: std::sync::atomic::AtomicI32::new(0),
        });
        assign_server(q.clone(), exec);
        q
    }

    /// Sets the priority this queue's launches run with.
    pub fn set_priority(&self, p: i32) {
        self.priority.store(p, Ordering::Relaxed);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QState> {
        self.st.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Serves operations until the queue is closed and empty.
    fn serve(&self, exec: fn(Op)) {
        loop {
            let next = {
                let mut st = self.lock();
                loop {
                    if let Some(x) = st.ops.pop_front() {
                        crate::gpu::before_op(&x.1, st.ops.front().map(|(_, o)| o));
                        break Some(x);
                    }
                    if st.closed {
                        break None;
                    }
                    drop(st);
                    let taken = self.completed.load(Ordering::Acquire);
                    spin_until(|| self.submitted.load(Ordering::Acquire) > taken);
                    st = self.lock();
                    if st.ops.is_empty() && !st.closed {
                        st.parked = true;
                        st = self.work.wait(st).unwrap_or_else(|p| p.into_inner());
                        st.parked = false;
                    }
                }
            };
            let Some((seq, op)) = next else { return };
            crate::workers::set_current_priority(self.priority.load(Ordering::Relaxed));
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| exec(op)));
            // A launch left running on the GPU device is complete when the next operation is.
            if crate::gpu::after_op() {
                continue;
            }
            self.completed.store(seq, Ordering::SeqCst);
            if self.waiters.load(Ordering::SeqCst) > 0 {
                let _g = self.lock();
                self.done.notify_all();
            }
        }
    }

    /// Enqueues the operations `make(first_seq)` builds; returns the last one's number.
    pub fn submit_many(&self, ops: impl IntoIterator<Item = Op>) -> u64 {
        let mut st = self.lock();
        let mut seq = self.submitted.load(Ordering::Relaxed);
        for op in ops {
            seq += 1;
            st.ops.push_back((seq, op));
        }
        self.submitted.store(seq, Ordering::Release);
        if st.parked {
            self.work.notify_one();
        }
        seq
    }

    /// Enqueues the operation `make(seq)` builds from its own sequence number.
    pub fn submit_with(&self, make: impl FnOnce(u64) -> Op) -> u64 {
        let mut st = self.lock();
        let seq = self.submitted.load(Ordering::Relaxed) + 1;
        st.ops.push_back((seq, make(seq)));
        self.submitted.store(seq, Ordering::Release);
        if st.parked {
            self.work.notify_one();
        }
        seq
    }

    pub fn submit(&self, op: Op) -> u64 {
        self.submit_with(move |_| op)
    }

    pub fn submitted(&self) -> u64 {
        self.submitted.load(Ordering::Acquire)
    }

    pub fn completed(&self) -> u64 {
        self.completed.load(Ordering::Acquire)
    }

    pub fn is_idle(&self) -> bool {
        self.completed() >= self.submitted()
    }

    /// Blocks until operation `seq` (and all before it) completed.
    pub fn wait(&self, seq: u64) {
        if spin_until(|| self.completed.load(Ordering::Acquire) >= seq) {
            return;
        }
        let mut st = self.lock();
        self.waiters.fetch_add(1, Ordering::SeqCst);
        while self.completed.load(Ordering::SeqCst) < seq {
            st = self.done.wait(st).unwrap_or_else(|p| p.into_inner());
        }
        self.waiters.fetch_sub(1, Ordering::SeqCst);
    }

    pub fn wait_all(&self) {
        self.wait(self.submitted());
    }

    /// No more work will come: the server finishes what is queued and moves on.
    pub fn close(&self) {
        let mut st = self.lock();
        st.closed = true;
        self.work.notify_all();
    }
}

/// Server threads waiting for a queue to serve.
fn idle_servers() -> &'static Mutex<Vec<Sender<(Arc<Queue>, fn(Op))>>> {
    static IDLE: OnceLock<Mutex<Vec<Sender<(Arc<Queue>, fn(Op))>>>> = OnceLock::new();
    IDLE.get_or_init(|| Mutex::new(Vec::new()))
}

static SERVER_COUNT: AtomicUsize = AtomicUsize::new(0);
static SERVERS_STARTED: AtomicBool = AtomicBool::new(false);

/// Hands a queue to an idle server thread, or starts one.
fn assign_server(q: Arc<Queue>, exec: fn(Op)) {
    let mut job = (q, exec);
    loop {
        let tx = idle_servers().lock().unwrap_or_else(|p| p.into_inner()).pop();
        match tx {
            Some(tx) => match tx.send(job) {
                Ok(()) => return,
                Err(e) => job = e.0,
            },
            None => break,
        }
    }
    SERVERS_STARTED.store(true, Ordering::Relaxed);
    let n = SERVER_COUNT.fetch_add(1, Ordering::Relaxed);
    let (tx, rx) = channel::<(Arc<Queue>, fn(Op))>();
    let _ = tx.send(job);
    let _ = std::thread::Builder::new()
        .name(format!("cuprite-stream-{n}"))
        .stack_size(crate::workers::WORKER_STACK)
        .spawn(move || {
            unsafe { crate::abi::cuprite_guard_thread_init() };
            while let Ok((q, exec)) = rx.recv() {
                q.serve(exec);
                drop(q);
                idle_servers().lock().unwrap_or_else(|p| p.into_inner()).push(tx.clone());
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_host(op: Op) {
        if let Op::Host(f) = op {
            f()
        }
    }

    #[test]
    fn operations_run_in_order_and_waits_return() {
        let q = Queue::spawn(run_host);
        let log = Arc::new(Mutex::new(Vec::new()));
        for i in 0..100 {
            let l = log.clone();
            q.submit(Op::Host(Box::new(move || l.lock().unwrap().push(i))));
        }
        q.wait_all();
        assert!(q.is_idle());
        assert_eq!(*log.lock().unwrap(), (0..100).collect::<Vec<_>>());
        q.close();
    }

    #[test]
    fn queues_run_concurrently() {
        // The first queue's operation waits until the second queue's has run: a runtime
        // that served both from one thread would never finish (bounded here by a timeout).
        let a = Queue::spawn(run_host);
        let b = Queue::spawn(run_host);
        let flag = Arc::new(AtomicBool::new(false));
        let (f1, f2) = (flag.clone(), flag.clone());
        a.submit(Op::Host(Box::new(move || {
            let start = Instant::now();
            while !f1.load(Ordering::Acquire) && start.elapsed() < Duration::from_secs(20) {
                std::hint::spin_loop();
            }
        })));
        b.submit(Op::Host(Box::new(move || f2.store(true, Ordering::Release))));
        a.wait_all();
        assert!(flag.load(Ordering::Acquire), "the second queue's work did not run while the first waited");
        a.close();
        b.close();
    }

    #[test]
    fn a_closed_queue_finishes_its_work_and_its_thread_is_reused() {
        let q = Queue::spawn(run_host);
        let hit = Arc::new(AtomicUsize::new(0));
        let h = hit.clone();
        q.submit(Op::Host(Box::new(move || {
            std::thread::sleep(Duration::from_millis(5));
            h.fetch_add(1, Ordering::SeqCst);
        })));
        q.close();
        q.wait_all();
        assert_eq!(hit.load(Ordering::SeqCst), 1);
        let before = SERVER_COUNT.load(Ordering::Relaxed);
        std::thread::sleep(Duration::from_millis(20));
        let q2 = Queue::spawn(run_host);
        q2.submit(Op::Host(Box::new(|| {})));
        q2.wait_all();
        assert!(SERVER_COUNT.load(Ordering::Relaxed) <= before + 1);
        q2.close();
    }
}
