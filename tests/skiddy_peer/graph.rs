//! The test's own verifier: every position reachable from the start under
//! [`super::play`], wins carried backwards, and the star rating of issue 9
//! from that graph alone.
//!
//! Whether play goes on after a win is a parameter: `boardbot verify`
//! lets ice cubes slide on in a won position (so those positions count as
//! states and goal states), while the "Win" reads as the end of a
//! level. It changes only the state, edge and goal counts of levels with
//! ice, never a rating or a length.

use std::collections::{HashMap, VecDeque};

use super::{DIRS, Level, Pos, play};

/// The figures `boardbot verify` reports, found independently.
#[derive(Debug, PartialEq, Eq)]
pub struct Verdict {
    pub stars: u8,
    pub states: usize,
    pub edges: usize,
    pub goal_states: usize,
    pub dead_ends: usize,
    /// The fewest moves into a dead end.
    pub dead_end_depth: Option<usize>,
    pub shortest: Option<usize>,
    pub shortest_combo: Option<usize>,
    pub shortest_non_combo: Option<usize>,
}

/// A move `from → to`; `breaking` when some colour has skiddies leaving
/// on it but not all of them (so no combo solution takes it).
struct Edge {
    from: usize,
    to: usize,
    breaking: bool,
}

/// The reachable state graph.
pub struct Graph {
    pub states: Vec<Pos>,
    index: HashMap<Pos, usize>,
    edges: Vec<Edge>,
    from_start: Vec<usize>,
    to_win: Vec<Option<usize>>,
}

impl Graph {
    /// Builds every position reachable from the level's start; a won
    /// position is expanded only when `play_on_after_win`.
    pub fn build(level: &Level, play_on_after_win: bool) -> Graph {
        let mut g = Graph {
            states: vec![level.start.clone()],
            index: HashMap::from([(level.start.clone(), 0)]),
            edges: Vec::new(),
            from_start: vec![0],
            to_win: Vec::new(),
        };
        let mut queue = VecDeque::from([0]);
        while let Some(u) = queue.pop_front() {
            let pos = g.states[u].clone();
            if pos.skiddies.is_empty() && !play_on_after_win {
                continue;
            }
            let count = pos.per_colour();
            for (dir, _, _) in DIRS {
                let Some(out) = play(level, &pos, dir) else {
                    continue;
                };
                let breaking = (0..4).any(|c| out.left[c] > 0 && out.left[c] < count[c]);
                let to = match g.index.get(&out.pos) {
                    Some(&v) => v,
                    None => {
                        let v = g.states.len();
                        g.index.insert(out.pos.clone(), v);
                        g.states.push(out.pos);
                        g.from_start.push(g.from_start[u] + 1);
                        queue.push_back(v);
                        v
                    }
                };
                g.edges.push(Edge {
                    from: u,
                    to,
                    breaking,
                });
            }
        }
        g.to_win = g.backwards(|_| true);
        g
    }

    /// Distances to a win, over the edges `keep` allows, by a pass back
    /// from every won position.
    fn backwards(&self, keep: impl Fn(&Edge) -> bool) -> Vec<Option<usize>> {
        let mut into: Vec<Vec<usize>> = vec![Vec::new(); self.states.len()];
        for e in self.edges.iter().filter(|e| keep(e)) {
            into[e.to].push(e.from);
        }
        let mut dist = vec![None; self.states.len()];
        let mut queue = VecDeque::new();
        for (i, s) in self.states.iter().enumerate() {
            if s.skiddies.is_empty() {
                dist[i] = Some(0);
                queue.push_back(i);
            }
        }
        while let Some(v) = queue.pop_front() {
            let d = dist[v].map(|d: usize| d + 1);
            for &u in &into[v] {
                if dist[u].is_none() {
                    dist[u] = d;
                    queue.push_back(u);
                }
            }
        }
        dist
    }

    /// Whether `pos` is reachable and a win can be reached from it.
    pub fn winnable(&self, pos: &Pos) -> Option<bool> {
        self.index.get(pos).map(|&i| self.to_win[i].is_some())
    }

    /// The figures of `boardbot verify`, and the star rating.
    pub fn verdict(&self) -> Verdict {
        let dead: Vec<usize> = (0..self.states.len())
            .filter(|&i| self.to_win[i].is_none())
            .collect();
        let shortest = self.to_win[0];
        let shortest_combo = self.backwards(|e| !e.breaking)[0];
        let shortest_non_combo = self
            .edges
            .iter()
            .filter(|e| e.breaking)
            .filter_map(|e| Some(self.from_start[e.from] + 1 + self.to_win[e.to]?))
            .min();
        let mut stars = 0;
        if shortest.is_some() && dead.is_empty() {
            stars = 1;
            if let (Some(c), Some(n)) = (shortest_combo, shortest_non_combo) {
                stars = if n < c { 2 } else { 3 };
            }
        }
        Verdict {
            stars,
            states: self.states.len(),
            edges: self.edges.len(),
            goal_states: self.states.iter().filter(|s| s.skiddies.is_empty()).count(),
            dead_ends: dead.len(),
            dead_end_depth: dead.iter().map(|&i| self.from_start[i]).min(),
            shortest,
            shortest_combo,
            shortest_non_combo,
        }
    }
}
