//! The recorded-screenshot harness: a game's recorded cases (a PNG and the
//! reading it must give, under `tests/fixtures/<dir>`), its reader with
//! the built-in look (never the developer's own calibration), copies made
//! at test time (rescaled, on other desktops, cut by the selection), and
//! the checks every game shares: the verdict, the cells, the lattice's
//! bounds, and "refused, or read as what the frame really shows" for
//! frames caught mid-move. A game's test file gives its [`Suite`] (its
//! reader and its own check of a plan) and lists its cases.
#![allow(dead_code)]

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use boardbot::calibration::Calibration;
use boardbot::game::OnScreen;
use boardbot::report::Report;
use boardbot::tools::options::Options;
use image::{Rgb, RgbImage, imageops};
use serde_json::Value;

use super::{fixture_cases, fixtures, padded, rescaled};

/// One recorded screenshot and the reading it must give.
pub struct Case {
    pub name: String,
    pub want: Value,
    pub img: RgbImage,
}

/// Every case under `tests/fixtures/<dir>`; at least `min` of them.
pub fn cases(dir: &str, min: usize) -> Vec<Case> {
    fixture_cases(dir, min)
        .into_iter()
        .map(|(name, want)| {
            let png = fixtures(dir).join(format!("{name}.png"));
            let img = image::open(&png)
                .unwrap_or_else(|e| panic!("{}: {e}", png.display()))
                .to_rgb8();
            Case { name, want, img }
        })
        .collect()
}

/// Rows of a board in a case's JSON.
pub fn rows(v: &Value) -> Vec<String> {
    serde_json::from_value(v.clone()).expect("rows")
}

/// Where a case's lattice lies: its outer lines in image pixels and its
/// number of columns.
#[derive(Clone, Copy, Debug)]
pub struct Truth {
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
    pub cols: f64,
}

impl Truth {
    /// From a case's `grid` (`[n, x0, x1, y0, y1]`) and its `cols` (else
    /// the length of its first row of cells).
    pub fn of(want: &Value) -> Truth {
        let g = want["grid"].as_array().expect("a grid");
        let at = |i: usize| g[i].as_f64().expect("a number");
        let cols = want["cols"].as_f64().unwrap_or_else(|| {
            let first = want["cells"][0]
                .as_str()
                .or(want["moving"]["before"][0].as_str());
            first.map_or(at(0), |r| r.chars().count() as f64)
        });
        Truth {
            x0: at(1),
            x1: at(2),
            y0: at(3),
            y1: at(4),
            cols,
        }
    }

    pub fn pitch(&self) -> f64 {
        (self.x1 - self.x0) / self.cols
    }

    pub fn scaled(self, s: f64) -> Truth {
        Truth {
            x0: self.x0 * s,
            x1: self.x1 * s,
            y0: self.y0 * s,
            y1: self.y1 * s,
            ..self
        }
    }

    pub fn shifted(self, dx: f64, dy: f64) -> Truth {
        Truth {
            x0: self.x0 + dx,
            x1: self.x1 + dx,
            y0: self.y0 + dy,
            y1: self.y1 + dy,
            ..self
        }
    }
}

/// A game's reader with one calibration.
pub struct Reader {
    pub screen: &'static dyn OnScreen,
    pub cal: Calibration,
}

impl Reader {
    /// The game's first built-in look.
    pub fn builtin(id: &str) -> Reader {
        let screen = boardbot::games::find(id)
            .and_then(|g| g.screen())
            .expect("a game that reads screenshots");
        let cal = Calibration::embedded(screen.looks()[0], id).expect("the built-in look");
        Reader { screen, cal }
    }

    /// The calibration in `file`.
    pub fn learnt(id: &str, file: &Path) -> Reader {
        let screen = boardbot::games::find(id)
            .and_then(|g| g.screen())
            .expect("a game that reads screenshots");
        let cal = screen
            .load_calibration(Some(file))
            .expect("the learnt look");
        Reader { screen, cal }
    }

    pub fn solve(&self, img: &RgbImage) -> Report {
        self.screen
            .solve_image(img, &self.cal, &Options::default())
            .expect("a report")
    }
}

/// Refused: nothing to act on, and no input.
pub fn assert_refused(r: &Report, what: &str) {
    assert!(
        r.state.refuses() && r.actions.as_ref().is_none_or(Vec::is_empty),
        "{what}: {} ({})",
        r.state.name(),
        r.reason
    );
}

/// Refused with the cells at issue named, or read as one of `shows`.
pub fn assert_exact_or_refused(r: &Report, shows: &[Vec<String>], what: &str) {
    let seen = r.board.as_ref().map(|b| b.cells.clone());
    if r.state.refuses() {
        assert!(
            r.actions.as_ref().is_none_or(Vec::is_empty),
            "{what}: input"
        );
        if r.state.name() == "uncertain" && r.board.is_some() {
            assert!(
                !r.unreadable.is_empty(),
                "{what}: no cells named ({})",
                r.reason
            );
        }
        return;
    }
    assert!(
        seen.as_ref().is_some_and(|s| shows.contains(s)),
        "{what}: misread as {seen:?} ({})",
        r.reason
    );
}

