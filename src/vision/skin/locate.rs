//! Finds a board drawn in a known skin, with or without grid lines, and
//! reads every cell: the pitch from the repeat of the picture's colour
//! changes, the origin from their learned shape across a cell, the extent
//! from which cells look like the board and which like its surroundings.
//!
//! Nothing is guessed at the board's edge: every whole cell of the lattice
//! in the picture is either a board cell, read as one class, or looks like
//! the surroundings; and the strips between the outermost cells and the
//! picture's edge must look like the surroundings too. A board that goes on
//! past the selection, or touches its edge, is refused.

use image::RgbImage;

use super::align;
use super::descriptor::{
    Descriptor, Integral, SIDE, describe_coarse, describe_into, distance, squares,
};
use super::grid::Walk;
use super::lines;
use super::pitch::{profile, repeats};
use super::{Grid, Skin, Verdict};
use crate::geom::RectF;
use crate::vision::Side as Edge;
use crate::vision::lattice::Lattice;

/// A board found and read cell by cell.
#[derive(Clone, Debug)]
pub struct Located {
    pub lattice: Lattice,
    /// Row-major, one per cell of `lattice`.
    pub verdicts: Vec<Vec<Verdict>>,
}

impl Located {
    /// The cells that did not read as one class, with why.
    pub fn doubts(&self, skin: &Skin) -> Vec<((usize, usize), String)> {
        let mut out = Vec::new();
        for (r, row) in self.verdicts.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                if let Some(why) = skin.why(v) {
                    out.push(((r, c), why));
                }
            }
        }
        out
    }

    /// Every cell's label, when every cell was read.
    pub fn labels(&self, skin: &Skin) -> Option<Vec<Vec<String>>> {
        self.verdicts
            .iter()
            .map(|row| {
                row.iter()
                    .map(|v| match v {
                        Verdict::Match { look, .. } => Some(skin.looks[*look].label.clone()),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    }
}

/// Why no board was read; `lattice` is what was found, for the debug image.
#[derive(Clone, Debug)]
pub struct Refusal {
    pub lattice: Option<Lattice>,
    pub reason: String,
}

fn refuse(lattice: Option<Lattice>, reason: impl Into<String>) -> Refusal {
    Refusal {
        lattice,
        reason: reason.into(),
    }
}

/// How many whole cells of a grid fit in the picture, down and across.
fn counts(g: &Grid, int: &Integral) -> (usize, usize) {
    g.counts(int.width(), int.height())
}

/// Each whole cell of a guess: its descriptor and verdict.
struct Cells {
    rows: usize,
    cols: usize,
    verdicts: Vec<Verdict>,
    /// Per cell, whether it would pass for the board's surroundings.
    outside: Vec<bool>,
    /// Per cell matched to a look in the surroundings' colours, whether it
    /// is plainly that look and not a flat patch of the surroundings (in
    /// the final read only).
    board: Vec<bool>,
}

/// Every whole cell of a guess, read; cells wholly outside `roi` (where
/// the picture shows only the surroundings), and all but every `every`th
/// diagonal, are taken as surroundings unread. The board's final read
/// (`confirm`) holds each match to its look's limits too.
fn cells(
    int: &Integral,
    skin: &Skin,
    g: &Grid,
    roi: Option<RectF>,
    (every, confirm): (usize, bool),
) -> Cells {
    let (rows, cols) = counts(g, int);
    let mut verdicts = Vec::with_capacity(rows * cols);
    let mut outside = Vec::with_capacity(rows * cols);
    let mut board = vec![false; rows * cols];
    let mut d = Descriptor::new();
    for r in 0..rows {
        for c in 0..cols {
            let rect = g.cell(r, c);
            if !sampled((r, c), rect, every, roi) {
                verdicts.push(Verdict::NoMatch {
                    nearest: 0,
                    distance: f32::INFINITY,
                });
                outside.push(true);
                continue;
            }
            describe_into(int, rect, &mut d);
            let v = skin.judge(&d);
            let v = if confirm { skin.confirm(&d, v) } else { v };
            outside.push(!matches!(v, Verdict::Match { .. }) && skin.is_outside(&d));
            // Only the final read's extent asks.
            if let (Verdict::Match { look, .. }, true) = (&v, confirm) {
                let look = &skin.looks[*look].cells;
                board[r * cols + c] = skin.is_outside(look) && plainly(skin, &d, look);
            }
            verdicts.push(v);
        }
    }
    Cells {
        rows,
        cols,
        verdicts,
        outside,
        board,
    }
}

/// True when a guess's score reads cell `(r, c)` (at `rect`): one on every
/// `every`th diagonal, not wholly outside `roi`.
pub(super) fn sampled(
    (r, c): (usize, usize),
    rect: RectF,
    every: usize,
    roi: Option<RectF>,
) -> bool {
    (r + c) % every == 0
        && !roi.is_some_and(|o| {
            rect.x1 <= o.x0 || rect.x0 >= o.x1 || rect.y1 <= o.y0 || rect.y0 >= o.y1
        })
}

/// True when a cell is much nearer its look than any flat patch of a
/// colour of the surroundings: a floor with a mark or a shade of its own,
/// in colours near the page's, is still the board.
fn plainly(skin: &Skin, cell: &[f32], look: &[f32]) -> bool {
    let flat = skin
        .outside
        .iter()
        .map(|o| {
            let flat: Descriptor = (0..cell.len()).map(|i| f32::from(o[i % 3])).collect();
            distance(cell, &flat)
        })
        .fold(f32::MAX, f32::min);
    flat >= PLAINLY_APART && distance(cell, look) * 3.0 <= flat
}

/// How far (RMS, 0–255) from every flat colour of the surroundings a cell
/// must be to count as the board by its look alone.
const PLAINLY_APART: f32 = 10.0;

/// How well a guess explains the picture, as an area: each matched cell
/// by its closeness to its look, less each cell that is neither a look
/// nor the surroundings (by how far it is from its nearest look). (Area, not count: at a quarter of the pitch a
/// board's flat parts would match many times; and a wrong pitch leaves
/// much of the board unexplained.)
fn score(int: &Integral, skin: &Skin, g: &Grid, roi: RectF) -> f32 {
    score_of(int, skin, g, roi, SCORED)
}

/// [`score`] on up to `scored` cells.
fn score_of(int: &Integral, skin: &Skin, g: &Grid, roi: RectF, scored: usize) -> f32 {
    let (rows, cols) = counts(g, int);
    // A board of many cells is judged on a sample of them, along
    // diagonals: every row and column alike.
    let every = (rows * cols).div_ceil(scored).max(1);
    let cs = cells(int, skin, g, Some(roi), (every, false));
    let explained: f32 = cs
        .verdicts
        .iter()
        .zip(&cs.outside)
        .map(|(v, &out)| match v {
            Verdict::Match { look, distance, .. } => 1.0 - distance / skin.looks[*look].tolerance,
            _ if out => 0.0,
            // Past its look's tolerance a cell counts less the farther it
            // is, down to -1: a grid a pixel off, whose edge cells do not
            // match yet, still sees which way is better.
            Verdict::NoMatch { nearest, distance } => {
                (1.0 - distance / skin.looks[*nearest].tolerance).max(-1.0)
            }
            Verdict::Ambiguous { .. } | Verdict::Strays { .. } => -1.0,
        })
        .sum();
    explained * (g.px * g.py) as f32 * every as f32
}

/// The most cells a guess's score reads: more tell no more about where
/// the lattice lies.
const SCORED: usize = 100;

/// Pitches worth trying: where the picture's colour changes repeat, along
/// either axis (the other from the skin's cell shape).
fn pitches(skin: &Skin, gx: &[f32], gy: &[f32]) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    let a = skin.aspect;
    // Slots repeat more plainly than the cells in them: on a board of
    // slots, the best cell repeat, and the slots'.
    let cells = if skin.gaps.is_some() { 1 } else { 4 };
    for (px, _) in repeats(gx, skin.min_pitch, skin.max_pitch, cells) {
        out.push((px, px * a));
    }
    for (py, _) in repeats(gy, skin.min_pitch * a, skin.max_pitch * a, cells) {
        out.push((py / a, py));
    }
    if let Some(g) = skin.gaps {
        let (sx, sy) = (g.every as f64 + g.x, g.every as f64 + g.y);
        for (p, _) in repeats(gx, skin.min_pitch * sx, skin.max_pitch * sx, 3) {
            out.push((p / sx, p / sx * a));
        }
        for (p, _) in repeats(gy, skin.min_pitch * a * sy, skin.max_pitch * a * sy, 3) {
            out.push((p / sy / a, p / sy));
        }
    }
    out.sort_by(|x, y| x.0.total_cmp(&y.0));
    out.dedup_by(|x, y| (x.0 - y.0).abs() < 0.01 * y.0);
    out
}

/// A box (x0, x1, y0, y1) as the region a lattice is scored in.
fn roi_of((x0, x1, y0, y1): (usize, usize, usize, usize)) -> RectF {
    RectF {
        x0: x0 as f64,
        x1: x1 as f64,
        y0: y0 as f64,
        y1: y1 as f64,
    }
}

/// The bounding box of the pixels that are not colours of the board's
/// surroundings (the whole picture when there are none).
fn not_outside(img: &RgbImage, skin: &Skin) -> (usize, usize, usize, usize) {
    board_box(img, &skin.outside).unwrap_or((0, img.width() as usize, 0, img.height() as usize))
}

/// The bounding box (x0, x1, y0, y1) of the pixels that are not `outside`
/// colours; `None` when it is a sliver or less.
pub(super) fn board_box(
    img: &RgbImage,
    outside: &[[u8; 3]],
) -> Option<(usize, usize, usize, usize)> {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let raw = img.as_raw();
    let shown = |x: usize, y: usize| {
        let p = &raw[(y * w + x) * 3..(y * w + x) * 3 + 3];
        !super::near_any(outside, [p[0], p[1], p[2]].map(f32::from))
    };
    // Each row is looked at from both ends inwards only as far as the box
    // found so far: a margin's pixels, not the board's.
    let (mut x0, mut x1, mut y0, mut y1) = (w, 0, h, 0);
    for y in 0..h {
        let left = (0..x0).find(|&x| shown(x, y));
        let from = left.map_or(x1.max(x0), |l| x1.max(l + 1));
        let right = (from..w).rev().find(|&x| shown(x, y));
        let within = || x0 < x1 && (x0..x1).any(|x| shown(x, y));
        if left.is_none() && right.is_none() && !within() {
            continue;
        }
        if let Some(l) = left {
            (x0, x1) = (l, x1.max(l + 1));
        }
        if let Some(r) = right {
            x1 = r + 1;
        }
        (y0, y1) = (y0.min(y), y + 1);
    }
    (x1 > x0 + 2 && y1 > y0 + 2).then_some((x0, x1, y0, y1))
}

/// Lattices that fill the box where the picture is not the surroundings
/// (the board inside its frame or page), one per number of columns whose
/// cells have the skin's shape.
fn framed(skin: &Skin, (x0, x1, y0, y1): (usize, usize, usize, usize)) -> Vec<Grid> {
    let (w, h) = ((x1 - x0) as f64, (y1 - y0) as f64);
    let shape = Grid {
        gaps: skin.gaps,
        ..Grid::uniform(0.0, 0.0, 1.0, skin.aspect)
    };
    // With slots, a board ends where a slot does.
    let ends = |k: usize| skin.gaps.is_none_or(|g| (k + 1) % (g.every + 1) == 0);
    (1..=64)
        .filter(|&cols| ends(cols))
        .filter_map(|cols| {
            let px = w / shape.span(1, cols).0;
            let rows = match skin.gaps {
                None => (h / (px * skin.aspect)).round().max(1.0) as usize,
                Some(_) => (1..=64).filter(|&r| ends(r)).min_by(|&a, &b| {
                    let off = |r: usize| (h / shape.span(r, 1).1 / px / skin.aspect - 1.0).abs();
                    off(a).total_cmp(&off(b))
                })?,
            };
            let py = h / shape.span(rows, 1).1;
            let fits = (py / px / skin.aspect - 1.0).abs() < 0.04;
            let g = Grid {
                x0: x0 as f64,
                y0: y0 as f64,
                px,
                py,
                gaps: skin.gaps,
            };
            (fits && px >= skin.min_pitch && px <= skin.max_pitch).then(|| g.first_whole())
        })
        .collect()
}

/// Boxes a side of the cheap descriptor that ranks origins.
const COARSE: usize = 4;
/// Origins tried per pitch along each axis.
const STEPS: usize = 16;
// Origins are ranked on every other step first ([`best_origins`]).
const _: () = assert!(STEPS % 2 == 0);

/// The looks pooled to [`COARSE`] boxes a side.
fn coarse_looks(skin: &Skin) -> Vec<Descriptor> {
    let k = SIDE / COARSE;
    skin.looks
        .iter()
        .map(|l| {
            let mut out = vec![0.0f32; COARSE * COARSE * 3];
            for j in 0..SIDE {
                for i in 0..SIDE {
                    let o = ((j / k) * COARSE + i / k) * 3;
                    for c in 0..3 {
                        out[o + c] += l.cells[(j * SIDE + i) * 3 + c] / (k * k) as f32;
                    }
                }
            }
            out
        })
        .collect()
}

/// A cheap likeness of a guess: every whole cell's nearness to its
/// nearest pooled look.
fn coarse_score(int: &Integral, coarse: &[Descriptor], g: &Grid) -> f32 {
    let (rows, cols) = counts(g, int);
    // A sample of cells spread over the picture ranks origins as well as
    // all of them, for a fraction of the work.
    let (sr, sc) = (rows.div_ceil(6).max(1), cols.div_ceil(6).max(1));
    let mut d = Descriptor::new();
    let mut sum = 0.0;
    for r in (0..rows).step_by(sr) {
        for c in (0..cols).step_by(sc) {
            describe_coarse(int, g.cell(r, c), COARSE, &mut d);
            let near = coarse
                .iter()
                .map(|l| squares(&d, l))
                .fold(f32::MAX, f32::min);
            sum += (-(near / d.len().max(1) as f32).sqrt() / 12.0).exp();
        }
    }
    sum * (g.px * g.py * (sr * sc) as f64) as f32
}

/// The best guess of the lattice, refined, or `None` when nothing in the
/// picture looks like this skin's cells; `bx` is the box inside the
/// board's surroundings ([`not_outside`]).
fn guess(
    img: &RgbImage,
    int: &Integral,
    skin: &Skin,
    bx: (usize, usize, usize, usize),
) -> Option<Grid> {
    let (x0, x1, y0, y1) = bx;
    let roi = roi_of(bx);
    let middle = ((x0 + x1) as f64 / 2.0, (y0 + y1) as f64 / 2.0);
    let coarse = coarse_looks(skin);
    let (framed, repeats) = candidates(img, int, skin, &coarse, (x0, x1, y0, y1));
    let best = |gs: Vec<Grid>| {
        gs.into_iter()
            .map(|g| (score_of(int, skin, &g, roi, SAMPLED), g))
            .max_by(|a, b| a.0.total_cmp(&b.0))
    };
    let (framed, repeats) = (best(framed), best(repeats));
    // Judged once refined: a guess a few pixels off may match no cell yet.
    // The lattice that fills the board's box is refined too when it comes
    // near and puts cells elsewhere: a pixel or two off, it may trail one
    // whose origin is right but whose slots start a few cells out. Once
    // both are placed to a pixel, one well behind is not finished.
    let finished = |placed: (Grid, f64)| {
        let g = finely(int, skin, placed, roi);
        (score(int, skin, &g, roi), g)
    };
    let (s, g) = match (framed, repeats) {
        (Some(f), Some(r)) if f.0 >= r.0 * RIVAL && !agree(&f.1, &r.1, middle) => {
            let (f, r) = (roughly(int, skin, f.1, roi), roughly(int, skin, r.1, roi));
            let (sf, sr) = (score(int, skin, &f.0, roi), score(int, skin, &r.0, roi));
            // Placed to a pixel, a lattice well behind a rival that
            // explains the board is not finished.
            let kept = |s: f32, rival: f32| rival <= 0.0 || s >= rival * BEHIND;
            [kept(sf, sr).then_some(f), kept(sr, sf).then_some(r)]
                .into_iter()
                .flatten()
                .map(finished)
                .reduce(|f, r| if f.0 >= r.0 { f } else { r })?
        }
        (f, r) => {
            let (_, g) = [f, r]
                .into_iter()
                .flatten()
                .max_by(|a, b| a.0.total_cmp(&b.0))?;
            finished(roughly(int, skin, g, roi))
        }
    };
    // Not one cell explained: no board of this skin.
    (s > 0.0).then_some(g)
}

/// True when two lattices put cells in the same places near `(cx, cy)`
/// (the board's middle): pitches within 2%, and cell edges there within a
/// quarter pitch of each other modulo the repeat (a pitch, or a group of
/// cells and its gap).
fn agree(a: &Grid, b: &Grid, (cx, cy): (f64, f64)) -> bool {
    let near = |p: f64, q: f64| (p / q - 1.0).abs() < 0.02;
    let (sx, sy) = a.periods();
    let apart = |u: f64, v: f64, period: f64| {
        let d = (u - v).rem_euclid(period);
        d.min(period - d)
    };
    let (bx, by) = b.periods();
    near(a.px, b.px)
        && near(a.py, b.py)
        && a.gaps.map(|g| g.every) == b.gaps.map(|g| g.every)
        && apart((cx - a.x0).rem_euclid(sx), (cx - b.x0).rem_euclid(bx), sx) < a.px / 4.0
        && apart((cy - a.y0).rem_euclid(sy), (cy - b.y0).rem_euclid(by), sy) < a.py / 4.0
}

/// How near (a share of its score) the best lattice filling the board's
/// box must come to the best from the picture's repeats to be refined too.
const RIVAL: f32 = 0.5;

/// Lattices worth refining: those that fill the board's box (where
/// the picture is not the surroundings, given), and for each pitch the
/// picture repeats at, its best origins (the two apart).
fn candidates(
    img: &RgbImage,
    int: &Integral,
    skin: &Skin,
    coarse: &[Descriptor],
    (x0, x1, y0, y1): (usize, usize, usize, usize),
) -> (Vec<Grid>, Vec<Grid>) {
    // The repeat is measured where the picture is not the surroundings
    // (the box given), so that a wide margin does not drown a small
    // board's.
    let gx = profile(img, true, (y0, y1));
    let gy = profile(img, false, (x0, x1));
    let framed = framed(skin, (x0, x1, y0, y1));
    let mut out = Vec::new();
    for (px, py) in pitches(skin, &gx[x0..x1], &gy[y0..y1]) {
        let cells = best_origins(int, coarse, px, py, 3);
        match skin.gaps {
            None => out.extend(cells),
            Some(gaps) => out.extend(best_slots(int, coarse, &cells, gaps, 3)),
        }
    }
    (framed, out)
}

/// For a board of slots: from grids whose cells line up with one slot's,
/// the grids that also put the gaps where the picture has them, ranked by
/// the cheap score. That slot may start at any of its lattice's cells in
/// the picture: the columns are tried first, then the rows.
fn best_slots(
    int: &Integral,
    coarse: &[Descriptor],
    cells: &[Grid],
    gaps: super::Gaps,
    keep: usize,
) -> Vec<Grid> {
    let mut ranked: Vec<(f32, Grid)> = Vec::new();
    for g in cells {
        let slotted = |i: usize, j: usize| {
            Grid {
                x0: g.x0 + g.px * i as f64,
                y0: g.y0 + g.py * j as f64,
                gaps: Some(gaps),
                ..*g
            }
            .first_whole()
        };
        let across = (int.width() as f64 / g.px).ceil() as usize;
        let down = (int.height() as f64 / g.py).ceil() as usize;
        let best_i = (0..across)
            .map(|i| (coarse_score(int, coarse, &slotted(i, 0)), i))
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map_or(0, |b| b.1);
        ranked.extend((0..down).map(|j| {
            let s = slotted(best_i, j);
            (coarse_score(int, coarse, &s), s)
        }));
    }
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    ranked.into_iter().take(keep).map(|r| r.1).collect()
}

/// The best origins on a grid of [`STEPS`] a side, ranked by the cheap
/// score: every other origin first, then the neighbours of the best of
/// those. (A coarse box is eight steps wide, so the score changes little
/// from one origin to the next: the best origin lies beside one of the
/// best at half the resolution, for under half the work of trying all.)
fn best_origins(int: &Integral, coarse: &[Descriptor], px: f64, py: f64, keep: usize) -> Vec<Grid> {
    let at = |(i, j): (usize, usize)| {
        Grid::uniform(
            px * i as f64 / STEPS as f64,
            py * j as f64 / STEPS as f64,
            px,
            py,
        )
    };
    let scored = |k: (usize, usize)| (coarse_score(int, coarse, &at(k)), k);
    let halves = (0..STEPS / 2).flat_map(|j| (0..STEPS / 2).map(move |i| (2 * i, 2 * j)));
    let mut ranked: Vec<(f32, (usize, usize))> = halves.map(scored).collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut near: Vec<(usize, usize)> = ranked
        .iter()
        .take(keep * NEIGHBOURED)
        .flat_map(|&(_, (i, j))| {
            // Origins wrap round: a step left of 0 is the last.
            let wrap = |v: usize, d: usize| (v + d + STEPS - 1) % STEPS;
            (0..3).flat_map(move |dj| (0..3).map(move |di| (wrap(i, di), wrap(j, dj))))
        })
        .filter(|&(i, j)| i % 2 == 1 || j % 2 == 1)
        .collect();
    near.sort_unstable();
    near.dedup();
    ranked.extend(near.into_iter().map(scored));
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0));
    ranked.into_iter().take(keep).map(|r| at(r.1)).collect()
}

