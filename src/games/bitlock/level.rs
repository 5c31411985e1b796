//! B.i.t.Lock maps, in the peer solver's format: one character per cell,
//! ragged rows padded with floor, cells outside the map are walls.
//!
//! | char | meaning |
//! |---|---|
//! | `#` | wall |
//! | `+` | fixed destroyer |
//! | `*` | moving destroyer |
//! | `a`–`m` | tiles of types A–M |
//! | `z`–`n` | reverse tiles of types A–M (`z` is A, `y` is B, …) |
//! | `A`–`M` | a target of that type, on floor (`N`–`Z` are refused: no tile has those types) |
//! | anything else | floor |
//!
//! Pushers (`=`, `>`, `<`) and `/` are rejected: their rules are not known yet.

/// What a cell of the map is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    Wall,
    Floor,
    /// A fixed destroyer: ordinary tiles that step on it are destroyed;
    /// moving destroyers cannot enter it.
    Destroyer,
}

/// A tile at the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Tile {
    /// Type, 0 for A.
    pub kind: u8,
    /// Steps against the move.
    pub reverse: bool,
    /// Grid cell, `row * cols + col`.
    pub cell: usize,
}

#[derive(Clone, Debug)]
pub struct Level {
    pub rows: usize,
    pub cols: usize,
    pub ground: Vec<Ground>,
    /// `(cell, type)` of each target.
    pub targets: Vec<(usize, u8)>,
    pub tiles: Vec<Tile>,
    /// Cells of the moving destroyers.
    pub movers: Vec<usize>,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum LevelError {
    #[error("line {line}, column {col}: {what} ({found:?}) are not supported yet")]
    Unsupported {
        line: usize,
        col: usize,
        found: char,
        what: &'static str,
    },
    #[error("the map is empty")]
    Empty,
    #[error("the map is {rows} rows by {cols} columns; the largest supported is 255 by 255")]
    TooLarge { rows: usize, cols: usize },
    #[error("the map has no targets (A-M): there is nothing to solve")]
    NoTargets,
    #[error("the map has no tiles (a-m, or reverse tiles n-z)")]
    NoTiles,
    #[error(
        "line {line}, column {col}: target {kind} has no tile of type {kind} to fill it (a {lower} tile, or the reverse {reverse})"
    )]
    NoTileForTarget {
        line: usize,
        col: usize,
        kind: char,
        lower: char,
        reverse: char,
    },
}

pub fn letter(kind: u8) -> char {
    char::from(b'A' + kind)
}

