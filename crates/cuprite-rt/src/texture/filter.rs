//! Texture addressing and filtering as the Programming Guide's texture-fetching appendix
//! states them: nearest-point sampling, linear filtering with weights in 9-bit fixed point
//! (8 fractional bits), normalized coordinates, and the clamp/border/wrap/mirror modes.
//! Pure functions over texel indices, so they can be tested without memory.

pub const WRAP: i32 = 0;
pub const CLAMP: i32 = 1;
pub const MIRROR: i32 = 2;
pub const BORDER: i32 = 3;

/// One axis of a sampled texture.
#[derive(Clone, Copy, Debug)]
pub struct Axis {
    pub size: usize,
    pub mode: i32,
}

impl Axis {
    /// The coordinate in texels. Normalized coordinates are scaled by the size, after
    /// wrap (`frac(x)`) or mirror (`frac(x)` or `1 - frac(x)` as `floor(x)` is even or
    /// odd). Wrap and mirror exist only for normalized coordinates; unnormalized ones
    /// are clamped instead, as on the GPU.
    pub fn texel_coord(&self, x: f32, normalized: bool) -> f32 {
        if !normalized {
            return x;
        }
        let n = self.size as f32;
        match self.mode {
            WRAP => (x - x.floor()) * n,
            MIRROR => {
                let f = x.floor();
                let r = x - f;
                (if (f as i64).rem_euclid(2) == 0 { r } else { 1.0 - r }) * n
            }
            _ => x * n,
        }
    }

    /// The texel-space coordinate linear filtering splits, from the fetch's coordinate
    /// `x`. With clamp addressing (every mode but border, for unnormalized coordinates)
    /// it is kept between the first and last texel centres, so a footprint past the edge
    /// is the edge texel at full weight. With mirror it is not mirrored: the footprint is
    /// split where it falls and its texels are mirrored ([`Axis::address`]), so the
    /// weights keep their orientation. Only the weights' rounding tells these apart: in
    /// 3D a tie rounds by the corner's side (measured on an H100, tex_filter_exact).
    pub fn linear_coord(&self, x: f32, normalized: bool) -> f32 {
        if normalized && self.mode == MIRROR {
            return x * self.size as f32;
        }
        let t = self.texel_coord(x, normalized);
        if self.mode == CLAMP || (!normalized && self.mode != BORDER) {
            t.clamp(0.5, self.size as f32 - 0.5)
        } else {
            t
        }
    }

    /// The texel an integer index addresses, or `None` for the border colour.
    pub fn address(&self, i: i64, normalized: bool) -> Option<usize> {
        let n = self.size as i64;
        let mode = if normalized { self.mode } else if self.mode == BORDER { BORDER } else { CLAMP };
        let k = match mode {
            WRAP => i.rem_euclid(n),
            MIRROR => {
                let k = i.rem_euclid(2 * n);
                if k >= n {
                    2 * n - 1 - k
                } else {
                    k
                }
            }
            BORDER if i < 0 || i >= n => return None,
            _ => i.clamp(0, n - 1),
        };
        Some(k as usize)
    }
}

/// Nearest-point sampling: the texel index `floor(x)` on each axis.
pub fn nearest(x: f32) -> i64 {
    x.floor() as i64
}

/// Linear filtering on one axis: the lower texel `i = floor(x - 0.5)` and the weight of
/// the upper one, `frac(x - 0.5)` rounded to 8 fractional bits.
pub fn linear(x: f32) -> (i64, f32) {
    let b = x - 0.5;
    let i = b.floor();
    (i as i64, quantize(b - i))
}

/// A weight in [0, 1] in the texture unit's 9-bit fixed point (1.0 is representable).
pub fn quantize(a: f32) -> f32 {
    (a * 256.0).round() / 256.0
}

/// The four weights of bilinear filtering, in 1/256 units, for texels (i, j), (i+1, j),
/// (i, j+1), (i+1, j+1): the texture unit rounds the product `α·β` to 8 fractional bits
/// and derives the others from it, so they sum to exactly 1 (measured on an H100; a
/// nested lerp differs in the last bits where a border colour meets texels).
pub fn bilinear_weights(a: f32, b: f32) -> [f32; 4] {
    let (a, b) = ((a * 256.0) as i32, (b * 256.0) as i32);
    let w11 = (a * b + 128) >> 8;
    [256 - a - b + w11, a - w11, b - w11, w11].map(|w| w as f32 / 256.0)
}

/// `n / 256` rounded to nearest, ties up.
fn div256_half_up(n: i32) -> i32 {
    (n + 128) >> 8
}

