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
