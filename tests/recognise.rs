//! The game recognised from the picture alone (`solve --image` with no
//! `--game`): boardbot's own art of every art game at several pitches and
//! margins, the recorded Troyis screens, and pictures of no game at all
//! (blank pages, text, plain checkerboards, gradients), which no game may
//! claim. Every picture is made here, at test time. The real sgt and GNOME
//! windows are in `live_recognise.rs`.

mod common;

use boardbot::art::font::draw_text;
use boardbot::art::render::RenderOptions;
use boardbot::game::recognise::Lineup;
use boardbot::games::{REGISTRY, find};
use boardbot::report::{Report, Verdict};
use boardbot::tools::options::Options;
use image::{Rgb, RgbImage};

fn lineup() -> Lineup {
    Lineup::builtin(REGISTRY)
}

fn recognise(l: &Lineup, img: &RgbImage) -> Report {
    l.solve(img, &Options::default(), None)
        .expect("recognition runs")
        .report
}

/// Positions of each art game that its own art draws, two or three each.
fn positions() -> Vec<(&'static str, String)> {
    use boardbot::games::{bitlock, continuity, rush, skiddy, troyis};
    let mut out = Vec::new();
    for (side, targets, seed) in [(6, 14, 3), (8, 30, 9)] {
        let board = troyis::levels::generate(side, targets, seed);
        out.push(("troyis", board.row_strings().join("/")));
    }
    for seed in [2, 7] {
        out.push((
            "bitlock",
            bitlock::generate::generate(seed).expect("a level").text,
        ));
        out.push(("skiddy", skiddy::seeds::seeded(seed).expect("a level").text));
        out.push(("rush", rush::boards::pick(seed).expect("a board").board));
    }
    for name in ["01-walk", "04-swap"] {
        out.push((
            "continuity",
            continuity::levels::find(name).expect("bundled").into(),
        ));
    }
    out
}

#[test]
fn own_art_is_recognised_at_several_pitches_and_margins() {
    let l = lineup();
    let looks = [
        (24.0, [3.0, 3.0, 3.0, 3.0]),
        (40.0, [30.0, 60.0, 12.0, 20.0]),
        (64.0, [8.0, 40.0, 80.0, 8.0]),
    ];
    let mut checked = 0;
    for (id, text) in positions() {
        let game = find(id).expect("registered");
        for (pitch, margins) in looks {
            let opts = RenderOptions {
                pitch,
                margins,
                seed: 1,
                moving: None,
                verdict: true,
            };
            let drawn = game.render(&text, "test", &opts).expect("drawn");
            let want = drawn.expect["state"].as_str().unwrap_or("playable");
            let r = recognise(&l, &drawn.image);
            let others: Vec<String> = r
                .candidates
                .iter()
                .map(|c| format!("{}: {} ({})", c.game, c.state.name(), c.reason))
                .collect();
            assert_eq!(
                (r.game, r.state.name()),
                (Some(id), want),
                "{id} at pitch {pitch}, margins {margins:?}: {}\n{}",
                r.reason,
                others.join("\n")
            );
            assert_eq!(r.candidates.len(), l.ids().len(), "every game looked");
            checked += 1;
        }
    }
    assert!(checked >= 30, "{checked} pictures");
}

