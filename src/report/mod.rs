//! What a command found and planned, as typed documents, and the one
//! place that renders them: as text for people and as JSON (`--json`) for
//! scripts. The JSON field names are a contract; add fields, never rename
//! them.
//!
//! - [`Report`]: one position read and solved (`solve`, `play`);
//! - [`docs`]: the other commands' documents (`map`, `trace`, `--batch`);
//! - [`text`]: the text renderer; [`Output`] prints any of them.

use serde::Serialize;

use crate::input::Action;
use crate::vision::{GridRead, Reading};

pub mod docs;
pub mod picture;
pub mod text;

/// The verdict on a position: what, if anything, there is to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// There is a plan to play (a route, a solution's moves).
    Playable,
    /// Already solved: nothing left to do.
    Solved,
    /// No board in the image.
    NoBoard,
    /// A board, but some cells could not be read for sure.
    Uncertain,
    /// Read for sure, but there is no solution.
    Unsolvable,
    /// The search hit its memory or time limit without an answer.
    GaveUp,
}

impl Verdict {
    /// 0 when the position was read and answered; 3 when there is nothing to act on.
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Playable | Verdict::Solved => 0,
            Verdict::NoBoard | Verdict::Uncertain | Verdict::Unsolvable | Verdict::GaveUp => 3,
        }
    }

    /// The name in the JSON `state` field.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Playable => "playable",
            Verdict::Solved => "solved",
            Verdict::NoBoard => "no_board",
            Verdict::Uncertain => "uncertain",
            Verdict::Unsolvable => "unsolvable",
            Verdict::GaveUp => "gave_up",
        }
    }

    /// True for the verdicts that leave nothing to act on and say why.
    pub fn refuses(self) -> bool {
        self.exit_code() != 0
    }
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct Bounds {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// The board as read.
#[derive(Clone, Debug, Serialize)]
pub struct BoardReport {
    pub rows: usize,
    pub cols: usize,
    /// One string per row; `?` marks a cell that could not be read.
    pub cells: Vec<String>,
    /// The lattice's outer rectangle, in image pixels (screenshots only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<Bounds>,
    /// Per-cell confidence, 0–1 (screenshots only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Vec<Vec<f64>>>,
}

impl BoardReport {
    pub fn from_rows(cells: Vec<String>) -> BoardReport {
        BoardReport {
            rows: cells.len(),
            cols: cells.first().map_or(0, |r| r.chars().count()),
            cells,
            bounds: None,
            confidence: None,
        }
    }

    pub fn from_grid(grid: &GridRead, cells: Vec<String>) -> BoardReport {
        let b = grid.lattice.bounds();
        let round2 = |v: f32| (f64::from(v) * 100.0).round() / 100.0;
        BoardReport {
            rows: grid.lattice.rows(),
            cols: grid.lattice.cols(),
            cells,
            bounds: Some(Bounds {
                x: (b.x0 * 10.0).round() / 10.0,
                y: (b.y0 * 10.0).round() / 10.0,
                w: (b.width() * 10.0).round() / 10.0,
                h: (b.height() * 10.0).round() / 10.0,
            }),
            confidence: Some(
                grid.confidences()
                    .into_iter()
                    .map(|r| r.into_iter().map(round2).collect())
                    .collect(),
            ),
        }
    }
}

pub use crate::vision::CellIssue;

#[derive(Clone, Copy, Debug, Default, Serialize)]
pub struct Timing {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vision: Option<f64>,
    pub solve: f64,
}

/// One game that looked at a screenshot whose game was not named: what it
/// made of it (`candidates` in the JSON).
#[derive(Clone, Debug, Serialize)]
pub struct Candidate {
    pub game: &'static str,
    pub state: Verdict,
    pub reason: String,
    /// How long its reader took, in milliseconds.
    pub vision_ms: f64,
}

/// What the reader saw, kept for the debug image.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    pub grid: Option<GridRead>,
}

/// What the board should read as once the first `after` actions of the
/// plan have been sent: the live player compares it with what it sees,
/// and re-plans when they differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    pub after: usize,
    /// One string per row, as in [`BoardReport::cells`].
    pub rows: Vec<String>,
}

