//! boardbot's own B.i.t.Lock art: plain functions that draw a level's
//! state into an image, for the practice window, `boardbot render` and the
//! recorded test screenshots.
//!
//! Every cell is drawn from its centre out, in fractions of the pitch, so
//! the reader ([`super::read`]) can look at the same places at any scale:
//! - ground fills the cell: floor, wall, or a fixed destroyer (crimson with
//!   the arms of a dark cross);
//! - a target is a square ring in its type's colour in the cell's margin
//!   ([`RING`]), with its letter small in the middle, so a tile standing on
//!   it leaves the ring visible;
//! - a normal tile is a rounded square ([`TILE`]) in its type's colour with
//!   its letter; a reverse tile is a diamond ([`DIAMOND`]) in the same
//!   colour: its corners show the floor;
//! - a moving destroyer is a near-black spiked disc;
//! - thin dark grid lines run between cells and round the board.
//!
//! Pieces are drawn at fractional cells, so a frame of a move's animation
//! is the same drawing with pieces part-way between cells.

use image::{Rgb, RgbImage};

use super::level::{Ground, Level};
use crate::vision::Lattice;
use crate::vision::font::{draw_text, text_height, text_width};

/// The page around the board.
pub const PAGE: [u8; 3] = [238, 232, 218];
/// Grid lines.
pub const LINE: [u8; 3] = [40, 40, 48];
pub const FLOOR: [u8; 3] = [176, 176, 184];
pub const WALL: [u8; 3] = [92, 78, 66];
/// A fixed destroyer's ground, and its cross.
pub const DESTROYER: [u8; 3] = [112, 24, 32];
const DESTROYER_CROSS: [u8; 3] = [58, 12, 18];
/// A moving destroyer's body.
pub const MOVER: [u8; 3] = [20, 20, 24];
const MOVER_EYE: [u8; 3] = [230, 60, 40];
/// The counter's text.
const INK: [u8; 3] = [40, 40, 48];

/// The colour of each tile type, A to M.
pub const TYPES: [[u8; 3]; 13] = [
    [214, 48, 48],   // A red
    [44, 108, 226],  // B blue
    [42, 160, 72],   // C green
    [240, 204, 36],  // D yellow
    [142, 72, 204],  // E purple
    [246, 132, 28],  // F orange
    [36, 200, 214],  // G cyan
    [246, 120, 190], // H pink
    [164, 222, 58],  // I lime
    [150, 96, 40],   // J brown
    [28, 44, 128],   // K navy
    [20, 122, 114],  // L teal
    [200, 36, 160],  // M magenta
];

/// A target's ring: from this far from the cell's centre (in pitches, the
/// larger of the two axis offsets) out to the second number.
pub const RING: (f64, f64) = (0.32, 0.46);
/// A normal tile: half its side, and its corners' radius.
pub const TILE: (f64, f64) = (0.27, 0.05);
/// A reverse tile: the diamond's half diagonal.
pub const DIAMOND: f64 = 0.32;
/// A moving destroyer: its disc's radius and its spikes' reach.
pub const SPIKED: (f64, f64) = (0.3, 0.345);

/// What a piece is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An ordinary tile of a type (0 for A); `reverse` steps against the move.
    Tile { kind: u8, reverse: bool },
    /// A moving destroyer.
    Mover,
}

/// A piece where it is drawn: row and column, fractional mid-move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprite {
    pub row: f64,
    pub col: f64,
    pub kind: Kind,
}

/// What to draw: the level's ground and targets, and the pieces.
pub struct Scene<'a> {
    pub level: &'a Level,
    pub sprites: &'a [Sprite],
}

/// The colour of a tile type; types past M wrap (the engine allows A–M).
pub fn type_colour(kind: u8) -> [u8; 3] {
    TYPES[usize::from(kind) % TYPES.len()]
}

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

/// The sprites of a level as loaded.
pub fn level_sprites(level: &Level) -> Vec<Sprite> {
    let at = |cell: usize, kind| Sprite {
        row: (cell / level.cols) as f64,
        col: (cell % level.cols) as f64,
        kind,
    };
    level
        .tiles
        .iter()
        .map(|t| {
            at(
                t.cell,
                Kind::Tile {
                    kind: t.kind,
                    reverse: t.reverse,
                },
            )
        })
        .chain(level.movers.iter().map(|&m| at(m, Kind::Mover)))
        .collect()
}

/// Draws the scene onto `img`, the board on `lattice` (uniform pitch).
pub fn draw(img: &mut RgbImage, scene: &Scene, lattice: &Lattice) {
    let (pitch, _) = lattice.pitch();
    draw_ground(img, scene.level, lattice, pitch);
    for s in scene.sprites {
        draw_sprite(img, s, lattice, pitch);
    }
    draw_lines(img, lattice, pitch);
}

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

fn draw_ground(img: &mut RgbImage, level: &Level, lattice: &Lattice, pitch: f64) {
    for (cell, g) in level.ground.iter().enumerate() {
        let (r, c) = ((cell / level.cols) as f64, (cell % level.cols) as f64);
        let target = level.targets.iter().find(|t| t.0 == cell).map(|t| t.1);
        let at = centre(lattice, pitch, r, c);
        paint(img, at, pitch, |dx, dy| {
            let m = dx.abs().max(dy.abs());
            Some(match (g, target) {
                (Ground::Wall, _) => WALL,
                (Ground::Destroyer, _) => {
                    // The cross's arms stop short of the middle, which
                    // `boardbot calibrate` samples.
                    let on_cross = (dx.abs() - dy.abs()).abs() < 0.05 && m > 0.21 && m < 0.4;
                    if on_cross { DESTROYER_CROSS } else { DESTROYER }
                }
                (Ground::Floor, Some(k)) if (RING.0..RING.1).contains(&m) => type_colour(k),
                (Ground::Floor, _) => FLOOR,
            })
        });
        if let (Ground::Floor, Some(k)) = (g, target) {
            letter(img, at, pitch, char::from(b'A' + k), type_colour(k));
        }
    }
}

