//! Can a grid read be acted on? The generic half of every game's reader.
//!
//! Given the image, the grid read (if a lattice was found) and the reading
//! parameters, [`trust`] says one of:
//! - there is no board: no lattice, or most of its cells match nothing the
//!   game draws;
//! - the board is cut: it goes on past the selection's edge, so what was
//!   read is only part of it;
//! - some cells are unreadable, each with the reason;
//! - or the read can be trusted.
//!
//! A game's reader then checks only its own rules (one knight, say).

use std::fmt;

use image::RgbImage;
use serde::Serialize;

use super::cells::{SampleParams, sample};
use super::color::classify;
use super::grid::GridRead;
use super::lattice::Lattice;
use super::params::ReadParams;
use crate::geom::RectF;

/// A cell that could not be read, and why.
#[derive(Clone, Debug, Serialize)]
pub struct CellIssue {
    pub cell: [usize; 2],
    pub why: String,
}

/// Why no legal position looks like the cells read, with the cells at
/// fault where the rules can name them (a block unlike the others).
#[derive(Clone, Debug)]
pub struct NotLegal {
    pub reason: String,
    pub cells: Vec<CellIssue>,
}

impl From<String> for NotLegal {
    fn from(reason: String) -> NotLegal {
        NotLegal {
            reason,
            cells: Vec::new(),
        }
    }
}

/// A side of the board, or of the selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Top,
    Right,
    Bottom,
}

impl Side {
    pub const ALL: [Side; 4] = [Side::Left, Side::Top, Side::Right, Side::Bottom];

    pub fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Top => "top",
            Side::Right => "right",
            Side::Bottom => "bottom",
        }
    }
}

/// The verdict on a grid read.
#[derive(Clone, Debug)]
pub enum Trust {
    /// No lattice of the allowed size in the image.
    NoLattice { min_cells: usize, max_cells: usize },
    /// A lattice, but more than half its cells look like nothing the game draws.
    NotThisGame {
        rows: usize,
        cols: usize,
        issues: Vec<CellIssue>,
    },
    /// The board seems to go on past these sides of the image.
    CutEdge { sides: Vec<Side> },
    /// These cells could not be read for sure.
    Unreadable {
        total: usize,
        issues: Vec<CellIssue>,
    },
    /// Every cell was read with confidence.
    Trusted,
}

impl Trust {
    /// True when the image shows no board at all (as opposed to a board
    /// that cannot be acted on).
    pub fn is_no_board(&self) -> bool {
        matches!(self, Trust::NoLattice { .. } | Trust::NotThisGame { .. })
    }

    /// The cells to report, if any.
    pub fn into_issues(self) -> Vec<CellIssue> {
        match self {
            Trust::NotThisGame { issues, .. } | Trust::Unreadable { issues, .. } => issues,
            _ => Vec::new(),
        }
    }
}

impl fmt::Display for Trust {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Trust::NoLattice {
                min_cells,
                max_cells,
            } => write!(
                f,
                "no board found: the image has no grid of {min_cells}–{max_cells} square cells"
            ),
            Trust::NotThisGame { rows, cols, issues } => write!(
                f,
                "a {rows}×{cols} grid was found, but {} of its {} cells look like no cell of this game",
                issues.len(),
                rows * cols
            ),
            Trust::CutEdge { sides } => {
                let names: Vec<&str> = sides.iter().map(|s| s.name()).collect();
                write!(
                    f,
                    "the board seems to go on past the selection's {} edge: select the whole board, with a margin",
                    names.join(" and ")
                )
            }
            Trust::Unreadable { total, issues } => {
                let cells: Vec<String> = issues
                    .iter()
                    .map(|i| format!("({},{})", i.cell[0], i.cell[1]))
                    .collect();
                write!(
                    f,
                    "{} of {total} cells could not be read for sure: {} (first: {})",
                    issues.len(),
                    cells.join(", "),
                    issues.first().map_or("", |i| i.why.as_str())
                )
            }
            Trust::Trusted => write!(f, "every cell was read with confidence"),
        }
    }
}

/// What a game's reader made of a screenshot: no board, a board not to
/// act on, or a board read for sure (`B`, in the game's own terms).
pub enum Reading<B> {
    /// No board of the game; `grid` holds the lattice if one was found.
    NoBoard {
        grid: Option<GridRead>,
        reason: String,
        issues: Vec<CellIssue>,
    },
    /// A board, but not one to act on.
    Uncertain {
        grid: GridRead,
        reason: String,
        issues: Vec<CellIssue>,
    },
    /// A board read for sure.
    Board { grid: GridRead, board: B },
}

impl<B> Reading<B> {
    /// The board read for sure, or the refusal, retyped for any board.
    fn split<C>(self) -> Result<(GridRead, B), Reading<C>> {
        match self {
            Reading::Board { grid, board } => Ok((grid, board)),
            Reading::NoBoard {
                grid,
                reason,
                issues,
            } => Err(Reading::NoBoard {
                grid,
                reason,
                issues,
            }),
            Reading::Uncertain {
                grid,
                reason,
                issues,
            } => Err(Reading::Uncertain {
                grid,
                reason,
                issues,
            }),
        }
    }

