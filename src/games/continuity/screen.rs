//! Continuity on the screen: a read frame turned back into a level and a
//! state ([`world_of`]), `solve --image`, and the plan as keys for live
//! play.
//!
//! The plan is contA's planner's ([`super::plan`]), from the state read:
//! the view, the character's cell and whether it still rises in a jump
//! (the reader cannot see how far, so a rising character is taken to
//! rise one more cell, as with the default jump of 2). Keys already
//! collected are gone from the picture, so the read level holds only the
//! keys left. One key per input (arrows for steps and slides, Up is Jump,
//! Down is Wait, Space toggles the view), and a checkpoint after every
//! segment of the plan (a toggle, a slide, or a run of steps): the live
//! player looks again there and re-plans from where the character really
//! is when the frame is not what the plan predicted.

use std::time::{Duration, Instant};

use super::art::{Drawn, Shown};
use super::level::{Level, Spot};
use super::plan::{self, Plan};
use super::render::shown_of;
use super::rules::{self, State, World};
use crate::calibration::Embedded;
use crate::game::Pacing;
use crate::input::{Action, KeyCode};
use crate::report::{BoardReport, Checkpoint, Report, Verdict, ms_since, value};
use crate::solve::{Found, Progress};
use crate::tools;
use crate::tools::options::Options;

pub static LOOKS: [&Embedded; 1] = [&crate::builtin_look!("calibration/continuity.toml")];

/// The practice window's default tick: one step per tick while a key is held.
pub const TICK: Duration = Duration::from_millis(125);

/// A read frame as a level: its layout (scenes lettered in reading order),
/// then each scene's block. A character in a doorway keeps the door in
/// the text and its start moves to the first air cell (the level format
/// has no letter for both); the second value is the doorway's spot then.
fn level_text(shown: &Shown) -> (String, Option<Spot>) {
    let s = shown.size;
    let mut layout = String::new();
    let mut blocks = Vec::new();
    for r in 0..shown.rows {
        for c in 0..shown.cols {
            match &shown.slots[r * shown.cols + c] {
                Some(cells) => {
                    let name = char::from(b'A' + blocks.len() as u8);
                    layout.push(name);
                    blocks.push((
                        name,
                        cells.iter().map(|d| letter_of(*d)).collect::<Vec<char>>(),
                    ));
                }
                None => layout.push('.'),
            }
        }
        layout.push('\n');
    }
    let mut door = None;
    for (k, (_, cells)) in blocks.iter_mut().enumerate() {
        if let Some(i) = cells.iter().position(|&c| c == '&') {
            cells[i] = 'D';
            door = Some(Spot {
                scene: k as u8 + 1,
                x: (i % s) as u8,
                y: (i / s) as u8,
            });
        }
    }
    if door.is_some() {
        if let Some(c) = blocks
            .iter_mut()
            .flat_map(|b| b.1.iter_mut())
            .find(|c| **c == '.')
        {
            *c = '@';
        }
    }
    let mut text = format!("jump {}\n{layout}", shown.jump);
    for (name, cells) in blocks {
        text.push_str(&format!("{name}:\n"));
        for row in cells.chunks(s) {
            text.extend(row);
            text.push('\n');
        }
    }
    (text, door)
}

/// A cell's letter in the level format; `&` for the character in a doorway.
fn letter_of(d: Drawn) -> char {
    match d {
        Drawn::Hero { door: true, .. } => '&',
        Drawn::Hero { .. } => '@',
        other => other.letter(),
    }
}

/// The level and state a read frame shows (the keys it holds are the keys
/// left), or why it is not a legal level.
pub fn world_of(shown: &Shown) -> Result<(World, State), String> {
    let (text, door) = level_text(shown);
    let mut level =
        Level::parse(&text).map_err(|e| format!("the frame read is not a legal level: {e}"))?;
    if let Some(spot) = door {
        level.start = spot;
    }
    let rising = shown
        .slots
        .iter()
        .flatten()
        .flatten()
        .any(|d| matches!(d, Drawn::Hero { rise, .. } if *rise > 0));
    let world = World::new(level);
    let mut s = world.start();
    s.view = shown.view;
    if rising {
        // The picture says only that it rises: one more cell at least.
        s.rise = 1.min(world.level.jump);
    }
    Ok((world, s))
}

/// The key of an input.
pub fn key_code(k: rules::Key) -> KeyCode {
    match k {
        rules::Key::Left => KeyCode::Left,
        rules::Key::Right => KeyCode::Right,
        rules::Key::Up => KeyCode::Up,
        rules::Key::Down => KeyCode::Down,
        rules::Key::Space => KeyCode::Space,
    }
}

/// One key per input, and the frame predicted after every segment.
fn keys_into(r: &mut Report, world: &World, start: &State, p: &Plan) {
    let mut s = *start;
    let mut checkpoints = Vec::new();
    for seg in &p.segments {
        for a in &p.actions[seg.first..seg.first + seg.len] {
            s = world.act(&s, *a).unwrap_or(s);
        }
        checkpoints.push(Checkpoint {
            after: seg.first + seg.len,
            rows: shown_of(world, &s).rows(),
        });
    }
    r.actions = Some(
        p.keys
            .iter()
            .map(|&k| Action::Key {
                key: key_code(k),
                mods: Vec::new(),
                hold_ms: None,
            })
            .collect(),
    );
    r.checkpoints = checkpoints;
}

