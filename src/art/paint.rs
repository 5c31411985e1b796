//! Painting primitives over plain images: boxes, fills, and shapes drawn
//! from a cell's centre out in fractions of the pitch, so that every game's
//! art scales with its board and its reader can look at the same places.

use image::{Rgb, RgbImage};

use crate::vision::Lattice;

/// The pixel box `(x0, y0, x1, y1)` of a rectangle, clipped to the image.
pub fn pixel_box(img: &RgbImage, x0: f64, y0: f64, x1: f64, y1: f64) -> (u32, u32, u32, u32) {
    let clip = |v: f64, max: u32| v.floor().clamp(0.0, f64::from(max)) as u32;
    (
        clip(x0, img.width()),
        clip(y0, img.height()),
        clip(x1.ceil(), img.width()),
        clip(y1.ceil(), img.height()),
    )
}

/// Paints every pixel of the cell-sized box centred at `(cx, cy)` whose
/// offset from the centre, in pitches, `colour_at` gives a colour for.
pub fn paint(
    img: &mut RgbImage,
    (cx, cy): (f64, f64),
    pitch: f64,
    colour_at: impl Fn(f64, f64) -> Option<[u8; 3]>,
) {
    let half = pitch / 2.0;
    let (x0, y0, x1, y1) = pixel_box(img, cx - half, cy - half, cx + half, cy + half);
    for py in y0..y1 {
        for px in x0..x1 {
            let dx = (f64::from(px) + 0.5 - cx) / pitch;
            let dy = (f64::from(py) + 0.5 - cy) / pitch;
            if let Some(c) = colour_at(dx, dy) {
                img.put_pixel(px, py, Rgb(c));
            }
        }
    }
}

/// The centre of cell `(row, col)`, fractional for pieces mid-move.
pub fn centre(lattice: &Lattice, pitch: f64, row: f64, col: f64) -> (f64, f64) {
    (
        lattice.xs[0] + (col + 0.5) * pitch,
        lattice.ys[0] + (row + 0.5) * pitch,
    )
}

/// True inside a rounded square of half side `h` and corner radius `r`.
pub fn in_rounded(dx: f64, dy: f64, (h, r): (f64, f64)) -> bool {
    let (ax, ay) = (dx.abs(), dy.abs());
    if ax > h || ay > h {
        return false;
    }
    let (qx, qy) = (ax - (h - r), ay - (h - r));
    qx <= 0.0 || qy <= 0.0 || qx * qx + qy * qy <= r * r
}

pub fn fill(img: &mut RgbImage, (x0, y0, x1, y1): (u32, u32, u32, u32), c: [u8; 3]) {
    for py in y0..y1 {
        for px in x0..x1 {
            // A pixel counts as on the line when its centre is.
            img.put_pixel(px, py, Rgb(c));
        }
    }
}
