//! Skins: a game's look learned from labelled screenshots, for boards with
//! or without grid lines.
//!
//! ```text
//! learn::learn (screenshots + their positions) → Skin
//! locate::locate (a screenshot + Skin)         → lattice + one Verdict a cell
//! ```
//!
//! A [`Skin`] knows each class of cell by one or more *looks*: the cell as
//! a small picture ([`descriptor`]), the same at any scale, with a
//! tolerance learned from how much the class's cells varied and capped so
//! that no two classes' tolerances meet. A cell that matches no look, or
//! looks of two classes, is unreadable, and the reader refuses.
//!
//! The lattice comes from the picture itself ([`locate`]): the repeat of
//! its colour changes ([`pitch`]) and the box the board fills inside its
//! surroundings give the pitch; the cells' likeness to the looks gives
//! the origin; and the colours seen around the board give its extent. A
//! board of slots (a Continuity frame) has a gap after every few cells,
//! read as a cell of its own width ([`grid`]).
//!
//! Labels are the game's own: what one cell shows, as the game's reader
//! names it (usually its level text's character). Nothing here knows a
//! game.

mod align;
pub mod descriptor;
pub mod grid;
pub mod layers;
pub mod learn;
pub mod lines;
pub mod locate;
pub mod pitch;
pub mod read;
pub mod slots;

use descriptor::{Descriptor, weight_total, weighted, weighted_within};

pub use grid::Gaps;
pub(crate) use grid::Grid;
pub use layers::Layers;
pub use learn::{LearnSkinError, Shot, learn, learn_layered};
pub use locate::{Located, locate};

/// One look of a class of cell.
#[derive(Clone, Debug, PartialEq)]
pub struct Look {
    /// The class, as the game names it.
    pub label: String,
    pub cells: Descriptor,
    /// The largest distance (RMS, 0–255) at which a cell is this look.
    pub tolerance: f32,
    /// Per value of the descriptor, the farthest a taught sample strayed
    /// from `cells` (0–255). A cell that strays much farther in places is
    /// not this look, however near on the whole: half a thin piece
    /// mid-move over a floor. `None` in a skin taught before they were
    /// kept.
    pub limits: Option<Descriptor>,
}

/// A learned look of a game's board.
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    pub looks: Vec<Look>,
    /// How much each value of a descriptor tells classes apart (its
    /// spread between classes over its spread within them).
    pub weights: Vec<f32>,
    /// The cells' height over their width.
    pub aspect: f64,
    /// The colours around the board in the screenshots it was learned from.
    pub outside: Vec<[u8; 3]>,
    /// How far past its lattice the board's own pixels reach (an outline
    /// drawn across the edge), in pitches: the surroundings begin there.
    pub reach: f64,
    /// The smallest cell side, in pixels, worth looking for.
    pub min_pitch: f64,
    pub max_pitch: f64,
    /// The gaps between groups of cells (a frame's slots), read as cells
    /// of their own; `None` for a board of one pitch throughout.
    pub gaps: Option<Gaps>,
    /// What the taught positions say that no cell shows, in the game's
    /// level text (Continuity's `jump 3`): the rules a read through this
    /// skin takes, as the game it was taught on has them.
    pub rules: Option<String>,
    /// Where the lattice lies from the grid lines the taught shots showed,
    /// for a first guess from them; `None` when they showed none.
    pub lines: Option<lines::Lines>,
    /// What the looks tell that no picture changes, worked out on the
    /// first read and kept (`Memo::default()` to build a skin).
    pub memo: Memo,
}

/// What a skin's looks tell that no picture changes, worked out once: a
/// skin of hundreds of looks (B.i.t.Lock's pairs) would otherwise work it
/// out again on every read. A skin's looks and surroundings are not
/// changed after it first reads a picture; a clone, which may be, works it
/// out afresh (build a changed skin from a clone, not by moving a used
/// skin's fields into a new one).
#[derive(Default)]
pub struct Memo {
    /// Whether some look is half or more in the page's colours.
    pub(crate) page_like: std::sync::OnceLock<bool>,
}

