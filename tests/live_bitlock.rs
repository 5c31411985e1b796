//! B.i.t.Lock end to end on a real X server: open the practice window at a
//! known place, run `boardbot play --game bitlock` against it, and judge
//! the result from the window's own session file (solved, and with how
//! many moves against the known optimum).
//!
//! Each test starts its own Xvfb display. When Xvfb is not installed the
//! tests say so and pass (CI installs it: see `.ci/deps`).
#![cfg(feature = "live")]

mod common;

use common::display::{
    Display, PracticeWindow, boardbot, have_xdotool, region_around, show, wait_output, xdotool,
    xvfb,
};

use std::process::Stdio;
use std::time::Duration;

/// The B.i.t.Lock practice window, from `seed`, at a known place.
struct Practice(PracticeWindow);

impl std::ops::Deref for Practice {
    type Target = PracticeWindow;
    fn deref(&self) -> &PracticeWindow {
        &self.0
    }
}

impl Practice {
    fn open(display: &Display, seed: u64, extra: &[&str]) -> Practice {
        let seed = seed.to_string();
        let mut args = vec![
            "practice",
            "--game",
            "bitlock",
            "--seed",
            &seed,
            "--position",
            "40,30",
        ];
        args.extend_from_slice(extra);
        Practice(PracticeWindow::open(display, &args))
    }

    /// The selection around the board, with a margin.
    fn region(&self, margin: f64) -> String {
        let l = &self.read()["lattice"];
        let pitch = l["pitch"].as_f64().unwrap();
        let side = pitch * l["cols"].as_f64().unwrap().max(l["rows"].as_f64().unwrap());
        region_around(
            l["x"].as_f64().unwrap(),
            l["y"].as_f64().unwrap(),
            side,
            margin,
        )
    }
}

fn play(display: &Display, region: &str, extra: &[&str]) -> std::process::Command {
    let mut args = vec!["play", "--game", "bitlock", "--region", region];
    args.extend_from_slice(extra);
    boardbot(display, &args)
}

#[test]
fn play_once_solves_a_generated_level_in_the_optimal_number_of_moves() {
    let Some(display) = xvfb(21) else { return };
    for seed in [5, 9] {
        let practice = Practice::open(&display, seed, &[]);
        let out = play(&display, &practice.region(8.0), &["--once"])
            .output()
            .expect("run play");
        assert_eq!(out.status.code(), Some(0), "{}", show(&out));
        let r = practice.wait_until(|r| r["solved"] == true, "the level to be solved");
        assert_eq!(r["moves"], r["optimal"], "optimal moves: {r}");
        assert_eq!(r["illegal"], 0, "{r}");
        // The session is a record `trace` reads: every key was optimal.
        let record = practice.result.to_str().unwrap();
        let t = common::stdout_json(&common::boardbot(&["trace", "--json", "--record", record]));
        assert_eq!(
            (t["solved"].as_bool(), t["optimal_share"].as_f64()),
            (Some(true), Some(1.0)),
            "{t}"
        );
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("now reads as solved"),
            "{}",
            show(&out)
        );
    }
}

#[test]
fn a_dropped_key_is_noticed_and_re_planned() {
    let Some(display) = xvfb(22) else { return };
    let practice = Practice::open(&display, 7, &["--drop-input", "3"]);
    let out = play(&display, &practice.region(8.0), &["--once"])
        .output()
        .expect("run play");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let r = practice.wait_until(|r| r["solved"] == true, "the level to be solved");
    assert_eq!(r["dropped"], 1, "{r}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Re-planned"), "{}", show(&out));
}

#[test]
fn dry_run_plans_arrow_keys_after_a_focus_point_inside_the_region() {
    let Some(display) = xvfb(23) else { return };
    let practice = Practice::open(&display, 5, &[]);
    let region = practice.region(20.0);
    let out = play(&display, &region, &["--once", "--dry-run", "--json"])
        .output()
        .expect("run play");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let v = common::stdout_json(&out);
    assert_eq!(v["state"], "playable", "{v}");
    let actions = v["actions"].as_array().expect("actions");
    let keys: Vec<&str> = actions.iter().filter_map(|a| a["key"].as_str()).collect();
    let optimal = practice.read()["optimal"].as_u64().unwrap() as usize;
    assert_eq!(keys.len(), optimal, "{v}");
    assert!(
        keys.iter()
            .all(|k| ["Left", "Right", "Up", "Down"].contains(k))
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(practice.read()["moves"], 0, "a dry run sent keys");
}

#[test]
fn the_abort_key_stops_the_replay() {
    let Some(display) = xvfb(24) else { return };
    if !have_xdotool() {
        return;
    }
    let practice = Practice::open(&display, 11, &[]);
    let optimal = practice.read()["optimal"].as_u64().unwrap();
    let child = play(
        &display,
        &practice.region(8.0),
        &["--once", "--delay-ms", "300"],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("start play");
    practice.wait_until(|r| r["moves"].as_u64().unwrap_or(0) >= 2, "the first moves");
    xdotool(&display, &["key", "Escape"]);
    // Stopped by the key (exit code 4), not killed after the wait.
    let out = wait_output(child, 10);
    assert_eq!(out.status.code(), Some(4), "{}", show(&out));
    std::thread::sleep(Duration::from_millis(800));
    let r = practice.read();
    assert_eq!(r["solved"], false, "{r}");
    assert!(r["moves"].as_u64().unwrap() < optimal, "{r}");
}
