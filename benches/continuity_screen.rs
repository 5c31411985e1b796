//! `cargo bench --bench continuity_screen`: medians for Continuity on the
//! screen: vision (the whole read: the frame by its colour, the slots, the
//! scene size from the lines between cells, every cell's patches) on a 3×3
//! frame of 8×8 scenes as the practice window draws it (pitch 30, and at
//! 0.6× and 2×), in the play view and the tile view, and the whole
//! `solve_image` (read, plan, keys and checkpoints), each next to one
//! grayscale pass over the same image, in the same process, as the
//! baseline. Then the same frame read through a skin learned from the
//! practice art (`calibrate` on level 5), and the learning itself.

mod common;

use std::hint::black_box;
use std::time::Duration;

use boardbot::art::render::RenderOptions;
use boardbot::game::Game;
use boardbot::game::OnScreen;
use boardbot::games::continuity::{CONTINUITY, levels, read};
use boardbot::tools::options::Options;
use boardbot::vision::skin;
use common::{gray, median, row, row_vs, runs};
use image::{RgbImage, imageops};

/// A bundled level drawn as the practice window draws it, after `moving`.
fn frame(level: &str, pitch: f64, moving: Option<&str>) -> RgbImage {
    let text = levels::find(level).expect("a bundled level");
    let opts = RenderOptions {
        pitch,
        margins: [pitch * 0.5, pitch * 1.2, pitch * 0.5, pitch * 0.5],
        seed: 1,
        moving: moving.map(|m| (m.to_string(), 1.0)),
        verdict: false,
    };
    CONTINUITY
        .render(text, "bench", &opts)
        .expect("render")
        .image
}

fn scaled(img: &RgbImage, s: f64) -> RgbImage {
    let (w, h) = img.dimensions();
    let (sw, sh) = (
        (f64::from(w) * s).round() as u32,
        (f64::from(h) * s).round() as u32,
    );
    imageops::resize(img, sw, sh, imageops::FilterType::Triangle)
}

fn main() {
    let cal = CONTINUITY
        .load_calibration(None)
        .expect("built-in calibration");
    let budget = Duration::from_secs(2);
    let play = frame("1", 30.0, None);
    let tiles = frame("1", 30.0, Some("space"));
    for (what, img) in [
        ("play view 1x", play.clone()),
        ("play view 0.6x", scaled(&play, 0.6)),
        ("play view 2x", scaled(&play, 2.0)),
        ("tile view 1x", tiles),
    ] {
        let (w, h) = img.dimensions();
        let base = runs(budget, || {
            black_box(gray(black_box(&img)));
        });
        row_vs(&format!("grayscale pass, {w}x{h}"), &base, None);
        let b = Some(median(&base));
        let t = runs(budget, || {
            black_box(read::read(black_box(&img), &cal));
        });
        row_vs(&format!("vision: read 3x3 of 8x8, {what}, {w}x{h}"), &t, b);
    }
    let opts = Options::default();
    for level in ["1", "7"] {
        let img = frame(level, 30.0, None);
        let base = runs(budget, || {
            black_box(gray(black_box(&img)));
        });
        let t = runs(budget, || {
            black_box(CONTINUITY.solve_image(black_box(&img), &cal, &opts).ok());
        });
        row_vs(
            &format!("solve_image (read+plan+keys), bundled level {level}"),
            &t,
            Some(median(&base)),
        );
    }
    skins(budget);
}

/// Level 1 read through a skin learned from level 5 as the practice window
/// draws it: the gaps between slots are cells of their own width.
fn skins(budget: Duration) {
    let taught = levels::find("5").expect("a bundled level");
    let labels = CONTINUITY
        .skin_labels(taught)
        .expect("reads skins")
        .expect("a level");
    let shot = frame("5", 30.0, None);
    let learn = || {
        let shots = [skin::Shot {
            image: &shot,
            labels: &labels,
            slot: CONTINUITY.skin_slot(taught),
        }];
        skin::learn(&shots).expect("a skin")
    };
    let t = runs(budget, || {
        black_box(learn());
    });
    row("skin: calibrate on level 5 (learn and self-check)", &t);
    let (learned, _) = learn();
    let play = frame("1", 30.0, None);
    for (what, img) in [("1x", play.clone()), ("2x", scaled(&play, 2.0))] {
        let t = runs(budget, || {
            black_box(skin::locate(black_box(&img), &learned).expect("a board"));
        });
        row(&format!("skin: vision, 3x3 of 8x8, play view {what}"), &t);
    }
}
