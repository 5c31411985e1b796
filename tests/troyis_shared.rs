//! The real Troyis screenshots in `../shared/data/troyis`, as given,
//! rescaled to 0.6×, 1.5× and 2×, rescaled to small cells (20 to 27 px a
//! cell, as on a dense screen) and padded inside a page-coloured margin:
//! every playable one must read as its ground truth and get a legal
//! Hamiltonian plan with every click inside its cell; every other one must
//! get no click at all. Recoloured (every hue turned, as another skin of
//! the game would be) and calibrated on one of them, every playable one
//! reads at 0.6× to 2× cut to 3 px round its board.

mod common;

use boardbot::game::OnScreen;
use boardbot::games::troyis::Troyis;
use boardbot::games::troyis::board::Board;
use boardbot::games::troyis::render::PAGE;
use boardbot::input::Action;
use boardbot::report::{Report, Verdict as State};
use common::{Grid, assert_plan_legal, boardbot, shared, stdout_json};
use image::RgbImage;
use image::imageops::{FilterType, resize};

/// A transformation of a screenshot, and where it moves the truth grid.
struct Transform {
    name: String,
    scale: f64,
    /// Scale instead to this many pixels a cell (the board's own pitch
    /// from the truth, or a 9-cell guess for screens without a board).
    cell_px: Option<f64>,
    /// Pixels cut off the left and top first (a tighter selection).
    crop: u32,
    pad: (u32, u32, u32, u32),
}

impl Transform {
    fn scaled(name: &str, scale: f64, pad: (u32, u32, u32, u32)) -> Transform {
        Transform {
            name: name.to_string(),
            scale,
            cell_px: None,
            crop: 0,
            pad,
        }
    }

    fn cells(px: f64, crop: u32, pad: (u32, u32, u32, u32)) -> Transform {
        Transform {
            name: format!("{px} px a cell, cut {crop} px closer, padded {pad:?}"),
            scale: 1.0,
            cell_px: Some(px),
            crop,
            pad,
        }
    }

    /// The scale factor for a screenshot whose cells are `pitch` pixels.
    fn factor(&self, pitch: f64) -> f64 {
        self.cell_px.map_or(self.scale, |px| px / pitch)
    }

    fn apply(&self, img: &RgbImage, pitch: f64) -> RgbImage {
        let c = self.crop;
        let img =
            image::imageops::crop_imm(img, c, c, img.width() - c, img.height() - c).to_image();
        let s = self.factor(pitch);
        let scaled = if s == 1.0 {
            img
        } else {
            let w = (f64::from(img.width()) * s).round() as u32;
            let h = (f64::from(img.height()) * s).round() as u32;
            resize(&img, w, h, FilterType::Triangle)
        };
        let (l, top, r, b) = self.pad;
        let mut out = RgbImage::from_pixel(
            scaled.width() + l + r,
            scaled.height() + top + b,
            image::Rgb(PAGE),
        );
        image::imageops::replace(&mut out, &scaled, i64::from(l), i64::from(top));
        out
    }

    /// Where the truth grid lands.
    fn grid(&self, truth: Grid, pitch: f64) -> Grid {
        let s = self.factor(pitch);
        let shift = |pad: u32| f64::from(pad) - f64::from(self.crop) * s;
        truth.scaled(s, shift(self.pad.0), shift(self.pad.1))
    }
}

/// The fixed transforms: scales and a wide padding.
fn transforms() -> Vec<Transform> {
    vec![
        Transform::scaled("as captured", 1.0, (0, 0, 0, 0)),
        Transform::scaled("0.6×", 0.6, (0, 0, 0, 0)),
        Transform::scaled("1.5×", 1.5, (0, 0, 0, 0)),
        Transform::scaled("2×", 2.0, (0, 0, 0, 0)),
        Transform::scaled("padded", 1.0, (101, 29, 57, 64)),
    ]
}

/// Small cells, 20 to 27 px, as on a dense screen or a zoomed-out page,
/// with selections cut a few pixels closer and some padded.
fn small_cells() -> Vec<Transform> {
    let mut out = Vec::new();
    for k in 0..=35 {
        let px = 20.0 + 0.2 * f64::from(k);
        let crop = k % 4;
        let pad = if k % 3 == 2 {
            (7, 13, 5, 9)
        } else {
            (0, 0, 0, 0)
        };
        out.push(Transform::cells(px, crop, pad));
    }
    out
}

fn truth() -> Option<(
    std::path::PathBuf,
    serde_json::Map<String, serde_json::Value>,
)> {
    let dir = shared("troyis")?;
    let text = std::fs::read_to_string(dir.join("truth.json")).expect("truth.json");
    let v: serde_json::Value = serde_json::from_str(&text).expect("truth.json is JSON");
    Some((dir, v.as_object().expect("an object").clone()))
}

