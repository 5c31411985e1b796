//! Continuity end to end on a real X server: open the practice window at a
//! known place, run `boardbot play --game continuity` against it, and judge
//! the result from the window's own session file (won; every step, slide
//! and toggle counted; the cost the planner says is cheapest, so no step
//! was lost or doubled in either timing mode).
//!
//! Levels: bundled levels 1 (no tile move), 3 (a slide mid-route) and 7
//! (tiles moved twice mid-route), and
//! `tests/fixtures/continuity-screen/slide.txt` (a key, then a slide). Each test starts its own Xvfb display;
//! when Xvfb is not installed the tests say so and pass (CI installs it).
#![cfg(feature = "live")]

mod common;

use common::live::{
    Display, Practice, abort_stops_practice, dropped_input_is_replanned, dry_run_practice,
    have_xdotool, kinds, wins, xdotool, xvfb,
};
use serde_json::Value;

/// The slide level's path.
fn slide_level() -> String {
    common::fixtures("continuity-screen")
        .join("slide.txt")
        .to_string_lossy()
        .into_owned()
}

/// The practice window on `level` (`--seed N` or `--level FILE` flags),
/// with `extra` flags.
fn open(display: &Display, level: &[&str], extra: &[&str]) -> Practice {
    Practice::open(display, "continuity", level, extra)
}

/// Plays the window once and checks it was won at the cheapest cost, with
/// every step, slide and toggle counted.
fn won(display: &Display, practice: &Practice) -> Value {
    let r = wins(display, practice, 8.0);
    let moves = r["moves"].as_u64().unwrap();
    let counted = ["steps", "slides", "toggles"]
        .iter()
        .map(|k| r[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(moves, counted, "{r}");
    r
}

#[test]
fn step_on_key_windows_are_won_at_the_cheapest_cost() {
    let Some(display) = xvfb(51) else { return };
    // Level 1 needs no tile move; level 7 moves tiles twice mid-route.
    for seed in ["1", "7"] {
        let practice = open(&display, &["--seed", seed], &["--step-on-key"]);
        let r = won(&display, &practice);
        if seed == "7" {
            assert!(r["slides"].as_u64().unwrap() >= 2, "{r}");
            assert!(r["toggles"].as_u64().unwrap() >= 4, "{r}");
        }
    }
}

#[test]
fn the_timed_window_is_won_without_a_step_too_many() {
    let Some(display) = xvfb(52) else { return };
    // Level 3: steps, a slide in the tile view, steps again.
    let practice = open(&display, &["--seed", "3"], &["--tick-ms", "125"]);
    let r = won(&display, &practice);
    assert!(r["slides"].as_u64().unwrap() >= 1, "{r}");
}

#[test]
fn a_dropped_key_is_noticed_and_re_planned_from_where_the_character_is() {
    let Some(display) = xvfb(53) else { return };
    let practice = open(
        &display,
        &["--seed", "1"],
        &["--step-on-key", "--drop-input", "3"],
    );
    dropped_input_is_replanned(&display, &practice, 8.0);
}

#[test]
fn dry_run_plans_a_focus_click_inside_the_region_then_keys() {
    let Some(display) = xvfb(54) else { return };
    let level = slide_level();
    let practice = open(&display, &["--level", &level], &["--step-on-key"]);
    let v = dry_run_practice(&display, &practice, true, 20.0);
    for a in v["actions"].as_array().unwrap() {
        if let Some(k) = a["key"].as_str() {
            assert!(["Left", "Right", "Up", "Down", "Space"].contains(&k), "{a}");
        }
    }
    assert_eq!(kinds(&v)[0], "focus", "the focus click first: {v}");
    assert_eq!(v["plan"]["slides"], 1, "{v}");
}

#[test]
fn the_abort_key_stops_the_replay_and_the_window_stays_open() {
    let Some(display) = xvfb(55) else { return };
    if !have_xdotool() {
        return;
    }
    let practice = open(&display, &["--seed", "1"], &["--step-on-key"]);
    let r = abort_stops_practice(&display, &practice, 400);
    let moves = r["moves"].as_u64().unwrap();
    // Escape did not close the window: it still takes keys.
    xdotool(&display, &["key", "Right"]);
    practice.wait_until(
        |r| r["moves"].as_u64().unwrap_or(0) > moves,
        "the window to take a key after Escape",
    );
}
