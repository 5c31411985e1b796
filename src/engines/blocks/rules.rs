//! The blocks rules on the shared puzzle core ([`crate::solve::Puzzle`]),
//! so solve, walkthrough, map, trace and batch come from the generic
//! tools. Successors are written independently of the dedicated engine
//! (a grid of cells, no bitboards, no frozen pieces): the generic search
//! over them is the yardstick the dedicated search is tested against.
//! [`Blocks::solve`] itself runs the dedicated search.

use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

use super::board::Board;
use super::book::Book;
use super::layers::Aim;
use super::layout::{Floor, Layout, normalise};
use super::moves::{Dir, Metric, Move};
use super::plan::{BlocksError, Planned, apply, plan_for, plan_join, plan_on, read_move};
use crate::solve::search::elapsed_ms;
use crate::solve::{Budget, Found, Progress, Solution, Stats};

/// A position's fixed parts: the start layout (floor, labels, shapes) and
/// the metric plans are counted in.
#[derive(Clone, Debug)]
pub struct Blocks {
    pub layout: Layout,
    pub metric: Metric,
    /// Plans shipped for known positions (GNOME's levels).
    pub book: Option<&'static Book>,
    /// How long a player may wait for a plan, when one is waiting.
    pub wait: Option<Duration>,
    /// Whether a plan not proven shortest (beam search, then hill
    /// climbing) is given when the optimal search cannot finish.
    pub climb: bool,
    /// `layout` compiled, when the caller compiled it already (to check
    /// its key width): solving from the start then compiles it once.
    pub compiled: Option<Board>,
    /// Piece -> class of equal shape (and specialness).
    class: Vec<usize>,
    /// Piece -> its cells relative to the top-left of its bounding box.
    shape: Vec<Vec<(usize, usize)>>,
    goal: usize,
}

/// A state: every piece's top-left cell, in the layout's order. Equal and
/// hashed as the canonical form (pieces of one class sorted), so swapping
/// two equal pieces gives the same state.
#[derive(Clone, Debug)]
pub struct State {
    pub at: Box<[u16]>,
    canon: Box<[u16]>,
}

impl PartialEq for State {
    fn eq(&self, o: &Self) -> bool {
        self.canon == o.canon
    }
}
impl Eq for State {}
impl Hash for State {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.canon.hash(h);
    }
}

fn top_left(cells: &[(usize, usize)]) -> (usize, usize) {
    (
        cells.iter().map(|c| c.0).min().unwrap_or(0),
        cells.iter().map(|c| c.1).min().unwrap_or(0),
    )
}

impl Blocks {
    pub fn new(layout: Layout, metric: Metric) -> (Blocks, State) {
        let mut kinds: Vec<(Vec<(usize, usize)>, bool)> = Vec::new();
        let mut class = Vec::new();
        for p in &layout.pieces {
            let k = (normalise(&p.cells), p.special);
            let i = kinds.iter().position(|x| *x == k).unwrap_or(kinds.len());
            if i == kinds.len() {
                kinds.push(k);
            }
            class.push(i);
        }
        let shape = layout.pieces.iter().map(|p| normalise(&p.cells)).collect();
        let (gr, gc) = top_left(&layout.goal_cells());
        let b = Blocks {
            compiled: None,
            book: None,
            wait: None,
            climb: true,
            goal: gr * layout.width + gc,
            class,
            shape,
            metric,
            layout,
        };
        let at: Vec<u16> = b
            .layout
            .pieces
            .iter()
            .map(|p| {
                let (r, c) = top_left(&p.cells);
                (r * b.layout.width + c) as u16
            })
            .collect();
        let s = b.state(at);
        (b, s)
    }

    fn state(&self, at: Vec<u16>) -> State {
        let mut canon: Vec<(usize, u16)> = at
            .iter()
            .enumerate()
            .map(|(i, &a)| (self.class[i], a))
            .collect();
        canon.sort_unstable();
        State {
            canon: canon.into_iter().map(|(_, a)| a).collect(),
            at: at.into(),
        }
    }

    /// The position of `s` as a layout.
    pub fn layout_at(&self, s: &State) -> Layout {
        let mut l = self.layout.clone();
        let w = l.width;
        for (i, p) in l.pieces.iter_mut().enumerate() {
            let (r, c) = (s.at[i] as usize / w, s.at[i] as usize % w);
            p.cells = self.shape[i]
                .iter()
                .map(|&(dr, dc)| (r + dr, c + dc))
                .collect();
        }
        l
    }

