//! The GNOME Klotski reader on captures of the real game, taken at test
//! time (GNOME's art is not ours to commit): gnome-klotski runs on a
//! private Xvfb display with private settings (tests/common/klotski.rs),
//! one level at a time, and each test grabs its window.
//!
//! Checked: levels of many sizes (6x9 to Sunshine's 17x22 and Ithaca's
//! 19x19, the big ones in a bigger window) read exactly as the level's
//! layout at 1x, scaled 0.75x, 1.5x and 2x, and set on a dark page with
//! margins (at 0.5x: exactly, or refused); a position after a few real drags reads as the pieces moved;
//! a capture taken while a piece is held (mouse button down, mid-drag) is
//! refused, naming the held piece's cells; a board covered by a black
//! window (as the Congratulations dialog shows in a capture) is refused.
//! When Xvfb, xdotool or gnome-klotski is missing the tests say so and
//! skip, except in CI.
#![cfg(feature = "live")]

mod common;

use std::time::Duration;

use boardbot::calibration::Calibration;
use boardbot::engines::blocks::Layout;
use boardbot::games::klotski::levels;
use boardbot::games::klotski::read::{self, LOOKS, Read};
use common::display::{Display, have_xdotool, xdotool, xvfb};
use common::klotski::{Klotski, available};
use common::recorded::variant;
use common::{padded, rescaled};
use image::RgbImage;

/// One test at a time: five games starting at once on two cores can miss
/// the launcher's wait for the board.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn setup(tag: u32) -> Option<(std::sync::MutexGuard<'static, ()>, Display)> {
    let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    if !available() || !have_xdotool() {
        return None;
    }
    xvfb(tag).map(|d| (turn, d))
}

fn cal() -> Calibration {
    Calibration::embedded(LOOKS[0], "klotski").expect("the built-in calibration")
}

/// The window size a level is opened in: the big ones get a bigger window
/// (the keyfile's window-width/window-height), as a player would.
fn size(level: usize) -> Option<(u32, u32)> {
    matches!(level, 19 | 27).then_some((900, 1000))
}

fn describe(r: &Read) -> String {
    match r {
        Read::Board { board, .. } => format!(
            "read as {}:\n{}",
            board.level.name,
            board.layout.rows().join("\n")
        ),
        Read::Uncertain { reason, grid, .. } => {
            format!("refused: {reason}\n{}", grid.rows().join("\n"))
        }
        Read::NoBoard { reason, .. } => format!("no board: {reason}"),
    }
}

/// The read is `want` exactly, on level `index`.
fn check(img: &RgbImage, want: &Layout, index: usize, what: &str) {
    let r = read::read(img, &cal());
    match &r {
        Read::Board { board, .. } if board.level.index == index && &board.layout == want => {}
        _ => panic!(
            "{what}: {}\nwanted:\n{}",
            describe(&r),
            want.rows().join("\n")
        ),
    }
}

/// Refused (a board not to act on), and the reason.
fn refused(img: &RgbImage, what: &str) -> (String, Vec<[usize; 2]>) {
    match read::read(img, &cal()) {
        Read::Uncertain { reason, issues, .. } => (reason, issues.iter().map(|i| i.cell).collect()),
        Read::NoBoard { reason, .. } => (reason, Vec::new()),
        r => panic!("{what}: not refused: {}", describe(&r)),
    }
}

/// Reads level `index` at 1x, scaled and with margins.
fn check_level(d: &Display, index: usize) {
    let level = &levels::all()[index];
    let want = level.layout();
    let k = Klotski::open(&d.name, index, size(index));
    let shot = k.grab();
    let name = level.name;
    check(&shot, &want, index, &format!("{name}, 1x"));
    for (s, pad) in [(0.75, 20), (1.5, 30), (2.0, 5)] {
        let img = variant(&shot, s, pad, [40, 44, 52]);
        check(&img, &want, index, &format!("{name}, {s}x, margin {pad}"));
    }
    // Half size (cells of 12 to 24 px): read right or refused, never wrong.
    let img = variant(&shot, 0.5, 10, [40, 44, 52]);
    if let Read::Board { .. } = read::read(&img, &cal()) {
        check(&img, &want, index, &format!("{name}, 0.5x"));
    }
    let img = padded(&shot, [7, 50, 33, 2], [20, 20, 20]);
    check(&img, &want, index, &format!("{name}, dark margins"));
}

