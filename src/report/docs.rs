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
    /// What `--picture` drew.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub picture: Option<PictureReport>,
}

/// What a state-map picture shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PictureMode {
    /// Every state and every move.
    States,
    /// One node per distance, for maps too large to draw state by state.
    Layers,
}

/// How a state map was drawn (`map --picture`).
#[derive(Clone, Debug, Serialize)]
pub struct PictureReport {
    pub file: String,
    pub mode: PictureMode,
    /// Nodes and edges drawn.
    pub nodes: usize,
    pub edges: usize,
    /// Moves of the recorded path drawn over it.
    pub path_moves: Option<usize>,
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

/// The words for a move: optimal, neutral or a step back. The
/// same judgement as [`MoveVerdict`], which keeps its older names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rating {
    Optimal,
    Neutral,
    StepBack,
}

impl Rating {
    pub fn name(self) -> &'static str {
        match self {
            Rating::Optimal => "optimal",
            Rating::Neutral => "neutral",
            Rating::StepBack => "step_back",
        }
    }
}

impl From<MoveVerdict> for Rating {
    fn from(v: MoveVerdict) -> Rating {
        match v {
            MoveVerdict::Optimal => Rating::Optimal,
            MoveVerdict::Wasted => Rating::Neutral,
            MoveVerdict::Backwards => Rating::StepBack,
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
    /// `verdict` in the words optimal, neutral, step_back.
    pub rating: Rating,
    /// The player's thinking time before the move (recorded sessions only).
    pub think_ms: Option<u64>,
    /// When the move was made, in ms since the window opened (recorded
    /// sessions only).
    pub t_ms: Option<u64>,
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
    /// Moves the player made.
    pub moves_made: usize,
    /// The fewest moves that solve the start (`start_distance`).
    pub optimum: Option<u32>,
    /// Moves beyond the optimum, once solved.
    pub excess: Option<usize>,
    /// Optimal moves over moves made; `null` when no move was made.
    pub optimal_share: Option<f64>,
    /// `wasted` and `backwards` under their other names.
    pub neutral: usize,
    pub step_back: usize,
    /// The median thinking time before optimal moves, and before the
    /// others; `null` when there are none (or no times were recorded).
    pub median_think_optimal_ms: Option<f64>,
    pub median_think_other_ms: Option<f64>,
    /// The session file the moves came from.
    pub record: Option<String>,
    /// Where the distances came from.
    pub distances: Distances,
}

/// Where a trace's distances came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum Distances {
    /// The map of every position reachable from the start.
    Map,
    /// The map outgrew the memory budget after `mapped` positions, so each
    /// position the player reached was solved on its own.
    Search { mapped: u64 },
}

/// The median of `values`; `None` when there are none.
pub fn median(mut values: Vec<u64>) -> Option<f64> {
    values.sort_unstable();
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2] as f64),
        _ => Some((values[n / 2 - 1] as f64 + values[n / 2] as f64) / 2.0),
    }
}

impl TraceReport {
    pub fn new(game: &'static str, start_distance: Option<u32>, moves: Vec<TraceStep>) -> Self {
        let count = |v: MoveVerdict| moves.iter().filter(|s| s.verdict == v).count();
        let think = |optimal: bool| {
            median(
                moves
                    .iter()
                    .filter(|s| (s.verdict == MoveVerdict::Optimal) == optimal)
                    .filter_map(|s| s.think_ms)
                    .collect(),
            )
        };
        let solved = moves
            .last()
            .map_or(start_distance == Some(0), |s| s.after == Some(0));
        let optimal = count(MoveVerdict::Optimal);
        TraceReport {
            game,
            start_distance,
            optimal,
            wasted: count(MoveVerdict::Wasted),
            backwards: count(MoveVerdict::Backwards),
            solved,
            moves_made: moves.len(),
            optimum: start_distance,
            excess: start_distance
                .filter(|_| solved)
                .map(|d| moves.len().saturating_sub(d as usize)),
            optimal_share: (!moves.is_empty()).then(|| optimal as f64 / moves.len() as f64),
            neutral: count(MoveVerdict::Wasted),
            step_back: count(MoveVerdict::Backwards),
            median_think_optimal_ms: think(true),
            median_think_other_ms: think(false),
            record: None,
            distances: Distances::Map,
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
