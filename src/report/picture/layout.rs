//! Where each node of a state-map picture goes. The x axis is the distance
//! to the goal: one column per distance, the farthest on the left and the
//! goals on the right, with the states that cannot reach a goal in a column
//! of their own at the far left. Within a column, states are ordered by the
//! barycenter of their neighbours in the next column, sweeping left and
//! right a few times (the ordering step of a Sugiyama layout; the layers
//! themselves are given by the distances, so no layering step is needed).
//! Deterministic: the same map always gives the same picture.

use std::collections::BTreeMap;
use std::hash::Hash;

use super::Net;
use crate::solve::StateMap;

/// A column per distance, and one for the states with none.
#[derive(Clone, Copy, Debug)]
pub struct Columns {
    /// The largest finite distance, if any state can reach a goal.
    max: Option<u32>,
    /// Some state cannot reach a goal: the leftmost column holds them.
    dead: bool,
}

impl Columns {
    pub fn of(dist: impl Iterator<Item = Option<u32>>) -> Columns {
        let (mut max, mut dead) = (None, false);
        for d in dist {
            match d {
                Some(d) => max = Some(max.map_or(d, |m: u32| m.max(d))),
                None => dead = true,
            }
        }
        Columns { max, dead }
    }

    /// The largest finite distance.
    pub fn max(&self) -> Option<u32> {
        self.max
    }

    /// Some state cannot reach a goal.
    pub fn dead(&self) -> bool {
        self.dead
    }

    pub fn count(&self) -> usize {
        usize::from(self.dead) + self.max.map_or(0, |m| m as usize + 1)
    }

    /// The column of a state `d` moves from a goal.
    pub fn col(&self, d: Option<u32>) -> usize {
        match (d, self.max) {
            (Some(d), Some(m)) => usize::from(self.dead) + (m - d.min(m)) as usize,
            _ => 0,
        }
    }

    /// The distance a column stands for; `None` for the dead column.
    pub fn distance(&self, col: usize) -> Option<u32> {
        let c = col.checked_sub(usize::from(self.dead))?;
        self.max.map(|m| m.saturating_sub(c as u32))
    }
}

/// The states of a map, placed.
pub struct Placed {
    pub cols: Columns,
    /// Each state's centre.
    pub pos: Vec<(f32, f32)>,
    /// Each column's centre line.
    pub col_x: Vec<f32>,
    pub radius: f32,
    /// The drawing's size, from `origin`.
    pub width: f32,
    pub height: f32,
}

/// States in a column above this wrap into side-by-side sub-columns.
const ROWS_CAP: usize = 400;
/// Barycenter sweeps, alternately left to right and right to left.
const SWEEPS: usize = 8;

/// Places every state of `net`, the drawing's top left at `origin`.
pub fn states(net: &Net, origin: (f32, f32)) -> Placed {
    let cols = Columns::of(net.dist.iter().copied());
    let members = order(net, &cols);
    let shape: Vec<(usize, usize)> = members
        .iter()
        .map(|m| {
            let k = m.len().div_ceil(ROWS_CAP).max(1);
            (k, m.len().div_ceil(k))
        })
        .collect();
    let tallest = shape.iter().map(|s| s.1).max().unwrap_or(1).max(1);
    let pitch = (1600.0 / tallest as f32).clamp(3.0, 26.0);
    let widest = shape.iter().map(|s| s.0).max().unwrap_or(1) as f32 * pitch;
    let col_gap = (widest + 36.0).max((1400.0 / cols.count().max(1) as f32).clamp(50.0, 160.0));
    let height = tallest as f32 * pitch;
    let col_x: Vec<f32> = (0..cols.count())
        .map(|c| origin.0 + col_gap * (c as f32 + 0.5))
        .collect();
    let mut pos = vec![(0.0, 0.0); net.dist.len()];
    for (c, m) in members.iter().enumerate() {
        let (k, rows) = shape[c];
        let top = origin.1 + (height - rows as f32 * pitch) / 2.0;
        for (r, &v) in m.iter().enumerate() {
            let (row, sub) = (r / k, r % k);
            pos[v as usize] = (
                col_x[c] + (sub as f32 - (k as f32 - 1.0) / 2.0) * pitch,
                top + (row as f32 + 0.5) * pitch,
            );
        }
    }
    Placed {
        cols,
        pos,
        col_x,
        radius: (pitch * 0.36).clamp(1.0, 8.0),
        width: col_gap * cols.count() as f32,
        height,
    }
}

