//! A board read through a skin, as every game's reader gives it: the grid
//! with a class and confidence per cell, then the game's own check that
//! the classes make a legal position. A cell that matches no look, or two,
//! refuses the whole read, naming the cells.

use image::RgbImage;

use super::locate::{Located, locate};
use super::{Skin, Verdict};
use crate::vision::cells::CellSample;
use crate::vision::grid::{CellRead, GridRead, Unreadable};
use crate::vision::lattice::Lattice;
use crate::vision::trust::{CellIssue, NotLegal, Reading};

/// Reads `img` with `skin`; `decode` turns the cells' labels into the
/// game's board, or says why no legal position looks like that (and
/// which cells, where it can).
pub fn read<B>(
    img: &RgbImage,
    skin: &Skin,
    decode: impl FnOnce(&[Vec<String>]) -> Result<B, NotLegal>,
) -> Reading<B> {
    let found = match locate(img, skin) {
        Ok(f) => f,
        Err(refusal) => {
            return Reading::NoBoard {
                grid: refusal.lattice.map(empty_grid),
                reason: refusal.reason,
                issues: Vec::new(),
            };
        }
    };
    let grid = grid_of(&found, skin);
    let doubts = found.doubts(skin);
    if !doubts.is_empty() {
        return Reading::Uncertain {
            grid,
            reason: format!(
                "{} cell(s) could not be read for sure with this calibration",
                doubts.len()
            ),
            issues: doubts
                .into_iter()
                .map(|((r, c), why)| CellIssue { cell: [r, c], why })
                .collect(),
        };
    }
    let labels = found.labels(skin).unwrap_or_default();
    match decode(&labels) {
        Ok(board) => Reading::Board { grid, board },
        Err(e) => Reading::Uncertain {
            grid,
            reason: e.reason,
            issues: e.cells,
        },
    }
}

/// A grid with no cells read, to show where a refused board was.
fn empty_grid(lattice: Lattice) -> GridRead {
    GridRead {
        lattice,
        cells: Vec::new(),
    }
}

fn grid_of(found: &Located, skin: &Skin) -> GridRead {
    let cells = found
        .verdicts
        .iter()
        .map(|row| row.iter().map(|v| cell_of(v, skin)).collect())
        .collect();
    GridRead {
        lattice: found.lattice.clone(),
        cells,
    }
}

fn first_char(label: &str) -> char {
    label.chars().next().unwrap_or('?')
}

fn cell_of(v: &Verdict, skin: &Skin) -> CellRead {
    let (letter, confidence, guess) = match v {
        Verdict::Match {
            look, confidence, ..
        } => {
            let c = first_char(&skin.looks[*look].label);
            (Some(c), *confidence, c)
        }
        Verdict::NoMatch { nearest, .. } => (
            None,
            0.0,
            skin.looks
                .get(*nearest)
                .map_or('?', |l| first_char(&l.label)),
        ),
        Verdict::Ambiguous { first, .. } => (None, 0.3, first_char(&skin.looks[*first].label)),
        Verdict::Strays { look, .. } => (None, 0.3, first_char(&skin.looks[*look].label)),
    };
    CellRead {
        letter,
        confidence,
        guess,
        sample: CellSample::default(),
        why: skin.why(v).map(Unreadable::Other),
    }
}
