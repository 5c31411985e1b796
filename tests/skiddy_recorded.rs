//! The project's own recorded Skiddy screenshots under
//! `tests/fixtures/skiddy-screen`, drawn by `boardbot render` (see
//! `make.sh` there), each with the reading it must give; rescaled (0.6× to
//! 2×), padded and cut copies made here; mid-slide frames, which must be
//! refused or read as the state they really show; and a won board.

mod common;

use boardbot::art::render::RenderOptions;
use boardbot::game::Game;
use boardbot::game::OnScreen;
use boardbot::games::skiddy::level::Level;
use boardbot::games::skiddy::rules::{Dir, Rules};
use boardbot::games::skiddy::{SKIDDY, art, screen};
use boardbot::input::Action;
use boardbot::report::Report;
use boardbot::tools::options::Options;
use common::{fixture_cases, fixtures};
use image::{Rgb, RgbImage, imageops};
use serde_json::Value;

const DIR: &str = "skiddy-screen";

fn cases() -> Vec<(String, Value, RgbImage)> {
    fixture_cases(DIR, 9)
        .into_iter()
        .map(|(name, v)| {
            let png = fixtures(DIR).join(format!("{name}.png"));
            let img = image::open(png).unwrap().to_rgb8();
            (name, v, img)
        })
        .collect()
}

fn solve(img: &RgbImage) -> Report {
    let cal = SKIDDY.load_calibration(None).expect("built-in calibration");
    SKIDDY.solve_image(img, &cal, &Options::default()).unwrap()
}

fn rows(v: &Value) -> Vec<String> {
    serde_json::from_value(v.clone()).expect("rows")
}

/// The rules of a read board.
fn rules_of(cells: &[String], sticky: bool) -> Rules {
    let text = format!(
        "sticky: {}\n{}\n",
        if sticky { "yes" } else { "no" },
        cells.join("\n")
    );
    Rules::new(&Level::parse(&text).unwrap())
}

/// Checks a playable read: its bounds, and that its keys, replayed by the
/// engine, win as every checkpoint predicts.
fn check_plan(name: &str, want: &Value, r: &Report, scale: f64) {
    let board = r.board.as_ref().unwrap();
    let b = board.bounds.unwrap();
    let grid = grid_of(want);
    let pitch = (grid[1] - grid[0]) * scale / board.cols as f64;
    let tol = (0.05 * pitch).max(1.5);
    let got = [b.x, b.x + b.w, b.y, b.y + b.h];
    for (g, w) in got.iter().zip(grid.map(|v| v * scale)) {
        assert!((g - w).abs() <= tol, "{name}: bounds {got:?} vs {grid:?}");
    }
    let rules = rules_of(&board.cells, want["sticky"].as_bool().unwrap());
    let mut key = rules.start;
    let actions = r.actions.as_ref().unwrap();
    assert_eq!(
        r.checkpoints.len(),
        actions.len(),
        "{name}: a look after every key"
    );
    for (i, a) in actions.iter().enumerate() {
        let Action::Key { key: k, .. } = a else {
            panic!("{name}: not a key: {a:?}")
        };
        let d = Dir::ALL
            .into_iter()
            .find(|&d| screen::key_of(d) == *k)
            .unwrap();
        key = rules.play(&key, d).expect("a legal move").1;
        assert_eq!(r.checkpoints[i].after, i + 1);
        assert_eq!(
            r.checkpoints[i].rows,
            rules.render_rows(&key),
            "{name}: checkpoint {i}"
        );
    }
    assert!(rules.is_won(&key), "{name}: the keys do not win");
}

/// The grid `[x0, x1, y0, y1]` of a fixture's truth.
fn grid_of(want: &Value) -> [f64; 4] {
    let g = want["grid"].as_array().unwrap();
    [1, 2, 3, 4].map(|i| g[i].as_f64().unwrap())
}

