//! State-space maps: every state reachable from a start, the move on each
//! edge, and each state's distance to the nearest goal, by breadth-first
//! search backwards from all the goals at once (so it works for moves that
//! cannot be undone). A finished map can be labelled backwards too: which
//! states can still reach a goal, and which reach one only by paths of a
//! given kind (see [`StateMap::label`]).
//!
//! Every table is counted against the memory budget before it is built,
//! including the reverse edges of the backward pass.

use std::collections::VecDeque;
use std::hash::Hash;
use std::time::Instant;

use super::progress::Progress;
use super::search::{Budget, Stats, elapsed_ms};
use super::store::Store;

/// A reachable state space with the moves between states and distances
/// to the goals.
pub struct StateMap<S, M> {
    /// The states, looked up by index or by value. Index 0 is the start.
    store: Store<S>,
    /// Moves from each state to the nearest goal; `u32::MAX` when none.
    dist: Vec<u32>,
    pub goals: Vec<u32>,
    /// Out-edges of state `i`: `targets[offsets[i]..offsets[i + 1]]`, with
    /// the move in `moves` at the same index.
    offsets: Vec<u32>,
    targets: Vec<u32>,
    moves: Vec<M>,
    pub stats: Stats,
}

/// What is known when a map could not be finished. States are found in
/// breadth-first order from the start, so the layers already expanded are
/// complete, and the first goal found is the nearest.
#[derive(Clone, Copy, Debug)]
pub struct OverBudget {
    /// States mapped before the budget ran out.
    pub states: u64,
    /// Every state within this many moves of the start was expanded.
    pub depth_complete: u32,
    /// Moves from the start to the nearest goal, if one was reached.
    pub goal_distance: Option<u32>,
    pub stats: Stats,
}

impl<S: Hash + Eq, M> StateMap<S, M> {
    pub fn len(&self) -> usize {
        self.store.len()
    }

    pub fn is_empty(&self) -> bool {
        self.store.is_empty()
    }

    pub fn state(&self, i: u32) -> &S {
        self.store.state(i)
    }

    /// The index of a state, if the map holds it.
    pub fn index_of(&self, s: &S) -> Option<u32> {
        self.store.get(s)
    }

    /// Moves from state `i` to the nearest goal; `None` when no goal can
    /// be reached from it.
    pub fn distance(&self, i: u32) -> Option<u32> {
        Some(self.dist[i as usize]).filter(|&d| d != u32::MAX)
    }

    /// The out-edges of state `i`, as `(move, target)`.
    pub fn edges_of(&self, i: u32) -> impl Iterator<Item = (&M, u32)> + '_ {
        let (a, b) = (
            self.offsets[i as usize] as usize,
            self.offsets[i as usize + 1] as usize,
        );
        self.moves[a..b]
            .iter()
            .zip(self.targets[a..b].iter().copied())
    }

    /// Number of directed edges.
    pub fn edges(&self) -> usize {
        self.targets.len()
    }

    /// The largest finite distance.
    pub fn max_distance(&self) -> Option<u32> {
        self.dist.iter().copied().filter(|&d| d != u32::MAX).max()
    }

    /// How many states lie at each finite distance, from 0.
    pub fn histogram(&self) -> Vec<usize> {
        let mut h = vec![0; self.max_distance().map_or(0, |m| m as usize + 1)];
        for &d in self.dist.iter().filter(|&&d| d != u32::MAX) {
            h[d as usize] += 1;
        }
        h
    }

    /// The states at distance `d`.
    pub fn at_distance(&self, d: u32) -> impl Iterator<Item = u32> + '_ {
        (0..self.len() as u32).filter(move |&i| self.dist[i as usize] == d)
    }

    /// States from which no goal can be reached.
    pub fn dead_states(&self) -> usize {
        self.dist.iter().filter(|&&d| d == u32::MAX).count()
    }
}

/// Shortest paths from the start (state 0): each state's distance from it
/// and the edge that first reached it.
pub struct FromStart {
    pub dist: Vec<u32>,
    /// The index of the edge into each state on a shortest path from the
    /// start; `u32::MAX` for the start and for unreached states.
    via: Vec<u32>,
    /// The source state of each edge.
    source: Vec<u32>,
}

