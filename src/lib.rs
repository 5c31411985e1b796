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
//! - [`games`] holds each game: its rules (a typed [`solve::Puzzle`]), its
//!   reader and its art, behind the object-safe [`games::Game`] trait, and
//!   the registry that names them;
//! - [`solve`] is the typed puzzle core and the generic search every game
//!   shares (BFS, A*, IDA*, Dijkstra, state maps and their export);
//! - [`input`] is the input a plan turns into, and its replay;
//! - [`play`] is the live loop: settle, read, step, act, look again
//!   (its screen and input half needs the `live` feature);
//! - [`report`] holds the typed documents every command returns and the one
//!   renderer that prints them as text or JSON;
//! - [`cli`] is the command line.
//!
//! A command's data flow: the CLI parses flags into [`games::Options`] and
//! refuses any the game does not read; the game parses its text (or reads
//! its screenshot) into a puzzle and a start state; [`games::tools`] runs
//! the generic solve, batch, map or trace over it; the result is a
//! [`report::Report`] (with a [`report::Verdict`]) or a
//! [`report::Output`], which the renderer prints.

pub mod art;
pub mod calibration;
pub mod capture;
pub mod cli;
pub mod engines;
pub mod files;
#[doc(hidden)]
pub mod fuzzing;
pub mod game;
pub mod games;
pub mod geom;
pub mod input;
pub mod play;
pub mod practice;
pub mod report;
pub mod rng;
pub mod solve;
pub mod tools;
#[cfg(feature = "live")]
pub mod ui;
pub mod vision;
