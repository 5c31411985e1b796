//! GNOME Klotski end to end on a real X server: the game runs on a private
//! Xvfb display under its own D-Bus session with private settings
//! (tests/common/klotski.rs), and levels of different sizes are played by
//! drags to completion. Solved is judged by the game itself: its title
//! says "Level completed.", it marks the level solved, and the move count
//! it records with the score equals the plan's length under `--metric
//! pieces` (GNOME's counter is that metric); boardbot's own read, once the
//! Congratulations dialog is moved away, says solved too. Also: the abort
//! key stops the drags, a dry run plans every drag point on the board and
//! inside the selection and sends nothing, and a piece left held by a
//! click is let go before play.
//!
//! When Xvfb, xdotool, dbus-run-session or gnome-klotski is missing the
//! tests say so and skip, except in CI (.ci/deps installs them).
#![cfg(feature = "live")]

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use boardbot::engines::blocks::plan;
use boardbot::engines::blocks::{Metric, Move};
use boardbot::games::klotski::{levels, plans, screen};
use boardbot::input::replay::Input;
use boardbot::report::{Report, Verdict};
use boardbot::solve::{Budget, Progress};
use boardbot::vision::Lattice;
use common::display::{Display, show, wait_output, xvfb};
use common::klotski::{self, Klotski};
use common::live::{self, abort_stops_play, action_points, dry_run};

/// Levels of three sizes with short plans: (index, window size).
const LEVELS: [usize; 3] = [0, 10, 9];

fn setup(tag: u32) -> Option<Display> {
    if !klotski::available() {
        return None;
    }
    xvfb(tag)
}

/// The optimal plan of level `index` from its start, GNOME's metric.
fn optimal(index: usize) -> Vec<Move> {
    let layout = levels::all()[index].layout();
    plan(
        &layout,
        Metric::Pieces,
        &Budget::default(),
        &mut Progress::quiet(),
    )
    .expect("a plan")
    .plan
    .expect("a solution")
    .moves
}

/// The board's cells on the screen, from the launcher's frame.
fn lattice(k: &Klotski) -> Lattice {
    let l = levels::all()[k.level].layout();
    let (x, y, pitch) = k.cells(l.width, l.height);
    Lattice::uniform(x, y, pitch, pitch, l.height, l.width)
}

#[test]
fn the_launcher_opens_the_level_asked_for_in_a_window_of_the_size_asked_for() {
    let Some(d) = setup(81) else {
        return;
    };
    let small = Klotski::open(&d.name, 0, None);
    assert_eq!(small.title(), "Only 18 Steps");
    // 6x9 cells of 48 px in the default window (research: 600x500).
    assert_eq!((small.frame.2, small.frame.3), (6 * 48 + 4, 9 * 48 + 4));
    assert_eq!(small.cells(6, 9).2, 48.0);
    assert!(!small.solved() && small.dialog().is_none() && small.score().is_none());
    drop(small);
    let big = Klotski::open(&d.name, 27, Some((1200, 960)));
    assert_eq!(big.title(), "Sunshine");
    assert!(
        big.rect.2 >= 1200,
        "window-width was not taken: {:?}",
        big.rect
    );
    let (_, _, pitch) = big.cells(17, 22);
    assert!(
        pitch >= 40.0,
        "Sunshine's cells are {pitch} px in a 1200x960 window"
    );
}

