//! Rush Hour (and the "Game About Rectangles"): slide cars until the red
//! one can leave.
//!
//! - [`board`]: the model, Fogleman's 36-character format, bitboard moves;
//! - [`solver`]: optimal solutions by breadth-first search, and files of
//!   puzzles checked on every core;
//! - [`map`]: the state-space map with distances to a solution, its
//!   export, and the rating of a player's moves.

pub mod board;
pub mod map;
pub mod solver;

use std::fmt::Write as _;
use std::time::Instant;

use serde_json::json;

use self::board::Puzzle;
use super::{Game, GameError, MapOptions, SolveOptions};
use crate::report::{BoardReport, Doc, Report, State, ms_since};
use crate::solve::{Budget, Found, Progress};

pub struct Rush;

const ID: &str = "rush";

fn parse(text: &str, origin: &str) -> Result<(Puzzle, board::State), GameError> {
    Puzzle::parse(text).map_err(|e| GameError::Parse {
        origin: origin.to_string(),
        message: e.to_string(),
    })
}

/// Parses the position and maps its cluster; `Err(doc)` with the
/// document to print when the map outgrew the memory budget.
type Mapped = Result<(Puzzle, board::State, crate::solve::StateMap<board::State>), Doc>;

fn mapped(text: &str, origin: &str, opts: &MapOptions) -> Result<Mapped, GameError> {
    let (p, start) = parse(text, origin)?;
    let mut progress = Progress::new(opts.progress);
    Ok(
        match map::map(
            &p,
            start,
            &Budget::with_memory(opts.max_memory),
            &mut progress,
        ) {
            Ok(m) => Ok((p, start, m)),
            Err(reason) => Err(gave_up(reason)),
        },
    )
}

/// A map that outgrew its budget: nothing to show, exit 3.
fn gave_up(reason: String) -> Doc {
    Doc {
        json: json!({"game": ID, "state": "gave_up", "reason": reason}),
        text: format!("Gave up: {reason}; raise --max-memory.\n"),
        exit_code: 3,
    }
}

fn only_rush_options(opts: &SolveOptions) -> Result<(), GameError> {
    if opts.win.is_some() {
        return Err(GameError::Usage(
            "--win applies to bitlock, not rush".into(),
        ));
    }
    Ok(())
}

