//! Where the compiler's diagnostics go: stderr, or — while run-time compilation
//! captures them for its program log (`capture`) — a buffer of the calling thread.

use std::cell::RefCell;

thread_local! {
    static SINK: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Prints diagnostic text (to the capture buffer while one is active).
pub fn emit(text: &str) {
    let captured = SINK.with(|s| match s.borrow_mut().as_mut() {
        Some(buf) => {
            buf.push_str(text);
            true
        }
        None => false,
    });
    if !captured {
        eprint!("{text}");
    }
}

/// Whether diagnostics are being captured on this thread.
pub fn capturing() -> bool {
    SINK.with(|s| s.borrow().is_some())
}

/// Runs `f`, returning what it said as diagnostics with its result.
pub fn capture<T>(f: impl FnOnce() -> T) -> (T, String) {
    let previous = SINK.with(|s| s.borrow_mut().replace(String::new()));
    let r = f();
    let text = SINK.with(|s| std::mem::replace(&mut *s.borrow_mut(), previous)).unwrap_or_default();
    (r, text)
}
