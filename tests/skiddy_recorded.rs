//! The project's own recorded Skiddy screenshots under
//! `tests/fixtures/skiddy-screen`, drawn by `boardbot render` (see
//! `make.sh` there), each with the reading it must give; rescaled (0.6× to
//! 2×), padded and cut copies made here; mid-slide frames, which must be
//! refused or read as the state they really show; and a won board.

mod common;

use boardbot::art::render::RenderOptions;
use boardbot::game::Game;
use boardbot::games::skiddy::level::Level;
use boardbot::games::skiddy::rules::{Dir, Rules};
use boardbot::games::skiddy::{SKIDDY, art, screen};
use boardbot::input::Action;
use boardbot::report::Report;
use common::fixtures;
use common::recorded::{
    Reader, Suite, Truth, calibrate, cases, covered, desktops, rows, solve_cli,
};
use serde_json::Value;

const DIR: &str = "skiddy-screen";

fn suite() -> Suite {
    Suite {
        reader: Reader::builtin("skiddy"),
        // The reader's floor: cells of about 24 pixels.
        cells: 23.0..=1000.0,
        tolerance: |t| (0.05 * t.pitch()).max(1.5),
        plan: check_plan,
    }
}

/// The rules of a read board.
fn rules_of(cells: &[String], sticky: bool) -> Rules {
    let text = format!(
        "sticky: {}\n{}\n",
        if sticky { "yes" } else { "no" },
        cells.join("\n")
    );
    Rules::new(&Level::parse(&text).unwrap())
}

/// The rules and position a screenshot shows: its rows, or where a move
/// drawn to its end left the level (the rows hide a pit under a piece).
fn truth(want: &Value, cells: &[String]) -> (Rules, boardbot::games::skiddy::Key) {
    let sticky = want["sticky"].as_bool().unwrap();
    let moved = &want["moving"];
    if moved["fraction"].as_f64() != Some(1.0) {
        let rules = rules_of(cells, sticky);
        let start = rules.start;
        return (rules, start);
    }
    let rules = rules_of(&rows(&moved["before"]), sticky);
    let d = Dir::from_char(moved["move"].as_str().unwrap().chars().next().unwrap()).unwrap();
    let after = rules.play(&rules.start, d).unwrap().1;
    (rules, after)
}

/// Checks a playable read's keys: replayed by the engine, they win as
/// every checkpoint predicts.
fn check_plan(name: &str, want: &Value, r: &Report) {
    let (rules, mut key) = truth(want, &r.board.as_ref().unwrap().cells);
    let actions = r.actions.as_ref().unwrap();
    assert_eq!(
        r.checkpoints.len(),
        actions.len(),
        "{name}: a look after every key"
    );
    for (i, a) in actions.iter().enumerate() {
        let Action::Key { key: k, .. } = a else {
            panic!("{name}: not a key: {a:?}")
        };
        let d = Dir::ALL
            .into_iter()
            .find(|&d| screen::key_of(d) == *k)
            .unwrap();
        key = rules.play(&key, d).expect("a legal move").1;
        assert_eq!(r.checkpoints[i].after, i + 1);
        assert_eq!(
            r.checkpoints[i].rows,
            rules.render_rows(&key),
            "{name}: checkpoint {i}"
        );
    }
    assert!(rules.is_won(&key), "{name}: the keys do not win");
}

#[test]
fn every_recorded_screenshot_reads_as_expected() {
    suite().every_case(&cases(DIR, 9));
}

#[test]
fn rescaled_copies_read_the_same() {
    suite().rescaled(&cases(DIR, 9), &[0.6, 0.75, 1.25, 1.5, 2.0]);
}

/// A colour calibration written before the built-in look became a skin
/// still reads, with the colour reader.
#[test]
fn an_older_colour_calibration_still_reads_every_recorded_screenshot() {
    let mut s = suite();
    s.reader = Reader::learnt("skiddy", &fixtures("looks").join("skiddy_colours.toml"));
    s.every_case(&cases(DIR, 9));
    s.rescaled(&cases(DIR, 9), &[0.6, 2.0]);
}

#[test]
fn padded_copies_read_the_same() {
    // The dark desktops are near a pit's near-black.
    suite().padded(&cases(DIR, 9), &desktops(art::PAGE));
}

#[test]
fn a_board_cut_by_the_selection_is_refused() {
    suite().cuts_refused(&cases(DIR, 9));
}

#[test]
fn no_cut_near_a_grid_line_is_misread() {
    suite().no_cut_misread(&cases(DIR, 9), 2.0);
}

