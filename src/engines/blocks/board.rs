//! A [`Layout`] compiled for search: pieces grouped into classes of equal
//! shape (interchangeable, so the search sorts them), every position a
//! class could ever take alone among the walls (its placements, numbered),
//! one-cell step tables between placements, and the bits each piece takes
//! in a packed key. Pieces that can never move are frozen into the walls
//! and cost no bits.

use std::collections::VecDeque;

use super::layout::{Floor, Layout, normalise};
use super::moves::{Axis, Dir};

/// No placement in that direction.
pub const NONE: u16 = u16::MAX;

/// Pieces of one shape (and specialness).
#[derive(Clone, Debug)]
pub struct Class {
    /// Cells relative to the top-left of the bounding box, sorted.
    pub shape: Vec<(usize, usize)>,
    pub special: bool,
    /// Placement -> top-left (row, col) of the bounding box.
    pub anchors: Vec<(usize, usize)>,
    /// Placement -> cell indices it covers.
    pub cells: Vec<Vec<usize>>,
    /// Placement -> the placement one step away, by [`Dir::ALL`], or [`NONE`].
    pub next: Vec<[u16; 4]>,
    /// Bits per piece in a packed key, as a list of placements.
    pub bits: u32,
    /// Its pieces' slots in a state: `slots.start..slots.end`.
    pub slots: std::ops::Range<usize>,
    pub frozen: bool,
    /// The class is packed as a set (one bit a placement) rather than a
    /// list of placements, because that is shorter: many pieces of one
    /// shape with few placements, such as a box full of 1x1 pieces. A set
    /// is canonical as it stands, and a move flips two bits.
    pub set: bool,
}

/// One piece of the layout: its class and where it starts.
#[derive(Clone, Debug)]
pub struct Piece {
    pub label: char,
    pub class: usize,
    pub start: u16,
}

/// The compiled board.
#[derive(Clone, Debug)]
pub struct Board {
    pub width: usize,
    pub height: usize,
    pub classes: Vec<Class>,
    /// In the layout's order.
    pub pieces: Vec<Piece>,
    pub special: usize,
    /// The special piece's placement on the goal, if it can ever get there.
    pub goal: Option<u16>,
    /// Bit offset of each slot in a packed key.
    pub offsets: Vec<u32>,
    pub key_bits: u32,
}

/// True when the piece of `shape` at `at` has a one-cell move (along
/// `axis`) alone among `blocked` cells: a piece without one is frozen.
fn steps(
    l: &Layout,
    shape: &[(usize, usize)],
    blocked: &[bool],
    at: (usize, usize),
    axis: Axis,
) -> bool {
    Dir::ALL.into_iter().filter(|&d| axis.allows(d)).any(|d| {
        let (dr, dc) = d.delta();
        let (r, c) = (at.0.wrapping_add_signed(dr), at.1.wrapping_add_signed(dc));
        shape.iter().all(|&(sr, sc)| {
            let (y, x) = (r.wrapping_add(sr), c.wrapping_add(sc));
            y < l.height && x < l.width && !blocked[y * l.width + x]
        })
    })
}

/// Every anchor where `shape` fits among `blocked` cells.
fn fits(l: &Layout, shape: &[(usize, usize)], blocked: &[bool]) -> Vec<(usize, usize)> {
    let (h, w) = shape
        .iter()
        .fold((0, 0), |(h, w), &(r, c)| (h.max(r + 1), w.max(c + 1)));
    let mut out = Vec::new();
    for r in 0..=l.height.saturating_sub(h) {
        for c in 0..=l.width.saturating_sub(w) {
            if shape
                .iter()
                .all(|&(dr, dc)| !blocked[(r + dr) * l.width + c + dc])
            {
                out.push((r, c));
            }
        }
    }
    out
}

