//! Reads a whole board: find the lattice, then classify every cell as a
//! colour class or a marker (a piece recognised by its template), each with
//! a confidence, or as unreadable with the reason why.

use image::RgbImage;

use std::fmt;

use super::cells::{CellSample, sample};
use super::color::{Rgb, classify};
use super::lattice::{Lattice, find_lattice};
use super::params::ReadParams;

/// Why a cell could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum Unreadable {
    /// Something sharp is drawn over it that matches no marker well enough.
    UnknownMark {
        nearest: String,
        score: f32,
        min_score: f32,
    },
    /// Its colour is too far from every class.
    NoClass {
        color: Rgb,
        nearest: String,
        letter: char,
        distance: f32,
        tolerance: f32,
    },
    /// Its colour lies between two classes.
    Between {
        color: Rgb,
        first: (String, char),
        second: Option<(String, char)>,
    },
    /// A game reader's own reason (parts of the cell disagree, say).
    Other(String),
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreadable::UnknownMark {
                nearest,
                score,
                min_score,
            } => write!(
                f,
                "something sharp is drawn over it (text, a pointer?) and it does not look like the {nearest} (match {score:.2}, needs {min_score:.2})"
            ),
            Unreadable::NoClass {
                color,
                nearest,
                letter,
                distance,
                tolerance,
            } => write!(
                f,
                "its colour {color} matches no cell class (nearest: {nearest} '{letter}', {distance:.0} away, tolerance {tolerance:.0})"
            ),
            Unreadable::Between {
                color,
                first,
                second,
            } => {
                write!(
                    f,
                    "its colour {color} lies between {} '{}'",
                    first.0, first.1
                )?;
                if let Some((name, letter)) = second {
                    write!(f, " and {name} '{letter}'")?;
                }
                Ok(())
            }
            Unreadable::Other(why) => f.write_str(why),
        }
    }
}

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
    pub why: Option<Unreadable>,
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

