//! The plain description of a sliding-blocks position ([`Layout`]) and its
//! text format, shared by every game built on the blocks engine.
//!
//! # Text format
//!
//! One character per cell, one line per row (GNOME Klotski's level strings,
//! cut into rows, paste as they are):
//!
//! - `#` wall; ` ` (space) or `_` free; `.` goal (any piece may enter);
//!   `-` door (only the special piece may enter);
//! - `*` the special piece; any other printable character is one piece
//!   (its cells must be 4-connected: a character in two separate groups is
//!   refused, naming the line);
//! - `%` starts a comment line (`%` is never a piece). A comment of the form
//!   `% key: value` is kept as the next level's metadata (`name`, `group`...).
//!
//! Width is the longest row; shorter rows are padded with free cells, since
//! editors strip trailing spaces. A row that is all free must be written
//! with `_` (a blank line ends a level). A file may hold several levels
//! separated by blank lines ([`parse_levels`]); [`Layout::parse`] takes
//! exactly one.
//!
//! A piece standing on a goal or a door hides that floor. To say it, follow
//! the rows with a line `% floor` and the same number of rows giving the
//! floor only (`#`, ` `/`_`, `.`, `-`): cells outside pieces must agree with
//! the first block. [`Layout::rows`] writes that block only when needed.
//!
//! Refused: no special piece, no goal cell, goal cells that no translate of
//! the special piece covers exactly, boards over [`MAX_CELLS`] cells.

use std::collections::BTreeMap;

/// The largest board the engine takes (19×19 and 17×22 fit).
pub const MAX_CELLS: usize = 384;

/// The most pieces a level may have (GNOME's largest has 68): the rules'
/// cell owners are bytes.
pub const MAX_PIECES: usize = 250;

/// What a board cell is, apart from the piece on it (GNOME's static characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Floor {
    Wall,
    Free,
    Goal,
    /// Only the special piece may enter.
    Door,
}

impl Floor {
    /// The character that writes this floor with no piece on it.
    pub fn symbol(self) -> char {
        match self {
            Floor::Wall => '#',
            Floor::Free => ' ',
            Floor::Goal => '.',
            Floor::Door => '-',
        }
    }

    fn from_char(c: char) -> Option<Floor> {
        Some(match c {
            '#' => Floor::Wall,
            ' ' | '_' => Floor::Free,
            '.' => Floor::Goal,
            '-' => Floor::Door,
            _ => return None,
        })
    }
}

/// One piece: its character, whether it is the special one (`*`), and its
/// cells as (row, col), sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    pub label: char,
    pub special: bool,
    pub cells: Vec<(usize, usize)>,
}

/// A position: the floor of every cell (row-major) and the pieces on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub width: usize,
    pub height: usize,
    pub floor: Vec<Floor>,
    pub pieces: Vec<PieceSpec>,
}

/// Why a text is not a level: where (origin and 1-based line) and what.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{origin}{}: {message}", line.map(|l| format!(", line {l}")).unwrap_or_default())]
pub struct LayoutError {
    pub origin: String,
    /// The line the problem is on, when it is on one.
    pub line: Option<usize>,
    pub message: String,
}

/// One level of a file: its `% key: value` comments and its layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub meta: BTreeMap<String, String>,
    /// The line its first row is on.
    pub line: usize,
    pub layout: Layout,
}

impl Entry {
    /// A metadata value (`name`, `group`...).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.meta.get(key).map(String::as_str)
    }
}