/// One board of a walkthrough: the move that led to it (none for the
/// start) and the board after it.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub mv: Option<String>,
    pub board: Vec<String>,
}

/// The result of `solve`, `play --dry-run` and friends. Games fill its
/// typed fields; [`text`] and [`Report::to_json`] are the only renderers.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The game whose board this is; `None` when no game was named and
    /// none was recognised.
    pub game: Option<&'static str>,
    pub state: Verdict,
    pub reason: String,
    /// Every game that looked at a screenshot whose game was not named,
    /// with what it saw.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<Candidate>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardReport>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<CellIssue>,
    /// Cells read for sure that the solution can never reach.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreachable: Vec<CellIssue>,
    /// The plan, in the game's typed shape (serialised from its struct).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<serde_json::Value>,
    /// Input to send, in image pixels (screen pixels from `play`). Absent
    /// when the position came from text and has no picture to click on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<Action>>,
    /// The search's figures. Its `peak_bytes` is the process's peak
    /// resident memory, read when the report is written out (the peak only
    /// grows): reading it costs more than a small search, and a report
    /// printed as text never shows it.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "stats_with_peak"
    )]
    pub stats: Option<serde_json::Value>,
    /// Further top-level fields a game adds to its document (Continuity's
    /// `exits`).
    #[serde(flatten)]
    pub extra: serde_json::Map<String, serde_json::Value>,
    /// Each board along the plan, with `--walkthrough`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walkthrough: Option<Vec<Frame>>,
    pub timing_ms: Timing,
    /// The plan in one line for people ("Solved in 12 moves (optimal)").
    #[serde(skip)]
    pub headline: String,
    /// The plan's moves as people read them, in order.
    #[serde(skip)]
    pub route: Vec<String>,
    /// Further lines for people (search figures, notes).
    #[serde(skip)]
    pub details: Vec<String>,
    #[serde(skip)]
    pub seen: Seen,
    /// What the board should read as during and after the plan (live play).
    #[serde(skip)]
    pub checkpoints: Vec<Checkpoint>,
}

impl Report {
    pub fn new(game: &'static str, state: Verdict, reason: impl Into<String>) -> Report {
        Report {
            game: Some(game),
            state,
            reason: reason.into(),
            candidates: Vec::new(),
            board: None,
            unreadable: Vec::new(),
            unreachable: Vec::new(),
            plan: None,
            actions: None,
            stats: None,
            extra: serde_json::Map::new(),
            walkthrough: None,
            timing_ms: Timing::default(),
            headline: String::new(),
            route: Vec::new(),
            details: Vec::new(),
            seen: Seen::default(),
            checkpoints: Vec::new(),
        }
    }

    /// A report on a screenshot with nothing to act on: the board as far
    /// as it was read, the cells that could not be, and no input.
    pub fn refused(
        game: &'static str,
        state: Verdict,
        grid: Option<GridRead>,
        reason: String,
        issues: Vec<CellIssue>,
    ) -> Report {
        let mut r = Report::new(game, state, reason);
        r.board = grid.as_ref().map(|g| BoardReport::from_grid(g, g.rows()));
        r.unreadable = issues;
        r.actions = Some(Vec::new());
        r.seen.grid = grid;
        r
    }

    /// A refusal on a screenshot that no game claimed, or that two did:
    /// no game, and no input.
    pub fn refused_by_none(state: Verdict, reason: String) -> Report {
        let mut r = Report::new("", state, reason);
        r.game = None;
        r.actions = Some(Vec::new());
        r
    }

    /// The report on a reader's verdict: a refusal when there is nothing
    /// to act on, else whatever `on_board` makes of the board read.
    pub fn from_reading<B, E>(
        game: &'static str,
        reading: Reading<B>,
        on_board: impl FnOnce(GridRead, B) -> Result<Report, E>,
    ) -> Result<Report, E> {
        match reading {
            Reading::NoBoard {
                grid,
                reason,
                issues,
            } => Ok(Report::refused(
                game,
                Verdict::NoBoard,
                grid,
                reason,
                issues,
            )),
            Reading::Uncertain {
                grid,
                reason,
                issues,
            } => Ok(Report::refused(
                game,
                Verdict::Uncertain,
                Some(grid),
                reason,
                issues,
            )),
            Reading::Board { grid, board } => on_board(grid, board),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| json_error(&e))
    }

