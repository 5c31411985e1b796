//! Optimal plans for a [`Layout`]: the dedicated search run on the board's
//! size (bitboards of 1, 2 or 6 words, keys of 2, 4 or 16 words), then the
//! canonical states turned back into moves of labelled pieces, each with
//! the cell to grab and a shortest path with the others fixed.

use super::beam::{self, Keep};
use super::board::Board;
use super::engine::Engine;
use super::greedy;
use super::layers::{self, Aim};
use super::layout::{Floor, Layout};
use super::moves::{Dir, Metric, Move, parse_move};
use super::search::Outcome;
use crate::solve::{Budget, Progress};

/// The largest packed key, in bits.
pub const MAX_KEY_BITS: u32 = 1024;

/// A plan found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub moves: Vec<Move>,
    /// Proven optimal under the metric it was searched for.
    pub optimal: bool,
    /// Cells moved in all.
    pub steps: usize,
}

/// How planning ended: the plan if one was found, and the search's figures.
#[derive(Clone, Debug)]
pub struct Planned {
    pub plan: Option<Plan>,
    pub outcome: Outcome,
}

/// Why a position cannot be planned or a move played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlocksError {
    #[error("the position needs {0} bits per state; the engine packs at most {MAX_KEY_BITS}")]
    TooManyBits(u32),
    #[error("{0}")]
    IllegalMove(String),
}

macro_rules! dispatch {
    ($board:expr, $args:expr; $(($w:literal, $k:literal)),*) => {{
        let words = ($board.width * $board.height).div_ceil(64);
        let keys = ($board.key_bits as usize).div_ceil(64).max(1);
        let w = if words <= 1 { 1 } else if words <= 2 { 2 } else { 6 };
        let k = match keys { 1 => 1, 2 => 2, 3..=4 => 4, 5..=8 => 8, _ => 16 };
        match (w, k) {
            $(($w, $k) => run::<$w, $k>(&Engine::<$w>::new($board), $args),)*
            _ => unreachable!("sizes are 1, 2 or 6 words and 1, 2, 4, 8 or 16 key words"),
        }
    }};
}

/// The dedicated search on a compiled board, with bitboards and keys
/// sized to it, from `start` (the board's own when `None`) to `aim`.
pub fn search_board(
    board: Board,
    metric: Metric,
    budget: &Budget,
    progress: &mut Progress,
    start: Option<&[u16]>,
    aim: &Aim,
) -> Result<Outcome, BlocksError> {
    if board.key_bits > MAX_KEY_BITS {
        return Err(BlocksError::TooManyBits(board.key_bits));
    }
    Ok(dispatch!(board, (metric, budget, progress, start, aim);
        (1, 1), (1, 2), (1, 4), (1, 8), (1, 16), (2, 1), (2, 2), (2, 4), (2, 8), (2, 16),
        (6, 1), (6, 2), (6, 4), (6, 8), (6, 16)))
}

/// The search's arguments, as [`dispatch`] hands them on.
type Args<'a, 'p> = (
    Metric,
    &'a Budget,
    &'p mut Progress,
    Option<&'a [u16]>,
    &'a Aim,
);

fn run<const W: usize, const K: usize>(e: &Engine<W>, a: Args<'_, '_>) -> Outcome {
    match a.4 {
        Aim::Climb => any_plan::<W, K>(e, a),
        _ => layers::search::<W, K>(e, a.0, a.1, a.2, a.3, a.4),
    }
}

/// A plan, not proven shortest: by beam search, and where no beam gets
/// there in the budget, by hill climbing from the board's start.
fn any_plan<const W: usize, const K: usize>(e: &Engine<W>, a: Args<'_, '_>) -> Outcome {
    let (metric, budget, progress, from, _) = a;
    let start = from.map_or_else(|| e.board.start(), <[u16]>::to_vec);
    let mut o = beam::beam::<W, K>(e, metric, Keep::Best, budget, progress, &start);
    let late = || {
        budget
            .deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
    };
    // A beam counting piece moves gets further where many cells are one
    // move, and its plan is a plan in steps too. Beams keeping novel
    // positions first come last, as their plans are longer where the
    // others get there too; they count piece moves, as one counting steps
    // crosses a plateau too slowly to be worth its time.
    let mut rest = vec![Keep::Novel];
    if metric == Metric::Steps {
        rest.insert(0, Keep::Best);
    }
    for keep in rest {
        if o.path.is_some() || late() {
            break;
        }
        // Under a deadline a novel beam, which may stall long, takes half
        // of what is left, so that the climb keeps its chance.
        let b = match (keep, budget.deadline) {
            (Keep::Novel, Some(d)) => {
                let now = std::time::Instant::now();
                Budget {
                    deadline: Some(now + d.saturating_duration_since(now) / 2),
                    ..*budget
                }
            }
            _ => *budget,
        };
        pieces_beam::<W, K>(e, (metric, &b, &mut *progress), keep, &start, &mut o);
    }
    if o.path.is_none() && !late() && from.is_none() {
        let c = greedy::climb::<W, K>(e, metric, budget, progress);
        (o.path, o.ms) = (c.path, o.ms + c.ms);
        o.states += c.states;
        o.bytes = o.bytes.max(c.bytes);
    }
    o
}

