//! A plan where the optimal search and the climbs are too wide: beam
//! search. Each layer keeps only the positions a cheap estimate likes
//! best: the special piece's distance to the goal with the others gone,
//! plus the cells of other pieces it would have to push through on its
//! cheapest way there ([`Corridor`]). A position is never kept twice, so
//! the beam keeps moving on; a goal reached is a plan, never a proof.
//! Wider beams are tried in turn until one reaches the goal or the budget
//! ends. A beam may instead keep novel positions first
//! ([`super::novelty`], [`Keep::Novel`]): `plan::any_plan` tries those
//! where no other beam gets there.

use rustc_hash::FxHashSet;

use super::board::NONE;
use super::engine::{Bits, Engine};
use super::greedy::{goal_distance, polish};
use super::layers::{Expander, Limits, NO_MOVE, canonical};
use super::moves::Metric;
use super::novelty::Novelty;
use super::search::{Outcome, unmirror};
use crate::solve::{Budget, Progress, memory};

/// The special piece's ways to the goal, each step with the cells it
/// newly covers: what other pieces must leave for it to pass.
pub struct Corridor<const W: usize> {
    dist: Vec<u32>,
    /// Placements of the special piece by distance to the goal, nearest
    /// first (those that never reach it left out).
    order: Vec<u16>,
    /// Per placement, its steps one nearer the goal and the cells each adds.
    steps: Vec<Vec<(u16, Bits<W>)>>,
    /// The cells some other movable piece may cover: where free cells
    /// travel.
    area: Bits<W>,
    width: usize,
}

/// Scratch space for [`Corridor::estimate`].
#[derive(Default)]
pub struct Scratch {
    cost: Vec<u32>,
    near: Vec<u32>,
    queue: Vec<usize>,
}

impl<const W: usize> Corridor<W> {
    pub fn new(e: &Engine<W>) -> Self {
        let dist = goal_distance(&e.board);
        let k = e.board.special;
        let class = &e.board.classes[k];
        let mut order: Vec<u16> = (0..dist.len() as u16)
            .filter(|&p| dist[p as usize] != u32::MAX)
            .collect();
        order.sort_by_key(|&p| dist[p as usize]);
        let steps = (0..dist.len())
            .map(|q| {
                class.next[q]
                    .iter()
                    .filter(|&&n| n != NONE && dist[n as usize].wrapping_add(1) == dist[q])
                    .map(|&n| {
                        let (to, from) = (e.mask(k, n), e.mask(k, q as u16));
                        (n, std::array::from_fn(|w| to[w] & !from[w]))
                    })
                    .collect()
            })
            .collect();
        let mut area = [0u64; W];
        for (j, c) in e.board.classes.iter().enumerate() {
            if j == k || c.frozen {
                continue;
            }
            for p in 0..c.anchors.len() {
                let m = e.mask(j, p as u16);
                for w in 0..W {
                    area[w] |= m[w];
                }
            }
        }
        let width = e.board.width;
        Corridor {
            dist,
            order,
            steps,
            area,
            width,
        }
    }

    /// Per cell, how far (in cells, through other pieces but not through
    /// the special piece) the nearest cell of `seeds` is.
    fn spread(&self, seeds: &Bits<W>, special: &Bits<W>, x: &mut Scratch) {
        let n = W * 64;
        x.near.clear();
        x.near.resize(n, u32::MAX);
        x.queue.clear();
        for i in 0..n {
            if seeds[i / 64] >> (i % 64) & 1 == 1 {
                x.near[i] = 0;
                x.queue.push(i);
            }
        }
        let mut head = 0;
        while head < x.queue.len() {
            let i = x.queue[head];
            head += 1;
            let d = x.near[i] + 1;
            let (r, c) = (i / self.width, i % self.width);
            let around = [
                (c > 0).then(|| i - 1),
                (c + 1 < self.width).then(|| i + 1),
                (r > 0).then(|| i - self.width),
                (i + self.width < n).then(|| i + self.width),
            ];
            for j in around.into_iter().flatten() {
                let (w, b) = (j / 64, j % 64);
                if x.near[j] == u32::MAX && self.area[w] >> b & 1 == 1 && special[w] >> b & 1 == 0 {
                    x.near[j] = d;
                    x.queue.push(j);
                }
            }
        }
    }

