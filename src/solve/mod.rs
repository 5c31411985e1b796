//! Generic search, shared by every game's solver. Games describe their
//! puzzle with closures (successors, goal test, heuristic) and pick a
//! search:
//!
//! - [`bfs`] and [`bfs_length`]: breadth-first, with or without the path;
//! - [`astar`]: A* over a bucket queue, for unit-cost moves and a
//!   consistent heuristic;
//! - [`idastar`]: iterative-deepening A*, the memory-bounded fallback;
//! - [`bidirectional`]: breadth-first from both ends, for reversible moves;
//! - [`distance_map`]: every reachable state and its distance to a goal,
//!   by breadth-first search backwards from all goals;
//! - [`Bits256`]: a 256-bit bitboard; [`Store`]: a compact state table;
//! - [`Budget`], [`Bytes`] and [`Progress`]: limits, sizes and progress output.

pub mod bidir;
pub mod bitset;
pub mod costs;
pub mod export;
pub mod ida;
pub mod map;
pub mod memory;
pub mod progress;
pub mod puzzle;
pub mod search;
pub mod store;

pub use bidir::bidirectional;
pub use bitset::Bits256;
pub use costs::dijkstra;
pub use ida::idastar;
pub use map::{Labels, StateMap, distance_map};
pub use memory::Bytes;
pub use progress::Progress;
pub use puzzle::{Puzzle, Solution};
pub use search::{Budget, Found, Stats, astar, bfs, bfs_length};
pub use store::Store;

#[cfg(test)]
mod tests {
    //! Every search on one small puzzle with a known answer: the 8-puzzle
    //! (a 3×3 sliding puzzle), whose states are permutations packed in a u64.
    use super::*;

    type P = [u8; 9];

    fn next(s: &P, out: &mut Vec<(char, P)>) {
        let z = s.iter().position(|&v| v == 0).expect("a blank");
        let (r, c) = (z / 3, z % 3);
        let mut slide = |to: usize, m: char| {
            let mut n = *s;
            n.swap(z, to);
            out.push((m, n));
        };
        if r > 0 {
            slide(z - 3, 'U');
        }
        if r < 2 {
            slide(z + 3, 'D');
        }
        if c > 0 {
            slide(z - 1, 'L');
        }
        if c < 2 {
            slide(z + 1, 'R');
        }
    }

    fn states(s: &P, out: &mut Vec<P>) {
        let mut t = Vec::new();
        next(s, &mut t);
        out.extend(t.into_iter().map(|(_, n)| n));
    }

    /// Moves are their own inverse up to direction, so the predecessors of
    /// a state are its successors, with the move that undoes them.
    fn prev(s: &P, out: &mut Vec<(char, P)>) {
        let mut tmp = Vec::new();
        next(s, &mut tmp);
        for (m, p) in tmp {
            let back = match m {
                'U' => 'D',
                'D' => 'U',
                'L' => 'R',
                _ => 'L',
            };
            out.push((back, p));
        }
    }

    const GOAL: P = [1, 2, 3, 4, 5, 6, 7, 8, 0];

    fn manhattan(s: &P) -> u32 {
        s.iter()
            .enumerate()
            .filter(|(_, v)| **v != 0)
            .map(|(i, &v)| {
                let g = v as usize - 1;
                ((i / 3).abs_diff(g / 3) + (i % 3).abs_diff(g % 3)) as u32
            })
            .sum()
    }

    fn apply(mut s: P, moves: &[char]) -> P {
        for m in moves {
            let mut out = Vec::new();
            next(&s, &mut out);
            s = out.into_iter().find(|(mm, _)| mm == m).expect("legal").1;
        }
        s
    }

    #[test]
    fn every_search_agrees_on_the_8_puzzle() {
        // One of the two hardest positions: 31 moves from the goal.
        let start: P = [8, 6, 7, 2, 5, 4, 3, 0, 1];
        let budget = Budget::default();
        let mut p = Progress::quiet();
        let (Found::Path(b), _) = bfs(start, next, |s| *s == GOAL, &budget, &mut p) else {
            panic!()
        };
        let (Found::Path(a), _) = astar(start, next, manhattan, |s| *s == GOAL, &budget, &mut p)
        else {
            panic!()
        };
        let (Found::Path(i), _) =
            idastar(start, next, manhattan, |s| *s == GOAL, 0, &budget, &mut p)
        else {
            panic!()
        };
        let (Found::Path(d), _) = bidirectional(start, vec![GOAL], next, prev, &budget) else {
            panic!()
        };
        let len = bfs_length(start, states, |s| *s == GOAL);
        assert_eq!(b.len(), 31);
        for path in [&b, &a, &i, &d] {
            assert_eq!(path.len(), b.len());
            assert_eq!(apply(start, path), GOAL);
        }
        assert_eq!(len, Some(b.len() as u32));
    }

    #[test]
    fn unsolvable_and_over_budget_are_told_apart() {
        // Two tiles swapped: the other half of the permutations.
        let odd: P = [2, 1, 3, 4, 5, 6, 7, 8, 0];
        let mut p = Progress::quiet();
        let (r, stats) = bfs(odd, next, |s| *s == GOAL, &Budget::default(), &mut p);
        assert_eq!(r, Found::Exhausted);
        assert_eq!(stats.states, 181_440);
        let small = Budget {
            max_bytes: 1 << 16,
            max_states: u64::MAX,
            deadline: None,
        };
        let (r, _) = bfs(odd, next, |s| *s == GOAL, &small, &mut p);
        assert!(
            matches!(r, Found::OverBudget { proven } if proven > 3),
            "{r:?}"
        );
        let (r, _) = astar(
            odd,
            next,
            manhattan,
            |s| *s == GOAL,
            &Budget::default(),
            &mut p,
        );
        assert_eq!(r, Found::Exhausted);
    }

    #[test]
    fn maps_distances_to_the_goal() {
        let start: P = [1, 2, 3, 4, 5, 6, 0, 7, 8];
        let mut p = Progress::quiet();
        let map = distance_map(start, next, |s| *s == GOAL, &Budget::default(), &mut p)
            .unwrap_or_else(|_| panic!("within budget"));
        assert_eq!(map.len(), 181_440);
        assert_eq!(map.goals.len(), 1);
        assert_eq!(map.distance(0), Some(2));
        // The hardest 8-puzzle positions are 31 moves from the goal.
        assert_eq!(map.max_distance(), Some(31));
        assert!(map.edges() > 0);
    }
}
