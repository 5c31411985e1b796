//! Reads a Rush Hour board from a screenshot through a colour calibration,
//! and refuses when unsure. The built-in look is a skin (read by
//! `crate::vision::skin`, with [`super::skin`]'s classes); this reader
//! serves colour calibrations written before it became one, such as
//! `tests/fixtures/looks/rush_colours.toml`.
//!
//! The generic grid reader and trust step (`crate::vision`) find the
//! lattice and each cell's colour class: floor `.`, wall `x`, the red car
//! `r`, or one of the other vehicles' colours (any other letter). This
//! module adds what is Rush Hour's own:
//! 1. every cell must be one colour all over (a vehicle caught between
//!    cells, mid-slide, is not);
//! 2. two neighbouring vehicle cells are one vehicle when its body runs on
//!    across the border between them, two when floor shows there; anything
//!    else is refused;
//! 3. each vehicle must be a straight run of 2 or 3 cells, with exactly
//!    one red car, lying across its row; the engine's parser has the last
//!    word.
//!
//! Letters follow [`super::letters`]: `A` the red car, then `B`, `C`, … by
//! each vehicle's first cell, row by row.

use image::RgbImage;

use super::board::{Puzzle, SIZE};
use crate::calibration::Calibration;
use crate::geom::{Cell, RectF};
use crate::vision::color::Rgb;
use crate::vision::patch::{median_colour, pixels_in};
use crate::vision::{CellIssue, GridRead, Lattice, Reading, read_trusted};

/// What the screenshot shows: when read for sure, the board's 36
/// characters, canonically lettered.
pub type Read = Reading<String>;

/// What a cell holds, by its colour class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Floor,
    Wall,
    Red,
    /// Another vehicle, by its colour class's letter.
    Colour(char),
}

impl Kind {
    fn of(letter: char) -> Kind {
        match letter {
            '.' => Kind::Floor,
            'x' => Kind::Wall,
            'r' => Kind::Red,
            other => Kind::Colour(other),
        }
    }

    fn is_vehicle(self) -> bool {
        matches!(self, Kind::Red | Kind::Colour(_))
    }
}

/// What the border between two neighbouring vehicle cells shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Border {
    /// One body runs on across it.
    Joined,
    /// Floor shows between two bodies.
    Apart,
    /// Neither: something else is drawn there.
    Unsure,
}

/// Fraction of a cell's middle that may stray from its colour.
const MAX_STRAY: f64 = 0.03;
/// A pixel strays when a channel is this far from the cell's colour.
const STRAY_STEP: f32 = 40.0;
/// How near (RGB distance) a colour across a border must be to a body or
/// the floor.
const SIDE_TOLERANCE: f32 = 45.0;
/// A vehicle's seams (the grid lines over it) are its colour this much
/// darker; see `art`.
const SEAM_SHADE: f32 = 0.72;

/// Reads the board in `img`.
pub fn read(img: &RgbImage, cal: &Calibration) -> Read {
    match read_trusted(img, &cal.params, "Rush Hour") {
        Ok(grid) => rush_rules(img, grid, cal),
        Err(refusal) => refusal,
    }
}

/// A refusal; the cells at issue read as unsure.
fn uncertain(grid: GridRead, reason: String, issues: Vec<CellIssue>) -> Read {
    Read::uncertain(grid, reason, issues)
}

fn issue((r, c): Cell, why: impl Into<String>) -> CellIssue {
    CellIssue {
        cell: [r, c],
        why: why.into(),
    }
}

