//! Continuity levels as text.
//!
//! ```text
//! # comments start with '#' (a whole line)
//! jump 2          # optional headers: `jump J` (rise, default 2),
//! name Warm-up    #   `size S` (checked against the blocks), `name …`
//! AB              # the frame: R rows of C letters (2..=4 each), one '.'
//! C.              #   for the empty slot; each letter names one scene
//!
//! A:              # one block per scene: `X:` then S rows of S cells
//! ....
//! .@..
//! ##..
//! ....
//! B:
//! …
//! ```
//!
//! Cells: `#` solid, `.` air, `k` key, `D` door, `@` the start (exactly
//! one in the level; it is air). Every scene is S×S (S from 2 to 16, the
//! same for all; 8 in the bundled levels). Scenes are numbered 1.. in the
//! frame's reading order: that number is the scene's tile in
//! [`crate::engines::tiles::Tiles`], whose gap (0) is the empty slot. Keys are
//! numbered in scene order, then row by row. Errors say the line.

use std::fmt;

use crate::engines::tiles::Tiles;

/// The most keys a level may hold (the state keeps them in a `u16`).
pub const MAX_KEYS: usize = 16;
/// The default rise of a jump.
pub const DEFAULT_JUMP: u8 = 2;

/// One cell of a scene. The start is air.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Solid,
    Air,
    Key,
    Door,
}

impl Cell {
    /// Whether the character may move into it: everything but solid.
    pub fn enterable(self) -> bool {
        self != Cell::Solid
    }

    pub fn char(self) -> char {
        match self {
            Cell::Solid => '#',
            Cell::Air => '.',
            Cell::Key => 'k',
            Cell::Door => 'D',
        }
    }
}

/// A cell inside a scene: the scene's tile number (1..) and its column
/// and row (0 at the top left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Spot {
    pub scene: u8,
    pub x: u8,
    pub y: u8,
}

/// One S×S scene, row by row from the top left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    pub name: char,
    pub cells: Vec<Cell>,
}

/// A whole level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub name: Option<String>,
    /// Frame rows and columns.
    pub rows: usize,
    pub cols: usize,
    /// The side of every scene, in cells.
    pub size: usize,
    /// How many cells a jump rises.
    pub jump: u8,
    /// Scene `n` (its tile number) is `scenes[n - 1]`.
    pub scenes: Vec<Scene>,
    /// The starting arrangement.
    pub frame: Tiles,
    pub start: Spot,
    /// Every key, by number.
    pub keys: Vec<Spot>,
}

/// Why a level's text is wrong, with the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    #[error("line {line}: {what}")]
    At { line: usize, what: String },
    #[error("{0}")]
    Level(String),
}

fn at(line: usize, what: impl Into<String>) -> LevelError {
    LevelError::At {
        line,
        what: what.into(),
    }
}

impl Level {
    /// The cell of a scene (by tile number) at column `x`, row `y`.
    pub fn cell(&self, scene: u8, x: usize, y: usize) -> Cell {
        self.scenes[usize::from(scene) - 1].cells[y * self.size + x]
    }

    /// The key numbered at a spot, if it holds one.
    pub fn key_at(&self, spot: Spot) -> Option<usize> {
        self.keys.iter().position(|k| *k == spot)
    }

    /// The scene's letter, by tile number.
    pub fn scene_name(&self, scene: u8) -> char {
        self.scenes[usize::from(scene) - 1].name
    }

    /// Reads a level (see the module doc).
    pub fn parse(text: &str) -> Result<Level, LevelError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, strip_comment(l)))
            .collect();
        let mut it = lines.iter().filter(|(_, l)| !l.is_empty()).peekable();
        let mut head = Header::default();
        while let Some((n, l)) = it.peek() {
            if !head.read(*n, l)? {
                break;
            }
            it.next();
        }
        let mut layout: Vec<Line> = Vec::new();
        while let Some((n, l)) = it.peek() {
            if l.ends_with(':') {
                break;
            }
            layout.push((*n, l));
            it.next();
        }
        let mut blocks: Vec<Block> = Vec::new();
        for (n, l) in it {
            if let Some(name) = block_name(l) {
                blocks.push((*n, name, Vec::new()));
            } else if let Some(b) = blocks.last_mut() {
                b.2.push((*n, l));
            } else {
                return Err(at(*n, format!("{l:?}: expected a scene block `X:`")));
            }
        }
        assemble(head, &layout, &blocks)
    }
}