/// The placements reachable alone from `starts` over `anchors`, sorted.
/// A grid of flags, not a hash set: this runs for every piece of every
/// board, and on a small puzzle it cost as much as the search.
fn reachable(
    anchors: &[(usize, usize)],
    starts: &[(usize, usize)],
    axis: Axis,
) -> Vec<(usize, usize)> {
    let all = || anchors.iter().chain(starts);
    let rows = all().map(|a| a.0 + 1).max().unwrap_or(0);
    let cols = all().map(|a| a.1 + 1).max().unwrap_or(0);
    let mut fits = vec![false; rows * cols];
    for &(r, c) in anchors {
        fits[r * cols + c] = true;
    }
    let mut seen = vec![false; rows * cols];
    let mut queue: VecDeque<(usize, usize)> = VecDeque::new();
    for &(r, c) in starts {
        if !std::mem::replace(&mut seen[r * cols + c], true) {
            queue.push_back((r, c));
        }
    }
    while let Some((r, c)) = queue.pop_front() {
        for d in Dir::ALL.into_iter().filter(|&d| axis.allows(d)) {
            let (dr, dc) = d.delta();
            let (nr, nc) = (r.wrapping_add_signed(dr), c.wrapping_add_signed(dc));
            if nr < rows && nc < cols && fits[nr * cols + nc] && !seen[nr * cols + nc] {
                seen[nr * cols + nc] = true;
                queue.push_back((nr, nc));
            }
        }
    }
    (0..rows * cols)
        .filter(|&i| seen[i])
        .map(|i| (i / cols, i % cols))
        .collect()
}

/// A class's shape (cells from the top-left of its box), specialness and axis.
type Kind = (Vec<(usize, usize)>, bool, Axis);

/// Pieces grouped by (shape, special), in order of first appearance;
/// each frozen piece is a class of its own.
fn classes_of(l: &Layout, frozen: &[bool], axes: &[Axis]) -> (Vec<Kind>, Vec<usize>) {
    let mut kinds: Vec<Kind> = Vec::new();
    let mut movable: Vec<bool> = Vec::new();
    let mut of = Vec::new();
    for (j, (p, &f)) in l.pieces.iter().zip(frozen).enumerate() {
        let k = (normalise(&p.cells), p.special, axis_of(axes, j));
        let found = (!f)
            .then(|| (0..kinds.len()).find(|&i| movable[i] && kinds[i] == k))
            .flatten();
        let i = found.unwrap_or_else(|| {
            kinds.push(k);
            movable.push(!f);
            kinds.len() - 1
        });
        of.push(i);
    }
    (kinds, of)
}

/// Piece `j`'s axis; pieces past the end of `axes` move freely.
fn axis_of(axes: &[Axis], j: usize) -> Axis {
    axes.get(j).copied().unwrap_or_default()
}

fn top_left(cells: &[(usize, usize)]) -> (usize, usize) {
    (
        cells.iter().map(|c| c.0).min().unwrap_or(0),
        cells.iter().map(|c| c.1).min().unwrap_or(0),
    )
}

/// Which pieces can never move: alone among the walls and the pieces
/// already frozen, they have no other placement. Repeated until stable.
fn frozen_pieces(l: &Layout, axes: &[Axis]) -> (Vec<bool>, Vec<bool>) {
    let mut blocked: Vec<bool> = l.floor.iter().map(|f| *f == Floor::Wall).collect();
    let mut frozen = vec![false; l.pieces.len()];
    loop {
        let mut changed = false;
        for (j, p) in l.pieces.iter().enumerate() {
            if frozen[j] {
                continue;
            }
            let shape = normalise(&p.cells);
            let b: Vec<bool> = (0..l.floor.len())
                .map(|i| blocked[i] || (!p.special && l.floor[i] == Floor::Door))
                .collect();
            if !steps(l, &shape, &b, top_left(&p.cells), axis_of(axes, j)) {
                frozen[j] = true;
                changed = true;
                for &(r, c) in &p.cells {
                    blocked[r * l.width + c] = true;
                }
            }
        }
        if !changed {
            return (frozen, blocked);
        }
    }
}