impl<S: Hash + Eq, M> StateMap<S, M> {
    /// The move on edge `k`, and its target.
    pub fn edge(&self, k: u32) -> (&M, u32) {
        (&self.moves[k as usize], self.targets[k as usize])
    }

    /// Edge indices leaving state `i`.
    pub fn edge_ids(&self, i: u32) -> std::ops::Range<u32> {
        self.offsets[i as usize]..self.offsets[i as usize + 1]
    }

    /// Breadth-first distances from the start, with a way back.
    pub fn from_start(&self) -> FromStart {
        let n = self.store.len();
        let mut source = vec![0u32; self.targets.len()];
        for i in 0..n as u32 {
            for k in self.edge_ids(i) {
                source[k as usize] = i;
            }
        }
        let (mut dist, mut via) = (vec![u32::MAX; n], vec![u32::MAX; n]);
        let mut queue = VecDeque::from([0u32]);
        dist[0] = 0;
        while let Some(i) = queue.pop_front() {
            for k in self.edge_ids(i) {
                let j = self.targets[k as usize] as usize;
                if dist[j] == u32::MAX {
                    dist[j] = dist[i as usize] + 1;
                    via[j] = k;
                    queue.push_back(j as u32);
                }
            }
        }
        FromStart { dist, via, source }
    }

    /// The moves of a shortest path from the start to `target`.
    pub fn path_from_start(&self, fs: &FromStart, target: u32) -> Vec<&M> {
        let mut path = Vec::new();
        let mut at = target;
        while fs.via[at as usize] != u32::MAX {
            let k = fs.via[at as usize];
            path.push(&self.moves[k as usize]);
            at = fs.source[k as usize];
        }
        path.reverse();
        path
    }

    /// Distances to the nearest goal over the edges `allowed` keeps
    /// (`u32::MAX` when no goal can be reached that way).
    pub fn distances_using(&self, allowed: impl Fn(&M) -> bool) -> Vec<u32> {
        let (rev, pred) = self.reverse_edges();
        let mut dist = vec![u32::MAX; self.store.len()];
        let mut queue: VecDeque<u32> = self.goals.iter().copied().collect();
        for &g in &self.goals {
            dist[g as usize] = 0;
        }
        while let Some(j) = queue.pop_front() {
            for &i in &pred[rev[j as usize] as usize..rev[j as usize + 1] as usize] {
                if dist[i as usize] != u32::MAX {
                    continue;
                }
                let kept = self
                    .edge_ids(i)
                    .any(|k| self.targets[k as usize] == j && allowed(&self.moves[k as usize]));
                if kept {
                    dist[i as usize] = dist[j as usize] + 1;
                    queue.push_back(i);
                }
            }
        }
        dist
    }

    /// A shortest way from `from` to a goal down `dist` (as made by
    /// [`StateMap::distances_using`] with the same `allowed`); empty when
    /// `from` is a goal or cannot reach one.
    pub fn descend(&self, from: u32, dist: &[u32], allowed: impl Fn(&M) -> bool) -> Vec<&M> {
        let mut path = Vec::new();
        let mut at = from;
        while dist[at as usize] != 0 && dist[at as usize] != u32::MAX {
            let step = self.edge_ids(at).find(|&k| {
                let j = self.targets[k as usize] as usize;
                dist[j] != u32::MAX
                    && dist[j] + 1 == dist[at as usize]
                    && allowed(&self.moves[k as usize])
            });
            let Some(k) = step else { break };
            path.push(&self.moves[k as usize]);
            at = self.targets[k as usize];
        }
        path
    }

    /// Distances to the nearest goal over every edge.
    pub fn distances(&self) -> &[u32] {
        &self.dist
    }
}

/// Bytes for the tables of a map of `n` states and `e` edges once the
/// backward pass has run: the reverse edges, their offsets and fill
/// pointers, the distances and the queue.
fn backward_bytes(n: u64, e: u64) -> u64 {
    4 * e + 4 * 4 * (n + 1)
}

