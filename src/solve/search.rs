//! Breadth-first search, A*, IDA* and bidirectional BFS over any puzzle,
//! given as closures in the style of the `pathfinding` crate: a successor
//! function that pushes `(move, state)` pairs, a goal test and, for the
//! informed searches, a heuristic. Every move costs 1.
//!
//! Each search respects a [`Budget`] and reports [`Stats`]; when the
//! memory budget runs out it stops with [`Found::OverBudget`], saying how
//! deep it had proven there is no solution, so a caller can go on with a
//! memory-bounded search (IDA*) from there.

use std::hash::Hash;
use std::time::Instant;

use rustc_hash::{FxHashMap, FxHashSet};
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
}

impl Budget {
    /// The default budget, with `max` bytes when given. The budget is for
    /// the whole process: what it already holds (the program, its
    /// libraries, the parsed input) is taken off the tables' share, so
    /// `--max-memory 64M` keeps the peak resident size near 64 MiB.
    pub fn with_memory(max: Option<super::Bytes>) -> Budget {
        let total = max.map_or(Budget::default().max_bytes, |b| b.0);
        let held = super::memory::current_rss().unwrap_or(0);
        Budget {
            max_bytes: total.saturating_sub(held).max(total / 8),
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
        if bytes > budget.max_bytes || store.len() as u64 > budget.state_cap() {
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
    let mut store = Store::default();
    let h0 = h(&start);
    if h0 == u32::MAX {
        // The start itself is dead.
        finish(&mut stats, t);
        return (Found::Exhausted, stats);
    }
    store.insert(start);
    // Per state: parent and move, g, and whether it was expanded.
    let mut parents: Vec<(u32, Option<M>)> = vec![(0, None)];
    let mut g: Vec<u32> = vec![0];
    let mut closed: Vec<bool> = vec![false];
    // Bucket entries carry the g they were pushed with; an entry whose g
    // is no longer the state's is stale (a shorter way was found since).
    let mut buckets: Vec<Vec<(u32, u32)>> = vec![Vec::new(); h0 as usize + 1];
    buckets[h0 as usize].push((0, 0));
    let mut f = h0 as usize;
    let mut buf = Vec::new();
    // Parent link, g, closed flag, and about one bucket entry.
    let per_state = (std::mem::size_of::<(u32, Option<M>)>() + 4 + 1 + 8) as u64;
    loop {
        while f < buckets.len() && buckets[f].is_empty() {
            f += 1;
        }
        if f >= buckets.len() {
            break;
        }
        let Some((i, pushed_g)) = buckets[f].pop() else {
            continue;
        };
        let gi = g[i as usize];
        if closed[i as usize] || pushed_g != gi {
            continue;
        }
        let s = store.state(i).clone();
        if goal(&s) {
            stats.states = store.len() as u64;
            finish(&mut stats, t);
            return (Found::Path(trace_back(&parents, i)), stats);
        }
        closed[i as usize] = true;
        buf.clear();
        next(&s, &mut buf);
        for (m, n) in buf.drain(..) {
            let hn = h(&n);
            if hn == u32::MAX {
                continue; // a dead state
            }
            let (j, new) = store.insert(n);
            let j = j as usize;
            if new {
                parents.push((i, Some(m)));
                g.push(gi + 1);
                closed.push(false);
            } else if closed[j] || g[j] <= gi + 1 {
                continue;
            } else {
                parents[j] = (i, Some(m));
                g[j] = gi + 1;
            }
            let fj = (gi + 1 + hn) as usize;
            if fj >= buckets.len() {
                buckets.resize(fj + 1, Vec::new());
            }
            // Only an inconsistent heuristic lands below the current f;
            // go back for it rather than lose it.
            debug_assert!(fj >= f, "the heuristic is not consistent");
            f = f.min(fj);
            buckets[fj].push((j as u32, gi + 1));
        }
        let bytes = store.bytes() + store.len() as u64 * per_state;
        stats.peak_bytes = stats.peak_bytes.max(bytes);
        progress.update("A*", store.len() as u64, f as u32);
        if bytes > budget.max_bytes || store.len() as u64 > budget.state_cap() {
            stats.states = store.len() as u64;
            finish(&mut stats, t);
            return (Found::OverBudget { proven: f as u32 }, stats);
        }
    }
    stats.states = store.len() as u64;
    finish(&mut stats, t);
    (Found::Exhausted, stats)
}

/// IDA*: depth-first searches with a growing bound on g + h, starting at
/// `from` (a bound already proven, for instance by an A* that ran out of
/// memory). Memory stays small: the current path, plus a table of states
/// seen in this iteration (with their g) capped at `budget.max_bytes`,
/// which cuts repeated paths. `budget.max_states` caps visits.
pub fn idastar<S, M, N, H, G>(
    start: S,
    mut next: N,
    mut h: H,
    mut goal: G,
    from: u32,
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
    struct Ctx<'a, S, M, N, H, G> {
        next: &'a mut N,
        h: &'a mut H,
        goal: &'a mut G,
        seen: FxHashMap<S, u32>,
        cap: usize,
        path: Vec<M>,
        visits: u64,
        max_visits: u64,
        out_of_visits: bool,
        progress: &'a mut Progress,
        bound: u32,
        _s: std::marker::PhantomData<S>,
    }
    /// Returns the smallest f above the bound met, or `None` when found.
    fn dfs<S, M, N, H, G>(c: &mut Ctx<'_, S, M, N, H, G>, s: &S, g: u32) -> Option<u32>
    where
        S: Hash + Eq + Clone,
        M: Clone,
        N: FnMut(&S, &mut Vec<(M, S)>),
        H: FnMut(&S) -> u32,
        G: FnMut(&S) -> bool,
    {
        let hs = (c.h)(s);
        if hs == u32::MAX {
            return Some(u32::MAX);
        }
        let f = g + hs;
        if f > c.bound {
            return Some(f);
        }
        if (c.goal)(s) {
            return None;
        }
        c.visits += 1;
        c.progress.update("IDA*", c.visits, c.bound);
        if c.visits >= c.max_visits {
            c.out_of_visits = true;
            return Some(u32::MAX);
        }
        match c.seen.get(s) {
            Some(&g0) if g0 <= g => return Some(u32::MAX),
            _ => {
                if c.seen.len() < c.cap || c.seen.contains_key(s) {
                    c.seen.insert(s.clone(), g);
                }
            }
        }
        let mut buf = Vec::new();
        (c.next)(s, &mut buf);
        let mut least = u32::MAX;
        for (m, n) in buf {
            c.path.push(m);
            match dfs(c, &n, g + 1) {
                None => return None,
                Some(t) => least = least.min(t),
            }
            c.path.pop();
            if c.out_of_visits {
                return Some(u32::MAX);
            }
        }
        Some(least)
    }

    let t = Instant::now();
    let entry = std::mem::size_of::<S>() + 4;
    let cap = (budget.max_bytes / (super::memory::hash_map_bytes(1, entry).max(1) + entry as u64))
        .max(1024) as usize;
    let mut c = Ctx {
        next: &mut next,
        h: &mut h,
        goal: &mut goal,
        seen: FxHashMap::default(),
        cap,
        path: Vec::new(),
        visits: 0,
        max_visits: budget.max_states,
        out_of_visits: false,
        progress,
        bound: from,
        _s: std::marker::PhantomData,
    };
    let mut stats = Stats::default();
    loop {
        c.seen.clear();
        let r = dfs(&mut c, &start, 0);
        stats.peak_bytes = stats
            .peak_bytes
            .max(super::memory::hash_map_bytes(c.seen.capacity(), entry));
        stats.states = c.visits;
        match r {
            None => {
                finish(&mut stats, t);
                return (Found::Path(std::mem::take(&mut c.path)), stats);
            }
            Some(_) if c.out_of_visits => {
                finish(&mut stats, t);
                return (Found::OverBudget { proven: c.bound }, stats);
            }
            Some(u32::MAX) => {
                finish(&mut stats, t);
                return (Found::Exhausted, stats);
            }
            Some(b) => c.bound = b,
        }
    }
}

/// Bidirectional breadth-first search between `start` and a set of goal
/// states, for puzzles whose moves can be walked backwards: `prev` pushes
/// `(move, earlier state)` pairs such that the move takes the earlier state
/// to the given one. It grows the smaller frontier a whole layer at a time.
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
    // Each side maps a state to (parent state, move) links.
    let mut fwd: FxHashMap<S, Option<(S, M)>> = FxHashMap::default();
    let mut bwd: FxHashMap<S, Option<(S, M)>> = FxHashMap::default();
    fwd.insert(start.clone(), None);
    for g in &goals {
        bwd.insert(g.clone(), None);
    }
    let join =
        |meet: &S, fwd: &FxHashMap<S, Option<(S, M)>>, bwd: &FxHashMap<S, Option<(S, M)>>| {
            let mut head = Vec::new();
            let mut s = meet.clone();
            while let Some(Some((p, m))) = fwd.get(&s) {
                head.push(m.clone());
                s = p.clone();
            }
            head.reverse();
            let mut s = meet.clone();
            while let Some(Some((n, m))) = bwd.get(&s) {
                head.push(m.clone());
                s = n.clone();
            }
            head
        };
    if let Some(m) = fwd.keys().find(|s| bwd.contains_key(*s)) {
        let path = join(m, &fwd, &bwd);
        finish(&mut stats, t);
        return (Found::Path(path), stats);
    }
    let mut ff = vec![start];
    let mut bf = goals;
    let mut depth = 0u32;
    let mut buf = Vec::new();
    let entry = std::mem::size_of::<S>() * 2 + std::mem::size_of::<M>() + 8;
    while !ff.is_empty() && !bf.is_empty() {
        depth += 1;
        let forward = ff.len() <= bf.len();
        let (frontier, mine, theirs) = if forward {
            (&mut ff, &mut fwd, &bwd)
        } else {
            (&mut bf, &mut bwd, &fwd)
        };
        let mut grown = Vec::new();
        let mut meet = None;
        for s in frontier.iter() {
            buf.clear();
            if forward {
                next(s, &mut buf)
            } else {
                prev(s, &mut buf)
            }
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
        *frontier = grown;
        let bytes = super::memory::hash_map_bytes(fwd.capacity() + bwd.capacity(), entry);
        stats.peak_bytes = stats.peak_bytes.max(bytes);
        stats.states = (fwd.len() + bwd.len()) as u64;
        if let Some(m) = meet {
            let path = join(&m, &fwd, &bwd);
            finish(&mut stats, t);
            return (Found::Path(path), stats);
        }
        if bytes > budget.max_bytes || stats.states > budget.max_states {
            finish(&mut stats, t);
            return (Found::OverBudget { proven: depth }, stats);
        }
    }
    finish(&mut stats, t);
    (Found::Exhausted, stats)
}
