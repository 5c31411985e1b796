//! Everything the reader needs to know about a game's look, in one value:
//! the lattice's limits, how cells are sampled, the colour classes and the
//! marker templates, and the confidence below which a cell is unreadable.
//!
//! Vision owns this type; `crate::calibration` only fills it from a TOML
//! file (and `vision::learn` from a screenshot whose truth is known).

use super::cells::SampleParams;
use super::color::ColorClass;
use super::lattice::LatticeParams;
use super::template::Template;

/// A piece recognised by its template.
#[derive(Clone, Debug)]
pub struct Marker {
    pub letter: char,
    pub name: String,
    pub template: Template,
    /// The correlation (−1..=1) at which a cell counts as this piece.
    pub min_score: f32,
}

/// How to read a game's board.
#[derive(Clone, Debug)]
pub struct ReadParams {
    pub lattice: LatticeParams,
    pub sample: SampleParams,
    /// A cell with more sharp marks than this is not plain: it holds a
    /// piece, or something unreadable.
    pub max_plain_marks: f32,
    /// Cells read with less confidence make the whole read uncertain.
    pub min_confidence: f32,
    pub classes: Vec<ColorClass>,
    pub markers: Vec<Marker>,
    /// A skin learned from labelled screenshots: when present, the game
    /// reads its boards through it ([`super::skin::read`]), and the colour
    /// classes and markers are unused.
    pub skin: Option<super::skin::Skin>,
}

impl ReadParams {
    /// Every letter a cell may be read as, colour classes first, each once.
    pub fn letters(&self) -> Vec<char> {
        let mut out: Vec<char> = Vec::new();
        let all = self.classes.iter().map(|c| c.letter);
        for l in all.chain(self.markers.iter().map(|m| m.letter)) {
            if !out.contains(&l) {
                out.push(l);
            }
        }
        out
    }
}
