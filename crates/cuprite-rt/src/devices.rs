//! Which devices a process sees, and each host thread's current device.
//!
//! The machine has `CUPRITE_DEVICE_COUNT` CPU devices (default 1, at most
//! [`MAX_DEVICES`]), all views of the one CPU and its memory. `CUDA_VISIBLE_DEVICES`
//! selects and orders them as CUDA does (measured on an H100): a comma-separated list of
//! indices, each read as a decimal number after optional blanks and sign (`" 0"`, `"00"`,
//! `"+0"`, `"0x0"` all mean 0); the first entry that is not a valid index (a missing
//! device, a negative number, text, an empty entry) ends the list; a list naming no
//! device leaves none (`cudaErrorNoDevice`), and one naming a device twice makes every
//! call fail with `cudaErrorInvalidDevice`.

use crate::error::{self, CudaError, Result};
use std::cell::Cell;
use std::collections::HashSet;
use std::ffi::c_int;
use std::sync::{Mutex, OnceLock};

pub const MAX_DEVICES: usize = 16;
pub const NO_DEVICE: CudaError = 100;
pub const PEER_ACCESS_UNSUPPORTED: CudaError = 217;
pub const PEER_ACCESS_ALREADY_ENABLED: CudaError = 704;
pub const PEER_ACCESS_NOT_ENABLED: CudaError = 705;

/// The devices this process sees, as indices of the machine's devices, or the error
/// every device call gives.
fn visible() -> std::result::Result<&'static [usize], CudaError> {
    static V: OnceLock<std::result::Result<Vec<usize>, CudaError>> = OnceLock::new();
    V.get_or_init(|| {
        let machine = std::env::var("CUPRITE_DEVICE_COUNT").ok().and_then(|v| v.trim().parse::<usize>().ok()).unwrap_or(1);
        select(machine.clamp(1, MAX_DEVICES), std::env::var("CUDA_VISIBLE_DEVICES").ok().as_deref())
    })
    .as_deref()
    .map_err(|e| *e)
}

/// `CUDA_VISIBLE_DEVICES` applied to a machine of `machine` devices.
pub fn select(machine: usize, list: Option<&str>) -> std::result::Result<Vec<usize>, CudaError> {
    let Some(list) = list else { return Ok((0..machine).collect()) };
    let mut v = Vec::new();
    for entry in list.split(',') {
        match leading_index(entry) {
            Some(i) if i < machine => {
                if v.contains(&i) {
                    return Err(error::INVALID_DEVICE);
                }
                v.push(i);
            }
            _ => break,
        }
    }
    if v.is_empty() {
        return Err(NO_DEVICE);
    }
    Ok(v)
}

/// The number an entry starts with, as `strtol` reads it (blanks, a sign, digits).
fn leading_index(s: &str) -> Option<usize> {
    let s = s.trim_start();
    let (neg, s) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let digits: String = s.chars().take_while(|c| c.is_ascii_digit()).collect();
    let n: usize = digits.parse().ok()?;
    (!neg || n == 0).then_some(n)
}

/// How many devices the process sees (an error when it sees none).
pub fn count() -> Result<c_int> {
    Ok(visible()?.len() as c_int)
}

/// `d` is a device the process sees.
pub fn check(d: c_int) -> Result<()> {
    let n = count()?;
    if (0..n).contains(&d) {
        Ok(())
    } else {
        Err(error::INVALID_DEVICE)
    }
}

thread_local! {
    static CURRENT: Cell<c_int> = const { Cell::new(0) };
}

/// The calling thread's current device (0 until it chooses one).
pub fn current() -> c_int {
    CURRENT.with(|c| c.get())
}

pub fn set_current(d: c_int) {
    CURRENT.with(|c| c.set(d));
}

/// Peer access enabled from one device to another: (device, peer).
static PEERS: Mutex<Option<HashSet<(c_int, c_int)>>> = Mutex::new(None);

/// `cudaDeviceEnablePeerAccess` from the current device.
pub fn enable_peer(peer: c_int, flags: u32) -> Result<()> {
    check(peer)?;
    if flags != 0 {
        return Err(error::INVALID_VALUE);
    }
    let d = current();
    if peer == d {
        return Err(PEER_ACCESS_UNSUPPORTED);
    }
    let mut g = PEERS.lock().unwrap_or_else(|e| e.into_inner());
    if !g.get_or_insert_with(HashSet::new).insert((d, peer)) {
        return Err(PEER_ACCESS_ALREADY_ENABLED);
    }
    Ok(())
}

/// `cudaDeviceDisablePeerAccess` from the current device.
pub fn disable_peer(peer: c_int) -> Result<()> {
    check(peer)?;
    let mut g = PEERS.lock().unwrap_or_else(|e| e.into_inner());
    if !g.get_or_insert_with(HashSet::new).remove(&(current(), peer)) {
        return Err(PEER_ACCESS_NOT_ENABLED);
    }
    Ok(())
}

/// Forgets the current device's peer mappings (`cudaDeviceReset`).
pub fn reset_peers() {
    let d = current();
    if let Some(s) = PEERS.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        s.retain(|(a, b)| *a != d && *b != d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn visible_devices_as_cuda_13_reads_them() {
        // The H100 machine's answers (conformance devices_visible), on a 1-device machine.
        let one = |s: &str| select(1, Some(s));
        assert_eq!(select(1, None), Ok(vec![0]));
        for ok in ["0", "0,1", "0,abc", " 0", "0 ", "0,,0", "00", "+0", "0x0"] {
            assert_eq!(one(ok), Ok(vec![0]), "{ok:?}");
        }
        for none in ["1", "", "1,0", "-1", "abc"] {
            assert_eq!(one(none), Err(NO_DEVICE), "{none:?}");
        }
        assert_eq!(one("0,0"), Err(error::INVALID_DEVICE));
        // Several devices: order kept, the list ends at the first invalid entry.
        assert_eq!(select(4, Some("2,0,3")), Ok(vec![2, 0, 3]));
        assert_eq!(select(4, Some("3,7,1")), Ok(vec![3]));
        assert_eq!(select(4, None), Ok(vec![0, 1, 2, 3]));
    }
}
