//! The typed puzzle core: what a game's rules must say so that every tool
//! (solve, walkthrough, batch, map, trace, export) works on it unchanged.
//!
//! A [`Puzzle`] is one position's fixed parts (the board, the walls, the
//! pieces' shapes); its `State` is what moves change. The trait is small on
//! purpose, in the style of the `pathfinding` crate: successors, a goal
//! test, an optional admissible heuristic, move costs, and the text forms
//! people read and type. [`Puzzle::solve`] picks a search from those
//! answers; a game with a faster engine of its own overrides it.

use std::fmt::Display;
use std::hash::Hash;

use super::costs::dijkstra;
use super::progress::Progress;
use super::search::{Budget, Found, Stats, astar, bfs};

/// How a search for a plan ended, with the moves when one was found.
#[derive(Clone, Debug)]
pub struct Solution<M> {
    pub found: Found<M>,
    /// The plan is proven optimal (always, for the built-in searches).
    pub optimal: bool,
    /// The plan's total cost: its length when every move costs 1.
    pub cost: Option<u64>,
    /// A proven lower bound on the cost when the search gave up.
    pub lower_bound: u64,
    pub stats: Stats,
    /// Extra figures the game's own engine reports (fell back to IDA*, …),
    /// as `name = value` pairs for the stats block.
    pub notes: Vec<(&'static str, serde_json::Value)>,
}

impl<M> Solution<M> {
    /// Wraps a search result, computing the cost with `cost`.
    pub fn new(found: Found<M>, stats: Stats, cost: impl Fn(&M) -> u32) -> Solution<M> {
        let (c, lb) = match &found {
            Found::Path(p) => {
                let c: u64 = p.iter().map(|m| u64::from(cost(m))).sum();
                (Some(c), c)
            }
            Found::Exhausted => (None, 0),
            Found::OverBudget { proven } => (None, u64::from(*proven)),
        };
        Solution {
            found,
            optimal: true,
            cost: c,
            lower_bound: lb,
            stats,
            notes: Vec::new(),
        }
    }
}

/// A puzzle's rules over typed states and moves.
pub trait Puzzle: Sync + Sized {
    /// What moves change; small and cheap to hash (a packed key is best).
    type State: Clone + Eq + Hash + Send + Sync;
    /// One move as the player makes it.
    type Move: Clone + PartialEq + Display + Send;

    /// Pushes every legal `(move, next state)` from `s`.
    fn successors(&self, s: &Self::State, out: &mut Vec<(Self::Move, Self::State)>);

    fn is_goal(&self, s: &Self::State) -> bool;

    /// An admissible and consistent lower bound on the cost to a goal, or
    /// `None` when the puzzle has none (breadth-first search is used).
    /// `Some(u32::MAX)` marks a state that can never reach a goal.
    fn heuristic(&self, _s: &Self::State) -> Option<u32> {
        None
    }

    /// The cost of a move; 1 unless the game says otherwise.
    fn cost(&self, _m: &Self::Move) -> u32 {
        1
    }

    /// True when some moves cost other than 1, so plans minimise cost
    /// (Dijkstra or A* over costs) rather than length.
    fn weighted(&self) -> bool {
        false
    }

    /// Bytes a state holds outside itself (boxed slices), for the
    /// memory budget; 0 for the packed keys most games use.
    fn heap_bytes(&self, _s: &Self::State) -> usize {
        0
    }

    /// The state for people, one string per row.
    fn rows(&self, s: &Self::State) -> Vec<String>;

    /// The state on one line, as maps and exports name it.
    fn key(&self, s: &Self::State) -> String {
        self.rows(s).join("/")
    }

    /// Reads one move as a person types it (`B+1`, `L`, `3,4`) and plays it
    /// from `s`; `Err` says why it is not legal there.
    fn parse_move(&self, s: &Self::State, text: &str) -> Result<(Self::Move, Self::State), String> {
        let mut out = Vec::new();
        self.successors(s, &mut out);
        let legal: Vec<String> = out.iter().map(|(m, _)| m.to_string()).collect();
        out.into_iter()
            .find(|(m, _)| m.to_string().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| {
                format!(
                    "{text:?} is not a legal move here; legal: {}",
                    legal.join(" ")
                )
            })
    }

    /// Splits a list of moves as typed (`LURD`, `B+1,C-2`) into single
    /// moves. Commas and spaces separate by default.
    fn split_moves<'t>(&self, text: &'t str) -> Vec<&'t str> {
        text.split([',', ' ', '\n'])
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .collect()
    }

    /// An optimal plan from `start`. The default picks breadth-first
    /// search, A* when there is a heuristic, or Dijkstra/A* over costs
    /// for weighted moves; games with their own engine override it.
    fn solve(
        &self,
        start: &Self::State,
        budget: &Budget,
        progress: &mut Progress,
    ) -> Solution<Self::Move> {
        let next =
            |s: &Self::State, out: &mut Vec<(Self::Move, Self::State)>| self.successors(s, out);
        let goal = |s: &Self::State| self.is_goal(s);
        let has_h = self.heuristic(start).is_some();
        let h = |s: &Self::State| self.heuristic(s).unwrap_or(0);
        let (found, stats) = if self.weighted() {
            dijkstra(
                start.clone(),
                next,
                |m| self.cost(m),
                h,
                goal,
                budget,
                progress,
            )
        } else if has_h {
            astar(start.clone(), next, h, goal, budget, progress)
        } else {
            bfs(start.clone(), next, goal, budget, progress)
        };
        Solution::new(found, stats, |m| self.cost(m))
    }

    /// Plays `moves` from `start`: every state in turn, the start first.
    fn replay(
        &self,
        start: &Self::State,
        moves: &[Self::Move],
    ) -> Result<Vec<Self::State>, String> {
        let mut out = vec![start.clone()];
        let mut buf = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            buf.clear();
            let Some(s) = out.last() else { break };
            self.successors(s, &mut buf);
            let next = buf
                .drain(..)
                .find(|(mm, _)| mm == m)
                .map(|(_, n)| n)
                .ok_or_else(|| format!("move {} ({m}) is not legal", i + 1))?;
            out.push(next);
        }
        Ok(out)
    }
}
