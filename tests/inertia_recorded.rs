//! Inertia's reader on screenshots of sgt-puzzles' own window, taken at
//! test time (sgt's art is not ours to commit): sgt-inertia runs on a
//! private Xvfb display with game IDs from tests/fixtures/inertia/ids.txt,
//! and each test grabs its window.
//!
//! Checked: the read is exactly the ID's board, at sgt's size and scaled
//! (0.6× to 2×) with margins of another colour; every click lies on the
//! board; `boardbot calibrate` learns a calibration from one screenshot
//! that reads the others; a cut selection, a board caught mid-slide, and a
//! dead ball are never read as a board to play.
//! When Xvfb, xdotool or sgt-puzzles is missing the tests say so and skip,
//! except in CI.
#![cfg(feature = "live")]

mod common;

use boardbot::game::Game;
use boardbot::games::inertia::level::Level;
use boardbot::games::inertia::{Board, INERTIA};
use boardbot::input::Action;
use boardbot::report::{Report, Verdict};
use common::recorded::{Reader, calibrate, crop, variant};
use common::sgt::{Window, inertia_ids, setup_inertia};

fn builtin() -> Reader {
    Reader::builtin("inertia")
}

/// The board rows an ID's start shows, as the reader writes them.
fn rows_of(id: &str) -> Vec<String> {
    Level::parse(id)
        .unwrap()
        .to_string()
        .lines()
        .map(String::from)
        .collect()
}

/// The read is the ID's board, the plan optimal, every click on a cell
/// next to the ball's cell of the moment, inside the board.
fn check_read(report: &Report, id: &str, what: &str) {
    assert_eq!(report.state, Verdict::Playable, "{what}: {}", report.reason);
    let board = report.board.as_ref().expect("a board");
    assert_eq!(board.cells, rows_of(id), "{what}");
    let b = Board::new(id).unwrap();
    let text = INERTIA.solve_text(id, "id", &Default::default()).unwrap();
    assert_eq!(
        report.plan, text.plan,
        "{what}: the same optimal plan as from the ID"
    );
    let grid = report.seen.grid.as_ref().expect("the lattice");
    let bounds = grid.lattice.bounds();
    let actions = report.actions.as_ref().expect("clicks");
    assert_eq!(actions.len(), text.route.len(), "{what}");
    let mut s = b.rules.start;
    for (a, m) in actions.iter().zip(&text.route) {
        let Action::Click {
            x,
            y,
            cell: Some([r, c]),
        } = *a
        else {
            panic!("{what}: {a:?} is not a click on a cell")
        };
        assert!(
            bounds.contains(f64::from(x), f64::from(y)),
            "{what}: {a:?} off the board"
        );
        let ball = boardbot::games::inertia::rules::cell_of(s);
        let (w, _) = (b.rules.level.width, 0);
        assert!(
            (r as i64 - (ball / w) as i64).abs() <= 1 && (c as i64 - (ball % w) as i64).abs() <= 1
        );
        let d = boardbot::games::inertia::Dir::parse(m).unwrap();
        s = b.rules.play(s, d).expect("legal");
    }
}

#[test]
fn reads_sgts_window_at_any_scale_with_margins() {
    let Some((display, program)) = setup_inertia(41) else {
        return;
    };
    let reader = builtin();
    for id in inertia_ids().iter().take(3) {
        let win = Window::open(&program, &display.name, id, (60, 50));
        let shot = win.grab();
        check_read(&reader.solve(&shot), id, "sgt's window");
        for (s, pad) in [(0.6, 9), (0.75, 20), (1.5, 30), (2.0, 5)] {
            let what = format!("scaled {s}, margin {pad}");
            check_read(
                &reader.solve(&variant(&shot, s, pad, [40, 44, 52])),
                id,
                &what,
            );
        }
    }
}

#[test]
fn calibrate_learns_sgts_look_from_one_screenshot() {
    let Some((display, program)) = setup_inertia(42) else {
        return;
    };
    let all = inertia_ids();
    let dir = tempfile::tempdir().unwrap();
    let first = Window::open(&program, &display.name, &all[0], (30, 40));
    let shot = dir.path().join("shot.png");
    first.grab().save(&shot).unwrap();
    drop(first);
    let file = calibrate("inertia", &shot, &["--board", &all[0]], dir.path());
    let learned = Reader::learnt("inertia", &file);
    for id in &all[1..3] {
        let win = Window::open(&program, &display.name, id, (30, 40));
        check_read(&learned.solve(&win.grab()), id, "learned calibration");
    }
}

#[test]
fn cut_moving_and_dead_boards_are_refused() {
    let Some((display, program)) = setup_inertia(43) else {
        return;
    };
    let reader = builtin();
    let id = &inertia_ids()[0];
    let win = Window::open(&program, &display.name, id, (40, 40));
    let shot = win.grab();
    let r = reader.solve(&shot);
    let grid = r.seen.grid.as_ref().unwrap();
    // A selection through the board's third column and last row.
    let (x0, y1) = (grid.lattice.xs[2] + 3.0, grid.lattice.ys[7] - 5.0);
    let cut = crop(&shot, (x0, 0.0, f64::from(shot.width()), y1));
    let r = reader.solve(&cut);
    assert_ne!(r.state, Verdict::Playable, "a cut board was played");
    assert!(r.actions.is_none_or(|a| a.is_empty()));
    // Mid-slide: grab while the first move animates; the read is refused,
    // or it is the board before or after the move, never another.
    let text = INERTIA.solve_text(id, "id", &Default::default()).unwrap();
    let Some(Action::Click { x, y, .. }) = reader.solve(&shot).actions.unwrap().first().cloned()
    else {
        panic!("a first click")
    };
    let b = Board::new(id).unwrap();
    let d = boardbot::games::inertia::Dir::parse(&text.route[0]).unwrap();
    let after =
        <Board as boardbot::solve::Puzzle>::rows(&b, &b.rules.play(b.rules.start, d).unwrap());
    let (wx, wy) = (win.rect.0 + x, win.rect.1 + y);
    common::display::xdotool(
        &display,
        &["mousemove", &wx.to_string(), &wy.to_string(), "click", "1"],
    );
    let mut states = Vec::new();
    for _ in 0..8 {
        let r = reader.solve(&win.grab());
        if r.state == Verdict::Playable || r.state == Verdict::Solved {
            let cells = &r.board.as_ref().unwrap().cells;
            assert!(
                *cells == rows_of(id) || *cells == after,
                "mid-slide read {cells:?}"
            );
        }
        states.push(r.state.name());
    }
    println!("reads during and after the first slide: {states:?}");
    drop(win);
    // A dead ball: the first move from the start that crosses a mine.
    let dying = (0..8)
        .filter_map(boardbot::games::inertia::Dir::from_sgt_index)
        .find(|&d| {
            matches!(
                b.rules.outcome(b.rules.level.ball, d),
                boardbot::games::inertia::rules::Outcome::Dies
            )
        });
    let Some(d) = dying else { return };
    let win = Window::open(&program, &display.name, id, (40, 40));
    let action = boardbot::games::inertia::screen::click(&b, &grid.lattice, b.rules.start, d);
    let Action::Click { x, y, .. } = action else {
        panic!()
    };
    let (wx, wy) = (win.rect.0 + x, win.rect.1 + y);
    common::display::xdotool(
        &display,
        &["mousemove", &wx.to_string(), &wy.to_string(), "click", "1"],
    );
    std::thread::sleep(std::time::Duration::from_millis(1200));
    let r = reader.solve(&win.grab());
    assert_eq!(r.state, Verdict::Uncertain, "a dead ball: {}", r.reason);
}