/// The bilinear weights (1/256 units, order as [`bilinear_weights`]) of a slice whose
/// share is `share`/256 (a z slice of trilinear filtering, or one level of a mipmap
/// blend): split along x first, `x1 = a·share` rounded ties up; then the two corners
/// on the diagonal are rounded ties up, `w00 = (1-b)·x0` and `w11 = b·x1`, and the other
/// two take the rest of their half. So a tie in the y split goes down in the x0 half and
/// up in the x1 half. Measured on an H100: all 512 one-hot trilinear probes of
/// tests/pending-capture/h100-s7/tex_filter_exact and the mipmap blends of mip_probe.
/// With `share` 256 this equals [`bilinear_weights`].
pub fn slice_weights(a: f32, b: f32, share: i32) -> [i32; 4] {
    let (a, b) = ((a * 256.0) as i32, (b * 256.0) as i32);
    let x1 = div256_half_up(a * share);
    let x0 = share - x1;
    let (w00, w11) = (div256_half_up((256 - b) * x0), div256_half_up(b * x1));
    [w00, x1 - w11, x0 - w00, w11]
}

/// `n / 256` rounded to nearest, ties down.
fn div256_half_down(n: i32) -> i32 {
    (n + 127) >> 8
}

/// The 8 weights (1/256 units, x fastest) of trilinear filtering at fractions (a, b, g)
/// for a level whose share is `share`/256: the upper z slice takes `g·share` rounded ties
/// down (exactly g for the whole share), the lower the rest, each split as
/// [`slice_weights`]. Equal to the H100's for every probed coordinate, level blends of
/// mipmapped 3D arrays included (tex_trilinear_modes).
pub fn trilinear_weights(a: f32, b: f32, g: f32, share: i32) -> [i32; 8] {
    let z1 = div256_half_down((g * 256.0) as i32 * share);
    let (lo, hi) = (slice_weights(a, b, share - z1), slice_weights(a, b, z1));
    [lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]]
}

/// Weights (1/256 units) scaled to a share of `share`/256, each rounded (ties up) and the
/// rounding error given to the largest, so they sum to `share`.
pub fn scale_weights(w: &mut [i32], share: i32) {
    let mut sum = 0;
    for x in w.iter_mut() {
        *x = div256_half_up(*x * share);
        sum += *x;
    }
    if let Some(big) = w.iter_mut().max_by_key(|x| **x) {
        *big += share - sum;
    }
}

