//! Optimal B.i.t.Lock solutions.
//!
//! A* over packed layouts with an admissible, consistent bound, the larger
//! of two:
//! - distance: every move shifts a tile by at most one cell, so a solution
//!   needs at least as many moves as the farthest target is from its
//!   nearest tile of the right type, around walls (and, under `exact`, as
//!   the farthest tile is from a target of its type or from a way to be
//!   destroyed);
//! - direction: a tile gets k cells to the right only by k moves that push
//!   it right (R for a normal tile, L for a reverse one), and each move has
//!   one direction, so the moves needed in each of the four directions add
//!   up.
//!
//! The distance tables also prune dead layouts at once: too few tiles of a
//! type left for its targets, a target no tile can reach, and (under
//! `exact`) a tile that can neither reach a target nor be destroyed.
//!
//! When A* outgrows the memory budget it hands over to IDA*, starting from
//! the bound A* had proven, with a table of seen layouts capped at the
//! same budget: slower, but the answer is still optimal.

use std::collections::VecDeque;

use super::level::Ground;
use super::rules::{Dir, Key, Rules};
use crate::solve::{Budget, Found, Progress, Stats, astar, idastar};

pub use crate::tools::options::Win;

const FAR: u32 = u32::MAX;

/// Breadth-first distances over floor cells from `sources` (each at 0).
fn distances(rules: &Rules, sources: impl IntoIterator<Item = usize>) -> Vec<u32> {
    let l = &rules.level;
    let mut dist = vec![FAR; l.ground.len()];
    let mut q = VecDeque::new();
    for s in sources {
        dist[s] = 0;
        q.push_back(s);
    }
    while let Some(c) = q.pop_front() {
        for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            if let Some(n) = l.neighbour(c, dr, dc) {
                if l.ground[n] == Ground::Floor && dist[n] == FAR {
                    dist[n] = dist[c] + 1;
                    q.push_back(n);
                }
            }
        }
    }
    dist
}

/// The solver's view of a level: rules, win rule and distance tables.
pub struct Solver {
    pub rules: Rules,
    pub win: Win,
    /// Per target: distance from every cell.
    to_target: Vec<Vec<u32>>,
    /// Per type: distance from every cell to the nearest target of the type.
    to_kind: Vec<Vec<u32>>,
    /// Distance from every cell to a way of being destroyed.
    to_death: Vec<u32>,
    targets_of: Vec<usize>,
    /// Row and column of every cell.
    rc: Vec<(i32, i32)>,
    /// Under `exact`: per type, direction flag and cell, the fewest moves in
    /// each direction that take a tile there to a target of its type or to
    /// a destroyer.
    tile_need: Vec<Vec<[u32; 4]>>,
}

/// Moves in each direction (L, R, U, D) that bring a tile from `a` to `b`.
fn need(a: (i32, i32), b: (i32, i32), reverse: bool) -> [u32; 4] {
    let (dr, dc) = (b.0 - a.0, b.1 - a.1);
    let (dr, dc) = if reverse { (-dr, -dc) } else { (dr, dc) };
    [
        (-dc).max(0) as u32,
        dc.max(0) as u32,
        (-dr).max(0) as u32,
        dr.max(0) as u32,
    ]
}

/// Distance from every cell to a way of being destroyed, and the cells a
/// moving destroyer can reach. Moving destroyers can reach their open
/// region, and a tile anywhere there might be landed on; fixed destroyers
/// are one step past any floor cell next to them.
fn death_distances(rules: &Rules) -> (Vec<u32>, Vec<u32>) {
    let l = &rules.level;
    let mover_reach = distances(rules, l.movers.iter().copied());
    let mut to_death = distances(
        rules,
        (0..l.ground.len()).filter(|&c| mover_reach[c] != FAR),
    );
    let next_to_destroyer = |c: usize| {
        [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().any(|&(dr, dc)| {
            l.neighbour(c, dr, dc)
                .is_some_and(|n| l.ground[n] == Ground::Destroyer)
        })
    };
    for (c, death) in to_death.iter_mut().enumerate() {
        if l.ground[c] == Ground::Floor && next_to_destroyer(c) {
            *death = (*death).min(1);
        }
    }
    // Spread the destroyers' reach over the floor.
    let mut q: VecDeque<usize> = (0..l.ground.len())
        .filter(|&c| to_death[c] != FAR)
        .collect();
    while let Some(c) = q.pop_front() {
        for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            if let Some(n) = l.neighbour(c, dr, dc) {
                if l.ground[n] == Ground::Floor && to_death[n] > to_death[c] + 1 {
                    to_death[n] = to_death[c] + 1;
                    q.push_back(n);
                }
            }
        }
    }
    (to_death, mover_reach)
}

