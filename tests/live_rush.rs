//! Rush Hour end to end on a real X server: open the practice window at a
//! known place, run `boardbot play --game rush` against it, and judge the
//! play by the window's own session file: solved, in exactly the optimal
//! number of moves; the abort key stops a replay; a drag the window drops
//! on purpose is noticed and re-planned.
//!
//! Each test starts its own Xvfb display. When Xvfb is not installed the
//! tests say so and pass (CI installs it: see `.ci/deps`).
#![cfg(feature = "live")]

mod common;

use common::live::{
    Display, Practice, abort_stops_practice, dropped_input_is_replanned, dry_run_practice, kinds,
    wins, xvfb,
};
use serde_json::Value;

/// The Rush Hour practice window on a bundled board (`--seed`), drawn at
/// `pitch`, with its frame round the board.
fn open(display: &Display, seed: u64, pitch: u32, extra: &[&str]) -> Practice {
    let level = ["--seed", &seed.to_string(), "--pitch", &pitch.to_string()].map(String::from);
    let level: Vec<&str> = level.iter().map(String::as_str).collect();
    Practice::open(display, "rush", &level, extra).framed(|pitch| (pitch * 0.45).round() + 2.0)
}

#[test]
fn plays_a_practice_board_in_the_optimal_number_of_moves() {
    let Some(display) = xvfb(11) else { return };
    for (seed, pitch, margin) in [(17, 56, 4.0), (9, 40, 40.0)] {
        let practice = open(&display, seed, pitch, &[]);
        let r = wins(&display, &practice, margin);
        trace_says_every_move_was_optimal(&r, &practice.window.result);
    }
}

#[test]
fn a_dropped_drag_is_noticed_and_the_board_still_solved() {
    let Some(display) = xvfb(12) else { return };
    let practice = open(&display, 21, 48, &["--drop-input", "2"]);
    let r = dropped_input_is_replanned(&display, &practice, 6.0);
    // A drag planned after the lost one may find its way blocked: that is
    // an input that moved nothing, and the next look re-plans.
    assert!(r["illegal"].as_u64().unwrap() <= 2, "{r}");
}

#[test]
fn the_abort_key_stops_the_replay() {
    let Some(display) = xvfb(13) else { return };
    abort_stops_practice(&display, &open(&display, 28, 44, &[]), 300);
}

#[test]
fn a_dry_run_plans_drags_inside_the_selection_and_sends_none() {
    let Some(display) = xvfb(14) else { return };
    let practice = open(&display, 5, 50, &[]);
    let v = dry_run_practice(&display, &practice, true, 10.0);
    assert!(kinds(&v).iter().all(|k| k == "drag"), "{v}");
    assert_eq!(kinds(&v).len() as u64, practice.optimal());
}

/// `boardbot trace` reads the session's moves against its start: with
/// `--moves` as a player would type them, and with `--record` from the
/// window's own session file. Every move optimal, the board solved, a
/// thinking time for each.
fn trace_says_every_move_was_optimal(session: &Value, file: &std::path::Path) {
    let moves: Vec<&str> = session["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    let start = session["start"].as_str().unwrap();
    let typed = common::boardbot(&[
        "trace",
        "--game",
        "rush",
        "--json",
        "--board",
        start,
        "--moves",
        &moves.join(","),
    ]);
    let recorded = common::boardbot(&[
        "trace",
        "--game",
        "rush",
        "--json",
        "--record",
        file.to_str().unwrap(),
    ]);
    for out in [typed, recorded] {
        let v = common::stdout_json(&out);
        assert_eq!(v["solved"], true, "{v}");
        assert_eq!(
            (v["wasted"].as_u64(), v["backwards"].as_u64()),
            (Some(0), Some(0)),
            "{v}"
        );
        assert_eq!(
            v["moves"].as_array().map(Vec::len),
            Some(moves.len()),
            "{v}"
        );
    }
    let v = common::stdout_json(&common::boardbot(&[
        "trace",
        "--json",
        "--record",
        file.to_str().unwrap(),
    ]));
    assert_eq!(v["optimal_share"], 1.0, "{v}");
    assert!(v["median_think_optimal_ms"].is_number(), "{v}");
    assert!(v["moves"][0]["think_ms"].is_number(), "{v}");
}

#[test]
fn the_window_refuses_flags_it_does_not_read_and_bad_boards() {
    let out = common::boardbot(&["practice", "--game", "rush", "--size", "6"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--size does not apply"), "{err}");
    let out = common::boardbot(&["practice", "--game", "rush", "--board", "AAoo"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("36"), "{err}");
}
