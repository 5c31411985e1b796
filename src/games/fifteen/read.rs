//! Reads a Fifteen board from a screenshot of sgt-puzzles' window, and
//! refuses when unsure.
//!
//! How `fifteen.c` draws (`draw_tile`, `game_redraw`): no grid lines; each
//! tile is a square of the window's grey with a bevel (a lighter edge top
//! and left, a darker one bottom and right, a twentieth of a tile wide)
//! and its number in black, centred, a third of a tile high. The gap is
//! plain grey, the colour of the tiles' faces. The bevels still make a
//! lattice the generic finder sees (`crate::vision::lattice`).
//!
//! Each cell is then one of:
//! 1. **The gap**: its whole inside (past [`GAP_INSET`]) is the grey of
//!    the calibration's `.` class; anything else drawn there is part of a
//!    tile caught mid-slide (sgt animates a slide over 0.13 s).
//! 2. **A tile**: its face (past [`FACE_INSET`]) holds ink, centred, that
//!    matches one number's template well enough and clearly better than
//!    any other number. The templates are the calibration's, learnt by
//!    `boardbot calibrate` from a screenshot whose game ID is known
//!    ([`super::learn`]); with none, the numbers drawn in each desktop
//!    font ([`super::fonts`]), and the font that reads the most cells for
//!    sure is kept.
//! 3. Unsure, with the reason: a face of another colour (the win flash
//!    alternates the faces between the bevels' two greys), ink off centre
//!    (a tile between two cells), no template close enough.
//!
//! Then the board as a whole: one gap, each number of `1..W*H-1` once
//! (duplicates and missing numbers name their cells), at most 4×4. The
//! band just past the board must be sgt's plain border, or the selection
//! cuts the board.

use image::RgbImage;

use crate::calibration::Calibration;
use crate::engines::tiles::Tiles;
use crate::geom::RectF;
use crate::vision::cells::sample;
use crate::vision::color::Rgb;
use crate::vision::cut::edge_is_clear;
use crate::vision::template::{Template, scores};
use crate::vision::{
    CellIssue, CellRead, GridRead, Lattice, LatticeParams, Reading, Side, Trust, Unreadable,
    find_lattice, trust_cells, verdict_on,
};

use super::fonts::{self, NumberLook, Numbers};

/// What the screenshot shows, when read for sure.
pub type Read = Reading<Tiles>;

/// The most cells a side, as boardbot plays Fifteen.
pub const MAX_SIDE: usize = 4;
/// Share of a cell trimmed from each side to reach a tile's face: past
/// its bevel (a twentieth of a tile) and the lattice's error.
pub const FACE_INSET: f64 = 0.12;
/// Share of a cell trimmed from each side where the gap must be plain.
const GAP_INSET: f64 = 0.07;
/// RGB distance from the face grey at which a pixel counts as drawn on:
/// the bevels' greys are about 70 away, the numbers' black 370.
const DRAWN: f32 = 36.0;
/// A pixel darker than this share of the face grey's lightness is ink
/// (the bevels' darker grey is at 0.8; scaled down, thin strokes blend
/// into the grey).
const INK_LIGHTNESS: f32 = 0.62;
/// Share of a gap's inside that may be drawn on (scaling's soft edges).
const GAP_STRAY: f32 = 0.004;
/// Share of a face that must be ink for a tile (a "1" at 0.6× has 3 %).
const MIN_INK: f32 = 0.008;
/// Correlation with a number's template at which a face is that number.
pub const MIN_SCORE: f32 = 0.7;
/// How much better than the runner-up the best number must match.
pub const MIN_LEAD: f32 = 0.05;
/// How far the ink's box centre may lie from the cell's (share of a cell):
/// sgt centres the number; a tile mid-slide is off by more.
const OFF_CENTRE: f64 = 0.09;
/// The largest face-colour distance from the calibrated grey.
const FACE_TOLERANCE: f32 = 24.0;

/// The calibration's letter for tile `n` (1..=15): a hex digit, as the
/// level format writes it (`A` = 10 … `F` = 15).
pub fn letter(n: u8) -> char {
    super::level::tile_char(n)
}

