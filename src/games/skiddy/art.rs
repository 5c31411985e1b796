//! boardbot's own Skiddy art: plain functions that draw a position into an
//! image, for the practice window, `boardbot render` and the recorded test
//! screenshots.
//!
//! Every cell is drawn from its centre out, in fractions of the pitch, so
//! the reader ([`super::read`]) can look at the same places at any scale.
//! Two layers stay apart in space:
//! - the **ground** fills the cell out to its grid lines: floor, a block
//!   (with an amber glue stud in its middle when the level is sticky), a
//!   goal (its skiddy's colour, darker, with a door's arch drawn on it),
//!   or a pit (a near-black rounded hole reaching [`PIT_HOLE`] from the centre);
//! - a **piece** stays within [`PIECE`] of the centre: a skiddy is a round
//!   creature in its colour with two eyes, a crate a wooden box with an X
//!   of planks, an ice cube a pale cyan square with a glint. A piece in a
//!   pit is drawn smaller ([`SUNK`]), so the hole shows all round it. A
//!   piece off its cell by more than about 0.05 pitch reaches the band
//!   where the reader looks for the ground, so a frame caught mid-slide
//!   reads as such.
//!
//! In a sticky level, same-colour skiddies side by side are joined by a
//! narrow bridge of their colour along the line between their centres.
//! Pieces are drawn at fractional cells, so an animation frame is the same
//! drawing with pieces part-way between cells. Thin dark grid lines run
//! between cells and round the board, over everything.

use image::{Rgb, RgbImage};

use super::level::{Colour, Ground, Piece};
use super::rules::{GONE, Key, Rules};
use crate::art::board::{draw_lines, layout};
use crate::art::paint::{centre, in_rounded, paint};
use crate::vision::Lattice;

/// The page around the board.
pub const PAGE: [u8; 3] = [236, 232, 222];
pub const FLOOR: [u8; 3] = [168, 170, 180];
pub const BLOCK: [u8; 3] = [92, 80, 74];
/// The stud in every block of a sticky level.
pub const GLUE: [u8; 3] = [232, 164, 40];
pub const PIT: [u8; 3] = [22, 22, 30];
pub const CRATE: [u8; 3] = [196, 140, 84];
const CRATE_PLANK: [u8; 3] = [120, 78, 40];
pub const ICE: [u8; 3] = [190, 236, 246];
const ICE_EDGE: [u8; 3] = [140, 200, 220];
const ICE_GLINT: [u8; 3] = [250, 254, 255];
const EYE: [u8; 3] = [250, 250, 250];
const PUPIL: [u8; 3] = [16, 16, 20];
/// The status text.
pub const INK: [u8; 3] = [40, 40, 48];

/// Skiddies' colours, by [`Colour::index`].
pub const SKIDDY: [[u8; 3]; 4] = [
    [222, 52, 52],  // red
    [52, 112, 232], // blue
    [44, 172, 76],  // green
    [245, 205, 40], // yellow
];
/// Their goals' colours: the same hues, darker.
pub const GOAL: [[u8; 3]; 4] = [
    [140, 30, 36],  // red
    [28, 62, 150],  // blue
    [22, 104, 44],  // green
    [166, 132, 16], // yellow
];

/// How far a piece reaches from its cell's centre, in pitches.
pub const PIECE: f64 = 0.33;
/// A pit's hole: half its side, and its corners' radius.
pub const PIT_HOLE: (f64, f64) = (0.46, 0.1);
/// The size of a piece in a pit, against one on floor.
pub const SUNK: f64 = 0.8;
/// The glue stud's radius.
pub const STUD: f64 = 0.09;
/// Half the width of a bridge between joined skiddies.
pub const BRIDGE: f64 = 0.07;

/// A piece where it is drawn: row and column, fractional mid-move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprite {
    pub row: f64,
    pub col: f64,
    pub piece: Piece,
    /// Standing in a pit: drawn smaller.
    pub sunk: bool,
}

/// What to draw: the level's ground and the pieces.
pub struct Scene<'a> {
    pub rules: &'a Rules,
    pub sprites: &'a [Sprite],
}

/// A darker shade of a colour.
fn shade(c: [u8; 3], f: f64) -> [u8; 3] {
    c.map(|v| (f64::from(v) * f).round() as u8)
}

/// The pieces of a position, each at its cell.
pub fn sprites_of(rules: &Rules, key: &Key) -> Vec<Sprite> {
    rules
        .slots
        .iter()
        .zip(key.0)
        .filter(|&(_, cell)| cell != GONE)
        .map(|(&piece, cell)| {
            let cell = usize::from(cell);
            Sprite {
                row: (cell / rules.width) as f64,
                col: (cell % rules.width) as f64,
                piece,
                sunk: rules.ground[cell] == Ground::Pit,
            }
        })
        .collect()
}