/// One level's lines before parsing: rows, optional floor rows.
#[derive(Default)]
struct Block<'t> {
    meta: BTreeMap<String, String>,
    rows: Vec<(usize, &'t str)>,
    floor: Option<Vec<(usize, &'t str)>>,
}

/// Cuts a file into level blocks (blank lines between them).
fn blocks<'t>(text: &'t str, origin: &str) -> Result<Vec<Block<'t>>, LayoutError> {
    let mut out = Vec::new();
    let mut cur = Block::default();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if let Some(comment) = line.strip_prefix('%') {
            let comment = comment.trim();
            if comment == "floor" {
                if cur.rows.is_empty() || cur.floor.is_some() {
                    return Err(err(
                        origin,
                        i + 1,
                        "`% floor` must follow a level's rows, once",
                    ));
                }
                cur.floor = Some(Vec::new());
            } else if let Some((k, v)) = comment.split_once(':') {
                if cur.rows.is_empty() {
                    cur.meta
                        .insert(k.trim().to_lowercase(), v.trim().to_string());
                }
            }
        } else if line.trim().is_empty() {
            if !cur.rows.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
        } else if let Some(f) = cur.floor.as_mut() {
            f.push((i + 1, line));
        } else {
            cur.rows.push((i + 1, line));
        }
    }
    if !cur.rows.is_empty() {
        out.push(cur);
    }
    Ok(out)
}

fn err(origin: &str, line: usize, message: impl Into<String>) -> LayoutError {
    LayoutError {
        origin: origin.to_string(),
        line: Some(line),
        message: message.into(),
    }
}

/// Parses every level of a file, in order.
pub fn parse_levels(text: &str, origin: &str) -> Result<Vec<Entry>, LayoutError> {
    blocks(text, origin)?
        .into_iter()
        .map(|b| {
            Ok(Entry {
                line: b.rows[0].0,
                layout: parse_block(&b, origin)?,
                meta: b.meta,
            })
        })
        .collect()
}

impl Layout {
    /// Parses one level; errors carry `origin` and the line.
    pub fn parse(text: &str, origin: &str) -> Result<Layout, LayoutError> {
        let found = blocks(text, origin)?;
        match found.as_slice() {
            [one] => parse_block(one, origin),
            [] => Err(LayoutError {
                origin: origin.to_string(),
                line: None,
                message: "no level here: no rows".into(),
            }),
            [_, second, ..] => Err(err(
                origin,
                second.rows[0].0,
                format!(
                    "a second level starts here ({} levels in all); give one level \
                     (an all-free row is written `_`, not left blank)",
                    found.len()
                ),
            )),
        }
    }

    /// The position in the text format; [`Layout::parse`] reads it back.
    pub fn rows(&self) -> Vec<String> {
        let mut grid: Vec<Vec<char>> = (0..self.height)
            .map(|r| {
                (0..self.width)
                    .map(|c| self.floor[r * self.width + c].symbol())
                    .collect()
            })
            .collect();
        let mut hidden = false;
        for p in &self.pieces {
            for &(r, c) in &p.cells {
                hidden |= self.floor[r * self.width + c] != Floor::Free;
                grid[r][c] = p.label;
            }
        }
        let mut out: Vec<String> = grid.iter().map(|row| free_row(row)).collect();
        if hidden {
            out.push("% floor".into());
            out.extend((0..self.height).map(|r| {
                free_row(
                    &self.floor[r * self.width..(r + 1) * self.width]
                        .iter()
                        .map(|f| f.symbol())
                        .collect::<Vec<_>>(),
                )
            }));
        }
        out
    }

    /// Adds free columns on the right up to `width` (a level whose
    /// trailing free cells an editor stripped).
    pub fn widen(&mut self, width: usize) {
        if width <= self.width {
            return;
        }
        let mut floor = Vec::with_capacity(width * self.height);
        for row in self.floor.chunks(self.width) {
            floor.extend_from_slice(row);
            floor.resize(floor.len() + width - self.width, Floor::Free);
        }
        self.floor = floor;
        self.width = width;
    }

    /// The floor at (row, col).
    pub fn floor_at(&self, r: usize, c: usize) -> Floor {
        self.floor[r * self.width + c]
    }

    /// The special piece.
    pub fn special(&self) -> Option<&PieceSpec> {
        self.pieces.iter().find(|p| p.special)
    }

