//! Learns a [`Skin`] from screenshots whose positions are known.
//!
//! 1. **The lattice of each shot.** The true position says how many rows
//!    and columns there are. Pitches come from the repeat of the picture's
//!    colour changes; for each, the origin is the one where cells of the
//!    same class look most alike and cells of different classes most
//!    different (the ratio of the two scatters), refined to a fraction of
//!    a pixel. No grid lines are needed.
//! 2. **The looks.** Every cell gives its class a sample, from the shot and
//!    from the shot scaled down and up (so a look holds at 0.5–2×). Within
//!    a class, samples alike are one look and samples unlike start another
//!    (a tile on floor, a tile on a target). A look's tolerance is twice
//!    its spread, at least a floor, and less than half the way to any
//!    other class's look. For a game whose cells stack (a piece over a
//!    target), the pairs no shot shows are made from those shown
//!    ([`super::layers`]), and a made pair too like a class shown is
//!    dropped.
//! 3. **The surroundings.** The colours of the margin around the board.
//! 4. **A self-check.** Each shot is read back with what was learned and
//!    must give its position exactly.

use std::borrow::Cow;

use image::RgbImage;
use image::imageops::{FilterType, resize};

use super::descriptor::{
    Descriptor, Integral, SIDE, describe_coarse, describe_into, from_bytes, to_bytes, weighted,
};
use super::locate::locate;
use super::pitch::{profile, repeats};
use super::{Gaps, Grid, Layers, Look, Memo, Skin, Verdict};
use crate::vision::lattice::Lattice;

/// Labelled cell samples: each cell's class and descriptor.
type Samples = [(String, Descriptor)];

/// One labelled screenshot: its picture and each cell's class.
pub struct Shot<'a> {
    pub image: &'a RgbImage,
    pub labels: &'a [Vec<String>],
    /// For a board of slots (a frame of scenes): a slot's side in cells.
    /// After each slot comes a gap, labelled as a row or column of cells
    /// of its own.
    pub slot: Option<usize>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum LearnSkinError {
    #[error("screenshot {shot}: the position is empty or its rows differ in length")]
    BadLabels { shot: usize },
    #[error(
        "screenshot {shot}: no {rows}×{cols} board found in it: check that the position given is the one it shows, and select the board with a small margin (its cells should repeat at one pitch of at least 8 px)"
    )]
    NoLattice {
        shot: usize,
        rows: usize,
        cols: usize,
    },
    #[error(
        "screenshot {shot}: the board reaches the screenshot's edge; select it with a margin of a few pixels, so that its surroundings can be learned"
    )]
    NoMargin { shot: usize },
    #[error(
        "{first:?} and {second:?} cells look too much alike in these screenshots to tell apart: a {first:?} cell, scaled, reads as {second:?} or between the two ({distance:.0} from it); calibrate on a larger screenshot"
    )]
    Alike {
        first: String,
        second: String,
        distance: f32,
    },
    #[error(
        "what was learned does not read screenshot {shot} back as its position: cell ({row},{col}) {what}"
    )]
    SelfCheck {
        shot: usize,
        row: usize,
        col: usize,
        what: String,
    },
    #[error(
        "the screenshots show boards of slots of different sizes, or with and without slots: teach one kind of board at a time"
    )]
    MixedSlots,
    #[error("what was learned does not find the board in screenshot {shot} again: {why}")]
    NotFound { shot: usize, why: String },
}

/// Learns a skin from labelled shots; also gives each shot's lattice.
pub fn learn(shots: &[Shot]) -> Result<(Skin, Vec<Lattice>), LearnSkinError> {
    learn_layered(shots, None)
}

/// [`learn`], for a game whose cells stack in `layers`: a pair never
/// shown is learned from its piece and its ground ([`super::layers`]).
pub fn learn_layered(
    shots: &[Shot],
    layers: Option<&Layers>,
) -> Result<(Skin, Vec<Lattice>), LearnSkinError> {
    if shots.iter().any(|s| s.slot != shots[0].slot) {
        return Err(LearnSkinError::MixedSlots);
    }
    let mut fits = Vec::new();
    for (i, shot) in shots.iter().enumerate() {
        let (rows, cols) = size(shot.labels)
            .filter(|_| shot.slot.is_none_or(|n| (1..=64).contains(&n)))
            .ok_or(LearnSkinError::BadLabels { shot: i + 1 })?;
        let int = Integral::new(shot.image);
        let classes = classes_of(shot.labels);
        let fit = fit(shot, &int, &classes, (rows, cols))
            .or_else(|| super::lines::board(shot.image, (rows, cols), shot.slot))
            .ok_or(LearnSkinError::NoLattice {
                shot: i + 1,
                rows,
                cols,
            })?;
        fits.push((fit, rows, cols));
    }
    let margins = margins(shots, &fits)?;
    let outside: Vec<[u8; 3]> = margins.iter().map(|m| m.colour).collect();
    let fits: Vec<(Grid, usize, usize)> = shots
        .iter()
        .zip(fits)
        .map(|(shot, (f, rows, cols))| (centred(shot.image, f, (rows, cols), &outside), rows, cols))
        .collect();
    let (samples, groups, pitches) = samples(shots, &fits);
    // Weighed on what was shown: the pairs made add nothing new.
    let weights = weights(&samples);
    let mut made = layers.map_or_else(Vec::new, |l| {
        super::layers::made(&samples, &groups, l, &weights)
    });
    let skin = loop {
        let all: Cow<Samples> = match made.is_empty() {
            true => Cow::Borrowed(&samples[..]),
            false => Cow::Owned(samples.iter().chain(&made).cloned().collect()),
        };
        let skin = skin_of(
            shots,
            &fits,
            (&margins, &outside),
            (&all, weights.clone()),
            &pitches,
        )?;
        match separable(&skin, &all) {
            Ok(()) => break skin,
            // A pair made from its layers that cannot be told from a class
            // shown is not learned: cells of it stay unread.
            Err(LearnSkinError::Alike { first, second, .. })
                if made.iter().any(|m| m.0 == first || m.0 == second) =>
            {
                made.retain(|m| m.0 != first && m.0 != second);
            }
            // Two classes shown, kept apart less for the pairs made: the
            // pairs go, not the calibration.
            Err(_) if !made.is_empty() => made.clear(),
            Err(e) => return Err(e),
        }
    };
    check(&skin, shots)?;
    let lattices = fits.iter().map(|(f, r, c)| f.lattice(*r, *c)).collect();
    Ok((skin, lattices))
}

