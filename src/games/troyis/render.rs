//! A Troyis-style renderer with the project's own art: light targets, a
//! dark-cell gradient, tinted visited cells, the knight glyph on a coloured
//! cell, white grid lines with a grey edge, and soft drifting clouds.
//!
//! It draws the practice board and the recorded screenshots under
//! `tests/`, at any pitch and margin, so the reader is tested on images
//! whose truth is known exactly. A [`Skin`] recolours everything (page,
//! lines, cells, the knight), to test `boardbot calibrate` on a look the
//! built-in calibration does not know.

use image::{Rgb, RgbImage};

use super::board::{Board, Square};
use super::knight;
use crate::vision::Lattice;

pub const PAGE: [u8; 3] = [94, 104, 200];

/// The colours of everything but the knight's cell and the visited cells
/// (which change from level to level, see [`Style`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    pub page: [u8; 3],
    pub line: [u8; 3],
    /// The grey edge on a wide line's far side.
    pub line_shade: [u8; 3],
    /// Targets, from the top of the board to the bottom.
    pub target: ([f32; 3], [f32; 3]),
    /// Dark cells, from the top of the board to the bottom.
    pub dark: ([f32; 3], [f32; 3]),
    /// The knight's body and outline.
    pub body: [f32; 3],
    pub outline: [f32; 3],
    /// The knight's cell and the visited cells when the command line does
    /// not choose.
    pub knight_bg: [u8; 3],
    pub visited: [u8; 3],
}

impl Skin {
    /// The look of the original game.
    pub const CLASSIC: Skin = Skin {
        page: PAGE,
        line: [255, 255, 255],
        line_shade: [192, 189, 178],
        target: ([225.0, 225.0, 250.0], [233.0, 233.0, 250.0]),
        dark: ([105.0, 105.0, 230.0], [142.0, 142.0, 230.0]),
        body: [246.0, 246.0, 246.0],
        outline: [16.0, 16.0, 16.0],
        knight_bg: palette::KNIGHT_BLUE,
        visited: palette::VISITED_RED,
    };

    /// Warm autumn colours: sand targets, brown dark cells, teal visited
    /// cells, a cream knight on green.
    pub const EMBER: Skin = Skin {
        page: [70, 44, 34],
        line: [250, 240, 222],
        line_shade: [180, 160, 130],
        target: ([246.0, 214.0, 160.0], [240.0, 198.0, 138.0]),
        dark: ([122.0, 62.0, 40.0], [158.0, 86.0, 52.0]),
        body: [255.0, 242.0, 204.0],
        outline: [34.0, 22.0, 12.0],
        knight_bg: [46, 120, 64],
        visited: [52, 150, 156],
    };

    /// The skins by name, for the command line.
    pub const NAMES: &[&str] = &["classic", "ember"];

    pub fn named(name: &str) -> Option<Skin> {
        match name {
            "classic" => Some(Skin::CLASSIC),
            "ember" => Some(Skin::EMBER),
            _ => None,
        }
    }
}

/// Colours the game uses from level to level.
pub mod palette {
    pub const KNIGHT_BLUE: [u8; 3] = [70, 136, 235];
    pub const KNIGHT_YELLOW: [u8; 3] = [228, 200, 60];
    pub const KNIGHT_PURPLE: [u8; 3] = [128, 60, 190];
    pub const KNIGHT_RED: [u8; 3] = [200, 62, 82];
    pub const VISITED_RED: [u8; 3] = [198, 64, 90];
    pub const VISITED_MAGENTA: [u8; 3] = [186, 68, 186];
    pub const VISITED_GREEN: [u8; 3] = [72, 168, 92];

    /// Looks a colour up by name, for the command line.
    pub fn named(name: &str) -> Option<[u8; 3]> {
        Some(match name {
            "blue" => KNIGHT_BLUE,
            "yellow" => KNIGHT_YELLOW,
            "purple" => KNIGHT_PURPLE,
            "red" => VISITED_RED,
            "magenta" => VISITED_MAGENTA,
            "green" => VISITED_GREEN,
            _ => return None,
        })
    }
}

