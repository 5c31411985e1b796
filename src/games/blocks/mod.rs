//! The sliding-blocks engine: pieces of any shape slide one cell at a time
//! among walls until the special piece covers the goal (GNOME Klotski,
//! Huarong Dao, and any game of the same model).
//!
//! - [`layout`]: the plain description of a position and its text format.
pub mod layout;

pub use layout::{Floor, Layout, LayoutError, PieceSpec};