/// The skin that `samples` (each at its [`Pitch`]) teach, told apart by
/// `weights`: looks, surroundings, pitch range and grid lines, each look's limits
/// covering its class's samples. `outside` is every margin colour, which
/// the reach is measured to.
fn skin_of(
    shots: &[Shot],
    fits: &[(Grid, usize, usize)],
    (margins, outside): (&[Margin], &[[u8; 3]]),
    (samples, weights): (&Samples, Vec<f32>),
    pitches: &[Pitch],
) -> Result<Skin, LearnSkinError> {
    let looks = looks(samples.to_vec(), &weights)?;
    let around = surroundings(margins, &looks);
    let skin = Skin {
        looks,
        weights,
        // Each rounded as the calibration file stores it (the reach up,
        // which `save` then writes as it is), so the self-check reads with
        // what is saved.
        aspect: round_to(
            fits.iter().map(|f| f.0.py / f.0.px).sum::<f64>() / fits.len().max(1) as f64,
            1e5,
        ),
        reach: (reach(shots, fits, outside) * 1e4).ceil() / 1e4,
        outside: around,
        // Outwards, so that every shot stays in the range.
        min_pitch: (pitch_range(pitches).0 * 100.0).floor() / 100.0,
        max_pitch: (pitch_range(pitches).1 * 100.0).ceil() / 100.0,
        gaps: mean_gaps(fits),
        rules: None,
        lines: None,
        memo: Memo::default(),
    };
    // Where the lattice lies from the shots' grid lines, if they show any.
    let taught: Vec<(&RgbImage, Grid)> = shots
        .iter()
        .zip(fits)
        .map(|(s, f)| (s.image, f.0))
        .collect();
    let skin = Skin {
        lines: super::lines::learn(&skin, &taught),
        ..skin
    };
    Ok(cover(skin, samples))
}

/// `v` rounded to the nearest `1 / per`.
fn round_to(v: f64, per: f64) -> f64 {
    (v * per).round() / per
}

fn size(labels: &[Vec<String>]) -> Option<(usize, usize)> {
    let cols = labels.first()?.len();
    (cols > 0 && labels.iter().all(|r| r.len() == cols)).then_some((labels.len(), cols))
}

/// Each cell's class as an index, row-major.
fn classes_of(labels: &[Vec<String>]) -> Vec<usize> {
    let mut names: Vec<&String> = Vec::new();
    labels
        .iter()
        .flatten()
        .map(|l| match names.iter().position(|n| *n == l) {
            Some(i) => i,
            None => {
                names.push(l);
                names.len() - 1
            }
        })
        .collect()
}

/// Boxes a side while searching for the lattice.
const COARSE: usize = 4;

/// The scatter of cells within their classes over the scatter of all
/// cells: small when the lattice is right. `None` for a flat picture.
fn scatter(
    int: &Integral,
    classes: &[usize],
    rows: usize,
    cols: usize,
    f: &Grid,
    (side, every): (usize, usize),
) -> Option<f64> {
    let n_classes = classes.iter().max()? + 1;
    // One pass: each class's sums per value, and the sum of squares of
    // all; the scatters follow from those (sum of squares less the
    // squared sum over the count).
    let mut d = Descriptor::new();
    let mut sums: Vec<f64> = Vec::new();
    let mut counts = vec![0usize; n_classes];
    let mut squares = 0.0f64;
    let mut n = 0;
    for (k, &class) in classes.iter().enumerate().take(rows * cols) {
        // Cells on the diagonals `every` apart, when a sample will do.
        if (k / cols + k % cols) % every != 0 {
            continue;
        }
        n += 1;
        describe_coarse(int, f.cell(k / cols, k % cols), side, &mut d);
        let len = d.len();
        sums.resize(n_classes * len, 0.0);
        counts[class] += 1;
        for (s, v) in sums[class * len..(class + 1) * len].iter_mut().zip(&d) {
            let v = f64::from(*v);
            *s += v;
            squares += v * v;
        }
    }
    let len = d.len();
    if n == 0 {
        return None;
    }
    let mut explained = 0.0;
    let mut grand = vec![0.0f64; len];
    for (class, &m) in counts.iter().enumerate().filter(|c| *c.1 > 0) {
        for (g, s) in grand.iter_mut().zip(&sums[class * len..(class + 1) * len]) {
            explained += s * s / m as f64;
            *g += s;
        }
    }
    let within = (squares - explained).max(0.0);
    let total = squares - grand.iter().map(|g| g * g).sum::<f64>() / n as f64;
    // A nearly flat picture explains nothing, however alike its cells.
    (total / (n * len) as f64 > 25.0).then(|| within / total)
}