/// How to draw a board.
#[derive(Clone, Debug)]
pub struct Style {
    /// Cell pitch in pixels (line centre to line centre).
    pub pitch: f64,
    /// Page margins around the board: left, top, right, bottom.
    pub margins: [f64; 4],
    pub knight_bg: [u8; 3],
    pub visited: [u8; 3],
    /// Number of clouds; 0 for none.
    pub clouds: usize,
    pub seed: u64,
    /// Cloud drift, in pitches to the right.
    pub drift: f64,
    pub skin: Skin,
}

impl Style {
    pub fn new(pitch: f64) -> Style {
        Style {
            pitch,
            margins: [pitch * 0.1; 4],
            knight_bg: palette::KNIGHT_BLUE,
            visited: palette::VISITED_RED,
            clouds: 0,
            seed: 1,
            drift: 0.0,
            skin: Skin::CLASSIC,
        }
    }

    /// The same style with these page margins.
    pub fn with_margins(self, margins: [f64; 4]) -> Style {
        Style { margins, ..self }
    }

    pub fn line_width(&self) -> f64 {
        (self.pitch * 0.045).max(1.0)
    }
}

/// Where the board lands in the picture.
pub fn layout(rows: usize, cols: usize, style: &Style) -> (u32, u32, Lattice) {
    let [l, t, r, b] = style.margins;
    let lw = style.line_width();
    let lattice = Lattice::uniform(
        l + lw / 2.0,
        t + lw / 2.0,
        style.pitch,
        style.pitch,
        rows,
        cols,
    );
    let w = (l + lw + style.pitch * cols as f64 + r).ceil() as u32;
    let h = (t + lw + style.pitch * rows as f64 + b).ceil() as u32;
    (w, h, lattice)
}

struct Cloud {
    lobes: Vec<(f64, f64, f64, f64)>,
    alpha: f64,
}

struct Rng(u64);
impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn clouds(style: &Style, lattice: &Lattice) -> Vec<Cloud> {
    let mut rng = Rng(style.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let b = lattice.bounds();
    let p = style.pitch;
    (0..style.clouds)
        .map(|_| {
            let span = b.width() + 2.0 * p;
            let cx = b.x0 - p + (rng.unit() * span + style.drift * p).rem_euclid(span);
            let cy = b.y0 + rng.unit() * b.height();
            let size = p * (0.5 + 0.7 * rng.unit());
            let lobes = (0..4)
                .map(|_| {
                    (
                        cx + (rng.unit() - 0.5) * size * 1.6,
                        cy + (rng.unit() - 0.5) * size * 0.6,
                        size * (0.4 + 0.4 * rng.unit()),
                        size * (0.25 + 0.2 * rng.unit()),
                    )
                })
                .collect();
            Cloud {
                lobes,
                alpha: 0.25 + 0.2 * rng.unit(),
            }
        })
        .collect()
}

fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    std::array::from_fn(|i| a[i] + (b[i] - a[i]) * t)
}

fn f(c: [u8; 3]) -> [f32; 3] {
    c.map(f32::from)
}

/// The knight on its cell, `size` pixels square, as the template is cut:
/// the glyph fills the cell but for a small border.
fn knight_sprite(size: usize, bg: [u8; 3], skin: &Skin) -> Vec<[f32; 3]> {
    knight::raster(size)
        .into_iter()
        .map(|(body, line)| {
            let c = mix(f(bg), skin.body, body);
            mix(c, skin.outline, line)
        })
        .collect()
}

/// Draws the board.
pub fn render(board: &Board, style: &Style) -> RgbImage {
    let (w, h, lattice) = layout(board.rows(), board.cols(), style);
    let mut img = RgbImage::from_pixel(w, h, Rgb(style.skin.page));
    render_into(&mut img, board, style, &lattice);
    img
}

/// How much cloud lies over the point `(x, y)`.
fn cloud_alpha(clouds: &[Cloud], x: f64, y: f64) -> f64 {
    clouds
        .iter()
        .map(|cl| {
            let cover = cl
                .lobes
                .iter()
                .map(|&(lx, ly, rx, ry)| {
                    (-(((x - lx) / rx).powi(2) + ((y - ly) / ry).powi(2))).exp()
                })
                .fold(0.0, f64::max);
            cl.alpha * cover
        })
        .sum()
}

