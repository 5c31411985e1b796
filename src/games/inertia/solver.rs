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
//!
//! The bound is weak when many gems are left, and boards larger than the
//! default 10×8 (sgt's 15×12 preset has about 45 gems) are beyond an exact
//! search: without `--max-nodes`, A* stops at [`DEFAULT_MAX_STATES`]
//! positions, and [`greedy`] then plans a route that is not proven
//! optimal, reported as such with A*'s proven lower bound.

use super::rules::{Dir, Outcome, Rules, State, cell_of, gems_of, pack};

/// Positions the exact search visits when no `--max-nodes` is given: 1 to
/// 2 s and under 100 MB here. The hardest of 50 default-size boards
/// (tests/fixtures/inertia/ids.txt) needs about 210,000.
pub const DEFAULT_MAX_STATES: u64 = 1_500_000;

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

/// A route over every gem, not proven optimal: again and again, the
/// fewest moves to a move that picks up gems (the most gems among equally
/// near ones), never to a cell from which a gem left cannot be reached.
/// `None` when that runs into a dead end.
pub fn greedy(rules: &Rules, dist: &GemDistances, start: State) -> Option<Vec<Dir>> {
    let mut s = start;
    let mut route = Vec::new();
    while gems_of(s) != 0 {
        let (steps, next) = nearest_pickup(rules, dist, s)?;
        route.extend(steps);
        s = next;
    }
    Some(route)
}

/// Breadth-first over the ball's cells from `s` (the moves do not depend
/// on the gems), layer by layer, for the nearest move that picks up gems.
fn nearest_pickup(rules: &Rules, dist: &GemDistances, s: State) -> Option<(Vec<Dir>, State)> {
    let cells = rules.level.cells.len();
    let left = gems_of(s);
    // parent[cell] = (previous cell, move), for the route back.
    let mut parent: Vec<Option<(usize, Dir)>> = vec![None; cells];
    let mut seen = vec![false; cells];
    seen[cell_of(s)] = true;
    let mut layer = vec![cell_of(s)];
    while !layer.is_empty() {
        let mut best: Option<(u32, usize, Dir, State)> = None;
        let mut next_layer = Vec::new();
        for &u in &layer {
            for d in Dir::ALL {
                let Outcome::Slides(m) = rules.outcome(u, d) else {
                    continue;
                };
                let picked = m.gems & left;
                let after = pack(m.to, left & !picked);
                if picked != 0 && dist.bound(after) != u32::MAX {
                    let n = picked.count_ones();
                    if best.is_none_or(|b| n > b.0) {
                        best = Some((n, u, d, after));
                    }
                } else if !seen[m.to] {
                    seen[m.to] = true;
                    parent[m.to] = Some((u, d));
                    next_layer.push(m.to);
                }
            }
        }
        if let Some((_, u, d, after)) = best {
            let mut steps = vec![d];
            let mut at = u;
            while let Some((p, pd)) = parent[at] {
                steps.push(pd);
                at = p;
            }
            steps.reverse();
            return Some((steps, after));
        }
        layer = next_layer;
    }
    None
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

    #[test]
    fn the_greedy_route_picks_up_every_gem() {
        let rules = Rules::new(Level::parse("S.*o\n#.x*\n*...").unwrap()).unwrap();
        let d = GemDistances::new(&rules);
        let route = greedy(&rules, &d, rules.start).expect("a route");
        let end = route
            .iter()
            .try_fold(rules.start, |s, &m| rules.play(s, m))
            .expect("legal moves");
        assert!(rules.is_won(end));
        let walled = Rules::new(Level::parse("S.#*").unwrap()).unwrap();
        assert_eq!(
            greedy(&walled, &GemDistances::new(&walled), walled.start),
            None
        );
    }
}