/// The tile a letter names, 1..=15.
pub fn number(letter: char) -> Option<u8> {
    letter
        .to_digit(16)
        .filter(|&n| n >= 1)
        .and_then(|n| u8::try_from(n).ok())
}

/// The board as the reader writes it: a row per line, a character per
/// cell, the tile's number in hex (`A` = 10 … `F` = 15), `.` the gap, as
/// the level format and the text solver write it.
pub fn rows(tiles: &Tiles) -> Vec<String> {
    let (board, start) = super::Board::new(*tiles);
    crate::solve::Puzzle::rows(&board, &start)
}

/// The face grey: the calibration's `.` class (the gap).
pub fn face_grey(cal: &Calibration) -> Rgb {
    cal.params
        .classes
        .iter()
        .find(|c| c.letter == '.')
        .and_then(|c| c.stops.first().copied())
        .unwrap_or(Rgb([213.0; 3]))
}

/// The calibration's number templates, when it has any.
fn calibrated(cal: &Calibration) -> Option<Numbers> {
    let looks: Vec<NumberLook> = cal
        .params
        .markers
        .iter()
        .filter_map(|m| {
            number(m.letter).map(|n| NumberLook {
                n,
                whole: m.template.clone(),
                parts: None,
            })
        })
        .collect();
    (!looks.is_empty()).then(|| Numbers {
        source: "the calibration".into(),
        looks,
        min_score: MIN_SCORE,
    })
}

/// The numbers a board of `slots` cells holds that `numbers` has no
/// template for.
fn untaught(numbers: &Numbers, slots: usize) -> Vec<u8> {
    (1..slots.min(16) as u8)
        .filter(|n| !numbers.looks.iter().any(|l| l.n == *n))
        .collect()
}

/// Reads the board in `img`.
pub fn read(img: &RgbImage, cal: &Calibration) -> Read {
    let params = &cal.params;
    let Some(lattice) = find_board_lattice(img, &params.lattice) else {
        let v = Trust::NoLattice {
            min_cells: params.lattice.min_cells,
            max_cells: params.lattice.max_cells,
        };
        return Read::NoBoard {
            grid: None,
            reason: format!("no Fifteen board: {v}"),
            issues: Vec::new(),
        };
    };
    let cut: Vec<Side> = Side::ALL
        .into_iter()
        .filter(|&side| !edge_is_clear(img, &lattice, side))
        .collect();
    let grid = match read_numbers(img, lattice, cal) {
        Ok(grid) => grid,
        Err(refused) => return refused,
    };
    let verdict = if cut.is_empty() {
        trust_cells(&grid)
    } else {
        Trust::CutEdge { sides: cut }
    };
    let grid = match verdict_on(grid, verdict, "Fifteen") {
        Ok(grid) => grid,
        Err(refused) => return refused,
    };
    let (rows, cols) = (grid.lattice.rows(), grid.lattice.cols());
    if rows > MAX_SIDE || cols > MAX_SIDE {
        return Read::Uncertain {
            reason: format!(
                "a {cols}x{rows} board: boardbot plays Fifteen up to {MAX_SIDE}x{MAX_SIDE}"
            ),
            grid,
            issues: Vec::new(),
        };
    }
    whole_board(grid)
}

/// Edge thresholds to look for the lattice with, the calibration's first:
/// scaled down, sgt's two-pixel bevels blur into steps of any height.
const THRESHOLDS: [u8; 4] = [0, 10, 24, 32];

/// The lattice of square cells with the most cells among those found at
/// several edge thresholds ([`THRESHOLDS`], 0 standing for the
/// calibration's own): on a small board one threshold may miss a line
/// that another sees.
fn find_board_lattice(img: &RgbImage, params: &LatticeParams) -> Option<Lattice> {
    let mut best: Option<Lattice> = None;
    for t in THRESHOLDS {
        let p = LatticeParams {
            edge_threshold: if t == 0 { params.edge_threshold } else { t },
            ..params.clone()
        };
        let Some(l) = find_lattice(img, &p) else {
            continue;
        };
        let (px, py) = l.pitch();
        let square = (px - py).abs() <= 0.06 * px.max(py);
        let more = best
            .as_ref()
            .is_none_or(|b| l.rows() * l.cols() > b.rows() * b.cols());
        if square && more {
            best = Some(l);
        }
    }
    best
}

