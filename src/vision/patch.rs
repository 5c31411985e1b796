//! Patch sampling: the colour of small windows of a cell, placed in
//! fractions of the pitch from its centre, for readers that look at a few
//! places in each cell rather than at the cell as a whole.
//!
//! - [`window_pixels`] and [`pixels_in`]: the pixels a window covers;
//! - [`median_colour`]: the one median colour every reader uses, with the
//!   share of pixels near it (a patch where two colours meet is not pure);
//! - [`look`] reads one patch against a game's colour classes, [`agree`]
//!   a set of four that must agree, and [`cell_read`] turns either into a
//!   cell of the generic [`GridRead`](super::GridRead).

use image::RgbImage;

use super::cells::CellSample;
use super::color::{Rgb, classify};
use super::cut::{checked, cut_sides};
use super::grid::{CellRead, GridRead, Unreadable};
use super::lattice::find_lattice;
use super::params::ReadParams;
use super::trust::{Reading, trust};
use crate::geom::RectF;

/// A patch: `(x0, x1, y0, y1)` offsets from the cell's centre, in pitches.
pub type Window = (f64, f64, f64, f64);

/// The whole cell as a window.
pub const WHOLE: Window = (-0.5, 0.5, -0.5, 0.5);

/// Names of the four patches of a set, in the order readers list them.
const SIDES: [&str; 4] = ["top", "bottom", "left", "right"];

/// Share of a patch's pixels that must be near its median colour.
pub const MIN_PURITY: f32 = 0.75;
/// How near, per channel.
const NEAR: u8 = 40;

/// One patch's reading.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    pub letter: char,
    pub confidence: f32,
    pub color: Rgb,
}

/// The pixels of a window, by their centres; at least the nearest one.
pub fn window_pixels(img: &RgbImage, rect: RectF, w: Window) -> Vec<[u8; 3]> {
    let (cx, cy) = rect.centre();
    let (px, py) = (rect.width(), rect.height());
    let span = |c: f64, p: f64, lo: f64, hi: f64, max: u32| {
        let a = (c + lo * p - 0.5).ceil().max(0.0);
        let b = (c + hi * p - 0.5).floor().min(f64::from(max) - 1.0);
        if a <= b {
            Some((a as u32, b as u32))
        } else {
            let mid = (c + (lo + hi) / 2.0 * p - 0.5).round();
            (mid >= 0.0 && mid < f64::from(max)).then_some((mid as u32, mid as u32))
        }
    };
    let (Some((x0, x1)), Some((y0, y1))) = (
        span(cx, px, w.0, w.1, img.width()),
        span(cy, py, w.2, w.3, img.height()),
    ) else {
        return Vec::new();
    };
    (y0..=y1)
        .flat_map(|y| (x0..=x1).map(move |x| (x, y)))
        .map(|(x, y)| img.get_pixel(x, y).0)
        .collect()
}

/// The pixels whose centres lie in `rect`; at least the one nearest its
/// middle when the rectangle is thinner than a pixel.
pub fn pixels_in(img: &RgbImage, rect: RectF) -> Vec<[u8; 3]> {
    window_pixels(img, rect, WHOLE)
}

/// The median colour of some pixels, and the share near it.
///
/// Each channel's median, taken apart: a patch that is mostly one colour
/// reads as that colour whatever else is in it.
pub fn median_colour(pixels: &[[u8; 3]]) -> (Rgb, f32) {
    if pixels.is_empty() {
        return (Rgb([0.0; 3]), 0.0);
    }
    let mid = |i: usize| {
        let mut v: Vec<u8> = pixels.iter().map(|p| p[i]).collect();
        v.sort_unstable();
        v[v.len() / 2]
    };
    let m = [mid(0), mid(1), mid(2)];
    let near = pixels
        .iter()
        .filter(|p| (0..3).all(|i| p[i].abs_diff(m[i]) <= NEAR))
        .count();
    (Rgb::from_u8(m), near as f32 / pixels.len() as f32)
}

/// Reads one patch, or says why it cannot be read.
/// (`game` names the game in messages.)
pub fn look(
    img: &RgbImage,
    rect: RectF,
    w: Window,
    params: &ReadParams,
    game: &str,
) -> Result<Look, String> {
    let pixels = window_pixels(img, rect, w);
    if pixels.is_empty() {
        return Err("it is outside the picture".into());
    }
    let (color, purity) = median_colour(&pixels);
    if purity < MIN_PURITY {
        return Err(format!(
            "two colours meet where one is drawn ({:.0} % near {color}): a piece between cells (mid-move?) or something over the board",
            purity * 100.0
        ));
    }
    let v = classify(&params.classes, color).ok_or("the calibration has no colour classes")?;
    let best = &params.classes[v.best];
    if v.confidence < params.min_confidence {
        return Err(format!(
            "its colour {color} is no {game} colour for sure (nearest: {} '{}', {:.0} away, tolerance {:.0})",
            best.name, best.letter, v.distance, best.tolerance
        ));
    }
    Ok(Look {
        letter: best.letter,
        confidence: v.confidence,
        color,
    })
}