/// Checks a trusted grid against Rush Hour's rules.
fn rush_rules(img: &RgbImage, grid: GridRead, cal: &Calibration) -> Read {
    let (rows, cols) = (grid.lattice.rows(), grid.lattice.cols());
    if (rows, cols) != (SIZE, SIZE) {
        let reason = format!("a {rows}×{cols} grid was found; a Rush Hour board is 6×6");
        return uncertain(grid, reason, Vec::new());
    }
    let kinds: Vec<Vec<Kind>> = grid
        .cells
        .iter()
        .map(|row| {
            row.iter()
                // A trusted grid has every cell read.
                .map(|c| c.letter.map_or(Kind::Floor, Kind::of))
                .collect()
        })
        .collect();
    let stray = stray_cells(img, &grid, cal.params.sample.inset);
    if !stray.is_empty() {
        let reason = format!(
            "{} cell(s) are not one colour all over: a vehicle between cells (still sliding?) or something over the board",
            stray.len()
        );
        return uncertain(grid, reason, stray);
    }
    let floor = floor_colour(cal);
    let (joins, unsure) = joins(img, &grid, &kinds, floor);
    if !unsure.is_empty() {
        let reason = "the border between some neighbouring vehicle cells shows neither floor nor one vehicle's body".to_string();
        return uncertain(grid, reason, unsure);
    }
    match vehicles(&kinds, &joins) {
        Ok(text) => match Puzzle::parse(&text) {
            Ok(_) => Read::Board { grid, board: text },
            Err(e) => uncertain(grid, format!("not a legal board: {e}"), Vec::new()),
        },
        Err((reason, issues)) => uncertain(grid, reason, issues),
    }
}

/// The floor class's colour.
fn floor_colour(cal: &Calibration) -> Option<Rgb> {
    cal.params
        .classes
        .iter()
        .find(|c| c.letter == '.')
        .and_then(|c| c.stops.first().copied())
}

/// The cells whose middle (`inset` in from each side, as the colour was
/// read) is not one colour.
fn stray_cells(img: &RgbImage, grid: &GridRead, inset: f64) -> Vec<CellIssue> {
    let mut out = Vec::new();
    for (r, row) in grid.cells.iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let rect = grid.lattice.cell(r, c).inset(inset);
            let frac = stray_fraction(img, rect, cell.sample.color);
            if frac > MAX_STRAY {
                let why = format!(
                    "{:.0}% of its middle is another colour than {}: part floor, part vehicle (a vehicle between cells?)",
                    frac * 100.0,
                    cell.sample.color
                );
                out.push(issue((r, c), why));
            }
        }
    }
    out
}

/// Fraction of the pixels in `rect` more than [`STRAY_STEP`] from `colour`.
fn stray_fraction(img: &RgbImage, rect: RectF, colour: Rgb) -> f64 {
    let (x0, y0, x1, y1) = rect.pixels(img.width(), img.height());
    let (mut n, mut off) = (0u32, 0u32);
    for y in y0..y1 {
        for x in x0..x1 {
            let p = img.get_pixel(x, y).0;
            n += 1;
            if (0..3).any(|i| (f32::from(p[i]) - colour.0[i]).abs() > STRAY_STEP) {
                off += 1;
            }
        }
    }
    if n == 0 {
        1.0
    } else {
        f64::from(off) / f64::from(n)
    }
}

/// The colours across the border between cell `a` and its right
/// (`across`) or lower neighbour: for each line of pixels parallel to the
/// border, within 30 % of a pitch of it, the median colour along the
/// middle of the border. Wide enough that a lattice a pixel or two off
/// still sees the whole band of floor a vehicle leaves at its end.
fn profile(img: &RgbImage, lattice: &Lattice, a: Cell, across: bool) -> Vec<Rgb> {
    let (p, _) = lattice.pitch();
    let cell = lattice.cell(a.0, a.1);
    let border = if across { cell.x1 } else { cell.y1 };
    let (lo, hi) = (
        (border - 0.3 * p).floor() as i64,
        (border + 0.3 * p).ceil() as i64,
    );
    (lo..hi)
        .map(|t| {
            let (t0, t1) = (t as f64 + 0.4, t as f64 + 0.6);
            let rect = if across {
                RectF {
                    x0: t0,
                    y0: cell.y0 + 0.3 * p,
                    x1: t1,
                    y1: cell.y1 - 0.3 * p,
                }
            } else {
                RectF {
                    x0: cell.x0 + 0.3 * p,
                    y0: t0,
                    x1: cell.x1 - 0.3 * p,
                    y1: t1,
                }
            };
            median_colour(&pixels_in(img, rect)).0
        })
        .collect()
}

