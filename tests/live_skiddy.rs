//! Skiddy end to end on a real X server: open the practice window at a
//! known place, run `boardbot play --game skiddy` against it, and judge
//! the result from the window's own session file (won, in how many moves
//! against the known shortest, and whether every colour left in one move).
//!
//! Each test starts its own Xvfb display. When Xvfb is not installed the
//! tests say so and pass (CI installs it: see `.ci/deps`).
#![cfg(feature = "live")]

mod common;

use common::display::{
    Display, PracticeWindow, boardbot, have_xdotool, rect, show, wait_output, xdotool, xvfb,
};

use std::process::Stdio;
use std::time::Duration;

/// The Skiddy practice window, from `seed`, at a known place.
fn open(display: &Display, seed: u64, extra: &[&str]) -> PracticeWindow {
    let seed = seed.to_string();
    let mut args = vec![
        "practice",
        "--game",
        "skiddy",
        "--seed",
        &seed,
        "--position",
        "40,30",
    ];
    args.extend_from_slice(extra);
    PracticeWindow::open(display, &args)
}

fn play(display: &Display, region: &str, extra: &[&str]) -> std::process::Command {
    let mut args = vec!["play", "--game", "skiddy", "--region", region];
    args.extend_from_slice(extra);
    boardbot(display, &args)
}

#[test]
fn play_once_wins_seeded_levels_in_the_fewest_moves() {
    let Some(display) = xvfb(31) else { return };
    // Seed 11: a sticky pair and a crate; 12: sticky, two crates, a pit;
    // 9: not sticky, a crate, ice and a pit; 24: the solver's first
    // shortest solution takes the reds out apart, the plan a combo.
    for seed in [11, 12, 9, 24] {
        let practice = open(&display, seed, &[]);
        let start = practice.read()["start"].as_str().unwrap().to_string();
        let out = play(&display, &practice.region(8.0), &["--once"])
            .output()
            .expect("run play");
        assert_eq!(out.status.code(), Some(0), "seed {seed}: {}", show(&out));
        let r = practice.wait_until(|r| r["solved"] == true, "the level to be won");
        assert_eq!(r["moves"], r["optimal"], "fewest moves: {r}");
        assert_eq!(r["illegal"], 0, "{r}");
        assert!(r["combo"].is_boolean(), "{r}");
        assert!(
            String::from_utf8_lossy(&out.stdout).contains("now reads as solved"),
            "{}",
            show(&out)
        );
        if seed == 24 {
            assert_eq!(r["combo"], true, "a shortest combo was there: {r}");
        }
        if seed == 11 {
            assert!(
                start.contains("sticky: yes") && start.contains('c'),
                "{start}"
            );
        }
    }
}

#[test]
fn a_dropped_key_is_noticed_and_re_planned() {
    let Some(display) = xvfb(32) else { return };
    let practice = open(&display, 12, &["--drop-input", "2"]);
    let out = play(&display, &practice.region(8.0), &["--once"])
        .output()
        .expect("run play");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let r = practice.wait_until(|r| r["solved"] == true, "the level to be won");
    assert_eq!(r["dropped"], 1, "{r}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Re-planned"),
        "{}",
        show(&out)
    );
}

#[test]
fn dry_run_plans_a_focus_click_inside_the_region_then_arrow_keys() {
    let Some(display) = xvfb(33) else { return };
    let practice = open(&display, 12, &[]);
    let region = practice.region(20.0);
    let out = play(&display, &region, &["--once", "--dry-run", "--json"])
        .output()
        .expect("run play");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let v = common::stdout_json(&out);
    assert_eq!(v["state"], "playable", "{v}");
    let actions = v["actions"].as_array().expect("actions");
    let (rx, ry, rw, rh) = rect(&region);
    let mut keys = 0;
    for a in actions {
        match a["kind"].as_str() {
            Some("key") => {
                keys += 1;
                assert!(["Left", "Right", "Up", "Down"].contains(&a["key"].as_str().unwrap()));
            }
            Some("focus" | "click") => {
                let (x, y) = (a["x"].as_i64().unwrap(), a["y"].as_i64().unwrap());
                assert!(
                    x >= rx && y >= ry && x < rx + rw && y < ry + rh,
                    "{a} leaves {region}"
                );
            }
            _ => panic!("unexpected action {a}"),
        }
    }
    assert_eq!(
        keys as u64,
        practice.read()["optimal"].as_u64().unwrap(),
        "{v}"
    );
    assert_eq!(
        actions[0]["kind"], "focus",
        "the focus click comes first: {v}"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(practice.read()["moves"], 0, "a dry run sent keys");
}

#[test]
fn the_abort_key_stops_the_replay() {
    let Some(display) = xvfb(34) else { return };
    if !have_xdotool() {
        return;
    }
    let practice = open(&display, 12, &[]);
    let optimal = practice.read()["optimal"].as_u64().unwrap();
    let child = play(
        &display,
        &practice.region(8.0),
        &["--once", "--delay-ms", "400"],
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
