//! sRGB decoding of 8-bit texels read as normalized floats with `cudaTextureDesc::sRGB`:
//! the H100's decode table (the sRGB transfer function rounded to a step that depends on
//! the code's segment, [`step_log2`]; measured for every byte value on an H100 by
//! tests/pending-capture/h100-s7/srgb_probe and tests/conformance/tex_srgb), and linear
//! filtering of decoded texels as the H100 does it ([`filter`]).

/// The linear value of each 8-bit sRGB code as the H100 returns it (point sampling).
pub const DECODE: [f32; 256] = [
    0.0, 0.00030517578125, 0.0006103515625, 0.00091552734375, 0.001220703125, 0.00152587890625, 0.0018310546875, 0.00213623046875,
    0.00244140625, 0.00274658203125, 0.0030517578125, 0.00335693359375, 0.003662109375, 0.0040283203125, 0.00439453125, 0.0047607421875,
    0.00518798828125, 0.005615234375, 0.00604248046875, 0.00653076171875, 0.00701904296875, 0.00750732421875, 0.00799560546875, 0.008544921875,
    0.0091552734375, 0.00970458984375, 0.01031494140625, 0.010986328125, 0.0115966796875, 0.01226806640625, 0.01300048828125, 0.013671875,
    0.014404296875, 0.0152587890625, 0.0159912109375, 0.016845703125, 0.0177001953125, 0.0185546875, 0.0194091796875, 0.020263671875,
    0.021240234375, 0.022216796875, 0.023193359375, 0.024169921875, 0.025146484375, 0.0262451171875, 0.02734375, 0.0284423828125,
    0.029541015625, 0.03076171875, 0.031982421875, 0.033203125, 0.034423828125, 0.03564453125, 0.036865234375, 0.0380859375,
    0.03955078125, 0.041015625, 0.042236328125, 0.043701171875, 0.045166015625, 0.046630859375, 0.048095703125, 0.0498046875,
    0.05126953125, 0.052734375, 0.0546875, 0.05615234375, 0.0576171875, 0.0595703125, 0.06103515625, 0.06298828125,
    0.06494140625, 0.06640625, 0.068359375, 0.0703125, 0.072265625, 0.07421875, 0.076171875, 0.078125,
    0.080078125, 0.08251953125, 0.08447265625, 0.08642578125, 0.0888671875, 0.0908203125, 0.09326171875, 0.09521484375,
    0.09765625, 0.10009765625, 0.10205078125, 0.1044921875, 0.10693359375, 0.109375, 0.11181640625, 0.1142578125,
    0.1171875, 0.119140625, 0.1220703125, 0.125, 0.126953125, 0.1298828125, 0.1328125, 0.1357421875,
    0.138671875, 0.1416015625, 0.14453125, 0.1474609375, 0.150390625, 0.1533203125, 0.15625, 0.1591796875,
    0.162109375, 0.1650390625, 0.16796875, 0.171875, 0.1748046875, 0.177734375, 0.181640625, 0.1845703125,
    0.1875, 0.19140625, 0.1943359375, 0.1982421875, 0.201171875, 0.205078125, 0.208984375, 0.2119140625,
    0.2158203125, 0.2197265625, 0.2236328125, 0.2265625, 0.23046875, 0.234375, 0.23828125, 0.2421875,
    0.24609375, 0.25, 0.25390625, 0.2578125, 0.26171875, 0.265625, 0.26953125, 0.275390625,
    0.279296875, 0.283203125, 0.287109375, 0.291015625, 0.296875, 0.30078125, 0.3046875, 0.30859375,
    0.314453125, 0.318359375, 0.322265625, 0.328125, 0.33203125, 0.337890625, 0.341796875, 0.34765625,
    0.3515625, 0.35546875, 0.361328125, 0.3671875, 0.37109375, 0.376953125, 0.380859375, 0.38671875,
    0.390625, 0.396484375, 0.40234375, 0.408203125, 0.412109375, 0.41796875, 0.423828125, 0.427734375,
    0.43359375, 0.439453125, 0.4453125, 0.451171875, 0.45703125, 0.462890625, 0.46875, 0.47265625,
    0.48046875, 0.484375, 0.4921875, 0.49609375, 0.50390625, 0.5078125, 0.515625, 0.51953125,
    0.52734375, 0.53515625, 0.5390625, 0.546875, 0.55078125, 0.55859375, 0.56640625, 0.5703125,
    0.578125, 0.5859375, 0.58984375, 0.59765625, 0.60546875, 0.609375, 0.6171875, 0.625,
    0.62890625, 0.63671875, 0.64453125, 0.65234375, 0.66015625, 0.6640625, 0.671875, 0.6796875,
    0.6875, 0.6953125, 0.69921875, 0.70703125, 0.71484375, 0.72265625, 0.73046875, 0.73828125,
    0.74609375, 0.75390625, 0.76171875, 0.76953125, 0.77734375, 0.78515625, 0.79296875, 0.80078125,
    0.80859375, 0.81640625, 0.82421875, 0.83203125, 0.83984375, 0.84765625, 0.85546875, 0.86328125,
    0.87109375, 0.87890625, 0.88671875, 0.89453125, 0.90625, 0.9140625, 0.921875, 0.9296875,
    0.9375, 0.9453125, 0.953125, 0.9609375, 0.9765625, 0.984375, 0.9921875, 1.0,
];