#[test]
fn the_planners_moves_as_drags_solve_levels_of_three_sizes_in_as_many_moves() {
    let Some(d) = setup(82) else {
        return;
    };
    let pacing = screen::pacing();
    for index in LEVELS {
        let k = Klotski::open(&d.name, index, None);
        let moves = optimal(index);
        let actions = screen::actions(&moves, &lattice(&k));
        let mut input = Input::on_display(&d.name).expect("input");
        let t = Instant::now();
        input
            .replay(&actions, |kind| pacing.gap(kind), || false, |_| None)
            .expect("replay");
        println!(
            "level {index} ({}): {} moves played in {:.2} s",
            levels::all()[index].name,
            moves.len(),
            t.elapsed().as_secs_f64()
        );
        assert!(k.wait_solved(5), "level {index} not solved: {}", k.title());
        assert!(k.marked_solved());
        assert_eq!(
            k.save_score(),
            Some(moves.len() as u32),
            "GNOME's move counter for level {index}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// `boardbot play --game klotski` on `k`'s board, selected with `margin`
/// pixels around its frame.
fn play(d: &Display, k: &Klotski, margin: i32, extra: &[&str]) -> Command {
    let mut c = live::play(d, Some("klotski"), &k.region(margin), extra);
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

/// What boardbot reads in `k`'s window now, with the bundled calibration.
fn read(k: &Klotski) -> Report {
    let g = boardbot::games::find("klotski")
        .and_then(|g| g.screen())
        .expect("the klotski game reads screenshots");
    let cal = g.load_calibration(None).expect("the bundled calibration");
    g.solve_image(&k.grab(), &cal, &Default::default())
        .expect("a report")
}

fn cells(r: &Report) -> Option<Vec<String>> {
    r.board.as_ref().map(|b| b.cells.clone())
}

#[test]
fn boardbot_plays_levels_of_three_sizes_to_completion_in_the_optimal_count() {
    let Some(d) = setup(83) else {
        return;
    };
    for (index, margin) in LEVELS.into_iter().zip([12, 40, 25]) {
        let k = Klotski::open(&d.name, index, None);
        let name = levels::all()[index].name;
        assert_eq!(read(&k).state, Verdict::Playable, "level {index} at start");
        let t = Instant::now();
        let child = play(&d, &k, margin, &["--once", "--json"])
            .spawn()
            .expect("run play");
        let out = wait_output(child, 180);
        let took = t.elapsed();
        assert_eq!(out.status.code(), Some(0), "level {index}: {}", show(&out));
        let v = common::stdout_json(&out);
        assert_eq!(v["outcome"]["kind"], "played", "{v}");
        let moves = optimal(index).len();
        println!(
            "level {index} {name}: {moves} moves, play {:.2} s in all, first drag after {} ms \
             (vision {} ms, solve {} ms), {} re-plan(s), last look: {}",
            took.as_secs_f64(),
            v["play_timings_ms"]["to_first_input"],
            v["timing_ms"]["vision"],
            v["timing_ms"]["solve"],
            v["outcome"]["replans"],
            v["outcome"]["after"]
        );
        // Solved, as the game says it, and as boardbot reads the board once
        // the dialog is out of the way.
        assert!(k.wait_solved(5), "level {index}: title {}", k.title());
        assert!(k.marked_solved());
        assert!(k.move_dialog_away(), "no Congratulations dialog");
        let after = read(&k);
        assert_eq!(after.state, Verdict::Solved, "read after: {}", after.reason);
        // GNOME's own move counter: the optimal plan's length.
        assert_eq!(k.save_score(), Some(moves as u32), "level {index}");
    }
}

#[test]
fn the_abort_key_stops_the_drags() {
    let Some(d) = setup(84) else {
        return;
    };
    // Red Donkey: 81 moves, long enough to stop in the middle.
    let k = Klotski::open(&d.name, 6, None);
    let start = cells(&read(&k)).expect("a board");
    let child = play(&d, &k, 15, &["--once", "--delay-ms", "300"])
        .spawn()
        .expect("start play");
    abort_stops_play(&d, child, &start, || read(&k));
    assert!(!k.solved() && k.dialog().is_none());
}

#[test]
fn a_dry_run_plans_drags_on_the_board_inside_the_selection_and_sends_none() {
    let Some(d) = setup(85) else {
        return;
    };
    let k = Klotski::open(&d.name, 10, None);
    let before = read(&k);
    let v = dry_run(&d, Some("klotski"), &k.region(20), &[]);
    let actions = v["actions"].as_array().expect("actions");
    assert_eq!(actions.len(), optimal(10).len(), "one drag per move");
    let (fx, fy, fw, fh) = k.frame;
    for a in actions {
        assert_eq!(a["kind"], "drag_path", "{a}");
        for (x, y) in action_points(a) {
            let inside = x > i64::from(fx) && y > i64::from(fy);
            assert!(
                inside && x < i64::from(fx) + i64::from(fw) && y < i64::from(fy) + i64::from(fh),
                "{a} is off the board"
            );
        }
    }
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(cells(&read(&k)), cells(&before), "a dry run moved a piece");
    assert_eq!(k.title(), "Success");
}

#[test]
fn a_held_piece_is_let_go_and_the_level_played() {
    let Some(d) = setup(86) else {
        return;
    };
    let k = Klotski::open(&d.name, 0, None);
    // A click that moves nothing leaves GNOME's piece held (k, row 5 col 1).
    let (x, y) = k.centre(6, 9, 5, 1);
    common::display::xdotool(
        &d,
        &["mousemove", &x.to_string(), &y.to_string(), "click", "1"],
    );
    std::thread::sleep(Duration::from_millis(300));
    let held = read(&k);
    assert_eq!(held.state, Verdict::Uncertain, "{}", held.reason);
    let out = wait_output(
        play(&d, &k, 15, &["--once", "--json"])
            .spawn()
            .expect("run play"),
        180,
    );
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert!(k.wait_solved(5), "title {}", k.title());
    assert!(k.move_dialog_away());
    assert_eq!(k.save_score(), Some(optimal(0).len() as u32));
}

#[test]
fn shark_transeuropa_lodzianka_and_american_pie_are_played_to_completion_within_2_s() {
    let Some(d) = setup(87) else {
        return;
    };
    for index in [16, 21, 22, 25] {
        let level = &levels::all()[index];
        let shipped = plans::book()
            .entries
            .iter()
            .find(|e| e.metric == Metric::Pieces && e.start == level.layout())
            .unwrap_or_else(|| panic!("level {index}: no shipped plan"));
        let k = Klotski::open(&d.name, index, None);
        assert_eq!(read(&k).state, Verdict::Playable, "level {index} at start");
        let child = play(&d, &k, 20, &["--once", "--json"])
            .spawn()
            .expect("run play");
        let out = wait_output(child, 300);
        assert_eq!(out.status.code(), Some(0), "level {index}: {}", show(&out));
        let v = common::stdout_json(&out);
        assert_eq!(v["outcome"]["kind"], "played", "{v}");
        println!(
            "level {index} {}: {} moves, first drag after {} ms (solve {} ms)",
            level.name,
            shipped.moves.len(),
            v["play_timings_ms"]["to_first_input"],
            v["timing_ms"]["solve"],
        );
        let first = v["play_timings_ms"]["to_first_input"].as_f64();
        assert!(
            first.is_some_and(|ms| ms < 2000.0),
            "level {index}: first drag {first:?} ms"
        );
        assert!(k.wait_solved(5), "level {index}: title {}", k.title());
        assert_eq!(
            k.save_score(),
            Some(shipped.moves.len() as u32),
            "GNOME's move counter for level {index}"
        );
    }
}