/// Under `exact`: per type, direction flag and cell, the fewest moves in
/// each direction that take a tile there to a target of its type or to a
/// destroyer. Empty for other win rules and absent tile kinds.
fn tile_needs(
    rules: &Rules,
    win: Win,
    rc: &[(i32, i32)],
    mover_reach: &[u32],
) -> Vec<Vec<[u32; 4]>> {
    let l = &rules.level;
    // Where a tile may end: a target of its type, a fixed destroyer, or
    // anywhere a moving destroyer can go.
    let death_cells: Vec<usize> = (0..l.ground.len())
        .filter(|&c| l.ground[c] == Ground::Destroyer || mover_reach[c] != FAR)
        .collect();
    let present = |kr: usize| {
        l.tiles
            .iter()
            .any(|t| usize::from(t.kind) * 2 + usize::from(t.reverse) == kr)
    };
    (0..52)
        .map(|kr| {
            if win != Win::Exact || !present(kr) {
                return Vec::new();
            }
            let (kind, reverse) = ((kr / 2) as u8, kr % 2 == 1);
            let ends: Vec<usize> = l
                .targets
                .iter()
                .filter(|t| t.1 == kind)
                .map(|t| t.0)
                .chain(death_cells.iter().copied())
                .collect();
            (0..l.ground.len())
                .map(|c| {
                    let mut best = [FAR; 4];
                    for &e in &ends {
                        let n = need(rc[c], rc[e], reverse);
                        for d in 0..4 {
                            best[d] = best[d].min(n[d]);
                        }
                    }
                    best.map(|v| if v == FAR { 0 } else { v })
                })
                .collect()
        })
        .collect()
}

impl Solver {
    /// The solver's tables for `rules` (which it keeps a copy of).
    pub fn new(rules: &Rules, win: Win) -> Solver {
        let l = &rules.level;
        let to_target = l
            .targets
            .iter()
            .map(|&(c, _)| distances(rules, [c]))
            .collect();
        let to_kind = (0..26u8)
            .map(|k| distances(rules, l.targets.iter().filter(|t| t.1 == k).map(|t| t.0)))
            .collect();
        let (to_death, mover_reach) = death_distances(rules);
        let mut targets_of = vec![0; 26];
        for &(_, k) in &l.targets {
            targets_of[k as usize] += 1;
        }
        let rc: Vec<(i32, i32)> = (0..l.ground.len())
            .map(|c| ((c / l.cols) as i32, (c % l.cols) as i32))
            .collect();
        let tile_need = tile_needs(rules, win, &rc, &mover_reach);
        Solver {
            rules: rules.clone(),
            win,
            to_target,
            to_kind,
            to_death,
            targets_of,
            rc,
            tile_need,
        }
    }

    /// The tiles left: `(cell, type, reverse)`, into `out`; returns how many.
    fn tiles<const N: usize>(&self, key: &Key<N>, out: &mut [(usize, u8, bool); 64]) -> usize {
        let mut n = 0;
        for g in &self.rules.groups {
            let Some(kind) = g.kind else { continue };
            for &b in &key[g.start..g.start + g.len] {
                if b != super::rules::GONE {
                    out[n] = (self.rules.cell_of[b as usize], kind, g.reverse);
                    n += 1;
                }
            }
        }
        n
    }

    pub fn is_goal<const N: usize>(&self, key: &Key<N>) -> bool {
        let mut buf = [(0, 0, false); 64];
        let n = self.tiles(key, &mut buf);
        let tiles = &buf[..n];
        let covered = self
            .rules
            .level
            .targets
            .iter()
            .all(|&(c, k)| tiles.iter().any(|t| t.0 == c && t.1 == k));
        covered && (self.win == Win::Cover || n == self.rules.level.targets.len())
    }

    /// A lower bound on the moves left; `u32::MAX` for a dead layout.
    pub fn heuristic<const N: usize>(&self, key: &Key<N>) -> u32 {
        let mut buf = [(0, 0, false); 64];
        let n = self.tiles(key, &mut buf);
        let tiles = &buf[..n];
        let mut count = [0usize; 26];
        let mut useful = [0usize; 26];
        let mut mortal = [0usize; 26];
        let mut h = 0;
        let mut dirs = [0u32; 4];
        for &(cell, k, rev) in tiles {
            count[k as usize] += 1;
            let to_target = self.to_kind[k as usize][cell];
            useful[k as usize] += usize::from(to_target != FAR);
            mortal[k as usize] += usize::from(self.to_death[cell] != FAR);
            if self.win == Win::Exact {
                let d = to_target.min(self.to_death[cell]);
                if d == FAR {
                    return FAR;
                }
                h = h.max(d);
                let need = &self.tile_need[k as usize * 2 + usize::from(rev)][cell];
                for d in 0..4 {
                    dirs[d] = dirs[d].max(need[d]);
                }
            }
        }
        for k in 0..26 {
            if useful[k] < self.targets_of[k] {
                return FAR;
            }
            if self.win == Win::Exact
                && count[k] > self.targets_of[k]
                && mortal[k] < count[k] - self.targets_of[k]
            {
                return FAR;
            }
        }
        for (j, &(x, k)) in self.rules.level.targets.iter().enumerate() {
            let mut d_best = FAR;
            let mut need_best = [FAR; 4];
            for &(c, _, rev) in tiles.iter().filter(|t| t.1 == k) {
                d_best = d_best.min(self.to_target[j][c]);
                let n = need(self.rc[c], self.rc[x], rev);
                for d in 0..4 {
                    need_best[d] = need_best[d].min(n[d]);
                }
            }
            if d_best == FAR {
                return FAR;
            }
            h = h.max(d_best);
            for d in 0..4 {
                dirs[d] = dirs[d].max(need_best[d]);
            }
        }
        h.max(dirs.iter().sum())
    }

