//! The move rules, the packed state, and the puzzle core's view of them.
//!
//! Every rule is sgt-puzzles' own (`inertia.c`, 20230122, `execute_move`
//! and `interpret_move`):
//! - the ball moves in 8 directions (`DX`/`DY`; sgt numbers them 0 = up,
//!   clockwise to 7 = up-left);
//! - a move whose first cell is a wall or off the board is refused (`AT`
//!   reads off-board cells as walls): it is no move at all;
//! - otherwise the ball steps cell by cell; on each cell it picks up a gem
//!   (the gem becomes blank), dies on a mine, and halts on a stop (AT the
//!   stop) or when the next cell is a wall or the edge. A gem does not
//!   halt it;
//! - the puzzle is won when no gem is left and the ball is alive
//!   (`game_status`). Dying ends nothing in sgt (undo is allowed), but a
//!   plan never dies: a move that crosses or ends on a mine is illegal here.
//!
//! The board's layout never changes, so where a move ends and which cells
//! it crosses depend only on the ball's cell: [`Rules::new`] works each
//! out once. A state is the ball's cell and the set of gems still on the
//! board, packed into one `u128` ([`State`]).

use std::fmt;

use super::level::{Cell, Level};

/// Gems a board may hold: the low bits of [`State`].
pub const MAX_GEMS: usize = 112;
const CELL_SHIFT: u32 = 112;
const GEM_MASK: u128 = (1 << CELL_SHIFT) - 1;

/// One of the 8 directions, in sgt's order (0 = up, clockwise).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

impl Dir {
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::NE,
        Dir::E,
        Dir::SE,
        Dir::S,
        Dir::SW,
        Dir::W,
        Dir::NW,
    ];

    /// The compass name: `N`, `NE` …
    pub fn name(self) -> &'static str {
        ["N", "NE", "E", "SE", "S", "SW", "W", "NW"][self as usize]
    }

    /// sgt's direction number (0 = up, clockwise), as in its move strings
    /// and its solver's `S…` answer.
    pub fn sgt_index(self) -> usize {
        self as usize
    }

    pub fn from_sgt_index(i: usize) -> Option<Dir> {
        Dir::ALL.get(i).copied()
    }

    /// The numeric keypad digit that makes this move in sgt-inertia.
    pub fn keypad(self) -> char {
        ['8', '9', '6', '3', '2', '1', '4', '7'][self as usize]
    }

    /// (column, row) steps, as sgt's `DX`/`DY`.
    pub fn delta(self) -> (i32, i32) {
        [
            (0, -1),
            (1, -1),
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
        ][self as usize]
    }

    /// A direction by compass name or keypad digit, any case.
    pub fn parse(text: &str) -> Option<Dir> {
        let t = text.trim();
        Dir::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(t) || t.len() == 1 && t.starts_with(d.keypad()))
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The ball's cell and the gems left: see the module doc.
pub type State = u128;

/// Packs a cell and a gem set into a [`State`].
pub fn pack(cell: usize, gems: u128) -> State {
    ((cell as u128) << CELL_SHIFT) | (gems & GEM_MASK)
}

/// The ball's cell.
pub fn cell_of(s: State) -> usize {
    (s >> CELL_SHIFT) as usize
}

/// The gems left, one bit per gem (bit `i` is [`Rules::gem_cells`]`[i]`).
pub fn gems_of(s: State) -> u128 {
    s & GEM_MASK
}

/// Where one move from one cell goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slide {
    pub to: usize,
    /// The gems it crosses, as gem bits.
    pub gems: u128,
    /// The cells it moves, for animation times (sgt: `distance_moved`).
    pub length: usize,
}

/// What a move from a cell does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A wall or the edge is next: sgt ignores the key.
    Blocked,
    /// The ball would cross or stop on a mine.
    Dies,
    Slides(Slide),
}

/// A board's fixed parts, with every move worked out.
#[derive(Clone, Debug)]
pub struct Rules {
    pub level: Level,
    /// The cell of each gem bit.
    pub gem_cells: Vec<usize>,
    /// `moves[cell * 8 + dir]`.
    moves: Vec<Outcome>,
    pub start: State,
}

/// Why a board cannot be a puzzle.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RulesError {
    #[error("{0} gems: boardbot handles at most {MAX_GEMS}")]
    TooManyGems(usize),
    #[error("the ball is on a {0:?} cell")]
    BallOn(Cell),
}

impl Rules {
    pub fn new(level: Level) -> Result<Rules, RulesError> {
        let gem_cells: Vec<usize> = (0..level.cells.len())
            .filter(|&i| level.cells[i] == Cell::Gem)
            .collect();
        if gem_cells.len() > MAX_GEMS {
            return Err(RulesError::TooManyGems(gem_cells.len()));
        }
        let on = level.cells[level.ball];
        if !matches!(on, Cell::Blank | Cell::Stop) {
            return Err(RulesError::BallOn(on));
        }
        let mut bit = vec![None; level.cells.len()];
        for (b, &c) in gem_cells.iter().enumerate() {
            bit[c] = Some(b);
        }
        let moves = (0..level.cells.len())
            .flat_map(|c| Dir::ALL.map(|d| (c, d)))
            .map(|(c, d)| outcome(&level, &bit, c, d))
            .collect();
        let all = (0..gem_cells.len()).fold(0u128, |m, b| m | 1 << b);
        Ok(Rules {
            start: pack(level.ball, all),
            level,
            gem_cells,
            moves,
        })
    }

