//! The pixel side of reading GNOME Klotski: where the board is, what each
//! cell shows, and which blue cells are drawn as one piece.
//!
//! How GNOME Klotski 3.38 draws (`puzzle-view.vala`): a 1-px dark frame
//! (the theme's foreground colour) around a lattice of square cells, the
//! cells starting 3 px inside its left and top lines and ending at its right
//! and bottom ones. Each cell is one tile of the SVG theme, clipped to the
//! cell: nothing for a free cell (the window's background), a small green
//! square for a goal `.`, a big green bevelled square for a door `-`, and
//! for a wall or a piece a blue bevelled face whose bevels and drop shadow
//! are left out on the sides where the neighbour holds the same character
//! (the 8-neighbour mask of `get_piece_nr`). So two cells of one piece (or
//! of the wall) are joined by a continuous face, and different pieces are
//! apart. The special piece `*` gets a small "pyramid" at each cell's
//! centre, or a green dot where that cell stands on a goal. The held piece
//! (pressed, not yet released) gets a 20 % white overlay.
//!
//! 1. [`find_frame`]: the largest rectangle outlined by dark lines.
//! 2. [`fit_lattice`]: the number of columns whose lines best explain the
//!    colour steps inside the frame (the finest one that explains them as
//!    well as the best), then the 3-px inset at this scale.
//! 3. [`look_cell`]: each cell's class from the share of its core's pixels
//!    nearest each calibrated colour.
//! 4. [`joined`]: for each pair of neighbouring blue cells, whether the face
//!    goes on across their common side.

use std::cell::RefCell;
use std::collections::HashMap;

use image::RgbImage;

use crate::geom::RectF;
use crate::vision::Lattice;
use crate::vision::color::{ColorClass, Rgb};

/// The calibration's class letters for the colours GNOME draws with.
pub mod letter {
    /// The window's background: free cells, the margin.
    pub const BACKGROUND: char = '_';
    /// The theme's foreground: the board's frame; also the tiles' shadows.
    pub const INK: char = 'k';
    /// The flat blue face of walls and pieces.
    pub const FACE: char = 'o';
    /// The face under the held piece's white overlay.
    pub const HELD: char = 'h';
    /// The greens of doors, goal markers and the special piece's dots.
    pub const GREEN: char = 'g';
}

/// Each colour the reader tells apart, by calibration class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Px {
    Background,
    Ink,
    Face,
    Held,
    Green,
    Other,
}

/// The calibrated colours, ready to label pixels.
#[derive(Clone, Debug)]
pub struct Palette {
    classes: Vec<(Px, ColorClass)>,
    /// Labels already worked out: GNOME's art has few colours.
    known: RefCell<HashMap<[u8; 3], Px>>,
    pub background: Rgb,
    pub ink: Rgb,
}

impl Palette {
    /// The palette of a calibration's classes; `Err` names a missing one.
    pub fn new(classes: &[ColorClass]) -> Result<Palette, String> {
        let find = |l: char| classes.iter().find(|c| c.letter == l);
        let mut out = Vec::new();
        for (l, px) in [
            (letter::BACKGROUND, Px::Background),
            (letter::INK, Px::Ink),
            (letter::FACE, Px::Face),
            (letter::HELD, Px::Held),
            (letter::GREEN, Px::Green),
        ] {
            let c = find(l).ok_or_else(|| {
                format!("the calibration has no class '{l}' (GNOME Klotski needs _ k o h g)")
            })?;
            out.push((px, c.clone()));
        }
        let background = find(letter::BACKGROUND)
            .and_then(|c| c.stops.first().copied())
            .unwrap_or(Rgb([246.0, 245.0, 244.0]));
        // The frame's ink: of the ink class's colours (black shadows, the
        // theme's foreground), the one nearest the background.
        let ink = find(letter::INK)
            .and_then(|c| {
                c.stops
                    .iter()
                    .copied()
                    .min_by(|a, b| a.distance(background).total_cmp(&b.distance(background)))
            })
            .unwrap_or(Rgb([46.0, 52.0, 54.0]));
        Ok(Palette {
            background,
            ink,
            classes: out,
            known: RefCell::default(),
        })
    }

    /// The class of one pixel: the nearest colour within its tolerance.
    pub fn label(&self, p: [u8; 3]) -> Px {
        if let Some(&px) = self.known.borrow().get(&p) {
            return px;
        }
        let px = self.nearest(p);
        self.known.borrow_mut().insert(p, px);
        px
    }

