//! The lattice from grid lines, for skins whose boards show them: the
//! line finder ([`find_lattice`]) places a drawn grid in about a
//! millisecond, where placing one by the cells' looks alone takes several.
//!
//! A skin's lattice need not lie on the drawn lines: where it was learned,
//! it was placed where cells of one class look most alike and centred in
//! the board's box (a shadow under the board moves that box). So the skin
//! keeps where its lattice lay from the lines in the shots it was taught
//! on ([`Lines`], a share of the pitch), and a lattice from the lines is
//! moved by as much ([`guess`]). It is a first guess: the reader reads
//! every cell on it with the same checks as on any other, and when that
//! read is not clean, the lattice is placed to a pixel by the cells' looks
//! and read again; when that is not clean either, the search by the cells'
//! looks alone runs.
//!
//! The learner places a shot by its lines too ([`board`]) when its cells
//! of one class are not alike enough to place it by.

use image::RgbImage;

use super::{Grid, Skin};
use crate::vision::lattice::{Lattice, LatticeParams, find_lattice};

/// Where a skin's lattice lies from the grid lines its shots show, in
/// pitches along each axis (from -0.5 to 0.5).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lines {
    pub x: f64,
    pub y: f64,
}

/// The most the offsets measured on any two shots may differ, in pitches,
/// for the lines to say where the skin's lattice lies.
const AGREE: f64 = 0.06;

/// How near the lines' pitch must be to the learned lattice's (a share):
/// closer than a pixel over a board of tens of cells.
const SAME_PITCH: f64 = 0.01;

/// What the line finder may assume about a skin's boards: their cells'
/// pitch and shape, and nothing about their size.
fn params(skin: &Skin) -> LatticeParams {
    LatticeParams {
        min_cells: 3,
        max_cells: 64,
        min_pitch: skin.min_pitch,
        max_pitch: skin.max_pitch,
        square_cells: (skin.aspect - 1.0).abs() < 0.02,
        square_board: false,
        ..LatticeParams::default()
    }
}

/// A lattice's lines as one grid: its first lines and its mean pitches.
fn uniform(l: &Lattice) -> Option<Grid> {
    let pitch = |v: &[f64]| (v.len() >= 2).then(|| (v[v.len() - 1] - v[0]) / (v.len() - 1) as f64);
    let (px, py) = (pitch(&l.xs)?, pitch(&l.ys)?);
    Some(Grid::uniform(l.xs[0], l.ys[0], px, py))
}

/// Where `fit` lies from `lines`, in pitches, when both have one pitch.
fn offset(fit: &Grid, lines: &Grid) -> Option<Lines> {
    let same = |a: f64, b: f64| (a / b - 1.0).abs() < SAME_PITCH;
    let share = |from: f64, to: f64, pitch: f64| {
        let s = ((to - from) / pitch).rem_euclid(1.0);
        if s >= 0.5 { s - 1.0 } else { s }
    };
    (same(fit.px, lines.px) && same(fit.py, lines.py)).then(|| Lines {
        x: share(lines.x0, fit.x0, fit.px),
        y: share(lines.y0, fit.y0, fit.py),
    })
}

/// Where a skin's lattices lie from the lines of the shots it was learned
/// from (each shot with its lattice), or `None` when a shot shows no
/// grid lines of its lattice's pitch, or the shots disagree. Boards of
/// slots have none: their gaps are not a pitch apart.
pub(super) fn learn(skin: &Skin, shots: &[(&RgbImage, Grid)]) -> Option<Lines> {
    if skin.gaps.is_some() || shots.is_empty() {
        return None;
    }
    let p = params(skin);
    let offsets = shots
        .iter()
        .map(|(img, fit)| offset(fit, &uniform(&find_lattice(img, &p)?)?))
        .collect::<Option<Vec<Lines>>>()?;
    Some(Lines {
        x: agreed(offsets.iter().map(|o| o.x))?,
        y: agreed(offsets.iter().map(|o| o.y))?,
    })
}