/// Anchors a piece reaches alone, sorted.
type Reach = Vec<(usize, usize)>;

/// Pieces that can never matter: the cells each piece could ever cover
/// alone link pieces whose areas meet; a piece not linked to the special
/// one, through any chain, never blocks a piece that does, so an optimal
/// plan never moves it. It is frozen like a wall (exact for both metrics).
fn unrelated(l: &Layout, frozen: &[bool], blocked: &[bool], axes: &[Axis]) -> Vec<bool> {
    // Pieces of one kind that reach each other's places share an area:
    // found once (a box of fourteen 1x1 pieces floods once, not 14 times).
    let mut known: Vec<(Kind, Reach, Vec<bool>)> = Vec::new();
    let areas: Vec<Vec<bool>> = l
        .pieces
        .iter()
        .zip(frozen)
        .enumerate()
        .map(|(j, (p, &f))| {
            if f {
                return vec![false; l.floor.len()];
            }
            let kind = (normalise(&p.cells), p.special, axis_of(axes, j));
            let start = top_left(&p.cells);
            if let Some((_, _, area)) = known
                .iter()
                .find(|(k, reach, _)| *k == kind && reach.binary_search(&start).is_ok())
            {
                return area.clone();
            }
            let b: Vec<bool> = (0..l.floor.len())
                .map(|i| blocked[i] || (!p.special && l.floor[i] == Floor::Door))
                .collect();
            let reach = reachable(&fits(l, &kind.0, &b), &[start], kind.2);
            let mut area = vec![false; l.floor.len()];
            for &(r, c) in &reach {
                for &(dr, dc) in &kind.0 {
                    area[(r + dr) * l.width + c + dc] = true;
                }
            }
            known.push((kind, reach, area.clone()));
            area
        })
        .collect();
    let meet = |a: usize, b: usize| areas[a].iter().zip(&areas[b]).any(|(x, y)| *x && *y);
    let mut linked: Vec<bool> = l.pieces.iter().map(|p| p.special).collect();
    let mut stack: Vec<usize> = (0..linked.len()).filter(|&j| linked[j]).collect();
    while let Some(a) = stack.pop() {
        for b in 0..linked.len() {
            if !linked[b] && !frozen[b] && meet(a, b) {
                linked[b] = true;
                stack.push(b);
            }
        }
    }
    (0..linked.len())
        .map(|j| !frozen[j] && !linked[j])
        .collect()
}

impl Board {
    /// Compiles a layout (already checked by [`Layout::parse`]).
    pub fn new(l: &Layout) -> Board {
        Board::with_axes(l, &[])
    }

    /// Compiles a layout whose pieces may be kept to one axis each
    /// (`axes[j]` for piece `j`; missing ones move freely).
    pub fn with_axes(l: &Layout, axes: &[Axis]) -> Board {
        let (mut frozen_piece, blocked) = frozen_pieces(l, axes);
        let idle = unrelated(l, &frozen_piece, &blocked, axes);
        for (f, i) in frozen_piece.iter_mut().zip(idle) {
            *f |= i;
        }
        let (kinds, of) = classes_of(l, &frozen_piece, axes);
        let mut frozen = vec![false; kinds.len()];
        let places = kinds
            .iter()
            .enumerate()
            .map(|(k, (shape, special, axis))| {
                let starts: Vec<(usize, usize)> = l
                    .pieces
                    .iter()
                    .zip(&of)
                    .filter(|(_, c)| **c == k)
                    .map(|(p, _)| top_left(&p.cells))
                    .collect();
                let j = of.iter().position(|&c| c == k).unwrap_or(0);
                if frozen_piece[j] {
                    frozen[k] = true;
                    return starts;
                }
                let b: Vec<bool> = (0..l.floor.len())
                    .map(|i| blocked[i] || (!special && l.floor[i] == Floor::Door))
                    .collect();
                reachable(&fits(l, shape, &b), &starts, *axis)
            })
            .collect();
        Board::assemble(l, kinds, &of, places, frozen)
    }

