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

use common::display::{
    Display, PracticeWindow, boardbot, have_xdotool, rect, region_around, show, wait_output,
    xdotool, xvfb,
};

use std::process::Stdio;
use std::time::Duration;

use serde_json::Value;

/// The Rush Hour practice window.
struct Practice(PracticeWindow);

impl std::ops::Deref for Practice {
    type Target = PracticeWindow;
    fn deref(&self) -> &PracticeWindow {
        &self.0
    }
}

impl Practice {
    /// Opens the window on a bundled board (`--seed`), with extra flags.
    fn open(display: &Display, seed: u64, pitch: u32, extra: &[&str]) -> Practice {
        let (seed, pitch) = (seed.to_string(), pitch.to_string());
        let mut args = vec![
            "practice",
            "--game",
            "rush",
            "--seed",
            &seed,
            "--pitch",
            &pitch,
            "--position",
            "40,30",
        ];
        args.extend_from_slice(extra);
        Practice(PracticeWindow::open(display, &args))
    }

    /// A selection around the board and its frame, `margin` pixels wider.
    fn region(&self, margin: f64) -> String {
        let l = &self.read()["lattice"];
        let pitch = l["pitch"].as_f64().unwrap();
        let (x, y) = (l["x"].as_f64().unwrap(), l["y"].as_f64().unwrap());
        let frame = (pitch * 0.45).round() + 2.0;
        region_around(x, y, 6.0 * pitch, frame + margin)
    }
}

fn play(display: &Display, region: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["play", "--game", "rush", "--region", region];
    args.extend_from_slice(extra);
    boardbot(display, &args).output().expect("run play")
}

#[test]
fn plays_a_practice_board_in_the_optimal_number_of_moves() {
    let Some(display) = xvfb(11) else { return };
    for (seed, pitch, margin) in [(17, 56, 4.0), (9, 40, 40.0)] {
        let practice = Practice::open(&display, seed, pitch, &[]);
        let region = practice.region(margin);
        let out = play(&display, &region, &["--once"]);
        assert_eq!(out.status.code(), Some(0), "{}", show(&out));
        let r = practice.wait_until(|r| r["solved"] == true, "the board to be solved");
        assert_eq!(
            r["moves"], r["optimal"],
            "not the optimal number of moves: {r}"
        );
        assert_eq!(r["illegal"], 0, "every drag was a move: {r}");
        trace_says_every_move_was_optimal(&r, &practice.result);
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("now reads as solved"),
            "{}",
            show(&out)
        );
    }
}

#[test]
fn a_dropped_drag_is_noticed_and_the_board_still_solved() {
    let Some(display) = xvfb(12) else { return };
    let practice = Practice::open(&display, 21, 48, &["--drop-input", "2"]);
    let out = play(&display, &practice.region(6.0), &["--once"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let r = practice.wait_until(|r| r["solved"] == true, "the board to be solved");
    assert_eq!(r["dropped"], 1, "{r}");
    // A drag planned after the lost one may find its way blocked: that is
    // an input that moved nothing, and the next look re-plans.
    assert!(r["illegal"].as_u64().unwrap() <= 2, "{r}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Re-planned"), "no re-plan: {}", show(&out));
}

#[test]
fn the_abort_key_stops_the_replay() {
    let Some(display) = xvfb(13) else { return };
    if !have_xdotool() {
        return;
    }
    let practice = Practice::open(&display, 28, 44, &[]);
    let region = practice.region(4.0);
    let child = boardbot(
        &display,
        &[
            "play",
            "--game",
            "rush",
            "--region",
            &region,
            "--once",
            "--delay-ms",
            "300",
        ],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("start play");
    practice.wait_until(|r| r["moves"].as_u64().unwrap_or(0) >= 2, "the first moves");
    xdotool(&display, &["key", "Escape"]);
    let out = wait_output(child, 10);
    assert_eq!(
        out.status.code(),
        Some(4),
        "play did not stop with the abort key: {}",
        show(&out)
    );
    let before = practice.read()["moves"].as_u64().unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let r = practice.read();
    assert_eq!(r["solved"], false, "{r}");
    assert!(
        r["moves"].as_u64().unwrap() <= before + 1,
        "drags went on after the abort: {r}"
    );
    assert!(
        r["moves"].as_u64().unwrap() < r["optimal"].as_u64().unwrap(),
        "{r}"
    );
}

#[test]
fn a_dry_run_plans_drags_inside_the_selection_and_sends_none() {
    let Some(display) = xvfb(14) else { return };
    let practice = Practice::open(&display, 5, 50, &[]);
    let region = practice.region(10.0);
    let out = play(&display, &region, &["--once", "--dry-run", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let v = common::stdout_json(&out);
    assert_eq!(v["state"], "playable", "{v}");
    let (rx, ry, rw, rh) = rect(&region);
    let actions = v["actions"].as_array().expect("actions");
    assert_eq!(
        actions.len() as u64,
        practice.read()["optimal"].as_u64().unwrap()
    );
    for a in actions {
        assert_eq!(a["kind"], "drag", "{a}");
        for p in [&a["from"], &a["to"]] {
            let (x, y) = (p[0].as_i64().unwrap(), p[1].as_i64().unwrap());
            assert!(
                x >= rx && y >= ry && x < rx + rw && y < ry + rh,
                "{a} leaves {region}"
            );
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(practice.read()["moves"], 0, "a dry run moved a vehicle");
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