/// Reads every cell with the calibration's numbers, or, when it has none,
/// with the desktop font's that explains the board best.
fn read_numbers(img: &RgbImage, lattice: Lattice, cal: &Calibration) -> Result<GridRead, Read> {
    let grey = face_grey(cal);
    let sp = &cal.params.sample;
    if let Some(numbers) = calibrated(cal) {
        let untaught = untaught(&numbers, lattice.rows() * lattice.cols());
        let grid = read_cells(img, &lattice, grey, std::slice::from_ref(&numbers), sp).remove(0);
        if untaught.is_empty() {
            return Ok(grid);
        }
        let list: Vec<String> = untaught.iter().map(u8::to_string).collect();
        return Err(Read::uncertain(
            grid,
            format!(
                "the calibration has no template for tile(s) {}: calibrate on a screenshot that shows them (a 4x4 shows all fifteen)",
                list.join(", ")
            ),
            Vec::new(),
        ));
    }
    let (pitch, _) = lattice.pitch();
    let sets = fonts::rendered(pitch, grey);
    let sets: &[Numbers] = if sets.is_empty() {
        &[Numbers::none()]
    } else {
        &sets
    };
    let mut grids = read_cells(img, &lattice, grey, sets, sp);
    let best = (0..grids.len())
        .max_by(|&a, &b| explained(&grids[a], &grids[b]))
        .unwrap_or(0);
    if let Some(other) = (0..grids.len()).find(|&k| disagree(&grids[k], &grids[best])) {
        let reason = format!(
            "the numbers read as one board in {} and as another in {}: calibrate on a screenshot of a game whose ID you know",
            sets[best].source, sets[other].source
        );
        return Err(Read::uncertain(grids[other].clone(), reason, Vec::new()));
    }
    Ok(grids.swap_remove(best))
}

/// Which of two readings explains its cells better: the one with more read
/// for sure, then the one with the larger sum of confidences.
fn explained(a: &GridRead, b: &GridRead) -> std::cmp::Ordering {
    let sure = |g: &GridRead| {
        g.cells
            .iter()
            .flatten()
            .filter(|c| c.letter.is_some())
            .count()
    };
    let confidence = |g: &GridRead| -> f32 { g.cells.iter().flatten().map(|c| c.confidence).sum() };
    sure(a)
        .cmp(&sure(b))
        .then(confidence(a).total_cmp(&confidence(b)))
}

/// True when both grids read every cell, and not alike.
fn disagree(a: &GridRead, b: &GridRead) -> bool {
    let sure = |g: &GridRead| g.cells.iter().flatten().all(|c| c.letter.is_some());
    let letters = |g: &GridRead| -> Vec<Option<char>> {
        g.cells.iter().flatten().map(|c| c.letter).collect()
    };
    sure(a) && sure(b) && letters(a) != letters(b)
}

/// Why a number cannot be read with neither a calibration nor a font.
const NO_NUMBERS: &str = "no number templates: the calibration has none and no desktop font was found (fonts-dejavu-core installs one); or run `boardbot calibrate --game fifteen` on a screenshot of a game whose ID you know";

/// Reads every cell of `lattice` with each set of numbers: one grid per set.
fn read_cells(
    img: &RgbImage,
    lattice: &Lattice,
    grey: Rgb,
    sets: &[Numbers],
    sp: &crate::vision::cells::SampleParams,
) -> Vec<GridRead> {
    let mut grids: Vec<GridRead> = sets
        .iter()
        .map(|_| GridRead {
            lattice: lattice.clone(),
            cells: Vec::new(),
        })
        .collect();
    for r in 0..lattice.rows() {
        grids.iter_mut().for_each(|g| g.cells.push(Vec::new()));
        for c in 0..lattice.cols() {
            let reads = read_cell(img, lattice.cell(r, c), grey, sets, sp);
            for (g, read) in grids.iter_mut().zip(reads) {
                g.cells[r].push(read);
            }
        }
    }
    grids
}