    /// The estimate for the special piece at `at` (covering `own`) with
    /// the other pieces covering `others`: [`PER_STEP`] per step of its
    /// distance and [`BLOCKED`] per covered cell on its cheapest way that
    /// never steps back, plus how far free cells are from the covered
    /// cells its next step needs. `None` where it can never reach the goal.
    pub fn estimate(
        &self,
        at: u16,
        own: &Bits<W>,
        others: &Bits<W>,
        x: &mut Scratch,
    ) -> Option<u32> {
        let far = *self.dist.get(at as usize)?;
        if far == u32::MAX {
            return None;
        }
        if far == 0 {
            return Some(0);
        }
        let blocked = |add: &Bits<W>| -> u32 {
            add.iter()
                .zip(others)
                .map(|(a, o)| (a & o).count_ones())
                .sum()
        };
        x.cost.resize(self.dist.len(), 0);
        for &q in &self.order {
            let d = self.dist[q as usize];
            if d >= far {
                break;
            }
            x.cost[q as usize] = if d == 0 {
                0
            } else {
                self.steps[q as usize]
                    .iter()
                    .map(|(n, add)| x.cost[*n as usize] + PER_STEP + BLOCKED * blocked(add))
                    .min()
                    .unwrap_or(u32::MAX / 2)
            };
        }
        let way = |n: u16, add: &Bits<W>| x.cost[n as usize] + PER_STEP + BLOCKED * blocked(add);
        let steps = &self.steps[at as usize];
        let best = steps.iter().map(|(n, add)| way(*n, add)).min()?;
        // The cheapest steps' covered cells (ties are rare: a few at most).
        let mut needed: [Option<Bits<W>>; 4] = [None; 4];
        for (slot, (n, add)) in needed.iter_mut().zip(steps) {
            if way(*n, add) == best {
                *slot = Some(std::array::from_fn(|w| add[w] & others[w]));
            }
        }
        if needed.iter().flatten().any(|m| m.iter().all(|&w| w == 0)) {
            return Some(best);
        }
        // One flood from the free cells serves every tied step.
        let free: Bits<W> = std::array::from_fn(|w| self.area[w] & !others[w] & !own[w]);
        self.spread(&free, own, x);
        let reach = needed
            .iter()
            .flatten()
            .map(|m| {
                (0..W * 64)
                    .filter(|&i| m[i / 64] >> (i % 64) & 1 == 1)
                    .map(|i| x.near[i].min(FAR))
                    .sum::<u32>()
            })
            .min()
            .unwrap_or(0);
        Some(best + reach)
    }
}

/// What a step of distance costs in the estimate.
const PER_STEP: u32 = 8;
/// What a covered cell on the way costs in the estimate.
const BLOCKED: u32 = 16;
/// The most a covered cell's distance to a free cell counts.
const FAR: u32 = 12;

/// A position kept in a layer: its key and its parent's index in the
/// layer before.
struct Node<const K: usize> {
    key: [u64; K],
    parent: u32,
}

/// A successor: its estimate, its tie-break, its key, its parent's index.
type Child<const K: usize> = (u32, u64, [u64; K], u32);

/// Layers a beam may go on without bettering its best estimate.
const STALL: usize = 150;

/// On boards where a position has many more successors than this, a
/// stall is also counted in successors: [`STALL`] layers' worth at this
/// many a parent.
const STALL_BRANCHING: usize = 10;

/// Beam widths tried in turn.
pub const WIDTHS: [usize; 3] = [2_000, 20_000, 200_000];

/// Which successors a beam keeps when it has more than its width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Those with the best estimates.
    Best,
    /// The novel ones first ([`Novelty`]), then the best estimates. Such
    /// a beam crosses a plateau of the estimate by spreading over it,
    /// which takes more layers, so it may go [`NOVEL_STALL`] times as
    /// long without bettering its best estimate.
    Novel,
}

