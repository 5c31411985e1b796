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

use std::fmt::Write as _;
use std::time::Instant;

use image::RgbImage;

use self::board::Board;
use self::read::Read;
use self::solver::{Limits, Plan, SolveError};
use super::{Game, GameError, SolveOptions};
use crate::calibration::{Calibration, Embedded};
use crate::input::Action;
use crate::report::{BoardReport, CellIssue, Report, State, ms_since};
use crate::vision::{GridRead, Lattice};

pub struct Troyis;

static CALIBRATION: Embedded = Embedded {
    path: "calibration/troyis.toml",
    text: include_str!("../../../calibration/troyis.toml"),
    files: &[(
        "templates/troyis/knight.png",
        include_bytes!("../../../templates/troyis/knight.png"),
    )],
};

const ID: &str = "troyis";

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

/// Troyis has no use for the block games' options: say so.
fn check_options(opts: &SolveOptions) -> Result<(), GameError> {
    if opts.win.is_some() {
        return Err(GameError::Usage(
            "--win applies to bitlock, not troyis".into(),
        ));
    }
    if opts.max_memory.is_some() {
        return Err(GameError::Usage(
            "--max-memory applies to bitlock and rush; troyis takes --max-nodes".into(),
        ));
    }
    Ok(())
}

fn limits(opts: &SolveOptions) -> Limits {
    let mut l = Limits::default();
    if let Some(n) = opts.max_nodes {
        l.max_nodes = n;
    }
    l
}

fn board_text(rows: &[String]) -> String {
    let mut s = String::new();
    for row in rows {
        let spaced: Vec<String> = row.chars().map(|c| c.to_string()).collect();
        let _ = writeln!(s, "  {}", spaced.join(" "));
    }
    s
}

