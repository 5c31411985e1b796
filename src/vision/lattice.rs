//! Finds a board's lattice (its grid lines) inside an image, without being
//! told the board's size, position or scale.
//!
//! How: grid lines are long straight edges that repeat at a fixed pitch.
//! 1. Mark strong colour steps across x and across y ([`EdgeMaps`]).
//! 2. Count them per column and per row: grid lines stand out as peaks
//!    because they run the whole board, while a glyph or a cloud only
//!    touches a few rows.
//! 3. In each axis, find runs of equally spaced peaks (arithmetic
//!    progressions with a small tolerance).
//! 4. Pair an x-run with a y-run, keep only the lines that really span the
//!    other axis (coverage), and pick the pair that explains the most
//!    lattice.

use std::collections::HashMap;

use image::RgbImage;
use serde::Serialize;

use crate::geom::RectF;

/// What the lattice finder may assume about a game's board.
#[derive(Clone, Debug)]
pub struct LatticeParams {
    pub min_cells: usize,
    pub max_cells: usize,
    /// Cell pitch bounds in image pixels.
    pub min_pitch: f64,
    pub max_pitch: f64,
    /// Smallest colour step (0–255, any channel) that counts as an edge.
    pub edge_threshold: u8,
    /// Cells are square (the x and y pitch agree).
    pub square_cells: bool,
    /// The board has as many rows as columns.
    pub square_board: bool,
}

impl Default for LatticeParams {
    fn default() -> Self {
        LatticeParams {
            min_cells: 3,
            max_cells: 16,
            min_pitch: 12.0,
            max_pitch: 600.0,
            edge_threshold: 16,
            square_cells: true,
            square_board: true,
        }
    }
}

/// A board's grid: the x positions of its vertical lines and the y
/// positions of its horizontal lines, outer lines included.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lattice {
    pub xs: Vec<f64>,
    pub ys: Vec<f64>,
}

impl Lattice {
    /// A lattice of `rows × cols` cells of the given pitch, starting at `(x0, y0)`.
    pub fn uniform(x0: f64, y0: f64, pitch_x: f64, pitch_y: f64, rows: usize, cols: usize) -> Self {
        Lattice {
            xs: (0..=cols).map(|i| x0 + pitch_x * i as f64).collect(),
            ys: (0..=rows).map(|i| y0 + pitch_y * i as f64).collect(),
        }
    }

    pub fn rows(&self) -> usize {
        self.ys.len().saturating_sub(1)
    }

    pub fn cols(&self) -> usize {
        self.xs.len().saturating_sub(1)
    }

    pub fn cell(&self, row: usize, col: usize) -> RectF {
        RectF {
            x0: self.xs[col],
            y0: self.ys[row],
            x1: self.xs[col + 1],
            y1: self.ys[row + 1],
        }
    }

    /// The cell containing an image point, if any.
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let find = |lines: &[f64], v: f64| lines.windows(2).position(|w| v >= w[0] && v < w[1]);
        Some((find(&self.ys, y)?, find(&self.xs, x)?))
    }

    /// The board's outer rectangle.
    pub fn bounds(&self) -> RectF {
        RectF {
            x0: self.xs[0],
            y0: self.ys[0],
            x1: self.xs[self.xs.len() - 1],
            y1: self.ys[self.ys.len() - 1],
        }
    }

    /// Mean cell width and height.
    pub fn pitch(&self) -> (f64, f64) {
        let b = self.bounds();
        (
            b.width() / self.cols() as f64,
            b.height() / self.rows() as f64,
        )
    }
}

/// Binary maps of strong colour steps: `vert` marks steps along x (they
/// outline vertical lines), `horiz` steps along y.
pub struct EdgeMaps {
    pub width: usize,
    pub height: usize,
    pub vert: Vec<bool>,
    pub horiz: Vec<bool>,
}

