//! Breadth-first search by sorted layers, on both cores.
//!
//! Moves are reversible (a piece's way back is a move too), so every
//! successor of a state in layer `d` lies in layer `d - 1`, `d` or `d + 1`:
//! duplicates are caught against those two layers alone, and no hash table
//! of every state is needed. Each layer is a sorted array of packed keys
//! with, per key, the fewest cells moved to reach it (the tie-break among
//! plans of equal length). A layer is built in chunks: the chunk's
//! successors are made on every core, sorted, and those already in the
//! two layers before are dropped by galloping through them; the chunks'
//! sorted runs are merged at the layer's end. The plan is read back from
//! the goal, layer by layer, through the predecessor that moved fewest
//! cells. With a spill directory ([`super::spill`]), older layers and a
//! wide layer's runs go to files, so memory holds the newest layers only.
//! A long search for the goal is bounded by a beam's plan once it has one
//! ([`Bound`]): the last layers, the widest, keep only what can still lead
//! to a plan no longer.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Instant;

use super::board::NONE;
use super::engine::{Engine, Flood};
use super::moves::Metric;
use super::search::{Outcome, unmirror};
use super::spill::{self, Record, Runs, Spilled};
use crate::solve::{Budget, Progress};

/// One sorted layer: keys, the fewest cells moved to reach each, and the
/// piece that moved last (dropped once the layer is expanded).
struct Layer<const K: usize> {
    keys: Vec<[u64; K]>,
    steps: Vec<u16>,
    moved: Vec<Moved>,
    /// The keys and steps, once written to a file ([`super::spill`]).
    disk: Option<Spilled<K>>,
}

/// The piece that moved into a state: its class and where it went. Every
/// other end of that piece's flood is a sibling, already found, so the
/// piece is not moved again from there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Moved {
    class: u16,
    to: u16,
}

pub(super) const NO_MOVE: Moved = Moved {
    class: u16::MAX,
    to: u16::MAX,
};

impl<const K: usize> Layer<K> {
    fn empty() -> Self {
        Layer {
            keys: Vec::new(),
            steps: Vec::new(),
            moved: Vec::new(),
            disk: None,
        }
    }

    /// The cells moved to reach `key`, if the layer holds it (an error
    /// only when a spilled layer cannot be read back).
    fn steps_of(&self, key: &[u64; K]) -> std::io::Result<Option<u16>> {
        match &self.disk {
            Some(d) => d.steps_of(key),
            None => Ok(self.keys.binary_search(key).ok().map(|i| self.steps[i])),
        }
    }

    /// Moves the keys and steps to a file in `dir`, keeping them in memory
    /// if it cannot be written.
    fn spill(&mut self, dir: &std::path::Path) {
        if self.disk.is_some() {
            return;
        }
        if let Ok(d) = Spilled::write(dir, &self.keys, &self.steps) {
            self.disk = Some(d);
            (self.keys, self.steps, self.moved) = (Vec::new(), Vec::new(), Vec::new());
        }
    }

    /// Bytes an entry takes: its key, cells moved and piece moved.
    const ENTRY: u64 = (8 * K + 2 + 4) as u64;

    fn bytes(&self) -> u64 {
        let disk = self.disk.as_ref().map_or(0, Spilled::bytes);
        (self.keys.capacity() * 8 * K + self.steps.capacity() * 2 + self.moved.capacity() * 4)
            as u64
            + disk
    }
}

/// A layer's successors once all are made: merged in memory, or sorted
/// runs in a file (with how many records) to merge once the older layers
/// are out of the way.
enum Built<const K: usize> {
    Ready(Layer<K>),
    OnDisk(Runs, u64),
}

/// A successor: its key, the cells moved to reach it, the piece moved.
type Rec<const K: usize> = ([u64; K], u16, Moved);

/// The most parents expanded between two checks of the budget: fewer for
/// wide keys, so a chunk's successors stay a small part of any budget.
const fn chunk(key_words: usize) -> usize {
    if key_words <= 2 {
        1 << 18
    } else {
        (1 << 19) / key_words
    }
}

/// How many parents a chunk takes, so that its successors, before their
/// duplicates go, stay a small part of the budget: judged by the most
/// records per parent seen so far in the search.
struct Scratch<const K: usize> {
    per_parent: f64,
}

impl<const K: usize> Default for Scratch<K> {
    fn default() -> Self {
        // `expand_part` starts with room for four successors a parent.
        Scratch { per_parent: 4.0 }
    }
}

impl<const K: usize> Scratch<K> {
    /// Of the budget, the share one chunk's successors may take (1/N).
    const SHARE: u64 = 16;

    /// Notes a chunk of `parents` whose successors took `records`.
    fn saw(&mut self, parents: usize, records: usize) {
        self.per_parent = self.per_parent.max(records as f64 / parents.max(1) as f64);
    }

    /// The parents of the next chunk, of `left` still to expand.
    fn parents(&self, budget: &Budget, left: usize) -> usize {
        let record = (self.per_parent * std::mem::size_of::<Rec<K>>() as f64).max(1.0);
        let fit = (budget.max_bytes / Self::SHARE) as f64 / record;
        (fit as usize).clamp(1, chunk(K)).min(left)
    }

    /// The bytes the next chunk's successors take at most.
    fn bytes(&self, budget: &Budget, left: usize) -> u64 {
        let records = self.parents(budget, left) as f64 * self.per_parent;
        (records * std::mem::size_of::<Rec<K>>() as f64) as u64
    }
}