/// A line without its `#` comment… except that `#` is also a solid cell:
/// a comment is a line whose first non-blank character is `#` followed by
/// a space or nothing, or text after ` #` on a header line.
fn strip_comment(line: &str) -> &str {
    let t = line.trim();
    if t == "#" || t.starts_with("# ") {
        return "";
    }
    match t.find(" #") {
        Some(i) => t[..i].trim_end(),
        None => t,
    }
}

/// A text line and its number.
type Line<'t> = (usize, &'t str);

/// A scene block: the line of its `X:` header, its letter, its rows.
type Block<'t> = (usize, char, Vec<Line<'t>>);

/// Where a start `@` was written: line, column, row.
type StartAt = (usize, usize, usize);

fn block_name(line: &str) -> Option<char> {
    let mut cs = line.chars();
    let (Some(c), Some(':'), None) = (cs.next(), cs.next(), cs.next()) else {
        return None;
    };
    c.is_ascii_uppercase().then_some(c)
}

/// The jump a `jump J` header line gives, read as a level reads its
/// headers; `None` for any other line.
pub fn jump_header(line: &str) -> Option<u8> {
    let mut head = Header::default();
    match head.read(1, line) {
        Ok(true) => head.jump,
        _ => None,
    }
}

#[derive(Default)]
struct Header {
    name: Option<String>,
    size: Option<(usize, usize)>,
    jump: Option<u8>,
}

impl Header {
    /// Reads one header line; `false` when the line is not a header.
    fn read(&mut self, n: usize, line: &str) -> Result<bool, LevelError> {
        let Some((key, value)) = line.split_once(' ') else {
            return Ok(false);
        };
        let value = value.trim();
        let number = |max: usize| {
            value
                .parse::<usize>()
                .ok()
                .filter(|v| (1..=max).contains(v))
                .ok_or_else(|| {
                    at(
                        n,
                        format!("{key} {value:?}: expected a number from 1 to {max}"),
                    )
                })
        };
        match key {
            "name" => self.name = Some(value.to_string()),
            "jump" => self.jump = Some(number(15)? as u8),
            "size" => self.size = Some((n, number(16)?)),
            _ => return Err(at(n, format!("unknown header {key:?} (name, jump, size)"))),
        }
        Ok(true)
    }
}

/// The frame's letters, row by row, and where the gap is.
fn read_layout(layout: &[Line]) -> Result<(usize, usize, Vec<Option<char>>), LevelError> {
    let Some(&(first, row0)) = layout.first() else {
        return Err(LevelError::Level(
            "no frame: the text has no layout rows".into(),
        ));
    };
    let cols = row0.chars().count();
    let rows = layout.len();
    if !(2..=4).contains(&rows) || !(2..=4).contains(&cols) {
        return Err(at(
            first,
            format!("the frame is {rows}x{cols}: frames have 2 to 4 rows and columns"),
        ));
    }
    let mut slots = Vec::new();
    for &(n, row) in layout {
        if row.chars().count() != cols {
            return Err(at(n, format!("frame row {row:?} is not {cols} wide")));
        }
        for c in row.chars() {
            match c {
                '.' => slots.push(None),
                'A'..='Z' if !slots.contains(&Some(c)) => slots.push(Some(c)),
                'A'..='Z' => return Err(at(n, format!("scene {c} is in the frame twice"))),
                _ => {
                    return Err(at(
                        n,
                        format!("{c:?} in the frame: use letters A-Z and one '.'"),
                    ));
                }
            }
        }
    }
    let gaps = slots.iter().filter(|s| s.is_none()).count();
    if gaps != 1 {
        return Err(at(
            first,
            format!("the frame has {gaps} empty slots, not exactly one"),
        ));
    }
    Ok((rows, cols, slots))
}