/// The lattice that makes cells of one class most alike.
fn fit(
    shot: &Shot,
    int: &Integral,
    classes: &[usize],
    (rows, cols): (usize, usize),
) -> Option<Grid> {
    let img = shot.image;
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    let gx = profile(img, true, (0, img.height() as usize));
    let gy = profile(img, false, (0, img.width() as usize));
    // Origins are tried every sixth of a pitch, on every cell. A board of
    // slots has many cells: a third of a pitch, on half of them, will do,
    // as its polish starts further off anyway (from a guessed gap).
    let (pitches, per_pitch, sample) = match shot.slot {
        None => (uniform_pitches((&gx, &gy), (w, h), (rows, cols)), 6.0, 1),
        Some(n) => (slotted_pitches((&gx, &gy), (w, h), (rows, cols), n), 3.0, 2),
    };
    let mut best: Option<(f64, Grid)> = None;
    for p in pitches {
        let (ax, ay) = p.span(rows, cols);
        let (rx, ry) = (w - p.px * ax, h - p.py * ay);
        if rx < -0.5 || ry < -0.5 || p.px < 8.0 || p.py < 8.0 {
            continue;
        }
        let (sx, sy) = ((p.px / per_pitch).max(1.0), (p.py / per_pitch).max(1.0));
        let mut x0 = 0.0;
        while x0 <= rx + 1e-9 {
            let mut y0 = 0.0;
            while y0 <= ry + 1e-9 {
                let f = Grid { x0, y0, ..p };
                if let Some(s) = scatter(int, classes, rows, cols, &f, (COARSE, sample)) {
                    if best.as_ref().is_none_or(|b| s < b.0) {
                        best = Some((s, f));
                    }
                }
                y0 += sy;
            }
            x0 += sx;
        }
    }
    let (_, f) = best?;
    let f = polish(int, classes, rows, cols, f, (w, h));
    let s = scatter(int, classes, rows, cols, &f, (SIDE, 1))?;
    // Cells of one class must be far more alike than cells in general.
    (s < 0.2).then_some(f)
}

/// Pitches worth trying for a board of one pitch: where the picture's
/// colour changes repeat along each axis, in pairs and alone (square).
fn uniform_pitches(
    (gx, gy): (&[f32], &[f32]),
    (w, h): (f64, f64),
    (rows, cols): (usize, usize),
) -> Vec<Grid> {
    let mut xs: Vec<f64> = repeats(gx, 8.0, w / cols as f64 + 0.5, 3)
        .into_iter()
        .map(|r| r.0)
        .collect();
    let mut ys: Vec<f64> = repeats(gy, 8.0, h / rows as f64 + 0.5, 3)
        .into_iter()
        .map(|r| r.0)
        .collect();
    // A board of few cells a side repeats too few times to show its pitch:
    // then it fills most of the selection.
    xs.push((w - 4.0) / cols as f64);
    ys.push((h - 4.0) / rows as f64);
    xs.iter()
        .flat_map(|&px| ys.iter().map(move |&py| (px, py)))
        .chain(xs.iter().map(|&p| (p, p)))
        .chain(ys.iter().map(|&p| (p, p)))
        .map(|(px, py)| Grid::uniform(0.0, 0.0, px, py))
        .collect()
}

/// Gap widths, in pitches, that a slotted board starts from; the polish
/// settles the true one.
const GAP_GUESSES: [f64; 2] = [0.35, 0.9];

/// Pitches worth trying for a board of slots `n` cells a side: the
/// picture repeats at a slot and its gap, which the slots across (or
/// down) fill; each gap width guessed gives the pitch.
fn slotted_pitches(
    (gx, gy): (&[f32], &[f32]),
    (w, h): (f64, f64),
    (rows, cols): (usize, usize),
    n: usize,
) -> Vec<Grid> {
    let periods = |g: &[f32], len: f64, cells: usize| -> Vec<f64> {
        let slots = (cells + 1) as f64 / (n + 1) as f64;
        let mut out: Vec<f64> = repeats(g, 8.0 * n as f64, len / slots + 0.5, 2)
            .into_iter()
            .map(|r| r.0)
            .collect();
        out.push((len - 4.0) / slots);
        out.sort_by(f64::total_cmp);
        out.dedup_by(|a, b| (*a - *b).abs() < 0.01 * *b);
        out
    };
    let (xs, ys) = (periods(gx, w, cols), periods(gy, h, rows));
    let mut out = Vec::new();
    for gap in GAP_GUESSES {
        let pitch = |period: f64| period / (n as f64 + gap);
        for &sx in &xs {
            for &sy in &ys {
                out.push(Grid {
                    gaps: Some(Gaps {
                        every: n,
                        x: gap,
                        y: gap,
                    }),
                    ..Grid::uniform(0.0, 0.0, pitch(sx), pitch(sy))
                });
            }
        }
    }
    out
}

