//! The repeat of a board's colour changes: profiles of the changes along
//! each axis, and the pitches at which a profile repeats.

use image::RgbImage;

/// Per column (`along_x`) or per row, the summed colour change between
/// the pixels either side, over the rows or columns in `span`.
pub fn profile(img: &RgbImage, along_x: bool, span: (usize, usize)) -> Vec<f32> {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let raw = img.as_raw();
    let (len, other) = if along_x { (w, h) } else { (h, w) };
    let (lo, hi) = (span.0.min(other), span.1.min(other));
    let hi = hi.max(lo);
    // Whole numbers, added in rows as the picture is laid out: the same
    // sums in any order, read once in memory order.
    let mut out = vec![0u32; len];
    if len < 3 {
        return vec![0.0; len];
    }
    let changes = |a: &[u8], b: &[u8]| -> u32 {
        a.iter()
            .zip(b)
            .map(|(p, q)| u32::from(p.abs_diff(*q)))
            .sum()
    };
    let row = |y: usize| &raw[y * w * 3..(y + 1) * w * 3];
    if along_x {
        for r in (lo..hi).map(row) {
            for (t, o) in out.iter_mut().enumerate().take(len - 1).skip(1) {
                *o += changes(&r[(t - 1) * 3..t * 3], &r[(t + 1) * 3..(t + 2) * 3]);
            }
        }
    } else {
        for (t, o) in out.iter_mut().enumerate().take(len - 1).skip(1) {
            *o = changes(&row(t - 1)[lo * 3..hi * 3], &row(t + 1)[lo * 3..hi * 3]);
        }
    }
    out.into_iter().map(|v| v as f32).collect()
}

/// The correlation of a profile with itself shifted by a (fractional)
/// lag, each side normalised by its own spread: the shifted side is
/// interpolated, which smooths it, and must not count against half-pixel
/// lags for that.
fn autocorrelation(p: &[f32], mean: f32, norm: f32, lag: f64) -> f32 {
    let whole = lag.floor() as usize;
    let frac = (lag - whole as f64) as f32;
    if whole + 1 >= p.len() || norm <= 0.0 {
        return 0.0;
    }
    let n = p.len() - whole - 1;
    let (mut sab, mut saa, mut sbb) = (0.0f32, 0.0f32, 0.0f32);
    for i in 0..n {
        let a = p[i] - mean;
        let b = p[i + whole] * (1.0 - frac) + p[i + whole + 1] * frac - mean;
        sab += a * b;
        saa += a * a;
        sbb += b * b;
    }
    if saa <= 0.0 || sbb <= 0.0 {
        return 0.0;
    }
    sab / (saa * sbb).sqrt()
}

/// Lags in `lo..=hi` at which the profile repeats, best first, refined to
/// a tenth of a pixel: at most `keep` of them.
pub fn repeats(p: &[f32], lo: f64, hi: f64, keep: usize) -> Vec<(f64, f32)> {
    let mean = p.iter().sum::<f32>() / p.len().max(1) as f32;
    let norm: f32 = p.iter().map(|v| (v - mean) * (v - mean)).sum();
    let hi = hi.min(p.len() as f64 / 2.0);
    let (a, b) = (lo.floor().max(2.0) as usize, hi.ceil() as usize);
    if a + 2 > b {
        return Vec::new();
    }
    // Half-pixel lags: a pitch of 23.5 px repeats worse at 23 and at 24
    // than at 47, and must still show as a peak of its own.
    let lag = |i: usize| (2 * (a - 1) + i) as f64 / 2.0;
    let r: Vec<f32> = (0..=2 * (b - a + 2))
        .map(|i| autocorrelation(p, mean, norm, lag(i)))
        .collect();
    let mut peaks: Vec<(f64, f32)> = (1..r.len() - 1)
        .filter(|&i| r[i] > 0.0 && r[i] >= r[i - 1] && r[i] > r[i + 1])
        .map(|i| {
            (-5..=5)
                .map(|k| lag(i) + f64::from(k) / 20.0)
                .map(|l| (l, autocorrelation(p, mean, norm, l)))
                .max_by(|x, y| x.1.total_cmp(&y.1))
                .unwrap_or((lag(i), r[i]))
        })
        .collect();
    peaks.sort_by(|x, y| y.1.total_cmp(&x.1));
    peaks.truncate(keep);
    peaks
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each column's (and row's) change is the sum over the span of the
    /// colour steps between the pixels either side of it.
    #[test]
    fn a_profile_sums_the_steps_across_each_column_and_row() {
        let img = RgbImage::from_fn(9, 7, |x, y| {
            image::Rgb([(x * 31 + y * 7) as u8, (x * x * 5) as u8, (y * 40) as u8])
        });
        let step = |a: [u8; 3], b: [u8; 3]| -> f32 {
            (0..3).map(|k| f32::from(a[k].abs_diff(b[k]))).sum()
        };
        let p = |x: u32, y: u32| img.get_pixel(x, y).0;
        let across = profile(&img, true, (1, 6));
        for x in 1..8 {
            let want: f32 = (1..6).map(|y| step(p(x - 1, y), p(x + 1, y))).sum();
            assert_eq!(across[x as usize], want, "column {x}");
        }
        let down = profile(&img, false, (2, 9));
        for y in 1..6 {
            let want: f32 = (2..9).map(|x| step(p(x, y - 1), p(x, y + 1))).sum();
            assert_eq!(down[y as usize], want, "row {y}");
        }
        assert_eq!(
            (across[0], across[8], down[0], down[6]),
            (0.0, 0.0, 0.0, 0.0)
        );
    }

    #[test]
    fn a_profile_repeats_at_its_pitch_even_between_whole_pixels() {
        // Edges every 23.5 px from 7, three pixels wide, and a weaker mark
        // inside each cell.
        let p: Vec<f32> = (0..400)
            .map(|t| {
                let ph = ((t as f64 + 0.5 - 7.0) / 23.5).rem_euclid(1.0);
                let edge = (ph.min(1.0 - ph) * 23.5).min(3.0);
                (10.0 * (1.0 - edge / 3.0) + if (0.4..0.5).contains(&ph) { 4.0 } else { 0.0 })
                    as f32
            })
            .collect();
        let r = repeats(&p, 16.0, 100.0, 4);
        assert!(r.iter().any(|x| (x.0 - 23.5).abs() < 0.3), "{r:?}");
    }
}
