//! Reads a whole board: find the lattice, then classify every cell as a
//! colour class or a marker (a piece recognised by its template), each with
//! a confidence, or as unreadable with the reason why.

use image::RgbImage;

use super::cells::{CellSample, sample};
use super::color::classify;
use super::lattice::{Lattice, find_lattice};
use crate::calibration::Calibration;

/// One cell's reading.
#[derive(Clone, Debug)]
pub struct CellRead {
    /// The class letter, or `None` when the cell could not be read.
    pub letter: Option<char>,
    /// Confidence (0–1) in the best candidate, even when it was rejected.
    pub confidence: f32,
    /// The best candidate, kept for messages when `letter` is `None`.
    pub guess: char,
    pub sample: CellSample,
    /// Why the cell is unreadable.
    pub why: Option<String>,
}

/// The reading of a whole board.
#[derive(Clone, Debug)]
pub struct GridRead {
    pub lattice: Lattice,
    /// Row-major.
    pub cells: Vec<Vec<CellRead>>,
}

impl GridRead {
    /// The cells that could not be read, with the reason.
    pub fn unreadable(&self) -> impl Iterator<Item = ((usize, usize), &CellRead)> {
        self.cells
            .iter()
            .enumerate()
            .flat_map(|(r, row)| row.iter().enumerate().map(move |(c, cell)| ((r, c), cell)))
            .filter(|(_, cell)| cell.letter.is_none())
    }

    /// Board rows as text, `?` for unreadable cells.
    pub fn rows(&self) -> Vec<String> {
        self.cells
            .iter()
            .map(|row| row.iter().map(|c| c.letter.unwrap_or('?')).collect())
            .collect()
    }

    pub fn confidences(&self) -> Vec<Vec<f32>> {
        self.cells
            .iter()
            .map(|row| row.iter().map(|c| c.confidence).collect())
            .collect()
    }
}

/// Logistic map of a template score around its threshold.
fn marker_confidence(score: f32, min: f32) -> f32 {
    1.0 / (1.0 + (-(score - min) / 0.04).exp())
}

/// Classifies one cell.
pub fn read_cell(
    img: &RgbImage,
    lattice: &Lattice,
    row: usize,
    col: usize,
    cal: &Calibration,
) -> CellRead {
    let rect = lattice.cell(row, col);
    let s = sample(img, rect, &cal.sample);
    if s.marks > cal.max_plain_marks && !cal.markers.is_empty() {
        // Something is drawn over the cell: a piece, or text, or a pointer.
        let frame = rect.inset(0.03);
        let (best, score) = cal
            .markers
            .iter()
            .map(|m| (m, m.template.score(img, frame)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .expect("markers is not empty");
        let confidence = marker_confidence(score, best.min_score);
        let ok = confidence >= cal.min_confidence;
        return CellRead {
            letter: ok.then_some(best.letter),
            confidence,
            guess: best.letter,
            why: (!ok).then(|| {
                format!(
                    "something sharp is drawn over it (text, a pointer?) and it does not look like the {} (match {:.2}, needs {:.2})",
                    best.name, score, best.min_score
                )
            }),
            sample: s,
        };
    }
    let v = classify(&cal.classes, s.color).expect("calibration has classes");
    let best = &cal.classes[v.best];
    let ok = v.confidence >= cal.min_confidence;
    let why = (!ok).then(|| {
        if v.distance > best.tolerance {
            format!(
                "its colour {} matches no cell class (nearest: {} '{}', {:.0} away, tolerance {:.0})",
                s.color, best.name, best.letter, v.distance, best.tolerance
            )
        } else {
            let other = v.runner_up.map_or(String::new(), |(i, _)| {
                format!(" and {} '{}'", cal.classes[i].name, cal.classes[i].letter)
            });
            format!("its colour {} lies between {} '{}'{}", s.color, best.name, best.letter, other)
        }
    });
    CellRead {
        letter: ok.then_some(best.letter),
        confidence: v.confidence,
        guess: best.letter,
        why,
        sample: s,
    }
}

/// Finds the lattice and reads every cell; `None` when there is no lattice.
pub fn read_grid(img: &RgbImage, cal: &Calibration) -> Option<GridRead> {
    let lattice = find_lattice(img, &cal.lattice)?;
    let cells = (0..lattice.rows())
        .map(|r| {
            (0..lattice.cols())
                .map(|c| read_cell(img, &lattice, r, c, cal))
                .collect()
        })
        .collect();
    Some(GridRead { lattice, cells })
}
