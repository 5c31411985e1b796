//! Reads a Continuity frame from a screenshot of boardbot's own art
//! ([`super::art`]), and refuses when unsure.
//!
//! 1. **The frame.** Every pixel near the play view's frame colour (`+`)
//!    or the tile view's (`=`) is marked; the longest run of marks across
//!    and down gives the frame's outer box, and which colour it is gives
//!    the view. A frame that touches the selection's edge is refused (it
//!    may go on past it).
//! 2. **The slots.** Columns (rows) of the box that are mostly frame
//!    colour are the border and the gaps; what lies between them are the
//!    slots, which must be square and of one size, 2 to 4 a side.
//!    White marks in the top border over the slots, one per cell a jump
//!    rises, give the jump's height.
//! 3. **The empty slot** is the one whose middle is near-black (`_`);
//!    there must be exactly one.
//! 4. **The scene size.** Thin darker lines run between a scene's cells:
//!    the size whose line positions show the most edges, against the
//!    positions halfway between them, over every scene and both axes,
//!    wins; a tie or a weak best is refused.
//! 5. **The cells.** Four patches near a cell's corners give its ground
//!    (air or solid); four around its middle give its sprite (a key, the
//!    door, the character, rising or not) or the ground again. A patch
//!    that matches no class of `calibration/continuity.toml`, a mixed
//!    patch, patches of a set that disagree, or a sprite on solid ground
//!    make the cell unreadable, with the reason.
//! 6. There must be exactly one character.
//!
//! What is read is a [`Shown`]: the game's own check (that it is a legal
//! level) is [`super::screen`]'s.

use image::RgbImage;

use super::art::{Drawn, EMPTY_LETTER, Shown, gap_letter};
use super::rules::View;
use crate::calibration::Calibration;
use crate::geom::RectF;
use crate::vision::color::Rgb;
use crate::vision::patch::{Window, agree, cell_read, look};
use crate::vision::{CellIssue, CellRead, GridRead, Lattice, ReadParams, Reading};

/// What the screenshot shows.
pub type Read = Reading<Shown>;

const GAME: &str = "Continuity";
/// Near the corners, outside every sprite (0.3) and inside the lines
/// between cells (0.475).
const CORNERS: [Window; 4] = [
    (-0.39, -0.32, -0.39, -0.32),
    (0.32, 0.39, -0.39, -0.32),
    (-0.39, -0.32, 0.32, 0.39),
    (0.32, 0.39, 0.32, 0.39),
];
/// Around the middle, inside every sprite and clear of its details (the
/// key's hole, the character's eyes, the door's knob).
const MIDDLE: [Window; 4] = [
    (-0.03, 0.03, -0.15, -0.07),
    (-0.03, 0.03, 0.07, 0.15),
    (-0.15, -0.07, -0.03, 0.03),
    (0.07, 0.15, -0.03, 0.03),
];
/// The scene sizes the reader tries.
const SIZES: std::ops::RangeInclusive<usize> = 2..=16;
/// Frame sizes, in slots.
const SLOTS: std::ops::RangeInclusive<usize> = 2..=4;
/// The smallest step (any channel) that counts as an edge between cells.
const EDGE: u8 = 12;

/// A band of columns (or rows) of the frame's colour: first and last, inclusive.
type Band = (usize, usize);

/// The frame's outer box in pixels (inclusive) and its view.
#[derive(Clone, Copy, Debug, PartialEq)]
struct FrameBox {
    x0: usize,
    x1: usize,
    y0: usize,
    y1: usize,
    view: View,
}

/// Pixels near a frame colour: 1 for the play view's, 2 for the tile view's.
struct Mask {
    w: usize,
    h: usize,
    marks: Vec<u8>,
}

fn class_colour(params: &ReadParams, letter: char) -> Option<(Rgb, f32)> {
    let c = params.classes.iter().find(|c| c.letter == letter)?;
    Some((*c.stops.first()?, c.tolerance))
}