/// The window a number is matched in: its ink's box, with a margin of a
/// tenth of its height. Stretched to the template's square, whatever the
/// tile's size, each digit's shape fills it, and a number of two digits
/// looks nothing like one of one.
pub fn number_window(ink: RectF) -> RectF {
    let m = 0.1 * ink.height().max(1.0);
    RectF {
        x0: ink.x0 - m,
        y0: ink.y0 - m,
        x1: ink.x1 + m,
        y1: ink.y1 + m,
    }
}

/// What a cell's face shows: its colour, and where the ink is.
pub(super) struct Face {
    pub colour: Rgb,
    /// Share of the face that is ink.
    pub ink: f32,
    /// The ink's bounding box, in image pixels.
    pub ink_box: Option<RectF>,
}

/// Measures the face `rect` against the face grey.
pub(super) fn face(img: &RgbImage, rect: RectF, grey: Rgb) -> Face {
    let (x0, y0, x1, y1) = rect.pixels(img.width(), img.height());
    let dark = luma(grey.0) * INK_LIGHTNESS;
    let mut lumas: Vec<(f32, [u8; 3])> = Vec::new();
    let (mut ink, mut bx0, mut by0, mut bx1, mut by1) = (0u32, u32::MAX, u32::MAX, 0, 0);
    for y in y0..y1 {
        for x in x0..x1 {
            let p = img.get_pixel(x, y).0;
            let l = luma([f32::from(p[0]), f32::from(p[1]), f32::from(p[2])]);
            lumas.push((l, p));
            if l < dark {
                ink += 1;
                (bx0, by0, bx1, by1) = (bx0.min(x), by0.min(y), bx1.max(x + 1), by1.max(y + 1));
            }
        }
    }
    let total = lumas.len().max(1);
    let colour = if lumas.is_empty() {
        Rgb([0.0; 3])
    } else {
        // The median by lightness: the face, whatever ink is on it.
        let mid = lumas.len() / 2;
        let (_, p) = *lumas
            .select_nth_unstable_by(mid, |a, b| a.0.total_cmp(&b.0))
            .1;
        Rgb::from_u8(p)
    };
    let ink_box = (ink > 0).then(|| RectF {
        x0: f64::from(bx0),
        y0: f64::from(by0),
        x1: f64::from(bx1),
        y1: f64::from(by1),
    });
    Face {
        colour,
        ink: ink as f32 / total as f32,
        ink_box,
    }
}