/// The shots' gaps, averaged; `None` for boards of one pitch.
fn mean_gaps(fits: &[(Grid, usize, usize)]) -> Option<Gaps> {
    let all: Vec<Gaps> = fits.iter().filter_map(|f| f.0.gaps).collect();
    let first = *all.first()?;
    let n = all.len() as f64;
    // Rounded as the calibration file stores them.
    Some(Gaps {
        x: round_to(all.iter().map(|g| g.x).sum::<f64>() / n, 1e5),
        y: round_to(all.iter().map(|g| g.y).sum::<f64>() / n, 1e5),
        ..first
    })
}

/// Coordinate descent on the fit, with the full descriptor.
fn polish(
    int: &Integral,
    classes: &[usize],
    rows: usize,
    cols: usize,
    f: Grid,
    (w, h): (f64, f64),
) -> Grid {
    let cost = |f: &Grid| {
        let (ax, ay) = f.span(rows, cols);
        let inside = f.x0 >= -0.5
            && f.y0 >= -0.5
            && f.x0 + f.px * ax <= w + 0.5
            && f.y0 + f.py * ay <= h + 0.5
            && f.gaps.is_none_or(|g| {
                let width = |v: f64| super::grid::GAP_WIDTHS.contains(&v);
                width(g.x) && width(g.y)
            });
        inside
            .then(|| scatter(int, classes, rows, cols, f, (6, 1)))
            .flatten()
    };
    let step = f.px.min(f.py) / 8.0;
    f.descend((rows, cols), step, 0.05, cost)
}

/// The most a fit is moved to centre it in the board's box, and the most
/// the box and the lattice may differ in size for that, in pitches.
const CENTRE_SLACK: f64 = 0.1;

/// The fit moved to the middle of the box the board fills (where the
/// shot is not its surroundings), on each axis where that box is the
/// lattice's size. Likeness alone cannot place a lattice to a pixel where
/// every cell has the same edge (grid lines): moved along, every cell
/// changes alike. The board's box can.
fn centred(img: &RgbImage, f: Grid, (rows, cols): (usize, usize), outside: &[[u8; 3]]) -> Grid {
    let Some((bx0, bx1, by0, by1)) = super::locate::board_box(img, outside) else {
        return f;
    };
    let (ax, ay) = f.span(rows, cols);
    let shift = |b0: usize, b1: usize, l0: f64, len: f64, pitch: f64| {
        let (b0, b1) = (b0 as f64, b1 as f64);
        let d = (b0 + b1 - 2.0 * l0 - len) / 2.0;
        let fits =
            ((b1 - b0) - len).abs() <= CENTRE_SLACK * pitch && d.abs() <= CENTRE_SLACK * pitch;
        if fits { d } else { 0.0 }
    };
    Grid {
        x0: f.x0 + shift(bx0, bx1, f.x0, ax * f.px, f.px),
        y0: f.y0 + shift(by0, by1, f.y0, ay * f.py, f.py),
        ..f
    }
}

/// Scales at which every shot is also sampled.
const SCALES: [f64; 5] = [1.0, 0.5, 0.7, 1.4, 2.0];
/// The pitches a scaled copy of a shot may have: below 15 px (a little
/// under the 16 px a skin need read) a cell's detail, such as a ring
/// against a diamond, blurs away, so a copy that small would only make
/// two classes look alike that no read at 16 px confuses.
const SCALED_PITCHES: std::ops::RangeInclusive<f64> = 15.0..=400.0;

/// A sample's cell size: its width (the pitch a skin's range bounds) and
/// its shorter side (what its detail is drawn in).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pitch {
    x: f64,
    least: f64,
}

/// The cell widths a skin taught at `pitches` reads: from 0.9 of the
/// smallest sample's, but no cell whose shorter side is under the 15 px
/// its looks were checked apart at (unless a shot itself is that small),
/// to 1.15 of the largest's.
fn pitch_range(pitches: &[Pitch]) -> (f64, f64) {
    let floor = *SCALED_PITCHES.start();
    let low = |p: &Pitch| p.x * (floor / p.least).clamp(0.9, 1.0);
    let min = pitches.iter().map(low).fold(f64::MAX, f64::min);
    let max = pitches.iter().map(|p| p.x).fold(0.0, f64::max) * 1.15;
    (min, max)
}

