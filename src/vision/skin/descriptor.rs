//! A cell as a small picture: its colour averaged over a fixed grid of
//! boxes, whatever the cell's size in pixels, so that one learned look
//! matches the same cell drawn at any scale.
//!
//! The boxes' means come from a summed-area table, which answers any box
//! (fractional edges included) in four lookups.

use image::RgbImage;

use crate::geom::RectF;

/// Boxes per cell side.
pub const SIDE: usize = 12;
/// Values in a descriptor: a colour per box.
pub const LEN: usize = SIDE * SIDE * 3;
/// Box edges along a side: boxes overlap their neighbours by half.
const EDGES: usize = SIDE + 2;
/// Fraction of the pitch left out at each side of a cell. None: a lattice
/// a pixel off must show in the cells' looks, or nothing would place it
/// to better than the inset (the boxes' overlap and the learned weights
/// keep a fraction of a pixel from mattering).
const INSET: f64 = 0.0;

/// A cell's colours, box by box (row-major, three channels a box).
pub type Descriptor = Vec<f32>;

/// Prefix sums of an image, per channel, with exact fractional boxes.
///
/// The sums wrap round at 2^32: a box's sum, the difference of four of
/// them, is exact all the same (below 2^31 for boxes of up to 8 million
/// pixels, far more than a cell's box), and the table is
/// smaller than one of `f64`s. Its size is what a lattice search pays
/// for: every cell of every lattice tried reads it. Each corner holds a
/// fourth lane, always 0, so that a corner is one aligned load and its
/// arithmetic runs in four SIMD lanes.
pub struct Integral {
    w: usize,
    h: usize,
    /// `(w + 1) × (h + 1)` sums of the pixels above and left of each
    /// corner, modulo 2^32.
    sums: Vec<Lanes>,
}

/// A corner's sums: three channels and a lane of padding.
#[derive(Clone, Copy, Default)]
#[repr(align(16))]
struct Lanes([u32; 4]);

/// A fractional corner's sum: a whole corner's (modulo 2^32), and what the
/// pixels between it and the fractional one add. The part is at most a
/// row's sum and a column's (below 2^24 for pictures of up to 30,000
/// pixels a side), so `f32` holds it to a small fraction of a level.
#[derive(Clone, Copy, Default)]
struct Corner {
    whole: [u32; 4],
    part: [f32; 4],
}

/// A coordinate split into its whole corner, the next one (no further
/// than `len`), and the fraction between them.
fn split(v: f64, len: usize) -> (usize, usize, f32) {
    // Not negative once clamped, so truncation is the floor.
    let v = v.clamp(0.0, len as f64);
    let i = v as usize;
    (i, (i + 1).min(len), (v - i as f64) as f32)
}

/// The sum of the box between corners `a` (top left), `b` (top right),
/// `c` (bottom left) and `d` (bottom right), per channel (the fourth
/// lane is padding).
fn box_sum(a: &Corner, b: &Corner, c: &Corner, d: &Corner) -> [f32; 4] {
    std::array::from_fn(|k| {
        let whole = d.whole[k]
            .wrapping_sub(b.whole[k])
            .wrapping_sub(c.whole[k])
            .wrapping_add(a.whole[k]);
        // Below 2^31, so read as signed: one SIMD conversion.
        whole as i32 as f32 + (d.part[k] - b.part[k] - c.part[k] + a.part[k])
    })
}

impl Integral {
    pub fn new(img: &RgbImage) -> Self {
        let (w, h) = (img.width() as usize, img.height() as usize);
        let mut sums = vec![Lanes::default(); (w + 1) * (h + 1)];
        let raw = img.as_raw();
        for y in 0..h {
            let mut row = [0u32; 3];
            for x in 0..w {
                let p = &raw[(y * w + x) * 3..(y * w + x) * 3 + 3];
                for c in 0..3 {
                    row[c] = row[c].wrapping_add(u32::from(p[c]));
                }
                let above = sums[y * (w + 1) + x + 1];
                let at = &mut sums[(y + 1) * (w + 1) + x + 1];
                for ((v, a), r) in at.0.iter_mut().zip(above.0).zip(row) {
                    *v = a.wrapping_add(r);
                }
            }
        }
        Integral { w, h, sums }
    }

    pub fn width(&self) -> usize {
        self.w
    }

    pub fn height(&self) -> usize {
        self.h
    }

