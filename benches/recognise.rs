//! `cargo bench --bench recognise`: what recognising the game costs. For a
//! board of each art game drawn on a 700×700 selection, the median of
//! `solve --image` with the game named (its reader and plan) and with no
//! game named (every game reads, in parallel, the one that claims the
//! board plans), and the difference: the time recognition adds before the
//! first input. Also pictures of no game (a checkerboard, a text-free
//! gradient), where every reader runs to its refusal.

mod common;

use std::hint::black_box;
use std::time::Duration;

use boardbot::art::render::RenderOptions;
use boardbot::calibration::Calibration;
use boardbot::game::recognise::Lineup;
use boardbot::games::{REGISTRY, find};
use boardbot::tools::options::Options;
use common::{median, ms, row, runs};
use image::{Rgb, RgbImage};

/// One position per art game, drawn so that the picture is about 700×700.
fn boards() -> Vec<(&'static str, RgbImage)> {
    use boardbot::games::{bitlock, continuity, rush, skiddy, troyis};
    let cases: Vec<(&str, String, f64)> = vec![
        (
            "troyis",
            troyis::levels::generate(9, 40, 3).row_strings().join("/"),
            74.0,
        ),
        (
            "bitlock",
            bitlock::generate::generate(5).expect("level").text,
            80.0,
        ),
        ("rush", rush::boards::pick(3).expect("board").board, 110.0),
        (
            "skiddy",
            skiddy::seeds::seeded(9).expect("level").text,
            76.0,
        ),
        (
            "continuity",
            continuity::levels::find("04-swap").expect("level").into(),
            60.0,
        ),
    ];
    cases
        .into_iter()
        .map(|(id, text, pitch)| {
            let game = find(id).expect("registered");
            let draw = |pitch: f64| {
                let opts = RenderOptions {
                    pitch,
                    margins: [12.0, 30.0, 12.0, 12.0],
                    seed: 1,
                    moving: None,
                    verdict: false,
                };
                game.render(&text, "bench", &opts).expect("drawn").image
            };
            // Redrawn at the pitch that makes the larger side 700 pixels.
            let first = draw(pitch);
            let side = f64::from(first.width().max(first.height()));
            (id, draw((pitch * 700.0 / side).floor()))
        })
        .collect()
}

fn main() {
    let lineup = Lineup::builtin(REGISTRY);
    let opts = Options::default();
    let budget = Duration::from_secs(3);
    for (id, img) in boards() {
        let screen = find(id).and_then(|g| g.screen()).expect("a screen game");
        let cal = Calibration::embedded(screen.looks()[0], id).expect("built in");
        let named = runs(budget, || {
            black_box(screen.solve_image(black_box(&img), &cal, &opts).ok());
        });
        let any = runs(budget, || {
            black_box(lineup.solve(black_box(&img), &opts, None).ok());
        });
        let (w, h) = (img.width(), img.height());
        row(&format!("{id} {w}x{h}: --game {id}"), &named);
        row(&format!("{id} {w}x{h}: no --game"), &any);
        println!(
            "{:<52} {:>8.3} ms",
            format!("{id}: recognition adds (median)"),
            ms(median(&any)) - ms(median(&named))
        );
    }
    let checker = RgbImage::from_fn(700, 700, |x, y| {
        Rgb(if (x / 80 + y / 80) % 2 == 0 {
            [0; 3]
        } else {
            [255; 3]
        })
    });
    let gradient = RgbImage::from_fn(700, 700, |x, y| {
        Rgb([(x * 255 / 700) as u8, (y * 255 / 700) as u8, 128])
    });
    for (what, img) in [
        ("checkerboard 700x700", checker),
        ("gradient 700x700", gradient),
    ] {
        let t = runs(budget, || {
            black_box(lineup.solve(black_box(&img), &opts, None).ok());
        });
        row(&format!("{what}: no --game (refused)"), &t);
    }
}
