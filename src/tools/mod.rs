//! The commands every text puzzle gets for free: solve (with the
//! walkthrough), batch checks, state-space maps with export and pictures,
//! and traces of a player's game, typed or recorded by a practice window.
//! Each is written once, over [`TextPuzzle`], and returns a typed document
//! for the one renderer in [`crate::report`].
//!
//! [`options`] holds the settings every command takes, and the one check
//! that refuses those a game does not read.

pub mod options;

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde::Serialize;

use self::options::{Opt, Options, Recorded, Win};
use crate::game::GameError;
use crate::report::docs::{
    BatchReport, Distances, GaveUp, Got, MapReport, Mismatch, MoveVerdict, PictureReport,
    TraceReport, TraceStep,
};
use crate::report::picture;
use crate::report::{BoardReport, Frame, Output, Report, Verdict, count, ms_since, value};
use crate::solve::export::Graph;
use crate::solve::map::OverBudget;
use crate::solve::map::distance_map_sized;
use crate::solve::{Budget, Found, Progress, Puzzle, Solution, StateMap, astar, bfs};

/// A puzzle read from text: what the generic commands need beyond the
/// rules.
pub trait TextPuzzle: Puzzle {
    /// The name on the command line, as in `--game rush`.
    const ID: &'static str;
    /// The options it reads, beyond those every command takes.
    const OPTIONS: &'static [Opt];
    /// Moves print joined into one word (`LURD`) rather than as a list.
    const JOINED_MOVES: bool = false;

    /// Reads one position: the fixed parts and the start state. The
    /// message says where the text is wrong (line and column).
    fn parse(text: &str, opts: &Options) -> Result<(Self, Self::State), String>;

    /// `boardbot verify`, for games with design rules to check.
    fn verify(_text: &str, _origin: &str, _opts: &Options) -> Result<Output, GameError> {
        Err(GameError::Unsupported {
            game: Self::ID,
            what: "verify",
        })
    }

    /// `boardbot generate`, for games with a level generator.
    fn generate(_opts: &crate::tools::options::GenerateOptions) -> Result<Output, GameError> {
        Err(GameError::Unsupported {
            game: Self::ID,
            what: "generate",
        })
    }

    /// Every move can be undone, so maps are undirected graphs.
    fn reversible(&self) -> bool {
        false
    }

    /// The optimal cost only: batch checks call it for every line, so a
    /// game may answer faster than a full solve.
    fn optimal_cost(&self, start: &Self::State, budget: &Budget) -> Got {
        let sol = self.solve(start, budget, &mut Progress::quiet());
        match (sol.found, sol.cost) {
            (Found::OverBudget { .. }, _) => Got::GaveUp,
            (_, Some(c)) => Got::Cost(c),
            (_, None) => Got::Unsolvable,
        }
    }
}

/// Moves that are single letters, written together (`LURD`) or apart.
pub fn single_letters(text: &str) -> Vec<&str> {
    text.char_indices()
        .filter(|(_, c)| !c.is_whitespace() && *c != ',')
        .map(|(i, c)| &text[i..i + c.len_utf8()])
        .collect()
}

fn parse<P: TextPuzzle>(
    text: &str,
    origin: &str,
    opts: &Options,
) -> Result<(P, P::State), GameError> {
    P::parse(text, opts).map_err(|message| GameError::Parse {
        origin: origin.to_string(),
        message,
    })
}

/// The search budget from the options: memory, and `--max-nodes` states.
pub fn budget(opts: &Options) -> Budget {
    let mut b = Budget::with_memory(opts.max_memory);
    if let Some(n) = opts.max_nodes {
        b.max_states = n;
    }
    b
}

/// The moves, as a list or joined into one word.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Moves {
    List(Vec<String>),
    Joined(String),
}

/// The plan of a text puzzle, as `plan` in the JSON.
#[derive(Clone, Debug, Serialize)]
pub struct MovePlan {
    pub moves: Moves,
    pub length: usize,
    pub optimal: bool,
    /// The total cost, when moves cost other than 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<u64>,
    /// The win rule, for games that read `--win`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win: Option<Win>,
}

/// The search's figures, as `stats` in the JSON.
#[derive(Clone, Debug, Serialize)]
pub struct SearchStats {
    pub states: u64,
    pub ms: f64,
    /// The process's peak resident memory where known, else the tables':
    /// the process's is filled in when a report is written out
    /// ([`crate::report::Report::stats`]).
    pub peak_bytes: u64,
    /// The search tables' own peak.
    pub table_bytes: u64,
    /// No solution costs less than this.
    pub lower_bound: u64,
    #[serde(flatten)]
    pub notes: serde_json::Map<String, serde_json::Value>,
}