    /// The sum up to a fractional corner: bilinear between whole corners,
    /// which is exact for pixels of flat colour. The differences between
    /// neighbouring corners are a column's, a row's or a pixel's sums:
    /// small, so exact when wrapped.
    fn corner(
        &self,
        (x0, x1, fx): (usize, usize, f32),
        (y0, y1, fy): (usize, usize, f32),
    ) -> Corner {
        let stride = self.w + 1;
        let (a, b) = (
            &self.sums[y0 * stride + x0].0,
            &self.sums[y0 * stride + x1].0,
        );
        let (c, d) = (
            &self.sums[y1 * stride + x0].0,
            &self.sums[y1 * stride + x1].0,
        );
        let part = std::array::from_fn(|k| {
            // Each below 2^31, so read as signed: one SIMD conversion.
            let across = b[k].wrapping_sub(a[k]) as i32 as f32;
            let down = c[k].wrapping_sub(a[k]) as i32 as f32;
            let pixel = d[k]
                .wrapping_sub(c[k])
                .wrapping_sub(b[k])
                .wrapping_add(a[k]) as i32 as f32;
            across * fx + (down + pixel * fx) * fy
        });
        Corner { whole: *a, part }
    }

    /// [`Integral::corner`] at every `(x, y)` of `xs × ys`, row by row,
    /// into `out`: each column's whole corner and fraction found once,
    /// each row's once.
    fn at_grid(&self, xs: &[f64], ys: &[f64], out: &mut [Corner]) {
        let mut cols = [(0usize, 0usize, 0.0f32); EDGES];
        for (c, &x) in cols.iter_mut().zip(xs) {
            *c = split(x, self.w);
        }
        let cols = &cols[..xs.len()];
        for (&y, row) in ys.iter().zip(out.chunks_exact_mut(xs.len())) {
            let y = split(y, self.h);
            for (&x, v) in cols.iter().zip(row) {
                *v = self.corner(x, y);
            }
        }
    }

    /// The mean colour of a box; black for a box of no area.
    pub fn mean(&self, x0: f64, y0: f64, x1: f64, y1: f64) -> [f32; 3] {
        let area = (x1 - x0) * (y1 - y0);
        if area <= 1e-9 {
            return [0.0; 3];
        }
        let at = |x: f64, y: f64| self.corner(split(x, self.w), split(y, self.h));
        let (a, b, c, d) = (at(x0, y0), at(x1, y0), at(x0, y1), at(x1, y1));
        // Unsigned and in f64: a box of any size, not only a cell's.
        [0, 1, 2].map(|k| {
            let whole = d.whole[k]
                .wrapping_sub(b.whole[k])
                .wrapping_sub(c.whole[k])
                .wrapping_add(a.whole[k]);
            let part = f64::from(d.part[k]) - f64::from(b.part[k]) - f64::from(c.part[k])
                + f64::from(a.part[k]);
            ((f64::from(whole) + part) / area) as f32
        })
    }

    /// True when the rectangle lies inside the image.
    pub fn contains(&self, r: RectF) -> bool {
        r.x0 >= -0.01
            && r.y0 >= -0.01
            && r.x1 <= self.w as f64 + 0.01
            && r.y1 <= self.h as f64 + 0.01
    }
}

/// The descriptor of the cell `rect`.
pub fn describe(int: &Integral, rect: RectF) -> Descriptor {
    let mut out = Vec::with_capacity(LEN);
    describe_into(int, rect, &mut out);
    out
}

/// [`describe`] into a buffer, for loops over many cells.
pub fn describe_into(int: &Integral, rect: RectF, out: &mut Descriptor) {
    describe_coarse(int, rect, SIDE, out);
}

/// A descriptor of `side × side` boxes: a coarse one is cheap, for
/// searches that try many lattices. Each box is twice as wide as the
/// spacing of their centres, so neighbours overlap: a feature's edge a
/// fraction of a pixel over moves a box's mean a little, not a lot.
pub fn describe_coarse(int: &Integral, rect: RectF, side: usize, out: &mut Descriptor) {
    assert!(side <= SIDE, "at most {SIDE} boxes a side");
    out.clear();
    let (w, h) = (rect.x1 - rect.x0, rect.y1 - rect.y0);
    let (x0, y0) = (rect.x0 + INSET * w, rect.y0 + INSET * h);
    let (x1, y1) = (rect.x1 - INSET * w, rect.y1 - INSET * h);
    let (sx, sy) = ((x1 - x0) / side as f64, (y1 - y0) / side as f64);
    // Box i spans edges i and i + 2 of this list, so the summed-area table
    // is read once per edge crossing, not four times per box. On the
    // stack: this runs for every cell of every lattice tried.
    let n = side + 2;
    let edges = |a: f64, b: f64, s: f64| {
        let mut e = [0.0f64; EDGES];
        for (k, v) in e[..n].iter_mut().enumerate() {
            *v = (a + (k as f64 - 0.5) * s).clamp(a, b);
        }
        e
    };
    let (ex, ey) = (edges(x0, x1, sx), edges(y0, y1, sy));
    let mut corners = [Corner::default(); EDGES * EDGES];
    int.at_grid(&ex[..n], &ey[..n], &mut corners[..n * n]);
    // One division a box side, not one a box or a channel.
    let inverse = |e: &[f64; EDGES]| {
        let mut v = [0.0f32; SIDE];
        for (k, inv) in v[..side].iter_mut().enumerate() {
            let width = e[k + 2] - e[k];
            // A box a thousandth of a pixel wide shows nothing.
            *inv = if width > 1e-3 {
                (1.0 / width) as f32
            } else {
                0.0
            };
        }
        v
    };
    let (iw, ih) = (inverse(&ex), inverse(&ey));
    out.resize(side * side * 3, 0.0);
    for (j, row) in out.chunks_exact_mut(side * 3).enumerate() {
        for (i, v) in row.chunks_exact_mut(3).enumerate() {
            let per = iw[i] * ih[j];
            let sum = box_sum(
                &corners[j * n + i],
                &corners[j * n + i + 2],
                &corners[(j + 2) * n + i],
                &corners[(j + 2) * n + i + 2],
            );
            v.copy_from_slice(&[sum[0] * per, sum[1] * per, sum[2] * per]);
        }
    }
}

