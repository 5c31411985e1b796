//! boardbot plays grid puzzle games by looking at the screen.
//!
//! The pipeline, one module per stage:
//!
//! ```text
//! capture → vision → games/<game> → solve → input
//! ```
//!
//! - [`vision`] finds a board's lattice in a screenshot and classifies each
//!   cell, guided by the game's [`calibration`];
//! - [`games`] holds each game's model, reader, solver and planner behind
//!   the [`games::Game`] trait;
//! - [`solve`] is the generic search the solvers share;
//! - [`input`] is the input a plan turns into;
//! - [`report`] is what every command prints, as text or JSON;
//! - [`cli`] is the command line.

pub mod calibration;
pub mod cli;
pub mod games;
pub mod geom;
pub mod input;
pub mod report;
pub mod solve;
pub mod vision;