    /// What moving `dir` from `cell` does, whatever gems are left.
    pub fn outcome(&self, cell: usize, dir: Dir) -> Outcome {
        self.moves[cell * 8 + dir as usize]
    }

    /// Plays `dir` from `s`: the next state, or `None` when the move is
    /// blocked or deadly.
    pub fn play(&self, s: State, dir: Dir) -> Option<State> {
        match self.outcome(cell_of(s), dir) {
            Outcome::Slides(m) => Some(pack(m.to, gems_of(s) & !m.gems)),
            _ => None,
        }
    }

    pub fn is_won(&self, s: State) -> bool {
        gems_of(s) == 0
    }

    /// The board at state `s`, in our grid format.
    pub fn level_at(&self, s: State) -> Level {
        let mut level = self.level.clone();
        for (b, &c) in self.gem_cells.iter().enumerate() {
            if gems_of(s) & (1 << b) == 0 {
                level.cells[c] = Cell::Blank;
            }
        }
        level.ball = cell_of(s);
        level
    }
}

/// Slides from `cell` towards `dir`, by `execute_move`'s loop.
fn outcome(level: &Level, bit: &[Option<usize>], cell: usize, dir: Dir) -> Outcome {
    let (w, h) = (level.width as i32, level.height as i32);
    let (dx, dy) = dir.delta();
    let at = |x: i32, y: i32| {
        if x < 0 || y < 0 || x >= w || y >= h {
            Cell::Wall
        } else {
            level.cells[(y * w + x) as usize]
        }
    };
    let (mut x, mut y) = ((cell as i32) % w, (cell as i32) / w);
    if at(x + dx, y + dy) == Cell::Wall || matches!(at(x, y), Cell::Wall | Cell::Mine) {
        return Outcome::Blocked;
    }
    let mut gems = 0u128;
    let mut length = 0;
    loop {
        x += dx;
        y += dy;
        length += 1;
        let here = at(x, y);
        let i = (y * w + x) as usize;
        match here {
            Cell::Mine => return Outcome::Dies,
            Cell::Gem => gems |= bit[i].map_or(0, |b| 1 << b),
            _ => {}
        }
        if here == Cell::Stop || at(x + dx, y + dy) == Cell::Wall {
            return Outcome::Slides(Slide {
                to: i,
                gems,
                length,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(text: &str) -> Rules {
        Rules::new(Level::parse(text).unwrap()).unwrap()
    }

    fn slide(r: &Rules, cell: usize, d: Dir) -> Outcome {
        r.outcome(cell, d)
    }

    #[test]
    fn slides_to_the_wall_or_edge_collecting_gems() {
        let r = rules("S.*.\n....");
        assert_eq!(
            slide(&r, 0, Dir::E),
            Outcome::Slides(Slide {
                to: 3,
                gems: 1,
                length: 3
            })
        );
        assert_eq!(slide(&r, 0, Dir::N), Outcome::Blocked);
        assert_eq!(slide(&r, 0, Dir::W), Outcome::Blocked);
        let s = r.play(r.start, Dir::E).unwrap();
        assert_eq!((cell_of(s), gems_of(s)), (3, 0));
        assert!(r.is_won(s));
        // Diagonals: one step down-right hits the bottom edge.
        assert!(matches!(slide(&r, 0, Dir::SE), Outcome::Slides(m) if m.to == 5));
    }

    #[test]
    fn stops_at_a_stop_and_before_a_wall_and_dies_on_mines() {
        let r = rules("S.o..#x\n.......");
        assert!(matches!(slide(&r, 0, Dir::E), Outcome::Slides(m) if m.to == 2));
        assert!(matches!(slide(&r, 2, Dir::E), Outcome::Slides(m) if m.to == 4));
        assert_eq!(slide(&r, 4, Dir::E), Outcome::Blocked);
        let r = rules("S.x.\n....");
        assert_eq!(slide(&r, 0, Dir::E), Outcome::Dies);
        // A gem does not stop the ball; a gem at the end is picked up.
        let r = rules("S*o*\n....");
        assert!(matches!(slide(&r, 0, Dir::E), Outcome::Slides(m) if m.to == 2 && m.gems == 1));
        assert!(matches!(slide(&r, 2, Dir::E), Outcome::Slides(m) if m.to == 3 && m.gems == 2));
    }

    #[test]
    fn directions_read_names_and_keypad_digits() {
        assert_eq!(Dir::parse("ne"), Some(Dir::NE));
        assert_eq!(Dir::parse("9"), Some(Dir::NE));
        assert_eq!(Dir::parse("2"), Some(Dir::S));
        assert_eq!(Dir::parse("5"), None);
        assert_eq!(Dir::from_sgt_index(6), Some(Dir::W));
    }
}
