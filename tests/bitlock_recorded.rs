//! The project's own recorded B.i.t.Lock screenshots under
//! `tests/fixtures/bitlock`, drawn by `boardbot render` (see `make.sh`
//! there), each with the reading it must give; rescaled (0.6× to 2×),
//! padded and cut copies made here; mid-animation frames, which must be
//! refused or read as the state they really show; and a solved board.

mod common;

use boardbot::game::Game;
use boardbot::game::OnScreen;
use boardbot::games::bitlock::art::{self, Scene};
use boardbot::games::bitlock::level::Level;
use boardbot::games::bitlock::motion::Pieces;
use boardbot::games::bitlock::rules::{Dir, Key, Rules};
use boardbot::games::bitlock::solver::Solver;
use boardbot::games::bitlock::{BitLock, screen};
use boardbot::input::Action;
use boardbot::report::Report;
use boardbot::tools::options::{Options, Win};
use common::fixtures;
use image::{Rgb, RgbImage, imageops};
use serde_json::Value;

fn cases() -> Vec<(String, Value, RgbImage)> {
    let dir = fixtures("bitlock");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("fixtures") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let img = image::open(path.with_extension("png")).unwrap().to_rgb8();
            out.push((
                path.file_stem().unwrap().to_string_lossy().into_owned(),
                v,
                img,
            ));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= 8, "the fixtures are missing");
    out
}

fn solve(img: &RgbImage) -> Report {
    let cal = BitLock
        .load_calibration(None)
        .expect("built-in calibration");
    BitLock.solve_image(img, &cal, &Options::default()).unwrap()
}

fn rows(v: &Value) -> Vec<String> {
    serde_json::from_value(v.clone()).expect("rows")
}

/// Checks a playable read: its bounds, and that its keys, replayed by the
/// engine, solve the level as the checkpoints predict.
fn check_plan(name: &str, r: &Report, grid: [f64; 4], scale: f64) {
    let board = r.board.as_ref().unwrap();
    let b = board.bounds.unwrap();
    let pitch = (grid[1] - grid[0]) * scale / board.cols as f64;
    let tol = (0.05 * pitch).max(1.5);
    let want = grid.map(|v| v * scale);
    let got = [b.x, b.x + b.w, b.y, b.y + b.h];
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= tol, "{name}: bounds {got:?} vs {want:?}");
    }
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

/// The grid `[x0, x1, y0, y1]` of a fixture's truth.
fn grid_of(want: &Value) -> [f64; 4] {
    let g = want["grid"].as_array().unwrap();
    [1, 2, 3, 4].map(|i| g[i].as_f64().unwrap())
}

/// Checks a read against the truth: never a wrong board.
fn check(name: &str, want: &Value, r: &Report, scale: f64) {
    let state = want["state"].as_str().unwrap();
    let moving = want.get("before").is_some();
    if moving {
        // Refused, or the state the frame really shows.
        let seen = r.board.as_ref().map(|b| b.cells.clone());
        let ok = r.state.name() == "uncertain"
            || seen == Some(rows(&want["before"]))
            || seen == Some(rows(&want["after"]));
        assert!(
            ok,
            "{name}: misread a moving frame as {seen:?} ({})",
            r.reason
        );
        if r.state.name() == "uncertain" {
            assert!(r.actions.as_ref().unwrap().is_empty());
            assert!(!r.unreadable.is_empty(), "{name}: no cells named");
        }
        return;
    }
    assert_eq!(r.state.name(), state, "{name}: {}", r.reason);
    let board = r.board.as_ref().unwrap();
    assert_eq!(board.cells, rows(&want["cells"]), "{name}");
    if state == "playable" {
        check_plan(name, r, grid_of(want), scale);
    }
}

#[test]
fn every_recorded_screenshot_reads_as_expected() {
    for (name, want, img) in cases() {
        check(&name, &want, &solve(&img), 1.0);
    }
}

#[test]
fn rescaled_copies_read_the_same() {
    for (name, want, img) in cases() {
        let pitch = want["render"]["pitch"].as_f64().unwrap();
        for scale in [0.6, 1.5, 2.0] {
            // The reader's floor: cells of about 24 pixels (0.6 × 40).
            if pitch * scale < 23.0 || pitch * scale > 100.0 {
                continue;
            }
            let (w, h) = (img.width() as f64 * scale, img.height() as f64 * scale);
            let s = imageops::resize(
                &img,
                w.round() as u32,
                h.round() as u32,
                imageops::FilterType::Triangle,
            );
            let what = format!("{name} at {scale}x");
            check(&what, &want, &solve(&s), scale);
        }
    }
}

/// `img` on a bigger page of `colour`, `pad` = left, top, right, bottom.
fn padded(img: &RgbImage, pad: [u32; 4], colour: [u8; 3]) -> RgbImage {
    let (w, h) = (
        img.width() + pad[0] + pad[2],
        img.height() + pad[1] + pad[3],
    );
    let mut out = RgbImage::from_pixel(w, h, Rgb(colour));
    imageops::replace(&mut out, img, i64::from(pad[0]), i64::from(pad[1]));
    out
}