/// Linear interpolation with a quantized weight, in the order the appendix writes it.
pub fn lerp(a: f32, b: f32, w: f32) -> f32 {
    (1.0 - w) * a + w * b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_rounded_to_eighths_of_a_byte() {
        // 0.6 - 0.5 = 0.1 → 25.6/256 → 26/256 (rounded, not truncated).
        assert_eq!(linear(0.6), (0, 26.0 / 256.0));
        // A third of a texel: 85.33 → 85.
        assert_eq!(linear(1.0 / 3.0 + 0.5).1, 85.0 / 256.0);
        assert_eq!(linear(2.0 / 3.0 + 0.5), (0, 171.0 / 256.0));
        // Below the first texel centre: i = -1.
        assert_eq!(linear(0.0), (-1, 0.5));
        assert_eq!(linear(0.51), (0, 3.0 / 256.0));
    }

    #[test]
    fn bilinear_weights_round_the_product() {
        // 1D arrays filter as 2D with height 1 at y = 0 (β = 0.5, row -1 is the border):
        // x = -0.3 gives α = 51/256, αβ = 25.5/256 → 26/256 (H100: 89.945312 for texel 1
        // and border 100).
        let w = bilinear_weights(51.0 / 256.0, 0.5);
        assert_eq!(w, [103.0 / 256.0, 25.0 / 256.0, 102.0 / 256.0, 26.0 / 256.0]);
        let v = (w[0] + w[1] + w[2]) * 100.0 + w[3] * 1.0;
        assert_eq!(v, 89.945_31);
    }

    #[test]
    fn slice_and_trilinear_weights_match_h100_probes() {
        // Mipmap blend (tests/pending-capture/h100-s7/mip_probe): 4x1 level 0 at
        // x = 0.21875 (a = 96/256) with level weight 76: t0 112, t1 68 (ties split).
        assert_eq!(slice_weights(96.0 / 256.0, 0.0, 180), [112, 68, 0, 0]);
        assert_eq!(slice_weights(0.0, 0.0, 76), [76, 0, 0, 0]);
        // 3D texture (tex_filter_exact's one-hot texels): (a, b, g) = (64, 77, 156)/256.
        let w = trilinear_weights(64.0 / 256.0, 77.0 / 256.0, 156.0 / 256.0, 256);
        assert_eq!(w, [52, 17, 23, 8, 82, 27, 35, 12]);
        assert_eq!(w.iter().sum::<i32>(), 256);
        // Ties in the y split go down in the x0 half and up in the x1 half (H100).
        let t = |a: i32, b: i32, g: i32| trilinear_weights(a as f32 / 256.0, b as f32 / 256.0, g as f32 / 256.0, 256);
        assert_eq!(t(128, 26, 128), [58, 57, 6, 7, 58, 57, 6, 7]);
        assert_eq!(t(0, 26, 64), [173, 0, 19, 0, 58, 0, 6, 0]);
        assert_eq!(t(26, 0, 64), [172, 20, 0, 0, 57, 7, 0, 0]);
        assert_eq!(t(230, 64, 64), [14, 130, 5, 43, 5, 43, 1, 15]);
        // With the whole share, the slice is the bilinear rule.
        for (a, b) in [(26, 64), (77, 128), (230, 197)] {
            let bw = bilinear_weights(a as f32 / 256.0, b as f32 / 256.0).map(|x| (x * 256.0) as i32);
            assert_eq!(slice_weights(a as f32 / 256.0, b as f32 / 256.0, 256), bw);
        }
        let mut v = [100, 100, 56];
        scale_weights(&mut v, 51);
        assert_eq!(v.iter().sum::<i32>(), 51);
    }

    #[test]
    fn address_modes() {
        let wrap = Axis { size: 4, mode: WRAP };
        let mirror = Axis { size: 4, mode: MIRROR };
        let border = Axis { size: 4, mode: BORDER };
        assert_eq!(wrap.address(-1, true), Some(3));
        assert_eq!(wrap.address(4, true), Some(0));
        assert_eq!(mirror.address(-1, true), Some(0));
        assert_eq!(mirror.address(4, true), Some(3));
        assert_eq!(mirror.address(9, true), Some(1));
        assert_eq!(border.address(-1, false), None);
        assert_eq!(border.address(3, false), Some(3));
        // Wrap without normalized coordinates clamps.
        assert_eq!(wrap.address(-1, false), Some(0));
        assert_eq!(wrap.texel_coord(-1.25, true), 3.0);
        assert_eq!(mirror.texel_coord(-0.3, true), 0.3 * 4.0);
        assert_eq!(mirror.texel_coord(1.0, true), 4.0);
    }

    #[test]
    fn matches_the_h100_on_a_1d_texture() {
        // tex1D linear, clamp, texels 1 2 4 8 (tests/conformance/tex_objects_linear_2d).
        let t = [1.0f32, 2.0, 4.0, 8.0];
        let ax = Axis { size: 4, mode: CLAMP };
        let f = |x: f32| {
            let (i, w) = linear(x);
            lerp(t[ax.address(i, false).unwrap()], t[ax.address(i + 1, false).unwrap()], w)
        };
        assert_eq!(f(0.6), 1.1015625);
        assert_eq!(f(1.0 / 3.0 + 0.5), 1.33203125);
        assert_eq!(f(1.3), 1.80078125);
        assert_eq!(f(3.75), 8.0);
    }
}

/// The face a cubemap direction (x, y, z) selects and the normalized coordinates on it,
/// by the major axis as the CUDA Programming Guide's cubemap table gives them: faces
/// +x, -x, +y, -y, +z, -z are 0..5, and (s, t) / |major| maps [-1, 1] to [0, 1].
pub fn cubemap_face(x: f32, y: f32, z: f32) -> (usize, f32, f32) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, m, s, t) = if ax >= ay && ax >= az {
        if x >= 0.0 { (0, ax, -z, -y) } else { (1, ax, z, -y) }
    } else if ay >= az {
        if y >= 0.0 { (2, ay, x, z) } else { (3, ay, x, -z) }
    } else if z >= 0.0 {
        (4, az, x, -y)
    } else {
        (5, az, -x, -y)
    };
    (face, (s / m + 1.0) * 0.5, (t / m + 1.0) * 0.5)
}

#[cfg(test)]
mod cubemap_tests {
    use super::cubemap_face;
    #[test]
    fn major_axis_picks_the_face_and_centres_map_to_the_middle() {
        assert_eq!(cubemap_face(1.0, 0.0, 0.0), (0, 0.5, 0.5));
        assert_eq!(cubemap_face(-2.0, 0.0, 0.0), (1, 0.5, 0.5));
        assert_eq!(cubemap_face(0.0, 3.0, 0.0), (2, 0.5, 0.5));
        assert_eq!(cubemap_face(0.0, -1.0, 0.0), (3, 0.5, 0.5));
        assert_eq!(cubemap_face(0.0, 0.0, 1.0), (4, 0.5, 0.5));
        assert_eq!(cubemap_face(0.0, 0.0, -1.0), (5, 0.5, 0.5));
        // +x face: s = -z, t = -y.
        assert_eq!(cubemap_face(1.0, -0.5, 0.5), (0, 0.25, 0.75));
    }
}

