//! Inertia boards as text: sgt-puzzles' game IDs and a grid of our own.
//!
//! **sgt's game ID** (`inertia.c`, `validate_desc` and `new_game`):
//! `WxH:` then exactly `W*H` letters, row by row from the top left:
//! `b` blank, `w` wall, `s` stop, `g` gem, `m` mine, and one `S`, the
//! start, which is a stop with the ball on it. At least one gem.
//! (`10x8:` is the default size, `default_params`.)
//!
//! **Our grid**, one row per line (or rows joined by `/`, as `--board`
//! takes them), one character per cell:
//!
//! | char | cell |
//! |---|---|
//! | `.` | blank |
//! | `#` | wall |
//! | `o` | stop |
//! | `*` | gem |
//! | `x` | mine |
//! | `S` | the ball, on a stop |
//! | `@` | the ball, on a blank (where a wall stopped it) |
//!
//! Lines starting with `;` are comments; blank lines are skipped. Exactly
//! one ball; every row as wide as the first.

use std::fmt;

/// The largest number of cells a board may have (cells fit in a byte… and
/// a half: the state stores the ball's cell in 16 bits).
pub const MAX_CELLS: usize = 1024;

/// What a cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Blank,
    Wall,
    Stop,
    Gem,
    Mine,
}

impl Cell {
    /// The cell's character in our grid format.
    pub fn grid_char(self) -> char {
        match self {
            Cell::Blank => '.',
            Cell::Wall => '#',
            Cell::Stop => 'o',
            Cell::Gem => '*',
            Cell::Mine => 'x',
        }
    }

    /// The cell's letter in sgt's game IDs.
    pub fn sgt_char(self) -> char {
        match self {
            Cell::Blank => 'b',
            Cell::Wall => 'w',
            Cell::Stop => 's',
            Cell::Gem => 'g',
            Cell::Mine => 'm',
        }
    }
}

/// A board: its cells and where the ball is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub width: usize,
    pub height: usize,
    /// Row by row from the top left.
    pub cells: Vec<Cell>,
    /// The ball's cell index (`row * width + col`).
    pub ball: usize,
}

/// Why a board's text is wrong, with where.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum LevelError {
    #[error("no board: the text is empty")]
    Empty,
    #[error("game ID: {0}")]
    Id(String),
    #[error("line {line}, column {col}: {what}")]
    At {
        line: usize,
        col: usize,
        what: String,
    },
    #[error("{0}")]
    Board(String),
}

/// The cells of a `width`×`height` board, refused before anything is
/// allocated when it has none or more than [`MAX_CELLS`].
fn size_of(width: usize, height: usize) -> Result<usize, LevelError> {
    width
        .checked_mul(height)
        .filter(|&n| n > 0 && n <= MAX_CELLS)
        .ok_or_else(|| {
            LevelError::Board(format!(
                "a {width}x{height} board: boards have 1 to {MAX_CELLS} cells"
            ))
        })
}

impl Level {
    /// Reads an sgt game ID (`10x8:…`) or our grid, whichever `text` is.
    pub fn parse(text: &str) -> Result<Level, LevelError> {
        let t = text.trim();
        if looks_like_id(t) {
            Level::from_sgt_id(t)
        } else {
            Level::from_grid(t)
        }
    }

    /// Reads sgt's `WxH:desc` game ID.
    pub fn from_sgt_id(id: &str) -> Result<Level, LevelError> {
        let bad = |m: &str| LevelError::Id(m.to_string());
        let (params, desc) = id.split_once(':').ok_or_else(|| bad("no ':'"))?;
        let (w, h) = params
            .split_once('x')
            .ok_or_else(|| bad("the size is not WxH"))?;
        let width: usize = w.parse().map_err(|_| bad("the width is not a number"))?;
        let height: usize = h.parse().map_err(|_| bad("the height is not a number"))?;
        let cells_in = size_of(width, height)?;
        let mut cells = Vec::with_capacity(cells_in);
        let mut balls = Vec::new();
        for (i, c) in desc.chars().enumerate() {
            let cell = match c {
                'b' => Cell::Blank,
                'w' => Cell::Wall,
                's' => Cell::Stop,
                'g' => Cell::Gem,
                'm' => Cell::Mine,
                'S' => {
                    balls.push(i);
                    Cell::Stop
                }
                _ => {
                    return Err(LevelError::Id(format!(
                        "character {} ({c:?}) is not one of b w s g m S",
                        i + 1
                    )));
                }
            };
            cells.push(cell);
        }
        if cells.len() != cells_in {
            return Err(LevelError::Id(format!(
                "{width}x{height} needs {cells_in} cells, the description has {}",
                cells.len()
            )));
        }
        Level::checked(width, height, cells, &balls)
    }

