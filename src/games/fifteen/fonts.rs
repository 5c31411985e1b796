//! sgt-fifteen's numbers with no calibration: templates rendered in the
//! desktop's fonts at the size sgt draws them.
//!
//! sgt draws a tile's number in bold "Sans", `TILE_SIZE / 3` pixels high
//! (`fifteen.c:draw_tile`, `gtk.c:add_font`), and a tile is one lattice
//! pitch. So for each face "Sans" may be ([`crate::vision::glyphs`]) the
//! numbers are rendered at a third of the pitch, black on the faces'
//! grey, and framed as the reader frames a number on the screen
//! ([`read::number_window`]). The reader then keeps the face that
//! explains the board best.

use std::sync::{Arc, Mutex};

use image::RgbImage;

use super::read::{self, MAX_SIDE};
use crate::geom::RectF;
use crate::vision::color::Rgb;
use crate::vision::glyphs::{Face, Rendered, desktop_faces};
use crate::vision::template::{Template, crop};

/// The correlation at which a face is a number drawn in a font: higher
/// than for a calibration's templates, which are cut from the screen.
pub const FONT_MIN_SCORE: f32 = 0.8;
/// sgt's numbers' colour (`COL_TEXT`).
const INK: [u8; 3] = [0, 0, 0];

/// Number templates, one per tile number, from one source.
pub struct Numbers {
    /// Where they come from: "the calibration", or a font's family.
    pub source: String,
    pub looks: Vec<NumberLook>,
    /// The correlation at which a face is a number.
    pub min_score: f32,
}

impl Numbers {
    /// No numbers at all: every tile is refused, saying why.
    pub fn none() -> Numbers {
        Numbers {
            source: "no font".into(),
            looks: Vec::new(),
            min_score: FONT_MIN_SCORE,
        }
    }
}

/// What one number looks like.
pub struct NumberLook {
    pub n: u8,
    /// The whole number, framed by [`read::number_window`].
    pub whole: Template,
    /// Each digit of a two-digit number on its own: the whole of "13" is
    /// much like the whole of "15", its second digit is not.
    pub parts: Option<Parts>,
}

/// A two-digit number's digits.
pub struct Parts {
    /// Where the first digit ends, as a share of the window's width.
    pub split: f64,
    pub left: Template,
    pub right: Template,
}

impl NumberLook {
    /// How well the number in `window` of `img` matches this look, given
    /// the whole's correlation: the worst of the whole and each digit.
    pub fn score(&self, whole: f32, img: &RgbImage, window: RectF) -> f32 {
        let Some(p) = &self.parts else {
            return whole;
        };
        let x = window.x0 + p.split * window.width();
        let left = p.left.score(img, RectF { x1: x, ..window });
        let right = p.right.score(img, RectF { x0: x, ..window });
        whole.min(left).min(right)
    }
}

/// How a number is drawn: as sgt draws it, or drawn and then scaled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// By the font at the tile's size: a window at its own size.
    Native,
    /// Drawn larger and shrunk: a screenshot scaled after sgt drew it.
    Scaled,
}

/// How much larger a [`Drawn::Scaled`] number is drawn before it is shrunk.
const SUPERSAMPLE: u32 = 4;

/// How many sizes [`rendered`] keeps: a live game's board keeps its size.
const CACHED: usize = 8;

/// The numbers `1..=15` in every desktop face, drawn both ways, for tiles
/// `pitch` pixels wide (to a quarter pixel) with faces of `grey`; kept for
/// the next read of a board of that size.
pub fn rendered(pitch: f64, grey: Rgb) -> Arc<Vec<Numbers>> {
    type Cache = Vec<((u32, [u8; 3]), Arc<Vec<Numbers>>)>;
    static CACHE: Mutex<Cache> = Mutex::new(Vec::new());
    let key = ((pitch * 4.0).round() as u32, grey.to_u8());
    let cache = || {
        CACHE
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    };
    if let Some((_, hit)) = cache().iter().find(|(k, _)| *k == key) {
        return Arc::clone(hit);
    }
    let sets = Arc::new(draw_all(f64::from(key.0) / 4.0, grey));
    let mut c = cache();
    if c.len() >= CACHED {
        c.remove(0);
    }
    c.push((key, Arc::clone(&sets)));
    sets
}

/// The numbers in every desktop face, drawn both ways.
fn draw_all(pitch: f64, grey: Rgb) -> Vec<Numbers> {
    desktop_faces()
        .iter()
        .flat_map(|face| [Drawn::Native, Drawn::Scaled].map(|d| (face, d)))
        .filter_map(|(face, drawn)| in_face(face, drawn, pitch, grey))
        .collect()
}

/// The numbers in one face; `None` when one of them draws nothing.
fn in_face(face: &Face, drawn: Drawn, pitch: f64, grey: Rgb) -> Option<Numbers> {
    let paper = grey.to_u8();
    let (em, source) = match drawn {
        // sgt's font size is `TILE_SIZE / 3` in whole pixels.
        Drawn::Native => ((pitch.round() / 3.0).floor(), face.family.clone()),
        Drawn::Scaled => (pitch / 3.0, format!("{}, scaled", face.family)),
    };
    let em = em.max(4.0) as f32;
    let last = (MAX_SIDE * MAX_SIDE - 1) as u8;
    let looks = (1..=last)
        .map(|n| {
            let text = n.to_string();
            let img = match drawn {
                Drawn::Native => face.render(&text, em, INK, paper),
                Drawn::Scaled => face.render_resampled(&text, em, INK, paper, SUPERSAMPLE),
            };
            look(&img, n, grey)
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Numbers {
        source,
        looks,
        min_score: FONT_MIN_SCORE,
    })
}

/// Number `n`, rendered, framed as the reader frames one on a tile.
fn look(drawn: &Rendered, n: u8, grey: Rgb) -> Option<NumberLook> {
    let img = &drawn.image;
    let all = RectF {
        x0: 0.0,
        y0: 0.0,
        x1: f64::from(img.width()),
        y1: f64::from(img.height()),
    };
    let ink = read::face(img, all, grey).ink_box?;
    let window = read::number_window(ink);
    let whole = cut(img, window)?;
    let parts = match drawn.spans[..] {
        [(_, end), (start, _)] => {
            let x = (end + start) / 2.0;
            Some(Parts {
                split: (x - window.x0) / window.width(),
                left: cut(img, RectF { x1: x, ..window })?,
                right: cut(img, RectF { x0: x, ..window })?,
            })
        }
        _ => None,
    };
    Some(NumberLook { n, whole, parts })
}

/// The template of `rect` of `img`.
fn cut(img: &RgbImage, rect: RectF) -> Option<Template> {
    Template::from_image(&crop(img, rect, 0)?, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_gives_fifteen_numbers_that_are_told_apart() {
        let sets = rendered(48.0, Rgb([213.0; 3]));
        if sets.is_empty() {
            eprintln!("skipped: no desktop font found (fonts-dejavu-core installs one)");
            return;
        }
        for set in sets.iter() {
            assert_eq!(set.looks.len(), 15, "{}", set.source);
            for look in &set.looks {
                assert_eq!(
                    look.parts.is_some(),
                    look.n >= 10,
                    "{} {}",
                    set.source,
                    look.n
                );
            }
        }
    }
}
