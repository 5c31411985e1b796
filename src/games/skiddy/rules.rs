//! The static board, the packed state key, and moves.
//!
//! A state is a [`Key`]: one byte per moving piece, its cell
//! (`row * width + col`), or 0 once a skiddy has left (cell 0 is a corner
//! of the ring, where no piece can stand). Slots are grouped by kind (red,
//! blue, green, yellow skiddies, crates, ice) and sorted within each kind,
//! so that swapping two pieces of one kind gives the same key.
//!
//! Sticky groups are not stored: every group is a connected set of
//! orthogonally adjacent skiddies of one colour, and every such set is one
//! group. Groups form at the start and when each move ends, so adjacent
//! same-colour skiddies at rest are always joined; a group moves rigidly,
//! so it stays connected; and a member leaving splits it into exactly its
//! connected parts. Membership is therefore a function of the positions.

use std::fmt;

use super::level::{Colour, Ground, Level, Piece};

/// Moving pieces a level may hold: the width of [`Key`].
pub const MAX_PIECES: usize = 32;

/// A swipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    U,
    D,
    L,
    R,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::U, Dir::D, Dir::L, Dir::R];

    pub fn letter(self) -> char {
        match self {
            Dir::U => 'U',
            Dir::D => 'D',
            Dir::L => 'L',
            Dir::R => 'R',
        }
    }

    pub fn from_char(c: char) -> Option<Dir> {
        Dir::ALL
            .into_iter()
            .find(|d| d.letter() == c.to_ascii_uppercase())
    }
}

/// One move as played: its direction, and how many skiddies of each colour
/// left the board on it (indexed by [`Colour::index`]), which the combo
/// rule reads. It prints as its direction's letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub dir: Dir,
    pub left: [u8; 4],
}

impl Move {
    /// How many skiddies of `colour` left on this move.
    pub fn left_of(&self, colour: Colour) -> u8 {
        self.left[colour.index()]
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.dir.letter())
    }
}

/// The positions of every moving piece; see the module doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key(pub [u8; MAX_PIECES]);

/// Cell 0 is a ring corner, so it marks a skiddy that has left.
pub const GONE: u8 = 0;

/// A level's fixed parts: the ground and which kind each key slot holds.
#[derive(Clone, Debug)]
pub struct Rules {
    pub width: usize,
    pub height: usize,
    pub ground: Vec<Ground>,
    /// The kind of each used slot of the key, sorted.
    pub slots: Vec<Piece>,
    pub sticky: bool,
    /// The start, canonical.
    pub start: Key,
    /// Each cell's row and column, looked up rather than divided out in
    /// the hot move code.
    pub(super) place: Vec<(u8, u8)>,
}

impl Rules {
    pub fn new(level: &Level) -> Rules {
        let mut pieces = level.pieces.clone();
        pieces.sort();
        let mut start = [GONE; MAX_PIECES];
        for (slot, &(_, cell)) in pieces.iter().enumerate() {
            // Level::parse caps both the pieces and the cells (16×16).
            start[slot] = cell as u8;
        }
        let rules = Rules {
            width: level.width,
            height: level.height,
            ground: level.ground.clone(),
            slots: pieces.into_iter().map(|(p, _)| p).collect(),
            sticky: level.sticky,
            start: Key(start),
            // Level::parse caps boards at 16×16.
            place: (0..level.width * level.height)
                .map(|c| ((c / level.width) as u8, (c % level.width) as u8))
                .collect(),
        };
        Rules {
            start: rules.canonical(start),
            ..rules
        }
    }

    /// Sorts the cells within each kind, so equal layouts have one key.
    pub fn canonical(&self, mut cells: [u8; MAX_PIECES]) -> Key {
        let mut from = 0;
        while from < self.slots.len() {
            let kind = self.slots[from];
            let to = from
                + self.slots[from..]
                    .iter()
                    .take_while(|&&k| k == kind)
                    .count();
            cells[from..to].sort_unstable();
            from = to;
        }
        Key(cells)
    }

    /// Every move from `key`, with the position it leads to; none once the
    /// level is won (play stops there).
    pub fn successors(&self, key: &Key, out: &mut Vec<(Move, Key)>) {
        if !self.is_won(key) {
            out.extend(Dir::ALL.into_iter().filter_map(|d| self.play(key, d)));
        }
    }

    /// True when every skiddy has left.
    pub fn is_won(&self, key: &Key) -> bool {
        self.slots
            .iter()
            .zip(key.0)
            .all(|(p, cell)| !matches!(p, Piece::Skiddy(_)) || cell == GONE)
    }

    /// The board with its pieces, one string per row, in the level format
    /// (a piece in a pit hides the pit).
    pub fn render_rows(&self, key: &Key) -> Vec<String> {
        let mut chars: Vec<char> = self.ground.iter().map(|g| ground_char(*g)).collect();
        for (p, &cell) in self.slots.iter().zip(&key.0) {
            if cell != GONE {
                chars[usize::from(cell)] = p.letter();
            }
        }
        chars
            .chunks(self.width)
            .map(|row| row.iter().collect())
            .collect()
    }
}

fn ground_char(g: Ground) -> char {
    match g {
        Ground::Floor => '.',
        Ground::Block => '#',
        Ground::Pit => 'o',
        Ground::Goal(c) => c.letter().to_ascii_uppercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_canonical_and_render_back() {
        let text = "#####\n#r.r#\n#.co#\n##R##\n";
        let level = Level::parse(text).unwrap();
        let rules = Rules::new(&level);
        assert_eq!(rules.render_rows(&rules.start).join("\n") + "\n", text);
        let mut swapped = rules.start.0;
        swapped.swap(0, 1);
        assert_eq!(rules.canonical(swapped), rules.start);
        assert!(!rules.is_won(&rules.start));
        let mut gone = rules.start.0;
        gone[0] = GONE;
        gone[1] = GONE;
        assert!(rules.is_won(&Key(gone)), "crates may stay");
    }

    #[test]
    fn moves_print_as_letters_and_say_who_left() {
        let m = Move {
            dir: Dir::L,
            left: [0, 2, 0, 0],
        };
        assert_eq!(m.to_string(), "L");
        assert_eq!(m.left_of(Colour::Blue), 2);
        assert_eq!(Dir::from_char('u'), Some(Dir::U));
        assert_eq!(Dir::from_char('x'), None);
    }
}
