//! State-space maps: every state reachable from a start, and each one's
//! distance to the nearest goal, by breadth-first search backwards from
//! all the goals at once (so it works for moves that cannot be undone).

use std::collections::VecDeque;
use std::hash::Hash;
use std::time::Instant;

use super::progress::Progress;
use super::search::{Budget, Stats};
use super::store::Store;

/// A reachable state space with distances to the goals.
pub struct StateMap<S> {
    /// Index 0 is the start.
    pub states: Vec<S>,
    /// Moves from each state to the nearest goal; `u32::MAX` when no goal
    /// can be reached from it.
    pub dist: Vec<u32>,
    pub goals: Vec<u32>,
    /// Successors of state `i`: `succ[offsets[i]..offsets[i + 1]]`.
    pub offsets: Vec<u32>,
    pub succ: Vec<u32>,
    pub stats: Stats,
}

impl<S> StateMap<S> {
    pub fn successors(&self, i: u32) -> &[u32] {
        &self.succ[self.offsets[i as usize] as usize..self.offsets[i as usize + 1] as usize]
    }

    /// Number of edges.
    pub fn edges(&self) -> usize {
        self.succ.len()
    }

    /// The largest finite distance.
    pub fn max_distance(&self) -> Option<u32> {
        self.dist.iter().copied().filter(|&d| d != u32::MAX).max()
    }
}

/// Maps everything reachable from `start`. `Err` with the stats when the
/// budget runs out.
pub fn distance_map<S, N, G>(
    start: S,
    mut next: N,
    mut goal: G,
    budget: &Budget,
    progress: &mut Progress,
) -> Result<StateMap<S>, Stats>
where
    S: Hash + Eq + Clone,
    N: FnMut(&S, &mut Vec<S>),
    G: FnMut(&S) -> bool,
{
    let t = Instant::now();
    let mut stats = Stats::default();
    let mut store = Store::default();
    store.insert(start);
    let mut offsets = vec![0u32];
    let mut succ: Vec<u32> = Vec::new();
    let mut goals = Vec::new();
    let mut buf = Vec::new();
    let mut head = 0usize;
    while head < store.len() {
        let s = store.state(head as u32).clone();
        if goal(&s) {
            goals.push(head as u32);
        }
        buf.clear();
        next(&s, &mut buf);
        for n in buf.drain(..) {
            let (j, _) = store.insert(n);
            succ.push(j);
        }
        offsets.push(succ.len() as u32);
        head += 1;
        let bytes = store.bytes() + 4 * (succ.capacity() + offsets.capacity()) as u64;
        stats.peak_bytes = stats.peak_bytes.max(bytes);
        progress.update("mapping", store.len() as u64, 0);
        if bytes > budget.max_bytes
            || store.len() as u64 > budget.state_cap()
            || succ.len() as u64 >= u64::from(u32::MAX)
        {
            stats.states = store.len() as u64;
            stats.ms = t.elapsed().as_secs_f64() * 1e3;
            return Err(stats);
        }
    }
    let n = store.len();
    // Reverse the edges, then search back from every goal at once.
    let mut rev_off = vec![0u32; n + 1];
    for &j in &succ {
        rev_off[j as usize + 1] += 1;
    }
    for i in 0..n {
        rev_off[i + 1] += rev_off[i];
    }
    let mut fill = rev_off.clone();
    let mut pred = vec![0u32; succ.len()];
    for i in 0..n {
        for &j in &succ[offsets[i] as usize..offsets[i + 1] as usize] {
            pred[fill[j as usize] as usize] = i as u32;
            fill[j as usize] += 1;
        }
    }
    let mut dist = vec![u32::MAX; n];
    let mut queue: VecDeque<u32> = goals.iter().copied().collect();
    for &g in &goals {
        dist[g as usize] = 0;
    }
    while let Some(j) = queue.pop_front() {
        let d = dist[j as usize] + 1;
        for &i in &pred[rev_off[j as usize] as usize..rev_off[j as usize + 1] as usize] {
            if dist[i as usize] == u32::MAX {
                dist[i as usize] = d;
                queue.push_back(i);
            }
        }
    }
    stats.states = n as u64;
    stats.peak_bytes = stats
        .peak_bytes
        .max(store.bytes() + 4 * (2 * succ.len() + 3 * n) as u64);
    stats.ms = (t.elapsed().as_secs_f64() * 100_000.0).round() / 100.0;
    Ok(StateMap {
        states: store.into_states(),
        dist,
        goals,
        offsets,
        succ,
        stats,
    })
}