    fn state_of(&self, l: &Layout) -> State {
        let at = l
            .pieces
            .iter()
            .map(|p| {
                let (r, c) = top_left(&p.cells);
                (r * l.width + c) as u16
            })
            .collect();
        self.state(at)
    }

    /// Piece `j` fits with its top-left at (r, c), given who owns each cell.
    fn fits(&self, j: usize, r: isize, c: isize, owner: &[u8]) -> bool {
        let l = &self.layout;
        let special = l.pieces[j].special;
        self.shape[j].iter().all(|&(dr, dc)| {
            let (rr, cc) = (r + dr as isize, c + dc as isize);
            if rr < 0 || cc < 0 || rr as usize >= l.height || cc as usize >= l.width {
                return false;
            }
            let i = rr as usize * l.width + cc as usize;
            let f = l.floor[i];
            f != Floor::Wall
                && (special || f != Floor::Door)
                && (owner[i] == u8::MAX || owner[i] as usize == j)
        })
    }

    /// Every (path, top-left) piece `j` reaches, shortest paths first.
    fn reach(&self, s: &State, j: usize, owner: &[u8]) -> Vec<(Vec<Dir>, usize)> {
        let w = self.layout.width;
        let start = s.at[j] as usize;
        let limit = if self.metric == Metric::Steps {
            1
        } else {
            usize::MAX
        };
        let mut seen = vec![false; self.layout.floor.len()];
        seen[start] = true;
        let mut out: Vec<(Vec<Dir>, usize)> = vec![(Vec::new(), start)];
        let mut head = 0;
        while head < out.len() {
            let (path, at) = out[head].clone();
            head += 1;
            if path.len() >= limit {
                continue;
            }
            for d in Dir::ALL {
                let (dr, dc) = d.delta();
                let (r, c) = ((at / w) as isize + dr, (at % w) as isize + dc);
                if self.fits(j, r, c, owner) && !seen[r as usize * w + c as usize] {
                    seen[r as usize * w + c as usize] = true;
                    let mut p = path.clone();
                    p.push(d);
                    out.push((p, r as usize * w + c as usize));
                }
            }
        }
        out.remove(0);
        out
    }
}

/// The generic core's breadth-first search over these rules: the
/// yardstick (tests and benches compare the dedicated search with it).
pub fn generic_search(layout: &Layout, metric: Metric, budget: &Budget) -> Found<Move> {
    use crate::solve::Puzzle as _;
    let (b, s) = Blocks::new(layout.clone(), metric);
    let (found, _) = crate::solve::bfs(
        s,
        |s: &State, out: &mut Vec<(Move, State)>| b.successors(s, out),
        |s: &State| b.is_goal(s),
        budget,
        &mut Progress::quiet(),
    );
    found
}

impl crate::solve::Puzzle for Blocks {
    type State = State;
    type Move = Move;

    /// Its two boxed slices, as the allocator hands them out (16-byte
    /// chunks with an 8-byte header, 32 bytes at least).
    fn heap_bytes(&self, s: &State) -> usize {
        let chunk = |len: usize| (len * 2 + 8).next_multiple_of(16).max(32);
        chunk(s.at.len()) + chunk(s.canon.len())
    }

    fn successors(&self, s: &State, out: &mut Vec<(Move, State)>) {
        let l = self.layout_at(s);
        let mut owner = vec![u8::MAX; l.floor.len()];
        for (j, p) in l.pieces.iter().enumerate() {
            for &(r, c) in &p.cells {
                owner[r * l.width + c] = j as u8;
            }
        }
        for (j, p) in l.pieces.iter().enumerate() {
            for (path, to) in self.reach(s, j, &owner) {
                let mut at = s.at.to_vec();
                at[j] = to as u16;
                let m = Move {
                    label: p.label,
                    grab: p.cells[0],
                    path,
                };
                out.push((m, self.state(at)));
            }
        }
    }

    fn is_goal(&self, s: &State) -> bool {
        self.layout
            .pieces
            .iter()
            .position(|p| p.special)
            .is_some_and(|j| s.at[j] as usize == self.goal)
    }

    /// The pieces' rows only: the `% floor` block, when the layout needs
    /// one, is the same for every state and left out.
    fn rows(&self, s: &State) -> Vec<String> {
        let mut rows = self.layout_at(s).rows();
        rows.truncate(self.layout.height);
        rows
    }

