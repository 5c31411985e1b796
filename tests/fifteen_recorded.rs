//! Fifteen's reader on screenshots of sgt-puzzles' own window, taken at
//! test time (sgt's art, and the desktop font its numbers are drawn in,
//! are not ours to commit): sgt-fifteen runs on a private Xvfb display
//! with the game IDs of tests/fixtures/fifteen/ids.txt, and each test
//! grabs its window. Every test first runs `boardbot calibrate` on a
//! screenshot of the first ID, as a user would once.
//!
//! Checked: the read is exactly the ID's board for every frame size in the
//! file, at sgt's size, in a larger window (bigger tiles), and scaled
//! (0.75× to 2×) with margins of another colour; at 0.6× it is the board
//! or refused, never another; the plan is the text solver's and each
//! click lands on the tile that slides, next to the gap. Refused: a
//! selection cutting the board, a tile caught mid-slide (a real capture
//! during the animation, and a synthetic one), a duplicated number, the
//! win flash.
//!
//! With no calibration: sgt draws its numbers in bold "Sans", which a
//! fontconfig file given to sgt alone sets to each common desktop face in
//! turn; every ID is read exactly. In a serif face boardbot does not know
//! the read is exact or refused, and exact after one `calibrate`.
//! When Xvfb, xdotool or sgt-puzzles is missing the tests say so and skip,
//! except in CI.
#![cfg(feature = "live")]

mod common;

use boardbot::calibration::Calibration;
use boardbot::engines::tiles::{Slide, Tiles};
use boardbot::game::Game;
use boardbot::game::OnScreen;
use boardbot::games::fifteen::{FIFTEEN, level, read};
use boardbot::input::Action;
use boardbot::report::{Report, Verdict};
use boardbot::vision::glyphs::COMMON_SANS;
use common::display::{Display, have_xdotool, xvfb};
use common::recorded::{Reader, assert_refused, variant};
use common::sgt::{Fifteen, Window, calibrate_fifteen_on, fifteen_ids, program, sans_is};
use image::imageops::{self};
use image::{Rgb, RgbImage};
use std::path::{Path, PathBuf};

fn tiles(id: &str) -> Tiles {
    level::parse(id).expect("a fixture ID")
}

/// The read is the ID's board, the plan the text solver's, and each click
/// is on the centre of the tile that slides, inside the board.
fn check_read(report: &Report, id: &str, what: &str) {
    assert_eq!(report.state, Verdict::Playable, "{what}: {}", report.reason);
    let start = tiles(id);
    let board = report.board.as_ref().expect("a board");
    assert_eq!(board.cells, read::rows(&start), "{what}");
    let text = FIFTEEN.solve_text(id, "id", &Default::default()).unwrap();
    assert_eq!(report.plan, text.plan, "{what}: the text solver's plan");
    let grid = report.seen.grid.as_ref().expect("the lattice");
    let actions = report.actions.as_ref().expect("clicks");
    let moves = text.plan.as_ref().unwrap()["moves"].as_str().unwrap();
    assert_eq!(actions.len(), moves.len(), "{what}");
    let mut t = start;
    for (a, m) in actions.iter().zip(moves.chars()) {
        let s = Slide::from_letter(m).expect("a slide");
        let from = t.source(s).expect("a tile to slide");
        let Action::Click { x, y, cell } = *a else {
            panic!("{what}: {a:?} is not a click")
        };
        assert_eq!(cell, Some([from / t.width(), from % t.width()]), "{what}");
        let (cx, cy) = grid
            .lattice
            .cell(from / t.width(), from % t.width())
            .centre();
        assert!((f64::from(x) - cx).abs() <= 1.0 && (f64::from(y) - cy).abs() <= 1.0);
        t = t.slide(s).expect("legal");
    }
    assert_eq!(t, Tiles::solved(t.width(), t.height()).unwrap(), "{what}");
}

