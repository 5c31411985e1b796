//! Troyis: a knight must visit every light square.
//!
//! - [`board`]: the position and its text form;
//! - [`read`]: the position from a screenshot;
//! - [`solver`]: the route (Hamiltonian path, or the shortest covering walk);
//! - [`render`] and [`knight`]: the project's own Troyis-style art, for the
//!   practice board and the recorded test screenshots;
//! - [`levels`] and `practice`: generated levels, and the playable practice window.

pub mod board;
mod graph;
pub mod knight;
pub mod levels;
#[cfg(feature = "live")]
pub mod practice;
pub mod read;
pub mod render;
pub mod solver;
mod walk;

use std::time::{Duration, Instant};

use image::RgbImage;

use self::board::Board;
use self::solver::{Limits, Plan, SolveError};
use crate::art::render::Art;
use crate::calibration::{Calibration, Embedded};
use crate::game::{Game, GameError, OnScreen, Pacing, ScreenGame};
use crate::input::Action;
use crate::report::{BoardReport, CellIssue, Checkpoint, Frame, Report, Verdict, ms_since, value};
use crate::tools::options::{Opt, Options};
use crate::vision::skin::Skin;
use crate::vision::{GridRead, Lattice, NotLegal, Reading};

pub struct Troyis;

static LOOKS: [&Embedded; 1] = [&crate::builtin_look!(
    "calibration/troyis.toml",
    "templates/troyis/knight.png"
)];

pub(crate) const ID: &str = "troyis";

/// One click per square, at the cell's centre.
pub fn actions(plan: &Plan, lattice: &Lattice) -> Vec<Action> {
    plan.squares
        .iter()
        .map(|&(r, c)| {
            let (x, y) = lattice.cell(r, c).centre();
            Action::click_at(x, y, (r, c))
        })
        .collect()
}

fn limits(opts: &Options) -> Limits {
    let mut l = Limits::default();
    if let Some(n) = opts.max_nodes {
        l.max_nodes = n;
    }
    l
}

/// The plan in one line for people.
fn headline(plan: &Plan) -> String {
    if plan.squares.is_empty() {
        return "Nothing to do: every target has been visited.".into();
    }
    let kind = if plan.hamiltonian {
        "a Hamiltonian path, one move per target"
    } else if plan.optimal {
        "the shortest covering walk (no Hamiltonian path exists), landing on some cells twice"
    } else {
        "a covering walk (no Hamiltonian path found within the search limit), landing on some cells twice"
    };
    let proof = if plan.optimal {
        "optimal"
    } else {
        "not proven optimal: the search hit its limit"
    };
    format!("Plan: {} moves, {kind}; {proof}.", plan.moves)
}

/// The knight's route for people: its square, then each square it lands on.
fn route(board: &Board, plan: &Plan) -> Vec<String> {
    if plan.squares.is_empty() {
        return Vec::new();
    }
    let k = board.knight();
    std::iter::once(format!("({},{})", k.0, k.1))
        .chain(plan.squares.iter().map(|(r, c)| format!("→ ({r},{c})")))
        .collect()
}

/// The board after each move of the plan.
fn walkthrough(board: &Board, plan: &Plan) -> Vec<Frame> {
    let mut b = board.clone();
    let mut out = vec![Frame {
        mv: None,
        board: b.row_strings(),
    }];
    for &sq in &plan.squares {
        if b.step(sq).is_err() {
            break;
        }
        out.push(Frame {
            mv: Some(format!("({},{})", sq.0, sq.1)),
            board: b.row_strings(),
        });
    }
    out
}

/// The board once every move of the plan is made, for the live player to
/// compare with what it sees.
fn after_plan(board: &Board, plan: &Plan) -> Vec<Checkpoint> {
    let mut b = board.clone();
    if plan.squares.iter().any(|&sq| b.step(sq).is_err()) {
        return Vec::new();
    }
    vec![Checkpoint {
        after: plan.squares.len(),
        rows: b.row_strings(),
    }]
}