/// Plans from the state read and fills the report.
fn plan_from(world: &World, start: State, opts: &Options) -> Report {
    let t = Instant::now();
    let cost = super::slide_cost(opts);
    let mut progress = Progress::new(opts.progress);
    let sol = plan::search(world, start, cost, &tools::budget(opts), &mut progress);
    drop(progress);
    let mut r = match &sol.found {
        Found::Path(actions) => {
            let p = Plan::new(world, &start, actions, cost);
            let mut r = Report::new(
                super::ID,
                Verdict::Playable,
                format!("cost {}: {}", p.cost, p.counts()),
            );
            r.headline = format!(
                "Planned at cost {} (optimal; slide cost {cost}): {}, a look after each segment:",
                p.cost,
                p.counts()
            );
            r.details = p
                .lines()
                .into_iter()
                .enumerate()
                .map(|(i, l)| format!("  {}. {l}", i + 1))
                .collect();
            keys_into(&mut r, world, &start, &p);
            r.plan = Some(value(&p));
            r
        }
        Found::Exhausted => Report::new(
            super::ID,
            Verdict::Unsolvable,
            "no plan reaches the door with every key from what the screen shows",
        ),
        Found::OverBudget { .. } => Report::new(
            super::ID,
            Verdict::GaveUp,
            "gave up: raise --max-memory or --max-nodes",
        ),
    };
    r.timing_ms.solve = ms_since(t);
    r
}

/// A frame read for sure, as the planner takes it.
pub struct Frame {
    /// The rows as read, for the report.
    pub rows: Vec<String>,
    /// The level it shows and where the character stands; `None` once the
    /// character went through the door.
    pub level: Option<(World, State)>,
}

/// The frame a reading shows: won when the character went through the
/// door, else a legal level, else the reason it is none (a read that is
/// no legal position is never played).
pub fn frame_of(shown: &Shown) -> Result<Frame, String> {
    let won = shown
        .slots
        .iter()
        .flatten()
        .flatten()
        .any(|d| *d == Drawn::Exit);
    let level = if won { None } else { Some(world_of(shown)?) };
    Ok(Frame {
        rows: shown.rows(),
        level,
    })
}

/// The plan for a frame read for sure, as keys; nothing once it is won.
pub fn plan_frame(frame: Frame, opts: &Options) -> Report {
    let mut r = match &frame.level {
        None => {
            let mut r = Report::new(
                super::ID,
                Verdict::Solved,
                "the character went through the door",
            );
            r.actions = Some(Vec::new());
            r
        }
        Some((world, start)) => plan_from(world, *start, opts),
    };
    r.board = Some(BoardReport::from_rows(frame.rows));
    r
}

/// Live pacing: a key a little more than a tick apart, so that in the
/// timed mode every press is a step of its own (the window steps at once
/// on a press when a tick has passed since its last step), and nothing
/// is left queued when the player looks again.
pub fn pacing() -> Pacing {
    Pacing {
        key: TICK + Duration::from_millis(30),
        focus: Duration::from_millis(30),
        settle_gap: Duration::from_millis(10),
        settle_max: Duration::from_millis(800),
        verify: Duration::from_millis(2500),
        ..Pacing::default()
    }
}

/// A point where a click changes nothing: the middle of the first gap
/// between scenes (the window ignores the mouse; other windows, the
/// frame's gap is no scene either).
pub fn safe_point(report: &Report) -> Option<(f64, f64)> {
    let lattice = &report.seen.grid.as_ref()?.lattice;
    let cells = &report.board.as_ref()?.cells;
    cells.iter().enumerate().find_map(|(r, row)| {
        row.chars()
            .position(|c| c == '+' || c == '=')
            .map(|c| lattice.cell(r, c).centre())
    })
}

#[cfg(test)]
mod tests {
    use super::super::art;
    use super::*;

    use super::super::render::tests::LEVEL;

    fn world() -> World {
        World::new(Level::parse(LEVEL).unwrap())
    }

    #[test]
    fn a_shown_frame_reads_back_as_the_same_level_and_state() {
        let w = world();
        let mut s = w.start();
        for a in [
            rules::Action::Right,
            rules::Action::Jump,
            rules::Action::Toggle,
        ] {
            s = w.act(&s, a).unwrap();
        }
        assert_eq!(s.rise, 1);
        let shown = shown_of(&w, &s);
        let (w2, s2) = world_of(&shown).unwrap();
        assert_eq!(shown_of(&w2, &s2), shown);
        assert_eq!((s2.rise, s2.view), (1, rules::View::Tiles));
        assert_eq!(w2.level.keys.len(), 0, "the key was taken");
    }

    #[test]
    fn a_picture_is_planned_into_keys_with_a_checkpoint_per_segment() {
        let w = world();
        let shown = shown_of(&w, &w.start());
        let (img, _) = art::picture(&shown, 30.0, [10.0, 40.0, 10.0, 10.0], "");
        let cal = crate::calibration::Calibration::embedded(LOOKS[0], "continuity").unwrap();
        let r = crate::game::OnScreen::solve_image(
            &super::super::CONTINUITY,
            &img,
            &cal,
            &Options::default(),
        )
        .unwrap();
        assert_eq!(r.state, Verdict::Playable, "{}", r.reason);
        let actions = r.actions.as_ref().unwrap();
        let last = r.checkpoints.last().unwrap();
        assert_eq!(last.after, actions.len());
        // Replaying the keys' inputs wins, as the last checkpoint says.
        let p: serde_json::Value = r.plan.clone().unwrap();
        assert!(p["cost"].as_u64().unwrap() > 0);
        assert!(
            last.rows.iter().any(|row| row.contains('!')),
            "{:?}",
            last.rows
        );
        assert!(safe_point(&r).is_some());
    }
}