impl Game for Rush {
    fn id(&self) -> &'static str {
        ID
    }

    fn summary(&self) -> &'static str {
        "Rush Hour: slide cars until the red one leaves; optimal slides, state-space maps, traces"
    }

    fn solve_text(
        &self,
        text: &str,
        origin: &str,
        opts: &SolveOptions,
    ) -> Result<Report, GameError> {
        only_rush_options(opts)?;
        let (p, start) = parse(text, origin)?;
        let t = Instant::now();
        let mut progress = Progress::new(opts.progress);
        let mut budget = Budget::with_memory(opts.max_memory);
        if let Some(n) = opts.max_nodes {
            budget.max_states = n;
        }
        let (found, stats) = solver::solve(&p, start, &budget, &mut progress);
        let mut r = Report::new(ID, State::Solved, "");
        r.timing_ms.solve = ms_since(t);
        r.board = Some(BoardReport::from_rows(p.board_rows(start)));
        r.stats =
            Some(json!({"states": stats.states, "ms": stats.ms, "peak_bytes": stats.peak_bytes}));
        let mut text = format!("Board:\n{}\n", p.board_rows(start).join("\n"));
        match found {
            Found::Path(moves) => {
                let names: Vec<String> = moves.iter().map(ToString::to_string).collect();
                r.reason = format!("{} moves", names.len());
                let _ = writeln!(
                    text,
                    "Solved in {} moves (optimal): {}",
                    names.len(),
                    names.join(" ")
                );
                if opts.walkthrough {
                    let mut s = start;
                    for (i, m) in names.iter().enumerate() {
                        s = p.apply(s, m).map_err(GameError::Output)?.1;
                        let _ = writeln!(text, "\n{}. {m}\n{}", i + 1, p.board_rows(s).join("\n"));
                    }
                }
                r.plan = Some(json!({"moves": names, "length": moves.len()}));
            }
            Found::Exhausted => {
                r.state = State::Unsolvable;
                r.reason = format!(
                    "the red car can never leave: all {} reachable positions tried",
                    stats.states
                );
                let _ = writeln!(text, "Unsolvable: {}.", r.reason);
            }
            Found::OverBudget { proven } => {
                r.state = State::GaveUp;
                r.reason = format!(
                    "gave up after {} positions: no solution is shorter than {proven} moves; raise --max-memory or --max-nodes",
                    stats.states
                );
                let _ = writeln!(text, "Gave up: {}.", r.reason);
            }
        }
        r.text = text;
        Ok(r)
    }

    fn batch(&self, text: &str, origin: &str, opts: &SolveOptions) -> Result<Doc, GameError> {
        only_rush_options(opts)?;
        let lines = solver::parse_lines(text).map_err(|message| GameError::Parse {
            origin: origin.to_string(),
            message,
        })?;
        let t = Instant::now();
        let checked = solver::solve_lines(&lines);
        let total_ms = ms_since(t);
        let mut mismatches = Vec::new();
        let mut times: Vec<f64> = checked.iter().map(|c| c.ms).collect();
        times.sort_by(f64::total_cmp);
        for (line, c) in lines.iter().zip(&checked) {
            let ok = matches!(&c.got, Ok(Some(n)) if *n == line.moves);
            if !ok {
                let got = match &c.got {
                    Ok(Some(n)) => json!(n),
                    Ok(None) => json!("unsolvable"),
                    Err(e) => json!(format!("error: {e}")),
                };
                mismatches.push(json!({"line": line.number, "board": line.board, "expected": line.moves, "got": got}));
            }
        }
        let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
        let round = |v: f64| (v * 1000.0).round() / 1000.0;
        let mut text = format!(
            "{}: {} puzzles solved in {:.2} s on {} threads (median {:.3} ms per puzzle); {} mismatch(es).\n",
            origin,
            lines.len(),
            total_ms / 1e3,
            std::thread::available_parallelism().map_or(1, |n| n.get()),
            median,
            mismatches.len()
        );
        for m in mismatches.iter().take(20) {
            let _ = writeln!(
                text,
                "  line {}: {} expected {} moves, got {}",
                m["line"], m["board"], m["expected"], m["got"]
            );
        }
        Ok(Doc {
            exit_code: if mismatches.is_empty() { 0 } else { 1 },
            json: json!({
                "game": ID, "puzzles": lines.len(), "mismatches": mismatches,
                "total_ms": round(total_ms), "median_ms": round(median),
            }),
            text,
        })
    }

    fn map(&self, text: &str, origin: &str, opts: &MapOptions) -> Result<Doc, GameError> {
        let t = Instant::now();
        let (p, _, m) = match mapped(text, origin, opts)? {
            Ok(done) => done,
            Err(doc) => return Ok(doc),
        };
        let sum = map::summary(&p, &m);
        let ms = ms_since(t);
        let mut json = serde_json::to_value(&sum).expect("summaries serialise");
        let mut text = format!(
            "{} positions reachable ({} solved, {} dead ends), {} moves between them.\n\
             This board is {} from a solution; the farthest positions are {} away ({} of them).\n",
            sum.states,
            sum.goal_states,
            sum.dead_states,
            sum.edges,
            sum.distance
                .map_or("unsolvable, never".to_string(), |d| format!("{d} moves")),
            sum.max_distance.map_or("-".to_string(), |d| d.to_string()),
            sum.hardest.len(),
        );
        for b in sum.hardest.iter().take(5) {
            let _ = writeln!(text, "  {b}");
        }
        if let Some(path) = &opts.export {
            let files = map::export(&p, &m, path).map_err(GameError::Output)?;
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            let _ = writeln!(text, "Wrote {}.", names.join(", "));
            json["files"] = json!(names);
        }
        json["game"] = json!(ID);
        json["ms"] = json!(ms);
        Ok(Doc {
            json,
            text,
            exit_code: 0,
        })
    }

    fn trace(
        &self,
        text: &str,
        origin: &str,
        moves: &str,
        opts: &MapOptions,
    ) -> Result<Doc, GameError> {
        let (p, start, m) = match mapped(text, origin, opts)? {
            Ok(done) => done,
            Err(doc) => return Ok(doc),
        };
        let steps = map::trace(&p, start, &m, moves).map_err(|message| GameError::Parse {
            origin: "--moves".into(),
            message,
        })?;
        let fmt = |d: Option<u32>| d.map_or("-".to_string(), |d| d.to_string());
        let start_d = m.dist[0];
        let mut text = format!(
            "Start: {} moves from a solution.\n",
            fmt(Some(start_d).filter(|&d| d != u32::MAX))
        );
        let count = |v: &str| steps.iter().filter(|s| s.verdict == v).count();
        for (i, s) in steps.iter().enumerate() {
            let _ = writeln!(
                text,
                "{:>3}. {:<5} {:>3} -> {:<3} {}",
                i + 1,
                s.mv,
                fmt(s.before),
                fmt(s.after),
                s.verdict
            );
        }
        let solved = steps.last().is_some_and(|s| s.after == Some(0));
        let _ = writeln!(
            text,
            "{} moves: {} optimal, {} wasted, {} backwards; {}.",
            steps.len(),
            count("optimal"),
            count("wasted"),
            count("backwards"),
            if solved { "solved" } else { "not solved" }
        );
        Ok(Doc {
            json: json!({
                "game": ID, "start_distance": Some(start_d).filter(|&d| d != u32::MAX), "moves": steps,
                "optimal": count("optimal"), "wasted": count("wasted"), "backwards": count("backwards"), "solved": solved,
            }),
            text,
            exit_code: 0,
        })
    }
}
