//! boardbot's own Continuity art: what a frame of scenes shows ([`Shown`])
//! and plain functions that draw it, for the practice window, `boardbot
//! render` and the recorded test screenshots.
//!
//! The picture is built for the reader ([`super::read`]):
//! - the **frame** is a solid rectangle of one colour with the scenes set
//!   in it: a border round them and a gap between them of the same
//!   colour, so the outer box and the slots are found from that colour
//!   alone. The play view's frame is green on a light page; the **tile
//!   view** is zoomed out (cells 0.6 the size), its gaps are as wide as
//!   one and a half of its cells, its frame purple on a dark navy page: a different
//!   look at a glance, and a different frame colour for the reader;
//! - the **empty slot** is near-black; white squares in the frame's top
//!   border over the first slot, one per cell a jump rises, show the jump;
//! - a **cell** is sky (air) or rock (solid) out to its edges, with thin
//!   darker lines between cells (they tell the reader the scene's size);
//! - a **key** (gold, a bow with a keyhole and a toothed shaft), the
//!   **door** (brown, arched, with a knob) and the **character** (red,
//!   with eyes; orange while it still rises in a jump) stand on air and
//!   stay within [`SPRITE`] of the cell's centre, so the cell's corners
//!   always show its ground. A character in a doorway stands in front of
//!   a cell filled with the door's brown (the corners say "door"); once
//!   the level is won the door is drawn open, in green, and the character
//!   is gone through it.
//!
//! Everything is drawn from the cell's centre out, in fractions of its
//! pitch, so the reader looks at the same places at any scale.

use image::{Rgb, RgbImage};

use super::rules::View;
use crate::art::font::{draw_text, text_height, text_width};
use crate::art::paint::{fill, in_rounded, paint, pixel_box};
use crate::vision::Lattice;

/// The play view's page, and its frame.
pub const PAGE: [u8; 3] = [236, 232, 222];
pub const FRAME: [u8; 3] = [52, 140, 84];
/// The tile view's page, and its frame.
pub const TILE_PAGE: [u8; 3] = [28, 32, 56];
pub const TILE_FRAME: [u8; 3] = [150, 92, 220];
/// The marks that show the jump's height.
pub const JUMP_MARK: [u8; 3] = [250, 250, 250];
/// The empty slot.
pub const VOID: [u8; 3] = [14, 14, 20];
pub const AIR: [u8; 3] = [178, 216, 240];
pub const SOLID: [u8; 3] = [100, 86, 78];
pub const KEY: [u8; 3] = [242, 192, 24];
const KEY_DARK: [u8; 3] = [150, 110, 10];
pub const DOOR: [u8; 3] = [150, 78, 34];
const DOOR_DARK: [u8; 3] = [92, 44, 16];
const KNOB: [u8; 3] = [236, 200, 90];
pub const HERO: [u8; 3] = [214, 40, 70];
/// The character while it still rises in a jump.
pub const RISING: [u8; 3] = [246, 140, 30];
/// The open door, once the character went through it.
pub const EXIT: [u8; 3] = [120, 230, 120];
const EXIT_DARK: [u8; 3] = [30, 110, 40];
const EYE: [u8; 3] = [250, 250, 250];
const PUPIL: [u8; 3] = [16, 16, 20];
/// The status text on each page.
const INK: [u8; 3] = [40, 40, 48];
const TILE_INK: [u8; 3] = [226, 226, 236];

/// How far a sprite reaches from its cell's centre (its width; a key's
/// shaft and the door reach lower), in pitches: the corners beyond it
/// show the ground.
pub const SPRITE: f64 = 0.3;
/// The lines between cells: their width in pitches (at least a pixel),
/// and how much they darken the ground.
const LINE: f64 = 0.05;
const LINE_SHADE: f64 = 0.7;
/// The tile view's cells against the play view's.
pub const TILE_ZOOM: f64 = 0.6;

