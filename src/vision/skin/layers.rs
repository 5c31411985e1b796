//! Cells of two layers: a piece standing on a ground, such as a
//! B.i.t.Lock tile on a target. Each pair is a class of its own, and no
//! handful of screenshots shows every pair; but a look that shows some
//! pairs as a piece drawn over its ground shows the others so too. For
//! each cell size taught (each class's mean over the shots of that size),
//! this makes samples of the pairs not shown:
//!
//! - **What each pair shown teaches:** in each box where its ground
//!   differs from bare floor, whether the pair shows the piece's own
//!   colour there (the piece hides the ground) or the piece as drawn on
//!   floor plus what the ground adds (the ground shows through).
//! - **A pair made:** in each box where its ground differs from floor, as
//!   a pair shown whose piece covered that box as this piece does (not at
//!   all, in part, or plainly) teaches; elsewhere, the piece as drawn on
//!   floor. A box no such pair tells of leaves the pair unmade, and so
//!   does a cell size that shows the piece but cannot make it.
//! - **Only a look that stacks:** every pair shown must be made so from
//!   its own piece and ground to within a little of what it shows, and be
//!   farther from the bare piece; otherwise (a look that hides the ground
//!   under a piece, or draws a pair some other way) nothing is made.

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

/// How far each box of a piece is from bare floor: its shape.
fn shape(piece: &[f32], floor: &[f32]) -> Vec<f32> {
    (0..piece.len() / 3)
        .map(|b| apart(piece, floor, b))
        .collect()
}

/// How a piece covers a box.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cover {
    /// Within [`COVERS`] of bare floor.
    Not,
    /// Between: a box along the piece's edge.
    Part,
    /// Three times as far from floor.
    Plain,
}

/// How a box `v` from bare floor ([`shape`]) is covered.
fn coverage(v: f32) -> Cover {
    if v <= COVERS {
        Cover::Not
    } else if v > 3.0 * COVERS {
        Cover::Plain
    } else {
        Cover::Part
    }
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

/// Where a pair as shown hides its ground, in the boxes where the ground
/// differs from bare floor (the only boxes a pair shows it in): `Some`
/// when the pair there is nearer the piece's own colour than the piece
/// with the ground showing through. Elsewhere `None`: not known.
fn hidden(piece: &[f32], ground: &[f32], floor: &[f32], pair: &[f32]) -> Vec<Option<bool>> {
    let through = stack(piece, ground, floor, &vec![false; piece.len() / 3]);
    (0..piece.len() / 3)
        .map(|b| {
            (apart(ground, floor, b) > COVERS)
                .then(|| apart(pair, piece, b) <= apart(pair, &through, b))
        })
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
    shape: Vec<f32>,
    hides: Vec<Option<bool>>,
}

/// In one group: what each pair shown teaches, with the pairs checked,
/// or `None` when one is not made from its layers to within
/// [`MADE_NEAR`], or is as near the bare piece (a look that hides the
/// ground whole, or draws a pair some other way).
fn taught<'p>(
    classes: &BTreeMap<String, Descriptor>,
    floor: &[f32],
    pairs: &'p [(String, String, String)],
    weights: &[f32],
) -> Option<(Vec<Taught>, Vec<&'p str>)> {
    let (mut out, mut checked) = (Vec::new(), Vec::new());
    for (p, g, pair) in pairs {
        let (Some(piece), Some(ground), Some(shown)) =
            (classes.get(p), classes.get(g), classes.get(pair))
        else {
            continue;
        };
        let hides = hidden(piece, ground, floor, shown);
        let known: Vec<bool> = hides.iter().map(|h| h.unwrap_or(false)).collect();
        let made = stack(piece, ground, floor, &known);
        if weighted(&made, shown, weights) > MADE_NEAR
            || weighted(piece, shown, weights) <= MADE_NEAR
        {
            return None;
        }
        checked.push(pair.as_str());
        out.push(Taught {
            shape: shape(piece, floor),
            hides,
        });
    }
    Some((out, checked))
}

