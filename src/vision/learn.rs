//! Learns a game's look from one screenshot whose position is known:
//! `boardbot calibrate`.
//!
//! The game's existing parameters say which letters are colour classes and
//! which are marks (pieces matched by template). From the screenshot and
//! the true board it learns:
//! - each colour class's colour stops (the segment through its cells'
//!   colours, so a gradient is one class) and a tolerance from how far its
//!   cells stray, capped so that classes stay apart;
//! - each mark's template, cut from a cell that holds it;
//! - the lattice limits, widened to include what was seen;
//!
//! and then reads the screenshot again with what it learned, which must
//! give back the true board exactly.

use image::RgbImage;

use super::cells::{CellSample, sample};
use super::color::{ColorClass, Rgb};
use super::grid::read_grid;
use super::lattice::{Lattice, LatticeParams, find_lattice};
use super::params::{Marker, ReadParams};
use super::template::Template;

#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    #[error("the board text is empty")]
    EmptyBoard,
    #[error("the board text's rows differ in length: row {row} has {len} cells, row 0 has {first}")]
    RaggedBoard {
        row: usize,
        len: usize,
        first: usize,
    },
    #[error(
        "no grid found in the screenshot (looked for {min_cells}–{max_cells} cells a side); select the board with a small margin"
    )]
    NoLattice { min_cells: usize, max_cells: usize },
    #[error(
        "the board text is {board_rows}×{board_cols} but the screenshot shows a {image_rows}×{image_cols} grid; give the position of this screenshot"
    )]
    SizeMismatch {
        board_rows: usize,
        board_cols: usize,
        image_rows: usize,
        image_cols: usize,
    },
    #[error("cell ({row},{col}) is {letter:?}, which is no letter of this game (it knows {known})")]
    UnknownLetter {
        row: usize,
        col: usize,
        letter: char,
        known: String,
    },
    #[error(
        "the board has no cell of {}, so it cannot be learned; calibrate on a screenshot that shows every kind of cell, or pass --keep-missing to keep the built-in look for them",
        list(.0)
    )]
    Missing(Vec<(char, String)>),
    #[error("the {name} in cell ({row},{col}) is a flat patch: no template can be cut from it")]
    FlatTemplate {
        name: String,
        row: usize,
        col: usize,
    },
    #[error(
        "what was learned does not read the screenshot back as the board: {count} cells differ, first ({row},{col}) reads {got:?} for {want:?}"
    )]
    SelfCheck {
        count: usize,
        row: usize,
        col: usize,
        got: char,
        want: char,
    },
    #[error(
        "the screenshot shows another position than the one given: it reads as {read}; give the level or position this screenshot shows"
    )]
    OtherPosition { read: String },
    #[error("what was learned does not read the screenshot back: {0}")]
    Unread(String),
}

fn list(missing: &[(char, String)]) -> String {
    let v: Vec<String> = missing
        .iter()
        .map(|(l, n)| format!("{l:?} ({n})"))
        .collect();
    v.join(", ")
}

/// A mark's template, cut from the screenshot.
#[derive(Clone, Debug)]
pub struct LearnedTemplate {
    pub letter: char,
    pub name: String,
    /// The cell as the reader frames it (3 % in from the lattice lines).
    pub image: RgbImage,
    pub mirror: bool,
    pub min_score: f32,
    /// The template made from `image`.
    pub template: Template,
}

impl LearnedTemplate {
    /// The marker the reader matches with this template.
    pub fn marker(&self) -> Marker {
        Marker {
            letter: self.letter,
            name: self.name.clone(),
            template: self.template.clone(),
            min_score: self.min_score,
        }
    }
}

/// What was learned, ready to save.
#[derive(Clone, Debug)]
pub struct Learned {
    pub params: ReadParams,
    /// Templates cut from this screenshot (marks kept from the base are not here).
    pub templates: Vec<LearnedTemplate>,
    /// Letters whose look was kept from the base parameters.
    pub kept: Vec<char>,
    /// The lattice seen in the screenshot.
    pub lattice: Lattice,
}

/// Splits a board written as text (rows joined by `/` or on lines) into cells.
pub fn board_cells(text: &str) -> Result<Vec<Vec<char>>, LearnError> {
    let rows: Vec<Vec<char>> = text
        .split(['/', '\n'])
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| r.chars().filter(|c| !c.is_whitespace()).collect())
        .collect();
    let first = rows.first().ok_or(LearnError::EmptyBoard)?.len();
    if let Some((row, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != first) {
        return Err(LearnError::RaggedBoard {
            row,
            len: r.len(),
            first,
        });
    }
    Ok(rows)
}

