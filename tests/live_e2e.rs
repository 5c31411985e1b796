//! End to end on a real X server: start Xvfb, open the practice board at a
//! known place, run `boardbot play` against it, and judge the result from
//! the practice window's own record of every click it received.
//!
//! Each test starts its own Xvfb display. When Xvfb is not installed the
//! tests say so and pass (CI installs it: see `.ci/deps`).
#![cfg(feature = "live")]

mod common;

use common::display::{have, region_around};
use common::live::{
    Display, Practice, boardbot, have_xdotool, play, rect, show, wait_output, xdotool, xvfb,
};

use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

/// The Troyis practice window: a generated level of `size` cells a side.
fn open(display: &Display, size: usize, pitch: u32, seed: u64) -> Practice {
    let level = [size.to_string(), pitch.to_string(), seed.to_string()];
    let flags = [
        "--size", &level[0], "--pitch", &level[1], "--seed", &level[2],
    ];
    Practice::open(display, "troyis", &flags, &[])
}

/// The board's outer rectangle on screen: `(x, y, pitch, side)`.
fn board(p: &Practice) -> (f64, f64, f64, f64) {
    let l = &p.session()["lattice"];
    let pitch = l["pitch"].as_f64().unwrap();
    (
        l["x"].as_f64().unwrap(),
        l["y"].as_f64().unwrap(),
        pitch,
        pitch * l["cols"].as_f64().unwrap(),
    )
}

/// Plays the practice board once through `region` and checks the level
/// was solved with one move per target, every click inside the region.
fn play_and_check(display: &Display, practice: &Practice, region: &str) {
    let out = play(
        display,
        Some("troyis"),
        region,
        &["--once", "--delay-ms", "15"],
    )
    .output()
    .expect("run play");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let r = practice.wait_until(|r| r["solved"] == true, "the level to be solved");
    assert_eq!(r["moves"], r["targets"], "one move per target: {r}");
    assert_eq!(r["revisits"], 0);
    assert_eq!(r["illegal"], 0, "every click was a legal move: {r}");
    let (rx, ry, rw, rh) = rect(region);
    for c in r["clicks"].as_array().unwrap() {
        let (x, y) = (c["x"].as_i64().unwrap(), c["y"].as_i64().unwrap());
        assert!(
            x >= rx && y >= ry && x < rx + rw && y < ry + rh,
            "click ({x},{y}) outside the region {region}"
        );
        assert!(!c["cell"].is_null(), "click ({x},{y}) missed the board");
    }
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("now reads as solved"),
        "{}",
        show(&out)
    );
}

#[test]
fn plays_the_practice_board_at_three_sizes() {
    let Some(display) = xvfb(1) else { return };
    for (size, pitch, seed) in [(5, 52, 11), (7, 44, 12), (9, 40, 13), (12, 30, 14)] {
        let practice = open(&display, size, pitch, seed);
        let (x, y, _, side) = board(&practice);
        play_and_check(&display, &practice, &region_around(x, y, side, 3.0));
    }
}

#[test]
fn plays_through_a_selection_with_a_wide_margin() {
    let Some(display) = xvfb(2) else { return };
    let practice = open(&display, 8, 42, 21);
    let (x, y, _, side) = board(&practice);
    // The selection takes in the desktop, the window's frame and its status bar.
    play_and_check(&display, &practice, &region_around(x, y, side, 45.0));
}

