//! `boardbot calibrate --game klotski`: learns GNOME Klotski's colours
//! from one screenshot of a known level (its start position, or any
//! position written as text).
//!
//! Learnt from the screenshot: the window's background (its most common
//! colour; the free cells), the frame's ink (the frame's left line), the
//! blue face (the walls' and pieces' cores), and the greens (a door's
//! core and bevel, a goal's marker). Computed, as GNOME computes them: the
//! held piece's tint (the face and the goal green under a 20 % white
//! overlay, `puzzle-view.vala`), since a start position shows no held
//! piece. What was learnt must read the screenshot back as the level, or
//! nothing is written.

use std::collections::HashMap;

use image::RgbImage;

use super::levels;
use super::look::{self, Frame, Palette, letter};
use super::read::{self, Read};
use crate::calibration::{Calibration, Source};
use crate::engines::blocks::{Floor, Layout};
use crate::geom::RectF;
use crate::vision::color::{ColorClass, Rgb};
use crate::vision::learn::{LearnError, Learned};
use crate::vision::patch::{median_colour, pixels_in};
use crate::vision::{Lattice, ReadParams};

/// The layout a calibration text names: a level's index or name, or a
/// position in the level format.
pub fn layout_of(text: &str) -> Result<Layout, String> {
    let key = text.trim();
    if let Some(level) = levels::find(key.strip_prefix(super::BUNDLED).unwrap_or(key)) {
        return Ok(level.layout());
    }
    let rows = super::position_text(text)?;
    Layout::parse(&rows, "--board").map_err(|e| {
        format!("{e} (give a GNOME level's index 0-27 or name, or a position in the level format)")
    })
}

/// Learns the colours of `img`, which shows `want`, from the game's
/// `base` parameters.
pub fn learn(img: &RgbImage, want: &Layout, base: &ReadParams) -> Result<Learned, LearnError> {
    let no_lattice = || LearnError::NoLattice {
        min_cells: 2,
        max_cells: look::MAX_SIDE,
    };
    let background = mode(img);
    let mut start = base.clone();
    set(&mut start, letter::BACKGROUND, vec![background]);
    let pal = Palette::new(&start.classes).map_err(|_| no_lattice())?;
    let frame = look::find_frame(img, &pal).ok_or_else(no_lattice)?;
    let lattices = look::fit_lattice(&frame, &look::profiles(img, &frame));
    let first = lattices.first().cloned().ok_or_else(no_lattice)?;
    let Some(lattice) = lattices
        .into_iter()
        .find(|l| (l.cols(), l.rows()) == (want.width, want.height))
    else {
        return Err(LearnError::SizeMismatch {
            board_rows: want.height,
            board_cols: want.width,
            image_rows: first.rows(),
            image_cols: first.cols(),
        });
    };
    let mut params = start;
    let colours = colours(img, &lattice, &frame, want)?;
    for (l, stops) in colours {
        set(&mut params, l, stops);
    }
    self_check(img, want, &params)?;
    Ok(Learned {
        params,
        templates: Vec::new(),
        kept: Vec::new(),
        lattice,
    })
}

/// Replaces class `l`'s colours (keeping its tolerance), or adds it.
fn set(params: &mut ReadParams, l: char, stops: Vec<Rgb>) {
    match params.classes.iter_mut().find(|c| c.letter == l) {
        Some(c) => c.stops = stops,
        None => params.classes.push(ColorClass {
            letter: l,
            name: l.to_string(),
            stops,
            tolerance: 20.0,
            haze: None,
        }),
    }
}

/// The most common colour of `img`.
fn mode(img: &RgbImage) -> Rgb {
    let mut n: HashMap<[u8; 3], u32> = HashMap::new();
    for p in img.pixels() {
        *n.entry(p.0).or_default() += 1;
    }
    let best = n.into_iter().max_by_key(|&(c, k)| (k, c)).map(|(c, _)| c);
    Rgb::from_u8(best.unwrap_or([246, 245, 244]))
}

/// The median colour of `rect`'s pixels that `keep`, if any.
fn median(img: &RgbImage, rect: RectF, keep: impl Fn([u8; 3]) -> bool) -> Option<Rgb> {
    let px: Vec<[u8; 3]> = pixels_in(img, rect)
        .into_iter()
        .filter(|&p| keep(p))
        .collect();
    (!px.is_empty()).then(|| median_colour(&px).0)
}

/// Under GNOME's held-piece overlay: 20 % white.
fn lit(c: Rgb) -> Rgb {
    Rgb(c.0.map(|v| 0.8 * v + 0.2 * 255.0))
}

/// What a cell of `want` holds: a piece (special or not), or its floor.
fn what(want: &Layout, r: usize, c: usize) -> Result<bool, Floor> {
    match want.pieces.iter().find(|p| p.cells.contains(&(r, c))) {
        Some(p) => Ok(p.special),
        None => Err(want.floor[r * want.width + c]),
    }
}

type Cell = (usize, usize);

/// A wall cell, and a door and a goal with no piece on them, to learn
/// from; `Err` names what the position lacks.
fn teachers(want: &Layout) -> Result<(Cell, Cell, Cell), LearnError> {
    let cells: Vec<Cell> = (0..want.height)
        .flat_map(|r| (0..want.width).map(move |c| (r, c)))
        .collect();
    let first = |f: Floor| {
        cells
            .iter()
            .copied()
            .find(|&(r, c)| what(want, r, c) == Err(f))
    };
    let (wall, door, goal) = (first(Floor::Wall), first(Floor::Door), first(Floor::Goal));
    let mut missing = Vec::new();
    for (cell, l, name) in [
        (wall, letter::FACE, "wall"),
        (door, letter::GREEN, "door (no piece on it)"),
        (goal, 'G', "goal (no piece on it)"),
    ] {
        if cell.is_none() {
            missing.push((l, name.to_string()));
        }
    }
    match (wall, door, goal) {
        (Some(w), Some(d), Some(g)) => Ok((w, d, g)),
        _ => Err(LearnError::Missing(missing)),
    }
}

