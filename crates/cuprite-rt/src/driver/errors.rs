//! `CUresult` names and strings (`cuGetErrorName`, `cuGetErrorString`): the table is
//! `driver_errors.tsv`, CUDA 13's.

use super::{any_time, CuResult, INVALID_VALUE};
use std::ffi::{c_char, CString};
use std::sync::OnceLock;

struct Entry {
    code: CuResult,
    name: CString,
    message: CString,
}

fn table() -> &'static [Entry] {
    static TABLE: OnceLock<Vec<Entry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        include_str!("driver_errors.tsv")
            .lines()
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

fn find(code: CuResult) -> Option<&'static Entry> {
    table().iter().find(|e| e.code == code)
}

/// The message of a code, for diagnostics printed by the runtime.
pub fn message(code: CuResult) -> String {
    find(code).map(|e| e.message.to_string_lossy().into_owned()).unwrap_or_default()
}

/// As the driver: an unknown code gives CUDA_ERROR_INVALID_VALUE and a NULL string.
#[no_mangle]
pub extern "C" fn cuGetErrorName(code: CuResult, out: *mut *const c_char) -> CuResult {
    any_time(|| {
        let e = find(code);
        super::out(out, e.map_or(std::ptr::null(), |e| e.name.as_ptr()))?;
        e.map(drop).ok_or(INVALID_VALUE)
    })
}

#[no_mangle]
pub extern "C" fn cuGetErrorString(code: CuResult, out: *mut *const c_char) -> CuResult {
    any_time(|| {
        let e = find(code);
        super::out(out, e.map_or(std::ptr::null(), |e| e.message.as_ptr()))?;
        e.map(drop).ok_or(INVALID_VALUE)
    })
}