#[test]
fn the_abort_key_stops_the_replay() {
    let Some(display) = xvfb(3) else { return };
    if !have_xdotool() {
        return;
    }
    let practice = open(&display, 9, 40, 31);
    let (x, y, _, side) = board(&practice);
    let region = region_around(x, y, side, 3.0);
    let mut play = start_play(&display, &region, &["--once", "--delay-ms", "250"]);
    practice.wait_until(|r| r["moves"].as_u64().unwrap_or(0) >= 3, "the first moves");
    let before = practice.session()["clicks"].as_array().map_or(0, Vec::len);
    xdotool(&display, &["key", "Escape"]);
    let t = Instant::now();
    let status = loop {
        if let Some(s) = play.try_wait().expect("wait") {
            break s;
        }
        assert!(
            t.elapsed() < Duration::from_secs(10),
            "play did not stop after the abort key"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = play.wait_with_output().expect("output");
    assert_eq!(status.code(), Some(4), "{}", show(&out));
    std::thread::sleep(Duration::from_millis(600));
    let r = practice.session();
    assert_eq!(r["solved"], false, "{r}");
    let moves = r["moves"].as_u64().unwrap();
    assert!(moves < r["targets"].as_u64().unwrap(), "{r}");
    // Stopped within one click of the key: at most the click already on its way.
    let after = r["clicks"].as_array().unwrap().len();
    assert!(
        after <= before + 1,
        "{before} clicks before the abort key, {after} after: it came too late"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Aborted"),
        "{}",
        show(&out)
    );
}

/// A play that loses its game half way: `cover` opens another practice
/// window over the game (or, with `false`, closes the game, showing the
/// one put beneath it first). The play stops at once with a clear message,
/// and the other window gets no click.
fn stops_when_the_game_goes(tag: u32, cover: bool) {
    let Some(display) = xvfb(tag) else { return };
    let beneath = (!cover).then(|| open(&display, 9, 40, 38));
    let practice = open(&display, 9, 40, 37);
    let (x, y, _, side) = board(&practice);
    let region = region_around(x, y, side, 3.0);
    let child = start_play(&display, &region, &["--once", "--delay-ms", "300"]);
    practice.wait_until(|r| r["moves"].as_u64().unwrap_or(0) >= 2, "the first moves");
    let (other, before) = if cover {
        let other = open(&display, 9, 40, 39);
        let before = practice.session()["moves"].as_u64().unwrap();
        (other, before)
    } else {
        let before = practice.session()["moves"].as_u64().unwrap();
        drop(practice);
        (beneath.expect("opened beneath"), before)
    };
    let out = wait_output(child, 20);
    assert_eq!(out.status.code(), Some(3), "{}", show(&out));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("the game's window is gone"),
        "{}",
        show(&out)
    );
    std::thread::sleep(Duration::from_millis(500));
    let r = other.session();
    assert_eq!(
        r["clicks"],
        serde_json::json!([]),
        "input went to another window: {r}"
    );
    assert!(before >= 2, "{before}");
}

#[test]
fn the_play_stops_when_another_window_covers_the_game() {
    stops_when_the_game_goes(18, true);
}

#[test]
fn the_play_stops_when_the_game_closes() {
    stops_when_the_game_goes(19, false);
}

#[test]
fn dry_run_clicks_are_the_cells_screen_centres() {
    let Some(display) = xvfb(4) else { return };
    let practice = open(&display, 7, 46, 41);
    let (x, y, pitch, side) = board(&practice);
    let region = region_around(x, y, side, 20.0);
    let (_, v) = dry_run_json(&display, &region);
    assert_eq!(v["state"], "playable");
    let actions = v["actions"].as_array().expect("actions");
    assert!(!actions.is_empty());
    for a in actions {
        let (r, c) = (
            a["cell"][0].as_f64().unwrap(),
            a["cell"][1].as_f64().unwrap(),
        );
        let (cx, cy) = (x + (c + 0.5) * pitch, y + (r + 0.5) * pitch);
        let (ax, ay) = (a["x"].as_f64().unwrap(), a["y"].as_f64().unwrap());
        assert!(
            (ax - cx).abs() <= 0.2 * pitch && (ay - cy).abs() <= 0.2 * pitch,
            "click ({ax},{ay}) is not at cell ({r},{c})'s centre ({cx:.1},{cy:.1})"
        );
    }
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        practice.session()["clicks"],
        serde_json::json!([]),
        "a dry run sent clicks"
    );
}