/// The mean of shares of a pitch that lie within [`AGREE`] of each other,
/// round the circle (0.49 and -0.49 are 0.02 apart), wrapped into
/// [-0.5, 0.5]; `None` when they spread wider or there are none.
fn agreed(shares: impl Iterator<Item = f64>) -> Option<f64> {
    let wrap = |s: f64| (s + 0.5).rem_euclid(1.0) - 0.5;
    let shares: Vec<f64> = shares.collect();
    let first = *shares.first()?;
    // Each as a step from the first, the short way round.
    let steps: Vec<f64> = shares.iter().map(|s| wrap(s - first)).collect();
    let (lo, hi) = steps
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &d| (lo.min(d), hi.max(d)));
    let mean = wrap(first + steps.iter().sum::<f64>() / steps.len() as f64);
    // As the calibration file stores it (five decimals), so that what
    // the self-check reads with is what is saved.
    (hi - lo <= AGREE).then_some((mean * 1e5).round() / 1e5)
}

/// The lattice of a labelled shot of `rows × cols` cells from its grid
/// lines, when the lines bound exactly that many: for a shot whose cells of
/// one class are not alike enough to place the lattice by (every car of
/// its own colour), but whose lines show where the cells are. `None` on a
/// board of slots.
pub(super) fn board(
    img: &RgbImage,
    (rows, cols): (usize, usize),
    slot: Option<usize>,
) -> Option<Grid> {
    if slot.is_some() {
        return None;
    }
    let p = LatticeParams {
        min_cells: rows.min(cols).max(2),
        max_cells: rows.max(cols),
        min_pitch: 8.0,
        square_cells: false,
        square_board: false,
        ..LatticeParams::default()
    };
    let l = find_lattice(img, &p)?;
    (l.xs.len() == cols + 1 && l.ys.len() == rows + 1).then(|| uniform(&l))?
}

/// A guess at the lattice from the picture's grid lines, moved to where
/// the skin's lattice lay from them; `None` for a skin whose shots showed
/// none, or a picture with no lines of the skin's pitch.
pub(super) fn guess(img: &RgbImage, skin: &Skin) -> Option<Grid> {
    let off = skin.lines?;
    if skin.gaps.is_some() {
        return None;
    }
    let g = uniform(&find_lattice(img, &params(skin))?)?;
    let shaped = (g.py / g.px / skin.aspect - 1.0).abs() < 0.04;
    shaped
        .then(|| Grid::uniform(g.x0 + off.x * g.px, g.y0 + off.y * g.py, g.px, g.py).first_whole())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offset_is_the_nearest_share_of_a_pitch() {
        let lines = Grid::uniform(10.0, 20.0, 40.0, 40.0);
        let fit = Grid::uniform(91.0, 18.0, 40.2, 39.9);
        let o = offset(&fit, &lines).expect("one pitch");
        assert!((o.x - 0.6 / 40.2).abs() < 1e-9, "{o:?}");
        assert!((o.y + 2.0 / 39.9).abs() < 1e-9, "{o:?}");
        // Lines twice as far apart as the cells are not their edges.
        assert_eq!(offset(&fit, &Grid::uniform(10.0, 20.0, 80.0, 80.0)), None);
    }

    #[test]
    fn offsets_agree_round_the_circle() {
        let near = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-9);
        assert!(near(agreed([0.02, 0.04].into_iter()), 0.03));
        // Half a pitch off, either side of the wrap: 0.02 apart.
        let across = agreed([0.49, -0.49].into_iter()).expect("they agree");
        assert!((across.abs() - 0.5).abs() < 1e-9, "{across}");
        // Each within 0.06 of the mean, but 0.12 apart.
        assert_eq!(agreed([0.0, 0.06, 0.12].into_iter()), None);
        assert_eq!(agreed(std::iter::empty()), None);
    }

    #[test]
    fn a_lattice_of_lines_is_one_grid() {
        let l = Lattice {
            xs: vec![5.0, 15.0, 25.0],
            ys: vec![7.0, 19.0],
        };
        let g = uniform(&l).expect("two lines each way");
        assert_eq!((g.x0, g.y0, g.px, g.py), (5.0, 7.0, 10.0, 12.0));
        let one = Lattice {
            xs: vec![5.0],
            ys: vec![7.0, 19.0],
        };
        assert!(uniform(&one).is_none());
    }
}