/// What one cell of a scene shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    Air,
    Solid,
    Key,
    Door,
    /// The character, with the cells it will still rise (0 unless
    /// mid-jump), and whether it stands in a doorway.
    Hero {
        rise: u8,
        door: bool,
    },
    /// The open door the character went through: the level is won.
    Exit,
}

impl Drawn {
    /// The cell's letter in [`Shown::rows`]: the level format's for the
    /// ground, a key and the door; `@` the character (`^` rising), `&`
    /// the character in a doorway (`%` rising), `!` the open door.
    pub fn letter(self) -> char {
        match self {
            Drawn::Air => '.',
            Drawn::Solid => '#',
            Drawn::Key => 'k',
            Drawn::Door => 'D',
            Drawn::Hero {
                rise: 0,
                door: false,
            } => '@',
            Drawn::Hero { door: false, .. } => '^',
            Drawn::Hero {
                rise: 0,
                door: true,
            } => '&',
            Drawn::Hero { door: true, .. } => '%',
            Drawn::Exit => '!',
        }
    }

    /// The cell of a letter of [`Drawn::letter`]; a rising character
    /// rises one cell more at least, as far as a picture can say.
    pub fn from_letter(c: char) -> Option<Drawn> {
        let hero = |rise, door| Some(Drawn::Hero { rise, door });
        match c {
            '.' => Some(Drawn::Air),
            '#' => Some(Drawn::Solid),
            'k' => Some(Drawn::Key),
            'D' => Some(Drawn::Door),
            '@' => hero(0, false),
            '^' => hero(1, false),
            '&' => hero(0, true),
            '%' => hero(1, true),
            '!' => Some(Drawn::Exit),
            _ => None,
        }
    }
}

/// The letter of the gaps between scenes in [`Shown::rows`]: the rows
/// then say which view they were read in.
pub fn gap_letter(view: View) -> char {
    match view {
        View::Play => '+',
        View::Tiles => '=',
    }
}

/// The view's name, as `render --expect` writes it.
pub fn view_name(view: View) -> &'static str {
    match view {
        View::Play => "play",
        View::Tiles => "tiles",
    }
}

/// The letter of the empty slot's cells in [`Shown::rows`].
pub const EMPTY_LETTER: char = '_';

/// What the window shows: the frame's slots, each a scene's cells (keys
/// already taken are air) or the empty slot, and the view.
#[derive(Clone, Debug, PartialEq)]
pub struct Shown {
    /// The frame's size in slots.
    pub rows: usize,
    pub cols: usize,
    /// A scene's side in cells.
    pub size: usize,
    /// Row-major: `size × size` cells, row-major, or `None` for the empty slot.
    pub slots: Vec<Option<Vec<Drawn>>>,
    pub view: View,
    /// How many cells a jump rises: that many marks in the frame's top
    /// border, over the first slot.
    pub jump: u8,
}

impl Shown {
    /// The frame as text rows: scene cells by their letters, the empty
    /// slot's as [`EMPTY_LETTER`], and one row or column of the view's
    /// gap letter between slots. This is what the reader reports and what
    /// the live player's checkpoints predict.
    pub fn rows(&self) -> Vec<String> {
        let s = self.size;
        let gap = gap_letter(self.view);
        let mut out = Vec::new();
        for r in 0..self.rows {
            if r > 0 {
                out.push(std::iter::repeat_n(gap, self.cols * (s + 1) - 1).collect());
            }
            for i in 0..s {
                let mut line = String::new();
                for c in 0..self.cols {
                    if c > 0 {
                        line.push(gap);
                    }
                    match &self.slots[r * self.cols + c] {
                        Some(cells) => {
                            line.extend(cells[i * s..(i + 1) * s].iter().map(|c| c.letter()))
                        }
                        None => line.extend(std::iter::repeat_n(EMPTY_LETTER, s)),
                    }
                }
                out.push(line);
            }
        }
        out
    }

    /// Keys still shown.
    pub fn keys(&self) -> usize {
        self.slots
            .iter()
            .flatten()
            .flatten()
            .filter(|&&c| c == Drawn::Key)
            .count()
    }
}