#[test]
fn plays_on_a_hidpi_desktop() {
    let Some(display) = xvfb(5) else { return };
    if !have("xrdb") {
        common::skip("xrdb is not installed (sudo .ci/deps installs it)");
        return;
    }
    // A desktop scaled 2×: xcap reports the monitor in logical units, half
    // the real pixels, and boardbot must still click the right pixels.
    let mut xrdb = Command::new("xrdb")
        .args(["-merge"])
        .env("DISPLAY", &display.name)
        .stdin(Stdio::piped())
        .spawn()
        .expect("xrdb");
    use std::io::Write;
    xrdb.stdin
        .take()
        .expect("stdin")
        .write_all(b"Xft.dpi: 192\n")
        .expect("write");
    assert!(xrdb.wait().expect("xrdb").success());
    let practice = open(&display, 7, 60, 51);
    let (x, y, _, side) = board(&practice);
    let region = region_around(x, y, side, 10.0);
    let out = boardbot(
        &display,
        &[
            "play",
            "--game",
            "troyis",
            "--once",
            "--json",
            "--region",
            &region,
            "--delay-ms",
            "15",
        ],
    )
    .output()
    .expect("run play");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let v = common::stdout_json(&out);
    assert_eq!(
        v["screen"]["scale"], 2.0,
        "the desktop scale was not seen: {}",
        v["screen"]
    );
    assert_eq!(v["outcome"]["after"], "solved", "{}", show(&out));
    let r = practice.wait_until(|r| r["solved"] == true, "the level to be solved");
    assert_eq!(r["moves"], r["targets"]);
    assert_eq!(r["illegal"], 0);
}

/// `play --once --dry-run --json` on `region`: its output, checked for
/// exit code 0, and its JSON.
fn dry_run_json(display: &Display, region: &str) -> (Output, Value) {
    let out = play(
        display,
        Some("troyis"),
        region,
        &["--once", "--dry-run", "--json"],
    )
    .output()
    .expect("run play");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let v = common::stdout_json(&out);
    (out, v)
}

