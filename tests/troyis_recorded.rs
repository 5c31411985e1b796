//! The project's own recorded screenshots under `tests/fixtures/troyis`,
//! drawn by `boardbot render` (see `make.sh` there) at many sizes, scales
//! and margins, each with the reading it must give.

mod common;

use boardbot::games::troyis::board::Board;
use boardbot::input::Action;
use boardbot::report::Report;
use common::recorded::{Reader, Suite, Truth, assert_refused, cases, crop};
use common::{Grid, assert_plan_legal, boardbot, fixtures, stdout_json};
use serde_json::{Value, json};

const DIR: &str = "troyis";

fn suite() -> Suite {
    Suite {
        reader: Reader::builtin("troyis"),
        cells: 14.0..=1000.0,
        tolerance: |t| (0.03 * t.pitch()).max(1.5),
        plan: check_clicks,
    }
}

/// A playable read's plan is a legal knight's tour of the board read, one
/// click inside each square it lands on.
fn check_clicks(name: &str, want: &Value, report: &Report) {
    let board = report.board.as_ref().unwrap();
    let grid = Grid::from_json(&want["grid"]);
    let start = Board::parse(&board.cells.join("/")).unwrap();
    let plan = common::plan_from_json(report.plan.as_ref().unwrap());
    assert_plan_legal(&start, &plan.squares);
    let actions = report.actions.clone().unwrap_or_default();
    assert_eq!(actions.len(), plan.moves, "{name}");
    for (a, &(r, c)) in actions.iter().zip(&plan.squares) {
        let Action::Click { x, y, .. } = a else {
            panic!("{name}: not a click")
        };
        grid.assert_click_inside(f64::from(*x), f64::from(*y), r, c, name);
    }
}

#[test]
fn every_recorded_screenshot_reads_as_expected() {
    suite().every_case(&cases(DIR, 8));
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
    let s = suite();
    let all = cases(DIR, 8);
    for name in ["k7_mid_p58_yellow", "k9_p36_margin_purple", "k5_p24_clouds"] {
        let c = all.iter().find(|c| c.name == name).unwrap();
        let (img, g) = (&c.img, Truth::of(&c.want));
        let (w, h) = (f64::from(img.width()), f64::from(img.height()));
        // A selection that hugs the board, one pixel inside its frame.
        let r = s.solve(&crop(img, (g.x0 + 1.0, g.y0 + 1.0, g.x1, g.y1)));
        assert_eq!(r.state.name(), "playable", "{name} tight: {}", r.reason);
        assert_eq!(
            json!(r.board.unwrap().cells),
            c.want["cells"],
            "{name} tight"
        );
        // Selections that cut through a row or a column of cells.
        let p = g.pitch();
        for (what, area) in [
            ("left", (g.x0 + 1.5 * p, 0.0, w, h)),
            ("bottom", (0.0, 0.0, w, g.y1 - 2.5 * p)),
            ("corner", (g.x0 + 0.6 * p, g.y0 + 0.4 * p, w, h)),
        ] {
            assert_refused(&s.solve(&crop(img, area)), &format!("{name} cut {what}"));
        }
    }
}