    fn nearest(&self, p: [u8; 3]) -> Px {
        let c = Rgb::from_u8(p);
        let mut best = (Px::Other, f32::INFINITY);
        for (px, class) in &self.classes {
            let d = class.distance(c);
            if d <= class.tolerance && d < best.1 {
                best = (*px, d);
            }
        }
        best.0
    }

    /// The share of each label among the pixels of `rect`.
    pub fn shares(&self, img: &RgbImage, rect: RectF) -> Shares {
        let (x0, y0, x1, y1) = rect.pixels(img.width(), img.height());
        let mut s = Shares::default();
        let mut n = 0u32;
        for y in y0..y1 {
            for x in x0..x1 {
                n += 1;
                match self.label(img.get_pixel(x, y).0) {
                    Px::Background => s.background += 1.0,
                    Px::Ink => s.ink += 1.0,
                    Px::Face => s.face += 1.0,
                    Px::Held => s.held += 1.0,
                    Px::Green => s.green += 1.0,
                    Px::Other => s.other += 1.0,
                }
            }
        }
        let n = n.max(1) as f32;
        for v in [
            &mut s.background,
            &mut s.ink,
            &mut s.face,
            &mut s.held,
            &mut s.green,
            &mut s.other,
        ] {
            *v /= n;
        }
        s
    }
}

/// Shares (0-1) of a region's pixels by colour.
#[derive(Clone, Copy, Debug, Default)]
pub struct Shares {
    pub background: f32,
    pub ink: f32,
    pub face: f32,
    pub held: f32,
    pub green: f32,
    pub other: f32,
}

/// The board's frame: the outer edges of its four lines, in image pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

/// The smallest frame side looked for, in pixels.
const MIN_FRAME: u32 = 24;

/// A pixel is dark enough to be part of a line when it is this share of
/// the way from the background to the ink (the window's own light border,
/// a quarter of the way, is not; a frame scaled to 0.5x still is).
const LINE_SHARE: f32 = 0.3;

/// Finds the board's frame: the largest rectangle whose four sides are
/// dark lines, left and top sides with the background just outside.
pub fn find_frame(img: &RgbImage, pal: &Palette) -> Option<Frame> {
    let (w, h) = (img.width(), img.height());
    let contrast = pal.ink.distance(pal.background);
    let dark: Vec<bool> = img
        .pixels()
        .map(|p| Rgb::from_u8(p.0).distance(pal.background) > LINE_SHARE * contrast)
        .collect();
    let at = |x: u32, y: u32| dark[(y * w + x) as usize];
    // The run of dark pixels down from each pixel, built bottom-up once:
    // every candidate line asks for several.
    let mut runs = vec![0u32; dark.len()];
    for y in (0..h).rev() {
        for x in 0..w {
            let i = (y * w + x) as usize;
            if dark[i] {
                runs[i] = 1 + if y + 1 < h { runs[i + w as usize] } else { 0 };
            }
        }
    }
    let down = |x: u32, y: u32| runs[(y * w + x) as usize];
    let row_dark = |y: u32, x0: u32, x1: u32| (x0..=x1).filter(|&xx| at(xx, y)).count() as u32;
    let mut best: Option<(u64, (u32, u32, u32, u32))> = None;
    for y in 1..h.saturating_sub(MIN_FRAME) {
        let mut x = 0;
        while x < w {
            if !at(x, y) {
                x += 1;
                continue;
            }
            let x0 = x;
            while x < w && at(x, y) {
                x += 1;
            }
            let x1 = x - 1;
            if x1 - x0 + 1 < MIN_FRAME || x0 < 2 || y < 2 || x1 + 1 >= w {
                continue;
            }
            // A scaled line may turn a corner a pixel early or late: the
            // side is the longest run down from near the corner.
            let side = |x: u32| {
                (x - 1..=x + 1)
                    .flat_map(|xx| (y - 1..=y + 1).map(move |yy| (xx, yy)))
                    .map(|(xx, yy)| (down(xx, yy) + yy).saturating_sub(y))
                    .max()
                    .unwrap_or(0)
            };
            let (hl, hr) = (side(x0), side(x1));
            if hl.min(hr) < MIN_FRAME || hl.abs_diff(hr) > 3 {
                continue;
            }
            let (lo, hi) = (y + hl.min(hr) - 2, (y + hl.max(hr)).min(h - 1));
            let Some(yb) = (lo..=hi).max_by_key(|&yy| (row_dark(yy, x0, x1), yy)) else {
                continue;
            };
            let hgt = yb - y + 1;
            // The frame stands on the window's background: nothing dark just
            // outside its top and left lines (a black screen area is no frame).
            let above = row_dark(y - 2, x0, x1);
            let left = (y..=yb).filter(|&yy| at(x0 - 2, yy)).count() as u32;
            let width = x1 - x0 + 1;
            if row_dark(yb, x0, x1) * 10 < width * 9 || above * 10 > width || left * 10 > hgt {
                continue;
            }
            let area = u64::from(width) * u64::from(hgt);
            if best.is_none_or(|(a, _)| area > a) {
                best = Some((area, (x0, y, x1, yb)));
            }
        }
    }
    best.map(|(_, (x0, y0, x1, y1))| Frame {
        left: f64::from(x0),
        top: f64::from(y0),
        right: f64::from(x1 + 1),
        bottom: f64::from(y1 + 1),
    })
}