/// Starts `play --game troyis --region REGION EXTRA…` with its output piped.
fn start_play(display: &Display, region: &str, extra: &[&str]) -> Child {
    play(display, Some("troyis"), region, extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start play")
}

/// The product's main flow on a bare X server (no window manager): drag a
/// rectangle over the board on the overlay, and boardbot plays it for
/// real. The overlay must be gone before the first click, or the clicks
/// land on it; with `named`, the game is named, else recognised.
fn drag_then_play(tag: u32, named: bool) {
    let Some(display) = xvfb(tag) else { return };
    if !have_xdotool() {
        return;
    }
    let config = tempfile::tempdir().unwrap();
    let practice = open(&display, 7, 44, 63);
    let (x, y, _, side) = board(&practice);
    let (x0, y0) = ((x - 10.0) as i32, (y - 10.0) as i32);
    let (x1, y1) = ((x + side + 10.0) as i32, (y + side + 10.0) as i32);
    let mut args = vec!["play", "--once", "--delay-ms", "15"];
    if named {
        args.extend_from_slice(&["--game", "troyis"]);
    }
    let child = boardbot(&display, &args)
        .env("BOARDBOT_CONFIG_DIR", config.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start play");
    std::thread::sleep(Duration::from_millis(2500));
    common::live::drag(&display, (x0, y0), (x1, y1));
    let out = wait_output(child, 30);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let r = practice.wait_until(|r| r["solved"] == true, "the level to be solved");
    assert_eq!(r["moves"], r["targets"], "one move per target: {r}");
    assert_eq!(r["illegal"], 0, "{r}");
    let clicks = r["clicks"].as_array().unwrap();
    assert_eq!(clicks.len() as u64, r["moves"].as_u64().unwrap(), "{r}");
    for c in clicks {
        let (cx, cy) = (c["x"].as_i64().unwrap(), c["y"].as_i64().unwrap());
        assert!(
            cx >= i64::from(x0) && cy >= i64::from(y0) && cx < i64::from(x1) && cy < i64::from(y1),
            "click ({cx},{cy}) outside the selection"
        );
    }
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("now reads as solved"),
        "{}",
        show(&out)
    );
}

#[test]
fn a_board_selected_by_dragging_is_played_for_real() {
    drag_then_play(16, true);
}

#[test]
fn a_board_selected_by_dragging_is_recognised_and_played_with_no_game_named() {
    drag_then_play(17, false);
}

#[test]
fn selects_by_dragging_then_by_keys_and_remembers_the_region() {
    let Some(display) = xvfb(6) else { return };
    if !have_xdotool() {
        return;
    }
    let config = tempfile::tempdir().unwrap();
    let practice = open(&display, 6, 44, 61);
    let (x, y, _, side) = board(&practice);
    let (x0, y0, x1, y1) = (
        (x - 12.0) as i32,
        (y - 12.0) as i32,
        (x + side + 12.0) as i32,
        (y + side + 12.0) as i32,
    );
    let play = |extra: &[&str]| {
        let mut args = vec!["play", "--game", "troyis", "--once", "--dry-run", "--json"];
        args.extend_from_slice(extra);
        boardbot(&display, &args)
            .env("BOARDBOT_CONFIG_DIR", config.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start play")
    };

    // 1. The overlay: drag from one corner of the board to the other.
    let child = play(&[]);
    std::thread::sleep(Duration::from_millis(2500));
    xdotool(
        &display,
        &[
            "mousemove",
            &x0.to_string(),
            &y0.to_string(),
            "mousedown",
            "1",
        ],
    );
    xdotool(
        &display,
        &[
            "mousemove",
            &((x0 + x1) / 2).to_string(),
            &((y0 + y1) / 2).to_string(),
        ],
    );
    xdotool(
        &display,
        &[
            "mousemove",
            &x1.to_string(),
            &y1.to_string(),
            "mouseup",
            "1",
        ],
    );
    let out = wait_output(child, 20);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let v = common::stdout_json(&out);
    let dragged = serde_json::json!({"x": x0, "y": y0, "w": x1 - x0, "h": y1 - y0});
    assert_eq!(v["region"], dragged, "{}", show(&out));
    assert_eq!(v["state"], "playable");
    let stored = std::fs::read_to_string(config.path().join("regions.toml"))
        .expect("the region was remembered");
    assert!(
        stored.contains(&format!("{x0},{y0},{},{}", x1 - x0, y1 - y0)),
        "{stored}"
    );

    // 2. The next run reuses it without asking.
    let out = wait_output(play(&[]), 20);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    assert_eq!(common::stdout_json(&out)["region"], dragged);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("remembered"),
        "{}",
        show(&out)
    );

    // 3. The keyboard fallback: hover a corner, press the hotkey; twice.
    let child = play(&["--select", "keys", "--reselect", "--hotkey", "F8"]);
    std::thread::sleep(Duration::from_millis(1500));
    xdotool(
        &display,
        &["mousemove", &(x0 + 2).to_string(), &(y0 + 2).to_string()],
    );
    xdotool(&display, &["key", "F8"]);
    std::thread::sleep(Duration::from_millis(300));
    xdotool(
        &display,
        &["mousemove", &(x1 + 2).to_string(), &(y1 + 2).to_string()],
    );
    xdotool(&display, &["key", "F8"]);
    let out = wait_output(child, 20);
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let v = common::stdout_json(&out);
    assert_eq!(
        v["region"],
        serde_json::json!({"x": x0 + 2, "y": y0 + 2, "w": x1 - x0, "h": y1 - y0})
    );
    assert_eq!(v["state"], "playable");
    assert_eq!(
        practice.session()["clicks"],
        serde_json::json!([]),
        "dry runs sent clicks"
    );
}

#[test]
fn refuses_a_selection_that_cuts_the_board_and_saves_what_it_saw() {
    let Some(display) = xvfb(7) else { return };
    let practice = open(&display, 8, 40, 71);
    let (x, y, pitch, side) = board(&practice);
    let saved = tempfile::tempdir().unwrap();
    // Half a column and half a row cut off.
    let region = format!(
        "{},{},{},{}",
        (x + 0.5 * pitch) as i64,
        (y + 0.5 * pitch) as i64,
        side as i64,
        side as i64
    );
    let out = boardbot(
        &display,
        &[
            "play", "--game", "troyis", "--once", "--region", &region, "--json",
        ],
    )
    .env("BOARDBOT_SAVE_DIR", saved.path())
    .output()
    .expect("run play");
    assert_eq!(out.status.code(), Some(3), "{}", show(&out));
    let v = common::stdout_json(&out);
    assert_eq!(v["actions"], serde_json::json!([]));
    assert_eq!(v["outcome"]["kind"], "refused");
    let files: Vec<_> = std::fs::read_dir(saved.path()).unwrap().collect();
    assert_eq!(files.len(), 2, "the capture and the debug image are saved");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        practice.session()["clicks"],
        serde_json::json!([]),
        "no input was sent"
    );
}

