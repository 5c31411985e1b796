//! `boardbot render`: draws a Troyis board with the project's own art, and
//! optionally the truth file the reader must reproduce. This is how the
//! recorded screenshots under `tests/fixtures/` are made.

use std::path::PathBuf;

use anyhow::{Context, anyhow, bail};
use clap::Args as ClapArgs;
use serde_json::json;

use crate::games::troyis::board::Board;
use crate::games::troyis::render::{self, Style, palette};
use crate::games::troyis::solver;

#[derive(ClapArgs)]
pub struct Args {
    /// Only `troyis` has a renderer.
    #[arg(long, default_value = "troyis")]
    game: String,
    /// The board, rows joined by `/`.
    #[arg(long)]
    board: String,
    /// Where to write the PNG.
    #[arg(long, value_name = "OUT.png")]
    out: PathBuf,
    /// Cell pitch in pixels.
    #[arg(long, default_value_t = 45.0)]
    pitch: f64,
    /// Page margins around the board: LEFT,TOP,RIGHT,BOTTOM in pixels.
    #[arg(long, default_value = "4,4,4,4")]
    margins: String,
    /// Number of clouds drifting over the board.
    #[arg(long, default_value_t = 0)]
    clouds: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The knight cell's colour: blue, yellow, purple or red.
    #[arg(long, default_value = "blue")]
    knight_bg: String,
    /// Visited cells' tint: red, magenta or green.
    #[arg(long, default_value = "red")]
    visited: String,
    /// Write this message across the board, as the game's end-of-level screens do.
    #[arg(long, value_name = "TEXT")]
    message: Option<String>,
    /// Darken everything, as behind the game's level splash.
    #[arg(long)]
    dim: bool,
    /// Also write the expected reading as JSON: state, cells, and the grid as [n, x0, x1, y0, y1].
    #[arg(long, value_name = "OUT.json")]
    expect: Option<PathBuf>,
}

pub fn run(a: Args) -> anyhow::Result<()> {
    if a.game != "troyis" {
        bail!("only troyis has a renderer");
    }
    let board = Board::parse(&a.board).map_err(|e| anyhow!("--board: {e}"))?;
    let margins: Vec<f64> = a
        .margins
        .split(',')
        .map(|v| v.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .map_err(|_| anyhow!("--margins must be four numbers, LEFT,TOP,RIGHT,BOTTOM"))?;
    let [l, t, r, b] = margins[..] else {
        bail!("--margins must be four numbers, LEFT,TOP,RIGHT,BOTTOM");
    };
    if !(4.0..=1000.0).contains(&a.pitch) {
        bail!("--pitch must be between 4 and 1000 pixels");
    }
    if margins.iter().any(|m| !(0.0..=10_000.0).contains(m)) {
        bail!("--margins must each be between 0 and 10000 pixels");
    }
    if a.clouds > 100 {
        bail!("--clouds must be at most 100");
    }
    let colour = |name: &str, what: &str| {
        palette::named(name)
            .or_else(|| (name == "red" && what == "knight").then_some(palette::KNIGHT_RED))
            .ok_or_else(|| anyhow!("unknown {what} colour {name:?}"))
    };
    let style = Style {
        margins: [l, t, r, b],
        knight_bg: if a.knight_bg == "red" {
            palette::KNIGHT_RED
        } else {
            colour(&a.knight_bg, "knight")?
        },
        visited: colour(&a.visited, "visited")?,
        clouds: a.clouds,
        seed: a.seed,
        ..Style::new(a.pitch)
    };
    let mut img = render::render(&board, &style);
    if a.dim {
        render::dim(&mut img);
    }
    if let Some(m) = &a.message {
        render::overlay_message(&mut img, m);
    }
    img.save(&a.out)
        .with_context(|| format!("cannot write {}", a.out.display()))?;
    if let Some(path) = &a.expect {
        let (_, _, lat) = render::layout(board.rows(), board.cols(), &style);
        let bounds = lat.bounds();
        let round = |v: f64| (v * 100.0).round() / 100.0;
        let state = if a.dim {
            "no_board"
        } else if a.message.is_some() {
            "uncertain"
        } else if board.is_solved() {
            "solved"
        } else if solver::solve(&board, &solver::Limits::default()).is_err() {
            "unsolvable"
        } else {
            "playable"
        };
        let doc = json!({
            "state": state,
            "cells": board.row_strings(),
            "grid": [board.rows(), round(bounds.x0), round(bounds.x1), round(bounds.y0), round(bounds.y1)],
            "render": {
                "pitch": a.pitch, "margins": [l, t, r, b], "clouds": a.clouds, "seed": a.seed,
                "knight_bg": a.knight_bg, "visited": a.visited, "message": a.message, "dim": a.dim,
            },
        });
        let text = serde_json::to_string_pretty(&doc)? + "\n";
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}
