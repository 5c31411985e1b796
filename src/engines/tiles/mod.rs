//! The sliding-tile model shared by Fifteen and Continuity's tile view: a
//! W×H frame (up to 16 slots) holding tiles `1..W*H` and one gap, `0`.
//!
//! A [`Slide`] names the direction a *tile* moves, which is also the arrow
//! key that makes it in sgt-puzzles Fifteen's keyboard mode: `Left` moves
//! the tile to the right of the gap one slot left, into the gap.
//!
//! [`Tiles`] packs the frame into a `u64`, four bits per slot, so it is
//! its own compact search key.
//!
//! - [`ida`]: iterative-deepening A* with bounds updated move by move;
//! - [`pdb`]: additive pattern databases for 4×4 frames;
//! - [`cache`]: those databases kept on disk between runs;
//! - [`solve`]: the optimal plan between two frames, with the best bound
//!   for the frame's shape.

pub mod cache;
pub mod ida;
pub mod pdb;

use std::fmt;

use serde::Serialize;

/// The most slots a frame may have: 16 slots of four bits fill a `u64`.
pub const MAX_SLOTS: usize = 16;

/// The direction a tile moves into the gap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Slide {
    Up,
    Down,
    Left,
    Right,
}

impl Slide {
    pub const ALL: [Slide; 4] = [Slide::Up, Slide::Down, Slide::Left, Slide::Right];

    /// The slide that undoes this one.
    pub fn reverse(self) -> Slide {
        match self {
            Slide::Up => Slide::Down,
            Slide::Down => Slide::Up,
            Slide::Left => Slide::Right,
            Slide::Right => Slide::Left,
        }
    }

    /// One letter, as plans print it: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Slide::Up => 'U',
            Slide::Down => 'D',
            Slide::Left => 'L',
            Slide::Right => 'R',
        }
    }

    /// The slide a letter names (`U`/`D`/`L`/`R`, either case).
    pub fn from_letter(c: char) -> Option<Slide> {
        match c.to_ascii_uppercase() {
            'U' => Some(Slide::Up),
            'D' => Some(Slide::Down),
            'L' => Some(Slide::Left),
            'R' => Some(Slide::Right),
            _ => None,
        }
    }

    /// Where the moving tile sits, seen from the gap: (dx, dy). The tile
    /// moving `Left` is the one to the gap's right.
    pub fn source(self) -> (i32, i32) {
        match self {
            Slide::Up => (0, 1),
            Slide::Down => (0, -1),
            Slide::Left => (1, 0),
            Slide::Right => (-1, 0),
        }
    }
}

impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

pub use ida::{Found, SearchError};

/// An optimal plan from `start` to `goal` (same size and values),
/// generating at most `max_nodes` search nodes. 4×4 frames whose goal has
/// the gap in a corner of the main diagonal use the pattern databases
/// (built or loaded on first use, see [`cache`]); every other frame uses
/// Manhattan distance with linear conflicts.
pub fn solve(start: &Tiles, goal: &Tiles, max_nodes: u64) -> Result<Found, SearchError> {
    if (start.width(), start.height()) != (goal.width(), goal.height()) {
        return Err(SearchError::Shape);
    }
    if !start.reaches(goal) {
        return Err(SearchError::Parity);
    }
    if start == goal {
        // Nothing to search, and no reason to build or load the tables.
        return Ok(Found {
            slides: Vec::new(),
            nodes: 0,
            first_bound: 0,
        });
    }
    let four = (start.width(), start.height()) == (4, 4);
    if four && goal.gap() == MAX_SLOTS - 1 {
        let mut bound = pdb::PatternBound::new(&cache::tables().0);
        return ida::search(start, goal, &mut bound, max_nodes);
    }
    if four && goal.gap() == 0 {
        // Turned by 180°, the gap is where the tables want it; so is every
        // slide, reversed.
        let mut found = solve(&start.rotated(), &goal.rotated(), max_nodes)?;
        for s in &mut found.slides {
            *s = s.reverse();
        }
        return Ok(found);
    }
    let mut bound = ida::Manhattan::new(start.width(), start.height());
    ida::search(start, goal, &mut bound, max_nodes)
}

/// Why a frame is not a valid tile arrangement.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TilesError {
    #[error("a frame needs at least 2 slots a side and {MAX_SLOTS} at most in all; got {0}x{1}")]
    Size(usize, usize),
    #[error("a {width}x{height} frame has {slots} slots, but {got} values were given")]
    Count {
        width: usize,
        height: usize,
        slots: usize,
        got: usize,
    },
    #[error("the values must be 0 (the gap) and 1 to {max}, each once; {value} is {problem}")]
    Values {
        max: usize,
        value: usize,
        problem: &'static str,
    },
}

