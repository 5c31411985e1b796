//! Search engines shared by several games, each with a compact encoding of
//! its own: [`blocks`] for sliding blocks of any shape (GNOME Klotski, and
//! Rush Hour as a cross-check), [`tiles`] for sliding tiles with a gap
//! (Fifteen, Continuity's scenes).

pub mod blocks;
pub mod tiles;