/// With a spill directory, layers go to files once they hold this
/// fraction (1/N) of the budget.
const SPILL_FROM: u64 = 8;
/// Below this many parents a chunk is not split across threads.
const SPLIT: usize = 1 << 12;

/// The threads a layer is split over, asked of the system once: the
/// question reads the cgroup files, which cost more than a small layer.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get().min(8)))
}

/// What a search looks for.
#[derive(Clone, Debug)]
pub enum Aim {
    /// The special piece on the goal.
    Goal,
    /// The goal in at most this many moves: positions that cannot lead
    /// there that soon are dropped ([`Bound`]), so a search that ends
    /// with no plan proves only that none is this short.
    Within(u32),
    /// The special piece on a placement whose rank in the table (one per
    /// placement of its class) is below the bound: a step nearer the goal.
    /// With `near`, only pieces covering one of those cells move. With
    /// `clear`, a position where fewer than `blocked` cells of the best of
    /// those sets of cells are covered, with the special piece still on
    /// placement `at`, counts too (the cells it needs free for its next
    /// step).
    Closer {
        rank: Vec<u32>,
        below: u32,
        near: Option<Vec<usize>>,
        clear: Vec<Vec<usize>>,
        blocked: u32,
        at: u16,
    },
    /// Any of these states, the later ones preferred.
    States(Vec<Vec<u16>>),
    /// The goal by beam search ([`super::beam`]), then by hill climbing
    /// ([`super::greedy`]): a plan, not proven shortest.
    Climb,
    /// The rest of a plan (the positions after the start, in order): the
    /// one reached in the fewest moves fewer than the plan takes to it,
    /// searching as deep as the budget allows.
    Shortcut(Vec<Vec<u16>>),
}

/// An [`Aim`] in the search's terms: the rank table tested as the special
/// piece moves, and the target keys (with their preference) tested as
/// each layer is complete.
struct Targets<const K: usize> {
    rank: Vec<u32>,
    below: u32,
    keys: Vec<([u64; K], usize)>,
    limits: Limits,
}

/// What narrows a climb's search: the cells a piece must cover to move
/// (when not every piece may), and the sets of cells to clear.
#[derive(Clone, Debug, Default)]
pub(super) struct Limits {
    near: Option<Vec<u64>>,
    clear: Vec<Vec<u64>>,
    blocked: u32,
    at: u16,
    /// Successors whose lower bound is over this are dropped.
    within: Option<(Arc<Bound>, u32)>,
}

/// A lower bound on the moves left to the goal: one for the special piece
/// while it is off the goal, and one for each other piece on a cell that
/// every way of the special piece to the goal covers (it must leave
/// first). A move changes it by at most one, so a breadth-first search
/// that drops every position whose depth and bound add up to more than a
/// plan's length still meets every position of every plan that long or
/// shorter, each at its true depth.
#[derive(Debug)]
pub(super) struct Bound {
    /// Per placement of the special piece, those cells.
    must: Vec<Vec<u64>>,
    goal: u16,
    /// The special piece's slot.
    slot: usize,
}

impl Bound {
    /// The bound on `e`'s board, or `None` when the special piece has no
    /// goal or cannot move.
    pub(super) fn new<const W: usize>(e: &Engine<W>) -> Option<Bound> {
        let b = &e.board;
        let (k, goal) = (b.special, b.goal?);
        let c = &b.classes[k];
        if c.frozen || c.slots.len() != 1 {
            return None;
        }
        let n = c.anchors.len();
        let mut must = vec![vec![0u64; W]; n];
        // Per cell, the placements that reach the goal without covering
        // it (moves are reversible, so a search from the goal finds
        // them); the cell is on every way of the others.
        let (mut seen, mut todo) = (vec![false; n], Vec::new());
        for cell in 0..b.width * b.height {
            let covers = |p: usize| e.mask(k, p as u16)[cell / 64] >> (cell % 64) & 1 == 1;
            seen.fill(false);
            todo.clear();
            if !covers(goal as usize) {
                seen[goal as usize] = true;
                todo.push(goal as usize);
            }
            while let Some(p) = todo.pop() {
                for &t in &c.next[p] {
                    let t = t as usize;
                    if t != NONE as usize && !seen[t] && !covers(t) {
                        seen[t] = true;
                        todo.push(t);
                    }
                }
            }
            for (m, _) in must.iter_mut().zip(&seen).filter(|(_, s)| !**s) {
                m[cell / 64] |= 1 << (cell % 64);
            }
        }
        Some(Bound {
            must,
            goal,
            slot: c.slots.start,
        })
    }

    fn on<const W: usize>(e: &Engine<W>, slot: usize, p: u16, must: &[u64]) -> bool {
        e.mask(e.class_of(slot), p)
            .iter()
            .zip(must)
            .any(|(a, b)| a & b != 0)
    }

    /// The bound for state `s`.
    pub(super) fn lower<const W: usize>(&self, e: &Engine<W>, s: &[u16]) -> u32 {
        self.with_special_at(e, s, s[self.slot])
    }

    /// The bound for state `s` with the special piece at `at`.
    fn with_special_at<const W: usize>(&self, e: &Engine<W>, s: &[u16], at: u16) -> u32 {
        let must = &self.must[at as usize];
        let others = s
            .iter()
            .enumerate()
            .filter(|&(i, &p)| i != self.slot && Self::on(e, i, p, must))
            .count();
        u32::from(at != self.goal) + others as u32
    }