    /// The report as text for people.
    pub fn to_text(&self) -> String {
        text::report(self)
    }
}

/// `stats` with `peak_bytes` as the process's peak resident memory, where
/// the system reports it; else the search tables' peak it holds.
fn stats_with_peak<S: serde::Serializer>(
    stats: &Option<serde_json::Value>,
    out: S,
) -> Result<S::Ok, S::Error> {
    let peak = crate::solve::memory::peak_rss();
    match (stats, peak) {
        (Some(serde_json::Value::Object(m)), Some(peak)) if m.contains_key("peak_bytes") => {
            let mut m = m.clone();
            m.insert("peak_bytes".into(), peak.into());
            m.serialize(out)
        }
        _ => stats.serialize(out),
    }
}

/// A JSON document saying serialisation failed (it cannot, for these
/// types, but a script should still get JSON).
fn json_error(e: &serde_json::Error) -> String {
    serde_json::json!({"error": e.to_string()}).to_string()
}

/// Serialises one of the typed plan or stats structs into a report field.
pub fn value(v: &impl Serialize) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or_else(|e| serde_json::Value::String(e.to_string()))
}

/// `n` of `thing`, in words: `1 move`, `12 moves`.
pub fn count(n: impl Into<u64>, thing: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// Milliseconds since `t`, to 0.01 ms.
pub fn ms_since(t: std::time::Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 100_000.0).round() / 100.0
}

/// Any command's result, printed by [`Output::print`].
#[derive(Clone, Debug)]
pub enum Output {
    Solve(Box<Report>),
    Map(docs::MapReport),
    Trace(docs::TraceReport),
    Batch(docs::BatchReport),
    /// The search or map gave up before it could say anything.
    GaveUp(docs::GaveUp),
    /// A game's own command (Skiddy's `verify`, say): its document and
    /// its text, made by the game.
    Custom(Custom),
}

/// A game-specific command's result.
#[derive(Clone, Debug)]
pub struct Custom {
    pub json: serde_json::Value,
    pub text: String,
    /// The exit code: 0 when the command did what was asked.
    pub code: i32,
}

impl Output {
    pub fn to_json(&self) -> String {
        let r = match self {
            Output::Solve(r) => return r.to_json(),
            Output::Map(d) => serde_json::to_string(d),
            Output::Trace(d) => serde_json::to_string(d),
            Output::Batch(d) => serde_json::to_string(d),
            Output::GaveUp(d) => serde_json::to_string(d),
            Output::Custom(c) => serde_json::to_string(&c.json),
        };
        r.unwrap_or_else(|e| json_error(&e))
    }

    pub fn to_text(&self) -> String {
        match self {
            Output::Solve(r) => text::report(r),
            Output::Map(d) => text::map(d),
            Output::Trace(d) => text::trace(d),
            Output::Batch(d) => text::batch(d),
            Output::GaveUp(d) if d.reason.contains("--max-memory") => {
                format!("Gave up: {}.\n", d.reason)
            }
            Output::GaveUp(d) => format!("Gave up: {}; raise --max-memory.\n", d.reason),
            Output::Custom(c) => c.text.clone(),
        }
    }

    /// 0 when answered; 1 when a batch has answers that differ from its
    /// file; 3 when there is nothing to act on.
    pub fn exit_code(&self) -> i32 {
        match self {
            Output::Solve(r) => r.state.exit_code(),
            Output::Batch(d) if !d.mismatches.is_empty() => 1,
            Output::GaveUp(_) => 3,
            Output::Custom(c) => c.code,
            _ => 0,
        }
    }

    /// Prints to stdout, as JSON or text.
    pub fn print(&self, json: bool) {
        if json {
            println!("{}", self.to_json());
        } else {
            print!("{}", self.to_text());
        }
    }
}
