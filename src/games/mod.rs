//! The games, and the registry that names them on the command line.
//!
//! Each folder is one game: its rules, its reader, its art and one short
//! impl of [`crate::game::Game`]. No game imports another: what two games
//! share lives outside this folder (the engines in [`crate::engines`], the
//! practice-window frame in [`crate::practice`], drawing in [`crate::art`],
//! sampling in [`crate::vision`]).
//!
//! Adding a game means adding a folder here and one line to [`REGISTRY`].

use crate::game::Game;

pub mod bitlock;
pub mod continuity;
pub mod fifteen;
pub mod inertia;
pub mod klotski;
pub mod rush;
pub mod skiddy;
pub mod troyis;

/// Every game boardbot knows, one line each.
pub static REGISTRY: &[&dyn Game] = &[
    &troyis::Troyis,
    &bitlock::BitLock,
    &rush::RUSH,
    &skiddy::SKIDDY,
    &inertia::INERTIA,
    &continuity::CONTINUITY,
    &fifteen::FIFTEEN,
    &klotski::KLOTSKI,
];

/// Looks a game up by its id in `games`.
pub fn find_in(games: &[&'static dyn Game], id: &str) -> Option<&'static dyn Game> {
    games
        .iter()
        .copied()
        .find(|g| g.id().eq_ignore_ascii_case(id))
}

/// Looks a game up by its id.
pub fn find(id: &str) -> Option<&'static dyn Game> {
    find_in(REGISTRY, id)
}

/// The ids of every game, for messages.
pub fn ids() -> Vec<&'static str> {
    REGISTRY.iter().map(|g| g.id()).collect()
}
