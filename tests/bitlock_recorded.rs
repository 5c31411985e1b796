//! The project's own recorded B.i.t.Lock screenshots under
//! `tests/fixtures/bitlock`, drawn by `boardbot render` (see `make.sh`
//! there), each with the reading it must give; rescaled (0.6× to 2×),
//! padded and cut copies made here; mid-animation frames, which must be
//! refused or read as the state they really show; and a solved board.

mod common;

use boardbot::game::Game;
use boardbot::games::bitlock::art::{self, Scene};
use boardbot::games::bitlock::level::Level;
use boardbot::games::bitlock::motion::Pieces;
use boardbot::games::bitlock::rules::{Dir, Key, Rules};
use boardbot::games::bitlock::solver::Solver;
use boardbot::games::bitlock::{BitLock, screen};
use boardbot::input::Action;
use boardbot::report::Report;
use boardbot::tools::options::Win;
use common::fixtures;
use common::recorded::{
    Reader, Suite, assert_exact_or_refused, calibrate, cases, desktops, solve_cli,
};
use serde_json::Value;

const DIR: &str = "bitlock";

fn suite() -> Suite {
    Suite {
        reader: Reader::builtin("bitlock"),
        // The reader's floor: cells of about 24 pixels (0.6 × 40).
        cells: 23.0..=100.0,
        tolerance: |t| (0.05 * t.pitch()).max(1.5),
        plan: check_plan,
    }
}

/// Checks a playable read's keys: replayed by the engine, they solve the
/// level as the checkpoints predict.
fn check_plan(name: &str, _want: &Value, r: &Report) {
    let board = r.board.as_ref().unwrap();
    let level = Level::parse(&board.cells.join("\n")).unwrap();
    let rules = Rules::new(level).unwrap();
    let mut key: Key<32> = rules.start().unwrap();
    let actions = r.actions.as_ref().unwrap();
    for (i, a) in actions.iter().enumerate() {
        let Action::Key { key: k, .. } = a else {
            panic!("{name}: not a key: {a:?}")
        };
        let d = Dir::ALL
            .into_iter()
            .find(|&d| screen::key_of(d) == *k)
            .unwrap();
        key = rules.play(&key, d);
        if let Some(cp) = r.checkpoints.iter().find(|c| c.after == i + 1) {
            assert_eq!(
                cp.rows,
                rules.render_rows(&key),
                "{name}: checkpoint {}",
                i + 1
            );
        }
    }
    assert!(
        Solver::new(&rules, Win::Cover).is_goal(&key),
        "{name}: the keys do not solve it"
    );
    let last = r
        .checkpoints
        .last()
        .expect("a checkpoint after the last key");
    assert_eq!(last.after, actions.len());
    assert!(r.checkpoints.len() >= actions.len() / screen::CHECK_EVERY);
}

#[test]
fn every_recorded_screenshot_reads_as_expected() {
    suite().every_case(&cases(DIR, 8));
}

#[test]
fn rescaled_copies_read_the_same() {
    suite().rescaled(&cases(DIR, 8), &[0.6, 1.5, 2.0]);
}

#[test]
fn padded_copies_read_the_same() {
    suite().padded(&cases(DIR, 8), &desktops(art::PAGE));
}

#[test]
fn a_board_cut_by_the_selection_is_refused() {
    suite().cuts_refused(&cases(DIR, 8));
}

/// Cuts just past a grid line leave a smaller board that looks whole.
#[test]
fn no_cut_near_a_grid_line_is_misread() {
    suite().no_cut_misread(&cases(DIR, 8), 3.0);
}

#[test]
fn a_solved_board_reads_as_solved() {
    // Tiles stand on their targets: the text format cannot hold that, so
    // the picture is drawn from the level after its solution.
    let text = "##########\n#a   A   #\n#  #     #\n#  z  +  #\n#     *  #\n#b   B   #\n#   #  c #\n#  C     #\n#        #\n##########";
    let level = Level::parse(text).unwrap();
    let rules = Rules::new(level.clone()).unwrap();
    let moves = screen::optimal(&rules, Win::Cover, 1_000_000).unwrap().0;
    let mut pieces = Pieces::new(&level);
    let mut key: Key<32> = rules.start().unwrap();
    for c in moves.chars() {
        let d = Dir::from_char(c).unwrap();
        pieces = pieces.play(d).unwrap().1;
        key = rules.play(&key, d);
    }
    let sprites = pieces.sprites(None);
    let scene = Scene {
        level: &level,
        sprites: &sprites,
    };
    let img = art::picture(&scene, 36.0, [6.0, 40.0, 6.0, 6.0], Some(moves.len()));
    let r = suite().solve(&img);
    assert_eq!(r.state.name(), "solved", "{}", r.reason);
    assert_eq!(r.board.unwrap().cells, rules.render_rows(&key));
    assert!(r.actions.unwrap().is_empty());
}

#[test]
fn every_moving_frame_is_refused_or_read_as_what_it_shows() {
    let text = "##########\n#a   A   #\n#  #     #\n#  z  +  #\n#     *  #\n#b   B   #\n#   #  c #\n#  C     #\n#        #\n##########";
    let rules = Rules::new(Level::parse(text).unwrap()).unwrap();
    let start: Key<32> = rules.start().unwrap();
    let s = suite();
    for d in Dir::ALL {
        let before = rules.render_rows(&start);
        let after = rules.render_rows(&rules.play(&start, d));
        for k in 1..20 {
            let f = f64::from(k) / 20.0;
            let opts = boardbot::art::render::RenderOptions {
                pitch: 40.0,
                margins: [8.0, 40.0, 8.0, 8.0],
                seed: 1,
                moving: Some((d.to_string(), f)),
                verdict: true,
            };
            let img = BitLock.render(text, "test", &opts).unwrap().image;
            let r = s.solve(&img);
            assert_exact_or_refused(&r, &[before.clone(), after.clone()], &format!("{d}@{f}"));
        }
    }
}

#[test]
fn calibrate_learns_the_look_from_one_screenshot() {
    // The generic learner reads each cell's middle: the position is written
    // as the colour there (`.` floor and bare targets, `#`, `+`, `*`, and a
    // tile's type letter for a tile, normal or reverse).
    let dir = tempfile::tempdir().unwrap();
    let img = fixtures(DIR).join("l10_p40.png");
    let board = "##########/#A.......#/#..#.....#/#..A..+..#/#.....*..#/#B.......#/#...#..C.#/#........#/#........#/##########";
    let learned = calibrate(
        "bitlock",
        &img,
        &["--board", board, "--keep-missing"],
        dir.path(),
    );
    for name in ["l10_p20", "s6_p56", "g8_p80"] {
        let png = fixtures(DIR).join(format!("{name}.png"));
        let v = solve_cli(
            "bitlock",
            &png,
            &["--calibration", learned.to_str().unwrap()],
        );
        assert_eq!(v["state"], "playable", "{name}: {v}");
    }
}
