//! Bidirectional breadth-first search, for puzzles whose moves can be
//! walked backwards: it grows the smaller of the two frontiers a whole
//! layer at a time, until they meet.

use std::hash::Hash;
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::search::{Budget, Found, Stats, elapsed_ms};

/// One side's states, each with its link toward that side's root.
type Side<S, M> = FxHashMap<S, Option<(S, M)>>;

/// The moves from the start to a goal through `meet`.
fn join<S: Hash + Eq + Clone, M: Clone>(meet: &S, fwd: &Side<S, M>, bwd: &Side<S, M>) -> Vec<M> {
    let mut moves = Vec::new();
    let mut s = meet.clone();
    while let Some(Some((p, m))) = fwd.get(&s) {
        moves.push(m.clone());
        s = p.clone();
    }
    moves.reverse();
    let mut s = meet.clone();
    while let Some(Some((n, m))) = bwd.get(&s) {
        moves.push(m.clone());
        s = n.clone();
    }
    moves
}

/// Expands one layer of `frontier` with `step`, adding new states to
/// `mine`; returns the new layer and the first state the other side knows.
fn grow<S, M>(
    frontier: &[S],
    mine: &mut Side<S, M>,
    theirs: &Side<S, M>,
    mut step: impl FnMut(&S, &mut Vec<(M, S)>),
) -> (Vec<S>, Option<S>)
where
    S: Hash + Eq + Clone,
{
    let mut grown = Vec::new();
    let mut meet = None;
    let mut buf = Vec::new();
    for s in frontier {
        buf.clear();
        step(s, &mut buf);
        for (m, n) in buf.drain(..) {
            if mine.contains_key(&n) {
                continue;
            }
            mine.insert(n.clone(), Some((s.clone(), m)));
            if meet.is_none() && theirs.contains_key(&n) {
                meet = Some(n.clone());
            }
            grown.push(n);
        }
    }
    (grown, meet)
}

/// Bidirectional breadth-first search between `start` and a set of goal
/// states: `prev` pushes `(move, earlier state)` pairs such that the move
/// takes the earlier state to the given one.
pub fn bidirectional<S, M, N, P>(
    start: S,
    goals: Vec<S>,
    mut next: N,
    mut prev: P,
    budget: &Budget,
) -> (Found<M>, Stats)
where
    S: Hash + Eq + Clone,
    M: Clone,
    N: FnMut(&S, &mut Vec<(M, S)>),
    P: FnMut(&S, &mut Vec<(M, S)>),
{
    let t = Instant::now();
    let mut stats = Stats::default();
    let mut fwd: Side<S, M> = FxHashMap::default();
    let mut bwd: Side<S, M> = FxHashMap::default();
    fwd.insert(start.clone(), None);
    for g in &goals {
        bwd.insert(g.clone(), None);
    }
    let (mut ff, mut bf) = (vec![start.clone()], goals);
    let mut meet = bwd.contains_key(&start).then_some(start);
    let entry = std::mem::size_of::<S>() * 2 + std::mem::size_of::<M>() + 8;
    let mut depth = 0u32;
    let found = loop {
        if let Some(m) = &meet {
            break Found::Path(join(m, &fwd, &bwd));
        }
        if ff.is_empty() || bf.is_empty() {
            break Found::Exhausted;
        }
        depth += 1;
        meet = if ff.len() <= bf.len() {
            let (grown, m) = grow(&ff, &mut fwd, &bwd, &mut next);
            ff = grown;
            m
        } else {
            let (grown, m) = grow(&bf, &mut bwd, &fwd, &mut prev);
            bf = grown;
            m
        };
        let bytes = super::memory::hash_map_bytes(fwd.capacity() + bwd.capacity(), entry);
        stats.peak_bytes = stats.peak_bytes.max(bytes);
        stats.states = (fwd.len() + bwd.len()) as u64;
        if meet.is_none() && (bytes > budget.max_bytes || stats.states > budget.max_states) {
            break Found::OverBudget { proven: depth };
        }
    };
    stats.ms = elapsed_ms(t);
    (found, stats)
}
