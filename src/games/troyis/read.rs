//! Reads a Troyis board from a screenshot, and refuses when unsure.
//!
//! The generic grid reader does the work; this module adds Troyis's rules
//! of sanity: exactly one knight, and every cell read with confidence.

use image::RgbImage;

use super::board::{Board, Square};
use crate::calibration::Calibration;
use crate::geom::Cell;
use crate::report::CellIssue;
use crate::vision::grid::cut_sides;
use crate::vision::{GridRead, read_grid};

/// What the screenshot shows.
pub enum Read {
    /// No Troyis board; `grid` holds the lattice if one was found.
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
    Board { grid: GridRead, board: Board },
}

fn cell_list(cells: &[Cell]) -> String {
    super::board::cells_text(cells)
}

/// Reads the board in `img`.
pub fn read(img: &RgbImage, cal: &Calibration) -> Read {
    let Some(grid) = read_grid(img, cal) else {
        return Read::NoBoard {
            grid: None,
            reason: format!(
                "no board found: the image has no grid of {}–{} square cells",
                cal.lattice.min_cells, cal.lattice.max_cells
            ),
            issues: Vec::new(),
        };
    };
    let cut = cut_sides(img, &grid.lattice, cal);
    if !cut.is_empty() {
        return Read::Uncertain {
            reason: format!(
                "the board seems to go on past the selection's {} edge: select the whole board, with a margin",
                cut.join(" and ")
            ),
            grid,
            issues: Vec::new(),
        };
    }
    let issues: Vec<CellIssue> = grid
        .unreadable()
        .map(|((r, c), cell)| CellIssue {
            cell: [r, c],
            why: cell.why.clone().unwrap_or_default(),
        })
        .collect();
    let total = grid.lattice.rows() * grid.lattice.cols();
    let (rows, cols) = (grid.lattice.rows(), grid.lattice.cols());
    if issues.len() * 2 > total {
        return Read::NoBoard {
            reason: format!(
                "no Troyis board: a {rows}×{cols} grid was found, but {} of its {total} cells look like no Troyis cell",
                issues.len()
            ),
            grid: Some(grid),
            issues,
        };
    }
    if !issues.is_empty() {
        let cells: Vec<Cell> = issues.iter().map(|i| (i.cell[0], i.cell[1])).collect();
        return Read::Uncertain {
            reason: format!(
                "{} of {total} cells could not be read for sure: {} (first: {})",
                issues.len(),
                cell_list(&cells),
                issues[0].why
            ),
            grid,
            issues,
        };
    }
    // Every cell was read; a letter the calibration knows but Troyis does
    // not is a broken calibration, and must not be guessed at.
    let squares: Option<Vec<Vec<Square>>> = grid
        .cells
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| c.letter.and_then(Square::from_letter))
                .collect()
        })
        .collect();
    let Some(squares) = squares else {
        let reason = format!(
            "{}: a cell class's letter is not a Troyis cell (K, W, V or .); fix the calibration",
            cal.origin
        );
        return Read::Uncertain {
            grid,
            reason,
            issues: Vec::new(),
        };
    };
    let knights: Vec<Cell> = grid
        .cells
        .iter()
        .enumerate()
        .flat_map(|(r, row)| row.iter().enumerate().map(move |(c, cell)| ((r, c), cell)))
        .filter(|(_, cell)| cell.letter == Some('K'))
        .map(|(rc, _)| rc)
        .collect();
    if knights.len() != 1 {
        let reason = if knights.is_empty() {
            "no knight found on the board".to_string()
        } else {
            format!(
                "{} cells look like the knight: {}",
                knights.len(),
                cell_list(&knights)
            )
        };
        let issues = knights
            .iter()
            .map(|&(r, c)| CellIssue {
                cell: [r, c],
                why: "one of several knight-like cells".into(),
            })
            .collect();
        return Read::Uncertain {
            grid,
            reason,
            issues,
        };
    }
    match Board::from_squares(squares) {
        Ok(board) => Read::Board { grid, board },
        Err(e) => Read::Uncertain {
            reason: e.to_string(),
            grid,
            issues: Vec::new(),
        },
    }
}
