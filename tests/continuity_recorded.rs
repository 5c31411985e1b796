//! The project's own recorded Continuity screenshots under
//! `tests/fixtures/continuity-screen`, drawn by `boardbot render` (see
//! `make.sh` there), each with the reading it must give: the play view and
//! the tile view, a character mid-jump and in a doorway, a won frame.
//! Rescaled (0.6× to 2×), padded, cut and covered copies are made here:
//! the cut and covered ones must be refused, with the cells named.
//!
//! A playable read's keys are replayed on the rules from the state read
//! and must win, passing every checkpoint on the way.

mod common;

use boardbot::engines::tiles::Slide;
use boardbot::game::OnScreen;
use boardbot::games::continuity::render::shown_of;
use boardbot::games::continuity::rules::View;
use boardbot::games::continuity::rules::{Action as Input, Key};
use boardbot::games::continuity::{CONTINUITY, art, screen};
use boardbot::input::{Action, KeyCode};
use boardbot::report::Report;
use boardbot::tools::options::Options;
use common::{fixture_cases, fixtures, padded, rescaled};
use image::{Rgb, RgbImage, imageops};
use serde_json::Value;

const DIR: &str = "continuity-screen";

fn cases() -> Vec<(String, Value, RgbImage)> {
    fixture_cases(DIR, 8)
        .into_iter()
        .map(|(name, v)| {
            let png = fixtures(DIR).join(format!("{name}.png"));
            let img = image::open(png).unwrap().to_rgb8();
            (name, v, img)
        })
        .collect()
}

fn solve(img: &RgbImage) -> Report {
    let cal = CONTINUITY
        .load_calibration(None)
        .expect("built-in calibration");
    CONTINUITY
        .solve_image(img, &cal, &Options::default())
        .unwrap()
}

fn rows(v: &Value) -> Vec<String> {
    serde_json::from_value(v.clone()).expect("rows")
}

/// The grid `[x0, x1, y0, y1]` of a fixture's truth.
fn grid_of(want: &Value) -> [f64; 4] {
    let g = want["grid"].as_array().unwrap();
    [1, 2, 3, 4].map(|i| g[i].as_f64().unwrap())
}

/// Replays a playable read's keys on the rules, from the state read:
/// every checkpoint holds, and the last is a win.
fn check_plan(name: &str, r: &Report, jump: u8) {
    let board = r.board.as_ref().unwrap();
    let shown = shown_of_rows(&board.cells, jump);
    let (world, mut s) = screen::world_of(&shown).expect("a legal level");
    assert_eq!(shown_of(&world, &s).rows(), board.cells, "{name}");
    let actions = r.actions.as_ref().unwrap();
    let mut checkpoints = r.checkpoints.iter();
    for (i, a) in actions.iter().enumerate() {
        let Action::Key { key, .. } = a else {
            panic!("{name}: not a key: {a:?}")
        };
        let k = match key {
            KeyCode::Left => Key::Left,
            KeyCode::Right => Key::Right,
            KeyCode::Up => Key::Up,
            KeyCode::Down => Key::Down,
            KeyCode::Space => Key::Space,
            other => panic!("{name}: key {other:?}"),
        };
        let input = match (k, s.view) {
            (Key::Space, _) => Input::Toggle,
            (Key::Left, View::Tiles) => Input::Slide(Slide::Left),
            (Key::Right, View::Tiles) => Input::Slide(Slide::Right),
            (Key::Up, View::Tiles) => Input::Slide(Slide::Up),
            (Key::Down, View::Tiles) => Input::Slide(Slide::Down),
            (Key::Left, _) => Input::Left,
            (Key::Right, _) => Input::Right,
            (Key::Up, _) => Input::Jump,
            (Key::Down, _) => Input::Wait,
        };
        s = world
            .act(&s, input)
            .unwrap_or_else(|| panic!("{name}: key {i} is no legal input"));
        let mut cps = checkpoints.clone();
        if let Some(c) = cps.next().filter(|c| c.after == i + 1) {
            assert_eq!(
                c.rows,
                shown_of(&world, &s).rows(),
                "{name}: checkpoint after {}",
                i + 1
            );
            checkpoints = cps;
        }
    }
    assert!(s.won, "{name}: the keys do not win");
    assert!(
        checkpoints.next().is_none(),
        "{name}: checkpoints past the end"
    );
}

