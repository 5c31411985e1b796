//! Places a lattice already within a pixel or so of a board to a small
//! fraction of a pixel, by Gauss-Newton on its four outer lines.
//!
//! Each sampled cell is held to the look it reads as: how far its picture
//! is from that look, weighed as the skin weighs it, is what the lines'
//! positions are chosen to make least. How a cell's picture changes as one
//! line moves is measured once, by moving that line a quarter of a pixel
//! (four readings of the sample); each step then costs a reading, four
//! equations and the score of the lattice it leads to (two or three when
//! the whole step is not better), where a walk over the lines tries
//! eight lattices a step size and several step sizes. A step is taken only when the skin's
//! own score says it is better, so this never leaves the lattice worse
//! than it found it.

use super::descriptor::{Descriptor, Integral, describe_into, weight_total};
use super::grid::OUTER_LINES;
use super::{Grid, Skin, Verdict};
use crate::geom::RectF;

/// How far a line moves to measure how the cells change, and the longest
/// step it takes at once (the measured change holds only near where it
/// was measured), in pixels.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reach {
    pub probe: f64,
    pub most: f64,
}

/// For a lattice placed to about a pixel.
pub(super) const FINE: Reach = Reach {
    probe: 0.25,
    most: 0.75,
};
/// Steps taken at most.
const STEPS: usize = 4;
/// A step whose lines all move less than this, in pixels, ends the search.
const SETTLED: f64 = 0.02;

/// A sampled cell held to its look: where it is and how much it counts.
struct Held {
    at: (usize, usize),
    look: usize,
    /// The cell's share of the sum: 1 / (tolerance × distance), so that
    /// the sum of squares is, near here, the sum of distances over
    /// tolerances that the score counts.
    share: f32,
}

/// The grid with outer line `line` of [`OUTER_LINES`] (left, right, top,
/// bottom) moved by `d` pixels, of lines `(nc, nr)` pitches apart: the
/// same moves the walk takes.
fn moved(g: &Grid, line: usize, d: f64, (nc, nr): (f64, f64)) -> Grid {
    let mut t = *g;
    OUTER_LINES[line](&mut t, d, nc, nr);
    t
}

/// `g` moved to the least of `cost` that the steps find, or `None` when
/// no step was better (the cells held do not fix the lines, or the
/// measured change does not hold this far from the best). `sample` lists
/// the cells to hold, `span` the outer lines' distance apart in pitches.
pub(super) fn align(
    int: &Integral,
    skin: &Skin,
    g: Grid,
    (sample, span): (&[(usize, usize)], (f64, f64)),
    reach: Reach,
    cost: impl Fn(&Grid) -> Option<f64>,
) -> Option<Grid> {
    let mut g = g;
    let mut best = cost(&g)?;
    let mut moved_at_all = false;
    let mut here = Vec::new();
    let held = hold(int, skin, &g, sample, &mut here);
    // How the cells change is measured once, where they are first held:
    // near the best, it changes little from step to step (the chord
    // method), and measuring is four readings of the sample.
    let model = Model::measure(int, skin, (&g, span), (&held, &here), reach)?;
    for k in 0..STEPS {
        if k > 0 {
            for (h, d) in held.iter().zip(here.iter_mut()) {
                describe_into(int, g.cell(h.at.0, h.at.1), d);
            }
        }
        let Some(step) = model.step(skin, (&held, &here), reach) else {
            break;
        };
        // Half the step, then a quarter, when the whole one is not better.
        let taken = [1.0, 0.5, 0.25].into_iter().find_map(|f| {
            let t = (0..4).fold(g, |t, l| moved(&t, l, step[l] * f, span));
            cost(&t).filter(|&c| c < best).map(|c| (c, t, f))
        });
        let Some((c, t, f)) = taken else {
            break;
        };
        (best, g, moved_at_all) = (c, t, true);
        if step.iter().all(|s| (s * f).abs() < SETTLED) {
            break;
        }
    }
    moved_at_all.then_some(g)
}

/// The sampled cells that read as a look (or come near one), each held to
/// it; `here` gets their descriptors on `g`.
fn hold(
    int: &Integral,
    skin: &Skin,
    g: &Grid,
    sample: &[(usize, usize)],
    here: &mut Vec<Descriptor>,
) -> Vec<Held> {
    here.clear();
    let mut held = Vec::new();
    for &(r, c) in sample {
        let mut d = Descriptor::new();
        describe_into(int, g.cell(r, c), &mut d);
        let (look, distance) = match skin.judge(&d) {
            Verdict::Match { look, distance, .. } => (look, distance),
            // A cell a little past its look still says which way is
            // better; one far past it, or of the surroundings, does not.
            Verdict::NoMatch { nearest, distance }
                if distance < 2.0 * skin.looks[nearest].tolerance && !skin.is_outside(&d) =>
            {
                (nearest, distance)
            }
            _ => continue,
        };
        let tolerance = skin.looks[look].tolerance.max(1e-3);
        held.push(Held {
            at: (r, c),
            look,
            share: 1.0 / (tolerance * distance.max(1.0)),
        });
        here.push(d);
    }
    held
}