const S12: &str =
    "sticky: yes\n########\n#.#r...#\n#r.....#\n##.....#\n##.c...#\nR...o.c#\n########\n";

#[test]
fn every_moving_frame_is_refused_or_read_as_what_it_shows() {
    for text in [
        S12,
        "sticky: no\n#R#B####\n#..b.c.#\n#r..i..#\n#.rr.o.#\n########\n",
    ] {
        let s = suite();
        for d in Dir::ALL {
            let mv = d.letter().to_string();
            for k in 1..20 {
                let opts = RenderOptions {
                    pitch: 40.0,
                    margins: [8.0, 40.0, 8.0, 8.0],
                    seed: 1,
                    moving: Some((mv.clone(), f64::from(k) / 20.0)),
                    verdict: true,
                };
                let Ok(out) = SKIDDY.render(text, "test", &opts) else {
                    break; // the move changes nothing
                };
                let mut want = out.expect.clone();
                want["state"] = "uncertain".into();
                let t = Truth::of(&want);
                s.check(&format!("{mv}@{k}/20"), &want, &s.solve(&out.image), t);
            }
        }
    }
}

#[test]
fn a_won_board_reads_as_solved() {
    let opts = RenderOptions {
        pitch: 40.0,
        margins: [8.0, 30.0, 8.0, 8.0],
        seed: 1,
        moving: Some(("U".into(), 1.0)),
        verdict: true,
    };
    let all = "#R#B#G#Y#\n#r.b.g.y#\n#.......#\n#.c.i.o.#\n#########\n";
    let out = SKIDDY.render(all, "test", &opts).unwrap();
    assert_eq!(out.expect["state"], "solved");
    let r = suite().solve(&out.image);
    assert_eq!(r.state.name(), "solved", "{}", r.reason);
    assert_eq!(r.board.unwrap().cells, rows(&out.expect["cells"]));
    assert!(r.actions.unwrap_or_default().is_empty());
}

#[test]
fn blocks_that_disagree_on_glue_are_refused() {
    let c = cases(DIR, 9)
        .into_iter()
        .find(|c| c.name == "s12_p48")
        .unwrap();
    // Paint over the stud of the top left block.
    let t = Truth::of(&c.want);
    let (cx, cy, p) = (t.x0 + t.pitch() / 2.0, t.y0 + t.pitch() / 2.0, t.pitch());
    let area = (cx - 0.15 * p, cx + 0.15 * p, cy - 0.15 * p, cy + 0.15 * p);
    let r = suite().solve(&covered(&c.img, area, art::BLOCK));
    assert_eq!(r.state.name(), "uncertain", "{}", r.reason);
    assert!(r.reason.contains("sticky"), "{}", r.reason);
    assert_eq!(r.unreadable.len(), 1, "the odd block is named");
}

#[test]
fn calibrate_learns_the_look_from_a_plain_and_a_sticky_level() {
    // The level files themselves are the positions (their comments and
    // sticky lines are read as `solve --level` reads them).
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("s9.txt");
    let text = "; practice seed 9\nsticky: no\n########\n#..ci..#\n#.#....#\nR......#\n#...b.##\n#.or...#\n####B###\n";
    std::fs::write(&plain, text).unwrap();
    let sticky = dir.path().join("s11.txt");
    let text = "; practice seed 11\n####RB##\n#.rc...#\n#.r...##\n#......#\n#b#....#\n########\n";
    std::fs::write(&sticky, text).unwrap();
    let (plain, sticky) = (plain.to_str().unwrap(), sticky.to_str().unwrap());
    // One kind of block alone cannot say which kind a look's blocks are.
    let one = common::boardbot(&[
        "calibrate",
        "--game",
        "skiddy",
        "--image",
        fixtures(DIR).join("s9_p80.png").to_str().unwrap(),
        "--level",
        plain,
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&one.stderr);
    assert!(
        !one.status.success() && err.contains("a sticky level and a non-sticky one"),
        "{err}"
    );
    let second = fixtures(DIR).join("s11_p56.png");
    let learned = calibrate(
        "skiddy",
        &fixtures(DIR).join("s9_p80.png"),
        &[
            "--level",
            plain,
            "--image",
            second.to_str().unwrap(),
            "--level",
            sticky,
        ],
        dir.path(),
    );
    for name in ["s12_p40", "s12_p48"] {
        let png = fixtures(DIR).join(format!("{name}.png"));
        let v = solve_cli(
            "skiddy",
            &png,
            &["--calibration", learned.to_str().unwrap()],
        );
        assert_eq!(v["state"], "playable", "{name}: {v}");
    }
}
