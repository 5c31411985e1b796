//! Reads a B.i.t.Lock board from a screenshot of boardbot's own art, and
//! refuses when unsure.
//!
//! A cell has two layers: its ground (floor, wall, fixed destroyer, or a
//! target's ring) and the piece on it. The art ([`super::art`]) keeps them
//! apart in space, so the reader looks at three sets of four small patches
//! in every cell, in fractions of the pitch from the cell's centre:
//! - the **edge** patches, one per side inside the target ring's band,
//!   give the ground (a type's colour there is a target of that type);
//! - the **arm** patches, between the letter in the middle and the piece's
//!   outline, give the piece: none (floor), a tile of a type, or a moving
//!   destroyer;
//! - the **corner** patches tell a normal tile (a square: its colour) from
//!   a reverse tile (a diamond: floor).
//!
//! Each patch's colour is its median, classified against the colour
//! classes of `calibration/bitlock.toml` (letters `.` floor, `#` wall, `+`
//! fixed destroyer, `*` moving destroyer, `A`–`M` the types). A cell is
//! unreadable, with the reason, when a patch matches no class, when a
//! patch is mixed (two colours in it), or when the four patches of a set
//! disagree: a piece caught between two cells mid-animation, text or a
//! pointer over the board. The generic trust step then refuses cut boards
//! and unreadable cells, and the read must be a legal level for the engine.

use image::RgbImage;

use super::art::Kind;
use super::level::{Ground, Level, Tile};
use super::rules::Rules;
use crate::calibration::Calibration;
use crate::geom::RectF;
use crate::vision::cells::CellSample;
use crate::vision::color::{Rgb, classify};
use crate::vision::{
    CellIssue, CellRead, GridRead, Lattice, ReadParams, Reading, Side, Trust, Unreadable,
    find_lattice, trust, trust_cells, verdict_on,
};

/// A board read for sure: the level (targets under pieces included) and
/// its rows in the engine's text format.
pub struct Seen {
    pub level: Level,
    pub rows: Vec<String>,
}

/// What the screenshot shows.
pub type Read = Reading<Seen>;

/// A patch: `(x0, x1, y0, y1)` offsets from the cell's centre, in pitches.
pub type Window = (f64, f64, f64, f64);

/// Inside the target ring's band (0.32–0.46), mid-side.
const EDGES: [Window; 4] = [
    (-0.2, 0.2, -0.42, -0.36),
    (-0.2, 0.2, 0.36, 0.42),
    (-0.42, -0.36, -0.2, 0.2),
    (0.36, 0.42, -0.2, 0.2),
];
/// Between the letter (within 0.16) and the piece's outline (0.27 or more).
const ARMS: [Window; 4] = [
    (-0.04, 0.04, -0.245, -0.185),
    (-0.04, 0.04, 0.185, 0.245),
    (-0.245, -0.185, -0.04, 0.04),
    (0.185, 0.245, -0.04, 0.04),
];
/// Inside a normal tile's corners, outside a reverse tile's diamond.
const CORNERS: [Window; 4] = [
    (-0.225, -0.18, -0.225, -0.18),
    (0.18, 0.225, -0.225, -0.18),
    (-0.225, -0.18, 0.18, 0.225),
    (0.18, 0.225, 0.18, 0.225),
];
const SIDES: [&str; 4] = ["top", "bottom", "left", "right"];
const GAME: &str = "B.i.t.Lock";

/// Share of a patch's pixels that must be near its median colour.
pub const MIN_PURITY: f32 = 0.75;
/// How near, per channel.
const NEAR: u8 = 40;

/// One patch's reading.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    pub letter: char,
    pub confidence: f32,
    pub color: Rgb,
}

/// What one cell shows.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Shown {
    ground: Ground,
    target: Option<u8>,
    piece: Option<Kind>,
}

