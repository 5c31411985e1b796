//! `boardbot calibrate --game fifteen`: learns sgt-fifteen's look from one
//! screenshot whose game ID is known.
//!
//! sgt draws the numbers with the desktop's font, so boardbot ships no
//! picture of them: each number's template is cut from the screenshot,
//! from the tile that shows it (its ink's [`read::number_window`], as the
//! reader frames a number), and the faces' grey from the gap. A 4×4
//! screenshot shows all fifteen numbers; a smaller one teaches fewer, and
//! boards that show others are refused until calibrated on one that does.
//! What was learned must read the screenshot back as its game ID.

use image::RgbImage;

use super::read::{self, FACE_INSET, MIN_SCORE, Read};
use crate::calibration::{Calibration, Source};
use crate::engines::tiles::Tiles;
use crate::vision::color::{ColorClass, Rgb};
use crate::vision::learn::{LearnError, Learned, LearnedTemplate, check_rows, find_board, widened};
use crate::vision::patch::{median_colour, pixels_in};
use crate::vision::template::{Template, crop};
use crate::vision::{Lattice, ReadParams};

/// How far a face may stray from the learnt grey and still count as one.
const GREY_TOLERANCE: f32 = 20.0;

/// Learns the numbers and the faces' grey of `img`, which shows `board`,
/// starting from the game's `base` parameters.
pub fn learn(img: &RgbImage, board: &Tiles, base: &ReadParams) -> Result<Learned, LearnError> {
    let (rows, cols) = (board.height(), board.width());
    let lattice = find_board(img, rows, cols, base)?;
    let gap = board.gap();
    let gap_rect = lattice.cell(gap / cols, gap % cols);
    let grey = median_colour(&pixels_in(img, gap_rect.inset(0.1))).0;
    let mut templates = Vec::new();
    for slot in 0..rows * cols {
        let n = board.get(slot);
        if n != 0 {
            templates.push(cut(img, &lattice, grey, (slot / cols, slot % cols), n)?);
        }
    }
    let params = assemble(base, &lattice, grey, &templates);
    self_check(img, board, &params)?;
    Ok(Learned {
        params,
        templates,
        kept: Vec::new(),
        lattice,
    })
}

/// Tile `n`'s template, cut from the face of cell `(r, c)`.
fn cut(
    img: &RgbImage,
    lattice: &Lattice,
    grey: Rgb,
    (r, c): (usize, usize),
    n: u8,
) -> Result<LearnedTemplate, LearnError> {
    let name = format!("tile {n}");
    let flat = || LearnError::FlatTemplate {
        name: name.clone(),
        row: r,
        col: c,
    };
    let face = lattice.cell(r, c).inset(FACE_INSET);
    let ink = read::face(img, face, grey).ink_box.ok_or_else(flat)?;
    let image = crop(img, read::number_window(ink), 4).ok_or_else(flat)?;
    let template = Template::from_image(&image, false).ok_or_else(flat)?;
    Ok(LearnedTemplate {
        letter: read::letter(n),
        name,
        image,
        mirror: false,
        min_score: MIN_SCORE,
        template,
    })
}

/// The learnt parameters: the base's lattice limits widened to what was
/// seen, the faces' grey as the `.` class, one marker per number.
fn assemble(
    base: &ReadParams,
    lattice: &Lattice,
    grey: Rgb,
    templates: &[LearnedTemplate],
) -> ReadParams {
    let gap = ColorClass {
        letter: '.',
        name: "gap".into(),
        stops: vec![grey],
        tolerance: GREY_TOLERANCE,
        haze: None,
    };
    ReadParams {
        lattice: widened(&base.lattice, lattice),
        classes: vec![gap],
        markers: templates.iter().map(LearnedTemplate::marker).collect(),
        ..base.clone()
    }
}

/// Reads the screenshot with what was learnt: it must show `board`.
fn self_check(img: &RgbImage, board: &Tiles, params: &ReadParams) -> Result<(), LearnError> {
    let cal = Calibration {
        origin: "the calibration being learnt".into(),
        source: Source::BuiltIn,
        game: "fifteen".into(),
        params: params.clone(),
    };
    let chars = |rows: Vec<String>| -> Vec<Vec<char>> {
        rows.iter().map(|r| r.chars().collect()).collect()
    };
    let got = match read::read(img, &cal) {
        Read::Board { board: seen, .. } => read::rows(&seen),
        Read::Uncertain { grid, .. }
        | Read::NoBoard {
            grid: Some(grid), ..
        } => grid.rows(),
        Read::NoBoard { grid: None, .. } => {
            return Err(LearnError::NoLattice {
                min_cells: params.lattice.min_cells,
                max_cells: params.lattice.max_cells,
            });
        }
    };
    check_rows(&chars(read::rows(board)), &chars(got))
}