/// Skins print alike by what they were taught, as they compare.
impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Memo")
    }
}

impl Clone for Memo {
    fn clone(&self) -> Memo {
        Memo::default()
    }
}

/// Skins are alike by what they were taught, whether or not they have
/// read a picture yet.
impl PartialEq for Memo {
    fn eq(&self, _: &Memo) -> bool {
        true
    }
}

/// How one cell reads against a skin.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// One class: the look, its distance and the confidence (0–1).
    Match {
        look: usize,
        distance: f32,
        confidence: f32,
    },
    /// Too far from every look.
    NoMatch { nearest: usize, distance: f32 },
    /// Near looks of two classes.
    Ambiguous { first: usize, second: usize },
    /// Near a look on the whole, but `values` of its descriptor stray far
    /// past anything taught for it: part of something else over it.
    Strays { look: usize, values: usize },
}

/// Between a cell's best look and a near look of another class, the cell
/// must lie at least this far towards the best one (0 is the other look,
/// 1 the best): a piece half way between cells lies near 0.5.
const SIDE_MIN: f32 = 0.75;

impl Skin {
    /// True when the skin was taught a class that `class` accepts: what a
    /// game's rules need to know of what its look can show.
    pub fn taught(&self, class: impl Fn(&str) -> bool) -> bool {
        self.looks.iter().any(|l| class(&l.label))
    }

    /// The distance between two cells' descriptors, as this skin weighs it.
    pub fn distance(&self, a: &[f32], b: &[f32]) -> f32 {
        weighted(a, b, &self.weights)
    }

    /// Where `cell` lies between looks `b` (0) and `a` (1), measured only
    /// where they differ: the part of a cell that tells two classes apart
    /// (a target's ring, say) decides between them, not the rest.
    pub fn side(&self, cell: &[f32], a: usize, b: usize) -> f32 {
        let (la, lb) = (&self.looks[a].cells, &self.looks[b].cells);
        let (mut num, mut den) = (0.0f32, 0.0f32);
        for i in 0..cell.len().min(la.len()).min(lb.len()) {
            let diff = la[i] - lb[i];
            num += self.weights[i] * diff * (cell[i] - lb[i]);
            den += self.weights[i] * diff * diff;
        }
        if den <= 0.0 { 0.5 } else { num / den }
    }

    /// The cell read against every look.
    pub fn judge(&self, cell: &[f32]) -> Verdict {
        self.judge_with(cell, true)
    }

