//! cudaError_t: values, names and messages (the table is `errors.tsv`: CUDA 13's).

use std::cell::Cell;
use std::ffi::{c_char, CString};
use std::sync::OnceLock;

pub type CudaError = i32;

pub const SUCCESS: CudaError = 0;
pub const INVALID_VALUE: CudaError = 1;
pub const MEMORY_ALLOCATION: CudaError = 2;
pub const INVALID_CONFIGURATION: CudaError = 9;
pub const INVALID_PITCH_VALUE: CudaError = 12;
pub const INVALID_SYMBOL: CudaError = 13;
pub const INVALID_DEVICE_POINTER: CudaError = 17;
pub const INVALID_TEXTURE_BINDING: CudaError = 19;
pub const INVALID_MEMCPY_DIRECTION: CudaError = 21;
pub const MISSING_CONFIGURATION: CudaError = 52;
pub const INVALID_DEVICE_FUNCTION: CudaError = 98;
pub const INVALID_DEVICE: CudaError = 101;
pub const UNSUPPORTED_LIMIT: CudaError = 215;
pub const INVALID_RESOURCE_HANDLE: CudaError = 400;
pub const OPERATING_SYSTEM: CudaError = 304;
pub const ILLEGAL_STATE: CudaError = 401;
pub const NOT_READY: CudaError = 600;
pub const ILLEGAL_ADDRESS: CudaError = 700;
pub const LAUNCH_OUT_OF_RESOURCES: CudaError = 701;
pub const ASSERT: CudaError = 710;
pub const HOST_MEMORY_ALREADY_REGISTERED: CudaError = 712;
pub const HOST_MEMORY_NOT_REGISTERED: CudaError = 713;
pub const LAUNCH_FAILURE: CudaError = 719;
pub const COOPERATIVE_LAUNCH_TOO_LARGE: CudaError = 720;
pub const NOT_SUPPORTED: CudaError = 801;
pub const STREAM_CAPTURE_UNSUPPORTED: CudaError = 900;
pub const STREAM_CAPTURE_INVALIDATED: CudaError = 901;
pub const STREAM_CAPTURE_MERGE: CudaError = 902;
pub const STREAM_CAPTURE_UNMATCHED: CudaError = 903;
pub const STREAM_CAPTURE_UNJOINED: CudaError = 904;
pub const STREAM_CAPTURE_ISOLATION: CudaError = 905;
pub const STREAM_CAPTURE_IMPLICIT: CudaError = 906;
pub const CAPTURED_EVENT: CudaError = 907;
pub const STREAM_CAPTURE_WRONG_THREAD: CudaError = 908;
pub const GRAPH_EXEC_UPDATE_FAILURE: CudaError = 910;
pub const UNKNOWN: CudaError = 999;

pub type Result<T> = std::result::Result<T, CudaError>;

struct Entry {
    code: CudaError,
    name: CString,
    message: CString,
}

fn table() -> &'static [Entry] {
    static TABLE: OnceLock<Vec<Entry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        include_str!("errors.tsv")
            .lines()
            .filter(|l| !l.trim().is_empty())
            .filter_map(|l| {
                let mut it = l.splitn(3, '\t');
                let code = it.next()?.trim().parse().ok()?;
                let name = CString::new(it.next()?.trim()).ok()?;
                let message = CString::new(it.next()?.trim()).ok()?;
                Some(Entry { code, name, message })
            })
            .collect()
    })
}

fn find(code: CudaError) -> Option<&'static Entry> {
    table().iter().find(|e| e.code == code)
}

const UNRECOGNIZED: &[u8] = b"unrecognized error code\0";

pub fn name_ptr(code: CudaError) -> *const c_char {
    match find(code) {
        Some(e) => e.name.as_ptr(),
        None => UNRECOGNIZED.as_ptr() as *const c_char,
    }
}

pub fn message_ptr(code: CudaError) -> *const c_char {
    match find(code) {
        Some(e) => e.message.as_ptr(),
        None => UNRECOGNIZED.as_ptr() as *const c_char,
    }
}

pub fn name(code: CudaError) -> &'static str {
    find(code).and_then(|e| e.name.to_str().ok()).unwrap_or("unrecognized error code")
}

pub fn message(code: CudaError) -> &'static str {
    find(code).and_then(|e| e.message.to_str().ok()).unwrap_or("unrecognized error code")
}

thread_local! {
    static LAST_ERROR: Cell<CudaError> = const { Cell::new(SUCCESS) };
}

/// Records `err` as this thread's last error (cudaErrorNotReady is not an error).
pub fn set_last(err: CudaError) {
    if err != SUCCESS && err != NOT_READY {
        let _ = LAST_ERROR.try_with(|c| c.set(err));
    }
}

pub fn take_last() -> CudaError {
    LAST_ERROR.try_with(|c| c.replace(SUCCESS)).unwrap_or(SUCCESS)
}

pub fn peek_last() -> CudaError {
    LAST_ERROR.try_with(|c| c.get()).unwrap_or(SUCCESS)
}

/// Runs the body of an API function: no panic crosses the FFI boundary, errors are
/// recorded as the thread's last error.
pub fn api(f: impl FnOnce() -> Result<()>) -> CudaError {
    note_runtime_call();
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(Err(UNKNOWN));
    match r {
        Ok(()) => SUCCESS,
        Err(e) => {
            set_last(e);
            crate::sanitize::api_error(e);
            e
        }
    }
}

/// Like `api` for functions that return a value rather than an error.
pub fn guard<T>(default: T, f: impl FnOnce() -> T) -> T {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(default)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn table_has_known_entries() {
        assert_eq!(name(0), "cudaSuccess");
        assert_eq!(message(0), "no error");
        assert_eq!(name(700), "cudaErrorIllegalAddress");
        assert_eq!(message(700), "an illegal memory access was encountered");
        assert_eq!(message(9), "invalid configuration argument");
        assert_eq!(message(710), "device-side assert triggered");
        assert_eq!(name(12345), "unrecognized error code");
        let mut codes: Vec<_> = table().iter().map(|e| e.code).collect();
        let n = codes.len();
        codes.dedup();
        assert_eq!(n, codes.len());
        assert!(n > 120);
    }
}

// ---- the driver API's view (driver/) ------------------------------------------------

thread_local! {
    static IN_DRIVER_CALL: Cell<bool> = const { Cell::new(false) };
}

static RUNTIME_USED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A runtime API call initialises the driver and makes the primary context active, as
/// cudart does; calls the driver API makes through the runtime's functions do not.
fn note_runtime_call() {
    if !IN_DRIVER_CALL.try_with(|c| c.get()).unwrap_or(false) {
        RUNTIME_USED.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Whether the runtime API has been used in this process.
pub fn runtime_used() -> bool {
    RUNTIME_USED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Runs `f` (which may call runtime API functions) as part of a driver API call: the
/// runtime's last error (cudaGetLastError) is left as it was.
pub fn in_driver_call<T>(f: impl FnOnce() -> T) -> T {
    let saved = peek_last();
    let was = IN_DRIVER_CALL.try_with(|c| c.replace(true)).unwrap_or(false);
    let r = f();
    let _ = IN_DRIVER_CALL.try_with(|c| c.set(was));
    let _ = LAST_ERROR.try_with(|c| c.set(saved));
    r
}