/// The pixels of a window, by their centres; at least the nearest one.
pub fn window_pixels(img: &RgbImage, rect: RectF, w: Window) -> Vec<[u8; 3]> {
    let (cx, cy) = rect.centre();
    let (px, py) = (rect.width(), rect.height());
    let span = |c: f64, p: f64, lo: f64, hi: f64, max: u32| {
        let a = (c + lo * p - 0.5).ceil().max(0.0);
        let b = (c + hi * p - 0.5).floor().min(f64::from(max) - 1.0);
        if a <= b {
            Some((a as u32, b as u32))
        } else {
            let mid = (c + (lo + hi) / 2.0 * p - 0.5).round();
            (mid >= 0.0 && mid < f64::from(max)).then_some((mid as u32, mid as u32))
        }
    };
    let (Some((x0, x1)), Some((y0, y1))) = (
        span(cx, px, w.0, w.1, img.width()),
        span(cy, py, w.2, w.3, img.height()),
    ) else {
        return Vec::new();
    };
    (y0..=y1)
        .flat_map(|y| (x0..=x1).map(move |x| (x, y)))
        .map(|(x, y)| img.get_pixel(x, y).0)
        .collect()
}

/// The median colour of some pixels, and the share near it.
pub fn median(pixels: &[[u8; 3]]) -> (Rgb, f32) {
    let mid = |i: usize| {
        let mut v: Vec<u8> = pixels.iter().map(|p| p[i]).collect();
        v.sort_unstable();
        v[v.len() / 2]
    };
    let m = [mid(0), mid(1), mid(2)];
    let near = pixels
        .iter()
        .filter(|p| (0..3).all(|i| p[i].abs_diff(m[i]) <= NEAR))
        .count();
    (Rgb::from_u8(m), near as f32 / pixels.len() as f32)
}

