//! Skiddy end to end on a real X server: the practice window at a known
//! place, `boardbot play --game skiddy` against it, judged from the
//! window's own session file (won, in how many moves against the known
//! shortest, and whether every colour left in one move). The checks are
//! the live harness's (tests/common/live.rs).
#![cfg(feature = "live")]

mod common;

use common::live::{
    Display, Practice, abort_stops_practice, assert_arrow_keys, dropped_input_is_replanned,
    dry_run_practice, wins, xvfb,
};

/// The Skiddy practice window, on the level seeded by `seed`.
fn open(display: &Display, seed: u64, extra: &[&str]) -> Practice {
    Practice::open(display, "skiddy", &["--seed", &seed.to_string()], extra)
}

#[test]
fn play_once_wins_seeded_levels_in_the_fewest_moves() {
    let Some(display) = xvfb(31) else { return };
    // Seed 11: a sticky pair and a crate; 12: sticky, two crates, a pit;
    // 9: not sticky, a crate, ice and a pit; 24: the solver's first
    // shortest solution takes the reds out apart, the plan a combo.
    for seed in [11, 12, 9, 24] {
        let practice = open(&display, seed, &[]);
        let start = practice.session()["start"].as_str().unwrap().to_string();
        let r = wins(&display, &practice, 8.0);
        assert!(r["combo"].is_boolean(), "{r}");
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
    dropped_input_is_replanned(&display, &open(&display, 12, &["--drop-input", "2"]), 8.0);
}

#[test]
fn dry_run_plans_a_focus_click_inside_the_region_then_arrow_keys() {
    let Some(display) = xvfb(33) else { return };
    let practice = open(&display, 12, &[]);
    let v = dry_run_practice(&display, &practice, true, 20.0);
    assert_arrow_keys(&v, practice.optimal());
}

#[test]
fn the_abort_key_stops_the_replay() {
    let Some(display) = xvfb(34) else { return };
    abort_stops_practice(&display, &open(&display, 12, &[]), 400);
}
