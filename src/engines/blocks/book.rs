//! Plans shipped for known positions, so a player never waits on them.
//!
//! A book entry is a start position, a metric and a plan that boardbot's
//! own search produced (a test replays every entry under the rules and
//! checks its length). A position found anywhere along an entry's plan
//! is answered at once with the rest of that plan: the rest of a shortest
//! plan is a shortest plan from where it stands. Pieces of equal shape
//! are interchangeable, so the position is matched by shapes and cells,
//! and the plan's labels are mapped onto the position's own.

use std::sync::OnceLock;

use super::layout::{Layout, normalise};
use super::moves::{Dir, Metric, Move};
use super::plan::{apply, is_won};
use crate::solve::{Found, Solution, Stats};

/// One shipped plan.
#[derive(Clone, Debug)]
pub struct Entry {
    pub name: String,
    pub start: Layout,
    pub metric: Metric,
    /// Each move: the piece's label and its path.
    pub moves: Vec<(char, Vec<Dir>)>,
    /// Proven shortest by the search that produced it.
    pub optimal: bool,
    /// No plan from the start is shorter (the plan's length when optimal).
    pub lower_bound: u32,
    /// The positions along the plan, worked out on first use.
    positions: OnceLock<Vec<Layout>>,
}

impl Entry {
    pub fn new(
        name: &str,
        start: Layout,
        metric: Metric,
        moves: Vec<(char, Vec<Dir>)>,
        optimal: bool,
        lower_bound: u32,
    ) -> Entry {
        Entry {
            name: name.to_string(),
            start,
            metric,
            moves,
            optimal,
            lower_bound,
            positions: OnceLock::new(),
        }
    }

    /// The start and the position after each move; `Err` names the first
    /// move that is not legal.
    pub fn replay(&self) -> Result<Vec<Layout>, String> {
        let mut out = vec![self.start.clone()];
        for (i, (label, path)) in self.moves.iter().enumerate() {
            let at = &out[out.len() - 1];
            let m = moved(at, *label, path)
                .ok_or_else(|| format!("{}: move {} has no piece {label:?}", self.name, i + 1))?;
            let next = apply(at, &m)
                .map_err(|e| format!("{}: move {} is not legal: {e}", self.name, i + 1))?;
            out.push(next);
        }
        Ok(out)
    }

    /// True when the entry counts in `metric` on `l`'s board (size, walls,
    /// doors and goal).
    fn on(&self, l: &Layout, metric: Metric) -> bool {
        self.metric == metric
            && self.start.width == l.width
            && self.start.height == l.height
            && self.start.floor == l.floor
    }

    fn positions(&self) -> &[Layout] {
        self.positions
            .get_or_init(|| self.replay().unwrap_or_default())
    }
}

/// A move of `label` along `path`, grabbing the piece's first cell.
fn moved(at: &Layout, label: char, path: &[Dir]) -> Option<Move> {
    let p = at.pieces.iter().find(|p| p.label == label)?;
    Some(Move {
        label,
        grab: p.cells[0],
        path: path.to_vec(),
    })
}

/// The shipped plans.
#[derive(Debug, Default)]
pub struct Book {
    pub entries: Vec<Entry>,
}

/// A piece as a position sees it: special or not, its shape, its cells.
type Placed = (bool, Vec<(usize, usize)>, Vec<(usize, usize)>);

/// What makes two positions the same: the board, and every piece's shape,
/// specialness and cells (not its label).
fn signature(l: &Layout) -> Vec<Placed> {
    let mut s: Vec<_> = l
        .pieces
        .iter()
        .map(|p| {
            let mut cells = p.cells.clone();
            cells.sort_unstable();
            (p.special, normalise(&p.cells), cells)
        })
        .collect();
    s.sort_unstable();
    s
}

impl Book {
    /// The rest of a shipped plan from `from`, with `from`'s labels, as a
    /// solution; `None` when no plan passes through `from`.
    pub fn solution(&self, from: &Layout, metric: Metric) -> Option<Solution<Move>> {
        let want = signature(from);
        for e in self.entries.iter().filter(|e| e.on(from, metric)) {
            let positions = e.positions();
            let Some(i) = positions.iter().position(|p| signature(p) == want) else {
                continue;
            };
            let moves = relabel(&positions[i], from, &e.moves[i..])?;
            let left = moves.len() as u32;
            let mut sol = Solution::new(Found::Path(moves), Stats::default(), |_: &Move| 1);
            sol.optimal = e.optimal;
            // A bound from the start holds, less the moves already made.
            sol.lower_bound = if e.optimal {
                u64::from(left)
            } else {
                u64::from(e.lower_bound.saturating_sub(i as u32))
            };
            sol.notes.push(("metric", metric.name().into()));
            sol.notes.push((
                "plan",
                format!("shipped with boardbot ({}, from move {})", e.name, i + 1).into(),
            ));
            return Some(sol);
        }
        None
    }
}