    /// The goal cells, row-major.
    pub fn goal_cells(&self) -> Vec<(usize, usize)> {
        (0..self.height * self.width)
            .filter(|&i| self.floor[i] == Floor::Goal)
            .map(|i| (i / self.width, i % self.width))
            .collect()
    }
}

/// A row as text; an all-free row as `_`s, so it is not a blank line.
fn free_row(row: &[char]) -> String {
    if row.iter().all(|&c| c == ' ') {
        "_".repeat(row.len())
    } else {
        row.iter().collect()
    }
}

/// The cells of a grid of characters, padded to the longest row.
fn grid(rows: &[(usize, &str)], origin: &str) -> Result<(usize, Vec<Vec<char>>), LayoutError> {
    let width = rows
        .iter()
        .map(|(_, r)| r.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = Vec::with_capacity(rows.len());
    for &(line, row) in rows {
        let mut cells: Vec<char> = row.chars().collect();
        if let Some(c) = cells
            .iter()
            .find(|c| (c.is_whitespace() && **c != ' ') || **c == '%')
        {
            return Err(err(
                origin,
                line,
                format!("{c:?} cannot be a cell (`%` only starts a comment line; no tabs)"),
            ));
        }
        cells.resize(width, ' ');
        out.push(cells);
    }
    Ok((width, out))
}

fn parse_block(b: &Block, origin: &str) -> Result<Layout, LayoutError> {
    let (width, cells) = grid(&b.rows, origin)?;
    let height = cells.len();
    if width * height > MAX_CELLS {
        return Err(err(
            origin,
            b.rows[0].0,
            format!(
                "the board is {width}x{height} = {} cells; the engine takes at most {MAX_CELLS}",
                width * height
            ),
        ));
    }
    let mut floor = Vec::with_capacity(width * height);
    let mut owners: BTreeMap<char, Vec<(usize, usize)>> = BTreeMap::new();
    let mut order = Vec::new();
    for (r, row) in cells.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            match Floor::from_char(ch) {
                Some(f) => floor.push(f),
                None => {
                    floor.push(Floor::Free);
                    if !owners.contains_key(&ch) {
                        order.push(ch);
                    }
                    owners.entry(ch).or_default().push((r, c));
                }
            }
        }
    }
    let pieces = order
        .iter()
        .map(|&label| {
            let cells = owners.remove(&label).unwrap_or_default();
            check_connected(label, &cells, b, origin)?;
            Ok(PieceSpec {
                label,
                special: label == '*',
                cells,
            })
        })
        .collect::<Result<Vec<_>, LayoutError>>()?;
    if pieces.len() > MAX_PIECES {
        return Err(err(
            origin,
            b.rows[0].0,
            format!(
                "{} pieces; the engine takes at most {MAX_PIECES}",
                pieces.len()
            ),
        ));
    }
    let mut layout = Layout {
        width,
        height,
        floor,
        pieces,
    };
    if let Some(f) = &b.floor {
        let marker = b.rows.last().map_or(0, |r| r.0 + 1);
        apply_floor(&mut layout, f, marker, origin)?;
    }
    check_goal(&layout, b, origin)?;
    Ok(layout)
}

