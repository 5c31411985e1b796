//! B.i.t.Lock on the screen: drawing a position for `boardbot render`,
//! solving a screenshot, and the plan as arrow keys for live play.
//!
//! The plan is one key per move. Every [`CHECK_EVERY`] keys, and after the
//! last, a checkpoint holds the board the engine predicts, so the live
//! player looks again and re-plans when a key was lost.

use std::time::Duration;

use serde_json::json;

use super::art::{self, Scene};
use super::level::Level;
use super::motion::Pieces;
use super::read;
use super::rules::{Dir, Key, Rules};
use super::solver::{self, Solver};
use super::{Lock, load};
use crate::art::render::{RenderOptions, Rendered};
use crate::game::GameError;
use crate::game::Pacing;
use crate::input::{Action, KeyCode};
use crate::report::{BoardReport, Checkpoint, Report};
use crate::solve::{Budget, Progress};
use crate::tools;
use crate::tools::options::{Options, Win};

/// How long the practice window animates one move.
pub const ANIMATION: Duration = Duration::from_millis(120);
/// Keys between two looks at the board during live play.
pub const CHECK_EVERY: usize = 4;

/// A level given on the command line: rows joined by `/` or by newlines.
pub fn board_text(text: &str) -> String {
    if text.contains('\n') {
        text.to_string()
    } else {
        text.replace('/', "\n")
    }
}

/// The rows of a layout, in the engine's text format (full width).
fn rows_of(rules: &Rules, key: &Key<32>) -> Vec<String> {
    rules.render_rows(key)
}

/// A level's optimal solution within a modest budget: `(moves, proven)`.
pub fn optimal(rules: &Rules, win: Win, max_states: u64) -> Option<(String, bool)> {
    optimal_with(rules, win, max_states, &mut Progress::quiet())
}

/// [`optimal`], reporting its progress.
pub fn optimal_with(
    rules: &Rules,
    win: Win,
    max_states: u64,
    progress: &mut Progress,
) -> Option<(String, bool)> {
    let budget = Budget {
        max_bytes: 512 << 20,
        max_states,
        deadline: None,
    };
    let out = solver::solve(rules, win, &budget, max_states, progress).ok()?;
    out.moves.map(|m| (m, out.proven))
}

/// `boardbot render --game bitlock`: the position, optionally mid-move.
pub fn render(text: &str, origin: &str, opts: &RenderOptions) -> Result<Rendered, GameError> {
    let rules = load(&board_text(text), origin)?;
    let start: Key<32> = rules.start().map_err(|e| GameError::Parse {
        origin: origin.to_string(),
        message: e.to_string(),
    })?;
    let pieces = Pieces::new(&rules.level);
    let mut extra = serde_json::Map::new();
    let sprites = match &opts.moving {
        None => pieces.sprites(None),
        Some((mv, f)) => {
            let mut chars = mv.trim().chars();
            let dir = match (chars.next().and_then(Dir::from_char), chars.next()) {
                (Some(d), None) => d,
                _ => {
                    return Err(GameError::Usage(format!(
                        "--moving: {mv:?} is not L, R, U or D"
                    )));
                }
            };
            let (paths, _) = pieces
                .play(dir)
                .map_err(|e| GameError::Usage(e.to_string()))?;
            extra.insert("before".into(), json!(rows_of(&rules, &start)));
            extra.insert(
                "after".into(),
                json!(rows_of(&rules, &rules.play(&start, dir))),
            );
            extra.insert("moving".into(), json!([mv, f]));
            pieces.sprites(Some((&paths, *f)))
        }
    };
    let scene = Scene {
        level: &rules.level,
        sprites: &sprites,
    };
    let image = art::picture(&scene, opts.pitch, opts.margins, Some(0));
    let (_, _, lat) = art::layout(rules.level.rows, rules.level.cols, opts.pitch, opts.margins);
    let b = lat.bounds();
    let round = |v: f64| (v * 100.0).round() / 100.0;
    let still = extra.get("before") == extra.get("after");
    let state = if !still {
        "uncertain".into()
    } else if Solver::new(&rules, Win::Cover).is_goal(&start) {
        "solved".into()
    } else {
        opts.judged(|| match optimal(&rules, Win::Cover, 20_000_000) {
            Some(_) => "playable",
            None => "unsolvable",
        })
    };
    let mut expect = json!({
        "state": state,
        "cells": if still { json!(rows_of(&rules, &start)) } else { json!(null) },
        "grid": [rules.level.rows, round(b.x0), round(b.x1), round(b.y0), round(b.y1)],
        "cols": rules.level.cols,
        "render": {"pitch": opts.pitch, "margins": opts.margins},
    });
    if let Some(map) = expect.as_object_mut() {
        map.extend(extra);
    }
    Ok(Rendered { image, expect })
}

/// Solves a level the reader saw (targets under pieces included, which the
/// text format cannot hold) with the engine's solver.
pub fn solve_level(level: &Level, opts: &Options) -> Result<(Report, Vec<Dir>), GameError> {
    fn go<const N: usize>(rules: &Rules, opts: &Options) -> Result<(Report, Vec<Dir>), GameError> {
        let start = rules
            .start::<N>()
            .map_err(|e| GameError::Output(e.to_string()))?;
        let lock = Lock::<N> {
            solver: Solver::new(rules, opts.win.unwrap_or_default()),
        };
        tools::solve_parsed(&lock, &start, opts)
    }
    let rules = Rules::new(level.clone()).map_err(|e| GameError::Output(e.to_string()))?;
    match rules.pieces {
        0..=8 => go::<8>(&rules, opts),
        9..=16 => go::<16>(&rules, opts),
        _ => go::<32>(&rules, opts),
    }
}

/// The arrow key of a move.
pub fn key_of(d: Dir) -> KeyCode {
    match d {
        Dir::L => KeyCode::Left,
        Dir::R => KeyCode::Right,
        Dir::U => KeyCode::Up,
        Dir::D => KeyCode::Down,
    }
}

/// One key per move, and the predicted board every few keys and at the end.
fn keys_into(report: &mut Report, level: &Level, moves: &[Dir]) -> Result<(), GameError> {
    let rules = Rules::new(level.clone()).map_err(|e| GameError::Output(e.to_string()))?;
    let mut key: Key<32> = rules
        .start()
        .map_err(|e| GameError::Output(e.to_string()))?;
    let mut checkpoints = Vec::new();
    for (i, &d) in moves.iter().enumerate() {
        key = rules.play(&key, d);
        if (i + 1) % CHECK_EVERY == 0 || i + 1 == moves.len() {
            checkpoints.push(Checkpoint {
                after: i + 1,
                rows: rows_of(&rules, &key),
            });
        }
    }
    report.actions = Some(
        moves
            .iter()
            .map(|&d| Action::Key {
                key: key_of(d),
                mods: Vec::new(),
                hold_ms: None,
            })
            .collect(),
    );
    report.checkpoints = checkpoints;
    Ok(())
}

/// The plan for a board read for sure: the engine's solution as keys.
pub fn plan(seen: read::Seen, opts: &Options) -> Result<Report, GameError> {
    let (mut r, moves) = solve_level(&seen.level, opts)?;
    r.board = Some(BoardReport::from_rows(seen.rows));
    keys_into(&mut r, &seen.level, &moves)?;
    Ok(r)
}

/// Live pacing: a key once the window has animated the previous move.
pub fn pacing() -> Pacing {
    Pacing::arrow_window(ANIMATION + Duration::from_millis(40))
}