impl EdgeMaps {
    /// Central differences over two pixels, so a one-pixel line still shows.
    /// A step is the largest of the three channels' differences. The loops
    /// run over whole rows of bytes, which the compiler vectorises: the
    /// recogniser builds these maps once per game on every capture.
    pub fn new(img: &RgbImage, threshold: u8) -> Self {
        let (w, h) = (img.width() as usize, img.height() as usize);
        let raw = img.as_raw();
        let mut vert = vec![false; w * h];
        let mut horiz = vec![false; w * h];
        let mut diff = vec![0u8; w * 3];
        for y in 0..h {
            let row = &raw[y * w * 3..(y + 1) * w * 3];
            if w >= 3 {
                // diff[3x + c] = |row[x+1][c] - row[x-1][c]|, for x in 1..w-1.
                let n = (w - 2) * 3;
                for ((d, a), b) in diff[3..3 + n].iter_mut().zip(&row[..n]).zip(&row[6..6 + n]) {
                    *d = a.abs_diff(*b);
                }
                mark(&mut vert[y * w..(y + 1) * w], &diff, 1..w - 1, threshold);
            }
            if y >= 1 && y + 1 < h {
                let above = &raw[(y - 1) * w * 3..y * w * 3];
                let below = &raw[(y + 1) * w * 3..(y + 2) * w * 3];
                for ((d, a), b) in diff.iter_mut().zip(above).zip(below) {
                    *d = a.abs_diff(*b);
                }
                mark(&mut horiz[y * w..(y + 1) * w], &diff, 0..w, threshold);
            }
        }
        EdgeMaps {
            width: w,
            height: h,
            vert,
            horiz,
        }
    }

    /// Per column, how many pixels are vertical edges; per row, horizontal.
    fn profiles(&self) -> (Vec<f64>, Vec<f64>) {
        let (w, h) = (self.width, self.height);
        let mut px = vec![0.0; w];
        for row in self.vert.chunks_exact(w.max(1)) {
            for (x, &e) in row.iter().enumerate() {
                if e {
                    px[x] += 1.0;
                }
            }
        }
        let py = self
            .horiz
            .chunks_exact(w.max(1))
            .map(|row| row.iter().filter(|&&e| e).count() as f64)
            .take(h)
            .collect();
        (px, py)
    }
}

/// Marks the pixels of `xs` whose largest channel difference in `diff`
/// (three bytes a pixel) reaches `threshold`.
fn mark(out: &mut [bool], diff: &[u8], xs: std::ops::Range<usize>, threshold: u8) {
    for x in xs {
        let d = &diff[3 * x..3 * x + 3];
        out[x] = d[0].max(d[1]).max(d[2]) >= threshold;
    }
}

#[derive(Clone, Copy, Debug)]
struct Peak {
    pos: f64,
    strength: f64,
}

fn smooth(p: &[f64]) -> Vec<f64> {
    (0..p.len())
        .map(|i| {
            let a = if i > 0 { p[i - 1] } else { p[i] };
            let c = if i + 1 < p.len() { p[i + 1] } else { p[i] };
            (a + 2.0 * p[i] + c) / 4.0
        })
        .collect()
}

/// Local maxima of a profile, at sub-pixel positions, strongest first.
fn peaks(profile: &[f64]) -> Vec<Peak> {
    let s = smooth(profile);
    let max = s.iter().copied().fold(0.0, f64::max);
    if max <= 0.0 {
        return Vec::new();
    }
    let floor = 0.15 * max;
    let mut out = Vec::new();
    for i in 1..s.len().saturating_sub(1) {
        if s[i] >= floor && s[i] > s[i - 1] && s[i] >= s[i + 1] {
            let (a, b, c) = (s[i - 1], s[i], s[i + 1]);
            let denom = a - 2.0 * b + c;
            let off = if denom.abs() > 1e-9 {
                0.5 * (a - c) / denom
            } else {
                0.0
            };
            out.push(Peak {
                pos: i as f64 + off.clamp(-0.5, 0.5),
                strength: b / max,
            });
        }
    }
    out.sort_by(|a, b| b.strength.total_cmp(&a.strength));
    out.truncate(160);
    // The image's borders stand in for a board's outer line that a tight
    // selection cut off.
    for pos in [0.0, (s.len() - 1) as f64] {
        out.push(Peak { pos, strength: 0.0 });
    }
    out.sort_by(|a, b| a.pos.total_cmp(&b.pos));
    out
}