/// Refuses a piece whose cells are not one 4-connected group, naming the
/// line of the first cell outside the group of its first cell.
fn check_connected(
    label: char,
    cells: &[(usize, usize)],
    b: &Block,
    origin: &str,
) -> Result<(), LayoutError> {
    let mut seen = vec![false; cells.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        let (r, c) = cells[i];
        for (j, &(r2, c2)) in cells.iter().enumerate() {
            if !seen[j] && r.abs_diff(r2) + c.abs_diff(c2) == 1 {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    match seen.iter().position(|s| !s) {
        None => Ok(()),
        Some(j) => Err(err(
            origin,
            b.rows[cells[j].0].0,
            format!(
                "piece {label:?} is in two separate groups (row {}, col {} is not joined to \
                 row {}, col {}); give each piece its own character",
                cells[j].0 + 1,
                cells[j].1 + 1,
                cells[0].0 + 1,
                cells[0].1 + 1
            ),
        )),
    }
}

/// Reads the `% floor` block: the floor under pieces.
fn apply_floor(
    l: &mut Layout,
    rows: &[(usize, &str)],
    marker: usize,
    origin: &str,
) -> Result<(), LayoutError> {
    let (_, cells) = grid(rows, origin)?;
    if cells.len() != l.height {
        // The last floor row, or the `% floor` line when the block is empty.
        let line = rows.last().map_or(marker, |r| r.0);
        return Err(err(
            origin,
            line,
            format!(
                "the floor block has {} rows; the level has {}",
                cells.len(),
                l.height
            ),
        ));
    }
    // Which piece covers each cell, if any.
    let mut covered: Vec<Option<&PieceSpec>> = vec![None; l.width * l.height];
    for p in &l.pieces {
        for &(r, c) in &p.cells {
            covered[r * l.width + c] = Some(p);
        }
    }
    for (r, row) in cells.iter().enumerate() {
        let line = rows[r].0;
        for c in 0..l.width {
            let ch = row.get(c).copied().unwrap_or(' ');
            let Some(f) = Floor::from_char(ch) else {
                return Err(err(
                    origin,
                    line,
                    format!("{ch:?} is not a floor (`# _.-`)"),
                ));
            };
            let i = r * l.width + c;
            if let Some(p) = covered[i].filter(|p| !p.special && f == Floor::Door) {
                return Err(err(
                    origin,
                    line,
                    format!(
                        "col {}: piece {:?} stands on a door, which only the special piece may enter",
                        c + 1,
                        p.label
                    ),
                ));
            }
            if covered[i].is_some() && f != Floor::Wall {
                l.floor[i] = f;
            } else if f != l.floor[i] {
                return Err(err(
                    origin,
                    line,
                    format!(
                        "col {}: the floor says {:?} but the level has {:?} there",
                        c + 1,
                        f.symbol(),
                        l.floor[i].symbol()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The special piece exists and some translate of it covers the goal
/// cells exactly.
fn check_goal(l: &Layout, b: &Block, origin: &str) -> Result<(), LayoutError> {
    let first = b.rows[0].0;
    let Some(special) = l.special() else {
        return Err(err(
            origin,
            first,
            "no special piece `*`: nothing has to reach the goal",
        ));
    };
    let goal = l.goal_cells();
    if goal.is_empty() {
        return Err(err(origin, first, "no goal cell `.`"));
    }
    if normalise(&goal) != normalise(&special.cells) {
        return Err(err(
            origin,
            first,
            format!(
                "the {} goal cells are not the shape of the special piece ({} cells): \
                 no move can put it exactly on them",
                goal.len(),
                special.cells.len()
            ),
        ));
    }
    Ok(())
}

/// Cells moved so the top-left of their bounding box is (0, 0), sorted.
pub fn normalise(cells: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let r0 = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let c0 = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let mut v: Vec<_> = cells.iter().map(|&(r, c)| (r - r0, c - c0)).collect();
    v.sort_unstable();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    const RED_DONKEY: &str =
        "######\n#a**b#\n#a**b#\n#cdde#\n#cfge#\n#h  i#\n##--##\n    ..\n    ..\n";

    #[test]
    fn reads_gnome_rows_with_stripped_trailing_spaces() {
        let l = Layout::parse(RED_DONKEY, "t").unwrap();
        assert_eq!((l.width, l.height), (6, 9));
        assert_eq!(l.pieces.len(), 10);
        let s = l.special().unwrap();
        assert_eq!(s.cells, vec![(1, 2), (1, 3), (2, 2), (2, 3)]);
        assert_eq!(l.floor_at(6, 2), Floor::Door);
        assert_eq!(l.floor_at(7, 5), Floor::Goal);
        assert_eq!(l.floor_at(7, 0), Floor::Free);
        assert_eq!(Layout::parse(&l.rows().join("\n"), "t").unwrap(), l);
    }

    #[test]
    fn pads_short_rows_and_writes_free_rows_as_underscores() {
        let text = "#####\n#*  #\n_\n#.\n";
        let l = Layout::parse(text, "t").unwrap();
        assert_eq!(l.width, 5);
        assert!((0..5).all(|c| l.floor_at(2, c) == Floor::Free));
        let rows = l.rows();
        assert_eq!(rows[2], "_____");
        assert_eq!(Layout::parse(&rows.join("\n"), "t").unwrap(), l);
    }

    #[test]
    fn a_floor_block_says_what_lies_under_pieces() {
        let text = "####\n#*a#\n#  #\n% floor\n####\n#-.#\n#  #\n";
        let l = Layout::parse(text, "t").unwrap();
        assert_eq!(l.floor_at(1, 1), Floor::Door);
        assert_eq!(l.floor_at(1, 2), Floor::Goal);
        let rows = l.rows();
        assert_eq!(rows[3], "% floor");
        assert_eq!(Layout::parse(&rows.join("\n"), "t").unwrap(), l);
        let bad = "####\n#*a#\n#  #\n% floor\n####\n#-.#\n#..#\n";
        let e = Layout::parse(bad, "f.txt").unwrap_err();
        assert_eq!(e.line, Some(7), "{e}");
        // Only the special piece may stand on a door.
        let on_door = "####\n#*a#\n#  #\n% floor\n####\n#.-#\n#  #\n";
        let e = Layout::parse(on_door, "f.txt").unwrap_err();
        assert_eq!(e.line, Some(6), "{e}");
        assert!(e.to_string().contains("door"), "{e}");
        // An empty floor block is blamed on its `% floor` line.
        let empty = "####\n#*a#\n#. #\n% floor\n";
        let e = Layout::parse(empty, "f.txt").unwrap_err();
        assert_eq!(e.line, Some(4), "{e}");
    }

    #[test]
    fn errors_name_the_origin_and_line() {
        let e = Layout::parse("######\n#*aa.#\n#  a##\n#a   #\n", "lvl.txt").unwrap_err();
        assert_eq!(e.line, Some(4));
        assert!(
            e.to_string().starts_with("lvl.txt, line 4: piece 'a'"),
            "{e}"
        );
        let e = Layout::parse("####\n#ab#\n#..#\n", "x").unwrap_err();
        assert!(e.message.contains("no special piece"), "{e}");
        let e = Layout::parse("####\n#**#\n#  #\n", "x").unwrap_err();
        assert!(e.message.contains("no goal"), "{e}");
        let e = Layout::parse("####\n#**#\n#. #\n# .#\n", "x").unwrap_err();
        assert!(e.message.contains("not the shape"), "{e}");
        let e = Layout::parse("#\t*.#\n", "x").unwrap_err();
        assert_eq!(e.line, Some(1));
        let big = format!("*.{}\n", " ".repeat(20)).repeat(20);
        let e = Layout::parse(&big, "x").unwrap_err();
        assert!(e.message.contains("at most 384"), "{e}");
        let e = Layout::parse("#*.#\n\n#*.#\n", "two").unwrap_err();
        assert_eq!(e.line, Some(3));
    }

    #[test]
    fn files_hold_several_levels_with_metadata() {
        let text = "% A comment\n% name: One\n% group: 0\n#*.#\n\n% name: Two\n\n#*.#\n#  #\n";
        let v = parse_levels(text, "f").unwrap();
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].get("name"), Some("One"));
        assert_eq!(v[0].get("group"), Some("0"));
        assert_eq!(v[1].get("name"), Some("Two"));
        assert_eq!(v[1].line, 8);
        assert_eq!(v[1].layout.height, 2);
    }
}