/// Draws the board onto `img` at `lattice` (used by the practice window).
/// What a reader must read from a picture of `board` drawn in `style`:
/// the verdict (`state`), the rows, and the lattice's outer lines as
/// `[rows, x0, x1, y0, y1]` (the document `boardbot render --expect` writes).
pub fn expect(board: &Board, style: &Style, state: serde_json::Value) -> serde_json::Value {
    let (_, _, lat) = layout(board.rows(), board.cols(), style);
    let b = lat.bounds();
    let round = |v: f64| (v * 100.0).round() / 100.0;
    serde_json::json!({
        "state": state,
        "cells": board.row_strings(),
        "grid": [board.rows(), round(b.x0), round(b.x1), round(b.y0), round(b.y1)],
    })
}

/// The verdict a reader must give on a plain picture of `board`.
pub fn state_of(board: &Board) -> &'static str {
    if board.is_solved() {
        "solved"
    } else if super::solver::solve(board, &super::solver::Limits::default()).is_err() {
        "unsolvable"
    } else {
        "playable"
    }
}

/// `boardbot render --game troyis` through the common options: the
/// classic skin, no clouds.
pub fn rendered(
    text: &str,
    origin: &str,
    opts: &crate::art::render::RenderOptions,
) -> Result<crate::art::render::Rendered, crate::game::GameError> {
    let board = Board::parse(text).map_err(|e| crate::game::GameError::Parse {
        origin: origin.to_string(),
        message: e.to_string(),
    })?;
    if opts.moving.is_some() {
        return Err(crate::game::GameError::Usage(
            "--moving is not drawn for troyis".into(),
        ));
    }
    let style = Style {
        margins: opts.margins,
        seed: opts.seed,
        ..Style::new(opts.pitch)
    };
    Ok(crate::art::render::Rendered {
        image: render(&board, &style),
        expect: expect(&board, &style, opts.judged(|| state_of(&board))),
    })
}

pub fn render_into(img: &mut RgbImage, board: &Board, style: &Style, lattice: &Lattice) {
    let lw = style.line_width();
    let b = lattice.bounds();
    let (rows, cols) = (board.rows(), board.cols());
    let glyph_inset = 0.07;
    let sprite_size = (style.pitch * (1.0 - 2.0 * glyph_inset)).round().max(4.0) as usize;
    let skin = &style.skin;
    let sprite = knight_sprite(sprite_size, style.knight_bg, skin);
    let cloud_list = clouds(style, lattice);
    let (x_lo, y_lo) = (
        (b.x0 - lw / 2.0).floor().max(0.0) as u32,
        (b.y0 - lw / 2.0).floor().max(0.0) as u32,
    );
    let (x_hi, y_hi) = (
        ((b.x1 + lw / 2.0).ceil() as u32).min(img.width()),
        ((b.y1 + lw / 2.0).ceil() as u32).min(img.height()),
    );
    for py in y_lo..y_hi {
        for px in x_lo..x_hi {
            let (x, y) = (f64::from(px) + 0.5, f64::from(py) + 0.5);
            // Nearest grid line in each axis.
            let u = (x - b.x0) / style.pitch;
            let v = (y - b.y0) / style.pitch;
            let (ku, kv) = (
                u.round().clamp(0.0, cols as f64),
                v.round().clamp(0.0, rows as f64),
            );
            let du = x - (b.x0 + ku * style.pitch);
            let dv = y - (b.y0 + kv * style.pitch);
            let on_line = |d: f64| d.abs() < lw / 2.0;
            let mut c = if on_line(du) || on_line(dv) {
                // A grey edge on the line's far side once it is wide enough.
                let d = if on_line(du) { du } else { dv };
                if lw >= 2.0 && d > lw / 6.0 {
                    f(skin.line_shade)
                } else {
                    f(skin.line)
                }
            } else {
                let (r, col) = (v.floor() as usize, u.floor() as usize);
                if r >= rows || col >= cols {
                    continue;
                }
                let t = ((y - b.y0) / b.height()) as f32;
                match board.get((r, col)) {
                    Square::Target => mix(skin.target.0, skin.target.1, t),
                    Square::Dark => mix(skin.dark.0, skin.dark.1, t),
                    Square::Visited => f(style.visited),
                    Square::Knight => {
                        let cell = lattice.cell(r, col).inset(glyph_inset);
                        let sx = ((x - cell.x0) / cell.width() * sprite_size as f64).floor();
                        let sy = ((y - cell.y0) / cell.height() * sprite_size as f64).floor();
                        if sx >= 0.0
                            && sy >= 0.0
                            && (sx as usize) < sprite_size
                            && (sy as usize) < sprite_size
                        {
                            sprite[sy as usize * sprite_size + sx as usize]
                        } else {
                            f(style.knight_bg)
                        }
                    }
                }
            };
            let a = cloud_alpha(&cloud_list, x, y);
            if a > 0.004 {
                c = mix(c, [255.0; 3], a.min(0.6) as f32);
            }
            img.put_pixel(px, py, Rgb(c.map(|v| v.round().clamp(0.0, 255.0) as u8)));
        }
    }
}