    /// [`Self::judge`]; with `prune` false, every distance is added whole
    /// (what the tests hold the judge to).
    fn judge_with(&self, cell: &[f32], prune: bool) -> Verdict {
        // On the stack for the usual few looks: every cell of every
        // lattice tried is judged.
        let (mut stack, mut heap) = ([0.0f32; 64], Vec::new());
        let d: &mut [f32] = if self.looks.len() <= stack.len() {
            &mut stack[..self.looks.len()]
        } else {
            heap.resize(self.looks.len(), 0.0);
            &mut heap
        };
        // Every look has a value per weight (learned so, and checked when
        // a calibration is read), so the weights add up once for all.
        let n = cell.len().min(self.weights.len());
        let total = weight_total(&self.weights[..n]);
        // A look farther than its tolerance and than twice the nearest
        // so far can be neither the match nor a near rival of it (below),
        // so its sum stops there: the verdict is the same as with every
        // distance whole. (The looks taught plainly come first, so the
        // nearest is soon near.)
        let mut nearest = f32::INFINITY;
        for (v, l) in d.iter_mut().zip(&self.looks) {
            debug_assert_eq!(l.cells.len(), self.weights.len(), "a look's length");
            let limit = if prune {
                l.tolerance.max(2.0 * nearest)
            } else {
                f32::INFINITY
            };
            *v = weighted_within(cell, &l.cells, &self.weights, total, limit)
                .unwrap_or(f32::INFINITY);
            nearest = nearest.min(*v);
        }
        let d = &*d;
        let Some(best) = (0..d.len()).min_by(|&a, &b| d[a].total_cmp(&d[b])) else {
            return Verdict::NoMatch {
                nearest: 0,
                distance: f32::INFINITY,
            };
        };
        if d[best] > self.looks[best].tolerance {
            return Verdict::NoMatch {
                nearest: best,
                distance: d[best],
            };
        }
        let label = &self.looks[best].label;
        let mut confidence = 1.0 - 0.5 * d[best] / self.looks[best].tolerance;
        for r in (0..d.len()).filter(|&i| &self.looks[i].label != label) {
            // Far looks cannot be confused with this one; near ones are
            // told apart where they differ.
            if d[r] > self.looks[r].tolerance && d[r] > 2.0 * d[best] {
                continue;
            }
            let side = self.side(cell, best, r);
            if side < SIDE_MIN {
                return Verdict::Ambiguous {
                    first: best,
                    second: r,
                };
            }
            confidence = confidence.min(side);
        }
        Verdict::Match {
            look: best,
            distance: d[best],
            confidence,
        }
    }

    /// Why a verdict is not a match, in words; `None` for a match.
    pub fn why(&self, v: &Verdict) -> Option<String> {
        match v {
            Verdict::Match { .. } => None,
            Verdict::NoMatch { nearest, distance } => {
                let l = self.looks.get(*nearest);
                Some(match l {
                    Some(l) => format!(
                        "it looks like no cell of this calibration (nearest: {:?}, {distance:.0} away, tolerance {:.0}): a piece mid-move, or something over the board",
                        l.label, l.tolerance
                    ),
                    None => "the skin has no looks".into(),
                })
            }
            Verdict::Ambiguous { first, second } => Some(format!(
                "it looks like both {:?} and {:?}",
                self.looks[*first].label, self.looks[*second].label
            )),
            Verdict::Strays { look, values } => Some(format!(
                "it is near {:?} on the whole, but parts of it ({values} of {} values) are far from anything taught for it: a piece mid-move, or something over the board",
                self.looks[*look].label,
                descriptor::LEN
            )),
        }
    }

    /// The verdict on a cell as read for a board: a match whose cell
    /// strays past its look's limits in places ([`Look::limits`]) matches
    /// no look.
    pub fn confirm(&self, cell: &[f32], v: Verdict) -> Verdict {
        let Verdict::Match { look, .. } = v else {
            return v;
        };
        let l = &self.looks[look];
        let Some(limits) = &l.limits else {
            return v;
        };
        let strays = cell
            .iter()
            .zip(&l.cells)
            .zip(limits)
            .filter(|((c, m), lim)| (*c - *m).abs() > *lim + STRAY)
            .count();
        if strays >= STRAYS {
            Verdict::Strays {
                look,
                values: strays,
            }
        } else {
            v
        }
    }

    /// True when a cell of these pixels would pass for the board's
    /// surroundings: most of its boxes are colours seen around the board.
    pub fn is_outside(&self, cell: &[f32]) -> bool {
        if self.outside.is_empty() {
            return false;
        }
        let boxes = cell.len() / 3;
        let near = cell
            .chunks_exact(3)
            .filter(|c| self.near_outside([c[0], c[1], c[2]]))
            .count();
        near * 10 >= boxes * 9
    }

    /// True when a colour is near one seen around the board.
    pub fn near_outside(&self, c: [f32; 3]) -> bool {
        near_any(&self.outside, c)
    }