#[test]
fn reads_every_frame_size_at_any_scale_with_margins() {
    let Some(s) = Fifteen::setup(61) else {
        return;
    };
    for id in fifteen_ids() {
        let win = s.open(&id, (40, 30));
        let shot = win.grab();
        check_read(&s.solve(&shot), &id, &format!("{id}, sgt's window"));
        for (k, pad) in [(0.75, 20), (1.5, 30), (2.0, 5)] {
            let what = format!("{id} scaled {k}, margin {pad}");
            check_read(&s.solve(&variant(&shot, k, pad, [40, 44, 52])), &id, &what);
        }
        // Tiny: about 7-pixel digits. Read right or refused, never wrong.
        let r = s.solve(&variant(&shot, 0.6, 9, [40, 44, 52]));
        if r.state == Verdict::Playable {
            check_read(&r, &id, &format!("{id} scaled 0.6"));
        } else {
            assert_refused(&r, &format!("{id} scaled 0.6"));
        }
    }
}

#[test]
fn reads_a_larger_window_with_bigger_tiles() {
    let Some(s) = Fifteen::setup(62) else {
        return;
    };
    let ids = fifteen_ids();
    for id in [&ids[2], &ids[3]] {
        let mut win = s.open(id, (40, 30));
        win.resize(520, 600);
        let shot = win.grab();
        let r = s.solve(&shot);
        check_read(&r, id, &format!("{id}, window 520x600"));
        let (pitch, _) = r.seen.grid.as_ref().unwrap().lattice.pitch();
        assert!(pitch > 80.0, "the tiles did not grow: {pitch:.0} px");
    }
}

/// sgt-fifteen with bold "Sans" set to `family` on a display of its own
/// (`tag`), and the fontconfig file that sets it; `None` (said why) when
/// that family is not installed, which CI does not allow.
fn in_font(family: &str, tag: u32) -> Option<(Display, PathBuf, PathBuf, tempfile::TempDir)> {
    let program = program("sgt-fifteen")?;
    if !have_xdotool() {
        return None;
    }
    let listed = std::process::Command::new("fc-list")
        .arg(format!("{family}:weight=bold"))
        .output()
        .is_ok_and(|o| !o.stdout.is_empty());
    assert!(
        listed || !common::in_ci(),
        "the font {family} is not installed, and CI=true: .ci/deps must install it"
    );
    if !listed {
        common::skip(&format!(
            "the font {family} is not installed (.ci/deps installs it)"
        ));
        return None;
    }
    let display = xvfb(tag)?;
    let dir = tempfile::tempdir().expect("temp dir");
    let conf = sans_is(dir.path(), family);
    Some((display, program, conf, dir))
}

/// Every fixture ID in sgt's window, and one in a larger window, drawn
/// with bold "Sans" as `conf` sets it.
fn shots_in(display: &Display, program: &Path, conf: &Path) -> Vec<(String, String, RgbImage)> {
    let env = [("FONTCONFIG_FILE", conf)];
    let mut shots = Vec::new();
    for id in fifteen_ids() {
        let win = Window::open_with(program, &display.name, &id, (40, 30), &env);
        shots.push((id.clone(), "sgt's window".to_string(), win.grab()));
    }
    let id = &fifteen_ids()[2];
    let mut win = Window::open_with(program, &display.name, id, (40, 30), &env);
    win.resize(520, 600);
    shots.push((id.clone(), "a 520x600 window".into(), win.grab()));
    shots
}

/// Read exactly at sgt's own size; scaled after the fact (0.75× to 2×), read
/// exactly or refused, never misread.
fn read_in_font(cal: &Calibration, shots: &[(String, String, RgbImage)], family: &str) {
    let solve = |img: &RgbImage| {
        FIFTEEN
            .solve_image(img, cal, &Default::default())
            .expect("a report")
    };
    for (id, what, shot) in shots {
        let what = format!("{id} in {family}, {what}");
        check_read(&solve(shot), id, &what);
        for (k, pad) in [(0.75, 20), (1.5, 30), (2.0, 5)] {
            let r = solve(&variant(shot, k, pad, [40, 44, 52]));
            if r.state == Verdict::Playable {
                check_read(&r, id, &format!("{what}, scaled {k}"));
            } else {
                assert_refused(&r, &format!("{what}, scaled {k}"));
            }
        }
    }
}