/// Reads a set of four patches, which must agree.
pub fn agree(
    img: &RgbImage,
    rect: RectF,
    set: &[Window; 4],
    (what, game): (&str, &str),
    params: &ReadParams,
) -> Result<Look, String> {
    let mut first: Option<Look> = None;
    for (w, side) in set.iter().zip(SIDES) {
        let l =
            look(img, rect, *w, params, game).map_err(|e| format!("its {what} ({side}): {e}"))?;
        match first {
            None => first = Some(l),
            Some(f) if f.letter != l.letter => {
                return Err(format!(
                    "its {what} reads '{}' at the top but '{}' at the {side}: a piece between cells (mid-move?) or something over the board",
                    f.letter, l.letter
                ));
            }
            Some(f) if l.confidence < f.confidence => first = Some(l),
            _ => {}
        }
    }
    first.ok_or_else(|| format!("its {what} has no patches"))
}

/// One cell for the generic grid: its letter, confidence and edge colour
/// as a patch reader read them, or why it could not.
pub fn cell_read(read: Result<(char, f32, Rgb), String>) -> CellRead {
    match read {
        Ok((letter, confidence, color)) => CellRead {
            letter: Some(letter),
            confidence,
            guess: letter,
            sample: CellSample {
                color,
                ..CellSample::default()
            },
            why: None,
        },
        Err(why) => CellRead {
            letter: None,
            confidence: 0.0,
            guess: '?',
            sample: CellSample::default(),
            why: Some(Unreadable::Other(why)),
        },
    }
}

/// The generic half of a patch reader: the lattice in `img`, every cell
/// read by `cell` (its reading for the grid, and what it shows in the
/// game's terms), then the cut check on the ground patches (`ground`: the
/// game's four edge patches and the class a dark desktop passes for) and
/// the trust step. What every cell shows, or the refusal.
pub fn read_board<S, B>(
    img: &RgbImage,
    params: &ReadParams,
    ground: (&[Window; 4], char),
    game: &str,
    cell: impl Fn(RectF) -> (CellRead, Option<S>),
) -> Result<(GridRead, Vec<Vec<S>>), Reading<B>> {
    let Some(lattice) = find_lattice(img, &params.lattice) else {
        return Err(Reading::NoBoard {
            grid: None,
            reason: trust(img, None, params).to_string(),
            issues: Vec::new(),
        });
    };
    let (cells, shown): (Vec<Vec<CellRead>>, Vec<Vec<Option<S>>>) = (0..lattice.rows())
        .map(|r| {
            (0..lattice.cols())
                .map(|c| cell(lattice.cell(r, c)))
                .unzip()
        })
        .unzip();
    let sides = cut_sides(img, &lattice, params, ground);
    let grid = checked(GridRead { lattice, cells }, &sides, game)?;
    let shown = shown
        .into_iter()
        .map(|r| r.into_iter().flatten().collect())
        .collect();
    Ok((grid, shown))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_a_mostly_plain_patch_is_its_colour() {
        let mut px = vec![[10, 20, 30]; 9];
        px[0] = [250, 250, 250];
        let (c, purity) = median_colour(&px);
        assert_eq!(c, Rgb::from_u8([10, 20, 30]));
        assert!((purity - 8.0 / 9.0).abs() < 1e-6);
        assert_eq!(median_colour(&[]).1, 0.0);
    }

    #[test]
    fn a_window_thinner_than_a_pixel_still_has_its_nearest_pixel() {
        let img = RgbImage::from_fn(10, 10, |x, y| image::Rgb([x as u8, y as u8, 0]));
        let rect = RectF {
            x0: 0.0,
            y0: 0.0,
            x1: 10.0,
            y1: 10.0,
        };
        assert_eq!(
            window_pixels(&img, rect, (0.0, 0.01, 0.0, 0.01)),
            vec![[5, 5, 0]]
        );
        assert_eq!(pixels_in(&img, rect).len(), 100);
        let outside = RectF {
            x0: 20.0,
            y0: 20.0,
            x1: 30.0,
            y1: 30.0,
        };
        assert!(pixels_in(&img, outside).is_empty());
    }
}