/// How many times longer a [`Keep::Novel`] beam may stall.
const NOVEL_STALL: usize = 4;

/// The mark of a successor that is not novel, in its estimate: estimates
/// stay far below it.
const STALE: u32 = 1 << 31;

/// A plan from `start` by beam search, trying [`WIDTHS`] in turn, each
/// keeping what `keep` says, or how far it got.
pub fn beam<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    keep: Keep,
    budget: &Budget,
    progress: &mut Progress,
    start: &[u16],
) -> Outcome {
    let t = std::time::Instant::now();
    let corridor = Corridor::new(e);
    let mut out = Outcome::default();
    for width in WIDTHS {
        let found = one_beam::<W, K>(
            e,
            (metric, budget, progress),
            start,
            &corridor,
            (width, keep),
            &mut out,
        );
        if let Some(path) = found {
            out.path = Some(polish::<W, K>(e, metric, budget, path, &mut out));
            break;
        }
        if budget
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
        {
            break;
        }
    }
    out.ms = t.elapsed().as_secs_f64() * 1e3;
    out
}

/// One beam of `width` positions a layer, keeping what `keep` says.
fn one_beam<const W: usize, const K: usize>(
    e: &Engine<W>,
    (metric, budget, progress): (Metric, &Budget, &mut Progress),
    start: &[u16],
    corridor: &Corridor<W>,
    (width, keep): (usize, Keep),
    out: &mut Outcome,
) -> Option<Vec<Vec<u16>>> {
    let first = e.pack::<K>(&canonical(e, start));
    let mut seen: FxHashSet<[u64; K]> = FxHashSet::default();
    seen.insert(first);
    let mut layers = vec![vec![Node {
        key: first,
        parent: 0,
    }]];
    let mut x = Expander::default();
    let (mut s, mut scratch) = (Vec::new(), Scratch::default());
    // The best estimate so far, the layer it was first met in, and the
    // successors seen by then.
    let mut record = (u32::MAX, 0, 0u64);
    let mut novelty = Novelty::new(e);
    let stall = if keep == Keep::Novel { NOVEL_STALL } else { 1 };
    loop {
        let held = (&seen, layers.as_slice(), novelty.bytes());
        let mut next = successors(e, (metric, budget), held, width, &mut x, &mut out.bytes)?;
        let goal = judge(e, corridor, &mut next, &mut s, &mut scratch);
        out.states += next.len() as u64;
        progress.report("klotski", out.states, layers.len() as u32);
        if let Some(g) = goal {
            let parent = next.iter().find(|n| n.2 == g).map_or(0, |n| n.3);
            layers.push(vec![Node { key: g, parent }]);
            return Some(read_back(e, metric, &layers, start));
        }
        let held = (&seen, layers.as_slice(), novelty.bytes());
        if next.is_empty() || over(budget, &mut out.bytes, held, (&next, 0), width) {
            return None;
        }
        let best = next.iter().map(|n| n.0).min().unwrap_or(u32::MAX);
        if best < record.0 {
            record = (best, layers.len(), out.states);
        } else if layers.len() - record.1 > STALL * stall
            || out.states - record.2 > (STALL * width * STALL_BRANCHING * stall) as u64
        {
            return None;
        }
        if keep == Keep::Novel {
            mark_stale(e, &mut next, &mut novelty, &mut s);
        }
        if next.len() > width {
            next.select_nth_unstable_by_key(width, |n| (n.0, n.1));
            next.truncate(width);
        }
        next.retain(|n| n.0 != u32::MAX);
        // One reservation, as `over` counted it: `extend` alone reserves
        // half and may grow the set twice.
        seen.reserve(next.len());
        seen.extend(next.iter().map(|n| n.2));
        // A layer of its own size: collecting in place would keep all the
        // successors' memory for every layer.
        let mut kept = Vec::with_capacity(next.len());
        kept.extend(next.iter().map(|n| Node {
            key: n.2,
            parent: n.3,
        }));
        layers.push(kept);
    }
}

