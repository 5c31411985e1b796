//! `cargo bench --bench rush_screen`: medians for reading a Rush Hour
//! board from a screenshot (goal: under 5 ms), and for the whole
//! `solve_image` (read, solve, plan the drags), each next to one grayscale
//! pass over the same image as a baseline, so the ratio holds from one
//! machine to another. Each read through the built-in look (a skin the
//! learner made from the art) is followed by the same picture read through
//! the colour look it replaced (`tests/fixtures/looks/rush_colours.toml`, as a user's
//! older colour calibration still reads): issue 19 allows the first twice
//! the time of the second.

mod common;

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use boardbot::game::OnScreen;
use boardbot::games::rush::RUSH;
use boardbot::games::rush::art::{self, Scene};
use boardbot::games::rush::board::Puzzle;
use common::{assert_reads_cleanly, runs};
use image::RgbImage;

fn row(name: &str, t: &[Duration], baseline: Option<Duration>) {
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let m = t[t.len() / 2];
    let p90 = t[(t.len() * 9 / 10).min(t.len() - 1)];
    let ratio = baseline.map_or(String::new(), |b| {
        format!(
            "  = {:.1}× a grayscale pass",
            m.as_secs_f64() / b.as_secs_f64()
        )
    });
    println!(
        "{name:<46} median {:>8.3} ms  p90 {:>8.3} ms  n={:<5}{ratio}",
        ms(m),
        ms(p90),
        t.len()
    );
}

fn gray(img: &RgbImage) -> u64 {
    img.pixels()
        .map(|p| u64::from(p[0]) * 3 + u64::from(p[1]) * 6 + u64::from(p[2]))
        .sum()
}

fn main() {
    let cal = RUSH.load_calibration(None).expect("built-in calibration");
    let colours =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/looks/rush_colours.toml");
    let colours = RUSH
        .load_calibration(Some(&colours))
        .expect("the colour look");
    let budget = Duration::from_secs(2);
    for (board, pitch, margin) in [
        ("IBBxooIooLDDJAALooJoKEEMFFKooMGGHHHM", 64.0, 20.0),
        ("GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo", 40.0, 60.0),
    ] {
        let (p, s) = Puzzle::parse(board).expect("board");
        let (img, _) = art::picture(&Scene::of(&p, s), pitch, [margin; 4]);
        let (w, h) = img.dimensions();
        let base = runs(budget, || {
            black_box(gray(black_box(&img)));
        });
        let b = base[base.len() / 2];
        row(&format!("grayscale pass, {w}x{h}"), &base, None);
        assert_reads_cleanly(&RUSH, &img, &cal);
        let t = runs(budget, || {
            black_box(RUSH.look(black_box(&img), &cal));
        });
        row(&format!("read 6x6 at pitch {pitch}, {w}x{h}"), &t, Some(b));
        assert_reads_cleanly(&RUSH, &img, &colours);
        let t = runs(budget, || {
            black_box(RUSH.look(black_box(&img), &colours));
        });
        row("  the same through the colour look replaced", &t, Some(b));
        let opts = Default::default();
        let t = runs(budget, || {
            black_box(RUSH.solve_image(black_box(&img), &cal, &opts).ok());
        });
        row(
            &format!("solve_image (read+solve+drags), {w}x{h}"),
            &t,
            Some(b),
        );
    }
}
