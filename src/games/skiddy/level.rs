//! Skiddy levels as text: one row per line, one character per cell.
//!
//! Lines starting with `;` are comments and blank lines are skipped. The
//! first other line may be `sticky: yes` or `sticky: no` (default `yes`;
//! case and spaces around the colon are forgiven).
//!
//! | char | meaning |
//! |---|---|
//! | `#` | block |
//! | `.` | empty floor |
//! | `r` `b` `g` `y` | a skiddy: red, blue, green, yellow |
//! | `R` `B` `G` `Y` | a goal of that colour (on the outer ring only) |
//! | `c` | crate |
//! | `i` | ice cube |
//! | `o` | pit |
//!
//! The board is 3×3 to 16×16 cells, every row as wide as the first. The
//! outer ring holds only blocks and goals (a goal in a corner is allowed,
//! though nothing can reach it); inside the ring any cell may be anything
//! but a goal. Trailing spaces and `\r` are ignored. A level needs at
//! least one skiddy, and at most [`MAX_PIECES`] pieces that move.

use super::rules::MAX_PIECES;

/// The largest board side.
pub const MAX_SIDE: usize = 16;
/// The smallest board side: a ring around one cell.
pub const MIN_SIDE: usize = 3;

/// A skiddy's colour, in the order the state key stores them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Colour {
    Red,
    Blue,
    Green,
    Yellow,
}

impl Colour {
    pub const ALL: [Colour; 4] = [Colour::Red, Colour::Blue, Colour::Green, Colour::Yellow];

    /// 0 for red … 3 for yellow.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The skiddy's letter (`r`); its goal is the capital.
    pub fn letter(self) -> char {
        ['r', 'b', 'g', 'y'][self.index()]
    }

    fn from_letter(c: char) -> Option<Colour> {
        Colour::ALL
            .into_iter()
            .find(|k| k.letter() == c.to_ascii_lowercase())
    }
}

/// What a cell is made of; pieces move over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    Floor,
    Block,
    Goal(Colour),
    Pit,
}

/// A piece that may move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Piece {
    Skiddy(Colour),
    Crate,
    Ice,
}

impl Piece {
    pub fn letter(self) -> char {
        match self {
            Piece::Skiddy(c) => c.letter(),
            Piece::Crate => 'c',
            Piece::Ice => 'i',
        }
    }
}

/// A parsed level: the ground, and where each piece starts.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub width: usize,
    pub height: usize,
    /// `row * width + col`.
    pub ground: Vec<Ground>,
    /// Each piece and its start cell, in reading order.
    pub pieces: Vec<(Piece, usize)>,
    pub sticky: bool,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum LevelError {
    #[error("line {line}: expected `sticky: yes` or `sticky: no`, found {found:?}")]
    Sticky { line: usize, found: String },
    #[error(
        "line {line}, column {col}: unknown cell {found:?} (expected one of # . r b g y R B G Y c i o)"
    )]
    UnknownCell {
        line: usize,
        col: usize,
        found: char,
    },
    #[error("line {line}: the row is {found} cells wide, but the first row is {expected}")]
    Ragged {
        line: usize,
        found: usize,
        expected: usize,
    },
    #[error("the level has no rows")]
    Empty,
    #[error("the board is {width}x{height}; each side must be {MIN_SIDE} to {MAX_SIDE} cells")]
    Size { width: usize, height: usize },
    #[error(
        "line {line}, column {col}: the outer ring holds only blocks and goals, found {found:?}"
    )]
    Ring {
        line: usize,
        col: usize,
        found: char,
    },
    #[error(
        "line {line}, column {col}: goal {found:?} is inside the board; goals sit on the outer ring only"
    )]
    InnerGoal {
        line: usize,
        col: usize,
        found: char,
    },
    #[error("the level has no skiddy (r b g y): there is nothing to play")]
    NoSkiddy,
    #[error("the level has {found} moving pieces; at most {MAX_PIECES} are supported")]
    TooManyPieces { found: usize },
}

/// One cell as read: its ground and the piece on it.
fn cell(c: char) -> Option<(Ground, Option<Piece>)> {
    Some(match c {
        '#' => (Ground::Block, None),
        '.' => (Ground::Floor, None),
        'o' => (Ground::Pit, None),
        'c' => (Ground::Floor, Some(Piece::Crate)),
        'i' => (Ground::Floor, Some(Piece::Ice)),
        'r' | 'b' | 'g' | 'y' => (Ground::Floor, Some(Piece::Skiddy(Colour::from_letter(c)?))),
        'R' | 'B' | 'G' | 'Y' => (Ground::Goal(Colour::from_letter(c)?), None),
        _ => return None,
    })
}

/// Reads `sticky: yes|no`, or `None` when the line is not a sticky line.
fn sticky_line(line: &str, number: usize) -> Result<Option<bool>, LevelError> {
    // Case and spaces are forgiven; a value other than yes or no is not.
    let lower = line.to_ascii_lowercase();
    let Some(rest) = lower.strip_prefix("sticky") else {
        return Ok(None);
    };
    match rest.trim_start().strip_prefix(':').map(str::trim) {
        Some("yes") => Ok(Some(true)),
        Some("no") => Ok(Some(false)),
        _ => Err(LevelError::Sticky {
            line: number,
            found: line.to_string(),
        }),
    }
}

