//! The live harness: a game on a private X server, played by `boardbot
//! play`, judged by what the game shows afterwards. A target is one of
//! boardbot's practice windows ([`Practice`], judged by its session file)
//! or a real game (sgt's windows, GNOME Klotski), judged by its screen.
//!
//! The checks every game shares are written here once:
//! - [`play`]: the `play` command on a selection, for a named game or for
//!   none (the game recognised from the pixels);
//! - [`dry_run`]: a planned play that sends nothing, every action inside
//!   the selection;
//! - [`wins`] and [`dropped_input_is_replanned`]: a practice window played
//!   to its end, in the fewest moves, and a lost input noticed;
//! - [`abort_stops_practice`] and [`abort_stops_play`]: the abort key stops
//!   a replay at once, with the game not won.
//!
//! Each test starts its own Xvfb display; when Xvfb or xdotool is missing
//! the tests say so and skip, except in CI.
#![allow(dead_code)]

use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

#[allow(unused_imports)]
pub use super::display::{
    Display, PracticeWindow, boardbot, have_xdotool, rect, show, wait_output, xdotool, xvfb,
};

/// One of boardbot's practice windows, placed at 40,30 on the display.
pub struct Practice {
    pub game: &'static str,
    pub window: PracticeWindow,
    /// What the game draws round its lattice (Rush Hour's frame), for a
    /// pitch: a selection reaches that far past the lattice, and more.
    pub frame: fn(f64) -> f64,
}

impl Practice {
    /// `boardbot practice --game GAME <level> --position 40,30 <extra>`.
    pub fn open(display: &Display, game: &'static str, level: &[&str], extra: &[&str]) -> Practice {
        let mut args = vec!["practice", "--game", game];
        args.extend_from_slice(level);
        args.extend_from_slice(&["--position", "40,30"]);
        args.extend_from_slice(extra);
        Practice {
            game,
            window: PracticeWindow::open(display, &args),
            frame: |_| 0.0,
        }
    }

    /// The same window, its board drawn with a frame `frame(pitch)` wide.
    pub fn framed(self, frame: fn(f64) -> f64) -> Practice {
        Practice { frame, ..self }
    }

    /// A selection round the board (and its frame), `margin` pixels out.
    pub fn region(&self, margin: f64) -> String {
        let pitch = self.session()["lattice"]["pitch"].as_f64().expect("pitch");
        self.window.region(margin + (self.frame)(pitch))
    }

    /// The session file now.
    pub fn session(&self) -> Value {
        self.window.read()
    }

    pub fn wait_until(&self, what: impl Fn(&Value) -> bool, why: &str) -> Value {
        self.window.wait_until(what, why)
    }

    /// The session's optimum: moves, or cost where moves cost more than one.
    pub fn optimal(&self) -> u64 {
        let s = self.session();
        s["optimal"]
            .as_u64()
            .or_else(|| s["optimal_cost"].as_u64())
            .expect("a known optimum")
    }
}

/// `boardbot play [--game GAME] --region REGION <extra>` on `display`;
/// `game: None` names no game, so boardbot recognises it.
pub fn play(display: &Display, game: Option<&str>, region: &str, extra: &[&str]) -> Command {
    let mut args = vec!["play"];
    if let Some(g) = game {
        args.extend_from_slice(&["--game", g]);
    }
    args.extend_from_slice(&["--region", region]);
    args.extend_from_slice(extra);
    boardbot(display, &args)
}

/// Plays a practice window once (`--once`, with `extra`) on a selection
/// `margin` pixels round its board: exit 0, the level won, the output
/// saying so. The play's output, and the session.
pub fn play_to_win(
    display: &Display,
    p: &Practice,
    margin: f64,
    extra: &[&str],
) -> (Output, Value) {
    let mut flags = vec!["--once"];
    flags.extend_from_slice(extra);
    let out = play(display, Some(p.game), &p.region(margin), &flags)
        .output()
        .expect("run play");
    assert_eq!(out.status.code(), Some(0), "{}: {}", p.game, show(&out));
    let r = p.wait_until(|r| r["solved"] == true, "the level to be won");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("now reads as solved"),
        "{}",
        show(&out)
    );
    (out, r)
}