/// Where a frame is drawn: its outer box's top left, the cell pitch and
/// the width of the border and gaps, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geometry {
    pub x0: f64,
    pub y0: f64,
    pub pitch: f64,
    pub gap: f64,
    pub rows: usize,
    pub cols: usize,
    pub size: usize,
}

impl Geometry {
    /// The gap of a view at a pitch: half a cell in the play view, one
    /// and a half cells in the tile view; at least three pixels either way.
    pub fn gap_of(view: View, pitch: f64) -> f64 {
        let g = match view {
            View::Play => pitch * 0.5,
            View::Tiles => pitch * 1.5,
        };
        g.round().max(3.0)
    }

    /// A slot's side in pixels.
    pub fn slot(&self) -> f64 {
        self.pitch * self.size as f64
    }

    /// The outer box's width and height.
    pub fn extent(&self) -> (f64, f64) {
        let across = |n: usize| n as f64 * self.slot() + (n + 1) as f64 * self.gap;
        (across(self.cols), across(self.rows))
    }

    /// The top left corner of a slot.
    pub fn slot_origin(&self, r: usize, c: usize) -> (f64, f64) {
        let step = self.slot() + self.gap;
        (
            self.x0 + self.gap + c as f64 * step,
            self.y0 + self.gap + r as f64 * step,
        )
    }

    /// The centre of cell `(i, j)` of slot `(r, c)`.
    pub fn cell_centre(&self, (r, c): (usize, usize), (i, j): (usize, usize)) -> (f64, f64) {
        let (x, y) = self.slot_origin(r, c);
        (
            x + (j as f64 + 0.5) * self.pitch,
            y + (i as f64 + 0.5) * self.pitch,
        )
    }

    /// The lattice of [`Shown::rows`]: every cell, and each gap between
    /// slots as one band (the outer border is outside it).
    pub fn lattice(&self) -> Lattice {
        let lines = |n: usize, origin: f64| -> Vec<f64> {
            let mut v = Vec::new();
            for k in 0..n {
                let start = origin + self.gap + k as f64 * (self.slot() + self.gap);
                v.extend((0..=self.size).map(|i| start + i as f64 * self.pitch));
            }
            v
        };
        Lattice {
            xs: lines(self.cols, self.x0),
            ys: lines(self.rows, self.y0),
        }
    }
}

/// The layout of a window that shows `rows × cols` scenes of `size` cells
/// at `pitch`: the window's size, and the play view's and tile view's
/// geometry (the tile view centred on the play view's frame).
pub fn layout(
    (rows, cols, size): (usize, usize, usize),
    pitch: f64,
    margins: [f64; 4],
) -> (u32, u32, Geometry, Geometry) {
    let [l, t, r, b] = margins;
    let play = Geometry {
        x0: l,
        y0: t,
        pitch,
        gap: Geometry::gap_of(View::Play, pitch),
        rows,
        cols,
        size,
    };
    let (w, h) = play.extent();
    let tp = (pitch * TILE_ZOOM).round().max(4.0);
    let mut tiles = Geometry {
        pitch: tp,
        gap: Geometry::gap_of(View::Tiles, tp),
        ..play
    };
    let (tw, th) = tiles.extent();
    tiles.x0 = (l + (w - tw) / 2.0).round();
    tiles.y0 = (t + (h - th) / 2.0).round();
    (
        (l + w + r).ceil() as u32,
        (t + h + b).ceil() as u32,
        play,
        tiles,
    )
}

/// A darker shade of a colour.
fn shade(c: [u8; 3], f: f64) -> [u8; 3] {
    c.map(|v| (f64::from(v) * f).round() as u8)
}

