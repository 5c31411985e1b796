//! Reads a Skiddy board from a screenshot of boardbot's own art, and
//! refuses when unsure.
//!
//! The art ([`super::art`]) keeps a cell's ground and its piece apart in
//! space, so the reader looks at small patches in every cell, in fractions
//! of the pitch from the cell's centre:
//! - the **edge** patches, one per side between a piece's reach (0.33)
//!   and the grid line, and off the middle line where bridges between
//!   joined skiddies run, give the ground: floor, block, pit, or a goal of
//!   a colour;
//! - the **inner** patches, around the skiddy's eyes, give the piece (a
//!   skiddy of a colour, a crate, ice) or, when they show the ground's own
//!   colour, no piece. A piece on a pit's edge colour is a piece in a pit;
//! - a block's **middle** patch says whether it carries the glue stud of
//!   a sticky level; every block must agree.
//!
//! Each patch's colour is its median, classified against the colour
//! classes of `calibration/skiddy.toml`, whose letters are the level
//! format's (`#` `.` `o` `c` `i` `r` `b` `g` `y` `R` `B` `G` `Y`). A cell
//! is unreadable, with the reason, when a patch matches no class, when a
//! patch is mixed (two colours in it), when the patches of a set disagree,
//! or when a piece's colour reaches the cell's edge: a piece caught
//! between two cells mid-slide, or something over the board. A board that
//! goes on past the selection, or whose edge touches it, is refused; and
//! what is read must parse as a legal level ([`Level::parse`]).

use image::RgbImage;

use super::level::{Level, LevelError};
use crate::calibration::Calibration;
use crate::games::bitlock::read::{Beyond, MIN_PURITY, Window, cut_refusal, median, window_pixels};
use crate::geom::RectF;
use crate::vision::cells::CellSample;
use crate::vision::color::{Rgb, classify};
use crate::vision::{
    CellIssue, CellRead, GridRead, Lattice, ReadParams, Reading, Side, Trust, Unreadable,
    find_lattice, trust, trust_cells,
};

/// A board read for sure.
pub struct Seen {
    /// The rows in the level format (a piece in a pit hides the pit).
    pub rows: Vec<String>,
    pub sticky: bool,
    /// The level, or `None` when no skiddy is left (the level is won).
    pub level: Option<Level>,
}

/// What the screenshot shows.
pub type Read = Reading<Seen>;

/// Between a piece's reach (0.33) and the grid line, off the middle line.
const EDGES: [Window; 4] = [
    (0.12, 0.28, -0.42, -0.37),
    (-0.28, -0.12, 0.37, 0.42),
    (-0.42, -0.37, -0.28, -0.12),
    (0.37, 0.42, 0.12, 0.28),
];
/// Inside every piece (a sunk one reaches 0.26), around a skiddy's eyes
/// and clear of a crate's planks.
const INNER: [Window; 4] = [
    (-0.03, 0.03, -0.19, -0.13),
    (-0.03, 0.03, 0.13, 0.19),
    (-0.19, -0.13, 0.0, 0.06),
    (0.13, 0.19, 0.0, 0.06),
];
/// Where a sticky level's blocks carry their glue stud.
const MIDDLE: Window = (-0.04, 0.04, -0.04, 0.04);
const SIDES: [&str; 4] = ["top", "bottom", "left", "right"];
/// How far (RGB distance) a block's middle must be from its edge to be a stud.
const STUD_CONTRAST: f32 = 60.0;

/// One patch's reading.
#[derive(Clone, Copy, Debug)]
struct Look {
    letter: char,
    confidence: f32,
    color: Rgb,
}

/// What one cell shows: its character in the level format, and for a
/// block whether it carries a stud.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Shown {
    letter: char,
    stud: Option<bool>,
}

fn is_piece(letter: char) -> bool {
    matches!(letter, 'r' | 'b' | 'g' | 'y' | 'c' | 'i')
}

/// Reads one patch, or says why it cannot be read.
fn look(img: &RgbImage, rect: RectF, w: Window, params: &ReadParams) -> Result<Look, String> {
    let pixels = window_pixels(img, rect, w);
    if pixels.is_empty() {
        return Err("it is outside the picture".into());
    }
    let (color, purity) = median(&pixels);
    if purity < MIN_PURITY {
        return Err(format!(
            "two colours meet where one is drawn ({:.0} % near {color}): a piece between cells (mid-slide?) or something over the board",
            purity * 100.0
        ));
    }
    let v = classify(&params.classes, color).ok_or("the calibration has no colour classes")?;
    let best = &params.classes[v.best];
    if v.confidence < params.min_confidence {
        return Err(format!(
            "its colour {color} is no Skiddy colour for sure (nearest: {} '{}', {:.0} away, tolerance {:.0})",
            best.name, best.letter, v.distance, best.tolerance
        ));
    }
    Ok(Look {
        letter: best.letter,
        confidence: v.confidence,
        color,
    })
}