/// Learns the look of `img`, whose true position is `board`, starting from
/// the game's `base` parameters. With `keep_missing`, letters the board
/// does not show keep their look from `base`; else they are an error.
pub fn learn(
    img: &RgbImage,
    board: &[Vec<char>],
    base: &ReadParams,
    keep_missing: bool,
) -> Result<Learned, LearnError> {
    let (rows, cols) = (board.len(), board.first().map_or(0, Vec::len));
    let lattice = find_board(img, rows, cols, base)?;
    let missing = check_letters(board, base)?;
    if !missing.is_empty() && !keep_missing {
        return Err(LearnError::Missing(missing));
    }
    let samples: Vec<Vec<CellSample>> = (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| sample(img, lattice.cell(r, c), &base.sample))
                .collect()
        })
        .collect();
    let cells = || {
        board
            .iter()
            .enumerate()
            .flat_map(move |(r, row)| row.iter().enumerate().map(move |(c, &l)| ((r, c), l)))
    };
    let classes = learn_classes(base, |l| {
        cells()
            .filter(|&(_, x)| x == l)
            .map(|((r, c), _)| samples[r][c].color)
            .collect()
    });
    let mut templates = Vec::new();
    for m in dedup_markers(&base.markers) {
        if let Some(((r, c), _)) = cells().find(|&(_, l)| l == m.letter) {
            templates.push(cut_template(img, &lattice, (r, c), m)?);
        }
    }
    let params = assemble(base, &lattice, classes, &templates, &missing);
    let params = with_mark_threshold(params, board, &samples);
    self_check(img, board, &params)?;
    Ok(Learned {
        params,
        templates,
        kept: missing.iter().map(|(l, _)| *l).collect(),
        lattice,
    })
}

/// Finds the lattice with the base limits widened to the board's size.
pub fn find_board(
    img: &RgbImage,
    rows: usize,
    cols: usize,
    base: &ReadParams,
) -> Result<Lattice, LearnError> {
    let mut lp = base.lattice.clone();
    lp.min_cells = lp.min_cells.min(rows.min(cols)).max(1);
    lp.max_cells = lp.max_cells.max(rows.max(cols));
    lp.square_board &= rows == cols;
    let lattice = find_lattice(img, &lp).ok_or(LearnError::NoLattice {
        min_cells: lp.min_cells,
        max_cells: lp.max_cells,
    })?;
    if (lattice.rows(), lattice.cols()) != (rows, cols) {
        return Err(LearnError::SizeMismatch {
            board_rows: rows,
            board_cols: cols,
            image_rows: lattice.rows(),
            image_cols: lattice.cols(),
        });
    }
    Ok(lattice)
}

/// Refuses letters the game does not know; returns the game's letters the
/// board does not show, with their names.
fn check_letters(
    board: &[Vec<char>],
    base: &ReadParams,
) -> Result<Vec<(char, String)>, LearnError> {
    let known = base.letters();
    for (r, row) in board.iter().enumerate() {
        if let Some((c, &l)) = row.iter().enumerate().find(|(_, l)| !known.contains(l)) {
            return Err(LearnError::UnknownLetter {
                row: r,
                col: c,
                letter: l,
                known: known.iter().collect(),
            });
        }
    }
    Ok(known
        .into_iter()
        .filter(|l| !board.iter().flatten().any(|x| x == l))
        .map(|l| (l, letter_name(base, l)))
        .collect())
}

/// The base's name for a letter, without a tint in brackets ("visited
/// (red)" is "visited": the new skin's tint is its own).
fn letter_name(base: &ReadParams, letter: char) -> String {
    let name = base
        .classes
        .iter()
        .find(|c| c.letter == letter)
        .map(|c| c.name.clone())
        .or_else(|| {
            let m = base.markers.iter().find(|m| m.letter == letter);
            m.map(|m| m.name.clone())
        })
        .unwrap_or_else(|| letter.to_string());
    match name.find(" (") {
        Some(i) => name[..i].to_string(),
        None => name,
    }
}

fn dedup_markers(markers: &[Marker]) -> Vec<&Marker> {
    let mut out: Vec<&Marker> = Vec::new();
    for m in markers {
        if !out.iter().any(|o| o.letter == m.letter) {
            out.push(m);
        }
    }
    out
}