/// How the held cells' pictures change as each line moves (per cell, four
/// slopes a value, weighed), and the normal equations' matrix they make.
struct Model {
    /// Per held cell and line, each value's slope times its weight and the
    /// cell's share.
    slopes: Vec<[Descriptor; 4]>,
    a: [[f64; 4]; 4],
}

impl Model {
    /// Measures the slopes on `g`, where `here` has the held cells'
    /// descriptors; `None` without cells to hold.
    fn measure(
        int: &Integral,
        skin: &Skin,
        (g, span): (&Grid, (f64, f64)),
        (held, here): (&[Held], &[Descriptor]),
        reach: Reach,
    ) -> Option<Model> {
        if held.is_empty() {
            return None;
        }
        let total = weight_total(&skin.weights);
        let mut a = [[0.0f64; 4]; 4];
        let mut slopes = Vec::with_capacity(held.len());
        let mut d = Descriptor::new();
        for (h, now) in held.iter().zip(here) {
            let mut s: [Descriptor; 4] = Default::default();
            for (line, slope) in s.iter_mut().enumerate() {
                let t = moved(g, line, reach.probe, span);
                describe_into(int, t.cell(h.at.0, h.at.1), &mut d);
                slope.extend(d.iter().zip(now).map(|(x, y)| (x - y) / reach.probe as f32));
            }
            let w = h.share / total;
            let weighed = s.clone().map(|mut slope| {
                for (v, &wk) in slope.iter_mut().zip(&skin.weights) {
                    *v *= wk * w;
                }
                slope
            });
            for (p, row) in a.iter_mut().enumerate() {
                for (q, v) in row.iter_mut().enumerate().skip(p) {
                    *v += f64::from(dot(&weighed[p], &s[q], None));
                }
            }
            let s = weighed;
            slopes.push(s);
        }
        let upper = a;
        for (p, row) in a.iter_mut().enumerate() {
            for (q, v) in row.iter_mut().enumerate().take(p) {
                *v = upper[q][p];
            }
        }
        Some(Model { slopes, a })
    }

    /// The Gauss-Newton step of the four lines, in pixels, from the held
    /// cells' descriptors `here`; `None` when the cells do not fix the
    /// lines (all alike).
    fn step(
        &self,
        skin: &Skin,
        (held, here): (&[Held], &[Descriptor]),
        reach: Reach,
    ) -> Option<[f64; 4]> {
        let mut b = [0.0f64; 4];
        for ((h, now), s) in held.iter().zip(here).zip(&self.slopes) {
            let look = &skin.looks[h.look].cells;
            for (p, slope) in s.iter().enumerate() {
                b[p] -= f64::from(dot(slope, now, Some(look)));
            }
        }
        // A line no held cell tells anything of stays where it is, and the
        // others still move.
        let step = solve4(self.a, b).or_else(|| solve4(damped(self.a), b))?;
        Some(step.map(|s| s.clamp(-reach.most, reach.most)))
    }
}

/// The sum of `a · (b − c)` (of `a · b` with no `c`), in eight lanes that
/// stay in SIMD registers: the sums of the normal equations, over every
/// value of every held cell.
fn dot(a: &[f32], b: &[f32], c: Option<&[f32]>) -> f32 {
    let n = a.len().min(b.len()).min(c.map_or(usize::MAX, <[f32]>::len));
    let whole = n - n % 8;
    let mut lanes = [0.0f32; 8];
    let at = |k: usize| b[k] - c.map_or(0.0, |c| c[k]);
    for i in (0..whole).step_by(8) {
        for (k, lane) in lanes.iter_mut().enumerate() {
            *lane += a[i + k] * at(i + k);
        }
    }
    let tail: f32 = (whole..n).map(|k| a[k] * at(k)).sum();
    lanes.iter().sum::<f32>() + tail
}

/// `a` with a millionth of its largest diagonal value added along its
/// diagonal: solvable when some rows are all zero.
fn damped(mut a: [[f64; 4]; 4]) -> [[f64; 4]; 4] {
    let scale = (0..4).map(|i| a[i][i].abs()).fold(0.0, f64::max);
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += scale * 1e-6;
    }
    a
}