/// Reads a set of four patches, which must agree.
fn agree(
    img: &RgbImage,
    rect: RectF,
    set: &[Window; 4],
    what: &str,
    params: &ReadParams,
) -> Result<Look, String> {
    let mut first: Option<Look> = None;
    for (w, side) in set.iter().zip(SIDES) {
        let l = look(img, rect, *w, params).map_err(|e| format!("its {what} ({side}): {e}"))?;
        match first {
            None => first = Some(l),
            Some(f) if f.letter != l.letter => {
                return Err(format!(
                    "its {what} reads '{}' at the top but '{}' at the {side}: a piece between cells (mid-slide?) or something over the board",
                    f.letter, l.letter
                ));
            }
            Some(f) if l.confidence < f.confidence => first = Some(l),
            _ => {}
        }
    }
    first.ok_or_else(|| format!("its {what} has no patches"))
}

/// Whether a block's middle shows the glue stud.
fn stud(img: &RgbImage, rect: RectF, edge: Rgb) -> Result<bool, String> {
    let pixels = window_pixels(img, rect, MIDDLE);
    let (color, purity) = median(&pixels);
    if pixels.is_empty() || purity < MIN_PURITY {
        return Err("the middle of a block is mixed: neither plain nor a glue stud".into());
    }
    let d = (0..3)
        .map(|i| (color.0[i] - edge.0[i]).powi(2))
        .sum::<f32>()
        .sqrt();
    Ok(d > STUD_CONTRAST)
}

/// Reads one cell: what it shows, the confidence, and its edge colour.
fn shown(img: &RgbImage, rect: RectF, params: &ReadParams) -> Result<(Shown, f32, Rgb), String> {
    let edge = agree(img, rect, &EDGES, "edge", params)?;
    let inner = agree(img, rect, &INNER, "middle", params)?;
    let confidence = edge.confidence.min(inner.confidence);
    let (e, i) = (edge.letter, inner.letter);
    let plain = Shown {
        letter: e,
        stud: None,
    };
    let cell = match e {
        _ if is_piece(e) => {
            return Err(format!(
                "a piece's colour ('{e}') reaches the cell's edge: a piece between cells (mid-slide?)"
            ));
        }
        '#' if i == '#' => Shown {
            letter: '#',
            stud: Some(stud(img, rect, edge.color)?),
        },
        '.' | 'o' if is_piece(i) => Shown {
            letter: i,
            stud: None,
        },
        _ if i == e => plain,
        _ => {
            return Err(format!(
                "a '{e}' cell with '{i}' in its middle: no piece stands there (mid-slide?)"
            ));
        }
    };
    Ok((cell, confidence, edge.color))
}

/// The cell's reading for the generic grid, and what it shows.
fn read_cell(img: &RgbImage, rect: RectF, params: &ReadParams) -> (CellRead, Option<Shown>) {
    match shown(img, rect, params) {
        Ok((s, confidence, color)) => (
            CellRead {
                letter: Some(s.letter),
                confidence,
                guess: s.letter,
                sample: CellSample {
                    color,
                    ..CellSample::default()
                },
                why: None,
            },
            Some(s),
        ),
        Err(why) => (
            CellRead {
                letter: None,
                confidence: 0.0,
                guess: '?',
                sample: CellSample::default(),
                why: Some(Unreadable::Other(why)),
            },
            None,
        ),
    }
}

/// Whether the edge patches of the cells that would lie beyond one side
/// show the board going on. A pit's near-black is left out: dark desktops
/// look like it.
fn beyond_side(img: &RgbImage, cells: &[RectF], w: Window, params: &ReadParams) -> Option<Beyond> {
    let mut seen = false;
    for &r in cells {
        if window_pixels(img, r, w).is_empty() {
            continue;
        }
        seen = true;
        if look(img, r, w, params).is_ok_and(|l| l.letter != 'o') {
            return Some(Beyond::Board);
        }
    }
    (!seen).then_some(Beyond::Unseen)
}

