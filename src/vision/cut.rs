//! Is the board cut by the selection? The check for readers that sample
//! patches: the generic one in [`super::trust`] looks at plain strips past
//! the lattice, which a column of pieces or a dark desktop can fool.
//!
//! - [`cut_sides`] looks where only ground would be in the cells past each
//!   side, and [`cut_refusal`] turns what it finds into a refusal that
//!   names the outer cells;
//! - [`checked`] runs it, then the generic trust step;
//! - [`edge_is_clear`] is the plainer test for boards drawn on a plain
//!   page (sgt's games): nothing but background just past a side.

use image::RgbImage;

use super::grid::GridRead;
use super::lattice::Lattice;
use super::params::ReadParams;
use super::patch::{Window, look, window_pixels};
use super::trust::{CellIssue, Reading, Side, Trust, trust_cells, verdict_on};
use crate::geom::RectF;

/// What lies past one side of the board's outer line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beyond {
    /// B.i.t.Lock ground: the board goes on past the selection.
    Board,
    /// The picture ends at the outer line: nothing says the board stops there.
    Unseen,
}

/// Whether the edge patches of the cells that would lie beyond one side
/// show the board going on. A moving destroyer's near-black is left out:
/// it is a piece, never ground, and dark desktops look like it.
/// (`dark`: the class a dark desktop passes for, left out.)
fn beyond_side(
    img: &RgbImage,
    cells: &[RectF],
    w: Window,
    params: &ReadParams,
    dark: char,
) -> Option<Beyond> {
    let mut seen = false;
    for &r in cells {
        if window_pixels(img, r, w).is_empty() {
            continue;
        }
        seen = true;
        if look(img, r, w, params, "the game").is_ok_and(|l| l.letter != dark) {
            return Some(Beyond::Board);
        }
    }
    (!seen).then_some(Beyond::Unseen)
}

/// The sides past which the board goes on, or past which the picture
/// shows nothing: where the edge patch of the cell that would lie beyond
/// the outer line shows B.i.t.Lock ground, or lies outside the picture.
/// The generic trust step misses a cut through a column of pieces (they
/// are not plain cells); this looks where only a cell's ground is.
/// (`edges`: the game's edge patches, top, bottom, left, right; `dark` as
/// for [`beyond_side`].)
pub fn cut_sides(
    img: &RgbImage,
    lattice: &Lattice,
    params: &ReadParams,
    (edges, dark): (&[Window; 4], char),
) -> Vec<(Side, Beyond)> {
    let (rows, cols) = (lattice.rows(), lattice.cols());
    let beyond = |rect: RectF, dx: f64, dy: f64| RectF {
        x0: rect.x0 + dx * rect.width(),
        x1: rect.x1 + dx * rect.width(),
        y0: rect.y0 + dy * rect.height(),
        y1: rect.y1 + dy * rect.height(),
    };
    let left: Vec<RectF> = (0..rows)
        .map(|r| beyond(lattice.cell(r, 0), -1.0, 0.0))
        .collect();
    let right: Vec<RectF> = (0..rows)
        .map(|r| beyond(lattice.cell(r, cols - 1), 1.0, 0.0))
        .collect();
    let top: Vec<RectF> = (0..cols)
        .map(|c| beyond(lattice.cell(0, c), 0.0, -1.0))
        .collect();
    let bottom: Vec<RectF> = (0..cols)
        .map(|c| beyond(lattice.cell(rows - 1, c), 0.0, 1.0))
        .collect();
    [
        (Side::Left, left, edges[3]),
        (Side::Right, right, edges[2]),
        (Side::Top, top, edges[1]),
        (Side::Bottom, bottom, edges[0]),
    ]
    .into_iter()
    .filter_map(|(side, cells, w)| beyond_side(img, &cells, w, params, dark).map(|b| (side, b)))
    .collect()
}

