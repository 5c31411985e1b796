//! The one-piece flood on boards of at most 64 cells, by shifting one
//! bitboard of anchors (each placement's top-left cell) instead of
//! visiting placements one by one: the placements free of the other pieces
//! are found for all anchors at once, and each ring of the flood is one
//! shift in each direction. This is the hot step of the classic puzzles
//! (the Huarong Dao boxes, GNOME's 6x9 levels).

use super::board::{Board, NONE};
use super::moves::Dir;

/// One class's placements as anchor bits.
#[derive(Clone, Debug)]
struct Shape {
    /// Anchors that are placements of the class.
    valid: u64,
    /// The shape's cells, as offsets from its anchor.
    offsets: Vec<u32>,
    /// Anchor -> placement, or [`NONE`].
    place: [u16; 64],
}

/// Per class, its placements as anchor bits, for a board of at most 64
/// cells whose step tables are exactly the anchor shifts (checked when
/// built).
#[derive(Clone, Debug)]
pub struct BitFlood {
    width: u32,
    not_first_col: u64,
    not_last_col: u64,
    shapes: Vec<Shape>,
    /// Class base + placement -> its anchor.
    anchor: Vec<u8>,
}

impl BitFlood {
    /// The tables, or `None` when the board has more than 64 cells (or is
    /// one row of 64, or its step tables are not the anchor shifts).
    pub fn new(board: &Board) -> Option<BitFlood> {
        let (w, h) = (board.width, board.height);
        if w * h > 64 || w >= 64 || w == 0 {
            return None;
        }
        let col = |c: usize| (0..h).fold(0u64, |m, r| m | 1 << (r * w + c));
        let mut f = BitFlood {
            width: w as u32,
            not_first_col: !col(0),
            not_last_col: !col(w - 1),
            shapes: Vec::new(),
            anchor: Vec::new(),
        };
        for c in &board.classes {
            let mut shape = Shape {
                valid: 0,
                offsets: c.shape.iter().map(|&(r, x)| (r * w + x) as u32).collect(),
                place: [NONE; 64],
            };
            for (p, &(r, x)) in c.anchors.iter().enumerate() {
                let a = r * w + x;
                shape.valid |= 1 << a;
                shape.place[a] = p as u16;
                f.anchor.push(a as u8);
            }
            f.shapes.push(shape);
        }
        f.steps_are_shifts(board).then_some(f)
    }

    /// True when every class's step table says what the anchor shifts say:
    /// a step goes to the placement whose anchor is one cell over, if there
    /// is one.
    fn steps_are_shifts(&self, board: &Board) -> bool {
        let w = board.width;
        let mut base = 0;
        for (c, shape) in board.classes.iter().zip(&self.shapes) {
            for (p, next) in c.next.iter().enumerate() {
                let a = usize::from(self.anchor[base + p]);
                for (d, &n) in Dir::ALL.iter().zip(next) {
                    let to = match d {
                        Dir::Up => a.checked_sub(w),
                        Dir::Down => Some(a + w).filter(|&t| t < 64),
                        Dir::Left => a.checked_sub(1).filter(|_| a % w != 0),
                        Dir::Right => Some(a + 1).filter(|_| a % w != w - 1),
                    };
                    if to.map_or(NONE, |t| shape.place[t]) != n {
                        return false;
                    }
                }
            }
            base += c.next.len();
        }
        true
    }

    /// Calls `f(placement, steps)` for every placement of class `k`'s piece
    /// at placement `p` (at index `at` of the flat tables) reachable within
    /// `limit` steps without covering `others`, ring by ring, in ascending
    /// anchor order within a ring; the start is not reported.
    #[inline]
    pub fn flood(&self, k: usize, at: usize, others: u64, limit: u32, mut f: impl FnMut(u16, u32)) {
        let shape = &self.shapes[k];
        let mut free = shape.valid;
        for &o in &shape.offsets {
            free &= !(others >> o);
        }
        let mut reach = 1u64 << self.anchor[at];
        let (mut ring, mut d) = (reach, 0);
        while ring != 0 && d < limit {
            let grown = ((ring & self.not_last_col) << 1)
                | ((ring & self.not_first_col) >> 1)
                | (ring << self.width)
                | (ring >> self.width);
            ring = grown & free & !reach;
            reach |= ring;
            d += 1;
            let mut r = ring;
            while r != 0 {
                f(shape.place[r.trailing_zeros() as usize], d);
                r &= r - 1;
            }
        }
    }
}
