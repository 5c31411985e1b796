//! `cargo bench --bench skiddy_screen`: medians for Skiddy on the screen:
//! vision (the whole read: lattice, every cell's patches, the glue studs,
//! the cut check and the level parser) on an 8×7 board at the practice
//! window's pitch and at 0.6× and 2×, and the whole `solve_image` (read,
//! solve, keys and checkpoints), each next to one grayscale pass over the
//! same image, in the same process, as the baseline. The built-in look is
//! a skin the learner made from the art; each picture is also read through
//! the colour look it replaced (`tests/fixtures/looks/skiddy_colours.toml`, as a user's
//! older colour calibration still reads): issue 19 allows the first twice
//! the time of the second.

mod common;

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use boardbot::art::render::RenderOptions;
use boardbot::game::Game;
use boardbot::game::OnScreen;
use boardbot::games::skiddy::SKIDDY;
use boardbot::tools::options::Options;
use common::{assert_reads_cleanly, gray, median, row_vs, runs};
use image::{RgbImage, imageops};

/// Practice seed 12: sticky, two crates, a pit; 8 moves.
const LEVEL: &str =
    "sticky: yes\n########\n#.#r...#\n#r.....#\n##.....#\n##.c...#\nR...o.c#\n########\n";

/// The level drawn as the practice window draws it.
fn board(pitch: f64) -> RgbImage {
    let opts = RenderOptions {
        pitch,
        margins: [pitch * 0.4, pitch * 0.8, pitch * 0.4, pitch * 0.4],
        seed: 1,
        moving: None,
        verdict: false,
    };
    SKIDDY.render(LEVEL, "bench", &opts).expect("render").image
}

fn main() {
    let cal = SKIDDY.load_calibration(None).expect("built-in calibration");
    let colours =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/looks/skiddy_colours.toml");
    let colours = SKIDDY
        .load_calibration(Some(&colours))
        .expect("the colour look");
    let budget = Duration::from_secs(2);
    let at48 = board(48.0);
    let (w, h) = at48.dimensions();
    let scaled = |s: f64| {
        let (sw, sh) = (
            (f64::from(w) * s).round() as u32,
            (f64::from(h) * s).round() as u32,
        );
        imageops::resize(&at48, sw, sh, imageops::FilterType::Triangle)
    };
    for (what, img) in [
        ("1x", at48.clone()),
        ("0.6x", scaled(0.6)),
        ("2x", scaled(2.0)),
    ] {
        let (w, h) = img.dimensions();
        let base = runs(budget, || {
            black_box(gray(black_box(&img)));
        });
        row_vs(&format!("grayscale pass, {w}x{h}"), &base, None);
        let b = Some(median(&base));
        assert_reads_cleanly(&SKIDDY, &img, &cal);
        let t = runs(budget, || {
            black_box(SKIDDY.look(black_box(&img), &cal));
        });
        row_vs(&format!("vision: read 8x7 at {what}, {w}x{h}"), &t, b);
        assert_reads_cleanly(&SKIDDY, &img, &colours);
        let t = runs(budget, || {
            black_box(SKIDDY.look(black_box(&img), &colours));
        });
        row_vs(
            &format!("vision through the colour look replaced, {what}"),
            &t,
            b,
        );
        let opts = Options::default();
        let t = runs(budget, || {
            black_box(SKIDDY.solve_image(black_box(&img), &cal, &opts).ok());
        });
        row_vs(&format!("solve_image (read+solve+keys) at {what}"), &t, b);
    }
}