    /// True when a colour lies between two colours seen around the board
    /// (on the segment joining them): where a frame meets the page.
    pub fn between_outside(&self, c: [f32; 3]) -> bool {
        let o: Vec<[f32; 3]> = self.outside.iter().map(|c| c.map(f32::from)).collect();
        o.iter()
            .enumerate()
            .any(|(i, a)| o[i + 1..].iter().any(|b| near(c, nearest_on(c, *a, *b))))
    }
}

/// True when a colour is near one of `colours`.
pub fn near_any(colours: &[[u8; 3]], c: [f32; 3]) -> bool {
    colours.iter().any(|o| near(c, o.map(f32::from)))
}

/// True when a colour is near one of `colours`.
pub(crate) fn near_any_f32(colours: &[[f32; 3]], c: [f32; 3]) -> bool {
    colours.iter().any(|&o| near(c, o))
}

fn near(c: [f32; 3], o: [f32; 3]) -> bool {
    (0..3).all(|k| (c[k] - o[k]).abs() <= OUTSIDE_NEAR)
}

/// The point of the segment `a`–`b` nearest `c`.
fn nearest_on(c: [f32; 3], a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    let ab = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    let len = ab.iter().map(|v| v * v).sum::<f32>();
    if len <= 0.0 {
        return a;
    }
    let t = ((0..3).map(|k| (c[k] - a[k]) * ab[k]).sum::<f32>() / len).clamp(0.0, 1.0);
    [a[0] + t * ab[0], a[1] + t * ab[1], a[2] + t * ab[2]]
}

/// How much farther than any taught sample (0–255) a value of a cell may
/// stray from its look: room for noise, and for scales and phases between
/// those taught.
const STRAY: f32 = 40.0;
/// How many values must stray so far for a cell to match no look.
const STRAYS: usize = 2;

/// How near (per channel) a colour must be to one seen around the board.
pub const OUTSIDE_NEAR: f32 = 28.0;