/// The key: a round bow with a keyhole, a shaft down to two teeth.
fn key_at(dx: f64, dy: f64) -> Option<[u8; 3]> {
    let r = (dx * dx + dy * dy).sqrt();
    if r < 0.035 {
        return Some(KEY_DARK);
    }
    if r < SPRITE - 0.05 {
        return Some(if r > 0.2 { KEY_DARK } else { KEY });
    }
    let shaft = dx.abs() < 0.05 && (0.2..0.44).contains(&dy);
    let teeth =
        (0.05..0.13).contains(&dx) && ((0.31..0.35).contains(&dy) || (0.39..0.43).contains(&dy));
    (shaft || teeth).then_some(KEY)
}

/// The door: an arched slab down to the cell's bottom, with a knob.
fn door_at(dx: f64, dy: f64, (body, dark): ([u8; 3], [u8; 3])) -> Option<[u8; 3]> {
    const HALF: f64 = SPRITE - 0.02;
    let arch = (dx * dx + (dy + 0.12).powi(2)).sqrt();
    let inside = dx.abs() <= HALF && dy <= 0.46 && (dy >= -0.12 || arch <= HALF);
    if !inside {
        return None;
    }
    let knob = ((dx - 0.15).powi(2) + (dy - 0.13).powi(2)).sqrt() < 0.035;
    let rim = dx.abs() > HALF - 0.04 || (dy < -0.12 && arch > HALF - 0.04);
    Some(if knob {
        KNOB
    } else if rim {
        dark
    } else {
        body
    })
}

/// The character: a rounded body with two eyes looking ahead, and feet.
fn hero_at(dx: f64, dy: f64, rising: u8) -> Option<[u8; 3]> {
    let body = if rising > 0 { RISING } else { HERO };
    let eye = |x: f64| ((dx - x).powi(2) + (dy + 0.16).powi(2)).sqrt();
    let e = eye(-0.1).min(eye(0.1));
    if e < 0.018 {
        return Some(PUPIL);
    }
    if e < 0.04 {
        return Some(EYE);
    }
    if in_rounded(dx, dy, (SPRITE - 0.02, 0.1)) {
        return Some(if dy > 0.22 { shade(body, 0.75) } else { body });
    }
    let foot = (0.1..0.2).contains(&dx.abs()) && (0.28..0.36).contains(&dy);
    foot.then_some(shade(body, 0.5))
}

/// A cell's colour at `(dx, dy)` from its centre, in pitches.
pub fn cell_at(cell: Drawn, dx: f64, dy: f64) -> [u8; 3] {
    let (sprite, ground) = match cell {
        Drawn::Air => (None, AIR),
        Drawn::Solid => (None, SOLID),
        Drawn::Key => (key_at(dx, dy), AIR),
        Drawn::Door => (door_at(dx, dy, (DOOR, DOOR_DARK)), AIR),
        Drawn::Exit => (door_at(dx, dy, (EXIT, EXIT_DARK)), AIR),
        // In a doorway the door fills the cell behind the character.
        Drawn::Hero { rise, door } => (hero_at(dx, dy, rise), if door { DOOR } else { AIR }),
    };
    sprite.unwrap_or(ground)
}

/// Darkens the lines between a slot's cells.
fn draw_cell_lines(img: &mut RgbImage, g: &Geometry, origin: (f64, f64)) {
    let half = (g.pitch * LINE).max(1.0) / 2.0;
    let side = g.slot();
    let mut boxes = Vec::new();
    for k in 1..g.size {
        let at = k as f64 * g.pitch;
        let (x, y) = (origin.0 + at, origin.1 + at);
        boxes.push(pixel_box(
            img,
            x - half,
            origin.1,
            x + half,
            origin.1 + side,
        ));
        boxes.push(pixel_box(
            img,
            origin.0,
            y - half,
            origin.0 + side,
            y + half,
        ));
    }
    for (x0, y0, x1, y1) in boxes {
        for y in y0..y1 {
            for x in x0..x1 {
                let p = img.get_pixel_mut(x, y);
                p.0 = shade(p.0, LINE_SHADE);
            }
        }
    }
}

