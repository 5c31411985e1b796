//! Fifteen end to end on a real X server: sgt-puzzles' own sgt-fifteen
//! runs on a private Xvfb display with fixed game IDs (a 3x3 and a 4x4 of
//! tests/fixtures/fifteen/ids.txt), and `boardbot play --game fifteen`
//! plays it by clicks to completion: out of the box (the numbers drawn in
//! the desktop's fonts), and with what `boardbot calibrate` learnt from one
//! screenshot. The result is judged from the screen:
//! boardbot's reader sees the goal, and sgt's status bar starts with the
//! same "COMPLETED!" as a game completed on purpose (its ink compared
//! pixel by pixel: sgt's status bar is text boardbot does not otherwise
//! read). Also: the abort key stops the play, and a dry run plans every
//! click on the board, inside the selection, and sends none.
//!
//! When Xvfb, xdotool or sgt-puzzles is missing the tests say so and skip,
//! except in CI (.ci/deps installs them).
#![cfg(feature = "live")]

mod common;

use std::process::Stdio;
use std::time::{Duration, Instant};

use boardbot::engines::tiles::{Slide, Tiles};
use boardbot::game::Game;
use boardbot::games::fifteen::{FIFTEEN, level, read};
use boardbot::report::Verdict;
use common::display::{show, wait_output};
use common::live::{self, abort_stops_play, dry_run};
use common::sgt::{Fifteen, fifteen_ids};
use image::RgbImage;

/// `boardbot play --game fifteen` on `s`'s display, with its calibration.
fn play(s: &Fifteen, region: &str, extra: &[&str]) -> std::process::Command {
    let mut args = vec!["--calibration", s.cal_file.to_str().expect("utf-8")];
    args.extend_from_slice(extra);
    live::play(&s.display, Some("fifteen"), region, &args)
}

/// The status bar's ink: dark pixels in the window's bottom 36 rows, by
/// column then row, up to the end of its first word.
fn first_word_ink(img: &RgbImage) -> Vec<bool> {
    let y0 = img.height().saturating_sub(36);
    let dark = |x: u32, y: u32| {
        img.get_pixel(x, y)
            .0
            .iter()
            .map(|&v| u32::from(v))
            .sum::<u32>()
            < 300
    };
    let inked: Vec<bool> = (0..img.width())
        .map(|x| (y0..img.height()).any(|y| dark(x, y)))
        .collect();
    // The word ends at the first run of 4 blank columns after some ink.
    let start = inked.iter().position(|&i| i).unwrap_or(0);
    let end = (start..img.width() as usize)
        .find(|&x| (x..x + 4).all(|k| !inked.get(k).copied().unwrap_or(false)))
        .unwrap_or(img.width() as usize);
    (0..end as u32)
        .flat_map(|x| (y0..img.height()).map(move |y| (x, y)))
        .map(|(x, y)| dark(x, y))
        .collect()
}

fn same_ink(a: &[bool], b: &[bool]) -> bool {
    let ink = a.iter().filter(|&&p| p).count().max(1);
    let differ = a.iter().zip(b).filter(|(p, q)| p != q).count();
    a.len() == b.len() && differ * 50 < ink
}

/// sgt's status bar's first word once a game is completed ("COMPLETED!"),
/// from a 3x3 game one click from solved.
fn completed_word(s: &Fifteen) -> Vec<bool> {
    let win = s.open("3x3:1,2,3,4,5,6,7,0,8", (50, 40));
    let before = first_word_ink(&win.grab());
    let r = s.read(&win);
    let Some(boardbot::input::Action::Click { x, y, .. }) = r.actions.unwrap().first().cloned()
    else {
        panic!("a first click")
    };
    win.click(x, y);
    std::thread::sleep(Duration::from_millis(800));
    let done = first_word_ink(&win.grab());
    assert!(
        !same_ink(&before, &done),
        "the status bar did not change on a win"
    );
    let r = s.read(&win);
    assert_eq!(r.state, Verdict::Solved, "{:?}", r.board.map(|b| b.cells));
    done
}

fn goal_of(id: &str) -> Vec<String> {
    let t: Tiles = level::parse(id).expect("an ID");
    read::rows(&Tiles::solved(t.width(), t.height()).unwrap())
}