/// `x` with `a x = b` for a symmetric 4×4 `a`, by elimination with the
/// largest pivot; `None` when `a` is (nearly) singular.
fn solve4(mut a: [[f64; 4]; 4], mut b: [f64; 4]) -> Option<[f64; 4]> {
    let scale = (0..4).map(|i| a[i][i].abs()).fold(0.0, f64::max);
    if !scale.is_finite() || scale <= 0.0 {
        return None;
    }
    for col in 0..4 {
        let pivot = (col..4).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < scale * 1e-9 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..4 {
            let f = a[row][col] / a[col][col];
            let pivot = a[col];
            for (v, p) in a[row].iter_mut().zip(pivot).skip(col) {
                *v -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; 4];
    for row in (0..4).rev() {
        let rest: f64 = (row + 1..4).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

/// The cells [`align`] holds: those the score reads
/// ([`super::locate::sampled`], up to `scored` of them).
pub(super) fn sample(
    g: &Grid,
    (rows, cols): (usize, usize),
    roi: RectF,
    scored: usize,
) -> Vec<(usize, usize)> {
    let every = (rows * cols).div_ceil(scored).max(1);
    (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter(|&at| super::locate::sampled(at, g.cell(at.0, at.1), every, Some(roi)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::skin::example;
    use image::{Rgb, RgbImage};

    /// Cells of 30 px from (20, 12), each light with a dark band along its
    /// top and left edges and a mid-grey square in its middle.
    fn board() -> RgbImage {
        RgbImage::from_fn(260, 250, |x, y| {
            let (u, v) = (f64::from(x) - 20.0, f64::from(y) - 12.0);
            if u < 0.0 || v < 0.0 || u >= 210.0 || v >= 210.0 {
                return Rgb([250, 250, 250]);
            }
            let (i, j) = (u % 30.0, v % 30.0);
            match (
                i < 4.0 || j < 4.0,
                (10.0..20.0).contains(&i) && (10.0..20.0).contains(&j),
            ) {
                (true, _) => Rgb([30, 40, 50]),
                (_, true) => Rgb([120, 120, 120]),
                _ => Rgb([220, 210, 200]),
            }
        })
    }

    /// From a lattice a pixel off on every line, the lines come back to
    /// the board's to a small fraction of a pixel.
    #[test]
    fn lines_a_pixel_off_are_placed_to_a_fraction_of_one() {
        let int = Integral::new(&board());
        let truth = Grid::uniform(20.0, 12.0, 30.0, 30.0);
        let mut look = Descriptor::new();
        describe_into(&int, truth.cell(3, 3), &mut look);
        let mut skin = example();
        skin.looks = vec![skin.looks[0].clone()];
        skin.looks[0].cells = look;
        skin.looks[0].tolerance = 60.0;
        let roi = RectF {
            x0: 0.0,
            y0: 0.0,
            x1: 260.0,
            y1: 250.0,
        };
        // Left 1 px right, right 1 px left, top 1 px up, bottom 1 px down.
        let start = Grid::uniform(21.0, 11.0, 30.0 - 2.0 / 7.0, 30.0 + 2.0 / 7.0);
        let cells: Vec<(usize, usize)> = (0..7).flat_map(|r| (0..7).map(move |c| (r, c))).collect();
        let cost = |g: &Grid| -> Option<f64> {
            let mut d = Descriptor::new();
            let far: f64 = cells
                .iter()
                .map(|&(r, c)| {
                    describe_into(&int, g.cell(r, c), &mut d);
                    f64::from(skin.distance(&d, &skin.looks[0].cells))
                })
                .sum();
            Some(far)
        };
        let got = align(
            &int,
            &skin,
            start,
            (&sample(&start, (7, 7), roi, 100), (7.0, 7.0)),
            FINE,
            cost,
        )
        .expect("a better lattice");
        let lines = |g: &Grid| [g.x0, g.x0 + 7.0 * g.px, g.y0, g.y0 + 7.0 * g.py];
        for (g, t) in lines(&got).iter().zip(lines(&truth)) {
            assert!(
                (g - t).abs() < 0.1,
                "{:?} against {:?}",
                lines(&got),
                lines(&truth)
            );
        }
    }

    #[test]
    fn four_equations_are_solved_and_a_singular_set_is_not() {
        let a = [
            [4.0, 1.0, 0.0, 0.0],
            [1.0, 3.0, 1.0, 0.0],
            [0.0, 1.0, 2.0, 0.5],
            [0.0, 0.0, 0.5, 1.0],
        ];
        let x = [1.0, -2.0, 0.5, 3.0];
        let b: [f64; 4] = std::array::from_fn(|i| (0..4).map(|k| a[i][k] * x[k]).sum());
        let got = solve4(a, b).unwrap();
        for (g, w) in got.iter().zip(x) {
            assert!((g - w).abs() < 1e-9, "{got:?}");
        }
        assert_eq!(solve4([[0.0; 4]; 4], [1.0; 4]), None);
        assert_eq!(solve4([[1.0; 4]; 4], [1.0; 4]), None);
    }
}
