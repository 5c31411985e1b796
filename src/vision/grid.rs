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

/// The sides (`"left"`, `"top"`, `"right"`, `"bottom"`) past which the board
/// seems to go on: where the strip of image beyond the outermost line
/// reads, row after row, as cells. A selection that cuts through the board
/// shows as part of a board, and must not be played as a whole one.
pub fn cut_sides(img: &RgbImage, lattice: &Lattice, cal: &Calibration) -> Vec<&'static str> {
    use crate::geom::RectF;
    let (pitch, _) = lattice.pitch();
    let b = lattice.bounds();
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    let (near, far) = (0.2 * pitch, 0.8 * pitch);
    let cell_like = |r: RectF| {
        if r.width() < 0.15 * pitch || r.height() < 0.15 * pitch {
            return None;
        }
        let s = sample(
            img,
            r,
            &crate::vision::cells::SampleParams {
                inset: 0.0,
                ..cal.sample.clone()
            },
        );
        let v = classify(&cal.classes, s.color)?;
        Some(v.confidence >= cal.min_confidence && s.marks <= cal.max_plain_marks)
    };
    let strips = |side: &str, k: usize| -> RectF {
        let (row, col) = (
            lattice.cell(k.min(lattice.rows() - 1), 0),
            lattice.cell(0, k.min(lattice.cols() - 1)),
        );
        let (ry0, ry1) = (row.y0 + 0.25 * pitch, row.y1 - 0.25 * pitch);
        let (cx0, cx1) = (col.x0 + 0.25 * pitch, col.x1 - 0.25 * pitch);
        match side {
            "left" => RectF {
                x0: (b.x0 - far).max(0.0),
                y0: ry0,
                x1: b.x0 - near,
                y1: ry1,
            },
            "right" => RectF {
                x0: b.x1 + near,
                y0: ry0,
                x1: (b.x1 + far).min(w),
                y1: ry1,
            },
            "top" => RectF {
                x0: cx0,
                y0: (b.y0 - far).max(0.0),
                x1: cx1,
                y1: b.y0 - near,
            },
            _ => RectF {
                x0: cx0,
                y0: b.y1 + near,
                x1: cx1,
                y1: (b.y1 + far).min(h),
            },
        }
    };
    let mut cut = Vec::new();
    for side in ["left", "top", "right", "bottom"] {
        let n = if side == "left" || side == "right" {
            lattice.rows()
        } else {
            lattice.cols()
        };
        let seen: Vec<bool> = (0..n).filter_map(|k| cell_like(strips(side, k))).collect();
        if !seen.is_empty() && seen.iter().filter(|&&c| c).count() * 2 > n {
            cut.push(side);
        }
    }
    cut
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