#[test]
fn recorded_troyis_screens_are_recognised() {
    let l = lineup();
    for (name, want) in common::fixture_cases("troyis", 5) {
        let state = want["state"].as_str().expect("a state");
        if state == "no_board" || state == "uncertain" {
            continue;
        }
        let img = image::open(common::fixtures("troyis").join(format!("{name}.png")))
            .expect("the screenshot")
            .to_rgb8();
        let r = recognise(&l, &img);
        assert_eq!(
            (r.game, r.state.name()),
            (Some("troyis"), state),
            "{name}: {}",
            r.reason
        );
    }
    let Some(dir) = common::shared("troyis") else {
        return;
    };
    let truth: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("truth.json")).expect("truth"))
            .expect("truth.json");
    let mut seen = 0;
    for (file, want) in truth.as_object().expect("by file") {
        if file.starts_with('_') {
            continue;
        }
        let img = image::open(dir.join(file)).expect("a screenshot").to_rgb8();
        let r = recognise(&l, &img);
        if want["state"] == "playable" {
            assert_eq!(
                (r.game, r.state),
                (Some("troyis"), Verdict::Playable),
                "{file}: {}",
                r.reason
            );
            let cells = &r.board.as_ref().expect("a board").cells;
            assert_eq!(serde_json::json!(cells), want["cells"], "{file}");
            seen += 1;
        } else {
            // Not playable: Troyis refuses it, or no game claims it.
            assert!(r.game.is_none_or(|g| g == "troyis"), "{file}: {:?}", r.game);
            assert!(
                r.actions.as_ref().is_some_and(Vec::is_empty),
                "{file}: input"
            );
        }
    }
    assert!(seen >= 5, "{seen} real Troyis screenshots recognised");
}

/// A page of text in boardbot's own pixel font.
fn text_page(w: u32, h: u32) -> RgbImage {
    let mut img = RgbImage::from_pixel(w, h, Rgb([250, 250, 246]));
    let words = [
        "THE QUICK BROWN FOX",
        "JUMPS OVER 12 LAZY DOGS",
        "LOREM IPSUM 3.14",
    ];
    for (i, y) in (10..h.saturating_sub(20)).step_by(22).enumerate() {
        let line = words[i % words.len()];
        draw_text(&mut img, 12, i64::from(y), line, 2, Rgb([20, 20, 30]));
        draw_text(&mut img, 340, i64::from(y), line, 2, Rgb([20, 20, 30]));
    }
    img
}

/// An 8×8 checkerboard of `pitch` pixels in two colours, on a margin.
fn checkerboard(pitch: u32, margin: u32, a: [u8; 3], b: [u8; 3]) -> RgbImage {
    let side = 8 * pitch + 2 * margin;
    RgbImage::from_fn(side, side, |x, y| {
        if x < margin || y < margin || x >= side - margin || y >= side - margin {
            return Rgb([255, 255, 255]);
        }
        let (c, r) = ((x - margin) / pitch, (y - margin) / pitch);
        Rgb(if (c + r) % 2 == 0 { a } else { b })
    })
}

/// A `n`×`n` grid of cells of one colour, drawn as the practice windows
/// draw their boards: no level of any game is all walls.
fn grid_of(n: usize, cell: [u8; 3], page: [u8; 3]) -> RgbImage {
    use boardbot::art::board::{draw_lines, layout};
    let pitch = 40.0;
    let (w, h, lattice) = layout(n, n, pitch, [16.0, 40.0, 16.0, 16.0]);
    let mut img = RgbImage::from_pixel(w, h, Rgb(page));
    let b = lattice.bounds();
    for y in b.y0 as u32..b.y1 as u32 {
        for x in b.x0 as u32..b.x1 as u32 {
            img.put_pixel(x, y, Rgb(cell));
        }
    }
    draw_lines(&mut img, &lattice, pitch);
    img
}