/// Colour step between neighbouring pixels that counts as an edge.
const EDGE_STEP: f32 = 48.0;

/// How many rows (columns) inside the frame have an edge between pixels
/// `i - 1` and `i + 1`, for every column (row) `i`, as a share.
pub struct Profiles {
    pub cols: Vec<f32>,
    pub rows: Vec<f32>,
}

/// The edge profiles of the frame's inside.
pub fn profiles(img: &RgbImage, f: &Frame) -> Profiles {
    let (w, h) = (img.width(), img.height());
    let (x0, x1) = ((f.left as u32 + 1).min(w), (f.right as u32).min(w));
    let (y0, y1) = ((f.top as u32 + 1).min(h), (f.bottom as u32).min(h));
    let mut cols = vec![0.0f32; w as usize + 1];
    let mut rows = vec![0.0f32; h as usize + 1];
    let step = |a: [u8; 3], b: [u8; 3]| Rgb::from_u8(a).distance(Rgb::from_u8(b)) > EDGE_STEP;
    for y in y0..y1 {
        for x in x0..x1 {
            // Across two pixels: a scaled edge is spread over two.
            if x > x0 && x + 1 < x1 && step(img.get_pixel(x - 1, y).0, img.get_pixel(x + 1, y).0) {
                cols[x as usize] += 1.0;
            }
            if y > y0 && y + 1 < y1 && step(img.get_pixel(x, y - 1).0, img.get_pixel(x, y + 1).0) {
                rows[y as usize] += 1.0;
            }
        }
    }
    let (nh, nw) = (
        f32::from(u16::try_from(y1 - y0).unwrap_or(u16::MAX).max(1)),
        f32::from(u16::try_from(x1 - x0).unwrap_or(u16::MAX).max(1)),
    );
    cols.iter_mut().for_each(|v| *v /= nh);
    rows.iter_mut().for_each(|v| *v /= nw);
    Profiles { cols, rows }
}

/// The profile's strongest value within a pixel of the boundary `at`
/// (the pixels either side of it).
fn support(profile: &[f32], at: f64) -> f32 {
    let lo = (at - 1.0).floor().max(0.0) as usize;
    let hi = at.ceil().max(0.0) as usize;
    (lo..=hi)
        .filter_map(|i| profile.get(i).copied())
        .fold(0.0, f32::max)
}

/// Mean support of lines `start + k * pitch`, k = 1..n-1, and of the lines
/// halfway between them.
fn line_score(profile: &[f32], start: f64, pitch: f64, n: usize) -> (f32, f32) {
    if n < 2 {
        return (0.0, 0.0);
    }
    let (mut on, mut mid) = (0.0, 0.0);
    for k in 1..n {
        on += support(profile, start + pitch * k as f64);
        mid += support(profile, start + pitch * (k as f64 - 0.5));
    }
    mid += support(profile, start + pitch * (n as f64 - 0.5));
    (on / (n - 1) as f32, mid / n as f32)
}

