//! B.i.t.Lock end to end on a real X server: the practice window at a
//! known place, `boardbot play --game bitlock` against it, judged from the
//! window's own session file (solved, with how many moves against the
//! known optimum). The checks are the live harness's (tests/common/live.rs).
#![cfg(feature = "live")]

mod common;

use common::live::{
    Display, Practice, abort_stops_practice, assert_arrow_keys, dropped_input_is_replanned,
    dry_run_practice, wins, xvfb,
};

/// The B.i.t.Lock practice window, on the level generated from `seed`.
fn open(display: &Display, seed: u64, extra: &[&str]) -> Practice {
    Practice::open(display, "bitlock", &["--seed", &seed.to_string()], extra)
}

#[test]
fn play_once_solves_a_generated_level_in_the_optimal_number_of_moves() {
    let Some(display) = xvfb(21) else { return };
    for seed in [5, 9] {
        let practice = open(&display, seed, &[]);
        wins(&display, &practice, 8.0);
        // The session is a record `trace` reads: every key was optimal.
        let record = practice.window.result.to_str().unwrap();
        let t = common::stdout_json(&common::boardbot(&["trace", "--json", "--record", record]));
        assert_eq!(
            (t["solved"].as_bool(), t["optimal_share"].as_f64()),
            (Some(true), Some(1.0)),
            "{t}"
        );
    }
}

#[test]
fn a_dropped_key_is_noticed_and_re_planned() {
    let Some(display) = xvfb(22) else { return };
    dropped_input_is_replanned(&display, &open(&display, 7, &["--drop-input", "3"]), 8.0);
}

#[test]
fn dry_run_plans_arrow_keys_after_a_focus_point_inside_the_region() {
    let Some(display) = xvfb(23) else { return };
    let practice = open(&display, 5, &[]);
    let v = dry_run_practice(&display, &practice, true, 20.0);
    assert_arrow_keys(&v, practice.optimal());
}

#[test]
fn the_abort_key_stops_the_replay() {
    let Some(display) = xvfb(24) else { return };
    abort_stops_practice(&display, &open(&display, 11, &[]), 300);
}