fn plan_text(board: &Board, plan: &Plan) -> String {
    let mut s = String::new();
    if plan.squares.is_empty() {
        s.push_str("Nothing to do: every target has been visited.\n");
        return s;
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
    let _ = writeln!(s, "Plan: {} moves, {kind}; {proof}.", plan.moves);
    let k = board.knight();
    let mut line = format!("  ({},{})", k.0, k.1);
    for (r, c) in &plan.squares {
        let step = format!(" → ({r},{c})");
        if line.len() + step.len() > 78 {
            let _ = writeln!(s, "{line}");
            line = "   ".to_string();
        }
        line.push_str(&step);
    }
    let _ = writeln!(s, "{line}");
    s
}

/// Solves a board read for sure, filling `report`'s plan and state.
fn plan_into(report: &mut Report, board: &Board, opts: &SolveOptions, lattice: Option<&Lattice>) {
    let t = Instant::now();
    let result = solver::solve_with_stats(board, &limits(opts));
    report.timing_ms.solve = ms_since(t);
    let mut text = String::new();
    match result {
        Ok((plan, stats)) => {
            if plan.squares.is_empty() {
                report.state = State::Solved;
                report.reason = "every target is visited: nothing to do".into();
            } else {
                report.state = State::Playable;
                report.reason = format!(
                    "{} targets, {} moves{}",
                    board.targets().count(),
                    plan.moves,
                    if plan.hamiltonian {
                        ", Hamiltonian"
                    } else {
                        ""
                    }
                );
            }
            text.push_str(&plan_text(board, &plan));
            if opts.walkthrough {
                let mut b = board.clone();
                for (k, &sq) in plan.squares.iter().enumerate() {
                    if b.step(sq).is_err() {
                        break;
                    }
                    let _ = write!(
                        text,
                        "\n{}. ({},{})\n{}",
                        k + 1,
                        sq.0,
                        sq.1,
                        board_text(&b.row_strings())
                    );
                }
                text.push('\n');
            }
            report.plan = Some(serde_json::to_value(&plan).expect("plans serialise"));
            report.stats = Some(serde_json::to_value(stats).expect("stats serialise"));
            if let Some(lat) = lattice {
                report.actions = Some(actions(&plan, lat));
            }
        }
        Err(e @ SolveError::Unreachable(_)) => {
            report.state = State::Unsolvable;
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
            let _ = writeln!(text, "Not solvable: {e}.");
        }
    }
    report.text.push_str(&text);
}

fn no_action_text(report: &Report) -> String {
    let mut s = format!("Not acting ({}): {}.\n", report.state.name(), report.reason);
    for (title, list) in [
        ("Cells it could not read", &report.unreadable),
        ("Targets it can never reach", &report.unreachable),
    ] {
        if !list.is_empty() {
            let _ = writeln!(s, "{title}:");
            for i in list {
                let _ = writeln!(s, "  ({},{}): {}", i.cell[0], i.cell[1], i.why);
            }
        }
    }
    s
}

impl Game for Troyis {
    fn id(&self) -> &'static str {
        ID
    }

    fn summary(&self) -> &'static str {
        "a knight visits every light square (Hamiltonian knight path); reads screenshots"
    }

    fn calibration(&self) -> Option<&'static Embedded> {
        Some(&CALIBRATION)
    }

    fn default_delay_ms(&self) -> u64 {
        // The game animates each knight move; clicks closer than this can
        // land before the knight does.
        120
    }

    fn solve_text(
        &self,
        text: &str,
        origin: &str,
        opts: &SolveOptions,
    ) -> Result<Report, GameError> {
        check_options(opts)?;
        let board = Board::parse(text).map_err(|e| GameError::Parse {
            origin: origin.to_string(),
            message: e.to_string(),
        })?;
        let mut report = Report::new(ID, State::Playable, "");
        report.board = Some(BoardReport::from_rows(board.row_strings()));
        report.text = format!(
            "Board ({}×{}):\n{}",
            board.rows(),
            board.cols(),
            board_text(&board.row_strings())
        );
        plan_into(&mut report, &board, opts, None);
        Ok(report)
    }

    fn solve_image(
        &self,
        image: &RgbImage,
        cal: &Calibration,
        opts: &SolveOptions,
    ) -> Result<Report, GameError> {
        check_options(opts)?;
        let t = Instant::now();
        let read = read::read(image, cal);
        let vision_ms = ms_since(t);
        let with_grid =
            |state: State, grid: Option<GridRead>, reason: String, issues: Vec<CellIssue>| {
                let mut r = Report::new(ID, state, reason);
                if let Some(g) = &grid {
                    r.board = Some(BoardReport::from_grid(g, g.rows()));
                    r.text = format!(
                        "Board ({}×{}) as read, ? where unsure:\n{}",
                        g.lattice.rows(),
                        g.lattice.cols(),
                        board_text(&g.rows())
                    );
                }
                r.unreadable = issues;
                r.actions = Some(Vec::new());
                r.seen.grid = grid;
                r.timing_ms.vision = Some(vision_ms);
                let extra = no_action_text(&r);
                r.text.push_str(&extra);
                r
            };
        Ok(match read {
            Read::NoBoard {
                grid,
                reason,
                issues,
            } => with_grid(State::NoBoard, grid, reason, issues),
            Read::Uncertain {
                grid,
                reason,
                issues,
            } => with_grid(State::Uncertain, Some(grid), reason, issues),
            Read::Board { grid, board } => {
                let mut r = Report::new(ID, State::Playable, "");
                r.board = Some(BoardReport::from_grid(&grid, board.row_strings()));
                r.timing_ms.vision = Some(vision_ms);
                let min_conf = grid
                    .confidences()
                    .into_iter()
                    .flatten()
                    .fold(1.0f32, f32::min);
                r.text = format!(
                    "Board ({}×{}) read from the image (lowest cell confidence {:.2}):\n{}",
                    board.rows(),
                    board.cols(),
                    min_conf,
                    board_text(&board.row_strings())
                );
                plan_into(&mut r, &board, opts, Some(&grid.lattice));
                if r.state == State::Unsolvable {
                    let extra = no_action_text(&r);
                    r.text.push_str(&extra);
                }
                r.seen.grid = Some(grid);
                r
            }
        })
    }
}