/// A beam counting piece moves, keeping what `keep` says: its plan (taken
/// cell by cell where `metric` counts steps) and its figures, added to
/// `o`.
fn pieces_beam<const W: usize, const K: usize>(
    e: &Engine<W>,
    (metric, budget, progress): (Metric, &Budget, &mut Progress),
    keep: Keep,
    start: &[u16],
    o: &mut Outcome,
) {
    let p = beam::beam::<W, K>(e, Metric::Pieces, keep, budget, progress, start);
    (o.states, o.bytes, o.ms) = (o.states + p.states, o.bytes.max(p.bytes), o.ms + p.ms);
    let Some(path) = p.path else {
        return;
    };
    o.path = match metric {
        Metric::Pieces => Some(path),
        Metric::Steps => greedy::cell_by_cell(&e.board, &path)
            .map(|steps| greedy::polish::<W, K>(e, metric, budget, steps, o)),
    };
}

/// An optimal plan under `metric`, or why there is none.
pub fn plan(
    layout: &Layout,
    metric: Metric,
    budget: &Budget,
    progress: &mut Progress,
) -> Result<Planned, BlocksError> {
    plan_for(layout, metric, budget, progress, &Aim::Goal)
}

/// An optimal plan under `metric` on `board`, compiled from `layout`.
pub fn plan_on(
    board: Board,
    layout: &Layout,
    metric: Metric,
    budget: &Budget,
    progress: &mut Progress,
) -> Result<Planned, BlocksError> {
    planned(
        board,
        layout,
        (metric, budget, progress, None, &Aim::Goal),
        true,
    )
}

/// A plan for `aim` ([`Aim::Goal`]: optimal; [`Aim::Climb`]: any plan,
/// found where the optimal search cannot finish).
pub fn plan_for(
    layout: &Layout,
    metric: Metric,
    budget: &Budget,
    progress: &mut Progress,
    aim: &Aim,
) -> Result<Planned, BlocksError> {
    let board = Board::new(layout);
    let optimal = !matches!(aim, Aim::Climb);
    planned(
        board,
        layout,
        (metric, budget, progress, None, aim),
        optimal,
    )
}

/// The fewest moves from `layout` to any of `targets` (positions of the
/// same puzzle), the later ones preferred among equally near: the plan,
/// and which target it ends on.
pub fn plan_join(
    layout: &Layout,
    metric: Metric,
    budget: &Budget,
    progress: &mut Progress,
    targets: &[Layout],
) -> Result<(Planned, Option<usize>), BlocksError> {
    let board = Board::new(layout);
    let (index, states): (Vec<usize>, Vec<Vec<u16>>) = targets
        .iter()
        .enumerate()
        .filter_map(|(i, t)| board.state_of(t).map(|s| (i, s)))
        .unzip();
    let aim = Aim::States(states);
    let p = planned(board, layout, (metric, budget, progress, None, &aim), false)?;
    let reached = p.outcome.target.map(|t| index[t]);
    Ok((p, reached))
}

/// Runs the search on `board` (compiled from `layout`) and labels the
/// path it finds.
fn planned(
    board: Board,
    layout: &Layout,
    args: Args<'_, '_>,
    optimal: bool,
) -> Result<Planned, BlocksError> {
    let b = board.clone();
    let outcome = search_board(board, args.0, args.1, args.2, args.3, args.4)?;
    let plan = outcome.path.as_ref().map(|p| {
        let moves = label_moves(&b, layout, p);
        Plan {
            steps: moves.iter().map(|m| m.path.len()).sum(),
            moves,
            optimal,
        }
    });
    Ok(Planned { plan, outcome })
}

/// The canonical states of a path as moves of labelled pieces.
fn label_moves(b: &Board, layout: &Layout, path: &[Vec<u16>]) -> Vec<Move> {
    let mut at: Vec<u16> = b.pieces.iter().map(|p| p.start).collect();
    let mut out = Vec::new();
    for pair in path.windows(2) {
        let (from, to) = (&pair[0], &pair[1]);
        let Some((k, r, q)) = changed(b, from, to) else {
            continue;
        };
        let Some(j) = (0..at.len()).find(|&j| b.pieces[j].class == k && at[j] == r) else {
            continue;
        };
        let class = &b.classes[k];
        let steps = route(b, layout, &at, j, q).unwrap_or_default();
        let grab = class.cells[r as usize][0];
        out.push(Move {
            label: b.pieces[j].label,
            grab: (grab / b.width, grab % b.width),
            path: steps,
        });
        at[j] = q;
    }
    out
}

