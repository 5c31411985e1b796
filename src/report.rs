//! What a command found and planned, as one document: printed as text for
//! people and as JSON (`--json`) for scripts. The JSON field names are a
//! contract; add fields, never rename them.

use serde::Serialize;

use crate::input::Action;
use crate::vision::GridRead;

/// The verdict on a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// A board was read and there is a plan to play.
    Playable,
    /// Troyis: nothing left to do. Block games: a solution was found.
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

impl State {
    /// 0 when the position was read and answered; 3 when there is nothing to act on.
    pub fn exit_code(self) -> i32 {
        match self {
            State::Playable | State::Solved => 0,
            State::NoBoard | State::Uncertain | State::Unsolvable | State::GaveUp => 3,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            State::Playable => "playable",
            State::Solved => "solved",
            State::NoBoard => "no_board",
            State::Uncertain => "uncertain",
            State::Unsolvable => "unsolvable",
            State::GaveUp => "gave_up",
        }
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
    pub confidence: Option<Vec<Vec<f32>>>,
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
        let round2 = |v: f32| (v * 100.0).round() / 100.0;
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

/// What the reader saw, kept for the debug image.
#[derive(Clone, Debug, Default)]
pub struct Seen {
    pub grid: Option<GridRead>,
}

/// The result of `solve`, `play --dry-run` and friends.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub game: &'static str,
    pub state: State,
    pub reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardReport>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<CellIssue>,
    /// Cells read for sure that the solution can never reach.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreachable: Vec<CellIssue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<serde_json::Value>,
    /// Input to send, in image pixels (screen pixels from `play`). Absent
    /// when the position came from text and has no picture to click on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actions: Option<Vec<Action>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<serde_json::Value>,
    pub timing_ms: Timing,
    /// The plan in words, for the text output.
    #[serde(skip)]
    pub text: String,
    #[serde(skip)]
    pub seen: Seen,
}

impl Report {
    pub fn new(game: &'static str, state: State, reason: impl Into<String>) -> Report {
        Report {
            game,
            state,
            reason: reason.into(),
            board: None,
            unreadable: Vec::new(),
            unreachable: Vec::new(),
            plan: None,
            actions: None,
            stats: None,
            timing_ms: Timing::default(),
            text: String::new(),
            seen: Seen::default(),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("reports serialise")
    }
}

/// Milliseconds since `t`, to 0.01 ms.
pub fn ms_since(t: std::time::Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 100_000.0).round() / 100.0
}

/// The result of a command that is not a single solve (`map`, `trace`,
/// `solve --batch`): its JSON document, its text for people, its exit code.
#[derive(Clone, Debug)]
pub struct Doc {
    pub json: serde_json::Value,
    pub text: String,
    pub exit_code: i32,
}