fn stats_of<M>(sol: &Solution<M>) -> SearchStats {
    SearchStats {
        states: sol.stats.states,
        ms: sol.stats.ms,
        peak_bytes: sol.stats.peak_bytes,
        table_bytes: sol.stats.peak_bytes,
        lower_bound: sol.lower_bound,
        notes: sol
            .notes
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    }
}

/// The walkthrough: the board before the plan and after each move.
fn frames<P: TextPuzzle>(
    p: &P,
    start: &P::State,
    moves: &[P::Move],
) -> Result<Vec<Frame>, GameError> {
    let states = p.replay(start, moves).map_err(GameError::Output)?;
    Ok(states
        .iter()
        .enumerate()
        .map(|(i, s)| Frame {
            mv: i.checked_sub(1).map(|k| moves[k].to_string()),
            board: p.rows(s),
        })
        .collect())
}

/// `solve` for a text puzzle: the optimal plan, or why there is none.
pub fn solve<P: TextPuzzle>(text: &str, origin: &str, opts: &Options) -> Result<Report, GameError> {
    let (p, start) = parse::<P>(text, origin, opts)?;
    solve_parsed(&p, &start, opts).map(|(report, _)| report)
}

/// `solve` for a position already parsed (a reader's, say, which text
/// cannot always hold), with the plan's moves as values for the reader to
/// turn into input (none when there is no plan).
pub fn solve_parsed<P: TextPuzzle>(
    p: &P,
    start: &P::State,
    opts: &Options,
) -> Result<(Report, Vec<P::Move>), GameError> {
    let t = Instant::now();
    let mut progress = Progress::new(opts.progress);
    let sol = p.solve(start, &budget(opts), &mut progress);
    drop(progress);
    let mut r = Report::new(P::ID, Verdict::Playable, "");
    r.timing_ms.solve = ms_since(t);
    r.board = Some(BoardReport::from_rows(p.rows(start)));
    r.stats = Some(value(&stats_of(&sol)));
    let win = P::OPTIONS
        .contains(&Opt::Win)
        .then(|| opts.win.unwrap_or_default());
    let rule = win.map_or(String::new(), |w| format!(" under the {} rule", w.name()));
    match &sol.found {
        Found::Path(moves) => {
            plan_into::<P>(&mut r, p, &sol, moves, win, &rule);
            if opts.walkthrough {
                r.walkthrough = Some(frames(p, start, moves)?);
            }
        }
        Found::Exhausted => {
            r.state = Verdict::Unsolvable;
            r.reason = format!(
                "no sequence of moves reaches a goal{rule}: all {} reachable positions tried",
                sol.stats.states
            );
        }
        Found::OverBudget { .. } => {
            r.state = Verdict::GaveUp;
            r.reason = format!(
                "gave up after {} positions: no solution costs less than {}; raise --max-memory or --max-nodes",
                sol.stats.states, sol.lower_bound
            );
        }
    }
    r.details.push(search_line(&sol));
    let moves = match sol.found {
        Found::Path(moves) => moves,
        _ => Vec::new(),
    };
    Ok((r, moves))
}

fn plan_into<P: TextPuzzle>(
    r: &mut Report,
    p: &P,
    sol: &Solution<P::Move>,
    moves: &[P::Move],
    win: Option<Win>,
    rule: &str,
) {
    let names: Vec<String> = moves.iter().map(ToString::to_string).collect();
    let cost = sol.cost.unwrap_or(names.len() as u64);
    let proof = if sol.optimal {
        "optimal"
    } else {
        "not proven optimal"
    };
    let cost_text = if p.weighted() {
        format!(", cost {cost}")
    } else {
        String::new()
    };
    if names.is_empty() {
        r.state = Verdict::Solved;
        r.reason = "already solved: nothing to do".into();
    } else {
        r.reason = format!("{}{rule}{cost_text}", count(names.len() as u64, "move"));
    }
    r.headline = format!(
        "Solved in {} ({proof}{rule}{cost_text}):",
        count(names.len() as u64, "move")
    );
    r.route = if P::JOINED_MOVES {
        vec![names.concat()]
    } else {
        names.clone()
    };
    r.plan = Some(value(&MovePlan {
        length: names.len(),
        moves: if P::JOINED_MOVES {
            Moves::Joined(names.concat())
        } else {
            Moves::List(names)
        },
        optimal: sol.optimal,
        cost: p.weighted().then_some(cost),
        win,
    }));
}