/// One class per colour letter that has cells, fitted to their colours;
/// `colors_of` gives a letter's cell colours.
fn learn_classes(base: &ReadParams, colors_of: impl Fn(char) -> Vec<Rgb>) -> Vec<ColorClass> {
    let haze = base.classes.iter().find_map(|c| c.haze);
    let letters: Vec<char> = base
        .letters()
        .into_iter()
        .filter(|&l| base.classes.iter().any(|c| c.letter == l))
        .collect();
    let mut fitted: Vec<(ColorClass, f32)> = Vec::new();
    for l in letters {
        let colors = colors_of(l);
        if colors.is_empty() {
            continue;
        }
        let (stops, spread) = fit_segment(&colors);
        let class = ColorClass {
            letter: l,
            name: letter_name(base, l),
            stops,
            tolerance: 0.0,
            haze,
        };
        fitted.push((class, spread));
    }
    // Tolerance: room for what was seen, for other sizes and for noise,
    // but at most 45 % of the way to the nearest other class.
    let snapshot: Vec<ColorClass> = fitted.iter().map(|(c, _)| c.clone()).collect();
    fitted
        .into_iter()
        .map(|(mut c, spread)| {
            let gap = snapshot
                .iter()
                .filter(|o| o.letter != c.letter)
                .map(|o| polyline_gap(&c, o))
                .fold(f32::INFINITY, f32::min);
            c.tolerance = (2.5 * spread + 14.0).max(18.0).min(0.45 * gap).max(4.0);
            c
        })
        .collect()
}

/// The segment through a set of colours (their principal axis, from the
/// 2nd to the 98th percentile along it), and how far the colours stray
/// from it (the 95th percentile distance).
fn fit_segment(colors: &[Rgb]) -> (Vec<Rgb>, f32) {
    let n = colors.len() as f32;
    let mean: [f32; 3] = std::array::from_fn(|i| colors.iter().map(|c| c.0[i]).sum::<f32>() / n);
    let d: Vec<[f32; 3]> = colors
        .iter()
        .map(|c| std::array::from_fn(|i| c.0[i] - mean[i]))
        .collect();
    let mut cov = [[0f32; 3]; 3];
    for v in &d {
        for i in 0..3 {
            for j in 0..3 {
                cov[i][j] += v[i] * v[j] / n;
            }
        }
    }
    // Power iteration for the principal axis.
    let mut axis = [0.577f32, 0.577, 0.577];
    for _ in 0..30 {
        let next: [f32; 3] = std::array::from_fn(|i| (0..3).map(|j| cov[i][j] * axis[j]).sum());
        let len = next.iter().map(|x| x * x).sum::<f32>().sqrt();
        if len < 1e-6 {
            break;
        }
        axis = next.map(|x| x / len);
    }
    let mut t: Vec<f32> = d
        .iter()
        .map(|v| (0..3).map(|i| v[i] * axis[i]).sum())
        .collect();
    t.sort_by(f32::total_cmp);
    let at = |q: f32| t[((t.len() - 1) as f32 * q).round() as usize];
    let (lo, hi) = (at(0.02), at(0.98));
    let point = |s: f32| Rgb(std::array::from_fn(|i| mean[i] + s * axis[i]));
    let stops = if hi - lo < 4.0 {
        vec![Rgb(mean)]
    } else {
        vec![point(lo), point(hi)]
    };
    let probe = ColorClass {
        letter: ' ',
        name: String::new(),
        stops: stops.clone(),
        tolerance: 1.0,
        haze: None,
    };
    let mut r: Vec<f32> = colors.iter().map(|&c| probe.distance(c)).collect();
    r.sort_by(f32::total_cmp);
    let spread = r[((r.len() - 1) as f32 * 0.95).round() as usize];
    (stops, spread)
}

/// The least distance from `a`'s colour line to `b`'s, ignoring haze.
fn polyline_gap(a: &ColorClass, b: &ColorClass) -> f32 {
    let plain = |c: &ColorClass| ColorClass {
        haze: None,
        ..c.clone()
    };
    let (a, b) = (plain(a), plain(b));
    let points = |c: &ColorClass| -> Vec<Rgb> {
        c.stops
            .windows(2)
            .flat_map(|w| {
                (0..=10).map(move |k| {
                    let t = k as f32 / 10.0;
                    Rgb(std::array::from_fn(|i| {
                        w[0].0[i] + t * (w[1].0[i] - w[0].0[i])
                    }))
                })
            })
            .chain(c.stops.iter().copied())
            .collect()
    };
    let ab = points(&a).into_iter().map(|p| b.distance(p));
    let ba = points(&b).into_iter().map(|p| a.distance(p));
    ab.chain(ba).fold(f32::INFINITY, f32::min)
}

/// Cuts a mark's template from cell `(r, c)`, framed as the reader frames
/// a cell.
fn cut_template(
    img: &RgbImage,
    lattice: &Lattice,
    (r, c): (usize, usize),
    m: &Marker,
) -> Result<LearnedTemplate, LearnError> {
    let frame = lattice.cell(r, c).inset(0.03);
    let flat = || LearnError::FlatTemplate {
        name: m.name.clone(),
        row: r,
        col: c,
    };
    let image = crate::vision::template::crop(img, frame, 4).ok_or_else(flat)?;
    let template = Template::from_image(&image, m.template.mirrors()).ok_or_else(flat)?;
    Ok(LearnedTemplate {
        template,
        letter: m.letter,
        name: m.name.clone(),
        image,
        mirror: m.template.mirrors(),
        min_score: m.min_score,
    })
}

