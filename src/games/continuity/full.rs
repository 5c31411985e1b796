//! The plain full-state search: Dijkstra over every (arrangement,
//! character spot and rise, keys held, view) with no heuristic and no
//! abstraction. It is the yardstick the planner ([`super::plan`]) is
//! tested against: slow, but obviously exact, mid-air toggles included.

use super::rules::{Action, State, World};
use crate::solve::{Budget, Progress, Solution, dijkstra};

/// The cheapest plan from `start` over the game's own moves, guided by
/// `bound`, a consistent lower bound on the cost left: with `|_| 0`, the
/// plain Dijkstra the planner is checked against.
pub fn search(
    world: &World,
    start: State,
    slide_cost: u32,
    bound: impl FnMut(&State) -> u32,
    budget: &Budget,
    progress: &mut Progress,
) -> Solution<Action> {
    let (found, stats) = dijkstra(
        start,
        |s, out| world.successors(s, out),
        |a| World::cost(*a, slide_cost),
        bound,
        |s| s.won,
        budget,
        progress,
    );
    Solution::new(found, stats, |a| World::cost(*a, slide_cost))
}
