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
use super::layers::{Aim, Expander, NO_MOVE, canonical, search};
use super::moves::Metric;
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
    loop {
        let here = &path[path.len() - 1];
        if e.board.is_goal(here) {
            break;
        }
        let Some(h) = special.clone().next().map(|i| dist[here[i] as usize]) else {
            return out;
        };
        let aim = Aim::Closer(dist.clone(), h);
        let o = search::<W, K>(e, metric, budget, progress, Some(here), &aim);
        out.states += o.states;
        out.bytes = out.bytes.max(o.bytes);
        let Some(step) = o.path else {
            out.exhausted = o.exhausted;
            out.ms = t.elapsed().as_secs_f64() * 1e3;
            return out;
        };
        path.extend(step.into_iter().skip(1));
    }
    if e.mirror.is_none() {
        path = shortcut::<W, K>(e, metric, path);
    }
    out.path = Some(path);
    out.ms = t.elapsed().as_secs_f64() * 1e3;
    out
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
        x.each(e, metric, &keys[i], NO_MOVE, |next, _, _, _| {
            if let Some(&j) = last.get(&next) {
                best = best.max(j);
            }
        });
        i = best;
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::engines::blocks::layers::Aim;
    use crate::engines::blocks::plan::{apply, is_won, plan_for};
    use crate::engines::blocks::{Layout, Metric};
    use crate::solve::{Budget, Progress};

    #[test]
    fn climbing_finds_a_plan_that_wins_and_is_never_shorter_than_the_optimum() {
        let levels = [
            "######\n#*ab #\n#cd  #\n#   .#\n######\n",
            "#######\n#**ab #\n#**cd #\n#ee f #\n#g  ..#\n#h  ..#\n#######\n",
        ];
        for text in levels {
            let l = Layout::parse(text, "t").expect("a layout");
            for metric in [Metric::Pieces, Metric::Steps] {
                let run = |aim: &Aim| {
                    plan_for(&l, metric, &Budget::default(), &mut Progress::quiet(), aim)
                        .expect("plans")
                        .plan
                        .expect("a plan")
                };
                let (best, climbed) = (run(&Aim::Goal), run(&Aim::Climb));
                assert!(best.optimal && !climbed.optimal);
                assert!(climbed.moves.len() >= best.moves.len());
                let end = climbed
                    .moves
                    .iter()
                    .try_fold(l.clone(), |at, m| apply(&at, m))
                    .expect("every move is legal");
                assert!(is_won(&end), "{text}");
            }
        }
    }
}