/// Share of `rect`'s pixels that are not the face grey.
fn drawn_share(img: &RgbImage, rect: RectF, grey: Rgb) -> f32 {
    let (x0, y0, x1, y1) = rect.pixels(img.width(), img.height());
    let total = (x1.saturating_sub(x0) * y1.saturating_sub(y0)).max(1);
    let drawn = (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .filter(|&(x, y)| Rgb::from_u8(img.get_pixel(x, y).0).distance(grey) > DRAWN)
        .count();
    drawn as f32 / total as f32
}

/// Reads one cell with each set of numbers: the gap `.`, a tile's letter,
/// or unsure with why.
fn read_cell(
    img: &RgbImage,
    rect: RectF,
    grey: Rgb,
    sets: &[Numbers],
    sp: &crate::vision::cells::SampleParams,
) -> Vec<CellRead> {
    let s = sample(img, rect, sp);
    let f = face(img, rect.inset(FACE_INSET), grey);
    let verdicts = if f.colour.distance(grey) > FACE_TOLERANCE {
        let why = format!(
            "its face is {}, not the tiles' grey {grey}: the win flash, or not sgt-fifteen?",
            f.colour
        );
        vec![Err((0.0, why)); sets.len()]
    } else if f.ink < MIN_INK {
        vec![gap(img, rect, grey); sets.len()]
    } else {
        tile(img, rect, &f, sets)
    };
    verdicts
        .into_iter()
        .map(|verdict| match verdict {
            Ok((letter, confidence)) => CellRead {
                letter: Some(letter),
                confidence,
                guess: letter,
                sample: s.clone(),
                why: None,
            },
            Err((confidence, why)) => CellRead {
                letter: None,
                confidence,
                guess: '?',
                sample: s.clone(),
                why: Some(Unreadable::Other(why)),
            },
        })
        .collect()
}

type CellVerdict = Result<(char, f32), (f32, String)>;

/// A face without ink: the gap, if nothing else is drawn in the cell.
fn gap(img: &RgbImage, rect: RectF, grey: Rgb) -> CellVerdict {
    let stray = drawn_share(img, rect.inset(GAP_INSET), grey);
    if stray <= GAP_STRAY {
        Ok(('.', 1.0 - stray / GAP_STRAY / 2.0))
    } else {
        Err((
            0.0,
            format!(
                "no number, but {:.1}% of it is drawn on: part of a tile sliding through?",
                stray * 100.0
            ),
        ))
    }
}

/// A face with ink: for each set, the number whose template matches,
/// centred. The window is reduced once for every set's templates.
fn tile(img: &RgbImage, rect: RectF, f: &Face, sets: &[Numbers]) -> Vec<CellVerdict> {
    let Some(ink) = f.ink_box else {
        return vec![Err((0.0, "no ink".into())); sets.len()];
    };
    let (cx, cy) = rect.centre();
    let (bx, by) = ink.centre();
    let off = (bx - cx).abs().max((by - cy).abs()) / rect.width();
    if off > OFF_CENTRE {
        let why = format!(
            "its number is {:.0}% of a cell off centre: a tile mid-slide?",
            off * 100.0
        );
        return vec![Err((0.0, why)); sets.len()];
    }
    let window = number_window(ink);
    let wholes: Vec<&Template> = sets
        .iter()
        .flat_map(|set| set.looks.iter().map(|l| &l.whole))
        .collect();
    let mut all = scores(&wholes, img, window).into_iter();
    sets.iter()
        .map(|set| {
            let wholes: Vec<f32> = all.by_ref().take(set.looks.len()).collect();
            best_number(img, window, set, &wholes)
        })
        .collect()
}

/// The number of `set` in `window`, given each look's whole correlation:
/// it must match well enough, and clearly better than any other.
fn best_number(img: &RgbImage, window: RectF, set: &Numbers, wholes: &[f32]) -> CellVerdict {
    if set.looks.is_empty() {
        return Err((0.0, NO_NUMBERS.into()));
    }
    let need = set.min_score;
    let mut scores: Vec<(f32, u8)> = wholes
        .iter()
        .zip(&set.looks)
        // A look already below what is needed stays there: its parts
        // can only lower it.
        .map(|(&s, l)| (if s < need { s } else { l.score(s, img, window) }, l.n))
        .collect();
    scores.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (best, n) = scores[0];
    let second = scores.get(1).map_or(-1.0, |s| s.0);
    if best < need || best - second < MIN_LEAD {
        let runner = scores
            .get(1)
            .map_or(String::new(), |s| format!(", then {} at {:.2}", s.1, s.0));
        return Err((
            best.max(0.0),
            format!(
                "its number is unclear in {}: best {n} at {best:.2}{runner} (needs {need:.2}, {MIN_LEAD:.2} ahead)",
                set.source
            ),
        ));
    }
    Ok((letter(n), best))
}

fn luma(p: [f32; 3]) -> f32 {
    (p[0] + p[1] + p[2]) / 3.0
}

fn issue(r: usize, c: usize, why: impl Into<String>) -> CellIssue {
    CellIssue {
        cell: [r, c],
        why: why.into(),
    }
}

/// Checks a grid whose every cell was read: one gap, each number once.
fn whole_board(grid: GridRead) -> Read {
    let (rows, cols) = (grid.lattice.rows(), grid.lattice.cols());
    let n = rows * cols;
    let mut slots = Vec::with_capacity(n);
    let mut seen: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
    let mut too_big = Vec::new();
    for (r, row) in grid.cells.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let v = match cell.letter {
                Some('.') => 0,
                Some(l) => number(l).unwrap_or(0),
                None => 0,
            };
            slots.push(v);
            match seen.get_mut(usize::from(v)) {
                Some(s) => s.push((r, c)),
                None => too_big.push(issue(
                    r,
                    c,
                    format!("tile {v}, on a board of {n} cells: is the board cut?"),
                )),
            }
        }
    }
    let mut issues = too_big;
    for (v, at) in seen.iter().enumerate() {
        let what = if v == 0 {
            "a gap".to_string()
        } else {
            format!("tile {v}")
        };
        if at.len() > 1 {
            for &(r, c) in at {
                issues.push(issue(
                    r,
                    c,
                    format!("{what} here, and in {} more cell(s)", at.len() - 1),
                ));
            }
        }
    }
    let missing: Vec<String> = (0..n)
        .filter(|&v| seen[v].is_empty())
        .map(|v| {
            if v == 0 {
                "the gap".into()
            } else {
                v.to_string()
            }
        })
        .collect();
    if !issues.is_empty() || !missing.is_empty() {
        let mut reason = format!("the board is not a {cols}x{rows} Fifteen position");
        if !missing.is_empty() {
            reason.push_str(&format!(": missing {}", missing.join(", ")));
        }
        if let Some(first) = issues.first() {
            reason.push_str(&format!(
                "; {} cell(s) at issue, first ({},{}): {}",
                issues.len(),
                first.cell[0],
                first.cell[1],
                first.why
            ));
        }
        return Read::uncertain(grid, reason, issues);
    }
    match Tiles::new(cols, rows, &slots) {
        Ok(board) => Read::Board { grid, board },
        Err(e) => Read::Uncertain {
            reason: e.to_string(),
            grid,
            issues: Vec::new(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_are_hex_digits_and_back() {
        for n in 1..=15u8 {
            assert_eq!(number(letter(n)), Some(n));
        }
        assert_eq!(letter(10), 'A');
        assert_eq!(number('.'), None);
        assert_eq!(number('0'), None);
        let t = Tiles::new(4, 2, &[1, 2, 3, 0, 4, 5, 6, 7]).unwrap();
        assert_eq!(rows(&t), vec!["123.", "4567"]);
        let t = Tiles::new(
            4,
            4,
            &[15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
        )
        .unwrap();
        assert_eq!(rows(&t)[0], "FEDC");
    }

    /// A 2x2 grid read as `rows`, every cell for sure.
    fn grid(rows: [&str; 2]) -> GridRead {
        let cells = rows
            .iter()
            .map(|r| {
                r.chars()
                    .map(|l| CellRead {
                        letter: Some(l),
                        confidence: 1.0,
                        guess: l,
                        sample: Default::default(),
                        why: None,
                    })
                    .collect()
            })
            .collect();
        GridRead {
            lattice: Lattice::uniform(0.0, 0.0, 10.0, 10.0, 2, 2),
            cells,
        }
    }

    fn refused(r: Read) -> (String, Vec<[usize; 2]>) {
        match r {
            Read::Uncertain { reason, issues, .. } => {
                (reason, issues.iter().map(|i| i.cell).collect())
            }
            _ => panic!("not refused"),
        }
    }

    #[test]
    fn the_reading_with_more_cells_read_for_sure_explains_more() {
        let sure = grid(["12", "3."]);
        let mut unsure = grid(["12", "3."]);
        unsure.cells[0][1].letter = None;
        unsure.cells[0][0].confidence = 5.0;
        assert_eq!(explained(&sure, &unsure), std::cmp::Ordering::Greater);
        let mut surer = grid(["12", "3."]);
        surer.cells[1][0].confidence = 1.5;
        assert_eq!(explained(&sure, &surer), std::cmp::Ordering::Less);
        // Two full readings of two boards disagree; a partial one does not.
        assert!(disagree(&sure, &grid(["21", "3."])));
        assert!(!disagree(&sure, &grid(["12", "3."])));
        assert!(!disagree(&unsure, &grid(["21", "3."])));
    }

    #[test]
    fn the_board_has_one_gap_and_each_number_once() {
        let Read::Board { board, .. } = whole_board(grid(["12", "3."])) else {
            panic!("a 2x2 board")
        };
        assert_eq!(board, Tiles::solved(2, 2).unwrap());
        let (why, cells) = refused(whole_board(grid(["11", "3."])));
        assert!(why.contains("missing 2"), "{why}");
        assert_eq!(cells, vec![[0, 0], [0, 1]]);
        let (why, cells) = refused(whole_board(grid(["15", "3."])));
        assert!(why.contains("is the board cut?"), "{why}");
        assert_eq!(cells, vec![[0, 1]]);
        let (why, _) = refused(whole_board(grid(["12", ".."])));
        assert!(why.contains("missing 3"), "{why}");
    }
}