/// Checks a read against the truth: never a wrong board.
fn check(name: &str, want: &Value, r: &Report, scale: f64) {
    let state = want["state"].as_str().unwrap();
    let seen = r.board.as_ref().map(|b| b.cells.clone());
    if state == "uncertain" {
        let m = &want["moving"];
        let ok = r.state.name() == "uncertain"
            || seen == Some(rows(&m["before"]))
            || seen == Some(rows(&m["after"]))
            || (!m["shows"].is_null() && seen == Some(rows(&m["shows"])));
        assert!(
            ok,
            "{name}: misread a moving frame as {seen:?} ({})",
            r.reason
        );
        if r.state.name() == "uncertain" {
            assert!(r.actions.as_ref().is_none_or(Vec::is_empty));
            assert!(!r.unreadable.is_empty(), "{name}: no cells named");
        }
        return;
    }
    assert_eq!(r.state.name(), state, "{name}: {}", r.reason);
    assert_eq!(seen, Some(rows(&want["cells"])), "{name}");
    if state == "playable" {
        check_plan(name, want, r, scale);
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
        for scale in [0.6, 0.75, 1.25, 1.5, 2.0] {
            // The reader's floor: cells of about 24 pixels.
            if pitch * scale < 23.0 {
                continue;
            }
            let (w, h) = (img.width() as f64 * scale, img.height() as f64 * scale);
            let s = imageops::resize(
                &img,
                w.round() as u32,
                h.round() as u32,
                imageops::FilterType::Triangle,
            );
            check(&format!("{name} at {scale}x"), &want, &solve(&s), scale);
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
            // Dark desktops, near a pit's near-black.
            ([25, 25, 25, 25], [0x1e, 0x1e, 0x1e]),
            ([9, 30, 25, 4], [0x12, 0x12, 0x12]),
        ] {
            let mut w = want.clone();
            let g = grid_of(&want);
            let (dx, dy) = (f64::from(pad[0]), f64::from(pad[1]));
            w["grid"] = serde_json::json!([0, g[0] + dx, g[1] + dx, g[2] + dy, g[3] + dy]);
            check(
                &format!("{name} padded {pad:?}"),
                &w,
                &solve(&padded(&img, pad, colour)),
                1.0,
            );
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
        let pitch = (x1 - x0) / want["cols"].as_f64().unwrap();
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
/// first two columns (rows): each must be refused or read exactly.
#[test]
fn no_cut_near_a_grid_line_is_misread() {
    for (name, want, img) in cases() {
        if want["state"] != "playable" {
            continue;
        }
        let [x0, x1, y0, _] = grid_of(&want);
        let pitch = (x1 - x0) / want["cols"].as_f64().unwrap();
        let (from, to) = (x0.min(y0) as u32 + 1, (x0.max(y0) + 2.0 * pitch) as u32);
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

const S12: &str =
    "sticky: yes\n########\n#.#r...#\n#r.....#\n##.....#\n##.c...#\nR...o.c#\n########\n";

#[test]
fn every_moving_frame_is_refused_or_read_as_what_it_shows() {
    for text in [
        S12,
        "sticky: no\n#R#B####\n#..b.c.#\n#r..i..#\n#.rr.o.#\n########\n",
    ] {
        for d in Dir::ALL {
            let mv = d.letter().to_string();
            for k in 1..20 {
                let opts = RenderOptions {
                    pitch: 40.0,
                    margins: [8.0, 40.0, 8.0, 8.0],
                    seed: 1,
                    moving: Some((mv.clone(), f64::from(k) / 20.0)),
                };
                let Ok(out) = SKIDDY.render(text, "test", &opts) else {
                    break; // the move changes nothing
                };
                let mut want = out.expect.clone();
                want["state"] = "uncertain".into();
                check(&format!("{mv}@{k}/20"), &want, &solve(&out.image), 1.0);
            }
        }
    }
}

#[test]
fn a_won_board_reads_as_solved() {
    let opts = RenderOptions {
        pitch: 40.0,
        margins: [8.0, 30.0, 8.0, 8.0],
        seed: 1,
        moving: Some(("U".into(), 1.0)),
    };
    let all = "#R#B#G#Y#\n#r.b.g.y#\n#.......#\n#.c.i.o.#\n#########\n";
    let out = SKIDDY.render(all, "test", &opts).unwrap();
    assert_eq!(out.expect["state"], "solved");
    let r = solve(&out.image);
    assert_eq!(r.state.name(), "solved", "{}", r.reason);
    assert_eq!(r.board.unwrap().cells, rows(&out.expect["cells"]));
    assert!(r.actions.unwrap_or_default().is_empty());
}

#[test]
fn blocks_that_disagree_on_glue_are_refused() {
    let (_, want, mut img) = cases().into_iter().find(|c| c.0 == "s12_p48").unwrap();
    // Paint over the stud of the top left block.
    let [x0, x1, y0, _] = grid_of(&want);
    let pitch = (x1 - x0) / 8.0;
    let (cx, cy) = (x0 + pitch / 2.0, y0 + pitch / 2.0);
    for y in (cy - 0.15 * pitch) as u32..(cy + 0.15 * pitch) as u32 {
        for x in (cx - 0.15 * pitch) as u32..(cx + 0.15 * pitch) as u32 {
            img.put_pixel(x, y, Rgb(art::BLOCK));
        }
    }
    let r = solve(&img);
    assert_eq!(r.state.name(), "uncertain", "{}", r.reason);
    assert!(r.reason.contains("sticky"), "{}", r.reason);
    assert_eq!(r.unreadable.len(), 1, "the odd block is named");
}

#[test]
fn calibrate_learns_the_look_from_one_screenshot() {
    // The generic learner reads each cell's middle, whose colour is the
    // level format's letter there: the level file itself is the board
    // (its comments and sticky line are skipped).
    let dir = tempfile::tempdir().unwrap();
    let img = fixtures(DIR).join("s9_p80.png");
    let level = dir.path().join("s9.txt");
    let text = "; practice seed 9\nsticky: no\n########\n#..ci..#\n#.#....#\nR......#\n#...b.##\n#.or...#\n####B###\n";
    std::fs::write(&level, text).unwrap();
    let out = common::boardbot(&[
        "calibrate",
        "--game",
        "skiddy",
        "--image",
        img.to_str().unwrap(),
        "--level",
        level.to_str().unwrap(),
        "--keep-missing",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let learned = dir.path().join("skiddy.toml");
    for name in ["s9_pit_p44", "s12_p40"] {
        let png = fixtures(DIR).join(format!("{name}.png"));
        let out = common::boardbot(&[
            "solve",
            "--game",
            "skiddy",
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
