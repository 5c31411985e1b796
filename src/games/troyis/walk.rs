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

fn cost(start: usize, order: &[usize], dist: &Distances) -> u32 {
    let mut pos = start;
    let mut total = 0;
    for &t in order {
        total += dist.d(pos, t);
        pos = t;
    }
    total
}

/// Or-opt and 2-opt moves until no move shortens the order.
fn improve(start: usize, order: &mut Vec<usize>, dist: &Distances) {
    let n = order.len();
    if n < 3 {
        return;
    }
    let mut best = cost(start, order, dist);
    let mut improved = true;
    let mut rounds = 0;
    while improved && rounds < 50 {
        improved = false;
        rounds += 1;
        // 2-opt: reverse order[i..=j].
        for i in 0..n - 1 {
            for j in i + 1..n {
                order[i..=j].reverse();
                let c = cost(start, order, dist);
                if c < best {
                    best = c;
                    improved = true;
                } else {
                    order[i..=j].reverse();
                }
            }
        }
        // Or-opt: move a run of 1–3 targets to another place.
        for len in 1..=3.min(n - 1) {
            let mut i = 0;
            while i + len <= n {
                let run: Vec<usize> = order[i..i + len].to_vec();
                let mut rest: Vec<usize> = order[..i].to_vec();
                rest.extend_from_slice(&order[i + len..]);
                let mut moved = false;
                for at in 0..=rest.len() {
                    if at == i {
                        continue;
                    }
                    let mut cand = rest[..at].to_vec();
                    cand.extend_from_slice(&run);
                    cand.extend_from_slice(&rest[at..]);
                    let c = cost(start, &cand, dist);
                    if c < best {
                        best = c;
                        *order = cand;
                        improved = true;
                        moved = true;
                        break;
                    }
                }
                if !moved {
                    i += 1;
                }
            }
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
    if order.len() <= 200 {
        improve(g.start, &mut order, &dist);
    }
    walk_of(g, &order, &dist)
}