/// The smallest cell side read, in pixels.
pub const MIN_PITCH: f64 = 8.0;
/// The most cells along a side.
pub const MAX_SIDE: usize = 40;
/// Lattices that explain the edges this well, as a share of the best, are
/// tried (a finer one than the true one explains them half as well).
const SHORTLIST: f32 = 0.5;
/// The most lattices tried.
pub const CANDIDATES: usize = 4;

/// The lattices of square cells that fill `frame` and explain its colour
/// steps best, best first (at most [`CANDIDATES`]); the reader keeps the
/// one whose cells read best. A coarser lattice whose lines are a subset
/// of the true ones explains the steps as well as the true one, so the
/// cells, not the lines, decide.
pub fn fit_lattice(frame: &Frame, prof: &Profiles) -> Vec<Lattice> {
    // The lines' offsets at scale 1 (GNOME's 3-px inset); refined below.
    let guess = |u: f64| {
        let (x0, y0) = (frame.left + 3.0 * u, frame.top + 3.0 * u);
        (x0, y0, frame.right - u - x0, frame.bottom - u - y0)
    };
    let (_, _, w, h) = guess(1.0);
    let mut scored: Vec<(usize, usize, f32)> = Vec::new();
    for n in 1..=MAX_SIDE {
        let p = w / n as f64;
        if p < MIN_PITCH {
            break;
        }
        let m = (h / p).round() as usize;
        if m == 0 || m > MAX_SIDE || (h - m as f64 * p).abs() > 2.0 + 0.01 * h {
            continue;
        }
        let score = insets()
            .map(|u| {
                let (x0, y0, wu, hu) = guess(u);
                let (px, py) = (wu / n as f64, hu / m as f64);
                let (cx, mx) = line_score(&prof.cols, x0, px, n);
                let (cy, my) = line_score(&prof.rows, y0, py, m);
                ((cx - mx) * (n - 1) as f32 + (cy - my) * (m - 1) as f32)
                    / ((n + m).saturating_sub(2).max(1)) as f32
            })
            .fold(f32::MIN, f32::max);
        scored.push((n, m, score));
    }
    let best = scored.iter().map(|s| s.2).fold(0.0, f32::max);
    if best <= 0.0 {
        return Vec::new();
    }
    scored.retain(|s| s.2 >= SHORTLIST * best && n_ok(s.0, s.1));
    scored.sort_by(|a, b| b.2.total_cmp(&a.2));
    scored
        .iter()
        .take(CANDIDATES)
        .map(|&(n, m, _)| refine(frame, prof, n, m))
        .collect()
}

/// The scales of GNOME's 3-px inset tried: 0.3x to 3x.
fn insets() -> impl Iterator<Item = f64> {
    (3..=30).map(|i| f64::from(i) * 0.1)
}

fn n_ok(n: usize, m: usize) -> bool {
    n >= 2 && m >= 2
}

/// The lattice of `n` × `m` cells in `frame`, its inset fitted to the
/// edges: the scale `u` of GNOME's 3-px inset that lines the cells' sides
/// up with the most colour steps.
fn refine(frame: &Frame, prof: &Profiles, n: usize, m: usize) -> Lattice {
    let at = |u: f64| {
        let (x0, y0) = (frame.left + 3.0 * u, frame.top + 3.0 * u);
        let px = (frame.right - u - x0) / n as f64;
        let py = (frame.bottom - u - y0) / m as f64;
        let p = (px + py) / 2.0;
        (x0, y0, p)
    };
    let mut scores: Vec<(f64, f32)> = Vec::new();
    for u in insets() {
        let (x0, y0, p) = at(u);
        let (cx, _) = line_score(&prof.cols, x0, p, n + 1);
        let (cy, _) = line_score(&prof.rows, y0, p, m + 1);
        scores.push((u, cx + cy));
    }
    let top = scores.iter().map(|s| s.1).fold(0.0, f32::max);
    let good: Vec<f64> = scores
        .iter()
        .filter(|s| s.1 >= 0.98 * top)
        .map(|s| s.0)
        .collect();
    let u = good.iter().sum::<f64>() / good.len().max(1) as f64;
    let (x0, y0, p) = at(u);
    Lattice::uniform(x0, y0, p, p, m, n)
}

/// What one cell shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    Free,
    Goal,
    Door,
    /// A wall or a piece: blue. `special`: the special piece's marker;
    /// `on_goal`: its green dot (it stands on a goal cell).
    Blue {
        special: bool,
        on_goal: bool,
        held: bool,
    },
}