/// How many origins at half the resolution, for each one kept, have their
/// neighbours tried.
const NEIGHBOURED: usize = 2;

/// How far behind its rival (a share of its score) a lattice placed to a
/// pixel may be and still be refined further.
const BEHIND: f32 = 0.9;

/// The search on a sample of the cells takes no step at or below this, in
/// pixels (but its first); a walk on every scored cell, where one is
/// taken, begins at the step after.
const ROUGH: f64 = 1.0;

/// The walk over a board of slots takes no step at or below this, in pixels.
const FINEST: f64 = 0.06;

/// Cells scored while the lattice is placed to a pixel: enough to find
/// which way is better, for a third of the work of [`SCORED`].
const SAMPLED: usize = 36;

/// Coordinate descent on the origin and pitch, on a sample of the cells,
/// to within about a pixel; with the step a walk would take next.
fn roughly(int: &Integral, skin: &Skin, g: Grid, roi: RectF) -> (Grid, f64) {
    let step = g.px.min(g.py) / 16.0;
    // At least one pass at the first step, however small the pitch; and
    // on a small pitch, to a fortieth of it, for the finer search holds
    // cells to looks that a pixel spans more of.
    let last = ROUGH.min(step * 0.4);
    let mut next = step;
    while next > last {
        next /= 2.0;
    }
    let g = g.walk(
        counts(&g, int),
        (step, last),
        Walk::Shifts,
        cost(int, skin, roi, SAMPLED),
    );
    (g.first_whole(), next)
}

