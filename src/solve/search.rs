//! Breadth-first search and A* over any puzzle (IDA* and bidirectional
//! search are in their own modules), given as closures in the style of the `pathfinding` crate: a successor
//! function that pushes `(move, state)` pairs, a goal test and, for the
//! informed searches, a heuristic. Every move costs 1.
//!
//! Each search respects a [`Budget`] and reports [`Stats`]; when the
//! memory budget runs out it stops with [`Found::OverBudget`], saying how
//! deep it had proven there is no solution, so a caller can go on with a
//! memory-bounded search (IDA*) from there.

use std::hash::Hash;
use std::time::Instant;

use rustc_hash::FxHashSet;
use serde::Serialize;

use super::progress::Progress;
use super::store::Store;

/// Limits shared by every search.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Bytes the search's tables may hold.
    pub max_bytes: u64,
    /// States it may visit (IDA* counts every visit).
    pub max_states: u64,
    /// When the search must stop, for searches that keep a player waiting
    /// (only the sliding-blocks search heeds it).
    pub deadline: Option<Instant>,
}

impl Budget {
    /// The default budget, with `max` bytes when given. The budget is for
    /// the whole process: what it already holds (the program, its
    /// libraries, the parsed input) is taken off the tables' share, so
    /// `--max-memory 64M` keeps the peak resident size near 64 MiB. A
    /// budget smaller than that share cannot be kept; the tables then get
    /// the smaller of the budget and what is held, so they never shrink to
    /// nothing.
    pub fn with_memory(max: Option<super::Bytes>) -> Budget {
        let total = max.map_or(Budget::default().max_bytes, |b| b.0);
        let held = super::memory::current_rss().unwrap_or(0);
        Budget {
            max_bytes: total.saturating_sub(held).max(total.min(held)),
            ..Budget::default()
        }
    }

    /// States a table can index (`u32` indices, with room for one more
    /// expansion), whatever the budget says.
    pub(crate) fn state_cap(&self) -> u64 {
        self.max_states.min(u64::from(u32::MAX) - (1 << 20))
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_bytes: 2 << 30,
            max_states: u64::MAX,
            deadline: None,
        }
    }
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Stats {
    /// States stored (or, for IDA*, visited).
    pub states: u64,
    pub peak_bytes: u64,
    pub ms: f64,
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Found<M> {
    /// The moves of a shortest solution.
    Path(Vec<M>),
    /// Every reachable state was seen: there is no solution.
    Exhausted,
    /// Out of budget. No solution is shorter than `proven` moves.
    OverBudget { proven: u32 },
}

/// Milliseconds since `t`, to 0.01 ms.
pub(crate) fn elapsed_ms(t: Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 100_000.0).round() / 100.0
}

fn finish(stats: &mut Stats, t: Instant) {
    stats.ms = elapsed_ms(t);
}

/// Walks parent links back from `end` to the root.
pub(crate) fn trace_back<M: Clone>(parents: &[(u32, Option<M>)], mut end: u32) -> Vec<M> {
    let mut moves = Vec::new();
    while let (p, Some(m)) = &parents[end as usize] {
        moves.push(m.clone());
        end = *p;
    }
    moves.reverse();
    moves
}

