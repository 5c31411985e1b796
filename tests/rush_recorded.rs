//! The project's own recorded Rush Hour screenshots under
//! `tests/fixtures/rush`, drawn by `boardbot render` (see `make.sh` there),
//! each read as recorded and again rescaled (0.6x, 1.5x, 2x) and padded,
//! with the reading it must give. Mid-slide frames must be refused or read
//! as the position nearest to them; boards cut by the selection refused.

mod common;

use boardbot::games::rush::art::{self, Scene};
use boardbot::games::rush::board::Puzzle;
use boardbot::input::Action;
use boardbot::report::Report;
use common::fixtures;
use common::recorded::{Reader, Suite, Truth, assert_refused, calibrate, cases, crop, solve_cli};
use image::RgbImage;

const DIR: &str = "rush";

fn suite() -> Suite {
    Suite {
        reader: Reader::builtin("rush"),
        // The built-in skin refuses under 15 px a cell; the cases read
        // from 20 up.
        cells: 20.0..=1000.0,
        tolerance: |t| (0.03 * t.pitch()).max(1.5),
        plan: |what, _, r| check_drags(r, what),
    }
}

/// Every drag starts inside the vehicle it moves and slides it along its
/// axis by its move's distance.
fn check_drags(report: &Report, what: &str) {
    // The lattice read, whose bounds the suite has checked.
    let b = report.board.as_ref().unwrap().bounds.unwrap();
    let (x0, y0, pitch) = (b.x, b.y, b.w / 6.0);
    let cells = report.board.as_ref().unwrap().cells.concat();
    let (p, mut s) = Puzzle::parse(&cells).unwrap();
    let moves: Vec<String> =
        serde_json::from_value(report.plan.as_ref().unwrap()["moves"].clone()).unwrap();
    let actions = report.actions.as_ref().unwrap();
    assert_eq!(actions.len(), moves.len(), "{what}");
    for (a, mv) in actions.iter().zip(&moves) {
        let Action::Drag { from, to, .. } = a else {
            panic!("{what}: {a:?} is not a drag")
        };
        let (m, next) = p.apply(s, mv).unwrap();
        let col = ((f64::from(from[0]) - x0) / pitch).floor() as usize;
        let row = ((f64::from(from[1]) - y0) / pitch).floor() as usize;
        let board: Vec<char> = p.board_string(s).chars().collect();
        assert_eq!(
            board[row * 6 + col],
            m.letter,
            "{what}: {mv} grabs ({row},{col})"
        );
        let v = &p.vehicles[m.vehicle as usize];
        let (dx, dy) = (f64::from(to[0] - from[0]), f64::from(to[1] - from[1]));
        let (along, across) = if v.horizontal { (dx, dy) } else { (dy, dx) };
        assert!(across.abs() < 1.0, "{what}: {mv} leaves its axis");
        let want = f64::from(m.delta) * pitch;
        assert!(
            (along - want).abs() <= 0.1 * pitch,
            "{what}: {mv} drags {along} for {want}"
        );
        s = next;
    }
    assert!(p.is_goal(s), "{what}: the plan does not solve the board");
}

#[test]
fn every_recorded_screenshot_reads_as_expected_at_any_scale_and_margin() {
    let desktops = [([0; 4], art::PAGE), ([23; 4], [40, 44, 52])];
    suite().variants(&cases(DIR, 8), &[1.0, 1.5, 2.0, 0.6], &desktops);
}

/// A colour calibration written before the built-in look became a skin
/// still reads, with the colour reader.
#[test]
fn an_older_colour_calibration_still_reads_every_recorded_screenshot() {
    let mut s = suite();
    s.reader = Reader::learnt("rush", &fixtures("looks").join("rush_colours.toml"));
    s.variants(&cases(DIR, 8), &[1.0, 0.6], &[([0; 4], art::PAGE)]);
}

#[test]
fn boards_cut_by_the_selection_are_refused() {
    let s = suite();
    let all = cases(DIR, 8);
    for name in ["hardest_p60", "touching_p36", "big_p100"] {
        let c = all.iter().find(|c| c.name == name).expect("a case");
        let (img, g) = (&c.img, Truth::of(&c.want));
        let p = g.pitch();
        let (w, h) = (img.width(), img.height());
        let cuts = [
            (g.x0 + 2.5 * p, 0.0, f64::from(w), f64::from(h)),
            (0.0, 0.0, g.x1 - 1.4 * p, f64::from(h)),
            (0.0, g.y0 + 1.5 * p, f64::from(w), f64::from(h)),
            (0.0, 0.0, f64::from(w), g.y1 - 0.5 * p),
        ];
        for area in cuts {
            assert_refused(
                &s.solve(&crop(img, area)),
                &format!("{name} cut at {area:?}"),
            );
        }
    }
}

#[test]
fn a_vehicle_over_two_cells_at_any_point_of_its_slide_is_never_misread() {
    let suite = suite();
    let (p, s) = Puzzle::parse("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo").unwrap();
    let (m, after) = p.apply(s, "F+1").unwrap();
    let still: Vec<String> = [s, after]
        .iter()
        .map(|&x| boardbot::games::rush::letters::canonical(&p.board_string(x)))
        .collect();
    for k in 0..=20 {
        let f = f64::from(k) / 20.0;
        let mut scene = Scene::of(&p, s);
        scene.pieces[m.vehicle as usize].pos += f;
        let (img, _) = art::picture(&scene, 40.0, [6.0; 4]);
        let r = suite.solve(&img);
        if r.state.refuses() {
            continue;
        }
        let read = r.board.unwrap().cells.concat();
        assert!(still.contains(&read), "at {f}: read {read}");
    }
}

