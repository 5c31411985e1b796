//! Generic search, shared by every game's solver.
//!
//! - [`bitset`]: the 256-bit bitboard for boards up to 16×16.

pub mod bitset;

pub use bitset::Bits256;