#[test]
fn reads_huarong_levels_and_challenges_of_every_size() {
    let Some((_turn, d)) = setup(71) else {
        return;
    };
    // 6x9, 7x7, 9x6, 7x10, 11x8, 6x8.
    for index in [0, 9, 10, 12, 16, 24] {
        check_level(&d, index);
    }
}

#[test]
fn reads_big_levels() {
    let Some((_turn, d)) = setup(72) else {
        return;
    };
    // 15x8, 10x12, Sunshine 17x22 and Ithaca 19x19 in a bigger window.
    for index in [21, 25, 27, 19] {
        check_level(&d, index);
    }
}

/// Drags with the mouse from cell `from` through `cells` (4-connected),
/// in steps of a quarter cell as GNOME needs; `release` ends the drag.
fn drag(d: &Display, k: &Klotski, size: (usize, usize), path: &[(usize, usize)], release: bool) {
    let (cols, rows) = size;
    let at = |(r, c): (usize, usize)| k.centre(cols, rows, r, c);
    let (x, y) = at(path[0]);
    xdotool(d, &["mousemove", &x.to_string(), &y.to_string()]);
    std::thread::sleep(Duration::from_millis(50));
    xdotool(d, &["mousedown", "1"]);
    let mut here = (x, y);
    for &cell in &path[1..] {
        let to = at(cell);
        for i in 1..=4 {
            let p = (
                here.0 + (to.0 - here.0) * i / 4,
                here.1 + (to.1 - here.1) * i / 4,
            );
            xdotool(d, &["mousemove", &p.0.to_string(), &p.1.to_string()]);
            std::thread::sleep(Duration::from_millis(15));
        }
        here = to;
    }
    if release {
        xdotool(d, &["mouseup", "1"]);
    }
    std::thread::sleep(Duration::from_millis(150));
}

#[test]
fn reads_a_position_after_drags_and_refuses_a_held_piece() {
    let Some((_turn, d)) = setup(73) else {
        return;
    };
    // Red Donkey: h right one cell, then g down one.
    let k = Klotski::open(&d.name, 6, None);
    drag(&d, &k, (6, 9), &[(5, 1), (5, 2)], true);
    drag(&d, &k, (6, 9), &[(4, 3), (5, 3)], true);
    // Pieces of one shape are labelled in reading order.
    let want = Layout::parse(
        "######\n#a**b#\n#a**b#\n#cdde#\n#cf e#\n#_ghi#\n##--##\n____..\n____..\n",
        "after two drags",
    )
    .expect("a layout");
    let shot = k.grab();
    check(&shot, &want, 6, "Red Donkey after two drags");
    check(
        &variant(&shot, 1.5, 12, [40, 44, 52]),
        &want,
        6,
        "after two drags, 1.5x",
    );
    // Press on f (4,2) and move it right a cell, button still down: GNOME
    // lights the held piece until the button is released.
    drag(&d, &k, (6, 9), &[(4, 2), (4, 3)], false);
    let held = k.grab();
    xdotool(&d, &["mouseup", "1"]);
    let (why, cells) = refused(&held, "mid-drag");
    assert!(why.contains("held"), "{why}");
    assert_eq!(cells, vec![[4, 3]], "{why}");
    let (why, cells) = refused(&rescaled(&held, 0.75), "mid-drag, 0.75x");
    assert!(why.contains("held"), "{why}");
    assert_eq!(cells, vec![[4, 3]], "{why}");
}