#[test]
fn plays_sgt_fifteen_3x3_and_4x4_to_completion() {
    let Some(s) = Fifteen::setup(71) else {
        return;
    };
    let completed = completed_word(&s);
    let ids = fifteen_ids();
    // Out of the box (numbers drawn in the desktop's fonts), and with the
    // calibration learnt from a screenshot.
    for (id, margin, calibrated) in [
        (&ids[1], 12, false),
        (&ids[2], 40, false),
        (&ids[2], 20, true),
    ] {
        let win = s.open(id, (50, 40));
        assert!(
            !same_ink(&first_word_ink(&win.grab()), &completed),
            "a new game reads as completed"
        );
        let t = Instant::now();
        let flags = ["--once", "--json"];
        let mut cmd = if calibrated {
            play(&s, &win.region(margin), &flags)
        } else {
            live::play(&s.display, Some("fifteen"), &win.region(margin), &flags)
        };
        let out = cmd.output().expect("run play");
        let took = t.elapsed();
        assert_eq!(out.status.code(), Some(0), "{}", show(&out));
        let v = common::stdout_json(&out);
        assert_eq!(v["outcome"]["after"], "solved", "{v}");
        let optimal = FIFTEEN.solve_text(id, "id", &Default::default()).unwrap();
        assert_eq!(v["plan"], optimal.plan.unwrap(), "the optimal plan");
        println!(
            "{id} (calibrated: {calibrated}): {} slides, plan+play {:.2} s in all, vision {} ms, solve {} ms, {} re-plan(s)",
            v["plan"]["length"],
            took.as_secs_f64(),
            v["timing_ms"]["vision"],
            v["timing_ms"]["solve"],
            v["outcome"]["replans"]
        );
        std::thread::sleep(Duration::from_millis(500));
        let r = s.read(&win);
        assert_eq!(
            r.state,
            Verdict::Solved,
            "read from the screen: {}",
            r.reason
        );
        assert_eq!(r.board.unwrap().cells, goal_of(id));
        assert!(
            same_ink(&first_word_ink(&win.grab()), &completed),
            "sgt's status bar does not say COMPLETED!"
        );
    }
}

#[test]
fn the_abort_key_stops_the_play() {
    let Some(s) = Fifteen::setup(72) else {
        return;
    };
    let win = s.open(&fifteen_ids()[2], (50, 40));
    let start = s.read(&win).board.expect("a board").cells;
    let child = play(&s, &win.region(10), &["--once", "--delay-ms", "400"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start play");
    abort_stops_play(&s.display, child, &start, || s.read(&win));
}

#[test]
fn a_dry_run_plans_clicks_on_the_board_inside_the_selection_and_sends_none() {
    let Some(s) = Fifteen::setup(73) else {
        return;
    };
    let id = &fifteen_ids()[3];
    let win = s.open(id, (70, 60));
    let start = s.read(&win).board.expect("a board").cells;
    let cal = s.cal_file.to_str().expect("utf-8");
    let v = dry_run(
        &s.display,
        Some("fifteen"),
        &win.region(8),
        &["--calibration", cal],
    );
    let optimal = FIFTEEN.solve_text(id, "id", &Default::default()).unwrap();
    let actions = v["actions"].as_array().expect("actions");
    assert_eq!(
        Some(actions.len() as u64),
        optimal.plan.unwrap()["length"].as_u64()
    );
    let b = s.read(&win).seen.grid.unwrap().lattice.bounds();
    let (wx, wy) = (f64::from(win.rect.0), f64::from(win.rect.1));
    for a in actions {
        assert_eq!(a["kind"], "click", "{a}");
        let (x, y) = (a["x"].as_i64().unwrap(), a["y"].as_i64().unwrap());
        assert!(
            b.contains(x as f64 - wx, y as f64 - wy),
            "{a} off the board"
        );
    }
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        s.read(&win).board.unwrap().cells,
        start,
        "a dry run moved a tile"
    );
}

#[test]
fn a_board_moved_under_the_player_is_planned_again() {
    let Some(s) = Fifteen::setup(74) else {
        return;
    };
    let id = &fifteen_ids()[2];
    let win = s.open(id, (50, 40));
    let start = s.read(&win).board.expect("a board").cells;
    let child = play(
        &s,
        &win.region(10),
        &["--once", "--json", "--delay-ms", "500"],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("start play");
    // Once play has moved a tile, and the board is still, someone else
    // slides a tile across the plan's next slide (a tile in line with it
    // would be slid back by the player's next click: sgt slides every tile
    // between the gap and the click).
    let t = Instant::now();
    let r = loop {
        let r = s.read(&win);
        let moved = r.board.as_ref().is_some_and(|b| b.cells != start);
        if moved && r.state == Verdict::Playable {
            break r;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "play never moved a tile"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let board = r.board.as_ref().expect("a board");
    let t: Tiles = level::parse(&board.cells.join("\n")).expect("the board read");
    let text = FIFTEEN.solve_text(id, "id", &Default::default()).unwrap();
    let moves: Vec<Slide> = text.plan.unwrap()["moves"]
        .as_str()
        .unwrap()
        .chars()
        .filter_map(Slide::from_letter)
        .collect();
    let mut on_plan = level::parse(id).unwrap();
    let mut next = None;
    for &m in &moves {
        if on_plan == t {
            next = Some(m);
            break;
        }
        on_plan = on_plan.slide(m).unwrap();
    }
    let from = Slide::ALL
        .into_iter()
        .filter(|&d| next.is_none_or(|n| d != n && d != n.reverse()))
        .find_map(|d| t.source(d))
        .expect("a tile to slide");
    let l = r.seen.grid.as_ref().unwrap().lattice.clone();
    let (x, y) = l.cell(from / t.width(), from % t.width()).centre();
    win.click(x as i32, y as i32);
    let out = wait_output(child, 60);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let v = common::stdout_json(&out);
    assert_eq!(v["outcome"]["after"], "solved", "{v}");
    assert!(
        v["outcome"]["replans"].as_u64() >= Some(1),
        "no re-plan: {v}"
    );
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(s.read(&win).board.unwrap().cells, goal_of(id));
}