/// The outer lines of a lattice [`roughly`] placed, moved to the best
/// score: by Gauss-Newton ([`align`]), or, on a board of slots (whose
/// gaps move too) and where Gauss-Newton finds nothing better, by a walk
/// from the step the rough search would take next.
fn finely(int: &Integral, skin: &Skin, (g, step): (Grid, f64), roi: RectF) -> Grid {
    let n = counts(&g, int);
    let cost = cost(int, skin, roi, SCORED);
    if g.gaps.is_some() {
        return g.walk(n, (step, FINEST), Walk::Lines, cost).first_whole();
    }
    let span = g.span(n.0.max(1), n.1.max(1));
    let sample = align::sample(&g, n, roi, SCORED);
    match align::align(int, skin, g, (&sample, span), align::FINE, &cost) {
        Some(g) => g.first_whole(),
        // Nothing better within its reach: the walk, which is slower but
        // moves each line on its own.
        None => g.walk(n, (step, FINEST), Walk::Lines, cost).first_whole(),
    }
}

/// What the search minimises: the score of up to `scored` cells, negated;
/// `None` for a grid whose pitch or gaps are not the skin's.
fn cost(int: &Integral, skin: &Skin, roi: RectF, scored: usize) -> impl Fn(&Grid) -> Option<f64> {
    move |t| {
        // Within the pitches the looks were checked apart at.
        let valid = t.px >= skin.min_pitch
            && t.px <= skin.max_pitch
            && t.py >= skin.min_pitch * skin.aspect * 0.9
            && t.py <= skin.max_pitch * skin.aspect * 1.1
            && gaps_near(t, skin);
        valid.then(|| -f64::from(score_of(int, skin, &t.first_whole(), roi, scored)))
    }
}

/// How far a board's gaps may be from the learned ones, as a share of
/// them: a gap drawn a whole pixel wide at every scale is wider, in
/// pitches, on a smaller board.
const GAP_SLACK: f64 = 0.35;

/// True when a grid's gaps are near enough to the skin's.
fn gaps_near(g: &Grid, skin: &Skin) -> bool {
    match (g.gaps, skin.gaps) {
        (Some(a), Some(b)) => {
            let near = |v: f64, want: f64| (v / want - 1.0).abs() <= GAP_SLACK;
            near(a.x, b.x) && near(a.y, b.y)
        }
        (a, b) => a.is_none() && b.is_none(),
    }
}

/// The cells that show the board (matched to a look that is not merely
/// the surroundings' colour): their bounding rows and columns, grown by
/// each whole row or column beside them that is all matched cells with at
/// least one plainly its look (a bare floor row inside a frame).
fn extent(skin: &Skin, cs: &Cells) -> Option<(usize, usize, usize, usize)> {
    let mut b: Option<(usize, usize, usize, usize)> = None;
    for r in 0..cs.rows {
        for c in 0..cs.cols {
            if let Verdict::Match { look, .. } = cs.verdicts[r * cs.cols + c] {
                if skin.is_outside(&skin.looks[look].cells) {
                    continue;
                }
                b = Some(match b {
                    None => (r, r + 1, c, c + 1),
                    Some((r0, r1, c0, c1)) => (r0.min(r), r1.max(r + 1), c0.min(c), c1.max(c + 1)),
                });
            }
        }
    }
    b.map(|b| grown(cs, skin.gaps.map(|g| g.every + 1), b))
}