/// The part of cell `(r, c)` from `x` to `y` across and down (shares of
/// its side).
fn part(lattice: &Lattice, (r, c): Cell, x: (f64, f64), y: (f64, f64)) -> RectF {
    let cell = lattice.cell(r, c);
    let p = cell.width();
    RectF {
        x0: cell.x0 + x.0 * p,
        x1: cell.x0 + x.1 * p,
        y0: cell.y0 + y.0 * p,
        y1: cell.y0 + y.1 * p,
    }
}

/// The colours of the frame, the face and the greens, by class letter.
fn colours(
    img: &RgbImage,
    lattice: &Lattice,
    frame: &Frame,
    want: &Layout,
) -> Result<Vec<(char, Vec<Rgb>)>, LearnError> {
    let (wall, door, goal) = teachers(want)?;
    let flat = |name: &str, (r, c): Cell| LearnError::FlatTemplate {
        name: name.into(),
        row: r,
        col: c,
    };
    let at = |cell: Cell, x: (f64, f64), y: (f64, f64), name: &str| {
        median(img, part(lattice, cell, x, y), |_| true).ok_or_else(|| flat(name, cell))
    };
    let face = at(wall, (0.2, 0.6), (0.2, 0.6), "wall")?;
    let door_core = at(door, (0.3, 0.55), (0.3, 0.55), "door")?;
    let door_bevel = at(door, (0.08, 0.14), (0.08, 0.14), "door")?;
    // The door's shaded bottom bevel: a band across the cell's lower part.
    let shade = at(door, (0.3, 0.55), (0.64, 0.7), "door")?;
    // The goal's marker: its lightest, most saturated pixels.
    let green = |p: [u8; 3]| i32::from(p[1]) - i32::from(p[2]) > 80;
    let marker = median(img, part(lattice, goal, (0.25, 0.6), (0.25, 0.6)), green)
        .ok_or_else(|| flat("goal", goal))?;
    let line = RectF {
        x0: frame.left,
        x1: frame.left + 1.0,
        y0: frame.top,
        y1: frame.bottom,
    };
    let ink = median(img, line, |_| true).ok_or_else(|| flat("frame", (0, 0)))?;
    Ok(vec![
        (letter::INK, vec![Rgb([0.0; 3]), ink]),
        (letter::FACE, vec![face]),
        (letter::HELD, vec![lit(face)]),
        (
            letter::GREEN,
            vec![shade, door_bevel, door_core, marker, lit(marker)],
        ),
    ])
}

/// The letter each cell of `want` should read as.
fn expected(want: &Layout) -> Vec<Vec<char>> {
    (0..want.height)
        .map(|r| {
            (0..want.width)
                .map(|c| match what(want, r, c) {
                    Ok(true) => {
                        if want.floor[r * want.width + c] == Floor::Goal {
                            '@'
                        } else {
                            '*'
                        }
                    }
                    Ok(false) | Err(Floor::Wall) => 'o',
                    Err(Floor::Free) => '_',
                    Err(Floor::Goal) => '.',
                    Err(Floor::Door) => '-',
                })
                .collect()
        })
        .collect()
}

/// Reads the screenshot with what was learnt: it must show `want`.
fn self_check(img: &RgbImage, want: &Layout, params: &ReadParams) -> Result<(), LearnError> {
    let cal = Calibration {
        origin: "the calibration being learnt".into(),
        source: Source::BuiltIn,
        game: "klotski".into(),
        params: params.clone(),
    };
    let (grid, refusal) = match read::read(img, &cal) {
        Read::Board { board, .. } if board.layout == *want => return Ok(()),
        Read::Board { board, .. } => {
            return Err(LearnError::OtherPosition {
                read: format!(
                    "level {} \"{}\" ({})",
                    board.level.index,
                    board.level.name,
                    board.layout.rows().join("/")
                ),
            });
        }
        Read::Uncertain { grid, reason, .. } => (grid, Some(reason)),
        Read::NoBoard {
            grid: Some(g),
            reason,
            ..
        } => (g, Some(reason)),
        Read::NoBoard { grid: None, .. } => {
            return Err(LearnError::NoLattice {
                min_cells: 2,
                max_cells: look::MAX_SIDE,
            });
        }
    };
    let want_cells = expected(want);
    let got: Vec<Vec<char>> = grid.rows().iter().map(|r| r.chars().collect()).collect();
    let diff: Vec<(usize, usize, char, char)> = want_cells
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.iter().enumerate().filter_map({
                let got = &got;
                move |(c, &w)| {
                    let g = got.get(r).and_then(|x| x.get(c)).copied().unwrap_or('?');
                    (g != w).then_some((r, c, g, w))
                }
            })
        })
        .collect();
    match (diff.first().copied(), refusal) {
        (Some((row, col, got, want)), _) => Err(LearnError::SelfCheck {
            count: diff.len(),
            row,
            col,
            got,
            want,
        }),
        (None, Some(reason)) => Err(LearnError::Unread(reason)),
        (None, None) => Err(LearnError::Unread("no board was read".into())),
    }
}
