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
use crate::art::board::draw_lines;
pub use crate::art::board::{counter, layout};
use crate::art::font::{draw_text, text_height, text_width};
use crate::art::paint::{centre, in_rounded, paint};
use crate::vision::Lattice;

/// The page around the board.
pub const PAGE: [u8; 3] = [238, 232, 218];
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
        assert_eq!(
            img.get_pixel(x as u32, lat.ys[0] as u32).0,
            crate::art::board::LINE
        );
    }
}
