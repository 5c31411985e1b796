//! The board as a graph: passable cells joined by knight moves, with the
//! bitboards and the lower bounds the solver prunes with.

use super::board::{Board, Square};
use crate::geom::Cell;
use crate::solve::Bits256;

/// The board as a graph of passable cells joined by knight moves.
pub(super) struct Graph {
    pub cells: Vec<Cell>,
    pub nbrs: Vec<Vec<u16>>,
    pub nbr_set: Vec<Bits256>,
    /// Cells of the odd chessboard colour.
    pub odd: Bits256,
    /// Warnsdorff tie-break: squared distance from the board's centre, far first.
    pub rim: Vec<u32>,
    pub start: usize,
    pub targets: Bits256,
}

impl Graph {
    pub fn new(board: &Board) -> Graph {
        let cells: Vec<Cell> = board.cells().filter(|&c| board.passable(c)).collect();
        let index = |cell: Cell| cells.iter().position(|&c| c == cell);
        let nbrs: Vec<Vec<u16>> = cells
            .iter()
            .map(|&c| {
                board
                    .knight_moves(c)
                    .filter_map(index)
                    .map(|i| i as u16)
                    .collect()
            })
            .collect();
        let nbr_set = nbrs
            .iter()
            .map(|n| n.iter().map(|&i| usize::from(i)).collect())
            .collect();
        let odd = cells
            .iter()
            .enumerate()
            .filter(|(_, (r, c))| (r + c) % 2 == 1)
            .map(|(i, _)| i)
            .collect();
        let (cr, cc) = (board.rows() as i64 - 1, board.cols() as i64 - 1);
        let rim = cells
            .iter()
            .map(|&(r, c)| ((2 * r as i64 - cr).pow(2) + (2 * c as i64 - cc).pow(2)) as u32)
            .collect();
        let start = index(board.knight()).expect("the knight's cell is passable");
        let targets = cells
            .iter()
            .enumerate()
            .filter(|(_, c)| board.get(**c) == Square::Target)
            .map(|(i, _)| i)
            .collect();
        Graph {
            cells,
            nbrs,
            nbr_set,
            odd,
            rim,
            start,
            targets,
        }
    }

    /// Cells reachable from `from` over passable cells.
    pub fn reachable(&self, from: usize) -> Bits256 {
        let mut seen = Bits256::single(from);
        let mut stack = vec![from];
        while let Some(v) = stack.pop() {
            for &n in &self.nbrs[v] {
                let n = usize::from(n);
                if !seen.contains(n) {
                    seen.insert(n);
                    stack.push(n);
                }
            }
        }
        seen
    }

    /// Shortest distances (in knight moves over passable cells) from `from`
    /// to every cell; `u16::MAX` where unreachable.
    pub fn distances(&self, from: usize) -> Vec<u16> {
        let mut dist = vec![u16::MAX; self.cells.len()];
        dist[from] = 0;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(v) = queue.pop_front() {
            for &n in &self.nbrs[v] {
                let n = usize::from(n);
                if dist[n] == u16::MAX {
                    dist[n] = dist[v] + 1;
                    queue.push_back(n);
                }
            }
        }
        dist
    }

    /// Fewest wasted moves any walk from `pos` covering `rem` must make.
    ///
    /// Two admissible bounds, the larger wins:
    /// - colour parity over the whole walk: its cells alternate colour,
    ///   starting with the colour opposite to `pos`;
    /// - path cover: between wasted landings the walk runs along paths of
    ///   remaining targets, and every extra path costs a wasted move. Each
    ///   component of the remaining targets needs at least one path, at
    ///   least one per two dead ends (a target with one remaining neighbour
    ///   must end a path; an isolated one is a path of its own), and at
    ///   least its colour surplus (a path alternates colours). The first
    ///   path starts next to `pos`, which adds an end if no dead end is there.
    pub fn lower_bound(&self, pos: usize, rem: &Bits256) -> u32 {
        let r = rem.len() as i64;
        if r == 0 {
            return 0;
        }
        let opposite = if self.odd.contains(pos) {
            rem.and_not(&self.odd)
        } else {
            rem.and(&self.odd)
        };
        let a = opposite.len() as i64;
        let b = r - a;
        let length = r.max(2 * a - 1).max(2 * b);
        let parity = (length - r) as u32;

        let adj = self.nbr_set[pos].and(rem);
        let mut paths = 0i64;
        let mut first_extra = i64::MAX;
        let mut left = *rem;
        while let Some(seed) = left.first() {
            let mut comp = Bits256::single(seed);
            let mut frontier = comp;
            left.remove(seed);
            while !frontier.is_empty() {
                let mut next = Bits256::default();
                for v in frontier.iter() {
                    next = next.or(&self.nbr_set[v]);
                }
                frontier = next.and(&left);
                left = left.and_not(&frontier);
                comp = comp.or(&frontier);
            }
            let (mut ends, mut dead_next) = (0i64, false);
            let mut leaves = Bits256::default();
            for v in comp.iter() {
                let deg = self.nbr_set[v].and(rem).len();
                if deg <= 1 {
                    ends += 2 - deg as i64;
                    dead_next |= adj.contains(v);
                    if deg == 1 {
                        leaves.insert(v);
                    }
                }
            }
            // A target with k > 2 leaves can join only two of them into
            // its path; each other leaf is a path of its own, one more end.
            if leaves.len() > 2 {
                for v in comp.iter() {
                    let k = self.nbr_set[v].and(&leaves).len() as i64;
                    if k > 2 {
                        ends += k - 2;
                    }
                }
            }
            let odd = comp.and(&self.odd).len() as i64;
            let surplus = (2 * odd - comp.len() as i64).abs();
            let need = |ends: i64| 1i64.max((ends + 1) / 2).max(surplus);
            let p = need(ends);
            paths += p;
            if !comp.and(&adj).is_empty() {
                first_extra = first_extra.min(if dead_next { 0 } else { need(ends + 1) - p });
            }
        }
        let cover = if adj.is_empty() {
            paths
        } else {
            paths - 1 + first_extra
        };
        parity.max(cover.max(0) as u32)
    }
}
