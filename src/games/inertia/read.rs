//! Reads an Inertia board from a screenshot of sgt-puzzles' window, and
//! refuses when unsure.
//!
//! The generic grid reader and trust step (`crate::vision`) find the
//! lattice and read the middle of each cell as a colour class: blank `.`,
//! wall `#`, gem `*`, mine `x` or the ball `@` (calibration/inertia.toml).
//! This module adds what is Inertia's own, from how `inertia.c` draws
//! (`draw_tile`, `draw_player`):
//! 1. **Stops.** A stop is a blank with a black circle of radius 3/7 of a
//!    cell, cut by a cross of background, leaving four arcs across the
//!    cell's diagonals, outside the middle (and outside the ball, of
//!    radius 1/3). How dark the diagonals are between 0.37 and 0.49 of a
//!    cell from the centre says stop (above [`STOP_INK`]) or not (below
//!    [`NO_STOP_INK`]); between the two the cell is refused.
//! 2. **Edges.** sgt leaves a border of plain background a cell wide
//!    around the board; a selection must show some of it on every side
//!    (see [`edge_is_clear`]), or the board may be cut.
//! 3. **The ball** is in exactly one cell, centred in it, and no other
//!    cell shows its colour: a ball caught mid-slide is refused.
//!
//! The result is a [`Level`]: sgt's state, with the ball on a stop or a
//! blank. No gem left means the game is won.

use image::RgbImage;

use super::level::{Cell, Level};
use crate::calibration::Calibration;
use crate::geom::RectF;
use crate::vision::color::Rgb;
use crate::vision::cut::edge_is_clear;
use crate::vision::{CellIssue, GridRead, Reading, Side, Trust, read_grid, trust, trust_cells};

/// What the screenshot shows, when read for sure.
pub type Read = Reading<Level>;

/// Dark share on a stop's diagonals above which a cell is a stop. A
/// stop's arcs cover about a quarter of the band sampled; a blank none.
pub const STOP_INK: f32 = 0.10;
/// Dark share below which a cell is not a stop.
pub const NO_STOP_INK: f32 = 0.03;
/// Share of a cell's area the ball covers (radius 1/3: π/9 ≈ 0.35); a
/// ball cell must show at least this share of that.
const BALL_WHOLE: f32 = 0.75;
/// Ball-coloured share above which another cell holds part of a ball.
const BALL_STRAY: f32 = 0.01;
/// How far (share of a cell) the ball's centre may lie from the cell's.
const BALL_OFF_CENTRE: f64 = 0.06;
/// RGB distance at which a pixel counts as the ball's colour.
const BALL_PIXEL: f32 = 60.0;

/// Reads the board in `img`.
pub fn read(img: &RgbImage, cal: &Calibration) -> Read {
    let params = &cal.params;
    let Some(grid) = read_grid(img, params) else {
        return Read::NoBoard {
            grid: None,
            reason: trust(img, None, params).to_string(),
            issues: Vec::new(),
        };
    };
    let cut: Vec<Side> = Side::ALL
        .into_iter()
        .filter(|&side| !edge_is_clear(img, &grid.lattice, side))
        .collect();
    let verdict = if cut.is_empty() {
        trust_cells(&grid)
    } else {
        Trust::CutEdge { sides: cut }
    };
    match verdict {
        Trust::Trusted => inertia_rules(img, grid, cal),
        v if v.is_no_board() => Read::NoBoard {
            reason: format!("no Inertia board: {v}"),
            grid: Some(grid),
            issues: v.into_issues(),
        },
        v => Read::Uncertain {
            reason: v.to_string(),
            grid,
            issues: v.into_issues(),
        },
    }
}

fn issue(r: usize, c: usize, why: impl Into<String>) -> CellIssue {
    CellIssue {
        cell: [r, c],
        why: why.into(),
    }
}

/// A refusal naming the cells at issue, which read as unsure.
fn uncertain(grid: GridRead, reason: String, issues: Vec<CellIssue>) -> Read {
    Read::uncertain(grid, reason, issues)
}