    /// The bound once the piece in `slot` of `s` (whose bound is `h`)
    /// moves to `q`.
    fn after<const W: usize>(&self, e: &Engine<W>, s: &[u16], h: u32, slot: usize, q: u16) -> u32 {
        if slot == self.slot {
            return self.with_special_at(e, s, q);
        }
        let must = &self.must[s[self.slot] as usize];
        h + u32::from(Self::on(e, slot, q, must)) - u32::from(Self::on(e, slot, s[slot], must))
    }
}

/// Cells as a bitset.
fn bitset(cells: &[usize]) -> Vec<u64> {
    let mut m = vec![0u64; cells.iter().max().map_or(1, |c| c / 64 + 1)];
    for &c in cells {
        m[c / 64] |= 1 << (c % 64);
    }
    m
}

impl Limits {
    /// How many cells of the best set to clear `occ` covers.
    fn blocked(&self, occ: &[u64]) -> u32 {
        self.clear
            .iter()
            .map(|m| m.iter().zip(occ).map(|(a, b)| (a & b).count_ones()).sum())
            .min()
            .unwrap_or(u32::MAX)
    }
}

impl<const K: usize> Targets<K> {
    fn new<const W: usize>(e: &Engine<W>, aim: &Aim) -> Self {
        let n = e.board.classes[e.board.special].anchors.len();
        let mut t = Targets {
            rank: vec![1; n],
            below: 1,
            keys: Vec::new(),
            limits: Limits::default(),
        };
        match aim {
            Aim::Goal | Aim::Within(_) | Aim::Climb => {
                if let Some(g) = e.board.goal {
                    t.rank[g as usize] = 0;
                }
            }
            Aim::Closer {
                rank,
                below,
                near,
                clear,
                blocked,
                at,
            } => {
                (t.rank, t.below) = (rank.clone(), *below);
                t.limits = Limits {
                    near: near.as_deref().map(bitset),
                    clear: clear.iter().map(|c| bitset(c)).collect(),
                    blocked: *blocked,
                    at: *at,
                    within: None,
                };
            }
            Aim::States(states) | Aim::Shortcut(states) => {
                t.below = 0;
                t.keys = states
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (e.pack::<K>(&canonical(e, s)), i))
                    .collect();
                t.keys.sort_unstable();
            }
        }
        t
    }

    fn hit(&self, special_at: u16) -> bool {
        self.rank
            .get(special_at as usize)
            .is_some_and(|&r| r < self.below)
    }

    /// The most preferred target in `layer`.
    fn in_layer(&self, layer: &Layer<K>) -> Option<([u64; K], usize)> {
        let mut g = Gallop::new(&layer.keys);
        self.keys
            .iter()
            .filter(|(k, _)| g.has(k))
            .max_by_key(|&&(_, i)| i)
            .copied()
    }
}

/// Breadth-first search by sorted layers from `start` (the board's own
/// start when `None`) to what `aim` asks for.
pub fn search<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    budget: &Budget,
    progress: &mut Progress,
    start: Option<&[u16]>,
    aim: &Aim,
) -> Outcome {
    let t = Instant::now();
    let start = start.map_or_else(|| e.board.start(), <[u16]>::to_vec);
    let targets = Targets::<K>::new(e, aim);
    let mut out = Outcome::default();
    let key = e.pack::<K>(&canonical(e, &start));
    let layers = vec![Layer {
        keys: vec![key],
        steps: vec![0],
        moved: vec![NO_MOVE],
        disk: None,
    }];
    let mut special = e.board.classes[e.board.special].slots.clone();
    let here = targets.in_layer(&layers[0]);
    if (matches!(aim, Aim::Goal | Aim::Within(_)) && e.board.is_goal(&start))
        || (matches!(aim, Aim::Closer { .. })
            && special.next().is_some_and(|i| targets.hit(start[i])))
        || here.is_some()
    {
        out.target = here.map(|(_, i)| i);
        out.path = Some(vec![start]);
        out.states = 1;
    } else {
        let mut run = Run {
            e,
            start: start.clone(),
            shortcut: match aim {
                Aim::Shortcut(rest) => Some(rest.len()),
                _ => None,
            },
            metric,
            targets: &targets,
            layers,
            within: match aim {
                Aim::Within(n) => Some(*n),
                _ => None,
            },
            bound: match aim {
                Aim::Within(_) => Bound::new(e).map(Arc::new),
                _ => None,
            },
            // Counting steps, a beam's plan was too long on Pelopones and
            // Lodzianka for the bound to drop a position: seconds lost.
            may_bound: matches!(aim, Aim::Goal) && metric == Metric::Pieces,
        };
        run.grow(budget, progress, &mut out);
    }
    out.ms = t.elapsed().as_secs_f64() * 1e3;
    out
}

/// A search under way: the engine, what it looks for, its layers.
struct Run<'a, const W: usize, const K: usize> {
    e: &'a Engine<W>,
    start: Vec<u16>,
    /// Under [`Aim::Shortcut`], how many positions follow the start.
    shortcut: Option<usize>,
    metric: Metric,
    targets: &'a Targets<K>,
    layers: Vec<Layer<K>>,
    /// The most moves a plan may take: what [`Aim::Within`] names, or a
    /// beam's plan's length once it has one (at most once, for
    /// [`Aim::Goal`] in piece moves past [`BOUND_FROM`] positions).
    within: Option<u32>,
    /// The bound that drops what cannot lead to a plan that short.
    bound: Option<Arc<Bound>>,
    /// Whether a beam may still be asked for that plan.
    may_bound: bool,
}

/// Positions a search for the goal stores before a beam is asked for a
/// plan whose length bounds the rest of it: searches this small finish
/// sooner than a beam would help.
const BOUND_FROM: u64 = 20_000_000;