/// The frame that rows (as the reader reports them) show.
fn shown_of_rows(cells: &[String], jump: u8) -> art::Shown {
    let size = cells[0].find(['+', '=']).expect("a gap column");
    let gap = cells[0].chars().nth(size).unwrap();
    let cols = (cells[0].chars().count() + 1) / (size + 1);
    let rows_n = (cells.len() + 1) / (size + 1);
    let grid: Vec<Vec<char>> = cells.iter().map(|r| r.chars().collect()).collect();
    let mut slots = Vec::new();
    for r in 0..rows_n {
        for c in 0..cols {
            let at = |i: usize, j: usize| grid[r * (size + 1) + i][c * (size + 1) + j];
            if at(0, 0) == art::EMPTY_LETTER {
                slots.push(None);
                continue;
            }
            let scene = (0..size * size)
                .map(|k| match at(k / size, k % size) {
                    '#' => art::Drawn::Solid,
                    'k' => art::Drawn::Key,
                    'D' => art::Drawn::Door,
                    '!' => art::Drawn::Exit,
                    '@' => art::Drawn::Hero {
                        rise: 0,
                        door: false,
                    },
                    '^' => art::Drawn::Hero {
                        rise: 1,
                        door: false,
                    },
                    '&' => art::Drawn::Hero {
                        rise: 0,
                        door: true,
                    },
                    '%' => art::Drawn::Hero {
                        rise: 1,
                        door: true,
                    },
                    _ => art::Drawn::Air,
                })
                .collect();
            slots.push(Some(scene));
        }
    }
    let view = if gap == '=' { View::Tiles } else { View::Play };
    art::Shown {
        rows: rows_n,
        cols,
        size,
        slots,
        view,
        jump,
    }
}

/// Checks a read against the truth: never a wrong board.
fn check(name: &str, want: &Value, r: &Report, scale: f64) {
    let state = want["state"].as_str().unwrap();
    assert_eq!(r.state.name(), state, "{name}: {}", r.reason);
    let board = r.board.as_ref().unwrap();
    assert_eq!(board.cells, rows(&want["cells"]), "{name}");
    let b = board.bounds.unwrap();
    let grid = grid_of(want);
    let tol = 2.0 + 0.01 * (grid[1] - grid[0]) * scale;
    let got = [b.x, b.x + b.w, b.y, b.y + b.h];
    for (g, w) in got.iter().zip(grid.map(|v| v * scale)) {
        assert!(
            (g - w).abs() <= tol,
            "{name}: bounds {got:?} vs {grid:?}×{scale}"
        );
    }
    if state == "playable" {
        let jump = want["jump"].as_u64().map_or(2, |j| j as u8);
        check_plan(name, r, jump);
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
        let zoom = if want["view"] == "tiles" {
            art::TILE_ZOOM
        } else {
            1.0
        };
        for scale in [0.6, 0.75, 1.25, 1.5, 2.0] {
            // The reader's floor: cells of about 14 pixels.
            if pitch * zoom * scale < 14.0 {
                continue;
            }
            let s = rescaled(&img, scale);
            check(&format!("{name} at {scale}x"), &want, &solve(&s), scale);
        }
    }
}

#[test]
fn padded_copies_read_the_same() {
    for (name, want, img) in cases() {
        for (pad, colour) in [
            ([37, 11, 5, 60], art::PAGE),
            ([3, 90, 120, 7], [70, 110, 160]),
            ([20, 20, 20, 20], [255, 255, 255]),
            ([25, 25, 25, 25], [0x1e, 0x1e, 0x1e]),
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
fn a_frame_cut_by_the_selection_is_refused() {
    for (name, want, img) in cases() {
        let [x0, x1, y0, y1] = grid_of(&want);
        let cuts = [
            imageops::crop_imm(
                &img,
                ((x0 + x1) / 2.0) as u32,
                0,
                img.width() / 2,
                img.height(),
            ),
            imageops::crop_imm(&img, 0, 0, img.width(), ((y0 + y1) / 2.0) as u32),
            imageops::crop_imm(
                &img,
                (x0 - 2.0).max(0.0) as u32 + 3,
                0,
                img.width(),
                img.height(),
            ),
        ];
        for (k, cut) in cuts.into_iter().enumerate() {
            let r = solve(&cut.to_image());
            assert!(
                r.state.refuses() && r.actions.as_ref().is_none_or(Vec::is_empty),
                "{name} cut {k}: {} {}",
                r.state.name(),
                r.reason
            );
        }
    }
}

#[test]
fn a_covered_cell_is_refused_and_named() {
    for (name, want, img) in cases() {
        let [x0, x1, y0, _] = grid_of(&want);
        let n = rows(&want["cells"])[0].chars().count() as f64;
        let pitch = (x1 - x0) / n;
        // A small window over cell (1, 1), as a tooltip or a pointer would be.
        let mut img = img.clone();
        let (cx, cy) = (x0 + 1.5 * pitch, y0 + 1.5 * pitch);
        for y in (cy - 0.3 * pitch) as u32..(cy + 0.3 * pitch) as u32 {
            for x in (cx - 0.45 * pitch) as u32..(cx + 0.2 * pitch) as u32 {
                img.put_pixel(x, y, Rgb([250, 250, 210]));
            }
        }
        let r = solve(&img);
        assert_eq!(r.state.name(), "uncertain", "{name}: {}", r.reason);
        assert!(r.actions.as_ref().is_none_or(Vec::is_empty), "{name}");
        assert!(
            r.unreadable.iter().any(|i| i.cell == [1, 1]),
            "{name}: {:?}",
            r.unreadable
        );
    }
}