#[test]
fn reads_sgt_with_no_calibration_in_each_common_desktop_font() {
    let builtin = FIFTEEN.load_calibration(None).expect("built in");
    for (k, family) in COMMON_SANS.into_iter().enumerate() {
        let Some((display, program, conf, _dir)) = in_font(family, 65 + k as u32) else {
            continue;
        };
        let shots = shots_in(&display, &program, &conf);
        read_in_font(&builtin, &shots, family);
    }
}

#[test]
fn another_font_is_read_after_one_calibrate() {
    // A serif face: none of the common desktop sans faces boardbot draws
    // numbers in, and unlike them all.
    let family = "DejaVu Serif";
    let Some((display, program, conf, dir)) = in_font(family, 69) else {
        return;
    };
    let shots = shots_in(&display, &program, &conf);
    let builtin = FIFTEEN.load_calibration(None).expect("built in");
    for (id, what, shot) in &shots {
        let r = FIFTEEN
            .solve_image(shot, &builtin, &Default::default())
            .expect("a report");
        if r.state == Verdict::Playable {
            check_read(&r, id, &format!("{id} in {family}, {what}, not calibrated"));
        } else {
            assert_refused(&r, &format!("{id} in {family}, {what}, not calibrated"));
        }
    }
    let (id, _, shot) = &shots[0];
    let file = calibrate_fifteen_on(shot, id, dir.path());
    let cal = FIFTEEN
        .load_calibration(Some(&file))
        .expect("the learnt calibration");
    read_in_font(&cal, &shots[1..], family);
}

/// The centre of cell `slot`'s rectangle in the lattice of `r`.
fn centre(r: &Report, width: usize, slot: usize) -> (i32, i32) {
    let l = &r.seen.grid.as_ref().unwrap().lattice;
    let (x, y) = l.cell(slot / width, slot % width).centre();
    (x.round() as i32, y.round() as i32)
}

#[test]
fn a_cut_selection_and_a_tile_mid_slide_are_refused() {
    let Some(s) = Fifteen::setup(64) else {
        return;
    };
    let id = &fifteen_ids()[1];
    let win = s.open(id, (40, 30));
    let shot = win.grab();
    let r = s.solve(&shot);
    let l = r.seen.grid.as_ref().unwrap().lattice.clone();
    // A selection through the board's second column and last row.
    let (x0, y1) = (l.xs[1] + 3.0, l.ys[3] - 5.0);
    let cut =
        imageops::crop_imm(&shot, x0 as u32, 0, shot.width() - x0 as u32, y1 as u32).to_image();
    assert_refused(&s.solve(&cut), "a cut board");
    // Synthetic mid-slide: a tile next to the gap drawn half way into it,
    // its old place grey, as sgt's animation draws it.
    let t = tiles(id);
    let (slide, from) = Slide::ALL
        .into_iter()
        .find_map(|d| t.source(d).map(|f| (d, f)))
        .expect("a tile next to the gap");
    let (dx, dy) = slide.source();
    let (tx, ty) = (l.xs[from % 3], l.ys[from / 3]);
    let pitch = l.xs[1] - l.xs[0];
    let tile =
        imageops::crop_imm(&shot, tx as u32, ty as u32, pitch as u32, pitch as u32).to_image();
    let mut moving = shot.clone();
    let grey = read::face_grey(&s.cal).to_u8();
    let blank = RgbImage::from_pixel(pitch as u32, pitch as u32, Rgb(grey));
    imageops::replace(&mut moving, &blank, tx as i64, ty as i64);
    let half = |d: i32| -f64::from(d) * pitch / 2.0;
    imageops::replace(
        &mut moving,
        &tile,
        (tx + half(dx)) as i64,
        (ty + half(dy)) as i64,
    );
    let r = s.solve(&moving);
    assert_refused(&r, "a tile half way into the gap");
    assert!(r.reason.contains("cell"), "{}", r.reason);
    // A real slide: grab while sgt animates it; every read is the board
    // before or after the slide, or refused.
    let after = read::rows(&t.slide(slide).unwrap());
    let (x, y) = centre(&s.solve(&shot), 3, from);
    win.click(x, y);
    let mut states = Vec::new();
    let t0 = std::time::Instant::now();
    // sgt animates a slide for 0.13 s: look for 0.6 s.
    while t0.elapsed() < std::time::Duration::from_millis(600) {
        let r = s.solve(&win.grab());
        if r.state == Verdict::Playable {
            let cells = &r.board.as_ref().unwrap().cells;
            assert!(
                *cells == read::rows(&t) || *cells == after,
                "mid-slide read {cells:?}"
            );
        }
        states.push(r.state.name());
    }
    let refused = states.iter().filter(|&&s| s != "playable").count();
    println!(
        "{} reads during and after the slide, {refused} refused (mid-slide), the rest the board before or after",
        states.len()
    );
    assert_eq!(states.last(), Some(&"playable"), "the slide never ended");
}

