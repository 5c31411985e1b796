//! `cargo bench --bench fifteen_screen`: medians for reading sgt-fifteen's
//! window (`read`: the lattice, the gap, every number), and for the whole
//! `solve_image` (read, optimal plan, clicks), next to one grayscale pass
//! over the same image as a baseline, so the ratio holds from one machine
//! to another.
//!
//! sgt's art is not ours to ship, so the bench does what the tests do:
//! sgt-fifteen runs on a private Xvfb display with game IDs of
//! tests/fixtures/fifteen/ids.txt, `boardbot calibrate` learns its
//! numbers from one screenshot, and the windows are grabbed now: a 3x3 and
//! a 4x4 at sgt's size (48 px tiles), and the 4x4 in a window of 520x600
//! (about 100 px tiles). Each is also read with the built-in look, which
//! has no number templates: the numbers are drawn in the desktop's fonts
//! (drawn once per tile size and kept; the first read draws them). Without
//! Xvfb, xdotool or sgt-puzzles it says so and measures nothing.

mod common;
#[path = "../tests/common/mod.rs"]
mod tests_common;

use std::hint::black_box;
use std::time::Duration;

use boardbot::game::OnScreen;
use boardbot::games::fifteen::{FIFTEEN, read};
use common::{gray, median, row_vs, runs};
use tests_common::display::{have_xdotool, xvfb};
use tests_common::sgt::{Window, calibrate_fifteen, fifteen_ids, program};

fn main() {
    let Some(sgt) = program("sgt-fifteen") else {
        return;
    };
    if !have_xdotool() {
        return;
    }
    let Some(display) = xvfb(90) else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let cal_file = calibrate_fifteen(&sgt, &display.name, dir.path());
    let cal = FIFTEEN.load_calibration(Some(&cal_file)).expect("learnt");
    let builtin = FIFTEEN.load_calibration(None).expect("built in");
    let ids = fifteen_ids();
    let mut shots = Vec::new();
    for (id, size) in [
        (&ids[1], None),
        (&ids[2], None),
        (&ids[2], Some((520, 600))),
    ] {
        let mut win = Window::open(&sgt, &display.name, id, (30, 30));
        if let Some((w, h)) = size {
            win.resize(w, h);
        }
        shots.push((id.clone(), win.grab()));
    }
    let budget = Duration::from_secs(2);
    let opts = Default::default();
    for (id, img) in &shots {
        let (w, h) = img.dimensions();
        let base = runs(budget, || {
            black_box(gray(black_box(img)));
        });
        let b = median(&base);
        row_vs(&format!("grayscale pass, {w}x{h}"), &base, None);
        let t = runs(budget, || {
            black_box(read::read(black_box(img), &cal));
        });
        let size = id.split(':').next().unwrap_or("");
        row_vs(&format!("read {size} sgt window, {w}x{h}"), &t, Some(b));
        let t = runs(budget, || {
            black_box(read::read(black_box(img), &builtin));
        });
        row_vs(
            &format!("read {size} with no calibration (the fonts' numbers)"),
            &t,
            Some(b),
        );
        let t = runs(budget, || {
            black_box(FIFTEEN.solve_image(black_box(img), &cal, &opts).ok());
        });
        row_vs(
            &format!("solve_image (read+plan+clicks), {w}x{h}"),
            &t,
            Some(b),
        );
    }
}