/// The direction of face coordinates `(sc, tc)` in [-1, 1] on `face` at unit distance:
/// the inverse of [`cubemap_face`]'s table.
pub fn cubemap_direction(face: usize, sc: f32, tc: f32) -> [f32; 3] {
    match face {
        0 => [1.0, -tc, -sc],
        1 => [-1.0, -tc, sc],
        2 => [sc, 1.0, tc],
        3 => [sc, -1.0, -tc],
        4 => [sc, -tc, 1.0],
        _ => [-sc, -tc, -1.0],
    }
}

/// Where texel `(i, j)` of a `w`×`w` face lies for seamless filtering: on the face, or,
/// one step past an edge, the edge texel of the neighbouring face that the texel's centre
/// projects onto (face, column, row). `None` for a texel past two edges (a cube corner,
/// where three faces meet and no fourth texel exists).
pub fn seamless_texel(face: usize, i: i64, j: i64, w: usize) -> Option<(usize, usize, usize)> {
    let n = w as i64;
    let (out_i, out_j) = (!(0..n).contains(&i), !(0..n).contains(&j));
    if !out_i && !out_j {
        return Some((face, i as usize, j as usize));
    }
    if out_i && out_j {
        return None;
    }
    let centre = |k: i64| 2.0 * (k as f32 + 0.5) / w as f32 - 1.0;
    let [x, y, z] = cubemap_direction(face, centre(i), centre(j));
    let (f, s, t) = cubemap_face(x, y, z);
    let idx = |c: f32| ((c * w as f32).floor() as i64).clamp(0, n - 1) as usize;
    Some((f, idx(s), idx(t)))
}

/// Bilinear weights (in 1/256) of a footprint whose texel `missing` (0..3, in
/// [`bilinear_weights`]' order) is a cube corner: its weight goes to the other three, a
/// third (rounded) to each of the two beside it and the rest to the one diagonal from it
/// (measured on an H100).
pub fn corner_weights(w: [f32; 4], missing: usize) -> [f32; 4] {
    let mut k = w.map(|x| (x * 256.0).round() as i32);
    let share = (k[missing] + 1) / 3;
    // Indices are (i,j)=0, (i+1,j)=1, (i,j+1)=2, (i+1,j+1)=3: the diagonal is 3 - missing.
    let diag = 3 - missing;
    for (q, kq) in k.iter_mut().enumerate() {
        if q != missing && q != diag {
            *kq += share;
        }
    }
    k[diag] += k[missing] - 2 * share;
    k[missing] = 0;
    k.map(|x| x as f32 / 256.0)
}

#[cfg(test)]
mod seamless_tests {
    use super::*;

    #[test]
    fn texels_past_an_edge_come_from_the_neighbouring_face() {
        // +x face, right edge (s = 1 is z = -1): the -z face's column 0, same row.
        assert_eq!(seamless_texel(0, 4, 1, 4), Some((5, 0, 1)));
        // +x face, top edge (t = 0 is y = +1): the +y face's last column, rows reversed.
        assert_eq!(seamless_texel(0, 1, -1, 4), Some((2, 3, 2)));
        // +x face, left edge (s = 0 is z = +1): the +z face's last column.
        assert_eq!(seamless_texel(0, -1, 0, 4), Some((4, 3, 0)));
        assert_eq!(seamless_texel(0, -1, -1, 4), None);
        assert_eq!(seamless_texel(3, 2, 1, 4), Some((3, 2, 1)));
    }

    #[test]
    fn a_corner_shares_its_weight_by_thirds() {
        // H100: face +x at (1, .99, .99): weights 59, 64, 64, 69 with (i, j) missing.
        let w = [59.0, 64.0, 64.0, 69.0].map(|x: f32| x / 256.0);
        assert_eq!(corner_weights(w, 0), [0.0, 84.0, 84.0, 88.0].map(|x: f32| x / 256.0));
        let w = [23.0, 54.0, 54.0, 125.0].map(|x: f32| x / 256.0);
        assert_eq!(corner_weights(w, 0), [0.0, 62.0, 62.0, 132.0].map(|x: f32| x / 256.0));
    }
}
