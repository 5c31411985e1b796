//! Skiddy on the screen: drawing a position for `boardbot render`, solving
//! a screenshot, and the plan as arrow keys for live play.
//!
//! The plan is one key per move, and a checkpoint after every key: a move
//! can send pieces a long way, so the live player looks again once each
//! slide has settled and re-plans when the board is not what the engine
//! predicted (a lost key, a move the window played differently).

use std::time::Duration;

use serde_json::{Value, json};

use super::Skiddy;
use super::art::{self, Scene};
use super::level::Level;
use super::motion;
use super::read;
use super::rules::{Dir, Key, Move, Rules};
use crate::art::render::{RenderOptions, Rendered};
use crate::game::GameError;
use crate::game::Pacing;
use crate::input::{Action, KeyCode};
use crate::report::{BoardReport, Checkpoint, Report, Verdict};
use crate::tools;
use crate::tools::options::Options;

/// How long the practice window animates one move.
pub const ANIMATION: Duration = Duration::from_millis(130);

/// A level given on the command line: rows joined by `/` or by newlines.
pub fn board_text(text: &str) -> String {
    if text.contains('\n') {
        text.to_string()
    } else {
        text.replace('/', "\n")
    }
}

/// Parses a level's rules, with errors naming `origin`.
pub fn load(text: &str, origin: &str) -> Result<Rules, GameError> {
    let level = Level::parse(&board_text(text)).map_err(|e| GameError::Parse {
        origin: origin.to_string(),
        message: e.to_string(),
    })?;
    Ok(Rules::new(&level))
}

/// The verdict a reader must give for a still position.
fn verdict_of(rules: &Rules, key: &Key) -> &'static str {
    if rules.is_won(key) {
        return "solved";
    }
    let game = Skiddy {
        rules: rules.clone(),
    };
    let budget = Options {
        max_nodes: Some(5_000_000),
        ..Options::default()
    };
    match tools::solve_parsed(&game, key, &budget) {
        Ok((r, _)) => r.state.name(),
        Err(_) => "unsolvable",
    }
}

/// Parses `--moving L@0.4`'s move.
fn moving_dir(mv: &str) -> Result<Dir, GameError> {
    let mut chars = mv.trim().chars();
    match (chars.next().and_then(Dir::from_char), chars.next()) {
        (Some(d), None) => Ok(d),
        _ => Err(GameError::Usage(format!(
            "--moving: {mv:?} is not L, R, U or D"
        ))),
    }
}

/// `boardbot render --game skiddy`: the position, optionally mid-move.
pub fn render(text: &str, origin: &str, opts: &RenderOptions) -> Result<Rendered, GameError> {
    let rules = load(text, origin)?;
    let start = rules.start;
    let mut moving = Value::Null;
    let (sprites, still) = match &opts.moving {
        None => (art::sprites_of(&rules, &start), Some(start)),
        Some((mv, f)) => {
            let dir = moving_dir(mv)?;
            let (_, after) = rules
                .play(&start, dir)
                .ok_or_else(|| GameError::Usage(format!("--moving: {mv} changes nothing here")))?;
            let paths = motion::paths(&rules, &start, &after, dir);
            let sprites = motion::sprites_at(&rules, &paths, *f);
            moving = json!({
                "move": mv, "fraction": f,
                "before": rules.render_rows(&start),
                "after": rules.render_rows(&after),
                "shows": motion::rows_shown(&rules, &sprites),
            });
            let still = (*f == 0.0)
                .then_some(start)
                .or((*f == 1.0).then_some(after));
            (sprites, still)
        }
    };
    let scene = Scene {
        rules: &rules,
        sprites: &sprites,
    };
    let (image, lattice) = art::picture(&scene, opts.pitch, opts.margins);
    let b = lattice.bounds();
    let round = |v: f64| (v * 100.0).round() / 100.0;
    let (state, cells) = match still {
        Some(k) => (
            opts.judged(|| verdict_of(&rules, &k)),
            json!(rules.render_rows(&k)),
        ),
        None => ("uncertain".into(), Value::Null),
    };
    let expect = json!({
        "state": state,
        "cells": cells,
        "sticky": rules.sticky,
        "grid": [rules.height, round(b.x0), round(b.x1), round(b.y0), round(b.y1)],
        "cols": rules.width,
        "moving": moving,
        "render": {"pitch": opts.pitch, "margins": opts.margins},
    });
    Ok(Rendered { image, expect })
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

/// One key per move, and the board the engine predicts after each.
fn keys_into(report: &mut Report, rules: &Rules, moves: &[Move]) {
    let mut key = rules.start;
    let mut checkpoints = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        if let Some((_, next)) = rules.play(&key, m.dir) {
            key = next;
        }
        checkpoints.push(Checkpoint {
            after: i + 1,
            rows: rules.render_rows(&key),
        });
    }
    report.actions = Some(
        moves
            .iter()
            .map(|m| Action::Key {
                key: key_of(m.dir),
                mods: Vec::new(),
                hold_ms: None,
            })
            .collect(),
    );
    report.checkpoints = checkpoints;
}

/// Solves a board read for sure and plans its keys; a board with no
/// skiddy left is solved.
pub fn plan(seen: read::Seen, opts: &Options) -> Report {
    let mut r = match &seen.level {
        None => {
            let mut r = Report::new(super::ID, Verdict::Solved, "no skiddy is left");
            r.actions = Some(Vec::new());
            r
        }
        Some(level) => {
            let rules = Rules::new(level);
            let game = Skiddy {
                rules: rules.clone(),
            };
            match tools::solve_parsed(&game, &rules.start, opts) {
                Ok((mut r, moves)) => {
                    keys_into(&mut r, &rules, &moves);
                    r
                }
                Err(e) => Report::new(super::ID, Verdict::GaveUp, e.to_string()),
            }
        }
    };
    r.board = Some(BoardReport::from_rows(seen.rows));
    r
}

/// Live pacing: a key once the window has animated the previous move.
pub fn pacing() -> Pacing {
    Pacing::arrow_window(ANIMATION + Duration::from_millis(50))
}
