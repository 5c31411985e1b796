//! Iterative-deepening A* over a sliding-tile frame, for optimal plans.
//!
//! The search keeps one board in a fixed array and changes it in place;
//! the lower bound ([`Bound`]) is updated from the one tile that moved, so
//! the inner loop neither allocates nor rescans the board. Any admissible
//! bound works: Manhattan distance plus linear conflicts ([`Manhattan`])
//! for every frame, additive pattern databases for 4×4
//! ([`super::pdb::PatternBound`]).

use super::{MAX_SLOTS, Slide, Tiles};

/// An admissible lower bound on the slides left, kept up to date move by
/// move.
pub trait Bound {
    /// What [`Bound::undo`] needs to step back.
    type Saved: Copy;

    /// Starts over from `board` (slot -> value, `0` the gap); returns its bound.
    fn reset(&mut self, board: &[u8; MAX_SLOTS]) -> u32;

    /// The bound once `tile` has slid from slot `from` to slot `to`.
    fn apply(&mut self, tile: u8, from: usize, to: usize) -> (u32, Self::Saved);

    /// Undoes the [`Bound::apply`] that returned `saved`.
    fn undo(&mut self, tile: u8, from: usize, to: usize, saved: Self::Saved);
}

/// The frame's geometry: each slot's neighbours.
#[derive(Clone, Copy)]
struct Grid {
    width: usize,
    len: usize,
    /// Up to four neighbouring slots per slot; `u8::MAX` ends the list.
    next: [[u8; 4]; MAX_SLOTS],
}

impl Grid {
    fn new(width: usize, height: usize) -> Grid {
        let mut next = [[u8::MAX; 4]; MAX_SLOTS];
        for (slot, list) in next.iter_mut().enumerate().take(width * height) {
            let (x, y) = (slot % width, slot / width);
            let mut k = 0;
            let mut push = |ok: bool, s: usize| {
                if ok {
                    list[k] = s as u8;
                    k += 1;
                }
            };
            push(y > 0, slot.wrapping_sub(width));
            push(x > 0, slot.wrapping_sub(1));
            push(x + 1 < width, slot + 1);
            push(y + 1 < height, slot + width);
        }
        Grid {
            width,
            len: width * height,
            next,
        }
    }

    /// The slide that moves the tile in `from` into the gap at `gap`.
    fn slide(&self, gap: usize, from: usize) -> Slide {
        if from == gap + 1 {
            Slide::Left
        } else if from + 1 == gap {
            Slide::Right
        } else if from == gap + self.width {
            Slide::Up
        } else {
            Slide::Down
        }
    }
}

/// What a finished search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The slides, in order; empty when the start is the goal.
    pub slides: Vec<Slide>,
    /// Nodes generated, over every iteration.
    pub nodes: u64,
    /// The bound at the start.
    pub first_bound: u32,
}

const DONE: u32 = u32::MAX;

/// One IDA* run: the board being changed, the bound, the path so far.
struct Search<'b, B: Bound> {
    grid: Grid,
    board: [u8; MAX_SLOTS],
    goal: [u8; MAX_SLOTS],
    bound: &'b mut B,
    /// The gap's slot before each slide made so far.
    path: Vec<u8>,
    limit: u32,
    nodes: u64,
    max_nodes: u64,
}

impl<B: Bound> Search<'_, B> {
    /// Depth-first below `gap` within the limit; `DONE` when the goal is
    /// found (the path then holds the plan), else the least `f` over it.
    fn dfs(&mut self, gap: usize, g: u32, h: u32, parent: usize) -> u32 {
        if h == 0 && self.board[..self.grid.len] == self.goal[..self.grid.len] {
            return DONE;
        }
        if self.nodes >= self.max_nodes {
            return DONE - 1;
        }
        let mut least = DONE - 1;
        let next = self.grid.next[gap];
        for q in next {
            let from = usize::from(q);
            if q == u8::MAX {
                break;
            }
            if from == parent {
                continue;
            }
            let tile = self.board[from];
            let (h2, saved) = self.bound.apply(tile, from, gap);
            self.nodes += 1;
            let f = g + 1 + h2;
            if f <= self.limit {
                self.board[gap] = tile;
                self.board[from] = 0;
                self.path.push(gap as u8);
                let r = self.dfs(from, g + 1, h2, gap);
                if r == DONE {
                    self.bound.undo(tile, from, gap, saved);
                    return DONE;
                }
                self.path.pop();
                self.board[from] = tile;
                self.board[gap] = 0;
                least = least.min(r);
            } else {
                least = least.min(f);
            }
            self.bound.undo(tile, from, gap, saved);
        }
        least
    }
}

