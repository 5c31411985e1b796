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
use boardbot::games::continuity::render::shown_of;
use boardbot::games::continuity::rules::View;
use boardbot::games::continuity::rules::{Action as Input, Key};
use boardbot::games::continuity::{art, screen};
use boardbot::input::{Action, KeyCode};
use boardbot::report::Report;
use common::recorded::{Reader, Suite, Truth, assert_refused, cases, covered, cut, desktops};
use common::rescaled;
use image::imageops;

const DIR: &str = "continuity-screen";

fn suite() -> Suite {
    Suite {
        reader: Reader::builtin("continuity"),
        // The reader's floor: cells of about 14 pixels.
        cells: 14.0..=1000.0,
        tolerance: |t| 2.0 + 0.01 * (t.x1 - t.x0),
        plan: |name, want, r| {
            let jump = want["jump"].as_u64().map_or(2, |j| j as u8);
            check_plan(name, r, jump);
        },
    }
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

#[test]
fn every_recorded_screenshot_reads_as_expected() {
    suite().every_case(&cases(DIR, 8));
}

#[test]
fn rescaled_copies_read_the_same() {
    // A tile view's cells are drawn TILE_ZOOM times smaller than the
    // recorded pitch, so each case is rescaled only as far as its cells allow.
    let s = suite();
    for c in cases(DIR, 8) {
        let zoom = if c.want["view"] == "tiles" {
            art::TILE_ZOOM
        } else {
            1.0
        };
        let pitch = c.want["render"]["pitch"].as_f64().unwrap() * zoom;
        let scales: Vec<f64> = [0.6, 0.75, 1.25, 1.5, 2.0]
            .into_iter()
            .filter(|sc| pitch * sc >= 14.0)
            .collect();
        for sc in scales {
            let t = Truth::of(&c.want).scaled(sc);
            let what = format!("{} at {sc}x", c.name);
            s.check(&what, &c.want, &s.solve(&rescaled(&c.img, sc)), t);
        }
    }
}

#[test]
fn padded_copies_read_the_same() {
    suite().padded(&cases(DIR, 8), &desktops(art::PAGE)[..4]);
}

#[test]
fn a_frame_cut_by_the_selection_is_refused() {
    let s = suite();
    for c in cases(DIR, 8) {
        let t = Truth::of(&c.want);
        let w = c.img.width();
        let cuts = [
            cut(&c.img, ((t.x0 + t.x1) / 2.0) as u32, 0),
            imageops::crop_imm(&c.img, 0, 0, w, ((t.y0 + t.y1) / 2.0) as u32).to_image(),
            cut(&c.img, (t.x0 - 2.0).max(0.0) as u32 + 3, 0),
        ];
        for (k, img) in cuts.into_iter().enumerate() {
            assert_refused(&s.solve(&img), &format!("{} cut {k}", c.name));
        }
    }
}

#[test]
fn a_covered_cell_is_refused_and_named() {
    let s = suite();
    for c in cases(DIR, 8) {
        let name = &c.name;
        let t = Truth::of(&c.want);
        let pitch = t.pitch();
        // A small window over cell (1, 1), as a tooltip or a pointer would be.
        let (cx, cy) = (t.x0 + 1.5 * pitch, t.y0 + 1.5 * pitch);
        let area = (
            cx - 0.45 * pitch,
            cx + 0.2 * pitch,
            cy - 0.3 * pitch,
            cy + 0.3 * pitch,
        );
        let r = s.solve(&covered(&c.img, area, [250, 250, 210]));
        assert_eq!(r.state.name(), "uncertain", "{name}: {}", r.reason);
        assert!(r.actions.as_ref().is_none_or(Vec::is_empty), "{name}");
        assert!(
            r.unreadable.iter().any(|i| i.cell == [1, 1]),
            "{name}: {:?}",
            r.unreadable
        );
    }
}