/// How long that beam may take (Shark's takes a second; one that takes
/// longer finds a plan too long to bound much, as Pelopones' 51 moves
/// against its 25).
const BOUND_BEAM: std::time::Duration = std::time::Duration::from_secs(2);

impl<const W: usize, const K: usize> Run<'_, W, K> {
    /// Builds layer after layer until a target, the end of the space, or
    /// the budget.
    fn grow(&mut self, budget: &Budget, progress: &mut Progress, out: &mut Outcome) {
        let mut held: u64 = self.layers.iter().map(Layer::bytes).sum();
        // Aim::Shortcut: the best target so far, (gain, depth, key, index).
        let mut best: Option<(usize, usize, [u64; K], usize)> = None;
        // Of the records a layer's runs on disk held, the share that were
        // new positions (1 until a layer is merged from disk).
        let mut unique = 1.0;
        let mut scratch = Scratch::<K>::default();
        out.states = 1;
        loop {
            let d = self.layers.len() - 1;
            if self.within.is_some_and(|n| d as u32 + 1 > n) {
                // No plan within the bound: every layer it allows is done.
                out.proven = d as u32 + 1;
                return self.take_best(best, out);
            }
            let more = self.shortcut.is_none_or(|n| d + 1 < n);
            let step = if more {
                self.next_layer(budget, progress, held, unique, &mut scratch, out)
            } else {
                None
            };
            let Some((built, mut goals, bytes)) = step else {
                out.proven = d as u32 + 1;
                return self.take_best(best, out);
            };
            out.bytes = out.bytes.max(held + bytes);
            // The layer before is needed no more, nor the pieces moved
            // into this one.
            self.layers[d].moved = Vec::new();
            let next = match built {
                Built::Ready(next) => next,
                Built::OnDisk(file, count) => {
                    self.spill_before(d);
                    let Some(next) = merge_from(file, count as usize) else {
                        out.proven = d as u32 + 1;
                        return self.take_best(best, out);
                    };
                    unique = next.keys.len() as f64 / count.max(1) as f64;
                    next
                }
            };
            if next.keys.is_empty() {
                // Under a bound only what it keeps is exhausted: no plan
                // is that short.
                match self.within {
                    None => out.exhausted = true,
                    Some(n) => out.proven = n + 1,
                }
                return self.take_best(best, out);
            }
            out.states += next.keys.len() as u64;
            out.proven = d as u32 + 2;
            self.layers.push(next);
            held = self.layers.iter().map(Layer::bytes).sum();
            out.bytes = out.bytes.max(held);
            if self.may_bound && out.states > BOUND_FROM {
                self.find_bound(budget, held, out);
            }
            held = self.spill_old(budget, held);
            let last = &self.layers[d + 1];
            if self.shortcut.is_some() {
                // Every target in this layer: keep the one that saves most.
                if let Some((k, i)) = self.targets.in_layer(last) {
                    let gain = (i + 1).saturating_sub(d + 1);
                    if gain > 0 && best.is_none_or(|b| gain > b.0) {
                        best = Some((gain, d + 1, k, i));
                    }
                }
                continue;
            }
            let found = match self.targets.in_layer(last) {
                Some((k, i)) => {
                    out.target = Some(i);
                    Some(k)
                }
                None => best_goal(last, &mut goals),
            };
            if let Some(g) = found {
                out.proven = d as u32 + 1;
                out.path = read_back(self.e, self.metric, &self.layers, g, &self.start);
                return;
            }
        }
    }

    /// Asks a beam for a plan (once), to bound the rest of the search by
    /// its length: the widest layers come last, and most of their
    /// positions cannot lead to a plan as short as one already found.
    fn find_bound(&mut self, budget: &Budget, held: u64, out: &mut Outcome) {
        self.may_bound = false;
        let soon = Instant::now() + BOUND_BEAM;
        let quick = Budget {
            max_bytes: budget.max_bytes.saturating_sub(held) / 4,
            deadline: Some(budget.deadline.map_or(soon, |d| d.min(soon))),
            ..*budget
        };
        let o = super::beam::beam::<W, K>(
            self.e,
            self.metric,
            super::beam::Keep::Best,
            &quick,
            &mut Progress::quiet(),
            &self.start,
        );
        out.bytes = out.bytes.max(held + o.bytes);
        if let Some(path) = o.path {
            // One move of the metric a position, either way.
            self.within = Some((path.len() - 1) as u32);
            self.bound = Bound::new(self.e).map(Arc::new);
        }
    }

    /// The limits on the successors of layer `d`'s positions.
    fn limits_for(&self, d: usize) -> Cow<'_, Limits> {
        match (&self.bound, self.within) {
            (Some(b), Some(length)) => Cow::Owned(Limits {
                within: Some((b.clone(), length.saturating_sub(d as u32 + 1))),
                ..self.targets.limits.clone()
            }),
            _ => Cow::Borrowed(&self.targets.limits),
        }
    }

    /// Under [`Aim::Shortcut`], the way to the target that saves most.
    fn take_best(&self, best: Option<(usize, usize, [u64; K], usize)>, out: &mut Outcome) {
        if let Some((_, depth, key, i)) = best {
            let layers = &self.layers[..=depth];
            out.path = read_back(self.e, self.metric, layers, key, &self.start);
            out.target = Some(i);
        }
    }

    /// With a spill directory, once the layers hold an eighth of the
    /// budget (the rest is for the next layer's successors): every layer
    /// but the last two (the only ones the next layer is checked against)
    /// moved to files. The bytes then held.
    fn spill_old(&mut self, budget: &Budget, held: u64) -> u64 {
        if spill::dir().is_none() || held <= budget.max_bytes / SPILL_FROM {
            return held;
        }
        self.spill_before(self.layers.len().saturating_sub(2));
        self.layers.iter().map(Layer::bytes).sum()
    }

    /// Moves every layer before layer `d` to files, with a spill directory.
    fn spill_before(&mut self, d: usize) {
        if let Some(dir) = spill::dir() {
            for layer in &mut self.layers[..d] {
                layer.spill(dir);
            }
        }
    }

    /// The next layer (with the goals found in it and the bytes its runs
    /// held), or `None` when the budget ran out first.
    fn next_layer(
        &self,
        budget: &Budget,
        progress: &mut Progress,
        held: u64,
        unique: f64,
        scratch: &mut Scratch<K>,
        out: &mut Outcome,
    ) -> Option<(Built<K>, Vec<[u64; K]>, u64)> {
        let d = self.layers.len() - 1;
        let empty = Layer::empty();
        let prev = if d > 0 { &self.layers[d - 1] } else { &empty };
        let cur = &self.layers[d];
        let mut runs: Vec<Vec<Rec<K>>> = Vec::new();
        let mut goals: Vec<[u64; K]> = Vec::new();
        let mut run_bytes = 0u64;
        // A wide layer's runs go to a file as they come (when older layers
        // do): the merge then fills the layer from the file, so the layer
        // and its runs are never in memory together.
        let mut disk = spill::dir()
            .filter(|_| held > budget.max_bytes / SPILL_FROM)
            .and_then(|dir| Runs::new(dir).ok());
        let mut on_disk = 0u64;
        let mut start = 0;
        let limits = self.limits_for(d);
        while start < cur.keys.len() {
            // The chunk's successors, before their duplicates go, come
            // beside what is held.
            let left = cur.keys.len() - start;
            if held + run_bytes + scratch.bytes(budget, left) > budget.max_bytes {
                return None;
            }
            let at = start..start + scratch.parents(budget, left);
            start = at.end;
            let part = (
                &cur.keys[at.clone()],
                &cur.steps[at.clone()],
                &cur.moved[at.clone()],
            );
            let mut made = 0;
            for (run, g, peak) in self.expand_chunk(part, (prev, cur), &limits) {
                goals.extend(g);
                run_bytes += (run.capacity() * std::mem::size_of::<Rec<K>>()) as u64;
                runs.push(run);
                made += peak;
            }
            scratch.saw(at.len(), made);
            // Runs that would outgrow the budget in memory go to a file,
            // with a spill directory, from here to the layer's end.
            if disk.is_none() && held + 2 * run_bytes > budget.max_bytes / 2 {
                disk = spill::dir().and_then(|dir| Runs::new(dir).ok());
            }
            if let Some(file) = disk.as_mut() {
                for run in runs.drain(..) {
                    file.push(&run).ok()?;
                    on_disk += run.len() as u64;
                }
                run_bytes = 0;
            }
            let states = out.states + on_disk + runs.iter().map(|r| r.len() as u64).sum::<u64>();
            progress.report("klotski", states, d as u32 + 1);
            let merging = merging_bytes(cur, disk.is_some(), held, on_disk, unique);
            // The merge copies the runs in memory.
            if (held + 2 * run_bytes).max(merging) > budget.max_bytes
                || states > budget.state_cap()
                || budget.deadline.is_some_and(|t| Instant::now() >= t)
            {
                return None;
            }
        }
        let built = match disk {
            Some(file) => Built::OnDisk(file, on_disk),
            None => Built::Ready(merge(runs)),
        };
        Some((built, goals, run_bytes))
    }

    /// The successors of `parents` that are in neither `prev` nor `cur`,
    /// as sorted runs (one per thread), and the targets among them.
    fn expand_chunk(
        &self,
        parents: Parents<'_, K>,
        (prev, cur): (&Layer<K>, &Layer<K>),
        limits: &Limits,
    ) -> Vec<(Vec<Rec<K>>, Vec<[u64; K]>, usize)> {
        let n = parents.0.len();
        let threads = if n < SPLIT { 1 } else { cores() };
        if threads < 2 {
            return vec![self.expand_part(parents, (prev, cur), limits)];
        }
        let per = n.div_ceil(threads);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..n)
                .step_by(per)
                .map(|i| {
                    let r = i..(i + per).min(n);
                    let part = (&parents.0[r.clone()], &parents.1[r.clone()], &parents.2[r]);
                    scope.spawn(move || self.expand_part(part, (prev, cur), limits))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
                .collect()
        })
    }

    /// One thread's share of a chunk, and the records its successors took
    /// before their duplicates went.
    fn expand_part(
        &self,
        (keys, steps, moved): Parents<'_, K>,
        (prev, cur): (&Layer<K>, &Layer<K>),
        limits: &Limits,
    ) -> (Vec<Rec<K>>, Vec<[u64; K]>, usize) {
        debug_assert!(prev.disk.is_none() && cur.disk.is_none(), "a spilled layer");
        let mut x = Expander::default();
        let mut run: Vec<Rec<K>> = Vec::with_capacity(keys.len() * 4);
        let mut goals = Vec::new();
        for ((key, &here), &last) in keys.iter().zip(steps).zip(moved) {
            // Under `steps` the moved piece's way back is its only sibling
            // move, so it is skipped only under `pieces`.
            let skip = if self.metric == Metric::Pieces {
                last
            } else {
                NO_MOVE
            };
            x.each(
                self.e,
                self.metric,
                key,
                skip,
                limits,
                |next, d, how, special_at, cleared| {
                    run.push((next, here.saturating_add(d), how));
                    if cleared || special_at.is_some_and(|q| self.targets.hit(q)) {
                        goals.push(next);
                    }
                },
            );
        }
        let peak = run.capacity();
        run.sort_unstable_by_key(|r| r.0);
        run.dedup_by(fewest_cells);
        let (mut p, mut c) = (Gallop::new(&prev.keys), Gallop::new(&cur.keys));
        run.retain(|(k, _, _)| !p.has(k) && !c.has(k));
        run.shrink_to_fit();
        (run, goals, peak)
    }
}