    /// The same reading with the board, if any, turned by `f`.
    pub fn map<C>(self, f: impl FnOnce(B) -> C) -> Reading<C> {
        match self.split() {
            Ok((grid, board)) => Reading::Board {
                grid,
                board: f(board),
            },
            Err(refusal) => refusal,
        }
    }

    /// The same reading, where a board read for sure must also pass the
    /// game's own `check` (a legal position, say); a board that fails it
    /// is a board not to act on, for the reason `check` gives.
    pub fn check<C>(self, check: impl FnOnce(B) -> Result<C, String>) -> Reading<C> {
        match self.split() {
            Ok((grid, board)) => match check(board) {
                Ok(board) => Reading::Board { grid, board },
                Err(reason) => Reading::uncertain(grid, reason, Vec::new()),
            },
            Err(refusal) => refusal,
        }
    }

    /// A board not to act on, for `reason`; the cells at issue read as
    /// unsure (`?`, crossed out in the debug image).
    pub fn uncertain(mut grid: GridRead, reason: String, issues: Vec<CellIssue>) -> Reading<B> {
        for i in &issues {
            if let Some(cell) = grid
                .cells
                .get_mut(i.cell[0])
                .and_then(|r| r.get_mut(i.cell[1]))
            {
                cell.letter = None;
            }
        }
        Reading::Uncertain {
            grid,
            reason,
            issues,
        }
    }
}

/// Reads the grid in `img` and decides whether it can be acted on: the
/// trusted grid, or the refusal a game's reader returns as it is. `game`
/// names the game in the reason ("no Troyis board: …").
pub fn read_trusted<B>(
    img: &RgbImage,
    params: &ReadParams,
    game: &str,
) -> Result<GridRead, Reading<B>> {
    let grid = super::read_grid(img, params);
    let verdict = trust(img, grid.as_ref(), params);
    let Some(grid) = grid else {
        return Err(Reading::NoBoard {
            grid: None,
            reason: verdict.to_string(),
            issues: Vec::new(),
        });
    };
    verdict_on(grid, verdict, game)
}

/// The grid when `verdict` trusts it, else the refusal a game's reader
/// returns as it is (`game` as for [`read_trusted`]).
pub fn verdict_on<B>(grid: GridRead, verdict: Trust, game: &str) -> Result<GridRead, Reading<B>> {
    match verdict {
        Trust::Trusted => Ok(grid),
        v if v.is_no_board() => Err(Reading::NoBoard {
            reason: format!("no {game} board: {v}"),
            grid: Some(grid),
            issues: v.into_issues(),
        }),
        v => Err(Reading::Uncertain {
            reason: v.to_string(),
            grid,
            issues: v.into_issues(),
        }),
    }
}

/// Decides whether `grid`, read from `img` with `params`, can be acted on.
pub fn trust(img: &RgbImage, grid: Option<&GridRead>, params: &ReadParams) -> Trust {
    let Some(grid) = grid else {
        return Trust::NoLattice {
            min_cells: params.lattice.min_cells,
            max_cells: params.lattice.max_cells,
        };
    };
    let sides = cut_sides(img, &grid.lattice, params);
    if !sides.is_empty() {
        return Trust::CutEdge { sides };
    }
    trust_cells(grid)
}

/// The part of [`trust`] after the cut check, for a reader with a cut
/// check of its own: whether every cell was read for sure, or whether so
/// few were that this is no board of the game.
pub fn trust_cells(grid: &GridRead) -> Trust {
    let issues: Vec<CellIssue> = grid
        .unreadable()
        .map(|((r, c), cell)| CellIssue {
            cell: [r, c],
            why: cell
                .why
                .as_ref()
                .map_or_else(String::new, |w| w.to_string()),
        })
        .collect();
    let (rows, cols) = (grid.lattice.rows(), grid.lattice.cols());
    let total = rows * cols;
    if issues.len() * 2 > total {
        Trust::NotThisGame { rows, cols, issues }
    } else if !issues.is_empty() {
        Trust::Unreadable { total, issues }
    } else {
        Trust::Trusted
    }
}

/// The strip of image just past the board's `side`, beside its `k`th row
/// or column.
fn strip(lattice: &Lattice, side: Side, k: usize, img: (f64, f64)) -> RectF {
    let (pitch, _) = lattice.pitch();
    let b = lattice.bounds();
    let (near, far) = (0.2 * pitch, 0.8 * pitch);
    let row = lattice.cell(k.min(lattice.rows() - 1), 0);
    let col = lattice.cell(0, k.min(lattice.cols() - 1));
    let (ry0, ry1) = (row.y0 + 0.25 * pitch, row.y1 - 0.25 * pitch);
    let (cx0, cx1) = (col.x0 + 0.25 * pitch, col.x1 - 0.25 * pitch);
    let (x0, y0, x1, y1) = match side {
        Side::Left => ((b.x0 - far).max(0.0), ry0, b.x0 - near, ry1),
        Side::Right => (b.x1 + near, ry0, (b.x1 + far).min(img.0), ry1),
        Side::Top => (cx0, (b.y0 - far).max(0.0), cx1, b.y0 - near),
        Side::Bottom => (cx0, b.y1 + near, cx1, (b.y1 + far).min(img.1)),
    };
    RectF { x0, y0, x1, y1 }
}

