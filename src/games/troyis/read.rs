//! Reads a Troyis board from a screenshot, and refuses when unsure.
//!
//! The generic grid reader and trust step (`crate::vision`) do the work;
//! this module adds only Troyis's rules: every letter is K, W, V or `.`,
//! and there is exactly one knight.

use image::RgbImage;

use super::board::{Board, Square};
use crate::calibration::Calibration;
use crate::geom::Cell;
use crate::vision::{CellIssue, GridRead, Reading, read_trusted};

/// What the screenshot shows: a Troyis [`Board`] when read for sure.
pub type Read = Reading<Board>;

fn cell_list(cells: &[Cell]) -> String {
    super::board::cells_text(cells)
}

/// Reads the board in `img`.
pub fn read(img: &RgbImage, cal: &Calibration) -> Read {
    match read_trusted(img, &cal.params, "Troyis") {
        Ok(grid) => troyis_rules(grid, cal),
        Err(refusal) => refusal,
    }
}

/// Checks a trusted grid against Troyis's rules.
fn troyis_rules(grid: GridRead, cal: &Calibration) -> Read {
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