/// One scene's rows: the cells, and the start if it is there.
fn read_scene(
    name: char,
    header: usize,
    rows: &[Line],
    size: usize,
) -> Result<(Vec<Cell>, Vec<StartAt>), LevelError> {
    if rows.len() != size {
        return Err(at(
            header,
            format!("scene {name} has {} rows, not {size}", rows.len()),
        ));
    }
    let mut cells = Vec::with_capacity(size * size);
    let mut starts = Vec::new();
    for (y, &(n, row)) in rows.iter().enumerate() {
        if row.chars().count() != size {
            return Err(at(
                n,
                format!("scene {name}: row {row:?} is not {size} wide"),
            ));
        }
        for (x, c) in row.chars().enumerate() {
            cells.push(match c {
                '#' => Cell::Solid,
                '.' => Cell::Air,
                'k' => Cell::Key,
                'D' => Cell::Door,
                '@' => {
                    starts.push((n, x, y));
                    Cell::Air
                }
                _ => return Err(at(n, format!("{c:?} is not a cell: # . k D @"))),
            });
        }
    }
    Ok((cells, starts))
}

fn assemble(head: Header, layout: &[Line], blocks: &[Block]) -> Result<Level, LevelError> {
    let (rows, cols, slots) = read_layout(layout)?;
    let order: Vec<char> = slots.iter().flatten().copied().collect();
    let size = blocks.first().map_or(0, |b| b.2.len());
    if let Some((n, s)) = head.size.filter(|(_, s)| *s != size) {
        return Err(at(
            n,
            format!("size {s}, but the first scene has {size} rows"),
        ));
    }
    if !(2..=16).contains(&size) {
        return Err(LevelError::Level(format!(
            "scenes are {size} cells wide: they must be 2 to 16"
        )));
    }
    let mut scenes: Vec<Option<Scene>> = vec![None; order.len()];
    let mut starts = Vec::new();
    for (header, name, rows) in blocks {
        let Some(i) = order.iter().position(|c| c == name) else {
            return Err(at(*header, format!("scene {name} is not in the frame")));
        };
        if scenes[i].is_some() {
            return Err(at(*header, format!("scene {name} is given twice")));
        }
        let (cells, s) = read_scene(*name, *header, rows, size)?;
        starts.extend(s.into_iter().map(|(n, x, y)| (n, i, x, y)));
        scenes[i] = Some(Scene { name: *name, cells });
    }
    let scenes: Vec<Scene> = scenes
        .into_iter()
        .zip(&order)
        .map(|(s, name)| s.ok_or_else(|| LevelError::Level(format!("scene {name} has no block"))))
        .collect::<Result<_, _>>()?;
    let start = match starts.as_slice() {
        [(_, i, x, y)] => spot(*i, *x, *y),
        [] => return Err(LevelError::Level("no start: put one '@' in a scene".into())),
        [_, (n, ..), ..] => return Err(at(*n, "a second start '@': the level has exactly one")),
    };
    let tiles: Vec<u8> = {
        let mut next = 0u8;
        slots
            .iter()
            .map(|s| {
                s.map_or(0, |_| {
                    next += 1;
                    next
                })
            })
            .collect()
    };
    let frame = Tiles::new(cols, rows, &tiles).map_err(|e| LevelError::Level(e.to_string()))?;
    finish(head, rows, cols, size, scenes, frame, start)
}

fn spot(scene_index: usize, x: usize, y: usize) -> Spot {
    Spot {
        scene: scene_index as u8 + 1,
        x: x as u8,
        y: y as u8,
    }
}

