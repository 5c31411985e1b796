//! A private X server for the end-to-end tests, and the commands run on it:
//! `boardbot` with its own config and save directories, and `xdotool`.
//! When Xvfb or xdotool is missing the tests say so and skip, except in CI.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

pub struct Display {
    server: Child,
    pub name: String,
}

impl Drop for Display {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
        // A killed Xvfb leaves its socket and lock behind; enough of them
        // and no display number is free.
        let n = self.name.trim_start_matches(':');
        let _ = std::fs::remove_file(format!("/tmp/.X11-unix/X{n}"));
        let _ = std::fs::remove_file(format!("/tmp/.X{n}-lock"));
    }
}

pub fn have(program: &str) -> bool {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success());
    // In CI a skipped end-to-end test would hide a missing install step.
    assert!(
        found || !super::in_ci(),
        "{program} is not installed, and CI=true: .ci/deps must install it"
    );
    found
}

/// A fresh Xvfb display, or `None` (with the reason printed) when Xvfb is missing.
pub fn xvfb(tag: u32) -> Option<Display> {
    if !have("Xvfb") {
        super::skip("Xvfb is not installed (sudo .ci/deps installs it)");
        return None;
    }
    for attempt in 0..200 {
        let n = 40 + (std::process::id() % 200) * 7 + tag * 3 + attempt;
        let socket = format!("/tmp/.X11-unix/X{n}");
        if Path::new(&socket).exists() || Path::new(&format!("/tmp/.X{n}-lock")).exists() {
            continue;
        }
        let server = Command::new("Xvfb")
            .args([
                &format!(":{n}"),
                "-screen",
                "0",
                "1280x1024x24",
                "-nolisten",
                "tcp",
                "-noreset",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start Xvfb");
        let d = Display {
            server,
            name: format!(":{n}"),
        };
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(10) {
            if Path::new(&socket).exists() {
                std::thread::sleep(Duration::from_millis(200));
                return Some(d);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    panic!("Xvfb did not start");
}

/// The config directory `boardbot` runs with on `display`: its own, so
/// that a test never reads the user's calibrations or remembered regions.
pub fn config_dir(display: &Display) -> PathBuf {
    std::env::temp_dir().join(format!(
        "boardbot-e2e-{}",
        display.name.trim_start_matches(':')
    ))
}

pub fn boardbot(display: &Display, args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_boardbot"));
    c.args(args)
        .env("DISPLAY", &display.name)
        .env("BOARDBOT_CONFIG_DIR", config_dir(display))
        .env(
            "BOARDBOT_SAVE_DIR",
            std::env::temp_dir().join("boardbot-e2e-seen"),
        );
    c
}

pub fn region_around(x: f64, y: f64, side: f64, margin: f64) -> String {
    let (x0, y0) = ((x - margin).floor() as i64, (y - margin).floor() as i64);
    let s = (side + 2.0 * margin).ceil() as i64 + 1;
    format!("{x0},{y0},{s},{s}")
}

pub fn rect(region: &str) -> (i64, i64, i64, i64) {
    let v: Vec<i64> = region.split(',').map(|p| p.parse().unwrap()).collect();
    (v[0], v[1], v[2], v[3])
}

pub fn show(out: &Output) -> String {
    format!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// True when xdotool is installed; else says the test is skipped.
pub fn have_xdotool() -> bool {
    let found = have("xdotool");
    if !found {
        super::skip("xdotool is not installed (.ci/deps installs it)");
    }
    found
}

pub fn xdotool(display: &Display, args: &[&str]) {
    let ok = Command::new("xdotool")
        .args(args)
        .env("DISPLAY", &display.name)
        .status()
        .expect("xdotool");
    assert!(ok.success(), "xdotool {args:?}");
}

/// Runs `cmd` to its end, checks it exited 0, and gives its stdout as JSON.
pub fn json_of(cmd: &mut Command) -> serde_json::Value {
    let out = cmd.output().expect("run boardbot");
    assert_eq!(out.status.code(), Some(0), "{}", show(&out));
    super::stdout_json(&out)
}

pub fn wait_output(mut child: Child, secs: u64) -> Output {
    let t = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if t.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(30));
    }
    child.wait_with_output().expect("output")
}

/// A practice window a test started, with its session file; closed when
/// dropped.
pub struct PracticeWindow {
    child: Child,
    pub result: PathBuf,
    _dir: tempfile::TempDir,
}

impl Drop for PracticeWindow {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl PracticeWindow {
    /// Runs `boardbot ARGS --result FILE` (ARGS from `practice` on) and
    /// waits until the window says where its board is.
    pub fn open(display: &Display, args: &[&str]) -> PracticeWindow {
        let dir = tempfile::tempdir().expect("temp dir");
        let result = dir.path().join("result.json");
        let mut all = args.to_vec();
        all.extend_from_slice(&["--result", result.to_str().expect("utf-8")]);
        let child = boardbot(display, &all)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start practice");
        let p = PracticeWindow {
            child,
            result,
            _dir: dir,
        };
        p.wait_until(|r| !r["lattice"].is_null(), "the practice window to appear");
        p
    }

    /// A square selection around the board the session places, with a
    /// margin in pixels.
    pub fn region(&self, margin: f64) -> String {
        let l = &self.read()["lattice"];
        let pitch = l["pitch"].as_f64().expect("pitch");
        let cells = l["cols"]
            .as_f64()
            .unwrap_or(0.0)
            .max(l["rows"].as_f64().unwrap_or(0.0));
        region_around(
            l["x"].as_f64().expect("x"),
            l["y"].as_f64().expect("y"),
            pitch * cells,
            margin,
        )
    }

    /// The session file as it is now (`null` while it is not there).
    pub fn read(&self) -> serde_json::Value {
        std::fs::read_to_string(&self.result)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(serde_json::Value::Null)
    }

    /// Waits up to 30 s for the session to satisfy `what`.
    pub fn wait_until(
        &self,
        what: impl Fn(&serde_json::Value) -> bool,
        why: &str,
    ) -> serde_json::Value {
        let t = Instant::now();
        loop {
            let r = self.read();
            if what(&r) {
                return r;
            }
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "timed out waiting for {why}; last result: {r}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}
