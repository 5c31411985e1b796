//! `cargo bench --bench bitlock_screen`: medians for B.i.t.Lock on the
//! screen: vision (the whole read: lattice, every cell's patches, the
//! trust step and the engine's legality check) on an 8×8 board at the
//! practice window's pitch and at 0.6× and 2×, the whole `solve_image`
//! (read, solve, keys and checkpoints), and the generic lattice finder
//! alone as a baseline in the same process. Each vision row is followed by
//! the same picture read through a look learned from the practice art, as
//! `calibrate` learns one (what the built-in reader would cost were the
//! built-in look a calibration).

mod common;

use std::hint::black_box;
use std::time::Duration;

use boardbot::art::render::RenderOptions;
use boardbot::game::Game;
use boardbot::game::OnScreen;
use boardbot::games::bitlock::{BitLock, generate, read};
use boardbot::tools::options::Options;
use boardbot::vision::find_lattice;
use boardbot::vision::skin;
use common::{assert_reads_cleanly, learned, row, runs, with_skin};
use image::{RgbImage, imageops};

/// A generated 8×8 level drawn as the practice window draws it.
fn board(seed: u64, pitch: f64) -> RgbImage {
    let level = generate::generate(seed).expect("a generated level").text;
    let opts = RenderOptions {
        pitch,
        margins: [pitch * 0.4, pitch * 0.8, pitch * 0.4, pitch * 0.4],
        seed,
        moving: None,
        verdict: false,
    };
    BitLock
        .render(&level, "bench", &opts)
        .expect("render")
        .image
}

fn main() {
    let cal = BitLock
        .load_calibration(None)
        .expect("built-in calibration");
    let budget = Duration::from_secs(2);
    // Taught at the practice window's pitch, as a built-in look would be.
    let as_skin = with_skin(&cal, learned(&BitLock, &[TEN], 48.0));
    let img = board(5, 48.0);
    for (what, scale) in [("1x, 48 px cells", 1.0), ("0.6x", 0.6), ("2x", 2.0)] {
        let (w, h) = (img.width() as f64 * scale, img.height() as f64 * scale);
        let s = imageops::resize(&img, w as u32, h as u32, imageops::FilterType::Triangle);
        let t = runs(budget, || {
            black_box(read::read(black_box(&s), &cal));
        });
        row(&format!("vision, 8x8 board, {what}"), &t);
        assert_reads_cleanly(&BitLock, &s, &as_skin);
        let t = runs(budget, || {
            black_box(BitLock.look(black_box(&s), &as_skin));
        });
        row(
            &format!("vision through the art's look learned, {what}"),
            &t,
        );
    }
    let t = runs(budget, || {
        black_box(find_lattice(black_box(&img), &cal.params.lattice));
    });
    row("baseline: the lattice finder alone, 8x8 at 1x", &t);
    let t = runs(budget, || {
        let r = BitLock.solve_image(black_box(&img), &cal, &Options::default());
        black_box(r.expect("solve"));
    });
    row("solve_image: read, solve, keys, checkpoints (8x8)", &t);
    skins(budget);
}

/// A 10×10 level: walls, floor, targets, tiles of two types, a reverse
/// tile, a fixed and a moving destroyer.
const TEN: &str = "##########\n#a..A....#\n#..#..b..#\n#.B...+..#\n#...z....#\n#..A..*..#\n#.....#..#\n#b.....B.#\n#........#\n##########\n";

/// The same board read through a skin learned from the practice art, and
/// the learning itself, which `calibrate` does. The practice art has grid
/// lines, which give the skin's reader its first guess; the rows "by the
/// looks alone" read without them, as a skin drawn with none is read.
fn skins(budget: Duration) {
    let labels = |text: &str| {
        BitLock
            .skin_labels(text)
            .expect("reads skins")
            .expect("a level")
    };
    let shot = |text: &str, pitch: f64| {
        BitLock
            .render(text, "bench", &RenderOptions::still(pitch))
            .expect("render")
            .image
    };
    let ten = shot(TEN, 40.0);
    let ten_labels = labels(TEN);
    let learn = || {
        let shots = [skin::Shot {
            image: &ten,
            labels: &ten_labels,
            slot: None,
        }];
        skin::learn(&shots).expect("a skin")
    };
    let t = runs(budget, || {
        black_box(learn());
    });
    row(
        "skin: calibrate on one 10x10 screenshot (learn and self-check)",
        &t,
    );
    let (learned, _) = learn();
    let level = generate::generate(5).expect("a generated level").text;
    // The same skin told its shots showed no grid lines: the lattice
    // placed by the cells' looks alone, as for a skin drawn without them.
    let unlined = skin::Skin {
        lines: None,
        ..learned.clone()
    };
    for (what, pitch) in [("1x, 40 px cells", 40.0), ("0.5x", 20.0), ("2x", 80.0)] {
        let img = shot(&level, pitch);
        for (how, skin) in [("", &learned), (", by the looks alone", &unlined)] {
            let t = runs(budget, || {
                black_box(skin::locate(black_box(&img), skin).expect("a board"));
            });
            row(&format!("skin: vision, 8x8 board, {what}{how}"), &t);
        }
    }
}