/// `b` grown, a row or column at a time, over lines beside it whose every
/// cell matches a look and one or more is plainly its look. Only lines
/// touching the board: a patch of the floor's colour out in the margin
/// never pulls the board out to it. On a board of slots (a gap line after
/// every `slot - 1`), a gap line all matched is crossed when the line past
/// it joins: a row of scenes all wall in the page's colours is the board.
fn grown(
    cs: &Cells,
    slot: Option<usize>,
    (mut r0, mut r1, mut c0, mut c1): (usize, usize, usize, usize),
) -> (usize, usize, usize, usize) {
    let line = |cells: &mut dyn Iterator<Item = usize>, plain_too: bool| {
        let (mut all, mut plain) = (true, false);
        for i in cells {
            all &= matches!(cs.verdicts[i], Verdict::Match { .. });
            plain |= cs.board[i];
        }
        all && (plain || !plain_too)
    };
    let col = |c: usize, (r0, r1): (usize, usize), plain: bool| {
        line(&mut (r0..r1).map(move |r| r * cs.cols + c), plain)
    };
    let row = |r: usize, (c0, c1): (usize, usize), plain: bool| {
        line(&mut (c0..c1).map(move |c| r * cs.cols + c), plain)
    };
    let gap = |k: usize| slot.is_some_and(|n| k % n == n - 1);
    loop {
        let before = (r0, r1, c0, c1);
        let (rs, cols) = ((r0, r1), (c0, c1));
        r0 -= step(&|i| past(Side::Before, rs, cs.rows, i), &gap, &|r, p| {
            row(r, cols, p)
        });
        r1 += step(&|i| past(Side::After, rs, cs.rows, i), &gap, &|r, p| {
            row(r, cols, p)
        });
        let rs = (r0, r1);
        c0 -= step(&|i| past(Side::Before, cols, cs.cols, i), &gap, &|c, p| {
            col(c, rs, p)
        });
        c1 += step(&|i| past(Side::After, cols, cs.cols, i), &gap, &|c, p| {
            col(c, rs, p)
        });
        if before == (r0, r1, c0, c1) {
            return before;
        }
    }
}

/// On a board of slots (a gap line after every `n - 1`), true when past
/// a side of `b` there is a whole slot more: a gap line all matched, `n -
/// 1` lines whose every cell matches a look no gap shows, and a line of
/// the gaps' looks. Scenes in the page's colours (a row all wall) that did
/// not join the board, not plainly their looks: where it ends is not known.
fn goes_on(cs: &Cells, n: usize, (r0, r1, c0, c1): (usize, usize, usize, usize)) -> bool {
    let at = |r: usize, c: usize| &cs.verdicts[r * cs.cols + c];
    let is_gap = |k: usize| k % n == n - 1;
    // The gaps' looks: in the board, and in the gap lines around it.
    let (rows, cols) = (
        r0.saturating_sub(1)..(r1 + 1).min(cs.rows),
        c0.saturating_sub(1)..(c1 + 1).min(cs.cols),
    );
    let mut gap_looks: Vec<usize> = rows
        .flat_map(|r| cols.clone().map(move |c| (r, c)))
        .filter(|&(r, c)| is_gap(r) || is_gap(c))
        .filter_map(|(r, c)| match at(r, c) {
            Verdict::Match { look, .. } => Some(*look),
            _ => None,
        })
        .collect();
    gap_looks.sort_unstable();
    gap_looks.dedup();
    // Every cell of a line matched: to a gap's look (`Some(true)`), to
    // another look (`Some(false)`), or to any (`None`).
    let all = |cells: &mut dyn Iterator<Item = (usize, usize)>, gap: Option<bool>| {
        for (r, c) in cells {
            let Verdict::Match { look, .. } = at(r, c) else {
                return false;
            };
            if gap.is_some_and(|g| g != gap_looks.binary_search(look).is_ok()) {
                return false;
            }
        }
        true
    };
    let row = |r: usize, gap: Option<bool>| all(&mut (c0..c1).map(move |c| (r, c)), gap);
    let col = |c: usize, gap: Option<bool>| all(&mut (r0..r1).map(move |r| (r, c)), gap);
    // The `i`th line past a side, outwards; a whole slot of the board's
    // own looks between two gap lines there is more of the board.
    let slot_past = |line_at: &dyn Fn(usize) -> Option<usize>,
                     line: &dyn Fn(usize, Option<bool>) -> bool| {
        let lines: Option<Vec<usize>> = (0..=n).map(line_at).collect();
        let Some(lines) = lines else {
            return false;
        };
        is_gap(lines[0])
            && line(lines[0], None)
            && lines[1..n].iter().all(|&k| line(k, Some(false)))
            && line(lines[n], Some(true))
    };
    [Side::Before, Side::After].into_iter().any(|side| {
        slot_past(&|i| past(side, (r0, r1), cs.rows, i), &row)
            || slot_past(&|i| past(side, (c0, c1), cs.cols, i), &col)
    })
}

/// Which side of a span of lines.
#[derive(Clone, Copy)]
enum Side {
    Before,
    After,
}

/// The `i`th line (from 0) past a side of the lines `lo..hi`, outwards;
/// `None` past the picture's `len` lines.
fn past(side: Side, (lo, hi): (usize, usize), len: usize, i: usize) -> Option<usize> {
    match side {
        Side::Before => lo.checked_sub(1 + i),
        Side::After => Some(hi + i).filter(|&k| k < len),
    }
}

/// How many lines the board grows by past an edge (`line_at(i)`, the
/// `i`th line out): 1 when the first joins (all matched, one plainly its
/// look), 2 when it is a gap line all matched and the next joins, else 0.
fn step(
    line_at: &dyn Fn(usize) -> Option<usize>,
    gap: &dyn Fn(usize) -> bool,
    joins: &dyn Fn(usize, bool) -> bool,
) -> usize {
    let Some(k) = line_at(0) else {
        return 0;
    };
    if !gap(k) {
        return usize::from(joins(k, true));
    }
    match line_at(1) {
        Some(a) if joins(k, false) && joins(a, true) => 2,
        _ => 0,
    }
}

/// The smallest strip beside the board worth looking at, in pixels.
const MIN_MARGIN: f64 = 2.0;

/// Finds the board and reads it: on the lattice its grid lines give, where
/// the skin's boards show them and every cell there reads as one class
/// with the surroundings all round, or once that lattice is placed to a
/// pixel by the cells' looks; otherwise on the lattice the cells' looks
/// alone place.
pub fn locate(img: &RgbImage, skin: &Skin) -> Result<Located, Refusal> {
    let int = Integral::new(img);
    // The box inside the surroundings, which both searches score in.
    let bx = not_outside(img, skin);
    if let Some(g) = lines::guess(img, skin) {
        if let Ok(l) = read_on(img, &int, skin, g)
            && l.doubts(skin).is_empty()
        {
            return Ok(l);
        }
        // Small cells: the lines' pitch may be a little off, and a pixel
        // off at the far side leaves cells short of their looks. Placed
        // to a pixel by the cells' looks from there, as a guess is.
        let roi = roi_of(bx);
        let placed = finely(&int, skin, roughly(&int, skin, g, roi), roi);
        if let Ok(l) = read_on(img, &int, skin, placed)
            && l.doubts(skin).is_empty()
        {
            return Ok(l);
        }
    }
    let g = guess(img, &int, skin, bx).ok_or_else(|| {
        refuse(
            None,
            "nothing in the picture looks like a cell of this calibration",
        )
    })?;
    read_on(img, &int, skin, g)
}

/// Reads the board on lattice `g`: its extent, the surroundings all round
/// it, and every cell.
fn read_on(img: &RgbImage, int: &Integral, skin: &Skin, g: Grid) -> Result<Located, Refusal> {
    let cs = cells(int, skin, &g, None, (1, true));
    let (r0, r1, c0, c1) = extent(skin, &cs).ok_or_else(|| {
        refuse(
            None,
            "nothing in the picture looks like a cell of this calibration",
        )
    })?;
    let lattice = g.lattice_of((r0, r1), (c0, c1));
    if let Some(n) = skin.gaps.map(|g| g.every + 1)
        && goes_on(&cs, n, (r0, r1, c0, c1))
    {
        return Err(refuse(
            Some(lattice),
            "past a gap beside the board, a whole line reads as its own cells, not its surroundings: the board may go on past what was read (select it with the page around its frame)",
        ));
    }
    if !g.whole_groups((r0, r1), (c0, c1)) {
        return Err(refuse(
            Some(lattice),
            "the board does not begin and end with whole slots: part of it may be covered or cut",
        ));
    }
    let b = lattice.bounds();
    surroundings(img, skin, &g, &lattice)
        .and_then(|()| slot_edges(img, skin, (&g, b), &cs, ((r0, r1), (c0, c1))))
        .map_err(|why| refuse(Some(lattice.clone()), why))?;
    let verdicts = (r0..r1)
        .map(|r| {
            (c0..c1)
                .map(|c| cs.verdicts[r * cs.cols + c].clone())
                .collect()
        })
        .collect();
    Ok(Located { lattice, verdicts })
}