impl Mask {
    fn new(img: &RgbImage, params: &ReadParams) -> Result<Mask, String> {
        let colour = |l| {
            class_colour(params, l)
                .ok_or_else(|| format!("the calibration has no '{l}' class (a frame colour)"))
        };
        let frames = [colour('+')?, colour('=')?].map(|(c, tol)| (c.to_u8(), (tol * tol) as i32));
        let near = |p: [u8; 3], (f, tol): ([u8; 3], i32)| {
            (0..3)
                .map(|i| (i32::from(p[i]) - i32::from(f[i])).pow(2))
                .sum::<i32>()
                <= tol
        };
        let marks = img
            .pixels()
            .map(|p| {
                frames
                    .iter()
                    .position(|&f| near(p.0, f))
                    .map_or(0, |i| i as u8 + 1)
            })
            .collect();
        Ok(Mask {
            w: img.width() as usize,
            h: img.height() as usize,
            marks,
        })
    }

    /// The longest run of `label` along rows and along columns, each as
    /// its length and its first and last position, in one pass over the
    /// rows.
    fn longest(&self, label: u8) -> [(usize, usize, usize); 2] {
        let mut best = [(0, 0, 0); 2];
        // Per column, where its current run of marks began.
        let mut down: Vec<Option<usize>> = vec![None; self.w];
        let end = |best: &mut (usize, usize, usize), start: usize, t: usize| {
            if t - start > best.0 {
                *best = (t - start, start, t - 1);
            }
        };
        for y in 0..=self.h {
            let mut across = None;
            for (x, run) in down.iter_mut().enumerate() {
                let on = y < self.h && self.marks[y * self.w + x] == label;
                match (on, across, *run) {
                    (true, None, _) => across = Some(x),
                    (false, Some(a), _) => {
                        end(&mut best[0], a, x);
                        across = None;
                    }
                    _ => {}
                }
                match (on, *run) {
                    (true, None) => *run = Some(y),
                    (false, Some(a)) => {
                        end(&mut best[1], a, y);
                        *run = None;
                    }
                    _ => {}
                }
            }
            if let Some(a) = across {
                end(&mut best[0], a, self.w);
            }
        }
        best
    }

    /// The frame's box: the view whose colour makes the longer runs both ways.
    fn frame(&self) -> Result<FrameBox, String> {
        let mut found = Vec::new();
        for (label, view) in [(1, View::Play), (2, View::Tiles)] {
            let [(wl, x0, x1), (hl, y0, y1)] = self.longest(label);
            if wl >= 24 && hl >= 24 {
                found.push((
                    wl.min(hl),
                    FrameBox {
                        x0,
                        x1,
                        y0,
                        y1,
                        view,
                    },
                ));
            }
        }
        found.sort_by_key(|f| std::cmp::Reverse(f.0));
        match found.as_slice() {
            [] => Err("no Continuity frame: no long run of either view's frame colour".into()),
            [(a, _), (b, _), ..] if *b * 2 > *a => Err(
                "both the play view's and the tile view's frame colours are on screen: the view is changing (or two windows are selected)"
                    .into(),
            ),
            [(_, f), ..] => Ok(*f),
        }
    }

    /// Per column (`across`) or row of the box, the share of its pixels
    /// that are frame colour.
    fn profile(&self, b: &FrameBox, label: u8, across: bool) -> Vec<f64> {
        let (w, h) = (b.x1 - b.x0 + 1, b.y1 - b.y0 + 1);
        let mut cols = vec![0usize; w];
        let mut rows = vec![0usize; h];
        for y in b.y0..=b.y1 {
            let line = &self.marks[y * self.w + b.x0..=y * self.w + b.x1];
            for (x, _) in line.iter().enumerate().filter(|(_, m)| **m == label) {
                cols[x] += 1;
                rows[y - b.y0] += 1;
            }
        }
        if across {
            cols.iter().map(|&n| n as f64 / h as f64).collect()
        } else {
            rows.iter().map(|&n| n as f64 / w as f64).collect()
        }
    }
}