fn search_line<M>(sol: &Solution<M>) -> String {
    let mut s = format!(
        "Searched {} positions in {:.1} ms.",
        sol.stats.states, sol.stats.ms
    );
    for (k, v) in &sol.notes {
        s.push_str(&format!(" {k}: {v}."));
    }
    s
}

/// One line of a batch file: `expected position [anything else]`.
struct Line {
    number: usize,
    expected: u64,
    position: String,
}

/// The lines of a batch, read as they are needed: a batch file is
/// streamed, never held whole, so its size is bounded only by time.
pub struct BatchSource<'a> {
    /// The file's name, for messages.
    pub origin: String,
    lines: Box<dyn Iterator<Item = Result<String, GameError>> + 'a>,
    /// The number of the last line read, from 1.
    number: usize,
    /// A line given back by [`BatchSource::push_back`], read again next.
    back: Option<(usize, String)>,
}

impl<'a> BatchSource<'a> {
    /// A batch held in memory.
    pub fn from_text(text: &'a str, origin: &str) -> BatchSource<'a> {
        BatchSource {
            origin: origin.to_string(),
            lines: Box::new(text.lines().map(|l| Ok(l.to_string()))),
            number: 0,
            back: None,
        }
    }

    /// A batch file, streamed line by line.
    pub fn from_file(path: &std::path::Path) -> Result<BatchSource<'static>, GameError> {
        let lines = crate::files::lines(path).map_err(|e| GameError::Output(e.to_string()))?;
        Ok(BatchSource {
            origin: path.display().to_string(),
            lines: Box::new(lines.map(|l| l.map_err(|e| GameError::Output(e.to_string())))),
            number: 0,
            back: None,
        })
    }

    /// The next line that holds something (not blank, not a `#` comment),
    /// trimmed, with its number.
    pub fn next_content(&mut self) -> Option<Result<(usize, String), GameError>> {
        if let Some(back) = self.back.take() {
            return Some(Ok(back));
        }
        loop {
            let line = match self.lines.next()? {
                Ok(l) => l,
                Err(e) => return Some(Err(e)),
            };
            self.number += 1;
            let t = line.trim();
            if !t.is_empty() && !t.starts_with('#') {
                return Some(Ok((self.number, t.to_string())));
            }
        }
    }

    /// Gives a line back: the next [`BatchSource::next_content`] reads it again.
    pub fn push_back(&mut self, number: usize, line: String) {
        self.back = Some((number, line));
    }

    /// An error about line `line` of this batch.
    pub fn error(&self, line: usize, message: String) -> GameError {
        GameError::Parse {
            origin: self.origin.clone(),
            message: format!("line {line}: {message}"),
        }
    }
}

/// Up to `n` more batch lines, parsed as `moves position [more fields]`.
fn batch_lines(src: &mut BatchSource, n: usize) -> Result<Vec<Line>, GameError> {
    let mut out = Vec::new();
    while out.len() < n {
        let Some(next) = src.next_content() else {
            break;
        };
        let (number, line) = next?;
        let mut parts = line.split_whitespace();
        let (Some(expected), Some(position)) = (parts.next(), parts.next()) else {
            return Err(src.error(
                number,
                format!("expected `moves position [more fields]`, got {line:?}"),
            ));
        };
        let expected = expected
            .parse()
            .map_err(|_| src.error(number, format!("{expected:?} is not a move count")))?;
        let position = position.to_string();
        out.push(Line {
            number,
            expected,
            position,
        });
    }
    Ok(out)
}

/// Runs `check` over `items` on `threads` threads; results in order.
pub fn run_parallel<I: Sync, T: Send>(
    items: &[I],
    threads: usize,
    check: impl Fn(&I) -> T + Sync,
) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, T)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break };
                        mine.push((i, check(item)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, t)| t).collect()
}

