//! The lattice a skin's boards are read on: cells of one pitch, and, for a
//! board of slots (a Continuity frame), a gap after every few cells that is
//! itself read as one cell, a band of its own width.
//!
//! ```text
//! uniform:  | c | c | c | c | c | c |
//! gaps:     | c | c | c |g| c | c | c |g| c | c | c |     every = 3
//! ```

use crate::geom::RectF;
use crate::vision::lattice::Lattice;

/// A gap between groups of cells: after every `every` cells along an
/// axis, one band `x` pitches wide (`y` pitches high across rows), read as
/// a cell of its own.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gaps {
    pub every: usize,
    pub x: f64,
    pub y: f64,
}

/// The gap widths, in pitches, a skin may have (as learned and as a
/// calibration file may give them).
pub const GAP_WIDTHS: std::ops::RangeInclusive<f64> = 0.05..=10.0;

/// One axis of a grid: its origin, its pitch, and its gaps (cells a
/// group, and a gap's width in pitches).
#[derive(Clone, Copy)]
struct Axis {
    origin: f64,
    pitch: f64,
    gap: Option<(usize, f64)>,
}

impl Axis {
    /// Where column (or row) `k` starts: also where column `k - 1` ends,
    /// as a gap ends where the next group starts.
    fn start(&self, k: usize) -> f64 {
        self.origin + self.pitch * self.pitches(k)
    }

    /// The width of the first `k` columns, in pitches.
    fn pitches(&self, k: usize) -> f64 {
        match self.gap {
            None => k as f64,
            Some((n, g)) => {
                let groups = k / (n + 1);
                groups as f64 * (n as f64 + g) + (k % (n + 1)) as f64
            }
        }
    }

    /// How far the lattice repeats.
    fn period(&self) -> f64 {
        match self.gap {
            None => self.pitch,
            Some((n, g)) => self.pitch * (n as f64 + g),
        }
    }

    /// How many whole columns fit before `len`.
    fn count(&self, len: usize) -> usize {
        let room = len as f64 - self.origin + 0.01;
        if room <= 0.0 {
            return 0;
        }
        match self.gap {
            None => (room / self.pitch).floor() as usize,
            Some((n, _)) => {
                let groups = (room / self.period()).floor();
                let left = room - groups * self.period();
                groups as usize * (n + 1) + ((left / self.pitch).floor() as usize).min(n)
            }
        }
    }
}

/// One move of [`Grid::search`]: the grid, a signed step in pixels, and
/// the outer lines' span in pitches (across, down).
type Move = fn(&mut Grid, f64, f64, f64);

/// The moves of one outer line alone: left, right, top, bottom. A line
/// alone changes the pitch without moving the far one.
pub(super) const OUTER_LINES: [Move; 4] = [
    |g, d, nc, _| {
        g.x0 += d;
        g.px -= d / nc;
    },
    |g, d, nc, _| g.px += d / nc,
    |g, d, _, nr| {
        g.y0 += d;
        g.py -= d / nr;
    },
    |g, d, _, nr| g.py += d / nr,
];

/// How often [`Grid::walk`] takes one move again in a pass.
const REPEATS: usize = 32;

/// Which moves [`Grid::walk`] takes.
#[derive(Clone, Copy, PartialEq, Debug)]
pub(crate) enum Walk {
    /// The outer lines and shifts of the whole grid.
    Shifts,
    /// The outer lines (and a grid's gaps) alone.
    Lines,
}

/// A grid: the top left corner of cell (0, 0), the pitch on each axis,
/// and the gaps between groups of cells, if the skin has them. Cell (0, 0)
/// starts a group.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grid {
    pub x0: f64,
    pub y0: f64,
    pub px: f64,
    pub py: f64,
    pub gaps: Option<Gaps>,
}

impl Grid {
    /// A grid with no gaps.
    pub fn uniform(x0: f64, y0: f64, px: f64, py: f64) -> Grid {
        Grid {
            x0,
            y0,
            px,
            py,
            gaps: None,
        }
    }