/// Draws the frame of `shown` at `g` onto `img` (the page is not touched).
pub fn draw(img: &mut RgbImage, shown: &Shown, g: &Geometry) {
    let (w, h) = g.extent();
    let frame = match shown.view {
        View::Play => FRAME,
        View::Tiles => TILE_FRAME,
    };
    fill(img, pixel_box(img, g.x0, g.y0, g.x0 + w, g.y0 + h), frame);
    draw_jump_marks(img, g, shown.jump);
    for r in 0..g.rows {
        for c in 0..g.cols {
            let origin = g.slot_origin(r, c);
            let side = g.slot();
            let b = pixel_box(img, origin.0, origin.1, origin.0 + side, origin.1 + side);
            let Some(cells) = &shown.slots[r * g.cols + c] else {
                fill(img, b, VOID);
                continue;
            };
            for (k, &cell) in cells.iter().enumerate() {
                let at = g.cell_centre((r, c), (k / g.size, k % g.size));
                paint(img, at, g.pitch, |dx, dy| Some(cell_at(cell, dx, dy)));
            }
            draw_cell_lines(img, g, origin);
        }
    }
}

/// The jump's height as marks in the top border: squares of half the
/// border's width, a border's width apart, from the first slot's left edge.
fn draw_jump_marks(img: &mut RgbImage, g: &Geometry, jump: u8) {
    let side = (g.gap * 0.5).max(2.0);
    let y = g.y0 + (g.gap - side) / 2.0;
    for k in 0..jump {
        let x = g.x0 + g.gap + f64::from(k) * g.gap;
        fill(img, pixel_box(img, x, y, x + side, y + side), JUMP_MARK);
    }
}

/// Fills the whole image with the view's page.
pub fn page(img: &mut RgbImage, view: View) {
    let c = match view {
        View::Play => PAGE,
        View::Tiles => TILE_PAGE,
    };
    for p in img.pixels_mut() {
        *p = Rgb(c);
    }
}

/// Writes `text` centred above the frame at `g` (the play view's), in the
/// top margin when it has room; never over the frame.
pub fn status(img: &mut RgbImage, g: &Geometry, view: View, text: &str) {
    let room = g.y0 - 4.0;
    if room < 9.0 {
        return;
    }
    let (w, _) = g.extent();
    let fits = (w * 0.95 / f64::from(text_width(text, 1).max(1))).floor() as u32;
    let scale = ((room * 0.6 / 7.0).floor() as u32)
        .clamp(1, 4)
        .min(fits.max(1));
    let (tw, th) = (text_width(text, scale), text_height(scale));
    let x = ((2.0 * g.x0 + w - f64::from(tw)) / 2.0).max(0.0).round() as i64;
    let y = ((g.y0 - f64::from(th)) / 2.0).max(0.0).round() as i64;
    let ink = match view {
        View::Play => INK,
        View::Tiles => TILE_INK,
    };
    draw_text(img, x, y, text, scale, Rgb(ink));
}