/// Reads every shared screenshot through every transform and checks it
/// against the truth; returns how many reads were checked.
fn check_all(transforms: &[Transform]) -> Option<usize> {
    let (dir, truth) = truth()?;
    let cal = Troyis.load_calibration(None).expect("built-in calibration");
    let mut checked = 0;
    for (file, want) in truth.iter().filter(|(k, _)| !k.starts_with('_')) {
        let img = image::open(dir.join(file)).expect("screenshot").to_rgb8();
        let pitch = if want["grid"].is_array() {
            Grid::from_json(&want["grid"]).pitch()
        } else {
            f64::from(img.width()) / 9.0
        };
        for t in transforms {
            let what = format!("{file} {}", t.name);
            let report = Troyis
                .solve_image(&t.apply(&img, pitch), &cal, &Default::default())
                .expect("solve");
            if want["state"] == "playable" {
                let grid = t.grid(Grid::from_json(&want["grid"]), pitch);
                check_playable(&report, want, grid, &what);
            } else {
                check_refused(&report, &what);
            }
            checked += 1;
        }
    }
    Some(checked)
}

fn check_playable(report: &Report, want: &serde_json::Value, grid: Grid, what: &str) {
    let actions = report.actions.clone().unwrap_or_default();
    assert_eq!(report.state, State::Playable, "{what}: {}", report.reason);
    let cells: Vec<String> = want["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    let board = report.board.as_ref().expect("a board");
    assert_eq!(board.cells, cells, "{what}");
    let plan = common::plan_from_json(report.plan.as_ref().expect("a plan"));
    let start = Board::parse(&cells.join("/")).unwrap();
    assert_plan_legal(&start, &plan.squares);
    assert!(plan.hamiltonian && plan.optimal, "{what}: {plan:?}");
    assert_eq!(plan.moves, start.targets().count(), "{what}");
    assert_eq!(actions.len(), plan.moves, "{what}");
    for (a, &(r, c)) in actions.iter().zip(&plan.squares) {
        let Action::Click { x, y, cell } = a else {
            panic!("{what}: {a:?} is not a click")
        };
        assert_eq!(*cell, Some([r, c]), "{what}");
        grid.assert_click_inside(f64::from(*x), f64::from(*y), r, c, what);
    }
}

fn check_refused(report: &Report, what: &str) {
    assert!(
        matches!(report.state, State::NoBoard | State::Uncertain),
        "{what}: read as {:?} ({}), but nothing must be clicked there",
        report.state,
        report.reason
    );
    assert_eq!(report.state.exit_code(), 3);
    assert!(
        report.actions.as_ref().is_none_or(Vec::is_empty),
        "{what}: plans clicks on a screen that is not playable"
    );
}

#[test]
fn every_screenshot_and_its_transforms_read_as_the_truth() {
    let all = transforms();
    if let Some(checked) = check_all(&all) {
        assert_eq!(checked, 9 * all.len());
    }
}

#[test]
fn boards_read_down_to_20_px_a_cell() {
    let all = small_cells();
    if let Some(checked) = check_all(&all) {
        assert_eq!(checked, 9 * all.len());
    }
}

#[test]
fn cli_prints_the_37_move_plan_for_13_png() {
    let Some((dir, truth)) = truth() else { return };
    let path = dir.join("13.png");
    let out = boardbot(&[
        "solve",
        "--game",
        "troyis",
        "--image",
        path.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = stdout_json(&out);
    assert_eq!(v["game"], "troyis");
    assert_eq!(v["state"], "playable");
    assert!(v["reason"].is_string());
    assert_eq!(v["board"]["rows"], 9);
    assert_eq!(v["board"]["cols"], 9);
    assert_eq!(v["board"]["cells"], truth["13.png"]["cells"]);
    for k in ["x", "y", "w", "h"] {
        assert!(v["board"]["bounds"][k].is_number(), "bounds.{k}");
    }
    let conf = v["board"]["confidence"].as_array().expect("confidence");
    assert_eq!(conf.len(), 9);
    assert!(
        conf.iter()
            .flat_map(|r| r.as_array().unwrap())
            .all(|c| c.as_f64().unwrap() >= 0.6)
    );
    assert_eq!(v["plan"]["moves"], 37);
    assert_eq!(v["plan"]["hamiltonian"], true);
    assert_eq!(v["plan"]["optimal"], true);
    let acts = v["actions"].as_array().expect("actions");
    assert_eq!(acts.len(), 37);
    assert!(acts.iter().all(|a| a["kind"] == "click"
        && a["x"].is_i64()
        && a["y"].is_i64()
        && a["cell"].is_array()));
    assert!(v["timing_ms"]["vision"].is_number() && v["timing_ms"]["solve"].is_number());
}

#[test]
fn cli_exits_3_with_no_actions_on_every_screen_that_is_not_playable() {
    let Some((dir, truth)) = truth() else { return };
    for (file, want) in truth.iter().filter(|(_, v)| v["state"] == "not_playable") {
        let path = dir.join(file);
        let out = boardbot(&[
            "solve",
            "--game",
            "troyis",
            "--image",
            path.to_str().unwrap(),
            "--json",
        ]);
        assert_eq!(out.status.code(), Some(3), "{file} ({})", want["why"]);
        let v = stdout_json(&out);
        assert_eq!(v["actions"], serde_json::json!([]), "{file}");
        assert!(
            !v["reason"].as_str().unwrap().is_empty(),
            "{file}: says why"
        );
    }
}

/// `img` with every colour's hue turned by `degrees` about the grey axis
/// (greys stay grey): another skin of the same game.
fn hue_rotated(img: &RgbImage, degrees: f64) -> RgbImage {
    let (s, c) = degrees.to_radians().sin_cos();
    let (a, b) = ((1.0 - c) / 3.0, s / 3f64.sqrt());
    let m = [
        [c + a, a - b, a + b],
        [a + b, c + a, a - b],
        [a - b, a + b, c + a],
    ];
    let mut out = img.clone();
    for p in out.pixels_mut() {
        let v = p.0.map(f64::from);
        p.0 = m.map(|row| {
            (row[0] * v[0] + row[1] * v[1] + row[2] * v[2])
                .round()
                .clamp(0.0, 255.0) as u8
        });
    }
    out
}

/// `img` scaled by `s`, then cut to the truth grid with `margin` pixels
/// round it (the edge pixels repeated where the capture has fewer); the
/// grid where it lands.
fn tight(img: &RgbImage, grid: Grid, s: f64, margin: f64) -> (RgbImage, Grid) {
    let w = (f64::from(img.width()) * s).round() as u32;
    let h = (f64::from(img.height()) * s).round() as u32;
    let scaled = resize(img, w, h, FilterType::Triangle);
    let g = grid.scaled(s, 0.0, 0.0);
    let (x0, y0) = ((g.x0 - margin).floor(), (g.y0 - margin).floor());
    let (x1, y1) = ((g.x1 + margin).ceil(), (g.y1 + margin).ceil());
    let out = RgbImage::from_fn((x1 - x0) as u32, (y1 - y0) as u32, |x, y| {
        let sx = (x0 + f64::from(x)).clamp(0.0, f64::from(w - 1)) as u32;
        let sy = (y0 + f64::from(y)).clamp(0.0, f64::from(h - 1)) as u32;
        *scaled.get_pixel(sx, sy)
    });
    (out, g.scaled(1.0, -x0, -y0))
}

#[test]
fn recoloured_screens_read_after_one_calibrate_from_0_6_to_2x_with_3_px_margins() {
    let Some((dir, truth)) = truth() else { return };
    let playable: Vec<(&String, &serde_json::Value)> = truth
        .iter()
        .filter(|(k, v)| !k.starts_with('_') && v["state"] == "playable")
        .collect();
    let rows = |v: &serde_json::Value| -> String {
        let cells: Vec<&str> = v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        cells.join("\n")
    };
    for degrees in [60.0, 150.0, 250.0] {
        let tmp = tempfile::tempdir().expect("temp dir");
        let shot = |file: &str| {
            hue_rotated(
                &image::open(dir.join(file)).expect("screenshot").to_rgb8(),
                degrees,
            )
        };
        // Taught on one screenshot of a game under way, which shows every
        // kind of cell (the knight, light, dark and visited cells).
        let mut args = vec!["calibrate".to_string(), "--game".into(), "troyis".into()];
        {
            let file = "15.png";
            let png = tmp.path().join(file);
            shot(file).save(&png).expect("save");
            let txt = png.with_extension("txt");
            std::fs::write(&txt, rows(&truth[file])).expect("write the level");
            args.extend([
                "--image".into(),
                png.display().to_string(),
                "--level".into(),
                txt.display().to_string(),
            ]);
        }
        args.extend(["--out".into(), tmp.path().display().to_string()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = boardbot(&args);
        assert!(
            out.status.success(),
            "hue {degrees}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let cal = Troyis
            .load_calibration(Some(&tmp.path().join("troyis.toml")))
            .expect("the learnt calibration");
        for (file, want) in &playable {
            let img = shot(file);
            let grid = Grid::from_json(&want["grid"]);
            for s in [0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 2.0] {
                let (cut, g) = tight(&img, grid, s, 3.0);
                let what = format!("{file} hue +{degrees}°, {s}×, 3 px margins");
                let report = Troyis
                    .solve_image(&cut, &cal, &Default::default())
                    .expect("solve");
                check_playable(&report, want, g, &what);
            }
        }
    }
}