/// Draws the scene onto `img`, the board on `lattice` (uniform pitch).
pub fn draw(img: &mut RgbImage, scene: &Scene, lattice: &Lattice) {
    let (pitch, _) = lattice.pitch();
    draw_ground(img, scene.rules, lattice, pitch);
    if scene.rules.sticky {
        draw_bridges(img, scene.sprites, lattice, pitch);
    }
    for s in scene.sprites {
        draw_sprite(img, s, lattice, pitch);
    }
    draw_lines(img, lattice, pitch);
}

/// True on a goal's door: two posts, a round top and a sill, a band 0.04
/// wide, inside the edge band where the reader looks for the ground.
fn on_arch(dx: f64, dy: f64) -> bool {
    const TOP: f64 = -0.06;
    const R: (f64, f64) = (0.24, 0.28);
    if dy > 0.34 {
        false
    } else if dy >= 0.30 {
        dx.abs() < R.1
    } else if dy >= TOP {
        (R.0..R.1).contains(&dx.abs())
    } else {
        (R.0..R.1).contains(&(dx * dx + (dy - TOP).powi(2)).sqrt())
    }
}

fn ground_colour(g: Ground, sticky: bool, dx: f64, dy: f64) -> [u8; 3] {
    match g {
        Ground::Floor => FLOOR,
        Ground::Block if sticky && (dx * dx + dy * dy).sqrt() < STUD => GLUE,
        Ground::Block => BLOCK,
        Ground::Goal(c) if on_arch(dx, dy) => shade(GOAL[c.index()], 0.55),
        Ground::Goal(c) => GOAL[c.index()],
        Ground::Pit if in_rounded(dx, dy, PIT_HOLE) => PIT,
        Ground::Pit => FLOOR,
    }
}

fn draw_ground(img: &mut RgbImage, rules: &Rules, lattice: &Lattice, pitch: f64) {
    for (cell, &g) in rules.ground.iter().enumerate() {
        let (r, c) = ((cell / rules.width) as f64, (cell % rules.width) as f64);
        let at = centre(lattice, pitch, r, c);
        paint(img, at, pitch, |dx, dy| {
            Some(ground_colour(g, rules.sticky, dx, dy))
        });
    }
}

/// Joins same-colour skiddies drawn one cell apart (a group moves
/// rigidly, so its members stay one cell apart mid-move too).
fn draw_bridges(img: &mut RgbImage, sprites: &[Sprite], lattice: &Lattice, pitch: f64) {
    for (i, a) in sprites.iter().enumerate() {
        let Piece::Skiddy(colour) = a.piece else {
            continue;
        };
        for b in &sprites[i + 1..] {
            let (dr, dc) = (b.row - a.row, b.col - a.col);
            let side = (dr.abs() < 0.01 && (dc.abs() - 1.0).abs() < 0.01)
                || (dc.abs() < 0.01 && (dr.abs() - 1.0).abs() < 0.01);
            if b.piece != a.piece || !side {
                continue;
            }
            let mid = centre(lattice, pitch, a.row + dr / 2.0, a.col + dc / 2.0);
            let along_rows = dr.abs() > 0.5;
            paint(img, mid, pitch, |dx, dy| {
                let across = if along_rows { dx } else { dy };
                (across.abs() < BRIDGE).then_some(SKIDDY[colour.index()])
            });
        }
    }
}

/// A skiddy's colour at `(dx, dy)` from its centre, at scale 1.
fn skiddy_at(colour: Colour, dx: f64, dy: f64) -> Option<[u8; 3]> {
    let body = SKIDDY[colour.index()];
    // A squarish blob, so that a skiddy a little off its cell reaches the
    // edge patches all along a side.
    let d = (dx.powi(4) + dy.powi(4)).sqrt().sqrt();
    if d > PIECE {
        return None;
    }
    // Eyes near the middle, clear of the places the reader looks at.
    let eye = |x: f64| ((dx - x).powi(2) + (dy + 0.05).powi(2)).sqrt();
    let e = eye(-0.06).min(eye(0.06));
    Some(if e < 0.02 {
        PUPIL
    } else if e < 0.045 {
        EYE
    } else if d > 0.30 {
        shade(body, 0.7)
    } else {
        body
    })
}

fn crate_at(dx: f64, dy: f64) -> Option<[u8; 3]> {
    let m = dx.abs().max(dy.abs());
    if m > PIECE {
        return None;
    }
    let plank = m > 0.3 || (dx.abs() - dy.abs()).abs() < 0.03;
    Some(if plank { CRATE_PLANK } else { CRATE })
}