/// Breadth-first search from `start`: the first goal found is nearest.
pub fn bfs<S, M, N, G>(
    start: S,
    mut next: N,
    mut goal: G,
    budget: &Budget,
    progress: &mut Progress,
) -> (Found<M>, Stats)
where
    S: Hash + Eq + Clone,
    M: Clone,
    N: FnMut(&S, &mut Vec<(M, S)>),
    G: FnMut(&S) -> bool,
{
    let t = Instant::now();
    let mut stats = Stats::default();
    if goal(&start) {
        finish(&mut stats, t);
        return (Found::Path(Vec::new()), stats);
    }
    let mut store = Store::default();
    store.insert(start);
    let mut parents: Vec<(u32, Option<M>)> = vec![(0, None)];
    let mut depth_end = 1usize; // index where the current depth ends
    let mut depth = 0u32;
    let mut buf = Vec::new();
    let mut head = 0usize;
    while head < store.len() {
        if head == depth_end {
            depth += 1;
            depth_end = store.len();
        }
        let s = store.state(head as u32).clone();
        buf.clear();
        next(&s, &mut buf);
        for (m, n) in buf.drain(..) {
            let (i, new) = store.insert(n);
            if !new {
                continue;
            }
            parents.push((head as u32, Some(m)));
            if goal(store.state(i)) {
                stats.states = store.len() as u64;
                stats.peak_bytes = store.bytes()
                    + (parents.capacity() * std::mem::size_of::<(u32, Option<M>)>()) as u64;
                finish(&mut stats, t);
                return (Found::Path(trace_back(&parents, i)), stats);
            }
        }
        head += 1;
        let bytes =
            store.bytes() + (parents.capacity() * std::mem::size_of::<(u32, Option<M>)>()) as u64;
        stats.peak_bytes = stats.peak_bytes.max(bytes);
        progress.update("breadth-first", store.len() as u64, depth);
        if bytes + store.growth_bytes(super::store::GROWTH_SLACK) > budget.max_bytes
            || store.len() as u64 > budget.state_cap()
        {
            stats.states = store.len() as u64;
            finish(&mut stats, t);
            return (Found::OverBudget { proven: depth + 1 }, stats);
        }
    }
    stats.states = store.len() as u64;
    finish(&mut stats, t);
    (Found::Exhausted, stats)
}

/// The length of a shortest solution, by breadth-first search, keeping
/// only the set of seen states (no paths): the fastest way to count.
pub fn bfs_length<S, N, G>(start: S, mut next: N, mut goal: G) -> Option<u32>
where
    S: Hash + Eq + Clone,
    N: FnMut(&S, &mut Vec<S>),
    G: FnMut(&S) -> bool,
{
    if goal(&start) {
        return Some(0);
    }
    let mut seen: FxHashSet<S> = FxHashSet::default();
    seen.insert(start.clone());
    let mut frontier = vec![start];
    let mut buf = Vec::new();
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let mut nextf = Vec::new();
        for s in &frontier {
            buf.clear();
            next(s, &mut buf);
            for n in buf.drain(..) {
                if seen.insert(n.clone()) {
                    if goal(&n) {
                        return Some(depth);
                    }
                    nextf.push(n);
                }
            }
        }
        frontier = nextf;
    }
    None
}

/// A*'s open and closed sets: the states, each one's parent link, g and
/// whether it was expanded, and a bucket of `(state, g)` entries per f.
/// An entry whose g is no longer its state's is stale (a shorter way was
/// found since) and is skipped.
struct Open<S, M> {
    store: Store<S>,
    parents: Vec<(u32, Option<M>)>,
    g: Vec<u32>,
    closed: Vec<bool>,
    buckets: Vec<Vec<(u32, u32)>>,
    /// Bytes the buckets hold, kept as they grow (entries are popped, but
    /// a bucket's room is kept).
    bucket_bytes: u64,
    f: usize,
}

impl<S: Hash + Eq, M> Open<S, M> {
    fn new(start: S, h0: u32) -> Self {
        let mut store = Store::default();
        store.insert(start);
        let mut buckets = vec![Vec::new(); h0 as usize + 1];
        buckets[h0 as usize].push((0, 0));
        Open {
            store,
            parents: vec![(0, None)],
            g: vec![0],
            closed: vec![false],
            buckets,
            bucket_bytes: 0,
            f: h0 as usize,
        }
    }

