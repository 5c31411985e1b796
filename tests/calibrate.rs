//! `boardbot calibrate` on a skin the built-in calibration does not know:
//! Troyis drawn in the "ember" skin (other hues for every cell and for the
//! knight). Calibrated on one screenshot, every other screenshot in that
//! skin, at other sizes, pitches, margins and clouds, must read exactly;
//! with the built-in calibration none of them may be played.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use boardbot::calibration::Calibration;
use boardbot::game::OnScreen;
use boardbot::games::troyis::Troyis;
use boardbot::games::troyis::board::Board;
use boardbot::games::troyis::render::{Skin, Style, render};
use boardbot::games::troyis::{levels, solver};
use boardbot::report::Verdict as State;

/// A mid-game position: a generated level after the first `moves` moves
/// of its solution, so it has visited cells and the knight anywhere.
fn mid_game(side: usize, targets: usize, seed: u64, moves: usize) -> Board {
    let mut b = levels::generate(side, targets, seed);
    let plan = solver::solve(&b, &solver::Limits::default()).expect("generated levels solve");
    for &sq in plan.squares.iter().take(moves) {
        b.step(sq).expect("a legal move");
    }
    b
}

/// One screenshot: the board, and how it is drawn.
struct Shot {
    board: Board,
    pitch: f64,
    margins: [f64; 4],
    clouds: usize,
    seed: u64,
}

/// side, targets, moves made, pitch, margins, clouds
type Spec = (usize, usize, usize, f64, [f64; 4], usize);

fn shots() -> Vec<Shot> {
    let spec: &[Spec] = &[
        // side, targets, moves made, pitch, margins, clouds
        (8, 30, 5, 40.0, [12.0, 9.0, 15.0, 11.0], 3),
        (5, 14, 2, 20.0, [6.0, 4.0, 8.0, 5.0], 0),
        (6, 18, 3, 23.0, [3.0, 9.0, 4.0, 6.0], 2),
        (9, 40, 7, 27.0, [20.0, 6.0, 9.0, 30.0], 4),
        (7, 25, 0, 33.0, [40.0, 25.0, 60.0, 33.0], 3),
        (10, 50, 12, 52.0, [5.0, 5.0, 5.0, 5.0], 5),
        (12, 70, 20, 61.0, [16.0, 30.0, 8.0, 12.0], 6),
        (4, 9, 1, 120.0, [50.0, 14.0, 22.0, 70.0], 2),
        (6, 20, 4, 88.0, [9.0, 9.0, 9.0, 9.0], 4),
    ];
    spec.iter()
        .enumerate()
        .map(
            |(i, &(side, targets, moves, pitch, margins, clouds))| Shot {
                board: mid_game(side, targets, 100 + i as u64, moves),
                pitch,
                margins,
                clouds,
                seed: 7 + i as u64,
            },
        )
        .collect()
}

fn draw(s: &Shot) -> image::RgbImage {
    let skin = Skin::EMBER;
    render(
        &s.board,
        &Style {
            margins: s.margins,
            clouds: s.clouds,
            seed: s.seed,
            knight_bg: skin.knight_bg,
            visited: skin.visited,
            skin,
            ..Style::new(s.pitch)
        },
    )
}

