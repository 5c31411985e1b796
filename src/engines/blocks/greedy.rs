//! A plan when the optimal search cannot finish: enforced hill climbing.
//! From where it stands, a breadth-first search (by sorted layers) looks
//! for the nearest position where the special piece is one cell nearer
//! the goal, counting cells as if the other pieces were gone; it goes
//! there, and again, until the goal. Each climb is a small search where
//! the whole puzzle is a huge one, and a climb always ends (the goal is
//! nearer than anything), so a plan comes out on boards whose state
//! space no table holds. It is not proven shortest: loops and detours are
//! cut afterwards, wherever one move joins two positions of the plan.

use std::collections::HashMap;
use std::collections::VecDeque;

use super::board::{Board, NONE};
use super::engine::Engine;
use super::layers::{Aim, Expander, Limits, NO_MOVE, canonical, search};
use super::moves::Metric;
use super::plan::changed;
use super::search::Outcome;
use crate::solve::{Budget, Progress};

/// Per placement of the special piece, the cells it must still travel to
/// the goal with every other piece gone (`u32::MAX` where it never gets).
pub fn goal_distance(board: &Board) -> Vec<u32> {
    let c = &board.classes[board.special];
    let mut dist = vec![u32::MAX; c.anchors.len()];
    let Some(g) = board.goal else {
        return dist;
    };
    dist[g as usize] = 0;
    let mut queue = VecDeque::from([g]);
    while let Some(p) = queue.pop_front() {
        // Steps are reversible, so the step table read backwards is the
        // same table.
        for &n in c.next[p as usize].iter().filter(|&&n| n != NONE) {
            if dist[n as usize] == u32::MAX {
                dist[n as usize] = dist[p as usize] + 1;
                queue.push_back(n);
            }
        }
    }
    dist
}

/// How far from the special piece (in cells, any way) the pieces allowed
/// to move in a climb may lie, tried in turn; then every piece.
const NEAR: [usize; 4] = [2, 3, 5, 8];

/// A plan from the board's start by hill climbing, or how far it got.
pub fn climb<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    budget: &Budget,
    progress: &mut Progress,
) -> Outcome {
    let t = std::time::Instant::now();
    let dist = goal_distance(&e.board);
    let special = e.board.classes[e.board.special].slots.clone();
    let mut path = vec![e.board.start()];
    let mut out = Outcome::default();
    while !e.board.is_goal(&path[path.len() - 1]) {
        let here = &path[path.len() - 1];
        let Some(at) = special.clone().next().map(|i| here[i]) else {
            return out;
        };
        let Some(step) = one_climb::<W, K>(e, metric, budget, progress, here, at, &dist, &mut out)
        else {
            out.ms = t.elapsed().as_secs_f64() * 1e3;
            return out;
        };
        path.extend(step.into_iter().skip(1));
    }
    out.path = Some(polish::<W, K>(e, metric, budget, path, &mut out));
    out.ms = t.elapsed().as_secs_f64() * 1e3;
    out
}

/// The way from `here` (the special piece at placement `at`) to the
/// nearest position where it is a step nearer the goal: first moving only
/// pieces near it, then farther ones, then all.
#[allow(clippy::too_many_arguments)]
fn one_climb<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    budget: &Budget,
    progress: &mut Progress,
    here: &[u16],
    at: u16,
    dist: &[u32],
    out: &mut Outcome,
) -> Option<Vec<Vec<u16>>> {
    let h = dist[at as usize];
    let class = &e.board.classes[e.board.special];
    let cells = &class.cells[at as usize];
    // The cells each step nearer the goal needs free, and how many of the
    // best of them are covered now: uncovering one is progress too.
    let clear: Vec<Vec<usize>> = class.next[at as usize]
        .iter()
        .filter(|&&n| n != NONE && dist[n as usize] < h)
        .map(|&n| {
            let to = &class.cells[n as usize];
            to.iter().filter(|c| !cells.contains(c)).copied().collect()
        })
        .collect();
    let occ = e.occupied(here);
    let blocked = clear
        .iter()
        .map(|c| {
            c.iter()
                .filter(|&&i| occ[i / 64] >> (i % 64) & 1 == 1)
                .count() as u32
        })
        .min()
        .unwrap_or(0);
    let radii = NEAR.iter().map(|&r| Some(r)).chain([None]);
    for r in radii {
        let near = r.map(|r| around(&e.board, cells, r));
        let aim = Aim::Closer {
            rank: dist.to_vec(),
            below: h,
            near,
            clear: if blocked > 0 {
                clear.clone()
            } else {
                Vec::new()
            },
            blocked,
            at,
        };
        let o = search::<W, K>(e, metric, budget, progress, Some(here), &aim);
        out.states += o.states;
        out.bytes = out.bytes.max(o.bytes);
        if let Some(p) = o.path {
            return Some(p);
        }
        if budget
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
        {
            return None;
        }
    }
    None
}