/// Writes `text` across the middle of the picture in large white letters
/// with a dark outline, as the game announces "Level completed".
pub fn overlay_message(img: &mut RgbImage, text: &str) {
    use crate::art::font::{draw_text, text_height, text_width};
    let scale = (img.width() * 9 / 10 / text_width(text, 1).max(1)).clamp(1, 40);
    let (w, h) = (text_width(text, scale) as i64, text_height(scale) as i64);
    let x = (i64::from(img.width()) - w) / 2;
    let y = (i64::from(img.height()) - h) / 2;
    let o = i64::from((scale / 3).max(1));
    for (dx, dy) in [
        (-o, 0),
        (o, 0),
        (0, -o),
        (0, o),
        (-o, -o),
        (o, o),
        (-o, o),
        (o, -o),
    ] {
        draw_text(img, x + dx, y + dy, text, scale, Rgb([30, 30, 50]));
    }
    draw_text(img, x, y, text, scale, Rgb([255, 255, 255]));
}

/// Darkens the picture towards deep blue, as the game does behind its
/// level splash.
pub fn dim(img: &mut RgbImage) {
    for p in img.pixels_mut() {
        let c = mix(f(p.0), [40.0, 50.0, 150.0], 0.75);
        p.0 = c.map(|v| v.round() as u8);
    }
}

/// The knight template: the knight's cell as the reader frames it (the
/// cell between line centres, less 3 % on each side).
pub fn knight_template(size: u32) -> RgbImage {
    let style = Style {
        margins: [0.0; 4],
        ..Style::new(f64::from(size) / 0.94)
    };
    let board = Board::parse("K").expect("a one-cell board");
    let (w, h, lattice) = layout(1, 1, &style);
    let mut full = RgbImage::from_pixel(w, h, Rgb(palette::KNIGHT_BLUE));
    render_into(&mut full, &board, &style, &lattice);
    let frame = lattice.cell(0, 0).inset(0.03);
    image::imageops::crop_imm(
        &full,
        frame.x0.round() as u32,
        frame.y0.round() as u32,
        size,
        size,
    )
    .to_image()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_the_drawing() {
        let board = Board::parse("KW./.WW/W.V").unwrap();
        let style = Style {
            margins: [10.0, 20.0, 5.0, 7.0],
            ..Style::new(40.0)
        };
        let img = render(&board, &style);
        let (w, h, lat) = layout(3, 3, &style);
        assert_eq!((img.width(), img.height()), (w, h));
        let (cx, cy) = lat.cell(1, 1).centre();
        assert_eq!(
            img.get_pixel(cx as u32, cy as u32).0[2],
            250,
            "a target cell"
        );
        let (cx, cy) = lat.cell(2, 2).centre();
        assert_eq!(img.get_pixel(cx as u32, cy as u32).0, palette::VISITED_RED);
        assert_eq!(img.get_pixel(0, 0).0, PAGE);
    }
}
