//! Inertia end to end on a real X server: sgt-puzzles' own sgt-inertia
//! runs on a private Xvfb display with fixed game IDs, `boardbot play
//! --game inertia` plays it by clicks, and the result is judged from the
//! screen: boardbot's reader sees no gem left, and sgt's status bar shows
//! the same "COMPLETED!" as a reference game completed on purpose (its ink
//! compared pixel by pixel; sgt's status bar is text boardbot does not
//! otherwise read). Also: the abort key stops the play, and a dry run sends
//! nothing and plans every click on the board, inside the selection.
//!
//! When Xvfb, xdotool or sgt-puzzles is missing the tests say so and skip,
//! except in CI (.ci/deps installs them).
#![cfg(feature = "live")]

mod common;

use std::process::Stdio;
use std::time::Duration;

use boardbot::calibration::Calibration;
use boardbot::game::Game;
use boardbot::game::OnScreen;
use boardbot::games::inertia::INERTIA;
use boardbot::report::{Report, Verdict};
use common::live::{self, Display, abort_stops_play, dry_run, show, xdotool};
use common::sgt::{Window, inertia_ids, setup_inertia};
use image::RgbImage;

/// A 10x8 game won by its first move: east, over the only gem.
fn one_move() -> String {
    format!("10x8:Sg{}", "b".repeat(78))
}

/// sgt-inertia on a fresh display showing fixture ID `n` at `at`, and the
/// board it reads as.
fn open_fixture(tag: u32, n: usize, at: (i32, i32)) -> Option<(Display, Window, Vec<String>)> {
    let (display, program) = setup_inertia(tag)?;
    let win = Window::open(&program, &display.name, &inertia_ids()[n], at);
    let start = read(&win).board.expect("a board").cells;
    Some((display, win, start))
}

fn read(win: &Window) -> Report {
    let cal = Calibration::embedded(INERTIA.looks()[0], "inertia").unwrap();
    INERTIA
        .solve_image(&win.grab(), &cal, &Default::default())
        .unwrap()
}

/// The status bar's ink: dark pixels in the window's bottom 36 rows.
fn status_ink(img: &RgbImage) -> Vec<bool> {
    let y0 = img.height().saturating_sub(36);
    (y0..img.height())
        .flat_map(|y| (0..img.width()).map(move |x| (x, y)))
        .map(|(x, y)| {
            img.get_pixel(x, y)
                .0
                .iter()
                .map(|&v| u32::from(v))
                .sum::<u32>()
                < 300
        })
        .collect()
}

fn same_ink(a: &[bool], b: &[bool]) -> bool {
    let ink = a.iter().filter(|&&p| p).count().max(1);
    let differ = a.iter().zip(b).filter(|(p, q)| p != q).count();
    a.len() == b.len() && differ * 50 < ink
}

/// sgt's status bar reading "COMPLETED!", from a game completed on purpose.
fn completed_status(display: &Display, program: &std::path::Path) -> Vec<bool> {
    let win = Window::open(program, &display.name, &one_move(), (50, 40));
    let start = status_ink(&win.grab());
    let r = read(&win);
    let Some(boardbot::input::Action::Click { x, y, .. }) = r.actions.unwrap().first().cloned()
    else {
        panic!("a first click")
    };
    let (wx, wy) = (win.rect.0 + x, win.rect.1 + y);
    xdotool(
        display,
        &["mousemove", &wx.to_string(), &wy.to_string(), "click", "1"],
    );
    std::thread::sleep(Duration::from_millis(1500));
    let done = status_ink(&win.grab());
    assert!(
        !same_ink(&start, &done),
        "the status bar did not change on a win"
    );
    assert_eq!(read(&win).state, Verdict::Solved);
    done
}

fn play(display: &Display, region: &str, extra: &[&str]) -> std::process::Command {
    live::play(display, Some("inertia"), region, extra)
}

#[test]
fn plays_sgt_inertia_to_completion() {
    let Some((display, program)) = setup_inertia(51) else {
        return;
    };
    let completed = completed_status(&display, &program);
    for (id, margin) in inertia_ids().iter().take(2).zip([12, 40]) {
        let win = Window::open(&program, &display.name, id, (50, 40));
        let before = status_ink(&win.grab());
        assert!(
            !same_ink(&before, &completed),
            "a new game reads as completed"
        );
        let out = play(&display, &win.region(margin), &["--once"])
            .output()
            .expect("run play");
        assert_eq!(out.status.code(), Some(0), "{}", show(&out));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(stdout.contains("now reads as solved"), "{}", show(&out));
        std::thread::sleep(Duration::from_millis(800));
        let r = read(&win);
        assert_eq!(
            r.state,
            Verdict::Solved,
            "no gem left, read from the screen: {}",
            r.reason
        );
        let cells = r.board.unwrap().cells.concat();
        assert!(!cells.contains('*'), "{cells}");
        assert!(
            same_ink(&status_ink(&win.grab()), &completed),
            "sgt's status bar does not say COMPLETED!"
        );
    }
}

#[test]
fn the_abort_key_stops_the_play() {
    let Some((display, win, start)) = open_fixture(52, 2, (50, 40)) else {
        return;
    };
    let child = play(&display, &win.region(10), &["--once", "--delay-ms", "400"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start play");
    abort_stops_play(&display, child, &start, || read(&win));
}

#[test]
fn a_dry_run_plans_clicks_on_the_board_inside_the_selection_and_sends_none() {
    let Some((display, win, start)) = open_fixture(53, 3, (70, 60)) else {
        return;
    };
    let id = &inertia_ids()[3];
    let v = dry_run(&display, Some("inertia"), &win.region(8), &[]);
    let optimal = INERTIA.solve_text(id, "id", &Default::default()).unwrap();
    let actions = v["actions"].as_array().expect("actions");
    assert_eq!(actions.len(), optimal.route.len());
    // The board itself: sgt's border is a cell wide all round.
    let (wx, wy, ww, wh) = win.rect;
    for a in actions {
        assert_eq!(a["kind"], "click", "{a}");
        let (x, y) = (a["x"].as_i64().unwrap(), a["y"].as_i64().unwrap());
        assert!(
            x > i64::from(wx)
                && y > i64::from(wy)
                && x < i64::from(wx) + i64::from(ww)
                && y < i64::from(wy) + i64::from(wh),
            "{a} off the window"
        );
    }
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        read(&win).board.unwrap().cells,
        start,
        "a dry run moved the ball"
    );
}