/// True for a line on the image's border (a stand-in, not seen).
fn on_border(pos: f64, len: usize) -> bool {
    pos < 1.0 || pos > len as f64 - 2.0
}

/// A run of equally spaced peaks along one axis.
#[derive(Clone, Debug)]
struct Run {
    lines: Vec<f64>,
    score: f64,
}

impl Run {
    fn pitch(&self) -> f64 {
        (self.lines[self.lines.len() - 1] - self.lines[0]) / (self.lines.len() - 1) as f64
    }
}

fn nearest(peaks: &[Peak], target: f64, tol: f64) -> Option<usize> {
    let i = peaks.partition_point(|p| p.pos < target);
    [i.checked_sub(1), Some(i)]
        .into_iter()
        .flatten()
        .filter(|&k| k < peaks.len() && (peaks[k].pos - target).abs() <= tol)
        .min_by(|&a, &b| {
            (peaks[a].pos - target)
                .abs()
                .total_cmp(&(peaks[b].pos - target).abs())
        })
}

/// The peak where the next line of a run is expected, if there is one: the
/// nearest within a tolerance, or the image's border when the line would
/// fall on or just past it (a selection cut tight around the board).
///
/// The tolerance is at least 2.5 px: at 20–30 px a cell, a rescaled
/// one-pixel line's peak drifts by up to a pixel and a quarter either way
/// (clouds and pieces beside it pull its edges), so two neighbouring lines
/// can be 2.5 px off the pitch; a tighter bound breaks the run there and
/// loses the board's outer rows.
fn next_line(peaks: &[Peak], target: f64, pitch: f64) -> Option<usize> {
    let tol = (0.07 * pitch).max(2.5);
    if let Some(k) = nearest(peaks, target, tol) {
        return Some(k);
    }
    let (lo, hi) = (peaks.first()?.pos, peaks.last()?.pos);
    let slack = 0.15 * pitch;
    if (target - lo).abs() <= slack.max(tol) {
        Some(0)
    } else if (target - hi).abs() <= slack.max(tol) {
        Some(peaks.len() - 1)
    } else {
        None
    }
}

/// Every maximal run of equally spaced peaks, best first.
fn runs(peaks: &[Peak], p: &LatticeParams, keep: usize) -> Vec<Run> {
    let mut best: HashMap<(usize, usize), Run> = HashMap::new();
    for i in 0..peaks.len() {
        for j in i + 1..peaks.len() {
            let d = peaks[j].pos - peaks[i].pos;
            if d < p.min_pitch {
                continue;
            }
            if d > p.max_pitch {
                break;
            }
            let mut idx = vec![i, j];
            // Forward, then backward; the pitch estimate is the mean spacing so far.
            loop {
                let (first, last) = (peaks[idx[0]].pos, peaks[idx[idx.len() - 1]].pos);
                let pitch = (last - first) / (idx.len() - 1) as f64;
                match next_line(peaks, last + pitch, pitch) {
                    Some(k) if k > idx[idx.len() - 1] => idx.push(k),
                    _ => break,
                }
            }
            loop {
                let (first, last) = (peaks[idx[0]].pos, peaks[idx[idx.len() - 1]].pos);
                let pitch = (last - first) / (idx.len() - 1) as f64;
                match next_line(peaks, first - pitch, pitch) {
                    Some(k) if k < idx[0] => idx.insert(0, k),
                    _ => break,
                }
            }
            if idx.len() < p.min_cells + 1 {
                continue;
            }
            let key = (idx[0], idx[idx.len() - 1]);
            let score: f64 = idx.iter().map(|&k| peaks[k].strength).sum();
            let run = Run {
                lines: idx.iter().map(|&k| peaks[k].pos).collect(),
                score,
            };
            match best.get(&key) {
                Some(old) if old.score >= score => {}
                _ => {
                    best.insert(key, run);
                }
            }
        }
    }
    let mut all: Vec<Run> = best.into_values().collect();
    all.sort_by(|a, b| b.score.total_cmp(&a.score));
    all.truncate(keep);
    all
}