/// On a board of slots, checks that the board ends at its outer slots and
/// not at a gap the selection cuts ([`super::slots`]); nothing to check
/// on a board of one pitch.
fn slot_edges(
    img: &RgbImage,
    skin: &Skin,
    (g, b): (&Grid, RectF),
    cs: &Cells,
    ((r0, r1), (c0, c1)): ((usize, usize), (usize, usize)),
) -> Result<(), String> {
    let Some(gaps) = skin.gaps else {
        return Ok(());
    };
    let n = gaps.every + 1;
    let gap_cells: Vec<&Verdict> = (r0..r1)
        .flat_map(|r| (c0..c1).map(move |c| (r, c)))
        .filter(|&(r, c)| r % n == gaps.every || c % n == gaps.every)
        .map(|(r, c)| &cs.verdicts[r * cs.cols + c])
        .collect();
    let mut colours = super::slots::gap_colours(skin, &gap_cells);
    if colours.is_empty() {
        // No gap seen: any colour of the surroundings may be one.
        colours = skin.outside.iter().map(|c| c.map(f32::from)).collect();
    }
    let edges = super::slots::Edges {
        bounds: (b.x0, b.x1, b.y0, b.y1),
        pitch: (g.px, g.py),
        gaps,
        reach: skin.reach * g.px.min(g.py) + 1.0,
        gap_colours: &colours,
    };
    super::slots::check(img, skin, &edges)
}

/// The share of the pixels in `r` that show the board's surroundings: a
/// colour seen around the board, or, where two such colours meet, a blend
/// of them between pixels that show each. A pixel not plainly of the page
/// (within [`PAGE_NEAR`]) in a colour the board `shown` near its lines is
/// the board's: a sliver of a cell the selection cuts, in colours only
/// loosely like the page's.
fn outside_share(img: &RgbImage, skin: &Skin, shown: &Shown, r: RectF) -> f32 {
    let (w, h) = (img.width() as i64, img.height() as i64);
    let at = |x: i64, y: i64| -> Option<[f32; 3]> {
        (x >= 0 && y >= 0 && x < w && y < h)
            .then(|| img.get_pixel(x as u32, y as u32).0.map(f32::from))
    };
    let seen = |x: i64, y: i64| at(x, y).is_some_and(|c| skin.near_outside(c));
    let (x0, x1) = ((r.x0 - 0.5).ceil() as i64, (r.x1 - 0.5).floor() as i64);
    let (y0, y1) = ((r.y0 - 0.5).ceil() as i64, (r.y1 - 0.5).floor() as i64);
    let (mut ok, mut all) = (0u32, 0u32);
    for y in y0.max(0)..=y1.min(h - 1) {
        for x in x0.max(0)..=x1.min(w - 1) {
            all += 1;
            let px = img.get_pixel(x as u32, y as u32).0;
            let c = px.map(f32::from);
            let blend = || {
                skin.between_outside(c)
                    && ((seen(x - 2, y) && seen(x + 2, y)) || (seen(x, y - 2) && seen(x, y + 2)))
            };
            let page = page_like(&skin.outside, px)
                || (!shown.near(px) && (skin.near_outside(c) || blend()));
            ok += u32::from(page);
        }
    }
    if all == 0 {
        1.0
    } else {
        ok as f32 / all as f32
    }
}

/// Checks that a thin band around the board, just past the reach of its
/// own outline, shows the board's surroundings: a board cut by the
/// selection, or with something over its edge, shows something else
/// there. A board whose band the selection leaves no room for is refused.
///
/// Where the band shows the board's own colours, the lattice may lie a
/// little inside the board's edge (a floor much like the page leaves its
/// place loose): the band is looked at again past where the page begins
/// ([`settle`]). Every band is looked at again once one has moved.
fn surroundings(img: &RgbImage, skin: &Skin, g: &Grid, lattice: &Lattice) -> Result<(), String> {
    let pitch = g.px.min(g.py);
    let b = lattice.bounds();
    let board = (b.x0, b.x1, b.y0, b.y1);
    let band = (0.05 * pitch).max(MIN_MARGIN);
    let gap = skin.reach * pitch + 1.0;
    // As far out as a band may be looked at, after settling.
    let shown = Shown::near_lines(img, lattice, gap + settling(pitch) + band + 1.0);
    let page: Vec<[u8; 3]> = skin
        .outside
        .iter()
        .copied()
        .filter(|&o| !shown.near(o))
        .collect();
    let mut out = gaps(img, &page, gap, board)?;
    // Not on a board of slots either, whose lattice counts its gaps as
    // cells.
    let page_like = *skin.memo.page_like.get_or_init(|| page_like_look(skin));
    let marks = !page_like && skin.gaps.is_none();
    // The gaps before any side settles.
    let found = out;
    let band_ok = |out: [f64; 4], i: usize| {
        let s = strip(img, board, out, band, i);
        band_is_outside(img, skin, &shown, (s, Edge::ALL[i], lattice), marks)
    };
    let mut moved = [false; 4];
    for i in 0..4 {
        if !band_ok(out, i) {
            out[i] = settle(img, &page, (board, found), i, pitch, band).ok_or(NOT_AROUND)?;
            moved[i] = true;
        }
    }
    // A lattice is not shifted off the board both ways at once.
    let both = (0..2).any(|i| moved[i] && moved[i + 2]);
    if both || (moved.contains(&true) && !(0..4).all(|i| band_ok(out, i))) {
        return Err(NOT_AROUND.into());
    }
    Ok(())
}

/// Where the board's edge lies past side `i` of its lattice, when the
/// band there shows the board: where the `page` begins, past the learned
/// gap by no more than [`settling`] allows, with room for the band
/// before the picture's edge ([`overhang`]); and the lattice must then lie
/// as far outside the board on the opposite side, less a pixel, the page
/// showing inside that side ([`inset`]). A cell cut by the selection runs
/// on to its edge; one covered a little past a line, by something in the
/// page's colour, has its board's edge where the lattice says on the
/// opposite side.
fn settle(
    img: &RgbImage,
    page: &[[u8; 3]],
    (board, gaps): (Box4, [f64; 4]),
    i: usize,
    pitch: f64,
    band: f64,
) -> Option<f64> {
    let o = overhang(img, page, Edge::ALL[i], board)?;
    // Past the learned gap: a page nearer than that is something over the
    // board's edge, whose band has just shown it.
    let past = o > gaps[i] && o - gaps[i] <= settling(pitch);
    let fits = past && room(img, board)[i] - o >= MIN_MARGIN + band;
    let opposite = Edge::ALL[(i + 2) % 4];
    (fits && inset(img, page, opposite, board) >= o - gaps[i] - 1.0).then_some(o)
}

/// Why a board whose band does not show its surroundings is refused.
const NOT_AROUND: &str = "the board's surroundings do not show all around it: it may go on past the selection (select it whole, with a margin), or something covers its edge";

/// How far past a side of its lattice, in pitches, the board's edge may
/// be found when its band shows the board's own colours.
const SETTLE: f64 = 0.06;

/// How far past the learned gap the board's edge may be found: a pixel or
/// two, or [`SETTLE`] of a pitch on a large board.
fn settling(pitch: f64) -> f64 {
    (SETTLE * pitch).max(2.0)
}

/// The room the picture leaves past each side of `board` (as [`Edge::ALL`]).
fn room(img: &RgbImage, (x0, x1, y0, y1): Box4) -> [f64; 4] {
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    [x0, y0, w - x1, h - y1]
}

/// The band `band` wide past side `i` of `board`, `gaps` out from it,
/// across the whole box the bands make, inside the picture.
fn strip(img: &RgbImage, (x0, x1, y0, y1): Box4, gaps: [f64; 4], band: f64, i: usize) -> RectF {
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    let [gl, gt, gr, gb] = gaps;
    let (ox0, ox1) = ((x0 - gl - band).max(0.0), (x1 + gr + band).min(w));
    let (oy0, oy1) = ((y0 - gt - band).max(0.0), (y1 + gb + band).min(h));
    let all = RectF {
        x0: ox0,
        y0: oy0,
        x1: ox1,
        y1: oy1,
    };
    match Edge::ALL[i] {
        Edge::Left => RectF { x1: x0 - gl, ..all },
        Edge::Right => RectF { x0: x1 + gr, ..all },
        Edge::Top => RectF { y1: y0 - gt, ..all },
        Edge::Bottom => RectF { y0: y1 + gb, ..all },
    }
}

/// True when the piece of the strip `s` past `side` beside each cell
/// (cut at the lattice's lines, the corners going with the end cells) is
/// nine tenths the surroundings ([`outside_share`]), so that a little of
/// the board showing along it is not lost in the average; but for a mark
/// beside one cell (an exit cut in a frame) where `marks` allows: one
/// cell's piece of a side three cells long or more, or two side by side
/// of five or more. A board cut by the selection shows along the whole
/// strip, unless its cells pass for the page there (see
/// [`page_like_look`]). An empty strip is the surroundings.
fn band_is_outside(
    img: &RgbImage,
    skin: &Skin,
    shown: &Shown,
    (s, side, lattice): (RectF, Edge, &Lattice),
    marks: bool,
) -> bool {
    let along_x = matches!(side, Edge::Top | Edge::Bottom);
    let lines = if along_x { &lattice.xs } else { &lattice.ys };
    if lines.len() < 2 {
        return false;
    }
    if s.x1 - s.x0 < 0.5 || s.y1 - s.y0 < 0.5 {
        return true;
    }
    let cells = lines.len() - 1;
    let board: Vec<usize> = (0..cells)
        .filter(|&k| {
            let part = cell_piece(s, (lines, along_x), k);
            outside_share(img, skin, shown, part) < 0.9
        })
        .collect();
    match board[..] {
        [] => true,
        [_] => marks && cells >= 3,
        [a, b] => marks && cells >= 5 && b == a + 1,
        _ => false,
    }
}

