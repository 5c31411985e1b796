//! Measures one cell of a lattice: its colour, and whether something sharp
//! (a piece, text, a pointer) is drawn over it.

use image::RgbImage;

use super::color::Rgb;
use crate::geom::RectF;

/// How cells are sampled; part of a game's calibration.
#[derive(Clone, Debug)]
pub struct SampleParams {
    /// Fraction of the pitch trimmed from each side, to stay clear of grid lines.
    pub inset: f64,
    /// The cell's colour is read at this luminance percentile (0–1). Clouds
    /// and highlights only lighten a cell, so a low percentile sees through
    /// them.
    pub percentile: f32,
    /// Colour step (0–255) between pixels two apart that counts as sharp.
    pub sharp_step: u8,
}

impl Default for SampleParams {
    fn default() -> Self {
        SampleParams {
            inset: 0.16,
            percentile: 0.2,
            sharp_step: 48,
        }
    }
}

/// What a cell looks like.
#[derive(Clone, Debug, Default)]
pub struct CellSample {
    /// The colour at the configured percentile (the mean of pixels near it).
    pub color: Rgb,
    /// Sharp-edge pixels per pixel of cell side: about 2 for one straight
    /// edge across the cell, far more for a drawn piece, near 0 for a plain
    /// cell even under soft clouds.
    pub marks: f32,
    /// Fraction of near-black pixels (outlines of pieces and text).
    pub ink: f32,
}

fn luma(p: &[u8]) -> u16 {
    u16::from(p[0]) + u16::from(p[1]) + u16::from(p[2])
}

/// Samples the cell `rect` (the whole cell, line centre to line centre).
///
/// The colour comes from the inner part (the inset). Sharp marks are
/// counted there in both directions, and also in the bands between the
/// inner part and the grid lines, where only steps *along* the nearest line
/// count: a grid line is uniform along its length, so any such step there
/// is something drawn across it (text straddling two rows, a pointer).
pub fn sample(img: &RgbImage, rect: RectF, p: &SampleParams) -> CellSample {
    let inner = rect.inset(p.inset);
    let (w, h) = (img.width(), img.height());
    let px = Pixels::new(img, p.sharp_step);
    let (x0, y0, x1, y1) = inner.pixels(w, h);
    if x1 <= x0 || y1 <= y0 {
        return CellSample::default();
    }
    let mut hist = [0u32; 766];
    let mut sharp = 0u32;
    let mut ink = 0u32;
    for y in y0..y1 {
        for x in x0..x1 {
            let c = px.at(x, y);
            hist[luma(c) as usize] += 1;
            if c.iter().all(|&v| v < 70) {
                ink += 1;
            }
            if px.sharp_x(x, y) || px.sharp_y(x, y) {
                sharp += 1;
            }
        }
    }
    sharp += band_marks(&px, rect, (x0, y0, x1, y1));
    let n = (x1 - x0) * (y1 - y0);
    let color = percentile_color(&px, (x0, y0, x1, y1), &hist, p.percentile);
    let side = f64::from(n).sqrt() as f32;
    CellSample {
        color,
        marks: sharp as f32 / side.max(1.0),
        ink: ink as f32 / n as f32,
    }
}

/// Pixel access and the sharp-step tests over an image.
struct Pixels<'a> {
    raw: &'a [u8],
    w: u32,
    h: u32,
    sharp_step: u8,
}

impl<'a> Pixels<'a> {
    fn new(img: &'a RgbImage, sharp_step: u8) -> Self {
        Pixels {
            raw: img.as_raw(),
            w: img.width(),
            h: img.height(),
            sharp_step,
        }
    }

    fn at(&self, x: u32, y: u32) -> &[u8] {
        let i = y as usize * self.w as usize * 3 + x as usize * 3;
        &self.raw[i..i + 3]
    }

    fn step(&self, a: &[u8], b: &[u8]) -> bool {
        a.iter()
            .zip(b)
            .map(|(p, q)| p.abs_diff(*q))
            .max()
            .unwrap_or(0)
            >= self.sharp_step
    }

    fn sharp_x(&self, x: u32, y: u32) -> bool {
        x > 0 && x + 1 < self.w && self.step(self.at(x - 1, y), self.at(x + 1, y))
    }