    fn parse_move(&self, s: &State, text: &str) -> Result<(Move, State), String> {
        let l = self.layout_at(s);
        let m = read_move(&l, text).map_err(|e| e.to_string())?;
        let next = apply(&l, &m).map_err(|e| e.to_string())?;
        if self.metric == Metric::Steps && m.path.len() != 1 {
            return Err(format!("{m}: under the steps metric a move is one step"));
        }
        Ok((m, self.state_of(&next)))
    }

    fn split_moves<'t>(&self, text: &'t str) -> Vec<&'t str> {
        // Commas can be pieces (`,:D`): moves are split on white space only.
        text.split_whitespace().collect()
    }

    fn replay(&self, start: &State, moves: &[Move]) -> Result<Vec<State>, String> {
        let mut out = vec![start.clone()];
        let mut l = self.layout_at(start);
        for (i, m) in moves.iter().enumerate() {
            l = apply(&l, m).map_err(|e| format!("move {} ({m}) is not legal: {e}", i + 1))?;
            out.push(self.state_of(&l));
        }
        Ok(out)
    }

    /// The shipped plan when the position is on one; else the optimal
    /// search; when that cannot finish, a plan by beam search (or hill
    /// climbing where no beam gets there), labelled
    /// not optimal, with the bound the optimal search proved.
    fn solve(&self, start: &State, budget: &Budget, progress: &mut Progress) -> Solution<Move> {
        let from = self.layout_at(start);
        if let Some(sol) = self.book.and_then(|b| b.solution(&from, self.metric)) {
            return sol;
        }
        let t = Instant::now();
        let optimal = Budget {
            deadline: self.wait.map(|w| t + w.mul_f64(OPTIMAL_SHARE)),
            ..*budget
        };
        let board = match &self.compiled {
            Some(b) if from == self.layout => b.clone(),
            _ => Board::new(&from),
        };
        let planned = match plan_on(board, &from, self.metric, &optimal, progress) {
            Ok(p) => p,
            Err(e) => return refused(&e),
        };
        let o = &planned.outcome;
        if planned.plan.is_some() || o.exhausted || !self.climb {
            return solution(planned, self.metric);
        }
        let (proven, states) = (o.proven, o.states);
        let any = Budget {
            deadline: self.wait.map(|w| t + w),
            ..*budget
        };
        let mut sol = match self.join_book(&from, &any, progress) {
            Some(sol) => sol,
            None => match plan_for(&from, self.metric, &any, progress, &Aim::Climb) {
                Ok(p) if p.plan.is_some() => {
                    let mut sol = solution(p, self.metric);
                    // Climbing proves nothing: the bound is the optimal
                    // search's alone.
                    sol.lower_bound = 0;
                    sol.notes.push((
                        "plan",
                        "beam search: the optimal search could not finish, so this plan is not \
                         proven shortest"
                            .into(),
                    ));
                    sol
                }
                _ => return solution(planned, self.metric),
            },
        };
        sol.lower_bound = sol.lower_bound.max(u64::from(proven));
        // A plan as long as the proven bound is a shortest one, however it
        // was found (shorter would be a defect, and proves nothing).
        sol.optimal = sol.cost == Some(sol.lower_bound);
        if sol.optimal {
            sol.notes.retain(|(k, _)| *k != "plan");
            sol.notes.push((
                "plan",
                "as long as the optimal search's proven lower bound: proven shortest".into(),
            ));
        }
        sol.stats.states += states;
        sol.stats.ms = elapsed_ms(t);
        sol
    }
}

impl Blocks {
    /// A plan that joins a shipped plan of this puzzle: the fewest moves to
    /// any position along it, then the rest of it. Its lower bound, when
    /// the shipped plan is optimal: what is left of that plan at the join,
    /// less the moves to get there.
    fn join_book(
        &self,
        from: &Layout,
        budget: &Budget,
        progress: &mut Progress,
    ) -> Option<Solution<Move>> {
        let (entry, positions) = self.book?.same_puzzle(from, self.metric)?;
        let (planned, reached) = plan_join(from, self.metric, budget, progress, positions).ok()?;
        let (j, there) = (reached?, planned.plan?.moves);
        let mut at = from.clone();
        for m in &there {
            at = apply(&at, m).ok()?;
        }
        let rest = Book::rest(entry, j, &at)?;
        let bound = if entry.optimal {
            (rest.len() as u64).saturating_sub(there.len() as u64)
        } else {
            0
        };
        let moves: Vec<Move> = there.into_iter().chain(rest).collect();
        let stats = Stats {
            states: planned.outcome.states,
            peak_bytes: planned.outcome.bytes,
            ms: 0.0,
        };
        let mut sol = Solution::new(Found::Path(moves), stats, |_: &Move| 1);
        sol.lower_bound = bound;
        sol.notes.push(("metric", self.metric.name().into()));
        sol.notes.push((
            "plan",
            format!(
                "joins the plan shipped for {} at its move {}: not proven shortest",
                entry.name,
                j + 1
            )
            .into(),
        ));
        Some(sol)
    }
}

