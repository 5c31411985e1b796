//! The knight's route through every target.
//!
//! The ideal answer is a Hamiltonian path: one move per target. When none
//! exists, the answer is the shortest covering walk, which lands on
//! already-visited cells as few times as possible. Both are the same
//! search: a depth-first search with a *waste budget* (how many landings on
//! visited cells it may spend), run for budget 0, 1, 2, … (iterative
//! deepening), so the first walk found is optimal.
//!
//! What keeps it fast on irregular boards:
//! - Warnsdorff ordering: try the target with the fewest onward targets first;
//! - admissible lower bounds on the waste still needed, each cutting a
//!   branch as soon as the budget cannot cover it:
//!   - colour parity: a knight alternates colours, so a surplus of one
//!     colour among the remaining targets costs wasted moves;
//!   - connectivity: each extra component of the remaining targets costs
//!     a wasted move to reach;
//!   - dead ends: a target with at most one remaining neighbour must be
//!     the first or the last, or cost a wasted move on the way in or out;
//! - a transposition table of failed `(cell, remaining targets)` states,
//!   keyed by 256-bit bitboards;
//! - a short walk found first by local search ([`super::walk`]), whose
//!   length bounds the search from above.

use rustc_hash::FxHashMap;

use super::board::{Board, cells_text};
use super::graph::Graph;
use super::walk::short_walk;
use crate::geom::Cell;
use crate::solve::Bits256;

/// The knight's route.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Plan {
    /// Cells the knight moves to, in order; the start is not included.
    pub squares: Vec<Cell>,
    pub moves: usize,
    /// One move per target, no cell visited twice.
    pub hamiltonian: bool,
    /// Proven to have the fewest moves.
    pub optimal: bool,
}

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum SolveError {
    #[error("{} target(s) can never be reached by the knight: {}", .0.len(), cells_text(.0))]
    Unreachable(Vec<Cell>),
}

/// How much work the solver may do before it settles for its best walk.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Search nodes across all budgets.
    pub max_nodes: u64,
    /// Entries in the table of failed states.
    pub max_memo: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_nodes: 2_000_000,
            max_memo: 2_000_000,
        }
    }
}

struct Search<'g> {
    g: &'g Graph,
    limits: Limits,
    /// Nodes across every attempt, against `limits.max_nodes`.
    nodes: u64,
    /// This attempt stops once `nodes` passes this.
    attempt_end: u64,
    aborted: bool,
    /// Tie-breaking noise for the current attempt (0: none).
    seed: u64,
    failed: FxHashMap<(u16, Bits256), u32>,
    path: Vec<usize>,
}

impl Search<'_> {
    /// A small hash of `(seed, n)` that reorders ties between restarts.
    fn noise(&self, n: usize) -> u32 {
        if self.seed == 0 {
            return 0;
        }
        let x = (self.seed ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xBF58_476D_1CE4_E5B9);
        (x >> 40) as u32
    }

    /// One attempt at `budget`, stopping after `cap` nodes. `Some(found)`
    /// when the attempt finished; `None` when it was cut short.
    fn attempt(&mut self, budget: u32, cap: u64, seed: u64) -> Option<bool> {
        self.aborted = false;
        self.seed = seed;
        self.attempt_end = self.nodes.saturating_add(cap).min(self.limits.max_nodes);
        self.path.clear();
        let found = self.dfs(self.g.start, self.g.targets, budget);
        (found || !self.aborted).then_some(found)
    }

    fn dfs(&mut self, pos: usize, rem: Bits256, budget: u32) -> bool {
        if rem.is_empty() {
            return true;
        }
        self.nodes += 1;
        if self.nodes > self.attempt_end {
            self.aborted = true;
            return false;
        }
        if self.g.lower_bound(pos, &rem) > budget {
            return false;
        }
        let key = (pos as u16, rem);
        if self.failed.get(&key).is_some_and(|&b| b >= budget) {
            return false;
        }
        let g = self.g;
        // Targets first, Warnsdorff order.
        let mut free: Vec<(u32, u32, usize)> = g.nbrs[pos]
            .iter()
            .map(|&n| usize::from(n))
            .filter(|&n| rem.contains(n))
            .map(|n| {
                (
                    g.nbr_set[n].and(&rem).len() as u32,
                    (u32::MAX - g.rim[n]) ^ self.noise(n),
                    n,
                )
            })
            .collect();
        free.sort_unstable();
        for (_, _, n) in free {
            self.path.push(n);
            if self.dfs(n, rem.without(n), budget) {
                return true;
            }
            self.path.pop();
            if self.aborted {
                return false;
            }
        }
        if budget > 0 {
            // Then wasted landings, nearest to many targets first.
            let mut waste: Vec<(u32, usize)> = g.nbrs[pos]
                .iter()
                .map(|&n| usize::from(n))
                .filter(|&n| !rem.contains(n))
                .map(|n| (u32::MAX - g.nbr_set[n].and(&rem).len() as u32, n))
                .collect();
            waste.sort_unstable();
            for (_, n) in waste {
                self.path.push(n);
                if self.dfs(n, rem, budget - 1) {
                    return true;
                }
                self.path.pop();
                if self.aborted {
                    return false;
                }
            }
        }
        if self.failed.len() < self.limits.max_memo {
            let e = self.failed.entry(key).or_insert(0);
            *e = (*e).max(budget);
        }
        false
    }
}