    /// Every move that changes the layout.
    pub fn successors<const N: usize>(&self, key: &Key<N>, out: &mut Vec<(Dir, Key<N>)>) {
        for d in Dir::ALL {
            let n = self.rules.play(key, d);
            if n != *key {
                out.push((d, n));
            }
        }
    }
}

/// How a solve ended.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The moves, `LLURD…`; `None` when unsolvable or given up.
    pub moves: Option<String>,
    /// No solution exists.
    pub unsolvable: bool,
    /// The answer is proven: the fewest moves, or no solution at all.
    pub proven: bool,
    /// No solution is shorter than this.
    pub lower_bound: u32,
    /// A* ran out of memory and IDA* took over.
    pub fell_back: bool,
    pub stats: Stats,
}

/// The outcome of a search that finished; `Err` with the proven bound and the stats when it ran out of budget.
fn finished(found: Found<Dir>, stats: Stats, fell_back: bool) -> Result<Outcome, (u32, Stats)> {
    let (moves, unsolvable, lower_bound) = match found {
        Found::Path(p) => (
            Some(p.iter().map(ToString::to_string).collect::<String>()),
            false,
            p.len() as u32,
        ),
        Found::Exhausted => (None, true, 0),
        Found::OverBudget { proven } => return Err((proven, stats)),
    };
    Ok(Outcome {
        moves,
        unsolvable,
        proven: true,
        lower_bound,
        fell_back,
        stats,
    })
}

pub fn solve_n<const N: usize>(
    s: &Solver,
    start: Key<N>,
    budget: &Budget,
    max_visits: u64,
    progress: &mut Progress,
) -> Outcome {
    let (found, stats) = astar(
        start,
        |k, out| s.successors(k, out),
        |k| s.heuristic(k),
        |k| s.is_goal(k),
        budget,
        progress,
    );
    let (proven, astar_stats) = match finished(found, stats, false) {
        Ok(done) => return done,
        Err(over) => over,
    };
    // Out of memory: IDA* from the bound A* proved.
    let ida_budget = Budget {
        max_bytes: budget.max_bytes,
        max_states: max_visits,
        deadline: None,
    };
    let (found, ida) = idastar(
        start,
        |k, out| s.successors(k, out),
        |k| s.heuristic(k),
        |k| s.is_goal(k),
        proven,
        &ida_budget,
        progress,
    );
    let stats = Stats {
        states: astar_stats.states + ida.states,
        peak_bytes: astar_stats.peak_bytes.max(ida.peak_bytes),
        ms: astar_stats.ms + ida.ms,
    };
    finished(found, stats, true).unwrap_or_else(|(proven, stats)| Outcome {
        moves: None,
        unsolvable: false,
        proven: false,
        lower_bound: proven,
        fell_back: true,
        stats,
    })
}

/// Solves a level: the fewest moves under `win`, within `budget` bytes for
/// A* and then `max_visits` IDA* visits.
pub fn solve(
    rules: &Rules,
    win: Win,
    budget: &Budget,
    max_visits: u64,
    progress: &mut Progress,
) -> Result<Outcome, super::rules::RulesError> {
    let s = Solver::new(rules, win);
    if rules.pieces <= 16 {
        Ok(solve_n::<16>(
            &s,
            rules.start()?,
            budget,
            max_visits,
            progress,
        ))
    } else {
        Ok(solve_n::<32>(
            &s,
            rules.start()?,
            budget,
            max_visits,
            progress,
        ))
    }
}

/// Replays `moves` from the start, returning each layout in turn (the
/// start first).
pub fn replay(rules: &Rules, moves: &str) -> Result<Vec<String>, String> {
    fn go<const N: usize>(rules: &Rules, moves: &str) -> Result<Vec<String>, String> {
        let mut k: Key<N> = rules.start().map_err(|e| e.to_string())?;
        let mut out = vec![rules.render(&k)];
        for (i, c) in moves.chars().enumerate() {
            let d = Dir::from_char(c)
                .ok_or_else(|| format!("move {}: {c:?} is not L, R, U or D", i + 1))?;
            k = rules.play(&k, d);
            out.push(rules.render(&k));
        }
        Ok(out)
    }
    if rules.pieces <= 16 {
        go::<16>(rules, moves)
    } else {
        go::<32>(rules, moves)
    }
}