/// Maps everything reachable from `start`, with `next` pushing each
/// state's `(move, state)` successors. `Err` when the budget runs out.
pub fn distance_map<S, M, N, G>(
    start: S,
    next: N,
    goal: G,
    budget: &Budget,
    progress: &mut Progress,
) -> Result<StateMap<S, M>, OverBudget>
where
    S: Hash + Eq + Clone,
    N: FnMut(&S, &mut Vec<(M, S)>),
    G: FnMut(&S) -> bool,
{
    distance_map_sized(start, next, goal, |_| 0, budget, progress)
}

/// [`distance_map`] for states that hold memory of their own (boxed
/// slices): `heap` says how much, and the budget counts it.
pub fn distance_map_sized<S, M, N, G>(
    start: S,
    mut next: N,
    mut goal: G,
    heap: impl Fn(&S) -> usize,
    budget: &Budget,
    progress: &mut Progress,
) -> Result<StateMap<S, M>, OverBudget>
where
    S: Hash + Eq + Clone,
    N: FnMut(&S, &mut Vec<(M, S)>),
    G: FnMut(&S) -> bool,
{
    let t = Instant::now();
    let mut map = StateMap {
        store: Store::default(),
        dist: Vec::new(),
        goals: Vec::new(),
        offsets: vec![0u32],
        targets: Vec::new(),
        moves: Vec::new(),
        stats: Stats::default(),
    };
    let mut heap_bytes = heap(&start) as u64;
    map.store.insert(start);
    let mut buf = Vec::new();
    let mut head = 0usize;
    // Breadth-first layers: where the current one ends, and its depth.
    let (mut layer_end, mut depth) = (1usize, 0u32);
    let mut goal_distance = None;
    while head < map.store.len() {
        if head == layer_end {
            depth += 1;
            layer_end = map.store.len();
        }
        let s = map.store.state(head as u32).clone();
        if goal(&s) {
            map.goals.push(head as u32);
            goal_distance.get_or_insert(depth);
        }
        buf.clear();
        next(&s, &mut buf);
        for (m, n) in buf.drain(..) {
            let own = heap(&n) as u64;
            let (j, new) = map.store.insert(n);
            if new {
                heap_bytes += own;
            }
            map.targets.push(j);
            map.moves.push(m);
        }
        map.offsets.push(map.targets.len() as u32);
        head += 1;
        let bytes = map.forward_bytes()
            + heap_bytes
            + backward_bytes(map.store.len() as u64, map.targets.len() as u64);
        map.stats.peak_bytes = map.stats.peak_bytes.max(bytes);
        progress.update("mapping", map.store.len() as u64, depth);
        // Room for the store's next growth too: its old and new tables are
        // held at once while it grows.
        let growth = map.store.growth_bytes(super::store::GROWTH_SLACK);
        if bytes + growth > budget.max_bytes
            || map.store.len() as u64 > budget.state_cap()
            || map.targets.len() as u64 >= u64::from(u32::MAX)
        {
            map.stats.states = map.store.len() as u64;
            map.stats.ms = elapsed_ms(t);
            return Err(OverBudget {
                states: map.stats.states,
                depth_complete: depth.saturating_sub(1),
                goal_distance,
                stats: map.stats,
            });
        }
    }
    map.dist = map.backward_bfs();
    map.stats.states = map.store.len() as u64;
    map.stats.ms = elapsed_ms(t);
    Ok(map)
}

impl<S: Hash + Eq, M> StateMap<S, M> {
    /// Bytes of the forward tables, spare capacity included.
    fn forward_bytes(&self) -> u64 {
        self.store.bytes()
            + 4 * (self.targets.capacity() + self.offsets.capacity() + self.goals.capacity()) as u64
            + (self.moves.capacity() * std::mem::size_of::<M>()) as u64
    }

    /// Each state's predecessors: `pred[rev[j]..rev[j + 1]]`.
    fn reverse_edges(&self) -> (Vec<u32>, Vec<u32>) {
        let n = self.store.len();
        let mut rev = vec![0u32; n + 1];
        for &j in &self.targets {
            rev[j as usize + 1] += 1;
        }
        for i in 0..n {
            rev[i + 1] += rev[i];
        }
        let mut fill = rev.clone();
        let mut pred = vec![0u32; self.targets.len()];
        for i in 0..n {
            for &j in &self.targets[self.offsets[i] as usize..self.offsets[i + 1] as usize] {
                pred[fill[j as usize] as usize] = i as u32;
                fill[j as usize] += 1;
            }
        }
        (rev, pred)
    }