    fn x(&self) -> Axis {
        Axis {
            origin: self.x0,
            pitch: self.px,
            gap: self.gaps.map(|g| (g.every, g.x)),
        }
    }

    fn y(&self) -> Axis {
        Axis {
            origin: self.y0,
            pitch: self.py,
            gap: self.gaps.map(|g| (g.every, g.y)),
        }
    }

    pub fn cell(&self, r: usize, c: usize) -> RectF {
        let (x, y) = (self.x(), self.y());
        RectF {
            x0: x.start(c),
            y0: y.start(r),
            x1: x.start(c + 1),
            y1: y.start(r + 1),
        }
    }

    /// How many whole cells fit in a picture of `w × h`: (rows, columns).
    pub fn counts(&self, w: usize, h: usize) -> (usize, usize) {
        (self.y().count(h), self.x().count(w))
    }

    /// The size of `rows × cols` cells, in pitches: (across, down).
    pub fn span(&self, rows: usize, cols: usize) -> (f64, f64) {
        (self.x().pitches(cols), self.y().pitches(rows))
    }

    /// The repeat of the lattice along each axis, in pixels: a pitch, or
    /// a group and its gap.
    pub fn periods(&self) -> (f64, f64) {
        (self.x().period(), self.y().period())
    }

    /// The same grid in a picture scaled by `s`.
    pub fn scaled(&self, s: f64) -> Grid {
        Grid {
            x0: self.x0 * s,
            y0: self.y0 * s,
            px: self.px * s,
            py: self.py * s,
            gaps: self.gaps,
        }
    }

    /// Coordinate descent on the grid, in steps from `step` down to
    /// `finest`, to the lowest `cost` (`None` for a grid not to consider).
    /// Each move shifts the whole grid, or one outer line of `rows × cols`
    /// cells alone: a line alone changes the pitch without moving the far
    /// one. A grid with gaps also widens or narrows its gaps. At each step
    /// every move is tried until no move is better.
    pub fn descend(
        self,
        counts: (usize, usize),
        step: f64,
        finest: f64,
        cost: impl FnMut(&Grid) -> Option<f64>,
    ) -> Grid {
        self.search(counts, (step, finest), None, cost)
    }

    /// [`Grid::descend`] for a grid already near its best: a move that is
    /// better is taken again while it stays better, and only the finest
    /// step is passed over until no move is better. Each coarser step
    /// takes one pass, as the moves along one axis hardly change the best
    /// along the other: about half the costs `descend` looks at. With
    /// `Walk::Lines`, only the outer lines (and gaps) move, not the whole
    /// grid (a shift is a move of both lines): for a grid placed to a
    /// pixel or so, with no ridge left to cross.
    pub fn walk(
        self,
        counts: (usize, usize),
        (step, finest): (f64, f64),
        walk: Walk,
        cost: impl FnMut(&Grid) -> Option<f64>,
    ) -> Grid {
        self.search(counts, (step, finest), Some(walk), cost)
    }

    /// [`Grid::descend`] when `walk` is `None`, else [`Grid::walk`].
    fn search(
        mut self,
        (rows, cols): (usize, usize),
        (mut step, finest): (f64, f64),
        walk: Option<Walk>,
        mut cost: impl FnMut(&Grid) -> Option<f64>,
    ) -> Grid {
        let (nc, nr) = self.span(rows.max(1), cols.max(1));
        let moves = self.moves(walk != Some(Walk::Lines));
        let mut best = cost(&self).unwrap_or(f64::MAX);
        // A better move is taken again at most this often a pass: a cost
        // that keeps falling (a pitch growing to the picture's size) ends.
        let tries = if walk.is_some() { REPEATS } else { 1 };
        while step > finest {
            let mut moved = false;
            for m in &moves {
                for sign in [-1.0, 1.0] {
                    for _ in 0..tries {
                        let mut t = self;
                        m(&mut t, sign * step, nc, nr);
                        match cost(&t).filter(|&c| c < best) {
                            Some(c) => (best, self, moved) = (c, t, true),
                            None => break,
                        }
                    }
                }
            }
            let last = step / 2.0 <= finest;
            // A walk settles only at its finest step.
            if !moved || (walk.is_some() && !last) {
                step /= 2.0;
            }
        }
        self
    }

