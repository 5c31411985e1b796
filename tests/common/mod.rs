//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod display;
#[cfg(feature = "live")]
pub mod klotski;
#[cfg(feature = "live")]
pub mod live;
pub mod random_skin;
pub mod recorded;
pub mod sgt;
pub mod skins;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use boardbot::games::troyis::board::Board;
use boardbot::games::troyis::solver::Plan;

/// True when running in CI (`CI=true`), where every test must run.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// Says a test is skipped, and why. Each test binary ends with one line
/// that counts its skips and gives their reasons, written past the test
/// harness's capture so that it shows in a plain `cargo test`: a skip
/// never looks like a pass.
pub fn skip(reason: &str) {
    use std::sync::{Mutex, Once};
    static SKIPS: Mutex<Vec<String>> = Mutex::new(Vec::new());
    static AT_EXIT: Once = Once::new();
    extern "C" fn summary() {
        use std::io::Write;
        let skips = SKIPS.lock().map(|s| s.clone()).unwrap_or_default();
        if skips.is_empty() {
            return;
        }
        let mut reasons: Vec<&String> = skips.iter().collect();
        reasons.sort();
        reasons.dedup();
        let name = std::env::args().next().unwrap_or_default();
        let name = std::path::Path::new(&name)
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into_owned());
        let line = format!(
            "\nSKIPPED {} check(s) in {}: {}\n",
            skips.len(),
            name.rsplit_once('-').map_or(name.as_str(), |(n, _)| n),
            reasons
                .iter()
                .map(|r| r.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        );
        let _ = std::io::stderr().write_all(line.as_bytes());
    }
    println!("skipped: {reason}");
    if let Ok(mut s) = SKIPS.lock() {
        s.push(reason.to_string());
    }
    AT_EXIT.call_once(|| {
        // SAFETY: `summary` is a plain function that lives for the whole
        // process; atexit only keeps its address.
        unsafe {
            libc::atexit(summary);
        }
    });
}

/// `../shared/data/<sub>` from the project root, or `None` with the reason
/// printed, so that a plain clone still passes. In CI a missing directory
/// fails the test instead: a skip there would hide a broken checkout.
pub fn shared(sub: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/data")
        .join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        !in_ci(),
        "{} is absent, and CI=true: the tests that need it must run in CI",
        dir.display()
    );
    skip(&format!(
        "{} is absent (it holds third-party test data beside the project)",
        dir.display()
    ));
    None
}

pub fn fixtures(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(sub)
}

/// `img` on a bigger page of `colour`, `pad` = left, top, right, bottom.
pub fn padded(img: &image::RgbImage, pad: [u32; 4], colour: [u8; 3]) -> image::RgbImage {
    let (w, h) = (
        img.width() + pad[0] + pad[2],
        img.height() + pad[1] + pad[3],
    );
    let mut out = image::RgbImage::from_pixel(w, h, image::Rgb(colour));
    image::imageops::replace(&mut out, img, i64::from(pad[0]), i64::from(pad[1]));
    out
}

/// `img` resized by `scale`, as a screen at another DPI shows it.
pub fn rescaled(img: &image::RgbImage, scale: f64) -> image::RgbImage {
    let (w, h) = (
        f64::from(img.width()) * scale,
        f64::from(img.height()) * scale,
    );
    image::imageops::resize(
        img,
        w.round() as u32,
        h.round() as u32,
        image::imageops::FilterType::Triangle,
    )
}

/// Every `NAME.json` under `tests/fixtures/<sub>` (a recorded screenshot's
/// expected reading), by name; at least `min` of them.
pub fn fixture_cases(sub: &str, min: usize) -> Vec<(String, serde_json::Value)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(fixtures(sub)).expect("fixtures") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "json") {
            let v = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            out.push((path.file_stem().unwrap().to_string_lossy().into_owned(), v));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(out.len() >= min, "the fixtures under {sub} are missing");
    out
}

/// Runs the boardbot binary.
pub fn boardbot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .args(args)
        .output()
        .expect("run boardbot")
}

pub fn stdout_json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{}\nstderr:\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Replays a plan from the board, move by move, and checks it ends with
/// every target visited.
pub fn assert_plan_legal(board: &Board, squares: &[(usize, usize)]) {
    let mut b = board.clone();
    for &sq in squares {
        b.step(sq)
            .unwrap_or_else(|e| panic!("illegal plan on {board}: {e}"));
    }
    assert!(b.is_solved(), "the plan leaves targets on {board}");
}

pub fn plan_from_json(v: &serde_json::Value) -> Plan {
    let squares: Vec<(usize, usize)> = v["squares"]
        .as_array()
        .expect("squares")
        .iter()
        .map(|p| {
            (
                p[0].as_u64().expect("row") as usize,
                p[1].as_u64().expect("col") as usize,
            )
        })
        .collect();
    Plan {
        moves: v["moves"].as_u64().expect("moves") as usize,
        hamiltonian: v["hamiltonian"].as_bool().expect("hamiltonian"),
        optimal: v["optimal"].as_bool().expect("optimal"),
        squares,
    }
}

/// A truth grid `[n, x0, x1, y0, y1]`.
#[derive(Clone, Copy, Debug)]
pub struct Grid {
    pub n: usize,
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
}

impl Grid {
    pub fn from_json(v: &serde_json::Value) -> Grid {
        let g = v.as_array().expect("grid");
        let f = |i: usize| g[i].as_f64().expect("number");
        Grid {
            n: f(0) as usize,
            x0: f(1),
            x1: f(2),
            y0: f(3),
            y1: f(4),
        }
    }

    pub fn scaled(&self, s: f64, dx: f64, dy: f64) -> Grid {
        Grid {
            n: self.n,
            x0: self.x0 * s + dx,
            x1: self.x1 * s + dx,
            y0: self.y0 * s + dy,
            y1: self.y1 * s + dy,
        }
    }

    pub fn pitch(&self) -> f64 {
        (self.x1 - self.x0) / self.n as f64
    }

    /// The centre of cell `(r, c)`.
    pub fn centre(&self, r: usize, c: usize) -> (f64, f64) {
        let n = self.n as f64;
        (
            self.x0 + (self.x1 - self.x0) * (c as f64 + 0.5) / n,
            self.y0 + (self.y1 - self.y0) * (r as f64 + 0.5) / n,
        )
    }

    /// Checks a click lands well inside its cell: within a quarter pitch of
    /// the centre.
    pub fn assert_click_inside(&self, x: f64, y: f64, r: usize, c: usize, what: &str) {
        let (cx, cy) = self.centre(r, c);
        let tol = 0.25 * self.pitch();
        assert!(
            (x - cx).abs() <= tol && (y - cy).abs() <= tol,
            "{what}: click ({x}, {y}) for cell ({r},{c}) is off its centre ({cx:.1}, {cy:.1}) by more than {tol:.1}"
        );
    }
}

/// Runs boardbot with `words` (split on spaces) followed by `tail` (paths
/// and other arguments that may hold spaces).
pub fn cli(words: &str, tail: &[&str]) -> Output {
    let mut args: Vec<&str> = words.split_whitespace().collect();
    args.extend_from_slice(tail);
    boardbot(&args)
}
