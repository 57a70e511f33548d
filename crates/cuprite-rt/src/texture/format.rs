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
    /// Whether linear filtering of normalized reads is done on integer codes
    /// ([`Format::channel_code`], [`Format::filtered_from_codes`]): 8- and 16-bit integers.
    pub fn filters_codes(&self) -> bool {
        self.is_integer() && self.bits <= 16
    }

    /// Channel `c` of an 8- or 16-bit integer texel as its integer code.
    ///
    /// # Safety
    /// As [`Format::channel_f32`].
    pub unsafe fn channel_code(&self, p: *const u8, c: usize) -> i64 {
        let q = p.add(c * self.bits as usize / 8);
        match (self.kind, self.bits) {
            (KIND_UNSIGNED, 8) => *q as i64,
            (KIND_UNSIGNED, _) => (q as *const u16).read_unaligned() as i64,
            (_, 8) => *(q as *const i8) as i64,
            (_, _) => (q as *const i16).read_unaligned() as i64,
        }
    }

    /// The largest code, which reads as 1.0 (255, 65535, 127, 32767).
    pub fn max_code(&self) -> i64 {
        (1i64 << (self.bits - u32::from(self.kind == KIND_SIGNED))) - 1
    }

    /// A linearly filtered normalized read from `s`, the sum of the texels' codes times
    /// their weights in 1/256, as the H100 rounds it (equal to it for every value
    /// measured): the result is a whole number of steps, 1/65535 for unsigned texels (an
    /// 8-bit code counts 257) and 1/32767 for signed ones, rounded to nearest, ties up;
    /// signed results are clamped to -1 (the most negative code counts as below -1 in
    /// the sum). Signed 8-bit codes count the texture unit's approximation of 32767/127
    /// steps: `s·(1 + 2^-7 + 2^-15)` with the two small terms truncated to 1/8 step (all
    /// 20,488 values of tests/pending-capture/h100-s8/tex_snorm_grad_probe and
    /// h100-s9/tex_probe_srgb_snorm; the exact ratio misrounds about 5% of them). The
    /// sum is exact: one in floating point misrounds exact ties (6 of 7168 shorts).
    pub fn filtered_from_codes(&self, s: i64) -> f32 {
        let steps = match (self.kind, self.bits) {
            (KIND_UNSIGNED, 8) => (s * 257 + 128).div_euclid(256),
            (KIND_SIGNED, 8) => (8 * s + (s >> 4) + (s >> 12) + 4) >> 3,
            _ => (s + 128).div_euclid(256),
        };
        let scale = if self.kind == KIND_UNSIGNED { 65535.0 } else { 32767.0 };
        ((steps as f64 / scale) as f32).max(-1.0)
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
    /// Values measured on an H100 (tests/pending-capture/h100-s8/tex_snorm_grad_probe):
    /// two `short` texels (t0, t1) read as normalized floats, t1 weighted a/256, printed
    /// as round(value * 32767). Each sum is an exact tie, which the H100 rounds up.
    #[test]
    fn filtered_codes_round_ties_up_as_the_h100() {
        let f = Format::of(&d(16, 0, 0, 0, 0)).unwrap();
        for (t0, t1, a, want) in [
            (22026i64, -19126i64, 130i64, 1129i64),
            (-26781, -2525, 154, -12189),
            (-10015, -12797, 64, -10710),
            (24975, -27055, 64, 11968),
            (-24528, -31888, 186, -29875),
            (-5262, -7274, 224, -7022),
        ] {
            let v = f.filtered_from_codes((256 - a) * t0 + a * t1);
            assert_eq!((v * 32767.0).round() as i64, want, "({t0}, {t1}) a={a}");
        }
        // uchar: 128/256 of 0 and 1 is 128.5/65535 exactly: up.
        let u = Format::of(&d(8, 0, 0, 0, 1)).unwrap();
        assert_eq!(u.filtered_from_codes(128), 129.0 / 65535.0);
        // char (H100): a texel alone, 64 → 16513/32767 but -64 → -16512/32767; 127 at
        // weight 128 → 16383 (the tie goes down); -128 at 253 → -32638; -128 alone → -1.
        let c = Format::of(&d(8, 0, 0, 0, 0)).unwrap();
        let steps = |s: i64| (c.filtered_from_codes(s) * 32767.0).round() as i64;
        assert_eq!(steps(64 * 256), 16513);
        assert_eq!(steps(-64 * 256), -16512);
        assert_eq!(steps(127 * 128), 16383);
        assert_eq!(steps(-127 * 128), -16383);
        assert_eq!(steps(-128 * 253), -32638);
        assert_eq!(c.filtered_from_codes(-128 * 256), -1.0);
        // (-115, 0) at weight 251 on -115 → -29092 (the exact ratio gives -29091).
        assert_eq!(steps(-115 * 251), -29092);
    }
}