/// Reads a border from its profile, between cells of colours `own_a` and
/// `own_b`: floor anywhere in it means two vehicles; a body (or its darker
/// seam) all the way means one.
fn border(profile: &[Rgb], own_a: Rgb, own_b: Rgb, floor: Option<Rgb>) -> Border {
    let is_floor = |c: Rgb| floor.is_some_and(|f| c.distance(f) <= SIDE_TOLERANCE);
    let shade = |c: Rgb| Rgb(c.0.map(|v| v * SEAM_SHADE));
    let is_body = |c: Rgb, own: Rgb| c.distance_to_segment(shade(own), own) <= SIDE_TOLERANCE;
    if profile.iter().any(|&c| is_floor(c)) {
        Border::Apart
    } else if profile
        .iter()
        .all(|&c| is_body(c, own_a) || is_body(c, own_b))
    {
        Border::Joined
    } else {
        Border::Unsure
    }
}

/// Pairs of neighbouring cells that are one vehicle, and the cells whose
/// border could not be told.
fn joins(
    img: &RgbImage,
    grid: &GridRead,
    kinds: &[Vec<Kind>],
    floor: Option<Rgb>,
) -> (Vec<(Cell, Cell)>, Vec<CellIssue>) {
    let mut joined = Vec::new();
    let mut unsure = Vec::new();
    for r in 0..SIZE {
        for c in 0..SIZE {
            for across in [true, false] {
                let b = if across { (r, c + 1) } else { (r + 1, c) };
                if b.0 >= SIZE || b.1 >= SIZE {
                    continue;
                }
                let (ka, kb) = (kinds[r][c], kinds[b.0][b.1]);
                if !ka.is_vehicle() || !kb.is_vehicle() {
                    continue;
                }
                let own_a = grid.cells[r][c].sample.color;
                let own_b = grid.cells[b.0][b.1].sample.color;
                let prof = profile(img, &grid.lattice, (r, c), across);
                let seen = border(&prof, own_a, own_b, floor);
                match seen {
                    Border::Joined if ka == kb => joined.push(((r, c), b)),
                    Border::Apart => {}
                    _ => {
                        let why = format!(
                            "the border with ({},{}) shows neither floor nor one vehicle's body ({seen:?})",
                            b.0, b.1
                        );
                        unsure.push(issue((r, c), why));
                    }
                }
            }
        }
    }
    (joined, unsure)
}

/// The vehicles as runs of joined cells, lettered canonically; or why the
/// shapes make no board.
fn vehicles(
    kinds: &[Vec<Kind>],
    joins: &[(Cell, Cell)],
) -> Result<String, (String, Vec<CellIssue>)> {
    let idx = |(r, c): Cell| r * SIZE + c;
    let mut group: Vec<usize> = (0..SIZE * SIZE).collect();
    fn root(g: &mut [usize], mut i: usize) -> usize {
        while g[i] != i {
            g[i] = g[g[i]];
            i = g[i];
        }
        i
    }
    for &(a, b) in joins {
        let (ra, rb) = (root(&mut group, idx(a)), root(&mut group, idx(b)));
        group[ra.max(rb)] = ra.min(rb);
    }
    let mut text = vec!['o'; SIZE * SIZE];
    let mut issues = Vec::new();
    let mut reds = Vec::new();
    let mut next = b'B';
    for i in 0..SIZE * SIZE {
        let (r, c) = (i / SIZE, i % SIZE);
        match kinds[r][c] {
            Kind::Floor => continue,
            Kind::Wall => {
                text[i] = 'x';
                continue;
            }
            _ => {}
        }
        if root(&mut group, i) != i {
            continue;
        }
        let cells: Vec<usize> = (i..SIZE * SIZE)
            .filter(|&j| root(&mut group, j) == i)
            .collect();
        if let Err(why) = straight(&cells) {
            issues.push(issue((r, c), why));
            continue;
        }
        let letter = if kinds[r][c] == Kind::Red {
            reds.push((r, c));
            'A'
        } else {
            let l = char::from(next);
            next += 1;
            l
        };
        for j in cells {
            text[j] = letter;
        }
    }
    if !issues.is_empty() {
        return Err((
            "some vehicles are not straight runs of 2 or 3 cells".into(),
            issues,
        ));
    }
    if reds.len() != 1 {
        let reason = format!("{} red cars found; a board has exactly one", reds.len());
        return Err((
            reason,
            reds.iter().map(|&rc| issue(rc, "a red car")).collect(),
        ));
    }
    if next > b'Z' + 1 {
        return Err(("more vehicles than letters B-Z".into(), Vec::new()));
    }
    Ok(text.into_iter().collect())
}