/// The bytes in memory as a layer's runs merge: with the runs on disk
/// (`on_disk` records), only this layer's keys and steps stay beside the
/// new layer, about one entry per new position, judged by the last
/// merge's share of new positions (a tenth more); in memory, `held`.
fn merging_bytes<const K: usize>(
    cur: &Layer<K>,
    disk: bool,
    held: u64,
    on_disk: u64,
    unique: f64,
) -> u64 {
    if !disk {
        return held;
    }
    let filling = (on_disk as f64 * (unique * 1.1).min(1.0)) as u64 * Layer::<K>::ENTRY;
    (cur.keys.capacity() * 8 * K + cur.steps.capacity() * 2) as u64 + filling
}

/// The goal reached with fewest cells moved, among those found.
fn best_goal<const K: usize>(layer: &Layer<K>, goals: &mut [[u64; K]]) -> Option<[u64; K]> {
    goals.sort_unstable();
    goals
        .iter()
        .filter_map(|g| layer.steps_of(g).ok().flatten().map(|s| (s, *g)))
        .min()
        .map(|(_, g)| g)
}

/// A run of parents: their keys, cells moved, and last pieces moved.
type Parents<'a, const K: usize> = (&'a [[u64; K]], &'a [u16], &'a [Moved]);

/// For `dedup_by` over records sorted by key: drops `later` when it has
/// `kept`'s key, keeping the fewer cells moved of the two.
fn fewest_cells<const K: usize>(later: &mut Rec<K>, kept: &mut Rec<K>) -> bool {
    let same = later.0 == kept.0;
    if same && later.1 < kept.1 {
        (kept.1, kept.2) = (later.1, later.2);
    }
    same
}

