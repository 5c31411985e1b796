//! A board of slots: telling its outer edge from a gap between slots.
//!
//! A gap is often drawn in the colour of the frame around the board, so a
//! selection cut inside a gap shows, past the last whole slot, just what a
//! whole board shows past its edge: frame colour. The difference is what
//! comes next: past a gap's width, another slot; past the frame, the page.
//! So on every side, going out from the board, each line of pixels must
//! either show a colour of the surroundings that no gap shows (the page),
//! or show only surroundings for more than a gap's width. A line that
//! leaves the selection first, or meets anything else, may be a cut.

use image::RgbImage;

use super::{Gaps, Skin, Verdict};

/// The share of lines along a side that must show the board ends there.
const ENOUGH: f64 = 0.9;
/// Lines tried along each side, at most.
const LINES: usize = 64;

/// Where a board of slots lies and what its gaps look like.
pub struct Edges<'a> {
    /// The board's box: x0, x1, y0, y1.
    pub bounds: (f64, f64, f64, f64),
    /// The pitch across and down.
    pub pitch: (f64, f64),
    pub gaps: Gaps,
    /// How far past the box the board's own outline reaches, in pixels.
    pub reach: f64,
    /// Colours a gap shows: its looks' boxes.
    pub gap_colours: &'a [[f32; 3]],
}

/// The colours of the looks that the board's gap cells matched.
pub fn gap_colours(skin: &Skin, gap_cells: &[&Verdict]) -> Vec<[f32; 3]> {
    let mut looks: Vec<usize> = gap_cells
        .iter()
        .filter_map(|v| match v {
            Verdict::Match { look, .. } => Some(*look),
            _ => None,
        })
        .collect();
    looks.sort_unstable();
    looks.dedup();
    looks
        .iter()
        .flat_map(|&l| skin.looks[l].cells.chunks_exact(3))
        .map(|c| [c[0], c[1], c[2]])
        .collect()
}

/// Checks each side of the board; why not, when a side may be a cut.
pub fn check(img: &RgbImage, skin: &Skin, e: &Edges) -> Result<(), String> {
    let (x0, x1, y0, y1) = e.bounds;
    let (gx, gy) = (e.gaps.x * e.pitch.0, e.gaps.y * e.pitch.1);
    // (start along the outward axis, outward step, range along the side,
    // vertical side?, a gap's width there)
    let sides = [
        (x0 - e.reach, -1.0, (y0, y1), true, gx),
        (x1 + e.reach, 1.0, (y0, y1), true, gx),
        (y0 - e.reach, -1.0, (x0, x1), false, gy),
        (y1 + e.reach, 1.0, (x0, x1), false, gy),
    ];
    for (start, out, (a, b), vertical, gap) in sides {
        let n = LINES.min((b - a).max(1.0) as usize);
        let ends = (0..n)
            .filter(|&k| {
                let along = a + (b - a) * (k as f64 + 0.5) / n as f64;
                ends_here(img, skin, e, (start, out, gap), (along, vertical))
            })
            .count();
        if (ends as f64) < ENOUGH * n as f64 {
            return Err("past the board's last whole slots the selection ends within a gap's width, or shows more of the board: it may be cut inside a gap between slots (select the whole frame, with a margin of a few pixels)".into());
        }
    }
    Ok(())
}

/// True when the line of pixels out from the board at `along` shows the
/// board ends: a colour of the surroundings that no gap shows, or only
/// surroundings for more than a gap's width.
fn ends_here(
    img: &RgbImage,
    skin: &Skin,
    e: &Edges,
    (start, out, gap): (f64, f64, f64),
    (along, vertical): (f64, bool),
) -> bool {
    let (w, h) = (i64::from(img.width()), i64::from(img.height()));
    let limit = gap + 2.0;
    let mut d = 0.0;
    while d <= limit {
        let t = start + out * (d + 0.5);
        let (x, y) = if vertical { (t, along) } else { (along, t) };
        let (x, y) = (x.floor() as i64, y.floor() as i64);
        if x < 0 || y < 0 || x >= w || y >= h {
            return false;
        }
        let c = img.get_pixel(x as u32, y as u32).0.map(f32::from);
        if skin.near_outside(c) {
            if !super::near_any_f32(e.gap_colours, c) {
                return true;
            }
        } else if !skin.between_outside(c) {
            return false;
        }
        d += 1.0;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page, a frame 6 px wide, and a board of slots from 20 to 60
    /// across with one gap (frame coloured) at 38..42.
    fn picture(width: u32) -> RgbImage {
        RgbImage::from_fn(width, 80, |x, y| {
            let board = (20..60).contains(&x) && (20..60).contains(&y);
            let gap = (38..42).contains(&x);
            let frame = (14..66).contains(&x) && (14..66).contains(&y);
            image::Rgb(match (board && !gap, frame) {
                (true, _) => [200, 40, 40],
                (false, true) => [40, 120, 60],
                _ => [240, 240, 230],
            })
        })
    }

    fn skin() -> Skin {
        Skin {
            outside: vec![[40, 120, 60], [240, 240, 230]],
            ..super::super::example()
        }
    }

    fn edges(x1: f64, colours: &[[f32; 3]]) -> Edges<'_> {
        Edges {
            bounds: (20.0, x1, 20.0, 60.0),
            pitch: (9.0, 9.0),
            gaps: Gaps {
                every: 2,
                x: 4.0 / 9.0,
                y: 4.0 / 9.0,
            },
            reach: 0.0,
            gap_colours: colours,
        }
    }

    #[test]
    fn a_frame_ends_where_the_page_shows_and_a_gap_does_not() {
        let green = [[40.0, 120.0, 60.0]];
        let s = skin();
        assert!(check(&picture(80), &s, &edges(60.0, &green)).is_ok());
        // Cut in the gap: past the left slots only gap colour, then the
        // picture's edge.
        let cut = image::imageops::crop_imm(&picture(80), 0, 0, 40, 80).to_image();
        assert!(check(&cut, &s, &edges(38.0, &green)).is_err());
        // Read as the left slots of the whole picture: past them, a gap's
        // width of green, then the next slot.
        assert!(check(&picture(80), &s, &edges(38.0, &green)).is_err());
    }
}