/// `solve --batch`: every one-line position of a file against its known
/// optimal cost, on every core.
pub fn batch<P: TextPuzzle>(src: &mut BatchSource, opts: &Options) -> Result<Output, GameError> {
    /// Lines read and checked at a time.
    const CHUNK: usize = 4096;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let b = budget(opts);
    let t = Instant::now();
    let (mut puzzles, mut times, mut mismatches) = (0, Vec::new(), Vec::new());
    loop {
        let lines = batch_lines(src, CHUNK)?;
        if lines.is_empty() {
            break;
        }
        let checked = run_parallel(&lines, threads, |line| {
            let t = Instant::now();
            let got = match P::parse(&line.position, opts) {
                Err(e) => Got::Error(e),
                Ok((p, s)) => p.optimal_cost(&s, &b),
            };
            (got, t.elapsed().as_secs_f64() * 1e3)
        });
        puzzles += lines.len();
        times.extend(checked.iter().map(|c| c.1));
        mismatches.extend(
            lines
                .into_iter()
                .zip(checked)
                .filter(|(l, (got, _))| *got != Got::Cost(l.expected))
                .map(|(l, (got, _))| Mismatch {
                    line: l.number,
                    board: l.position,
                    expected: l.expected,
                    got,
                }),
        );
    }
    let total_ms = ms_since(t);
    times.sort_by(f64::total_cmp);
    let round = |v: f64| (v * 1000.0).round() / 1000.0;
    Ok(Output::Batch(BatchReport {
        game: P::ID,
        puzzles,
        mismatches,
        total_ms: round(total_ms),
        median_ms: round(times.get(times.len() / 2).copied().unwrap_or(0.0)),
        origin: src.origin.clone(),
        threads,
    }))
}

/// The map of everything reachable from `start`; `Err` says what was
/// found before the map outgrew the budget.
fn map_of<P: TextPuzzle>(
    p: &P,
    start: &P::State,
    opts: &Options,
) -> Result<StateMap<P::State, P::Move>, GaveUp> {
    let mut progress = Progress::new(opts.progress);
    distance_map_sized(
        start.clone(),
        |s, out| p.successors(s, out),
        |s| p.is_goal(s),
        |s| p.heap_bytes(s),
        &budget(opts),
        &mut progress,
    )
    .map_err(|over| gave_up(P::ID, &over))
}

/// What a map that outgrew its budget can still say.
pub(crate) fn gave_up(game: &'static str, over: &OverBudget) -> GaveUp {
    let nearest = over.goal_distance.map_or(String::new(), |d| {
        format!("; the nearest goal is {d} moves from the start")
    });
    GaveUp {
        game,
        state: Verdict::GaveUp,
        reason: format!(
            "the map outgrew the memory budget after {} positions (all within {} moves of the start{nearest})",
            over.states, over.depth_complete
        ),
        states: over.states,
        depth_complete: over.depth_complete,
        distance: over.goal_distance,
    }
}

/// One move a player made, as typed or recorded, with its times when
/// recorded.
struct Played<'t> {
    text: &'t str,
    think_ms: Option<u64>,
    t_ms: Option<u64>,
}

/// The moves to trace: the record's log when there is one, else `--moves`.
fn played<'t, P: TextPuzzle>(
    p: &P,
    moves: &'t str,
    record: Option<&'t Recorded>,
) -> Vec<Played<'t>> {
    match record {
        Some(r) => r
            .session
            .log
            .iter()
            .map(|m| Played {
                text: m.mv.trim(),
                think_ms: Some(m.think_ms),
                t_ms: Some(m.t_ms),
            })
            .collect(),
        None => p
            .split_moves(moves)
            .into_iter()
            .map(|text| Played {
                text,
                think_ms: None,
                t_ms: None,
            })
            .collect(),
    }
}

/// Each move as parsed, with the state after it.
type Walk<P> = Vec<(<P as Puzzle>::Move, <P as Puzzle>::State)>;

/// Plays every move from `start`: the moves as parsed and the state after
/// each. An illegal move is an error naming `origin` and the move's number.
fn walk<P: TextPuzzle>(
    p: &P,
    start: &P::State,
    moves: &[Played],
    origin: &str,
) -> Result<Walk<P>, GameError> {
    let mut out: Walk<P> = Vec::with_capacity(moves.len());
    for (k, m) in moves.iter().enumerate() {
        let s = out.last().map_or(start, |(_, s)| s);
        let next = p.parse_move(s, m.text).map_err(|e| GameError::Parse {
            origin: origin.to_string(),
            message: format!("move {} ({}): {e}", k + 1, m.text),
        })?;
        out.push(next);
    }
    Ok(out)
}

/// Refuses a record made in another game.
fn check_game<P: TextPuzzle>(rec: &Recorded) -> Result<(), GameError> {
    let game = &rec.session.game;
    if game.is_empty() || game.eq_ignore_ascii_case(P::ID) {
        return Ok(());
    }
    Err(GameError::Usage(format!(
        "{} records a game of {game}, not {}",
        rec.origin(),
        P::ID
    )))
}