/// Plays a practice window to its end at the optimum (the fewest moves,
/// or the cheapest cost where moves cost more than one), with no illegal
/// input. The session.
pub fn wins(display: &Display, p: &Practice, margin: f64) -> Value {
    let (_, r) = play_to_win(display, p, margin, &[]);
    if r["optimal_cost"].is_null() {
        assert_eq!(
            r["moves"], r["optimal"],
            "{}: the fewest moves: {r}",
            p.game
        );
    } else {
        assert_eq!(
            r["cost"], r["optimal_cost"],
            "{}: the cheapest cost: {r}",
            p.game
        );
    }
    assert_eq!(r["illegal"], 0, "{r}");
    r
}

/// A practice window opened with `--drop-input N`: the lost input is
/// noticed at a checkpoint, re-planned, and the level still won.
pub fn dropped_input_is_replanned(display: &Display, p: &Practice, margin: f64) -> Value {
    let (out, r) = play_to_win(display, p, margin, &[]);
    assert_eq!(r["dropped"], 1, "{r}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Re-planned"),
        "no re-plan: {}",
        show(&out)
    );
    r
}

/// Drags the mouse from `(x0, y0)` to `(x1, y1)` with the left button
/// down, as a user selects a board on the overlay.
pub fn drag(display: &Display, (x0, y0): (i32, i32), (x1, y1): (i32, i32)) {
    let at = |x: i32, y: i32| [x.to_string(), y.to_string()];
    let [a, b] = at(x0, y0);
    xdotool(display, &["mousemove", &a, &b, "mousedown", "1"]);
    let [a, b] = at((x0 + x1) / 2, (y0 + y1) / 2);
    xdotool(display, &["mousemove", &a, &b]);
    let [a, b] = at(x1, y1);
    xdotool(display, &["mousemove", &a, &b, "mouseup", "1"]);
}

/// Every screen point of a planned action: clicks and the focus click,
/// both ends of a drag, and every point of a drag's path.
pub fn action_points(a: &Value) -> Vec<(i64, i64)> {
    let pt = |p: &Value| (p[0].as_i64().expect("x"), p[1].as_i64().expect("y"));
    let mut out = Vec::new();
    if let (Some(x), Some(y)) = (a["x"].as_i64(), a["y"].as_i64()) {
        out.push((x, y));
    }
    for key in ["from", "to"] {
        if a[key].is_array() {
            out.push(pt(&a[key]));
        }
    }
    for key in ["path", "points"] {
        if let Some(path) = a[key].as_array() {
            out.extend(path.iter().map(pt));
        }
    }
    out
}

/// A dry run (`play --once --dry-run --json`, with `extra`): exit 0, a
/// playable read, and every action inside `region`. The JSON.
pub fn dry_run(display: &Display, game: Option<&str>, region: &str, extra: &[&str]) -> Value {
    let mut flags = vec!["--once", "--dry-run", "--json"];
    flags.extend_from_slice(extra);
    let out = play(display, game, region, &flags)
        .output()
        .expect("run play");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    let v = super::stdout_json(&out);
    assert_eq!(v["state"], "playable", "{v}");
    assert_eq!(v["outcome"]["kind"], "dry_run", "{v}");
    let (rx, ry, rw, rh) = rect(region);
    let actions = v["actions"].as_array().expect("actions");
    assert!(!actions.is_empty(), "nothing planned: {v}");
    for a in actions {
        for (x, y) in action_points(a) {
            assert!(
                x >= rx && y >= ry && x < rx + rw && y < ry + rh,
                "{a} leaves {region}"
            );
        }
    }
    v
}