/// The successors of the last of `layers` not in `seen`, each once and in
/// key order, with `(0, 0)` for their estimate and tie-break; `None` when
/// the budget cannot hold them. What the beam holds is noted in `peak`.
fn successors<const W: usize, const K: usize>(
    e: &Engine<W>,
    (metric, budget): (Metric, &Budget),
    (seen, layers, extra): (&FxHashSet<[u64; K]>, &[Vec<Node<K>>], usize),
    width: usize,
    x: &mut Expander,
    peak: &mut u64,
) -> Option<Vec<Child<K>>> {
    let mut next: Vec<Child<K>> = Vec::new();
    for (i, node) in layers.last()?.iter().enumerate() {
        x.each(
            e,
            metric,
            &node.key,
            NO_MOVE,
            &Limits::default(),
            |k, _, _, _, _| {
                if !seen.contains(&k) {
                    next.push((0, 0, k, i as u32));
                }
            },
        );
        // A wide beam's successors are most of what it holds. They grow
        // only here, by what the next parents are likely to add, so that
        // the check counts their growth before it happens.
        if i % CHECK == CHECK - 1 {
            let ahead = next.len() / (i + 1) * CHECK * 2;
            if over(budget, peak, (seen, layers, extra), (&next, ahead), width) {
                return None;
            }
            next.reserve(ahead);
        }
    }
    next.sort_unstable_by_key(|n| n.2);
    next.dedup_by_key(|n| n.2);
    Some(next)
}

/// Gives each successor its estimate ([`Corridor::estimate`], `u32::MAX`
/// where the goal is out of reach) and its tie-break; the goal, if one
/// of them is.
fn judge<const W: usize, const K: usize>(
    e: &Engine<W>,
    corridor: &Corridor<W>,
    next: &mut [Child<K>],
    s: &mut Vec<u16>,
    scratch: &mut Scratch,
) -> Option<[u64; K]> {
    let special = e.board.classes[e.board.special].slots.start;
    let mut goal = None;
    for n in next {
        e.unpack(&n.2, s);
        let at = s[special];
        let mut others = e.occupied(s);
        let own = e.mask(e.board.special, at);
        for w in 0..W {
            others[w] &= !own[w];
        }
        n.0 = corridor
            .estimate(at, own, &others, scratch)
            .unwrap_or(u32::MAX);
        n.1 = mix(&n.2);
        if e.board.is_goal(s) {
            goal = Some(n.2);
        }
    }
    goal
}

/// Marks [`STALE`] the successors that are not novel. Each estimate has
/// its own table, so only the order within one estimate matters: the
/// tie-break's, as the beam keeps them.
fn mark_stale<const W: usize, const K: usize>(
    e: &Engine<W>,
    next: &mut [Child<K>],
    novelty: &mut Novelty,
    s: &mut Vec<u16>,
) {
    next.sort_unstable_by_key(|n| (n.0, n.1));
    for n in next.iter_mut().filter(|n| n.0 != u32::MAX) {
        debug_assert!(n.0 < STALE, "estimates stay below the stale mark");
        e.unpack(&n.2, s);
        if !novelty.note(e, s, n.0) {
            n.0 |= STALE;
        }
    }
}

/// A key's bits mixed: the tie-break among equal estimates, so that the
/// beam does not favour one corner of the key space.
fn mix<const K: usize>(key: &[u64; K]) -> u64 {
    key.iter().fold(0x9e37_79b9_7f4a_7c15, |h, &w| {
        (h ^ w).wrapping_mul(0xbf58_476d_1ce4_e5b9).rotate_left(31)
    })
}

/// Parents expanded between two checks of a beam's memory.
const CHECK: usize = 1024;

