//! Timing shared by the benches: repeated runs of a closure, sorted, so a
//! bench prints medians and 90th percentiles.
#![allow(dead_code)]

use std::time::{Duration, Instant};

/// Runs `f` once to warm up, then for about `budget` (at least 5 times,
/// at most 10,000); returns the sorted run times.
pub fn runs(budget: Duration, mut f: impl FnMut()) -> Vec<Duration> {
    f();
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 5 || (start.elapsed() < budget && times.len() < 10_000) {
        let t = Instant::now();
        f();
        times.push(t.elapsed());
    }
    times.sort();
    times
}

/// The median of sorted times.
pub fn median(t: &[Duration]) -> Duration {
    t[t.len() / 2]
}

/// The 90th percentile of sorted times.
pub fn p90(t: &[Duration]) -> Duration {
    t[(t.len() * 9 / 10).min(t.len() - 1)]
}

pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// One grayscale pass over an image: a baseline that scales with the
/// machine, so a bench's ratios hold from one machine to another.
pub fn gray(img: &image::RgbImage) -> u64 {
    img.pixels()
        .map(|p| u64::from(p[0]) * 3 + u64::from(p[1]) * 6 + u64::from(p[2]))
        .sum()
}

/// Prints a bench line: median, 90th percentile, runs, and the ratio to
/// a baseline's median when there is one.
pub fn row_vs(name: &str, t: &[Duration], baseline: Option<Duration>) {
    let ratio = baseline.map_or(String::new(), |b| {
        format!(
            "  = {:.1}× a grayscale pass",
            median(t).as_secs_f64() / b.as_secs_f64()
        )
    });
    println!(
        "{name:<52} median {:>8.3} ms  p90 {:>8.3} ms  n={:<5}{ratio}",
        ms(median(t)),
        ms(p90(t)),
        t.len()
    );
}

/// Prints a bench line with no baseline.
pub fn row(name: &str, t: &[Duration]) {
    row_vs(name, t, None);
}

/// A look learned as `calibrate` learns it, from screenshots of `texts`
/// drawn by the game's own art at `pitch` px a cell: the built-in look as
/// a skin, to time a read through it against the built-in reader on the
/// same pictures.
pub fn learned<G>(game: &G, texts: &[&str], pitch: f64) -> boardbot::vision::skin::Skin
where
    G: boardbot::game::Game + boardbot::game::OnScreen,
{
    let opts = boardbot::art::render::RenderOptions::still(pitch);
    let drawn: Vec<_> = texts
        .iter()
        .map(|t| {
            let image = game.render(t, "bench", &opts).expect("render").image;
            let labels = game
                .skin_labels(t)
                .expect("the game reads skins")
                .expect("a level");
            (image, labels, game.skin_slot(t))
        })
        .collect();
    learn_drawn(&drawn, None)
}

/// A picture drawn by a game's art, its cells' classes and its slot.
pub type Drawn = (image::RgbImage, Vec<Vec<String>>, Option<usize>);

/// A look learned from pictures drawn with their labels (and slot), as
/// `calibrate` learns one; `layers` for a game whose cells stack.
pub fn learn_drawn(
    drawn: &[Drawn],
    layers: Option<&boardbot::vision::skin::Layers>,
) -> boardbot::vision::skin::Skin {
    use boardbot::vision::skin;
    let shots: Vec<skin::Shot> = drawn
        .iter()
        .map(|(image, labels, slot)| skin::Shot {
            image,
            labels,
            slot: *slot,
        })
        .collect();
    skin::learn_layered(&shots, layers).expect("a skin").0
}

/// `cal` with its look replaced by `skin`: what a calibration learned from
/// the game's own art would be.
pub fn with_skin(
    cal: &boardbot::calibration::Calibration,
    skin: boardbot::vision::skin::Skin,
) -> boardbot::calibration::Calibration {
    let mut cal = cal.clone();
    cal.params.skin = Some(skin);
    cal
}

/// Panics unless `game` reads `img` with `cal` as a board, every cell of
/// one class: a read that refuses, or one with a cell in doubt, would
/// time something else.
pub fn assert_reads_cleanly(
    game: &dyn boardbot::game::OnScreen,
    img: &image::RgbImage,
    cal: &boardbot::calibration::Calibration,
) {
    let why = match game.look(img, cal).reading {
        boardbot::vision::Reading::Board { .. } => return check_skin(img, cal),
        boardbot::vision::Reading::Uncertain { reason, issues, .. } => {
            format!("{reason}: {issues:?}")
        }
        boardbot::vision::Reading::NoBoard { reason, .. } => reason,
    };
    panic!("not read for sure: {why}");
}

/// Panics unless a calibration's skin reads `img` with no doubt at all.
fn check_skin(img: &image::RgbImage, cal: &boardbot::calibration::Calibration) {
    if let Some(skin) = &cal.params.skin {
        let seen = boardbot::vision::skin::locate(img, skin).expect("a board");
        let doubts = seen.doubts(skin);
        assert!(doubts.is_empty(), "the learned look doubts {doubts:?}");
    }
}
