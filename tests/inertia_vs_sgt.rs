//! Inertia: boardbot's optimal plans against sgt-puzzles' own solver, on the
//! first 20 game IDs of tests/fixtures/inertia/ids.txt (made by sgt-inertia).
//!
//! `cargo test --release --test inertia_vs_sgt -- --nocapture` prints the
//! table. For every board: sgt's moves replay legally under boardbot's rules
//! and pick up every gem (the rules agree with inertia.c); boardbot's plan
//! wins, is never longer than sgt's, and is as long as a plain breadth-first
//! search finds (the A* bound is admissible).
//!
//! The second table: 5 boards of sgt's 15x12 preset
//! (tests/fixtures/inertia/ids-15x12.txt), past the exact search's default
//! budget. boardbot's plan is then the greedy route, reported as not proven
//! optimal with A*'s lower bound; both plans must be legal and win, and
//! the lower bound must not exceed either.

mod common;

use boardbot::games::inertia::{Board, Dir};
use boardbot::solve::{Budget, Found, Progress, Puzzle, bfs};

fn ids(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(common::fixtures(&format!("inertia/{file}")))
        .expect("the IDs file");
    text.lines().map(str::to_string).collect()
}

/// sgt's solver's plan for `id`, checked to win under boardbot's rules.
fn sgts_plan(sgt: &std::path::Path, board: &Board, id: &str, dir: &std::path::Path) -> Vec<Dir> {
    let theirs: Vec<Dir> = common::sgt::solve(sgt, id, dir)
        .into_iter()
        .map(|i| Dir::from_sgt_index(i).expect("a direction 0-7"))
        .collect();
    let states = board
        .replay(&board.rules.start, &theirs)
        .unwrap_or_else(|e| panic!("{id}: sgt's plan under our rules: {e}"));
    assert!(
        board.is_goal(states.last().unwrap()),
        "{id}: sgt's plan leaves gems"
    );
    theirs
}

fn plan(board: &Board) -> Vec<Dir> {
    let sol = board.solve(
        &board.rules.start,
        &Budget::default(),
        &mut Progress::quiet(),
    );
    let Found::Path(moves) = sol.found else {
        panic!("no plan: {:?}", sol.found)
    };
    moves
}

fn bfs_length(board: &Board) -> usize {
    let (found, _) = bfs(
        board.rules.start,
        |s, out| board.successors(s, out),
        |s| board.is_goal(s),
        &Budget::default(),
        &mut Progress::quiet(),
    );
    match found {
        Found::Path(p) => p.len(),
        other => panic!("breadth-first search: {other:?}"),
    }
}

#[test]
fn optimal_plans_never_longer_than_sgts_own_solver() {
    let Some(sgt) = common::sgt::inertia() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (mut ours_total, mut theirs_total) = (0, 0);
    println!("| # | game ID | gems | boardbot (optimal) | sgt's solver |");
    println!("|---|---|---|---|---|");
    for (n, id) in ids("ids.txt").iter().take(20).enumerate() {
        let board = Board::new(id).unwrap();
        let theirs = sgts_plan(&sgt, &board, id, dir.path());
        let ours = plan(&board);
        let end = board.replay(&board.rules.start, &ours).unwrap();
        assert!(board.is_goal(end.last().unwrap()));
        assert!(
            ours.len() <= theirs.len(),
            "{id}: ours {} > sgt's {}",
            ours.len(),
            theirs.len()
        );
        assert_eq!(ours.len(), bfs_length(&board), "{id}: A* and BFS differ");
        println!(
            "| {} | `{}` | {} | {} | {} |",
            n + 1,
            id,
            board.rules.gem_cells.len(),
            ours.len(),
            theirs.len()
        );
        ours_total += ours.len();
        theirs_total += theirs.len();
    }
    println!("| | total | | {ours_total} | {theirs_total} |");
}

#[test]
fn large_boards_get_a_route_marked_not_optimal_with_a_lower_bound() {
    let Some(sgt) = common::sgt::inertia() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    println!("| # | size | gems | boardbot (not proven optimal) | lower bound | sgt's solver |");
    println!("|---|---|---|---|---|---|");
    for (n, id) in ids("ids-15x12.txt").iter().enumerate() {
        let board = Board::new(id).unwrap();
        let theirs = sgts_plan(&sgt, &board, id, dir.path());
        let sol = board.solve(
            &board.rules.start,
            &Budget::default(),
            &mut Progress::quiet(),
        );
        let Found::Path(ours) = &sol.found else {
            panic!("{id}: no route: {:?}", sol.found)
        };
        let end = board.replay(&board.rules.start, ours).unwrap();
        assert!(board.is_goal(end.last().unwrap()), "{id}");
        assert!(
            !sol.optimal,
            "{id}: an exact search this large in the default budget?"
        );
        assert!(sol.lower_bound <= ours.len() as u64 && sol.lower_bound <= theirs.len() as u64);
        println!(
            "| {} | 15x12 | {} | {} | {} | {} |",
            n + 1,
            board.rules.gem_cells.len(),
            ours.len(),
            sol.lower_bound,
            theirs.len()
        );
    }
}