    fn assemble(
        l: &Layout,
        kinds: Vec<Kind>,
        of: &[usize],
        places: Vec<Vec<(usize, usize)>>,
        frozen: Vec<bool>,
    ) -> Board {
        let mut classes = Vec::new();
        let mut slot = 0;
        for (k, ((shape, special, axis), anchors)) in kinds.into_iter().zip(places).enumerate() {
            let n = of.iter().filter(|&&c| c == k).count();
            let slots = if frozen[k] {
                slot..slot
            } else {
                slot..slot + n
            };
            slot = slots.end;
            let mut class = Class::new(l, shape, special, anchors, slots, frozen[k]);
            for next in &mut class.next {
                for (n, d) in next.iter_mut().zip(Dir::ALL) {
                    if !axis.allows(d) {
                        *n = NONE;
                    }
                }
            }
            classes.push(class);
        }
        let pieces: Vec<Piece> = l
            .pieces
            .iter()
            .zip(of)
            .map(|(p, &k)| Piece {
                label: p.label,
                class: k,
                start: classes[k].placement(top_left(&p.cells)).unwrap_or(NONE),
            })
            .collect();
        let special = classes.iter().position(|c| c.special).unwrap_or(0);
        let goal = classes[special].placement(top_left(&l.goal_cells()));
        let mut offsets = Vec::new();
        let mut bits = 0;
        for c in &classes {
            for _ in c.slots.clone() {
                offsets.push(bits);
                if !c.set {
                    bits += c.bits;
                }
            }
            if c.set {
                bits += c.anchors.len() as u32;
            }
        }
        Board {
            width: l.width,
            height: l.height,
            classes,
            pieces,
            special,
            goal,
            offsets,
            key_bits: bits,
        }
    }

    /// Number of slots (movable pieces) in a state.
    pub fn slots(&self) -> usize {
        self.offsets.len()
    }

    /// The start state: each class's placements, sorted.
    pub fn start(&self) -> Vec<u16> {
        let mut s = vec![0; self.slots()];
        for (k, c) in self.classes.iter().enumerate() {
            for (slot, v) in c.slots.clone().zip(self.starts(k)) {
                s[slot] = v;
            }
        }
        s
    }

    /// Where the pieces of class `k` start, sorted.
    fn starts(&self, k: usize) -> Vec<u16> {
        let mut v: Vec<u16> = self
            .pieces
            .iter()
            .filter(|p| p.class == k)
            .map(|p| p.start)
            .collect();
        v.sort_unstable();
        v
    }

    /// Sorts the slots of class `k` after slot `i` changed.
    pub fn resort(&self, s: &mut [u16], k: usize) {
        let r = self.classes[k].slots.clone();
        if r.len() > 1 {
            s[r].sort_unstable();
        }
    }

    /// `l` (a position of the same puzzle) as a state of this board, or
    /// `None` when it is not one: a piece this board does not have, or a
    /// frozen piece elsewhere.
    pub fn state_of(&self, l: &Layout) -> Option<Vec<u16>> {
        let mut at: Vec<Vec<u16>> = vec![Vec::new(); self.classes.len()];
        let frozen_at = |k: usize, q: u16| self.pieces.iter().any(|p| p.class == k && p.start == q);
        for p in &l.pieces {
            let shape = normalise(&p.cells);
            let top = (
                p.cells.iter().map(|c| c.0).min()?,
                p.cells.iter().map(|c| c.1).min()?,
            );
            let kinds = || {
                self.classes
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| c.shape == shape && c.special == p.special)
            };
            // A frozen class takes the piece only where one of its pieces
            // stands; a class that moves takes it anywhere it fits.
            let (k, q) = kinds()
                .filter(|(_, c)| c.frozen)
                .find_map(|(k, c)| {
                    c.placement(top)
                        .filter(|&q| frozen_at(k, q))
                        .map(|q| (k, q))
                })
                .or_else(|| {
                    kinds()
                        .filter(|(_, c)| !c.frozen)
                        .find_map(|(k, c)| c.placement(top).map(|q| (k, q)))
                })?;
            at[k].push(q);
        }
        let mut s = vec![0; self.slots()];
        for (k, c) in self.classes.iter().enumerate() {
            at[k].sort_unstable();
            if c.frozen {
                if self.starts(k) != at[k] {
                    return None;
                }
            } else if at[k].len() != c.slots.len() {
                return None;
            } else {
                s[c.slots.clone()].copy_from_slice(&at[k]);
            }
        }
        Some(s)
    }

    /// True when the special piece sits on the goal.
    pub fn is_goal(&self, s: &[u16]) -> bool {
        let c = &self.classes[self.special];
        match (self.goal, c.frozen) {
            (None, _) => false,
            (Some(_), true) => self
                .pieces
                .iter()
                .any(|p| p.class == self.special && Some(p.start) == self.goal),
            (Some(g), false) => s[c.slots.start] == g,
        }
    }
}

