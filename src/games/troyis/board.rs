//! The Troyis board: which cells are targets, dark, visited, and where the
//! knight stands. Written as text one row per line, or rows joined by `/`:
//! `K` knight, `W` target, `V` visited, `.` dark.

use std::fmt;

use crate::geom::Cell;

/// Largest board side the solver supports.
pub const MAX_SIDE: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Square {
    Knight,
    /// A light cell the knight still has to visit.
    Target,
    /// Already visited: the knight may land here, but it wastes a move.
    Visited,
    /// Not part of the board.
    Dark,
}

impl Square {
    pub fn letter(self) -> char {
        match self {
            Square::Knight => 'K',
            Square::Target => 'W',
            Square::Visited => 'V',
            Square::Dark => '.',
        }
    }

    pub fn from_letter(c: char) -> Option<Square> {
        match c {
            'K' | 'k' => Some(Square::Knight),
            'W' | 'w' => Some(Square::Target),
            'V' | 'v' => Some(Square::Visited),
            '.' => Some(Square::Dark),
            _ => None,
        }
    }
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum BoardError {
    #[error("the board is empty")]
    Empty,
    #[error(
        "row {row}, column {col}: {found:?} is not a cell letter (K knight, W target, V visited, . dark)"
    )]
    BadLetter { row: usize, col: usize, found: char },
    #[error("row {row} has {found} cells but row 1 has {expected}; every row must be as long")]
    Ragged {
        row: usize,
        found: usize,
        expected: usize,
    },
    #[error("row {row} is empty: every row of the board needs its cells")]
    EmptyRow { row: usize },
    #[error("the board is {rows}×{cols}; the largest supported is {MAX_SIDE}×{MAX_SIDE}")]
    TooLarge { rows: usize, cols: usize },
    #[error("there is no knight (K) on the board")]
    NoKnight,
    #[error("there are {} knights (K), at {}; there must be exactly one", .0.len(), crate::games::troyis::board::cells_text(.0))]
    ManyKnights(Vec<Cell>),
}

/// Every cell a knight's move from `(r, c)` on a `rows × cols` board.
pub fn knight_steps(rows: usize, cols: usize, (r, c): Cell) -> impl Iterator<Item = Cell> {
    const D: [(i64, i64); 8] = [
        (-2, -1),
        (-2, 1),
        (-1, -2),
        (-1, 2),
        (1, -2),
        (1, 2),
        (2, -1),
        (2, 1),
    ];
    D.iter().filter_map(move |&(dr, dc)| {
        let (nr, nc) = (r as i64 + dr, c as i64 + dc);
        (nr >= 0 && nc >= 0 && (nr as usize) < rows && (nc as usize) < cols)
            .then_some((nr as usize, nc as usize))
    })
}

