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
//! - [`vision`] finds a board's lattice in a screenshot and classifies each
//!   cell, guided by the game's [`calibration`];
//! - [`games`] holds each game's model, reader, solver and planner behind
//!   the [`games::Game`] trait;
//! - [`solve`] is the generic search the solvers share;
//! - [`input`] is the input a plan turns into, and its replay;
//! - [`play`] is the live loop: settle, read, step, act, look again
//!   (its screen and input half needs the `live` feature);
//! - [`report`] is what every command prints, as text or JSON;
//! - [`cli`] is the command line.

pub mod calibration;
pub mod capture;
pub mod cli;
pub mod games;
pub mod geom;
pub mod input;
pub mod play;
pub mod report;
pub mod solve;
#[cfg(feature = "live")]
pub mod ui;
pub mod vision;
