//! Vision: from a screenshot to a grid of cell classes, and whether that
//! grid can be trusted.
//!
//! ```text
//! image_file::open → lattice::find_lattice → grid::read_grid (cells, color, template)
//!                  → trust::trust → the game's reader (its own rules)
//! ```
//!
//! - [`params`] is what the reader needs to know about a game's look
//!   ([`ReadParams`]); `crate::calibration` loads it from TOML, [`learn`]
//!   learns it from one screenshot whose position is known;
//! - [`lattice`] finds the board's grid lines at any offset and scale;
//! - [`cells`] measures each cell (colour, sharp marks);
//! - [`color`] and [`template`] classify a cell by colour or by a piece's shape;
//! - [`grid`] puts them together into a [`GridRead`] with a confidence per
//!   cell, or the reason it is unreadable;
//! - [`trust`] says whether the read can be acted on: no board, a board cut
//!   by the selection, unreadable cells, or trusted;
//! - [`debug`] draws what was seen and the planned input, for `--debug-image`;
//! - [`image_file`] opens screenshots by their content, with clear errors.
//!
//! Nothing here knows a game's rules or depends on how parameters are
//! stored: each game's reader calls [`read_grid`] and [`trust::trust`] and
//! then checks its own rules (one knight, say).

pub mod cells;
pub mod color;
pub mod cut;
pub mod debug;
pub mod glyphs;
pub mod grid;
pub mod image_file;
pub mod lattice;
pub mod learn;
pub mod params;
pub mod patch;
pub mod skin;
pub mod template;
pub mod trust;

pub use grid::{CellRead, GridRead, Unreadable, read_grid};
pub use lattice::{Lattice, LatticeParams, find_lattice};
pub use params::{Marker, ReadParams};
pub use trust::{
    CellIssue, NotLegal, Reading, Side, Trust, read_trusted, trust, trust_cells, verdict_on,
};