impl Level {
    pub fn parse(text: &str) -> Result<Level, LevelError> {
        // A level on one line (`--board`) has its rows joined by `/`.
        let split: Vec<&str> = if text.trim().contains('\n') {
            text.lines().collect()
        } else {
            text.trim().split('/').collect()
        };
        let mut lines = split
            .into_iter()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with(';'))
            .peekable();
        let mut sticky = true;
        if let Some(&(n, first)) = lines.peek()
            && let Some(s) = sticky_line(first, n)?
        {
            sticky = s;
            lines.next();
        }
        let rows: Vec<(usize, &str)> = lines.collect();
        let width = rows.first().ok_or(LevelError::Empty)?.1.chars().count();
        let height = rows.len();
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return Err(LevelError::Size { width, height });
        }
        let mut level = Level {
            width,
            height,
            ground: Vec::with_capacity(width * height),
            pieces: Vec::new(),
            sticky,
        };
        for (r, &(line, row)) in rows.iter().enumerate() {
            level.read_row(r, line, row)?;
        }
        level.check_pieces()?;
        Ok(level)
    }

    fn read_row(&mut self, r: usize, line: usize, row: &str) -> Result<(), LevelError> {
        let found = row.chars().count();
        if found != self.width {
            return Err(LevelError::Ragged {
                line,
                found,
                expected: self.width,
            });
        }
        for (c, ch) in row.chars().enumerate() {
            let col = c + 1;
            let (ground, piece) = cell(ch).ok_or(LevelError::UnknownCell {
                line,
                col,
                found: ch,
            })?;
            let on_ring = r == 0 || c == 0 || r + 1 == self.height || c + 1 == self.width;
            match ground {
                Ground::Block => {}
                Ground::Goal(_) if !on_ring => {
                    return Err(LevelError::InnerGoal {
                        line,
                        col,
                        found: ch,
                    });
                }
                Ground::Goal(_) => {}
                _ if on_ring => {
                    return Err(LevelError::Ring {
                        line,
                        col,
                        found: ch,
                    });
                }
                _ => {}
            }
            let at = self.ground.len();
            self.ground.push(ground);
            if let Some(p) = piece {
                self.pieces.push((p, at));
            }
        }
        Ok(())
    }

    fn check_pieces(&self) -> Result<(), LevelError> {
        if !self
            .pieces
            .iter()
            .any(|(p, _)| matches!(p, Piece::Skiddy(_)))
        {
            return Err(LevelError::NoSkiddy);
        }
        if self.pieces.len() > MAX_PIECES {
            return Err(LevelError::TooManyPieces {
                found: self.pieces.len(),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_comments_sticky_and_every_cell_kind() {
        let text = "; a comment\nsticky: no\n; another\n#R###\n#rco#\n#i.b#\n###B#\n";
        let l = Level::parse(text).unwrap();
        assert!(!l.sticky);
        assert_eq!((l.width, l.height), (5, 4));
        assert_eq!(l.ground[1], Ground::Goal(Colour::Red));
        assert_eq!(l.ground[8], Ground::Pit);
        assert_eq!(
            l.pieces,
            vec![
                (Piece::Skiddy(Colour::Red), 6),
                (Piece::Crate, 7),
                (Piece::Ice, 11),
                (Piece::Skiddy(Colour::Blue), 13)
            ]
        );
        assert!(Level::parse("#R#\n#r#\n###\n").unwrap().sticky);
        assert!(Level::parse("sticky: yes\n#R#\n#r#\n###\n").unwrap().sticky);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = |t: &str| Level::parse(t).unwrap_err();
        assert_eq!(
            e("; c\n#R##\n#rx#\n####\n"),
            LevelError::UnknownCell {
                line: 3,
                col: 3,
                found: 'x'
            }
        );
        assert_eq!(
            e("#R##\n#r.\n####\n"),
            LevelError::Ragged {
                line: 2,
                found: 3,
                expected: 4
            }
        );
        assert_eq!(
            e("#R##\n.r.#\n####\n"),
            LevelError::Ring {
                line: 2,
                col: 1,
                found: '.'
            }
        );
        assert_eq!(
            e("####\n#rR#\n####\n"),
            LevelError::InnerGoal {
                line: 2,
                col: 3,
                found: 'R'
            }
        );
        assert!(matches!(
            e("sticky: maybe\n#R#\n#r#\n###\n"),
            LevelError::Sticky { line: 1, .. }
        ));
        assert_eq!(e("#R#\n#.#\n###\n"), LevelError::NoSkiddy);
        assert_eq!(e("; only\n"), LevelError::Empty);
        assert!(matches!(e("#R\n#r\n##\n"), LevelError::Size { .. }));
        let wide = format!(
            "{}\n{}\n{}\n",
            "#".repeat(17),
            "#r".repeat(8) + "#",
            "#".repeat(17)
        );
        assert!(matches!(e(&wide), LevelError::Size { width: 17, .. }));
        assert!(e(&wide).to_string().contains("3 to 16"));
    }

    #[test]
    fn the_largest_board_and_the_piece_limit() {
        let ring = "#".repeat(16);
        let inner = format!("#{}#", "r".repeat(14));
        let mut t = format!("{ring}\n");
        for _ in 0..14 {
            t.push_str(&inner);
            t.push('\n');
        }
        t.push_str(&ring);
        assert!(matches!(
            Level::parse(&t),
            Err(LevelError::TooManyPieces { found: 196 })
        ));
        let t = t.replace('r', ".").replacen('.', "r", 1);
        assert_eq!(Level::parse(&t).unwrap().width, 16);
    }
}