/// The piece of strip `s` beside cell `k` of the `lines` along it (x
/// lines when `along_x`): the first and last run on to the strip's ends,
/// past the board's corners.
fn cell_piece(s: RectF, (lines, along_x): (&[f64], bool), k: usize) -> RectF {
    let last = lines.len() - 2;
    let (lo, hi) = if along_x { (s.x0, s.x1) } else { (s.y0, s.y1) };
    let from = if k == 0 { lo } else { lines[k].clamp(lo, hi) };
    let to = if k == last {
        hi
    } else {
        lines[k + 1].clamp(lo, hi)
    };
    if along_x {
        RectF {
            x0: from,
            x1: to,
            ..s
        }
    } else {
        RectF {
            y0: from,
            y1: to,
            ..s
        }
    }
}

/// True when a look is half or more in colours of the page (within
/// [`PAGE_NEAR`]), on the whole or along its rim: a sliver of such
/// cells, cut by the selection, shows as the page (a cut shows a cell's
/// edge), so the one cell of another look in it may be all that shows
/// the cut, and no mark beside a cell is allowed.
fn page_like_look(skin: &Skin) -> bool {
    // `page_like` of the box rounded to whole values, without rounding:
    // a value rounds to within PAGE_NEAR of `o` when it lies within half
    // a step more. (Every read asks, of every look: B.i.t.Lock has
    // hundreds.)
    let page = |c: &[f32]| {
        skin.outside
            .iter()
            .any(|o| (0..3).all(|k| rounds_near(c[k], o[k])))
    };
    let rim = |k: &usize| {
        let (r, c) = (k / SIDE, k % SIDE);
        r == 0 || c == 0 || r + 1 == SIDE || c + 1 == SIDE
    };
    skin.looks.iter().any(|l| {
        let boxes: Vec<&[f32]> = l.cells.chunks_exact(3).collect();
        let half = |ks: &mut dyn Iterator<Item = usize>| {
            let (mut all, mut like) = (0, 0);
            for k in ks {
                all += 1;
                like += usize::from(page(boxes[k]));
            }
            like * 2 >= all
        };
        half(&mut (0..boxes.len())) || half(&mut (0..boxes.len()).filter(rim))
    })
}

/// True when `v` (0–255) rounded to a whole value lies within
/// [`PAGE_NEAR`] of `o`: within half a step more, as rounding goes half
/// away from zero.
fn rounds_near(v: f32, o: u8) -> bool {
    let (o, reach) = (f32::from(o), f32::from(PAGE_NEAR) + 0.5);
    v >= o - reach && v < o + reach
}

/// The strip left out past each side of the board (left, top, right,
/// bottom, as [`Edge::ALL`]): its outline's learned reach and a pixel of
/// blend, `gap`. Where the selection leaves less room than that and a
/// pixel, the outline is measured in the picture instead ([`overhang`]):
/// no wider than learned, with [`MIN_MARGIN`] pixels of the `page` past
/// it, in colours the board never shows near its lines ([`Shown`]), so
/// that a sliver of a cut cell cannot pass for the page. Else the board
/// may be cut there, and it is refused.
fn gaps(img: &RgbImage, page: &[[u8; 3]], gap: f64, board: Box4) -> Result<[f64; 4], String> {
    let room = room(img, board);
    let mut out = [gap; 4];
    for (i, side) in Edge::ALL.into_iter().enumerate() {
        if room[i] >= gap + 1.0 {
            continue;
        }
        match overhang(img, page, side, board) {
            Some(o) if o <= gap && room[i] - o >= MIN_MARGIN => out[i] = o,
            _ => return Err("the board touches the edge of the selection, so it may go on past it: select it with a margin of a few pixels".into()),
        }
    }
    Ok(out)
}

/// A box as `(x0, x1, y0, y1)`.
type Box4 = (f64, f64, f64, f64);

/// How near (per channel) a pixel must be to a colour of the page to be
/// the page on a side the selection leaves little room past.
const PAGE_NEAR: u8 = 8;

/// True when `c` is within [`PAGE_NEAR`] of one of `colours`.
fn page_like(colours: &[[u8; 3]], c: [u8; 3]) -> bool {
    colours
        .iter()
        .any(|o| (0..3).all(|k| c[k].abs_diff(o[k]) <= PAGE_NEAR))
}

/// The colours the board shows within some pixels of its lines, in bins
/// of 4 a channel: what a sliver of a cell the selection cuts could show.
struct Shown(Vec<u64>);

impl Shown {
    const BINS: usize = 64;

    /// The colours of the board's pixels within `near` of one of its
    /// inner lines, and not within `near` of its edge: a cell's pixels
    /// beside its inner edge, which a cut cell shows, but not the blend
    /// of the board's edge with the page, which a lattice lying a little
    /// inside that edge takes in.
    fn near_lines(img: &RgbImage, lattice: &Lattice, near: f64) -> Shown {
        let mut shown = Shown(vec![0; Self::BINS.pow(3) / 64]);
        let b = lattice.bounds();
        // Pixels whose centres lie in [lo, hi].
        let centred = |lo: f64, hi: f64| (lo - 0.5).ceil() as i64..=(hi - 0.5).floor() as i64;
        let (w, h) = (i64::from(img.width()), i64::from(img.height()));
        let mut mark = |x: i64, y: i64| {
            if (0..w).contains(&x) && (0..h).contains(&y) {
                let i = Self::bin(img.get_pixel(x as u32, y as u32).0.map(usize::from));
                shown.0[i / 64] |= 1 << (i % 64);
            }
        };
        // On an axis one cell wide, its outer lines, as nothing else shows
        // what lies beside a cell's edge.
        let inner = |v: &[f64]| match v.len() {
            0..=2 => v.to_vec(),
            n => v[1..n - 1].to_vec(),
        };
        for x in inner(&lattice.xs) {
            for xi in centred((x - near).max(b.x0), (x + near).min(b.x1)) {
                centred(b.y0 + near, b.y1 - near).for_each(|yi| mark(xi, yi));
            }
        }
        for y in inner(&lattice.ys) {
            for yi in centred((y - near).max(b.y0), (y + near).min(b.y1)) {
                centred(b.x0 + near, b.x1 - near).for_each(|xi| mark(xi, yi));
            }
        }
        shown
    }

    fn bin(c: [usize; 3]) -> usize {
        ((c[0] >> 2) * Self::BINS + (c[1] >> 2)) * Self::BINS + (c[2] >> 2)
    }

    /// True when the board shows a colour within [`PAGE_NEAR`] of `c` (or
    /// up to 3 more, as the bins fall).
    fn near(&self, c: [u8; 3]) -> bool {
        let reach = usize::from(PAGE_NEAR).div_ceil(4);
        let span = |v: u8| {
            let b = usize::from(v >> 2);
            b.saturating_sub(reach)..=(b + reach).min(Self::BINS - 1)
        };
        span(c[0]).any(|r| {
            span(c[1]).any(|g| {
                span(c[2]).any(|b| {
                    let i = (r * Self::BINS + g) * Self::BINS + b;
                    self.0[i / 64] >> (i % 64) & 1 == 1
                })
            })
        })
    }
}

/// How far past one side of the board (its box) its own pixels reach in
/// the picture: along every pixel line across that side, the distance
/// from the side to the first pixel of a `page` colour; the distance 9
/// lines in 10 are within. `None` when more than one line in 10 shows no
/// such pixel before the picture's edge.
fn overhang(img: &RgbImage, page: &[[u8; 3]], side: Edge, board: Box4) -> Option<f64> {
    let reach = walk(img, side, board, true, |c| page_like(page, c));
    let q = *reach.get(reach.len() * 9 / 10)?;
    q.is_finite().then_some(q)
}

/// How far inside one side of the board (its box) the `page` still shows:
/// along every pixel line across that side, the distance from the side to
/// the first pixel of another colour; the distance 9 lines in 10 reach.
fn inset(img: &RgbImage, page: &[[u8; 3]], side: Edge, board: Box4) -> f64 {
    let depth = walk(img, side, board, false, |c| !page_like(page, c));
    depth.get(depth.len() / 10).copied().unwrap_or(0.0)
}