#[test]
fn a_duplicated_number_and_the_win_flash_are_refused() {
    let Some(s) = Fifteen::setup(65) else {
        return;
    };
    let id = &fifteen_ids()[5];
    let win = s.open(id, (40, 30));
    let shot = win.grab();
    let r = s.solve(&shot);
    let l = r.seen.grid.as_ref().unwrap().lattice.clone();
    let pitch = (l.xs[1] - l.xs[0]) as u32;
    // Cell (0,0)'s tile drawn over cell (0,1)'s too.
    let tile = imageops::crop_imm(&shot, l.xs[0] as u32, l.ys[0] as u32, pitch, pitch).to_image();
    let mut twice = shot.clone();
    imageops::replace(&mut twice, &tile, l.xs[1] as i64, l.ys[0] as i64);
    let r = s.solve(&twice);
    assert_refused(&r, "a number twice");
    assert!(r.reason.contains("missing"), "{}", r.reason);
    let issues: Vec<[usize; 2]> = r.unreadable.iter().map(|i| i.cell).collect();
    assert!(
        issues.contains(&[0, 0]) && issues.contains(&[0, 1]),
        "{issues:?}"
    );
    // The win flash: every face in the bevels' light grey.
    let grey = read::face_grey(&s.cal);
    let mut flash = shot.clone();
    for p in flash.pixels_mut() {
        if boardbot::vision::color::Rgb::from_u8(p.0).distance(grey) < 4.0 {
            *p = Rgb([255, 255, 255]);
        }
    }
    assert_refused(&s.solve(&flash), "the win flash");
}

#[test]
fn a_calibration_from_a_3x3_reads_3x3s_and_names_the_numbers_it_lacks() {
    let Some(s) = Fifteen::setup(66) else {
        return;
    };
    let ids = fifteen_ids();
    let small = s.open(&ids[1], (40, 30));
    let base = FIFTEEN.load_calibration(None).expect("built in");
    let learned = FIFTEEN
        .learn(&small.grab(), &ids[1], &base.params, false)
        .expect("learns 1-8 from a 3x3");
    let learnt = Reader {
        screen: &FIFTEEN,
        cal: Calibration {
            params: learned.params,
            ..base
        },
    };
    check_read(
        &learnt.solve(&small.grab()),
        &ids[1],
        "3x3 calibration, 3x3",
    );
    drop(small);
    let big = s.open(&ids[2], (40, 30));
    let r = learnt.solve(&big.grab());
    assert_refused(&r, "3x3 calibration, 4x4");
    assert!(
        r.reason
            .contains("no template for tile(s) 9, 10, 11, 12, 13, 14, 15"),
        "{}",
        r.reason
    );
}