/// Merges sorted runs into one layer, keeping each key's fewest cells.
fn merge<const K: usize>(runs: Vec<Vec<Rec<K>>>) -> Layer<K> {
    let mut all: Vec<Rec<K>> = if runs.len() == 1 {
        runs.into_iter().next().unwrap_or_default()
    } else {
        let mut all = Vec::with_capacity(runs.iter().map(Vec::len).sum());
        for r in runs {
            all.extend_from_slice(&r);
        }
        // A stable sort finds the sorted runs and merges them.
        all.sort_by_key(|r| r.0);
        all
    };
    all.dedup_by(fewest_cells);
    let mut layer = Layer {
        keys: Vec::with_capacity(all.len()),
        steps: Vec::with_capacity(all.len()),
        moved: Vec::with_capacity(all.len()),
        disk: None,
    };
    for (k, s, m) in all {
        layer.keys.push(k);
        layer.steps.push(s);
        layer.moved.push(m);
    }
    layer
}

/// A layer merged from its runs on disk (`count` records), keeping each
/// key's fewest cells; `None` if the file cannot be read back.
fn merge_from<const K: usize>(file: Runs, count: usize) -> Option<Layer<K>> {
    let mut layer = Layer {
        keys: Vec::with_capacity(count),
        steps: Vec::with_capacity(count),
        moved: Vec::with_capacity(count),
        disk: None,
    };
    // Records come by key, then cells moved: the first of a key is kept.
    file.merge(|(k, s, m): Rec<K>| {
        if layer.keys.last() != Some(&k) {
            layer.keys.push(k);
            layer.steps.push(s);
            layer.moved.push(m);
        }
    })
    .ok()?;
    // Pages past the end were never touched; this gives back the address
    // space.
    layer.keys.shrink_to_fit();
    layer.steps.shrink_to_fit();
    layer.moved.shrink_to_fit();
    Some(layer)
}

impl<const K: usize> Record for Rec<K> {
    const SIZE: usize = 8 * K + 6;

    fn put(&self, out: &mut Vec<u8>) {
        spill::put_key(&self.0, out);
        out.extend_from_slice(&self.1.to_le_bytes());
        out.extend_from_slice(&self.2.class.to_le_bytes());
        out.extend_from_slice(&self.2.to.to_le_bytes());
    }

    fn get(b: &[u8]) -> Self {
        let key = spill::get_key::<K>(b);
        let u = |i: usize| u16::from_le_bytes([b[8 * K + i], b[8 * K + i + 1]]);
        (
            key,
            u(0),
            Moved {
                class: u(2),
                to: u(4),
            },
        )
    }
}

/// Membership tests for ascending keys in a sorted slice, galloping from
/// the last answer.
struct Gallop<'a, T> {
    keys: &'a [T],
    at: usize,
}

impl<'a, T: Ord> Gallop<'a, T> {
    fn new(keys: &'a [T]) -> Self {
        Gallop { keys, at: 0 }
    }

