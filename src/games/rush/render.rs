//! `boardbot render --game rush`: a position drawn with [`super::art`], and
//! the reading the reader must give (`expect`), canonically lettered. With
//! `--moving B+2@0.5` the vehicle is drawn that far through its slide: the
//! reader must refuse such a frame, or read the position nearest to it.

use serde_json::{Value, json};

use super::art::{self, Scene};
use super::board::{Puzzle, State};
use super::letters;
use super::solver::solution_length;
use crate::art::render::{RenderOptions, Rendered};
use crate::game::GameError;

/// The verdict name a reader must give for a still position.
pub fn verdict_of(p: &Puzzle, s: State) -> &'static str {
    if p.is_goal(s) {
        "solved"
    } else if solution_length(p, s).is_none() {
        "unsolvable"
    } else {
        "playable"
    }
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Draws `text` as the practice window does.
pub fn render(text: &str, origin: &str, opts: &RenderOptions) -> Result<Rendered, GameError> {
    let parse_error = |message: String| GameError::Parse {
        origin: origin.to_string(),
        message,
    };
    let (p, s) = Puzzle::parse(text).map_err(|e| parse_error(e.to_string()))?;
    let mut scene = Scene::of(&p, s);
    let mut moving = Value::Null;
    let mut still = Some(s);
    if let Some((mv, fraction)) = &opts.moving {
        let (m, after) = p
            .apply(s, mv)
            .map_err(|e| parse_error(format!("--moving: {e}")))?;
        let shift = f64::from(m.delta) * fraction;
        scene.pieces[m.vehicle as usize].pos += shift;
        let near = shift.round();
        let nearest = if near == 0.0 {
            s
        } else {
            p.apply(s, &format!("{}{:+}", m.letter, near as i8))
                .map_or(after, |x| x.1)
        };
        // Within a hair of a cell the frame shows that cell's position.
        still = ((shift - near).abs() < 0.02).then_some(nearest);
        moving = json!({
            "move": mv, "fraction": fraction,
            "nearest": letters::rows(&letters::canonical(&p.board_string(nearest))),
        });
    }
    let (image, lattice) = art::picture(&scene, opts.pitch, opts.margins);
    let b = lattice.bounds();
    let (state, cells) = match still {
        Some(s) => (
            opts.judged(|| verdict_of(&p, s)),
            json!(letters::rows(&letters::canonical(&p.board_string(s)))),
        ),
        None => ("uncertain".into(), Value::Null),
    };
    let expect = json!({
        "state": state,
        "cells": cells,
        "grid": [6, round2(b.x0), round2(b.x1), round2(b.y0), round2(b.y1)],
        "moving": moving,
        "render": {"pitch": opts.pitch, "margins": opts.margins, "seed": opts.seed},
    });
    Ok(Rendered { image, expect })
}
