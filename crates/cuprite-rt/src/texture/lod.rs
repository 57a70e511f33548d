//! The level of detail the texture unit derives from gradients (`tex*Grad`), as measured
//! on an H100 (tests/pending-capture/h100-s9/tex_probe_lod): the length of a 2D gradient
//! is `max + 1409/4096·min` of its components' magnitudes, and its log2 keeps the
//! length's exponent and the first 8 bits of its mantissa (truncated), which a 256-entry
//! table maps to 1/256 steps. Equal to the H100 for every single gradient probed: 2 × 561
//! integer gradients up to 32 texels, 321 at fractional angles, 256 mantissas per axis.
//! Two gradients: [`major_axis`] and [`level_of_gradients`] (tests/pending-capture/
//! h100-s10/probe_grad2).

/// The H100's log2 of `1 + i/256` in 1/256 steps, i = 0..255, measured (section A of
/// tex_probe_lod: a gradient of `1 + i/256` texels along x; `1 + (i + 0.5)/256` gives the
/// same, so the mantissa is truncated to 8 bits). Close to `ceil(256·log2(1 + i/256))`
/// but 26 entries differ by one either way.
const LOG2_MANTISSA: [u16; 256] = [
    0, 2, 4, 5, 6, 8, 9, 11, 12, 13, 15, 16, 18, 19, 20, 22,
    23, 24, 26, 27, 28, 30, 31, 32, 34, 35, 36, 38, 39, 40, 42, 43,
    44, 45, 47, 48, 49, 50, 52, 53, 54, 55, 57, 58, 59, 60, 62, 63,
    64, 65, 66, 68, 69, 70, 71, 72, 74, 75, 76, 77, 78, 79, 81, 82,
    83, 84, 85, 86, 88, 89, 90, 91, 92, 93, 94, 95, 97, 98, 99, 100,
    101, 102, 103, 104, 105, 106, 107, 109, 110, 111, 112, 113, 114, 115, 116, 117,
    118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133,
    135, 136, 137, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149,
    150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 162, 163, 164,
    165, 166, 167, 168, 169, 170, 171, 172, 173, 173, 174, 175, 176, 177, 178, 179,
    180, 181, 181, 182, 183, 184, 185, 186, 187, 188, 188, 189, 190, 191, 192, 193,
    194, 195, 195, 196, 197, 198, 199, 200, 200, 201, 202, 203, 204, 205, 205, 206,
    207, 208, 209, 210, 210, 211, 212, 213, 214, 214, 215, 216, 217, 218, 218, 219,
    220, 221, 222, 222, 223, 224, 225, 226, 226, 227, 228, 229, 229, 230, 231, 232,
    233, 233, 234, 235, 236, 236, 237, 238, 239, 239, 240, 241, 242, 242, 243, 244,
    245, 245, 246, 247, 248, 248, 249, 250, 251, 251, 252, 253, 253, 254, 255, 255,
];

/// The length the H100 gives a 2D gradient (x, y) in texels: `max + 1409/4096·min` of
/// the magnitudes (an approximation of the Euclidean length; 11/32 is off for 4 of 256
/// gradients (8, k/32)).
pub fn gradient_length(x: f64, y: f64) -> f64 {
    let (x, y) = (x.abs(), y.abs());
    x.max(y) + y.min(x) * (1409.0 / 4096.0)
}

/// The H100's weight of the diagonal directions in [`major_axis`]: 11/16 (fitted to
/// tests/pending-capture/h100-s10/probe_grad2; 2815/4096 or 2817/4096 misfit hundreds).
const DIAGONAL: f64 = 11.0 / 16.0;

/// The length the H100 gives the major axis of the footprint spanned by two 2D gradients
/// (texels): the longest of the gradients' lengths ([`gradient_length`]) and 11/16 of
/// the lengths of their sum and difference. So (1, 1) and (-1, 1) give 1.375 (level
/// 118/256), not either gradient's 1.344 (110/256), and (8, 0) with (4, 0) gives 8.25.
/// Equal to the H100 for all 1,909 integer gradient pairs of probe_grad2 and for 97% of
/// its fractional ones (the others 1 or 2 steps of 1/256 apart: the texture unit's
/// arithmetic is narrower than f64 in a way not found).
pub fn major_axis(dx: [f64; 2], dy: [f64; 2]) -> f64 {
    let sum = gradient_length(dx[0] + dy[0], dx[1] + dy[1]);
    let diff = gradient_length(dx[0] - dy[0], dx[1] - dy[1]);
    gradient_length(dx[0], dx[1]).max(gradient_length(dy[0], dy[1])).max(DIAGONAL * sum.max(diff))
}