/// Refuses a record made from another position than the one given.
fn check_start<P: TextPuzzle>(
    p: &P,
    start: &P::State,
    rec: &Recorded,
    opts: &Options,
) -> Result<(), GameError> {
    let text = &rec.session.start;
    if text.trim().is_empty() {
        return Ok(());
    }
    let (q, theirs) = parse::<P>(text, &format!("{} (start)", rec.origin()), opts)?;
    let (theirs, ours) = (q.rows(&theirs), p.rows(start));
    if theirs == ours {
        return Ok(());
    }
    Err(GameError::Usage(format!(
        "{} starts from another position than the one given:\n{}\nnot\n{}",
        rec.origin(),
        crate::report::text::board(&theirs),
        crate::report::text::board(&ours)
    )))
}

/// Parses the position, after checking that a record in the options was
/// made in this game from this position.
fn parse_for_record<P: TextPuzzle>(
    text: &str,
    origin: &str,
    opts: &Options,
) -> Result<(P, P::State), GameError> {
    if let Some(rec) = &opts.record {
        check_game::<P>(rec)?;
    }
    let (p, start) = parse::<P>(text, origin, opts)?;
    if let Some(rec) = &opts.record {
        check_start(&p, &start, rec, opts)?;
    }
    Ok((p, start))
}

/// The states a recorded session visits after the start, checked against
/// the position given.
fn recorded_walk<P: TextPuzzle>(
    p: &P,
    start: &P::State,
    rec: &Recorded,
) -> Result<Vec<P::State>, GameError> {
    let states = walk(p, start, &played(p, "", Some(rec)), &rec.origin())?;
    Ok(states.into_iter().map(|(_, s)| s).collect())
}

/// `map`: the state space, its distances, an export for graph tools and a
/// picture.
pub fn map<P: TextPuzzle>(text: &str, origin: &str, opts: &Options) -> Result<Output, GameError> {
    let t = Instant::now();
    if let Some(file) = &opts.picture {
        picture::Format::of(file).map_err(|e| GameError::Usage(e.to_string()))?;
    }
    let (p, start) = parse_for_record::<P>(text, origin, opts)?;
    let visited = match &opts.record {
        Some(rec) => Some(recorded_walk(&p, &start, rec)?),
        None => None,
    };
    let m = match map_of(&p, &start, opts) {
        Ok(m) => m,
        Err(doc) => return Ok(Output::GaveUp(doc)),
    };
    let key = |s: &P::State| p.key(s);
    let graph = Graph {
        map: &m,
        name: P::ID,
        key: &key,
        undirected: p.reversible(),
    };
    let files = match &opts.export {
        Some(path) => Some(
            graph
                .write(path)
                .map_err(|e| GameError::Output(e.to_string()))?
                .iter()
                .map(|f| f.display().to_string())
                .collect(),
        ),
        None => None,
    };
    let picture = match &opts.picture {
        Some(file) => Some(draw(&p, &m, file, visited.as_deref(), opts)?),
        None => None,
    };
    let max = m.max_distance();
    Ok(Output::Map(MapReport {
        states: m.len(),
        goal_states: m.goals.len(),
        distance: m.distance(0),
        max_distance: max,
        hardest: max.map_or(Vec::new(), |d| {
            m.at_distance(d).map(|i| p.key(m.state(i))).collect()
        }),
        histogram: m.histogram(),
        dead_states: m.dead_states(),
        edges: graph.edge_count(),
        files,
        game: P::ID,
        ms: ms_since(t),
        picture,
    }))
}

/// `map --picture`: draws the map, with the recorded path over it.
fn draw<P: TextPuzzle>(
    p: &P,
    m: &StateMap<P::State, P::Move>,
    file: &std::path::Path,
    visited: Option<&[P::State]>,
    opts: &Options,
) -> Result<PictureReport, GameError> {
    // Every state reachable from the start (index 0) is in the map.
    let path: Option<Vec<u32>> = visited.map(|v| {
        std::iter::once(0)
            .chain(v.iter().filter_map(|s| m.index_of(s)))
            .collect()
    });
    let request = picture::Request {
        file,
        game: P::ID,
        undirected: p.reversible(),
        path: path.as_deref(),
        record: opts.record.as_ref().map(Recorded::origin),
    };
    picture::draw(m, &request).map_err(|e| match e {
        picture::PictureError::Format(_) => GameError::Usage(e.to_string()),
        _ => GameError::Output(e.to_string()),
    })
}