/// A skin of three looks of two classes, for tests.
#[cfg(test)]
pub(crate) fn example() -> Skin {
    let look = |label: &str, v: f32, tolerance: f32| Look {
        label: label.into(),
        cells: vec![v; descriptor::LEN],
        tolerance,
        limits: None,
    };
    Skin {
        looks: vec![
            look("a", 0.0, 20.0),
            look("b", 100.0, 20.0),
            look("b", 140.0, 20.0),
        ],
        weights: vec![1.0; descriptor::LEN],
        aspect: 1.0,
        outside: vec![[250, 250, 250]],
        reach: 0.0,
        min_pitch: 16.0,
        max_pitch: 200.0,
        gaps: None,
        rules: None,
        lines: None,
        memo: Memo::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skin() -> Skin {
        example()
    }

    /// A cell near its look on the whole, but far past the look's limits
    /// in a few places (half a thin piece over a floor), is refused; one
    /// value astray, or any cell of a look without limits, is not.
    #[test]
    fn a_cell_straying_past_its_looks_limits_is_refused() {
        let mut s = skin();
        s.looks[0].limits = Some(vec![4.0; descriptor::LEN]);
        let mut cell = vec![2.0; descriptor::LEN];
        let v = s.judge(&cell);
        assert!(matches!(
            s.confirm(&cell, v),
            Verdict::Match { look: 0, .. }
        ));
        cell[7] = 90.0;
        let v = s.judge(&cell);
        assert!(matches!(v, Verdict::Match { look: 0, .. }), "{v:?}");
        assert!(matches!(s.confirm(&cell, v), Verdict::Match { .. }));
        cell[40] = 90.0;
        let v = s.confirm(&cell, s.judge(&cell));
        assert_eq!(v, Verdict::Strays { look: 0, values: 2 });
        assert!(s.why(&v).unwrap().contains("mid-move"));
        s.looks[0].limits = None;
        let v = s.judge(&cell);
        assert_eq!(s.confirm(&cell, v.clone()), v);
    }

    #[test]
    fn a_cell_is_one_class_none_or_refused_between_two() {
        let s = skin();
        assert!(matches!(
            s.judge(&vec![5.0; descriptor::LEN]),
            Verdict::Match { look: 0, .. }
        ));
        assert!(matches!(
            s.judge(&vec![135.0; descriptor::LEN]),
            Verdict::Match { look: 2, .. }
        ));
        assert!(matches!(
            s.judge(&vec![60.0; descriptor::LEN]),
            Verdict::NoMatch { .. }
        ));
        let mut between = skin();
        between.looks[0].tolerance = 60.0;
        between.looks[1].tolerance = 60.0;
        assert!(matches!(
            between.judge(&vec![50.0; descriptor::LEN]),
            Verdict::Ambiguous { .. }
        ));
        assert!(
            s.why(&s.judge(&vec![60.0; descriptor::LEN]))
                .unwrap()
                .contains("no cell")
        );
    }

    /// Stopping a look's sum once it cannot matter gives the verdict of
    /// every distance added whole: on hundreds of looks, near and far,
    /// with cells on them, between them and away from all.
    #[test]
    fn the_pruned_judge_gives_the_whole_judge_s_verdict() {
        let mut rng = crate::rng::Rng::new(7);
        let mut s = skin();
        let base: Vec<f32> = (0..descriptor::LEN)
            .map(|_| rng.below(256) as f32)
            .collect();
        s.looks = (0..300)
            .map(|i| {
                // Some looks a little apart from others, some far.
                let spread = [3.0, 12.0, 60.0][i % 3];
                let cells = base
                    .iter()
                    .map(|v| {
                        (v + (rng.below(2001) as f32 / 1000.0 - 1.0) * spread).clamp(0.0, 255.0)
                    })
                    .collect();
                Look {
                    label: format!("c{}", i % 150),
                    cells,
                    tolerance: 0.5 + rng.below(40) as f32 / 2.0,
                    limits: None,
                }
            })
            .collect();
        s.weights = (0..descriptor::LEN)
            .map(|_| 0.1 + rng.below(30) as f32 / 10.0)
            .collect();
        let mut kinds = [0usize; 3];
        for t in 0..600 {
            let at = &s.looks[t % s.looks.len()].cells;
            // Every fourth cell half way between two near looks.
            let to = &s.looks[(t + 3) % s.looks.len()].cells;
            let noise = [0.5, 4.0, 20.0][t % 3];
            let cell: Vec<f32> = at
                .iter()
                .zip(to)
                .map(|(a, b)| if t % 4 == 3 { (a + b) / 2.0 } else { *a })
                .map(|v| v + (rng.below(2001) as f32 / 1000.0 - 1.0) * noise)
                .collect();
            let (pruned, whole) = (s.judge_with(&cell, true), s.judge_with(&cell, false));
            assert_eq!(pruned, whole, "cell {t}");
            kinds[match whole {
                Verdict::Match { .. } => 0,
                Verdict::NoMatch { .. } => 1,
                _ => 2,
            }] += 1;
        }
        // Every kind of verdict was met.
        assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
        // A rival past its own tolerance but within twice the best
        // distance still makes the cell ambiguous, when it lies between.
        let mut s = skin();
        s.looks.truncate(2);
        (s.looks[0].tolerance, s.looks[1].tolerance) = (10.0, 1.0);
        s.looks[1].cells = vec![10.0; descriptor::LEN];
        let cell = vec![4.0; descriptor::LEN];
        assert_eq!(
            s.judge_with(&cell, false),
            Verdict::Ambiguous {
                first: 0,
                second: 1
            }
        );
        assert_eq!(s.judge(&cell), s.judge_with(&cell, false));
    }

    #[test]
    fn the_surroundings_are_known_by_their_colours() {
        let s = skin();
        assert!(s.is_outside(&vec![240.0; descriptor::LEN]));
        assert!(!s.is_outside(&vec![100.0; descriptor::LEN]));
    }
}