#[test]
fn pictures_of_no_game_are_claimed_by_none() {
    let l = lineup();
    let gradient = RgbImage::from_fn(700, 700, |x, y| {
        Rgb([(x * 255 / 700) as u8, (y * 255 / 700) as u8, 128])
    });
    let radial = RgbImage::from_fn(500, 400, |x, y| {
        let d = ((f64::from(x) - 250.0).hypot(f64::from(y) - 200.0) / 2.0) as u8;
        Rgb([d, d / 2, 255 - d])
    });
    let cases = [
        (
            "white page",
            RgbImage::from_pixel(700, 700, Rgb([255, 255, 255])),
        ),
        (
            "dark page",
            RgbImage::from_pixel(640, 480, Rgb([30, 30, 34])),
        ),
        ("text", text_page(700, 700)),
        (
            "checkerboard",
            checkerboard(50, 20, [0, 0, 0], [255, 255, 255]),
        ),
        (
            "chess colours",
            checkerboard(70, 30, [181, 136, 99], [240, 217, 181]),
        ),
        (
            "grey checkerboard",
            checkerboard(36, 4, [100, 100, 100], [200, 200, 200]),
        ),
        (
            "edge to edge",
            checkerboard(60, 0, [40, 90, 160], [230, 230, 230]),
        ),
        ("gradient", gradient),
        ("radial", radial),
        (
            "skiddy blocks only",
            grid_of(
                8,
                boardbot::games::skiddy::art::BLOCK,
                boardbot::games::skiddy::art::PAGE,
            ),
        ),
        (
            "bitlock walls only",
            grid_of(
                8,
                boardbot::games::bitlock::art::WALL,
                boardbot::games::bitlock::art::PAGE,
            ),
        ),
        (
            "bitlock floor only",
            grid_of(
                6,
                boardbot::games::bitlock::art::FLOOR,
                boardbot::games::bitlock::art::PAGE,
            ),
        ),
    ];
    for (what, img) in cases {
        let r = recognise(&l, &img);
        assert_eq!(r.game, None, "{what} was claimed: {}", r.reason);
        assert!(r.state.refuses(), "{what}: {}", r.state.name());
        assert!(
            r.actions.as_ref().is_some_and(Vec::is_empty),
            "{what}: input planned"
        );
    }
}

#[test]
fn the_command_line_names_the_game_and_every_candidate() {
    let dir = tempfile::tempdir().expect("temp dir");
    let shot = dir.path().join("shot.png");
    checkerboard(50, 20, [0, 0, 0], [255, 255, 255])
        .save(&shot)
        .expect("saved");
    let run = |img: &std::path::Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_boardbot"))
            .args(["solve", "--json", "--image"])
            .arg(img)
            .env("BOARDBOT_CONFIG_DIR", dir.path())
            .output()
            .expect("boardbot runs")
    };
    let out = run(&shot);
    assert_eq!(out.status.code(), Some(3), "nothing to act on");
    let v = common::stdout_json(&out);
    assert!(v["game"].is_null(), "{v}");
    let candidates = v["candidates"].as_array().expect("candidates");
    assert_eq!(candidates.len(), 8, "every screen game looked: {v}");
    for c in candidates {
        assert!(c["game"].is_string() && c["state"].is_string() && c["reason"].is_string());
    }
    let fixture = common::fixtures("troyis").join("k9_p36_margin_purple.png");
    let out = run(&fixture);
    assert_eq!(out.status.code(), Some(0));
    let v = common::stdout_json(&out);
    assert_eq!(v["game"], "troyis", "{v}");
    assert_eq!(v["state"], "playable");
    assert!(!v["actions"].as_array().expect("clicks").is_empty());
    let won = v["candidates"]
        .as_array()
        .expect("candidates")
        .iter()
        .filter(|c| c["state"] != "no_board" && c["state"] != "uncertain")
        .count();
    assert_eq!(won, 1, "one game read it: {v}");
    // A position written as text says no game: --game is needed.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_boardbot"))
        .args(["solve", "--board", "K./.W"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_text_report_says_what_each_game_saw() {
    let l = lineup();
    let r = recognise(&l, &checkerboard(40, 10, [0, 0, 0], [255, 255, 255]));
    let text = r.to_text();
    assert!(text.contains("No game recognised"), "{text}");
    for id in l.ids() {
        assert!(text.contains(&format!("  {id}: ")), "{id} missing:\n{text}");
    }
    assert_eq!(r.state.exit_code(), 3);
    assert!(matches!(r.state, Verdict::NoBoard | Verdict::Uncertain));
}