/// True when the beam would hold more than the budget allows once the
/// successors in hand (`pending`) have room for `ahead` more, or once up
/// to `width` of them join its set and its next layer, or time is up; what
/// it holds now (its set, its layers, `extra` bytes and `pending`) is
/// noted in `peak`.
fn over<const K: usize>(
    budget: &Budget,
    peak: &mut u64,
    (seen, layers, extra): (&FxHashSet<[u64; K]>, &[Vec<Node<K>>], usize),
    (pending, ahead): (&Vec<Child<K>>, usize),
    width: usize,
) -> bool {
    let kept: usize = layers.iter().map(Vec::len).sum();
    let node = std::mem::size_of::<Node<K>>();
    let others = extra + kept * node + pending.capacity() * std::mem::size_of::<Child<K>>();
    let now = (set_bytes(seen, 0) + others) as u64;
    *peak = (*peak).max(now);
    let joining = pending.len().min(width);
    let after = set_bytes(seen, joining) + others + joining * node;
    (now + memory::vec_growth_bytes(pending, ahead)).max(after as u64) > budget.max_bytes
        || kept as u64 > budget.state_cap()
        || budget
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
}

/// The bytes of `seen` at their most once `more` keys join it in one
/// reservation: its table, and while it grows, the new one beside it.
fn set_bytes<const K: usize>(seen: &FxHashSet<[u64; K]>, more: usize) -> usize {
    let (len, cap) = (seen.len(), seen.capacity());
    let grown = memory::hash_growth_bytes(len, cap, more, 8 * K);
    (memory::hash_map_bytes(cap, 8 * K) + grown) as usize
}