/// Draws a letter centred at `at`, at most about 0.3 pitch tall (none
/// below a 23-pixel pitch, where even the smallest would reach the places
/// the reader looks at: there the colours alone tell the types).
fn letter(img: &mut RgbImage, (cx, cy): (f64, f64), pitch: f64, ch: char, colour: [u8; 3]) {
    let scale = (pitch / 23.0).floor() as u32;
    if scale == 0 {
        return;
    }
    let text = ch.to_string();
    let (w, h) = (text_width(&text, scale), text_height(scale));
    let x = (cx - f64::from(w) / 2.0).round() as i64;
    let y = (cy - f64::from(h) / 2.0).round() as i64;
    draw_text(img, x, y, &text, scale, Rgb(colour));
}

/// Dark letters on light tiles, white on dark ones.
fn letter_colour(bg: [u8; 3]) -> [u8; 3] {
    let luma = 0.3 * f64::from(bg[0]) + 0.59 * f64::from(bg[1]) + 0.11 * f64::from(bg[2]);
    if luma > 140.0 { INK } else { [250, 250, 250] }
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

/// True on the spiked disc of a moving destroyer.
fn in_spiked(dx: f64, dy: f64) -> bool {
    let d = (dx * dx + dy * dy).sqrt();
    if d <= SPIKED.0 {
        return true;
    }
    // Eight spikes, narrowing from the disc's edge to their tips.
    let angle = dy.atan2(dx).rem_euclid(std::f64::consts::FRAC_PI_4);
    let off = (angle - std::f64::consts::FRAC_PI_8).abs();
    let reach = SPIKED.1 - (SPIKED.1 - SPIKED.0) * (off / std::f64::consts::FRAC_PI_8) * 2.5;
    d <= reach
}

fn draw_sprite(img: &mut RgbImage, s: &Sprite, lattice: &Lattice, pitch: f64) {
    let at = centre(lattice, pitch, s.row, s.col);
    match s.kind {
        Kind::Tile { kind, reverse } => {
            let c = type_colour(kind);
            paint(img, at, pitch, |dx, dy| {
                let inside = if reverse {
                    dx.abs() + dy.abs() <= DIAMOND
                } else {
                    in_rounded(dx, dy, TILE)
                };
                inside.then_some(c)
            });
            letter(img, at, pitch, char::from(b'A' + kind), letter_colour(c));
        }
        Kind::Mover => paint(img, at, pitch, |dx, dy| {
            let eye = ((dx.abs() - 0.1).powi(2) + (dy + 0.07).powi(2)).sqrt() < 0.04;
            if eye {
                Some(MOVER_EYE)
            } else {
                in_spiked(dx, dy).then_some(MOVER)
            }
        }),
    }
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

pub fn fill(img: &mut RgbImage, (x0, y0, x1, y1): (u32, u32, u32, u32), c: [u8; 3]) {
    for py in y0..y1 {
        for px in x0..x1 {
            // A pixel counts as on the line when its centre is.
            img.put_pixel(px, py, Rgb(c));
        }
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

/// Draws a whole picture: page, board and (room allowing) the counter.
pub fn picture(scene: &Scene, pitch: f64, margins: [f64; 4], moves: Option<usize>) -> RgbImage {
    let (w, h, lattice) = layout(scene.level.rows, scene.level.cols, pitch, margins);
    let mut img = RgbImage::from_pixel(w, h, Rgb(PAGE));
    draw(&mut img, scene, &lattice);
    if let Some(n) = moves {
        counter(&mut img, &lattice, &format!("MOVES {n}"));
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(text: &str) -> Level {
        Level::parse(text).unwrap()
    }

    #[test]
    fn draws_ground_targets_and_pieces_where_the_layout_says() {
        let l = level("#####\n#aAz#\n#*+Bb\n#####");
        let sprites = level_sprites(&l);
        let scene = Scene {
            level: &l,
            sprites: &sprites,
        };
        let img = picture(&scene, 40.0, [5.0, 30.0, 5.0, 5.0], Some(3));
        let (_, _, lat) = layout(4, 5, 40.0, [5.0, 30.0, 5.0, 5.0]);
        let px = |r: usize, c: usize, dx: f64, dy: f64| {
            let (x, y) = lat.cell(r, c).centre();
            img.get_pixel((x + dx * 40.0) as u32, (y + dy * 40.0) as u32)
                .0
        };
        assert_eq!(px(0, 0, 0.0, 0.0), WALL);
        assert_eq!(px(1, 1, 0.0, 0.22), TYPES[0], "the tile's body");
        assert_eq!(px(1, 1, 0.21, 0.21), TYPES[0], "a normal tile's corner");
        assert_eq!(px(1, 3, 0.21, 0.21), FLOOR, "a reverse tile's corner");
        assert_eq!(px(1, 3, 0.0, 0.22), TYPES[0], "the diamond's arm");
        assert_eq!(px(1, 2, 0.0, 0.4), TYPES[0], "the target's ring");
        assert_eq!(px(2, 3, 0.4, 0.0), TYPES[1]);
        assert_eq!(px(2, 1, 0.0, 0.2), MOVER);
        assert_eq!(px(2, 2, 0.0, 0.4), DESTROYER);
        assert_eq!(img.get_pixel(1, 1).0, PAGE);
        let (x, _) = lat.cell(0, 0).centre();
        assert_eq!(img.get_pixel(x as u32, lat.ys[0] as u32).0, LINE);
    }
}