/// How much of a line's length really is an edge, with prefix sums per
/// line so that any span is answered at once.
struct Coverage<'a> {
    edges: &'a EdgeMaps,
    cache: HashMap<(bool, i64, i64), Vec<u32>>,
}

impl<'a> Coverage<'a> {
    fn new(edges: &'a EdgeMaps) -> Self {
        Coverage {
            edges,
            cache: HashMap::new(),
        }
    }

    /// Fraction of `[from, to]` along a line at `at` (a vertical line when
    /// `vertical`) that has an edge within `half` pixels of it.
    fn fraction(&mut self, vertical: bool, at: f64, half: i64, from: f64, to: f64) -> f64 {
        let e = self.edges;
        let (w, h) = (e.width as i64, e.height as i64);
        let pos = at.round() as i64;
        let prefix = self.cache.entry((vertical, pos, half)).or_insert_with(|| {
            let len = if vertical { h } else { w };
            let mut pre = Vec::with_capacity(len as usize + 1);
            pre.push(0u32);
            for t in 0..len {
                let hit = (pos - half..=pos + half).any(|q| {
                    if vertical {
                        q >= 0 && q < w && e.vert[(t * w + q) as usize]
                    } else {
                        q >= 0 && q < h && e.horiz[(q * w + t) as usize]
                    }
                });
                pre.push(pre[pre.len() - 1] + u32::from(hit));
            }
            pre
        });
        let n = prefix.len() as i64 - 1;
        let a = (from.ceil() as i64).clamp(0, n);
        let b = (to.floor() as i64).clamp(0, n);
        if b <= a {
            return 0.0;
        }
        f64::from(prefix[b as usize] - prefix[a as usize]) / (b - a) as f64
    }

    fn of_lines(
        &mut self,
        vertical: bool,
        lines: &[f64],
        span: (f64, f64),
        pitch: f64,
    ) -> Vec<f64> {
        let half = ((0.04 * pitch).round() as i64).max(1);
        lines
            .iter()
            .map(|&at| self.fraction(vertical, at, half, span.0, span.1))
            .collect()
    }

    /// For each band between consecutive `bands` positions, how much the
    /// perpendicular `lines` (vertical ones when `vertical`) cover it.
    fn of_bands(&mut self, vertical: bool, lines: &[f64], bands: &[f64], pitch: f64) -> Vec<f64> {
        let half = ((0.04 * pitch).round() as i64).max(1);
        // Stand-in lines on the image's border were never seen: leave them out.
        let len = if vertical {
            self.edges.width
        } else {
            self.edges.height
        };
        let seen: Vec<f64> = lines
            .iter()
            .copied()
            .filter(|&l| !on_border(l, len))
            .collect();
        bands
            .windows(2)
            .map(|w| {
                let sum: f64 = seen
                    .iter()
                    .map(|&at| self.fraction(vertical, at, half, w[0], w[1]))
                    .sum();
                sum / seen.len().max(1) as f64
            })
            .collect()
    }
}

/// Drops weak bands (rows or columns) at either end: a band outside the
/// board is not crossed by the grid's lines. Returns the kept range of lines.
fn trim_bands(band_cov: &[f64], min: f64) -> (usize, usize) {
    let mut a = 0;
    let mut b = band_cov.len();
    while a < b && band_cov[a] < min {
        a += 1;
    }
    while b > a && band_cov[b - 1] < min {
        b -= 1;
    }
    (a, b + 1)
}

/// The window of `len` consecutive bands with the most coverage.
fn best_window(cov: &[f64], len: usize) -> usize {
    (0..=cov.len() - len)
        .max_by(|&a, &b| {
            let sa: f64 = cov[a..a + len].iter().sum();
            let sb: f64 = cov[b..b + len].iter().sum();
            sa.total_cmp(&sb)
        })
        .unwrap_or(0)
}