    /// The next state to expand, lowest f first, and marks it closed.
    #[inline]
    fn pop(&mut self) -> Option<u32> {
        loop {
            while self.f < self.buckets.len() && self.buckets[self.f].is_empty() {
                self.f += 1;
            }
            let (i, pushed_g) = self.buckets.get_mut(self.f)?.pop()?;
            if !self.closed[i as usize] && pushed_g == self.g[i as usize] {
                self.closed[i as usize] = true;
                return Some(i);
            }
        }
    }

    /// Offers `n`, reached from `i` by `m`, `hn` from a goal.
    #[inline]
    fn relax(&mut self, i: u32, m: M, n: S, hn: u32) {
        let gn = self.g[i as usize] + 1;
        let (j, new) = self.store.insert(n);
        let ju = j as usize;
        if new {
            self.parents.push((i, Some(m)));
            self.g.push(gn);
            self.closed.push(false);
        } else if self.closed[ju] || self.g[ju] <= gn {
            return;
        } else {
            self.parents[ju] = (i, Some(m));
            self.g[ju] = gn;
        }
        let fj = (gn + hn) as usize;
        if fj >= self.buckets.len() {
            self.buckets.resize(fj + 1, Vec::new());
        }
        // Only an inconsistent heuristic lands below the current f; go
        // back for it rather than lose it.
        debug_assert!(fj >= self.f, "the heuristic is not consistent");
        self.f = self.f.min(fj);
        let bucket = &mut self.buckets[fj];
        let before = bucket.capacity();
        bucket.push((j, gn));
        self.bucket_bytes +=
            ((bucket.capacity() - before) * std::mem::size_of::<(u32, u32)>()) as u64;
    }

    /// Bytes held: the states and the room of their parent links, g and
    /// closed flags, the buckets, and the store's next growth (its old and
    /// new tables are held at once while it grows).
    fn bytes(&self) -> u64 {
        let links = self.parents.capacity() * std::mem::size_of::<(u32, Option<M>)>()
            + self.g.capacity() * 4
            + self.closed.capacity();
        self.store.bytes()
            + self.store.growth_bytes(super::store::GROWTH_SLACK)
            + links as u64
            + self.bucket_bytes
    }
}

/// A* with unit move costs and a consistent heuristic (it never drops by
/// more than 1 over a move, and is 0 at goals), so the first goal taken
/// from the queue is optimal. The queue is a bucket per f value.
pub fn astar<S, M, N, H, G>(
    start: S,
    mut next: N,
    mut h: H,
    mut goal: G,
    budget: &Budget,
    progress: &mut Progress,
) -> (Found<M>, Stats)
where
    S: Hash + Eq + Clone,
    M: Clone,
    N: FnMut(&S, &mut Vec<(M, S)>),
    H: FnMut(&S) -> u32,
    G: FnMut(&S) -> bool,
{
    let t = Instant::now();
    let mut stats = Stats::default();
    let h0 = h(&start);
    if h0 == u32::MAX {
        // The start itself is dead.
        finish(&mut stats, t);
        return (Found::Exhausted, stats);
    }
    let mut open = Open::new(start, h0);
    let mut buf = Vec::new();
    let found = loop {
        let Some(i) = open.pop() else {
            break Found::Exhausted;
        };
        let s = open.store.state(i).clone();
        if goal(&s) {
            break Found::Path(trace_back(&open.parents, i));
        }
        buf.clear();
        next(&s, &mut buf);
        for (m, n) in buf.drain(..) {
            let hn = h(&n);
            if hn != u32::MAX {
                open.relax(i, m, n, hn);
            }
        }
        let bytes = open.bytes();
        stats.peak_bytes = stats.peak_bytes.max(bytes);
        progress.update("A*", open.store.len() as u64, open.f as u32);
        if bytes > budget.max_bytes || open.store.len() as u64 > budget.state_cap() {
            break Found::OverBudget {
                proven: open.f as u32,
            };
        }
    };
    stats.states = open.store.len() as u64;
    finish(&mut stats, t);
    (found, stats)
}