/// The code ranges (first code, -log2 of the step) in which the H100 keeps decoded sRGB
/// values: each decoded value is a whole number of its segment's steps (a block
/// floating-point format whose exponent comes from the code, not from the value: codes
/// 185..187 decode below 0.5 but share the step of [0.5, 1), codes 248..255 that of 1.0).
/// Found by fitting linear filtering on an H100 (tests/pending-capture/h100-s9/
/// tex_probe_srgb_snorm, 14,732 values) and pinned for every code by
/// tests/pending-capture/h100-s10/probe_srgb_seg (three pairs per code chosen to tell
/// the neighbouring steps apart).
const SEGMENTS: [(u8, i32); 8] = [(248, 7), (184, 8), (136, 9), (96, 10), (64, 11), (48, 12), (32, 13), (0, 14)];

/// -log2 of the step of `code`'s segment.
pub fn step_log2(code: u8) -> i32 {
    SEGMENTS.iter().find(|(first, _)| code >= *first).map_or(14, |s| s.1)
}

/// Linear filtering of one sRGB-decoded channel as the H100 does it, for the texels of
/// one bilinear footprint (codes, weights in 1/256; a mipmap level, or a z slice of
/// trilinear filtering): the texels with a non-zero weight are
/// aligned to the segment step of the largest code among them, each decoded value
/// truncated to that step. Returns their exact weighted sum (in 1/256 units); the
/// levels' sums are added and rounded by [`filtered`]. (So a texel beside a much
/// brighter one loses its low bits: codes 16 and 254 at weights 255/256 and 1/256 give
/// 254's share alone.) Equal to the H100 for every value of tex_probe_srgb_snorm's 1D
/// pairs, one-hot 2D footprints and random 2D quads, of tex_srgb's 2D arrays and level
/// blends (each level aligned on its own) and of probe_srgb_seg's 3D footprints (each z
/// slice on its own).
pub fn aligned_sum(taps: impl Iterator<Item = (u8, i32)> + Clone) -> f64 {
    let Some(top) = taps.clone().filter(|t| t.1 != 0).map(|t| t.0).max() else {
        return 0.0;
    };
    let step = (-step_log2(top) as f64).exp2();
    taps.map(|(c, w)| (DECODE[c as usize] as f64 / step).floor() * step * w as f64).sum()
}

/// The filtered value of the footprints' [`aligned_sum`]s added: rounded to binary16, ties up.
pub fn filtered(sum: f64) -> f32 {
    round_to_half_ties_up(sum / 256.0) as f32
}

