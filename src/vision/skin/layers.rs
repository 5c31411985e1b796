//! Cells of two layers: a piece standing on a ground, such as a
//! B.i.t.Lock tile on a target. Each pair is a class of its own, and no
//! handful of screenshots shows every pair; but a look that shows one
//! pair as the piece drawn over the ground shows them all so. From each
//! screenshot (at each scale) this makes samples of every pair not shown:
//! the piece's own sample where the piece covers its cell (where it
//! differs from bare floor), the ground's elsewhere, each class's mean
//! over the shots of one cell size. It does so only when
//! every pair that was shown is made the same way from its own piece and
//! ground, to within a little of what was shown: a look that hides the
//! ground under a piece, or draws a pair some other way, gets nothing.

use std::collections::{BTreeMap, BTreeSet};

use super::descriptor::{Descriptor, weighted};

/// How a game's cells stack: a piece's class over a ground's.
#[derive(Clone, Copy)]
pub struct Layers {
    /// The class of bare floor, which a piece's own class stands on.
    pub floor: &'static str,
    /// The class of a cell showing `piece` standing on `ground`, when the
    /// two classes stack (`a` on `A` is `aA`).
    pub stack: fn(piece: &str, ground: &str) -> Option<String>,
}

/// How far (RMS, 0–255, over a box's three channels) a piece's box must
/// be from bare floor's to be part of the piece's shape.
const COVERS: f32 = 10.0;

/// How near (weighted RMS, 0–255) a pair made from its layers must come
/// to the pair as shown for the look to stack: well inside the least
/// tolerance a look has.
const MADE_NEAR: f32 = 7.0;

/// The share of boxes in which two pieces' shapes may differ and still be
/// one shape (a box or two along an edge, as a letter drawn in it moves).
const SHAPE_SLACK: f32 = 0.03;

/// Each class's mean sample in each group of samples (the shots of one
/// cell size, to half a pixel).
type Means = BTreeMap<usize, BTreeMap<String, Descriptor>>;

fn means(samples: &[(String, Descriptor)], groups: &[usize]) -> Means {
    let mut sums: BTreeMap<usize, BTreeMap<String, (Descriptor, usize)>> = BTreeMap::new();
    for ((label, d), &g) in samples.iter().zip(groups) {
        let (sum, n) = sums
            .entry(g)
            .or_default()
            .entry(label.clone())
            .or_insert_with(|| (vec![0.0; d.len()], 0));
        sum.iter_mut().zip(d).for_each(|(s, v)| *s += v);
        *n += 1;
    }
    sums.into_iter()
        .map(|(g, classes)| {
            let classes = classes
                .into_iter()
                .map(|(l, (mut s, n))| {
                    s.iter_mut().for_each(|v| *v /= n as f32);
                    (l, s)
                })
                .collect();
            (g, classes)
        })
        .collect()
}

/// The RMS difference of box `b` (three values) between two descriptors.
fn apart(a: &[f32], b: &[f32], at: usize) -> f32 {
    let sum: f32 = (0..3)
        .map(|c| (a[at * 3 + c] - b[at * 3 + c]).powi(2))
        .sum();
    (sum / 3.0).sqrt()
}

/// The boxes where a piece differs from bare floor: its shape.
fn shape(piece: &[f32], floor: &[f32]) -> Vec<bool> {
    (0..piece.len() / 3)
        .map(|b| apart(piece, floor, b) > COVERS)
        .collect()
}

/// A piece on a ground, box by box: where the piece hides the ground
/// (`hides`), the piece's own colour; elsewhere the piece's as drawn on
/// floor, with what the ground adds to bare floor there (a box the piece
/// covers in part shows the rest of the ground through).
pub fn stack(piece: &[f32], ground: &[f32], floor: &[f32], hides: &[bool]) -> Descriptor {
    let mut out = piece.to_vec();
    for (i, o) in out.iter_mut().enumerate() {
        if !hides[i / 3] {
            *o = (*o + ground[i] - floor[i]).clamp(0.0, 255.0);
        }
    }
    out
}

/// Where a pair as shown hides its ground: the boxes nearer the piece's
/// own colour than the piece with the ground showing through.
fn hidden(piece: &[f32], ground: &[f32], floor: &[f32], pair: &[f32]) -> Vec<bool> {
    let through = stack(piece, ground, floor, &vec![false; piece.len() / 3]);
    (0..piece.len() / 3)
        .map(|b| apart(pair, piece, b) <= apart(pair, &through, b))
        .collect()
}

/// The pairs of classes among `labels` that stack: (piece, ground, pair).
fn pairs(labels: &BTreeSet<&str>, layers: &Layers) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for p in labels {
        for g in labels {
            if let Some(pair) = (layers.stack)(p, g) {
                out.push((p.to_string(), g.to_string(), pair));
            }
        }
    }
    out
}

/// A piece's shape, and where it hides a ground, as a pair shown teaches.
struct Taught {
    shape: Vec<bool>,
    hides: Vec<bool>,
}