impl Book {
    /// The entry for `from`'s puzzle (the same board and pieces, anywhere)
    /// under `metric`, and the positions along its plan.
    pub fn same_puzzle(&self, from: &Layout, metric: Metric) -> Option<(&Entry, &[Layout])> {
        let kinds = |l: &Layout| {
            let mut k: Vec<_> = l
                .pieces
                .iter()
                .map(|p| (p.special, normalise(&p.cells)))
                .collect();
            k.sort_unstable();
            k
        };
        let want = kinds(from);
        self.entries
            .iter()
            .filter(|e| e.on(from, metric))
            .find(|e| kinds(&e.start) == want)
            .map(|e| (e, e.positions()))
    }

    /// The rest of `entry`'s plan from its position `i`, for `at` (the
    /// same position, maybe with other labels), checked to win.
    pub fn rest(entry: &Entry, i: usize, at: &Layout) -> Option<Vec<Move>> {
        relabel(entry.positions().get(i)?, at, entry.moves.get(i..)?)
    }
}

/// `moves`, made from `book_at`, with the labels of the same pieces in
/// `from`; checked by playing them on `from` to the goal.
fn relabel(book_at: &Layout, from: &Layout, moves: &[(char, Vec<Dir>)]) -> Option<Vec<Move>> {
    let label_of = |c: char| -> Option<char> {
        let p = book_at.pieces.iter().find(|p| p.label == c)?;
        let mut cells = p.cells.clone();
        cells.sort_unstable();
        from.pieces
            .iter()
            .find(|q| {
                let mut qc = q.cells.clone();
                qc.sort_unstable();
                qc == cells && q.special == p.special
            })
            .map(|q| q.label)
    };
    // Labels follow pieces, so they are mapped once, at the match.
    let mut map = Vec::new();
    for p in &book_at.pieces {
        map.push((p.label, label_of(p.label)?));
    }
    let mut at = from.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (label, path) in moves {
        let mine = map.iter().find(|(b, _)| b == label)?.1;
        let m = moved(&at, mine, path)?;
        at = apply(&at, &m).ok()?;
        out.push(m);
    }
    is_won(&at).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::blocks::plan::plan;
    use crate::solve::{Budget, Progress};

    fn layout(text: &str) -> Layout {
        Layout::parse(text, "t").expect("a layout")
    }

    #[test]
    fn a_position_along_a_shipped_plan_gets_the_rest_with_its_own_labels() {
        let start = layout("######\n#*ab #\n#cd  #\n#   .#\n######\n");
        let found = plan(
            &start,
            Metric::Pieces,
            &Budget::default(),
            &mut Progress::quiet(),
        )
        .expect("plans")
        .plan
        .expect("a plan");
        let moves: Vec<(char, Vec<Dir>)> = found
            .moves
            .iter()
            .map(|m| (m.label, m.path.clone()))
            .collect();
        let n = moves.len();
        assert!(n >= 2);
        let entry = Entry::new("t", start.clone(), Metric::Pieces, moves, true, n as u32);
        let positions = entry.replay().expect("the plan replays");
        let book = Book {
            entries: vec![entry],
        };
        for (i, at) in positions.iter().enumerate().take(n) {
            let sol = book.solution(at, Metric::Pieces).expect("on the plan");
            assert!(sol.optimal);
            assert_eq!(sol.lower_bound, (n - i) as u64);
            let Found::Path(rest) = sol.found else {
                panic!("a path");
            };
            assert_eq!(rest.len(), n - i);
        }
        // Equal pieces swapped: the same position, other labels.
        let mut swapped = positions[1].clone();
        for p in &mut swapped.pieces {
            p.label = match p.label {
                'a' => 'b',
                'b' => 'a',
                l => l,
            };
        }
        assert!(book.solution(&swapped, Metric::Pieces).is_some());
        // Another metric, or a position off the plan: no answer.
        assert!(book.solution(&start, Metric::Steps).is_none());
        let off = layout("######\n#*a b#\n#cd  #\n#   .#\n######\n");
        if !positions.iter().any(|p| signature(p) == signature(&off)) {
            assert!(book.solution(&off, Metric::Pieces).is_none());
        }
    }
}