/// A frame of tiles with one gap, packed four bits per slot.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tiles {
    packed: u64,
    width: u8,
    height: u8,
    gap: u8,
}

impl Tiles {
    /// A frame from its slots, row by row from the top left; `0` is the gap.
    pub fn new(width: usize, height: usize, slots: &[u8]) -> Result<Tiles, TilesError> {
        let n = width * height;
        if width < 2 || height < 2 || !(2..=MAX_SLOTS).contains(&n) {
            return Err(TilesError::Size(width, height));
        }
        if slots.len() != n {
            let got = slots.len();
            return Err(TilesError::Count {
                width,
                height,
                slots: n,
                got,
            });
        }
        let mut seen = [false; MAX_SLOTS];
        let mut packed = 0u64;
        let mut gap = 0;
        for (i, &v) in slots.iter().enumerate() {
            let value = usize::from(v);
            let problem = if value >= n {
                "out of range"
            } else if seen[value] {
                "repeated"
            } else {
                ""
            };
            if !problem.is_empty() {
                return Err(TilesError::Values {
                    max: n - 1,
                    value,
                    problem,
                });
            }
            seen[value] = true;
            if v == 0 {
                gap = i as u8;
            }
            packed |= u64::from(v) << (4 * i);
        }
        Ok(Tiles {
            packed,
            width: width as u8,
            height: height as u8,
            gap,
        })
    }

    /// The solved frame as sgt-puzzles Fifteen draws it: `1..W*H-1` in
    /// reading order, the gap last.
    pub fn solved(width: usize, height: usize) -> Result<Tiles, TilesError> {
        let n = width * height;
        let slots: Vec<u8> = (1..n).chain(std::iter::once(0)).map(|v| v as u8).collect();
        Tiles::new(width, height, &slots)
    }

    pub fn width(&self) -> usize {
        usize::from(self.width)
    }

    pub fn height(&self) -> usize {
        usize::from(self.height)
    }

    pub fn len(&self) -> usize {
        self.width() * self.height()
    }

    /// Never true: a frame has at least two slots.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The gap's slot, row-major.
    pub fn gap(&self) -> usize {
        usize::from(self.gap)
    }

    /// The value in a slot (`0` for the gap).
    pub fn get(&self, slot: usize) -> u8 {
        ((self.packed >> (4 * slot)) & 0xF) as u8
    }

    /// Every slot's value, row by row.
    pub fn slots(&self) -> Vec<u8> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }

    /// The frame packed four bits per slot: a compact key for searches.
    pub fn key(&self) -> u64 {
        self.packed
    }

    /// The slot of the tile that `slide` would move, if there is one.
    pub fn source(&self, slide: Slide) -> Option<usize> {
        let (dx, dy) = slide.source();
        let x = (self.gap() % self.width()) as i32 + dx;
        let y = (self.gap() / self.width()) as i32 + dy;
        let inside = (0..self.width as i32).contains(&x) && (0..self.height as i32).contains(&y);
        inside.then(|| y as usize * self.width() + x as usize)
    }

    /// The frame after `slide`, or `None` when no tile lies on that side
    /// of the gap.
    pub fn slide(&self, slide: Slide) -> Option<Tiles> {
        let from = self.source(slide)?;
        let value = u64::from(self.get(from));
        let packed = (self.packed & !(0xF << (4 * from))) | (value << (4 * self.gap()));
        Some(Tiles {
            packed,
            gap: from as u8,
            ..*self
        })
    }

    /// Every legal slide and the frame it leads to.
    pub fn slides(&self) -> impl Iterator<Item = (Slide, Tiles)> + '_ {
        Slide::ALL
            .into_iter()
            .filter_map(|s| self.slide(s).map(|t| (s, t)))
    }

    /// The frame turned by 180°: slot `i` moves to slot `len - 1 - i`.
    pub fn rotated(&self) -> Tiles {
        let n = self.len();
        let slots: Vec<u8> = (0..n).map(|i| self.get(n - 1 - i)).collect();
        Tiles::new(self.width(), self.height(), &slots).unwrap_or(*self)
    }

    /// The slot holding a value.
    pub fn find(&self, value: u8) -> Option<usize> {
        (0..self.len()).find(|&i| self.get(i) == value)
    }

    /// Whether slides can turn this frame into `goal` (same size and
    /// values): the permutation's parity must match the gap's distance.
    pub fn reaches(&self, goal: &Tiles) -> bool {
        if (self.width, self.height) != (goal.width, goal.height) {
            return false;
        }
        // Relabel so that the goal is the identity, then count cycles.
        let n = self.len();
        let mut where_in_goal = [0usize; MAX_SLOTS];
        for i in 0..n {
            where_in_goal[usize::from(goal.get(i))] = i;
        }
        let perm: Vec<usize> = (0..n)
            .map(|i| where_in_goal[usize::from(self.get(i))])
            .collect();
        let mut seen = [false; MAX_SLOTS];
        let mut transpositions = 0;
        for start in 0..n {
            let mut len = 0usize;
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                i = perm[i];
                len += 1;
            }
            transpositions += len.saturating_sub(1);
        }
        let w = self.width();
        let gap_distance =
            (self.gap() % w).abs_diff(goal.gap() % w) + (self.gap() / w).abs_diff(goal.gap() / w);
        transpositions % 2 == gap_distance % 2
    }

    /// The sum over tiles of their Manhattan distance to their slot in
    /// `goal`: a lower bound on the slides left.
    pub fn manhattan(&self, goal: &Tiles) -> u32 {
        let w = self.width();
        let mut home = [0usize; MAX_SLOTS];
        for i in 0..goal.len() {
            home[usize::from(goal.get(i))] = i;
        }
        (0..self.len())
            .filter(|&i| self.get(i) != 0)
            .map(|i| {
                let h = home[usize::from(self.get(i))];
                ((i % w).abs_diff(h % w) + (i / w).abs_diff(h / w)) as u32
            })
            .sum()
    }
}