/// Every cell of every shot, at every scale: (label, descriptor), the
/// unscaled shot's first; and each one's cell size.
fn samples(
    shots: &[Shot],
    fits: &[(Grid, usize, usize)],
) -> (Vec<(String, Descriptor)>, Vec<usize>, Vec<Pitch>) {
    let mut out = Vec::new();
    let mut groups = Vec::new();
    let mut at = Vec::new();
    for (shot, &(fit, rows, cols)) in shots.iter().zip(fits) {
        for s in SCALES {
            let p = fit.px.min(fit.py) * s;
            // Shots of one cell size, the same scale: their pieces, grounds
            // and floors are drawn alike, so a pair stacks from any of them.
            let group = (p * 2.0).round() as usize;
            if s != 1.0 && !SCALED_PITCHES.contains(&p) {
                continue;
            }
            let scaled;
            let img = if s == 1.0 {
                shot.image
            } else {
                let (w, h) = (shot.image.width(), shot.image.height());
                let (sw, sh) = (
                    ((f64::from(w) * s).round() as u32).max(1),
                    ((f64::from(h) * s).round() as u32).max(1),
                );
                scaled = resize(shot.image, sw, sh, FilterType::Triangle);
                &scaled
            };
            let sx = f64::from(img.width()) / f64::from(shot.image.width());
            let int = Integral::new(img);
            let f = fit.scaled(sx);
            for r in 0..rows {
                for c in 0..cols {
                    let mut d = Descriptor::new();
                    describe_into(&int, f.cell(r, c), &mut d);
                    out.push((shot.labels[r][c].clone(), d));
                    groups.push(group);
                    at.push(Pitch {
                        x: fit.px * s,
                        least: p,
                    });
                }
            }
        }
    }
    (out, groups, at)
}

/// Samples nearer than this to a look join it; the rest start new looks.
const JOIN: f32 = 22.0;
/// The least tolerance of a look.
const FLOOR: f32 = 14.0;

/// Per value of a descriptor, how far apart the classes' means are over
/// how much a class's samples stray: values where classes differ weigh
/// more than those where only scale and phase move them.
fn weights(samples: &[(String, Descriptor)]) -> Vec<f32> {
    let len = samples.first().map_or(0, |s| s.1.len());
    let mut labels: Vec<&str> = samples.iter().map(|s| s.0.as_str()).collect();
    labels.sort_unstable();
    labels.dedup();
    let members = |l: &str| -> Vec<&Descriptor> {
        samples.iter().filter(|s| s.0 == l).map(|s| &s.1).collect()
    };
    let means: Vec<Descriptor> = labels
        .iter()
        .map(|l| mean_of(&members(l).into_iter().cloned().collect::<Vec<_>>()))
        .collect();
    let grand = mean_of(&means);
    let mut within = vec![0.0f32; len];
    for (l, m) in labels.iter().zip(&means) {
        let ms = members(l);
        for d in &ms {
            for i in 0..len {
                within[i] += (d[i] - m[i]).powi(2) / ms.len() as f32;
            }
        }
    }
    let mut w: Vec<f32> = (0..len)
        .map(|i| {
            let between: f32 =
                means.iter().map(|m| (m[i] - grand[i]).powi(2)).sum::<f32>() / means.len() as f32;
            between / (within[i] / labels.len() as f32 + 16.0)
        })
        .collect();
    let mean = w.iter().sum::<f32>() / len.max(1) as f32;
    w.iter_mut()
        .for_each(|v| *v = (*v / mean.max(1e-6)).clamp(0.05, 20.0));
    // As stored in the calibration file, so that the self-check reads
    // with exactly what is saved.
    w.iter_mut()
        .for_each(|v| *v = (*v * 1000.0).round() / 1000.0);
    w
}

/// Groups each class's samples into looks, and sets their tolerances.
fn looks(samples: Vec<(String, Descriptor)>, weights: &[f32]) -> Result<Vec<Look>, LearnSkinError> {
    let distance = |a: &[f32], b: &[f32]| weighted(a, b, weights);
    // (label, members)
    let mut groups: Vec<(String, Vec<Descriptor>)> = Vec::new();
    for (label, d) in samples {
        let near = groups
            .iter()
            .enumerate()
            .filter(|(_, g)| g.0 == label)
            .map(|(i, g)| (i, distance(&g.1[0], &d)))
            .filter(|&(_, dist)| dist <= JOIN)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match near {
            Some((i, _)) => groups[i].1.push(d),
            None => groups.push((label, vec![d])),
        }
    }
    let mut looks: Vec<(Look, f32)> = groups
        .into_iter()
        .map(|(label, members)| {
            let mean = from_bytes(&to_bytes(&mean_of(&members)));
            let spread = members
                .iter()
                .map(|m| distance(m, &mean))
                .fold(0.0, f32::max);
            (
                Look {
                    label,
                    limits: Some(limits_of(&members, &mean)),
                    cells: mean,
                    tolerance: (2.0 * spread).max(FLOOR),
                },
                spread,
            )
        })
        .collect();
    for i in 0..looks.len() {
        for j in 0..looks.len() {
            if looks[i].0.label != looks[j].0.label {
                let d = distance(&looks[i].0.cells, &looks[j].0.cells);
                looks[i].0.tolerance = looks[i].0.tolerance.min(CAP * d);
            }
        }
    }
    // As stored in the calibration file (two decimals, rounded down).
    Ok(looks
        .into_iter()
        .map(|(mut l, _)| {
            l.tolerance = (l.tolerance * 100.0).floor() / 100.0;
            l
        })
        .collect())
}