    /// The moves [`Grid::search`] tries: one outer line along each axis,
    /// the whole grid too with `shifts`, and a grid with gaps its gaps'
    /// widths.
    fn moves(&self, shifts: bool) -> Vec<Move> {
        let mut moves: Vec<Move> = OUTER_LINES.to_vec();
        if shifts {
            moves.push(|g, d, _, _| g.x0 += d);
            moves.push(|g, d, _, _| g.y0 += d);
        }
        if self.gaps.is_some() {
            moves.push(|g, d, _, _| {
                let px = g.px;
                g.gaps.iter_mut().for_each(|s| s.x += d / px);
            });
            moves.push(|g, d, _, _| {
                let py = g.py;
                g.gaps.iter_mut().for_each(|s| s.y += d / py);
            });
        }
        moves
    }

    /// The same lines, numbered from the first whole cell (or group) in
    /// the picture: the origin moved by whole periods into `[0, period)`.
    /// A grid moved past the picture's left or top edge is still the same
    /// grid.
    pub fn first_whole(self) -> Grid {
        let (sx, sy) = self.periods();
        Grid {
            x0: self.x0.rem_euclid(sx),
            y0: self.y0.rem_euclid(sy),
            ..self
        }
    }

    /// The lattice of rows `r0..r1` and columns `c0..c1`.
    pub fn lattice_of(&self, (r0, r1): (usize, usize), (c0, c1): (usize, usize)) -> Lattice {
        let (x, y) = (self.x(), self.y());
        Lattice {
            xs: (c0..=c1).map(|c| x.start(c)).collect(),
            ys: (r0..=r1).map(|r| y.start(r)).collect(),
        }
    }

    /// The lattice of its first `rows × cols` cells.
    pub fn lattice(&self, rows: usize, cols: usize) -> Lattice {
        self.lattice_of((0, rows), (0, cols))
    }