/// Maximal runs of a profile at or above one half.
fn bands(profile: &[f64]) -> Vec<Band> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, &v) in profile.iter().chain([&0.0]).enumerate() {
        match (v >= 0.5, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i - 1));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// The slots between the bands of one axis, as `[start, end)` in image
/// pixels (`offset` is the box's first pixel).
fn slots_between(
    bands: &[Band],
    len: usize,
    offset: usize,
    axis: &str,
) -> Result<Vec<(f64, f64)>, String> {
    let starts_at_edge = bands.first().is_some_and(|b| b.0 == 0);
    let ends_at_edge = bands.last().is_some_and(|b| b.1 + 1 == len);
    if !starts_at_edge || !ends_at_edge {
        return Err(format!(
            "the frame's border is broken {axis}: something covers it"
        ));
    }
    let n = bands.len() - 1;
    if !SLOTS.contains(&n) {
        return Err(format!(
            "the frame has {n} slots {axis}; Continuity frames have 2 to 4"
        ));
    }
    let slots: Vec<(f64, f64)> = bands
        .windows(2)
        .map(|w| ((offset + w[0].1 + 1) as f64, (offset + w[1].0) as f64))
        .collect();
    let sizes: Vec<f64> = slots.iter().map(|s| s.1 - s.0).collect();
    let (lo, hi) = sizes
        .iter()
        .fold((f64::MAX, 0.0f64), |(a, b), &s| (a.min(s), b.max(s)));
    if hi - lo > 2.0 + 0.03 * hi || lo < 4.0 {
        return Err(format!(
            "the slots {axis} differ in size ({lo:.0} to {hi:.0} pixels): a scene is between slots, or something covers the frame"
        ));
    }
    Ok(slots)
}

/// A slot's rectangle.
fn slot_rect(xs: &[(f64, f64)], ys: &[(f64, f64)], r: usize, c: usize) -> RectF {
    RectF {
        x0: xs[c].0,
        x1: xs[c].1,
        y0: ys[r].0,
        y1: ys[r].1,
    }
}

/// The share of a slot's rows (`across`: columns) that show an edge at
/// each position along the other axis.
fn edge_profile(img: &RgbImage, s: RectF, across: bool) -> Vec<f64> {
    let (a0, a1) = if across { (s.x0, s.x1) } else { (s.y0, s.y1) };
    let (b0, b1) = if across { (s.y0, s.y1) } else { (s.x0, s.x1) };
    let (a0, a1, b0, b1) = (a0 as u32, a1 as u32, b0 as u32, b1 as u32);
    let px = |a: u32, b: u32| {
        if across {
            img.get_pixel(a, b).0
        } else {
            img.get_pixel(b, a).0
        }
    };
    let n = f64::from(b1.saturating_sub(b0).max(1));
    (a0..a1)
        .map(|a| {
            if a == a0 || a + 1 >= a1 {
                return 0.0;
            }
            let hits = (b0..b1)
                .filter(|&b| {
                    let (p, q) = (px(a - 1, b), px(a + 1, b));
                    (0..3).any(|i| p[i].abs_diff(q[i]) >= EDGE)
                })
                .count();
            hits as f64 / n
        })
        .collect()
}

/// How well `size` cells explain a profile: the mean edge share at the
/// lines between cells minus the mean halfway between them.
fn size_score(profile: &[f64], size: usize) -> f64 {
    let len = profile.len() as f64;
    let cell = len / size as f64;
    let reach = (0.1 * cell).max(1.0);
    let peak = |at: f64| {
        let a = (at - reach).floor().max(0.0) as usize;
        let b = ((at + reach).ceil() as usize).min(profile.len() - 1);
        profile[a..=b].iter().copied().fold(0.0, f64::max)
    };
    let lines: f64 = (1..size).map(|k| peak(k as f64 * cell)).sum::<f64>() / (size - 1) as f64;
    let mids: f64 = (0..size)
        .map(|k| peak((k as f64 + 0.5) * cell))
        .sum::<f64>()
        / size as f64;
    lines - mids
}