/// Per value, the farthest any member strays from `mean`, rounded up to
/// a whole step as the calibration file stores it.
fn limits_of(members: &[Descriptor], mean: &[f32]) -> Descriptor {
    let mut out = vec![0.0f32; mean.len()];
    for m in members {
        widen(&mut out, m, mean);
    }
    out
}

/// `limits` widened, per value, to how far `sample` strays from `mean`,
/// rounded up to a whole step as the calibration file stores it.
fn widen(limits: &mut [f32], sample: &[f32], mean: &[f32]) {
    for ((o, v), c) in limits.iter_mut().zip(sample).zip(mean) {
        *o = o.max((v - c).abs().ceil().min(255.0));
    }
}

/// Widens each look's limits to every sample of its class judged nearest
/// to it: a sample may lie nearer a sibling look of its own class (a tile
/// on a target, not on the floor) than the look it was grouped with, and
/// the sibling's limits must not refuse what was taught.
fn cover(mut skin: Skin, samples: &[(String, Descriptor)]) -> Skin {
    for (label, d) in samples {
        let Verdict::Match { look, .. } = skin.judge(d) else {
            continue;
        };
        let l = &mut skin.looks[look];
        let Some(limits) = l.limits.as_mut().filter(|_| &l.label == label) else {
            continue;
        };
        widen(limits, d, &l.cells);
    }
    skin
}

/// A look's tolerance is at most this share of the way to a look of
/// another class; where the two overlap, where a cell lies between them
/// decides ([`Skin::side`]).
const CAP: f32 = 0.7;

/// Every sample, at every scale, must read as its own class: a sample
/// that matches no look, or lies between its class and another, means the
/// two cannot be told apart at some scale.
fn separable(skin: &Skin, samples: &[(String, Descriptor)]) -> Result<(), LearnSkinError> {
    for (label, d) in samples {
        let (other, distance) = match skin.confirm(d, skin.judge(d)) {
            Verdict::Match { look, .. } if &skin.looks[look].label == label => continue,
            Verdict::Match { look, distance, .. } => (look, distance),
            Verdict::Strays { look, .. } => (look, skin.distance(d, &skin.looks[look].cells)),
            Verdict::Ambiguous { first, second } => {
                let other = if &skin.looks[first].label == label {
                    second
                } else {
                    first
                };
                (other, skin.distance(d, &skin.looks[other].cells))
            }
            // Too far from its own look, whose tolerance another class's
            // nearness cut short: that class.
            Verdict::NoMatch { .. } => {
                let Some(other) = (0..skin.looks.len())
                    .filter(|&i| &skin.looks[i].label != label)
                    .min_by(|&a, &b| {
                        skin.distance(d, &skin.looks[a].cells)
                            .total_cmp(&skin.distance(d, &skin.looks[b].cells))
                    })
                else {
                    continue;
                };
                (other, skin.distance(d, &skin.looks[other].cells))
            }
        };
        return Err(LearnSkinError::Alike {
            first: label.clone(),
            second: skin.looks[other].label.clone(),
            distance,
        });
    }
    Ok(())
}

fn mean_of(members: &[Descriptor]) -> Descriptor {
    let mut m = vec![0.0f32; members[0].len()];
    for d in members {
        for (a, b) in m.iter_mut().zip(d) {
            *a += b;
        }
    }
    m.iter_mut().for_each(|v| *v /= members.len() as f32);
    m
}