    /// True when columns `c0..c1` and rows `r0..r1` are whole groups: the
    /// first starts one, the last ends one. Always true with no gaps.
    pub fn whole_groups(&self, (r0, r1): (usize, usize), (c0, c1): (usize, usize)) -> bool {
        self.gaps.is_none_or(|g| {
            let n = g.every + 1;
            [r0, c0].iter().all(|k| k % n == 0) && [r1, c1].iter().all(|k| (k + 1) % n == 0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_past_the_picture_edge_is_numbered_from_its_first_whole_cell() {
        let g = Grid::uniform(-2.0, 35.0, 16.0, 16.0).first_whole();
        assert_eq!((g.x0, g.y0), (14.0, 3.0));
        // The same lines: every line of the one is a line of the other.
        assert_eq!(g.cell(0, 1).x0, 30.0);
        assert_eq!(g.cell(2, 0).y0, 35.0);
    }

    fn slotted() -> Grid {
        Grid {
            gaps: Some(Gaps {
                every: 3,
                x: 0.5,
                y: 1.0,
            }),
            ..Grid::uniform(10.0, 20.0, 10.0, 10.0)
        }
    }

    #[test]
    fn a_gap_after_every_group_is_a_cell_of_its_own_width() {
        let g = slotted();
        assert_eq!(g.cell(0, 2).x0, 30.0);
        // Column 3 is the gap, 5 px wide; column 4 starts the next group.
        let gap = g.cell(0, 3);
        assert_eq!((gap.x0, gap.x1), (40.0, 45.0));
        assert_eq!(g.cell(0, 4).x0, 45.0);
        assert_eq!(g.cell(4, 0).y0, 60.0);
        assert_eq!(g.span(7, 7), (6.5, 7.0));
        assert_eq!(g.periods(), (35.0, 40.0));
        let l = g.lattice(3, 5);
        assert_eq!(l.xs, vec![10.0, 20.0, 30.0, 40.0, 45.0, 55.0]);
    }

    #[test]
    fn only_whole_cells_and_groups_are_counted() {
        let g = slotted();
        // Across: 10 + 35 (a group and its gap) + 3 cells = 75.
        assert_eq!(g.counts(78, 100).1, 7);
        // The gap after the second group ends at 80.
        assert_eq!(g.counts(84, 100).1, 8);
        assert_eq!(g.counts(90, 100).1, 9);
        assert_eq!(g.counts(5, 100).1, 0);
        assert!(g.whole_groups((0, 7), (4, 11)));
        assert!(!g.whole_groups((0, 7), (1, 7)));
        assert!(!g.whole_groups((0, 6), (0, 7)));
        assert!(Grid::uniform(0.0, 0.0, 5.0, 5.0).whole_groups((1, 2), (3, 4)));
    }

    #[test]
    fn a_slotted_grid_is_numbered_from_its_first_whole_group() {
        let mut g = slotted();
        g.x0 = -25.0;
        let f = g.first_whole();
        assert_eq!(f.x0, 10.0);
        assert_eq!(f.cell(0, 0).x0, g.cell(0, 4).x0);
    }

    /// How far a grid's outer lines of 8 × 8 cells are from those of
    /// `want`, squared and summed: a bowl with its bottom at `want`.
    fn lines_apart(want: Grid) -> impl Fn(&Grid) -> Option<f64> {
        move |g: &Grid| {
            let (a, b) = (g.cell(0, 0), g.cell(7, 7));
            let (p, q) = (want.cell(0, 0), want.cell(7, 7));
            Some(
                [(a.x0, p.x0), (a.y0, p.y0), (b.x1, q.x1), (b.y1, q.y1)]
                    .iter()
                    .map(|(u, v)| (u - v) * (u - v))
                    .sum(),
            )
        }
    }

    #[test]
    fn every_search_finds_the_lines_to_its_finest_step() {
        let want = Grid::uniform(17.3, 9.6, 40.2, 39.7);
        let from = Grid::uniform(15.0, 11.0, 39.5, 40.5);
        let near = |g: Grid| {
            let cost = lines_apart(want)(&g).unwrap();
            assert!(cost < 4.0 * 0.06 * 0.06, "{g:?}: {cost}");
        };
        near(from.descend((8, 8), 2.5, 0.06, lines_apart(want)));
        near(from.walk((8, 8), (2.5, 0.06), Walk::Shifts, lines_apart(want)));
        // From a pixel or so off, the lines alone.
        let close = Grid::uniform(17.8, 9.1, 40.1, 39.8);
        near(close.walk((8, 8), (0.5, 0.06), Walk::Lines, lines_apart(want)));
    }

    #[test]
    fn a_walk_looks_at_fewer_grids_than_a_descent() {
        let want = Grid::uniform(17.3, 9.6, 40.2, 39.7);
        let from = Grid::uniform(16.0, 10.5, 40.0, 40.0);
        let looked = |walk: Option<Walk>| {
            let n = std::cell::Cell::new(0);
            let cost = |g: &Grid| {
                n.set(n.get() + 1);
                lines_apart(want)(g)
            };
            match walk {
                None => from.descend((8, 8), 2.5, 0.06, cost),
                Some(w) => from.walk((8, 8), (2.5, 0.06), w, cost),
            };
            n.get()
        };
        let (all, shifts, lines) = (
            looked(None),
            looked(Some(Walk::Shifts)),
            looked(Some(Walk::Lines)),
        );
        assert!(shifts < all && lines < shifts, "{all} {shifts} {lines}");
    }
}
