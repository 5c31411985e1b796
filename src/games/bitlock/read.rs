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
use super::level::{Ground, Level, Tile, letter};
use super::rules::Rules;
use crate::calibration::Calibration;
use crate::geom::RectF;
use crate::vision::color::Rgb;
use crate::vision::patch::read_board;
use crate::vision::patch::{Look, Window, agree, cell_read};
use crate::vision::{CellIssue, CellRead, NotLegal, ReadParams, Reading};

/// A board read for sure: the level (targets under pieces included) and
/// its rows in the engine's text format.
pub struct Seen {
    pub level: Level,
    pub rows: Vec<String>,
}

/// What the screenshot shows.
pub type Read = Reading<Seen>;

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
const GAME: &str = "B.i.t.Lock";

/// What one cell shows.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Shown {
    ground: Ground,
    target: Option<u8>,
    piece: Option<Kind>,
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

/// What a cell of this letter shows (the inverse of [`letter_of`]; `.`
/// is floor too).
fn shown_of(letter: char) -> Option<Shown> {
    let floor = |piece, target| Shown {
        ground: Ground::Floor,
        target,
        piece,
    };
    Some(match letter {
        '#' => Shown {
            ground: Ground::Wall,
            target: None,
            piece: None,
        },
        '+' => Shown {
            ground: Ground::Destroyer,
            target: None,
            piece: None,
        },
        '*' => floor(Some(Kind::Mover), None),
        ' ' | '.' => floor(None, None),
        'a'..='m' => floor(
            Some(Kind::Tile {
                kind: letter as u8 - b'a',
                reverse: false,
            }),
            None,
        ),
        'n'..='z' => floor(
            Some(Kind::Tile {
                kind: b'z' - letter as u8,
                reverse: true,
            }),
            None,
        ),
        'A'..='M' => floor(None, type_of(letter)),
        _ => return None,
    })
}

/// Each cell's class as a skin learns it ([`label_of`]).
pub fn labels_of(level: &Level) -> Vec<Vec<String>> {
    let mut cells: Vec<Shown> = level
        .ground
        .iter()
        .map(|&ground| Shown {
            ground,
            target: None,
            piece: None,
        })
        .collect();
    for &(i, k) in &level.targets {
        cells[i].target = Some(k);
    }
    for t in &level.tiles {
        cells[t.cell].piece = Some(Kind::Tile {
            kind: t.kind,
            reverse: t.reverse,
        });
    }
    for &m in &level.movers {
        cells[m].piece = Some(Kind::Mover);
    }
    cells
        .chunks(level.cols.max(1))
        .map(|row| row.iter().map(label_of).collect())
        .collect()
}

/// A cell's class: the letter of what it shows (`.` for floor), and for
/// a piece on a target the target's letter after it (`aA`: tile `a` on a
/// target of type A), as the two look alike nowhere.
fn label_of(s: &Shown) -> String {
    match (letter_of(s), s.piece.and(s.target)) {
        (' ', _) => ".".to_string(),
        (c, Some(k)) => format!("{c}{}", char::from(b'A' + k)),
        (c, None) => c.to_string(),
    }
}

/// What a cell of this class shows (the inverse of [`label_of`]).
fn shown_of_label(label: &str) -> Option<Shown> {
    let mut chars = label.chars();
    let first = shown_of(chars.next()?)?;
    match (chars.next(), chars.next()) {
        (None, _) => Some(first),
        (Some(t), None) if first.piece.is_some() && first.target.is_none() => {
            let target = Some(type_of(t)?);
            Some(Shown { target, ..first })
        }
        _ => None,
    }
}

/// The board that cells of these classes show, checked by the engine.
pub fn from_labels(labels: &[Vec<String>]) -> Result<Seen, String> {
    let cells = labels
        .iter()
        .map(|row| {
            row.iter()
                .map(|l| {
                    shown_of_label(l)
                        .ok_or_else(|| format!("{l:?} is no class of a B.i.t.Lock cell"))
                })
                .collect::<Result<Vec<Shown>, String>>()
        })
        .collect::<Result<Vec<_>, String>>()?;
    let (level, rows) = legal(level_of(&cells))?;
    Ok(Seen { level, rows })
}