/// The colour class each cell of `level` reads as: `.` for blanks and
/// stops alike (a stop's arcs lie outside the middle of the cell), `@` for
/// the ball, else the cell's own character.
pub fn class_rows(level: &Level) -> Vec<Vec<char>> {
    (0..level.height)
        .map(|r| {
            (0..level.width)
                .map(|c| {
                    let i = r * level.width + c;
                    match level.cells[i] {
                        _ if i == level.ball => '@',
                        Cell::Stop => '.',
                        cell => cell.grid_char(),
                    }
                })
                .collect()
        })
        .collect()
}

/// The ball's colour, from the calibration's `@` class.
fn ball_colour(cal: &Calibration) -> Rgb {
    cal.params
        .classes
        .iter()
        .find(|c| c.letter == '@')
        .and_then(|c| c.stops.first().copied())
        .unwrap_or(Rgb([0.0, 255.0, 0.0]))
}

/// The blank's lightness (0-255), from the calibration's `.` class.
fn blank_lightness(cal: &Calibration) -> f32 {
    let c = cal
        .params
        .classes
        .iter()
        .find(|c| c.letter == '.')
        .and_then(|c| c.stops.first().copied())
        .unwrap_or(Rgb([213.0; 3]));
    (c.0[0] + c.0[1] + c.0[2]) / 3.0
}

/// Checks a trusted grid against Inertia's look and builds the level.
fn inertia_rules(img: &RgbImage, grid: GridRead, cal: &Calibration) -> Read {
    let (rows, cols) = (grid.lattice.rows(), grid.lattice.cols());
    let ball = ball_colour(cal);
    let bg = blank_lightness(cal);
    let mut cells = Vec::with_capacity(rows * cols);
    let mut balls = Vec::new();
    let mut issues = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let rect = grid.lattice.cell(r, c);
            let letter = grid.cells[r][c].letter.unwrap_or('.');
            let (share, centre) = ball_pixels(img, rect, ball);
            if letter == '@' {
                balls.push((r, c));
                check_ball(rect, share, centre, r, c, &mut issues);
            } else if share > BALL_STRAY {
                issues.push(issue(
                    r,
                    c,
                    "part of the ball shows here: is it still sliding?",
                ));
            }
            let cell = match letter {
                '#' => Cell::Wall,
                '*' => Cell::Gem,
                'x' => Cell::Mine,
                _ => match stop_ink(img, rect, bg) {
                    i if i >= STOP_INK => Cell::Stop,
                    i if i <= NO_STOP_INK => Cell::Blank,
                    i => {
                        issues.push(issue(r, c, format!(
                            "neither a stop nor not: {:.0}% dark on a stop's arcs (a stop shows over {:.0}%, a blank under {:.0}%)",
                            i * 100.0, STOP_INK * 100.0, NO_STOP_INK * 100.0
                        )));
                        Cell::Blank
                    }
                },
            };
            cells.push(cell);
        }
    }
    if !issues.is_empty() {
        let reason = format!("{} cell(s) could not be read for sure", issues.len());
        return uncertain(grid, reason, issues);
    }
    let ball = match balls.as_slice() {
        [(r, c)] => r * cols + c,
        _ => {
            let reason = format!(
                "{} balls seen; the board has one (dead, flashing, or mid-slide?)",
                balls.len()
            );
            let issues = balls.iter().map(|&(r, c)| issue(r, c, "a ball")).collect();
            return uncertain(grid, reason, issues);
        }
    };
    let level = Level {
        width: cols,
        height: rows,
        cells,
        ball,
    };
    Read::Board { grid, board: level }
}

fn check_ball(
    rect: RectF,
    share: f32,
    centre: (f64, f64),
    r: usize,
    c: usize,
    issues: &mut Vec<CellIssue>,
) {
    let whole = std::f32::consts::PI / 9.0 * BALL_WHOLE;
    let (cx, cy) = rect.centre();
    let off = (centre.0 - cx).hypot(centre.1 - cy) / rect.width();
    if share < whole || off > BALL_OFF_CENTRE {
        issues.push(issue(
            r,
            c,
            format!(
                "the ball is not whole and centred here ({:.0}% of the cell, {:.0}% off centre): still sliding?",
                share * 100.0,
                off * 100.0
            ),
        ));
    }
}