/// The learned parameters: lattice limits widened to what was seen, the
/// learned classes and templates, and the base's look for `kept` letters.
fn assemble(
    base: &ReadParams,
    lattice: &Lattice,
    mut classes: Vec<ColorClass>,
    templates: &[LearnedTemplate],
    kept: &[(char, String)],
) -> ReadParams {
    let is_kept = |l: char| kept.iter().any(|(k, _)| *k == l);
    classes.extend(base.classes.iter().filter(|c| is_kept(c.letter)).cloned());
    let mut markers: Vec<Marker> = templates.iter().map(LearnedTemplate::marker).collect();
    markers.extend(base.markers.iter().filter(|m| is_kept(m.letter)).cloned());
    ReadParams {
        lattice: widened(&base.lattice, lattice),
        classes,
        markers,
        ..base.clone()
    }
}

/// The lattice limits of `base` widened to include `lattice`: its size,
/// and from half to twice its pitch.
pub fn widened(base: &LatticeParams, lattice: &Lattice) -> LatticeParams {
    let (pitch, _) = lattice.pitch();
    let mut lp = base.clone();
    lp.min_cells = lp.min_cells.min(lattice.rows().min(lattice.cols()));
    lp.max_cells = lp.max_cells.max(lattice.rows().max(lattice.cols()));
    lp.min_pitch = lp.min_pitch.min(0.5 * pitch);
    lp.max_pitch = lp.max_pitch.max(2.0 * pitch);
    lp.square_board &= lattice.rows() == lattice.cols();
    lp
}

/// Moves the plain/marked threshold between the plain cells' marks and
/// the marked cells' when the base threshold does not separate them here.
fn with_mark_threshold(
    mut params: ReadParams,
    board: &[Vec<char>],
    samples: &[Vec<CellSample>],
) -> ReadParams {
    let is_mark = |l: char| params.markers.iter().any(|m| m.letter == l);
    let (mut plain_max, mut mark_min) = (0f32, f32::INFINITY);
    for (row, srow) in board.iter().zip(samples) {
        for (&l, s) in row.iter().zip(srow) {
            if is_mark(l) {
                mark_min = mark_min.min(s.marks);
            } else {
                plain_max = plain_max.max(s.marks);
            }
        }
    }
    let t = params.max_plain_marks;
    if (plain_max > t || mark_min <= t) && plain_max < mark_min && mark_min.is_finite() {
        params.max_plain_marks = (plain_max + mark_min) / 2.0;
    }
    params
}

/// Reads the screenshot with the learned parameters: it must give the board.
fn self_check(img: &RgbImage, board: &[Vec<char>], params: &ReadParams) -> Result<(), LearnError> {
    let grid = read_grid(img, params).ok_or(LearnError::NoLattice {
        min_cells: params.lattice.min_cells,
        max_cells: params.lattice.max_cells,
    })?;
    let rows: Vec<Vec<char>> = grid.rows().iter().map(|r| r.chars().collect()).collect();
    check_rows(board, &rows)
}

/// What a self-check found: `Ok` when `read` (rows of letters, `?` for a
/// cell not read) is `board`, else how many cells differ and the first.
pub fn check_rows(board: &[Vec<char>], read: &[Vec<char>]) -> Result<(), LearnError> {
    let mut wrong = Vec::new();
    for (r, row) in board.iter().enumerate() {
        for (c, &want) in row.iter().enumerate() {
            let got = read.get(r).and_then(|gr| gr.get(c)).copied().unwrap_or('?');
            if got != want {
                wrong.push((r, c, got, want));
            }
        }
    }
    match wrong.first() {
        None => Ok(()),
        Some(&(row, col, got, want)) => Err(LearnError::SelfCheck {
            count: wrong.len(),
            row,
            col,
            got,
            want,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_split_on_slashes_and_lines() {
        assert_eq!(board_cells("KW/.V").unwrap().len(), 2);
        assert_eq!(board_cells("K W\n. V\n\n").unwrap()[1], vec!['.', 'V']);
        assert!(matches!(
            board_cells("KW/.").unwrap_err(),
            LearnError::RaggedBoard { row: 1, .. }
        ));
        assert!(matches!(
            board_cells(" / ").unwrap_err(),
            LearnError::EmptyBoard
        ));
    }

    #[test]
    fn a_gradient_fits_one_segment() {
        let colors: Vec<Rgb> = (0..20)
            .map(|k| Rgb([100.0 + 2.0 * k as f32, 100.0 + 2.0 * k as f32, 230.0]))
            .collect();
        let (stops, spread) = fit_segment(&colors);
        assert_eq!(stops.len(), 2);
        assert!(spread < 1.0, "{spread}");
        assert!(
            stops[0].distance(Rgb([101.0, 101.0, 230.0])) < 3.0,
            "{stops:?}"
        );
    }
}