    fn sharp_y(&self, x: u32, y: u32) -> bool {
        y > 0 && y + 1 < self.h && self.step(self.at(x, y - 1), self.at(x, y + 1))
    }
}

/// Sharp steps in the bands between the inner part and the grid lines,
/// from two pixels off the line's centre; only steps along the nearest
/// line count.
fn band_marks(px: &Pixels, rect: RectF, (x0, y0, x1, y1): (u32, u32, u32, u32)) -> u32 {
    let (ox0, oy0, ox1, oy1) = RectF {
        x0: rect.x0 + 2.0,
        y0: rect.y0 + 2.0,
        x1: rect.x1 - 2.0,
        y1: rect.y1 - 2.0,
    }
    .pixels(px.w, px.h);
    let mut sharp = 0;
    for y in y0..y1 {
        for x in (ox0..x0).chain(x1..ox1.max(x1)) {
            sharp += u32::from(px.sharp_y(x, y));
        }
    }
    for x in x0..x1 {
        for y in (oy0..y0).chain(y1..oy1.max(y1)) {
            sharp += u32::from(px.sharp_x(x, y));
        }
    }
    sharp
}

/// The luminance at the percentile, then the mean colour of the pixels
/// within a few levels of it.
fn percentile_color(
    px: &Pixels,
    (x0, y0, x1, y1): (u32, u32, u32, u32),
    hist: &[u32; 766],
    percentile: f32,
) -> Rgb {
    let n = (x1 - x0) * (y1 - y0);
    let want = ((n as f32 * percentile.clamp(0.0, 1.0)) as u32).min(n - 1);
    let mut seen = 0;
    let mut level = 0usize;
    for (l, &c) in hist.iter().enumerate() {
        seen += c;
        if seen > want {
            level = l;
            break;
        }
    }
    let (lo, hi) = (level.saturating_sub(6) as u16, level as u16 + 6);
    let mut sum = [0f64; 3];
    let mut count = 0f64;
    for y in y0..y1 {
        for x in x0..x1 {
            let c = px.at(x, y);
            let l = luma(c);
            if l >= lo && l <= hi {
                for k in 0..3 {
                    sum[k] += f64::from(c[k]);
                }
                count += 1.0;
            }
        }
    }
    Rgb(sum.map(|s| (s / count.max(1.0)) as f32))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb as P;

    #[test]
    fn percentile_colour_sees_through_a_light_cloud() {
        // A blue cell with its right third whitened.
        let img = RgbImage::from_fn(40, 40, |x, _| {
            if x > 26 {
                P([200, 200, 245])
            } else {
                P([110, 110, 230])
            }
        });
        let s = sample(
            &img,
            RectF {
                x0: 0.0,
                y0: 0.0,
                x1: 40.0,
                y1: 40.0,
            },
            &SampleParams::default(),
        );
        assert!(
            s.color.distance(Rgb([110.0, 110.0, 230.0])) < 3.0,
            "{:?}",
            s.color
        );
        assert!(s.marks > 1.0, "a hard cloud edge is sharp: {}", s.marks);
    }

    #[test]
    fn text_across_a_grid_line_is_a_mark_but_the_line_is_not() {
        // A cell with a white line along its top edge, then a dark stroke
        // crossing that line.
        let lined = |stroke: bool| {
            RgbImage::from_fn(40, 40, |x, y| {
                if stroke && (18..21).contains(&x) && y < 6 {
                    P([20, 20, 20])
                } else if y < 2 {
                    P([255, 255, 255])
                } else {
                    P([110, 110, 230])
                }
            })
        };
        let r = RectF {
            x0: 0.0,
            y0: 1.0,
            x1: 40.0,
            y1: 41.0,
        };
        let p = SampleParams::default();
        assert_eq!(sample(&lined(false), r, &p).marks, 0.0);
        assert!(sample(&lined(true), r, &p).marks > 0.1);
    }

    #[test]
    fn plain_cells_have_no_marks() {
        let img = RgbImage::from_fn(40, 40, |x, y| {
            P([100 + (x / 4) as u8, 100 + (y / 4) as u8, 230])
        });
        let s = sample(
            &img,
            RectF {
                x0: 0.0,
                y0: 0.0,
                x1: 40.0,
                y1: 40.0,
            },
            &SampleParams::default(),
        );
        assert_eq!(s.marks, 0.0);
        assert_eq!(s.ink, 0.0);
    }
}
