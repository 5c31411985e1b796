//! boardbot plays grid puzzle games by looking at the screen.
//!
//! The pipeline, one module per stage:
//!
//! ```text
//! capture → vision → games/<game> → solve → input
//! ```
//!
//! - [`capture`] grabs the selected region of the screen and maps its
//!   pixels to input coordinates;
//! - [`vision`] finds a board's lattice in a screenshot, classifies each
//!   cell and says whether the read can be trusted, guided by a
//!   [`vision::ReadParams`] that [`calibration`] loads from the game's TOML
//!   file (built in, the user's own from `boardbot calibrate`, or named);
//! - [`games`] holds each game's model, reader, solver and planner behind
//!   the [`games::Game`] trait;
//! - [`solve`] is the generic search the solvers share;
//! - [`input`] is the input a plan turns into, and its replay;
//! - `play` (with the `live` feature) runs the whole loop on the live screen;
//! - [`report`] is what every command prints, as text or JSON;
//! - [`cli`] is the command line.

pub mod calibration;
pub mod capture;
pub mod cli;
pub mod games;
pub mod geom;
pub mod input;
#[cfg(feature = "live")]
pub mod play;
pub mod report;
pub mod solve;
#[cfg(feature = "live")]
pub mod ui;
pub mod vision;
