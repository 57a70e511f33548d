//! Channel formats (`cudaChannelFormatDesc`): validation and texel decoding.

use crate::error::{CudaError, Result};

pub const INVALID_CHANNEL_DESCRIPTOR: CudaError = 20;

pub const KIND_SIGNED: i32 = 0;
pub const KIND_UNSIGNED: i32 = 1;
pub const KIND_FLOAT: i32 = 2;

/// `struct cudaChannelFormatDesc`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ChannelDesc {
    pub x: i32,
    pub y: i32,
    pub z: i32,
    pub w: i32,
    pub f: i32,
}

/// A validated format: 1, 2 or 4 channels of one width and kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Format {
    pub channels: usize,
    /// Bits per channel: 8, 16 or 32.
    pub bits: u32,
    pub kind: i32,
}

impl Format {
    /// As CUDA checks it: channels filled from x without gaps, equal widths of 8/16/32
    /// bits, 1, 2 or 4 of them; float channels are 16 or 32 bits.
    pub fn of(d: &ChannelDesc) -> Result<Format> {
        let bits = [d.x, d.y, d.z, d.w];
        let channels = bits.iter().take_while(|b| **b != 0).count();
        let ok_count = matches!(channels, 1 | 2 | 4) && bits[channels..].iter().all(|b| *b == 0);
        let b = d.x;
        let ok_bits = bits[..channels].iter().all(|v| *v == b) && matches!(b, 8 | 16 | 32);
        let ok_kind = match d.f {
            KIND_SIGNED | KIND_UNSIGNED => true,
            KIND_FLOAT => b != 8,
            _ => false,
        };
        if !(ok_count && ok_bits && ok_kind) {
            return Err(INVALID_CHANNEL_DESCRIPTOR);
        }
        Ok(Format { channels, bits: b as u32, kind: d.f })
    }

    pub fn elem_size(&self) -> usize {
        self.channels * self.bits as usize / 8
    }

    /// Whether texels are integers (which cannot be filtered unless read normalized).
    pub fn is_integer(&self) -> bool {
        self.kind != KIND_FLOAT
    }

    /// Channel `c` of the texel at `p` as a float: integers normalized to [0, 1] /
    /// [-1, 1] as `cudaReadModeNormalizedFloat` reads them, floats (half included) as is.
    ///
    /// # Safety
    /// `p` must point to a whole texel.
    pub unsafe fn channel_f32(&self, p: *const u8, c: usize) -> f32 {
        let q = p.add(c * self.bits as usize / 8);
        match (self.kind, self.bits) {
            (KIND_FLOAT, 32) => (q as *const f32).read_unaligned(),
            (KIND_FLOAT, _) => half_to_f32((q as *const u16).read_unaligned()),
            (KIND_UNSIGNED, 8) => *q as f32 / 255.0,
            (KIND_UNSIGNED, 16) => (q as *const u16).read_unaligned() as f32 / 65535.0,
            (KIND_UNSIGNED, _) => ((q as *const u32).read_unaligned() as f64 / u32::MAX as f64) as f32,
            (_, 8) => (*(q as *const i8) as f32 / 127.0).max(-1.0),
            (_, 16) => ((q as *const i16).read_unaligned() as f32 / 32767.0).max(-1.0),
            (_, _) => (((q as *const i32).read_unaligned() as f64 / i32::MAX as f64) as f32).max(-1.0),
        }
    }
}

impl Format {
    /// Channel `c` as the texture unit's filter reads it: like [`Format::channel_f32`]
    /// but in f64, and signed integers divided by 127 / 32767 without the clamp to -1
    /// (the most negative value counts as slightly below -1 in a filtered sum; the
    /// H100's results show it). Exact for 8- and 16-bit integers.
    ///
    /// # Safety
    /// As [`Format::channel_f32`].
    pub unsafe fn channel_filter(&self, p: *const u8, c: usize) -> f64 {
        let q = p.add(c * self.bits as usize / 8);
        match (self.kind, self.bits) {
            (KIND_SIGNED, 8) => *(q as *const i8) as f64 / 127.0,
            (KIND_SIGNED, 16) => (q as *const i16).read_unaligned() as f64 / 32767.0,
            _ => self.channel_f32(p, c) as f64,
        }
    }

    /// A linearly filtered normalized-float value as the texture unit returns it: rounded
    /// to 16 fractional bits, 1/65535 steps for unsigned texels and 1/32767 for signed
    /// ones (clamped to -1), as measured on an H100. Other formats: the value, in f32.
    pub fn quantize_filtered(&self, v: f64, normalized: bool) -> f32 {
        if !normalized || !self.is_integer() || self.bits == 32 {
            return v as f32;
        }
        let steps = if self.kind == KIND_UNSIGNED { 65535.0 } else { 32767.0 };
        (((v * steps + 0.5).floor() / steps) as f32).max(-1.0)
    }
}

/// IEEE binary16 to binary32 (exact).
pub fn half_to_f32(h: u16) -> f32 {
    let sign = ((h >> 15) as u32) << 31;
    let exp = ((h >> 10) & 0x1f) as u32;
    let man = (h & 0x3ff) as u32;
    let bits = match (exp, man) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: value = m * 2^-24.
            let v = m as f32 * (1.0 / 16_777_216.0);
            return if sign != 0 { -v } else { v };
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 112) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    fn d(x: i32, y: i32, z: i32, w: i32, f: i32) -> ChannelDesc {
        ChannelDesc { x, y, z, w, f }
    }
    #[test]
    fn validation_matches_cuda() {
        assert!(Format::of(&d(32, 0, 0, 0, 2)).is_ok());
        assert!(Format::of(&d(8, 8, 8, 8, 1)).is_ok());
        assert!(Format::of(&d(16, 0, 0, 0, 2)).is_ok());
        for bad in [d(32, 32, 32, 0, 2), d(24, 0, 0, 0, 1), d(8, 0, 8, 0, 1), d(8, 16, 0, 0, 0), d(8, 0, 0, 0, 2), d(0, 0, 0, 0, 3)] {
            assert_eq!(Format::of(&bad), Err(INVALID_CHANNEL_DESCRIPTOR), "{bad:?}");
        }
    }
    #[test]
    fn normalized_reads() {
        let f = Format::of(&d(8, 0, 0, 0, 0)).unwrap();
        unsafe {
            assert_eq!(f.channel_f32([0x80u8].as_ptr(), 0), -1.0);
            assert_eq!(f.channel_f32([127u8].as_ptr(), 0), 1.0);
        }
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(half_to_f32(0xc000), -2.0);
        assert_eq!(half_to_f32(0x0001), 5.960_464_5e-8);
    }
}
