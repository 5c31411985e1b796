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

/// Reused buffers, and where the search stands.
#[derive(Default)]
struct Walk {
    s: Vec<u16>,
    class: Vec<u16>,
    /// The expanded state's mirror image and the moved class's slots in
    /// it, on a symmetric board.
    ms: Vec<u16>,
    mclass: Vec<u16>,
    flood: Flood,
    head: usize,
    layer_end: usize,
    /// Goals of the next layer (pieces metric: the best is picked once the
    /// layer is complete).
    goals: Vec<u32>,
}

fn run<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    budget: &Budget,
    progress: &mut Progress,
    tab: &mut Tables<K>,
    out: &mut Outcome,
) {
    let cap = budget.state_cap() as usize;
    let mut w = Walk {
        layer_end: 1,
        ..Walk::default()
    };
    let mut depth = 0u32;
    loop {
        if w.head == w.layer_end {
            if let Some(&g) = w.goals.iter().min_by_key(|&&g| tab.steps[g as usize]) {
                out.path = Some(actual_path(e, metric, tab, g));
                return;
            }
            if tab.store.len() == w.layer_end {
                out.exhausted = true;
                return;
            }
            out.proven = depth + 1;
            w.layer_end = tab.store.len();
            depth += 1;
        }
        if let Some(g) = expand(e, metric, tab, &mut w) {
            out.path = Some(actual_path(e, metric, tab, g));
            return;
        }
        w.head += 1;
        progress.update("klotski", tab.store.len() as u64, depth);
        // Checked every so many expansions; the room left must hold the
        // store's next growth (old and new tables live together) as well.
        if tab.store.len() > cap
            || (w.head % CHECK_EVERY == 0
                && tab.bytes() + tab.store.growth_bytes(CHECK_EVERY * 64) > budget.max_bytes)
        {
            return;
        }
    }
}

/// Expansions between two checks of the memory budget.
const CHECK_EVERY: usize = 4096;

/// Stores every successor of the state at `w.head`; returns a goal at
/// once under the steps metric (the first found is nearest).
fn expand<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    tab: &mut Tables<K>,
    w: &mut Walk,
) -> Option<u32> {
    let limit = metric.reach();
    let head = w.head;
    let key = *tab.store.state(head as u32);
    e.unpack(&key, &mut w.s);
    let s = &w.s;
    let mkey = e.mirror.as_ref().map(|m| {
        m.state(&e.board, s, &mut w.ms);
        e.pack::<K>(&w.ms)
    });
    let occ = e.occupied(s);
    let (here, last) = (tab.steps[head], tab.last[head]);
    for slot in 0..s.len() {
        let k = e.class_of(slot);
        // The piece that just moved: under `pieces` every end of its flood
        // is a sibling, already stored; under `steps` its way back is the
        // parent.
        let moved = usize::from(last.class) == k && s[slot] == last.to;
        if (moved && metric == Metric::Pieces) || !e.may_move(s, &occ, slot) {
            continue;
        }
        e.flood(s, &occ, slot, limit, &mut w.flood);
        let range = e.board.classes[k].slots.clone();
        for &(q, d) in &w.flood.reached {
            if moved && q == last.from {
                continue;
            }
            // Only this class's slots change: re-sort and re-pack them.
            w.class.clear();
            w.class.extend_from_slice(&s[range.clone()]);
            w.class[slot - range.start] = q;
            w.class.sort_unstable();
            let mut next = key;
            for (i, &v) in range.clone().zip(&w.class) {
                e.put(&mut next, i, v);
            }
            let mut how = Last {
                class: k as u16,
                from: s[slot],
                to: q,
            };
            if let (Some(m), Some(mkey)) = (&e.mirror, mkey) {
                // Keep the smaller of the state and its mirror image.
                let k2 = m.class[k];
                let flip = &m.placement[k];
                w.mclass.clear();
                w.mclass.extend(w.class.iter().map(|&v| flip[v as usize]));
                w.mclass.sort_unstable();
                let mut mirrored = mkey;
                for (i, &v) in e.board.classes[k2].slots.clone().zip(&w.mclass) {
                    e.put(&mut mirrored, i, v);
                }
                if mirrored < next {
                    next = mirrored;
                    how = Last {
                        class: k2 as u16,
                        from: flip[s[slot] as usize],
                        to: flip[q as usize],
                    };
                }
            }
            let (i, new) = tab.store.insert(next);
            let steps = here + d;
            if new {
                tab.parent.push(head as u32);
                tab.steps.push(steps);
                tab.last.push(how);
                if k == e.board.special && e.board.goal == Some(q) {
                    if metric == Metric::Steps {
                        return Some(i);
                    }
                    w.goals.push(i);
                }
            } else if i as usize >= w.layer_end && steps < tab.steps[i as usize] {
                tab.parent[i as usize] = head as u32;
                tab.steps[i as usize] = steps;
                tab.last[i as usize] = how;
            }
        }
    }
    None
}

/// The found path as the states a player goes through: on a symmetric
/// board a stored state may be the mirror image of the one a move reached,
/// and exactly one of the two (or both) follows from the state before.
fn actual_path<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    tab: &Tables<K>,
    g: u32,
) -> Vec<Vec<u16>> {
    let path = tab.path(e, g);
    let Some(m) = &e.mirror else {
        return path;
    };
    let mut out: Vec<Vec<u16>> = Vec::with_capacity(path.len());
    for n in path {
        let next = match out.last() {
            Some(cur) if !follows(e, metric, cur, &n) => {
                let mut flipped = Vec::new();
                m.state(&e.board, &n, &mut flipped);
                flipped
            }
            _ => n,
        };
        out.push(next);
    }
    out
}

/// True when one move under `metric` takes `cur` to `next`.
fn follows<const W: usize>(e: &Engine<W>, metric: Metric, cur: &[u16], next: &[u16]) -> bool {
    let limit = metric.reach();
    let occ = e.occupied(cur);
    let mut f = Flood::default();
    let mut t = cur.to_vec();
    for slot in 0..cur.len() {
        e.flood(cur, &occ, slot, limit, &mut f);
        let k = e.class_of(slot);
        for &(q, _) in &f.reached {
            t.copy_from_slice(cur);
            t[slot] = q;
            e.board.resort(&mut t, k);
            if t == next {
                return true;
            }
        }
    }
    false
}