/// Least-squares fit of equally spaced lines, refined around each line by
/// the centroid of the edge profile (so a thick line's two edges meet in
/// its middle).
fn refine(lines: &[f64], profile: &[f64]) -> Vec<f64> {
    let n = lines.len();
    let pitch = (lines[n - 1] - lines[0]) / (n - 1) as f64;
    let half = (0.1 * pitch).max(1.0);
    let centred: Vec<f64> = lines
        .iter()
        .map(|&l| {
            if on_border(l, profile.len()) {
                return l;
            }
            let a = ((l - half).floor().max(0.0)) as usize;
            let b = ((l + half).ceil() as usize).min(profile.len().saturating_sub(1));
            let window = &profile[a..=b.max(a)];
            let top = window.iter().copied().fold(0.0, f64::max);
            let base = 0.3 * top;
            let (mut sw, mut sx) = (0.0, 0.0);
            for (i, &v) in window.iter().enumerate() {
                if v > base {
                    sw += v - base;
                    sx += (v - base) * (a + i) as f64;
                }
            }
            // The profile counts the step between x-1 and x+1 at x, so a
            // line's edges sit half a pixel inside its true border.
            if sw > 0.0 { sx / sw + 0.5 } else { l }
        })
        .collect();
    // Fit centred[k] ≈ a + k d.
    let kf: Vec<f64> = (0..n).map(|k| k as f64).collect();
    let mk = kf.iter().sum::<f64>() / n as f64;
    let ml = centred.iter().sum::<f64>() / n as f64;
    let sxy: f64 = kf
        .iter()
        .zip(&centred)
        .map(|(k, l)| (k - mk) * (l - ml))
        .sum();
    let sxx: f64 = kf.iter().map(|k| (k - mk).powi(2)).sum();
    let d = if sxx > 0.0 { sxy / sxx } else { pitch };
    let a = ml - d * mk;
    kf.iter().map(|k| a + d * k).collect()
}

/// Finds the lattice, or `None` when the image holds no board-like grid.
pub fn find_lattice(img: &RgbImage, p: &LatticeParams) -> Option<Lattice> {
    let edges = EdgeMaps::new(img, p.edge_threshold);
    find_lattice_in(&edges, p)
}

/// [`find_lattice`] on precomputed edge maps.
pub fn find_lattice_in(edges: &EdgeMaps, p: &LatticeParams) -> Option<Lattice> {
    let (prof_x, prof_y) = edges.profiles();
    let xr = runs(&peaks(&prof_x), p, 8);
    let yr = runs(&peaks(&prof_y), p, 8);
    let mut cover = Coverage::new(edges);
    let mut best: Option<(f64, Vec<f64>, Vec<f64>)> = None;
    for x in &xr {
        for y in &yr {
            let Some(cand) = candidate(x, y, &mut cover, p) else {
                continue;
            };
            if best.as_ref().is_none_or(|b| cand.0 > b.0) {
                best = Some(cand);
            }
        }
    }
    let (_, xs, ys) = best?;
    Some(Lattice {
        xs: refine(&xs, &prof_x),
        ys: refine(&ys, &prof_y),
    })
}

const MIN_COVERAGE: f64 = 0.55;

/// Pairs an x-run with a y-run: the lines that span the board, and the
/// pair's score, or `None` when they make no board.
fn candidate(
    x: &Run,
    y: &Run,
    cover: &mut Coverage,
    p: &LatticeParams,
) -> Option<(f64, Vec<f64>, Vec<f64>)> {
    let (dx, dy) = (x.pitch(), y.pitch());
    if p.square_cells && (dx - dy).abs() > 0.08 * dx.max(dy) {
        return None;
    }
    let (xs, ys) = trim(x.lines.clone(), y.lines.clone(), cover, (dx, dy), p)?;
    let (nx, ny) = (xs.len() - 1, ys.len() - 1);
    if nx > p.max_cells || ny > p.max_cells || nx < p.min_cells || ny < p.min_cells {
        return None;
    }
    let score = line_score(&xs, &ys, cover, (dx, dy))?;
    Some((score, xs, ys))
}