/// The readings a frame caught mid-move may give besides a refusal: the
/// boards before and after the move (and the one it shows, when the case
/// says), at the top level or under `moving`.
pub fn acceptable(want: &Value) -> Vec<Vec<String>> {
    let m = if want.get("moving").is_some_and(Value::is_object) {
        &want["moving"]
    } else {
        want
    };
    ["before", "after", "shows", "nearest"]
        .iter()
        .filter(|k| m[**k].is_array())
        .map(|k| rows(&m[*k]))
        .collect()
}

/// Whether a case is a frame caught mid-move.
pub fn is_moving(want: &Value) -> bool {
    !acceptable(want).is_empty()
}

/// The lattice's bounds read, within `tol` pixels of the truth.
pub fn assert_bounds(r: &Report, t: Truth, tol: f64, what: &str) {
    let b = r.board.as_ref().and_then(|b| b.bounds).expect("bounds");
    let got = [b.x, b.x + b.w, b.y, b.y + b.h];
    let want = [t.x0, t.x1, t.y0, t.y1];
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= tol, "{what}: bounds {got:?} vs {want:?}");
    }
}

/// Desktops a board is selected on: page margins (left, top, right,
/// bottom) and their colour, from the game's own page to dark themes.
pub fn desktops(page: [u8; 3]) -> [([u32; 4], [u8; 3]); 5] {
    [
        ([37, 11, 5, 60], page),
        ([3, 90, 120, 7], [70, 110, 160]),
        ([20, 20, 20, 20], [255, 255, 255]),
        ([25, 25, 25, 25], [0x1e, 0x1e, 0x1e]),
        ([9, 30, 25, 4], [0x12, 0x12, 0x12]),
    ]
}

/// `img` scaled by `s`, then set on a page of `page` `pad` pixels wider
/// each side: a screen at another DPI, with a margin round the selection.
pub fn variant(img: &RgbImage, s: f64, pad: u32, page: [u8; 3]) -> RgbImage {
    let scaled = if s == 1.0 {
        img.clone()
    } else {
        rescaled(img, s)
    };
    padded(&scaled, [pad; 4], page)
}

/// The part of `img` in `[x0, x1) × [y0, y1)`.
pub fn crop(img: &RgbImage, (x0, y0, x1, y1): (f64, f64, f64, f64)) -> RgbImage {
    imageops::crop_imm(
        img,
        x0 as u32,
        y0 as u32,
        (x1 - x0) as u32,
        (y1 - y0) as u32,
    )
    .to_image()
}

/// `img` without its first `left` columns and `top` rows.
pub fn cut(img: &RgbImage, left: u32, top: u32) -> RgbImage {
    imageops::crop_imm(
        img,
        left,
        top,
        img.width().saturating_sub(left),
        img.height().saturating_sub(top),
    )
    .to_image()
}

/// `img` with a box of `colour` over `[x0, x1) × [y0, y1)`, as a tooltip or
/// a pointer over the board.
pub fn covered(
    img: &RgbImage,
    (x0, x1, y0, y1): (f64, f64, f64, f64),
    colour: [u8; 3],
) -> RgbImage {
    let mut out = img.clone();
    for y in y0.max(0.0) as u32..(y1 as u32).min(img.height()) {
        for x in x0.max(0.0) as u32..(x1 as u32).min(img.width()) {
            out.put_pixel(x, y, Rgb(colour));
        }
    }
    out
}

/// A game's recorded screenshots as one suite: its reader, the cell sizes
/// it reads, the tolerance of the bounds, and its own check of a plan.
pub struct Suite {
    pub reader: Reader,
    /// Cell sizes, in pixels, that rescaled copies are made at.
    pub cells: RangeInclusive<f64>,
    /// How far the bounds may be off, in pixels, for a lattice.
    pub tolerance: fn(Truth) -> f64,
    /// The game's own check of a playable read (keys, drags, clicks):
    /// `(what, the case's truth, the report)`.
    pub plan: fn(&str, &Value, &Report),
}

impl Suite {
    pub fn solve(&self, img: &RgbImage) -> Report {
        self.reader.solve(img)
    }