impl Level {
    pub fn parse(text: &str) -> Result<Level, LevelError> {
        // A one-line map (`--board`) has its rows joined by `/`, as the
        // other games' boards do; `/` as a piece is not supported anyway.
        let rows: Box<dyn Iterator<Item = &str>> = if text.trim_end().contains('\n') {
            Box::new(text.lines())
        } else {
            Box::new(text.trim_end().split('/'))
        };
        let lines: Vec<&str> = rows.map(|l| l.trim_end_matches('\r')).collect();
        // Trailing blank lines are not part of the map.
        let end = lines
            .iter()
            .rposition(|l| !l.trim().is_empty())
            .map_or(0, |i| i + 1);
        let lines = &lines[..end];
        let rows = lines.len();
        let cols = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        if rows == 0 || cols == 0 {
            return Err(LevelError::Empty);
        }
        if rows > 255 || cols > 255 {
            return Err(LevelError::TooLarge { rows, cols });
        }
        let mut level = Level {
            rows,
            cols,
            ground: vec![Ground::Floor; rows * cols],
            targets: Vec::new(),
            tiles: Vec::new(),
            movers: Vec::new(),
        };
        for (r, line) in lines.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                level.place(r, c, ch)?;
            }
        }
        level.check()?;
        level.tiles.sort();
        level.movers.sort();
        Ok(level)
    }

    /// Puts what `ch` stands for at row `r`, column `c`.
    fn place(&mut self, r: usize, c: usize, ch: char) -> Result<(), LevelError> {
        let cell = r * self.cols + c;
        let unsupported = |what| LevelError::Unsupported {
            line: r + 1,
            col: c + 1,
            found: ch,
            what,
        };
        match ch {
            '#' => self.ground[cell] = Ground::Wall,
            '+' => self.ground[cell] = Ground::Destroyer,
            '*' => self.movers.push(cell),
            'a'..='m' => self.tiles.push(Tile {
                kind: ch as u8 - b'a',
                reverse: false,
                cell,
            }),
            'n'..='z' => self.tiles.push(Tile {
                kind: b'z' - ch as u8,
                reverse: true,
                cell,
            }),
            'A'..='M' => self.targets.push((cell, ch as u8 - b'A')),
            'N'..='Z' => return Err(unsupported("targets past M (tile types run from A to M)")),
            '=' | '>' | '<' => return Err(unsupported("pushers")),
            '/' => return Err(unsupported("slashes")),
            _ => {}
        }
        Ok(())
    }

    /// A level needs targets, tiles, and a tile for every target's type.
    pub fn check(&self) -> Result<(), LevelError> {
        if self.targets.is_empty() {
            return Err(LevelError::NoTargets);
        }
        if self.tiles.is_empty() {
            return Err(LevelError::NoTiles);
        }
        for &(cell, kind) in &self.targets {
            if !self.tiles.iter().any(|t| t.kind == kind) {
                return Err(LevelError::NoTileForTarget {
                    line: cell / self.cols + 1,
                    col: cell % self.cols + 1,
                    kind: letter(kind),
                    lower: char::from(b'a' + kind),
                    reverse: if kind < 13 {
                        char::from(b'z' - kind)
                    } else {
                        '-'
                    },
                });
            }
        }
        Ok(())
    }

    /// The cell one step from `cell` in direction `(dr, dc)`, if on the map.
    pub fn neighbour(&self, cell: usize, dr: i64, dc: i64) -> Option<usize> {
        let (r, c) = (
            (cell / self.cols) as i64 + dr,
            (cell % self.cols) as i64 + dc,
        );
        (r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.cols)
            .then(|| r as usize * self.cols + c as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_kind_of_cell() {
        let l = Level::parse("#####\n#az+#\n#*AA\n#####\n").unwrap();
        assert_eq!((l.rows, l.cols), (4, 5));
        assert_eq!(
            l.tiles,
            vec![
                Tile {
                    kind: 0,
                    reverse: false,
                    cell: 6
                },
                Tile {
                    kind: 0,
                    reverse: true,
                    cell: 7
                }
            ]
        );
        assert_eq!(l.ground[8], Ground::Destroyer);
        assert_eq!(l.movers, vec![11]);
        assert_eq!(l.targets, vec![(12, 0), (13, 0)]);
        // The ragged third row is padded with floor.
        assert_eq!(l.ground[14], Ground::Floor);
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(
            Level::parse("####\n#a=A#\n").unwrap_err(),
            LevelError::Unsupported {
                line: 2,
                col: 3,
                found: '=',
                what: "pushers"
            }
        );
        assert!(matches!(
            Level::parse("#a/A#\n#####").unwrap_err(),
            LevelError::Unsupported { col: 3, .. }
        ));
        // On one line, `/` joins rows, as in `--board`.
        let one_line = Level::parse("#a/A#").unwrap();
        assert_eq!((one_line.rows, one_line.cols), (2, 2));
        assert!(matches!(
            Level::parse("#aZ#").unwrap_err(),
            LevelError::Unsupported { col: 3, .. }
        ));
        assert_eq!(Level::parse("#a#").unwrap_err(), LevelError::NoTargets);
        assert_eq!(Level::parse("#A#").unwrap_err(), LevelError::NoTiles);
        assert!(matches!(
            Level::parse("#ab\n#AC").unwrap_err(),
            LevelError::NoTileForTarget {
                line: 2,
                col: 3,
                kind: 'C',
                ..
            }
        ));
        assert_eq!(Level::parse("\n\n").unwrap_err(), LevelError::Empty);
    }
}