/// Along every pixel line across one side of `board`, from the side
/// `outwards` or inwards, the distance from the side to the nearer edge of
/// the first pixel that is `stop` (infinite when none is before the
/// picture's edge), in order.
fn walk(
    img: &RgbImage,
    side: Edge,
    (x0, x1, y0, y1): Box4,
    outwards: bool,
    stop: impl Fn([u8; 3]) -> bool,
) -> Vec<f64> {
    let (w, h) = (i64::from(img.width()), i64::from(img.height()));
    // (where the side lies, the step outwards, the pixels along the way,
    // the lines across the side and how many there are)
    let (edge, out, len, across, lines) = match side {
        Edge::Left => (x0, -1, w, (y0, y1), h),
        Edge::Right => (x1, 1, w, (y0, y1), h),
        Edge::Top => (y0, -1, h, (x0, x1), w),
        Edge::Bottom => (y1, 1, h, (x0, x1), w),
    };
    let step = if outwards { out } else { -out };
    let at = |p: i64, t: i64| {
        let (x, y) = match side {
            Edge::Left | Edge::Right => (p, t),
            Edge::Top | Edge::Bottom => (t, p),
        };
        img.get_pixel(x as u32, y as u32).0
    };
    // The first pixel whose centre is past the side that way, and the
    // distance from the side to a pixel's nearer edge.
    let (first, from): (i64, fn(i64, f64) -> f64) = if step < 0 {
        ((edge - 0.5).floor() as i64, |p, e| e - (p + 1) as f64)
    } else {
        ((edge - 0.5).ceil() as i64, |p, e| p as f64 - e)
    };
    let mut dist: Vec<f64> = (across.0.ceil().max(0.0) as i64
        ..(across.1.floor() as i64).min(lines))
        .map(|t| {
            std::iter::successors(Some(first), |p| Some(p + step))
                .take_while(|p| (0..len).contains(p))
                .find(|&p| stop(at(p, t)))
                .map_or(f64::INFINITY, |p| from(p, edge).max(0.0))
        })
        .collect();
    dist.sort_by(f64::total_cmp);
    dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::skin::{descriptor::LEN, example};

    /// The test without rounding agrees with rounding first, at and
    /// between every half step.
    #[test]
    fn a_value_near_the_page_is_so_rounded_or_not() {
        for o in [0u8, 8, 9, 100, 247, 250, 255] {
            for i in 0..=255 * 16 {
                let v = i as f32 / 16.0;
                let rounded = (v.round() as u8).abs_diff(o) <= PAGE_NEAR;
                assert_eq!(rounds_near(v, o), rounded, "{v} against {o}");
            }
        }
    }

    /// The box looked for from the rows' ends is the box of every pixel
    /// not of the surroundings, on scattered blobs and on none.
    #[test]
    fn the_boards_box_is_that_of_every_pixel_not_of_the_surroundings() {
        let page = [[250u8, 250, 250]];
        let naive = |img: &RgbImage| {
            let (w, h) = (img.width() as usize, img.height() as usize);
            let (mut x0, mut x1, mut y0, mut y1) = (w, 0, h, 0);
            for (x, y, p) in img.enumerate_pixels() {
                if !crate::vision::skin::near_any(&page, p.0.map(f32::from)) {
                    let (x, y) = (x as usize, y as usize);
                    (x0, x1, y0, y1) = (x0.min(x), x1.max(x + 1), y0.min(y), y1.max(y + 1));
                }
            }
            (x1 > x0 + 2 && y1 > y0 + 2).then_some((x0, x1, y0, y1))
        };
        let mut rng = crate::rng::Rng::new(7);
        for case in 0..200 {
            let (w, h) = (1 + rng.below(40) as u32, 1 + rng.below(40) as u32);
            let mut img = RgbImage::from_pixel(w, h, image::Rgb(page[0]));
            for _ in 0..case % 6 {
                let (x, y) = (rng.below(w as usize) as u32, rng.below(h as usize) as u32);
                img.put_pixel(x, y, image::Rgb([20, 30, 40]));
            }
            assert_eq!(board_box(&img, &page), naive(&img), "case {case}");
        }
    }

    /// A floor of its own shade counts as the board by its look; a flat
    /// patch of the page (white here) that its look is near does not.
    #[test]
    fn a_floor_near_the_pages_colour_is_the_board_only_when_plainly_its_look() {
        let skin = example();
        let floor = vec![200.0; LEN];
        assert!(plainly(&skin, &floor, &floor));
        let page = vec![248.0; LEN];
        assert!(!plainly(&skin, &page, &page), "a flat patch of the page");
        let mut blotched = floor.clone();
        blotched[..LEN / 2].fill(250.0);
        assert!(!plainly(&skin, &blotched, &floor), "half page, half floor");
    }

    /// A bare row beside the board, all matched and one cell plainly its
    /// look, joins it; a plain patch beyond a row that matches nothing
    /// does not.
    #[test]
    fn the_board_grows_only_over_whole_plain_lines_beside_it() {
        let m = Verdict::Match {
            look: 0,
            distance: 0.0,
            confidence: 1.0,
        };
        let n = Verdict::NoMatch {
            nearest: 0,
            distance: 99.0,
        };
        // Rows: 0-1 the board, 2 bare floor, 3 page, 4 a plain patch.
        let rows = [
            [&m, &m, &m],
            [&m, &m, &m],
            [&m, &m, &m],
            [&n, &n, &n],
            [&m, &m, &m],
        ];
        let cs = Cells {
            rows: 5,
            cols: 3,
            verdicts: rows.iter().flatten().map(|v| (*v).clone()).collect(),
            outside: vec![false; 15],
            board: (0..15).map(|i| i == 7 || i == 13).collect(),
        };
        assert_eq!(grown(&cs, None, (0, 2, 0, 3)), (0, 3, 0, 3));
        let none = Cells {
            board: vec![false; 15],
            ..cs
        };
        assert_eq!(grown(&none, None, (0, 2, 0, 3)), (0, 2, 0, 3));
    }

    /// On a board of slots (two cells, then a gap line), a gap line is
    /// crossed when the line past it joins, and only then.
    #[test]
    fn the_board_grows_across_a_gap_to_a_plain_line_past_it() {
        let m = Verdict::Match {
            look: 0,
            distance: 0.0,
            confidence: 1.0,
        };
        // Rows: 0-1 the board, 2 a gap, 3-4 wall in the page's colours, 5 a gap.
        let plain = |rows: &[usize]| (0..12).map(|i| rows.contains(&(i / 2))).collect();
        let cs = Cells {
            rows: 6,
            cols: 2,
            verdicts: vec![m; 12],
            outside: vec![false; 12],
            board: plain(&[3, 4]),
        };
        assert_eq!(grown(&cs, Some(3), (0, 2, 0, 2)), (0, 5, 0, 2));
        let flat = Cells {
            board: plain(&[4]),
            ..cs
        };
        assert_eq!(grown(&flat, Some(3), (0, 2, 0, 2)), (0, 2, 0, 2));
    }

    /// Past a gap beside a board of slots, a whole slot of the board's own
    /// looks (not the gaps'), closed by a gap, means it may go on; the
    /// frame (the gaps' look), the page (no look), or lines like the floor
    /// that no gap closes do not.
    #[test]
    fn a_line_of_its_own_looks_past_a_gap_means_the_board_may_go_on() {
        let m = |look| Verdict::Match {
            look,
            distance: 0.0,
            confidence: 1.0,
        };
        let n = Verdict::NoMatch {
            nearest: 0,
            distance: 99.0,
        };
        // Rows of two: 0-1 the board, 2 its gap, 3-4 wall, 5 a gap, 6 page.
        let rows_closed = |beyond: &Verdict, closing: &Verdict| {
            let looks = [
                m(0),
                m(0),
                m(1),
                beyond.clone(),
                m(0),
                closing.clone(),
                n.clone(),
            ];
            Cells {
                rows: 7,
                cols: 2,
                verdicts: looks.iter().flat_map(|v| [v.clone(), v.clone()]).collect(),
                outside: vec![false; 14],
                board: vec![false; 14],
            }
        };
        let rows = |beyond: &Verdict| rows_closed(beyond, &m(1));
        // The board is rows 0-4 with its gap at 2: its gaps show look 1.
        assert!(!goes_on(&rows(&m(0)), 3, (0, 5, 0, 2)));
        assert!(goes_on(&rows(&m(0)), 3, (0, 2, 0, 2)));
        assert!(!goes_on(&rows(&m(1)), 3, (0, 2, 0, 2)));
        assert!(!goes_on(&rows(&n), 3, (0, 2, 0, 2)));
        // Page like the floor past the frame, but no gap closing a slot.
        assert!(!goes_on(&rows_closed(&m(0), &m(0)), 3, (0, 2, 0, 2)));
    }

    /// Lattices a pixel apart, or a whole pitch apart, agree; slots that
    /// start two cells apart do not, nor do pitches 5% apart.
    #[test]
    fn lattices_agree_when_their_cells_lie_in_the_same_places() {
        const M: (f64, f64) = (500.0, 500.0);
        let g = Grid::uniform(30.0, 30.0, 40.0, 40.0);
        assert!(agree(&g, &Grid { x0: 31.5, ..g }, M));
        assert!(agree(&g, &Grid { x0: 70.5, ..g }, M));
        assert!(!agree(&g, &Grid { x0: 50.0, ..g }, M));
        assert!(!agree(&g, &Grid { px: 42.0, ..g }, M));
        let slots = Grid {
            gaps: Some(crate::vision::skin::Gaps {
                every: 8,
                x: 0.8,
                y: 0.8,
            }),
            ..g
        };
        assert!(agree(&slots, &Grid { x0: 31.0, ..slots }, M));
        assert!(!agree(&slots, &Grid { x0: 110.0, ..slots }, M));
    }

    /// A board 3 px from the picture's edge at 80 px a cell, where the
    /// learned outline and its blend leave no room for the band: it is
    /// still read when the picture shows the page right past it, or past
    /// an outline of a pixel; not when the page shows for less than two
    /// pixels, nor when the board runs on to the picture's edge, nor when
    /// its own lines are drawn in the page's colour (a cell cut just past
    /// one would look the same).
    #[test]
    fn a_tight_margin_is_measured_and_a_board_cut_there_is_refused() {
        let skin = Skin {
            reach: 0.025,
            ..example()
        };
        let g = Grid::uniform(3.0, 3.0, 80.0, 80.0);
        let board = Lattice::uniform(3.0, 3.0, 80.0, 80.0, 5, 5);
        // `ink` is where the board's pixels begin on the left; `lines`
        // draws its inner lines in the page's colour.
        let draw = |ink: u32, lines: bool| {
            RgbImage::from_fn(406, 406, |x, y| {
                let inside = (3..403).contains(&y) && (ink..403).contains(&x);
                let line = lines && x > 5 && (x + 77) % 80 < 2;
                image::Rgb(if inside && !line { [100; 3] } else { [250; 3] })
            })
        };
        let read = |ink, lines| surroundings(&draw(ink, lines), &skin, &g, &board);
        assert_eq!(read(3, false), Ok(()));
        assert_eq!(read(2, false), Ok(()));
        for (ink, lines) in [(1, false), (0, false), (3, true)] {
            let refused = read(ink, lines);
            assert!(
                refused.is_err_and(|e| e.contains("touches the edge")),
                "{ink} {lines}"
            );
        }
    }

    /// A ring of walls in a colour only loosely like the page's (15 off,
    /// within the surroundings' tolerance of 28): the whole board, with a
    /// wide margin, is read; a selection that cuts into the wall column
    /// anywhere, and so leaves a sliver of it where the band is looked
    /// at, is refused, though the sliver passes for the page loosely.
    #[test]
    fn a_sliver_of_a_cut_cell_loosely_like_the_page_is_not_its_surroundings() {
        let skin = example();
        let wall = [235, 235, 250];
        // The board, 5x5 at 40 px from (30, 30), seen from `cut` px on.
        let draw = |cut: u32| {
            RgbImage::from_fn(260 - cut, 260, |x, y| {
                let (x, y) = (x + cut, y);
                let inside = (30..230).contains(&x) && (30..230).contains(&y);
                let ring = !(70..190).contains(&x) || !(70..190).contains(&y);
                image::Rgb(match (inside, ring) {
                    (false, _) => [250; 3],
                    (true, true) => wall,
                    (true, false) => [100; 3],
                })
            })
        };
        let g = Grid::uniform(30.0, 30.0, 40.0, 40.0);
        let whole = Lattice::uniform(30.0, 30.0, 40.0, 40.0, 5, 5);
        assert_eq!(surroundings(&draw(0), &skin, &g, &whole), Ok(()));
        for into in 2..38 {
            // The board read without its cut column: from the next line.
            let x0 = f64::from(40 - into);
            let g = Grid::uniform(x0, 30.0, 40.0, 40.0);
            let rest = Lattice::uniform(x0, 30.0, 40.0, 40.0, 5, 4);
            let read = surroundings(&draw(30 + into), &skin, &g, &rest);
            assert!(read.is_err(), "cut {into} px into the wall column");
        }
    }

    /// A floor loosely like the page (20 off), and a lattice found 2 px
    /// inside the board's edge, so that the bands right and below show
    /// the floor: the page begins just past it, and the board is read, as
    /// the page shows as far inside the lattice's left and top sides. A
    /// wider board covered by something white a little past a lattice on
    /// its left edge, or from that lattice's line on, is refused, and so is
    /// a selection cutting a wider board 8 px past the first lattice, so
    /// that the floor runs on to its edge.
    #[test]
    fn a_lattice_a_little_inside_the_boards_edge_is_settled_but_a_cut_is_not() {
        let skin = example();
        // The board from (30, 30) to (`right`, 230), in a picture `w` wide.
        let draw = |right: u32, w: u32| {
            RgbImage::from_fn(w, 260, |x, y| {
                let inside = (30..right).contains(&x) && (30..230).contains(&y);
                let piece = (x - 30) % 40 > 10 && (y - 30) % 40 > 10 && (x + y) % 80 < 40;
                image::Rgb(match (inside, piece) {
                    (false, _) => [250; 3],
                    (true, false) => [230, 230, 235],
                    (true, true) => [100; 3],
                })
            })
        };
        let g = Grid::uniform(28.0, 28.0, 40.0, 40.0);
        let off = Lattice::uniform(28.0, 28.0, 40.0, 40.0, 5, 5);
        assert_eq!(surroundings(&draw(230, 260), &skin, &g, &off), Ok(()));
        // A wider board under something white from 3 px past the
        // lattice's right side: the page's colour begins as near as an
        // offset lattice's would, but the lattice lies on the board's left
        // edge. And one under a window whose white border begins on the
        // line: nearer than the learned outline, which its band passed.
        let at_edge = Grid::uniform(30.0, 28.0, 40.0, 40.0);
        let lattice = Lattice::uniform(30.0, 28.0, 40.0, 40.0, 5, 5);
        for (from, border) in [(233, 400), (230, 232)] {
            let mut covered = draw(300, 400);
            for (x, _, p) in covered.enumerate_pixels_mut() {
                if x >= from {
                    *p = image::Rgb(if x < border { [250; 3] } else { [128; 3] });
                }
            }
            let read = surroundings(&covered, &skin, &at_edge, &lattice);
            assert!(read.is_err(), "covered from {from}: {read:?}");
        }
        let cut = surroundings(&draw(270, 236), &skin, &g, &off);
        assert!(
            cut.as_ref()
                .is_err_and(|e| e.contains("do not show all around")),
            "{cut:?}"
        );
    }

    /// A board of five 40 px columns and `rows` rows at (30, 30), in bare
    /// floor on a white page, with a dark mark 15 px wide beside its
    /// right side over the rows of pixels `mark`.
    fn marked(rows: u32, mark: std::ops::Range<u32>) -> RgbImage {
        let bottom = 30 + 40 * rows;
        RgbImage::from_fn(260, bottom + 30, move |x, y| {
            let inside = (30..230).contains(&x) && (30..bottom).contains(&y);
            let beside = (230..245).contains(&x) && mark.contains(&y);
            image::Rgb(match (inside, beside) {
                (true, _) => [230, 230, 235],
                (false, true) => [100; 3],
                (false, false) => [250; 3],
            })
        })
    }

    /// A mark beside one cell of a board (an exit cut in its frame, in a
    /// cell's colours) leaves its surroundings all round; a mark along
    /// three cells is the board going on, and is refused. So is the one
    /// cell's mark when a look is in the page's colours: the sliver of a
    /// row the selection cut, bare floor but for one piece, looks so.
    #[test]
    fn a_mark_beside_one_cell_is_not_the_board_going_on() {
        let skin = example();
        let draw = |mark: std::ops::Range<u32>| marked(5, mark);
        let g = Grid::uniform(30.0, 30.0, 40.0, 40.0);
        let lattice = Lattice::uniform(30.0, 30.0, 40.0, 40.0, 5, 5);
        for one in [110..150, 95..135] {
            let read = surroundings(&draw(one.clone()), &skin, &g, &lattice);
            assert_eq!(read, Ok(()), "a mark beside {one:?}");
        }
        let along = surroundings(&draw(70..190), &skin, &g, &lattice);
        assert!(along.is_err(), "{along:?}");
        let mut page_floor = skin.clone();
        page_floor.looks[2].cells = vec![248.0; page_floor.looks[2].cells.len()];
        let one = surroundings(&draw(110..150), &page_floor, &g, &lattice);
        assert!(one.is_err(), "{one:?}");
        // Only its rim in the page's colours: a cut shows that too.
        let mut page_rim = skin.clone();
        let side = SIDE;
        for (k, v) in page_rim.looks[2].cells.iter_mut().enumerate() {
            let (r, c) = (k / 3 / side, k / 3 % side);
            if r == 0 || c == 0 || r + 1 == side || c + 1 == side {
                *v = 248.0;
            }
        }
        let rim = surroundings(&draw(110..150), &page_rim, &g, &lattice);
        assert!(rim.is_err(), "{rim:?}");
    }

    /// The allowance counts cells, not pieces of the strip: a mark beside
    /// one of a side's two cells is half the side, and is refused (also
    /// one within a third of the strip, its corners included, which the
    /// strip cut in cell-sized pieces took for one piece of three), while
    /// the same mark beside one of three cells is allowed. The pieces are
    /// cut at the lattice's lines, so a mark a cell long, on a cell, fails
    /// one piece only, wherever the strip's corners end.
    #[test]
    fn the_mark_allowance_counts_the_cells_along_a_side() {
        let skin = example();
        let draw = marked;
        let g = Grid::uniform(30.0, 30.0, 40.0, 40.0);
        for (rows, mark, allowed) in [(2, 30..70, false), (2, 32..54, false), (3, 30..70, true)] {
            let lattice = Lattice::uniform(30.0, 30.0, 40.0, 40.0, rows as usize, 5);
            let read = surroundings(&draw(rows, mark.clone()), &skin, &g, &lattice);
            assert_eq!(
                read.is_ok(),
                allowed,
                "{rows} rows, mark {mark:?}: {read:?}"
            );
        }
    }
}