/// Checks that `cells` (ascending indices) are one straight run of 2 or 3.
fn straight(cells: &[usize]) -> Result<(), String> {
    let n = cells.len();
    if !(2..=3).contains(&n) {
        return Err(format!(
            "a vehicle of {n} cell(s) starts here; vehicles are 2 or 3 long"
        ));
    }
    let row = cells
        .windows(2)
        .all(|w| w[1] == w[0] + 1 && w[1] / SIZE == w[0] / SIZE);
    let col = cells.windows(2).all(|w| w[1] == w[0] + SIZE);
    if row || col {
        Ok(())
    } else {
        Err("the vehicle starting here is not a straight run of cells".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kinds from rows of class letters.
    fn kinds(rows: &[&str]) -> Vec<Vec<Kind>> {
        rows.iter()
            .map(|r| r.chars().map(Kind::of).collect())
            .collect()
    }

    /// Joins every pair of neighbouring cells of the same vehicle kind.
    fn all_joined(k: &[Vec<Kind>]) -> Vec<(Cell, Cell)> {
        let mut out = Vec::new();
        for r in 0..SIZE {
            for c in 0..SIZE {
                for b in [(r, c + 1), (r + 1, c)] {
                    if b.0 < SIZE && b.1 < SIZE && k[r][c].is_vehicle() && k[r][c] == k[b.0][b.1] {
                        out.push(((r, c), b));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn joined_cells_make_vehicles_lettered_by_their_first_cell() {
        let k = kinds(&["gg...x", ".....b", "rr...b", ".....b", "..yy..", "....gg"]);
        let text = vehicles(&k, &all_joined(&k)).unwrap();
        assert_eq!(text, "BBoooxoooooCAAoooCoooooCooDDooooooEE");
        // The same cells without the join between B's two cells: two
        // one-cell vehicles, refused.
        let joins: Vec<_> = all_joined(&k)
            .into_iter()
            .filter(|j| *j != ((0, 0), (0, 1)))
            .collect();
        let (why, issues) = vehicles(&k, &joins).unwrap_err();
        assert!(why.contains("straight runs of 2 or 3"), "{why}");
        assert_eq!(issues.len(), 2);
    }

    #[test]
    fn odd_shapes_and_red_car_counts_are_refused() {
        // An L of one colour.
        let k = kinds(&["gg....", "g.....", "rr....", "......", "......", "......"]);
        let (_, issues) = vehicles(&k, &all_joined(&k)).unwrap_err();
        assert_eq!(issues[0].cell, [0, 0]);
        // Four in a row.
        let k = kinds(&["gggg..", "......", "rr....", "......", "......", "......"]);
        assert!(vehicles(&k, &all_joined(&k)).is_err());
        // Two red cars; no red car.
        let k = kinds(&["rr....", "......", "rr....", "......", "......", "......"]);
        assert!(
            vehicles(&k, &all_joined(&k))
                .unwrap_err()
                .0
                .contains("2 red cars")
        );
        let k = kinds(&["gg....", "......", "......", "......", "......", "......"]);
        assert!(
            vehicles(&k, &all_joined(&k))
                .unwrap_err()
                .0
                .contains("0 red cars")
        );
    }

    #[test]
    fn a_border_is_one_body_floor_between_two_or_unsure() {
        let red = Rgb([212.0, 42.0, 42.0]);
        let floor = Rgb([217.0, 211.0, 197.0]);
        let seam = Rgb([153.0, 30.0, 30.0]);
        let joined = border(&[red, seam, red], red, red, Some(floor));
        assert_eq!(joined, Border::Joined);
        let gap = [red, floor, Rgb([163.0, 155.0, 139.0]), floor, red];
        assert_eq!(border(&gap, red, red, Some(floor)), Border::Apart);
        let pointer = [red, Rgb([255.0, 255.0, 255.0]), red];
        assert_eq!(border(&pointer, red, red, Some(floor)), Border::Unsure);
    }
}