/// Keeps the rows crossed by the vertical lines and the columns crossed by
/// the horizontal ones (twice, as each trim changes the other), then, for a
/// square board, the best square window.
fn trim(
    mut xs: Vec<f64>,
    mut ys: Vec<f64>,
    cover: &mut Coverage,
    (dx, dy): (f64, f64),
    p: &LatticeParams,
) -> Option<(Vec<f64>, Vec<f64>)> {
    for _ in 0..2 {
        if xs.len() < 2 || ys.len() < 2 {
            break;
        }
        let rows = cover.of_bands(true, &xs, &ys, dx);
        let (a, b) = trim_bands(&rows, MIN_COVERAGE);
        ys = ys[a..b.min(ys.len())].to_vec();
        if ys.len() < 2 {
            break;
        }
        let cols = cover.of_bands(false, &ys, &xs, dy);
        let (a, b) = trim_bands(&cols, MIN_COVERAGE);
        xs = xs[a..b.min(xs.len())].to_vec();
    }
    if xs.len() < p.min_cells + 1 || ys.len() < p.min_cells + 1 {
        return None;
    }
    if p.square_board && xs.len() != ys.len() {
        let len = xs.len().min(ys.len());
        let cols = cover.of_bands(false, &ys, &xs, dy);
        let s = best_window(&cols, len - 1);
        xs = xs[s..s + len].to_vec();
        let rows = cover.of_bands(true, &xs, &ys, dx);
        let s = best_window(&rows, len - 1);
        ys = ys[s..s + len].to_vec();
    }
    Some((xs, ys))
}