    /// Distances to the nearest goal, by BFS over the reversed edges.
    fn backward_bfs(&self) -> Vec<u32> {
        let (rev, pred) = self.reverse_edges();
        let mut dist = vec![u32::MAX; self.store.len()];
        let mut queue: VecDeque<u32> = self.goals.iter().copied().collect();
        for &g in &self.goals {
            dist[g as usize] = 0;
        }
        while let Some(j) = queue.pop_front() {
            let d = dist[j as usize] + 1;
            for &i in &pred[rev[j as usize] as usize..rev[j as usize + 1] as usize] {
                if dist[i as usize] == u32::MAX {
                    dist[i as usize] = d;
                    queue.push_back(i);
                }
            }
        }
        dist
    }

    /// Labels every state by the goal paths that leave it, given which
    /// edges are `marked` (a move that breaks a combo, say): whether any
    /// goal path leaves it, one that uses no marked edge, and one that
    /// uses at least one. Runs backwards from the goals, in time linear
    /// in the map.
    pub fn label(&self, mut marked: impl FnMut(u32, &M, u32) -> bool) -> Labels {
        let n = self.store.len();
        let (rev, pred) = self.reverse_edges();
        let mut flags = vec![0u8; n];
        for i in 0..n as u32 {
            if self.dist[i as usize] != u32::MAX {
                flags[i as usize] |= Labels::ALIVE;
            }
        }
        // Marked edges into a live state seed the "marked path" label; plain
        // edges carry the "clean path" label back from the goals.
        let mut seeds = Vec::new();
        let mut is_marked = vec![false; self.targets.len()];
        for i in 0..n as u32 {
            let a = self.offsets[i as usize] as usize;
            for (k, (m, j)) in self.edges_of(i).enumerate() {
                if marked(i, m, j) {
                    is_marked[a + k] = true;
                    if flags[j as usize] & Labels::ALIVE != 0 {
                        seeds.push(i);
                    }
                }
            }
        }
        self.spread_clean(&mut flags, &rev, &pred, &is_marked);
        for s in seeds {
            flags[s as usize] |= Labels::MARKED;
        }
        self.spread(&mut flags, &rev, &pred, Labels::MARKED);
        Labels { flags }
    }

    /// Marks CLEAN on every state with a goal path of unmarked edges.
    fn spread_clean(&self, flags: &mut [u8], rev: &[u32], pred: &[u32], is_marked: &[bool]) {
        let mut queue: VecDeque<u32> = self.goals.iter().copied().collect();
        for &g in &self.goals {
            flags[g as usize] |= Labels::CLEAN;
        }
        while let Some(j) = queue.pop_front() {
            for &i in &pred[rev[j as usize] as usize..rev[j as usize + 1] as usize] {
                if flags[i as usize] & Labels::CLEAN != 0 {
                    continue;
                }
                let a = self.offsets[i as usize] as usize;
                let b = self.offsets[i as usize + 1] as usize;
                let clean_edge = (a..b).any(|k| self.targets[k] == j && !is_marked[k]);
                if clean_edge {
                    flags[i as usize] |= Labels::CLEAN;
                    queue.push_back(i);
                }
            }
        }
    }

    /// Carries `bit` from every state holding it to all its predecessors.
    fn spread(&self, flags: &mut [u8], rev: &[u32], pred: &[u32], bit: u8) {
        let mut queue: VecDeque<u32> = (0..flags.len() as u32)
            .filter(|&i| flags[i as usize] & bit != 0)
            .collect();
        while let Some(j) = queue.pop_front() {
            for &i in &pred[rev[j as usize] as usize..rev[j as usize + 1] as usize] {
                if flags[i as usize] & bit == 0 {
                    flags[i as usize] |= bit;
                    queue.push_back(i);
                }
            }
        }
    }
}

/// What the backward pass found for each state of a map.
#[derive(Clone, Debug)]
pub struct Labels {
    flags: Vec<u8>,
}

impl Labels {
    const ALIVE: u8 = 1;
    const CLEAN: u8 = 2;
    const MARKED: u8 = 4;

    /// Some goal can be reached from state `i` (it is no dead end).
    pub fn can_win(&self, i: u32) -> bool {
        self.flags[i as usize] & Self::ALIVE != 0
    }

