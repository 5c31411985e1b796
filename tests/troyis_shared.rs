//! The real Troyis screenshots in `../shared/data/troyis`, as given and
//! rescaled to 0.6×, 1.5× and 2× and padded inside a page-coloured margin:
//! every playable one must read as its ground truth and get a legal
//! Hamiltonian plan with every click inside its cell; every other one must
//! get no click at all.

mod common;

use boardbot::games::Game;
use boardbot::games::troyis::Troyis;
use boardbot::games::troyis::board::Board;
use boardbot::games::troyis::render::PAGE;
use boardbot::input::Action;
use boardbot::report::Verdict as State;
use common::{Grid, assert_plan_legal, boardbot, shared, stdout_json};
use image::RgbImage;
use image::imageops::{FilterType, resize};

/// A transformation of a screenshot, and where it moves the truth grid.
struct Transform {
    name: &'static str,
    scale: f64,
    pad: (u32, u32, u32, u32),
}

const TRANSFORMS: &[Transform] = &[
    Transform {
        name: "as captured",
        scale: 1.0,
        pad: (0, 0, 0, 0),
    },
    Transform {
        name: "0.6×",
        scale: 0.6,
        pad: (0, 0, 0, 0),
    },
    Transform {
        name: "1.5×",
        scale: 1.5,
        pad: (0, 0, 0, 0),
    },
    Transform {
        name: "2×",
        scale: 2.0,
        pad: (0, 0, 0, 0),
    },
    Transform {
        name: "padded",
        scale: 1.0,
        pad: (101, 29, 57, 64),
    },
];

fn apply(img: &RgbImage, t: &Transform) -> RgbImage {
    let scaled = if t.scale == 1.0 {
        img.clone()
    } else {
        let w = (f64::from(img.width()) * t.scale).round() as u32;
        let h = (f64::from(img.height()) * t.scale).round() as u32;
        resize(img, w, h, FilterType::Triangle)
    };
    let (l, top, r, b) = t.pad;
    let mut out = RgbImage::from_pixel(
        scaled.width() + l + r,
        scaled.height() + top + b,
        image::Rgb(PAGE),
    );
    image::imageops::replace(&mut out, &scaled, i64::from(l), i64::from(top));
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

#[test]
fn every_screenshot_and_its_transforms_read_as_the_truth() {
    let Some((dir, truth)) = truth() else { return };
    let cal = Troyis.load_calibration(None).expect("built-in calibration");
    let mut checked = 0;
    for (file, want) in truth.iter().filter(|(k, _)| !k.starts_with('_')) {
        let img = image::open(dir.join(file)).expect("screenshot").to_rgb8();
        for t in TRANSFORMS {
            let what = format!("{file} {}", t.name);
            let report = Troyis
                .solve_image(&apply(&img, t), &cal, &Default::default())
                .expect("solve");
            let actions = report.actions.clone().unwrap_or_default();
            if want["state"] == "playable" {
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
                let grid = Grid::from_json(&want["grid"]).scaled(
                    t.scale,
                    f64::from(t.pad.0),
                    f64::from(t.pad.1),
                );
                assert_eq!(actions.len(), plan.moves, "{what}");
                for (a, &(r, c)) in actions.iter().zip(&plan.squares) {
                    let Action::Click { x, y, cell } = a else {
                        panic!("{what}: {a:?} is not a click")
                    };
                    assert_eq!(*cell, Some([r, c]), "{what}");
                    grid.assert_click_inside(f64::from(*x), f64::from(*y), r, c, &what);
                }
            } else {
                assert!(
                    matches!(report.state, State::NoBoard | State::Uncertain),
                    "{what}: read as {:?} ({}), but nothing must be clicked there",
                    report.state,
                    report.reason
                );
                assert_eq!(report.state.exit_code(), 3);
                assert!(
                    actions.is_empty(),
                    "{what}: plans clicks on a screen that is not playable"
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 9 * TRANSFORMS.len());
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
