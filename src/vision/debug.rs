//! The debug image, for any game: the input, with the lattice, each cell's
//! letter and confidence, unreadable cells crossed in red, and the planned
//! input: clicks numbered in order and joined, drags as numbered arrows,
//! any other kind of action listed by its number and description.

use image::{Rgb, RgbImage};

use super::grid::{CellRead, GridRead};
use crate::art::font::{draw_text, text_height, text_width};
use crate::geom::RectF;
use crate::input::Action;

const LINE: Rgb<u8> = Rgb([255, 0, 200]);
const BAD: Rgb<u8> = Rgb([230, 20, 20]);
const PATH: Rgb<u8> = Rgb([0, 170, 60]);
const NUMBER: Rgb<u8> = Rgb([120, 255, 140]);

fn blend(img: &mut RgbImage, x: i64, y: i64, c: Rgb<u8>, alpha: f32) {
    if x < 0 || y < 0 || x >= i64::from(img.width()) || y >= i64::from(img.height()) {
        return;
    }
    let p = img.get_pixel_mut(x as u32, y as u32);
    for i in 0..3 {
        p.0[i] = (f32::from(p.0[i]) * (1.0 - alpha) + f32::from(c.0[i]) * alpha).round() as u8;
    }
}

/// Draws a line with a square pen of `width` pixels.
pub fn draw_line(img: &mut RgbImage, a: (f64, f64), b: (f64, f64), width: f64, c: Rgb<u8>) {
    let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
    let steps = (len * 2.0).ceil().max(1.0) as usize;
    let r = (width / 2.0).max(0.5);
    for i in 0..=steps {
        let t = i as f64 / steps as f64;
        let (x, y) = (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
        for yy in (y - r).round() as i64..=(y + r).round() as i64 - 1 {
            for xx in (x - r).round() as i64..=(x + r).round() as i64 - 1 {
                blend(img, xx, yy, c, 1.0);
            }
        }
    }
}

/// A label on a dark box, centred at `(cx, cy)`.
fn label(img: &mut RgbImage, cx: f64, cy: f64, text: &str, scale: u32, fg: Rgb<u8>) {
    let (w, h) = (
        i64::from(text_width(text, scale)),
        i64::from(text_height(scale)),
    );
    let (x, y) = (cx.round() as i64 - w / 2, cy.round() as i64 - h / 2);
    let pad = i64::from(scale);
    for yy in y - pad..y + h + pad {
        for xx in x - pad..x + w + pad {
            blend(img, xx, yy, Rgb([0, 0, 0]), 0.6);
        }
    }
    draw_text(img, x, y, text, scale, fg);
}

/// Draws what was read, and the planned `actions` (in image pixels), over
/// a copy of the input.
pub fn render(input: &RgbImage, read: Option<&GridRead>, actions: &[Action]) -> RgbImage {
    let mut img = input.clone();
    let unit = match read {
        Some(read) => {
            draw_grid(&mut img, read);
            read.lattice.pitch().0
        }
        None => {
            let scale = (img.width() / 160).max(1);
            let (cx, cy) = (f64::from(img.width()) / 2.0, f64::from(img.height()) / 2.0);
            label(&mut img, cx, cy, "NO BOARD FOUND", scale, BAD);
            f64::from(img.width().min(img.height())) / 8.0
        }
    };
    draw_actions(&mut img, actions, unit);
    img
}

/// The lattice, and each cell's letter and confidence.
fn draw_grid(img: &mut RgbImage, read: &GridRead) {
    let lat = &read.lattice;
    let (pitch, _) = lat.pitch();
    let b = lat.bounds();
    let lw = (pitch / 30.0).max(1.0);
    for &x in &lat.xs {
        draw_line(img, (x, b.y0), (x, b.y1), lw, LINE);
    }
    for &y in &lat.ys {
        draw_line(img, (b.x0, y), (b.x1, y), lw, LINE);
    }
    // Labels: the letter and confidence, sized to fit the cell.
    let scale = ((pitch / 40.0).floor() as u32).max(1);
    for (r, row) in read.cells.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            draw_cell(img, lat.cell(r, c), cell, scale, lw);
        }
    }
}

fn draw_cell(img: &mut RgbImage, rect: RectF, cell: &CellRead, scale: u32, lw: f64) {
    let (cx, cy) = rect.centre();
    let conf = format!("{:02}", (cell.confidence * 100.0).round().min(99.0) as u32);
    let (top, bottom) = (cy - f64::from(4 * scale), cy + f64::from(5 * scale));
    match cell.letter {
        Some(l) => {
            label(img, cx, top, &l.to_string(), scale, Rgb([255, 255, 255]));
            label(img, cx, bottom, &conf, scale, Rgb([255, 255, 0]));
        }
        None => {
            let inner = rect.inset(0.12);
            let w = lw * 1.5;
            draw_line(img, (inner.x0, inner.y0), (inner.x1, inner.y1), w, BAD);
            draw_line(img, (inner.x1, inner.y0), (inner.x0, inner.y1), w, BAD);
            label(img, cx, top, &format!("{}?", cell.guess), scale, BAD);
            label(img, cx, bottom, &conf, scale, BAD);
        }
    }
}

