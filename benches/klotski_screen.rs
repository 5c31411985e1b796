//! `cargo bench --bench klotski_screen`: medians for reading GNOME
//! Klotski's window (`read`: the frame, the lattice, every cell, the joins
//! between blue cells, and the level the drawings fit), on the largest
//! levels (Sunshine 17x22, Ithaca 19x19, in a 900x1000 window) and on a
//! 6x9 one (Red Donkey, 600x500), at 1x and rescaled (0.75x, 1.5x). The
//! 6x9 read at 1x is the baseline each line is compared with (and one
//! grayscale pass over its image), so the ratios hold from one machine to
//! another.
//!
//! GNOME's art is not ours to ship, so the bench does what the tests do:
//! gnome-klotski runs on a private Xvfb display with private settings
//! (tests/common/klotski.rs) and its window is grabbed now. Without Xvfb,
//! xdotool or gnome-klotski it says so and measures nothing.

mod common;
#[path = "../tests/common/mod.rs"]
mod tests_common;

use std::hint::black_box;
use std::time::Duration;

use boardbot::calibration::Calibration;
use boardbot::games::klotski::read::{self, LOOKS, Read};
use common::{gray, median, ms, runs};
use tests_common::display::{have_xdotool, xvfb};
use tests_common::klotski::{Klotski, available};
use tests_common::rescaled;

fn main() {
    if !available() || !have_xdotool() {
        println!("skipped: gnome-klotski or xdotool is missing (.ci/deps installs them)");
        return;
    }
    let Some(display) = xvfb(91) else {
        return;
    };
    let cal = Calibration::embedded(LOOKS[0], "klotski").expect("the built-in calibration");
    let mut shots = Vec::new();
    for (level, size) in [(6, None), (27, Some((900, 1000))), (19, Some((900, 1000)))] {
        let k = Klotski::open(&display.name, level, size);
        shots.push((level, k.grab()));
    }
    let budget = Duration::from_secs(2);
    let base_img = &shots[0].1;
    let g = runs(budget, || {
        black_box(gray(black_box(base_img)));
    });
    let base = runs(budget, || {
        black_box(read::read(black_box(base_img), &cal));
    });
    let (b, gb) = (median(&base), median(&g));
    let row = |name: String, t: &[Duration]| {
        println!(
            "{name:<46} median {:>8.3} ms  n={:<5} = {:>5.2}x the 6x9 read, {:>6.1}x a grayscale pass",
            ms(median(t)),
            t.len(),
            median(t).as_secs_f64() / b.as_secs_f64(),
            median(t).as_secs_f64() / gb.as_secs_f64()
        );
    };
    let (w, h) = base_img.dimensions();
    row(format!("grayscale pass, Red Donkey {w}x{h}"), &g);
    for (level, shot) in &shots {
        for s in [1.0, 0.75, 1.5] {
            let img = if s == 1.0 {
                shot.clone()
            } else {
                rescaled(shot, s)
            };
            let name = match read::read(&img, &cal) {
                Read::Board { board, .. } => board.level.name,
                _ => panic!("level {level} at {s}x does not read"),
            };
            let t = runs(budget, || {
                black_box(read::read(black_box(&img), &cal));
            });
            let (w, h) = img.dimensions();
            row(format!("read {name} {s}x, {w}x{h}"), &t);
        }
    }
}