#[test]
fn a_region_may_start_left_of_and_above_the_screen() {
    let Some(display) = xvfb(8) else { return };
    let practice = open(&display, 6, 40, 81);
    let (x, y, _, side) = board(&practice);
    // Negative numbers are values, not flags; the part off the screen is clipped.
    let (w, h) = ((x + side + 10.0) as i64 + 10, (y + side + 10.0) as i64 + 10);
    let region = format!("-10,-10,{w},{h}");
    let (out, v) = dry_run_json(&display, &region);
    assert_eq!(v["state"], "playable", "{}", show(&out));
    assert_eq!(v["region"]["x"], -10);
}

#[test]
fn the_hotkey_starts_a_play() {
    let Some(display) = xvfb(9) else { return };
    if !have_xdotool() {
        return;
    }
    let practice = open(&display, 7, 44, 91);
    let (x, y, _, side) = board(&practice);
    let region = region_around(x, y, side, 3.0);
    let mut play = start_play(&display, &region, &["--delay-ms", "15", "--timings"]);
    // Once it says it is ready the key is grabbed: press it as a user would.
    let stderr = play.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
        {
            let _ = tx.send(line);
        }
    });
    let t = Instant::now();
    loop {
        let left = Duration::from_secs(20).saturating_sub(t.elapsed());
        let line = rx.recv_timeout(left).expect("play never said it was ready");
        if line.starts_with("Ready on") {
            break;
        }
    }
    xdotool(&display, &["key", "F9"]);
    let r = practice.wait_until(|r| r["solved"] == true, "the level to be solved");
    assert_eq!(r["moves"], r["targets"], "{r}");
    assert_eq!(r["illegal"], 0, "{r}");
    // It keeps waiting for the hotkey: stop it and read what it printed.
    let out = wait_output(play, 2);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("now reads as solved"), "{}", show(&out));
    assert!(text.contains("trigger to first input"), "{}", show(&out));
}

