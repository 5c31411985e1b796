//! The board frame of boardbot's practice windows: where a board goes on
//! its page ([`layout`]), thin grid lines round every cell ([`draw_lines`]),
//! and the move counter in the top margin ([`counter`]).

use image::{Rgb, RgbImage};

use super::font::{draw_text, text_height, text_width};
use super::paint::{fill, pixel_box};
use crate::vision::Lattice;

/// Grid lines.
pub const LINE: [u8; 3] = [40, 40, 48];
/// The counter's text.
const INK: [u8; 3] = [40, 40, 48];

/// Grid line width at a pitch.
pub fn line_width(pitch: f64) -> f64 {
    (pitch * 0.04).max(1.0)
}

/// Where a `rows × cols` board goes with these margins, and the picture's size.
pub fn layout(rows: usize, cols: usize, pitch: f64, margins: [f64; 4]) -> (u32, u32, Lattice) {
    let [l, t, r, b] = margins;
    let lw = line_width(pitch);
    let lattice = Lattice::uniform(l + lw / 2.0, t + lw / 2.0, pitch, pitch, rows, cols);
    let w = (l + lw + pitch * cols as f64 + r).ceil() as u32;
    let h = (t + lw + pitch * rows as f64 + b).ceil() as u32;
    (w, h, lattice)
}

/// Thin lines between cells and round the board, over everything.
pub fn draw_lines(img: &mut RgbImage, lattice: &Lattice, pitch: f64) {
    let half = line_width(pitch) / 2.0;
    let b = lattice.bounds();
    for &x in &lattice.xs {
        let (x0, y0, x1, y1) = pixel_box(img, x - half, b.y0 - half, x + half, b.y1 + half);
        fill(img, (x0, y0, x1, y1), LINE);
    }
    for &y in &lattice.ys {
        let (x0, y0, x1, y1) = pixel_box(img, b.x0 - half, y - half, b.x1 + half, y + half);
        fill(img, (x0, y0, x1, y1), LINE);
    }
}

/// Writes `MOVES n` (and a note) centred above the board, in the top
/// margin, when the margin has room; never inside the lattice.
pub fn counter(img: &mut RgbImage, lattice: &Lattice, text: &str) {
    let top = lattice.ys[0] - line_width(lattice.pitch().0);
    let room = top - 4.0;
    if room < 9.0 {
        return;
    }
    let scale = ((room * 0.6 / 7.0).floor() as u32).clamp(1, 4);
    let (w, h) = (text_width(text, scale), text_height(scale));
    let b = lattice.bounds();
    let x = ((b.x0 + b.x1 - f64::from(w)) / 2.0).max(0.0).round() as i64;
    let y = ((top - f64::from(h)) / 2.0).max(0.0).round() as i64;
    draw_text(img, x, y, text, scale, Rgb(INK));
}