#[test]
fn the_cli_reads_a_screenshot_and_writes_a_debug_image() {
    let dir = tempfile::tempdir().unwrap();
    let debug = dir.path().join("seen.png");
    let img = fixtures("rush").join("moving_p50.png");
    let v = solve_cli("rush", &img, &["--debug-image", debug.to_str().unwrap()]);
    assert_eq!(v["state"], "uncertain", "{v}");
    assert!(!v["unreadable"].as_array().unwrap().is_empty(), "{v}");
    assert!(debug.exists());
    let v = solve_cli("rush", &fixtures("rush").join("touching_p36.png"), &[]);
    assert_eq!(v["state"], "playable", "{v}");
    assert_eq!(v["actions"][0]["kind"], "drag", "{v}");
}

/// A board with every part of a vehicle and a wall: one shot teaches a look.
const TAUGHT: &str = "IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM";

/// [`TAUGHT`] drawn by the art at `pitch` into a new directory's `shot.png`.
fn taught_shot(pitch: f64) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let (p, s) = Puzzle::parse(TAUGHT).unwrap();
    let (img, _) = art::picture(&Scene::of(&p, s), pitch, [8.0; 4]);
    let shot = dir.path().join("shot.png");
    img.save(&shot).unwrap();
    (dir, shot)
}

#[test]
fn calibrate_learns_the_look_and_solve_reads_with_it() {
    let (board, (dir, shot)) = (TAUGHT, taught_shot(48.0));
    let out_dir = dir.path().join("cal");
    let cal = calibrate("rush", &shot, &["--board", board], &out_dir);
    let v = solve_cli("rush", &shot, &["--calibration", cal.to_str().unwrap()]);
    assert_eq!(v["state"], "playable", "{v}");
    let want = boardbot::games::rush::letters::canonical(board);
    assert_eq!(
        v["board"]["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect::<String>(),
        want
    );
}

/// The built-in look is a skin: its position is the board as `solve`
/// takes it, and `--keep-missing` has no colours to keep, which it says.
#[test]
fn calibrate_takes_the_board_as_solve_does_and_keeps_no_colours() {
    let (board, (dir, shot)) = (TAUGHT, taught_shot(40.0));
    let out = dir.path().join("cal");
    let run = |position: &[&str]| {
        let mut args = vec!["calibrate", "--game", "rush", "--image"];
        args.extend([shot.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        args.extend_from_slice(position);
        common::boardbot(&args)
    };
    // The colour classes the colour learner took are no position.
    let colours = run(&["--board", "bggx../b..tyy/yrrt../y.pppn/ttp..n/nngggn"]);
    let err = String::from_utf8_lossy(&colours.stderr);
    assert_eq!(colours.status.code(), Some(2), "{err}");
    assert!(err.contains("'b' is not a cell"), "{err}");
    assert!(err.contains("Fogleman's format"), "{err}");
    assert!(!out.join("rush.toml").exists());
    let kept = run(&["--board", board, "--keep-missing"]);
    let err = String::from_utf8_lossy(&kept.stderr);
    assert!(kept.status.success(), "{err}");
    assert!(err.contains("--keep-missing keeps nothing"), "{err}");
    let text = std::fs::read_to_string(out.join("rush.toml")).unwrap();
    assert!(
        text.contains("[skin]") && !text.contains("[[class]]"),
        "{text}"
    );
}

/// Draws a pointer (a white arrow with a black outline) with its tip at `(x, y)`.
fn pointer(img: &mut RgbImage, x: i64, y: i64) {
    for dy in 0..19i64 {
        for dx in 0..=dy.min(12) {
            let (px, py) = (x + dx, y + dy);
            if px < 0 || py < 0 || px >= i64::from(img.width()) || py >= i64::from(img.height()) {
                continue;
            }
            let edge = dx == 0 || dx == dy.min(12) || dy == 18;
            let c = if edge { [0, 0, 0] } else { [255, 255, 255] };
            img.put_pixel(px as u32, py as u32, image::Rgb(c));
        }
    }
}

#[test]
fn a_pointer_anywhere_over_the_board_is_never_misread() {
    let suite = suite();
    let c = cases(DIR, 8)
        .into_iter()
        .find(|c| c.name == "touching_p36")
        .unwrap();
    let (want, img, g) = (&c.want, &c.img, Truth::of(&c.want));
    let step = g.pitch() / 4.0;
    let (mut refused, mut read) = (0, 0);
    for i in 0..24 {
        for j in 0..24 {
            let mut shot = img.clone();
            let (x, y) = (g.x0 + step * f64::from(i), g.y0 + step * f64::from(j));
            pointer(&mut shot, x as i64, y as i64);
            let r = suite.solve(&shot);
            if r.state.refuses() {
                assert!(r.actions.unwrap_or_default().is_empty());
                refused += 1;
            } else {
                let cells = serde_json::json!(r.board.unwrap().cells);
                assert_eq!(cells, want["cells"], "pointer at ({x:.0},{y:.0})");
                read += 1;
            }
        }
    }
    println!("pointer over the board: {read} read right, {refused} refused");
    assert!(read > 0 && refused > 0);
}