/// Solves a board read for sure, filling `report`'s plan and verdict.
fn plan_into(report: &mut Report, board: &Board, opts: &Options, lattice: Option<&Lattice>) {
    let t = Instant::now();
    let result = solver::solve_with_stats(board, &limits(opts));
    report.timing_ms.solve = ms_since(t);
    match result {
        Ok((plan, stats)) => {
            if plan.squares.is_empty() {
                report.state = Verdict::Solved;
                report.reason = "every target is visited: nothing to do".into();
            } else {
                report.state = Verdict::Playable;
                let ham = if plan.hamiltonian {
                    ", Hamiltonian"
                } else {
                    ""
                };
                report.reason = format!(
                    "{} targets, {} moves{ham}",
                    board.targets().count(),
                    plan.moves
                );
            }
            report.headline = headline(&plan);
            report.route = route(board, &plan);
            if opts.walkthrough {
                report.walkthrough = Some(walkthrough(board, &plan));
            }
            report.plan = Some(value(&plan));
            report.stats = Some(value(&stats));
            if let Some(lat) = lattice {
                report.actions = Some(actions(&plan, lat));
                report.checkpoints = after_plan(board, &plan);
            }
        }
        Err(e @ SolveError::Unreachable(_)) => {
            report.state = Verdict::Unsolvable;
            report.reason = e.to_string();
            let SolveError::Unreachable(cells) = &e;
            report.unreachable = cells
                .iter()
                .map(|&(r, c)| CellIssue {
                    cell: [r, c],
                    why: "the knight can never reach this target".into(),
                })
                .collect();
            if lattice.is_some() {
                report.actions = Some(Vec::new());
            }
        }
    }
}

/// The game's own art: `render` and the practice window.
static ART: Art = Art {
    render: render::rendered,
    #[cfg(feature = "live")]
    practice: practice::open,
};

impl Game for Troyis {
    fn id(&self) -> &'static str {
        ID
    }

    fn summary(&self) -> &'static str {
        "a knight visits every light square (Hamiltonian knight path); reads screenshots"
    }

    fn options(&self) -> &'static [Opt] {
        &[Opt::MaxNodes, Opt::Walkthrough]
    }

    fn solve_text(&self, text: &str, origin: &str, opts: &Options) -> Result<Report, GameError> {
        let board = Board::parse(text).map_err(|e| GameError::Parse {
            origin: origin.to_string(),
            message: e.to_string(),
        })?;
        let mut report = Report::new(ID, Verdict::Playable, "");
        report.board = Some(BoardReport::from_rows(board.row_strings()));
        plan_into(&mut report, &board, opts, None);
        Ok(report)
    }

    fn art(&self) -> Option<&'static Art> {
        Some(&ART)
    }

    fn screen(&self) -> Option<&dyn OnScreen> {
        Some(self)
    }
}

impl ScreenGame for Troyis {
    type Board = Board;

    fn looks(&self) -> &'static [&'static Embedded] {
        &LOOKS
    }

    fn read(&self, image: &RgbImage, cal: &Calibration) -> Reading<Board> {
        read::read(image, cal)
    }

    /// A cell's class is its letter: `K` the knight, `W` a square to
    /// visit, `V` one visited, `.` none.
    fn skin_labels(&self, text: &str) -> Option<Result<Vec<Vec<String>>, GameError>> {
        Some(
            Board::parse(text)
                .map(|b| {
                    b.row_strings()
                        .iter()
                        .map(|r| r.chars().map(String::from).collect())
                        .collect()
                })
                .map_err(|e| GameError::Parse {
                    origin: "the board".into(),
                    message: e.to_string(),
                }),
        )
    }

    /// The colour learner reads through the original's drifting clouds;
    /// a skin refuses a cell a cloud covers.
    fn skin_first(&self) -> bool {
        false
    }

    fn skin_board(&self, labels: &[Vec<String>], _skin: &Skin) -> Result<Board, NotLegal> {
        let rows: Vec<String> = labels.iter().map(|r| r.concat()).collect();
        Board::parse(&rows.join("\n"))
            .map_err(|e| format!("the board read is not a Troyis board: {e}").into())
    }

    fn plan(&self, grid: &GridRead, board: Board, opts: &Options) -> Result<Report, GameError> {
        let mut r = Report::new(ID, Verdict::Playable, "");
        r.board = Some(BoardReport::from_rows(board.row_strings()));
        plan_into(&mut r, &board, opts, Some(&grid.lattice));
        Ok(r)
    }

    fn pacing(&self) -> Pacing {
        Pacing {
            // The game animates each knight move; clicks closer than this
            // can land before the knight does.
            click: Duration::from_millis(120),
            // Only the clouds move, ten times a second: two captures 8 ms
            // apart agree nine times in ten.
            settle_gap: Duration::from_millis(8),
            settle_max: Duration::from_millis(400),
            verify: Duration::from_millis(1500),
            ..Pacing::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predicts_the_board_after_the_whole_plan() {
        let board = Board::parse("K../..W/W..").unwrap();
        let (plan, _) = solver::solve_with_stats(&board, &Limits::default()).unwrap();
        let cps = after_plan(&board, &plan);
        assert_eq!(cps.len(), 1);
        assert_eq!(cps[0].after, plan.squares.len());
        let rows = cps[0].rows.join("/");
        assert!(!rows.contains('W'), "targets left after the plan: {rows}");
        let last = plan.squares.last().unwrap();
        let knight = cps[0].rows[last.0].chars().nth(last.1);
        assert_eq!(knight, Some('K'), "{rows}");
    }
}
