//! The debug image: the input, with the lattice, each cell's letter and
//! confidence, unreadable cells crossed in red, and the planned moves.

use image::{Rgb, RgbImage};

use super::font::{draw_text, text_height, text_width};
use super::grid::GridRead;

const LINE: Rgb<u8> = Rgb([255, 0, 200]);
const BAD: Rgb<u8> = Rgb([230, 20, 20]);
const PATH: Rgb<u8> = Rgb([0, 170, 60]);

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

/// Draws what was read over a copy of the input. `path` is the planned
/// sequence of cells, drawn as numbered steps from `start`.
pub fn render(
    input: &RgbImage,
    read: Option<&GridRead>,
    start: Option<(usize, usize)>,
    path: &[(usize, usize)],
) -> RgbImage {
    let mut img = input.clone();
    let Some(read) = read else {
        let scale = (img.width() / 160).max(1);
        let (cx, cy) = (f64::from(img.width()) / 2.0, f64::from(img.height()) / 2.0);
        label(&mut img, cx, cy, "NO BOARD FOUND", scale, BAD);
        return img;
    };
    let lat = &read.lattice;
    let (pitch, _) = lat.pitch();
    let b = lat.bounds();
    let lw = (pitch / 30.0).max(1.0);
    for &x in &lat.xs {
        draw_line(&mut img, (x, b.y0), (x, b.y1), lw, LINE);
    }
    for &y in &lat.ys {
        draw_line(&mut img, (b.x0, y), (b.x1, y), lw, LINE);
    }
    let centre = |(r, c): (usize, usize)| lat.cell(r, c).centre();
    if let Some(s) = start {
        let mut prev = centre(s);
        for &cell in path {
            let next = centre(cell);
            draw_line(&mut img, prev, next, lw, PATH);
            prev = next;
        }
    }
    // Labels: the letter and confidence, sized to fit the cell.
    let scale = ((pitch / 40.0).floor() as u32).max(1);
    for (r, row) in read.cells.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let rect = lat.cell(r, c);
            let (cx, cy) = rect.centre();
            let conf = format!("{:02}", (cell.confidence * 100.0).round().min(99.0) as u32);
            match cell.letter {
                Some(l) => {
                    label(
                        &mut img,
                        cx,
                        cy - f64::from(4 * scale),
                        &l.to_string(),
                        scale,
                        Rgb([255, 255, 255]),
                    );
                    label(
                        &mut img,
                        cx,
                        cy + f64::from(5 * scale),
                        &conf,
                        scale,
                        Rgb([255, 255, 0]),
                    );
                }
                None => {
                    let inner = rect.inset(0.12);
                    draw_line(
                        &mut img,
                        (inner.x0, inner.y0),
                        (inner.x1, inner.y1),
                        lw * 1.5,
                        BAD,
                    );
                    draw_line(
                        &mut img,
                        (inner.x1, inner.y0),
                        (inner.x0, inner.y1),
                        lw * 1.5,
                        BAD,
                    );
                    label(
                        &mut img,
                        cx,
                        cy - f64::from(4 * scale),
                        &format!("{}?", cell.guess),
                        scale,
                        BAD,
                    );
                    label(&mut img, cx, cy + f64::from(5 * scale), &conf, scale, BAD);
                }
            }
        }
    }
    for (i, &cell) in path.iter().enumerate() {
        let rect = lat.cell(cell.0, cell.1);
        let s = scale.max(1);
        let text = (i + 1).to_string();
        let x = rect.x0 + f64::from(text_width(&text, s)) / 2.0 + 2.0 * lw;
        let y = rect.y0 + f64::from(text_height(s)) / 2.0 + 2.0 * lw;
        label(&mut img, x, y, &text, s, Rgb([120, 255, 140]));
    }
    img
}