    /// Reads our grid format (see the module doc).
    pub fn from_grid(text: &str) -> Result<Level, LevelError> {
        let mut width = 0;
        let mut height = 0;
        let mut cells = Vec::new();
        let mut balls = Vec::new();
        let mut blank: Option<usize> = None;
        for (n, line) in text.split(['\n', '/']).enumerate() {
            let line = line.trim_end_matches(['\r', ' ']).trim_start();
            if line.starts_with(';') {
                continue;
            }
            if line.is_empty() {
                blank = blank.or(Some(n + 1));
                continue;
            }
            if let (Some(at), true) = (blank, height > 0) {
                return Err(LevelError::At {
                    line: at,
                    col: 1,
                    what: "an empty row inside the board: every row needs its cells".into(),
                });
            }
            blank = None;
            let row: Vec<char> = line.chars().collect();
            if height == 0 {
                width = row.len();
            } else if row.len() != width {
                return Err(LevelError::At {
                    line: n + 1,
                    col: row.len().min(width) + 1,
                    what: format!("row is {} cells wide, the first is {width}", row.len()),
                });
            }
            for (c, &ch) in row.iter().enumerate() {
                let cell = grid_cell(ch, height * width + c, &mut balls).ok_or_else(|| {
                    LevelError::At {
                        line: n + 1,
                        col: c + 1,
                        what: format!("{ch:?} is not one of . # o * x S @"),
                    }
                })?;
                cells.push(cell);
            }
            height += 1;
        }
        if height == 0 {
            return Err(LevelError::Empty);
        }
        Level::checked(width, height, cells, &balls)
    }

    fn checked(
        width: usize,
        height: usize,
        cells: Vec<Cell>,
        balls: &[usize],
    ) -> Result<Level, LevelError> {
        if width == 0 || height == 0 || width.checked_mul(height).is_none_or(|n| n > MAX_CELLS) {
            return Err(LevelError::Board(format!(
                "a {width}x{height} board: boards have 1 to {MAX_CELLS} cells"
            )));
        }
        match balls {
            [ball] => Ok(Level {
                width,
                height,
                cells,
                ball: *ball,
            }),
            [] => Err(LevelError::Board("no ball (S or @)".into())),
            _ => Err(LevelError::Board(format!(
                "{} balls; a board has one",
                balls.len()
            ))),
        }
    }

    /// The number of gems on the board.
    pub fn gems(&self) -> usize {
        self.cells.iter().filter(|&&c| c == Cell::Gem).count()
    }

    /// The board as sgt's game ID (the ball's cell written `S` if it is a
    /// stop; sgt's IDs can only start the ball on a stop).
    pub fn sgt_id(&self) -> Option<String> {
        if self.cells[self.ball] != Cell::Stop {
            return None;
        }
        let desc: String = self
            .cells
            .iter()
            .enumerate()
            .map(|(i, c)| if i == self.ball { 'S' } else { c.sgt_char() })
            .collect();
        Some(format!("{}x{}:{desc}", self.width, self.height))
    }
}

/// `WxH:` with digits: sgt's game ID rather than a grid row.
fn looks_like_id(t: &str) -> bool {
    t.split_once(':').is_some_and(|(p, _)| {
        p.split_once('x').is_some_and(|(w, h)| {
            !w.is_empty()
                && !h.is_empty()
                && w.bytes().all(|b| b.is_ascii_digit())
                && h.bytes().all(|b| b.is_ascii_digit())
        })
    })
}

fn grid_cell(ch: char, index: usize, balls: &mut Vec<usize>) -> Option<Cell> {
    Some(match ch {
        '.' => Cell::Blank,
        '#' => Cell::Wall,
        'o' => Cell::Stop,
        '*' => Cell::Gem,
        'x' => Cell::Mine,
        'S' => {
            balls.push(index);
            Cell::Stop
        }
        '@' => {
            balls.push(index);
            Cell::Blank
        }
        _ => return None,
    })
}

impl fmt::Display for Level {
    /// The board in our grid format, one row per line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.height {
            let row: String = (0..self.width)
                .map(|c| {
                    let i = r * self.width + c;
                    match (i == self.ball, self.cells[i]) {
                        (true, Cell::Stop) => 'S',
                        (true, _) => '@',
                        (false, cell) => cell.grid_char(),
                    }
                })
                .collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sgt_ids_and_grids_alike() {
        let id = Level::parse("3x2:Sgwbms").unwrap();
        assert_eq!((id.width, id.height, id.ball), (3, 2, 0));
        assert_eq!(id.cells[0], Cell::Stop);
        let grid = Level::parse("S*#\n.xo").unwrap();
        assert_eq!(grid, id);
        assert_eq!(Level::parse("S*#/.xo").unwrap(), id);
        assert_eq!(id.sgt_id().as_deref(), Some("3x2:Sgwbms"));
        assert_eq!(id.to_string(), "S*#\n.xo\n");
    }

    #[test]
    fn says_what_is_wrong() {
        assert!(matches!(Level::parse("3x2:Sgwbm"), Err(LevelError::Id(_))));
        assert!(matches!(Level::parse("3x2:Sgwbmq"), Err(LevelError::Id(_))));
        assert!(matches!(
            Level::parse("3x2:sgwbms"),
            Err(LevelError::Board(_))
        ));
        assert_eq!(
            Level::parse("S*#\n.x"),
            Err(LevelError::At {
                line: 2,
                col: 3,
                what: "row is 2 cells wide, the first is 3".into()
            })
        );
        assert!(matches!(
            Level::parse("S*q"),
            Err(LevelError::At {
                line: 1,
                col: 3,
                ..
            })
        ));
        assert_eq!(Level::parse(" \n; c\n"), Err(LevelError::Empty));
        assert!(matches!(Level::parse("S@"), Err(LevelError::Board(_))));
    }
}
