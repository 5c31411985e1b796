//! The last route planned, kept so that the live player's look after each
//! move (a read and a solve) reuses the rest of it instead of searching
//! again: on boards past the exact search's budget each search takes a
//! second or two.
//!
//! Reusing is exact. The rest of an optimal route from any position on it
//! is optimal from there; the rest of a greedy route is the greedy route
//! from there (it is planned step by step from the position alone); and a
//! lower bound `L` on the route's start gives `L - i` for the position
//! `i` moves on. Positions are compared as whole boards (layout, gems
//! left, ball), and the search budget must be the same.

use std::sync::Mutex;

use super::Board;
use super::rules::{Dir, State};
use crate::solve::{Found, Puzzle, Solution, Stats};

/// One planned route.
struct Route {
    /// The board at each position along it, the start first.
    boards: Vec<String>,
    moves: Vec<Dir>,
    optimal: bool,
    lower_bound: u64,
    max_states: u64,
}

static LAST: Mutex<Option<Route>> = Mutex::new(None);

fn board_at(board: &Board, s: State) -> String {
    board.rules.level_at(s).to_string()
}

/// The rest of the last route, when `start` is on it, planned under the
/// same budget.
pub fn rest(board: &Board, start: State, max_states: u64) -> Option<Solution<Dir>> {
    let last = LAST.lock().ok()?;
    let route = last.as_ref().filter(|r| r.max_states == max_states)?;
    let here = board_at(board, start);
    let i = route.boards.iter().position(|b| *b == here)?;
    let moves = route.moves[i..].to_vec();
    let mut sol = Solution::new(Found::Path(moves), Stats::default(), |_| 1);
    sol.optimal = route.optimal;
    if !route.optimal {
        sol.lower_bound = route.lower_bound.saturating_sub(i as u64);
    }
    sol.notes.push((
        "reused",
        format!("the rest of the route planned {i} moves ago").into(),
    ));
    Some(sol)
}

/// Keeps `sol`'s route from `start`, if it has one.
pub fn remember(board: &Board, start: State, max_states: u64, sol: &Solution<Dir>) {
    let Found::Path(moves) = &sol.found else {
        return;
    };
    let Ok(states) = board.replay(&start, moves) else {
        return;
    };
    let route = Route {
        boards: states.iter().map(|&s| board_at(board, s)).collect(),
        moves: moves.clone(),
        optimal: sol.optimal,
        lower_bound: sol.lower_bound,
        max_states,
    };
    if let Ok(mut last) = LAST.lock() {
        *last = Some(route);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{Budget, Progress};

    #[test]
    fn a_position_on_the_last_route_gets_the_rest_of_it() {
        // No other unit test solves Inertia boards, so LAST is this test's.
        let text = "S.*o\n#.x*\n*...";
        let board = Board::new(text).unwrap();
        let budget = Budget::default();
        let first = board.solve(&board.rules.start, &budget, &mut Progress::quiet());
        let Found::Path(moves) = first.found.clone() else {
            panic!("{:?}", first.found)
        };
        assert!(first.stats.states > 0);
        // The position after the first move, as a fresh read would give it.
        let next = board.rules.play(board.rules.start, moves[0]).unwrap();
        let later = Board::new(&board.rules.level_at(next).to_string()).unwrap();
        let sol = later.solve(&later.rules.start, &budget, &mut Progress::quiet());
        assert_eq!(sol.found, Found::Path(moves[1..].to_vec()));
        assert!(sol.optimal);
        assert_eq!(sol.stats.states, 0);
        // Another budget is another question.
        let other = Budget {
            max_states: 1000,
            ..budget
        };
        assert!(rest(&later, later.rules.start, other.max_states).is_none());
    }
}