/// Cells as `(r,c)` pairs, 0-based, for messages.
pub fn cells_text(cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|(r, c)| format!("({r},{c})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A Troyis position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    squares: Vec<Square>,
    knight: Cell,
}

impl Board {
    /// Builds a board from rows of squares; exactly one must be the knight.
    pub fn from_squares(grid: Vec<Vec<Square>>) -> Result<Board, BoardError> {
        let rows = grid.len();
        let cols = grid.first().map_or(0, Vec::len);
        if rows == 0 || cols == 0 {
            return Err(BoardError::Empty);
        }
        for (r, row) in grid.iter().enumerate() {
            if row.len() != cols {
                return Err(BoardError::Ragged {
                    row: r + 1,
                    found: row.len(),
                    expected: cols,
                });
            }
        }
        if rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(BoardError::TooLarge { rows, cols });
        }
        let squares: Vec<Square> = grid.into_iter().flatten().collect();
        let knights: Vec<Cell> = squares
            .iter()
            .enumerate()
            .filter(|(_, s)| **s == Square::Knight)
            .map(|(i, _)| (i / cols, i % cols))
            .collect();
        let knight = match knights.as_slice() {
            [] => return Err(BoardError::NoKnight),
            [k] => *k,
            _ => return Err(BoardError::ManyKnights(knights)),
        };
        Ok(Board {
            rows,
            cols,
            squares,
            knight,
        })
    }

    /// Parses rows separated by `/` or new lines. Blank lines and spaces
    /// around rows are ignored.
    pub fn parse(text: &str) -> Result<Board, BoardError> {
        let mut grid = Vec::new();
        // Blank lines before and after the board are fine; one between
        // two rows is a row that lost its cells.
        let lines: Vec<&str> = text.trim().split(['/', '\n']).map(str::trim).collect();
        if lines.iter().all(|l| l.is_empty()) {
            return Err(BoardError::Empty);
        }
        for line in lines {
            let row = grid.len();
            if line.is_empty() {
                return Err(BoardError::EmptyRow { row: row + 1 });
            }
            let squares = line
                .chars()
                .enumerate()
                .map(|(col, ch)| {
                    Square::from_letter(ch).ok_or(BoardError::BadLetter {
                        row: row + 1,
                        col: col + 1,
                        found: ch,
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            grid.push(squares);
        }
        Self::from_squares(grid)
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn knight(&self) -> Cell {
        self.knight
    }

    pub fn get(&self, (r, c): Cell) -> Square {
        self.squares[r * self.cols + c]
    }

    pub fn in_bounds(&self, r: i64, c: i64) -> bool {
        r >= 0 && c >= 0 && (r as usize) < self.rows && (c as usize) < self.cols
    }

    /// Cells the knight may land on: everything but dark cells.
    pub fn passable(&self, cell: Cell) -> bool {
        self.get(cell) != Square::Dark
    }

    pub fn targets(&self) -> impl Iterator<Item = Cell> + '_ {
        self.cells().filter(|&c| self.get(c) == Square::Target)
    }

    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| (r, c)))
    }

    /// The knight's moves from `cell` that stay on the board's passable cells.
    pub fn knight_moves(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        knight_steps(self.rows, self.cols, cell).filter(|&c| self.passable(c))
    }
    /// Moves the knight to `to`, marking its old cell visited. Errors if
    /// the move is not a legal knight move onto a passable cell.
    pub fn step(&mut self, to: Cell) -> Result<(), String> {
        if !self.knight_moves(self.knight).any(|c| c == to) {
            return Err(format!(
                "({},{}) → ({},{}) is not a knight move onto a light cell",
                self.knight.0, self.knight.1, to.0, to.1
            ));
        }
        let from = self.knight;
        self.squares[from.0 * self.cols + from.1] = Square::Visited;
        self.squares[to.0 * self.cols + to.1] = Square::Knight;
        self.knight = to;
        Ok(())
    }

    /// One string per row.
    pub fn row_strings(&self) -> Vec<String> {
        (0..self.rows)
            .map(|r| (0..self.cols).map(|c| self.get((r, c)).letter()).collect())
            .collect()
    }

    pub fn is_solved(&self) -> bool {
        self.targets().next().is_none()
    }
}

impl fmt::Display for Board {
    /// Rows joined by `/`, the form `--board` accepts.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.row_strings().join("/"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_forms() {
        let a = Board::parse("KW.W/.WW./W.W./W...").unwrap();
        let b = Board::parse("KW.W\n.WW.\n W.W.\nW...\n").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.to_string(), "KW.W/.WW./W.W./W...");
        assert_eq!(a.knight(), (0, 0));
        assert_eq!(a.targets().count(), 7);
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(
            Board::parse("KW/WX").unwrap_err(),
            BoardError::BadLetter {
                row: 2,
                col: 2,
                found: 'X'
            }
        );
        assert!(matches!(
            Board::parse("KW/W"),
            Err(BoardError::Ragged { row: 2, .. })
        ));
        assert_eq!(Board::parse("WW/WW"), Err(BoardError::NoKnight));
        assert_eq!(
            Board::parse("KK/WW"),
            Err(BoardError::ManyKnights(vec![(0, 0), (0, 1)]))
        );
        assert_eq!(Board::parse(" / "), Err(BoardError::Empty));
        let big = vec!["W".repeat(17); 17].join("/").replacen('W', "K", 1);
        assert!(matches!(
            Board::parse(&big),
            Err(BoardError::TooLarge { .. })
        ));
    }

    #[test]
    fn steps_follow_the_rules() {
        let mut b = Board::parse("K.W/W.W/.W.").unwrap();
        assert!(b.step((0, 1)).is_err());
        b.step((1, 2)).unwrap();
        assert_eq!(b.to_string(), "V.W/W.K/.W.");
        b.step((0, 0)).unwrap();
        assert_eq!(b.get((0, 0)), Square::Knight);
    }
}