#[test]
fn says_once_when_it_cannot_save_what_it_saw() {
    let Some(display) = xvfb(10) else { return };
    let practice = open(&display, 6, 40, 101);
    let (x, y, pitch, side) = board(&practice);
    let blocker = tempfile::NamedTempFile::new().unwrap();
    // A directory below a plain file can never be created.
    let dir = blocker.path().join("seen");
    let region = format!(
        "{},{},{},{}",
        (x + 0.5 * pitch) as i64,
        (y + 0.5 * pitch) as i64,
        side as i64,
        side as i64
    );
    let out = boardbot(
        &display,
        &["play", "--game", "troyis", "--once", "--region", &region],
    )
    .args(["--save-dir", dir.to_str().unwrap()])
    .output()
    .expect("run play");
    assert_eq!(out.status.code(), Some(3), "{}", show(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.matches("cannot save what was seen in").count(),
        1,
        "{}",
        show(&out)
    );
    assert!(err.contains(dir.to_str().unwrap()), "{}", show(&out));
}

/// Typed input on a real X server: a window of the test's own records
/// every event, and the replay's clicks, drags and keys must arrive as sent.
#[cfg(all(unix, not(target_os = "macos")))]
mod typed_input {
    use std::time::{Duration, Instant};

    use boardbot::geom::Rect;
    use boardbot::input::replay::{Input, Replayed};
    use boardbot::input::{Action, KeyCode, Modifier, check_plan};
    use x11rb::connection::Connection;
    use x11rb::protocol::Event;
    use x11rb::protocol::xproto::{ConnectionExt, CreateWindowAux, EventMask, WindowClass};
    use x11rb::rust_connection::RustConnection;

    /// The keycode of a keysym on this server.
    fn keycode(conn: &RustConnection, sym: u32) -> u8 {
        let s = conn.setup();
        let map = conn
            .get_keyboard_mapping(s.min_keycode, s.max_keycode - s.min_keycode + 1)
            .unwrap()
            .reply()
            .unwrap();
        let per = usize::from(map.keysyms_per_keycode);
        let i = map.keysyms.chunks(per).position(|k| k.contains(&sym));
        s.min_keycode + u8::try_from(i.expect("keysym on the keyboard")).unwrap()
    }

    /// A window at (100, 100), 200 by 200, that hears keys and the pointer.
    fn window(conn: &RustConnection, screen: usize) {
        let root = conn.setup().roots[screen].root;
        let id = conn.generate_id().unwrap();
        let events = EventMask::KEY_PRESS
            | EventMask::KEY_RELEASE
            | EventMask::BUTTON_PRESS
            | EventMask::BUTTON_RELEASE
            | EventMask::POINTER_MOTION;
        let aux = CreateWindowAux::new()
            .override_redirect(1)
            .background_pixel(0x00ff_ffff)
            .event_mask(events);
        conn.create_window(
            0,
            id,
            root,
            100,
            100,
            200,
            200,
            0,
            WindowClass::INPUT_OUTPUT,
            0,
            &aux,
        )
        .unwrap();
        conn.map_window(id).unwrap();
        conn.flush().unwrap();
    }

    fn events(conn: &RustConnection, for_: Duration) -> Vec<Event> {
        let t = Instant::now();
        let mut out = Vec::new();
        while t.elapsed() < for_ {
            match conn.poll_for_event().unwrap() {
                Some(e) => out.push(e),
                None => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        out
    }

    #[test]
    fn clicks_drags_and_keys_arrive_as_sent() {
        let Some(display) = super::xvfb(11) else {
            return;
        };
        let (conn, screen) = x11rb::connect(Some(&display.name)).expect("connect");
        window(&conn, screen);
        std::thread::sleep(Duration::from_millis(200));
        let plan = vec![
            Action::focus_at(150.0, 150.0),
            Action::Key {
                key: KeyCode::Letter('a'),
                mods: vec![Modifier::Shift],
                hold_ms: Some(40),
            },
            Action::Drag {
                from: [110, 110],
                to: [190, 130],
                duration_ms: 40,
                steps: 5,
            },
            Action::Wait { ms: 20 },
            Action::key("Left").unwrap(),
        ];
        check_plan(&plan, Rect::new(100, 100, 200, 200)).expect("the plan is inside");
        let mut input = Input::on_display(&display.name).expect("input");
        let sent = input
            .replay(&plan, |_| Duration::from_millis(5), || false, |_| None)
            .unwrap();
        assert!(matches!(sent, Replayed::Done { sent: 5, .. }), "{sent:?}");
        let got = events(&conn, Duration::from_millis(400));
        let (shift, a, left) = (
            keycode(&conn, 0xffe1),
            keycode(&conn, 0x61),
            keycode(&conn, 0xff51),
        );

        let presses: Vec<_> = got
            .iter()
            .filter_map(|e| match e {
                Event::ButtonPress(b) => Some((b.event_x, b.event_y, b.time)),
                _ => None,
            })
            .collect();
        // The focus click, then the drag's press at its start.
        assert_eq!(
            presses.iter().map(|p| (p.0, p.1)).collect::<Vec<_>>(),
            vec![(50, 50), (10, 10)],
            "{got:?}"
        );
        let releases: Vec<_> = got
            .iter()
            .filter_map(|e| match e {
                Event::ButtonRelease(b) => Some((b.event_x, b.event_y, b.time)),
                _ => None,
            })
            .collect();
        assert_eq!(releases.last().map(|r| (r.0, r.1)), Some((90, 30)));
        let drag_ms = releases.last().unwrap().2.wrapping_sub(presses[1].2);
        assert!(drag_ms >= 30, "the drag took {drag_ms} ms, not about 40");
        let moves = got
            .iter()
            .filter(|e| matches!(e, Event::MotionNotify(m) if m.state.contains(x11rb::protocol::xproto::KeyButMask::BUTTON1)))
            .count();
        assert!(
            moves >= 4,
            "{moves} moves with the button held, for 5 steps"
        );

        let keys: Vec<_> = got
            .iter()
            .filter_map(|e| match e {
                Event::KeyPress(k) => Some((true, k.detail, u16::from(k.state), k.time)),
                Event::KeyRelease(k) => Some((false, k.detail, u16::from(k.state), k.time)),
                _ => None,
            })
            .collect();
        let seq: Vec<_> = keys.iter().map(|k| (k.0, k.1)).collect();
        assert_eq!(
            seq,
            vec![
                (true, shift),
                (true, a),
                (false, a),
                (false, shift),
                (true, left),
                (false, left)
            ],
            "{keys:?}"
        );
        // `a` went with shift held, and was held about 40 ms.
        assert_eq!(keys[1].2 & 1, 1, "shift was not down for a");
        let held = keys[2].3.wrapping_sub(keys[1].3);
        assert!(held >= 30, "a was held {held} ms, not about 40");
    }
}