/// A whole picture: the page, the frame in the view `shown` asks for
/// (laid out as the practice window lays it out) and a status line.
pub fn picture(shown: &Shown, pitch: f64, margins: [f64; 4], text: &str) -> (RgbImage, Geometry) {
    let (w, h, play, tiles) = layout((shown.rows, shown.cols, shown.size), pitch, margins);
    let mut img = RgbImage::new(w, h);
    page(&mut img, shown.view);
    let g = match shown.view {
        View::Play => play,
        View::Tiles => tiles,
    };
    draw(&mut img, shown, &g);
    status(&mut img, &play, shown.view, text);
    (img, g)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(view: View) -> Shown {
        let mut a = vec![Drawn::Air; 16];
        a[12..].fill(Drawn::Solid);
        a[9] = Drawn::Hero {
            rise: 0,
            door: false,
        };
        let mut b = vec![Drawn::Air; 16];
        b[5] = Drawn::Key;
        b[10] = Drawn::Door;
        b[3] = Drawn::Solid;
        Shown {
            rows: 2,
            cols: 2,
            size: 4,
            slots: vec![Some(a), None, Some(b.clone()), Some(b)],
            view,
            jump: 2,
        }
    }

    #[test]
    fn rows_put_a_gap_letter_between_slots_and_mark_the_empty_one() {
        let rows = sample(View::Play).rows();
        assert_eq!(rows.len(), 9);
        assert_eq!(rows[0], "....+____");
        assert_eq!(rows[2], ".@..+____");
        assert_eq!(rows[4], "+++++++++");
        assert_eq!(rows[5], "...#+...#");
        assert!(sample(View::Tiles).rows()[4].starts_with("====="));
        assert_eq!(sample(View::Play).keys(), 2);
    }

    #[test]
    fn draws_cells_sprites_gaps_and_the_empty_slot_where_the_geometry_says() {
        let shown = sample(View::Play);
        let (img, g) = picture(&shown, 40.0, [10.0, 40.0, 10.0, 10.0], "STEPS 0");
        let px = |(x, y): (f64, f64)| img.get_pixel(x as u32, y as u32).0;
        let off = |(x, y): (f64, f64), dx: f64, dy: f64| (x + dx * 40.0, y + dy * 40.0);
        assert_eq!(px(g.cell_centre((0, 0), (0, 0))), AIR);
        assert_eq!(px(g.cell_centre((0, 0), (3, 2))), SOLID);
        let hero = g.cell_centre((0, 0), (2, 1));
        assert_eq!(px(off(hero, 0.0, 0.1)), HERO);
        assert_eq!(px(off(hero, 0.4, 0.4)), AIR, "the corners show the ground");
        let key = g.cell_centre((1, 0), (1, 1));
        assert_eq!(px(off(key, 0.0, -0.1)), KEY);
        assert_eq!(px(off(key, -0.4, 0.4)), AIR);
        let door = g.cell_centre((1, 1), (2, 2));
        assert_eq!(px(off(door, 0.1, 0.0)), DOOR);
        assert_eq!(px(g.cell_centre((0, 1), (1, 1))), VOID);
        assert_eq!(px((g.x0 + 2.0, g.y0 + 2.0)), FRAME);
        let (x, _) = g.slot_origin(0, 1);
        assert_eq!(px((x - g.gap / 2.0, 100.0)), FRAME, "the gap between slots");
        assert_eq!(img.get_pixel(1, 1).0, PAGE);
    }

    #[test]
    fn the_tile_view_is_smaller_darker_and_centred_in_the_same_window() {
        let (w, h, play, tiles) = layout((3, 3, 8), 30.0, [10.0; 4]);
        let (pw, ph) = play.extent();
        let (tw, th) = tiles.extent();
        assert!(tw < pw * 0.75 && th < ph * 0.75);
        assert!((tiles.x0 + tw / 2.0 - (play.x0 + pw / 2.0)).abs() <= 1.0);
        let shown = Shown {
            view: View::Tiles,
            ..sample(View::Tiles)
        };
        let (img, g) = picture(&shown, 30.0, [10.0; 4], "");
        assert_eq!(img.get_pixel(1, 1).0, TILE_PAGE);
        assert_eq!(
            img.get_pixel(g.x0 as u32 + 1, g.y0 as u32 + 1).0,
            TILE_FRAME
        );
        assert!(w > 0 && h > 0);
    }

    #[test]
    fn the_lattice_has_every_cell_and_one_band_per_gap() {
        let g = Geometry {
            x0: 5.0,
            y0: 7.0,
            pitch: 10.0,
            gap: 4.0,
            rows: 2,
            cols: 3,
            size: 4,
        };
        let l = g.lattice();
        assert_eq!((l.rows(), l.cols()), (9, 14));
        assert_eq!(l.xs[0], 9.0);
        assert_eq!(l.xs[5], 53.0, "the gap band after the first slot");
        assert_eq!(g.cell_centre((0, 1), (0, 0)), (58.0, 16.0));
    }
}