/// How well the lines explain a lattice: every line must span the board,
/// not only its ends, and stand out from the cells between them (or this
/// is texture, a photo or noise, not a grid).
fn line_score(xs: &[f64], ys: &[f64], cover: &mut Coverage, (dx, dy): (f64, f64)) -> Option<f64> {
    let span_y = (ys[0], ys[ys.len() - 1]);
    let span_x = (xs[0], xs[xs.len() - 1]);
    let (w, h) = (cover.edges.width, cover.edges.height);
    let border = |v: Vec<f64>, lines: &[f64], len: usize| -> Vec<f64> {
        v.into_iter()
            .zip(lines)
            .map(|(c, &l)| if on_border(l, len) { 1.0 } else { c })
            .collect()
    };
    let cxs = border(cover.of_lines(true, xs, span_y, dx), xs, w);
    let cys = border(cover.of_lines(false, ys, span_x, dy), ys, h);
    if cxs.iter().chain(&cys).any(|&c| c < MIN_COVERAGE / 2.0) {
        return None;
    }
    let mids = |l: &[f64]| -> Vec<f64> { l.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect() };
    let mx = cover.of_lines(true, &mids(xs), span_y, dx);
    let my = cover.of_lines(false, &mids(ys), span_x, dy);
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let lines_mean = mean(&[cxs.clone(), cys.clone()].concat());
    let mids_mean = mean(&[mx.clone(), my.clone()].concat());
    if lines_mean - mids_mean < 0.35 {
        return None;
    }
    Some(cxs.iter().chain(&cys).sum::<f64>() - mx.iter().chain(&my).sum::<f64>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// A plain grid: `n × n` cells of `pitch` px at `(x0, y0)`, lines of
    /// `line` px, random-looking cell colours.
    fn grid(w: u32, h: u32, x0: f64, y0: f64, pitch: f64, n: usize, line: f64) -> RgbImage {
        RgbImage::from_fn(w, h, |x, y| {
            let (fx, fy) = (x as f64 + 0.5, y as f64 + 0.5);
            let (lo, hi) = (-line / 2.0, pitch * n as f64 + line / 2.0);
            let inside = fx - x0 >= lo && fy - y0 >= lo && fx - x0 < hi && fy - y0 < hi;
            if !inside {
                return Rgb([90, 95, 200]);
            }
            let (u, v) = ((fx - x0) / pitch, (fy - y0) / pitch);
            let near = |t: f64| {
                let f = t - t.round();
                f.abs() * pitch < line / 2.0
            };
            if near(u) || near(v) {
                return Rgb([255, 255, 255]);
            }
            let (c, r) = (u.floor() as usize, v.floor() as usize);
            if (r * 7 + c * 3) % 5 < 2 {
                Rgb([110, 110, 230])
            } else {
                Rgb([226, 226, 250])
            }
        })
    }

    #[test]
    fn finds_grids_at_many_scales_and_offsets() {
        for &(n, pitch, x0, y0) in &[
            (4usize, 60.0f64, 13.0f64, 7.0f64),
            (9, 22.0, 40.0, 3.0),
            (7, 45.3, 5.0, 31.0),
            (12, 30.0, 0.0, 0.0),
        ] {
            let size = (x0.max(y0) + pitch * n as f64 + 24.0) as u32;
            let img = grid(size + 17, size, x0, y0, pitch, n, (pitch / 15.0).max(1.0));
            let lat = find_lattice(&img, &LatticeParams::default())
                .unwrap_or_else(|| panic!("no lattice for n={n} pitch={pitch}"));
            assert_eq!((lat.rows(), lat.cols()), (n, n), "n={n} pitch={pitch}");
            let (px, py) = lat.pitch();
            assert!(
                (px - pitch).abs() < 0.5 && (py - pitch).abs() < 0.5,
                "{px} {py} vs {pitch}"
            );
            assert!(
                (lat.xs[0] - x0).abs() < 2.0 && (lat.ys[0] - y0).abs() < 2.0,
                "{lat:?}"
            );
        }
    }

    #[test]
    fn finds_small_cells_whose_lines_drift_by_a_pixel() {
        // 9 × 9 cells of 20 px; each line drawn up to a pixel off its place,
        // as a one-pixel line is after rescaling a screenshot.
        let drift = [0.0, 0.6, -0.5, 0.7, 0.2, -0.6, 0.5, -0.4, 0.6, 0.0];
        let (x0, pitch, n) = (6.0, 20.0, 9usize);
        let at = |k: usize| x0 + pitch * k as f64 + drift[k];
        let img = RgbImage::from_fn(200, 200, |x, y| {
            let on = |v: u32| (0..=n).any(|k| (f64::from(v) - at(k)).abs() < 0.6);
            let inside = |v: u32| f64::from(v) >= at(0) - 0.6 && f64::from(v) <= at(n) + 0.6;
            let cell = |v: u32| (1..=n).filter(|&k| at(k) < f64::from(v)).count();
            if !(inside(x) && inside(y)) {
                Rgb([90, 95, 200])
            } else if on(x) || on(y) {
                Rgb([255, 255, 255])
            } else if (cell(x) * 7 + cell(y) * 3) % 5 < 2 {
                Rgb([110, 110, 230])
            } else {
                Rgb([226, 226, 250])
            }
        });
        let lat = find_lattice(&img, &LatticeParams::default()).expect("a lattice");
        assert_eq!((lat.rows(), lat.cols()), (n, n), "{lat:?}");
    }

    #[test]
    fn flat_or_noisy_images_have_no_lattice() {
        let flat = RgbImage::from_pixel(300, 200, Rgb([90, 95, 200]));
        assert!(find_lattice(&flat, &LatticeParams::default()).is_none());
        let mut seed = 12345u32;
        let noise = RgbImage::from_fn(200, 200, |_, _| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let v = (seed >> 16) as u8;
            Rgb([v, v, v])
        });
        assert!(find_lattice(&noise, &LatticeParams::default()).is_none());
    }

    #[test]
    fn cell_lookup() {
        let lat = Lattice::uniform(10.0, 20.0, 5.0, 5.0, 3, 3);
        assert_eq!(lat.cell_at(11.0, 21.0), Some((0, 0)));
        assert_eq!(lat.cell_at(24.9, 34.9), Some((2, 2)));
        assert_eq!(lat.cell_at(25.0, 21.0), None);
    }
}
