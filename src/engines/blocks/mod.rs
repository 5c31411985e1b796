//! The sliding-blocks engine: pieces of any shape slide one cell at a time
//! among walls until the special piece covers the goal (GNOME Klotski,
//! Huarong Dao, and any game of the same model).
//!
//! - [`layout`]: the plain description of a position and its text format;
//! - [`moves`]: moves as the player makes them, and the two metrics;
//! - [`board`]: a layout compiled for search (classes of equal shape,
//!   placements, step tables, frozen pieces, key widths);
//! - [`engine`]: bitboards, packed keys and the one-piece flood;
//! - [`bitflood`]: that flood by shifting one word, on boards of at most
//!   64 cells;
//! - [`mirror`]: the left-right mirror of a symmetric board, which halves
//!   the states the search stores;
//! - [`layers`]: the optimal search, breadth-first by sorted layers on
//!   every core, under either metric;
//! - [`beam`]: a plan by beam search where the optimal search cannot
//!   finish;
//! - [`novelty`]: which positions a beam keeps first on a plateau of its
//!   estimate;
//! - [`greedy`]: a plan by hill climbing where no beam gets there;
//! - [`book`]: plans shipped for known positions;
//! - [`search`]: what a search reports, and paths through mirror images;
//! - [`plan`]: plans of labelled moves, and playing moves on a layout;
//! - [`rush`]: Rush Hour boards in this model, to compare the engines;
//! - [`rules`]: the same rules on the shared puzzle core, written
//!   independently (a cell grid), the yardstick for the dedicated search;
//! - [`spill`]: the optimal search's older layers in files, for proofs
//!   wider than memory.
pub mod beam;
pub mod bitflood;
pub mod board;
pub mod book;
mod check;
pub mod engine;
pub mod greedy;
pub mod layers;
pub mod layout;
pub mod mirror;
pub mod moves;
pub mod novelty;
pub mod plan;
pub mod rules;
pub mod rush;
pub mod search;
pub mod spill;

pub use layout::{Floor, Layout, LayoutError, PieceSpec};
pub use moves::{Axis, Dir, Metric, Move};
pub use plan::{BlocksError, Plan, Planned, apply, is_won, plan};
