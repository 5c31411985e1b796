//! The optimal solver's lower bound: fewest moves to pick up each gem.
//!
//! The ball's moves do not depend on which gems are left (a gem never
//! stops the ball), so where the ball can go is one fixed graph over the
//! cells. For each gem, a backward breadth-first search over that graph
//! gives, from every cell, the fewest moves until a move crosses the gem.
//! Every gem left must still be crossed, so the largest of those counts
//! over the gems left is an admissible bound; it is consistent because one
//! move lowers each count by at most one. A* over (ball cell, gems left)
//! with it is exact (the core's [`crate::solve::astar`]).

use super::rules::{Dir, Outcome, Rules, State, cell_of, gems_of};

/// A cell from which a gem can never be collected.
pub const NEVER: u8 = u8::MAX;

/// `dist[cell * gems + gem]`: fewest moves from `cell` whose last one
/// crosses `gem`.
#[derive(Clone, Debug)]
pub struct GemDistances {
    gems: usize,
    dist: Vec<u8>,
}

impl GemDistances {
    pub fn new(rules: &Rules) -> GemDistances {
        let cells = rules.level.cells.len();
        let gems = rules.gem_cells.len();
        // The reverse graph: for each cell, the cells one move away from it.
        let mut back: Vec<Vec<usize>> = vec![Vec::new(); cells];
        let mut crossing: Vec<Vec<usize>> = vec![Vec::new(); gems];
        for from in 0..cells {
            for d in Dir::ALL {
                if let Outcome::Slides(m) = rules.outcome(from, d) {
                    back[m.to].push(from);
                    for (b, list) in crossing.iter_mut().enumerate() {
                        if m.gems & (1 << b) != 0 {
                            list.push(from);
                        }
                    }
                }
            }
        }
        let mut dist = vec![NEVER; cells * gems];
        let mut queue = Vec::with_capacity(cells);
        for (b, starts) in crossing.iter().enumerate() {
            queue.clear();
            for &c in starts {
                if dist[c * gems + b] == NEVER {
                    dist[c * gems + b] = 1;
                    queue.push(c);
                }
            }
            let mut head = 0;
            while head < queue.len() {
                let c = queue[head];
                head += 1;
                let next = dist[c * gems + b].saturating_add(1).min(NEVER - 1);
                for &p in &back[c] {
                    if dist[p * gems + b] == NEVER {
                        dist[p * gems + b] = next;
                        queue.push(p);
                    }
                }
            }
        }
        GemDistances { gems, dist }
    }

    /// Fewest moves from `cell` to pick up gem `b`, or [`NEVER`].
    pub fn get(&self, cell: usize, b: usize) -> u8 {
        self.dist[cell * self.gems + b]
    }

    /// The bound for state `s`; `u32::MAX` when a gem left can never be
    /// picked up from here.
    pub fn bound(&self, s: State) -> u32 {
        let row = &self.dist[cell_of(s) * self.gems..][..self.gems];
        let mut left = gems_of(s);
        let mut h = 0u8;
        while left != 0 {
            let b = left.trailing_zeros() as usize;
            left &= left - 1;
            h = h.max(row[b]);
        }
        if h == NEVER { u32::MAX } else { u32::from(h) }
    }
}

#[cfg(test)]
mod tests {
    use super::super::level::Level;
    use super::*;

    #[test]
    fn distances_count_moves_to_cross_each_gem() {
        // S at the top left; the gem is reached by going E then S.
        let rules = Rules::new(Level::parse("S..\n#.#\n#*#").unwrap()).unwrap();
        let d = GemDistances::new(&rules);
        assert_eq!(d.get(0, 0), 2);
        assert_eq!(d.get(2, 0), 2);
        assert_eq!(d.bound(rules.start), 2);
        let walled = Rules::new(Level::parse("S.#*").unwrap()).unwrap();
        assert_eq!(GemDistances::new(&walled).bound(walled.start), u32::MAX);
    }
}