/// The cells at most `r` steps (up, down, left, right, through anything)
/// from `cells`.
fn around(board: &Board, cells: &[usize], r: usize) -> Vec<usize> {
    let (w, h) = (board.width, board.height);
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let near = cells.iter().any(|&c| {
                let (cy, cx) = (c / w, c % w);
                cy.abs_diff(y) + cx.abs_diff(x) <= r
            });
            if near {
                out.push(y * w + x);
            }
        }
    }
    out
}

/// Positions a search may visit to find a shorter way between two
/// positions of a climbed plan: one per this many bytes of the budget.
const IMPROVE_BYTES_PER_STATE: u64 = 4096;

/// A found plan (of a climb or a beam) with its loops and detours cut:
/// first every loop and one-move detour, then, from each position, a
/// small breadth-first search for the later position it reaches in the
/// most moves fewer than the path takes. Only on boards without a mirror,
/// whose stored states are the real ones.
pub(super) fn polish<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    budget: &Budget,
    path: Vec<Vec<u16>>,
    out: &mut Outcome,
) -> Vec<Vec<u16>> {
    if e.mirror.is_some() {
        return path;
    }
    let path = shortcut::<W, K>(e, metric, path);
    let small = Budget {
        max_states: (budget.max_bytes / IMPROVE_BYTES_PER_STATE)
            .clamp(100_000, 20_000_000)
            .min(budget.max_states),
        ..*budget
    };
    let mut better = vec![path[0].clone()];
    let mut i = 0;
    while i + 1 < path.len() {
        let later = Aim::Shortcut(path[i + 1..].to_vec());
        let o = search::<W, K>(
            e,
            metric,
            &small,
            &mut Progress::quiet(),
            Some(&path[i]),
            &later,
        );
        out.states += o.states;
        match (o.path, o.target) {
            (Some(p), Some(t)) if p.len() - 1 < t + 1 => {
                better.extend(p.into_iter().skip(1));
                i += t + 1;
            }
            _ => {
                better.push(path[i + 1].clone());
                i += 1;
            }
        }
    }
    better
}

/// A plan in piece moves as a plan in steps: each move taken one cell at
/// a time, along a shortest way for that piece with the others where they
/// stand. Where the steps search finds nothing, the plan in piece moves
/// still walks the same positions. `None` if two positions of the path
/// are not one piece move apart.
pub(super) fn cell_by_cell(b: &Board, path: &[Vec<u16>]) -> Option<Vec<Vec<u16>>> {
    let mut out: Vec<Vec<u16>> = path.iter().take(1).cloned().collect();
    for pair in path.windows(2) {
        let (from, to) = (&pair[0], &pair[1]);
        let (k, r, q) = changed(b, from, to)?;
        let slots = b.classes[k].slots.clone();
        let slot = slots.start + from[slots.clone()].iter().position(|&v| v == r)?;
        for p in piece_way(b, from, slot, q)? {
            let mut s = from.clone();
            s[slot] = p;
            s[slots.clone()].sort_unstable();
            out.push(s);
        }
        // The way ends on the next position itself.
        if out.last() != Some(to) {
            return None;
        }
    }
    Some(out)
}

/// The placements the piece in `slot` passes through on a shortest way to
/// `q` (the last is `q`), the other pieces of `s` staying where they are.
fn piece_way(b: &Board, s: &[u16], slot: usize, q: u16) -> Option<Vec<u16>> {
    let mut taken = vec![false; b.width * b.height];
    for c in &b.classes {
        for j in c.slots.clone().filter(|&j| j != slot) {
            for &cell in &c.cells[s[j] as usize] {
                taken[cell] = true;
            }
        }
    }
    let c = b.classes.iter().find(|c| c.slots.contains(&slot))?;
    let mut prev = vec![NONE; c.anchors.len()];
    let start = s[slot];
    prev[start as usize] = start;
    let mut queue = VecDeque::from([start]);
    while let Some(p) = queue.pop_front() {
        if p == q {
            let mut way = vec![q];
            while *way.last()? != start {
                way.push(prev[*way.last()? as usize]);
            }
            way.pop();
            way.reverse();
            return Some(way);
        }
        for &n in c.next[p as usize].iter().filter(|&&n| n != NONE) {
            let free = c.cells[n as usize].iter().all(|&cell| !taken[cell]);
            if free && prev[n as usize] == NONE {
                prev[n as usize] = p;
                queue.push_back(n);
            }
        }
    }
    None
}