/// The scene size the lines between cells show, over every scene slot.
fn scene_size(img: &RgbImage, scenes: &[RectF]) -> Result<usize, String> {
    let profiles: Vec<Vec<f64>> = scenes
        .iter()
        .flat_map(|&s| [edge_profile(img, s, true), edge_profile(img, s, false)])
        .filter(|p| p.len() >= 8)
        .collect();
    if profiles.is_empty() {
        return Err("the scenes are too small to read".into());
    }
    let scores: Vec<(f64, usize)> = SIZES
        .filter(|&n| profiles.iter().all(|p| p.len() >= 2 * n))
        .map(|n| {
            let s = profiles.iter().map(|p| size_score(p, n)).sum::<f64>();
            (s / profiles.len() as f64, n)
        })
        .collect();
    // A divisor of the true size whose halfway points fall inside cells
    // scores as well as the true size: among the close ones, the largest
    // wins, and every other close one must divide it.
    let best = scores.iter().map(|s| s.0).fold(f64::MIN, f64::max);
    let close: Vec<usize> = scores
        .iter()
        .filter(|s| s.0 >= best - 0.15)
        .map(|s| s.1)
        .collect();
    let n = close.iter().copied().max().unwrap_or(0);
    if best < 0.4 || n == 0 || close.iter().any(|&m| n % m != 0) {
        return Err(format!(
            "the lines between the scenes' cells are unclear (sizes {close:?} fit about as well, score {best:.2})"
        ));
    }
    Ok(n)
}

/// Reads one cell: what it shows and the confidence, or why not.
fn read_cell(
    img: &RgbImage,
    rect: RectF,
    params: &ReadParams,
) -> Result<(Drawn, f32, Rgb), String> {
    let ground = agree(img, rect, &CORNERS, ("corners", GAME), params)?;
    let middle = agree(img, rect, &MIDDLE, ("middle", GAME), params)?;
    let confidence = ground.confidence.min(middle.confidence);
    let hero = |rise, door| Drawn::Hero { rise, door };
    let cell = match (ground.letter, middle.letter) {
        ('#', '#') => Drawn::Solid,
        ('.', '.') => Drawn::Air,
        ('.', 'k') => Drawn::Key,
        ('.', 'D') => Drawn::Door,
        ('.', '!') => Drawn::Exit,
        ('.', '@') => hero(0, false),
        ('.', '^') => hero(1, false),
        ('D', '@') => hero(0, true),
        ('D', '^') => hero(1, true),
        ('.' | '#' | 'D', m) => {
            return Err(format!(
                "its corners read '{}' but its middle '{m}': no sprite stands there like that",
                ground.letter
            ));
        }
        (g, _) => {
            return Err(format!(
                "its corners read '{g}', which is neither air nor solid: something covers the scene"
            ));
        }
    };
    Ok((cell, confidence, ground.color))
}

/// A cell of the empty slot: all of it near-black, or something covers
/// it (or a scene is sliding into it).
fn void_cell(img: &RgbImage, rect: RectF, params: &ReadParams) -> Result<(char, f32, Rgb), String> {
    let l = look(img, rect, (-0.45, 0.45, -0.45, 0.45), params, GAME)?;
    if l.letter == EMPTY_LETTER {
        Ok((EMPTY_LETTER, l.confidence, l.color))
    } else {
        Err(format!(
            "the empty slot shows '{}' here: something covers it",
            l.letter
        ))
    }
}

/// The frame found, its slots along each axis, and the jump it shows.
struct Slots {
    frame: FrameBox,
    xs: Vec<(f64, f64)>,
    ys: Vec<(f64, f64)>,
    jump: u8,
}

