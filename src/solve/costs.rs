//! Searches over move costs: Dijkstra, or A* when a heuristic is given,
//! for puzzles whose moves cost different amounts (walking a step against
//! shifting a whole tile, say). A binary heap orders states by `g + h`;
//! with a consistent heuristic the first goal popped is cheapest.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hash::Hash;
use std::time::Instant;

use super::progress::Progress;
use super::search::{Budget, Found, Stats, trace_back};
use super::store::Store;

/// The cheapest path from `start` to a goal. `cost` gives each move's
/// cost (0 allowed); `h` is a consistent lower bound (0 gives Dijkstra;
/// `u32::MAX` marks a dead state). Over budget, `proven` is the cost below
/// which no solution exists, saturated to `u32`.
pub fn dijkstra<S, M, N, C, H, G>(
    start: S,
    mut next: N,
    mut cost: C,
    mut h: H,
    mut goal: G,
    budget: &Budget,
    progress: &mut Progress,
) -> (Found<M>, Stats)
where
    S: Hash + Eq + Clone,
    M: Clone,
    N: FnMut(&S, &mut Vec<(M, S)>),
    C: FnMut(&M) -> u32,
    H: FnMut(&S) -> u32,
    G: FnMut(&S) -> bool,
{
    let t = Instant::now();
    let mut stats = Stats::default();
    let h0 = h(&start);
    if h0 == u32::MAX {
        stats.ms = super::search::elapsed_ms(t);
        return (Found::Exhausted, stats);
    }
    let mut store = Store::default();
    store.insert(start);
    let mut parents: Vec<(u32, Option<M>)> = vec![(0, None)];
    let mut g: Vec<u64> = vec![0];
    let mut heap = BinaryHeap::new();
    heap.push(Reverse((u64::from(h0), 0u64, 0u32)));
    let mut buf = Vec::new();
    // Per state: its parent and move, and its cost so far; the heap is
    // counted apart, as it holds a state again each time a cheaper way is
    // found (with moves of cost 0, many times).
    let per_state = (std::mem::size_of::<(u32, Option<M>)>() + 8) as u64;
    let per_entry = std::mem::size_of::<Reverse<(u64, u64, u32)>>() as u64;
    let mut f_seen = 0u64;
    while let Some(Reverse((f, gi, i))) = heap.pop() {
        if gi != g[i as usize] {
            continue; // stale: a cheaper way was found since
        }
        f_seen = f_seen.max(f);
        let s = store.state(i).clone();
        if goal(&s) {
            stats.states = store.len() as u64;
            stats.ms = super::search::elapsed_ms(t);
            return (Found::Path(trace_back(&parents, i)), stats);
        }
        buf.clear();
        next(&s, &mut buf);
        for (m, n) in buf.drain(..) {
            let hn = h(&n);
            if hn == u32::MAX {
                continue;
            }
            let gn = gi + u64::from(cost(&m));
            let (j, new) = store.insert(n);
            if new {
                parents.push((i, Some(m)));
                g.push(gn);
            } else if g[j as usize] <= gn {
                continue;
            } else {
                parents[j as usize] = (i, Some(m));
                g[j as usize] = gn;
            }
            heap.push(Reverse((gn + u64::from(hn), gn, j)));
        }
        let bytes = store.bytes()
            + parents.capacity() as u64 * per_state
            + heap.capacity() as u64 * per_entry;
        stats.peak_bytes = stats.peak_bytes.max(bytes);
        progress.update("cheapest-first", store.len() as u64, f_seen as u32);
        if bytes > budget.max_bytes || store.len() as u64 > budget.state_cap() {
            stats.states = store.len() as u64;
            stats.ms = super::search::elapsed_ms(t);
            let proven = u32::try_from(f_seen).unwrap_or(u32::MAX);
            return (Found::OverBudget { proven }, stats);
        }
    }
    stats.states = store.len() as u64;
    stats.ms = super::search::elapsed_ms(t);
    (Found::Exhausted, stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of cells 0..=10: a step right costs 1, a jump of three costs 2.
    fn next(s: &u32, out: &mut Vec<(char, u32)>) {
        if *s < 10 {
            out.push(('s', s + 1));
        }
        if *s + 3 <= 10 {
            out.push(('j', s + 3));
        }
    }

    fn cost(m: &char) -> u32 {
        if *m == 's' { 1 } else { 2 }
    }

    #[test]
    fn finds_the_cheapest_not_the_shortest() {
        let mut p = Progress::quiet();
        let (found, _) = dijkstra(
            0u32,
            next,
            cost,
            |_| 0,
            |s| *s == 10,
            &Budget::default(),
            &mut p,
        );
        let Found::Path(moves) = found else {
            panic!("{found:?}")
        };
        let total: u32 = moves.iter().map(cost).sum();
        // Three jumps and a step: 2+2+2+1.
        assert_eq!(total, 7);
        // A consistent heuristic (remaining cells × 2/3, rounded down) agrees.
        let (found, _) = dijkstra(
            0u32,
            next,
            cost,
            |s| (10 - s) * 2 / 3,
            |s| *s == 10,
            &Budget::default(),
            &mut p,
        );
        let Found::Path(m2) = found else { panic!() };
        assert_eq!(m2.iter().map(cost).sum::<u32>(), 7);
    }

    #[test]
    fn unreachable_goals_exhaust() {
        let mut p = Progress::quiet();
        let (found, stats) = dijkstra(
            0u32,
            next,
            cost,
            |_| 0,
            |s| *s == 11,
            &Budget::default(),
            &mut p,
        );
        assert_eq!(found, Found::Exhausted);
        assert_eq!(stats.states, 11);
    }
}