impl fmt::Debug for Tiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tiles({self})")
    }
}

/// `WxH:a,b,c,…`, the shape of sgt-puzzles Fifteen's game IDs.
impl fmt::Display for Tiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let values: Vec<String> = self.slots().iter().map(|v| v.to_string()).collect();
        write!(f, "{}x{}:{}", self.width, self.height, values.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slides_move_the_tile_beside_the_gap() {
        let t = Tiles::new(3, 2, &[1, 2, 3, 4, 0, 5]).unwrap();
        let left = t.slide(Slide::Left).unwrap();
        assert_eq!(left.slots(), vec![1, 2, 3, 4, 5, 0]);
        assert_eq!(left.gap(), 5);
        let down = t.slide(Slide::Down).unwrap();
        assert_eq!(down.slots(), vec![1, 0, 3, 4, 2, 5]);
        assert!(t.slide(Slide::Up).is_none());
        assert_eq!(t.slides().count(), 3);
        for (s, next) in t.slides() {
            assert_eq!(next.slide(s.reverse()), Some(t));
        }
    }

    #[test]
    fn a_solved_frame_needs_no_slide() {
        for (w, h) in [(2, 2), (2, 3), (3, 3), (4, 3), (4, 4)] {
            let goal = Tiles::solved(w, h).unwrap();
            let found = solve(&goal, &goal, u64::MAX).unwrap();
            assert!(found.slides.is_empty(), "{w}x{h}: {:?}", found.slides);
            // One slide away is one slide, whichever bound is used.
            let near = goal.slide(Slide::Right).unwrap();
            assert_eq!(
                solve(&near, &goal, u64::MAX).unwrap().slides,
                vec![Slide::Left]
            );
        }
        // A 4x4 goal with the gap first is solved turned by 180°.
        let first = Tiles::new(4, 4, &(0..16).collect::<Vec<u8>>()).unwrap();
        assert!(solve(&first, &first, u64::MAX).unwrap().slides.is_empty());
    }

    #[test]
    fn rejects_bad_frames() {
        assert!(matches!(
            Tiles::new(5, 4, &[0; 20]),
            Err(TilesError::Size(5, 4))
        ));
        assert!(matches!(
            Tiles::new(2, 2, &[0, 1, 2]),
            Err(TilesError::Count { .. })
        ));
        assert!(matches!(
            Tiles::new(2, 2, &[0, 1, 2, 2]),
            Err(TilesError::Values { .. })
        ));
        assert!(matches!(
            Tiles::new(2, 2, &[0, 1, 2, 4]),
            Err(TilesError::Values { .. })
        ));
    }

    #[test]
    fn parity_tells_reachable_frames_apart() {
        let goal = Tiles::solved(4, 4).unwrap();
        let mut t = goal;
        for s in [
            Slide::Down,
            Slide::Right,
            Slide::Down,
            Slide::Left,
            Slide::Up,
        ] {
            t = t.slide(s).unwrap_or(t);
        }
        assert!(t.reaches(&goal));
        let mut swapped = goal.slots();
        swapped.swap(0, 1);
        assert!(!Tiles::new(4, 4, &swapped).unwrap().reaches(&goal));
        assert_eq!(goal.manhattan(&goal), 0);
        assert_eq!(
            goal.to_string(),
            "4x4:1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,0"
        );
    }
}