/// The jump's height: the white marks along the middle of the frame's
/// top border, over the slots.
fn jump_marks(
    img: &RgbImage,
    mask: &Mask,
    frame: &FrameBox,
    (x0, x1, y1): (f64, f64, f64),
) -> Result<u8, String> {
    let label = if frame.view == View::Play { 1 } else { 2 };
    let y = ((frame.y0 as f64 + y1) / 2.0) as usize;
    let (a, b) = (x0 as usize, (x1 as usize).min(mask.w));
    let mut marks = 0u32;
    let mut start = None;
    for x in a..=b {
        let on = x < b && mask.marks[y * mask.w + x] != label;
        match (on, start) {
            (true, None) => start = Some(x),
            (false, Some(s)) => {
                let p = img.get_pixel(((s + x) / 2) as u32, y as u32).0;
                if p.iter().any(|&v| v < 200) {
                    return Err(format!(
                        "something that is no jump mark lies on the frame's top border at x {s}"
                    ));
                }
                marks += 1;
                start = None;
            }
            _ => {}
        }
    }
    match u8::try_from(marks) {
        Ok(j @ 1..=9) => Ok(j),
        _ => Err(format!(
            "the frame's top border shows {marks} jump marks; it shows 1 to 9"
        )),
    }
}

/// Steps 1 and 2: the frame's box, its view and its slots.
fn find_slots(img: &RgbImage, params: &ReadParams) -> Result<Slots, String> {
    let mask = Mask::new(img, params)?;
    let frame = mask.frame()?;
    if frame.x0 == 0 || frame.y0 == 0 || frame.x1 + 1 == mask.w || frame.y1 + 1 == mask.h {
        return Err(
            "the frame touches the selection's edge and may go on past it: select the whole frame, with a margin"
                .into(),
        );
    }
    let label = if frame.view == View::Play { 1 } else { 2 };
    let cols = bands(&mask.profile(&frame, label, true));
    let rows = bands(&mask.profile(&frame, label, false));
    let xs = slots_between(&cols, frame.x1 - frame.x0 + 1, frame.x0, "across")?;
    let ys = slots_between(&rows, frame.y1 - frame.y0 + 1, frame.y0, "down")?;
    let (w, h) = (xs[0].1 - xs[0].0, ys[0].1 - ys[0].0);
    if (w - h).abs() > 2.0 + 0.03 * w.max(h) {
        return Err(format!("the slots are not square ({w:.0}×{h:.0} pixels)"));
    }
    let over = (xs[0].0, xs[xs.len() - 1].1, ys[0].0);
    let jump = jump_marks(img, &mask, &frame, over)?;
    Ok(Slots {
        frame,
        xs,
        ys,
        jump,
    })
}

/// Step 3: which slot is empty.
fn empty_slot(img: &RgbImage, s: &Slots, params: &ReadParams) -> Result<usize, String> {
    let middle = (-0.25, 0.25, -0.25, 0.25);
    let mut empty = Vec::new();
    for r in 0..s.ys.len() {
        for c in 0..s.xs.len() {
            let rect = slot_rect(&s.xs, &s.ys, r, c);
            if look(img, rect, middle, params, GAME).is_ok_and(|l| l.letter == EMPTY_LETTER) {
                empty.push(r * s.xs.len() + c);
            }
        }
    }
    match empty.as_slice() {
        [one] => Ok(*one),
        [] => Err("no slot is empty: a Continuity frame has exactly one".into()),
        _ => Err(format!(
            "{} slots look empty; a frame has exactly one",
            empty.len()
        )),
    }
}

/// The reader's lattice: every cell of every slot, and one band per gap.
fn lattice_of(s: &Slots, size: usize) -> Lattice {
    let lines = |slots: &[(f64, f64)]| -> Vec<f64> {
        slots
            .iter()
            .flat_map(|&(a, b)| (0..=size).map(move |k| a + (b - a) * k as f64 / size as f64))
            .collect()
    };
    Lattice {
        xs: lines(&s.xs),
        ys: lines(&s.ys),
    }
}

/// A gap band's cell in the grid read: the frame's letter, for sure.
fn gap_cell(letter: char) -> CellRead {
    cell_read(Ok((letter, 1.0, Rgb([0.0; 3]))))
}