/// The sides past which the board seems to go on: where the strip of image
/// beyond the outermost line reads, row after row, as cells. A selection
/// that cuts through the board shows as part of a board, and must not be
/// played as a whole one.
pub fn cut_sides(img: &RgbImage, lattice: &Lattice, params: &ReadParams) -> Vec<Side> {
    let (pitch, _) = lattice.pitch();
    let size = (f64::from(img.width()), f64::from(img.height()));
    let flush = SampleParams {
        inset: 0.0,
        ..params.sample.clone()
    };
    let cell_like = |r: RectF| {
        if r.width() < 0.15 * pitch || r.height() < 0.15 * pitch {
            return None;
        }
        let s = sample(img, r, &flush);
        let v = classify(&params.classes, s.color)?;
        Some(v.confidence >= params.min_confidence && s.marks <= params.max_plain_marks)
    };
    Side::ALL
        .into_iter()
        .filter(|&side| {
            let n = match side {
                Side::Left | Side::Right => lattice.rows(),
                Side::Top | Side::Bottom => lattice.cols(),
            };
            let seen: Vec<bool> = (0..n)
                .filter_map(|k| cell_like(strip(lattice, side, k, size)))
                .collect();
            !seen.is_empty() && seen.iter().filter(|&&c| c).count() * 2 > n
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::color::{ColorClass, Rgb};
    use crate::vision::grid::read_grid;
    use crate::vision::lattice::LatticeParams;
    use image::Rgb as P;

    const LIGHT: [u8; 3] = [226, 226, 250];
    const DARK: [u8; 3] = [110, 110, 230];

    fn params() -> ReadParams {
        let class = |letter, c: [u8; 3]| ColorClass {
            letter,
            name: letter.to_string(),
            stops: vec![Rgb::from_u8(c)],
            tolerance: 24.0,
            haze: None,
        };
        ReadParams {
            lattice: LatticeParams::default(),
            sample: SampleParams::default(),
            max_plain_marks: 0.6,
            min_confidence: 0.6,
            classes: vec![class('W', LIGHT), class('.', DARK)],
            markers: Vec::new(),
            skin: None,
        }
    }

    /// A 6 × 6 board of 30 px cells at (20, 20), white lines, on a page;
    /// `paint` may recolour a cell.
    fn board(paint: impl Fn(usize, usize) -> Option<[u8; 3]>) -> RgbImage {
        RgbImage::from_fn(220, 220, |x, y| {
            let (u, v) = (f64::from(x) - 20.0, f64::from(y) - 20.0);
            if !(-1.0..181.0).contains(&u) || !(-1.0..181.0).contains(&v) {
                return P([90, 95, 200]);
            }
            let near = |t: f64| (t - 30.0 * (t / 30.0).round()).abs() < 1.0;
            if near(u) || near(v) {
                return P([255, 255, 255]);
            }
            let (r, c) = ((v / 30.0) as usize, (u / 30.0) as usize);
            P(paint(r, c).unwrap_or(if (r + 2 * c) % 3 == 0 { DARK } else { LIGHT }))
        })
    }

    fn verdict(img: &RgbImage) -> Trust {
        let p = params();
        trust(img, read_grid(img, &p).as_ref(), &p)
    }

    #[test]
    fn says_trusted_unreadable_not_this_game_cut_or_no_board() {
        assert!(matches!(verdict(&board(|_, _| None)), Trust::Trusted));
        let green = board(|r, c| ((r, c) == (2, 3)).then_some([40, 200, 40]));
        match verdict(&green) {
            Trust::Unreadable { total, issues } => {
                assert_eq!(total, 36);
                assert_eq!(issues.len(), 1);
                assert_eq!(issues[0].cell, [2, 3]);
                assert!(
                    issues[0].why.contains("matches no cell class"),
                    "{issues:?}"
                );
            }
            other => panic!("{other:?}"),
        }
        let alien = board(|_, _| Some([200, 120, 20]));
        let v = verdict(&alien);
        assert!(
            matches!(
                v,
                Trust::NotThisGame {
                    rows: 6,
                    cols: 6,
                    ..
                }
            ),
            "{v:?}"
        );
        assert!(v.is_no_board());
        // A selection that cuts through the third column.
        let full = board(|_, _| None);
        let cut = image::imageops::crop_imm(&full, 95, 0, 125, 220).to_image();
        match verdict(&cut) {
            Trust::CutEdge { sides } => assert!(sides.contains(&Side::Left), "{sides:?}"),
            other => panic!("{other:?}"),
        }
        let flat = RgbImage::from_pixel(200, 200, P([90, 95, 200]));
        let v = verdict(&flat);
        assert!(
            matches!(
                v,
                Trust::NoLattice {
                    min_cells: 3,
                    max_cells: 16
                }
            ),
            "{v:?}"
        );
        assert!(v.to_string().starts_with("no board found"), "{v}");
    }
}