/// The sides past which the board goes on, or past which the picture ends.
fn cut_sides(img: &RgbImage, lattice: &Lattice, params: &ReadParams) -> Vec<(Side, Beyond)> {
    let (rows, cols) = (lattice.rows(), lattice.cols());
    let beyond = |rect: RectF, dx: f64, dy: f64| RectF {
        x0: rect.x0 + dx * rect.width(),
        x1: rect.x1 + dx * rect.width(),
        y0: rect.y0 + dy * rect.height(),
        y1: rect.y1 + dy * rect.height(),
    };
    let column = |c: usize, dx: f64| -> Vec<RectF> {
        (0..rows)
            .map(|r| beyond(lattice.cell(r, c), dx, 0.0))
            .collect()
    };
    let row = |r: usize, dy: f64| -> Vec<RectF> {
        (0..cols)
            .map(|c| beyond(lattice.cell(r, c), 0.0, dy))
            .collect()
    };
    [
        (Side::Left, column(0, -1.0), EDGES[3]),
        (Side::Right, column(cols - 1, 1.0), EDGES[2]),
        (Side::Top, row(0, -1.0), EDGES[1]),
        (Side::Bottom, row(rows - 1, 1.0), EDGES[0]),
    ]
    .into_iter()
    .filter_map(|(side, cells, w)| beyond_side(img, &cells, w, params).map(|b| (side, b)))
    .collect()
}

/// Sticky when every block carries a stud, not when none does.
fn sticky_of(shown: &[Vec<Shown>]) -> Result<bool, (String, Vec<CellIssue>)> {
    let blocks: Vec<([usize; 2], bool)> = shown
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.iter()
                .enumerate()
                .filter_map(move |(c, s)| s.stud.map(|t| ([r, c], t)))
        })
        .collect();
    let studs = blocks.iter().filter(|b| b.1).count();
    if studs == 0 || studs == blocks.len() {
        return Ok(studs > 0);
    }
    let odd = studs * 2 < blocks.len();
    let issues = blocks
        .iter()
        .filter(|b| b.1 == odd)
        .map(|b| CellIssue {
            cell: b.0,
            why: format!(
                "this block {} a glue stud, unlike most blocks",
                if odd { "has" } else { "lacks" }
            ),
        })
        .collect();
    Err((
        "the blocks disagree on whether the level is sticky (a glue stud in every block) or not"
            .into(),
        issues,
    ))
}

/// The level the read cells show, checked by the level parser; a board
/// with no skiddy is won.
fn legal(shown: &[Vec<Shown>], sticky: bool) -> Result<Seen, String> {
    let rows: Vec<String> = shown
        .iter()
        .map(|r| r.iter().map(|s| s.letter).collect())
        .collect();
    let text = format!(
        "sticky: {}\n{}\n",
        if sticky { "yes" } else { "no" },
        rows.join("\n")
    );
    let level = match Level::parse(&text) {
        Ok(l) => Some(l),
        Err(LevelError::NoSkiddy) => None,
        // The message's line numbers count the sticky line: rows are line - 1.
        Err(e) => {
            return Err(format!(
                "the board read is not a legal level: {e} (line 2 is the top row)"
            ));
        }
    };
    Ok(Seen {
        rows,
        sticky,
        level,
    })
}

/// Reads every cell of the lattice.
fn read_cells(
    img: &RgbImage,
    lattice: &Lattice,
    params: &ReadParams,
) -> (Vec<Vec<CellRead>>, Vec<Vec<Option<Shown>>>) {
    (0..lattice.rows())
        .map(|r| {
            (0..lattice.cols())
                .map(|c| read_cell(img, lattice.cell(r, c), params))
                .unzip()
        })
        .unzip()
}

/// Reads the board in `img`.
pub fn read(img: &RgbImage, cal: &Calibration) -> Read {
    let params = &cal.params;
    let Some(lattice) = find_lattice(img, &params.lattice) else {
        return Read::NoBoard {
            grid: None,
            reason: trust(img, None, params).to_string(),
            issues: Vec::new(),
        };
    };
    let (cells, shown) = read_cells(img, &lattice, params);
    let sides = cut_sides(img, &lattice, params);
    let grid = GridRead { lattice, cells };
    if !sides.is_empty() {
        return cut_refusal(grid, &sides);
    }
    match trust_cells(&grid) {
        Trust::Trusted => {}
        v if v.is_no_board() => {
            return Read::NoBoard {
                reason: format!("no Skiddy board: {v}"),
                grid: Some(grid),
                issues: v.into_issues(),
            };
        }
        v => {
            return Read::Uncertain {
                reason: v.to_string(),
                grid,
                issues: v.into_issues(),
            };
        }
    }
    let shown: Vec<Vec<Shown>> = shown
        .into_iter()
        .map(|r| r.into_iter().flatten().collect())
        .collect();
    let seen = sticky_of(&shown)
        .and_then(|sticky| legal(&shown, sticky).map_err(|reason| (reason, Vec::new())));
    match seen {
        Ok(board) => Read::Board { grid, board },
        Err((reason, issues)) => Read::Uncertain {
            grid,
            reason,
            issues,
        },
    }
}
