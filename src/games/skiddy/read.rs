//! Reads a Skiddy board from a screenshot, and refuses when unsure: the
//! classes a skin reads ([`from_labels`]; the built-in look is a skin), or
//! patches through a colour calibration written before it became one (such
//! as `tests/fixtures/looks/skiddy_colours.toml`), below.
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
//! classes of the calibration, whose letters are the level format's
//! (`#` `.` `o` `c` `i` `r` `b` `g` `y` `R` `B` `G` `Y`). A cell
//! is unreadable, with the reason, when a patch matches no class, when a
//! patch is mixed (two colours in it), when the patches of a set disagree,
//! or when a piece's colour reaches the cell's edge: a piece caught
//! between two cells mid-slide, or something over the board. A board that
//! goes on past the selection, or whose edge touches it, is refused; and
//! what is read must parse as a legal level ([`Level::parse`]).

use image::RgbImage;

use super::level::{Ground, Level, LevelError};
use super::rules::{Dir, Key, Rules};
use crate::calibration::Calibration;
use crate::geom::RectF;
use crate::vision::color::Rgb;
use crate::vision::patch::read_board;
use crate::vision::patch::{MIN_PURITY, Window, agree, cell_read, median_colour, window_pixels};
use crate::vision::{CellIssue, CellRead, NotLegal, ReadParams, Reading};

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
const GAME: &str = "Skiddy";
/// How far (RGB distance) a block's middle must be from its edge to be a stud.
const STUD_CONTRAST: f32 = 60.0;

/// What one cell shows: its character in the level format, and for a
/// block whether it carries a stud.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Shown {
    letter: char,
    stud: Option<bool>,
    /// A piece sunk in a pit: the level format writes the piece alone, and
    /// the level handed to the planner keeps the pit under it.
    sunk: bool,
}

fn is_piece(letter: char) -> bool {
    matches!(letter, 'r' | 'b' | 'g' | 'y' | 'c' | 'i')
}

/// Whether a block's middle shows the glue stud.
fn stud(img: &RgbImage, rect: RectF, edge: Rgb) -> Result<bool, String> {
    let pixels = window_pixels(img, rect, MIDDLE);
    let (color, purity) = median_colour(&pixels);
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
    let edge = agree(img, rect, &EDGES, ("edge", GAME), params)?;
    let inner = agree(img, rect, &INNER, ("middle", GAME), params)?;
    let confidence = edge.confidence.min(inner.confidence);
    let (e, i) = (edge.letter, inner.letter);
    let plain = Shown {
        letter: e,
        stud: None,
        sunk: false,
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
            sunk: false,
        },
        '.' | 'o' if is_piece(i) => Shown {
            letter: i,
            stud: None,
            sunk: e == 'o',
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
        Ok((s, confidence, color)) => (cell_read(Ok((s.letter, confidence, color))), Some(s)),
        Err(why) => (cell_read(Err(why)), None),
    }
}

