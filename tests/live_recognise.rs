//! One bot for every board, live: `boardbot play` with no `--game` on the
//! practice window of every art game (a dry run: the game recognised, the
//! plan inside the selection, nothing sent), a real play with no game
//! named, and the real desktop games (sgt-inertia, sgt-fifteen out of the
//! box and with the user's calibration, GNOME Klotski) recognised from
//! their windows.
//! Everything is drawn or captured at test time.
#![cfg(feature = "live")]

mod common;

use std::path::Path;

use boardbot::games::fifteen::{level, read};
use common::display::config_dir;
use common::klotski::Klotski;
use common::live::{Display, Practice, dry_run, dry_run_practice, play, show, xvfb};
use common::sgt::{Fifteen, Window, fifteen_ids, inertia_ids, setup_inertia};

/// The practice window of art game `n` (of five), or `None` past the last.
fn window(display: &Display, n: usize) -> Option<Practice> {
    Some(match n {
        0 => Practice::open(display, "troyis", &["--size", "7", "--seed", "3"], &[]),
        1 => Practice::open(display, "bitlock", &["--seed", "5"], &[]),
        2 => Practice::open(display, "rush", &["--seed", "9", "--pitch", "44"], &[])
            .framed(|pitch| (pitch * 0.45).round() + 2.0),
        3 => Practice::open(display, "skiddy", &["--seed", "12"], &[]),
        4 => Practice::open(display, "continuity", &["--seed", "3"], &[]),
        _ => return None,
    })
}

#[test]
fn a_dry_run_with_no_game_named_plays_every_practice_window() {
    let Some(display) = xvfb(91) else { return };
    // One window at a time: each opens at the same place.
    for n in 0.. {
        let Some(practice) = window(&display, n) else {
            break;
        };
        let v = dry_run_practice(&display, &practice, false, 12.0);
        let candidates = v["candidates"].as_array().expect("candidates");
        assert_eq!(candidates.len(), 8, "every game looked: {v}");
        drop(practice);
    }
}

#[test]
fn a_play_with_no_game_named_wins_the_level() {
    let Some(display) = xvfb(92) else { return };
    let practice = Practice::open(&display, "bitlock", &["--seed", "9"], &[]);
    let out = play(&display, None, &practice.region(8.0), &["--once"])
        .output()
        .expect("run play");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let r = practice.wait_until(|r| r["solved"] == true, "the level to be won");
    assert_eq!(r["moves"], r["optimal"], "{r}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Recognised as bitlock"), "{}", show(&out));
}

/// `boardbot solve --json --image SHOT` with no game, as a user on
/// `display` would run it (with that user's calibrations): the game it
/// names.
fn recognised(display: &Display, shot: &image::RgbImage) -> serde_json::Value {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("shot.png");
    shot.save(&file).expect("saved");
    let out = common::display::boardbot(display, &["solve", "--json", "--image"])
        .arg(&file)
        .output()
        .expect("run solve");
    common::stdout_json(&out)
}

/// Makes `from`'s calibration files the user's own on `display`.
fn install_calibration(display: &Display, from: &Path) {
    let to = config_dir(display).join("calibration");
    std::fs::create_dir_all(&to).expect("config dir");
    for entry in std::fs::read_dir(from).expect("calibration dir") {
        let path = entry.expect("entry").path();
        let name = path.file_name().expect("a name");
        if path.extension().is_some_and(|e| e == "toml" || e == "png") {
            std::fs::copy(&path, to.join(name)).expect("copied");
        }
    }
}

#[test]
fn sgt_inertia_is_recognised_and_planned_with_no_game_named() {
    let Some((display, program)) = setup_inertia(93) else {
        return;
    };
    let win = Window::open(&program, &display.name, &inertia_ids()[1], (50, 40));
    let v = recognised(&display, &win.grab());
    assert_eq!(
        (&v["game"], &v["state"]),
        (&"inertia".into(), &"playable".into()),
        "{v}"
    );
    let v = dry_run(&display, None, &win.region(10), &[]);
    assert_eq!(v["game"], "inertia", "{v}");
}

/// sgt-fifteen showing each of two IDs is recognised and planned.
fn fifteen_is_recognised(s: &Fifteen, what: &str) {
    for id in [&fifteen_ids()[1], &fifteen_ids()[2]] {
        let win = s.open(id, (50, 40));
        let v = recognised(&s.display, &win.grab());
        assert_eq!(v["game"], "fifteen", "{what}, {id}: {v}");
        assert_eq!(v["state"], "playable", "{what}, {id}: {v}");
        let want = read::rows(&level::parse(id).expect("an ID"));
        assert_eq!(v["board"]["cells"], serde_json::json!(want), "{what}, {id}");
    }
}

#[test]
fn sgt_fifteen_is_recognised_out_of_the_box_and_with_the_users_calibration() {
    let Some(s) = Fifteen::setup(94) else { return };
    // No calibration (not even one a past run installed): the numbers are
    // drawn in the desktop's fonts.
    let _ = std::fs::remove_dir_all(config_dir(&s.display).join("calibration"));
    fifteen_is_recognised(&s, "no calibration");
    install_calibration(&s.display, s.cal_file.parent().expect("its directory"));
    fifteen_is_recognised(&s, "the user's calibration");
}

#[test]
fn gnome_klotski_is_recognised_with_no_game_named() {
    if !common::klotski::available() {
        return;
    }
    let Some(display) = xvfb(95) else { return };
    for level in [0, 6] {
        let k = Klotski::open(&display.name, level, None);
        let v = recognised(&display, &k.grab());
        assert_eq!(
            (&v["game"], &v["state"]),
            (&"klotski".into(), &"playable".into()),
            "{v}"
        );
    }
}