/// The class of a cell showing the piece of class `piece` on the bare
/// target of class `ground` (`a` on `A`: `aA`), if they are such.
pub fn stacked(piece: &str, ground: &str) -> Option<String> {
    let (p, g) = (shown_of_label(piece)?, shown_of_label(ground)?);
    let bare = piece.chars().count() == 1 && ground.chars().count() == 1;
    (bare && p.piece.is_some() && g.piece.is_none() && g.target.is_some())
        .then(|| format!("{piece}{ground}"))
}

/// The type of the target a class shows, under a piece or bare, if any.
pub fn target_of(class: &str) -> Option<u8> {
    shown_of_label(class).and_then(|s| s.target)
}

/// The type of the target a class shows under a piece (`aA`: A), if any.
pub fn target_under(class: &str) -> Option<u8> {
    shown_of_label(class)
        .filter(|s| s.piece.is_some())
        .and_then(|s| s.target)
}

/// Refuses a read in which a target may lie unseen under a piece. A look
/// never shown a piece on a target of some type (nor taught it from its
/// layers) cannot tell that bare piece from one standing on such a target
/// (it may draw the piece over it whole), and a lost target is a wrong
/// plan. The rules settle it where they can: a position that can still be
/// won has a tile of each type for every target of it, so where no more
/// tiles of a type than targets of it are seen, none of its targets is
/// hidden. `shows(piece, k)` says whether the look knows the piece of
/// class `piece` (`a`, `z`, `*`) on a target of type `k`.
pub fn no_target_hidden(seen: &Seen, shows: impl Fn(&str, u8) -> bool) -> Result<(), NotLegal> {
    let level = &seen.level;
    let count = |k: u8| {
        let tiles = level.tiles.iter().filter(|t| t.kind == k).count();
        (tiles, level.targets.iter().filter(|t| t.1 == k).count())
    };
    let mut kinds: Vec<u8> = level.tiles.iter().map(|t| t.kind).collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds.retain(|&k| count(k).0 > count(k).1);
    let on_target = |cell: usize| level.targets.iter().any(|t| t.0 == cell);
    let tiles = level.tiles.iter().map(|t| {
        let kind = Kind::Tile {
            kind: t.kind,
            reverse: t.reverse,
        };
        (t.cell, kind)
    });
    let pieces = tiles.chain(level.movers.iter().map(|&m| (m, Kind::Mover)));
    let mut cells = Vec::new();
    let mut doubtful = Vec::new();
    for (cell, kind) in pieces.filter(|p| !on_target(p.0)) {
        let class = label_of(&Shown {
            ground: Ground::Floor,
            target: None,
            piece: Some(kind),
        });
        let unknown: Vec<u8> = kinds
            .iter()
            .copied()
            .filter(|&k| !shows(&class, k))
            .collect();
        if unknown.is_empty() {
            continue;
        }
        doubtful.extend(unknown.iter().copied());
        let types: Vec<String> = unknown.iter().map(|&k| letter(k).to_string()).collect();
        cells.push(CellIssue {
            cell: [cell / level.cols, cell % level.cols],
            why: format!(
                "a target of type {} may be hidden under this piece",
                types.join(" or ")
            ),
        });
    }
    if cells.is_empty() {
        return Ok(());
    }
    doubtful.sort_unstable();
    doubtful.dedup();
    let seen: Vec<String> = doubtful
        .iter()
        .map(|&k| {
            let (tiles, targets) = count(k);
            format!(
                "{tiles} tiles of type {} and {targets} of its targets",
                letter(k)
            )
        })
        .collect();
    Err(NotLegal {
        reason: format!(
            "{} are seen, and this look was never shown such a piece on such a target, so it cannot tell whether one hides a target; teach one with calibrate --moves (moves that put a tile on its target)",
            seen.join(", ")
        ),
        cells,
    })
}