fn ice_at(dx: f64, dy: f64) -> Option<[u8; 3]> {
    if !in_rounded(dx, dy, (0.32, 0.06)) {
        return None;
    }
    let m = dx.abs().max(dy.abs());
    Some(if (-0.38..-0.32).contains(&(dx + dy)) {
        ICE_GLINT
    } else if m > 0.29 {
        ICE_EDGE
    } else {
        ICE
    })
}

/// A piece's colour at `(dx, dy)` from its centre, at scale 1.
pub fn piece_at(piece: Piece, dx: f64, dy: f64) -> Option<[u8; 3]> {
    match piece {
        Piece::Skiddy(c) => skiddy_at(c, dx, dy),
        Piece::Crate => crate_at(dx, dy),
        Piece::Ice => ice_at(dx, dy),
    }
}

fn draw_sprite(img: &mut RgbImage, s: &Sprite, lattice: &Lattice, pitch: f64) {
    let at = centre(lattice, pitch, s.row, s.col);
    let scale = if s.sunk { SUNK } else { 1.0 };
    paint(img, at, pitch, |dx, dy| {
        piece_at(s.piece, dx / scale, dy / scale)
    });
}

/// Draws a whole picture: page and board, with room above it for a
/// status line (which [`crate::art::board::counter`] writes).
pub fn picture(scene: &Scene, pitch: f64, margins: [f64; 4]) -> (RgbImage, Lattice) {
    let r = scene.rules;
    let (w, h, lattice) = layout(r.height, r.width, pitch, margins);
    let mut img = RgbImage::from_pixel(w, h, Rgb(PAGE));
    draw(&mut img, scene, &lattice);
    (img, lattice)
}

#[cfg(test)]
mod tests {
    use super::super::level::Level;
    use super::*;

    #[test]
    fn draws_ground_and_pieces_where_the_layout_says() {
        let text = "#####R#\n#rr.co#\n#i.b.y#\n###G###\n";
        let rules = Rules::new(&Level::parse(text).unwrap());
        let sprites = sprites_of(&rules, &rules.start);
        let scene = Scene {
            rules: &rules,
            sprites: &sprites,
        };
        let margins = [5.0, 30.0, 5.0, 5.0];
        let (img, lat) = picture(&scene, 40.0, margins);
        let px = |r: usize, c: usize, dx: f64, dy: f64| {
            let (x, y) = lat.cell(r, c).centre();
            img.get_pixel((x + dx * 40.0) as u32, (y + dy * 40.0) as u32)
                .0
        };
        assert_eq!(px(0, 0, 0.3, 0.3), BLOCK);
        assert_eq!(px(0, 0, 0.0, 0.0), GLUE, "sticky: a stud");
        assert_eq!(px(0, 5, 0.0, 0.4), GOAL[0]);
        assert_eq!(px(1, 1, 0.0, 0.2), SKIDDY[0]);
        assert_eq!(px(1, 1, 0.42, 0.0), SKIDDY[0], "a bridge to its neighbour");
        assert_eq!(px(1, 1, 0.4, 0.2), FLOOR);
        assert_eq!(px(1, 4, 0.0, 0.2), CRATE);
        assert_eq!(px(1, 5, 0.4, 0.0), PIT);
        assert_eq!(px(2, 1, 0.0, 0.2), ICE);
        assert_eq!(px(2, 3, 0.0, 0.2), SKIDDY[1]);
        assert_eq!(px(2, 5, 0.0, 0.2), SKIDDY[3]);
        assert_eq!(px(3, 3, 0.0, 0.2), GOAL[2]);
        assert_eq!(img.get_pixel(1, 1).0, PAGE);
    }

    #[test]
    fn a_piece_in_a_pit_shows_the_hole_round_it() {
        let rules = Rules::new(&Level::parse("#####\n#.c.#\n#.o.#\n#.r.#\n##R##\n").unwrap());
        let (_, after) = rules
            .play(&rules.start, super::super::rules::Dir::U)
            .unwrap();
        let sprites = sprites_of(&rules, &after);
        assert!(sprites.iter().any(|s| s.sunk), "the skiddy sank");
        let scene = Scene {
            rules: &rules,
            sprites: &sprites,
        };
        let (img, lat) = picture(&scene, 40.0, [4.0; 4]);
        let (x, y) = lat.cell(2, 2).centre();
        assert_eq!(
            img.get_pixel(x as u32, (y + 0.17 * 40.0) as u32).0,
            SKIDDY[0]
        );
        assert_eq!(img.get_pixel(x as u32, (y + 0.3 * 40.0) as u32).0, PIT);
    }
}