/// The planned input. `unit` is the size of a cell (or a guess at one),
/// which sets the size of the marks.
fn draw_actions(img: &mut RgbImage, actions: &[Action], unit: f64) {
    let lw = (unit / 30.0).max(1.0);
    let scale = ((unit / 40.0).floor() as u32).max(1);
    let number = |img: &mut RgbImage, (x, y): (f64, f64), i: usize| {
        let text = (i + 1).to_string();
        let dx = f64::from(text_width(&text, scale)) / 2.0 + 2.0 * lw;
        let off = 0.28 * unit;
        label(img, x - off + dx, y - off, &text, scale, NUMBER);
    };
    let mut prev_click: Option<(f64, f64)> = None;
    let mut legend = Vec::new();
    for (i, a) in actions.iter().enumerate() {
        match a {
            Action::Click { x, y, .. } => {
                let p = (f64::from(*x), f64::from(*y));
                if let Some(q) = prev_click {
                    draw_line(img, q, p, lw, PATH);
                }
                draw_line(img, (p.0 - lw, p.1), (p.0 + lw, p.1), 2.0 * lw, PATH);
                number(img, p, i);
                prev_click = Some(p);
            }
            Action::Drag { from, to, .. } => {
                let a = (f64::from(from[0]), f64::from(from[1]));
                let b = (f64::from(to[0]), f64::from(to[1]));
                draw_arrow(img, a, b, lw, 0.25 * unit);
                number(img, a, i);
            }
            Action::DragPath { points, .. } if !points.is_empty() => {
                let p: Vec<(f64, f64)> = points
                    .iter()
                    .map(|q| (f64::from(q[0]), f64::from(q[1])))
                    .collect();
                for (k, w) in p.windows(2).enumerate() {
                    if k + 2 == p.len() {
                        draw_arrow(img, w[0], w[1], lw, 0.25 * unit);
                    } else {
                        draw_line(img, w[0], w[1], lw * 1.5, PATH);
                    }
                }
                number(img, p[0], i);
            }
            // Keys, waits and any other kind: listed in the corner.
            #[allow(unreachable_patterns)]
            other => legend.push(format!("{}. {other}", i + 1)),
        }
    }
    let h = f64::from(text_height(scale) + 3 * scale);
    for (k, line) in legend.iter().enumerate() {
        let w = f64::from(text_width(line, scale));
        let y = h * (k as f64 + 0.5) + f64::from(scale);
        label(
            img,
            w / 2.0 + 2.0 * f64::from(scale),
            y,
            line,
            scale,
            NUMBER,
        );
    }
}

/// A line from `a` to `b` with a head of length `head` at `b`.
fn draw_arrow(img: &mut RgbImage, a: (f64, f64), b: (f64, f64), lw: f64, head: f64) {
    draw_line(img, a, b, lw * 1.5, PATH);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 1.0 {
        return;
    }
    let (ux, uy) = (dx / len, dy / len);
    for side in [-1.0, 1.0] {
        // 30° either side of the shaft, pointing back.
        let (c, s) = (0.866, 0.5 * side);
        let (bx, by) = (-(ux * c - uy * s), -(uy * c + ux * s));
        draw_line(img, b, (b.0 + bx * head, b.1 + by * head), lw * 1.5, PATH);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::Lattice;

    fn count(img: &RgbImage, c: Rgb<u8>) -> usize {
        img.pixels().filter(|p| **p == c).count()
    }

    #[test]
    fn draws_clicks_drags_and_other_actions() {
        let blank = RgbImage::from_pixel(200, 200, Rgb([40, 40, 40]));
        let read = GridRead {
            lattice: Lattice::uniform(10.0, 10.0, 45.0, 45.0, 4, 4),
            cells: Vec::new(),
        };
        let plain = render(&blank, Some(&read), &[]);
        assert!(count(&plain, LINE) > 0);
        assert_eq!(count(&plain, PATH), 0);
        let clicks = [
            Action::click_at(32.0, 32.0, (0, 0)),
            Action::click_at(77.0, 122.0, (2, 1)),
        ];
        let with_clicks = render(&blank, Some(&read), &clicks);
        assert!(count(&with_clicks, PATH) > 40, "the route is drawn");
        let drag = [Action::drag([30, 150], [170, 150])];
        let with_drag = render(&blank, None, &drag);
        let shaft = (40..160)
            .filter(|&x| *with_drag.get_pixel(x, 150) == PATH)
            .count();
        assert!(shaft > 100, "the arrow's shaft: {shaft}");
        let key = [Action::key("Left").unwrap()];
        let with_key = render(&blank, None, &key);
        assert!(count(&with_key, NUMBER) > 0, "listed in the legend");
    }
}