    /// A goal can be reached from `i` without a marked edge.
    pub fn can_win_clean(&self, i: u32) -> bool {
        self.flags[i as usize] & Self::CLEAN != 0
    }

    /// A goal can be reached from `i` by a path with a marked edge.
    pub fn can_win_marked(&self, i: u32) -> bool {
        self.flags[i as usize] & Self::MARKED != 0
    }

    /// `i` lies only on clean goal paths: it can win, and every way to win
    /// from it avoids marked edges.
    pub fn only_clean(&self, i: u32) -> bool {
        self.can_win(i) && !self.can_win_marked(i)
    }

    /// Reachable states from which no goal can be reached.
    pub fn dead_ends(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.flags.len() as u32).filter(|&i| !self.can_win(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// States 0..=5 on a line. From 0 you may go to 1 (plain) or 2
    /// (marked); 1 → 3 → 5 (goal); 2 → 5; 2 → 4, and 4 is a dead end.
    fn next(s: &u8, out: &mut Vec<(char, u8)>) {
        match s {
            0 => out.extend([('p', 1), ('m', 2)]),
            1 => out.push(('p', 3)),
            2 => out.extend([('p', 5), ('p', 4)]),
            3 => out.push(('p', 5)),
            _ => {}
        }
    }

    fn build() -> StateMap<u8, char> {
        distance_map(
            0u8,
            next,
            |s| *s == 5,
            &Budget::default(),
            &mut Progress::quiet(),
        )
        .unwrap_or_else(|_| panic!("small"))
    }

    #[test]
    fn keeps_moves_and_finds_states_by_value() {
        let m = build();
        assert_eq!(m.len(), 6);
        let i2 = m.index_of(&2).unwrap();
        let moves: Vec<(char, u8)> = m.edges_of(0).map(|(mv, j)| (*mv, *m.state(j))).collect();
        assert_eq!(moves, [('p', 1), ('m', 2)]);
        assert_eq!(m.distance(0), Some(2));
        assert_eq!(m.distance(i2), Some(1));
        assert_eq!(m.distance(m.index_of(&4).unwrap()), None);
        assert_eq!(m.dead_states(), 1);
        assert_eq!(m.histogram(), [1, 2, 2]);
        assert_eq!(m.index_of(&9), None);
    }

    #[test]
    fn labels_dead_ends_and_paths_by_kind() {
        let m = build();
        let l = m.label(|_, mv, _| *mv == 'm');
        let at = |s: u8| m.index_of(&s).unwrap();
        assert!(!l.can_win(at(4)));
        assert_eq!(l.dead_ends().map(|i| *m.state(i)).collect::<Vec<_>>(), [4]);
        // From 0: a clean path (via 1) and a marked one (via 2).
        assert!(l.can_win_clean(at(0)) && l.can_win_marked(at(0)));
        // From 1 every way to win is clean; 2 itself wins cleanly (2 → 5).
        assert!(l.only_clean(at(1)) && l.only_clean(at(2)));
        assert!(!l.only_clean(at(4)));
    }

    #[test]
    fn finds_paths_from_the_start_and_down_kept_edges() {
        let m = build();
        let fs = m.from_start();
        let at = |s: u8| m.index_of(&s).unwrap();
        assert_eq!(fs.dist[at(5) as usize], 2);
        let moves: String = m.path_from_start(&fs, at(4)).into_iter().collect();
        assert_eq!(moves, "mp");
        // Without marked edges the start is 3 moves from the goal (via 1).
        let clean = m.distances_using(|mv| *mv != 'm');
        assert_eq!(clean[0], 3);
        let down: String = m.descend(0, &clean, |mv| *mv != 'm').into_iter().collect();
        assert_eq!(down, "ppp");
        let any: String = m.descend(0, m.distances(), |_| true).into_iter().collect();
        assert_eq!(any, "mp");
    }

    #[test]
    fn counts_the_backward_tables_against_the_budget() {
        let tight = Budget {
            max_bytes: 200,
            max_states: u64::MAX,
            deadline: None,
        };
        let r = distance_map(0u8, next, |s| *s == 5, &tight, &mut Progress::quiet());
        assert!(r.is_err());
    }
}