/// The weighted root-mean-square difference of two descriptors (0–255):
/// `weights` say how much each value tells classes apart.
pub fn weighted(a: &[f32], b: &[f32], weights: &[f32]) -> f32 {
    let n = a.len().min(b.len()).min(weights.len());
    weighted_over(a, b, weights, weight_total(&weights[..n]))
}

/// The sum of `weights`, added as [`weighted_over`] needs it: a cell
/// judged against many looks adds its weights once.
pub fn weight_total(weights: &[f32]) -> f32 {
    let n = weights.len();
    let whole = n - n % 8;
    let mut total = [0.0f32; 8];
    for w in weights[..whole].chunks_exact(8) {
        for k in 0..8 {
            total[k] += w[k];
        }
    }
    let mut total = total.iter().sum::<f32>();
    for w in &weights[whole..] {
        total += w;
    }
    total
}

/// [`weighted`] with the sum of the weights over the values compared
/// (`total`, from [`weight_total`]) given.
pub fn weighted_over(a: &[f32], b: &[f32], weights: &[f32], total: f32) -> f32 {
    weighted_within(a, b, weights, total, f32::INFINITY).unwrap_or(f32::INFINITY)
}

/// Values added between two looks at the running sum in
/// [`weighted_within`]: often enough to stop early, seldom enough to keep
/// the lanes busy.
const CHECK_EVERY: usize = 48;

/// [`weighted_over`], or `None` as soon as the distance is sure to be
/// more than `limit`. A distance within the limit is the same number
/// [`weighted_over`] gives, added in the same order: a cell judged
/// against hundreds of looks (B.i.t.Lock's pairs) stops adding on most
/// of them after a few boxes.
pub fn weighted_within(
    a: &[f32],
    b: &[f32],
    weights: &[f32],
    total: f32,
    limit: f32,
) -> Option<f32> {
    // In eight lanes, which the compiler keeps in SIMD registers (a sum
    // added strictly in order it cannot).
    let n = a.len().min(b.len()).min(weights.len());
    let total = total.max(1e-6);
    // A little over the limit, so that a sum stopped here would have
    // ended past it whatever the rounding of the last steps.
    let cap = limit * limit * total * (1.0 + 1e-4);
    let mut sum = [0.0f32; 8];
    let whole = n - n % 8;
    for (((x, y), w), at) in a[..whole]
        .chunks(CHECK_EVERY)
        .zip(b[..whole].chunks(CHECK_EVERY))
        .zip(weights[..whole].chunks(CHECK_EVERY))
        .zip((CHECK_EVERY..).step_by(CHECK_EVERY))
    {
        for ((x, y), w) in x
            .chunks_exact(8)
            .zip(y.chunks_exact(8))
            .zip(w.chunks_exact(8))
        {
            for k in 0..8 {
                let d = x[k] - y[k];
                sum[k] += w[k] * d * d;
            }
        }
        // Every term is at least zero, so the sum only grows.
        if at < whole && sum.iter().sum::<f32>() > cap {
            return None;
        }
    }
    let mut sum = sum.iter().sum::<f32>();
    for k in whole..n {
        let d = a[k] - b[k];
        sum += weights[k] * d * d;
    }
    let d = (sum / total).sqrt();
    (d <= limit).then_some(d)
}