/// Step 5: every cell of every scene, into the grid and the frame shown.
fn read_scenes(
    img: &RgbImage,
    s: &Slots,
    (size, empty): (usize, usize),
    params: &ReadParams,
) -> (GridRead, Shown, Vec<CellIssue>) {
    let lattice = lattice_of(s, size);
    let gap = gap_letter(s.frame.view);
    let mut cells: Vec<Vec<CellRead>> = (0..lattice.rows())
        .map(|_| (0..lattice.cols()).map(|_| gap_cell(gap)).collect())
        .collect();
    let mut slots = Vec::new();
    let mut issues = Vec::new();
    for r in 0..s.ys.len() {
        for c in 0..s.xs.len() {
            let at = |i: usize, j: usize| (r * (size + 1) + i, c * (size + 1) + j);
            if r * s.xs.len() + c == empty {
                for (i, j) in (0..size).flat_map(|i| (0..size).map(move |j| (i, j))) {
                    let (gr, gc) = at(i, j);
                    let read = void_cell(img, lattice.cell(gr, gc), params);
                    if let Err(why) = &read {
                        issues.push(CellIssue {
                            cell: [gr, gc],
                            why: why.clone(),
                        });
                    }
                    cells[gr][gc] = cell_read(read);
                }
                slots.push(None);
                continue;
            }
            let mut scene = Vec::with_capacity(size * size);
            for (i, j) in (0..size).flat_map(|i| (0..size).map(move |j| (i, j))) {
                let (gr, gc) = at(i, j);
                let read = read_cell(img, lattice.cell(gr, gc), params);
                scene.push(read.as_ref().map_or(Drawn::Air, |r| r.0));
                if let Err(why) = &read {
                    issues.push(CellIssue {
                        cell: [gr, gc],
                        why: why.clone(),
                    });
                }
                cells[gr][gc] = cell_read(read.map(|(cell, conf, col)| (cell.letter(), conf, col)));
            }
            slots.push(Some(scene));
        }
    }
    let shown = Shown {
        rows: s.ys.len(),
        cols: s.xs.len(),
        size,
        slots,
        view: s.frame.view,
        jump: s.jump,
    };
    (GridRead { lattice, cells }, shown, issues)
}

/// The cells that show the character.
fn heroes(shown: &Shown) -> Vec<[usize; 2]> {
    let s = shown.size;
    let mut out = Vec::new();
    for (k, slot) in shown.slots.iter().enumerate() {
        let (r, c) = (k / shown.cols, k % shown.cols);
        for (n, cell) in slot.iter().flatten().enumerate() {
            if matches!(cell, Drawn::Hero { .. }) {
                out.push([r * (s + 1) + n / s, c * (s + 1) + n % s]);
            }
        }
    }
    out
}

/// Reads the frame in `img`.
pub fn read(img: &RgbImage, cal: &Calibration) -> Read {
    let params = &cal.params;
    let no_board = |reason: String| Read::NoBoard {
        grid: None,
        reason,
        issues: Vec::new(),
    };
    let slots = match find_slots(img, params) {
        Ok(s) => s,
        Err(reason) => return no_board(reason),
    };
    let empty = match empty_slot(img, &slots, params) {
        Ok(e) => e,
        Err(reason) => return no_board(reason),
    };
    let scenes: Vec<RectF> = (0..slots.ys.len() * slots.xs.len())
        .filter(|&k| k != empty)
        .map(|k| slot_rect(&slots.xs, &slots.ys, k / slots.xs.len(), k % slots.xs.len()))
        .collect();
    let size = match scene_size(img, &scenes) {
        Ok(n) => n,
        Err(reason) => return no_board(reason),
    };
    let (grid, shown, issues) = read_scenes(img, &slots, (size, empty), params);
    if !issues.is_empty() {
        let cells: Vec<String> = issues
            .iter()
            .map(|i| format!("({},{})", i.cell[0], i.cell[1]))
            .collect();
        let reason = format!(
            "{} cells could not be read for sure: {} (first: {})",
            issues.len(),
            cells.join(", "),
            issues[0].why
        );
        return Read::uncertain(grid, reason, issues);
    }
    let found = heroes(&shown);
    let won = shown
        .slots
        .iter()
        .flatten()
        .flatten()
        .any(|d| *d == Drawn::Exit);
    if found.len() != usize::from(!won) {
        let reason = format!(
            "{} cells show the character; there is exactly one (none once it went through the door)",
            found.len()
        );
        let issues = found
            .into_iter()
            .map(|cell| CellIssue {
                cell,
                why: "the character".into(),
            })
            .collect();
        return Read::uncertain(grid, reason, issues);
    }
    Read::Board { grid, board: shown }
}

