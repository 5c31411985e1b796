//! boardbot's own art: the drawing primitives every game's pictures are
//! made of, and what `boardbot render` asks of a game ([`render`]).

pub mod render;