/// The confidence a piece read in a cell that passed for plain needs.
const CLEAR_MARK: f32 = 0.9;

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
    params: &ReadParams,
) -> CellRead {
    let rect = lattice.cell(row, col);
    let s = sample(img, rect, &params.sample);
    if s.marks > params.max_plain_marks {
        if let Some(read) = read_marker(img, rect, &s, params) {
            return read;
        }
    }
    let Some(v) = classify(&params.classes, s.color) else {
        // No colour classes at all: nothing a plain cell could be.
        return CellRead {
            letter: None,
            confidence: 0.0,
            guess: '?',
            why: Some(Unreadable::Between {
                color: s.color,
                first: ("no class".into(), '?'),
                second: None,
            }),
            sample: s,
        };
    };
    let best = &params.classes[v.best];
    let ok = v.confidence >= params.min_confidence;
    // Fewer steps are sharp in a piece drawn small, so a piece may pass
    // for plain: a cell far from every colour, with half the sharp steps
    // a piece needs, is matched against the pieces, and taken for one
    // only on a clear match (not a colour between two classes, as a cell
    // caught mid-change shows, nor a faint trace).
    let far = v.distance > best.tolerance;
    if far
        && s.marks >= params.max_plain_marks / 2.0
        && let Some(read) = read_marker(img, rect, &s, params)
        && read.letter.is_some()
        && read.confidence >= CLEAR_MARK
    {
        return read;
    }
    let why = (!ok).then(|| {
        if far {
            Unreadable::NoClass {
                color: s.color,
                nearest: best.name.clone(),
                letter: best.letter,
                distance: v.distance,
                tolerance: best.tolerance,
            }
        } else {
            Unreadable::Between {
                color: s.color,
                first: (best.name.clone(), best.letter),
                second: v
                    .runner_up
                    .map(|(i, _)| (params.classes[i].name.clone(), params.classes[i].letter)),
            }
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

/// Reads a cell with something drawn over it as the best-matching marker;
/// `None` when the game has no markers.
fn read_marker(
    img: &RgbImage,
    rect: crate::geom::RectF,
    s: &CellSample,
    params: &ReadParams,
) -> Option<CellRead> {
    // Something is drawn over the cell: a piece, or text, or a pointer.
    let frame = rect.inset(0.03);
    let (best, score) = params
        .markers
        .iter()
        .map(|m| (m, m.template.score(img, frame)))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let confidence = marker_confidence(score, best.min_score);
    let ok = confidence >= params.min_confidence;
    Some(CellRead {
        letter: ok.then_some(best.letter),
        confidence,
        guess: best.letter,
        why: (!ok).then(|| Unreadable::UnknownMark {
            nearest: best.name.clone(),
            score,
            min_score: best.min_score,
        }),
        sample: s.clone(),
    })
}

/// Finds the lattice and reads every cell; `None` when there is no lattice.
pub fn read_grid(img: &RgbImage, params: &ReadParams) -> Option<GridRead> {
    let lattice = find_lattice(img, &params.lattice)?;
    let cells = (0..lattice.rows())
        .map(|r| {
            (0..lattice.cols())
                .map(|c| read_cell(img, &lattice, r, c, params))
                .collect()
        })
        .collect();
    Some(GridRead { lattice, cells })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::cells::SampleParams;
    use crate::vision::color::ColorClass;
    use crate::vision::lattice::LatticeParams;
    use crate::vision::params::Marker;
    use crate::vision::template::Template;
    use image::Rgb as P;

    const BLUE: [u8; 3] = [30, 140, 200];

    /// What a 40 px cell of a colour no class has shows.
    #[derive(Clone, Copy)]
    enum Mark {
        /// The piece: a white cross.
        Piece,
        /// The piece faintly, as a trace fading out.
        Faint,
        /// Something else sharp: a white ring.
        Ring,
        Nothing,
    }

    fn cell(mark: Mark) -> RgbImage {
        RgbImage::from_fn(40, 40, |x, y| {
            let (u, v) = (f64::from(x) - 19.5, f64::from(y) - 19.5);
            let cross = (u - v).abs() < 4.0 || (u + v).abs() < 4.0;
            let ring = (u.hypot(v) - 12.0).abs() < 3.0;
            let inside = u.abs().max(v.abs()) < 14.0;
            P(match mark {
                Mark::Piece if cross && inside => [250, 250, 250],
                Mark::Faint if cross && inside => [60, 165, 220],
                Mark::Ring if ring && inside => [250, 250, 250],
                _ => BLUE,
            })
        })
    }

    /// The piece's cell counts as plain, just: its sharp steps are a
    /// little under the threshold, as a small piece's are.
    fn params() -> ReadParams {
        let piece = sample(
            &cell(Mark::Piece),
            crate::geom::RectF {
                x0: 0.0,
                y0: 0.0,
                x1: 40.0,
                y1: 40.0,
            },
            &SampleParams::default(),
        );
        ReadParams {
            lattice: LatticeParams::default(),
            sample: SampleParams::default(),
            max_plain_marks: piece.marks * 1.1,
            min_confidence: 0.6,
            classes: vec![ColorClass {
                letter: '.',
                name: "floor".into(),
                stops: vec![Rgb::from_u8([226, 226, 250])],
                tolerance: 24.0,
                haze: None,
            }],
            markers: vec![Marker {
                letter: 'K',
                name: "piece".into(),
                template: Template::from_image(&cell(Mark::Piece), false).expect("a template"),
                min_score: 0.45,
            }],
            skin: None,
        }
    }

    #[test]
    fn a_piece_that_passes_for_plain_is_read_when_no_colour_explains_its_cell() {
        let at = Lattice::uniform(0.0, 0.0, 40.0, 40.0, 1, 1);
        let read = |mark| read_cell(&cell(mark), &at, 0, 0, &params());
        assert_eq!(read(Mark::Piece).letter, Some('K'));
        // Something else sharp stays unread; so do a faint trace of the
        // piece and a flat cell, by their colour.
        assert_eq!(read(Mark::Ring).letter, None);
        for mark in [Mark::Faint, Mark::Nothing] {
            let r = read(mark);
            assert_eq!(r.letter, None);
            assert!(matches!(r.why, Some(Unreadable::NoClass { .. })), "{r:?}");
        }
    }
}
