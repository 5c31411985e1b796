//! Rush Hour (and the "Game About Rectangles"): slide cars until the red
//! one can leave.
//!
//! - [`board`]: the model, Fogleman's 36-character format, bitboard moves;
//! - [`solver`]: the puzzle's rules on the shared core, the fast length-only
//!   search for batch checks, and the puzzle-file format.
//!
//! Solve, walkthrough, batch, map, trace and export all come from
//! [`crate::games::tools`].

pub mod board;
pub mod solver;

use super::PuzzleGame;

/// The game, as registered.
pub static RUSH: PuzzleGame<board::Puzzle> = PuzzleGame::new(
    "Rush Hour: slide cars until the red one leaves; optimal slides, state-space maps, traces",
);