/// A dry run on a practice window (named `named`, or recognised): the
/// checks of [`dry_run`], and the window untouched after it. The JSON.
pub fn dry_run_practice(display: &Display, p: &Practice, named: bool, margin: f64) -> Value {
    let game = named.then_some(p.game);
    let v = dry_run(display, game, &p.region(margin), &[]);
    assert_eq!(v["game"], p.game, "{v}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(p.session()["moves"], 0, "a dry run sent input");
    v
}

/// A dry run's keys: every one an arrow, as many as the optimum, after a
/// focus click.
pub fn assert_arrow_keys(v: &Value, optimal: u64) {
    let actions = v["actions"].as_array().expect("actions");
    let keys: Vec<&str> = actions.iter().filter_map(|a| a["key"].as_str()).collect();
    assert_eq!(keys.len() as u64, optimal, "{v}");
    for k in &keys {
        assert!(["Left", "Right", "Up", "Down"].contains(k), "{k} in {v}");
    }
    assert_eq!(
        actions[0]["kind"], "focus",
        "the focus click comes first: {v}"
    );
}

/// The kinds of the actions of a dry run's JSON, in order.
pub fn kinds(v: &Value) -> Vec<String> {
    v["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .map(|a| a["kind"].as_str().expect("a kind").to_string())
        .collect()
}

/// The abort key against a practice window: a play paced `delay_ms`
/// apart, Escape once two moves are in, exit code 4, at most one more
/// move after it, and the level not won.
pub fn abort_stops_practice(display: &Display, p: &Practice, delay_ms: u32) -> Value {
    let margin = 8.0;
    if !have_xdotool() {
        return Value::Null;
    }
    let optimal = p.optimal();
    let delay = delay_ms.to_string();
    let child = play(
        display,
        Some(p.game),
        &p.region(margin),
        &["--once", "--delay-ms", &delay],
    )
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .expect("start play");
    p.wait_until(|r| r["moves"].as_u64().unwrap_or(0) >= 2, "the first moves");
    xdotool(display, &["key", "Escape"]);
    // Stopped by the key (exit code 4), not killed after the wait.
    let out = wait_output(child, 10);
    assert_eq!(out.status.code(), Some(4), "{}", show(&out));
    let at_exit = p.session()["moves"].as_u64().expect("moves");
    std::thread::sleep(Duration::from_millis(800));
    let r = p.session();
    assert_eq!(r["solved"], false, "{r}");
    let moves = r["moves"].as_u64().expect("moves");
    assert!(moves <= at_exit + 1, "input went on after the abort: {r}");
    let spent = r["cost"].as_u64().unwrap_or(moves);
    assert!(spent < optimal, "{r}");
    r
}

/// The abort key against a real game: `child` plays it on `display`;
/// waits until `read` shows the board moved from `start`, presses Escape,
/// and checks that play stopped with exit code 4 and that nothing moved
/// after (nor was the game won: the abort came in time to tell).
pub fn abort_stops_play(
    display: &Display,
    child: std::process::Child,
    start: &[String],
    read: impl Fn() -> boardbot::report::Report,
) {
    let t = Instant::now();
    while read().board.is_none_or(|b| b.cells == start) {
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "play never moved anything"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    xdotool(display, &["key", "Escape"]);
    let out = wait_output(child, 10);
    assert_eq!(
        out.status.code(),
        Some(4),
        "play did not stop with the abort key: {}",
        show(&out)
    );
    std::thread::sleep(Duration::from_millis(600));
    let after = read();
    std::thread::sleep(Duration::from_millis(1200));
    let later = read();
    assert_eq!(
        after.board.map(|b| b.cells),
        later.board.map(|b| b.cells),
        "input went on after the abort"
    );
    assert_ne!(
        later.state,
        boardbot::report::Verdict::Solved,
        "the abort came too late to tell"
    );
}