/// The positions from the start to the last layer's one node.
fn read_back<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    layers: &[Vec<Node<K>>],
    start: &[u16],
) -> Vec<Vec<u16>> {
    let mut keys = Vec::with_capacity(layers.len());
    let mut at = 0usize;
    for layer in layers.iter().rev() {
        keys.push(layer[at].key);
        at = layer[at].parent as usize;
    }
    keys.reverse();
    let path = std::iter::once(start.to_vec())
        .chain(keys[1..].iter().map(|k| {
            let mut s = Vec::new();
            e.unpack(k, &mut s);
            s
        }))
        .collect();
    unmirror(e, metric, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::blocks::Layout;
    use crate::engines::blocks::board::Board;
    use crate::engines::blocks::layers::{Aim, one_move_apart};
    use crate::engines::blocks::plan::{apply, is_won, plan_for};

    fn engine(text: &str) -> Engine<1> {
        Engine::new(Board::new(&Layout::parse(text, "t").expect("a layout")))
    }

    #[test]
    fn a_set_about_to_grow_counts_its_old_table_and_its_new_one() {
        let mut seen: FxHashSet<[u64; 1]> = FxHashSet::default();
        seen.extend((0..1000).map(|i| [i]));
        let cap = seen.capacity();
        let room = cap - seen.len();
        let held = set_bytes(&seen, room);
        assert!(held >= cap * 9, "{held} for a table of {cap}");
        for more in [room + 1, 10 * cap] {
            let grown = set_bytes(&seen, more);
            // What the set takes once grown, as the beam grows it.
            let mut after = seen.clone();
            after.reserve(more);
            assert!(
                grown >= held + after.capacity() * 9,
                "{grown} for {more} more"
            );
            assert!(
                grown <= held + 3 * after.capacity() * 9,
                "{grown} for {more} more"
            );
        }
    }

    fn estimate(e: &Engine<1>, s: &[u16]) -> Option<u32> {
        let k = e.board.special;
        let at = s[e.board.classes[k].slots.start];
        let own = *e.mask(k, at);
        let others = [e.occupied(s)[0] & !own[0]];
        Corridor::new(e).estimate(at, &own, &others, &mut Scratch::default())
    }

    #[test]
    fn the_estimate_is_the_distance_on_an_open_board_and_grows_with_each_piece_in_the_way() {
        let open = engine("#######\n#*    #\n#    .#\n#######\n");
        let start = open.board.start();
        assert_eq!(estimate(&open, &start), Some(5 * PER_STEP));
        let blocked = engine("#######\n#*a   #\n#    .#\n#######\n");
        let cost = estimate(&blocked, &blocked.board.start()).expect("reaches the goal");
        // The cheapest way goes round the piece: no cell of it is covered.
        assert_eq!(cost, 5 * PER_STEP);
        let walled = engine("#######\n#*a   #\n#b   .#\n#######\n");
        let cost = estimate(&walled, &walled.board.start()).expect("reaches the goal");
        assert!(cost > 5 * PER_STEP + BLOCKED, "{cost}");
    }

    #[test]
    fn the_beam_finds_plans_that_win_and_are_never_shorter_than_the_optimum() {
        let levels = [
            "######\n#*ab #\n#cd  #\n#   .#\n######\n",
            "#######\n#**ab #\n#**cd #\n#ee f #\n#g  ..#\n#h  ..#\n#######\n",
            "########\n#ab**cd#\n#ef**gh#\n#i    j#\n#k ..  #\n#l ..  #\n########\n",
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
                let (best, beamed) = (run(&Aim::Goal), run(&Aim::Climb));
                assert!(best.optimal && !beamed.optimal);
                assert!(beamed.moves.len() >= best.moves.len());
                let end = beamed
                    .moves
                    .iter()
                    .try_fold(l.clone(), |at, m| apply(&at, m))
                    .expect("every move is legal");
                assert!(is_won(&end), "{text}");
            }
        }
    }

    #[test]
    fn a_beam_keeping_novel_positions_first_walks_one_move_at_a_time_to_the_goal() {
        let text = "########\n#ab**cd#\n#ef**gh#\n#i    j#\n#k ..  #\n#l ..  #\n########\n";
        let e = engine(text);
        let start = e.board.start();
        let path = one_beam::<1, 1>(
            &e,
            (Metric::Pieces, &Budget::default(), &mut Progress::quiet()),
            &start,
            &Corridor::new(&e),
            (50, Keep::Novel),
            &mut Outcome::default(),
        )
        .expect("a plan");
        assert_eq!(path[0], start);
        assert!(e.board.is_goal(path.last().expect("a position")));
        for pair in path.windows(2) {
            let (from, to) = (
                e.pack::<1>(&canonical(&e, &pair[0])),
                e.pack::<1>(&canonical(&e, &pair[1])),
            );
            let one_move = one_move_apart(&e, Metric::Pieces, &from, &to);
            assert!(one_move, "{:?} -> {:?}", pair[0], pair[1]);
        }
    }

    #[test]
    fn a_successor_seen_at_its_estimate_is_stale_and_kept_after_a_worse_novel_one() {
        let e = engine("#######\n#**ab #\n#**cd #\n#ee f #\n#g  ..#\n#h  ..#\n#######\n");
        let key = e.pack::<1>(&e.board.start());
        // One position under two estimates: each estimate has its own
        // table, so it is novel under both.
        let mut next = vec![(9, 1, key, 0), (5, 2, key, 0)];
        let (mut novelty, mut s) = (Novelty::new(&e), Vec::new());
        mark_stale(&e, &mut next, &mut novelty, &mut s);
        assert_eq!((next[0].0, next[1].0), (5, 9));
        // Seen at 5 now, it is stale there: a beam of one keeps a novel
        // successor with a worse estimate (7) before it.
        let mut again = vec![(5, 3, key, 0), (7, 4, key, 1)];
        mark_stale(&e, &mut again, &mut novelty, &mut s);
        assert_eq!(again[0].0, 5 | STALE);
        again.select_nth_unstable_by_key(1, |n| (n.0, n.1));
        assert_eq!(again[0].3, 1, "the novel successor is kept");
    }

    #[test]
    fn a_beam_stops_at_its_deadline_with_no_plan() {
        let e = engine("#######\n#**ab #\n#**cd #\n#ee f #\n#g  ..#\n#h  ..#\n#######\n");
        let past = Budget {
            deadline: Some(std::time::Instant::now()),
            ..Budget::default()
        };
        let o = beam::<1, 1>(
            &e,
            Metric::Pieces,
            Keep::Best,
            &past,
            &mut Progress::quiet(),
            &e.board.start(),
        );
        assert!(o.path.is_none());
    }
}