/// Why a search has no plan.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    #[error("the frames differ in size")]
    Shape,
    #[error(
        "this arrangement cannot reach the goal: the tiles' order has the wrong parity for where the gap is"
    )]
    Parity,
    #[error("gave up after {nodes} nodes: no plan is shorter than {proven} slides")]
    OverBudget { nodes: u64, proven: u32 },
}

/// An optimal plan from `start` to `goal` (relabelled so that goal slot
/// `i` holds value `i + 1`, the gap last), under `bound`, generating at
/// most `max_nodes` nodes.
pub fn search<B: Bound>(
    start: &Tiles,
    goal: &Tiles,
    bound: &mut B,
    max_nodes: u64,
) -> Result<Found, SearchError> {
    if (start.width(), start.height()) != (goal.width(), goal.height()) {
        return Err(SearchError::Shape);
    }
    if !start.reaches(goal) {
        return Err(SearchError::Parity);
    }
    let grid = Grid::new(start.width(), start.height());
    let board = relabel(start, goal);
    let mut canonical = [0u8; MAX_SLOTS];
    for (i, v) in canonical.iter_mut().enumerate().take(grid.len) {
        *v = if i == goal.gap() { 0 } else { i as u8 + 1 };
    }
    let h = bound.reset(&board);
    let mut s = Search {
        grid,
        board,
        goal: canonical,
        bound,
        path: Vec::with_capacity(128),
        limit: h,
        nodes: 0,
        max_nodes,
    };
    let gap = start.gap();
    loop {
        let r = s.dfs(gap, 0, h, usize::MAX);
        if r == DONE {
            break;
        }
        if r == DONE - 1 || s.nodes >= max_nodes {
            return Err(SearchError::OverBudget {
                nodes: s.nodes,
                proven: s.limit,
            });
        }
        s.limit = r;
    }
    let mut slides = Vec::with_capacity(s.path.len());
    if s.path.is_empty() {
        // The start is the goal: the loop below would invent a last slide.
        return Ok(Found {
            slides,
            nodes: s.nodes,
            first_bound: h,
        });
    }
    let mut gap = start.gap();
    // The gap's slot after each slide is the next one's "before"; the last
    // slide leaves the gap where the goal has it.
    let afters: Vec<usize> = s
        .path
        .iter()
        .skip(1)
        .map(|&b| usize::from(b))
        .chain(std::iter::once(goal.gap()))
        .collect();
    for (i, &after) in afters.iter().enumerate() {
        debug_assert_eq!(usize::from(s.path[i]), gap);
        slides.push(grid.slide(gap, after));
        gap = after;
    }
    Ok(Found {
        slides,
        nodes: s.nodes,
        first_bound: h,
    })
}

/// `start`'s slots with each value renamed so that the goal reads
/// `1, 2, …` in slot order, and its gap stays `0`.
pub fn relabel(start: &Tiles, goal: &Tiles) -> [u8; MAX_SLOTS] {
    let mut name = [0u8; MAX_SLOTS];
    for i in 0..goal.len() {
        let v = usize::from(goal.get(i));
        name[v] = if v == 0 { 0 } else { i as u8 + 1 };
    }
    let mut board = [0u8; MAX_SLOTS];
    for (i, b) in board.iter_mut().enumerate().take(start.len()) {
        *b = name[usize::from(start.get(i))];
    }
    board
}

/// Manhattan distance plus linear conflicts, for any frame: each tile's
/// distance to its slot, plus two slides for every tile that must leave
/// its own row (or column) for the others there to pass. Only the two
/// lines a slide touches are counted again.
pub struct Manhattan {
    width: usize,
    height: usize,
    board: [u8; MAX_SLOTS],
    distance: u32,
    conflicts: u32,
    /// Each row's conflicts, then each column's.
    lines: [u8; 2 * MAX_SLOTS],
}

