//! Inertia on the screen: solving a screenshot, and the plan as clicks.
//!
//! sgt-inertia moves the ball towards a click, by the octant of the click
//! around the ball (`interpret_move`: the angle from the ball's cell to the
//! clicked cell, rounded to the nearest eighth of a turn). Each move is one
//! click on the centre of the cell next to the ball in that direction: it
//! lies exactly on the octant's axis, and it is on the board (a move whose
//! first cell is the edge or a wall is no move), so every click is inside
//! the selection. A click also gives the window the focus, so no focus
//! click is needed. A checkpoint after every move makes the live player
//! look again after each one.

use std::time::Duration;

use super::Board;
use super::level::Level;
use super::rules::{Dir, State, cell_of};
use crate::game::GameError;
use crate::game::Pacing;
use crate::input::Action;
use crate::report::{BoardReport, Checkpoint, Report};
use crate::solve::Puzzle;
use crate::tools;
use crate::tools::options::Options;
use crate::vision::{GridRead, Lattice};

/// sgt's longest slide animation: `sqrt(distance) * 0.1` s; 0.3 s for a
/// 10-cell slide, and the win flash takes 0.3 s more.
pub const LONGEST_ANIMATION: Duration = Duration::from_millis(400);

/// The click that moves the ball from `s` towards `d`.
pub fn click(board: &Board, lattice: &Lattice, s: State, d: Dir) -> Action {
    let w = board.rules.level.width;
    let cell = cell_of(s);
    let (dx, dy) = d.delta();
    let r = (cell / w) as i64 + i64::from(dy);
    let c = (cell % w) as i64 + i64::from(dx);
    let (r, c) = (r.max(0) as usize, c.max(0) as usize);
    let (x, y) = lattice.cell(r, c).centre();
    Action::Click {
        x: x.round() as i32,
        y: y.round() as i32,
        cell: Some([r, c]),
    }
}

/// One click per move, and the predicted board after each.
fn clicks_into(report: &mut Report, board: &Board, lattice: &Lattice, moves: &[Dir]) {
    let mut s = board.rules.start;
    let mut actions = Vec::with_capacity(moves.len());
    let mut checkpoints = Vec::with_capacity(moves.len());
    for (i, &d) in moves.iter().enumerate() {
        actions.push(click(board, lattice, s, d));
        let Some(next) = board.rules.play(s, d) else {
            break;
        };
        s = next;
        checkpoints.push(Checkpoint {
            after: i + 1,
            rows: board.rows(&s),
        });
    }
    report.actions = Some(actions);
    report.checkpoints = checkpoints;
}

/// The plan for a level read for sure: the fewest moves, as clicks.
pub fn plan(grid: &GridRead, level: Level, opts: &Options) -> Result<Report, GameError> {
    let board = Board::from_level(level).map_err(|message| GameError::Parse {
        origin: "the screenshot".into(),
        message,
    })?;
    let start = board.rules.start;
    let (mut r, moves) = tools::solve_parsed(&board, &start, opts)?;
    r.board = Some(BoardReport::from_rows(board.rows(&start)));
    clicks_into(&mut r, &board, &grid.lattice, &moves);
    Ok(r)
}

/// Live pacing: a click once sgt has animated the previous slide.
pub fn pacing() -> Pacing {
    Pacing {
        click: LONGEST_ANIMATION,
        // Two captures a frame apart both still mid-slide would pass as
        // settled; the reader refuses a ball between cells anyway.
        settle_gap: Duration::from_millis(30),
        settle_max: Duration::from_millis(1200),
        verify: Duration::from_millis(2000),
        ..Pacing::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_move_clicks_the_centre_of_the_next_cell_that_way() {
        let board = Board::new("...\n.S.\n...").unwrap();
        let lattice = Lattice::uniform(10.0, 20.0, 30.0, 30.0, 3, 3);
        let at = |d| match click(&board, &lattice, board.rules.start, d) {
            Action::Click { x, y, cell } => (x, y, cell),
            other => panic!("{other:?}"),
        };
        // The ball is at (1,1), centred at (55, 65).
        assert_eq!(at(Dir::N), (55, 35, Some([0, 1])));
        assert_eq!(at(Dir::SE), (85, 95, Some([2, 2])));
        assert_eq!(at(Dir::W), (25, 65, Some([1, 0])));
    }

    #[test]
    fn a_plan_checks_the_board_after_every_click() {
        let board = Board::new("S.*\n...").unwrap();
        let lattice = Lattice::uniform(0.0, 0.0, 20.0, 20.0, 2, 3);
        let mut r = Report::new("inertia", crate::report::Verdict::Playable, "");
        clicks_into(&mut r, &board, &lattice, &[Dir::E]);
        assert_eq!(r.actions.map(|a| a.len()), Some(1));
        assert_eq!(r.checkpoints.len(), 1);
        assert_eq!(r.checkpoints[0].rows, vec!["o.@", "..."]);
    }
}
