//! The project's own recorded screenshots under `tests/fixtures/troyis`,
//! drawn by `boardbot render` (see `make.sh` there) at many sizes, scales
//! and margins, each with the reading it must give.

mod common;

use boardbot::game::OnScreen;
use boardbot::games::troyis::Troyis;
use boardbot::games::troyis::board::Board;
use boardbot::input::Action;
use common::{Grid, assert_plan_legal, boardbot, fixtures, stdout_json};

fn cases() -> Vec<(String, serde_json::Value)> {
    common::fixture_cases("troyis", 8)
}

#[test]
fn every_recorded_screenshot_reads_as_expected() {
    let cal = Troyis.load_calibration(None).expect("built-in calibration");
    for (name, want) in cases() {
        let img = image::open(fixtures("troyis").join(format!("{name}.png")))
            .unwrap()
            .to_rgb8();
        let report = Troyis.solve_image(&img, &cal, &Default::default()).unwrap();
        assert_eq!(
            report.state.name(),
            want["state"],
            "{name}: {}",
            report.reason
        );
        let actions = report.actions.clone().unwrap_or_default();
        match want["state"].as_str().unwrap() {
            "playable" | "solved" => {
                let board = report.board.as_ref().unwrap();
                assert_eq!(serde_json::json!(board.cells), want["cells"], "{name}");
                let grid = Grid::from_json(&want["grid"]);
                let b = board.bounds.unwrap();
                let tol = (0.03 * grid.pitch()).max(1.5);
                assert!(
                    (b.x - grid.x0).abs() <= tol && (b.y - grid.y0).abs() <= tol,
                    "{name}: bounds {b:?} vs {grid:?}"
                );
                assert!(
                    (b.x + b.w - grid.x1).abs() <= tol && (b.y + b.h - grid.y1).abs() <= tol,
                    "{name}: bounds {b:?} vs {grid:?}"
                );
                let start = Board::parse(&board.cells.join("/")).unwrap();
                let plan = common::plan_from_json(report.plan.as_ref().unwrap());
                assert_plan_legal(&start, &plan.squares);
                assert_eq!(actions.len(), plan.moves, "{name}");
                for (a, &(r, c)) in actions.iter().zip(&plan.squares) {
                    let Action::Click { x, y, .. } = a else {
                        panic!("{name}: not a click")
                    };
                    grid.assert_click_inside(f64::from(*x), f64::from(*y), r, c, &name);
                }
            }
            _ => assert!(
                actions.is_empty(),
                "{name}: clicks planned on an unreadable screen"
            ),
        }
    }
}

#[test]
fn the_cli_agrees_and_writes_a_debug_image_when_unsure() {
    let dir = tempfile::tempdir().unwrap();
    let debug = dir.path().join("seen.png");
    let img = fixtures("troyis").join("k6_message.png");
    let out = boardbot(&[
        "solve",
        "--game",
        "troyis",
        "--image",
        img.to_str().unwrap(),
        "--json",
        "--debug-image",
        debug.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(3));
    let v = stdout_json(&out);
    assert_eq!(v["state"], "uncertain");
    let unreadable = v["unreadable"]
        .as_array()
        .expect("the unreadable cells are listed");
    assert!(
        !unreadable.is_empty()
            && unreadable
                .iter()
                .all(|u| u["cell"].is_array() && u["why"].is_string())
    );
    let seen = image::open(&debug)
        .expect("the debug image was written")
        .to_rgb8();
    let src = image::open(&img).unwrap().to_rgb8();
    assert_eq!(seen.dimensions(), src.dimensions());
    assert_ne!(seen, src, "the debug image draws over the input");
}

#[test]
fn tight_crops_play_and_crops_through_the_board_are_refused() {
    let cal = Troyis.load_calibration(None).expect("built-in calibration");
    for name in ["k7_mid_p58_yellow", "k9_p36_margin_purple", "k5_p24_clouds"] {
        let want: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(fixtures("troyis").join(format!("{name}.json"))).unwrap(),
        )
        .unwrap();
        let img = image::open(fixtures("troyis").join(format!("{name}.png")))
            .unwrap()
            .to_rgb8();
        let g = Grid::from_json(&want["grid"]);
        let crop = |x0: f64, y0: f64, x1: f64, y1: f64| {
            let (x0, y0) = (x0.max(0.0) as u32, y0.max(0.0) as u32);
            let (x1, y1) = ((x1 as u32).min(img.width()), (y1 as u32).min(img.height()));
            image::imageops::crop_imm(&img, x0, y0, x1 - x0, y1 - y0).to_image()
        };
        // A selection that hugs the board, one pixel inside its frame.
        let tight = crop(g.x0 + 1.0, g.y0 + 1.0, g.x1, g.y1);
        let r = Troyis
            .solve_image(&tight, &cal, &Default::default())
            .unwrap();
        assert_eq!(r.state.name(), "playable", "{name} tight: {}", r.reason);
        assert_eq!(
            serde_json::json!(r.board.unwrap().cells),
            want["cells"],
            "{name} tight"
        );
        // Selections that cut through a row or a column of cells.
        let p = g.pitch();
        for (what, cut) in [
            (
                "left",
                crop(
                    g.x0 + 1.5 * p,
                    0.0,
                    f64::from(img.width()),
                    f64::from(img.height()),
                ),
            ),
            (
                "bottom",
                crop(0.0, 0.0, f64::from(img.width()), g.y1 - 2.5 * p),
            ),
            (
                "corner",
                crop(
                    g.x0 + 0.6 * p,
                    g.y0 + 0.4 * p,
                    f64::from(img.width()),
                    f64::from(img.height()),
                ),
            ),
        ] {
            let r = Troyis.solve_image(&cut, &cal, &Default::default()).unwrap();
            assert_eq!(
                r.state.exit_code(),
                3,
                "{name} cut {what}: read as {:?}: {}",
                r.state,
                r.reason
            );
            assert!(
                r.actions.unwrap_or_default().is_empty(),
                "{name} cut {what}"
            );
        }
    }
}