/// The colours of the margins around the boards: the commonest, until
/// nearly every margin pixel is near one of them; each with whether it
/// shows on two sides of a board or more.
fn margins(shots: &[Shot], fits: &[(Grid, usize, usize)]) -> Result<Vec<Margin>, LearnSkinError> {
    let mut bins = std::collections::HashMap::<[u8; 3], Bin>::new();
    let mut total = 0u64;
    let mut per_side = [0u64; 4];
    for (i, (shot, &(f, rows, cols))) in shots.iter().zip(fits).enumerate() {
        let (w, h) = (
            f64::from(shot.image.width()),
            f64::from(shot.image.height()),
        );
        let (ax, ay) = f.span(rows, cols);
        let (bx1, by1) = (f.x0 + f.px * ax, f.y0 + f.py * ay);
        if f.x0 < 2.0 || f.y0 < 2.0 || w - bx1 < 2.0 || h - by1 < 2.0 {
            return Err(LearnSkinError::NoMargin { shot: i + 1 });
        }
        // The board's own outline reaches a little past its lattice.
        let gap = (0.06 * f.px.min(f.py)).max(2.0);
        for (x, y, p) in shot.image.enumerate_pixels() {
            let (cx, cy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            let side = if cy <= f.y0 - gap {
                0
            } else if cy >= by1 + gap {
                1
            } else if cx <= f.x0 - gap {
                2
            } else if cx >= bx1 + gap {
                3
            } else {
                continue;
            };
            let e = bins.entry(p.0.map(|v| v / 16)).or_default();
            e.n += 1;
            e.sides[side] += 1;
            for k in 0..3 {
                e.sum[k] += u64::from(p.0[k]);
            }
            per_side[side] += 1;
            total += 1;
        }
    }
    // Ties break on the colour, not on the map's order, so that the same
    // shots always teach the same file.
    let mut all: Vec<([u8; 3], Bin)> = bins.into_iter().collect();
    all.sort_by_key(|(key, b)| (std::cmp::Reverse(b.n), *key));
    let mut out = Vec::new();
    let mut seen = 0;
    for (_, b) in all {
        // Rare colours are the blend where two meet, not a colour of their own.
        if seen * 1000 >= total * 995 || b.n * 1000 < total || out.len() >= 16 {
            break;
        }
        seen += b.n;
        let sides = (0..4)
            .filter(|&k| b.sides[k] > 0 && b.sides[k] * 1000 >= per_side[k])
            .count();
        out.push(Margin {
            colour: b.sum.map(|s| (s / b.n) as u8),
            around: sides >= 2,
        });
    }
    Ok(out)
}

/// A colour of the margins, and whether it shows on two sides of a board
/// or more.
struct Margin {
    colour: [u8; 3],
    around: bool,
}

/// The board's surroundings: the margins' colours, less any that shows on
/// one side of the board only and is a colour of its cells (the floor
/// showing through an exit cut in a frame). Taken as the surroundings, it
/// would stop a bare floor row at the board's edge from being the board;
/// what surrounds a board surrounds it.
fn surroundings(margins: &[Margin], looks: &[Look]) -> Vec<[u8; 3]> {
    margins
        .iter()
        .filter(|m| m.around || !looks.iter().any(|l| mostly(l, m.colour)))
        .map(|m| m.colour)
        .collect()
}

/// True when a quarter of a look's boxes or more are near `colour`.
fn mostly(look: &Look, colour: [u8; 3]) -> bool {
    let c = colour.map(f32::from);
    let near = look
        .cells
        .chunks_exact(3)
        .filter(|b| super::near_any_f32(&[c], [b[0], b[1], b[2]]))
        .count();
    near * 4 >= look.cells.len() / 3
}

/// Margin pixels of one colour bin: how many, on which side of the
/// board (above, below, left, right), and their sum per channel.
#[derive(Default)]
struct Bin {
    n: u64,
    sides: [u64; 4],
    sum: [u64; 3],
}

/// How far past the lattice the boards' own pixels reach, in pitches: on
/// each side, from each pixel along the edge outwards, the distance to the
/// first colour of the surroundings; the largest side's typical distance.
fn reach(shots: &[Shot], fits: &[(Grid, usize, usize)], outside: &[[u8; 3]]) -> f64 {
    let mut most: f64 = 0.0;
    for (shot, &(f, rows, cols)) in shots.iter().zip(fits) {
        let img = shot.image;
        let (w, h) = (i64::from(img.width()), i64::from(img.height()));
        let seen = |x: i64, y: i64| {
            x < 0
                || y < 0
                || x >= w
                || y >= h
                || super::near_any(outside, img.get_pixel(x as u32, y as u32).0.map(f32::from))
        };
        let pitch = f.px.min(f.py);
        let limit = (0.25 * pitch).ceil() as i64;
        let (ax, ay) = f.span(rows, cols);
        let (x0, x1) = (f.x0, f.x0 + f.px * ax);
        let (y0, y1) = (f.y0, f.y0 + f.py * ay);
        // (first pixel outside the edge, outward step, along-edge range, vertical edge?)
        let sides = [
            ((x0 - 0.5).floor() as i64, -1, (y0, y1), true),
            ((x1 - 0.5).ceil() as i64, 1, (y0, y1), true),
            ((y0 - 0.5).floor() as i64, -1, (x0, x1), false),
            ((y1 - 0.5).ceil() as i64, 1, (x0, x1), false),
        ];
        for (start, step, (a, b), vertical) in sides {
            let mut d: Vec<i64> = (a.ceil() as i64..b.floor() as i64)
                .map(|t| {
                    (0..limit)
                        .find(|&k| {
                            let at = start + step * k;
                            if vertical { seen(at, t) } else { seen(t, at) }
                        })
                        .unwrap_or(limit)
                })
                .collect();
            d.sort_unstable();
            if let Some(&q) = d.get(d.len() * 3 / 4) {
                most = most.max(q as f64 / pitch);
            }
        }
    }
    most
}

/// Reads every shot back with the skin: it must give the shot's position.
fn check(skin: &Skin, shots: &[Shot]) -> Result<(), LearnSkinError> {
    for (i, shot) in shots.iter().enumerate() {
        let found = locate(shot.image, skin).map_err(|r| LearnSkinError::NotFound {
            shot: i + 1,
            why: r.reason,
        })?;
        let rows = found.verdicts.len();
        let cols = found.verdicts.first().map_or(0, Vec::len);
        if (rows, cols) != (shot.labels.len(), shot.labels[0].len()) {
            return Err(LearnSkinError::NotFound {
                shot: i + 1,
                why: format!(
                    "it finds a {rows}×{cols} board, not {}×{}",
                    shot.labels.len(),
                    shot.labels[0].len()
                ),
            });
        }
        for (r, row) in found.verdicts.iter().enumerate() {
            for (c, v) in row.iter().enumerate() {
                let want = &shot.labels[r][c];
                let what = match (v, skin.why(v)) {
                    (_, Some(why)) => why,
                    (super::Verdict::Match { look, .. }, None)
                        if &skin.looks[*look].label != want =>
                    {
                        format!("reads {:?}, not {want:?}", skin.looks[*look].label)
                    }
                    _ => continue,
                };
                return Err(LearnSkinError::SelfCheck {
                    shot: i + 1,
                    row: r,
                    col: c,
                    what,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The range runs from 0.9 of the smallest cell's width to 1.15 of
    /// the largest's, in widths even for wide cells; it stops where the
    /// shorter side would fall under 15 px, and reaches a shot's own cells
    /// when they are smaller than that.
    #[test]
    fn the_pitch_range_covers_the_samples_but_not_cells_under_15_px() {
        let p = |x: f64, least: f64| Pitch { x, least };
        let near = |(a, b): (f64, f64), (c, d): (f64, f64)| {
            assert!((a - c).abs() < 1e-9 && (b - d).abs() < 1e-9, "{a}-{b}");
        };
        near(pitch_range(&[p(40.0, 40.0), p(80.0, 80.0)]), (36.0, 92.0));
        // Cells twice as wide as tall: widths, and the floor on the height.
        near(pitch_range(&[p(32.0, 16.0), p(64.0, 32.0)]), (30.0, 73.6));
        near(pitch_range(&[p(16.0, 16.0)]), (15.0, 18.4));
        near(pitch_range(&[p(12.0, 12.0), p(24.0, 24.0)]), (12.0, 27.6));
    }

    /// A page with a board of 4×3 cells of 10 px at (20, 30).
    fn page() -> RgbImage {
        RgbImage::from_fn(80, 70, |x, y| {
            let board = (20..60).contains(&x) && (30..60).contains(&y);
            image::Rgb(if board {
                [40, 40, 200]
            } else {
                [250, 250, 250]
            })
        })
    }

    /// A sample of "b" nearest the sibling look it was not grouped with
    /// widens that look's limits, so reading it back is not refused; a
    /// sample of another class widens nothing.
    #[test]
    fn a_sample_nearest_a_sibling_look_is_within_that_looks_limits() {
        let len = super::super::descriptor::LEN;
        let mut skin = crate::vision::skin::example();
        for l in &mut skin.looks {
            l.limits = Some(vec![0.0; len]);
        }
        let mut near_second_b = vec![135.0; len];
        near_second_b[..4].copy_from_slice(&[80.0; 4]);
        assert!(matches!(
            skin.confirm(&near_second_b, skin.judge(&near_second_b)),
            Verdict::Strays { look: 2, .. }
        ));
        let samples = vec![
            ("b".to_string(), near_second_b.clone()),
            ("a".to_string(), vec![131.0; len]),
        ];
        let skin = cover(skin, &samples);
        assert!(matches!(
            skin.confirm(&near_second_b, skin.judge(&near_second_b)),
            Verdict::Match { look: 2, .. }
        ));
        let limits = skin.looks[2].limits.as_ref().unwrap();
        assert_eq!((limits[0], limits[4]), (60.0, 5.0));
        assert!(
            skin.looks[0]
                .limits
                .as_ref()
                .unwrap()
                .iter()
                .all(|&v| v == 0.0)
        );
        assert!(separable(&skin, &samples[..1]).is_ok());
    }

    #[test]
    fn a_fit_a_pixel_off_is_centred_in_the_box_the_board_fills() {
        let off = Grid::uniform(20.8, 29.4, 10.0, 10.0);
        let g = centred(&page(), off, (3, 4), &[[250, 250, 250]]);
        assert!(
            (g.x0 - 20.0).abs() < 1e-9 && (g.y0 - 30.0).abs() < 1e-9,
            "{g:?}"
        );
        // Where the box is not the lattice's size, it says nothing.
        let wrong = Grid::uniform(20.8, 29.4, 10.0, 10.0);
        let g = centred(&page(), wrong, (3, 3), &[[250, 250, 250]]);
        assert_eq!((g.x0, g.y0), (20.8, 30.0));
    }

    /// A margin colour on one side of the board only is the surroundings
    /// unless its cells are mostly that colour (the floor through an exit
    /// cut in a frame); one all round is the surroundings whatever it is.
    #[test]
    fn a_cells_colour_beside_one_side_only_is_not_the_surroundings() {
        let len = super::super::descriptor::LEN;
        let floor = Look {
            label: ".".into(),
            cells: [217.0, 211.0, 197.0].repeat(len / 3),
            tolerance: 14.0,
            limits: None,
        };
        let margin = |colour: [u8; 3], around: bool| Margin { colour, around };
        let margins = [
            margin([122, 90, 60], true),
            margin([238, 240, 243], true),
            margin([217, 211, 197], false),
            margin([20, 20, 20], false),
        ];
        assert_eq!(
            surroundings(&margins, std::slice::from_ref(&floor)),
            vec![[122, 90, 60], [238, 240, 243], [20, 20, 20]]
        );
        let page_like_floor = [margin([217, 211, 197], true)];
        assert_eq!(
            surroundings(&page_like_floor, &[floor]),
            vec![[217, 211, 197]]
        );
    }
}