/// The share of the cell in the ball's colour, and those pixels' centre.
fn ball_pixels(img: &RgbImage, rect: RectF, ball: Rgb) -> (f32, (f64, f64)) {
    let inner = rect.inset(0.04);
    let (x0, y0, x1, y1) = inner.pixels(img.width(), img.height());
    let (mut n, mut sx, mut sy, mut total) = (0u32, 0f64, 0f64, 0u32);
    for y in y0..y1 {
        for x in x0..x1 {
            total += 1;
            let p = img.get_pixel(x, y).0;
            if Rgb::from_u8(p).distance(ball) < BALL_PIXEL {
                n += 1;
                sx += f64::from(x) + 0.5;
                sy += f64::from(y) + 0.5;
            }
        }
    }
    if n == 0 || total == 0 {
        return (0.0, rect.centre());
    }
    let share = n as f32 / total as f32;
    (share, (sx / f64::from(n), sy / f64::from(n)))
}

/// How dark, on average (0 the background `bg`'s lightness, 1 black),
/// the band where a stop's arcs are drawn is: between 0.37 and 0.49 of a
/// cell from its centre, away from the cross sgt clears. Darkness rather
/// than a count of dark pixels, so that a screenshot scaled down (arcs
/// blended into the background) reads the same.
pub fn stop_ink(img: &RgbImage, rect: RectF, bg: f32) -> f32 {
    let (cx, cy) = rect.centre();
    let side = rect.width().min(rect.height());
    let (x0, y0, x1, y1) = rect.pixels(img.width(), img.height());
    let (mut dark, mut total) = (0f32, 0u32);
    for y in y0..y1 {
        for x in x0..x1 {
            let dx = (f64::from(x) + 0.5 - cx) / side;
            let dy = (f64::from(y) + 0.5 - cy) / side;
            let rad = dx.hypot(dy);
            // The cross sgt clears is 1/7 of a cell wide; keep clear of it.
            if !(0.37..=0.49).contains(&rad) || dx.abs() < 0.12 || dy.abs() < 0.12 {
                continue;
            }
            total += 1;
            let l = luma(img.get_pixel(x, y).0);
            dark += ((bg - l) / bg).clamp(0.0, 1.0);
        }
    }
    if total == 0 { 0.0 } else { dark / total as f32 }
}

fn luma(p: [u8; 3]) -> f32 {
    (f32::from(p[0]) + f32::from(p[1]) + f32::from(p[2])) / 3.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_and_the_ball_read_as_their_middles_colour_class() {
        let level = Level::parse("So*\n#x.").unwrap();
        let rows: Vec<String> = class_rows(&level)
            .into_iter()
            .map(String::from_iter)
            .collect();
        assert_eq!(rows, vec!["@.*", "#x."]);
    }

    /// A 40 px cell of background grey, with sgt's stop drawn on it when
    /// `stop`: a circle of radius 3/7 cut by a cross a seventh wide.
    fn cell(stop: bool) -> RgbImage {
        let mut img = RgbImage::from_pixel(40, 40, image::Rgb([213, 213, 213]));
        if stop {
            for y in 0..40 {
                for x in 0..40 {
                    let (dx, dy) = (f64::from(x) + 0.5 - 20.0, f64::from(y) + 0.5 - 20.0);
                    let on_ring = (dx.hypot(dy) - 40.0 * 3.0 / 7.0).abs() < 0.7;
                    if on_ring && dx.abs() > 3.0 && dy.abs() > 3.0 {
                        img.put_pixel(x, y, image::Rgb([0, 0, 0]));
                    }
                }
            }
        }
        img
    }

    #[test]
    fn a_stops_arcs_are_ink_a_blank_has_none() {
        let rect = RectF {
            x0: 0.0,
            y0: 0.0,
            x1: 40.0,
            y1: 40.0,
        };
        let stop = stop_ink(&cell(true), rect, 213.0);
        let blank = stop_ink(&cell(false), rect, 213.0);
        assert!(stop >= STOP_INK, "{stop}");
        assert!(blank <= NO_STOP_INK, "{blank}");
    }
}