/// Sticky when every block carries a stud, not when none does.
fn sticky_of(shown: &[Vec<Shown>]) -> Result<bool, NotLegal> {
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
    // The fewer are named; at half and half, those with a stud.
    let odd = studs * 2 <= blocks.len();
    let others = if studs * 2 == blocks.len() {
        "unlike the other half of the blocks"
    } else {
        "unlike most blocks"
    };
    let issues = blocks
        .iter()
        .filter(|b| b.1 == odd)
        .map(|b| CellIssue {
            cell: b.0,
            why: format!(
                "this block {} a glue stud, {others}",
                if odd { "has" } else { "lacks" }
            ),
        })
        .collect();
    Err(NotLegal {
        reason:
            "the blocks disagree on whether the level is sticky (a glue stud in every block) or not"
                .into(),
        cells: issues,
    })
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
        Ok(mut l) => {
            // The text put floor under every piece; a sunk one is in its pit.
            for (g, s) in l.ground.iter_mut().zip(shown.iter().flatten()) {
                if s.sunk {
                    *g = Ground::Pit;
                }
            }
            Some(l)
        }
        // A won level: every skiddy has left through a goal, and the goals
        // are still there. A board of blocks alone is no Skiddy level.
        Err(LevelError::NoSkiddy) if rows.iter().any(|r| r.contains(['R', 'B', 'G', 'Y'])) => None,
        Err(LevelError::NoSkiddy) => {
            return Err(
                "the board read has no skiddy and no goal: no Skiddy level looks like this".into(),
            );
        }
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

/// The label a skin gives a block: a sticky level's blocks carry glue,
/// which a skin may draw, so they are a class of their own.
const GLUED_BLOCK: &str = "#g";

/// The class a skin gives a piece sunk in a pit: its letter, then the
/// pit's. A look may draw it sunk, unlike the same piece on floor; the
/// board read gives the piece, as the level format does.
fn sunk(piece: char) -> String {
    format!("{piece}o")
}

/// Each cell's ground as a skin learns it: the level text's letter, and
/// [`GLUED_BLOCK`] for a sticky level's blocks.
fn ground_labels(ground: &[Ground], sticky: bool) -> Vec<String> {
    ground
        .iter()
        .map(|g| match g {
            Ground::Floor => ".".to_string(),
            Ground::Block if sticky => GLUED_BLOCK.to_string(),
            Ground::Block => "#".to_string(),
            Ground::Goal(c) => c.letter().to_ascii_uppercase().to_string(),
            Ground::Pit => "o".to_string(),
        })
        .collect()
}

/// Each cell's class as a skin learns it: the level text's letter of what
/// it shows, and [`GLUED_BLOCK`] for a sticky level's blocks.
pub fn labels_of(level: &Level) -> Vec<Vec<String>> {
    let rules = Rules::new(level);
    labels_at(&rules, &rules.start)
}

/// Each cell's class once `moves` are played from `level`: as
/// [`labels_of`], and a piece that stopped in a pit is [`sunk`], which no
/// level text can write.
pub fn labels_after(level: &Level, moves: &str) -> Result<Vec<Vec<String>>, String> {
    let rules = Rules::new(level);
    let mut key = rules.start;
    for (i, c) in moves.chars().filter(|c| !c.is_whitespace()).enumerate() {
        let n = i + 1;
        let d = Dir::from_char(c)
            .ok_or_else(|| format!("move {n} is '{c}': Skiddy's moves are L, R, U and D"))?;
        key = match rules.play(&key, d) {
            Some((_, next)) => next,
            None => return Err(format!("move {n} ({c}) changes nothing")),
        };
    }
    Ok(labels_at(&rules, &key))
}

/// Each cell's class in position `key`: its ground, or the piece on it.
fn labels_at(rules: &Rules, key: &Key) -> Vec<Vec<String>> {
    let mut cells = ground_labels(&rules.ground, rules.sticky);
    let shown = rules.render_rows(key).concat();
    for ((cell, ch), g) in cells.iter_mut().zip(shown.chars()).zip(&rules.ground) {
        if is_piece(ch) {
            *cell = match g {
                Ground::Pit => sunk(ch),
                _ => ch.to_string(),
            };
        }
    }
    cells
        .chunks(rules.width.max(1))
        .map(<[String]>::to_vec)
        .collect()
}

/// Refuses taught screenshots that show only one kind of block (glued or
/// not): which kind a skin's blocks are must be learned, not assumed.
pub fn taught_both_blocks(shots: &[Vec<Vec<String>>]) -> Result<(), String> {
    let all = || shots.iter().flatten().flatten();
    let (glued, plain) = (all().any(|l| l == GLUED_BLOCK), all().any(|l| l == "#"));
    if glued && plain {
        Ok(())
    } else {
        Err(format!(
            "a Skiddy skin is taught with a sticky level and a non-sticky one (give two --image and --level pairs): these show only {} blocks",
            if glued {
                "glued (sticky: yes)"
            } else {
                "plain (sticky: no)"
            }
        ))
    }
}

/// The board that cells of these classes show, checked by the level
/// parser: sticky when every block is glued, not when none is.
pub fn from_labels(labels: &[Vec<String>]) -> Result<Seen, NotLegal> {
    // A block's class says whether it carries glue, as a stud does for the
    // colour reader: the same check names the blocks unlike the rest.
    let mut shown = Vec::with_capacity(labels.len());
    for (r, row) in labels.iter().enumerate() {
        let mut cells = Vec::with_capacity(row.len());
        for (c, l) in row.iter().enumerate() {
            cells.push(shown_of_label(l).ok_or_else(|| NotLegal {
                reason: format!("a cell's class {l:?} is no Skiddy cell"),
                cells: vec![CellIssue {
                    cell: [r, c],
                    why: format!(
                        "class {l:?} is no Skiddy cell: the look was taught another game?"
                    ),
                }],
            })?);
        }
        shown.push(cells);
    }
    let sticky = sticky_of(&shown)?;
    Ok(legal(&shown, sticky)?)
}

/// What a class shows: one letter of the level format, a glued block, or
/// a piece [`sunk`] in a pit; `None` for anything else.
fn shown_of_label(l: &str) -> Option<Shown> {
    let mut chars = l.chars();
    let (first, second) = (chars.next()?, chars.next());
    if chars.next().is_some() {
        return None;
    }
    let one = |stud, sunk| {
        Some(Shown {
            letter: first,
            stud,
            sunk,
        })
    };
    match (first, second) {
        ('#', None) => one(Some(false), false),
        _ if l == GLUED_BLOCK => one(Some(true), false),
        (p, Some('o')) if is_piece(p) => one(None, true),
        (_, None) if ".oRBGY".contains(first) || is_piece(first) => one(None, false),
        _ => None,
    }
}

/// Reads the board in `img`.
pub fn read(img: &RgbImage, cal: &Calibration) -> Read {
    let params = &cal.params;
    // A pit's near-black is left out of the cut check: dark desktops look like it.
    let read = read_board(img, params, (&EDGES, 'o'), GAME, |rect| {
        read_cell(img, rect, params)
    });
    let (grid, shown) = match read {
        Ok(board) => board,
        Err(refusal) => return refusal,
    };
    let seen = sticky_of(&shown).and_then(|sticky| Ok(legal(&shown, sticky)?));
    match seen {
        Ok(board) => Read::Board { grid, board },
        Err(e) => Read::Uncertain {
            grid,
            reason: e.reason,
            issues: e.cells,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_sunk_in_a_pit_is_a_class_of_its_own_and_reads_as_the_piece() {
        let level = Level::parse("sticky: no\n#R###\n#r.o#\n#...#\n#####\n").unwrap();
        let labels = labels_after(&level, "R").unwrap();
        assert_eq!(labels[1], ["#", ".", ".", "ro", "#"]);
        assert_eq!(labels_of(&level)[1], ["#", "r", ".", "o", "#"]);
        let seen = from_labels(&labels).unwrap();
        assert_eq!(seen.rows[1], "#..r#");
        let e = labels_after(&level, "RX").unwrap_err();
        assert!(e.contains("move 2 is 'X'"), "{e}");
        assert!(
            labels_after(&level, "L")
                .unwrap_err()
                .contains("changes nothing")
        );
    }

    #[test]
    fn a_sunk_piece_is_read_with_its_pit_under_it() {
        // Ice sinks in the pit with the red behind it; on the next R the
        // ice leaves and the red drops into the pit, which a read that
        // lost the pit would slide past.
        let level = Level::parse("sticky: no\n#R######\n#ri.o..#\n#......#\n########\n").unwrap();
        let labels = labels_after(&level, "R").unwrap();
        assert_eq!(labels[1][4], "io");
        let seen = from_labels(&labels).unwrap();
        assert_eq!(seen.rows[1], "#..ri..#");
        let read = Rules::new(&seen.level.unwrap());
        let truth = Rules::new(&level);
        let after = truth.play(&truth.start, Dir::R).unwrap().1;
        assert_eq!(read.start, after);
        let next = |r: &Rules, k: &Key| r.render_rows(&r.play(k, Dir::R).unwrap().1);
        assert_eq!(next(&read, &read.start), next(&truth, &after));
        assert_eq!(next(&truth, &after)[1], "#...r.i#");
    }

    #[test]
    fn a_class_of_no_skiddy_cell_is_refused_by_name() {
        let mut labels = labels_of(&Level::parse("#R###\n#r..#\n#####\n").unwrap());
        labels[1][2] = "h<".into();
        let e = from_labels(&labels).err().unwrap();
        assert_eq!(e.cells[0].cell, [1, 2]);
        for bad in ["ro#", "xo", "Ro", "#o", "q"] {
            assert!(shown_of_label(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn blocks_that_disagree_on_glue_name_the_odd_one() {
        let level = Level::parse("#R###\n#r..#\n#.#.#\n#####\n").unwrap();
        let mut labels = labels_of(&level);
        assert_eq!(labels[2][2], GLUED_BLOCK);
        labels[2][2] = "#".into();
        let e = from_labels(&labels).err().unwrap();
        assert!(e.reason.contains("sticky"), "{}", e.reason);
        assert_eq!(e.cells.len(), 1);
        assert_eq!(e.cells[0].cell, [2, 2]);
        // Half and half: the blocks with a stud are named, as no side is most.
        let mut labels = labels_of(&level);
        let blocks: Vec<[usize; 2]> = (0..labels.len())
            .flat_map(|r| (0..labels[r].len()).map(move |c| [r, c]))
            .filter(|&[r, c]| labels[r][c] == GLUED_BLOCK)
            .collect();
        let half = blocks.len() / 2;
        for &[r, c] in &blocks[..half] {
            labels[r][c] = "#".into();
        }
        let e = from_labels(&labels).err().unwrap();
        let named: Vec<[usize; 2]> = e.cells.iter().map(|c| c.cell).collect();
        assert_eq!(named, blocks[half..half * 2], "{e:?}");
        assert!(
            e.cells[0]
                .why
                .contains("has a glue stud, unlike the other half"),
            "{e:?}"
        );
    }
}
