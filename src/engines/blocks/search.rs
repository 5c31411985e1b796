//! What a search of the blocks engine reports ([`Outcome`]), and paths
//! through stored mirror images turned back into the positions a player
//! goes through. The searches themselves are [`super::layers`] (optimal)
//! and [`super::greedy`] (a plan where the optimal one cannot finish).
//! Under [`Metric::Steps`] a move is one cell; under [`Metric::Pieces`] it
//! is every position one piece reaches by a flood with the others fixed,
//! which is exact: any run of one piece's steps is one move, and the flood
//! finds every end of such runs.

use super::engine::{Engine, Flood};
use super::moves::Metric;

/// How a search ended.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The canonical states from the start to the goal, when found.
    pub path: Option<Vec<Vec<u16>>>,
    /// Every reachable state was seen and none is a goal.
    pub exhausted: bool,
    pub states: u64,
    /// No plan is shorter than this (the last complete layer).
    pub proven: u32,
    pub bytes: u64,
    pub ms: f64,
    /// Which of the aimed-at states was reached ([`super::layers::Aim::States`]).
    pub target: Option<usize>,
}

/// A path of stored states as the states a player goes through: on a
/// symmetric board a stored state may be the mirror image of the one a
/// move reached, and exactly one of the two (or both) follows from the
/// state before.
pub fn unmirror<const W: usize>(
    e: &Engine<W>,
    metric: Metric,
    path: Vec<Vec<u16>>,
) -> Vec<Vec<u16>> {
    let Some(m) = &e.mirror else {
        return path;
    };
    let mut out: Vec<Vec<u16>> = Vec::with_capacity(path.len());
    for n in path {
        let next = match out.last() {
            Some(cur) if !follows(e, metric, cur, &n) => {
                let mut flipped = Vec::new();
                m.state(&n, &mut flipped);
                flipped
            }
            _ => n,
        };
        out.push(next);
    }
    out
}

/// True when one move under `metric` takes `cur` to `next`.
fn follows<const W: usize>(e: &Engine<W>, metric: Metric, cur: &[u16], next: &[u16]) -> bool {
    let limit = metric.reach();
    let occ = e.occupied(cur);
    let mut f = Flood::default();
    let mut t = cur.to_vec();
    for slot in 0..cur.len() {
        e.flood(cur, &occ, slot, limit, &mut f);
        let k = e.class_of(slot);
        for &(q, _) in f.reached() {
            t.copy_from_slice(cur);
            t[slot] = q;
            e.board.resort(&mut t, k);
            if t == next {
                return true;
            }
        }
    }
    false
}