impl Class {
    /// A class from its placements: step tables, cells and key bits.
    fn new(
        l: &Layout,
        shape: Vec<(usize, usize)>,
        special: bool,
        anchors: Vec<(usize, usize)>,
        slots: std::ops::Range<usize>,
        frozen: bool,
    ) -> Class {
        let next = anchors
            .iter()
            .map(|&(r, c)| {
                Dir::ALL.map(|d| {
                    let (dr, dc) = d.delta();
                    let to = (r.wrapping_add_signed(dr), c.wrapping_add_signed(dc));
                    anchors.binary_search(&to).map_or(NONE, |i| i as u16)
                })
            })
            .collect();
        let cells = anchors
            .iter()
            .map(|&(r, c)| {
                shape
                    .iter()
                    .map(|&(dr, dc)| (r + dr) * l.width + c + dc)
                    .collect()
            })
            .collect();
        let bits = if frozen {
            0
        } else {
            usize::BITS - (anchors.len() - 1).leading_zeros()
        };
        let set = !frozen && anchors.len() < slots.len() * bits as usize;
        Class {
            shape,
            special,
            anchors,
            cells,
            next,
            bits,
            slots,
            frozen,
            set,
        }
    }

    /// The placement whose bounding box starts at `at`.
    pub fn placement(&self, at: (usize, usize)) -> Option<u16> {
        self.anchors.binary_search(&at).ok().map(|i| i as u16)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_placements_and_frozen_pieces() {
        // `x` is boxed in: frozen. The two `a`/`b` singles share a class.
        let l = Layout::parse(
            "#######\n#x#a  #\n###*b #\n#  *  #\n#---###\n#  .  #\n#_ .###\n",
            "t",
        )
        .unwrap();
        let b = Board::new(&l);
        let x = &b.classes[b.pieces[0].class];
        assert!(x.frozen && x.bits == 0);
        assert_eq!(b.pieces[1].class, b.pieces[3].class);
        assert_eq!(b.slots(), 3);
        let single = &b.classes[b.pieces[1].class];
        assert!(
            single.anchors.iter().all(|&(r, _)| r < 4),
            "singles never pass the door"
        );
        let star = &b.classes[b.special];
        assert!(star.anchors.contains(&(5, 3)));
        assert!(b.goal.is_some());
        let s = b.start();
        assert!(!b.is_goal(&s));
        // A layout as a state: the start is the start, labels aside.
        assert_eq!(b.state_of(&l), Some(s));
        let mut swapped = l.clone();
        swapped.pieces.swap(1, 3);
        assert_eq!(b.state_of(&swapped), b.state_of(&l));
        // The frozen piece elsewhere is not a state of this board.
        let moved = Layout::parse(
            "#######\n# #a x#\n###*b #\n#  *  #\n#---###\n#  .  #\n#_ .###\n",
            "t",
        )
        .unwrap();
        assert_eq!(b.state_of(&moved), None);
    }
}