fn run(args: &[&str], config: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .args(args)
        .env("BOARDBOT_CONFIG_DIR", config)
        .output()
        .expect("run boardbot")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Writes the first shot and calibrates on it into the user's (test) config dir.
fn calibrate(dir: &Path, shots: &[Shot]) -> PathBuf {
    let first = dir.join("first.png");
    draw(&shots[0]).save(&first).unwrap();
    let board = shots[0].board.row_strings().join("/");
    let out = run(
        &[
            "calibrate",
            "--game",
            "troyis",
            "--image",
            first.to_str().unwrap(),
            "--board",
            &board,
        ],
        dir,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let toml = dir.join("calibration/troyis.toml");
    assert!(
        toml.is_file(),
        "calibrate writes into the config dir: {}",
        text(&out)
    );
    toml
}

#[test]
fn one_screenshot_teaches_a_new_skin() {
    let dir = tempfile::tempdir().unwrap();
    let shots = shots();
    let toml = calibrate(dir.path(), &shots);
    let learned = Calibration::load(&toml, "troyis").expect("the learned file loads");
    let builtin = Troyis.load_calibration(None).expect("built-in");
    for (i, s) in shots.iter().enumerate().skip(1) {
        let img = draw(s);
        let what = format!(
            "shot {i}: {}×{} at pitch {}",
            s.board.rows(),
            s.board.cols(),
            s.pitch
        );
        let r = Troyis
            .solve_image(&img, &learned, &Default::default())
            .unwrap();
        assert_eq!(r.state, State::Playable, "{what}: {}", r.reason);
        let cells = &r.board.as_ref().expect("a board").cells;
        assert_eq!(cells, &s.board.row_strings(), "{what}");
        let old = Troyis
            .solve_image(&img, &builtin, &Default::default())
            .unwrap();
        assert!(
            matches!(old.state, State::NoBoard | State::Uncertain),
            "{what}: the built-in calibration read the new skin as {:?}",
            old.state
        );
        assert!(old.actions.unwrap_or_default().is_empty(), "{what}");
    }
}

#[test]
fn solve_uses_the_users_calibration_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let shots = shots();
    calibrate(dir.path(), &shots);
    let shot = dir.path().join("other.png");
    draw(&shots[3]).save(&shot).unwrap();
    let args = [
        "solve",
        "--game",
        "troyis",
        "--image",
        shot.to_str().unwrap(),
        "--json",
    ];
    let out = run(&args, dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let v = common::stdout_json(&out);
    assert_eq!(
        v["board"]["cells"],
        serde_json::json!(shots[3].board.row_strings())
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("calibration/troyis.toml"),
        "says which calibration: {}",
        text(&out)
    );
    // Without the user's file, the built-in calibration refuses the skin.
    let empty = tempfile::tempdir().unwrap();
    let out = run(&args, empty.path());
    assert_eq!(out.status.code(), Some(3), "{}", text(&out));
}

#[test]
fn refuses_a_board_that_disagrees_with_the_screenshot() {
    let dir = tempfile::tempdir().unwrap();
    let shots = shots();
    let shot = dir.path().join("shot.png");
    draw(&shots[0]).save(&shot).unwrap();
    let calib = |board: &str, extra: &[&str]| {
        let mut args = vec![
            "calibrate",
            "--game",
            "troyis",
            "--image",
            shot.to_str().unwrap(),
            "--board",
            board,
        ];
        args.extend_from_slice(extra);
        run(&args, dir.path())
    };
    let small = shots[1].board.row_strings().join("/");
    let out = calib(&small, &[]);
    assert_eq!(out.status.code(), Some(2));
    let msg = text(&out);
    assert!(msg.contains("5×5") && msg.contains("8×8"), "{msg}");
    // The same board with its visited cells written as targets: the
    // colours disagree, and the self-check catches it.
    let truth = shots[0].board.row_strings().join("/");
    let out = calib(&truth.replace('V', "W"), &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // A board with no visited cell cannot teach their colour.
    let start = levels::generate(8, 30, 5);
    let fresh = dir.path().join("fresh.png");
    draw(&Shot {
        board: start.clone(),
        pitch: 40.0,
        margins: [8.0; 4],
        clouds: 0,
        seed: 1,
    })
    .save(&fresh)
    .unwrap();
    let board = start.row_strings().join("/");
    let args = [
        "calibrate",
        "--game",
        "troyis",
        "--image",
        fresh.to_str().unwrap(),
        "--board",
        &board,
    ];
    let out = run(&args, dir.path());
    assert_eq!(out.status.code(), Some(2));
    let msg = text(&out);
    assert!(
        msg.contains("'V'") && msg.contains("--keep-missing"),
        "{msg}"
    );
    let mut keep = args.to_vec();
    keep.push("--keep-missing");
    let out = run(&keep, dir.path());
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("kept"), "{}", text(&out));
    // The template's name carries its content's hash (crash-safe rewrites).
    let knight = std::fs::read_dir(dir.path().join("calibration"))
        .unwrap()
        .flatten()
        .any(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with("troyis-knight-") && n.ends_with(".png")
        });
    assert!(knight, "no knight template written");
}
