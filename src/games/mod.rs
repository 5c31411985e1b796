//! The games, and the registry that names them on the command line.
//!
//! Each folder is one game: its rules, its reader, its art and one short
//! impl of [`crate::game::Game`]. No game imports another: what two games
//! share lives outside this folder (the engines in [`crate::engines`], the
//! practice-window frame in [`crate::practice`], drawing in [`crate::art`],
//! sampling in [`crate::vision`]).
//!
//! Adding a game means adding a folder here (its `mod.rs` keeps its id as
//! `pub(crate) const ID`) and one line to `registry!` below.

use crate::game::Game;

pub mod bitlock;
pub mod continuity;
pub mod fifteen;
pub mod inertia;
pub mod klotski;
pub mod rush;
pub mod skiddy;
pub mod troyis;

/// Declares [`REGISTRY`] and the ids in the same order, from one line a
/// game (its folder and its [`Game`] value).
macro_rules! registry {
    ($($game:ident :: $value:ident),* $(,)?) => {
        /// Every game boardbot knows, one line each.
        pub static REGISTRY: &[&dyn Game] = &[$(&$game::$value),*];

        /// Each game's id, as [`REGISTRY`] orders them: a game is looked up
        /// by name without calling into every game's code, which lies a
        /// page apart from the next game's (a page fault each, when a
        /// process starts).
        static IDS: &[&str] = &[$($game::ID),*];
    };
}

registry![
    troyis::Troyis,
    bitlock::BitLock,
    rush::RUSH,
    skiddy::SKIDDY,
    inertia::INERTIA,
    continuity::CONTINUITY,
    fifteen::FIFTEEN,
    klotski::KLOTSKI,
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
    let i = IDS.iter().position(|g| g.eq_ignore_ascii_case(id))?;
    REGISTRY.get(i).copied()
}

/// The ids of every game, for messages.
pub fn ids() -> Vec<&'static str> {
    IDS.to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_id_is_its_games_own_and_finds_it() {
        assert_eq!(IDS.len(), REGISTRY.len());
        for (id, g) in IDS.iter().zip(REGISTRY) {
            assert_eq!(*id, g.id());
            let found = find(&id.to_uppercase()).expect("found by its id, in any case");
            assert_eq!(found.id(), g.id());
        }
        assert!(find("chess").is_none());
    }
}