/// The path with every loop and detour cut: from each position, on to the
/// last position of the path that one move reaches.
fn shortcut<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    path: Vec<Vec<u16>>,
) -> Vec<Vec<u16>> {
    let keys: Vec<[u64; K]> = path.iter().map(|s| e.pack::<K>(&canonical(e, s))).collect();
    let mut last: HashMap<[u64; K], usize> = HashMap::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        last.insert(*k, i);
    }
    let mut x = Expander::default();
    let mut out = Vec::new();
    let mut i = 0;
    while i < path.len() {
        // The same position later on: go on from there.
        if last[&keys[i]] > i {
            i = last[&keys[i]];
            continue;
        }
        out.push(path[i].clone());
        if i + 1 == path.len() {
            break;
        }
        let mut best = i + 1;
        x.each(
            e,
            metric,
            &keys[i],
            NO_MOVE,
            &Limits::default(),
            |next, _, _, _, _| {
                if let Some(&j) = last.get(&next) {
                    best = best.max(j);
                }
            },
        );
        i = best;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{cell_by_cell, climb};
    use crate::engines::blocks::board::Board;
    use crate::engines::blocks::engine::Engine;
    use crate::engines::blocks::layers::{Aim, one_move_apart, search};
    use crate::engines::blocks::{Layout, Metric};
    use crate::solve::{Budget, Progress};

    #[test]
    fn a_climb_ends_on_the_goal_never_sooner_than_the_optimum() {
        let levels = [
            "######\n#*ab #\n#cd  #\n#   .#\n######\n",
            "#######\n#**ab #\n#**cd #\n#ee f #\n#g  ..#\n#h  ..#\n#######\n",
        ];
        for text in levels {
            let l = Layout::parse(text, "t").expect("a layout");
            let e = Engine::<1>::new(Board::new(&l));
            for metric in [Metric::Pieces, Metric::Steps] {
                let (budget, quiet) = (Budget::default(), &mut Progress::quiet());
                let climbed = climb::<1, 1>(&e, metric, &budget, quiet)
                    .path
                    .expect("a climb");
                let best = search::<1, 1>(&e, metric, &budget, quiet, None, &Aim::Goal);
                let best = best.path.expect("an optimal plan");
                assert!(
                    e.board.is_goal(climbed.last().expect("a position")),
                    "{text}"
                );
                assert_eq!(climbed[0], e.board.start());
                assert!(climbed.len() >= best.len(), "{text} ({metric:?})");
            }
        }
    }

    #[test]
    fn a_plan_in_piece_moves_taken_cell_by_cell_is_a_plan_in_steps() {
        let text = "#######\n#**ab #\n#**cd #\n#ee f #\n#g  ..#\n#h  ..#\n#######\n";
        let l = Layout::parse(text, "t").expect("a layout");
        let e = Engine::<1>::new(Board::new(&l));
        let (budget, quiet) = (Budget::default(), &mut Progress::quiet());
        let pieces = search::<1, 1>(&e, Metric::Pieces, &budget, quiet, None, &Aim::Goal);
        let pieces = pieces.path.expect("a plan");
        let steps = cell_by_cell(&e.board, &pieces).expect("one piece move at a time");
        assert_eq!(steps.first(), pieces.first());
        assert_eq!(steps.last(), pieces.last());
        assert!(
            steps.len() > pieces.len(),
            "some move goes more than one cell"
        );
        for pair in steps.windows(2) {
            let (from, to) = (e.pack::<1>(&pair[0]), e.pack::<1>(&pair[1]));
            let one_step = one_move_apart(&e, Metric::Steps, &from, &to);
            assert!(one_step, "{:?} -> {:?} is not one step", pair[0], pair[1]);
        }
        // No position is skipped: every position of the piece plan is there.
        assert!(pieces.iter().all(|p| steps.contains(p)));
    }
}