/// In one group: what each pair shown teaches, or `None` when one is not
/// made from its layers to within [`MADE_NEAR`] (a look that hides the
/// ground whole, or draws a pair some other way).
fn taught(
    classes: &BTreeMap<String, Descriptor>,
    floor: &[f32],
    pairs: &[(String, String, String)],
    weights: &[f32],
) -> Option<Vec<Taught>> {
    let mut out = Vec::new();
    for (p, g, pair) in pairs {
        let (Some(piece), Some(ground), Some(shown)) =
            (classes.get(p), classes.get(g), classes.get(pair))
        else {
            continue;
        };
        let hides = hidden(piece, ground, floor, shown);
        let made = stack(piece, ground, floor, &hides);
        // Where the piece hides the ground, the pair must still differ
        // from the bare piece somewhere the ground shows.
        if weighted(&made, shown, weights) > MADE_NEAR || hides.iter().all(|&h| h) {
            return None;
        }
        out.push(Taught {
            shape: shape(piece, floor),
            hides,
        });
    }
    Some(out)
}

/// Samples of every pair not shown, made from its layers in each group
/// that shows the piece, the ground and bare floor, where a pair shown
/// has a piece of the same shape; none unless every pair shown is made
/// alike from its own layers. `groups` gives each sample's group;
/// `weights` weigh the comparison.
pub fn made(
    samples: &[(String, Descriptor)],
    groups: &[usize],
    layers: &Layers,
    weights: &[f32],
) -> Vec<(String, Descriptor)> {
    let labels: BTreeSet<&str> = samples.iter().map(|s| s.0.as_str()).collect();
    let pairs = pairs(&labels, layers);
    let means = means(samples, groups);
    let mut out = Vec::new();
    for classes in means.values() {
        let Some(floor) = classes.get(layers.floor) else {
            continue;
        };
        let Some(taught) = taught(classes, floor, &pairs, weights) else {
            return Vec::new();
        };
        for (p, g, pair) in pairs
            .iter()
            .filter(|(.., pair)| !labels.contains(pair.as_str()))
        {
            let (Some(piece), Some(ground)) = (classes.get(p), classes.get(g)) else {
                continue;
            };
            let own = shape(piece, floor);
            let like = |t: &&Taught| {
                let differ = own.iter().zip(&t.shape).filter(|(a, b)| a != b).count();
                differ as f32 <= SHAPE_SLACK * own.len() as f32
            };
            if let Some(t) = taught.iter().find(like) {
                out.push((pair.clone(), stack(piece, ground, floor, &t.hides)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(f: impl Fn(usize) -> [f32; 3]) -> Descriptor {
        (0..144).flat_map(f).collect()
    }

    fn layers() -> Layers {
        Layers {
            floor: ".",
            stack: |p, g| {
                ((p == "a" || p == "b") && (g == "A" || g == "B")).then(|| format!("{p}{g}"))
            },
        }
    }

    /// A square piece in the middle boxes, a ring in the border boxes.
    fn shots(hides: bool) -> (Vec<(String, Descriptor)>, Vec<usize>) {
        let middle = |b: usize| (3..9).contains(&(b / 12)) && (3..9).contains(&(b % 12));
        let border = |b: usize| b / 12 == 0 || b % 12 == 0 || b / 12 == 11 || b % 12 == 11;
        let floor = [200.0, 200.0, 200.0];
        let piece = |c: [f32; 3]| cell(move |b| if middle(b) { c } else { floor });
        let target = |c: [f32; 3]| cell(move |b| if border(b) { c } else { floor });
        let on = |p: [f32; 3], t: [f32; 3]| {
            cell(move |b| match (middle(b) || hides, border(b)) {
                (true, _) => p,
                (false, true) => t,
                _ => floor,
            })
        };
        let (red, blue) = ([200.0, 40.0, 40.0], [40.0, 40.0, 200.0]);
        let s = vec![
            (".".to_string(), cell(|_| floor)),
            ("a".to_string(), piece(red)),
            ("b".to_string(), piece(blue)),
            ("A".to_string(), target(red)),
            ("B".to_string(), target(blue)),
            ("aA".to_string(), on(red, red)),
        ];
        let n = s.len();
        (s, vec![0; n])
    }

    #[test]
    fn a_pair_shown_over_its_ground_teaches_every_pair() {
        let (samples, groups) = shots(false);
        let w = vec![1.0; 432];
        let made = made(&samples, &groups, &layers(), &w);
        let names: Vec<&str> = made.iter().map(|m| m.0.as_str()).collect();
        assert_eq!(names, ["aB", "bA", "bB"]);
        // b on A: blue in the middle, the red ring round it.
        let ba = &made[1].1;
        assert_eq!(
            &ba[(5 * 12 + 5) * 3..(5 * 12 + 5) * 3 + 3],
            [40.0, 40.0, 200.0]
        );
        assert_eq!(&ba[0..3], [200.0, 40.0, 40.0]);
    }

    #[test]
    fn a_look_that_hides_the_ground_or_shows_no_pair_teaches_none() {
        let w = vec![1.0; 432];
        let (samples, groups) = shots(true);
        assert!(made(&samples, &groups, &layers(), &w).is_empty());
        let (mut samples, groups) = shots(false);
        samples.pop();
        assert!(made(&samples, &groups[1..], &layers(), &w).is_empty());
    }
}