    fn has(&mut self, key: &T) -> bool {
        let rest = &self.keys[self.at..];
        let mut hi = 1;
        while hi < rest.len() && rest[hi] < *key {
            hi *= 2;
        }
        let hi = hi.min(rest.len());
        self.at += rest[..hi].partition_point(|k| k < key);
        self.keys.get(self.at) == Some(key)
    }
}

/// The path from the start to `goal` as states a player goes through:
/// from each state, the predecessor one layer up that moved fewest cells.
/// `None` only when a spilled layer cannot be read back.
fn read_back<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    layers: &[Layer<K>],
    goal: [u64; K],
    start: &[u16],
) -> Option<Vec<Vec<u16>>> {
    let mut x = Expander::default();
    let mut keys = vec![goal];
    let mut at = goal;
    for d in (0..layers.len() - 1).rev() {
        let mut best: Option<(u16, [u64; K])> = None;
        let mut unread = false;
        x.each(
            e,
            metric,
            &at,
            NO_MOVE,
            &Limits::default(),
            |next, dist, _, _, _| match layers[d].steps_of(&next) {
                Ok(Some(s)) => {
                    let cand = (s.saturating_add(dist), next);
                    if best.is_none_or(|b| cand < b) {
                        best = Some(cand);
                    }
                }
                Ok(None) => {}
                Err(_) => unread = true,
            },
        );
        if unread {
            return None;
        }
        // Moves are reversible, so a state of layer d + 1 always has one.
        at = best.map_or(at, |(_, k)| k);
        keys.push(at);
    }
    keys.reverse();
    // The first key may be the start's mirror image; the path begins where
    // the player is.
    let path: Vec<Vec<u16>> = std::iter::once(start.to_vec())
        .chain(keys[1..].iter().map(|k| {
            let mut s = Vec::new();
            e.unpack(k, &mut s);
            s
        }))
        .collect();
    Some(unmirror(e, metric, path))
}

/// The state, or its mirror image when that packs smaller.
pub(super) fn canonical<const W: usize>(e: &Engine<W>, s: &[u16]) -> Vec<u16> {
    let Some(m) = &e.mirror else {
        return s.to_vec();
    };
    let mut f = Vec::new();
    m.state(s, &mut f);
    if e.pack::<16>(&f) < e.pack::<16>(s) {
        f
    } else {
        s.to_vec()
    }
}

/// Reused buffers for listing a state's successors.
#[derive(Default)]
pub(super) struct Expander {
    s: Vec<u16>,
    ms: Vec<u16>,
    flood: Flood,
}

/// True when one move under `metric` takes `from` to `to` (packed
/// canonical keys): what the tests of plans check along a path.
#[cfg(test)]
pub(super) fn one_move_apart<const W: usize, const K: usize>(
    e: &Engine<W>,
    metric: Metric,
    from: &[u64; K],
    to: &[u64; K],
) -> bool {
    let mut found = false;
    Expander::default().each(
        e,
        metric,
        from,
        NO_MOVE,
        &Limits::default(),
        |n, _, _, _, _| {
            found |= n == *to;
        },
    );
    found
}

