//! B.i.t.Lock (Block in the Lock): every tile steps one cell per arrow key.
//!
//! - [`level`]: the map format;
//! - [`rules`]: one move, on layouts packed into a few bytes;
//! - [`solver`]: the fewest moves, by A* with a memory-bounded IDA* fallback.

pub mod level;
pub mod rules;
pub mod solver;

use std::fmt::Write as _;
use std::time::Instant;

use serde_json::json;

use self::level::Level;
use self::rules::Rules;
use self::solver::Win;
use super::{Game, GameError, SolveOptions};
use crate::report::{BoardReport, Report, State, ms_since};
use crate::solve::memory::peak_rss;
use crate::solve::{Budget, Progress};

pub struct BitLock;

const ID: &str = "bitlock";

/// Visits IDA* may make after A* runs out of memory, unless `--max-nodes` says otherwise.
const DEFAULT_IDA_VISITS: u64 = 4_000_000_000;

/// Parses a level and its rules, with errors naming `origin`.
pub fn load(text: &str, origin: &str) -> Result<Rules, GameError> {
    let parse = |message: String| GameError::Parse {
        origin: origin.to_string(),
        message,
    };
    let level = Level::parse(text).map_err(|e| parse(e.to_string()))?;
    Rules::new(level).map_err(|e| parse(e.to_string()))
}

impl Game for BitLock {
    fn id(&self) -> &'static str {
        ID
    }

    fn summary(&self) -> &'static str {
        "B.i.t.Lock: every tile steps one cell per arrow key; optimal move strings"
    }

    fn solve_text(
        &self,
        text: &str,
        origin: &str,
        opts: &SolveOptions,
    ) -> Result<Report, GameError> {
        let rules = load(text, origin)?;
        let win: Win = opts
            .win
            .as_deref()
            .unwrap_or("cover")
            .parse()
            .map_err(GameError::Usage)?;
        let budget = Budget::with_memory(opts.max_memory);
        let t = Instant::now();
        let mut progress = Progress::new(opts.progress);
        let out = solver::solve(
            &rules,
            win,
            &budget,
            opts.max_nodes.unwrap_or(DEFAULT_IDA_VISITS),
            &mut progress,
        )
        .map_err(|e| GameError::Parse {
            origin: origin.to_string(),
            message: e.to_string(),
        })?;
        let rule = match win {
            Win::Cover => "cover",
            Win::Exact => "exact",
        };
        let mut r = Report::new(ID, State::Solved, "");
        r.timing_ms.solve = ms_since(t);
        r.board = Some(BoardReport::from_rows(rules.level_rows()));
        r.stats = Some(json!({
            "states": out.stats.states,
            "ms": out.stats.ms,
            "peak_bytes": peak_rss().unwrap_or(out.stats.peak_bytes),
            "table_bytes": out.stats.peak_bytes,
            "fell_back_to_ida": out.fell_back,
            "lower_bound": out.lower_bound,
        }));
        let mut text = String::new();
        match &out.moves {
            Some(m) => {
                r.reason = format!("{} moves under the {rule} rule", m.len());
                r.plan = Some(
                    json!({"moves": m, "length": m.len(), "optimal": out.proven, "win": rule}),
                );
                let _ = writeln!(
                    text,
                    "Solved in {} moves (optimal, win rule {rule}): {m}",
                    m.len()
                );
                if opts.walkthrough {
                    let boards = solver::replay(&rules, m).map_err(GameError::Output)?;
                    for (i, b) in boards.iter().enumerate() {
                        match i {
                            0 => {
                                let _ = writeln!(text, "\nStart:\n{b}");
                            }
                            _ => {
                                let _ = writeln!(text, "\n{i}. {}\n{b}", &m[i - 1..i]);
                            }
                        }
                    }
                }
            }
            None if out.unsolvable => {
                r.state = State::Unsolvable;
                r.reason = format!(
                    "no sequence of moves wins under the {rule} rule ({} layouts tried)",
                    out.stats.states
                );
                let _ = writeln!(text, "Unsolvable: {}.", r.reason);
            }
            None => {
                r.state = State::GaveUp;
                r.reason = format!(
                    "gave up after {} layouts: no solution is shorter than {} moves; raise --max-memory or --max-nodes",
                    out.stats.states, out.lower_bound
                );
                let _ = writeln!(text, "Gave up: {}.", r.reason);
            }
        }
        let _ = writeln!(
            text,
            "Searched {} layouts in {:.1} ms{}.",
            out.stats.states,
            out.stats.ms,
            if out.fell_back {
                " (A* ran out of memory; IDA* finished)"
            } else {
                ""
            }
        );
        r.text = text;
        Ok(r)
    }
}