/// Reads one patch, or says why it cannot be read.
/// (`game` names the game in messages.)
pub fn look(
    img: &RgbImage,
    rect: RectF,
    w: Window,
    params: &ReadParams,
    game: &str,
) -> Result<Look, String> {
    let pixels = window_pixels(img, rect, w);
    if pixels.is_empty() {
        return Err("it is outside the picture".into());
    }
    let (color, purity) = median(&pixels);
    if purity < MIN_PURITY {
        return Err(format!(
            "two colours meet where one is drawn ({:.0} % near {color}): a piece between cells (mid-move?) or something over the board",
            purity * 100.0
        ));
    }
    let v = classify(&params.classes, color).ok_or("the calibration has no colour classes")?;
    let best = &params.classes[v.best];
    if v.confidence < params.min_confidence {
        return Err(format!(
            "its colour {color} is no {game} colour for sure (nearest: {} '{}', {:.0} away, tolerance {:.0})",
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
pub fn agree(
    img: &RgbImage,
    rect: RectF,
    set: &[Window; 4],
    (what, game): (&str, &str),
    params: &ReadParams,
) -> Result<Look, String> {
    let mut first: Option<Look> = None;
    for (w, side) in set.iter().zip(SIDES) {
        let l =
            look(img, rect, *w, params, game).map_err(|e| format!("its {what} ({side}): {e}"))?;
        match first {
            None => first = Some(l),
            Some(f) if f.letter != l.letter => {
                return Err(format!(
                    "its {what} reads '{}' at the top but '{}' at the {side}: a piece between cells (mid-move?) or something over the board",
                    f.letter, l.letter
                ));
            }
            Some(f) if l.confidence < f.confidence => first = Some(l),
            _ => {}
        }
    }
    first.ok_or_else(|| format!("its {what} has no patches"))
}

fn type_of(letter: char) -> Option<u8> {
    matches!(letter, 'A'..='M').then(|| letter as u8 - b'A')
}

/// Reads the piece on a floor cell from its arms (and corners).
fn piece(
    img: &RgbImage,
    rect: RectF,
    arms: Look,
    params: &ReadParams,
) -> Result<(Option<Kind>, f32), String> {
    match (arms.letter, type_of(arms.letter)) {
        ('.', _) => Ok((None, arms.confidence)),
        ('*', _) => Ok((Some(Kind::Mover), arms.confidence)),
        (_, Some(kind)) => {
            let corners = agree(img, rect, &CORNERS, ("corners", GAME), params)?;
            let reverse = match corners.letter {
                c if c == arms.letter => false,
                '.' => true,
                c => {
                    return Err(format!(
                        "a tile {} whose corners read '{c}': neither a square nor a diamond",
                        arms.letter
                    ));
                }
            };
            Ok((
                Some(Kind::Tile { kind, reverse }),
                arms.confidence.min(corners.confidence),
            ))
        }
        (c, None) => Err(format!(
            "the middle of a floor cell reads '{c}', which no piece is"
        )),
    }
}

/// Reads one cell: what it shows, the confidence, and its edge colour.
fn shown(img: &RgbImage, rect: RectF, params: &ReadParams) -> Result<(Shown, f32, Rgb), String> {
    let edge = agree(img, rect, &EDGES, ("edge", GAME), params)?;
    let arms = agree(img, rect, &ARMS, ("middle", GAME), params)?;
    let plain = |ground| {
        if arms.letter == edge.letter {
            Ok(Shown {
                ground,
                target: None,
                piece: None,
            })
        } else {
            Err(format!(
                "a '{}' cell with '{}' in its middle: a piece on a wall or a destroyer (mid-move?)",
                edge.letter, arms.letter
            ))
        }
    };
    let confidence = edge.confidence.min(arms.confidence);
    let cell = match (edge.letter, type_of(edge.letter)) {
        ('#', _) => plain(Ground::Wall)?,
        ('+', _) => plain(Ground::Destroyer)?,
        ('.', _) | (_, Some(_)) => {
            let (piece, c) = piece(img, rect, arms, params)?;
            return Ok((
                Shown {
                    ground: Ground::Floor,
                    target: type_of(edge.letter),
                    piece,
                },
                confidence.min(c),
                edge.color,
            ));
        }
        (c, None) => {
            return Err(format!(
                "its edge reads '{c}', which only a piece's middle is"
            ));
        }
    };
    Ok((cell, confidence, edge.color))
}

/// A cell's character in the engine's text format (a piece hides a target).
fn letter_of(s: &Shown) -> char {
    match (s.piece, s.target, s.ground) {
        (Some(Kind::Mover), ..) => '*',
        (
            Some(Kind::Tile {
                kind,
                reverse: false,
            }),
            ..,
        ) => char::from(b'a' + kind),
        (
            Some(Kind::Tile {
                kind,
                reverse: true,
            }),
            ..,
        ) => char::from(b'z' - kind),
        (None, Some(k), _) => char::from(b'A' + k),
        (None, None, Ground::Wall) => '#',
        (None, None, Ground::Destroyer) => '+',
        (None, None, Ground::Floor) => ' ',
    }
}

/// The cell's reading for the generic grid, and what it shows.
fn read_cell(img: &RgbImage, rect: RectF, params: &ReadParams) -> (CellRead, Option<Shown>) {
    match shown(img, rect, params) {
        Ok((s, confidence, color)) => (cell_read(Ok((letter_of(&s), confidence, color))), Some(s)),
        Err(why) => (cell_read(Err(why)), None),
    }
}

/// One cell for the generic grid: its letter, confidence and edge colour
/// as a patch reader read them, or why it could not.
pub fn cell_read(read: Result<(char, f32, Rgb), String>) -> CellRead {
    match read {
        Ok((letter, confidence, color)) => CellRead {
            letter: Some(letter),
            confidence,
            guess: letter,
            sample: CellSample {
                color,
                ..CellSample::default()
            },
            why: None,
        },
        Err(why) => CellRead {
            letter: None,
            confidence: 0.0,
            guess: '?',
            sample: CellSample::default(),
            why: Some(Unreadable::Other(why)),
        },
    }
}

/// The level a board of read cells shows.
fn level_of(cells: &[Vec<Shown>]) -> Level {
    let (rows, cols) = (cells.len(), cells.first().map_or(0, Vec::len));
    let mut level = Level {
        rows,
        cols,
        ground: Vec::with_capacity(rows * cols),
        targets: Vec::new(),
        tiles: Vec::new(),
        movers: Vec::new(),
    };
    for (i, s) in cells.iter().flatten().enumerate() {
        level.ground.push(s.ground);
        if let Some(k) = s.target {
            level.targets.push((i, k));
        }
        match s.piece {
            Some(Kind::Tile { kind, reverse }) => level.tiles.push(Tile {
                kind,
                reverse,
                cell: i,
            }),
            Some(Kind::Mover) => level.movers.push(i),
            None => {}
        }
    }
    level.tiles.sort();
    level
}

/// What lies past one side of the board's outer line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beyond {
    /// B.i.t.Lock ground: the board goes on past the selection.
    Board,
    /// The picture ends at the outer line: nothing says the board stops there.
    Unseen,
}

/// Whether the edge patches of the cells that would lie beyond one side
/// show the board going on. A moving destroyer's near-black is left out:
/// it is a piece, never ground, and dark desktops look like it.
/// (`dark`: the class a dark desktop passes for, left out.)
fn beyond_side(
    img: &RgbImage,
    cells: &[RectF],
    w: Window,
    params: &ReadParams,
    dark: char,
) -> Option<Beyond> {
    let mut seen = false;
    for &r in cells {
        if window_pixels(img, r, w).is_empty() {
            continue;
        }
        seen = true;
        if look(img, r, w, params, GAME).is_ok_and(|l| l.letter != dark) {
            return Some(Beyond::Board);
        }
    }
    (!seen).then_some(Beyond::Unseen)
}

/// The sides past which the board goes on, or past which the picture
/// shows nothing: where the edge patch of the cell that would lie beyond
/// the outer line shows B.i.t.Lock ground, or lies outside the picture.
/// The generic trust step misses a cut through a column of pieces (they
/// are not plain cells); this looks where only a cell's ground is.
/// (`edges`: the game's edge patches, top, bottom, left, right; `dark` as
/// for [`beyond_side`].)
pub fn cut_sides(
    img: &RgbImage,
    lattice: &Lattice,
    params: &ReadParams,
    (edges, dark): (&[Window; 4], char),
) -> Vec<(Side, Beyond)> {
    let (rows, cols) = (lattice.rows(), lattice.cols());
    let beyond = |rect: RectF, dx: f64, dy: f64| RectF {
        x0: rect.x0 + dx * rect.width(),
        x1: rect.x1 + dx * rect.width(),
        y0: rect.y0 + dy * rect.height(),
        y1: rect.y1 + dy * rect.height(),
    };
    let left: Vec<RectF> = (0..rows)
        .map(|r| beyond(lattice.cell(r, 0), -1.0, 0.0))
        .collect();
    let right: Vec<RectF> = (0..rows)
        .map(|r| beyond(lattice.cell(r, cols - 1), 1.0, 0.0))
        .collect();
    let top: Vec<RectF> = (0..cols)
        .map(|c| beyond(lattice.cell(0, c), 0.0, -1.0))
        .collect();
    let bottom: Vec<RectF> = (0..cols)
        .map(|c| beyond(lattice.cell(rows - 1, c), 0.0, 1.0))
        .collect();
    [
        (Side::Left, left, edges[3]),
        (Side::Right, right, edges[2]),
        (Side::Top, top, edges[1]),
        (Side::Bottom, bottom, edges[0]),
    ]
    .into_iter()
    .filter_map(|(side, cells, w)| beyond_side(img, &cells, w, params, dark).map(|b| (side, b)))
    .collect()
}

/// The refusal for a board that may go on past the selection: the reason,
/// and the outer cells on each such side, so the debug image marks them.
pub fn cut_refusal<B>(grid: GridRead, sides: &[(Side, Beyond)]) -> Reading<B> {
    let (rows, cols) = (grid.lattice.rows(), grid.lattice.cols());
    let goes_on: Vec<Side> = sides
        .iter()
        .filter(|s| s.1 == Beyond::Board)
        .map(|s| s.0)
        .collect();
    let unseen: Vec<&str> = sides
        .iter()
        .filter(|s| s.1 == Beyond::Unseen)
        .map(|s| s.0.name())
        .collect();
    let reason = if goes_on.is_empty() {
        format!(
            "the board touches the selection's {} edge, so boardbot cannot see whether it goes on: select it with a margin around it",
            unseen.join(" and ")
        )
    } else {
        Trust::CutEdge { sides: goes_on }.to_string()
    };
    let mut issues = Vec::new();
    for &(side, b) in sides {
        let why = match b {
            Beyond::Board => format!("the board seems to go on past the {} edge", side.name()),
            Beyond::Unseen => format!("the picture ends at the board's {} line", side.name()),
        };
        let cells: Vec<(usize, usize)> = match side {
            Side::Left => (0..rows).map(|r| (r, 0)).collect(),
            Side::Right => (0..rows).map(|r| (r, cols - 1)).collect(),
            Side::Top => (0..cols).map(|c| (0, c)).collect(),
            Side::Bottom => (0..cols).map(|c| (rows - 1, c)).collect(),
        };
        issues.extend(cells.into_iter().map(|(r, c)| CellIssue {
            cell: [r, c],
            why: why.clone(),
        }));
    }
    Reading::Uncertain {
        reason,
        grid,
        issues,
    }
}

/// The checks a patch reader makes once every cell is read: a board that
/// goes on past the selection (`sides`, from [`cut_sides`]), then the
/// generic trust step (unreadable cells, or no board of `game` at all).
/// `Err` is the refusal. The cut check replaces the generic one, whose
/// strips reach far enough past the board to take a dark desktop for a
/// dark piece.
pub fn checked<B>(
    grid: GridRead,
    sides: &[(Side, Beyond)],
    game: &str,
) -> Result<GridRead, Reading<B>> {
    if !sides.is_empty() {
        return Err(cut_refusal(grid, sides));
    }
    let verdict = trust_cells(&grid);
    verdict_on(grid, verdict, game)
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
    let (mut cells, mut shown) = (Vec::new(), Vec::new());
    for r in 0..lattice.rows() {
        let (row, seen): (Vec<CellRead>, Vec<Option<Shown>>) = (0..lattice.cols())
            .map(|c| read_cell(img, lattice.cell(r, c), params))
            .unzip();
        cells.push(row);
        shown.push(seen);
    }
    let sides = cut_sides(img, &lattice, params, (&EDGES, '*'));
    let grid = match checked(GridRead { lattice, cells }, &sides, GAME) {
        Ok(grid) => grid,
        Err(refusal) => return refusal,
    };
    let shown: Vec<Vec<Shown>> = shown
        .into_iter()
        .map(|r| r.into_iter().flatten().collect())
        .collect();
    match legal(level_of(&shown)) {
        Ok((level, rows)) => Read::Board {
            grid,
            board: Seen { level, rows },
        },
        Err(reason) => Read::Uncertain {
            grid,
            reason,
            issues: Vec::new(),
        },
    }
}

/// Checks the read level with the engine; its rows in the engine's format.
fn legal(level: Level) -> Result<(Level, Vec<String>), String> {
    let illegal = |e: &dyn std::fmt::Display| format!("the board read is not a legal level: {e}");
    level.check().map_err(|e| illegal(&e))?;
    let rules = Rules::new(level.clone()).map_err(|e| illegal(&e))?;
    let rows = rules.level_rows();
    if rows.len() != level.rows {
        return Err(illegal(&"it has more pieces than the solver handles"));
    }
    Ok((level, rows))
}