fn finish(
    head: Header,
    rows: usize,
    cols: usize,
    size: usize,
    scenes: Vec<Scene>,
    frame: Tiles,
    start: Spot,
) -> Result<Level, LevelError> {
    let mut keys = Vec::new();
    let mut doors = 0;
    for (i, s) in scenes.iter().enumerate() {
        for (j, c) in s.cells.iter().enumerate() {
            match c {
                Cell::Key => keys.push(spot(i, j % size, j / size)),
                Cell::Door => doors += 1,
                _ => {}
            }
        }
    }
    if keys.len() > MAX_KEYS {
        return Err(LevelError::Level(format!(
            "{} keys: a level holds at most {MAX_KEYS}",
            keys.len()
        )));
    }
    if doors == 0 {
        return Err(LevelError::Level("no door: put a 'D' in a scene".into()));
    }
    Ok(Level {
        name: head.name,
        rows,
        cols,
        size,
        jump: head.jump.unwrap_or(DEFAULT_JUMP),
        scenes,
        frame,
        start,
        keys,
    })
}

/// The level in its own format (the start arrangement), so that
/// `Level::parse(&level.to_string())` gives it back.
impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(name) = &self.name {
            writeln!(f, "name {name}")?;
        }
        writeln!(f, "jump {}", self.jump)?;
        for r in 0..self.rows {
            let row: String = (0..self.cols)
                .map(|c| match self.frame.get(r * self.cols + c) {
                    0 => '.',
                    v => self.scene_name(v),
                })
                .collect();
            writeln!(f, "{row}")?;
        }
        for (i, s) in self.scenes.iter().enumerate() {
            writeln!(f, "\n{}:", s.name)?;
            for y in 0..self.size {
                let row: String = (0..self.size)
                    .map(|x| {
                        if spot(i, x, y) == self.start {
                            '@'
                        } else {
                            s.cells[y * self.size + x].char()
                        }
                    })
                    .collect();
                writeln!(f, "{row}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "\
# two scenes side by side, the gap and a third below
jump 1
AB
.C

A:
...
@.k
###
B:
...
...
#..
C:
..D
...
###
";

    #[test]
    fn reads_and_writes_back() {
        let l = Level::parse(SMALL).unwrap();
        assert_eq!((l.rows, l.cols, l.size, l.jump), (2, 2, 3, 1));
        assert_eq!(l.frame.slots(), vec![1, 2, 0, 3]);
        assert_eq!(
            l.start,
            Spot {
                scene: 1,
                x: 0,
                y: 1
            }
        );
        assert_eq!(
            l.keys,
            vec![Spot {
                scene: 1,
                x: 2,
                y: 1
            }]
        );
        assert_eq!(l.cell(3, 2, 0), Cell::Door);
        assert_eq!(l.cell(1, 0, 1), Cell::Air);
        assert_eq!(Level::parse(&l.to_string()).unwrap(), l);
    }

    #[test]
    fn errors_say_the_line() {
        let two_gaps = SMALL.replace("AB\n.C", "A.\n.C");
        let e = Level::parse(&two_gaps).unwrap_err().to_string();
        assert!(e.contains("line 3") && e.contains("2 empty slots"), "{e}");
        let bad_cell = SMALL.replace("#..", "#x.");
        let e = Level::parse(&bad_cell).unwrap_err().to_string();
        assert!(e.contains("line 13") && e.contains("'x'"), "{e}");
        let short = SMALL.replace("..D\n", "");
        let e = Level::parse(&short).unwrap_err().to_string();
        assert!(e.contains("scene C has 2 rows"), "{e}");
        let two_starts = SMALL.replace("#..", "#.@");
        let e = Level::parse(&two_starts).unwrap_err().to_string();
        assert!(e.contains("line 13") && e.contains("second start"), "{e}");
        let e = Level::parse(&SMALL.replace("..D", "...")).unwrap_err();
        assert!(e.to_string().contains("no door"));
        let e = Level::parse(&SMALL.replace("jump 1", "jump x")).unwrap_err();
        assert!(e.to_string().contains("line 2"), "{e}");
        let e = Level::parse(&SMALL.replace("C:", "E:")).unwrap_err();
        assert!(e.to_string().contains("scene E is not in the frame"), "{e}");
    }
}