/// Statistics of a solve, for benchmarks and `--json`.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Stats {
    pub targets: usize,
    /// Search nodes visited.
    pub nodes: u64,
    /// The search hit its node limit; the plan is the best walk found.
    pub gave_up: bool,
    /// No walk has fewer moves than this (proven).
    pub min_moves: usize,
}

/// Refuses a board with targets the knight can never reach, naming them.
fn check_reachable(g: &Graph) -> Result<(), SolveError> {
    let reach = g.reachable(g.start);
    let unreachable: Vec<Cell> = g
        .targets
        .and_not(&reach)
        .iter()
        .map(|i| g.cells[i])
        .collect();
    if unreachable.is_empty() {
        Ok(())
    } else {
        Err(SolveError::Unreachable(unreachable))
    }
}

/// Finds the best route for the knight.
pub fn solve(board: &Board, limits: &Limits) -> Result<Plan, SolveError> {
    solve_with_stats(board, limits).map(|(p, _)| p)
}

/// [`solve`], also returning how much searching it took.
pub fn solve_with_stats(board: &Board, limits: &Limits) -> Result<(Plan, Stats), SolveError> {
    let g = Graph::new(board);
    check_reachable(&g)?;
    let r = g.targets.len();
    let to_plan = |walk: &[usize], optimal: bool| Plan {
        squares: walk.iter().map(|&i| g.cells[i]).collect(),
        moves: walk.len(),
        hamiltonian: walk.len() == r,
        optimal,
    };
    let mut search = Search {
        g: &g,
        limits: *limits,
        nodes: 0,
        attempt_end: 0,
        aborted: false,
        seed: 0,
        failed: FxHashMap::default(),
        path: Vec::new(),
    };
    // Iterative deepening on the waste budget: the first walk found is
    // optimal. The short walk, an upper bound, is only worth its cost
    // once the first budget has failed.
    //
    // Each budget is tried in attempts of doubling size that break ties
    // differently (restarts), because a search for a path that exists is
    // heavy-tailed: one early mistake can cost millions of nodes, while
    // another order finds the path at once. The table of failed states
    // holds only proven failures, so it carries over between attempts.
    let mut budget = g.lower_bound(g.start, &g.targets);
    let mut short: Option<Vec<usize>> = None;
    let mut gave_up = false;
    'budgets: loop {
        let mut cap = 4_096u64;
        let mut seed = 0;
        loop {
            match search.attempt(budget, cap, seed) {
                Some(true) => {
                    let stats = Stats {
                        targets: r,
                        nodes: search.nodes,
                        gave_up: false,
                        min_moves: r + budget as usize,
                    };
                    return Ok((to_plan(&search.path, true), stats));
                }
                Some(false) => break,
                None if search.nodes >= limits.max_nodes => {
                    gave_up = true;
                    break 'budgets;
                }
                None => {
                    cap = cap.saturating_mul(2);
                    seed += 1;
                }
            }
        }
        budget += 1;
        let walk = short.get_or_insert_with(|| short_walk(&g));
        if budget as usize >= walk.len() - r {
            break;
        }
    }
    let stats = Stats {
        targets: r,
        nodes: search.nodes,
        gave_up,
        min_moves: r + budget as usize,
    };
    let walk = short.unwrap_or_else(|| short_walk(&g));
    Ok((to_plan(&walk, !gave_up), stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::troyis::board::Square;
    use std::collections::{HashMap, VecDeque};

    /// Shortest covering walk by breadth-first search over every state.
    fn brute_force(board: &Board) -> Option<usize> {
        let g = Graph::new(board);
        let mut dist: HashMap<(usize, Bits256), usize> = HashMap::new();
        let start = (g.start, g.targets);
        dist.insert(start, 0);
        let mut queue = VecDeque::from([start]);
        while let Some((pos, rem)) = queue.pop_front() {
            let d = dist[&(pos, rem)];
            if rem.is_empty() {
                return Some(d);
            }
            for &n in &g.nbrs[pos] {
                let n = usize::from(n);
                let next = (n, rem.without(n));
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(next) {
                    e.insert(d + 1);
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// Replays a plan and checks it covers every target with legal moves.
    fn check_legal(board: &Board, plan: &Plan) {
        let mut b = board.clone();
        for &sq in &plan.squares {
            b.step(sq).unwrap_or_else(|e| panic!("{board}: {e}"));
        }
        assert!(b.is_solved(), "{board}: plan {plan:?} leaves targets");
        assert_eq!(plan.moves, plan.squares.len());
        let targets = board.targets().count();
        assert_eq!(plan.hamiltonian, plan.moves == targets);
    }

    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }
    }

    fn random_board(rng: &mut Lcg, n: usize, density: u64) -> Board {
        let mut rows: Vec<String> = (0..n)
            .map(|_| {
                (0..n)
                    .map(|_| if rng.next() % 100 < density { 'W' } else { '.' })
                    .collect()
            })
            .collect();
        let kr = (rng.next() as usize) % n;
        let kc = (rng.next() as usize) % n;
        rows[kr].replace_range(kc..kc + 1, "K");
        Board::parse(&rows.join("/")).unwrap()
    }

    #[test]
    fn shared_style_boards_have_hamiltonian_paths() {
        let b = Board::parse("KW.W/.WW./W.W./W...").unwrap();
        let p = solve(&b, &Limits::default()).unwrap();
        check_legal(&b, &p);
        assert!(p.hamiltonian && p.optimal);
        assert_eq!(p.moves, 7);
    }

    #[test]
    fn matches_brute_force_on_small_random_boards() {
        let mut rng = Lcg(7);
        let mut checked = 0;
        for i in 0..400 {
            let n = 3 + i % 3;
            let b = random_board(&mut rng, n, 55);
            if b.targets().count() > 13 {
                continue;
            }
            let expect = brute_force(&b);
            match solve(&b, &Limits::default()) {
                Ok(p) => {
                    check_legal(&b, &p);
                    assert!(p.optimal, "{b}");
                    assert_eq!(Some(p.moves), expect, "{b}: {p:?}");
                    checked += 1;
                }
                Err(SolveError::Unreachable(cells)) => {
                    assert!(expect.is_none(), "{b}: said unreachable {cells:?}");
                    for c in cells {
                        assert_eq!(b.get(c), Square::Target);
                    }
                }
            }
        }
        assert!(checked > 60, "only {checked} boards were solvable");
    }

    #[test]
    fn falls_back_to_a_covering_walk() {
        // A chain of knight moves with the knight in the middle: it must go
        // to one end and come back through its own start.
        let b = Board::parse("W....../..K..../....W../......W").unwrap();
        let p = solve(&b, &Limits::default()).unwrap();
        check_legal(&b, &p);
        assert!(!p.hamiltonian && p.optimal);
        assert_eq!(p.squares, vec![(0, 0), (1, 2), (2, 4), (3, 6)]);
        // Random boards exercise the fallback against brute force too.
        let mut rng = Lcg(3);
        let mut fallbacks = 0;
        for _ in 0..300 {
            let b = random_board(&mut rng, 4, 50);
            if let Ok(p) = solve(&b, &Limits::default()) {
                check_legal(&b, &p);
                assert_eq!(Some(p.moves), brute_force(&b), "{b}");
                fallbacks += usize::from(!p.hamiltonian);
            }
        }
        assert!(
            fallbacks > 10,
            "only {fallbacks} boards needed a covering walk"
        );
    }

    #[test]
    fn names_unreachable_targets() {
        let b = Board::parse("KW.../..W../...../....W/.W...").unwrap();
        let Err(SolveError::Unreachable(cells)) = solve(&b, &Limits::default()) else {
            panic!("expected unreachable targets");
        };
        assert!(cells.contains(&(0, 1)));
    }

    #[test]
    fn full_boards_have_tours() {
        for n in [5, 6, 8, 10, 12] {
            let mut rows = vec!["W".repeat(n); n];
            rows[0].replace_range(0..1, "K");
            let b = Board::parse(&rows.join("/")).unwrap();
            let p = solve(&b, &Limits::default()).unwrap();
            check_legal(&b, &p);
            assert!(p.hamiltonian && p.optimal, "{n}×{n}");
        }
    }

    #[test]
    fn gives_up_gracefully_within_limits() {
        let mut rng = Lcg(99);
        let b = random_board(&mut rng, 12, 70);
        let tiny = Limits {
            max_nodes: 10,
            max_memo: 10,
        };
        if let Ok(p) = solve(&b, &tiny) {
            check_legal(&b, &p);
        }
    }
}