/// The sum of the squared differences of two descriptors, added in eight
/// lanes (which stay in SIMD registers): for ranking many guesses by
/// their nearest look, one square root for all.
pub fn squares(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let whole = n - n % 8;
    let mut sum = [0.0f32; 8];
    for (x, y) in a[..whole].chunks_exact(8).zip(b[..whole].chunks_exact(8)) {
        for k in 0..8 {
            let d = x[k] - y[k];
            sum[k] += d * d;
        }
    }
    let tail: f32 = a[whole..n]
        .iter()
        .zip(&b[whole..n])
        .map(|(x, y)| (x - y) * (x - y))
        .sum();
    sum.iter().sum::<f32>() + tail
}

/// Root-mean-square difference of two descriptors (0–255).
pub fn distance(a: &[f32], b: &[f32]) -> f32 {
    let sum: f32 = a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum();
    (sum / a.len().max(1) as f32).sqrt()
}

/// A descriptor as bytes, for the calibration file.
pub fn to_bytes(d: &[f32]) -> Vec<u8> {
    d.iter()
        .map(|v| v.round().clamp(0.0, 255.0) as u8)
        .collect()
}

pub fn from_bytes(b: &[u8]) -> Descriptor {
    b.iter().map(|&v| f32::from(v)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// Within its limit the bounded distance is the whole one to the bit;
    /// past it, none, whether it is past from the first values or only
    /// at the last.
    #[test]
    fn a_bounded_distance_is_the_whole_one_or_none() {
        let a: Vec<f32> = (0..LEN).map(|i| (i * 7 % 256) as f32).collect();
        let w: Vec<f32> = (0..LEN).map(|i| 0.5 + (i % 5) as f32).collect();
        let total = weight_total(&w);
        let mut late = a.clone();
        late[LEN - 1] += 200.0;
        let early: Vec<f32> = a.iter().map(|v| v + 30.0).collect();
        for b in [&a, &late, &early] {
            let whole = weighted_over(&a, b, &w, total);
            assert_eq!(weighted_within(&a, b, &w, total, whole), Some(whole));
            assert_eq!(
                weighted_within(&a, b, &w, total, f32::INFINITY),
                Some(whole)
            );
            if whole > 0.0 {
                assert_eq!(weighted_within(&a, b, &w, total, whole * 0.999), None);
            }
        }
    }

    #[test]
    fn fractional_boxes_are_exact_for_flat_pixels() {
        let img = RgbImage::from_fn(10, 10, |x, _| {
            if x < 5 {
                Rgb([0, 0, 0])
            } else {
                Rgb([200, 100, 50])
            }
        });
        let int = Integral::new(&img);
        let m = int.mean(4.5, 0.0, 5.5, 2.0);
        assert!(
            (m[0] - 100.0).abs() < 1e-3 && (m[1] - 50.0).abs() < 1e-3,
            "{m:?}"
        );
        assert_eq!(int.mean(6.0, 3.0, 9.25, 7.5), [200.0, 100.0, 50.0]);
    }

    #[test]
    fn boxes_past_where_the_sums_wrap_are_exact() {
        // 4,200 × 4,200 pixels of 255 (17.6 M against 16.8 M) sum to more
        // than 2^32: the red channel's sums wrap well before the corner.
        let n = 4200;
        let img = RgbImage::from_pixel(n, n, Rgb([255, 128, 1]));
        let int = Integral::new(&img);
        let corner = int.sums.last().expect("a table").0[0];
        assert!(u64::from(corner) < 255 * u64::from(n * n), "it wrapped");
        let far = f64::from(n);
        assert_eq!(
            int.mean(far - 100.0, far - 100.0, far, far),
            [255.0, 128.0, 1.0]
        );
        let m = int.mean(10.25, far - 49.5, far - 0.25, far - 0.5);
        assert!(
            (m[0] - 255.0).abs() < 1e-3 && (m[2] - 1.0).abs() < 1e-3,
            "{m:?}"
        );
    }

    #[test]
    fn a_cell_reads_alike_at_two_scales() {
        // A dot in a square cell, drawn at 24 and at 48 px.
        let draw = |p: u32| {
            RgbImage::from_fn(p, p, |x, y| {
                let (dx, dy) = (
                    f64::from(x) + 0.5 - f64::from(p) / 2.0,
                    f64::from(y) + 0.5 - f64::from(p) / 2.0,
                );
                if dx.hypot(dy) < f64::from(p) * 0.25 {
                    Rgb([220, 40, 40])
                } else {
                    Rgb([40, 40, 90])
                }
            })
        };
        let d = |p: u32| {
            describe(
                &Integral::new(&draw(p)),
                RectF {
                    x0: 0.0,
                    y0: 0.0,
                    x1: f64::from(p),
                    y1: f64::from(p),
                },
            )
        };
        assert!(
            distance(&d(24), &d(48)) < 8.0,
            "{}",
            distance(&d(24), &d(48))
        );
    }
}
