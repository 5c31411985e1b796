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
/// Fraction of the pitch left out at each side of a cell. None: a lattice
/// a pixel off must show in the cells' looks, or nothing would place it
/// to better than the inset (the boxes' overlap and the learned weights
/// keep a fraction of a pixel from mattering).
const INSET: f64 = 0.0;

/// A cell's colours, box by box (row-major, three channels a box).
pub type Descriptor = Vec<f32>;

/// Prefix sums of an image, per channel, with exact fractional boxes.
pub struct Integral {
    w: usize,
    h: usize,
    /// `(w + 1) × (h + 1)` sums of the pixels above and left of each corner.
    sums: Vec<[f64; 3]>,
}

impl Integral {
    pub fn new(img: &RgbImage) -> Self {
        let (w, h) = (img.width() as usize, img.height() as usize);
        let mut sums = vec![[0.0f64; 3]; (w + 1) * (h + 1)];
        let raw = img.as_raw();
        for y in 0..h {
            let mut row = [0.0f64; 3];
            for x in 0..w {
                let p = &raw[(y * w + x) * 3..(y * w + x) * 3 + 3];
                for c in 0..3 {
                    row[c] += f64::from(p[c]);
                }
                let above = sums[y * (w + 1) + x + 1];
                let at = &mut sums[(y + 1) * (w + 1) + x + 1];
                for c in 0..3 {
                    at[c] = above[c] + row[c];
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
    /// which is exact for pixels of flat colour.
    fn at(&self, x: f64, y: f64) -> [f64; 3] {
        let x = x.clamp(0.0, self.w as f64);
        let y = y.clamp(0.0, self.h as f64);
        let (x0, y0) = (x.floor() as usize, y.floor() as usize);
        let (x1, y1) = ((x0 + 1).min(self.w), (y0 + 1).min(self.h));
        let (fx, fy) = (x - x0 as f64, y - y0 as f64);
        let s = |xx: usize, yy: usize| &self.sums[yy * (self.w + 1) + xx];
        let (a, b, c, d) = (s(x0, y0), s(x1, y0), s(x0, y1), s(x1, y1));
        let mut out = [0.0; 3];
        for k in 0..3 {
            let top = a[k] + (b[k] - a[k]) * fx;
            let bottom = c[k] + (d[k] - c[k]) * fx;
            out[k] = top + (bottom - top) * fy;
        }
        out
    }

    /// [`Integral::at`] at every `(x, y)` of `xs × ys`, row by row: each
    /// column's whole corner and fraction found once, each row's once.
    fn at_grid(&self, xs: &[f64], ys: &[f64]) -> Vec<[f64; 3]> {
        let split = |v: f64, len: usize| {
            let v = v.clamp(0.0, len as f64);
            let i = v.floor() as usize;
            (i, (i + 1).min(len), v - i as f64)
        };
        let cols: Vec<(usize, usize, f64)> = xs.iter().map(|&x| split(x, self.w)).collect();
        let stride = self.w + 1;
        let mut out = Vec::with_capacity(xs.len() * ys.len());
        for &y in ys {
            let (y0, y1, fy) = split(y, self.h);
            let (top, bottom) = (&self.sums[y0 * stride..], &self.sums[y1 * stride..]);
            for &(x0, x1, fx) in &cols {
                let mut v = [0.0; 3];
                for k in 0..3 {
                    let t = top[x0][k] + (top[x1][k] - top[x0][k]) * fx;
                    let b = bottom[x0][k] + (bottom[x1][k] - bottom[x0][k]) * fx;
                    v[k] = t + (b - t) * fy;
                }
                out.push(v);
            }
        }
        out
    }

    /// The mean colour of a box; black for a box of no area.
    pub fn mean(&self, x0: f64, y0: f64, x1: f64, y1: f64) -> [f32; 3] {
        let area = (x1 - x0) * (y1 - y0);
        if area <= 1e-9 {
            return [0.0; 3];
        }
        let (a, b, c, d) = (
            self.at(x0, y0),
            self.at(x1, y0),
            self.at(x0, y1),
            self.at(x1, y1),
        );
        let mut out = [0.0f32; 3];
        for k in 0..3 {
            out[k] = ((d[k] - b[k] - c[k] + a[k]) / area) as f32;
        }
        out
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
    out.clear();
    let (w, h) = (rect.x1 - rect.x0, rect.y1 - rect.y0);
    let (x0, y0) = (rect.x0 + INSET * w, rect.y0 + INSET * h);
    let (x1, y1) = (rect.x1 - INSET * w, rect.y1 - INSET * h);
    let (sx, sy) = ((x1 - x0) / side as f64, (y1 - y0) / side as f64);
    // Box i spans edges i and i + 2 of this list, so the summed-area table
    // is read once per edge crossing, not four times per box.
    let edges = |a: f64, b: f64, s: f64| -> Vec<f64> {
        (0..=side + 1)
            .map(|k| (a + (k as f64 - 0.5) * s).clamp(a, b))
            .collect()
    };
    let (ex, ey) = (edges(x0, x1, sx), edges(y0, y1, sy));
    let n = side + 2;
    let sums = int.at_grid(&ex, &ey);
    for j in 0..side {
        for i in 0..side {
            let area = (ex[i + 2] - ex[i]) * (ey[j + 2] - ey[j]);
            let (a, b, c, d) = (
                &sums[j * n + i],
                &sums[j * n + i + 2],
                &sums[(j + 2) * n + i],
                &sums[(j + 2) * n + i + 2],
            );
            for k in 0..3 {
                let v = if area > 1e-9 {
                    (d[k] - b[k] - c[k] + a[k]) / area
                } else {
                    0.0
                };
                out.push(v as f32);
            }
        }
    }
}

/// The weighted root-mean-square difference of two descriptors (0–255):
/// `weights` say how much each value tells classes apart.
pub fn weighted(a: &[f32], b: &[f32], weights: &[f32]) -> f32 {
    // In eight lanes, which the compiler keeps in SIMD registers (a sum
    // added strictly in order it cannot).
    let n = a.len().min(b.len()).min(weights.len());
    let (mut sum, mut total) = ([0.0f32; 8], [0.0f32; 8]);
    let whole = n - n % 8;
    for ((x, y), w) in a[..whole]
        .chunks_exact(8)
        .zip(b[..whole].chunks_exact(8))
        .zip(weights[..whole].chunks_exact(8))
    {
        for k in 0..8 {
            let d = x[k] - y[k];
            sum[k] += w[k] * d * d;
            total[k] += w[k];
        }
    }
    let (mut sum, mut total) = (sum.iter().sum::<f32>(), total.iter().sum::<f32>());
    for k in whole..n {
        let d = a[k] - b[k];
        sum += weights[k] * d * d;
        total += weights[k];
    }
    (sum / total.max(1e-6)).sqrt()
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