#[test]
fn refuses_a_board_under_a_black_window() {
    let Some((_turn, d)) = setup(74) else {
        return;
    };
    let k = Klotski::open(&d.name, 0, None);
    let mut shot = k.grab();
    // GNOME's Congratulations dialog opens over the board and shows black in
    // a capture without a compositor: a black window over a third of it.
    let (fx, fy, fw, fh) = k.frame;
    let (wx, wy) = (fx - k.rect.0, fy - k.rect.1);
    let (iw, ih) = (shot.width() as i32, shot.height() as i32);
    for y in wy + fh as i32 / 3..wy + fh as i32 * 2 / 3 {
        for x in (wx - 30).max(0)..(wx + fw as i32 + 30).min(iw) {
            shot.put_pixel(x as u32, y as u32, image::Rgb([0, 0, 0]));
        }
    }
    let (why, _) = refused(&shot, "black window over the board");
    assert!(!why.is_empty());
    // Over a corner only: the board shows, its covered cells are named.
    let mut corner = k.grab();
    for y in wy + fh as i32 / 2..(wy + fh as i32 + 40).min(ih) {
        for x in wx + fw as i32 / 2..(wx + fw as i32 + 40).min(iw) {
            corner.put_pixel(x as u32, y as u32, image::Rgb([0, 0, 0]));
        }
    }
    let (why, _) = refused(&corner, "black window over a corner");
    assert!(!why.is_empty());
}

/// `boardbot calibrate` on a capture of a known level: learns a
/// calibration that reads other levels; on the wrong level it writes
/// nothing and says why.
#[test]
fn calibrates_from_a_capture_of_a_known_level() {
    let Some((_turn, d)) = setup(75) else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let shot = dir.path().join("red-donkey.png");
    let k = Klotski::open(&d.name, 6, None);
    k.grab().save(&shot).expect("save");
    let out_dir = dir.path().join("cal");
    let run = |board: &str| {
        common::boardbot(&[
            "calibrate",
            "--game",
            "klotski",
            "--image",
            shot.to_str().expect("utf-8"),
            "--board",
            board,
            "--out",
            out_dir.to_str().expect("utf-8"),
        ])
    };
    // Only 18 Steps is not what the screenshot shows: refused, nothing written.
    let wrong = run("gnome:0");
    assert!(!wrong.status.success(), "{}", common::display::show(&wrong));
    assert!(!out_dir.join("klotski.toml").exists());
    // It names what the screenshot shows instead of a cell of no meaning.
    let said = String::from_utf8_lossy(&wrong.stderr);
    assert!(
        said.contains("another position") && said.contains("Red Donkey"),
        "{said}"
    );
    let ok = run("gnome:Red Donkey");
    assert!(ok.status.success(), "{}", common::display::show(&ok));
    let file = out_dir.join("klotski.toml");
    let learnt = Calibration::load(&file, "klotski").expect("the learnt calibration");
    let other = Klotski::open(&d.name, 16, None);
    let want = levels::all()[16].layout();
    match read::read(&other.grab(), &learnt) {
        Read::Board { board, .. } => assert_eq!(board.layout, want),
        r => panic!("Shark with the learnt calibration: {}", describe(&r)),
    }
    // `solve --image` with it on Only 18 Steps (Shark's search is long):
    // the board read, and the plan in GNOME's counter's metric.
    drop(other);
    let easy = Klotski::open(&d.name, 0, None);
    let want = levels::all()[0].layout();
    let shot2 = dir.path().join("only-18-steps.png");
    easy.grab().save(&shot2).expect("save");
    let out = common::boardbot(&[
        "solve",
        "--game",
        "klotski",
        "--image",
        shot2.to_str().expect("utf-8"),
        "--calibration",
        file.to_str().expect("utf-8"),
        "--json",
    ]);
    let v = common::stdout_json(&out);
    assert_eq!(v["state"], "playable", "{v}");
    let cells: Vec<String> = v["board"]["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .map(|c| c.as_str().unwrap_or("").to_string())
        .collect();
    assert_eq!(cells, want.rows());
    assert_eq!(v["plan"]["metric"], "pieces", "{v}");
    assert_eq!(v["plan"]["pieces"], 18, "{v}");
}
