//! IDA*: depth-first searches with a growing bound on g + h. It needs
//! almost no memory (the current path, and a capped table of states seen
//! in the current iteration, which cuts repeated paths), so it is the
//! fallback when A* outgrows its budget.

use std::hash::Hash;
use std::time::Instant;

use rustc_hash::FxHashMap;

use super::progress::Progress;
use super::search::{Budget, Found, Stats, elapsed_ms};

/// The state of one IDA* run.
struct Ida<'a, S, M, N, H, G> {
    next: N,
    h: H,
    goal: G,
    /// States seen in this iteration, with the g they were seen at.
    seen: FxHashMap<S, u32>,
    cap: usize,
    path: Vec<M>,
    visits: u64,
    max_visits: u64,
    out_of_visits: bool,
    progress: &'a mut Progress,
    bound: u32,
}

/// What a visit to a state found.
enum Visit {
    /// A goal: the path is complete.
    Goal,
    /// Not here: the smallest f above the bound met below this state
    /// (`u32::MAX` when nothing lies below it).
    Beyond(u32),
    /// Expand it.
    Expand,
}

impl<S, M, N, H, G> Ida<'_, S, M, N, H, G>
where
    S: Hash + Eq + Clone,
    N: FnMut(&S, &mut Vec<(M, S)>),
    H: FnMut(&S) -> u32,
    G: FnMut(&S) -> bool,
{
    /// Decides whether `s`, at depth `g`, is a goal, beyond the bound, a
    /// repeat, or to be expanded; counts the visit.
    fn visit(&mut self, s: &S, g: u32) -> Visit {
        let hs = (self.h)(s);
        if hs == u32::MAX {
            return Visit::Beyond(u32::MAX);
        }
        let f = g + hs;
        if f > self.bound {
            return Visit::Beyond(f);
        }
        if (self.goal)(s) {
            return Visit::Goal;
        }
        self.visits += 1;
        self.progress.update("IDA*", self.visits, self.bound);
        if self.visits >= self.max_visits {
            self.out_of_visits = true;
            return Visit::Beyond(u32::MAX);
        }
        match self.seen.get(s) {
            Some(&g0) if g0 <= g => return Visit::Beyond(u32::MAX),
            Some(_) => {
                self.seen.insert(s.clone(), g);
            }
            None if self.seen.len() < self.cap => {
                self.seen.insert(s.clone(), g);
            }
            None => {}
        }
        Visit::Expand
    }

    /// Searches below `s`; `None` when a goal was found (the moves are in
    /// `path`), else the smallest f above the bound met.
    fn dfs(&mut self, s: &S, g: u32) -> Option<u32> {
        match self.visit(s, g) {
            Visit::Goal => return None,
            Visit::Beyond(f) => return Some(f),
            Visit::Expand => {}
        }
        let mut buf = Vec::new();
        (self.next)(s, &mut buf);
        let mut least = u32::MAX;
        for (m, n) in buf {
            self.path.push(m);
            least = least.min(self.dfs(&n, g + 1)?);
            self.path.pop();
            if self.out_of_visits {
                return Some(u32::MAX);
            }
        }
        Some(least)
    }
}

/// IDA* from `start`, with the bound starting at `from` (a bound already
/// proven, for instance by an A* that ran out of memory). The table of
/// seen states is capped at `budget.max_bytes`; `budget.max_states` caps
/// visits.
pub fn idastar<S, M, N, H, G>(
    start: S,
    next: N,
    h: H,
    goal: G,
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
    let t = Instant::now();
    let entry = std::mem::size_of::<S>() + 4;
    let cap = (budget.max_bytes / (super::memory::hash_map_bytes(1, entry).max(1) + entry as u64))
        .max(1024) as usize;
    let mut ida = Ida {
        next,
        h,
        goal,
        seen: FxHashMap::default(),
        cap,
        path: Vec::new(),
        visits: 0,
        max_visits: budget.max_states,
        out_of_visits: false,
        progress,
        bound: from,
    };
    let mut stats = Stats::default();
    let found = loop {
        ida.seen.clear();
        let r = ida.dfs(&start, 0);
        stats.peak_bytes = stats
            .peak_bytes
            .max(super::memory::hash_map_bytes(ida.seen.capacity(), entry));
        match r {
            None => break Found::Path(std::mem::take(&mut ida.path)),
            Some(_) if ida.out_of_visits => break Found::OverBudget { proven: ida.bound },
            Some(u32::MAX) => break Found::Exhausted,
            Some(b) => ida.bound = b,
        }
    };
    stats.states = ida.visits;
    stats.ms = elapsed_ms(t);
    (found, stats)
}