/// One footprint's filtering: [`filtered`] of its [`aligned_sum`].
pub fn filter(taps: impl Iterator<Item = (u8, i32)> + Clone) -> f32 {
    filtered(aligned_sum(taps))
}

/// `x` (>= 0) rounded to the nearest binary16 value, ties away from zero (subnormals
/// included: steps of 2^-24 below 2^-14).
fn round_to_half_ties_up(x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    let e = x.log2().floor().max(-14.0);
    let q = (e - 10.0).exp2();
    (x / q + 0.5).floor() * q
}

/// Whether channel `c` of a texel with `channels` channels is sRGB-decoded: red, green
/// and blue of a 4-channel texel, the first of a 1- or 2-channel one (measured on an
/// H100: a `uchar2`'s second channel and a `uchar4`'s alpha read linear).
pub fn decodes_channel(c: usize, channels: usize) -> bool {
    if channels == 2 {
        c == 0
    } else {
        c < 3
    }
}

/// The sRGB code (0..255) of a linear value in [0, 1]: the sRGB transfer function,
/// rounded to nearest.
pub fn encode(v: f32) -> u8 {
    let v = v.clamp(0.0, 1.0) as f64;
    let s = if v <= 0.003_130_8 { v * 12.92 } else { 1.055 * v.powf(1.0 / 2.4) - 0.055 };
    (s * 255.0).round().clamp(0.0, 255.0) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_monotonic_and_spans_0_to_1() {
        assert_eq!(DECODE[0], 0.0);
        assert_eq!(DECODE[255], 1.0);
        assert!(DECODE.windows(2).all(|w| w[0] < w[1]));
        // 1/255 decodes to 0.00030517578 on the H100 (the formula gives 0.00030353).
        assert_eq!(DECODE[1], 0.000_305_175_78);
    }

    #[test]
    fn filtering_aligns_texels_to_the_brightest_codes_segment() {
        // H100 (tex_probe_srgb_snorm): codes (116, 232) at weight 77 of 232 → 0x1.74p-2
        // (the decoded weighted sum is 0.36544); (16, 254) at 1/256 → 254's share alone;
        // (51, 207) at 1/256 → 0x1.1p-5 (51 truncated to 2^-8); a code against itself
        // is its value; (32, 16) at weight 19 of 16: 32 is in the 2^-13 segment.
        let f = |a: u8, b: u8, w: i32| filter([(a, 256 - w), (b, w)].into_iter());
        assert_eq!(f(116, 232, 77), f32::from_bits(0x3eba0000));
        assert_eq!(f(16, 254, 1), DECODE[254] / 256.0);
        assert_eq!(f(51, 207, 1), 0.033569336);
        assert_eq!(f(194, 194, 45), DECODE[194]);
        assert_eq!(f(32, 16, 237), 0.005_817_413_3);
        assert_eq!(f(16, 254, 0), DECODE[16]);
        assert_eq!(f(0, 0, 100), 0.0);
        assert_eq!((step_log2(247), step_log2(248), step_log2(184), step_log2(183)), (8, 7, 8, 9));
        assert_eq!((step_log2(95), step_log2(96), step_log2(63), step_log2(64), step_log2(31)), (11, 10, 12, 11, 14));
        // Every decoded value is a whole number of its segment's steps.
        for c in 0..=255u8 {
            let k = DECODE[c as usize] as f64 * (step_log2(c) as f64).exp2();
            assert_eq!(k, k.floor(), "code {c}");
        }
    }

    #[test]
    fn border_colours_take_the_code_they_encode_to() {
        // H100 (tex_srgb): border 0.25, 0.5, 0.75 read back as 0.25, 0.50390625, 0.75390625.
        assert_eq!(DECODE[encode(0.25) as usize], 0.25);
        assert_eq!(DECODE[encode(0.5) as usize], 0.503_906_25);
        assert_eq!(DECODE[encode(0.75) as usize], 0.753_906_25);
        assert!(decodes_channel(0, 2) && !decodes_channel(1, 2) && !decodes_channel(3, 4));
    }
}
