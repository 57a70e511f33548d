//! Device properties of the CPU device (filled by csrc/props.c against include/driver_types.h).

use crate::abi::{self, DeviceInfo};
use crate::error::{self, Result};
use crate::launch::Limits;
use std::ffi::c_void;
use std::sync::OnceLock;

/// The selected compute capability: `__cuprite_set_target_arch` (from the generated code),
/// else `CUPRITE_ARCH` (`sm_75`, `75`, `compute_90`), else 9.0.
pub fn parse_arch(s: &str) -> Option<(i32, i32)> {
    let digits: String = s.chars().filter(|c| c.is_ascii_digit()).collect();
    let n: i32 = digits.parse().ok()?;
    if n < 10 {
        return None;
    }
    Some((n / 10, n % 10))
}

pub fn device_info(ordinal: i32, (major, minor): (i32, i32), sm_count: i32, total_mem: usize) -> DeviceInfo {
    DeviceInfo { ordinal, major, minor, sm_count, total_mem }
}

/// A filled `struct cudaDeviceProp` (as 8-byte-aligned bytes).
pub struct PropBuf(Vec<u64>);

impl PropBuf {
    pub fn new(info: &DeviceInfo) -> PropBuf {
        let size = unsafe { abi::cuprite_sizeof_device_prop() };
        let mut v = vec![0u64; size.div_ceil(8)];
        unsafe { abi::cuprite_fill_props(v.as_mut_ptr() as *mut c_void, info) };
        PropBuf(v)
    }
    pub fn as_ptr(&self) -> *const c_void {
        self.0.as_ptr() as *const c_void
    }
    pub fn size() -> usize {
        unsafe { abi::cuprite_sizeof_device_prop() }
    }
    pub fn attribute(&self, attr: i32) -> Result<i32> {
        let mut v = 0;
        match unsafe { abi::cuprite_prop_attribute(self.as_ptr(), attr, &mut v) } {
            0 => Ok(v),
            _ => Err(error::INVALID_VALUE),
        }
    }
    fn attr_or(&self, attr: i32, d: i32) -> u32 {
        self.attribute(attr).unwrap_or(d) as u32
    }
    pub fn limits(&self) -> Limits {
        Limits {
            max_threads_per_block: self.attr_or(1, 1024),
            max_block: [self.attr_or(2, 1024), self.attr_or(3, 1024), self.attr_or(4, 64)],
            max_grid: [self.attr_or(5, i32::MAX), self.attr_or(6, 65535), self.attr_or(7, 65535)],
            shared_per_block: self.attr_or(8, 49152) as u64,
            shared_optin: self.attr_or(97, 49152) as u64,
        }
    }
}

pub fn cached<'a>(slot: &'a OnceLock<PropBuf>, info: impl FnOnce() -> DeviceInfo) -> &'a PropBuf {
    slot.get_or_init(|| PropBuf::new(&info()))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn arch_parsing() {
        assert_eq!(parse_arch("sm_90"), Some((9, 0)));
        assert_eq!(parse_arch("sm_75"), Some((7, 5)));
        assert_eq!(parse_arch("compute_86"), Some((8, 6)));
        assert_eq!(parse_arch("120"), Some((12, 0)));
        assert_eq!(parse_arch("sm_100"), Some((10, 0)));
    }
    #[test]
    fn props_of_sm90() {
        let p = PropBuf::new(&device_info(0, (9, 0), 4, 1 << 34));
        assert_eq!(PropBuf::size(), 1008);
        assert_eq!(p.attribute(10), Ok(32));
        assert_eq!(p.attribute(75), Ok(9));
        assert_eq!(p.attribute(16), Ok(4));
        assert_eq!(p.attribute(97), Ok(232448));
        assert_eq!(p.attribute(100000), Err(error::INVALID_VALUE));
        let l = p.limits();
        assert_eq!(l.max_grid[0], 2147483647);
    }
}