/// `piece` on `ground` as the pairs shown teach it: in each box where the
/// ground shows, whether a piece covering that box as this one does hid
/// the ground there (the first lesson to tell decides), or `None` where
/// none tells.
fn made_from(
    piece: &[f32],
    ground: &[f32],
    floor: &[f32],
    lessons: &[&Taught],
) -> Option<Descriptor> {
    let own = shape(piece, floor);
    let hides = (0..own.len())
        .map(|b| match apart(ground, floor, b) > COVERS {
            true => lessons
                .iter()
                .filter(|t| coverage(t.shape[b]) == coverage(own[b]))
                .find_map(|t| t.hides[b]),
            // Bare floor there: the piece as drawn on floor.
            false => Some(false),
        })
        .collect::<Option<Vec<bool>>>()?;
    Some(stack(piece, ground, floor, &hides))
}

/// Samples of every pair not shown, made from its layers in every group
/// that shows the piece, where pairs shown (at that cell size first, then
/// at any) teach where such a piece hides every part of the ground that
/// shows ([`made_from`]); none unless every pair shown is
/// made alike from its own layers, in a group that shows them. `groups`
/// gives each sample's group; `weights` weigh the comparison.
pub fn made(
    samples: &[(String, Descriptor)],
    groups: &[usize],
    layers: &Layers,
    weights: &[f32],
) -> Vec<(String, Descriptor)> {
    let labels: BTreeSet<&str> = samples.iter().map(|s| s.0.as_str()).collect();
    let pairs = pairs(&labels, layers);
    let means = means(samples, groups);
    // What each group's pairs shown teach.
    let mut taught_in = Vec::new();
    let mut checked: BTreeSet<&str> = BTreeSet::new();
    for classes in means.values() {
        let Some(floor) = classes.get(layers.floor) else {
            taught_in.push(Vec::new());
            continue;
        };
        let Some((lessons, seen)) = taught(classes, floor, &pairs, weights) else {
            return Vec::new();
        };
        checked.extend(seen);
        taught_in.push(lessons);
    }
    let shown: Vec<&str> = pairs
        .iter()
        .map(|t| t.2.as_str())
        .filter(|p| labels.contains(p))
        .collect();
    if shown.is_empty() || shown.iter().any(|p| !checked.contains(p)) {
        return Vec::new();
    }
    let mut out: Vec<(String, Descriptor)> = Vec::new();
    // Pairs that a group showing their piece could not make.
    let mut unmade: BTreeSet<&str> = BTreeSet::new();
    for (i, classes) in means.values().enumerate() {
        let lessons: Vec<&Taught> = taught_in[i]
            .iter()
            .chain(
                taught_in
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .flat_map(|(_, t)| t),
            )
            .collect();
        let floor = classes.get(layers.floor);
        for (p, g, pair) in pairs.iter().filter(|t| !labels.contains(t.2.as_str())) {
            let Some(piece) = classes.get(p) else {
                continue;
            };
            let made = floor
                .zip(classes.get(g))
                .and_then(|(floor, ground)| made_from(piece, ground, floor, &lessons));
            match made {
                Some(m) => out.push((pair.clone(), m)),
                None => {
                    unmade.insert(pair.as_str());
                }
            }
        }
    }
    out.retain(|m| !unmade.contains(m.0.as_str()));
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

    /// Target B has a mark (a bar) where A has none: no pair shown says
    /// whether a piece hides it there, so no pair on B is made.
    #[test]
    fn a_ground_marked_where_no_pair_shown_was_is_not_made() {
        let (mut samples, groups) = shots(false);
        let bar = |b: usize| b / 12 == 1 && (2..10).contains(&(b % 12));
        let border = |b: usize| b / 12 == 0 || b % 12 == 0 || b / 12 == 11 || b % 12 == 11;
        samples[4].1 = cell(|b| {
            if border(b) || bar(b) {
                [40.0, 40.0, 200.0]
            } else {
                [200.0; 3]
            }
        });
        let made = made(&samples, &groups, &layers(), &vec![1.0; 432]);
        let names: Vec<&str> = made.iter().map(|m| m.0.as_str()).collect();
        assert_eq!(names, ["bA"]);
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
