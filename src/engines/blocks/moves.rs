//! Moves as the player makes them: a piece, the cell pressed, and the path
//! of one-cell steps it follows ([`Move`], written `a:DR`), and the two ways
//! of counting them ([`Metric`]).

use std::fmt;

/// One step of a piece, by one cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Dir {
    Up,
    Down,
    Left,
    Right,
}

impl Dir {
    /// In the order floods try them (fixed, so plans are reproducible).
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    pub fn from_letter(c: char) -> Option<Dir> {
        Some(match c.to_ascii_uppercase() {
            'U' => Dir::Up,
            'D' => Dir::Down,
            'L' => Dir::Left,
            'R' => Dir::Right,
            _ => return None,
        })
    }

    /// (row, col) change.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        }
    }

    /// The word for scripts (`"down"`).
    pub fn word(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::Left => "left",
            Dir::Right => "right",
        }
    }
}

/// The directions a piece may move in: any (Klotski), or along one line
/// (Rush Hour's cars).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Axis {
    #[default]
    Any,
    Horizontal,
    Vertical,
}

impl Axis {
    pub fn allows(self, d: Dir) -> bool {
        match self {
            Axis::Any => true,
            Axis::Horizontal => matches!(d, Dir::Left | Dir::Right),
            Axis::Vertical => matches!(d, Dir::Up | Dir::Down),
        }
    }
}

/// How plans are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// One cell per move.
    Steps,
    /// One piece per move, along any path (GNOME's counter).
    #[default]
    Pieces,
}

impl Metric {
    pub fn name(self) -> &'static str {
        match self {
            Metric::Steps => "steps",
            Metric::Pieces => "pieces",
        }
    }

    /// How many cells one move may carry a piece: one step, or any path.
    pub fn reach(self) -> u32 {
        match self {
            Metric::Steps => 1,
            Metric::Pieces => u32::MAX,
        }
    }
}

/// One move as the player makes it: press on `grab` (a cell of the piece
/// before the move, row/col), follow `path`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Move {
    pub label: char,
    pub grab: (usize, usize),
    pub path: Vec<Dir>,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:", self.label)?;
        for d in &self.path {
            write!(f, "{}", d.letter())?;
        }
        Ok(())
    }
}

/// A move as typed, `a:DR`: the piece's label and its path. The grab cell
/// is the position's business ([`super::plan::apply`] fills it in).
pub fn parse_move(text: &str) -> Result<(char, Vec<Dir>), String> {
    let text = text.trim();
    let mut chars = text.chars();
    let (Some(label), Some(':')) = (chars.next(), chars.next()) else {
        return Err(format!(
            "{text:?} is not a move: write the piece, `:`, then U/D/L/R steps (`a:DR`)"
        ));
    };
    let path = chars
        .map(|c| Dir::from_letter(c).ok_or_else(|| format!("{text:?}: {c:?} is not U, D, L or R")))
        .collect::<Result<Vec<_>, _>>()?;
    if path.is_empty() {
        return Err(format!("{text:?} has no steps"));
    }
    Ok((label, path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_print_and_parse_the_same() {
        let m = Move {
            label: ':',
            grab: (2, 3),
            path: vec![Dir::Down, Dir::Right],
        };
        assert_eq!(m.to_string(), "::DR");
        assert_eq!(
            parse_move("::DR").unwrap(),
            (':', vec![Dir::Down, Dir::Right])
        );
        assert_eq!(parse_move(" a:u ").unwrap(), ('a', vec![Dir::Up]));
        assert!(parse_move("a:").is_err());
        assert!(parse_move("aD").is_err());
        assert!(parse_move("a:X").is_err());
    }
}