#[cfg(test)]
mod tests {
    use super::super::art::{self, Drawn, Shown};
    use super::super::rules::View;
    use super::*;

    fn cal() -> Calibration {
        Calibration::embedded(super::super::screen::LOOKS[0], "continuity").unwrap()
    }

    fn sample(view: View) -> Shown {
        let mut a = vec![Drawn::Air; 36];
        a[30..].fill(Drawn::Solid);
        a[25] = Drawn::Hero {
            rise: 0,
            door: false,
        };
        a[8] = Drawn::Solid;
        let mut b = vec![Drawn::Air; 36];
        b[14] = Drawn::Key;
        b[27] = Drawn::Door;
        b[30..].fill(Drawn::Solid);
        let mut c = b.clone();
        c[14] = Drawn::Air;
        c[0] = Drawn::Solid;
        Shown {
            rows: 2,
            cols: 3,
            size: 6,
            slots: vec![
                Some(a),
                None,
                Some(b),
                Some(c.clone()),
                Some(c),
                Some(vec![Drawn::Solid; 36]),
            ],
            view,
            jump: 3,
        }
    }

    fn read_back(shown: &Shown, pitch: f64, margins: [f64; 4]) -> Read {
        let (img, _) = art::picture(shown, pitch, margins, "STEPS 3");
        read(&img, &cal())
    }

    #[test]
    fn reads_back_what_the_art_draws_in_both_views() {
        for view in [View::Play, View::Tiles] {
            let shown = sample(view);
            for (pitch, margins) in [
                (30.0, [12.0, 40.0, 12.0, 12.0]),
                (44.0, [3.0, 3.0, 50.0, 9.0]),
            ] {
                match read_back(&shown, pitch, margins) {
                    Read::Board { board, grid } => {
                        assert_eq!(board, shown, "{view:?} at {pitch}");
                        assert_eq!(grid.rows(), shown.rows());
                    }
                    Read::Uncertain { reason, .. } | Read::NoBoard { reason, .. } => {
                        panic!("{view:?} at {pitch}: {reason}")
                    }
                }
            }
        }
    }

    #[test]
    fn refuses_a_frame_cut_by_the_selection_and_a_covered_cell() {
        let shown = sample(View::Play);
        let Read::NoBoard { reason, .. } = read_back(&shown, 30.0, [0.0, 40.0, 12.0, 12.0]) else {
            panic!("a cut frame was read")
        };
        assert!(reason.contains("edge"), "{reason}");
        let (mut img, g) = art::picture(&shown, 30.0, [12.0; 4], "");
        let (x, y) = g.cell_centre((0, 0), (2, 2));
        for dy in -8..8 {
            for dx in -14..14 {
                img.put_pixel(
                    (x + f64::from(dx)) as u32,
                    (y + f64::from(dy)) as u32,
                    image::Rgb([255, 0, 255]),
                );
            }
        }
        let Read::Uncertain { reason, issues, .. } = read(&img, &cal()) else {
            panic!("a covered cell was read")
        };
        assert!(issues.iter().any(|i| i.cell == [2, 2]), "{reason}");
    }

    #[test]
    fn a_blank_image_has_no_frame() {
        let img = RgbImage::from_pixel(200, 150, image::Rgb(art::PAGE));
        assert!(matches!(read(&img, &cal()), Read::NoBoard { .. }));
    }
}
