//! The documents of `map`, `trace` and `solve --batch`, typed. Their field
//! names are the JSON contract.

use serde::{Serialize, Serializer};

/// `boardbot map`: the state space reachable from a position.
#[derive(Clone, Debug, Serialize)]
pub struct MapReport {
    pub states: usize,
    pub goal_states: usize,
    /// Moves from the start to the nearest goal; `null` when unsolvable.
    pub distance: Option<u32>,
    pub max_distance: Option<u32>,
    /// Every position at the largest distance, on one line each.
    pub hardest: Vec<String>,
    /// How many positions lie at each distance, from 0.
    pub histogram: Vec<usize>,
    /// Positions from which no goal can be reached.
    pub dead_states: usize,
    /// Moves between positions (each pair once when moves can be undone).
    pub edges: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<Vec<String>>,
    pub game: &'static str,
    pub ms: f64,
}

/// How a move compares with the best one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveVerdict {
    /// One step closer to a solution.
    Optimal,
    /// No closer.
    Wasted,
    /// Farther, or into a position with no solution.
    Backwards,
}

impl MoveVerdict {
    /// Rates a move from a position `before` moves from a solution to one
    /// `after` (`None`: no solution from there).
    pub fn rate(before: Option<u32>, after: Option<u32>) -> MoveVerdict {
        match (before, after) {
            (Some(b), Some(a)) if a < b => MoveVerdict::Optimal,
            (Some(b), Some(a)) if a == b => MoveVerdict::Wasted,
            (None, None) => MoveVerdict::Wasted,
            _ => MoveVerdict::Backwards,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            MoveVerdict::Optimal => "optimal",
            MoveVerdict::Wasted => "wasted",
            MoveVerdict::Backwards => "backwards",
        }
    }
}

/// One rated move of a player's game.
#[derive(Clone, Debug, Serialize)]
pub struct TraceStep {
    #[serde(rename = "move")]
    pub mv: String,
    pub before: Option<u32>,
    pub after: Option<u32>,
    pub verdict: MoveVerdict,
    /// The position after the move, on one line.
    pub board: String,
}

/// `boardbot trace`: a player's game rated move by move.
#[derive(Clone, Debug, Serialize)]
pub struct TraceReport {
    pub game: &'static str,
    pub start_distance: Option<u32>,
    pub moves: Vec<TraceStep>,
    pub optimal: usize,
    pub wasted: usize,
    pub backwards: usize,
    pub solved: bool,
}

impl TraceReport {
    pub fn new(game: &'static str, start_distance: Option<u32>, moves: Vec<TraceStep>) -> Self {
        let count = |v: MoveVerdict| moves.iter().filter(|s| s.verdict == v).count();
        TraceReport {
            game,
            start_distance,
            optimal: count(MoveVerdict::Optimal),
            wasted: count(MoveVerdict::Wasted),
            backwards: count(MoveVerdict::Backwards),
            solved: moves
                .last()
                .map_or(start_distance == Some(0), |s| s.after == Some(0)),
            moves,
        }
    }
}

/// What the solver said for one line of a batch.
#[derive(Clone, Debug, PartialEq)]
pub enum Got {
    Cost(u64),
    Unsolvable,
    /// The search ran out of budget.
    GaveUp,
    /// The line's position could not be read.
    Error(String),
}

impl Serialize for Got {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Got::Cost(n) => s.serialize_u64(*n),
            Got::Unsolvable => s.serialize_str("unsolvable"),
            Got::GaveUp => s.serialize_str("gave_up"),
            Got::Error(e) => s.serialize_str(&format!("error: {e}")),
        }
    }
}

impl std::fmt::Display for Got {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Got::Cost(n) => write!(f, "{n}"),
            Got::Unsolvable => f.write_str("unsolvable"),
            Got::GaveUp => f.write_str("gave up"),
            Got::Error(e) => write!(f, "error: {e}"),
        }
    }
}

/// A batch line whose answer differs from the file's.
#[derive(Clone, Debug, Serialize)]
pub struct Mismatch {
    pub line: usize,
    pub board: String,
    pub expected: u64,
    pub got: Got,
}

/// `boardbot solve --batch`: every position of a file checked against its
/// known optimal cost.
#[derive(Clone, Debug, Serialize)]
pub struct BatchReport {
    pub game: &'static str,
    pub puzzles: usize,
    pub mismatches: Vec<Mismatch>,
    pub total_ms: f64,
    pub median_ms: f64,
    /// The file, for the text.
    #[serde(skip)]
    pub origin: String,
    #[serde(skip)]
    pub threads: usize,
}

/// A map that outgrew its budget, with what it had found by then.
#[derive(Clone, Debug, Serialize)]
pub struct GaveUp {
    pub game: &'static str,
    pub state: crate::report::Verdict,
    pub reason: String,
    /// Positions mapped before the budget ran out.
    pub states: u64,
    /// Every position within this many moves of the start was mapped.
    pub depth_complete: u32,
    /// Moves from the start to the nearest goal, when one was reached.
    pub distance: Option<u32>,
}