impl Look {
    /// The letter the debug image and `board.cells` show for it.
    pub fn letter(self) -> char {
        match self {
            Look::Free => '_',
            Look::Goal => '.',
            Look::Door => '-',
            Look::Blue {
                special: false,
                held: false,
                ..
            } => 'o',
            Look::Blue {
                special: false,
                held: true,
                ..
            } => 'h',
            Look::Blue { on_goal: true, .. } => '@',
            Look::Blue { .. } => '*',
        }
    }

    pub fn is_blue(self) -> bool {
        matches!(self, Look::Blue { .. })
    }
}

/// The part of a cell (as shares of its side) where a blue tile shows its
/// face, whatever its neighbours: past the top-left bevel, before the
/// bottom-right bevel and shadow.
const CORE: (f64, f64) = (0.17, 0.63);
/// Where the special piece's marker is drawn (14/34 of the tile, 8/34 wide).
const MARKER: (f64, f64) = (0.32, 0.49);

fn part(cell: RectF, (a, b): (f64, f64)) -> RectF {
    let (w, h) = (cell.width(), cell.height());
    RectF {
        x0: cell.x0 + a * w,
        y0: cell.y0 + a * h,
        x1: cell.x0 + b * w,
        y1: cell.y0 + b * h,
    }
}

/// What a cell shows, with the confidence; `Err` says why it is unsure.
pub fn look_cell(img: &RgbImage, cell: RectF, pal: &Palette) -> Result<(Look, f32), String> {
    let s = pal.shares(img, part(cell, CORE));
    if s.background >= 0.9 {
        return Ok((Look::Free, s.background));
    }
    if s.green >= 0.6 {
        return Ok((Look::Door, s.green));
    }
    // A goal's marker and its shadow, on the background.
    if s.background >= 0.08 && s.green >= 0.06 && s.face + s.held < 0.05 {
        return Ok((Look::Goal, s.background + s.green));
    }
    let (held, face) = (s.held >= 0.5, s.face >= 0.5);
    if face || held {
        let m = pal.shares(img, part(cell, MARKER));
        let plain = if held { m.held } else { m.face };
        let special = plain < 0.6;
        let on_goal = special && m.green >= 0.25;
        let conf = if held { s.held } else { s.face };
        return Ok((
            Look::Blue {
                special,
                on_goal,
                held,
            },
            conf.max(0.5),
        ));
    }
    if s.ink >= 0.5 {
        return Err(format!(
            "{:.0}% of it is black: a dialog (the Congratulations window?) or another window over the board",
            s.ink * 100.0
        ));
    }
    Err(format!(
        "none of the game's looks: {:.0}% background, {:.0}% blue face, {:.0}% held blue, {:.0}% green, {:.0}% other",
        s.background * 100.0,
        s.face * 100.0,
        s.held * 100.0,
        s.green * 100.0,
        (s.other + s.ink) * 100.0
    ))
}

/// Whether two neighbouring blue cells are drawn as one piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Join {
    Joined,
    Apart,
    /// Neither clearly: the share of face across their side.
    Unsure(u8),
}

/// The band across the side between `a` and the cell right of it (or
/// below it): from before `a`'s bevel and shadow to past the other's bevel,
/// along the middle of the face.
fn seam(a: RectF, right: bool) -> RectF {
    let p = a.width();
    if right {
        RectF {
            x0: a.x1 - 0.3 * p,
            x1: a.x1 + 0.12 * p,
            y0: a.y0 + 0.25 * p,
            y1: a.y0 + 0.55 * p,
        }
    } else {
        RectF {
            x0: a.x0 + 0.25 * p,
            x1: a.x0 + 0.55 * p,
            y0: a.y1 - 0.3 * p,
            y1: a.y1 + 0.12 * p,
        }
    }
}

/// Whether blue cell `a` and its blue neighbour to the right (or below)
/// are one piece: the face goes on across their side.
pub fn joined(img: &RgbImage, a: RectF, right: bool, held: bool, pal: &Palette) -> Join {
    let s = pal.shares(img, seam(a, right));
    let face = if held { s.held } else { s.face };
    if face >= 0.75 {
        Join::Joined
    } else if face <= 0.35 {
        Join::Apart
    } else {
        Join::Unsure((face * 100.0).round() as u8)
    }
}