/// The level of detail (1/256 steps, before clamps) of two 2D gradients with
/// `maxAnisotropy` `n`: with `n` <= 1 log2 of the [`major_axis`]; otherwise that of the
/// minor axis, taken in the log domain as `log2(|det|) - log2(major)` (at most the
/// major's), unless the major axis divided by `n` is longer. Fitted to probe_grad2
/// (maxAnisotropy 4 and 16): 93% equal, the rest within 3 steps.
pub fn level_of_gradients(dx: [f64; 2], dy: [f64; 2], n: u32) -> f64 {
    let major = log2_steps(major_axis(dx, dy));
    if n <= 1 || !major.is_finite() {
        return major;
    }
    let det = (dx[0] * dy[1] - dx[1] * dy[0]).abs();
    let minor = (log2_steps(det) - major).min(major);
    minor.max(major - log2_steps(n as f64))
}

/// log2 of a length in texels as the H100 takes it, in 1/256 steps: the exponent plus
/// [`LOG2_MANTISSA`] of the mantissa's first 8 bits. 0 → -∞; ∞ and NaN pass through.
pub fn log2_steps(len: f64) -> f64 {
    if len <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if !len.is_finite() {
        return len;
    }
    let e = len.log2().floor();
    // `m` in [1, 2); guard the floor against rounding at a power of two.
    let (e, m) = match len / 2f64.powf(e) {
        m if m >= 2.0 => (e + 1.0, m / 2.0),
        m if m < 1.0 => (e - 1.0, m * 2.0),
        m => (e, m),
    };
    let i = (((m - 1.0) * 256.0).floor() as usize).min(255);
    e + LOG2_MANTISSA[i] as f64 / 256.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(x: f64, y: f64) -> i64 {
        (log2_steps(gradient_length(x, y)) * 256.0) as i64
    }

    #[test]
    fn along_an_axis_the_table_gives_the_level() {
        // H100: 3 texels → 406/256, 5 → 595, 2 → 256, 1 + 12/256 → 18 (ceil would give 17),
        // 1 + 116/256 → 138 (ceil: 139); a truncated mantissa: 1 + 12.5/256 → 18 too.
        assert_eq!(steps(3.0, 0.0), 406);
        assert_eq!(steps(0.0, 5.0), 595);
        assert_eq!(steps(2.0, 0.0), 256);
        assert_eq!(steps(1.0 + 12.0 / 256.0, 0.0), 18);
        assert_eq!(steps(1.0 + 116.0 / 256.0, 0.0), 138);
        assert_eq!(steps(1.0 + 12.5 / 256.0, 0.0), 18);
        assert_eq!(steps(4.0 * (1.0 + 116.0 / 256.0), 0.0), 512 + 138);
        assert_eq!(log2_steps(0.0), f64::NEG_INFINITY);
        assert_eq!(steps(0.5, 0.0), -256);
    }

    #[test]
    fn two_gradients_combine_as_the_h100() {
        // H100 (probe_grad2, mipmap_textures): (1,1),(-1,1) → 118; (8,0),(4,0) → 780;
        // (8,0),(0,8) → 768; (8,0),(8,0) → 886; (2,1),(-1,2) → 315; random integer pairs.
        let l = |dx: [f64; 2], dy: [f64; 2], n: u32| (level_of_gradients(dx, dy, n) * 256.0) as i64;
        assert_eq!(l([1.0, 1.0], [-1.0, 1.0], 0), 118);
        assert_eq!(l([8.0, 0.0], [4.0, 0.0], 0), 780);
        assert_eq!(l([8.0, 0.0], [0.0, 8.0], 0), 768);
        assert_eq!(l([8.0, 0.0], [8.0, 0.0], 0), 886);
        assert_eq!(l([2.0, 1.0], [-1.0, 2.0], 0), 315);
        assert_eq!(l([-10.0, -7.0], [-7.0, -16.0], 0), 1103);
        assert_eq!(l([-16.0, -7.0], [-9.0, -7.0], 0), 1115);
        assert_eq!(l([3.0, 1.0], [0.5, 2.5], 0), 446);
        // maxAnisotropy 4 and 16: the minor axis |det|/major unless major/N is longer.
        assert_eq!(l([2.0, 1.0], [-1.0, 2.0], 4), 280);
        assert_eq!(l([2.0, 0.0], [0.0, 3.0], 4), 256);
        assert_eq!(l([-10.0, -7.0], [-7.0, -16.0], 4), 637);
        assert_eq!(l([-16.0, -7.0], [-9.0, -7.0], 16), 323);
        assert_eq!(l([8.0, 0.0], [2.0, 0.0], 16), -256);
    }

    #[test]
    fn off_the_axes_as_the_h100() {
        // H100 (tex_probe_lod sections D and F, h100-s8/tex_snorm_grad_probe): (1, 1) →
        // 110, (3, 3) → 516, (2, 11) → 908, (12, 12) → 1028, (15, 3) → 1024, (8, 221/32) → 865.
        assert_eq!(steps(1.0, 1.0), 110);
        assert_eq!(steps(3.0, 3.0), 516);
        assert_eq!(steps(2.0, 11.0), 908);
        assert_eq!(steps(12.0, 12.0), 1028);
        assert_eq!(steps(15.0, 3.0), 1024);
        assert_eq!(steps(8.0, 221.0 / 32.0), 865);
        assert_eq!(steps(8.0, 157.0 / 32.0), 839);
    }
}