/// The cell's reading for the generic grid, and what it shows.
fn read_cell(img: &RgbImage, rect: RectF, params: &ReadParams) -> (CellRead, Option<Shown>) {
    match shown(img, rect, params) {
        Ok((s, confidence, color)) => (cell_read(Ok((letter_of(&s), confidence, color))), Some(s)),
        Err(why) => (cell_read(Err(why)), None),
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

/// Reads the board in `img`.
pub fn read(img: &RgbImage, cal: &Calibration) -> Read {
    let params = &cal.params;
    let read = read_board(img, params, (&EDGES, '*'), GAME, |rect| {
        read_cell(img, rect, params)
    });
    let (grid, shown) = match read {
        Ok(board) => board,
        Err(refusal) => return refusal,
    };
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

#[cfg(test)]
mod tests {
    use super::super::rules::{Dir, Key};
    use super::*;

    /// A piece on a target is a class of its own, written with the
    /// target's letter after the piece's, and reads back as both layers;
    /// a target after a target, or after floor, is no class.
    #[test]
    fn a_piece_on_a_target_is_a_class_of_two_letters() {
        let level = Level::parse("#####\n#a A#\n#####").unwrap();
        let rules = Rules::new(level).unwrap();
        let key: Key<8> = rules.start().unwrap();
        let on = rules.play(&rules.play(&key, Dir::R), Dir::R);
        let labels = labels_of(&rules.level_at(&on));
        assert_eq!(labels[1], ["#", ".", ".", "aA", "#"]);
        let seen = from_labels(&labels).unwrap();
        assert_eq!(seen.level.targets, [(8, 0)]);
        assert_eq!(seen.level.tiles.len(), 1);
        assert_eq!(seen.level.tiles[0].cell, 8);
        for bad in ["AA", ".A", "aa", "aAA", "#A", "aN", ""] {
            assert!(shown_of_label(bad).is_none(), "{bad:?}");
        }
        assert_eq!(label_of(&shown_of_label("zB").unwrap()), "zB");
        assert_eq!(label_of(&shown_of_label("*C").unwrap()), "*C");
    }

    /// Where more tiles of a type than targets of it are seen, a look
    /// never shown a piece on such a target may be hiding one: the read is
    /// refused, naming the bare pieces. A look shown one, or a board with
    /// a target for every tile, is read.
    #[test]
    fn a_target_that_may_be_hidden_under_a_piece_refuses_the_read() {
        let seen = |rows: &[&str]| {
            let labels: Vec<Vec<String>> = rows
                .iter()
                .map(|r| r.split(' ').map(String::from).collect())
                .collect();
            from_labels(&labels).unwrap()
        };
        let surplus = seen(&["# # # # #", "# a zA * #", "# b B . #", "# # # # #"]);
        let never = |_: &str, _| false;
        let why = no_target_hidden(&surplus, never).unwrap_err();
        assert!(
            why.reason
                .contains("2 tiles of type A and 1 of its targets"),
            "{}",
            why.reason
        );
        assert!(!why.reason.contains("type B"), "{}", why.reason);
        let named: Vec<[usize; 2]> = why.cells.iter().map(|c| c.cell).collect();
        assert_eq!(named, [[1, 1], [2, 1], [1, 3]]);
        assert!(no_target_hidden(&surplus, |_, k| k == 0).is_ok());
        // Shown a on A only: z and the mover may still hide one.
        let why = no_target_hidden(&surplus, |p, k| p == "a" && k == 0).unwrap_err();
        let named: Vec<[usize; 2]> = why.cells.iter().map(|c| c.cell).collect();
        assert_eq!(named, [[2, 1], [1, 3]]);
        let one_each = seen(&["# # # #", "# a A #", "# b B #", "# # # #"]);
        assert!(no_target_hidden(&one_each, never).is_ok());
        assert_eq!(target_under("zA"), Some(0));
        assert_eq!(target_under("A"), None);
        assert_eq!(target_of("A"), Some(0));
    }
}
