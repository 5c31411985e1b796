//! Vision: from a screenshot to a grid of cell classes.
//!
//! - [`lattice`] finds the board's grid lines at any offset and scale;
//! - [`cells`] measures each cell (colour, sharp marks);
//! - [`color`] and [`template`] classify a cell by colour or by a piece's shape;
//! - [`grid`] puts them together into a [`grid::GridRead`] with a
//!   confidence per cell;
//! - [`debug`] draws what was seen, for `--debug-image`.
//!
//! Nothing here knows a game's rules: each game's calibration file says
//! which colours and templates mean what, and the game's `read` module
//! checks the result (one knight, say).

pub mod cells;
pub mod color;
pub mod debug;
pub mod font;
pub mod grid;
pub mod lattice;
pub mod template;

pub use grid::{CellRead, GridRead, read_grid};
pub use lattice::{Lattice, LatticeParams, find_lattice};