/// The class whose placements differ between two canonical states: the
/// placement left and the one taken.
pub(super) fn changed(b: &Board, from: &[u16], to: &[u16]) -> Option<(usize, u16, u16)> {
    for (k, c) in b.classes.iter().enumerate() {
        let (x, y) = (&from[c.slots.clone()], &to[c.slots.clone()]);
        if x != y {
            let r = *x.iter().find(|v| !y.contains(v))?;
            let q = *y.iter().find(|v| !x.contains(v))?;
            return Some((k, r, q));
        }
    }
    None
}

/// Cells covered by every piece but `j`, with pieces at `at`.
fn others(b: &Board, at: &[u16], j: usize) -> Vec<bool> {
    let mut occ = vec![false; b.width * b.height];
    for (i, p) in b.pieces.iter().enumerate() {
        if i != j {
            for &c in &b.classes[p.class].cells[at[i] as usize] {
                occ[c] = true;
            }
        }
    }
    occ
}

/// A shortest path of piece `j` to placement `q`, the others fixed
/// (breadth-first, directions in [`Dir::ALL`] order).
fn route(b: &Board, _l: &Layout, at: &[u16], j: usize, q: u16) -> Option<Vec<Dir>> {
    let class = &b.classes[b.pieces[j].class];
    let occ = others(b, at, j);
    let free = |p: u16| class.cells[p as usize].iter().all(|&c| !occ[c]);
    let mut prev: Vec<Option<(u16, Dir)>> = vec![None; class.anchors.len()];
    let start = at[j];
    let mut queue = std::collections::VecDeque::from([start]);
    let mut seen = vec![false; class.anchors.len()];
    seen[start as usize] = true;
    while let Some(p) = queue.pop_front() {
        if p == q {
            let mut path = Vec::new();
            let mut cur = q;
            while let Some((from, d)) = prev[cur as usize] {
                path.push(d);
                cur = from;
            }
            path.reverse();
            return Some(path);
        }
        for (i, d) in Dir::ALL.iter().enumerate() {
            let n = class.next[p as usize][i];
            if n != super::board::NONE && !seen[n as usize] && free(n) {
                seen[n as usize] = true;
                prev[n as usize] = Some((p, *d));
                queue.push_back(n);
            }
        }
    }
    None
}

/// Plays one move on a labelled layout: the piece `m.label` must cover
/// `m.grab` and every step must be into cells free for it (walls never,
/// doors only for the special piece, other pieces never).
pub fn apply(layout: &Layout, m: &Move) -> Result<Layout, BlocksError> {
    let bad = |why: String| BlocksError::IllegalMove(format!("{m}: {why}"));
    let j = layout
        .pieces
        .iter()
        .position(|p| p.label == m.label)
        .ok_or_else(|| bad(format!("there is no piece {:?}", m.label)))?;
    if !layout.pieces[j].cells.contains(&m.grab) {
        return Err(bad(format!(
            "piece {:?} is not on row {}, col {}",
            m.label, m.grab.0, m.grab.1
        )));
    }
    let mut out = layout.clone();
    let mut taken = vec![false; layout.width * layout.height];
    for (i, p) in layout.pieces.iter().enumerate() {
        for &(r, c) in p.cells.iter().filter(|_| i != j) {
            taken[r * layout.width + c] = true;
        }
    }
    let special = layout.pieces[j].special;
    for (n, d) in m.path.iter().enumerate() {
        let (dr, dc) = d.delta();
        let cells = &mut out.pieces[j].cells;
        for cell in cells.iter_mut() {
            let (r, c) = (
                cell.0.wrapping_add_signed(dr),
                cell.1.wrapping_add_signed(dc),
            );
            if r >= layout.height || c >= layout.width {
                return Err(bad(format!("step {} leaves the board", n + 1)));
            }
            let f = layout.floor_at(r, c);
            if f == Floor::Wall || (f == Floor::Door && !special) || taken[r * layout.width + c] {
                return Err(bad(format!("step {} ({}) is blocked", n + 1, d.word())));
            }
            *cell = (r, c);
        }
        cells.sort_unstable();
    }
    Ok(out)
}

/// Reads a typed move (`a:DR`) on `layout`, grabbing the piece's first cell.
pub fn read_move(layout: &Layout, text: &str) -> Result<Move, BlocksError> {
    let (label, path) = parse_move(text).map_err(BlocksError::IllegalMove)?;
    let grab = layout
        .pieces
        .iter()
        .find(|p| p.label == label)
        .map(|p| p.cells[0])
        .ok_or_else(|| BlocksError::IllegalMove(format!("{text}: there is no piece {label:?}")))?;
    Ok(Move { label, grab, path })
}

/// True when the special piece covers the goal cells exactly.
pub fn is_won(layout: &Layout) -> bool {
    layout
        .special()
        .is_some_and(|s| s.cells == layout.goal_cells())
}