impl Expander {
    /// Calls `f(key, cells moved, piece moved, where the special piece
    /// went if it moved)` for every successor of `key` under `metric` but
    /// those of the piece `skip` and of pieces `limits` keeps still; each
    /// packed in canonical form, and said to clear a cell when `limits`
    /// has cells to clear and the move leaves fewer of them covered.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn each<const W: usize, const K: usize>(
        &mut self,
        e: &Engine<W>,
        metric: Metric,
        key: &[u64; K],
        skip: Moved,
        limits: &Limits,
        mut f: impl FnMut([u64; K], u16, Moved, Option<u16>, bool),
    ) {
        let limit = metric.reach();
        e.unpack(key, &mut self.s);
        let s = &self.s;
        let mkey = e.mirror.as_ref().map(|m| {
            m.state_to_pack(s, &mut self.ms);
            e.pack::<K>(&self.ms)
        });
        let occ = e.occupied(s);
        let special = e.board.classes[e.board.special].slots.clone().next();
        let within = limits
            .within
            .as_ref()
            .map(|(b, most)| (b, *most, b.lower(e, s)));
        for slot in 0..s.len() {
            let k = e.class_of(slot);
            if (usize::from(skip.class) == k && s[slot] == skip.to)
                || limits
                    .near
                    .as_ref()
                    .is_some_and(|m| !e.covers_any(k, s[slot], m))
                || !e.may_move(s, &occ, slot)
            {
                continue;
            }
            e.flood(s, &occ, slot, limit, &mut self.flood);
            let range = e.board.classes[k].slots.clone();
            for &(q, d) in self.flood.reached() {
                if within.is_some_and(|(b, most, h)| b.after(e, s, h, slot, q) > most) {
                    continue;
                }
                // Only this class's slots change, and of them only those
                // between the piece's old rank and its new one.
                let mut next = *key;
                e.reslot(&mut next, range.clone(), s, slot, q);
                let mut how = Moved {
                    class: k as u16,
                    to: q,
                };
                if let (Some(m), Some(mkey)) = (&e.mirror, mkey) {
                    // Keep the smaller of the state and its mirror image.
                    let k2 = m.class[k];
                    let flip = &m.placement[k];
                    let old = flip[s[slot] as usize];
                    let mut mirrored = mkey;
                    if !e.move_in_set(&mut mirrored, k2, old, flip[q as usize]) {
                        let to = e.board.classes[k2].slots.clone();
                        let at = to.start
                            + self.ms[to.clone()]
                                .iter()
                                .position(|&v| v == old)
                                .expect("the mirror image holds the piece's flipped placement");
                        e.reslot(&mut mirrored, to, &self.ms, at, flip[q as usize]);
                    }
                    if mirrored < next {
                        next = mirrored;
                        how = Moved {
                            class: k2 as u16,
                            to: flip[q as usize],
                        };
                    }
                }
                let special_at = (k == e.board.special).then_some(q);
                let cleared = special_at.is_none()
                    && !limits.clear.is_empty()
                    && special.is_some_and(|i| s[i] == limits.at)
                    && limits.blocked(&e.moved_occupancy(&occ, k, s[slot], q)) < limits.blocked;
                f(
                    next,
                    d.min(u32::from(u16::MAX)) as u16,
                    how,
                    special_at,
                    cleared,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Aim, Bound, Budget, SPLIT, Scratch, chunk};
    use crate::engines::blocks::board::Board;
    use crate::engines::blocks::engine::{Engine, Flood};
    use crate::engines::blocks::plan::{Plan, plan_for};
    use crate::engines::blocks::{Layout, Metric};
    use crate::solve::Progress;

    const LEVELS: [&str; 3] = [
        "######\n#*ab #\n#cd  #\n#   .#\n######\n",
        "#######\n#**ab #\n#**cd #\n#ee f #\n#g  ..#\n#h  ..#\n#######\n",
        "########\n#ab**cd#\n#ef**gh#\n#i    j#\n#k ..  #\n#l ..  #\n########\n",
    ];

    fn plan(l: &Layout, metric: Metric, aim: &Aim) -> (Option<Plan>, u64, (bool, u32)) {
        let p =
            plan_for(l, metric, &Budget::default(), &mut Progress::quiet(), aim).expect("plans");
        let o = p.outcome;
        (p.plan, o.states, (o.exhausted, o.proven))
    }

    #[test]
    fn the_bound_after_a_move_is_the_bound_of_the_position_it_reaches_and_at_most_one_less() {
        for text in LEVELS {
            let e = Engine::<1>::new(Board::new(&Layout::parse(text, "t").expect("a layout")));
            let b = Bound::new(&e).expect("a goal");
            // Every position of a few moves from the start, and each move.
            let mut todo = vec![e.board.start()];
            let mut f = Flood::default();
            for _ in 0..200 {
                let Some(s) = todo.pop() else { break };
                let h = b.lower(&e, &s);
                let occ = e.occupied(&s);
                for slot in 0..s.len() {
                    e.flood(&s, &occ, slot, u32::MAX, &mut f);
                    for &(q, _) in f.reached() {
                        let mut t = s.clone();
                        t[slot] = q;
                        let after = b.after(&e, &s, h, slot, q);
                        assert_eq!(after, b.lower(&e, &t), "{text}");
                        assert!(h <= after + 1, "{text}: {h} then {after}");
                        if todo.len() < 50 {
                            todo.push(t);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn a_search_within_the_optimum_finds_it_in_fewer_positions_and_one_move_less_finds_none() {
        let mut dropped = 0;
        for text in LEVELS {
            let l = Layout::parse(text, "t").expect("a layout");
            for metric in [Metric::Pieces, Metric::Steps] {
                let (best, states, _) = plan(&l, metric, &Aim::Goal);
                let best = best.expect("a plan");
                // The plan's length in the metric searched.
                let n = match metric {
                    Metric::Pieces => best.moves.len(),
                    Metric::Steps => best.steps,
                } as u32;
                let (within, fewer, _) = plan(&l, metric, &Aim::Within(n));
                let within = within.expect("a plan within the optimum");
                assert_eq!(
                    (within.moves.len(), within.steps),
                    (best.moves.len(), best.steps)
                );
                assert!(
                    within.optimal && fewer <= states,
                    "{text}: {fewer} > {states}"
                );
                dropped += states - fewer;
                let (none, _, (exhausted, proven)) = plan(&l, metric, &Aim::Within(n - 1));
                assert!(none.is_none() && !exhausted, "{text} {metric:?}: {none:?}");
                assert_eq!(proven, n, "{text} {metric:?}: no plan of {} moves", n - 1);
            }
        }
        assert!(dropped > 0, "the bound dropped no position");
    }

    #[test]
    fn the_bound_counts_each_piece_on_the_special_piece_s_only_way() {
        // The special piece's only way is along the bottom row: a and b sit
        // on it, c does not.
        let e = Engine::<1>::new(Board::new(
            &Layout::parse("#######\n#*ab .#\n###c###\n#######\n", "t").expect("a layout"),
        ));
        let b = Bound::new(&e).expect("a goal");
        assert_eq!(b.lower(&e, &e.board.start()), 3);
    }

    #[test]
    fn a_chunk_of_successors_takes_at_most_its_share_of_the_budget() {
        let budget = Budget {
            max_bytes: 64 << 20,
            ..Budget::default()
        };
        let mut s = Scratch::<2>::default();
        s.saw(1000, 30_000);
        let n = s.parents(&budget, usize::MAX);
        assert!((SPLIT..=chunk(2)).contains(&n), "{n}");
        let share = budget.max_bytes / Scratch::<2>::SHARE;
        assert!(s.bytes(&budget, usize::MAX) <= share);
        // More successors a parent: fewer parents a chunk.
        s.saw(1000, 60_000);
        assert!(s.parents(&budget, usize::MAX) < n);
        // Never more than are left, and at least one.
        assert_eq!(s.parents(&budget, 10), 10);
        let tiny = Budget {
            max_bytes: 1 << 10,
            ..Budget::default()
        };
        assert_eq!(s.parents(&tiny, usize::MAX), 1);
    }
}
