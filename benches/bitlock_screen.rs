//! `cargo bench --bench bitlock_screen`: medians for B.i.t.Lock on the
//! screen: vision (the whole read: lattice, every cell's patches, the
//! trust step and the engine's legality check) on an 8×8 board at the
//! practice window's pitch and at 0.6× and 2×, the whole `solve_image`
//! (read, solve, keys and checkpoints), and the generic lattice finder
//! alone as a baseline in the same process. Each vision row is followed by
//! the same picture read through a look learned from the practice art, as
//! `calibrate` learns one (what the built-in reader would cost were the
//! built-in look a calibration), and through a look taught every piece on
//! every target (some 390 looks, most of them made from the pairs shown:
//! the cost of judging each cell against so many).

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
use common::{assert_reads_cleanly, learn_drawn, learned, row, runs, with_skin};
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
    let every_pair = with_skin(&cal, every_pair());
    let img = board(5, 48.0);
    for (what, scale) in [("1x, 48 px cells", 1.0), ("0.6x", 0.6), ("2x", 2.0)] {
        let (w, h) = (img.width() as f64 * scale, img.height() as f64 * scale);
        let s = imageops::resize(&img, w as u32, h as u32, imageops::FilterType::Triangle);
        let t = runs(budget, || {
            black_box(read::read(black_box(&s), &cal));
        });
        row(&format!("vision, 8x8 board, {what}"), &t);
        for (look, skin) in [
            ("the art's look learned", &as_skin),
            ("a look taught every pair", &every_pair),
        ] {
            assert_reads_cleanly(&BitLock, &s, skin);
            let t = runs(budget, || {
                black_box(BitLock.look(black_box(&s), skin));
            });
            row(&format!("vision through {look}, {what}"), &t);
        }
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

/// Every kind of cell bare: each type's tile, reverse tile and target,
/// floor, wall, a fixed and a moving destroyer.
const BARE: &str = "#################\n#abcdefghijklm..#\n#ABCDEFGHIJKLM..#\n#zyxwvutsrqpon..#\n#.+.*..+..*.....#\n#################\n";

/// After one move right, each type's tile and reverse tile on a target of
/// its type, and the moving destroyer on six of them.
const ON_TARGETS: &str = "##########\n#aA.Az.*A#\n#bB.By...#\n#cC.Cx.*C#\n#dD.Dw...#\n#eE.Ev.*E#\n#fF.Fu...#\n#gG.Gt...#\n#hH.Hs.*H#\n#iI.Ir...#\n#jJ.Jq...#\n#kK.Kp.*K#\n#lL.Lo...#\n#mM.Mn.*M#\n##########\n";

/// A look taught [`BARE`] and [`ON_TARGETS`] at 24, 48 and 96 px, as
/// `calibrate` teaches one: every piece on every target, 351 pairs, most
/// of them made from the 32 shown, so each cell is judged against some
/// 390 looks (what a built-in look of B.i.t.Lock as a skin would be).
fn every_pair() -> skin::Skin {
    let mut drawn = Vec::new();
    for pitch in [24.0, 48.0, 96.0] {
        for (text, moves) in [(BARE, ""), (ON_TARGETS, "R")] {
            let opts = RenderOptions {
                moving: (!moves.is_empty()).then(|| (moves.to_string(), 1.0)),
                margins: [8.0; 4],
                ..RenderOptions::still(pitch)
            };
            let image = BitLock.render(text, "bench", &opts).expect("render").image;
            let labels = BitLock
                .skin_labels_after(text, moves)
                .expect("reads skins")
                .expect("a level");
            drawn.push((image, labels, None));
        }
    }
    let skin = learn_drawn(&drawn, BitLock.skin_layers().as_ref());
    println!("a look taught every pair: {} looks", skin.looks.len());
    skin
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