/// Each column's states, top to bottom.
fn order(net: &Net, cols: &Columns) -> Vec<Vec<u32>> {
    let n = net.dist.len();
    let col: Vec<usize> = net.dist.iter().map(|&d| cols.col(d)).collect();
    let (off, adj) = adjacency(n, &net.edges);
    let mut members = vec![Vec::new(); cols.count()];
    for (i, &c) in col.iter().enumerate() {
        members[c].push(i as u32);
    }
    // Each state's place in its column, from 0 to 1.
    let mut slot = vec![0.0f32; n];
    let place = |m: &[u32], slot: &mut [f32]| {
        for (r, &v) in m.iter().enumerate() {
            slot[v as usize] = (r as f32 + 0.5) / m.len() as f32;
        }
    };
    for m in &members {
        place(m, &mut slot);
    }
    let last = cols.count().saturating_sub(1);
    for sweep in 0..SWEEPS {
        let forward = sweep % 2 == 0;
        for step in 1..=last {
            let (c, from) = if forward {
                (step, step - 1)
            } else {
                (last - step, last - step + 1)
            };
            let key = |v: u32| {
                let near = adj[off[v as usize]..off[v as usize + 1]]
                    .iter()
                    .filter(|&&u| col[u as usize] == from);
                let (sum, k) = near.fold((0.0, 0), |(s, k), &u| (s + slot[u as usize], k + 1));
                if k == 0 {
                    slot[v as usize]
                } else {
                    sum / k as f32
                }
            };
            let mut keyed: Vec<(f32, f32, u32)> = members[c]
                .iter()
                .map(|&v| (key(v), slot[v as usize], v))
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            members[c] = keyed.into_iter().map(|k| k.2).collect();
            place(&members[c], &mut slot);
        }
    }
    members
}

/// Neighbours of each state, both ways: `adj[off[i]..off[i + 1]]`.
fn adjacency(n: usize, edges: &[(u32, u32)]) -> (Vec<usize>, Vec<u32>) {
    let mut off = vec![0usize; n + 1];
    for &(a, b) in edges {
        off[a as usize + 1] += 1;
        off[b as usize + 1] += 1;
    }
    for i in 0..n {
        off[i + 1] += off[i];
    }
    let mut fill = off.clone();
    let mut adj = vec![0u32; off[n]];
    for &(a, b) in edges {
        adj[fill[a as usize]] = b;
        fill[a as usize] += 1;
        adj[fill[b as usize]] = a;
        fill[b as usize] += 1;
    }
    (off, adj)
}

/// A map too large to draw state by state: its distance layers, how many
/// states each holds, and how many moves join each pair of layers.
pub struct LayerGraph {
    pub cols: Columns,
    /// States per column.
    pub counts: Vec<usize>,
    /// `(from column, to column, moves)`; each pair once when moves can be
    /// undone, and then `from <= to`.
    pub links: Vec<(usize, usize, u64)>,
    /// The start's column.
    pub start: usize,
    /// The column of each state on the player's path.
    pub path: Option<Vec<usize>>,
}

impl LayerGraph {
    pub fn of<S: Hash + Eq, M>(
        map: &StateMap<S, M>,
        undirected: bool,
        path: Option<&[u32]>,
    ) -> LayerGraph {
        let n = map.len() as u32;
        let cols = Columns::of((0..n).map(|i| map.distance(i)));
        let col: Vec<usize> = (0..n).map(|i| cols.col(map.distance(i))).collect();
        let mut counts = vec![0usize; cols.count()];
        let mut links: BTreeMap<(usize, usize), u64> = BTreeMap::new();
        for i in 0..n {
            let a = col[i as usize];
            counts[a] += 1;
            for (_, j) in map.edges_of(i) {
                if undirected && j <= i {
                    continue;
                }
                let b = col[j as usize];
                let key = if undirected {
                    (a.min(b), a.max(b))
                } else {
                    (a, b)
                };
                *links.entry(key).or_default() += 1;
            }
        }
        LayerGraph {
            cols,
            counts,
            links: links.into_iter().map(|((a, b), k)| (a, b, k)).collect(),
            start: col.first().copied().unwrap_or(0),
            path: path.map(|p| p.iter().map(|&i| col[i as usize]).collect()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_run_from_the_dead_states_to_the_goals() {
        let c = Columns::of([Some(0), Some(3), None].into_iter());
        assert_eq!(c.count(), 5);
        assert_eq!((c.col(None), c.col(Some(3)), c.col(Some(0))), (0, 1, 4));
        assert_eq!(
            (c.distance(0), c.distance(1), c.distance(4)),
            (None, Some(3), Some(0))
        );
        let alive = Columns::of([Some(2), Some(0)].into_iter());
        assert_eq!(
            (alive.count(), alive.col(Some(2)), alive.distance(0)),
            (3, 0, Some(2))
        );
    }

    #[test]
    fn barycenters_untangle_two_chains() {
        // Two chains to two goals, 0-2-4 and 1-3-5, numbered so that the
        // first ordering crosses: a chain keeps to one row after sweeping.
        let net = Net {
            dist: vec![Some(2), Some(2), Some(1), Some(1), Some(0), Some(0)],
            edges: vec![(0, 3), (1, 2), (2, 4), (3, 5)],
        };
        let p = states(&net, (0.0, 0.0));
        let y = |i: usize| p.pos[i].1;
        assert_eq!(y(0) < y(1), y(3) < y(2), "{:?}", p.pos);
        assert_eq!(y(3) < y(2), y(5) < y(4), "{:?}", p.pos);
        assert!(p.pos[0].0 < p.pos[2].0 && p.pos[2].0 < p.pos[4].0);
    }
}