#[test]
fn padded_copies_read_the_same() {
    for (name, want, img) in cases() {
        for (pad, colour) in [
            ([37, 11, 5, 60], art::PAGE),
            ([3, 90, 120, 7], [70, 110, 160]),
            ([20, 20, 20, 20], [255, 255, 255]),
            // Dark desktops, near the moving destroyer's near-black.
            ([25, 25, 25, 25], [0x1e, 0x1e, 0x1e]),
            ([9, 30, 25, 4], [0x12, 0x12, 0x12]),
        ] {
            let r = solve(&padded(&img, pad, colour));
            if want["state"] == "playable" {
                let g = grid_of(&want);
                let shifted = [
                    g[0] + f64::from(pad[0]),
                    g[1] + f64::from(pad[0]),
                    g[2] + f64::from(pad[1]),
                    g[3] + f64::from(pad[1]),
                ];
                let mut w = want.clone();
                w["grid"] = serde_json::json!([0, shifted[0], shifted[1], shifted[2], shifted[3]]);
                check(&format!("{name} padded {pad:?}"), &w, &r, 1.0);
            } else {
                check(&format!("{name} padded {pad:?}"), &want, &r, 1.0);
            }
        }
    }
}

#[test]
fn a_board_cut_by_the_selection_is_refused() {
    for (name, want, img) in cases() {
        if want["state"] != "playable" {
            continue;
        }
        let [x0, x1, y0, _] = grid_of(&want);
        let cols = want["cols"].as_f64().unwrap();
        let pitch = (x1 - x0) / cols;
        // Through the middle of the third column, and through the third row.
        let cut_x = (x0 + 2.5 * pitch) as u32;
        let left = imageops::crop_imm(&img, cut_x, 0, img.width() - cut_x, img.height()).to_image();
        let cut_y = (y0 + 2.4 * pitch) as u32;
        let top = imageops::crop_imm(&img, 0, cut_y, img.width(), img.height() - cut_y).to_image();
        for (what, cut) in [("left", left), ("top", top)] {
            let r = solve(&cut);
            assert!(
                r.state.refuses() && r.actions.as_ref().is_none_or(Vec::is_empty),
                "{name} cut at the {what}: {} {}",
                r.state.name(),
                r.reason
            );
        }
    }
}

/// Every crop from the left and from the top, a pixel at a time over the
/// first three columns (rows): cuts just past a grid line leave a smaller
/// board that looks whole, so each must be refused or read exactly.
#[test]
fn no_cut_near_a_grid_line_is_misread() {
    for (name, want, img) in cases() {
        if want["state"] != "playable" {
            continue;
        }
        let [x0, x1, y0, _] = grid_of(&want);
        let pitch = (x1 - x0) / want["cols"].as_f64().unwrap();
        let (from, to) = (x0.min(y0) as u32 + 1, (x0.max(y0) + 3.0 * pitch) as u32);
        for k in from..to {
            let (w, h) = (img.width(), img.height());
            let crops = [
                (k < w / 2).then(|| imageops::crop_imm(&img, k, 0, w - k, h).to_image()),
                (k < h / 2).then(|| imageops::crop_imm(&img, 0, k, w, h - k).to_image()),
            ];
            for cut in crops.into_iter().flatten() {
                let r = solve(&cut);
                if !r.state.refuses() {
                    let read = r.board.as_ref().map(|b| b.cells.clone());
                    assert_eq!(
                        read,
                        Some(rows(&want["cells"])),
                        "{name} cut by {k} px: misread"
                    );
                }
            }
        }
    }
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
    let r = solve(&img);
    assert_eq!(r.state.name(), "solved", "{}", r.reason);
    assert_eq!(r.board.unwrap().cells, rules.render_rows(&key));
    assert!(r.actions.unwrap().is_empty());
}

#[test]
fn every_moving_frame_is_refused_or_read_as_what_it_shows() {
    let text = "##########\n#a   A   #\n#  #     #\n#  z  +  #\n#     *  #\n#b   B   #\n#   #  c #\n#  C     #\n#        #\n##########";
    let rules = Rules::new(Level::parse(text).unwrap()).unwrap();
    let start: Key<32> = rules.start().unwrap();
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
            };
            let img = BitLock.render(text, "test", &opts).unwrap().image;
            let r = solve(&img);
            let seen = r.board.as_ref().map(|b| b.cells.clone());
            assert!(
                r.state.name() == "uncertain"
                    || seen == Some(before.clone())
                    || seen == Some(after.clone()),
                "{d}@{f}: read {seen:?}"
            );
        }
    }
}

#[test]
fn calibrate_learns_the_look_from_one_screenshot() {
    // The generic learner reads each cell's middle: the position is written
    // as the colour there (`.` floor and bare targets, `#`, `+`, `*`, and a
    // tile's type letter for a tile, normal or reverse).
    let dir = tempfile::tempdir().unwrap();
    let img = fixtures("bitlock").join("l10_p40.png");
    let board = "##########/#A.......#/#..#.....#/#..A..+..#/#.....*..#/#B.......#/#...#..C.#/#........#/#........#/##########";
    let out = common::boardbot(&[
        "calibrate",
        "--game",
        "bitlock",
        "--image",
        img.to_str().unwrap(),
        "--board",
        board,
        "--keep-missing",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let learned = dir.path().join("bitlock.toml");
    for name in ["l10_p20", "s6_p56", "g8_p80"] {
        let png = fixtures("bitlock").join(format!("{name}.png"));
        let out = common::boardbot(&[
            "solve",
            "--game",
            "bitlock",
            "--json",
            "--image",
            png.to_str().unwrap(),
            "--calibration",
            learned.to_str().unwrap(),
        ]);
        let v = common::stdout_json(&out);
        assert_eq!(v["state"], "playable", "{name}: {v}");
    }
}
