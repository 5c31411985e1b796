//! The dedicated optimal search: breadth-first over canonical packed keys,
//! by layers of moves. Under [`Metric::Steps`] a move is one cell; under
//! [`Metric::Pieces`] it is every position one piece reaches by a flood
//! with the others fixed, which is exact: any run of one piece's steps is
//! one move, and the flood finds every end of such runs. Among plans with
//! the fewest piece moves it keeps one with the fewest cells moved: each
//! state of the next layer keeps the parent that reached it in fewest
//! steps, and the goal is taken only once its layer is complete.

use std::time::Instant;

use super::engine::{Engine, Flood};
use super::moves::Metric;
use crate::solve::{Budget, Progress, Store};

/// How a search ended.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The canonical states from the start to the goal, when found.
    pub path: Option<Vec<Vec<u16>>>,
    /// Every reachable state was seen and none is a goal.
    pub exhausted: bool,
    pub states: u64,
    /// No plan is shorter than this (the last complete layer).
    pub proven: u32,
    pub bytes: u64,
    pub ms: f64,
}

/// The move that reached a state: the piece's class, where it was, where
/// it went.
#[derive(Clone, Copy, Default)]
struct Last {
    class: u16,
    from: u16,
    to: u16,
}

/// The search's tables: keys, parents, cells moved so far, last moves.
struct Tables<const K: usize> {
    store: Store<[u64; K]>,
    parent: Vec<u32>,
    steps: Vec<u32>,
    last: Vec<Last>,
}

impl<const K: usize> Tables<K> {
    fn bytes(&self) -> u64 {
        self.store.bytes() + 16 * self.parent.len() as u64
    }

    fn path<const W: usize>(&self, e: &Engine<W>, mut i: u32) -> Vec<Vec<u16>> {
        let mut out = Vec::new();
        loop {
            let mut s = Vec::new();
            e.unpack(self.store.state(i), &mut s);
            out.push(s);
            if i == 0 {
                break;
            }
            i = self.parent[i as usize];
        }
        out.reverse();
        out
    }
}

/// Breadth-first search from the board's start.
pub fn search<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    budget: &Budget,
    progress: &mut Progress,
) -> Outcome {
    let t = Instant::now();
    let start = e.board.start();
    let mut tab = Tables::<K> {
        store: Store::default(),
        parent: vec![0],
        steps: vec![0],
        last: vec![Last {
            class: u16::MAX,
            ..Last::default()
        }],
    };
    tab.store.insert(e.pack(&start));
    let mut out = Outcome::default();
    if e.board.is_goal(&start) {
        out.path = Some(vec![start]);
    } else {
        run(e, metric, budget, progress, &mut tab, &mut out);
    }
    out.states = tab.store.len() as u64;
    out.bytes = tab.bytes();
    out.ms = t.elapsed().as_secs_f64() * 1e3;
    out
}

fn run<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    budget: &Budget,
    progress: &mut Progress,
    tab: &mut Tables<K>,
    out: &mut Outcome,
) {
    let limit = match metric {
        Metric::Steps => 1,
        Metric::Pieces => u32::MAX,
    };
    let cap = budget.state_cap() as usize;
    let (mut head, mut layer_end, mut depth) = (0usize, 1usize, 0u32);
    let mut goals: Vec<u32> = Vec::new();
    let (mut s, mut class) = (Vec::new(), Vec::new());
    let mut flood = Flood::default();
    loop {
        if head == layer_end {
            if let Some(&g) = goals.iter().min_by_key(|&&g| tab.steps[g as usize]) {
                out.path = Some(tab.path(e, g));
                return;
            }
            if tab.store.len() == layer_end {
                out.exhausted = true;
                return;
            }
            out.proven = depth + 1;
            layer_end = tab.store.len();
            depth += 1;
        }
        let key = *tab.store.state(head as u32);
        e.unpack(&key, &mut s);
        let occ = e.occupied(&s);
        let here = tab.steps[head];
        let last = tab.last[head];
        for slot in 0..s.len() {
            let k = e.class_of(slot);
            // The piece that just moved: under `pieces` every end of its
            // flood is a sibling, already stored; under `steps` its way
            // back is the parent.
            let moved = usize::from(last.class) == k && s[slot] == last.to;
            if moved && metric == Metric::Pieces {
                continue;
            }
            e.flood(&s, &occ, slot, limit, &mut flood);
            let range = e.board.classes[k].slots.clone();
            let wins = k == e.board.special;
            for &(q, d) in &flood.reached {
                if moved && q == last.from {
                    continue;
                }
                // Only this class's slots change: re-sort and re-pack them.
                class.clear();
                class.extend_from_slice(&s[range.clone()]);
                class[slot - range.start] = q;
                class.sort_unstable();
                let mut next = key;
                for (i, &v) in range.clone().zip(&class) {
                    e.put(&mut next, i, v);
                }
                let (i, new) = tab.store.insert(next);
                let steps = here + d;
                let how = Last {
                    class: k as u16,
                    from: s[slot],
                    to: q,
                };
                if new {
                    tab.parent.push(head as u32);
                    tab.steps.push(steps);
                    tab.last.push(how);
                    if wins && e.board.goal == Some(q) {
                        if metric == Metric::Steps {
                            out.path = Some(tab.path(e, i));
                            return;
                        }
                        goals.push(i);
                    }
                } else if i as usize >= layer_end && steps < tab.steps[i as usize] {
                    tab.parent[i as usize] = head as u32;
                    tab.steps[i as usize] = steps;
                    tab.last[i as usize] = how;
                }
            }
        }
        head += 1;
        progress.update("klotski", tab.store.len() as u64, depth);
        if tab.store.len() > cap || (head % 4096 == 0 && tab.bytes() > budget.max_bytes) {
            return;
        }
    }
}
