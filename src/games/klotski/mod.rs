//! GNOME Klotski: slide the blocks until the special one (`*`) sits on the
//! goal, in as few moves as the game counts (piece moves) or in single-cell
//! steps. The rules and the search are the shared engine in
//! [`crate::games::blocks`]; this module is the game: the bundled levels and
//! the text commands.
//!
//! - [`levels`]: GNOME's 28 levels, by GSettings index or name.

pub mod levels;

pub mod identify;
pub mod learn;
pub mod look;
pub mod read;