/// Each position's distance to a goal, from the map: the start, then the
/// position after each move.
fn distances_by_map<P: TextPuzzle>(
    m: &StateMap<P::State, P::Move>,
    states: &Walk<P>,
) -> Vec<Option<u32>> {
    let dist = |s: &P::State| m.index_of(s).and_then(|i| m.distance(i));
    std::iter::once(m.distance(0))
        .chain(states.iter().map(|(_, s)| dist(s)))
        .collect()
}

/// Each position's distance to a goal, each solved on its own: for maps
/// too large for the budget. `None` when a search gave up.
fn distances_by_search<P: TextPuzzle>(
    p: &P,
    start: &P::State,
    states: &Walk<P>,
    opts: &Options,
) -> Option<Vec<Option<u32>>> {
    let mut known: HashMap<&P::State, Option<u32>> = HashMap::new();
    let mut out = Vec::with_capacity(states.len() + 1);
    let mut progress = Progress::new(opts.progress);
    for s in std::iter::once(start).chain(states.iter().map(|(_, s)| s)) {
        let d = match known.get(s) {
            Some(&d) => d,
            None => moves_to_goal(p, s, &budget(opts), &mut progress)?,
        };
        known.insert(s, d);
        out.push(d);
    }
    Some(out)
}

/// The fewest moves from `s` to a goal (`Some(None)`: no goal can be
/// reached), by A* when the rules give a heuristic, else breadth-first;
/// `None` when the search outgrew the budget. It counts moves, as the map
/// does, whatever they cost.
fn moves_to_goal<P: TextPuzzle>(
    p: &P,
    s: &P::State,
    budget: &Budget,
    progress: &mut Progress,
) -> Option<Option<u32>> {
    let next = |s: &P::State, out: &mut Vec<(P::Move, P::State)>| p.successors(s, out);
    let goal = |s: &P::State| p.is_goal(s);
    // A heuristic bounds the cost, which is the number of moves only when
    // every move costs 1.
    let h = p.heuristic(s).filter(|_| !p.weighted());
    let (found, _) = match h {
        Some(_) => {
            let h = |s: &P::State| p.heuristic(s).unwrap_or(0);
            astar(s.clone(), next, h, goal, budget, progress)
        }
        None => bfs(s.clone(), next, goal, budget, progress),
    };
    match found {
        Found::Path(moves) => Some(Some(moves.len() as u32)),
        Found::Exhausted => Some(None),
        Found::OverBudget { .. } => None,
    }
}

/// `trace`: a player's moves, each rated against the map. The moves come
/// from `moves`, or from the recorded session in the options, with the
/// player's thinking times. When the map outgrows the budget, each position
/// the player reached is solved on its own instead.
pub fn trace<P: TextPuzzle>(
    text: &str,
    origin: &str,
    moves: &str,
    opts: &Options,
) -> Result<Output, GameError> {
    let (p, start) = parse_for_record::<P>(text, origin, opts)?;
    let record = opts.record.as_ref();
    let moves = played(&p, moves, record);
    let moves_origin = record.map_or("--moves".to_string(), Recorded::origin);
    let states = walk(&p, &start, &moves, &moves_origin)?;
    let (dist, source) = match map_of(&p, &start, opts) {
        Ok(m) => (distances_by_map::<P>(&m, &states), Distances::Map),
        Err(mut doc) => match distances_by_search(&p, &start, &states, opts) {
            Some(d) => (d, Distances::Search { mapped: doc.states }),
            None => {
                doc.reason.push_str(
                    ", and solving the positions one by one gave up too; raise --max-memory",
                );
                return Ok(Output::GaveUp(doc));
            }
        },
    };
    let steps = states
        .iter()
        .zip(&moves)
        .enumerate()
        .map(|(k, ((mv, next), played))| {
            let (before, after) = (dist[k], dist[k + 1]);
            let verdict = MoveVerdict::rate(before, after);
            TraceStep {
                mv: mv.to_string(),
                before,
                after,
                verdict,
                board: p.key(next),
                rating: verdict.into(),
                think_ms: played.think_ms,
                t_ms: played.t_ms,
            }
        })
        .collect();
    let mut report = TraceReport::new(P::ID, dist[0], steps);
    report.record = record.map(Recorded::origin);
    report.distances = source;
    Ok(Output::Trace(report))
}
