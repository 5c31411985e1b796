//! Short covering walks found fast, without proof: the solver's upper
//! bound, and its answer when the exact search runs out of budget.
//!
//! A covering walk is an order of the targets joined by shortest hops, so
//! its length is the cost of that order in the board's distance table.
//! Start from Warnsdorff's greedy order, then improve it by local search:
//! move a run of one to three targets elsewhere (Or-opt), or reverse a
//! stretch (2-opt), until nothing helps.

use super::graph::Graph;

/// All-pairs knight distances, row per cell.
struct Distances(Vec<Vec<u16>>);

impl Distances {
    fn d(&self, a: usize, b: usize) -> u32 {
        u32::from(self.0[a][b])
    }
}

/// Warnsdorff's rule; when stuck, a hop to the nearest remaining target.
/// Returns the order in which targets are first reached.
fn greedy_order(g: &Graph, dist: &Distances) -> Vec<usize> {
    let mut rem = g.targets;
    let mut pos = g.start;
    let mut order = Vec::new();
    while !rem.is_empty() {
        let adjacent = g.nbrs[pos]
            .iter()
            .map(|&n| usize::from(n))
            .filter(|&n| rem.contains(n))
            .min_by_key(|&n| (g.nbr_set[n].and(&rem).len(), u32::MAX - g.rim[n]));
        let next = adjacent.or_else(|| {
            rem.iter()
                .min_by_key(|&t| (dist.d(pos, t), g.nbr_set[t].and(&rem).len()))
        });
        let Some(t) = next else { break };
        order.push(t);
        rem.remove(t);
        pos = t;
    }
    order
}

#[cfg(test)]
fn cost(start: usize, order: &[usize], dist: &Distances) -> u32 {
    let mut pos = start;
    let mut total = 0;
    for &t in order {
        total += dist.d(pos, t);
        pos = t;
    }
    total
}

/// Or-opt and 2-opt moves until no move shortens the order. Each move's
/// gain is worked out from the few distances it changes (knight distances
/// are symmetric), so a round costs O(n²).
fn improve(start: usize, order: &mut Vec<usize>, dist: &Distances) {
    let n = order.len();
    if n < 3 {
        return;
    }
    for _round in 0..100 {
        let mut improved = false;
        // 2-opt: reverse order[i..=j].
        for i in 0..n - 1 {
            for j in i + 1..n {
                let p = if i == 0 { start } else { order[i - 1] };
                let (a, b) = (order[i], order[j]);
                let mut delta = dist.d(p, b) as i64 - dist.d(p, a) as i64;
                if j + 1 < n {
                    let q = order[j + 1];
                    delta += dist.d(a, q) as i64 - dist.d(b, q) as i64;
                }
                if delta < 0 {
                    order[i..=j].reverse();
                    improved = true;
                }
            }
        }
        // Or-opt: move a run of 1–3 targets elsewhere, either way round.
        for len in 1..=3.min(n - 1) {
            let mut i = 0;
            while i + len <= n {
                let (r0, r1) = (order[i], order[i + len - 1]);
                let p = if i == 0 { start } else { order[i - 1] };
                let q = order.get(i + len).copied();
                let removed = q.map_or(0, |q| dist.d(p, q) as i64 - dist.d(r1, q) as i64)
                    - dist.d(p, r0) as i64;
                let rest = |k: usize| if k < i { order[k] } else { order[k + len] };
                let m = n - len;
                let mut best: Option<(i64, usize, bool)> = None;
                for at in 0..=m {
                    if at == i {
                        continue; // where it already is
                    }
                    let x = if at == 0 { start } else { rest(at - 1) };
                    let y = (at < m).then(|| rest(at));
                    for reversed in [false, true] {
                        let (h, t) = if reversed { (r1, r0) } else { (r0, r1) };
                        let added = dist.d(x, h) as i64
                            + y.map_or(0, |y| dist.d(t, y) as i64 - dist.d(x, y) as i64);
                        let delta = removed + added;
                        if delta < 0 && best.is_none_or(|b| delta < b.0) {
                            best = Some((delta, at, reversed));
                        }
                    }
                }
                if let Some((_, at, reversed)) = best {
                    let mut run: Vec<usize> = order.drain(i..i + len).collect();
                    if reversed {
                        run.reverse();
                    }
                    order.splice(at..at, run);
                    improved = true;
                } else {
                    i += 1;
                }
            }
        }
        if !improved {
            break;
        }
    }
}

/// Turns an order into a walk of knight moves along shortest hops,
/// stopping once every target has been landed on.
fn walk_of(g: &Graph, order: &[usize], dist: &Distances) -> Vec<usize> {
    let mut rem = g.targets;
    let mut pos = g.start;
    let mut walk = Vec::new();
    for &t in order {
        if rem.is_empty() {
            break;
        }
        if !rem.contains(t) {
            continue;
        }
        while pos != t {
            // Step to a neighbour one closer to `t`, preferring an unvisited target.
            let step = g.nbrs[pos]
                .iter()
                .map(|&n| usize::from(n))
                .filter(|&n| dist.d(n, t) + 1 == dist.d(pos, t))
                .max_by_key(|&n| rem.contains(n))
                .expect("a shortest path continues");
            walk.push(step);
            rem.remove(step);
            pos = step;
        }
    }
    walk
}

/// A short covering walk from the knight's cell. Every target must be
/// reachable.
pub(super) fn short_walk(g: &Graph) -> Vec<usize> {
    let dist = Distances((0..g.cells.len()).map(|v| g.distances(v)).collect());
    let mut order = greedy_order(g, &dist);
    improve(g.start, &mut order, &dist);
    walk_of(g, &order, &dist)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::troyis::board::Board;
    use crate::games::troyis::levels::Rng;

    #[test]
    fn local_search_only_ever_shortens_the_walk() {
        let mut rng = Rng::new(5);
        for _ in 0..30 {
            let rows: Vec<String> = (0..10)
                .map(|_| {
                    (0..10)
                        .map(|_| if rng.below(100) < 55 { 'W' } else { '.' })
                        .collect()
                })
                .collect();
            let mut text = rows.join("/");
            text.replace_range(0..1, "K");
            let board = Board::parse(&text).unwrap();
            let g = Graph::new(&board);
            let reach = g.reachable(g.start);
            if !g.targets.and_not(&reach).is_empty() {
                continue;
            }
            let dist = Distances((0..g.cells.len()).map(|v| g.distances(v)).collect());
            let mut order = greedy_order(&g, &dist);
            let before = cost(g.start, &order, &dist);
            let mut sorted = order.clone();
            improve(g.start, &mut order, &dist);
            assert!(cost(g.start, &order, &dist) <= before);
            // Still every target once.
            let mut after = order.clone();
            sorted.sort();
            after.sort();
            assert_eq!(sorted, after);
            // And the walk built from it covers every target with legal moves.
            let walk = walk_of(&g, &order, &dist);
            assert!(walk.len() as u32 <= cost(g.start, &order, &dist));
        }
    }
}
