//! boardbot's own art: the drawing primitives every game's pictures are
//! made of, and what `boardbot render` asks of a game.
//!
//! - [`paint`]: boxes, fills and shapes drawn from a cell's centre out;
//! - [`board`]: the practice windows' board frame (layout, grid lines,
//!   the move counter);
//! - [`font`]: a small pixel font for labels and counters;
//! - [`render`]: the options and result of `boardbot render`.

pub mod board;
pub mod font;
pub mod paint;
pub mod render;