/// Of the time a player may wait, the share the optimal search gets
/// before beam search takes over.
const OPTIMAL_SHARE: f64 = 0.3;

fn refused(e: &BlocksError) -> Solution<Move> {
    let mut sol = Solution::new(
        Found::OverBudget { proven: 0 },
        Stats::default(),
        |_: &Move| 1,
    );
    sol.notes
        .push(("refused", serde_json::Value::String(e.to_string())));
    sol
}

/// A search's outcome as the puzzle core's solution.
fn solution(planned: Planned, metric: Metric) -> Solution<Move> {
    let o = &planned.outcome;
    let stats = Stats {
        states: o.states,
        peak_bytes: o.bytes,
        ms: (o.ms * 100.0).round() / 100.0,
    };
    let found = match planned.plan {
        Some(p) => Found::Path(p.moves),
        None if o.exhausted => Found::Exhausted,
        None => Found::OverBudget { proven: o.proven },
    };
    let mut sol = Solution::new(found, stats, |_: &Move| 1);
    sol.notes.push(("metric", metric.name().into()));
    sol
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Puzzle;

    fn generic(text: &str, metric: Metric) -> Option<usize> {
        let l = Layout::parse(text, "t").unwrap();
        match generic_search(&l, metric, &Budget::default()) {
            Found::Path(p) => Some(p.len()),
            _ => None,
        }
    }

    fn dedicated(text: &str, metric: Metric) -> Option<usize> {
        let (b, s) = Blocks::new(Layout::parse(text, "t").unwrap(), metric);
        let sol = b.solve(&s, &Budget::default(), &mut Progress::quiet());
        let n = match &sol.found {
            Found::Path(p) => Some(p.len()),
            _ => None,
        };
        if let Found::Path(p) = &sol.found {
            let states = b.replay(&s, p).expect("the plan replays");
            assert!(b.is_goal(states.last().unwrap()));
        }
        n
    }

    const ONLY_18: &str =
        "######\n#a**b#\n#m**n#\n#cdef#\n#ghij#\n#k  l#\n##--##\n    ..\n    ..\n";

    #[test]
    fn equal_pieces_swapped_are_one_state() {
        let (b, s) = Blocks::new(
            Layout::parse("#####\n#*ab#\n#.  #\n", "t").unwrap(),
            Metric::Steps,
        );
        let mut at = s.at.to_vec();
        at.swap(1, 2);
        assert_eq!(b.state(at), s);
        let e = super::super::engine::Engine::<1>::new(super::super::board::Board::new(&b.layout));
        let start = e.board.start();
        let mut swapped = start.clone();
        swapped.swap(1, 2);
        e.board.resort(&mut swapped, e.class_of(1));
        assert_eq!(e.pack::<2>(&start), e.pack::<2>(&swapped));
    }

    #[test]
    fn the_pieces_flood_moves_round_corners_in_one_move() {
        // `a` must go down, then right: two steps, one move.
        let text = "#####\n#* ##\n#a# #\n#.  #\n#####\n";
        assert_eq!(generic(text, Metric::Steps), Some(4));
        assert_eq!(dedicated(text, Metric::Steps), Some(4));
        assert_eq!(generic(text, Metric::Pieces), Some(2));
        assert_eq!(dedicated(text, Metric::Pieces), Some(2));
    }

    #[test]
    fn only_18_steps_both_metrics_agree_with_the_generic_search() {
        for m in [Metric::Steps, Metric::Pieces] {
            assert_eq!(dedicated(ONLY_18, m), generic(ONLY_18, m), "{m:?}");
        }
        assert_eq!(dedicated(ONLY_18, Metric::Steps), Some(32));
    }

    #[test]
    fn doors_are_for_the_special_piece_only() {
        // `a` would have to cross the door to let `*` by.
        let text = "#####\n#a*.#\n##-##\n";
        assert_eq!(dedicated(text, Metric::Steps), Some(1));
        let blocked = "####\n#a*#\n#-##\n#.##\n";
        assert_eq!(dedicated(blocked, Metric::Steps), None);
        assert_eq!(generic(blocked, Metric::Steps), None);
    }
}
