//! GNOME Klotski end to end on a real X server: the game runs on a private
//! Xvfb display under its own D-Bus session with private settings
//! (tests/common/klotski.rs), and levels of different sizes are played by
//! drags to completion. Solved is judged by the game itself: its title
//! says "Level completed.", it marks the level solved, and the move count
//! it records with the score equals the plan's length under `--metric
//! pieces` (GNOME's counter is that metric).
//!
//! When Xvfb, xdotool, dbus-run-session or gnome-klotski is missing the
//! tests say so and skip, except in CI (.ci/deps installs them).
#![cfg(feature = "live")]

mod common;

use std::time::{Duration, Instant};

use boardbot::games::blocks::plan;
use boardbot::games::blocks::{Metric, Move};
use boardbot::games::klotski::{levels, screen};
use boardbot::input::replay::Input;
use boardbot::solve::{Budget, Progress};
use boardbot::vision::Lattice;
use common::display::{Display, xvfb};
use common::klotski::{self, Klotski};

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
            .replay(&actions, |kind| pacing.gap(kind), || false)
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