/// The refusal for a board that may go on past the selection: the reason,
/// and the outer cells on each such side, so the debug image marks them.
pub fn cut_refusal<B>(grid: GridRead, sides: &[(Side, Beyond)]) -> Reading<B> {
    let (rows, cols) = (grid.lattice.rows(), grid.lattice.cols());
    let goes_on: Vec<Side> = sides
        .iter()
        .filter(|s| s.1 == Beyond::Board)
        .map(|s| s.0)
        .collect();
    let unseen: Vec<&str> = sides
        .iter()
        .filter(|s| s.1 == Beyond::Unseen)
        .map(|s| s.0.name())
        .collect();
    let reason = if goes_on.is_empty() {
        format!(
            "the board touches the selection's {} edge, so boardbot cannot see whether it goes on: select it with a margin around it",
            unseen.join(" and ")
        )
    } else {
        Trust::CutEdge { sides: goes_on }.to_string()
    };
    let mut issues = Vec::new();
    for &(side, b) in sides {
        let why = match b {
            Beyond::Board => format!("the board seems to go on past the {} edge", side.name()),
            Beyond::Unseen => format!("the picture ends at the board's {} line", side.name()),
        };
        let cells: Vec<(usize, usize)> = match side {
            Side::Left => (0..rows).map(|r| (r, 0)).collect(),
            Side::Right => (0..rows).map(|r| (r, cols - 1)).collect(),
            Side::Top => (0..cols).map(|c| (0, c)).collect(),
            Side::Bottom => (0..cols).map(|c| (rows - 1, c)).collect(),
        };
        issues.extend(cells.into_iter().map(|(r, c)| CellIssue {
            cell: [r, c],
            why: why.clone(),
        }));
    }
    Reading::Uncertain {
        reason,
        grid,
        issues,
    }
}

/// The checks a patch reader makes once every cell is read: a board that
/// goes on past the selection (`sides`, from [`cut_sides`]), then the
/// generic trust step (unreadable cells, or no board of `game` at all).
/// `Err` is the refusal. The cut check replaces the generic one, whose
/// strips reach far enough past the board to take a dark desktop for a
/// dark piece.
pub fn checked<B>(
    grid: GridRead,
    sides: &[(Side, Beyond)],
    game: &str,
) -> Result<GridRead, Reading<B>> {
    if !sides.is_empty() {
        return Err(cut_refusal(grid, sides));
    }
    let verdict = trust_cells(&grid);
    verdict_on(grid, verdict, game)
}

/// How far a pixel's lightness may stray from the band's median and
/// still count as background.
const EDGE_STEP: f32 = 24.0;

/// True when the band just past the board's `side` (from 0.1 to 0.35 of a
/// cell beyond its outer line, all along it) is plain background, as sgt
/// draws a border a cell wide around the board. A selection cutting the
/// board shows the grid lines running on there, or pieces; one ending too
/// close to the outer line shows too little to tell, and is refused too.
/// (sgt's border is the blank cells' grey, so the generic check, which
/// asks whether the band reads as a cell, cannot be used.)
pub fn edge_is_clear(img: &RgbImage, lattice: &Lattice, side: Side) -> bool {
    let (pitch, _) = lattice.pitch();
    let b = lattice.bounds();
    let (near, far) = (0.1 * pitch, 0.35 * pitch);
    let band = match side {
        Side::Left => RectF {
            x0: b.x0 - far,
            y0: b.y0,
            x1: b.x0 - near,
            y1: b.y1,
        },
        Side::Right => RectF {
            x0: b.x1 + near,
            y0: b.y0,
            x1: b.x1 + far,
            y1: b.y1,
        },
        Side::Top => RectF {
            x0: b.x0,
            y0: b.y0 - far,
            x1: b.x1,
            y1: b.y0 - near,
        },
        Side::Bottom => RectF {
            x0: b.x0,
            y0: b.y1 + near,
            x1: b.x1,
            y1: b.y1 + far,
        },
    };
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    if band.x0 < 0.0 || band.y0 < 0.0 || band.x1 > w || band.y1 > h {
        return false;
    }
    let (x0, y0, x1, y1) = band.pixels(img.width(), img.height());
    let mut lumas: Vec<f32> = (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .map(|(x, y)| {
            let p = img.get_pixel(x, y).0;
            (f32::from(p[0]) + f32::from(p[1]) + f32::from(p[2])) / 3.0
        })
        .collect();
    if lumas.is_empty() {
        return false;
    }
    let n = lumas.len();
    let mid = *lumas.select_nth_unstable_by(n / 2, f32::total_cmp).1;
    let odd = lumas
        .iter()
        .filter(|&&l| (l - mid).abs() > EDGE_STEP)
        .count();
    odd * 200 <= n
}
