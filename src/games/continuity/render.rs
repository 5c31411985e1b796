//! What the window shows for a state of the game ([`shown_of`]), and
//! `boardbot render --game continuity`: a level drawn as the practice
//! window draws it, after some inputs (`--moving ACTIONS@1`), with the
//! reading the reader must give.

use serde_json::json;

use super::art::{self, Drawn, Shown};
use super::level::{Cell, Spot};
use super::plan;
use super::rules::{Action, State, World};
use crate::art::render::{RenderOptions, Rendered};
use crate::engines::tiles::Slide;
use crate::game::GameError;
use crate::solve::{Found, Progress};
use crate::tools;

/// One scene's cells as the window draws them in state `s`.
fn scene_cells(world: &World, s: &State, tile: u8) -> Vec<Drawn> {
    let size = world.level.size;
    (0..size * size)
        .map(|i| {
            let spot = Spot {
                scene: tile,
                x: (i % size) as u8,
                y: (i / size) as u8,
            };
            let hero = s.at == spot;
            let rise = s.rise;
            match world.cell(spot) {
                Cell::Solid => Drawn::Solid,
                Cell::Key
                    if world
                        .level
                        .key_at(spot)
                        .is_some_and(|k| s.keys & (1 << k) == 0) =>
                {
                    Drawn::Key
                }
                Cell::Door if hero && s.won => Drawn::Exit,
                Cell::Door if hero => Drawn::Hero { rise, door: true },
                Cell::Door => Drawn::Door,
                _ if hero => Drawn::Hero { rise, door: false },
                _ => Drawn::Air,
            }
        })
        .collect()
}

/// What the window shows in state `s`: every slot's scene (keys held are
/// air), the character where it is, and the view.
pub fn shown_of(world: &World, s: &State) -> Shown {
    let lv = &world.level;
    let slots = (0..lv.rows * lv.cols)
        .map(|k| {
            let tile = s.frame.get(k);
            (tile != 0).then(|| scene_cells(world, s, tile))
        })
        .collect();
    Shown {
        rows: lv.rows,
        cols: lv.cols,
        size: lv.size,
        slots,
        view: s.view,
        jump: lv.jump,
    }
}

/// Parses one input as plans print it: `L`, `R`, `J`, `W`, `space`, `slide-U`.
pub fn parse_action(text: &str) -> Option<Action> {
    match text.trim() {
        "L" => Some(Action::Left),
        "R" => Some(Action::Right),
        "J" => Some(Action::Jump),
        "W" => Some(Action::Wait),
        "space" => Some(Action::Toggle),
        t => {
            let mut c = t.strip_prefix("slide-")?.chars();
            match (c.next().and_then(Slide::from_letter), c.next()) {
                (Some(d), None) => Some(Action::Slide(d)),
                _ => None,
            }
        }
    }
}

/// Plays `--moving`'s inputs (comma-separated) from `s`: the state, and
/// the steps and slides made.
fn counted(world: &World, s: State, inputs: &str) -> Result<(State, (usize, usize)), GameError> {
    let (mut s, mut steps, mut slides) = (s, 0, 0);
    for t in inputs.split(',').filter(|t| !t.trim().is_empty()) {
        let a = parse_action(t).ok_or_else(|| {
            GameError::Usage(format!(
                "--moving: {t:?} is no input (L, R, J, W, space, slide-U/D/L/R)"
            ))
        })?;
        s = world.act(&s, a).ok_or_else(|| {
            GameError::Usage(format!("--moving: {t} is not available at that point"))
        })?;
        steps += usize::from(a.is_step());
        slides += usize::from(matches!(a, Action::Slide(_)));
    }
    Ok((s, (steps, slides)))
}

/// The verdict a reader must give for state `s`.
fn verdict_of(world: &World, s: &State) -> &'static str {
    if s.won {
        return "solved";
    }
    let budget = crate::solve::Budget {
        max_states: 2_000_000,
        ..tools::budget(&crate::tools::options::Options::default())
    };
    let sol = plan::search(world, *s, 5, &budget, &mut Progress::new(false));
    match sol.found {
        Found::Path(_) => "playable",
        Found::Exhausted => "unsolvable",
        Found::OverBudget { .. } => "gave_up",
    }
}

/// The status line: steps, slides and keys, or the win.
pub fn status(world: &World, s: &State, (steps, slides): (usize, usize)) -> String {
    let all = world.level.keys.len();
    let held = all - world.keys_left(s);
    if s.won {
        format!("WON  STEPS {steps}  SLIDES {slides}")
    } else {
        format!("STEPS {steps}  SLIDES {slides}  KEYS {held}/{all}")
    }
}

/// `boardbot render --game continuity`: the level's start, or the state
/// after `--moving`'s inputs (`L,R,space,slide-U@1`; the fraction is
/// ignored, as the window does not animate).
pub fn render(text: &str, origin: &str, opts: &RenderOptions) -> Result<Rendered, GameError> {
    let world = World::new(super::parse(text, origin)?);
    let start = world.start();
    let (s, made) = match &opts.moving {
        Some((inputs, _)) => counted(&world, start, inputs)?,
        None => (start, (0, 0)),
    };
    let shown = shown_of(&world, &s);
    let (image, g) = art::picture(&shown, opts.pitch, opts.margins, &status(&world, &s, made));
    let b = g.lattice().bounds();
    let round = |v: f64| (v * 100.0).round() / 100.0;
    let expect = json!({
        "state": opts.judged(|| verdict_of(&world, &s)),
        "cells": shown.rows(),
        "view": art::view_name(s.view),
        "keys": world.keys_left(&s),
        "jump": world.level.jump,
        "grid": [shown.rows().len(), round(b.x0), round(b.x1), round(b.y0), round(b.y1)],
        "render": {"pitch": opts.pitch, "margins": opts.margins},
    });
    Ok(Rendered { image, expect })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A key in A; the door in C, reached once a scene slides.
    pub const LEVEL: &str = include_str!("../../../tests/fixtures/continuity-screen/slide.txt");

    #[test]
    fn the_start_shows_the_character_the_key_the_door_and_the_gap() {
        let world = World::new(super::super::parse(LEVEL, "test").unwrap());
        let s = world.start();
        let rows = shown_of(&world, &s).rows();
        assert_eq!(rows[1], ".k..+....");
        assert_eq!(rows[2], "@...+....");
        assert_eq!(rows[4], "+++++++++");
        assert_eq!(rows[7], "____+...D");
        let (s, made) = counted(&world, s, "R,J").unwrap();
        assert_eq!(made, (2, 0));
        let rows = shown_of(&world, &s).rows();
        assert_eq!(
            rows[1], ".^..+....",
            "the key is taken, the jump still rises"
        );
        let s = counted(&world, s, "space").unwrap().0;
        assert!(shown_of(&world, &s).rows()[4].starts_with("====="));
        assert!(counted(&world, s, "slide-Q").is_err());
    }

    #[test]
    fn inputs_parse_as_plans_print_them() {
        for a in [
            Action::Left,
            Action::Jump,
            Action::Toggle,
            Action::Slide(Slide::Up),
        ] {
            assert_eq!(parse_action(&a.to_string()), Some(a));
        }
        assert_eq!(parse_action("X"), None);
    }
}