    /// A read against the case's truth (`t`: where its lattice is in the
    /// picture read): never a wrong board.
    pub fn check(&self, what: &str, want: &Value, r: &Report, t: Truth) {
        let state = want["state"].as_str().expect("a state");
        if is_moving(want) {
            assert_exact_or_refused(r, &acceptable(want), what);
            return;
        }
        assert_eq!(r.state.name(), state, "{what}: {}", r.reason);
        if r.state.refuses() {
            assert!(
                r.actions.as_ref().is_none_or(Vec::is_empty),
                "{what}: input"
            );
        }
        if state == "no_board" {
            return;
        }
        // An uncertain read shows `?` where its truth has the cells.
        if want["cells"].is_array() && state != "uncertain" {
            let cells = r.board.as_ref().map(|b| b.cells.clone());
            assert_eq!(cells, Some(rows(&want["cells"])), "{what}");
        }
        if !r.state.refuses() {
            assert_bounds(r, t, (self.tolerance)(t), what);
        }
        if state == "playable" {
            (self.plan)(what, want, r);
        }
    }

    /// Every case read as recorded.
    pub fn every_case(&self, cases: &[Case]) {
        for c in cases {
            self.check(&c.name, &c.want, &self.solve(&c.img), Truth::of(&c.want));
        }
    }

    /// Every case rescaled by each of `scales` (those whose cells stay in
    /// range), then set on each of `desktops`.
    pub fn variants(&self, cases: &[Case], scales: &[f64], desktops: &[([u32; 4], [u8; 3])]) {
        for c in cases {
            let truth = Truth::of(&c.want);
            for &s in scales
                .iter()
                .filter(|&&s| self.cells.contains(&(truth.pitch() * s)))
            {
                let img = if s == 1.0 {
                    c.img.clone()
                } else {
                    rescaled(&c.img, s)
                };
                for &(pad, colour) in desktops {
                    let what = format!("{} at {s}x, padded {pad:?}", c.name);
                    let t = truth
                        .scaled(s)
                        .shifted(f64::from(pad[0]), f64::from(pad[1]));
                    let r = self.solve(&padded(&img, pad, colour));
                    self.check(&what, &c.want, &r, t);
                }
            }
        }
    }

    /// Every case rescaled by each of `scales` whose cells stay in range.
    pub fn rescaled(&self, cases: &[Case], scales: &[f64]) {
        self.variants(cases, scales, &[([0; 4], [0; 3])]);
    }

    /// Every case on each of `desktops`.
    pub fn padded(&self, cases: &[Case], desktops: &[([u32; 4], [u8; 3])]) {
        self.variants(cases, &[1.0], desktops);
    }

    /// Every playable case cut by the selection through its third column,
    /// then through its third row: refused.
    pub fn cuts_refused(&self, cases: &[Case]) {
        for c in playable(cases) {
            let t = Truth::of(&c.want);
            let p = t.pitch();
            let left = cut(&c.img, (t.x0 + 2.5 * p) as u32, 0);
            let top = cut(&c.img, 0, (t.y0 + 2.4 * p) as u32);
            for (what, img) in [("left", left), ("top", top)] {
                assert_refused(&self.solve(&img), &format!("{} cut at the {what}", c.name));
            }
        }
    }

    /// Every crop from the left and from the top, a pixel at a time over
    /// the first `lines` columns (rows): a cut just past a grid line leaves
    /// a smaller board that looks whole, so each is refused or read exactly.
    pub fn no_cut_misread(&self, cases: &[Case], lines: f64) {
        for c in playable(cases) {
            let t = Truth::of(&c.want);
            let want = rows(&c.want["cells"]);
            let (w, h) = (c.img.width(), c.img.height());
            let from = t.x0.min(t.y0) as u32 + 1;
            let to = (t.x0.max(t.y0) + lines * t.pitch()) as u32;
            for k in from..to {
                let crops = [
                    (k < w / 2).then(|| cut(&c.img, k, 0)),
                    (k < h / 2).then(|| cut(&c.img, 0, k)),
                ];
                for img in crops.into_iter().flatten() {
                    let what = format!("{} cut by {k} px", c.name);
                    assert_exact_or_refused(&self.solve(&img), std::slice::from_ref(&want), &what);
                }
            }
        }
    }
}

/// The cases whose board is to be played.
pub fn playable(cases: &[Case]) -> impl Iterator<Item = &Case> {
    cases.iter().filter(|c| c.want["state"] == "playable")
}

/// `boardbot calibrate --game GAME --image SHOT <position> --out DIR`,
/// which must succeed: the file it wrote.
pub fn calibrate(game: &str, shot: &Path, position: &[&str], out: &Path) -> PathBuf {
    let mut args = vec![
        "calibrate",
        "--game",
        game,
        "--image",
        shot.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ];
    args.extend_from_slice(position);
    let run = super::boardbot(&args);
    assert!(
        run.status.success(),
        "calibrate failed: {}{}",
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    out.join(format!("{game}.toml"))
}

/// `boardbot solve --game GAME --json --image IMG <extra>`: the JSON.
pub fn solve_cli(game: &str, img: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        "solve",
        "--game",
        game,
        "--json",
        "--image",
        img.to_str().expect("utf-8"),
    ];
    args.extend_from_slice(extra);
    super::stdout_json(&super::boardbot(&args))
}