impl Manhattan {
    /// The bound for a `width`×`height` frame whose goal holds value `v`
    /// in slot `v - 1` (see [`relabel`]).
    pub fn new(width: usize, height: usize) -> Manhattan {
        Manhattan {
            width,
            height,
            board: [0; MAX_SLOTS],
            distance: 0,
            conflicts: 0,
            lines: [0; 2 * MAX_SLOTS],
        }
    }

    fn tile_distance(&self, tile: u8, slot: usize) -> u32 {
        let home = usize::from(tile) - 1;
        let w = self.width;
        ((slot % w).abs_diff(home % w) + (slot / w).abs_diff(home / w)) as u32
    }

    /// The conflicts of line `k`: rows `0..height`, then columns.
    fn line_conflicts(&self, k: usize) -> u8 {
        let (w, h) = (self.width, self.height);
        let (row, index, len) = if k < h {
            (true, k, w)
        } else {
            (false, k - h, h)
        };
        // Where along the line each tile that belongs to it should be.
        let mut keys = [0usize; MAX_SLOTS];
        let mut n = 0;
        for along in 0..len {
            let slot = if row {
                index * w + along
            } else {
                along * w + index
            };
            let tile = self.board[slot];
            if tile == 0 {
                continue;
            }
            let home = usize::from(tile) - 1;
            let (home_line, home_along) = if row {
                (home / w, home % w)
            } else {
                (home % w, home / w)
            };
            if home_line == index {
                keys[n] = home_along;
                n += 1;
            }
        }
        // Tiles that must leave = n - the longest run already in order.
        let mut best = [0usize; MAX_SLOTS];
        let mut longest = 0;
        for i in 0..n {
            best[i] = 1
                + (0..i)
                    .filter(|&j| keys[j] < keys[i])
                    .map(|j| best[j])
                    .max()
                    .unwrap_or(0);
            longest = longest.max(best[i]);
        }
        (2 * (n - longest)) as u8
    }

    /// The two lines a slide from `from` to `to` changes: the columns for
    /// a slide along a row, else the rows.
    fn touched(&self, from: usize, to: usize) -> (usize, usize) {
        let w = self.width;
        if from / w == to / w {
            (self.height + from % w, self.height + to % w)
        } else {
            (from / w, to / w)
        }
    }
}

impl Bound for Manhattan {
    type Saved = (u32, u32, u8, u8);

    fn reset(&mut self, board: &[u8; MAX_SLOTS]) -> u32 {
        self.board = *board;
        let n = self.width * self.height;
        self.distance = (0..n)
            .filter(|&i| board[i] != 0)
            .map(|i| self.tile_distance(board[i], i))
            .sum();
        for k in 0..self.width + self.height {
            self.lines[k] = self.line_conflicts(k);
        }
        self.conflicts = self.lines.iter().map(|&c| u32::from(c)).sum();
        self.distance + self.conflicts
    }

    fn apply(&mut self, tile: u8, from: usize, to: usize) -> (u32, Self::Saved) {
        let (a, b) = self.touched(from, to);
        let saved = (self.distance, self.conflicts, self.lines[a], self.lines[b]);
        self.distance =
            self.distance + self.tile_distance(tile, to) - self.tile_distance(tile, from);
        self.board[to] = tile;
        self.board[from] = 0;
        let (old_a, old_b) = (u32::from(self.lines[a]), u32::from(self.lines[b]));
        self.lines[a] = self.line_conflicts(a);
        self.lines[b] = self.line_conflicts(b);
        self.conflicts =
            self.conflicts + u32::from(self.lines[a]) + u32::from(self.lines[b]) - old_a - old_b;
        (self.distance + self.conflicts, saved)
    }

    fn undo(&mut self, tile: u8, from: usize, to: usize, saved: Self::Saved) {
        let (a, b) = self.touched(from, to);
        self.board[from] = tile;
        self.board[to] = 0;
        let (distance, conflicts, line_a, line_b) = saved;
        self.lines[a] = line_a;
        self.lines[b] = line_b;
        self.distance = distance;
        self.conflicts = conflicts;
    }
}
