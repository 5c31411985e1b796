//! Template matching for pieces drawn over cells (Troyis's knight).
//!
//! A template and a cell are both reduced to a small square of "whiteness"
//! (the smallest of the three channels): a white piece with a dark outline
//! stays bright on dark, whatever colour the cell behind it is. They are
//! compared by normalised cross-correlation, over small shifts and, if
//! asked, the mirror image.

use image::RgbImage;

use crate::geom::RectF;

/// Side of the square both template and cell are reduced to.
const SIZE: usize = 24;
/// Extra samples on each side of a cell, for the shift search.
const SLACK: usize = 2;

/// A piece's appearance, ready for matching.
#[derive(Clone, Debug)]
pub struct Template {
    plain: Vec<f32>,
    mirrored: Option<Vec<f32>>,
}

/// Reduces `rect` of `img` to `n × n` whiteness samples by area averaging.
fn reduce(img: &RgbImage, rect: RectF, n: usize) -> Vec<f32> {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let raw = img.as_raw();
    let sx = rect.width() / n as f64;
    let sy = rect.height() / n as f64;
    let mut out = Vec::with_capacity(n * n);
    for j in 0..n {
        for i in 0..n {
            let (fx0, fy0) = (rect.x0 + sx * i as f64, rect.y0 + sy * j as f64);
            let (xa, xb) = (
                fx0.floor() as i64,
                ((fx0 + sx).ceil() as i64).max(fx0.floor() as i64 + 1),
            );
            let (ya, yb) = (
                fy0.floor() as i64,
                ((fy0 + sy).ceil() as i64).max(fy0.floor() as i64 + 1),
            );
            // Outside the image, repeat its edge.
            let (ya, yb) = (ya.clamp(0, h - 1), yb.clamp(1, h));
            let (xa, xb) = (xa.clamp(0, w - 1), xb.clamp(1, w));
            let (mut sum, mut cnt) = (0u32, 0u32);
            for y in ya..yb.max(ya + 1) {
                for x in xa..xb.max(xa + 1) {
                    let k = ((y * w + x) * 3) as usize;
                    sum += u32::from(raw[k].min(raw[k + 1]).min(raw[k + 2]));
                    cnt += 1;
                }
            }
            out.push(if cnt > 0 {
                sum as f32 / cnt as f32
            } else {
                0.0
            });
        }
    }
    out
}

/// Zero mean, unit norm; `None` for a flat patch.
fn normalise(v: &mut [f32]) -> Option<()> {
    let mean = v.iter().sum::<f32>() / v.len() as f32;
    v.iter_mut().for_each(|x| *x -= mean);
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm < 1e-3 * v.len() as f32 {
        return None;
    }
    v.iter_mut().for_each(|x| *x /= norm);
    Some(())
}

impl Template {
    /// Builds a template from an image of the piece on its cell, framed as
    /// a cell is framed by the lattice.
    pub fn from_image(img: &RgbImage, mirror: bool) -> Option<Template> {
        let full = RectF {
            x0: 0.0,
            y0: 0.0,
            x1: f64::from(img.width()),
            y1: f64::from(img.height()),
        };
        let mut plain = reduce(img, full, SIZE);
        normalise(&mut plain)?;
        let mirrored = mirror.then(|| {
            (0..SIZE * SIZE)
                .map(|k| plain[(k / SIZE) * SIZE + (SIZE - 1 - k % SIZE)])
                .collect()
        });
        Some(Template { plain, mirrored })
    }

    /// True when the mirror image matches too.
    pub fn mirrors(&self) -> bool {
        self.mirrored.is_some()
    }

    /// Best correlation (−1..=1) of the template with the cell `rect`.
    pub fn score(&self, img: &RgbImage, rect: RectF) -> f32 {
        scores(&[self], img, rect)[0]
    }
}

/// The whole pixels `rect` covers in `img`, as an image to make a template
/// of; `None` when that is no more than `min_side` pixels a side.
pub fn crop(img: &RgbImage, rect: RectF, min_side: u32) -> Option<RgbImage> {
    let (x0, y0, x1, y1) = rect.pixels(img.width(), img.height());
    (x1 > x0 + min_side && y1 > y0 + min_side)
        .then(|| image::imageops::crop_imm(img, x0, y0, x1 - x0, y1 - y0).to_image())
}

/// Each template's best correlation (−1..=1) with the cell `rect`, over
/// the same shifts as [`Template::score`]; the cell is reduced and each
/// shifted window normalised once for all of them.
pub fn scores(templates: &[&Template], img: &RgbImage, rect: RectF) -> Vec<f32> {
    let n = SIZE + 2 * SLACK;
    let step = (rect.width() / SIZE as f64, rect.height() / SIZE as f64);
    let wide = RectF {
        x0: rect.x0 - step.0 * SLACK as f64,
        y0: rect.y0 - step.1 * SLACK as f64,
        x1: rect.x1 + step.0 * SLACK as f64,
        y1: rect.y1 + step.1 * SLACK as f64,
    };
    let patch = reduce(img, wide, n);
    let mut best = vec![-1.0f32; templates.len()];
    for dy in 0..=2 * SLACK {
        for dx in 0..=2 * SLACK {
            let mut win: Vec<f32> = (0..SIZE)
                .flat_map(|j| {
                    patch[(j + dy) * n + dx..(j + dy) * n + dx + SIZE]
                        .iter()
                        .copied()
                })
                .collect();
            if normalise(&mut win).is_none() {
                continue;
            }
            for (b, t) in best.iter_mut().zip(templates) {
                for v in std::iter::once(&t.plain).chain(t.mirrored.as_ref()) {
                    *b = b.max(dot(v, &win));
                }
            }
        }
    }
    best
}

/// The dot product of two equal-length vectors, in eight lanes the
/// compiler can keep in one SIMD register (`SIZE * SIZE` is a multiple of
/// eight), which a plain sum, added in order, cannot.
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f32 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            lanes[k] += x[k] * y[k];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    fn blob(w: u32, cx: f64, cy: f64) -> RgbImage {
        RgbImage::from_fn(w, w, |x, y| {
            let (u, v) = (x as f64 / w as f64 - cx, y as f64 / w as f64 - cy);
            if u * u + 2.0 * v * v < 0.06 {
                Rgb([250, 250, 250])
            } else {
                Rgb([40, 80, 220])
            }
        })
    }

    #[test]
    fn matches_itself_at_other_scales_and_rejects_flat_cells() {
        let t = Template::from_image(&blob(64, 0.45, 0.5), false).unwrap();
        let big = blob(150, 0.45, 0.5);
        let r = RectF {
            x0: 0.0,
            y0: 0.0,
            x1: 150.0,
            y1: 150.0,
        };
        assert!(t.score(&big, r) > 0.9);
        let flat = RgbImage::from_pixel(50, 50, Rgb([200, 200, 250]));
        let r = RectF {
            x0: 0.0,
            y0: 0.0,
            x1: 50.0,
            y1: 50.0,
        };
        assert!(t.score(&flat, r) <= -1.0 + 1e-6);
    }
}
